//! Light markup in abstracts and titles, turned into styled runs.
//!
//! Abstracts carry a little LaTeX (`$25\times$`, `\emph{…}`, `\textsc{Wonda}`,
//! `\href{url}{text}`) and a little markdown (`**bold**`, `*italic*`,
//! `<https://…>`). This module reads both and produces [`Rich`] text: the
//! words as the paper's PDF would show them, with style runs over them and the
//! links found along the way. The parser never fails: what it does not
//! understand it keeps as written.
//!
//! This file holds the rendered form and the text-mode reader that hands
//! each trigger character to the code for its syntax: `latex` (backslash
//! commands, groups, dashes), `math` (`$…$` and its kin) and `markdown`
//! (emphasis, links, URLs, code spans). Their look-ahead goes through
//! a `scan::Scan`, made for the text being rendered and passed by
//! reference to each of them, which remembers it, so that no input,
//! however hostile, is read more than a few times over.

mod braces;
mod latex;
mod markdown;
mod math;
mod scan;

use latex::{command, dashes, switch};
pub use markdown::url_len;
use markdown::{angle_link, backtick, bare_url, markdown_emphasis, markdown_link};
use math::dollar;
use scan::Scan;

/// Style flags of a run of text.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub struct Emphasis(u8);

impl Emphasis {
    /// No style.
    pub const NONE: Emphasis = Emphasis(0);
    /// `**bold**`, `\textbf{}`.
    pub const BOLD: Emphasis = Emphasis(1);
    /// `*italic*`, `\emph{}`.
    pub const ITALIC: Emphasis = Emphasis(2);
    /// `\texttt{}`, `` `code` ``.
    pub const CODE: Emphasis = Emphasis(4);
    /// Inline math.
    pub const MATH: Emphasis = Emphasis(8);
    /// `\textsc{}`.
    pub const SMALLCAPS: Emphasis = Emphasis(16);
    /// The text of a link.
    pub const LINK: Emphasis = Emphasis(32);

    /// True when every flag of `other` is set here.
    pub fn has(self, other: Emphasis) -> bool {
        self.0 & other.0 == other.0 && other.0 != 0
    }

    /// These marks plus `other`.
    pub fn with(self, other: Emphasis) -> Emphasis {
        Emphasis(self.0 | other.0)
    }
}

/// A run of text with one set of marks: `text[start..end]`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Span {
    /// Byte offset where the run starts.
    pub start: usize,
    /// Byte offset where the run ends.
    pub end: usize,
    /// Its style.
    pub marks: Emphasis,
}

/// Rendered text: the readable words, the style runs that cover them end to
/// end, and the links in order of appearance.
#[derive(Clone, Default, PartialEq, Eq, Debug)]
pub struct Rich {
    /// The text as it reads, markup removed.
    pub text: String,
    /// Style runs, contiguous, covering all of `text`.
    pub spans: Vec<Span>,
    /// Link targets found in the text (`\href`, `\url`, `<…>`, bare URLs).
    pub links: Vec<String>,
}

impl Rich {
    fn push(&mut self, s: &str, marks: Emphasis) {
        if s.is_empty() {
            return;
        }
        let start = self.text.len();
        self.text.push_str(s);
        let end = self.text.len();
        match self.spans.last_mut() {
            Some(last) if last.marks == marks && last.end == start => last.end = end,
            _ => self.spans.push(Span { start, end, marks }),
        }
    }

    fn push_char(&mut self, c: char, marks: Emphasis) {
        let mut buf = [0u8; 4];
        self.push(c.encode_utf8(&mut buf), marks);
    }

    /// Adds a link; [`render`] drops the repeats at the end (looking for
    /// each among all the links before it was quadratic in their number).
    fn add_link(&mut self, url: &str) {
        let url = url.trim();
        if !url.is_empty() && self.links.last().is_none_or(|l| l != url) {
            self.links.push(url.to_string());
        }
    }

    /// Keeps the first of each link.
    fn dedup_links(&mut self) {
        let mut seen = std::collections::HashSet::new();
        let mut links = std::mem::take(&mut self.links);
        links.retain(|l| seen.insert(l.clone()));
        self.links = links;
    }

    /// The marks at byte offset `at`.
    pub fn marks_at(&self, at: usize) -> Emphasis {
        // The runs are in order and do not overlap.
        let k = self.spans.partition_point(|s| s.end <= at);
        self.spans
            .get(k)
            .filter(|s| s.start <= at && at < s.end)
            .map_or(Emphasis::NONE, |s| s.marks)
    }
}

/// Renders `src` (sanitized text) into styled runs.
pub fn render(src: &str) -> Rich {
    render_in(&mut Scan::new(src), src, 0)
}

/// [`render`] of `src`, a slice of the text `scan` covers (or not: then
/// looked at without its memory), as markup nested `depth` deep.
fn render_in(scan: &mut Scan<'_>, src: &str, depth: u8) -> Rich {
    let mut out = Rich::default();
    inline(scan, src, Emphasis::NONE, &mut out, depth);
    out.dedup_links();
    out
}

/// [`plain`] of `src`, a slice of the text `scan` covers, for a reader
/// at `depth` that renders an argument on its own. Nested one deeper, so
/// that a text of such arguments nested in one another (a megabyte of
/// `\textsubscript{`, with its `}`s) is cut off at [`MAX_DEPTH`] like
/// any other nesting, not read once per level into a stack overflow.
fn plain_in(scan: &mut Scan<'_>, src: &str, depth: u8) -> String {
    if has_markup(src) {
        render_in(scan, src, depth + 1).text
    } else {
        src.to_owned()
    }
}

/// True when `src` may hold markup; text without any of its trigger
/// characters renders as itself, which [`plain`] uses to skip the parser.
pub fn has_markup(src: &str) -> bool {
    let b = src.as_bytes();
    // Three passes the compiler turns into vector code, rather than one
    // with a branch per byte: common letters (`h`, `-`) made that one slow.
    let always = b.iter().fold(false, |hit, &c| hit | markup_byte(c, true));
    always
        || b.iter()
            .zip(b.iter().skip(1))
            .fold(false, |hit, (&x, &y)| hit | markup_pair(x, y))
        || has_http(b)
}

/// A byte that always starts markup (a backslash only when `backslash`).
#[inline(always)]
pub fn markup_byte(c: u8, backslash: bool) -> bool {
    (backslash & (c == b'\\'))
        | matches!(
            c,
            b'$' | b'*' | b'_' | b'<' | b'[' | b'`' | b'~' | b'{' | b'}'
        )
}

/// Two bytes side by side that start markup: `''` and `--`.
#[inline(always)]
pub fn markup_pair(x: u8, y: u8) -> bool {
    (x == y) & ((x == b'\'') | (x == b'-'))
}

/// Whether `b` holds `http`, which starts a link. By `memchr`'s vector
/// search: a pass of four bytes side by side took an instruction a byte,
/// 3% of a cold search's (every abstract is asked).
pub fn has_http(b: &[u8]) -> bool {
    static HTTP: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"http"));
    HTTP.find(b).is_some()
}

/// The readable text of `src`, markup removed.
pub fn plain(src: &str) -> String {
    plain_cow(src).into_owned()
}

/// [`plain`], borrowing `src` when it holds no markup (most text).
pub fn plain_cow(src: &str) -> std::borrow::Cow<'_, str> {
    if has_markup(src) {
        std::borrow::Cow::Owned(render(src).text)
    } else {
        std::borrow::Cow::Borrowed(src)
    }
}

/// Deep nesting is cut off here; the rest is kept as written.
const MAX_DEPTH: u8 = 24;

fn prev_char(src: &str, i: usize) -> Option<char> {
    src[..i].chars().next_back()
}

fn next_char(src: &str, i: usize) -> Option<char> {
    src[i..].chars().next()
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric()
}

/// The bytes that [`inline`] looks at: the characters that may start
/// markup there. Any other character is text as it stands.
const STARTS: [bool; 256] = {
    let mut t = [false; 256];
    let starts = b"\\$*_<h[-`'~{";
    let mut k = 0;
    while k < starts.len() {
        t[starts[k] as usize] = true;
        k += 1;
    }
    t
};

/// Parses text-mode markup in `src` into `out`.
fn inline(scan: &mut Scan<'_>, src: &str, marks: Emphasis, out: &mut Rich, depth: u8) {
    // Each level of nesting reads its own part of the text once.
    scan::count(src.len());
    if depth > MAX_DEPTH {
        out.push(src, marks);
        return;
    }
    let mut i = 0;
    while i < src.len() {
        // A run of characters that start nothing is its own text: pushed
        // whole, not a character at a time (most of an abstract with TeX
        // in it; the characters that may start something are ASCII).
        let plain = src.as_bytes()[i..]
            .iter()
            .position(|&b| STARTS[usize::from(b)])
            .unwrap_or(src.len() - i);
        if plain > 0 {
            out.push(&src[i..i + plain], marks);
            i += plain;
            continue;
        }
        let rest = &src[i..];
        let c = rest.chars().next().unwrap_or(' ');
        let consumed = match c {
            '\\' => command(scan, src, i, marks, out, depth),
            '$' => dollar(scan, src, i, marks, out, depth),
            '*' | '_' => markdown_emphasis(scan, src, i, c, marks, out, depth),
            '<' => angle_link(scan, rest, marks, out),
            'h' if rest.starts_with("http://") || rest.starts_with("https://") => {
                if prev_char(src, i).is_some_and(is_word_char) {
                    None
                } else {
                    Some(bare_url(rest, marks, out))
                }
            }
            '[' => markdown_link(scan, rest, marks, out, depth),
            '-' => dashes(rest, marks, out),
            '`' => backtick(scan, rest, marks, out),
            '\'' if rest.starts_with("''") => {
                out.push_char('\u{201D}', marks);
                Some(2)
            }
            '~' => {
                let spaced = prev_char(src, i).is_some_and(|p| !p.is_whitespace())
                    && next_char(src, i + 1).is_some_and(|n| !n.is_whitespace());
                if spaced {
                    out.push_char('\u{A0}', marks);
                    Some(1)
                } else {
                    None
                }
            }
            '{' => match scan.matching_brace(rest) {
                Some(close) => {
                    let (inner, style) = switch(&rest[1..close]);
                    inline(scan, inner, marks.with(style), out, depth + 1);
                    Some(close + 1)
                }
                None => None,
            },
            _ => None,
        };
        match consumed {
            Some(n) if n > 0 => i += n,
            _ => {
                out.push_char(c, marks);
                i += c.len_utf8();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn p(s: &str) -> String {
        plain(s)
    }

    #[test]
    fn more_text_forms() {
        let r = render("see \\url{https://x.org/a} and Fig.~3 and ~10x");
        assert_eq!(r.text, "see https://x.org/a and Fig.\u{a0}3 and ~10x");
        assert_eq!(r.links, vec!["https://x.org/a"]);
        assert_eq!(p("\\textit{it} \\textbf{\\emph{both}}"), "it both");
        let r = render("\\textbf{\\emph{both}}");
        assert!(r.marks_at(0).has(Emphasis::BOLD.with(Emphasis::ITALIC)));
        assert_eq!(p("a `code span` b"), "a code span b");
        assert_eq!(p("[the paper](https://x.org/p)"), "the paper");
    }

    #[test]
    fn text_without_markup_is_its_own_rendering() {
        for s in [
            "Self-Supervised Transformers",
            "π-Distill: a joint teacher–student framework",
            "plain words",
        ] {
            assert!(!has_markup(s));
            assert_eq!(render(s).text, s);
        }
        for s in ["a $x$", "a -- b", "it''s", "see http://x", "a_b", "\\x"] {
            assert!(has_markup(s), "{s}");
        }
    }

    #[test]
    fn spans_cover_text() {
        let r = render("x **y** $z^2$ w");
        let mut at = 0;
        for s in &r.spans {
            assert_eq!(s.start, at);
            at = s.end;
        }
        assert_eq!(at, r.text.len());
    }
}

#[cfg(test)]
mod props {
    use super::*;
    use proptest::prelude::*;

    fn markupish() -> impl Strategy<Value = String> {
        proptest::collection::vec(
            prop_oneof![
                Just("$".to_string()),
                Just("\\".to_string()),
                Just("{".to_string()),
                Just("}".to_string()),
                Just("*".to_string()),
                Just("_".to_string()),
                Just("^".to_string()),
                Just("\\frac".to_string()),
                Just("\\href".to_string()),
                Just("\\textbf".to_string()),
                Just("<https://".to_string()),
                Just("`".to_string()),
                Just("~".to_string()),
                Just("--".to_string()),
                Just("\\(".to_string()),
                "[a-zA-Z0-9 .,]{0,4}".prop_map(|s| s),
                any::<char>().prop_map(|c| c.to_string()),
            ],
            0..40,
        )
        .prop_map(|v| v.concat())
    }

    /// [`has_markup`] as first written: a byte at a time.
    fn has_markup_bytewise(src: &str) -> bool {
        let b = src.as_bytes();
        for (i, &c) in b.iter().enumerate() {
            match c {
                b'\\' | b'$' | b'*' | b'_' | b'<' | b'[' | b'`' | b'~' | b'{' | b'}' => {
                    return true;
                }
                b'\'' | b'-' if b.get(i + 1) == Some(&c) => return true,
                b'h' if b[i..].starts_with(b"http") => return true,
                _ => {}
            }
        }
        false
    }

    proptest! {
        #[test]
        fn markup_is_found_as_a_byte_at_a_time(
            s in prop_oneof![markupish(), "[-'hatp x]{0,12}", any::<String>()]
        ) {
            prop_assert_eq!(has_markup(&s), has_markup_bytewise(&s), "{:?}", s);
        }

        #[test]
        fn rendering_never_panics_and_spans_cover_the_text(s in markupish()) {
            let r = render(&s);
            let mut at = 0;
            for span in &r.spans {
                prop_assert_eq!(span.start, at);
                prop_assert!(span.end > span.start);
                at = span.end;
            }
            prop_assert_eq!(at, r.text.len());
            for w in [1usize, 7, 40] {
                for line in crate::text::wrap::wrap(&r.text, w) {
                    prop_assert!(r.text.is_char_boundary(line.start) && r.text.is_char_boundary(line.end));
                }
            }
        }

        #[test]
        fn rendering_arbitrary_strings_never_panics(s in any::<String>()) {
            let r = render(&s);
            // And the runs still end where the text does.
            prop_assert_eq!(r.spans.last().map_or(0, |span| span.end), r.text.len());
        }
    }
}
