//! The plain-text list format, as the bundled ICML lists are written.
//!
//! ```text
//! ICML 2026 论文列表            ← header: the list's name
//!
//! First paper's abstract, one paragraph; hard-wrapped
//! lines join with single spaces.
//!
//! An Optional Title Line       ← short, no sentence punctuation
//! Second paper's abstract …
//! ```
//!
//! Papers are paragraphs separated by blank lines. A paragraph's first line
//! is its title when it is short (at most 200 characters), does not end in
//! sentence punctuation, more lines follow, and the paragraph does not read
//! as hard-wrapped prose from its first line on (the next line continues in
//! lower case, or the first line is as long as the lines after it). The
//! `lines` variant reads one paper per line instead.

use super::{Format, Reader};
use crate::corpus::{Parsed, Record};

/// Longest line taken as a paragraph's title, in characters.
pub const MAX_TITLE_LINE: usize = 200;
/// Longest line that `lines` takes as a title rather than an abstract.
pub const MAX_LINES_TITLE: usize = 300;

fn ends_sentence(line: &str) -> bool {
    line.trim_end()
        .ends_with(['.', '!', '?', ';', ':', '。', '！', '？', '；', '：'])
}

/// Lines with their 1-based numbers: BOM dropped, LF, CRLF or (in old Mac
/// files) lone CR as line ends, trailing whitespace trimmed.
fn numbered_lines(input: &str) -> impl Iterator<Item = (usize, &str)> {
    let input = input.strip_prefix('\u{FEFF}').unwrap_or(input);
    let sep = if !input.contains('\n') && input.contains('\r') {
        '\r'
    } else {
        '\n'
    };
    input
        .split(sep)
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end()))
}

/// Splits into paragraphs: (first line number, lines).
fn paragraphs(input: &str) -> Vec<(usize, Vec<&str>)> {
    let mut out: Vec<(usize, Vec<&str>)> = Vec::new();
    let mut current: Option<(usize, Vec<&str>)> = None;
    for (n, line) in numbered_lines(input) {
        if line.trim().is_empty() {
            out.extend(current.take());
        } else {
            current
                .get_or_insert_with(|| (n, Vec::new()))
                .1
                .push(line.trim_start());
        }
    }
    out.extend(current);
    out
}

/// True when the first line of a paragraph is its title.
fn first_line_is_title(lines: &[&str]) -> bool {
    let [first, second, rest @ ..] = lines else {
        return false;
    };
    if first.chars().count() > MAX_TITLE_LINE || ends_sentence(first) {
        return false;
    }
    // "… is a central\ngoal of the field": a sentence wrapped mid-way.
    if second.chars().next().is_some_and(char::is_lowercase) {
        return false;
    }
    // Hard-wrapped prose: the first line is as long as the body's lines.
    if !rest.is_empty() {
        let body_width = std::iter::once(second)
            .chain(rest.iter().take(rest.len().saturating_sub(1)))
            .map(|l| l.chars().count())
            .max()
            .unwrap_or(0);
        let len = first.chars().count();
        if body_width > 0 && len * 100 >= body_width * 85 && len * 100 <= body_width * 115 {
            return false;
        }
    }
    true
}

fn join(lines: &[&str]) -> String {
    let mut out = String::new();
    for l in lines {
        let l = l.trim();
        if l.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(l);
    }
    out
}

/// Parses the paragraph format.
pub fn parse(input: &str) -> Parsed {
    if let Some(marker) = separator(input) {
        return parse_separated(input, &marker);
    }
    let mut paras = paragraphs(input);
    let mut header = None;
    if paras.len() > 1 {
        let (_, first) = &paras[0];
        if first.len() == 1
            && first[0].chars().count() <= MAX_TITLE_LINE
            && !ends_sentence(first[0])
        {
            header = Some(first[0].trim().to_string());
            paras.remove(0);
        }
    }
    let records = paras
        .into_iter()
        .map(|(line, lines)| {
            let (title, body) = if first_line_is_title(&lines) {
                (Some(lines[0].trim().to_string()), &lines[1..])
            } else {
                (None, &lines[..])
            };
            Record {
                title,
                abstract_text: Some(join(body)),
                line,
                ..Record::default()
            }
        })
        .collect();
    Parsed {
        header,
        records,
        skipped: Vec::new(),
        ..Parsed::default()
    }
}

/// Longest line taken as a separator between papers.
const MAX_SEPARATOR: usize = 40;

/// A short line that opens the file and recurs as a line of its own (at
/// least three times in all): `Abstract` before each paper, as some
/// conference dumps have it. Each paper is then everything up to the next
/// one, paragraphs kept.
fn separator(input: &str) -> Option<String> {
    let mut lines = numbered_lines(input)
        .map(|(_, l)| l.trim())
        .filter(|l| !l.is_empty());
    let first = lines.next()?;
    if first.chars().count() > MAX_SEPARATOR || ends_sentence(first) {
        return None;
    }
    let again = lines.filter(|l| *l == first).count();
    (again >= 2).then(|| first.to_string())
}

/// Papers between separator lines; the paragraphs of each become the
/// paragraphs of one abstract.
fn parse_separated(input: &str, marker: &str) -> Parsed {
    let mut records = Vec::new();
    let mut current: Option<(usize, Vec<Vec<&str>>)> = None;
    let mut blank = true;
    let finish = |cur: Option<(usize, Vec<Vec<&str>>)>, records: &mut Vec<Record>| {
        let Some((line, paras)) = cur else { return };
        let paras: Vec<Vec<&str>> = paras.into_iter().filter(|p| !p.is_empty()).collect();
        if paras.is_empty() {
            return;
        }
        let (title, first_body) = if paras[0].len() > 1 && first_line_is_title(&paras[0]) {
            (Some(paras[0][0].to_string()), &paras[0][1..])
        } else {
            (None, &paras[0][..])
        };
        let mut text = join(first_body);
        for p in &paras[1..] {
            text.push_str("\n\n");
            text.push_str(&join(p));
        }
        records.push(Record {
            title,
            abstract_text: Some(text),
            line,
            ..Record::default()
        });
    };
    for (n, raw) in numbered_lines(input) {
        let l = raw.trim();
        if l == marker {
            finish(current.take(), &mut records);
            current = Some((n + 1, vec![Vec::new()]));
            blank = true;
            continue;
        }
        let Some((start, paras)) = current.as_mut() else {
            continue;
        };
        if l.is_empty() {
            blank = true;
            continue;
        }
        if blank && paras.last().is_some_and(|p| !p.is_empty()) {
            paras.push(Vec::new());
        }
        if paras.iter().all(Vec::is_empty) {
            *start = n;
        }
        blank = false;
        if let Some(p) = paras.last_mut() {
            p.push(l);
        }
    }
    finish(current.take(), &mut records);
    Parsed {
        header: None,
        records,
        skipped: Vec::new(),
        ..Parsed::default()
    }
}

/// The papers of the `lines` format, one at a time: (1-based line, text
/// trimmed, whether the text is a title rather than an abstract).
pub fn lines_of(input: &str) -> impl Iterator<Item = (usize, &str, bool)> + '_ {
    numbered_lines(input)
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(line, l)| {
            let l = l.trim();
            let short = l.len() <= MAX_LINES_TITLE || l.chars().count() <= MAX_LINES_TITLE;
            (line, l, short)
        })
}

/// The records of the `lines` format, one at a time.
pub fn lines_records(input: &str) -> impl Iterator<Item = Record> + '_ {
    lines_of(input).map(|(line, l, short)| Record {
        title: short.then(|| l.to_string()),
        abstract_text: (!short).then(|| l.to_string()),
        line,
        ..Record::default()
    })
}

/// Parses the `lines` format: one paper per non-blank line, a title when it
/// is at most [`MAX_LINES_TITLE`] characters, an abstract otherwise.
pub fn parse_lines(input: &str) -> Parsed {
    let records = lines_records(input).collect();
    Parsed {
        header: None,
        records,
        skipped: Vec::new(),
        ..Parsed::default()
    }
}

/// The paragraph format (the bundled lists): a header line, then an
/// abstract a paragraph. It takes any text, so it is asked last.
pub struct Text;

impl Reader for Text {
    fn name(&self) -> &'static str {
        "text"
    }

    fn about(&self) -> &'static str {
        "Paragraphs, as the bundled lists"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["txt", "text", "md"]
    }

    fn sniff(&self, _head: &str, _hint: Option<Format>) -> bool {
        true
    }

    fn parse(&self, text: &str) -> Parsed {
        parse(text)
    }
}

/// One paper a line: text in which no blank line separates anything.
pub struct Lines;

impl Reader for Lines {
    fn name(&self) -> &'static str {
        "lines"
    }

    fn about(&self) -> &'static str {
        "One paper per line"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &[]
    }

    fn sniff(&self, head: &str, _hint: Option<Format>) -> bool {
        let lines = head.lines().filter(|l| !l.trim().is_empty()).count();
        let blank_separated = head.trim().lines().any(|l| l.trim().is_empty());
        lines >= 2 && !blank_separated
    }

    fn parse(&self, text: &str) -> Parsed {
        parse_lines(text)
    }

    fn line_oriented(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn abstracts(p: &Parsed) -> Vec<&str> {
        p.records
            .iter()
            .map(|r| r.abstract_text.as_deref().unwrap_or(""))
            .collect()
    }

    #[test]
    fn header_then_paragraphs_joined_by_spaces() {
        let p = parse("My List\n\nFirst line of one\ncontinues here.\n\nSecond paper.\n");
        assert_eq!(p.header.as_deref(), Some("My List"));
        assert_eq!(
            abstracts(&p),
            vec!["First line of one continues here.", "Second paper."]
        );
        assert_eq!(p.records[0].line, 3);
        assert_eq!(p.records[1].line, 6);
    }

    #[test]
    fn tolerates_bom_crlf_trailing_space_blank_runs_and_no_final_newline() {
        let p = parse("\u{feff}List  \r\n\r\n\r\n\r\nOne paper.   \r\nStill one.\r\n\r\n\r\nTwo.");
        assert_eq!(p.header.as_deref(), Some("List"));
        assert_eq!(abstracts(&p), vec!["One paper. Still one.", "Two."]);
        let mac = parse("List\r\rOne.\r\rTwo.");
        assert_eq!(abstracts(&mac), vec!["One.", "Two."]);
    }

    #[test]
    fn no_header_when_the_first_paragraph_is_a_paper() {
        let p = parse("A paper that ends a sentence.\n\nAnother one.");
        assert_eq!(p.header, None);
        assert_eq!(p.records.len(), 2);
        let single = parse("Only one paragraph here");
        assert_eq!(single.header, None);
        assert_eq!(single.records.len(), 1);
    }

    #[test]
    fn short_first_lines_are_titles() {
        let p = parse(
            "L\n\nA Title Without Punctuation\nThe abstract follows. It has sentences.\n\nNo title here.\nJust text.",
        );
        assert_eq!(
            p.records[0].title.as_deref(),
            Some("A Title Without Punctuation")
        );
        assert_eq!(
            p.records[0].abstract_text.as_deref(),
            Some("The abstract follows. It has sentences.")
        );
        assert_eq!(p.records[1].title, None);
    }

    #[test]
    fn hard_wrapped_prose_has_no_title() {
        let wrapped = "L\n\nThis presentation will outline the untapped potential of Information and\nLibrary Science (ILS) programs as an integral space for the long-term\ntraining and support of biodiversity informatics work. It will also\noutline the specific steps.";
        assert_eq!(parse(wrapped).records[0].title, None);
        let mid_sentence = "L\n\nFinding circuits is a central\ngoal of the field.";
        assert_eq!(parse(mid_sentence).records[0].title, None);
    }

    #[test]
    fn a_recurring_opening_line_separates_multi_paragraph_papers() {
        let text = "Abstract\n\nFirst paper, paragraph one\nwrapped here.\n\nIts second paragraph.\nAbstract\n\nSecond paper.\nAbstract\nThird paper.\n";
        let p = parse(text);
        assert_eq!(p.header, None);
        assert_eq!(
            abstracts(&p),
            vec![
                "First paper, paragraph one wrapped here.\n\nIts second paragraph.",
                "Second paper.",
                "Third paper."
            ]
        );
        assert_eq!(
            p.records.iter().map(|r| r.line).collect::<Vec<_>>(),
            vec![3, 9, 11]
        );
        // Once or twice is a header and a paper, not a separator.
        let two = parse("Abstract\n\nOne.\nAbstract\n\nTwo.");
        assert_eq!(two.header.as_deref(), Some("Abstract"));
    }

    #[test]
    fn long_first_lines_are_not_titles() {
        let long = "x".repeat(201);
        let p = parse(&format!("L\n\n{long}\nAbstract."));
        assert_eq!(p.records[0].title, None);
    }

    #[test]
    fn lines_format_splits_titles_from_abstracts_by_length() {
        let long = "word ".repeat(70);
        let p = parse_lines(&format!("Short title\n\n{long}\r\n"));
        assert_eq!(p.records.len(), 2);
        assert_eq!(p.records[0].title.as_deref(), Some("Short title"));
        assert!(p.records[1].title.is_none());
        assert_eq!(p.records[1].line, 3);
    }
}
