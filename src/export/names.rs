//! Author names as each output writes them, in one place: a list joined
//! for people and spreadsheets, and BibTeX's `and`-separated list, which
//! its readers split into names again.
//!
//! Names are kept as one string each, in reading order (`Donald E.
//! Knuth`); BibTeX readers take the last word of such a name for the
//! family name, which holds for most names. A name the BibTeX reader
//! would split or drop (one holding a comma or ` and `, `others`) is
//! braced whole, as BibTeX writes a corporate name.

use crate::corpus::Authors;

/// The names joined by `sep` (`, ` in Markdown, `; ` in CSV).
pub(super) fn listed(authors: &Authors, sep: &str) -> String {
    authors.join(sep)
}

/// The value of a BibTeX `author` field for `authors`: each name written
/// by `escape` (the writer's LaTeX escaping) and checked against the
/// BibTeX reader's reading of it; a name it would not read back as
/// itself is braced whole.
pub(super) fn bibtex(authors: &Authors, escape: impl Fn(&str) -> String) -> String {
    use crate::corpus::bibtex::value;
    let written: Vec<String> = authors
        .iter()
        .map(|name| {
            let plain = escape(name);
            let read = value::names(&plain);
            if read.len() == 1 && read[0] == name {
                plain
            } else {
                format!("{{{plain}}}")
            }
        })
        .collect();
    written.join(" and ")
}
