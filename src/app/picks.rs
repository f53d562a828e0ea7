//! The selection: papers picked one by one (or every listed one) so that
//! bookmark, read and tags act on all of them at once. The cursor's row is
//! "selected" elsewhere in the code; a paper in this set is "picked".

use super::App;
use crate::store::Flag;

impl App {
    /// Whether paper `idx` is in the selection.
    pub fn picked(&self, idx: usize) -> bool {
        self.picked.contains(&idx)
    }

    /// How many papers are in the selection.
    pub fn picked_count(&self) -> usize {
        self.picked.len()
    }

    /// The papers marks act on: the selection when there is one, else the
    /// paper under the cursor.
    pub(super) fn targets(&self) -> Vec<usize> {
        if self.picked.is_empty() {
            self.selected_paper().into_iter().collect()
        } else {
            self.picked.iter().copied().collect()
        }
    }

    /// Puts the paper under the cursor in the selection, or takes it out,
    /// and moves on to the next paper.
    pub(super) fn toggle_pick(&mut self) {
        let Some(i) = self.selected_paper() else {
            return;
        };
        if !self.picked.remove(&i) {
            self.picked.insert(i);
        }
        self.move_by(1);
    }

    /// Puts every listed paper in the selection.
    pub(super) fn pick_listed(&mut self) {
        if let Some(why) = self.none_counted("X") {
            self.status = Some(why);
            return;
        }
        let rows = self.counted_papers();
        self.picked.extend(rows);
        self.status = Some(format!("{} selected", self.picked.len()));
    }

    /// Empties the selection.
    pub(super) fn clear_picks(&mut self) {
        let n = std::mem::take(&mut self.picked).len();
        self.status = Some(if n == 0 {
            "nothing was selected".to_string()
        } else {
            format!("cleared the selection of {n}")
        });
    }

    /// Toggles a mark on the targets as one undoable change: on for all
    /// when any lacks it, else off for all.
    pub(super) fn toggle_mark(&mut self, field: Flag) {
        let targets = self.targets();
        let has = |i: usize| match field {
            Flag::Bookmark => self.marks[i].bookmarked,
            Flag::Read => self.marks[i].read,
        };
        let on = !targets.iter().all(|&i| has(i));
        let n = targets.len();
        self.change(targets.into_iter().map(|i| (i, field, on)).collect());
        if !self.picked.is_empty() {
            let what = match (field, on) {
                (Flag::Bookmark, true) => "bookmarked",
                (Flag::Bookmark, false) => "removed the bookmarks of",
                (Flag::Read, true) => "marked read",
                (Flag::Read, false) => "marked unread",
            };
            self.status = Some(format!("{what} {n} selected · u undoes"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use crate::vocabulary::{Action, View};

    #[test]
    fn marks_act_on_the_selection_as_one_undoable_change() {
        let (mut app, _dir) = app();
        app.apply(Action::TogglePick); // paper 0, the cursor moves to 1
        app.apply(Action::Down);
        app.apply(Action::TogglePick); // paper 2
        assert_eq!(app.picked_count(), 2);
        assert!(app.picked(0) && !app.picked(1) && app.picked(2));
        app.apply(Action::ToggleBookmark);
        assert!(app.marks(0).bookmarked && app.marks(2).bookmarked);
        assert!(!app.marks(3).bookmarked, "the cursor's paper is left alone");
        assert_eq!(app.counts().bookmarked, 2);
        app.apply(Action::Undo);
        assert_eq!(app.counts().bookmarked, 0, "one undo takes back both");
        // Some bookmarked, some not: the key bookmarks all.
        app.apply(Action::SelectRow(0));
        app.apply(Action::ToggleBookmark); // the selection, wherever the cursor is
        assert_eq!(app.counts().bookmarked, 2);
        app.apply(Action::ToggleBookmark);
        assert_eq!(app.counts().bookmarked, 0, "all had it: off for all");
    }

    #[test]
    fn a_paper_toggles_in_and_out_and_the_selection_clears() {
        let (mut app, _dir) = app();
        app.apply(Action::TogglePick);
        app.apply(Action::Up);
        app.apply(Action::TogglePick);
        assert_eq!(app.picked_count(), 0);
        app.apply(Action::ClearPicks);
        assert_eq!(app.status(), Some("nothing was selected"));
        app.apply(Action::SelectRow(4));
        app.apply(Action::ToggleRead);
        assert!(app.marks(4).read, "without a selection, the cursor's paper");
    }

    #[test]
    fn select_all_takes_the_listed_papers_only() {
        let (mut app, _dir) = app();
        app.apply(Action::StartSearch);
        typed(&mut app, "framework");
        app.apply(Action::AcceptSearch);
        let n = app.rows();
        assert!(n > 1 && n < 38, "{n}");
        app.apply(Action::PickListed);
        assert_eq!(app.picked_count(), n);
        app.apply(Action::ToggleRead);
        assert_eq!(app.counts().read, n);
        app.apply(Action::CycleView);
        assert_eq!(app.view(), View::Unread);
        app.apply(Action::ClearPicks);
        assert_eq!(app.picked_count(), 0);
        assert_eq!(app.counts().read, n, "clearing keeps the marks");
    }
}
