//! A paper's note, and the notes that lost a merge. The newest note wins;
//! a text it replaced without its writer having seen it is kept in the
//! state's `conflicts` until the user dismisses it, so no edit is lost.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::stamp::Stamp;

/// Most bytes in a note.
pub const NOTE_MAX_BYTES: usize = 64 * 1024;

/// `text` as a note keeps it: whitespace alone is no note (an empty text,
/// a removal); control and invisible characters but line breaks and tabs
/// taken out; past [`NOTE_MAX_BYTES`], an error and nothing kept.
pub fn check_note(text: &str) -> Result<String, String> {
    if text.len() > NOTE_MAX_BYTES {
        return Err(format!(
            "a note holds at most {NOTE_MAX_BYTES} bytes (64 KiB), not {}; nothing was changed",
            text.len()
        ));
    }
    Ok(if text.trim().is_empty() {
        String::new()
    } else {
        super::named::clean_text(text)
    })
}

/// A paper's note: markdown as the user wrote it, and when.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Note {
    /// The text; empty once the note is removed (a tombstone). Read from
    /// the file without control or invisible characters but line breaks
    /// and tabs (a hand-edited file may hold any).
    #[serde(deserialize_with = "clean_note")]
    pub text: String,
    /// When it was written.
    pub at: Stamp,
    /// The time of the note this one was edited from, if any: a merge
    /// tells by it whether the writer had seen the note it replaces.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<Stamp>,
    /// Written here and not yet saved: nobody else can have seen it.
    #[serde(skip)]
    pub(super) unsaved: bool,
}

fn clean_note<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    String::deserialize(d).map(|t| super::named::clean_text(&t))
}

impl Note {
    /// A note written now over `base`.
    pub(super) fn new(text: String, at: Stamp, base: Option<Stamp>) -> Note {
        Note {
            text,
            at,
            base,
            unsaved: true,
        }
    }

    /// The text, unless the note was removed.
    pub fn live(&self) -> Option<&str> {
        (!self.text.is_empty()).then_some(self.text.as_str())
    }
}

/// True when `lose`, losing to `win`, would be lost: it has text, another
/// text, and `win` was written without seeing it (it was never saved, or
/// `win` was edited from something older).
fn lost(win: &Note, lose: &Note) -> bool {
    !lose.text.trim().is_empty()
        && lose.text != win.text
        && (lose.unsaved || win.base.is_none_or(|b| b < lose.at))
}

/// The newer of two notes of paper `id`; the older goes to `conflicts`
/// when it would otherwise be lost. True when a conflict was new.
pub(super) fn merge_note(
    id: &str,
    mine: &mut Option<Note>,
    theirs: Option<Note>,
    conflicts: &mut Conflicts,
) -> bool {
    let Some(b) = theirs else { return false };
    let Some(a) = mine.take() else {
        *mine = Some(b);
        return false;
    };
    if a.at == b.at && a.text == b.text {
        // One note seen twice.
        *mine = Some(Note {
            unsaved: a.unsaved || b.unsaved,
            base: a.base.max(b.base),
            ..a
        });
        return false;
    }
    let (win, lose) = if (a.at, &a.text) > (b.at, &b.text) {
        (a, b)
    } else {
        (b, a)
    };
    let new = lost(&win, &lose) && conflicts.keep(id, lose.at, lose.text);
    *mine = Some(win);
    new
}

/// A note's text that lost a merge to a newer note of the same paper.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Conflict<'a> {
    /// The paper's id.
    pub paper: &'a str,
    /// When the losing text was written.
    pub at: Stamp,
    /// The losing text.
    pub text: &'a str,
}

/// The texts kept for one paper and time, or their dismissal.
#[derive(Clone, PartialEq, Eq, Debug)]
enum Kept {
    Texts(BTreeSet<String>),
    Dismissed(Stamp),
}

/// The notes that lost merges, by paper and the time they were written.
/// Merged as a set; a dismissal wins over the texts it dismisses.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Conflicts(BTreeMap<(String, Stamp), Kept>);

impl Conflicts {
    /// Nothing kept, not even a dismissal.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The texts not dismissed, by paper and time.
    pub fn iter(&self) -> impl Iterator<Item = Conflict<'_>> {
        self.0.iter().flat_map(|((paper, at), kept)| {
            let texts = match kept {
                Kept::Texts(t) => Some(t),
                Kept::Dismissed(_) => None,
            };
            texts.into_iter().flatten().map(move |text| Conflict {
                paper,
                at: *at,
                text,
            })
        })
    }

    /// Keeps a losing text. True when it was not kept nor dismissed yet.
    pub(super) fn keep(&mut self, paper: &str, at: Stamp, text: String) -> bool {
        match self
            .0
            .entry((paper.to_string(), at))
            .or_insert_with(|| Kept::Texts(BTreeSet::new()))
        {
            Kept::Texts(t) => t.insert(text),
            Kept::Dismissed(_) => false,
        }
    }

    /// Drops the texts of `paper` written at `at`, for good. True unless
    /// they were dismissed already.
    pub(super) fn dismiss(&mut self, paper: &str, at: Stamp, now: Stamp) -> bool {
        let kept = self
            .0
            .entry((paper.to_string(), at))
            .or_insert_with(|| Kept::Texts(BTreeSet::new()));
        if matches!(kept, Kept::Dismissed(_)) {
            return false;
        }
        *kept = Kept::Dismissed(now);
        true
    }

    /// Takes in `other`: the union, dismissals winning.
    pub(super) fn absorb(&mut self, other: Conflicts) {
        for (key, theirs) in other.0 {
            match self.0.get_mut(&key) {
                None => {
                    self.0.insert(key, theirs);
                }
                Some(mine) => match (&mut *mine, theirs) {
                    (Kept::Texts(a), Kept::Texts(b)) => a.extend(b),
                    (Kept::Dismissed(a), Kept::Dismissed(b)) => *a = (*a).max(b),
                    (Kept::Texts(_), d @ Kept::Dismissed(_)) => *mine = d,
                    (Kept::Dismissed(_), Kept::Texts(_)) => {}
                },
            }
        }
    }
}

/// One conflict in the file: a kept text or a dismissal.
#[derive(Serialize, Deserialize)]
struct Record {
    paper: String,
    at: Stamp,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    dismissed: Option<Stamp>,
}

impl Serialize for Conflicts {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut out = Vec::new();
        for ((paper, at), kept) in &self.0 {
            let record = |text, dismissed| Record {
                paper: paper.clone(),
                at: *at,
                text,
                dismissed,
            };
            match kept {
                Kept::Texts(t) => out.extend(t.iter().map(|t| record(Some(t.clone()), None))),
                Kept::Dismissed(when) => out.push(record(None, Some(*when))),
            }
        }
        out.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Conflicts {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut out = Conflicts::default();
        for r in Vec::<Record>::deserialize(d)? {
            let mut one = Conflicts::default();
            match (r.text, r.dismissed) {
                (_, Some(when)) => {
                    one.0.insert((r.paper, r.at), Kept::Dismissed(when));
                }
                (Some(text), None) => {
                    one.keep(&r.paper, r.at, text);
                }
                // Neither a text nor a dismissal: nothing to keep.
                (None, None) => {}
            }
            out.absorb(one);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn note(text: &str, at: u64, base: Option<u64>) -> Note {
        Note {
            text: text.to_string(),
            at: Stamp(at),
            base: base.map(Stamp),
            unsaved: false,
        }
    }

    fn merged(a: Note, b: Note) -> (Note, Vec<String>) {
        let mut c = Conflicts::default();
        let mut mine = Some(a);
        merge_note("p", &mut mine, Some(b), &mut c);
        let kept = c.iter().map(|c| c.text.to_string()).collect();
        (mine.unwrap(), kept)
    }

    #[test]
    fn an_edit_of_the_seen_note_is_no_conflict() {
        let (win, kept) = merged(note("old", 10, None), note("new", 20, Some(10)));
        assert_eq!(win.text, "new");
        assert!(kept.is_empty(), "{kept:?}");
    }

    #[test]
    fn two_edits_of_one_note_keep_both() {
        let (win, kept) = merged(note("mine", 20, Some(10)), note("theirs", 30, Some(10)));
        assert_eq!(win.text, "theirs");
        assert_eq!(kept, ["mine"]);
        let (win, kept) = merged(note("theirs", 30, Some(10)), note("mine", 20, Some(10)));
        assert_eq!(
            (win.text.as_str(), kept),
            ("theirs", vec!["mine".to_string()])
        );
    }

    #[test]
    fn an_unsaved_loser_is_always_kept() {
        let mut mine = note("mine", 20, Some(10));
        mine.unsaved = true;
        // The winner's base is newer than `mine`, yet it never saw it.
        let (win, kept) = merged(mine, note("theirs", 30, Some(25)));
        assert_eq!(
            (win.text.as_str(), kept),
            ("theirs", vec!["mine".to_string()])
        );
    }

    #[test]
    fn removals_and_equal_texts_lose_nothing() {
        let (win, kept) = merged(note("", 20, Some(10)), note("text", 30, Some(10)));
        assert_eq!((win.text.as_str(), kept.len()), ("text", 0));
        let (win, kept) = merged(note("same", 20, None), note("same", 30, None));
        assert_eq!((win.at, kept.len()), (Stamp(30), 0));
        // A removal that did not see an edit keeps the edit.
        let (win, kept) = merged(note("", 30, Some(10)), note("edit", 20, Some(10)));
        assert_eq!((win.live(), kept), (None, vec!["edit".to_string()]));
    }

    #[test]
    fn a_dismissal_wins_and_round_trips() {
        let mut a = Conflicts::default();
        assert!(a.keep("p", Stamp(1), "x".into()));
        assert!(!a.keep("p", Stamp(1), "x".into()));
        let mut b = a.clone();
        assert!(b.dismiss("p", Stamp(1), Stamp(9)));
        assert!(!b.keep("p", Stamp(1), "x".into()), "dismissed for good");
        a.keep("q", Stamp(2), "y".into());
        let mut ab = a.clone();
        ab.absorb(b.clone());
        let mut ba = b;
        ba.absorb(a);
        assert_eq!(ab, ba);
        let live: Vec<_> = ab.iter().map(|c| (c.paper, c.text)).collect();
        assert_eq!(live, [("q", "y")]);
        let text = serde_json::to_string(&ab).unwrap();
        assert_eq!(serde_json::from_str::<Conflicts>(&text).unwrap(), ab);
    }

    #[test]
    fn notes_past_the_limit_are_refused() {
        assert!(check_note(&"x".repeat(NOTE_MAX_BYTES)).is_ok());
        let e = check_note(&"x".repeat(NOTE_MAX_BYTES + 1)).unwrap_err();
        assert!(e.contains("64 KiB"), "{e}");
        assert_eq!(check_note(" \n\t").unwrap(), "");
    }
}
