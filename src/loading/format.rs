//! What format an input is in, and the parser for each: every decision
//! that depends on the format is made here, so that the rest of loading
//! asks a [`Format`] questions (its name, whether it is line-oriented,
//! whether its abstracts may stay in the file) and never names one.

use std::path::Path;

use crate::corpus::{Parsed, atom, bibtex, csv, json, ris, text};

/// The formats paperboat reads (also the values of `--format`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Format {
    /// Paragraphs, as the bundled lists.
    Text,
    /// One paper per line.
    Lines,
    /// BibTeX or BibLaTeX.
    Bibtex,
    /// RIS (and Web of Science / MEDLINE tagged text).
    Ris,
    /// A JSON document.
    Json,
    /// JSON Lines.
    Jsonl,
    /// An arXiv API Atom feed.
    Atom,
    /// Comma-separated values with a header row.
    Csv,
    /// Tab-separated values with a header row.
    Tsv,
}

impl Format {
    /// Every format, with its `--format` name.
    pub const ALL: [(Format, &'static str); 9] = [
        (Format::Text, "text"),
        (Format::Lines, "lines"),
        (Format::Bibtex, "bibtex"),
        (Format::Ris, "ris"),
        (Format::Json, "json"),
        (Format::Jsonl, "jsonl"),
        (Format::Atom, "atom"),
        (Format::Csv, "csv"),
        (Format::Tsv, "tsv"),
    ];

    /// Every format, in the order [`Format::ALL`] lists them.
    pub fn all() -> impl Iterator<Item = Format> {
        Format::ALL.iter().map(|&(f, _)| f)
    }

    /// The format a `--format` name names.
    pub fn named(name: &str) -> Option<Format> {
        Format::ALL
            .iter()
            .find(|(_, n)| *n == name)
            .map(|&(f, _)| f)
    }

    /// The `--format` name.
    pub fn name(self) -> &'static str {
        Format::ALL
            .iter()
            .find(|(f, _)| *f == self)
            .map_or("text", |(_, n)| n)
    }

    /// The format a file extension suggests.
    pub fn from_extension(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        Some(match ext.as_str() {
            "bib" | "bibtex" | "biblatex" => Format::Bibtex,
            "ris" | "nbib" | "ciw" => Format::Ris,
            "json" => Format::Json,
            "jsonl" | "ndjson" => Format::Jsonl,
            "xml" | "atom" => Format::Atom,
            "csv" => Format::Csv,
            "tsv" | "tab" => Format::Tsv,
            "txt" | "text" | "md" => Format::Text,
            _ => return None,
        })
    }

    /// One record per line: a large input may be cut at line ends and its
    /// pieces parsed in parallel.
    pub fn line_oriented(self) -> bool {
        matches!(self, Format::Lines | Format::Jsonl)
    }

    /// The loader may leave plain abstracts in the file and read them back
    /// (see [`Abstract`](crate::corpus::abstracts::Abstract)).
    pub fn defers_abstracts(self) -> bool {
        self == Format::Jsonl
    }
}

/// The first non-blank lines of `text`.
fn head_lines(text: &str, n: usize) -> impl Iterator<Item = &str> {
    text.lines()
        .map(str::trim_end)
        .filter(|l| !l.trim().is_empty())
        .take(n)
}

/// Detects the format from the content; the extension settles what the
/// content leaves open.
pub fn detect(text: &str, hint: Option<Format>) -> Format {
    let start = text.trim_start_matches(['\u{feff}', ' ', '\t', '\r', '\n']);
    if start.starts_with('{') || start.starts_with('[') {
        return if hint == Some(Format::Jsonl) {
            Format::Jsonl
        } else {
            Format::Json
        };
    }
    if start.starts_with("<?xml") || start.starts_with("<feed") {
        return Format::Atom;
    }
    let head: Vec<&str> = head_lines(text, 200).collect();
    let bib_entry = |l: &str| {
        let t = l.trim_start();
        t.starts_with('@')
            && t[1..]
                .trim_start()
                .split(|c: char| !c.is_ascii_alphabetic())
                .next()
                .is_some_and(|w| {
                    !w.is_empty()
                        && t[1..].trim_start()[w.len()..]
                            .trim_start()
                            .starts_with(['{', '('])
                })
    };
    if head.iter().any(|l| bib_entry(l)) {
        return Format::Bibtex;
    }
    let tag = |l: &str| {
        let b = l.as_bytes();
        b.len() >= 5
            && b[0].is_ascii_uppercase()
            && (b[1].is_ascii_uppercase() || b[1].is_ascii_digit())
            && &b[2..5] == b"  -"
    };
    let ris_like = head.iter().take(40).filter(|l| tag(l)).count();
    let wos = head
        .first()
        .is_some_and(|l| l.starts_with("FN ") || l.starts_with("PT "));
    let medline = head.iter().take(5).any(|l| l.starts_with("PMID-"));
    if ris_like >= 2 || wos || medline {
        return Format::Ris;
    }
    match hint {
        Some(Format::Csv) => return Format::Csv,
        Some(Format::Tsv) => return Format::Tsv,
        _ => {}
    }
    // A header row naming title and abstract columns.
    if let Some(first) = head.first() {
        let lower = first.to_lowercase();
        let names_columns = lower.contains("title") || lower.contains("abstract");
        if names_columns && first.matches('\t').count() >= 1 {
            return Format::Tsv;
        }
        if names_columns && first.matches(',').count() >= 1 && head.len() > 1 {
            return Format::Csv;
        }
    }
    // Text: paragraphs, unless no blank line separates anything, which
    // makes it one paper per line.
    let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
    let blank_separated = text.trim().lines().any(|l| l.trim().is_empty());
    if lines >= 2 && !blank_separated {
        Format::Lines
    } else {
        Format::Text
    }
}

/// Parses text in a format.
pub fn parse(text: &str, format: Format) -> Parsed {
    match format {
        Format::Text => text::parse(text),
        Format::Lines => text::parse_lines(text),
        Format::Bibtex => bibtex::parse(text),
        Format::Ris => ris::parse(text),
        Format::Json | Format::Jsonl => json::parse(text),
        Format::Atom => atom::parse(text),
        Format::Csv => csv::parse(text, b','),
        Format::Tsv => csv::parse(text, b'\t'),
    }
}

/// The format of an input whose first bytes are `head`, `hint` the format
/// its extension suggests: as [`detect`] says, except that JSON whose first
/// line is a whole object, with more after it, is JSON Lines.
pub(super) fn detect_head(head: &str, hint: Option<Format>) -> Format {
    match detect(head, hint) {
        Format::Json if looks_like_json_lines(head) => Format::Jsonl,
        format => format,
    }
}

/// True when `head` begins with a complete JSON object on its first line
/// and more follows: JSON Lines rather than one document.
fn looks_like_json_lines(head: &str) -> bool {
    let mut lines = head.lines().map(str::trim).filter(|l| !l.is_empty());
    match (lines.next(), lines.next()) {
        (Some(first), Some(_)) => {
            first.starts_with('{') && serde_json::from_str::<serde::de::IgnoredAny>(first).is_ok()
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The format named `name` (tests name formats as `--format` does).
    fn f(name: &str) -> Format {
        Format::named(name).unwrap()
    }

    #[test]
    fn formats_are_detected_from_content_with_the_extension_as_a_hint() {
        let cases: &[(&str, Option<&str>, &str)] = &[
            ("@article{k, title={T}}", None, "bibtex"),
            ("% comment\n\n@Misc (k, title = \"T\")", None, "bibtex"),
            ("TY  - JOUR\nTI  - T\nER  - \n", None, "ris"),
            ("FN Clarivate\nVR 1.0\nPT J\n", None, "ris"),
            ("[{\"title\": \"T\"}]", None, "json"),
            (
                "{\"title\": \"T\"}\n{\"title\": \"U\"}\n",
                Some("jsonl"),
                "jsonl",
            ),
            ("<?xml version=\"1.0\"?><feed/>", None, "atom"),
            ("title,abstract\nT,A\n", None, "csv"),
            ("Title\tAbstract\nT\tA\n", None, "tsv"),
            ("a,b\n1,2\n", Some("csv"), "csv"),
            ("List\n\nAn abstract.\n\nAnother.", None, "text"),
            ("Title one\nTitle two\nTitle three\n", None, "lines"),
            ("Just one paragraph of text.", None, "text"),
        ];
        for (text, hint, want) in cases {
            assert_eq!(detect(text, hint.map(f)), f(want), "{text:?}");
        }
    }

    #[test]
    fn a_head_of_json_objects_one_a_line_is_json_lines() {
        let lines = "{\"title\": \"T\"}\n{\"title\": \"U\"}\n";
        assert_eq!(detect(lines, None), f("json"));
        assert_eq!(detect_head(lines, None), f("jsonl"));
        assert_eq!(detect_head(lines, Some(f("json"))), f("jsonl"));
        // One object over several lines is one document.
        assert_eq!(detect_head("{\n\"title\": \"T\"\n}\n", None), f("json"));
        assert_eq!(detect_head("[{\"title\": \"T\"}]", None), f("json"));
        assert_eq!(detect_head("Title one\nTitle two\n", None), f("lines"));
    }

    #[test]
    fn every_format_has_its_name_and_says_how_it_loads() {
        let names: Vec<&str> = Format::all().map(Format::name).collect();
        assert_eq!(
            names,
            [
                "text", "lines", "bibtex", "ris", "json", "jsonl", "atom", "csv", "tsv"
            ]
        );
        for format in Format::all() {
            assert_eq!(Format::named(format.name()), Some(format));
        }
        assert_eq!(Format::named("JSON"), None);
        let line_oriented: Vec<&str> = Format::all()
            .filter(|f| f.line_oriented())
            .map(Format::name)
            .collect();
        assert_eq!(line_oriented, ["lines", "jsonl"]);
        let deferring: Vec<&str> = Format::all()
            .filter(|f| f.defers_abstracts())
            .map(Format::name)
            .collect();
        assert_eq!(deferring, ["jsonl"]);
        for (file, want) in [
            ("a.BIB", Some("bibtex")),
            ("a.nbib", Some("ris")),
            ("a.ndjson", Some("jsonl")),
            ("a.xml", Some("atom")),
            ("a.tab", Some("tsv")),
            ("a.md", Some("text")),
            ("a.pdf", None),
            ("README", None),
        ] {
            assert_eq!(
                Format::from_extension(Path::new(file)),
                want.map(f),
                "{file}"
            );
        }
    }
}
