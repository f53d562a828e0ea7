//! arXiv API Atom feeds: what `export.arxiv.org/api/query` returns, saved
//! to a file.
//!
//! ```text
//! <feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom">
//!   <title>arXiv Query: …</title>            ← the feed's name (see below)
//!   <entry>                                  ← one paper
//!     <id>http://arxiv.org/abs/2401.01234v2</id>
//!     <title>…</title> <summary>…</summary>  ← title and abstract
//!     <author><name>…</name></author> …
//!     <link href="…" rel="alternate"/> <link href="…" title="pdf"/>
//!     <published>2024-01-02T…</published>
//!     <arxiv:doi>…</arxiv:doi> <arxiv:journal_ref>…</arxiv:journal_ref>
//!   </entry>
//! </feed>
//! ```
//!
//! Each `<entry>` is one record: `title`; `summary` (or, for other Atom
//! feeds, `content`) as the abstract; every `author/name`; the arXiv id
//! from an `id` that is an arXiv abstract URL (version kept: the caller
//! drops it); the `alternate` link (also `<link>` without `rel`, the Atom
//! default) and the PDF link (`title="pdf"` or `type="application/pdf"`) as
//! URLs; the year of `published` (else `updated`); `arxiv:doi` and
//! `arxiv:journal_ref` as DOI and venue. Elements are matched by namespace
//! (Atom, or none; the arXiv schema, or an undeclared `arxiv:` prefix), so
//! another prefix choice reads the same. Text has entities, character
//! references and CDATA decoded, whitespace folded; an unknown entity is
//! kept as written (`&nbsp;`).
//!
//! The feed's own `<title>` becomes the list's name, except the API's
//! generated `arXiv Query: search_query=…`, which names no list: then the
//! caller falls back to the file name.
//!
//! Malformed XML costs the entry it is in: the error's line is reported as
//! skipped and the reading goes on from the next `<entry>`.

use quick_xml::events::BytesStart;
use quick_xml::name::{Namespace, ResolveResult};

use super::json::LineCounter;
use super::xml::{Items, read_items};
use super::{Format, Reader, start};
use crate::corpus::fields::{arxiv_in, doi, year_in};
use crate::corpus::fold::{fold_whitespace, folded};
use crate::corpus::{More, Parsed, Record};

/// The Atom namespace.
pub const ATOM_NS: &str = "http://www.w3.org/2005/Atom";
/// The namespace of arXiv's extension elements (`arxiv:doi`, …).
pub const ARXIV_NS: &str = "http://arxiv.org/schemas/atom";

/// The prefix of the titles the arXiv API gives its feeds.
const GENERATED_TITLE: &str = "arXiv Query:";

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ns {
    Atom,
    Arxiv,
    Other,
}

fn namespace(resolved: &ResolveResult) -> Ns {
    match resolved {
        ResolveResult::Unbound => Ns::Atom,
        ResolveResult::Bound(Namespace(ns)) if *ns == ATOM_NS => Ns::Atom,
        ResolveResult::Bound(Namespace(ns)) if *ns == ARXIV_NS => Ns::Arxiv,
        ResolveResult::Unknown(prefix) if prefix == "arxiv" => Ns::Arxiv,
        _ => Ns::Other,
    }
}

/// An element whose text is being collected.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Collecting {
    FeedTitle,
    Title,
    Summary,
    Content,
    Id,
    Published,
    Updated,
    Doi,
    JournalRef,
    AuthorName,
    Announce,
}

struct Capture {
    field: Collecting,
    /// Depth of the element, so nested markup inside it is read as text.
    depth: usize,
    text: String,
}

/// An `<author>` being read.
struct Author {
    depth: usize,
    name: Option<String>,
}

/// An `<entry>` being read: the first of each element wins.
#[derive(Default)]
struct Entry {
    line: usize,
    depth: usize,
    title: Option<String>,
    summary: Option<String>,
    content: Option<String>,
    id: Option<String>,
    published: Option<String>,
    updated: Option<String>,
    doi: Option<String>,
    journal_ref: Option<String>,
    announce: Option<String>,
    /// `arxiv:primary_category`, then each `category` (their `term`).
    categories: Vec<String>,
    authors: Vec<String>,
    author: Option<Author>,
    alternate: Vec<String>,
    pdf: Vec<String>,
}

impl Entry {
    fn slot(&mut self, field: Collecting) -> Option<&mut Option<String>> {
        Some(match field {
            Collecting::Title => &mut self.title,
            Collecting::Summary => &mut self.summary,
            Collecting::Content => &mut self.content,
            Collecting::Id => &mut self.id,
            Collecting::Published => &mut self.published,
            Collecting::Updated => &mut self.updated,
            Collecting::Doi => &mut self.doi,
            Collecting::JournalRef => &mut self.journal_ref,
            Collecting::Announce => &mut self.announce,
            Collecting::FeedTitle | Collecting::AuthorName => return None,
        })
    }

    /// Reads a `<link>`'s attributes.
    fn link(&mut self, e: &BytesStart) {
        let (mut href, mut rel, mut title, mut kind) = (None, None, None, None);
        for attr in e.attributes().flatten() {
            let value = attr
                .normalized_value(quick_xml::XmlVersion::Implicit1_0)
                .map(|v| v.into_owned())
                .unwrap_or_else(|_| attr.value.clone().into_owned());
            match attr.key.local_name().as_ref() {
                "href" => href = Some(value),
                "rel" => rel = Some(value),
                "title" => title = Some(value),
                "type" => kind = Some(value),
                _ => {}
            }
        }
        let Some(href) = href.as_deref().and_then(folded) else {
            return;
        };
        if title.as_deref() == Some("pdf") || kind.as_deref() == Some("application/pdf") {
            self.pdf.push(href);
        } else if rel.as_deref().is_none_or(|r| r.trim() == "alternate") {
            self.alternate.push(href);
        }
    }

    /// Reads a `<category>`'s or `<arxiv:primary_category>`'s term.
    fn category(&mut self, e: &BytesStart, primary: bool) {
        let term = e
            .attributes()
            .flatten()
            .find(|a| a.key.local_name().as_ref() == "term")
            .and_then(|a| folded(&a.value));
        if let Some(term) = term
            && !self.categories.contains(&term)
        {
            if primary {
                self.categories.insert(0, term);
            } else {
                self.categories.push(term);
            }
        }
    }

    fn into_record(self) -> Record {
        let text = |s: Option<String>| s.as_deref().and_then(folded);
        // arXiv's announcement feeds write `arXiv:… Announce Type: new
        // Abstract: …` in the summary: the abstract is what follows.
        let summary = self.summary.as_deref().map(super::announce::description);
        let announce = text(self.announce)
            .map(|a| a.to_ascii_lowercase())
            .or_else(|| summary.as_ref().and_then(|d| d.announce.clone()));
        let mut urls: Vec<String> = Vec::new();
        for url in self.alternate.into_iter().chain(self.pdf) {
            if !urls.contains(&url) {
                urls.push(url);
            }
        }
        let arxiv = self.id.as_deref().and_then(|id| arxiv_in(id, false));
        let year = [&self.published, &self.updated]
            .into_iter()
            .flatten()
            .find_map(|d| year_in(d));
        Record {
            title: text(self.title),
            abstract_text: summary
                .and_then(|d| folded(&d.text))
                .or_else(|| text(self.content)),
            authors: self.authors.into_iter().collect(),
            year,
            venue: text(self.journal_ref),
            urls,
            arxiv,
            doi: self.doi.as_deref().and_then(doi),
            key: None,
            volume: None,
            line: self.line,
            former_id: None,
            given_id: None,
            more: More {
                categories: self.categories,
                announce,
                ..More::default()
            }
            .into(),
        }
    }
}

/// One feed being read: the parser's place in it and what it has found.
struct FeedReader<'a> {
    text: &'a str,
    lines: LineCounter,
    parsed: Parsed,
    depth: usize,
    entry: Option<Entry>,
    capture: Option<Capture>,
    feed_title: Option<String>,
}

impl FeedReader<'_> {
    /// An element starts at byte `pos` (an empty element starts and ends).
    fn start_element(&mut self, e: &BytesStart, ns: Ns, pos: usize) {
        self.depth += 1;
        if self.capture.is_some() {
            return;
        }
        let local = e.local_name();
        let name = local.as_ref();
        let depth = self.depth;
        let capture = |field| {
            Some(Capture {
                field,
                depth,
                text: String::new(),
            })
        };
        let Some(entry) = &mut self.entry else {
            if ns == Ns::Atom && name == "entry" {
                self.entry = Some(Entry {
                    line: self.lines.line(self.text, pos),
                    depth,
                    ..Entry::default()
                });
            } else if ns == Ns::Atom && name == "title" && depth == 2 {
                self.capture = capture(Collecting::FeedTitle);
            }
            return;
        };
        if depth == entry.depth + 1 {
            let field = match (ns, name) {
                (Ns::Atom, "title") => Collecting::Title,
                (Ns::Atom, "summary") => Collecting::Summary,
                (Ns::Atom, "content") => Collecting::Content,
                (Ns::Atom, "id") => Collecting::Id,
                (Ns::Atom, "published") => Collecting::Published,
                (Ns::Atom, "updated") => Collecting::Updated,
                (Ns::Arxiv, "doi") => Collecting::Doi,
                (Ns::Arxiv, "journal_ref") => Collecting::JournalRef,
                (Ns::Arxiv, "announce_type") => Collecting::Announce,
                (Ns::Atom, "category") | (Ns::Arxiv, "primary_category") => {
                    entry.category(e, ns == Ns::Arxiv);
                    return;
                }
                (Ns::Atom, "author") => {
                    entry.author = Some(Author { depth, name: None });
                    return;
                }
                (Ns::Atom, "link") => {
                    entry.link(e);
                    return;
                }
                _ => return,
            };
            self.capture = capture(field);
        } else if let Some(author) = &entry.author
            && depth == author.depth + 1
            && ns == Ns::Atom
            && name == "name"
        {
            self.capture = capture(Collecting::AuthorName);
        }
    }

    /// The element at the current depth ends.
    fn end_element(&mut self) {
        let depth = self.depth;
        self.depth = self.depth.saturating_sub(1);
        if let Some(capture) = self.capture.take_if(|c| c.depth == depth) {
            self.finish(capture.field, capture.text);
            return;
        }
        if self.capture.is_some() {
            return;
        }
        let Some(entry) = &mut self.entry else {
            return;
        };
        if entry.author.as_ref().is_some_and(|a| a.depth == depth) {
            if let Some(name) = entry.author.take().and_then(|a| a.name) {
                entry.authors.push(name);
            }
        } else if entry.depth == depth
            && let Some(entry) = self.entry.take()
        {
            self.parsed.records.push(entry.into_record());
        }
    }

    /// Stores a collected element's text.
    fn finish(&mut self, field: Collecting, text: String) {
        match (field, &mut self.entry) {
            (Collecting::FeedTitle, _) => {
                self.feed_title
                    .get_or_insert_with(|| fold_whitespace(&text));
            }
            (Collecting::AuthorName, Some(entry)) => {
                if let Some(author) = &mut entry.author
                    && author.name.is_none()
                {
                    author.name = folded(&text);
                }
            }
            (field, Some(entry)) => {
                if let Some(slot) = entry.slot(field)
                    && slot.is_none()
                {
                    *slot = Some(text);
                }
            }
            (_, None) => {}
        }
    }
}

impl Items for FeedReader<'_> {
    fn start(&mut self, e: &BytesStart, ns: &ResolveResult, pos: usize) {
        self.start_element(e, namespace(ns), pos);
    }

    fn end(&mut self) {
        self.end_element();
    }

    fn buffer(&mut self) -> Option<&mut String> {
        self.capture.as_mut().map(|c| &mut c.text)
    }

    fn open_item(&self) -> Option<usize> {
        self.entry.as_ref().map(|e| e.line)
    }

    fn restart(&mut self) {
        self.depth = 0;
        self.entry = None;
        self.capture = None;
    }

    fn skip(&mut self, line: usize, reason: String) {
        self.parsed.skipped.push((line, reason));
    }

    fn line(&mut self, pos: usize) -> usize {
        self.lines.line(self.text, pos)
    }
}

/// Parses an arXiv API Atom feed.
pub fn parse(text: &str) -> Parsed {
    // quick-xml skips a byte-order mark without counting it in its offsets;
    // dropping it here keeps offsets and line numbers on the same text.
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let mut reader = FeedReader {
        text,
        lines: LineCounter::default(),
        parsed: Parsed::default(),
        depth: 0,
        entry: None,
        capture: None,
        feed_title: None,
    };
    read_items(text, "entry", &mut reader);
    reader.parsed.header = reader
        .feed_title
        .filter(|t| !t.is_empty() && !t.starts_with(GENERATED_TITLE));
    reader.parsed
}

/// arXiv API Atom feeds.
pub struct Atom;

impl Reader for Atom {
    fn name(&self) -> &'static str {
        "atom"
    }

    fn about(&self) -> &'static str {
        "An arXiv API Atom feed"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["xml", "atom"]
    }

    fn sniff(&self, head: &str, _hint: Option<Format>) -> bool {
        let start = start(head);
        start.starts_with("<?xml") || start.starts_with("<feed")
    }

    fn parse(&self, text: &str) -> Parsed {
        parse(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shape of an arXiv API answer, as older feeds wrote it: titles and
    /// summaries hard-wrapped and indented.
    const FEED: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <link href="http://arxiv.org/api/query?search_query%3Dall%3Aelectron" rel="self" type="application/atom+xml"/>
  <title type="html">ArXiv Query: search_query=all:electron&amp;id_list=&amp;start=0&amp;max_results=2</title>
  <id>http://arxiv.org/api/cHxbiOdZaP56ODnBPIenZhzg5f8</id>
  <updated>2024-01-05T00:00:00-05:00</updated>
  <opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">2</opensearch:totalResults>
  <entry>
    <id>http://arxiv.org/abs/hep-ex/0307015v1</id>
    <updated>2003-07-07T13:46:39-04:00</updated>
    <published>2003-07-07T13:46:39-04:00</published>
    <title>Multi-Electron Production at High Transverse Momenta in ep Collisions at
  HERA</title>
    <summary>  Multi-electron production is studied at high electron transverse momentum
in positron- and electron-proton collisions using the H1 detector at HERA &amp;
elsewhere: 3 &lt; 4, &#x3b1; &#945; &quot;q&quot;.
</summary>
    <author>
      <name>H1 Collaboration</name>
      <arxiv:affiliation xmlns:arxiv="http://arxiv.org/schemas/atom">DESY</arxiv:affiliation>
    </author>
    <author><name>A. N. Other</name></author>
    <arxiv:doi xmlns:arxiv="http://arxiv.org/schemas/atom">10.1140/epjc/s2003-01326-x</arxiv:doi>
    <link title="doi" href="http://dx.doi.org/10.1140/epjc/s2003-01326-x" rel="related"/>
    <arxiv:comment xmlns:arxiv="http://arxiv.org/schemas/atom">23 pages, 8 figures and 4 tables</arxiv:comment>
    <arxiv:journal_ref xmlns:arxiv="http://arxiv.org/schemas/atom">Eur.Phys.J. C31 (2003)
      17-29</arxiv:journal_ref>
    <link href="http://arxiv.org/abs/hep-ex/0307015v1" rel="alternate" type="text/html"/>
    <link title="pdf" href="http://arxiv.org/pdf/hep-ex/0307015v1" rel="related" type="application/pdf"/>
    <arxiv:primary_category xmlns:arxiv="http://arxiv.org/schemas/atom" term="hep-ex" scheme="http://arxiv.org/schemas/atom"/>
    <category term="hep-ex" scheme="http://arxiv.org/schemas/atom"/>
  </entry>
  <entry>
    <id>http://arxiv.org/abs/2401.01234v2</id>
    <published>2024-01-02T00:00:00Z</published>
    <title><![CDATA[A <b>CDATA</b> title]]></title>
    <summary></summary>
    <author><name>Solo</name></author>
  </entry>
</feed>
"#;

    #[test]
    fn arxiv_feed() {
        let parsed = parse(FEED);
        assert!(parsed.skipped.is_empty(), "{:?}", parsed.skipped);
        // "ArXiv Query:" differs in case from the API's current prefix, so
        // it is kept: only the exact generated prefix is dropped.
        assert_eq!(
            parsed.header.as_deref(),
            Some("ArXiv Query: search_query=all:electron&id_list=&start=0&max_results=2")
        );
        let [a, b] = &parsed.records[..] else {
            panic!("{:?}", parsed.records);
        };
        assert_eq!(a.line, 8);
        assert_eq!(
            a.title.as_deref(),
            Some("Multi-Electron Production at High Transverse Momenta in ep Collisions at HERA")
        );
        assert_eq!(
            a.abstract_text.as_deref(),
            Some(
                "Multi-electron production is studied at high electron transverse momentum in \
                 positron- and electron-proton collisions using the H1 detector at HERA & \
                 elsewhere: 3 < 4, α α \"q\"."
            )
        );
        assert_eq!(a.authors, ["H1 Collaboration", "A. N. Other"]);
        assert_eq!(a.arxiv.as_deref(), Some("hep-ex/0307015v1"));
        assert_eq!(a.doi.as_deref(), Some("10.1140/epjc/s2003-01326-x"));
        assert_eq!(a.venue.as_deref(), Some("Eur.Phys.J. C31 (2003) 17-29"));
        assert_eq!(a.year, Some(2003));
        assert_eq!(
            a.urls,
            [
                "http://arxiv.org/abs/hep-ex/0307015v1",
                "http://arxiv.org/pdf/hep-ex/0307015v1"
            ]
        );
        assert_eq!(b.line, 33);
        assert_eq!(b.title.as_deref(), Some("A <b>CDATA</b> title"));
        assert_eq!(b.abstract_text, None);
        assert_eq!(b.arxiv.as_deref(), Some("2401.01234v2"));
        assert_eq!(b.year, Some(2024));
        assert_eq!(b.authors, ["Solo"]);
        assert!(b.urls.is_empty() && b.doi.is_none() && b.venue.is_none());
    }

    #[test]
    fn generated_titles_name_no_list() {
        let feed = "<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>arXiv Query: search_query=cat:cs.CL</title></feed>";
        assert_eq!(parse(feed).header, None);
        let feed = "<feed xmlns=\"http://www.w3.org/2005/Atom\"><title> My\n reading list </title><entry><title>x</title></entry></feed>";
        let parsed = parse(feed);
        assert_eq!(parsed.header.as_deref(), Some("My reading list"));
        // An entry's title is not the feed's.
        assert_eq!(parsed.records[0].title.as_deref(), Some("x"));
    }

    #[test]
    fn other_prefixes_and_plain_atom() {
        // Atom under a prefix, arXiv elements under another prefix.
        let feed = r#"<a:feed xmlns:a="http://www.w3.org/2005/Atom" xmlns:x="http://arxiv.org/schemas/atom">
<a:entry><a:title>T</a:title><a:content type="xhtml"><div>Body <em>text</em></div></a:content>
<x:doi>10.1/z</x:doi><a:link href="https://example.org/t"/><a:updated>2019-05-01</a:updated>
<a:title>a second title is ignored</a:title></a:entry></a:feed>"#;
        let parsed = parse(feed);
        let [r] = &parsed.records[..] else {
            panic!("{:?}", parsed);
        };
        assert_eq!(r.title.as_deref(), Some("T"));
        assert_eq!(r.abstract_text.as_deref(), Some("Body text"));
        assert_eq!(r.doi.as_deref(), Some("10.1/z"));
        assert_eq!(r.urls, ["https://example.org/t"]);
        assert_eq!(r.year, Some(2019));
        assert_eq!(r.arxiv, None);
        // Elements of other namespaces are not Atom's.
        let feed = r#"<feed xmlns="http://www.w3.org/2005/Atom" xmlns:o="urn:other"><entry><o:title>no</o:title><o:summary>no</o:summary></entry></feed>"#;
        let parsed = parse(feed);
        assert_eq!(parsed.records.len(), 1);
        assert_eq!(parsed.records[0].title, None);
        // An undeclared arxiv: prefix still reads.
        let feed = "<feed><entry><arxiv:doi>10.2/w</arxiv:doi><arxiv:journal_ref>J</arxiv:journal_ref></entry></feed>";
        let parsed = parse(feed);
        assert!(parsed.skipped.is_empty(), "{:?}", parsed.skipped);
        assert_eq!(parsed.records[0].doi.as_deref(), Some("10.2/w"));
        assert_eq!(parsed.records[0].venue.as_deref(), Some("J"));
    }

    #[test]
    fn entities_kept_or_decoded() {
        let feed = "<feed><entry><title>a &nbsp; b &#0; c &amp;&lt;</title><summary>x & y</summary></entry></feed>";
        let parsed = parse(feed);
        assert!(parsed.skipped.is_empty(), "{:?}", parsed.skipped);
        assert_eq!(parsed.records[0].title.as_deref(), Some("a &nbsp; b c &<"));
        assert_eq!(parsed.records[0].abstract_text.as_deref(), Some("x & y"));
    }

    #[test]
    fn malformed_feeds_keep_what_came_before() {
        let feed = "<feed>\n<entry><title>One</title></entry>\n<entry><title>Two</summary></entry>\n<entry><title>Three</title></entry>\n</feed>";
        let parsed = parse(feed);
        let titles: Vec<_> = parsed.records.iter().map(|r| r.title.as_deref()).collect();
        assert_eq!(titles, [Some("One"), Some("Three")]);
        assert_eq!(parsed.records[1].line, 4);
        assert_eq!(parsed.skipped.len(), 1, "{:?}", parsed.skipped);
        let (line, reason) = &parsed.skipped[0];
        assert_eq!(*line, 3);
        assert!(reason.starts_with("malformed XML: "), "{reason}");
        assert!(
            reason.ends_with("the entry from line 3 was not read"),
            "{reason}"
        );
        // The last entry broken: nothing after it to read.
        let parsed = parse(
            "<feed>\n<entry><title>One</title></entry>\n<entry><title>Two</summary></entry>\n</feed>",
        );
        assert_eq!(parsed.records.len(), 1);
        assert!(
            parsed.skipped[0]
                .1
                .ends_with("the entry from line 3 on was not read")
        );
        // Cut short inside an entry.
        let parsed = parse("<feed>\n<entry><title>One</title></entry>\n<entry><title>Tw");
        assert_eq!(parsed.records.len(), 1);
        assert_eq!(
            parsed.skipped,
            [(3, "the feed ends inside this entry (not read)".to_string())]
        );
        // An unclosed tag.
        let parsed = parse("<feed>\n<entry><title>One</title></entry>\n<entry <title>");
        assert_eq!(parsed.records.len(), 1);
        assert_eq!(parsed.skipped.len(), 1);
        assert_eq!(parsed.skipped[0].0, 3);
        // Not XML at all.
        let parsed = parse("just some text\nand more");
        assert!(parsed.records.is_empty());
        assert!(parse("").records.is_empty());
        // A byte-order mark does not shift line numbers.
        let parsed = parse("\u{FEFF}<feed>\n<entry/>\n<entry>\n<title>x</title></entry></feed>");
        let lines: Vec<usize> = parsed.records.iter().map(|r| r.line).collect();
        assert_eq!(lines, [2, 3]);
        // An empty entry element is an empty record.
        let parsed = parse("<feed><entry/></feed>");
        assert_eq!(parsed.records.len(), 1);
        assert!(parsed.records[0].title.is_none());
    }

    // -- Real file -----------------------------------------------------------

    fn corpus(name: &str) -> String {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/corpora/");
        let path = format!("{dir}{name}");
        std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!("the real-corpus test needs {path} (tests/data/corpora): {e}")
        })
    }

    #[test]
    fn real_astro_ph_feed() {
        let parsed = parse(&corpus("arxiv_atom_api_2026_astroph_63.xml"));
        assert!(parsed.skipped.is_empty(), "{:?}", parsed.skipped);
        // The API's generated title names no list.
        assert_eq!(parsed.header, None);
        let r = &parsed.records;
        assert_eq!(r.len(), 63);
        assert_eq!(r.iter().filter(|r| r.title.is_some()).count(), 63);
        assert_eq!(r.iter().filter(|r| r.abstract_text.is_some()).count(), 63);
        assert_eq!(r.iter().filter(|r| r.doi.is_some()).count(), 9);
        assert_eq!(r.iter().filter(|r| r.venue.is_some()).count(), 6);
        assert_eq!(r.iter().map(|r| r.authors.len()).sum::<usize>(), 542);
        assert!(r.iter().all(|r| r.year == Some(2026) && r.urls.len() == 2));
        assert!(
            r.iter()
                .all(|r| r.arxiv.as_deref().is_some_and(|a| a.starts_with("2604.")))
        );
        let first = &r[0];
        assert_eq!(first.line, 10);
        assert_eq!(first.arxiv.as_deref(), Some("2604.21920v1"));
        assert_eq!(
            first.title.as_deref(),
            Some("First measurement of wind line formation regions in an early O-type star")
        );
        assert_eq!(first.authors, ["D. Pauli", "T. N. Parsons", "R. K. Prinja"]);
        assert_eq!(
            first.urls,
            [
                "https://arxiv.org/abs/2604.21920v1",
                "https://arxiv.org/pdf/2604.21920v1"
            ]
        );
        // `&gt;` and `&lt;` in abstracts are decoded.
        assert!(r.iter().any(|r| {
            r.abstract_text
                .as_deref()
                .is_some_and(|a| a.contains("(>100 km/s)"))
        }));
        assert!(
            r.iter()
                .all(|r| !r.abstract_text.as_deref().unwrap_or("").contains("&gt;"))
        );
    }

    // -- Robustness -----------------------------------------------------------

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
            fn xml_like_text_never_panics(text in "[<>/!?\\[\\]&;#x=\"' a-z:\\n]{0,200}") {
                check(&text);
            }

            #[test]
            fn mutated_feeds_never_panic(
                edits in proptest::collection::vec((any::<usize>(), any::<u8>(), 0u8..3), 1..8),
            ) {
                let mut bytes = FEED.as_bytes().to_vec();
                crate::corpus::readers::mutate(&mut bytes, &edits);
                check(&String::from_utf8_lossy(&bytes));
            }
        }
    }
}
