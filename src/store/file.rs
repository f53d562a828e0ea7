//! The state file on disk: reading it, writing it atomically, keeping a
//! copy of a file an older version wrote before it is rewritten.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::Path;
use std::time::SystemTime;

use serde_json::Value;

use super::state::State;
use super::{FILE_NAME, VERSION};

/// What reading the state file found.
pub(super) enum Read {
    Missing,
    Parsed(State),
    Newer(State),
    Broken(String),
}

/// Reads and parses the state file, once: the file is parsed as a
/// [`State`] straight away, and only when that fails a second time, as
/// plain JSON, to tell a newer version's file (kept) from a broken one.
pub(super) fn read_state(path: &Path) -> Read {
    let bytes = match fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Read::Missing,
        Err(e) => return Read::Broken(e.to_string()),
    };
    match serde_json::from_slice::<State>(&bytes) {
        // Read what we understand; never write.
        Ok(state) if state.version > VERSION => Read::Newer(state),
        Ok(state) => Read::Parsed(state),
        Err(e) => match serde_json::from_slice::<Value>(&bytes) {
            Ok(v) => match v.get("version").and_then(Value::as_u64) {
                Some(n) if n > VERSION => Read::Newer(State::default()),
                Some(_) => Read::Broken(e.to_string()),
                None => Read::Broken("no \"version\" field".to_string()),
            },
            Err(e) => Read::Broken(e.to_string()),
        },
    }
}

/// A fingerprint of the file on disk, to notice another instance's saves.
pub(super) fn fingerprint(path: &Path) -> Option<(SystemTime, u64)> {
    let m = fs::metadata(path).ok()?;
    Some((m.modified().ok()?, m.len()))
}

/// Writes `bytes` to `tmp`, syncs it, renames it over `path` and syncs the
/// directory: a crash at any moment leaves the old file or the new one.
pub(super) fn write_atomic(dir: &Path, tmp: &Path, path: &Path, bytes: &[u8]) -> io::Result<()> {
    let written = (|| {
        let mut f = File::create(tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        fs::rename(tmp, path)?;
        File::open(dir)?.sync_all()
    })();
    if written.is_err() {
        let _ = fs::remove_file(tmp);
    }
    written
}

/// The name of the copy kept of a version `version` file.
pub fn backup_name(version: u64) -> String {
    format!("{FILE_NAME}.v{version}.bak")
}

/// Keeps the state file as a version `version` wrote it, as
/// `state.json.v<version>.bak` beside it, unless that exists already
/// (a copy from an earlier migration is never replaced). A hard link where
/// the file system has them (the state file is replaced by rename, so the
/// link keeps the old bytes), else a copy written as the state is.
pub(super) fn keep_old(dir: &Path, path: &Path, version: u64, tmp: &Path) -> io::Result<()> {
    let backup = dir.join(backup_name(version));
    if fs::symlink_metadata(&backup).is_ok() {
        return Ok(());
    }
    match fs::hard_link(path, &backup) {
        Ok(()) => File::open(dir)?.sync_all(),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(()),
        Err(_) => write_atomic(dir, tmp, &backup, &fs::read(path)?),
    }
}
