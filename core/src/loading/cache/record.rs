//! An input's papers entry: looked up when the input is opened, replayed
//! when it matches (decoded on every core, handed on in order, the first
//! block as soon as it is decoded), else recorded as the input is parsed
//! and stored once the load ends well.
//!
//! An entry: its key, then a section a block (a parsed piece: the bytes
//! of the chunk it ends and the invalid UTF-8 in that chunk, its skipped
//! records, its papers), then what the load says of the whole input.

use std::borrow::Cow;
use std::fs::File;
use std::path::PathBuf;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::container::{Entry, Writer};
use super::key::{self, SourceKey};
use super::papers::{Bad, Decoder, Encoder};
use super::serial;
use super::{CacheOptions, PAPERS_EXT, PAPERS_KIND, evict};
use crate::corpus::abstracts::{FileText, read_exact_at};
use crate::loading::chunks::{FILE_FROM, Piece};
use crate::loading::{Format, Input};

/// What an input's entry says of the whole input.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Meta {
    line_oriented: bool,
    repaired: usize,
    blocks: usize,
    /// True when abstracts were left in the file (to be read back).
    in_file: bool,
    /// Line ends read (line-oriented inputs).
    lines: usize,
    /// Every paper's id met once as the input loaded: none was a repeat
    /// or took a distinguished id.
    distinct: bool,
    /// A paper had a former id (marks to follow it).
    former: bool,
    /// What the file held where its pieces were parsed from: each piece's
    /// bytes, how many and their xxh3, in order (line-oriented inputs
    /// recorded whole; else `None`). A file that grew is replayed only
    /// when its old part still hashes so ([`same_content`]).
    content: Option<Vec<(u64, u64)>>,
}

impl Meta {
    fn write(&self) -> Vec<u8> {
        serial::encode(self)
    }

    fn read(bytes: &[u8]) -> Result<Meta, Bad> {
        serial::decode(bytes)
    }
}

/// What a block holds before its papers: for the last piece of a chunk,
/// the chunk's invalid UTF-8 sequences and bytes (0 for the others), the
/// piece's skipped records (numbered in the file), and how many papers
/// follow.
#[derive(Serialize, Deserialize)]
pub(super) struct Head<'a> {
    pub(super) invalid: usize,
    pub(super) consumed: u64,
    pub(super) skipped: Cow<'a, [(usize, String)]>,
    pub(super) papers: usize,
}

impl<'a> Head<'a> {
    /// A block's head, and a decoder at its first paper. Garbage is
    /// refused before anything is reserved for its papers: each takes
    /// more than 4 bytes.
    pub(super) fn read(
        bytes: &'a [u8],
        list: &Arc<str>,
        file: Option<(&'a Arc<FileText>, u64)>,
    ) -> Result<(Head<'a>, Decoder<'a>), Bad> {
        let (head, rest): (Head, _) = serial::decode_head(bytes)?;
        if head.papers > rest.len() / 4 {
            return Err(Bad);
        }
        Ok((head, Decoder::new(rest, list, file)))
    }
}

/// What the cache has for an input.
pub(in crate::loading) enum Lookup {
    /// An entry for the input as it is now.
    Replay(Replay),
    /// None: one is recorded as it loads.
    Record(Box<Recorder>),
    /// An entry for the input before lines were added to it: replayed,
    /// then the input read from `from` (line `first_line`) on, and the
    /// whole recorded.
    Grown {
        replay: Replay,
        recorder: Box<Recorder>,
        from: u64,
        first_line: usize,
    },
    /// Not cached (not a file, too small, or the cache cannot be written).
    Off,
}

/// Looks `input` (opened as `file`, read as `format` into the list `list`)
/// up in the cache; a file it does not hold is recorded if `record`.
/// With `by_block`, an entry that can be read a block at a time
/// ([`Replay::stored`]) is not verified whole: each block is, as it is
/// read ([`Replay::verified`] says the rest).
pub(in crate::loading) fn lookup(
    cache: &CacheOptions,
    input: &Input,
    file: &File,
    format: Format,
    list: &Arc<str>,
    (line_oriented, record, by_block): (bool, bool, bool),
) -> Lookup {
    let Input::Path(path) = input else {
        return Lookup::Off;
    };
    if !file
        .metadata()
        .is_ok_and(|m| m.is_file() && m.len() >= cache.min_size)
    {
        return Lookup::Off;
    }
    let Ok(key) = key::of(file, path, format.name(), list) else {
        return Lookup::Off;
    };
    let at = cache.dir.join(format!("{}.{PAPERS_EXT}", key.name));
    // The last section says what the entry holds.
    let entry =
        Entry::open(&at, PAPERS_KIND).filter(|e| e.len() >= 2 && e.verified_section(e.len() - 1));
    if let Some(entry) = entry
        && let Ok(meta) = Meta::read(entry.section(entry.len() - 1))
        && meta.blocks + 2 == entry.len()
        && meta.line_oriented == line_oriented
    {
        // `Some(None)`: the entry is for the file as it is; `Some(Some(n))`:
        // for its first `n` bytes, lines having been added since.
        let usable = if entry.section(0) == key.bytes {
            Some(None)
        } else if line_oriented && key.len >= FILE_FROM {
            // Longer, both ends as they were: the middle is checked too
            // (a file copied over with one changed line and more added
            // keeps its inode, and was replayed stale).
            key::grown_from(entry.section(0), &key, file)
                .filter(|&old| {
                    meta.content
                        .as_ref()
                        .is_some_and(|c| same_content(file, c, old))
                })
                .map(Some)
        } else {
            None
        };
        let by_block = by_block && usable == Some(None) && meta.distinct && !meta.former;
        if let Some(grown) = usable
            && (by_block || entry.verify())
        {
            let file_text = if meta.in_file {
                match FileText::open(file, path) {
                    Some(f) => Some(f),
                    // No handle to read abstracts back through: parsed as
                    // if there were no cache.
                    None => return Lookup::Off,
                }
            } else {
                None
            };
            let first_line = meta.lines + 1;
            let replay = Replay {
                entry,
                verified: !by_block,
                at,
                meta,
                file_text,
                len: key.len,
                list: list.clone(),
            };
            let Some(from) = grown else {
                return Lookup::Replay(replay);
            };
            return match recorder(cache, key, file, path, format, list) {
                Some(recorder) => Lookup::Grown {
                    replay,
                    recorder,
                    from,
                    first_line,
                },
                None => Lookup::Off,
            };
        }
    }
    match record.then(|| recorder(cache, key, file, path, format, list)) {
        Some(Some(r)) => Lookup::Record(r),
        _ => Lookup::Off,
    }
}

/// Starts recording an entry for `file` under `key`.
fn recorder(
    cache: &CacheOptions,
    key: SourceKey,
    file: &File,
    path: &std::path::Path,
    format: Format,
    list: &Arc<str>,
) -> Option<Box<Recorder>> {
    let file = file.try_clone().ok()?;
    let mut writer = Writer::create(&cache.dir, PAPERS_KIND).ok()?;
    writer.section(&key.bytes).ok()?;
    Some(Box::new(Recorder {
        writer: Some(writer),
        key,
        file,
        path: path.to_path_buf(),
        format: format.name(),
        list: list.clone(),
        cache: cache.clone(),
        blocks: 0,
        in_file: false,
        former: false,
        lines: 0,
        content: Some(Vec::new()),
    }))
}

/// True when the first `len` bytes of `file` are those the pieces of
/// `content` were parsed from: they cover them exactly (after a
/// byte-order mark), and each piece's bytes, read again by offset, hash
/// as recorded. Read on every core; a file that cannot be read is not.
fn same_content(file: &File, content: &[(u64, u64)], len: u64) -> bool {
    let covered: u64 = content.iter().map(|&(n, _)| n).sum();
    let Some(start) = len.checked_sub(covered).filter(|&s| s == 0 || s == 3) else {
        return false;
    };
    let mut at = start;
    let ranges: Vec<(u64, u64, u64)> = content
        .iter()
        .map(|&(n, hash)| {
            let r = (at, n, hash);
            at += n;
            r
        })
        .collect();
    let threads = crate::parallel::threads();
    crate::parallel::map_split(&ranges, threads, |_, part| {
        let mut buf = Vec::new();
        part.iter().all(|&(at, n, hash)| {
            let Ok(n) = usize::try_from(n) else {
                return false;
            };
            buf.resize(n, 0);
            read_exact_at(file, &mut buf, at).is_ok() && xxhash_rust::xxh3::xxh3_64(&buf) == hash
        })
    })
    .into_iter()
    .all(|same| same)
}

/// An entry being recorded as its input loads.
pub(in crate::loading) struct Recorder {
    /// `None` once something went wrong: nothing is stored.
    writer: Option<Writer>,
    key: SourceKey,
    file: File,
    path: PathBuf,
    format: &'static str,
    list: Arc<str>,
    cache: CacheOptions,
    blocks: usize,
    in_file: bool,
    former: bool,
    lines: usize,
    /// See [`Meta::content`]: `None` once a piece came without its bytes.
    content: Option<Vec<(u64, u64)>>,
}

impl Recorder {
    /// Counts the line ends of a chunk read.
    pub(in crate::loading) fn lines(&mut self, n: usize) {
        self.lines += n;
    }

    /// Appends a parsed piece: its papers as encoded (`None`: they were
    /// not, and nothing is stored), its skipped records (numbered in the
    /// file), for the last piece of a chunk the chunk's bytes and invalid
    /// UTF-8 sequences (0 for the others), and the bytes it was parsed
    /// from, counted and hashed, when they were ([`Meta::content`]).
    pub(in crate::loading) fn block(
        &mut self,
        papers: Option<&Encoder>,
        skipped: &[(usize, String)],
        invalid: usize,
        consumed: u64,
        bytes: Option<(u64, u64)>,
    ) {
        match (&mut self.content, bytes) {
            (Some(content), Some(b)) => content.push(b),
            _ => self.content = None,
        }
        let Some(w) = &mut self.writer else { return };
        let Some(enc) = papers else {
            self.writer = None;
            return;
        };
        let head = serial::encode(&Head {
            invalid,
            consumed,
            skipped: Cow::Borrowed(skipped),
            papers: enc.count,
        });
        let wrote = w
            .append(&head)
            .and_then(|()| w.append(&enc.bytes))
            .and_then(|()| w.end_section());
        if wrote.is_err() {
            self.writer = None;
        }
        self.blocks += 1;
        self.in_file |= enc.in_file;
        self.former |= enc.former;
    }

    /// Stores the entry, when the input loaded without an error and is
    /// still as it was when it was opened; `repaired`: the input's rows
    /// put back together; `distinct`: see [`Replay::distinct`].
    pub(in crate::loading) fn finish(
        self,
        line_oriented: bool,
        repaired: usize,
        failed: bool,
        distinct: bool,
    ) {
        let Some(mut w) = self.writer else { return };
        if failed
            || key::of(&self.file, &self.path, self.format, &self.list).ok()
                != Some(self.key.clone())
        {
            return;
        }
        let meta = Meta {
            line_oriented,
            repaired,
            blocks: self.blocks,
            in_file: self.in_file,
            lines: self.lines,
            distinct,
            former: self.former,
            content: self.content.filter(|_| line_oriented),
        };
        let to = self
            .cache
            .dir
            .join(format!("{}.{PAPERS_EXT}", self.key.name));
        if w.section(&meta.write()).is_ok() && w.finish(&to).is_ok() {
            evict(&self.cache.dir, self.cache.limit);
        }
    }
}

#[cfg(test)]
thread_local! {
    // Entries replayed on this thread, for tests to tell a warm load from
    // a cold one.
    pub(super) static REPLAYS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// An entry that matches its input.
pub(in crate::loading) struct Replay {
    entry: Entry,
    /// Every block verified (else each is as it is read).
    verified: bool,
    at: PathBuf,
    meta: Meta,
    file_text: Option<Arc<FileText>>,
    len: u64,
    list: Arc<str>,
}

/// A decoded block: its piece, the invalid UTF-8 and bytes of its chunk.
pub(super) type Block = (Piece, usize, u64);

impl Replay {
    /// True when the input was read a chunk at a time.
    pub(in crate::loading) fn line_oriented(&self) -> bool {
        self.meta.line_oriented
    }

    /// The input's rows put back together.
    pub(in crate::loading) fn repaired(&self) -> usize {
        self.meta.repaired
    }

    /// True when every paper's id was met once as the input loaded (no
    /// repeat, none renamed): loaded alone, its papers are all new, and
    /// need no dedup.
    pub(in crate::loading) fn distinct(&self) -> bool {
        self.meta.distinct
    }

    /// True when every block is as its checksum says: verified when
    /// looked up, else now. An entry that is not is removed.
    pub(in crate::loading) fn verified(&self) -> bool {
        if self.verified || self.entry.verify() {
            return true;
        }
        self.remove();
        false
    }

    /// True when the lookup left the entry to be read a block at a time
    /// ([`Replay::stored`]): not verified whole, its papers each new and
    /// none with a former id.
    pub(in crate::loading) fn by_block(&self) -> bool {
        !self.verified
    }

    /// True when block `b` is as its checksum says.
    pub(super) fn block_verified(&self, b: usize) -> bool {
        self.verified || self.entry.verified_section(b + 1)
    }

    /// True when a paper had a former id.
    pub(super) fn former(&self) -> bool {
        self.meta.former
    }

    /// How many blocks the entry has.
    pub(super) fn blocks(&self) -> usize {
        self.meta.blocks
    }

    /// Block `b`'s bytes.
    pub(super) fn block(&self, b: usize) -> &[u8] {
        self.entry.section(b + 1)
    }

    /// Lets go of block `b`'s pages (read again from the file if needed).
    pub(super) fn release_block(&self, b: usize) {
        self.entry.release(b + 1);
    }

    /// The list the papers are in.
    pub(super) fn list(&self) -> &Arc<str> {
        &self.list
    }

    /// Where abstracts left in the file are read from, and its size.
    pub(super) fn file(&self) -> Option<(&Arc<FileText>, u64)> {
        self.file_text.as_ref().map(|f| (f, self.len))
    }

    /// Removes the entry: it is rebuilt by the next load.
    pub(super) fn remove(&self) {
        let _ = std::fs::remove_file(&self.at);
    }

    /// Copies the entry's blocks, as they are, into the entry `to`
    /// records (the input having grown, the rest follows).
    pub(in crate::loading) fn copy_into(&self, to: &mut Recorder) {
        let Some(w) = &mut to.writer else { return };
        for i in 1..=self.meta.blocks {
            if w.append(self.entry.section(i))
                .and_then(|()| w.end_section())
                .is_err()
            {
                to.writer = None;
                return;
            }
        }
        to.blocks += self.meta.blocks;
        to.in_file |= self.meta.in_file;
        to.former |= self.meta.former;
        to.lines += self.meta.lines;
        to.content = self.meta.content.clone();
    }

    /// Decodes the blocks on every core and calls `each` with them in
    /// order (titles only, for line-oriented inputs, when `titles`). A
    /// block that does not decode (the checksums held: a bug) ends it with
    /// an error and removes the entry.
    pub(in crate::loading) fn run(
        &self,
        titles: bool,
        each: &mut dyn FnMut(Block),
    ) -> Result<(), String> {
        #[cfg(test)]
        REPLAYS.set(REPLAYS.get() + 1);
        let n = self.meta.blocks;
        let threads = crate::parallel::threads().clamp(1, 8).min(n.max(1));
        let file = self.file_text.as_ref().map(|f| (f, self.len));
        let decode = |i: usize| {
            let block = decode_block(self.entry.section(i + 1), &self.list, file, titles);
            self.entry.release(i + 1);
            block
        };
        let done = std::thread::scope(|s| {
            let mut rxs = Vec::with_capacity(threads);
            for w in 0..threads {
                let (tx, rx) = std::sync::mpsc::sync_channel::<Result<Block, Bad>>(1);
                rxs.push(rx);
                let decode = &decode;
                s.spawn(move || {
                    for i in (w..n).step_by(threads) {
                        if tx.send(decode(i)).is_err() {
                            return;
                        }
                    }
                });
            }
            for i in 0..n {
                match rxs[i % threads].recv() {
                    Ok(Ok(block)) => each(block),
                    _ => return Err(Bad),
                }
            }
            Ok(())
        });
        done.map_err(|Bad| {
            let _ = std::fs::remove_file(&self.at);
            "its cache entry could not be read (and was removed): open it again".to_string()
        })
    }
}

pub(super) fn decode_block(
    bytes: &[u8],
    list: &Arc<str>,
    file: Option<(&Arc<FileText>, u64)>,
    titles: bool,
) -> Result<Block, Bad> {
    let (head, mut d) = Head::read(bytes, list, file)?;
    let mut piece = Piece {
        skipped: head.skipped.into_owned(),
        ..Piece::default()
    };
    let n = head.papers;
    piece.keys.reserve(n);
    if !titles {
        piece.papers.reserve(n);
    }
    for _ in 0..n {
        piece.take(d.paper()?, titles);
    }
    if !d.done() {
        return Err(Bad);
    }
    Ok((piece, head.invalid, head.consumed))
}
