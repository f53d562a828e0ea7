//! The overview (`O`): the listed papers' topics in a box over the list,
//! a row each, largest first: its number, its label, a bar as long as its
//! share of the largest, and its papers.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthStr;

use super::theme::Theme;
use crate::app::App;

/// Draws the overview centred on `area`.
pub fn draw(frame: &mut Frame, app: &App, theme: &Theme, area: Rect) {
    let Some((topics, chosen, grouped)) = app.overview() else {
        return;
    };
    let width = area.width.saturating_sub(4).min(110);
    let inner = width.saturating_sub(2) as usize;
    let rows = (area.height as usize).saturating_sub(4).max(1);
    let first = chosen.saturating_sub(rows - 1);
    let largest = topics.first().map_or(1, |t| t.papers.len()).max(1);
    let count_width = largest.to_string().len();
    let number_width = topics.len().to_string().len();
    // The label takes up to half the row, the bar the rest.
    let label_width = topics
        .iter()
        .map(|t| crate::text::sanitize::line(&t.label).width())
        .max()
        .unwrap_or(0)
        .min(inner / 2);
    let bar_room = inner.saturating_sub(number_width + label_width + count_width + 5);
    let mut lines: Vec<Line> = topics
        .iter()
        .enumerate()
        .skip(first)
        .take(rows)
        .map(|(k, t)| {
            let base = if k == chosen {
                theme.selection
            } else {
                Style::new()
            };
            let label = crate::text::sanitize::line(&t.label);
            let mut spans = vec![Span::styled(format!(" {:>number_width$} ", k + 1), base)];
            spans.extend(super::list::highlighted(
                &label,
                &[],
                label_width,
                base,
                base,
            ));
            super::picker::pad(&mut spans, number_width + 2 + label_width + 1, base);
            let n = t.papers.len();
            let bar = (n * bar_room).div_ceil(largest).clamp(1, bar_room.max(1));
            spans.push(Span::styled("█".repeat(bar), base.patch(theme.marks)));
            spans.push(Span::styled(
                format!(
                    "{}{n:>count_width$}",
                    " ".repeat(bar_room + 1 - bar.min(bar_room))
                ),
                base,
            ));
            super::picker::pad(&mut spans, inner, base);
            Line::from(spans)
        })
        .collect();
    if topics.is_empty() {
        lines.push(Line::styled(
            format!("grouping {grouped} papers into topics…"),
            theme.dim,
        ));
    }
    let title = if topics.is_empty() {
        " Topics ".to_string()
    } else {
        format!(" {} topics of {} papers ", topics.len(), grouped)
    };
    super::picker::centred_box(frame, area, width, lines, title, " Enter lists it · Esc ");
}
