//! The word index a search over every field builds as its papers load,
//! of the words its query reads alone ([`super::index_papers_for`]).
//!
//! Where the papers are parsed a piece at a time (a JSON Lines file, read
//! a chunk at a time), each parsing thread indexes its piece as soon as it
//! has parsed it ([`index_parsed`]): each abstract is read where the
//! thread just parsed it, still in its core's cache, rather than from the
//! file again later. Those pieces, numbered from 0, are given their place
//! here once the dedup has numbered their papers. Papers that come
//! otherwise (from the cache, from a file read whole, or a piece some of
//! whose papers were repeats) are gathered and indexed on the indexer's
//! thread, as before.

use std::sync::Arc;
use std::sync::mpsc::SyncSender;
use std::thread::JoinHandle;

use super::words::{DocMeta, MAX_PAPERS};
use super::worker::index_piece;
use super::{Query, WordIndex, index_prefixes, items, match_threads};
use crate::corpus::abstracts::{FileText, Read, for_each_read_in};
use crate::corpus::{Abstract, Paper};
use crate::text::markup;

/// [`super::index_papers_for`] built as papers load: what it reads of
/// each paper (its abstract, shared, and its other fields' words) is kept
/// until a large piece is gathered, indexed on every core, so that a
/// search over every field need not hold every paper at once. (Indexed a
/// loading batch at a time, the pieces' merging took half again as long.)
/// The pieces are indexed and joined on a thread of their own, in order,
/// while the papers go on loading: indexed where they were gathered, the
/// loading waited on each piece, and a core stood idle at its end.
pub struct QueryIndex {
    /// Where the pieces go to be indexed, and the thread that indexes
    /// them; `None` once finished.
    indexer: Option<(SyncSender<Work>, JoinHandle<WordIndex>)>,
    /// An index of no paper that posts what this one posts: what the
    /// parsing threads index their pieces in.
    blank: Arc<WordIndex>,
    /// Papers added in all.
    added: usize,
    /// The papers likely to be added in all (0: not known).
    likely: usize,
    abstracts: Vec<Abstract>,
    metas: Vec<DocMeta>,
}

/// What the indexer is handed, with the number of its first paper and
/// the papers likely to be indexed in all.
enum Work {
    /// Papers gathered: their fields' words and their abstracts.
    Gathered(u32, Vec<DocMeta>, Vec<Abstract>, usize),
    /// Papers indexed where they were parsed, numbered from 0.
    Indexed(u32, Box<WordIndex>, usize),
}

impl QueryIndex {
    /// Papers indexed together (few in tests, so that they make pieces).
    /// Half of what one piece at a time took: a piece is held while
    /// another is indexed, and larger pieces took a cold search of real
    /// text past half its file's size in memory, for no speed.
    const PIECE: usize = if cfg!(test) { 300 } else { 1 << 16 };

    /// An index of what `query` reads, of no paper yet.
    pub fn new(query: &Query) -> QueryIndex {
        QueryIndex::posting(WordIndex::keeping(index_prefixes(query)))
    }

    /// An index of every word, of no paper yet: for a title list, whose
    /// whole index is small, and stored for the next searches.
    pub fn whole() -> QueryIndex {
        QueryIndex::posting(WordIndex::default())
    }

    fn posting(mut index: WordIndex) -> QueryIndex {
        let blank = Arc::new(index.empty_like());
        // A piece is handed over only once the one before is indexed: at
        // most two are held at once (the other gathering).
        let (tx, rx) = std::sync::mpsc::sync_channel::<Work>(0);
        let indexer = std::thread::Builder::new()
            .name("paperboat-words".into())
            .spawn(move || {
                for work in rx {
                    let (piece, likely) = match work {
                        Work::Gathered(first, metas, abstracts, likely) => {
                            let piece = index_piece(
                                first,
                                &metas,
                                &abstracts,
                                match_threads(),
                                &|| false,
                                &index,
                            );
                            (piece.unwrap_or_else(|| index.empty_like()), likely)
                        }
                        Work::Indexed(first, mut piece, likely) => {
                            piece.rebase(first as usize);
                            (*piece, likely)
                        }
                    };
                    // Its lists and arrays grow once to the papers likely,
                    // not by doubling (each time to fresh memory).
                    index.append_expecting(piece, likely);
                }
                index
            })
            .expect("a thread to index the papers");
        QueryIndex {
            indexer: Some((tx, indexer)),
            blank,
            added: 0,
            likely: 0,
            abstracts: Vec::new(),
            metas: Vec::new(),
        }
    }

    /// What the parsing threads index their pieces in
    /// ([`index_parsed`]).
    pub fn blank(&self) -> Arc<WordIndex> {
        self.blank.clone()
    }

    /// Says how many papers will likely be added in all.
    pub fn expect(&mut self, papers: usize) {
        self.likely = papers;
    }

    /// Adds `papers`, the next ones (numbered from the papers added so
    /// far); `indexed`, their words as [`index_parsed`] indexed them where
    /// they were parsed, if it did.
    pub fn add(&mut self, papers: &[Paper], indexed: Option<WordIndex>) {
        let first = self.added;
        match indexed {
            // Pieces past the papers an index holds are gathered, so
            // that they are left out as they always are.
            Some(piece) if piece.indexed == papers.len() && first + papers.len() <= MAX_PAPERS => {
                // What was gathered before them goes first.
                if !self.abstracts.is_empty() {
                    self.send_kept();
                }
                self.added += papers.len();
                self.send(Work::Indexed(first as u32, Box::new(piece), self.likely));
            }
            _ => {
                self.added += papers.len();
                self.abstracts
                    .extend(papers.iter().map(|p| p.abstract_text.clone()));
                self.metas.extend(papers.iter().map(items::doc_meta));
                if self.abstracts.len() >= Self::PIECE {
                    self.send_kept();
                }
            }
        }
    }

    /// Hands the papers gathered to the indexer.
    fn send_kept(&mut self) {
        let first = (self.added - self.abstracts.len()) as u32;
        // The next piece is gathered in room of its own, taken once.
        let room = if self.likely > self.added {
            Self::PIECE.min(self.likely - self.added)
        } else {
            0
        };
        let metas = std::mem::replace(&mut self.metas, Vec::with_capacity(room));
        let abstracts = std::mem::replace(&mut self.abstracts, Vec::with_capacity(room));
        self.send(Work::Gathered(first, metas, abstracts, self.likely));
    }

    fn send(&self, work: Work) {
        if let Some((tx, _)) = &self.indexer {
            // The indexer ends only when this ends, or by a panic, which
            // `finish` passes on.
            let _ = tx.send(work);
        }
    }

    /// The index of every paper added.
    pub fn finish(mut self) -> WordIndex {
        if !self.abstracts.is_empty() {
            self.send_kept();
        }
        let (tx, indexer) = self.indexer.take().expect("finished once");
        drop(tx);
        indexer
            .join()
            .unwrap_or_else(|e| std::panic::resume_unwind(e))
    }
}

/// The words `blank` ([`QueryIndex::blank`]) posts of `papers`, numbered
/// from 0, for [`QueryIndex::add`]: what the thread that parsed them does
/// while they are fresh. `view`: the file the papers were parsed from,
/// where its bytes read start, and those bytes, from which abstracts left
/// in the file are read rather than from the file.
pub fn index_parsed(
    papers: &[Paper],
    blank: &WordIndex,
    view: Option<(&FileText, u64, &[u8])>,
) -> WordIndex {
    let mut index = blank.empty_like();
    for_each_read_in(
        papers.len(),
        |k| &papers[k].abstract_text,
        view,
        |k, read| {
            items::with_meta(&papers[k], |meta| match read {
                Read::Text(text) => index.add(k as u32, meta, &markup::plain_cow(text)),
                Read::Written(raw) => index.add_escaped(k as u32, meta, raw),
            });
            true
        },
    );
    index
}
