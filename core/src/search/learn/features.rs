//! The vectors the reader's models learn from and group by: TF-IDF of a
//! paper's words (by Snowball stem), word pairs and authors, hashed into
//! a fixed number of columns so that no vocabulary is kept or merged
//! (the hashing trick). Each row has unit length. A paper's terms are
//! read again, by [`for_each_term`], only to name the words behind a
//! column (a reason, a topic's label).

use rustc_hash::FxHashMap;
use xxhash_rust::xxh3::xxh3_64_with_seed;

use super::super::fields::{fold, for_each_folded};
use super::super::words::stem;
use crate::corpus::Paper;
use crate::text::markup;

/// Columns: 2^20 (a million), few enough collisions among the words and
/// pairs of a million abstracts for a linear model, and dense weights of
/// 4 MB.
pub const BITS: u32 = 20;
/// The number of columns.
pub const DIM: usize = 1 << BITS;

/// How much a title word counts beside an abstract word.
const TITLE_WEIGHT: f32 = 2.0;

/// Words that say nothing of a paper's subject: English function words
/// and the stock words of abstracts.
const STOP: &[&str] = &[
    "about",
    "above",
    "after",
    "again",
    "all",
    "also",
    "although",
    "among",
    "and",
    "any",
    "are",
    "based",
    "been",
    "being",
    "both",
    "but",
    "can",
    "could",
    "does",
    "done",
    "due",
    "each",
    "either",
    "for",
    "from",
    "further",
    "given",
    "had",
    "has",
    "have",
    "here",
    "how",
    "however",
    "into",
    "its",
    "itself",
    "may",
    "more",
    "most",
    "much",
    "new",
    "not",
    "novel",
    "now",
    "obtained",
    "one",
    "only",
    "other",
    "our",
    "over",
    "paper",
    "present",
    "presented",
    "propose",
    "proposed",
    "provide",
    "result",
    "results",
    "several",
    "show",
    "shown",
    "shows",
    "some",
    "such",
    "than",
    "that",
    "the",
    "their",
    "them",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "through",
    "thus",
    "two",
    "under",
    "use",
    "used",
    "using",
    "very",
    "via",
    "was",
    "were",
    "what",
    "when",
    "where",
    "whether",
    "which",
    "while",
    "who",
    "whose",
    "why",
    "will",
    "with",
    "within",
    "without",
    "work",
    "would",
    "yet",
];

/// Whether `w` (folded) is a word worth a column: three letters or more,
/// not only digits, not a stop word.
fn worth(w: &str) -> bool {
    w.len() >= 3 && !w.bytes().all(|b| b.is_ascii_digit()) && !STOP.contains(&w)
}

/// One term of a paper, as [`for_each_term`] hands it on.
#[derive(Clone, Copy, Debug)]
pub enum Term<'a> {
    /// A word (folded, as written), of the title or not.
    Word { word: &'a str, title: bool },
    /// Two words side by side (stop words left out between them).
    Pair(&'a str, &'a str),
    /// An author, by folded family name and first initial.
    Author(&'a str),
}

impl Term<'_> {
    /// How the term is shown in a reason or a label.
    pub fn label(&self) -> String {
        match self {
            Term::Word { word, .. } => (*word).to_string(),
            Term::Pair(a, b) => format!("{a} {b}"),
            Term::Author(a) => a.to_string(),
        }
    }
}

/// Seeds that keep the three kinds of term apart in the columns.
const WORD_SEED: u64 = 0x9e37_79b9_7f4a_7c15;
const AUTHOR_SEED: u64 = 0xc2b2_ae3d_27d4_eb4f;

/// A word's stem hash, remembered per word (stemming is the dear part).
#[derive(Default)]
pub struct Stems(FxHashMap<Box<str>, u64>);

impl Stems {
    /// The hash of `word`'s stem.
    fn of(&mut self, word: &str) -> u64 {
        if let Some(&h) = self.0.get(word) {
            return h;
        }
        let h = xxh3_64_with_seed(stem(word).as_bytes(), WORD_SEED);
        if self.0.len() < 1 << 20 {
            self.0.insert(word.into(), h);
        }
        h
    }
}

/// The column of a stem hash.
fn column(h: u64) -> u32 {
    (h >> (64 - BITS)) as u32
}

/// The column of two words side by side, by their stem hashes.
fn pair_column(a: u64, b: u64) -> u32 {
    column(a.rotate_left(23) ^ b.wrapping_mul(0xff51_afd7_ed55_8ccd) ^ 0x2545_f491_4f6c_dd1d)
}

/// Calls `f` with each term of `p` and its column: the title's words and
/// pairs, then the abstract's, then the authors. `stems` remembers stems
/// across calls.
pub fn for_each_term(p: &Paper, stems: &mut Stems, mut f: impl FnMut(u32, Term<'_>)) {
    let mut buf = String::new();
    let mut prev = String::new();
    let mut fields = |text: &str, title: bool, f: &mut dyn FnMut(u32, Term<'_>)| {
        let mut last: Option<u64> = None;
        for_each_folded(text, &mut buf, |w| {
            if !worth(w) {
                return;
            }
            let h = stems.of(w);
            f(column(h), Term::Word { word: w, title });
            if let Some(l) = last {
                f(pair_column(l, h), Term::Pair(&prev, w));
            }
            last = Some(h);
            prev.clear();
            prev.push_str(w);
        });
    };
    fields(&markup::plain_cow(&p.title), true, &mut f);
    fields(&markup::plain_cow(&p.abstract_text.text()), false, &mut f);
    for name in p.authors.names() {
        let first = name
            .given
            .chars()
            .next()
            .map(|c| fold(&c.to_string()).into_owned());
        let key = format!("{} {}", fold(&name.family), first.unwrap_or_default());
        let key = key.trim();
        if key.is_empty() {
            continue;
        }
        f(
            column(xxh3_64_with_seed(key.as_bytes(), AUTHOR_SEED)),
            Term::Author(key),
        );
    }
}

/// Scales `vals` to unit length (all zero stays so).
pub fn unit_length(vals: &mut [f32]) {
    let norm = vals.iter().map(|v| v * v).sum::<f32>().sqrt();
    if norm > 0.0 {
        vals.iter_mut().for_each(|v| *v /= norm);
    }
}

/// The TF-IDF rows of a list of papers, sparse, each of unit length.
pub struct Features {
    /// Where each row starts in `cols` and `vals`; one more than rows.
    offsets: Vec<usize>,
    cols: Vec<u32>,
    vals: Vec<f32>,
    /// Inverse document frequency by column.
    idf: Vec<f32>,
}

/// One paper's term counts by column, sorted by column.
fn counts(p: &Paper, stems: &mut Stems, keep: &dyn Fn(&Term<'_>) -> bool) -> Vec<(u32, f32)> {
    let mut terms: Vec<(u32, f32)> = Vec::new();
    for_each_term(p, stems, |c, t| {
        if !keep(&t) {
            return;
        }
        let w = match t {
            Term::Word { title: true, .. } => TITLE_WEIGHT,
            _ => 1.0,
        };
        terms.push((c, w));
    });
    terms.sort_unstable_by_key(|t| t.0);
    let mut out: Vec<(u32, f32)> = Vec::with_capacity(terms.len());
    for (c, w) in terms {
        match out.last_mut() {
            Some(last) if last.0 == c => last.1 += w,
            _ => out.push((c, w)),
        }
    }
    out
}

impl Features {
    /// The rows of `papers`, built on every core. A column held by one
    /// paper alone is dropped (it tells that paper from no other).
    pub fn build(papers: &[Paper]) -> Features {
        Features::build_of(papers, |_| true)
    }

    /// [`Features::build`] of the terms `keep` takes.
    pub fn build_of(papers: &[Paper], keep: impl Fn(&Term<'_>) -> bool + Sync) -> Features {
        let all: Vec<usize> = (0..papers.len()).collect();
        Features::build_picked(papers, &all, keep)
    }

    /// [`Features::build_of`] of papers `rows` alone: row `i` is paper
    /// `rows[i]`.
    pub fn build_picked(
        papers: &[Paper],
        rows: &[usize],
        keep: impl Fn(&Term<'_>) -> bool + Sync,
    ) -> Features {
        let threads = crate::parallel::threads();
        let piece = rows.len().div_ceil(threads).max(1);
        let parts: Vec<Vec<Vec<(u32, f32)>>> = crate::parallel::map_pieces(rows, piece, |_, rs| {
            let mut stems = Stems::default();
            rs.iter()
                .map(|&i| counts(&papers[i], &mut stems, &keep))
                .collect()
        });
        let mut df = vec![0u32; DIM];
        for row in parts.iter().flatten() {
            for &(c, _) in row {
                df[c as usize] += 1;
            }
        }
        let n = rows.len() as f32;
        let idf: Vec<f32> = df
            .iter()
            .map(|&d| {
                if d < 2 {
                    0.0
                } else {
                    ((1.0 + n) / (1.0 + d as f32)).ln() + 1.0
                }
            })
            .collect();
        let total: usize = parts.iter().flatten().map(Vec::len).sum();
        let mut f = Features {
            offsets: Vec::with_capacity(rows.len() + 1),
            cols: Vec::with_capacity(total),
            vals: Vec::with_capacity(total),
            idf,
        };
        f.offsets.push(0);
        for row in parts.into_iter().flatten() {
            let start = f.cols.len();
            for (c, tf) in row {
                let w = (1.0 + tf.ln()) * f.idf[c as usize];
                if w > 0.0 {
                    f.cols.push(c);
                    f.vals.push(w);
                }
            }
            unit_length(&mut f.vals[start..]);
            f.offsets.push(f.cols.len());
        }
        f
    }

    /// The number of rows (papers).
    pub fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Row `i`: its columns and values.
    pub fn row(&self, i: usize) -> (&[u32], &[f32]) {
        let r = self.offsets[i]..self.offsets[i + 1];
        (&self.cols[r.clone()], &self.vals[r])
    }

    /// The dot product of row `i` with dense weights `w`.
    pub fn dot(&self, i: usize, w: &[f32]) -> f32 {
        let (c, v) = self.row(i);
        c.iter().zip(v).map(|(&c, &v)| w[c as usize] * v).sum()
    }

    /// The inverse document frequency of column `c` (0: dropped).
    pub fn idf(&self, c: u32) -> f32 {
        self.idf[c as usize]
    }

    /// The bytes the rows take.
    pub fn heap_bytes(&self) -> usize {
        self.offsets.len() * 8 + self.cols.len() * 8 + self.idf.len() * 4
    }
}
