//! The abstract pane: the selected paper as [`crate::app::detail`] lays it
//! out (its title in bold, who wrote it and where it comes from, then the
//! abstract wrapped to the pane with the query's words picked out, then its
//! links, numbered), styled by the theme, scrollable. `paperboat show`
//! prints the same layout.

use ratatui::Frame;
use ratatui::layout::{Margin, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{
    Block, BorderType, Paragraph, Scrollbar, ScrollbarOrientation, ScrollbarState,
};

use super::theme::Theme;
use crate::app::App;
use crate::app::detail::{self, PaperText, Piece, Tone};
use crate::corpus::Corpus;
use crate::search::Query;
use crate::text::markup;
use crate::vocabulary::{Focus, Marks};

/// The style of marked-up text.
pub fn style_for(marks: markup::Emphasis, theme: &Theme) -> Style {
    let mut s = Style::new();
    if marks.has(markup::Emphasis::BOLD) {
        s = s.add_modifier(Modifier::BOLD);
    }
    if marks.has(markup::Emphasis::ITALIC) {
        s = s.add_modifier(Modifier::ITALIC);
    }
    if marks.has(markup::Emphasis::MATH) {
        s = s.patch(theme.math);
    }
    if marks.has(markup::Emphasis::CODE) {
        s = s.patch(theme.code);
    }
    if marks.has(markup::Emphasis::LINK) {
        s = s.patch(theme.link);
    }
    s
}

/// The style of a piece of text: its tone's, then its markup's, then the
/// highlight where the query matched.
pub fn style_of(piece: &Piece, theme: &Theme) -> Style {
    let base = match piece.tone {
        Tone::Plain => Style::new(),
        Tone::Title => Style::new().add_modifier(Modifier::BOLD),
        Tone::Marks => theme.marks,
        Tone::Dim => theme.dim,
        Tone::Link => theme.link,
        Tone::Chosen => theme.highlight,
    };
    let style = base.patch(style_for(piece.emphasis, theme));
    if piece.matched {
        style.patch(theme.highlight)
    } else {
        style
    }
}

/// Laid-out lines in the theme's styles.
pub fn styled(lines: Vec<detail::Line>, theme: &Theme) -> Vec<Line<'static>> {
    lines
        .into_iter()
        .map(|pieces| {
            Line::from(
                pieces
                    .into_iter()
                    .map(|p| {
                        let style = style_of(&p, theme);
                        Span::styled(p.text, style)
                    })
                    .collect::<Vec<_>>(),
            )
        })
        .collect()
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
    /// Its tags and note, from the reading list.
    pub tags: &'a [&'a str],
    pub note: Option<&'a str>,
    /// The order names are shown in.
    pub names: crate::corpus::NameOrder,
}

/// A paper laid out at a width, in styles.
pub struct Rendered {
    /// The lines.
    pub lines: Vec<Line<'static>>,
    /// Lines on which a query match starts, for `n`/`N`.
    pub match_lines: Vec<usize>,
    /// The paper's links, numbered from 1 on screen.
    pub links: Vec<String>,
}

/// Lays out a paper (see [`detail::lay_out`]) and styles it.
pub fn render(v: &PaperView, width: usize) -> Rendered {
    let page = detail::lay_out(
        &PaperText {
            corpus: v.corpus,
            idx: v.idx,
            marks: v.marks,
            query: v.query,
            chosen_link: v.chosen_link,
            tags: v.tags,
            note: v.note,
            reason: None,
            names: v.names,
        },
        width,
    );
    Rendered {
        lines: styled(page.lines, v.theme),
        match_lines: page.match_lines,
        links: page.links,
    }
}

/// Draws the abstract pane.
pub fn draw(frame: &mut Frame, app: &App, theme: &Theme, area: Rect) {
    let focused = app.focus() == Focus::Detail;
    let width = area.width.saturating_sub(4).max(1) as usize;
    let height = area.height.saturating_sub(2) as usize;
    let content = app
        .selected_paper()
        .map(|i| styled(app.page(i, width).lines, theme))
        .unwrap_or_default();
    let total = content.len();
    let scroll = app.detail_scroll().min(total.saturating_sub(height));
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
