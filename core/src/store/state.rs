//! The whole state as the file holds it, and how two copies merge.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::VERSION;
use super::named::{Searches, Tags};
use super::notes::{Conflicts, Note, merge_note};
use super::stamp::{Mark, Stamp, newest_opt};

/// Which mark.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Flag {
    /// The bookmark.
    Bookmark,
    /// Read or unread.
    Read,
}

/// What is kept of one paper, with whatever else a newer version stored.
#[derive(Clone, PartialEq, Debug, Default, Serialize, Deserialize)]
pub struct PaperMarks {
    /// Bookmarked?
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bookmark: Option<Mark>,
    /// Read?
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read: Option<Mark>,
    /// Tags, taken-off ones too (as tombstones).
    #[serde(default, skip_serializing_if = "Tags::is_empty")]
    pub tags: Tags,
    /// The note, a removed one too (as a tombstone).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<Note>,
    /// Fields this version does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl PaperMarks {
    /// The mark for `field`.
    pub fn get(&self, field: Flag) -> Option<Mark> {
        match field {
            Flag::Bookmark => self.bookmark,
            Flag::Read => self.read,
        }
    }

    pub(super) fn slot(&mut self, field: Flag) -> &mut Option<Mark> {
        match field {
            Flag::Bookmark => &mut self.bookmark,
            Flag::Read => &mut self.read,
        }
    }

    /// Takes in `other`, another copy of paper `id`'s entry: the newest of
    /// each mark, tag and note; a note that would be lost goes to
    /// `conflicts`. `self`'s unknown fields win. True when a conflict was
    /// new.
    fn absorb(&mut self, id: &str, other: PaperMarks, conflicts: &mut Conflicts) -> bool {
        self.bookmark = newest_opt(self.bookmark, other.bookmark);
        self.read = newest_opt(self.read, other.read);
        self.tags.absorb(other.tags);
        for (k, v) in other.extra {
            self.extra.entry(k).or_insert(v);
        }
        merge_note(id, &mut self.note, other.note, conflicts)
    }
}

/// Where a corpus was left: the selected paper and the view.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct LeftOff {
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
    /// Marks, tags and notes by paper id.
    #[serde(default)]
    pub papers: BTreeMap<String, PaperMarks>,
    /// Where each corpus was left, by corpus key.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub views: BTreeMap<String, LeftOff>,
    /// Saved searches by name, removed ones too (as tombstones).
    #[serde(default, skip_serializing_if = "Searches::is_empty")]
    pub searches: Searches,
    /// Notes that lost a merge, kept until dismissed.
    #[serde(default, skip_serializing_if = "Conflicts::is_empty")]
    pub conflicts: Conflicts,
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
            searches: Searches::default(),
            conflicts: Conflicts::default(),
            extra: Map::new(),
        }
    }
}

impl State {
    /// Merges two states: the newest mark, tag, note and saved search of
    /// each name wins, and the union of the conflicts (a note that would be lost joins them). Unknown fields of
    /// both are kept (`self`'s where both have one).
    pub fn merge(&self, other: &State) -> State {
        let mut merged = self.clone();
        merged.absorb(other.clone());
        merged
    }

    /// [`State::merge`] in place, taking `other`. Returns how many notes
    /// joined the conflicts.
    pub fn absorb(&mut self, other: State) -> usize {
        self.conflicts.absorb(other.conflicts);
        let mut conflicts = 0;
        for (id, theirs) in other.papers {
            match self.papers.get_mut(&id) {
                Some(mine) => {
                    conflicts += usize::from(mine.absorb(&id, theirs, &mut self.conflicts));
                }
                None => {
                    self.papers.insert(id, theirs);
                }
            }
        }
        for (k, theirs) in other.views {
            let keep_mine = self.views.get(&k).is_some_and(|p| {
                (p.at, p.selected.as_deref(), p.view.as_deref())
                    >= (
                        theirs.at,
                        theirs.selected.as_deref(),
                        theirs.view.as_deref(),
                    )
            });
            if !keep_mine {
                self.views.insert(k, theirs);
            }
        }
        self.searches.absorb(other.searches);
        for (k, v) in other.extra {
            self.extra.entry(k).or_insert(v);
        }
        self.version = self.version.max(other.version);
        conflicts
    }

    /// Gives each paper that changed id (`(old, new)`) what was kept under
    /// its old one: the old entry's marks, tags and note when the new id
    /// has none, else the newest of each (a note that loses joins the
    /// conflicts); where a corpus was left on the old id, it is left on
    /// the new one. The old entries stay (a deletion would come back from
    /// the file at the next merge, and a version that still knows the old
    /// id keeps its marks). True when anything changed.
    pub fn adopt(&mut self, moves: &[(&str, &str)]) -> bool {
        let mut changed = false;
        for &(old, new) in moves {
            if old == new {
                continue;
            }
            if let Some(from) = self.papers.get(old).cloned() {
                let merged = match self.papers.get(new) {
                    Some(to) => {
                        let mut to = to.clone();
                        to.absorb(new, from, &mut self.conflicts);
                        to
                    }
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
    pub fn is_on(&self, id: &str, field: Flag) -> bool {
        self.papers
            .get(id)
            .and_then(|e| e.get(field))
            .is_some_and(|m| m.on)
    }

    /// Paper `id`'s tags, as last written, ordered without case.
    pub fn tags(&self, id: &str) -> Vec<&str> {
        self.papers
            .get(id)
            .map(|e| e.tags.live().map(|t| t.name.as_str()).collect())
            .unwrap_or_default()
    }

    /// Paper `id`'s note, unless it has none.
    pub fn note(&self, id: &str) -> Option<&str> {
        self.papers.get(id)?.note.as_ref()?.live()
    }

    /// Clears the flags of notes written since the last save: they are in
    /// the file now.
    pub(super) fn saved(&mut self) {
        for e in self.papers.values_mut() {
            if let Some(n) = &mut e.note {
                n.unsaved = false;
            }
        }
    }
}
