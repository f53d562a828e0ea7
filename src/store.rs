//! Bookmarks and read state, kept in `state.json` so that no mark is lost.
//!
//! The file is human-readable, versioned JSON keyed by paper id:
//!
//! ```json
//! {
//!   "version": 1,
//!   "papers": {
//!     "7795f65f0c1a2b3c": {
//!       "bookmark": { "on": true, "at": "2026-12-02T13:40:00.123Z" },
//!       "read": { "on": false, "at": "2026-12-02T13:41:07.480Z" }
//!     }
//!   },
//!   "views": { "<corpus key>": { "selected": "<paper id>", "view": "unread", "at": "…" } }
//! }
//! ```
//!
//! Every mark is an entry with its own timestamp; an un-bookmark is a newer
//! entry, never a deletion. Saving takes an exclusive lock on the sidecar
//! `state.json.lock` (the state file itself is replaced by rename, so a lock
//! on it would guard the old inode), re-reads the file, merges entry by entry
//! (newest wins), writes a temporary file in the same directory, syncs it,
//! renames it over `state.json` and syncs the directory. Two readers open at
//! once therefore never lose each other's marks, and a crash at any moment
//! leaves either the old file or the new one. Fields this version does not
//! know are carried through rewrites.
//!
//! A file that does not parse is never overwritten: it is moved aside to
//! `state.json.corrupt-<time>` and the store starts empty, saying so. A file
//! from a newer version is used read-only and left byte-identical.

use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use thiserror::Error;

/// The state file version this build reads and writes.
pub const VERSION: u64 = 1;
/// The state file's name in the state directory.
pub const FILE_NAME: &str = "state.json";

/// A time in milliseconds since the Unix epoch, written as RFC 3339.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Stamp(pub u64);

impl Stamp {
    /// Now.
    pub fn now() -> Stamp {
        Stamp(
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_millis() as u64),
        )
    }
}

impl Serialize for Stamp {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let t = UNIX_EPOCH + Duration::from_millis(self.0);
        s.serialize_str(&humantime::format_rfc3339_millis(t).to_string())
    }
}

impl<'de> Deserialize<'de> for Stamp {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Stamp, D::Error> {
        let s = String::deserialize(d)?;
        let t = humantime::parse_rfc3339_weak(&s).map_err(serde::de::Error::custom)?;
        let ms = t
            .duration_since(UNIX_EPOCH)
            .map_err(serde::de::Error::custom)?
            .as_millis() as u64;
        Ok(Stamp(ms))
    }
}

/// One mark of one paper: on or off, and when that was decided.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Mark {
    /// Set or cleared.
    pub on: bool,
    /// When.
    pub at: Stamp,
}

impl Mark {
    /// The newer of two marks. Ties (the same millisecond) go to `on`, so
    /// the choice never depends on the order of the arguments.
    pub fn newest(a: Mark, b: Mark) -> Mark {
        if (a.at, a.on) >= (b.at, b.on) { a } else { b }
    }
}

fn newest_opt(a: Option<Mark>, b: Option<Mark>) -> Option<Mark> {
    match (a, b) {
        (Some(a), Some(b)) => Some(Mark::newest(a, b)),
        (a, b) => a.or(b),
    }
}

/// Which mark.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Field {
    /// The bookmark.
    Bookmark,
    /// Read or unread.
    Read,
}

/// The marks of one paper, with whatever else a newer version stored.
#[derive(Clone, PartialEq, Debug, Default, Serialize, Deserialize)]
pub struct Entry {
    /// Bookmarked?
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bookmark: Option<Mark>,
    /// Read?
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read: Option<Mark>,
    /// Fields this version does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Entry {
    /// The mark for `field`.
    pub fn get(&self, field: Field) -> Option<Mark> {
        match field {
            Field::Bookmark => self.bookmark,
            Field::Read => self.read,
        }
    }

    fn slot(&mut self, field: Field) -> &mut Option<Mark> {
        match field {
            Field::Bookmark => &mut self.bookmark,
            Field::Read => &mut self.read,
        }
    }

    /// Entry-by-entry merge: the newer mark of each field.
    pub fn merge(&self, other: &Entry) -> Entry {
        let mut extra = other.extra.clone();
        for (k, v) in &self.extra {
            extra.insert(k.clone(), v.clone());
        }
        Entry {
            bookmark: newest_opt(self.bookmark, other.bookmark),
            read: newest_opt(self.read, other.read),
            extra,
        }
    }
}

/// Where a corpus was left: the selected paper and the view.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Place {
    /// The selected paper's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selected: Option<String>,
    /// The view's name (`all`, `unread`, `bookmarked`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub view: Option<String>,
    /// When.
    pub at: Stamp,
    /// Fields this version does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The whole state file.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct State {
    /// Format version.
    pub version: u64,
    /// Marks by paper id.
    #[serde(default)]
    pub papers: BTreeMap<String, Entry>,
    /// Where each corpus was left, by corpus key.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub views: BTreeMap<String, Place>,
    /// Fields this version does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Default for State {
    fn default() -> Self {
        State {
            version: VERSION,
            papers: BTreeMap::new(),
            views: BTreeMap::new(),
            extra: Map::new(),
        }
    }
}

impl State {
    /// Merges two states entry by entry; the newest mark of each paper and
    /// field wins. Unknown fields of both are kept (`self`'s where both
    /// have one).
    pub fn merge(&self, other: &State) -> State {
        let mut papers = other.papers.clone();
        for (id, e) in &self.papers {
            let merged = match papers.get(id) {
                Some(o) => e.merge(o),
                None => e.clone(),
            };
            papers.insert(id.clone(), merged);
        }
        let mut views = other.views.clone();
        for (k, p) in &self.views {
            let keep = match views.get(k) {
                Some(o) => {
                    (p.at, p.selected.as_deref(), p.view.as_deref())
                        >= (o.at, o.selected.as_deref(), o.view.as_deref())
                }
                None => true,
            };
            if keep {
                views.insert(k.clone(), p.clone());
            }
        }
        let mut extra = other.extra.clone();
        for (k, v) in &self.extra {
            extra.insert(k.clone(), v.clone());
        }
        State {
            version: self.version.max(other.version),
            papers,
            views,
            extra,
        }
    }

    /// Gives each paper that changed id (`(old, new)`) the marks kept
    /// under its old one: the old entry's when the new id has none, else
    /// the newest of each mark; where a corpus was left on the old id, it
    /// is left on the new one. The old entries stay (a deletion would come
    /// back from the file at the next merge, and a version that still
    /// knows the old id keeps its marks). True when anything changed.
    pub fn adopt(&mut self, moves: &[(&str, &str)]) -> bool {
        let mut changed = false;
        for &(old, new) in moves {
            if old == new {
                continue;
            }
            if let Some(from) = self.papers.get(old).cloned() {
                let merged = match self.papers.get(new) {
                    Some(to) => to.merge(&from),
                    None => from,
                };
                if self.papers.get(new) != Some(&merged) {
                    self.papers.insert(new.to_string(), merged);
                    changed = true;
                }
            }
            for place in self.views.values_mut() {
                if place.selected.as_deref() == Some(old) {
                    place.selected = Some(new.to_string());
                    changed = true;
                }
            }
        }
        changed
    }

    /// Whether paper `id`'s `field` is on.
    pub fn is_on(&self, id: &str, field: Field) -> bool {
        self.papers
            .get(id)
            .and_then(|e| e.get(field))
            .is_some_and(|m| m.on)
    }
}

/// Why the store could not do what it was asked.
#[derive(Debug, Error)]
pub enum StoreError {
    /// Reading, writing or locking failed.
    #[error("{path}: {source}")]
    Io {
        /// The file involved.
        path: String,
        /// The OS error.
        #[source]
        source: io::Error,
    },
    /// The state file is from a newer version and is left alone.
    #[error("{0} was written by a newer paperboat; marks are shown but not saved")]
    ReadOnly(String),
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> StoreError + '_ {
    move |source| StoreError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// What reading the state file found.
enum Read {
    Missing,
    Parsed(State),
    Newer(State),
    Broken(String),
}

fn read_state(path: &Path) -> Read {
    let bytes = match fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Read::Missing,
        Err(e) => return Read::Broken(e.to_string()),
    };
    let value: Value = match serde_json::from_slice(&bytes) {
        Ok(v) => v,
        Err(e) => return Read::Broken(e.to_string()),
    };
    let version = value.get("version").and_then(Value::as_u64);
    match version {
        Some(v) if v > VERSION => {
            // Read what we understand; never write.
            let state = serde_json::from_value::<State>(value).unwrap_or_default();
            Read::Newer(state)
        }
        Some(_) => match serde_json::from_value::<State>(value) {
            Ok(s) => Read::Parsed(s),
            Err(e) => Read::Broken(e.to_string()),
        },
        None => Read::Broken("no \"version\" field".to_string()),
    }
}

/// A fingerprint of the file on disk, to notice another instance's saves.
fn fingerprint(path: &Path) -> Option<(SystemTime, u64)> {
    let m = fs::metadata(path).ok()?;
    Some((m.modified().ok()?, m.len()))
}

/// The user's state directory: `PAPERBOAT_STATE_DIR` is read by the CLI;
/// this is the platform default (`~/.config/paperboat` on Linux).
pub fn default_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "paperboat").map(|d| d.config_dir().to_path_buf())
}

/// Bookmarks and read state, loaded and saved.
pub struct Store {
    dir: PathBuf,
    state: State,
    read_only: Option<String>,
    dirty: bool,
    last_stamp: Stamp,
    seen: Option<(SystemTime, u64)>,
}

impl Store {
    /// Opens the store in `dir`. Never fails: a broken file is moved aside
    /// and the store starts empty. Returns messages for the user.
    pub fn open(dir: &Path) -> (Store, Vec<String>) {
        let mut store = Store {
            dir: dir.to_path_buf(),
            state: State::default(),
            read_only: None,
            dirty: false,
            last_stamp: Stamp(0),
            seen: None,
        };
        let mut messages = Vec::new();
        let path = store.path();
        match read_state(&path) {
            Read::Missing => {}
            Read::Parsed(s) => store.state = s,
            Read::Newer(s) => {
                store.state = s;
                let msg = StoreError::ReadOnly(path.display().to_string()).to_string();
                store.read_only = Some(msg.clone());
                messages.push(msg);
            }
            Read::Broken(why) => messages.push(store.set_aside(&why)),
        }
        store.seen = fingerprint(&path);
        (store, messages)
    }

    /// Moves a state file that cannot be read out of the way.
    fn set_aside(&mut self, why: &str) -> String {
        let path = self.path();
        let stamp = humantime::format_rfc3339_seconds(SystemTime::now())
            .to_string()
            .replace(':', "");
        let mut target = self.dir.join(format!("{FILE_NAME}.corrupt-{stamp}"));
        let mut n = 1;
        while fs::symlink_metadata(&target).is_ok() {
            target = self.dir.join(format!("{FILE_NAME}.corrupt-{stamp}-{n}"));
            n += 1;
        }
        match fs::rename(&path, &target) {
            Ok(()) => format!(
                "{} could not be read ({why}); moved it to {} and started with no marks",
                path.display(),
                target.display()
            ),
            Err(e) => {
                // Neither readable nor movable: never write over it.
                self.read_only = Some(format!(
                    "{} could not be read ({why}) nor moved aside ({e}); marks will not be saved",
                    path.display()
                ));
                self.read_only.clone().unwrap_or_default()
            }
        }
    }

    /// The state file's path.
    pub fn path(&self) -> PathBuf {
        self.dir.join(FILE_NAME)
    }

    fn lock_path(&self) -> PathBuf {
        self.dir.join(format!("{FILE_NAME}.lock"))
    }

    /// The merged state as this store knows it.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// Why saving is off, when it is.
    pub fn read_only(&self) -> Option<&str> {
        self.read_only.as_deref()
    }

    /// True when a change has not reached the file yet.
    pub fn dirty(&self) -> bool {
        self.dirty
    }

    /// Whether paper `id`'s `field` is on.
    pub fn is_on(&self, id: &str, field: Field) -> bool {
        self.state.is_on(id, field)
    }

    /// A timestamp later than any this store handed out, so two changes in
    /// one millisecond still order.
    fn stamp(&mut self) -> Stamp {
        let now = Stamp::now().max(Stamp(self.last_stamp.0 + 1));
        self.last_stamp = now;
        now
    }

    /// Sets marks and saves them at once. In memory the change holds even
    /// when the save fails (the error says why; [`Store::retry`] tries
    /// again); a read-only store refuses the change.
    pub fn set(&mut self, changes: &[(&str, Field, bool)]) -> Result<(), StoreError> {
        if let Some(why) = &self.read_only {
            return Err(StoreError::ReadOnly(why.clone()));
        }
        for &(id, field, on) in changes {
            let at = self.stamp();
            let entry = self.state.papers.entry(id.to_string()).or_default();
            *entry.slot(field) = Some(Mark { on, at });
        }
        self.dirty = true;
        self.save()
    }

    /// Marks follow papers whose id changed (see [`State::adopt`]): `moves`
    /// is (old id, new id) for each. Saved at once when anything changed,
    /// as [`Store::set`] is; a read-only store adopts them in memory only.
    pub fn adopt(&mut self, moves: &[(&str, &str)]) -> Result<(), StoreError> {
        if !self.state.adopt(moves) || self.read_only.is_some() {
            return Ok(());
        }
        self.dirty = true;
        self.save()
    }

    /// Remembers where a corpus was left (saved with the next save).
    pub fn set_place(&mut self, key: &str, selected: Option<&str>, view: &str) {
        let same =
            self.state.views.get(key).is_some_and(|p| {
                p.selected.as_deref() == selected && p.view.as_deref() == Some(view)
            });
        if same || self.read_only.is_some() {
            return;
        }
        let at = self.stamp();
        let extra = self
            .state
            .views
            .get(key)
            .map(|p| p.extra.clone())
            .unwrap_or_default();
        self.state.views.insert(
            key.to_string(),
            Place {
                selected: selected.map(str::to_string),
                view: Some(view.to_string()),
                at,
                extra,
            },
        );
        self.dirty = true;
    }

    /// Where a corpus was left.
    pub fn place(&self, key: &str) -> Option<&Place> {
        self.state.views.get(key)
    }

    /// Saves when something is unsaved. Used to retry after a failure.
    pub fn retry(&mut self) -> Result<(), StoreError> {
        if self.dirty && self.read_only.is_none() {
            self.save()
        } else {
            Ok(())
        }
    }

    /// Locks, re-reads, merges, writes atomically, unlocks.
    pub fn save(&mut self) -> Result<(), StoreError> {
        if let Some(why) = &self.read_only {
            return Err(StoreError::ReadOnly(why.clone()));
        }
        fs::create_dir_all(&self.dir).map_err(io_err(&self.dir))?;
        let lock_path = self.lock_path();
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(io_err(&lock_path))?;
        lock.lock().map_err(io_err(&lock_path))?;
        let result = self.save_locked();
        let _ = lock.unlock();
        result
    }

    fn save_locked(&mut self) -> Result<(), StoreError> {
        let path = self.path();
        match read_state(&path) {
            Read::Missing => {}
            Read::Parsed(disk) => self.state = self.state.merge(&disk),
            Read::Newer(_) => {
                let msg = StoreError::ReadOnly(path.display().to_string()).to_string();
                self.read_only = Some(msg.clone());
                return Err(StoreError::ReadOnly(msg));
            }
            Read::Broken(why) => {
                let msg = self.set_aside(&why);
                if self.read_only.is_some() {
                    return Err(StoreError::ReadOnly(msg));
                }
            }
        }
        self.state.version = VERSION;
        let mut json = serde_json::to_vec_pretty(&self.state).map_err(|e| StoreError::Io {
            path: path.display().to_string(),
            source: io::Error::other(e),
        })?;
        json.push(b'\n');
        let tmp = self.dir.join(format!(
            "{FILE_NAME}.tmp-{}-{}",
            std::process::id(),
            self.last_stamp.0
        ));
        let written = (|| {
            let mut f = File::create(&tmp)?;
            f.write_all(&json)?;
            f.sync_all()?;
            drop(f);
            fs::rename(&tmp, &path)?;
            File::open(&self.dir)?.sync_all()
        })();
        if let Err(e) = written {
            let _ = fs::remove_file(&tmp);
            return Err(StoreError::Io {
                path: path.display().to_string(),
                source: e,
            });
        }
        self.dirty = false;
        self.seen = fingerprint(&path);
        Ok(())
    }

    /// Merges in what another instance saved since we last looked. True
    /// when the file had changed.
    pub fn refresh(&mut self) -> bool {
        let path = self.path();
        let now = fingerprint(&path);
        if now == self.seen {
            return false;
        }
        self.seen = now;
        match read_state(&path) {
            Read::Parsed(disk) => {
                self.state = self.state.merge(&disk);
                true
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn mark(on: bool, at: u64) -> Mark {
        Mark { on, at: Stamp(at) }
    }

    #[test]
    fn newer_unbookmark_wins_over_older_bookmark() {
        let a = State {
            papers: [(
                "p".to_string(),
                Entry {
                    bookmark: Some(mark(true, 10)),
                    ..Entry::default()
                },
            )]
            .into(),
            ..State::default()
        };
        let b = State {
            papers: [(
                "p".to_string(),
                Entry {
                    bookmark: Some(mark(false, 20)),
                    ..Entry::default()
                },
            )]
            .into(),
            ..State::default()
        };
        assert!(!a.merge(&b).is_on("p", Field::Bookmark));
        assert!(!b.merge(&a).is_on("p", Field::Bookmark));
    }

    #[test]
    fn fields_merge_separately() {
        let a = State {
            papers: [(
                "p".to_string(),
                Entry {
                    bookmark: Some(mark(true, 10)),
                    ..Entry::default()
                },
            )]
            .into(),
            ..State::default()
        };
        let b = State {
            papers: [(
                "p".to_string(),
                Entry {
                    read: Some(mark(true, 5)),
                    ..Entry::default()
                },
            )]
            .into(),
            ..State::default()
        };
        let m = a.merge(&b);
        assert!(m.is_on("p", Field::Bookmark) && m.is_on("p", Field::Read));
    }

    #[test]
    fn json_round_trip_keeps_unknown_fields() {
        let text = r#"{"version":1,"future":{"x":1},"papers":{"p":{"bookmark":{"on":true,"at":"2026-12-02T13:40:00.123Z"},"colour":"red"}},"views":{"k":{"at":"2026-12-02T13:40:00Z","view":"all","zoom":2}}}"#;
        let s: State = serde_json::from_str(text).unwrap();
        assert_eq!(s.papers["p"].bookmark.unwrap().at, Stamp(1_796_218_800_123));
        let back: Value = serde_json::to_value(&s).unwrap();
        assert_eq!(back["future"]["x"], 1);
        assert_eq!(back["papers"]["p"]["colour"], "red");
        assert_eq!(back["views"]["k"]["zoom"], 2);
        assert_eq!(
            back["papers"]["p"]["bookmark"]["at"],
            "2026-12-02T13:40:00.123Z"
        );
    }

    #[test]
    fn save_and_reopen() {
        let dir = tempfile::tempdir().unwrap();
        let (mut s, msgs) = Store::open(dir.path());
        assert!(msgs.is_empty());
        s.set(&[("a", Field::Bookmark, true), ("b", Field::Read, true)])
            .unwrap();
        let (s2, _) = Store::open(dir.path());
        assert!(s2.is_on("a", Field::Bookmark));
        assert!(s2.is_on("b", Field::Read));
        assert!(!s2.is_on("a", Field::Read));
        let text = fs::read_to_string(dir.path().join(FILE_NAME)).unwrap();
        assert!(text.contains("\"version\": 1"), "{text}");
    }

    #[test]
    fn marks_follow_a_changed_id() {
        let entry = |bookmark: Option<Mark>, read: Option<Mark>| Entry {
            bookmark,
            read,
            ..Entry::default()
        };
        let mut s = State {
            papers: [
                ("old1".to_string(), entry(Some(mark(true, 10)), None)),
                (
                    "old2".to_string(),
                    entry(Some(mark(true, 10)), Some(mark(true, 30))),
                ),
                (
                    "new2".to_string(),
                    entry(Some(mark(false, 20)), Some(mark(false, 5))),
                ),
            ]
            .into(),
            ..State::default()
        };
        s.views.insert(
            "k".to_string(),
            Place {
                selected: Some("old1".to_string()),
                view: Some("all".to_string()),
                at: Stamp(1),
                extra: Map::new(),
            },
        );
        assert!(s.adopt(&[("old1", "new1"), ("old2", "new2"), ("none", "new3")]));
        // No entry under the new id: the old one's.
        assert_eq!(s.papers["new1"], s.papers["old1"]);
        assert!(s.is_on("new1", Field::Bookmark));
        // Both: the newest of each mark.
        assert!(!s.is_on("new2", Field::Bookmark));
        assert!(s.is_on("new2", Field::Read));
        assert!(!s.papers.contains_key("new3"));
        assert_eq!(s.views["k"].selected.as_deref(), Some("new1"));
        // Once adopted, nothing more changes.
        let before = s.clone();
        assert!(!s.adopt(&[("old1", "new1"), ("old2", "new2")]));
        assert_eq!(s, before);
        assert!(!s.adopt(&[("new1", "new1")]));
    }

    #[test]
    fn adopted_marks_are_saved() {
        let dir = tempfile::tempdir().unwrap();
        let (mut s, _) = Store::open(dir.path());
        s.set(&[("0123456789abcdef", Field::Bookmark, true)])
            .unwrap();
        s.adopt(&[("0123456789abcdef", "arxiv:2106.09685")])
            .unwrap();
        assert!(!s.dirty());
        let (again, _) = Store::open(dir.path());
        assert!(again.is_on("arxiv:2106.09685", Field::Bookmark));
        assert!(!again.is_on("arxiv:2106.09685", Field::Read));
    }

    #[test]
    fn two_stores_on_one_file_lose_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let (mut a, _) = Store::open(dir.path());
        let (mut b, _) = Store::open(dir.path());
        a.set(&[("x", Field::Bookmark, true)]).unwrap();
        b.set(&[("y", Field::Bookmark, true)]).unwrap();
        a.set(&[("z", Field::Read, true)]).unwrap();
        let (c, _) = Store::open(dir.path());
        for id in ["x", "y"] {
            assert!(c.is_on(id, Field::Bookmark), "{id}");
        }
        assert!(c.is_on("z", Field::Read));
        assert!(b.refresh());
        assert!(
            b.is_on("z", Field::Read),
            "a running store picks up the other's marks"
        );
    }

    #[test]
    fn corrupt_files_are_moved_aside_never_overwritten() {
        for bad in [
            &b""[..],
            b"{\"version\": 1, \"papers\": ",
            b"\x00\xff garbage",
            b"[1,2,3]",
        ] {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join(FILE_NAME);
            fs::write(&path, bad).unwrap();
            let (mut s, msgs) = Store::open(dir.path());
            assert_eq!(msgs.len(), 1, "{msgs:?}");
            assert!(msgs[0].contains("corrupt-"), "{msgs:?}");
            let aside: Vec<_> = fs::read_dir(dir.path())
                .unwrap()
                .filter_map(|e| e.ok())
                .filter(|e| e.file_name().to_string_lossy().contains("corrupt-"))
                .collect();
            assert_eq!(aside.len(), 1);
            assert_eq!(
                fs::read(aside[0].path()).unwrap(),
                bad,
                "original bytes kept"
            );
            s.set(&[("a", Field::Bookmark, true)]).unwrap();
            assert!(Store::open(dir.path()).0.is_on("a", Field::Bookmark));
        }
    }

    #[test]
    fn a_second_corrupt_file_does_not_replace_the_first() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE_NAME);
        fs::write(&path, "one").unwrap();
        let _ = Store::open(dir.path());
        fs::write(&path, "two").unwrap();
        let _ = Store::open(dir.path());
        let mut kept: Vec<Vec<u8>> = fs::read_dir(dir.path())
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().contains("corrupt-"))
            .map(|e| fs::read(e.path()).unwrap())
            .collect();
        kept.sort();
        assert_eq!(kept, vec![b"one".to_vec(), b"two".to_vec()]);
    }

    #[test]
    fn a_newer_version_is_read_only_and_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE_NAME);
        let text = r#"{"version": 2, "papers": {"a": {"bookmark": {"on": true, "at": "2026-01-01T00:00:00Z"}}}, "new": true}"#;
        fs::write(&path, text).unwrap();
        let (mut s, msgs) = Store::open(dir.path());
        assert!(msgs[0].contains("newer"), "{msgs:?}");
        assert!(s.is_on("a", Field::Bookmark), "marks are still shown");
        assert!(s.set(&[("b", Field::Bookmark, true)]).is_err());
        assert!(s.save().is_err());
        assert_eq!(fs::read_to_string(&path).unwrap(), text);
    }

    #[test]
    fn a_failed_save_keeps_the_change_and_can_be_retried() {
        let dir = tempfile::tempdir().unwrap();
        let parent = dir.path().join("sub");
        let state_dir = parent.join("paperboat");
        let (mut s, msgs) = Store::open(&state_dir);
        assert!(msgs.is_empty());
        // Something takes the directory's place: saving cannot work.
        fs::write(&parent, "a file in the way").unwrap();
        let err = s.set(&[("a", Field::Bookmark, true)]).unwrap_err();
        assert!(err.to_string().contains("sub"), "{err}");
        assert!(s.is_on("a", Field::Bookmark), "the change holds in memory");
        assert!(s.dirty());
        fs::remove_file(&parent).unwrap();
        s.retry().unwrap();
        assert!(!s.dirty());
        assert!(Store::open(&state_dir).0.is_on("a", Field::Bookmark));
    }

    fn arb_mark() -> impl Strategy<Value = Option<Mark>> {
        proptest::option::of((any::<bool>(), 0u64..50).prop_map(|(on, at)| mark(on, at)))
    }

    fn arb_state() -> impl Strategy<Value = State> {
        proptest::collection::btree_map("[a-d]", (arb_mark(), arb_mark()), 0..4).prop_map(|m| {
            State {
                papers: m
                    .into_iter()
                    .map(|(k, (b, r))| {
                        (
                            k,
                            Entry {
                                bookmark: b,
                                read: r,
                                extra: Map::new(),
                            },
                        )
                    })
                    .collect(),
                ..State::default()
            }
        })
    }

    proptest! {
        #[test]
        fn merge_is_commutative(a in arb_state(), b in arb_state()) {
            prop_assert_eq!(a.merge(&b).papers, b.merge(&a).papers);
        }

        #[test]
        fn merge_is_associative(a in arb_state(), b in arb_state(), c in arb_state()) {
            prop_assert_eq!(a.merge(&b).merge(&c).papers, a.merge(&b.merge(&c)).papers);
        }

        #[test]
        fn merge_is_idempotent(a in arb_state(), b in arb_state()) {
            prop_assert_eq!(&a.merge(&a), &a);
            let ab = a.merge(&b);
            prop_assert_eq!(ab.merge(&b).papers, ab.papers);
        }

        #[test]
        fn serialise_parse_round_trips(a in arb_state()) {
            let text = serde_json::to_string(&a).unwrap();
            let back: State = serde_json::from_str(&text).unwrap();
            prop_assert_eq!(back, a);
        }
    }
}
