//! The store's files on disk: reading them, moving a broken one aside,
//! writing them atomically, keeping a copy of a file an older version
//! wrote before it is rewritten.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::Path;
use std::time::SystemTime;

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::state::State;
use super::{FILE_NAME, VERSION};

/// What reading a file of the store found.
pub(super) enum Read<T> {
    Missing,
    Parsed(T),
    Newer(T),
    Broken(String),
}

/// Reads and parses a versioned file of the store once: as a `T` straight
/// away, and only when that fails a second time, as plain JSON, to tell a
/// newer version's file (kept) from a broken one.
pub(super) fn read_file<T: DeserializeOwned + Default>(
    path: &Path,
    version: impl Fn(&T) -> u64,
) -> Read<T> {
    let bytes = match fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Read::Missing,
        Err(e) => return Read::Broken(e.to_string()),
    };
    match serde_json::from_slice::<T>(&bytes) {
        // Read what we understand; never write.
        Ok(t) if version(&t) > VERSION => Read::Newer(t),
        Ok(t) => Read::Parsed(t),
        Err(e) => match serde_json::from_slice::<Value>(&bytes) {
            Ok(v) => match v.get("version").and_then(Value::as_u64) {
                Some(n) if n > VERSION => Read::Newer(T::default()),
                Some(_) => Read::Broken(e.to_string()),
                None => Read::Broken("no \"version\" field".to_string()),
            },
            Err(e) => Read::Broken(e.to_string()),
        },
    }
}

/// Reads `state.json`.
pub(super) fn read_state(path: &Path) -> Read<State> {
    read_file(path, |s: &State| s.version)
}

/// Moves file `name` of `dir`, which cannot be read (`why`), out of the way
/// to `<name>.corrupt-<time>`. The message for the user; an error when the
/// file could not be moved either, and must then never be written over.
/// `lost` says what the store starts without.
pub(super) fn set_aside(dir: &Path, name: &str, why: &str, lost: &str) -> Result<String, String> {
    let path = dir.join(name);
    let stamp = humantime::format_rfc3339_seconds(SystemTime::now())
        .to_string()
        .replace(':', "");
    let mut target = dir.join(format!("{name}.corrupt-{stamp}"));
    let mut n = 1;
    while fs::symlink_metadata(&target).is_ok() {
        target = dir.join(format!("{name}.corrupt-{stamp}-{n}"));
        n += 1;
    }
    match fs::rename(&path, &target) {
        Ok(()) => Ok(format!(
            "{} could not be read ({why}); moved it to {} and started with no {lost}",
            path.display(),
            target.display()
        )),
        Err(e) => Err(format!(
            "{} could not be read ({why}) nor moved aside ({e}); {lost} will not be saved",
            path.display()
        )),
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
