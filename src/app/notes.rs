//! A paper's note: `e` asks the event loop to open the user's editor on
//! it (the terminal is handed over and taken back there); the text that
//! comes back is saved as one undoable change.

use super::App;
use crate::store::Edit;
use crate::vocabulary::Effect;

impl App {
    /// Asks for the editor on the note of the paper shown.
    pub(super) fn edit_note(&mut self) {
        let Some(i) = self.selected_paper() else {
            self.status = Some("no paper to write a note on".to_string());
            return;
        };
        if let Some(why) = self.store.read_only() {
            self.status = Some(format!("notes are not saved: {why}"));
            return;
        }
        let id = self.corpus.papers[i].id.to_string();
        let text = self.store.note(&id).unwrap_or_default().to_string();
        self.save_place();
        self.effects.push(Effect::EditNote { id, text });
    }

    /// The editor is closed: saves the note it left, when it changed. A
    /// note that cannot be saved (not UTF-8, longer than a note may be)
    /// is kept in a file of its own, whose path the status line gives.
    pub(super) fn note_edited(&mut self, id: &str, result: Result<Vec<u8>, String>) {
        let bytes = match result {
            Ok(bytes) => bytes,
            Err(e) => {
                self.status = Some(e);
                self.redraw();
                return;
            }
        };
        let text = match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) => {
                self.keep_unsaved(id, e.as_bytes(), "it is not UTF-8");
                return;
            }
        };
        let before = self.store.note(id).unwrap_or_default();
        if text.trim_end() == before.trim_end() {
            self.status = Some("the note is unchanged".to_string());
        } else if let Err(why) = crate::store::check_note(&text) {
            self.keep_unsaved(id, text.as_bytes(), &why);
            return;
        } else if self.edit(vec![Edit::Note {
            id: id.to_string(),
            text: text.clone(),
        }]) {
            self.status = Some(if text.trim().is_empty() {
                "note removed · u undoes".to_string()
            } else {
                "note saved · u undoes".to_string()
            });
        }
        self.redraw();
    }

    /// Keeps a note that cannot be saved in a file and says where.
    fn keep_unsaved(&mut self, id: &str, bytes: &[u8], why: &str) {
        self.status = Some(match self.store.keep_unsaved_note(id, bytes) {
            Ok(path) => format!(
                "the note could not be saved ({why}); it is kept in {}",
                crate::text::sanitize::line(&path.display().to_string())
            ),
            Err(e) => format!("the note could not be saved ({why}) nor kept in a file: {e}"),
        });
        self.redraw();
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use crate::vocabulary::{Action, Effect, Message};

    fn note(app: &super::App, i: usize) -> Option<String> {
        let id = app.corpus().papers[i].id.as_str();
        app.store().note(id).map(str::to_string)
    }

    #[test]
    fn e_asks_for_the_editor_and_its_text_is_saved_and_undone() {
        let (mut app, dir) = app();
        app.apply(Action::SelectRow(2));
        let effects = app.apply(Action::EditNote);
        let id = app.corpus().papers[2].id.to_string();
        assert!(
            effects.contains(&Effect::EditNote {
                id: id.clone(),
                text: String::new()
            }),
            "{effects:?}"
        );
        app.update(Message::NoteEdited {
            id: id.clone(),
            result: Ok(b"Compare with **adapters**.\n".to_vec()),
        });
        assert_eq!(
            note(&app, 2).as_deref(),
            Some("Compare with **adapters**.\n")
        );
        assert_eq!(app.status(), Some("note saved · u undoes"));
        // The note is in the abstract pane.
        let page = app.page(2, 60);
        let text: String = page
            .lines
            .iter()
            .flatten()
            .map(|p| p.text.as_str())
            .collect();
        assert!(text.contains("Note") && text.contains("adapters"), "{text}");
        // The editor opens on the note as it is.
        let effects = app.apply(Action::EditNote);
        assert!(effects.contains(&Effect::EditNote {
            id: id.clone(),
            text: "Compare with **adapters**.\n".into()
        }));
        app.update(Message::NoteEdited {
            id: id.clone(),
            result: Ok(b"  \n".to_vec()),
        });
        assert_eq!(note(&app, 2), None, "a blank note removes it");
        app.apply(Action::Undo);
        assert_eq!(
            note(&app, 2).as_deref(),
            Some("Compare with **adapters**.\n")
        );
        let reopened = app_in(dir.path());
        assert!(note(&reopened, 2).is_some());
    }

    #[test]
    fn an_editor_that_failed_changes_nothing_and_says_why() {
        let (mut app, _dir) = app();
        let id = app.corpus().papers[0].id.to_string();
        app.update(Message::NoteEdited {
            id,
            result: Err("the editor vi exited with 1; the note is unchanged".into()),
        });
        assert_eq!(note(&app, 0), None);
        assert!(app.status().unwrap().contains("exited with 1"));
    }

    #[test]
    fn a_note_that_cannot_be_saved_is_kept_in_a_file_the_status_names() {
        let (mut app, dir) = app();
        let id = app.corpus().papers[0].id.to_string();
        for (bytes, why) in [
            (b"caf\xe9\n".to_vec(), "it is not UTF-8"),
            (vec![b'x'; crate::store::NOTE_MAX_BYTES + 1], "at most"),
        ] {
            app.update(Message::NoteEdited {
                id: id.clone(),
                result: Ok(bytes.clone()),
            });
            assert_eq!(note(&app, 0), None);
            let status = app.status().unwrap().to_string();
            assert!(status.contains(why), "{status}");
            let path = status.split("it is kept in ").nth(1).unwrap();
            assert!(path.starts_with(dir.path().to_str().unwrap()), "{path}");
            assert_eq!(std::fs::read(path).unwrap(), bytes);
        }
    }
}
