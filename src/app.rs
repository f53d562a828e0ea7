//! The reader's state and the one place it changes.
//!
//! Every key, click and resize becomes an [`Action`]; [`App::apply`] turns
//! it into a state change. Drawing reads the state and never changes it, so
//! the whole reader can be driven and checked without a terminal.

use crate::corpus::Corpus;
use crate::corpus::load::{Loaded, Report};
use crate::keys::Keymap;
use crate::search::{Scope, Search};
use crate::ui;
use crate::ui::theme::Theme;

/// What keys do at the moment.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Mode {
    /// Moving through the list and reading.
    #[default]
    Browse,
    /// Typing a query: every printable key edits it.
    Search,
    /// The help overlay is open.
    Help,
}

impl Mode {
    /// The mode's name in the help overlay.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Browse => "Browse",
            Mode::Search => "Search",
            Mode::Help => "Help",
        }
    }
}

/// Which pane movement keys act on.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Focus {
    /// The list of titles.
    #[default]
    List,
    /// The abstract.
    Detail,
}

/// Everything the reader can be asked to do.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Action {
    /// Quit the reader.
    Quit,
    /// Move down one paper (scroll down a line when the abstract has focus).
    Down,
    /// Move up one paper (scroll up a line when the abstract has focus).
    Up,
    /// Move down a page.
    PageDown,
    /// Move up a page.
    PageUp,
    /// Move down half a page.
    HalfPageDown,
    /// Move up half a page.
    HalfPageUp,
    /// Go to the first paper (top of the abstract when it has focus).
    First,
    /// Go to the last paper (end of the abstract when it has focus).
    Last,
    /// Scroll the abstract down a line.
    ScrollDown,
    /// Scroll the abstract up a line.
    ScrollUp,
    /// Scroll the abstract down a page.
    ScrollPageDown,
    /// Scroll the abstract up a page.
    ScrollPageUp,
    /// Move focus between the list and the abstract.
    ToggleFocus,
    /// Start typing a search query.
    StartSearch,
    /// Search titles, or titles and abstracts.
    ToggleScope,
    /// Open or close this help.
    ToggleHelp,
    /// Type a character into the query.
    Insert(char),
    /// Delete the character before the cursor.
    Backspace,
    /// Delete the character under the cursor.
    DeleteForward,
    /// Delete the word before the cursor.
    DeleteWord,
    /// Clear the query.
    ClearQuery,
    /// Move the cursor left.
    CursorLeft,
    /// Move the cursor right.
    CursorRight,
    /// Move the cursor to the start of the query.
    CursorHome,
    /// Move the cursor to the end of the query.
    CursorEnd,
    /// Keep the filter and go back to browsing.
    AcceptSearch,
    /// Clear the query and go back to browsing.
    CancelSearch,
    /// Select the paper at a row of the list (a click).
    SelectRow(usize),
    /// Scroll the list by rows (the mouse wheel).
    ScrollList(i32),
    /// Scroll the abstract by lines (the mouse wheel).
    ScrollDetail(i32),
    /// The terminal was resized.
    Resize(u16, u16),
}

impl Action {
    /// A one-line description, for the help overlay.
    pub fn describe(&self) -> &'static str {
        match self {
            Action::Quit => "Quit",
            Action::Down => "Next paper (or scroll the abstract)",
            Action::Up => "Previous paper (or scroll the abstract)",
            Action::PageDown => "Page down",
            Action::PageUp => "Page up",
            Action::HalfPageDown => "Half a page down",
            Action::HalfPageUp => "Half a page up",
            Action::First => "First paper",
            Action::Last => "Last paper",
            Action::ScrollDown => "Scroll the abstract down",
            Action::ScrollUp => "Scroll the abstract up",
            Action::ScrollPageDown => "Scroll the abstract a page down",
            Action::ScrollPageUp => "Scroll the abstract a page up",
            Action::ToggleFocus => "Focus the list or the abstract",
            Action::StartSearch => "Search (type to filter)",
            Action::ToggleScope => "Search titles / titles and abstracts",
            Action::ToggleHelp => "Open or close this help",
            Action::Insert(_) => "Type into the query",
            Action::Backspace => "Delete back",
            Action::DeleteForward => "Delete forward",
            Action::DeleteWord => "Delete a word back",
            Action::ClearQuery => "Clear the query",
            Action::CursorLeft => "Cursor left",
            Action::CursorRight => "Cursor right",
            Action::CursorHome => "Cursor to start",
            Action::CursorEnd => "Cursor to end",
            Action::AcceptSearch => "Keep the filter, back to the list",
            Action::CancelSearch => "Clear the query, back to the list",
            Action::SelectRow(_) => "Select a row",
            Action::ScrollList(_) => "Scroll the list",
            Action::ScrollDetail(_) => "Scroll the abstract",
            Action::Resize(..) => "Resize",
        }
    }
}

/// The query being typed, with a cursor (a byte offset on a char boundary).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineInput {
    /// The text.
    pub text: String,
    /// Cursor position in bytes.
    pub cursor: usize,
}

impl LineInput {
    fn prev_boundary(&self) -> usize {
        self.text[..self.cursor]
            .char_indices()
            .next_back()
            .map_or(0, |(i, _)| i)
    }

    fn next_boundary(&self) -> usize {
        self.text[self.cursor..]
            .chars()
            .next()
            .map_or(self.cursor, |c| self.cursor + c.len_utf8())
    }

    fn insert(&mut self, c: char) {
        self.text.insert(self.cursor, c);
        self.cursor += c.len_utf8();
    }

    fn backspace(&mut self) {
        if self.cursor > 0 {
            let p = self.prev_boundary();
            self.text.replace_range(p..self.cursor, "");
            self.cursor = p;
        }
    }

    fn delete(&mut self) {
        let n = self.next_boundary();
        self.text.replace_range(self.cursor..n, "");
    }

    fn delete_word(&mut self) {
        let before = &self.text[..self.cursor];
        let trimmed = before.trim_end();
        let start = trimmed.rfind(' ').map_or(0, |p| p + 1);
        self.text.replace_range(start..self.cursor, "");
        self.cursor = start;
    }

    fn clear(&mut self) {
        self.text.clear();
        self.cursor = 0;
    }
}

/// The reader's whole state.
pub struct App {
    /// The papers.
    pub corpus: Corpus,
    /// What each input gave, for the status line.
    pub reports: Vec<Report>,
    /// The matcher.
    pub search: Search,
    /// The key table.
    pub keymap: Keymap,
    /// Colours by role.
    pub theme: Theme,
    /// The current mode.
    pub mode: Mode,
    /// The mode the help overlay returns to.
    pub help_return: Mode,
    /// The pane movement acts on.
    pub focus: Focus,
    /// The query being edited.
    pub input: LineInput,
    /// Selected row of the ranking.
    pub selected: usize,
    /// First row of the ranking on screen.
    pub list_offset: usize,
    /// First line of the abstract on screen.
    pub detail_scroll: usize,
    /// First row of the help overlay on screen.
    pub help_scroll: usize,
    /// Terminal size (columns, rows).
    pub size: (u16, u16),
    /// A message for the status line.
    pub status: Option<String>,
    /// Set when the reader should exit.
    pub quit: bool,
    /// The query the shown ranking answers (to tell a new query from a
    /// grown corpus when a ranking arrives).
    ranked_query: Option<(String, Scope)>,
}

impl App {
    /// A reader over a loaded corpus. `notify` is called from the search
    /// worker when a ranking is ready (to wake the event loop).
    pub fn new(loaded: Loaded, notify: impl Fn() + Send + Sync + 'static) -> App {
        let mut search = Search::new(notify);
        search.extend(&loaded.corpus.papers);
        App {
            corpus: loaded.corpus,
            reports: loaded.reports,
            search,
            keymap: Keymap::default(),
            theme: Theme::default(),
            mode: Mode::Browse,
            help_return: Mode::Browse,
            focus: Focus::List,
            input: LineInput::default(),
            selected: 0,
            list_offset: 0,
            detail_scroll: 0,
            help_scroll: 0,
            size: (80, 24),
            status: None,
            quit: false,
            ranked_query: None,
        }
    }

    /// The index of the selected paper, if any paper is listed.
    pub fn selected_paper(&self) -> Option<usize> {
        self.search.get(self.selected)
    }

    /// Rows in the ranking shown.
    pub fn rows(&self) -> usize {
        self.search.matched()
    }

    fn layout(&self) -> ui::Layout {
        ui::layout(ratatui::layout::Rect::new(0, 0, self.size.0, self.size.1))
    }

    /// Rows of the list pane.
    pub fn list_height(&self) -> usize {
        self.layout().list_rows()
    }

    /// Lines of the abstract pane.
    fn detail_height(&self) -> usize {
        self.layout().detail_rows()
    }

    /// Lines the selected paper's text takes in the abstract pane.
    fn detail_lines(&self) -> usize {
        let width = self.layout().detail_width();
        self.selected_paper()
            .map_or(0, |i| ui::detail::line_count(self, i, width))
    }

    /// Picks up a new ranking from the matcher. Call once a frame; true when
    /// the screen needs redrawing.
    pub fn tick(&mut self) -> bool {
        let before = self.selected_paper();
        if !self.search.tick() {
            return false;
        }
        let r = self.search.results();
        let now = (r.query.clone(), r.scope);
        let same_query = self.ranked_query.as_ref() == Some(&now);
        self.ranked_query = Some(now);
        if same_query {
            // More papers arrived: stay on the same paper.
            if let Some(row) = before.and_then(|p| self.search.row_of(p)) {
                self.selected = row;
            }
        } else {
            self.selected = 0;
            self.list_offset = 0;
        }
        if self.selected_paper() != before {
            self.detail_scroll = 0;
        }
        self.clamp();
        true
    }

    fn query_changed(&mut self) {
        let scope = self.search.scope();
        self.search.set_query(&self.input.text, scope);
    }

    fn move_to(&mut self, row: isize) {
        let rows = self.rows();
        if rows == 0 {
            self.selected = 0;
            return;
        }
        let row = row.clamp(0, rows as isize - 1) as usize;
        if row != self.selected {
            self.selected = row;
            self.detail_scroll = 0;
        }
        self.clamp();
    }

    fn move_by(&mut self, delta: isize) {
        self.move_to(self.selected as isize + delta);
    }

    fn scroll_detail(&mut self, delta: isize) {
        let max = self.detail_lines().saturating_sub(self.detail_height());
        self.detail_scroll = (self.detail_scroll as isize + delta).clamp(0, max as isize) as usize;
    }

    /// Keeps the selection in range and on screen.
    fn clamp(&mut self) {
        let rows = self.rows();
        if rows == 0 {
            self.selected = 0;
            self.list_offset = 0;
            return;
        }
        self.selected = self.selected.min(rows - 1);
        let h = self.list_height().max(1);
        if self.selected < self.list_offset {
            self.list_offset = self.selected;
        } else if self.selected >= self.list_offset + h {
            self.list_offset = self.selected + 1 - h;
        }
        self.list_offset = self.list_offset.min(rows.saturating_sub(h));
        let max = self.detail_lines().saturating_sub(self.detail_height());
        self.detail_scroll = self.detail_scroll.min(max);
    }

    /// Applies one action.
    pub fn apply(&mut self, action: Action) {
        let page = self.list_height().max(1) as isize;
        let detail_page = self.detail_height().max(1) as isize;
        let on_detail = self.focus == Focus::Detail && self.mode == Mode::Browse;
        match action {
            Action::Quit => self.quit = true,
            Action::Down | Action::Up if self.mode == Mode::Help => {
                let d = if action == Action::Down { 1 } else { -1 };
                self.help_scroll = (self.help_scroll as isize + d).max(0) as usize;
            }
            Action::Down if on_detail => self.scroll_detail(1),
            Action::Up if on_detail => self.scroll_detail(-1),
            Action::PageDown if on_detail => self.scroll_detail(detail_page),
            Action::PageUp if on_detail => self.scroll_detail(-detail_page),
            Action::HalfPageDown if on_detail => self.scroll_detail(detail_page / 2),
            Action::HalfPageUp if on_detail => self.scroll_detail(-detail_page / 2),
            Action::First if on_detail => self.detail_scroll = 0,
            Action::Last if on_detail => self.scroll_detail(isize::MAX / 2),
            Action::Down => self.move_by(1),
            Action::Up => self.move_by(-1),
            Action::PageDown => self.move_by(page),
            Action::PageUp => self.move_by(-page),
            Action::HalfPageDown => self.move_by((page / 2).max(1)),
            Action::HalfPageUp => self.move_by(-(page / 2).max(1)),
            Action::First => self.move_to(0),
            Action::Last => self.move_to(isize::MAX / 2),
            Action::ScrollDown => self.scroll_detail(1),
            Action::ScrollUp => self.scroll_detail(-1),
            Action::ScrollPageDown => self.scroll_detail((detail_page - 1).max(1)),
            Action::ScrollPageUp => self.scroll_detail(-(detail_page - 1).max(1)),
            Action::ToggleFocus => {
                self.focus = match self.focus {
                    Focus::List => Focus::Detail,
                    Focus::Detail => Focus::List,
                }
            }
            Action::StartSearch => {
                self.mode = Mode::Search;
                self.input.cursor = self.input.text.len();
            }
            Action::ToggleScope => {
                let scope = self.search.scope().toggled();
                self.search.set_query(&self.input.text, scope);
            }
            Action::ToggleHelp => {
                if self.mode == Mode::Help {
                    self.mode = self.help_return;
                } else {
                    self.help_return = self.mode;
                    self.mode = Mode::Help;
                    self.help_scroll = 0;
                }
            }
            Action::Insert(c) => {
                self.input.insert(c);
                self.query_changed();
            }
            Action::Backspace => {
                self.input.backspace();
                self.query_changed();
            }
            Action::DeleteForward => {
                self.input.delete();
                self.query_changed();
            }
            Action::DeleteWord => {
                self.input.delete_word();
                self.query_changed();
            }
            Action::ClearQuery => {
                self.input.clear();
                self.query_changed();
            }
            Action::CursorLeft => self.input.cursor = self.input.prev_boundary(),
            Action::CursorRight => self.input.cursor = self.input.next_boundary(),
            Action::CursorHome => self.input.cursor = 0,
            Action::CursorEnd => self.input.cursor = self.input.text.len(),
            Action::AcceptSearch => self.mode = Mode::Browse,
            Action::CancelSearch => {
                self.input.clear();
                self.query_changed();
                self.mode = Mode::Browse;
            }
            Action::SelectRow(row) => {
                self.focus = Focus::List;
                self.move_to(row as isize);
            }
            Action::ScrollList(delta) => {
                let rows = self.rows();
                let h = self.list_height();
                let max = rows.saturating_sub(h) as isize;
                self.list_offset =
                    (self.list_offset as isize + delta as isize).clamp(0, max) as usize;
                // The selection follows so that it stays on screen.
                let lo = self.list_offset;
                let hi = (lo + h).min(rows).saturating_sub(1);
                if self.selected < lo || self.selected > hi {
                    let target = if self.selected < lo { lo } else { hi };
                    self.selected = target;
                    self.detail_scroll = 0;
                }
            }
            Action::ScrollDetail(delta) => self.scroll_detail(delta as isize),
            Action::Resize(w, h) => {
                self.size = (w, h);
                self.clamp();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::load;
    use std::time::Duration;

    fn app() -> App {
        let mut app = App::new(load::bundled(), || {});
        app.apply(Action::Resize(120, 40));
        settle(&mut app);
        app
    }

    fn settle(app: &mut App) {
        assert!(app.search.wait(Duration::from_secs(5)));
        app.tick();
    }

    fn typed(app: &mut App, s: &str) {
        for c in s.chars() {
            app.apply(Action::Insert(c));
        }
        settle(app);
    }

    #[test]
    fn opens_on_all_bundled_papers_in_order() {
        let app = app();
        assert_eq!(app.rows(), 38);
        assert_eq!(app.selected_paper(), Some(0));
    }

    #[test]
    fn moving_stays_in_range() {
        let mut app = app();
        app.apply(Action::Up);
        assert_eq!(app.selected, 0);
        app.apply(Action::Last);
        assert_eq!(app.selected, 37);
        app.apply(Action::Down);
        assert_eq!(app.selected, 37);
        assert!(app.list_offset + app.list_height() > 37);
        app.apply(Action::First);
        app.apply(Action::PageDown);
        assert_eq!(app.selected, app.list_height());
        app.apply(Action::HalfPageUp);
        assert_eq!(app.selected, app.list_height() - app.list_height() / 2);
    }

    #[test]
    fn search_mode_types_j_and_k_and_filters() {
        let mut app = app();
        app.apply(Action::StartSearch);
        assert_eq!(app.mode, Mode::Search);
        typed(&mut app, "orchjail");
        assert_eq!(app.input.text, "orchjail");
        assert_eq!(app.rows(), 1);
        let p = &app.corpus.papers[app.selected_paper().unwrap()];
        assert!(p.title.starts_with("OrchJail"), "{}", p.title);
        app.apply(Action::AcceptSearch);
        assert_eq!(app.mode, Mode::Browse);
        assert_eq!(app.rows(), 1, "Enter keeps the filter");
        app.apply(Action::StartSearch);
        app.apply(Action::CancelSearch);
        settle(&mut app);
        assert_eq!(app.rows(), 38, "Esc clears it");
    }

    #[test]
    fn editing_the_query() {
        let mut app = app();
        app.apply(Action::StartSearch);
        typed(&mut app, "sparse attn");
        app.apply(Action::DeleteWord);
        assert_eq!(app.input.text, "sparse ");
        app.apply(Action::CursorHome);
        app.apply(Action::Insert('x'));
        assert_eq!(app.input.text, "xsparse ");
        app.apply(Action::CursorRight);
        app.apply(Action::Backspace);
        assert_eq!(app.input.text, "xparse ");
        app.apply(Action::DeleteForward);
        assert_eq!(app.input.text, "xarse ");
        app.apply(Action::ClearQuery);
        assert_eq!(app.input.text, "");
    }

    #[test]
    fn scope_toggle_searches_abstracts() {
        let mut app = app();
        app.apply(Action::StartSearch);
        typed(&mut app, "Qwen3");
        let title_hits = app.rows();
        app.apply(Action::ToggleScope);
        settle(&mut app);
        assert!(app.rows() > title_hits, "{} vs {}", app.rows(), title_hits);
        assert_eq!(app.search.scope(), Scope::All);
    }

    #[test]
    fn focus_on_the_abstract_scrolls_it() {
        let mut app = app();
        app.apply(Action::Resize(60, 20));
        app.apply(Action::ToggleFocus);
        app.apply(Action::Down);
        assert_eq!(app.selected, 0);
        assert_eq!(app.detail_scroll, 1);
        app.apply(Action::Last);
        let end = app.detail_scroll;
        assert!(end > 1);
        app.apply(Action::Down);
        assert_eq!(app.detail_scroll, end, "never past the end");
        app.apply(Action::ToggleFocus);
        app.apply(Action::Down);
        assert_eq!(app.selected, 1);
        assert_eq!(app.detail_scroll, 0, "a new paper starts at the top");
    }

    #[test]
    fn help_opens_and_returns_to_the_mode() {
        let mut app = app();
        app.apply(Action::StartSearch);
        app.apply(Action::ToggleHelp);
        assert_eq!(app.mode, Mode::Help);
        app.apply(Action::ToggleHelp);
        assert_eq!(app.mode, Mode::Search);
    }

    #[test]
    fn clicks_and_wheel() {
        let mut app = app();
        app.apply(Action::SelectRow(5));
        assert_eq!(app.selected, 5);
        app.apply(Action::SelectRow(500));
        assert_eq!(app.selected, 37);
        app.apply(Action::First);
        app.apply(Action::ScrollList(10));
        assert_eq!(app.list_offset, 10.min(38 - app.list_height()));
        assert!(app.selected >= app.list_offset);
    }
}
