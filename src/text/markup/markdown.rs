//! Markdown and plain-text conventions: `*`/`_` emphasis, `[text](url)`
//! and `<https://…>` links, bare URLs, and backticks (code spans, and the
//! LaTeX opening quote).

use super::{Emphasis, Rich, inline, is_word_char, next_char, prev_char};

/// Markdown emphasis with `*` or `_`: one for italic, two for bold, three
/// for both, only at word boundaries.
pub(super) fn markdown_emphasis(
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
pub(super) fn angle_link(rest: &str, marks: Emphasis, out: &mut Rich) -> Option<usize> {
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

pub(super) fn bare_url(rest: &str, marks: Emphasis, out: &mut Rich) -> usize {
    let end = url_len(rest);
    let url = &rest[..end];
    out.add_link(url);
    out.push(url, marks.with(Emphasis::LINK));
    end
}

/// `[text](url)`.
pub(super) fn markdown_link(
    rest: &str,
    marks: Emphasis,
    out: &mut Rich,
    depth: u8,
) -> Option<usize> {
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

/// LaTeX quotes (``` `` ``` → “) and markdown code spans.
pub(super) fn backtick(rest: &str, marks: Emphasis, out: &mut Rich) -> Option<usize> {
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
