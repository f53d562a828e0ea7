//! A file's papers left in its cache entry: the papers of a reader's
//! open of a file alone whose finished titles and word index are stored
//! too. The list is made from the stored titles at once; a paper is
//! decoded from its block when it is first read ([`Papers`]), and the
//! loader decodes them all on a thread of its own meanwhile.

use std::sync::Arc;

use super::papers::{Bad, Decoder};
use super::record::{Replay, decode_block};
use crate::corpus::{Paper, PaperId, Papers, StoredPapers};
use crate::search::TitleList;

/// A papers entry with the finished titles of the same file.
struct Source {
    replay: Replay,
    starts: Vec<usize>,
    titles: Arc<TitleList>,
}

/// The papers a block holds, read from its head alone.
fn block_len(bytes: &[u8], list: &Arc<str>) -> Result<usize, Bad> {
    let mut d = Decoder::new(bytes, list, None);
    d.uint()?;
    d.uint()?;
    for _ in 0..d.count(2)? {
        d.uint()?;
        d.str()?;
    }
    d.count(4)
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
            match block_len(self.block(b), self.list()) {
                Ok(k) => n += k,
                Err(Bad) => return Err(Box::new(self)),
            }
        }
        if n != titles.len() || n == 0 || u32::try_from(n).is_err() {
            return Err(Box::new(self));
        }
        let source = Source {
            replay: self,
            starts,
            titles,
        };
        Ok(Papers::stored(Box::new(source)))
    }
}

impl Source {
    /// Papers `from..to` as the titles have them, for a block that fails
    /// its checksum or does not decode: ids and titles, nothing else,
    /// rather than a panic or bytes not trusted. The entry is removed, to
    /// be rebuilt by the next open.
    fn stand_ins(&self, from: usize, to: usize, out: &mut Vec<Paper>) {
        self.replay.remove();
        for i in from..to {
            let mut id = PaperId::parse("");
            self.titles.id_with(i, &mut |s| id = PaperId::parse(s));
            out.push(Paper::bare(
                id,
                self.titles.given(i).to_string(),
                self.replay.list().clone(),
                i as u32,
            ));
        }
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
        let decoded = if self.replay.block_verified(b) {
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
                for (k, mut p) in piece.papers.into_iter().enumerate() {
                    let i = from + k;
                    p.position = i as u32;
                    if p.title_derived {
                        // Made unique when the list was finished, as the
                        // corpus makes them once whole.
                        p.title = self.titles.given(i).to_string();
                    }
                    out.push(p);
                }
            }
            _ => self.stand_ins(from, to, out),
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
