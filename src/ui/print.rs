//! Laid-out lines printed to a plain stream, for `paperboat show`: styled
//! with SGR escape codes when asked to, plain text otherwise. The escape
//! codes are ours; the text has been sanitized at load.

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;

fn color_code(c: Color, fg: bool) -> Option<String> {
    let base = if fg { 30 } else { 40 };
    let named = |n: u8| Some(format!("{}", base + n));
    let bright = |n: u8| Some(format!("{}", base + 60 + n));
    match c {
        Color::Reset => None,
        Color::Black => named(0),
        Color::Red => named(1),
        Color::Green => named(2),
        Color::Yellow => named(3),
        Color::Blue => named(4),
        Color::Magenta => named(5),
        Color::Cyan => named(6),
        Color::Gray => named(7),
        Color::DarkGray => bright(0),
        Color::LightRed => bright(1),
        Color::LightGreen => bright(2),
        Color::LightYellow => bright(3),
        Color::LightBlue => bright(4),
        Color::LightMagenta => bright(5),
        Color::LightCyan => bright(6),
        Color::White => bright(7),
        Color::Rgb(r, g, b) => Some(format!("{};2;{r};{g};{b}", base + 8)),
        Color::Indexed(i) => Some(format!("{};5;{i}", base + 8)),
    }
}

/// The SGR sequence for a style (empty for the default style).
fn sgr(style: Style) -> String {
    let mut codes: Vec<String> = Vec::new();
    let m = style.add_modifier;
    for (flag, code) in [
        (Modifier::BOLD, "1"),
        (Modifier::DIM, "2"),
        (Modifier::ITALIC, "3"),
        (Modifier::UNDERLINED, "4"),
        (Modifier::REVERSED, "7"),
    ] {
        if m.contains(flag) {
            codes.push(code.to_string());
        }
    }
    codes.extend(style.fg.and_then(|c| color_code(c, true)));
    codes.extend(style.bg.and_then(|c| color_code(c, false)));
    if codes.is_empty() {
        String::new()
    } else {
        format!("\u{1b}[{}m", codes.join(";"))
    }
}

/// The lines as text, one per line, with SGR styling when `styled`.
pub fn lines_to_string(lines: &[Line], styled: bool) -> String {
    // Sized at the start: grown by doubling, a long abstract's text was
    // held twice over while it was copied.
    let text: usize = lines
        .iter()
        .flat_map(|l| &l.spans)
        .map(|s| s.content.len() + if styled { 16 } else { 0 })
        .sum();
    let mut out = String::with_capacity(text + lines.len());
    for line in lines {
        for span in &line.spans {
            let code = if styled {
                sgr(span.style)
            } else {
                String::new()
            };
            out.push_str(&code);
            out.push_str(&span.content);
            if !code.is_empty() {
                out.push_str("\u{1b}[0m");
            }
        }
        // Trailing spaces of a line are never meaningful in print.
        while out.ends_with(' ') {
            out.pop();
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::text::Span;

    #[test]
    fn plain_and_styled() {
        let lines = vec![Line::from(vec![
            Span::styled("bold", Style::new().add_modifier(Modifier::BOLD)),
            Span::raw(" plain "),
        ])];
        assert_eq!(lines_to_string(&lines, false), "bold plain\n");
        assert_eq!(
            lines_to_string(&lines, true),
            "\u{1b}[1mbold\u{1b}[0m plain\n"
        );
    }
}
