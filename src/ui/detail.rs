//! The selected paper: its title in bold, who wrote it and where it comes
//! from, then the abstract rendered from its markup and wrapped to the pane,
//! scrollable, with the query's words picked out, then its links, numbered.
//! `paperboat show` prints the same layout.

use std::ops::Range;

use ratatui::Frame;
use ratatui::layout::{Margin, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{
    Block, BorderType, Paragraph, Scrollbar, ScrollbarOrientation, ScrollbarState,
};

use super::theme::Theme;
use crate::app::App;
use crate::vocabulary::{Focus, Marks};
use crate::corpus::{Corpus, Paper};
use crate::search::Query;
use crate::text::markup::{self, Rich};
use crate::text::{links, wrap};

/// The style of marked-up text.
pub fn style_for(marks: markup::Marks, theme: &Theme) -> Style {
    let mut s = Style::new();
    if marks.has(markup::Marks::BOLD) {
        s = s.add_modifier(Modifier::BOLD);
    }
    if marks.has(markup::Marks::ITALIC) {
        s = s.add_modifier(Modifier::ITALIC);
    }
    if marks.has(markup::Marks::MATH) {
        s = s.patch(theme.math);
    }
    if marks.has(markup::Marks::CODE) {
        s = s.patch(theme.code);
    }
    if marks.has(markup::Marks::LINK) {
        s = s.patch(theme.link);
    }
    s
}

/// `rich` wrapped to `width`, styled by its marks, with `highlights` (byte
/// ranges of `rich.text`) picked out. Also returns the lines (indices into
/// the result) on which a highlight starts.
pub fn rich_lines(
    rich: &Rich,
    width: usize,
    base: Style,
    theme: &Theme,
    highlights: &[Range<usize>],
) -> (Vec<Line<'static>>, Vec<usize>) {
    let mut out = Vec::new();
    let mut hits = Vec::new();
    for r in wrap::wrap(&rich.text, width) {
        if highlights
            .iter()
            .any(|h| h.start >= r.start && h.start < r.end.max(r.start + 1))
        {
            hits.push(out.len());
        }
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
    (out, hits)
}

/// What the abstract pane (and `paperboat show`) shows of one paper.
pub struct PaperView<'a> {
    /// The corpus holding it.
    pub corpus: &'a Corpus,
    /// Its index.
    pub idx: usize,
    /// Its marks.
    pub marks: Marks,
    /// The styles.
    pub theme: &'a Theme,
    /// The query whose words are picked out in the abstract.
    pub query: Option<&'a Query>,
    /// The link chosen with a digit key (0-based).
    pub chosen_link: Option<usize>,
}

/// A paper laid out at a width.
pub struct Rendered {
    /// The lines.
    pub lines: Vec<Line<'static>>,
    /// Lines on which a query match starts, for `n`/`N`.
    pub match_lines: Vec<usize>,
    /// The paper's links, numbered from 1 on screen.
    pub links: Vec<String>,
}

/// At most this many author names are listed before `+N more`.
const MAX_AUTHORS: usize = 8;

/// Lays out a paper: title, marks, where it is from, who wrote it, the
/// abstract, the links.
pub fn render(v: &PaperView, width: usize) -> Rendered {
    let theme = v.theme;
    let paper: &Paper = &v.corpus.papers[v.idx];
    let plain = |text: String| Rich {
        text,
        ..Rich::default()
    };
    let (mut out, _) = rich_lines(
        &markup::render(&paper.title),
        width,
        Style::new().add_modifier(Modifier::BOLD),
        theme,
        &[],
    );
    let mut flags = Vec::new();
    if v.marks.bookmarked {
        flags.push("★ bookmarked");
    }
    if v.marks.read {
        flags.push("✓ read");
    }
    if !flags.is_empty() {
        out.push(Line::from(Span::styled(flags.join("  "), theme.marks)));
    }
    let mut byline = Vec::new();
    if !paper.authors.is_empty() {
        let shown: Vec<&str> = paper.authors.iter().take(MAX_AUTHORS).collect();
        let mut names = shown.join(", ");
        if paper.authors.len() > MAX_AUTHORS {
            names.push_str(&format!(" +{} more", paper.authors.len() - MAX_AUTHORS));
        }
        byline.push(names);
    }
    if let Some(y) = paper.year {
        byline.push(y.to_string());
    }
    if let Some(venue) = &paper.venue {
        byline.push(venue.clone());
    }
    if !byline.is_empty() {
        out.extend(rich_lines(&plain(byline.join(" · ")), width, Style::new(), theme, &[]).0);
    }
    let mut meta = vec![paper.source.to_string()];
    meta.extend(paper.also_in.iter().map(|s| s.to_string()));
    meta.push(v.corpus.short_id(v.idx).to_string());
    out.extend(rich_lines(&plain(meta.join(" · ")), width, theme.dim, theme, &[]).0);
    out.push(Line::default());
    let rich = markup::render(&paper.abstract_text.text());
    let mut match_lines = Vec::new();
    if paper.abstract_text.is_empty() {
        out.push(Line::from(Span::styled("(no abstract)", theme.dim)));
    } else {
        let hl = v
            .query
            .map(|q| q.occurrences(&rich.text))
            .unwrap_or_default();
        let (lines, hits) = rich_lines(&rich, width, Style::new(), theme, &hl);
        let first = out.len();
        match_lines.extend(hits.into_iter().map(|h| h + first));
        out.extend(lines);
    }
    let links = links::collect(&paper.links(), &rich);
    if !links.is_empty() {
        out.push(Line::default());
        out.push(Line::from(Span::styled("Links", theme.dim)));
        for (k, url) in links.iter().enumerate() {
            let chosen = v.chosen_link == Some(k);
            let mark = if chosen { "▸" } else { " " };
            let label = format!("{mark}{} ", k + 1);
            let indent = label.chars().count();
            let label_style = if chosen { theme.highlight } else { theme.dim };
            // Long URLs wrap (split where they must) rather than being cut.
            let (lines, _) = rich_lines(
                &plain(url.clone()),
                width.saturating_sub(indent).max(8),
                theme.link,
                theme,
                &[],
            );
            for (n, line) in lines.into_iter().enumerate() {
                let head = if n == 0 {
                    label.clone()
                } else {
                    " ".repeat(indent)
                };
                let mut spans = vec![Span::styled(head, label_style)];
                spans.extend(line.spans);
                out.push(Line::from(spans));
            }
        }
    }
    Rendered {
        lines: out,
        match_lines,
        links,
    }
}

/// The selected paper laid out for the abstract pane.
pub fn for_app(app: &App, idx: usize, width: usize) -> Rendered {
    render(
        &PaperView {
            corpus: &app.corpus,
            idx,
            marks: app.marks(idx),
            theme: &app.theme,
            query: Some(app.search.parsed()),
            chosen_link: app.chosen_link,
        },
        width,
    )
}

/// How many lines paper `idx` takes in the abstract pane: what it scrolls
/// over.
pub fn line_count(app: &App, idx: usize, width: usize) -> usize {
    for_app(app, idx, width).lines.len()
}

/// Draws the abstract pane.
pub fn draw(frame: &mut Frame, app: &App, area: Rect) {
    let theme = &app.theme;
    let focused = app.focus == Focus::Detail;
    let width = area.width.saturating_sub(4).max(1) as usize;
    let height = area.height.saturating_sub(2) as usize;
    let content = app
        .selected_paper()
        .map(|i| for_app(app, i, width).lines)
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
