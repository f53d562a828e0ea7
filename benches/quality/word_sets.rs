//! Word queries as sets: of the papers a system returns for an ordinary
//! content word, the share that hold it or another form of it (its
//! Snowball stem) in their title or abstract, or it in their authors'
//! names (precision); and of those papers, the share it returns
//! (recall). What the reader's count, `search | wc -l`, `R` and `X` act
//! on.

use std::collections::BTreeSet;
use std::time::Duration;

use paperboat::search::words::stem;
use paperboat::search::{Scope, Search, paper_text};

use crate::baselines::Index;
use crate::queries::{Rng, words};
use crate::vocab::ordinary;
use crate::{Corpus, pct};

/// Words queried per corpus.
pub const WORDS: usize = 40;

/// The systems compared.
pub const SYSTEMS: [&str; 4] = ["paperboat all", "paperboat title", "BM25", "BM25, stemmed"];

/// Sums over word queries of one system.
#[derive(Clone, Copy, Default)]
pub struct SetTally {
    /// Words queried (those whose truth holds a paper).
    pub words: usize,
    /// Words for which the system returned something.
    pub answered: usize,
    precision: f64,
    recall: f64,
    returned: usize,
    right: usize,
    truth: usize,
}

impl SetTally {
    fn add(&mut self, got: &BTreeSet<u32>, truth: &BTreeSet<u32>) {
        let right = got.intersection(truth).count();
        self.words += 1;
        if !got.is_empty() {
            self.answered += 1;
            self.precision += right as f64 / got.len() as f64;
        }
        self.recall += right as f64 / truth.len() as f64;
        self.returned += got.len();
        self.right += right;
        self.truth += truth.len();
    }

    pub fn merge(&mut self, o: &SetTally) {
        self.words += o.words;
        self.answered += o.answered;
        self.precision += o.precision;
        self.recall += o.recall;
        self.returned += o.returned;
        self.right += o.right;
        self.truth += o.truth;
    }

    /// Mean precision over the words answered, mean recall over all.
    pub fn means(&self) -> (f64, f64) {
        (
            self.precision / self.answered.max(1) as f64,
            self.recall / self.words.max(1) as f64,
        )
    }
}

/// Each system's tally over `c`'s ordinary words.
pub fn word_sets(c: &Corpus) -> [SetTally; 4] {
    let mut rng = Rng::named(&format!("words {}", c.name));
    let chosen: Vec<String> = ordinary(&c.vocab, c.papers.len(), 4 * WORDS, &mut rng)
        .into_iter()
        .filter(|w| w.is_ascii())
        .take(WORDS)
        .collect();
    let stemmed = Index::new(c.papers.iter().map(|p| {
        words(&paper_text(p))
            .iter()
            .map(|w| stem(w).into_owned())
            .collect::<Vec<_>>()
            .join(" ")
    }));
    let mut live = Search::new(|| {});
    live.extend(&c.papers);
    let mut out = [SetTally::default(); 4];
    for w in &chosen {
        let truth = c.vocab.truth(w);
        if truth.is_empty() {
            continue;
        }
        for (s, tally) in out.iter_mut().enumerate() {
            let got: BTreeSet<u32> = match s {
                0 | 1 => {
                    let scope = if s == 0 { Scope::All } else { Scope::Title };
                    live.set_query(w, scope);
                    assert!(live.wait(Duration::from_secs(600)), "{w}");
                    live.tick();
                    let r = live.results();
                    r.matches[..r.counted()].iter().map(|m| m.idx).collect()
                }
                2 => c
                    .index
                    .bm25(std::slice::from_ref(w))
                    .into_iter()
                    .map(|d| d.0)
                    .collect(),
                _ => stemmed
                    .bm25(&[stem(w).into_owned()])
                    .into_iter()
                    .map(|d| d.0)
                    .collect(),
            };
            tally.add(&got, &truth);
        }
    }
    out
}

/// Prints the tallies, one row a system.
pub fn print(t: &[SetTally; 4]) {
    println!(
        "  {:<16} {:>6} {:>10} {:>8} {:>9} {:>10} {:>9}",
        "system", "words", "precision", "recall", "returned", "right", "to find"
    );
    for (s, x) in t.iter().enumerate() {
        if x.words == 0 {
            continue;
        }
        let (p, r) = x.means();
        println!(
            "  {:<16} {:>6} {:>10.3} {:>8.3} {:>9} {:>10} {:>9}",
            SYSTEMS[s], x.words, p, r, x.returned, x.right, x.truth
        );
    }
    let x = &t[0];
    if x.words > 0 {
        println!(
            "  (paperboat all, pooled: precision {}, recall {})",
            pct(x.right, x.returned),
            pct(x.right, x.truth)
        );
    }
}
