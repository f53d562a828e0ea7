//! JSON documents and JSON Lines, as exported by arXiv, Zotero, Semantic
//! Scholar and home-made scripts.
//!
//! Paper lists come as JSON in a handful of shapes: the arXiv metadata
//! snapshot (one object per line), CSL-JSON from Zotero (an array), API
//! responses that wrap an array (`{"data": […]}`), and plain
//! `{title, abstract, authors, url, year}` objects. This reader accepts all
//! of them without being told which: the shape is detected from the text,
//! and every object is read through one lenient set of field names (the
//! table on `JsonRecord` in record.rs) that tolerates a year given as a
//! number or a string, authors given as one string or a list of strings or
//! objects, and `null`s anywhere.
//!
//! **Detection.** After an optional byte-order mark and whitespace:
//! - `[` is a JSON document: an array of papers.
//! - `{` whose value spans the whole text is a JSON document: one paper,
//!   or a wrapper (below).
//! - `{` followed by more text after its closing brace is JSON Lines.
//! - Anything else, or a first value that does not parse, is JSON Lines
//!   when at least half of the first 50 non-blank lines are JSON objects on
//!   their own; otherwise it is a broken document.
//!
//! **Wrappers.** An object in a document (the whole document, or an array
//! element) wraps papers when it has no abstract field and one of
//! [`WRAPPER_KEYS`] holds a non-empty array or an object; the first such
//! key is read instead of the object, up to three levels down. This covers
//! Semantic Scholar's `{"total": …, "data": […]}`, Crossref's
//! `{"message": {"items": […]}}`, Zotero API items `[{"key": …, "data":
//! {…}}]`, and groups such as `[{"venue": …, "papers": […]}]`. A whole-file
//! wrapper's `title` or `name` becomes the list's name.
//!
//! **Errors.** A bad escape or a lone surrogate (`\ud800`), which serde_json
//! refuses, costs its string only: the record is read again with it made
//! U+FFFD (valid input is never read twice). In JSON Lines each bad line
//! is skipped alone. In a document, an array element that is valid JSON but
//! not a readable paper is skipped alone, and so is one with a syntax error
//! when its brackets balance or the next element starts a line where it
//! did; otherwise a syntax error ends the reading, keeping the papers
//! before it and reporting the error's line (and column, which matters for
//! minified one-line files).
//!
//! **Speed.** JSON Lines files can be the 1.8 GB arXiv snapshot, so
//! [`parse_line`] deserializes straight from the line into borrowed fields
//! and allocates only the strings of the finished [`Record`].

mod lenient;
mod lines;
mod members;
mod record;
mod titles;

use serde::Deserialize;
use serde::de::{self, IgnoredAny};
use serde_json::error::Category;

use self::lenient::{ObjectKey, Text};
use self::lines::{mostly_object_lines, parse_lines};
use self::record::JsonRecord;
use super::{Format, Reader, start};
use crate::corpus::Parsed;
use crate::corpus::json_string::repair_escapes;
pub use crate::corpus::json_string::string_paragraphs;
pub use lines::{looks_like_json_lines, parse_line, parse_line_deferring};
pub use titles::parse_line_titles;

/// Keys under which a wrapper object holds its papers, in no particular
/// priority: the first met in the object is used. `data` is Semantic
/// Scholar's (and the Zotero API's, per item), `message` and `items`
/// Crossref's; the others are common in home-made exports.
pub const WRAPPER_KEYS: &[&str] = &[
    "data", "papers", "results", "items", "records", "entries", "works", "message",
];

/// Keys that make an object a paper even when it has a wrapper key.
const ABSTRACT_KEYS: &[&str] = &[
    "abstract",
    "Abstract",
    "paperAbstract",
    "abstractNote",
    "summary",
];

/// How many levels of wrappers are looked into (Crossref's
/// `{"message": {"items": […]}}` is two, a Zotero API item list
/// `[{"key": …, "data": {…}}]` one).
const MAX_WRAPPER_DEPTH: u8 = 3;

/// How many non-blank lines the JSON Lines vote looks at.
const VOTE_LINES: usize = 50;

// ---------------------------------------------------------------------------
// Line numbers (also used by the Atom reader).

/// Turns byte offsets into 1-based line numbers (and byte columns). Cheap
/// for offsets that only grow; an offset behind the last one recounts from
/// the start.
#[derive(Default)]
pub(super) struct LineCounter {
    pos: usize,
    line: usize,
    line_start: usize,
}

impl LineCounter {
    /// The line and 1-based byte column of byte `pos` of `text`.
    pub(super) fn locate(&mut self, text: &str, pos: usize) -> (usize, usize) {
        let pos = pos.min(text.len());
        if pos < self.pos {
            *self = LineCounter::default();
        }
        let bytes = &text.as_bytes()[self.pos..pos];
        for (i, &b) in bytes.iter().enumerate() {
            if b == b'\n' {
                self.line += 1;
                self.line_start = self.pos + i + 1;
            }
        }
        self.pos = pos;
        (self.line + 1, pos - self.line_start + 1)
    }

    /// The line of byte `pos` of `text`.
    pub(super) fn line(&mut self, text: &str, pos: usize) -> usize {
        self.locate(text, pos).0
    }
}

// ---------------------------------------------------------------------------
// Errors.

/// A short reason for a serde_json error, with the column when known
/// (`at`), without serde_json's own "at line … column …".
fn describe(e: &serde_json::Error, column: Option<usize>) -> String {
    let full = e.to_string();
    let position = format!(" at line {} column {}", e.line(), e.column());
    let msg = full.strip_suffix(&position).unwrap_or(&full);
    let at = column
        .map(|c| format!(" at column {c}"))
        .unwrap_or_default();
    match e.classify() {
        Category::Eof => format!("truncated JSON{at}: {msg}"),
        Category::Syntax => format!("invalid JSON{at}: {msg}"),
        Category::Data | Category::Io => msg.to_string(),
    }
}

/// What kind of JSON value starts with `b`.
fn kind(b: u8) -> &'static str {
    match b {
        b'[' => "an array",
        b'"' => "a string",
        b't' | b'f' => "a boolean",
        b'n' => "null",
        _ => "a number",
    }
}

// ---------------------------------------------------------------------------
// JSON documents.

/// Why a document stopped being read: (line, reason).
type Stop = (usize, String);

/// Parses one JSON value of type `T` starting at byte `pos`; the offset
/// just past it.
fn value_at<'a, T: Deserialize<'a>>(
    body: &'a str,
    pos: usize,
) -> Result<(T, usize), serde_json::Error> {
    let mut stream = serde_json::Deserializer::from_str(&body[pos..]).into_iter::<T>();
    match stream.next() {
        Some(Ok(v)) => Ok((v, pos + stream.byte_offset())),
        Some(Err(e)) => Err(e),
        None => Err(de::Error::custom("EOF while parsing a value")),
    }
}

/// What a first pass over an object found.
struct Scan {
    /// The offset just past the object; `None` when the papers it wraps
    /// could not be skipped (a syntax error among them): reading them
    /// finds where they end, and the object's end after them.
    end: Option<usize>,
    /// Where the wrapped papers are (an array or an object), when the
    /// object is a wrapper.
    wrapped: Option<usize>,
    /// The object's `title` or `name`, the list's name if it is a wrapper.
    name: Option<String>,
}

struct Document<'a> {
    body: &'a str,
    lines: LineCounter,
    parsed: Parsed,
    /// Reading stopped before the end (see [`Document::stop`]).
    stopped: bool,
}

/// Where an array is read on from after a broken element.
enum Resume {
    /// Just past the element (a `,` or `]` follows).
    After(usize),
    /// At the next element.
    At(usize),
}

/// The offset just past the object or array that starts at `pos`, found by
/// its brackets alone (strings skipped, a line end taken to end a string as
/// in [`repair_escapes`]); `None` when they do not balance.
fn balanced_end(body: &str, pos: usize) -> Option<usize> {
    let b = body.as_bytes();
    let mut open: Vec<u8> = Vec::new();
    let mut in_string = false;
    let mut i = pos;
    while i < b.len() {
        let c = b[i];
        if in_string {
            match c {
                b'\\' if b.get(i + 1) != Some(&b'\n') => i += 1,
                b'"' | b'\n' => in_string = false,
                _ => {}
            }
        } else {
            match c {
                b'"' => in_string = true,
                b'{' => open.push(b'}'),
                b'[' => open.push(b']'),
                b'}' | b']' => {
                    if open.pop() != Some(c) {
                        return None;
                    }
                    if open.is_empty() {
                        return Some(i + 1);
                    }
                }
                _ => {}
            }
        }
        i += 1;
    }
    None
}

impl<'a> Document<'a> {
    fn byte(&self, pos: usize) -> Option<u8> {
        self.body.as_bytes().get(pos).copied()
    }

    fn skip_ws(&self, mut pos: usize) -> usize {
        while matches!(self.byte(pos), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            pos += 1;
        }
        pos
    }

    fn line(&mut self, pos: usize) -> usize {
        self.lines.line(self.body, pos)
    }

    /// A stop for a serde_json error met parsing from `base`.
    fn error(&mut self, base: usize, e: &serde_json::Error) -> Stop {
        let (line, column) = self.lines.locate(self.body, base);
        match e.line() {
            0 => (line, describe(e, Some(column))),
            1 => (
                line,
                describe(e, Some(column + e.column().saturating_sub(1))),
            ),
            n => (line + n - 1, describe(e, Some(e.column()))),
        }
    }

    /// A stop for a structural error of this scanner at `pos`.
    fn syntax(&mut self, pos: usize, what: &str) -> Stop {
        let (line, column) = self.lines.locate(self.body, pos);
        if pos >= self.body.len() {
            (line, format!("truncated JSON: {what}"))
        } else {
            (line, format!("invalid JSON at column {column}: {what}"))
        }
    }

    /// Checks the object at `pos` and finds out whether it wraps papers:
    /// it does when, `depth` levels down, it has no abstract field and one
    /// of [`WRAPPER_KEYS`] holds a non-empty array or an object.
    fn scan(&mut self, pos: usize, depth: u8) -> Result<Scan, Stop> {
        let (mut wrapped, mut name, mut has_abstract) = (None, None, false);
        let mut i = self.skip_ws(pos + 1);
        if self.byte(i) != Some(b'}') {
            loop {
                if self.byte(i) != Some(b'"') {
                    return Err(self.syntax(i, "expected a key in quotes"));
                }
                let (ObjectKey(key), end) =
                    value_at::<ObjectKey>(self.body, i).map_err(|e| self.error(i, &e))?;
                i = self.skip_ws(end);
                if self.byte(i) != Some(b':') {
                    return Err(self.syntax(i, "expected `:`"));
                }
                i = self.skip_ws(i + 1);
                has_abstract |= ABSTRACT_KEYS.contains(&&*key);
                if wrapped.is_none()
                    && depth < MAX_WRAPPER_DEPTH
                    && WRAPPER_KEYS.contains(&&*key)
                    && match self.byte(i) {
                        Some(b'[') => self.byte(self.skip_ws(i + 1)) != Some(b']'),
                        Some(b'{') => true,
                        _ => false,
                    }
                {
                    wrapped = Some(i);
                }
                let end = if name.is_none() && matches!(&*key, "title" | "name") {
                    let (text, end) =
                        value_at::<Text>(self.body, i).map_err(|e| self.error(i, &e))?;
                    name = text.into_folded();
                    end
                } else {
                    match value_at::<IgnoredAny>(self.body, i) {
                        Ok((_, end)) => end,
                        // A broken paper among those wrapped costs itself
                        // alone (they are read with the array's recovery),
                        // and a broken value after them costs none.
                        Err(_) if wrapped.is_some() && !has_abstract => {
                            return Ok(Scan {
                                end: None,
                                wrapped,
                                name,
                            });
                        }
                        Err(e) => return Err(self.error(i, &e)),
                    }
                };
                i = self.skip_ws(end);
                match self.byte(i) {
                    Some(b',') => {
                        i = self.skip_ws(i + 1);
                        // A trailing comma before `}` is forgiven.
                        if self.byte(i) == Some(b'}') {
                            break;
                        }
                    }
                    Some(b'}') => break,
                    _ => return Err(self.syntax(i, "expected `,` or `}`")),
                }
            }
        }
        Ok(Scan {
            end: Some(i + 1),
            wrapped: wrapped.filter(|_| !has_abstract),
            name,
        })
    }

    /// The offset just past the object whose wrapped papers end at `pos`:
    /// the keys after them skipped.
    fn rest_of_object(&mut self, pos: usize) -> Result<usize, Stop> {
        let mut i = self.skip_ws(pos);
        loop {
            match self.byte(i) {
                Some(b'}') => return Ok(i + 1),
                Some(b',') => {
                    i = self.skip_ws(i + 1);
                    if self.byte(i) == Some(b'}') {
                        return Ok(i + 1);
                    }
                    if self.byte(i) != Some(b'"') {
                        return Err(self.syntax(i, "expected a key in quotes"));
                    }
                    let (_, end) =
                        value_at::<IgnoredAny>(self.body, i).map_err(|e| self.error(i, &e))?;
                    i = self.skip_ws(end);
                    if self.byte(i) != Some(b':') {
                        return Err(self.syntax(i, "expected `:`"));
                    }
                    i = self.skip_ws(i + 1);
                    let (_, end) =
                        value_at::<IgnoredAny>(self.body, i).map_err(|e| self.error(i, &e))?;
                    i = self.skip_ws(end);
                }
                _ => return Err(self.syntax(i, "expected `,` or `}`")),
            }
        }
    }

    /// Reads the object at `pos` as scanned: the papers it wraps, or itself
    /// as a paper. The offset just past the object.
    fn read_object(&mut self, pos: usize, depth: u8, scan: &Scan) -> Result<usize, Stop> {
        let wrapped_end = match scan.wrapped {
            Some(at) if self.byte(at) == Some(b'[') => self.array(at, depth + 1)?,
            Some(at) => self.object(at, depth + 1)?,
            None => {
                self.paper(pos)?;
                return Ok(scan.end.unwrap_or(self.body.len()));
            }
        };
        match scan.end {
            Some(end) => Ok(end),
            None => self.rest_of_object(wrapped_end),
        }
    }

    /// Reads the object at `pos`; the offset just past it.
    fn object(&mut self, pos: usize, depth: u8) -> Result<usize, Stop> {
        let scan = self.scan(pos, depth)?;
        self.read_object(pos, depth, &scan)
    }

    /// Reads the object at `pos` as a paper.
    fn paper(&mut self, pos: usize) -> Result<(), Stop> {
        let line = self.line(pos);
        match value_at::<JsonRecord>(self.body, pos) {
            Ok((paper, _)) => self.parsed.records.push(paper.into_record(line)),
            // A bad escape (serde_json refuses some as data, some as
            // syntax) costs its string only.
            Err(_)
                if let Some(fixed) = balanced_end(self.body, pos)
                    .and_then(|end| repair_escapes(&self.body[pos..end]))
                    && let Ok(paper) = serde_json::from_str::<JsonRecord>(&fixed) =>
            {
                self.parsed.records.push(paper.into_record(line));
            }
            // Valid JSON that is not a readable paper: skipped alone.
            Err(e) if e.classify() == Category::Data => {
                self.parsed.skipped.push((line, describe(&e, None)));
            }
            Err(e) => return Err(self.error(pos, &e)),
        }
        Ok(())
    }

    /// Reads the array element at `pos`; the offset just past it.
    fn element(&mut self, pos: usize, depth: u8) -> Result<usize, Stop> {
        let first = self.byte(pos).unwrap_or(b' ');
        if first == b'{' {
            return self.object(pos, depth);
        }
        let line = self.line(pos);
        match value_at::<IgnoredAny>(self.body, pos) {
            Ok((_, end)) => {
                let reason = format!("not a JSON object ({})", kind(first));
                self.parsed.skipped.push((line, reason));
                Ok(end)
            }
            Err(e) => Err(self.error(pos, &e)),
        }
    }

    /// Reads the array at `pos`; the offset just past it.
    fn array(&mut self, pos: usize, depth: u8) -> Result<usize, Stop> {
        let mut i = self.skip_ws(pos + 1);
        if self.byte(i) == Some(b']') {
            return Ok(i + 1);
        }
        loop {
            if self.byte(i).is_none() {
                return Err(self.syntax(i, "the array is not closed"));
            }
            let end = match self.element(i, depth) {
                Ok(end) => end,
                Err(stop) => match self.recover(i, depth, stop)? {
                    Resume::After(end) => end,
                    Resume::At(next) => {
                        i = next;
                        continue;
                    }
                },
            };
            i = self.skip_ws(end);
            match self.byte(i) {
                Some(b',') => {
                    i = self.skip_ws(i + 1);
                    // A trailing comma before `]` is forgiven.
                    if self.byte(i) == Some(b']') {
                        return Ok(i + 1);
                    }
                }
                Some(b']') => return Ok(i + 1),
                None => return Err(self.syntax(i, "the array is not closed")),
                Some(_) => return Err(self.syntax(i, "expected `,` or `]`")),
            }
        }
    }

    /// After the array element at `pos` could not be read (`stop` says
    /// why): where to go on, so that a broken element costs itself alone.
    /// An element whose brackets balance is read again with its bad
    /// escapes made U+FFFD (see [`repair_escapes`]), or skipped; one whose
    /// brackets do not is skipped up to the next line that starts an
    /// object where it starts (as pretty-printed arrays are). `Err` when
    /// neither finds where the next element is.
    fn recover(&mut self, pos: usize, depth: u8, stop: Stop) -> Result<Resume, Stop> {
        if self.byte(pos) == Some(b'{')
            && let Some(end) = balanced_end(self.body, pos)
            && matches!(self.byte(self.skip_ws(end)), Some(b',' | b']'))
        {
            let read = repair_escapes(&self.body[pos..end]).and_then(|fixed| {
                let mut piece = Document {
                    body: &fixed,
                    lines: LineCounter::default(),
                    parsed: Parsed::default(),
                    stopped: false,
                };
                piece.object(0, depth).ok()?;
                Some(piece.parsed)
            });
            match read {
                Some(parsed) => {
                    // The piece's lines are the text's, counted from the
                    // element's.
                    let first = self.line(pos) - 1;
                    self.parsed
                        .records
                        .extend(parsed.records.into_iter().map(|mut r| {
                            r.line += first;
                            r
                        }));
                    self.parsed.skipped.extend(
                        parsed
                            .skipped
                            .into_iter()
                            .map(|(line, why)| (line + first, why)),
                    );
                }
                None => self.parsed.skipped.push(stop),
            }
            return Ok(Resume::After(end));
        }
        match self
            .next_at_column(pos)
            .or_else(|| self.next_paper_after(pos))
        {
            Some(next) => {
                self.parsed.skipped.push(stop);
                Ok(Resume::At(next))
            }
            None => Err(stop),
        }
    }

    /// In an array written on one line: the next `{` after `pos` that
    /// follows `},` and starts a paper (an object with a title or an
    /// abstract, followed by `,` or `]`). A paper's own objects (authors)
    /// are not papers, so they are passed over. At most 64 places are
    /// tried, so that a hostile text is not read again and again.
    fn next_paper_after(&self, pos: usize) -> Option<usize> {
        let b = self.body.as_bytes();
        let mut at = pos + 1;
        for _ in 0..64 {
            let k = at + memchr::memchr(b'{', b.get(at..)?)?;
            at = k + 1;
            let before = b[..k]
                .iter()
                .rev()
                .copied()
                .filter(|c| !c.is_ascii_whitespace())
                .take(2)
                .collect::<Vec<u8>>();
            if before != [b',', b'}'] {
                continue;
            }
            let Ok((paper, end)) = value_at::<JsonRecord>(self.body, k) else {
                continue;
            };
            let record = paper.into_record(0);
            if (record.title.is_some() || record.abstract_text.is_some())
                && matches!(self.byte(self.skip_ws(end)), Some(b',' | b']'))
            {
                return Some(k);
            }
        }
        None
    }

    /// The start of the next line after `pos`'s that starts with `{` at
    /// the column `pos` is at, when `pos` starts its line.
    fn next_at_column(&self, pos: usize) -> Option<usize> {
        let b = self.body.as_bytes();
        let line_start = b[..pos]
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |k| k + 1);
        let indent = &b[line_start..pos];
        if !indent.iter().all(|&c| c == b' ' || c == b'\t') {
            return None;
        }
        let mut at = pos;
        while let Some(k) = memchr::memchr(b'\n', &b[at..]) {
            let start = at + k + 1;
            let candidate = start + indent.len();
            if b.get(start..candidate) == Some(indent) && b.get(candidate) == Some(&b'{') {
                return Some(candidate);
            }
            at = start;
        }
        None
    }

    /// Records why reading stopped.
    fn stop(&mut self, (line, reason): Stop) {
        self.stopped = true;
        let reason = if self.parsed.records.is_empty() {
            reason
        } else {
            format!("{reason} (the rest of the file was not read)")
        };
        self.parsed.skipped.push((line, reason));
    }

    /// Complains about text after the document's value at `end`.
    fn trailing(&mut self, end: usize) {
        let at = self.skip_ws(end);
        if at < self.body.len() {
            let (line, column) = self.lines.locate(self.body, at);
            let reason =
                format!("text after the end of the JSON document (column {column}), not read");
            self.parsed.skipped.push((line, reason));
        }
    }
}

/// Parses a JSON document (array, object, or a wrapper holding an array) or
/// JSON Lines (one object per line) — detected from the text.
pub fn parse(text: &str) -> Parsed {
    let body = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let (parsed, stopped) = parse_body(body);
    // A document that stopped early may have stopped at a bad escape
    // outside any array element (in a wrapper, in a lone object): read
    // once more with bad escapes made U+FFFD, and keep what reads more.
    if stopped && let Some(fixed) = repair_escapes(body) {
        let (again, _) = parse_body(&fixed);
        if again.records.len() > parsed.records.len() {
            return again;
        }
    }
    parsed
}

/// [`parse`] of a body without a byte-order mark; whether it stopped
/// early.
fn parse_body(body: &str) -> (Parsed, bool) {
    let mut doc = Document {
        body,
        lines: LineCounter::default(),
        parsed: Parsed::default(),
        stopped: false,
    };
    let start = doc.skip_ws(0);
    match doc.byte(start) {
        None => {}
        Some(b'[') => match doc.array(start, 0) {
            Ok(end) => doc.trailing(end),
            Err(stop) => doc.stop(stop),
        },
        Some(b'{') => match doc.scan(start, 0) {
            Ok(Scan { end: Some(end), .. }) if doc.skip_ws(end) < body.len() => {
                return (parse_lines(body), false);
            }
            Ok(scan) => {
                if scan.wrapped.is_some() {
                    doc.parsed.header = scan.name.clone();
                }
                match doc.read_object(start, 0, &scan) {
                    Ok(end) if scan.end.is_none() => doc.trailing(end),
                    Ok(_) => {}
                    Err(stop) => doc.stop(stop),
                }
            }
            Err(_) if mostly_object_lines(body) => return (parse_lines(body), false),
            Err(stop) => doc.stop(stop),
        },
        Some(first) => {
            if mostly_object_lines(body) {
                return (parse_lines(body), false);
            }
            let line = doc.line(start);
            let stop = match value_at::<IgnoredAny>(body, start) {
                Ok(_) => (line, format!("{} is not a list of papers", kind(first))),
                Err(e) => doc.error(start, &e),
            };
            doc.stop(stop);
        }
    }
    (doc.parsed, doc.stopped)
}

/// A JSON document: an array of papers, an object wrapping one, or one
/// paper.
pub struct Json;

impl Reader for Json {
    fn name(&self) -> &'static str {
        "json"
    }

    fn about(&self) -> &'static str {
        "A JSON document"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["json"]
    }

    fn sniff(&self, head: &str, _hint: Option<Format>) -> bool {
        start(head).starts_with(['{', '['])
    }

    fn parse(&self, text: &str) -> Parsed {
        parse(text)
    }
}

/// JSON Lines: one paper object a line.
pub struct JsonLines;

impl Reader for JsonLines {
    fn name(&self) -> &'static str {
        "jsonl"
    }

    fn about(&self) -> &'static str {
        "JSON Lines"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["jsonl", "ndjson"]
    }

    /// JSON, hinted at as JSON Lines or looking like it (see
    /// [`looks_like_json_lines`]).
    fn sniff(&self, head: &str, hint: Option<Format>) -> bool {
        start(head).starts_with(['{', '['])
            && (hint == Some(Format::JSONL) || looks_like_json_lines(head))
    }

    fn parse(&self, text: &str) -> Parsed {
        parse(text)
    }

    fn line_oriented(&self) -> bool {
        true
    }

    fn defers_abstracts(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::record::arxiv_from_generic_id;
    use super::*;
    use crate::corpus::Record;
    use crate::corpus::fields::{arxiv_in, doi, is_arxiv_id, split_names, year_in};
    use crate::corpus::fold::fold_whitespace;

    /// The first line of the arXiv snapshot, as the snapshot writes it.
    const ARXIV_LINE: &str = r#"{"id":"0704.0001","submitter":"Pavel Nadolsky","authors":"C. Bal\\'azs, E. L. Berger, P. M. Nadolsky, C.-P. Yuan","title":"Calculation of prompt diphoton production cross sections at Tevatron and\n  LHC energies","comments":"37 pages, 15 figures; published version","journal-ref":"Phys.Rev.D76:013009,2007","doi":"10.1103/PhysRevD.76.013009","report-no":"ANL-HEP-PR-07-12","categories":"hep-ph","license":null,"abstract":"  A fully differential calculation in perturbative quantum chromodynamics is\npresented for the production of massive photon pairs at hadron colliders. All\nnext-to-leading order perturbative contributions from quark-antiquark,\ngluon-(anti)quark, and gluon-gluon subprocesses are included.\n","versions":[{"version":"v1","created":"Mon, 2 Apr 2007 19:18:42 GMT"},{"version":"v2","created":"Tue, 24 Jul 2007 20:10:27 GMT"}],"update_date":"2008-11-26","authors_parsed":[["Bal\u00e1zs","C.",""],["Berger","E. L.",""],["Nadolsky","P. M.",""],["Yuan","C. -P.",""]]}"#;

    fn one(text: &str) -> Record {
        let parsed = parse(text);
        assert!(parsed.skipped.is_empty(), "skipped: {:?}", parsed.skipped);
        assert_eq!(parsed.records.len(), 1, "{:?}", parsed.records);
        parsed.records.into_iter().next().unwrap()
    }

    #[test]
    fn csl_names_keep_their_parts() {
        let r = one(r#"[{"title": "T", "author": [
                {"family": "Beethoven", "given": "Ludwig", "non-dropping-particle": "van"},
                {"family": "García Márquez", "given": "Gabriel"},
                {"literal": "World Health Organization"},
                {"family": "King", "given": "Martin Luther", "suffix": "Jr."},
                "Ada Lovelace"
            ]}]"#);
        assert_eq!(
            r.authors,
            [
                "Ludwig van Beethoven",
                "Gabriel García Márquez",
                "World Health Organization",
                "Martin Luther King Jr.",
                "Ada Lovelace"
            ]
        );
        let parts: Vec<_> = r
            .authors
            .names()
            .map(|n| (n.particle, n.family, n.literal))
            .collect();
        assert_eq!(parts[0], ("van".into(), "Beethoven".into(), false));
        assert_eq!(parts[1], (String::new(), "García Márquez".into(), false));
        assert!(parts[2].2);
        assert_eq!(parts[3].1, "King");
        assert_eq!(parts[4].1, "Lovelace");
        // arXiv's triples keep no parts: told from the words.
        let r = one(r#"{"title": "T", "authors_parsed": [["Waals", "J. D. van der", ""]]}"#);
        assert_eq!(r.authors, ["J. D. van der Waals"]);
        assert_eq!(r.authors.encoded(), "J. D. van der Waals");
    }

    #[test]
    fn arxiv_snapshot_line() {
        let r = parse_line(ARXIV_LINE, 7).unwrap().unwrap();
        assert_eq!(r.line, 7);
        assert_eq!(
            r.title.as_deref(),
            Some(
                "Calculation of prompt diphoton production cross sections at Tevatron and LHC energies"
            )
        );
        let abs = r.abstract_text.unwrap();
        assert!(abs.starts_with("A fully differential calculation in perturbative quantum chromodynamics is presented for"));
        assert!(abs.ends_with("subprocesses are included."));
        assert!(!abs.contains("  ") && !abs.contains('\n'));
        // authors_parsed wins over the LaTeX-escaped string.
        assert_eq!(
            r.authors,
            ["C. Balázs", "E. L. Berger", "P. M. Nadolsky", "C. -P. Yuan"]
        );
        // The first version's date, not the last update.
        assert_eq!(r.year, Some(2007));
        assert_eq!(r.venue.as_deref(), Some("Phys.Rev.D76:013009,2007"));
        assert_eq!(r.doi.as_deref(), Some("10.1103/PhysRevD.76.013009"));
        assert_eq!(r.arxiv.as_deref(), Some("0704.0001"));
        assert!(r.urls.is_empty());
        assert_eq!(r.more.unwrap().categories, ["hep-ph"]);
    }

    #[test]
    fn categories_as_the_snapshot_and_the_export_write_them() {
        for (line, want) in [
            (
                r#"{"title":"T","categories":"cs.LG stat.ML"}"#,
                &["cs.LG", "stat.ML"][..],
            ),
            (
                r#"{"title":"T","categories":["math.OC","cs.LG"]}"#,
                &["math.OC", "cs.LG"],
            ),
            (
                r#"{"title":"T","categories":"cs.CL;cs.AI"}"#,
                &["cs.CL", "cs.AI"],
            ),
            (r#"{"title":"T","categories":[]}"#, &[]),
        ] {
            let r = parse_line(line, 1).unwrap().unwrap();
            let got = r.more.map(|m| m.categories).unwrap_or_default();
            assert_eq!(got, want, "{line}");
        }
    }

    #[test]
    fn arxiv_authors_string_is_split_when_unparsed() {
        let r = parse_line(
            r#"{"id":"hep-th/9901001","authors":"A. Smith, B. Jones and\n  C. Lee","title":"T","update_date":"2008-11-26"}"#,
            1,
        )
        .unwrap()
        .unwrap();
        assert_eq!(r.authors, ["A. Smith", "B. Jones", "C. Lee"]);
        assert_eq!(r.arxiv.as_deref(), Some("hep-th/9901001"));
        assert_eq!(r.year, Some(2008));
        assert_eq!(split_names("A, B, and C"), ["A", "B", "C"]);
        assert_eq!(split_names("Smith, J.; Lee, C."), ["Smith, J.", "Lee, C."]);
        // Affiliations after the third item of a parsed name are dropped.
        let r = parse_line(
            r#"{"authors_parsed":[["Mishchenko","A. S.","","1 and 2"],["Smith","John","Jr"]]}"#,
            1,
        )
        .unwrap()
        .unwrap();
        assert_eq!(r.authors, ["A. S. Mishchenko", "John Smith Jr"]);
    }

    #[test]
    fn csl_json_from_zotero() {
        let text = r#"[
  {
    "id": "http://zotero.org/users/1/items/ABCD",
    "type": "article-journal",
    "title": "Deep learning",
    "container-title": "Nature",
    "abstract": "Deep learning allows\n computational models.",
    "DOI": "10.1038/nature14539",
    "URL": "https://www.nature.com/articles/nature14539",
    "author": [
      {"family": "LeCun", "given": "Yann"},
      {"family": "Bengio", "given": "Yoshua"},
      {"literal": "Google Brain Team"}
    ],
    "issued": {"date-parts": [[2015, 5, 27]]}
  },
  {
    "id": "smith2020",
    "title": "Second",
    "issued": {"raw": "Spring 2020"},
    "author": [{"family": "Smith"}]
  },
  {
    "title": "Third",
    "issued": {"date-parts": [["2019"]]}
  }
]"#;
        let parsed = parse(text);
        assert!(parsed.skipped.is_empty(), "{:?}", parsed.skipped);
        assert_eq!(parsed.header, None);
        let [a, b, c] = &parsed.records[..] else {
            panic!("{:?}", parsed.records);
        };
        assert_eq!(a.line, 2);
        assert_eq!(a.title.as_deref(), Some("Deep learning"));
        assert_eq!(
            a.abstract_text.as_deref(),
            Some("Deep learning allows computational models.")
        );
        assert_eq!(
            a.authors,
            ["Yann LeCun", "Yoshua Bengio", "Google Brain Team"]
        );
        assert_eq!(a.year, Some(2015));
        assert_eq!(a.venue.as_deref(), Some("Nature"));
        assert_eq!(a.doi.as_deref(), Some("10.1038/nature14539"));
        assert_eq!(a.urls, ["https://www.nature.com/articles/nature14539"]);
        assert_eq!(a.arxiv, None, "a Zotero item URI is no arXiv id");
        assert_eq!(b.line, 17);
        assert_eq!(b.year, Some(2020));
        assert_eq!(b.authors, ["Smith"]);
        assert_eq!(b.arxiv, None);
        assert_eq!(c.line, 23);
        assert_eq!(c.year, Some(2019));
        assert_eq!(c.abstract_text, None);
    }

    #[test]
    fn semantic_scholar_data_wrapper() {
        let text = r#"{"total": 2, "offset": 0, "next": 2, "data": [
{"paperId": "649def34f8be52c8b66281af98ae884c09aef38b", "externalIds": {"ArXiv": "1706.03762", "DOI": "10.48550/arXiv.1706.03762", "CorpusId": 13756489}, "title": "Attention is All you Need", "abstract": null, "venue": "Neural Information Processing Systems", "year": 2017, "authors": [{"authorId": "40348417", "name": "Ashish Vaswani"}, {"authorId": "1846258", "name": "Noam M. Shazeer"}], "openAccessPdf": {"url": "https://arxiv.org/pdf/1706.03762", "status": "GREEN"}, "journal": {"name": "ArXiv", "volume": "abs/1706.03762"}},
{"paperId": "df2b0e26d0599ce3e70df8a9da02e51594e0e992", "externalIds": {"DOI": "10.18653/v1/N19-1423"}, "title": "BERT", "abstract": "We introduce a new language representation model called BERT.", "venue": "", "year": "2019", "journal": {"name": "North American Chapter"}, "authors": []}
]}"#;
        let parsed = parse(text);
        assert!(parsed.skipped.is_empty(), "{:?}", parsed.skipped);
        let [a, b] = &parsed.records[..] else {
            panic!("{:?}", parsed.records);
        };
        assert_eq!(a.line, 2);
        assert_eq!(a.title.as_deref(), Some("Attention is All you Need"));
        assert_eq!(a.abstract_text, None);
        assert_eq!(a.arxiv.as_deref(), Some("1706.03762"));
        assert_eq!(a.doi.as_deref(), Some("10.48550/arXiv.1706.03762"));
        assert_eq!(a.authors, ["Ashish Vaswani", "Noam M. Shazeer"]);
        assert_eq!(a.year, Some(2017));
        assert_eq!(
            a.venue.as_deref(),
            Some("Neural Information Processing Systems")
        );
        assert_eq!(a.urls, ["https://arxiv.org/pdf/1706.03762"]);
        assert_eq!(b.line, 3);
        assert_eq!(b.year, Some(2019));
        // An empty `venue` falls through to the journal object's name.
        assert_eq!(b.venue.as_deref(), Some("North American Chapter"));
        assert_eq!(b.arxiv, None);
        assert!(b.authors.is_empty());
    }

    #[test]
    fn other_wrappers() {
        for key in WRAPPER_KEYS {
            let text = format!(r#"{{"count": 1, "{key}": [{{"title": "A"}}, {{"title": "B"}}]}}"#);
            let parsed = parse(&text);
            assert_eq!(parsed.records.len(), 2, "{key}");
            assert!(parsed.skipped.is_empty());
        }
        // Crossref: {"message": {"items": [...]}}, titles as lists.
        let text = r#"{"status": "ok", "message": {"total-results": 1, "items": [
  {"title": ["A Crossref title"], "container-title": ["J. Things"], "DOI": "10.1/x",
   "author": [{"given": "Ann", "family": "Lee", "sequence": "first"}],
   "published": {"date-parts": [[2021, 3]]}}
]}}"#;
        let r = one(text);
        assert_eq!(r.title.as_deref(), Some("A Crossref title"));
        assert_eq!(r.venue.as_deref(), Some("J. Things"));
        assert_eq!(r.authors, ["Ann Lee"]);
        assert_eq!(r.year, Some(2021));
        assert_eq!(r.line, 2);
        // A single Crossref work: {"message": {...paper...}}.
        let r = one(r#"{"status": "ok", "message": {"title": ["Only"], "DOI": "10.1/y"}}"#);
        assert_eq!(r.title.as_deref(), Some("Only"));
        // An object with an abstract is a paper even with a `data` key, and
        // an empty wrapper array wraps nothing.
        let r = one(r#"{"title": "P", "abstract": "A.", "data": [{"title": "not a paper"}]}"#);
        assert_eq!(r.title.as_deref(), Some("P"));
        let r = one(r#"{"title": "Q", "items": []}"#);
        assert_eq!(r.title.as_deref(), Some("Q"));
        // A titled list: the title names the list.
        let parsed = parse(r#"{"name": "ICML picks", "papers": [{"title": "A"}, {"title": "B"}]}"#);
        assert_eq!(parsed.header.as_deref(), Some("ICML picks"));
        assert_eq!(parsed.records.len(), 2);
        let parsed = parse(r#"{"title": " My\n list ", "papers": [{"title": "A"}]}"#);
        assert_eq!(parsed.header.as_deref(), Some("My list"));
        assert_eq!(parsed.records[0].title.as_deref(), Some("A"));
        // A paper's title names no list.
        assert_eq!(parse(r#"{"title": "A"}"#).header, None);
    }

    #[test]
    fn zotero_api_items_and_groups() {
        let text = r#"[
  {"key": "ABCD2345", "version": 7, "library": {"type": "user", "id": 1},
   "meta": {"creatorSummary": "Lee", "parsedDate": "2020-05-01"},
   "data": {"key": "ABCD2345", "itemType": "journalArticle", "title": "Zotero item",
            "creators": [{"creatorType": "author", "firstName": "Ann", "lastName": "Lee"},
                         {"creatorType": "author", "name": "The Team"}],
            "abstractNote": "From the Zotero API.", "publicationTitle": "J. Z.",
            "date": "May 2020", "DOI": "10.9/z", "url": "https://example.org/z"}},
  {"venue": "Workshop", "year": 2018, "papers": [
    {"title": "Grouped one"},
    {"title": "Grouped two"}
  ]}
]"#;
        let parsed = parse(text);
        assert!(parsed.skipped.is_empty(), "{:?}", parsed.skipped);
        let [z, g1, g2] = &parsed.records[..] else {
            panic!("{:?}", parsed.records);
        };
        assert_eq!(z.line, 4);
        assert_eq!(z.title.as_deref(), Some("Zotero item"));
        assert_eq!(z.abstract_text.as_deref(), Some("From the Zotero API."));
        assert_eq!(z.authors, ["Ann Lee", "The Team"]);
        assert_eq!(z.venue.as_deref(), Some("J. Z."));
        assert_eq!(z.year, Some(2020));
        assert_eq!(z.doi.as_deref(), Some("10.9/z"));
        assert_eq!(z.urls, ["https://example.org/z"]);
        assert_eq!((g1.line, g1.title.as_deref()), (10, Some("Grouped one")));
        assert_eq!((g2.line, g2.title.as_deref()), (11, Some("Grouped two")));
        // Wrappers nest only so deep: the fourth level is read as a paper.
        let deep = r#"{"data": {"data": {"data": {"data": {"title": "too deep"}}}}}"#;
        let r = one(deep);
        assert_eq!(r.title, None);
    }

    #[test]
    fn plain_objects_and_variants() {
        let text = r#"[
{"title": "One", "abstract": "First.", "authors": ["A. Smith", "B. Jones"], "url": "https://example.org/1", "year": 2020},
{"Title": "Two", "Abstract": "Second.", "Authors": "C. Lee", "link": ["https://example.org/2", "https://example.org/2b"], "Year": "2021"},
{"title": "Three", "summary": "Third.", "doi": "https://doi.org/10.5555/ABC", "arxiv_id": "arXiv:2401.01234v2", "url": ["https://example.org/3", "https://example.org/3"]},
{"title": "  ", "summary": "\n  Only an abstract.  ", "link": [{"href": "https://example.org/4", "rel": "alternate"}], "year": 20.0},
{"abstract": "", "title": null, "year": true}
]"#;
        let parsed = parse(text);
        assert!(parsed.skipped.is_empty(), "{:?}", parsed.skipped);
        let [a, b, c, d, e] = &parsed.records[..] else {
            panic!("{:?}", parsed.records);
        };
        assert_eq!(
            (a.title.as_deref(), a.abstract_text.as_deref()),
            (Some("One"), Some("First."))
        );
        assert_eq!(a.authors, ["A. Smith", "B. Jones"]);
        assert_eq!(a.urls, ["https://example.org/1"]);
        assert_eq!(a.year, Some(2020));
        assert_eq!(
            (b.title.as_deref(), b.abstract_text.as_deref()),
            (Some("Two"), Some("Second."))
        );
        assert_eq!(b.authors, ["C. Lee"]);
        assert_eq!(b.urls, ["https://example.org/2", "https://example.org/2b"]);
        assert_eq!(b.year, Some(2021));
        assert_eq!(c.abstract_text.as_deref(), Some("Third."));
        assert_eq!(c.doi.as_deref(), Some("10.5555/ABC"));
        assert_eq!(c.arxiv.as_deref(), Some("arXiv:2401.01234v2"));
        assert_eq!(c.urls, ["https://example.org/3"]);
        assert_eq!(d.title, None);
        assert_eq!(d.abstract_text.as_deref(), Some("Only an abstract."));
        assert_eq!(d.urls, ["https://example.org/4"]);
        assert_eq!(d.year, None, "20 is no year");
        // Neither title nor abstract: still returned, for the caller to count.
        assert_eq!(
            (e.title.as_deref(), e.abstract_text.as_deref(), e.year),
            (None, None, None)
        );
        assert_eq!([a.line, b.line, c.line, d.line, e.line], [2, 3, 4, 5, 6]);
    }

    #[test]
    fn single_object_documents() {
        let r = one("\u{FEFF}{\n  \"title\": \"Alone\",\n  \"abstract\": \"Just one.\"\n}\n");
        assert_eq!(r.title.as_deref(), Some("Alone"));
        assert_eq!(r.line, 1);
        let r = one(r#"{"title": "One line"}"#);
        assert_eq!(r.title.as_deref(), Some("One line"));
        // An object with no known field is a paper with nothing in it.
        let r = one(r#"{"foo": [1, 2]}"#);
        assert_eq!((r.title, r.abstract_text), (None, None));
    }

    #[test]
    fn json_lines_with_a_broken_line() {
        let text = concat!(
            "{\"title\": \"First\", \"abstract\": \"A.\"}\n",
            "\n",
            "{\"title\": \"Broken\", \"abstract\": \"B.\"\n",
            "{\"title\": \"Third\"}\r\n",
            "[1, 2]\n",
            "not json at all\n",
            "  {\"title\": \"Fifth\", \"title\": \"twice\"}\n",
            "{\"abstract\": \"Last.\"} trailing\n",
            "{\"abstract\": \"Really last.\"}",
        );
        let parsed = parse(text);
        let got: Vec<(usize, Option<&str>)> = parsed
            .records
            .iter()
            .map(|r| (r.line, r.title.as_deref()))
            .collect();
        assert_eq!(got, [(1, Some("First")), (4, Some("Third")), (9, None)]);
        let lines: Vec<usize> = parsed.skipped.iter().map(|s| s.0).collect();
        assert_eq!(lines, [3, 5, 6, 7, 8], "{:?}", parsed.skipped);
        let reasons: Vec<&str> = parsed.skipped.iter().map(|s| s.1.as_str()).collect();
        assert_eq!(
            reasons[0],
            "truncated JSON at column 36: EOF while parsing an object"
        );
        assert_eq!(reasons[1], "not a JSON object (an array)");
        assert_eq!(reasons[2], "not JSON");
        assert_eq!(reasons[3], "duplicate field `title`");
        assert_eq!(reasons[4], "invalid JSON at column 23: trailing characters");
    }

    #[test]
    fn json_lines_whose_first_line_is_broken() {
        let text = "{\"title\": \"cut\n{\"title\": \"B\"}\n{\"title\": \"C\"}\n";
        let parsed = parse(text);
        assert_eq!(parsed.records.len(), 2);
        assert_eq!(parsed.records[0].line, 2);
        assert_eq!(parsed.skipped.len(), 1);
        assert_eq!(parsed.skipped[0].0, 1);
        let parsed = parse("garbage\n{\"title\": \"B\"}\n");
        assert_eq!(parsed.records.len(), 1);
        assert_eq!(parsed.skipped, [(1, "not JSON".to_string())]);
    }

    #[test]
    fn parse_line_cases() {
        assert!(matches!(parse_line("", 1), Ok(None)));
        assert!(matches!(parse_line("  \r", 1), Ok(None)));
        assert_eq!(
            parse_line("42", 1).unwrap_err(),
            "not a JSON object (a number)"
        );
        assert_eq!(
            parse_line("\"x\"", 1).unwrap_err(),
            "not a JSON object (a string)"
        );
        assert_eq!(
            parse_line("null", 1).unwrap_err(),
            "not a JSON object (null)"
        );
        assert_eq!(
            parse_line("{\"a\": tru}", 1).unwrap_err(),
            "invalid JSON at column 10: expected ident"
        );
        let r = parse_line("{}", 3).unwrap().unwrap();
        assert_eq!(r.line, 3);
        assert!(r.title.is_none() && r.authors.is_empty());
    }

    #[test]
    fn broken_documents() {
        // Does not parse at all: one entry at the error's line.
        let parsed = parse("{\n  \"title\": \"x\",\n  \"abstract\": oops\n}\n");
        assert!(parsed.records.is_empty());
        assert_eq!(parsed.skipped.len(), 1, "{:?}", parsed.skipped);
        assert_eq!(parsed.skipped[0].0, 3);
        assert!(
            parsed.skipped[0].1.starts_with("invalid JSON at column 15"),
            "{:?}",
            parsed.skipped
        );
        // An error inside an array element costs that element: what
        // comes before and after it is read.
        let parsed =
            parse("[\n{\"title\": \"A\"},\n{\"title\": \"B\",\n \"x\": }\n,{\"title\": \"C\"}]");
        assert_eq!(parsed.records.len(), 2);
        assert_eq!(parsed.records[1].title.as_deref(), Some("C"));
        assert_eq!(parsed.skipped.len(), 1);
        assert_eq!(parsed.skipped[0].0, 4);
        assert!(
            parsed.skipped[0].1.starts_with("invalid JSON"),
            "{:?}",
            parsed.skipped
        );
        // Brackets that do not balance: the next object that starts a
        // line where the broken one did is the next element.
        let parsed = parse(
            "[\n  {\"title\": \"A\"},\n  {\"title\": \"B\", \"x\": [1, 2},\n  {\"title\": \"C\"}\n]",
        );
        let titles: Vec<_> = parsed.records.iter().map(|r| r.title.clone()).collect();
        assert_eq!(titles, [Some("A".into()), Some("C".into())]);
        assert_eq!(parsed.skipped.len(), 1);
        assert_eq!(parsed.skipped[0].0, 3);
        // The same inside a wrapper object (Semantic Scholar's `data`):
        // a broken paper costs itself, the keys after the papers are
        // skipped as before.
        let parsed = parse(
            "{\"total\": 3, \"data\": [\n  {\"title\": \"A\"},\n  {\"title\": \"B\", \"x\": [1, 2},\n  {\"title\": \"C\", \"x\": }\n  ,{\"title\": \"D\"}\n], \"next\": 100}\n",
        );
        let titles: Vec<_> = parsed.records.iter().map(|r| r.title.clone()).collect();
        assert_eq!(titles, [Some("A".into()), Some("D".into())]);
        let lines: Vec<usize> = parsed.skipped.iter().map(|(l, _)| *l).collect();
        assert_eq!(lines, [3, 4], "{:?}", parsed.skipped);
        let parsed = parse("{\"data\": [{\"title\": \"A\"}, {\"title\": \"B\"}], \"next\": }");
        assert_eq!(parsed.records.len(), 2);
        assert_eq!(parsed.skipped.len(), 1, "{:?}", parsed.skipped);
        // Minified, an element whose brackets do not balance costs
        // itself: the next paper after a `},` is the next element, and a
        // paper's own objects (its authors) are not taken for papers.
        let parsed = parse(
            "[{\"title\": \"A\"},{\"title\": \"B\", \"author\": [{\"family\": \"X\"},{\"family\": \"Y\"}], \"x\": [1},{\"title\": \"C\"},{\"title\": \"D\"}]",
        );
        let titles: Vec<_> = parsed.records.iter().map(|r| r.title.clone()).collect();
        assert_eq!(
            titles,
            [Some("A".into()), Some("C".into()), Some("D".into())]
        );
        assert_eq!(parsed.skipped.len(), 1, "{:?}", parsed.skipped);
        // With no paper after it, the reading ends there, keeping what
        // came before.
        let parsed = parse("[{\"title\": \"A\"},{\"title\": \"B\", \"x\": [1}]");
        assert_eq!(parsed.records.len(), 1);
        assert!(
            parsed.skipped[0]
                .1
                .ends_with("(the rest of the file was not read)")
        );
        // A truncated array.
        let parsed = parse("[{\"title\": \"A\"}, {\"title\": \"B\"}");
        assert_eq!(parsed.records.len(), 2);
        assert_eq!(
            parsed.skipped,
            [(
                1,
                "truncated JSON: the array is not closed (the rest of the file was not read)"
                    .to_string()
            )]
        );
        // Elements that are not objects are skipped alone; a minified file
        // reports columns.
        let parsed =
            parse(r#"[{"title":"A"},7,"s",[],null,{"title":"B","title":"C"},{"title":"D"},]"#);
        let titles: Vec<_> = parsed
            .records
            .iter()
            .map(|r| r.title.clone().unwrap())
            .collect();
        assert_eq!(titles, ["A", "D"]);
        assert_eq!(parsed.skipped.len(), 5, "{:?}", parsed.skipped);
        assert_eq!(
            parsed.skipped[0],
            (1, "not a JSON object (a number)".to_string())
        );
        assert_eq!(
            parsed.skipped[4],
            (1, "duplicate field `title`".to_string())
        );
        // Text after the document.
        let parsed = parse("[{\"title\": \"A\"}]\n]");
        assert_eq!(parsed.records.len(), 1);
        assert_eq!(
            parsed.skipped,
            [(
                2,
                "text after the end of the JSON document (column 1), not read".to_string()
            )]
        );
        // A bare scalar.
        let parsed = parse("  \"just a string\"  ");
        assert_eq!(
            parsed.skipped,
            [(1, "a string is not a list of papers".to_string())]
        );
        let parsed = parse("[1, 2");
        assert_eq!(parsed.skipped.len(), 3);
        assert!(parse("").records.is_empty() && parse(" \n ").skipped.is_empty());
    }

    #[test]
    fn a_bad_escape_costs_its_string_only() {
        // A lone surrogate in an array: the record is read, the surrogate
        // is U+FFFD, and the records after it are read too.
        let text = "[\n  {\"title\": \"A\", \"abstract\": \"x \\ud800 y\"},\n  {\"title\": \"B\\q\"},\n  {\"title\": \"C\"}\n]";
        let parsed = parse(text);
        assert!(parsed.skipped.is_empty(), "{:?}", parsed.skipped);
        let titles: Vec<_> = parsed
            .records
            .iter()
            .map(|r| r.title.clone().unwrap())
            .collect();
        assert_eq!(titles, ["A", "B\u{fffd}", "C"]);
        assert_eq!(
            parsed.records[0].abstract_text.as_deref(),
            Some("x \u{fffd} y")
        );
        assert_eq!(
            parsed.records.iter().map(|r| r.line).collect::<Vec<_>>(),
            [2, 3, 4]
        );
        // Minified, and in a wrapper.
        let parsed = parse(r#"{"data": [{"title": "A\udc00"}, {"title": "B"}]}"#);
        let titles: Vec<_> = parsed
            .records
            .iter()
            .map(|r| r.title.clone().unwrap())
            .collect();
        assert_eq!(titles, ["A\u{fffd}", "B"]);
        // One object alone.
        assert_eq!(
            one(r#"{"title": "\ud800"}"#).title.as_deref(),
            Some("\u{fffd}")
        );
        // In JSON Lines, the line is read (its abstract decoded, not left
        // in the file).
        let (r, plain) = parse_line_deferring(r#"{"title": "T", "abstract": "a\ud800b"}"#, 5)
            .unwrap()
            .unwrap();
        assert!(plain.is_none());
        assert_eq!(r.abstract_text.as_deref(), Some("a\u{fffd}b"));
        assert_eq!(r.line, 5);
        let parsed = parse("{\"title\": \"A\"}\n{\"title\": \"\\ud800\"}\n{\"title\": \"C\"}\n");
        assert_eq!(parsed.records.len(), 3);
        assert!(parsed.skipped.is_empty());
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        let parsed = parse(&deep);
        assert!(parsed.records.is_empty());
        let line = format!(
            r#"{{"title": {}"x"{}}}"#,
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        assert!(parse_line(&line, 1).is_err());
        let wrapped = format!(r#"{{"data": {}}}"#, "[".repeat(50_000));
        assert!(!parse(&wrapped).skipped.is_empty());
    }

    #[test]
    fn ids() {
        for id in [
            "2401.01234",
            "2401.01234v2",
            "0704.0001",
            "hep-th/9901001",
            "math.CO/0601001v1",
        ] {
            assert!(is_arxiv_id(id), "{id}");
        }
        for id in [
            "smith2020",
            "W2741809807",
            "10.1/x",
            "2401.123",
            "HEP/9901001",
            "v2",
            "",
        ] {
            assert!(!is_arxiv_id(id), "{id}");
        }
        assert_eq!(
            arxiv_from_generic_id("https://arxiv.org/abs/2401.01234v1").as_deref(),
            Some("2401.01234v1")
        );
        assert_eq!(
            arxiv_from_generic_id("arXiv:2401.01234").as_deref(),
            Some("arXiv:2401.01234")
        );
        assert_eq!(
            arxiv_in("http://arxiv.org/pdf/2401.01234v1.pdf", false).as_deref(),
            Some("2401.01234v1")
        );
        assert_eq!(doi("DOI:10.1/X").as_deref(), Some("10.1/X"));
        assert_eq!(doi("https://DX.doi.org/10.1/X").as_deref(), Some("10.1/X"));
        assert_eq!(year_in("Mon, 2 Apr 2007 19:18:42 GMT"), Some(2007));
        assert_eq!(year_in("12345 0999 x"), None);
    }

    #[test]
    fn line_counter() {
        let text = "a\nbb\n\nc";
        let mut lines = LineCounter::default();
        assert_eq!(lines.locate(text, 0), (1, 1));
        assert_eq!(lines.locate(text, 3), (2, 2));
        assert_eq!(lines.locate(text, 6), (4, 1));
        assert_eq!(lines.locate(text, 2), (2, 1));
        assert_eq!(lines.locate(text, 99), (4, 2));
    }

    // -- Real files -----------------------------------------------------------

    fn corpus(name: &str) -> String {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/corpora/");
        let path = format!("{dir}{name}");
        std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!("the real-corpus test needs {path} (tests/data/corpora): {e}")
        })
    }

    /// (records, with a title, with an abstract, with neither).
    fn counts(parsed: &Parsed) -> (usize, usize, usize, usize) {
        let r = &parsed.records;
        (
            r.len(),
            r.iter().filter(|r| r.title.is_some()).count(),
            r.iter().filter(|r| r.abstract_text.is_some()).count(),
            r.iter()
                .filter(|r| r.title.is_none() && r.abstract_text.is_none())
                .count(),
        )
    }

    #[test]
    fn real_arxiv_snapshot() {
        let parsed = parse(&corpus("arxiv-snapshot_wanng-ide.jsonl"));
        assert_eq!(counts(&parsed), (200, 200, 200, 0));
        assert!(parsed.skipped.is_empty(), "{:?}", parsed.skipped);
        let lines: Vec<usize> = parsed.records.iter().map(|r| r.line).collect();
        assert_eq!(lines, (1..=200).collect::<Vec<_>>());
        assert!(
            parsed
                .records
                .iter()
                .all(|r| r.arxiv.is_some() && r.year == Some(2007))
        );
        assert_eq!(
            parsed.records.iter().filter(|r| r.doi.is_some()).count(),
            117
        );
        assert_eq!(
            parsed.records.iter().filter(|r| r.venue.is_some()).count(),
            109
        );
        assert!(parsed.records.iter().all(|r| !r.authors.is_empty()));
        let last = &parsed.records[199];
        assert_eq!(last.arxiv.as_deref(), Some("0704.0200"));
        for r in &parsed.records {
            for text in [&r.title, &r.abstract_text].into_iter().flatten() {
                assert!(!text.contains('\n') && !text.contains("  ") && text.trim() == text);
            }
        }
    }

    #[test]
    fn real_asreview_jsonl() {
        let parsed = parse(&corpus("jsonl_asreview_title_abstract_100.jsonl"));
        // One record has "abstract": null.
        assert_eq!(counts(&parsed), (100, 100, 99, 0));
        assert!(parsed.skipped.is_empty(), "{:?}", parsed.skipped);
        assert_eq!(parsed.records[70].line, 71);
        assert_eq!(parsed.records[70].abstract_text, None);
        // OpenAlex's open_access.oa_url is taken as a link.
        assert!(parsed.records.iter().all(|r| r.urls.len() <= 1));
        assert_eq!(
            parsed.records[0].urls,
            ["https://bmjopen.bmj.com/content/bmjopen/9/12/e032483.full.pdf"]
        );
    }

    // -- Robustness -----------------------------------------------------------

    mod props {
        use super::*;
        use proptest::prelude::*;

        fn check(text: &str) {
            let parsed = parse(text);
            let lines = text.split('\n').count();
            for r in &parsed.records {
                assert!((1..=lines).contains(&r.line));
            }
            for (line, reason) in &parsed.skipped {
                assert!((1..=lines).contains(line));
                assert!(!reason.is_empty());
            }
        }

        proptest! {
            #[test]
            fn random_text_never_panics(text in "\\PC*") {
                check(&text);
                let _ = parse_line(&text, 1);
            }

            #[test]
            fn folding_matches_split_whitespace(text in "[a \\t\\n\\r\u{a0}\u{3000}\u{2028}é中]{0,40}") {
                let words: Vec<&str> = text.split_whitespace().collect();
                prop_assert_eq!(fold_whitespace(&text), words.join(" "));
            }

            #[test]
            fn json_like_text_never_panics(text in "[\\[\\]{}\",:0-9a-z \\n\\\\]{0,200}") {
                check(&text);
                let _ = parse_line(&text, 1);
            }

            #[test]
            fn mutated_records_never_panic(
                edits in proptest::collection::vec((any::<usize>(), any::<u8>(), 0u8..3), 1..8),
                as_array in any::<bool>(),
            ) {
                let base = if as_array {
                    format!("[\n{ARXIV_LINE},\n{ARXIV_LINE}\n]")
                } else {
                    format!("{ARXIV_LINE}\n{ARXIV_LINE}\n")
                };
                let mut bytes = base.into_bytes();
                crate::corpus::readers::mutate(&mut bytes, &edits);
                let text = String::from_utf8_lossy(&bytes);
                check(&text);
                for (i, line) in text.split('\n').enumerate() {
                    let _ = parse_line(line, i + 1);
                }
            }
        }
    }
}
