//! LaTeX math: `$…$`, `$$…$$`, `\(…\)` and `\[…\]` rendered as the PDF
//! would show them, commands to symbols, scripts to Unicode where every
//! character has a form, fractions and roots written out on one line.

use super::braces::{brace_arg, command_name};
use super::scan::{Scan, count};
use super::{Emphasis, MAX_DEPTH, Rich, inline, prev_char};
use crate::text::symbols;

/// A `$` in text mode: inline math when it opens a `$…$` pair, else a dollar.
pub(super) fn dollar(
    scan: &mut Scan<'_>,
    src: &str,
    i: usize,
    marks: Emphasis,
    out: &mut Rich,
    depth: u8,
) -> Option<usize> {
    let rest = &src[i..];
    if let Some(body) = rest.strip_prefix("$$") {
        return math_until(scan, body, "$$", marks, out, depth).map(|n| 2 + n);
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
                math(scan, content, marks.with(Emphasis::MATH), out, depth + 1);
                return Some(1 + j + 1);
            }
            _ => j += 1,
        }
    }
    None
}

/// Math from the start of `body` up to the first `close` (`\)`, `\]`,
/// `$$`), when there is one: the bytes of both.
pub(super) fn math_until(
    scan: &mut Scan<'_>,
    body: &str,
    close: &'static str,
    marks: Emphasis,
    out: &mut Rich,
    depth: u8,
) -> Option<usize> {
    let end = scan.find(body, close)?;
    math(
        scan,
        &body[..end],
        marks.with(Emphasis::MATH),
        out,
        depth + 1,
    );
    Some(end + close.len())
}

/// Renders math-mode `src` into `out`: commands to symbols, scripts to
/// Unicode where every character has a form, braces unwrapped.
fn math(scan: &mut Scan<'_>, src: &str, marks: Emphasis, out: &mut Rich, depth: u8) {
    let mut m = Rich::default();
    math_into(scan, src, marks, &mut m, depth);
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

fn math_into(scan: &mut Scan<'_>, src: &str, marks: Emphasis, out: &mut Rich, depth: u8) {
    count(src.len());
    if depth > MAX_DEPTH {
        out.push(src, marks);
        return;
    }
    let mut i = 0;
    while i < src.len() {
        let rest = &src[i..];
        let c = rest.chars().next().unwrap_or(' ');
        match c {
            '\\' => i += math_command(scan, src, i, marks, out, depth),
            '^' | '_' => {
                let (token, used) = script_token(scan, &rest[1..]);
                let mut inner = Rich::default();
                math_into(scan, token, marks, &mut inner, depth + 1);
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
            '{' => match scan.matching_brace(rest) {
                Some(close) => {
                    math_into(scan, &rest[1..close], marks, out, depth + 1);
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
fn script_token<'s>(scan: &mut Scan<'_>, rest: &'s str) -> (&'s str, usize) {
    let skipped = rest.len() - rest.trim_start().len();
    let t = &rest[skipped..];
    if t.starts_with('{')
        && let Some(close) = scan.matching_brace(t)
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
                && let Some(close) = scan.matching_brace(&t[len..])
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
fn math_command(
    scan: &mut Scan<'_>,
    src: &str,
    i: usize,
    marks: Emphasis,
    out: &mut Rich,
    depth: u8,
) -> usize {
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
            let Some((arg, used)) = arg_or_token(scan, after) else {
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
                    math_into(scan, arg, marks.with(Emphasis::BOLD), out, depth + 1)
                }
                "text" | "textrm" | "mbox" | "textnormal" | "textit" | "emph" => {
                    inline(scan, arg, marks, out, depth + 1)
                }
                _ => math_into(scan, arg, marks, out, depth + 1),
            }
            head + used
        }
        "frac" | "dfrac" | "tfrac" => {
            let Some((num, u1)) = arg_or_token(scan, after) else {
                out.push(&src[i..i + head], marks);
                return head;
            };
            let Some((den, u2)) = arg_or_token(scan, &after[u1..]) else {
                out.push(&src[i..i + head], marks);
                return head;
            };
            for (k, part) in [num, den].into_iter().enumerate() {
                if k == 1 {
                    out.push_char('/', marks);
                }
                let mut inner = Rich::default();
                math_into(scan, part, marks, &mut inner, depth + 1);
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
            let Some((arg, used)) = arg_or_token(scan, after) else {
                out.push_char('\u{221A}', marks);
                return head;
            };
            let mut inner = Rich::default();
            math_into(scan, arg, marks, &mut inner, depth + 1);
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
            let Some((arg, used)) = arg_or_token(scan, after) else {
                out.push(&src[i..i + head], marks);
                return head;
            };
            let mut inner = Rich::default();
            math_into(scan, arg, marks, &mut inner, depth + 1);
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
fn arg_or_token<'s>(scan: &mut Scan<'_>, after: &'s str) -> Option<(&'s str, usize)> {
    if after.trim_start().starts_with('{') {
        return brace_arg(scan, after);
    }
    let (tok, used) = script_token(scan, after);
    (!tok.is_empty()).then_some((tok, used))
}

#[cfg(test)]
mod tests {
    use super::super::tests::p;

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
}
