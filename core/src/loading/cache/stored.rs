//! A file's papers left in its cache entry: the papers of a reader's
//! open of a file alone whose finished titles are stored too. The list is made from the stored titles at once; a paper is
//! decoded alone when it is first read, its block's earlier papers passed
//! over ([`Papers`]), and the loader decodes them all on a thread of its
//! own meanwhile.

use std::sync::{Arc, OnceLock};

use super::papers::{Bad, Decoder};
use super::record::{Head, Replay, decode_block};
use crate::corpus::abstracts::FileText;
use crate::corpus::{Paper, PaperId, Papers, StoredPapers};
use crate::search::TitleList;

/// A papers entry with the finished titles of the same file.
struct Source {
    replay: Replay,
    starts: Vec<usize>,
    titles: Arc<TitleList>,
    /// Whether each block is as its checksum says, once asked.
    checked: Box<[OnceLock<bool>]>,
    /// Set once the entry is removed (a block failed).
    removed: OnceLock<()>,
}

/// A block read past its head (the chunk's counts, its skipped records;
/// see [`Head`]): a decoder at its first paper, and how many papers it
/// holds.
fn past_head<'a>(
    bytes: &'a [u8],
    list: &Arc<str>,
    file: Option<(&'a Arc<FileText>, u64)>,
) -> Result<(Decoder<'a>, usize), Bad> {
    let (head, d) = Head::read(bytes, list, file)?;
    Ok((d, head.papers))
}

/// Paper `k` of a block, the ones before it passed over.
fn block_paper(
    bytes: &[u8],
    list: &Arc<str>,
    file: Option<(&Arc<FileText>, u64)>,
    k: usize,
) -> Result<Paper, Bad> {
    let (mut d, n) = past_head(bytes, list, file)?;
    if k >= n {
        return Err(Bad);
    }
    for _ in 0..k {
        d.skip_paper()?;
    }
    d.paper()
}

impl Replay {
    /// The papers of this entry left where they are, read through
    /// `titles` (the same file's, finished) for their ids and finished
    /// titles. Given back when the entry cannot be read so: its papers had
    /// repeats or former ids (the load folds or adopts them as they
    /// come), or its blocks do not hold as many papers as `titles`.
    pub(in crate::loading) fn stored(self, titles: Arc<TitleList>) -> Result<Papers, Box<Replay>> {
        if !self.distinct() || self.former() {
            return Err(Box::new(self));
        }
        let mut starts = Vec::with_capacity(self.blocks());
        let mut n = 0usize;
        for b in 0..self.blocks() {
            starts.push(n);
            match past_head(self.block(b), self.list(), None) {
                Ok((_, k)) => n += k,
                Err(Bad) => return Err(Box::new(self)),
            }
        }
        if n != titles.len() || n == 0 || u32::try_from(n).is_err() {
            return Err(Box::new(self));
        }
        let source = Source {
            checked: starts.iter().map(|_| OnceLock::new()).collect(),
            removed: OnceLock::new(),
            replay: self,
            starts,
            titles,
        };
        Ok(Papers::stored(Box::new(source)))
    }
}

impl Source {
    /// True when block `b` is as its checksum says (asked once).
    fn verified(&self, b: usize) -> bool {
        *self.checked[b].get_or_init(|| self.replay.block_verified(b))
    }

    /// Paper `i` as decoded, as the load would have made it: numbered,
    /// and a derived title as the list has it, made unique when the list
    /// was finished, as the corpus makes them once whole.
    fn finished(&self, i: usize, mut p: Paper) -> Paper {
        p.position = i as u32;
        if p.title_derived {
            p.title = self.titles.given(i).to_string();
        }
        p
    }

    /// Paper `i` as the titles have it, for a block that fails its
    /// checksum or does not decode: its id and title, nothing else,
    /// rather than a panic or bytes not trusted. The entry is removed, to
    /// be rebuilt by the next open.
    fn stand_in(&self, i: usize) -> Paper {
        self.removed.get_or_init(|| self.replay.remove());
        let mut id = PaperId::parse("");
        self.titles.id_with(i, &mut |s| id = PaperId::parse(s));
        let title = self.titles.given(i).to_string();
        Paper::bare(id, title, self.replay.list().clone(), i as u32)
    }
}

impl StoredPapers for Source {
    fn count(&self) -> usize {
        self.titles.len()
    }

    fn starts(&self) -> &[usize] {
        &self.starts
    }

    fn block(&self, b: usize, out: &mut Vec<Paper>) {
        let from = self.starts[b];
        let to = self.starts.get(b + 1).copied().unwrap_or(self.titles.len());
        let decoded = if self.verified(b) {
            decode_block(
                self.replay.block(b),
                self.replay.list(),
                self.replay.file(),
                false,
            )
        } else {
            Err(Bad)
        };
        self.replay.release_block(b);
        match decoded {
            Ok((piece, _, _)) if piece.papers.len() == to - from => {
                out.reserve(to - from);
                for (k, p) in piece.papers.into_iter().enumerate() {
                    out.push(self.finished(from + k, p));
                }
            }
            _ => out.extend((from..to).map(|i| self.stand_in(i))),
        }
    }

    fn one(&self, i: usize) -> Paper {
        let b = self.starts.partition_point(|&s| s <= i).saturating_sub(1);
        let decoded = if self.verified(b) {
            let k = i - self.starts[b];
            block_paper(
                self.replay.block(b),
                self.replay.list(),
                self.replay.file(),
                k,
            )
        } else {
            Err(Bad)
        };
        match decoded {
            Ok(p) => self.finished(i, p),
            Err(Bad) => self.stand_in(i),
        }
    }

    fn id(&self, i: usize, f: &mut dyn FnMut(&str)) {
        self.titles.id_with(i, f);
    }

    fn find(&self, ids: &[&str]) -> Vec<Option<usize>> {
        self.titles.find_ids(ids)
    }

    fn short_len(&self) -> usize {
        self.titles.short_len()
    }
}
