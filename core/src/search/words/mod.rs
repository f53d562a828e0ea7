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
//!
//! The index is built as hash maps; written to bytes ([`WordIndex::write_to`])
//! and read back ([`WordIndex::from_bytes`]) it answers from sorted arrays
//! where they lie (`frozen`), and turns back into hash maps only if more
//! papers are added. An index built for one query ([`WordIndex::keeping`])
//! posts only the words that query can read (`keep`).

mod forms;
mod frozen;
mod keep;
mod terms;

use std::ops::Range;
use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::fields::{fold, fold_into};
use super::masks::Bits;
pub use forms::Forms;
use frozen::Frozen;
pub use frozen::Shared;
pub(super) use frozen::{Arr, In, Out};
use keep::Keep;
pub use terms::{How, Reading, Terms, Widened, kept_prefix, stem, typo_edits};
use terms::{typo_automaton, within};

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
    /// The words of the paper's keywords.
    Keywords = 4,
    /// Its arXiv categories, each one term (`cs.lg`).
    Categories = 5,
}

const PARTS: usize = 6;

const PART_NAMES: [&str; PARTS] = [
    "title",
    "abstract",
    "authors",
    "venue",
    "keywords",
    "categories",
];

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
    pub keywords: Box<[String]>,
    pub categories: Box<[String]>,
}

/// [`DocMeta`] borrowed: what indexing a paper reads, without a copy of
/// its title, names and id made for it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Meta<'a> {
    pub title: &'a str,
    pub authors: &'a str,
    pub venue: &'a str,
    pub id: &'a str,
    pub year: Option<i32>,
    pub keywords: &'a [String],
    pub categories: &'a [String],
}

impl<'a> From<&'a DocMeta> for Meta<'a> {
    fn from(m: &'a DocMeta) -> Meta<'a> {
        Meta {
            title: &m.title,
            authors: &m.authors,
            venue: &m.venue,
            id: &m.id,
            year: m.year,
            keywords: &m.keywords,
            categories: &m.categories,
        }
    }
}

impl Meta<'_> {
    /// A copy that owns its text.
    pub fn to_owned(self) -> DocMeta {
        DocMeta {
            title: self.title.into(),
            authors: self.authors.into(),
            venue: self.venue.into(),
            id: self.id.into(),
            year: self.year,
            keywords: self.keywords.into(),
            categories: self.categories.into(),
        }
    }
}

type Map = FxHashMap<Box<str>, Vec<u32>>;

/// One field's words: word → postings, papers ascending; as built (a
/// hash map) or as read back (sorted arrays).
enum Words {
    Hash(Map),
    Frozen(Frozen),
}

impl Default for Words {
    fn default() -> Self {
        Words::Hash(Map::default())
    }
}

impl Words {
    fn get(&self, word: &str) -> Option<&[u32]> {
        match self {
            Words::Hash(m) => m.get(word).map(Vec::as_slice),
            Words::Frozen(f) => {
                let v = f.view();
                v.find(word.as_bytes()).map(|i| v.postings(i))
            }
        }
    }

    /// Calls `f` with every word that starts with `prefix` (or is it,
    /// when `whole`) and its postings, words in byte order (so that
    /// scores summed over them are the same in either form). Built, a
    /// prefix is answered by going through the field's words: a few
    /// milliseconds for a million papers' abstracts, and only for the
    /// word being typed (the matcher keeps the others' scores); read
    /// back, by binary search.
    fn each_with_prefix<'s>(
        &'s self,
        prefix: &str,
        whole: bool,
        f: impl FnMut(&'s str, &'s [u32]),
    ) {
        self.each_with(prefix, whole, true, f);
    }

    /// Whether a word starts with `prefix` (or is it, when `whole`):
    /// [`Words::each_with_prefix`] up to the first.
    fn any_with_prefix(&self, prefix: &str, whole: bool) -> bool {
        if whole {
            return self.get(prefix).is_some();
        }
        match self {
            Words::Hash(m) => m.keys().any(|w| w.starts_with(prefix)),
            Words::Frozen(fr) => !fr.view().with_prefix(prefix.as_bytes()).is_empty(),
        }
    }

    /// [`Words::each_with_prefix`], the words in any order unless
    /// `ordered`.
    fn each_with<'s>(
        &'s self,
        prefix: &str,
        whole: bool,
        ordered: bool,
        mut f: impl FnMut(&'s str, &'s [u32]),
    ) {
        if whole {
            match self {
                Words::Hash(m) => {
                    if let Some((w, p)) = m.get_key_value(prefix) {
                        f(w, p);
                    }
                }
                Words::Frozen(fr) => {
                    let v = fr.view();
                    if let Some(i) = v.find(prefix.as_bytes())
                        && let Ok(w) = std::str::from_utf8(v.word(i))
                    {
                        f(w, v.postings(i));
                    }
                }
            }
            return;
        }
        match self {
            Words::Hash(m) => {
                let mut found: Vec<(&str, &[u32])> = m
                    .iter()
                    .filter(|(w, _)| w.starts_with(prefix))
                    .map(|(w, p)| (&**w, p.as_slice()))
                    .collect();
                if ordered {
                    found.sort_unstable_by_key(|e| e.0);
                }
                found.into_iter().for_each(|(w, p)| f(w, p));
            }
            Words::Frozen(fr) => {
                let v = fr.view();
                for i in v.with_prefix(prefix.as_bytes()) {
                    // Checked on reading: words are UTF-8.
                    if let Ok(w) = std::str::from_utf8(v.word(i)) {
                        f(w, v.postings(i));
                    }
                }
            }
        }
    }

    fn len(&self) -> usize {
        match self {
            Words::Hash(m) => m.len(),
            Words::Frozen(f) => f.view().len(),
        }
    }

    /// The words sorted, each with its postings.
    fn sorted(&self) -> Vec<(&[u8], &[u32])> {
        match self {
            Words::Hash(m) => {
                let mut all: Vec<(&[u8], &[u32])> = m
                    .iter()
                    .map(|(w, p)| (w.as_bytes(), p.as_slice()))
                    .collect();
                all.sort_unstable_by_key(|e| e.0);
                all
            }
            Words::Frozen(f) => {
                let v = f.view();
                (0..v.len()).map(|i| (v.word(i), v.postings(i))).collect()
            }
        }
    }

    /// The words as a hash map, to add to.
    fn map_mut(&mut self) -> &mut Map {
        if let Words::Frozen(_) = self {
            let map = std::mem::take(self).into_map();
            *self = Words::Hash(map);
        }
        match self {
            Words::Hash(m) => m,
            Words::Frozen(_) => unreachable!("made a map above"),
        }
    }

    fn into_map(self) -> Map {
        match self {
            Words::Hash(m) => m,
            Words::Frozen(f) => {
                let v = f.view();
                (0..v.len())
                    .filter_map(|i| {
                        let w = std::str::from_utf8(v.word(i)).ok()?;
                        Some((w.into(), v.postings(i).to_vec()))
                    })
                    .collect()
            }
        }
    }

    fn owned_bytes(&self) -> usize {
        match self {
            Words::Hash(m) => m.iter().map(|(w, l)| w.len() + l.capacity() * 4 + 48).sum(),
            Words::Frozen(f) => f.owned_bytes(),
        }
    }

    fn viewed_bytes(&self) -> usize {
        match self {
            Words::Hash(_) => 0,
            Words::Frozen(f) => f.viewed_bytes(),
        }
    }
}

/// Which papers hold which words, field by field (see the module doc).
#[derive(Default)]
pub struct WordIndex {
    parts: [Words; PARTS],
    /// Words per paper in the title, abstract and authors (capped).
    title_len: Arr<u8>,
    abstract_len: Arr<u16>,
    authors_len: Arr<u8>,
    /// Sums of those lengths, for the average.
    totals: [u64; 3],
    /// Year per paper (`i16::MIN` when unknown).
    years: Arr<i16>,
    /// Ids, lower case, end to end (`id_ends[i]`: where paper `i`'s
    /// ends): a map entry per id would cost several times more.
    ids: Arr<u8>,
    id_ends: Arr<u32>,
    /// Papers indexed so far (papers `0..indexed`).
    pub indexed: usize,
    /// The paper the per-paper arrays start at: 0, but for a piece of an
    /// index being built ([`WordIndex::empty_from`]), which holds only
    /// its own papers' lengths, years and ids until it is appended.
    base: usize,
    /// Set for an index built for one query: the words it posts.
    keep: Option<Arc<Keep>>,
    /// For an index read back: how many bytes it was read from.
    read_from: Option<usize>,
}

/// The per-paper field lengths, borrowed once for a query.
struct Lens<'a>(&'a [u8], &'a [u16], &'a [u8]);

impl Lens<'_> {
    /// The length of paper `i`'s field `k` (0 title, 1 abstract, 2
    /// authors) in words.
    #[inline]
    fn of(&self, k: usize, i: usize) -> f32 {
        f32::from(match k {
            0 => u16::from(self.0.get(i).copied().unwrap_or(0)),
            1 => self.1.get(i).copied().unwrap_or(0),
            _ => u16::from(self.2.get(i).copied().unwrap_or(0)),
        })
    }
}

/// Adds each word's BM25 weight (`lists`: its idf and postings, papers
/// ascending) to the scores of papers `from..from + scores.len()`, a block
/// of papers at a time: every word's postings among them are read while
/// their scores and lengths stay in the core's cache (a first letter
/// starts thousands of words, each of whose postings would otherwise
/// sweep the whole score array). A paper's score is summed word by word
/// in the words' order, as without blocks. `lens`: each paper's field
/// length; `norm`, BM25's length norm of one.
fn add_blocked<L: Copy + Into<u16>>(
    lists: &mut Vec<(f32, &[u32])>,
    (lens, norm): (&[L], &dyn Fn(u16) -> f32),
    from: usize,
    scores: &mut [f32],
) {
    /// Papers scored at a time.
    const BLOCK: usize = 1 << 17;
    let end = from + scores.len();
    // The norm of each length these papers have, worked out once.
    let most = lens
        .get(from.min(lens.len())..end.min(lens.len()))
        .and_then(|l| l.iter().map(|&l| l.into()).max())
        .unwrap_or(0);
    let norms: Vec<f32> = (0..=most).map(norm).collect();
    let mut start = from;
    while start < end && !lists.is_empty() {
        let stop = (start + BLOCK).min(end);
        let block = &mut scores[start - from..stop - from];
        lists.retain_mut(|(idf, postings)| {
            let mut used = 0;
            for &p in postings.iter() {
                let i = (p >> 8) as usize;
                let Some(score) = i.checked_sub(start).and_then(|j| block.get_mut(j)) else {
                    break;
                };
                used += 1;
                let len = lens.get(i).map_or(0, |&l| l.into());
                let norm = norms.get(usize::from(len)).copied().unwrap_or(1.0);
                let tf = (p & 0xff) as f32;
                *score += *idf * tf * (K1 + 1.0) / (tf + K1 * norm);
            }
            *postings = &postings[used..];
            postings.first().is_some_and(|&p| ((p >> 8) as usize) < end)
        });
        start = stop;
    }
}

/// Counts `w` (folded) for paper `idx` in a field's words.
#[inline]
fn post(words: &mut Map, w: &str, idx: u32) {
    match words.get_mut(w) {
        // Papers come in order: a word seen before in this paper is the
        // last posting; count it there.
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
}

impl WordIndex {
    /// An empty index that will post only the words (folded) starting
    /// with one of `prefixes`, for one query: every field length, total,
    /// year and id is kept as in the whole index, so the query's scores
    /// and selections are the whole index's.
    pub fn keeping(prefixes: Vec<String>) -> WordIndex {
        WordIndex::keeping_typos(prefixes, &[])
    }

    /// [`WordIndex::keeping`], posting also the words within a typo's
    /// edits of each of `typos` (folded; see [`WordIndex::terms`]).
    pub fn keeping_typos(prefixes: Vec<String>, typos: &[String]) -> WordIndex {
        WordIndex {
            keep: Some(Arc::new(Keep::new(prefixes, typos))),
            ..WordIndex::default()
        }
    }

    /// An empty index that posts what this one posts (every word, or
    /// those [`WordIndex::keeping`] named).
    pub fn empty_like(&self) -> WordIndex {
        WordIndex {
            keep: self.keep.clone(),
            ..WordIndex::default()
        }
    }

    /// The prefixes this index posts words of (`None`: every word).
    pub fn kept_prefixes(&self) -> Option<&[String]> {
        self.keep.as_deref().map(Keep::prefixes)
    }

    /// [`WordIndex::empty_like`], for papers `first` on: a piece to be
    /// appended to an index of the papers before them. Its per-paper
    /// arrays hold its own papers alone: numbered from 0, each piece of a
    /// large index would clear (and its memory hold) room for every paper
    /// before it, time quadratic in the papers.
    pub(in crate::search) fn empty_from(&self, first: usize) -> WordIndex {
        WordIndex {
            base: first,
            indexed: first,
            ..self.empty_like()
        }
    }

    /// Indexes paper `idx` (papers come in index order; past
    /// [`MAX_PAPERS`] they are not indexed).
    pub fn add<'m>(&mut self, idx: u32, meta: impl Into<Meta<'m>>, abstract_text: &str) {
        self.add_body(idx, meta.into(), abstract_text, false);
    }

    /// [`WordIndex::add`] for an abstract given as the inside of its JSON
    /// string as written (see `corpus::json_string::words_as_written`):
    /// ASCII whose backslashes each start a two-byte escape that stands
    /// between words.
    pub fn add_escaped<'m>(&mut self, idx: u32, meta: impl Into<Meta<'m>>, written: &str) {
        debug_assert!(written.is_ascii());
        self.add_body(idx, meta.into(), written, true);
    }

    fn add_body(&mut self, idx: u32, meta: Meta<'_>, abstract_text: &str, escaped: bool) {
        let i = idx as usize;
        if i >= MAX_PAPERS {
            self.indexed = self.indexed.max(i + 1);
            return;
        }
        // Its place in the per-paper arrays.
        let at = i - self.base;
        for v in [
            self.title_len.vec_mut() as &mut dyn Grow,
            self.abstract_len.vec_mut(),
            self.authors_len.vec_mut(),
        ] {
            v.grow_to(at);
        }
        let years = self.years.vec_mut();
        if years.len() < at {
            years.resize(at, i16::MIN);
        }
        years.push(
            meta.year
                .and_then(|y| i16::try_from(y).ok())
                .unwrap_or(i16::MIN),
        );
        let mut buf = String::new();
        let texts: [(&str, Part); 4] = [
            (meta.title, Part::Title),
            (abstract_text, Part::Abstract),
            (meta.authors, Part::Authors),
            (meta.venue, Part::Venue),
        ];
        for (text, part) in texts {
            let words = self.parts[part as usize].map_mut();
            let escaped = escaped && part == Part::Abstract;
            let keep = self.keep.as_deref().unwrap_or(&keep::EVERY);
            let mut post_folded = |w: &str| post(words, fold_into(w, &mut buf), idx);
            let len = if escaped {
                keep.each_kept_ascii::<true>(text, &mut post_folded)
            } else {
                keep.each_kept(text, &mut post_folded)
            };
            match part {
                Part::Title => {
                    self.title_len.vec_mut().push(len.min(255) as u8);
                    self.totals[0] += len.min(255) as u64;
                }
                Part::Abstract => {
                    self.abstract_len.vec_mut().push(len.min(65_535) as u16);
                    self.totals[1] += len.min(65_535) as u64;
                }
                Part::Authors => {
                    self.authors_len.vec_mut().push(len.min(255) as u8);
                    self.totals[2] += len.min(255) as u64;
                }
                _ => {}
            }
        }
        let keep = self.keep.as_deref().unwrap_or(&keep::EVERY);
        let words = self.parts[Part::Keywords as usize].map_mut();
        for k in meta.keywords {
            keep.each_kept(k, |w| post(words, fold_into(w, &mut buf), idx));
        }
        // A category is one term, folded (`cs.LG` is `cs.lg`): `cat:cs`
        // finds the archive's, `cat:cs.lg` the one.
        let words = self.parts[Part::Categories as usize].map_mut();
        for c in meta.categories {
            let c = fold_into(c, &mut buf);
            if !c.is_empty() && keep.keeps_as_written(c) {
                post(words, c, idx);
            }
        }
        let end = self.ids.len() as u32;
        self.id_ends.vec_mut().grow_to_with(at, end);
        let ids = self.ids.vec_mut();
        if meta.id.is_ascii() {
            // As below, without a call per character (a tenth of this
            // function's time at 2.7M papers).
            ids.extend(meta.id.bytes().map(|b| b.to_ascii_lowercase()));
        } else {
            let mut utf8 = [0u8; 4];
            for c in meta.id.chars().flat_map(char::to_lowercase) {
                ids.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
            }
        }
        let end = ids.len() as u32;
        self.id_ends.vec_mut().push(end);
        self.indexed = self.indexed.max(i + 1);
    }

    /// This index, of papers numbered from 0, as one of papers `first`
    /// on ([`WordIndex::empty_from`]): a piece indexed before its papers'
    /// numbers were known. Its papers and `first` are at most
    /// [`MAX_PAPERS`] in all.
    pub(in crate::search) fn rebase(&mut self, first: usize) {
        debug_assert_eq!(self.base, 0);
        debug_assert!(first + self.indexed <= MAX_PAPERS);
        // A posting holds its paper in the high 24 bits.
        let by = (first as u32) << 8;
        for part in &mut self.parts {
            for list in part.map_mut().values_mut() {
                list.iter_mut().for_each(|p| *p += by);
            }
        }
        self.base = first;
        self.indexed += first;
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
        if self.keep.is_none() && start == 0 {
            self.keep = other.keep.clone();
        }
        for (mine, theirs) in self.parts.iter_mut().zip(other.parts) {
            let (mine, mut theirs) = (mine.map_mut(), theirs.into_map());
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
        // The first paper taken from `other`'s per-paper arrays: past this
        // index's papers, and at or past the first that `other` holds.
        debug_assert!(other.base >= self.base);
        let lo = start.max(other.base);
        let (mine_at, theirs_at) = (lo - self.base, lo - other.base);
        // The per-paper arrays' likely final length.
        let likely = papers.saturating_sub(self.base);
        fn extend<T: bytemuck::Pod + Default>(
            mine: &mut Arr<T>,
            theirs: &Arr<T>,
            (mine_at, theirs_at): (usize, usize),
            likely: usize,
            fill: T,
        ) {
            let v = mine.vec_mut();
            v.grow_to_with(mine_at, fill);
            room(v, theirs.len().saturating_sub(theirs_at), likely);
            v.extend(theirs.iter().skip(theirs_at));
        }
        let at = (mine_at, theirs_at);
        extend(&mut self.title_len, &other.title_len, at, likely, 0);
        extend(&mut self.abstract_len, &other.abstract_len, at, likely, 0);
        extend(&mut self.authors_len, &other.authors_len, at, likely, 0);
        extend(&mut self.years, &other.years, at, likely, i16::MIN);
        let base = self.ids.len() as u32;
        self.id_ends.vec_mut().grow_to_with(mine_at, base);
        let from = match theirs_at {
            0 => 0,
            _ => other.id_ends.get(theirs_at - 1).copied().unwrap_or(0),
        };
        let their_ids = other.ids.get(from as usize..).unwrap_or(&[]);
        let ids = self.ids.vec_mut();
        // The ids likely in all, as for a list of postings: only when more
        // papers are to come (else a vector's growth).
        let need = ids.len() + their_ids.len();
        let likely_ids = if share > 1.0 {
            (need as f64 * share * 1.02) as usize
        } else {
            0
        };
        room(ids, their_ids.len(), likely_ids);
        ids.extend_from_slice(their_ids);
        room(
            self.id_ends.vec_mut(),
            other.id_ends.len().saturating_sub(theirs_at),
            likely,
        );
        self.id_ends.vec_mut().extend(
            other
                .id_ends
                .iter()
                .skip(theirs_at)
                .map(|&e| e.wrapping_sub(from).wrapping_add(base)),
        );
        for (t, o) in self.totals.iter_mut().zip(other.totals) {
            *t += o;
        }
        self.indexed = self.indexed.max(other.indexed);
    }

    /// Writes the whole index in its on-disk form (see `frozen`); returns
    /// the bytes written. An index built for one query
    /// ([`WordIndex::keeping`]) is written as it is, without saying what
    /// it lacks: [`WordIndex::kept_prefixes`] tells it apart.
    pub fn write_to(&self, out: &mut dyn std::io::Write) -> std::io::Result<u64> {
        let mut out = Out::new(out);
        out.header(self.indexed, self.totals)?;
        // A piece ([`WordIndex::empty_from`]) is written as an index of
        // every paper from the first, those before its own blank.
        let base = self.base;
        out.array([&vec![0; base][..], &self.title_len])?;
        out.array([&vec![0; base][..], &self.abstract_len])?;
        out.array([&vec![0; base][..], &self.authors_len])?;
        out.array([&vec![i16::MIN; base][..], &self.years])?;
        out.array([&*self.ids])?;
        out.array([&vec![0; base][..], &self.id_ends])?;
        for words in &self.parts {
            out.words(&words.sorted())?;
        }
        out.finish()
    }

    /// Reads an index that [`WordIndex::write_to`] wrote, keeping `bytes`:
    /// postings, words and per-paper arrays are used where they lie (an
    /// array whose bytes are not aligned for its items is copied). Any
    /// inconsistency is an error naming it; no bytes make it panic.
    pub fn from_bytes(bytes: Shared) -> Result<WordIndex, String> {
        let read_from = Some((*bytes).as_ref().len());
        let mut r = In::new(bytes);
        let (indexed, totals) = r.header()?;
        let mut ix = WordIndex {
            indexed,
            totals,
            title_len: r.array("title lengths")?,
            abstract_len: r.array("abstract lengths")?,
            authors_len: r.array("author lengths")?,
            years: r.array("years")?,
            ids: r.array("ids")?,
            id_ends: r.array("id ends")?,
            read_from,
            ..WordIndex::default()
        };
        for (k, words) in ix.parts.iter_mut().enumerate() {
            *words = Words::Frozen(r.words(PART_NAMES[k])?);
        }
        r.end()?;
        let per_paper = [
            ("title lengths", ix.title_len.len()),
            ("abstract lengths", ix.abstract_len.len()),
            ("author lengths", ix.authors_len.len()),
            ("years", ix.years.len()),
            ("id ends", ix.id_ends.len()),
        ];
        for (what, len) in per_paper {
            if len > indexed.min(MAX_PAPERS) {
                return Err(format!("{what}: {len} papers, {indexed} indexed"));
            }
        }
        Ok(ix)
    }

    /// For an index read back ([`WordIndex::from_bytes`]): the bytes of
    /// those it was read from that a query whose words are `prefixes`
    /// reads, as ranges (in order): every byte but the postings, and of
    /// the postings those of the words each prefix starts in every field
    /// (see [`WordIndex::add_scores`] and [`WordIndex::papers_with`]).
    /// A query reading no other byte can trust these alone. `None` for
    /// an index built here, or one changed since it was read.
    pub fn bytes_read_by<'a>(
        &self,
        prefixes: impl IntoIterator<Item = &'a str>,
    ) -> Option<Vec<Range<usize>>> {
        let len = self.read_from?;
        let frozen: Vec<&Frozen> = self
            .parts
            .iter()
            .map(|w| match w {
                Words::Frozen(f) => Some(f),
                Words::Hash(_) => None,
            })
            .collect::<Option<_>>()?;
        let mut out = Vec::new();
        let mut at = 0;
        for f in &frozen {
            let postings = f.postings_bytes();
            out.push(at..postings.start);
            at = postings.end;
        }
        out.push(at..len);
        for prefix in prefixes {
            for p in [prefix, &fold(prefix)] {
                out.extend(frozen.iter().map(|f| f.postings_bytes_of(p.as_bytes())));
            }
        }
        out.retain(|r| !r.is_empty());
        out.sort_unstable_by_key(|r| (r.start, r.end));
        Some(out)
    }

    /// Distinct words indexed, all fields together.
    pub fn vocabulary(&self) -> usize {
        self.parts.iter().map(Words::len).sum()
    }

    /// Bytes the index holds on the heap, roughly (postings, words,
    /// lengths); what it reads where it lies (a read-back index's memory
    /// map or buffer) is [`WordIndex::shared_bytes`].
    pub fn heap_bytes(&self) -> usize {
        let words: usize = self.parts.iter().map(Words::owned_bytes).sum();
        words
            + self.title_len.owned_bytes()
            + self.abstract_len.owned_bytes()
            + self.authors_len.owned_bytes()
            + self.years.owned_bytes()
            + self.ids.owned_bytes()
            + self.id_ends.owned_bytes()
    }

    /// Bytes a read-back index reads where they lie, not copied.
    pub fn shared_bytes(&self) -> usize {
        let words: usize = self.parts.iter().map(Words::viewed_bytes).sum();
        words
            + self.title_len.viewed_bytes()
            + self.abstract_len.viewed_bytes()
            + self.authors_len.viewed_bytes()
            + self.years.viewed_bytes()
            + self.ids.viewed_bytes()
            + self.id_ends.viewed_bytes()
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

    fn lens(&self) -> Lens<'_> {
        Lens(&self.title_len, &self.abstract_len, &self.authors_len)
    }

    /// Adds to `scores[i]`, for every paper `i < scores.len()` that has a
    /// word starting with `word` (already folded; the word itself when
    /// `whole`) in the title, abstract or authors, its BM25F score for
    /// that word. A word it merely starts counts less the more it leaves
    /// untyped.
    pub fn add_scores(&self, word: &str, whole: bool, scores: &mut [f32]) {
        self.add_scores_from(word, whole, 0, scores);
    }

    /// Whether [`WordIndex::add_scores`] would add anything for `word`: a
    /// word of a title, abstract or author list starts with it (or is
    /// it, when `whole`).
    pub fn scores_any(&self, word: &str, whole: bool) -> bool {
        WEIGHTED
            .iter()
            .any(|&(part, _, _)| self.parts[part as usize].any_with_prefix(word, whole))
    }

    /// [`WordIndex::add_scores`] for papers `from..from + scores.len()`
    /// (`scores[0]` is paper `from`'s): parts of the papers can be scored
    /// on several threads.
    pub fn add_scores_from(&self, word: &str, whole: bool, from: usize, scores: &mut [f32]) {
        let lens = self.lens();
        let typed = word.chars().count() as f32;
        for (k, &(part, weight, b)) in WEIGHTED.iter().enumerate() {
            let avg = self.average(k);
            // Each word's weight, and its postings from paper `from` on.
            let mut lists: Vec<(f32, &[u32])> = Vec::new();
            self.parts[part as usize].each_with_prefix(word, whole, |w, postings| {
                let full = w.chars().count().max(1) as f32;
                let partial = if w.len() == word.len() {
                    1.0
                } else {
                    0.5 + 0.5 * typed / full
                };
                let idf = self.idf(postings.len()) * weight * partial;
                let first = postings.partition_point(|&p| ((p >> 8) as usize) < from);
                lists.push((idf, &postings[first..]));
            });
            // BM25's length norm, as the sum always worked it out.
            let norm = |len: u16| 1.0 - b + b * f32::from(len) / avg;
            match k {
                0 => add_blocked(&mut lists, (lens.0, &norm), from, scores),
                1 => add_blocked(&mut lists, (lens.1, &norm), from, scores),
                _ => add_blocked(&mut lists, (lens.2, &norm), from, scores),
            }
        }
    }

    /// Adds to `scores[i]`, for every paper `from + i` that holds one of
    /// `terms` ([`WordIndex::terms`]) in the title, abstract or authors,
    /// its BM25F score for them.
    pub fn add_terms_from(&self, terms: &Terms<'_>, from: usize, scores: &mut [f32]) {
        let lens = self.lens();
        for (k, &(_, _, b)) in WEIGHTED.iter().enumerate() {
            let avg = self.average(k);
            let mut lists: Vec<(f32, &[u32])> = terms
                .weighted(self, k)
                .into_iter()
                .map(|(w, postings)| {
                    let first = postings.partition_point(|&p| ((p >> 8) as usize) < from);
                    (w, &postings[first..])
                })
                .collect();
            let norm = |len: u16| 1.0 - b + b * f32::from(len) / avg;
            match k {
                0 => add_blocked(&mut lists, (lens.0, &norm), from, scores),
                1 => add_blocked(&mut lists, (lens.1, &norm), from, scores),
                _ => add_blocked(&mut lists, (lens.2, &norm), from, scores),
            }
        }
    }

    /// The papers (of the first `n`) with a word in `part` that starts
    /// with each of `words` (folded), or is it when `whole`.
    pub fn papers_with(&self, part: Part, words: &[String], whole: bool, n: usize) -> Bits {
        let mut result: Option<Bits> = None;
        for word in words {
            let mut bits = Bits::new(n);
            let word = fold(word);
            // A set: the words' order does not matter.
            self.parts[part as usize].each_with(&word, whole, false, |_, postings| {
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
        let prefix = prefix.as_bytes();
        let mut bits = Bits::new(n);
        if prefix.is_empty() {
            return bits;
        }
        let ids: &[u8] = &self.ids;
        let mut start = 0;
        for (i, &end) in self.id_ends.iter().take(n).enumerate() {
            let id = ids.get(start..end as usize).unwrap_or(&[]);
            start = end as usize;
            let bare = match id.iter().position(|&b| b == b':') {
                Some(c) => &id[c + 1..],
                None => &[],
            };
            if id.starts_with(prefix) || bare.starts_with(prefix) {
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
        for (k, &(part, _, _)) in WEIGHTED.iter().enumerate().take(2) {
            if let Some(postings) = self.parts[part as usize].get(word) {
                self.add_postings_weights(k, postings, weight, scores);
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

/// Room in `v` for `more`: taken once for `likely` in all when that is
/// well ahead, else as a vector grows (doubling), so that an estimate
/// that creeps up, or none, never has it copied again and again.
fn room<T>(v: &mut Vec<T>, more: usize, likely: usize) {
    let need = v.len() + more;
    if need > v.capacity() {
        if likely >= need + need / 8 {
            v.reserve_exact(likely - v.len());
        } else {
            v.reserve(more);
        }
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
mod tests;
