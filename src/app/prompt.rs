//! The line editor at the top for what the reader asks a line of: tags to
//! add or remove, a name for the query. It edits its own line (the query
//! stays as it was) and hands it on when Enter is pressed.

use super::{App, LineInput};
use crate::vocabulary::{Action, Mode};

/// What the line is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prompt {
    /// Tags to add or remove on the paper or the selection.
    Tags,
    /// A name to save the query under.
    SearchName,
}

impl Prompt {
    /// The label before the line.
    pub fn label(self) -> &'static str {
        match self {
            Prompt::Tags => "tags",
            Prompt::SearchName => "save search as",
        }
    }
}

impl App {
    /// The line being typed and what it is for, in [`Mode::Prompt`].
    pub fn prompt(&self) -> Option<(Prompt, &LineInput)> {
        self.prompt.map(|p| (p, &self.line))
    }

    /// Opens the line editor for `what`, holding `text`.
    pub(super) fn open_prompt(&mut self, what: Prompt, text: &str) {
        self.prompt = Some(what);
        self.prompt_return = if self.mode == Mode::Triage {
            Mode::Triage
        } else {
            Mode::Browse
        };
        self.line.clear();
        for c in text.chars() {
            self.line.insert(c);
        }
        self.mode = Mode::Prompt;
    }

    /// Takes an action in the line editor.
    pub(super) fn prompt_act(&mut self, action: Action) {
        match action {
            Action::Insert(c) => self.line.insert(c),
            Action::Backspace => self.line.backspace(),
            Action::DeleteForward => self.line.delete(),
            Action::DeleteWord => self.line.delete_word(),
            Action::ClearQuery => self.line.clear(),
            Action::CursorLeft => self.line.set_cursor(self.line.prev_boundary()),
            Action::CursorRight => self.line.set_cursor(self.line.next_boundary()),
            Action::CursorHome => self.line.set_cursor(0),
            Action::CursorEnd => self.line.set_cursor(self.line.text().len()),
            Action::Complete if self.prompt == Some(Prompt::Tags) => self.complete_tag(),
            Action::CancelLine => self.close_prompt(),
            Action::AcceptLine => {
                let text = self.line.text().to_string();
                let what = self.prompt;
                self.close_prompt();
                match what {
                    Some(Prompt::Tags) => self.apply_tags(&text),
                    Some(Prompt::SearchName) => self.save_search(&text),
                    None => {}
                }
            }
            Action::Quit => {
                self.save_place();
                self.quit = true;
            }
            _ => {}
        }
    }

    fn close_prompt(&mut self) {
        self.prompt = None;
        self.line.clear();
        self.mode = self.prompt_return;
    }
}
