//! LaTeX in text mode: backslash commands (styles, links, accents,
//! symbols, scripts in text), old-style font switches in groups, dashes.

use super::braces::{brace_arg, command_name};
use super::math::math_until;
use super::scan::Scan;
use super::{Emphasis, Rich, inline, plain_in};
use crate::text::symbols;

/// Old-style font switches at the start of a group (`{\em With\/}`,
/// `{\sc Adl}`): the rest of the group and its style.
pub(super) fn switch(group: &str) -> (&str, Emphasis) {
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

/// A backslash in text mode. Returns the bytes consumed.
pub(super) fn command(
    scan: &mut Scan<'_>,
    src: &str,
    i: usize,
    marks: Emphasis,
    out: &mut Rich,
    depth: u8,
) -> Option<usize> {
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
            '(' | '[' => {
                let close = if c == '(' { "\\)" } else { "\\]" };
                math_until(scan, &rest[1..], close, marks, out, depth).map(|n| 2 + n)
            }
            '\'' | '`' | '^' | '"' | '~' | '=' | '.' => {
                accent(scan, rest, c, 1, marks, out, depth).map(|n| n + 1)
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
        && let Some((arg, used)) = brace_arg(scan, after)
    {
        inline(scan, arg, marks.with(style), out, depth + 1);
        return Some(head + used);
    }
    match name {
        "textsubscript" | "textsuperscript" => {
            let (arg, used) = brace_arg(scan, after)?;
            let text = plain_in(scan, arg, depth);
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
            let (arg, used) = brace_arg(scan, after)?;
            out.push_char('\u{201C}', marks);
            inline(scan, arg, marks, out, depth + 1);
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
            let (url, u1) = brace_arg(scan, after)?;
            let (label, u2) = brace_arg(scan, &after[u1..])?;
            out.add_link(url);
            inline(scan, label, marks.with(Emphasis::LINK), out, depth + 1);
            return Some(head + u1 + u2);
        }
        "url" => {
            let (url, used) = brace_arg(scan, after)?;
            out.add_link(url);
            out.push(url, marks.with(Emphasis::LINK));
            return Some(head + used);
        }
        "u" | "v" | "H" | "c" | "k" | "r" | "d" | "b" => {
            if let Some(n) = accent(
                scan,
                rest,
                name.chars().next()?,
                name.len(),
                marks,
                out,
                depth,
            ) {
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
        brace_arg(scan, &src[i + used..]).filter(|_| src[i + used..].starts_with('{'))
    {
        used += n;
    }
    out.push(&src[i..i + used], marks);
    Some(used)
}

/// An accent command (`\"o`, `\'{e}`, `\c c`): the letter with its
/// diacritic, composed. `rest` starts at the accent character or name.
fn accent(
    scan: &mut Scan<'_>,
    rest: &str,
    accent: char,
    name_len: usize,
    marks: Emphasis,
    out: &mut Rich,
    depth: u8,
) -> Option<usize> {
    let combining = symbols::accent_mark(accent)?;
    let after = &rest[name_len..];
    let (base, used) = if let Some((arg, used)) =
        brace_arg(scan, after).filter(|_| after.trim_start().starts_with('{'))
    {
        (arg, used)
    } else {
        // A letter command needs a space before a bare letter (`\c c`).
        let skip = if accent.is_ascii_alphabetic() {
            after.len() - after.trim_start_matches(' ').len()
        } else {
            0
        };
        let rest = &after[skip..];
        // `\'\i`: the dotless letter as the base.
        if let Some(dotless) = ["\\i", "\\j"].into_iter().find(|d| {
            rest.starts_with(d) && !rest[2..].starts_with(|c: char| c.is_ascii_alphabetic())
        }) {
            let used = 2 + usize::from(rest[2..].starts_with("{}")) * 2;
            (dotless, skip + used)
        } else {
            let ch = rest.chars().next()?;
            if !ch.is_alphabetic() {
                return None;
            }
            (&rest[..ch.len_utf8()], skip + ch.len_utf8())
        }
    };
    // An accent on a dotless i or j is on the letter (`\'{\i}` is í): the
    // dot gives way to the accent.
    let base = match base {
        "\\i" | "{\\i}" | "ı" => "i".to_string(),
        "\\j" | "{\\j}" | "ȷ" => "j".to_string(),
        // `\c{\u{e}}`: accents on accents.
        other if other.contains('\\') => plain_in(scan, other, depth),
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

/// `--` and `---` as en and em dashes.
pub(super) fn dashes(rest: &str, marks: Emphasis, out: &mut Rich) -> Option<usize> {
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

#[cfg(test)]
mod tests {
    use super::super::tests::p;
    use super::super::{Emphasis, render};

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
        // An accent on a dotless i or j is on the letter, composed.
        assert_eq!(p("Ji{\\v{r}}{\\'{\\i}}"), "Jiří");
        assert_eq!(p("Mart{\\'\\i}n"), "Martín");
        assert_eq!(p("\\^\\j{}ai"), "ĵai");
        assert_eq!(p("{\\i}"), "ı");
    }

    #[test]
    fn special_letters_and_quotes() {
        assert_eq!(
            p("{\\dh}{\\DH}{\\th}{\\TH} {\\ae}{\\AE}{\\oe}{\\OE}"),
            "ðÐþÞ æÆœŒ"
        );
        assert_eq!(p("{\\o}{\\O}{\\aa}{\\AA}{\\l}{\\L}{\\ss}"), "øØåÅłŁß");
        assert_eq!(
            p("\\textquotesingle{}a\\textquotesingle{} \\textquotedbl b\\textquotedbl{}"),
            "'a' \"b\""
        );
        // Unknown commands stay as written.
        assert_eq!(p("\\dhx{y}"), "\\dhx{y}");
    }

    #[test]
    fn unknown_commands_stay_as_written() {
        assert_eq!(p("a \\foo b"), "a \\foo b");
        assert_eq!(p("$\\weird$"), "\\weird");
        assert_eq!(p("\\unknown{arg}{two}"), "\\unknown{arg}{two}");
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
}
