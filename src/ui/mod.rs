//! Drawing the reader. Everything here reads [`App`] (with the theme and
//! the key table the caller keeps) and writes cells; no function changes
//! state. One file per pane; the geometry comes from the app's
//! [`crate::app::layout`], so scrolling knows the pane sizes the screen
//! will have.

pub mod detail;
pub mod help;
pub mod list;
mod overview;
mod picker;
pub mod print;
pub mod status;
pub mod theme;
pub mod triage;

use crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

use crate::app::App;
use crate::app::layout::{Area, Shape};
use crate::keys::Keymap;
use crate::vocabulary::{Action, Mode};
use theme::Theme;

pub use crate::app::layout::{MIN_SIZE, SIDE_BY_SIDE_MIN};

/// Where each part of the screen goes, as the cells ratatui draws into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The search line (top).
    pub search: Rect,
    /// The list pane, borders included.
    pub list: Rect,
    /// The abstract pane, borders included.
    pub detail: Rect,
    /// The status line (bottom).
    pub status: Rect,
    /// True when the panes are stacked.
    pub stacked: bool,
}

/// Splits the screen, as [`crate::app::layout::layout`] does for the app
/// (`shape`: [`App::shape`]).
pub fn layout(area: Rect, shape: Shape) -> Layout {
    let l = crate::app::layout::layout(area.width, area.height, shape);
    let rect = |a: Area| Rect::new(area.x + a.x, area.y + a.y, a.width, a.height);
    Layout {
        search: rect(l.search),
        list: rect(l.list),
        detail: rect(l.detail),
        status: rect(l.status),
        stacked: l.stacked,
    }
}

/// True when the screen is too small to draw the reader.
pub fn too_small(area: Rect) -> bool {
    crate::app::layout::too_small(area.width, area.height)
}

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, app: &App, theme: &Theme, keymap: &Keymap) {
    let area = frame.area();
    if too_small(area) {
        let text = if area.width >= 18 {
            "terminal too small"
        } else {
            "too small"
        };
        let note = Paragraph::new(vec![
            Line::from(text),
            Line::from(format!("{}x{}", area.width, area.height)),
        ]);
        frame.render_widget(note, area);
        return;
    }
    if app.triaging() {
        triage::draw(frame, app, theme, area);
        if app.mode() == Mode::Help {
            help::draw(frame, app, keymap, theme, area);
        }
        return;
    }
    let l = layout(area, app.shape());
    status::draw_search(frame, app, theme, l.search);
    list::draw(frame, app, theme, l.list);
    detail::draw(frame, app, theme, l.detail);
    status::draw_status(frame, app, theme, l.status);
    if app.mode() == Mode::Pick {
        picker::draw(frame, app, theme, area);
    }
    if app.mode() == Mode::Overview {
        overview::draw(frame, app, theme, area);
    }
    if app.mode() == Mode::Help {
        help::draw(frame, app, keymap, theme, area);
    }
}

fn contains(r: Rect, col: u16, row: u16) -> bool {
    col >= r.x && col < r.x + r.width && row >= r.y && row < r.y + r.height
}

/// The action for a mouse event: the wheel scrolls the pane under the
/// pointer, a left click selects a row of the list.
pub fn mouse_action(app: &App, ev: &MouseEvent) -> Option<Action> {
    let area = Rect::new(0, 0, app.size().0, app.size().1);
    if too_small(area)
        || matches!(app.mode(), Mode::Help | Mode::Pick | Mode::Overview)
        || app.triaging()
    {
        return None;
    }
    let l = layout(area, app.shape());
    let (col, row) = (ev.column, ev.row);
    match ev.kind {
        MouseEventKind::ScrollDown | MouseEventKind::ScrollUp => {
            let delta = if ev.kind == MouseEventKind::ScrollDown {
                3
            } else {
                -3
            };
            if contains(l.list, col, row) {
                Some(Action::ScrollList(delta))
            } else if contains(l.detail, col, row) {
                Some(Action::ScrollDetail(delta))
            } else {
                None
            }
        }
        MouseEventKind::Down(MouseButton::Left) => {
            let inner = l.list.inner(ratatui::layout::Margin::new(1, 1));
            if contains(inner, col, row) {
                let r = app.list_offset() + (row - inner.y) as usize;
                (r < app.rows()).then_some(Action::SelectRow(r))
            } else {
                None
            }
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::layout::{Constraint, Direction};

    /// The split as ratatui's own layout solver makes it.
    fn solved(area: Rect) -> Layout {
        let [search, middle, status] = ratatui::layout::Layout::default()
            .direction(Direction::Vertical)
            .constraints([
                Constraint::Length(1),
                Constraint::Min(0),
                Constraint::Length(1),
            ])
            .areas(area);
        let stacked = area.width < SIDE_BY_SIDE_MIN;
        let [list, detail] = if stacked {
            ratatui::layout::Layout::default()
                .direction(Direction::Vertical)
                .constraints([Constraint::Percentage(50), Constraint::Percentage(50)])
                .areas(middle)
        } else {
            ratatui::layout::Layout::default()
                .direction(Direction::Horizontal)
                .constraints([Constraint::Percentage(50), Constraint::Percentage(50)])
                .areas(middle)
        };
        Layout {
            search,
            list,
            detail,
            status,
            stacked,
        }
    }

    #[test]
    fn the_apps_geometry_is_the_one_ratatui_solves() {
        // Every width at one height splits the columns; every height at a
        // narrow and a wide width splits the rows.
        let sizes = (0..=400)
            .chain([1000, u16::MAX / 2])
            .map(|w| (w, 10))
            .chain((0..=300).chain([1000]).flat_map(|h| [(50, h), (120, h)]));
        for (width, height) in sizes {
            let area = Rect::new(0, 0, width, height);
            assert_eq!(
                layout(area, Shape::default()),
                solved(area),
                "{width}x{height}"
            );
        }
    }
}
