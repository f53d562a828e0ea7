//! The selected paper: its title in bold, where it comes from, then the
//! abstract rendered from its markup and wrapped to the pane, scrollable,
//! with the query's words picked out.

use std::ops::Range;

use ratatui::Frame;
use ratatui::layout::{Margin, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{
    Block, BorderType, Paragraph, Scrollbar, ScrollbarOrientation, ScrollbarState,
};

use super::theme::Theme;
use crate::app::{App, Focus};
use crate::corpus::Paper;
use crate::text::markup::{self, Marks, Rich};
use crate::text::wrap;

/// The style of marked-up text.
pub fn style_for(marks: Marks, theme: &Theme) -> Style {
    let mut s = Style::new();
    if marks.has(Marks::BOLD) {
        s = s.add_modifier(Modifier::BOLD);
    }
    if marks.has(Marks::ITALIC) {
        s = s.add_modifier(Modifier::ITALIC);
    }
    if marks.has(Marks::MATH) {
        s = s.patch(theme.math);
    }
    if marks.has(Marks::CODE) {
        s = s.patch(theme.code);
    }
    if marks.has(Marks::LINK) {
        s = s.patch(theme.link);
    }
    s
}

/// `rich` wrapped to `width`, styled by its marks, with `highlights` (byte
/// ranges of `rich.text`) picked out.
pub fn rich_lines(
    rich: &Rich,
    width: usize,
    base: Style,
    theme: &Theme,
    highlights: &[Range<usize>],
) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    for r in wrap::wrap(&rich.text, width) {
        let mut cuts = vec![r.start, r.end];
        for s in &rich.spans {
            cuts.extend([s.start, s.end]);
        }
        for h in highlights {
            cuts.extend([h.start, h.end]);
        }
        cuts.retain(|&c| c >= r.start && c <= r.end && rich.text.is_char_boundary(c));
        cuts.sort_unstable();
        cuts.dedup();
        let spans: Vec<Span<'static>> = cuts
            .windows(2)
            .map(|w| {
                let (a, b) = (w[0], w[1]);
                let mut style = base.patch(style_for(rich.marks_at(a), theme));
                if highlights.iter().any(|h| h.start <= a && a < h.end) {
                    style = style.patch(theme.highlight);
                }
                Span::styled(rich.text[a..b].to_string(), style)
            })
            .collect();
        out.push(Line::from(spans));
    }
    out
}

/// The paper's lines at `width` columns.
pub fn lines(app: &App, idx: usize, paper: &Paper, width: usize) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let mut out = rich_lines(
        &markup::render(&paper.title),
        width,
        Style::new().add_modifier(Modifier::BOLD),
        theme,
        &[],
    );
    let marks = app.marks(idx);
    let mut flags = Vec::new();
    if marks.bookmarked {
        flags.push("★ bookmarked");
    }
    if marks.read {
        flags.push("✓ read");
    }
    if !flags.is_empty() {
        out.push(Line::from(Span::styled(flags.join("  "), theme.marks)));
    }
    let mut meta = vec![paper.source.clone()];
    meta.extend(paper.also_in.iter().cloned());
    meta.push(app.corpus.short_id(idx).to_string());
    let meta_rich = Rich {
        text: meta.join(" · "),
        ..Rich::default()
    };
    out.extend(rich_lines(&meta_rich, width, theme.dim, theme, &[]));
    out.push(Line::default());
    if paper.abstract_text.is_empty() {
        out.push(Line::from(Span::styled("(no abstract)", theme.dim)));
    } else {
        let rich = markup::render(&paper.abstract_text);
        let hl = app.search.parsed().occurrences(&rich.text);
        out.extend(rich_lines(&rich, width, Style::new(), theme, &hl));
    }
    out
}

/// How many lines [`lines`] gives for paper `idx`: what the abstract pane
/// scrolls over.
pub fn line_count(app: &App, idx: usize, width: usize) -> usize {
    lines(app, idx, &app.corpus.papers[idx], width).len()
}

/// Draws the abstract pane.
pub fn draw(frame: &mut Frame, app: &App, area: Rect) {
    let theme = &app.theme;
    let focused = app.focus == Focus::Detail;
    let width = area.width.saturating_sub(4).max(1) as usize;
    let height = area.height.saturating_sub(2) as usize;
    let content = app
        .selected_paper()
        .map(|i| lines(app, i, &app.corpus.papers[i], width))
        .unwrap_or_default();
    let total = content.len();
    let scroll = app.detail_scroll.min(total.saturating_sub(height));
    let position = if total <= height {
        String::new()
    } else {
        let last = (scroll + height).min(total);
        format!(" {}–{}/{} ", scroll + 1, last, total)
    };
    let block = Block::bordered()
        .border_type(BorderType::Rounded)
        .title(" Abstract ")
        .title_bottom(Line::from(Span::styled(position, theme.dim)).right_aligned())
        .border_style(if focused { theme.focus } else { Style::new() });
    let inner = block.inner(area).inner(Margin::new(1, 0));
    frame.render_widget(block, area);
    frame.render_widget(Paragraph::new(content).scroll((scroll as u16, 0)), inner);
    if total > height {
        let mut state = ScrollbarState::new(total.saturating_sub(height)).position(scroll);
        frame.render_stateful_widget(
            Scrollbar::new(ScrollbarOrientation::VerticalRight)
                .begin_symbol(None)
                .end_symbol(None),
            area.inner(Margin::new(0, 1)),
            &mut state,
        );
    }
}
