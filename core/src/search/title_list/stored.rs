//! A finished [`TitleList`] as bytes, and back: what the cache keeps so
//! that `paperboat search` reopens a large file without reading a paper
//! (no JSON, no record, no repeat check: the list as it was finished).
//!
//! The bytes are arrays in the word index's form (each 8-byte aligned,
//! its length first; see [`Out`]), the list's parts written as one: a
//! section of a cache entry, which says what they are and of which
//! layout (its one version, docs/CACHE.md) and checksums them, so they
//! carry no magic or version of their own. Read
//! back, the large arrays (titles' text, spans, masks, ids, names) are
//! used where they lie, the mapped entry's pages, without a copy; the
//! small ones are copied. What the list trusts is checked first:
//! lengths, spans within their buffers, ASCII where ASCII is read
//! unchecked, characters, UTF-8, ascending places. A list that fails is
//! refused.

use std::io::{self, Write};

use super::{IdSlot, Names, Slot, TitleList, TitlePart};
use crate::search::array::Arr;
use crate::search::items::{Items, TitleSpan};
use crate::search::masks::Chars;
use crate::search::words::{In, Out, Shared};

/// Writes `strings` (in pieces) as two arrays: where each ends, and their
/// bytes end to end.
fn write_strings<'a>(
    out: &mut Out<'_>,
    strings: impl Iterator<Item = &'a str> + Clone,
) -> io::Result<()> {
    let mut end = 0u64;
    let ends: Vec<u64> = strings
        .clone()
        .map(|s| {
            end += s.len() as u64;
            end
        })
        .collect();
    out.array([ends.as_slice()])?;
    out.array(strings.map(str::as_bytes))
}

/// Reads what [`write_strings`] wrote.
fn read_strings(r: &mut In, what: &str) -> Result<Vec<Box<str>>, String> {
    let ends = r.array::<u64>(&format!("{what} ends"))?;
    let bytes = r.array::<u8>(&format!("{what} text"))?;
    let mut start = 0usize;
    let mut out = Vec::with_capacity(ends.len());
    for &end in ends.iter() {
        let piece = usize::try_from(end)
            .ok()
            .filter(|&e| e >= start)
            .and_then(|e| bytes.get(start..e))
            .ok_or_else(|| format!("{what}: an end out of order or past the text"))?;
        let text = std::str::from_utf8(piece).map_err(|_| format!("{what}: not UTF-8"))?;
        out.push(text.into());
        start += piece.len();
    }
    if start != bytes.len() {
        return Err(format!("{what}: text past the last end"));
    }
    Ok(out)
}

/// Reads an array of exactly `n` items, where it lies when it can.
fn exactly<T: bytemuck::Pod>(r: &mut In, what: &str, n: usize) -> Result<Arr<T>, String> {
    let arr = r.array::<T>(what)?;
    if arr.len() != n {
        return Err(format!("{what}: {} items for {n}", arr.len()));
    }
    Ok(arr)
}

/// Reads ascending places below `n`.
fn read_places(r: &mut In, what: &str, n: usize) -> Result<Vec<u32>, String> {
    let at = r.array::<u32>(what)?.to_vec();
    let ascending = at.windows(2).all(|w| w[0] < w[1]);
    if !ascending || at.last().is_some_and(|&i| i as usize >= n) {
        return Err(format!("{what}: not ascending below {n}"));
    }
    Ok(at)
}

impl TitleList {
    /// Writes the list, finished, to `w` (its parts as one); returns the
    /// bytes written. [`TitleList::from_bytes`] reads it back.
    pub fn write_to(&self, w: &mut dyn Write) -> io::Result<u64> {
        let mut out = Out::new(w);
        let head = [self.len as u64, self.short_len as u64];
        out.array([&head[..]])?;
        let items = || self.parts.iter().map(|p| &p.titles.items);
        out.array(items().map(|i| &*i.ascii))?;
        let wide: Vec<u32> = items().flat_map(|i| &i.wide).map(|&c| c as u32).collect();
        out.array([wide.as_slice()])?;
        // Spans, places and ids rebased from each part's to the whole's.
        let (mut spans, mut ids, mut name_ends) = (Vec::new(), Vec::new(), Vec::new());
        let (mut wide_at, mut marked_at) = (Vec::new(), Vec::new());
        let (mut ascii_base, mut wide_base) = (0, 0);
        let (mut names_base, mut text_base) = (0u32, 0u64);
        for (part, &first) in self.parts.iter().zip(&self.starts) {
            let items = &part.titles.items;
            spans.extend(items.spans.iter().map(|s| {
                let base = if s.wide() { wide_base } else { ascii_base };
                TitleSpan::new(s.start + base, s.len, s.wide())
            }));
            ids.extend(part.ids.iter().map(|id| match id.get() {
                IdSlot::Named(k) => Slot::from(IdSlot::Named(k + names_base)),
                IdSlot::Hash(_) => *id,
            }));
            name_ends.extend(part.names.ends.iter().map(|e| e + text_base));
            wide_at.extend(part.titles.wide_at.iter().map(|&i| i + first as u32));
            marked_at.extend(part.marked_at.iter().map(|&i| i + first as u32));
            ascii_base += items.ascii.len();
            wide_base += items.wide.len();
            names_base += part.names.len() as u32;
            text_base += part.names.text.len() as u64;
        }
        out.array([spans.as_slice()])?;
        out.array(items().map(|i| &*i.masks))?;
        out.array([name_ends.as_slice()])?;
        out.array(self.parts.iter().map(|p| &*p.names.text))?;
        out.array([ids.as_slice()])?;
        let derived: Vec<u8> = self
            .parts
            .iter()
            .flat_map(|p| &p.derived)
            .map(|&d| u8::from(d))
            .collect();
        out.array([derived.as_slice()])?;
        out.array([wide_at.as_slice()])?;
        write_strings(
            &mut out,
            self.parts
                .iter()
                .flat_map(|p| &p.titles.wide_text)
                .map(|s| &**s),
        )?;
        out.array([marked_at.as_slice()])?;
        write_strings(
            &mut out,
            self.parts.iter().flat_map(|p| &p.marked).map(|s| &**s),
        )?;
        out.finish()
    }

    /// The list [`TitleList::write_to`] wrote in `bytes`, checked. The
    /// titles' text, spans, masks and ids are read where they lie (where
    /// `bytes` are aligned, as a mapped cache entry's are).
    pub fn from_bytes(bytes: Shared) -> Result<TitleList, String> {
        let mut r = In::new(bytes);
        let head = r.array::<u64>("header")?;
        let &[len, short_len] = &head[..] else {
            return Err("header: not two numbers".to_string());
        };
        let n = usize::try_from(len).map_err(|_| "too many titles".to_string())?;
        let short_len = short_len.min(16) as usize;
        let ascii: Arr<u8> = r.array::<u8>("ASCII titles")?;
        if !ascii.is_ascii() {
            // Read back as text unchecked: see `TitleIndex::text`.
            return Err("ASCII titles: a byte that is not ASCII".to_string());
        }
        let wide = r
            .array::<u32>("wide titles")?
            .iter()
            .map(|&c| char::from_u32(c))
            .collect::<Option<Vec<char>>>()
            .ok_or("wide titles: not a character")?;
        let spans = exactly::<TitleSpan>(&mut r, "title spans", n)?;
        let inside = |s: &TitleSpan| {
            let room = if s.wide() { wide.len() } else { ascii.len() };
            s.start
                .checked_add(s.len as usize)
                .is_some_and(|e| e <= room)
        };
        if !spans.iter().all(inside) {
            return Err("a title past its buffer".to_string());
        }
        let masks = exactly::<Chars>(&mut r, "title masks", n)?;
        // Names and ids need no check: a name that is not there, or not
        // whole, reads as "" (see `Names::get`).
        let names = Names {
            ends: r.array::<u64>("name ends")?,
            text: r.array::<u8>("names")?,
        };
        let ids = exactly::<Slot>(&mut r, "ids", n)?;
        let derived = exactly::<u8>(&mut r, "derived", n)?
            .iter()
            .map(|&d| d != 0)
            .collect();
        let wide_at = read_places(&mut r, "wide places", n)?;
        let wide_text = read_strings(&mut r, "wide text")?;
        let marked_at = read_places(&mut r, "marked places", n)?;
        let marked = read_strings(&mut r, "marked text")?;
        r.end()?;
        if wide_at.len() != wide_text.len() || marked_at.len() != marked.len() {
            return Err("places and their text differ in number".to_string());
        }
        let part = TitlePart {
            titles: crate::search::TitleIndex {
                items: Items {
                    ascii,
                    wide,
                    spans,
                    masks,
                },
                wide_at,
                wide_text,
            },
            ids,
            names,
            derived,
            marked_at,
            marked,
        };
        Ok(TitleList {
            parts: if n == 0 { Vec::new() } else { vec![part] },
            starts: if n == 0 { Vec::new() } else { vec![0] },
            len: n,
            short_len,
        })
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::corpus::{Paper, Record};
    use crate::search::Prepared;

    fn paper(title: &str, arxiv: Option<&str>) -> Paper {
        Record {
            title: Some(title.to_string()),
            arxiv: arxiv.map(str::to_string),
            abstract_text: Some(format!("About {title}.")),
            ..Record::default()
        }
        .into_paper(&"t".into(), 0)
        .unwrap()
    }

    /// Every line `search` prints, and the ranking of some queries.
    fn shown(list: &TitleList) -> String {
        let mut out = Vec::new();
        for i in 0..list.len() {
            list.write_line(&mut out, i);
        }
        for q in ["sparse", "'café", "^deep", "ml$", "naïve", "x"] {
            out.extend(format!("{q}: {:?}\n", list.rank(q)).bytes());
        }
        String::from_utf8(out).unwrap()
    }

    /// A list in three parts: ASCII, wide, marked-up and derived titles,
    /// named and hash ids, a derived title repeated.
    fn sample() -> TitleList {
        let mut list = TitleList::default();
        list.push(vec![
            paper("Sparse attention for long documents", Some("2101.00001")),
            paper("Café au lait: naïve Bayes in ML", None),
        ]);
        let mut second = TitleList::default();
        second.push(vec![
            paper("<b>Deep</b> sparse $x^2$ models", Some("2101.00002")),
            paper("Plain title", None),
        ]);
        list.append(second, None);
        let mut third = TitleList::default();
        third.push_line("A title line, hashed", true, 1);
        third.push_line("Ünïcödé line ml", true, 2);
        third.push_line(
            "A long abstract whose first sentence becomes its title. Then more.",
            false,
            3,
        );
        third.push_line(
            "A long abstract whose first sentence becomes its title. Then other words.",
            false,
            4,
        );
        list.append(third, None);
        list.finish();
        list
    }

    /// Papers as a file gives them: every kind of title and id, and two
    /// derived titles alike (which `finish` tells apart by their ids).
    fn loaded() -> Vec<Paper> {
        let derived = |k: usize, rest: &str| {
            Record {
                abstract_text: Some(format!(
                    "A long abstract whose first sentence becomes its title. {rest} {k}."
                )),
                ..Record::default()
            }
            .into_paper(&"t".into(), 0)
            .unwrap()
        };
        let mut papers = Vec::new();
        for k in 0..40 {
            papers.push(match k % 6 {
                0 => paper(&format!("Sparse attention for long documents {k}"), None),
                1 => paper(
                    &format!("Café au lait: naïve Bayes {k}"),
                    Some(&format!("2101.{k:05}")),
                ),
                2 => paper(&format!("<b>Deep</b> sparse $x^{k}$ models"), None),
                3 => derived(k, "Then more"),
                4 => paper(&format!("Plain title {k}"), Some(&format!("2102.{k:05}"))),
                _ => paper(&format!("Ünïcödé {k} ml"), None),
            });
        }
        papers
    }

    #[test]
    fn a_stored_list_prepares_the_papers_it_was_made_of_as_they_are_prepared() {
        let papers = loaded();
        let mut list = TitleList::default();
        list.push(papers.clone());
        list.finish();
        let list = round_trip(&list).unwrap();
        // The derived titles alike were told apart in the list.
        assert!(list.title(3).ends_with(']'), "{}", list.title(3));
        for (from, to) in [(0, 40), (0, 1), (5, 17), (39, 40), (40, 40)] {
            let batch = &papers[from..to];
            let (got, want) = (
                list.prepared(from, batch, true).unwrap(),
                Prepared::new(batch),
            );
            // Without what the index reads: the same titles.
            let titles = list.prepared(from, batch, false).unwrap();
            assert_eq!(titles.lacks_index_fields(), !batch.is_empty());
            assert!(!got.lacks_index_fields());
            assert!(titles.metas.is_empty() && titles.abstracts.is_empty());
            for i in 0..batch.len() {
                assert_eq!(titles.items.title(i), want.items.title(i));
                assert_eq!(titles.items.masks[i], want.items.masks[i]);
            }
            assert_eq!(got.items.len(), batch.len());
            assert_eq!(got.metas.len(), batch.len());
            assert_eq!(got.abstracts.len(), batch.len());
            for i in 0..batch.len() {
                assert_eq!(got.items.title(i), want.items.title(i), "{}", from + i);
                assert_eq!(got.items.masks[i], want.items.masks[i], "{}", from + i);
                let (a, b) = (&got.metas[i], &want.metas[i]);
                assert_eq!(
                    (&a.title, &a.authors, &a.venue, &a.id, a.year),
                    (&b.title, &b.authors, &b.venue, &b.id, b.year),
                    "{}",
                    from + i
                );
                assert_eq!(got.abstracts[i], want.abstracts[i]);
            }
        }
        // Papers that are not the list's, at their places, get nothing.
        assert!(
            list.prepared(1, &papers[..3], true).is_none(),
            "shifted by one"
        );
        assert!(list.prepared(38, &papers[38..], true).is_some());
        assert!(
            list.prepared(39, &papers[38..], false).is_none(),
            "past the end"
        );
        let mut other = papers[7].clone();
        other.id = crate::corpus::PaperId::arxiv("2199.00001");
        assert!(list.prepared(7, &[other], true).is_none(), "another id");
    }

    fn round_trip(list: &TitleList) -> Result<TitleList, String> {
        let mut bytes = Vec::new();
        let n = list.write_to(&mut bytes).unwrap();
        assert_eq!(n as usize, bytes.len());
        TitleList::from_bytes(Arc::new(bytes))
    }

    #[test]
    fn a_list_read_back_prints_and_ranks_as_it_did() {
        let list = sample();
        assert_eq!(list.parts.len(), 3, "the sample has parts to merge");
        let back = round_trip(&list).unwrap();
        assert_eq!(back.len(), list.len());
        assert_eq!(shown(&back), shown(&list));
        assert!(shown(&list).contains("Café"), "{}", shown(&list));
        // And once more, from a list read back.
        assert_eq!(shown(&round_trip(&back).unwrap()), shown(&list));
    }

    /// The number of titles the header of `bytes` says (after the
    /// header array's length).
    fn list_len(bytes: &[u8]) -> u64 {
        u64::from_le_bytes(bytes[8..16].try_into().unwrap())
    }

    #[test]
    fn damaged_bytes_are_refused_or_read_as_a_list_never_a_panic() {
        let mut bytes = Vec::new();
        sample().write_to(&mut bytes).unwrap();
        for cut in 0..bytes.len() {
            assert!(TitleList::from_bytes(Arc::new(bytes[..cut].to_vec())).is_err());
        }
        for at in 0..bytes.len() {
            for flip in [0x01, 0x80, 0xff] {
                let mut b = bytes.clone();
                b[at] ^= flip;
                if let Ok(list) = TitleList::from_bytes(Arc::new(b)) {
                    // Whatever it reads, it can print and rank.
                    shown(&list);
                }
            }
        }
        // One title more or fewer than the arrays hold: refused.
        for len in [list_len(&bytes) + 1, list_len(&bytes) - 1] {
            let mut b = bytes.clone();
            b[8..16].copy_from_slice(&len.to_le_bytes());
            let err = TitleList::from_bytes(Arc::new(b)).err();
            assert!(err.is_some_and(|e| e.contains("items for")), "{len}");
        }
    }

    #[test]
    fn a_byte_past_ascii_in_the_ascii_titles_is_refused() {
        let list = sample();
        let mut bytes = Vec::new();
        list.write_to(&mut bytes).unwrap();
        // The ASCII titles start after the header array (8 + 16 bytes)
        // and their own length (8).
        let first = 32;
        assert_eq!(bytes[first], b'S');
        bytes[first] = 0xC3;
        let err = TitleList::from_bytes(Arc::new(bytes)).unwrap_err();
        assert!(err.contains("ASCII"), "{err}");
    }
}
