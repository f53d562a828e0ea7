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
//!   the best page so far holds are only checked to match
//!   ([`Floor`](pass::Floor)), and a word whole at the start of a title's
//!   word scores the most without working it out;
//! - the scan is split over the cores, and a newer query cancels it within
//!   a couple of thousand titles;
//! - the best page is kept as the scan goes and published every few frames
//!   (partial results), then once more as soon as the scan ends (the final
//!   first page); the rest of the ranking is scored and sorted after it,
//!   once typing pauses.
//!
//! Scope [`Scope::Title`] fuzzy-matches titles. [`Scope::All`] matches the
//! papers holding every query word (in another form too, and as the
//! start of a longer word while it is typed; by its typos where no paper
//! holds it: [`words::Reading`]) in the title, abstract or authors; a
//! word no paper holds is matched in titles letter by letter, those rows
//! shown apart and not counted ([`Notes`]). The abstracts are never
//! scanned per keystroke: an inverted index of their words is built in
//! the background as papers arrive.
//!
//! We drive nucleo's matcher ourselves rather than through its `Nucleo`
//! worker: that worker cannot express "title or abstract" per word (its
//! columns must all match), publishes nothing until a full pass and sort are
//! done, and leaves no room for a prefilter or for narrowing.
//!
//! This file is the public face: scopes, matches, rankings. `handle`
//! holds the [`Search`] handle the reader drives; `ranking` holds the
//! one-shot rankings a command makes on its own thread; `items` keeps the
//! titles as the matcher reads them, `pass` runs one ranking pass over
//! the cores, `worker` holds the threads behind a [`Search`], `phrase`
//! checks phrases; [`query`], [`fuzzy`] and [`words`] are the query
//! syntax, the fuzzy scorer and the word index; `titles` keeps titles
//! without their papers.

mod array;
pub mod fields;
pub mod fuzzy;
mod handle;
mod items;
mod labels;
pub mod learn;
pub mod masks;
mod page;
mod pass;
mod phrase;
pub mod query;
mod query_index;
mod ranking;
pub mod related;
mod select;
mod title_list;
mod titles;
pub mod words;
mod worker;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex, RwLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use nucleo::{Config, Matcher, Utf32Str};

use crate::corpus::Paper;
pub use fields::{FIELD_NAMES, QueryError};
pub use handle::{IndexHandle, Search};
use items::Items;
pub use items::Prepared;
pub use labels::Labels;
use pass::match_threads;
use query::TITLE_TIER;
pub use query::{Query, Reading, Widened, extends};
pub use query_index::{QueryIndex, index_parsed};
use ranking::index_prefixes;
pub(crate) use ranking::parse;
#[cfg(test)]
use ranking::rank_items;
pub use ranking::{
    Notes, Ranking, index_bytes_read, index_papers, index_papers_for, needs_typos, rank_labelled,
    rank_papers, rank_title_parts, rank_titles_indexed, ranking, ranking_labelled, ranking_typed,
};
pub use related::{Probe, Related, paper_text, related_in, related_papers};

pub use title_list::TitleList;
pub use titles::{TitleIndex, prefetch, retain_kept, retain_sparse, set_sparse};
pub use words::{Shared, WordIndex};
use worker::{Job, Shared as Inner, State, ToIndex, indexer, worker};

/// What a query is matched against.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Scope {
    /// Titles only (fuzzy).
    Title,
    /// Every field: the papers holding the query's words in title,
    /// abstract or authors, ranked by BM25F (the default: see
    /// docs/SEARCH.md).
    #[default]
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
            Scope::All => "all",
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
    #[inline]
    fn new(idx: u32, score: u32, len: u16) -> Match {
        Match {
            key: (u64::from(score) << 32) | (u64::from(u16::MAX - len) << 16),
            idx,
            head: 0,
        }
    }

    /// A match whose score is only known to be at most `bound`, and the
    /// score of every query word but the last where that is known.
    #[inline]
    fn bounded(idx: u32, bound: u32, len: u16, head: Option<u32>) -> Match {
        Match {
            head: head.filter(|&h| h < BOUND).map_or(NO_HEAD, |h| h | BOUND),
            ..Match::new(idx, bound, len)
        }
    }

    /// A paper whose score is under `bound` if it matches, which was not
    /// yet checked (every field: see [`Query::score_all_at_least`]).
    /// [`worker::settle`] scores it or finds it does not match.
    #[inline]
    fn unchecked(idx: u32, bound: u32, len: u16) -> Match {
        let m = Match::bounded(idx, bound, len, None);
        Match {
            key: m.key | UNCHECKED,
            ..m
        }
    }

    /// False for a paper not yet checked to match ([`Match::unchecked`]);
    /// true for every match of a finished ranking.
    #[inline]
    pub fn is_checked(&self) -> bool {
        self.key & UNCHECKED == 0
    }

    /// False for a match that holds only a bound on its score (see
    /// [`Floor`](pass::Floor)); true for every match of a finished ranking.
    #[inline]
    pub fn is_exact(&self) -> bool {
        self.head & BOUND == 0
    }

    /// The score of every query word but the last (title scope), where
    /// known: always for a scored match, and for most bounded ones.
    #[inline]
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
    #[inline]
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
/// Set in [`Match::key`] (below the title's length, which leaves it 0
/// otherwise) of a paper not yet checked to match.
const UNCHECKED: u64 = 1;
/// [`Match::head`] of a bounded match whose head score is not known.
const NO_HEAD: u32 = u32::MAX;

/// Best first; ties by input order.
#[inline]
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
    /// The query was being typed (its last word read as a prefix).
    pub typing: bool,
    /// What the ranking says of its words (typos, words no paper holds).
    pub notes: Notes,
    /// Matches: the first [`Results::sorted`] in their final order.
    pub matches: Vec<Match>,
    /// How many papers were searched.
    pub searched: usize,
    /// How many papers' words the ranking used (0 when it used none).
    pub indexed: usize,
    /// How many leading matches are in final order.
    pub sorted: usize,
    /// False while the scan runs: `matches` is then the best page so far.
    pub scanned: bool,
    /// True when `matches` is the final first page though the scan runs
    /// (every field: see `page.rs`); the matches past it are to come.
    pub page_final: bool,
}

impl Results {
    /// True when every match is in final order.
    pub fn complete(&self) -> bool {
        self.scanned && self.sorted >= self.matches.len()
    }

    /// The matches that count: none when they are titles matched letter
    /// by letter for a word no paper holds ([`Notes::apart`]).
    pub fn counted(&self) -> usize {
        if self.notes.apart() {
            0
        } else {
            self.matches.len()
        }
    }
}

/// Rows kept in order while the scan runs, and sorted first when it ends.
pub const FIRST_PAGE: usize = 512;

#[cfg(test)]
mod tests {
    use super::*;
    use nucleo::Utf32String;
    use std::time::Duration;

    pub(super) fn paper(title: &str, abs: &str) -> Paper {
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

    /// Papers for the words' rules: forms, prefixes, typos, phrases.
    fn worded() -> Vec<Paper> {
        vec![
            paper("Graph neural networks", "We learn on graphs of molecules."),
            paper("Graphene sheets", "Carbon in two dimensions."),
            paper("Learning to rank", "A network learned from clicks."),
            paper("Robot motion", "Attention for planning; a neural graph."),
            paper("SparseNet", "Pruned transformer weights."),
        ]
    }

    fn found(papers: &[Paper], q: &str) -> Vec<usize> {
        let mut got: Vec<usize> = rank_papers(papers, q, Scope::All)
            .iter()
            .map(|m| m.idx as usize)
            .collect();
        got.sort();
        got
    }

    #[test]
    fn a_word_finds_the_papers_holding_it_or_another_form_of_it() {
        let c = worded();
        assert_eq!(found(&c, "graph"), [0, 3], "not graphene");
        assert_eq!(found(&c, "network"), [0, 2]);
        assert_eq!(found(&c, "learned"), [0, 2], "learn, learning");
        assert_eq!(found(&c, "'learned"), [2], "the word alone");
        assert_eq!(found(&c, "graph !learning"), [3]);
        // The exact form ranks above another form of it.
        let forms = [
            paper("Deep models", "One of the networks we train."),
            paper("Deep models", "One of the network we train."),
        ];
        let ranked = rank_papers(&forms, "network", Scope::All);
        assert_eq!(ranked.len(), 2);
        assert_eq!(ranked[0].idx, 1, "network itself first");
        // Letters scattered over a title are no match.
        assert_eq!(found(&c, "sprs"), Vec::<usize>::new());
        assert!(ranking(&c, "sprs", Scope::All).notes.apart());
        // The title scope matches titles fuzzily.
        assert_eq!(rank_papers(&c, "sprs", Scope::Title).len(), 1);
        // A finished word that no paper holds finds the words it starts.
        assert_eq!(found(&c, "sparse"), [4]);
    }

    #[test]
    fn the_word_being_typed_finds_the_words_it_starts() {
        let c = worded();
        let items = Items::build(&c, 1, |p| &p.title);
        let index = index_papers(&c);
        let rank = |q: Query| {
            let mut got: Vec<u32> = rank_items(
                &items,
                &q,
                Scope::All,
                (&index, &Labels::default(), &phrase::Texts::None),
            )
            .counted()
            .iter()
            .map(|m| m.idx)
            .collect();
            got.sort();
            got
        };
        assert_eq!(rank(Query::parse_typing("graph")), [0, 1, 3]);
        assert_eq!(rank(Query::parse_typing("graph ")), [0, 3]);
        assert_eq!(rank(Query::parse("graph")), [0, 3]);
        // A finished word no paper holds: the words it starts.
        assert_eq!(rank(Query::parse("carbo")), [1]);
    }

    #[test]
    fn a_typo_finds_the_word_and_says_so() {
        let c = worded();
        let r = ranking(&c, "trasnformer weights", Scope::All);
        assert_eq!(r.matches.len(), 1);
        assert_eq!(r.matches[0].idx, 4);
        assert_eq!(
            r.notes.widened,
            [(
                "trasnformer".to_string(),
                Widened::Typos(vec!["transformer".into()])
            )]
        );
        let said = r.notes.describe().unwrap();
        assert!(
            said.contains("\"transformer\" for \"trasnformer\""),
            "{said}"
        );
        // A word that holds papers is not widened.
        assert!(ranking(&c, "graph", Scope::All).notes.widened.is_empty());
    }

    #[test]
    fn a_word_no_paper_holds_lists_titles_apart_and_counts_none() {
        let c = worded();
        let r = ranking(&c, "rbt", Scope::All);
        assert_eq!(r.notes.unheld, ["rbt"]);
        assert_eq!(r.matches.len(), 1, "Robot, letter by letter");
        assert!(
            r.notes
                .describe()
                .unwrap()
                .contains("no paper holds \"rbt\"")
        );
        assert!(rank_papers(&c, "rbt", Scope::All).is_empty());
    }

    #[test]
    fn a_phrase_finds_its_words_side_by_side() {
        let c = worded();
        assert_eq!(found(&c, "graph neural"), [0, 3]);
        assert_eq!(found(&c, "\"graph neural\""), [0]);
        assert_eq!(found(&c, "\"neural graph\""), [3]);
        assert_eq!(found(&c, "\"neural graphs\""), [3], "another form");
        assert_eq!(found(&c, "\"graph neural\" !\"neural graph\""), [0]);
        // The reader's matcher reads the abstracts it indexed.
        let mut s = Search::new(|| {});
        s.extend(&c);
        s.set_query("\"neural graph\"", Scope::All);
        assert!(s.wait(Duration::from_secs(10)));
        s.tick();
        assert_eq!(s.get(0), Some(3));
        assert_eq!(s.counted(), 1);
    }

    #[test]
    fn the_reader_reads_the_last_word_as_a_prefix_while_it_is_typed() {
        let c = worded();
        let mut s = Search::new(|| {});
        s.extend(&c);
        s.type_query("graph", Scope::All);
        assert!(s.wait(Duration::from_secs(10)));
        s.tick();
        assert_eq!(s.counted(), 3);
        s.set_query("graph", Scope::All);
        assert!(s.wait(Duration::from_secs(10)));
        s.tick();
        assert_eq!(s.counted(), 2);
        let mut rows: Vec<usize> = (0..s.matched()).filter_map(|r| s.get(r)).collect();
        rows.sort();
        assert_eq!(rows, [0, 3]);
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
        // Every field: the papers holding the word (not "SparseNet").
        s.set_query("sparse", Scope::All);
        assert!(s.wait(Duration::from_secs(5)));
        s.tick();
        assert_eq!(s.matched(), 2);
        assert_eq!(s.counted(), 2);
        s.extend(&[paper("Sparse again", "x")]);
        assert!(s.wait(Duration::from_secs(5)));
        s.tick();
        assert_eq!(s.matched(), 3);
    }

    #[test]
    fn a_load_in_progress_lists_every_paper_it_brought() {
        let batch = |k: usize, n: usize| -> Vec<Paper> {
            (0..n)
                .map(|i| paper(&format!("Paper {k} {i}"), "x"))
                .collect()
        };
        let listed = |s: &mut Search, n: usize| {
            assert!(s.wait(Duration::from_secs(30)), "{n} papers listed");
            s.tick();
            let rows: Vec<usize> = (0..s.matched()).filter_map(|r| s.get(r)).collect();
            assert_eq!(rows, (0..n).collect::<Vec<_>>());
        };
        let mut s = Search::new(|| {});
        s.reserve_for(100_000);
        s.extend(&batch(0, 400));
        listed(&mut s, 400);
        // Batches too small to list every paper again for, while the load
        // runs: listed all the same, though no more come.
        for k in 1..4 {
            s.extend(&batch(k, 10));
            listed(&mut s, 400 + 10 * k);
        }
        // A batch that grows the papers by more than a quarter, then one
        // that the load's end follows.
        s.extend(&batch(5, 200));
        listed(&mut s, 630);
        s.extend(&batch(6, 10));
        s.reserve_for(0);
        listed(&mut s, 640);
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
    pub(super) fn many(n: usize) -> Vec<Paper> {
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
        assert!(!want.is_empty());
        assert_eq!(got, want);
    }

    impl Search {
        /// Whether the worker waits after showing each first page until
        /// the next key (see `Shared::pause_after_page`).
        fn pause_after_page(&self, on: bool) {
            self.shared.pause_after_page.store(on, Ordering::Release);
        }
    }

    #[test]
    fn typing_on_from_each_first_page_ranks_as_a_fresh_ranking_does() {
        // Each key comes as soon as the first page is final, while the
        // titles kept with only a bound are still unscored: the next query
        // narrows from those bounds (and from what they know of the words
        // before the last). The worker waits after each page, so that the
        // keys meet the bounds however loaded the machine is.
        let papers = many(12_000);
        let mut s = Search::new(|| {});
        s.extend(&papers);
        s.pause_after_page(true);
        let (mut narrowed_from_bounds, mut narrowing) = (0, 0);
        let typed: Vec<&str> = ["diff lan ef", "robust gr", "sparse attn"]
            .iter()
            .flat_map(|q| (1..=q.len()).map(|k| &q[..k]))
            .collect();
        for (k, q) in typed.iter().enumerate() {
            if k > 0 && typed[k - 1].len() < q.len() {
                narrowing += 1;
                narrowed_from_bounds +=
                    usize::from(s.results().matches.iter().any(|m| !m.is_exact()));
            }
            type_until_page(&mut s, q, Scope::Title);
            let want = fresh(&papers, q);
            let page = want.len().min(FIRST_PAGE);
            assert_eq!(&shown(&s)[..page], &want[..page], "{q}: first page");
            assert_eq!(s.matched(), want.len(), "{q}: matches");
        }
        // (25 of 28 when written.)
        assert!(
            narrowed_from_bounds * 2 > narrowing,
            "only {narrowed_from_bounds} of {narrowing} steps narrowed from bounds"
        );
        s.pause_after_page(false);
        assert!(s.wait(Duration::from_secs(20)));
        s.tick();
        let want = fresh(&papers, "sparse attn");
        assert!(!want.is_empty());
        assert_eq!(shown(&s), want);
    }

    #[test]
    fn typing_every_field_shows_each_final_page_before_the_count() {
        // Over every field a page is found from the word hits' bounds and
        // shown final while the pass still counts the matches: each key
        // comes as soon as it is shown, and it must be the fresh
        // ranking's first page; the ranking it ends in must be the fresh
        // one whole. The worker waits after each page, so that the keys
        // meet it before the count however loaded the machine is.
        let papers = fielded(6_000);
        let mut s = Search::new(|| {});
        s.extend(&papers);
        while s.indexed().0 < papers.len() {
            std::thread::sleep(Duration::from_millis(2));
        }
        s.pause_after_page(true);
        let typed: Vec<&str> = ["graph mot", "sparse pap !robot", "robot zz"]
            .iter()
            .flat_map(|q| (1..=q.len()).map(|k| &q[..k]))
            .collect();
        let mut before_the_count = 0;
        for q in &typed {
            type_until_page(&mut s, q, Scope::All);
            before_the_count += usize::from(!s.results().scanned);
            let want = fresh_in(&papers, q, Scope::All);
            let page = want.len().min(FIRST_PAGE);
            assert_eq!(&shown(&s)[..page], &want[..page], "{q}: first page");
        }
        // (31 of 34 when written.)
        assert!(
            before_the_count * 2 > typed.len(),
            "only {before_the_count} of {} pages shown before the count",
            typed.len()
        );
        s.pause_after_page(false);
        assert!(s.wait(Duration::from_secs(20)));
        s.tick();
        let want = fresh_in(&papers, "robot zz", Scope::All);
        assert_eq!(shown(&s), want);
        s.set_query("graph mot", Scope::All);
        assert!(s.wait(Duration::from_secs(20)));
        s.tick();
        let want = fresh_in(&papers, "graph mot", Scope::All);
        assert!(want.len() > FIRST_PAGE);
        assert_eq!(shown(&s), want);
    }

    #[test]
    fn typing_every_field_narrows_and_each_step_ranks_as_a_fresh_ranking() {
        // Each key waits for its ranking, so that the next narrows from
        // it where it may (more letters of a word being typed, or a word
        // more), and must end where a fresh ranking of the query as typed
        // does.
        let mut papers = fielded(5_000);
        papers[3].abstract_text = "Studies of graphs, a study of graphing.".into();
        let mut s = Search::new(|| {});
        s.extend(&papers);
        while s.indexed().0 < papers.len() {
            std::thread::sleep(Duration::from_millis(2));
        }
        for q in ["graph motion papers", "studies gra", "robot !sparse diff"] {
            for k in 1..=q.len() {
                let typed = &q[..k];
                s.type_query(typed, Scope::All);
                assert!(s.wait(Duration::from_secs(20)), "{typed}");
                s.tick();
                let want: Vec<(u32, u64)> = ranking_typed(&papers, typed, Scope::All)
                    .matches
                    .iter()
                    .map(|m| (m.idx, m.key))
                    .collect();
                assert_eq!(shown(&s).len(), want.len(), "{typed:?}");
                assert!(shown(&s) == want, "{typed:?}: differs from a fresh ranking");
            }
        }
    }

    /// Sets the query, and waits until its first page is shown final.
    fn type_until_page(s: &mut Search, q: &str, scope: Scope) {
        s.set_query(q, scope);
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            s.tick();
            if s.first_page_final() {
                return;
            }
            assert!(Instant::now() < deadline, "{q}");
            std::thread::sleep(Duration::from_micros(200));
        }
    }

    /// The ranking shown: papers and their sort keys.
    fn shown(s: &Search) -> Vec<(u32, u64)> {
        s.results().matches.iter().map(|m| (m.idx, m.key)).collect()
    }

    /// A title-scope ranking from scratch, in the same terms.
    fn fresh(papers: &[Paper], q: &str) -> Vec<(u32, u64)> {
        fresh_in(papers, q, Scope::Title)
    }

    /// A ranking from scratch in `scope`, in the same terms (every row).
    fn fresh_in(papers: &[Paper], q: &str, scope: Scope) -> Vec<(u32, u64)> {
        ranking(papers, q, scope)
            .matches
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
            assert!(!want.is_empty(), "{q}: no match to compare");
            assert_eq!(got.len(), want.len(), "{q}");
            assert!(got == want, "{q}: scores differ from a fresh ranking");
        }
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

    /// Papers with abstracts, authors, years and ids that vary.
    pub(super) fn fielded(n: usize) -> Vec<Paper> {
        let names = [
            "Yoshua Bengio",
            "Hinrich Schütze",
            "Samy Bengio",
            "Ada Lovelace",
        ];
        let topics = [
            "sparse attention",
            "graph colouring",
            "diffusion models",
            "robot motion",
        ];
        (0..n)
            .map(|i| {
                crate::corpus::Record {
                    title: Some(format!("{} paper {i}", topics[i % 4])),
                    abstract_text: Some(format!(
                        "We study {} with {} and more.",
                        topics[(i / 4) % 4],
                        topics[(i / 16) % 4]
                    )),
                    authors: [names[i % 4], names[(i / 3) % 4]].into_iter().collect(),
                    year: Some(2015 + (i % 10) as i32),
                    venue: Some(["ICML", "NeurIPS"][i % 2].into()),
                    ..Default::default()
                }
                .into_paper(&"t".into(), i as u32)
                .unwrap()
            })
            .collect()
    }

    #[test]
    fn a_read_back_index_ranks_from_the_bytes_a_query_reads_alone() {
        let mut papers = fielded(3_000);
        papers[7].abstract_text = "Pruning attention heads, ATTENTIONAL or not.".into();
        let mut bytes = Vec::new();
        index_papers(&papers).write_to(&mut bytes).unwrap();
        let whole = WordIndex::from_bytes(std::sync::Arc::new(bytes.clone())).unwrap();
        let mut list = TitleList::default();
        list.push(papers.clone());
        list.finish();
        for q in [
            "robot",
            "sparse attention",
            "Attention prun",
            "graph-colouring diff",
            "!sparse atten",
            "b",
            "zzz",
            "author:bengio robot",
            "author:schutze !author:samy diffusion",
            "venue:icml | year:..2016 robot",
            "title:sparse abs:graph",
            "sparse | robo graph",
            "author:'samy year:2019..2021",
        ] {
            let read = index_bytes_read(&whole, q).unwrap();
            // Every byte the query does not read, garbled.
            let mut garbled = vec![0xA5u8; bytes.len()];
            for r in &read {
                garbled[r.clone()].copy_from_slice(&bytes[r.clone()]);
            }
            let left = garbled.iter().zip(&bytes).filter(|(g, b)| g != b).count();
            if q != "b" {
                assert!(left > bytes.len() / 10, "{q}: {left} bytes unread");
            }
            let garbled = WordIndex::from_bytes(std::sync::Arc::new(garbled)).unwrap();
            for scope in [Scope::All, Scope::Title] {
                let want = rank_titles_indexed(&list, q, scope, &whole).unwrap();
                if scope == Scope::All {
                    assert_eq!(want.matches.is_empty(), q == "zzz", "{q}");
                }
                let got = rank_titles_indexed(&list, q, scope, &garbled).unwrap();
                assert_eq!(got, want, "{q} {scope:?}");
            }
        }
        // An index built here is read from no bytes.
        assert!(index_bytes_read(&index_papers(&papers), "robot").is_none());
    }

    #[test]
    fn papers_left_unchecked_past_the_first_page_are_checked_before_they_count() {
        // `gnn` starts no word: every field ranks by the title alone. A
        // page of titles where it scores its most, then titles whose `g`
        // has no bonus, which the masks put under the page's floor
        // unread: half match it, half (no `n` after the `g`) do not.
        let mut papers: Vec<Paper> = (0..600)
            .map(|k| paper(&format!("Graph Neural Nets {k}"), "about plain things"))
            .collect();
        for k in 0..1_000 {
            papers.push(paper(&format!("Learning Nonlinear Networks {k}"), "plain"));
            papers.push(paper(&format!("Learning Deep Trees {k}"), "plain"));
        }
        let mut s = Search::new(|| {});
        s.extend(&papers);
        for q in ["g", "gn", "gnn"] {
            s.set_query(q, Scope::All);
            assert!(s.wait(Duration::from_secs(20)), "{q}");
            s.tick();
            let want = fresh_in(&papers, q, Scope::All);
            assert_eq!(shown(&s).len(), want.len(), "{q}");
            assert!(shown(&s) == want, "{q}: differs from a fresh ranking");
        }
        // No paper holds `gnn`: the titles are rows, not matches.
        assert_eq!(s.matched(), 1_600);
        assert_eq!(s.counted(), 0);
        assert_eq!(s.notes().unheld, ["gnn"]);
        assert!(rank_papers(&papers, "gnn", Scope::All).is_empty());
        // A ranking made whole at once leaves none unchecked.
        let page = ranking(&papers, "gnn", Scope::All).matches;
        assert_eq!(page.len(), 1_600);
        assert!(page.iter().all(|m| m.is_checked() && m.is_exact()));
    }

    #[test]
    fn the_reader_ranks_every_field_and_filters_as_a_fresh_ranking_does() {
        let papers = fielded(4_000);
        let mut s = Search::new(|| {});
        s.extend(&papers);
        for q in [
            "sparse",
            "graph mot",
            "author:bengio",
            "author:bengio !author:samy diffusion",
            "author:schutze year:2019..2021",
            "venue:icml | year:..2016 robot",
            "title:sparse abs:graph",
            "robot zzz",
        ] {
            s.set_query(q, Scope::All);
            assert!(s.wait(Duration::from_secs(20)), "{q}");
            s.tick();
            let want = fresh_in(&papers, q, Scope::All);
            let got = shown(&s);
            assert_eq!(want.is_empty(), q.contains("zzz"), "{q}");
            assert_eq!(got.len(), want.len(), "{q}");
            assert!(got == want, "{q}: differs from a fresh ranking");
        }
        // Filters narrow as they say.
        let bengio = rank_papers(&papers, "author:bengio !author:samy", Scope::All);
        assert!(!bengio.is_empty());
        for m in &bengio {
            let a = papers[m.idx as usize].authors.join(", ");
            assert!(a.contains("Yoshua Bengio") && !a.contains("Samy"), "{a}");
        }
        let years = rank_papers(&papers, "year:2019..2021", Scope::Title);
        assert_eq!(years.len(), 4_000 * 3 / 10);
    }

    #[test]
    fn tags_given_later_rerun_a_query_that_asks_for_them() {
        let papers = fielded(300);
        let mut s = Search::new(|| {});
        s.extend(&papers);
        s.set_query("tag:keep graph", Scope::All);
        assert!(s.wait(Duration::from_secs(20)));
        s.tick();
        assert_eq!(s.matched(), 0);
        let mut labels = Labels::default();
        for i in [0, 1, 4, 8] {
            labels.add_tag(i, "Keep");
        }
        s.set_labels(labels.clone());
        assert!(s.wait(Duration::from_secs(20)));
        s.tick();
        let mut got: Vec<u32> = s.results().matches.iter().map(|m| m.idx).collect();
        got.sort();
        // Paper 1 has graph in its title, 4 in its abstract; 0 and 8 not.
        assert_eq!(got, [1, 4]);
        let want: Vec<u32> = rank_labelled(&papers, "tag:keep graph", Scope::All, &labels, None)
            .iter()
            .map(|m| m.idx)
            .collect();
        assert_eq!(
            s.results()
                .matches
                .iter()
                .map(|m| m.idx)
                .collect::<Vec<_>>(),
            want
        );
    }
}
