//! OpenReview's notes, as its API answers and as lists built on it are
//! saved: where a researcher gets a conference's papers (ICML, ICLR,
//! NeurIPS all review there).
//!
//! ```text
//! {"notes": [                                     ← API v2 (or v1), or a bare list,
//!   {"id": "frA0NNBS1n", "forum": "frA0NNBS1n",     or one note a line (JSON Lines,
//!    "content": {"title": {"value": "…"},           as `paperboat fetch` writes)
//!                "abstract": {"value": "…"},      ← v1 writes the values plainly
//!                "authors": {"value": ["…"]},
//!                "keywords": …, "venue": …, "venueid": …, "pdf": …},
//!    "invitations": ["ICML.cc/2024/Conference/-/Submission"],
//!    "cdate": 1706745600000},
//!   {"id": "x1", "forum": "frA0NNBS1n", "replyto": "frA0NNBS1n", …}   ← a review: skipped
//! ], "count": 2}
//!
//! {"https://openreview.net/forum?id=frA0NNBS1n": {"title": …, "abstract": …, "authors": …}}
//!                                                 ← an accepted-paper list keyed by forum
//! ```
//!
//! Notes are found wherever a list holds them: at the top, in the API's
//! `notes`, or in a crawler's wrappers (`[{"venue": …, "year": …,
//! "submissions": [note, …]}]`, whose venue and year are the notes'
//! when they give none). Only submissions are papers: a note that replies
//! to another (`replyto`), belongs to another's forum, revises one
//! (`referent`) or was deleted (`ddate`) is counted as skipped, with its
//! kind (`Official_Review`, from its invitation). A paper is known by its
//! forum id (`openreview:frA0NNBS1n`) unless it gives an arXiv id or DOI;
//! its forum and PDF links are its links; its year is read from its
//! venue (`ICML 2024 Oral`), else its venue id (`ICML.cc/2024/Conference`),
//! else the wrapper's, else the note's publication or creation time. An
//! object keyed by forum links has each value read as any JSON paper
//! object is (see the `json` reader), its forum from its key.
//!
//! The file is read as a stream of JSON values, so a document and JSON
//! Lines read alike; a value that does not parse costs its line, and the
//! reading goes on at the next line.

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

use super::json::{LineCounter, parse_line};
use super::{Format, Reader, start};
use crate::corpus::fields::{arxiv_in, doi, forum_in, is_forum_id, year_in};
use crate::corpus::fold::{fold_whitespace, folded};
use crate::corpus::{More, Parsed, Record};

/// The site a note's relative links (`/pdf/…`) are on.
const SITE: &str = "https://openreview.net";

/// Keys of a wrapper that hold notes (a crawler's or an API answer's).
const NOTE_LISTS: &[&str] = &["notes", "submissions", "papers", "data", "results"];

/// How many wrappers deep notes are looked for.
const MAX_DEPTH: u8 = 4;

/// What a wrapper lends the notes inside it.
#[derive(Clone, Default)]
struct Context {
    venue: Option<String>,
    year: Option<i32>,
}

/// The reading of one input.
struct Notes<'a> {
    text: &'a str,
    lines: LineCounter,
    parsed: Parsed,
}

impl<'a> Notes<'a> {
    /// The 1-based line of a value of `self.text`.
    fn line_of(&mut self, raw: &RawValue) -> usize {
        let at = (raw.get().as_ptr() as usize).saturating_sub(self.text.as_ptr() as usize);
        self.lines.line(self.text, at)
    }

    fn skip(&mut self, line: usize, reason: String) {
        self.parsed.skipped.push((line, reason));
    }

    /// Reads a top-level value, or one inside a wrapper `depth` deep.
    fn value(&mut self, raw: &'a RawValue, context: &Context, depth: u8) {
        let line = self.line_of(raw);
        match raw.get().as_bytes().first() {
            Some(b'[') => match serde_json::from_str::<Vec<&RawValue>>(raw.get()) {
                Ok(items) => {
                    for item in items {
                        self.value(item, context, depth);
                    }
                }
                Err(e) => self.skip(line, format!("invalid JSON: {e}")),
            },
            Some(b'{') => self.object(raw, line, context, depth),
            _ => self.skip(line, "not a note or a list of notes".into()),
        }
    }

    fn object(&mut self, raw: &'a RawValue, line: usize, context: &Context, depth: u8) {
        let members: Members = match serde_json::from_str(raw.get()) {
            Ok(m) => m,
            Err(e) => return self.skip(line, format!("invalid JSON: {e}")),
        };
        let has = |k: &str| members.0.iter().any(|(key, _)| key == k);
        if has("content") {
            return self.note(raw, line, context);
        }
        // An accepted-paper list keyed by forum links.
        if members.0.iter().any(|(k, _)| forum_in(k).is_some()) {
            for (key, value) in &members.0 {
                let line = self.line_of(value);
                match forum_in(key) {
                    Some(forum) => self.keyed(forum, value, line, context),
                    None => self.skip(
                        line,
                        format!("`{}` is no OpenReview forum link", fold_whitespace(key)),
                    ),
                }
            }
            return;
        }
        // The lists of notes it holds: under a key known for them, or
        // any list of objects with a `content` (a crawler's `reviews`).
        let lists: Vec<&&RawValue> = members
            .0
            .iter()
            .filter(|(k, v)| {
                v.get().starts_with('[')
                    && (NOTE_LISTS.contains(&k.as_str()) || v.get().contains("\"content\""))
            })
            .map(|(_, v)| v)
            .collect();
        if lists.is_empty() || depth >= MAX_DEPTH {
            return self.skip(line, "not an OpenReview note (no `content`)".into());
        }
        let mut inner = context.clone();
        for (key, value) in &members.0 {
            match key.as_str() {
                "venue" | "conference" => {
                    if let Ok(text) = serde_json::from_str::<String>(value.get()) {
                        inner.venue = folded(&text).or(inner.venue.take());
                    }
                }
                "year" => inner.year = year_of(value).or(inner.year),
                _ => {}
            }
        }
        for list in lists {
            self.value(list, &inner, depth + 1);
        }
    }

    /// A value of a list keyed by forum links: a paper object, or a note.
    fn keyed(&mut self, forum: &str, value: &'a RawValue, line: usize, context: &Context) {
        if value.get().contains("\"content\"")
            && let Ok(m) = serde_json::from_str::<Members>(value.get())
            && m.0.iter().any(|(k, _)| k == "content")
        {
            return self.note_with_forum(value, line, context, Some(forum));
        }
        match parse_line(value.get(), line) {
            Ok(Some(mut record)) => {
                record.more_mut().forum = Some(forum.to_string());
                fill_from_context(&mut record, context);
                self.parsed.records.push(record);
            }
            Ok(None) => self.skip(line, "not a paper object".into()),
            Err(reason) => self.skip(line, reason),
        }
    }

    fn note(&mut self, raw: &'a RawValue, line: usize, context: &Context) {
        self.note_with_forum(raw, line, context, None);
    }

    fn note_with_forum(
        &mut self,
        raw: &'a RawValue,
        line: usize,
        context: &Context,
        forum: Option<&str>,
    ) {
        let note: Note = match serde_json::from_str(raw.get()) {
            Ok(n) => n,
            Err(e) => return self.skip(line, format!("not an OpenReview note: {e}")),
        };
        if let Some(kind) = note.not_a_submission() {
            return self.skip(line, format!("not a submission ({kind})"));
        }
        let mut record = note.record(line, context);
        if let Some(forum) = forum {
            record.more_mut().forum = Some(forum.to_string());
        }
        self.parsed.records.push(record);
    }
}

/// An object's members in order, values as written.
struct Members<'a>(Vec<(String, &'a RawValue)>);

impl<'de: 'a, 'a> Deserialize<'de> for Members<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Members<'de>;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = map.next_entry::<String, &'de RawValue>()? {
                    out.push((k, v));
                }
                Ok(Members(out))
            }
        }
        d.deserialize_map(Visit)
    }
}

/// The parts of a note read here; `content` as written (v2 wraps each
/// value as `{"value": …}`, v1 does not).
#[derive(Deserialize, Default)]
#[serde(default)]
struct Note {
    id: Option<String>,
    forum: Option<String>,
    replyto: Option<String>,
    referent: Option<String>,
    ddate: Option<Value>,
    invitation: Option<String>,
    invitations: Vec<String>,
    content: serde_json::Map<String, Value>,
    pdate: Option<Value>,
    odate: Option<Value>,
    cdate: Option<Value>,
    tcdate: Option<Value>,
}

impl Note {
    /// Why the note is no paper, if it is none: the kind of note it is.
    fn not_a_submission(&self) -> Option<String> {
        // The last part of its first invitation: `…/-/Official_Review`,
        // `…/-/Paper12/Official_Review`.
        let kind = || {
            self.invitation
                .iter()
                .chain(&self.invitations)
                .filter_map(|i| i.trim().rsplit('/').next())
                .find(|k| !k.is_empty())
                .map_or_else(|| "a reply".to_string(), fold_whitespace)
        };
        let set = |v: &Option<String>| v.as_deref().is_some_and(|s| !s.trim().is_empty());
        if self.ddate.as_ref().is_some_and(|d| !d.is_null()) {
            return Some("deleted".into());
        }
        if set(&self.referent) {
            return Some("a revision".into());
        }
        if set(&self.replyto) {
            return Some(kind());
        }
        match (&self.id, &self.forum) {
            (Some(id), Some(forum)) if id != forum => Some(kind()),
            _ => None,
        }
    }

    /// A content field's value: v2's `{"value": …}` unwrapped.
    fn field(&self, key: &str) -> Option<&Value> {
        let v = self.content.get(key)?;
        match v {
            Value::Object(o) if o.contains_key("value") => o.get("value"),
            v => Some(v),
        }
    }

    fn text(&self, key: &str) -> Option<String> {
        match self.field(key)? {
            Value::String(s) => folded(s),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        }
    }

    fn list(&self, key: &str) -> Vec<String> {
        match self.field(key) {
            Some(Value::Array(items)) => items
                .iter()
                .filter_map(|v| v.as_str().and_then(folded))
                .collect(),
            Some(Value::String(s)) => {
                let sep = if s.contains(';') { ';' } else { ',' };
                s.split(sep).filter_map(folded).collect()
            }
            _ => Vec::new(),
        }
    }

    fn record(&self, line: usize, context: &Context) -> Record {
        let venue = self.text("venue").or_else(|| context.venue.clone());
        let venue_id = self.text("venueid");
        let forum = self
            .forum
            .as_deref()
            .or(self.id.as_deref())
            .map(str::trim)
            .filter(|f| is_forum_id(f))
            .map(String::from);
        let mut urls = Vec::new();
        for key in ["pdf", "html"] {
            if let Some(link) = self.text(key) {
                let link = if link.starts_with('/') {
                    format!("{SITE}{link}")
                } else {
                    link
                };
                if link.starts_with("http://") || link.starts_with("https://") {
                    urls.push(link);
                }
            }
        }
        let time_year = [&self.pdate, &self.odate, &self.cdate, &self.tcdate]
            .into_iter()
            .flatten()
            .find_map(millis_year);
        let year = [&venue, &venue_id]
            .into_iter()
            .flatten()
            .find_map(|v| year_in(v))
            .or(context.year)
            .or(time_year);
        let arxiv = ["arxiv", "arXiv"]
            .into_iter()
            .find_map(|k| self.text(k))
            .and_then(|a| arxiv_in(&a, true));
        let doi = ["doi", "DOI"]
            .into_iter()
            .find_map(|k| self.text(k))
            .and_then(|d| doi(&d));
        Record {
            title: self.text("title"),
            abstract_text: self.text("abstract"),
            authors: self.list("authors").into_iter().collect(),
            year,
            venue,
            urls,
            arxiv,
            doi,
            key: None,
            volume: None,
            line,
            former_id: None,
            given_id: None,
            more: More {
                keywords: self.list("keywords"),
                forum,
                venue_id,
                ..More::default()
            }
            .into(),
        }
    }
}

/// The year of a time in milliseconds since 1970, as OpenReview writes
/// its dates (`1706745600000`).
fn millis_year(v: &Value) -> Option<i32> {
    let ms = u64::try_from(v.as_i64()?).ok()?;
    // Past 9999 a date is no publication's.
    if ms >= 253_402_300_800_000 {
        return None;
    }
    let time = std::time::UNIX_EPOCH + std::time::Duration::from_millis(ms);
    year_in(&humantime::format_rfc3339_seconds(time).to_string())
}

/// A wrapper's year: a number or a string holding one.
fn year_of(raw: &RawValue) -> Option<i32> {
    match serde_json::from_str::<Value>(raw.get()).ok()? {
        Value::Number(n) => crate::corpus::fields::plausible_year(n.as_i64()?),
        Value::String(s) => year_in(&s),
        _ => None,
    }
}

/// Gives a record read from a keyed list what its wrapper says.
fn fill_from_context(record: &mut Record, context: &Context) {
    if record.venue.is_none() {
        record.venue.clone_from(&context.venue);
    }
    if record.year.is_none() {
        record.year = context.year;
    }
}

/// Parses OpenReview notes (see the module's documentation).
pub fn parse(text: &str) -> Parsed {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut notes = Notes {
        text,
        lines: LineCounter::default(),
        parsed: Parsed::default(),
    };
    let mut from = 0;
    // After an error, values that are neither objects nor lists are the
    // rest of a broken document's lines, passed over.
    let mut resynced = false;
    while from < text.len() {
        let mut stream = serde_json::Deserializer::from_str(&text[from..]).into_iter::<&RawValue>();
        let mut resume = None;
        loop {
            let start = from + stream.byte_offset();
            let Some(value) = stream.next() else { break };
            match value {
                Ok(raw) if resynced && !raw.get().starts_with(['{', '[']) => {}
                Ok(raw) => notes.value(raw, &Context::default(), 0),
                Err(e) => {
                    // Named by the line the broken value starts on, the
                    // error's own line in the message.
                    let start = start + text[start..].len() - text[start..].trim_start().len();
                    let error_line = notes
                        .lines
                        .line(text, from + line_offset(&text[from..], e.line()));
                    let line = notes.lines.line(text, start);
                    let what = e.to_string();
                    let what = what.split(" at line ").next().unwrap_or(&what);
                    notes.skip(line, format!("invalid JSON on line {error_line}: {what}"));
                    // Go on from the line after the one the broken value
                    // starts on: in JSON Lines, the next note.
                    resume = Some(
                        text[start..]
                            .find('\n')
                            .map_or(text.len(), |n| start + n + 1),
                    );
                    break;
                }
            }
        }
        match resume {
            Some(next) => {
                from = next;
                resynced = true;
            }
            None => break,
        }
    }
    notes.parsed
}

/// The byte offset of the start of 1-based line `line` of `text`.
fn line_offset(text: &str, line: usize) -> usize {
    if line <= 1 {
        return 0;
    }
    memchr::memchr_iter(b'\n', text.as_bytes())
        .nth(line - 2)
        .map_or(text.len(), |n| n + 1)
}

/// True when the head of a JSON input is OpenReview's: notes (a
/// `content` beside a `forum`, `invitation(s)` or `replyto`), or a list
/// keyed by forum links.
fn looks_like_openreview(head: &str) -> bool {
    // A key (a string followed by `:`) holding a forum link.
    let keyed = head
        .match_indices("openreview.net/forum?id=")
        .any(|(at, _)| {
            let rest = &head[at..];
            rest.find('"')
                .is_some_and(|end| rest[end + 1..].trim_start().starts_with(':'))
        });
    keyed
        || (head.contains("\"content\"")
            && ["\"forum\"", "\"invitation", "\"replyto\""]
                .iter()
                .any(|k| head.contains(k)))
}

/// OpenReview notes and the lists built on them.
pub struct OpenReview;

impl Reader for OpenReview {
    fn name(&self) -> &'static str {
        "openreview"
    }

    fn about(&self) -> &'static str {
        "OpenReview notes (API v1/v2, JSON or JSON Lines) and lists keyed by forum link"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &[]
    }

    fn sniff(&self, head: &str, _hint: Option<Format>) -> bool {
        start(head).starts_with(['{', '[']) && looks_like_openreview(head)
    }

    fn parse(&self, text: &str) -> Parsed {
        parse(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn note(id: &str, forum: &str, replyto: &str, content: &str) -> String {
        format!(
            r#"{{"id": "{id}", "forum": "{forum}", "replyto": {replyto}, "content": {content}, "invitations": ["V/-/Submission"], "cdate": 1706745600000}}"#
        )
    }

    #[test]
    fn json_lines_of_notes_read_on_past_a_broken_line() {
        let good = |id: &str, title: &str| {
            note(
                id,
                id,
                "null",
                &format!(r#"{{"title": {{"value": "{title}"}}}}"#),
            )
        };
        let text = format!(
            "{}\n{{\"id\": \"broken\", \"content\": {{\n{}\n",
            good("aaaaaaaa", "First"),
            good("bbbbbbbb", "Second")
        );
        let parsed = parse(&text);
        let titles: Vec<_> = parsed
            .records
            .iter()
            .filter_map(|r| r.title.clone())
            .collect();
        assert_eq!(titles, ["First", "Second"]);
        assert_eq!(parsed.skipped.len(), 1);
        assert_eq!(parsed.skipped[0].0, 2);
        assert_eq!(parsed.records[1].line, 3);
    }

    #[test]
    fn a_note_without_venue_takes_its_year_from_its_time() {
        let text = note(
            "aaaaaaaa",
            "aaaaaaaa",
            "null",
            r#"{"title": "T", "abstract": "A."}"#,
        );
        let r = &parse(&text).records[0];
        assert_eq!(r.year, Some(2024));
        assert_eq!(r.more().forum.as_deref(), Some("aaaaaaaa"));
        // A venue's year wins over the time's.
        let text = note(
            "aaaaaaaa",
            "aaaaaaaa",
            "null",
            r#"{"title": "T", "venue": {"value": "ICLR 2019 Poster"}}"#,
        );
        assert_eq!(parse(&text).records[0].year, Some(2019));
        assert_eq!(millis_year(&Value::from(i64::MAX)), None);
        assert_eq!(millis_year(&Value::from(-5)), None);
    }

    #[test]
    fn replies_are_skipped_with_their_kind() {
        let text = format!(
            "[{}, {}]",
            note("aaaaaaaa", "aaaaaaaa", "null", r#"{"title": "T"}"#),
            note(
                "cccccccc",
                "aaaaaaaa",
                "\"aaaaaaaa\"",
                r#"{"review": "fine"}"#
            )
            .replace("V/-/Submission", "V/Submission1/-/Meta_Review")
        );
        let parsed = parse(&text);
        assert_eq!(parsed.records.len(), 1);
        assert_eq!(parsed.skipped[0].1, "not a submission (Meta_Review)");
    }

    #[test]
    fn hostile_nesting_and_sizes_end_in_a_message() {
        for text in [
            format!(
                "{{\"content\": {{}}, \"forum\": \"x\", \"a\": {}",
                "[".repeat(1 << 20)
            ),
            "[".repeat(1 << 20),
            format!("{}{}", "{\"notes\": ".repeat(1000), "[]"),
        ] {
            let parsed = parse(&text);
            assert!(parsed.records.is_empty());
            assert!(!parsed.skipped.is_empty());
        }
    }
}
