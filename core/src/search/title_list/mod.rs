//! The titles and ids of papers without the rest of them: what `paperboat
//! search` keeps of a corpus too large to hold whole. The titles live in
//! the matcher's buffers ([`TitleIndex`]), so this list belongs to the
//! search layer; the papers it is made from come from the corpus.

mod stored;

use std::fmt;
use std::sync::Arc;

use super::TitleIndex;
use super::array::Arr;
use crate::corpus::{
    Paper, Record, colliding_derived, content_hash, hash_id_key, hex16, id_key, shortest_unique,
};
use crate::text::{markup, sanitize};

/// How a [`TitlePart`] keeps an id: a content hash as its number, any
/// other id by its place in [`TitlePart::names`].
#[derive(Clone, Copy, Debug)]
enum IdSlot {
    Hash(u64),
    Named(u32),
}

/// An [`IdSlot`] as it is kept: plain old data, so that the ids of a list
/// read back from the cache are used where they lie.
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
struct Slot {
    /// [`Slot::NAMED`] or not.
    kind: u64,
    value: u64,
}

impl Slot {
    const NAMED: u64 = 1;

    fn get(self) -> IdSlot {
        match self.kind {
            Slot::NAMED => IdSlot::Named(self.value as u32),
            _ => IdSlot::Hash(self.value),
        }
    }
}

impl From<IdSlot> for Slot {
    fn from(id: IdSlot) -> Slot {
        match id {
            IdSlot::Hash(h) => Slot { kind: 0, value: h },
            IdSlot::Named(k) => Slot {
                kind: Slot::NAMED,
                value: u64::from(k),
            },
        }
    }
}

/// Ids other than hashes, their text end to end (not an allocation
/// each: a list read back from the cache uses them where they lie).
#[derive(Debug, Default)]
struct Names {
    /// Where each ends in `text`.
    ends: Arr<u64>,
    text: Arr<u8>,
}

impl Names {
    fn len(&self) -> usize {
        self.ends.len()
    }

    /// Adds `name`; its place.
    fn push(&mut self, name: &str) -> u32 {
        self.text.vec_mut().extend_from_slice(name.as_bytes());
        let end = self.text.len() as u64;
        self.ends.vec_mut().push(end);
        (self.ends.len() - 1) as u32
    }

    /// Starts fetching where name `k` lies (see [`TitleList::prefetch_line`]).
    fn prefetch_end(&self, k: usize) {
        if let Some(end) = self.ends.get(k) {
            super::prefetch(end);
        }
    }

    /// Starts fetching name `k`'s text, once where it lies is at hand.
    fn prefetch_text(&self, k: usize) {
        let start = k
            .checked_sub(1)
            .and_then(|j| self.ends.get(j))
            .map_or(0, |&e| e);
        if let Some(b) = usize::try_from(start).ok().and_then(|s| self.text.get(s)) {
            super::prefetch(b);
        }
    }

    /// Name `k` ("" past the last, or where the text is not whole).
    fn get(&self, k: usize) -> &str {
        std::str::from_utf8(self.bytes(k)).unwrap_or("")
    }

    /// Name `k`'s bytes (none past the last, or where the text is not
    /// whole).
    fn bytes(&self, k: usize) -> &[u8] {
        let start = match k.checked_sub(1) {
            Some(j) => self.ends.get(j).copied(),
            None => Some(0),
        };
        start
            .zip(self.ends.get(k))
            .and_then(|(start, &end)| self.text.get(start as usize..end as usize))
            .unwrap_or(&[])
    }
}

/// Titles and ids of papers, without the rest of them: what `search`
/// prints, for a corpus too large to hold whole at little cost. The titles
/// are kept readable (markup rendered) in the matcher's buffers, the ids
/// as numbers where they are hashes. They are kept in the parts the
/// loading threads made, so that no title is copied twice.
#[derive(Debug, Default)]
pub struct TitleList {
    parts: Vec<TitlePart>,
    /// The index of each part's first paper.
    starts: Vec<usize>,
    len: usize,
    short_len: usize,
}

/// Part of a [`TitleList`].
#[derive(Debug, Default)]
struct TitlePart {
    titles: TitleIndex,
    ids: Arr<Slot>,
    names: Names,
    derived: Vec<bool>,
    /// The titles whose text as given differs from their readable text
    /// (markup), ascending, and that text: derived titles are made unique
    /// by the text as given, as in [`Corpus`](crate::corpus::Corpus).
    marked_at: Vec<u32>,
    marked: Vec<Box<str>>,
}

impl TitlePart {
    fn len(&self) -> usize {
        self.ids.len()
    }

    fn push(&mut self, title: &str, derived: bool, id: IdSlot) {
        let plain = markup::plain_cow(title);
        if *plain != *title {
            self.marked_at.push(self.len() as u32);
            self.marked.push(title.into());
        }
        self.titles.push(&plain);
        self.derived.push(derived);
        self.ids.vec_mut().push(id.into());
    }

    fn push_paper(&mut self, p: Paper) {
        let hash = u64::from_str_radix(p.id.as_str(), 16).ok();
        // Only ids that read back the same (16 lower-case digits) are kept
        // as numbers.
        let id = match hash.filter(|&h| hex16(h) == p.id.as_str().as_bytes()) {
            Some(h) => IdSlot::Hash(h),
            None => IdSlot::Named(self.names.push(p.id.as_str())),
        };
        if let Some(mask) = super::masks::plain_ascii_title_mask(p.title.as_bytes()) {
            // Shown as it is (most titles): one pass decided it, as for a
            // title line.
            self.titles.push_plain_ascii(&p.title, mask);
            self.derived.push(p.title_derived);
            self.ids.vec_mut().push(id.into());
        } else {
            self.push(&p.title, p.title_derived, id);
        }
    }

    /// Whether paper `j`'s id is `id`.
    fn has_id(&self, j: usize, id: &str) -> bool {
        match self.ids.get(j).map(|s| s.get()) {
            Some(IdSlot::Hash(h)) => hex16(h) == id.as_bytes(),
            Some(IdSlot::Named(k)) => self.names.get(k as usize) == id,
            None => false,
        }
    }

    /// Title `i` as given (before markup is rendered).
    fn given(&self, i: usize) -> &str {
        match self.marked_at.binary_search(&(i as u32)) {
            Ok(k) => &self.marked[k],
            Err(_) => self.titles.text(i),
        }
    }

    /// Title `i` becomes `title` (as given).
    fn set(&mut self, i: usize, title: String) {
        let plain = markup::plain_cow(&title).into_owned();
        self.titles.set(i, &plain);
        let marked = (plain != title).then(|| title.into());
        super::set_sparse(&mut self.marked_at, &mut self.marked, i, marked);
    }

    /// Keeps only the papers `keep` says.
    fn retain(&mut self, keep: &[bool]) {
        self.titles.retain(keep);
        super::retain_kept(self.ids.vec_mut(), keep);
        super::retain_kept(&mut self.derived, keep);
        super::retain_sparse(&mut self.marked_at, &mut self.marked, keep);
    }
}

impl TitleList {
    /// How many papers there are.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The part papers are pushed to: the last one.
    fn last(&mut self) -> &mut TitlePart {
        if self.parts.is_empty() {
            self.parts.push(TitlePart::default());
            self.starts.push(0);
        }
        let last = self.parts.len() - 1;
        &mut self.parts[last]
    }

    /// Keeps the title and id of `p`, dropping the rest.
    pub fn push_paper(&mut self, p: Paper) {
        self.len += 1;
        self.last().push_paper(p);
    }

    /// Keeps the title and id of each of `papers`, dropping the rest.
    pub fn push(&mut self, papers: Vec<Paper>) {
        for p in papers {
            self.push_paper(p);
        }
    }

    /// Keeps what [`Record::into_paper`] keeps of a line of the `lines`
    /// format (trimmed, not blank; `title` when it is short enough to be
    /// one): the paper's id key and whether it has an abstract, or `None`
    /// when it makes no paper. A title line is read without making a
    /// record or a paper.
    pub fn push_line(&mut self, line: &str, title: bool, line_no: usize) -> Option<(u128, bool)> {
        if !title {
            let p = Record {
                abstract_text: Some(line.to_string()),
                line: line_no,
                ..Record::default()
            }
            .into_paper(&Arc::from(""), 0)?;
            let key = id_key(&p.id);
            let has_abstract = !p.abstract_text.is_empty();
            self.push_paper(p);
            return Some((key, has_abstract));
        }
        let hash = content_hash(Some(line), "");
        self.len += 1;
        let part = self.last();
        if let Some(mask) = super::masks::plain_ascii_title_mask(line.as_bytes()) {
            // Shown as it is (most titles): one pass decided it.
            part.titles.push_plain_ascii(line, mask);
            part.derived.push(false);
            part.ids.vec_mut().push(IdSlot::Hash(hash).into());
        } else {
            let clean = sanitize::line_cow(line);
            if clean.is_empty() {
                self.len -= 1;
                return None;
            }
            part.push(&clean, false, IdSlot::Hash(hash));
        }
        Some((hash_id_key(hash), false))
    }

    /// Room for `more` papers of about `bytes` of titles in all.
    pub fn reserve(&mut self, more: usize, bytes: usize) {
        let part = self.last();
        part.titles.reserve(more, bytes);
        part.ids.vec_mut().reserve(more);
        part.derived.reserve(more);
    }

    /// Room for `papers` papers in all, when there is less: a list fed a
    /// paper at a time (a search's load, told how many its file likely
    /// holds) grows once to that size, rather than doubling, each time
    /// copying every title and touching twice the memory (a tenth of a
    /// `--no-cache` search's CPU at 2.7M papers was spent so). Only a list
    /// of one part, as pushing makes.
    pub fn expect(&mut self, papers: usize) {
        if self.parts.len() > 1 || papers <= self.len {
            return;
        }
        let part = self.last();
        let n = part.len();
        if part.titles.capacity() >= papers {
            return;
        }
        let more = papers - n;
        // Titles as long as those so far on average, and 64 bytes at least
        // (a list told before its first titles); room never used is only
        // address space, never faulted in.
        let each = part.titles.ascii_bytes().div_ceil(n.max(1)).max(64);
        part.titles.reserve_exact(more, more * each);
        part.ids.vec_mut().reserve_exact(more);
        part.derived.reserve_exact(more);
    }

    /// Adds `other`'s papers after these; only those `keep` says when
    /// given. `other`'s parts are taken over, not copied.
    pub fn append(&mut self, other: TitleList, keep: Option<&[bool]>) {
        let mut at = 0;
        for part in other.parts {
            let n = part.len();
            let mut part = part;
            if let Some(k) = keep.map(|k| &k[at..at + n])
                && k.iter().any(|&k| !k)
            {
                part.retain(k);
            }
            at += n;
            if part.len() > 0 {
                self.starts.push(self.len);
                self.len += part.len();
                self.parts.push(part);
            }
        }
    }

    /// Paper `i` is known by the hash id `hash` (one that a repeat of its
    /// text with other authors, year, volume or key takes; see `Dedup`).
    pub fn set_hash_id(&mut self, i: usize, hash: u64) {
        let k = self.starts.partition_point(|&s| s <= i) - 1;
        let j = i - self.starts[k];
        self.parts[k].ids.vec_mut()[j] = IdSlot::Hash(hash).into();
    }

    /// Where paper `i` is: its part and its index there.
    fn locate(&self, i: usize) -> (&TitlePart, usize) {
        let k = self.starts.partition_point(|&s| s <= i) - 1;
        (&self.parts[k], i - self.starts[k])
    }

    /// Paper `i`'s id, whole, handed to `f`.
    pub fn id_with(&self, i: usize, f: &mut dyn FnMut(&str)) {
        let (part, j) = self.locate(i);
        match part.ids[j].get() {
            IdSlot::Hash(h) => f(std::str::from_utf8(&hex16(h)).unwrap_or("")),
            IdSlot::Named(k) => f(part.names.get(k as usize)),
        }
    }

    /// Where each of `ids` is (the first paper with it), in one pass over
    /// the ids as held: for the few papers a reader has marks on, among
    /// millions, without making each id's text.
    pub fn find_ids(&self, ids: &[&str]) -> Vec<Option<usize>> {
        let mut hashes = rustc_hash::FxHashMap::default();
        let mut named = rustc_hash::FxHashMap::default();
        // An id asked for twice is looked for once, under its first place.
        let first: Vec<usize> = ids
            .iter()
            .enumerate()
            .map(|(k, id)| {
                match u64::from_str_radix(id, 16)
                    .ok()
                    .filter(|&h| hex16(h) == id.as_bytes())
                {
                    Some(h) => *hashes.entry(h).or_insert(k),
                    None => *named.entry(id.as_bytes()).or_insert(k),
                }
            })
            .collect();
        let mut found = vec![None; ids.len()];
        for (part, &start) in self.parts.iter().zip(&self.starts) {
            for (j, slot) in part.ids.iter().enumerate() {
                let k = match slot.get() {
                    IdSlot::Hash(h) if !hashes.is_empty() => hashes.get(&h),
                    IdSlot::Named(n) if !named.is_empty() => {
                        named.get(part.names.bytes(n as usize))
                    }
                    _ => None,
                };
                if let Some(&k) = k {
                    found[k].get_or_insert(start + j);
                }
            }
        }
        first.iter().map(|&k| found[k]).collect()
    }

    /// Title `i` as given (markup not rendered), as the corpus holds it
    /// once finished.
    pub fn given(&self, i: usize) -> &str {
        let (part, j) = self.locate(i);
        part.given(j)
    }

    /// The length hash ids are shown at, once finished.
    pub fn short_len(&self) -> usize {
        self.short_len
    }

    /// Title `i`'s readable text.
    pub fn title(&self, i: usize) -> &str {
        let (part, j) = self.locate(i);
        part.titles.text(j)
    }

    /// Once every paper is in: as [`Corpus::finish`](crate::corpus::Corpus::finish).
    pub fn finish(&mut self) {
        let hashes = self
            .parts
            .iter()
            .flat_map(|p| p.ids.iter())
            .filter_map(|id| match id.get() {
                IdSlot::Hash(h) => Some(h),
                IdSlot::Named(_) => None,
            })
            .collect();
        self.short_len = shortest_unique(hashes);
        let dupes = colliding_derived(
            self.len,
            |i| {
                let (part, j) = self.locate(i);
                part.given(j)
            },
            |i| {
                let (part, j) = self.locate(i);
                part.derived[j]
            },
        );
        for i in dupes {
            let (part, j) = self.locate(i);
            let title = format!("{} [{}]", part.given(j), self.short_id(i));
            let k = self.starts.partition_point(|&s| s <= i) - 1;
            self.parts[k].set(j, title);
        }
    }

    /// Every title in one matcher buffer (a copy, unless the list is in
    /// one part, as one read back from the cache is), numbered as the
    /// list numbers them: for a ranking that reads the word index, which
    /// numbers papers across the parts.
    pub(super) fn merged_items(&self) -> std::borrow::Cow<'_, super::items::Items> {
        if let [part] = self.parts.as_slice() {
            return std::borrow::Cow::Borrowed(part.titles.items());
        }
        let mut all = super::items::Items::default();
        for part in &self.parts {
            all.append_expecting(part.titles.items().clone(), self.len);
        }
        std::borrow::Cow::Owned(all)
    }

    /// The titles matching `query`, best first (as
    /// [`rank_papers`](super::rank_papers) in the title scope).
    pub fn rank(&self, query: &str) -> Vec<super::Match> {
        super::rank_title_parts(
            self.parts
                .iter()
                .zip(&self.starts)
                .map(|(p, &s)| (&p.titles, s)),
            query,
        )
    }

    /// The matcher's share of `papers` ([`Prepared`](super::Prepared)),
    /// which are papers `from..` of this list loaded again from its file:
    /// each title's readable text and masks copied from the list rather
    /// than made again. `None` when any of them is not the paper at its
    /// place here (another id, or past the end). A derived title is made
    /// again from the paper, as the list's may have its short id appended
    /// ([`TitleList::finish`]), which a reader's corpus does only once it
    /// is whole. What the word index reads of them is left out unless
    /// `index` (see [`Prepared::titles`](super::Prepared::titles)).
    pub fn prepared(&self, from: usize, papers: &[Paper], index: bool) -> Option<super::Prepared> {
        if from.checked_add(papers.len())? > self.len {
            return None;
        }
        let bytes = papers.iter().map(|p| p.title.len()).sum();
        let mut out = super::Prepared::with_room(papers.len(), bytes, index);
        for (k, p) in papers.iter().enumerate() {
            let (part, j) = self.locate(from + k);
            if !part.has_id(j, p.id.as_str()) {
                return None;
            }
            if p.title_derived {
                out.push(p, index);
            } else {
                let made = (part.titles.items(), j, part.titles.text(j));
                if !out.push_made(p, made, index) {
                    return None;
                }
            }
        }
        Some(out)
    }

    /// As [`Corpus::short_id`](crate::corpus::Corpus::short_id).
    pub fn short_id(&self, i: usize) -> ShortId<'_> {
        let (part, j) = self.locate(i);
        match part.ids[j].get() {
            IdSlot::Hash(h) => ShortId::Hash(hex16(h), self.short_len),
            IdSlot::Named(k) => ShortId::Named(part.names.get(k as usize)),
        }
    }

    /// Asks the CPU to start fetching what [`TitleList::write_line`]
    /// reads for paper `i`, a step at a time, each step reading what the
    /// one before fetched: at `stage` 2, where its id and title lie; at 1,
    /// the title's text and where a named id's text lies; at 0, that text.
    /// Lines written in rank order read the titles all over memory, each
    /// read waiting on memory; fetched a few lines ahead, the waits
    /// overlap. The named ids' text (arXiv ids) was two more waits a
    /// line: a fifth of `search rl` at 2.7M.
    pub fn prefetch_line(&self, i: usize, stage: usize) {
        let (part, j) = self.locate(i);
        match stage {
            2.. => {
                if let Some(id) = part.ids.get(j) {
                    super::prefetch(id);
                }
                part.titles.prefetch(j, true);
            }
            1 => {
                if let Some(IdSlot::Named(k)) = part.ids.get(j).map(|s| s.get()) {
                    part.names.prefetch_end(k as usize);
                }
                part.titles.prefetch(j, false);
            }
            0 => {
                if let Some(IdSlot::Named(k)) = part.ids.get(j).map(|s| s.get()) {
                    part.names.prefetch_text(k as usize);
                }
            }
        }
    }

    /// Writes paper `i`'s line of `search` output: short id, tab, title's
    /// readable text.
    pub fn write_line(&self, out: &mut Vec<u8>, i: usize) {
        out.extend_from_slice(self.short_id(i).as_str().as_bytes());
        out.push(b'\t');
        out.extend_from_slice(self.title(i).as_bytes());
        out.push(b'\n');
    }
}

/// A paper's id as shown, from a [`TitleList`].
pub enum ShortId<'a> {
    /// A hash id's digits, and how many are shown.
    Hash([u8; 16], usize),
    /// Any other id, whole.
    Named(&'a str),
}

impl ShortId<'_> {
    /// The id as text.
    pub fn as_str(&self) -> &str {
        match self {
            ShortId::Hash(digits, len) => {
                std::str::from_utf8(&digits[..(*len).min(16)]).unwrap_or("")
            }
            ShortId::Named(s) => s,
        }
    }
}

impl fmt::Display for ShortId<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// A list told how many papers will come grows once, to that many,
    /// and keeps what it is given as a list told nothing keeps.
    #[test]
    fn a_list_told_its_length_grows_once_and_keeps_the_same() {
        let papers: Vec<Paper> = (0..500)
            .map(|k| {
                crate::corpus::Record {
                    title: Some(format!("Paper {k}: sparse attention at scale")),
                    arxiv: Some(format!("2101.{k:05}")),
                    ..Default::default()
                }
                .into_paper(&"t".into(), 0)
                .unwrap()
            })
            .collect();
        let mut told = TitleList::default();
        told.push(papers[..10].to_vec());
        told.expect(500);
        let room = told.parts[0].titles.capacity();
        assert!(room >= 500, "{room}");
        let bytes = told.parts[0].titles.items().ascii.capacity();
        for p in &papers[10..] {
            told.push_paper(p.clone());
        }
        assert_eq!(told.parts[0].titles.capacity(), room, "grew");
        assert_eq!(told.parts[0].titles.items().ascii.capacity(), bytes, "grew");
        // Told less than it holds: nothing changes.
        told.expect(20);
        assert_eq!(told.parts[0].titles.capacity(), room);
        let mut plain = TitleList::default();
        plain.push(papers.clone());
        told.finish();
        plain.finish();
        assert_eq!(told.len(), 500);
        for i in 0..500 {
            assert_eq!(told.title(i), plain.title(i));
            assert_eq!(told.short_id(i).as_str(), plain.short_id(i).as_str());
        }
        let ranked = |l: &TitleList| {
            l.rank("sparse 42")
                .iter()
                .map(|m| m.idx)
                .collect::<Vec<_>>()
        };
        assert!(!ranked(&plain).is_empty());
        assert_eq!(ranked(&told), ranked(&plain));
    }

    proptest! {
        /// A paper's title goes in by one pass when it can: what is kept
        /// of it (readable text, text as given, masks) is what the general
        /// path keeps.
        #[test]
        fn a_title_kept_by_one_pass_is_kept_as_by_the_general_path(
            titles in proptest::collection::vec(prop_oneof![
                // Mostly plain (and so the one pass), some not.
                "[ a-zA-Z0-9'\\-().:/]{0,40}",
                "[ a-zA-Z0-9'\\-\\\\$*_<\\[`~{}().:/é\u{7}]{0,40}",
            ], 1..6),
        ) {
            let mut fast = TitlePart::default();
            let mut general = TitlePart::default();
            for (k, t) in titles.iter().enumerate() {
                let Some(p) = crate::corpus::Record {
                    title: Some(t.clone()),
                    arxiv: Some(format!("2101.{k:05}")),
                    ..Default::default()
                }
                .into_paper(&"t".into(), 0) else {
                    continue;
                };
                general.push(&p.title, p.title_derived, IdSlot::Named(k as u32));
                fast.push_paper(p);
            }
            prop_assert_eq!(fast.len(), general.len());
            for i in 0..fast.len() {
                prop_assert_eq!(fast.titles.text(i), general.titles.text(i));
                prop_assert_eq!(fast.given(i), general.given(i));
                prop_assert_eq!(fast.derived[i], general.derived[i]);
                prop_assert_eq!(
                    fast.titles.items().masks[i],
                    general.titles.items().masks[i]
                );
            }
        }
    }
}
