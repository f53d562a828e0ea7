//! The search line at the top (query, match count, scope) and the status
//! line at the bottom (messages, what loaded, key hints).

use ratatui::Frame;
use ratatui::layout::{Position, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use unicode_width::UnicodeWidthStr;

use super::theme::Theme;
use crate::app::App;
use crate::text::markup;
use crate::vocabulary::{Mode, View};

/// Draws the search line; in search mode it places the cursor.
pub fn draw_search(frame: &mut Frame, app: &App, theme: &Theme, area: Rect) {
    let searching = app.mode() == Mode::Search
        || (app.mode() == Mode::Help && app.help_return() == Mode::Search);
    let line = app.prompt();
    let prompt = match line {
        Some((what, _)) => format!(" {}: ", what.label()),
        None if searching => " / ".to_string(),
        None => "   ".to_string(),
    };
    let prompt = prompt.as_str();
    // A related list says what it is like instead of the query; the
    // title has the room before the figures.
    let header = app
        .related_to()
        .map(|of| {
            let title = markup::plain(&app.corpus().papers[of].title);
            format!("Related to: {title}")
        })
        .or_else(|| {
            app.topic_shown()
                .map(|(n, label)| crate::text::sanitize::line(&format!("Topic {n}: {label}")))
        });
    // The figures take what the query leaves them (half the line at
    // least), the hints giving way to them.
    let typed = line.map_or(app.input(), |(_, l)| l).text().width();
    let right_room = match &header {
        Some(h) => (area.width as usize).saturating_sub(prompt.width() + h.width() + 1),
        None => (area.width as usize / 2)
            .max((area.width as usize).saturating_sub(prompt.width() + typed.max(8) + 2)),
    };
    let right = right_side(app, theme, right_room);
    let mut spans = vec![Span::styled(
        prompt,
        theme.focus.add_modifier(Modifier::BOLD),
    )];
    let right_width: usize = right.iter().map(|s| s.content.width()).sum();
    let room = (area.width as usize).saturating_sub(prompt.width() + right_width + 1);
    // Show the end of a query longer than the room, where the cursor is.
    let input = line.map_or(app.input(), |(_, l)| l);
    let text = &input.text();
    let mut start = 0;
    while text[start..].width() > room {
        start += text[start..].chars().next().map_or(1, char::len_utf8);
    }
    if line.is_some() {
        spans.push(Span::raw(text[start..].to_string()));
    } else if let Some(header) = &header {
        let bold = Style::new().add_modifier(Modifier::BOLD);
        spans.extend(super::list::highlighted(header, &[], room, bold, bold));
    } else if text.is_empty() {
        // The hint, as much of it as leaves the right side room.
        let hints: &[&str] = if searching {
            &[
                "words · 'exact ^start end$ !not a | b · author: title: abs: venue: year: id:",
                "words · author: title: abs: venue: year: id:",
                "author: title: abs: year:",
            ]
        } else {
            &["/ to search · ? for keys", "/ search"]
        };
        let hint = hints.iter().find(|h| h.width() <= room).unwrap_or(&"");
        spans.push(Span::styled(*hint, theme.dim));
    } else {
        spans.push(Span::raw(text[start..].to_string()));
    }
    let used: usize = spans.iter().map(|s| s.content.width()).sum();
    let pad = (area.width as usize).saturating_sub(used + right_width);
    spans.push(Span::raw(" ".repeat(pad)));
    spans.extend(right);
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
    if matches!(app.mode(), Mode::Search | Mode::Prompt) {
        let cursor = start.max(input.cursor().min(text.len()));
        let x = area.x as usize + prompt.width() + text[start..cursor].width();
        frame.set_cursor_position(Position::new(
            x.min(area.right().saturating_sub(1) as usize) as u16,
            area.y,
        ));
    }
}

/// The right of the search line: match count and scope, then the views
/// with their counts (the current one picked out), then read progress;
/// later parts are left out when they do not fit in `room` columns.
fn right_side(app: &App, theme: &Theme, room: usize) -> Vec<Span<'static>> {
    let c = app.counts();
    let running = if app.search().is_running() {
        "… "
    } else {
        ""
    };
    let view_style = |v: View| {
        if app.view() == v {
            theme.highlight.add_modifier(Modifier::UNDERLINED)
        } else {
            theme.dim
        }
    };
    let sep = || Span::styled(" · ", theme.dim);
    let what = match app.related_depth() {
        0 => format!(
            "{running}{}/{} {} · {}{}",
            app.counted_rows(),
            app.corpus().len(),
            // The view's name, always: the views' counts may not fit.
            match (app.view_tag(), app.view()) {
                (Some(tag), _) => format!("#{tag}"),
                (None, View::All) => "papers".to_string(),
                (None, v) => v.name().to_string(),
            },
            match app.search().scope() {
                crate::search::Scope::All => "every field",
                crate::search::Scope::Title => "titles",
            },
            match app.sort_key() {
                crate::order::SortKey::Score => String::new(),
                key => format!(" · by {}", key.name()),
            }
        ),
        _ if app.topic_shown().is_some() => format!("{} in the topic", app.rows()),
        1 => format!("{} related", app.rows()),
        depth => format!("{} related · level {depth}", app.rows()),
    };
    let mut groups: Vec<Vec<Span<'static>>> = vec![
        vec![Span::styled(what, theme.dim)],
        vec![
            Span::styled(" │ ", theme.dim),
            Span::styled(
                format!("bookmarked {}", c.bookmarked),
                view_style(View::Bookmarked),
            ),
            sep(),
            Span::styled(
                format!("unread {}", c.total - c.read),
                view_style(View::Unread),
            ),
            sep(),
            Span::styled(format!("{}", c.total), view_style(View::All)),
        ],
        vec![
            Span::styled(" │ ", theme.dim),
            Span::styled(format!("read {}/{}", c.read, c.total), theme.dim),
        ],
    ];
    // Papers new in this session: with the views when that view is shown,
    // else last, where there is room.
    let new = vec![
        Span::styled(" │ ", theme.dim),
        Span::styled(format!("new {}", app.new_count()), view_style(View::New)),
    ];
    if app.view() == View::New {
        groups.insert(1, new);
    } else {
        groups.push(new);
    }
    let mut always = 1 + usize::from(app.view() == View::New);
    // The selection, when there is one, and how far the corpus has
    // streamed in, while it does, come first.
    if app.picked_count() > 0 {
        groups.insert(
            0,
            vec![Span::styled(
                format!("● {} selected │ ", app.picked_count()),
                theme.highlight,
            )],
        );
        always += 1;
    }
    if let Some(l) = app.progress() {
        groups.insert(
            0,
            vec![Span::styled(
                format!("{} │ ", l.describe()),
                theme.highlight,
            )],
        );
        always += 1;
    }
    let mut out = Vec::new();
    let mut used = 1;
    for (k, g) in groups.into_iter().enumerate() {
        let w: usize = g.iter().map(|s| s.content.width()).sum();
        if k >= always && used + w > room {
            break;
        }
        used += w;
        out.extend(g);
    }
    out.push(Span::raw(" "));
    out
}

/// The status line's text: a message when there is one, else what loaded
/// and the keys that matter now.
pub fn status_text(app: &App) -> String {
    if let Some(msg) = app.message() {
        return msg;
    }
    let hints = match app.mode() {
        Mode::Browse if app.topic_shown().is_some() => {
            "j/k move · m more like this · Esc back · O topics · ? help · q quit"
        }
        Mode::Browse if app.related_to().is_some() => {
            "j/k move · m more like this · Esc back · / search · ? help · q quit"
        }
        Mode::Browse if app.picked_count() > 0 => {
            "x select · X all listed · c clear · b/r mark the selection · ? help"
        }
        Mode::Browse => "j/k move · / search · Tab focus · Ctrl-t scope · ? help · q quit",
        Mode::Search => "type to filter · ↑/↓ move · Enter keep · Esc clear",
        Mode::Help => "j/k PgUp/PgDn g/G scroll · other keys close",
        Mode::Confirm => return app.question().unwrap_or_default().to_string(),
        Mode::Triage => "y keep · n skip · l later · u undo · Esc list · ? keys",
        Mode::Pick => "j/k choose · Enter recalls · d removes · Esc closes",
        Mode::Overview => "j/k choose · Enter lists the topic · Esc closes",
        Mode::Prompt => "Enter applies · Esc cancels · Tab completes a tag",
    };
    if app.progress().is_some() {
        return format!("{hints}  ·  {} papers so far", app.corpus().len());
    }
    let lists = app.reports().iter().filter(|r| r.papers > 0).count();
    let loaded = format!(
        "{} papers in {} list{}",
        app.corpus().len(),
        lists,
        if lists == 1 { "" } else { "s" }
    );
    let (indexed, total) = app.search().indexed();
    if app.search().needs_index() && indexed < total {
        // Until then, words are matched in titles only (and field atoms
        // see the papers indexed so far).
        let pct = indexed * 100 / total.max(1);
        return format!("{hints}  ·  {loaded}  ·  indexing words {pct}%, titles meanwhile");
    }
    format!("{hints}  ·  {loaded}")
}

/// Draws the status line.
pub fn draw_status(frame: &mut Frame, app: &App, theme: &Theme, area: Rect) {
    let style = if app.message().is_some() || app.mode() == Mode::Confirm {
        Style::new().add_modifier(Modifier::BOLD)
    } else {
        theme.dim
    };
    // A message wraps over the rows the layout gave it; hints are cut.
    let lines: Vec<Line> = match app.message_lines(area.width) {
        lines if lines.is_empty() => vec![Line::from(Span::styled(
            format!(" {}", status_text(app)),
            style,
        ))],
        lines => lines
            .into_iter()
            .map(|l| Line::from(Span::styled(format!(" {l}"), style)))
            .collect(),
    };
    frame.render_widget(Paragraph::new(lines), area);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loading as load;
    use crate::vocabulary::Message;

    #[test]
    fn while_loading_the_status_line_counts_the_papers_so_far() {
        let dir = tempfile::tempdir().unwrap();
        let (store, _) = crate::store::Store::open(dir.path());
        let mut app = App::loading("streamed".into(), store, false, || {});
        app.update(Message::Resize(120, 40));
        let papers = load::bundled().corpus.papers.into_vec();
        let mut dedup = crate::corpus::Dedup::default();
        app.update(Message::Load(load::Event::Papers(
            dedup.accept(papers[..20].to_vec()),
            None,
        )));
        assert!(status_text(&app).ends_with("20 papers so far"));
        app.update(Message::Loaded);
        assert!(
            status_text(&app).contains("20 papers in"),
            "{}",
            status_text(&app)
        );
    }

    #[test]
    fn an_unknown_field_is_said_in_the_status_line_and_the_query_kept() {
        let dir = tempfile::tempdir().unwrap();
        let (store, _) = crate::store::Store::open(dir.path());
        let mut app = App::new(load::bundled(), store, || {});
        app.update(Message::Resize(120, 40));
        app.apply(crate::vocabulary::Action::StartSearch);
        for c in "colour:red".chars() {
            app.apply(crate::vocabulary::Action::Insert(c));
        }
        let status = status_text(&app);
        assert!(status.contains("unknown field \"colour:\""), "{status}");
        assert_eq!(app.input().text(), "colour:red");
        assert!(app.search().wait(std::time::Duration::from_secs(10)));
        app.update(Message::Tick);
        assert_eq!(app.rows(), 0);
        app.apply(crate::vocabulary::Action::ClearQuery);
        for c in "journal:x".chars() {
            app.apply(crate::vocabulary::Action::Insert(c));
        }
        assert!(!status_text(&app).contains("unknown field"));
    }
}
