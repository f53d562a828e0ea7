//! JSON documents and JSON Lines, as exported by arXiv, Zotero, Semantic
//! Scholar and home-made scripts.
//!
//! Paper lists come as JSON in a handful of shapes: the arXiv metadata
//! snapshot (one object per line), CSL-JSON from Zotero (an array), API
//! responses that wrap an array (`{"data": […]}`), and plain
//! `{title, abstract, authors, url, year}` objects. This reader accepts all
//! of them without being told which: the shape is detected from the text,
//! and every object is read through one lenient set of field names (the
//! table on `Paper` below) that tolerates a year given as a number or a
//! string, authors given as one string or a list of strings or objects, and
//! `null`s anywhere.
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
//! **Errors.** In JSON Lines each bad line is skipped alone. In a document,
//! an element that is valid JSON but not a readable paper is skipped alone;
//! a syntax error ends the reading, keeping the papers before it and
//! reporting the error's line (and column, which matters for minified
//! one-line files).
//!
//! **Speed.** JSON Lines files can be the 1.8 GB arXiv snapshot, so
//! [`parse_line`] deserializes straight from the line into borrowed fields
//! and allocates only the strings of the finished [`Record`].

use std::borrow::Cow;
use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::error::Category;

use super::{Format, Reader, start};
use crate::corpus::fields::{
    arxiv_in, doi, is_arxiv_id, plausible_year, split_names, strip_arxiv_prefix, year_in,
};
use crate::corpus::fold::{fold_whitespace, folded, push_folded};
use crate::corpus::json_string::plain_json_string;
pub use crate::corpus::json_string::string_folded;
use crate::corpus::{NAME_SEP, PaperId, Parsed, Record, content_hash};

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
// Lenient field types.

/// A JSON number as the parser gave it.
#[derive(Clone, Copy)]
enum Num {
    U(u64),
    I(i64),
    F(f64),
}

/// A field type that accepts any JSON value and makes what it can of it;
/// values of a kind it has no use for read as its default.
trait Lenient<'a>: Default {
    fn from_text(text: Cow<'a, str>) -> Self {
        let _ = text;
        Self::default()
    }

    /// A string that had escapes, so it lives in the parser's scratch
    /// buffer only.
    fn from_transient(text: &str) -> Self {
        Self::from_text(Cow::Owned(text.to_owned()))
    }

    fn from_number(n: Num) -> Self {
        let _ = n;
        Self::default()
    }

    fn from_seq<'de: 'a, A: SeqAccess<'de>>(mut seq: A) -> Result<Self, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Self::default())
    }

    fn from_map<'de: 'a, A: MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Self::default())
    }
}

struct LenientVisitor<T>(PhantomData<T>);

impl<'de: 'a, 'a, T: Lenient<'a>> Visitor<'de> for LenientVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<T, E> {
        Ok(T::default())
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<T, E> {
        Ok(T::from_number(Num::I(v)))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<T, E> {
        Ok(T::from_number(Num::U(v)))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<T, E> {
        Ok(T::from_number(Num::F(v)))
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<T, E> {
        Ok(T::from_text(Cow::Borrowed(v)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        Ok(T::from_transient(v))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<T, E> {
        Ok(T::from_text(Cow::Owned(v)))
    }

    fn visit_unit<E: de::Error>(self) -> Result<T, E> {
        Ok(T::default())
    }

    fn visit_none<E: de::Error>(self) -> Result<T, E> {
        Ok(T::default())
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        d.deserialize_any(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<T, A::Error> {
        T::from_seq(seq)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        T::from_map(map)
    }
}

macro_rules! deserialize_leniently {
    ($($ty:ident),*) => {$(
        impl<'de: 'a, 'a> Deserialize<'de> for $ty<'a> {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                d.deserialize_any(LenientVisitor(PhantomData))
            }
        }
    )*};
}

deserialize_leniently!(Text, Authors, AuthorName, Urls, ExternalIds);

/// A field that may be left in the file: a plain string (see
/// [`plain_json_string`]) as written, quotes and escapes included; any
/// other value as a [`Text`].
enum MaybePlain<'a> {
    Plain(&'a str),
    Text(Text<'a>),
}

impl Default for MaybePlain<'_> {
    fn default() -> Self {
        MaybePlain::Text(Text::Missing)
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for MaybePlain<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = <&'de serde_json::value::RawValue>::deserialize(d)?.get();
        if plain_json_string(raw) {
            return Ok(MaybePlain::Plain(raw));
        }
        serde_json::from_str(raw)
            .map(MaybePlain::Text)
            .map_err(de::Error::custom)
    }
}

impl<'de> Deserialize<'de> for Year {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(LenientVisitor(PhantomData))
    }
}

/// An object key, borrowed from the input when it has no escapes.
struct Key<'a>(Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for Key<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct KeyVisitor<'a>(PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for KeyVisitor<'a> {
            type Value = Key<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Key<'a>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Key<'a>, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Key<'a>, E> {
                Ok(Key(Cow::Owned(v)))
            }
        }
        d.deserialize_str(KeyVisitor(PhantomData))
    }
}

/// A text field: a string, a number written as text, the first non-blank
/// text of a list (Crossref writes `"title": ["…"]`), or an object's
/// `name` (Semantic Scholar writes `"journal": {"name": "…"}`). Strings
/// without escapes stay borrowed until used; others are folded at once,
/// so each is copied only once.
#[derive(Default)]
enum Text<'a> {
    #[default]
    Missing,
    Raw(&'a str),
    Folded(String),
}

impl<'a> Lenient<'a> for Text<'a> {
    fn from_text(text: Cow<'a, str>) -> Self {
        match text {
            Cow::Borrowed(s) => Text::Raw(s),
            Cow::Owned(s) => Text::from_transient(&s),
        }
    }

    fn from_transient(text: &str) -> Self {
        Text::Folded(fold_whitespace(text))
    }

    fn from_number(n: Num) -> Self {
        Text::Folded(match n {
            Num::U(v) => v.to_string(),
            Num::I(v) => v.to_string(),
            Num::F(v) => v.to_string(),
        })
    }

    fn from_seq<'de: 'a, A: SeqAccess<'de>>(mut seq: A) -> Result<Self, A::Error> {
        let mut found = Text::Missing;
        while let Some(t) = seq.next_element::<Text<'a>>()? {
            if found.is_blank() && !t.is_blank() {
                found = t;
            }
        }
        Ok(found)
    }

    fn from_map<'de: 'a, A: MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
        let mut found = Text::Missing;
        while let Some(Key(key)) = map.next_key::<Key<'a>>()? {
            if key == "name" && found.is_blank() {
                found = map.next_value::<Text<'a>>()?;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(found)
    }
}

impl Text<'_> {
    fn is_blank(&self) -> bool {
        match self {
            Text::Missing => true,
            Text::Raw(s) => s.trim().is_empty(),
            Text::Folded(s) => s.is_empty(),
        }
    }

    /// The text with whitespace folded, `None` when blank.
    fn into_folded(self) -> Option<String> {
        match self {
            Text::Missing => None,
            Text::Raw(s) => folded(s),
            Text::Folded(s) => Some(s).filter(|s| !s.is_empty()),
        }
    }

    /// Appends the folded text to `out` (see [`push_folded`]).
    fn push_to(&self, out: &mut String) {
        match self {
            Text::Missing => {}
            Text::Raw(s) => push_folded(out, s),
            Text::Folded(s) => push_folded(out, s),
        }
    }
}

/// The first of `texts` that is not blank, folded.
fn first_text<'a, const N: usize>(texts: [Text<'a>; N]) -> Option<String> {
    texts.into_iter().find_map(Text::into_folded)
}

/// A year: a number, the first four-digit run of a string, the first year
/// in a list, or an object's `date-parts` / `raw` / `literal` / `year` /
/// `created` / `date-time` / `date` (CSL-JSON dates, arXiv versions).
#[derive(Default, Clone, Copy)]
struct Year(Option<i32>);

impl<'a> Lenient<'a> for Year {
    fn from_text(text: Cow<'a, str>) -> Self {
        Year(year_in(&text))
    }

    fn from_transient(text: &str) -> Self {
        Year(year_in(text))
    }

    fn from_number(n: Num) -> Self {
        Year(match n {
            Num::U(v) => i64::try_from(v).ok().and_then(plausible_year),
            Num::I(v) => plausible_year(v),
            Num::F(v) if v.fract() == 0.0 && v.abs() < 1e6 => plausible_year(v as i64),
            Num::F(_) => None,
        })
    }

    fn from_seq<'de: 'a, A: SeqAccess<'de>>(mut seq: A) -> Result<Self, A::Error> {
        let mut found = None;
        while let Some(Year(y)) = seq.next_element::<Year>()? {
            found = found.or(y);
        }
        Ok(Year(found))
    }

    fn from_map<'de: 'a, A: MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
        let mut found = None;
        while let Some(Key(key)) = map.next_key::<Key<'a>>()? {
            match &*key {
                "date-parts" | "raw" | "literal" | "year" | "created" | "date-time" | "date" => {
                    found = found.or(map.next_value::<Year>()?.0);
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(Year(found))
    }
}

/// Author names: one string of names (kept whole until needed, see
/// [`split_names`]), or a list of names, arXiv's parsed triples
/// `["Last", "First", "Jr"]`, or objects (see [`AuthorName`]). A list is
/// written straight into one string, the names joined as
/// [`Authors`](crate::corpus::Authors) keeps them: no string a name.
#[derive(Default)]
enum Authors<'a> {
    #[default]
    None,
    Joined(Cow<'a, str>),
    List(String),
}

impl<'a> Lenient<'a> for Authors<'a> {
    fn from_text(text: Cow<'a, str>) -> Self {
        Authors::Joined(text)
    }

    fn from_seq<'de: 'a, A: SeqAccess<'de>>(mut seq: A) -> Result<Self, A::Error> {
        let (mut all, mut name) = NAMES.take();
        let mut result = Ok(());
        loop {
            match seq.next_element::<AuthorName<'a>>() {
                Ok(Some(author)) => author.push_to(&mut all, &mut name),
                Ok(None) => break,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        // Made to size, once.
        let list = Authors::List(all.as_str().into());
        all.clear();
        NAMES.set((all, name));
        result.map(|()| list)
    }

    fn from_map<'de: 'a, A: MapAccess<'de>>(map: A) -> Result<Self, A::Error> {
        let (mut all, mut name) = (String::new(), String::new());
        AuthorName::from_map(map)?.push_to(&mut all, &mut name);
        Ok(Authors::List(all))
    }
}

thread_local! {
    /// Room to write a list of names and one name in, kept between papers
    /// so that a list is written without growing a string name by name.
    static NAMES: std::cell::Cell<(String, String)> = const {
        std::cell::Cell::new((String::new(), String::new()))
    };
}

impl Authors<'_> {
    fn into_authors(self) -> crate::corpus::Authors {
        match self {
            Authors::None => crate::corpus::Authors::default(),
            Authors::Joined(s) => split_names(&s).into_iter().collect(),
            Authors::List(all) => crate::corpus::Authors::from_joined(all),
        }
    }
}

/// One author: a string, an arXiv triple `["Last", "First", "Jr", …]`
/// (later items, affiliations, are dropped), or an object with `name` /
/// `literal` / `display_name` / `fullName` or `given` + `family` /
/// `firstName` + `lastName`. Its parts, in the order they are written in.
#[derive(Default)]
struct AuthorName<'a>([Text<'a>; 3]);

impl AuthorName<'_> {
    /// Appends the name (the parts' folded words joined by spaces) to the
    /// names in `all`, unless it is blank; `name` is room to write it in.
    fn push_to(&self, all: &mut String, name: &mut String) {
        name.clear();
        for part in &self.0 {
            part.push_to(name);
        }
        if name.is_empty() {
            return;
        }
        if !all.is_empty() {
            all.push(NAME_SEP);
        }
        if name.contains(NAME_SEP) {
            all.push_str(&name.replace(NAME_SEP, " "));
        } else {
            all.push_str(name);
        }
    }
}

impl<'a> Lenient<'a> for AuthorName<'a> {
    fn from_text(text: Cow<'a, str>) -> Self {
        AuthorName([Text::from_text(text), Text::Missing, Text::Missing])
    }

    fn from_transient(text: &str) -> Self {
        AuthorName([Text::from_transient(text), Text::Missing, Text::Missing])
    }

    fn from_seq<'de: 'a, A: SeqAccess<'de>>(mut seq: A) -> Result<Self, A::Error> {
        let [mut last, mut first, mut suffix] = [Text::Missing, Text::Missing, Text::Missing];
        let mut i = 0;
        while let Some(t) = seq.next_element::<Text<'a>>()? {
            match i {
                0 => last = t,
                1 => first = t,
                2 => suffix = t,
                _ => {}
            }
            i += 1;
        }
        Ok(AuthorName([first, last, suffix]))
    }

    fn from_map<'de: 'a, A: MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
        let [mut whole, mut given, mut family] = [Text::Missing, Text::Missing, Text::Missing];
        while let Some(Key(key)) = map.next_key::<Key<'a>>()? {
            let slot = match &*key {
                "name" | "literal" | "display_name" | "full_name" | "fullName" => &mut whole,
                "given" | "firstName" | "first_name" => &mut given,
                "family" | "lastName" | "last_name" => &mut family,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                    continue;
                }
            };
            let text = map.next_value::<Text<'a>>()?;
            if slot.is_blank() {
                *slot = text;
            }
        }
        Ok(if whole.is_blank() {
            AuthorName([given, family, Text::Missing])
        } else {
            AuthorName([whole, Text::Missing, Text::Missing])
        })
    }
}

/// URLs: a string, a list, or objects' `url` / `URL` / `href` / `oa_url`
/// (OpenAlex's `open_access`, Semantic Scholar's `openAccessPdf`).
#[derive(Default)]
struct Urls<'a>(Vec<Cow<'a, str>>);

impl<'a> Lenient<'a> for Urls<'a> {
    fn from_text(text: Cow<'a, str>) -> Self {
        Urls(vec![text])
    }

    fn from_seq<'de: 'a, A: SeqAccess<'de>>(mut seq: A) -> Result<Self, A::Error> {
        let mut all = Vec::new();
        while let Some(Urls(u)) = seq.next_element::<Urls<'a>>()? {
            all.extend(u);
        }
        Ok(Urls(all))
    }

    fn from_map<'de: 'a, A: MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
        let mut all = Vec::new();
        while let Some(Key(key)) = map.next_key::<Key<'a>>()? {
            if matches!(&*key, "url" | "URL" | "href" | "oa_url") {
                all.extend(map.next_value::<Urls<'a>>()?.0);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(Urls(all))
    }
}

/// Semantic Scholar's `externalIds`: `ArXiv` and `DOI`.
#[derive(Default)]
struct ExternalIds<'a> {
    arxiv: Text<'a>,
    doi: Text<'a>,
}

impl<'a> Lenient<'a> for ExternalIds<'a> {
    fn from_map<'de: 'a, A: MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
        let mut ids = ExternalIds::default();
        while let Some(Key(key)) = map.next_key::<Key<'a>>()? {
            match &*key {
                "ArXiv" | "arXiv" | "arxiv" => ids.arxiv = map.next_value()?,
                "DOI" | "doi" => ids.doi = map.next_value()?,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(ids)
    }
}

// ---------------------------------------------------------------------------
// The paper object.

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
/// | arxiv    | `arxiv_id`, `arxivId`, `arxiv`, `externalIds.ArXiv`, or `id` when it reads as an arXiv id |
/// | doi      | `doi`, `DOI`, `externalIds.DOI` (a `https://doi.org/` prefix dropped) |
#[derive(Deserialize, Default)]
#[serde(default)]
struct Paper<'a> {
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
    authors_parsed: Authors<'a>,
    #[serde(borrow)]
    authors: Authors<'a>,
    #[serde(borrow, rename = "Authors")]
    authors_capital: Authors<'a>,
    #[serde(borrow)]
    author: Authors<'a>,
    #[serde(borrow)]
    creators: Authors<'a>,

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
fn explicit_arxiv(id: String) -> String {
    match arxiv_in(&id, false) {
        Some(bare) if !starts_with_ignore_case(&id, "arxiv:") => bare,
        _ => id,
    }
}

/// True when `s` starts with `prefix`, ignoring ASCII case.
fn starts_with_ignore_case(s: &str, prefix: &str) -> bool {
    s.get(..prefix.len())
        .is_some_and(|head| head.eq_ignore_ascii_case(prefix))
}

/// An arXiv id from a generic `id` field: only when it reads as one.
fn arxiv_from_generic_id(id: &str) -> Option<String> {
    if is_arxiv_id(strip_arxiv_prefix(id)) {
        return Some(id.to_string());
    }
    arxiv_in(id, false).filter(|_| !starts_with_ignore_case(id.trim(), "arxiv:"))
}

impl<'a> Paper<'a> {
    /// The record, with its abstract decoded.
    fn into_record(self, line: usize) -> Record {
        let (mut record, plain) = self.into_record_deferring(line);
        if let Some(raw) = plain {
            record.abstract_text = string_folded(raw);
        }
        record
    }

    /// The record and, when its abstract is a plain string, that string as
    /// written (quotes included) in place of the record's abstract.
    fn into_record_deferring(self, line: usize) -> (Record, Option<&'a str>) {
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
            self.authors_parsed,
            self.authors,
            self.authors_capital,
            self.author,
            self.creators,
        ]
        .into_iter()
        .map(Authors::into_authors)
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
        let mut urls: Vec<String> = Vec::new();
        for url in [
            &self.url,
            &self.url_upper,
            &self.link,
            &self.links,
            &self.pdf_url,
            &self.open_access,
            &self.open_access_pdf,
        ]
        .into_iter()
        .flat_map(|u| &u.0)
        {
            if let Some(url) = folded(url)
                && !urls.contains(&url)
            {
                urls.push(url);
            }
        }
        let explicit = first_text([
            self.arxiv_id,
            self.arxiv_id_camel,
            self.arxiv,
            self.external_ids.arxiv,
        ])
        .map(explicit_arxiv)
        .or_else(|| {
            self.id
                .into_folded()
                .and_then(|id| arxiv_from_generic_id(&id))
        });
        let doi =
            first_text([self.doi, self.doi_upper, self.external_ids.doi]).and_then(|d| doi(&d));
        // CSL-JSON (Zotero) writes an arXiv paper's id only as its number
        // (`arXiv:2106.09685`), its link or arXiv's DOI; such a paper had
        // a hash id (or its DOI's) before these were read.
        let mut former_id = None;
        let arxiv = explicit.or_else(|| {
            let found = self
                .number
                .into_folded()
                .and_then(|n| arxiv_in(&n, false))
                .or_else(|| doi.as_deref().and_then(|d| arxiv_in(d, false)))
                .or_else(|| urls.iter().find_map(|u| arxiv_in(u, false)))?;
            former_id = Some(match &doi {
                Some(d) => PaperId::doi(d),
                None => {
                    let decoded = plain.and_then(string_folded);
                    let text = decoded.as_deref().or(abstract_text.as_deref());
                    PaperId::from_hash(content_hash(title.as_deref(), text.unwrap_or("")))
                }
            });
            Some(found)
        });
        let record = Record {
            title,
            abstract_text: abstract_text.filter(|_| plain.is_none()),
            authors,
            year,
            venue,
            urls,
            arxiv,
            doi,
            line,
            former_id,
        };
        (record, plain)
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
// JSON Lines.

/// Parses one line of JSON Lines (`line_no` is 1-based): Ok(None) for a
/// blank line, Err(reason) for a line that is not a JSON object.
pub fn parse_line(line: &str, line_no: usize) -> Result<Option<Record>, String> {
    Ok(
        parse_line_deferring(line, line_no)?.map(|(mut record, plain)| {
            if let Some(raw) = plain {
                record.abstract_text = string_folded(raw);
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
) -> Result<Option<(Record, Option<&str>)>, String> {
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
    match serde_json::from_str::<Paper>(trimmed) {
        Ok(paper) => Ok(Some(paper.into_record_deferring(line_no))),
        Err(e) => Err(describe(&e, (e.line() == 1).then(|| lead + e.column()))),
    }
}

fn parse_lines(body: &str) -> Parsed {
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
fn mostly_object_lines(body: &str) -> bool {
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
    /// The offset just past the object.
    end: usize,
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
                let (Key(key), end) =
                    value_at::<Key>(self.body, i).map_err(|e| self.error(i, &e))?;
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
                    value_at::<IgnoredAny>(self.body, i)
                        .map_err(|e| self.error(i, &e))?
                        .1
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
            end: i + 1,
            wrapped: wrapped.filter(|_| !has_abstract),
            name,
        })
    }

    /// Reads the object at `pos` as scanned: the papers it wraps, or itself
    /// as a paper.
    fn read_object(&mut self, pos: usize, depth: u8, scan: &Scan) -> Result<(), Stop> {
        match scan.wrapped {
            Some(at) if self.byte(at) == Some(b'[') => self.array(at, depth + 1).map(drop),
            Some(at) => self.object(at, depth + 1).map(drop),
            None => self.paper(pos),
        }
    }

    /// Reads the object at `pos`; the offset just past it.
    fn object(&mut self, pos: usize, depth: u8) -> Result<usize, Stop> {
        let scan = self.scan(pos, depth)?;
        self.read_object(pos, depth, &scan)?;
        Ok(scan.end)
    }

    /// Reads the object at `pos` as a paper.
    fn paper(&mut self, pos: usize) -> Result<(), Stop> {
        let line = self.line(pos);
        match value_at::<Paper>(self.body, pos) {
            Ok((paper, _)) => self.parsed.records.push(paper.into_record(line)),
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
            let end = self.element(i, depth)?;
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

    /// Records why reading stopped.
    fn stop(&mut self, (line, reason): Stop) {
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
    let mut doc = Document {
        body,
        lines: LineCounter::default(),
        parsed: Parsed::default(),
    };
    let start = doc.skip_ws(0);
    match doc.byte(start) {
        None => {}
        Some(b'[') => match doc.array(start, 0) {
            Ok(end) => doc.trailing(end),
            Err(stop) => doc.stop(stop),
        },
        Some(b'{') => match doc.scan(start, 0) {
            Ok(scan) if doc.skip_ws(scan.end) < body.len() => return parse_lines(body),
            Ok(scan) => {
                if scan.wrapped.is_some() {
                    doc.parsed.header = scan.name.clone();
                }
                if let Err(stop) = doc.read_object(start, 0, &scan) {
                    doc.stop(stop);
                }
            }
            Err(_) if mostly_object_lines(body) => return parse_lines(body),
            Err(stop) => doc.stop(stop),
        },
        Some(first) => {
            if mostly_object_lines(body) {
                return parse_lines(body);
            }
            let line = doc.line(start);
            let stop = match value_at::<IgnoredAny>(body, start) {
                Ok(_) => (line, format!("{} is not a list of papers", kind(first))),
                Err(e) => doc.error(start, &e),
            };
            doc.stop(stop);
        }
    }
    doc.parsed
}

/// A JSON document: an array of papers, an object wrapping one, or one
/// paper.
pub struct Json;

impl Reader for Json {
    fn name(&self) -> &'static str {
        "json"
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

    /// The first line of the arXiv snapshot, as the snapshot writes it.
    const ARXIV_LINE: &str = r#"{"id":"0704.0001","submitter":"Pavel Nadolsky","authors":"C. Bal\\'azs, E. L. Berger, P. M. Nadolsky, C.-P. Yuan","title":"Calculation of prompt diphoton production cross sections at Tevatron and\n  LHC energies","comments":"37 pages, 15 figures; published version","journal-ref":"Phys.Rev.D76:013009,2007","doi":"10.1103/PhysRevD.76.013009","report-no":"ANL-HEP-PR-07-12","categories":"hep-ph","license":null,"abstract":"  A fully differential calculation in perturbative quantum chromodynamics is\npresented for the production of massive photon pairs at hadron colliders. All\nnext-to-leading order perturbative contributions from quark-antiquark,\ngluon-(anti)quark, and gluon-gluon subprocesses are included.\n","versions":[{"version":"v1","created":"Mon, 2 Apr 2007 19:18:42 GMT"},{"version":"v2","created":"Tue, 24 Jul 2007 20:10:27 GMT"}],"update_date":"2008-11-26","authors_parsed":[["Bal\u00e1zs","C.",""],["Berger","E. L.",""],["Nadolsky","P. M.",""],["Yuan","C. -P.",""]]}"#;

    fn one(text: &str) -> Record {
        let parsed = parse(text);
        assert!(parsed.skipped.is_empty(), "skipped: {:?}", parsed.skipped);
        assert_eq!(parsed.records.len(), 1, "{:?}", parsed.records);
        parsed.records.into_iter().next().unwrap()
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
        // An error inside an array keeps what came before it.
        let parsed = parse("[\n{\"title\": \"A\"},\n{\"title\": \"B\",\n \"x\": }\n]");
        assert_eq!(parsed.records.len(), 1);
        assert_eq!(parsed.skipped.len(), 1);
        assert_eq!(parsed.skipped[0].0, 4);
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
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/corpora/");
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
                for (at, byte, op) in edits {
                    let at = at % (bytes.len() + 1);
                    match op {
                        0 if at < bytes.len() => bytes[at] = byte,
                        1 if at < bytes.len() => { bytes.remove(at); }
                        _ => bytes.insert(at, byte),
                    }
                }
                let text = String::from_utf8_lossy(&bytes);
                check(&text);
                for (i, line) in text.split('\n').enumerate() {
                    let _ = parse_line(line, i + 1);
                }
            }
        }
    }
}
