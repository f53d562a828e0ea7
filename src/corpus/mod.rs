//! Papers and the corpus that holds them.
//!
//! A format reader turns a file into [`Record`]s: the fields as the file
//! wrote them. [`Record::into_paper`] makes them safe to print, gives each a
//! stable [`PaperId`] and, where the file had none, a derived title. A
//! [`Corpus`] is the papers of one session in input order, with the ids
//! shortened the way git shortens hashes.

pub mod abstracts;
pub mod fields;
mod fold;
mod json_string;
pub mod load;
pub mod readers;
pub mod title;

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

pub use abstracts::Abstract;
pub use readers::{Format, Reader, atom, bibtex, csv, json, ris, text};

use crate::text::sanitize;

/// The shortest prefix a hash id is ever shown with.
pub const MIN_SHORT_ID: usize = 7;

/// A paper's stable identity: the record's own identifier where it has one
/// (`arxiv:2401.01234`, `doi:10.1145/…`), otherwise 16 hex digits of a
/// 64-bit hash of its text.
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

    /// An id given as text (a state file key, a command-line argument).
    pub fn parse(text: &str) -> PaperId {
        PaperId(text.into())
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

/// One paper, ready to show: every text field sanitized.
#[derive(Clone, PartialEq, Debug)]
pub struct Paper {
    /// Stable identity.
    pub id: PaperId,
    /// The title, given or derived (may hold light markup when given).
    pub title: String,
    /// True when the title was derived from the abstract.
    pub title_derived: bool,
    /// The abstract (paragraphs separated by `\n\n`); empty when the record
    /// had none.
    pub abstract_text: Abstract,
    /// The list the paper came from (a header line, or the file name),
    /// shared by the papers of a list.
    pub source: Arc<str>,
    /// Position in its list, from 0.
    pub position: u32,
    /// Author names as written.
    pub authors: Authors,
    /// Publication year.
    pub year: Option<i32>,
    /// Journal, conference or venue.
    pub venue: Option<String>,
    /// Links given by the record (URLs and the DOI's link); see
    /// [`Paper::links`].
    pub record_links: Vec<String>,
    /// Further lists that held the same paper.
    pub also_in: Vec<Arc<str>>,
    /// The id this paper had before its reader read the one it has now
    /// (see [`Record::former_id`]).
    pub former_id: Option<PaperId>,
}

impl Paper {
    /// The paper's links: the record's, then the arXiv abstract page when
    /// the id is an arXiv one (unless the record's last link is that).
    pub fn links(&self) -> Vec<String> {
        let mut links = self.record_links.clone();
        if let Some(a) = self.id.as_str().strip_prefix("arxiv:") {
            let abs = format!("https://arxiv.org/abs/{a}");
            if links.last() != Some(&abs) {
                links.push(abs);
            }
        }
        links
    }
}

/// Author names (none blank; a paper's are sanitized), kept as one
/// string, the names separated by a control character that sanitizing
/// never leaves in a name: one allocation a paper rather than one a name
/// and one for the list (the arXiv snapshot has about five names a
/// paper).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Authors(Box<str>);

/// Between two names in [`Authors`].
pub(crate) const NAME_SEP: char = '\u{1F}';

impl Authors {
    /// Names already joined by [`NAME_SEP`], none blank.
    pub(crate) fn from_joined(joined: String) -> Authors {
        Authors(joined.into())
    }

    /// The names in order.
    pub fn iter(&self) -> impl Iterator<Item = &str> + Clone {
        self.0.split(NAME_SEP).filter(|n| !n.is_empty())
    }

    /// The number of names.
    pub fn len(&self) -> usize {
        if self.0.is_empty() {
            0
        } else {
            self.0.matches(NAME_SEP).count() + 1
        }
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The names joined by `sep`.
    pub fn join(&self, sep: &str) -> String {
        self.iter().collect::<Vec<_>>().join(sep)
    }
}

impl<S: AsRef<str>> FromIterator<S> for Authors {
    /// Blank names are left out; a name holding the separator (which
    /// sanitized text never does) has it as a space.
    fn from_iter<I: IntoIterator<Item = S>>(names: I) -> Self {
        let mut all = String::new();
        for name in names {
            let name = name.as_ref();
            if name.trim().is_empty() {
                continue;
            }
            if !all.is_empty() {
                all.push(NAME_SEP);
            }
            all.extend(name.chars().map(|c| if c == NAME_SEP { ' ' } else { c }));
        }
        Authors(all.into())
    }
}

impl std::ops::Index<usize> for Authors {
    type Output = str;

    /// Name `i` (panics past the last, as a list does).
    fn index(&self, i: usize) -> &str {
        self.iter().nth(i).expect("an author's index past the last")
    }
}

impl<T: AsRef<str>> PartialEq<[T]> for Authors {
    fn eq(&self, other: &[T]) -> bool {
        self.iter().eq(other.iter().map(AsRef::as_ref))
    }
}

impl<T: AsRef<str>, const N: usize> PartialEq<[T; N]> for Authors {
    fn eq(&self, other: &[T; N]) -> bool {
        *self == other[..]
    }
}

impl<T: AsRef<str>> PartialEq<Vec<T>> for Authors {
    fn eq(&self, other: &Vec<T>) -> bool {
        *self == other[..]
    }
}

impl fmt::Debug for Authors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl serde::Serialize for Authors {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

/// A record as a format reader found it: raw, unsanitized fields.
#[derive(Clone, Default, Debug)]
pub struct Record {
    /// The title, if the record gives one.
    pub title: Option<String>,
    /// The abstract, if any.
    pub abstract_text: Option<String>,
    /// Author names.
    pub authors: Authors,
    /// Year.
    pub year: Option<i32>,
    /// Venue.
    pub venue: Option<String>,
    /// Explicit URLs.
    pub urls: Vec<String>,
    /// An arXiv identifier.
    pub arxiv: Option<String>,
    /// A DOI.
    pub doi: Option<String>,
    /// The line the record starts on (1-based), for messages.
    pub line: usize,
    /// The id the paper had before the reader learnt to read the one it
    /// has now (an arXiv id found where it used to be missed): marks
    /// kept under it are moved to the new one. `None` for most records.
    pub former_id: Option<PaperId>,
}

impl Record {
    /// Sanitizes the record and gives it an id and, when it has no title, a
    /// derived one. `source` is the list's (sanitized) name. `None` when the
    /// record has neither title nor abstract.
    pub fn into_paper(self, source: &Arc<str>, position: u32) -> Option<Paper> {
        self.into_paper_deferring(source, position, None)
    }

    /// [`Record::into_paper`] for a record whose abstract was left in its
    /// file (the record has none): `deferred` is it, with the JSON string
    /// it is there. The string is decoded only where the paper needs its
    /// text now: for an id hashed from it, or a title derived from it.
    pub fn into_paper_deferring(
        mut self,
        source: &Arc<str>,
        position: u32,
        deferred: Option<(Abstract, &str)>,
    ) -> Option<Paper> {
        let mut deferred = deferred;
        let decode = |text: &mut Option<String>, deferred: &mut Option<(Abstract, &str)>| {
            if let Some((_, raw)) = deferred.take() {
                *text = json_string::string_folded(raw);
            }
        };
        let empty = |s: &Option<String>| s.as_deref().is_none_or(|t| t.trim().is_empty());
        // A deferred abstract is never empty.
        if deferred.is_none() && empty(&self.title) && empty(&self.abstract_text) {
            return None;
        }
        let has = |s: &Option<String>| s.as_deref().is_some_and(|s| !s.trim().is_empty());
        if !has(&self.arxiv) && !has(&self.doi) {
            decode(&mut self.abstract_text, &mut deferred);
        }
        let arxiv = self
            .arxiv
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty());
        let doi = self.doi.as_deref().map(str::trim).filter(|s| !s.is_empty());
        let id = match (arxiv, doi) {
            (Some(a), _) => PaperId::arxiv(&sanitize::line(a)),
            (None, Some(d)) => PaperId::doi(&sanitize::line(d)),
            (None, None) => PaperId::from_hash(content_hash(
                self.title.as_deref(),
                self.abstract_text.as_deref().unwrap_or(""),
            )),
        };
        // The raw text is no longer needed: sanitize it in place.
        let given = self
            .title
            .take()
            .map(sanitize::line_owned)
            .filter(|t| !t.is_empty());
        if given.is_none() {
            decode(&mut self.abstract_text, &mut deferred);
        }
        let abstract_text = match deferred {
            Some((text, _)) => text,
            None => self
                .abstract_text
                .take()
                .map(sanitize::block_owned)
                .unwrap_or_default()
                .into(),
        };
        if given.is_none() && abstract_text.is_empty() {
            return None;
        }
        let mut links: Vec<String> = self
            .urls
            .iter()
            .map(|u| sanitize::line(u))
            .filter(|u| u.starts_with("http://") || u.starts_with("https://"))
            .collect();
        if let Some(d) = doi {
            links.push(format!("https://doi.org/{}", sanitize::line(d)));
        }
        // The arXiv link is made from the id when asked for (see
        // `Paper::links`): a million papers need not keep a million.
        links.dedup();
        let (title, title_derived) = match given {
            Some(t) => (t, false),
            None => (title::derive(&abstract_text.text()), true),
        };
        Some(Paper {
            id,
            title,
            title_derived,
            abstract_text,
            source: source.clone(),
            position,
            // Kept as they are when every name is clean (the common case).
            authors: if self.authors.iter().all(|a| sanitize::line(a) == a) {
                self.authors
            } else {
                self.authors.iter().map(sanitize::line).collect()
            },
            year: self.year,
            venue: self
                .venue
                .as_deref()
                .map(sanitize::line)
                .filter(|v| !v.is_empty()),
            record_links: links,
            also_in: Vec::new(),
            former_id: self.former_id,
        })
    }
}

/// What a format reader found in one input: the list's name if the input
/// names one, the records in input order, and what it had to skip.
#[derive(Debug, Default)]
pub struct Parsed {
    /// The list's name, when the input gives one (a text file's header).
    pub header: Option<String>,
    /// The records, in input order.
    pub records: Vec<Record>,
    /// Records that could not be read: (1-based line, reason).
    pub skipped: Vec<(usize, String)>,
}

/// How an id or id prefix given by a user resolves.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Lookup {
    /// Exactly one paper.
    Found(usize),
    /// No paper has it.
    Unknown,
    /// Several papers share the prefix (their indices).
    Ambiguous(Vec<usize>),
}

/// The papers of one session, in input order, each id once.
#[derive(Clone, Default, Debug)]
pub struct Corpus {
    /// The papers.
    pub papers: Vec<Paper>,
    short_len: usize,
}

/// Papers that are new to a corpus, and lists that papers already in it
/// turn out to be in too.
#[derive(Debug, Default)]
pub struct Batch {
    /// Papers not met before, in input order.
    pub papers: Vec<Paper>,
    /// (index of a paper already kept, another list holding it).
    pub also_in: Vec<(u32, Arc<str>)>,
}

/// Tells papers met for the first time from repeats (the same id), so
/// that a paper present in several files appears once, with all its lists.
/// It keeps only a 128-bit hash of each id, so it can run beside loading,
/// away from the papers it has passed on.
#[derive(Debug, Default)]
pub struct Dedup {
    index: HashMap<u128, u32, std::hash::BuildHasherDefault<HashOfHash>>,
    sources: Vec<Arc<str>>,
    first_source: Vec<u32>,
}

/// The hasher for keys that are hashes already: it keeps their low bits.
#[derive(Default)]
pub struct HashOfHash(u64);

impl std::hash::Hasher for HashOfHash {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u128(&mut self, n: u128) {
        self.0 = n as u64;
    }
}

impl Dedup {
    fn source_id(&mut self, s: &Arc<str>) -> u32 {
        match self
            .sources
            .iter()
            .position(|t| Arc::ptr_eq(t, s) || **t == **s)
        {
            Some(i) => i as u32,
            None => {
                self.sources.push(s.clone());
                (self.sources.len() - 1) as u32
            }
        }
    }

    /// Splits `papers` into new ones and repeats of papers kept before.
    pub fn accept(&mut self, papers: Vec<Paper>) -> Batch {
        let keys: Vec<u128> = papers.iter().map(|p| id_key(&p.id)).collect();
        self.accept_keyed(papers, &keys)
    }

    /// [`Dedup::accept`] with each paper's [`id_key`] worked out already
    /// (by the threads that parsed them).
    pub fn accept_keyed(&mut self, mut papers: Vec<Paper>, keys: &[u128]) -> Batch {
        let mut also_in = Vec::new();
        self.index.reserve(papers.len());
        self.first_source.reserve(papers.len());
        let mut last_source: Option<(Arc<str>, u32)> = None;
        let mut keep = Vec::with_capacity(papers.len());
        for (paper, &key) in papers.iter().zip(keys) {
            let src = match &last_source {
                Some((s, id)) if Arc::ptr_eq(s, &paper.source) => *id,
                _ => {
                    let id = self.source_id(&paper.source);
                    last_source = Some((paper.source.clone(), id));
                    id
                }
            };
            let next = self.first_source.len() as u32;
            match self.index.entry(key) {
                std::collections::hash_map::Entry::Occupied(e) => {
                    let i = *e.get();
                    if self.first_source[i as usize] != src {
                        also_in.push((i, paper.source.clone()));
                    }
                    keep.push(false);
                }
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(next);
                    self.first_source.push(src);
                    keep.push(true);
                }
            }
        }
        // Vec::retain visits in order.
        let mut k = keep.iter();
        papers.retain(|_| *k.next().unwrap_or(&true));
        Batch { papers, also_in }
    }

    /// Room for `papers` in all.
    pub fn expect(&mut self, papers: usize) {
        self.index.reserve(papers.saturating_sub(self.index.len()));
    }

    /// Which of the papers with these [`id_key`]s are new (each is then
    /// known): for a load that keeps no lists, only titles.
    pub fn fresh(&mut self, keys: &[u128]) -> Vec<bool> {
        self.index.reserve(keys.len());
        keys.iter()
            .map(|&key| {
                let next = self.first_source.len() as u32;
                let new = match self.index.entry(key) {
                    std::collections::hash_map::Entry::Occupied(_) => false,
                    std::collections::hash_map::Entry::Vacant(e) => {
                        e.insert(next);
                        true
                    }
                };
                if new {
                    // No list: a load for titles alone keeps none.
                    self.first_source.push(u32::MAX);
                }
                new
            })
            .collect()
    }
}

/// The key [`Dedup`] knows a paper by: a 128-bit hash of its id.
pub fn id_key(id: &PaperId) -> u128 {
    xxhash_rust::xxh3::xxh3_128(id.as_str().as_bytes())
}

/// [`id_key`] of [`PaperId::from_hash`]`(hash)`, without making the id.
pub(crate) fn hash_id_key(hash: u64) -> u128 {
    xxhash_rust::xxh3::xxh3_128(&hex16(hash))
}

impl Corpus {
    /// Builds a corpus: a paper met twice (same id) is kept once with both
    /// lists; derived titles that collide with another title get the short
    /// id appended, so every title is unique.
    pub fn new(papers: Vec<Paper>) -> Corpus {
        let mut corpus = Corpus::default();
        corpus.push(Dedup::default().accept(papers));
        corpus.finish();
        corpus
    }

    /// Appends a batch (from [`Dedup::accept`]).
    /// Makes room for the `expected` papers a load will likely end with
    /// (see the loader's `expected_papers`), so that a large corpus is not
    /// copied each time it doubles (on the 1M-paper JSONL that copying,
    /// and the clearing of the memory copied into, was a sixth of the
    /// loading time). Room is made for 5% more, and made again only when
    /// the estimate outgrows it. Returns the room made, counted in papers
    /// beyond those in.
    pub fn expect(&mut self, expected: usize) -> Option<usize> {
        let now = self.papers.len();
        if now == 0 || self.papers.capacity() >= expected {
            return None;
        }
        let more = (expected + expected / 20) - now;
        self.papers.reserve_exact(more);
        Some(more)
    }

    pub fn push(&mut self, batch: Batch) {
        if self.papers.capacity() == 0 {
            self.papers = batch.papers;
        } else {
            self.papers.extend(batch.papers);
        }
        for (i, source) in batch.also_in {
            if let Some(p) = self.papers.get_mut(i as usize)
                && !p.also_in.contains(&source)
            {
                p.also_in.push(source);
            }
        }
        self.short_len = self.short_len.max(MIN_SHORT_ID);
    }

    /// Once every paper is in: shortens ids as far as they stay unique and
    /// makes derived titles unique. Returns the papers whose title changed.
    pub fn finish(&mut self) -> Vec<usize> {
        self.short_len = parallel_short_id_len(&self.papers);
        self.make_titles_unique()
    }

    fn make_titles_unique(&mut self) -> Vec<usize> {
        let papers = &self.papers;
        let dupes = colliding_derived(
            papers.len(),
            |i| &papers[i].title,
            |i| papers[i].title_derived,
        );
        for &i in &dupes {
            let short = self.short_id(i).to_string();
            self.papers[i].title = format!("{} [{short}]", self.papers[i].title);
        }
        dupes
    }

    /// Number of papers.
    pub fn len(&self) -> usize {
        self.papers.len()
    }

    /// True when there are no papers.
    pub fn is_empty(&self) -> bool {
        self.papers.is_empty()
    }

    /// The id of paper `i` as shown: hash ids cut to the shortest length at
    /// which all of this corpus's hash ids differ (at least
    /// [`MIN_SHORT_ID`]); other ids whole.
    pub fn short_id(&self, i: usize) -> &str {
        self.papers[i].id.shown(self.short_len)
    }

    /// Each paper whose id changed when its reader learnt to read a better
    /// one: (former id, id). Marks saved under a former id are to follow
    /// it (`Store::adopt`).
    pub fn former_ids(&self) -> Vec<(PaperId, PaperId)> {
        self.papers
            .iter()
            .filter_map(|p| Some((p.former_id.clone()?, p.id.clone())))
            .collect()
    }

    /// The paper with id (or unique id prefix) `text`.
    pub fn lookup(&self, text: &str) -> Lookup {
        let text = text.trim();
        if text.is_empty() {
            return Lookup::Unknown;
        }
        let lower = text.to_lowercase();
        let hits: Vec<usize> = self
            .papers
            .iter()
            .enumerate()
            .filter(|(_, p)| p.id.as_str().to_lowercase().starts_with(&lower))
            .map(|(i, _)| i)
            .collect();
        if let Some(&exact) = hits
            .iter()
            .find(|&&i| self.papers[i].id.as_str().eq_ignore_ascii_case(text))
        {
            return Lookup::Found(exact);
        }
        match hits.len() {
            0 => Lookup::Unknown,
            1 => Lookup::Found(hits[0]),
            _ => Lookup::Ambiguous(hits),
        }
    }
}

/// The derived titles (`derived(i)`) that another title equals: these get
/// their paper's short id, so that no two papers read the same.
pub(crate) fn colliding_derived<'a>(
    n: usize,
    title: impl Fn(usize) -> &'a str,
    derived: impl Fn(usize) -> bool,
) -> Vec<usize> {
    if !(0..n).any(&derived) {
        return Vec::new();
    }
    let mut count: HashMap<&str, usize> = HashMap::new();
    for i in 0..n {
        *count.entry(title(i)).or_default() += 1;
    }
    (0..n)
        .filter(|&i| derived(i) && count[title(i)] > 1)
        .collect()
}

/// The length at which all hash ids differ, at least [`MIN_SHORT_ID`].
fn short_id_len<'a>(ids: impl Iterator<Item = &'a PaperId>) -> usize {
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
fn parallel_short_id_len(papers: &[Paper]) -> usize {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn authors_keep_their_names_in_one_string() {
        let a: Authors = ["Ada Lovelace", "  ", "", "Alan\u{1F}Turing", "Grace Hopper"]
            .into_iter()
            .collect();
        assert_eq!(
            a.iter().collect::<Vec<_>>(),
            ["Ada Lovelace", "Alan Turing", "Grace Hopper"]
        );
        assert_eq!(a.len(), 3);
        assert_eq!(
            a.join(" and "),
            "Ada Lovelace and Alan Turing and Grace Hopper"
        );
        assert_eq!(
            serde_json::to_string(&a).unwrap(),
            r#"["Ada Lovelace","Alan Turing","Grace Hopper"]"#
        );
        assert_eq!(
            format!("{a:?}"),
            r#"["Ada Lovelace", "Alan Turing", "Grace Hopper"]"#
        );
        let none: Authors = Vec::<String>::new().into_iter().collect();
        assert_eq!(none.len(), 0);
        assert!(none.is_empty() && none.iter().next().is_none());
    }

    fn paper(title: &str, abs: &str) -> Paper {
        Record {
            title: Some(title.into()).filter(|t: &String| !t.is_empty()),
            abstract_text: Some(abs.into()),
            ..Record::default()
        }
        .into_paper(&"list".into(), 0)
        .unwrap()
    }

    #[test]
    fn hash_ids_ignore_whitespace_and_derived_titles() {
        let a = paper("", "We study  things.\nMore text.");
        let b = paper("", "We study things. More text.");
        assert_eq!(a.id, b.id);
        assert!(a.id.is_hash());
        assert_eq!(
            a.id.as_str(),
            format!("{:016x}", content_hash(None, "We study things. More text."))
        );
        let c = paper("A title", "We study things. More text.");
        assert_ne!(a.id, c.id);
    }

    #[test]
    fn record_ids_come_first() {
        let p = Record {
            title: Some("T".into()),
            arxiv: Some("arXiv:2401.01234v3".into()),
            doi: Some("10.1/X".into()),
            ..Record::default()
        }
        .into_paper(&"l".into(), 0)
        .unwrap();
        assert_eq!(p.id.as_str(), "arxiv:2401.01234");
        assert_eq!(
            p.links(),
            ["https://doi.org/10.1/X", "https://arxiv.org/abs/2401.01234"]
        );
        assert_eq!(
            PaperId::doi("https://doi.org/10.1/ABC").as_str(),
            "doi:10.1/abc"
        );
    }

    #[test]
    fn former_ids_are_listed_with_the_ids_they_became() {
        let moved = Record {
            title: Some("T".into()),
            arxiv: Some("2106.09685".into()),
            former_id: Some(PaperId::from_hash(7)),
            ..Record::default()
        }
        .into_paper(&"l".into(), 0)
        .unwrap();
        assert_eq!(moved.former_id, Some(PaperId::from_hash(7)));
        let corpus = Corpus::new(vec![paper("", "one"), moved]);
        assert_eq!(
            corpus.former_ids(),
            [(PaperId::from_hash(7), PaperId::parse("arxiv:2106.09685"))]
        );
    }

    #[test]
    fn empty_records_are_dropped() {
        assert!(Record::default().into_paper(&"l".into(), 0).is_none());
    }

    #[test]
    fn short_ids_grow_until_unique() {
        let ids = [
            PaperId::parse("abcdef0123456789"),
            PaperId::parse("abcdef0923456789"),
            PaperId::parse("0000000000000000"),
        ];
        assert_eq!(short_id_len(ids.iter()), 8);
        assert_eq!(short_id_len(ids[2..].iter()), 7);
    }

    #[test]
    fn duplicates_merge_and_titles_become_unique() {
        let mut a = paper("", "Same abstract here.");
        let mut b = a.clone();
        b.source = "other".into();
        a.source = "list".into();
        let c = paper("", "Same abstract here, but longer.");
        let mut d = c.clone();
        d.id = PaperId::from_hash(1);
        let corpus = Corpus::new(vec![a, b, c, d]);
        assert_eq!(corpus.len(), 3);
        assert_eq!(
            corpus.papers[0].also_in,
            vec![std::sync::Arc::<str>::from("other")]
        );
        assert_ne!(corpus.papers[1].title, corpus.papers[2].title);
    }

    #[test]
    fn lookup_by_prefix() {
        let corpus = Corpus::new(vec![paper("", "one"), paper("", "two")]);
        let id = corpus.papers[1].id.as_str().to_string();
        assert_eq!(corpus.lookup(&id[..9]), Lookup::Found(1));
        assert_eq!(corpus.lookup(&id.to_uppercase()), Lookup::Found(1));
        assert_eq!(corpus.lookup("zzzz"), Lookup::Unknown);
        assert!(matches!(corpus.lookup(""), Lookup::Unknown));
    }
}
