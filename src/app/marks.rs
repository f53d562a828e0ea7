//! A paper's marks as the reader keeps them: set in the store and on
//! screen together, counted for the search line, undone and redone, and
//! read again when another instance saves.

use std::time::Instant;

use super::App;
use crate::store::{Edit, Flag, StoreError};
use crate::vocabulary::Marks;

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

/// One undoable change: each mark's value before and after, or the store
/// edits (tags, notes, saved searches) that take it back.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(super) struct Change {
    marks: Vec<(usize, Flag, bool, bool)>,
    edits: Vec<Edit>,
}

impl Change {
    /// A change of tags, notes or saved searches: the edits that undo it.
    pub(super) fn edits(edits: Vec<Edit>) -> Change {
        Change {
            marks: Vec::new(),
            edits,
        }
    }
}

impl App {
    /// The marks of paper `idx`.
    pub fn marks(&self, idx: usize) -> Marks {
        self.marks.get(idx).copied().unwrap_or_default()
    }

    /// Reads every paper's marks from the store.
    pub(super) fn reload_marks(&mut self) {
        let state = self.store.state();
        let marks = &mut self.marks;
        self.corpus
            .papers
            .each_id(|i, id| marks[i] = Marks::of(state, id));
        self.count();
    }

    pub(super) fn count(&mut self) {
        self.counts = Counts {
            bookmarked: self.marks.iter().filter(|m| m.bookmarked).count(),
            read: self.marks.iter().filter(|m| m.read).count(),
            total: self.marks.len(),
        };
    }

    /// Reads the store again, in case another instance saved marks.
    pub(super) fn store_changed(&mut self) {
        self.last_refresh = Instant::now();
        if self.store.refresh() {
            self.labels_dirty = true;
            let keep = self.selected_paper();
            self.reload_marks();
            self.marks_changed();
            self.rebuild_rows(keep);
            self.redraw();
        }
    }

    /// Marks saved under the old id of a paper among papers `from..` whose
    /// id changed follow it to the new one.
    pub(super) fn adopt_former_ids(&mut self, from: usize) {
        let moves = crate::corpus::former_ids(&self.corpus.papers[from..]);
        if moves.is_empty() {
            return;
        }
        let pairs: Vec<(&str, &str)> = moves
            .iter()
            .map(|(old, new)| (old.as_str(), new.as_str()))
            .collect();
        let result = self.store.adopt(&pairs);
        self.saved(result);
        // The paper to select again may have been left under its old id.
        if let Some(r) = &mut self.restore
            && let Some((_, new)) = moves.iter().find(|(old, _)| old.as_str() == r.id)
        {
            r.id = new.to_string();
        }
    }

    /// Tries a failed save again.
    pub(super) fn retry_save(&mut self) {
        if self.store.dirty() {
            self.last_retry = Instant::now();
            let result = self.store.retry();
            self.saved(result);
            self.redraw();
        }
    }

    /// Notes the outcome of a save in the status line.
    pub(super) fn saved(&mut self, result: Result<(), StoreError>) {
        match result {
            Ok(()) => {
                if self.save_error.take().is_some() {
                    self.status = Some("saved".to_string());
                }
            }
            Err(e @ StoreError::ReadOnly(_)) => self.status = Some(e.to_string()),
            Err(e) => {
                self.last_retry = Instant::now();
                self.save_error = Some(format!("could not save marks: {e} (retrying)"));
            }
        }
    }

    /// Sets marks in the store and on screen; returns whether they took.
    pub(super) fn set_marks(&mut self, marks: &[(usize, Flag, bool)]) -> bool {
        let changes: Vec<(&str, Flag, bool)> = marks
            .iter()
            .map(|&(i, f, on)| (self.corpus.papers[i].id.as_str(), f, on))
            .collect();
        let result = self.store.set(&changes);
        if matches!(result, Err(StoreError::ReadOnly(_))) {
            self.saved(result);
            return false;
        }
        self.saved(result);
        for &(i, field, on) in marks {
            match field {
                Flag::Bookmark => self.marks[i].bookmarked = on,
                Flag::Read => self.marks[i].read = on,
            }
        }
        self.count();
        self.marks_changed();
        true
    }

    /// Applies a change, records it for undo, keeps the selected paper
    /// listed.
    pub(super) fn change(&mut self, marks: Vec<(usize, Flag, bool)>) {
        let before: Vec<(usize, Flag, bool, bool)> = marks
            .iter()
            .map(|&(i, f, on)| {
                let was = match f {
                    Flag::Bookmark => self.marks[i].bookmarked,
                    Flag::Read => self.marks[i].read,
                };
                (i, f, was, on)
            })
            .filter(|&(_, _, was, on)| was != on)
            .collect();
        if before.is_empty() {
            return;
        }
        let apply: Vec<(usize, Flag, bool)> =
            before.iter().map(|&(i, f, _, on)| (i, f, on)).collect();
        if self.set_marks(&apply) {
            self.undo.push(Change {
                marks: before,
                edits: Vec::new(),
            });
            self.redo.clear();
            self.keep_selected();
        }
    }

    /// After marks change: the selected paper stays listed until the
    /// selection moves, even when it left the view.
    pub(super) fn keep_selected(&mut self) {
        let sel = self.selected_paper();
        if let Some(i) = sel
            && self.hides(i)
        {
            self.sticky = Some(i);
        }
        self.rebuild_rows(sel);
    }

    pub(super) fn undo_redo(&mut self, undo: bool) {
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
        if !change.edits.is_empty() {
            // Applying the edits gives those that take them back again.
            match self.store.apply(&change.edits) {
                Ok(back) => {
                    self.labels_dirty = true;
                    to.push(Change::edits(back));
                    let result = self.store.save();
                    self.saved(result);
                    self.status = Some(if undo { "undid" } else { "redid" }.to_string());
                    let keep = self.selected_paper();
                    self.rebuild_rows(keep);
                }
                Err(e) => {
                    from.push(change);
                    self.saved(Err(e));
                }
            }
            return;
        }
        to.push(change.clone());
        let marks: Vec<(usize, Flag, bool)> = change
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
                if self.hides(i) {
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
            .set_place(&self.corpus_key, selected.as_deref(), &self.view_name());
        let result = self.store.retry();
        self.saved(result);
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;
    use crate::store::Store;
    use crate::vocabulary::{Action, Effect, Message, Mode, View};

    #[test]
    fn marks_follow_a_paper_whose_id_changed_as_it_streams_in() {
        let dir = tempfile::tempdir().unwrap();
        let mut papers = crate::loading::bundled().corpus.papers.into_vec();
        papers.truncate(3);
        // Paper 1 was known as "0123456789abcdef" and is now an arXiv paper.
        papers[1].former_id = Some(crate::corpus::PaperId::parse("0123456789abcdef"));
        papers[1].id = crate::corpus::PaperId::arxiv("2106.09685");
        {
            let (mut store, _) = Store::open(dir.path());
            store
                .set(&[("0123456789abcdef", Flag::Bookmark, true)])
                .unwrap();
            store.set_place("streamed", Some("0123456789abcdef"), "all");
            store
                .set(&[("0123456789abcdef", Flag::Read, true)])
                .unwrap();
        }
        let mut app = streaming_app(dir.path());
        let batch = crate::corpus::Dedup::default().accept(papers);
        app.update(Message::Load(crate::loading::Event::Papers(batch, None)));
        app.update(Message::Loaded);
        settle(&mut app);
        let marks = app.marks(1);
        assert!(marks.bookmarked && marks.read, "{marks:?}");
        assert_eq!(app.counts().bookmarked, 1);
        // The place left on the old id selects the paper under its new one.
        assert_eq!(app.selected_paper(), Some(1));
        assert!(app.store().is_on("arxiv:2106.09685", Flag::Bookmark));
    }

    #[test]
    fn bookmark_and_read_toggle_and_persist() {
        let (mut app, dir) = app();
        app.apply(Action::Down);
        app.apply(Action::ToggleBookmark);
        app.apply(Action::ToggleRead);
        assert!(app.marks(1).bookmarked && app.marks(1).read);
        assert_eq!(
            app.counts(),
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
        assert_eq!(app.counts().read, 0);
        assert!(app.store().state().papers.is_empty());
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
        assert_eq!(app.mode(), Mode::Confirm);
        app.apply(Action::ConfirmNo);
        assert_eq!(app.counts().read, 0, "no means no");
        app.apply(Action::MarkAllRead);
        app.apply(Action::ConfirmYes);
        assert_eq!(app.counts().read, n);
        assert_eq!(app.mode(), Mode::Browse);
        app.apply(Action::Undo);
        assert_eq!(app.counts().read, 0);
        app.apply(Action::Redo);
        assert_eq!(app.counts().read, n);
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
        assert_eq!(app.status(), Some("nothing to undo"));
        app.apply(Action::Redo);
        app.apply(Action::Redo);
        assert!(app.marks(0).bookmarked && app.marks(1).read);
        // A new change forgets what could be redone.
        app.apply(Action::SelectRow(7));
        app.apply(Action::ToggleBookmark);
        app.apply(Action::Redo);
        assert_eq!(app.status(), Some("nothing to redo"));
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
        assert_eq!(again.view(), View::Unread);
        assert_eq!(title(&again), t);
    }

    #[test]
    fn a_running_reader_picks_up_another_instances_marks() {
        let (mut app, dir) = app();
        let (mut other, _) = Store::open(dir.path());
        let id = app.corpus().papers[4].id.to_string();
        other.set(&[(id.as_str(), Flag::Bookmark, true)]).unwrap();
        assert!(app.update(Message::StoreChanged).contains(&Effect::Redraw));
        assert!(app.marks(4).bookmarked);
        assert_eq!(app.counts().bookmarked, 1);
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
}
