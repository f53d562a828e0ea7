//! Telling papers met for the first time from repeats, by a hash of their
//! id, so that a paper in several lists is kept once with all of them; and
//! telling apart the different papers that a hash of their text would fold
//! into one (the volumes of a work, reprints, entries that share an
//! abstract).

use std::collections::HashMap;
use std::sync::Arc;

use super::{Authors, Paper, PaperId, hex16};

/// What tells a record from another with the same title and abstract,
/// hashed: its own key in its file, and its authors (family names), year
/// and volume. Only papers whose id is a hash of their text have one:
/// two records with the same arXiv id or DOI are the same paper.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub struct Variant {
    /// A hash of the record's own key; 0 when it has none.
    key: u64,
    /// A hash of its authors, year and volume; 0 when it has none.
    fields: u64,
}

impl Variant {
    /// The two hashes, as [`Variant::from_parts`] takes them (for a cache
    /// that stores papers as they were read).
    pub(crate) fn parts(self) -> (u64, u64) {
        (self.key, self.fields)
    }

    /// The variant whose [`Variant::parts`] are these.
    pub(crate) fn from_parts(key: u64, fields: u64) -> Variant {
        Variant { key, fields }
    }

    /// The variant of a record with this own key, authors, year and volume.
    pub fn of(
        key: Option<&str>,
        authors: &Authors,
        year: Option<i32>,
        volume: Option<&str>,
    ) -> Variant {
        let nonzero = |h: u64| h.max(1);
        let key = key.map(str::trim).filter(|k| !k.is_empty()).map_or(0, |k| {
            nonzero(xxhash_rust::xxh3::xxh3_64(k.to_lowercase().as_bytes()))
        });
        let volume = volume.map(str::trim).filter(|v| !v.is_empty());
        let fields = if authors.is_empty() && year.is_none() && volume.is_none() {
            0
        } else {
            let mut buf = String::new();
            for name in authors.iter() {
                buf.extend(
                    family_name(name)
                        .chars()
                        .filter(|c| c.is_alphanumeric())
                        .flat_map(char::to_lowercase),
                );
                buf.push(';');
            }
            buf.push('\n');
            if let Some(y) = year {
                buf.push_str(&y.to_string());
            }
            buf.push('\n');
            if let Some(v) = volume {
                buf.extend(
                    v.chars()
                        .filter(|c| c.is_alphanumeric())
                        .flat_map(char::to_lowercase),
                );
            }
            nonzero(xxhash_rust::xxh3::xxh3_64(buf.as_bytes()))
        };
        Variant { key, fields }
    }

    /// True when the record has nothing that tells it apart.
    pub fn is_empty(self) -> bool {
        self == Variant::default()
    }

    /// Whether a record of this variant from list `list` repeats one of
    /// `other`'s from list `other_list`: the same authors, year and
    /// volume, and, within one list, the same key (where both have one).
    /// Keys name records within their file only: a paper in two files
    /// exported by different tools has a key in each.
    fn repeats(self, list: u32, other: Variant, other_list: u32) -> bool {
        self.fields == other.fields
            && (self.key == other.key || list != other_list || self.key == 0 || other.key == 0)
    }
}

/// The family name in a name as written (`Lovelace, Ada`, `Ada Lovelace`,
/// `A. Lovelace Jr`), so that one author written two ways is one.
fn family_name(name: &str) -> &str {
    if let Some((family, _)) = name.split_once(',') {
        return family;
    }
    let mut words = name.split_whitespace().rev();
    let last = words.next().unwrap_or("");
    let suffix = matches!(
        last.trim_end_matches('.').to_ascii_lowercase().as_str(),
        "jr" | "sr" | "ii" | "iii" | "iv"
    );
    match words.next() {
        Some(before) if suffix => before,
        _ => last,
    }
}

/// The id given to a paper whose content hash `hash` an earlier, different
/// paper holds already: `hash` with what tells it apart.
fn distinguished(hash: u64, fields: u64, key: u64) -> u64 {
    let mut bytes = [0u8; 24];
    bytes[..8].copy_from_slice(&hash.to_le_bytes());
    bytes[8..16].copy_from_slice(&fields.to_le_bytes());
    bytes[16..].copy_from_slice(&key.to_le_bytes());
    xxhash_rust::xxh3::xxh3_64(&bytes)
}

/// Where [`Dedup`] puts a paper.
enum Arrival {
    /// New, under its own id.
    New,
    /// New, under a distinguished id (this hash): its own is an earlier,
    /// different paper's.
    Renamed(u64),
    /// A repeat of the paper kept at this index.
    Repeat(u32),
}

/// Papers that are new to a corpus, and lists that papers already in it
/// turn out to be in too.
#[derive(Debug, Default)]
pub struct Batch {
    /// Papers not met before, in input order.
    pub papers: Vec<Paper>,
    /// (index of a paper already kept, another list holding it).
    pub also_in: Vec<(u32, Arc<str>)>,
    /// (index of a paper already kept, a repeat of it that has fields it
    /// lacks): the kept paper's blanks are filled from it (see
    /// [`Paper::fill_from`]).
    pub fills: Vec<(u32, Paper)>,
}

/// The fields of a paper that a repeat may fill, one bit each (see
/// [`Paper::fill_from`]).
fn filled(p: &Paper) -> u8 {
    u8::from(!p.abstract_text.is_empty())
        | u8::from(!p.authors.is_empty()) << 1
        | u8::from(p.year.is_some()) << 2
        | u8::from(p.venue.is_some()) << 3
        | u8::from(!p.record_links.is_empty()) << 4
        | u8::from(p.more.is_some()) << 5
}

/// Every bit [`filled`] sets.
const ALL_FILLED: u8 = 0x3f;

/// Tells papers met for the first time from repeats (the same id), so
/// that a paper present in several files appears once, with all its lists.
/// It keeps only a 128-bit hash of each id, so it can run beside loading,
/// away from the papers it has passed on.
#[derive(Debug, Default)]
pub struct Dedup {
    index: HashMap<u128, u32, std::hash::BuildHasherDefault<HashOfHash>>,
    sources: Vec<Arc<str>>,
    first_source: Vec<u32>,
    /// The [`Variant`]s of the papers kept that have one, by index (most
    /// papers have none, or an id of their own).
    variants: HashMap<u32, Variant>,
    /// Papers kept under a distinguished id.
    renamed: usize,
    /// What each paper kept has, by index ([`filled`]).
    has: Vec<u8>,
}

/// The hasher for keys that are hashes already: it keeps their low bits.
#[derive(Default)]
pub struct HashOfHash(u64);

impl std::hash::Hasher for HashOfHash {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u128(&mut self, n: u128) {
        self.0 = n as u64;
    }
}

impl Dedup {
    fn source_id(&mut self, s: &Arc<str>) -> u32 {
        match self
            .sources
            .iter()
            .position(|t| Arc::ptr_eq(t, s) || **t == **s)
        {
            Some(i) => i as u32,
            None => {
                self.sources.push(s.clone());
                (self.sources.len() - 1) as u32
            }
        }
    }

    /// Splits `papers` into new ones and repeats of papers kept before.
    pub fn accept(&mut self, papers: Vec<Paper>) -> Batch {
        let keys: Vec<u128> = papers.iter().map(|p| id_key(&p.id)).collect();
        self.accept_keyed(papers, &keys)
    }

    /// [`Dedup::accept`] with each paper's [`id_key`] worked out already
    /// (by the threads that parsed them).
    pub fn accept_keyed(&mut self, mut papers: Vec<Paper>, keys: &[u128]) -> Batch {
        let mut also_in = Vec::new();
        let mut fills = Vec::new();
        self.index.reserve(papers.len());
        self.first_source.reserve(papers.len());
        let mut last_source: Option<(Arc<str>, u32)> = None;
        let mut keep = Vec::with_capacity(papers.len());
        for (paper, &key) in papers.iter().zip(keys) {
            let src = match &last_source {
                Some((s, id)) if Arc::ptr_eq(s, &paper.source) => *id,
                _ => {
                    let id = self.source_id(&paper.source);
                    last_source = Some((paper.source.clone(), id));
                    id
                }
            };
            let hash = (!paper.variant.is_empty())
                .then(|| u64::from_str_radix(paper.id.as_str(), 16).ok())
                .flatten()
                .filter(|_| paper.id.is_hash());
            let has = filled(paper);
            match self.place(key, hash, paper.variant, src, has) {
                Arrival::Repeat(i) => {
                    if self.first_source[i as usize] != src {
                        also_in.push((i, paper.source.clone()));
                    }
                    if let Some(kept) = self.has.get_mut(i as usize)
                        && has & !*kept != 0
                    {
                        *kept |= has;
                        fills.push((i, paper.clone()));
                    }
                    keep.push(None);
                }
                Arrival::New => keep.push(Some(None)),
                Arrival::Renamed(hash) => keep.push(Some(Some(hash))),
            }
        }
        // Vec::retain visits in order.
        let mut k = keep.iter();
        papers.retain_mut(|p| match k.next() {
            Some(Some(Some(hash))) => {
                p.id = PaperId::from_hash(*hash);
                true
            }
            Some(None) => false,
            _ => true,
        });
        Batch {
            papers,
            also_in,
            fills,
        }
    }

    /// Files a paper whose id has the [`id_key`] `key` (and is the content
    /// hash `hash`, when given), of variant `variant`, from list `src`:
    /// new, new under a distinguished id when a different paper holds its
    /// own, or a repeat. The first paper with
    /// an id keeps it, so ids that never collided never change, and a
    /// paper that used to take in others keeps its id. A later, different
    /// one gets its hash mixed with its authors, year and volume, then
    /// with its key too.
    /// `has`: what the paper has ([`filled`]).
    fn place(
        &mut self,
        key: u128,
        hash: Option<u64>,
        variant: Variant,
        src: u32,
        has: u8,
    ) -> Arrival {
        let hash = hash.filter(|_| !variant.is_empty());
        let candidates = [
            (key, None),
            (0, hash.map(|h| distinguished(h, variant.fields, 0))),
            (
                0,
                hash.map(|h| distinguished(h, variant.fields, variant.key)),
            ),
        ];
        let mut last = None;
        for (key, renamed) in candidates {
            let key = match renamed {
                Some(h) => hash_id_key(h),
                None if last.is_none() => key,
                None => break,
            };
            let next = self.first_source.len() as u32;
            match self.index.entry(key) {
                std::collections::hash_map::Entry::Occupied(e) => {
                    let i = *e.get();
                    let (other, other_src) = (
                        self.variants.get(&i).copied().unwrap_or_default(),
                        self.first_source[i as usize],
                    );
                    if variant.repeats(src, other, other_src) {
                        return Arrival::Repeat(i);
                    }
                    last = Some(i);
                }
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(next);
                    self.first_source.push(src);
                    self.has.push(has);
                    if !variant.is_empty() {
                        self.variants.insert(next, variant);
                    }
                    return match renamed {
                        Some(h) => {
                            self.renamed += 1;
                            Arrival::Renamed(h)
                        }
                        None => Arrival::New,
                    };
                }
            }
        }
        // Only a paper with nothing that tells it apart, or hashes that
        // collide, comes here: a repeat of the last paper met.
        Arrival::Repeat(last.unwrap_or(0))
    }

    /// How many papers were kept under a distinguished id, their own being
    /// a different paper's.
    pub fn renamed(&self) -> usize {
        self.renamed
    }

    /// Room for `papers` in all.
    pub fn reserve_for(&mut self, papers: usize) {
        self.index.reserve(papers.saturating_sub(self.index.len()));
    }

    /// Which of the papers with these [`id_key`]s are new (each is then
    /// known): for a load that keeps no lists, only titles. `varied`: the
    /// papers that have a [`Variant`], by index (ascending), with their
    /// content hash. Also returns the new papers that take a
    /// distinguished id (index, hash), a different paper holding theirs.
    pub fn fresh(
        &mut self,
        keys: &[u128],
        varied: &[(usize, u64, Variant)],
    ) -> (Vec<bool>, Vec<(usize, u64)>) {
        self.index.reserve(keys.len());
        let mut varied = varied.iter().peekable();
        let mut renamed = Vec::new();
        let fresh = keys
            .iter()
            .enumerate()
            .map(|(i, &key)| {
                let (hash, variant) = match varied.next_if(|(k, ..)| *k == i) {
                    Some(&(_, hash, variant)) => (Some(hash), variant),
                    None => (None, Variant::default()),
                };
                // No list: a load for titles alone keeps none.
                match self.place(key, hash, variant, u32::MAX, ALL_FILLED) {
                    Arrival::Repeat(_) => false,
                    Arrival::New => true,
                    Arrival::Renamed(h) => {
                        renamed.push((i, h));
                        true
                    }
                }
            })
            .collect();
        (fresh, renamed)
    }
}

/// The key [`Dedup`] knows a paper by: a 128-bit hash of its id.
pub fn id_key(id: &PaperId) -> u128 {
    xxhash_rust::xxh3::xxh3_128(id.as_str().as_bytes())
}

/// [`id_key`] of [`PaperId::from_hash`]`(hash)`, without making the id.
pub(crate) fn hash_id_key(hash: u64) -> u128 {
    xxhash_rust::xxh3::xxh3_128(&hex16(hash))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Record;

    fn paper(key: &str, authors: &[&str], volume: Option<&str>, list: &str) -> Paper {
        Record {
            title: Some("Collected Papers".into()),
            key: Some(key.into()).filter(|k: &String| !k.is_empty()),
            authors: authors.iter().collect(),
            volume: volume.map(str::to_string),
            ..Record::default()
        }
        .into_paper(&list.into(), 0)
        .unwrap()
    }

    #[test]
    fn a_repeat_fills_what_the_first_lacks_and_only_once() {
        let make = |abs: Option<&str>, authors: &[&str], list: &str| {
            Record {
                title: Some("T".into()),
                abstract_text: abs.map(String::from),
                authors: authors.iter().collect(),
                arxiv: Some("2401.00001".into()),
                ..Record::default()
            }
            .into_paper(&list.into(), 0)
            .unwrap()
        };
        let mut dedup = Dedup::default();
        let first = dedup.accept(vec![make(None, &["Ada Lovelace"], "a")]);
        let second = dedup.accept(vec![make(Some("An abstract."), &["Someone Else"], "b")]);
        assert!(second.papers.is_empty());
        assert_eq!(second.fills.len(), 1);
        // Nothing new the third time: no fill.
        let third = dedup.accept(vec![make(Some("Another."), &[], "c")]);
        assert!(third.fills.is_empty());
        let mut corpus = crate::corpus::Corpus::default();
        corpus.push(first);
        corpus.push(second);
        let p = &corpus.papers[0];
        assert_eq!(p.abstract_text.text(), "An abstract.");
        // What the first had stays.
        assert_eq!(p.authors, ["Ada Lovelace"]);
        assert_eq!(&*p.also_in[0], "b");
    }

    #[test]
    fn one_author_written_two_ways_is_one() {
        let a: Authors = ["Lovelace, Ada", "Charles Babbage Jr."]
            .into_iter()
            .collect();
        let b: Authors = ["A. Lovelace", "Babbage, C."].into_iter().collect();
        assert_eq!(
            Variant::of(None, &a, None, None),
            Variant::of(None, &b, None, None)
        );
        assert_ne!(
            Variant::of(None, &a, None, Some("1")),
            Variant::of(None, &a, None, Some("2"))
        );
        assert!(Variant::of(Some(" "), &Authors::default(), None, Some("")).is_empty());
    }

    #[test]
    fn the_first_keeps_its_id_and_later_different_ones_are_told_apart() {
        let first = paper("k1", &["Noether, Emmy"], Some("1"), "a");
        let plain = first.id.clone();
        let papers = vec![
            first,
            paper("k2", &["Noether, Emmy"], Some("2"), "a"),
            paper("k3", &["Noether, Emmy"], Some("1"), "a"),
            paper("k1", &["Noether, Emmy"], Some("1"), "a"),
            paper("other-key", &["Noether, Emmy"], Some("2"), "b"),
        ];
        let mut dedup = Dedup::default();
        let batch = dedup.accept(papers.clone());
        let ids: Vec<&PaperId> = batch.papers.iter().map(|p| &p.id).collect();
        // k1; k2 (another volume); k3 (the same fields, another key); the
        // repeat of k1 and list b's volume 2 (keys count within a list)
        // are repeats.
        assert_eq!(ids.len(), 3);
        assert_eq!(*ids[0], plain);
        assert!(ids.iter().all(|id| id.is_hash()));
        assert!(ids[0] != ids[1] && ids[1] != ids[2] && ids[0] != ids[2]);
        assert_eq!(dedup.renamed(), 2);
        assert_eq!(batch.also_in, [(1, Arc::from("b"))]);
        // The same papers in the same order get the same ids.
        let again = Dedup::default().accept(papers);
        let again: Vec<&PaperId> = again.papers.iter().map(|p| &p.id).collect();
        assert_eq!(again, ids);
    }
}
