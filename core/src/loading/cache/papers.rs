//! Papers to bytes and back, as the parse made them: every field of a
//! [`Paper`] but its position (the loader numbers papers as it hands them
//! on). Written by hand, length-prefixed (LEB128 lengths and numbers,
//! little-endian hashes, one flags byte for the optional fields), where
//! the cache's small records are postcard: the same fields as a postcard
//! struct made a warm `check` of 1M papers 40% slower and the entry 4.5%
//! larger (docs/CACHE.md, "The encoding"). Lists are few (a table per
//! block) and an abstract left in its file is two numbers. Reading is
//! bounds-checked at every step: bytes that do not decode are an error,
//! never a panic.

use std::sync::Arc;

use crate::corpus::abstracts::{Abstract, FileText};
use crate::corpus::{Authors, More, Paper, PaperId, Variant};

/// Bytes that do not decode.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Bad;

const DERIVED: u8 = 1;
const IN_FILE: u8 = 2;
const YEAR: u8 = 4;
const VENUE: u8 = 8;
const FORMER: u8 = 16;
const VARIANT: u8 = 32;
const MORE: u8 = 64;

/// Appends `n` as LEB128.
pub(super) fn put_uint(buf: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        buf.push((n as u8) | 0x80);
        n >>= 7;
    }
    buf.push(n as u8);
}

/// Appends a length-prefixed string.
pub(super) fn put_str(buf: &mut Vec<u8>, s: &str) {
    put_uint(buf, s.len() as u64);
    buf.extend_from_slice(s.as_bytes());
}

/// The bytes an arXiv paper whose abstract is left in its file takes
/// encoded, a little over (154 on average in the snapshot).
const PAPER_ROOM: usize = 192;

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

    fn list(&mut self, list: &Arc<str>) {
        match self
            .lists
            .iter()
            .position(|l| Arc::ptr_eq(l, list) || **l == **list)
        {
            Some(i) => put_uint(&mut self.bytes, i as u64 + 1),
            None => {
                put_uint(&mut self.bytes, 0);
                put_str(&mut self.bytes, list);
                self.lists.push(list.clone());
            }
        }
    }

    /// Appends `p`.
    pub(crate) fn paper(&mut self, p: &Paper) {
        self.count += 1;
        let b = &mut self.bytes;
        put_str(b, p.id.as_str());
        put_str(b, &p.title);
        let mut flags = 0;
        if p.title_derived {
            flags |= DERIVED;
        }
        if matches!(p.abstract_text, Abstract::Json { .. }) {
            flags |= IN_FILE;
            self.in_file = true;
        }
        if p.year.is_some() {
            flags |= YEAR;
        }
        if p.venue.is_some() {
            flags |= VENUE;
        }
        if p.former_id.is_some() {
            flags |= FORMER;
            self.former = true;
        }
        if !p.variant.is_empty() {
            flags |= VARIANT;
        }
        if p.more.is_some() {
            flags |= MORE;
        }
        b.push(flags);
        match &p.abstract_text {
            Abstract::Text(t) => put_str(b, t),
            Abstract::Json { at, len, .. } => {
                put_uint(b, *at);
                put_uint(b, u64::from(*len));
            }
        }
        self.list(&p.source);
        let b = &mut self.bytes;
        put_str(b, p.authors.encoded());
        if let Some(y) = p.year {
            // Zigzag: small negative years stay short.
            put_uint(b, ((y << 1) ^ (y >> 31)) as u32 as u64);
        }
        if let Some(v) = &p.venue {
            put_str(b, v);
        }
        put_uint(b, p.record_links.len() as u64);
        for l in &p.record_links {
            put_str(b, l);
        }
        put_uint(b, p.also_in.len() as u64);
        for l in &p.also_in {
            self.list(l);
        }
        let b = &mut self.bytes;
        if let Some(f) = &p.former_id {
            put_str(b, f.as_str());
        }
        if flags & VARIANT != 0 {
            let (key, fields) = p.variant.parts();
            b.extend_from_slice(&key.to_le_bytes());
            b.extend_from_slice(&fields.to_le_bytes());
        }
        if let Some(more) = &p.more {
            put_more(b, more);
        }
    }
}

/// Appends a paper's rare fields: two lists, then three strings (empty
/// for none: what they hold is never empty).
fn put_more(b: &mut Vec<u8>, more: &More) {
    for list in [&more.keywords, &more.categories] {
        put_uint(b, list.len() as u64);
        for s in list {
            put_str(b, s);
        }
    }
    for one in [&more.forum, &more.venue_id, &more.announce] {
        put_str(b, one.as_deref().unwrap_or(""));
    }
    put_uint(b, more.roles.len() as u64);
    for (role, name) in &more.roles {
        put_str(b, role);
        put_str(b, name);
    }
}

/// Reads what [`Encoder`] and [`put_uint`], [`put_str`] wrote.
pub(crate) struct Decoder<'a> {
    bytes: &'a [u8],
    at: usize,
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
            at: 0,
            lists: vec![list.clone()],
            file,
        }
    }

    /// True when every byte is read.
    pub(crate) fn done(&self) -> bool {
        self.at == self.bytes.len()
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], Bad> {
        let end = self.at.checked_add(n).ok_or(Bad)?;
        let out = self.bytes.get(self.at..end).ok_or(Bad)?;
        self.at = end;
        Ok(out)
    }

    fn byte(&mut self) -> Result<u8, Bad> {
        Ok(self.take(1)?[0])
    }

    pub(crate) fn uint(&mut self) -> Result<u64, Bad> {
        let mut n = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            n |= u64::from(b & 0x7f).checked_shl(shift).ok_or(Bad)?;
            if b & 0x80 == 0 {
                return Ok(n);
            }
        }
        Err(Bad)
    }

    /// A count of things each at least `least` bytes long: never more than
    /// the bytes left could hold (so that garbage reserves no memory).
    pub(crate) fn count(&mut self, least: usize) -> Result<usize, Bad> {
        let n = usize::try_from(self.uint()?).map_err(|_| Bad)?;
        if n.saturating_mul(least.max(1)) > self.bytes.len() - self.at {
            return Err(Bad);
        }
        Ok(n)
    }

    pub(crate) fn str(&mut self) -> Result<&'a str, Bad> {
        let n = usize::try_from(self.uint()?).map_err(|_| Bad)?;
        let bytes = self.take(n)?;
        // Most strings here are ASCII, told faster than UTF-8 is checked.
        match crate::simd::ascii_str(bytes) {
            Some(s) => Ok(s),
            None => std::str::from_utf8(bytes).map_err(|_| Bad),
        }
    }

    fn u64_le(&mut self) -> Result<u64, Bad> {
        let b = self.take(8)?;
        Ok(u64::from_le_bytes(b.try_into().map_err(|_| Bad)?))
    }

    fn list(&mut self) -> Result<Arc<str>, Bad> {
        match self.uint()? {
            0 => {
                let l: Arc<str> = self.str()?.into();
                self.lists.push(l.clone());
                Ok(l)
            }
            k => self
                .lists
                .get(usize::try_from(k - 1).map_err(|_| Bad)?)
                .cloned()
                .ok_or(Bad),
        }
    }

    /// Passes the next paper by, as [`Decoder::paper`] reads it but
    /// making nothing of it (the lists it names are learnt, as later
    /// papers may name them by number): to read one paper of a block.
    pub(crate) fn skip_paper(&mut self) -> Result<(), Bad> {
        let skip_str = |d: &mut Self| -> Result<(), Bad> {
            let n = usize::try_from(d.uint()?).map_err(|_| Bad)?;
            d.take(n).map(|_| ())
        };
        skip_str(self)?;
        skip_str(self)?;
        let flags = self.byte()?;
        if flags >= MORE << 1 {
            return Err(Bad);
        }
        if flags & IN_FILE != 0 {
            self.uint()?;
            self.uint()?;
        } else {
            skip_str(self)?;
        }
        self.list()?;
        skip_str(self)?;
        if flags & YEAR != 0 {
            self.uint()?;
        }
        if flags & VENUE != 0 {
            skip_str(self)?;
        }
        for _ in 0..self.count(1)? {
            skip_str(self)?;
        }
        for _ in 0..self.count(1)? {
            self.list()?;
        }
        if flags & FORMER != 0 {
            skip_str(self)?;
        }
        if flags & VARIANT != 0 {
            self.take(16)?;
        }
        if flags & MORE != 0 {
            self.more()?;
        }
        Ok(())
    }

    /// What [`put_more`] wrote.
    fn more(&mut self) -> Result<More, Bad> {
        let list = |d: &mut Self| -> Result<Vec<String>, Bad> {
            let n = d.count(1)?;
            (0..n).map(|_| Ok(d.str()?.to_string())).collect()
        };
        let keywords = list(self)?;
        let categories = list(self)?;
        let mut one = || -> Result<Option<String>, Bad> {
            Ok(Some(self.str()?.to_string()).filter(|s| !s.is_empty()))
        };
        let (forum, venue_id, announce) = (one()?, one()?, one()?);
        let n = self.count(2)?;
        let mut roles = Vec::with_capacity(n);
        for _ in 0..n {
            roles.push((self.str()?.to_string(), self.str()?.to_string()));
        }
        let more = More {
            keywords,
            categories,
            forum,
            venue_id,
            announce,
            roles,
        };
        if more.is_empty() {
            return Err(Bad);
        }
        Ok(more)
    }

    /// The next paper (at position 0).
    pub(crate) fn paper(&mut self) -> Result<Paper, Bad> {
        let id = PaperId::parse(self.str()?);
        let title = self.str()?.to_string();
        let flags = self.byte()?;
        if flags >= MORE << 1 {
            return Err(Bad);
        }
        let abstract_text = if flags & IN_FILE != 0 {
            let at = self.uint()?;
            let len = u32::try_from(self.uint()?).map_err(|_| Bad)?;
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
        } else {
            Abstract::Text(self.str()?.into())
        };
        let source = self.list()?;
        let authors = Authors::from_encoded(self.str()?.to_string());
        let year = if flags & YEAR != 0 {
            let z = u32::try_from(self.uint()?).map_err(|_| Bad)?;
            Some(((z >> 1) as i32) ^ -((z & 1) as i32))
        } else {
            None
        };
        let venue = if flags & VENUE != 0 {
            Some(self.str()?.to_string())
        } else {
            None
        };
        let n = self.count(1)?;
        let mut record_links = Vec::with_capacity(n);
        for _ in 0..n {
            record_links.push(self.str()?.to_string());
        }
        let n = self.count(1)?;
        let mut also_in = Vec::with_capacity(n);
        for _ in 0..n {
            also_in.push(self.list()?);
        }
        let former_id = if flags & FORMER != 0 {
            Some(PaperId::parse(self.str()?))
        } else {
            None
        };
        let variant = if flags & VARIANT != 0 {
            let key = self.u64_le()?;
            let fields = self.u64_le()?;
            Variant::from_parts(key, fields)
        } else {
            Variant::default()
        };
        let more = if flags & MORE != 0 {
            Some(Box::new(self.more()?))
        } else {
            None
        };
        Ok(Paper {
            id,
            title,
            title_derived: flags & DERIVED != 0,
            abstract_text,
            source,
            position: 0,
            authors,
            year,
            venue,
            record_links,
            also_in,
            former_id,
            variant,
            more,
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
        assert_eq!(
            Decoder::new(&enc.bytes, &list, None).paper().err(),
            Some(Bad)
        );
    }
}
