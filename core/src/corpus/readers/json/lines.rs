//! JSON Lines: one paper object a line, each read alone (a bad line is
//! skipped alone), straight from the line into borrowed fields.

use serde::de::IgnoredAny;

use super::lenient::{JsonAuthors, name_lists_at};
use super::record::JsonRecord;
use super::{VOTE_LINES, describe, kind};
use crate::corpus::Parsed;
use crate::corpus::Record;
use crate::corpus::json_string::{Plain, repair_escapes, string_end, string_paragraphs};

/// Parses one line of JSON Lines (`line_no` is 1-based): Ok(None) for a
/// blank line, Err(reason) for a line that is not a JSON object.
pub fn parse_line(line: &str, line_no: usize) -> Result<Option<Record>, String> {
    Ok(
        parse_line_deferring(line, line_no)?.map(|(mut record, plain)| {
            if let Some(plain) = plain {
                record.abstract_text = string_paragraphs(plain.raw);
            }
            record
        }),
    )
}

/// [`parse_line`], but a plain abstract (see [`plain_json_string`]) is
/// given as written, a slice of `line`, rather than decoded into the
/// record.
pub fn parse_line_deferring(
    line: &str,
    line_no: usize,
) -> Result<Option<(Record, Option<Plain<'_>>)>, String> {
    let line = line.strip_prefix('\u{FEFF}').unwrap_or(line);
    let trimmed = line.trim_start();
    let lead = line.len() - trimmed.len();
    let trimmed = trimmed.trim_end();
    if trimmed.is_empty() {
        return Ok(None);
    }
    if !trimmed.starts_with('{') {
        return Err(match serde_json::from_str::<IgnoredAny>(trimmed) {
            Ok(_) => format!("not a JSON object ({})", kind(trimmed.as_bytes()[0])),
            Err(_) => "not JSON".to_string(),
        });
    }
    match parse_abstract_apart(trimmed, line_no) {
        Some(found) => Ok(Some(found)),
        None => parse_whole(trimmed, lead, line_no).map(Some),
    }
}

/// [`parse_line_deferring`] of a line trimmed to the object it holds, by
/// the parser alone; `lead`: the bytes trimmed from its start.
fn parse_whole(
    trimmed: &str,
    lead: usize,
    line_no: usize,
) -> Result<(Record, Option<Plain<'_>>), String> {
    match JsonRecord::read(trimmed) {
        Ok(paper) => Ok(paper.into_record_deferring(line_no)),
        Err(e) => match repair_escapes(trimmed) {
            // A bad escape costs its string only (it reads U+FFFD); the
            // abstract is then decoded here, the line being no longer
            // the file's.
            Some(fixed) => match serde_json::from_str::<JsonRecord>(&fixed) {
                Ok(paper) => Ok((paper.into_record(line_no), None)),
                Err(_) => Err(describe(&e, (e.line() == 1).then(|| lead + e.column()))),
            },
            None => Err(describe(&e, (e.line() == 1).then(|| lead + e.column()))),
        },
    }
}

/// The key an abstract is found by ahead of the parser, as the arXiv
/// snapshot and most exports write it: no space around the colon.
const ABSTRACT_KEY: &[u8] = br#""abstract":""#;

/// What stands in the line the parser reads for the abstract found ahead
/// of it ([`parse_abstract_apart`]): a plain string of one letter.
const HOLE: &str = r#""a""#;

/// Where the string that follows the first `"abstract":` in `line` starts
/// (its opening quote) and ends (past its closing quote). The key is a
/// whole string followed by a colon, so an object's key, though maybe
/// not the paper object's own ([`parse_abstract_apart`] tells).
fn abstract_span(line: &str) -> Option<(usize, usize)> {
    static KEY: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(ABSTRACT_KEY));
    let start = KEY.find(line.as_bytes())? + ABSTRACT_KEY.len() - 1;
    let end = string_end(line.as_bytes(), start + 1)?;
    Some((start, end + 1))
}

/// The key arXiv's parsed author names are found by ahead of the parser.
const AUTHORS_KEY: &[u8] = br#""authors_parsed":["#;

/// What stands in the line the parser reads for the names found ahead of
/// it.
const NO_NAMES: &str = "[]";

/// Where the list that follows the first `"authors_parsed":` in `line`
/// outside `start..end` (the abstract) starts and ends, and the names it
/// gives, when it has the snapshot's shape ([`name_lists_at`]).
fn authors_span(line: &str, start: usize, end: usize) -> Option<(usize, usize, JsonAuthors<'_>)> {
    static KEY: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(AUTHORS_KEY));
    let b = line.as_bytes();
    let at = match KEY.find(&b[end..]) {
        Some(k) => end + k,
        None => KEY.find(&b[..start])?,
    };
    let open = at + AUTHORS_KEY.len() - 1;
    let (names, close) = name_lists_at(line, open)?;
    (open >= end || close <= start).then_some((open, close, names))
}

/// `line` into `out` with each of `cuts` (in order, none overlapping) in
/// place of the bytes it spans; where each landed in `out`.
fn cut_into<const N: usize>(
    out: &mut String,
    line: &str,
    cuts: [(usize, usize, &str); N],
) -> [usize; N] {
    let mut from = 0;
    let mut landed = [0; N];
    for (k, (start, end, put)) in cuts.into_iter().enumerate() {
        out.push_str(&line[from..start]);
        landed[k] = out.len();
        out.push_str(put);
        from = end;
    }
    out.push_str(&line[from..]);
    landed
}

/// [`parse_line_deferring`] of a line (trimmed, an object) whose abstract
/// is a plain string (see [`Plain`]) under the key `"abstract"`: the
/// string is found and checked ahead of the parser, which reads the line
/// with [`HOLE`] in its place (copied, less the abstract, into a buffer
/// kept for the next line). So are arXiv's parsed author names, when
/// [`authors_span`] finds them, with [`NO_NAMES`] in their place. `None`,
/// for the caller to parse the line as it is, when the abstract is not
/// found so, or not plain, or a hole was not the paper object's own field
/// (a nested object's), or the line does not parse.
///
/// The parser went over each abstract eight bytes at a time, stopping at
/// each of its escapes (most of the 8% of a cold search of the arXiv
/// snapshot it spent scanning strings), then [`Plain::of`] went over it
/// again; found ahead, it is gone over once by vector code for its end
/// and once for whether it is plain. The names were gone over by the
/// parser a string at a time, then read as written ([`name_lists_at`]);
/// now only read.
fn parse_abstract_apart(line: &str, line_no: usize) -> Option<(Record, Option<Plain<'_>>)> {
    thread_local! {
        static APART: std::cell::Cell<String> = const { std::cell::Cell::new(String::new()) };
    }
    let (start, end) = abstract_span(line)?;
    let plain = Plain::of(&line[start..end])?;
    // Walked with both taken as found, the line need not be copied.
    if let Some(paper) =
        JsonRecord::walked_known(line, (start, end, plain), authors_span(line, start, end))
    {
        let (record, _) = paper.into_record_deferring(line_no);
        return Some((record, Some(plain)));
    }
    let mut apart = APART.take();
    apart.clear();
    let abs = (start, end, HOLE);
    let (hole, names) = match authors_span(line, start, end) {
        None => (cut_into(&mut apart, line, [abs])[0], None),
        Some((open, close, names)) => {
            let listed = (open, close, NO_NAMES);
            let [hole, at] = if open < start {
                let [at, hole] = cut_into(&mut apart, line, [listed, abs]);
                [hole, at]
            } else {
                cut_into(&mut apart, line, [abs, listed])
            };
            (hole, Some((at, names)))
        }
    };
    let at = |k: usize| apart[k..].as_ptr();
    let found = match JsonRecord::read(&apart) {
        Ok(paper)
            if paper.plain_abstract_at(at(hole))
                && names
                    .as_ref()
                    .is_none_or(|(k, _)| paper.parsed_authors_at(at(*k))) =>
        {
            let mut paper = paper.with_plain_abstract(plain);
            if let Some((_, names)) = names {
                paper = paper.with_parsed_authors(names);
            }
            let (record, _) = paper.into_record_deferring(line_no);
            Some((record, Some(plain)))
        }
        _ => None,
    };
    APART.set(apart);
    found
}

pub(super) fn parse_lines(body: &str) -> Parsed {
    let mut parsed = Parsed::default();
    for (i, line) in body.split('\n').enumerate() {
        match parse_line(line, i + 1) {
            Ok(Some(record)) => parsed.records.push(record),
            Ok(None) => {}
            Err(reason) => parsed.skipped.push((i + 1, reason)),
        }
    }
    parsed
}

/// True when the text reads as JSON Lines even though its first value does
/// not parse: at least two non-blank lines, half of them objects.
pub(super) fn mostly_object_lines(body: &str) -> bool {
    let (mut lines, mut objects) = (0, 0);
    for line in body
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .take(VOTE_LINES)
    {
        lines += 1;
        if line.starts_with('{') && serde_json::from_str::<IgnoredAny>(line).is_ok() {
            objects += 1;
        }
    }
    lines >= 2 && objects * 2 >= lines
}

/// True when `head` begins with a complete JSON object on its first line
/// and more follows: JSON Lines rather than one document.
pub fn looks_like_json_lines(head: &str) -> bool {
    let mut lines = head.lines().map(str::trim).filter(|l| !l.is_empty());
    match (lines.next(), lines.next()) {
        (Some(first), Some(_)) => {
            first.starts_with('{') && serde_json::from_str::<IgnoredAny>(first).is_ok()
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a line gives, as text to compare.
    fn shown(parsed: &Result<Option<(Record, Option<Plain<'_>>)>, String>) -> String {
        format!("{parsed:?}")
    }

    /// Each line parses to what the parser alone makes of it, and the
    /// abstract is found ahead of the parser exactly when `apart` says.
    fn check(line: &str, apart: bool) {
        let trimmed = line.trim();
        let whole = parse_whole(trimmed, 0, 7).map(Some);
        assert_eq!(
            shown(&parse_line_deferring(line, 7)),
            shown(&whole),
            "{line}"
        );
        let found = parse_abstract_apart(trimmed, 7);
        assert_eq!(found.is_some(), apart, "{line}");
        if let Some(found) = found {
            // Left in the file where it is written there.
            let at = |p: Option<Plain<'_>>| p.map(|p| p.raw.as_ptr());
            let whole_at = whole
                .as_ref()
                .ok()
                .and_then(Option::as_ref)
                .and_then(|(_, p)| at(*p));
            assert_eq!(at(found.1), whole_at, "{line}");
            assert_eq!(shown(&Ok(Some(found))), shown(&whole), "{line}");
        }
    }

    #[test]
    fn an_abstract_found_ahead_reads_as_the_parser_reads_it() {
        let long = "word \\n ".repeat(30);
        let lines = [
            r#"{"id":"2101.00001","title":"T","abstract":"A plain \"one\" \\ here.","year":2021}"#
                .to_string(),
            format!(r#"{{"abstract":"{long}end","title":"Long"}}"#),
            format!(r#"{{"title":"At the end","abstract":"{long}"}}"#),
            r#"{"title":"Empty links","abstract":"Text","url":[]}"#.to_string(),
            // arXiv's names, after the abstract or before it, of every
            // length, or not of the shape read ahead (an escape): each as
            // the parser reads them.
            r#"{"title":"T","abstract":"Text","authors_parsed":[["Pan","Hongjun",""],["Li","A.","Jr"]]}"#.to_string(),
            r#"{"authors_parsed":[["Pan","Hongjun"]],"title":"T","abstract":"Text","year":2007}"#.to_string(),
            r#"{"title":"T","abstract":"Text","authors_parsed":[],"authors":"Someone Else"}"#.to_string(),
            r#"{"title":"T","abstract":"Text","authors_parsed":[["Ca\u00f1as","J.",""]]}"#.to_string(),
            r#"{"title":"T","abstract":"Text","authors_parsed":[["A","B","C","D"]] }"#.to_string(),
            // A nested object's names before the abstract: the paper's own,
            // after it, are looked for first.
            r#"{"meta":{"authors_parsed":[["X","Y"]]},"abstract":"Text","authors_parsed":[["A","B"]]}"#.to_string(),
        ];
        for line in &lines {
            check(line, true);
        }
    }

    #[test]
    fn an_abstract_the_parser_must_read_is_left_to_it() {
        let lines = [
            // A nested object's abstract comes first: the hole is not the
            // paper's abstract.
            r#"{"meta":{"abstract":"Nested"},"title":"T","abstract":"Own"}"#,
            r#"{"meta":{"abstract":"Nested only"},"title":"T"}"#,
            // Twice: the parser's error, as before.
            r#"{"title":"T","abstract":"One","abstract":"Two"}"#,
            // Not plain: decoded by the parser.
            r#"{"title":"T","abstract":"caf\u00e9 au lait"}"#,
            "{\"title\":\"T\",\"abstract\":\"caf\u{e9}\"}",
            r#"{"title":"T","abstract":"   "}"#,
            r#"{"title":"T","abstract": "Spaced"}"#,
            // Broken after the abstract, or in it.
            r#"{"title":"T","abstract":"Fine" "year":1}"#,
            r#"{"title":"T","abstract":"Bad \q escape"}"#,
            r#"{"title":"T","abstract":"Never closed}"#,
            r#"{"title":"T","abstract":"Ends in a backslash\"#,
            r#"{"title":"T\"abstract\":\"x","abstract":7}"#,
            // Names: a nested object's first, given twice, not a list.
            r#"{"abstract":"Text","meta":{"authors_parsed":[["X","Y"]]},"authors_parsed":[["A","B"]]}"#,
            r#"{"meta":{"authors_parsed":[["X","Y"]]},"abstract":"Text"}"#,
            r#"{"abstract":"Text","authors_parsed":[["A","B"]],"authors_parsed":[["C","D"]]}"#,
            r#"{"abstract":"Text","authors_parsed":[["A","B"]}"#,
            r#"{"title":"T","abstract":"Text","x":{"authors_parsed":[["X","Y"]]}}"#,
            r#"{"title":"T","x":["abstract","abstract":"Text"]}"#,
        ];
        for line in lines {
            check(line, false);
        }
    }

    proptest::proptest! {
        /// A snapshot line changed anywhere reads as the parser alone
        /// reads it, whichever way it is read.
        #[test]
        fn a_mutated_arxiv_line_reads_as_the_parser_reads_it(
            edits in proptest::collection::vec((proptest::prelude::any::<usize>(), proptest::prelude::any::<u8>(), 0u8..3), 1..6),
        ) {
            let line = r#"{"id":"0704.0001","submitter":"P. N","authors":"C. Bal\\'azs, E. L. Berger","title":"Calculation of prompt\n  diphoton production","comments":null,"abstract":"  A fully differential calculation\nin QCD.\n","versions":[{"version":"v1","created":"Mon, 2 Apr 2007 19:18:42 GMT"}],"update_date":"2008-11-26","authors_parsed":[["Balazs","C.",""],["Berger","E. L.",""]]}"#;
            let mut bytes = line.as_bytes().to_vec();
            crate::corpus::readers::mutate(&mut bytes, &edits);
            let line = String::from_utf8_lossy(&bytes);
            let trimmed = line.trim();
            if trimmed.starts_with('{') {
                let lead = line.len() - line.trim_start().len();
                let whole = parse_whole(trimmed, lead, 7).map(Some);
                proptest::prop_assert_eq!(shown(&parse_line_deferring(&line, 7)), shown(&whole), "{}", line);
            }
        }
    }

    #[test]
    fn the_arxiv_snapshot_reads_the_same_found_ahead() {
        let body = include_str!("../../../../../tests/data/corpora/arxiv-snapshot_wanng-ide.jsonl");
        let (mut apart, mut names, mut walked) = (0, 0, 0);
        for line in body.lines() {
            let found = parse_abstract_apart(line.trim(), 7).is_some();
            apart += usize::from(found);
            walked += usize::from(abstract_span(line).is_some_and(|(s, e)| {
                let plain = Plain::of(&line[s..e]);
                plain.is_some_and(|p| {
                    JsonRecord::walked_known(line, (s, e, p), authors_span(line, s, e)).is_some()
                })
            }));
            names += usize::from(
                abstract_span(line).is_some_and(|(s, e)| authors_span(line, s, e).is_some()),
            );
            check(line, found);
        }
        // Nearly every line is found ahead, names and all: the test is of
        // that path.
        let lines = body.lines().count();
        assert!(apart * 10 >= lines * 9, "{apart}");
        assert!(names * 10 >= lines * 9, "{names}");
        // And walked as found, the line not copied.
        assert!(walked * 10 >= lines * 9, "{walked}");
    }
}
