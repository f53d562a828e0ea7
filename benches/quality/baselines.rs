//! The textbook baselines: Okapi BM25 and TF-IDF cosine over title and
//! abstract, plain OR ranking, no stemming.

use std::collections::{BTreeMap, HashMap};

use crate::queries::words;

/// An inverted index of title + abstract for the textbook baselines.
pub struct Index {
    /// In word order, so that sums over it come out the same every run.
    postings: BTreeMap<String, Vec<(u32, u32)>>,
    /// Words in each paper.
    len: Vec<u32>,
    avg_len: f64,
    /// Length of each paper's TF-IDF vector.
    norm: Vec<f64>,
}

impl Index {
    pub fn new(texts: impl Iterator<Item = String>) -> Index {
        let mut postings: BTreeMap<String, Vec<(u32, u32)>> = BTreeMap::new();
        let mut len = Vec::new();
        for (d, text) in texts.enumerate() {
            let ws = words(&text);
            len.push(ws.len() as u32);
            for (w, tf) in counts(&ws) {
                postings.entry(w).or_default().push((d as u32, tf));
            }
        }
        let n = len.len();
        let avg_len = len.iter().map(|&l| f64::from(l)).sum::<f64>() / n.max(1) as f64;
        let mut ix = Index {
            postings,
            len,
            avg_len,
            norm: vec![0.0; n],
        };
        let mut norm = vec![0.0; n];
        for list in ix.postings.values() {
            let idf = ix.tfidf_idf(list.len());
            for &(d, tf) in list {
                norm[d as usize] += (f64::from(tf) * idf).powi(2);
            }
        }
        ix.norm = norm.into_iter().map(f64::sqrt).collect();
        ix
    }

    fn n(&self) -> usize {
        self.len.len()
    }

    fn tfidf_idf(&self, df: usize) -> f64 {
        (self.n() as f64 / df as f64).ln()
    }

    /// Okapi BM25 (k1 = 1.2, b = 0.75) of every paper holding a word of
    /// `query` (each distinct word once).
    pub fn bm25(&self, query: &[String]) -> Vec<(u32, f64)> {
        let (k1, b) = (1.2, 0.75);
        let n = self.n() as f64;
        let mut acc: HashMap<u32, f64> = HashMap::new();
        for (w, _) in counts(query) {
            let Some(list) = self.postings.get(&w) else {
                continue;
            };
            let df = list.len() as f64;
            let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
            for &(d, tf) in list {
                let tf = f64::from(tf);
                let dl = f64::from(self.len[d as usize]);
                let s = idf * tf * (k1 + 1.0) / (tf + k1 * (1.0 - b + b * dl / self.avg_len));
                *acc.entry(d).or_insert(0.0) += s;
            }
        }
        acc.into_iter().collect()
    }

    /// TF-IDF cosine (weight tf * ln(N/df)) of every paper sharing a word
    /// with `query`.
    pub fn tfidf(&self, query: &[String]) -> Vec<(u32, f64)> {
        let mut acc: HashMap<u32, f64> = HashMap::new();
        let mut qnorm = 0.0;
        for (w, qtf) in counts(query) {
            let Some(list) = self.postings.get(&w) else {
                continue;
            };
            let idf = self.tfidf_idf(list.len());
            let q = f64::from(qtf) * idf;
            qnorm += q * q;
            for &(d, tf) in list {
                *acc.entry(d).or_insert(0.0) += q * f64::from(tf) * idf;
            }
        }
        let qnorm = qnorm.sqrt();
        acc.into_iter()
            .filter(|&(_, dot)| dot > 0.0)
            .map(|(d, dot)| (d, dot / (qnorm * self.norm[d as usize]).max(1e-12)))
            .collect()
    }
}

/// Each distinct word with its count, in a fixed order.
fn counts(ws: &[String]) -> Vec<(String, u32)> {
    let mut c: Vec<(String, u32)> = Vec::new();
    let mut sorted: Vec<&String> = ws.iter().collect();
    sorted.sort();
    for w in sorted {
        match c.last_mut() {
            Some((last, n)) if last == w => *n += 1,
            _ => c.push((w.clone(), 1)),
        }
    }
    c
}

/// Best first; equal scores by paper order.
pub fn before(a: &(u32, f64), b: &(u32, f64)) -> std::cmp::Ordering {
    b.1.total_cmp(&a.1).then(a.0.cmp(&b.0))
}

/// The best `k` of scored papers, best first.
pub fn top(mut scored: Vec<(u32, f64)>, k: usize) -> Vec<usize> {
    if scored.len() > k {
        scored.select_nth_unstable_by(k, before);
        scored.truncate(k);
    }
    scored.sort_by(before);
    scored.into_iter().map(|(d, _)| d as usize).collect()
}
