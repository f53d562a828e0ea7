//! The picker of saved searches: a small box over the list, a row per
//! name with its query and view.

use ratatui::Frame;
use ratatui::layout::{Constraint, Flex, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Paragraph};
use unicode_width::UnicodeWidthStr;

use super::theme::Theme;
use crate::app::App;

/// Draws the picker centred on `area`.
pub fn draw(frame: &mut Frame, app: &App, theme: &Theme, area: Rect) {
    let saved = app.saved_searches();
    let chosen = app.picker().unwrap_or(0);
    let width = area.width.saturating_sub(4).min(72);
    let inner_width = width.saturating_sub(2) as usize;
    let name_width = saved
        .iter()
        .map(|s| s.name.width())
        .max()
        .unwrap_or(0)
        .min(inner_width / 3);
    let rows = (area.height as usize).saturating_sub(4).max(1);
    let first = chosen.saturating_sub(rows - 1);
    let lines: Vec<Line> = saved
        .iter()
        .enumerate()
        .skip(first)
        .take(rows)
        .map(|(k, s)| {
            let base = if k == chosen {
                theme.selection
            } else {
                Style::new()
            };
            let name = crate::text::sanitize::line(&s.name);
            let mut spans = super::list::highlighted(&name, &[], name_width, base, base);
            let used: usize = spans.iter().map(|s| s.content.width()).sum();
            spans.push(Span::styled(" ".repeat(name_width + 2 - used), base));
            let view = if s.view.is_empty() || s.view == "all" {
                String::new()
            } else {
                format!("  [{}]", s.view)
            };
            let query = crate::text::sanitize::line(&format!("{}{view}", s.query));
            let room = inner_width.saturating_sub(name_width + 2);
            spans.extend(super::list::highlighted(
                &query,
                &[],
                room,
                base.patch(theme.dim),
                base,
            ));
            pad(&mut spans, inner_width, base);
            Line::from(spans)
        })
        .collect();
    centred_box(
        frame,
        area,
        width,
        lines,
        " Saved searches ".to_string(),
        " Enter recalls · d removes · Esc ",
    );
}

/// Draws `lines` in a rounded box `width` wide centred on `area`, as
/// high as they need (at most the area), titled above and below.
pub(super) fn centred_box(
    frame: &mut Frame,
    area: Rect,
    width: u16,
    lines: Vec<Line>,
    title: String,
    bottom: &str,
) {
    let height = (lines.len() as u16 + 2).min(area.height);
    let [popup] = ratatui::layout::Layout::horizontal([Constraint::Length(width)])
        .flex(Flex::Center)
        .areas(area);
    let [popup] = ratatui::layout::Layout::vertical([Constraint::Length(height)])
        .flex(Flex::Center)
        .areas(popup);
    frame.render_widget(Clear, popup);
    let block = Block::bordered()
        .border_type(BorderType::Rounded)
        .title(title)
        .title_bottom(Line::from(bottom.to_string()).right_aligned());
    frame.render_widget(Paragraph::new(lines).block(block), popup);
}

/// Pads `spans` with spaces in `style` to `width` columns.
pub(super) fn pad(spans: &mut Vec<Span<'static>>, width: usize, style: Style) {
    let used: usize = spans.iter().map(|s| s.content.width()).sum();
    spans.push(Span::styled(" ".repeat(width.saturating_sub(used)), style));
}
