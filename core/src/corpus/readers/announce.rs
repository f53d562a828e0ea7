//! What arXiv's announcement feeds (RSS 2.0 and Atom, since 2024) write
//! before an abstract: `arXiv:2402.01234v2 Announce Type: replace
//! Abstract: …`. The RSS and Atom readers both take the abstract after
//! it, and the id and announce type from it.

use crate::corpus::fields::arxiv_in;

/// The most bytes a preamble takes (an id, a version, an announce type).
const PREAMBLE: usize = 120;

/// The parts of an arXiv description: what its preamble says and the
/// abstract after it.
pub(super) struct Description {
    pub(super) arxiv: Option<String>,
    pub(super) announce: Option<String>,
    pub(super) text: String,
}

/// Splits `arXiv:2402.01234v2 Announce Type: replace Abstract: …` into
/// its preamble's parts and the abstract. A description without the
/// preamble is all abstract.
pub(super) fn description(text: &str) -> Description {
    let trimmed = text.trim_start();
    // The preamble is short: an `Abstract:` further on is the abstract's.
    let head = &trimmed[..trimmed.floor_char_boundary(PREAMBLE)];
    let preamble_end = trimmed
        .get(..6)
        .filter(|p| p.eq_ignore_ascii_case("arxiv:"))
        .and_then(|_| head.find("Abstract:"));
    let Some(end) = preamble_end else {
        return Description {
            arxiv: None,
            announce: None,
            text: text.to_string(),
        };
    };
    let preamble = &trimmed[..end];
    let arxiv = preamble
        .split_whitespace()
        .next()
        .and_then(|id| arxiv_in(id, false));
    let announce = preamble
        .find("Announce Type:")
        .map(|at| &preamble[at + "Announce Type:".len()..])
        .and_then(|rest| rest.split_whitespace().next())
        .map(str::to_ascii_lowercase);
    Description {
        arxiv,
        announce,
        text: trimmed[end + "Abstract:".len()..].to_string(),
    }
}
