//! A paper as JSON: what `export --format json` writes (a list of them)
//! and `list --json` prints (one a line). Its `id` is the paper's, which
//! paperboat's JSON reader honours; its text is as the file gave it
//! unless [`Text::Shown`] asks for the screen's.

use std::borrow::Cow;

use serde::Serialize;

use super::{Text, shown};
use crate::corpus::Corpus;
use crate::store::{Flag, Stamp, Store};

/// A paper as JSON exports (and `list --json` prints) it.
#[derive(Serialize)]
pub struct JsonPaper<'a> {
    /// Full id.
    pub id: &'a str,
    /// Id as shown.
    pub short_id: &'a str,
    /// Title, as written (or rendered: [`Text::Shown`]).
    pub title: Cow<'a, str>,
    /// Abstract as the file had it (sanitized), or rendered.
    #[serde(rename = "abstract")]
    pub abstract_text: Cow<'a, str>,
    /// List name.
    pub source: &'a str,
    /// Further lists holding the paper.
    #[serde(skip_serializing_if = "<[std::sync::Arc<str>]>::is_empty")]
    pub also_in: &'a [std::sync::Arc<str>],
    /// Authors, each as text that reads back as the same parts.
    pub authors: super::names::AsText<'a>,
    /// Year.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub year: Option<i32>,
    /// Venue.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub venue: Option<&'a str>,
    /// Ids and fields few papers have.
    #[serde(flatten)]
    pub rare: Rare<'a>,
    /// Links.
    pub links: Vec<String>,
    /// Bookmarked.
    pub bookmarked: bool,
    /// Read.
    pub read: bool,
    /// Tags, ordered without case.
    pub tags: Vec<&'a str>,
    /// The note (markdown, as written), or null.
    pub note: Option<&'a str>,
    /// When the reader first loaded the paper (RFC 3339), or null.
    pub first_seen: Option<Stamp>,
}

/// A paper's ids and the fields few papers have, each left out where
/// the paper has none: as `list --json` and `search --json` name them.
#[derive(Serialize)]
pub struct Rare<'a> {
    /// The DOI.
    #[serde(skip_serializing_if = "Option::is_none")]
    doi: Option<Cow<'a, str>>,
    /// The arXiv id.
    #[serde(skip_serializing_if = "Option::is_none")]
    arxiv: Option<Cow<'a, str>>,
    /// Keywords.
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    keywords: &'a [String],
    /// arXiv categories.
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    categories: &'a [String],
    /// OpenReview forum id.
    #[serde(skip_serializing_if = "Option::is_none")]
    openreview: Option<&'a str>,
    /// OpenReview venue id.
    #[serde(skip_serializing_if = "Option::is_none")]
    venue_id: Option<&'a str>,
    /// How an arXiv feed announced it (`new`, `cross`, `replace`,
    /// `replace-cross`).
    #[serde(skip_serializing_if = "Option::is_none")]
    announce_type: Option<&'a str>,
}

impl<'a> Rare<'a> {
    /// Those of `p`.
    pub fn of(p: &'a crate::corpus::Paper) -> Rare<'a> {
        let more = p.more();
        Rare {
            doi: p.doi(),
            arxiv: p.arxiv_id(),
            keywords: &more.keywords,
            categories: &more.categories,
            openreview: more.forum.as_deref(),
            venue_id: more.venue_id.as_deref(),
            announce_type: more.announce.as_deref(),
        }
    }
}

impl<'a> JsonPaper<'a> {
    /// The JSON form of paper `i`, its text as `text` asks.
    pub fn new(corpus: &'a Corpus, i: usize, store: &'a Store, text: Text) -> JsonPaper<'a> {
        let p = &corpus.papers[i];
        let abstract_text = match text {
            Text::Source => p.abstract_text.text(),
            Text::Shown => Cow::Owned(crate::text::markup::render(&p.abstract_text.text()).text),
        };
        JsonPaper {
            id: p.id.as_str(),
            short_id: corpus.short_id(i),
            title: shown(text, &p.title),
            abstract_text,
            source: &p.source,
            also_in: &p.also_in,
            authors: super::names::AsText(&p.authors),
            year: p.year,
            venue: p.venue.as_deref(),
            rare: Rare::of(p),
            links: p.links(),
            bookmarked: store.is_on(p.id.as_str(), Flag::Bookmark),
            read: store.is_on(p.id.as_str(), Flag::Read),
            tags: store.tags(p.id.as_str()),
            note: store.note(p.id.as_str()),
            first_seen: store.first_seen(p.id.as_str()),
        }
    }
}
