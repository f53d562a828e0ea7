//! One ranking pass: the candidates split over the matching threads,
//! each scored (or, below the first page's floor, only checked to match
//! and kept with a bound), the best page kept as the scan goes; and the
//! ranking on the caller's thread that `paperboat search` uses.

use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use nucleo::{Config, Matcher};

use super::items::Items;
use super::masks::Bits;
use super::query::{AllScored, Hits, Query, TITLE_TIER};
use super::{FIRST_PAGE, Match, Scope, fuzzy, order};

/// Threads that match: the machine's cores, never zero.
pub(super) fn match_threads() -> usize {
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
/// Partial results are published at most this often.
const PARTIAL_EVERY: Duration = Duration::from_millis(30);

/// What a ranking pass needs.
pub(super) struct Pass<'a> {
    pub(super) items: &'a Items,
    pub(super) query: &'a Query,
    pub(super) scope: Scope,
    /// Per query word: its word hits (every-field scope).
    pub(super) hits: Vec<Hits>,
    /// Papers each filter lets through (a paper must be in all).
    pub(super) filters: Vec<Bits>,
    pub(super) need: u64,
    /// Candidates, or `None` for papers `0..n`.
    pub(super) candidates: Option<&'a [Match]>,
    pub(super) n: usize,
    /// What the first `reused` candidates (the previous query's matches)
    /// already know of this query's score.
    pub(super) reuse: Option<Reuse>,
    pub(super) reused: usize,
    /// How much more than the previous query this one can score on any
    /// title, where that is known ([`Query::growth_over`]).
    pub(super) growth: Option<u32>,
    /// `Some` when the pass need only find the first page ([`Floor`]).
    pub(super) floor: Option<Floor>,
}

/// The score at least [`FIRST_PAGE`] titles are known to reach, raised as
/// a pass scores them: a title that cannot reach it is not on the first
/// page. Such a title is only checked to match, and kept with a bound on
/// its score ([`Match::bounded`]) until
/// [`settle`](super::worker::settle) scores it, after the first page is
/// shown. Its score is bounded by its previous score plus
/// the query's growth, or by what the last word could add to what the
/// others scored (at most [`fuzzy::MAX_PER_CHAR`] a character, and only
/// where the word starts a word of the title whole: [`fuzzy::Scored`]).
/// On a hundred thousand titles this leaves most of them unscored from
/// the second letter of a word on.
#[derive(Debug, Default)]
pub(super) struct Floor(AtomicU32);

impl Floor {
    /// A floor known from the start: the least score of a first page
    /// already found.
    pub(super) fn at(score: u32) -> Floor {
        Floor(AtomicU32::new(score))
    }

    pub(super) fn get(&self) -> u32 {
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
pub(super) enum Reuse {
    /// Only the last word changed: its head score stands.
    Head,
    /// A word was added: the previous total is the new head.
    Total,
}

impl Reuse {
    /// What `query` can reuse of a ranking for `prev`.
    pub(super) fn between(prev: &Query, query: &Query) -> Option<Reuse> {
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
            if !self.filters.iter().all(|f| f.contains(idx)) {
                continue;
            }
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
                    let title = self.items.title(i);
                    let floor = self.floor.as_ref().map_or(0, Floor::get);
                    // With a first page of papers matched by words alone,
                    // a paper whose bound is under its floor cannot be on
                    // it: only whether it matches counts, for now (a word
                    // that is no word hit is only checked to match the
                    // title, never scored). Under that tier the bounds are
                    // loose, and the fuzzy word's own floor prunes.
                    if floor >= TITLE_TIER {
                        let bound = self.query.all_bound(idx, &self.hits, mask);
                        if bound == 0 {
                            continue;
                        }
                        if bound < floor {
                            if self
                                .query
                                .all_word_hits(title, mask, idx, &self.hits, matcher)
                                .is_some()
                            {
                                let len = self.items.title_len(i);
                                out.push(Match::bounded(idx, bound, len, None));
                            }
                            continue;
                        }
                    }
                    let scored = self.query.score_all_at_least(
                        title,
                        chars,
                        idx,
                        &self.hits,
                        (matcher, floor),
                    );
                    match scored {
                        None => continue,
                        Some(AllScored::Below(bound)) => {
                            let len = self.items.title_len(i);
                            out.push(Match::bounded(idx, bound, len, None));
                            continue;
                        }
                        Some(AllScored::Unchecked(bound)) => {
                            let len = self.items.title_len(i);
                            out.push(Match::unchecked(idx, bound, len));
                            continue;
                        }
                        Some(AllScored::Exact(score)) => {
                            if let Some(floor) = &self.floor {
                                top.add(score, floor);
                            }
                            Some(score)
                        }
                    }
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
pub(super) fn keep_best(best: &mut Vec<Match>) {
    if best.len() > FIRST_PAGE {
        best.select_nth_unstable_by(FIRST_PAGE - 1, order);
        best.truncate(FIRST_PAGE);
    }
    best.sort_unstable_by(order);
}

/// Runs a pass over the threads, calling `partial` with the best page so
/// far now and then. Returns every match, the best [`FIRST_PAGE`] first
/// and in order; `None` when cancelled.
pub(super) fn run_pass(
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
    // was most of this thread's time in the 100k keystroke benchmark.
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
///
/// In place, in `all`'s memory, by swaps: the matches the page displaces
/// from the front go where the page's were. A new vector of every match
/// (30 MB for two million) was memory touched for the first time at each
/// keystroke, which costs a fault a page on a VM; moving every match
/// along to make room for the page cost more than these swaps.
pub(super) fn page_first(best: Vec<Match>, mut all: Vec<Match>, n: usize) -> (Vec<Match>, usize) {
    let mut on_page = vec![0u64; n.div_ceil(64)];
    for m in &best {
        on_page[m.idx as usize / 64] |= 1 << (m.idx % 64);
    }
    let first = best.len();
    let page = |m: &Match| on_page[m.idx as usize / 64] & (1 << (m.idx % 64)) != 0;
    // The front's places the page does not hold, each swapped with the
    // next of the page's behind the front: as many of each.
    // (The page is among `all`: never longer.)
    let (front, behind) = all.split_at_mut(first);
    let mut free = (0..front.len())
        .filter(|&k| !page(&front[k]))
        .collect::<Vec<_>>()
        .into_iter();
    for m in behind.iter_mut().filter(|m| page(m)) {
        let Some(k) = free.next() else { break };
        std::mem::swap(&mut front[k], m);
    }
    // The front holds the page's matches: in the page's order.
    all[..first].copy_from_slice(&best);
    (all, first)
}

/// The matches of `query` among `items`, in no particular order (but in
/// the items' order for an empty query).
pub(super) fn matches_of(
    items: &Items,
    query: &Query,
    scope: Scope,
    hits: Vec<Hits>,
    filters: Vec<Bits>,
    matchers: &mut [Matcher],
) -> Vec<Match> {
    if query.words.is_empty() {
        return unranked(items.len(), &filters);
    }
    let pass = Pass {
        items,
        query,
        scope,
        hits,
        filters,
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

/// Papers `0..n` that every filter lets through, in their order (a query
/// with nothing to rank them by).
pub(super) fn unranked(n: usize, filters: &[Bits]) -> Vec<Match> {
    (0..n as u32)
        .filter(|&i| filters.iter().all(|f| f.contains(i)))
        .map(Match::unscored)
        .collect()
}

/// A matcher per matching thread.
pub(super) fn matchers() -> Vec<Matcher> {
    (0..match_threads())
        .map(|_| Matcher::new(Config::DEFAULT))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::tests::many;
    use super::super::worker::settle;
    use super::super::{Paper, rank_papers};
    use super::*;

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
            hits: Vec::new(),
            filters: Vec::new(),
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
            None,
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

    proptest::proptest! {
        // The page first and in its order, then every other match once,
        // in scan order but for those the page put out of the front.
        #[test]
        fn the_page_comes_first_and_every_other_match_follows(
            scores in proptest::collection::vec(0u32..50, 0..300),
            page in 0usize..40,
        ) {
            let all: Vec<Match> = scores
                .iter()
                .enumerate()
                .map(|(k, &s)| Match::new(k as u32 * 3, s, 10))
                .collect();
            let mut best = all.clone();
            best.sort_unstable_by(order);
            best.truncate(page);
            let (got, first) = page_first(best.clone(), all.clone(), 3 * all.len());
            proptest::prop_assert_eq!(first, best.len());
            proptest::prop_assert_eq!(&got[..first], &best[..]);
            let mut rest: Vec<u32> = got[first..].iter().map(|m| m.idx).collect();
            let on_page = |idx: u32| best.iter().any(|b| b.idx == idx);
            // Those behind the front that were not displaced keep their
            // places.
            for (k, m) in all.iter().enumerate().skip(first) {
                if !on_page(m.idx) {
                    proptest::prop_assert_eq!(got[k].idx, m.idx);
                }
            }
            rest.sort_unstable();
            let mut want: Vec<u32> = all.iter().map(|m| m.idx).filter(|&i| !on_page(i)).collect();
            want.sort_unstable();
            proptest::prop_assert_eq!(rest, want);
        }
    }
}
