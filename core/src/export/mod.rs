//! Saved papers out of paperboat: a Markdown reading list (grouped by tag,
//! with notes), BibTeX (tags as `keywords`, the note as `annote`), CSV, or
//! JSON.
//!
//! What goes out comes back: BibTeX, JSON and CSV carry each paper's id
//! (`paperboat-id`, `id`, an `id` column), which paperboat's readers
//! honour, and its text as the file gave it (`$25\times$` stays
//! `$25\times$`), escaped so that the reader reads back what was meant:
//! every BibTeX field is checked against the BibTeX reader's own reading
//! of it as it is written (see `bibtex.rs`). The Markdown list, for
//! people, shows the text as it reads on screen, and JSON and CSV do so
//! when asked ([`Text::Shown`]).
//!
//! Every output is safe to open: links in Markdown only where they are
//! http(s), Markdown's and HTML's characters escaped; CSV cells that a
//! spreadsheet would take for a formula start with `'`; tags and notes
//! were sanitized when the state file was read, paper text when it
//! loaded.

mod bibtex;
mod delimited;
mod json;
mod markdown;
mod names;

use std::io::{self, Write};

pub use bibtex::{bibtex_escape, bibtex_key};
pub use delimited::CSV_COLUMNS;
pub use json::{JsonPaper, Rare};
pub use markdown::{markdown_escape, safe_link};

use crate::corpus::Corpus;
use crate::store::Store;
use crate::text::sanitize;

/// Export formats.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Format {
    /// A Markdown reading list.
    Markdown,
    /// BibTeX entries of the type each paper calls for.
    Bibtex,
    /// A JSON array.
    Json,
    /// CSV with a header row (see [`CSV_COLUMNS`]).
    Csv,
}

/// Which text of a paper JSON and CSV carry.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Text {
    /// As the file gave it (its markup kept): what reads back as the same
    /// paper.
    #[default]
    Source,
    /// As it reads on screen, markup rendered (`$25\times$` → `25×`).
    Shown,
}

/// How an export is written.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Options {
    /// The format.
    pub format: Format,
    /// Which text JSON and CSV carry (BibTeX is LaTeX and Markdown is for
    /// reading, whatever this says).
    pub text: Text,
    /// CSV: a cell that would start a formula in a spreadsheet (`=`, `+`,
    /// `-`, `@`, a tab or carriage return first) gets a `'` in front, as
    /// OWASP advises; paperboat's CSV reader takes it off again.
    pub guard_formulas: bool,
}

impl Options {
    /// `format` with the defaults: source text, formulas guarded.
    pub fn new(format: Format) -> Options {
        Options {
            format,
            text: Text::Source,
            guard_formulas: true,
        }
    }
}

/// Writes papers `indices` of `corpus` in `format` (with the defaults of
/// [`Options::new`]), with their marks, tags and notes from `store`.
pub fn write(
    out: &mut dyn Write,
    format: Format,
    corpus: &Corpus,
    indices: &[usize],
    store: &Store,
) -> io::Result<()> {
    write_with(out, Options::new(format), corpus, indices, store)
}

/// [`write`] as `options` say.
pub fn write_with(
    out: &mut dyn Write,
    options: Options,
    corpus: &Corpus,
    indices: &[usize],
    store: &Store,
) -> io::Result<()> {
    match options.format {
        Format::Json => {
            let papers: Vec<JsonPaper> = indices
                .iter()
                .map(|&i| JsonPaper::new(corpus, i, store, options.text))
                .collect();
            serde_json::to_writer_pretty(&mut *out, &papers)?;
            writeln!(out)
        }
        Format::Markdown => markdown::write(out, corpus, indices, store),
        Format::Bibtex => bibtex::write(out, corpus, indices, store),
        Format::Csv => delimited::write(out, corpus, indices, store, options),
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

/// A paper's title or abstract as `text` asks: as written, or rendered.
fn shown(text: Text, source: &str) -> std::borrow::Cow<'_, str> {
    match text {
        Text::Source => std::borrow::Cow::Borrowed(source),
        Text::Shown => std::borrow::Cow::Owned(crate::text::markup::plain(source)),
    }
}

#[cfg(test)]
mod tests;
