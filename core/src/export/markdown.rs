//! The Markdown reading list: papers grouped by tag, each with its title,
//! metadata, links, abstract (as it reads on screen) and note.
//!
//! Whatever a paper or a note holds, the list is safe to render: a link
//! is live only when it is an http(s) address (a DOI and an arXiv id
//! become theirs, `text::links::openable`), written as an autolink with
//! the characters an autolink may not hold percent-encoded; every other
//! link is shown as text. Text has Markdown's and HTML's characters
//! backslashed (CommonMark renders no `<script>` or `&lt;` from it), and
//! a note, the user's own Markdown, keeps its formatting but not raw HTML
//! nor links to anything but http(s).

use std::io::{self, Write};

use crate::corpus::Corpus;
use crate::store::{Flag, Store};
use crate::text::{links, markup};

/// Backslashes the characters Markdown (CommonMark and GitHub's) or HTML
/// would read as markup: emphasis, code, links, images, headings, tables,
/// strikethrough, raw HTML and character references; and, at the start of
/// the text, list and heading markers (`-`, `+`, `=`, `1.`).
pub fn markdown_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && matches!(text.as_bytes().get(digits), Some(b'.' | b')')) {
        out.push_str(&text[..digits]);
        out.push('\\');
        out.push_str(&text[digits..digits + 1]);
        return out + &markdown_escape_inline(&text[digits + 1..]);
    }
    if text.starts_with(['-', '+', '=']) {
        out.push('\\');
    }
    out + &markdown_escape_inline(text)
}

fn markdown_escape_inline(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if matches!(
            c,
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '#' | '|' | '&' | '~' | '!'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A link as the list writes it: an autolink (`<https://…>`) when it can
/// be opened safely, else `None` (the caller shows it as text).
pub fn safe_link(link: &str) -> Option<String> {
    let url = links::openable(link)?;
    // An autolink holds no `<`, `>`, space or control character; a
    // backslash would be taken as written, but some renderers differ.
    let mut out = String::with_capacity(url.len() + 2);
    out.push('<');
    for c in url.chars() {
        match c {
            '<' | '>' | '"' | '\\' | '`' => out.push_str(&format!("%{:02X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('>');
    Some(out)
}

/// A line of the user's note, Markdown kept: raw HTML (`<`, `>`) and
/// character references (`&`) escaped, a link's target kept live only
/// when it is an http(s) address, a line that defines a link reference
/// (`[x]: target`) escaped.
fn note_line(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + 8);
    let trimmed = line.trim_start();
    if trimmed.starts_with('[') && trimmed.contains("]:") {
        out.push_str(&line[..line.len() - trimmed.len()]);
        out.push('\\');
        return out + &note_inline(trimmed);
    }
    out + &note_inline(line)
}

fn note_inline(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + 8);
    let mut rest = line;
    while let Some(c) = rest.chars().next() {
        match c {
            '<' | '>' | '&' => {
                out.push('\\');
                out.push(c);
            }
            ']' if rest[1..].starts_with('(') => {
                out.push(']');
                let target = rest[2..].trim_start().trim_start_matches('<');
                let web = ["http://", "https://"].iter().any(|p| {
                    target
                        .get(..p.len())
                        .is_some_and(|t| t.eq_ignore_ascii_case(p))
                });
                if !web {
                    out.push('\\');
                }
                out.push('(');
                rest = &rest[2..];
                continue;
            }
            c => out.push(c),
        }
        rest = &rest[c.len_utf8()..];
    }
    out
}

pub(super) fn write(
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
            paper(out, corpus, i, store, "##")?;
        }
        return Ok(());
    }
    for (tag, papers) in &groups {
        writeln!(out)?;
        match tag {
            Some(tag) => writeln!(out, "## {}", markdown_escape(tag))?,
            None => writeln!(out, "## Untagged")?,
        }
        for &i in papers {
            paper(out, corpus, i, store, "###")?;
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

/// One paper of the list under a `heading` of that level: title,
/// metadata, links, abstract, then the note.
fn paper(
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
    let mut meta = vec![format!("`{}`", corpus.short_id(i).replace('`', ""))];
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
    if store.is_on(p.id.as_str(), Flag::Bookmark) {
        meta.push("★ bookmarked".to_string());
    }
    if store.is_on(p.id.as_str(), Flag::Read) {
        meta.push("✓ read".to_string());
    }
    writeln!(out, "{}", meta.join(" · "))?;
    let rich = markup::render(&p.abstract_text.text());
    for l in links::collect(&p.links(), &rich) {
        match safe_link(&l) {
            Some(live) => writeln!(out, "{live}  ")?,
            None => writeln!(out, "{} (not a web link)  ", markdown_escape(&l))?,
        }
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
        for line in super::note_lines(note) {
            writeln!(out, "> {}", note_line(&line))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_cannot_become_markup_or_html() {
        assert_eq!(
            markdown_escape("<script>x</script> & *a* [b](c) ~~d~~ ![i](j)"),
            "\\<script\\>x\\</script\\> \\& \\*a\\* \\[b\\](c) \\~\\~d\\~\\~ \\!\\[i\\](j)"
        );
        assert_eq!(markdown_escape("- not a list"), "\\- not a list");
        assert_eq!(markdown_escape("1. not a list"), "1\\. not a list");
        assert_eq!(markdown_escape("12) x"), "12\\) x");
        assert_eq!(markdown_escape("a-b 1. c"), "a-b 1. c");
    }

    #[test]
    fn only_web_links_are_live() {
        assert_eq!(
            safe_link("https://a.org/x").as_deref(),
            Some("<https://a.org/x>")
        );
        assert_eq!(
            safe_link("https://doi.org/10.1000/<script>").as_deref(),
            Some("<https://doi.org/10.1000/%3Cscript%3E>")
        );
        assert_eq!(
            safe_link("doi:10.1000/<script>").as_deref(),
            Some("<https://doi.org/10.1000/%3Cscript%3E>")
        );
        assert_eq!(safe_link("javascript:alert(1)"), None);
        assert_eq!(safe_link("file:///etc/passwd"), None);
    }

    #[test]
    fn a_note_keeps_its_markdown_but_no_html_nor_odd_links() {
        assert_eq!(
            note_line("**see** [code](https://a.org) <b>x</b> &amp;"),
            "**see** [code](https://a.org) \\<b\\>x\\</b\\> \\&amp;"
        );
        assert_eq!(
            note_line("[bad](javascript:alert(1)) [ok]( <HTTPS://a.org>)"),
            "[bad]\\(javascript:alert(1)) [ok]( \\<HTTPS://a.org\\>)"
        );
        assert_eq!(note_line("  [x]: javascript:y"), "  \\[x]: javascript:y");
    }
}
