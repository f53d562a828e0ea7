//! A cache of what loading a large file made, so that opening it again is
//! instant: per source file, in the user cache directory, an entry with
//! its papers exactly as the parse handed them on (replayed through the
//! same dedup and numbering, so a warm load equals a cold one), and beside
//! it, once built, the word index over them. See docs/CACHE.md.
//!
//! An entry is keyed by the file as it is now ([`key`]); one whose key or
//! checksums do not match is never used, and is rebuilt by the next load.
//! Entries are written to a temporary file and renamed into place,
//! and the least recently used are removed once the cache is over its
//! limit.

mod container;
mod key;
mod papers;
mod record;
mod serial;
mod stored;
mod titles;
#[cfg(test)]
mod warm;

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use self::container::{Entry, Writer};
pub(crate) use self::papers::Encoder;
pub(super) use self::record::{Lookup, Replay, lookup};
pub(super) use self::titles::{Pending, Titles, titles};
use super::Format;

/// The version of the entries' layout and of what they hold, the one
/// version of every section (papers, word index, titles): entries of
/// another version are rebuilt. Raise it when `Paper`, a reader, the word
/// index, the title list or a layout changes what a load makes or how it
/// is written (`tests::the_layouts_are_this_versions` sees the bytes
/// change).
pub(crate) const VERSION: u32 = 9;

/// The cache's limit when none is set: the 2.7M-paper arXiv snapshot's
/// papers and word index fit in it.
pub const DEFAULT_LIMIT: u64 = 4 << 30;

/// Files smaller than this are not cached unless told otherwise
/// ([`CacheOptions::min_size`]): they parse in milliseconds.
#[cfg(not(test))]
pub const MIN_SIZE: u64 = 1 << 20;
#[cfg(test)]
pub const MIN_SIZE: u64 = 1;

/// Temporary files being written start with this.
const TEMP_PREFIX: &str = ".tmp-";
/// A temporary file older than this was left by a process that died.
const STALE: std::time::Duration = std::time::Duration::from_secs(24 * 3600);

const PAPERS_KIND: u32 = 1;
const INDEX_KIND: u32 = 2;
const TITLES_KIND: u32 = 3;
const TOPICS_KIND: u32 = 4;
const PAPERS_EXT: &str = "papers";
const INDEX_EXT: &str = "index";
const TITLES_EXT: &str = "titles";
const TOPICS_EXT: &str = "topics";

/// Where the cache is, and how large it may grow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CacheOptions {
    /// The directory entries are kept in (created when first needed).
    pub dir: PathBuf,
    /// Bytes the entries may take in all; the least recently used go
    /// first.
    pub limit: u64,
    /// Files smaller than this are read without the cache ([`MIN_SIZE`]
    /// unless told otherwise: the integration tests cache small files so
    /// that an unoptimised binary reads them quickly).
    pub min_size: u64,
}

impl CacheOptions {
    /// A cache in `dir` of at most `limit` bytes, for files of
    /// [`MIN_SIZE`] or more.
    pub fn new(dir: PathBuf, limit: u64) -> CacheOptions {
        CacheOptions {
            dir,
            limit,
            min_size: MIN_SIZE,
        }
    }
}

/// The platform's cache directory for paperboat (`$XDG_CACHE_HOME/paperboat`
/// or `~/.cache/paperboat` on Linux), where it can be told.
pub fn default_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "paperboat").map(|d| d.cache_dir().to_path_buf())
}

/// Bytes shared with whoever holds them (the word index, mapped).
pub type Shared = Arc<dyn AsRef<[u8]> + Send + Sync>;

/// Section `.1` of a mapped entry, shared.
struct Section(Arc<Entry>, usize);

impl AsRef<[u8]> for Section {
    fn as_ref(&self) -> &[u8] {
        self.0.section(self.1)
    }
}

/// The key of the file at `path` as it is now, for an entry of `kind`
/// (the key's list name) made of it read as `format`; `None` for a file
/// too small to cache or not readable.
fn entry_key(
    cache: &CacheOptions,
    path: &Path,
    format: Option<Format>,
    kind: &str,
) -> Option<(File, key::SourceKey)> {
    let file = File::open(path).ok()?;
    if !file.metadata().ok()?.is_file() {
        return None;
    }
    let format = format.map_or("", Format::name);
    let key = key::of(&file, path, format, kind).ok()?;
    (key.len >= cache.min_size).then_some((file, key))
}

/// The stored word-index bytes for `path` as it is now, if any (key and
/// checksum checked), for an index over its `papers` papers loaded alone.
pub fn index_for(
    cache: &CacheOptions,
    path: &Path,
    format: Option<Format>,
    papers: usize,
) -> Option<Shared> {
    stored_index(cache, path, format)
        .filter(|&(n, _)| n == papers)
        .map(|(_, bytes)| bytes)
}

/// The stored word index for `path` as it is now, if any (key and
/// checksum checked): the number of papers it is over, and its bytes.
pub fn stored_index(
    cache: &CacheOptions,
    path: &Path,
    format: Option<Format>,
) -> Option<(usize, Shared)> {
    let stored = stored_index_unverified(cache, path, format)?;
    stored
        .verified(None)
        .then(|| (stored.papers, stored.bytes()))
}

/// The stored word index for `path` as it is now, if any: its key
/// checked, its bytes not yet trusted ([`StoredIndex::verified`]).
pub fn stored_index_unverified(
    cache: &CacheOptions,
    path: &Path,
    format: Option<Format>,
) -> Option<StoredIndex> {
    let (_, key) = entry_key(cache, path, format, "index")?;
    let at = cache.dir.join(format!("{}.{INDEX_EXT}", key.name));
    let entry = Entry::open(&at, INDEX_KIND)?;
    if entry.len() != 3 || entry.section(0) != key.bytes || !entry.verified_section(1) {
        return None;
    }
    Some(StoredIndex {
        papers: serial::decode(entry.section(1)).ok()?,
        entry: Arc::new(entry),
    })
}

/// A stored word index whose key matched: the number of papers it is
/// over (checked), and its bytes, which are not to be trusted before
/// [`StoredIndex::verified`] says so for the bytes a reader reads.
pub struct StoredIndex {
    pub papers: usize,
    entry: Arc<Entry>,
}

/// The word index's section of its entry.
const INDEX_SECTION: usize = 2;

impl StoredIndex {
    /// The index's bytes, shared.
    pub fn bytes(&self) -> Shared {
        Arc::new(Section(self.entry.clone(), INDEX_SECTION))
    }

    /// True when the index's bytes are as their checksums say: those of
    /// `ranges` (offsets into [`StoredIndex::bytes`]), every stripe they
    /// touch, for a reader that reads no other byte; all of them for
    /// `None` (worked out on every core).
    pub fn verified(&self, ranges: Option<&[std::ops::Range<usize>]>) -> bool {
        match ranges {
            Some(ranges) => self.entry.verified_in(INDEX_SECTION, ranges),
            None => self.entry.verified_section(INDEX_SECTION),
        }
    }
}

/// True when a word index over `path` as it is now is stored (the entry's
/// key checked, not its paper count or the index's checksums): a load of
/// the file alone will likely end with it.
pub fn has_index(cache: &CacheOptions, path: &Path, format: Option<Format>) -> bool {
    entry_key(cache, path, format, "index").is_some_and(|(_, key)| {
        let at = cache.dir.join(format!("{}.{INDEX_EXT}", key.name));
        Entry::has_key(&at, INDEX_KIND, &key.bytes)
    })
}

/// True when the finished titles of `path` as it is now, searched alone
/// as `format`, are stored (the entry's key checked, not yet its
/// checksums).
pub fn has_titles(cache: &CacheOptions, path: &Path, format: Option<Format>) -> bool {
    titles::stored_key(cache, path, format)
}

/// Appends what is written to it to the section being written.
struct SectionWrite<'a>(&'a mut Writer);

impl io::Write for SectionWrite<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.append(buf)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Stores index bytes for `path` (written by `write`) over its `papers`
/// papers loaded alone: atomically, and then least recently used entries
/// are removed to stay within the limit. A file too small to cache, or
/// one that changed while the index was written, is not stored.
pub fn store_index(
    cache: &CacheOptions,
    path: &Path,
    format: Option<Format>,
    papers: usize,
    write: &mut dyn FnMut(&mut dyn io::Write) -> io::Result<u64>,
) -> io::Result<()> {
    let Some((file, key)) = entry_key(cache, path, format, "index") else {
        return Ok(());
    };
    let mut w = Writer::create(&cache.dir, INDEX_KIND)?;
    w.section(&key.bytes)?;
    w.section(&serial::encode(&papers))?;
    write(&mut SectionWrite(&mut w))?;
    w.end_section()?;
    let format_name = format.map_or("", Format::name);
    if key::of(&file, path, format_name, "index")? != key {
        return Ok(());
    }
    w.finish(&cache.dir.join(format!("{}.{INDEX_EXT}", key.name)))?;
    evict(&cache.dir, cache.limit);
    Ok(())
}

/// The stored topics of `path` as it is now over its `papers` papers
/// loaded alone (key, count and checksums checked), as
/// [`store_topics`] was given them; counted with the word indexes.
pub fn stored_topics(
    cache: &CacheOptions,
    path: &Path,
    format: Option<Format>,
    papers: usize,
) -> Option<Vec<u8>> {
    let (_, key) = entry_key(cache, path, format, TOPICS_EXT)?;
    let at = cache.dir.join(format!("{}.{TOPICS_EXT}", key.name));
    let entry = Entry::open(&at, TOPICS_KIND)?;
    let ok = entry.len() == 3
        && entry.section(0) == key.bytes
        && entry.verify()
        && entry.section(1) == (papers as u64).to_le_bytes();
    ok.then(|| entry.section(2).to_vec())
}

/// Stores `bytes` (a list's topics) for `path` over its `papers` papers
/// loaded alone, as [`store_index`] stores the word index.
pub fn store_topics(
    cache: &CacheOptions,
    path: &Path,
    format: Option<Format>,
    papers: usize,
    bytes: &[u8],
) -> io::Result<()> {
    let Some((file, key)) = entry_key(cache, path, format, TOPICS_EXT) else {
        return Ok(());
    };
    let mut w = Writer::create(&cache.dir, TOPICS_KIND)?;
    w.section(&key.bytes)?;
    w.section(&(papers as u64).to_le_bytes())?;
    w.section(bytes)?;
    let format_name = format.map_or("", Format::name);
    if key::of(&file, path, format_name, TOPICS_EXT)? != key {
        return Ok(());
    }
    w.finish(&cache.dir.join(format!("{}.{TOPICS_EXT}", key.name)))?;
    evict(&cache.dir, cache.limit);
    Ok(())
}

/// What the cache holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    /// Bytes in all.
    pub bytes: u64,
    /// Files of papers.
    pub papers: usize,
    /// Files of word indexes.
    pub indexes: usize,
    /// Files of titles (what `search` keeps of a file).
    pub titles: usize,
}

/// The cache's files: (path, bytes, last used), entries and temporary
/// files (these only once stale, unless `all`).
fn files(dir: &Path, all: bool) -> io::Result<Vec<(PathBuf, u64, std::time::SystemTime)>> {
    let mut out = Vec::new();
    let read = match std::fs::read_dir(dir) {
        Ok(r) => r,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(out),
        Err(e) => return Err(e),
    };
    let now = std::time::SystemTime::now();
    for item in read.flatten() {
        let path = item.path();
        let Ok(meta) = item.metadata() else { continue };
        if !meta.is_file() {
            continue;
        }
        let name = item.file_name().to_string_lossy().into_owned();
        let used = meta.modified().unwrap_or(now);
        let entry = ours(&name);
        let temp = name.starts_with(TEMP_PREFIX)
            && (all || now.duration_since(used).is_ok_and(|d| d > STALE));
        if entry.is_some() || temp {
            out.push((path, meta.len(), used));
        }
    }
    Ok(out)
}

/// The kind of entry a file name is (its extension), when it is one of
/// this cache's: 32 hex digits and a known extension.
fn ours(name: &str) -> Option<&str> {
    let (stem, ext) = name.split_once('.')?;
    (stem.len() == 32
        && stem.bytes().all(|b| b.is_ascii_hexdigit())
        && [PAPERS_EXT, INDEX_EXT, TITLES_EXT, TOPICS_EXT].contains(&ext))
    .then_some(ext)
}

/// What the cache in `dir` holds.
pub fn usage(dir: &Path) -> io::Result<Usage> {
    let mut u = Usage::default();
    for (path, bytes, _) in files(dir, true)? {
        u.bytes += bytes;
        match path
            .file_name()
            .and_then(|n| ours(&n.to_string_lossy()).map(str::to_owned))
        {
            Some(e) if e == PAPERS_EXT => u.papers += 1,
            Some(e) if e == TITLES_EXT => u.titles += 1,
            Some(_) => u.indexes += 1,
            None => {}
        }
    }
    Ok(u)
}

/// Removes the cache's entries (and temporary files) from `dir`, nothing
/// else; returns the bytes freed.
pub fn clear(dir: &Path) -> io::Result<u64> {
    let mut freed = 0;
    for (path, bytes, _) in files(dir, true)? {
        match std::fs::remove_file(&path) {
            Ok(()) => freed += bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
    }
    Ok(freed)
}

/// Removes the least recently used entries until those left take at most
/// `limit` bytes (and stale temporary files). Another process removing
/// the same files meanwhile is harmless.
fn evict(dir: &Path, limit: u64) {
    let Ok(mut all) = files(dir, false) else {
        return;
    };
    all.sort_by_key(|&(_, _, used)| used);
    let mut total: u64 = all.iter().map(|(_, b, _)| b).sum();
    for (path, bytes, _) in all {
        let stale = path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with(TEMP_PREFIX));
        if total <= limit && !stale {
            break;
        }
        if std::fs::remove_file(&path).is_ok() || !path.exists() {
            total = total.saturating_sub(bytes);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write_file(dir: &Path, name: &str, bytes: usize) -> PathBuf {
        let p = dir.join(name);
        std::fs::write(&p, vec![b'x'; bytes]).unwrap();
        p
    }

    #[test]
    fn index_bytes_come_back_for_the_same_file_and_papers_only() {
        let src = tempfile::tempdir().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let cache = CacheOptions::new(dir.path().join("c"), 1 << 30);
        let file = write_file(src.path(), "a.jsonl", 5000);
        assert!(index_for(&cache, &file, None, 10).is_none());
        store_index(&cache, &file, None, 10, &mut |w| {
            w.write_all(b"index bytes")?;
            Ok(11)
        })
        .unwrap();
        let got = index_for(&cache, &file, None, 10).unwrap();
        assert_eq!((*got).as_ref(), b"index bytes");
        assert!(index_for(&cache, &file, None, 11).is_none(), "other papers");
        let jsonl = Format::named("jsonl");
        assert!(
            index_for(&cache, &file, jsonl, 10).is_none(),
            "other format"
        );
        // Rewritten: the same length, another time.
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::write(&file, vec![b'y'; 5000]).unwrap();
        assert!(index_for(&cache, &file, None, 10).is_none(), "changed");
        // Bytes still mapped stay readable after the entry is removed.
        assert!(clear(&cache.dir).unwrap() > 0);
        assert_eq!((*got).as_ref(), b"index bytes");
        assert_eq!(usage(&cache.dir).unwrap(), Usage::default());
    }

    /// An entry holding, as sections, papers encoded, a finished title
    /// list and a word index over the same papers: its bytes say whether
    /// any layout or what goes into one changed.
    fn sample_entry() -> Vec<u8> {
        use crate::corpus::{Authors, Record};
        let list: Arc<str> = "a.jsonl".into();
        let papers: Vec<_> = (0..12)
            .map(|k| {
                Record {
                    title: Some(format!("Sparse <i>attention</i> {k}, naïve")),
                    abstract_text: (k % 3 > 0).then(|| format!("We study {k} heads.")),
                    authors: ["Ada Lovelace", "Alan Turing"]
                        .into_iter()
                        .collect::<Authors>(),
                    year: (k % 2 == 0).then_some(2000 + k),
                    venue: (k % 4 == 0).then(|| "ICML".to_string()),
                    arxiv: (k % 5 > 0).then(|| format!("2401.{k:05}")),
                    ..Record::default()
                }
                .into_paper(&list, k as u32)
                .unwrap()
            })
            .collect();
        let mut enc = Encoder::new(&list);
        papers.iter().for_each(|p| enc.paper(p));
        let mut titles = crate::search::TitleList::default();
        titles.push(papers.clone());
        titles.finish();
        let index = crate::search::index_papers(&papers);
        let dir = tempfile::tempdir().unwrap();
        let mut w = Writer::create(dir.path(), PAPERS_KIND).unwrap();
        w.section(&enc.bytes).unwrap();
        titles.write_to(&mut SectionWrite(&mut w)).unwrap();
        w.end_section().unwrap();
        index.write_to(&mut SectionWrite(&mut w)).unwrap();
        w.end_section().unwrap();
        w.finish(&dir.path().join("e")).unwrap();
        std::fs::read(dir.path().join("e")).unwrap()
    }

    /// The bytes a build writes are those of its [`VERSION`]: a change to
    /// a layout, or to what is kept of a paper, a title or a word, must
    /// come with a new version, or entries written before it would be
    /// read as if they were of the new layout (or, for a change of what
    /// goes in, used stale).
    #[test]
    fn the_layouts_are_this_versions() {
        let entry = sample_entry();
        assert_eq!(entry, sample_entry(), "written the same each time");
        let hash = xxhash_rust::xxh3::xxh3_64(&entry);
        assert_eq!(
            (VERSION, format!("{hash:016x}")),
            (9, "4f5b552e1e6459ce".to_string()),
            "what the cache writes changed: raise cache::VERSION and put \
             the new version and hash here"
        );
    }

    #[test]
    fn the_least_recently_used_entries_go_first_and_only_ours() {
        let dir = tempfile::tempdir().unwrap();
        let hex = |k: u32| format!("{k:032x}");
        let old = std::time::SystemTime::now() - std::time::Duration::from_secs(100);
        for k in 0..4u32 {
            let p = write_file(dir.path(), &format!("{}.papers", hex(k)), 1000);
            // Entry 0 used last, then 3, 2, 1.
            let age = if k == 0 { 0 } else { 10 * (4 - k as u64) };
            let f = File::options().write(true).open(&p).unwrap();
            f.set_modified(old + std::time::Duration::from_secs(50 - age))
                .unwrap();
        }
        write_file(dir.path(), "notes.txt", 5000);
        evict(dir.path(), 2500);
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(
            left,
            vec![
                format!("{}.papers", hex(0)),
                format!("{}.papers", hex(3)),
                "notes.txt".to_string()
            ]
        );
        let u = usage(dir.path()).unwrap();
        assert_eq!((u.bytes, u.papers, u.indexes), (2000, 2, 0));
        clear(dir.path()).unwrap();
        assert!(dir.path().join("notes.txt").exists());
    }
}
