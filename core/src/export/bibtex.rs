//! BibTeX out: an entry of the type each paper calls for (`@article`
//! with `journal`, `@inproceedings` with `booktitle`, else `@misc`; an
//! arXiv paper with `eprint`, `archiveprefix` and `primaryclass`), its
//! text written so that paperboat's BibTeX reader reads back what the
//! paper holds, and other readers read valid BibTeX.
//!
//! Each kind of field is written as the BibTeX reader reads it
//! (`corpus::bibtex::value`), and each value is checked against that
//! reading as it is written:
//!
//! - a title or venue, which the reader renders: text without markup
//!   has TeX's special characters escaped (`\&`, `\%`, `\_`, …), so it
//!   reads back as itself; text with markup (`$\alpha$`, `\emph{}`,
//!   `--`) is LaTeX already and is written as it is (its stray `%`, `&`,
//!   `#` escaped), so that LaTeX typesets it and the reader reads it as
//!   the screen shows it (and shows it so again). Should a value not
//!   read back as meant, it is written escaped whole, which does;
//! - an abstract, which the reader keeps as written: as it is, its
//!   paragraphs apart, where BibTeX can hold it (braces that balance);
//! - names: see `names.rs`;
//! - a DOI, URL, eprint or id, which BibTeX readers take as written (a
//!   `url` is verbatim to biblatex): raw, `_`, `%` and `&` unescaped;
//! - tags (`keywords`) and the note (`annote`), which only other readers
//!   read: escaped for LaTeX.
//!
//! The paper's id goes in `paperboat-id`, which paperboat's reader
//! honours: the paper comes back as itself, with its marks.

use std::collections::HashSet;
use std::io::{self, Write};

use super::names;
use crate::corpus::bibtex::value;
use crate::corpus::{Corpus, Paper};
use crate::store::Store;
use crate::text::{markup, sanitize};

/// Escapes text for a braced BibTeX field value so that it reads as
/// itself: TeX's special characters escaped.
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
            c => out.push(c),
        }
    }
    out
}

/// [`bibtex_escape`], with the characters the reader's rendering would
/// take for markup (emphasis, code, dashes, quotes) each in a group of its
/// own, as LaTeX reads them alone: `-{}-`, `{*}`, `{`}`.
fn escape_guarded(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut prev = None;
    for c in text.chars() {
        match c {
            '-' | '\'' | '`' if prev == Some(c) => {
                out.push_str("{}");
                out.push(c);
            }
            '*' | '`' | '[' | ']' | '<' | '>' | '|' => {
                out.push('{');
                out.push(c);
                out.push('}');
            }
            c => out.push_str(&bibtex_escape(c.encode_utf8(&mut [0; 4]))),
        }
        prev = Some(c);
    }
    out
}

/// True when `text` can stand between a value's braces as it is: its
/// braces balance (as BibTeX readers count them, a backslash escaping
/// the next character) and it does not end in a backslash, which would
/// escape the closing brace.
fn holds_as_is(text: &str) -> bool {
    value::balanced(text) && !ends_escaped(text)
}

/// LaTeX written by a file, made safe to stand in a value: `%`, `&` and
/// `#` not escaped already get their backslash (they break LaTeX
/// anywhere).
fn latex_as_written(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut escaped = false;
    for c in text.chars() {
        if matches!(c, '%' | '&' | '#') && !escaped {
            out.push('\\');
        }
        escaped = c == '\\' && !escaped;
        out.push(c);
    }
    pair_dollars(out)
}

/// A title or venue as written: read back by the reader as `text` when
/// it has no markup, else as it reads on screen (see the module's doc).
fn rendered(text: &str) -> String {
    let reads = |w: &str| sanitize::line(&value::line(w));
    let exact = bibtex_escape(text);
    let shown = markup::plain(text);
    if shown == text {
        if reads(&exact) == text {
            return exact;
        }
        let guarded = escape_guarded(text);
        return if reads(&guarded) == text {
            guarded
        } else {
            exact
        };
    }
    // Read back, it must show as it shows now (rendering what it reads
    // again: a rendering is not always the same rendered twice).
    if holds_as_is(text) {
        let written = latex_as_written(text);
        if markup::plain(&reads(&written)) == shown {
            return written;
        }
    }
    exact
}

/// An abstract as the reader keeps it: as written, paragraphs on lines of
/// their own; braces that do not balance, a `$` left open, a backslash at
/// the end and a line that would start an entry (`@article{`) escaped.
fn verbatim(text: &str) -> String {
    let mut out = pair_dollars(if holds_as_is(text) {
        text.to_string()
    } else {
        balance(text)
    });
    if out.contains("\n@") || out.starts_with('@') {
        out = out
            .split('\n')
            .map(|line| match line.strip_prefix('@') {
                Some(rest) => format!("{{@}}{rest}"),
                None => line.to_string(),
            })
            .collect::<Vec<_>>()
            .join("\n");
    }
    out
}

/// `text` with its `$` paired: BibTeX readers (the `biblatex` crate,
/// biber) read math between them and run to the end of the file from a
/// `$` left open, so one of an odd number is escaped (`\$`): the one,
/// of the last few, whose escaping leaves the text showing as it did
/// (the screen takes a `$` that opens no math for a dollar), else the
/// last.
fn pair_dollars(text: String) -> String {
    /// Dollars tried, from the last: each try renders the text once.
    const TRIES: usize = 16;
    let b = text.as_bytes();
    let open: Vec<usize> = (0..b.len())
        .filter(|&i| b[i] == b'$' && !ends_escaped(&text[..i]))
        .collect();
    if open.len().is_multiple_of(2) {
        return text;
    }
    let escaped = |at: usize| format!("{}\\{}", &text[..at], &text[at..]);
    let shown = markup::plain(&text);
    open.iter()
        .rev()
        .take(TRIES)
        .map(|&at| escaped(at))
        .find(|t| markup::plain(t) == shown)
        .unwrap_or_else(|| escaped(open[open.len() - 1]))
}

/// `text` with each brace that has no partner backslashed, and a
/// backslash at its end written `\textbackslash{}`.
fn balance(text: &str) -> String {
    let b = text.as_bytes();
    let mut open: Vec<usize> = Vec::new();
    let mut lone: HashSet<usize> = HashSet::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' if i + 1 < b.len() => i += 1,
            b'{' => open.push(i),
            b'}' if open.pop().is_none() => {
                lone.insert(i);
            }
            _ => {}
        }
        i += 1;
    }
    lone.extend(open);
    let mut out = String::with_capacity(text.len() + lone.len() + 16);
    for (k, c) in text.char_indices() {
        if lone.contains(&k) {
            out.push('\\');
        }
        if c == '\\' && k + 1 == text.len() && !ends_escaped(&text[..k]) {
            out.push_str("\\textbackslash{}");
        } else {
            out.push(c);
        }
    }
    out
}

/// True when `text` ends in an odd run of backslashes (its last one
/// escapes what follows).
fn ends_escaped(text: &str) -> bool {
    text.bytes().rev().take_while(|&b| b == b'\\').count() % 2 == 1
}

/// A DOI, URL, eprint or id: as written, which is how BibTeX readers take
/// such fields; a brace (which the reader drops) percent-encoded.
fn link(text: &str) -> String {
    text.replace('{', "%7B").replace('}', "%7D")
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

/// The entry types written.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Article,
    InProceedings,
    Misc,
}

/// The type of entry for a paper with `venue`: `@inproceedings` for a
/// conference or workshop (the venue says so: `Proceedings`, `Conference`,
/// `Workshop`, `Symposium`, … or an acronym and a year, `ICML 2024`),
/// `@article` for another venue (a journal), `@misc` without one.
fn kind_of(venue: Option<&str>) -> Kind {
    let Some(venue) = venue else {
        return Kind::Misc;
    };
    const MEETINGS: [&str; 11] = [
        "proceedings",
        "proc.",
        "conference",
        "workshop",
        "symposium",
        "congress",
        "colloquium",
        "meeting",
        "summit",
        "track",
        "poster",
    ];
    let lower = venue.to_lowercase();
    let year = venue
        .split(|c: char| !c.is_ascii_digit())
        .any(|w| w.len() == 4 && (w.starts_with("19") || w.starts_with("20")));
    let acronym = venue.split_whitespace().next().is_some_and(|w| {
        let upper = w.chars().filter(char::is_ascii_uppercase).count();
        upper >= 2 && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
    });
    if MEETINGS.iter().any(|m| lower.contains(m)) || (acronym && year) {
        Kind::InProceedings
    } else {
        Kind::Article
    }
}

pub(super) fn write(
    out: &mut dyn Write,
    corpus: &Corpus,
    indices: &[usize],
    store: &Store,
) -> io::Result<()> {
    let mut keys = HashSet::new();
    for (k, &i) in indices.iter().enumerate() {
        if k > 0 {
            writeln!(out)?;
        }
        let mut key = bibtex_key(corpus, i);
        let mut n = 2;
        while !keys.insert(key.clone()) {
            key = format!("{}-{n}", bibtex_key(corpus, i));
            n += 1;
        }
        entry(out, &corpus.papers[i], &key, store)?;
    }
    Ok(())
}

fn entry(out: &mut dyn Write, p: &Paper, key: &str, store: &Store) -> io::Result<()> {
    let kind = kind_of(p.venue.as_deref());
    let name = match kind {
        Kind::Article => "article",
        Kind::InProceedings => "inproceedings",
        Kind::Misc => "misc",
    };
    writeln!(out, "@{name}{{{key},")?;
    let mut field = |name: &str, value: &str| -> io::Result<()> {
        writeln!(out, "  {name:<13} = {{{value}}},")
    };
    field("title", &rendered(&p.title))?;
    if !p.authors.is_empty() {
        field("author", &names::bibtex(&p.authors, bibtex_escape))?;
    }
    if let Some(y) = p.year {
        field("year", &y.to_string())?;
    }
    if let Some(v) = &p.venue {
        let venue = rendered(v);
        match kind {
            Kind::InProceedings => field("booktitle", &venue)?,
            _ => field("journal", &venue)?,
        }
    }
    let doi = p.doi();
    if let Some(d) = &doi {
        field("doi", &link(d))?;
    }
    let arxiv = p.arxiv_id();
    if let Some(a) = &arxiv {
        field("eprint", &link(a))?;
        field("archiveprefix", "arXiv")?;
        if let Some(class) = p.more().categories.first() {
            field("primaryclass", &link(class))?;
        }
    }
    // One link (BibTeX has one `url`): the first that is neither the
    // DOI's nor the arXiv id's page, which the fields above give.
    let own = |l: &str| {
        let doi_page = crate::corpus::fields::doi_link(l);
        doi_page.is_some_and(|page| doi.as_deref().is_some_and(|d| page.eq_ignore_ascii_case(d)))
            || arxiv.as_deref().is_some_and(|a| {
                crate::corpus::fields::arxiv_in(l, false)
                    .is_some_and(|id| crate::corpus::fields::arxiv_key(&id) == a)
                    && l.contains("/abs/")
            })
    };
    if let Some(url) = p.links().iter().find(|l| !own(l)) {
        field("url", &link(url))?;
    }
    if !p.abstract_text.is_empty() {
        field("abstract", &verbatim(&p.abstract_text.text()))?;
    }
    let id = p.id.as_str();
    let tags = store.tags(id);
    if !tags.is_empty() {
        let tags: Vec<String> = tags.iter().map(|t| bibtex_escape(t)).collect();
        field("keywords", &tags.join(", "))?;
    }
    if let Some(note) = store.note(id) {
        field(
            "annote",
            &bibtex_escape(&super::note_lines(note).join("\n")),
        )?;
    }
    field("paperboat-id", &link(id))?;
    writeln!(out, "}}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_reads_back_as_itself() {
        for text in [
            "A & B: 50% of C#, snake_case, $5, ~x^2, back\\",
            "α-Cu and öther DNA",
            "Wow! [1] <x> a|b",
        ] {
            let w = rendered(text);
            assert_eq!(sanitize::line(&value::line(&w)), text, "{w}");
            assert!(holds_as_is(&w), "{w}");
        }
    }

    #[test]
    fn any_title_shows_as_it_showed() {
        for text in [
            "A -- B --- C ``quoted'' *star* `code`",
            "{braces} and back\\slash, a } alone",
            "$\\bf{\\Phi}_\\textrm{Flow}$: and $H^{p,q}$ z~2 \\",
            "$x$ {",
        ] {
            let w = rendered(text);
            assert!(holds_as_is(&w), "{w}");
            let back = sanitize::line(&value::line(&w));
            assert_eq!(markup::plain(&back), markup::plain(text), "{w}");
        }
    }

    #[test]
    fn markup_is_written_as_latex_and_reads_as_shown() {
        let w = rendered("The $\\alpha$-trick for 100% \\emph{recall}");
        assert_eq!(w, "The $\\alpha$-trick for 100\\% \\emph{recall}");
        assert_eq!(value::line(&w), "The α-trick for 100% recall");
    }

    #[test]
    fn abstracts_are_kept_as_written_where_bibtex_holds_them() {
        let a = "We study $x^2$ and 50% of {DNA}.\n\nSecond \"para\".";
        assert_eq!(verbatim(a), a);
        assert_eq!(value::text(&verbatim(a)), a);
        assert_eq!(verbatim("a } b { c"), "a \\} b \\{ c");
        assert_eq!(verbatim("ends in \\"), "ends in \\textbackslash{}");
        // The `$` the screen shows as a dollar is the one escaped.
        assert_eq!(verbatim("$x$ costs 1$ or $y$"), "$x$ costs 1\\$ or $y$");
        assert_eq!(verbatim("\\$5 and $x$"), "\\$5 and $x$");
        assert!(holds_as_is(&verbatim("x\n\n@article{y, title={z}}")));
        assert_eq!(verbatim("x\n\n@article{y}"), "x\n\n{@}article{y}");
    }

    #[test]
    fn venues_choose_the_entry_type() {
        assert_eq!(kind_of(None), Kind::Misc);
        for v in [
            "ICML 2024",
            "NeurIPS 2023 Oral",
            "Proceedings of the 2019 Conference on EMNLP",
            "Workshop on Deep Learning",
        ] {
            assert_eq!(kind_of(Some(v)), Kind::InProceedings, "{v}");
        }
        for v in [
            "Nature",
            "Phys.Rev.D76:013009,2007",
            "Journal of Traumatic Stress",
            "JMLR",
        ] {
            assert_eq!(kind_of(Some(v)), Kind::Article, "{v}");
        }
    }
}
