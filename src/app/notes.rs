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

    /// The editor is closed: saves the note it left, when it changed.
    pub(super) fn note_edited(&mut self, id: &str, result: Result<String, String>) {
        let text = match result {
            Ok(text) => text,
            Err(e) => {
                self.status = Some(e);
                self.redraw();
                return;
            }
        };
        let before = self.store.note(id).unwrap_or_default();
        if text.trim_end() == before.trim_end() {
            self.status = Some("the note is unchanged".to_string());
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
            result: Ok("Compare with **adapters**.\n".into()),
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
            result: Ok("  \n".into()),
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
}
