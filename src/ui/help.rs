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

/// The overlay's lines for a screen `screen_width` columns wide: a
/// description too long for the line wraps under itself.
pub fn lines(keymap: &Keymap, theme: &Theme, screen_width: u16) -> Vec<Line<'static>> {
    let room = (screen_width as usize).saturating_sub(4).max(20);
    let mut out = Vec::new();
    let bold = Style::new().add_modifier(Modifier::BOLD);
    for mode in [
        Mode::Browse,
        Mode::Triage,
        Mode::Prompt,
        Mode::Pick,
        Mode::Overview,
        Mode::Search,
        Mode::Help,
        Mode::Confirm,
    ] {
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
            .min(28.min(room / 3));
        for (keys, what) in rows {
            let keys = keys.join(" ");
            let pad = key_width.saturating_sub(keys.width());
            let lead = format!("  {keys}{}  ", " ".repeat(pad));
            row(&mut out, lead, key_width + 4, what, room, theme);
        }
        if mode == Mode::Search {
            out.push(Line::from(Span::styled(
                "  other keys   type into the query",
                theme.dim,
            )));
            out.push(Line::default());
            out.push(Line::from(Span::styled("Query", bold)));
            for (atom, what) in QUERY_SYNTAX {
                row(&mut out, format!("  {atom:<18}  "), 22, what, room, theme);
            }
        }
    }
    out
}

/// One row: `lead` (the keys, `indent` columns wide or wider) and `what`
/// wrapped to the `room` left beside it; keys wider than their column get
/// a line of their own.
fn row(
    out: &mut Vec<Line<'static>>,
    lead: String,
    indent: usize,
    what: &str,
    room: usize,
    theme: &Theme,
) {
    let first = if lead.width() > indent {
        out.push(Line::from(Span::styled(lead, theme.highlight)));
        " ".repeat(indent)
    } else {
        lead
    };
    let mut first = Some(Span::styled(first, theme.highlight));
    for range in crate::text::wrap::wrap(what, room.saturating_sub(indent).max(10)) {
        let lead = first
            .take()
            .unwrap_or_else(|| Span::raw(" ".repeat(indent)));
        out.push(Line::from(vec![lead, Span::raw(what[range].to_string())]));
    }
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
    ("tag:name note:word", "your tags and notes"),
    ("kw:word cat:cs.LG", "a keyword; an arXiv category"),
    ("topic:3", "a topic of the list (O lists them)"),
    ("!author:name", "any field atom negated"),
];

/// Draws the overlay centred on `area`.
pub fn draw(frame: &mut Frame, app: &App, keymap: &Keymap, theme: &Theme, area: Rect) {
    let content = lines(keymap, theme, area.width);
    let width = content.iter().map(Line::width).max().unwrap_or(20) as u16 + 4;
    let height = content.len() as u16 + 2;
    let [popup] = ratatui::layout::Layout::horizontal([Constraint::Length(width.min(area.width))])
        .flex(Flex::Center)
        .areas(area);
    let [popup] = ratatui::layout::Layout::vertical([Constraint::Length(height.min(area.height))])
        .flex(Flex::Center)
        .areas(popup);
    let inner_height = popup.height.saturating_sub(2) as usize;
    let scroll = app.help_scroll().min(crate::app::layout::help_max_scroll(
        content.len(),
        area.height,
    ));
    frame.render_widget(Clear, popup);
    let block = Block::bordered()
        .border_type(BorderType::Rounded)
        .title(" Keys ")
        .title_bottom(
            Line::from(if content.len() > inner_height {
                format!(
                    " {}/{} · j/k PgUp/PgDn scroll · Esc closes ",
                    (scroll + inner_height).min(content.len()),
                    content.len()
                )
            } else {
                " ? or Esc closes ".to_string()
            })
            .right_aligned(),
        );
    frame.render_widget(
        Paragraph::new(content)
            .block(block)
            .scroll((scroll as u16, 0)),
        popup,
    );
}
