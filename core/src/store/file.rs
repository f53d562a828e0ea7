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

/// Writes `bytes` to a temporary file beside `path`'s file, syncs it,
/// renames it over that file and syncs the directory: a crash at any
/// moment leaves the old file or the new one. The caller holds the
/// state's lock.
///
/// When `path` is a symbolic link (a state file kept elsewhere, in a
/// synced folder), the file it names is replaced and the link kept. The
/// new file has the permission bits of the one it replaces (a file kept
/// private stays so), and a new one is readable by the user alone: it
/// holds notes. The temporary file's name cannot be guessed
/// (`<name>.tmp-XXXXXX`, the `tempfile` crate); those that saves killed
/// midway left are removed first (only paperboat's own names: see
/// [`remove_stale_temps`]).
pub(super) fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let target = resolved(path);
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    remove_stale_temps(&dir, &name);
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!("{name}{TEMP_MARK}"))
        .rand_bytes(6)
        .tempfile_in(&dir)?;
    if let Ok(meta) = fs::metadata(&target) {
        tmp.as_file().set_permissions(meta.permissions())?;
    }
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(&target).map_err(|e| e.error)?;
    File::open(&dir)?.sync_all()
}

/// What a temporary file's name has after the name of the file it
/// replaces.
const TEMP_MARK: &str = ".tmp-";

/// The file `path` names, its symbolic links followed (a link to a file
/// not yet made: where it points).
fn resolved(path: &Path) -> std::path::PathBuf {
    if let Ok(real) = fs::canonicalize(path) {
        return real;
    }
    let mut at = path.to_path_buf();
    for _ in 0..40 {
        match fs::read_link(&at) {
            Ok(to) => {
                at = match at.parent() {
                    Some(dir) if to.is_relative() => dir.join(to),
                    _ => to,
                }
            }
            Err(_) => break,
        }
    }
    at
}

/// Removes the temporary files earlier saves of `name` in `dir` left
/// when they were killed midway: files named `<name>.tmp-` and then
/// letters, digits, `-` or `_` (this version's names, and the earlier
/// `<name>.tmp-<pid>-<time>`). Nothing else in the directory is touched.
/// Under the state's lock no save is under way, so none is in use.
pub(super) fn remove_stale_temps(dir: &Path, name: &str) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let prefix = format!("{name}{TEMP_MARK}");
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(file_name) = file_name.to_str() else {
            continue;
        };
        let ours = file_name.strip_prefix(&prefix).is_some_and(|rest| {
            !rest.is_empty()
                && rest
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        });
        if ours && entry.file_type().is_ok_and(|t| t.is_file()) {
            let _ = fs::remove_file(entry.path());
        }
    }
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
pub(super) fn keep_old(dir: &Path, path: &Path, version: u64) -> io::Result<()> {
    let backup = dir.join(backup_name(version));
    if fs::symlink_metadata(&backup).is_ok() {
        return Ok(());
    }
    match fs::hard_link(path, &backup) {
        Ok(()) => File::open(dir)?.sync_all(),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(()),
        Err(_) => write_atomic(&backup, &fs::read(path)?),
    }
}
