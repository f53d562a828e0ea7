//! The reader's state and the one place it changes.
//!
//! Everything that changes the state arrives as a [`Message`] (a key read
//! as an [`Action`], a tick, a load's progress, a resize, an effect's
//! outcome); [`App::update`] is the only way in, and the fields are
//! private. Drawing reads the state through accessors and never changes
//! it, so the whole reader can be driven and checked without a terminal.
//! The app knows nothing of the key table, the theme or the config file:
//! the layers above read keys into actions and draw.

pub mod detail;
mod export;
mod foryou;
mod index;
mod input;
pub mod layout;
mod loading;
mod marks;
mod notes;
mod overview;
mod picks;
mod prompt;
mod related;
mod rows;
mod saved;
mod tags;
#[cfg(test)]
mod testing;
mod triage;
mod views;

use std::time::{Duration, Instant};

pub use input::LineInput;
pub use loading::{Loading, short_count};
pub use marks::Counts;
pub use prompt::Prompt;
pub use related::RELATED_LIMIT;
pub use saved::Saved;
pub use triage::Progress;
pub use views::record_seen_in;

use crate::corpus::Corpus;
use crate::loading::{LoadError, Loaded, Report};
use crate::search::{Scope, Search};
use crate::store::{Flag, Store};
use crate::vocabulary::{Action, Effect, Focus, Marks, Message, Mode, View};
use loading::Restore;
use marks::Change;

/// How often a running reader looks for marks saved by another instance.
const REFRESH_EVERY: Duration = Duration::from_secs(1);
/// How often a failed save is tried again.
const RETRY_EVERY: Duration = Duration::from_secs(2);

/// The reader's whole state.
pub struct App {
    /// The papers.
    corpus: Corpus,
    /// What each input gave, for the status line.
    reports: Vec<Report>,
    /// Names the inputs; keys where this corpus was left in the store.
    corpus_key: String,
    /// The matcher.
    search: Search,
    /// Bookmarks and read state.
    store: Store,
    /// The current mode.
    mode: Mode,
    /// The mode the help overlay returns to.
    help_return: Mode,
    /// The pane movement acts on.
    focus: Focus,
    /// The view.
    view: View,
    /// The query being edited.
    input: LineInput,
    /// Selected row of the list.
    selected: usize,
    /// First row of the list on screen.
    list_offset: usize,
    /// First line of the abstract on screen.
    detail_scroll: usize,
    /// First row of the help overlay on screen.
    help_scroll: usize,
    /// Lines of the help overlay at the current width.
    help_lines: usize,
    /// Terminal size (columns, rows).
    size: (u16, u16),
    /// A message for the status line, until the next key.
    status: Option<String>,
    /// A save that failed and is being retried.
    save_error: Option<String>,
    /// The question being asked in [`Mode::Confirm`], and what a yes does.
    question: Option<(String, Ask)>,
    /// Set when the reader should exit.
    quit: bool,
    /// The link chosen with a digit key, for `o`.
    chosen_link: Option<usize>,
    /// The abstract line of the match `n`/`N` went to last.
    match_line: Option<usize>,
    /// What the event loop is to do once the message is taken in.
    effects: Vec<Effect>,
    /// Paper counts by mark.
    counts: Counts,
    /// Marks by paper index.
    marks: Vec<Marks>,
    /// The picker's chosen row.
    picker: Option<usize>,
    /// The walk triage is on (kept when triage is left, to resume).
    walk: Option<triage::Walk>,
    /// The mode the line editor returns to.
    prompt_return: Mode,
    /// The order of the list.
    sort: crate::order::SortKey,
    /// What the line editor is for, while it is open.
    prompt: Option<Prompt>,
    /// The line typed in the line editor.
    line: LineInput,
    /// The tag whose papers [`View::Tagged`] shows.
    view_tag: Option<String>,
    /// By paper index: first seen in this session ([`View::New`]).
    fresh: Vec<bool>,
    /// Whether a frame has been shown (first-seen times wait for it).
    shown: bool,
    /// When this session recorded the papers it first saw.
    seen_at: Option<crate::store::Stamp>,
    /// The papers picked for marks and tags to act on together.
    picked: std::collections::BTreeSet<usize>,
    /// The rows when a view or a kept paper filters the ranking.
    filtered: Option<Vec<u32>>,
    /// The related lists shown over the list ("more like this"), the
    /// one shown last.
    related: Vec<related::Level>,
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
    loading: Option<Loading>,
    /// Why the reader ended before it could show a paper: nothing loaded.
    failed: Option<LoadError>,
    /// Whether the reports are said in the status line once loading ends.
    announce_reports: bool,
    /// Tags or notes changed since the matcher was last given them.
    labels_dirty: bool,
    /// The list waits to be sorted until every paper is read (papers
    /// left in the cache, being decoded): see [`App::rebuild_rows`].
    sort_pending: bool,
    /// The word index came from the cache, or was handed on to be stored.
    index_stored: bool,
    /// Papers came without what the word index reads of them, a stored
    /// index being expected (see [`crate::search::Prepared::titles`]).
    /// The order names are shown in.
    names: crate::corpus::NameOrder,
    index_left: bool,
    /// The list's share of the middle of the screen, in percent.
    list_share: u8,
    /// The reader's model, once the "for you" order was asked for.
    for_you: Option<foryou::ForYou>,
    /// The overview of the list's topics, while open.
    overview: Option<overview::Overview>,
    /// Each paper's topic in the whole list, once `topic:` asked.
    topic_numbers: Option<Vec<u32>>,
    /// The whole list's grouping under way, for `topic:`.
    topic_job: Option<std::sync::mpsc::Receiver<Vec<u32>>>,
}

/// What a yes to the question in [`Mode::Confirm`] does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ask {
    MarkAllRead,
    ForgetForYou,
}

impl App {
    /// A reader over a loaded corpus with its store. `notify` is called from
    /// the search worker when a ranking is ready (to wake the event loop).
    pub fn new(loaded: Loaded, store: Store, notify: impl Fn() + Send + Sync + 'static) -> App {
        let mut search = Search::new(notify);
        search.extend(&loaded.corpus.papers);
        let mut app = App {
            marks: vec![Marks::default(); loaded.corpus.len()],
            corpus: loaded.corpus,
            reports: loaded.reports,
            corpus_key: loaded.key,
            search,
            store,
            mode: Mode::Browse,
            help_return: Mode::Browse,
            focus: Focus::List,
            view: View::All,
            input: LineInput::default(),
            selected: 0,
            list_offset: 0,
            detail_scroll: 0,
            help_scroll: 0,
            help_lines: 0,
            size: (80, 24),
            status: None,
            save_error: None,
            question: None,
            quit: false,
            chosen_link: None,
            match_line: None,
            effects: Vec::new(),
            counts: Counts::default(),
            picked: Default::default(),
            sort: crate::order::SortKey::Score,
            walk: None,
            picker: None,
            prompt_return: Mode::Browse,
            prompt: None,
            line: LineInput::default(),
            view_tag: None,
            fresh: Vec::new(),
            shown: false,
            seen_at: None,
            filtered: None,
            related: Vec::new(),
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
            labels_dirty: true,
            sort_pending: false,
            index_stored: false,
            names: crate::corpus::NameOrder::default(),
            index_left: false,
            list_share: layout::LIST_SHARE,
            for_you: None,
            overview: None,
            topic_numbers: None,
            topic_job: None,
        };
        // Before the place is read: it may name a paper by its old id.
        app.adopt_former_ids(0);
        if let Some(place) = app.store.place(&app.corpus_key).cloned() {
            app.set_view_named(place.view.as_deref().unwrap_or_default());
            app.restore = place.selected.map(|id| Restore { id, at: None });
        }
        app.find_restore(0);
        app.reload_marks();
        app
    }

    /// The papers.
    pub fn corpus(&self) -> &Corpus {
        &self.corpus
    }

    /// What each input gave, for the status line.
    pub fn reports(&self) -> &[Report] {
        &self.reports
    }

    /// The matcher.
    pub fn search(&self) -> &Search {
        &self.search
    }

    /// Bookmarks and read state.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The current mode.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The mode the help overlay returns to.
    pub fn help_return(&self) -> Mode {
        self.help_return
    }

    /// The pane movement acts on.
    pub fn focus(&self) -> Focus {
        self.focus
    }

    /// The view.
    pub fn view(&self) -> View {
        self.view
    }

    /// The query being edited.
    pub fn input(&self) -> &LineInput {
        &self.input
    }

    /// Selected row of the list.
    pub fn selected(&self) -> usize {
        self.selected
    }

    /// First row of the list on screen.
    pub fn list_offset(&self) -> usize {
        self.list_offset
    }

    /// First line of the abstract on screen.
    pub fn detail_scroll(&self) -> usize {
        self.detail_scroll
    }

    /// First row of the help overlay on screen.
    pub fn help_scroll(&self) -> usize {
        self.help_scroll
    }

    /// Terminal size (columns, rows).
    pub fn size(&self) -> (u16, u16) {
        self.size
    }

    /// A message for the status line, until the next key.
    pub fn status(&self) -> Option<&str> {
        self.status.as_deref()
    }

    /// A save that failed and is being retried.
    pub fn save_error(&self) -> Option<&str> {
        self.save_error.as_deref()
    }

    /// The question being asked in [`Mode::Confirm`].
    pub fn question(&self) -> Option<&str> {
        self.question.as_ref().map(|q| q.0.as_str())
    }

    /// Whether the reader should exit.
    pub fn quitting(&self) -> bool {
        self.quit
    }

    /// The link chosen with a digit key, for `o`.
    pub fn chosen_link(&self) -> Option<usize> {
        self.chosen_link
    }

    /// The abstract line of the match `n`/`N` went to last.
    pub fn match_line(&self) -> Option<usize> {
        self.match_line
    }

    /// Paper counts by mark.
    pub fn counts(&self) -> Counts {
        self.counts
    }

    /// While the corpus streams in: how far loading has got.
    pub fn progress(&self) -> Option<Loading> {
        self.loading
    }

    /// Why the reader ended before it could show a paper: nothing loaded.
    pub fn failed(&self) -> Option<&LoadError> {
        self.failed.as_ref()
    }

    /// The reader, ended: why it could not show a paper, if it could not.
    pub fn into_failure(mut self) -> Option<LoadError> {
        self.take_failure()
    }

    /// Why the reader could not show a paper, if it could not (taken).
    pub fn take_failure(&mut self) -> Option<LoadError> {
        self.failed.take()
    }

    /// Takes in one message: the only way the reader's state changes.
    /// Returns what the event loop is to do now (open a link, copy, stop,
    /// draw again after a change it did not ask for).
    pub fn update(&mut self, message: Message) -> Vec<Effect> {
        match message {
            Message::Action(action) => self.act(action),
            Message::Tick => self.tick(),
            Message::Resize(w, h) => {
                self.size = (w, h);
                self.clamp();
            }
            Message::HelpLines(n) => {
                self.help_lines = n;
                self.scroll_help(0);
            }
            Message::Load(event) => self.receive(event),
            Message::Loaded => {
                self.finish_loading();
                self.record_seen();
            }
            Message::FrameShown => self.frame_shown(),
            Message::StoreChanged => self.store_changed(),
            Message::RetrySave => self.retry_save(),
            Message::Configured { scope, view, list } => {
                self.list_share = list;
                self.configure(scope, view);
            }
            Message::Names(order) => self.names = order,
            Message::Problems(problems) => {
                if !problems.is_empty() {
                    self.status = Some(problems.join(" · "));
                }
            }
            Message::Opened { url, result } => {
                self.status = Some(match result {
                    Ok(()) => format!("opening {url}"),
                    Err(e) => format!("could not open {url}: {e}"),
                });
            }
            Message::NoteEdited { id, result } => self.note_edited(&id, result),
            Message::SeenRecorded(result) => self.seen_recorded(result),
            Message::Copied(result) => {
                self.status = Some(match result {
                    Ok(()) => "copied the title and link (OSC 52)".to_string(),
                    Err(e) => format!("could not copy: {e}"),
                });
            }
            Message::Stopping => self.save_place(),
        }
        std::mem::take(&mut self.effects)
    }

    /// Takes in one action: `update(Message::Action(action))`.
    pub fn apply(&mut self, action: Action) -> Vec<Effect> {
        self.update(Message::Action(action))
    }

    /// How far a movement key scrolls the help overlay.
    fn help_move(&self, action: &Action) -> Option<isize> {
        // A page: the box's inner rows, less one kept in view.
        let page = self.size.1.saturating_sub(3).max(1) as isize;
        Some(match action {
            Action::Down => 1,
            Action::Up => -1,
            Action::PageDown | Action::ScrollPageDown => page,
            Action::PageUp => -page,
            Action::First => isize::MIN / 2,
            Action::Last => isize::MAX / 2,
            _ => return None,
        })
    }

    /// Scrolls the help overlay by `delta` lines, within its lines.
    fn scroll_help(&mut self, delta: isize) {
        let max = layout::help_max_scroll(self.help_lines, self.size.1) as isize;
        self.help_scroll = (self.help_scroll as isize)
            .saturating_add(delta)
            .clamp(0, max) as usize;
    }

    /// Asks the event loop to draw again: the screen changed without input.
    fn redraw(&mut self) {
        if !self.effects.contains(&Effect::Redraw) {
            self.effects.push(Effect::Redraw);
        }
    }

    /// A frame is due: reads the store again and retries a failed save
    /// when their time has come, and takes in a new ranking.
    fn tick(&mut self) {
        if self.last_refresh.elapsed() >= REFRESH_EVERY {
            self.store_changed();
        }
        if self.store.dirty() && self.last_retry.elapsed() >= RETRY_EVERY {
            self.retry_save();
        }
        self.sync_labels();
        self.offer_index();
        if self.sort_pending && self.corpus.papers.is_ready() {
            let keep = self.selected_paper();
            self.rebuild_rows(keep);
            self.status = Some(format!("sorted by {}", self.sort.name()));
            self.redraw();
        }
        if self.take_ranking() | self.take_model() | self.take_topics() | self.take_topic_numbers()
        {
            self.redraw();
        }
    }

    /// Applies the user's settings: the starting scope, and the view for a
    /// corpus that has none remembered.
    fn configure(&mut self, scope: Scope, view: View) {
        if scope != self.search.scope() {
            let q = self.input.text().to_string();
            self.search.set_query(&q, scope);
        }
        if self.store.place(&self.corpus_key).is_none() && view != self.view {
            self.view = view;
            let keep = self.selected_paper();
            self.rebuild_rows(keep);
        }
    }

    /// Carries out one action.
    fn act(&mut self, action: Action) {
        if !matches!(
            action,
            Action::ScrollList(_) | Action::ScrollDetail(_) | Action::Complete
        ) {
            self.status = None;
        }
        if self.mode == Mode::Prompt {
            self.prompt_act(action);
            return;
        }
        if self.mode == Mode::Pick {
            self.picker_act(action);
            return;
        }
        if self.mode == Mode::Overview {
            self.overview_act(action);
            return;
        }
        let page = self.list_height().max(1) as isize;
        let detail_page = self.detail_height().max(1) as isize;
        let on_detail = self.focus == Focus::Detail && self.mode == Mode::Browse;
        if matches!(
            action,
            Action::StartSearch | Action::ToggleScope | Action::CycleView
        ) {
            // They change the list under the related lists: back to it.
            self.leave_related();
        }
        match action {
            Action::Quit => {
                self.save_place();
                self.quit = true;
            }
            _ if self.mode == Mode::Help && self.help_move(&action).is_some() => {
                let d = self.help_move(&action).unwrap_or(0);
                self.scroll_help(d);
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
                self.input.set_cursor(self.input.text().len());
            }
            Action::ToggleScope => {
                let scope = self.search.scope().toggled();
                self.send_query(scope);
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
            Action::ToggleBookmark => self.toggle_mark(Flag::Bookmark),
            Action::ToggleRead => self.toggle_mark(Flag::Read),
            Action::TogglePick => self.toggle_pick(),
            Action::PickListed => self.pick_listed(),
            Action::WidenList => self.widen_list(5),
            Action::NarrowList => self.widen_list(-5),
            Action::ClearPicks => self.clear_picks(),
            Action::CycleView => self.cycle_view(),
            Action::EditTags => self.edit_tags(),
            Action::SaveSearch => self.name_search(),
            Action::ExportList => self.export_list(),
            Action::RecallSearch => self.open_picker(),
            Action::RemoveSaved => {}
            Action::CycleSort => self.cycle_sort(),
            Action::Triage => self.start_triage(),
            Action::EditNote => self.edit_note(),
            Action::Keep => self.decide(triage::Decision::Keep),
            Action::Skip => self.decide(triage::Decision::Skip),
            Action::Later => self.decide(triage::Decision::Later),
            // Only the line editor takes these.
            Action::AcceptLine | Action::CancelLine | Action::Complete => {}
            Action::MarkAllRead => {
                let unread = self
                    .counted_papers()
                    .into_iter()
                    .filter(|&i| !self.marks[i].read)
                    .count();
                if let Some(why) = self.none_counted("R") {
                    self.status = Some(why);
                } else if unread == 0 {
                    self.status = Some("every paper listed is read already".to_string());
                } else {
                    self.question = Some((
                        format!(
                            "Mark {unread} paper{} read? (y/n)",
                            if unread == 1 { "" } else { "s" }
                        ),
                        Ask::MarkAllRead,
                    ));
                    self.mode = Mode::Confirm;
                }
            }
            Action::ForgetForYou => {
                self.question = Some((
                    "Forget what \"for you\" learned? Marks stay. (y/n)".to_string(),
                    Ask::ForgetForYou,
                ));
                self.mode = Mode::Confirm;
            }
            Action::ConfirmYes => {
                let ask = self.question.take().map(|q| q.1);
                if ask == Some(Ask::ForgetForYou) {
                    self.status = Some(self.forget_for_you());
                } else if ask == Some(Ask::MarkAllRead) {
                    let marks: Vec<(usize, Flag, bool)> = self
                        .counted_papers()
                        .into_iter()
                        .map(|i| (i, Flag::Read, true))
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
                // Only a web address reaches the opener (a DOI or an arXiv
                // id as its page); any other link is shown, to be copied.
                match links.get(self.chosen_link.unwrap_or(0)) {
                    Some(link) => match crate::text::links::openable(link) {
                        Some(url) => self.effects.push(Effect::Open(url)),
                        None => {
                            self.status = Some(format!(
                                "not opened: {link} is not a web link (y copies it)"
                            ))
                        }
                    },
                    None => self.status = Some("this paper has no links".to_string()),
                }
            }
            Action::CopyLink => {
                if let Some(i) = self.selected_paper() {
                    let title = crate::text::markup::plain(&self.corpus.papers[i].title);
                    let links = self.rendered().map(|r| r.links).unwrap_or_default();
                    let text = match links.get(self.chosen_link.unwrap_or(0)) {
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
            Action::Related => self.show_related(),
            Action::Overview => self.open_overview(),
            Action::Back if self.mode == Mode::Triage => self.leave_triage(),
            Action::Back => {
                self.back();
            }
            Action::Undo if self.mode == Mode::Triage => self.undo_decision(),
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
            Action::CursorLeft => self.input.set_cursor(self.input.prev_boundary()),
            Action::CursorRight => self.input.set_cursor(self.input.next_boundary()),
            Action::CursorHome => self.input.set_cursor(0),
            Action::CursorEnd => self.input.set_cursor(self.input.text().len()),
            Action::AcceptSearch => {
                // The query is finished: its last word is a word now.
                self.mode = Mode::Browse;
                self.query_changed();
            }
            Action::CancelSearch => {
                self.input.clear();
                self.mode = Mode::Browse;
                self.query_changed();
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
        }
    }
}

#[cfg(test)]
mod tests {
    use super::testing::*;
    use crate::search::Scope;
    use crate::vocabulary::{Action, Message, Mode};

    #[test]
    fn scope_toggle_searches_abstracts() {
        let (mut app, _dir) = app();
        app.apply(Action::StartSearch);
        typed(&mut app, "Qwen3");
        let title_hits = app.rows();
        app.apply(Action::ToggleScope);
        settle(&mut app);
        assert!(app.rows() > title_hits, "{} vs {}", app.rows(), title_hits);
        assert_eq!(app.search().scope(), Scope::All);
    }

    #[test]
    fn help_scrolls_within_its_lines() {
        let (mut app, _dir) = app();
        app.update(Message::Resize(60, 20));
        app.apply(Action::ToggleHelp);
        app.update(Message::HelpLines(100));
        app.apply(Action::Down);
        app.apply(Action::Down);
        assert_eq!(app.help_scroll(), 2);
        app.apply(Action::PageDown);
        assert_eq!(app.help_scroll(), 19, "a page is the box less a line");
        app.apply(Action::Last);
        assert_eq!(app.help_scroll(), 82, "100 lines, 18 in the box");
        app.apply(Action::Down);
        assert_eq!(app.help_scroll(), 82, "never past the end");
        app.apply(Action::Up);
        assert_eq!(app.help_scroll(), 81, "up from the end moves at once");
        app.apply(Action::First);
        assert_eq!(app.help_scroll(), 0);
        app.apply(Action::PageUp);
        assert_eq!(app.help_scroll(), 0);
        // A wider screen with fewer lines: the scroll comes back in range.
        app.apply(Action::Last);
        app.update(Message::HelpLines(30));
        assert_eq!(app.help_scroll(), 12);
    }

    #[test]
    fn help_opens_and_returns_to_the_mode() {
        let (mut app, _dir) = app();
        app.apply(Action::StartSearch);
        app.apply(Action::ToggleHelp);
        assert_eq!(app.mode(), Mode::Help);
        app.apply(Action::ToggleHelp);
        assert_eq!(app.mode(), Mode::Search);
    }
}
