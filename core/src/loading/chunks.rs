//! Line-oriented inputs (JSON Lines, `lines`) read a chunk of whole lines
//! at a time, each chunk cut at line ends into pieces parsed in parallel;
//! large files are read by offset into buffers used again (never mapped:
//! see [`read_file`]). Memory stays bounded by a few chunks, whatever the
//! size of the file.

use std::borrow::Cow;
use std::sync::Arc;

use super::cache::Encoder;
use super::input::{Source, cut_short, too_big, utf8_lossy};
use super::{Format, Input, Options};
use crate::corpus::abstracts::{Abstract, FileText};
use crate::corpus::{Paper, Record, Variant, id_key, json, text};
use crate::search::{self, TitleList, WordIndex};
use crate::text::sanitize;

/// Bytes a line-oriented input is read in at a time (by default).
pub(super) const CHUNK: usize = 16 << 20;

/// The pieces a chunk of `len` bytes of line-oriented input is cut into,
/// each parsed on a thread of its own: four a core (at most 32), of half
/// a MiB or more (a chunk under a MiB is one piece). A chunk's pieces are
/// joined together, so while the last of them is parsed the cores wait
/// unless other work is there for them (the next chunk's pieces, in a
/// mapped file, or the threads handing papers on); with small pieces that
/// wait is short: with one piece a core, the cores sat idle waiting on
/// the slower piece (docs/PERFORMANCE.md, Load).
fn piece_count(len: usize) -> usize {
    if len < 2 * PIECE {
        return 1;
    }
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    (cores * 4).min(32).min(len / PIECE)
}

/// The smallest piece ([`piece_count`]); smaller in the unit tests, so
/// that small files take every path large ones do.
#[cfg(not(test))]
const PIECE: usize = 512 << 10;
#[cfg(test)]
const PIECE: usize = 16 << 10;

/// What a load hands on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Keep {
    /// Papers.
    Papers,
    /// Papers, made ready for the matcher.
    Prepared,
    /// Only titles and ids, where the format allows ([`Event::Titles`](super::Event::Titles)).
    Titles,
}

/// A parsed piece of input: papers (or only their titles), their dedup
/// keys, skipped records.
#[derive(Default)]
pub(super) struct Piece {
    pub(super) papers: Vec<Paper>,
    /// In place of `papers` when only titles are kept.
    pub(super) titles: TitleList,
    pub(super) keys: Vec<u128>,
    /// When only titles are kept: the papers that have a [`Variant`] (and
    /// a hash id), by index, with their content hash, for the dedup to
    /// tell them from papers with the same text.
    pub(super) varied: Vec<(usize, u64, Variant)>,
    pub(super) skipped: Vec<(usize, String)>,
    pub(super) without_abstract: usize,
    /// The papers encoded for the cache, when asked for.
    pub(super) encoded: Option<Encoder>,
    /// The papers' words, indexed as they were parsed, when asked for
    /// ([`How::words`]).
    pub(super) words: Option<WordIndex>,
    /// The bytes it was parsed from, when it is recorded for the cache:
    /// how many and their xxh3, which the cache checks before it replays
    /// a file that grew (see `cache::Content`).
    pub(super) bytes: Option<(u64, u64)>,
}

impl Piece {
    /// Takes a paper parsed (or read back from the cache): its key, and
    /// the paper or, when `titles_only`, its title.
    pub(super) fn take(&mut self, p: Paper, titles_only: bool) {
        self.keys.push(id_key(&p.id));
        self.without_abstract += usize::from(p.abstract_text.is_empty());
        if titles_only
            && !p.variant.is_empty()
            && let Ok(hash) = u64::from_str_radix(p.id.as_str(), 16)
        {
            self.varied.push((self.keys.len() - 1, hash, p.variant));
        }
        if titles_only {
            self.titles.push_paper(p);
        } else {
            self.papers.push(p);
        }
    }
}

/// How pieces are parsed: the list their papers are in, what is kept,
/// whether the papers are encoded for the cache, and where in the input
/// to start (a byte offset at a line start, and that line's number: past
/// the lines a cache entry had already, for a file that grew).
#[derive(Clone, Copy)]
pub(super) struct How<'a> {
    pub(super) list: &'a Arc<str>,
    pub(super) keep: Keep,
    pub(super) encode: bool,
    pub(super) from: u64,
    pub(super) first_line: usize,
    /// Where each piece's papers are indexed once parsed (with
    /// [`Keep::Papers`]; see [`Options::words`](super::Options::words)).
    pub(super) words: Option<&'a WordIndex>,
}

/// Why a record with neither is skipped.
const NONE: &str = "no title and no abstract";

/// What a piece's parsing gathers: the piece, its papers encoded for the
/// cache when asked for, and its skipped records.
struct Gather<'a> {
    piece: Piece,
    encoded: Option<Encoder>,
    skipped: Vec<(usize, String)>,
    list: &'a Arc<str>,
    titles_only: bool,
}

impl<'a> Gather<'a> {
    /// Room for `n` papers (`text` bytes of titles, when titles alone are
    /// kept).
    fn new(how: How<'a>, n: usize, text: usize) -> Self {
        let titles_only = how.keep == Keep::Titles;
        let mut piece = Piece::default();
        if titles_only {
            piece.titles.reserve(n, text);
        } else {
            piece.papers.reserve(n);
        }
        piece.keys.reserve(n);
        Gather {
            piece,
            encoded: how.encode.then(|| Encoder::with_room(how.list, n)),
            skipped: Vec::new(),
            list: how.list,
            titles_only,
        }
    }

    /// Takes a record (its abstract, when plain, left in the file).
    fn push(&mut self, record: Record, deferred: Option<(Abstract, &str)>) {
        let line = record.line;
        match record.into_paper_deferring(self.list, 0, deferred) {
            Some(p) => {
                if let Some(enc) = &mut self.encoded {
                    enc.paper(&p);
                }
                self.piece.take(p, self.titles_only);
            }
            None => self.skipped.push((line, NONE.to_string())),
        }
    }

    fn skip(&mut self, line: usize, why: &str) {
        self.skipped.push((line, sanitize::line(why)));
    }

    fn finish(mut self) -> Piece {
        self.piece.skipped = self.skipped;
        self.piece.encoded = self.encoded;
        self.piece
    }
}

/// Parses a piece of JSON Lines whose first line is line 1: the piece, its
/// line ends and the invalid UTF-8 sequences replaced. Each line is
/// checked as UTF-8, counted and parsed in turn, while it is in the
/// core's cache: three passes over the whole piece (counting, checking,
/// parsing) read it from memory three times, and counting alone was a
/// tenth of a cold search's samples at 2.7M.
///
/// `in_file`: the file and the offset `bytes` starts at, when `bytes` are
/// the file's. A line of valid UTF-8 leaves its plain abstract there (see
/// [`Abstract`]); a line with invalid sequences is read with them
/// replaced, its abstract kept in memory.
fn parse_json_lines(
    bytes: &[u8],
    how: How,
    in_file: Option<(&Arc<FileText>, u64)>,
) -> (Piece, usize, usize) {
    // Titles and ids alone are read where nothing else is kept: not
    // where the papers go to the cache.
    let titles_alone = how.keep == Keep::Titles && !how.encode;
    let mut gather = Gather::new(how, likely_lines(bytes), 0);
    let mut invalid = 0;
    let mut lines = 0;
    for (k, (at, raw)) in split_lines(bytes).enumerate() {
        let line_no = k + 1;
        lines = k;
        // Checked 32 or 64 bytes at a time where the processor can (a
        // line of the arXiv snapshot is 1-2 KB, nearly all ASCII): the
        // standard library's check was 3% of a cold load's time.
        let (line, in_file) = match simdutf8::basic::from_utf8(raw) {
            Ok(line) => (Cow::Borrowed(line), in_file),
            Err(_) => {
                let (line, n) = utf8_lossy(raw);
                invalid += n;
                (line, None)
            }
        };
        let parsed = if titles_alone {
            json::parse_line_titles(&line, line_no)
        } else {
            json::parse_line_deferring(&line, line_no)
        };
        match parsed {
            Ok(Some((mut r, plain))) => {
                let deferred = plain.and_then(|plain| {
                    let (file, offset) = in_file?;
                    let raw = plain.raw;
                    let within = at + (raw.as_ptr() as usize - line.as_ptr() as usize);
                    let abs = Abstract::Json {
                        file: file.clone(),
                        at: offset + within as u64,
                        len: u32::try_from(raw.len()).ok()?,
                        words: Some(plain.written),
                    };
                    Some((abs, raw))
                });
                if deferred.is_none()
                    && let Some(plain) = plain
                {
                    r.abstract_text = json::string_paragraphs(plain.raw);
                }
                gather.push(r, deferred)
            }
            Ok(None) => {}
            Err(why) => gather.skip(line_no, &why),
        }
    }
    // The line ends: one fewer than the lines they split.
    (gather.finish(), lines, invalid)
}

/// The lines `bytes` likely holds, told by its first 64 KiB (which are
/// read next anyway): room taken for them once, a twentieth over, rather
/// than grown by doubling. A list made of such pieces keeps their room.
fn likely_lines(bytes: &[u8]) -> usize {
    let head = &bytes[..bytes.len().min(64 << 10)];
    let ends = memchr_count(head).max(1);
    let per_line = head.len() / ends;
    (bytes.len() / per_line.max(1)) * 21 / 20 + 1
}

/// Parses a piece of a line-oriented input other than JSON Lines whose
/// first line is `first_line` and which holds `lines` line ends.
fn parse_piece(text: &str, first_line: usize, lines: usize, how: How) -> Piece {
    let n = lines + 1;
    let titles_only = how.keep == Keep::Titles;
    // A `lines` piece is nearly all titles.
    let mut gather = Gather::new(how, n, text.len());
    if titles_only && !how.encode {
        // Title lines need no record and no paper.
        for (line, l, short) in text::lines_of(text) {
            let line = line + first_line - 1;
            match gather.piece.titles.push_line(l, short, line) {
                Some((key, has_abstract)) => {
                    gather.piece.keys.push(key);
                    gather.piece.without_abstract += usize::from(!has_abstract);
                }
                None => gather.skip(line, NONE),
            }
        }
    } else {
        for mut r in text::lines_records(text) {
            r.line += first_line - 1;
            gather.push(r, None);
        }
    }
    gather.finish()
}

/// Parses a chunk of whole lines on every core: its pieces in order (not
/// joined, which would copy every paper once more), the number of line
/// ends in it and of invalid UTF-8 sequences replaced. Each thread checks,
/// counts and parses its own piece: the thread that reads the input only
/// cuts it.
///
/// `in_file`: the file and the offset the chunk starts at, when the chunk
/// is the file's bytes (see [`parse_piece`]).
fn parse_chunk(
    text: &[u8],
    format: Format,
    first_line: usize,
    how: How,
    in_file: Option<(&Arc<FileText>, u64)>,
) -> (Vec<Piece>, usize, usize) {
    std::thread::scope(|s| {
        start_chunk(s, text, format, how, in_file)
            .finish(first_line)
            .0
    })
}

/// A piece parsed: the piece, its line ends, its invalid UTF-8 sequences.
type Parsed = (Piece, usize, usize);

/// A chunk being parsed ([`start_chunk`]), whose bytes `T` holds.
enum Started<'scope, T> {
    /// Small enough to have been parsed on the calling thread.
    Parsed(Box<Parsed>, T),
    /// Its pieces, each being parsed on a thread of its own (with the
    /// bytes it covers, for a piece whose thread fails).
    Running(
        Vec<(
            std::thread::ScopedJoinHandle<'scope, Parsed>,
            std::ops::Range<usize>,
        )>,
        T,
    ),
}

/// Starts parsing a chunk ([`parse_chunk`]) on threads of `scope`: cut
/// at line ends into pieces ([`piece_count`]), a thread each. `text` is
/// the chunk: borrowed, or a buffer shared with the threads ([`Shared`],
/// handed back once they are done: see [`read_file`]).
fn start_chunk<'scope, 'a: 'scope, T>(
    scope: &'scope std::thread::Scope<'scope, '_>,
    text: T,
    format: Format,
    how: How<'a>,
    in_file: Option<(&'a Arc<FileText>, u64)>,
) -> Started<'scope, T>
where
    T: AsRef<[u8]> + Clone + Send + 'scope,
{
    let bytes = text.as_ref();
    let pieces = piece_count(bytes.len());
    if pieces == 1 {
        let one = parse_one(bytes, bytes, false, format, how, in_file);
        return Started::Parsed(Box::new(one), text);
    }
    let mut cuts: Vec<std::ops::Range<usize>> = Vec::new();
    let mut start = 0;
    for k in 0..pieces {
        if start == bytes.len() {
            break;
        }
        let rest = &bytes[start..];
        let want = if k + 1 == pieces {
            rest.len()
        } else {
            bytes.len() / pieces
        };
        let cut = if want >= rest.len() {
            rest.len()
        } else {
            memchr::memchr(b'\n', &rest[want..]).map_or(rest.len(), |i| want + i + 1)
        };
        cuts.push(start..start + cut);
        start += cut;
    }
    let running = cuts
        .into_iter()
        .map(|piece| {
            let text = text.clone();
            let range = piece.clone();
            let run = move || {
                let all = text.as_ref();
                parse_one(all, &all[range], true, format, how, in_file)
            };
            (scope.spawn(run), piece)
        })
        .collect();
    Started::Running(running, text)
}

impl<T: AsRef<[u8]>> Started<'_, T> {
    /// The chunk's pieces once all are parsed, its skipped records
    /// numbered from `first_line`, as [`parse_chunk`] gives them; and its
    /// bytes, no thread holding them any more.
    fn finish(self, first_line: usize) -> ((Vec<Piece>, usize, usize), T) {
        let (parsed, text) = match self {
            Started::Parsed(one, text) => (vec![*one], text),
            Started::Running(running, text) => (
                running
                    .into_iter()
                    .map(|(h, piece)| {
                        h.join()
                            .unwrap_or_else(|_| failed_piece(&text.as_ref()[piece]))
                    })
                    .collect(),
                text,
            ),
        };
        let (mut line, mut invalid) = (first_line, 0);
        let mut pieces = Vec::with_capacity(parsed.len());
        for (mut piece, lines, replaced) in parsed {
            for (at, _) in &mut piece.skipped {
                *at += line - 1;
            }
            line += lines;
            invalid += replaced;
            pieces.push(piece);
        }
        ((pieces, line - first_line, invalid), text)
    }
}

/// Parses `bytes`, a piece of the chunk `text` (without its last line
/// end, when `strip`), as if it started on line 1: its skipped records
/// are renumbered once the lines before it are counted.
fn parse_one(
    text: &[u8],
    bytes: &[u8],
    strip: bool,
    format: Format,
    how: How,
    in_file: Option<(&Arc<FileText>, u64)>,
) -> Parsed {
    let at = (bytes.as_ptr() as usize - text.as_ptr() as usize) as u64;
    let in_file = in_file.map(|(file, start)| (file, start + at));
    let whole = bytes;
    // Hashed here, where the bytes are in this core's cache, when the
    // piece goes to the cache.
    let hashed = how
        .encode
        .then(|| (whole.len() as u64, xxhash_rust::xxh3::xxh3_64(whole)));
    let bytes = match bytes.strip_suffix(b"\n") {
        Some(b) if strip => b,
        _ => bytes,
    };
    // Each piece's words are indexed where it was parsed, while its lines
    // are in this core's cache.
    let index = |piece: &mut Piece, view| {
        if let (Keep::Papers, Some(blank)) = (how.keep, how.words) {
            piece.words = Some(search::index_parsed(&piece.papers, blank, view));
        }
    };
    if format.defers_abstracts() {
        let (mut piece, lines, invalid) = parse_json_lines(bytes, how, in_file);
        index(&mut piece, in_file.map(|(file, at)| (&**file, at, bytes)));
        piece.bytes = hashed;
        return (piece, lines + whole.len() - bytes.len(), invalid);
    }
    let lines = memchr_count(whole);
    let (text, invalid) = utf8_lossy(bytes);
    let mut piece = parse_piece(&text, 1, lines, how);
    index(&mut piece, None);
    piece.bytes = hashed;
    (piece, lines, invalid)
}

/// What stands for a piece whose parsing thread failed (a bug, never
/// input: every reader returns errors, and the fuzz tests hold them to
/// it): its lines counted, and one skipped record saying that they are
/// missing, so that the report tells of it rather than papers going
/// missing unsaid.
fn failed_piece(bytes: &[u8]) -> (Piece, usize, usize) {
    let lines = memchr_count(bytes);
    let piece = Piece {
        skipped: vec![(
            1,
            format!(
                "this line and the {} after it were not read: the reader failed on them (a bug; please report it)",
                lines.saturating_sub(1)
            ),
        )],
        ..Piece::default()
    };
    (piece, lines, 0)
}

/// `bytes.split(|&b| b == b'\n')`, each line with the offset it starts
/// at, the line ends found by the memchr crate (a profile of the 1M JSONL
/// load had the standard library's search at 4% of the samples).
fn split_lines(bytes: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    let mut start = 0;
    memchr::memchr_iter(b'\n', bytes)
        .map(Some)
        .chain([None])
        .map(move |end| {
            let at = start;
            let end = end.unwrap_or(bytes.len());
            start = end + 1;
            (at, &bytes[at..end])
        })
}

/// Line ends in `bytes`.
fn memchr_count(bytes: &[u8]) -> usize {
    memchr::memchr_iter(b'\n', bytes).count()
}

/// A parsed chunk of a line-oriented input.
pub(super) struct Chunk {
    pub(super) pieces: Vec<Piece>,
    /// Line ends in it.
    pub(super) lines: usize,
    pub(super) invalid: usize,
    pub(super) consumed: u64,
}

/// A chunk of a line-oriented input as read.
struct Raw {
    bytes: Vec<u8>,
    consumed: u64,
}

/// Reads a line-oriented input a chunk of whole lines at a time, sending
/// each on (checked as UTF-8 where it is parsed); an error ends it.
fn read_texts(
    mut source: Source,
    mut buf: Vec<u8>,
    mut more: bool,
    known: Option<u64>,
    opts: &Options,
    tx: std::sync::mpsc::SyncSender<Result<Raw, String>>,
) {
    let mut first = true;
    let mut read = buf.len() as u64;
    loop {
        if more && buf.len() < opts.chunk {
            let before = buf.len();
            match source.fill(&mut buf, opts.chunk - before) {
                Ok(m) => more = m,
                Err(e) => {
                    let _ = tx.send(Err(e.to_string()));
                    return;
                }
            }
            read += (buf.len() - before) as u64;
        }
        if let Some(max) = opts.max_size.filter(|&m| known.is_none() && read > m) {
            let _ = tx.send(Err(too_big(max)));
            return;
        }
        let cut = if more {
            match memchr::memrchr(b'\n', &buf) {
                Some(i) => i + 1,
                // No line end yet: read on (a line longer than four chunks
                // is taken as it is).
                None if buf.len() < 4 * opts.chunk => {
                    let before = buf.len();
                    match source.fill(&mut buf, opts.chunk) {
                        Ok(m) => more = m,
                        Err(e) => {
                            let _ = tx.send(Err(e.to_string()));
                            return;
                        }
                    }
                    read += (buf.len() - before) as u64;
                    continue;
                }
                None => buf.len(),
            }
        } else {
            buf.len()
        };
        let rest = buf.split_off(cut);
        let mut bytes = std::mem::replace(&mut buf, rest);
        let consumed = bytes.len() as u64;
        // A byte-order mark is no part of the first line.
        if first && bytes.starts_with(b"\xEF\xBB\xBF") {
            bytes.drain(..3);
        }
        first = false;
        let done = !more && buf.is_empty();
        if tx.send(Ok(Raw { bytes, consumed })).is_err() {
            return;
        }
        if done {
            // Shorter than it was when opened: cut short while it was read.
            if let Some(len) = known.filter(|&k| read < k) {
                let _ = tx.send(Err(cut_short(read, None, len)));
            }
            return;
        }
    }
}

/// Reads a line-oriented input a chunk at a time, parses each on every
/// core and sends it on, in order; an error ends it. Reading the next
/// chunk overlaps parsing this one.
#[allow(clippy::too_many_arguments)]
pub(super) fn read_chunks(
    input: &Input,
    source: Source,
    buf: Vec<u8>,
    more: bool,
    known: Option<u64>,
    opts: &Options,
    format: Format,
    how: How,
    tx: std::sync::mpsc::SyncSender<Result<Chunk, String>>,
) {
    if let Source::File(f) = &source
        && let Some(len) = known.filter(|&k| k >= FILE_FROM || how.from > 0)
    {
        // Plain JSON abstracts are left in the file, read back through a
        // handle of their own (see `Abstract`).
        let in_file = match input {
            Input::Path(path) if format.defers_abstracts() => FileText::open(f, path),
            _ => None,
        };
        return read_file(f, len, opts, format, how, in_file.as_ref(), tx);
    }
    if how.from > 0 {
        // Only a file is read from the middle.
        let _ = tx.send(Err("could not read what was added to the file".into()));
        return;
    }
    let (text_tx, text_rx) = std::sync::mpsc::sync_channel(1);
    std::thread::scope(|s| {
        s.spawn(move || read_texts(source, buf, more, known, opts, text_tx));
        let mut line = 1;
        for decoded in text_rx {
            let sent = match decoded {
                Ok(Raw { bytes, consumed }) => {
                    let (pieces, lines_here, invalid) =
                        parse_chunk(&bytes, format, line, how, None);
                    drop(bytes);
                    line += lines_here;
                    tx.send(Ok(Chunk {
                        pieces,
                        lines: lines_here,
                        invalid,
                        consumed,
                    }))
                }
                Err(e) => tx.send(Err(e)),
            };
            if sent.is_err() {
                // The receiver is gone: stop reading (dropping the channel
                // ends the reader at its next send).
                break;
            }
        }
    });
}

/// Files this large are read by offset ([`read_file`]), their plain JSON
/// abstracts left in the file; smaller in the unit tests, as [`PIECE`].
#[cfg(not(test))]
pub(super) const FILE_FROM: u64 = 4 << 20;
#[cfg(test)]
pub(super) const FILE_FROM: u64 = 256 << 10;

/// [`read_chunks`] for a file of `len` bytes (its length when it was
/// opened): each chunk of whole lines read at its offset into one of a
/// few buffers used again and again, parsed on every core; the next
/// chunk is read and started while the last of this one's pieces is
/// parsed. A buffer made anew each chunk had its pages cleared by the
/// system as it was filled, a third of loading a 1.5 GB JSONL file; one
/// used again has them.
///
/// The file is not mapped: a map of a file another program cuts short
/// faults the process (SIGBUS) when the lost pages are read, and kills
/// it, leaving the terminal as the reader had it. Read so, a file cut
/// short while it is read ends its load with an error that says so, the
/// papers of the chunks read before kept: they are what the file held
/// (a line cut in two is never parsed). What was added after it was
/// opened is not read.
#[allow(clippy::too_many_arguments)]
fn read_file(
    file: &std::fs::File,
    len: u64,
    opts: &Options,
    format: Format,
    how: How,
    in_file: Option<&Arc<FileText>>,
    tx: std::sync::mpsc::SyncSender<Result<Chunk, String>>,
) {
    let chunk = opts.chunk.max(1);
    let mut at = how.from.min(len);
    let mut line = how.first_line;
    let mut spare: Vec<Vec<u8>> = Vec::new();
    std::thread::scope(|s| {
        // The chunk being parsed, and where it lies.
        let mut running: Option<(Started<Shared>, u64, u64)> = None;
        loop {
            let next = if at < len {
                let mut buf = spare.pop().unwrap_or_default();
                match read_lines_at(file, at, len, chunk, &mut buf) {
                    Ok(()) => {
                        let from = at;
                        at += buf.len() as u64;
                        // A byte-order mark is no part of the first line.
                        let skip = if from == 0 && buf.starts_with(b"\xEF\xBB\xBF") {
                            3
                        } else {
                            0
                        };
                        if skip > 0 {
                            buf.drain(..skip);
                        }
                        let text = Shared(Arc::new(buf));
                        let in_file = in_file.map(|f| (f, from + skip as u64));
                        Some(Ok((start_chunk(s, text, format, how, in_file), from, at)))
                    }
                    Err(e) => Some(Err(e)),
                }
            } else {
                None
            };
            if let Some((started, from, to)) = running.take() {
                let ((pieces, lines_here, invalid), text) = started.finish(line);
                line += lines_here;
                // The buffer is the reader's again once its threads are done.
                if let Ok(buf) = Arc::try_unwrap(text.0) {
                    spare.push(buf);
                }
                let chunk = Chunk {
                    pieces,
                    lines: lines_here,
                    invalid,
                    consumed: to - from,
                };
                if tx.send(Ok(chunk)).is_err() {
                    return;
                }
            }
            match next {
                Some(Ok(started)) => running = Some(started),
                Some(Err(e)) => {
                    let _ = tx.send(Err(e));
                    return;
                }
                None => return,
            }
        }
    });
}

/// A chunk's buffer, shared with the threads parsing its pieces and the
/// reader's again once they are done.
#[derive(Clone)]
struct Shared(Arc<Vec<u8>>);

impl AsRef<[u8]> for Shared {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

/// Reads into `buf` (emptied first) the whole lines of `file` from byte
/// `at`: about `chunk` bytes, to the last line end (a line longer than a
/// chunk is taken whole), or to `len`, the length the file had when it was
/// opened. An error when it cannot be read, or when it ends before `len`
/// (it was cut short while it was read) with no whole line left to give.
fn read_lines_at(
    file: &std::fs::File,
    at: u64,
    len: u64,
    chunk: usize,
    buf: &mut Vec<u8>,
) -> Result<(), String> {
    buf.clear();
    loop {
        let from = at + buf.len() as u64;
        let want = usize::try_from(len - from).map_or(chunk, |left| left.min(chunk));
        let start = buf.len();
        buf.resize(start + want, 0);
        let got = read_at(file, &mut buf[start..], from)
            .map_err(|e| format!("could not be read at byte {from}: {e}"))?;
        buf.truncate(start + got);
        let cut = got < want;
        if !cut && at + buf.len() as u64 == len {
            return Ok(());
        }
        match memchr::memrchr(b'\n', &buf[start..]) {
            Some(end) => {
                buf.truncate(start + end + 1);
                return Ok(());
            }
            None if cut => {
                let now = file.metadata().ok().map(|m| m.len());
                return Err(cut_short(at + buf.len() as u64, now, len));
            }
            // No line end yet: read on.
            None => {}
        }
    }
}

/// Reads into `buf` from byte `at` of `file` until it is full or the file
/// ends; the bytes read.
fn read_at(file: &std::fs::File, buf: &mut [u8], at: u64) -> std::io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        #[cfg(unix)]
        let n = std::os::unix::fs::FileExt::read_at(file, &mut buf[got..], at + got as u64);
        #[cfg(windows)]
        let n = std::os::windows::fs::FileExt::seek_read(file, &mut buf[got..], at + got as u64);
        match n {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loading::tests::load_in_chunks;
    use crate::loading::{decode, load, load_titles, parse};

    fn jsonl() -> Format {
        Format::named("jsonl").unwrap()
    }

    #[test]
    fn line_oriented_input_streams_in_chunks_with_the_same_result() {
        let mut jsonl = String::new();
        let mut lines = String::new();
        for i in 0..3000 {
            jsonl.push_str(&format!(
                "{{\"id\": \"2401.{i:05}\", \"title\": \"Paper {i}\", \"abstract\": \"About {i}.\"}}\n"
            ));
            if i == 1234 {
                jsonl.push_str("{broken\n");
            }
            if i == 2000 {
                // A repeat of an earlier paper, in a later chunk.
                jsonl.push_str("{\"id\": \"2401.00007\", \"title\": \"Paper 7 again\"}\n");
            }
            lines.push_str(&format!("Title number {i} of a list\n"));
        }
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in [("a.jsonl", &jsonl), ("b.txt", &lines)] {
            let p = dir.path().join(name);
            std::fs::write(&p, text).unwrap();
            let whole = load(&[Input::Path(p.clone())], &Options::default()).unwrap();
            let small = Options {
                chunk: 1000,
                ..Options::default()
            };
            let chunked = load(&[Input::Path(p)], &small).unwrap();
            assert_eq!(whole.corpus.len(), chunked.corpus.len(), "{name}");
            assert_eq!(whole.reports, chunked.reports, "{name}");
            for (a, b) in whole.corpus.papers.iter().zip(&chunked.corpus.papers) {
                assert_eq!(
                    (&a.id, &a.title, a.position),
                    (&b.id, &b.title, b.position),
                    "{name}"
                );
            }
        }
        let small = Options {
            chunk: 700,
            ..Options::default()
        };
        let chunked = load(&[Input::Path(dir.path().join("a.jsonl"))], &small).unwrap();
        assert_eq!(chunked.corpus.len(), 3000, "the repeat is folded in");
        assert_eq!(chunked.reports[0].papers, 3001);
        assert_eq!(chunked.reports[0].repeated, 1, "and counted");
        assert_eq!(chunked.reports[0].skipped.len(), 1);
        assert_eq!(
            chunked.reports[0].skipped[0].0, 1236,
            "the broken line's number"
        );
        // Positions count the records of the list, the repeat included.
        assert_eq!(chunked.corpus.papers[2999].position, 3000);
    }

    #[test]
    fn a_large_file_loads_as_its_text_parses() {
        // Over FILE_FROM: read by offset, cut into small chunks; a byte-order mark,
        // a broken line and invalid UTF-8 on the way.
        let mut bytes = b"\xEF\xBB\xBF".to_vec();
        let mut n = 0;
        while bytes.len() < FILE_FROM as usize + 100_000 {
            n += 1;
            match n {
                300 => bytes.extend_from_slice(b"{\"title\": broken\n"),
                400 => bytes.extend_from_slice(b"{\"title\": \"Bad \xFF byte\"}\n"),
                _ => bytes.extend_from_slice(
                    format!("{{\"id\": \"2401.{n:05}\", \"title\": \"Paper {n} on sparse attention for long contexts\", \"abstract\": \"We study it.\"}}\n").as_bytes(),
                ),
            }
        }
        // Chunks of one piece, and chunks cut into a piece a thread (the
        // broken line in the second piece of the first chunk).
        for chunk in [24 << 10, 200 << 10] {
            let (loaded, _dir) = load_in_chunks("big.jsonl", &bytes, chunk);
            let report = &loaded.reports[0];
            assert_eq!(report.papers, n - 1);
            assert_eq!(report.invalid_utf8, 1);
            assert_eq!(report.skipped.len(), 1);
            assert_eq!(
                report.skipped[0].0, 300,
                "{chunk}: the broken line's number"
            );
        }
        let (loaded, _dir) = load_in_chunks("big.jsonl", &bytes, 24 << 10);
        let (text, _) = decode(bytes);
        let want: Vec<String> = parse(text.trim_start_matches('\u{feff}'), jsonl())
            .records
            .into_iter()
            .filter_map(|r| r.title)
            .collect();
        let got: Vec<&str> = loaded
            .corpus
            .papers
            .iter()
            .map(|p| p.title.as_str())
            .collect();
        assert_eq!(got, want);
        assert_eq!(got[0], "Paper 1 on sparse attention for long contexts");
    }

    #[test]
    fn a_file_cut_short_while_it_is_read_is_an_error_and_its_whole_lines_stay() {
        // The length the file had when it was opened is past its end now.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cut.jsonl");
        let line = |n: usize| format!("{{\"id\": \"2401.{n:05}\", \"title\": \"Paper {n}\"}}\n");
        let text: String = (0..1000).map(line).collect();
        std::fs::write(&path, &text).unwrap();
        let file = std::fs::File::open(&path).unwrap();
        let mut buf = Vec::new();
        let whole = text.len() as u64;
        assert!(read_lines_at(&file, 0, whole, 1000, &mut buf).is_ok());
        assert!(buf.ends_with(b"\n") && buf.len() <= 1000 + line(0).len());
        // Cut short: the whole lines there are given, then an error.
        assert!(read_lines_at(&file, 0, whole + 10, 1 << 20, &mut buf).is_ok());
        assert_eq!(buf, text.as_bytes());
        let why = read_lines_at(&file, whole, whole + 10, 1 << 20, &mut buf).unwrap_err();
        assert!(
            why.contains("cut short") && why.contains(&whole.to_string()),
            "{why}"
        );
        // Loaded: the chunks read before the cut are kept, and the
        // report says the file was cut short.
        let list: Arc<str> = "cut".into();
        let how = How {
            list: &list,
            keep: Keep::Papers,
            encode: false,
            from: 0,
            first_line: 1,
            words: None,
        };
        let opts = Options {
            chunk: 4096,
            ..Options::default()
        };
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        std::thread::scope(|s| {
            s.spawn(|| read_file(&file, whole + 5000, &opts, jsonl(), how, None, tx));
            let mut papers = 0;
            let mut errors = Vec::new();
            for chunk in rx {
                match chunk {
                    Ok(c) => papers += c.pieces.iter().map(|p| p.papers.len()).sum::<usize>(),
                    Err(e) => errors.push(e),
                }
            }
            assert_eq!(papers, 1000, "every whole line read before the end");
            assert_eq!(errors.len(), 1);
            assert!(errors[0].contains("cut short"), "{errors:?}");
        });
    }

    #[test]
    fn a_file_cut_short_as_it_loads_never_faults_the_process() {
        // A file over FILE_FROM, cut to a fraction of itself at moments
        // spread over its load: each load ends (a map of the file would
        // fault on the lost pages and kill the test process), with every
        // paper or with the papers before the cut and an error naming
        // what happened.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("shrinking.jsonl");
        let text: String = (0..120_000)
            .map(|n| format!("{{\"id\": \"2401.{n:05}\", \"title\": \"Paper {n} on attention\", \"abstract\": \"We study it {n}.\"}}\n"))
            .collect();
        let small = Options {
            chunk: 64 << 10,
            ..Options::default()
        };
        for k in 0..8u64 {
            std::fs::write(&path, &text).unwrap();
            let cutter = {
                let path = path.clone();
                std::thread::spawn(move || {
                    std::thread::sleep(std::time::Duration::from_millis(5 + k * 15));
                    let f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
                    f.set_len(text_len_cut(k)).unwrap();
                })
            };
            let loaded = load(&[Input::Path(path.clone())], &small);
            cutter.join().unwrap();
            if let Ok(loaded) = loaded {
                let r = &loaded.reports[0];
                assert!(
                    r.error.is_none()
                        || r.error.as_deref().is_some_and(|e| e.contains("cut short")),
                    "{r}"
                );
            }
        }
    }

    /// Where the `k`th try cuts the file.
    fn text_len_cut(k: u64) -> u64 {
        [0, 100, 5 << 20, 1 << 20, 3 << 20, 64 << 10, 7, 2 << 20][k as usize % 8]
    }

    proptest::proptest! {
        #[test]
        fn split_lines_is_split_on_line_ends(s in "[a\n\u{e9}\r]{0,20}") {
            let lines: Vec<(usize, &[u8])> = split_lines(s.as_bytes()).collect();
            proptest::prop_assert_eq!(
                lines.iter().map(|l| l.1).collect::<Vec<_>>(),
                s.as_bytes().split(|&b| b == b'\n').collect::<Vec<_>>()
            );
            for (at, line) in lines {
                proptest::prop_assert_eq!(&s.as_bytes()[at..at + line.len()], line);
            }
        }
    }

    #[test]
    fn the_lines_likely_are_those_of_lines_like_the_first() {
        let lines = |n: usize, len: usize| format!("{}\n", "x".repeat(len - 1)).repeat(n);
        for (n, len) in [(1, 10), (1000, 100), (5000, 1500), (40, 64 << 10)] {
            let likely = likely_lines(lines(n, len).as_bytes());
            assert!(
                likely >= n && likely <= n * 21 / 20 + 2,
                "{n} of {len}: {likely}"
            );
        }
        assert_eq!(likely_lines(b""), 1);
        // No line end in the first 64 KiB: lines at least that long.
        assert!(likely_lines(&[b'{'; 1 << 20]) <= (1 << 20) / (64 << 10) + 1);
    }

    #[test]
    fn a_piece_whose_thread_failed_is_reported_with_its_lines() {
        let (piece, lines, invalid) = failed_piece(b"{}\n{}\n{}\n");
        assert_eq!((lines, invalid), (3, 0));
        assert!(piece.keys.is_empty() && piece.papers.is_empty());
        assert_eq!(piece.skipped.len(), 1);
        let (line, why) = &piece.skipped[0];
        assert_eq!(*line, 1);
        assert!(why.contains("the 2 after it were not read"), "{why}");
    }

    #[test]
    fn plain_abstracts_stay_in_a_mapped_file_and_read_back_as_decoded() {
        // Abstracts of every kind, in a mapped file cut into chunks and
        // pieces: what is left in the file reads back as what decoding it
        // when loaded made, and the rest is decoded as before.
        let kinds = [
            r#""id": "2401.{n:05}", "title": "Paper {n}", "abstract": "  Plain text\n  over lines, \"quoted\", a \\alpha and a/b. ""#,
            r#""id": "2401.{n:05}", "title": "Paper {n}", "abstract": "Caf\u00e9 {n} with an escape""#,
            r#""id": "2401.{n:05}", "title": "Paper {n}", "abstract": "Café {n} in UTF-8""#,
            r#""id": "2401.{n:05}", "title": "Paper {n}", "abstract": " \n\t ""#,
            r#""id": "2401.{n:05}", "title": "Paper {n}", "abstract": "\u001b[31m""#,
            r#""id": "2401.{n:05}", "title": "Paper {n}", "abstract": ["List {n}", "form"]"#,
            r#""id": "2401.{n:05}", "title": "Paper {n}", "abstract": "", "summary": "Summary {n}""#,
            r#""title": "Untitled id {n}", "abstract": "Hashed from this text {n}.""#,
            r#""id": "2401.{n:05}", "abstract": "No title: derived from this {n}. More.""#,
            r#""id": "2401.{n:05}", "title": "\u001b[2J", "abstract": "Title cleaned away {n}.""#,
            r#""doi": "10.1/{n}", "title": "Paper {n}", "abstract": "Plain with a DOI {n}""#,
        ];
        // A byte-order mark shifts every offset by three; some lines end
        // in CRLF.
        let mut bytes = b"\xEF\xBB\xBF".to_vec();
        let mut n = 0;
        while bytes.len() < FILE_FROM as usize + 30_000 {
            n += 1;
            let line = if n == 1_003 {
                // Invalid UTF-8: this line is decoded, not left in place.
                format!("{{\"id\": \"2401.{n:05}\", \"title\": \"Bad \u{FFFD}\", \"abstract\": \"Plain {n}\"}}\n").replace('\u{FFFD}', "\u{1}")
            } else {
                let end = if n % 7 == 0 { "\r\n" } else { "\n" };
                format!(
                    "{{{}}}{end}",
                    kinds[n % kinds.len()]
                        .replace("{n:05}", &format!("{n:05}"))
                        .replace("{n}", &n.to_string())
                )
            };
            bytes.extend_from_slice(line.as_bytes());
        }
        let bad = bytes.iter().position(|&b| b == 1).unwrap();
        bytes[bad] = 0xFF;
        let (loaded, _dir) = load_in_chunks("big.jsonl", &bytes, 96 << 10);
        let report = &loaded.reports[0];
        assert_eq!(report.invalid_utf8, 1);

        let (text, _) = decode(bytes);
        let list: Arc<str> = "big.jsonl".into();
        let want: Vec<Paper> = parse(text.trim_start_matches('\u{feff}'), jsonl())
            .records
            .into_iter()
            .filter_map(|r| r.into_paper(&list, 0))
            .collect();
        let key = |p: &Paper| {
            (
                p.id.clone(),
                p.title.clone(),
                p.title_derived,
                p.abstract_text.read().unwrap().into_owned(),
                p.authors.clone(),
                p.links(),
            )
        };
        let got = &loaded.corpus.papers;
        assert_eq!(got.len(), want.len());
        for (g, w) in got.iter().zip(&want) {
            assert_eq!(key(g), key(w));
        }
        assert_eq!(
            report.without_abstract,
            want.iter().filter(|p| p.abstract_text.is_empty()).count()
        );
        // What was left in the file: only plain abstracts, most of them.
        let in_file: Vec<&Paper> = got
            .iter()
            .filter(|p| matches!(p.abstract_text, Abstract::Json { .. }))
            .collect();
        let plain = want
            .iter()
            .filter(|p| {
                let t = p.abstract_text.read().unwrap();
                t.starts_with("Plain") && !p.id.is_hash()
            })
            .count();
        assert!(in_file.iter().all(|p| !p.title_derived && !p.id.is_hash()));
        // All but the line with invalid UTF-8, which was decoded.
        assert_eq!(in_file.len(), plain - 1);
        let at = |n: usize| {
            let id = format!("arxiv:2401.{n:05}");
            got.iter().find(|p| p.id.as_str() == id).unwrap()
        };
        assert!(matches!(at(11).abstract_text, Abstract::Json { .. }));
        // Each told when loaded whether its words can be read as written,
        // as they would be told when read.
        let mut both = 0;
        for p in &in_file {
            let Abstract::Json {
                file,
                at,
                len,
                words,
            } = &p.abstract_text
            else {
                unreachable!("kept above");
            };
            let untold = Abstract::Json {
                file: file.clone(),
                at: *at,
                len: *len,
                words: None,
            };
            let mut told = None;
            crate::corpus::abstracts::for_each_read(&[untold], |_, read| {
                told = Some(matches!(read, crate::corpus::abstracts::Read::Written(_)));
                true
            });
            assert_eq!(*words, told, "{}", p.id.as_str());
            both |= 1 << u8::from(told == Some(true));
        }
        assert_eq!(both, 3, "some read as written, some not");
        // Its neighbours, in the same piece, are left in the file.
        assert!(matches!(at(1_003).abstract_text, Abstract::Text(_)));
        for n in [1_001, 1_012] {
            assert!(matches!(at(n).abstract_text, Abstract::Json { .. }), "{n}");
        }
    }

    #[test]
    fn words_indexed_as_parsed_rank_as_words_gathered() {
        // A mapped file in chunks of several pieces: abstracts left in it
        // (with escapes), decoded ones, hashed ids (which the dedup may
        // rename) and repeats (which it drops), so that some pieces are
        // indexed as parsed and others gathered.
        let kinds = [
            r#""id": "2401.{n}", "title": "Sparse paper {n}", "abstract": "Plain {n} sparse\n over lines, attention""#,
            r#""id": "2401.{n}", "title": "Paper {n}", "abstract": "Caf\u00e9 {n} attends sparsely""#,
            r#""id": "2401.{n}", "title": "Paper {n}", "abstract": "Atténtion {n} in UTF-8 is sparse""#,
            r#""title": "Untitled sparse {n}", "abstract": "Hashed from this text {n}, attention""#,
            r#""id": "2401.7", "title": "A repeat {n}", "abstract": "Again {n}, sparse""#,
        ];
        let mut bytes = Vec::new();
        let mut n = 0;
        while bytes.len() < FILE_FROM as usize + 40_000 {
            n += 1;
            // Repeats and hashed ids only in the first part of the file.
            let kind = if n < 300 { n % 5 } else { n % 3 };
            let line = kinds[kind].replace("{n}", &n.to_string());
            bytes.extend_from_slice(format!("{{{line}}}\n").as_bytes());
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("words.jsonl");
        std::fs::write(&path, &bytes).unwrap();
        let query = "sparse att";
        let ranked = |as_parsed: bool| {
            let mut index = search::QueryIndex::new(&search::Query::parse(query));
            let opts = Options {
                chunk: 64 << 10,
                words: as_parsed.then(|| super::super::IndexAsParsed(index.blank())),
                ..Options::default()
            };
            let (mut batches, mut given) = (0, 0);
            let titles = super::super::load_titles_deferring(
                &[Input::Path(path.clone())],
                &opts,
                Some(&mut |papers, likely, words| {
                    batches += 1;
                    given += usize::from(words.is_some());
                    index.expect(likely);
                    index.add(papers, words);
                }),
            )
            .unwrap();
            let index = index.finish();
            let ranked =
                search::rank_titles_indexed(&titles.list, query, search::Scope::All, &index)
                    .unwrap();
            let ranked: Vec<(u32, String)> = ranked
                .matches
                .iter()
                .map(|m| (m.idx, titles.list.title(m.idx as usize).to_string()))
                .collect();
            (ranked, batches, given)
        };
        let (want, _, none) = ranked(false);
        let (got, batches, given) = ranked(true);
        assert_eq!(none, 0);
        assert!(given > 0 && given < batches, "{given} of {batches}");
        assert!(want.len() > 1000, "{}", want.len());
        assert_eq!(got, want);
    }

    #[test]
    fn titles_alone_load_as_the_papers_do() {
        // `load_titles` reads `lines` without making papers: what it keeps
        // must be what `load` makes of the same files, in a small file and
        // in a mapped one cut into chunks and pieces (repeats across them),
        // and whatever the lines hold.
        let odd = [
            "Learning $\\alpha$-divergences with *bold* claims",
            "See http://example.org for the title",
            "Double  spaced  title",
            "It's -- a dash and ''quotes''",
            "\u{1b}[31mRed\u{1b}[0m escape in a title",
            "\ttabbed\ttitle\t",
            "\u{7}\u{7}",
            "Über große Modelle für naïve Leser",
            "   padded title   ",
            "A title with a \u{200b}zero-width space",
        ];
        let long = |k: usize| {
            format!(
                "We study sparse attention in long contexts, case {}. {} Number {k}.",
                k % 3,
                "More words follow here to make the line an abstract. ".repeat(7)
            )
        };
        let mut text = String::new();
        let mut k = 0usize;
        while text.len() < FILE_FROM as usize + 60_000 {
            k += 1;
            let line = match k % 13 {
                0 => odd[(k / 13) % odd.len()].to_string(),
                1 => long(k),
                // A repeat of a title some way back (or of an odd one).
                2 => format!("Paper {} on sparse attention", k / 50),
                3 => String::new(),
                _ => format!("Paper {k} on diffusion models for {}", k % 97),
            };
            text.push_str(&line);
            text.push_str(if k.is_multiple_of(5) { "\r\n" } else { "\n" });
        }
        let dir = tempfile::tempdir().unwrap();
        let big = dir.path().join("big.txt");
        let mut bytes = text.into_bytes();
        bytes.extend_from_slice(b"Invalid \xFF byte in a title\n");
        std::fs::write(&big, &bytes).unwrap();
        let small = dir.path().join("small.txt");
        std::fs::write(&small, &bytes[..40_000]).unwrap();
        let opts = Options {
            format: Format::named("lines"),
            chunk: 96 << 10,
            ..Options::default()
        };
        for inputs in [
            vec![Input::Path(small.clone())],
            vec![Input::Path(big.clone())],
            vec![Input::Path(small), Input::Path(big)],
        ] {
            let loaded = load(&inputs, &opts).unwrap();
            let (list, reports) = load_titles(&inputs, &opts).unwrap();
            let papers = &loaded.corpus.papers;
            assert!(papers.len() > 300, "{}", papers.len());
            assert_eq!(list.len(), papers.len());
            for (i, p) in papers.iter().enumerate() {
                let want = format!(
                    "{}\t{}\n",
                    loaded.corpus.short_id(i),
                    crate::text::markup::plain(&p.title)
                );
                let mut got = Vec::new();
                list.write_line(&mut got, i);
                assert_eq!(String::from_utf8(got).unwrap(), want, "paper {i}");
            }
            assert!(
                papers
                    .iter()
                    .any(|p| p.title_derived && p.title.contains(" ["))
            );
            assert_eq!(reports.len(), loaded.reports.len());
            for (a, b) in reports.iter().zip(&loaded.reports) {
                assert_eq!(
                    (a.papers, a.without_abstract, a.repeated, a.invalid_utf8),
                    (b.papers, b.without_abstract, b.repeated, b.invalid_utf8)
                );
                assert_eq!(a.skipped, b.skipped);
                assert!(a.repeated > 0);
            }
            for q in ["sparse", "über", "'escape", "zzqq"] {
                let key = |m: &crate::search::Match| (m.idx, m.key);
                let got: Vec<_> = list.rank(q).iter().map(key).collect();
                let want: Vec<_> =
                    crate::search::rank_papers(papers, q, crate::search::Scope::Title)
                        .iter()
                        .map(key)
                        .collect();
                assert_eq!(got, want, "{q}");
                // Equal because both found what the titles hold, or
                // nothing where they hold nothing.
                assert_eq!(want.is_empty(), q == "zzqq", "{q}");
            }
        }
    }
}
