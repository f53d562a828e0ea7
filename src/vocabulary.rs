//! The words the reader's parts share: what keys do ([`Action`]), the
//! modes keys are read in, the views and panes, a paper's [`Marks`], what the
//! reader asks of the world ([`Effect`]), and every [`Message`] that changes
//! the reader's state.
//!
//! The key table, the config file, the help overlay and the app all speak
//! of these; keeping them here, below all four, lets each of them import the
//! words without importing one another.

use crate::loading as load;
use crate::search::Scope;
use crate::store::State;

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
    /// A yes/no question is asked (mark all read).
    Confirm,
    /// Triage: the unread papers one at a time, a key each.
    Triage,
    /// The picker of saved searches is open.
    Pick,
    /// The overview of the list's topics is open.
    Overview,
    /// A line is typed for the reader: tags to add or remove, a name for
    /// the query.
    Prompt,
}

impl Mode {
    /// The mode's name in the help overlay.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Browse => "Browse",
            Mode::Search => "Search",
            Mode::Help => "Help",
            Mode::Confirm => "Confirm",
            Mode::Prompt => "Tags and names",
            Mode::Triage => "Triage",
            Mode::Pick => "Saved searches",
            Mode::Overview => "Overview",
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

/// Which papers the list shows (the search filters within it).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum View {
    /// Every paper.
    #[default]
    All,
    /// Papers not marked read.
    Unread,
    /// Bookmarked papers.
    Bookmarked,
    /// Papers first seen in this session of the reader (on a first visit,
    /// all).
    New,
    /// Papers with a tag (the reader keeps which).
    Tagged,
}

impl View {
    /// The next view: all → unread → bookmarked → new → (each tag, which
    /// the reader steps through) → all.
    pub fn next(self) -> View {
        match self {
            View::All => View::Unread,
            View::Unread => View::Bookmarked,
            View::Bookmarked => View::New,
            View::New => View::Tagged,
            View::Tagged => View::All,
        }
    }

    /// The name in the search line and the state file (a tag's view is
    /// saved as `tag:` and the tag).
    pub fn name(self) -> &'static str {
        match self {
            View::All => "all",
            View::Unread => "unread",
            View::Bookmarked => "bookmarked",
            View::New => "new",
            View::Tagged => "tag",
        }
    }

    /// The view with this name (not a tag's).
    pub fn from_name(name: &str) -> Option<View> {
        [View::All, View::Unread, View::Bookmarked, View::New]
            .into_iter()
            .find(|v| v.name() == name)
    }

    /// Whether a paper with these marks is in the view, as far as its
    /// marks tell (the new and tag views ask more of the reader).
    pub fn shows(self, marks: Marks) -> bool {
        match self {
            View::All | View::New | View::Tagged => true,
            View::Unread => !marks.read,
            View::Bookmarked => marks.bookmarked,
        }
    }
}

/// A paper's marks.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Marks {
    /// Bookmarked.
    pub bookmarked: bool,
    /// Read.
    pub read: bool,
}

impl Marks {
    /// A paper's marks as the store has them.
    pub fn of(state: &State, id: &str) -> Marks {
        match state.papers.get(id) {
            Some(e) => Marks {
                bookmarked: e.bookmark.is_some_and(|m| m.on),
                read: e.read.is_some_and(|m| m.on),
            },
            None => Marks::default(),
        }
    }
}

/// Paper ids end to end in one buffer: what the first-seen record is
/// handed. A corpus's ids as a `String` each were 2.7M allocations on the
/// UI thread at 2.7M papers, a pause of a fifth of a second. Papers left
/// in the cache hand their ids on unread ([`IdList::of_papers`]): they
/// are put end to end by [`IdList::resolved`], off the UI thread.
#[derive(Clone, Default)]
pub struct IdList {
    text: String,
    /// Where each id ends in `text`.
    ends: Vec<usize>,
    /// Papers whose ids are still to be put in `text`.
    papers: Option<crate::corpus::Papers>,
}

impl IdList {
    /// The ids of `papers`: put end to end now when they are held, later
    /// ([`IdList::resolved`]) when they are left in the cache.
    pub fn of_papers(papers: &crate::corpus::Papers) -> IdList {
        if papers.is_stored() {
            return IdList {
                papers: Some(papers.clone()),
                ..IdList::default()
            };
        }
        papers.iter().map(|p| p.id.as_str()).collect()
    }

    /// The list with every id in its buffer.
    pub fn resolved(mut self) -> IdList {
        if let Some(papers) = self.papers.take() {
            self.ends.reserve_exact(papers.len());
            papers.each_id(|_, id| self.push(id));
        }
        self
    }

    /// How many ids there are.
    pub fn len(&self) -> usize {
        self.papers.as_ref().map_or(self.ends.len(), |p| p.len())
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Adds an id at the end.
    pub fn push(&mut self, id: &str) {
        if let Some(papers) = self.papers.take() {
            let list = IdList {
                papers: Some(papers),
                ..IdList::default()
            };
            *self = list.resolved();
        }
        self.text.push_str(id);
        self.ends.push(self.text.len());
    }

    /// The ids, in order (none of papers still to be put in the buffer:
    /// see [`IdList::resolved`]).
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts.zip(&self.ends).map(|(a, &b)| &self.text[a..b])
    }
}

impl PartialEq for IdList {
    fn eq(&self, other: &IdList) -> bool {
        let (a, b) = (self.clone().resolved(), other.clone().resolved());
        a.text == b.text && a.ends == b.ends
    }
}

impl Eq for IdList {}

impl std::fmt::Debug for IdList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.clone().resolved().iter())
            .finish()
    }
}

impl<'a> FromIterator<&'a str> for IdList {
    fn from_iter<I: IntoIterator<Item = &'a str>>(ids: I) -> IdList {
        let mut all = IdList::default();
        for id in ids {
            all.push(id);
        }
        all
    }
}

/// Something the reader asks the outside world to do; the event loop does
/// it after the action (so that the app stays free of I/O and testable).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Effect {
    /// Open a link with the platform's opener.
    Open(String),
    /// Put text on the clipboard (OSC 52).
    Copy(String),
    /// Stop the process until the shell resumes it.
    Suspend,
    /// Hand the terminal to the user's editor on a paper's note, then take
    /// it back; the text comes back as [`Message::NoteEdited`].
    EditNote {
        /// The paper's id.
        id: String,
        /// The note as it is (empty for none).
        text: String,
    },
    /// Record, off the UI thread and through a store of its own on the
    /// state directory `dir`, that papers `ids` were first seen `now` (for
    /// those never seen); which are new comes back as
    /// [`Message::SeenRecorded`], in the same order.
    RecordSeen {
        dir: std::path::PathBuf,
        ids: IdList,
        now: crate::store::Stamp,
    },
    /// The word index is complete and did not come from the cache: store
    /// it there (off the UI thread), so that the next open of the same
    /// file has it at once.
    StoreIndex(crate::search::IndexHandle),
    /// Draw the screen again: it changed without input (a ranking came,
    /// another instance saved marks, a failed save went through).
    Redraw,
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
    /// Bookmark the selected paper, or remove its bookmark.
    ToggleBookmark,
    /// Mark the selected paper read, or unread.
    ToggleRead,
    /// Put the paper in the selection or take it out (marks and tags then
    /// act on the selection).
    TogglePick,
    /// Put every listed paper in the selection.
    PickListed,
    /// Empty the selection.
    ClearPicks,
    /// Write the paper's note in $VISUAL or $EDITOR (else vi).
    EditNote,
    /// Triage the unread papers of the list one at a time (resumes).
    Triage,
    /// In triage: bookmark the paper, mark it read, go on.
    Keep,
    /// In triage: mark the paper read, go on.
    Skip,
    /// In triage: leave the paper unread for later, go on.
    Later,
    /// Sort by file order, match score (while searching), year, first
    /// author, first seen.
    CycleSort,
    /// Open the picker of saved searches to recall one.
    RecallSearch,
    /// In the picker: remove the saved search.
    RemoveSaved,
    /// Name the query and save it (a line editor).
    SaveSearch,
    /// Write the selection (else the bookmarked papers) as a Markdown
    /// reading list, with tags and notes, to a file in the current
    /// directory.
    ExportList,
    /// Add or remove tags on the paper or the selection (a line editor).
    EditTags,
    /// Apply the line typed.
    AcceptLine,
    /// Leave the line editor without applying.
    CancelLine,
    /// Complete the word at the cursor from the known tags.
    Complete,
    /// Show all papers, the unread, the bookmarked, the new, or a tag's.
    CycleView,
    /// Mark every paper listed read (asks first).
    MarkAllRead,
    /// Forget what the "for you" order learned, keeping every mark (asks
    /// first).
    ForgetForYou,
    /// Give the list more of the screen (the abstract less).
    WidenList,
    /// Give the list less of the screen (the abstract more).
    NarrowList,
    /// List the papers most like the selected one ("more like this").
    Related,
    /// The overview: the listed papers' topics as bars.
    Overview,
    /// Go back to the list shown before the last `Related`.
    Back,
    /// Undo the last change of marks.
    Undo,
    /// Redo what was undone.
    Redo,
    /// Answer yes to the question asked.
    ConfirmYes,
    /// Answer no to the question asked.
    ConfirmNo,
    /// Scroll the abstract to the next match of the query.
    NextMatch,
    /// Scroll the abstract to the previous match of the query.
    PrevMatch,
    /// Choose link 1–9 of the paper (for `o`).
    ChooseLink(u8),
    /// Open the chosen link (the first when none was chosen), when it is
    /// a web link (a DOI or arXiv id as its page).
    OpenLink,
    /// Copy the title and the chosen (else first) link to the clipboard.
    CopyLink,
    /// Suspend the reader (the shell's `fg` resumes it).
    Suspend,
    /// Select the paper at a row of the list (a click).
    SelectRow(usize),
    /// Scroll the list by rows (the mouse wheel).
    ScrollList(i32),
    /// Scroll the abstract by lines (the mouse wheel).
    ScrollDetail(i32),
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
            Action::ClearQuery => "Clear the line",
            Action::CursorLeft => "Cursor left",
            Action::CursorRight => "Cursor right",
            Action::CursorHome => "Cursor to start",
            Action::CursorEnd => "Cursor to end",
            Action::AcceptSearch => "Keep the filter, back to the list",
            Action::CancelSearch => "Clear the query, back to the list",
            Action::ToggleBookmark => "Bookmark / remove the bookmark (or the selection's)",
            Action::ToggleRead => "Mark read / unread (or the selection)",
            Action::TogglePick => "Select / unselect the paper (marks act on the selection)",
            Action::PickListed => "Select every listed paper",
            Action::ClearPicks => "Clear the selection",
            Action::EditNote => "Note: write the paper's note in $VISUAL/$EDITOR (else vi)",
            Action::Triage => "Triage the unread papers listed, one at a time (resumes)",
            Action::Keep => "Keep: bookmark and mark read, next",
            Action::Skip => "Skip: mark read, next",
            Action::Later => "Later: leave unread, next",
            Action::CycleSort => {
                "Sort: file → score (searching) → year → author → first seen → for you"
            }
            Action::RecallSearch => "Saved searches: pick one to recall",
            Action::RemoveSaved => "Remove the saved search",
            Action::SaveSearch => "Save the query under a name",
            Action::ExportList => "Export the selection (else the bookmarked) as Markdown",
            Action::EditTags => "Tags: +add -remove, a bare name toggles (on the selection too)",
            Action::AcceptLine => "Apply",
            Action::CancelLine => "Cancel",
            Action::Complete => "Complete the tag",
            Action::CycleView => "View: all → unread → bookmarked → new → each tag",
            Action::MarkAllRead => "Mark every listed paper read (asks first)",
            Action::ForgetForYou => "Forget what \"for you\" learned; marks stay (asks first)",
            Action::WidenList => "Widen the list (the abstract narrows)",
            Action::NarrowList => "Narrow the list (the abstract widens)",
            Action::Related => "More like this: the papers most like the selected one",
            Action::Overview => "Overview: the listed papers' topics; Enter lists one",
            Action::Back => "Back to the list before \"more like this\"",
            Action::Undo => "Undo the last change of marks",
            Action::Redo => "Redo",
            Action::ConfirmYes => "Yes",
            Action::ConfirmNo => "No",
            Action::NextMatch => "Next match in the abstract",
            Action::PrevMatch => "Previous match in the abstract",
            Action::ChooseLink(_) => "Choose link 1–9",
            Action::OpenLink => "Open the chosen (or first) link",
            Action::CopyLink => "Copy title and chosen link (OSC 52)",
            Action::Suspend => "Suspend (fg resumes)",
            Action::SelectRow(_) => "Select a row",
            Action::ScrollList(_) => "Scroll the list",
            Action::ScrollDetail(_) => "Scroll the abstract",
        }
    }
}

/// Everything that changes the reader's state. The app takes them one at a
/// time in its `update`; nothing else changes the state.
pub enum Message {
    /// The user asked for something (a key or a click, read as an action).
    Action(Action),
    /// A frame is due: take in the matcher's newest ranking, and look at
    /// the store or retry a failed save when their time has come.
    Tick,
    /// The terminal has a new size (columns, rows).
    Resize(u16, u16),
    /// The first frame is on screen (what waits for it can start).
    FrameShown,
    /// How many lines the help overlay has at the current width (it
    /// scrolls no further than its end).
    HelpLines(usize),
    /// What a streaming load says as it goes: papers, progress, a report.
    Load(load::Event),
    /// The streaming load is done.
    Loaded,
    /// Another instance may have saved marks: read the store again.
    StoreChanged,
    /// A save failed earlier: try it again.
    RetrySave,
    /// The user's settings: the search scope to start with, and the view
    /// for a corpus that has none remembered.
    Configured {
        /// The search scope.
        scope: Scope,
        /// The view.
        view: View,
        /// The list's share of the middle of the screen, in percent.
        list: u8,
    },
    /// The order names are shown in (`[reader] names`).
    Names(crate::corpus::NameOrder),
    /// What went wrong before the reader started (a broken config or
    /// state file), to say in the status line.
    Problems(Vec<String>),
    /// The opener was started for a link, or could not be.
    Opened {
        /// The link.
        url: String,
        /// Why it could not be opened.
        result: Result<(), String>,
    },
    /// First-seen times are recorded ([`Effect::RecordSeen`]): for each
    /// paper, whether it is new in this session; or why they could not be.
    SeenRecorded(Result<Vec<bool>, String>),
    /// The editor opened on a note is closed: the bytes it left (text,
    /// unless the editor wrote something else), or why there are none.
    NoteEdited {
        /// The paper's id.
        id: String,
        /// The bytes, or what went wrong.
        result: Result<Vec<u8>, String>,
    },
    /// The title and link were put on the clipboard, or could not be.
    Copied(Result<(), String>),
    /// The reader is being stopped or suspended from outside (a signal):
    /// remember where the corpus was left, and save.
    Stopping,
}

#[cfg(test)]
mod tests {
    use super::IdList;

    #[test]
    fn an_id_list_gives_back_the_ids_it_was_made_of_in_order() {
        let ids = [
            "arxiv:2401.00001",
            "doi:10.1/x",
            "",
            "0123456789abcdef",
            "é",
        ];
        let list: IdList = ids.iter().copied().collect();
        assert_eq!(list.len(), ids.len());
        assert_eq!(list.iter().collect::<Vec<_>>(), ids);
        let none: IdList = std::iter::empty().collect();
        assert!(none.is_empty());
        assert_eq!(none.iter().count(), 0);
    }
}
