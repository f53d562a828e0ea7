//! Papers and the corpus that holds them.
//!
//! A format reader turns a file into [`Record`]s: the fields as the file
//! wrote them. [`Record::into_paper`] makes them safe to print, gives each a
//! stable [`PaperId`] and, where the file had none, a derived title. A
//! [`Corpus`] is the papers of one session in input order, with the ids
//! shortened the way git shortens hashes.

pub mod abstracts;
mod dedup;
pub mod fields;
mod fold;
mod id;
mod json_string;
mod paper;
mod papers;
pub mod readers;
mod record;
pub mod title;

use std::collections::HashMap;

pub use abstracts::Abstract;
pub(crate) use dedup::hash_id_key;
pub use dedup::{Batch, Dedup, HashOfHash, Variant, id_key};
use id::parallel_short_id_len;
pub use id::{MIN_SHORT_ID, PaperId, content_hash};
pub(crate) use id::{hex16, shortest_unique};
pub use paper::{Authors, More, NameOrder, Paper};
pub(crate) use paper::{NAME_SEP, SHAPE_SEP};
pub use papers::{PaperAt, Papers, StoredPapers, stored_for_tests};
pub use readers::{Format, Reader, atom, bibtex, csv, json, ris, text};
pub use record::{Parsed, Record};

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
    pub papers: Papers,
    short_len: usize,
}

/// (old id, id) of each of `papers` whose id changed (see
/// [`Paper::former_id`]): what the store is given so that marks follow.
pub fn former_ids(papers: &[Paper]) -> Vec<(PaperId, PaperId)> {
    papers
        .iter()
        .filter_map(|p| Some((p.former_id.clone()?, p.id.clone())))
        .collect()
}

impl Corpus {
    /// A corpus of papers kept in the cache, finished when they were
    /// stored: ids shortened and derived titles unique.
    pub fn stored(papers: Papers) -> Corpus {
        let mut corpus = Corpus {
            papers,
            short_len: MIN_SHORT_ID,
        };
        corpus.finish();
        corpus
    }

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
    pub fn reserve_for(&mut self, expected: usize) -> Option<usize> {
        let now = self.papers.len();
        if now == 0 || self.papers.is_stored() || self.papers.capacity() >= expected {
            return None;
        }
        let more = (expected + expected / 20) - now;
        self.papers.reserve_exact(more);
        Some(more)
    }

    pub fn push(&mut self, batch: Batch) {
        if self.papers.capacity() == 0 {
            self.papers = batch.papers.into();
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
        for (i, other) in batch.fills {
            if let Some(p) = self.papers.get_mut(i as usize) {
                p.fill_from(other);
            }
        }
        self.short_len = self.short_len.max(MIN_SHORT_ID);
    }

    /// Once every paper is in: shortens ids as far as they stay unique and
    /// makes derived titles unique. Returns the papers whose title changed.
    pub fn finish(&mut self) -> Vec<usize> {
        if let Some(short_len) = self.papers.stored_short_len() {
            // Stored papers were finished when they were stored.
            self.short_len = short_len;
            return Vec::new();
        }
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
        former_ids(&self.papers)
    }

    /// The paper with id (or unique id prefix) `text`; a paper named as
    /// it is cited (a bare arXiv id or DOI, a resolver link, an OpenReview
    /// forum id: [`PaperId::meant_by`]) is found by its id too.
    pub fn lookup(&self, text: &str) -> Lookup {
        let text = text.trim();
        if text.is_empty() {
            return Lookup::Unknown;
        }
        let meant = PaperId::meant_by(text);
        if !meant.is_empty()
            && let Some(i) = self.papers.iter().position(|p| meant.contains(&p.id))
        {
            return Lookup::Found(i);
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

#[cfg(test)]
mod tests {
    use super::id::short_id_len;
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

    #[test]
    fn papers_are_found_by_ids_written_as_they_are_cited() {
        let with = |f: fn(&mut Record)| {
            let mut r = Record {
                title: Some("T".into()),
                ..Record::default()
            };
            f(&mut r);
            r.into_paper(&"l".into(), 0).unwrap()
        };
        let corpus = Corpus::new(vec![
            with(|r| r.arxiv = Some("1801.05533".into())),
            with(|r| r.arxiv = Some("hep-th/9901001".into())),
            with(|r| r.doi = Some("10.1145/3292500.3330701".into())),
            with(|r| r.more_mut().forum = Some("frA0NNBS1n".into())),
            paper("", "hashed"),
        ]);
        for (given, at) in [
            ("1801.05533", 0),
            ("1801.05533v3", 0),
            ("arXiv:1801.05533v1", 0),
            ("https://arxiv.org/abs/1801.05533v2", 0),
            ("arxiv.org/pdf/1801.05533.pdf", 0),
            ("hep-th/9901001v2", 1),
            ("10.1145/3292500.3330701", 2),
            ("10.1145/3292500.3330701".to_uppercase().as_str(), 2),
            ("https://doi.org/10.1145/3292500.3330701", 2),
            ("doi:10.1145/3292500.3330701", 2),
            ("frA0NNBS1n", 3),
            ("https://openreview.net/forum?id=frA0NNBS1n", 3),
            ("openreview:frA0NNBS1n", 3),
        ] {
            assert_eq!(corpus.lookup(given), Lookup::Found(at), "{given}");
        }
        // A hash id's prefix is still a prefix, though it could be a
        // forum id.
        let hash = corpus.papers[4].id.as_str()[..9].to_string();
        assert_eq!(corpus.lookup(&hash), Lookup::Found(4));
        assert_eq!(corpus.lookup("1801.05534"), Lookup::Unknown);
        assert_eq!(corpus.lookup("10.1145/9999"), Lookup::Unknown);
    }

    #[test]
    fn exported_ids_are_paperboats_own_forms_only() {
        for (text, id) in [
            ("arxiv:2401.01234v2", Some("arxiv:2401.01234")),
            ("arXiv:hep-th/9901001", Some("arxiv:hep-th/9901001")),
            ("doi:10.1145/ABC.1", Some("doi:10.1145/abc.1")),
            ("openreview:frA0NNBS1n", Some("openreview:frA0NNBS1n")),
            ("0123456789ABCDEF", Some("0123456789abcdef")),
            (" 0123456789abcdef ", Some("0123456789abcdef")),
            ("0123456789abcde", None),
            ("0123456789abcdefg", None),
            ("arxiv:smith2020", None),
            ("doi:nothing", None),
            ("openreview:a b", None),
            ("2401.01234", None),
            ("smith2020deep", None),
            ("http://zotero.org/users/1/items/ABCD1234", None),
        ] {
            assert_eq!(
                PaperId::exported(text).as_ref().map(PaperId::as_str),
                id,
                "{text}"
            );
        }
    }
}
