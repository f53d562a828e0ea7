//! Reading corpora: files, standard input, or the bundled ICML 2026 lists.
//!
//! Each input is read whole, decoded, parsed by its format and turned into
//! papers; a report per input says what loaded. An input that cannot be read
//! is an error naming it; the caller decides whether the others carry on.

use std::io::Read;
use std::path::{Path, PathBuf};

use thiserror::Error;

use super::{Corpus, Paper, text};
use crate::text::sanitize;

/// The bundled lists, embedded in the binary: (file name, contents).
pub const BUNDLED: &[(&str, &str)] = &[
    (
        "000_84d52d1267d14ca9.txt",
        include_str!("../../assets/000_84d52d1267d14ca9.txt"),
    ),
    (
        "001_780c446c1d4ca5ac.txt",
        include_str!("../../assets/001_780c446c1d4ca5ac.txt"),
    ),
];

/// Where papers come from.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Input {
    /// A file on disk.
    Path(PathBuf),
    /// Standard input (`-` on the command line).
    Stdin,
    /// One of the bundled lists, by index into [`BUNDLED`].
    Bundled(usize),
}

impl Input {
    /// The inputs for command-line arguments: `-` is stdin, no arguments
    /// means the bundled lists.
    pub fn from_args(files: &[PathBuf]) -> Vec<Input> {
        if files.is_empty() {
            return (0..BUNDLED.len()).map(Input::Bundled).collect();
        }
        files
            .iter()
            .map(|f| {
                if f.as_os_str() == "-" {
                    Input::Stdin
                } else {
                    Input::Path(f.clone())
                }
            })
            .collect()
    }

    /// The name messages use for this input (sanitized: file names come
    /// from users and may hold anything).
    pub fn name(&self) -> String {
        match self {
            Input::Path(p) => sanitize::line(&p.display().to_string()),
            Input::Stdin => "stdin".to_string(),
            Input::Bundled(i) => format!("bundled:{}", BUNDLED[*i].0),
        }
    }

    /// The list name for papers from a file without a header.
    fn list_name(&self) -> String {
        match self {
            Input::Path(p) => sanitize::line(
                &p.file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_else(|| p.display().to_string()),
            ),
            Input::Stdin => "stdin".to_string(),
            Input::Bundled(i) => BUNDLED[*i].0.to_string(),
        }
    }
}

/// Why an input could not be read.
#[derive(Debug, Error)]
pub enum LoadError {
    /// The file could not be opened or read.
    #[error("{name}: {source}")]
    Io {
        /// The input's name.
        name: String,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// No input yielded a paper.
    #[error("no papers found in {0}")]
    NoPapers(String),
}

/// What one input gave.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// The input's name.
    pub name: String,
    /// Papers loaded.
    pub papers: usize,
    /// Of those, papers with a title but no abstract.
    pub without_abstract: usize,
    /// Records skipped: (line, reason).
    pub skipped: Vec<(usize, String)>,
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {} papers", self.name, self.papers)?;
        if self.without_abstract > 0 {
            write!(f, ", {} without abstract", self.without_abstract)?;
        }
        if !self.skipped.is_empty() {
            write!(f, ", {} skipped", self.skipped.len())?;
            let shown: Vec<String> = self
                .skipped
                .iter()
                .take(3)
                .map(|(line, why)| format!("line {line}: {why}"))
                .collect();
            write!(f, " ({})", shown.join("; "))?;
        }
        Ok(())
    }
}

/// A loaded corpus and what each input contributed.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The papers.
    pub corpus: Corpus,
    /// One report per input, in input order.
    pub reports: Vec<Report>,
    /// Names this set of inputs, so that the reader can return to where it
    /// was left: `bundled`, or the files' absolute paths.
    pub key: String,
}

/// The key for a set of inputs (see [`Loaded::key`]).
pub fn corpus_key(inputs: &[Input]) -> String {
    if inputs.iter().all(|i| matches!(i, Input::Bundled(_))) {
        return "bundled".to_string();
    }
    let names: Vec<String> = inputs
        .iter()
        .map(|i| match i {
            Input::Path(p) => std::fs::canonicalize(p)
                .unwrap_or_else(|_| p.clone())
                .display()
                .to_string(),
            other => other.name(),
        })
        .collect();
    names.join(" + ")
}

fn read_input(input: &Input) -> Result<String, LoadError> {
    let io_err = |source| LoadError::Io {
        name: input.name(),
        source,
    };
    let bytes = match input {
        Input::Bundled(i) => return Ok(BUNDLED[*i].1.to_string()),
        Input::Stdin => {
            let mut buf = Vec::new();
            std::io::stdin().read_to_end(&mut buf).map_err(io_err)?;
            buf
        }
        Input::Path(p) => read_path(p).map_err(io_err)?,
    };
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

fn read_path(p: &Path) -> std::io::Result<Vec<u8>> {
    std::fs::read(p)
}

/// Parses one input's text into papers.
fn papers_of(input: &Input, content: &str) -> (Vec<Paper>, Report) {
    let parsed = text::parse(content);
    let list: std::sync::Arc<str> =
        sanitize::line(&parsed.header.clone().unwrap_or_else(|| input.list_name())).into();
    let mut report = Report {
        name: input.name(),
        ..Report::default()
    };
    let mut papers = Vec::with_capacity(parsed.records.len());
    for record in parsed.records {
        let line = record.line;
        match record.into_paper(&list, papers.len() as u32) {
            Some(p) => {
                if p.abstract_text.is_empty() {
                    report.without_abstract += 1;
                }
                papers.push(p);
            }
            None => report
                .skipped
                .push((line, "no title and no abstract".into())),
        }
    }
    report.papers = papers.len();
    (papers, report)
}

/// Loads every input. Fails on the first input that cannot be read, or
/// when no input yields a paper.
pub fn load(inputs: &[Input]) -> Result<Loaded, LoadError> {
    let mut all = Vec::new();
    let mut reports = Vec::new();
    for input in inputs {
        let content = read_input(input)?;
        let (papers, report) = papers_of(input, &content);
        all.extend(papers);
        reports.push(report);
    }
    if all.is_empty() {
        let names: Vec<String> = inputs.iter().map(Input::name).collect();
        return Err(LoadError::NoPapers(names.join(", ")));
    }
    Ok(Loaded {
        corpus: Corpus::new(all),
        reports,
        key: corpus_key(inputs),
    })
}

/// The bundled lists, loaded.
pub fn bundled() -> Loaded {
    let inputs: Vec<Input> = (0..BUNDLED.len()).map(Input::Bundled).collect();
    load(&inputs).expect("the bundled lists always load")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_lists_load_as_38_papers_in_two_lists_in_file_order() {
        let loaded = bundled();
        assert_eq!(loaded.corpus.len(), 38);
        assert_eq!(loaded.reports.len(), 2);
        assert_eq!(loaded.reports[0].papers, 19);
        assert_eq!(loaded.reports[1].papers, 19);
        let papers = &loaded.corpus.papers;
        assert!(papers.iter().all(|p| &*p.source == "ICML 2026 论文列表"));
        assert!(
            papers[0]
                .abstract_text
                .starts_with("Finding human-understandable circuits")
        );
        assert!(
            papers[19]
                .abstract_text
                .starts_with("Pass@$k$ and other methods")
        );
        assert_eq!(papers[18].position, 18);
        assert_eq!(papers[19].position, 0);
        assert!(papers.iter().all(|p| p.title_derived && p.id.is_hash()));
    }

    #[test]
    fn reordering_and_adding_papers_changes_no_id() {
        let a = "L\n\nFirst abstract.\n\nSecond abstract.";
        let b = "L\n\nNew one.\n\nSecond abstract.\n\nFirst abstract.";
        let ids = |s: &str| {
            let (papers, _) = papers_of(&Input::Stdin, s);
            papers
                .into_iter()
                .map(|p| (p.abstract_text, p.id))
                .collect::<std::collections::HashMap<_, _>>()
        };
        let (ia, ib) = (ids(a), ids(b));
        assert_eq!(ia["First abstract."], ib["First abstract."]);
        assert_eq!(ia["Second abstract."], ib["Second abstract."]);
    }

    #[test]
    fn a_file_without_a_header_is_named_after_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("accepted.txt");
        std::fs::write(&path, "One abstract.\n\nAnother abstract.").unwrap();
        let loaded = load(&[Input::Path(path)]).unwrap();
        assert_eq!(&*loaded.corpus.papers[0].source, "accepted.txt");
    }

    #[test]
    fn unreadable_and_empty_inputs_are_errors_naming_them() {
        let err = load(&[Input::Path("/nonexistent/x.txt".into())]).unwrap_err();
        assert!(err.to_string().starts_with("/nonexistent/x.txt: "), "{err}");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("empty.txt");
        std::fs::write(&path, "\n\n").unwrap();
        let err = load(&[Input::Path(path)]).unwrap_err();
        assert!(err.to_string().contains("empty.txt"), "{err}");
    }
}
