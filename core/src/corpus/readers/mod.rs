//! The format readers, behind one trait, and the one list of them.
//!
//! A reader turns the text of a file into [`Record`](crate::corpus::Record)s
//! (see [`Parsed`]); it knows its format's name, the file extensions that
//! hint at it, and how to tell its format from the first KiBs of a file.
//! [`READERS`] lists them in the order they are asked: the first that
//! recognises a file reads it, and `text`, which takes anything, is last.
//!
//! Adding a format is one file and one line:
//!
//! ```text
//! // readers/endnote.rs
//! pub struct Endnote;
//!
//! impl Reader for Endnote {
//!     fn name(&self) -> &'static str { "endnote" }
//!     fn about(&self) -> &'static str { "EndNote's tagged export" }
//!     fn extensions(&self) -> &'static [&'static str] { &["enw"] }
//!     fn sniff(&self, head: &str, _hint: Option<Format>) -> bool {
//!         head.trim_start().starts_with("%0 ")
//!     }
//!     fn parse(&self, text: &str) -> Parsed { /* … */ }
//! }
//!
//! // here: `mod endnote;`, and in READERS, before the formats that
//! // would take its files (csv, lines, text):
//! //     &endnote::Endnote,
//! ```
//!
//! Readers read fields through [`crate::corpus::fields`], so that a value
//! means the same whichever format it came in.

mod announce;
pub mod atom;
pub mod bibtex;
pub mod csv;
pub mod json;
pub mod oaipmh;
pub mod openreview;
pub mod ris;
pub mod rss;
pub mod text;
mod xml;

use std::fmt;
use std::path::Path;

use crate::corpus::Parsed;

/// A file format paperboat reads.
pub trait Reader: Sync {
    /// The name `--format` takes and messages use ("bibtex", "jsonl", ...).
    fn name(&self) -> &'static str;

    /// What the format is, in a few words (`--help` lists it by the name).
    fn about(&self) -> &'static str;

    /// Lower-case file extensions (no dot) that hint at this format.
    fn extensions(&self) -> &'static [&'static str];

    /// Whether `head` (the first KiBs of the input, BOM stripped) is this
    /// format, given the extension's hint. Readers are asked in the
    /// registry's order, so a reader may take what the ones before it
    /// left.
    fn sniff(&self, head: &str, hint: Option<Format>) -> bool;

    /// Parses a whole input: records with their 1-based lines, and what
    /// was skipped.
    fn parse(&self, text: &str) -> Parsed;

    /// One record per line: a large input may be cut at line ends and its
    /// pieces parsed in parallel (JSON Lines, `lines`).
    fn line_oriented(&self) -> bool {
        false
    }

    /// The loader may leave plain abstracts in the file and read them back
    /// (JSON Lines).
    fn defers_abstracts(&self) -> bool {
        false
    }
}

/// The registry: THE one list of formats, in sniffing order.
static READERS: &[&dyn Reader] = &[
    &openreview::OpenReview,
    &json::JsonLines,
    &json::Json,
    &oaipmh::OaiPmh,
    &rss::Rss,
    &atom::Atom,
    &bibtex::Bibtex,
    &ris::Ris,
    &csv::Csv,
    &csv::Tsv,
    &text::Lines,
    &text::Text,
];

/// A format: a handle on one registered reader. Two are equal when their
/// names are.
#[derive(Clone, Copy)]
pub struct Format(&'static dyn Reader);

impl Format {
    /// Paragraphs, as the bundled lists.
    pub const TEXT: Format = Format(&text::Text);
    /// One paper per line.
    pub const LINES: Format = Format(&text::Lines);
    /// BibTeX or BibLaTeX.
    pub const BIBTEX: Format = Format(&bibtex::Bibtex);
    /// RIS (and Web of Science / MEDLINE tagged text).
    pub const RIS: Format = Format(&ris::Ris);
    /// A JSON document.
    pub const JSON: Format = Format(&json::Json);
    /// JSON Lines.
    pub const JSONL: Format = Format(&json::JsonLines);
    /// OpenReview notes.
    pub const OPENREVIEW: Format = Format(&openreview::OpenReview);
    /// An arXiv OAI-PMH response.
    pub const OAIPMH: Format = Format(&oaipmh::OaiPmh);
    /// An RSS feed.
    pub const RSS: Format = Format(&rss::Rss);
    /// An arXiv API Atom feed.
    pub const ATOM: Format = Format(&atom::Atom);
    /// Comma-separated values with a header row.
    pub const CSV: Format = Format(&csv::Csv);
    /// Tab-separated values with a header row.
    pub const TSV: Format = Format(&csv::Tsv);

    /// Every format, in the registry's (sniffing) order.
    pub fn all() -> impl Iterator<Item = Format> {
        READERS.iter().map(|&r| Format(r))
    }

    /// The format `--format name` asks for.
    pub fn named(name: &str) -> Option<Format> {
        Format::all().find(|f| f.name() == name)
    }

    /// The format a file extension suggests.
    pub fn from_extension(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        Format::all().find(|f| f.0.extensions().contains(&ext.as_str()))
    }

    /// The `--format` name.
    pub fn name(self) -> &'static str {
        self.0.name()
    }

    /// What the format is, for `--help`.
    pub fn about(self) -> &'static str {
        self.0.about()
    }

    /// The reader.
    pub fn reader(self) -> &'static dyn Reader {
        self.0
    }

    /// One record per line: a large input may be cut at line ends and its
    /// pieces parsed in parallel.
    pub fn line_oriented(self) -> bool {
        self.0.line_oriented()
    }

    /// The loader may leave plain abstracts in the file and read them back
    /// (see [`Abstract`](crate::corpus::abstracts::Abstract)).
    pub fn defers_abstracts(self) -> bool {
        self.0.defers_abstracts()
    }
}

impl PartialEq for Format {
    fn eq(&self, other: &Format) -> bool {
        self.name() == other.name()
    }
}

impl Eq for Format {}

impl std::hash::Hash for Format {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.name().hash(h);
    }
}

impl fmt::Debug for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Format({})", self.name())
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Detects the format from the content; the extension settles what the
/// content leaves open. A JSON input whose first line is a whole object
/// with more after it is JSON Lines, hint or not.
pub fn detect(text: &str, hint: Option<Format>) -> Format {
    Format::all()
        .find(|f| f.0.sniff(text, hint))
        .unwrap_or(Format::TEXT)
}

/// Parses text in a format.
pub fn parse(text: &str, format: Format) -> Parsed {
    format.0.parse(text)
}

/// The first non-blank lines of `text`, their ends trimmed.
pub(crate) fn head_lines(text: &str, n: usize) -> impl Iterator<Item = &str> {
    text.lines()
        .map(str::trim_end)
        .filter(|l| !l.trim().is_empty())
        .take(n)
}

/// Folds whitespace within paragraphs to single spaces (no-break spaces
/// included); blank lines stay paragraph breaks (`\n\n`), as an abstract
/// keeps them.
pub(crate) fn fold_paragraphs(s: &str) -> String {
    let s = s.replace("\r\n", "\n").replace('\r', "\n");
    let mut out = String::with_capacity(s.len());
    for paragraph in s
        .split("\n")
        .collect::<Vec<_>>()
        .split(|l| l.trim().is_empty())
    {
        let mut words = paragraph
            .iter()
            .flat_map(|l| l.split_whitespace())
            .peekable();
        if words.peek().is_none() {
            continue;
        }
        if !out.is_empty() {
            out.push_str("\n\n");
        }
        for (i, w) in words.enumerate() {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(w);
        }
    }
    out
}

/// `text` without the byte-order mark and blank space it starts with.
pub(crate) fn start(text: &str) -> &str {
    text.trim_start_matches(['\u{feff}', ' ', '\t', '\r', '\n'])
}

/// Applies byte edits to `bytes` for the readers' robustness tests:
/// (position, byte, 0 replace / 1 delete / 2 insert).
#[cfg(test)]
pub(crate) fn mutate(bytes: &mut Vec<u8>, edits: &[(usize, u8, u8)]) {
    for &(at, byte, op) in edits {
        let at = at % (bytes.len() + 1);
        match op {
            0 if at < bytes.len() => bytes[at] = byte,
            1 if at < bytes.len() => {
                bytes.remove(at);
            }
            _ => bytes.insert(at, byte),
        }
    }
}

/// Checks what a reader made of `text` for the robustness tests: every
/// record's line and every skipped line within the text, every skip with
/// a reason.
#[cfg(test)]
pub(crate) fn assert_lines_within(text: &str, parsed: &Parsed) {
    let lines = text.split('\n').count();
    for r in &parsed.records {
        assert!((1..=lines).contains(&r.line), "{} of {lines}", r.line);
    }
    for (line, reason) in &parsed.skipped {
        assert!((1..=lines).contains(line), "{line} of {lines}");
        assert!(!reason.is_empty());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_detected_from_content_with_the_extension_as_a_hint() {
        let cases: &[(&str, Option<Format>, Format)] = &[
            ("@article{k, title={T}}", None, Format::BIBTEX),
            (
                "% comment\n\n@Misc (k, title = \"T\")",
                None,
                Format::BIBTEX,
            ),
            ("TY  - JOUR\nTI  - T\nER  - \n", None, Format::RIS),
            ("FN Clarivate\nVR 1.0\nPT J\n", None, Format::RIS),
            ("[{\"title\": \"T\"}]", None, Format::JSON),
            (
                "{\"title\": \"T\"}\n{\"title\": \"U\"}\n",
                Some(Format::JSONL),
                Format::JSONL,
            ),
            ("<?xml version=\"1.0\"?><feed/>", None, Format::ATOM),
            (
                "<?xml version='1.0'?>\n<rss version=\"2.0\"><channel/></rss>",
                None,
                Format::RSS,
            ),
            (
                "<rdf:RDF xmlns=\"http://purl.org/rss/1.0/\"/>",
                None,
                Format::RSS,
            ),
            (
                "{\"notes\": [{\"id\": \"a\", \"forum\": \"a\", \"content\": {}}]}",
                None,
                Format::OPENREVIEW,
            ),
            (
                "{\"https://openreview.net/forum?id=frA0NNBS1n\": {\"title\": \"T\"}}",
                None,
                Format::OPENREVIEW,
            ),
            // A forum link as a value is any JSON.
            (
                "[{\"title\": \"T\", \"url\": \"https://openreview.net/forum?id=frA0NNBS1n\"}]",
                None,
                Format::JSON,
            ),
            ("title,abstract\nT,A\n", None, Format::CSV),
            ("Title\tAbstract\nT\tA\n", None, Format::TSV),
            ("a,b\n1,2\n", Some(Format::CSV), Format::CSV),
            ("List\n\nAn abstract.\n\nAnother.", None, Format::TEXT),
            ("Title one\nTitle two\nTitle three\n", None, Format::LINES),
            ("Just one paragraph of text.", None, Format::TEXT),
        ];
        for (text, hint, want) in cases {
            assert_eq!(detect(text, *hint), *want, "{text:?}");
        }
    }

    #[test]
    fn json_lines_without_a_hint_and_the_hints_that_settle_the_rest() {
        let cases: &[(&str, Option<Format>, Format)] = &[
            // What the loader made JSON Lines after detecting JSON.
            (
                "{\"title\": \"T\"}\n{\"title\": \"U\"}\n",
                None,
                Format::JSONL,
            ),
            (
                "  {\"title\": \"T\"}\n\n{\"title\": \"U\"}",
                Some(Format::JSON),
                Format::JSONL,
            ),
            // One document over several lines stays JSON.
            ("{\n  \"title\": \"T\"\n}\n", None, Format::JSON),
            ("{\"title\": \"T\"}\n", None, Format::JSON),
            ("[{\"title\": \"T\"}]", Some(Format::JSONL), Format::JSONL),
            (
                "<feed xmlns=\"http://www.w3.org/2005/Atom\"/>",
                None,
                Format::ATOM,
            ),
            ("a\tb\n1\t2\n", Some(Format::TSV), Format::TSV),
            ("title\tabstract,more\nT\tA\n", None, Format::TSV),
            ("title,abstract\nT,A\n", Some(Format::TSV), Format::TSV),
            ("title,abstract\n", None, Format::TEXT),
            ("PMID- 1\nTI  - T\n", None, Format::RIS),
            ("a,b\n1,2\n", None, Format::LINES),
            ("", None, Format::TEXT),
        ];
        for (text, hint, want) in cases {
            assert_eq!(detect(text, *hint), *want, "{text:?} {hint:?}");
        }
    }

    #[test]
    fn names_and_extensions() {
        let names: Vec<&str> = Format::all().map(Format::name).collect();
        assert_eq!(
            names,
            [
                "openreview",
                "jsonl",
                "json",
                "oaipmh",
                "rss",
                "atom",
                "bibtex",
                "ris",
                "csv",
                "tsv",
                "lines",
                "text"
            ]
        );
        for f in Format::all() {
            assert_eq!(Format::named(f.name()), Some(f));
            for ext in f.reader().extensions() {
                let path = format!("x.{}", ext.to_uppercase());
                assert_eq!(Format::from_extension(Path::new(&path)), Some(f), "{ext}");
            }
        }
        let extensions: usize = Format::all().map(|f| f.reader().extensions().len()).sum();
        assert_eq!(extensions, 19);
        assert_eq!(Format::named("pdf"), None);
        assert_eq!(Format::from_extension(Path::new("x.pdf")), None);
        assert_eq!(Format::from_extension(Path::new("x")), None);
        assert_eq!(
            Format::from_extension(Path::new("a.NDJSON")),
            Some(Format::JSONL)
        );
        assert_eq!(
            Format::from_extension(Path::new("a.md")),
            Some(Format::TEXT)
        );
        let fast: Vec<&str> = Format::all()
            .filter(|f| f.reader().line_oriented())
            .map(Format::name)
            .collect();
        assert_eq!(fast, ["jsonl", "lines"]);
        let deferring: Vec<&str> = Format::all()
            .filter(|f| f.defers_abstracts())
            .map(Format::name)
            .collect();
        assert_eq!(deferring, ["jsonl"]);
        assert_eq!(
            format!("{:?} {}", Format::RIS, Format::RIS),
            "Format(ris) ris"
        );
    }

    #[test]
    fn parse_goes_to_the_reader() {
        let p = parse("TY  - JOUR\nTI  - A title\nER  - \n", Format::RIS);
        assert_eq!(p.records[0].title.as_deref(), Some("A title"));
        let p = parse("title\tabstract\nT\tA\n", Format::TSV);
        assert_eq!(p.records[0].abstract_text.as_deref(), Some("A"));
        let p = parse("One\nTwo\n", Format::LINES);
        assert_eq!(p.records.len(), 2);
    }
}
