//! CSV and TSV lists: one paper per row.
//!
//! Spreadsheets, dataset dumps and database exports (Scopus and Lens CSV,
//! Zotero CSV, Web of Science tab-delimited, machine-learning datasets)
//! are the other common way lists of abstracts travel. The `csv` crate does
//! the splitting; this module decides what the columns mean.
//!
//! **Header.** The first row is a header when one of its cells names a
//! title or abstract column. Names match case-insensitively, ignoring
//! spaces and punctuation (`Article Title`, `paper_title`, `Author/s`),
//! best name first:
//!
//! - title: title, article title, paper title, document title, primary
//!   title, TI, T1;
//! - abstract: abstract, abstracts, abstract text, abstract note, paper
//!   abstract, AB, N2, summary, description;
//! - authors: authors, author, author names, author list, creators, AF, AU,
//!   A1;
//! - year: year, publication year, pub year, year published, PY; else the
//!   first four-digit year of date, publication date, date published, pub
//!   date, published, issued, cover date, DA, Y1;
//! - venue: venue, journal, journal title, journal name, source title,
//!   publication title, conference, conference name, booktitle, container
//!   title, secondary title, publication venue, SO, JO, JF, T2, and last the
//!   ambiguous source (Scopus uses it for the database's name) and
//!   publication;
//! - DOI: doi, DI, DO (a `doi:` or doi.org prefix is stripped; a value that
//!   is not `10.<digits>/…` is dropped), else a doi.org link;
//! - links: url, urls, link, links, pdf url, pdf link, pdf, UR, forum,
//!   forum url, forum link (OpenReview's page of a paper; http and https
//!   only);
//! - arXiv id: arxiv, arxiv id, eprint, arxiv number; else an arXiv DOI or
//!   arxiv.org link;
//! - keywords: keywords, keyword, author keywords, KW, DE (split on `;`,
//!   else `,`);
//! - arXiv categories: categories (split on spaces, `;` and `,`);
//! - the id paperboat's CSV export writes: id, paperboat id (taken only
//!   when it is written as paperboat writes ids, `doi:…`, `arxiv:…`,
//!   `openreview:…` or 16 hex digits: see `PaperId::exported`).
//!
//! When several columns name one field, the best-named non-empty one in
//! each row wins. Authors split on `;`, else on ` and ` (each part then
//! split on commas if every comma-separated piece has two or more words),
//! else on commas when every piece has two or more words (`Jane Smith, Li
//! Wu`, `Smith J, Wu L`); `Smith, Jane` stays one name, shown given name
//! first (`Jane Smith`) as every format shows names. A cell written
//! as a Python list (`'Ruochen Wang', 'Ting Liu'`, brackets or not, as
//! scripts that build lists from OpenReview write them) is its strings.
//!
//! A cell that starts with `'` and then a character that starts a
//! formula in a spreadsheet (`=`, `+`, `-`, `@`, a tab or carriage
//! return) is read without the `'`: it was put there to keep the cell
//! from running as a formula (paperboat's CSV export does so).
//!
//! **Rows.** Every row must have as many fields as the header (extra empty
//! fields at the end are allowed, and a row may stop short of the header's
//! empty trailing cells); a row that does not is reported in
//! [`Parsed::skipped`] with its line (`3 fields, header has 5`) and the rest
//! load. Blank rows are ignored. A UTF-8 BOM is dropped; lines end with LF,
//! CRLF or a lone CR. Lines are counted in the file itself, so quoted fields
//! holding newlines keep later rows' line numbers right.
//!
//! **Rows split by unquoted commas.** A row with too many fields is put
//! back together when the columns' values have shapes (a link, an id, a
//! year, a decision, a list of names) that allow exactly one way of joining
//! its extra fields back into its text columns (see `rejoin`); such rows are
//! counted in [`Parsed::repaired`]. A row that allows several ways is
//! reported as such.
//!
//! **Quotes.** CSV always honours `"` quoting; a row whose quote never
//! closes costs its own line, not the rest of the file. TSV often has none, and a
//! title such as `"Externality" and the Coase theorem` would swallow the
//! rest of the file; so a tab-separated file honours quoting only when every
//! field that opens with `"` closes right before a delimiter or line end,
//! and otherwise reads quotes as ordinary characters.
//!
//! **No header.** Datasets often come without one: rows of
//! `to title<TAB>abstract<TAB>title`, say. When the first row names no
//! title or abstract column, the columns are inferred from the content when
//! that is clear. Over the rows
//! with the common field count (after the first), a column is *text* when at
//! least 90% of its values differ (a constant label column is not) and at
//! least half hold a letter (ids and numbers do not). The abstract is the
//! text column with the widest average display width, and it is clear when
//! that average is at least 160 columns (about 160 Latin or 80 CJK
//! characters) and twice that of every other text column. The title is the
//! widest remaining text column, taken when it is at least 1.5 times as
//! wide as the next one (otherwise titles are left to be derived). If the
//! first row names other known columns (say `authors`, `year`), it is a
//! header for those and only the unnamed columns are candidates. If it names
//! none, it is still taken as a header when all its cells are short (at
//! most 40 columns) and its abstract cell is under a quarter of the
//! column's average. When the abstract is not clear, nothing loads, and the
//! one skipped entry is line 1: `no header naming a title or abstract
//! column`.
//!
//! Text fields have their whitespace folded to single spaces (an
//! abstract's blank lines stay paragraph breaks) and are otherwise kept
//! as written; sanitizing happens later, in [`Record::into_paper`].

mod rejoin;

use std::collections::HashSet;

use unicode_width::UnicodeWidthStr;

use super::ris::fold;
use super::{Format, Reader, fold_paragraphs, head_lines};
use crate::corpus::fields::{arxiv_in, doi, split_list_cell, split_name_cell, year_in};
use crate::corpus::{Authors, More, PaperId, Parsed, Record};
use rejoin::{Rejoined, Shapes};

/// What a column holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Role {
    Title,
    Abstract,
    Authors,
    Year,
    Venue,
    Doi,
    Url,
    Arxiv,
    Keywords,
    Categories,
    /// A paperboat export's id column (kept only when it holds an id as
    /// paperboat writes them).
    Id,
}

/// Header names for each role, best first, normalised by [`normalise`].
const NAMES: &[(Role, &[&str])] = &[
    (
        Role::Title,
        &[
            "title",
            "articletitle",
            "papertitle",
            "documenttitle",
            "primarytitle",
            "ti",
            "t1",
        ],
    ),
    (
        Role::Abstract,
        &[
            "abstract",
            "abstracts",
            "abstracttext",
            "abstractnote",
            "paperabstract",
            "ab",
            "n2",
            "summary",
            "description",
        ],
    ),
    (
        Role::Authors,
        &[
            "authors",
            "author",
            "authornames",
            "authorlist",
            "creators",
            "af",
            "au",
            "a1",
        ],
    ),
    (
        Role::Year,
        &[
            "year",
            "publicationyear",
            "pubyear",
            "yearpublished",
            "py",
            "date",
            "publicationdate",
            "datepublished",
            "pubdate",
            "published",
            "issued",
            "coverdate",
            "da",
            "y1",
        ],
    ),
    (
        Role::Venue,
        &[
            "venue",
            "journal",
            "journaltitle",
            "journalname",
            "sourcetitle",
            "publicationtitle",
            "conference",
            "conferencename",
            "booktitle",
            "containertitle",
            "secondarytitle",
            "publicationvenue",
            "so",
            "jo",
            "jf",
            "t2",
            // Ambiguous: Scopus's `Source` column names the database.
            "source",
            "publication",
        ],
    ),
    (Role::Doi, &["doi", "di", "do"]),
    (
        Role::Url,
        &[
            "url",
            "urls",
            "link",
            "links",
            "pdfurl",
            "pdflink",
            "pdf",
            "ur",
            "forum",
            "forumurl",
            "forumlink",
        ],
    ),
    (Role::Arxiv, &["arxiv", "arxivid", "eprint", "arxivnumber"]),
    (
        Role::Keywords,
        &["keywords", "keyword", "authorkeywords", "kw", "de"],
    ),
    (Role::Categories, &["categories"]),
    (Role::Id, &["id", "paperboatid"]),
];

/// Reason given when no column can be taken as the title or abstract.
const NO_COLUMNS: &str = "no header naming a title or abstract column";

/// Average display width from which a column reads as abstracts.
const MIN_ABSTRACT_WIDTH: f64 = 160.0;

/// Widest cell of a first row still taken as a header of unknown names.
const MAX_HEADER_CELL: usize = 40;

/// `Article Title` → `articletitle`.
fn normalise(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The role a header cell names, and how good a name it is (0 = best).
fn role(name: &str) -> Option<(Role, usize)> {
    let name = normalise(name);
    NAMES
        .iter()
        .find_map(|(role, names)| names.iter().position(|n| *n == name).map(|i| (*role, i)))
}

/// One row: its 1-based start line and its fields.
struct Row {
    line: usize,
    fields: Vec<String>,
}

impl Row {
    /// The field at `col`, trimmed, unless blank; without the `'` a
    /// writer put before a cell that would start a formula (`'=…`,
    /// `'-…`, as paperboat's export and OWASP's advice write them).
    fn get(&self, col: usize) -> Option<&str> {
        self.fields
            .get(col)
            .map(|f| {
                let f = f.trim();
                match f.strip_prefix('\'') {
                    Some(rest) if rest.starts_with(['=', '+', '-', '@', '\t', '\r']) => rest,
                    _ => f,
                }
            })
            .filter(|f| !f.is_empty())
    }

    /// True when the row has `width` fields, allowing empty extra ones.
    fn fits(&self, width: usize) -> bool {
        self.fields.len() == width
            || (self.fields.len() > width
                && self.fields[width..].iter().all(|f| f.trim().is_empty()))
    }

    /// The number of fields up to the last non-blank one.
    fn used(&self) -> usize {
        self.fields
            .iter()
            .rposition(|f| !f.trim().is_empty())
            .map_or(0, |i| i + 1)
    }
}

/// Which columns hold which fields, best first for each.
struct Columns(Vec<(Role, usize)>);

impl Columns {
    /// From a header: each named cell, ordered by name rank then position.
    fn from_header(named: &[Option<(Role, usize)>]) -> Columns {
        let mut cols: Vec<(usize, usize, Role)> = named
            .iter()
            .enumerate()
            .filter_map(|(col, n)| n.map(|(role, rank)| (rank, col, role)))
            .collect();
        cols.sort_by_key(|&(rank, col, _)| (rank, col));
        Columns(cols.into_iter().map(|(_, col, role)| (role, col)).collect())
    }

    /// The columns holding `role`, best first.
    fn of(&self, role: Role) -> impl Iterator<Item = usize> + '_ {
        self.0
            .iter()
            .filter(move |(r, _)| *r == role)
            .map(|(_, c)| *c)
    }

    /// The first non-blank value of `role` in `row`.
    fn value<'r>(&self, row: &'r Row, role: Role) -> Option<&'r str> {
        self.of(role).find_map(|c| row.get(c))
    }

    /// The record of one data row.
    fn record(&self, row: &Row) -> Record {
        let text = |role| self.value(row, role).map(fold).filter(|s| !s.is_empty());
        let mut urls: Vec<String> = Vec::new();
        let mut words: Vec<&str> = Vec::new();
        for col in self.of(Role::Url) {
            for w in row.get(col).unwrap_or_default().split_whitespace() {
                let w = w.trim_end_matches([';', ',']);
                words.push(w);
                let lower = w.to_ascii_lowercase();
                if (lower.starts_with("http://") || lower.starts_with("https://"))
                    && !urls.iter().any(|u| u == w)
                {
                    urls.push(w.to_string());
                }
            }
        }
        let doi = self
            .of(Role::Doi)
            .find_map(|c| row.get(c).and_then(doi))
            .or_else(|| {
                words
                    .iter()
                    .filter(|w| w.to_ascii_lowercase().contains("doi.org/"))
                    .find_map(|w| doi(w))
            });
        let arxiv = self
            .of(Role::Arxiv)
            .find_map(|c| row.get(c).and_then(|v| arxiv_in(v, true)))
            .or_else(|| doi.as_deref().and_then(|d| arxiv_in(d, false)))
            .or_else(|| words.iter().find_map(|w| arxiv_in(w, false)));
        Record {
            title: text(Role::Title),
            abstract_text: self
                .value(row, Role::Abstract)
                .map(fold_paragraphs)
                .filter(|s| !s.is_empty()),
            authors: Authors::from_written(
                self.value(row, Role::Authors)
                    .map(split_name_cell)
                    .unwrap_or_default(),
            ),
            year: self
                .of(Role::Year)
                .find_map(|c| row.get(c).and_then(year_in)),
            venue: text(Role::Venue),
            urls,
            arxiv,
            doi,
            key: None,
            volume: None,
            line: row.line,
            former_id: None,
            given_id: self.value(row, Role::Id).and_then(PaperId::exported),
            more: More {
                keywords: self
                    .value(row, Role::Keywords)
                    .map(split_list_cell)
                    .unwrap_or_default(),
                categories: self
                    .value(row, Role::Categories)
                    .map(|c| {
                        c.split([' ', ';', ','])
                            .filter(|c| !c.is_empty())
                            .map(str::to_string)
                            .collect()
                    })
                    .unwrap_or_default(),
                ..More::default()
            }
            .into(),
        }
    }
}

/// Parses delimited text with `delimiter` (b',' for CSV, b'\t' for TSV).
pub fn parse(text: &str, delimiter: u8) -> Parsed {
    let mut parsed = Parsed::default();
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let quoting = delimiter != b'\t' || quotes_are_quoting(text, delimiter);
    let rows = read_rows(text, delimiter, quoting, &mut parsed.skipped);
    let Some(first) = rows.first() else {
        return parsed;
    };
    let named: Vec<Option<(Role, usize)>> = first.fields.iter().map(|f| role(f)).collect();
    let names_content = named
        .iter()
        .flatten()
        .any(|(r, _)| matches!(r, Role::Title | Role::Abstract));
    let (columns, data, width, against) = if names_content {
        (
            Columns::from_header(&named),
            &rows[1..],
            first.fields.len(),
            "header has",
        )
    } else {
        match infer(&rows, &named) {
            Some(inferred) => inferred,
            None => {
                parsed.skipped = vec![(1, NO_COLUMNS.to_string())];
                return parsed;
            }
        }
    };
    // The shapes of the columns, learnt when a row first has too many
    // fields (see `rejoin`).
    let mut shapes: Option<Shapes> = None;
    for row in data {
        // A header's empty trailing cells name nothing: rows may stop short
        // of them.
        let short_of_empty_cells =
            names_content && (first.used()..=width).contains(&row.fields.len());
        if row.fits(width) || short_of_empty_cells {
            parsed.records.push(columns.record(row));
            continue;
        }
        let mut why = format!(
            "{} field{}, {against} {width}",
            row.fields.len(),
            if row.fields.len() == 1 { "" } else { "s" }
        );
        if row.fields.len() > width {
            let shapes = shapes.get_or_insert_with(|| {
                let fitting: Vec<&Row> = data.iter().filter(|r| r.fields.len() == width).collect();
                Shapes::learn(&fitting, width, |col| {
                    columns.0.iter().find(|(_, c)| *c == col).map(|(r, _)| *r)
                })
            });
            match shapes.rejoin(&row.fields, delimiter) {
                Rejoined::One(fields) => {
                    parsed.records.push(columns.record(&Row {
                        line: row.line,
                        fields,
                    }));
                    parsed.repaired += 1;
                    continue;
                }
                Rejoined::Ways(0) => {}
                Rejoined::Ways(_) => why.push_str(": more than one way to join them back"),
            }
        }
        parsed.skipped.push((row.line, why));
    }
    parsed
}

/// How many times a file is read on after a quote that never closes (each
/// such quote costs a read to the end of the file).
const MOST_UNCLOSED: usize = 16;

/// Reads the rows with their start lines, dropping blank ones. A row whose
/// quote never closes (its quoted field runs over line ends to the end of
/// the file) costs its own line: it is skipped and the reading goes on
/// from the next line.
fn read_rows(
    text: &str,
    delimiter: u8,
    quoting: bool,
    skipped: &mut Vec<(usize, String)>,
) -> Vec<Row> {
    let builder = {
        let mut b = csv::ReaderBuilder::new();
        b.delimiter(delimiter)
            .has_headers(false)
            .flexible(true)
            .quoting(quoting);
        b
    };
    let mut record = csv::ByteRecord::new();
    let mut rows: Vec<Row> = Vec::new();
    let mut lines = LineCounter::new(text);
    let bytes = text.as_bytes();
    let mut base = 0;
    let mut unclosed = 0;
    let mut reader = builder.from_reader(bytes);
    loop {
        match reader.read_byte_record(&mut record) {
            Ok(true) => {
                let offset = base + record.position().map_or(0, |p| p.byte() as usize);
                let end = base + reader.position().byte() as usize;
                // Its last field runs over line ends to the end of the
                // file, which does not end with the quote that would close
                // it.
                let runaway = end >= bytes.len()
                    && record
                        .iter()
                        .next_back()
                        .is_some_and(|f| f.contains(&b'\n') || f.contains(&b'\r'))
                    && !text.trim_end_matches(['\r', '\n']).ends_with('"');
                if quoting
                    && runaway
                    && !rows.is_empty()
                    && unclosed < MOST_UNCLOSED
                    && let Some(next) = next_line(bytes, offset)
                {
                    // A quote that never closes took the rest of the file.
                    let line = lines.start_line(offset as u64);
                    skipped.push((line, "a quote that is never closed".to_string()));
                    unclosed += 1;
                    base = next;
                    reader = builder.from_reader(&bytes[base..]);
                    continue;
                }
                let fields: Vec<String> = record
                    .iter()
                    .map(|f| String::from_utf8_lossy(f).into_owned())
                    .collect();
                if fields.iter().all(|f| f.trim().is_empty()) {
                    continue;
                }
                rows.push(Row {
                    line: lines.start_line(offset as u64),
                    fields,
                });
            }
            Ok(false) => break,
            Err(e) => {
                // Reading from memory cannot fail; never loop on it if it does.
                let line = lines.start_line(base as u64 + reader.position().byte());
                skipped.push((line, format!("unreadable: {e}")));
                break;
            }
        }
    }
    rows
}

/// The start of the line after the one that byte `offset` (not a line
/// end) is on, when a line follows.
fn next_line(text: &[u8], offset: usize) -> Option<usize> {
    let start = offset
        + text
            .get(offset..)?
            .iter()
            .position(|&c| c != b'\r' && c != b'\n')?;
    let end = start
        + text[start..]
            .iter()
            .position(|&c| c == b'\n' || c == b'\r')?;
    let next = end + 1 + usize::from(text[end] == b'\r' && text.get(end + 1) == Some(&b'\n'));
    (next < text.len()).then_some(next)
}

/// Line numbers for the csv crate's record offsets. A record's offset is
/// where the reader stood when it began, before the previous line's end and
/// any blank lines, so those are stepped over first (the crate's own line
/// count is off by them with CRLF ends and blank lines). Lines end with LF,
/// CRLF or a lone CR, as records do in the csv crate.
struct LineCounter<'a> {
    text: &'a [u8],
    offset: usize,
    line: usize,
}

impl LineCounter<'_> {
    fn new(text: &str) -> LineCounter<'_> {
        LineCounter {
            text: text.as_bytes(),
            offset: 0,
            line: 1,
        }
    }

    /// The 1-based line of the first byte at or after `offset` that is not
    /// a line end. Offsets must not decrease.
    fn start_line(&mut self, offset: u64) -> usize {
        let mut start = usize::try_from(offset).map_or(self.text.len(), |o| o.min(self.text.len()));
        while matches!(self.text.get(start), Some(b'\r' | b'\n')) {
            start += 1;
        }
        if start > self.offset {
            let span = &self.text[self.offset..start];
            self.line += span
                .iter()
                .enumerate()
                .filter(|&(i, &b)| {
                    b == b'\n' || (b == b'\r' && self.text.get(self.offset + i + 1) != Some(&b'\n'))
                })
                .count();
            self.offset = start;
        }
        self.line
    }
}

/// False when some field opens with `"` but does not close right before a
/// delimiter or line end (`"Externality" and …`), or never closes: then
/// the writer did not quote, and quotes are ordinary characters.
fn quotes_are_quoting(text: &str, delimiter: u8) -> bool {
    let b = text.as_bytes();
    let ends_field = |c: u8| c == delimiter || c == b'\n' || c == b'\r';
    let mut field_start = true;
    let mut i = 0;
    while i < b.len() {
        if field_start && b[i] == b'"' {
            i += 1;
            loop {
                let Some(p) = b[i..].iter().position(|&c| c == b'"') else {
                    return false;
                };
                i += p + 1;
                if b.get(i) == Some(&b'"') {
                    i += 1;
                } else {
                    break;
                }
            }
            match b.get(i) {
                None => return true,
                Some(&c) if ends_field(c) => field_start = false,
                Some(_) => return false,
            }
            continue;
        }
        field_start = ends_field(b[i]);
        i += 1;
    }
    true
}

/// Statistics of one candidate column.
struct ColumnStats {
    col: usize,
    /// Mean display width of the trimmed values.
    width: f64,
    /// Most values differ and most hold a letter.
    text: bool,
}

fn column_stats(rows: &[&Row], col: usize) -> ColumnStats {
    let values: Vec<&str> = rows
        .iter()
        .map(|r| r.fields.get(col).map_or("", |f| f.trim()))
        .collect();
    let n = values.len().max(1) as f64;
    let distinct = values.iter().collect::<HashSet<_>>().len() as f64;
    let lettered = values
        .iter()
        .filter(|v| v.chars().any(char::is_alphabetic))
        .count() as f64;
    let width = values.iter().map(|v| v.width() as f64).sum::<f64>() / n;
    ColumnStats {
        col,
        width,
        text: distinct >= 0.9 * n && lettered >= 0.5 * n,
    }
}

/// Inferred columns for a file whose first row names no title or abstract:
/// (columns, the data rows, expected field count, wording for mismatches).
fn infer<'a>(
    rows: &'a [Row],
    named: &[Option<(Role, usize)>],
) -> Option<(Columns, &'a [Row], usize, &'static str)> {
    let names_some = named.iter().any(Option::is_some);
    let width = if names_some {
        rows[0].fields.len()
    } else {
        common_width(rows)
    };
    // The first row is left out of the statistics: it may be a header.
    let sample: Vec<&Row> = rows[1..].iter().filter(|r| r.fits(width)).collect();
    if sample.len() < 2 {
        return None;
    }
    let mut text: Vec<ColumnStats> = (0..width)
        .filter(|&c| named.get(c).is_none_or(Option::is_none))
        .map(|c| column_stats(&sample, c))
        .filter(|s| s.text)
        .collect();
    text.sort_by(|a, b| b.width.total_cmp(&a.width).then(a.col.cmp(&b.col)));
    let abstract_col = text.first()?;
    let clear = abstract_col.width >= MIN_ABSTRACT_WIDTH
        && text
            .get(1)
            .is_none_or(|next| abstract_col.width >= 2.0 * next.width);
    if !clear {
        return None;
    }
    let title_col = text
        .get(1)
        .filter(|t| text.get(2).is_none_or(|next| t.width >= 1.5 * next.width));
    let mut columns = if names_some {
        Columns::from_header(named)
    } else {
        Columns(Vec::new())
    };
    columns.0.push((Role::Abstract, abstract_col.col));
    if let Some(t) = title_col {
        columns.0.push((Role::Title, t.col));
    }
    let first = &rows[0];
    let header_like = names_some
        || (first
            .fields
            .iter()
            .all(|f| f.trim().width() <= MAX_HEADER_CELL)
            && (first.get(abstract_col.col).map_or(0, |f| f.width()) as f64) * 4.0
                < abstract_col.width);
    let (data, against) = if names_some {
        (&rows[1..], "header has")
    } else if header_like {
        (&rows[1..], "most rows have")
    } else {
        (rows, "most rows have")
    };
    Some((columns, data, width, against))
}

/// The most common field count (the smaller on a tie).
fn common_width(rows: &[Row]) -> usize {
    let mut counts: Vec<(usize, usize)> = Vec::new();
    for r in rows {
        match counts.iter_mut().find(|(w, _)| *w == r.fields.len()) {
            Some((_, n)) => *n += 1,
            None => counts.push((r.fields.len(), 1)),
        }
    }
    counts
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
        .map_or(0, |(w, _)| w)
}

/// Comma-separated values with a header row.
pub struct Csv;

impl Reader for Csv {
    fn name(&self) -> &'static str {
        "csv"
    }

    fn about(&self) -> &'static str {
        "Comma-separated values with a header row"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["csv"]
    }

    /// The `.csv` hint, or (unless the hint is `.tsv`) a comma-separated
    /// header row naming title or abstract columns, with rows after it.
    fn sniff(&self, head: &str, hint: Option<Format>) -> bool {
        hint == Some(Format::CSV)
            || (hint != Some(Format::TSV) && header_delimiter(head) == Some(b','))
    }

    fn parse(&self, text: &str) -> Parsed {
        parse(text, b',')
    }
}

/// Tab-separated values with a header row.
pub struct Tsv;

impl Reader for Tsv {
    fn name(&self) -> &'static str {
        "tsv"
    }

    fn about(&self) -> &'static str {
        "Tab-separated values with a header row"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["tsv", "tab"]
    }

    /// The `.tsv` hint, or a header row with tabs naming title or abstract
    /// columns.
    fn sniff(&self, head: &str, hint: Option<Format>) -> bool {
        hint == Some(Format::TSV) || header_delimiter(head) == Some(b'\t')
    }

    fn parse(&self, text: &str) -> Parsed {
        parse(text, b'\t')
    }
}

/// The delimiter of a first line that reads as a header row naming title
/// or abstract columns: a tab when it has one, else a comma when it has
/// one and rows follow.
fn header_delimiter(head: &str) -> Option<u8> {
    let mut lines = head_lines(head, 2);
    let first = lines.next()?;
    let lower = first.to_lowercase();
    if !(lower.contains("title") || lower.contains("abstract")) {
        return None;
    }
    if first.contains('\t') {
        Some(b'\t')
    } else if first.contains(',') && lines.next().is_some() {
        Some(b',')
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn titles(p: &Parsed) -> Vec<Option<&str>> {
        p.records.iter().map(|r| r.title.as_deref()).collect()
    }

    #[test]
    fn reads_every_field() {
        let p = parse(
            concat!(
                "Title,Abstract,Authors,Year,Journal,DOI,URL,arxiv_id\n",
                "A  title,\"An abstract,\nover two lines.\",\"Jane Smith, Li Wu\",2021,Venue,https://doi.org/10.1/X,https://e.org/p http://e.org/q,2401.01234v2\n",
                "Second,,,,,,,\n",
            ),
            b',',
        );
        assert!(p.skipped.is_empty(), "{:?}", p.skipped);
        assert!(p.header.is_none());
        let r = &p.records[0];
        assert_eq!(r.line, 2);
        assert_eq!(r.title.as_deref(), Some("A title"));
        assert_eq!(
            r.abstract_text.as_deref(),
            Some("An abstract, over two lines.")
        );
        assert_eq!(r.authors, ["Jane Smith", "Li Wu"]);
        assert_eq!(r.year, Some(2021));
        assert_eq!(r.venue.as_deref(), Some("Venue"));
        assert_eq!(r.doi.as_deref(), Some("10.1/X"));
        assert_eq!(r.urls, ["https://e.org/p", "http://e.org/q"]);
        assert_eq!(r.arxiv.as_deref(), Some("2401.01234v2"));
        let r = &p.records[1];
        assert_eq!(r.line, 4, "the quoted newline counts");
        assert_eq!(r.title.as_deref(), Some("Second"));
        assert_eq!(r.abstract_text, None);
        assert!(r.authors.is_empty());
    }

    #[test]
    fn header_names_are_normalised() {
        for (header, want) in [
            ("Article Title", Role::Title),
            ("paper_title", Role::Title),
            ("TI", Role::Title),
            ("Abstract Note", Role::Abstract),
            ("AB", Role::Abstract),
            ("summary", Role::Abstract),
            ("Author/s", Role::Authors),
            ("AU", Role::Authors),
            ("Publication Year", Role::Year),
            ("publication_date", Role::Year),
            ("Source Title", Role::Venue),
            ("Publication Title", Role::Venue),
            ("DI", Role::Doi),
            ("pdf_url", Role::Url),
            ("Link", Role::Url),
            ("eprint", Role::Arxiv),
        ] {
            assert_eq!(role(header).map(|r| r.0), Some(want), "{header}");
        }
        assert_eq!(role("to title"), None);
        assert_eq!(role("Item Type"), None);
        assert_eq!(role(""), None);
    }

    #[test]
    fn export_headers() {
        // Scopus CSV (abridged): `Source` names the database.
        let p = parse(
            concat!(
                "\u{FEFF}Authors,Author full names,Title,Year,Source title,Volume,DOI,Link,Abstract,Source,EID\n",
                "\"Labanski A., Langhorst J.\",\"Labanski, Anna (1); Langhorst, J. (2)\",Stress and the brain-gut axis,2020,Psychoneuroendocrinology,111,10.1016/j.psyneuen.2019.104501,https://www.scopus.com/inward/record.uri?eid=2-s2.0-85,The broad role of stress.,Scopus,2-s2.0-85\n",
            ),
            b',',
        );
        assert!(p.skipped.is_empty(), "{:?}", p.skipped);
        let r = &p.records[0];
        assert_eq!(r.authors, ["Labanski A.", "Langhorst J."]);
        assert_eq!(r.venue.as_deref(), Some("Psychoneuroendocrinology"));
        assert_eq!(r.year, Some(2020));
        assert_eq!(r.doi.as_deref(), Some("10.1016/j.psyneuen.2019.104501"));
        assert_eq!(
            r.abstract_text.as_deref(),
            Some("The broad role of stress.")
        );
        assert_eq!(r.urls.len(), 1);
        // Zotero CSV (abridged).
        let p = parse(
            concat!(
                "\"Key\",\"Item Type\",\"Publication Year\",\"Author\",\"Title\",\"Publication Title\",\"DOI\",\"Url\",\"Abstract Note\",\"Date\",\"Date Added\"\n",
                "\"K1\",\"journalArticle\",\"2021\",\"van de Schoot, Rens; de Bruin, Jonathan\",\"An open source machine learning framework\",\"Nature Machine Intelligence\",\"10.1038/s42256-020-00287-7\",\"https://www.nature.com/articles/s42256-020-00287-7\",\"To help researchers.\",\"2021-02-01\",\"2022-01-01 10:00:00\"\n",
            ),
            b',',
        );
        let r = &p.records[0];
        assert_eq!(r.authors, ["Rens van de Schoot", "Jonathan de Bruin"]);
        assert_eq!(r.venue.as_deref(), Some("Nature Machine Intelligence"));
        assert_eq!(r.year, Some(2021));
        assert_eq!(r.abstract_text.as_deref(), Some("To help researchers."));
        // Lens CSV (abridged).
        let p = parse(
            "Lens ID,Title,Date Published,Source Title,Author/s,Abstract,DOI\n000-1,T,2012-07-03,Molecular imaging and biology,Björn A. Blomberg; Mateen Moghbel,A.,10.1007/s11307-012-0572-0\n",
            b',',
        );
        let r = &p.records[0];
        assert_eq!(r.authors, ["Björn A. Blomberg", "Mateen Moghbel"]);
        assert_eq!(r.year, Some(2012));
        assert_eq!(r.venue.as_deref(), Some("Molecular imaging and biology"));
    }

    #[test]
    fn better_names_win_and_fall_back_per_row() {
        let p = parse(
            "date,TI,title,Publication Year\n2001-02-03,Short,Long title,\n2001-02-03,Short,,1999\n",
            b',',
        );
        assert_eq!(titles(&p), [Some("Long title"), Some("Short")]);
        assert_eq!(p.records[0].year, Some(2001), "date when the year is empty");
        assert_eq!(p.records[1].year, Some(1999), "the year column first");
    }

    #[test]
    fn wrong_field_counts_are_skipped() {
        let p = parse(
            "title,abstract,,\nOne,a\nTwo,b,,\nThree\nFour,d,,,x\n",
            b',',
        );
        assert_eq!(titles(&p), [Some("One"), Some("Two")]);
        assert_eq!(
            p.skipped,
            [
                (4, "1 field, header has 4".to_string()),
                (5, "5 fields, header has 4".to_string())
            ]
        );
        let p = parse(
            "title,abstract,year\nOne,a,2001\nTwo,b\n\"Three, with comma\",c,2003\nFour,d,2004,extra\nFive,e,2005,,\n",
            b',',
        );
        assert_eq!(
            titles(&p),
            [Some("One"), Some("Three, with comma"), Some("Five")]
        );
        assert_eq!(
            p.skipped,
            [
                (3, "2 fields, header has 3".to_string()),
                (5, "4 fields, header has 3".to_string()),
            ]
        );
    }

    #[test]
    fn a_quote_that_never_closes_costs_its_line() {
        let p = parse(
            "title,abstract\nFirst,\"A,\nb\"\nSecond,\"unclosed\r\nThird,ok\nFourth,fine\n",
            b',',
        );
        assert_eq!(titles(&p), [Some("First"), Some("Third"), Some("Fourth")]);
        assert_eq!(p.records[0].abstract_text.as_deref(), Some("A, b"));
        let lines: Vec<_> = p.records.iter().map(|r| r.line).collect();
        assert_eq!(lines, [2, 5, 6]);
        assert_eq!(p.skipped, [(4, "a quote that is never closed".to_string())]);
        // The last row: nothing after it to read.
        let p = parse("title,abstract\nFirst,a\nSecond,\"unclosed\n", b',');
        assert_eq!(titles(&p), [Some("First"), Some("Second")]);
    }

    #[test]
    fn line_numbers_survive_multiline_fields() {
        let p = parse(
            "title,abstract\r\n\"A\",\"one\r\ntwo\r\nthree\"\r\n\r\nB,\"x\ny\"\nC,z,extra\nD,w\n",
            b',',
        );
        let lines: Vec<_> = p.records.iter().map(|r| r.line).collect();
        assert_eq!(lines, [2, 6, 9]);
        assert_eq!(p.records[0].abstract_text.as_deref(), Some("one two three"));
        assert_eq!(p.skipped, [(8, "3 fields, header has 2".to_string())]);
    }

    #[test]
    fn bom_crlf_and_lone_cr() {
        let p = parse("\u{FEFF}Title,Abstract\r\nA,B\r\n", b',');
        assert_eq!(titles(&p), [Some("A")]);
        let p = parse("title,abstract\rA,B\rC,D\r", b',');
        assert_eq!(titles(&p), [Some("A"), Some("C")]);
        assert_eq!(p.records[1].line, 3);
        let p = parse("title,abstract\nA,B\r\n\r\nC,D\rE,F\n", b',');
        let lines: Vec<_> = p.records.iter().map(|r| r.line).collect();
        assert_eq!(lines, [2, 4, 5]);
    }

    #[test]
    fn tsv_with_header() {
        let p = parse(
            "PT\tAU\tTI\tSO\tAB\tPY\tDI\t\nJ\tSmith, J; Wu, L\tA study\tJ. Things\tWe study.\t2020\t10.1/a\t\n",
            b'\t',
        );
        assert!(p.skipped.is_empty(), "{:?}", p.skipped);
        let r = &p.records[0];
        assert_eq!(r.title.as_deref(), Some("A study"));
        assert_eq!(r.authors, ["J Smith", "L Wu"]);
        assert_eq!(r.venue.as_deref(), Some("J. Things"));
        assert_eq!(r.doi.as_deref(), Some("10.1/a"));
        assert_eq!(r.year, Some(2020));
    }

    #[test]
    fn tsv_quotes() {
        // Unquoted TSV: a title opening with a quote stays as written.
        let p = parse(
            "title\tabstract\n\"Externality\" and Coase\tText with \"quotes\n\"Next\"\tMore\n",
            b'\t',
        );
        assert_eq!(
            titles(&p),
            [Some("\"Externality\" and Coase"), Some("\"Next\"")]
        );
        assert_eq!(
            p.records[0].abstract_text.as_deref(),
            Some("Text with \"quotes")
        );
        // Quoted TSV: a field holding a tab and a newline.
        let p = parse(
            "title\tabstract\n\"A\tB\"\t\"one\ntwo \"\"q\"\"\"\nC\tD\n",
            b'\t',
        );
        assert_eq!(titles(&p), [Some("A B"), Some("C")]);
        assert_eq!(p.records[0].abstract_text.as_deref(), Some("one two \"q\""));
        assert_eq!(p.records[1].line, 4);
        assert!(!quotes_are_quoting("\"never closes\tx\n", b'\t'));
        assert!(quotes_are_quoting("a\t\"b\"\n\"c\"", b'\t'));
        assert!(quotes_are_quoting("a\tb\"c\n", b'\t'));
        // CSV always honours quotes.
        let p = parse("title,abstract\n\"A\" b,c\n", b',');
        assert_eq!(titles(&p), [Some("A b")]);
    }

    #[test]
    fn author_cells() {
        let s = |c: &str| split_name_cell(c);
        assert_eq!(s("Smith, Jane"), ["Smith, Jane"]);
        assert_eq!(s("Smith, Jane; Wu, Li"), ["Smith, Jane", "Wu, Li"]);
        assert_eq!(s("Jane Smith, Li Wu"), ["Jane Smith", "Li Wu"]);
        assert_eq!(
            s("Smith J., Wu L., Doe K."),
            ["Smith J.", "Wu L.", "Doe K."]
        );
        assert_eq!(s("Smith, Jane and Wu, Li"), ["Smith, Jane", "Wu, Li"]);
        assert_eq!(
            s("Jane Smith, Li Wu, and Kim Doe"),
            ["Jane Smith", "Li Wu", "Kim Doe"]
        );
        assert_eq!(s("van der Berg, Jan"), ["van der Berg, Jan"]);
        assert_eq!(s(" ; "), Vec::<String>::new());
        assert_eq!(s("Jane\nSmith"), ["Jane Smith"]);
    }

    #[test]
    fn ids_from_links() {
        let p = parse(
            "title,url,doi\nA,https://arxiv.org/abs/2401.01234,\nB,https://doi.org/10.5/x,\nC,,10.48550/arXiv.2301.00001\nD,,not a doi\n",
            b',',
        );
        let r = &p.records;
        assert_eq!(r[0].arxiv.as_deref(), Some("2401.01234"));
        assert_eq!(r[0].doi, None);
        assert_eq!(r[1].doi.as_deref(), Some("10.5/x"));
        assert_eq!(r[2].arxiv.as_deref(), Some("2301.00001"));
        assert_eq!(r[3].doi, None);
        let p = parse("title,arxiv\nA,arXiv:2401.01234\nB,nonsense\n", b',');
        assert_eq!(p.records[0].arxiv.as_deref(), Some("2401.01234"));
        assert_eq!(p.records[1].arxiv, None);
    }

    fn long(i: usize) -> String {
        format!(
            "Abstract number {i} says a good deal about the method, the data and the results, \
             and it keeps going for a while, over more than one sentence, so that it reads the way \
             a real abstract would; {i} {i}."
        )
    }

    #[test]
    fn headerless_columns_are_inferred() {
        let mut text = String::new();
        for i in 0..5 {
            text.push_str(&format!("label\t{}\tTitle {i}\t{i}\n", long(i)));
        }
        let p = parse(&text, b'\t');
        assert!(p.skipped.is_empty(), "{:?}", p.skipped);
        assert_eq!(p.records.len(), 5);
        assert_eq!(p.records[0].line, 1, "the first row is data");
        assert_eq!(p.records[0].title.as_deref(), Some("Title 0"));
        assert_eq!(
            p.records[4].abstract_text.as_deref(),
            Some(long(4).as_str())
        );
        // A first row of unknown names is a header.
        let p = parse(&format!("kind\ttext\tname\tn\n{text}"), b'\t');
        assert_eq!(p.records.len(), 5);
        assert_eq!(p.records[0].line, 2);
        // A row with another field count is reported.
        let p = parse(&format!("{text}odd row\t{}\n", long(9)), b'\t');
        assert_eq!(p.records.len(), 5);
        assert_eq!(p.skipped, [(6, "2 fields, most rows have 4".to_string())]);
    }

    #[test]
    fn headerless_with_other_known_names() {
        let mut text = String::from("year,authors,body\n");
        for i in 0..3 {
            text.push_str(&format!("{},Jane Doe,\"{}\"\n", 2000 + i, long(i)));
        }
        let p = parse(&text, b',');
        assert_eq!(p.records.len(), 3);
        let r = &p.records[2];
        assert_eq!((r.line, r.year), (4, Some(2002)));
        assert_eq!(r.authors, ["Jane Doe"]);
        assert_eq!(r.title, None);
        assert_eq!(r.abstract_text.as_deref(), Some(long(2).as_str()));
    }

    #[test]
    fn unclear_files_load_nothing() {
        let unclear = [
            "a,b\nc,d\ne,f\n".to_string(),
            "only,one,row\n".to_string(),
            // Two equally long text columns.
            (0..4)
                .map(|i| format!("{},{}\n", long(i), long(i + 10)))
                .collect(),
            // Long, but one constant value.
            (0..4).map(|_| format!("x,{}\n", long(1))).collect(),
        ];
        for text in unclear {
            let p = parse(&text, b',');
            assert!(p.records.is_empty(), "{text}");
            assert_eq!(p.skipped, [(1, NO_COLUMNS.to_string())], "{text}");
        }
        assert!(parse("", b',').skipped.is_empty());
        assert!(parse("\n\n,,\n", b',').records.is_empty());
    }

    #[test]
    fn header_only_or_empty_values() {
        assert!(parse("title,abstract\n", b',').records.is_empty());
        let p = parse("title,abstract,year\n , ,2001\n", b',');
        assert_eq!(p.records.len(), 1);
        assert_eq!(p.records[0].title, None);
        assert_eq!(p.records[0].abstract_text, None);
    }

    /// Reads a corpus file; a missing folder fails the test loudly.
    macro_rules! corpus {
        ($name:literal) => {{
            let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/corpora/", $name);
            let bytes = std::fs::read(path).unwrap_or_else(|e| {
                panic!("corpus file {path} cannot be read ({e}); it belongs in tests/data/corpora")
            });
            String::from_utf8_lossy(&bytes).into_owned()
        }};
    }

    #[test]
    fn corpus_chinese_abstracts_tsv() {
        let text = corpus!("tsv_csl_chinese_abstracts_dev.tsv");
        assert!(
            !quotes_are_quoting(&text, b'\t'),
            "titles open with bare quotes"
        );
        let p = parse(&text, b'\t');
        assert!(p.skipped.is_empty(), "{:?}", p.skipped);
        let has = |s: &Option<String>| s.as_deref().is_some_and(|s| !s.is_empty());
        assert_eq!(p.records.len(), 1000);
        assert_eq!(p.records.iter().filter(|r| has(&r.title)).count(), 1000);
        assert_eq!(
            p.records.iter().filter(|r| has(&r.abstract_text)).count(),
            1000
        );
        let lines: Vec<usize> = p.records.iter().map(|r| r.line).collect();
        assert_eq!(lines, (1..=1000).collect::<Vec<_>>());
        let first = &p.records[0];
        assert_eq!(
            first.title.as_deref(),
            Some("一种基于平方和优化的飞行器大角度机动镇定控制器设计方法")
        );
        assert!(
            first
                .abstract_text
                .as_deref()
                .unwrap()
                .starts_with("采用修正的Rodrigues参数(MRP),")
        );
        assert!(
            p.records
                .iter()
                .all(|r| r.title.as_deref() != Some("to title"))
        );
        // Bare quotes are kept as written.
        assert!(
            p.records
                .iter()
                .any(|r| r.title.as_deref() == Some("\"外部性\"问题与\"科斯定理\"的伦理追问"))
        );
        // Leading spaces in the abstracts are trimmed.
        assert!(
            p.records
                .iter()
                .all(|r| !r.abstract_text.as_deref().unwrap().starts_with(' '))
        );
    }

    const SAMPLE: &str = "Title,Abstract,Authors,Year,DOI,URL\r\n\"A, title\",\"An \"\"abstract\"\"\nline two\",\"Smith, J; Wu, L\",2020,10.1/x,https://e.org\r\nB,b,Jane Doe,1999,,\r\n";

    /// Structural promises: records in order, lines within the input.
    fn well_formed(text: &str, p: &Parsed) {
        // Lines end with LF, CRLF or a lone CR.
        let n = 1 + text.replace("\r\n", "\n").matches(['\r', '\n']).count();
        assert!(p.records.windows(2).all(|w| w[0].line < w[1].line));
        for r in &p.records {
            assert!(r.line >= 1 && r.line <= n, "line {} of {n}", r.line);
        }
        for (line, why) in &p.skipped {
            assert!(*line >= 1 && *line <= n);
            assert!(!why.is_empty());
        }
    }

    proptest! {
        #[test]
        fn random_text_never_panics(text in "\\PC{0,400}", tab in any::<bool>()) {
            let p = parse(&text, if tab { b'\t' } else { b',' });
            well_formed(&text, &p);
        }

        #[test]
        fn random_cells_never_panic(
            cells in prop::collection::vec("[a-z\"\t,\n\r ]{0,6}|\\PC{0,30}", 0..60),
            tab in any::<bool>(),
        ) {
            let text = cells.concat();
            let p = parse(&text, if tab { b'\t' } else { b',' });
            well_formed(&text, &p);
        }

        #[test]
        fn mutated_records_never_panic(
            edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 1..24),
            tab in any::<bool>(),
        ) {
            let sample = if tab { SAMPLE.replace(',', "\t") } else { SAMPLE.to_string() };
            let mut bytes = sample.into_bytes();
            for (at, byte, op) in edits {
                let i = at.index(bytes.len() + 1);
                match op {
                    0 => bytes.insert(i, byte),
                    1 if i < bytes.len() => { bytes.remove(i); }
                    _ if i < bytes.len() => bytes[i] = byte,
                    _ => {}
                }
            }
            let text = String::from_utf8_lossy(&bytes);
            let p = parse(&text, if tab { b'\t' } else { b',' });
            well_formed(&text, &p);
        }
    }
}
