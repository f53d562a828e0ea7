//! Triage: the unread papers of the list (its view, search and order)
//! one at a time, the abstract large, one key each to keep (bookmark and
//! read), skip (read) or leave for later, and undo. The marks go through
//! the same store and undo history as everywhere else. Leaving keeps the
//! walk: coming back to the same list resumes at the first paper not yet
//! decided; another list starts a new walk.

use super::App;
use crate::store::Flag;
use crate::vocabulary::Mode;

/// What was decided about a paper.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Bookmarked and read.
    Keep,
    /// Read.
    Skip,
    /// Left for later (unread).
    Later,
}

/// A walk through the unread papers of a list.
#[derive(Clone, Debug)]
pub(super) struct Walk {
    /// The list it walks: query, view.
    list: (String, String),
    /// The papers, in list order.
    pub(super) queue: Vec<usize>,
    /// What was decided, by position in the queue.
    pub(super) decided: Vec<Option<Decision>>,
    /// The position shown.
    pub(super) pos: usize,
    /// Decisions in order, for undo: the position and whether it changed
    /// marks (an entry on the undo history).
    history: Vec<(usize, bool)>,
}

/// How far a walk has got, for the screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Papers decided.
    pub done: usize,
    /// Papers in the walk.
    pub total: usize,
    /// Papers kept.
    pub kept: usize,
    /// Papers left for later.
    pub later: usize,
    /// The position shown (0-based); `total` once every paper is decided.
    pub at: usize,
}

impl Walk {
    fn first_open(&self) -> usize {
        self.decided
            .iter()
            .position(Option::is_none)
            .unwrap_or(self.queue.len())
    }

    fn count(&self, d: Decision) -> usize {
        self.decided.iter().filter(|&&x| x == Some(d)).count()
    }
}

impl App {
    /// Whether triage is on screen (its line editor too).
    pub fn triaging(&self) -> bool {
        self.mode == Mode::Triage
            || (self.mode == Mode::Prompt && self.prompt_return == Mode::Triage)
    }

    /// The paper triage shows, while triaging.
    pub(super) fn triage_paper(&self) -> Option<usize> {
        let w = self.walk.as_ref()?;
        w.queue.get(w.pos).copied()
    }

    /// How far the walk has got, while triaging.
    pub fn triage_progress(&self) -> Option<Progress> {
        let w = self.walk.as_ref().filter(|_| self.triaging())?;
        Some(Progress {
            done: w.decided.iter().filter(|d| d.is_some()).count(),
            total: w.queue.len(),
            kept: w.count(Decision::Keep),
            later: w.count(Decision::Later),
            at: w.pos,
        })
    }

    /// Starts triage on the list, or resumes the walk through it.
    pub(super) fn start_triage(&mut self) {
        let list = (self.input.text().to_string(), self.view_name());
        let resume = self.walk.as_ref().is_some_and(|w| w.list == list);
        if !resume {
            if let Some(why) = self.none_counted("T") {
                self.status = Some(why);
                return;
            }
            let queue: Vec<usize> = self
                .counted_papers()
                .into_iter()
                .filter(|&i| !self.marks[i].read)
                .collect();
            if queue.is_empty() {
                self.status = Some("no unread paper in this list to triage".to_string());
                return;
            }
            self.walk = Some(Walk {
                list,
                decided: vec![None; queue.len()],
                queue,
                pos: 0,
                history: Vec::new(),
            });
        }
        if let Some(w) = &mut self.walk {
            w.pos = w.first_open();
        }
        self.mode = Mode::Triage;
        self.detail_scroll = 0;
        self.chosen_link = None;
    }

    /// Leaves triage for the list, on the paper last shown.
    pub(super) fn leave_triage(&mut self) {
        let shown = self.triage_paper();
        self.mode = Mode::Browse;
        self.detail_scroll = 0;
        if let Some(p) = shown {
            self.rebuild_rows(Some(p));
        }
        if let Some(p) = self.triage_progress_any() {
            self.status = Some(format!(
                "triaged {}/{} · {} kept · T resumes",
                p.0, p.1, p.2
            ));
        }
    }

    fn triage_progress_any(&self) -> Option<(usize, usize, usize)> {
        let w = self.walk.as_ref()?;
        Some((
            w.decided.iter().filter(|d| d.is_some()).count(),
            w.queue.len(),
            w.count(Decision::Keep),
        ))
    }

    /// Decides about the paper shown and goes on to the next one not yet
    /// decided.
    pub(super) fn decide(&mut self, d: Decision) {
        let Some(i) = self.triage_paper() else {
            return;
        };
        let before = self.undo.len();
        match d {
            Decision::Keep => self.change(vec![(i, Flag::Bookmark, true), (i, Flag::Read, true)]),
            Decision::Skip => self.change(vec![(i, Flag::Read, true)]),
            Decision::Later => {}
        }
        let changed = self.undo.len() > before;
        if d != Decision::Later && !changed && !(self.marks[i].read) {
            // Refused (a read-only store): the paper stays undecided.
            return;
        }
        let Some(w) = &mut self.walk else { return };
        w.decided[w.pos] = Some(d);
        w.history.push((w.pos, changed));
        // On to the next undecided paper after this one, else the first.
        let next = (w.pos + 1..w.queue.len()).find(|&k| w.decided[k].is_none());
        w.pos = next.unwrap_or_else(|| w.first_open());
        self.detail_scroll = 0;
        self.chosen_link = None;
        if w.pos == w.queue.len() {
            let kept = w.count(Decision::Keep);
            let later = w.count(Decision::Later);
            self.status = Some(format!(
                "all {} triaged · {kept} kept · {later} for later · u undoes · Esc back",
                w.queue.len()
            ));
        }
    }

    /// A new model came in while triaging in the "for you" order: the
    /// papers not yet decided after the one shown go in its new order.
    pub(super) fn reorder_walk(&mut self) {
        let scores = self.for_you_scores().to_vec();
        let Some(w) = &mut self.walk else { return };
        let score = |i: usize| scores.get(i).copied().unwrap_or(f32::MIN);
        let slots: Vec<usize> = (w.pos + 1..w.queue.len())
            .filter(|&k| w.decided[k].is_none())
            .collect();
        let mut papers: Vec<usize> = slots.iter().map(|&k| w.queue[k]).collect();
        papers.sort_by(|&a, &b| score(b).total_cmp(&score(a)));
        for (k, p) in slots.into_iter().zip(papers) {
            w.queue[k] = p;
        }
    }

    /// Takes back the last decision and shows its paper again.
    pub(super) fn undo_decision(&mut self) {
        let Some((pos, changed)) = self.walk.as_mut().and_then(|w| w.history.pop()) else {
            self.status = Some("nothing to undo in this triage".to_string());
            return;
        };
        if changed {
            self.undo_redo(true);
        }
        if let Some(w) = &mut self.walk {
            w.decided[pos] = None;
            w.pos = pos;
        }
        self.detail_scroll = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;
    use crate::vocabulary::{Action, View};

    fn shown(app: &App) -> usize {
        app.selected_paper().unwrap()
    }

    #[test]
    fn keep_skip_later_undo_and_progress() {
        let (mut app, _dir) = app();
        app.apply(Action::SelectRow(1));
        app.apply(Action::ToggleRead); // paper 1 is read: not in the walk
        app.apply(Action::Triage);
        assert_eq!(app.mode(), Mode::Triage);
        let p = app.triage_progress().unwrap();
        assert_eq!((p.done, p.total, p.kept), (0, 37, 0));
        assert_eq!(shown(&app), 0);
        app.apply(Action::Keep);
        assert!(app.marks(0).bookmarked && app.marks(0).read);
        assert_eq!(shown(&app), 2, "the read paper is passed over");
        app.apply(Action::Skip);
        assert!(app.marks(2).read && !app.marks(2).bookmarked);
        app.apply(Action::Later);
        assert!(!app.marks(3).read, "later leaves it unread");
        let p = app.triage_progress().unwrap();
        assert_eq!((p.done, p.total, p.kept, p.later), (3, 37, 1, 1));
        assert_eq!(shown(&app), 4);
        app.apply(Action::Undo); // the later
        assert_eq!(shown(&app), 3);
        app.apply(Action::Undo); // the skip
        assert_eq!(shown(&app), 2);
        assert!(!app.marks(2).read, "the mark is taken back");
        assert_eq!(app.triage_progress().unwrap().done, 1);
    }

    #[test]
    fn leaving_and_returning_resumes_at_the_first_undecided() {
        let (mut app, _dir) = app();
        app.apply(Action::CycleView);
        assert_eq!(app.view(), View::Unread);
        app.apply(Action::Triage);
        app.apply(Action::Skip);
        app.apply(Action::Keep);
        let third = shown(&app);
        app.apply(Action::Back);
        assert_eq!(app.mode(), Mode::Browse);
        assert_eq!(app.selected_paper(), Some(third), "the list is on it");
        assert_eq!(app.status(), Some("triaged 2/38 · 1 kept · T resumes"));
        app.apply(Action::SelectRow(10));
        app.apply(Action::Triage);
        assert_eq!(shown(&app), third);
        assert_eq!(app.triage_progress().unwrap().done, 2);
        // Marks made in triage undo from the list too.
        app.apply(Action::Back);
        app.apply(Action::Undo);
        assert_eq!(app.counts().bookmarked, 0);
    }

    #[test]
    fn triage_walks_the_search_and_ends() {
        let (mut app, _dir) = app();
        app.apply(Action::StartSearch);
        typed(&mut app, "orchjail");
        app.apply(Action::AcceptSearch);
        app.apply(Action::Triage);
        assert_eq!(app.triage_progress().unwrap().total, 1);
        app.apply(Action::Keep);
        let p = app.triage_progress().unwrap();
        assert_eq!((p.done, p.at), (1, 1));
        assert!(app.status().unwrap().starts_with("all 1 triaged · 1 kept"));
        assert_eq!(app.counts().bookmarked, 1);
        app.apply(Action::Keep);
        assert_eq!(app.counts().bookmarked, 1, "nothing left to decide");
    }
}
