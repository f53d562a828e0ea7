//! The paper object: which JSON fields a record's fields are read from,
//! and the record made of them (ids through [`crate::corpus::fields`]).

use serde::Deserialize;

use super::lenient::{
    ExternalIds, JsonAuthors, MaybePlain, ParsedAuthors, Text, Urls, Year, first_text,
};
use crate::corpus::fields::{arxiv_in, doi, is_arxiv_id, strip_arxiv_prefix};
use crate::corpus::fold::folded;
use crate::corpus::json_string::{Plain, string_folded};
use crate::corpus::{PaperId, Record, content_hash};

/// The fields read from one paper object; every other field is skipped
/// unread. Where several name the same thing the first listed that is not
/// blank wins:
///
/// | record   | JSON fields |
/// |----------|-------------|
/// | title    | `title`, `Title` |
/// | abstract | `abstract`, `Abstract`, `paperAbstract`, `abstractNote`, `summary` |
/// | authors  | `authors_parsed`, `authors`, `Authors`, `author`, `creators` |
/// | year     | `year`, `Year`, `publication_year`, `issued`, `published`, `date`, `versions[0].created`, `update_date` |
/// | venue    | `venue`, `container-title`, `journal`, `publicationTitle`, `journal-ref` |
/// | urls     | `url`, `URL`, `link`, `links`, `pdf_url`, `open_access.oa_url`, `openAccessPdf.url` (all, deduplicated) |
/// | arxiv    | `arxiv_id`, `arxivId`, `arxiv`, `externalIds.ArXiv`, or `id` when it reads as an arXiv id; else `number` (`arXiv:…`), the DOI (`10.48550/arXiv.…`) or a URL (`arxiv.org/abs/…`) naming one, as Zotero's CSL-JSON does |
/// | doi      | `doi`, `DOI`, `externalIds.DOI` (a resolver link or `doi:` dropped; kept only when it reads as a DOI) |
/// | key      | `id` (when it is not an arXiv id: CSL-JSON's item id) |
/// | volume   | `volume` |
#[derive(Deserialize, Default)]
#[serde(default)]
pub(super) struct JsonRecord<'a> {
    #[serde(borrow)]
    id: Text<'a>,
    #[serde(borrow)]
    arxiv_id: Text<'a>,
    #[serde(borrow, rename = "arxivId")]
    arxiv_id_camel: Text<'a>,
    #[serde(borrow)]
    arxiv: Text<'a>,
    #[serde(borrow, rename = "externalIds")]
    external_ids: ExternalIds<'a>,
    #[serde(borrow)]
    doi: Text<'a>,
    #[serde(borrow, rename = "DOI")]
    doi_upper: Text<'a>,

    #[serde(borrow)]
    title: Text<'a>,
    #[serde(borrow, rename = "Title")]
    title_capital: Text<'a>,

    #[serde(borrow, rename = "abstract")]
    abstract_text: MaybePlain<'a>,
    #[serde(borrow, rename = "Abstract")]
    abstract_capital: Text<'a>,
    #[serde(borrow, rename = "paperAbstract")]
    paper_abstract: Text<'a>,
    #[serde(borrow, rename = "abstractNote")]
    abstract_note: Text<'a>,
    #[serde(borrow)]
    summary: Text<'a>,

    #[serde(borrow)]
    authors_parsed: ParsedAuthors<'a>,
    #[serde(borrow)]
    authors: JsonAuthors<'a>,
    #[serde(borrow, rename = "Authors")]
    authors_capital: JsonAuthors<'a>,
    #[serde(borrow)]
    author: JsonAuthors<'a>,
    #[serde(borrow)]
    creators: JsonAuthors<'a>,

    year: Year,
    #[serde(rename = "Year")]
    year_capital: Year,
    publication_year: Year,
    issued: Year,
    published: Year,
    date: Year,
    versions: Year,
    update_date: Year,

    #[serde(borrow)]
    venue: Text<'a>,
    #[serde(borrow, rename = "container-title")]
    container_title: Text<'a>,
    #[serde(borrow)]
    journal: Text<'a>,
    #[serde(borrow, rename = "publicationTitle")]
    publication_title: Text<'a>,
    #[serde(borrow, rename = "journal-ref")]
    journal_ref: Text<'a>,
    /// CSL-JSON's report or preprint number: `arXiv:2106.09685` as
    /// Zotero writes an arXiv paper's.
    #[serde(borrow)]
    number: Text<'a>,
    /// CSL-JSON's volume, which tells the volumes of a work apart.
    #[serde(borrow)]
    volume: Text<'a>,

    #[serde(borrow)]
    url: Urls<'a>,
    #[serde(borrow, rename = "URL")]
    url_upper: Urls<'a>,
    #[serde(borrow)]
    link: Urls<'a>,
    #[serde(borrow)]
    links: Urls<'a>,
    #[serde(borrow)]
    pdf_url: Urls<'a>,
    #[serde(borrow)]
    open_access: Urls<'a>,
    #[serde(borrow, rename = "openAccessPdf")]
    open_access_pdf: Urls<'a>,
}

/// An arXiv id given in a field meant for one: URLs reduced to the id.
pub(super) fn explicit_arxiv(id: String) -> String {
    match arxiv_in(&id, false) {
        Some(bare) if !starts_with_ignore_case(&id, "arxiv:") => bare,
        _ => id,
    }
}

/// True when `s` starts with `prefix`, ignoring ASCII case.
pub(super) fn starts_with_ignore_case(s: &str, prefix: &str) -> bool {
    s.get(..prefix.len())
        .is_some_and(|head| head.eq_ignore_ascii_case(prefix))
}

/// An arXiv id from a generic `id` field: only when it reads as one.
pub(super) fn arxiv_from_generic_id(id: &str) -> Option<String> {
    if is_arxiv_id(strip_arxiv_prefix(id)) {
        return Some(id.to_string());
    }
    arxiv_in(id, false).filter(|_| !starts_with_ignore_case(id.trim(), "arxiv:"))
}

/// What a paper object's id fields give.
pub(super) struct Ids {
    pub(super) arxiv: Option<String>,
    pub(super) doi: Option<String>,
    /// The `id` field, folded.
    pub(super) id: Option<String>,
    /// True when the arXiv id was found only in the number, the DOI or a
    /// URL (see `Record::former_id`).
    pub(super) late: bool,
}

/// The ids of a paper object, from its fields meant for an arXiv id
/// (`explicit`), its `id`, its DOI fields, its `number` and its URLs (see
/// the table on [`JsonRecord`]).
pub(super) fn ids<'a>(
    explicit: [Text<'a>; 4],
    id: Text<'a>,
    dois: [Text<'a>; 3],
    number: Text<'a>,
    urls: &[String],
) -> Ids {
    let explicit = first_text(explicit).map(explicit_arxiv);
    let id = id.into_folded();
    let explicit = explicit.or_else(|| id.as_deref().and_then(arxiv_from_generic_id));
    let doi = first_text(dois).and_then(|d| doi(&d));
    let (arxiv, late) = match explicit {
        Some(a) => (Some(a), false),
        None => {
            let found = number
                .into_folded()
                .and_then(|n| arxiv_in(&n, false))
                .or_else(|| doi.as_deref().and_then(|d| arxiv_in(d, false)))
                .or_else(|| urls.iter().find_map(|u| arxiv_in(u, false)));
            let late = found.is_some();
            (found, late)
        }
    };
    Ids {
        arxiv,
        doi,
        id,
        late,
    }
}

/// The URLs of a paper object's URL fields, folded, each once.
pub(super) fn urls<const N: usize>(fields: [&Urls<'_>; N]) -> Vec<String> {
    let mut urls: Vec<String> = Vec::new();
    for url in fields.into_iter().flat_map(|u| &u.0) {
        if let Some(url) = folded(url)
            && !urls.contains(&url)
        {
            urls.push(url);
        }
    }
    urls
}

impl<'a> JsonRecord<'a> {
    /// Whether its abstract is a plain string written at `at`.
    pub(super) fn plain_abstract_at(&self, at: *const u8) -> bool {
        matches!(&self.abstract_text, MaybePlain::Plain(p) if std::ptr::eq(p.raw.as_ptr(), at))
    }

    /// Whether its `authors_parsed` is written at `at`.
    pub(super) fn parsed_authors_at(&self, at: *const u8) -> bool {
        std::ptr::eq(self.authors_parsed.1.as_ptr(), at)
    }

    /// The record with `plain` for its abstract.
    pub(super) fn with_plain_abstract(self, plain: Plain<'a>) -> JsonRecord<'a> {
        JsonRecord {
            abstract_text: MaybePlain::Plain(plain),
            ..self
        }
    }

    /// The record with `names` for its `authors_parsed`.
    pub(super) fn with_parsed_authors(self, names: JsonAuthors<'a>) -> JsonRecord<'a> {
        JsonRecord {
            authors_parsed: ParsedAuthors(names, self.authors_parsed.1),
            ..self
        }
    }

    /// The record, with its abstract decoded.
    pub(super) fn into_record(self, line: usize) -> Record {
        let (mut record, plain) = self.into_record_deferring(line);
        if let Some(plain) = plain {
            record.abstract_text = string_folded(plain.raw);
        }
        record
    }

    /// The record and, when its abstract is a plain string, that string as
    /// written (quotes included) in place of the record's abstract.
    pub(super) fn into_record_deferring(self, line: usize) -> (Record, Option<Plain<'a>>) {
        let title = first_text([self.title, self.title_capital]);
        // A plain string is never blank, so it comes first as the field
        // does.
        let (plain, first) = match self.abstract_text {
            MaybePlain::Plain(raw) => (Some(raw), Text::Missing),
            MaybePlain::Text(t) => (None, t),
        };
        let abstract_text = first_text([
            first,
            self.abstract_capital,
            self.paper_abstract,
            self.abstract_note,
            self.summary,
        ]);
        let authors = [
            self.authors_parsed.0,
            self.authors,
            self.authors_capital,
            self.author,
            self.creators,
        ]
        .into_iter()
        .map(JsonAuthors::into_authors)
        .find(|names| !names.is_empty())
        .unwrap_or_default();
        let year = [
            self.year,
            self.year_capital,
            self.publication_year,
            self.issued,
            self.published,
            self.date,
            self.versions,
            self.update_date,
        ]
        .into_iter()
        .find_map(|y| y.0);
        let venue = first_text([
            self.venue,
            self.container_title,
            self.journal,
            self.publication_title,
            self.journal_ref,
        ]);
        let urls = urls([
            &self.url,
            &self.url_upper,
            &self.link,
            &self.links,
            &self.pdf_url,
            &self.open_access,
            &self.open_access_pdf,
        ]);
        let Ids {
            arxiv,
            doi,
            id,
            late,
        } = ids(
            [
                self.arxiv_id,
                self.arxiv_id_camel,
                self.arxiv,
                self.external_ids.arxiv,
            ],
            self.id,
            [self.doi, self.doi_upper, self.external_ids.doi],
            self.number,
            &urls,
        );
        // CSL-JSON (Zotero) writes an arXiv paper's id only as its number
        // (`arXiv:2106.09685`), its link or arXiv's DOI; such a paper had
        // a hash id (or its DOI's) before these were read.
        let former_id = late.then(|| match &doi {
            Some(d) => PaperId::doi(d),
            None => {
                let decoded = plain.and_then(|p| string_folded(p.raw));
                let text = decoded.as_deref().or(abstract_text.as_deref());
                PaperId::from_hash(content_hash(title.as_deref(), text.unwrap_or("")))
            }
        });
        let key = id.filter(|_| arxiv.is_none() && doi.is_none());
        let record = Record {
            title,
            abstract_text: abstract_text.filter(|_| plain.is_none()),
            authors,
            year,
            venue,
            urls,
            arxiv,
            key,
            volume: self.volume.into_folded(),
            doi,
            line,
            former_id,
        };
        (record, plain)
    }
}
