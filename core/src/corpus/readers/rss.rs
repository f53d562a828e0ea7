//! arXiv's RSS feeds, saved to a file: the daily listing of a category,
//! as researchers follow one.
//!
//! ```text
//! RSS 2.0, as arXiv serves it since 2024:
//! <rss version="2.0" xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns:dc="…">
//!   <channel><title>cs.LG updates on arXiv.org</title>     ← the list's name
//!     <item>
//!       <title>…</title> <link>https://arxiv.org/abs/2402.01234</link>
//!       <description>arXiv:2402.01234v2 Announce Type: replace
//! Abstract: …</description>                               ← the abstract is after "Abstract:"
//!       <category>cs.LG</category> <category>stat.ML</category>
//!       <arxiv:announce_type>replace</arxiv:announce_type>
//!       <dc:creator>Ada Lovelace, Alan Turing</dc:creator>
//!       <arxiv:DOI>…</arxiv:DOI> <arxiv:journal_reference>…</arxiv:journal_reference>
//!     </item>
//!
//! RSS 1.0 (RDF), as arXiv served it before:
//! <rdf:RDF xmlns="http://purl.org/rss/1.0/" …>
//!   <item rdf:about="http://arxiv.org/abs/2201.00001">
//!     <title>A title. (arXiv:2201.00001v3 [cs.LG] UPDATED)</title>
//!     <description>&lt;p&gt;The abstract.&lt;/p&gt;</description>  ← HTML
//!     <dc:creator>&lt;a href="…"&gt;Ada Lovelace&lt;/a&gt;, …</dc:creator>
//!   </item>
//! ```
//!
//! Each `<item>` is one record. The arXiv id comes from the link, the
//! `guid` (`oai:arXiv.org:2402.01234v2`) or the description's preamble;
//! the abstract is the description after its preamble (`arXiv:… Announce
//! Type: … Abstract:`), never the preamble. The announce type (`new`,
//! `cross`, `replace`, `replace-cross`) is kept: a replacement is a new
//! version of a paper announced before. RSS 1.0 titles carry it as a
//! suffix (`UPDATED`, `CROSS LISTED`), which is cut from the title, and
//! their HTML (paragraphs, links around names) is read as text. Elements
//! are matched by local name, whatever their prefix. The year is the
//! item's date (`pubDate`, `dc:date`), else the channel's. Malformed XML
//! costs the item it is in; the reading goes on at the next `<item`.

use quick_xml::events::BytesStart;
use quick_xml::name::ResolveResult;

use super::announce::description;
use super::json::LineCounter;
use super::xml::{Items, read_items};
use super::{Format, Reader, start};
use crate::corpus::fields::{arxiv_in, arxiv_year, doi, split_names, year_in};
use crate::corpus::fold::{fold_whitespace, folded};
use crate::corpus::{More, Parsed, Record};

/// An element whose text is collected.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Collecting {
    ChannelTitle,
    ChannelDate,
    Title,
    Link,
    Description,
    Guid,
    Category,
    Date,
    Creator,
    Announce,
    Doi,
    JournalRef,
}

/// The field an element of an item holds, by its local name.
fn item_field(local: &str) -> Option<Collecting> {
    Some(match local {
        "title" => Collecting::Title,
        "link" => Collecting::Link,
        "description" | "summary" | "encoded" => Collecting::Description,
        "guid" | "identifier" => Collecting::Guid,
        "category" | "subject" => Collecting::Category,
        "pubDate" | "date" => Collecting::Date,
        "creator" | "author" => Collecting::Creator,
        "announce_type" => Collecting::Announce,
        "DOI" | "doi" => Collecting::Doi,
        "journal_reference" | "journal_ref" => Collecting::JournalRef,
        _ => return None,
    })
}

/// An `<item>` being read: the first of each element wins, categories
/// and creators add up.
#[derive(Default)]
struct Item {
    line: usize,
    depth: usize,
    /// The item's `rdf:about` (RSS 1.0: its link).
    about: Option<String>,
    title: Option<String>,
    link: Option<String>,
    description: Option<String>,
    guid: Option<String>,
    categories: Vec<String>,
    date: Option<String>,
    creators: Vec<String>,
    announce: Option<String>,
    doi: Option<String>,
    journal_ref: Option<String>,
}

/// What an RSS 1.0 title's suffix says: `Title. (arXiv:2201.00001v3
/// [cs.LG] UPDATED)` → `Title`, the id, its category and the announce
/// type.
struct Suffixed {
    title: String,
    arxiv: Option<String>,
    category: Option<String>,
    announce: Option<&'static str>,
}

fn title_suffix(title: &str) -> Suffixed {
    let t = title.trim_end();
    if let Some(open) = t.rfind("(arXiv:")
        && t.ends_with(')')
    {
        let inside = &t[open + 1..t.len() - 1];
        let arxiv = inside
            .split_whitespace()
            .next()
            .and_then(|id| arxiv_in(id, false));
        let category = inside
            .split_once('[')
            .and_then(|(_, rest)| rest.split_once(']'))
            .and_then(|(c, _)| folded(c));
        let announce = if inside.ends_with("UPDATED") {
            Some("replace")
        } else if inside.ends_with("CROSS LISTED") {
            Some("cross")
        } else {
            Some("new")
        };
        if arxiv.is_some() {
            let bare = t[..open].trim_end();
            return Suffixed {
                title: bare.strip_suffix('.').unwrap_or(bare).to_string(),
                arxiv,
                category,
                announce,
            };
        }
    }
    Suffixed {
        title: title.to_string(),
        arxiv: None,
        category: None,
        announce: None,
    }
}

/// Tags of the HTML that arXiv's older feeds wrap text and names in.
const HTML_TAGS: &[&str] = &[
    "p", "a", "br", "i", "b", "em", "strong", "sub", "sup", "span", "div", "tt", "code",
];

/// `s` without the [`HTML_TAGS`] in it (`<p>`, `</a>`, `<a href="…">`,
/// `<br/>`); any other `<` is kept. Linear: from each `<` the text is
/// looked at up to the next `<` or `>`, once.
fn strip_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let b = s.as_bytes();
    let mut at = 0;
    while let Some(k) = memchr::memchr(b'<', &b[at..]) {
        let open = at + k;
        out.push_str(&s[at..open]);
        let Some(n) = memchr::memchr2(b'<', b'>', &b[open + 1..]) else {
            at = open;
            break;
        };
        let end = open + 1 + n;
        if b[end] == b'<' {
            // No tag: this `<` is text.
            out.push_str(&s[open..end]);
            at = end;
            continue;
        }
        let tag = s[open + 1..end].trim_start_matches('/');
        let name = tag
            .split(|c: char| c.is_whitespace() || c == '/')
            .next()
            .unwrap_or("");
        if HTML_TAGS.iter().any(|t| t.eq_ignore_ascii_case(name)) {
            // A paragraph's end or a line break parts words.
            if name.eq_ignore_ascii_case("p") || name.eq_ignore_ascii_case("br") {
                out.push(' ');
            }
        } else {
            out.push_str(&s[open..=end]);
        }
        at = end + 1;
    }
    out.push_str(&s[at..]);
    out
}

/// `s` with the character references of HTML text decoded (`&lt;`,
/// `&amp;`, `&#945;`, `&#x3b1;`); an unknown one is kept as written.
/// Linear: each `&` looks at most a few bytes ahead.
fn decode_html_entities(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp + 1..];
        let end = after.as_bytes().iter().take(12).position(|&c| c == b';');
        let decoded = end.and_then(|end| {
            let name = &after[..end];
            let c = match name.strip_prefix('#') {
                Some(num) => {
                    let n = match num.strip_prefix(['x', 'X']) {
                        Some(hex) => u32::from_str_radix(hex, 16).ok(),
                        None => num.parse().ok(),
                    };
                    n.and_then(char::from_u32).map(String::from)
                }
                None => quick_xml::escape::resolve_xml_entity(name).map(String::from),
            };
            c.map(|c| (c, end))
        });
        match decoded {
            Some((c, end)) => {
                out.push_str(&c);
                rest = &after[end + 1..];
            }
            None => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

impl Item {
    fn slot(&mut self, field: Collecting) -> Option<&mut Option<String>> {
        Some(match field {
            Collecting::Title => &mut self.title,
            Collecting::Link => &mut self.link,
            Collecting::Description => &mut self.description,
            Collecting::Guid => &mut self.guid,
            Collecting::Date => &mut self.date,
            Collecting::Announce => &mut self.announce,
            Collecting::Doi => &mut self.doi,
            Collecting::JournalRef => &mut self.journal_ref,
            _ => return None,
        })
    }

    fn into_record(self, channel_date: Option<&str>) -> Record {
        let text = |s: Option<String>| s.as_deref().and_then(folded);
        let html = self
            .description
            .as_deref()
            .is_some_and(|d| d.trim_start().starts_with('<'));
        let desc = self.description.as_deref().map(|d| {
            let d = if html {
                decode_html_entities(&strip_html(d))
            } else {
                d.to_string()
            };
            description(&d)
        });
        let (title, title_arxiv, title_announce, title_category) = match text(self.title) {
            Some(t) => {
                let s = title_suffix(&t);
                (Some(s.title), s.arxiv, s.announce, s.category)
            }
            None => (None, None, None, None),
        };
        let mut urls: Vec<String> = Vec::new();
        for url in [&self.link, &self.about].into_iter().flatten() {
            if let Some(url) = folded(url)
                && !urls.contains(&url)
                && (url.starts_with("http://") || url.starts_with("https://"))
            {
                urls.push(url);
            }
        }
        let arxiv = desc
            .as_ref()
            .and_then(|d| d.arxiv.clone())
            .or(title_arxiv)
            .or_else(|| urls.iter().find_map(|u| arxiv_in(u, false)))
            .or_else(|| self.guid.as_deref().and_then(|g| arxiv_in(g, false)))
            .or_else(|| {
                self.guid
                    .as_deref()
                    .and_then(|g| g.trim().strip_prefix("oai:arXiv.org:"))
                    .and_then(|id| arxiv_in(id, true))
            });
        let announce = text(self.announce)
            .map(|a| a.to_ascii_lowercase())
            .or_else(|| desc.as_ref().and_then(|d| d.announce.clone()))
            .or_else(|| title_announce.map(String::from));
        let authors: Vec<String> = self
            .creators
            .iter()
            .flat_map(|c| split_names(&fold_whitespace(&decode_html_entities(&strip_html(c)))))
            .collect();
        // A replacement's date is its new version's: the id tells the
        // year the paper first came out.
        let year = arxiv.as_deref().and_then(arxiv_year).or_else(|| {
            [self.date.as_deref(), channel_date]
                .into_iter()
                .flatten()
                .find_map(year_in)
        });
        let mut categories = self.categories;
        if categories.is_empty() {
            categories.extend(title_category);
        }
        Record {
            title,
            abstract_text: desc.and_then(|d| folded(&d.text)),
            authors: authors.into_iter().collect(),
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
                categories,
                announce,
                ..More::default()
            }
            .into(),
        }
    }
}

/// One feed being read.
struct Feed<'a> {
    text: &'a str,
    lines: LineCounter,
    parsed: Parsed,
    depth: usize,
    item: Option<Item>,
    /// The field being collected, its element's depth, and its text.
    capture: Option<(Collecting, usize, String)>,
    channel_title: Option<String>,
    channel_date: Option<String>,
}

impl Items for Feed<'_> {
    fn start(&mut self, e: &BytesStart, _ns: &ResolveResult, pos: usize) {
        self.depth += 1;
        if self.capture.is_some() {
            return;
        }
        let local = e.local_name();
        let name = local.as_ref();
        let depth = self.depth;
        let Some(item) = &mut self.item else {
            if name == "item" {
                let about = e
                    .attributes()
                    .flatten()
                    .find(|a| a.key.local_name().as_ref() == "about")
                    .map(|a| {
                        a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                            .map(|v| v.into_owned())
                            .unwrap_or_else(|_| a.value.clone().into_owned())
                    });
                self.item = Some(Item {
                    line: self.lines.line(self.text, pos),
                    depth,
                    about,
                    ..Item::default()
                });
            } else if name == "title" && self.channel_title.is_none() {
                self.capture = Some((Collecting::ChannelTitle, depth, String::new()));
            } else if matches!(name, "pubDate" | "date" | "lastBuildDate")
                && self.channel_date.is_none()
            {
                self.capture = Some((Collecting::ChannelDate, depth, String::new()));
            }
            return;
        };
        if depth == item.depth + 1
            && let Some(field) = item_field(name)
        {
            self.capture = Some((field, depth, String::new()));
        }
    }

    fn end(&mut self) {
        let depth = self.depth;
        self.depth = self.depth.saturating_sub(1);
        if let Some((field, _, text)) = self.capture.take_if(|c| c.1 == depth) {
            self.finish(field, text);
            return;
        }
        if self.capture.is_some() {
            return;
        }
        if self.item.as_ref().is_some_and(|i| i.depth == depth)
            && let Some(item) = self.item.take()
        {
            let record = item.into_record(self.channel_date.as_deref());
            self.parsed.records.push(record);
        }
    }

    fn buffer(&mut self) -> Option<&mut String> {
        self.capture.as_mut().map(|(_, _, text)| text)
    }

    fn open_item(&self) -> Option<usize> {
        self.item.as_ref().map(|i| i.line)
    }

    fn restart(&mut self) {
        self.depth = 0;
        self.item = None;
        self.capture = None;
    }

    fn skip(&mut self, line: usize, reason: String) {
        self.parsed.skipped.push((line, reason));
    }

    fn line(&mut self, pos: usize) -> usize {
        self.lines.line(self.text, pos)
    }
}

impl Feed<'_> {
    fn finish(&mut self, field: Collecting, text: String) {
        match (field, &mut self.item) {
            (Collecting::ChannelTitle, _) => self.channel_title = folded(&text),
            (Collecting::ChannelDate, _) => self.channel_date = Some(text),
            (Collecting::Category, Some(item)) => item.categories.extend(folded(&text)),
            (Collecting::Creator, Some(item)) => item.creators.push(text),
            (field, Some(item)) => {
                if let Some(slot) = item.slot(field)
                    && slot.is_none()
                {
                    *slot = Some(text);
                }
            }
            (_, None) => {}
        }
    }
}

/// Parses an RSS 2.0 or RSS 1.0 feed.
pub fn parse(text: &str) -> Parsed {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let mut feed = Feed {
        text,
        lines: LineCounter::default(),
        parsed: Parsed::default(),
        depth: 0,
        item: None,
        capture: None,
        channel_title: None,
        channel_date: None,
    };
    read_items(text, "item", &mut feed);
    feed.parsed.header = feed.channel_title.filter(|t| !t.is_empty());
    feed.parsed
}

/// True when the head of an XML input is an RSS feed (2.0 or RDF).
fn looks_like_rss(head: &str) -> bool {
    let s = start(head);
    let body = if s.starts_with("<?xml") {
        s.find("?>").map_or("", |end| start(&s[end + 2..]))
    } else {
        s
    };
    // Comments and doctype before the root.
    let mut body = body;
    while body.starts_with("<!") {
        body = body.find('>').map_or("", |end| start(&body[end + 1..]));
    }
    body.starts_with("<rss") || body.starts_with("<rdf:RDF") || body.starts_with("<RDF")
}

/// RSS feeds (arXiv's, 2.0 and 1.0).
pub struct Rss;

impl Reader for Rss {
    fn name(&self) -> &'static str {
        "rss"
    }

    fn about(&self) -> &'static str {
        "An RSS feed (arXiv's RSS 2.0, and the older RSS 1.0)"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["rss", "rdf"]
    }

    fn sniff(&self, head: &str, _hint: Option<Format>) -> bool {
        looks_like_rss(head)
    }

    fn parse(&self, text: &str) -> Parsed {
        parse(text)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn html_tags_go_and_other_angles_stay() {
        assert_eq!(strip_html("<p>a <i>b</i></p>"), " a b ");
        assert_eq!(
            strip_html("x < y and <a href=\"u\">Ada</a>"),
            "x < y and Ada"
        );
        assert_eq!(strip_html("<<p>>"), "< >");
        assert_eq!(strip_html("<math>"), "<math>");
        assert_eq!(
            decode_html_entities("x &lt; y &amp; &#945;&#x3b2; &nbsp; &"),
            "x < y & αβ &nbsp; &"
        );
    }

    #[test]
    fn a_description_without_the_preamble_is_all_abstract() {
        let d =
            description("arXiv:2402.01234v2 Announce Type: replace-cross \nAbstract: We study.");
        assert_eq!(d.arxiv.as_deref(), Some("2402.01234v2"));
        assert_eq!(d.announce.as_deref(), Some("replace-cross"));
        assert_eq!(d.text.trim(), "We study.");
        let plain = description("We cite arXiv:2402.01234. Abstract: none.");
        assert_eq!(plain.text, "We cite arXiv:2402.01234. Abstract: none.");
        // An `Abstract:` far past the preamble's length is the abstract's.
        let far = format!("arXiv:{} Abstract: x", "y".repeat(500));
        assert_eq!(description(&far).text, far);
    }

    #[test]
    fn a_malformed_item_costs_itself() {
        let feed = "<rss><channel><title>L</title>\
            <item><title>One</title><description>First.</description></item>\
            <item><title>Two<description>Broken.</item>\
            <item><title>Three</title><description>Third.</description></item>\
            </channel></rss>";
        let parsed = parse(feed);
        let titles: Vec<_> = parsed
            .records
            .iter()
            .filter_map(|r| r.title.clone())
            .collect();
        assert_eq!(titles.first().map(String::as_str), Some("One"));
        assert_eq!(titles.last().map(String::as_str), Some("Three"));
        assert!(!parsed.skipped.is_empty());
    }

    /// [`strip_html`] a character at a time, looking ahead from each `<`
    /// to the next `<` or `>` (quadratic; for short texts).
    fn strip_slowly(s: &str) -> String {
        let c: Vec<char> = s.chars().collect();
        let mut out = String::new();
        let mut i = 0;
        while i < c.len() {
            if c[i] == '<'
                && let Some(j) = (i + 1..c.len()).find(|&j| c[j] == '<' || c[j] == '>')
                && c[j] == '>'
            {
                let tag: String = c[i + 1..j].iter().collect();
                let name = tag
                    .trim_start_matches('/')
                    .split(|c: char| c.is_whitespace() || c == '/')
                    .next()
                    .unwrap_or("")
                    .to_string();
                if HTML_TAGS.iter().any(|t| t.eq_ignore_ascii_case(&name)) {
                    if name.eq_ignore_ascii_case("p") || name.eq_ignore_ascii_case("br") {
                        out.push(' ');
                    }
                    i = j + 1;
                    continue;
                }
            }
            out.push(c[i]);
            i += 1;
        }
        out
    }

    proptest! {
        #[test]
        fn stripping_is_the_slow_reading(s in "(<|>|/|p|a|br|x| |é|<p>|</a>){0,24}") {
            prop_assert_eq!(strip_html(&s), strip_slowly(&s));
        }
    }
}
