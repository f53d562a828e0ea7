//! The reader's state and the one place it changes.
//!
//! Every key, click and resize becomes an [`Action`]; [`App::apply`] turns
//! it into a state change. Drawing reads the state and never changes it, so
//! the whole reader can be driven and checked without a terminal.

use std::time::{Duration, Instant};

use crate::corpus::Corpus;
use crate::corpus::load::{self, LoadError, Loaded, Report};
use crate::keys::Keymap;
use crate::search::{Scope, Search};
use crate::store::{Field, Store};
use crate::ui;
use crate::ui::theme::Theme;
pub mod layout;

use crate::vocabulary::{Action, Effect, Focus, Marks, Mode, View};

/// How often a running reader looks for marks saved by another instance.
const REFRESH_EVERY: Duration = Duration::from_secs(1);
/// How often a failed save is tried again.
const RETRY_EVERY: Duration = Duration::from_secs(2);

/// Paper counts by mark, for the search line.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Counts {
    /// Bookmarked papers.
    pub bookmarked: usize,
    /// Papers read.
    pub read: usize,
    /// All papers.
    pub total: usize,
}

/// One undoable change: each mark's value before and after.
#[derive(Clone, PartialEq, Eq, Debug)]
struct Change {
    marks: Vec<(usize, Field, bool, bool)>,
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
    /// Names the inputs; keys where this corpus was left in the store.
    pub corpus_key: String,
    /// The matcher.
    pub search: Search,
    /// Bookmarks and read state.
    pub store: Store,
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
    /// The view.
    pub view: View,
    /// The query being edited.
    pub input: LineInput,
    /// Selected row of the list.
    pub selected: usize,
    /// First row of the list on screen.
    pub list_offset: usize,
    /// First line of the abstract on screen.
    pub detail_scroll: usize,
    /// First row of the help overlay on screen.
    pub help_scroll: usize,
    /// Terminal size (columns, rows).
    pub size: (u16, u16),
    /// A message for the status line, until the next key.
    pub status: Option<String>,
    /// A save that failed and is being retried.
    pub save_error: Option<String>,
    /// The question being asked in [`Mode::Confirm`].
    pub question: Option<String>,
    /// Set when the reader should exit.
    pub quit: bool,
    /// The link chosen with a digit key, for `o`.
    pub chosen_link: Option<usize>,
    /// The abstract line of the match `n`/`N` went to last.
    pub match_line: Option<usize>,
    /// What the event loop should do next.
    pub effects: Vec<Effect>,
    /// Paper counts by mark.
    pub counts: Counts,
    /// Marks by paper index.
    marks: Vec<Marks>,
    /// The rows when a view or a kept paper filters the ranking.
    filtered: Option<Vec<u32>>,
    /// A paper that left the view after a toggle, kept until the selection
    /// moves so that the list does not jump under the cursor.
    sticky: Option<usize>,
    undo: Vec<Change>,
    redo: Vec<Change>,
    /// The query the shown ranking answers (to tell a new query from a
    /// grown corpus when a ranking arrives).
    ranked_query: Option<(String, Scope)>,
    /// The paper to select once a ranking shows it (where the corpus was
    /// left last time).
    restore: Option<Restore>,
    last_refresh: Instant,
    last_retry: Instant,
    /// While the corpus streams in: how far loading has got.
    pub loading: Option<Loading>,
    /// Why the reader ended before it could show a paper: nothing loaded.
    pub failed: Option<LoadError>,
    /// Whether the reports are said in the status line once loading ends.
    announce_reports: bool,
}

/// Where the corpus was left last time, still to be selected.
#[derive(Clone, Debug)]
struct Restore {
    /// The paper's id.
    id: String,
    /// Its index, once it has loaded.
    at: Option<usize>,
}

/// How far a streaming load has got.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Loading {
    /// Papers so far.
    pub papers: usize,
    /// Bytes read so far.
    pub bytes: u64,
    /// Bytes in all inputs, when known (not for stdin).
    pub total: Option<u64>,
}

impl Loading {
    /// The progress figure: `loading 340k/1.0M` (papers so far, of the
    /// papers expected from the share of bytes read), or `loading 340k`
    /// when the size is unknown.
    pub fn describe(&self) -> String {
        let so_far = short_count(self.papers);
        match load::expected_papers(self.papers, self.bytes, self.total) {
            Some(expected) if self.total > Some(self.bytes) => {
                format!("loading {so_far}/{}", short_count(expected))
            }
            _ => format!("loading {so_far}"),
        }
    }
}

/// A count as people say it: `950`, `12k`, `340k`, `1.0M`.
pub fn short_count(n: usize) -> String {
    if n < 1_000 {
        n.to_string()
    } else if n < 10_000 {
        format!("{:.1}k", n as f64 / 1e3)
    } else if n < 1_000_000 {
        format!("{}k", n / 1_000)
    } else {
        format!("{:.1}M", n as f64 / 1e6)
    }
}

impl App {
    /// A reader over a loaded corpus with its store. `notify` is called from
    /// the search worker when a ranking is ready (to wake the event loop).
    pub fn new(loaded: Loaded, store: Store, notify: impl Fn() + Send + Sync + 'static) -> App {
        let mut search = Search::new(notify);
        search.extend(&loaded.corpus.papers);
        let place = store.place(&loaded.key).cloned();
        let mut app = App {
            marks: vec![Marks::default(); loaded.corpus.len()],
            corpus: loaded.corpus,
            reports: loaded.reports,
            corpus_key: loaded.key,
            search,
            store,
            keymap: Keymap::default(),
            theme: Theme::default(),
            mode: Mode::Browse,
            help_return: Mode::Browse,
            focus: Focus::List,
            view: View::All,
            input: LineInput::default(),
            selected: 0,
            list_offset: 0,
            detail_scroll: 0,
            help_scroll: 0,
            size: (80, 24),
            status: None,
            save_error: None,
            question: None,
            quit: false,
            chosen_link: None,
            match_line: None,
            effects: Vec::new(),
            counts: Counts::default(),
            filtered: None,
            sticky: None,
            undo: Vec::new(),
            redo: Vec::new(),
            ranked_query: None,
            restore: None,
            last_refresh: Instant::now(),
            last_retry: Instant::now(),
            loading: None,
            failed: None,
            announce_reports: false,
        };
        if let Some(place) = place {
            app.view = place
                .view
                .as_deref()
                .and_then(View::from_name)
                .unwrap_or_default();
            app.restore = place.selected.map(|id| Restore { id, at: None });
        }
        app.find_restore(0);
        app.reload_marks();
        app
    }

    /// Looks for the paper to restore among papers `from..`.
    fn find_restore(&mut self, from: usize) {
        if let Some(r) = &mut self.restore
            && r.at.is_none()
        {
            r.at = self.corpus.papers[from..]
                .iter()
                .position(|p| p.id.as_str() == r.id)
                .map(|k| from + k);
        }
    }

    /// A reader whose corpus (named by `key`) is still to come: papers
    /// arrive through [`App::receive`] while the reader is in use, and
    /// [`App::finish_loading`] ends the load. `announce` says the inputs'
    /// reports in the status line at the end.
    pub fn loading(
        key: String,
        store: Store,
        announce: bool,
        notify: impl Fn() + Send + Sync + 'static,
    ) -> App {
        let empty = Loaded {
            corpus: Corpus::default(),
            reports: Vec::new(),
            key,
        };
        let mut app = App::new(empty, store, notify);
        // Titles first: abstracts are indexed once every paper is in.
        app.search.hold_index(true);
        app.loading = Some(Loading::default());
        app.announce_reports = announce;
        app
    }

    /// Takes in what a streaming load says.
    pub fn receive(&mut self, event: load::Event) {
        match event {
            load::Event::Papers(batch, prepared) => {
                let first = self.corpus.len();
                self.corpus.push(batch);
                self.find_restore(first);
                let new = &self.corpus.papers[first..];
                let state = self.store.state();
                for p in new {
                    let m = Marks::of(state, p.id.as_str());
                    self.counts.bookmarked += usize::from(m.bookmarked);
                    self.counts.read += usize::from(m.read);
                    self.marks.push(m);
                }
                self.counts.total = self.marks.len();
                let prepared = prepared.unwrap_or_else(|| crate::search::Prepared::new(new));
                self.search.extend_prepared(prepared);
                if let Some(l) = &mut self.loading {
                    l.papers = self.corpus.len();
                }
            }
            load::Event::Progress {
                bytes,
                total,
                papers,
            } => {
                if let Some(l) = &mut self.loading {
                    l.bytes = bytes;
                    l.total = total;
                    if let Some(expected) = load::expected_papers(papers, bytes, total) {
                        if let Some(more) = self.corpus.expect(expected) {
                            self.marks.reserve_exact(more);
                        }
                        self.search.expect(expected);
                    }
                }
            }
            load::Event::Report(r) => self.reports.push(r),
            // Only a load for titles alone hands titles on.
            load::Event::Titles(_) => {}
        }
    }

    /// Ends a streaming load: ids shortened and titles made unique now
    /// that the corpus is whole. When nothing loaded, the reader ends and
    /// [`App::failed`] says why.
    pub fn finish_loading(&mut self) {
        if self.loading.take().is_none() {
            return;
        }
        self.search.hold_index(false);
        self.search.expect(0);
        if self.corpus.is_empty() {
            self.failed = Some(LoadError::NoPapers(std::mem::take(&mut self.reports)));
            self.quit = true;
            return;
        }
        let retitled = self.corpus.finish();
        let titles: Vec<(usize, &str)> = retitled
            .iter()
            .map(|&i| (i, self.corpus.papers[i].title.as_str()))
            .collect();
        self.search.retitle(&titles);
        if self.announce_reports && self.status.is_none() {
            let said: Vec<String> = self.reports.iter().map(ToString::to_string).collect();
            self.status = Some(said.join(" · "));
        }
    }

    /// Applies the user's config: keys, theme (without colour when
    /// `no_color`), the starting scope, and the view for a corpus that has
    /// none remembered.
    pub fn configure(&mut self, config: crate::config::Config, no_color: bool) {
        self.keymap = config.keymap;
        self.theme = if no_color {
            config.theme.without_color()
        } else {
            config.theme
        };
        if config.scope != self.search.scope() {
            let q = self.input.text.clone();
            self.search.set_query(&q, config.scope);
        }
        if self.store.place(&self.corpus_key).is_none() && config.view != self.view {
            self.view = config.view;
            let keep = self.selected_paper();
            self.rebuild_rows(keep);
        }
    }

    /// The marks of paper `idx`.
    pub fn marks(&self, idx: usize) -> Marks {
        self.marks.get(idx).copied().unwrap_or_default()
    }

    /// Reads every paper's marks from the store.
    fn reload_marks(&mut self) {
        let state = self.store.state();
        for (i, p) in self.corpus.papers.iter().enumerate() {
            self.marks[i] = Marks::of(state, p.id.as_str());
        }
        self.count();
    }

    fn count(&mut self) {
        self.counts = Counts {
            bookmarked: self.marks.iter().filter(|m| m.bookmarked).count(),
            read: self.marks.iter().filter(|m| m.read).count(),
            total: self.marks.len(),
        };
    }

    /// The paper at `row` of the list.
    pub fn paper_at(&self, row: usize) -> Option<usize> {
        match &self.filtered {
            Some(rows) => rows.get(row).map(|&i| i as usize),
            None => self.search.get(row),
        }
    }

    /// The index of the selected paper, if any paper is listed.
    pub fn selected_paper(&self) -> Option<usize> {
        self.paper_at(self.selected)
    }

    /// Rows in the list.
    pub fn rows(&self) -> usize {
        match &self.filtered {
            Some(rows) => rows.len(),
            None => self.search.matched(),
        }
    }

    /// Rebuilds the list from the ranking, the view and the kept paper,
    /// keeping paper `keep` selected when it is still listed.
    fn rebuild_rows(&mut self, keep: Option<usize>) {
        self.filtered = if self.view == View::All && self.sticky.is_none() {
            None
        } else {
            let (view, sticky, marks) = (self.view, self.sticky, &self.marks);
            Some(
                self.search
                    .results()
                    .matches
                    .iter()
                    .map(|m| m.idx)
                    .filter(|&i| view.shows(marks[i as usize]) || sticky == Some(i as usize))
                    .collect(),
            )
        };
        if let Some(row) = keep.and_then(|p| self.row_of(p)) {
            self.selected = row;
        }
        self.clamp();
    }

    fn row_of(&self, idx: usize) -> Option<usize> {
        match &self.filtered {
            Some(rows) => rows.iter().position(|&i| i as usize == idx),
            None => self.search.row_of(idx),
        }
    }

    fn layout(&self) -> layout::Layout {
        layout::layout(self.size.0, self.size.1)
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

    /// Picks up a new ranking from the matcher and marks saved by other
    /// instances; retries a failed save. Call once a frame; true when the
    /// screen needs redrawing.
    pub fn tick(&mut self) -> bool {
        let mut changed = false;
        if self.last_refresh.elapsed() >= REFRESH_EVERY {
            self.last_refresh = Instant::now();
            if self.store.refresh() {
                let keep = self.selected_paper();
                self.reload_marks();
                self.rebuild_rows(keep);
                changed = true;
            }
        }
        if self.store.dirty() && self.last_retry.elapsed() >= RETRY_EVERY {
            self.last_retry = Instant::now();
            let result = self.store.retry();
            self.saved(result);
            changed = true;
        }
        let before = self.selected_paper();
        if !self.search.tick() {
            return changed;
        }
        let r = self.search.results();
        let now = (r.query.clone(), r.scope);
        let same_query = self.ranked_query.as_ref() == Some(&now);
        self.ranked_query = Some(now);
        let keep = if let Some(r) = &self.restore {
            r.at
        } else if same_query && self.selected > 0 {
            // More papers arrived, or the rest of a partial ranking: stay
            // on the same paper. On the top row, follow the top as fzf
            // does (the best match so far is not the best one).
            before
        } else {
            self.selected = 0;
            self.list_offset = 0;
            None
        };
        self.rebuild_rows(keep);
        if let Some(r) = &self.restore {
            // Done once the paper is selected; given up once nothing more
            // can come (it left the corpus, or the query hides it).
            let placed = r.at.is_some() && self.selected_paper() == r.at;
            if placed || !(self.search.is_running() || self.loading.is_some()) {
                self.restore = None;
            }
        }
        if self.selected_paper() != before {
            self.detail_scroll = 0;
            self.chosen_link = None;
            self.match_line = None;
        }
        true
    }

    /// The selected paper laid out for the abstract pane.
    fn rendered(&self) -> Option<ui::detail::Rendered> {
        let width = self.layout().detail_width();
        self.selected_paper()
            .map(|i| ui::detail::for_app(self, i, width))
    }

    /// Scrolls to the next (or previous) line of the abstract holding a
    /// match of the query, wrapping around.
    fn jump_to_match(&mut self, forward: bool) {
        let Some(r) = self.rendered() else { return };
        let lines = r.match_lines;
        if lines.is_empty() {
            self.status = Some("no matches in this abstract".to_string());
            return;
        }
        let here = self.match_line;
        let target = if forward {
            let after = |l: usize| here.map_or(l >= self.detail_scroll, |h| l > h);
            lines
                .iter()
                .copied()
                .find(|&l| after(l))
                .unwrap_or(lines[0])
        } else {
            let before = |l: usize| here.map_or(l < self.detail_scroll, |h| l < h);
            lines
                .iter()
                .copied()
                .rev()
                .find(|&l| before(l))
                .unwrap_or(lines[lines.len() - 1])
        };
        self.match_line = Some(target);
        let max = r.lines.len().saturating_sub(self.detail_height());
        self.detail_scroll = target.saturating_sub(1).min(max);
        let k = lines.iter().position(|&l| l == target).unwrap_or(0) + 1;
        self.status = Some(format!("match {k}/{}", lines.len()));
    }

    /// Notes the outcome of a save in the status line.
    fn saved(&mut self, result: Result<(), crate::store::StoreError>) {
        match result {
            Ok(()) => {
                if self.save_error.take().is_some() {
                    self.status = Some("saved".to_string());
                }
            }
            Err(e @ crate::store::StoreError::ReadOnly(_)) => self.status = Some(e.to_string()),
            Err(e) => {
                self.last_retry = Instant::now();
                self.save_error = Some(format!("could not save marks: {e} (retrying)"));
            }
        }
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
        // The user has chosen: a place still to be restored is dropped.
        self.restore = None;
        if row != self.selected {
            self.selected = row;
            self.detail_scroll = 0;
            self.chosen_link = None;
            self.match_line = None;
            if self.sticky.take().is_some() {
                // The kept paper may now leave the view.
                let target = self.selected_paper();
                self.rebuild_rows(target);
            }
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

    /// Sets marks in the store and on screen; returns whether they took.
    fn set_marks(&mut self, marks: &[(usize, Field, bool)]) -> bool {
        let changes: Vec<(&str, Field, bool)> = marks
            .iter()
            .map(|&(i, f, on)| (self.corpus.papers[i].id.as_str(), f, on))
            .collect();
        let result = self.store.set(&changes);
        if matches!(result, Err(crate::store::StoreError::ReadOnly(_))) {
            self.saved(result);
            return false;
        }
        self.saved(result);
        for &(i, field, on) in marks {
            match field {
                Field::Bookmark => self.marks[i].bookmarked = on,
                Field::Read => self.marks[i].read = on,
            }
        }
        self.count();
        true
    }

    /// Applies a change, records it for undo, keeps the selected paper
    /// listed.
    fn change(&mut self, marks: Vec<(usize, Field, bool)>) {
        let before: Vec<(usize, Field, bool, bool)> = marks
            .iter()
            .map(|&(i, f, on)| {
                let was = match f {
                    Field::Bookmark => self.marks[i].bookmarked,
                    Field::Read => self.marks[i].read,
                };
                (i, f, was, on)
            })
            .filter(|&(_, _, was, on)| was != on)
            .collect();
        if before.is_empty() {
            return;
        }
        let apply: Vec<(usize, Field, bool)> =
            before.iter().map(|&(i, f, _, on)| (i, f, on)).collect();
        if self.set_marks(&apply) {
            self.undo.push(Change { marks: before });
            self.redo.clear();
            self.keep_selected();
        }
    }

    /// After marks change: the selected paper stays listed until the
    /// selection moves, even when it left the view.
    fn keep_selected(&mut self) {
        let sel = self.selected_paper();
        if let Some(i) = sel
            && !self.view.shows(self.marks[i])
        {
            self.sticky = Some(i);
        }
        self.rebuild_rows(sel);
    }

    fn undo_redo(&mut self, undo: bool) {
        let (from, to) = if undo {
            (&mut self.undo, &mut self.redo)
        } else {
            (&mut self.redo, &mut self.undo)
        };
        let Some(change) = from.pop() else {
            self.status = Some(
                if undo {
                    "nothing to undo"
                } else {
                    "nothing to redo"
                }
                .to_string(),
            );
            return;
        };
        to.push(change.clone());
        let marks: Vec<(usize, Field, bool)> = change
            .marks
            .iter()
            .map(|&(i, f, before, after)| (i, f, if undo { before } else { after }))
            .collect();
        if self.set_marks(&marks) {
            let n = marks.len();
            self.status = Some(format!(
                "{} {n} mark{}",
                if undo { "undid" } else { "redid" },
                if n == 1 { "" } else { "s" }
            ));
            // Show the paper the change was about.
            if let Some(&(i, ..)) = marks.first()
                && n == 1
            {
                if !self.view.shows(self.marks[i]) {
                    self.sticky = Some(i);
                }
                self.rebuild_rows(Some(i));
                return;
            }
            self.keep_selected();
        } else {
            // Not applied: put it back where it was.
            if let Some(c) = if undo {
                self.redo.pop()
            } else {
                self.undo.pop()
            } {
                if undo {
                    self.undo.push(c)
                } else {
                    self.redo.push(c)
                }
            }
        }
    }

    /// Remembers where this corpus was left and saves; call on exit.
    pub fn save_place(&mut self) {
        // A place still to be found (the corpus is loading) stays saved.
        let selected = self.restore.as_ref().map(|r| r.id.clone()).or_else(|| {
            self.selected_paper()
                .map(|i| self.corpus.papers[i].id.to_string())
        });
        self.store
            .set_place(&self.corpus_key, selected.as_deref(), self.view.name());
        let result = self.store.retry();
        self.saved(result);
    }

    /// Applies one action.
    pub fn apply(&mut self, action: Action) {
        if !matches!(
            action,
            Action::Resize(..) | Action::ScrollList(_) | Action::ScrollDetail(_)
        ) {
            self.status = None;
        }
        let page = self.list_height().max(1) as isize;
        let detail_page = self.detail_height().max(1) as isize;
        let on_detail = self.focus == Focus::Detail && self.mode == Mode::Browse;
        match action {
            Action::Quit => {
                self.save_place();
                self.quit = true;
            }
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
            Action::ToggleBookmark => {
                if let Some(i) = self.selected_paper() {
                    let on = !self.marks[i].bookmarked;
                    self.change(vec![(i, Field::Bookmark, on)]);
                }
            }
            Action::ToggleRead => {
                if let Some(i) = self.selected_paper() {
                    let on = !self.marks[i].read;
                    self.change(vec![(i, Field::Read, on)]);
                }
            }
            Action::CycleView => {
                self.view = self.view.next();
                self.sticky = None;
                let keep = self.selected_paper();
                self.rebuild_rows(keep);
            }
            Action::MarkAllRead => {
                let unread = (0..self.rows())
                    .filter_map(|r| self.paper_at(r))
                    .filter(|&i| !self.marks[i].read)
                    .count();
                if unread == 0 {
                    self.status = Some("every paper listed is read already".to_string());
                } else {
                    self.question = Some(format!(
                        "Mark {unread} paper{} read? (y/n)",
                        if unread == 1 { "" } else { "s" }
                    ));
                    self.mode = Mode::Confirm;
                }
            }
            Action::ConfirmYes => {
                if self.question.take().is_some() {
                    let marks: Vec<(usize, Field, bool)> = (0..self.rows())
                        .filter_map(|r| self.paper_at(r))
                        .map(|i| (i, Field::Read, true))
                        .collect();
                    let n = marks.iter().filter(|&&(i, ..)| !self.marks[i].read).count();
                    self.change(marks);
                    self.status = Some(format!("marked {n} read · u undoes"));
                }
                self.mode = Mode::Browse;
            }
            Action::ConfirmNo => {
                self.question = None;
                self.mode = Mode::Browse;
            }
            Action::NextMatch => self.jump_to_match(true),
            Action::PrevMatch => self.jump_to_match(false),
            Action::ChooseLink(n) => {
                let links = self.rendered().map(|r| r.links).unwrap_or_default();
                let k = n as usize;
                if k >= 1 && k <= links.len() {
                    self.chosen_link = Some(k - 1);
                    self.status = Some(format!("link {k}: {} · o opens it", links[k - 1]));
                } else {
                    self.status = Some(format!("this paper has no link {k}"));
                }
            }
            Action::OpenLink => {
                let links = self.rendered().map(|r| r.links).unwrap_or_default();
                match links.get(self.chosen_link.unwrap_or(0)) {
                    Some(url) => self.effects.push(Effect::Open(url.clone())),
                    None => self.status = Some("this paper has no links".to_string()),
                }
            }
            Action::CopyLink => {
                if let Some(i) = self.selected_paper() {
                    let title = crate::text::markup::plain(&self.corpus.papers[i].title);
                    let links = self.rendered().map(|r| r.links).unwrap_or_default();
                    let text = match links.first() {
                        Some(url) => format!("{title}\n{url}"),
                        None => title,
                    };
                    self.effects.push(Effect::Copy(text));
                }
            }
            Action::Suspend => {
                self.save_place();
                self.effects.push(Effect::Suspend);
            }
            Action::Undo => self.undo_redo(true),
            Action::Redo => self.undo_redo(false),
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
                    let offset = self.list_offset;
                    self.move_to(target as isize);
                    self.list_offset = offset.min(rows.saturating_sub(h));
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
    use crate::store::Store;
    use std::time::Duration;

    /// A reader on the bundled lists with a private state directory
    /// (dropped with the guard).
    fn app() -> (App, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        (app_in(dir.path()), dir)
    }

    fn app_in(dir: &std::path::Path) -> App {
        let (store, msgs) = Store::open(dir);
        assert!(msgs.is_empty(), "{msgs:?}");
        let mut app = App::new(load::bundled(), store, || {});
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

    /// The bundled papers as two batches, as a streaming load hands them
    /// on.
    fn two_batches() -> (Vec<load::Event>, Vec<String>) {
        let papers = load::bundled().corpus.papers;
        let ids = papers.iter().map(|p| p.id.to_string()).collect();
        let mut dedup = crate::corpus::Dedup::default();
        let (a, b) = papers.split_at(20);
        let events = vec![
            load::Event::Papers(dedup.accept(a.to_vec()), None),
            load::Event::Progress {
                bytes: 500,
                total: Some(1000),
                papers: 20,
            },
            load::Event::Papers(dedup.accept(b.to_vec()), None),
        ];
        (events, ids)
    }

    fn streaming_app(dir: &std::path::Path) -> App {
        let (store, _) = Store::open(dir);
        let mut app = App::loading("streamed".into(), store, true, || {});
        app.apply(Action::Resize(120, 40));
        app
    }

    #[test]
    fn the_progress_figure() {
        let l = |papers, bytes, total| Loading {
            papers,
            bytes,
            total,
        };
        assert_eq!(l(0, 0, Some(100)).describe(), "loading 0");
        assert_eq!(l(340_000, 340, Some(1000)).describe(), "loading 340k/1.0M");
        assert_eq!(l(950, 10, None).describe(), "loading 950");
        assert_eq!(l(12_345, 10, Some(20)).describe(), "loading 12k/24k");
        assert_eq!(short_count(2_700_000), "2.7M");
        assert_eq!(short_count(4_321), "4.3k");
    }

    #[test]
    fn papers_stream_in_while_the_reader_is_in_use() {
        let dir = tempfile::tempdir().unwrap();
        let mut app = streaming_app(dir.path());
        let (events, _) = two_batches();
        let mut events = events.into_iter();
        app.receive(events.next().unwrap());
        app.receive(events.next().unwrap());
        settle(&mut app);
        assert_eq!(app.rows(), 20);
        assert_eq!(
            app.loading.map(|l| l.describe()).as_deref(),
            Some("loading 20/40")
        );
        assert!(ui::status::status_text(&app).ends_with("20 papers so far"));
        // The reader is in use meanwhile: a search over what is in.
        app.apply(Action::StartSearch);
        typed(&mut app, "jailbreak");
        let early = app.rows();
        app.receive(events.next().unwrap());
        settle(&mut app);
        assert!(app.rows() >= early);
        app.finish_loading();
        assert!(app.loading.is_none());
        settle(&mut app);
        let whole = crate::search::rank_papers(&app.corpus.papers, "jailbreak", Scope::Title);
        assert_eq!(app.rows(), whole.len());
        assert_eq!(app.corpus.len(), 38);
        assert_eq!(app.counts.total, 38);
        // The abstract index is built once the load is done.
        let deadline = Instant::now() + Duration::from_secs(10);
        while app.search.indexed().0 < 38 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(app.search.indexed(), (38, 38));
    }

    #[test]
    fn a_streamed_corpus_reopens_where_it_was_left() {
        let dir = tempfile::tempdir().unwrap();
        let (events, ids) = two_batches();
        let mut app = streaming_app(dir.path());
        for e in events {
            app.receive(e);
        }
        app.finish_loading();
        settle(&mut app);
        app.apply(Action::Last);
        app.apply(Action::Up);
        assert_eq!(app.selected_paper(), Some(36));
        app.save_place();
        drop(app);
        // Reopened, doing `between` after the first batch.
        let reopened = |between: &dyn Fn(&mut App)| {
            let (events, _) = two_batches();
            let mut app = streaming_app(dir.path());
            let mut events = events.into_iter();
            app.receive(events.next().unwrap());
            settle(&mut app);
            between(&mut app);
            events.for_each(|e| app.receive(e));
            settle(&mut app);
            app
        };
        // The paper is in the second batch, so the place waits for it;
        // quitting before it arrives keeps the place saved.
        let app = reopened(&|app| app.save_place());
        assert_eq!(app.selected_paper(), Some(36));
        assert_eq!(app.corpus.papers[36].id.to_string(), ids[36]);
        drop(app);
        // Moving before the paper arrives is the user's choice: it stands.
        let app = reopened(&|app| app.apply(Action::Down));
        assert_eq!(app.selected_paper(), Some(1));
    }

    #[test]
    fn a_load_that_finds_no_paper_ends_the_reader_with_why() {
        let dir = tempfile::tempdir().unwrap();
        let mut app = streaming_app(dir.path());
        app.receive(load::Event::Report(Report {
            name: "empty.txt".into(),
            error: Some("empty file".into()),
            ..Report::default()
        }));
        app.finish_loading();
        assert!(app.quit);
        let why = app.failed.as_ref().map(ToString::to_string).unwrap();
        assert!(why.contains("empty.txt: empty file"), "{why}");
    }

    #[test]
    fn a_finished_load_says_what_loaded() {
        let dir = tempfile::tempdir().unwrap();
        let mut app = streaming_app(dir.path());
        let (events, _) = two_batches();
        for e in events {
            app.receive(e);
        }
        app.receive(load::Event::Report(Report {
            name: "a.txt".into(),
            papers: 38,
            ..Report::default()
        }));
        app.finish_loading();
        assert_eq!(app.status.as_deref(), Some("a.txt: 38 papers"));
    }

    #[test]
    fn opens_on_all_bundled_papers_in_order() {
        let (app, _dir) = app();
        assert_eq!(app.rows(), 38);
        assert_eq!(app.selected_paper(), Some(0));
    }

    #[test]
    fn moving_stays_in_range() {
        let (mut app, _dir) = app();
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
        let (mut app, _dir) = app();
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
        let (mut app, _dir) = app();
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
        let (mut app, _dir) = app();
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
        let (mut app, _dir) = app();
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
        let (mut app, _dir) = app();
        app.apply(Action::StartSearch);
        app.apply(Action::ToggleHelp);
        assert_eq!(app.mode, Mode::Help);
        app.apply(Action::ToggleHelp);
        assert_eq!(app.mode, Mode::Search);
    }

    #[test]
    fn clicks_and_wheel() {
        let (mut app, _dir) = app();
        app.apply(Action::SelectRow(5));
        assert_eq!(app.selected, 5);
        app.apply(Action::SelectRow(500));
        assert_eq!(app.selected, 37);
        app.apply(Action::First);
        app.apply(Action::ScrollList(10));
        assert_eq!(app.list_offset, 10.min(38 - app.list_height()));
        assert!(app.selected >= app.list_offset);
    }

    fn title(app: &App) -> String {
        app.corpus.papers[app.selected_paper().unwrap()]
            .title
            .clone()
    }

    #[test]
    fn bookmark_and_read_toggle_and_persist() {
        let (mut app, dir) = app();
        app.apply(Action::Down);
        app.apply(Action::ToggleBookmark);
        app.apply(Action::ToggleRead);
        assert!(app.marks(1).bookmarked && app.marks(1).read);
        assert_eq!(
            app.counts,
            Counts {
                bookmarked: 1,
                read: 1,
                total: 38
            }
        );
        app.apply(Action::ToggleRead);
        assert!(!app.marks(1).read);
        let reopened = app_in(dir.path());
        assert!(reopened.marks(1).bookmarked);
        assert!(!reopened.marks(1).read);
    }

    #[test]
    fn moving_and_scrolling_never_mark_read() {
        let (mut app, _dir) = app();
        for a in [
            Action::Down,
            Action::Down,
            Action::ScrollDown,
            Action::ScrollPageDown,
            Action::Last,
            Action::SelectRow(3),
        ] {
            app.apply(a);
        }
        assert_eq!(app.counts.read, 0);
        assert!(app.store.state().papers.is_empty());
    }

    #[test]
    fn views_filter_and_search_filters_within_them() {
        let (mut app, _dir) = app();
        for row in [0, 1, 5] {
            app.apply(Action::SelectRow(row));
            app.apply(Action::ToggleBookmark);
        }
        app.apply(Action::SelectRow(1));
        app.apply(Action::ToggleRead);
        app.apply(Action::CycleView);
        assert_eq!(app.view, View::Unread);
        assert_eq!(app.rows(), 37);
        app.apply(Action::CycleView);
        assert_eq!(app.view, View::Bookmarked);
        assert_eq!(app.rows(), 3);
        app.apply(Action::StartSearch);
        typed(&mut app, "orchjail");
        assert_eq!(app.rows(), 1, "search within the bookmarked view");
        app.apply(Action::ClearQuery);
        typed(&mut app, "coPro");
        assert_eq!(app.rows(), 0, "CoPro is not bookmarked");
        app.apply(Action::CancelSearch);
        settle(&mut app);
        app.apply(Action::CycleView);
        assert_eq!(app.view, View::All);
        assert_eq!(app.rows(), 38);
    }

    #[test]
    fn a_paper_leaving_the_view_stays_until_the_selection_moves() {
        let (mut app, _dir) = app();
        app.apply(Action::CycleView); // unread
        app.apply(Action::SelectRow(2));
        let t = title(&app);
        app.apply(Action::ToggleRead);
        assert_eq!(app.rows(), 38, "still listed");
        assert_eq!(title(&app), t, "the cursor did not move");
        app.apply(Action::Down);
        assert_eq!(app.rows(), 37, "gone once the selection moved");
        assert_eq!(app.selected, 2, "the next paper is where the cursor was");
    }

    #[test]
    fn mark_all_read_asks_and_undo_restores() {
        let (mut app, _dir) = app();
        app.apply(Action::StartSearch);
        typed(&mut app, "framework");
        let n = app.rows();
        assert!(n > 3 && n < 38, "{n}");
        app.apply(Action::AcceptSearch);
        app.apply(Action::MarkAllRead);
        assert_eq!(app.mode, Mode::Confirm);
        app.apply(Action::ConfirmNo);
        assert_eq!(app.counts.read, 0, "no means no");
        app.apply(Action::MarkAllRead);
        app.apply(Action::ConfirmYes);
        assert_eq!(app.counts.read, n);
        assert_eq!(app.mode, Mode::Browse);
        app.apply(Action::Undo);
        assert_eq!(app.counts.read, 0);
        app.apply(Action::Redo);
        assert_eq!(app.counts.read, n);
    }

    #[test]
    fn undo_and_redo_walk_the_history() {
        let (mut app, dir) = app();
        app.apply(Action::ToggleBookmark); // paper 0
        app.apply(Action::Down);
        app.apply(Action::ToggleRead); // paper 1
        app.apply(Action::ToggleBookmark); // paper 1
        app.apply(Action::Undo);
        assert!(!app.marks(1).bookmarked && app.marks(1).read);
        app.apply(Action::Undo);
        assert!(!app.marks(1).read);
        app.apply(Action::Undo);
        assert!(!app.marks(0).bookmarked);
        app.apply(Action::Undo);
        assert_eq!(app.status.as_deref(), Some("nothing to undo"));
        app.apply(Action::Redo);
        app.apply(Action::Redo);
        assert!(app.marks(0).bookmarked && app.marks(1).read);
        // A new change forgets what could be redone.
        app.apply(Action::SelectRow(7));
        app.apply(Action::ToggleBookmark);
        app.apply(Action::Redo);
        assert_eq!(app.status.as_deref(), Some("nothing to redo"));
        let reopened = app_in(dir.path());
        assert!(
            reopened.marks(0).bookmarked && reopened.marks(1).read && reopened.marks(7).bookmarked
        );
        assert!(!reopened.marks(1).bookmarked);
    }

    #[test]
    fn reopening_returns_to_the_paper_and_view() {
        let (mut app, dir) = app();
        app.apply(Action::SelectRow(12));
        app.apply(Action::CycleView);
        let t = title(&app);
        app.apply(Action::Quit);
        drop(app);
        let mut again = app_in(dir.path());
        settle(&mut again);
        assert_eq!(again.view, View::Unread);
        assert_eq!(title(&again), t);
    }

    #[test]
    fn a_running_reader_picks_up_another_instances_marks() {
        let (mut app, dir) = app();
        let (mut other, _) = Store::open(dir.path());
        let id = app.corpus.papers[4].id.to_string();
        other.set(&[(id.as_str(), Field::Bookmark, true)]).unwrap();
        app.last_refresh = Instant::now() - REFRESH_EVERY;
        assert!(app.tick());
        assert!(app.marks(4).bookmarked);
        assert_eq!(app.counts.bookmarked, 1);
    }

    #[test]
    fn a_read_only_store_refuses_marks_and_says_why() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("state.json"),
            r#"{"version": 9, "papers": {}}"#,
        )
        .unwrap();
        let mut app = app_in_unchecked(dir.path());
        app.apply(Action::ToggleBookmark);
        assert!(!app.marks(0).bookmarked);
        assert!(
            app.status
                .as_deref()
                .unwrap_or("")
                .contains("newer paperboat"),
            "{:?}",
            app.status
        );
    }

    fn app_in_unchecked(dir: &std::path::Path) -> App {
        let (store, _) = Store::open(dir);
        let mut app = App::new(load::bundled(), store, || {});
        app.apply(Action::Resize(120, 40));
        settle(&mut app);
        app
    }

    #[test]
    fn n_and_shift_n_walk_the_matches_in_the_abstract() {
        let (mut app, _dir) = app();
        app.apply(Action::Resize(60, 20));
        app.apply(Action::StartSearch);
        typed(&mut app, "orchjail");
        app.apply(Action::AcceptSearch);
        let lines = ui::detail::for_app(&app, app.selected_paper().unwrap(), 56).match_lines;
        assert!(lines.len() >= 3, "{lines:?}");
        app.apply(Action::NextMatch);
        let first = app.match_line.unwrap();
        app.apply(Action::NextMatch);
        let second = app.match_line.unwrap();
        assert!(second > first);
        assert!(app.detail_scroll <= second && second < app.detail_scroll + 10);
        assert!(app.status.as_deref().unwrap().starts_with("match 2/"));
        app.apply(Action::PrevMatch);
        assert_eq!(app.match_line, Some(first));
        app.apply(Action::PrevMatch);
        assert_eq!(app.match_line, lines.last().copied(), "wraps around");
    }

    #[test]
    fn links_are_chosen_opened_and_copied_through_effects() {
        let (mut app, _dir) = app();
        app.apply(Action::StartSearch);
        typed(&mut app, "CoPro");
        app.apply(Action::AcceptSearch);
        app.apply(Action::OpenLink);
        assert_eq!(
            app.effects.drain(..).collect::<Vec<_>>(),
            vec![Effect::Open(
                "https://anonymous.4open.science/r/CoPro-8A95/README.md".into()
            )]
        );
        app.apply(Action::ChooseLink(2));
        assert_eq!(app.status.as_deref(), Some("this paper has no link 2"));
        app.apply(Action::CopyLink);
        match app.effects.pop() {
            Some(Effect::Copy(text)) => {
                assert!(
                    text.starts_with("CoPro: constrained projection policy optimization\n"),
                    "{text}"
                );
                assert!(text.ends_with("/README.md"));
            }
            other => panic!("{other:?}"),
        }
        // Moving to another paper forgets the chosen link.
        app.apply(Action::ChooseLink(1));
        assert_eq!(app.chosen_link, Some(0));
    }
}
