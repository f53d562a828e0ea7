//! Saved papers out of paperboat: a Markdown reading list (grouped by tag,
//! with notes), BibTeX (tags as `keywords`, the note as `annote`), CSV, or
//! JSON.
//!
//! Text is exported as it reads on screen (markup rendered: `$25\times$`
//! becomes `25×`), then escaped for the target format, so the output is
//! always well-formed: BibTeX braces balance and its special characters are
//! escaped; Markdown's are backslashed.

use std::io::{self, Write};

use serde::Serialize;

use crate::corpus::{Corpus, Paper};
use crate::store::{Field, Stamp, Store};
use crate::text::{markup, sanitize};

/// Export formats.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Format {
    /// A Markdown reading list.
    Markdown,
    /// BibTeX `@misc` entries.
    Bibtex,
    /// A JSON array.
    Json,
    /// CSV with a header row (see [`CSV_COLUMNS`]).
    Csv,
}

/// The columns of a CSV export, in order.
pub const CSV_COLUMNS: [&str; 12] = [
    "id",
    "title",
    "authors",
    "year",
    "venue",
    "doi",
    "arxiv",
    "url",
    "tags",
    "note",
    "bookmarked",
    "read",
];

/// A paper as JSON exports (and `list --json` prints) it.
#[derive(Serialize)]
pub struct JsonPaper<'a> {
    /// Full id.
    pub id: &'a str,
    /// Id as shown.
    pub short_id: &'a str,
    /// Title, markup rendered.
    pub title: String,
    /// Abstract as the file had it (sanitized).
    #[serde(rename = "abstract")]
    pub abstract_text: std::borrow::Cow<'a, str>,
    /// List name.
    pub source: &'a str,
    /// Further lists holding the paper.
    #[serde(skip_serializing_if = "<[std::sync::Arc<str>]>::is_empty")]
    pub also_in: &'a [std::sync::Arc<str>],
    /// Authors.
    pub authors: &'a crate::corpus::Authors,
    /// Year.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub year: Option<i32>,
    /// Venue.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub venue: Option<&'a str>,
    /// Keywords.
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    pub keywords: &'a [String],
    /// arXiv categories.
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    pub categories: &'a [String],
    /// OpenReview forum id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub openreview: Option<&'a str>,
    /// OpenReview venue id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub venue_id: Option<&'a str>,
    /// How an arXiv feed announced it (`new`, `cross`, `replace`,
    /// `replace-cross`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub announce_type: Option<&'a str>,
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

impl<'a> JsonPaper<'a> {
    /// The JSON form of paper `i`.
    pub fn new(corpus: &'a Corpus, i: usize, store: &'a Store) -> JsonPaper<'a> {
        let p = &corpus.papers[i];
        JsonPaper {
            id: p.id.as_str(),
            short_id: corpus.short_id(i),
            title: markup::plain(&p.title),
            abstract_text: p.abstract_text.text(),
            source: &p.source,
            also_in: &p.also_in,
            authors: &p.authors,
            year: p.year,
            venue: p.venue.as_deref(),
            keywords: &p.more().keywords,
            categories: &p.more().categories,
            openreview: p.more().forum.as_deref(),
            venue_id: p.more().venue_id.as_deref(),
            announce_type: p.more().announce.as_deref(),
            links: p.links(),
            bookmarked: store.is_on(p.id.as_str(), Field::Bookmark),
            read: store.is_on(p.id.as_str(), Field::Read),
            tags: store.tags(p.id.as_str()),
            note: store.note(p.id.as_str()),
            first_seen: store.first_seen(p.id.as_str()),
        }
    }
}

/// Writes papers `indices` of `corpus` in `format`, with their marks,
/// tags and notes from `store`.
pub fn write(
    out: &mut dyn Write,
    format: Format,
    corpus: &Corpus,
    indices: &[usize],
    store: &Store,
) -> io::Result<()> {
    match format {
        Format::Json => {
            let papers: Vec<JsonPaper> = indices
                .iter()
                .map(|&i| JsonPaper::new(corpus, i, store))
                .collect();
            serde_json::to_writer_pretty(&mut *out, &papers)?;
            writeln!(out)
        }
        Format::Markdown => markdown(out, corpus, indices, store),
        Format::Bibtex => {
            for (k, &i) in indices.iter().enumerate() {
                if k > 0 {
                    writeln!(out)?;
                }
                bibtex_entry(out, corpus, i, store)?;
            }
            Ok(())
        }
        Format::Csv => csv_rows(out, corpus, indices, store),
    }
}

/// The lines of a note as they are shown: each sanitized (controls and
/// escape sequences out), blank lines at either end dropped.
pub fn note_lines(note: &str) -> Vec<String> {
    let lines: Vec<String> = note.lines().map(sanitize::line).collect();
    let first = lines
        .iter()
        .position(|l| !l.is_empty())
        .unwrap_or(lines.len());
    let last = lines
        .iter()
        .rposition(|l| !l.is_empty())
        .map_or(first, |k| k + 1);
    lines[first..last].to_vec()
}

fn csv_rows(
    out: &mut dyn Write,
    corpus: &Corpus,
    indices: &[usize],
    store: &Store,
) -> io::Result<()> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record(CSV_COLUMNS)?;
    for &i in indices {
        let p = &corpus.papers[i];
        let id = p.id.as_str();
        let flag = |f| if store.is_on(id, f) { "true" } else { "false" };
        let note = store
            .note(id)
            .map(|n| note_lines(n).join("\n"))
            .unwrap_or_default();
        w.write_record([
            id,
            &markup::plain(&p.title),
            &p.authors.join("; "),
            &p.year.map(|y| y.to_string()).unwrap_or_default(),
            p.venue.as_deref().unwrap_or(""),
            id.strip_prefix("doi:").unwrap_or(""),
            id.strip_prefix("arxiv:").unwrap_or(""),
            p.links().first().map_or("", String::as_str),
            &store.tags(id).join("; "),
            &note,
            flag(Field::Bookmark),
            flag(Field::Read),
        ])?;
    }
    w.flush()
}

/// Backslashes the characters Markdown would read as markup.
pub fn markdown_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(
            c,
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '#' | '|'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn markdown(
    out: &mut dyn Write,
    corpus: &Corpus,
    indices: &[usize],
    store: &Store,
) -> io::Result<()> {
    writeln!(out, "# Reading list")?;
    writeln!(out)?;
    writeln!(
        out,
        "{} paper{}, exported from paperboat.",
        indices.len(),
        if indices.len() == 1 { "" } else { "s" }
    )?;
    let groups = by_tag(corpus, indices, store);
    if groups.len() == 1 && groups[0].0.is_none() {
        // No paper is tagged: a flat list.
        for &i in indices {
            markdown_paper(out, corpus, i, store, "##")?;
        }
        return Ok(());
    }
    for (tag, papers) in &groups {
        writeln!(out)?;
        match tag {
            Some(tag) => writeln!(out, "## {}", markdown_escape(&sanitize::line(tag)))?,
            None => writeln!(out, "## Untagged")?,
        }
        for &i in papers {
            markdown_paper(out, corpus, i, store, "###")?;
        }
    }
    Ok(())
}

/// The papers under each tag (ordered without case, named as most
/// recently written; a paper with two tags is under both), in the order
/// given, then the untagged ones (`None`).
fn by_tag(corpus: &Corpus, indices: &[usize], store: &Store) -> Vec<(Option<String>, Vec<usize>)> {
    let mut tagged: std::collections::BTreeMap<String, Vec<usize>> = Default::default();
    let mut untagged = Vec::new();
    for &i in indices {
        let tags = store.tags(corpus.papers[i].id.as_str());
        if tags.is_empty() {
            untagged.push(i);
        }
        for t in tags {
            tagged.entry(crate::store::fold(t)).or_default().push(i);
        }
    }
    let names: std::collections::HashMap<String, String> = store
        .all_tags()
        .into_iter()
        .map(|(name, _)| (crate::store::fold(&name), name))
        .collect();
    let mut groups: Vec<(Option<String>, Vec<usize>)> = tagged
        .into_iter()
        .map(|(folded, v)| (Some(names.get(&folded).cloned().unwrap_or(folded)), v))
        .collect();
    if !untagged.is_empty() || groups.is_empty() {
        groups.push((None, untagged));
    }
    groups
}

/// One paper of the Markdown list under a `heading` of that level: title,
/// metadata, links, abstract, then the note.
fn markdown_paper(
    out: &mut dyn Write,
    corpus: &Corpus,
    i: usize,
    store: &Store,
    heading: &str,
) -> io::Result<()> {
    let p = &corpus.papers[i];
    writeln!(out)?;
    writeln!(
        out,
        "{heading} {}",
        markdown_escape(&markup::plain(&p.title))
    )?;
    writeln!(out)?;
    let mut meta = vec![format!("`{}`", corpus.short_id(i))];
    meta.push(markdown_escape(&p.source));
    if !p.authors.is_empty() {
        meta.push(markdown_escape(&p.authors.join(", ")));
    }
    if let Some(y) = p.year {
        meta.push(y.to_string());
    }
    if let Some(v) = &p.venue {
        meta.push(markdown_escape(v));
    }
    if store.is_on(p.id.as_str(), Field::Bookmark) {
        meta.push("★ bookmarked".to_string());
    }
    if store.is_on(p.id.as_str(), Field::Read) {
        meta.push("✓ read".to_string());
    }
    writeln!(out, "{}", meta.join(" · "))?;
    let rich = markup::render(&p.abstract_text.text());
    let mut links = p.links();
    for l in rich.links {
        if !links.contains(&l) {
            links.push(l);
        }
    }
    for l in &links {
        writeln!(out, "<{l}>  ")?;
    }
    if !rich.text.is_empty() {
        writeln!(out)?;
        for (k, par) in rich.text.split("\n\n").enumerate() {
            if k > 0 {
                writeln!(out, ">")?;
            }
            writeln!(out, "> {}", markdown_escape(par))?;
        }
    }
    if let Some(note) = store.note(p.id.as_str()) {
        // The note is the user's markdown, kept as written line by line,
        // quoted so that its headings stay inside it.
        writeln!(out)?;
        writeln!(out, "**Note:**")?;
        writeln!(out)?;
        for line in note_lines(note) {
            writeln!(out, "> {line}")?;
        }
    }
    Ok(())
}

/// Escapes text for a braced BibTeX field value.
pub fn bibtex_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\textbackslash{}"),
            '{' | '}' | '&' | '%' | '$' | '#' | '_' => {
                out.push('\\');
                out.push(c);
            }
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            '"' => out.push_str("{\"}"),
            c => out.push(c),
        }
    }
    out
}

/// A citation key: the id with characters BibTeX keys cannot hold replaced.
pub fn bibtex_key(corpus: &Corpus, i: usize) -> String {
    let p = &corpus.papers[i];
    let raw = if p.id.is_hash() {
        format!("paperboat:{}", corpus.short_id(i))
    } else {
        p.id.as_str().to_string()
    };
    raw.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, ':' | '.' | '/' | '-' | '_') {
                c
            } else {
                '-'
            }
        })
        .collect()
}

fn bibtex_entry(out: &mut dyn Write, corpus: &Corpus, i: usize, store: &Store) -> io::Result<()> {
    let p: &Paper = &corpus.papers[i];
    writeln!(out, "@misc{{{},", bibtex_key(corpus, i))?;
    let mut field = |name: &str, value: &str| -> io::Result<()> {
        writeln!(out, "  {name:<12} = {{{}}},", bibtex_escape(value))
    };
    field("title", &markup::plain(&p.title))?;
    if !p.authors.is_empty() {
        field("author", &p.authors.join(" and "))?;
    }
    if let Some(y) = p.year {
        field("year", &y.to_string())?;
    }
    match &p.venue {
        Some(v) => field("howpublished", v)?,
        None => field("howpublished", &p.source)?,
    }
    let id = p.id.as_str();
    if let Some(doi) = id.strip_prefix("doi:") {
        field("doi", doi)?;
    }
    if let Some(a) = id.strip_prefix("arxiv:") {
        field("eprint", a)?;
        field("archiveprefix", "arXiv")?;
    }
    if let Some(url) = p.links().first() {
        field("url", url)?;
    }
    if !p.abstract_text.is_empty() {
        field(
            "abstract",
            &markup::plain(&p.abstract_text.text()).replace('\n', " "),
        )?;
    }
    let tags = store.tags(id);
    if !tags.is_empty() {
        let tags: Vec<String> = tags.iter().map(|t| sanitize::line(t)).collect();
        field("keywords", &tags.join(", "))?;
    }
    if let Some(note) = store.note(id) {
        field("annote", &note_lines(note).join("\n"))?;
    }
    field("note", &format!("paperboat id {id}"))?;
    writeln!(out, "}}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A store in a fresh directory, kept alive with it.
    fn store() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let (store, _) = Store::open(dir.path());
        (dir, store)
    }

    fn text(format: Format, corpus: &Corpus, indices: &[usize], store: &Store) -> String {
        let mut out = Vec::new();
        write(&mut out, format, corpus, indices, store).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn balanced(s: &str) -> bool {
        let mut depth = 0i32;
        let mut escaped = false;
        for c in s.chars() {
            if escaped {
                escaped = false;
                continue;
            }
            match c {
                '\\' => escaped = true,
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth < 0 {
                        return false;
                    }
                }
                _ => {}
            }
        }
        depth == 0
    }

    #[test]
    fn bibtex_is_balanced_and_escaped() {
        let corpus = crate::loading::bundled().corpus;
        let all: Vec<usize> = (0..corpus.len()).collect();
        let (_dir, store) = store();
        let text = text(Format::Bibtex, &corpus, &all, &store);
        assert_eq!(text.matches("@misc{").count(), 38);
        assert!(balanced(&text));
        assert!(text.contains("1.1\\% and 5.94\\%"), "percent signs escaped");
        assert!(
            !text.contains("\\times"),
            "math rendered, not left as commands"
        );
        assert!(text.contains("53.19×"));
        assert_eq!(
            bibtex_escape("a{b}_c$~"),
            "a\\{b\\}\\_c\\$\\textasciitilde{}"
        );
    }

    #[test]
    fn markdown_lists_title_id_source_and_abstract() {
        let corpus = crate::loading::bundled().corpus;
        let (_dir, store) = store();
        let text = text(Format::Markdown, &corpus, &[1], &store);
        assert!(
            text.contains("## OrchJail: an orchestration-guided fuzzing framework"),
            "{text}"
        );
        assert!(text.contains(&format!("`{}` · ICML 2026 论文列表", corpus.short_id(1))));
        assert!(text.contains("> Tool-calling text-to-image (T2I) agents"));
    }

    #[test]
    fn bibtex_carries_tags_as_keywords_and_the_note_as_annote_escaped() {
        let corpus = crate::loading::bundled().corpus;
        let (_dir, mut store) = store();
        let id = corpus.papers[2].id.as_str();
        store.set_tag(id, "to read", true).unwrap();
        store.set_tag(id, "LoRA", true).unwrap();
        store
            .set_note(
                id,
                "Compare {adapters} with 50% less \\memory}\nsee §4 & $x_1$",
            )
            .unwrap();
        let text = text(Format::Bibtex, &corpus, &[0, 2], &store);
        assert!(balanced(&text), "{text}");
        assert_eq!(text.matches("keywords").count(), 1, "{text}");
        assert!(text.contains("keywords     = {LoRA, to read},"), "{text}");
        assert!(
            text.contains(
                "annote       = {Compare \\{adapters\\} with 50\\% less \\textbackslash{}memory\\}\nsee §4 \\& \\$x\\_1\\$},"
            ),
            "{text}"
        );
    }

    #[test]
    fn markdown_groups_by_tag_with_notes_untagged_last() {
        let corpus = crate::loading::bundled().corpus;
        let (_dir, mut store) = store();
        let [a, b] = [0, 1].map(|i| corpus.papers[i].id.as_str().to_string());
        store.set_tag(&a, "zeta", true).unwrap();
        store.set_tag(&a, "Alpha", true).unwrap();
        store.set_tag(&b, "alpha", true).unwrap();
        store
            .set_note(&b, "# Not a heading\n\n- point one")
            .unwrap();
        let text = text(Format::Markdown, &corpus, &[0, 1, 2], &store);
        let headings: Vec<&str> = text.lines().filter(|l| l.starts_with("## ")).collect();
        assert_eq!(headings, ["## alpha", "## zeta", "## Untagged"], "{text}");
        let title = |i: usize| {
            format!(
                "### {}",
                markdown_escape(&markup::plain(&corpus.papers[i].title))
            )
        };
        let at = |s: &str| text.match_indices(s).map(|(k, _)| k).collect::<Vec<_>>();
        // Paper 0 under both of its tags, paper 2 once, last.
        assert_eq!(at(&title(0)).len(), 2);
        assert_eq!(at(&title(2)).len(), 1);
        assert!(at(&title(2))[0] > at("## Untagged")[0]);
        assert!(
            text.contains("**Note:**\n\n> # Not a heading\n> \n> - point one\n"),
            "{text}"
        );
    }

    #[test]
    fn csv_has_the_columns_and_quotes_what_needs_it() {
        let corpus = crate::loading::bundled().corpus;
        let (_dir, mut store) = store();
        let id = corpus.papers[3].id.as_str();
        store.set_tag(id, "b", true).unwrap();
        store.set_tag(id, "a", true).unwrap();
        store
            .set_note(id, "line one, with \"quotes\"\nline two")
            .unwrap();
        store.set(&[(id, Field::Bookmark, true)]).unwrap();
        let text = text(Format::Csv, &corpus, &[3, 4], &store);
        let mut rows = csv::Reader::from_reader(text.as_bytes());
        assert_eq!(rows.headers().unwrap(), &CSV_COLUMNS[..]);
        let rows: Vec<csv::StringRecord> = rows.records().map(Result::unwrap).collect();
        assert_eq!(rows.len(), 2);
        assert_eq!(&rows[0][0], id);
        assert_eq!(&rows[0][1], markup::plain(&corpus.papers[3].title));
        assert_eq!(&rows[0][8], "a; b");
        assert_eq!(&rows[0][9], "line one, with \"quotes\"\nline two");
        assert_eq!((&rows[0][10], &rows[0][11]), ("true", "false"));
        assert_eq!((&rows[1][8], &rows[1][9], &rows[1][10]), ("", "", "false"));
    }
}
