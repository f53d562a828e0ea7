//! Papers to bytes and back, as the parse made them: every field of a
//! [`Paper`] but its position (the loader numbers papers as it hands them
//! on). Each paper is a [`Record`] written as postcard (serde's derive:
//! LEB128 numbers, strings length-first, a byte for each option); what
//! serde cannot know is said around it: lists are few (a table per
//! block, a paper names its lists by their place in it), and an abstract
//! left in its file is two numbers, attached to a handle on the file when
//! read back. Reading is bounds-checked at every step: bytes that do not
//! decode are an error, never a panic.

use std::borrow::Cow;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::serial;
use crate::corpus::abstracts::{Abstract, FileText};
use crate::corpus::{Authors, More, Paper, PaperId, Variant};

/// Bytes that do not decode.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Bad;

/// A paper as it is kept.
#[derive(Serialize, Deserialize)]
struct Record<'a> {
    id: &'a str,
    title: &'a str,
    derived: bool,
    #[serde(borrow)]
    text: Text<'a>,
    /// The lists this paper is the first of its block to name, added to
    /// the block's table in this order (the first is the input's own).
    #[serde(borrow)]
    new_lists: Vec<&'a str>,
    /// Its list's place in the block's table.
    list: u32,
    authors: &'a str,
    year: Option<i32>,
    #[serde(borrow)]
    venue: Option<&'a str>,
    #[serde(borrow)]
    links: Cow<'a, [String]>,
    /// The places of the further lists it is in.
    also_in: Vec<u32>,
    #[serde(borrow)]
    former: Option<&'a str>,
    /// [`Variant::parts`], little-endian.
    variant: Option<[u8; 16]>,
    #[serde(borrow)]
    more: Option<MoreRecord<'a>>,
}

/// An abstract as it is kept.
#[derive(Serialize, Deserialize)]
enum Text<'a> {
    /// The text itself.
    Here(&'a str),
    /// A JSON string left in the file: where, and how long.
    InFile { at: u64, len: u32 },
}

/// A paper's rare fields ([`More`]) as they are kept.
#[derive(Serialize, Deserialize)]
struct MoreRecord<'a> {
    #[serde(borrow)]
    keywords: Cow<'a, [String]>,
    #[serde(borrow)]
    categories: Cow<'a, [String]>,
    #[serde(borrow)]
    forum: Option<&'a str>,
    #[serde(borrow)]
    venue_id: Option<&'a str>,
    #[serde(borrow)]
    announce: Option<&'a str>,
    #[serde(borrow)]
    roles: Cow<'a, [(String, String)]>,
}

impl<'a> MoreRecord<'a> {
    fn of(more: &'a More) -> MoreRecord<'a> {
        MoreRecord {
            keywords: Cow::Borrowed(&more.keywords),
            categories: Cow::Borrowed(&more.categories),
            forum: more.forum.as_deref(),
            venue_id: more.venue_id.as_deref(),
            announce: more.announce.as_deref(),
            roles: Cow::Borrowed(&more.roles),
        }
    }

    /// The fields, owned: `Bad` for none at all (a paper without them
    /// has no `More`).
    fn made(self) -> Result<More, Bad> {
        let more = More {
            keywords: self.keywords.into_owned(),
            categories: self.categories.into_owned(),
            forum: self.forum.map(str::to_string),
            venue_id: self.venue_id.map(str::to_string),
            announce: self.announce.map(str::to_string),
            roles: self.roles.into_owned(),
        };
        if more.is_empty() {
            return Err(Bad);
        }
        Ok(more)
    }
}

/// The bytes an arXiv paper whose abstract is left in its file takes
/// encoded, a little over (about 160 on average in the snapshot).
const PAPER_ROOM: usize = 200;

/// Papers of one piece, encoded as they are parsed.
pub(crate) struct Encoder {
    pub(super) bytes: Vec<u8>,
    /// Papers encoded.
    pub(super) count: usize,
    /// True when an abstract was left in the file.
    pub(super) in_file: bool,
    /// True when a paper had a former id.
    pub(super) former: bool,
    /// Lists met so far; the first is the input's own.
    lists: Vec<Arc<str>>,
}

impl Encoder {
    /// An encoder for papers whose list is mostly `list`.
    pub(crate) fn new(list: &Arc<str>) -> Encoder {
        Encoder::with_room(list, 0)
    }

    /// [`Encoder::new`], with room for `papers` papers whose abstracts
    /// are left in their file (about [`PAPER_ROOM`] bytes each), taken
    /// once rather than grown by doubling.
    pub(crate) fn with_room(list: &Arc<str>, papers: usize) -> Encoder {
        Encoder {
            bytes: Vec::with_capacity(papers.saturating_mul(PAPER_ROOM)),
            count: 0,
            in_file: false,
            former: false,
            lists: vec![list.clone()],
        }
    }

    /// The place of `list` in the table, added to it (and to `new`) when
    /// it is not there yet.
    fn list<'a>(&mut self, list: &'a Arc<str>, new: &mut Vec<&'a str>) -> u32 {
        let at = self
            .lists
            .iter()
            .position(|l| Arc::ptr_eq(l, list) || **l == **list)
            .unwrap_or_else(|| {
                new.push(list);
                self.lists.push(list.clone());
                self.lists.len() - 1
            });
        at as u32
    }

    /// Appends `p`.
    pub(crate) fn paper(&mut self, p: &Paper) {
        self.count += 1;
        let mut new_lists = Vec::new();
        let list = self.list(&p.source, &mut new_lists);
        let also_in = p
            .also_in
            .iter()
            .map(|l| self.list(l, &mut new_lists))
            .collect();
        let text = match &p.abstract_text {
            Abstract::Text(t) => Text::Here(t),
            Abstract::Json { at, len, .. } => {
                self.in_file = true;
                Text::InFile { at: *at, len: *len }
            }
        };
        self.former |= p.former_id.is_some();
        let variant = (!p.variant.is_empty()).then(|| {
            let (key, fields) = p.variant.parts();
            let mut b = [0; 16];
            b[..8].copy_from_slice(&key.to_le_bytes());
            b[8..].copy_from_slice(&fields.to_le_bytes());
            b
        });
        let record = Record {
            id: p.id.as_str(),
            title: &p.title,
            derived: p.title_derived,
            text,
            new_lists,
            list,
            authors: p.authors.encoded(),
            year: p.year,
            venue: p.venue.as_deref(),
            links: Cow::Borrowed(&p.record_links),
            also_in,
            former: p.former_id.as_ref().map(PaperId::as_str),
            variant,
            more: p.more.as_deref().map(MoreRecord::of),
        };
        serial::append(&record, &mut self.bytes);
    }
}

/// Reads what [`Encoder`] wrote.
pub(crate) struct Decoder<'a> {
    bytes: &'a [u8],
    lists: Vec<Arc<str>>,
    /// The file abstracts left in it are read back from, and its length.
    file: Option<(&'a Arc<FileText>, u64)>,
}

impl<'a> Decoder<'a> {
    pub(crate) fn new(
        bytes: &'a [u8],
        list: &Arc<str>,
        file: Option<(&'a Arc<FileText>, u64)>,
    ) -> Decoder<'a> {
        Decoder {
            bytes,
            lists: vec![list.clone()],
            file,
        }
    }

    /// True when every byte is read.
    pub(crate) fn done(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The next record, the lists it names first added to the table.
    fn record(&mut self) -> Result<Record<'a>, Bad> {
        let (r, rest): (Record<'a>, _) = serial::decode_head(self.bytes)?;
        self.bytes = rest;
        self.lists.extend(r.new_lists.iter().map(|&l| Arc::from(l)));
        Ok(r)
    }

    /// The list at `at` in the table.
    fn list(&self, at: u32) -> Result<Arc<str>, Bad> {
        self.lists.get(at as usize).cloned().ok_or(Bad)
    }

    /// Passes the next paper by, as [`Decoder::paper`] reads it but
    /// making nothing of it (the lists it names are learnt, as later
    /// papers may name them by place): to read one paper of a block.
    pub(crate) fn skip_paper(&mut self) -> Result<(), Bad> {
        self.record().map(drop)
    }

    /// The next paper (at position 0).
    pub(crate) fn paper(&mut self) -> Result<Paper, Bad> {
        let r = self.record()?;
        let abstract_text = match r.text {
            Text::Here(t) => Abstract::Text(t.into()),
            Text::InFile { at, len } => {
                let (file, size) = self.file.ok_or(Bad)?;
                if at.checked_add(u64::from(len)).is_none_or(|end| end > size) {
                    return Err(Bad);
                }
                Abstract::Json {
                    file: file.clone(),
                    at,
                    len,
                    words: None,
                }
            }
        };
        let variant = r.variant.map_or_else(Variant::default, |b| {
            let half = |k: usize| u64::from_le_bytes(b[k..k + 8].try_into().unwrap_or([0; 8]));
            Variant::from_parts(half(0), half(8))
        });
        Ok(Paper {
            id: PaperId::parse(r.id),
            title: r.title.to_string(),
            title_derived: r.derived,
            abstract_text,
            source: self.list(r.list)?,
            position: 0,
            authors: Authors::from_encoded(r.authors.to_string()),
            year: r.year,
            venue: r.venue.map(str::to_string),
            record_links: r.links.into_owned(),
            also_in: r
                .also_in
                .iter()
                .map(|&l| self.list(l))
                .collect::<Result<_, _>>()?,
            former_id: r.former.map(PaperId::parse),
            variant,
            more: r.more.map(MoreRecord::made).transpose()?.map(Box::new),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(list: &Arc<str>) -> Vec<Paper> {
        let other: Arc<str> = "other.bib".into();
        let authors: Authors = ["Ada Lovelace", "Alan Turing"].into_iter().collect();
        vec![
            Paper {
                id: PaperId::parse("arxiv:2401.00001"),
                title: "Sparse attention".into(),
                title_derived: false,
                abstract_text: "We study it.".into(),
                source: list.clone(),
                position: 3,
                authors: authors.clone(),
                year: Some(2024),
                venue: Some("ICML".into()),
                record_links: vec!["https://doi.org/10.1/x".into()],
                also_in: vec![other.clone()],
                former_id: Some(PaperId::parse("doi:10.1/x")),
                variant: Variant::of(Some("key"), &authors, Some(-44), None),
                more: Some(Box::new(More {
                    keywords: vec!["sparse".into(), "attention".into()],
                    categories: vec![],
                    forum: Some("frA0NNBS1n".into()),
                    venue_id: None,
                    announce: Some("replace".into()),
                    roles: vec![("editor".into(), "Grace Hopper".into())],
                })),
            },
            Paper {
                id: PaperId::from_hash(0xdead_beef),
                title: "Derived [x]".into(),
                title_derived: true,
                abstract_text: Abstract::default(),
                source: other,
                position: 0,
                authors: Authors::default(),
                year: Some(-44),
                venue: None,
                record_links: vec![],
                also_in: vec![],
                former_id: None,
                variant: Variant::default(),
                more: None,
            },
        ]
    }

    #[test]
    fn papers_come_back_as_they_went_in() {
        let list: Arc<str> = "a.jsonl".into();
        let papers = sample(&list);
        let mut enc = Encoder::new(&list);
        for p in &papers {
            enc.paper(p);
        }
        assert_eq!(enc.count, 2);
        let mut dec = Decoder::new(&enc.bytes, &list, None);
        for p in &papers {
            let got = dec.paper().unwrap();
            assert_eq!(
                got,
                Paper {
                    position: 0,
                    ..p.clone()
                }
            );
            assert_eq!(got.variant, p.variant);
        }
        assert!(dec.done());
    }

    #[test]
    fn a_paper_read_past_the_ones_before_it_is_the_paper_read_in_turn() {
        let list: Arc<str> = "a.jsonl".into();
        // Each paper new to the block's lists and then named by number.
        let papers: Vec<Paper> = [sample(&list), sample(&list)].concat();
        let mut enc = Encoder::new(&list);
        for p in &papers {
            enc.paper(p);
        }
        for (k, want) in papers.iter().enumerate() {
            let mut dec = Decoder::new(&enc.bytes, &list, None);
            for _ in 0..k {
                dec.skip_paper().unwrap();
            }
            let got = dec.paper().unwrap();
            assert_eq!(
                got,
                Paper {
                    position: 0,
                    ..want.clone()
                },
                "paper {k}"
            );
        }
        let mut dec = Decoder::new(&enc.bytes, &list, None);
        for _ in &papers {
            dec.skip_paper().unwrap();
        }
        assert!(dec.done());
        assert_eq!(dec.skip_paper(), Err(Bad));
    }

    #[test]
    fn every_cut_and_every_flipped_byte_is_an_error_or_a_paper_never_a_panic() {
        let list: Arc<str> = "a.jsonl".into();
        let mut enc = Encoder::new(&list);
        for p in &sample(&list) {
            enc.paper(p);
        }
        for cut in 0..enc.bytes.len() {
            let mut dec = Decoder::new(&enc.bytes[..cut], &list, None);
            let first = dec.paper();
            let second = dec.paper();
            assert!(first.is_err() || second.is_err() || !dec.done());
        }
        for at in 0..enc.bytes.len() {
            for bit in 0..8 {
                let mut bytes = enc.bytes.clone();
                bytes[at] ^= 1 << bit;
                let mut dec = Decoder::new(&bytes, &list, None);
                while !dec.done() && dec.paper().is_ok() {}
            }
        }
        // Abstracts left in a file need the file, and must lie in it.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.jsonl");
        std::fs::write(&path, "\"abc\"\n").unwrap();
        let file = FileText::open(&std::fs::File::open(&path).unwrap(), &path).unwrap();
        let mut in_file = sample(&list).remove(1);
        in_file.abstract_text = Abstract::Json {
            file: file.clone(),
            at: 0,
            len: 5,
            words: None,
        };
        let mut enc = Encoder::new(&list);
        enc.paper(&in_file);
        assert!(enc.in_file);
        let read = |size: u64| Decoder::new(&enc.bytes, &list, Some((&file, size))).paper();
        assert_eq!(read(6).map(|p| p.abstract_text), Ok(in_file.abstract_text));
        assert_eq!(read(4).err(), Some(Bad), "past the file's end");
        assert_eq!(Decoder::new(&enc.bytes, &list, None).paper().err(), Some(Bad));
    }
}
