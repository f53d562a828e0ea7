//! Papers like a paper ("more like this"), like a text, or like a set of
//! papers (a reading list): ranked by the words they share, weighted by
//! how rare each word is.

use rustc_hash::FxHashMap;

use super::fields::for_each_folded;
use super::words::WordIndex;
use super::{Search, index_papers};
use crate::corpus::{Paper, PaperAt};
use crate::text::markup;

/// What related papers are asked for.
#[derive(Clone, Copy, Debug)]
pub enum Probe<'a> {
    /// Papers like paper `idx` (itself left out).
    Paper(usize),
    /// Papers like these together (they are left out).
    Papers(&'a [usize]),
    /// Papers like a free text.
    Text(&'a str),
}

/// A related paper: its index and how alike (higher is closer).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Related {
    pub idx: usize,
    pub score: f32,
}

/// The text a paper is compared by: its title and abstract, markup
/// removed.
pub fn paper_text(p: &Paper) -> String {
    let mut s = markup::plain_cow(&p.title).into_owned();
    s.push('\n');
    s.push_str(&markup::plain_cow(&p.abstract_text.text()));
    s
}

/// Words of the probe that rank (the rarest and most repeated). On the
/// quality bench's arXiv list, 40 words put 20% of the top 5 in the
/// paper's category and 100 words 22% (a TF-IDF cosine over every word:
/// 20%); more words cost time for little.
const PROBE_WORDS: usize = 100;

/// Ranks `papers` by likeness to `probe`, best first, at most `limit`,
/// only papers `keep` accepts (the probe's own papers never), on the
/// caller's thread: builds the word index, then as [`related_in`].
pub fn related_papers(
    papers: &[Paper],
    probe: Probe<'_>,
    limit: usize,
    keep: &dyn Fn(usize) -> bool,
) -> Vec<Related> {
    related_in(&index_papers(papers), papers, probe, limit, keep)
}

/// The probe's words, each weighted by how often it says it and how rare
/// it is (TF-IDF, each probe paper counting the same), strongest first.
fn probe_words(index: &WordIndex, texts: &[String]) -> Vec<(String, f32)> {
    let mut total: FxHashMap<String, f32> = FxHashMap::default();
    let mut buf = String::new();
    for text in texts {
        let mut tf: FxHashMap<String, f32> = FxHashMap::default();
        for_each_folded(text, &mut buf, |w| {
            *tf.entry(w.to_string()).or_default() += 1.0
        });
        let weighted: Vec<(String, f32)> = tf
            .into_iter()
            .filter_map(|(w, c)| {
                let df = index.document_frequency(&w);
                // A word no other paper has cannot bring one closer.
                (df > 0).then(|| {
                    let idf = index.idf(df);
                    (w, (1.0 + c.ln()) * idf)
                })
            })
            .collect();
        let norm = weighted.iter().map(|(_, x)| x * x).sum::<f32>().sqrt();
        for (w, x) in weighted {
            *total.entry(w).or_default() += x / norm.max(1e-6);
        }
    }
    let mut words: Vec<(String, f32)> = total.into_iter().collect();
    words.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    words.truncate(PROBE_WORDS);
    words
}

/// [`related_papers`] with the word index built: each paper scores the
/// sum, over the probe's strongest words, of the word's weight in the
/// probe times its BM25F weight in the paper (title and abstract) times
/// its idf.
pub fn related_in(
    index: &WordIndex,
    papers: &(impl PaperAt + ?Sized),
    probe: Probe<'_>,
    limit: usize,
    keep: &dyn Fn(usize) -> bool,
) -> Vec<Related> {
    let n = index.indexed.min(papers.count());
    let (texts, own): (Vec<String>, Vec<usize>) = match probe {
        Probe::Paper(i) => (
            papers.paper_at(i).map(paper_text).into_iter().collect(),
            vec![i],
        ),
        Probe::Papers(set) => (
            set.iter()
                .filter_map(|&i| papers.paper_at(i))
                .map(paper_text)
                .collect(),
            set.to_vec(),
        ),
        Probe::Text(t) => (vec![t.to_string()], Vec::new()),
    };
    let mut scores = vec![0.0f32; n];
    for (w, weight) in probe_words(index, &texts) {
        let idf = index.idf(index.document_frequency(&w));
        index.add_word_weights(&w, weight * idf, &mut scores);
    }
    for &i in &own {
        if let Some(s) = scores.get_mut(i) {
            *s = 0.0;
        }
    }
    let mut out: Vec<Related> = scores
        .iter()
        .enumerate()
        .filter(|&(i, &s)| s > 0.0 && keep(i))
        .map(|(idx, &score)| Related { idx, score })
        .collect();
    let best = |a: &Related, b: &Related| b.score.total_cmp(&a.score).then(a.idx.cmp(&b.idx));
    if out.len() > limit && limit > 0 {
        out.select_nth_unstable_by(limit - 1, best);
    }
    out.truncate(limit);
    out.sort_by(best);
    out
}

impl Search {
    /// [`related_papers`] among `papers` (the papers this search was given,
    /// in the same order), with the word index built so far (papers not
    /// yet indexed are not found: see [`Search::indexed`]).
    pub fn related(
        &self,
        papers: &(impl PaperAt + ?Sized),
        probe: Probe<'_>,
        limit: usize,
        keep: &dyn Fn(usize) -> bool,
    ) -> Vec<Related> {
        match self.shared.index.read() {
            Ok(ix) => related_in(&ix, papers, probe, limit, keep),
            Err(_) => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::tests::paper;

    fn corpus() -> Vec<Paper> {
        vec![
            paper(
                "Sparse attention for long contexts",
                "We make transformer attention sparse so long documents fit.",
            ),
            paper(
                "Protein folding with diffusion",
                "A diffusion model predicts protein structure from sequence.",
            ),
            paper(
                "Linear attention transformers",
                "Attention in linear time lets transformers read long documents.",
            ),
            paper(
                "Diffusion for molecules",
                "Diffusion models generate molecules and protein binders.",
            ),
            paper(
                "Graph colouring",
                "Colouring sparse graphs with few colours.",
            ),
        ]
    }

    fn ids(r: &[Related]) -> Vec<usize> {
        r.iter().map(|r| r.idx).collect()
    }

    #[test]
    fn like_a_paper_best_first_without_itself() {
        let c = corpus();
        let r = related_papers(&c, Probe::Paper(0), 10, &|_| true);
        assert_eq!(r[0].idx, 2, "{r:?}");
        assert!(!ids(&r).contains(&0));
        assert!(r.windows(2).all(|w| w[0].score >= w[1].score));
        let r = related_papers(&c, Probe::Paper(1), 1, &|_| true);
        assert_eq!(ids(&r), vec![3]);
    }

    #[test]
    fn like_a_text_and_like_a_set() {
        let c = corpus();
        let r = related_papers(
            &c,
            Probe::Text("protein structure from sequence"),
            2,
            &|_| true,
        );
        assert_eq!(r[0].idx, 1, "{r:?}");
        let r = related_papers(&c, Probe::Papers(&[0, 2]), 10, &|i| i != 4);
        assert!(!ids(&r).iter().any(|i| [0, 2, 4].contains(i)), "{r:?}");
        assert!(!r.is_empty());
        assert!(related_papers(&c, Probe::Text("zebra"), 5, &|_| true).is_empty());
    }
}
