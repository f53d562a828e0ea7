//! The [`Search`] handle: the matcher as the reader uses it, a query in
//! and a ranking out a frame at a time, over a worker thread that ranks
//! and an indexer thread that builds the word index as papers arrive
//! (`worker`). The one-shot rankings a command makes on its own thread
//! are in `ranking`; the types both give (scopes, matches, rankings) are
//! the module's (`search/mod.rs`).

use super::*;
/// The matcher as the reader uses it: a query in, a ranking out, a frame at
/// a time.
pub struct Search {
    pub(super) shared: Arc<Inner>,
    handles: Vec<JoinHandle<()>>,
    to_indexer: Option<mpsc::Sender<ToIndex>>,
    current: Arc<Results>,
    query: String,
    scope: Scope,
    /// The query is being typed (see [`Search::type_query`]).
    typing: bool,
    parsed: Query,
    generation: u64,
    /// A matcher for highlighting the rows on screen.
    highlighter: std::cell::RefCell<(Matcher, Vec<char>)>,
}

impl Search {
    /// Starts the worker. `notify` is called (from the worker) when a new
    /// ranking is ready; use it to request a redraw.
    pub fn new(notify: impl Fn() + Send + Sync + 'static) -> Search {
        let shared = Arc::new(Inner {
            items: RwLock::new(Items::default()),
            index: RwLock::new(WordIndex::default()),
            labels: RwLock::new(Arc::new(Labels::default())),
            texts: RwLock::new(phrase::Texts::None),
            state: Mutex::new(State {
                job: None,
                items: 0,
                pending: Vec::new(),
                expected: 0,
                retitled: Vec::new(),
                shutdown: false,
            }),
            wake: Condvar::new(),
            latest: Mutex::new(Arc::new(Results::default())),
            generation: AtomicU64::new(0),
            notify: Box::new(notify),
            threads: match_threads(),
            hold: AtomicBool::new(false),
            #[cfg(test)]
            pause_after_page: AtomicBool::new(false),
        });
        let (tx, rx) = mpsc::channel();
        let mut handles = Vec::new();
        let s = shared.clone();
        handles.extend(
            std::thread::Builder::new()
                .name("paperboat-search".into())
                .spawn(move || worker(s))
                .ok(),
        );
        let s = shared.clone();
        handles.extend(
            std::thread::Builder::new()
                .name("paperboat-index".into())
                .spawn(move || indexer(s, rx))
                .ok(),
        );
        let mut search = Search {
            shared,
            handles,
            to_indexer: Some(tx),
            current: Arc::new(Results::default()),
            query: String::new(),
            scope: Scope::Title,
            typing: false,
            parsed: Query::default(),
            generation: 0,
            highlighter: std::cell::RefCell::new((Matcher::new(Config::DEFAULT), Vec::new())),
        };
        search.request();
        search
    }

    /// Adds papers to what is searched: their titles at once, their
    /// abstracts to the background index.
    pub fn extend(&mut self, papers: &[Paper]) {
        self.extend_prepared(Prepared::new(papers));
    }

    /// Adds papers prepared elsewhere (see [`Prepared`]).
    pub fn extend_prepared(&mut self, prepared: Prepared) {
        let first = {
            let Ok(mut st) = self.shared.state.lock() else {
                return;
            };
            let first = st.items;
            st.items += prepared.items.len();
            st.pending.push(prepared.items);
            first
        };
        if let Some(tx) = &self.to_indexer {
            let _ = tx.send((first as u32, prepared.metas, prepared.abstracts));
        }
        self.shared.wake.notify_all();
    }

    /// Adds the titles of a finished list (read back from the cache) as
    /// they lie, without the word index's share: a file whose index is
    /// stored ([`Search::install_index`]).
    pub fn extend_list(&mut self, list: &TitleList) {
        let items = list.merged_items().into_owned();
        if let Ok(mut st) = self.shared.state.lock() {
            st.items += items.len();
            st.pending.push(items);
        }
        self.shared.wake.notify_all();
    }

    /// [`Search::index_later`] for papers left in the cache (all of this
    /// search's papers), off the caller's thread: a thread of lowered
    /// priority waits for them to be decoded, then hands them to the
    /// background index a step at a time.
    pub fn index_stored_later(&mut self, papers: crate::corpus::Papers) {
        let Some(tx) = self.to_indexer.clone() else {
            return;
        };
        let _ = std::thread::Builder::new()
            .name("paperboat-index-feed".into())
            .spawn(move || {
                crate::parallel::lower_priority();
                let all: &[Paper] = &papers;
                for (k, step) in all.chunks(worker::INDEX_STEP).enumerate() {
                    let metas = step.iter().map(items::doc_meta).collect();
                    let abstracts = step.iter().map(|p| p.abstract_text.clone()).collect();
                    let first = (k * worker::INDEX_STEP) as u32;
                    if tx.send((first, metas, abstracts)).is_err() {
                        return;
                    }
                }
            });
    }

    /// Sends what the word index reads of `papers` (papers `first..`) to
    /// the background index: papers added without it
    /// ([`Prepared::titles`]) that no stored index came to cover after all.
    pub fn index_later(&mut self, first: usize, papers: &[Paper]) {
        if let Some(tx) = &self.to_indexer {
            let metas = papers.iter().map(items::doc_meta).collect();
            let abstracts = papers.iter().map(|p| p.abstract_text.clone()).collect();
            let _ = tx.send((first as u32, metas, abstracts));
        }
    }

    /// Says how many papers a load in progress will likely end with (the
    /// loader's `expected_papers` guesses it), so that room for their
    /// titles is made once rather than doubled as they come.
    pub fn reserve_for(&self, papers: usize) {
        if let Ok(mut st) = self.shared.state.lock() {
            st.expected = papers;
        }
        // The end of a load (0): a listing held back while it ran is due.
        self.shared.wake.notify_all();
    }

    /// Holds the abstract index back (while `hold`), so that loading and
    /// title search have the cores; abstracts added meanwhile are indexed
    /// once released.
    pub fn hold_index(&self, hold: bool) {
        self.shared.hold.store(hold, Ordering::Release);
    }

    /// Installs a word index built before (read back from the cache) over
    /// the first `index.indexed` papers, in place of a smaller one: the
    /// indexer passes over those papers, and the query runs again.
    pub fn install_index(&mut self, index: WordIndex) {
        let installed = match self.shared.index.write() {
            Ok(mut ix) if index.indexed > ix.indexed => {
                *ix = index;
                true
            }
            _ => false,
        };
        if installed {
            self.request();
        }
    }

    /// Reads phrases' abstracts from `papers` (the papers added, in
    /// order), whose index was installed rather than built here.
    pub fn keep_texts(&mut self, papers: &crate::corpus::Papers) {
        let texts = if papers.is_stored() {
            phrase::Texts::Stored(papers.clone())
        } else {
            phrase::Texts::Held(papers.iter().map(|p| p.abstract_text.clone()).collect())
        };
        if let Ok(mut t) = self.shared.texts.write() {
            *t = texts;
        }
    }

    /// A handle on the word index for another thread: to write it out
    /// once it is complete.
    pub fn index_handle(&self) -> IndexHandle {
        IndexHandle(self.shared.clone())
    }

    /// The papers' tags and notes (by index), for `tag:` and `note:`;
    /// a query that asks for them is run again.
    pub fn set_labels(&mut self, labels: Labels) {
        let changed = match self.shared.labels.write() {
            Ok(mut l) if **l != labels => {
                *l = Arc::new(labels);
                true
            }
            _ => false,
        };
        if changed && self.asks_labels() {
            self.request();
        }
    }

    /// Whether the query has a `tag:` or `note:` atom.
    pub fn asks_labels(&self) -> bool {
        self.parsed.asks_labels()
    }

    /// Papers whose title changed since they were added (made unique once
    /// the corpus is whole): the current query is run again.
    pub fn retitle(&mut self, papers: &[(usize, &str)]) {
        if papers.is_empty() {
            return;
        }
        if let Ok(mut st) = self.shared.state.lock() {
            st.retitled
                .extend(papers.iter().map(|&(i, t)| (i, t.to_string())));
        }
        self.request();
    }

    fn request(&mut self) {
        self.generation += 1;
        self.shared
            .generation
            .store(self.generation, Ordering::Release);
        if let Ok(mut st) = self.shared.state.lock() {
            st.job = Some(Job {
                generation: self.generation,
                query: self.query.clone(),
                scope: self.scope,
                typing: self.typing,
                needs_index: self.scope == Scope::All || !self.parsed.filters.is_empty(),
                filtered: !self.parsed.filters.is_empty(),
            });
        }
        self.shared.wake.notify_all();
    }

    /// Sets the query and scope, every word of it finished; a no-op when
    /// nothing changed.
    pub fn set_query(&mut self, query: &str, scope: Scope) {
        self.set(query, scope, false);
    }

    /// Sets the query as it is being typed: its last word, with no space
    /// after it, also matches the words it starts ([`Query::parse_typing`]).
    pub fn type_query(&mut self, query: &str, scope: Scope) {
        self.set(query, scope, true);
    }

    fn set(&mut self, query: &str, scope: Scope, typing: bool) {
        if query == self.query && scope == self.scope && typing == self.typing {
            return;
        }
        self.query = query.to_string();
        self.scope = scope;
        self.typing = typing;
        self.parsed = parse(query, typing);
        self.request();
    }

    /// True while the query is being typed (see [`Search::type_query`]).
    pub fn typing(&self) -> bool {
        self.typing
    }

    /// Picks up the newest ranking. True when it changed.
    pub fn tick(&mut self) -> bool {
        let latest = match self.shared.latest.lock() {
            Ok(l) => l.clone(),
            Err(_) => return false,
        };
        if Arc::ptr_eq(&latest, &self.current) {
            return false;
        }
        self.current = latest;
        true
    }

    fn target(&self) -> usize {
        self.shared.state.lock().map_or(0, |s| s.items)
    }

    /// True when the ranking reads the word index (the every-field scope,
    /// or field atoms and `|` groups).
    pub fn needs_index(&self) -> bool {
        self.scope == Scope::All || !self.parsed.filters.is_empty()
    }

    /// True when the newest published ranking (picked up or not) is
    /// complete for the current query over every paper added (and, where
    /// it reads the word index, every paper indexed).
    fn ready(&self) -> bool {
        let target = self.target();
        let indexed = if self.needs_index() { target } else { 0 };
        self.shared.latest.lock().is_ok_and(|l| {
            l.generation == self.generation
                && l.searched >= target
                && l.indexed >= indexed
                && l.complete()
        })
    }

    /// Waits (up to `timeout`) until a complete ranking answers the current
    /// query over every paper added; [`Search::tick`] then picks it up.
    pub fn wait(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        loop {
            if self.ready() {
                return true;
            }
            if Instant::now() > deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// True when the first page shown is final for the current query over
    /// every paper added (the rest may still be being sorted).
    pub fn first_page_final(&self) -> bool {
        let r = &self.current;
        r.generation == self.generation
            && (r.scanned || r.page_final)
            && r.searched >= self.target()
    }

    /// True while the ranking shown is older than the query or the corpus,
    /// or not yet fully sorted.
    pub fn is_running(&self) -> bool {
        !(self.first_page_final() && self.current.complete())
    }

    /// The ranking shown.
    pub fn results(&self) -> &Results {
        &self.current
    }

    /// Number of rows in the ranking shown: its matches, or the titles
    /// matched letter by letter for a word no paper holds.
    pub fn matched(&self) -> usize {
        self.current.matches.len()
    }

    /// Number of matches that count ([`Results::counted`]).
    pub fn counted(&self) -> usize {
        self.current.counted()
    }

    /// What the ranking shown says of its words.
    pub fn notes(&self) -> &Notes {
        &self.current.notes
    }

    /// The paper shown at `row`.
    pub fn get(&self, row: usize) -> Option<usize> {
        self.current.matches.get(row).map(|m| m.idx as usize)
    }

    /// The row at which paper `idx` is shown, if it matches.
    pub fn row_of(&self, idx: usize) -> Option<usize> {
        self.current
            .matches
            .iter()
            .position(|m| m.idx as usize == idx)
    }

    /// The query typed.
    pub fn query(&self) -> &str {
        &self.query
    }

    /// The scope in force.
    pub fn scope(&self) -> Scope {
        self.scope
    }

    /// The parsed current query.
    pub fn parsed(&self) -> &Query {
        &self.parsed
    }

    /// Papers whose abstracts are indexed, of those added.
    pub fn indexed(&self) -> (usize, usize) {
        indexed_of(&self.shared)
    }

    /// Highlight positions of the current query in a title (its readable
    /// text), as grapheme indices. Only called for rows on screen.
    pub fn title_highlights(&self, title_plain: &str, out: &mut Vec<u32>) {
        out.clear();
        if self.parsed.is_empty() {
            return;
        }
        let mut h = self.highlighter.borrow_mut();
        let (matcher, buf) = &mut *h;
        let hay = Utf32Str::new(title_plain, buf);
        self.parsed.title_indices(hay, matcher, out);
    }
}

impl Drop for Search {
    fn drop(&mut self) {
        self.shared.generation.store(u64::MAX, Ordering::Release);
        if let Ok(mut st) = self.shared.state.lock() {
            st.shutdown = true;
        }
        self.shared.wake.notify_all();
        self.to_indexer = None;
        for h in self.handles.drain(..) {
            let _ = h.join();
        }
    }
}

/// Papers whose abstracts are indexed, of those added.
fn indexed_of(shared: &Inner) -> (usize, usize) {
    let items = shared.state.lock().map_or(0, |s| s.items);
    let ix = shared.index.read().map_or(0, |ix| ix.indexed);
    (ix.min(items), items)
}

/// The matcher's word index, reachable from another thread (see
/// [`Search::index_handle`]).
#[derive(Clone)]
pub struct IndexHandle(Arc<Inner>);

impl PartialEq for IndexHandle {
    /// The same matcher's.
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for IndexHandle {}

impl std::fmt::Debug for WordIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "WordIndex({} papers)", self.indexed)
    }
}

impl std::fmt::Debug for IndexHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (indexed, papers) = self.indexed();
        write!(f, "IndexHandle({indexed}/{papers})")
    }
}

impl IndexHandle {
    /// Papers indexed, and papers added.
    pub fn indexed(&self) -> (usize, usize) {
        indexed_of(&self.0)
    }

    /// Writes the index in its on-disk form (see [`WordIndex::write_to`]);
    /// the bytes written.
    pub fn write_to(&self, out: &mut dyn std::io::Write) -> std::io::Result<u64> {
        match self.0.index.read() {
            Ok(ix) => ix.write_to(out),
            Err(_) => Err(std::io::Error::other("the index is unusable")),
        }
    }
}
