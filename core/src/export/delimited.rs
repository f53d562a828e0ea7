//! CSV out: a header row, then a row per paper (see [`CSV_COLUMNS`]). The
//! `id` column carries the paper's id, which paperboat's CSV reader
//! honours, and the text is as the file gave it (or rendered:
//! [`Text::Shown`](super::Text::Shown)).
//!
//! A cell a spreadsheet would take for a formula (one starting with `=`,
//! `+`, `-`, `@`, a tab or a carriage return: a title `=HYPERLINK(…)`, a
//! tag `-2+3`) gets a `'` in front, as OWASP advises against CSV
//! injection; spreadsheets show the cell without it, and paperboat's CSV
//! reader takes it off. `Options::guard_formulas` off writes cells as
//! they are.

use std::io::{self, Write};

use super::{Options, names, shown};
use crate::corpus::Corpus;
use crate::store::{Flag, Store};

/// The columns of a CSV export, in order.
pub const CSV_COLUMNS: [&str; 16] = [
    "id",
    "title",
    "abstract",
    "authors",
    "year",
    "venue",
    "doi",
    "arxiv",
    "url",
    "links",
    "keywords",
    "categories",
    "tags",
    "note",
    "bookmarked",
    "read",
];

/// The characters a formula starts with in a spreadsheet (OWASP's list).
pub(crate) const FORMULA_START: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// `cell` as written with the guard on: a `'` before a cell that would
/// start a formula.
fn guarded(cell: &str) -> std::borrow::Cow<'_, str> {
    if cell.starts_with(FORMULA_START) {
        std::borrow::Cow::Owned(format!("'{cell}"))
    } else {
        std::borrow::Cow::Borrowed(cell)
    }
}

pub(super) fn write(
    out: &mut dyn Write,
    corpus: &Corpus,
    indices: &[usize],
    store: &Store,
    options: Options,
) -> io::Result<()> {
    let mut w = ::csv::Writer::from_writer(out);
    w.write_record(CSV_COLUMNS)?;
    for &i in indices {
        let p = &corpus.papers[i];
        let id = p.id.as_str();
        let flag = |f| if store.is_on(id, f) { "true" } else { "false" };
        let note = store
            .note(id)
            .map(|n| super::note_lines(n).join("\n"))
            .unwrap_or_default();
        let abstract_text = p.abstract_text.text();
        let abstract_text = match options.text {
            super::Text::Source => abstract_text,
            super::Text::Shown => {
                std::borrow::Cow::Owned(crate::text::markup::render(&abstract_text).text)
            }
        };
        let links = p.links();
        let (doi, arxiv) = (p.doi(), p.arxiv_id());
        let cells = [
            id,
            &shown(options.text, &p.title),
            &abstract_text,
            &names::cell(&p.authors),
            &p.year.map(|y| y.to_string()).unwrap_or_default(),
            p.venue.as_deref().unwrap_or(""),
            doi.as_deref().unwrap_or(""),
            arxiv.as_deref().unwrap_or(""),
            links.first().map_or("", String::as_str),
            &links.join(" "),
            &p.more().keywords.join("; "),
            &p.more().categories.join(" "),
            &store.tags(id).join("; "),
            &note,
            flag(Flag::Bookmark),
            flag(Flag::Read),
        ];
        if options.guard_formulas {
            w.write_record(cells.iter().map(|c| guarded(c).into_owned()))?;
        } else {
            w.write_record(cells)?;
        }
    }
    w.flush()
}
