//! arXiv's OAI-PMH responses: a ListRecords or GetRecord page saved to a
//! file, or harvested by `paperboat fetch arxiv` (which reads each page
//! through [`parse_page`]).
//!
//! ```text
//! <OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/">
//!   <ListRecords>                               ← or <GetRecord>
//!     <record>
//!       <header status="deleted"?>              ← a deleted record: skipped
//!         <identifier>oai:arXiv.org:1706.05371</identifier>
//!         <datestamp>2017-12-14</datestamp>     ← when the record changed
//!         <setSpec>physics:hep-ex</setSpec> …
//!       </header>
//!       <metadata>
//!         <arXiv>  <id/> <created/> <authors><author><keyname/><forenames/><suffix/>…
//!         <arXivRaw> <id/> <submitter/> <version version="v1"><date/>… <authors>A, B and C</authors>
//!         <oai_dc:dc> <dc:title/> <dc:creator>Last, First</dc:creator> <dc:date/> <dc:identifier/>…
//!       </metadata>
//!     </record> …
//!     <resumptionToken cursor="0" completeListSize="…">…</resumptionToken>
//!   </ListRecords>
//! </OAI-PMH>                                     ← or <error code="…">…</error>
//! ```
//!
//! Each `<record>` is one paper, whichever of arXiv's three metadata
//! formats it is in: title, abstract, authors (the `arXiv` format's name
//! parts, `arXivRaw`'s string of names, `dc:creator`'s `Last, First`),
//! the arXiv id (`<id>`, `dc:identifier`'s abstract link, else the OAI
//! identifier `oai:arXiv.org:ID`), the DOI, the journal reference as the
//! venue, the categories (`arXiv`, `arXivRaw`), and the year of the first version (`created`, arXivRaw's `v1`
//! date, the first `dc:date`), never the datestamp, which says when the
//! record last changed. A deleted record and an OAI `<error>` are
//! reported as skipped with their line; a saved page's resumptionToken is
//! read (for the fetcher) and otherwise ignored.
//!
//! Elements are told by their local names in the place the protocol puts
//! them, whatever their prefixes, so namespaces are not resolved. With
//! that, a file's papers made as each record ends, their text folded as
//! it is captured and their names joined as they are read, a harvest of a
//! hundred thousand records reads faster per byte than the Atom reader
//! reads the same papers (`cargo bench --bench harvest`). Malformed XML
//! costs the record it is in: the reading goes on from the next
//! `<record>` (`xml::read_items`).

use quick_xml::events::BytesStart;
use quick_xml::name::ResolveResult;

use super::json::LineCounter;
use super::xml::{Items, read_items};
use super::{Format, Reader, start};
use crate::corpus::fields::{arxiv_in, doi, is_arxiv_id, ordered_name, split_names, year_in};
use crate::corpus::fold::{folded, push_folded};
use crate::corpus::paper::NAME_SEP;
use crate::corpus::{Authors, More, Parsed, Record};

/// The prefix of arXiv's OAI identifiers.
pub const OAI_ID_PREFIX: &str = "oai:arXiv.org:";

/// One response of an OAI-PMH server, as read.
#[derive(Default, Debug)]
pub struct Page {
    /// The records, deleted ones included, in the order given.
    pub records: Vec<OaiRecord>,
    /// The resumptionToken, when the list goes on (an empty token ends it).
    pub token: Option<Token>,
    /// The first OAI `<error>`, if the server answered with one.
    pub error: Option<OaiError>,
    /// Parts that could not be read: (1-based line, reason).
    pub skipped: Vec<(usize, String)>,
    /// True when the response's root element, `OAI-PMH`, was closed (read
    /// without an error): a page cut short, or another document, is not.
    pub complete: bool,
}

/// A resumptionToken: where a list goes on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// The token itself, to send back.
    pub value: String,
    /// How many records the whole list holds, when the server says.
    pub complete_list_size: Option<u64>,
    /// How many records came before this page, when the server says.
    pub cursor: Option<u64>,
}

/// An OAI `<error>`: `code` is the protocol's (`noRecordsMatch`,
/// `badArgument`, `badResumptionToken`, …).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OaiError {
    pub code: String,
    pub message: String,
    pub line: usize,
}

/// Which metadata format a record is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum MetaFormat {
    /// `arXiv`: names in parts, `created` and `updated` dates.
    #[default]
    Arxiv,
    /// `arXivRaw` (and the older `arXivOld`): names as one string,
    /// the versions with their dates, the submitter.
    Raw,
    /// `oai_dc`: simple Dublin Core.
    Dc,
}

/// An author of the `arXiv` format, in parts (a `dc:creator` is read into
/// the same parts).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Name {
    pub keyname: String,
    pub forenames: String,
    pub suffix: String,
}

impl Name {
    /// The name in reading order: `Forenames Keyname Suffix`.
    pub fn full(&self) -> String {
        let mut out = String::with_capacity(
            self.forenames.len() + self.keyname.len() + self.suffix.len() + 2,
        );
        for part in [&self.forenames, &self.keyname, &self.suffix] {
            push_folded(&mut out, part);
        }
        out
    }
}

/// A record's metadata as written (entities decoded, white space kept).
#[derive(Clone, Debug, Default)]
pub struct Metadata {
    pub format: MetaFormat,
    pub id: Option<String>,
    pub title: Option<String>,
    pub abstract_text: Option<String>,
    /// The `arXiv` format's authors, or the `dc:creator`s split.
    pub names: Vec<Name>,
    /// `arXivRaw`'s string of names.
    pub authors_text: Option<String>,
    /// Categories, space-separated (`cs.LG stat.ML`).
    pub categories: Option<String>,
    pub comments: Option<String>,
    pub journal_ref: Option<String>,
    pub doi: Option<String>,
    pub report_no: Option<String>,
    pub license: Option<String>,
    pub submitter: Option<String>,
    /// When the first version was submitted: `created`, or the first
    /// `dc:date`.
    pub created: Option<String>,
    pub updated: Option<String>,
    /// `arXivRaw`'s versions: (`v1`, its date).
    pub versions: Vec<(String, String)>,
    /// `dc:identifier`s: the abstract link, a journal reference, `doi:…`.
    pub identifiers: Vec<String>,
    /// `dc:description`s: the abstract, then the comments.
    pub descriptions: Vec<String>,
}

/// One `<record>`.
#[derive(Clone, Debug, Default)]
pub struct OaiRecord {
    /// The line the record starts on (1-based).
    pub line: usize,
    pub identifier: Option<String>,
    pub datestamp: Option<String>,
    pub sets: Vec<String>,
    /// `<header status="deleted">`: the paper is gone, only its header is.
    pub deleted: bool,
    pub meta: Metadata,
}

impl OaiRecord {
    /// The arXiv id: the metadata's, else the OAI identifier's (version
    /// kept where written).
    pub fn arxiv_id(&self) -> Option<String> {
        let meta = &self.meta;
        let given = meta
            .id
            .as_deref()
            .and_then(folded)
            .filter(|id| is_arxiv_id(id));
        given
            .or_else(|| meta.identifiers.iter().find_map(|i| arxiv_in(i, false)))
            .or_else(|| {
                let id = self.identifier.as_deref()?.trim();
                let bare = id.strip_prefix(OAI_ID_PREFIX).unwrap_or(id);
                is_arxiv_id(bare).then(|| bare.to_string())
            })
    }

    /// The authors' names in reading order.
    pub fn authors(&self) -> Vec<String> {
        let meta = &self.meta;
        match &meta.authors_text {
            Some(text) if meta.names.is_empty() => split_names(&without_parentheses(text)),
            _ => meta
                .names
                .iter()
                .map(Name::full)
                .filter(|n| !n.is_empty())
                .collect(),
        }
    }

    /// The date of the first version, as written.
    pub fn first_date(&self) -> Option<&str> {
        let meta = &self.meta;
        let v1 = meta.versions.iter().find(|(v, _)| v.trim() == "v1");
        v1.or(meta.versions.first())
            .map(|(_, date)| date.as_str())
            .or(meta.created.as_deref())
    }

    /// The DOI, as [`crate::corpus::fields::doi`] reads it (the first of
    /// several).
    pub fn doi(&self) -> Option<String> {
        let meta = &self.meta;
        meta.doi.as_deref().and_then(doi).or_else(|| {
            meta.identifiers
                .iter()
                .filter(|i| i.trim_start().to_ascii_lowercase().starts_with("doi:"))
                .find_map(|i| doi(i))
        })
    }

    /// The journal reference: `journal-ref`, or a `dc:identifier` that is
    /// neither a link nor a DOI.
    pub fn journal_ref(&self) -> Option<&str> {
        let meta = &self.meta;
        meta.journal_ref.as_deref().or_else(|| {
            meta.identifiers.iter().map(|i| i.trim()).find(|i| {
                let lower = i.to_ascii_lowercase();
                !i.is_empty()
                    && !lower.starts_with("doi:")
                    && !lower.starts_with("http:")
                    && !lower.starts_with("https:")
            })
        })
    }

    /// The abstract: `abstract`, or the first `dc:description`.
    pub fn abstract_text(&self) -> Option<&str> {
        let meta = &self.meta;
        meta.abstract_text
            .as_deref()
            .or(meta.descriptions.first().map(String::as_str))
    }

    /// The categories, primary first, each once (`cs.LG stat.ML`).
    pub fn categories(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for c in self
            .meta
            .categories
            .as_deref()
            .unwrap_or("")
            .split_whitespace()
        {
            if !out.iter().any(|o| o == c) {
                out.push(c.to_string());
            }
        }
        out
    }

    /// True when the record's categories list `category` (any case).
    pub fn lists_category(&self, category: &str) -> bool {
        self.meta.categories.as_deref().is_some_and(|c| {
            c.split_whitespace()
                .any(|c| c.eq_ignore_ascii_case(category))
        })
    }

    /// The record as a paper's fields, read as a file's papers are: its
    /// text folded as it was captured.
    fn into_record(mut self) -> Record {
        let year = self.first_date().and_then(year_in);
        let doi = self.doi();
        let categories = self.categories();
        let authors: Authors = self.authors().into_iter().collect();
        let venue = self.journal_ref().map(str::to_string);
        let arxiv = match self.meta.id.take().and_then(nonempty) {
            Some(id) if is_arxiv_id(&id) => Some(id),
            _ => self.arxiv_id(),
        };
        let meta = self.meta;
        let abstract_text = meta
            .abstract_text
            .or_else(|| meta.descriptions.into_iter().next());
        Record {
            title: meta.title.and_then(nonempty),
            abstract_text: abstract_text.and_then(nonempty),
            authors,
            year,
            venue,
            urls: Vec::new(),
            arxiv,
            doi,
            key: None,
            volume: None,
            line: self.line,
            former_id: None,
            given_id: None,
            more: More {
                categories,
                ..More::default()
            }
            .into(),
        }
    }
}

/// `s` unless it is empty.
fn nonempty(s: String) -> Option<String> {
    (!s.is_empty()).then_some(s)
}

/// `s` without what parentheses enclose (arXiv's affiliations in a string
/// of names: `A (MIT), B ((1) X, (2) Y)`), so that their commas split no
/// name. Unbalanced parentheses leave `s` as written.
fn without_parentheses(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains('(') {
        return s.into();
    }
    let mut out = String::with_capacity(s.len());
    let mut depth = 0usize;
    for c in s.chars() {
        match c {
            '(' => depth += 1,
            ')' if depth > 0 => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    if depth > 0 {
        return s.into();
    }
    out.into()
}

/// Where an element stands in the response.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tag {
    Root,
    Verb,
    Record,
    Header,
    Metadata,
    Format(MetaFormat),
    Authors,
    Author,
    Version,
    Other,
}

/// An element whose text is being collected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Collecting {
    Error,
    Token,
    Identifier,
    Datestamp,
    SetSpec,
    Id,
    Title,
    Abstract,
    AuthorsText,
    Categories,
    Comments,
    JournalRef,
    Doi,
    ReportNo,
    License,
    Submitter,
    Created,
    Updated,
    Keyname,
    Forenames,
    Suffix,
    VersionDate,
    Creator,
    Description,
    DcDate,
    DcIdentifier,
}

impl Collecting {
    /// Fields only the fetcher reads (a file's papers do not use them).
    fn for_fetcher_only(self) -> bool {
        matches!(
            self,
            Collecting::Datestamp
                | Collecting::SetSpec
                | Collecting::Comments
                | Collecting::ReportNo
                | Collecting::License
                | Collecting::Submitter
                | Collecting::Updated
        )
    }
}

/// An element whose text goes to the reader's buffer.
#[derive(Clone, Copy)]
struct Capture {
    field: Collecting,
    depth: usize,
}

/// One response being read.
struct PageReader<'a> {
    text: &'a str,
    lines: LineCounter,
    page: Page,
    /// Reading a saved file (not a harvest): each record becomes a paper's
    /// fields as it ends, and what only the fetcher needs is not kept.
    papers: Option<Parsed>,
    stack: Vec<Tag>,
    record: Option<OaiRecord>,
    capture: Option<Capture>,
    /// The captured element's text so far.
    buf: String,
    /// The `<author>` being read: its parts' buffers are kept from one
    /// author to the next.
    author: Name,
    /// Reading a file's papers: the record's authors so far, joined as
    /// [`Authors`] keeps them (one string a record, not one a name).
    joined: String,
    scratch: String,
    /// Reading a file's papers: the record's OAI identifier.
    ident: String,
    /// The `version` attribute of the `<version>` being read, and its date.
    version: (String, Option<String>),
    /// True once a reading has started (the next starts at a record).
    started: bool,
    /// The code and line of the `<error>` being read.
    error_code: String,
    error_line: usize,
    token: Option<Token>,
}

/// The value of attribute `name` of `e`, decoded.
fn attribute(e: &BytesStart, name: &str) -> Option<String> {
    e.attributes()
        .flatten()
        .find(|a| a.key.local_name().as_ref() == name)
        .map(|a| {
            a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                .map(|v| v.into_owned())
                .unwrap_or_else(|_| a.value.clone().into_owned())
        })
}

/// The field a child `name` of a metadata format's root holds.
fn meta_field(format: MetaFormat, name: &str) -> Option<Collecting> {
    Some(match (format, name) {
        (MetaFormat::Dc, "title") => Collecting::Title,
        (MetaFormat::Dc, "creator") => Collecting::Creator,
        (MetaFormat::Dc, "description") => Collecting::Description,
        (MetaFormat::Dc, "date") => Collecting::DcDate,
        (MetaFormat::Dc, "identifier") => Collecting::DcIdentifier,
        (MetaFormat::Dc, _) => return None,
        (_, "id") => Collecting::Id,
        (_, "title") => Collecting::Title,
        (_, "abstract") => Collecting::Abstract,
        (_, "categories") => Collecting::Categories,
        (_, "comments") => Collecting::Comments,
        (_, "journal-ref") => Collecting::JournalRef,
        (_, "doi") => Collecting::Doi,
        (_, "report-no") => Collecting::ReportNo,
        (_, "license") => Collecting::License,
        (_, "submitter") => Collecting::Submitter,
        (_, "created") => Collecting::Created,
        (_, "updated") => Collecting::Updated,
        (MetaFormat::Raw, "authors") => Collecting::AuthorsText,
        _ => return None,
    })
}

impl PageReader<'_> {
    /// An element starts at byte `pos` (an empty element starts and ends).
    fn open(&mut self, e: &BytesStart, pos: usize) {
        let depth = self.stack.len() + 1;
        if self.capture.is_some() {
            self.stack.push(Tag::Other);
            return;
        }
        let local = e.local_name();
        let name: &str = local.as_ref();
        let parent = self.stack.last().copied();
        let mut capture = None;
        let tag = match parent {
            None if name == "OAI-PMH" => Tag::Root,
            None => Tag::Other,
            Some(Tag::Root) => match name {
                "error" => {
                    self.error_code = attribute(e, "code").unwrap_or_default();
                    self.error_line = self.lines.line(self.text, pos);
                    capture = Some(Collecting::Error);
                    Tag::Other
                }
                "ListRecords" | "GetRecord" => Tag::Verb,
                _ => Tag::Other,
            },
            Some(Tag::Verb) => match name {
                "record" => {
                    self.joined.clear();
                    self.ident.clear();
                    self.record = Some(OaiRecord {
                        line: self.lines.line(self.text, pos),
                        ..OaiRecord::default()
                    });
                    Tag::Record
                }
                "resumptionToken" => {
                    let number = |a| attribute(e, a).and_then(|v| v.trim().parse().ok());
                    self.token = Some(Token {
                        value: String::new(),
                        complete_list_size: number("completeListSize"),
                        cursor: number("cursor"),
                    });
                    capture = Some(Collecting::Token);
                    Tag::Other
                }
                _ => Tag::Other,
            },
            Some(Tag::Record) => match name {
                "header" => {
                    if let Some(r) = &mut self.record {
                        r.deleted = attribute(e, "status").is_some_and(|s| s.trim() == "deleted");
                    }
                    Tag::Header
                }
                "metadata" => Tag::Metadata,
                _ => Tag::Other,
            },
            Some(Tag::Header) => {
                capture = match name {
                    "identifier" => Some(Collecting::Identifier),
                    "datestamp" => Some(Collecting::Datestamp),
                    "setSpec" => Some(Collecting::SetSpec),
                    _ => None,
                };
                Tag::Other
            }
            Some(Tag::Metadata) => {
                let format = match name {
                    "arXivRaw" | "arXivOld" => MetaFormat::Raw,
                    "dc" => MetaFormat::Dc,
                    _ => MetaFormat::Arxiv,
                };
                if let Some(r) = &mut self.record {
                    r.meta.format = format;
                }
                Tag::Format(format)
            }
            Some(Tag::Format(format)) => match name {
                "authors" if format == MetaFormat::Arxiv => Tag::Authors,
                "version" if format == MetaFormat::Raw => {
                    self.version = (attribute(e, "version").unwrap_or_default(), None);
                    Tag::Version
                }
                _ => {
                    capture = meta_field(format, name);
                    Tag::Other
                }
            },
            Some(Tag::Authors) if name == "author" => {
                self.author.keyname.clear();
                self.author.forenames.clear();
                self.author.suffix.clear();
                Tag::Author
            }
            Some(Tag::Author) => {
                capture = match name {
                    "keyname" => Some(Collecting::Keyname),
                    "forenames" => Some(Collecting::Forenames),
                    "suffix" => Some(Collecting::Suffix),
                    _ => None,
                };
                Tag::Other
            }
            Some(Tag::Version) if name == "date" => {
                capture = Some(Collecting::VersionDate);
                Tag::Other
            }
            Some(_) => Tag::Other,
        };
        self.stack.push(tag);
        if self.papers.is_some() && capture.is_some_and(Collecting::for_fetcher_only) {
            capture = None;
        }
        if let Some(field) = capture {
            self.buf.clear();
            self.capture = Some(Capture { field, depth });
        }
    }

    /// The element at the top of the stack ends.
    fn close(&mut self) {
        let depth = self.stack.len();
        let Some(tag) = self.stack.pop() else {
            return;
        };
        if let Some(c) = self.capture.take_if(|c| c.depth == depth) {
            self.finish(c.field);
            return;
        }
        match tag {
            Tag::Root => self.page.complete = true,
            Tag::Record => {
                if let Some(r) = self.record.take() {
                    match &mut self.papers {
                        Some(parsed) => add_paper(parsed, r, &mut self.joined, &self.ident),
                        None => self.page.records.push(r),
                    }
                }
            }
            Tag::Author => {
                let name = &self.author;
                if let Some(r) = &mut self.record
                    && (!name.keyname.trim().is_empty() || !name.forenames.trim().is_empty())
                {
                    if self.papers.is_some() {
                        push_name(&mut self.joined, &mut self.scratch, name);
                    } else {
                        r.meta.names.push(name.clone());
                    }
                }
            }
            Tag::Version => {
                let (version, date) = std::mem::take(&mut self.version);
                if let (Some(r), Some(date)) = (&mut self.record, date) {
                    r.meta.versions.push((version, date));
                }
            }
            _ => {}
        }
    }

    /// Stores a collected element's text (the buffer's).
    fn finish(&mut self, field: Collecting) {
        let part = match field {
            Collecting::Keyname => Some(&mut self.author.keyname),
            Collecting::Forenames => Some(&mut self.author.forenames),
            Collecting::Suffix => Some(&mut self.author.suffix),
            _ => None,
        };
        if let Some(part) = part {
            // Copied, so that both buffers keep their room.
            part.push_str(&self.buf);
            return;
        }
        if field == Collecting::Identifier && self.papers.is_some() {
            // Kept aside: a file's paper needs it only when deleted, or
            // when its metadata gives no arXiv id.
            self.ident.clear();
            self.ident.push_str(self.buf.trim());
            return;
        }
        // A file's papers keep text folded, and the buffer its room.
        let text = if self.papers.is_some() {
            folded(&self.buf).unwrap_or_default()
        } else {
            std::mem::take(&mut self.buf)
        };
        match field {
            Collecting::Error => {
                if self.page.error.is_none() {
                    self.page.error = Some(OaiError {
                        code: std::mem::take(&mut self.error_code),
                        message: folded(&text).unwrap_or_default(),
                        line: self.error_line,
                    });
                }
                return;
            }
            Collecting::Token => {
                if let Some(token) = &mut self.token {
                    token.value = text.trim().to_string();
                }
                self.page.token = self.token.take().filter(|t| !t.value.is_empty());
                return;
            }
            Collecting::VersionDate => {
                self.version.1 = Some(text);
                return;
            }
            _ => {}
        }
        let Some(r) = &mut self.record else {
            return;
        };
        let meta = &mut r.meta;
        let first = |slot: &mut Option<String>, text: String| {
            slot.get_or_insert(text);
        };
        match field {
            Collecting::Identifier => first(&mut r.identifier, text),
            Collecting::Datestamp => first(&mut r.datestamp, text),
            Collecting::SetSpec => r.sets.push(text.trim().to_string()),
            Collecting::Id => first(&mut meta.id, text),
            Collecting::Title => first(&mut meta.title, text),
            Collecting::Abstract => first(&mut meta.abstract_text, text),
            Collecting::AuthorsText => first(&mut meta.authors_text, text),
            Collecting::Categories => first(&mut meta.categories, text),
            Collecting::Comments => first(&mut meta.comments, text),
            Collecting::JournalRef => first(&mut meta.journal_ref, text),
            Collecting::Doi => first(&mut meta.doi, text),
            Collecting::ReportNo => first(&mut meta.report_no, text),
            Collecting::License => first(&mut meta.license, text),
            Collecting::Submitter => first(&mut meta.submitter, text),
            Collecting::Created | Collecting::DcDate => first(&mut meta.created, text),
            Collecting::Updated => first(&mut meta.updated, text),
            Collecting::Creator => {
                let parts: Vec<&str> = text.splitn(2, ',').map(str::trim).collect();
                let name = match parts[..] {
                    [last, first] => Name {
                        keyname: last.to_string(),
                        forenames: first.to_string(),
                        suffix: String::new(),
                    },
                    _ => Name {
                        keyname: ordered_name(&parts),
                        ..Name::default()
                    },
                };
                if !name.keyname.is_empty() || !name.forenames.is_empty() {
                    meta.names.push(name);
                }
            }
            Collecting::Description => meta.descriptions.push(text),
            Collecting::DcIdentifier => meta.identifiers.push(text),
            _ => {}
        }
    }
}

/// Reads one OAI-PMH response.
pub fn parse_page(text: &str) -> Page {
    read(text, false).0
}

/// Reads a response: the page, and (`papers`) its records as papers'
/// fields, made as each record ends.
fn read(text: &str, papers: bool) -> (Page, Option<Parsed>) {
    // quick-xml skips a byte-order mark without counting it in its offsets;
    // dropping it here keeps offsets and line numbers on the same text.
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let mut reader = PageReader {
        text,
        lines: LineCounter::default(),
        page: Page::default(),
        papers: papers.then(Parsed::default),
        stack: Vec::new(),
        record: None,
        capture: None,
        buf: String::new(),
        author: Name::default(),
        joined: String::new(),
        scratch: String::new(),
        ident: String::new(),
        version: (String::new(), None),
        error_code: String::new(),
        error_line: 0,
        token: None,
        started: false,
    };
    // A malformed record costs itself alone: the reading goes on from the
    // next.
    read_items(text, "record", &mut reader);
    (reader.page, reader.papers)
}

/// Adds a record that ended to a file's papers: a paper's fields, or a
/// deleted record skipped. `joined` holds its `<author>`s' names, joined
/// as [`Authors`] keeps them (taken).
fn add_paper(parsed: &mut Parsed, r: OaiRecord, joined: &mut String, identifier: &str) {
    if r.deleted {
        parsed.skipped.push((
            r.line,
            format!("deleted record {identifier} (only its header is left)"),
        ));
        return;
    }
    let mut record = r.into_record();
    if !joined.is_empty() {
        record.authors = Authors::from_joined(std::mem::take(joined));
    }
    if record.arxiv.is_none() {
        let bare = identifier.strip_prefix(OAI_ID_PREFIX).unwrap_or(identifier);
        record.arxiv = is_arxiv_id(bare).then(|| bare.to_string());
    }
    parsed.records.push(record);
}

/// Appends a name in reading order to names joined as [`Authors`] keeps
/// them (`scratch` is room for it); a name that folds to nothing is left
/// out, and a separator in a name (a character reference) reads as a
/// space.
fn push_name(joined: &mut String, scratch: &mut String, name: &Name) {
    scratch.clear();
    for part in [&name.forenames, &name.keyname, &name.suffix] {
        push_folded(scratch, part);
    }
    if scratch.is_empty() {
        return;
    }
    if !joined.is_empty() {
        joined.push(NAME_SEP);
    }
    if scratch.as_bytes().contains(&(NAME_SEP as u8)) {
        joined.push_str(&scratch.replace(NAME_SEP, " "));
    } else {
        joined.push_str(scratch);
    }
}

impl Items for PageReader<'_> {
    fn start(&mut self, e: &BytesStart, _ns: &ResolveResult, pos: usize) {
        self.open(e, pos);
    }

    fn end(&mut self) {
        self.close();
    }

    fn buffer(&mut self) -> Option<&mut String> {
        self.capture.is_some().then_some(&mut self.buf)
    }

    fn open_item(&self) -> Option<usize> {
        self.record.as_ref().map(|r| r.line)
    }

    /// The first reading starts at the top; one after an error starts at
    /// a record, read as if in a list.
    fn restart(&mut self) {
        self.stack.clear();
        if self.started {
            self.stack.extend([Tag::Root, Tag::Verb]);
        }
        self.started = true;
        self.record = None;
        self.capture = None;
    }

    fn skip(&mut self, line: usize, reason: String) {
        self.page.skipped.push((line, reason));
    }

    fn line(&mut self, pos: usize) -> usize {
        self.lines.line(self.text, pos)
    }

    /// Elements are told by their local names in their places.
    fn namespaces(&self) -> bool {
        false
    }
}

/// Reads a saved OAI-PMH response: its records as papers; deleted records
/// and an OAI error reported as skipped.
pub fn parse(text: &str) -> Parsed {
    let (page, parsed) = read(text, true);
    let mut parsed = parsed.unwrap_or_default();
    parsed.skipped.extend(page.skipped);
    if let Some(e) = page.error {
        let reason = if e.code == "noRecordsMatch" {
            format!(
                "the server found no records (noRecordsMatch: {})",
                e.message
            )
        } else {
            format!("an OAI-PMH error, not records ({}: {})", e.code, e.message)
        };
        parsed.skipped.push((e.line, reason));
    }
    parsed.skipped.sort_by_key(|(line, _)| *line);
    parsed
}

/// True when `head` is an OAI-PMH response: XML whose root is `OAI-PMH`
/// (under any prefix).
fn is_oai_pmh(head: &str) -> bool {
    let mut rest = start(head);
    // The declaration, comments and processing instructions before the
    // root element.
    loop {
        if let Some(r) = rest.strip_prefix("<?") {
            let Some(end) = r.find("?>") else {
                return false;
            };
            rest = start(&r[end + 2..]);
        } else if let Some(r) = rest.strip_prefix("<!--") {
            let Some(end) = r.find("-->") else {
                return false;
            };
            rest = start(&r[end + 3..]);
        } else {
            break;
        }
    }
    let Some(tag) = rest.strip_prefix('<') else {
        return false;
    };
    let name_end = tag
        .find(|c: char| c.is_whitespace() || c == '>' || c == '/')
        .unwrap_or(tag.len());
    let name = &tag[..name_end];
    name.rsplit(':').next() == Some("OAI-PMH")
}

/// arXiv's OAI-PMH responses.
pub struct OaiPmh;

impl Reader for OaiPmh {
    fn name(&self) -> &'static str {
        "oaipmh"
    }

    fn about(&self) -> &'static str {
        "arXiv's OAI-PMH ListRecords or GetRecord response (arXiv, arXivRaw, oai_dc)"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &[]
    }

    fn sniff(&self, head: &str, _hint: Option<Format>) -> bool {
        is_oai_pmh(head)
    }

    fn parse(&self, text: &str) -> Parsed {
        parse(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::readers::{detect, mutate};

    fn data(path: &str) -> String {
        let path = format!("{}/../tests/data/{path}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("the test needs {path} (tests/data): {e}"))
    }

    #[test]
    fn real_list_records_page_in_the_arxiv_format() {
        let text = data("corpora/oaipmh_arxiv_listrecords_hepex_3.xml");
        let page = parse_page(&text);
        assert!(page.complete && page.skipped.is_empty(), "{page:?}");
        assert_eq!(page.token, None);
        assert_eq!(page.error, None);
        let ids: Vec<_> = page.records.iter().map(OaiRecord::arxiv_id).collect();
        assert_eq!(
            ids,
            [
                Some("1706.05371".to_string()),
                Some("1706.09418".to_string()),
                Some("1707.00874".to_string())
            ]
        );
        let r = &page.records[1];
        assert_eq!(r.line, 27);
        assert_eq!(r.datestamp.as_deref(), Some("2017-12-14"));
        assert_eq!(r.sets, ["physics:hep-ex"]);
        assert_eq!(r.meta.categories.as_deref(), Some("hep-ph hep-ex"));
        assert!(r.lists_category("hep-ex") && r.lists_category("HEP-PH"));
        assert!(!r.lists_category("hep"));
        assert_eq!(r.meta.report_no.as_deref(), Some("BONN-TH-2017-03"));
        let parsed = parse(&text);
        assert!(parsed.skipped.is_empty());
        let [a, b, c] = &parsed.records[..] else {
            panic!("{:?}", parsed.records);
        };
        assert_eq!(
            a.title.as_deref(),
            Some(
                "Evaluation of Silicon Photomultipliers for use as Photosensors in Liquid Xenon Detectors"
            )
        );
        assert_eq!(a.authors.len(), 13);
        assert_eq!(a.authors.iter().next(), Some("Tyler Anderson"));
        assert!(
            a.abstract_text
                .as_deref()
                .unwrap()
                .starts_with("Silicon photomultipliers (SiPMs) are potential")
        );
        // The year of the first version, not of the datestamp's 2017-12-14.
        assert_eq!(
            (a.year, b.year, c.year),
            (Some(2017), Some(2017), Some(2017))
        );
        assert_eq!(b.doi.as_deref(), Some("10.1140/epjc/s10052-017-5414-4"));
        assert_eq!(b.venue.as_deref(), Some("Eur. Phys. J. C (2017) 77:856"));
        assert_eq!(b.more().categories, ["hep-ph", "hep-ex"]);
        assert_eq!(c.doi, None);
        assert_eq!(c.venue, None);
        assert_eq!(
            c.authors.iter().collect::<Vec<_>>(),
            ["Priyotosh Bandyopadhyay", "Eung Jin Chun", "Rusa Mandal"]
        );
    }

    #[test]
    fn get_record_in_arxiv_raw() {
        let parsed = parse(&data("sources/oaipmh_getrecord_arxivraw.xml"));
        assert!(parsed.skipped.is_empty(), "{:?}", parsed.skipped);
        let [r] = &parsed.records[..] else {
            panic!("{:?}", parsed.records);
        };
        assert_eq!(r.line, 6);
        assert_eq!(r.arxiv.as_deref(), Some("0704.0001"));
        assert_eq!(
            r.authors.iter().collect::<Vec<_>>(),
            [
                "C. Bal\\'azs",
                "E. L. Berger",
                "P. M. Nadolsky",
                "C.-P. Yuan"
            ]
        );
        assert_eq!(r.year, Some(2007));
        assert_eq!(r.doi.as_deref(), Some("10.1103/PhysRevD.76.013009"));
        assert_eq!(r.venue.as_deref(), Some("Phys.Rev.D76:013009,2007"));
        assert!(
            r.abstract_text
                .as_deref()
                .unwrap()
                .ends_with("selection of events.")
        );
        let page = parse_page(&data("sources/oaipmh_getrecord_arxivraw.xml"));
        let meta = &page.records[0].meta;
        assert_eq!(meta.format, MetaFormat::Raw);
        assert_eq!(meta.submitter.as_deref(), Some("Pavel Nadolsky"));
        assert_eq!(
            meta.versions,
            [
                ("v1".to_string(), "Mon, 2 Apr 2007 19:18:42 GMT".to_string()),
                (
                    "v2".to_string(),
                    "Tue, 24 Jul 2007 20:10:27 GMT".to_string()
                )
            ]
        );
        assert_eq!(
            page.records[0].first_date(),
            Some("Mon, 2 Apr 2007 19:18:42 GMT")
        );
    }

    #[test]
    fn list_records_in_dublin_core_with_a_deleted_record_and_a_token() {
        let text = data("sources/oaipmh_listrecords_oai_dc.xml");
        let page = parse_page(&text);
        assert_eq!(
            page.token,
            Some(Token {
                value: "6960524|1001".to_string(),
                complete_list_size: Some(4512),
                cursor: Some(0),
            })
        );
        assert_eq!(page.records.len(), 3);
        assert!(page.records[1].deleted);
        assert_eq!(page.records[0].sets, ["cs", "math"]);
        let parsed = parse(&text);
        assert_eq!(
            parsed.skipped,
            [(
                41,
                "deleted record oai:arXiv.org:0704.0003 (only its header is left)".to_string()
            )]
        );
        let [a, b] = &parsed.records[..] else {
            panic!("{:?}", parsed.records);
        };
        assert_eq!(a.arxiv.as_deref(), Some("0704.0002"));
        assert_eq!(
            a.authors.iter().collect::<Vec<_>>(),
            ["Ileana Streinu", "Louis Theran"]
        );
        assert_eq!(a.year, Some(2007));
        assert!(
            a.abstract_text
                .as_deref()
                .unwrap()
                .starts_with("We describe a new algorithm")
        );
        assert!(!a.abstract_text.as_deref().unwrap().contains("Comment:"));
        assert_eq!((a.doi.as_deref(), a.venue.as_deref()), (None, None));
        assert_eq!(b.arxiv.as_deref(), Some("0704.0001"));
        assert_eq!(b.doi.as_deref(), Some("10.1103/PhysRevD.76.013009"));
        assert_eq!(b.venue.as_deref(), Some("Phys.Rev.D76:013009,2007"));
        assert_eq!(
            b.authors.iter().collect::<Vec<_>>(),
            ["C. Balázs", "E. L. Berger", "P. M. Nadolsky", "C. -P. Yuan"]
        );
    }

    #[test]
    fn the_arxiv_format_as_the_current_server_writes_it() {
        let text = data("sources/oaipmh_listrecords_arxiv.xml");
        let page = parse_page(&text);
        assert!(
            page.complete && page.skipped.is_empty(),
            "{:?}",
            page.skipped
        );
        let token = page.token.as_ref().unwrap();
        assert_eq!(
            token.value,
            "verb%3DListRecords%26metadataPrefix%3DarXiv%26set%3Dcs%26skip%3D3"
        );
        assert_eq!((token.complete_list_size, token.cursor), (None, None));
        let first = &page.records[0];
        assert_eq!(
            first.meta.names[1],
            Name {
                keyname: "King".to_string(),
                forenames: "Martin Luther".to_string(),
                suffix: "Jr".to_string()
            }
        );
        assert_eq!(
            first.authors(),
            [
                "Ada Lovelace",
                "Martin Luther King Jr",
                "The Synthetic Collaboration"
            ]
        );
        assert_eq!(first.meta.updated.as_deref(), Some("2026-12-01"));
        assert!(first.lists_category("cs.LG") && !first.lists_category("cs.AI"));
        let parsed = parse(&text);
        assert_eq!(parsed.records.len(), 2);
        // A file's papers have the same names, joined as they are read.
        assert_eq!(
            parsed.records[0].authors.iter().collect::<Vec<_>>(),
            first.authors()
        );
        assert_eq!(parsed.skipped.len(), 1);
        assert_eq!(parsed.skipped[0].0, 49);
        let r = &parsed.records[0];
        assert_eq!(
            r.title.as_deref(),
            Some(
                "Learning rates that <i>anneal</i> themselves: a synthetic record written from \
                 arXiv's OAI-PMH documentation"
            )
        );
        // The first of two DOIs; the year of `created`, not `updated`.
        assert_eq!(r.doi.as_deref(), Some("10.5555/synthetic.2026.001"));
        assert_eq!(r.year, Some(2026));
        assert!(
            r.abstract_text
                .as_deref()
                .unwrap()
                .contains("(< & >) and $\\alpha$")
        );
        assert_eq!(parsed.records[1].arxiv.as_deref(), Some("cs/9901001"));
        assert_eq!(parsed.records[1].year, Some(1999));
    }

    /// OAI `<error>` answers, as the OAI-PMH 2.0 specification (3.6) and
    /// arXiv's server write them.
    const BAD_VERB: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/ http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd">
  <responseDate>2026-12-07T10:00:00Z</responseDate>
  <request>https://oaipmh.arxiv.org/oai</request>
  <error code="badVerb">Value of the verb argument is not a legal OAI-PMH verb, the verb argument is missing, or the verb argument is repeated.</error>
</OAI-PMH>
"#;
    const NO_RECORDS: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/ http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd">
  <responseDate>2026-12-07T10:00:00Z</responseDate>
  <request verb="ListRecords" metadataPrefix="arXiv" set="cs" from="2026-12-07">https://oaipmh.arxiv.org/oai</request>
  <error code='noRecordsMatch'>The combination of the values of the from, until, set and metadataPrefix arguments results in an empty list.</error>
</OAI-PMH>
"#;

    #[test]
    fn errors_are_reported_not_read_as_records() {
        let page = parse_page(BAD_VERB);
        let e = page.error.unwrap();
        assert_eq!((e.code.as_str(), e.line), ("badVerb", 5));
        assert!(e.message.starts_with("Value of the verb argument"));
        let parsed = parse(BAD_VERB);
        assert!(parsed.records.is_empty());
        assert_eq!(parsed.skipped.len(), 1);
        assert!(
            parsed.skipped[0]
                .1
                .starts_with("an OAI-PMH error, not records (badVerb: ")
        );
        let page = parse_page(NO_RECORDS);
        assert_eq!(page.error.unwrap().code, "noRecordsMatch");
        let parsed = parse(NO_RECORDS);
        assert!(
            parsed.skipped[0]
                .1
                .starts_with("the server found no records")
        );
    }

    #[test]
    fn responses_are_told_from_atom_feeds_by_their_root() {
        for name in [
            "sources/oaipmh_getrecord_arxivraw.xml",
            "sources/oaipmh_listrecords_oai_dc.xml",
            "corpora/oaipmh_arxiv_listrecords_hepex_3.xml",
        ] {
            let text = data(name);
            assert_eq!(detect(&text, Some(Format::ATOM)), Format::OAIPMH, "{name}");
        }
        assert_eq!(detect(BAD_VERB, None), Format::OAIPMH);
        let cases: &[(&str, Format)] = &[
            ("<OAI-PMH/>", Format::OAIPMH),
            (
                "\u{feff}<?xml version=\"1.0\"?>\n<!-- saved -->\n<oai:OAI-PMH xmlns:oai=\"x\">",
                Format::OAIPMH,
            ),
            (
                "<?xml version=\"1.0\"?><feed xmlns=\"http://www.w3.org/2005/Atom\">",
                Format::ATOM,
            ),
            (
                "<?xml version=\"1.0\"?><!-- OAI-PMH --><feed>",
                Format::ATOM,
            ),
            ("<OAI-PMHx>", Format::TEXT),
            ("<?xml unclosed", Format::ATOM),
        ];
        for (text, want) in cases {
            assert_eq!(detect(text, None), *want, "{text}");
        }
    }

    #[test]
    fn a_malformed_record_costs_itself_and_a_cut_page_says_so() {
        let page = "<OAI-PMH><ListRecords>\n<record><metadata><arXiv><title>One</title></arXiv></metadata></record>\n<record><metadata><arXiv><title>Two</abstract></arXiv></metadata></record>\n<record><metadata><arXiv><title>Three</title></arXiv></metadata></record>\n</ListRecords></OAI-PMH>";
        let parsed = parse(page);
        let titles: Vec<_> = parsed.records.iter().map(|r| r.title.as_deref()).collect();
        assert_eq!(titles, [Some("One"), Some("Three")]);
        assert_eq!(parsed.records[1].line, 4);
        assert_eq!(parsed.skipped.len(), 1);
        assert_eq!(parsed.skipped[0].0, 3);
        assert!(
            parsed.skipped[0]
                .1
                .ends_with("the record from line 3 was not read")
        );
        // Cut short inside a record.
        let cut = &page[..page.find("Three").unwrap()];
        let p = parse_page(cut);
        assert!(!p.complete);
        assert_eq!(p.records.len(), 1);
        assert!(
            p.skipped
                .iter()
                .any(|(line, why)| *line == 4 && why.contains("ends inside"))
        );
        // Not XML at all, nothing, or another document.
        assert!(parse("just text").records.is_empty());
        assert!(!parse_page("").complete);
        assert!(!parse_page("<html><body>Busy</body></html>").complete);
    }

    #[test]
    fn parentheses_in_a_string_of_names_hold_affiliations() {
        assert_eq!(without_parentheses("A (MIT), B ((1) X, (2) Y)"), "A , B ");
        assert_eq!(without_parentheses("A (open, B"), "A (open, B");
        assert_eq!(without_parentheses("A, B"), "A, B");
        let r = OaiRecord {
            meta: Metadata {
                authors_text: Some("J. Smith (1), L. Wu (2) and K. Lee ((1) MIT, (2) CMU)".into()),
                ..Metadata::default()
            },
            ..OaiRecord::default()
        };
        assert_eq!(r.authors(), ["J. Smith", "L. Wu", "K. Lee"]);
    }

    #[test]
    fn names_made_of_nothing_or_holding_the_separator() {
        let page = "<OAI-PMH><ListRecords><record><metadata><arXiv><authors>\
            <author><keyname> </keyname></author>\
            <author><keyname>A&#31;B</keyname><forenames> C\n D </forenames></author>\
            <author><keyname>Solo</keyname></author>\
            </authors><title>T</title></arXiv></metadata></record></ListRecords></OAI-PMH>";
        let parsed = parse(page);
        assert_eq!(
            parsed.records[0].authors.iter().collect::<Vec<_>>(),
            ["C D A B", "Solo"]
        );
        assert_eq!(
            parse_page(page).records[0].authors(),
            ["C D A\u{1f}B", "Solo"]
        );
    }

    #[test]
    fn the_oai_identifier_gives_the_id_when_the_metadata_does_not() {
        let page = "<OAI-PMH><ListRecords><record><header><identifier>oai:arXiv.org:2401.00001\
            </identifier></header><metadata><arXiv><title>T</title></arXiv></metadata></record>\
            </ListRecords></OAI-PMH>";
        assert_eq!(parse(page).records[0].arxiv.as_deref(), Some("2401.00001"));
        let r = OaiRecord {
            identifier: Some(" oai:arXiv.org:hep-th/9901001 ".into()),
            ..OaiRecord::default()
        };
        assert_eq!(r.arxiv_id().as_deref(), Some("hep-th/9901001"));
        let r = OaiRecord {
            identifier: Some("oai:example.org:17".into()),
            ..OaiRecord::default()
        };
        assert_eq!(r.arxiv_id(), None);
    }

    mod props {
        use super::*;
        use proptest::prelude::*;

        fn check(text: &str) {
            crate::corpus::readers::assert_lines_within(text, &parse(text));
        }

        proptest! {
            #[test]
            fn random_text_never_panics(text in "\\PC*") {
                check(&text);
            }

            #[test]
            fn xml_like_text_never_panics(
                text in "(<|>|/|record|header|metadata|arXiv|OAI-PMH|ListRecords|author|[a-z\"= &;\\n])*"
            ) {
                check(&text);
            }

            #[test]
            fn mutated_pages_never_panic(
                edits in proptest::collection::vec((any::<usize>(), any::<u8>(), 0u8..3), 1..8),
            ) {
                let mut bytes = data("sources/oaipmh_listrecords_arxiv.xml").into_bytes();
                mutate(&mut bytes, &edits);
                check(&String::from_utf8_lossy(&bytes));
            }
        }
    }
}
