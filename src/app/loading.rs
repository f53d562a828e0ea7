//! A corpus that streams in while the reader is in use: papers and
//! progress arrive from the loader, the place the corpus was left is found
//! once its paper has come, and the end of the load says what loaded.

use super::App;
use crate::corpus::Corpus;
use crate::loading::{self as load, LoadError, Loaded};
use crate::store::Store;
use crate::vocabulary::Marks;
#[cfg(doc)]
use crate::vocabulary::Message;

/// Where the corpus was left last time, still to be selected.
#[derive(Clone, Debug)]
pub(super) struct Restore {
    /// The paper's id.
    pub(super) id: String,
    /// Its index, once it has loaded.
    pub(super) at: Option<usize>,
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
    /// A reader whose corpus (named by `key`) is still to come: papers
    /// arrive as [`Message::Load`] while the reader is in use, and
    /// [`Message::Loaded`] ends the load. `announce` says the inputs'
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
            index: None,
        };
        let mut app = App::new(empty, store, notify);
        // Titles first: abstracts are indexed once every paper is in.
        app.search.hold_index(true);
        app.loading = Some(Loading::default());
        app.announce_reports = announce;
        app
    }

    /// Looks for the paper to restore among papers `from..`.
    pub(super) fn find_restore(&mut self, from: usize) {
        if let Some(r) = &mut self.restore
            && r.at.is_none()
        {
            let mut at = None;
            self.corpus.papers.each_id_from(from, |i, id| {
                if at.is_none() && id == r.id {
                    at = Some(i);
                }
            });
            r.at = at;
        }
    }

    /// Takes in a file's papers left in the cache: the list is whole at
    /// once, each paper's marks read by its id alone.
    fn receive_stored(&mut self, papers: crate::corpus::Papers, list: &crate::search::TitleList) {
        if !self.corpus.is_empty() {
            // Only a file loaded alone is read so: never after papers.
            let batch = crate::corpus::Batch {
                papers: papers.into_vec(),
                also_in: Vec::new(),
                fills: Vec::new(),
            };
            self.receive(load::Event::Papers(batch, None));
            return;
        }
        self.labels_dirty = true;
        self.corpus = Corpus::stored(papers);
        let n = self.corpus.len();
        self.marks = vec![Marks::default(); n];
        // The papers with marks and the one to select again, found among
        // the ids in one pass: a look-up a paper took a fifth of a second
        // at 2.7M papers.
        let state = self.store.state();
        let restore = self.restore.as_ref().filter(|r| r.at.is_none());
        let ids: Vec<&str> = state
            .papers
            .keys()
            .map(String::as_str)
            .chain(restore.map(|r| r.id.as_str()))
            .collect();
        let at = self.corpus.papers.find_ids(&ids);
        for (id, at) in state.papers.keys().zip(&at) {
            if let Some(i) = *at {
                self.marks[i] = Marks::of(state, id);
            }
        }
        if let Some(r) = &mut self.restore
            && r.at.is_none()
        {
            r.at = at.last().copied().flatten();
        }
        self.count();
        self.search.extend_list(list);
        // Indexed at the load's end when no stored index comes (none is
        // stored, or its checksums fail).
        self.index_left = true;
        if let Some(l) = &mut self.loading {
            l.papers = n;
        }
    }

    /// Takes in what a streaming load says.
    pub fn receive(&mut self, event: load::Event) {
        match event {
            load::Event::Papers(batch, prepared) => {
                // Papers come with the tags and notes kept for them.
                self.labels_dirty = true;
                let first = self.corpus.len();
                self.corpus.push(batch);
                self.adopt_former_ids(first);
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
                self.index_left |= prepared.lacks_index_fields();
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
                        if let Some(more) = self.corpus.reserve_for(expected) {
                            self.marks.reserve_exact(more);
                        }
                        self.search.reserve_for(expected);
                    }
                }
            }
            load::Event::Stored(papers, list) => self.receive_stored(papers, &list),
            load::Event::Report(r) => self.reports.push(r),
            // Only a load for titles alone hands titles on, and only a
            // search's load words indexed as parsed.
            load::Event::Titles(_) | load::Event::Words(_) => {}
            load::Event::Listed => {
                self.finish_list();
                self.record_seen();
            }
            load::Event::Index(index) => self.take_index(*index),
        }
    }

    /// Ends a streaming load: the list finished (when
    /// [`load::Event::Listed`] has not), and the abstracts indexed from now
    /// on unless a stored index came.
    pub fn finish_loading(&mut self) {
        self.finish_list();
        // Papers left for a stored index that did not come (it was over
        // other papers, or failed its checksums) are indexed after all.
        if std::mem::take(&mut self.index_left) && !self.index_stored {
            if self.corpus.papers.is_stored() {
                // Left in the cache: read on a thread of their own.
                self.search.index_stored_later(self.corpus.papers.clone());
            } else {
                self.search.index_later(0, &self.corpus.papers);
            }
        }
        self.search.hold_index(false);
    }

    /// Every paper is in: ids shortened and titles made unique now that
    /// the corpus is whole. When nothing loaded, the reader ends and
    /// [`App::failed`] says why. The abstracts stay unindexed until the
    /// load's end, as a stored index may still come.
    fn finish_list(&mut self) {
        if self.loading.take().is_none() {
            return;
        }
        self.search.reserve_for(0);
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
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::super::testing::*;
    use super::*;
    use crate::loading::Report;
    use crate::search::Scope;
    use crate::vocabulary::{Action, Message};

    #[test]
    fn papers_left_in_the_cache_are_listed_at_once_and_sorted_once_read() {
        let dir = tempfile::tempdir().unwrap();
        let mut papers = load::bundled().corpus.papers.into_vec();
        for (i, p) in papers.iter_mut().enumerate() {
            p.year = Some(2000 + (i * 7 % 38) as i32);
        }
        let (marked, selected) = (papers[5].id.to_string(), papers[30].id.to_string());
        {
            let (mut store, _) = crate::store::Store::open(dir.path());
            // The place is saved with the marks.
            store.set_place("streamed", Some(&selected), "all");
            store
                .set(&[(marked.as_str(), crate::store::Flag::Bookmark, true)])
                .unwrap();
        }
        let (mut app, stored) = stored_app(dir.path(), &papers);
        settle(&mut app);
        // Whole at once, with its marks and the paper selected before.
        assert!(app.progress().is_none());
        assert_eq!(app.rows(), 38);
        assert!(app.marks(5).bookmarked && !app.marks(4).bookmarked);
        assert_eq!(
            app.corpus().papers[app.selected_paper().unwrap()]
                .id
                .as_str(),
            selected
        );
        assert!(!stored.is_ready());
        // A sort by year waits for the papers, not the screen.
        app.apply(Action::CycleSort);
        assert_eq!(app.sort_key(), crate::order::SortKey::Year);
        assert!(app.status().unwrap().contains("once every paper is read"));
        let order = |app: &App| {
            (0..38)
                .map(|r| app.paper_at(r).unwrap())
                .collect::<Vec<_>>()
        };
        assert_eq!(order(&app), (0..38).collect::<Vec<_>>());
        assert!(!stored.is_ready());
        stored.decode_all();
        app.update(Message::Tick);
        assert_eq!(app.status(), Some("sorted by year"));
        let mut want: Vec<usize> = (0..38).collect();
        want.sort_by_key(|&i| std::cmp::Reverse(papers[i].year));
        assert_eq!(order(&app), want);
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
        app.update(Message::Load(events.next().unwrap()));
        app.update(Message::Load(events.next().unwrap()));
        settle(&mut app);
        assert_eq!(app.rows(), 20);
        assert_eq!(
            app.progress().map(|l| l.describe()).as_deref(),
            Some("loading 20/40")
        );
        // What the status line counts (see ui::status).
        assert_eq!(app.corpus().len(), 20);
        // The reader is in use meanwhile: a search over what is in.
        app.apply(Action::StartSearch);
        typed(&mut app, "jailbreak");
        let early = app.rows();
        app.update(Message::Load(events.next().unwrap()));
        settle(&mut app);
        assert!(app.rows() >= early);
        app.update(Message::Loaded);
        assert!(app.progress().is_none());
        settle(&mut app);
        let whole = crate::search::rank_papers(&app.corpus().papers, "jailbreak", Scope::Title);
        assert_eq!(app.rows(), whole.len());
        assert_eq!(app.corpus().len(), 38);
        assert_eq!(app.counts().total, 38);
        // The abstract index is built once the load is done.
        let deadline = Instant::now() + Duration::from_secs(10);
        while app.search().indexed().0 < 38 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(app.search().indexed(), (38, 38));
    }

    #[test]
    fn a_streamed_corpus_reopens_where_it_was_left() {
        let dir = tempfile::tempdir().unwrap();
        let (events, ids) = two_batches();
        let mut app = streaming_app(dir.path());
        for e in events {
            app.update(Message::Load(e));
        }
        app.update(Message::Loaded);
        settle(&mut app);
        app.apply(Action::Last);
        app.apply(Action::Up);
        assert_eq!(app.selected_paper(), Some(36));
        app.update(Message::Stopping);
        drop(app);
        // Reopened, doing `between` after the first batch.
        let reopened = |between: &dyn Fn(&mut App)| {
            let (events, _) = two_batches();
            let mut app = streaming_app(dir.path());
            let mut events = events.into_iter();
            app.update(Message::Load(events.next().unwrap()));
            settle(&mut app);
            between(&mut app);
            events.for_each(|e| {
                app.update(Message::Load(e));
            });
            settle(&mut app);
            app
        };
        // The paper is in the second batch, so the place waits for it;
        // quitting before it arrives keeps the place saved.
        let app = reopened(&|app| {
            app.update(Message::Stopping);
        });
        assert_eq!(app.selected_paper(), Some(36));
        assert_eq!(app.corpus().papers[36].id.to_string(), ids[36]);
        drop(app);
        // Moving before the paper arrives is the user's choice: it stands.
        let app = reopened(&|app| {
            app.apply(Action::Down);
        });
        assert_eq!(app.selected_paper(), Some(1));
    }

    #[test]
    fn a_load_that_finds_no_paper_ends_the_reader_with_why() {
        let dir = tempfile::tempdir().unwrap();
        let mut app = streaming_app(dir.path());
        app.update(Message::Load(load::Event::Report(Report {
            name: "empty.txt".into(),
            error: Some("empty file".into()),
            ..Report::default()
        })));
        app.update(Message::Loaded);
        assert!(app.quitting());
        let why = app.failed().map(ToString::to_string).unwrap();
        assert!(why.contains("empty.txt: empty file"), "{why}");
    }

    #[test]
    fn a_finished_load_says_what_loaded() {
        let dir = tempfile::tempdir().unwrap();
        let mut app = streamed_app(dir.path());
        app.update(Message::Load(load::Event::Report(Report {
            name: "a.txt".into(),
            papers: 38,
            ..Report::default()
        })));
        app.update(Message::Loaded);
        assert_eq!(app.status(), Some("a.txt: 38 papers"));
    }
}
