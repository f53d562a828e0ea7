//! The threads behind a [`Search`](super::Search): the worker that runs a
//! pass per request, narrowing from the ranking before it, and settles
//! and sorts what the first page left; and the indexer that builds the
//! abstracts' word index at low priority.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex, OnceLock, RwLock};
use std::time::{Duration, Instant};

use nucleo::{Config, Matcher};

use crate::parallel::lower_priority;

use super::items::Items;
use super::labels::Labels;
use super::masks::Bits;
use super::page::{Page, first_page};
use super::pass::{Floor, Pass, Reuse, keep_best, match_threads, page_first, run_pass, unranked};
use super::phrase::Texts;
use super::query::{Hits, Query, Reading, Word, extends};
use super::select::{filter_bits, word_hits};
use super::words::{DocMeta, WordIndex, kept_prefix};
use super::{Match, Notes, Results, Scope, order, parse};
use crate::corpus::Abstract;
use crate::corpus::abstracts::{Read, for_each_read};
use crate::text::markup;

#[derive(Clone)]
pub(super) struct Job {
    pub(super) generation: u64,
    pub(super) query: String,
    pub(super) scope: Scope,
    /// The query is being typed: its last word is read as a prefix.
    pub(super) typing: bool,
    /// The ranking reads the word index (every-field scope, or filters).
    pub(super) needs_index: bool,
    /// Filters ask the word index which papers pass: only indexed papers
    /// can be searched.
    pub(super) filtered: bool,
}

pub(super) struct State {
    pub(super) job: Option<Job>,
    /// Papers added, pending ones included.
    pub(super) items: usize,
    /// Titles added but not yet moved into [`Shared::items`]: the worker
    /// moves them in between passes, so adding never waits for a pass.
    pub(super) pending: Vec<Items>,
    /// Titles changed since they were added, applied the same way.
    pub(super) retitled: Vec<(usize, String)>,
    /// The papers a load in progress expects to end with (0 when none).
    pub(super) expected: usize,
    pub(super) shutdown: bool,
}

impl State {
    fn has_pending(&self) -> bool {
        !self.pending.is_empty() || !self.retitled.is_empty()
    }
}

pub(super) struct Shared {
    pub(super) items: RwLock<Items>,
    pub(super) index: RwLock<WordIndex>,
    /// Tags and notes, for `tag:` and `note:`.
    pub(super) labels: RwLock<Arc<Labels>>,
    /// The papers' abstracts, for phrases.
    pub(super) texts: RwLock<Texts>,
    pub(super) state: Mutex<State>,
    pub(super) wake: Condvar,
    pub(super) latest: Mutex<Arc<Results>>,
    pub(super) generation: AtomicU64,
    pub(super) notify: Box<dyn Fn() + Send + Sync>,
    pub(super) threads: usize,
    /// While set, the indexer waits (the corpus is still loading).
    pub(super) hold: AtomicBool,
    /// Tests: while set, the worker waits after showing a first page
    /// until a newer request comes, so that the next key meets that page
    /// as a fast typist's would, whatever the machine's load.
    #[cfg(test)]
    pub(super) pause_after_page: AtomicBool,
}

impl Shared {
    /// In tests, waits while `pause_after_page` is set (see there);
    /// otherwise nothing.
    fn after_page(&self, cancelled: &dyn Fn() -> bool) {
        #[cfg(test)]
        while self.pause_after_page.load(Ordering::Acquire) && !cancelled() {
            std::thread::sleep(Duration::from_millis(1));
        }
        #[cfg(not(test))]
        let _ = cancelled;
    }

    /// Papers the job can search now (every title; with filters, the
    /// papers indexed so far), and the papers indexed that it uses.
    fn searchable(&self, job: &Job, items: usize) -> (usize, usize) {
        if !job.needs_index {
            return (items, 0);
        }
        let indexed = self.index.read().map_or(0, |ix| ix.indexed.min(items));
        (if job.filtered { indexed } else { items }, indexed)
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

/// While a load brings papers, an empty query's listing of every paper
/// is made again only once the papers have grown by a quarter or this
/// long after the last, rather than for every batch: each listing is a
/// vector of every paper, so listing per batch took time quadratic in the
/// papers (a fifth of the CPU of a warm open of 2.7M papers).
const LIST_EVERY: Duration = Duration::from_millis(100);

/// True when `done`, an empty query's listing of its papers, need not be
/// made again yet for `n` papers: a load is still bringing them (see
/// [`LIST_EVERY`]). The end of the load wakes the worker.
fn listing_can_wait(st: &State, done: &Results, n: usize, listed_at: Instant) -> bool {
    st.expected > 0
        && done.complete()
        && done.query.trim().is_empty()
        && done.matches.len() == done.searched
        && n - done.searched < done.searched / 4
        && listed_at.elapsed() < LIST_EVERY
}

/// The rows past the first page are sorted once no keystroke came for
/// this long.
const SORT_AFTER: Duration = Duration::from_millis(30);

pub(super) fn worker(shared: Arc<Shared>) {
    let mut matchers: Vec<Matcher> = (0..shared.threads)
        .map(|_| Matcher::new(Config::DEFAULT))
        .collect();
    let mut done: Option<Arc<Results>> = None;
    let mut hit_cache = HitCache::default();
    let mut labels_seen: Option<Arc<Labels>> = None;
    // When every paper was last listed in order (an empty query).
    let mut listed_at = Instant::now();
    loop {
        let job = {
            let Ok(mut st) = shared.state.lock() else {
                return;
            };
            loop {
                if st.shutdown {
                    return;
                }
                let mut held = false;
                let stale = match (&st.job, &done) {
                    (Some(j), Some(d)) => {
                        let (n, indexed) = shared.searchable(j, st.items);
                        held = d.searched < n && listing_can_wait(&st, d, n, listed_at);
                        j.generation != d.generation
                            || d.indexed < indexed
                            || (d.searched < n && !held)
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
                            if items.len() == 0 {
                                // Taken as it is: a list read back from
                                // the cache stays where it lies.
                                *items = more;
                            } else {
                                items.append_expecting(more, expected);
                            }
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
                // A listing held back is made at the latest when it is due.
                st = match held {
                    true => match shared.wake.wait_timeout(st, LIST_EVERY) {
                        Ok((st, _)) => st,
                        Err(_) => return,
                    },
                    false => match shared.wake.wait(st) {
                        Ok(st) => st,
                        Err(_) => return,
                    },
                };
            }
        };
        let Some(job) = job else { continue };
        let Ok(items) = shared.items.read() else {
            return;
        };
        let (n, indexed) = shared.searchable(&job, items.len());
        let query = parse(&job.query, job.typing);
        let cancelled = || shared.generation.load(Ordering::Acquire) != job.generation;
        // What every ranking published for this job says besides its
        // matches (the words widened and the words no paper holds come
        // once the hits are known).
        let notes = std::cell::RefCell::new(Notes::default());
        let heading = || Results {
            generation: job.generation,
            query: job.query.clone(),
            scope: job.scope,
            typing: job.typing,
            indexed,
            notes: notes.borrow().clone(),
            ..Results::default()
        };
        let publish = |matches: Vec<Match>, searched: usize, sorted: usize, scanned: bool| {
            shared.publish(Results {
                sorted: sorted.min(matches.len()),
                matches,
                searched,
                scanned,
                ..heading()
            })
        };
        if query.is_empty() || query.error.is_some() {
            let all: Vec<Match> = match query.error {
                None => (0..n as u32).map(Match::unscored).collect(),
                Some(_) => Vec::new(),
            };
            drop(items);
            let total = all.len();
            done = Some(publish(all, n, total, true));
            listed_at = Instant::now();
            continue;
        }
        // What the query asks of the word index (and of tags and notes).
        let labels = shared.labels.read().map(|l| l.clone()).unwrap_or_default();
        // New tags or notes: nothing known of the last ranking holds.
        if !labels_seen
            .as_ref()
            .is_some_and(|l| Arc::ptr_eq(l, &labels))
        {
            done = None;
            labels_seen = Some(labels.clone());
        }
        let (hits, filters) = match shared.index.read() {
            Ok(ix) => {
                let hits: Vec<Hits> = match (job.scope, shared.texts.read()) {
                    (Scope::All, Ok(texts)) => query
                        .words
                        .iter()
                        .map(|w| hit_cache.get(&ix, w, n, (&items, &texts)))
                        .collect(),
                    _ => Vec::new(),
                };
                let filters: Vec<Bits> = query
                    .filters
                    .iter()
                    .map(|f| filter_bits(f, &items, (&ix, &labels), job.scope, n, &mut matchers[0]))
                    .collect();
                (hits, filters)
            }
            Err(_) => return,
        };
        *notes.borrow_mut() = Notes::of(&query, &hits);
        if query.words.is_empty() {
            let all = unranked(n, &filters);
            drop(items);
            let total = all.len();
            done = Some(publish(all, n, total, true));
            continue;
        }
        // Reuse what is known: the same query over fewer papers, or a query
        // this one extends (over as much of the index).
        // (Not from an empty query: every paper is a candidate anyway.)
        // Held apart from `done`, which the pass below replaces while it
        // still reads these.
        // The same words (`sparse ` after `sparse`): the same ranking.
        let same_words = |d: &Results| {
            (d.query == job.query && d.typing == job.typing)
                || parse(&d.query, d.typing).same_as(&query)
        };
        let prev_results = done.clone().filter(|d| {
            d.scope == job.scope
                && d.scanned
                && d.indexed == indexed
                && !d.query.trim().is_empty()
                && match job.scope {
                    Scope::Title => extends(&job.query, &d.query),
                    Scope::All => {
                        same_words(d)
                            || narrows(&query, &notes.borrow(), &parse(&d.query, d.typing), d)
                    }
                }
        });
        let prev = prev_results.as_deref();
        let same = prev.is_some_and(same_words);
        let mut grown: Vec<Match> = Vec::new();
        let mut kept: Vec<Match> = Vec::new();
        let prev_sorted = prev.map_or(0, |p| p.sorted);
        if let Some(prev) = prev {
            if same {
                kept = prev.matches.clone();
            } else if prev.searched < n {
                grown = prev.matches.clone();
            }
            let from = prev.searched as u32;
            grown.extend((from..n as u32).map(Match::unscored));
        }
        // The last matches as they are where no paper came since: a copy
        // was 30 MB at two million, at every keystroke.
        let candidates: &[Match] = match prev {
            Some(p) if !same && p.searched >= n => &p.matches,
            _ => &grown,
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
        // Every field: the first page found from the word hits, shown
        // before the pass that counts and orders the rest (see `page.rs`).
        let page = match job.scope {
            Scope::All if !same => first_page(
                &items,
                &query,
                (&hits, &filters),
                (n, prev.map(|_| candidates)),
                &mut matchers,
                &cancelled,
            ),
            _ => None,
        };
        let mut floor = Floor::default();
        let page_shown = matches!(page, Some(Page::First(_)));
        match page {
            Some(Page::All(all)) => {
                drop(items);
                let total = all.len();
                done = Some(publish(all, n, total, true));
                continue;
            }
            Some(Page::First(page)) => {
                floor = Floor::at(page.last().map_or(0, Match::score));
                shared.publish(Results {
                    sorted: page.len(),
                    matches: page,
                    searched: n,
                    scanned: false,
                    page_final: true,
                    ..heading()
                });
                shared.after_page(&cancelled);
            }
            None => {}
        }
        let pass = Pass {
            items: &items,
            query: &query,
            scope: job.scope,
            hits,
            filters,
            need: query.title_mask(),
            candidates: prev.map(|_| candidates),
            n,
            reuse,
            reused: prev.map_or(0, |p| if same { 0 } else { p.matches.len() }),
            growth,
            floor: Some(floor),
        };
        let mut partial = |best: &[Match], searched: usize| {
            // The page shown is final: no partial ranking is to replace it.
            if !page_shown {
                publish(best.to_vec(), searched, best.len(), false);
            }
        };
        let Some((mut matches, first)) = run_pass(&pass, &mut matchers, &cancelled, &mut partial)
        else {
            continue;
        };
        let mut first = first;
        // `behind`: once the first page is shown (see `settle`).
        let every_field = (job.scope == Scope::All).then_some(pass.hits.as_slice());
        // Settles `matches[from..]`, then drops the papers found not to
        // match after all (see `Match::unchecked`).
        let mut settle_here = |matches: &mut Vec<Match>, from: usize, behind: bool| {
            let settled = settle(
                &items,
                &query,
                every_field,
                &mut matches[from..],
                &mut matchers,
                &cancelled,
                behind,
            );
            if settled {
                matches.retain(Match::is_checked);
            }
            settled
        };
        if !kept.is_empty() && matches.is_empty() {
            // The same words over the same papers: the same first page.
            first = prev_sorted.min(kept.len());
            matches = kept;
        } else if !kept.is_empty() {
            matches.extend(kept);
            if !settle_here(&mut matches, 0, false) {
                continue;
            }
            let mut best = matches.clone();
            keep_best(&mut best);
            (matches, first) = page_first(best, matches, n);
        }
        if first >= matches.len() {
            if !settle_here(&mut matches, 0, false) {
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
        // Papers not yet checked to match are not shown: the page alone
        // is, and the count follows once they are checked (as after a
        // first page from `page.rs`). The next query narrows from them
        // all the same: it checks each paper again.
        let shown = if matches[first..].iter().all(Match::is_checked) {
            publish(matches, n, first, true)
        } else {
            shared.publish(Results {
                sorted: first,
                matches: matches[..first].to_vec(),
                searched: n,
                scanned: false,
                page_final: true,
                ..heading()
            });
            Arc::new(Results {
                sorted: first,
                matches,
                searched: n,
                scanned: true,
                page_final: false,
                ..heading()
            })
        };
        let mut rest = shown.matches.clone();
        done = Some(shown);
        shared.after_page(&cancelled);
        if rest[first..].iter().any(|m| !m.is_exact()) {
            if !settle_here(&mut rest, first, true) {
                continue;
            }
            done = Some(publish(rest.clone(), n, first, true));
        }
        drop(items);
        let sorter = shared.clone();
        let job = job.clone();
        let head = heading();
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
                    matches: rest,
                    searched: n,
                    sorted: total,
                    scanned: true,
                    page_final: false,
                    ..head
                });
            }
        });
    }
}

/// Whether every paper matching `query` (every field; `notes`, what its
/// words' hits say) matches `prev` too, whose ranking `done` is, so that
/// `query` need only rank `prev`'s matches: a word added, or the last
/// word grown by letters (or finished) where every word its forms start
/// with starts with it, the others the same. Which words a word matches
/// is no subset of a shorter word's in general (a form can start
/// otherwise, a typo's words any way), so a word widened or held by no
/// paper, in either, is not narrowed from.
fn narrows(query: &Query, notes: &Notes, prev: &Query, done: &Results) -> bool {
    let (old, new) = (&prev.words, &query.words);
    let Some(k) = old.len().checked_sub(1) else {
        return false;
    };
    let grown = |a: &Word, b: &Word| {
        let plain = |w: &Word| !w.title.negative && !w.title_only && !w.phrase;
        match (a.folded.as_slice(), b.folded.as_slice()) {
            ([o], [w]) if plain(a) && plain(b) && a.fields == b.fields => {
                a.reading == Reading::Typing
                    && match b.reading {
                        Reading::Whole => w == o || grew(o, w, b.reading),
                        Reading::Typing => grew(o, w, b.reading),
                        _ => false,
                    }
            }
            _ => false,
        }
    };
    done.notes == Notes::default()
        && *notes == Notes::default()
        && (new.len() == old.len() || new.len() == old.len() + 1)
        && prev.same_filters(query)
        && old[..k].iter().zip(new).all(|(a, b)| a.same_as(b))
        && (old[k].same_as(&new[k]) || grown(&old[k], &new[k]))
}

/// Whether `word` (read so) matches only words that `old`, being typed,
/// starts: `word` grew from it, and its forms start with it too.
fn grew(old: &str, word: &str, reading: Reading) -> bool {
    word.starts_with(old) && kept_prefix(word, reading).starts_with(old)
}

/// Scores, on every core, the matches that hold only a bound; false when
/// a newer request cancels it first. `behind`: the first page is shown,
/// and this runs behind the reader (at normal priority, these threads
/// held the cores as the frame showing that page waited: the time from
/// the page published to the frame drawn grew several times).
pub(super) fn settle(
    items: &Items,
    query: &Query,
    every_field: Option<&[Hits]>,
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
            if let Some(hits) = every_field {
                let score = query.score_all(items.title(i), items.masks[i], m.idx, hits, matcher);
                // A paper not checked to match that does not stays
                // unchecked, for the caller to drop.
                if score.is_some() || m.is_checked() {
                    *m = Match::new(m.idx, score.unwrap_or_default(), items.title_len(i));
                }
                continue;
            }
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
pub(super) const INDEX_STEP: usize = 16_384;

/// Indexes papers `first..` (their `metas` and `abstracts`) on up to
/// `threads` threads, into indexes like `blank` (see
/// [`WordIndex::empty_like`]); `None` when `stopped` says so first.
pub(super) fn index_piece(
    first: u32,
    metas: &[DocMeta],
    abstracts: &[Abstract],
    threads: usize,
    stopped: &(dyn Fn() -> bool + Sync),
    blank: &WordIndex,
) -> Option<WordIndex> {
    let none = DocMeta::default();
    let build = |from: usize, part: &[Abstract]| {
        let mut ix = blank.empty_from(first as usize + from);
        // An abstract that can no longer be read (its file changed) has no
        // words to find.
        let done = for_each_read(part, |k, read| {
            if k % 256 == 0 && stopped() {
                return false;
            }
            let i = from + k;
            let meta = metas.get(i).unwrap_or(&none);
            match read {
                Read::Text(text) => ix.add(first + i as u32, meta, &markup::plain_cow(text)),
                Read::Written(raw) => ix.add_escaped(first + i as u32, meta, raw),
            }
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
    let mut whole = blank.empty_from(first as usize);
    for p in parts {
        whole.append(p);
    }
    Some(whole)
}

/// Each query word's hits as last worked out, for as long as the word
/// index and the papers searched stay the same: typing a word works out
/// only that word's.
#[derive(Default)]
pub(super) struct HitCache {
    kept: Vec<(HitKey, usize, usize, Hits)>,
}

/// What a word's hits depend on, besides the index and the papers.
type HitKey = (Vec<String>, Reading, [bool; 3]);

impl HitCache {
    const KEEP: usize = 16;

    /// `w`'s hits among papers `0..n`; a phrase's checked against the
    /// papers' titles (`items`) and abstracts (`texts`).
    pub(super) fn get(
        &mut self,
        ix: &WordIndex,
        w: &Word,
        n: usize,
        (items, texts): (&Items, &Texts),
    ) -> Hits {
        if w.title_only {
            return Hits::default();
        }
        let at = (ix.indexed, n);
        self.kept.retain(|k| (k.1, k.2) == at);
        let key = (w.folded.clone(), w.reading, w.fields);
        if let Some(k) = self.kept.iter().position(|k| k.0 == key) {
            let hit = self.kept.remove(k);
            let hits = hit.3.clone();
            self.kept.push(hit);
            return hits;
        }
        let mut hits = word_hits(ix, w, n);
        if w.phrase && !hits.none() {
            super::phrase::verify(&mut hits, w, items, texts);
        }
        if self.kept.len() == Self::KEEP {
            self.kept.remove(0);
        }
        self.kept.push((key, at.0, at.1, hits.clone()));
        hits
    }
}

/// Papers for the indexer: the first's index, what it reads of each.
pub(super) type ToIndex = (u32, Vec<DocMeta>, Vec<Abstract>);

/// Builds the word index from papers sent to it, at low priority and
/// not while held (see [`Search::hold_index`](super::Search::hold_index)).
pub(super) fn indexer(shared: Arc<Shared>, rx: mpsc::Receiver<ToIndex>) {
    lower_priority();
    let stopped = || shared.generation.load(Ordering::Acquire) == u64::MAX;
    let blank = WordIndex::default();
    for (first, metas, batch) in rx {
        // Taken a step at a time and let go of once indexed: a batch can
        // be a whole corpus (a file read back from the cache), and freeing
        // millions of titles and authors at once, as the index came
        // complete, held a core for a tenth of a second while the first
        // search after it ran.
        let (mut metas, mut batch) = (metas.into_iter(), batch.into_iter());
        for k in 0.. {
            let step: Vec<Abstract> = batch.by_ref().take(INDEX_STEP).collect();
            if step.is_empty() {
                break;
            }
            let step_metas: Vec<DocMeta> = metas.by_ref().take(step.len()).collect();
            if let Ok(mut texts) = shared.texts.write() {
                texts.set(first as usize + k * INDEX_STEP, &step);
            }
            while shared.hold.load(Ordering::Acquire) && !stopped() {
                std::thread::sleep(Duration::from_millis(10));
            }
            if stopped() {
                return;
            }
            // Papers an index installed meanwhile covers (read back from
            // the cache) are passed over.
            let covered = shared.index.read().map_or(0, |ix| ix.indexed);
            let skip = covered
                .saturating_sub((first as usize) + k * INDEX_STEP)
                .min(step.len());
            if skip == step.len() {
                continue;
            }
            let at = first + (k * INDEX_STEP + skip) as u32;
            let from = skip.min(step_metas.len());
            let to = step.len().min(step_metas.len());
            let Some(piece) = index_piece(
                at,
                &step_metas[from..to],
                &step[skip..],
                shared.threads,
                &stopped,
                &blank,
            ) else {
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
