//! What a BibTeX entry's fields mean: the record made of a read entry
//! (title and subtitle, names in reading order, venue, year, links, DOI,
//! the arXiv id wherever the entry keeps it), rendered from LaTeX.

use std::collections::HashMap;

use super::{Fields, balanced};
use crate::corpus::fields::{
    Name, Split, arxiv_in, arxiv_in_text, doi_in_text, is_arxiv_id, split_list_cell, split_top,
    strip_arxiv_prefix, year_in,
};
use crate::corpus::readers::fold_paragraphs;
use crate::corpus::{Authors, More, PaperId, Record};
use crate::text::markup;
use unicode_normalization::UnicodeNormalization;

/// A read entry, before it becomes a record.
pub(super) struct Entry {
    pub(super) line: usize,
    pub(super) key: String,
    pub(super) fields: Fields,
}

impl Entry {
    /// A field's value, trimmed; `None` when absent or blank.
    fn get(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.trim())
            .filter(|v| !v.is_empty())
    }
}

/// Records for the entries; a `crossref` parent lends its year and venue.
pub(super) fn records(entries: &[Entry]) -> Vec<Record> {
    let mut by_key: HashMap<String, usize> = HashMap::new();
    for (i, e) in entries.iter().enumerate() {
        if !e.key.is_empty() {
            by_key.entry(e.key.to_lowercase()).or_insert(i);
        }
    }
    entries
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let mut record = record(e);
            let parent = e
                .get("crossref")
                .and_then(|k| by_key.get(&k.to_lowercase()))
                .filter(|&&p| p != i)
                .map(|&p| &entries[p]);
            if let Some(parent) = parent {
                if record.year.is_none() {
                    record.year = year(parent);
                }
                if record.venue.is_none() {
                    record.venue = venue(parent).or_else(|| parent.get("title").map(render_line));
                }
            }
            record
        })
        .collect()
}

pub(super) fn record(e: &Entry) -> Record {
    let arxiv = arxiv(e);
    let given_id = given_id(e);
    // A paperboat export's `keywords` are its tags, which come back by
    // its id: not the paper's keywords.
    let keywords = match given_id {
        Some(_) => Vec::new(),
        None => e
            .get("keywords")
            .map(|k| split_list_cell(&render_line(k)))
            .unwrap_or_default(),
    };
    Record {
        title: title(e),
        abstract_text: e
            .get("abstract")
            .map(fold_paragraphs)
            .filter(|a| !a.is_empty()),
        authors: Authors::from_names(e.get("author").map(authors).unwrap_or_default()),
        year: year(e),
        venue: venue(e),
        urls: urls(e),
        doi: e.get("doi").and_then(doi),
        key: Some(e.key.clone()).filter(|k| !k.is_empty()),
        volume: e.get("volume").map(fold),
        line: e.line,
        former_id: None,
        more: More {
            // An edited work's editors, apart from its authors.
            roles: e
                .get("editor")
                .map(authors)
                .unwrap_or_default()
                .iter()
                .map(|n| ("editor".to_string(), n.display()))
                .collect(),
            // An arXiv paper's primary category (`primaryClass`, as
            // arXiv's own BibTeX and paperboat's export write it).
            categories: e
                .get("primaryclass")
                .filter(|_| arxiv.is_some())
                .map(|c| vec![unescape_id(c)])
                .unwrap_or_default(),
            keywords,
            ..More::default()
        }
        .into(),
        arxiv,
        given_id,
    }
}

/// The id a paperboat export wrote in `paperboat-id` (or, as exports
/// wrote it before, in `note`: `paperboat id …`).
fn given_id(e: &Entry) -> Option<PaperId> {
    let field = e.get("paperboat-id").map(unescape_id).or_else(|| {
        let note = unescape_id(e.get("note")?);
        note.strip_prefix("paperboat id ").map(str::to_string)
    })?;
    PaperId::exported(&field)
}

/// Folds whitespace runs (no-break spaces from `~` included) to single
/// spaces.
pub(super) fn fold(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// LaTeX rendered to plain Unicode text on one line, composed (NFC).
pub(super) fn render_line(s: &str) -> String {
    fold(&markup::plain(&ties(&fold(s)))).nfc().collect()
}

/// `s` with each tie (`~`, not the accent `\~`) as the non-breaking
/// space it is in a BibTeX field (a name's `Donald~E. Knuth`, a title's
/// `~10 dB`), which the markup renderer of abstracts takes for a space
/// only between two words.
fn ties(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains('~') {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 2);
    let mut prev = ' ';
    for c in s.chars() {
        out.push(if c == '~' && prev != '\\' {
            '\u{a0}'
        } else {
            c
        });
        // `\\` is an escaped backslash, not an accent's.
        prev = if c == '\\' && prev == '\\' { ' ' } else { c };
    }
    std::borrow::Cow::Owned(out)
}

pub(super) fn title(e: &Entry) -> Option<String> {
    let title = render_line(e.get("title")?);
    if title.is_empty() {
        return None;
    }
    match e.get("subtitle").map(render_line).filter(|s| !s.is_empty()) {
        Some(sub) if title.ends_with(['.', '?', '!', ':']) => Some(format!("{title} {sub}")),
        Some(sub) => Some(format!("{title}: {sub}")),
        None => Some(title),
    }
}

pub(super) fn venue(e: &Entry) -> Option<String> {
    [
        "journal",
        "journaltitle",
        "booktitle",
        "venue",
        "eventtitle",
    ]
    .iter()
    .filter_map(|f| e.get(f))
    .map(render_line)
    .find(|v| !v.is_empty())
}

pub(super) fn year(e: &Entry) -> Option<i32> {
    e.get("year")
        .and_then(year_in)
        .or_else(|| e.get("date").and_then(year_in))
}

/// Author names in their parts by BibTeX's rules, each part rendered
/// from LaTeX and composed; `others` dropped.
pub(super) fn authors(field: &str) -> Vec<Name> {
    let field = fold(field);
    split_top(&field, Split::And)
        .into_iter()
        .map(str::trim)
        .filter(|n| !n.is_empty() && !n.eq_ignore_ascii_case("others"))
        .map(|name| {
            let parts: Vec<&str> = split_top(name, Split::Comma)
                .into_iter()
                .map(str::trim)
                .collect();
            let raw = extended_name(&parts).unwrap_or_else(|| Name::bibtex(&parts));
            let render = |p: &str| -> String { fold(&markup::plain(&ties(p))).nfc().collect() };
            Name {
                given: render(&raw.given),
                particle: render(&raw.particle),
                family: render(&raw.family),
                suffix: render(&raw.suffix),
                literal: raw.literal,
            }
        })
        .filter(|n| !n.is_blank())
        .collect()
}

/// A name in BibLaTeX's extended format (`family=Heuvel, given=Charles,
/// prefix=van den, useprefix=false`).
pub(super) fn extended_name(parts: &[&str]) -> Option<Name> {
    let mut given = "";
    let mut prefix = "";
    let mut family = "";
    let mut suffix = "";
    for part in parts {
        let (key, value) = part.split_once('=')?;
        let value = value.trim();
        let value = value
            .strip_prefix('{')
            .and_then(|v| v.strip_suffix('}'))
            .filter(|v| balanced(v))
            .unwrap_or(value);
        match key.trim().to_ascii_lowercase().as_str() {
            "given" => given = value,
            "prefix" => prefix = value,
            "family" => family = value,
            "suffix" => suffix = value,
            "useprefix" | "given-i" | "family-i" | "prefix-i" | "suffix-i" => {}
            _ => return None,
        }
    }
    if family.is_empty() && given.is_empty() {
        return None;
    }
    Some(Name::of(given, prefix, family, suffix))
}

/// Undoes BibTeX escapes in identifiers and URLs (`\_`, `\%`, `{…}`).
pub(super) fn unescape_id(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek().is_some_and(|n| "_%#&~$".contains(*n)) => {
                out.extend(chars.next());
            }
            '{' | '}' => {}
            c => out.push(c),
        }
    }
    out
}

/// The DOI in a `doi` field (`10.…/…`), without `https://doi.org/`,
/// `doi:` or other prefixes; `None` when the field holds no DOI.
pub(super) fn doi(field: &str) -> Option<String> {
    doi_in_text(&unescape_id(field))
}

pub(super) fn arxiv(e: &Entry) -> Option<String> {
    let eprint = e.get("eprint").map(|s| unescape_id(strip_arxiv_prefix(s)));
    let kind = e.get("eprinttype").or_else(|| e.get("archiveprefix"));
    if let Some(id) = &eprint
        && kind.is_some_and(|k| k.eq_ignore_ascii_case("arxiv"))
        && !id.is_empty()
        && !id.contains(char::is_whitespace)
    {
        return Some(id.clone());
    }
    if let Some(id) = e.get("arxiv").map(|s| unescape_id(strip_arxiv_prefix(s)))
        && !id.is_empty()
    {
        return Some(id);
    }
    if kind.is_none()
        && let Some(id) = eprint.filter(|id| is_arxiv_id(id))
    {
        return Some(id);
    }
    for field in ["journal", "journaltitle", "booktitle", "howpublished"] {
        if let Some(id) = e.get(field).and_then(arxiv_in_text) {
            return Some(id);
        }
    }
    // CoRR, as DBLP writes it: `journal = {CoRR}, volume = {abs/1502.01852}`.
    if e.get("journal")
        .is_some_and(|j| j.eq_ignore_ascii_case("corr"))
        && let Some(id) = e.get("volume").and_then(|v| v.strip_prefix("abs/"))
        && is_arxiv_id(id)
    {
        return Some(id.to_string());
    }
    urls(e).iter().find_map(|u| arxiv_in(u, false))
}

/// The `url` field's links (and `ee`, and `\url{…}` in `howpublished`).
pub(super) fn urls(e: &Entry) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut add = |u: &str| {
        let u = unescape_id(u);
        if !u.is_empty() && !out.contains(&u) {
            out.push(u);
        }
    };
    for field in ["url", "ee"] {
        if let Some(v) = e.get(field) {
            split_urls(url_arg(v).unwrap_or(v))
                .iter()
                .for_each(|u| add(u));
        }
    }
    if let Some(v) = e.get("howpublished")
        && let Some(u) = url_arg(v)
    {
        add(u.trim());
    }
    out
}

/// The URLs in a field: a new one starts at each word with a scheme
/// (`https://`); other words belong to the URL before them, which had
/// spaces in it (`…/Volume 9/Issue 2` → `…/Volume%209/Issue%202`).
pub(super) fn split_urls(s: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for word in s.split_whitespace() {
        match out.last_mut() {
            Some(last) if !word.contains("://") => {
                last.push_str("%20");
                last.push_str(word);
            }
            _ => out.push(word.to_string()),
        }
    }
    out
}

/// The argument of the first `\url{…}` or `\href{…}` in `s`.
pub(super) fn url_arg(s: &str) -> Option<&str> {
    let at = s
        .find("\\url{")
        .map(|i| i + 5)
        .or_else(|| s.find("\\href{").map(|i| i + 6))?;
    let end = s[at..].find('}')?;
    Some(&s[at..at + end])
}
