//! What an entry is for: a source file as it is now. Its canonical path,
//! length, modification time (nanoseconds), inode, an xxh3 hash of its
//! first and last 64 KiB, the format it is read as, the name its papers'
//! list gets, and the cache version. Any change to the file changes its
//! time or length (and a file replaced by another, its inode), and a
//! tool that puts the time back would still have to keep both ends the
//! same: the entry is then of another file and is not used.

use std::fs::File;
use std::io;
use std::path::Path;

use super::papers::{put_str, put_uint};

/// Bytes hashed at each end of the file.
const END: u64 = 64 << 10;

/// A source file's key, and the name its entries are stored under.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct Key {
    /// Everything above, as bytes (an entry's first section).
    pub(super) bytes: Vec<u8>,
    /// The entries' file name, without extension: a hash of the path and
    /// the format (so that a changed file replaces its entry).
    pub(super) name: String,
    /// The file's length.
    pub(super) len: u64,
}

/// The key of `file`, opened from `path`, read as `format` into a list
/// named `list`.
pub(crate) fn of(file: &File, path: &Path, format: &str, list: &str) -> io::Result<Key> {
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
    let mut bytes = Vec::new();
    put_uint(&mut bytes, u64::from(super::VERSION));
    put_str(&mut bytes, &canonical);
    put_uint(&mut bytes, len);
    bytes.extend_from_slice(&nanos.to_le_bytes());
    put_uint(&mut bytes, dev);
    put_uint(&mut bytes, ino);
    put_uint(&mut bytes, xxhash_rust::xxh3::xxh3_64(&head));
    put_uint(&mut bytes, xxhash_rust::xxh3::xxh3_64(&tail));
    put_str(&mut bytes, format);
    put_str(&mut bytes, list);
    let mut named = canonical.as_bytes().to_vec();
    named.push(0);
    named.extend_from_slice(format.as_bytes());
    let name = format!("{:032x}", xxhash_rust::xxh3::xxh3_128(&named));
    Ok(Key { bytes, name, len })
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
