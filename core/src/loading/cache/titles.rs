//! The finished titles of a file searched alone (`paperboat search`
//! keeps titles and ids, not papers): stored once the load is done, they
//! are read back whole, so that the next search of the unchanged file
//! reads no paper, replays nothing and checks no repeat. Beside them, the
//! load's report, so that what it had to say is said again.

use std::borrow::Cow;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::container::{Entry, Writer};
use super::serial;
use super::{CacheOptions, Section, SectionWrite, TITLES_EXT, TITLES_KIND, evict, key};
use crate::corpus::Format;
use crate::loading::Report;
use crate::search::TitleList;

/// The list name the key is taken under (the titles keep no list).
const KEY_LIST: &str = "titles";

/// The stored titles of a file, or where they would go.
pub(crate) enum Titles {
    /// The finished list and the load's report, read back.
    Stored(TitleList, Report),
    /// None stored for the file as it is now: [`Pending::store`] stores
    /// them once loaded.
    Missing(Pending),
}

/// A file whose titles are not stored yet, with its key as it was before
/// it was loaded: titles of a file that changed while it was read are
/// not stored.
pub(crate) struct Pending {
    file: File,
    key: key::SourceKey,
    path: PathBuf,
    format: Option<Format>,
}

/// The titles entry of the file at `path` read as `format`, its report
/// named `name`; `None` for a file too small to cache or not readable.
pub(crate) fn titles(
    cache: &CacheOptions,
    path: &Path,
    format: Option<Format>,
    name: String,
) -> Option<Titles> {
    let (file, key) = super::entry_key(cache, path, format, KEY_LIST)?;
    if let Some(stored) =
        Entry::open(&entry_path(cache, &key), TITLES_KIND).and_then(|e| read(e, &key, name))
    {
        return Some(Titles::Stored(stored.0, stored.1));
    }
    Some(Titles::Missing(Pending {
        file,
        key,
        path: path.to_path_buf(),
        format,
    }))
}

/// Where the titles entry of the file keyed `key` is.
fn entry_path(cache: &CacheOptions, key: &key::SourceKey) -> PathBuf {
    cache.dir.join(format!("{}.{TITLES_EXT}", key.name))
}

/// See [`super::has_titles`].
pub(super) fn stored_key(cache: &CacheOptions, path: &Path, format: Option<Format>) -> bool {
    super::entry_key(cache, path, format, KEY_LIST)
        .is_some_and(|(_, key)| Entry::has_key(&entry_path(cache, &key), TITLES_KIND, &key.bytes))
}

fn read(entry: Entry, key: &key::SourceKey, name: String) -> Option<(TitleList, Report)> {
    if entry.len() != 3 || entry.section(0) != key.bytes || !entry.verify() {
        return None;
    }
    let report = decode_report(entry.section(1), name)?;
    let bytes = Arc::new(Section(Arc::new(entry), 2));
    let list = TitleList::from_bytes(bytes).ok()?;
    #[cfg(test)]
    super::record::REPLAYS.set(super::record::REPLAYS.get() + 1);
    Some((list, report))
}

impl Pending {
    /// Stores `list` (finished) and `report`, when the load had no error
    /// and the file is as it was before it was loaded; then the least
    /// recently used entries go to stay within the limit. A failure to
    /// store is no failure of the load: the next search loads again.
    pub(crate) fn store(self, cache: &CacheOptions, list: &TitleList, report: &Report) {
        if report.error.is_some() || list.is_empty() {
            return;
        }
        let _ = self.write(cache, list, report);
    }

    fn write(self, cache: &CacheOptions, list: &TitleList, report: &Report) -> std::io::Result<()> {
        let mut w = Writer::create(&cache.dir, TITLES_KIND)?;
        w.section(&self.key.bytes)?;
        w.section(&encode_report(report))?;
        list.write_to(&mut SectionWrite(&mut w))?;
        w.end_section()?;
        let format = self.format.map_or("", Format::name);
        if key::of(&self.file, &self.path, format, KEY_LIST)? != self.key {
            return Ok(());
        }
        w.finish(&entry_path(cache, &self.key))?;
        evict(&cache.dir, cache.limit);
        Ok(())
    }
}

/// A report's counts and skipped lines (not its name: the input's name
/// as given each time is used; not an error: none is stored).
#[derive(Serialize, Deserialize)]
struct Stored<'a> {
    /// The format's name, or "".
    format: &'a str,
    papers: usize,
    without_abstract: usize,
    repeated: usize,
    repaired: usize,
    invalid_utf8: usize,
    skipped: Cow<'a, [(usize, String)]>,
}

fn encode_report(r: &Report) -> Vec<u8> {
    serial::encode(&Stored {
        format: r.format.unwrap_or(""),
        papers: r.papers,
        without_abstract: r.without_abstract,
        repeated: r.repeated,
        repaired: r.repaired,
        invalid_utf8: r.invalid_utf8,
        skipped: Cow::Borrowed(&r.skipped),
    })
}

fn decode_report(bytes: &[u8], name: String) -> Option<Report> {
    let r: Stored = serial::decode(bytes).ok()?;
    let format = match r.format {
        "" => None,
        f => Some(Format::named(f)?.name()),
    };
    Some(Report {
        name,
        format,
        papers: r.papers,
        without_abstract: r.without_abstract,
        repeated: r.repeated,
        skipped: r.skipped.into_owned(),
        repaired: r.repaired,
        invalid_utf8: r.invalid_utf8,
        error: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_reads_back_as_it_was_under_this_name() {
        let r = Report {
            name: "old name".to_string(),
            format: Some(Format::named("jsonl").unwrap().name()),
            papers: 300,
            without_abstract: 2,
            repeated: 1,
            skipped: vec![(7, "not JSON".to_string()), (9, "é".to_string())],
            repaired: 3,
            invalid_utf8: 4,
            error: None,
        };
        let bytes = encode_report(&r);
        let back = decode_report(&bytes, "new name".to_string()).unwrap();
        assert_eq!(
            format!("{back:?}"),
            format!(
                "{:?}",
                Report {
                    name: "new name".to_string(),
                    ..r
                }
            )
        );
        for cut in 0..bytes.len() {
            assert!(decode_report(&bytes[..cut], String::new()).is_none());
        }
    }
}
