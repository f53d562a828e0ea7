//! Fetching a venue's papers from OpenReview's API v2: `GET
//! /notes?content.venueid=VENUE`, paged with `offset` and `limit` (at most
//! 1,000 a page, the API's most), until a page is short or `count` is
//! reached. Each submission note is written as the API gave it, on one
//! line; replies (reviews, comments, decisions: notes whose `forum` is
//! another note) are passed over, and so are forums the file holds.

use serde::Deserialize;
use serde_json::value::RawValue;

use super::arxiv::encode;
use super::http::Client;
use super::list_file::ListFile;
use super::{FetchError, Progress, Summary, slug};

/// Notes asked for a page: the API's most.
pub(super) const PAGE: usize = 1000;

/// A page of notes: `{"notes": [...], "count": N}`.
#[derive(Deserialize)]
struct Notes<'a> {
    #[serde(borrow)]
    notes: Vec<&'a RawValue>,
    count: Option<u64>,
}

/// What a note is read for.
#[derive(Deserialize)]
struct Ids {
    id: Option<String>,
    forum: Option<String>,
}

/// The list's name for a venue id: the conference's short name and year,
/// then any other part (`ICML.cc/2026/Conference` → `icml2026`,
/// `ICLR.cc/2025/Workshop/X` → `iclr2025-workshop-x`).
pub fn venue_list_name(venue: &str) -> String {
    let mut parts = venue.split('/').filter(|p| !p.trim().is_empty());
    let mut name = parts
        .next()
        .map(|host| slug(host.split('.').next().unwrap_or(host)))
        .unwrap_or_default();
    for part in parts {
        let part = part.trim();
        if part.len() == 4 && part.bytes().all(|b| b.is_ascii_digit()) {
            name.push_str(part);
        } else if !part.eq_ignore_ascii_case("conference") {
            let s = slug(part);
            if !s.is_empty() {
                name.push('-');
                name.push_str(&s);
            }
        }
    }
    if name.is_empty() { slug(venue) } else { name }
}

/// The note as one line: as received when it is one already, else with
/// its line breaks (white space between tokens) taken out, members in the
/// order received.
pub(super) fn one_line(note: &RawValue) -> Result<String, String> {
    let raw = note.get();
    if !raw.contains(['\n', '\r']) {
        return Ok(raw.to_string());
    }
    let mut out = Vec::with_capacity(raw.len());
    let mut de = serde_json::Deserializer::from_str(raw);
    let mut ser = serde_json::Serializer::new(&mut out);
    serde_transcode::transcode(&mut de, &mut ser).map_err(|e| e.to_string())?;
    String::from_utf8(out).map_err(|e| e.to_string())
}

/// Fetches the notes of `venue` from `endpoint` into `list`.
pub(super) fn harvest(
    venue: &str,
    endpoint: &str,
    list: &mut ListFile,
    client: &mut Client,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Summary, FetchError> {
    let mut summary = Summary::default();
    let base = endpoint.trim_end_matches('/');
    let mut offset = 0;
    loop {
        let page_no = summary.pages + 1;
        let url = format!(
            "{base}/notes?content.venueid={}&offset={offset}&limit={PAGE}",
            encode(venue)
        );
        let Some(text) = client.page(&url, endpoint, page_no, progress)? else {
            summary.interrupted = true;
            return Ok(summary);
        };
        let malformed = |what: String| FetchError::Malformed {
            endpoint: endpoint.to_string(),
            page: page_no,
            what,
        };
        let page: Notes = serde_json::from_str(&text).map_err(|e| {
            malformed(format!(
                "the answer is not a page of notes ({{\"notes\": [...]}}): {e}"
            ))
        })?;
        let mut lines = Vec::new();
        for note in &page.notes {
            let ids: Ids = serde_json::from_str(note.get())
                .map_err(|e| malformed(format!("a note is not an object: {e}")))?;
            let Some(key) = ids.forum.clone().or(ids.id.clone()) else {
                return Err(malformed("a note has neither id nor forum".to_string()));
            };
            if ids.id.is_some() && ids.forum.is_some() && ids.id != ids.forum {
                summary.passed_over += 1;
                continue;
            }
            summary.received += 1;
            if list.holds(&key) {
                summary.held += 1;
                continue;
            }
            lines.push((key, one_line(note).map_err(malformed)?));
        }
        summary.written += list.append(lines)?;
        summary.pages = page_no;
        offset += page.notes.len();
        progress(&Progress::Page {
            page: page_no,
            received: summary.received,
            written: summary.written,
            expected: page.count,
        });
        let more = match page.count {
            Some(count) => (offset as u64) < count && !page.notes.is_empty(),
            None => page.notes.len() >= PAGE,
        };
        if !more {
            return Ok(summary);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_are_written_on_one_line_as_received() {
        let raw: Box<RawValue> =
            serde_json::from_str(r#"{"id":"a","content":{"title":{"value":"T é"}},"cdate":1}"#)
                .unwrap();
        assert_eq!(one_line(&raw).unwrap(), raw.get());
        let raw: Box<RawValue> = serde_json::from_str(
            "{\n  \"z\": 1,\n  \"a\": {\"value\": \"line\\nbreak\"},\r\n  \"m\": [1, 2]\n}",
        )
        .unwrap();
        assert_eq!(
            one_line(&raw).unwrap(),
            r#"{"z":1,"a":{"value":"line\nbreak"},"m":[1,2]}"#
        );
    }
}
