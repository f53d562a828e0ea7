//! The help overlay: every key of every mode, read from the key table the
//! reader itself uses.

use ratatui::Frame;
use ratatui::layout::{Constraint, Flex, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Paragraph};
use unicode_width::UnicodeWidthStr;

use super::theme::Theme;
use crate::app::App;
use crate::keys::Keymap;
use crate::vocabulary::Mode;

/// The overlay's lines.
pub fn lines(keymap: &Keymap, theme: &Theme) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    let bold = Style::new().add_modifier(Modifier::BOLD);
    for mode in [Mode::Browse, Mode::Search, Mode::Help, Mode::Confirm] {
        if !out.is_empty() {
            out.push(Line::default());
        }
        out.push(Line::from(Span::styled(mode.name().to_string(), bold)));
        let rows = keymap.help(mode);
        let key_width = rows
            .iter()
            .map(|(k, _)| k.join(" ").width())
            .max()
            .unwrap_or(0)
            .min(28);
        for (keys, what) in rows {
            let keys = keys.join(" ");
            let pad = key_width.saturating_sub(keys.width());
            out.push(Line::from(vec![
                Span::styled(format!("  {keys}{}  ", " ".repeat(pad)), theme.highlight),
                Span::raw(what.to_string()),
            ]));
        }
        if mode == Mode::Search {
            out.push(Line::from(Span::styled(
                "  other keys   type into the query",
                theme.dim,
            )));
            out.push(Line::default());
            out.push(Line::from(Span::styled("Query", bold)));
            for (atom, what) in QUERY_SYNTAX {
                out.push(Line::from(vec![
                    Span::styled(format!("  {atom:<18}  "), theme.highlight),
                    Span::raw(*what),
                ]));
            }
        }
    }
    out
}

/// The query syntax as the overlay lists it.
const QUERY_SYNTAX: &[(&str, &str)] = &[
    (
        "word word",
        "every word must match (a word start, else fuzzily in the title)",
    ),
    (
        "'exact ^start end$",
        "exactly; at the title's start; at its end",
    ),
    ("!word", "papers without it"),
    ("a | b", "either"),
    (
        "author:name",
        "a word of an author's name starts with it (accents ignored)",
    ),
    ("title: abs: venue:", "that field only"),
    (
        "year:2019..2021",
        "also year:2019, year:2023.., year:..2010",
    ),
    ("id:2101.0", "the id starts with it"),
    ("!author:name", "any field atom negated"),
];

/// Draws the overlay centred on `area`.
pub fn draw(frame: &mut Frame, app: &App, keymap: &Keymap, theme: &Theme, area: Rect) {
    let content = lines(keymap, theme);
    let width = content.iter().map(Line::width).max().unwrap_or(20) as u16 + 4;
    let height = content.len() as u16 + 2;
    let [popup] = ratatui::layout::Layout::horizontal([Constraint::Length(width.min(area.width))])
        .flex(Flex::Center)
        .areas(area);
    let [popup] = ratatui::layout::Layout::vertical([Constraint::Length(height.min(area.height))])
        .flex(Flex::Center)
        .areas(popup);
    let inner_height = popup.height.saturating_sub(2) as usize;
    let scroll = app
        .help_scroll()
        .min(content.len().saturating_sub(inner_height));
    frame.render_widget(Clear, popup);
    let block = Block::bordered()
        .border_type(BorderType::Rounded)
        .title(" Keys ")
        .title_bottom(Line::from(" ? or Esc closes ").right_aligned());
    frame.render_widget(
        Paragraph::new(content)
            .block(block)
            .scroll((scroll as u16, 0)),
        popup,
    );
}
