//! The file an entry is kept in: a header (magic, version, kind, where
//! the section table is, and checksums of the header and the table), then
//! the sections, each 8-byte aligned, then the table (offset, length and
//! checksum of each section, and the checksum of each of its stripes when
//! it is cut in stripes, see [`STRIPE`]; postcard). The one format of
//! every entry, papers, word index or titles, and its one validator: what
//! a section holds is that kind's layout of this version, trusted once
//! its checksum holds (docs/CACHE.md, "The container"). Written to a temporary file
//! in the cache directory and renamed into place (not synced: see
//! `Writer::finish`); read through a read-only map, every bound checked
//! and every section's checksum verified before a byte of it is trusted
//! (or, for a reader that reads only parts of a large section, the
//! checksum of each stripe it reads: [`Entry::verified_in`]). A process
//! that replaces or removes the entry meanwhile leaves the mapped file as
//! it was (a rename or an unlink keeps the inode); entries are never
//! changed in place.

use std::fs::File;
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::Path;

use serde::{Deserialize, Serialize};
use xxhash_rust::xxh3::{Xxh3, xxh3_64};

use super::serial;

const MAGIC: &[u8; 8] = b"PBOATCA\n";
const HEADER: usize = 48;

/// Sections longer than this are checksummed in stripes of this size
/// (see [`Sum`]), so that both cores can verify one large section.
#[cfg(not(test))]
const STRIPE: usize = 4 << 20;
/// Small in tests, so that striped sections are quick to make and check.
#[cfg(test)]
const STRIPE: usize = 4 << 10;

/// A section's checksum: its xxh3-64, or for a section longer than a
/// [`STRIPE`], the xxh3-64 of its stripes' (little-endian), which can be
/// worked out on every core.
#[derive(Default)]
struct Sum {
    stripe: Xxh3,
    in_stripe: usize,
    stripes: Vec<u64>,
}

/// The checksum of a section cut in `stripes`: the xxh3-64 of theirs,
/// little-endian, end to end.
fn sum_of_stripes(stripes: &[u64]) -> u64 {
    let bytes: Vec<u8> = stripes.iter().flat_map(|s| s.to_le_bytes()).collect();
    xxh3_64(&bytes)
}

impl Sum {
    fn update(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            let n = bytes.len().min(STRIPE - self.in_stripe);
            self.stripe.update(&bytes[..n]);
            self.in_stripe += n;
            bytes = &bytes[n..];
            if self.in_stripe == STRIPE {
                self.stripes.push(self.stripe.digest());
                self.stripe.reset();
                self.in_stripe = 0;
            }
        }
    }

    /// The section's checksum, and its stripes' (empty for a section of
    /// one stripe).
    fn finish(mut self, len: u64) -> (u64, Vec<u64>) {
        if len <= STRIPE as u64 {
            return (self.stripe.digest(), Vec::new());
        }
        if self.in_stripe > 0 {
            self.stripes.push(self.stripe.digest());
        }
        (sum_of_stripes(&self.stripes), self.stripes)
    }
}

/// A section as the table gives it.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
struct Row {
    /// Where it starts in the file (8-byte aligned) and its bytes.
    offset: u64,
    len: u64,
    /// Its checksum ([`Sum`]).
    sum: u64,
    /// Its stripes' checksums, when it is longer than a [`STRIPE`] (else
    /// none).
    stripes: Vec<u64>,
}

/// The stripes a section of `len` bytes is cut in: one for a section of
/// a stripe or less.
fn stripes_of(len: usize) -> usize {
    if len <= STRIPE {
        1
    } else {
        len.div_ceil(STRIPE)
    }
}

/// The xxh3-64 of each of `parts`, worked out on every core.
fn digests(parts: &[&[u8]]) -> Vec<u64> {
    let threads = crate::parallel::threads().min(parts.len().div_ceil(2).max(1));
    crate::parallel::map_split(parts, threads, |_, part: &[&[u8]]| {
        part.iter().map(|s| xxh3_64(s)).collect::<Vec<u64>>()
    })
    .into_iter()
    .flatten()
    .collect()
}

/// An entry being written.
pub(super) struct Writer {
    out: BufWriter<Small<tempfile::NamedTempFile>>,
    at: u64,
    kind: u32,
    table: Vec<Row>,
    /// The section being written: where it starts and its checksum so far.
    open: Option<(u64, Sum)>,
}

impl Writer {
    /// Starts an entry of `kind` in `dir` (a temporary file there).
    pub(super) fn create(dir: &Path, kind: u32) -> io::Result<Writer> {
        std::fs::create_dir_all(dir)?;
        let tmp = tempfile::Builder::new()
            .prefix(super::TEMP_PREFIX)
            .tempfile_in(dir)?;
        let mut out = BufWriter::with_capacity(WRITE, Small(tmp));
        out.write_all(&[0; HEADER])?;
        Ok(Writer {
            out,
            at: HEADER as u64,
            kind,
            table: Vec::new(),
            open: None,
        })
    }

    /// Appends to the section being written (starting one if none is).
    pub(super) fn append(&mut self, bytes: &[u8]) -> io::Result<()> {
        let (_, sum) = self.open.get_or_insert_with(|| (self.at, Sum::default()));
        sum.update(bytes);
        self.out.write_all(bytes)?;
        self.at += bytes.len() as u64;
        Ok(())
    }

    /// Ends the section being written (an empty one if none is).
    pub(super) fn end_section(&mut self) -> io::Result<()> {
        let (start, sum) = self.open.take().unwrap_or((self.at, Sum::default()));
        let len = self.at - start;
        let (sum, stripes) = sum.finish(len);
        self.table.push(Row {
            offset: start,
            len,
            sum,
            stripes,
        });
        let pad = (8 - self.at % 8) % 8;
        self.out.write_all(&[0; 8][..pad as usize])?;
        self.at += pad;
        Ok(())
    }

    /// A whole section.
    pub(super) fn section(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.append(bytes)?;
        self.end_section()
    }

    /// Writes the table and the header and renames the file to `to`. The
    /// file is not synced first: a crash can leave the renamed entry cut
    /// short or empty, which its checksums refuse (it is then rebuilt, as
    /// a missing one is), and a sync costs a cold search of all of arXiv
    /// half a second for 400 MB of titles, a second or more for its papers
    /// and word index.
    pub(super) fn finish(mut self, to: &Path) -> io::Result<()> {
        if self.open.is_some() {
            self.end_section()?;
        }
        let table = serial::encode(&self.table);
        self.out.write_all(&table)?;
        let header = header(self.kind, self.at, &table);
        let Small(mut tmp) = self.out.into_inner().map_err(|e| e.into_error())?;
        tmp.seek(SeekFrom::Start(0))?;
        tmp.write_all(&header)?;
        tmp.persist(to).map_err(|e| e.error)?;
        Ok(())
    }
}

/// The header of an entry of `kind` whose table is `table`, at `table_at`.
/// Written by hand, not as postcard: it is written last, over the
/// [`HEADER`] bytes kept for it at the start, so its length cannot depend
/// on its values.
fn header(kind: u32, table_at: u64, table: &[u8]) -> Vec<u8> {
    let mut header = Vec::with_capacity(HEADER);
    header.extend_from_slice(MAGIC);
    header.extend_from_slice(&super::VERSION.to_le_bytes());
    header.extend_from_slice(&kind.to_le_bytes());
    header.extend_from_slice(&table_at.to_le_bytes());
    header.extend_from_slice(&(table.len() as u64).to_le_bytes());
    header.extend_from_slice(&xxh3_64(table).to_le_bytes());
    let sum = xxh3_64(&header);
    header.extend_from_slice(&sum.to_le_bytes());
    header
}

/// The most an entry's file is handed in one write. A write of a
/// megabyte or more has the kernel put it in the page cache in large
/// blocks of memory, which on a virtual machine that gives its free
/// memory back to the host are fresh to the host too: large writes took
/// several times the system time of small ones (docs/PERFORMANCE.md,
/// Cache). Elsewhere the smaller writes cost only more calls (fifteen
/// thousand for a 465 MB entry).
const WRITE: usize = 32 << 10;

/// A file written at most [`WRITE`] bytes at a time.
struct Small<W>(W);

impl<W: Write> Write for Small<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(&buf[..buf.len().min(WRITE)])
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

/// An entry as read: its map and sections, checked.
pub(super) struct Entry {
    map: memmap2::Mmap,
    sections: Vec<(usize, usize)>,
    /// The checksum the table gives for each section: of the whole
    /// section for one of a stripe or less, else of each stripe.
    sums: Vec<Vec<u64>>,
}

/// Opens `path` for reading when it is a regular file; `None` for
/// anything else found where an entry goes (a FIFO, whose opening would
/// wait for a writer forever, a device, a directory). On Linux the file
/// is opened without waiting and checked once open; elsewhere it is
/// checked first.
fn open_regular(path: &Path) -> Option<File> {
    #[cfg(target_os = "linux")]
    let file = {
        use std::os::unix::fs::OpenOptionsExt;
        std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(path)
            .ok()?
    };
    #[cfg(not(target_os = "linux"))]
    let file = {
        if !std::fs::metadata(path).ok()?.is_file() {
            return None;
        }
        File::open(path).ok()?
    };
    file.metadata().ok()?.is_file().then_some(file)
}

impl Entry {
    /// Opens the entry at `path` if it is one of `kind` in this version,
    /// whole, with its first section's (its key's) checksum right (see
    /// [`Entry::verify`] and [`Entry::verified_section`] for the rest,
    /// once the key is found to match: the last section of an index is
    /// 1.1 GB at 2.7M papers). The file's time is set to now: the least
    /// recently used entries are removed first.
    pub(super) fn open(path: &Path, kind: u32) -> Option<Entry> {
        let file = open_regular(path)?;
        let map = crate::sys::map(&file).ok()?;
        let entry = Entry::parse(map, kind)?;
        if !entry.verified(0..1) {
            return None;
        }
        let _ = file.set_modified(std::time::SystemTime::now());
        Some(entry)
    }

    /// True when the entry at `path` is one of `kind` in this version
    /// whose first section (its key) is `key`: its header, table and key
    /// checked, no other section (an index's last is 1.1 GB at 2.7M
    /// papers, read in 0.1 s). Its time is left as it is.
    pub(super) fn has_key(path: &Path, kind: u32, key: &[u8]) -> bool {
        let Some(file) = open_regular(path) else {
            return false;
        };
        let Some(map) = crate::sys::map(&file).ok() else {
            return false;
        };
        Entry::parse(map, kind).is_some_and(|e| e.verified(0..1) && e.section(0) == key)
    }

    /// The entry's header and table, checked (not its sections): each
    /// section's stripes' checksums are those its checksum was made of.
    fn parse(map: memmap2::Mmap, kind: u32) -> Option<Entry> {
        let u64_at = |at: usize| -> Option<u64> {
            Some(u64::from_le_bytes(map.get(at..at + 8)?.try_into().ok()?))
        };
        let head = map.get(..HEADER)?;
        if &head[..8] != MAGIC
            || head[8..12] != super::VERSION.to_le_bytes()
            || head[12..16] != kind.to_le_bytes()
            || xxh3_64(&head[..40]) != u64_at(40)?
        {
            return None;
        }
        let table_at = usize::try_from(u64_at(16)?).ok()?;
        let table_len = usize::try_from(u64_at(24)?).ok()?;
        let table = map.get(table_at..table_at.checked_add(table_len)?)?;
        if xxh3_64(table) != u64_at(32)? {
            return None;
        }
        let rows: Vec<Row> = serial::decode(table).ok()?;
        let mut sections = Vec::with_capacity(rows.len());
        let mut sums = Vec::with_capacity(rows.len());
        for row in rows {
            let start = usize::try_from(row.offset).ok()?;
            let len = usize::try_from(row.len).ok()?;
            if start % 8 != 0 || start < HEADER || start.checked_add(len)? > table_at {
                return None;
            }
            sections.push((start, len));
            if len <= STRIPE {
                if !row.stripes.is_empty() {
                    return None;
                }
                sums.push(vec![row.sum]);
            } else {
                if row.stripes.len() != stripes_of(len) || sum_of_stripes(&row.stripes) != row.sum {
                    return None;
                }
                sums.push(row.stripes);
            }
        }
        Some(Entry {
            map,
            sections,
            sums,
        })
    }

    /// Stripe `k` of section `i` (the whole section for one of a stripe
    /// or less).
    fn stripe(&self, i: usize, k: usize) -> &[u8] {
        let (start, len) = self.sections[i];
        let from = k * STRIPE;
        let to = if len <= STRIPE {
            len
        } else {
            (from + STRIPE).min(len)
        };
        &self.map[start + from..start + to]
    }

    /// True when stripes `(section, stripe)` are as their checksums say
    /// (worked out on every core).
    fn stripes_verified(&self, stripes: &[(usize, usize)]) -> bool {
        let parts: Vec<&[u8]> = stripes.iter().map(|&(i, k)| self.stripe(i, k)).collect();
        let want = stripes.iter().map(|&(i, k)| self.sums[i][k]);
        digests(&parts).into_iter().eq(want)
    }

    /// True when sections `range` are as their checksums say.
    fn verified(&self, range: std::ops::Range<usize>) -> bool {
        if range.end > self.sections.len() {
            return range.is_empty();
        }
        let stripes: Vec<(usize, usize)> = range
            .flat_map(|i| (0..self.sums[i].len()).map(move |k| (i, k)))
            .collect();
        self.stripes_verified(&stripes)
    }

    /// True when section `i` is as its checksum says.
    pub(super) fn verified_section(&self, i: usize) -> bool {
        i < self.sections.len() && self.verified(i..i + 1)
    }

    /// True when the bytes `ranges` of section `i` (from its start) are
    /// as their checksums say: every stripe they touch is verified, the
    /// others are not read. For a reader of a large section that reads
    /// only parts of it, and reads no byte outside `ranges`.
    pub(super) fn verified_in(&self, i: usize, ranges: &[std::ops::Range<usize>]) -> bool {
        let Some(sums) = self.sums.get(i) else {
            return false;
        };
        let len = self.sections[i].1;
        let mut wanted = vec![false; sums.len()];
        for r in ranges {
            let (from, to) = (r.start.min(len), r.end.min(len));
            if from >= to {
                continue;
            }
            let first = (from / STRIPE).min(sums.len() - 1);
            let last = ((to - 1) / STRIPE).min(sums.len() - 1);
            wanted[first..=last].iter_mut().for_each(|w| *w = true);
        }
        let stripes: Vec<(usize, usize)> = (0..sums.len())
            .filter(|&k| wanted[k])
            .map(|k| (i, k))
            .collect();
        self.stripes_verified(&stripes)
    }

    /// True when every section is as its checksum says (worked out on
    /// every core): to be asked before trusting any but the first and the
    /// last.
    pub(super) fn verify(&self) -> bool {
        self.verified(0..self.sections.len())
    }

    /// The number of sections.
    pub(super) fn len(&self) -> usize {
        self.sections.len()
    }

    /// Section `i` (empty past the last).
    pub(super) fn section(&self, i: usize) -> &[u8] {
        self.sections
            .get(i)
            .map_or(&[][..], |&(s, l)| &self.map[s..s + l])
    }

    /// Gives back the memory section `i` took once it is read: the
    /// process's share of it goes, the page cache keeps it.
    pub(super) fn release(&self, i: usize) {
        if let Some(&(s, l)) = self.sections.get(i) {
            // Nothing decoded refers into it (papers own their text).
            crate::sys::release(&self.map, s..s + l);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The file is handed no write longer than [`WRITE`], however large
    /// the section, and gets every byte in order.
    #[test]
    fn large_sections_are_written_in_small_writes() {
        #[derive(Default)]
        struct Seen {
            bytes: Vec<u8>,
            longest: usize,
        }
        impl Write for Seen {
            fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
                self.longest = self.longest.max(buf.len());
                self.bytes.extend_from_slice(buf);
                Ok(buf.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let big: Vec<u8> = (0..WRITE * 3 + 5).map(|i| (i % 253) as u8).collect();
        let mut out = BufWriter::with_capacity(WRITE, Small(Seen::default()));
        out.write_all(b"head").unwrap();
        out.write_all(&big).unwrap();
        let Small(seen) = out.into_inner().map_err(|e| e.into_error()).unwrap();
        assert_eq!(seen.bytes.len(), big.len() + 4);
        assert_eq!(&seen.bytes[4..], &big[..]);
        assert!(
            seen.longest <= WRITE && seen.longest > 0,
            "{}",
            seen.longest
        );
    }

    #[test]
    fn an_entry_reads_back_and_any_damage_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("e");
        let big: Vec<u8> = (0..STRIPE * 2 + 77).map(|i| (i * 7 % 251) as u8).collect();
        let mut w = Writer::create(dir.path(), 9).unwrap();
        w.section(b"key").unwrap();
        w.append(b"two ").unwrap();
        w.append(b"parts").unwrap();
        w.end_section().unwrap();
        w.append(&big[..STRIPE - 3]).unwrap();
        w.append(&big[STRIPE - 3..]).unwrap();
        w.end_section().unwrap();
        w.section(b"").unwrap();
        w.finish(&path).unwrap();
        let e = Entry::open(&path, 9).unwrap();
        assert!(e.verify());
        assert_eq!(e.len(), 4);
        assert_eq!(e.section(0), b"key");
        assert_eq!(e.section(1), b"two parts");
        assert_eq!(e.section(2), &big[..]);
        assert_eq!(e.section(3), b"");
        assert!(Entry::open(&path, 8).is_none(), "another kind");
        // Its key alone.
        assert!(Entry::has_key(&path, 9, b"key"));
        assert!(!Entry::has_key(&path, 9, b"kez"));
        assert!(!Entry::has_key(&path, 8, b"key"), "another kind");
        assert!(!Entry::has_key(&dir.path().join("none"), 9, b"key"));
        let bytes = std::fs::read(&path).unwrap();
        // Damage to the header, the table or the key is seen; not to the
        // other sections, which a load then checks.
        for (at, seen) in [(2, true), (20, true), (48, true), (80, false)] {
            let mut b = bytes.clone();
            b[at] ^= 0x20;
            std::fs::write(&path, &b).unwrap();
            assert_eq!(!Entry::has_key(&path, 9, b"key"), seen, "{at}");
        }
        let at = bytes.len() - 30;
        let mut b = bytes.clone();
        b[at] ^= 0x20;
        std::fs::write(&path, &b).unwrap();
        assert!(!Entry::has_key(&path, 9, b"key"), "the table");
        // A flipped byte anywhere (but in padding) is refused; so is any
        // cut.
        let step = bytes.len() / 997 + 1;
        for at in (0..bytes.len()).step_by(step).chain([0, 9, 41, 48, 60]) {
            let mut b = bytes.clone();
            b[at] ^= 0x20;
            std::fs::write(&path, &b).unwrap();
            if let Some(e) = Entry::open(&path, 9).filter(Entry::verify) {
                // Only padding may change unnoticed.
                assert_eq!(e.section(2), &big[..], "{at}");
                assert_eq!(e.section(1), b"two parts", "{at}");
            }
        }
        for cut in [0, 10, 47, 48, bytes.len() / 2, bytes.len() - 1] {
            std::fs::write(&path, &bytes[..cut]).unwrap();
            assert!(Entry::open(&path, 9).is_none(), "{cut}");
        }
    }

    /// One range, as a list.
    fn one(r: std::ops::Range<usize>) -> [std::ops::Range<usize>; 1] {
        [r]
    }

    #[test]
    fn a_part_of_a_section_is_verified_by_the_stripes_it_touches() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("e");
        let big: Vec<u8> = (0..STRIPE * 3 + 5).map(|i| (i * 13 % 251) as u8).collect();
        let mut w = Writer::create(dir.path(), 9).unwrap();
        w.section(b"key").unwrap();
        w.section(&big).unwrap();
        w.section(b"end").unwrap();
        w.finish(&path).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        let e = Entry::open(&path, 9).unwrap();
        assert!(e.verify());
        assert!(e.verified_in(1, &[0..1, 2 * STRIPE..3 * STRIPE + 5]));
        let (start, _) = e.sections[1];
        drop(e);
        // A byte of the second stripe changed.
        let mut b = bytes.clone();
        b[start + STRIPE + 10] ^= 1;
        std::fs::write(&path, &b).unwrap();
        let e = Entry::open(&path, 9).unwrap();
        assert!(!e.verify());
        assert!(!e.verified_section(1));
        assert!(e.verified_section(2));
        assert!(e.verified_in(1, &one(0..STRIPE)));
        assert!(e.verified_in(
            1,
            &[
                10..20,
                2 * STRIPE..2 * STRIPE + 1,
                3 * STRIPE..3 * STRIPE + 5
            ]
        ));
        assert!(e.verified_in(1, &[]));
        assert!(!e.verified_in(1, &one(STRIPE - 1..STRIPE + 1)));
        assert!(!e.verified_in(1, &one(STRIPE + 10..STRIPE + 11)));
        assert!(!e.verified_in(1, &one(0..usize::MAX)));
        assert!(!e.verified_in(3, &one(0..1)), "no such section");
        drop(e);
        // A stripe's checksum in the table changed, the table's and the
        // header's checksums made to agree: the section's checksum does
        // not.
        let u64_at = |b: &[u8], at: usize| u64::from_le_bytes(b[at..at + 8].try_into().unwrap());
        let (table_at, table_len) = (u64_at(&bytes, 16), u64_at(&bytes, 24));
        let table = &bytes[table_at as usize..][..table_len as usize];
        let mut rows: Vec<Row> = serial::decode(table).unwrap();
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[1].stripes.len(), 4, "{:?}", rows[1]);
        rows[1].stripes[2] ^= 1 << 40;
        let changed = serial::encode(&rows);
        assert_eq!(changed.len(), table.len());
        let mut b = bytes.clone();
        b[table_at as usize..].copy_from_slice(&changed);
        b[..HEADER].copy_from_slice(&header(9, table_at, &changed));
        std::fs::write(&path, &b).unwrap();
        assert!(Entry::open(&path, 9).is_none());
        // The same with the table's checksum left as it was: refused.
        b[..HEADER].copy_from_slice(&bytes[..HEADER]);
        std::fs::write(&path, &b).unwrap();
        assert!(Entry::open(&path, 9).is_none());
    }
}
