//! The word index: for each field of a paper (title, abstract, authors,
//! venue), which papers hold which words and how often, with the fields'
//! lengths, so that a query word is scored by BM25 without reading any
//! text; and each paper's year and id, for `year:` and `id:`. Words are folded ([`fold`]): case and accents do not count.
//!
//! Built here rather than with a search engine crate: the index must grow
//! as papers stream in, answer prefixes of words as they are typed, share
//! the matcher's paper numbers, and cost no more memory than the papers'
//! text; see docs/SEARCH.md for the measurements behind the choice.
//!
//! A posting is one `u32`: the paper in the high 24 bits, the word's count
//! in the field (at most 255) in the low 8.

use rustc_hash::FxHashMap;

use super::fields::{fold, for_each_folded};
use super::index::Bits;

/// Papers past this many are not indexed (a posting holds the paper in
/// 24 bits): sixteen million, six times all of arXiv.
pub const MAX_PAPERS: usize = 1 << 24;

/// The indexed fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Title = 0,
    Abstract = 1,
    Authors = 2,
    Venue = 3,
}

const PARTS: usize = 4;

/// BM25's term-frequency saturation.
const K1: f32 = 1.2;

/// How much a word found in each field counts, and how much the field's
/// length normalises it (BM25's `b`), for the fields query words are
/// scored in: a word of the title counts three times a word of the
/// abstract (BM25F's field weight).
pub const WEIGHTED: [(Part, f32, f32); 3] = [
    (Part::Title, 3.0, 0.5),
    (Part::Abstract, 1.0, 0.75),
    (Part::Authors, 2.0, 0.3),
];

/// What the indexer reads of a paper besides its abstract.
#[derive(Clone, Debug, Default)]
pub struct DocMeta {
    /// The title as shown (plain text).
    pub title: Box<str>,
    /// Author names, one string (any separator).
    pub authors: Box<str>,
    pub venue: Box<str>,
    pub id: Box<str>,
    pub year: Option<i32>,
}

/// One field's words: word → postings, papers ascending.
#[derive(Default)]
struct Words(FxHashMap<Box<str>, Vec<u32>>);

impl Words {
    fn get(&self, word: &str) -> Option<&[u32]> {
        self.0.get(word).map(Vec::as_slice)
    }

    /// Calls `f` with every word that starts with `prefix` (or is it,
    /// when `whole`) and its postings. A prefix is answered by going
    /// through the field's words: a few milliseconds for a million papers'
    /// abstracts, and only for the word being typed (the matcher keeps the
    /// others' scores).
    fn each_with_prefix(&self, prefix: &str, whole: bool, mut f: impl FnMut(&str, &[u32])) {
        if whole {
            if let Some(p) = self.get(prefix) {
                f(prefix, p);
            }
            return;
        }
        for (w, p) in &self.0 {
            if w.starts_with(prefix) {
                f(w, p);
            }
        }
    }
}

/// Which papers hold which words, field by field (see the module doc).
#[derive(Default)]
pub struct WordIndex {
    parts: [Words; PARTS],
    /// Words per paper in the title, abstract and authors (capped).
    title_len: Vec<u8>,
    abstract_len: Vec<u16>,
    authors_len: Vec<u8>,
    /// Sums of those lengths, for the average.
    totals: [u64; 3],
    /// Year per paper (`i16::MIN` when unknown).
    years: Vec<i16>,
    /// Ids, lower case, end to end (`id_ends[i]`: where paper `i`'s
    /// ends): a map entry per id would cost several times more.
    ids: String,
    id_ends: Vec<u32>,
    /// Papers indexed so far (papers `0..indexed`).
    pub indexed: usize,
}

impl WordIndex {
    /// Indexes paper `idx` (papers come in index order; past
    /// [`MAX_PAPERS`] they are not indexed).
    pub fn add(&mut self, idx: u32, meta: &DocMeta, abstract_text: &str) {
        let i = idx as usize;
        if i >= MAX_PAPERS {
            self.indexed = self.indexed.max(i + 1);
            return;
        }
        for v in [
            &mut self.title_len as &mut dyn Grow,
            &mut self.abstract_len,
            &mut self.authors_len,
        ] {
            v.grow_to(i);
        }
        if self.years.len() < i {
            self.years.resize(i, i16::MIN);
        }
        self.years.push(
            meta.year
                .and_then(|y| i16::try_from(y).ok())
                .unwrap_or(i16::MIN),
        );
        let mut buf = String::new();
        let texts: [(&str, Part); 4] = [
            (&meta.title, Part::Title),
            (abstract_text, Part::Abstract),
            (&meta.authors, Part::Authors),
            (&meta.venue, Part::Venue),
        ];
        for (text, part) in texts {
            let words = &mut self.parts[part as usize].0;
            let mut len = 0usize;
            for_each_folded(text, &mut buf, |w| {
                len += 1;
                match words.get_mut(w) {
                    // Papers come in order: a word seen before in this
                    // paper is the last posting; count it there.
                    Some(list) => match list.last_mut() {
                        Some(last) if *last >> 8 == idx => {
                            if *last & 0xff < 0xff {
                                *last += 1;
                            }
                        }
                        _ => list.push((idx << 8) | 1),
                    },
                    None => {
                        words.insert(w.into(), vec![(idx << 8) | 1]);
                    }
                }
            });
            match part {
                Part::Title => {
                    self.title_len.push(len.min(255) as u8);
                    self.totals[0] += len.min(255) as u64;
                }
                Part::Abstract => {
                    self.abstract_len.push(len.min(65_535) as u16);
                    self.totals[1] += len.min(65_535) as u64;
                }
                Part::Authors => {
                    self.authors_len.push(len.min(255) as u8);
                    self.totals[2] += len.min(255) as u64;
                }
                _ => {}
            }
        }
        let end = self.ids.len() as u32;
        self.id_ends.grow_to_with(i, end);
        self.ids
            .extend(meta.id.chars().flat_map(char::to_lowercase));
        self.id_ends.push(self.ids.len() as u32);
        self.indexed = self.indexed.max(i + 1);
    }

    /// Appends an index of the papers that follow this one's.
    pub fn append(&mut self, other: WordIndex) {
        self.append_expecting(other, 0);
    }

    /// [`WordIndex::append`], when about `papers` papers will be indexed
    /// in all: a list that must grow is given room for its likely final
    /// length, not double its length (a million abstracts' postings would
    /// otherwise carry a third more memory than they use).
    pub fn append_expecting(&mut self, other: WordIndex, papers: usize) {
        let share = if other.indexed > 0 && papers > other.indexed {
            papers as f64 / other.indexed as f64
        } else {
            1.0
        };
        let start = self.indexed;
        for (mine, theirs) in self.parts.iter_mut().zip(other.parts) {
            let (mine, mut theirs) = (&mut mine.0, theirs.0);
            if mine.is_empty() {
                theirs.values_mut().for_each(|l| fit(l, share));
                *mine = theirs;
                continue;
            }
            for (w, list) in theirs {
                match mine.get_mut(&w) {
                    Some(have) => {
                        let need = have.len() + list.len();
                        if need > have.capacity() && share > 1.0 {
                            let likely = (need as f64 * share * 1.02) as usize;
                            have.reserve_exact(likely.max(need) - have.len());
                        }
                        have.extend(list);
                    }
                    None => {
                        let mut list = list;
                        fit(&mut list, share);
                        mine.insert(w, list);
                    }
                }
            }
        }
        let at = |v: &mut dyn Grow| v.grow_to(start);
        at(&mut self.title_len);
        at(&mut self.abstract_len);
        at(&mut self.authors_len);
        self.title_len.extend(other.title_len.iter().skip(start));
        self.abstract_len
            .extend(other.abstract_len.iter().skip(start));
        self.authors_len
            .extend(other.authors_len.iter().skip(start));
        if self.years.len() < start {
            self.years.resize(start, i16::MIN);
        }
        self.years.extend(other.years.iter().skip(start));
        let base = self.ids.len() as u32;
        self.id_ends.grow_to_with(start, base);
        let from = match start {
            0 => 0,
            _ => other.id_ends.get(start - 1).copied().unwrap_or(0),
        };
        self.ids.push_str(&other.ids[from as usize..]);
        self.id_ends
            .extend(other.id_ends.iter().skip(start).map(|&e| e - from + base));
        for (t, o) in self.totals.iter_mut().zip(other.totals) {
            *t += o;
        }
        self.indexed = self.indexed.max(other.indexed);
    }

    /// Distinct words indexed, all fields together.
    pub fn vocabulary(&self) -> usize {
        self.parts.iter().map(|p| p.0.len()).sum()
    }

    /// Bytes the index holds, roughly (postings, words, lengths).
    pub fn heap_bytes(&self) -> usize {
        let words: usize = self
            .parts
            .iter()
            .map(|p| {
                p.0.iter()
                    .map(|(w, l)| w.len() + l.capacity() * 4 + 48)
                    .sum::<usize>()
            })
            .sum();
        words
            + self.title_len.capacity() * 2
            + self.abstract_len.capacity() * 2
            + self.years.capacity() * 2
            + self.ids.capacity()
            + self.id_ends.capacity() * 4
    }

    fn average(&self, k: usize) -> f32 {
        if self.indexed == 0 {
            1.0
        } else {
            (self.totals[k] as f32 / self.indexed as f32).max(1.0)
        }
    }

    /// How rare a word held by `df` papers of the indexed is (BM25's idf).
    pub fn idf(&self, df: usize) -> f32 {
        let n = self.indexed as f32;
        let df = df as f32;
        (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
    }

    /// The length of paper `i`'s field `k` (0 title, 1 abstract, 2
    /// authors) in words.
    fn field_len(&self, k: usize, i: usize) -> f32 {
        f32::from(match k {
            0 => u16::from(self.title_len.get(i).copied().unwrap_or(0)),
            1 => self.abstract_len.get(i).copied().unwrap_or(0),
            _ => u16::from(self.authors_len.get(i).copied().unwrap_or(0)),
        })
    }

    /// Adds to `scores[i]`, for every paper `i < scores.len()` that has a
    /// word starting with `word` (already folded; the word itself when
    /// `whole`) in the title, abstract or authors, its BM25F score for
    /// that word. A word it merely starts counts less the more it leaves
    /// untyped.
    pub fn add_scores(&self, word: &str, whole: bool, scores: &mut [f32]) {
        self.add_scores_from(word, whole, 0, scores);
    }

    /// [`WordIndex::add_scores`] for papers `from..from + scores.len()`
    /// (`scores[0]` is paper `from`'s): parts of the papers can be scored
    /// on several threads.
    pub fn add_scores_from(&self, word: &str, whole: bool, from: usize, scores: &mut [f32]) {
        let n = from + scores.len();
        for (k, &(part, weight, b)) in WEIGHTED.iter().enumerate() {
            let avg = self.average(k);
            self.parts[part as usize].each_with_prefix(word, whole, |w, postings| {
                let typed = word.chars().count() as f32;
                let full = w.chars().count().max(1) as f32;
                let partial = if w.len() == word.len() {
                    1.0
                } else {
                    0.5 + 0.5 * typed / full
                };
                let idf = self.idf(postings.len()) * weight * partial;
                let first = postings.partition_point(|&p| ((p >> 8) as usize) < from);
                for &p in &postings[first..] {
                    let i = (p >> 8) as usize;
                    if i >= n {
                        break;
                    }
                    let tf = (p & 0xff) as f32;
                    let norm = 1.0 - b + b * self.field_len(k, i) / avg;
                    scores[i - from] += idf * tf * (K1 + 1.0) / (tf + K1 * norm);
                }
            });
        }
    }

    /// The papers (of the first `n`) with a word in `part` that starts
    /// with each of `words` (folded), or is it when `whole`.
    pub fn papers_with(&self, part: Part, words: &[String], whole: bool, n: usize) -> Bits {
        let mut result: Option<Bits> = None;
        for word in words {
            let mut bits = Bits::new(n);
            let word = fold(word);
            self.parts[part as usize].each_with_prefix(&word, whole, |_, postings| {
                for &p in postings {
                    if (p >> 8) as usize >= n {
                        break;
                    }
                    bits.insert(p >> 8);
                }
            });
            match &mut result {
                Some(r) => r.intersect(&bits),
                None => result = Some(bits),
            }
        }
        result.unwrap_or_else(|| Bits::full(n))
    }

    /// The papers (of the first `n`) whose id (lower case) starts with
    /// `prefix`, or whose id without its scheme (`arxiv:`, `doi:`) does.
    pub fn papers_with_id(&self, prefix: &str, n: usize) -> Bits {
        let prefix = prefix.to_lowercase();
        let mut bits = Bits::new(n);
        let mut start = 0;
        for (i, &end) in self.id_ends.iter().take(n).enumerate() {
            let id = &self.ids[start..end as usize];
            start = end as usize;
            let bare = id.split_once(':').map_or("", |(_, b)| b);
            if !prefix.is_empty() && (id.starts_with(&prefix) || bare.starts_with(&prefix)) {
                bits.insert(i as u32);
            }
        }
        bits
    }

    /// The papers (of the first `n`) whose year is in `lo..=hi`.
    pub fn papers_in_years(&self, lo: i32, hi: i32, n: usize) -> Bits {
        let mut bits = Bits::new(n);
        for (i, &y) in self.years.iter().take(n).enumerate() {
            if y != i16::MIN && (lo..=hi).contains(&i32::from(y)) {
                bits.insert(i as u32);
            }
        }
        bits
    }

    /// The papers holding `word` (exactly, folded) in the title or the
    /// abstract: how many, for its idf.
    pub fn document_frequency(&self, word: &str) -> usize {
        [Part::Title, Part::Abstract]
            .iter()
            .map(|&p| self.parts[p as usize].get(word).map_or(0, <[u32]>::len))
            .max()
            .unwrap_or(0)
    }

    /// Adds `weight` times paper `i`'s BM25 weight of `word` (exactly) in
    /// its title and abstract to `scores[i]`, for every paper with it.
    pub fn add_word_weights(&self, word: &str, weight: f32, scores: &mut [f32]) {
        let n = scores.len();
        for (k, &(part, field_weight, b)) in WEIGHTED.iter().enumerate().take(2) {
            let Some(postings) = self.parts[part as usize].get(word) else {
                continue;
            };
            let avg = self.average(k);
            let w = weight * field_weight;
            for &p in postings {
                let i = (p >> 8) as usize;
                if i >= n {
                    break;
                }
                let tf = (p & 0xff) as f32;
                let norm = 1.0 - b + b * self.field_len(k, i) / avg;
                scores[i] += w * tf * (K1 + 1.0) / (tf + K1 * norm);
            }
        }
    }
}

/// Gives a postings list room for its likely final length (`share`
/// times what it holds, when more papers are coming), or no room to spare.
fn fit(list: &mut Vec<u32>, share: f64) {
    if share > 1.0 {
        let likely = (list.len() as f64 * share * 1.02) as usize;
        list.reserve_exact(likely.saturating_sub(list.len()));
    } else {
        list.shrink_to_fit();
    }
}

/// A per-paper vector that is padded to a paper's index before it is
/// pushed (papers beyond the indexed ones are never asked).
trait Grow {
    fn grow_to(&mut self, len: usize);
}

impl<T: Default + Clone> Grow for Vec<T> {
    fn grow_to(&mut self, len: usize) {
        self.grow_to_with(len, T::default());
    }
}

trait GrowWith<T> {
    fn grow_to_with(&mut self, len: usize, value: T);
}

impl<T: Clone> GrowWith<T> for Vec<T> {
    fn grow_to_with(&mut self, len: usize, value: T) {
        if self.len() < len {
            self.resize(len, value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta(title: &str, authors: &str) -> DocMeta {
        DocMeta {
            title: title.into(),
            authors: authors.into(),
            ..Default::default()
        }
    }

    fn index(docs: &[(&str, &str, &str)]) -> WordIndex {
        let mut ix = WordIndex::default();
        for (i, (t, a, abs)) in docs.iter().enumerate() {
            ix.add(i as u32, &meta(t, a), abs);
        }
        ix
    }

    fn ranked(ix: &WordIndex, word: &str, n: usize) -> Vec<usize> {
        let mut s = vec![0.0; n];
        ix.add_scores(word, false, &mut s);
        let mut order: Vec<usize> = (0..n).filter(|&i| s[i] > 0.0).collect();
        order.sort_by(|&a, &b| s[b].total_cmp(&s[a]));
        order
    }

    #[test]
    fn a_word_in_the_title_outranks_it_in_the_abstract() {
        let ix = index(&[
            ("Dense retrieval", "", "Retrieval with genomic codes."),
            ("Genomic language models", "", "Models of DNA."),
            ("Vision", "", "Nothing of it."),
        ]);
        assert_eq!(ranked(&ix, "genomic", 3), vec![1, 0]);
        assert_eq!(ranked(&ix, "geno", 3), vec![1, 0], "prefixes");
        assert_eq!(ranked(&ix, "enomic", 3), Vec::<usize>::new(), "not infixes");
    }

    #[test]
    fn the_whole_word_outranks_a_longer_word_it_starts() {
        let ix = index(&[("Learning to rank", "", ""), ("Learn to rank", "", "")]);
        assert_eq!(ranked(&ix, "learn", 2), vec![1, 0]);
    }

    #[test]
    fn authors_fold_case_and_accents() {
        let ix = index(&[
            ("A", "José Hernández-Orallo", ""),
            ("B", "Hinrich Schütze", ""),
            ("C", "Jürgen Schmidhuber", ""),
        ]);
        let who = |w: &str| {
            let b = ix.papers_with(Part::Authors, &[w.to_string()], false, 3);
            (0..3).filter(|&i| b.contains(i)).collect::<Vec<_>>()
        };
        assert_eq!(who("hernandez"), vec![0]);
        assert_eq!(who("orallo"), vec![0]);
        assert_eq!(who("schutze"), vec![1]);
        assert_eq!(who("Schütze"), vec![1]);
        assert_eq!(who("schmid"), vec![2]);
        assert_eq!(who("sch"), vec![1, 2]);
    }

    #[test]
    fn an_index_built_in_pieces_is_the_index_built_whole() {
        let texts: Vec<String> = (0..300)
            .map(|i| {
                format!(
                    "Paper {i} on Sparse attention, word{} word{}",
                    i % 7,
                    i % 11
                )
            })
            .collect();
        let m = |i: usize| DocMeta {
            title: format!("T{}", i % 5).into(),
            authors: format!("Author{}", i % 13).into(),
            year: Some(2000 + (i % 20) as i32),
            id: format!("arxiv:{i}").into(),
            ..Default::default()
        };
        let mut whole = WordIndex::default();
        for (i, t) in texts.iter().enumerate() {
            whole.add(i as u32, &m(i), t);
        }
        let mut pieces = WordIndex::default();
        for (k, chunk) in texts.chunks(64).enumerate() {
            let mut piece = WordIndex::default();
            for (j, t) in chunk.iter().enumerate() {
                piece.add((k * 64 + j) as u32, &m(k * 64 + j), t);
            }
            pieces.append_expecting(piece, texts.len());
        }
        assert_eq!(pieces.indexed, 300);
        assert_eq!(pieces.vocabulary(), whole.vocabulary());
        for q in ["sparse", "word3", "t1", "author1", "2"] {
            let a = ranked(&whole, q, 300);
            assert!(!a.is_empty(), "{q}");
            assert_eq!(ranked(&pieces, q, 300), a, "{q}");
        }
        let years = pieces.papers_in_years(2003, 2004, 300);
        assert_eq!((0..300).filter(|&i| years.contains(i)).count(), 30);
        assert_eq!(years, whole.papers_in_years(2003, 2004, 300));
        let ids = pieces.papers_with_id("29", 300);
        assert_eq!(
            (0..300).filter(|&i| ids.contains(i)).collect::<Vec<_>>(),
            vec![29, 290, 291, 292, 293, 294, 295, 296, 297, 298, 299]
        );
        assert!(whole.papers_with_id("ARXIV:7", 300).contains(7));
        assert!(!whole.papers_with_id("rxiv", 300).contains(7));
        assert_eq!(ids, whole.papers_with_id("29", 300));
    }

    #[test]
    fn scores_in_parts_are_the_scores_whole() {
        let docs: Vec<(String, String)> = (0..500)
            .map(|i| {
                (
                    format!("T{} w{}", i % 9, i % 4),
                    format!("sparse{} attention a{}", i % 5, i % 7),
                )
            })
            .collect();
        let mut ix = WordIndex::default();
        for (i, (t, a)) in docs.iter().enumerate() {
            ix.add(i as u32, &meta(t, "Ann Author"), a);
        }
        for word in ["s", "sparse1", "a", "t", "w3", "author"] {
            let mut whole = vec![0.0; 500];
            ix.add_scores(word, false, &mut whole);
            assert!(whole.iter().any(|&x| x > 0.0), "{word}");
            let mut parts = vec![0.0; 500];
            for (k, chunk) in parts.chunks_mut(77).enumerate() {
                ix.add_scores_from(word, false, k * 77, chunk);
            }
            assert_eq!(parts, whole, "{word}");
        }
    }

    #[test]
    fn counts_are_kept_per_field() {
        let ix = index(&[
            ("x", "", "attention attention Attention"),
            ("x", "", "attention"),
        ]);
        let mut s = vec![0.0; 2];
        ix.add_scores("attention", true, &mut s);
        assert!(s[0] > s[1] && s[1] > 0.0, "{s:?}");
        assert_eq!(ix.document_frequency("attention"), 2);
    }
}
