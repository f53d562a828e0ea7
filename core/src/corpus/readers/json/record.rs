//! The paper object: which JSON fields a record's fields are read from,
//! and the record made of them (ids through [`crate::corpus::fields`]).

use std::borrow::Cow;

use serde::Deserialize;

use super::lenient::{
    Codes, ExternalIds, JsonAuthors, Lenient, MaybePlain, ParsedAuthors, Strings, Text, Urls, Year,
    first_abstract, first_text, is_date_key,
};
use super::members::{self, Kind};
use crate::corpus::fields::{arxiv_in, doi, is_arxiv_id, strip_arxiv_prefix, year_in};
use crate::corpus::fold::folded;
use crate::corpus::json_string::{Plain, string_paragraphs};
use crate::corpus::{More, PaperId, Record, content_hash};

/// The fields read from one paper object; every other field is skipped
/// unread. Where several name the same thing the first listed that is not
/// blank wins:
///
/// | record   | JSON fields |
/// |----------|-------------|
/// | title    | `title`, `Title`, `name` |
/// | abstract | `abstract`, `Abstract`, `paperAbstract`, `abstractNote`, `summary` |
/// | authors  | `authors_parsed`, `authors`, `Authors`, `author`, `creators`, `speakers/authors` |
/// | year     | `year`, `Year`, `publication_year`, `issued`, `published`, `date`, `versions[0].created`, `update_date` |
/// | venue    | `venue`, `container-title`, `journal`, `publicationTitle`, `journal-ref` |
/// | urls     | `url`, `URL`, `link`, `links`, `pdf_url`, `open_access.oa_url`, `openAccessPdf.url` (all, deduplicated) |
/// | arxiv    | `arxiv_id`, `arxivId`, `arxiv`, `externalIds.ArXiv`, or `id` when it reads as an arXiv id; else `number` (`arXiv:…`), the DOI (`10.48550/arXiv.…`) or a URL (`arxiv.org/abs/…`) naming one, as Zotero's CSL-JSON does |
/// | doi      | `doi`, `DOI`, `externalIds.DOI` (a resolver link or `doi:` dropped; kept only when it reads as a DOI) |
/// | key      | `id` (when it is not an arXiv id: CSL-JSON's item id) |
/// | given id | `id` when it is written as paperboat writes ids (`doi:…`, `arxiv:…`, `openreview:…`, 16 hex digits): the paper keeps it |
/// | volume   | `volume` |
/// | keywords | `keywords` (a list, or one string split at `;` or `,`) |
/// | categories | `categories` (a list, or one string split at spaces, `;` or `,`: arXiv's snapshot writes `"cs.LG stat.ML"`) |
/// | forum    | `forum` (an OpenReview forum id), else a forum or PDF link among the URLs |
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

    /// An event's name, as conference sites list papers (read when there
    /// is no title).
    #[serde(borrow)]
    name: Text<'a>,
    /// Conference sites' authors (ICML's virtual site).
    #[serde(borrow, rename = "speakers/authors")]
    speakers_authors: JsonAuthors<'a>,
    #[serde(borrow)]
    keywords: Strings<'a>,
    /// arXiv categories, primary first.
    categories: Codes,
    /// An OpenReview forum id.
    #[serde(borrow)]
    forum: Text<'a>,
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

/// The JSON keys of [`JsonRecord`]'s fields, in the order they are
/// declared (and handed to the parser by serde's derived code).
pub(super) const FIELDS: [&str; 46] = [
    "id",
    "arxiv_id",
    "arxivId",
    "arxiv",
    "externalIds",
    "doi",
    "DOI",
    "title",
    "Title",
    "abstract",
    "Abstract",
    "paperAbstract",
    "abstractNote",
    "summary",
    "authors_parsed",
    "authors",
    "Authors",
    "author",
    "creators",
    "year",
    "Year",
    "publication_year",
    "issued",
    "published",
    "date",
    "versions",
    "update_date",
    "venue",
    "container-title",
    "journal",
    "publicationTitle",
    "journal-ref",
    "number",
    "volume",
    "url",
    "URL",
    "link",
    "links",
    "pdf_url",
    "open_access",
    "openAccessPdf",
    "name",
    "speakers/authors",
    "keywords",
    "categories",
    "forum",
];

/// Where a key (not empty) is looked for in [`SLOTS`]: by its length and
/// its first and last bytes, which tell every key of [`FIELDS`] apart.
const fn slot_of(key: &[u8]) -> usize {
    (key.len() * 5 + key[0] as usize * 2 + key[key.len() - 1] as usize * 13) % 128
}

/// Each key of [`FIELDS`] at [`slot_of`] it, as its place in `FIELDS`;
/// `u8::MAX` in the other slots. Made when compiled: two keys in one
/// slot fail the build.
const SLOTS: [u8; 128] = {
    let mut slots = [u8::MAX; 128];
    let mut f = 0;
    while f < FIELDS.len() {
        let slot = slot_of(FIELDS[f].as_bytes());
        assert!(slots[slot] == u8::MAX, "two keys in one slot");
        slots[slot] = f as u8;
        f += 1;
    }
    slots
};

/// The place in [`FIELDS`] of `key`, if it is one of them: one slot
/// looked at and one comparison, where matching the key against each
/// name in turn was most of the walk's cost per member. (The titles
/// reader knows its fields by it too.)
pub(super) fn field_of(key: &str) -> Option<usize> {
    let b = key.as_bytes();
    if b.is_empty() {
        return None;
    }
    let f = SLOTS[slot_of(b)] as usize;
    (*FIELDS.get(f)? == key).then_some(f)
}

/// A field of a [`Lenient`] type read from its value as
/// [`members::each`] found it: a plain string and a literal as the
/// parser's reading makes them (a borrowed string; the default), any
/// other value by the parser. `None` where the parser refuses it.
fn lenient<'a, T: Lenient<'a> + Deserialize<'a>>(raw: &'a str, kind: Kind) -> Option<T> {
    match kind {
        Kind::Plain => Some(T::from_text(Cow::Borrowed(&raw[1..raw.len() - 1]))),
        Kind::Literal => Some(T::default()),
        Kind::Other => serde_json::from_str(raw).ok(),
        // Read ahead of the walk, by the caller.
        Kind::Known => None,
    }
}

/// A [`Year`] field read from its value as [`members::each`] found it,
/// as [`lenient`] reads it; a list of flat objects of plain strings
/// (arXiv's `versions`) is read by the walk too ([`members::each_flat`]),
/// as `Year`'s own reading takes it: the first year of the values of its
/// date keys, in order.
fn year(raw: &str, kind: Kind) -> Option<Year> {
    if kind == Kind::Other {
        let mut found = None;
        let flat = members::each_flat(raw, |key, text| {
            if found.is_none() && is_date_key(key) {
                found = year_in(text);
            }
        });
        if flat {
            return Some(Year(found));
        }
    }
    lenient(raw, kind)
}

impl<'a> JsonRecord<'a> {
    /// `line` (a JSON object, as a line holds it) read as
    /// `serde_json::from_str` reads it: by one walk over its members
    /// ([`members::each`]) where the walk can vouch for the same outcome,
    /// else by the parser (a key with an escape, a field given twice,
    /// anything the parser refuses, which then tells why).
    pub(super) fn read(line: &'a str) -> serde_json::Result<JsonRecord<'a>> {
        match JsonRecord::walked(line) {
            Some(r) => Ok(r),
            None => serde_json::from_str(line),
        }
    }

    /// [`JsonRecord::read`] by the walk; `None` where it cannot vouch.
    fn walked(line: &'a str) -> Option<JsonRecord<'a>> {
        let mut r = JsonRecord::default();
        let mut seen = 0u64;
        members::each(line, |key, raw, kind| {
            r.put(key, raw, kind, &mut seen).is_some()
        })
        .then_some(r)
    }

    /// [`JsonRecord::read`] of `line`, by the walk alone, where its plain
    /// abstract `plain` and arXiv's parsed names `names` (their spans of
    /// `line`, and the names read) were found ahead of it: both are taken
    /// as read, and must turn out to be the paper object's own `abstract`
    /// and `authors_parsed` (the walk lands on each as that member's
    /// value). `None` where the walk cannot vouch, or either was not.
    pub(super) fn walked_known(
        line: &'a str,
        plain: (usize, usize, Plain<'a>),
        names: Option<(usize, usize, JsonAuthors<'a>)>,
    ) -> Option<JsonRecord<'a>> {
        let (start, end, plain) = plain;
        let mut known = [(start, end), (usize::MAX, 0)];
        let mut r = JsonRecord {
            abstract_text: MaybePlain::Plain(plain),
            ..JsonRecord::default()
        };
        if let Some((open, close, names)) = names {
            known[1] = (open, close);
            r.authors_parsed = ParsedAuthors(names, line.get(open..close)?);
        }
        let wanted = 1 + usize::from(known[1].0 != usize::MAX);
        let (mut seen, mut taken) = (0u64, 0);
        let walked = members::each_known(line, &known, |key, raw, kind| {
            taken += usize::from(kind == Kind::Known);
            r.put(key, raw, kind, &mut seen).is_some()
        });
        (walked && taken == wanted).then_some(r)
    }

    /// Reads the member `key` (its value `raw`, found as `kind`) into its
    /// field, if it names one; `seen`: the fields given so far, one bit
    /// each (the parser refuses a field given twice). `None` where the
    /// parser would refuse the member.
    fn put(&mut self, key: &str, raw: &'a str, kind: Kind, seen: &mut u64) -> Option<()> {
        let Some(field) = field_of(key) else {
            return members::passes(raw, kind).then_some(());
        };
        (*seen & (1 << field) == 0).then_some(())?;
        *seen |= 1 << field;
        if kind == Kind::Known {
            // Read ahead of the walk: its field holds it, if it is this
            // field's (its value starts where the field's does).
            let here = raw.as_ptr();
            return match (field, &self.abstract_text) {
                (9, MaybePlain::Plain(p)) if std::ptr::eq(p.raw.as_ptr(), here) => Some(()),
                (14, _) if std::ptr::eq(self.authors_parsed.1.as_ptr(), here) => Some(()),
                _ => None,
            };
        }
        // The field's value, read as its type reads.
        macro_rules! value {
            () => {
                lenient(raw, kind)?
            };
        }
        // In the order of FIELDS.
        match field {
            0 => self.id = value!(),
            1 => self.arxiv_id = value!(),
            2 => self.arxiv_id_camel = value!(),
            3 => self.arxiv = value!(),
            4 => self.external_ids = value!(),
            5 => self.doi = value!(),
            6 => self.doi_upper = value!(),
            7 => self.title = value!(),
            8 => self.title_capital = value!(),
            9 => self.abstract_text = MaybePlain::from_raw(raw).ok()?,
            10 => self.abstract_capital = value!(),
            11 => self.paper_abstract = value!(),
            12 => self.abstract_note = value!(),
            13 => self.summary = value!(),
            14 => self.authors_parsed = ParsedAuthors::from_raw(raw).ok()?,
            15 => self.authors = value!(),
            16 => self.authors_capital = value!(),
            17 => self.author = value!(),
            18 => self.creators = value!(),
            19 => self.year = year(raw, kind)?,
            20 => self.year_capital = year(raw, kind)?,
            21 => self.publication_year = year(raw, kind)?,
            22 => self.issued = year(raw, kind)?,
            23 => self.published = year(raw, kind)?,
            24 => self.date = year(raw, kind)?,
            25 => self.versions = year(raw, kind)?,
            26 => self.update_date = year(raw, kind)?,
            27 => self.venue = value!(),
            28 => self.container_title = value!(),
            29 => self.journal = value!(),
            30 => self.publication_title = value!(),
            31 => self.journal_ref = value!(),
            32 => self.number = value!(),
            33 => self.volume = value!(),
            34 => self.url = value!(),
            35 => self.url_upper = value!(),
            36 => self.link = value!(),
            37 => self.links = value!(),
            38 => self.pdf_url = value!(),
            39 => self.open_access = value!(),
            40 => self.open_access_pdf = value!(),
            41 => self.name = value!(),
            42 => self.speakers_authors = value!(),
            43 => self.keywords = value!(),
            44 => self.categories = value!(),
            _ => self.forum = value!(),
        }
        Some(())
    }

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
            record.abstract_text = string_paragraphs(plain.raw);
        }
        record
    }

    /// The record and, when its abstract is a plain string, that string as
    /// written (quotes included) in place of the record's abstract.
    pub(super) fn into_record_deferring(self, line: usize) -> (Record, Option<Plain<'a>>) {
        let name = self.name;
        let title = first_text([self.title, self.title_capital]).or_else(|| name.into_folded());
        // A plain string is never blank, so it comes first as the field
        // does.
        let (plain, first) = match self.abstract_text {
            MaybePlain::Plain(raw) => (Some(raw), Text::Missing),
            MaybePlain::Text(t) => (None, t),
        };
        let abstract_text = first_abstract([
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
            self.speakers_authors,
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
                let decoded = plain.and_then(|p| string_paragraphs(p.raw));
                let text = decoded.as_deref().or(abstract_text.as_deref());
                PaperId::from_hash(content_hash(title.as_deref(), text.unwrap_or("")))
            }
        });
        // A paperboat export's id is the paper's, whatever else it holds.
        let given_id = id.as_deref().and_then(PaperId::exported);
        let former_id = former_id.filter(|_| given_id.is_none());
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
            given_id,
            // Most papers have neither: nothing made, nothing dropped.
            more: if self.keywords.is_empty()
                && self.categories.0.is_empty()
                && self.forum.is_blank()
            {
                None
            } else {
                More {
                    keywords: self.keywords.split(),
                    categories: self.categories.0,
                    forum: self.forum.into_folded(),
                    ..More::default()
                }
                .into()
            },
        };
        (record, plain)
    }
}

#[cfg(test)]
pub(super) mod tests {
    use proptest::prelude::*;
    use serde::de::{self, Deserializer, Visitor};

    use super::*;

    /// The field names serde's reading of [`JsonRecord`] knows, as its
    /// derived code hands them to the parser.
    fn serde_fields() -> &'static [&'static str] {
        struct Fields(&'static [&'static str]);
        impl<'de> Deserializer<'de> for &mut Fields {
            type Error = de::value::Error;
            fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
                Err(de::Error::custom("not a struct"))
            }
            fn deserialize_struct<V: Visitor<'de>>(
                self,
                _: &'static str,
                fields: &'static [&'static str],
                _: V,
            ) -> Result<V::Value, Self::Error> {
                self.0 = fields;
                Err(de::Error::custom("enough"))
            }
            serde::forward_to_deserialize_any! {
                bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
                bytes byte_buf option unit unit_struct newtype_struct seq tuple
                tuple_struct map enum identifier ignored_any
            }
        }
        let mut fields = Fields(&[]);
        let _ = JsonRecord::deserialize(&mut fields);
        fields.0
    }

    /// What a record read either way comes to: the record and its plain
    /// abstract, and where its abstract and parsed names were found.
    fn outcome(r: &str, read: Option<JsonRecord<'_>>) -> Option<String> {
        let r_ptr = r.as_ptr() as usize;
        read.map(|j| {
            let at = |p: *const u8| (p as usize).wrapping_sub(r_ptr);
            let plain = match &j.abstract_text {
                MaybePlain::Plain(p) => Some(at(p.raw.as_ptr())),
                MaybePlain::Text(_) => None,
            };
            let names = at(j.authors_parsed.1.as_ptr());
            format!("{plain:?} {names} {:?}", j.into_record_deferring(7))
        })
    }

    /// Where the walk reads `line`, the parser reads the same record.
    fn same(line: &str) {
        if let Some(walked) = JsonRecord::walked(line) {
            let parsed = serde_json::from_str::<JsonRecord>(line).ok();
            assert!(parsed.is_some(), "the parser refuses {line}");
            assert_eq!(outcome(line, Some(walked)), outcome(line, parsed), "{line}");
        }
    }

    const ARXIV: &str = r#"{"id":"0704.0001","submitter":"P. N","authors":"C. Bal\\'azs, E. L. Berger","title":"Calculation of prompt\n  diphoton production","comments":"37 pages","journal-ref":"Phys.Rev.D76:013009,2007","doi":"10.1103/PhysRevD.76.013009","report-no":null,"categories":"hep-ph","license":null,"abstract":"  A fully differential calculation\nin QCD.\n","versions":[{"version":"v1","created":"Mon, 2 Apr 2007 19:18:42 GMT"}],"update_date":"2008-11-26","authors_parsed":[["Bal\u00e1zs","C.",""],["Berger","E. L.",""]]}"#;

    #[test]
    fn the_walk_reads_an_arxiv_line_as_the_parser_does() {
        assert!(JsonRecord::walked(ARXIV).is_some());
        same(ARXIV);
        let (r, _) = JsonRecord::read(ARXIV).unwrap().into_record_deferring(1);
        assert_eq!(r.arxiv.as_deref(), Some("0704.0001"));
        assert_eq!(r.year, Some(2007));
        assert_eq!(r.venue.as_deref(), Some("Phys.Rev.D76:013009,2007"));
        let plain = r#"{"id":"2101.00001","title":"T","abstract":"Words here.","authors":"A B","versions":[{"created":"Mon, 1 Jan 2021"}]}"#;
        assert!(JsonRecord::walked(plain).is_some());
        same(plain);
        // The first version's year, as the parser reads the list.
        let versions = r#"{"id":"2101.00001","versions":[{"version":"v1","created":"no date"},{"version":"v2","created":"Mon, 2 Apr 2007"},{"created":"Tue, 1 May 2009"}],"update_date":"2010-01-01"}"#;
        assert!(JsonRecord::walked(versions).is_some());
        same(versions);
        let (r, _) = JsonRecord::read(versions).unwrap().into_record_deferring(1);
        assert_eq!(r.year, Some(2007));
    }

    #[test]
    fn the_walk_knows_the_fields_the_parser_knows_each_once() {
        let fields = serde_fields();
        assert_eq!(fields, FIELDS);
        for (f, key) in FIELDS.iter().enumerate() {
            assert_eq!(field_of(key), Some(f));
        }
        for other in ["", "submitter", "comments", "Id", "ids", "i", "titles"] {
            assert_eq!(field_of(other), None);
        }
        for f in fields {
            // Given twice, the parser refuses it, and so the walk leaves it.
            let twice = format!(r#"{{"{f}":null,"{f}":null}}"#);
            assert!(JsonRecord::walked(&twice).is_none(), "{f}");
            assert!(serde_json::from_str::<JsonRecord>(&twice).is_err(), "{f}");
            // Each with every other: a bit each.
            for g in fields.iter().filter(|g| *g != f) {
                let both = format!(r#"{{"{f}":null,"{g}":null}}"#);
                assert!(JsonRecord::walked(&both).is_some(), "{f} {g}");
            }
        }
        // Each field alone, and with each other, reads as the parser reads
        // it: a value in the wrong field would read otherwise (the
        // values differ, and each is one several fields can read).
        let value = |k: usize| {
            format!(
                r#""{} 10.1/{k} arXiv:2106.{k:05} https://x.org/{k}""#,
                1990 + k
            )
        };
        for (f, key) in FIELDS.iter().enumerate() {
            same(&format!("{{\"{key}\":{}}}", value(f)));
            for (g, other) in FIELDS.iter().enumerate().filter(|&(g, _)| g != f) {
                same(&format!(
                    "{{\"{key}\":{},\"{other}\":{}}}",
                    value(f),
                    value(g)
                ));
            }
        }
        // A key no field has may come twice.
        assert!(JsonRecord::walked(r#"{"comments":1,"comments":"x"}"#).is_some());
    }

    #[test]
    fn what_the_walk_leaves_the_parser_reads_and_refuses_as_before() {
        for line in [
            r#"{"title":"bad \q escape"}"#,
            r#"{"tit\u006ce":"escaped key"}"#,
            r#"{"title":"T","comments":"bad \x"}"#,
            r#"{"title":"T",}"#,
            r#"{"year":1e400}"#,
        ] {
            assert!(JsonRecord::walked(line).is_none(), "{line}");
            assert_eq!(
                JsonRecord::read(line).map_err(|e| e.to_string()).err(),
                serde_json::from_str::<JsonRecord>(line)
                    .map_err(|e| e.to_string())
                    .err(),
                "{line}"
            );
        }
        let escaped = JsonRecord::read(r#"{"tit\u006ce":"escaped key"}"#).unwrap();
        assert_eq!(escaped.into_record(1).title.as_deref(), Some("escaped key"));
    }

    /// Field names the parser knows, and some it does not (the titles
    /// reader's tests read them too).
    pub(in super::super) const KEYS: [&str; FIELDS.len() + 3] = {
        let mut keys = ["comments"; FIELDS.len() + 3];
        let mut k = 0;
        while k < FIELDS.len() {
            keys[k] = FIELDS[k];
            k += 1;
        }
        keys[k] = "ArXiv";
        keys[k + 1] = "tit\\u006ce";
        keys
    };

    /// Values of every shape a field meets.
    const VALUES: &[&str] = &[
        "null",
        "true",
        "false",
        "12",
        "2020",
        "-3.5",
        "1e400",
        "0.5e-2",
        "\"\"",
        "\"  \"",
        "\"0704.0001\"",
        "\"arXiv:2106.09685\"",
        "\"10.48550/arXiv.2106.09685\"",
        "\"https://arxiv.org/abs/2106.09685\"",
        "\"A title\\n  on two lines\"",
        "\"Plain words. And more, 2019.\"",
        "\"caf\\u00e9 \\ud800\"",
        "\"bad \\q\"",
        "\"tab\there\"",
        "\"<b>bold</b> $x^2$\"",
        "[]",
        "[\"\", \"second\"]",
        "[[\"Last\",\"First\",\"\"],[\"Doe\",\"J.\",\"\"]]",
        "[[\"Last\", \"First\"]]",
        "{\"name\":\"Venue\"}",
        "{\"ArXiv\":\"2101.00002\",\"DOI\":\"10.1/x\"}",
        "[{\"version\":\"v1\",\"created\":\"Mon, 2 Apr 2007\"}]",
        "{\"date-parts\":[[2019,5]]}",
        "[{\"version\":\"v1\",\"created\":\"no year\"},{\"created\":\"Tue, 3 Apr 2007\"}]",
        "[{\"created\":\"Mon, 2 Apr 2007\",\"date\":\"2001\"},{\"created\":\"1999\"}]",
        "[{\"created\":null,\"raw\":\"1999\",\"date\":\"2001\"}, \"1998\"]",
        "{\"created\":\"\\u0032007\",\"x\":[1,{\"y\":\"\\q\"}]}",
        "[[[2016]], {\"literal\":2015.0}, 1e400]",
        "{\"tit\\u006ce\":\"2014\"}",
        "{\"a\":[1,{}]}",
        "[1,}",
    ];

    /// White space the parser passes over, and some it does not.
    const GAPS: &[&str] = &["", " ", "\t", "\r", "  \n ", "\u{a0}"];

    fn line_of(fields: &[(usize, usize, usize)]) -> String {
        let gap = |g: usize| GAPS[g % GAPS.len()];
        let body: Vec<String> = fields
            .iter()
            .map(|&(k, v, g)| {
                let key = KEYS[k % KEYS.len()];
                let value = VALUES[v % VALUES.len()];
                format!("{}\"{key}\"{}:{}{value}", gap(g), gap(g / 7), gap(g / 49))
            })
            .collect();
        format!("{{{}}}", body.join(","))
    }

    proptest! {
        #[test]
        fn the_walk_reads_what_the_parser_reads(
            fields in proptest::collection::vec((any::<usize>(), any::<usize>(), any::<usize>()), 0..8),
        ) {
            same(&line_of(&fields));
        }

        #[test]
        fn mutated_lines_walk_as_the_parser_reads_them(
            edits in proptest::collection::vec((any::<usize>(), any::<u8>(), 0u8..3), 1..6),
        ) {
            let mut bytes = ARXIV.as_bytes().to_vec();
            crate::corpus::readers::mutate(&mut bytes, &edits);
            same(&String::from_utf8_lossy(&bytes));
        }

        #[test]
        fn any_text_walks_as_the_parser_reads_it(
            text in "[\\[\\]{}\",:0-9a-zA-Z \\n\\t\\\\.eE+-]{0,80}",
        ) {
            same(&text);
        }
    }
}
