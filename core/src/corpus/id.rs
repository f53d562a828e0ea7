//! A paper's identity: its [`PaperId`] (the record's own identifier, or a
//! hash of its text), and how far hash ids are shortened when shown.

use std::fmt;

use super::Paper;
use super::fields;
use crate::text::sanitize;

/// The shortest prefix a hash id is ever shown with.
pub const MIN_SHORT_ID: usize = 7;

/// A paper's stable identity: the record's own identifier where it has one
/// (`arxiv:2401.01234`, `doi:10.1145/…`), otherwise 16 hex digits of a
/// 64-bit hash of its text (mixed with its authors, year, volume and key
/// when an earlier, different paper has the same text: see
/// [`Dedup`](super::Dedup)).
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct PaperId(Box<str>);

impl PaperId {
    /// The id for a 64-bit content hash.
    pub fn from_hash(hash: u64) -> PaperId {
        PaperId(
            std::str::from_utf8(&hex16(hash))
                .unwrap_or("0000000000000000")
                .into(),
        )
    }

    /// The id of an arXiv paper (`arxiv:2401.01234`, version dropped).
    pub fn arxiv(id: &str) -> PaperId {
        let id = fields::arxiv_key(id);
        // Made to size: no growing, no shrinking into the box (a million
        // arXiv ids are made while loading).
        let mut s = String::with_capacity("arxiv:".len() + id.len());
        s.push_str("arxiv:");
        s.push_str(id);
        PaperId(s.into())
    }

    /// The id of a paper with a DOI (`doi:10.1145/…`, lower case).
    pub fn doi(doi: &str) -> PaperId {
        PaperId(format!("doi:{}", fields::doi_key(doi)).into())
    }

    /// The id of a paper known by its OpenReview forum
    /// (`openreview:frA0NNBS1n`).
    pub fn openreview(forum: &str) -> PaperId {
        PaperId(format!("openreview:{}", forum.trim()).into())
    }

    /// An id given as text (a state file key, a command-line argument).
    pub fn parse(text: &str) -> PaperId {
        PaperId(text.into())
    }

    /// An id written in paperboat's own form, as its exports carry it
    /// (JSON's `id`, a CSV `id` column, BibTeX's `paperboat-id`):
    /// `arxiv:` and an arXiv id, `doi:` and a DOI, `openreview:` and a
    /// forum id, or a hash id's 16 hex digits; made as the readers make
    /// them (version dropped, DOI in lower case). `None` for anything
    /// else: a citation key, a database's own id.
    pub fn exported(text: &str) -> Option<PaperId> {
        let text = text.trim();
        let after = |prefix: &str| {
            text.get(..prefix.len())
                .filter(|head| head.eq_ignore_ascii_case(prefix))
                .map(|_| text[prefix.len()..].trim())
        };
        if let Some(a) = after("arxiv:") {
            return fields::is_arxiv_id(a).then(|| PaperId::arxiv(a));
        }
        if let Some(d) = after("doi:") {
            return fields::doi(d).map(|d| PaperId::doi(&d));
        }
        if let Some(f) = after("openreview:") {
            return fields::is_forum_id(f).then(|| PaperId::openreview(f));
        }
        (text.len() == 16 && text.bytes().all(|b| b.is_ascii_hexdigit()))
            .then(|| PaperId(text.to_ascii_lowercase().into()))
    }

    /// The ids a user may mean by `text` when it names a paper the way
    /// papers are cited rather than as paperboat writes ids: a bare arXiv
    /// id (`1801.05533`, `1801.05533v2`, `hep-th/9901001`, `arXiv:…`, an
    /// arxiv.org link), a DOI (`10.1145/…`, `doi:…`, a doi.org link) or
    /// an OpenReview forum id (`frA0NNBS1n`, a forum or PDF link). Empty
    /// when it reads as none of them; the id itself is not among them.
    pub fn meant_by(text: &str) -> Vec<PaperId> {
        let text = text.trim();
        let mut ids = Vec::new();
        if let Some(a) = fields::arxiv_in(text, true) {
            ids.push(PaperId::arxiv(&a));
        }
        if let Some(d) = fields::doi(text) {
            ids.push(PaperId::doi(&d));
        }
        if let Some(f) = fields::forum_of(text) {
            ids.push(PaperId::openreview(f));
        }
        ids.retain(|id| !id.as_str().eq_ignore_ascii_case(text));
        ids
    }

    /// The full id.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The id as shown: a hash id cut to `short_len` hex digits.
    pub fn shown(&self, short_len: usize) -> &str {
        if self.is_hash() {
            &self.0[..short_len.min(self.0.len())]
        } else {
            &self.0
        }
    }

    /// True for content-hash ids, which are shown shortened.
    pub fn is_hash(&self) -> bool {
        self.0.len() == 16 && self.0.bytes().all(|b| b.is_ascii_hexdigit())
    }
}

impl fmt::Display for PaperId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The 16 hex digits of a hash id.
pub(crate) fn hex16(hash: u64) -> [u8; 16] {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut out = [0u8; 16];
    for (k, b) in out.iter_mut().enumerate() {
        *b = HEX[((hash >> (60 - 4 * k)) & 0xf) as usize];
    }
    out
}

/// The content hash behind a [`PaperId`] when a record has no identifier of
/// its own: the whitespace-normalised given title and abstract. Derived
/// fields never enter it, so a better title heuristic changes no id.
pub fn content_hash(title: Option<&str>, abstract_text: &str) -> u64 {
    // The hash of `title` and `abstract`, each with whitespace runs folded
    // to one space and trimmed, joined by a newline, built in a buffer kept
    // per thread (one-shot xxh3 is several times faster than streaming on
    // short text).
    thread_local! {
        static BUF: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    BUF.with(|buf| {
        let mut buf = buf.borrow_mut();
        buf.clear();
        if let Some(t) = title {
            push_normalised(&mut buf, t);
        }
        buf.push(b'\n');
        push_normalised(&mut buf, abstract_text);
        xxhash_rust::xxh3::xxh3_64(&buf)
    })
}

fn push_normalised(buf: &mut Vec<u8>, s: &str) {
    // Usually the text is normalised already: copy it in one piece.
    let b = s.as_bytes();
    if b.first() != Some(&b' ') && b.last() != Some(&b' ') && sanitize::plain_ascii_line(b) {
        buf.extend_from_slice(b);
        return;
    }
    for (i, w) in s.split_whitespace().enumerate() {
        if i > 0 {
            buf.push(b' ');
        }
        buf.extend_from_slice(w.as_bytes());
    }
}

/// The length at which all hash ids differ, at least [`MIN_SHORT_ID`].
pub(super) fn short_id_len<'a>(ids: impl Iterator<Item = &'a PaperId>) -> usize {
    shortest_unique(hash_values(ids))
}

/// The hash ids among `ids`, as numbers.
fn hash_values<'a>(ids: impl Iterator<Item = &'a PaperId>) -> Vec<u64> {
    ids.filter(|id| id.is_hash())
        .filter_map(|id| u64::from_str_radix(id.as_str(), 16).ok())
        .collect()
}

/// [`short_id_len`] over the papers' ids, read on every core (a million
/// ids scattered over the heap are slow to visit on one).
pub(super) fn parallel_short_id_len(papers: &[Paper]) -> usize {
    let threads = crate::parallel::threads();
    if papers.len() < 65_536 || threads < 2 {
        return short_id_len(papers.iter().map(|p| &p.id));
    }
    let parts = crate::parallel::map_split(papers, threads, |_, part| {
        hash_values(part.iter().map(|p| &p.id))
    });
    shortest_unique(parts.concat())
}

/// The shortest hex prefix length (at least [`MIN_SHORT_ID`]) at which all
/// of `hashes` differ.
pub(crate) fn shortest_unique(mut hashes: Vec<u64>) -> usize {
    hashes.sort_unstable();
    hashes.dedup();
    let mut len = MIN_SHORT_ID;
    for pair in hashes.windows(2) {
        // Hex digits in common: a digit is four bits.
        let common = ((pair[0] ^ pair[1]).leading_zeros() / 4) as usize;
        len = len.max(common + 1);
    }
    len.min(16)
}
