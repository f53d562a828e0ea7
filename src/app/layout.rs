//! Where each part of the screen goes, as plain numbers: the app scrolls by
//! the pane sizes the screen will have, and the ui draws into the same
//! boxes, so the two never disagree.

/// Below this width the panes stack: list above, abstract below.
pub const SIDE_BY_SIDE_MIN: u16 = 90;
/// Smallest screen the reader draws; below it a short note.
pub const MIN_SIZE: (u16, u16) = (20, 6);

/// The list's share of the middle, in percent, unless `[reader] list`
/// or `<` and `>` set another.
pub const LIST_SHARE: u8 = 50;
/// The least and most the list's share can be set to.
pub const LIST_SHARES: std::ops::RangeInclusive<u8> = 20..=80;
/// The most rows the status line wraps to (a long message).
pub const STATUS_MOST: u16 = 3;

/// How the screen is shared out besides its size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// The list's share of the middle in percent: of its width side by
    /// side, of its height stacked.
    pub list: u8,
    /// Rows the status line takes (a long message wraps).
    pub status: u16,
}

impl Default for Shape {
    fn default() -> Self {
        Shape {
            list: LIST_SHARE,
            status: 1,
        }
    }
}

/// A box on the screen, in cells.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Area {
    /// Left column.
    pub x: u16,
    /// Top row.
    pub y: u16,
    /// Columns.
    pub width: u16,
    /// Rows.
    pub height: u16,
}

/// Where each part of the screen goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The search line (top).
    pub search: Area,
    /// The list pane, borders included.
    pub list: Area,
    /// The abstract pane, borders included.
    pub detail: Area,
    /// The status line (bottom).
    pub status: Area,
    /// True when the panes are stacked.
    pub stacked: bool,
}

impl Layout {
    /// Rows of titles the list shows.
    pub fn list_rows(&self) -> usize {
        self.list.height.saturating_sub(2) as usize
    }

    /// Lines of text the abstract pane shows.
    pub fn detail_rows(&self) -> usize {
        self.detail.height.saturating_sub(2) as usize
    }

    /// Columns of text in the abstract pane (inside the borders, with a
    /// column of margin on each side).
    pub fn detail_width(&self) -> usize {
        self.detail.width.saturating_sub(4).max(1) as usize
    }
}

/// `length` cut in two at `percent` of it (rounded to the nearest cell).
fn split(length: u16, percent: u32) -> (u16, u16) {
    let first = ((length as u32 * percent * 2 + 100) / 200) as u16;
    (first, length - first)
}

/// Splits a screen of `width` × `height` cells: the search line on top,
/// the status line at the bottom (`shape.status` rows, from 10 rows of
/// screen on; else one), and the list and the abstract between them,
/// side by side or, below [`SIDE_BY_SIDE_MIN`] columns, stacked, the
/// list taking `shape.list` percent.
pub fn layout(width: u16, height: u16, shape: Shape) -> Layout {
    let line = |y: u16, rows: u16| Area {
        x: 0,
        y,
        width,
        height: rows,
    };
    let status_rows = match height {
        h if h >= 10 => shape.status.clamp(1, STATUS_MOST),
        _ => 1,
    };
    // On a one-row screen the status line has the row.
    let status = line(height.saturating_sub(status_rows), height.min(status_rows));
    let search = line(0, u16::from(height >= 2));
    let middle = line(search.height, height.saturating_sub(1 + status_rows));
    let stacked = width < SIDE_BY_SIDE_MIN;
    let share = u32::from(shape.list.clamp(*LIST_SHARES.start(), *LIST_SHARES.end()));
    let (list, detail) = if stacked {
        let (top, bottom) = split(middle.height, share);
        (
            Area {
                height: top,
                ..middle
            },
            Area {
                y: middle.y + top,
                height: bottom,
                ..middle
            },
        )
    } else {
        let (left, right) = split(middle.width, share);
        (
            Area {
                width: left,
                ..middle
            },
            Area {
                x: middle.x + left,
                width: right,
                ..middle
            },
        )
    };
    Layout {
        search,
        list,
        detail,
        status,
        stacked,
    }
}

/// Triage's screen: the abstract takes the whole middle, the list none.
pub fn triage(width: u16, height: u16, shape: Shape) -> Layout {
    let l = layout(width, height, shape);
    let middle = Area {
        x: 0,
        y: l.search.height,
        width,
        height: height.saturating_sub(l.search.height + l.status.height),
    };
    Layout {
        list: Area {
            height: 0,
            ..middle
        },
        detail: middle,
        ..l
    }
}

/// The last first line the help overlay scrolls to, for `count` lines on a
/// screen `height` rows high (the box has a border above and below).
pub fn help_max_scroll(count: usize, height: u16) -> usize {
    let inner = (count + 2).min(height as usize).saturating_sub(2);
    count.saturating_sub(inner)
}

/// True when the screen is too small to draw the reader.
pub fn too_small(width: u16, height: u16) -> bool {
    width < MIN_SIZE.0 || height < MIN_SIZE.1
}
