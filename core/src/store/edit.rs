//! Changes the user makes, each with the change that undoes it. The store
//! applies them; the caller keeps the undo history.

use super::named::{Search, Tag, Versioned, check_name, check_search};
use super::notes::{Note, check_note};
use super::stamp::{Mark, Stamp};
use super::state::{Flag, State};

/// One change of the state that can be undone.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Edit {
    /// Sets or clears a mark.
    Mark {
        /// The paper.
        id: String,
        /// Which mark.
        field: Flag,
        /// Set or cleared.
        on: bool,
    },
    /// Puts a tag on a paper or takes it off.
    Tag {
        /// The paper.
        id: String,
        /// The tag as written (compared without case).
        tag: String,
        /// On or off.
        on: bool,
    },
    /// Replaces a paper's note; an empty (or blank) text removes it.
    Note {
        /// The paper.
        id: String,
        /// The new text.
        text: String,
    },
    /// Saves a search under a name, or removes the name.
    Search {
        /// The name (compared without case).
        name: String,
        /// The query and the scope, or `None` to remove.
        saved: Option<(String, String)>,
    },
}

impl Edit {
    /// The edit as it will be applied (names trimmed, a blank note empty),
    /// or why it cannot be: a limit of docs/STATE.md broken.
    pub fn checked(&self) -> Result<Edit, String> {
        Ok(match self {
            Edit::Mark { .. } => self.clone(),
            Edit::Tag { id, tag, on } => Edit::Tag {
                id: id.clone(),
                tag: check_name("tag", tag)?,
                on: *on,
            },
            Edit::Note { id, text } => Edit::Note {
                id: id.clone(),
                text: check_note(text)?,
            },
            Edit::Search { name, saved } => Edit::Search {
                name: check_name("saved search", name)?,
                saved: match saved {
                    Some((query, scope)) => Some(check_search(query, scope)?),
                    None => None,
                },
            },
        })
    }
}

/// A time after both `at` and `after`, so that a change always wins over
/// the version it replaces, even one stamped ahead of this clock.
pub(super) fn past(at: Stamp, after: Option<Stamp>) -> Stamp {
    after.map_or(at, |a| at.max(Stamp(a.0.saturating_add(1))))
}

impl State {
    /// Applies a [checked](Edit::checked) edit at time `at`. Returns the
    /// edit that undoes it, or `None` when it changed nothing (the state is
    /// left as it was, no new time written).
    pub(super) fn apply(&mut self, edit: Edit, at: Stamp) -> Option<Edit> {
        match edit {
            Edit::Mark { id, field, on } => {
                let slot = self.papers.entry(id.clone()).or_default().slot(field);
                let was = slot.is_some_and(|m| m.on);
                if was == on {
                    return None;
                }
                *slot = Some(Mark {
                    on,
                    at: past(at, slot.map(|m| m.at)),
                });
                Some(Edit::Mark { id, field, on: was })
            }
            Edit::Tag { id, tag, on } => self.apply_tag(id, tag, on, at),
            Edit::Note { id, text } => {
                let entry = self.papers.entry(id.clone()).or_default();
                let was = entry.note.as_ref().and_then(Note::live).unwrap_or("");
                if was == text {
                    return None;
                }
                let undo = Edit::Note {
                    id,
                    text: was.to_string(),
                };
                let base = entry.note.as_ref().map(|n| n.at);
                entry.note = Some(Note::new(text, past(at, base), base));
                Some(undo)
            }
            Edit::Search { name, saved } => self.apply_search(name, saved, at),
        }
    }

    fn apply_tag(&mut self, id: String, tag: String, on: bool, at: Stamp) -> Option<Edit> {
        let tags = &mut self.papers.entry(id.clone()).or_default().tags;
        let was = tags.get(&tag).filter(|t| t.live()).cloned();
        let undo = match (&was, on) {
            (Some(t), true) if t.name == tag => return None,
            (None, false) => return None,
            // Back on, as it was written.
            (Some(t), _) => Edit::Tag {
                id,
                tag: t.name.clone(),
                on: true,
            },
            (None, true) => Edit::Tag {
                id,
                tag: tag.clone(),
                on: false,
            },
        };
        let name = match (&was, on) {
            // Taken off under the name it had.
            (Some(t), false) => t.name.clone(),
            _ => tag,
        };
        let after = tags.get(&name).map(|t| t.at);
        tags.put(Tag {
            name,
            on,
            at: past(at, after),
        });
        Some(undo)
    }

    fn apply_search(
        &mut self,
        name: String,
        saved: Option<(String, String)>,
        at: Stamp,
    ) -> Option<Edit> {
        let old = self.searches.get(&name).cloned();
        let was = old.as_ref().filter(|s| s.live());
        let undo = Edit::Search {
            name: was.map_or_else(|| name.clone(), |s| s.name.clone()),
            saved: was.map(|s| (s.query.clone(), s.scope.clone())),
        };
        let same = match (&saved, was) {
            (None, None) => true,
            (Some((q, s)), Some(w)) => w.name == name && &w.query == q && &w.scope == s,
            _ => false,
        };
        if same {
            return None;
        }
        let (query, scope) = saved.clone().unwrap_or_default();
        self.searches.put(Search {
            name: match (saved.is_none(), was) {
                (true, Some(w)) => w.name.clone(),
                _ => name,
            },
            query,
            scope,
            at: past(at, old.map(|s| s.at)),
            removed: saved.is_none(),
        });
        Some(undo)
    }
}
