//! One load as it goes: each input opened, its format settled, its papers
//! parsed (line-oriented inputs chunk by chunk, the rest whole) and handed
//! on as [`Event`]s with progress, repeats folded into the papers they
//! repeat, and a [`Report`] after each input.

use std::path::PathBuf;
use std::sync::{Arc, mpsc};

use super::cache::{self, Encoder, Lookup};
use super::chunks::{self, Chunk, How, Keep, Piece};
use super::input::{HEAD, Source, decode, expand, open_head, too_big, too_big_whole};
use super::{BUNDLED, Format, Input, Options, Report, detect, parse};
use crate::corpus::{Batch, Dedup, Paper, Papers, Parsed, Variant, id_key};
use crate::search::TitleList;
use crate::search::{Prepared, WordIndex};
use crate::text::sanitize;

/// Turns parsed records into papers, filling in the report.
fn papers_of(input: &Input, parsed: Parsed, report: &mut Report) -> Vec<Paper> {
    let list: Arc<str> = sanitize::line(&parsed.header.unwrap_or_else(|| input.list_name())).into();
    report.repaired += parsed.repaired;
    report.skipped.extend(
        parsed
            .skipped
            .into_iter()
            .map(|(line, why)| (line, sanitize::line(&why))),
    );
    let mut papers = Vec::with_capacity(parsed.records.len());
    for record in parsed.records {
        let line = record.line;
        match record.into_paper(&list, papers.len() as u32) {
            Some(p) => {
                if p.abstract_text.is_empty() {
                    report.without_abstract += 1;
                }
                papers.push(p);
            }
            None => report
                .skipped
                .push((line, "no title and no abstract".into())),
        }
    }
    report.skipped.sort_by_key(|(line, _)| *line);
    report.papers = papers.len();
    papers
}

/// What a load says as it goes.
pub enum Event {
    /// Papers new to the corpus (and lists that earlier ones are in too),
    /// with the matcher's share of the work done when it was asked for.
    Papers(Batch, Option<Prepared>),
    /// Every paper of a file loaded alone, left in the cache until read
    /// (see [`Papers`]), with the file's finished titles, stored: what a
    /// reader's load of a file whose titles are stored hands on in place
    /// of [`Event::Papers`], so that the list is whole at once. The papers
    /// are decoded meanwhile on a thread of their own.
    Stored(Papers, Arc<TitleList>),
    /// The words of the papers of the [`Event::Papers`] that follows, all
    /// of them new, as their parsing thread indexed them (numbered from
    /// 0): what a load asked to ([`Options::words`](super::Options::words))
    /// hands on where it could.
    Words(Box<WordIndex>),
    /// Titles and ids of papers new to the corpus: what a load for
    /// [`load_titles`](super::load_titles) hands on for line-oriented
    /// inputs (never [`stream`](fn@super::stream)).
    Titles(TitleList),
    /// Bytes read so far, of how many (unknown for stdin), and papers.
    Progress {
        /// Bytes read.
        bytes: u64,
        /// Bytes in all inputs, when known.
        total: Option<u64>,
        /// Papers so far.
        papers: usize,
    },
    /// One input is done.
    Report(Report),
    /// Every paper is handed on; only [`Event::Index`] may follow, as
    /// checking a stored index takes a while (1.1 GB at 2.7M papers).
    Listed,
    /// The word index over every paper, read back from the cache: a file
    /// loaded alone whose index was stored by an earlier open. Comes last.
    Index(Box<WordIndex>),
}

/// The papers a load will likely end with, from the papers and bytes read
/// so far: `None` until something is read or when the size is unknown.
pub fn expected_papers(papers: usize, bytes: u64, total: Option<u64>) -> Option<usize> {
    let total = total?;
    (bytes > 0)
        .then(|| ((papers as f64 * total as f64 / bytes as f64).round() as usize).max(papers))
}

/// A file's finished titles as `search` stored them ([`cache::titles`]),
/// for a reader's load of that file alone: read back on a thread of their
/// own (their checksums verified) once the first batch is on its way,
/// while the next ones are prepared without them; then each batch's titles
/// are copied from them ([`TitleList::prepared`]) rather than made again,
/// most of the work of preparing a batch for the matcher.
struct Made {
    /// Where to read them from, until the first batch is prepared.
    from: Option<(cache::CacheOptions, PathBuf, Option<Format>)>,
    /// Whether to make what the word index reads of each paper: not when
    /// the file's index is stored, as it will come at the load's end.
    index: bool,
    /// The file's titles are stored (their key checked): its papers may
    /// be left in the cache ([`Made::stored`]).
    stored: bool,
    coming: Option<mpsc::Receiver<TitleList>>,
    list: Option<TitleList>,
}

impl Default for Made {
    fn default() -> Made {
        Made {
            from: None,
            index: true,
            stored: false,
            coming: None,
            list: None,
        }
    }
}

impl Made {
    /// Starts reading the stored titles, when there are any.
    fn start(&mut self) {
        let Some((cache, path, format)) = self.from.take() else {
            return;
        };
        let (tx, rx) = mpsc::sync_channel(1);
        let spawned = std::thread::Builder::new()
            .name("paperboat-titles".into())
            .spawn(move || {
                if let Some(cache::Titles::Stored(list, _)) =
                    cache::titles(&cache, &path, format, String::new())
                {
                    let _ = tx.send(list);
                }
            });
        self.coming = spawned.is_ok().then_some(rx);
    }

    /// The papers of `replay` left in the cache, listed from the file's
    /// stored titles (with the load's report, named `name`), so that
    /// nothing is made of the papers as they come (the reader indexes
    /// them once decoded when no index is stored). Else `replay` back.
    fn stored(
        &mut self,
        replay: cache::Replay,
        name: String,
    ) -> Result<(Papers, Arc<TitleList>, Report), Box<cache::Replay>> {
        let Some((cache, path, format)) = self.from.as_ref().filter(|_| self.stored) else {
            return Err(Box::new(replay));
        };
        let Some(cache::Titles::Stored(list, report)) = cache::titles(cache, path, *format, name)
        else {
            return Err(Box::new(replay));
        };
        let list = Arc::new(list);
        let papers = replay.stored(list.clone())?;
        self.from = None;
        Ok((papers, list, report))
    }

    /// `papers`, papers `from..` of the load, made ready for the matcher.
    fn prepare(&mut self, from: usize, papers: &[Paper]) -> Prepared {
        if let Some(rx) = &self.coming {
            match rx.try_recv() {
                Ok(list) => (self.list, self.coming) = (Some(list), None),
                Err(mpsc::TryRecvError::Disconnected) => self.coming = None,
                Err(mpsc::TryRecvError::Empty) => {}
            }
        }
        if let Some(list) = &self.list {
            if let Some(prepared) = list.prepared(from, papers, self.index) {
                #[cfg(test)]
                MADE.set(MADE.get() + 1);
                return prepared;
            }
            // Not this load's papers (the file is not as it was): the
            // rest are made as they come.
            self.list = None;
        }
        let prepared = if self.index {
            Prepared::new(papers)
        } else {
            Prepared::titles(papers)
        };
        // The first batch goes out first: reading the titles back would
        // only hold it up.
        self.start();
        prepared
    }
}

#[cfg(test)]
thread_local! {
    // Batches made ready from stored titles on this thread, for tests.
    pub(super) static MADE: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    // Batches that passed the dedup by on this thread, for tests.
    pub(super) static UNDEDUPED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Hands papers on: numbered within their list, repeats folded into the
/// papers they repeat, made ready for the matcher when asked.
struct Sink<'a> {
    dedup: Dedup,
    /// The load has one input.
    alone: bool,
    /// The papers coming are known to be new and each under its own id
    /// (see [`cache::Replay::distinct`]): they pass the dedup by.
    distinct: bool,
    keep: Keep,
    made: Made,
    papers: usize,
    bytes: u64,
    total: Option<u64>,
    /// Papers handed on left in the cache, to decode once the load has
    /// done the rest.
    decode: Option<Papers>,
    out: &'a mut dyn FnMut(Event),
}

impl Sink<'_> {
    /// Hands `papers` on; returns how many were listed already.
    fn papers(&mut self, papers: Vec<Paper>, position: &mut u32) -> usize {
        let keys: Vec<u128> = papers.iter().map(|p| id_key(&p.id)).collect();
        self.keyed(papers, &keys, position, None)
    }

    /// [`Sink::papers`] with each paper's [`id_key`] worked out already.
    fn keyed(
        &mut self,
        mut papers: Vec<Paper>,
        keys: &[u128],
        position: &mut u32,
        words: Option<WordIndex>,
    ) -> usize {
        let given = papers.len();
        // Indexed words are of every paper given, under the ids they came
        // with: handed on only if the dedup keeps all of them and renames
        // none (only a paper whose id is a hash can be renamed).
        let words = words.filter(|_| !papers.iter().any(|p| p.id.is_hash()));
        for p in &mut papers {
            p.position = *position;
            *position += 1;
        }
        let batch = if self.distinct {
            #[cfg(test)]
            UNDEDUPED.set(UNDEDUPED.get() + 1);
            Batch {
                papers,
                also_in: Vec::new(),
                fills: Vec::new(),
            }
        } else {
            self.dedup.accept_keyed(papers, keys)
        };
        let new = batch.papers.len();
        let from = self.papers;
        self.papers += new;
        let prepared =
            (self.keep == Keep::Prepared).then(|| self.made.prepare(from, &batch.papers));
        if let Some(words) = words.filter(|_| new == given) {
            (self.out)(Event::Words(Box::new(words)));
        }
        (self.out)(Event::Papers(batch, prepared));
        given - new
    }

    /// Hands on the titles whose papers are new; returns how many were
    /// listed already. `varied`: see [`Piece`](super::chunks::Piece).
    fn titles(
        &mut self,
        mut titles: TitleList,
        keys: &[u128],
        varied: &[(usize, u64, Variant)],
    ) -> usize {
        let (fresh, renamed) = self.dedup.fresh(keys, varied);
        for (i, hash) in renamed {
            titles.set_hash_id(i, hash);
        }
        let new = fresh.iter().filter(|&&f| f).count();
        let mut kept = TitleList::default();
        kept.append(titles, Some(&fresh));
        self.papers += new;
        (self.out)(Event::Titles(kept));
        keys.len() - new
    }

    fn progress(&mut self, bytes: u64) {
        self.bytes += bytes;
        // Room for the papers expected, so that the index of ids is not
        // rebuilt each time it doubles.
        if let Some(n) = expected_papers(self.papers, self.bytes, self.total)
            && !self.distinct
        {
            self.dedup.reserve_for(n + n / 20);
        }
        (self.out)(Event::Progress {
            bytes: self.bytes,
            total: self.total,
            papers: self.papers,
        });
    }
}

/// Hands a parsed piece on (its titles alone when `titles`), counting it
/// in the report.
fn take_piece(
    report: &mut Report,
    sink: &mut Sink,
    piece: Piece,
    titles: bool,
    position: &mut u32,
) {
    report.skipped.extend(piece.skipped);
    report.without_abstract += piece.without_abstract;
    report.papers += piece.keys.len();
    report.repeated += if titles {
        sink.titles(piece.titles, &piece.keys, &piece.varied)
    } else {
        sink.keyed(piece.papers, &piece.keys, position, piece.words)
    };
}

/// Replays a cache entry into `sink`; false when it failed (the report
/// says why).
fn replay_into(
    replay: &cache::Replay,
    report: &mut Report,
    sink: &mut Sink,
    position: &mut u32,
) -> bool {
    let titles = sink.keep == Keep::Titles && replay.line_oriented();
    report.repaired = replay.repaired();
    let replayed = replay.run(titles, &mut |(piece, invalid, consumed)| {
        report.invalid_utf8 += invalid;
        take_piece(report, sink, piece, titles, position);
        if consumed > 0 {
            sink.progress(consumed);
        }
    });
    match replayed {
        Ok(()) => true,
        Err(e) => {
            report.error = Some(e);
            false
        }
    }
}

/// What is left to do once an input's report is out: storing its cache
/// entry (a sync of the file may take a while).
type Store = Box<dyn FnOnce()>;

/// Reads one input, streaming its papers into `sink`.
fn stream_one(input: &Input, opts: &Options, sink: &mut Sink) -> (Report, Option<Store>) {
    let mut report = Report {
        name: input.name(),
        ..Report::default()
    };
    let (mut source, known, mut buf, mut more) = match open_head(input, opts) {
        Ok(s) => s,
        Err(e) => {
            report.error = Some(e);
            return (report, None);
        }
    };
    let utf16 = buf.starts_with(&[0xff, 0xfe]) || buf.starts_with(&[0xfe, 0xff]);
    let head_text = if utf16 {
        decode(buf.clone()).0
    } else {
        String::from_utf8_lossy(&buf).into_owned()
    };
    let hint = match input {
        Input::Path(p) => Format::from_extension(p),
        _ => None,
    };
    let format = opts.format.unwrap_or_else(|| detect(&head_text, hint));
    report.format = Some(format.name());
    let line_oriented = format.line_oriented() && !utf16;
    let list: Arc<str> = sanitize::line(&input.list_name()).into();
    // Read whole: at most `--max-size`, or what this machine can parse at
    // once.
    let limit = (!line_oriented)
        .then(|| {
            opts.max_size
                .map(|m| (m, too_big(m)))
                .or_else(|| super::whole_limit().map(|m| (m, too_big_whole(m, format))))
        })
        .flatten();
    if let (Some((max, why)), Some(size)) = (&limit, known)
        && size > *max
    {
        report.error = Some(format!("{} is {why}", super::size(size)));
        return (report, None);
    }
    let mut position = 0u32;
    let mut recorder = None;
    // Papers given distinguished ids before this input.
    let renamed = sink.dedup.renamed();
    // Where a line-oriented input is read from: past what a cache entry
    // had of it when it grew.
    let (mut from, mut first_line) = (0, 1);
    if let (Some(cache), Source::File(file)) = (&opts.cache, &source) {
        let by_block = sink.alone && sink.keep == Keep::Prepared && sink.made.stored;
        let how = (line_oriented, opts.record_papers, by_block);
        match cache::lookup(cache, input, file, format, &list, how) {
            Lookup::Replay(replay) => 'replay: {
                let replay = if replay.by_block() {
                    match sink.made.stored(replay, report.name.clone()) {
                        Ok((papers, list, mut stored)) => {
                            stored.format = report.format;
                            sink.papers += papers.len();
                            sink.decode = Some(papers.clone());
                            (sink.out)(Event::Stored(papers, list));
                            return (finish_report(stored, format), None);
                        }
                        Err(replay) => *replay,
                    }
                } else {
                    replay
                };
                if !replay.verified() {
                    // Damaged: parsed as if there were no cache (the next
                    // open records it again).
                    break 'replay;
                }
                // Alone, a file whose ids were each met once when it was
                // recorded needs no dedup, a hash table's miss a paper
                // (docs/CACHE.md, What is kept).
                sink.distinct = sink.alone && replay.distinct();
                replay_into(&replay, &mut report, sink, &mut position);
                sink.distinct = false;
                return (finish_report(report, format), None);
            }
            Lookup::Grown {
                replay,
                recorder: mut r,
                from: at,
                first_line: line,
            } => {
                if !replay_into(&replay, &mut report, sink, &mut position) {
                    return (finish_report(report, format), None);
                }
                replay.copy_into(&mut r);
                (from, first_line) = (at, line);
                recorder = Some(r);
            }
            Lookup::Record(r) => recorder = Some(r),
            Lookup::Off => {}
        }
    }
    if line_oriented {
        // Chunk by chunk: one thread reads and parses (on every core) while
        // this one hands the last chunk's papers on. Memory stays bounded
        // by a few chunks, whatever the size of the file.
        let (tx, rx) = std::sync::mpsc::sync_channel::<Result<Chunk, String>>(1);
        let keep = sink.keep;
        let how = How {
            list: &list,
            keep,
            encode: recorder.is_some(),
            from,
            first_line,
            words: opts.words.as_ref().map(|w| &*w.0),
        };
        std::thread::scope(|s| {
            s.spawn(move || {
                chunks::read_chunks(input, source, buf, more, known, opts, format, how, tx)
            });
            for chunk in rx {
                match chunk {
                    Ok(c) => {
                        report.invalid_utf8 += c.invalid;
                        if let Some(r) = &mut recorder {
                            r.lines(c.lines);
                        }
                        let n = c.pieces.len();
                        for (k, piece) in c.pieces.into_iter().enumerate() {
                            if let Some(r) = &mut recorder {
                                let (invalid, consumed) = if k + 1 == n {
                                    (c.invalid, c.consumed)
                                } else {
                                    (0, 0)
                                };
                                r.block(
                                    piece.encoded.as_ref(),
                                    &piece.skipped,
                                    invalid,
                                    consumed,
                                    piece.bytes,
                                );
                            }
                            let titles = keep == Keep::Titles;
                            take_piece(&mut report, sink, piece, titles, &mut position);
                        }
                        sink.progress(c.consumed);
                    }
                    Err(e) => report.error = Some(e),
                }
            }
        });
    } else {
        while more {
            match source.fill(&mut buf, opts.chunk.max(HEAD)) {
                Ok(m) => more = m,
                Err(e) => {
                    report.error = Some(e.to_string());
                    return (report, None);
                }
            }
            if let Some((max, why)) = &limit
                && buf.len() as u64 > *max
            {
                report.error = Some(why.clone());
                return (report, None);
            }
        }
        let consumed = buf.len() as u64;
        // Shorter than it was when opened: cut short while it was read.
        // What was read is parsed (a record cut in two is skipped) and
        // the report says so.
        let cut = known.filter(|&k| consumed < k);
        let (text, invalid) = decode(buf);
        report.invalid_utf8 = invalid;
        let parsed = parse(&text, format);
        drop(text);
        let papers = papers_of(input, parsed, &mut report);
        if let Some(r) = &mut recorder {
            let mut enc = Encoder::new(&list);
            for p in &papers {
                enc.paper(p);
            }
            r.block(Some(&enc), &report.skipped, invalid, consumed, None);
        }
        report.repeated += sink.papers(papers, &mut position);
        sink.progress(consumed);
        if let Some(len) = cut {
            report.error = Some(super::input::cut_short(consumed, None, len));
        }
    }
    let report = finish_report(report, format);
    let failed = report.error.is_some();
    let repaired = report.repaired;
    let distinct = report.repeated == 0 && sink.dedup.renamed() == renamed;
    let store = recorder
        .map(|r| Box::new(move || r.finish(line_oriented, repaired, failed, distinct)) as Store);
    (report, store)
}

/// Sorts the skipped records and says when an input had no paper.
fn finish_report(mut report: Report, format: Format) -> Report {
    report.skipped.sort_by_key(|(line, _)| *line);
    if report.papers == 0 && report.error.is_none() {
        report.error = Some(format!(
            "no papers found (read as {}{})",
            format.name(),
            if report.skipped.is_empty() {
                String::new()
            } else {
                format!(", {} records skipped", report.skipped.len())
            }
        ));
    }
    report
}

/// [`stream`](fn@super::stream), keeping what `keep` says.
pub(super) fn stream_keeping(
    inputs: &[Input],
    opts: &Options,
    keep: Keep,
    out: &mut dyn FnMut(Event),
) {
    let items = expand(inputs);
    let total: Option<u64> = items
        .iter()
        .map(|i| match i {
            Ok(Input::Path(p)) => std::fs::metadata(p).ok().map(|m| m.len()),
            Ok(Input::Bundled(i)) => Some(BUNDLED[*i].1.len() as u64),
            Ok(Input::Stdin) => None,
            Err(_) => Some(0),
        })
        .sum();
    // A file loaded alone may have its word index in the cache.
    let alone = match (&opts.cache, items.as_slice()) {
        (Some(_), [Ok(Input::Path(p))]) if keep != Keep::Titles => Some(p.clone()),
        _ => None,
    };
    // A reader's load of a file alone may have its titles made already.
    let made = match (&opts.cache, items.as_slice()) {
        (Some(cache), [Ok(Input::Path(p))])
            if keep == Keep::Prepared && opts.max_size.is_none() =>
        {
            Made {
                from: Some((cache.clone(), p.clone(), opts.format)),
                index: !cache::has_index(cache, p, opts.format),
                stored: cache::has_titles(cache, p, opts.format),
                ..Made::default()
            }
        }
        // Papers of several inputs may be filled from each other's (the
        // same paper in two lists): what the word index reads of them is
        // taken from the whole corpus at the load's end.
        _ => Made {
            index: items.len() <= 1,
            ..Made::default()
        },
    };
    let mut sink = Sink {
        dedup: Dedup::default(),
        alone: items.len() == 1,
        distinct: false,
        keep,
        made,
        papers: 0,
        bytes: 0,
        total,
        decode: None,
        out,
    };
    for item in items {
        let (report, store) = match item {
            Ok(input) => stream_one(&input, opts, &mut sink),
            Err(report) => (*report, None),
        };
        (sink.out)(Event::Report(report));
        if let Some(store) = store {
            store();
        }
    }
    (sink.out)(Event::Listed);
    if keep == Keep::Prepared {
        // The reader's list is whole: what is left (the stored index's
        // checksums, 1.1 GB at 2.7M papers) runs after its UI and matcher.
        crate::parallel::lower_priority();
    }
    if let (Some(cache), Some(path)) = (&opts.cache, alone)
        && sink.papers > 0
        && let Some(bytes) = cache::index_for(cache, &path, opts.format, sink.papers)
        && let Ok(index) = WordIndex::from_bytes(bytes)
    {
        (sink.out)(Event::Index(Box::new(index)));
    }
    if let Some(papers) = sink.decode.take() {
        // Papers left in the cache are read back all the same, so that
        // what reads every paper soon need not wait.
        let _ = std::thread::Builder::new()
            .name("paperboat-decode".into())
            .spawn(move || {
                crate::parallel::lower_priority();
                papers.decode_all();
            });
    }
}
