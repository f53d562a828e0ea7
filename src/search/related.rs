//! Papers like a paper ("more like this"), like a text, or like a set of
//! papers (a reading list): ranked by the words they share, weighted by
//! how rare each word is.

use rustc_hash::FxHashMap;

use super::Search;
use super::index::words;
use crate::corpus::Paper;
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

/// Ranks `papers` by likeness to `probe`, best first, at most `limit`,
/// only papers `keep` accepts (the probe's own papers never), on the
/// caller's thread.
pub fn related_papers(
    papers: &[Paper],
    probe: Probe<'_>,
    limit: usize,
    keep: &dyn Fn(usize) -> bool,
) -> Vec<Related> {
    // Plain TF-IDF cosine, for now.
    let docs: Vec<FxHashMap<String, f32>> = papers
        .iter()
        .map(|p| {
            let mut tf = FxHashMap::default();
            for w in words(&paper_text(p)) {
                *tf.entry(w).or_insert(0.0) += 1.0;
            }
            tf
        })
        .collect();
    let mut df: FxHashMap<&str, f32> = FxHashMap::default();
    for d in &docs {
        for w in d.keys() {
            *df.entry(w.as_str()).or_insert(0.0) += 1.0;
        }
    }
    let n = papers.len().max(1) as f32;
    let vector = |tf: &FxHashMap<String, f32>| -> FxHashMap<String, f32> {
        let mut v: FxHashMap<String, f32> = tf
            .iter()
            .map(|(w, &c)| {
                let idf = (n / df.get(w.as_str()).copied().unwrap_or(1.0)).ln();
                (w.clone(), c * idf)
            })
            .collect();
        let norm = v.values().map(|x| x * x).sum::<f32>().sqrt().max(1e-9);
        v.values_mut().for_each(|x| *x /= norm);
        v
    };
    let (probe_tf, own): (FxHashMap<String, f32>, Vec<usize>) = match probe {
        Probe::Paper(i) => (docs.get(i).cloned().unwrap_or_default(), vec![i]),
        Probe::Papers(set) => {
            let mut tf = FxHashMap::default();
            for &i in set {
                for (w, c) in docs.get(i).into_iter().flatten() {
                    *tf.entry(w.clone()).or_insert(0.0) += c;
                }
            }
            (tf, set.to_vec())
        }
        Probe::Text(t) => {
            let mut tf = FxHashMap::default();
            for w in words(t) {
                *tf.entry(w).or_insert(0.0) += 1.0;
            }
            (tf, Vec::new())
        }
    };
    let q = vector(&probe_tf);
    let mut out: Vec<Related> = docs
        .iter()
        .enumerate()
        .filter(|(i, _)| !own.contains(i) && keep(*i))
        .filter_map(|(i, d)| {
            let v = vector(d);
            let score: f32 = q.iter().map(|(w, x)| x * v.get(w).unwrap_or(&0.0)).sum();
            (score > 0.0).then_some(Related { idx: i, score })
        })
        .collect();
    out.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.idx.cmp(&b.idx)));
    out.truncate(limit);
    out
}

impl Search {
    /// [`related_papers`] among `papers` (the papers this search was given,
    /// in the same order), using the word index where it is built.
    pub fn related(
        &self,
        papers: &[Paper],
        probe: Probe<'_>,
        limit: usize,
        keep: &dyn Fn(usize) -> bool,
    ) -> Vec<Related> {
        related_papers(papers, probe, limit, keep)
    }
}
