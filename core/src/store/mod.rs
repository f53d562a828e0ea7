//! What the reader keeps of the user's work, in `state.json` (and
//! `first_seen.json`) so that none of it is lost: bookmarks and read
//! marks, tags, notes, when each paper was first seen, saved searches, and
//! where each corpus was left.
//!
//! The file is human-readable, versioned JSON keyed by paper id (its
//! format, the versions and the merge rules are in `docs/STATE.md`):
//!
//! ```json
//! {
//!   "version": 2,
//!   "papers": {
//!     "arxiv:2106.09685": {
//!       "bookmark": { "on": true, "at": "2026-12-02T13:40:00.123Z" },
//!       "tags": { "LoRA": { "on": true, "at": "2026-12-02T13:41:00.000Z" } },
//!       "note": { "text": "Read §4 again.", "at": "2026-12-02T13:42:00.000Z" }
//!     }
//!   },
//!   "searches": { "adapters": { "query": "lora adapter", "at": "…" } }
//! }
//! ```
//!
//! When each paper was first seen is kept apart, in `first_seen.json`, and
//! read on first use: it lists every paper ever loaded (see seen.rs).
//!
//! Everything carries its own timestamp; a removal is a newer entry, never
//! a deletion. Saving takes an exclusive lock on the sidecar
//! `state.json.lock` (the state file itself is replaced by rename, so a lock
//! on it would guard the old inode), re-reads the file, merges item by item
//! (newest wins; a note that would be lost is kept in `conflicts`), writes a
//! temporary file in the same directory, syncs it, renames it over
//! `state.json` and syncs the directory. Two readers open at once therefore
//! never lose each other's work, and a crash at any moment leaves either the
//! old file or the new one. Fields this version does not know are carried
//! through rewrites.
//!
//! A file that does not parse is never overwritten: it is moved aside to
//! `state.json.corrupt-<time>` and the store starts empty, saying so. A file
//! from a newer version is used read-only and left byte-identical. A file
//! from an older version is read whole and, before the first save rewrites
//! it, kept as `state.json.v<version>.bak`.
//!
//! Undo lives with the caller: [`Store::apply`] returns, for the edits it
//! applied, the edits that undo them.

mod edit;
mod file;
mod named;
mod notes;
mod seen;
mod stamp;
mod state;

use std::fs::{self, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::SystemTime;

use thiserror::Error;

pub use edit::Edit;
pub use file::backup_name;
use file::{Read, fingerprint, keep_old, read_state, write_atomic};
pub use named::{NAME_MAX_CHARS, QUERY_MAX_BYTES, Search, Searches, Tag, Tags, fold};
pub use notes::{Conflict, Conflicts, NOTE_MAX_BYTES, Note, check_note};
use seen::SeenFile;
pub use seen::{SEEN_FILE_NAME, Seen};
pub use stamp::{Mark, Stamp};
pub use state::{Flag, LeftOff, PaperMarks, State};

/// The state file version this build reads and writes.
pub const VERSION: u64 = 2;
/// The state file's name in the state directory.
pub const FILE_NAME: &str = "state.json";

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
    /// A tag, note or saved search breaks a limit; nothing was changed.
    #[error("{0}")]
    Invalid(String),
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> StoreError + '_ {
    move |source| StoreError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// The user's state directory: `PAPERBOAT_STATE_DIR` is read by the CLI;
/// this is the platform default (`~/.config/paperboat` on Linux).
pub fn default_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "paperboat").map(|d| d.config_dir().to_path_buf())
}

/// The state, loaded and saved.
pub struct Store {
    dir: PathBuf,
    state: State,
    read_only: Option<String>,
    dirty: bool,
    last_stamp: Stamp,
    seen: Option<(SystemTime, u64)>,
    /// Read on first use (see seen.rs).
    first_seen: OnceLock<SeenFile>,
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
            first_seen: OnceLock::new(),
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
        match file::set_aside(&self.dir, FILE_NAME, why, "marks") {
            Ok(msg) => msg,
            Err(msg) => {
                self.read_only = Some(msg.clone());
                msg
            }
        }
    }

    /// Keeps a note that could not be saved (longer than a note may be,
    /// not UTF-8, or the save failed) in a file of its own in the state
    /// directory, as the editor left it, readable by the user alone:
    /// `note-not-saved-<id>-<time>.md` (the id's characters other than
    /// letters, digits, `.` and `-` as `_`). Returns its path.
    pub fn keep_unsaved_note(&self, id: &str, bytes: &[u8]) -> io::Result<PathBuf> {
        use std::io::Write;
        fs::create_dir_all(&self.dir)?;
        let id: String = id
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .take(80)
            .collect();
        let time = humantime::format_rfc3339_seconds(SystemTime::now())
            .to_string()
            .replace(':', "");
        let mut options = fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        for n in 0..1000 {
            let name = match n {
                0 => format!("note-not-saved-{id}-{time}.md"),
                n => format!("note-not-saved-{id}-{time}-{n}.md"),
            };
            let path = self.dir.join(name);
            match options.open(&path) {
                Ok(mut f) => {
                    f.write_all(bytes)?;
                    f.sync_all()?;
                    return Ok(path);
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
        Err(io::Error::other("no free name for the note's file"))
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

    /// True when a change has not reached the files yet.
    pub fn dirty(&self) -> bool {
        self.dirty || self.seen_dirty()
    }

    fn seen_dirty(&self) -> bool {
        self.first_seen.get().is_some_and(|f| f.dirty)
    }

    /// What the store found after it opened that the user should hear of
    /// (a first-seen file moved aside, or from a newer version), once.
    pub fn notices(&mut self) -> Vec<String> {
        self.first_seen
            .get_mut()
            .and_then(SeenFile::take_notice)
            .into_iter()
            .collect()
    }

    /// The first-seen times, read now if they were not yet.
    fn seen_file(&self) -> &SeenFile {
        self.first_seen
            .get_or_init(|| SeenFile::load(&self.dir, self.read_only.is_some()))
    }

    /// Runs `f` on the first-seen times, read first if they were not yet.
    fn with_seen<R>(&mut self, f: impl FnOnce(&mut SeenFile) -> R) -> R {
        let mut file = self
            .first_seen
            .take()
            .unwrap_or_else(|| SeenFile::load(&self.dir, self.read_only.is_some()));
        let r = f(&mut file);
        self.first_seen = OnceLock::from(file);
        r
    }

    /// Reads the first-seen times from the file again on their next use
    /// (another store recorded some), unless some are not saved yet.
    pub fn forget_first_seen(&mut self) {
        if !self.seen_dirty() {
            self.first_seen = OnceLock::new();
        }
    }

    /// Whether paper `id`'s `field` is on.
    pub fn is_on(&self, id: &str, field: Flag) -> bool {
        self.state.is_on(id, field)
    }

    /// A timestamp later than any this store handed out, so two changes in
    /// one millisecond still order.
    fn stamp(&mut self) -> Stamp {
        let now = Stamp::now().max(Stamp(self.last_stamp.0.saturating_add(1)));
        self.last_stamp = now;
        now
    }

    /// Sets marks and saves them at once. In memory the change holds even
    /// when the save fails (the error says why; [`Store::retry`] tries
    /// again); a read-only store refuses the change.
    pub fn set(&mut self, changes: &[(&str, Flag, bool)]) -> Result<(), StoreError> {
        if let Some(why) = &self.read_only {
            return Err(StoreError::ReadOnly(why.clone()));
        }
        for &(id, field, on) in changes {
            let now = self.stamp();
            let slot = self
                .state
                .papers
                .entry(id.to_string())
                .or_default()
                .slot(field);
            // Newer than the mark it replaces, even one stamped ahead of
            // this clock, so that it wins the merge.
            let at = edit::past(now, slot.map(|m| m.at));
            *slot = Some(Mark { on, at });
        }
        self.dirty = true;
        self.save()
    }

    /// Marks, tags and notes follow papers whose id changed (see
    /// [`State::adopt`]), and so does the first-seen time: `moves` is (old
    /// id, new id) for each. Saved at once when anything changed, as
    /// [`Store::set`] is; a read-only store adopts them in memory only.
    pub fn adopt(&mut self, moves: &[(&str, &str)]) -> Result<(), StoreError> {
        let state = self.state.adopt(moves);
        // The first-seen file is read for this only when there is one.
        let has_seen = self.first_seen.get().is_some() || self.dir.join(SEEN_FILE_NAME).exists();
        if !moves.is_empty() && has_seen {
            self.with_seen(|f| f.adopt(moves));
        }
        if self.read_only.is_some() {
            return Ok(());
        }
        self.dirty |= state;
        let saved = if state { self.save() } else { Ok(()) };
        if self.seen_dirty() {
            saved.and(self.save_seen())
        } else {
            saved
        }
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
            LeftOff {
                selected: selected.map(str::to_string),
                view: Some(view.to_string()),
                at,
                extra,
            },
        );
        self.dirty = true;
    }

    /// Where a corpus was left.
    pub fn place(&self, key: &str) -> Option<&LeftOff> {
        self.state.views.get(key)
    }

    /// Saves when something is unsaved. Used to retry after a failure.
    pub fn retry(&mut self) -> Result<(), StoreError> {
        if self.read_only.is_some() {
            return Ok(());
        }
        let state = if self.dirty { self.save() } else { Ok(()) };
        if self.seen_dirty() {
            state.and(self.save_seen())
        } else {
            state
        }
    }

    /// Locks, re-reads, merges, writes atomically, unlocks.
    pub fn save(&mut self) -> Result<(), StoreError> {
        self.locked(Store::save_locked)
    }

    /// [`Store::save`] for the first-seen file.
    fn save_seen(&mut self) -> Result<(), StoreError> {
        self.locked(|s| {
            let dir = s.dir.clone();
            s.with_seen(|f| f.save_locked(&dir))
        })
    }

    /// Runs `f` holding the state's lock (a sidecar file's: see the module
    /// documentation).
    fn locked(
        &mut self,
        f: impl FnOnce(&mut Store) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
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
        let result = f(self);
        let _ = lock.unlock();
        result
    }

    fn save_locked(&mut self) -> Result<(), StoreError> {
        let path = self.path();
        match read_state(&path) {
            Read::Missing => {}
            Read::Parsed(disk) => {
                if disk.version < VERSION {
                    // Migration: the old file stays beside the new one.
                    let backup = self.dir.join(backup_name(disk.version));
                    keep_old(&self.dir, &path, disk.version).map_err(io_err(&backup))?;
                }
                self.state.absorb(disk);
            }
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
        write_atomic(&path, &json).map_err(io_err(&path))?;
        self.state.saved();
        self.dirty = false;
        self.seen = fingerprint(&path);
        Ok(())
    }

    /// Merges in what another instance saved since we last looked. True
    /// when a file had changed. A note of ours that lost to theirs is
    /// kept in the conflicts, and saved with the next save.
    pub fn refresh(&mut self) -> bool {
        let seen = match self.first_seen.get_mut() {
            Some(f) => f.refresh(&self.dir),
            None => false,
        };
        self.refresh_state() || seen
    }

    fn refresh_state(&mut self) -> bool {
        let path = self.path();
        let now = fingerprint(&path);
        if now == self.seen {
            return false;
        }
        self.seen = now;
        match read_state(&path) {
            Read::Parsed(disk) => {
                if self.state.absorb(disk) > 0 && self.read_only.is_none() {
                    self.dirty = true;
                }
                true
            }
            _ => false,
        }
    }

    /// Applies `edits` in memory, in order: all of them, or none when one
    /// breaks a limit ([`StoreError::Invalid`]) or the store is read-only.
    /// Returns the edits that undo them, to be applied in the order given;
    /// an edit that changed nothing has none (so an empty list: nothing
    /// changed). Does not save: call [`Store::save`] (the `set_…` methods
    /// below apply and save in one call).
    pub fn apply(&mut self, edits: &[Edit]) -> Result<Vec<Edit>, StoreError> {
        if let Some(why) = &self.read_only {
            return Err(StoreError::ReadOnly(why.clone()));
        }
        let checked = edits
            .iter()
            .map(Edit::checked)
            .collect::<Result<Vec<_>, _>>()
            .map_err(StoreError::Invalid)?;
        let mut undo = Vec::new();
        for edit in checked {
            let at = self.stamp();
            undo.extend(self.state.apply(edit, at));
        }
        undo.reverse();
        self.dirty |= !undo.is_empty();
        Ok(undo)
    }

    /// [`Store::apply`], then a save when anything changed.
    fn apply_and_save(&mut self, edits: &[Edit]) -> Result<(), StoreError> {
        if self.apply(edits)?.is_empty() {
            return Ok(());
        }
        self.save()
    }

    /// Puts `tag` on paper `id` (`on`) or takes it off, and saves. The tag
    /// is trimmed and compared without case; putting on a tag the paper
    /// has in another case renames it. A tag that is empty, longer than
    /// [`NAME_MAX_CHARS`] characters or holds a control or invisible
    /// character is refused ([`StoreError::Invalid`]). As with
    /// [`Store::set`], a change holds in memory when the save fails.
    pub fn set_tag(&mut self, id: &str, tag: &str, on: bool) -> Result<(), StoreError> {
        self.apply_and_save(&[Edit::Tag {
            id: id.to_string(),
            tag: tag.to_string(),
            on,
        }])
    }

    /// Whether paper `id` has `tag` (compared without case).
    pub fn has_tag(&self, id: &str, tag: &str) -> bool {
        self.state
            .papers
            .get(id)
            .and_then(|e| e.tags.get(tag))
            .is_some_and(|t| t.on)
    }

    /// Paper `id`'s tags as last written, ordered without case.
    pub fn tags(&self, id: &str) -> Vec<&str> {
        self.state.tags(id)
    }

    /// Every tag some paper has, with how many papers have it, ordered
    /// without case (for completion). A tag written in several cases shows
    /// as most recently written.
    pub fn all_tags(&self) -> Vec<(String, usize)> {
        let mut by: std::collections::BTreeMap<String, (&Tag, usize)> = Default::default();
        for t in self.state.papers.values().flat_map(|e| e.tags.live()) {
            let slot = by.entry(fold(&t.name)).or_insert((t, 0));
            if t.at > slot.0.at {
                slot.0 = t;
            }
            slot.1 += 1;
        }
        by.into_values().map(|(t, n)| (t.name.clone(), n)).collect()
    }

    /// Paper `id`'s note, unless it has none.
    pub fn note(&self, id: &str) -> Option<&str> {
        self.state.note(id)
    }

    /// When paper `id`'s note was last written (or removed).
    pub fn note_written(&self, id: &str) -> Option<Stamp> {
        self.state.papers.get(id)?.note.as_ref().map(|n| n.at)
    }

    /// Replaces paper `id`'s note with `text` (markdown, kept as written)
    /// and saves; a blank text removes the note. A text over
    /// [`NOTE_MAX_BYTES`] is refused whole ([`StoreError::Invalid`]),
    /// never cut. For undo, keep [`Store::note`] from before and set it
    /// back (or use [`Store::apply`]).
    pub fn set_note(&mut self, id: &str, text: &str) -> Result<(), StoreError> {
        self.apply_and_save(&[Edit::Note {
            id: id.to_string(),
            text: text.to_string(),
        }])
    }

    /// The notes that lost a merge to a newer note of their paper (two
    /// readers edited one note), by paper and time, until dismissed.
    pub fn note_conflicts(&self) -> Vec<Conflict<'_>> {
        self.state.conflicts.iter().collect()
    }

    /// Drops the kept notes of `paper` written at `at` (as
    /// [`Store::note_conflicts`] gave them), in every copy of the state,
    /// and saves.
    pub fn dismiss_conflict(&mut self, paper: &str, at: Stamp) -> Result<(), StoreError> {
        if let Some(why) = &self.read_only {
            return Err(StoreError::ReadOnly(why.clone()));
        }
        let now = self.stamp();
        if !self.state.conflicts.dismiss(paper, at, now) {
            return Ok(());
        }
        self.dirty = true;
        self.save()
    }

    /// When paper `id` was first seen, if it was recorded. The first call
    /// reads the first-seen file (see [`Store::notices`] for what it may
    /// find).
    pub fn first_seen(&self, id: &str) -> Option<Stamp> {
        self.seen_file().seen.get(id)
    }

    /// Records that the papers `ids` were seen at `now`, where nothing
    /// earlier was recorded, and saves the first-seen file once if any was
    /// new. Linear in the ids: a million papers on a first open cost one
    /// pass and one save. Returns how many were new. A read-only store
    /// keeps them in memory.
    pub fn record_first_seen<'a>(
        &mut self,
        ids: impl IntoIterator<Item = &'a str>,
        now: Stamp,
    ) -> Result<usize, StoreError> {
        self.record_seen(ids, now).map(|(_, new)| new)
    }

    /// [`Store::record_first_seen`], saying for each paper whether it is
    /// new in this session (first seen at `now` or later), in the same
    /// pass over the ids.
    pub fn record_first_seen_each<'a>(
        &mut self,
        ids: impl IntoIterator<Item = &'a str>,
        now: Stamp,
    ) -> Result<Vec<bool>, StoreError> {
        self.record_seen(ids, now).map(|(fresh, _)| fresh)
    }

    fn record_seen<'a>(
        &mut self,
        ids: impl IntoIterator<Item = &'a str>,
        now: Stamp,
    ) -> Result<(Vec<bool>, usize), StoreError> {
        let read_only = self.read_only.is_some();
        let (fresh, new) = self.with_seen(|f| {
            let walk = f.seen.record_each(ids, now);
            f.dirty |= (walk.changed > 0 || walk.reordered) && !read_only && f.writable();
            (walk.fresh, walk.changed)
        });
        if !self.seen_dirty() {
            return Ok((fresh, new));
        }
        self.save_seen().map(|()| (fresh, new))
    }

    /// The saved searches, ordered by name without case.
    pub fn saved_searches(&self) -> Vec<&Search> {
        self.state.searches.live().collect()
    }

    /// The search saved as `name` (compared without case).
    pub fn saved_search(&self, name: &str) -> Option<&Search> {
        self.state.searches.get(name).filter(|s| !s.removed)
    }

    /// Saves `query` under `name` with `scope` (the caller's name for where
    /// it applies; empty for anywhere), replacing what the name held, and
    /// saves the state. Names follow the rules of tags; a query is one line
    /// of at most [`QUERY_MAX_BYTES`] bytes.
    pub fn save_search(&mut self, name: &str, query: &str, scope: &str) -> Result<(), StoreError> {
        self.apply_and_save(&[Edit::Search {
            name: name.to_string(),
            saved: Some((query.to_string(), scope.to_string())),
        }])
    }

    /// Removes the search saved as `name` (a tombstone, so the removal
    /// holds in every copy) and saves. Nothing happens when there is none.
    pub fn remove_search(&mut self, name: &str) -> Result<(), StoreError> {
        self.apply_and_save(&[Edit::Search {
            name: name.to_string(),
            saved: None,
        }])
    }

    /// Renames the search saved as `from` to `to` (replacing what `to`
    /// held), in one save.
    pub fn rename_search(&mut self, from: &str, to: &str) -> Result<(), StoreError> {
        let Some(s) = self.saved_search(from) else {
            return Err(StoreError::Invalid(format!(
                "no search is saved as {}",
                named::shown(from)
            )));
        };
        let mut edits = vec![Edit::Search {
            name: to.to_string(),
            saved: Some((s.query.clone(), s.scope.clone())),
        }];
        if fold(from) != fold(to) {
            edits.push(Edit::Search {
                name: from.to_string(),
                saved: None,
            });
        }
        self.apply_and_save(&edits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::{Map, Value};
    use std::collections::BTreeMap;

    fn mark(on: bool, at: u64) -> Mark {
        Mark { on, at: Stamp(at) }
    }

    /// A state of one paper, "p".
    fn paper_p(entry: PaperMarks) -> State {
        State {
            papers: [("p".to_string(), entry)].into(),
            ..State::default()
        }
    }

    #[test]
    fn newer_unbookmark_wins_over_older_bookmark() {
        let a = paper_p(PaperMarks {
            bookmark: Some(mark(true, 10)),
            ..PaperMarks::default()
        });
        let b = paper_p(PaperMarks {
            bookmark: Some(mark(false, 20)),
            ..PaperMarks::default()
        });
        assert!(!a.merge(&b).is_on("p", Flag::Bookmark));
        assert!(!b.merge(&a).is_on("p", Flag::Bookmark));
    }

    #[test]
    fn fields_merge_separately() {
        let a = paper_p(PaperMarks {
            bookmark: Some(mark(true, 10)),
            ..PaperMarks::default()
        });
        let b = paper_p(PaperMarks {
            read: Some(mark(true, 5)),
            ..PaperMarks::default()
        });
        let m = a.merge(&b);
        assert!(m.is_on("p", Flag::Bookmark) && m.is_on("p", Flag::Read));
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
        s.set(&[("a", Flag::Bookmark, true), ("b", Flag::Read, true)])
            .unwrap();
        let (s2, _) = Store::open(dir.path());
        assert!(s2.is_on("a", Flag::Bookmark));
        assert!(s2.is_on("b", Flag::Read));
        assert!(!s2.is_on("a", Flag::Read));
        let text = fs::read_to_string(dir.path().join(FILE_NAME)).unwrap();
        assert!(text.contains("\"version\": 2"), "{text}");
    }

    #[cfg(unix)]
    #[test]
    fn saves_keep_the_files_mode_and_link_and_clear_what_killed_saves_left() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        // A new state file is the user's alone: it holds notes.
        let (mut s, _) = Store::open(dir.path());
        s.set(&[("a", Flag::Bookmark, true)]).unwrap();
        let path = dir.path().join(FILE_NAME);
        assert_eq!(mode(&path), 0o600);
        // Bits the user chose stay.
        fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
        s.set(&[("b", Flag::Bookmark, true)]).unwrap();
        assert_eq!(mode(&path), 0o640);
        // A state file kept elsewhere behind a link: the file is
        // replaced, the link kept.
        let elsewhere = tempfile::tempdir().unwrap();
        let real = elsewhere.path().join("synced-state.json");
        fs::rename(&path, &real).unwrap();
        std::os::unix::fs::symlink(&real, &path).unwrap();
        let (mut s, msgs) = Store::open(dir.path());
        assert!(msgs.is_empty(), "{msgs:?}");
        s.set(&[("c", Flag::Read, true)]).unwrap();
        assert!(
            fs::symlink_metadata(&path)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(mode(&real), 0o640);
        let (s, _) = Store::open(dir.path());
        assert!(s.is_on("a", Flag::Bookmark) && s.is_on("c", Flag::Read));
        // What saves killed midway left (this version's names and the
        // earlier ones) goes with the next save; nothing else does.
        let stale = [
            elsewhere.path().join("synced-state.json.tmp-Ab3dE9"),
            elsewhere
                .path()
                .join("synced-state.json.tmp-4242-1796218800123"),
            dir.path().join(format!("{SEEN_FILE_NAME}.tmp-x1Y2z3")),
        ];
        let kept = [
            elsewhere.path().join("synced-state.json.tmp-notes.md"),
            elsewhere.path().join("other.json.tmp-Ab3dE9"),
            dir.path().join("state.json.corrupt-2026-12-07T064027Z"),
        ];
        for f in stale.iter().chain(&kept) {
            fs::write(f, b"x").unwrap();
        }
        let (mut s, _) = Store::open(dir.path());
        s.set(&[("d", Flag::Read, true)]).unwrap();
        s.record_first_seen(["d"], Stamp(5)).unwrap();
        for f in &stale {
            assert!(!f.exists(), "{}", f.display());
        }
        for f in &kept {
            assert!(f.exists(), "{}", f.display());
        }
    }

    #[test]
    fn times_past_what_can_be_written_change_and_save() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(
            dir.path().join(FILE_NAME),
            r#"{"version": 2, "papers": {"p": {
                "bookmark": {"on": true, "at": "9999-12-31T23:59:59.999Z"},
                "tags": {"t": {"on": true, "at": "9999-12-31T23:59:59.999Z"}},
                "note": {"text": "old", "at": "9999-12-31T23:59:59.999Z"}},
               "q": {"read": {"on": true, "at": "1950-01-01T00:00:00Z"}}}}"#,
        )
        .unwrap();
        let (mut s, msgs) = Store::open(dir.path());
        assert!(msgs.is_empty(), "{msgs:?}");
        assert!(s.is_on("q", Flag::Read));
        // Each change is newer than what it replaces, and is saved.
        s.set_tag("p", "t", false).unwrap();
        s.set_note("p", "new").unwrap();
        s.set(&[("p", Flag::Bookmark, false)]).unwrap();
        let (s, _) = Store::open(dir.path());
        assert!(!s.has_tag("p", "t"));
        assert_eq!(s.note("p"), Some("new"));
        assert!(!s.is_on("p", Flag::Bookmark));
    }

    #[test]
    fn marks_follow_a_changed_id() {
        let entry = |bookmark: Option<Mark>, read: Option<Mark>| PaperMarks {
            bookmark,
            read,
            ..PaperMarks::default()
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
            LeftOff {
                selected: Some("old1".to_string()),
                view: Some("all".to_string()),
                at: Stamp(1),
                extra: Map::new(),
            },
        );
        assert!(s.adopt(&[("old1", "new1"), ("old2", "new2"), ("none", "new3")]));
        // No entry under the new id: the old one's.
        assert_eq!(s.papers["new1"], s.papers["old1"]);
        assert!(s.is_on("new1", Flag::Bookmark));
        // Both: the newest of each mark.
        assert!(!s.is_on("new2", Flag::Bookmark));
        assert!(s.is_on("new2", Flag::Read));
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
        s.set(&[("0123456789abcdef", Flag::Bookmark, true)])
            .unwrap();
        s.adopt(&[("0123456789abcdef", "arxiv:2106.09685")])
            .unwrap();
        assert!(!s.dirty());
        let (again, _) = Store::open(dir.path());
        assert!(again.is_on("arxiv:2106.09685", Flag::Bookmark));
        assert!(!again.is_on("arxiv:2106.09685", Flag::Read));
    }

    #[test]
    fn two_stores_on_one_file_lose_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let (mut a, _) = Store::open(dir.path());
        let (mut b, _) = Store::open(dir.path());
        a.set(&[("x", Flag::Bookmark, true)]).unwrap();
        b.set(&[("y", Flag::Bookmark, true)]).unwrap();
        a.set(&[("z", Flag::Read, true)]).unwrap();
        let (c, _) = Store::open(dir.path());
        for id in ["x", "y"] {
            assert!(c.is_on(id, Flag::Bookmark), "{id}");
        }
        assert!(c.is_on("z", Flag::Read));
        assert!(b.refresh());
        assert!(
            b.is_on("z", Flag::Read),
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
            s.set(&[("a", Flag::Bookmark, true)]).unwrap();
            assert!(Store::open(dir.path()).0.is_on("a", Flag::Bookmark));
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
        let text = r#"{"version": 3, "papers": {"a": {"bookmark": {"on": true, "at": "2026-01-01T00:00:00Z"}}}, "new": true}"#;
        fs::write(&path, text).unwrap();
        let (mut s, msgs) = Store::open(dir.path());
        assert!(msgs[0].contains("newer"), "{msgs:?}");
        assert!(s.is_on("a", Flag::Bookmark), "marks are still shown");
        assert!(s.set(&[("b", Flag::Bookmark, true)]).is_err());
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
        let err = s.set(&[("a", Flag::Bookmark, true)]).unwrap_err();
        assert!(err.to_string().contains("sub"), "{err}");
        assert!(s.is_on("a", Flag::Bookmark), "the change holds in memory");
        assert!(s.dirty());
        fs::remove_file(&parent).unwrap();
        s.retry().unwrap();
        assert!(!s.dirty());
        assert!(Store::open(&state_dir).0.is_on("a", Flag::Bookmark));
    }

    #[test]
    fn tags_compare_without_case_and_persist() {
        let dir = tempfile::tempdir().unwrap();
        let (mut s, _) = Store::open(dir.path());
        s.set_tag("p", " LoRA ", true).unwrap();
        s.set_tag("p", "survey", true).unwrap();
        s.set_tag("q", "lora", true).unwrap();
        assert!(s.has_tag("p", "lora") && s.has_tag("q", "LORA"));
        assert_eq!(s.tags("p"), ["LoRA", "survey"]);
        assert_eq!(
            s.all_tags(),
            [("lora".to_string(), 2), ("survey".to_string(), 1)],
            "the case written last"
        );
        s.set_tag("p", "SURVEY", false).unwrap();
        let (again, _) = Store::open(dir.path());
        assert_eq!(again.tags("p"), ["LoRA"]);
        assert!(!again.has_tag("p", "survey"));
        // A tag taken off stays in the file, off: a tombstone.
        let text = fs::read_to_string(again.path()).unwrap();
        assert!(text.contains(r#""survey": {"#), "{text}");
    }

    #[test]
    fn bad_input_changes_nothing_and_says_why() {
        let dir = tempfile::tempdir().unwrap();
        let (mut s, _) = Store::open(dir.path());
        s.set_note("p", "kept").unwrap();
        let before = fs::read(s.path()).unwrap();
        let big = "n".repeat(NOTE_MAX_BYTES + 1);
        let long = "t".repeat(NAME_MAX_CHARS + 1);
        let results = [
            ("64 KiB", s.set_note("p", &big)),
            ("longer than 64", s.set_tag("p", &long, true)),
            ("cannot be empty", s.set_tag("p", " ", true)),
            ("control", s.save_search("x\u{7}", "q", "")),
            ("no search", s.rename_search("nothing", "x")),
        ];
        for (why, result) in results {
            let e = result.unwrap_err();
            assert!(matches!(e, StoreError::Invalid(_)), "{e}");
            assert!(e.to_string().contains(why), "{why}: {e}");
        }
        // One bad edit in a batch: none of them applies.
        let batch = [
            Edit::Tag {
                id: "p".into(),
                tag: "fine".into(),
                on: true,
            },
            Edit::Tag {
                id: "p".into(),
                tag: "bad\ttab".into(),
                on: true,
            },
        ];
        assert!(s.apply(&batch).is_err());
        assert!(s.tags("p").is_empty() && !s.dirty());
        assert_eq!(s.note("p"), Some("kept"));
        assert_eq!(fs::read(s.path()).unwrap(), before);
    }

    #[test]
    fn apply_returns_the_edits_that_undo_it() {
        let dir = tempfile::tempdir().unwrap();
        let (mut s, _) = Store::open(dir.path());
        s.set_tag("p", "ML", true).unwrap();
        s.set_note("p", "first").unwrap();
        s.save_search("mine", "lora", "all").unwrap();
        let before = (s.tags("p").join(","), s.note("p").map(str::to_string));
        let edits = [
            Edit::Tag {
                id: "p".into(),
                tag: "ml".into(),
                on: true,
            },
            Edit::Tag {
                id: "p".into(),
                tag: "new".into(),
                on: true,
            },
            Edit::Note {
                id: "p".into(),
                text: "second".into(),
            },
            Edit::Search {
                name: "mine".into(),
                saved: None,
            },
            Edit::Mark {
                id: "p".into(),
                field: Flag::Read,
                on: true,
            },
            // Changes nothing: no undo for it.
            Edit::Mark {
                id: "p".into(),
                field: Flag::Bookmark,
                on: false,
            },
        ];
        let undo = s.apply(&edits).unwrap();
        assert_eq!(undo.len(), 5);
        s.save().unwrap();
        assert_eq!(s.tags("p"), ["ml", "new"]);
        assert!(s.saved_searches().is_empty() && s.is_on("p", Flag::Read));
        let redo = s.apply(&undo).unwrap();
        assert_eq!(
            (s.tags("p").join(","), s.note("p").map(str::to_string)),
            before
        );
        assert_eq!(s.saved_search("MINE").unwrap().query, "lora");
        assert!(!s.is_on("p", Flag::Read));
        s.apply(&redo).unwrap();
        assert_eq!(s.tags("p"), ["ml", "new"]);
        assert_eq!(s.note("p"), Some("second"));
        assert!(s.apply(&[]).unwrap().is_empty());
    }

    #[test]
    fn notes_edited_in_two_places_keep_the_newest_and_the_other() {
        let dir = tempfile::tempdir().unwrap();
        let (mut a, _) = Store::open(dir.path());
        a.set_note("p", "shared start").unwrap();
        let (mut b, _) = Store::open(dir.path());
        a.set_note("p", "edited in a").unwrap();
        b.set_note("p", "edited in b").unwrap();
        for s in [&Store::open(dir.path()).0, &b] {
            assert_eq!(s.note("p"), Some("edited in b"));
            let kept: Vec<_> = s.note_conflicts().iter().map(|c| c.text).collect();
            assert_eq!(kept, ["edited in a"]);
        }
        // A reads b's note; its own is in the conflicts, not lost.
        assert!(a.refresh());
        assert_eq!(a.note("p"), Some("edited in b"));
        let at = a.note_conflicts()[0].at;
        assert_eq!(a.note_written("p"), b.note_written("p"));
        a.dismiss_conflict("p", at).unwrap();
        assert!(a.note_conflicts().is_empty());
        // b still holds the conflict; its next save does not bring it back.
        b.set_tag("p", "x", true).unwrap();
        assert!(b.note_conflicts().is_empty());
        assert!(Store::open(dir.path()).0.note_conflicts().is_empty());
    }

    #[test]
    fn a_note_removed_without_seeing_an_edit_keeps_the_edit() {
        let dir = tempfile::tempdir().unwrap();
        let (mut a, _) = Store::open(dir.path());
        a.set_note("p", "v1").unwrap();
        let (mut b, _) = Store::open(dir.path());
        a.set_note("p", "v2 from a").unwrap();
        // Newest wins: b's removal must come in a later millisecond.
        std::thread::sleep(std::time::Duration::from_millis(5));
        b.set_note("p", "  ").unwrap();
        let (c, _) = Store::open(dir.path());
        assert_eq!(c.note("p"), None);
        assert_eq!(c.note_conflicts()[0].text, "v2 from a");
        // An edit of the note one has seen is no conflict.
        let (mut d, _) = Store::open(dir.path());
        d.set_note("p", "v3").unwrap();
        a.refresh();
        a.set_note("p", "v4").unwrap();
        assert_eq!(Store::open(dir.path()).0.note_conflicts().len(), 1);
    }

    #[test]
    fn first_seen_keeps_the_earliest_in_one_save() {
        let dir = tempfile::tempdir().unwrap();
        let (mut a, _) = Store::open(dir.path());
        let (mut b, _) = Store::open(dir.path());
        let ids: Vec<String> = (0..1000).map(|i| format!("id{i}")).collect();
        let n = a
            .record_first_seen(ids.iter().map(String::as_str), Stamp(2000))
            .unwrap();
        assert_eq!(n, 1000);
        assert_eq!(a.record_first_seen(["id1"], Stamp(3000)).unwrap(), 0);
        assert_eq!(b.record_first_seen(["id1", "x"], Stamp(1000)).unwrap(), 2);
        let (c, _) = Store::open(dir.path());
        assert_eq!(c.first_seen("id1"), Some(Stamp(1000)));
        assert_eq!(c.first_seen("id2"), Some(Stamp(2000)));
        assert_eq!(c.first_seen("nope"), None);
        assert!(!c.path().exists(), "state.json is not rewritten for them");
        let text = fs::read_to_string(dir.path().join(SEEN_FILE_NAME)).unwrap();
        assert_eq!(text.matches("\"id").count(), 1000);
        assert_eq!(text.matches("\"1970-01-01T00:00:02Z\"").count(), 0);
        assert_eq!(text.matches("\"1970-01-01T00:00:02.000Z\": [").count(), 1);
        // An id that changed keeps its first time.
        let mut c = c;
        c.adopt(&[("id5", "arxiv:2106.09685")]).unwrap();
        assert_eq!(c.first_seen("arxiv:2106.09685"), Some(Stamp(2000)));
    }

    #[test]
    fn the_first_seen_file_alone_broken_or_newer() {
        let dir = tempfile::tempdir().unwrap();
        let seen = dir.path().join(SEEN_FILE_NAME);
        fs::write(&seen, "{\"version\": 2, \"first_seen\": [").unwrap();
        let (mut s, msgs) = Store::open(dir.path());
        assert!(msgs.is_empty(), "not read at open: {msgs:?}");
        assert_eq!(s.first_seen("a"), None);
        let notices = s.notices();
        assert!(notices[0].contains("first-seen times"), "{notices:?}");
        assert!(s.notices().is_empty(), "said once");
        assert_eq!(s.record_first_seen(["a"], Stamp(7)).unwrap(), 1);
        assert_eq!(Store::open(dir.path()).0.first_seen("a"), Some(Stamp(7)));
        // Another store's times are picked up.
        let (mut other, _) = Store::open(dir.path());
        other.record_first_seen(["b"], Stamp(8)).unwrap();
        assert!(s.refresh());
        assert_eq!(s.first_seen("b"), Some(Stamp(8)));
        // A newer first-seen file: kept as it is; marks are still saved.
        let newer = r#"{"version": 9, "first_seen": {"1970-01-01T00:00:00.001Z": ["c"]}}"#;
        fs::write(&seen, newer).unwrap();
        let (mut s, _) = Store::open(dir.path());
        assert_eq!(s.first_seen("c"), Some(Stamp(1)));
        assert!(s.notices()[0].contains("newer"));
        assert_eq!(s.record_first_seen(["d"], Stamp(9)).unwrap(), 1);
        assert!(!s.dirty());
        s.set(&[("c", Flag::Read, true)]).unwrap();
        assert_eq!(fs::read_to_string(&seen).unwrap(), newer);
        assert!(Store::open(dir.path()).0.is_on("c", Flag::Read));
    }

    #[test]
    fn saved_searches_rename_and_remove_across_stores() {
        let dir = tempfile::tempdir().unwrap();
        let (mut a, _) = Store::open(dir.path());
        a.save_search("Adapters", "lora adapter", "all").unwrap();
        a.save_search("old", "x", "").unwrap();
        let (mut b, _) = Store::open(dir.path());
        a.rename_search("adapters", "LoRA").unwrap();
        a.remove_search("OLD").unwrap();
        // b still has both under their old names and saves something else.
        b.save_search("b's", "year:2026", "bookmarked").unwrap();
        let (c, _) = Store::open(dir.path());
        let names: Vec<_> = c.saved_searches().iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["b's", "LoRA"]);
        let lora = c.saved_search("lora").unwrap();
        assert_eq!(
            (lora.query.as_str(), lora.scope.as_str()),
            ("lora adapter", "all")
        );
        assert_eq!(c.saved_search("b's").unwrap().scope, "bookmarked");
        // A rename that only changes the case keeps the search.
        a.rename_search("lora", "Lora").unwrap();
        assert_eq!(a.saved_search("LORA").unwrap().name, "Lora");
    }

    #[test]
    fn a_version_1_file_keeps_every_mark_and_is_backed_up_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE_NAME);
        let v1 = r#"{"version": 1, "papers": {"a": {"bookmark": {"on": true, "at": "2026-01-01T00:00:00Z"}, "colour": "red"}, "b": {"read": {"on": true, "at": "2026-01-01T00:00:01Z"}}}, "views": {"k": {"selected": "a", "view": "unread", "at": "2026-01-01T00:00:02Z"}}, "future": 1}"#;
        fs::write(&path, v1).unwrap();
        let (mut s, msgs) = Store::open(dir.path());
        assert!(msgs.is_empty(), "{msgs:?}");
        assert!(s.is_on("a", Flag::Bookmark) && s.is_on("b", Flag::Read));
        let backup = dir.path().join(backup_name(1));
        assert!(!backup.exists(), "reading alone changes nothing");
        s.set_tag("a", "kept", true).unwrap();
        assert_eq!(fs::read_to_string(&backup).unwrap(), v1);
        let v: Value = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(v["version"], 2);
        assert_eq!(v["papers"]["a"]["colour"], "red");
        assert_eq!(v["future"], 1);
        assert_eq!(v["views"]["k"]["view"], "unread");
        let (again, _) = Store::open(dir.path());
        assert!(again.is_on("a", Flag::Bookmark) && again.is_on("b", Flag::Read));
        // Another version 1 file later: merged, the first backup kept.
        fs::write(&path, r#"{"version": 1, "papers": {"c": {"read": {"on": true, "at": "2026-01-01T00:00:00Z"}}}}"#).unwrap();
        let mut again = again;
        again.set(&[("d", Flag::Bookmark, true)]).unwrap();
        assert!(again.is_on("c", Flag::Read) && again.has_tag("a", "kept"));
        assert_eq!(fs::read_to_string(&backup).unwrap(), v1);
    }

    #[test]
    fn a_read_only_store_refuses_triage_edits() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE_NAME);
        let text = r#"{"version": 3, "papers": {"a": {"tags": {"x": {"on": true, "at": "2026-01-01T00:00:00Z"}}}}}"#;
        fs::write(&path, text).unwrap();
        let (mut s, _) = Store::open(dir.path());
        assert!(s.has_tag("a", "x"), "what can be read is shown");
        for e in [
            s.set_tag("a", "y", true),
            s.set_note("a", "n"),
            s.save_search("n", "q", ""),
        ] {
            assert!(matches!(e, Err(StoreError::ReadOnly(_))), "{e:?}");
        }
        assert_eq!(s.record_first_seen(["a"], Stamp(5)).unwrap(), 1);
        assert_eq!(s.first_seen("a"), Some(Stamp(5)), "kept in memory");
        assert!(s.save().is_err());
        assert_eq!(fs::read_to_string(&path).unwrap(), text);
    }

    fn arb_mark() -> impl Strategy<Value = Option<Mark>> {
        proptest::option::of((any::<bool>(), 0u64..50).prop_map(|(on, at)| mark(on, at)))
    }

    fn arb_entry() -> impl Strategy<Value = PaperMarks> {
        let tags = proptest::collection::vec(("[aA][bB]?", any::<bool>(), 0u64..50), 0..3);
        let note = proptest::option::of(("[xy]{0,2}", 0u64..50, proptest::option::of(0u64..50)));
        (arb_mark(), arb_mark(), tags, note).prop_map(|(bookmark, read, tags, note)| {
            let mut entry = PaperMarks {
                bookmark,
                read,
                note: note.map(|(text, at, base)| Note {
                    text,
                    at: Stamp(at),
                    base: base.map(Stamp),
                    unsaved: false,
                }),
                ..PaperMarks::default()
            };
            for (name, on, at) in tags {
                entry.tags.put(Tag {
                    name,
                    on,
                    at: Stamp(at),
                });
            }
            entry
        })
    }

    fn arb_state() -> impl Strategy<Value = State> {
        let papers = proptest::collection::btree_map("[a-d]", arb_entry(), 0..4);
        let searches = proptest::collection::vec(
            (
                "[sS][tT]?",
                proptest::option::of(("[qr]{0,2}", "a?")),
                0u64..50,
            ),
            0..3,
        );
        (papers, searches).prop_map(|(papers, searches)| {
            let mut state = State {
                papers,
                ..State::default()
            };
            for (name, saved, at) in searches {
                let removed = saved.is_none();
                let (query, scope) = saved.unwrap_or_default();
                state.searches.put(Search {
                    name,
                    query,
                    scope,
                    at: Stamp(at),
                    removed,
                });
            }
            state
        })
    }

    /// What every merge order must agree on (conflicts only up to
    /// commutativity: see `lost` in notes.rs).
    fn merged_parts(s: &State) -> (&BTreeMap<String, PaperMarks>, &Searches) {
        (&s.papers, &s.searches)
    }

    proptest! {
        #[test]
        fn merge_is_commutative(a in arb_state(), b in arb_state()) {
            let (ab, ba) = (a.merge(&b), b.merge(&a));
            prop_assert_eq!(merged_parts(&ab), merged_parts(&ba));
            prop_assert_eq!(&ab.conflicts, &ba.conflicts);
        }

        #[test]
        fn merge_is_associative(a in arb_state(), b in arb_state(), c in arb_state()) {
            let (left, right) = (a.merge(&b).merge(&c), a.merge(&b.merge(&c)));
            prop_assert_eq!(merged_parts(&left), merged_parts(&right));
        }

        #[test]
        fn merge_is_idempotent(a in arb_state(), b in arb_state()) {
            prop_assert_eq!(&a.merge(&a), &a);
            let ab = a.merge(&b);
            prop_assert_eq!(&ab.merge(&b), &ab);
        }

        #[test]
        fn serialise_parse_round_trips(a in arb_state()) {
            let text = serde_json::to_string(&a).unwrap();
            let back: State = serde_json::from_str(&text).unwrap();
            prop_assert_eq!(back, a);
        }
    }
}
