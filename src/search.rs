//! Matching queries against the corpus, off the UI thread.
//!
//! A [`Search`] owns a worker thread. The UI sets the query on every
//! keystroke and calls [`Search::tick`] once a frame to pick up the newest
//! finished ranking; it only ever reads the rows it shows. Matching uses
//! nucleo's matcher and fzf-style query syntax (`'exact`, `^prefix`,
//! `suffix$`, `!not`), smart case and Unicode normalisation, split over the
//! machine's cores. A query that extends the previous finished one (more
//! characters typed) only rescans that query's matches, and a new query
//! cancels the running one within a couple of thousand items.
//!
//! Scope [`Scope::Title`] fuzzy-matches titles. [`Scope::All`] asks that
//! every query word occur in the title (fuzzily) or in the abstract (as a
//! substring); papers whose title matches the whole query rank first.
//!
//! We drive nucleo's matcher ourselves rather than through its `Nucleo`
//! worker: that worker cannot express "title or abstract" per word (its
//! columns must all match), publishes nothing until a full pass and sort are
//! done, and blocks the caller while a cancelled pass winds down.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, RwLock};
use std::thread::JoinHandle;

use nucleo::pattern::{Atom, AtomKind, CaseMatching, Normalization};
use nucleo::{Config, Matcher, Utf32Str, Utf32String};

use crate::corpus::Paper;
use crate::text::markup;

/// What a query is matched against.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Scope {
    /// Titles only (fuzzy).
    #[default]
    Title,
    /// Titles and abstracts.
    All,
}

impl Scope {
    /// The other scope.
    pub fn toggled(self) -> Scope {
        match self {
            Scope::Title => Scope::All,
            Scope::All => Scope::Title,
        }
    }

    /// The name shown in the search line and accepted by `--scope`.
    pub fn name(self) -> &'static str {
        match self {
            Scope::Title => "title",
            Scope::All => "title+abstract",
        }
    }
}

/// One query word, ready to match a title and an abstract.
#[derive(Clone, Debug)]
struct Word {
    /// Matched against the title, as nucleo parses it.
    title: Atom,
    /// Matched against the abstract: a substring, same case rule.
    body: Atom,
    /// `^…`, `…$`: only the title has a start and an end.
    anchored: bool,
}

/// A parsed query.
#[derive(Clone, Debug, Default)]
pub struct Query {
    words: Vec<Word>,
}

/// Splits a query into words at unescaped spaces, as nucleo does.
fn query_words(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        match c {
            ' ' if !escaped => {
                if i > start {
                    out.push(&text[start..i]);
                }
                start = i + 1;
            }
            '\\' => {
                escaped = !escaped;
                continue;
            }
            _ => {}
        }
        escaped = false;
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

impl Query {
    /// Parses `text` with smart case and normalisation.
    pub fn parse(text: &str) -> Query {
        let mut words = Vec::new();
        for raw in query_words(text) {
            let mut title = Atom::parse(raw, CaseMatching::Smart, Normalization::Smart);
            if title.needle_text().is_empty() {
                continue;
            }
            let anchored = matches!(
                title.kind,
                AtomKind::Prefix | AtomKind::Postfix | AtomKind::Exact
            );
            // nucleo-matcher 0.3.1: with smart case an anchored atom holding
            // a capital only matches the whole string. Match it ignoring case.
            if anchored && raw.chars().any(char::is_uppercase) {
                title = Atom::parse(raw, CaseMatching::Ignore, Normalization::Smart);
            }
            let needle: String = title.needle_text().chars().collect();
            let case = if anchored && raw.chars().any(char::is_uppercase) {
                CaseMatching::Ignore
            } else {
                CaseMatching::Smart
            };
            let mut body = Atom::new(
                &needle,
                case,
                Normalization::Smart,
                AtomKind::Substring,
                false,
            );
            body.negative = title.negative;
            words.push(Word {
                title,
                body,
                anchored,
            });
        }
        Query { words }
    }

    /// True when the query matches everything.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// The title score, when every word matches the title.
    pub fn score_title(&self, title: Utf32Str<'_>, matcher: &mut Matcher) -> Option<u32> {
        let mut score = 0u32;
        for w in &self.words {
            score += u32::from(w.title.score(title, matcher)?);
        }
        Some(score)
    }

    /// Title-and-abstract match: every word in the title or the abstract.
    /// Returns the sort key (title matches of the whole query first).
    pub fn score_all(
        &self,
        title: Utf32Str<'_>,
        body: Utf32Str<'_>,
        matcher: &mut Matcher,
    ) -> Option<u32> {
        let mut score = 0u32;
        let mut all_in_title = true;
        for w in &self.words {
            if w.title.negative {
                w.title.score(title, matcher)?;
                if !w.anchored {
                    w.body.score(body, matcher)?;
                }
                continue;
            }
            match w.title.score(title, matcher) {
                Some(s) => score += u32::from(s),
                None => {
                    all_in_title = false;
                    if w.anchored {
                        return None;
                    }
                    w.body.score(body, matcher)?;
                }
            }
        }
        Some(score.min(TITLE_TIER - 1) + if all_in_title { TITLE_TIER } else { 0 })
    }

    /// Highlight positions (grapheme indices) of the query in `title`:
    /// sorted, each once.
    pub fn title_indices(&self, title: Utf32Str<'_>, matcher: &mut Matcher, out: &mut Vec<u32>) {
        out.clear();
        for w in &self.words {
            if w.title.negative {
                continue;
            }
            let before = out.len();
            if w.title.indices(title, matcher, out).is_none() {
                out.truncate(before);
            }
        }
        out.sort_unstable();
        out.dedup();
    }

    /// Where each positive word occurs in `text` as a substring: byte
    /// ranges, sorted, not overlapping. Used to highlight abstracts.
    pub fn occurrences(&self, text: &str) -> Vec<std::ops::Range<usize>> {
        let lower = text.to_lowercase();
        let same_len = lower.len() == text.len();
        let mut out: Vec<std::ops::Range<usize>> = Vec::new();
        for w in &self.words {
            if w.title.negative {
                continue;
            }
            let needle: String = w.body.needle_text().chars().collect();
            let smart_case = needle.chars().any(char::is_uppercase);
            let (hay, pat) = if smart_case || !same_len {
                (text, needle.clone())
            } else {
                (lower.as_str(), needle.to_lowercase())
            };
            if pat.is_empty() {
                continue;
            }
            out.extend(hay.match_indices(&pat).map(|(p, m)| p..p + m.len()));
        }
        out.sort_by_key(|r| (r.start, std::cmp::Reverse(r.end)));
        let mut merged: Vec<std::ops::Range<usize>> = Vec::new();
        for r in out {
            match merged.last_mut() {
                Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
                _ => merged.push(r),
            }
        }
        merged
    }
}

/// Sort keys at or above this are papers whose title matched the whole query.
const TITLE_TIER: u32 = 1 << 31;

/// True when every paper matching `new` also matches `old`, so `new` need
/// only rescan `old`'s matches: more characters typed at the end, unless
/// that edits a negated word (`!ab` excludes less than `!a`) or turns an
/// anchor or escape into a literal.
pub fn extends(new: &str, old: &str) -> bool {
    if !new.starts_with(old) || old.ends_with(['$', '\\']) {
        return false;
    }
    if new.len() > old.len()
        && !old.ends_with(' ')
        && !new[old.len()..].starts_with(' ')
        && let Some(last) = query_words(old).last()
        && last.starts_with('!')
        && last.len() > 1
    {
        return false;
    }
    true
}

/// A matched paper and its sort key.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Match {
    /// The paper's index in the corpus.
    pub idx: u32,
    /// Higher is better.
    pub score: u32,
}

impl Match {
    /// The match score as fzf would print it (the title-first tier of
    /// title-and-abstract search left out).
    pub fn points(&self) -> u32 {
        self.score & (TITLE_TIER - 1)
    }
}

/// A finished ranking.
#[derive(Debug, Default)]
pub struct Results {
    /// The request it answers.
    pub generation: u64,
    /// The query text.
    pub query: String,
    /// The scope.
    pub scope: Scope,
    /// Matches, best first (corpus order for an empty query).
    pub matches: Vec<Match>,
    /// How many papers were searched.
    pub searched: usize,
}

/// What the matcher keeps of each paper: the readable title and abstract.
#[derive(Default)]
struct Items {
    titles: Vec<Utf32String>,
    bodies: Vec<Box<str>>,
}

#[derive(Clone)]
struct Job {
    generation: u64,
    query: String,
    scope: Scope,
}

struct State {
    job: Option<Job>,
    items: usize,
    shutdown: bool,
}

struct Shared {
    items: RwLock<Items>,
    state: Mutex<State>,
    wake: Condvar,
    latest: Mutex<Arc<Results>>,
    generation: AtomicU64,
    notify: Box<dyn Fn() + Send + Sync>,
    threads: usize,
}

/// Threads that match: the machine's cores, never zero.
fn match_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(1, 16)
}

/// Below this many candidates one thread is faster than several.
const PARALLEL_MIN: usize = 8_192;
/// Items matched between checks for a newer request.
const CANCEL_EVERY: usize = 2_048;

/// Matches `candidates` (or every item when `None`) and returns them
/// ranked; `None` when `cancelled` turned true on the way.
fn rank(
    items: &Items,
    query: &Query,
    scope: Scope,
    candidates: Option<&[Match]>,
    matchers: &mut [Matcher],
    cancelled: &(dyn Fn() -> bool + Sync),
) -> Option<Vec<Match>> {
    let n = items.titles.len();
    if query.is_empty() {
        return Some((0..n as u32).map(|idx| Match { idx, score: 0 }).collect());
    }
    let total = candidates.map_or(n, <[Match]>::len);
    let id_at = |k: usize| candidates.map_or(k as u32, |c| c[k].idx);
    let work = |range: std::ops::Range<usize>, matcher: &mut Matcher| -> Option<Vec<Match>> {
        let mut out = Vec::new();
        let mut buf = Vec::new();
        for (n_done, k) in range.enumerate() {
            if n_done % CANCEL_EVERY == 0 && cancelled() {
                return None;
            }
            let idx = id_at(k);
            let title = items.titles[idx as usize].slice(..);
            let score = match scope {
                Scope::Title => query.score_title(title, matcher),
                Scope::All => {
                    let body = Utf32Str::new(&items.bodies[idx as usize], &mut buf);
                    query.score_all(title, body, matcher)
                }
            };
            if let Some(score) = score {
                out.push(Match { idx, score });
            }
        }
        Some(out)
    };
    let threads = matchers.len().min(total.div_ceil(PARALLEL_MIN)).max(1);
    let mut matches = if threads == 1 {
        work(0..total, &mut matchers[0])?
    } else {
        let chunk = total.div_ceil(threads);
        let parts: Vec<Option<Vec<Match>>> = std::thread::scope(|s| {
            let handles: Vec<_> = matchers
                .iter_mut()
                .take(threads)
                .enumerate()
                .map(|(t, m)| {
                    let range = t * chunk..((t + 1) * chunk).min(total);
                    let work = &work;
                    s.spawn(move || work(range, m))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or(None))
                .collect()
        });
        let mut all = Vec::new();
        for p in parts {
            all.extend(p?);
        }
        all
    };
    sort(&mut matches, items);
    Some(matches)
}

/// Best score first; then the shorter title; then corpus order.
fn sort(matches: &mut [Match], items: &Items) {
    matches.sort_unstable_by(|a, b| {
        b.score
            .cmp(&a.score)
            .then_with(|| {
                items.titles[a.idx as usize]
                    .len()
                    .cmp(&items.titles[b.idx as usize].len())
            })
            .then_with(|| a.idx.cmp(&b.idx))
    });
}

fn worker(shared: Arc<Shared>) {
    let mut matchers: Vec<Matcher> = (0..shared.threads)
        .map(|_| Matcher::new(Config::DEFAULT))
        .collect();
    let mut done: Option<Arc<Results>> = None;
    loop {
        let job = {
            let Ok(mut st) = shared.state.lock() else {
                return;
            };
            loop {
                if st.shutdown {
                    return;
                }
                let stale = match (&st.job, &done) {
                    (Some(j), Some(d)) => j.generation != d.generation || d.searched < st.items,
                    (Some(_), None) => true,
                    (None, _) => false,
                };
                if stale {
                    break st.job.clone();
                }
                st = match shared.wake.wait(st) {
                    Ok(st) => st,
                    Err(_) => return,
                };
            }
        };
        let Some(job) = job else { continue };
        let Ok(items) = shared.items.read() else {
            return;
        };
        let n = items.titles.len();
        let query = Query::parse(&job.query);
        let cancelled = || shared.generation.load(Ordering::Acquire) != job.generation;
        // Reuse what is already known: the same query over fewer items, or a
        // query this one extends.
        let prev = done
            .as_ref()
            .filter(|d| d.scope == job.scope && extends(&job.query, &d.query) && !query.is_empty());
        let ranked = match prev {
            Some(prev) => {
                let mut candidates: Vec<Match> = if prev.query == job.query {
                    Vec::new()
                } else {
                    prev.matches.clone()
                };
                candidates
                    .extend((prev.searched as u32..n as u32).map(|idx| Match { idx, score: 0 }));
                let fresh = rank(
                    &items,
                    &query,
                    job.scope,
                    Some(&candidates),
                    &mut matchers,
                    &cancelled,
                );
                fresh.map(|mut fresh| {
                    if prev.query == job.query {
                        fresh.extend_from_slice(&prev.matches);
                        sort(&mut fresh, &items);
                    }
                    fresh
                })
            }
            None => rank(&items, &query, job.scope, None, &mut matchers, &cancelled),
        };
        drop(items);
        let Some(matches) = ranked else { continue };
        let results = Arc::new(Results {
            generation: job.generation,
            query: job.query.clone(),
            scope: job.scope,
            matches,
            searched: n,
        });
        if let Ok(mut latest) = shared.latest.lock() {
            *latest = results.clone();
        }
        done = Some(results);
        (shared.notify)();
    }
}

/// The matcher as the reader uses it: a query in, a ranking out, a frame at
/// a time.
pub struct Search {
    shared: Arc<Shared>,
    handle: Option<JoinHandle<()>>,
    current: Arc<Results>,
    query: String,
    scope: Scope,
    parsed: Query,
    generation: u64,
    /// A matcher for highlighting the rows on screen.
    highlighter: std::cell::RefCell<(Matcher, Vec<char>)>,
}

impl Search {
    /// Starts the worker. `notify` is called (from the worker) when a new
    /// ranking is ready; use it to request a redraw.
    pub fn new(notify: impl Fn() + Send + Sync + 'static) -> Search {
        let shared = Arc::new(Shared {
            items: RwLock::new(Items::default()),
            state: Mutex::new(State {
                job: None,
                items: 0,
                shutdown: false,
            }),
            wake: Condvar::new(),
            latest: Mutex::new(Arc::new(Results::default())),
            generation: AtomicU64::new(0),
            notify: Box::new(notify),
            threads: match_threads(),
        });
        let worker_shared = shared.clone();
        let handle = std::thread::Builder::new()
            .name("paperboat-search".into())
            .spawn(move || worker(worker_shared))
            .ok();
        let mut search = Search {
            shared,
            handle,
            current: Arc::new(Results::default()),
            query: String::new(),
            scope: Scope::Title,
            parsed: Query::default(),
            generation: 0,
            highlighter: std::cell::RefCell::new((Matcher::new(Config::DEFAULT), Vec::new())),
        };
        search.request();
        search
    }

    /// Adds papers to what is searched.
    pub fn extend(&mut self, papers: &[Paper]) {
        let total = {
            let Ok(mut items) = self.shared.items.write() else {
                return;
            };
            for p in papers {
                items
                    .titles
                    .push(Utf32String::from(markup::plain(&p.title)));
                items
                    .bodies
                    .push(markup::plain(&p.abstract_text).into_boxed_str());
            }
            items.titles.len()
        };
        if let Ok(mut st) = self.shared.state.lock() {
            st.items = total;
        }
        self.shared.wake.notify_all();
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
            });
        }
        self.shared.wake.notify_all();
    }

    /// Sets the query and scope; a no-op when neither changed.
    pub fn set_query(&mut self, query: &str, scope: Scope) {
        if query == self.query && scope == self.scope {
            return;
        }
        self.query = query.to_string();
        self.scope = scope;
        self.parsed = Query::parse(query);
        self.request();
    }

    /// Picks up the newest finished ranking. True when it changed.
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

    /// True when the newest published ranking (picked up or not) answers
    /// the current query over every paper added.
    fn ready(&self) -> bool {
        let items = self.shared.state.lock().map_or(0, |s| s.items);
        self.shared
            .latest
            .lock()
            .is_ok_and(|l| l.generation == self.generation && l.searched >= items)
    }

    /// Waits (up to `timeout`) until a ranking answers the current query
    /// over every paper added; [`Search::tick`] then picks it up. For tests.
    pub fn wait(&self, timeout: std::time::Duration) -> bool {
        let deadline = std::time::Instant::now() + timeout;
        loop {
            if self.ready() {
                return true;
            }
            if std::time::Instant::now() > deadline {
                return false;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }

    /// True when the first page shown is the final one for the current
    /// query over every paper added (picked up by [`Search::tick`]).
    pub fn first_page_final(&self) -> bool {
        !self.is_running()
    }

    /// True while the shown ranking is older than the query or the corpus.
    pub fn is_running(&self) -> bool {
        let items = self.shared.state.lock().map_or(0, |s| s.items);
        self.current.generation != self.generation || self.current.searched < items
    }

    /// The ranking shown.
    pub fn results(&self) -> &Results {
        &self.current
    }

    /// Number of matches in the ranking shown.
    pub fn matched(&self) -> usize {
        self.current.matches.len()
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
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

/// Ranks `papers` for `query` on this thread's caller, using every core:
/// the engine behind `paperboat search`.
pub fn rank_papers(papers: &[Paper], query: &str, scope: Scope) -> Vec<Match> {
    let mut items = Items::default();
    for p in papers {
        items
            .titles
            .push(Utf32String::from(markup::plain(&p.title)));
        if scope == Scope::All {
            items
                .bodies
                .push(markup::plain(&p.abstract_text).into_boxed_str());
        }
    }
    let mut matchers: Vec<Matcher> = (0..match_threads())
        .map(|_| Matcher::new(Config::DEFAULT))
        .collect();
    rank(
        &items,
        &Query::parse(query),
        scope,
        None,
        &mut matchers,
        &|| false,
    )
    .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn paper(title: &str, abs: &str) -> Paper {
        crate::corpus::Record {
            title: Some(title.into()),
            abstract_text: Some(abs.into()),
            ..Default::default()
        }
        .into_paper(&"t".into(), 0)
        .unwrap()
    }

    fn titles(papers: &[Paper], q: &str, scope: Scope) -> Vec<String> {
        rank_papers(papers, q, scope)
            .iter()
            .map(|m| papers[m.idx as usize].title.clone())
            .collect()
    }

    fn corpus() -> Vec<Paper> {
        vec![
            paper(
                "Sparse attention for long contexts",
                "We make attention cheap.",
            ),
            paper(
                "Dense retrieval",
                "Retrieval with sparse codes and attention.",
            ),
            paper("Reinforcement learning from verifiable rewards", "RLVR."),
            paper("SparseNet", "A net."),
        ]
    }

    #[test]
    fn empty_query_is_corpus_order() {
        let c = corpus();
        assert_eq!(
            titles(&c, "", Scope::Title),
            c.iter().map(|p| p.title.clone()).collect::<Vec<_>>()
        );
    }

    #[test]
    fn fuzzy_title_match_ranks_best_first() {
        let c = corpus();
        let t = titles(&c, "sprs", Scope::Title);
        assert_eq!(t.len(), 2);
        assert!(t.contains(&"SparseNet".to_string()));
        assert_eq!(
            titles(&c, "rl", Scope::Title)[0],
            "Reinforcement learning from verifiable rewards"
        );
    }

    #[test]
    fn atoms() {
        let c = corpus();
        assert_eq!(
            titles(&c, "'attention", Scope::Title),
            vec!["Sparse attention for long contexts"]
        );
        assert_eq!(
            titles(&c, "sparse !attention", Scope::Title),
            vec!["SparseNet"]
        );
        assert_eq!(titles(&c, "^dense", Scope::Title), vec!["Dense retrieval"]);
        assert_eq!(
            titles(&c, "rewards$", Scope::Title),
            vec!["Reinforcement learning from verifiable rewards"]
        );
    }

    #[test]
    fn regression_anchored_atom_with_capital_matches_a_prefix() {
        // nucleo-matcher 0.3.1 with smart case only matched `^Sparse` against
        // a title that is exactly "Sparse".
        let c = corpus();
        assert_eq!(titles(&c, "^Sparse", Scope::Title).len(), 2);
        assert_eq!(titles(&c, "Net$", Scope::Title), vec!["SparseNet"]);
    }

    #[test]
    fn all_scope_needs_every_word_in_title_or_abstract_and_ranks_titles_first() {
        let c = corpus();
        let t = titles(&c, "sparse attention", Scope::All);
        assert_eq!(
            t,
            vec!["Sparse attention for long contexts", "Dense retrieval"]
        );
        assert!(titles(&c, "cheap", Scope::Title).is_empty());
        assert_eq!(
            titles(&c, "cheap", Scope::All),
            vec!["Sparse attention for long contexts"]
        );
        assert!(titles(&c, "cheap !attention", Scope::All).is_empty());
    }

    #[test]
    fn extends_is_conservative() {
        assert!(extends("spar", "spa"));
        assert!(extends("spa x", "spa"));
        assert!(extends("spa !x", "spa "));
        assert!(!extends("spa !xy", "spa !x"));
        assert!(extends("spa !x y", "spa !x "));
        assert!(!extends("net$x", "net$"));
        assert!(!extends("sp", "spa"));
        assert!(!extends("a\\ b", "a\\"));
    }

    #[test]
    fn worker_ranks_and_narrows() {
        let mut s = Search::new(|| {});
        s.extend(&corpus());
        assert!(s.wait(Duration::from_secs(5)));
        s.tick();
        assert_eq!(s.matched(), 4);
        for q in ["s", "sp", "spa", "spar", "spars", "sparse"] {
            s.set_query(q, Scope::Title);
        }
        assert!(s.wait(Duration::from_secs(5)));
        s.tick();
        assert_eq!(s.matched(), 2);
        assert_eq!(s.results().query, "sparse");
        s.set_query("sparse", Scope::All);
        assert!(s.wait(Duration::from_secs(5)));
        s.tick();
        assert_eq!(s.matched(), 3);
        s.extend(&[paper("Sparse again", "x")]);
        assert!(s.wait(Duration::from_secs(5)));
        s.tick();
        assert_eq!(s.matched(), 4);
    }

    #[test]
    fn highlights_are_sorted_graphemes() {
        let mut s = Search::new(|| {});
        s.set_query("sa", Scope::Title);
        let mut out = Vec::new();
        s.title_highlights("Sparse attention", &mut out);
        assert_eq!(out, vec![0, 7], "the start of a word beats the next letter");
        s.title_highlights("π sa", &mut out);
        assert_eq!(out, vec![2, 3]);
    }

    #[test]
    fn occurrences_in_abstracts() {
        let q = Query::parse("att sparse !dense");
        let text = "Sparse attention and sparse codes";
        let r = q.occurrences(text);
        assert_eq!(
            r.iter().map(|r| &text[r.clone()]).collect::<Vec<_>>(),
            vec!["Sparse", "att", "sparse"]
        );
    }
}
