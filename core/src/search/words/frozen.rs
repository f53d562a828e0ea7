//! The word index on disk: written as plain little-endian arrays, and read
//! back keeping the bytes it was read from (a memory map, or a buffer):
//! postings, words and per-paper arrays are used where they lie.
//!
//! The bytes are a section of a cache entry, which says what they are and
//! of which layout (its one version: docs/CACHE.md, "The container") and
//! checksums them: they carry no magic or version of their own, and a
//! change to this layout is a change of the cache's version. Layout
//! (every array starts 8-byte aligned, so that a `&[u32]` or a `&[u64]`
//! is a checked cast of the bytes, see [`Arr`]):
//!
//! ```text
//! indexed u64, length totals 3 × u64,
//! then arrays, each a u64 byte length, the bytes, zeros to 8 bytes:
//!   title lengths u8, abstract lengths u16, author lengths u8, years i16,
//!   ids u8 (lower case, end to end), id ends u32,
//!   per field (title, abstract, authors, venue):
//!     words u8 (sorted, end to end), word ends u32,
//!     postings offsets u64 (one per word and one more), postings u32.
//! ```
//!
//! Reading checks what a query relies on without reading every posting:
//! lengths, offsets monotone and in bounds, words UTF-8 and strictly
//! sorted. The postings' values are not checked (a checksum around the
//! bytes guards them); every query reads them with bounds checks, so a
//! wrong value gives a wrong score, never a panic.

use std::io::{self, BufWriter, Write};
use std::ops::Range;

use bytemuck::Pod;

pub(in crate::search) use crate::search::array::Arr;

pub use crate::search::array::Shared;

fn data(bytes: &Shared) -> &[u8] {
    (**bytes).as_ref()
}

/// One field's words in their on-disk form: sorted, so that the words a
/// prefix starts are a range found by binary search.
#[derive(Default)]
pub(super) struct Frozen {
    text: Arr<u8>,
    ends: Arr<u32>,
    offsets: Arr<u64>,
    postings: Arr<u32>,
    /// Where the postings start in the bytes it was read from.
    postings_at: usize,
}

/// A [`Frozen`]'s arrays, borrowed once for a query.
pub(super) struct FrozenView<'a> {
    text: &'a [u8],
    ends: &'a [u32],
    offsets: &'a [u64],
    postings: &'a [u32],
}

impl Frozen {
    pub(super) fn view(&self) -> FrozenView<'_> {
        FrozenView {
            text: &self.text,
            ends: &self.ends,
            offsets: &self.offsets,
            postings: &self.postings,
        }
    }

    /// Where in the bytes it was read from its postings lie.
    pub(super) fn postings_bytes(&self) -> Range<usize> {
        self.postings_at..self.postings_at + self.postings.len() * size_of::<u32>()
    }

    /// Where in the bytes it was read from lie the postings of the words
    /// `prefix` starts (`prefix` itself among them): all that a lookup of
    /// `prefix`, whole or as a prefix, reads of them.
    pub(super) fn postings_bytes_of(&self, prefix: &[u8]) -> Range<usize> {
        let v = self.view();
        let words = v.with_prefix(prefix);
        let at = |k: usize| v.offsets.get(k).map_or(0, |&o| o as usize);
        let (from, to) = (at(words.start), at(words.end).max(at(words.start)));
        let all = self.postings_bytes();
        let clamp = |k: usize| (all.start + k * size_of::<u32>()).min(all.end);
        clamp(from)..clamp(to)
    }

    pub(super) fn owned_bytes(&self) -> usize {
        self.text.owned_bytes()
            + self.ends.owned_bytes()
            + self.offsets.owned_bytes()
            + self.postings.owned_bytes()
    }

    pub(super) fn viewed_bytes(&self) -> usize {
        self.text.viewed_bytes()
            + self.ends.viewed_bytes()
            + self.offsets.viewed_bytes()
            + self.postings.viewed_bytes()
    }

    /// Checks what queries rely on: `what` names the field in errors.
    fn check(&self, what: &str) -> Result<(), String> {
        let v = self.view();
        let n = v.ends.len();
        if v.offsets.len() != n + 1 {
            return Err(format!(
                "{what}: {} postings offsets for {n} words",
                v.offsets.len()
            ));
        }
        if v.offsets[0] != 0 || v.offsets[n] != v.postings.len() as u64 {
            return Err(format!(
                "{what}: postings offsets do not span the {} postings",
                v.postings.len()
            ));
        }
        if v.offsets.windows(2).any(|w| w[0] > w[1]) {
            return Err(format!("{what}: postings offsets go backwards"));
        }
        if v.ends.last().map_or(0, |&e| e as usize) != v.text.len() {
            return Err(format!("{what}: word ends do not span the words"));
        }
        let text = std::str::from_utf8(v.text).map_err(|e| format!("{what}: words: {e}"))?;
        let mut start = 0usize;
        let mut last: Option<&[u8]> = None;
        for &end in v.ends {
            let end = end as usize;
            if end < start || !text.is_char_boundary(end) {
                return Err(format!("{what}: word ends out of order"));
            }
            let word = &v.text[start..end];
            if last.is_some_and(|l| l >= word) {
                return Err(format!("{what}: words not strictly sorted"));
            }
            last = Some(word);
            start = end;
        }
        Ok(())
    }
}

impl<'a> FrozenView<'a> {
    pub(super) fn len(&self) -> usize {
        self.ends.len()
    }

    pub(super) fn word(&self, i: usize) -> &'a [u8] {
        let start = match i {
            0 => 0,
            _ => self.ends.get(i - 1).map_or(0, |&e| e as usize),
        };
        let end = self.ends.get(i).map_or(0, |&e| e as usize);
        self.text.get(start..end).unwrap_or(&[])
    }

    pub(super) fn postings(&self, i: usize) -> &'a [u32] {
        let at = |k: usize| self.offsets.get(k).map(|&o| o as usize);
        match (at(i), at(i + 1)) {
            (Some(a), Some(b)) => self.postings.get(a..b).unwrap_or(&[]),
            _ => &[],
        }
    }

    /// Word `i`, if it is `word`'s place.
    pub(super) fn find(&self, word: &[u8]) -> Option<usize> {
        let i = self.first_not_below(word);
        (i < self.len() && self.word(i) == word).then_some(i)
    }

    /// The words that start with `prefix`.
    pub(super) fn with_prefix(&self, prefix: &[u8]) -> Range<usize> {
        let lo = self.first_not_below(prefix);
        lo..self.past_prefix(prefix, lo)
    }

    /// The first word at or after `from` that `prefix` does not start,
    /// where the words `prefix` starts come from `from` on.
    pub(super) fn past_prefix(&self, prefix: &[u8], from: usize) -> usize {
        let mut size = self.len().saturating_sub(from);
        let mut hi = from;
        while size > 0 {
            let half = size / 2;
            if self.word(hi + half).starts_with(prefix) {
                hi += half + 1;
                size -= half + 1;
            } else {
                size = half;
            }
        }
        hi
    }

    fn first_not_below(&self, word: &[u8]) -> usize {
        let (mut lo, mut size) = (0, self.len());
        while size > 0 {
            let half = size / 2;
            if self.word(lo + half) < word {
                lo += half + 1;
                size -= half + 1;
            } else {
                size = half;
            }
        }
        lo
    }
}

/// Writes arrays, each 8-byte aligned, counting what it wrote.
pub(in crate::search) struct Out<'a> {
    w: BufWriter<&'a mut dyn Write>,
    at: u64,
}

impl<'a> Out<'a> {
    pub(in crate::search) fn new(w: &'a mut dyn Write) -> Self {
        Out {
            w: BufWriter::with_capacity(1 << 20, w),
            at: 0,
        }
    }

    fn bytes(&mut self, b: &[u8]) -> io::Result<()> {
        self.w.write_all(b)?;
        self.at += b.len() as u64;
        Ok(())
    }

    pub(super) fn header(&mut self, indexed: usize, totals: [u64; 3]) -> io::Result<()> {
        self.bytes(&(indexed as u64).to_le_bytes())?;
        for t in totals {
            self.bytes(&t.to_le_bytes())?;
        }
        Ok(())
    }

    /// One array, given in pieces.
    pub(in crate::search) fn array<'b, T: Pod>(
        &mut self,
        pieces: impl IntoIterator<Item = &'b [T]>,
    ) -> io::Result<()> {
        let pieces: Vec<&[T]> = pieces.into_iter().collect();
        let len: usize = pieces.iter().map(|p| size_of_val(*p)).sum();
        self.bytes(&(len as u64).to_le_bytes())?;
        for p in pieces {
            self.bytes(bytemuck::cast_slice(p))?;
        }
        let pad = (8 - (self.at % 8) as usize) % 8;
        self.bytes(&[0u8; 8][..pad])
    }

    /// One field's words, sorted, with their postings.
    pub(super) fn words(&mut self, sorted: &[(&[u8], &[u32])]) -> io::Result<()> {
        if sorted.iter().map(|(w, _)| w.len() as u64).sum::<u64>() > u64::from(u32::MAX) {
            return Err(io::Error::other("a field's words take more than 4 GB"));
        }
        self.array(sorted.iter().map(|(w, _)| *w))?;
        let mut end = 0u32;
        let ends: Vec<u32> = sorted
            .iter()
            .map(|(w, _)| {
                end += w.len() as u32;
                end
            })
            .collect();
        self.array([ends.as_slice()])?;
        let mut offset = 0u64;
        let offsets: Vec<u64> = std::iter::once(0)
            .chain(sorted.iter().map(|(_, p)| {
                offset += p.len() as u64;
                offset
            }))
            .collect();
        self.array([offsets.as_slice()])?;
        self.array(sorted.iter().map(|(_, p)| *p))
    }

    pub(in crate::search) fn finish(mut self) -> io::Result<u64> {
        self.w.flush()?;
        Ok(self.at)
    }
}

/// Reads what [`Out`] wrote, in the same order.
pub(in crate::search) struct In {
    bytes: Shared,
    at: usize,
}

/// What the header holds: papers indexed and the length totals.
pub(super) type Header = (usize, [u64; 3]);

/// The header's bytes: papers indexed and three totals, a `u64` each.
#[cfg(test)]
pub(super) const HEADER_BYTES: usize = 32;

impl In {
    pub(in crate::search) fn new(bytes: Shared) -> Self {
        In { bytes, at: 0 }
    }

    fn u64(&mut self, what: &str) -> Result<u64, String> {
        let b = data(&self.bytes)
            .get(self.at..self.at + 8)
            .ok_or_else(|| format!("{what}: the index ends at byte {}", self.at))?;
        self.at += 8;
        Ok(u64::from_le_bytes(b.try_into().unwrap_or_default()))
    }

    pub(super) fn header(&mut self) -> Result<Header, String> {
        if cfg!(target_endian = "big") {
            return Err("a word index on disk is read on little-endian machines only".into());
        }
        let indexed = usize::try_from(self.u64("papers indexed")?)
            .map_err(|_| "papers indexed: too many".to_string())?;
        let mut totals = [0u64; 3];
        for t in &mut totals {
            *t = self.u64("length totals")?;
        }
        Ok((indexed, totals))
    }

    /// The next array, as a view where its bytes are aligned for `T`.
    pub(in crate::search) fn array<T: Pod>(&mut self, what: &str) -> Result<Arr<T>, String> {
        let bytes = self.u64(what)?;
        let total = data(&self.bytes).len();
        let start = self.at;
        let end = usize::try_from(bytes)
            .ok()
            .and_then(|b| start.checked_add(b))
            .filter(|&e| e <= total)
            .ok_or_else(|| format!("{what}: {bytes} bytes, past the end of the index"))?;
        let size = size_of::<T>();
        if !(end - start).is_multiple_of(size) {
            return Err(format!(
                "{what}: {bytes} bytes, not a whole number of items"
            ));
        }
        let padded = end.next_multiple_of(8);
        if padded > total {
            return Err(format!("{what}: the index ends inside its padding"));
        }
        self.at = padded;
        Arr::of_bytes(self.bytes.clone(), start..end)
            .ok_or_else(|| format!("{what}: {bytes} bytes, not read"))
    }

    /// One field's words (`what` names it in errors), checked.
    pub(super) fn words(&mut self, what: &str) -> Result<Frozen, String> {
        let text = self.array(&format!("{what} words"))?;
        let ends = self.array(&format!("{what} word ends"))?;
        let offsets = self.array(&format!("{what} postings offsets"))?;
        // Past the array's length.
        let postings_at = self.at + 8;
        let frozen = Frozen {
            text,
            ends,
            offsets,
            postings: self.array(&format!("{what} postings"))?,
            postings_at,
        };
        frozen.check(what)?;
        Ok(frozen)
    }

    /// Errs unless every byte was read.
    pub(in crate::search) fn end(&self) -> Result<(), String> {
        let total = data(&self.bytes).len();
        if self.at == total {
            Ok(())
        } else {
            Err(format!("{} bytes after the end", total - self.at))
        }
    }
}
