//! RIS, and the two other line-tagged formats literature databases export:
//! the Web of Science plain-text format and PubMed's MEDLINE format.
//!
//! Systematic reviews start from database exports, and nearly every
//! database (Scopus, Embase, Ovid, ProQuest, Lens, Web of Science) and
//! reference manager (Zotero, EndNote, Rayyan) writes RIS: one field per
//! line, a record from `TY  - JOUR` to `ER  -`. Web of Science's own
//! "plain text" export and PubMed's "PubMed format" (`.nbib`) look alike,
//! so one reader takes all three. (Both services also export RIS, and the
//! files named after them in tests/data/corpora are RIS.)
//!
//! ```text
//! RIS                      Web of Science            MEDLINE
//! TY  - JOUR               FN Clarivate …            PMID- 21553931
//! TI  - A title            VR 1.0                    TI  - A title that
//! AU  - Smith, Jane        PT J                            wraps
//! AB  - The abstract …     AU Smith, J               FAU - Smith, Jane
//! ER  -                       Doe, K                 AB  - The abstract …
//!                          TI A title
//!                          ER
//!                          EF
//! ```
//!
//! **Detection.** The first non-blank line that decides wins: `PMID-` means
//! MEDLINE; an RIS tag line (`XX  - `) means RIS; `FN `, `VR ` or `PT `
//! (a two-letter tag and one space) means Web of Science. Lines that decide
//! nothing (Ovid's `1.` record numbers, JSTOR's `Provider:` header) are
//! passed over; a file where nothing decides is read as RIS.
//!
//! **Lines.** A UTF-8 BOM is dropped (also at the start of a later line, as
//! in concatenated exports); LF or CRLF end lines (a lone CR in a file with
//! no LF). RIS tags are `[A-Z][A-Z0-9]`, two spaces, `-`, an optional
//! space and the value. Inside a record, a line that is not a tag line
//! continues the field before it; blank lines are ignored. In text fields
//! the continuation joins with a space; in author and link fields each
//! continuation line is one more value (Rayyan writes multi-valued fields
//! that way, and Web of Science writes one author per indented line).
//!
//! **Records.** The start tag (`TY`, `PT`, `PMID`) opens a record, and `ER`
//! (or, in MEDLINE, the next `PMID`) closes it; a record left open at the
//! next start tag or at the end of the input is kept. Tags outside a record
//! are a *stray block*, running to the next start tag. A stray block that
//! holds a title or abstract tag or ends with `ER` is a record that lost its
//! start line, reported in [`Parsed::skipped`]; one before the first record
//! is reported too. Other stray tags after a record's `ER` are ignored:
//! Ovid writes the journal abbreviation (`NL`) after `ER`, and the record
//! has lost nothing.
//!
//! **Fields (RIS).** Title: `TI`, else `T1`, `CT`, `BT`, `ST` (short title).
//! Abstract: every `AB` (repeats joined), else every `N2`. Authors: `AU` and
//! `A1` in file order; `A2`–`A4` are editors and others (Ovid fills `A2`
//! with the surnames of cited authors), never taken as authors. Year: the
//! first four-digit year in `PY`, else `Y1`, else `DA`. Venue: `JF` (the
//! full journal name by definition), else `T2`, `JO`, `JA`, `J2`, `J1`.
//! DOI: `DO` with any `doi:` or doi.org prefix stripped, else a doi.org
//! link in `UR` or `L1`–`L4`; a value that does not read as a DOI
//! (`10.<digits>/…`) is dropped. Links: the http(s) URLs of `UR`, `L1`
//! (PDF) and `L2` (full text), in that order, once each. arXiv id: from an
//! arXiv DOI (`10.48550/arXiv.…`) or an arxiv.org link.
//!
//! **Fields (Web of Science).** `TI`, `AB`; authors `AF` (full names),
//! else `AU`; year `PY`, else `EA`; venue `SO`, else `JI`, `J9`; DOI `DI`.
//! **(MEDLINE)** `TI`, else `BTI`; `AB`; authors `FAU`, else `AU`; year
//! `DP`; venue `JT`, else `TA`; DOI from `LID`/`AID` values marked `[doi]`;
//! a PubMed link from `PMID`.
//!
//! Every text value has its whitespace folded to single spaces and is
//! otherwise kept as written: sanitizing happens later, in
//! [`Record::into_paper`].

use super::{Format, Reader, head_lines};
use crate::corpus::fields::{Name, arxiv_in, doi, year_in};
use crate::corpus::{Authors, More, Parsed, Record};

/// The tagged formats this reader takes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Dialect {
    Ris,
    WebOfScience,
    Medline,
}

/// One input line, classified by a dialect.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Line<'a> {
    /// A tag and its value (trimmed, possibly empty).
    Tag(&'a str, &'a str),
    /// Any other non-blank line (trimmed).
    Text(&'a str),
    /// An empty or all-whitespace line.
    Blank,
}

/// How a dialect marks its lines and records.
struct Spec {
    classify: fn(&str) -> Line<'_>,
    /// The tag that opens a record.
    start: &'static str,
    /// The tag that closes one, if the dialect has one.
    end: Option<&'static str>,
    /// Tags that may stand outside records: file headers and trailers.
    outside: &'static [&'static str],
    /// Tags carrying a title or abstract: a stray block holding one is a
    /// record that lost its start line.
    content: &'static [&'static str],
}

const RIS: Spec = Spec {
    classify: ris_line,
    start: "TY",
    end: Some("ER"),
    outside: &[],
    content: &["TI", "T1", "CT", "BT", "ST", "AB", "N2"],
};

const WEB_OF_SCIENCE: Spec = Spec {
    classify: wos_line,
    start: "PT",
    end: Some("ER"),
    outside: &["FN", "VR", "EF"],
    content: &["TI", "AB"],
};

const MEDLINE: Spec = Spec {
    classify: medline_line,
    start: "PMID",
    end: None,
    outside: &[],
    content: &["TI", "AB"],
};

/// One field of a record: its tag and its lines (the value on the tag line
/// first, then any continuation lines).
struct TagLines<'a> {
    tag: &'a str,
    lines: Vec<&'a str>,
}

impl TagLines<'_> {
    /// The lines joined and whitespace-folded.
    fn text(&self) -> String {
        fold_all(self.lines.iter().copied())
    }
}

/// A record's fields as the file wrote them.
struct Raw<'a> {
    line: usize,
    fields: Vec<TagLines<'a>>,
}

impl<'a> Raw<'a> {
    /// The fields with one of `tags`, in file order.
    fn with<'s>(&'s self, tags: &'s [&str]) -> impl Iterator<Item = &'s TagLines<'a>> + 's {
        self.fields.iter().filter(move |f| tags.contains(&f.tag))
    }

    /// The first non-empty text, trying the tags in priority order.
    fn text(&self, tags: &[&str]) -> Option<String> {
        self.first(tags, |t| Some(t.to_string()))
    }

    /// The first value `f` accepts, trying the tags in priority order and
    /// each tag's fields in file order. `f` sees folded, non-empty text.
    fn first<T>(&self, tags: &[&str], f: impl Fn(&str) -> Option<T>) -> Option<T> {
        tags.iter().find_map(|tag| {
            self.with(std::slice::from_ref(tag))
                .map(TagLines::text)
                .filter(|t| !t.is_empty())
                .find_map(|t| f(&t))
        })
    }

    /// Every distinct non-empty text of `tag`, joined with spaces.
    fn joined(&self, tag: &str) -> Option<String> {
        let mut parts: Vec<String> = Vec::new();
        for f in self.with(&[tag]) {
            let t = f.text();
            if !t.is_empty() && !parts.contains(&t) {
                parts.push(t);
            }
        }
        (!parts.is_empty()).then(|| parts.join(" "))
    }

    /// Each line of the fields with one of `tags` as a value of its own,
    /// folded, in file order.
    fn items(&self, tags: &[&str]) -> Vec<String> {
        self.with(tags)
            .flat_map(|f| f.lines.iter().map(|l| fold(l)))
            .filter(|s| !s.is_empty())
            .collect()
    }

    /// Keywords: each line of the fields with one of `tags` (a field's
    /// whole text where `whole`: Web of Science wraps one list over
    /// lines), split at `;` (a keyword may hold a comma: `Carcinoma,
    /// Squamous Cell`), in file order.
    fn keywords(&self, tags: &[&str], whole: bool) -> Vec<String> {
        let parts = match whole {
            true => self.values(tags),
            false => self.items(tags),
        };
        parts
            .iter()
            .flat_map(|p| p.split(';'))
            .map(str::trim)
            .filter(|k| !k.is_empty())
            .map(str::to_string)
            .collect()
    }

    /// Each field with one of `tags` as one value, folded, in file order.
    fn values(&self, tags: &[&str]) -> Vec<String> {
        self.with(tags)
            .map(TagLines::text)
            .filter(|s| !s.is_empty())
            .collect()
    }

    /// The whitespace-separated words of the fields with one of `tags`
    /// (links, ids), tag by tag in priority order.
    fn words(&self, tags: &[&str]) -> Vec<String> {
        tags.iter()
            .flat_map(|tag| self.with(std::slice::from_ref(tag)))
            .flat_map(|f| f.lines.iter().flat_map(|l| l.split_whitespace()))
            .map(|w| w.trim_end_matches([';', ',']).to_string())
            .filter(|w| !w.is_empty())
            .collect()
    }
}

/// Parses RIS (or Web of Science tagged) text.
pub fn parse(text: &str) -> Parsed {
    let dialect = detect(text);
    let spec = match dialect {
        Dialect::Ris => &RIS,
        Dialect::WebOfScience => &WEB_OF_SCIENCE,
        Dialect::Medline => &MEDLINE,
    };
    let (raws, skipped) = split(text, spec);
    let records = raws
        .iter()
        .map(|raw| match dialect {
            Dialect::Ris => ris_record(raw),
            Dialect::WebOfScience => wos_record(raw),
            Dialect::Medline => medline_record(raw),
        })
        .collect();
    Parsed {
        header: None,
        records,
        skipped,
        ..Parsed::default()
    }
}

/// Lines with their 1-based numbers: BOMs dropped, LF, CRLF or lone CR as
/// line ends, trailing whitespace trimmed (leading whitespace is kept: Web
/// of Science and MEDLINE mark continuation lines with it).
fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let sep = if !text.contains('\n') && text.contains('\r') {
        '\r'
    } else {
        '\n'
    };
    text.split(sep).enumerate().map(|(i, l)| {
        let l = l.strip_prefix('\u{FEFF}').unwrap_or(l);
        (i + 1, l.trim_end())
    })
}

fn is_tag_start(b: u8) -> bool {
    b.is_ascii_uppercase()
}

fn is_tag_rest(b: u8) -> bool {
    b.is_ascii_uppercase() || b.is_ascii_digit()
}

fn text_line(l: &str) -> Line<'_> {
    let t = l.trim();
    if t.is_empty() {
        Line::Blank
    } else {
        Line::Text(t)
    }
}

/// `TY  - JOUR`, `ER  -`, `AB  -text`.
fn ris_line(l: &str) -> Line<'_> {
    match ris_tag(l) {
        Some((tag, value)) => Line::Tag(tag, value),
        None => text_line(l),
    }
}

/// An RIS tag line as reference managers accept it: a tag, one or two
/// spaces or a tab, `-`, then (after a space) the value: `TY  - JOUR`,
/// `TY - JOUR`, `TY\t- JOUR`, `ER  -`.
fn ris_tag(l: &str) -> Option<(&str, &str)> {
    let b = l.as_bytes();
    if b.len() < 4 || !is_tag_start(b[0]) || !is_tag_rest(b[1]) {
        return None;
    }
    let dash = match &b[2..] {
        [b' ', b' ', b'-', ..] => 5,
        // Spaced less than the standard's two, the dash must end the line
        // or stand before a space (`AB - so`, not `AB -so`).
        [b' ' | b'\t', b'-', ..]
            if b.get(4)
                .is_none_or(|&c| c == b' ' || c == b'\t' || c == b'\r') =>
        {
            4
        }
        _ => return None,
    };
    let rest = &l[dash..];
    Some((&l[..2], rest.strip_prefix(' ').unwrap_or(rest).trim()))
}

/// `PT J`, `ER`, and indented continuation lines.
fn wos_line(l: &str) -> Line<'_> {
    let b = l.as_bytes();
    if b.len() >= 2 && is_tag_start(b[0]) && is_tag_rest(b[1]) && (b.len() == 2 || b[2] == b' ') {
        return Line::Tag(&l[..2], l[2..].trim());
    }
    text_line(l)
}

/// `PMID- 123`, `TI  - …`, `FAU - …`: a tag of two to four characters
/// padded to four, then `- `.
fn medline_line(l: &str) -> Line<'_> {
    let b = l.as_bytes();
    if b.len() >= 5 && b[4] == b'-' && (b.len() == 5 || b[5] == b' ') {
        let tag = l[..4].trim_end_matches(' ');
        let t = tag.as_bytes();
        if t.len() >= 2 && is_tag_start(t[0]) && t[1..].iter().all(|&c| is_tag_rest(c)) {
            return Line::Tag(tag, l[5..].trim());
        }
    }
    text_line(l)
}

fn detect(text: &str) -> Dialect {
    for (_, l) in lines(text) {
        if l.starts_with("PMID-") {
            return Dialect::Medline;
        }
        if matches!(ris_line(l), Line::Tag(..)) {
            return Dialect::Ris;
        }
        if ["FN ", "VR ", "PT "].iter().any(|p| l.starts_with(p)) {
            return Dialect::WebOfScience;
        }
    }
    Dialect::Ris
}

/// Tags met outside any record.
struct Stray<'a> {
    line: usize,
    tag: &'a str,
    /// It holds a title or abstract, or ends with the end tag.
    lost_record: bool,
    /// It comes before the first record.
    before_first: bool,
}

fn resolve(stray: Stray<'_>, spec: &Spec, skipped: &mut Vec<(usize, String)>) {
    if stray.lost_record {
        skipped.push((
            stray.line,
            format!(
                "record without a {} line (starts with {})",
                spec.start, stray.tag
            ),
        ));
    } else if stray.before_first {
        skipped.push((
            stray.line,
            format!("{} tag before the first {} record", stray.tag, spec.start),
        ));
    }
}

/// Splits the input into records' fields, and reports stray blocks.
fn split<'a>(text: &'a str, spec: &Spec) -> (Vec<Raw<'a>>, Vec<(usize, String)>) {
    let mut records = Vec::new();
    let mut skipped = Vec::new();
    let mut current: Option<Raw<'a>> = None;
    let mut stray: Option<Stray<'a>> = None;
    let mut seen_start = false;
    for (n, line) in lines(text) {
        match (spec.classify)(line) {
            Line::Blank => {}
            Line::Text(t) => {
                if let Some(field) = current.as_mut().and_then(|r| r.fields.last_mut()) {
                    field.lines.push(t);
                }
            }
            Line::Tag(tag, value) if tag == spec.start => {
                records.extend(current.take());
                if let Some(s) = stray.take() {
                    resolve(s, spec, &mut skipped);
                }
                seen_start = true;
                current = Some(Raw {
                    line: n,
                    fields: vec![TagLines {
                        tag,
                        lines: vec![value],
                    }],
                });
            }
            Line::Tag(tag, _) if Some(tag) == spec.end => {
                if let Some(r) = current.take() {
                    records.push(r);
                } else if let Some(mut s) = stray.take() {
                    s.lost_record = true;
                    resolve(s, spec, &mut skipped);
                }
            }
            Line::Tag(tag, value) => {
                if let Some(r) = current.as_mut() {
                    r.fields.push(TagLines {
                        tag,
                        lines: vec![value],
                    });
                } else if !spec.outside.contains(&tag) {
                    let s = stray.get_or_insert(Stray {
                        line: n,
                        tag,
                        lost_record: false,
                        before_first: !seen_start,
                    });
                    s.lost_record |= spec.content.contains(&tag);
                }
            }
        }
    }
    records.extend(current);
    if let Some(s) = stray {
        resolve(s, spec, &mut skipped);
    }
    (records, skipped)
}

/// The http(s) links among `words`, once each.
fn http_links(words: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for w in words {
        let lower = w.to_ascii_lowercase();
        if (lower.starts_with("http://") || lower.starts_with("https://")) && !out.contains(w) {
            out.push(w.clone());
        }
    }
    out
}

/// The role of the people a creator tag of an RIS record of type `ty`
/// names, as reference managers read them: `author` for the authors;
/// `None` where the tag names no person for that type (a case's reporter
/// and court, a patent's issuing authority).
fn role(tag: &str, ty: &str) -> Option<&'static str> {
    Some(match (tag, ty) {
        ("AU" | "A1", "PAT") => "inventor",
        ("AU" | "A1", "MPCT" | "VIDEO" | "ADVS") => "director",
        ("AU" | "A1", "EDBOOK") => "editor",
        ("AU" | "A1", "ART" | "CHART" | "FIGURE") => "artist",
        ("AU" | "A1", "MAP") => "cartographer",
        ("AU" | "A1", "SOUND" | "MUSIC") => "composer",
        ("AU" | "A1", "COMP") => "programmer",
        ("AU" | "A1", _) => "author",
        ("A2", "BOOK" | "EBOOK" | "EDBOOK" | "CLSWK" | "COMP") => "series editor",
        ("A2", "BILL") => "sponsor",
        ("A2", "SOUND" | "MUSIC" | "ADVS") => "performer",
        ("A2", "SLIDE") => "presenter",
        ("A2", "PCOMM" | "ICOMM") => "recipient",
        ("A2", "CASE" | "PAT" | "CHART" | "DATA" | "CTLG") => return None,
        ("A3", "BOOK" | "EBOOK") => "editor",
        ("A3", "MPCT" | "VIDEO") => "producer",
        ("A3", "BILL") => "cosponsor",
        ("A3", "CASE") => return None,
        ("A3", _) => "series editor",
        ("A4", "CASE") => "counsel",
        ("A4", "CONF" | "MPCT" | "DATA") => "contributor",
        ("A4", _) => "translator",
        ("A2" | "ED", _) => "editor",
        _ => return None,
    })
}

/// The tags a record of type `ty` is titled from, best first: a
/// chapter's `BT` is its book's title (its venue), a book's its own.
fn title_tags(ty: &str) -> &'static [&'static str] {
    match ty {
        "CHAP" | "ECHAP" => &["TI", "T1", "CT"],
        "BOOK" | "EBOOK" | "EDBOOK" | "MANSCPT" => &["TI", "T1", "BT", "CT"],
        // A case's name, an act's name; else their short forms.
        "CASE" | "STAT" | "BILL" => &["TI", "T1", "CT", "ST"],
        _ => &["TI", "T1", "CT", "BT", "ST"],
    }
}

/// The tags a record of type `ty` takes its venue from, best first.
fn venue_tags(ty: &str) -> &'static [&'static str] {
    match ty {
        "CHAP" | "ECHAP" => &["BT", "T2", "JF", "JO", "JA", "J2", "J1"],
        _ => &["JF", "T2", "JO", "JA", "J2", "J1"],
    }
}

fn ris_record(raw: &Raw<'_>) -> Record {
    let links = raw.words(&["UR", "L1", "L2", "L3", "L4"]);
    let doi = raw
        .first(&["DO"], doi)
        .or_else(|| links.iter().find_map(|w| doi(w)));
    let arxiv = raw
        .first(&["DO"], |t| arxiv_in(t, false))
        .or_else(|| links.iter().find_map(|w| arxiv_in(w, false)));
    let ty = raw.text(&["TY"]).unwrap_or_default().to_ascii_uppercase();
    let ty = ty.trim();
    let mut authors = Vec::new();
    let mut roles = Vec::new();
    for field in raw.with(&["AU", "A1", "A2", "A3", "A4", "ED"]) {
        let Some(role) = role(field.tag, ty) else {
            continue;
        };
        for line in &field.lines {
            let name = Name::family_first_text(&fold(line));
            if name.is_blank() {
                continue;
            }
            if role == "author" {
                authors.push(name);
            } else {
                roles.push((role.to_string(), name.display()));
            }
        }
    }
    Record {
        title: raw.text(title_tags(ty)),
        abstract_text: raw.joined("AB").or_else(|| raw.joined("N2")),
        authors: Authors::from_names(authors),
        // The current date tags before the deprecated one.
        year: raw.first(&["PY", "DA", "Y1"], year_in),
        venue: raw.text(venue_tags(ty)),
        urls: http_links(&raw.words(&["UR", "L1", "L2"])),
        arxiv,
        doi,
        key: raw.text(&["ID"]),
        volume: raw.text(&["VL"]),
        line: raw.line,
        former_id: None,
        given_id: None,
        more: More {
            roles,
            keywords: raw.keywords(&["KW"], false),
            ..More::default()
        }
        .into(),
    }
}

/// Names written family name first (`Smith, Jane`), each in its parts.
fn family_first(names: Vec<String>) -> Authors {
    Authors::from_names(names.iter().map(|n| Name::family_first_text(n)))
}

fn wos_record(raw: &Raw<'_>) -> Record {
    let mut authors = raw.items(&["AF"]);
    if authors.is_empty() {
        authors = raw.items(&["AU"]);
    }
    Record {
        title: raw.text(&["TI"]),
        abstract_text: raw.joined("AB"),
        authors: family_first(authors),
        year: raw.first(&["PY", "EA"], year_in),
        venue: raw.text(&["SO", "JI", "J9"]),
        urls: Vec::new(),
        arxiv: raw.first(&["DI"], |t| arxiv_in(t, false)),
        doi: raw.first(&["DI"], doi),
        key: raw.text(&["UT"]),
        volume: raw.text(&["VL"]),
        line: raw.line,
        former_id: None,
        given_id: None,
        // The authors' keywords, then Keywords Plus.
        more: More {
            keywords: raw.keywords(&["DE", "ID"], true),
            ..More::default()
        }
        .into(),
    }
}

fn medline_record(raw: &Raw<'_>) -> Record {
    let mut authors = raw.values(&["FAU"]);
    if authors.is_empty() {
        authors = raw.values(&["AU"]);
    }
    let doi = raw.first(&["LID", "AID"], |t| {
        t.strip_suffix("[doi]").and_then(|d| doi(d.trim_end()))
    });
    let urls = raw
        .first(&["PMID"], |t| {
            (t.bytes().all(|b| b.is_ascii_digit()))
                .then(|| format!("https://pubmed.ncbi.nlm.nih.gov/{t}/"))
        })
        .into_iter()
        .collect();
    Record {
        title: raw.text(&["TI", "BTI"]),
        abstract_text: raw.joined("AB"),
        authors: family_first(authors),
        year: raw.first(&["DP"], year_in),
        venue: raw.text(&["JT", "TA"]),
        urls,
        arxiv: doi.as_deref().and_then(|d| arxiv_in(d, false)),
        doi,
        key: raw.text(&["PMID"]),
        volume: raw.text(&["VI"]),
        line: raw.line,
        former_id: None,
        given_id: None,
        // The authors' terms, then the MeSH headings without their
        // qualifiers or the major-topic star (`*Neoplasms/drug therapy`
        // is Neoplasms).
        more: More {
            keywords: raw
                .keywords(&["OT"], false)
                .into_iter()
                .chain(raw.items(&["MH"]).iter().filter_map(|h| {
                    let h = h.split('/').next()?.trim_start_matches('*').trim();
                    (!h.is_empty()).then(|| h.to_string())
                }))
                .collect(),
            ..More::default()
        }
        .into(),
    }
}

/// `s` with runs of whitespace (newlines included) folded to single spaces,
/// trimmed.
pub(super) fn fold(s: &str) -> String {
    fold_all(std::iter::once(s))
}

fn fold_all<'a>(parts: impl Iterator<Item = &'a str>) -> String {
    let mut out = String::new();
    for w in parts.flat_map(str::split_whitespace) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

/// RIS, and the tagged text of Web of Science and MEDLINE.
pub struct Ris;

impl Reader for Ris {
    fn name(&self) -> &'static str {
        "ris"
    }

    fn about(&self) -> &'static str {
        "RIS (and Web of Science / MEDLINE tagged text)"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["ris", "nbib", "ciw"]
    }

    /// Two RIS tag lines (`TY  - `) in the first forty, a Web of Science
    /// file's `FN `/`PT ` first line, or a MEDLINE `PMID-` near the top.
    fn sniff(&self, head: &str, _hint: Option<Format>) -> bool {
        let head: Vec<&str> = head_lines(head, 200).collect();
        let ris_like = head
            .iter()
            .take(40)
            .filter(|l| ris_tag(l).is_some())
            .count();
        // A record's start, however spaced: `TY - JOUR`.
        let starts = head
            .iter()
            .take(40)
            .any(|l| ris_tag(l).is_some_and(|(t, _)| t == "TY"));
        let wos = head
            .first()
            .is_some_and(|l| l.starts_with("FN ") || l.starts_with("PT "));
        let medline = head.iter().take(5).any(|l| l.starts_with("PMID-"));
        (ris_like >= 2 && (starts || ris_like >= 4)) || wos || medline
    }

    fn parse(&self, text: &str) -> Parsed {
        parse(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn one(text: &str) -> Record {
        let p = parse(text);
        assert_eq!(p.records.len(), 1, "records of {text:?}: {:?}", p.records);
        p.records.into_iter().next().unwrap()
    }

    #[test]
    fn reads_a_full_record() {
        let r = one(concat!(
            "TY  - JOUR\n",
            "TI  - Learning   to\n",
            "  read papers\n",
            "AU  - Smith, Jane\n",
            "A1  - Doe, K.\n",
            "A2  - Editor, E.\n",
            "PY  - 2019//\n",
            "JO  - J. Read.\n",
            "JF  - Journal of Reading\n",
            "DO  - https://doi.org/10.1000/ABC.1\n",
            "UR  - https://example.org/a\n",
            "UR  - ftp://example.org/b\n",
            "L1  - https://example.org/a.pdf\n",
            "L4  - https://example.org/figure.png\n",
            "AB  - First line\n",
            "second line.\n",
            "ER  - \n",
        ));
        assert_eq!(r.title.as_deref(), Some("Learning to read papers"));
        assert_eq!(r.abstract_text.as_deref(), Some("First line second line."));
        assert_eq!(r.authors, ["Jane Smith", "K. Doe"]);
        assert_eq!(r.year, Some(2019));
        assert_eq!(r.venue.as_deref(), Some("Journal of Reading"));
        assert_eq!(r.doi.as_deref(), Some("10.1000/ABC.1"));
        assert_eq!(
            r.urls,
            ["https://example.org/a", "https://example.org/a.pdf"]
        );
        assert_eq!(r.arxiv, None);
        assert_eq!(r.line, 1);
    }

    #[test]
    fn title_and_abstract_fallbacks() {
        let t = |body: &str| one(&format!("TY  - JOUR\n{body}ER  -\n"));
        assert_eq!(
            t("T1  - One\nTI  - Two\n").title.as_deref(),
            Some("Two"),
            "TI comes first"
        );
        assert_eq!(t("T1  - One\n").title.as_deref(), Some("One"));
        assert_eq!(t("BT  - Book\nCT  - Ct\n").title.as_deref(), Some("Ct"));
        assert_eq!(
            t("ST  - Short\nBT  - Book\n").title.as_deref(),
            Some("Book")
        );
        assert_eq!(t("ST  - Short\n").title.as_deref(), Some("Short"));
        assert_eq!(t("TI  -\nT1  - Given\n").title.as_deref(), Some("Given"));
        let r = t("N2  - From N2\n");
        assert_eq!(r.abstract_text.as_deref(), Some("From N2"));
        let r = t("N2  - From N2\nAB  - From AB\n");
        assert_eq!(r.abstract_text.as_deref(), Some("From AB"));
        let r = t("AB  - Part one.\nAB  - Part two.\nAB  - Part one.\n");
        assert_eq!(r.abstract_text.as_deref(), Some("Part one. Part two."));
    }

    #[test]
    fn records_without_title_or_abstract_are_returned() {
        let r = one("TY  - JOUR\nAU  - Someone\nER  -\n");
        assert_eq!(r.title, None);
        assert_eq!(r.abstract_text, None);
        assert_eq!(r.authors, ["Someone"]);
    }

    #[test]
    fn line_ends_bom_and_tag_spacing() {
        let text = "\u{FEFF}TY  - JOUR\r\nTI  -Title\r\nAB  - Two\r\nlines\r\nER  -   \r\n\r\nTY  - JOUR\r\nTI  - Next\r\nER  -\r\n";
        let p = parse(text);
        assert_eq!(p.records.len(), 2);
        assert_eq!(p.records[0].title.as_deref(), Some("Title"));
        assert_eq!(p.records[0].abstract_text.as_deref(), Some("Two lines"));
        assert_eq!(p.records[1].line, 7);
        assert!(p.skipped.is_empty());
        let cr = parse("TY  - JOUR\rTI  - Old Mac\rER  -\rTY  - JOUR\rTI  - B\r");
        assert_eq!(cr.records.len(), 2);
        assert_eq!(cr.records[1].line, 4);
        // A BOM mid-file, as `cat a.ris b.ris` leaves it.
        let p = parse("TY  - JOUR\nTI  - A\nER  -\n\u{FEFF}TY  - JOUR\nTI  - B\nER  -\n");
        assert_eq!(p.records.len(), 2);
        assert!(p.skipped.is_empty());
    }

    #[test]
    fn missing_er_keeps_the_record() {
        let p = parse("TY  - JOUR\nTI  - A\nTY  - JOUR\nTI  - B\n");
        let titles: Vec<_> = p.records.iter().map(|r| r.title.as_deref()).collect();
        assert_eq!(titles, [Some("A"), Some("B")]);
        assert_eq!(p.records[1].line, 3);
        assert!(p.skipped.is_empty());
    }

    #[test]
    fn stray_tags_are_reported_and_reading_goes_on() {
        let p = parse(concat!(
            "Provider: Somewhere\n", // 1: not a tag, ignored
            "AU  - Orphan\n",        // 2: stray before the first TY
            "TY  - JOUR\n",          // 3
            "TI  - Kept\n",
            "ER  -\n",
            "NL  - Trailer\n", // 6: after an ER, harmless
            "\n",
            "TY  - JOUR\n", // 8
            "TI  - Also kept\n",
            "ER  -\n",
            "TI  - Lost its TY\n", // 11
            "AB  - Text\n",
            "ER  -\n",
            "TY  - JOUR\n", // 14
            "TI  - Last\n",
            "ER  -\n",
        ));
        let lines: Vec<_> = p.records.iter().map(|r| r.line).collect();
        assert_eq!(lines, [3, 8, 14]);
        assert_eq!(
            p.skipped,
            [
                (2, "AU tag before the first TY record".to_string()),
                (11, "record without a TY line (starts with TI)".to_string()),
            ]
        );
        // A TY-less record without content still counts when it ends with ER.
        let p = parse("TY  - JOUR\nER  -\nVL  - 3\nER  -\n");
        assert_eq!(p.records.len(), 1);
        assert_eq!(p.skipped.len(), 1);
        assert_eq!(p.skipped[0].0, 3);
        // A lone ER loses nothing.
        assert!(
            parse("ER  -\nTY  - JOUR\nER  -\nER  -\n")
                .skipped
                .is_empty()
        );
    }

    #[test]
    fn authors_one_per_line() {
        let r = one(
            "TY  - JOUR\nAU  - Park, C. S.\nLee, K.\nA1  - Kim, J.\nA3  - Not, An Author\nER  -\n",
        );
        assert_eq!(r.authors, ["C. S. Park", "K. Lee", "J. Kim"]);
        assert!(
            one("TY  - CASE\nA2  - Karash, J.\nA4  - Larson, L.\nER  -\n")
                .authors
                .is_empty()
        );
    }

    #[test]
    fn years() {
        let y = |body: &str| one(&format!("TY  - JOUR\n{body}ER  -\n")).year;
        assert_eq!(y("PY  - 2011\n"), Some(2011));
        assert_eq!(y("Y1  - 2019//\n"), Some(2019));
        assert_eq!(y("DA  - 2012/07/03/\n"), Some(2012));
        assert_eq!(y("DA  - Jun\nY1  - 1998/01/01\n"), Some(1998));
        assert_eq!(y("PY  - n.d.\nDA  - 2001\n"), Some(2001));
        assert_eq!(y("PY  - 12345\n"), None);
        assert_eq!(y("DA  - Jan\n"), None);
    }

    #[test]
    fn dois_links_and_arxiv() {
        let r = |body: &str| one(&format!("TY  - JOUR\n{body}ER  -\n"));
        assert_eq!(
            r("DO  - http://dx.doi.org/10.1002/cpp.2398\n")
                .doi
                .as_deref(),
            Some("10.1002/cpp.2398")
        );
        assert_eq!(r("DO  - DOI: 10.1/x\n").doi.as_deref(), Some("10.1/x"));
        assert_eq!(r("DO  - not a doi\n").doi, None);
        let linked = r("UR  - https://example.org\nL3  - https://doi.org/10.5555/q\n");
        assert_eq!(linked.doi.as_deref(), Some("10.5555/q"));
        assert_eq!(linked.urls, ["https://example.org"]);
        let multi = r(
            "UR  - https://a.example https://b.example;\nhttps://a.example\n<Go to ISI>://WOS:1\n",
        );
        assert_eq!(multi.urls, ["https://a.example", "https://b.example"]);
        let ax = r("DO  - 10.48550/arXiv.2401.01234\n");
        assert_eq!(ax.arxiv.as_deref(), Some("2401.01234"));
        let ax = r("UR  - https://arxiv.org/abs/hep-th/9901001v2\n");
        assert_eq!(ax.arxiv.as_deref(), Some("hep-th/9901001v2"));
    }

    #[test]
    fn venue_priority() {
        let v = |body: &str| one(&format!("TY  - JOUR\n{body}ER  -\n")).venue;
        assert_eq!(
            v("J2  - Abbr\nT2  - Secondary\n").as_deref(),
            Some("Secondary")
        );
        assert_eq!(
            v("JO  - Jo\nT2  - Secondary\n").as_deref(),
            Some("Secondary")
        );
        assert_eq!(v("JO  - Jo\nJA  - Ja\n").as_deref(), Some("Jo"));
        assert_eq!(v("J2  - Abbr\n").as_deref(), Some("Abbr"));
        assert_eq!(v("PB  - Publisher\n"), None);
    }

    #[test]
    fn web_of_science_tagged() {
        let p = parse(concat!(
            "\u{FEFF}FN Clarivate Analytics Web of Science\n",
            "VR 1.0\n",
            "PT J\n", // 3
            "AU Alceste, F\n",
            "   Luke, TJ\n",
            "AF Alceste, Fabiana\n",
            "   Luke, Timothy J.\n",
            "TI Holding Yourself Captive: Perceptions of Custody\n",
            "   During Interviews\n",
            "SO JOURNAL OF APPLIED RESEARCH IN MEMORY AND COGNITION\n",
            "AB Police custody activates\n",
            "   important legal safeguards.\n",
            "PY 2018\n",
            "DI 10.1016/j.jarmac.2018.03.001\n",
            "ER\n",
            "\n",
            "PT J\n", // 17
            "AU Kassin, SM\n",
            "TI Second\n",
            "EA JAN 2021\n",
            "ER\n",
            "\n",
            "EF\n",
        ));
        assert!(p.skipped.is_empty(), "{:?}", p.skipped);
        assert_eq!(p.records.len(), 2);
        let r = &p.records[0];
        assert_eq!(r.line, 3);
        assert_eq!(
            r.title.as_deref(),
            Some("Holding Yourself Captive: Perceptions of Custody During Interviews")
        );
        assert_eq!(
            r.abstract_text.as_deref(),
            Some("Police custody activates important legal safeguards.")
        );
        assert_eq!(r.authors, ["Fabiana Alceste", "Timothy J. Luke"]);
        assert_eq!(r.year, Some(2018));
        assert_eq!(
            r.venue.as_deref(),
            Some("JOURNAL OF APPLIED RESEARCH IN MEMORY AND COGNITION")
        );
        assert_eq!(r.doi.as_deref(), Some("10.1016/j.jarmac.2018.03.001"));
        let r = &p.records[1];
        assert_eq!((r.line, r.year), (17, Some(2021)));
        assert_eq!(r.authors, ["SM Kassin"]);
        // A stray field before the first PT is reported.
        let p = parse("FN x\nVR 1.0\nTI Orphan\nPT J\nTI Kept\nER\nEF\n");
        assert_eq!(p.records.len(), 1);
        assert_eq!(
            p.skipped,
            [(3, "record without a PT line (starts with TI)".to_string())]
        );
    }

    #[test]
    fn keywords_as_each_dialect_writes_them() {
        // RIS: a keyword a line, or several split at `;`; a comma stays
        // (a paper keeps each once: `record.rs`).
        let r = one(concat!(
            "TY  - JOUR\n",
            "TI  - T\n",
            "KW  - Carcinoma, Squamous Cell\n",
            "KW  - stress; memory\n",
            "KW  - stress\n",
            "ER  -\n",
        ));
        assert_eq!(
            r.more.unwrap().keywords,
            ["Carcinoma, Squamous Cell", "stress", "memory", "stress"]
        );
        // Web of Science: one list wrapped over lines, then Keywords Plus.
        let p = parse(concat!(
            "FN Clarivate Analytics Web of Science\n",
            "PT J\n",
            "TI Custody\n",
            "DE Police custody; Interview; Perception of\n",
            "   freedom\n",
            "ID MIRANDA; SELF\n",
            "ER\n",
        ));
        assert_eq!(
            p.records[0].more.as_ref().unwrap().keywords,
            [
                "Police custody",
                "Interview",
                "Perception of freedom",
                "MIRANDA",
                "SELF"
            ]
        );
        // MEDLINE: the authors' terms, then MeSH headings without
        // qualifiers or the star.
        let p = parse(concat!(
            "PMID- 1\n",
            "TI  - T.\n",
            "OT  - frankincense\n",
            "MH  - Humans\n",
            "MH  - *Plant Extracts/adverse effects/*pharmacology\n",
            "MH  - Disease Models, Animal\n",
        ));
        assert_eq!(
            p.records[0].more.as_ref().unwrap().keywords,
            [
                "frankincense",
                "Humans",
                "Plant Extracts",
                "Disease Models, Animal"
            ]
        );
    }

    #[test]
    fn medline() {
        let p = parse(concat!(
            "PMID- 21553931\n", // 1
            "OWN - NLM\n",
            "DP  - 2011 Jun\n",
            "TI  - Boswellia serrata: an overall assessment of in vitro, preclinical,\n",
            "      pharmacokinetic and clinical data.\n",
            "LID - 10.2165/11586800-000000000-00000 [doi]\n",
            "AB  - Non-steroidal anti-inflammatory drug (NSAID) intake is associated\n",
            "      with adverse effects.\n",
            "FAU - Abdel-Tawab, Mona\n",
            "AU  - Abdel-Tawab M\n",
            "FAU - Werz, Oliver\n",
            "AU  - Werz O\n",
            "JT  - Clinical pharmacokinetics\n",
            "TA  - Clin Pharmacokinet\n",
            "\n",
            "PMID- 29459515\n", // 16
            "TI  - Second.\n",
            "AU  - Abe H\n",
            "AID - S0140 [pii]\n",
            "AID - 10.1/two [doi]\n",
        ));
        assert!(p.skipped.is_empty());
        assert_eq!(p.records.len(), 2);
        let r = &p.records[0];
        assert_eq!(
            r.title.as_deref(),
            Some(
                "Boswellia serrata: an overall assessment of in vitro, preclinical, pharmacokinetic and clinical data."
            )
        );
        assert_eq!(
            r.abstract_text.as_deref(),
            Some(
                "Non-steroidal anti-inflammatory drug (NSAID) intake is associated with adverse effects."
            )
        );
        assert_eq!(r.authors, ["Mona Abdel-Tawab", "Oliver Werz"]);
        assert_eq!(r.year, Some(2011));
        assert_eq!(r.venue.as_deref(), Some("Clinical pharmacokinetics"));
        assert_eq!(r.doi.as_deref(), Some("10.2165/11586800-000000000-00000"));
        assert_eq!(r.urls, ["https://pubmed.ncbi.nlm.nih.gov/21553931/"]);
        let r = &p.records[1];
        assert_eq!(r.line, 16);
        assert_eq!(r.authors, ["Abe H"]);
        assert_eq!(r.doi.as_deref(), Some("10.1/two"));
    }

    #[test]
    fn detection() {
        assert_eq!(detect("1.\nTY  - JOUR\n"), Dialect::Ris);
        assert_eq!(detect("\n\nPMID- 1\n"), Dialect::Medline);
        assert_eq!(detect("FN Web of Science\nVR 1.0\n"), Dialect::WebOfScience);
        assert_eq!(detect("PT J\nTI x\n"), Dialect::WebOfScience);
        assert_eq!(detect("just text\n"), Dialect::Ris);
        assert_eq!(detect(""), Dialect::Ris);
        assert!(parse("").records.is_empty());
        assert!(parse("just some text\nand more\n").skipped.is_empty());
    }

    #[test]
    fn helpers() {
        assert_eq!(fold("  a \n\t b  "), "a b");
    }

    /// Reads a corpus file; a missing folder fails the test loudly.
    macro_rules! corpus {
        ($name:literal) => {{
            let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/corpora/", $name);
            let bytes = std::fs::read(path).unwrap_or_else(|e| {
                panic!("corpus file {path} cannot be read ({e}); it belongs in tests/data/corpora")
            });
            String::from_utf8_lossy(&bytes).into_owned()
        }};
    }

    /// What a parse of a corpus file gave, counted the way the independent
    /// script (regexes over the raw lines) counts.
    #[derive(PartialEq, Eq, Debug)]
    struct Stats {
        records: usize,
        titled: usize,
        with_abstract: usize,
        neither: usize,
        skipped: usize,
        with_doi: usize,
        with_year: usize,
        with_venue: usize,
        with_authors: usize,
        authors: usize,
        urls: usize,
    }

    fn stats(p: &Parsed) -> Stats {
        let has = |s: &Option<String>| s.as_deref().is_some_and(|s| !s.trim().is_empty());
        let count = |f: &dyn Fn(&Record) -> bool| p.records.iter().filter(|r| f(r)).count();
        Stats {
            records: p.records.len(),
            titled: count(&|r| has(&r.title)),
            with_abstract: count(&|r| has(&r.abstract_text)),
            neither: count(&|r| !has(&r.title) && !has(&r.abstract_text)),
            skipped: p.skipped.len(),
            with_doi: count(&|r| r.doi.is_some()),
            with_year: count(&|r| r.year.is_some()),
            with_venue: count(&|r| has(&r.venue)),
            with_authors: count(&|r| !r.authors.is_empty()),
            authors: p.records.iter().map(|r| r.authors.len()).sum(),
            urls: p.records.iter().map(|r| r.urls.len()).sum(),
        }
    }

    /// Checks the agreed counts and what every corpus parse promises.
    fn check(p: &Parsed, counts: [usize; 5], fields: [usize; 6]) {
        let [records, titled, with_abstract, neither, skipped] = counts;
        let [with_doi, with_year, with_venue, with_authors, authors, urls] = fields;
        let expected = Stats {
            records,
            titled,
            with_abstract,
            neither,
            skipped,
            with_doi,
            with_year,
            with_venue,
            with_authors,
            authors,
            urls,
        };
        assert_eq!(stats(p), expected, "skipped: {:?}", p.skipped);
        assert!(p.header.is_none());
        assert!(p.records.windows(2).all(|w| w[0].line < w[1].line));
        for r in &p.records {
            for text in [&r.title, &r.abstract_text, &r.venue].into_iter().flatten() {
                assert!(
                    !text.contains(['\r', '\n', '\u{FEFF}']),
                    "unfolded text at line {}",
                    r.line
                );
                assert_eq!(text.trim(), text);
            }
        }
    }

    #[test]
    fn corpus_embase() {
        let p = parse(&corpus!("ris_embase_6.ris"));
        check(&p, [6, 6, 6, 0, 0], [6, 6, 6, 6, 29, 13]);
        let r = &p.records[0];
        assert_eq!(r.line, 1);
        assert_eq!(
            r.title.as_deref(),
            Some("Duplication cysts: Diagnosis, management, and the role of endoscopic ultrasound")
        );
        assert_eq!(r.authors, ["Liu R.", "Adler D.G."]);
        assert_eq!(r.year, Some(2014));
        assert_eq!(r.venue.as_deref(), Some("Endoscopic Ultrasound"));
        assert_eq!(r.doi.as_deref(), Some("10.4103/2303-9027.138783"));
    }

    #[test]
    fn corpus_lens_bom_crlf() {
        let p = parse(&corpus!("ris_lens_bom_100.ris"));
        check(&p, [100, 100, 98, 0, 0], [100, 100, 100, 100, 648, 770]);
        let r = &p.records[0];
        assert_eq!(r.line, 1);
        assert_eq!(r.authors.len(), 5);
        assert_eq!(&r.authors[0], "Björn A. Blomberg");
        assert_eq!(r.urls.len(), 9);
        assert_eq!(
            r.urls[0], "https://lens.org/000-463-679-101-319",
            "UR first"
        );
        assert_eq!(p.records[1].line, 32);
        // The abstract with blank lines between its sections reads whole.
        let sectioned = p
            .records
            .iter()
            .find_map(|r| {
                r.abstract_text
                    .as_deref()
                    .filter(|a| a.starts_with("Background Myocardial"))
            })
            .expect("the sectioned abstract");
        assert!(sectioned.ends_with("Systematic review registration PROSPERO (CRD42015025246)"));
    }

    #[test]
    fn corpus_ovid() {
        let p = parse(&corpus!("ris_ovid_psycinfo_6.ris"));
        // Authors: A1 only; Ovid's A2 holds cited authors' surnames. The
        // NL line after each ER is ignored, not skipped.
        check(&p, [6, 6, 6, 0, 0], [6, 6, 6, 6, 32, 6]);
        let r = &p.records[0];
        assert_eq!(r.line, 2);
        assert_eq!(r.doi.as_deref(), Some("10.1002/cpp.2398"));
        assert_eq!(r.year, Some(2019));
        assert_eq!(
            r.venue.as_deref(),
            Some("Clinical Psychology & Psychotherapy")
        );
        assert_eq!(p.records[1].line, 31);
    }

    #[test]
    fn corpus_proquest() {
        let p = parse(&corpus!("ris_proquest_6.ris"));
        check(&p, [6, 6, 6, 0, 0], [6, 6, 6, 6, 47, 18]);
    }

    #[test]
    fn corpus_pubmed_endnote() {
        // An EndNote export of PubMed records: RIS, not MEDLINE.
        let text = corpus!("ris_pubmed_endnote_6.txt");
        assert_eq!(detect(&text), Dialect::Ris);
        let p = parse(&text);
        check(&p, [6, 6, 6, 0, 0], [6, 6, 6, 6, 50, 0]);
        let r = &p.records[0];
        assert_eq!(r.line, 2);
        assert_eq!(
            r.authors,
            ["M. Abdel-Tawab", "O. Werz", "M. Schubert-Zsilavecz"]
        );
        assert_eq!(r.venue.as_deref(), Some("Clin Pharmacokinet"));
        assert_eq!(r.year, Some(2011));
    }

    #[test]
    fn corpus_pubmed_zotero() {
        let p = parse(&corpus!("ris_pubmed_zotero_6.ris"));
        check(&p, [6, 6, 6, 0, 0], [6, 6, 6, 6, 26, 0]);
        assert_eq!(
            p.records[0].venue.as_deref(),
            Some("Przeglad gastroenterologiczny")
        );
    }

    #[test]
    fn corpus_rayyan() {
        let p = parse(&corpus!("ris_rayyan_issue992.txt"));
        // Three records name authors (AU); the CASE record's A2/A4 are not
        // taken. "<Go to ISI>://WOS:…" is no link.
        check(&p, [19, 19, 8, 0, 0], [3, 19, 19, 3, 13, 2]);
        assert_eq!(
            p.records[0].title.as_deref(),
            Some("Overcoming Medication Reconciliation Challenges")
        );
    }

    #[test]
    fn corpus_scopus() {
        let p = parse(&corpus!("ris_scopus_6.ris"));
        check(&p, [6, 6, 6, 0, 0], [6, 6, 6, 6, 26, 5]);
        let r = &p.records[0];
        assert_eq!(r.venue.as_deref(), Some("Psychoneuroendocrinology"));
        assert_eq!(r.doi.as_deref(), Some("10.1016/j.psyneuen.2019.104501"));
    }

    #[test]
    fn corpus_web_of_science_as_ris() {
        // Despite the name, this export is RIS, not the WoS tagged format.
        let text = corpus!("ris_web_of_science_10.txt");
        assert_eq!(detect(&text), Dialect::Ris);
        let p = parse(&text);
        check(&p, [10, 10, 10, 0, 0], [10, 10, 10, 10, 36, 1]);
        let r = &p.records[0];
        assert_eq!(r.authors, ["F Alceste", "TJ Luke", "SM Kassin"]);
        assert_eq!(r.year, Some(2018));
        assert!(
            p.records
                .iter()
                .any(|r| r.venue.as_deref() == Some("Law and Human Behavior")),
            "the record with JO and no T2"
        );
    }

    #[test]
    fn corpus_zotero_crlf() {
        let p = parse(&corpus!("ris_zotero_100.ris"));
        check(&p, [100, 100, 98, 0, 0], [100, 100, 100, 100, 648, 200]);
        let r = &p.records[0];
        assert_eq!(r.authors.len(), 17);
        assert_eq!(r.venue.as_deref(), Some("Nature Machine Intelligence"));
        assert_eq!(r.year, Some(2021));
    }

    #[test]
    fn corpus_lens_and_zotero_agree() {
        // The same 100 records, exported by Lens and re-exported by Zotero.
        let lens = parse(&corpus!("ris_lens_bom_100.ris"));
        let zotero = parse(&corpus!("ris_zotero_100.ris"));
        let key = |p: &Parsed| {
            let mut v: Vec<(String, Option<i32>, usize)> = p
                .records
                .iter()
                .map(|r| {
                    (
                        r.doi.clone().unwrap_or_default().to_lowercase(),
                        r.year,
                        r.authors.len(),
                    )
                })
                .collect();
            v.sort();
            v
        };
        assert_eq!(key(&lens), key(&zotero));
    }

    const SAMPLE: &str = "TY  - JOUR\r\nTI  - A title\r\nAU  - Smith, J.\r\nAB  - Abstract text\r\ncontinued here.\r\nPY  - 2020\r\nDO  - 10.1/x\r\nUR  - https://e.org\r\nER  - \r\n\r\nPT J\nAU Doe, K\n   Roe, L\nTI Wos\nER\nPMID- 1\nTI  - Med\n      line\n";

    /// Lines that the readers care about, to build random tagged inputs.
    fn fragment() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("TY  - JOUR".to_string()),
            Just("ER  -".to_string()),
            Just("ER  - ".to_string()),
            Just("TI  - t".to_string()),
            Just("AB  -".to_string()),
            Just("AU  - a".to_string()),
            Just("DO  - 10.1/x".to_string()),
            Just("PY  - 2020".to_string()),
            Just("PT J".to_string()),
            Just("ER".to_string()),
            Just("EF".to_string()),
            Just("FN x".to_string()),
            Just("PMID- 1".to_string()),
            Just("   cont".to_string()),
            Just(String::new()),
            Just("\u{FEFF}".to_string()),
            Just("\r".to_string()),
            "[A-Z0-9 \\-é\u{FEFF}\r]{0,8}",
            "\\PC{0,12}",
        ]
    }

    /// Structural promises: records in order, lines within the input.
    fn well_formed(text: &str, p: &Parsed) {
        let n = text.split('\n').count().max(text.split('\r').count());
        assert!(p.records.windows(2).all(|w| w[0].line < w[1].line));
        for r in &p.records {
            assert!(r.line >= 1 && r.line <= n);
        }
        for (line, why) in &p.skipped {
            assert!(*line >= 1 && *line <= n);
            assert!(!why.is_empty());
        }
    }

    proptest! {
        #[test]
        fn random_text_never_panics(text in "\\PC{0,400}") {
            let p = parse(&text);
            well_formed(&text, &p);
        }

        #[test]
        fn random_tagged_lines_never_panic(
            lines in prop::collection::vec(fragment(), 0..40),
            crlf in any::<bool>(),
        ) {
            let text = lines.join(if crlf { "\r\n" } else { "\n" });
            let p = parse(&text);
            well_formed(&text, &p);
        }

        #[test]
        fn mutated_records_never_panic(
            edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 1..24),
        ) {
            let mut bytes = SAMPLE.as_bytes().to_vec();
            for (at, byte, op) in edits {
                let i = at.index(bytes.len() + 1);
                match op {
                    0 => bytes.insert(i, byte),
                    1 if i < bytes.len() => { bytes.remove(i); }
                    _ if i < bytes.len() => bytes[i] = byte,
                    _ => {}
                }
            }
            let text = String::from_utf8_lossy(&bytes);
            for start in ["", "PT J\n", "PMID- 9\n"] {
                let text = format!("{start}{text}");
                let p = parse(&text);
                well_formed(&text, &p);
            }
        }
    }
}

#[cfg(test)]
mod variants {
    use super::*;

    fn one(text: &str) -> Record {
        let mut p = parse(text);
        assert_eq!(p.records.len(), 1, "{:?}", p.skipped);
        p.records.remove(0)
    }

    #[test]
    fn one_space_or_a_tab_before_the_dash() {
        let text = "TY - JOUR\nAU - Light, Janice\nTI - One space\nER - \n";
        assert!(Ris.sniff(text, None));
        let r = one(text);
        assert_eq!(r.title.as_deref(), Some("One space"));
        assert_eq!(r.authors, ["Janice Light"]);
        let r = one("TY\t- JOUR\nTI\t- Tabbed\nER\t-\n");
        assert_eq!(r.title.as_deref(), Some("Tabbed"));
        // Text spaced so is no tag: `US -based` continues the abstract.
        let r = one("TY  - JOUR\nAB  - Made in the\nUS -based labs\nER  -\n");
        assert_eq!(
            r.abstract_text.as_deref(),
            Some("Made in the US -based labs")
        );
        // A few prose lines with dashes are not RIS.
        assert!(!Ris.sniff("AB - one thing\nCD - another\n", None));
    }

    #[test]
    fn current_date_tags_before_the_deprecated_one() {
        let r = one("TY  - JOUR\nTI  - T\nY1  - 1900/01/01\nDA  - 1950/01/01\nER  -\n");
        assert_eq!(r.year, Some(1950));
        let r = one("TY  - JOUR\nTI  - T\nY1  - 1900/01/01\nPY  - 1960\nDA  - 1950/01/01\nER  -\n");
        assert_eq!(r.year, Some(1960));
        let r = one("TY  - JOUR\nTI  - T\nY1  - 1990/2/27\nER  -\n");
        assert_eq!(r.year, Some(1990));
    }

    #[test]
    fn names_in_parts_and_roles_apart() {
        let r = one(
            "TY  - JOUR\nAU  - Baldwin,S.A.\nAU  - King, Martin Luther, Jr.\nAU  - van der Waals, Johannes\n\
             AU  - World Health Organization\nA2  - Hopper, Grace\nTI  - T\nER  -\n",
        );
        assert_eq!(
            r.authors,
            [
                "S.A. Baldwin",
                "Martin Luther King Jr.",
                "Johannes van der Waals",
                "World Health Organization"
            ]
        );
        let families: Vec<String> = r.authors.names().map(|n| n.family).collect();
        assert_eq!(
            families,
            ["Baldwin", "King", "Waals", "World Health Organization"]
        );
        assert_eq!(
            r.more().roles,
            [("editor".to_string(), "Grace Hopper".to_string())]
        );
        // An edited book's creators are its editors; a patent's, its
        // inventors; a film's, its director.
        let book = one("TY  - EDBOOK\nAU  - Editor, Ed\nTI  - Edited\nER  -\n");
        assert!(book.authors.is_empty());
        assert_eq!(
            book.more().roles,
            [("editor".to_string(), "Ed Editor".to_string())]
        );
        let pat = one("TY  - PAT\nA1  - Burger,D.R.\nA2  - Epitope,I.\nT1  - Method\nER  -\n");
        assert!(pat.authors.is_empty());
        assert_eq!(
            pat.more().roles,
            [("inventor".to_string(), "D.R. Burger".to_string())]
        );
        let film = one("TY  - MPCT\nAU  - Kubrick, Stanley\nTI  - 2001\nER  -\n");
        assert_eq!(film.more().roles[0].0, "director");
    }

    #[test]
    fn titles_by_the_type_of_reference() {
        let chap = one("TY  - CHAP\nBT  - The Book\nTI  - The Chapter\nER  -\n");
        assert_eq!(chap.title.as_deref(), Some("The Chapter"));
        assert_eq!(chap.venue.as_deref(), Some("The Book"));
        let chap = one("TY  - CHAP\nBT  - The Book\nER  -\n");
        assert_eq!(chap.title, None);
        let book = one("TY  - BOOK\nBT  - The Book\nER  -\n");
        assert_eq!(book.title.as_deref(), Some("The Book"));
        let case = one("TY  - CASE\nST  - Roe v. Wade\nA2  - U.S. Reports\nER  -\n");
        assert_eq!(case.title.as_deref(), Some("Roe v. Wade"));
        assert!(case.more().roles.is_empty() && case.authors.is_empty());
    }
}
