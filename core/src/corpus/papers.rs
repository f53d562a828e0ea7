//! The papers of a corpus: held, or stored and decoded when first read.
//!
//! A file reopened from the cache lists its papers from its stored titles
//! at once (see docs/CACHE.md); its papers stay in the cache's entry, in
//! blocks of a few thousand, until one is read. A paper read by its place
//! ([`Papers::get`], `papers[i]`) is decoded alone (its block passed over
//! up to it); a read of all of them (the slice, through `Deref`) waits for
//! every block to be decoded once, which the loader starts on threads of
//! its own once the list is out.

use std::fmt;
use std::ops::{Deref, DerefMut, Index, IndexMut, RangeFrom};
use std::sync::{Arc, OnceLock};

use rustc_hash::FxHashMap;

use super::Paper;

/// Papers kept elsewhere (the cache), by block.
pub trait StoredPapers: Send + Sync {
    /// How many papers there are.
    fn count(&self) -> usize;
    /// The place of each block's first paper, ascending, the first 0.
    fn starts(&self) -> &[usize];
    /// Appends block `b`'s papers, as the load would have made them, to
    /// `out`: exactly as many as the block holds.
    fn block(&self, b: usize, out: &mut Vec<Paper>);
    /// Paper `i` alone, as [`StoredPapers::block`] would make it.
    fn one(&self, i: usize) -> Paper;
    /// Paper `i`'s id, without decoding it.
    fn id(&self, i: usize, f: &mut dyn FnMut(&str));
    /// Where each of `ids` is (the first paper with it).
    fn find(&self, ids: &[&str]) -> Vec<Option<usize>>;
    /// The length hash ids are shown at (see `Corpus::short_id`).
    fn short_len(&self) -> usize;
}

/// Papers read by their place: a slice, or [`Papers`], whose stored
/// paper is decoded alone (for what reads a few papers of many, and
/// should not wait for every one to be decoded).
pub trait PaperAt {
    /// How many papers there are.
    fn count(&self) -> usize;
    /// Paper `i`.
    fn paper_at(&self, i: usize) -> Option<&Paper>;
}

impl PaperAt for [Paper] {
    fn count(&self) -> usize {
        self.len()
    }
    fn paper_at(&self, i: usize) -> Option<&Paper> {
        self.get(i)
    }
}

impl PaperAt for Vec<Paper> {
    fn count(&self) -> usize {
        self.len()
    }
    fn paper_at(&self, i: usize) -> Option<&Paper> {
        self.get(i)
    }
}

impl PaperAt for Papers {
    fn count(&self) -> usize {
        self.len()
    }
    fn paper_at(&self, i: usize) -> Option<&Paper> {
        self.get(i)
    }
}

/// Places a chunk of [`Lazy::singles`] holds.
const CHUNK: usize = 256;

/// Papers read alone, by their place in a chunk of [`CHUNK`].
type Chunk = Box<[OnceLock<Box<Paper>>]>;

struct Lazy {
    source: Box<dyn StoredPapers>,
    /// Papers read by their place before `all` was whole, kept until the
    /// papers go (see [`Lazy::get`]): in chunks of [`CHUNK`] places, each
    /// made when one of its papers is first read, and each paper boxed,
    /// so that what is made before any is read is one slot a chunk (24
    /// bytes: 0.4 MB at 4M papers) and a page of papers from as many
    /// chunks takes 4 KB a paper beside it.
    singles: Box<[OnceLock<Chunk>]>,
    all: OnceLock<Vec<Paper>>,
}

impl Lazy {
    fn new(source: Box<dyn StoredPapers>) -> Lazy {
        let chunks = source.count().div_ceil(CHUNK);
        Lazy {
            source,
            singles: (0..chunks).map(|_| OnceLock::new()).collect(),
            all: OnceLock::new(),
        }
    }

    fn all(&self) -> &Vec<Paper> {
        self.all.get_or_init(|| {
            self.decode_in_place()
                .unwrap_or_else(|| self.decode_serially())
        })
    }

    /// Every paper decoded into one vector made at its full size, each
    /// thread writing a run of blocks where their papers go: at 2.7M
    /// papers, decoding into a vector a thread and joining them held 1.5
    /// times the papers' memory at once, which the allocator kept. (The
    /// vector filled with empty papers first, for the threads to replace,
    /// needs no `unsafe` but made a warm open slower: docs/UNSAFE.md.)
    /// `None` (nothing kept) when a block gives other than the papers
    /// its place says.
    fn decode_in_place(&self) -> Option<Vec<Paper>> {
        let n = self.source.count();
        let starts = self.source.starts();
        let blocks = starts.len();
        let threads = crate::parallel::threads().clamp(1, 8).min(blocks.max(1));
        let per = blocks.div_ceil(threads.max(1)).max(1);
        let place = |b: usize| starts.get(b).copied().unwrap_or(n).min(n);
        let mut all: Vec<Paper> = Vec::with_capacity(n);
        let mut rest = &mut all.spare_capacity_mut()[..n];
        let mut runs = Vec::new();
        for t in 0..threads {
            let (b0, b1) = ((t * per).min(blocks), ((t + 1) * per).min(blocks));
            let (from, to) = (place(b0), if b1 < blocks { place(b1) } else { n });
            let (run, tail) = rest.split_at_mut(to.saturating_sub(from).min(rest.len()));
            rest = tail;
            runs.push((b0..b1, run));
        }
        let source = &self.source;
        let written: Vec<(usize, usize, usize)> = std::thread::scope(|s| {
            let handles: Vec<_> = runs
                .into_iter()
                .map(|(bs, run)| {
                    s.spawn(move || {
                        let (mut k, mut given, mut buf) = (0, 0, Vec::new());
                        for b in bs {
                            source.block(b, &mut buf);
                            given += buf.len();
                            for p in buf.drain(..) {
                                if let Some(slot) = run.get_mut(k) {
                                    slot.write(p);
                                    k += 1;
                                }
                            }
                        }
                        (k, run.len(), given)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect()
        });
        let whole = rest.is_empty()
            && written
                .iter()
                .all(|&(k, len, given)| k == len && given == len);
        if !whole {
            // Drop what was written, run by run, and decode again.
            let mut at = 0;
            let spare = all.spare_capacity_mut();
            for (k, len, _) in written {
                for slot in &mut spare[at..at + k] {
                    // SAFETY: the first `k` slots of this run were written.
                    unsafe { slot.assume_init_drop() };
                }
                at += len;
            }
            return None;
        }
        // SAFETY: the runs cover the first `n` slots end to end, and each
        // run's every slot was written (`k == len` for each).
        unsafe { all.set_len(n) };
        Some(all)
    }

    /// Every paper decoded a block after another, on this thread.
    fn decode_serially(&self) -> Vec<Paper> {
        let mut all = Vec::with_capacity(self.source.count());
        for b in 0..self.source.starts().len() {
            self.source.block(b, &mut all);
        }
        all
    }

    fn get(&self, i: usize) -> Option<&Paper> {
        if let Some(all) = self.all.get() {
            return all.get(i);
        }
        if i >= self.source.count() {
            return None;
        }
        // Decoding one paper passes its block's earlier ones by, a small
        // part of decoding its block of thousands, which a page of ranked
        // papers, each from another block, would pay forty times in one
        // frame (docs/PERFORMANCE.md, Tried and not kept).
        let chunk = self
            .singles
            .get(i / CHUNK)?
            .get_or_init(|| (0..CHUNK).map(|_| OnceLock::new()).collect());
        let paper = chunk.get(i % CHUNK)?;
        Some(paper.get_or_init(|| Box::new(self.source.one(i))))
    }
}

/// The papers of a corpus, in order. A clone shares them (a thread
/// grouping or ranking them takes one): changing papers a clone still
/// holds copies them first.
#[derive(Clone, Default)]
pub struct Papers {
    held: Arc<Vec<Paper>>,
    stored: Option<Arc<Lazy>>,
}

impl Papers {
    /// Papers kept in `source`, read when first asked for.
    pub fn stored(source: Box<dyn StoredPapers>) -> Papers {
        Papers {
            held: Arc::default(),
            stored: Some(Arc::new(Lazy::new(source))),
        }
    }

    /// How many papers there are.
    pub fn len(&self) -> usize {
        match &self.stored {
            Some(s) => s.source.count(),
            None => self.held.len(),
        }
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Paper `i`, decoded alone when stored and not all decoded yet.
    pub fn get(&self, i: usize) -> Option<&Paper> {
        match &self.stored {
            Some(s) => s.get(i),
            None => self.held.get(i),
        }
    }

    /// True when every paper can be read at once: held, or all decoded.
    /// Until then, what reads them all waits (see [`Papers::decode_all`]).
    pub fn is_ready(&self) -> bool {
        self.stored.as_ref().is_none_or(|s| s.all.get().is_some())
    }

    /// `f` of paper `i`'s id (`None` past the last), without decoding a
    /// stored paper.
    pub fn with_id<R>(&self, i: usize, f: impl FnOnce(&str) -> R) -> Option<R> {
        match &self.stored {
            Some(s) if s.all.get().is_none() => {
                if i >= s.source.count() {
                    return None;
                }
                let mut f = Some(f);
                let mut out = None;
                s.source.id(i, &mut |id| out = f.take().map(|f| f(id)));
                out
            }
            _ => self.get(i).map(|p| f(p.id.as_str())),
        }
    }

    /// True when the papers were left in the cache, decoded since or not
    /// (until a change holds them).
    pub fn is_stored(&self) -> bool {
        self.stored.is_some()
    }

    /// Decodes every stored paper (on every core), as reading them all
    /// would: what the loader starts once the list is out.
    pub fn decode_all(&self) {
        if let Some(s) = &self.stored {
            s.all();
        }
    }

    /// Calls `f` with each paper's id in order, without decoding a stored
    /// paper whose id is kept beside it.
    pub fn each_id(&self, f: impl FnMut(usize, &str)) {
        self.each_id_from(0, f);
    }

    /// [`Papers::each_id`] for papers `from..`.
    pub fn each_id_from(&self, from: usize, mut f: impl FnMut(usize, &str)) {
        match &self.stored {
            Some(s) if s.all.get().is_none() => {
                for i in from..s.source.count() {
                    s.source.id(i, &mut |id| f(i, id));
                }
            }
            _ => {
                for (i, p) in self.iter().enumerate().skip(from) {
                    f(i, p.id.as_str());
                }
            }
        }
    }

    /// Where each of `ids` is (the first paper with it): one pass over
    /// the papers (or, stored, over their ids as kept).
    pub fn find_ids(&self, ids: &[&str]) -> Vec<Option<usize>> {
        if let Some(s) = &self.stored {
            return s.source.find(ids);
        }
        let mut wanted: FxHashMap<&str, Vec<usize>> = FxHashMap::default();
        for (k, id) in ids.iter().enumerate() {
            wanted.entry(id).or_default().push(k);
        }
        let mut found = vec![None; ids.len()];
        for (i, p) in self.held.iter().enumerate() {
            if let Some(ks) = wanted.remove(p.id.as_str()) {
                for k in ks {
                    found[k] = Some(i);
                }
                if wanted.is_empty() {
                    break;
                }
            }
        }
        found
    }

    /// The length hash ids of stored papers are shown at.
    pub(super) fn stored_short_len(&self) -> Option<usize> {
        self.stored.as_ref().map(|s| s.source.short_len())
    }

    /// The papers, held.
    pub fn into_vec(self) -> Vec<Paper> {
        match self.stored {
            None => Arc::try_unwrap(self.held).unwrap_or_else(|held| (*held).clone()),
            Some(s) => match Arc::try_unwrap(s) {
                Ok(lazy) => {
                    lazy.all();
                    lazy.all.into_inner().unwrap_or_default()
                }
                Err(s) => s.all().clone(),
            },
        }
    }

    /// Holds the papers (decoding them when stored), to change them.
    fn held_mut(&mut self) -> &mut Vec<Paper> {
        if self.stored.is_some() {
            self.held = Arc::new(std::mem::take(self).into_vec());
        }
        Arc::make_mut(&mut self.held)
    }
}

impl From<Vec<Paper>> for Papers {
    fn from(held: Vec<Paper>) -> Papers {
        Papers {
            held: Arc::new(held),
            stored: None,
        }
    }
}

impl Deref for Papers {
    type Target = Vec<Paper>;

    fn deref(&self) -> &Vec<Paper> {
        match &self.stored {
            Some(s) => s.all(),
            None => &self.held,
        }
    }
}

impl DerefMut for Papers {
    fn deref_mut(&mut self) -> &mut Vec<Paper> {
        self.held_mut()
    }
}

impl Index<usize> for Papers {
    type Output = Paper;

    fn index(&self, i: usize) -> &Paper {
        match &self.stored {
            Some(s) => match s.get(i) {
                Some(p) => p,
                None => panic!("paper {i} of {}", s.source.count()),
            },
            None => &self.held[i],
        }
    }
}

impl IndexMut<usize> for Papers {
    fn index_mut(&mut self, i: usize) -> &mut Paper {
        &mut self.held_mut()[i]
    }
}

impl Index<RangeFrom<usize>> for Papers {
    type Output = [Paper];

    fn index(&self, from: RangeFrom<usize>) -> &[Paper] {
        &(**self)[from]
    }
}

impl fmt::Debug for Papers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl<'a> IntoIterator for &'a Papers {
    type Item = &'a Paper;
    type IntoIter = std::slice::Iter<'a, Paper>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// Held papers offered as stored ones, in blocks of `per`, for tests of
/// what reads stored papers (here and in the reader's): nothing is
/// decoded but what is asked for.
#[doc(hidden)]
pub fn stored_for_tests(papers: Vec<Paper>, per: usize, short_len: usize) -> Papers {
    struct Held(Vec<Paper>, Vec<usize>, usize);
    impl StoredPapers for Held {
        fn count(&self) -> usize {
            self.0.len()
        }
        fn starts(&self) -> &[usize] {
            &self.1
        }
        fn block(&self, b: usize, out: &mut Vec<Paper>) {
            let to = self.1.get(b + 1).copied().unwrap_or(self.0.len());
            out.extend_from_slice(&self.0[self.1[b]..to]);
        }
        fn one(&self, i: usize) -> Paper {
            self.0[i].clone()
        }
        fn id(&self, i: usize, f: &mut dyn FnMut(&str)) {
            f(self.0[i].id.as_str());
        }
        fn find(&self, ids: &[&str]) -> Vec<Option<usize>> {
            let ids = ids
                .iter()
                .map(|id| self.0.iter().position(|p| p.id.as_str() == *id));
            ids.collect()
        }
        fn short_len(&self) -> usize {
            self.2
        }
    }
    let starts = (0..papers.len()).step_by(per.max(1)).collect();
    Papers::stored(Box::new(Held(papers, starts, short_len)))
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;
    use crate::corpus::PaperId;

    /// Papers `0..n` in blocks of `per`, counting the blocks decoded
    /// (papers decoded alone count as `n + i`).
    struct Fake {
        n: usize,
        starts: Vec<usize>,
        decoded: Arc<Mutex<Vec<usize>>>,
    }

    fn paper(i: usize) -> Paper {
        let id = PaperId::arxiv(&format!("2401.{i:05}"));
        Paper::bare(id, format!("Paper {i}"), "list".into(), i as u32)
    }

    impl StoredPapers for Fake {
        fn count(&self) -> usize {
            self.n
        }
        fn starts(&self) -> &[usize] {
            &self.starts
        }
        fn block(&self, b: usize, out: &mut Vec<Paper>) {
            self.decoded.lock().unwrap().push(b);
            let to = self.starts.get(b + 1).copied().unwrap_or(self.n);
            out.extend((self.starts[b]..to).map(paper));
        }
        fn one(&self, i: usize) -> Paper {
            self.decoded.lock().unwrap().push(self.n + i);
            paper(i)
        }
        fn id(&self, i: usize, f: &mut dyn FnMut(&str)) {
            f(&format!("arxiv:2401.{i:05}"));
        }
        fn find(&self, ids: &[&str]) -> Vec<Option<usize>> {
            ids.iter()
                .map(|id| (0..self.n).find(|&i| format!("arxiv:2401.{i:05}") == *id))
                .collect()
        }
        fn short_len(&self) -> usize {
            7
        }
    }

    #[test]
    fn a_source_whose_blocks_miscount_is_decoded_a_block_after_another() {
        struct Short(Fake);
        impl StoredPapers for Short {
            fn count(&self) -> usize {
                self.0.count()
            }
            fn starts(&self) -> &[usize] {
                self.0.starts()
            }
            fn block(&self, b: usize, out: &mut Vec<Paper>) {
                self.0.block(b, out);
                if b == 3 {
                    out.pop();
                }
            }
            fn one(&self, i: usize) -> Paper {
                self.0.one(i)
            }
            fn id(&self, i: usize, f: &mut dyn FnMut(&str)) {
                self.0.id(i, f);
            }
            fn find(&self, ids: &[&str]) -> Vec<Option<usize>> {
                self.0.find(ids)
            }
            fn short_len(&self) -> usize {
                self.0.short_len()
            }
        }
        let fake = Fake {
            n: 500,
            starts: (0..500).step_by(50).collect(),
            decoded: Arc::default(),
        };
        let papers = Papers::stored(Box::new(Short(fake)));
        // Every paper but block 3's last, in order: nothing lost or
        // written twice.
        let want: Vec<Paper> = (0..500).filter(|&i| i != 199).map(paper).collect();
        assert_eq!(*papers, want);
    }

    fn stored(n: usize, per: usize) -> (Papers, Arc<Mutex<Vec<usize>>>) {
        let decoded = Arc::new(Mutex::new(Vec::new()));
        let fake = Fake {
            n,
            starts: (0..n).step_by(per).collect(),
            decoded: decoded.clone(),
        };
        (Papers::stored(Box::new(fake)), decoded)
    }

    #[test]
    fn a_stored_paper_read_by_its_place_is_decoded_alone_once() {
        let (papers, decoded) = stored(1_000, 64);
        assert_eq!(papers.len(), 1_000);
        assert_eq!(papers[700], paper(700));
        assert_eq!(papers.get(703), Some(&paper(703)));
        assert_eq!(papers.get(1_000), None);
        assert_eq!(papers[0], paper(0));
        let first: *const Paper = &papers[700];
        assert_eq!(papers[700], paper(700));
        // Papers 700, 703 and 0, each once, where they were put.
        assert_eq!(*decoded.lock().unwrap(), vec![1_700, 1_703, 1_000]);
        for i in 0..200 {
            assert_eq!(papers[i * 5], paper(i * 5));
        }
        assert!(std::ptr::eq(first, &papers[700]));
        let before = decoded.lock().unwrap().len();
        assert_eq!(before, 201);
        // Ids are told without decoding.
        let mut ids = Vec::new();
        papers.each_id_from(998, |i, id| ids.push((i, id.to_string())));
        assert_eq!(
            ids,
            vec![
                (998, "arxiv:2401.00998".into()),
                (999, "arxiv:2401.00999".into())
            ]
        );
        assert_eq!(
            papers.with_id(17, str::to_string),
            Some("arxiv:2401.00017".into())
        );
        assert_eq!(papers.with_id(1_000, str::len), None);
        assert_eq!(decoded.lock().unwrap().len(), before);
        assert!(!papers.is_ready());
        let ids = ["arxiv:2401.00004", "nope", "arxiv:2401.00999"];
        assert_eq!(papers.find_ids(&ids), vec![Some(4), None, Some(999)]);
        let held = Papers::from(papers.clone().into_vec());
        assert_eq!(held.find_ids(&ids), vec![Some(4), None, Some(999)]);
    }

    #[test]
    fn every_stored_paper_is_decoded_once_when_all_are_read() {
        let (papers, decoded) = stored(1_000, 64);
        let copy = papers.clone();
        papers.decode_all();
        assert!(copy.is_ready() && Papers::default().is_ready());
        let want: Vec<Paper> = (0..1_000).map(paper).collect();
        assert_eq!(*copy, want);
        assert_eq!(&copy[990..], &want[990..]);
        let mut blocks = decoded.lock().unwrap().clone();
        blocks.sort_unstable();
        assert_eq!(blocks, (0..16).collect::<Vec<_>>());
        // Read from the whole from now on: no block again.
        assert_eq!(copy[5], paper(5));
        assert_eq!(decoded.lock().unwrap().len(), 16);
        let mut n = 0;
        copy.each_id(|i, id| {
            assert_eq!(id, want[i].id.as_str());
            n += 1;
        });
        assert_eq!(n, 1_000);
    }

    #[test]
    fn stored_papers_changed_are_held_first() {
        let (mut papers, _) = stored(100, 30);
        papers[3].title = "Changed".into();
        assert!(!papers.is_stored());
        assert_eq!(papers.len(), 100);
        assert_eq!(papers[3].title, "Changed");
        assert_eq!(papers[4], paper(4));
        let (papers, _) = stored(100, 30);
        assert_eq!(
            papers.clone().into_vec(),
            (0..100).map(paper).collect::<Vec<_>>()
        );
        assert!(Papers::default().is_empty());
    }

    #[test]
    fn a_clone_shares_held_papers_until_either_changes() {
        let mut papers = Papers::from((0..50).map(paper).collect::<Vec<_>>());
        let shared = papers.clone();
        assert!(std::ptr::eq(&papers[7], &shared[7]), "shared, not copied");
        papers[7].title = "Changed".into();
        papers.push(paper(50));
        assert_eq!(shared.len(), 50);
        assert_eq!(shared[7], paper(7));
        assert_eq!(papers[7].title, "Changed");
        // Held alone again: changed in place.
        drop(shared);
        let at: *const Paper = &papers[0];
        papers[1].title = "Again".into();
        assert!(std::ptr::eq(at, &papers[0]));
        assert_eq!(papers.clone().into_vec().len(), 51);
    }
}
