//! Which papers the list shows beyond the marks: the papers new in this
//! session (first seen when this reader loaded them) and a tag's papers,
//! and the `v` cycle through every view and tag.
//!
//! First-seen times are recorded once the corpus has loaded and the first
//! frame is on screen, off the UI thread ([`Effect::RecordSeen`]): at a
//! million papers reading and writing them takes a second or two, which
//! neither the first frame nor the keys must wait for.

use std::path::Path;

use super::App;
use crate::store::{Stamp, Store};
use crate::vocabulary::{Effect, IdList, View};

impl App {
    /// Whether paper `i` is in the view.
    pub(super) fn shows(&self, i: usize) -> bool {
        match self.view {
            View::New => self.fresh.get(i).copied().unwrap_or(false),
            View::Tagged => self.view_tag.as_deref().is_some_and(|t| {
                self.corpus
                    .papers
                    .with_id(i, |id| self.store.has_tag(id, t))
                    .unwrap_or(false)
            }),
            v => v.shows(self.marks[i]),
        }
    }

    /// The tag whose papers are shown, in the tag view.
    pub fn view_tag(&self) -> Option<&str> {
        self.view_tag
            .as_deref()
            .filter(|_| self.view == View::Tagged)
    }

    /// The view's name as the state file keeps it: `tag:` and the tag for a
    /// tag's view.
    pub(super) fn view_name(&self) -> String {
        match self.view_tag() {
            Some(tag) => format!("tag:{tag}"),
            None => self.view.name().to_string(),
        }
    }

    /// Sets the view from its name in the state file (unknown: all).
    pub(super) fn set_view_named(&mut self, name: &str) {
        if let Some(tag) = name.strip_prefix("tag:") {
            self.view = View::Tagged;
            self.view_tag = Some(tag.to_string());
        } else {
            self.view = View::from_name(name).unwrap_or_default();
        }
    }

    /// The tags held by papers of the open files (a reading list keeps
    /// the tags of every file ever opened), ordered as the store orders
    /// tags.
    pub(super) fn open_tags(&self) -> Vec<String> {
        let state = self.store.state();
        let tagged: Vec<&str> = state
            .papers
            .keys()
            .map(String::as_str)
            .filter(|id| !self.store.tags(id).is_empty())
            .collect();
        let at = self.corpus.papers.find_ids(&tagged);
        let mut open: Vec<String> = tagged
            .iter()
            .zip(&at)
            .filter(|(_, at)| at.is_some())
            .flat_map(|(id, _)| self.store.tags(id))
            .map(|t| crate::search::fields::fold(t).into_owned())
            .collect();
        open.sort();
        open.dedup();
        self.store
            .all_tags()
            .into_iter()
            .map(|(t, _)| t)
            .filter(|t| {
                open.binary_search(&crate::search::fields::fold(t).into_owned())
                    .is_ok()
            })
            .collect()
    }

    /// The next view: all → unread → bookmarked → new → each tag held by
    /// papers of the open files → all.
    pub(super) fn cycle_view(&mut self) {
        let tags = self.open_tags();
        let next_tag = match self.view_tag() {
            Some(now) => {
                let now = now.to_lowercase();
                tags.iter().find(|t| t.to_lowercase() > now).cloned()
            }
            None if self.view == View::New => tags.first().cloned(),
            None => None,
        };
        match (self.view, next_tag) {
            (View::New | View::Tagged, Some(tag)) => {
                self.view = View::Tagged;
                self.view_tag = Some(tag);
            }
            (View::New | View::Tagged, None) => {
                self.view = View::All;
                self.view_tag = None;
            }
            (v, _) => self.view = v.next(),
        }
        self.sticky = None;
        let keep = self.selected_paper();
        self.rebuild_rows(keep);
    }

    /// How many papers are new in this session.
    pub fn new_count(&self) -> usize {
        self.fresh.iter().filter(|&&f| f).count()
    }

    /// The first frame is on screen: first-seen times can be recorded once
    /// the corpus has loaded.
    pub(super) fn frame_shown(&mut self) {
        self.shown = true;
        self.record_seen();
    }

    /// Records when each paper was first seen (now, for those never seen)
    /// and which of them are new in this session; once, when the corpus
    /// has loaded and a frame was shown.
    pub(super) fn record_seen(&mut self) {
        if !self.shown || self.loading.is_some() || self.seen_at.is_some() {
            return;
        }
        let now = Stamp::now();
        self.seen_at = Some(now);
        let ids = IdList::of_papers(&self.corpus.papers);
        let dir = self
            .store
            .path()
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        self.effects.push(Effect::RecordSeen { dir, ids, now });
    }

    /// First-seen times are recorded: which papers are new.
    pub(super) fn seen_recorded(&mut self, result: Result<Vec<bool>, String>) {
        match result {
            Ok(fresh) if fresh.len() == self.corpus.len() => {
                self.fresh = fresh;
                // Sorting by first seen reads the times just written.
                self.store.forget_first_seen();
                if self.view == View::New {
                    let keep = self.selected_paper();
                    self.rebuild_rows(keep);
                }
                self.redraw();
            }
            Ok(_) => {}
            Err(e) => {
                self.status = Some(format!("could not save when papers were first seen: {e}"));
            }
        }
    }
}

/// Records in the state directory `dir`, through a store of its own, that
/// papers `ids` were first seen `now` (those never seen before), and says
/// for each whether it is new: what [`Effect::RecordSeen`] asks, run off
/// the UI thread (a million papers take a second or two).
pub fn record_seen_in(dir: &Path, ids: IdList, now: Stamp) -> Result<Vec<bool>, String> {
    let ids = ids.resolved();
    let (mut store, _) = Store::open(dir);
    store
        .record_first_seen_each(ids.iter(), now)
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use crate::vocabulary::{Action, Message, View};

    fn to_new(app: &mut super::App) {
        while app.view() != View::New {
            app.apply(Action::CycleView);
        }
    }

    #[test]
    fn new_is_every_paper_on_a_first_visit_and_none_on_the_next() {
        let (mut app, dir) = app();
        assert!(
            app.store()
                .first_seen(app.corpus().papers[0].id.as_str())
                .is_none()
        );
        to_new(&mut app);
        assert_eq!(app.rows(), 0, "nothing is recorded before the first frame");
        let effects = app.update(Message::FrameShown);
        assert_eq!(app.new_count(), 0, "nothing is new until recorded");
        carry_out_seen(&mut app, effects);
        assert_eq!(app.new_count(), 38);
        assert_eq!(app.rows(), 38, "a first visit: all new");
        assert!(
            app.store()
                .first_seen(app.corpus().papers[0].id.as_str())
                .is_some()
        );
        app.apply(Action::Quit);
        drop(app);
        let mut again = app_in(dir.path());
        assert_eq!(again.view(), View::New, "the view is remembered");
        let effects = again.update(Message::FrameShown);
        carry_out_seen(&mut again, effects);
        assert_eq!(again.new_count(), 0);
        assert_eq!(again.rows(), 0, "seen in the last session: not new");
    }

    #[test]
    fn a_streamed_corpus_records_first_seen_once_loaded_and_shown() {
        let dir = tempfile::tempdir().unwrap();
        let (events, ids) = two_batches();
        let mut app = streaming_app(dir.path());
        app.update(Message::FrameShown);
        for e in events {
            app.update(Message::Load(e));
        }
        assert_eq!(app.new_count(), 0, "not while loading");
        let effects = app.update(Message::Loaded);
        carry_out_seen(&mut app, effects);
        assert_eq!(app.new_count(), ids.len());
        assert!(ids.iter().all(|id| app.store().first_seen(id).is_some()));
    }

    #[test]
    fn a_tag_view_is_remembered_by_its_tag() {
        let (mut app, dir) = app();
        app.apply(Action::SelectRow(7));
        app.apply(Action::EditTags);
        for c in "survey".chars() {
            app.apply(Action::Insert(c));
        }
        app.apply(Action::AcceptLine);
        while app.view() != View::Tagged {
            app.apply(Action::CycleView);
        }
        assert_eq!(app.rows(), 1);
        app.apply(Action::Quit);
        drop(app);
        let again = app_in(dir.path());
        assert_eq!(again.view_tag(), Some("survey"));
        assert_eq!(again.rows(), 1);
    }
}
