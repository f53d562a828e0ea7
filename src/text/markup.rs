//! Light markup in abstracts and titles, turned into styled runs.
//!
//! Abstracts carry a little LaTeX (`$25\times$`, `\emph{…}`, `\textsc{Wonda}`,
//! `\href{url}{text}`) and a little markdown (`**bold**`, `*italic*`,
//! `<https://…>`). This module reads both and produces [`Rich`] text: the
//! words as the paper's PDF would show them, with style runs over them and the
//! links found along the way. The parser never fails: what it does not
//! understand it keeps as written.

use super::symbols;

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

    fn add_link(&mut self, url: &str) {
        let url = url.trim();
        if !url.is_empty() && !self.links.iter().any(|l| l == url) {
            self.links.push(url.to_string());
        }
    }

    /// The marks at byte offset `at`.
    pub fn marks_at(&self, at: usize) -> Emphasis {
        self.spans
            .iter()
            .find(|s| s.start <= at && at < s.end)
            .map_or(Emphasis::NONE, |s| s.marks)
    }
}

/// Renders `src` (sanitized text) into styled runs.
pub fn render(src: &str) -> Rich {
    let mut out = Rich::default();
    inline(src, Emphasis::NONE, &mut out, 0);
    out
}

/// True when `src` may hold markup; text without any of its trigger
/// characters renders as itself, which [`plain`] uses to skip the parser.
pub fn has_markup(src: &str) -> bool {
    // Three passes the compiler turns into vector code, rather than one
    // with a branch per byte: common letters (`h`, `-`) made that one slow.
    let b = src.as_bytes();
    let always = b.iter().fold(false, |hit, &c| {
        hit | matches!(
            c,
            b'\\' | b'$' | b'*' | b'_' | b'<' | b'[' | b'`' | b'~' | b'{' | b'}'
        )
    });
    always
        // `''` and `--`.
        || b.iter()
            .zip(b.iter().skip(1))
            .fold(false, |hit, (&x, &y)| hit | ((x == y) & ((x == b'\'') | (x == b'-'))))
        || b
            .iter()
            .zip(&b[1.min(b.len())..])
            .zip(&b[2.min(b.len())..])
            .zip(&b[3.min(b.len())..])
            .fold(false, |hit, (((&h, &t), &u), &p)| {
                hit | ((h == b'h') & (t == b't') & (u == b't') & (p == b'p'))
            })
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

/// Parses text-mode markup in `src` into `out`.
fn inline(src: &str, marks: Emphasis, out: &mut Rich, depth: u8) {
    if depth > MAX_DEPTH {
        out.push(src, marks);
        return;
    }
    let mut i = 0;
    while i < src.len() {
        let rest = &src[i..];
        let c = rest.chars().next().unwrap_or(' ');
        let consumed = match c {
            '\\' => command(src, i, marks, out, depth),
            '$' => dollar(src, i, marks, out, depth),
            '*' | '_' => markdown_emphasis(src, i, c, marks, out, depth),
            '<' => angle_link(rest, marks, out),
            'h' if rest.starts_with("http://") || rest.starts_with("https://") => {
                if prev_char(src, i).is_some_and(is_word_char) {
                    None
                } else {
                    Some(bare_url(rest, marks, out))
                }
            }
            '[' => markdown_link(rest, marks, out, depth),
            '-' => dashes(rest, marks, out),
            '`' => backtick(rest, marks, out),
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
            '{' => match matching_brace(rest) {
                Some(close) => {
                    let (inner, style) = switch(&rest[1..close]);
                    inline(inner, marks.with(style), out, depth + 1);
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

/// Old-style font switches at the start of a group (`{\em With\/}`,
/// `{\sc Adl}`): the rest of the group and its style.
fn switch(group: &str) -> (&str, Emphasis) {
    let Some(after) = group.strip_prefix('\\') else {
        return (group, Emphasis::NONE);
    };
    let name = command_name(after);
    let style = match name {
        "em" | "it" | "sl" | "itshape" | "slshape" => Emphasis::ITALIC,
        "bf" | "bfseries" => Emphasis::BOLD,
        "sc" | "scshape" => Emphasis::SMALLCAPS,
        "tt" | "ttfamily" => Emphasis::CODE,
        "rm" | "sf" | "normalfont" | "upshape" | "rmfamily" | "sffamily" | "mdseries" => {
            Emphasis::NONE
        }
        _ => return (group, Emphasis::NONE),
    };
    let rest = &after[name.len()..];
    (rest.strip_prefix(' ').unwrap_or(rest), style)
}

/// Given text starting with `{`, the byte offset of its matching `}`.
fn matching_brace(s: &str) -> Option<usize> {
    let bytes = s.as_bytes();
    if bytes.first() != Some(&b'{') {
        return None;
    }
    let mut level = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 1,
            b'{' => level += 1,
            b'}' => {
                level -= 1;
                if level == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Reads one `{…}` argument after optional spaces: (inner text, bytes used).
fn brace_arg(s: &str) -> Option<(&str, usize)> {
    let skipped = s.len() - s.trim_start_matches([' ', '\n']).len();
    let t = &s[skipped..];
    let close = matching_brace(t)?;
    Some((&t[1..close], skipped + close + 1))
}

fn command_name(s: &str) -> &str {
    let end = s
        .char_indices()
        .find(|(_, c)| !c.is_ascii_alphabetic())
        .map_or(s.len(), |(i, _)| i);
    &s[..end]
}

/// A backslash in text mode. Returns the bytes consumed.
fn command(src: &str, i: usize, marks: Emphasis, out: &mut Rich, depth: u8) -> Option<usize> {
    let rest = &src[i + 1..];
    let name = command_name(rest);
    if name.is_empty() {
        let c = rest.chars().next()?;
        return match c {
            '%' | '&' | '_' | '$' | '#' | '{' | '}' | '|' => {
                out.push_char(c, marks);
                Some(2)
            }
            ' ' | ',' | ';' | ':' | '!' => {
                if c != '!' {
                    out.push_char(' ', marks);
                }
                Some(2)
            }
            '\\' => {
                out.push_char(' ', marks);
                Some(2)
            }
            // `\/` italic correction, `\-` hyphenation hint: nothing to show.
            '/' | '-' => Some(2),
            '(' => {
                let body = &rest[1..];
                let close = body.find("\\)")?;
                math(&body[..close], marks.with(Emphasis::MATH), out, depth + 1);
                Some(2 + close + 2)
            }
            '[' => {
                let body = &rest[1..];
                let close = body.find("\\]")?;
                math(&body[..close], marks.with(Emphasis::MATH), out, depth + 1);
                Some(2 + close + 2)
            }
            '\'' | '`' | '^' | '"' | '~' | '=' | '.' => {
                accent(rest, c, 1, marks, out).map(|n| n + 1)
            }
            _ => None,
        };
    }
    let after = &rest[name.len()..];
    let head = 1 + name.len();
    let style = match name {
        "textbf" | "bf" | "textbfit" => Some(Emphasis::BOLD),
        "emph" | "textit" | "textsl" | "it" | "em" => Some(Emphasis::ITALIC),
        "textsc" => Some(Emphasis::SMALLCAPS),
        "texttt" | "code" => Some(Emphasis::CODE),
        "textrm" | "textsf" | "textnormal" | "textup" | "mbox" | "text" | "underline" => {
            Some(Emphasis::NONE)
        }
        _ => None,
    };
    if let Some(style) = style
        && let Some((arg, used)) = brace_arg(after)
    {
        inline(arg, marks.with(style), out, depth + 1);
        return Some(head + used);
    }
    match name {
        "textsubscript" | "textsuperscript" => {
            let (arg, used) = brace_arg(after)?;
            let text = plain(arg);
            let sup = name == "textsuperscript";
            match symbols::script(&text, sup) {
                Some(s) => out.push(&s, marks),
                None => {
                    out.push(if sup { "^" } else { "_" }, marks);
                    out.push(&text, marks);
                }
            }
            return Some(head + used);
        }
        "mkbibquote" | "enquote" => {
            let (arg, used) = brace_arg(after)?;
            out.push_char('\u{201C}', marks);
            inline(arg, marks, out, depth + 1);
            out.push_char('\u{201D}', marks);
            return Some(head + used);
        }
        "em" | "it" | "bf" | "sc" | "rm" | "tt" | "sl" | "sf" | "normalfont" | "itshape"
        | "bfseries" | "scshape" | "upshape" => {
            // A switch outside a group: its scope is unknown, drop it.
            let used = if after.starts_with(' ') { 1 } else { 0 };
            return Some(head + used);
        }
        "href" => {
            let (url, u1) = brace_arg(after)?;
            let (label, u2) = brace_arg(&after[u1..])?;
            out.add_link(url);
            inline(label, marks.with(Emphasis::LINK), out, depth + 1);
            return Some(head + u1 + u2);
        }
        "url" => {
            let (url, used) = brace_arg(after)?;
            out.add_link(url);
            out.push(url, marks.with(Emphasis::LINK));
            return Some(head + used);
        }
        "u" | "v" | "H" | "c" | "k" | "r" | "d" | "b" => {
            if let Some(n) = accent(rest, name.chars().next()?, name.len(), marks, out) {
                return Some(n + 1);
            }
        }
        _ => {}
    }
    if let Some(sym) = symbols::text_symbol(name).or_else(|| symbols::math_symbol(name)) {
        out.push(sym, marks);
        // `\ldots{}` and `\o{}`: an empty group ends the command; as in
        // LaTeX, a control word swallows the space after it (`Stra\ss e`,
        // `AND\slash OR`).
        let used = if after.starts_with("{}") {
            2
        } else {
            after.len() - after.trim_start_matches(' ').len()
        };
        return Some(head + used);
    }
    // Unknown: keep it as written, arguments included.
    let mut used = head;
    while let Some((_, n)) =
        brace_arg(&src[i + used..]).filter(|_| src[i + used..].starts_with('{'))
    {
        used += n;
    }
    out.push(&src[i..i + used], marks);
    Some(used)
}

/// An accent command (`\"o`, `\'{e}`, `\c c`): the letter with its
/// diacritic, composed. `rest` starts at the accent character or name.
fn accent(
    rest: &str,
    accent: char,
    name_len: usize,
    marks: Emphasis,
    out: &mut Rich,
) -> Option<usize> {
    let combining = symbols::accent_mark(accent)?;
    let after = &rest[name_len..];
    let (base, used) = if let Some((arg, used)) =
        brace_arg(after).filter(|_| after.trim_start().starts_with('{'))
    {
        (arg, used)
    } else {
        // A letter command needs a space before a bare letter (`\c c`).
        let skip = if accent.is_ascii_alphabetic() {
            after.len() - after.trim_start_matches(' ').len()
        } else {
            0
        };
        let ch = after[skip..].chars().next()?;
        if !ch.is_alphabetic() && ch != '\\' {
            return None;
        }
        (&after[skip..skip + ch.len_utf8()], skip + ch.len_utf8())
    };
    let base = match base {
        "\\i" => "ı".to_string(),
        "\\j" => "ȷ".to_string(),
        // `\c{\u{e}}`: accents on accents.
        other if other.contains('\\') => plain(other),
        other => other.to_string(),
    };
    let mut chars = base.chars();
    let first = chars.next()?;
    out.push(&symbols::compose_str(first, combining), marks);
    for c in chars {
        out.push_char(c, marks);
    }
    Some(name_len + used)
}

/// A `$` in text mode: inline math when it opens a `$…$` pair, else a dollar.
fn dollar(src: &str, i: usize, marks: Emphasis, out: &mut Rich, depth: u8) -> Option<usize> {
    let rest = &src[i..];
    if let Some(body) = rest.strip_prefix("$$") {
        let close = body.find("$$")?;
        math(&body[..close], marks.with(Emphasis::MATH), out, depth + 1);
        return Some(2 + close + 2);
    }
    let before = prev_char(src, i);
    let body = &rest[1..];
    // `US$5` is money; `Cu$_2$O` is chemistry.
    if before.is_some_and(|p| p.is_alphabetic())
        && body.starts_with(|c: char| c.is_ascii_digit() || c.is_whitespace())
    {
        return None;
    }
    // `53.19$\times$` is math, `costs 5$ and 10$` is not.
    if before.is_some_and(|p| p.is_ascii_digit()) && body.starts_with(char::is_whitespace) {
        return None;
    }
    let mut j = 0;
    let bytes = body.as_bytes();
    while j < bytes.len() && j < 400 {
        match bytes[j] {
            b'\\' => j += 2,
            b'\n' => return None,
            b'$' => {
                let content = &body[..j];
                let after = body[j + 1..].chars().next();
                if content.trim().is_empty() || after.is_some_and(|c| c.is_ascii_digit()) {
                    return None; // `$5 and $10`
                }
                math(content, marks.with(Emphasis::MATH), out, depth + 1);
                return Some(1 + j + 1);
            }
            _ => j += 1,
        }
    }
    None
}

/// Markdown emphasis with `*` or `_`: one for italic, two for bold, three
/// for both, only at word boundaries.
fn markdown_emphasis(
    src: &str,
    i: usize,
    c: char,
    marks: Emphasis,
    out: &mut Rich,
    depth: u8,
) -> Option<usize> {
    let rest = &src[i..];
    let run = rest.bytes().take_while(|&b| b == c as u8).count();
    if run > 3 {
        out.push(&rest[..run], marks);
        return Some(run);
    }
    let before = prev_char(src, i);
    let after = next_char(src, i + run);
    let opens = !before.is_some_and(is_word_char) && after.is_some_and(|a| !a.is_whitespace());
    if !opens {
        return None;
    }
    let delim = &rest[..run];
    let mut from = run;
    while let Some(pos) = rest[from..].find(delim) {
        let j = from + pos;
        let closer_run = rest[j..].bytes().take_while(|&b| b == c as u8).count();
        let prev = prev_char(rest, j);
        let next = next_char(rest, j + closer_run);
        let closes = closer_run == run
            && prev.is_some_and(|p| !p.is_whitespace())
            && !next.is_some_and(is_word_char)
            && j > run;
        if closes {
            let style = match run {
                1 => Emphasis::ITALIC,
                2 => Emphasis::BOLD,
                _ => Emphasis::BOLD.with(Emphasis::ITALIC),
            };
            inline(&rest[run..j], marks.with(style), out, depth + 1);
            return Some(j + run);
        }
        from = j + closer_run.max(1);
    }
    None
}

/// `<https://…>` autolinks.
fn angle_link(rest: &str, marks: Emphasis, out: &mut Rich) -> Option<usize> {
    let body = &rest[1..];
    if !(body.starts_with("http://") || body.starts_with("https://")) {
        return None;
    }
    let close = body.find('>')?;
    let url = &body[..close];
    if url.contains(char::is_whitespace) {
        return None;
    }
    out.add_link(url);
    out.push(url, marks.with(Emphasis::LINK));
    Some(close + 2)
}

/// The length of a bare URL at the start of `rest`, without trailing
/// punctuation (and without a closing bracket it did not open).
pub fn url_len(rest: &str) -> usize {
    let mut end = rest
        .find(|c: char| c.is_whitespace() || matches!(c, '<' | '>' | '"' | '\\'))
        .unwrap_or(rest.len());
    loop {
        let url = &rest[..end];
        let Some(last) = url.chars().next_back() else {
            break;
        };
        let unbalanced = |open: char, close: char| {
            last == close && url.matches(open).count() < url.matches(close).count()
        };
        if matches!(last, '.' | ',' | ';' | ':' | '!' | '?' | '\'' | '*')
            || unbalanced('(', ')')
            || unbalanced('[', ']')
            || unbalanced('{', '}')
        {
            end -= last.len_utf8();
        } else {
            break;
        }
    }
    end
}

fn bare_url(rest: &str, marks: Emphasis, out: &mut Rich) -> usize {
    let end = url_len(rest);
    let url = &rest[..end];
    out.add_link(url);
    out.push(url, marks.with(Emphasis::LINK));
    end
}

/// `[text](url)`.
fn markdown_link(rest: &str, marks: Emphasis, out: &mut Rich, depth: u8) -> Option<usize> {
    let close = rest.find("](")?;
    let label = &rest[1..close];
    if label.contains(['[', ']', '\n']) {
        return None;
    }
    let tail = &rest[close + 2..];
    let end = tail.find(')')?;
    let url = &tail[..end];
    if url.contains(char::is_whitespace) || !(url.starts_with("http") || url.contains('.')) {
        return None;
    }
    out.add_link(url);
    inline(label, marks.with(Emphasis::LINK), out, depth + 1);
    Some(close + 2 + end + 1)
}

/// `--` and `---` as en and em dashes.
fn dashes(rest: &str, marks: Emphasis, out: &mut Rich) -> Option<usize> {
    if rest.starts_with("---") {
        out.push_char('\u{2014}', marks);
        Some(3)
    } else if rest.starts_with("--") {
        out.push_char('\u{2013}', marks);
        Some(2)
    } else {
        None
    }
}

/// LaTeX quotes (``` `` ``` → “) and markdown code spans.
fn backtick(rest: &str, marks: Emphasis, out: &mut Rich) -> Option<usize> {
    if rest.starts_with("``") {
        out.push_char('\u{201C}', marks);
        return Some(2);
    }
    let body = &rest[1..];
    let close = body.find('`')?;
    let code = &body[..close];
    if code.is_empty() || code.contains('\n') || code.starts_with(' ') {
        if rest.len() > 1 {
            out.push_char('\u{2018}', marks);
            return Some(1);
        }
        return None;
    }
    out.push(code, marks.with(Emphasis::CODE));
    Some(close + 2)
}

/// Renders math-mode `src` into `out`: commands to symbols, scripts to
/// Unicode where every character has a form, braces unwrapped.
fn math(src: &str, marks: Emphasis, out: &mut Rich, depth: u8) {
    let mut m = Rich::default();
    math_into(src, marks, &mut m, depth);
    // Spaces at the edges of `$ q^* $` are not part of the formula.
    let text = m.text.trim();
    if text.len() != m.text.len() {
        let lead = m.text.len() - m.text.trim_start().len();
        for span in &m.spans {
            let s = span.start.max(lead);
            let e = span.end.min(lead + text.len());
            if s < e {
                out.push(&m.text[s..e], span.marks);
            }
        }
    } else {
        for span in &m.spans {
            out.push(&m.text[span.start..span.end], span.marks);
        }
    }
    for link in m.links {
        out.add_link(&link);
    }
}

fn math_into(src: &str, marks: Emphasis, out: &mut Rich, depth: u8) {
    if depth > MAX_DEPTH {
        out.push(src, marks);
        return;
    }
    let mut i = 0;
    while i < src.len() {
        let rest = &src[i..];
        let c = rest.chars().next().unwrap_or(' ');
        match c {
            '\\' => i += math_command(src, i, marks, out, depth),
            '^' | '_' => {
                let (token, used) = script_token(&rest[1..]);
                let mut inner = Rich::default();
                math_into(token, marks, &mut inner, depth + 1);
                let mapped = symbols::script(&inner.text, c == '^');
                match mapped {
                    Some(s) => out.push(&s, marks),
                    None => {
                        out.push_char(c, marks);
                        if inner.text.chars().count() == 1 {
                            out.push(&inner.text, marks);
                        } else {
                            out.push("{", marks);
                            out.push(&inner.text, marks);
                            out.push("}", marks);
                        }
                    }
                }
                i += 1 + used;
            }
            '{' => match matching_brace(rest) {
                Some(close) => {
                    math_into(&rest[1..close], marks, out, depth + 1);
                    i += close + 1;
                }
                None => {
                    out.push_char('{', marks);
                    i += 1;
                }
            },
            '}' => i += 1,
            '~' => {
                out.push_char(' ', marks);
                i += 1;
            }
            '-' => {
                out.push_char('\u{2212}', marks);
                i += 1;
            }
            '\'' => {
                out.push_char('\u{2032}', marks);
                i += 1;
            }
            c if c.is_whitespace() => {
                if !out.text.ends_with(' ') {
                    out.push_char(' ', marks);
                }
                i += c.len_utf8();
            }
            c => {
                out.push_char(c, marks);
                i += c.len_utf8();
            }
        }
    }
}

/// The token a `^` or `_` applies to: a group, a command or one character.
fn script_token(rest: &str) -> (&str, usize) {
    let skipped = rest.len() - rest.trim_start().len();
    let t = &rest[skipped..];
    if t.starts_with('{')
        && let Some(close) = matching_brace(t)
    {
        return (&t[1..close], skipped + close + 1);
    }
    if let Some(after) = t.strip_prefix('\\') {
        let name = command_name(after);
        let mut len = if name.is_empty() {
            1 + after.chars().next().map_or(0, char::len_utf8)
        } else {
            1 + name.len()
        };
        // `T_\mathrm{c}`: the command's arguments belong to the script.
        let groups = if matches!(name, "frac" | "dfrac" | "tfrac") {
            2
        } else {
            1
        };
        for _ in 0..groups {
            if !name.is_empty()
                && t[len..].starts_with('{')
                && let Some(close) = matching_brace(&t[len..])
            {
                len += close + 1;
            }
        }
        return (&t[..len], skipped + len);
    }
    match t.chars().next() {
        Some(c) => (&t[..c.len_utf8()], skipped + c.len_utf8()),
        None => ("", skipped),
    }
}

/// A backslash in math mode. Returns the bytes consumed (at least 1).
fn math_command(src: &str, i: usize, marks: Emphasis, out: &mut Rich, depth: u8) -> usize {
    let rest = &src[i + 1..];
    let name = command_name(rest);
    if name.is_empty() {
        let Some(c) = rest.chars().next() else {
            out.push_char('\\', marks);
            return 1;
        };
        match c {
            ',' | ':' | ';' | ' ' => out.push_char(' ', marks),
            '!' => {}
            '|' => out.push_char('\u{2016}', marks),
            '\\' => out.push_char(' ', marks),
            c => out.push_char(c, marks),
        }
        return 1 + c.len_utf8();
    }
    let head = 1 + name.len();
    let after = &rest[name.len()..];
    match name {
        "mathbb" | "mathcal" | "mathfrak" | "mathscr" | "mathbf" | "boldsymbol" | "bm"
        | "mathrm" | "text" | "textrm" | "mathit" | "mathsf" | "mathtt" | "operatorname"
        | "textnormal" | "mbox" | "textit" | "textbf" | "emph" => {
            let Some((arg, used)) = arg_or_token(after) else {
                out.push(&src[i..i + head], marks);
                return head;
            };
            match name {
                "mathbb" | "mathcal" | "mathfrak" | "mathscr" => {
                    let mapped: String = arg
                        .chars()
                        .map(|c| symbols::alphabet(name, c).unwrap_or(c))
                        .collect();
                    out.push(&mapped, marks);
                }
                "mathbf" | "boldsymbol" | "bm" | "textbf" => {
                    math_into(arg, marks.with(Emphasis::BOLD), out, depth + 1)
                }
                "text" | "textrm" | "mbox" | "textnormal" | "textit" | "emph" => {
                    inline(arg, marks, out, depth + 1)
                }
                _ => math_into(arg, marks, out, depth + 1),
            }
            head + used
        }
        "frac" | "dfrac" | "tfrac" => {
            let Some((num, u1)) = arg_or_token(after) else {
                out.push(&src[i..i + head], marks);
                return head;
            };
            let Some((den, u2)) = arg_or_token(&after[u1..]) else {
                out.push(&src[i..i + head], marks);
                return head;
            };
            for (k, part) in [num, den].into_iter().enumerate() {
                if k == 1 {
                    out.push_char('/', marks);
                }
                let mut inner = Rich::default();
                math_into(part, marks, &mut inner, depth + 1);
                let t = inner.text.trim();
                if t.chars().count() > 1 && !t.chars().all(|c| c.is_alphanumeric() || c == '.') {
                    out.push("(", marks);
                    out.push(t, marks);
                    out.push(")", marks);
                } else {
                    out.push(t, marks);
                }
            }
            head + u1 + u2
        }
        "sqrt" => {
            let Some((arg, used)) = arg_or_token(after) else {
                out.push_char('\u{221A}', marks);
                return head;
            };
            let mut inner = Rich::default();
            math_into(arg, marks, &mut inner, depth + 1);
            out.push_char('\u{221A}', marks);
            if inner.text.chars().count() > 1 {
                out.push("(", marks);
                out.push(&inner.text, marks);
                out.push(")", marks);
            } else {
                out.push(&inner.text, marks);
            }
            head + used
        }
        "hat" | "widehat" | "tilde" | "widetilde" | "bar" | "overline" | "vec" | "dot" | "ddot" => {
            let Some((arg, used)) = arg_or_token(after) else {
                out.push(&src[i..i + head], marks);
                return head;
            };
            let mut inner = Rich::default();
            math_into(arg, marks, &mut inner, depth + 1);
            let mark = match name {
                "hat" | "widehat" => '\u{0302}',
                "tilde" | "widetilde" => '\u{0303}',
                "bar" | "overline" => '\u{0304}',
                "vec" => '\u{20D7}',
                "dot" => '\u{0307}',
                _ => '\u{0308}',
            };
            let mut s = inner.text.clone();
            s.push(mark);
            out.push(&s, marks);
            head + used
        }
        "left" | "right" | "big" | "Big" | "bigg" | "Bigg" | "bigl" | "bigr" | "Bigl" | "Bigr"
        | "displaystyle" | "textstyle" | "limits" | "nolimits" => head,
        "quad" | "qquad" => {
            out.push_char(' ', marks);
            head
        }
        _ => {
            if let Some(sym) = symbols::math_symbol(name).or_else(|| symbols::text_symbol(name)) {
                out.push(sym, marks);
            } else if let Some(f) = symbols::math_function(name) {
                out.push(f, marks);
            } else {
                out.push(&src[i..i + head], marks);
            }
            // A control word swallows the spaces after it, unless spaces
            // stood before it too (`a \leq b` keeps its spacing).
            let spaced = src[..i].ends_with(' ');
            if spaced {
                head
            } else {
                head + (after.len() - after.trim_start_matches(' ').len())
            }
        }
    }
}

/// A `{…}` argument, or else the single token that follows.
fn arg_or_token(after: &str) -> Option<(&str, usize)> {
    if after.trim_start().starts_with('{') {
        return brace_arg(after);
    }
    let (tok, used) = script_token(after);
    (!tok.is_empty()).then_some((tok, used))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> String {
        plain(s)
    }

    #[test]
    fn math_symbols_and_scripts() {
        assert_eq!(p("$25\\times$ faster"), "25× faster");
        assert_eq!(p("($R_{\\beta}=0.53$)"), "(Rᵦ=0.53)");
        assert_eq!(p("($\\approx9\\%$)"), "(≈9%)");
        assert_eq!(p("($ q^* $)"), "(q*)");
        assert_eq!(p("$R_g=0.97$"), "R_g=0.97");
        assert_eq!(p("$x_{ij}$"), "xᵢⱼ");
        assert_eq!(p("$x_{gh}$"), "x_{gh}");
        assert_eq!(p("$\\mathbb{R}^d$"), "ℝᵈ");
        assert_eq!(p("$1.7\\times\\sim2.0\\times$"), "1.7×∼2.0×");
        assert_eq!(p("$Y\\mid X$"), "Y∣X");
        assert_eq!(p("$\\foo{x}$"), "\\foox");
    }

    #[test]
    fn dollars_that_are_not_math() {
        assert_eq!(p("costs $5 and $10 today"), "costs $5 and $10 today");
        assert_eq!(p("US$5 or US$6"), "US$5 or US$6");
        assert_eq!(p("a lone $"), "a lone $");
        assert_eq!(p("costs 5$ and 10$ today"), "costs 5$ and 10$ today");
        assert_eq!(
            p("up to **53.19$\\times$** on MBPP"),
            "up to 53.19× on MBPP"
        );
    }

    #[test]
    fn markdown_emphasis_at_word_boundaries() {
        let r = render("a **bold** and *it* and ***both*** x");
        assert_eq!(r.text, "a bold and it and both x");
        assert!(r.marks_at(2).has(Emphasis::BOLD));
        assert!(r.marks_at(11).has(Emphasis::ITALIC));
        assert!(r.marks_at(18).has(Emphasis::BOLD.with(Emphasis::ITALIC)));
        assert_eq!(p("snake_case_name and a*b*c"), "snake_case_name and a*b*c");
        assert_eq!(p("__bold__ _it_"), "bold it");
        assert_eq!(
            p("result,*SpecFlow* maintains"),
            "result,SpecFlow maintains"
        );
        assert_eq!(p("up to *$2.1\\times$*."), "up to 2.1×.");
    }

    #[test]
    fn latex_text_commands() {
        assert_eq!(
            p("\\emph{denoises} and \\textsc{Wonda}-curated"),
            "denoises and Wonda-curated"
        );
        assert_eq!(p("$\\textbf{InstEmb}$, a"), "InstEmb, a");
        let r = render("at \\href{https://x.org/r}{\\texttt{CoPro}}.");
        assert_eq!(r.text, "at CoPro.");
        assert_eq!(r.links, vec!["https://x.org/r"]);
        assert!(r.marks_at(3).has(Emphasis::CODE));
        assert_eq!(p("1.1\\% and \\& x\\_y \\$"), "1.1% and & x_y $");
        assert_eq!(p("label shift---or not--maybe"), "label shift—or not–maybe");
        assert_eq!(p("``scaling law''"), "\u{201C}scaling law\u{201D}");
        assert_eq!(p("see \\cite{foo} here"), "see \\cite{foo} here");
    }

    #[test]
    fn accents() {
        assert_eq!(p("{\\\"o}"), "ö");
        assert_eq!(p("Fr\\'{e}chet"), "Fréchet");
        assert_eq!(p("\\c{c}a"), "ça");
        assert_eq!(p("Erd\\H{o}s"), "Erdős");
        assert_eq!(p("\\ss{}"), "ß");
        assert_eq!(p("Stra\\ss e"), "Straße");
        assert_eq!(p("{H\\c{\\u{e}}dzelek}"), "Hḝdzelek");
    }

    #[test]
    fn links() {
        let r = render(
            "Code: <https://github.com/ffh-wyls/DC-Leap>. See https://github.com/thu-nics/TaH.",
        );
        assert_eq!(
            r.text,
            "Code: https://github.com/ffh-wyls/DC-Leap. See https://github.com/thu-nics/TaH."
        );
        assert_eq!(
            r.links,
            vec![
                "https://github.com/ffh-wyls/DC-Leap",
                "https://github.com/thu-nics/TaH"
            ]
        );
        assert_eq!(
            url_len("https://x.org/a_(b)),"),
            "https://x.org/a_(b)".len()
        );
    }

    #[test]
    fn inline_math_forms() {
        assert_eq!(p("\\(a \\leq b\\) and $\\pm 1$"), "a ≤ b and ±1");
        assert_eq!(p("$\\mathrm{KL}(p \\| q)$"), "KL(p ‖ q)");
        assert_eq!(p("$\\text{acc} \\geq 0.9$"), "acc ≥ 0.9");
        assert_eq!(
            p("$\\alpha\\beta\\Gamma \\infty \\to \\ell \\cdot \\neq$"),
            "αβΓ∞ → ℓ · ≠"
        );
        assert_eq!(p("$\\frac{1}{2}$ and $\\sqrt{x+1}$"), "1/2 and √(x+1)");
        assert_eq!(p("$x^{2}_{i}$"), "x²ᵢ");
    }

    #[test]
    fn unknown_commands_stay_as_written() {
        assert_eq!(p("a \\foo b"), "a \\foo b");
        assert_eq!(p("$\\weird$"), "\\weird");
        assert_eq!(p("\\unknown{arg}{two}"), "\\unknown{arg}{two}");
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
    fn bibtex_title_forms() {
        assert_eq!(p("{Cu$_2$O} Thin Film"), "Cu₂O Thin Film");
        assert_eq!(p("$T_\\mathrm{c}$ and $T_{\\mathrm{c}}$"), "T_c and T_c");
        assert_eq!(p("$x_\\mathrm{max}$"), "xₘₐₓ");
        assert_eq!(
            p("{\\em With\\/} and {\\sc Adl}: {\\it k\\/}-{\\rm 2nd ed.}"),
            "With and Adl: k-2nd ed."
        );
        let r = render("{\\em With}");
        assert!(r.marks_at(0).has(Emphasis::ITALIC));
        assert_eq!(
            p("pre\\-Columbian AND\\slash OR 2\\texttimes 2 \\texteuro{}5 \\textmu m"),
            "preColumbian AND/OR 2×2 €5 µm"
        );
        assert_eq!(
            p("T\\textsubscript{f} and x\\textsuperscript{2}"),
            "T_f and x²"
        );
        assert_eq!(p("\\mkbibquote{quoted}"), "\u{201C}quoted\u{201D}");
        assert_eq!(p("$\\varGamma_7^+$"), "Γ₇⁺");
        assert_eq!(p("\\textbackslash emph"), "\\emph");
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
mod seed_tests {
    use super::*;

    /// Renders every bundled abstract and returns the leftovers of markup:
    /// dollars, backslash commands, `**`, `__`, braces.
    fn leftovers() -> Vec<(usize, String)> {
        let corpus = crate::corpus::load::bundled().corpus;
        let mut out = Vec::new();
        for (i, p) in corpus.papers.iter().enumerate() {
            let t = render(&p.abstract_text.text()).text;
            for (k, c) in t.char_indices() {
                let next = t[k + c.len_utf8()..].chars().next();
                let bad = c == '$'
                    || (c == '\\' && next.is_some_and(|n| n.is_ascii_alphabetic()))
                    || ((c == '*' || c == '_') && next == Some(c))
                    || c == '{'
                    || c == '}';
                if bad {
                    let s = t[k.saturating_sub(20)..].chars().take(40).collect();
                    out.push((i, s));
                }
            }
        }
        out
    }

    #[test]
    fn no_markup_is_left_in_any_rendered_seed_abstract() {
        let left = leftovers();
        assert!(left.is_empty(), "{left:#?}");
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
            let _ = render(&s);
        }
    }
}
