//! Triage's screen: a line of progress on top, the paper's abstract over
//! the whole middle, the keys at the bottom.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::theme::Theme;
use crate::app::App;

/// `n` with a comma between each group of three digits: 3,124.
pub fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (k, c) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The progress line: "Triage · 37/3,124 triaged · 5 kept · 2 later".
pub fn progress_text(app: &App) -> String {
    let Some(p) = app.triage_progress() else {
        return String::new();
    };
    let mut s = format!(
        "Triage · {}/{} triaged · {} kept",
        grouped(p.done),
        grouped(p.total),
        grouped(p.kept)
    );
    if p.later > 0 {
        s.push_str(&format!(" · {} later", grouped(p.later)));
    }
    if p.at >= p.total {
        s.push_str(" · done");
    }
    s
}

/// Draws triage's screen.
pub fn draw(frame: &mut Frame, app: &App, theme: &Theme, area: Rect) {
    let l = crate::app::layout::triage(area.width, area.height, app.shape());
    let rect = |a: crate::app::layout::Area| Rect::new(a.x, a.y, a.width, a.height);
    if app.prompt().is_some() {
        super::status::draw_search(frame, app, theme, rect(l.search));
    } else {
        let line = Line::from(Span::styled(
            format!(" {}", progress_text(app)),
            theme.highlight.add_modifier(Modifier::BOLD),
        ));
        frame.render_widget(Paragraph::new(line), rect(l.search));
    }
    if app.selected_paper().is_some() {
        super::detail::draw(frame, app, theme, rect(l.detail));
    } else {
        let done = Paragraph::new(vec![
            Line::default(),
            Line::from(Span::styled(
                "  Every paper of this list is triaged. u undoes the last; Esc goes back.",
                theme.dim,
            )),
        ]);
        frame.render_widget(done, rect(l.detail));
    }
    super::status::draw_status(frame, app, theme, rect(l.status));
}

#[cfg(test)]
mod tests {
    #[test]
    fn thousands_are_grouped() {
        assert_eq!(super::grouped(0), "0");
        assert_eq!(super::grouped(999), "999");
        assert_eq!(super::grouped(3124), "3,124");
        assert_eq!(super::grouped(1_000_000), "1,000,000");
    }
}
