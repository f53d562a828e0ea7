//! Saved papers out of paperboat: a Markdown reading list, BibTeX, or JSON.
//!
//! Text is exported as it reads on screen (markup rendered: `$25\times$`
//! becomes `25×`), then escaped for the target format, so the output is
//! always well-formed: BibTeX braces balance and its special characters are
//! escaped; Markdown's are backslashed.

use std::io::{self, Write};

use serde::Serialize;

use crate::corpus::{Corpus, Paper};
use crate::store::{Field, State};
use crate::text::markup;

/// Export formats.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Format {
    /// A Markdown reading list.
    Markdown,
    /// BibTeX `@misc` entries.
    Bibtex,
    /// A JSON array.
    Json,
}

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
    /// Links.
    pub links: Vec<String>,
    /// Bookmarked.
    pub bookmarked: bool,
    /// Read.
    pub read: bool,
}

impl<'a> JsonPaper<'a> {
    /// The JSON form of paper `i`.
    pub fn new(corpus: &'a Corpus, i: usize, state: &State) -> JsonPaper<'a> {
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
            links: p.links(),
            bookmarked: state.is_on(p.id.as_str(), Field::Bookmark),
            read: state.is_on(p.id.as_str(), Field::Read),
        }
    }
}

/// Writes papers `indices` of `corpus` in `format`.
pub fn write(
    out: &mut dyn Write,
    format: Format,
    corpus: &Corpus,
    indices: &[usize],
    state: &State,
) -> io::Result<()> {
    match format {
        Format::Json => {
            let papers: Vec<JsonPaper> = indices
                .iter()
                .map(|&i| JsonPaper::new(corpus, i, state))
                .collect();
            serde_json::to_writer_pretty(&mut *out, &papers)?;
            writeln!(out)
        }
        Format::Markdown => markdown(out, corpus, indices, state),
        Format::Bibtex => {
            for (k, &i) in indices.iter().enumerate() {
                if k > 0 {
                    writeln!(out)?;
                }
                bibtex_entry(out, corpus, i)?;
            }
            Ok(())
        }
    }
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
    state: &State,
) -> io::Result<()> {
    writeln!(out, "# Reading list")?;
    writeln!(out)?;
    writeln!(
        out,
        "{} paper{}, exported from paperboat.",
        indices.len(),
        if indices.len() == 1 { "" } else { "s" }
    )?;
    for &i in indices {
        let p = &corpus.papers[i];
        writeln!(out)?;
        writeln!(out, "## {}", markdown_escape(&markup::plain(&p.title)))?;
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
        if state.is_on(p.id.as_str(), Field::Bookmark) {
            meta.push("★ bookmarked".to_string());
        }
        if state.is_on(p.id.as_str(), Field::Read) {
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

fn bibtex_entry(out: &mut dyn Write, corpus: &Corpus, i: usize) -> io::Result<()> {
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
    field("note", &format!("paperboat id {id}"))?;
    writeln!(out, "}}")
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let mut out = Vec::new();
        write(&mut out, Format::Bibtex, &corpus, &all, &State::default()).unwrap();
        let text = String::from_utf8(out).unwrap();
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
        let mut out = Vec::new();
        write(&mut out, Format::Markdown, &corpus, &[1], &State::default()).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains("## OrchJail: an orchestration-guided fuzzing framework"),
            "{text}"
        );
        assert!(text.contains(&format!("`{}` · ICML 2026 论文列表", corpus.short_id(1))));
        assert!(text.contains("> Tool-calling text-to-image (T2I) agents"));
    }
}
