//! What the matcher keeps of the titles, and how they get there: their
//! readable text end to end in two buffers with a character mask each
//! ([`Items`]), and papers made ready for it on the thread that loads them
//! ([`Prepared`]).

use nucleo::{Utf32Str, Utf32String};

use super::array::Arr;
use super::masks::{Chars, title_mask};
use super::words::{DocMeta, Meta};
use crate::corpus::{Abstract, Paper};
use crate::text::markup;

/// Where a title's text is kept in [`Items`]. Plain old data, so that
/// the spans of a list read back from the cache are used where they lie.
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
pub(super) struct TitleSpan {
    pub(super) start: usize,
    pub(super) len: u32,
    /// Not 0: in [`Items::wide`] rather than [`Items::ascii`].
    wide: u32,
}

impl TitleSpan {
    pub(super) fn new(start: usize, len: u32, wide: bool) -> TitleSpan {
        TitleSpan {
            start,
            len,
            wide: u32::from(wide),
        }
    }

    /// In [`Items::wide`] rather than [`Items::ascii`].
    #[inline]
    pub(super) fn wide(&self) -> bool {
        self.wide != 0
    }
}

/// What the matcher keeps of each paper's title. The titles' text lies
/// end to end in two buffers rather than in an allocation each, so that a
/// pass reads memory in order instead of chasing a pointer per title.
#[derive(Default, Clone)]
pub(super) struct Items {
    /// ASCII titles' bytes.
    pub(super) ascii: Arr<u8>,
    /// Other titles, a character per grapheme (as nucleo matches them).
    pub(super) wide: Vec<char>,
    pub(super) spans: Arr<TitleSpan>,
    pub(super) masks: Arr<Chars>,
}

impl Items {
    /// How many titles there are.
    pub(super) fn len(&self) -> usize {
        self.spans.len()
    }

    /// The length of title `i` as ranking ties count it.
    #[inline]
    pub(super) fn title_len(&self, i: usize) -> u16 {
        self.spans[i].len.min(u32::from(u16::MAX)) as u16
    }

    /// Title `i` as the matcher reads it.
    #[inline]
    pub(super) fn title(&self, i: usize) -> Utf32Str<'_> {
        let s = self.spans[i];
        if s.wide() {
            Utf32Str::Unicode(&self.wide[s.start..][..s.len as usize])
        } else {
            Utf32Str::Ascii(&self.ascii[s.start..][..s.len as usize])
        }
    }

    /// Stores one title's readable text; its span and masks.
    fn store(&mut self, title: &str) -> (TitleSpan, Chars) {
        self.store_plain(&markup::plain_cow(title))
    }

    /// [`Items::store`] for a title made readable already.
    pub(super) fn store_plain(&mut self, plain: &str) -> (TitleSpan, Chars) {
        let mut mask = Chars::wide(title_mask(plain));
        let span = if plain.is_ascii() {
            let start = self.ascii.len();
            self.ascii.vec_mut().extend_from_slice(plain.as_bytes());
            mask = Chars::ascii(plain.as_bytes(), mask.all);
            TitleSpan::new(start, (self.ascii.len() - start) as u32, false)
        } else {
            let start = self.wide.len();
            match Utf32String::from(plain) {
                Utf32String::Ascii(text) => self.wide.extend(text.chars()),
                Utf32String::Unicode(chars) => self.wide.extend_from_slice(&chars),
            }
            TitleSpan::new(start, (self.wide.len() - start) as u32, true)
        };
        (span, mask)
    }

    fn push(&mut self, title: &str) {
        self.push_plain(&markup::plain_cow(title));
    }

    /// Adds a title known to be ASCII, with its mask.
    pub(super) fn push_ascii(&mut self, text: &[u8], mask: u64) {
        let start = self.ascii.len();
        self.ascii.vec_mut().extend_from_slice(text);
        self.spans
            .vec_mut()
            .push(TitleSpan::new(start, text.len() as u32, false));
        self.masks.vec_mut().push(Chars::ascii(text, mask));
    }

    /// Adds title `i` of `other` as it is there (text and masks), or
    /// false when `other` has no such title.
    pub(super) fn push_from(&mut self, other: &Items, i: usize) -> bool {
        let (Some(&s), Some(&mask)) = (other.spans.get(i), other.masks.get(i)) else {
            return false;
        };
        let (from, len) = (s.start, s.len as usize);
        let span = if s.wide() {
            let Some(text) = other.wide.get(from..).and_then(|w| w.get(..len)) else {
                return false;
            };
            let start = self.wide.len();
            self.wide.extend_from_slice(text);
            TitleSpan::new(start, s.len, true)
        } else {
            let Some(text) = other.ascii.get(from..).and_then(|a| a.get(..len)) else {
                return false;
            };
            let start = self.ascii.len();
            self.ascii.vec_mut().extend_from_slice(text);
            TitleSpan::new(start, s.len, false)
        };
        self.spans.vec_mut().push(span);
        self.masks.vec_mut().push(mask);
        true
    }

    pub(super) fn push_plain(&mut self, plain: &str) {
        let (span, mask) = self.store_plain(plain);
        self.spans.vec_mut().push(span);
        self.masks.vec_mut().push(mask);
    }

    /// Replaces title `i` (its old text stays in the buffer unused:
    /// titles change rarely).
    pub(super) fn set(&mut self, i: usize, title: &str) {
        if i < self.len() {
            let (span, mask) = self.store(title);
            (self.spans.vec_mut()[i], self.masks.vec_mut()[i]) = (span, mask);
        }
    }

    /// The titles of `papers`, converted on up to `threads` threads.
    pub(super) fn build<T: Sync>(
        all: &[T],
        threads: usize,
        title: impl Fn(&T) -> &str + Sync,
    ) -> Items {
        let one = |part: &[T]| {
            let mut items = Items::default();
            for t in part {
                items.push(title(t));
            }
            items
        };
        if threads <= 1 || all.len() < 16_384 {
            return one(all);
        }
        let mut parts = crate::parallel::map_split(all, threads, |_, part| one(part)).into_iter();
        // The first part is the start: only the others are copied.
        let mut items = parts.next().unwrap_or_default();
        for p in parts {
            items.append(p);
        }
        items
    }

    fn append(&mut self, other: Items) {
        self.append_expecting(other, 0);
    }

    /// [`Items::append`], when about `papers` titles will be held in all:
    /// what must grow is given room for them (and 5% more) rather than
    /// doubled, so that a million titles are neither copied each time
    /// they double nor take twice their room.
    pub(super) fn append_expecting(&mut self, other: Items, papers: usize) {
        let n = self.len() + other.len();
        if papers > n {
            let room = papers + papers / 20;
            if self.spans.vec_mut().capacity() < n {
                let have = self.len();
                self.spans.vec_mut().reserve_exact(room - have);
                self.masks.vec_mut().reserve_exact(room - have);
            }
            let bytes = self.ascii.len() + other.ascii.len();
            if self.ascii.vec_mut().capacity() < bytes {
                let want = (bytes as f64 / n as f64 * room as f64) as usize;
                let have = self.ascii.len();
                self.ascii.vec_mut().reserve_exact(want.max(bytes) - have);
            }
        }
        let (ascii, wide) = (self.ascii.len(), self.wide.len());
        self.spans
            .vec_mut()
            .extend(other.spans.iter().map(|s| TitleSpan {
                start: s.start + if s.wide() { wide } else { ascii },
                ..*s
            }));
        self.ascii.vec_mut().extend_from_slice(&other.ascii);
        self.wide.extend_from_slice(&other.wide);
        self.masks.vec_mut().extend_from_slice(&other.masks);
    }
}

/// Papers made ready for the matcher (titles converted, abstracts
/// rendered for the index): work that can run on the thread that loads
/// them, so that adding a million papers costs the UI thread next to
/// nothing.
#[derive(Default)]
pub struct Prepared {
    pub(super) items: Items,
    /// The abstracts, shared with the papers (indexed later, on the
    /// indexer's threads).
    pub(super) abstracts: Vec<Abstract>,
    /// What else the word index reads of each paper.
    pub(super) metas: Vec<DocMeta>,
}

impl Prepared {
    /// Prepares `papers`: a batch of 2k or more on every core, as a warm
    /// open hands batches on about as fast as one thread prepares them.
    pub fn new(papers: &[Paper]) -> Prepared {
        Prepared::made(papers, true)
    }

    /// [`Prepared::new`] without what the word index reads (abstracts and
    /// other fields): for papers a stored index will cover. That is four
    /// allocations a paper, freed again on the indexer's thread: half of
    /// what was left of a warm open that copies its titles. Papers no
    /// index came for are indexed after all: see
    /// [`Search::index_later`](super::Search::index_later).
    pub fn titles(papers: &[Paper]) -> Prepared {
        Prepared::made(papers, false)
    }

    /// True when what the word index reads of these papers was left out
    /// ([`Prepared::titles`]).
    pub fn lacks_index_fields(&self) -> bool {
        self.metas.len() < self.items.len()
    }

    /// [`Prepared::new`], or [`Prepared::titles`] when not `index`.
    fn made(papers: &[Paper], index: bool) -> Prepared {
        let threads = if papers.len() < 2_048 {
            1
        } else {
            crate::parallel::threads()
        };
        let mut parts =
            crate::parallel::map_split(papers, threads, |_, part| Prepared::one(part, index))
                .into_iter();
        // The first part is the start: only the others are copied.
        let mut all = parts.next().unwrap_or_default();
        for p in parts {
            all.items.append(p.items);
            all.abstracts.extend(p.abstracts);
            all.metas.extend(p.metas);
        }
        all
    }

    /// [`Prepared::made`] on this thread.
    fn one(papers: &[Paper], index: bool) -> Prepared {
        // Room for the titles as given (their plain text is about as
        // long), so that the buffer is not grown and copied as they come.
        let bytes = papers.iter().map(|p| p.title.len()).sum();
        let mut all = Prepared::with_room(papers.len(), bytes, index);
        for p in papers {
            all.push(p, index);
        }
        all
    }

    /// Room for `n` papers of `bytes` of titles in all, and for what the
    /// index reads of them when `index`.
    pub(super) fn with_room(n: usize, bytes: usize, index: bool) -> Prepared {
        let mut items = Items::default();
        items.spans.vec_mut().reserve_exact(n);
        items.masks.vec_mut().reserve_exact(n);
        items.ascii.vec_mut().reserve_exact(bytes);
        let n = if index { n } else { 0 };
        Prepared {
            items,
            abstracts: Vec::with_capacity(n),
            metas: Vec::with_capacity(n),
        }
    }

    /// Adds `p`, its title made readable (and what the index reads of it
    /// when `index`).
    pub(super) fn push(&mut self, p: &Paper, index: bool) {
        let plain = crate::text::markup::plain_cow(&p.title);
        self.items.push_plain(&plain);
        if index {
            self.metas.push(meta_with_title(p, plain.into()));
            self.abstracts.push(p.abstract_text.clone());
        }
    }

    /// Adds `p` with title `i` of `items`, made readable already (`plain`
    /// is its text), and what the index reads of it when `index`; false
    /// when `items` has no such title.
    pub(super) fn push_made(
        &mut self,
        p: &Paper,
        (items, i, plain): (&Items, usize, &str),
        index: bool,
    ) -> bool {
        if !self.items.push_from(items, i) {
            return false;
        }
        if index {
            self.metas.push(meta_with_title(p, plain.into()));
            self.abstracts.push(p.abstract_text.clone());
        }
        true
    }
}

#[cfg(test)]
impl Prepared {
    /// All it holds of paper `i`, as text: for tests that compare how
    /// papers were made ready.
    pub(crate) fn shown(&self, i: usize) -> String {
        let index = match (self.metas.get(i), self.abstracts.get(i)) {
            (Some(m), Some(a)) => format!(
                "{:?} {:?} {:?} {:?} {:?} {a:?}",
                m.title, m.authors, m.venue, m.id, m.year
            ),
            _ => "-".to_string(),
        };
        format!(
            "{:?} {:?} {index}",
            self.items.title(i),
            self.items.masks[i]
        )
    }
}

/// What the word index reads of `p` besides its abstract.
pub(super) fn doc_meta(p: &Paper) -> DocMeta {
    meta_with_title(p, crate::text::markup::plain_cow(&p.title).into())
}

/// `f` of what the word index reads of `p` besides its abstract, as
/// [`doc_meta`] gives it, borrowed from `p` (the title's plain text is
/// made only where it has markup).
pub(super) fn with_meta<R>(p: &Paper, f: impl FnOnce(Meta<'_>) -> R) -> R {
    f(meta_of(p, &crate::text::markup::plain_cow(&p.title)))
}

/// What the word index reads of `p`, its title's plain text `title`.
fn meta_of<'a>(p: &'a Paper, title: &'a str) -> Meta<'a> {
    Meta {
        title,
        // The names as held, between them a separator that is no word's.
        authors: p.authors.joined(),
        venue: p.venue.as_deref().unwrap_or(""),
        id: p.id.as_str(),
        year: p.year,
        keywords: &p.more().keywords,
        categories: &p.more().categories,
    }
}

/// [`doc_meta`], given the title's plain text.
fn meta_with_title(p: &Paper, title: Box<str>) -> DocMeta {
    DocMeta {
        title,
        ..meta_of(p, "").to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::{Authors, Record};
    use crate::search::fields::for_each_word;

    /// The words of `text` as the word index cuts them.
    fn words(text: &str) -> Vec<String> {
        let mut all = Vec::new();
        for_each_word(text, |w| all.push(w.to_string()));
        all
    }

    /// Papers of every kind of title (ASCII, past ASCII, with markup) and
    /// names, venues and years.
    fn papers(n: usize) -> Vec<Paper> {
        let titles = [
            "Sparse attention",
            "Ünïcode graphs",
            "Fast $O(n)$ {\\em sorting}",
        ];
        (0..n)
            .map(|i| {
                let mut p = Record {
                    title: Some(format!("{} {i}", titles[i % 3])),
                    abstract_text: Some(format!("Abstract {i}.")),
                    venue: (i % 2 == 0).then(|| format!("Venue {}", i % 7)),
                    year: Some(2000 + (i % 25) as i32),
                    ..Default::default()
                }
                .into_paper(&"t".into(), i as u32)
                .unwrap();
                p.authors = [format!("Ada Lovelace{i}"), "Émile Noether-Bach".into()]
                    .into_iter()
                    .collect::<Authors>();
                p
            })
            .collect()
    }

    #[test]
    fn papers_prepared_on_every_core_are_prepared_as_on_one() {
        // Past the size split between threads, and not a multiple of it.
        let papers = papers(20_001);
        let (all, one) = (Prepared::new(&papers), Prepared::one(&papers, true));
        assert_eq!(all.items.len(), papers.len());
        assert_eq!(all.metas.len(), papers.len());
        assert_eq!(all.abstracts.len(), papers.len());
        for i in 0..papers.len() {
            assert_eq!(all.items.title(i), one.items.title(i), "{i}");
            assert_eq!(all.items.masks[i], one.items.masks[i], "{i}");
            let (a, b) = (&all.metas[i], &one.metas[i]);
            assert_eq!(
                (&a.title, &a.authors, &a.venue, &a.id, a.year),
                (&b.title, &b.authors, &b.venue, &b.id, b.year),
                "{i}"
            );
        }
        // Each title is the plain text of its own paper.
        assert_eq!(&*all.metas[2].title, "Fast O(n) sorting 2");
        assert_eq!(&*all.metas[19_999].title, "Ünïcode graphs 19999");
    }

    #[test]
    fn the_index_reads_every_name_and_only_names_as_authors_words() {
        for p in papers(3) {
            let meta = doc_meta(&p);
            let names: Vec<String> = p.authors.iter().flat_map(words).collect();
            assert_eq!(words(&meta.authors), names);
            assert_eq!(names.len(), 5, "{names:?}");
        }
    }
}
