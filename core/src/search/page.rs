//! The first page of an every-field ranking, found from the word hits
//! before the pass that finds every match.
//!
//! A paper's every-field score is mostly its word hits' BM25F scores,
//! known for every paper once the hits are worked out; what its title
//! adds is bounded by each word's most ([`Query::all_bound`]). So the
//! papers are ordered by that bound without a title read, and scored
//! exactly best bound first until the page's least score is above every
//! bound left: the page is then the final ranking's (the threshold
//! algorithm of Fagin, Lotem and Naor). On a broad query over millions of
//! papers a few thousand titles are read where the pass reads them all;
//! the pass then runs with the page's floor known from its start, to
//! count and order the rest.

use std::sync::atomic::{AtomicBool, Ordering};

use nucleo::Matcher;

use super::items::Items;
use super::masks::Bits;
use super::pass::keep_best;
use super::query::{Hits, Query};
use super::{FIRST_PAGE, Match};

/// Papers scored exactly, at most, before the page is left to the pass
/// (their bounds were too loose to tell it apart sooner): the best
/// bounds are kept as they are worked out, this many and one more.
const MOST_SCORED: usize = 8 * FIRST_PAGE;

/// Papers whose bounds are worked out between checks for a newer request.
const CANCEL_EVERY: usize = 1 << 16;

/// What [`first_page`] found.
pub(super) enum Page {
    /// The final first page, in order; more may match.
    First(Vec<Match>),
    /// Every match, in order: fewer than a page.
    All(Vec<Match>),
}

/// The first page of the every-field ranking for `query` of papers `0..n`,
/// or of `among` where given (the matches of a query this one extends,
/// then the papers added since). `hits`: its words' hits; `filters`: the
/// papers each filter lets through. `None` when cancelled, or when the
/// bounds were too loose to find the page with [`MOST_SCORED`] titles
/// scored.
pub(super) fn first_page(
    items: &Items,
    query: &Query,
    (hits, filters): (&[Hits], &[Bits]),
    (n, among): (usize, Option<&[Match]>),
    matchers: &mut [Matcher],
    cancelled: &(dyn Fn() -> bool + Sync),
) -> Option<Page> {
    if query.words.is_empty() || hits.len() != query.words.len() {
        return None;
    }
    // No positive word with a word hit in a page of papers: the page is
    // then mostly papers matched by their titles alone, where a paper's
    // bound is the words' most, the same for every title, and no title
    // is told apart without scoring it. The pass scores them, pruning by
    // the words' own floor.
    let positive = || {
        query
            .words
            .iter()
            .zip(hits)
            .filter(|(w, _)| !w.title.negative)
    };
    if positive().all(|(_, h)| h.count < FIRST_PAGE) {
        return None;
    }
    let papers = among.map_or(n, <[Match]>::len);
    let paper = |k: usize| among.map_or(k as u32, |a| a[k].idx);
    let mut best = best_bounds(
        items,
        query,
        (hits, filters),
        (papers, &paper),
        matchers.len(),
        cancelled,
    )?;
    // Every paper that can match is in `best` unless it is full: then
    // the least of it bounds every paper left out, and is not scored.
    let left_out = if best.len() > MOST_SCORED {
        best.select_nth_unstable_by(MOST_SCORED, |a, b| b.cmp(a));
        best.pop().map(|c| (c >> 32) as u32)
    } else {
        None
    };
    let mut rest: &mut [u64] = &mut best;
    let mut scored: Vec<Match> = Vec::new();
    let mut take = 2 * FIRST_PAGE;
    loop {
        // The best `take` bounds first, the best of the others after them.
        let k = take.min(rest.len());
        if k < rest.len() {
            rest.select_nth_unstable_by(k, |a, b| b.cmp(a));
        }
        let (now, later) = std::mem::take(&mut rest).split_at_mut(k);
        scored.extend(score(items, query, hits, now, matchers, cancelled)?);
        keep_best(&mut scored);
        let next = later.first().map(|&c| (c >> 32) as u32).or(left_out);
        let Some(next) = next else {
            // Every paper that can match is scored.
            return Some(if scored.len() < FIRST_PAGE {
                Page::All(scored)
            } else {
                Page::First(scored)
            });
        };
        // A score equal to a bound could still lose to it on length.
        if scored.len() == FIRST_PAGE && scored[FIRST_PAGE - 1].score() > next {
            return Some(Page::First(scored));
        }
        if later.is_empty() {
            return None;
        }
        rest = later;
        take *= 4;
    }
}

/// The best [`MOST_SCORED`] bounds and one more (all where there are no
/// more) of the papers `paper(k)`, `k < n`, that the filters let through
/// and whose bound does not rule out: bound in the high half, index in
/// the low. Each thread keeps its best as it goes, so that the millions
/// of others are never stored.
fn best_bounds(
    items: &Items,
    query: &Query,
    (hits, filters): (&[Hits], &[Bits]),
    (n, paper): (usize, &(dyn Fn(usize) -> u32 + Sync)),
    threads: usize,
    cancelled: &(dyn Fn() -> bool + Sync),
) -> Option<Vec<u64>> {
    const KEEP: usize = MOST_SCORED + 1;
    let part = n.div_ceil(threads.max(1)).max(1);
    let mut parts: Vec<Vec<u64>> = vec![Vec::new(); n.div_ceil(part)];
    let ok = AtomicBool::new(true);
    rayon::in_place_scope(|s| {
        for (k, out) in parts.iter_mut().enumerate() {
            let ok = &ok;
            s.spawn(move |_| {
                out.reserve(4 * KEEP);
                // The least kept once `out` was last cut back (a bound of
                // 0 is no match).
                let mut least = 1u64 << 32;
                let range = k * part..((k + 1) * part).min(n);
                for (done, k) in range.enumerate() {
                    if done % CANCEL_EVERY == 0 && cancelled() {
                        ok.store(false, Ordering::Relaxed);
                        return;
                    }
                    let idx = paper(k);
                    if !filters.iter().all(|f| f.contains(idx)) {
                        continue;
                    }
                    let mask = items.masks[idx as usize].all;
                    let c = (u64::from(query.all_bound(idx, hits, mask)) << 32) | u64::from(idx);
                    if c < least {
                        continue;
                    }
                    out.push(c);
                    if out.len() == 4 * KEEP {
                        out.select_nth_unstable_by(KEEP - 1, |a, b| b.cmp(a));
                        out.truncate(KEEP);
                        least = out[KEEP - 1];
                    }
                }
            });
        }
    });
    if !ok.into_inner() {
        return None;
    }
    let mut all = parts.concat();
    if all.len() > KEEP {
        all.select_nth_unstable_by(KEEP - 1, |a, b| b.cmp(a));
        all.truncate(KEEP);
    }
    Some(all)
}

/// The papers of `candidates` (bound and index) that match, scored, on
/// every matcher; `None` when cancelled.
fn score(
    items: &Items,
    query: &Query,
    hits: &[Hits],
    candidates: &[u64],
    matchers: &mut [Matcher],
    cancelled: &(dyn Fn() -> bool + Sync),
) -> Option<Vec<Match>> {
    let per = candidates.len().div_ceil(matchers.len().max(1)).max(1);
    let mut parts: Vec<Vec<Match>> = vec![Vec::new(); candidates.len().div_ceil(per)];
    rayon::in_place_scope(|s| {
        for ((chunk, matcher), out) in candidates
            .chunks(per)
            .zip(matchers.iter_mut())
            .zip(&mut parts)
        {
            s.spawn(move |_| {
                for &c in chunk {
                    let idx = c as u32;
                    let i = idx as usize;
                    if let Some(score) =
                        query.score_all(items.title(i), items.masks[i], idx, hits, matcher)
                    {
                        out.push(Match::new(idx, score, items.title_len(i)));
                    }
                }
            });
        }
    });
    (!cancelled()).then(|| parts.concat())
}

#[cfg(test)]
mod tests {
    use nucleo::{Config, Matcher};

    use super::super::query::{AllScored, TITLE_TIER};
    use super::super::tests::fielded;
    use super::super::words::WordIndex;
    use super::super::{Scope, index_papers, rank_papers, select};
    use super::*;

    /// The query words' hits among papers `0..n`.
    fn hits_of(index: &WordIndex, query: &Query, n: usize) -> Vec<Hits> {
        query
            .words
            .iter()
            .map(|w| select::word_hits(index, w, n))
            .collect()
    }

    #[test]
    fn bounds_are_never_below_scores_and_floors_prune_truly() {
        let papers = fielded(2_000);
        let items = Items::build(&papers, 1, |p| &p.title);
        let index = index_papers(&papers);
        let mut m = Matcher::new(Config::DEFAULT);
        let (mut matched, mut below) = (0, 0);
        for q in [
            "sp",
            "graph mot",
            "attention !graph",
            "robot zz",
            "^sparse pap",
            "x",
            // No paper holds `ppr` or `mtn`: their titles' letters.
            "graph ppr",
            "ppr",
            "mtn pap",
        ] {
            let query = Query::parse(q);
            let hits = hits_of(&index, &query, papers.len());
            for idx in 0..papers.len() as u32 {
                let (title, chars) = (items.title(idx as usize), items.masks[idx as usize]);
                let exact = query.score_all(title, chars, idx, &hits, &mut m);
                let bound = query.all_bound(idx, &hits, chars.all);
                match exact {
                    None => {}
                    Some(e) => {
                        matched += 1;
                        assert!(bound >= e && bound > 0, "{q} {idx}: {e} over {bound}");
                    }
                }
                for floor in [0, 40, 1 << 24, (1 << 24) + 300, TITLE_TIER, bound] {
                    let at = query.score_all_at_least(title, chars, idx, &hits, (&mut m, floor));
                    match (at, exact) {
                        (None, None) => {}
                        (Some(AllScored::Exact(s)), Some(e)) => assert_eq!(s, e, "{q} {idx}"),
                        (Some(AllScored::Below(b)), Some(e)) => {
                            below += 1;
                            assert!(e <= b && b < floor, "{q} {idx}: {e} {b} {floor}");
                        }
                        // Under the floor if it matches at all.
                        (Some(AllScored::Unchecked(b)), e) => {
                            below += 1;
                            assert!(
                                b < floor && e.is_none_or(|e| e <= b),
                                "{q} {idx}: {e:?} {b} {floor}"
                            );
                        }
                        other => panic!("{q} {idx} at {floor}: {other:?}"),
                    }
                }
            }
        }
        assert!(
            matched > 1_000 && below > 100,
            "{matched} matched, {below} below"
        );
    }

    #[test]
    fn the_page_found_from_bounds_is_the_fresh_rankings() {
        let papers = fielded(6_000);
        let items = Items::build(&papers, 2, |p| &p.title);
        let index = index_papers(&papers);
        let mut matchers: Vec<Matcher> = (0..2).map(|_| Matcher::new(Config::DEFAULT)).collect();
        let (mut first, mut all, mut left) = (0, 0, 0);
        for q in [
            "sparse",
            "sp",
            "s",
            "graph mot",
            "robot paper",
            "attention !graph",
            "diffusion zzz",
            "pap",
            "author:bengio sparse",
            "^sparse graph",
            "'graph attention",
            "paper 12",
        ] {
            let query = Query::parse(q);
            let hits = hits_of(&index, &query, papers.len());
            let filters: Vec<Bits> = query
                .filters
                .iter()
                .map(|f| {
                    select::filter_bits(
                        f,
                        &items,
                        (&index, &Default::default()),
                        Scope::All,
                        papers.len(),
                        &mut matchers[0],
                    )
                })
                .collect();
            let want = rank_papers(&papers, q, Scope::All);
            let page = first_page(
                &items,
                &query,
                (&hits, &filters),
                (papers.len(), None),
                &mut matchers,
                &|| false,
            );
            match page {
                Some(Page::First(got)) => {
                    first += 1;
                    assert_eq!(got.len(), FIRST_PAGE, "{q}");
                    assert_eq!(&got[..], &want[..FIRST_PAGE], "{q}");
                }
                Some(Page::All(got)) => {
                    all += 1;
                    assert_eq!(got, want, "{q}");
                }
                // Bounds too loose (every title "… paper N": ties).
                None => left += 1,
            }
        }
        assert!(
            first >= 5 && all >= 2 && left <= 2,
            "{first} pages, {all} whole rankings, {left} left to the pass"
        );
    }
}
