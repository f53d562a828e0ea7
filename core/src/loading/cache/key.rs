//! What an entry is for: a source file as it is now. Its canonical path,
//! length, modification time (nanoseconds), inode, an xxh3 hash of its
//! first and last 64 KiB, the format it is read as, the name its papers'
//! list gets, and the cache version. Any change to the file changes its
//! time or length (and a file replaced by another, its inode), and a
//! tool that puts the time back would still have to keep both ends the
//! same: the entry is then of another file and is not used. (The
//! cache's version is in every entry's header.)

use std::fs::File;
use std::io;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::serial;

/// Bytes hashed at each end of the file.
const END: u64 = 64 << 10;

/// A source file's key, and the name its entries are stored under.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct SourceKey {
    /// Everything above, as bytes (an entry's first section).
    pub(super) bytes: Vec<u8>,
    /// The entries' file name, without extension: a hash of the path and
    /// the format (so that a changed file replaces its entry).
    pub(super) name: String,
    /// The file's length.
    pub(super) len: u64,
}

/// What a key holds, as an entry's first section holds it.
#[derive(Serialize, Deserialize, PartialEq, Eq, Debug)]
struct Parts<'a> {
    path: &'a str,
    len: u64,
    /// The modification time, in nanoseconds since the epoch.
    modified: u128,
    dev: u64,
    ino: u64,
    head: u64,
    tail: u64,
    format: &'a str,
    list: &'a str,
}

impl Parts<'_> {
    fn of(bytes: &[u8]) -> Option<Parts<'_>> {
        serial::decode(bytes).ok()
    }
}

/// The length the file had when the key `old` was taken, when `file`
/// (whose key is `now`) is that file with lines appended since: the same
/// path, inode, format and list; longer; the same first 64 KiB, the same
/// 64 KiB where it used to end, and that end a line end.
pub(super) fn grown_from(old: &[u8], now: &SourceKey, file: &File) -> Option<u64> {
    let (old, new) = (Parts::of(old)?, Parts::of(&now.bytes)?);
    let same = old.path == new.path
        && (old.dev, old.ino) == (new.dev, new.ino)
        && old.format == new.format
        && old.list == new.list
        && old.len >= END
        && new.len > old.len
        && old.head == new.head;
    if !same {
        return None;
    }
    let tail = read_at(file, old.len - END, END).ok()?;
    (tail.last() == Some(&b'\n') && xxhash_rust::xxh3::xxh3_64(&tail) == old.tail)
        .then_some(old.len)
}

/// The key of `file`, opened from `path`, read as `format` into a list
/// named `list`.
pub(crate) fn of(file: &File, path: &Path, format: &str, list: &str) -> io::Result<SourceKey> {
    let canonical = std::fs::canonicalize(path)?;
    let canonical = canonical.to_string_lossy();
    let meta = file.metadata()?;
    let len = meta.len();
    let nanos = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    let (dev, ino) = identity(&meta);
    let head = read_at(file, 0, len.min(END))?;
    let tail = read_at(file, len.saturating_sub(END), len.min(END))?;
    let bytes = serial::encode(&Parts {
        path: &canonical,
        len,
        modified: nanos,
        dev,
        ino,
        head: xxhash_rust::xxh3::xxh3_64(&head),
        tail: xxhash_rust::xxh3::xxh3_64(&tail),
        format,
        list,
    });
    let mut named = canonical.as_bytes().to_vec();
    named.push(0);
    named.extend_from_slice(format.as_bytes());
    let name = format!("{:032x}", xxhash_rust::xxh3::xxh3_128(&named));
    Ok(SourceKey { bytes, name, len })
}

#[cfg(unix)]
fn identity(meta: &std::fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (meta.dev(), meta.ino())
}

#[cfg(not(unix))]
fn identity(_: &std::fs::Metadata) -> (u64, u64) {
    (0, 0)
}

fn read_at(file: &File, at: u64, len: u64) -> io::Result<Vec<u8>> {
    let mut buf = vec![0; len as usize];
    #[cfg(unix)]
    std::os::unix::fs::FileExt::read_exact_at(file, &mut buf, at)?;
    #[cfg(windows)]
    {
        use std::os::windows::fs::FileExt;
        let mut done = 0;
        while done < buf.len() {
            match file.seek_read(&mut buf[done..], at + done as u64)? {
                0 => return Err(io::ErrorKind::UnexpectedEof.into()),
                n => done += n,
            }
        }
    }
    Ok(buf)
}
