//! The word index and the cache: an index read back from the cache is
//! handed to the matcher as it arrives; one built here, once complete, is
//! offered to be stored there ([`Effect::StoreIndex`]), once.

use super::App;
use crate::search::WordIndex;
use crate::vocabulary::Effect;

impl App {
    /// Takes a word index read back from the cache (over every paper of
    /// the file): nothing is left to index.
    pub(super) fn take_index(&mut self, index: WordIndex) {
        self.search.install_index(index);
        // Phrases read the abstracts, which the indexer will not see.
        self.search.keep_texts(&self.corpus.papers);
        self.index_stored = true;
    }

    /// Once every paper is in and indexed, asks (once) for the index to
    /// be stored for the next open.
    pub(super) fn offer_index(&mut self) {
        if self.index_stored || self.loading.is_some() || self.corpus.is_empty() {
            return;
        }
        let (indexed, papers) = self.search.indexed();
        if indexed < papers {
            return;
        }
        self.index_stored = true;
        self.effects
            .push(Effect::StoreIndex(self.search.index_handle()));
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use crate::loading as load;
    use crate::search::{Scope, WordIndex, index_papers};
    use crate::vocabulary::{Action, Effect, Message, View};

    /// The effects of ticks until `want` says yes (or a few seconds).
    fn tick_until(app: &mut super::App, want: impl Fn(&[Effect]) -> bool) -> Vec<Effect> {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        loop {
            let effects = app.update(Message::Tick);
            if want(&effects) || std::time::Instant::now() > deadline {
                return effects;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }

    /// Asserts that ticks offer no index for storing.
    fn offers_none(app: &mut super::App) {
        for _ in 0..5 {
            assert_eq!(stores(&app.update(Message::Tick)), 0);
        }
    }

    fn stores(effects: &[Effect]) -> usize {
        effects
            .iter()
            .filter(|e| matches!(e, Effect::StoreIndex(_)))
            .count()
    }

    #[test]
    fn an_index_built_here_is_offered_for_storing_once_complete_and_once() {
        let dir = tempfile::tempdir().unwrap();
        let mut app = streamed_app(dir.path());
        // Not while loading: the index is held back until the corpus is whole.
        assert_eq!(stores(&app.update(Message::Tick)), 0);
        app.update(Message::Loaded);
        let effects = tick_until(&mut app, |e| stores(e) > 0);
        assert_eq!(stores(&effects), 1, "{effects:?}");
        let Some(Effect::StoreIndex(handle)) = effects
            .into_iter()
            .find(|e| matches!(e, Effect::StoreIndex(_)))
        else {
            unreachable!()
        };
        assert_eq!(handle.indexed(), (38, 38));
        // What it writes reads back as the index of these papers.
        let mut bytes = Vec::new();
        handle.write_to(&mut bytes).unwrap();
        let back = WordIndex::from_bytes(std::sync::Arc::new(bytes)).unwrap();
        assert_eq!(back.indexed, 38);
        // Offered once only.
        offers_none(&mut app);
    }

    #[test]
    fn the_list_is_whole_before_a_stored_index_is_read_and_indexing_waits_for_it() {
        let dir = tempfile::tempdir().unwrap();
        let mut app = streamed_app(dir.path());
        app.update(Message::Load(load::Event::Listed));
        // Every paper listed, the load shown as over.
        assert!(app.progress().is_none());
        settle(&mut app);
        assert_eq!(app.rows(), 38);
        // The abstracts are not indexed meanwhile (38 take a few
        // milliseconds): a stored index may come.
        for _ in 0..40 {
            assert_eq!(stores(&app.update(Message::Tick)), 0);
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert_eq!(app.search().indexed().0, 0);
        let papers = load::bundled().corpus.papers.into_vec();
        app.update(Message::Load(load::Event::Index(Box::new(index_papers(
            &papers,
        )))));
        assert_eq!(app.search().indexed(), (38, 38));
        app.update(Message::Loaded);
        offers_none(&mut app);
    }

    /// A reader streamed the bundled papers in two batches made ready
    /// without what the index reads of them, as when an index is stored.
    fn streamed_titles_alone(dir: &std::path::Path) -> super::App {
        let mut app = streaming_app(dir);
        for e in two_batches().0 {
            app.update(Message::Load(match e {
                load::Event::Papers(batch, None) => {
                    let made = crate::search::Prepared::titles(&batch.papers);
                    assert!(made.lacks_index_fields());
                    load::Event::Papers(batch, Some(made))
                }
                other => other,
            }));
        }
        app
    }

    /// A search over every field lists what one over the bundled papers
    /// whole ranks.
    fn ranks_as_whole_papers(app: &mut super::App) {
        app.update(Message::Configured {
            scope: Scope::All,
            view: View::All,
            list: crate::app::layout::LIST_SHARE,
        });
        app.apply(Action::StartSearch);
        typed(app, "language model");
        let papers = load::bundled().corpus.papers.into_vec();
        let want = crate::search::rank_papers(&papers, "language model", Scope::All);
        assert!(want.len() > 1);
        assert_eq!(app.rows(), want.len());
    }

    #[test]
    fn papers_left_for_a_stored_index_that_never_came_are_indexed_after_all() {
        let dir = tempfile::tempdir().unwrap();
        let mut app = streamed_titles_alone(dir.path());
        app.update(Message::Load(load::Event::Listed));
        app.update(Message::Loaded);
        // Indexed, and offered for storing, as a reader's own index is.
        let effects = tick_until(&mut app, |e| stores(e) > 0);
        assert_eq!(stores(&effects), 1);
        assert_eq!(app.search().indexed(), (38, 38));
        ranks_as_whole_papers(&mut app);
    }

    #[test]
    fn papers_left_in_the_cache_without_an_index_are_indexed_off_the_ui_thread() {
        let dir = tempfile::tempdir().unwrap();
        let papers = load::bundled().corpus.papers.into_vec();
        let (mut app, stored) = stored_app(dir.path(), &papers);
        app.update(Message::Loaded);
        // Read on the index's own thread, then offered as a reader's own.
        let effects = tick_until(&mut app, |e| stores(e) > 0);
        assert_eq!(stores(&effects), 1);
        assert!(stored.is_ready());
        assert_eq!(app.search().indexed(), (38, 38));
        ranks_as_whole_papers(&mut app);
    }

    #[test]
    fn papers_left_for_a_stored_index_are_covered_by_it() {
        let dir = tempfile::tempdir().unwrap();
        let mut app = streamed_titles_alone(dir.path());
        app.update(Message::Load(load::Event::Listed));
        let papers = load::bundled().corpus.papers.into_vec();
        app.update(Message::Load(load::Event::Index(Box::new(index_papers(
            &papers,
        )))));
        app.update(Message::Loaded);
        assert_eq!(app.search().indexed(), (38, 38));
        offers_none(&mut app);
    }

    #[test]
    fn an_index_from_the_cache_is_used_at_once_and_not_stored_again() {
        let dir = tempfile::tempdir().unwrap();
        let mut app = streamed_app(dir.path());
        let papers = load::bundled().corpus.papers.into_vec();
        let index = index_papers(&papers);
        app.update(Message::Load(load::Event::Index(Box::new(index))));
        // The index is whole before the load ends: nothing is left to do.
        assert_eq!(app.search().indexed(), (38, 38));
        app.update(Message::Loaded);
        app.update(Message::Configured {
            scope: Scope::All,
            view: View::All,
            list: crate::app::layout::LIST_SHARE,
        });
        app.apply(Action::StartSearch);
        for c in "language model".chars() {
            app.apply(Action::Insert(c));
        }
        settle(&mut app);
        assert_eq!(app.search().scope(), Scope::All);
        let want = crate::search::rank_papers(&papers, "language model", Scope::All);
        assert_eq!(app.rows(), want.len());
        assert!(want.len() > 1);
        offers_none(&mut app);
    }
}
