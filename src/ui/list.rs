//! The list of titles: a marks column, then each title cut to the pane
//! with the characters the query matched picked out.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Paragraph};
use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthStr;

use super::theme::Theme;
use crate::app::App;
use crate::text::markup;
use crate::vocabulary::{Focus, Marks};

/// Width of the marks column: bookmark, read, a space.
pub const MARKS_WIDTH: u16 = 3;

/// The marks column for a paper: `★` bookmarked, `✓` read; while papers
/// are selected, a column before them has `●` for each selected one.
pub fn marks_text(marks: Marks, picked: Option<bool>) -> String {
    let pick = match picked {
        Some(true) => "●",
        Some(false) => " ",
        None => "",
    };
    format!(
        "{pick}{}{} ",
        if marks.bookmarked { '★' } else { ' ' },
        if marks.read { '✓' } else { ' ' }
    )
}

/// `text` cut to `width` columns, with `…` where it was cut; each grapheme
/// styled `hl` when its index is in `highlights` (sorted), else `base`.
pub fn highlighted(
    text: &str,
    highlights: &[u32],
    width: usize,
    base: Style,
    hl: Style,
) -> Vec<Span<'static>> {
    let total = text.width();
    let budget = if total > width {
        width.saturating_sub(1)
    } else {
        width
    };
    let mut spans: Vec<Span<'static>> = Vec::new();
    let mut run = String::new();
    let mut run_hl = false;
    let mut used = 0;
    let mut next_hl = highlights.iter().peekable();
    for (i, g) in text.graphemes(true).enumerate() {
        let w = g.width();
        if used + w > budget {
            break;
        }
        used += w;
        while next_hl.peek().is_some_and(|&&h| (h as usize) < i) {
            next_hl.next();
        }
        let is_hl = next_hl.peek().is_some_and(|&&h| h as usize == i);
        if is_hl != run_hl && !run.is_empty() {
            spans.push(Span::styled(
                std::mem::take(&mut run),
                if run_hl { base.patch(hl) } else { base },
            ));
        }
        run_hl = is_hl;
        run.push_str(g);
    }
    if !run.is_empty() {
        spans.push(Span::styled(
            run,
            if run_hl { base.patch(hl) } else { base },
        ));
    }
    if total > width && width > 0 {
        spans.push(Span::styled("…", base));
    }
    spans
}

/// A paper's tags for its row, `#a #b`, cut to `room` columns (empty
/// without tags), with a space before.
fn tag_text(app: &App, idx: usize, room: usize) -> String {
    let tags = app.store().tags(app.corpus().papers[idx].id.as_str());
    if tags.is_empty() || room < 3 {
        return String::new();
    }
    let text = crate::text::sanitize::line(&format!("#{}", tags.join(" #")));
    let cut: String = highlighted(&text, &[], room - 1, Style::new(), Style::new())
        .iter()
        .map(|s| s.content.as_ref())
        .collect();
    format!(" {cut}")
}

/// The first author's family name and the year beside each title, in
/// columns as wide as the rows on screen need; none on a screen under 80
/// columns or when no row has either.
#[derive(Clone, Copy)]
struct Columns {
    /// Width of the author column (0: none).
    author: usize,
    /// Whether the year column is shown.
    year: bool,
}

/// The widest author column.
const AUTHOR_MAX: usize = 14;

impl Columns {
    fn fit(app: &App, rows: &[usize], title_width: usize) -> Columns {
        let none = Columns {
            author: 0,
            year: false,
        };
        if app.size().0 < 80 || title_width < 30 {
            return none;
        }
        let papers = &app.corpus().papers;
        let author = rows
            .iter()
            .filter_map(|&i| family(&papers[i]))
            .map(|f| f.width())
            .max()
            .map_or(0, |w| w.min(AUTHOR_MAX).min(title_width / 5));
        let year = rows.iter().any(|&i| papers[i].year.is_some());
        Columns { author, year }
    }

    /// The columns for a row: none when the paper has neither, so that
    /// its title has the room.
    fn for_paper(&self, paper: &crate::corpus::Paper) -> Columns {
        if paper.year.is_none() && paper.authors.is_empty() {
            Columns {
                author: 0,
                year: false,
            }
        } else {
            Columns { ..*self }
        }
    }

    /// Columns taken, with the spaces before each.
    fn width(&self) -> usize {
        let a = if self.author > 0 { self.author + 1 } else { 0 };
        a + if self.year { 5 } else { 0 }
    }

    /// The cells of a row.
    fn cells(&self, paper: &crate::corpus::Paper, style: Style) -> Vec<Span<'static>> {
        let mut out = Vec::new();
        if self.author > 0 {
            let name = family(paper).unwrap_or_default();
            let mut cell = vec![Span::styled(" ", style)];
            cell.extend(highlighted(&name, &[], self.author, style, style));
            let w: usize = cell.iter().map(|s| s.content.width()).sum();
            cell.push(Span::styled(" ".repeat(self.author + 1 - w), style));
            out.extend(cell);
        }
        if self.year {
            let y = paper.year.map_or(String::new(), |y| y.to_string());
            out.push(Span::styled(format!(" {y:>4}"), style));
        }
        out
    }
}

/// The first author's family name (`Beethoven` of Ludwig van Beethoven;
/// an organisation's whole name).
fn family(paper: &crate::corpus::Paper) -> Option<String> {
    paper.authors.first_family()
}

/// Draws the list pane.
pub fn draw(frame: &mut Frame, app: &App, theme: &Theme, area: Rect) {
    let focused = app.focus() == Focus::List;
    let related = app.related_to().is_some();
    let (title, count) = if related {
        (Line::from(" Related "), format!(" {} like it ", app.rows()))
    } else if let Some((n, _)) = app.topic_shown() {
        (
            Line::from(format!(" Topic {n} ")),
            format!(" {} ", app.rows()),
        )
    } else if app.apart() {
        // The rows are no matches: the divider above them says why.
        let words: Vec<String> = app
            .search()
            .notes()
            .unheld
            .iter()
            .map(|w| format!("\u{201c}{w}\u{201d}"))
            .collect();
        let label = format!(
            " No paper holds {}: titles with its letters in order, not counted ",
            words.join(" or ")
        );
        (
            Line::from(Span::styled(label, theme.highlight)),
            format!(" 0/{} · {} by letters ", app.corpus().len(), app.rows()),
        )
    } else {
        (
            Line::from(" Papers "),
            format!(" {}/{} ", app.rows(), app.corpus().len()),
        )
    };
    let block = Block::bordered()
        .border_type(BorderType::Rounded)
        .title(title)
        .title_bottom(Line::from(count).right_aligned())
        .border_style(if focused { theme.focus } else { Style::new() });
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if app.rows() == 0 {
        let msg = if app.search().is_running() {
            "matching…"
        } else {
            "no matches"
        };
        frame.render_widget(Paragraph::new(Span::styled(msg, theme.dim)), inner);
        return;
    }
    let picking = app.picked_count() > 0;
    let title_width = inner.width.saturating_sub(MARKS_WIDTH + u16::from(picking)) as usize;
    let visible: Vec<usize> = (app.list_offset()..)
        .take(inner.height as usize)
        .map_while(|row| app.paper_at(row))
        .collect();
    let columns = Columns::fit(app, &visible, title_width);
    let mut hl = Vec::new();
    let lines: Vec<Line> = (app.list_offset()..)
        .take(inner.height as usize)
        .map_while(|row| app.paper_at(row).map(|idx| (row, idx)))
        .map(|(row, idx)| {
            let paper = &app.corpus().papers[idx];
            let plain = markup::plain(&paper.title);
            // A related list is not the query's: nothing to pick out.
            if related {
                hl.clear();
            } else {
                app.search().title_highlights(&plain, &mut hl);
            }
            let selected = row == app.selected();
            let marks = app.marks(idx);
            let mut base = if marks.read { theme.dim } else { Style::new() };
            if selected {
                base = base.patch(theme.selection);
            }
            let picked = picking.then(|| app.picked(idx));
            let mut spans = vec![Span::styled(
                marks_text(marks, picked),
                base.patch(theme.marks),
            )];
            let tags = tag_text(app, idx, title_width / 4);
            let columns = columns.for_paper(paper);
            let title_room = title_width.saturating_sub(columns.width() + tags.width());
            spans.extend(highlighted(&plain, &hl, title_room, base, theme.highlight));
            let used: usize = spans.iter().map(|s| s.content.width()).sum();
            let right = columns.width() + tags.width();
            let gap = (inner.width as usize).saturating_sub(used + right);
            if right > 0 {
                spans.push(Span::styled(" ".repeat(gap), base));
                spans.push(Span::styled(tags, base.patch(theme.marks)));
                spans.extend(columns.cells(paper, base.patch(theme.dim)));
            }
            let used: usize = spans.iter().map(|s| s.content.width()).sum();
            if selected && used < inner.width as usize {
                spans.push(Span::styled(" ".repeat(inner.width as usize - used), base));
            }
            Line::from(spans)
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), inner);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(spans: &[Span]) -> String {
        spans.iter().map(|s| s.content.as_ref()).collect()
    }

    #[test]
    fn cuts_with_an_ellipsis_by_display_width() {
        let s = highlighted("ICML 2026 论文列表", &[], 13, Style::new(), Style::new());
        assert_eq!(text(&s), "ICML 2026 论…");
        let s = highlighted("short", &[], 12, Style::new(), Style::new());
        assert_eq!(text(&s), "short");
    }

    #[test]
    fn highlights_split_runs() {
        let hl = Style::new().add_modifier(ratatui::style::Modifier::BOLD);
        let s = highlighted("abcd", &[1, 2], 10, Style::new(), hl);
        assert_eq!(s.len(), 3);
        assert_eq!(s[1].content, "bc");
        assert_eq!(s[1].style, hl);
    }
}
