//! JSON Lines: one paper object a line, each read alone (a bad line is
//! skipped alone), straight from the line into borrowed fields.

use serde::de::IgnoredAny;

use super::record::JsonRecord;
use super::{VOTE_LINES, describe, kind};
use crate::corpus::Parsed;
use crate::corpus::Record;
use crate::corpus::json_string::{Plain, repair_escapes, string_folded};

/// Parses one line of JSON Lines (`line_no` is 1-based): Ok(None) for a
/// blank line, Err(reason) for a line that is not a JSON object.
pub fn parse_line(line: &str, line_no: usize) -> Result<Option<Record>, String> {
    Ok(
        parse_line_deferring(line, line_no)?.map(|(mut record, plain)| {
            if let Some(plain) = plain {
                record.abstract_text = string_folded(plain.raw);
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
    match serde_json::from_str::<JsonRecord>(trimmed) {
        Ok(paper) => Ok(Some(paper.into_record_deferring(line_no))),
        Err(e) => match repair_escapes(trimmed) {
            // A bad escape costs its string only (it reads U+FFFD); the
            // abstract is then decoded here, the line being no longer
            // the file's.
            Some(fixed) => match serde_json::from_str::<JsonRecord>(&fixed) {
                Ok(paper) => Ok(Some((paper.into_record(line_no), None))),
                Err(_) => Err(describe(&e, (e.line() == 1).then(|| lead + e.column()))),
            },
            None => Err(describe(&e, (e.line() == 1).then(|| lead + e.column()))),
        },
    }
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
