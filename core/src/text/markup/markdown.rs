//! Markdown and plain-text conventions: `*`/`_` emphasis, `[text](url)`
//! and `<https://…>` links, bare URLs, and backticks (code spans, and the
//! LaTeX opening quote).

use super::scan::{Scan, count};
use super::{Emphasis, Rich, inline, is_word_char, next_char, prev_char};

/// Markdown emphasis with `*` or `_`: one for italic, two for bold, three
/// for both, only at word boundaries.
pub(super) fn markdown_emphasis(
    scan: &mut Scan<'_>,
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
    // The first run of exactly `run` times `c` after a non-space and
    // before a non-word character closes (the opener's run is whole, so
    // what follows it is not `c`).
    let j = run + scan.emphasis_closer(&rest[run..], c as u8, run)?;
    let style = match run {
        1 => Emphasis::ITALIC,
        2 => Emphasis::BOLD,
        _ => Emphasis::BOLD.with(Emphasis::ITALIC),
    };
    inline(scan, &rest[run..j], marks.with(style), out, depth + 1);
    Some(j + run)
}

/// `<https://…>` autolinks.
pub(super) fn angle_link(
    scan: &mut Scan<'_>,
    rest: &str,
    marks: Emphasis,
    out: &mut Rich,
) -> Option<usize> {
    let body = &rest[1..];
    if !(body.starts_with("http://") || body.starts_with("https://")) {
        return None;
    }
    let close = scan.find(body, ">")?;
    let url = &body[..close];
    if scan.has_space(url) {
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
    count(end);
    // Opening minus closing brackets of each kind in `rest[..end]`, counted
    // once when a closing one ends the URL and kept as the end moves back.
    let mut balance: Option<[isize; 3]> = None;
    const PAIRS: [(u8, u8); 3] = [(b'(', b')'), (b'[', b']'), (b'{', b'}')];
    while let Some(last) = rest[..end].chars().next_back() {
        let closer = PAIRS.iter().position(|&(_, close)| last == close as char);
        let unbalanced = closer.is_some_and(|k| {
            let counts = balance.get_or_insert_with(|| {
                count(end);
                let mut counts = [0isize; 3];
                for &b in &rest.as_bytes()[..end] {
                    for (k, &(open, close)) in PAIRS.iter().enumerate() {
                        counts[k] += isize::from(b == open) - isize::from(b == close);
                    }
                }
                counts
            });
            counts[k] < 0
        });
        if matches!(last, '.' | ',' | ';' | ':' | '!' | '?' | '\'' | '*') || unbalanced {
            end -= last.len_utf8();
            if let (Some(k), Some(counts)) = (closer, balance.as_mut()) {
                counts[k] += 1;
            }
        } else {
            break;
        }
    }
    end
}

pub(super) fn bare_url(rest: &str, marks: Emphasis, out: &mut Rich) -> usize {
    let end = url_len(rest);
    let url = &rest[..end];
    out.add_link(url);
    out.push(url, marks.with(Emphasis::LINK));
    end
}

/// `[text](url)`.
pub(super) fn markdown_link(
    scan: &mut Scan<'_>,
    rest: &str,
    marks: Emphasis,
    out: &mut Rich,
    depth: u8,
) -> Option<usize> {
    let close = scan.find(rest, "](")?;
    let label = &rest[1..close];
    // Stops at the next `[` at the latest, which the next call starts from.
    let stop = label.find(['[', ']', '\n']);
    count(stop.unwrap_or(label.len()));
    if stop.is_some() {
        return None;
    }
    let tail = &rest[close + 2..];
    let end = scan.find(tail, ")")?;
    let url = &tail[..end];
    if scan.has_space(url) || !(url.starts_with("http") || scan.find(url, ".").is_some()) {
        return None;
    }
    out.add_link(url);
    inline(scan, label, marks.with(Emphasis::LINK), out, depth + 1);
    Some(close + 2 + end + 1)
}

/// LaTeX quotes (``` `` ``` → “) and markdown code spans.
pub(super) fn backtick(
    scan: &mut Scan<'_>,
    rest: &str,
    marks: Emphasis,
    out: &mut Rich,
) -> Option<usize> {
    if rest.starts_with("``") {
        out.push_char('\u{201C}', marks);
        return Some(2);
    }
    let body = &rest[1..];
    let close = scan.find(body, "`")?;
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

#[cfg(test)]
mod tests {
    use super::super::tests::p;
    use super::super::{Emphasis, render};
    use super::url_len;

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
}
