//! Telling papers met for the first time from repeats, by a hash of their
//! id, so that a paper in several lists is kept once with all of them.

use std::collections::HashMap;
use std::sync::Arc;

use super::{Paper, PaperId, hex16};

/// Papers that are new to a corpus, and lists that papers already in it
/// turn out to be in too.
#[derive(Debug, Default)]
pub struct Batch {
    /// Papers not met before, in input order.
    pub papers: Vec<Paper>,
    /// (index of a paper already kept, another list holding it).
    pub also_in: Vec<(u32, Arc<str>)>,
}

/// Tells papers met for the first time from repeats (the same id), so
/// that a paper present in several files appears once, with all its lists.
/// It keeps only a 128-bit hash of each id, so it can run beside loading,
/// away from the papers it has passed on.
#[derive(Debug, Default)]
pub struct Dedup {
    index: HashMap<u128, u32, std::hash::BuildHasherDefault<HashOfHash>>,
    sources: Vec<Arc<str>>,
    first_source: Vec<u32>,
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
            let next = self.first_source.len() as u32;
            match self.index.entry(key) {
                std::collections::hash_map::Entry::Occupied(e) => {
                    let i = *e.get();
                    if self.first_source[i as usize] != src {
                        also_in.push((i, paper.source.clone()));
                    }
                    keep.push(false);
                }
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(next);
                    self.first_source.push(src);
                    keep.push(true);
                }
            }
        }
        // Vec::retain visits in order.
        let mut k = keep.iter();
        papers.retain(|_| *k.next().unwrap_or(&true));
        Batch { papers, also_in }
    }

    /// Room for `papers` in all.
    pub fn expect(&mut self, papers: usize) {
        self.index.reserve(papers.saturating_sub(self.index.len()));
    }

    /// Which of the papers with these [`id_key`]s are new (each is then
    /// known): for a load that keeps no lists, only titles.
    pub fn fresh(&mut self, keys: &[u128]) -> Vec<bool> {
        self.index.reserve(keys.len());
        keys.iter()
            .map(|&key| {
                let next = self.first_source.len() as u32;
                let new = match self.index.entry(key) {
                    std::collections::hash_map::Entry::Occupied(_) => false,
                    std::collections::hash_map::Entry::Vacant(e) => {
                        e.insert(next);
                        true
                    }
                };
                if new {
                    // No list: a load for titles alone keeps none.
                    self.first_source.push(u32::MAX);
                }
                new
            })
            .collect()
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
