//! Reading corpora: files, directories, standard input, or the bundled ICML
//! 2026 lists.
//!
//! Each input is read whole, checked (a size limit; empty, binary and image
//! files are refused by name), decoded (UTF-8 with a BOM or without, invalid
//! sequences replaced and counted; UTF-16 with a BOM), its format detected
//! from the content with the file extension as a hint (or forced), parsed,
//! and turned into papers. A report per input says what loaded and what was
//! skipped, with lines. One input that cannot be read never stops the
//! others; only when no input yields a paper is loading an error.

use std::borrow::Cow;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use thiserror::Error;

use super::abstracts::{Abstract, FileText};
use super::{Batch, Corpus, Dedup, Paper, Parsed, atom, bibtex, csv, id_key, json, ris, text};
use crate::search::{Prepared, TitleList};
use crate::text::sanitize;

/// The bundled lists, embedded in the binary: (file name, contents).
pub const BUNDLED: &[(&str, &str)] = &[
    (
        "000_84d52d1267d14ca9.txt",
        include_str!("../../assets/000_84d52d1267d14ca9.txt"),
    ),
    (
        "001_780c446c1d4ca5ac.txt",
        include_str!("../../assets/001_780c446c1d4ca5ac.txt"),
    ),
];

/// The default limit on an input's size.
pub const DEFAULT_MAX_SIZE: u64 = 2 << 30;

/// The formats paperboat reads (also the values of `--format`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum Format {
    /// Paragraphs, as the bundled lists.
    Text,
    /// One paper per line.
    Lines,
    /// BibTeX or BibLaTeX.
    Bibtex,
    /// RIS (and Web of Science / MEDLINE tagged text).
    Ris,
    /// A JSON document.
    Json,
    /// JSON Lines.
    Jsonl,
    /// An arXiv API Atom feed.
    Atom,
    /// Comma-separated values with a header row.
    Csv,
    /// Tab-separated values with a header row.
    Tsv,
}

impl Format {
    /// Every format, with its `--format` name.
    pub const ALL: [(Format, &'static str); 9] = [
        (Format::Text, "text"),
        (Format::Lines, "lines"),
        (Format::Bibtex, "bibtex"),
        (Format::Ris, "ris"),
        (Format::Json, "json"),
        (Format::Jsonl, "jsonl"),
        (Format::Atom, "atom"),
        (Format::Csv, "csv"),
        (Format::Tsv, "tsv"),
    ];

    /// The `--format` name.
    pub fn name(self) -> &'static str {
        Format::ALL
            .iter()
            .find(|(f, _)| *f == self)
            .map_or("text", |(_, n)| n)
    }

    /// The format a file extension suggests.
    pub fn from_extension(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        Some(match ext.as_str() {
            "bib" | "bibtex" | "biblatex" => Format::Bibtex,
            "ris" | "nbib" | "ciw" => Format::Ris,
            "json" => Format::Json,
            "jsonl" | "ndjson" => Format::Jsonl,
            "xml" | "atom" => Format::Atom,
            "csv" => Format::Csv,
            "tsv" | "tab" => Format::Tsv,
            "txt" | "text" | "md" => Format::Text,
            _ => return None,
        })
    }
}

/// How to load.
#[derive(Clone, Debug)]
pub struct Options {
    /// A format forced on every input (`--format`); detected when `None`.
    pub format: Option<Format>,
    /// Inputs larger than this many bytes are refused (`--max-size`).
    pub max_size: u64,
    /// Bytes of a line-oriented input read and parsed at a time.
    pub chunk: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            format: None,
            max_size: DEFAULT_MAX_SIZE,
            chunk: CHUNK,
        }
    }
}

/// Where papers come from.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Input {
    /// A file (or a directory: its supported files).
    Path(PathBuf),
    /// Standard input (`-` on the command line).
    Stdin,
    /// One of the bundled lists, by index into [`BUNDLED`].
    Bundled(usize),
}

impl Input {
    /// The inputs for command-line arguments: `-` is stdin, no arguments
    /// means the bundled lists.
    pub fn from_args(files: &[PathBuf]) -> Vec<Input> {
        if files.is_empty() {
            return (0..BUNDLED.len()).map(Input::Bundled).collect();
        }
        files
            .iter()
            .map(|f| {
                if f.as_os_str() == "-" {
                    Input::Stdin
                } else {
                    Input::Path(f.clone())
                }
            })
            .collect()
    }

    /// The name messages use for this input (sanitized: file names come
    /// from users and may hold anything).
    pub fn name(&self) -> String {
        match self {
            Input::Path(p) => sanitize::line(&p.display().to_string()),
            Input::Stdin => "stdin".to_string(),
            Input::Bundled(i) => format!("bundled:{}", BUNDLED[*i].0),
        }
    }

    /// The list name for papers from an input that names none itself.
    fn list_name(&self) -> String {
        match self {
            Input::Path(p) => sanitize::line(
                &p.file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_else(|| p.display().to_string()),
            ),
            Input::Stdin => "stdin".to_string(),
            Input::Bundled(i) => BUNDLED[*i].0.to_string(),
        }
    }
}

/// Why loading failed as a whole.
#[derive(Debug, Error)]
pub enum LoadError {
    /// No input yielded a paper; the reports say why.
    #[error("no papers found: {}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    NoPapers(Vec<Report>),
}

/// What one input gave.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// The input's name.
    pub name: String,
    /// The format it was read as.
    pub format: Option<&'static str>,
    /// Papers loaded.
    pub papers: usize,
    /// Of those, papers with a title but no abstract.
    pub without_abstract: usize,
    /// Of those, papers listed already (the same id earlier in this input
    /// or in an earlier one): they are shown once, with every list.
    pub repeated: usize,
    /// Records skipped: (line, reason).
    pub skipped: Vec<(usize, String)>,
    /// Invalid UTF-8 sequences replaced.
    pub invalid_utf8: usize,
    /// Why the input could not be read at all.
    pub error: Option<String>,
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(e) = &self.error {
            return write!(f, "{}: {e}", self.name);
        }
        let s = if self.papers == 1 { "" } else { "s" };
        write!(f, "{}: {} paper{s}", self.name, self.papers)?;
        if self.without_abstract > 0 {
            write!(f, ", {} without abstract", self.without_abstract)?;
        }
        if self.repeated > 0 {
            write!(f, ", {} listed already", self.repeated)?;
        }
        if !self.skipped.is_empty() {
            write!(f, ", {} skipped", self.skipped.len())?;
            let shown: Vec<String> = self
                .skipped
                .iter()
                .take(3)
                .map(|(line, why)| format!("line {line}: {why}"))
                .collect();
            let more = if self.skipped.len() > 3 { "; …" } else { "" };
            write!(f, " ({}{more})", shown.join("; "))?;
        }
        if self.invalid_utf8 > 0 {
            write!(
                f,
                ", {} invalid UTF-8 sequences replaced",
                self.invalid_utf8
            )?;
        }
        Ok(())
    }
}

impl Report {
    /// True when the input loaded without a warning.
    pub fn clean(&self) -> bool {
        self.error.is_none() && self.skipped.is_empty() && self.invalid_utf8 == 0
    }
}

/// A loaded corpus and what each input contributed.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The papers.
    pub corpus: Corpus,
    /// One report per input file, in input order.
    pub reports: Vec<Report>,
    /// Names this set of inputs, so that the reader can return to where it
    /// was left: `bundled`, or the files' absolute paths.
    pub key: String,
}

/// The key for a set of inputs (see [`Loaded::key`]).
pub fn corpus_key(inputs: &[Input]) -> String {
    if inputs.iter().all(|i| matches!(i, Input::Bundled(_))) {
        return "bundled".to_string();
    }
    let names: Vec<String> = inputs
        .iter()
        .map(|i| match i {
            Input::Path(p) => std::fs::canonicalize(p)
                .unwrap_or_else(|_| p.clone())
                .display()
                .to_string(),
            other => other.name(),
        })
        .collect();
    names.join(" + ")
}

/// Files a directory holds that paperboat reads, sorted by name.
fn directory_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && Format::from_extension(p).is_some())
        .collect();
    files.sort();
    Ok(files)
}

/// What a file's first bytes say it is, when it is not text.
fn not_text(bytes: &[u8]) -> Option<&'static str> {
    let magic: [(&[u8], &str); 8] = [
        (b"\x89PNG", "a PNG image"),
        (b"\xff\xd8\xff", "a JPEG image"),
        (b"GIF8", "a GIF image"),
        (b"%PDF", "a PDF document"),
        (b"PK\x03\x04", "a ZIP archive"),
        (b"\x1f\x8b", "a gzip file"),
        (b"\x7fELF", "a program"),
        (b"BZh", "a bzip2 file"),
    ];
    if let Some((_, what)) = magic.iter().find(|(m, _)| bytes.starts_with(m)) {
        return Some(what);
    }
    let utf16 = bytes.starts_with(&[0xff, 0xfe]) || bytes.starts_with(&[0xfe, 0xff]);
    if !utf16 && bytes.iter().take(8192).any(|&b| b == 0) {
        return Some("binary data (a NUL byte among the first bytes)");
    }
    None
}

/// Decodes a file: UTF-16 with a BOM, else UTF-8 (BOM dropped) with
/// invalid sequences replaced. Returns the text and how many were replaced.
pub fn decode(bytes: Vec<u8>) -> (String, usize) {
    let utf16 = |le: bool| -> String {
        let units: Vec<u16> = bytes[2..]
            .chunks(2)
            .map(|c| {
                let pair = [c[0], *c.get(1).unwrap_or(&0)];
                if le {
                    u16::from_le_bytes(pair)
                } else {
                    u16::from_be_bytes(pair)
                }
            })
            .collect();
        String::from_utf16_lossy(&units)
    };
    if bytes.starts_with(&[0xff, 0xfe]) {
        return (utf16(true), 0);
    }
    if bytes.starts_with(&[0xfe, 0xff]) {
        return (utf16(false), 0);
    }
    let start = if bytes.starts_with(&[0xef, 0xbb, 0xbf]) {
        3
    } else {
        0
    };
    match String::from_utf8(bytes) {
        Ok(mut s) => {
            s.drain(..start);
            (s, 0)
        }
        Err(e) => replace_invalid(&e.into_bytes()[start..]),
    }
}

/// UTF-8 `bytes` as text, each invalid sequence replaced by U+FFFD; and
/// how many were replaced.
fn replace_invalid(bytes: &[u8]) -> (String, usize) {
    let mut invalid = 0;
    let mut rest = bytes;
    let mut out = String::with_capacity(rest.len());
    loop {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                out.push_str(s);
                break;
            }
            Err(e) => {
                let (good, bad) = rest.split_at(e.valid_up_to());
                out.push_str(std::str::from_utf8(good).unwrap_or_default());
                out.push('\u{FFFD}');
                invalid += 1;
                let skip = e.error_len().unwrap_or(bad.len());
                rest = &bad[skip..];
            }
        }
    }
    (out, invalid)
}

/// [`replace_invalid`], borrowing `bytes` when they are valid.
fn utf8_lossy(bytes: &[u8]) -> (std::borrow::Cow<'_, str>, usize) {
    match std::str::from_utf8(bytes) {
        Ok(s) => (std::borrow::Cow::Borrowed(s), 0),
        Err(_) => {
            let (s, n) = replace_invalid(bytes);
            (std::borrow::Cow::Owned(s), n)
        }
    }
}

/// The first non-blank lines of `text`.
fn head_lines(text: &str, n: usize) -> impl Iterator<Item = &str> {
    text.lines()
        .map(str::trim_end)
        .filter(|l| !l.trim().is_empty())
        .take(n)
}

/// Detects the format from the content; the extension settles what the
/// content leaves open.
pub fn detect(text: &str, hint: Option<Format>) -> Format {
    let start = text.trim_start_matches(['\u{feff}', ' ', '\t', '\r', '\n']);
    if start.starts_with('{') || start.starts_with('[') {
        return if hint == Some(Format::Jsonl) {
            Format::Jsonl
        } else {
            Format::Json
        };
    }
    if start.starts_with("<?xml") || start.starts_with("<feed") {
        return Format::Atom;
    }
    let head: Vec<&str> = head_lines(text, 200).collect();
    let bib_entry = |l: &str| {
        let t = l.trim_start();
        t.starts_with('@')
            && t[1..]
                .trim_start()
                .split(|c: char| !c.is_ascii_alphabetic())
                .next()
                .is_some_and(|w| {
                    !w.is_empty()
                        && t[1..].trim_start()[w.len()..]
                            .trim_start()
                            .starts_with(['{', '('])
                })
    };
    if head.iter().any(|l| bib_entry(l)) {
        return Format::Bibtex;
    }
    let tag = |l: &str| {
        let b = l.as_bytes();
        b.len() >= 5
            && b[0].is_ascii_uppercase()
            && (b[1].is_ascii_uppercase() || b[1].is_ascii_digit())
            && &b[2..5] == b"  -"
    };
    let ris_like = head.iter().take(40).filter(|l| tag(l)).count();
    let wos = head
        .first()
        .is_some_and(|l| l.starts_with("FN ") || l.starts_with("PT "));
    let medline = head.iter().take(5).any(|l| l.starts_with("PMID-"));
    if ris_like >= 2 || wos || medline {
        return Format::Ris;
    }
    match hint {
        Some(Format::Csv) => return Format::Csv,
        Some(Format::Tsv) => return Format::Tsv,
        _ => {}
    }
    // A header row naming title and abstract columns.
    if let Some(first) = head.first() {
        let lower = first.to_lowercase();
        let names_columns = lower.contains("title") || lower.contains("abstract");
        if names_columns && first.matches('\t').count() >= 1 {
            return Format::Tsv;
        }
        if names_columns && first.matches(',').count() >= 1 && head.len() > 1 {
            return Format::Csv;
        }
    }
    // Text: paragraphs, unless no blank line separates anything, which
    // makes it one paper per line.
    let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
    let blank_separated = text.trim().lines().any(|l| l.trim().is_empty());
    if lines >= 2 && !blank_separated {
        Format::Lines
    } else {
        Format::Text
    }
}

/// Parses text in a format.
pub fn parse(text: &str, format: Format) -> Parsed {
    match format {
        Format::Text => text::parse(text),
        Format::Lines => text::parse_lines(text),
        Format::Bibtex => bibtex::parse(text),
        Format::Ris => ris::parse(text),
        Format::Json | Format::Jsonl => json::parse(text),
        Format::Atom => atom::parse(text),
        Format::Csv => csv::parse(text, b','),
        Format::Tsv => csv::parse(text, b'\t'),
    }
}

/// A byte count for people.
pub fn size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["bytes", "KiB", "MiB", "GiB"];
    let mut v = bytes as f64;
    let mut u = 0;
    while v >= 1024.0 && u < UNITS.len() - 1 {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{bytes} bytes")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

/// Turns parsed records into papers, filling in the report.
fn papers_of(input: &Input, parsed: Parsed, report: &mut Report) -> Vec<Paper> {
    let list: Arc<str> = sanitize::line(&parsed.header.unwrap_or_else(|| input.list_name())).into();
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
    /// Titles and ids of papers new to the corpus: what a load for
    /// [`load_titles`] hands on for line-oriented inputs (never [`stream`]).
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
}

/// The papers a load will likely end with, from the papers and bytes read
/// so far: `None` until something is read or when the size is unknown.
pub fn expected_papers(papers: usize, bytes: u64, total: Option<u64>) -> Option<usize> {
    let total = total?;
    (bytes > 0)
        .then(|| ((papers as f64 * total as f64 / bytes as f64).round() as usize).max(papers))
}

/// Bytes a line-oriented input is read in at a time (by default).
const CHUNK: usize = 16 << 20;
/// The head read to decide what an input is.
const HEAD: usize = 64 << 10;

/// An open input.
enum Source {
    File(std::fs::File),
    Stdin(std::io::Stdin),
    Memory(&'static [u8], usize),
}

impl Source {
    /// Appends up to `want` more bytes to `buf`; false once at the end.
    fn fill(&mut self, buf: &mut Vec<u8>, want: usize) -> std::io::Result<bool> {
        let start = buf.len();
        match self {
            Source::Memory(bytes, at) => {
                let n = want.min(bytes.len() - *at);
                buf.extend_from_slice(&bytes[*at..*at + n]);
                *at += n;
                Ok(*at < bytes.len())
            }
            Source::File(f) => fill_from(f, buf, start, want),
            Source::Stdin(s) => fill_from(&mut s.lock(), buf, start, want),
        }
    }
}

fn fill_from(
    r: &mut dyn Read,
    buf: &mut Vec<u8>,
    start: usize,
    want: usize,
) -> std::io::Result<bool> {
    buf.resize(start + want, 0);
    let mut got = 0;
    while got < want {
        match r.read(&mut buf[start + got..]) {
            Ok(0) => {
                buf.truncate(start + got);
                return Ok(false);
            }
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => {
                buf.truncate(start + got);
                return Err(e);
            }
        }
    }
    Ok(true)
}

/// Opens an input; its size when it has one.
fn open(input: &Input, opts: &Options) -> Result<(Source, Option<u64>), String> {
    match input {
        Input::Bundled(i) => Ok((
            Source::Memory(BUNDLED[*i].1.as_bytes(), 0),
            Some(BUNDLED[*i].1.len() as u64),
        )),
        Input::Stdin => Ok((Source::Stdin(std::io::stdin()), None)),
        Input::Path(p) => {
            let meta = std::fs::metadata(p).map_err(|e| e.to_string())?;
            if meta.len() > opts.max_size {
                return Err(format!(
                    "{} is over the size limit ({}; --max-size)",
                    size(meta.len()),
                    size(opts.max_size)
                ));
            }
            let f = std::fs::File::open(p).map_err(|e| e.to_string())?;
            Ok((Source::File(f), Some(meta.len())))
        }
    }
}

/// Opens an input and reads its head: the source, its size when known,
/// the head, and whether more follows. An input that cannot be read, is
/// empty or is not text says why.
fn open_head(
    input: &Input,
    opts: &Options,
) -> Result<(Source, Option<u64>, Vec<u8>, bool), String> {
    let (mut source, known) = open(input, opts)?;
    let mut buf = Vec::new();
    let more = source.fill(&mut buf, HEAD).map_err(|e| e.to_string())?;
    if !more && buf.iter().all(u8::is_ascii_whitespace) {
        return Err("empty file".to_string());
    }
    if let Some(what) = not_text(&buf) {
        return Err(format!("not a corpus: {what}"));
    }
    Ok((source, known, buf, more))
}

/// Checks, before a load, that some input can be read at all: each file
/// is opened and its head looked at (standard input is taken on trust).
/// Fails, with every input's reason, when none can; the reader uses it to
/// say so before it takes the screen.
pub fn precheck(inputs: &[Input], opts: &Options) -> Result<(), LoadError> {
    let mut reports = Vec::new();
    for item in expand(inputs) {
        let input = match item {
            Ok(input) => input,
            Err(report) => {
                reports.push(report);
                continue;
            }
        };
        if matches!(input, Input::Stdin) {
            return Ok(());
        }
        match open_head(&input, opts) {
            Ok(_) => return Ok(()),
            Err(e) => reports.push(Report {
                name: input.name(),
                error: Some(e),
                ..Report::default()
            }),
        }
    }
    Err(LoadError::NoPapers(reports))
}

/// True when `head` begins with a complete JSON object on its first line
/// and more follows: JSON Lines rather than one document.
fn looks_like_json_lines(head: &str) -> bool {
    let mut lines = head.lines().map(str::trim).filter(|l| !l.is_empty());
    match (lines.next(), lines.next()) {
        (Some(first), Some(_)) => {
            first.starts_with('{') && serde_json::from_str::<serde::de::IgnoredAny>(first).is_ok()
        }
        _ => false,
    }
}

/// Threads that parse line-oriented input.
fn parse_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(1, 8)
}

/// A parsed piece of input: papers (or only their titles), their dedup
/// keys, skipped records.
#[derive(Default)]
struct Piece {
    papers: Vec<Paper>,
    /// In place of `papers` when only titles are kept.
    titles: TitleList,
    keys: Vec<u128>,
    skipped: Vec<(usize, String)>,
    without_abstract: usize,
}

/// Parses a piece of a line-oriented input whose first line is `first_line`
/// and which holds `lines` line ends.
///
/// `in_file`, when `text` is a file's bytes as they are (none replaced):
/// the file and the offset `text` starts at. Plain JSON abstracts are then
/// left there (see [`Abstract`]).
fn parse_piece(
    text: &str,
    format: Format,
    first_line: usize,
    lines: usize,
    list: &Arc<str>,
    keep: Keep,
    in_file: Option<(&Arc<FileText>, u64)>,
) -> Piece {
    const NONE: &str = "no title and no abstract";
    let n = lines + 1;
    let titles_only = keep == Keep::Titles;
    let mut piece = Piece::default();
    if titles_only {
        // A `lines` piece is nearly all titles; JSON has far more besides.
        let bytes = if format == Format::Jsonl {
            0
        } else {
            text.len()
        };
        piece.titles.reserve(n, bytes);
    } else {
        piece.papers.reserve(n);
    }
    piece.keys.reserve(n);
    let Piece {
        papers,
        titles,
        keys,
        skipped,
        without_abstract,
    } = &mut piece;
    let mut push = |record: super::Record,
                    deferred: Option<(Abstract, &str)>,
                    skipped: &mut Vec<(usize, String)>| {
        let line = record.line;
        match record.into_paper_deferring(list, 0, deferred) {
            Some(p) => {
                keys.push(id_key(&p.id));
                *without_abstract += usize::from(p.abstract_text.is_empty());
                if titles_only {
                    titles.push_paper(p);
                } else {
                    papers.push(p);
                }
            }
            None => skipped.push((line, NONE.to_string())),
        }
    };
    match format {
        Format::Jsonl => {
            for (k, line) in split_lines(text).enumerate() {
                match json::parse_line_deferring(line, first_line + k) {
                    Ok(Some((mut r, plain))) => {
                        let deferred = plain.and_then(|raw| {
                            let (file, at) = in_file?;
                            let within = raw.as_ptr() as usize - text.as_ptr() as usize;
                            let abs = Abstract::Json {
                                file: file.clone(),
                                at: at + within as u64,
                                len: u32::try_from(raw.len()).ok()?,
                            };
                            Some((abs, raw))
                        });
                        if deferred.is_none()
                            && let Some(raw) = plain
                        {
                            r.abstract_text = json::string_folded(raw);
                        }
                        push(r, deferred, skipped)
                    }
                    Ok(None) => {}
                    Err(why) => skipped.push((first_line + k, sanitize::line(&why))),
                }
            }
        }
        // Title lines need no record and no paper.
        _ if titles_only => {
            for (line, l, short) in text::lines_of(text) {
                let line = line + first_line - 1;
                match titles.push_line(l, short, line) {
                    Some((key, has_abstract)) => {
                        keys.push(key);
                        *without_abstract += usize::from(!has_abstract);
                    }
                    None => skipped.push((line, NONE.to_string())),
                }
            }
        }
        _ => {
            for mut r in text::lines_records(text) {
                r.line += first_line - 1;
                push(r, None, skipped);
            }
        }
    }
    piece
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
    list: &Arc<str>,
    keep: Keep,
    in_file: Option<(&Arc<FileText>, u64)>,
) -> (Vec<Piece>, usize, usize) {
    // A piece is parsed as if it started on line 1; its skipped records
    // are renumbered once the lines before it are counted.
    let one = |bytes: &[u8], strip: bool| {
        let lines = memchr_count(bytes);
        let at = (bytes.as_ptr() as usize - text.as_ptr() as usize) as u64;
        let bytes = match bytes.strip_suffix(b"\n") {
            Some(b) if strip => b,
            _ => bytes,
        };
        let (text, invalid) = utf8_lossy(bytes);
        // Text with invalid UTF-8 replaced is no longer the file's.
        let in_file = match text {
            Cow::Borrowed(_) => in_file.map(|(file, start)| (file, start + at)),
            Cow::Owned(_) => None,
        };
        (
            parse_piece(&text, format, 1, lines, list, keep, in_file),
            lines,
            invalid,
        )
    };
    let threads = parse_threads();
    let parsed = if threads == 1 || text.len() < 1 << 20 {
        vec![one(text, false)]
    } else {
        // Cut at line ends into a piece a thread.
        let mut cuts: Vec<&[u8]> = Vec::new();
        let mut rest = text;
        for k in 0..threads {
            if rest.is_empty() {
                break;
            }
            let want = if k + 1 == threads {
                rest.len()
            } else {
                text.len() / threads
            };
            let cut = if want >= rest.len() {
                rest.len()
            } else {
                memchr::memchr(b'\n', &rest[want..]).map_or(rest.len(), |i| want + i + 1)
            };
            let (piece, tail) = rest.split_at(cut);
            cuts.push(piece);
            rest = tail;
        }
        std::thread::scope(|s| {
            let handles: Vec<_> = cuts
                .iter()
                .map(|&piece| s.spawn(move || one(piece, true)))
                .collect();
            handles
                .into_iter()
                .zip(&cuts)
                .map(|(h, piece)| h.join().unwrap_or_else(|_| failed_piece(piece)))
                .collect()
        })
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
    (pieces, line - first_line, invalid)
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

/// `text.split('\n')`, the line ends found by the memchr crate (a
/// profile of the 1M JSONL load had the standard library's search at 4% of
/// the samples).
fn split_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut start = 0;
    memchr::memchr_iter(b'\n', text.as_bytes())
        .map(Some)
        .chain([None])
        .map(move |end| {
            let end = end.unwrap_or(text.len());
            // A line end is ASCII: both ends are character boundaries.
            let line = &text[start..end];
            start = end + 1;
            line
        })
}

/// Line ends in `bytes`.
fn memchr_count(bytes: &[u8]) -> usize {
    memchr::memchr_iter(b'\n', bytes).count()
}

/// Hands papers on: numbered within their list, repeats folded into the
/// papers they repeat, made ready for the matcher when asked.
struct Sink<'a> {
    dedup: Dedup,
    keep: Keep,
    papers: usize,
    bytes: u64,
    total: Option<u64>,
    out: &'a mut dyn FnMut(Event),
}

impl Sink<'_> {
    /// Hands `papers` on; returns how many were listed already.
    fn papers(&mut self, papers: Vec<Paper>, position: &mut u32) -> usize {
        let keys: Vec<u128> = papers.iter().map(|p| id_key(&p.id)).collect();
        self.keyed(papers, &keys, position)
    }

    /// [`Sink::papers`] with each paper's [`id_key`] worked out already.
    fn keyed(&mut self, mut papers: Vec<Paper>, keys: &[u128], position: &mut u32) -> usize {
        let given = papers.len();
        for p in &mut papers {
            p.position = *position;
            *position += 1;
        }
        let batch = self.dedup.accept_keyed(papers, keys);
        let new = batch.papers.len();
        self.papers += new;
        let prepared = (self.keep == Keep::Prepared).then(|| Prepared::new(&batch.papers));
        (self.out)(Event::Papers(batch, prepared));
        given - new
    }

    /// Hands on the titles whose papers are new; returns how many were
    /// listed already.
    fn titles(&mut self, titles: TitleList, keys: &[u128]) -> usize {
        let fresh = self.dedup.fresh(keys);
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
        if let Some(n) = expected_papers(self.papers, self.bytes, self.total) {
            self.dedup.expect(n + n / 20);
        }
        (self.out)(Event::Progress {
            bytes: self.bytes,
            total: self.total,
            papers: self.papers,
        });
    }
}

/// The message for a size over the limit.
fn too_big(opts: &Options) -> String {
    format!("over the size limit ({}; --max-size)", size(opts.max_size))
}

/// A parsed chunk of a line-oriented input.
struct Chunk {
    pieces: Vec<Piece>,
    invalid: usize,
    consumed: u64,
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
        if known.is_none() && read > opts.max_size {
            let _ = tx.send(Err(too_big(opts)));
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
        if tx.send(Ok(Raw { bytes, consumed })).is_err() || done {
            return;
        }
    }
}

/// Reads a line-oriented input a chunk at a time, parses each on every
/// core and sends it on, in order; an error ends it. Reading the next
/// chunk overlaps parsing this one.
#[allow(clippy::too_many_arguments)]
fn read_chunks(
    input: &Input,
    source: Source,
    buf: Vec<u8>,
    more: bool,
    known: Option<u64>,
    opts: &Options,
    format: Format,
    list: &Arc<str>,
    keep: Keep,
    tx: std::sync::mpsc::SyncSender<Result<Chunk, String>>,
) {
    if let Source::File(f) = &source
        && known.is_some_and(|k| k >= MAP_FROM)
        // SAFETY: the map is only read, and only while this load runs. A
        // file cut short meanwhile by another program would fault the
        // process (as with any reader that maps files, ripgrep among
        // them); that is the one risk taken for not copying the file.
        && let Ok(map) = unsafe { memmap2::Mmap::map(f) }
    {
        // Plain JSON abstracts are left in the file, read back through a
        // handle of their own (see `Abstract`).
        let in_file = match input {
            Input::Path(path) if format == Format::Jsonl => FileText::open(f, path),
            _ => None,
        };
        return read_mapped(&map, opts, format, list, keep, in_file.as_ref(), tx);
    }
    let (text_tx, text_rx) = std::sync::mpsc::sync_channel(1);
    std::thread::scope(|s| {
        s.spawn(move || read_texts(source, buf, more, known, opts, text_tx));
        let mut line = 1;
        for decoded in text_rx {
            let sent = match decoded {
                Ok(Raw { bytes, consumed }) => {
                    let (pieces, lines_here, invalid) =
                        parse_chunk(&bytes, format, line, list, keep, None);
                    drop(bytes);
                    line += lines_here;
                    tx.send(Ok(Chunk {
                        pieces,
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

/// Files this large are mapped into memory rather than read.
const MAP_FROM: u64 = 4 << 20;

/// [`read_chunks`] for a file mapped into memory: each chunk is parsed
/// where it lies, with no copy and no buffer to fill, and let go of once
/// parsed (the pages leave the process, not the page cache). On a 1.5 GB
/// JSONL file, copying it into buffers and clearing their pages was a
/// third of the loading time.
fn read_mapped(
    map: &memmap2::Mmap,
    opts: &Options,
    format: Format,
    list: &Arc<str>,
    keep: Keep,
    file: Option<&Arc<FileText>>,
    tx: std::sync::mpsc::SyncSender<Result<Chunk, String>>,
) {
    let bytes = &map[..];
    let mut at = 0;
    // A byte-order mark is no part of the first line.
    let mut skip = if bytes.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    let mut line = 1;
    while at < bytes.len() {
        let want = (at + opts.chunk.max(1)).min(bytes.len());
        let end = if want == bytes.len() {
            want
        } else {
            match memchr::memrchr(b'\n', &bytes[at..want]) {
                Some(i) => at + i + 1,
                // A line longer than a chunk is taken whole.
                None => memchr::memchr(b'\n', &bytes[want..]).map_or(bytes.len(), |i| want + i + 1),
            }
        };
        let raw = &bytes[at + skip..end];
        let in_file = file.map(|f| (f, (at + skip) as u64));
        let (pieces, lines_here, invalid) = parse_chunk(raw, format, line, list, keep, in_file);
        line += lines_here;
        // SAFETY: nothing refers into this range any more (the papers own
        // their text), and a read-only file mapping given up this way is
        // read again from the file if touched.
        let _ =
            unsafe { map.unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, at, end - at) };
        skip = 0;
        let chunk = Chunk {
            pieces,
            invalid,
            consumed: (end - at) as u64,
        };
        if tx.send(Ok(chunk)).is_err() {
            return;
        }
        at = end;
    }
}

/// Reads one input, streaming its papers into `sink`.
fn stream_one(input: &Input, opts: &Options, sink: &mut Sink) -> Report {
    let mut report = Report {
        name: input.name(),
        ..Report::default()
    };
    let (mut source, known, mut buf, mut more) = match open_head(input, opts) {
        Ok(s) => s,
        Err(e) => {
            report.error = Some(e);
            return report;
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
    let mut format = opts.format.unwrap_or_else(|| detect(&head_text, hint));
    if format == Format::Json && opts.format.is_none() && looks_like_json_lines(&head_text) {
        format = Format::Jsonl;
    }
    report.format = Some(format.name());
    let line_oriented = matches!(format, Format::Lines | Format::Jsonl) && !utf16;
    let mut position = 0u32;
    if line_oriented {
        // Chunk by chunk: one thread reads and parses (on every core) while
        // this one hands the last chunk's papers on. Memory stays bounded
        // by a few chunks, whatever the size of the file.
        let list: Arc<str> = sanitize::line(&input.list_name()).into();
        let (tx, rx) = std::sync::mpsc::sync_channel::<Result<Chunk, String>>(1);
        std::thread::scope(|s| {
            let list = &list;
            let keep = sink.keep;
            s.spawn(move || {
                read_chunks(
                    input, source, buf, more, known, opts, format, list, keep, tx,
                )
            });
            for chunk in rx {
                match chunk {
                    Ok(c) => {
                        report.invalid_utf8 += c.invalid;
                        for piece in c.pieces {
                            report.skipped.extend(piece.skipped);
                            report.without_abstract += piece.without_abstract;
                            report.papers += piece.keys.len();
                            report.repeated += if keep == Keep::Titles {
                                sink.titles(piece.titles, &piece.keys)
                            } else {
                                sink.keyed(piece.papers, &piece.keys, &mut position)
                            };
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
                    return report;
                }
            }
            if buf.len() as u64 > opts.max_size {
                report.error = Some(too_big(opts));
                return report;
            }
        }
        let consumed = buf.len() as u64;
        let (text, invalid) = decode(buf);
        report.invalid_utf8 = invalid;
        let parsed = parse(&text, format);
        drop(text);
        let papers = papers_of(input, parsed, &mut report);
        report.repeated += sink.papers(papers, &mut position);
        sink.progress(consumed);
    }
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

/// Expands directories into their files.
fn expand(inputs: &[Input]) -> Vec<Result<Input, Report>> {
    let mut out = Vec::new();
    for input in inputs {
        match input {
            Input::Path(p) if p.is_dir() => match directory_files(p) {
                Ok(files) if files.is_empty() => out.push(Err(Report {
                    name: input.name(),
                    error: Some("a directory with no files paperboat reads".to_string()),
                    ..Report::default()
                })),
                Ok(files) => out.extend(files.into_iter().map(|f| Ok(Input::Path(f)))),
                Err(e) => out.push(Err(Report {
                    name: input.name(),
                    error: Some(e.to_string()),
                    ..Report::default()
                })),
            },
            other => out.push(Ok(other.clone())),
        }
    }
    out
}

/// Reads every input, handing papers to `out` as they come (made ready
/// for the matcher when `prepare`), and a report after each input. Inputs
/// that cannot be read are reported and the rest load.
pub fn stream(inputs: &[Input], opts: &Options, prepare: bool, out: &mut dyn FnMut(Event)) {
    let keep = if prepare {
        Keep::Prepared
    } else {
        Keep::Papers
    };
    stream_keeping(inputs, opts, keep, out);
}

/// What a load hands on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Keep {
    /// Papers.
    Papers,
    /// Papers, made ready for the matcher.
    Prepared,
    /// Only titles and ids, where the format allows ([`Event::Titles`]).
    Titles,
}

/// [`stream`], keeping what `keep` says.
fn stream_keeping(inputs: &[Input], opts: &Options, keep: Keep, out: &mut dyn FnMut(Event)) {
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
    let mut sink = Sink {
        dedup: Dedup::default(),
        keep,
        papers: 0,
        bytes: 0,
        total,
        out,
    };
    for item in items {
        let report = match item {
            Ok(input) => stream_one(&input, opts, &mut sink),
            Err(report) => report,
        };
        (sink.out)(Event::Report(report));
    }
}

/// Loads every input. Inputs that cannot be read are reported and the rest
/// load; it is an error only when no input yields a paper.
pub fn load(inputs: &[Input], opts: &Options) -> Result<Loaded, LoadError> {
    let mut corpus = Corpus::default();
    let reports = gather(inputs, opts, Keep::Papers, &mut |event, expected| {
        if let Some(Event::Papers(batch, _)) = event {
            corpus.push(batch);
        }
        // Room for the papers the rest of the input will likely hold, so
        // the corpus is not copied as it grows.
        if let Some(n) = expected
            && corpus.papers.capacity() == corpus.len()
        {
            corpus.papers.reserve(n.saturating_sub(corpus.len()));
        }
    });
    if corpus.is_empty() {
        return Err(LoadError::NoPapers(reports));
    }
    corpus.finish();
    Ok(Loaded {
        corpus,
        reports,
        key: corpus_key(inputs),
    })
}

/// [`load`] keeping only each paper's title and id: what `search` prints.
/// The papers are let go batch by batch, so a million of them are never
/// held at once (on 1M titles this halves the memory the load takes).
pub fn load_titles(
    inputs: &[Input],
    opts: &Options,
) -> Result<(TitleList, Vec<Report>), LoadError> {
    let mut list = TitleList::default();
    let reports = gather(inputs, opts, Keep::Titles, &mut |event, _| match event {
        Some(Event::Papers(batch, _)) => list.push(batch.papers),
        Some(Event::Titles(titles)) => list.append(titles, None),
        _ => {}
    });
    if list.is_empty() {
        return Err(LoadError::NoPapers(reports));
    }
    list.finish();
    Ok((list, reports))
}

/// Streams `inputs` into `keep`: each batch of new papers, and now and then
/// the papers the whole load will likely hold (a twentieth over the
/// estimate). Returns the reports.
fn gather(
    inputs: &[Input],
    opts: &Options,
    keep: Keep,
    take: &mut dyn FnMut(Option<Event>, Option<usize>),
) -> Vec<Report> {
    let mut reports = Vec::new();
    stream_keeping(inputs, opts, keep, &mut |e| match e {
        Event::Report(r) => reports.push(r),
        Event::Progress {
            bytes,
            total,
            papers,
        } => take(
            None,
            expected_papers(papers, bytes, total).map(|n| n + n / 20),
        ),
        papers => take(Some(papers), None),
    });
    reports
}

/// The bundled lists, loaded.
pub fn bundled() -> Loaded {
    let inputs: Vec<Input> = (0..BUNDLED.len()).map(Input::Bundled).collect();
    load(&inputs, &Options::default()).expect("the bundled lists always load")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load_text(name: &str, content: &[u8]) -> (Loaded, tempfile::TempDir) {
        load_in_chunks(name, content, Options::default().chunk)
    }

    /// [`load_text`], read `chunk` bytes at a time.
    fn load_in_chunks(name: &str, content: &[u8], chunk: usize) -> (Loaded, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        std::fs::write(&path, content).unwrap();
        let opts = Options {
            chunk,
            ..Options::default()
        };
        (load(&[Input::Path(path)], &opts).unwrap(), dir)
    }

    #[test]
    fn the_seed_lists_load_as_38_papers_in_two_lists_in_file_order() {
        let loaded = bundled();
        assert_eq!(loaded.corpus.len(), 38);
        assert_eq!(loaded.reports.len(), 2);
        assert_eq!(loaded.reports[0].papers, 19);
        assert_eq!(loaded.reports[1].papers, 19);
        assert!(loaded.reports.iter().all(|r| r.format == Some("text")));
        let papers = &loaded.corpus.papers;
        assert!(papers.iter().all(|p| &*p.source == "ICML 2026 论文列表"));
        assert!(
            papers[0]
                .abstract_text
                .text()
                .starts_with("Finding human-understandable circuits")
        );
        assert!(
            papers[19]
                .abstract_text
                .text()
                .starts_with("Pass@$k$ and other methods")
        );
        assert_eq!(papers[18].position, 18);
        assert_eq!(papers[19].position, 0);
        assert!(papers.iter().all(|p| p.title_derived && p.id.is_hash()));
    }

    #[test]
    fn reordering_and_adding_papers_changes_no_id() {
        let ids = |s: &str| {
            let (loaded, _d) = load_text("x.txt", s.as_bytes());
            loaded
                .corpus
                .papers
                .into_iter()
                .map(|p| (p.abstract_text.text().into_owned(), p.id))
                .collect::<std::collections::HashMap<_, _>>()
        };
        let a = ids("L\n\nFirst abstract.\n\nSecond abstract.");
        let b = ids("L\n\nNew one.\n\nSecond abstract.\n\nFirst abstract.");
        assert_eq!(a["First abstract."], b["First abstract."]);
        assert_eq!(a["Second abstract."], b["Second abstract."]);
    }

    #[test]
    fn a_file_without_a_header_is_named_after_the_file() {
        let (loaded, _d) = load_text("accepted.txt", b"One abstract.\n\nAnother abstract.");
        assert_eq!(&*loaded.corpus.papers[0].source, "accepted.txt");
    }

    #[test]
    fn formats_are_detected_from_content_with_the_extension_as_a_hint() {
        let cases: &[(&str, Option<Format>, Format)] = &[
            ("@article{k, title={T}}", None, Format::Bibtex),
            (
                "% comment\n\n@Misc (k, title = \"T\")",
                None,
                Format::Bibtex,
            ),
            ("TY  - JOUR\nTI  - T\nER  - \n", None, Format::Ris),
            ("FN Clarivate\nVR 1.0\nPT J\n", None, Format::Ris),
            ("[{\"title\": \"T\"}]", None, Format::Json),
            (
                "{\"title\": \"T\"}\n{\"title\": \"U\"}\n",
                Some(Format::Jsonl),
                Format::Jsonl,
            ),
            ("<?xml version=\"1.0\"?><feed/>", None, Format::Atom),
            ("title,abstract\nT,A\n", None, Format::Csv),
            ("Title\tAbstract\nT\tA\n", None, Format::Tsv),
            ("a,b\n1,2\n", Some(Format::Csv), Format::Csv),
            ("List\n\nAn abstract.\n\nAnother.", None, Format::Text),
            ("Title one\nTitle two\nTitle three\n", None, Format::Lines),
            ("Just one paragraph of text.", None, Format::Text),
        ];
        for (text, hint, want) in cases {
            assert_eq!(detect(text, *hint), *want, "{text:?}");
        }
    }

    #[test]
    fn bad_files_are_refused_by_name_and_the_rest_load() {
        let dir = tempfile::tempdir().unwrap();
        let good = dir.path().join("good.txt");
        std::fs::write(&good, "L\n\nAn abstract.\n\nAnother.").unwrap();
        let cases: Vec<(&str, Vec<u8>, &str)> = vec![
            ("empty.txt", b"\n  \n".to_vec(), "empty file"),
            ("pic.png", b"\x89PNG\r\n\x1a\nrest".to_vec(), "PNG image"),
            ("bin.txt", b"abc\x00def".to_vec(), "NUL byte"),
            (
                "doc.bib",
                b"@comment{nothing but a comment}".to_vec(),
                "no papers found (read as bibtex)",
            ),
        ];
        let mut inputs = vec![Input::Path(good)];
        for (name, bytes, _) in &cases {
            let p = dir.path().join(name);
            std::fs::write(&p, bytes).unwrap();
            inputs.push(Input::Path(p));
        }
        inputs.push(Input::Path(dir.path().join("missing.txt")));
        let loaded = load(&inputs, &Options::default()).unwrap();
        assert_eq!(loaded.corpus.len(), 2);
        for (k, (name, _, why)) in cases.iter().enumerate() {
            let r = &loaded.reports[k + 1];
            assert!(r.name.ends_with(name));
            assert!(r.error.as_deref().unwrap_or("").contains(why), "{r}");
        }
        assert!(
            loaded.reports[5]
                .to_string()
                .contains("missing.txt: No such file"),
            "{}",
            loaded.reports[5]
        );
        let err = load(&inputs[1..], &Options::default()).unwrap_err();
        assert!(err.to_string().contains("empty.txt: empty file"), "{err}");
    }

    #[test]
    fn the_size_limit() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("big.txt");
        std::fs::write(&p, "x".repeat(5000)).unwrap();
        let opts = Options {
            max_size: 1000,
            ..Options::default()
        };
        let err = load(&[Input::Path(p)], &opts).unwrap_err();
        assert!(err.to_string().contains("over the size limit"), "{err}");
    }

    #[test]
    fn utf16_and_invalid_utf8() {
        let mut utf16 = vec![0xff, 0xfe];
        for u in "L\n\nÜber abstracts.\n\nZwei.".encode_utf16() {
            utf16.extend_from_slice(&u.to_le_bytes());
        }
        let (loaded, _d) = load_text("u16.txt", &utf16);
        assert_eq!(loaded.corpus.len(), 2);
        assert_eq!(
            loaded.corpus.papers[0].abstract_text.text(),
            "Über abstracts."
        );
        let (loaded, _d) = load_text("bad.txt", b"L\n\nBad \xff\xfe bytes \xc3 here.\n\nFine.");
        assert_eq!(
            loaded.reports[0].invalid_utf8, 3,
            "\\xff, \\xfe and a cut-off \\xc3"
        );
        assert!(
            loaded.reports[0]
                .to_string()
                .contains("3 invalid UTF-8 sequences replaced")
        );
        assert!(
            loaded.corpus.papers[0]
                .abstract_text
                .text()
                .contains('\u{FFFD}')
        );
    }

    #[test]
    fn a_directory_loads_its_supported_files_and_papers_merge_across_files() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("a.bib"),
            "@article{x, title={Same Paper}, doi={10.1000/ABC}}",
        )
        .unwrap();
        std::fs::write(
            dir.path().join("b.ris"),
            "TY  - JOUR\nTI  - Same Paper\nDO  - 10.1000/abc\nER  - \n",
        )
        .unwrap();
        std::fs::write(dir.path().join("notes.png"), "ignored").unwrap();
        let loaded = load(
            &[Input::Path(dir.path().to_path_buf())],
            &Options::default(),
        )
        .unwrap();
        assert_eq!(loaded.reports.len(), 2);
        assert_eq!(loaded.corpus.len(), 1);
        let p = &loaded.corpus.papers[0];
        assert_eq!(p.id.as_str(), "doi:10.1000/abc");
        assert_eq!(&*p.source, "a.bib");
        assert_eq!(p.also_in, vec![Arc::<str>::from("b.ris")]);
        // The second file's report says its paper was listed already.
        assert_eq!(loaded.reports[0].repeated, 0);
        assert_eq!(loaded.reports[1].repeated, 1);
        assert!(
            loaded.reports[1]
                .to_string()
                .ends_with(", 1 listed already"),
            "{}",
            loaded.reports[1]
        );
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
    fn a_mapped_file_loads_as_its_text_parses() {
        // Over MAP_FROM: mapped, cut into small chunks; a byte-order mark,
        // a broken line and invalid UTF-8 on the way.
        let mut bytes = b"\xEF\xBB\xBF".to_vec();
        let mut n = 0;
        while bytes.len() < MAP_FROM as usize + 100_000 {
            n += 1;
            match n {
                7_000 => bytes.extend_from_slice(b"{\"title\": broken\n"),
                9_000 => bytes.extend_from_slice(b"{\"title\": \"Bad \xFF byte\"}\n"),
                _ => bytes.extend_from_slice(
                    format!("{{\"id\": \"2401.{n:05}\", \"title\": \"Paper {n} on sparse attention for long contexts\", \"abstract\": \"We study it.\"}}\n").as_bytes(),
                ),
            }
        }
        let (loaded, _dir) = load_in_chunks("big.jsonl", &bytes, 64 << 10);
        let report = &loaded.reports[0];
        assert_eq!(report.papers, n - 1);
        assert_eq!(report.invalid_utf8, 1);
        assert_eq!(report.skipped.len(), 1);
        assert_eq!(report.skipped[0].0, 7_000, "the broken line's number");
        let (text, _) = decode(bytes);
        let want: Vec<String> = parse(text.trim_start_matches('\u{feff}'), Format::Jsonl)
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

    proptest::proptest! {
        #[test]
        fn split_lines_is_split_on_line_ends(s in "[a\n\u{e9}\r]{0,20}") {
            proptest::prop_assert_eq!(
                split_lines(&s).collect::<Vec<_>>(),
                s.split('\n').collect::<Vec<_>>()
            );
        }
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
        while bytes.len() < MAP_FROM as usize + 200_000 {
            n += 1;
            let line = if n == 20_000 {
                // Invalid UTF-8: this piece is decoded, not left in place.
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
        let (loaded, _dir) = load_in_chunks("big.jsonl", &bytes, 1536 << 10);
        let report = &loaded.reports[0];
        assert_eq!(report.invalid_utf8, 1);

        let (text, _) = decode(bytes);
        let list: Arc<str> = "big.jsonl".into();
        let want: Vec<Paper> = parse(text.trim_start_matches('\u{feff}'), Format::Jsonl)
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
        // All but those of the piece with invalid UTF-8, which was decoded.
        assert!(in_file.len() < plain && in_file.len() > plain * 2 / 3);
        let at = |n: usize| {
            let id = format!("arxiv:2401.{n:05}");
            got.iter().find(|p| p.id.as_str() == id).unwrap()
        };
        assert!(matches!(at(11).abstract_text, Abstract::Json { .. }));
        for n in [19_998, 20_000, 20_009] {
            assert!(matches!(at(n).abstract_text, Abstract::Text(_)), "{n}");
        }
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
        while text.len() < MAP_FROM as usize + 900_000 {
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
            format: Some(Format::Lines),
            chunk: 1_500_000,
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
            }
        }
    }

    #[test]
    fn records_with_neither_title_nor_abstract_are_skipped_and_counted() {
        let (loaded, _d) = load_text("x.bib", b"@misc{a, title={Kept}}\n@misc{b, year={2020}}\n");
        let r = &loaded.reports[0];
        assert_eq!(r.papers, 1);
        assert_eq!(r.without_abstract, 1);
        assert_eq!(r.skipped, vec![(2, "no title and no abstract".to_string())]);
        assert_eq!(
            r.to_string(),
            format!(
                "{}: 1 paper, 1 without abstract, 1 skipped (line 2: no title and no abstract)",
                r.name
            )
        );
    }
}

#[cfg(test)]
mod props {
    use super::*;
    use proptest::prelude::*;

    /// Real files, cut to a size that keeps the test quick.
    fn samples() -> Vec<(Format, Vec<u8>)> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpora");
        let mut out = vec![(Format::Text, BUNDLED[0].1.as_bytes()[..4000].to_vec())];
        for (name, format) in [
            ("bib_mendeley_export_512.bib", Format::Bibtex),
            ("ris_lens_bom_100.ris", Format::Ris),
            ("arxiv-snapshot_wanng-ide.jsonl", Format::Jsonl),
            ("arxiv_atom_api_2026_astroph_63.xml", Format::Atom),
            ("tsv_csl_chinese_abstracts_dev.tsv", Format::Tsv),
        ] {
            let bytes = std::fs::read(dir.join(name)).unwrap_or_else(|e| {
                panic!(
                    "{}: {e} (tests/data/corpora)",
                    dir.join(name).display()
                )
            });
            out.push((format, bytes[..bytes.len().min(6000)].to_vec()));
        }
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn random_bytes_never_panic_any_loader(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
            let (text, _) = decode(bytes);
            for (format, _) in Format::ALL {
                let parsed = parse(&text, format);
                for r in parsed.records {
                    let _ = r.into_paper(&"p".into(), 0);
                }
            }
            let _ = detect(&text, None);
        }

        #[test]
        fn mutated_real_files_never_panic_their_loader(
            which in 0usize..6,
            edits in proptest::collection::vec((any::<u16>(), any::<u8>(), 0u8..3), 1..40),
        ) {
            let samples = samples();
            let (format, mut bytes) = samples[which].clone();
            for (pos, byte, op) in edits {
                if bytes.is_empty() {
                    break;
                }
                let at = pos as usize % bytes.len();
                match op {
                    0 => bytes[at] = byte,
                    1 => bytes.insert(at, byte),
                    _ => {
                        bytes.remove(at);
                    }
                }
            }
            let (text, _) = decode(bytes);
            for r in parse(&text, format).records.into_iter().chain(parse(&text, detect(&text, None)).records) {
                let _ = r.into_paper(&"p".into(), 0);
            }
        }
    }
}
