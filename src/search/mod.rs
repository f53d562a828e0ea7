//! Matching queries against the corpus, off the UI thread.
//!
//! A [`Search`] owns a worker thread and an indexer thread. The UI sets the
//! query on every keystroke and calls [`Search::tick`] once a frame to pick
//! up the newest ranking; it only ever reads the rows it shows. Matching
//! uses nucleo's matcher and fzf-style query syntax ([`Query`]).
//!
//! What makes it fast at a million titles:
//! - a character mask per title rules most titles out before scoring;
//! - ASCII titles are scored by [`fuzzy`] (nucleo's score, without its
//!   per-title set-up); titles lie end to end in one buffer;
//! - a query that extends the previous finished one (more characters
//!   typed) rescans only that query's matches, in the papers' order;
//! - a pass only finds the first page: titles that cannot reach the score
//!   the best page so far holds are only checked to match ([`Floor`]), and
//!   a word whole at the start of a title's word scores the most without
//!   working it out;
//! - the scan is split over the cores, and a newer query cancels it within
//!   a couple of thousand titles;
//! - the best page is kept as the scan goes and published every few frames
//!   (partial results), then once more as soon as the scan ends (the final
//!   first page); the rest of the ranking is scored and sorted after it,
//!   once typing pauses.
//!
//! Scope [`Scope::Title`] fuzzy-matches titles. [`Scope::All`] asks that
//! every query word occur in the title (fuzzily) or start a word of the
//! abstract; papers whose title matches the whole query rank first. The
//! abstracts are never scanned per keystroke: an inverted index of their
//! words is built in the background as papers arrive.
//!
//! We drive nucleo's matcher ourselves rather than through its `Nucleo`
//! worker: that worker cannot express "title or abstract" per word (its
//! columns must all match), publishes nothing until a full pass and sort are
//! done, and leaves no room for a prefilter or for narrowing.

pub mod fuzzy;
pub mod index;
pub mod query;
mod title_list;
mod titles;

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex, OnceLock, RwLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use nucleo::{Config, Matcher, Utf32Str, Utf32String};

use crate::corpus::{Abstract, Paper};
use crate::text::markup;
use index::{Bits, Chars, WordIndex, title_mask};
use query::TITLE_TIER;
pub use query::{Query, extends};
pub use title_list::TitleList;
pub use titles::{TitleIndex, prefetch, retain_kept, retain_sparse, set_sparse};

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

    /// The name shown in the search line.
    pub fn name(self) -> &'static str {
        match self {
            Scope::Title => "title",
            Scope::All => "title+abstract",
        }
    }
}

/// A matched paper and its sort key.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Match {
    /// Score in the high half, shorter titles first in the low half.
    pub key: u64,
    /// The paper's index in the corpus.
    pub idx: u32,
    /// Title scope: the score of every query word but the last, so that a
    /// query that changes only its last word (or adds one) need not score
    /// the others again.
    head: u32,
}

impl Match {
    fn new(idx: u32, score: u32, len: u16) -> Match {
        Match {
            key: (u64::from(score) << 32) | (u64::from(u16::MAX - len) << 16),
            idx,
            head: 0,
        }
    }

    /// A match whose score is only known to be at most `bound`, and the
    /// score of every query word but the last where that is known.
    fn bounded(idx: u32, bound: u32, len: u16, head: Option<u32>) -> Match {
        Match {
            head: head.filter(|&h| h < BOUND).map_or(NO_HEAD, |h| h | BOUND),
            ..Match::new(idx, bound, len)
        }
    }

    /// False for a match that holds only a bound on its score (see
    /// [`Floor`]); true for every match of a finished ranking.
    pub fn is_exact(&self) -> bool {
        self.head & BOUND == 0
    }

    /// The score of every query word but the last (title scope), where
    /// known: always for a scored match, and for most bounded ones.
    fn head_score(&self) -> Option<u32> {
        (self.head != NO_HEAD).then_some(self.head & !BOUND)
    }

    /// A candidate not yet scored.
    fn unscored(idx: u32) -> Match {
        Match {
            key: 0,
            idx,
            head: 0,
        }
    }

    /// The score as the ranking used it.
    pub fn score(&self) -> u32 {
        (self.key >> 32) as u32
    }

    /// The match score as fzf would print it (the title-first tier of
    /// title-and-abstract search left out).
    pub fn points(&self) -> u32 {
        self.score() & (TITLE_TIER - 1)
    }
}

/// Set in [`Match::head`] of a match that holds only a bound.
const BOUND: u32 = 1 << 31;
/// [`Match::head`] of a bounded match whose head score is not known.
const NO_HEAD: u32 = u32::MAX;

/// Best first; ties by input order.
fn order(a: &Match, b: &Match) -> std::cmp::Ordering {
    b.key.cmp(&a.key).then(a.idx.cmp(&b.idx))
}

/// A ranking, possibly still being made.
#[derive(Debug, Default)]
pub struct Results {
    /// The request it answers.
    pub generation: u64,
    /// The query text.
    pub query: String,
    /// The scope.
    pub scope: Scope,
    /// Matches: the first [`Results::sorted`] in their final order.
    pub matches: Vec<Match>,
    /// How many papers were searched.
    pub searched: usize,
    /// How many leading matches are in final order.
    pub sorted: usize,
    /// False while the scan runs: `matches` is then the best page so far.
    pub scanned: bool,
}

impl Results {
    /// True when every match is in final order.
    pub fn complete(&self) -> bool {
        self.scanned && self.sorted >= self.matches.len()
    }
}

/// Rows kept in order while the scan runs, and sorted first when it ends.
pub const FIRST_PAGE: usize = 512;

/// Where a title's text is kept in [`Items`].
#[derive(Clone, Copy, Debug)]
struct Span {
    start: usize,
    len: u32,
    /// In [`Items::wide`] rather than [`Items::ascii`].
    wide: bool,
}

/// What the matcher keeps of each paper's title. The titles' text lies
/// end to end in two buffers rather than in an allocation each, so that a
/// pass reads memory in order instead of chasing a pointer per title.
#[derive(Default)]
struct Items {
    /// ASCII titles' bytes.
    ascii: Vec<u8>,
    /// Other titles, a character per grapheme (as nucleo matches them).
    wide: Vec<char>,
    spans: Vec<Span>,
    masks: Vec<Chars>,
}

impl Items {
    /// How many titles there are.
    fn len(&self) -> usize {
        self.spans.len()
    }

    /// The length of title `i` as ranking ties count it.
    fn title_len(&self, i: usize) -> u16 {
        self.spans[i].len.min(u32::from(u16::MAX)) as u16
    }

    /// Title `i` as the matcher reads it.
    fn title(&self, i: usize) -> Utf32Str<'_> {
        let s = self.spans[i];
        if s.wide {
            Utf32Str::Unicode(&self.wide[s.start..][..s.len as usize])
        } else {
            Utf32Str::Ascii(&self.ascii[s.start..][..s.len as usize])
        }
    }

    /// Stores one title's readable text; its span and masks.
    fn store(&mut self, title: &str) -> (Span, Chars) {
        self.store_plain(&markup::plain_cow(title))
    }

    /// [`Items::store`] for a title made readable already.
    fn store_plain(&mut self, plain: &str) -> (Span, Chars) {
        let mut mask = Chars::wide(title_mask(plain));
        let span = if plain.is_ascii() {
            let start = self.ascii.len();
            self.ascii.extend_from_slice(plain.as_bytes());
            mask = Chars::ascii(plain.as_bytes(), mask.all);
            Span {
                start,
                len: (self.ascii.len() - start) as u32,
                wide: false,
            }
        } else {
            let start = self.wide.len();
            match Utf32String::from(plain) {
                Utf32String::Ascii(text) => self.wide.extend(text.chars()),
                Utf32String::Unicode(chars) => self.wide.extend_from_slice(&chars),
            }
            Span {
                start,
                len: (self.wide.len() - start) as u32,
                wide: true,
            }
        };
        (span, mask)
    }

    fn push(&mut self, title: &str) {
        self.push_plain(&markup::plain_cow(title));
    }

    /// Adds a title known to be ASCII, with its mask.
    fn push_ascii(&mut self, text: &[u8], mask: u64) {
        let start = self.ascii.len();
        self.ascii.extend_from_slice(text);
        self.spans.push(Span {
            start,
            len: text.len() as u32,
            wide: false,
        });
        self.masks.push(Chars::ascii(text, mask));
    }

    fn push_plain(&mut self, plain: &str) {
        let (span, mask) = self.store_plain(plain);
        self.spans.push(span);
        self.masks.push(mask);
    }

    /// Replaces title `i` (its old text stays in the buffer unused:
    /// titles change rarely).
    fn set(&mut self, i: usize, title: &str) {
        if i < self.len() {
            (self.spans[i], self.masks[i]) = self.store(title);
        }
    }

    /// The titles of `papers`, converted on up to `threads` threads.
    fn build<T: Sync>(all: &[T], threads: usize, title: impl Fn(&T) -> &str + Sync) -> Items {
        let one = |part: &[T]| {
            let mut items = Items::default();
            for t in part {
                items.push(title(t));
            }
            items
        };
        if threads <= 1 || all.len() < 16_384 {
            return one(all);
        }
        let mut parts = crate::parallel::map_split(all, threads, |_, part| one(part)).into_iter();
        // The first part is the start: only the others are copied.
        let mut items = parts.next().unwrap_or_default();
        for p in parts {
            items.append(p);
        }
        items
    }

    fn append(&mut self, other: Items) {
        self.append_expecting(other, 0);
    }

    /// [`Items::append`], when about `papers` titles will be held in all:
    /// what must grow is given room for them (and 5% more) rather than
    /// doubled, so that a million titles are neither copied each time
    /// they double nor take twice their room.
    fn append_expecting(&mut self, other: Items, papers: usize) {
        let n = self.len() + other.len();
        if papers > n {
            let room = papers + papers / 20;
            if self.spans.capacity() < n {
                self.spans.reserve_exact(room - self.spans.len());
                self.masks.reserve_exact(room - self.masks.len());
            }
            let bytes = self.ascii.len() + other.ascii.len();
            if self.ascii.capacity() < bytes {
                let want = (bytes as f64 / n as f64 * room as f64) as usize;
                self.ascii.reserve_exact(want.max(bytes) - self.ascii.len());
            }
        }
        let (ascii, wide) = (self.ascii.len(), self.wide.len());
        self.spans.extend(other.spans.iter().map(|s| Span {
            start: s.start + if s.wide { wide } else { ascii },
            ..*s
        }));
        self.ascii.extend_from_slice(&other.ascii);
        self.wide.extend_from_slice(&other.wide);
        self.masks.extend(other.masks);
    }
}

/// Papers made ready for the matcher (titles converted, abstracts
/// rendered for the index): work that can run on the thread that loads
/// them, so that adding a million papers costs the UI thread next to
/// nothing.
#[derive(Default)]
pub struct Prepared {
    items: Items,
    /// The abstracts, shared with the papers (indexed later, on the
    /// indexer's threads).
    abstracts: Vec<Abstract>,
}

impl Prepared {
    /// Prepares `papers`.
    pub fn new(papers: &[Paper]) -> Prepared {
        // Room for the titles as given (their plain text is about as
        // long), so that the buffer is not grown and copied as they come.
        let mut items = Items::default();
        items.spans.reserve_exact(papers.len());
        items.masks.reserve_exact(papers.len());
        items
            .ascii
            .reserve_exact(papers.iter().map(|p| p.title.len()).sum());
        for p in papers {
            items.push(&p.title);
        }
        Prepared {
            items,
            abstracts: papers.iter().map(|p| p.abstract_text.clone()).collect(),
        }
    }
}

#[derive(Clone)]
struct Job {
    generation: u64,
    query: String,
    scope: Scope,
}

struct State {
    job: Option<Job>,
    /// Papers added, pending ones included.
    items: usize,
    /// Titles added but not yet moved into [`Shared::items`]: the worker
    /// moves them in between passes, so adding never waits for a pass.
    pending: Vec<Items>,
    /// Titles changed since they were added, applied the same way.
    retitled: Vec<(usize, String)>,
    /// The papers a load in progress expects to end with (0 when none).
    expected: usize,
    shutdown: bool,
}

impl State {
    fn has_pending(&self) -> bool {
        !self.pending.is_empty() || !self.retitled.is_empty()
    }
}

struct Shared {
    items: RwLock<Items>,
    index: RwLock<WordIndex>,
    state: Mutex<State>,
    wake: Condvar,
    latest: Mutex<Arc<Results>>,
    generation: AtomicU64,
    notify: Box<dyn Fn() + Send + Sync>,
    threads: usize,
    /// While set, the indexer waits (the corpus is still loading).
    hold: AtomicBool,
}

impl Shared {
    /// Papers a scope can search now: every title; for abstracts, those
    /// indexed so far.
    fn searchable(&self, scope: Scope, items: usize) -> usize {
        match scope {
            Scope::Title => items,
            Scope::All => self.index.read().map_or(0, |ix| ix.indexed.min(items)),
        }
    }

    fn publish(&self, results: Results) -> Arc<Results> {
        let arc = Arc::new(results);
        let mut old = None;
        if let Ok(mut latest) = self.latest.lock() {
            // A late sorter never replaces a newer query's ranking.
            if arc.generation >= latest.generation {
                old = Some(std::mem::replace(&mut *latest, arc.clone()));
            }
        }
        // Freed, where it is the last, with the lock let go.
        drop(old);
        (self.notify)();
        arc
    }
}

/// Threads that match: the machine's cores, never zero.
fn match_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(1, 16)
}

/// Candidates a matching thread takes at a time: at most this many, and
/// at least eight slices a thread where a pass is large enough, since the
/// titles that must be scored whole can lie close together (one thread's
/// slice of them was the pass's last third).
const SLICE: usize = 8_192;
/// See [`SLICE`].
const SLICE_MIN: usize = 1_024;
/// Below this many candidates one thread is faster than several.
const PARALLEL_MIN: usize = 8_192;
/// Items matched between checks for a newer request.
const CANCEL_EVERY: usize = 1_024;
/// The rows past the first page are sorted once no keystroke came for
/// this long.
const SORT_AFTER: Duration = Duration::from_millis(30);
/// Partial results are published at most this often.
const PARTIAL_EVERY: Duration = Duration::from_millis(30);

/// What a ranking pass needs.
struct Pass<'a> {
    items: &'a Items,
    query: &'a Query,
    scope: Scope,
    /// Per query word: the papers whose abstract holds it (All scope).
    abstracts: Vec<Bits>,
    need: u64,
    /// Candidates, or `None` for papers `0..n`.
    candidates: Option<&'a [Match]>,
    n: usize,
    /// What the first `reused` candidates (the previous query's matches)
    /// already know of this query's score.
    reuse: Option<Reuse>,
    reused: usize,
    /// How much more than the previous query this one can score on any
    /// title, where that is known ([`Query::growth_over`]).
    growth: Option<u32>,
    /// `Some` when the pass need only find the first page ([`Floor`]).
    floor: Option<Floor>,
}

/// The score at least [`FIRST_PAGE`] titles are known to reach, raised as
/// a pass scores them: a title that cannot reach it is not on the first
/// page. Such a title is only checked to match, and kept with a bound on
/// its score ([`Match::bounded`]) until [`settle`] scores it, after the
/// first page is shown. Its score is bounded by its previous score plus
/// the query's growth, or by what the last word could add to what the
/// others scored (at most [`fuzzy::MAX_PER_CHAR`] a character, and only
/// where the word starts a word of the title whole: [`fuzzy::Scored`]).
/// On a hundred thousand titles this leaves most of them unscored from
/// the second letter of a word on.
#[derive(Debug, Default)]
struct Floor(AtomicU32);

impl Floor {
    fn get(&self) -> u32 {
        self.0.load(Ordering::Relaxed)
    }
}

/// The best scores one thread has worked out in a pass, [`FIRST_PAGE`] of
/// them at most: once it has that many, the least is a [`Floor`].
#[derive(Default)]
struct Top(std::collections::BinaryHeap<std::cmp::Reverse<u32>>);

impl Top {
    fn add(&mut self, score: u32, floor: &Floor) {
        let heap = &mut self.0;
        if heap.len() < FIRST_PAGE {
            heap.push(std::cmp::Reverse(score));
        } else if let Some(mut least) = heap.peek_mut()
            && score > least.0
        {
            least.0 = score;
        } else {
            return;
        }
        if heap.len() == FIRST_PAGE
            && let Some(least) = heap.peek()
        {
            floor.0.fetch_max(least.0, Ordering::Relaxed);
        }
    }
}

/// How a query relates to the previous one, word by word (title scope).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reuse {
    /// Only the last word changed: its head score stands.
    Head,
    /// A word was added: the previous total is the new head.
    Total,
}

impl Reuse {
    /// What `query` can reuse of a ranking for `prev`.
    fn between(prev: &Query, query: &Query) -> Option<Reuse> {
        let (m, n) = (prev.words.len(), query.words.len());
        let same = |k: usize| {
            prev.words[..k]
                .iter()
                .zip(&query.words[..k])
                .all(|(a, b)| a.title == b.title)
        };
        if m == 0 || n == 0 {
            None
        } else if n == m && same(n - 1) {
            Some(Reuse::Head)
        } else if n == m + 1 && same(m) {
            Some(Reuse::Total)
        } else {
            None
        }
    }
}

impl Pass<'_> {
    fn total(&self) -> usize {
        self.candidates.map_or(self.n, <[Match]>::len)
    }

    fn id_at(&self, k: usize) -> u32 {
        self.candidates.map_or(k as u32, |c| c[k].idx)
    }

    /// Scores candidates `range` into `out`, keeping the thread's best
    /// scores in `top`; false when cancelled.
    fn score(
        &self,
        range: std::ops::Range<usize>,
        matcher: &mut Matcher,
        out: &mut Vec<Match>,
        top: &mut Top,
        cancelled: &(dyn Fn() -> bool + Sync),
    ) -> bool {
        for (done, k) in range.enumerate() {
            if done % CANCEL_EVERY == 0 && cancelled() {
                return false;
            }
            let idx = self.id_at(k);
            let i = idx as usize;
            let chars = self.items.masks[i];
            let mask = chars.all;
            let mut head = 0;
            let score = match self.scope {
                Scope::Title => {
                    if mask & self.need != self.need {
                        continue;
                    }
                    let title = self.items.title(i);
                    let known = match (self.reuse, self.candidates) {
                        (Some(r), Some(c)) if k < self.reused => Some((r, c[k])),
                        _ => None,
                    };
                    let floor = self.floor.as_ref().map_or(0, Floor::get);
                    let grown = match (self.growth, known) {
                        (Some(g), Some((_, m))) => m.score().saturating_add(g),
                        _ => u32::MAX,
                    };
                    // What the words before the last score, where known
                    // (a bound is no score to build on, but its head is).
                    let last = self.query.words.len() - 1;
                    let base = match known {
                        Some((Reuse::Head, m)) => m.head_score(),
                        Some((Reuse::Total, m)) if m.is_exact() => Some(m.score()),
                        _ => None,
                    }
                    .or((last == 0).then_some(0));
                    if grown < floor {
                        // Only whether it matches.
                        let matched = self.query.last_word_matches(title, chars);
                        match matched {
                            Some(true) => {
                                let len = self.items.title_len(i);
                                out.push(Match::bounded(idx, grown, len, base));
                                continue;
                            }
                            Some(false) => continue,
                            None => {}
                        }
                    }
                    // Where it is not known, the previous bound is a bound
                    // of it (of the whole previous score), as is the most
                    // the words can score in any title.
                    let most = base.or(known.map(|(_, m)| {
                        self.query
                            .head_most()
                            .map_or(m.score(), |h| h.min(m.score()))
                    }));
                    let need = floor.saturating_sub(most.unwrap_or(0));
                    let fast = most.and_then(|_| self.query.last_word_at_least(title, need, chars));
                    let scored = match (fast, base, most) {
                        (Some(fuzzy::Scored::None), ..) => None,
                        (Some(fuzzy::Scored::Below), _, Some(most)) => {
                            // Under the floor: need is at least 1.
                            let bound = grown.min(most + need - 1);
                            let len = self.items.title_len(i);
                            out.push(Match::bounded(idx, bound, len, base));
                            continue;
                        }
                        (Some(fuzzy::Scored::Exact(s)), Some(base), _) => {
                            Some((base + u32::from(s), base))
                        }
                        (Some(fuzzy::Scored::Exact(s)), None, Some(most)) => {
                            let s = u32::from(s);
                            // The first word (of two) need only be scored
                            // where it can lift the last to the floor.
                            let need = floor.saturating_sub(s);
                            let head = if most + s < floor {
                                Some(fuzzy::Scored::Below)
                            } else {
                                self.query.head_at_least(title, need)
                            };
                            match head {
                                Some(fuzzy::Scored::Exact(h)) => {
                                    Some((u32::from(h) + s, u32::from(h)))
                                }
                                Some(fuzzy::Scored::Below) => {
                                    // Under the floor: need is at least 1.
                                    let bound = grown.min(most.min(need - 1) + s);
                                    let len = self.items.title_len(i);
                                    out.push(Match::bounded(idx, bound, len, None));
                                    continue;
                                }
                                _ => self.query.score_title_from(title, matcher, 0, 0),
                            }
                        }
                        (_, Some(base), _) => {
                            self.query.score_title_from(title, matcher, last, base)
                        }
                        _ => self.query.score_title_from(title, matcher, 0, 0),
                    };
                    scored.map(|(score, h)| {
                        if let Some(floor) = &self.floor {
                            top.add(score, floor);
                        }
                        head = h;
                        score
                    })
                }
                Scope::All => {
                    self.query
                        .score_all(self.items.title(i), mask, idx, &self.abstracts, matcher)
                }
            };
            if let Some(score) = score {
                let mut m = Match::new(idx, score, self.items.title_len(i));
                m.head = head;
                out.push(m);
            }
        }
        true
    }
}

/// Keeps the best [`FIRST_PAGE`] of `best`, in order.
fn keep_best(best: &mut Vec<Match>) {
    if best.len() > FIRST_PAGE {
        best.select_nth_unstable_by(FIRST_PAGE - 1, order);
        best.truncate(FIRST_PAGE);
    }
    best.sort_unstable_by(order);
}

/// Runs a pass over the threads, calling `partial` with the best page so
/// far now and then. Returns every match, the best [`FIRST_PAGE`] first
/// and in order; `None` when cancelled.
fn run_pass(
    pass: &Pass,
    matchers: &mut [Matcher],
    cancelled: &(dyn Fn() -> bool + Sync),
    partial: &mut dyn FnMut(&[Match], usize),
) -> Option<(Vec<Match>, usize)> {
    let total = pass.total();
    let threads = matchers.len().min(total.div_ceil(PARALLEL_MIN)).max(1);
    let slice = (total / (8 * threads)).clamp(SLICE_MIN, SLICE);
    let slices = total.div_ceil(slice);
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<Option<Vec<Match>>>();
    // Room for every candidate (the matches are never more), so that it
    // is not grown and copied, into fresh memory, as the parts come: that
    // was two thirds of this thread's samples in a profile of the 100k
    // keystroke benchmark (6.0% of all, 2.3% after).
    let mut all: Vec<Match> = Vec::with_capacity(total);
    let mut best: Vec<Match> = Vec::new();
    let mut ok = true;
    // On threads kept from pass to pass: a thread started for each pass
    // was often placed on the core its sibling ran on, the other idle,
    // the two taking turns for up to 14 ms (seen in `perf sched` over the
    // 100k keystroke benchmark); a woken thread goes to an idle core.
    rayon::in_place_scope(|s| {
        for m in matchers.iter_mut().take(threads) {
            let (tx, next) = (tx.clone(), &next);
            s.spawn(move |_| {
                let mut top = Top::default();
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= slices {
                        break;
                    }
                    let range = k * slice..((k + 1) * slice).min(total);
                    let mut out = Vec::new();
                    let done = pass.score(range, m, &mut out, &mut top, cancelled);
                    if tx.send(done.then_some(out)).is_err() || !done {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let start = Instant::now();
        let mut last = start;
        let mut received = 0;
        // The last of a full page so far.
        let mut cut: Option<Match> = None;
        for part in rx {
            let Some(part) = part else {
                ok = false;
                continue;
            };
            received += 1;
            // Bounds are not scores: they never make the page; nor does a
            // match after the last of a full page.
            best.extend(
                part.iter()
                    .filter(|m| m.is_exact() && cut.is_none_or(|c| order(m, &c).is_lt())),
            );
            if best.len() > 2 * FIRST_PAGE {
                keep_best(&mut best);
                cut = best.get(FIRST_PAGE - 1).copied();
            }
            all.extend(part);
            if received < slices && last.elapsed() >= PARTIAL_EVERY {
                keep_best(&mut best);
                cut = best.get(FIRST_PAGE - 1).copied();
                partial(&best, (received * slice).min(total));
                last = Instant::now();
            }
        }
    });
    if !ok || cancelled() {
        return None;
    }
    keep_best(&mut best);
    Some(page_first(best, all, pass.n))
}

/// The final first page `best` (in order), then the other matches of
/// `all` in the order they were scanned (the papers' order, near enough):
/// a query that extends this one reads the titles in that order, and
/// memory read in order is read much faster (a ranking sorted whole made
/// the next keystroke's pass several times slower). `n`: papers searched.
fn page_first(best: Vec<Match>, all: Vec<Match>, n: usize) -> (Vec<Match>, usize) {
    let mut on_page = vec![0u64; n.div_ceil(64)];
    for m in &best {
        on_page[m.idx as usize / 64] |= 1 << (m.idx % 64);
    }
    let first = best.len();
    let mut out = best;
    out.reserve(all.len() - first);
    out.extend(
        all.into_iter()
            .filter(|m| on_page[m.idx as usize / 64] & (1 << (m.idx % 64)) == 0),
    );
    (out, first)
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
                    (Some(j), Some(d)) => {
                        j.generation != d.generation
                            || d.searched < shared.searchable(j.scope, st.items)
                    }
                    (Some(_), None) => true,
                    (None, _) => false,
                };
                if st.has_pending() {
                    let pending = std::mem::take(&mut st.pending);
                    let retitled = std::mem::take(&mut st.retitled);
                    let expected = st.expected;
                    drop(st);
                    if !retitled.is_empty() {
                        // Scores of the changed titles are stale: rank
                        // afresh rather than narrow from them.
                        done = None;
                    }
                    // No pass holds the titles now: this wait is short.
                    if let Ok(mut items) = shared.items.write() {
                        for more in pending {
                            items.append_expecting(more, expected);
                        }
                        for (i, title) in retitled {
                            items.set(i, &title);
                        }
                    }
                    st = match shared.state.lock() {
                        Ok(st) => st,
                        Err(_) => return,
                    };
                    continue;
                }
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
        let n = shared.searchable(job.scope, items.len());
        let query = Query::parse(&job.query);
        let cancelled = || shared.generation.load(Ordering::Acquire) != job.generation;
        let publish = |matches: Vec<Match>, searched: usize, sorted: usize, scanned: bool| {
            shared.publish(Results {
                generation: job.generation,
                query: job.query.clone(),
                scope: job.scope,
                sorted: sorted.min(matches.len()),
                matches,
                searched,
                scanned,
            })
        };
        if query.is_empty() {
            let all: Vec<Match> = (0..n as u32).map(Match::unscored).collect();
            drop(items);
            done = Some(publish(all, n, n, true));
            continue;
        }
        // Reuse what is known: the same query over fewer papers, or a query
        // this one extends.
        let prev = done
            .as_ref()
            .filter(|d| d.scope == job.scope && d.scanned && extends(&job.query, &d.query));
        // The same words (`sparse ` after `sparse`): the same ranking.
        let same =
            prev.is_some_and(|p| p.query == job.query || Query::parse(&p.query).same_as(&query));
        let mut candidates: Vec<Match> = Vec::new();
        let mut kept: Vec<Match> = Vec::new();
        let prev_sorted = prev.map_or(0, |p| p.sorted);
        if let Some(prev) = prev {
            if same {
                kept = prev.matches.clone();
            } else {
                candidates = prev.matches.clone();
            }
            let from = prev.searched as u32;
            candidates.extend((from..n as u32).map(Match::unscored));
        }
        let abstracts: Vec<Bits> = match (job.scope, shared.index.read()) {
            (Scope::All, Ok(ix)) => query
                .words
                .iter()
                .map(|w| ix.papers_with_prefixes(&w.needle, n))
                .collect(),
            _ => Vec::new(),
        };
        let prev_query = prev
            .filter(|_| !same && job.scope == Scope::Title)
            .map(|p| Query::parse(&p.query));
        let reuse = prev_query
            .as_ref()
            .and_then(|pq| Reuse::between(pq, &query));
        let growth = match (&prev_query, reuse) {
            (Some(pq), Some(_)) => query.growth_over(pq),
            _ => None,
        };
        let pass = Pass {
            items: &items,
            query: &query,
            scope: job.scope,
            abstracts,
            need: query.title_mask(),
            candidates: prev.map(|_| candidates.as_slice()),
            n,
            reuse,
            reused: prev.map_or(0, |p| if same { 0 } else { p.matches.len() }),
            growth,
            floor: (job.scope == Scope::Title).then(Floor::default),
        };
        let mut partial = |best: &[Match], searched: usize| {
            publish(best.to_vec(), searched, best.len(), false);
        };
        let Some((mut matches, first)) = run_pass(&pass, &mut matchers, &cancelled, &mut partial)
        else {
            continue;
        };
        let mut first = first;
        // `behind`: once the first page is shown (see `settle`).
        let mut settle_here = |matches: &mut [Match], behind: bool| {
            settle(&items, &query, matches, &mut matchers, &cancelled, behind)
        };
        if !kept.is_empty() && matches.is_empty() {
            // The same words over the same papers: the same first page.
            first = prev_sorted.min(kept.len());
            matches = kept;
        } else if !kept.is_empty() {
            matches.extend(kept);
            if !settle_here(&mut matches, false) {
                continue;
            }
            let mut best = matches.clone();
            keep_best(&mut best);
            (matches, first) = page_first(best, matches, n);
        }
        if first >= matches.len() {
            if !settle_here(&mut matches, false) {
                continue;
            }
            drop(items);
            let total = matches.len();
            done = Some(publish(matches, n, total, true));
            continue;
        }
        // The first page is final: show it now. Score what was only
        // bounded, and sort the rest on the side, so that the next
        // keystroke need not wait for either (it cancels the scoring, and
        // narrows from bounds where scores are missing). The next query
        // narrows from this set, whose order does not matter to it.
        let shown = publish(matches, n, first, true);
        let mut rest = shown.matches.clone();
        done = Some(shown);
        if rest[first..].iter().any(|m| !m.is_exact()) {
            if !settle_here(&mut rest[first..], true) {
                continue;
            }
            done = Some(publish(rest.clone(), n, first, true));
        }
        drop(items);
        let sorter = shared.clone();
        let job = job.clone();
        std::thread::spawn(move || {
            // Behind the next keystroke's pass, which should not wait for
            // this sort to end, nor share the cores with a sort it makes
            // moot: only once typing pauses.
            lower_priority();
            for _ in 0..SORT_AFTER.as_millis() / 5 {
                std::thread::sleep(Duration::from_millis(5));
                if sorter.generation.load(Ordering::Acquire) != job.generation {
                    return;
                }
            }
            let mut rest = rest;
            rest[first..].sort_unstable_by(order);
            if sorter.generation.load(Ordering::Acquire) == job.generation {
                let total = rest.len();
                sorter.publish(Results {
                    generation: job.generation,
                    query: job.query,
                    scope: job.scope,
                    matches: rest,
                    searched: n,
                    sorted: total,
                    scanned: true,
                });
            }
        });
    }
}

/// Scores, on every core, the matches that hold only a bound; false when
/// a newer request cancels it first. `behind`: the first page is shown,
/// and this runs behind the reader (at normal priority, these threads
/// held the cores as the frame showing that page waited: from the page
/// published to the frame drawn, 0.7-1.2 ms median and 2-6 ms p90 over
/// the 100k keystroke benchmark, against 0.5-0.7 and 0.6-0.9 ms).
fn settle(
    items: &Items,
    query: &Query,
    matches: &mut [Match],
    matchers: &mut [Matcher],
    cancelled: &(dyn Fn() -> bool + Sync),
    behind: bool,
) -> bool {
    if matches.iter().all(Match::is_exact) {
        return true;
    }
    let per = matches.len().div_ceil(matchers.len()).max(1);
    let ok = AtomicBool::new(true);
    let settle_part = |part: &mut [Match], matcher: &mut Matcher| {
        for (k, m) in part.iter_mut().enumerate() {
            // Each is scored whole: a newer request is seen within tens
            // of microseconds.
            if k % SETTLE_CANCEL_EVERY == 0 && cancelled() {
                ok.store(false, Ordering::Relaxed);
                return;
            }
            if m.is_exact() {
                continue;
            }
            let i = m.idx as usize;
            let (from, base) = match m.head_score() {
                Some(h) => (query.words.len().saturating_sub(1), h),
                None => (0, 0),
            };
            // It matched: it has a score.
            let (score, head) = query
                .score_title_from(items.title(i), matcher, from, base)
                .unwrap_or_default();
            *m = Match {
                head,
                ..Match::new(m.idx, score, items.title_len(i))
            };
        }
    };
    let parts = matches.chunks_mut(per).zip(matchers.iter_mut());
    match behind.then(behind_pool).flatten() {
        Some(pool) => pool.in_place_scope(|s| spawn_each(s, parts, &settle_part)),
        None => rayon::in_place_scope(|s| spawn_each(s, parts, &settle_part)),
    }
    ok.into_inner()
}

/// `work(part, matcher)` for each of `parts` on `s`'s threads.
fn spawn_each<'s, 'p: 's>(
    s: &rayon::Scope<'s>,
    parts: impl Iterator<Item = (&'p mut [Match], &'p mut Matcher)>,
    work: &'s (dyn Fn(&mut [Match], &mut Matcher) + Sync),
) {
    for (part, matcher) in parts {
        s.spawn(move |_| work(part, matcher));
    }
}

/// Threads at lowered priority (see [`lower_priority`]) for [`settle`]
/// behind the reader; `None` where they could not be started.
fn behind_pool() -> Option<&'static rayon::ThreadPool> {
    static POOL: OnceLock<Option<rayon::ThreadPool>> = OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(match_threads())
            .thread_name(|k| format!("paperboat-settle-{k}"))
            .start_handler(|_| lower_priority())
            .build()
            .ok()
    })
    .as_ref()
}

/// Bounded matches [`settle`] scores between checks for a newer request.
const SETTLE_CANCEL_EVERY: usize = 64;

/// Abstracts the indexer takes at a time (split among its threads).
const INDEX_STEP: usize = 16_384;

/// Asks the OS to run the calling thread (and threads it starts) after
/// others: the index is built, rankings are sorted past their first page,
/// and their bounded matches scored, on what the UI and the matcher leave
/// over. Lowered, not idle: a thread run only when nothing else wants a
/// core (SCHED_IDLE) did no better, and under another program's load it
/// could hold up the worker waiting on it for a long time.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority has no memory-safety preconditions; on Linux,
    // `who == 0` with PRIO_PROCESS names the calling thread.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 10);
    }
}

/// Indexes `abstracts` (papers `first..`) on up to `threads` threads;
/// `None` when `stopped` says so first.
fn index_piece(
    first: u32,
    abstracts: &[Abstract],
    threads: usize,
    stopped: &(dyn Fn() -> bool + Sync),
) -> Option<WordIndex> {
    let build = |from: usize, part: &[Abstract]| {
        let mut ix = WordIndex::default();
        // An abstract that can no longer be read (its file changed) has no
        // words to find.
        let done = crate::corpus::abstracts::for_each_text(part, |k, text| {
            if k % 256 == 0 && stopped() {
                return false;
            }
            ix.add(first + (from + k) as u32, &markup::plain_cow(text));
            true
        });
        done.then_some(ix)
    };
    if threads <= 1 || abstracts.len() < 1024 {
        return build(0, abstracts);
    }
    let parts: Vec<WordIndex> = crate::parallel::map_split(abstracts, threads, build)
        .into_iter()
        .collect::<Option<_>>()?;
    let mut whole = WordIndex::default();
    for p in parts {
        whole.append(p);
    }
    Some(whole)
}

/// Builds the abstract index from papers sent to it, at low priority and
/// not while held (see [`Search::hold_index`]).
fn indexer(shared: Arc<Shared>, rx: mpsc::Receiver<(u32, Vec<Abstract>)>) {
    lower_priority();
    let stopped = || shared.generation.load(Ordering::Acquire) == u64::MAX;
    for (first, batch) in rx {
        for (k, step) in batch.chunks(INDEX_STEP).enumerate() {
            while shared.hold.load(Ordering::Acquire) && !stopped() {
                std::thread::sleep(Duration::from_millis(10));
            }
            if stopped() {
                return;
            }
            let at = first + (k * INDEX_STEP) as u32;
            let Some(piece) = index_piece(at, step, shared.threads, &stopped) else {
                return;
            };
            let papers = shared.state.lock().map_or(0, |st| st.items);
            if let Ok(mut ix) = shared.index.write() {
                ix.append_expecting(piece, papers);
            }
            // Searches in the abstract scope can see more papers now.
            if let Ok(_st) = shared.state.lock() {
                shared.wake.notify_all();
            }
        }
    }
}

/// The matcher as the reader uses it: a query in, a ranking out, a frame at
/// a time.
pub struct Search {
    shared: Arc<Shared>,
    handles: Vec<JoinHandle<()>>,
    to_indexer: Option<mpsc::Sender<(u32, Vec<Abstract>)>>,
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
            index: RwLock::new(WordIndex::default()),
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
            let _ = tx.send((first as u32, prepared.abstracts));
        }
        self.shared.wake.notify_all();
    }

    /// Says how many papers a load in progress will likely end with (see
    /// [`crate::corpus::load::expected_papers`]), so that room for their
    /// titles is made once rather than doubled as they come.
    pub fn expect(&self, papers: usize) {
        if let Ok(mut st) = self.shared.state.lock() {
            st.expected = papers;
        }
    }

    /// Holds the abstract index back (while `hold`), so that loading and
    /// title search have the cores; abstracts added meanwhile are indexed
    /// once released.
    pub fn hold_index(&self, hold: bool) {
        self.shared.hold.store(hold, Ordering::Release);
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
        let items = self.shared.state.lock().map_or(0, |s| s.items);
        match self.scope {
            Scope::Title => items,
            // The abstract scope is complete once every paper is indexed.
            Scope::All => items,
        }
    }

    /// True when the newest published ranking (picked up or not) is
    /// complete for the current query over every paper added.
    fn ready(&self) -> bool {
        let target = self.target();
        self.shared
            .latest
            .lock()
            .is_ok_and(|l| l.generation == self.generation && l.searched >= target && l.complete())
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
        r.generation == self.generation && r.scanned && r.searched >= self.target()
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

    /// Papers whose abstracts are indexed, of those added.
    pub fn indexed(&self) -> (usize, usize) {
        let items = self.shared.state.lock().map_or(0, |s| s.items);
        let ix = self.shared.index.read().map_or(0, |ix| ix.indexed);
        (ix.min(items), items)
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

/// Ranks `papers` for `query` on the caller's thread, using every core:
/// the engine behind `paperboat search`.
pub fn rank_papers(papers: &[Paper], query: &str, scope: Scope) -> Vec<Match> {
    let items = Items::build(papers, match_threads(), |p| &p.title);
    let parsed = Query::parse(query);
    let abstracts = if scope == Scope::All && !parsed.is_empty() {
        let abstracts: Vec<Abstract> = papers.iter().map(|p| p.abstract_text.clone()).collect();
        let ix = index_piece(0, &abstracts, match_threads(), &|| false).unwrap_or_default();
        parsed
            .words
            .iter()
            .map(|w| ix.papers_with_prefixes(&w.needle, papers.len()))
            .collect()
    } else {
        Vec::new()
    };
    rank_items(&items, &parsed, scope, abstracts)
}

fn rank_items(items: &Items, query: &Query, scope: Scope, abstracts: Vec<Bits>) -> Vec<Match> {
    let mut matches = matches_of(items, query, scope, abstracts, &mut matchers());
    if !query.is_empty() {
        matches.sort_unstable_by(order);
    }
    matches
}

/// The matches of `query` among `items`, in no particular order (but in
/// the items' order for an empty query).
fn matches_of(
    items: &Items,
    query: &Query,
    scope: Scope,
    abstracts: Vec<Bits>,
    matchers: &mut [Matcher],
) -> Vec<Match> {
    if query.is_empty() {
        return (0..items.len() as u32).map(Match::unscored).collect();
    }
    let pass = Pass {
        items,
        query,
        scope,
        abstracts,
        need: query.title_mask(),
        candidates: None,
        n: items.len(),
        reuse: None,
        reused: 0,
        growth: None,
        floor: None,
    };
    match run_pass(&pass, matchers, &|| false, &mut |_, _| {}) {
        Some((matches, _)) => matches,
        None => Vec::new(),
    }
}

/// A matcher per matching thread.
fn matchers() -> Vec<Matcher> {
    (0..match_threads())
        .map(|_| Matcher::new(Config::DEFAULT))
        .collect()
}

/// Ranks titles kept in parts, each with the index of its first title,
/// as one list, best first (as [`rank_papers`] in the title scope).
pub fn rank_title_parts<'a>(
    parts: impl Iterator<Item = (&'a TitleIndex, usize)>,
    query: &str,
) -> Vec<Match> {
    let query = Query::parse(query);
    let mut matchers = matchers();
    let mut all = Vec::new();
    for (part, start) in parts {
        let matches = matches_of(
            part.items(),
            &query,
            Scope::Title,
            Vec::new(),
            &mut matchers,
        );
        all.extend(matches.into_iter().map(|mut m| {
            m.idx += start as u32;
            m
        }));
    }
    if !query.is_empty() {
        all.sort_unstable_by(order);
    }
    all
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

    /// Titles enough to need several threads and slices.
    fn many(n: usize) -> Vec<Paper> {
        let words = [
            "sparse",
            "attention",
            "diffusion",
            "language",
            "model",
            "decoding",
            "graph",
            "reinforcement",
            "learning",
            "Transformers",
            "für",
            "Überblick",
            "café",
            "RL",
            "π-Distill",
            "论文",
            "efficient",
            "robust",
            "x",
            "ab",
        ];
        let mut r: u64 = 7;
        (0..n)
            .map(|i| {
                let len = 2 + (i % 6);
                let t: Vec<&str> = (0..len)
                    .map(|_| {
                        r = r
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        words[(r >> 33) as usize % words.len()]
                    })
                    .collect();
                paper(&format!("{} {i}", t.join(" ")), "abstract")
            })
            .collect()
    }

    #[test]
    fn the_prefilter_and_threads_change_no_result() {
        let papers = many(12_000);
        let mut m = Matcher::new(Config::DEFAULT);
        for q in [
            "sp", "rl", "RL", "cafe", "uber", "π", "x !ab", "^diff", "zzz",
        ] {
            let got: Vec<u32> = rank_papers(&papers, q, Scope::Title)
                .iter()
                .map(|m| m.idx)
                .collect();
            let query = Query::parse(q);
            let mut want: Vec<(u32, usize, u32)> = papers
                .iter()
                .enumerate()
                .filter_map(|(i, p)| {
                    let u = Utf32String::from(p.title.as_str());
                    query
                        .score_title(u.slice(..), &mut m)
                        .map(|s| (s, u.len(), i as u32))
                })
                .collect();
            want.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
            let want: Vec<u32> = want.into_iter().map(|w| w.2).collect();
            assert_eq!(got, want, "{q}");
        }
    }

    #[test]
    fn typing_with_narrowing_ends_where_a_fresh_ranking_does() {
        let papers = many(12_000);
        let mut s = Search::new(|| {});
        s.extend(&papers);
        for q in [
            "d",
            "di",
            "dif",
            "diff",
            "diff l",
            "diff la",
            "diff lan",
            "diff lang !x",
        ] {
            s.set_query(q, Scope::Title);
            std::thread::sleep(Duration::from_millis(2));
        }
        assert!(s.wait(Duration::from_secs(20)));
        s.tick();
        assert!(s.first_page_final() && !s.is_running());
        let got: Vec<u32> = s.results().matches.iter().map(|m| m.idx).collect();
        let want: Vec<u32> = rank_papers(&papers, "diff lang !x", Scope::Title)
            .iter()
            .map(|m| m.idx)
            .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn typing_on_from_each_first_page_ranks_as_a_fresh_ranking_does() {
        // Each key comes as soon as the first page is final, while the
        // titles kept with only a bound are still unscored: the next query
        // narrows from those bounds (and from what they know of the words
        // before the last).
        let papers = many(12_000);
        let mut s = Search::new(|| {});
        s.extend(&papers);
        let mut narrowed_from_bounds = 0;
        let typed: Vec<&str> = ["diff lan ef", "robust gr", "sparse attn"]
            .iter()
            .flat_map(|q| (1..=q.len()).map(|k| &q[..k]))
            .collect();
        for (k, q) in typed.iter().enumerate() {
            if k > 0 && typed[k - 1].len() < q.len() {
                narrowed_from_bounds +=
                    usize::from(s.results().matches.iter().any(|m| !m.is_exact()));
            }
            s.set_query(q, Scope::Title);
            let deadline = Instant::now() + Duration::from_secs(20);
            loop {
                s.tick();
                if s.first_page_final() {
                    break;
                }
                assert!(Instant::now() < deadline, "{q}");
                std::thread::sleep(Duration::from_micros(200));
            }
            let want = fresh(&papers, q);
            let page = want.len().min(FIRST_PAGE);
            assert_eq!(&shown(&s)[..page], &want[..page], "{q}: first page");
            assert_eq!(s.matched(), want.len(), "{q}: matches");
        }
        assert!(
            narrowed_from_bounds > 5,
            "only {narrowed_from_bounds} steps narrowed from bounds"
        );
        assert!(s.wait(Duration::from_secs(20)));
        s.tick();
        assert_eq!(shown(&s), fresh(&papers, "sparse attn"));
    }

    /// The ranking shown: papers and their sort keys.
    fn shown(s: &Search) -> Vec<(u32, u64)> {
        s.results().matches.iter().map(|m| (m.idx, m.key)).collect()
    }

    /// A ranking from scratch, in the same terms.
    fn fresh(papers: &[Paper], q: &str) -> Vec<(u32, u64)> {
        rank_papers(papers, q, Scope::Title)
            .iter()
            .map(|m| (m.idx, m.key))
            .collect()
    }

    #[test]
    fn a_changed_title_is_ranked_afresh() {
        let mut papers = many(3_000);
        let mut s = Search::new(|| {});
        s.extend(&papers);
        s.set_query("zebra quokka", Scope::Title);
        assert!(s.wait(Duration::from_secs(20)));
        s.tick();
        assert_eq!(s.matched(), 0);
        papers[7].title = "Zebra Quokka networks".into();
        s.retitle(&[(7, "Zebra Quokka networks")]);
        assert!(s.wait(Duration::from_secs(20)));
        s.tick();
        assert_eq!(shown(&s), fresh(&papers, "zebra quokka"));
        assert_eq!(s.get(0), Some(7));
    }

    #[test]
    fn every_step_of_typing_scores_as_a_fresh_ranking_does() {
        // Each step waits for its ranking, so that every one narrows from
        // the last and reuses the scores of the words it shares with it.
        let papers = many(6_000);
        let mut s = Search::new(|| {});
        s.extend(&papers);
        for q in [
            "d",
            "di",
            "dif",
            "dif ",
            "dif l",
            "dif la",
            "dif lan",
            "dif lan m",
            "dif lan mo",
            "dif lan mo !x",
            "dif lan mo !xy",
        ] {
            s.set_query(q, Scope::Title);
            assert!(s.wait(Duration::from_secs(20)), "{q}");
            s.tick();
            let (got, want) = (shown(&s), fresh(&papers, q));
            assert_eq!(got.len(), want.len(), "{q}");
            assert!(got == want, "{q}: scores differ from a fresh ranking");
        }
    }

    /// A title pass for `query` narrowing from `old`'s matches
    /// `candidates`, from a first-page floor of `floor`.
    fn narrowing<'a>(
        items: &'a Items,
        old: &Query,
        query: &'a Query,
        candidates: &'a [Match],
        floor: u32,
    ) -> Pass<'a> {
        Pass {
            items,
            query,
            scope: Scope::Title,
            abstracts: Vec::new(),
            need: query.title_mask(),
            candidates: Some(candidates),
            n: items.len(),
            reuse: Reuse::between(old, query),
            reused: candidates.len(),
            growth: query.growth_over(old),
            floor: Some(Floor(AtomicU32::new(floor))),
        }
    }

    /// Ranks `q` for `papers` narrowing from `prev`'s ranking, pruned as
    /// the worker prunes: the pass's matches and first page, then the
    /// matches once settled.
    fn pruned_pass(papers: &[Paper], prev: &str, q: &str) -> (Vec<Match>, usize, Vec<Match>) {
        let items = Items::build(papers, 2, |p| &p.title);
        let (old, query) = (Query::parse(prev), Query::parse(q));
        let candidates = rank_papers(papers, prev, Scope::Title);
        let mut matchers: Vec<Matcher> = (0..2).map(|_| Matcher::new(Config::DEFAULT)).collect();
        let pass = narrowing(&items, &old, &query, &candidates, 0);
        let (matches, first) = run_pass(&pass, &mut matchers, &|| false, &mut |_, _| {}).unwrap();
        let mut settled = matches.clone();
        assert!(settle(
            &items,
            &query,
            &mut settled,
            &mut matchers,
            &|| false,
            false
        ));
        settled.sort_unstable_by(order);
        (matches, first, settled)
    }

    #[test]
    fn pruned_titles_never_belong_on_the_first_page_and_settle_to_their_scores() {
        let papers = many(20_000);
        for (prev, q) in [
            ("di", "dif"),
            ("dif", "diff"),
            ("sparse", "sparse a"),
            ("r", "rl"),
        ] {
            let (matches, first, settled) = pruned_pass(&papers, prev, q);
            let want = rank_papers(&papers, q, Scope::Title);
            let bounded = matches.iter().filter(|m| !m.is_exact()).count();
            assert!(bounded > 0, "{q}: only {bounded} titles left unscored");
            assert_eq!(first, FIRST_PAGE);
            assert!(matches[..first].iter().all(Match::is_exact), "{q}");
            assert_eq!(&matches[..first], &want[..first], "{q}: first page");
            assert_eq!(matches.len(), want.len(), "{q}: matches");
            assert_eq!(settled, want, "{q}: settled");
        }
    }

    #[test]
    fn titles_known_only_by_a_bound_are_scored_or_bounded_truly() {
        // Every match of the previous query known only by a bound (its
        // score) and not what its words scored: a word is added, and at
        // each floor every title is scored exactly or kept with a true
        // bound under the floor.
        let papers = many(6_000);
        let items = Items::build(&papers, 1, |p| &p.title);
        let (old, query) = (Query::parse("sparse"), Query::parse("sparse at"));
        let candidates: Vec<Match> = rank_papers(&papers, "sparse", Scope::Title)
            .iter()
            .map(|m| Match::bounded(m.idx, m.score(), items.title_len(m.idx as usize), None))
            .collect();
        let want: std::collections::HashMap<u32, u32> =
            rank_papers(&papers, "sparse at", Scope::Title)
                .iter()
                .map(|m| (m.idx, m.score()))
                .collect();
        let mut matcher = Matcher::new(Config::DEFAULT);
        let (mut scored, mut bounded) = (0, 0);
        for floor in [0, 120, 160, 190, 210, 240] {
            let pass = narrowing(&items, &old, &query, &candidates, floor);
            let mut out = Vec::new();
            let range = 0..candidates.len();
            assert!(
                pass.score(range, &mut matcher, &mut out, &mut Top::default(), &|| {
                    false
                })
            );
            let floor = pass.floor.as_ref().map_or(0, Floor::get);
            assert_eq!(out.len(), want.len(), "floor {floor}");
            for m in &out {
                let w = want[&m.idx];
                if m.is_exact() {
                    assert_eq!(m.score(), w, "floor {floor}");
                    scored += 1;
                } else {
                    assert!(w <= m.score() && m.score() < floor, "floor {floor}");
                    bounded += 1;
                }
            }
        }
        assert!(
            scored > 100 && bounded > 100,
            "{scored} scored, {bounded} bounded"
        );
    }

    #[test]
    fn the_abstract_scope_waits_for_the_index_and_then_finds_words() {
        let mut papers = many(5_000);
        papers.push(paper("Unrelated title", "We study heteroscedastic noise."));
        let mut s = Search::new(|| {});
        s.extend(&papers);
        s.set_query("heterosced", Scope::All);
        assert!(s.wait(Duration::from_secs(20)));
        s.tick();
        assert_eq!(s.matched(), 1);
        assert_eq!(s.indexed(), (5_001, 5_001));
    }
}
