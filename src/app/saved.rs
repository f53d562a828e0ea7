//! Saved searches: the query (and the view it was typed in) kept under a
//! name, and recalled from a small picker.

use super::App;
use crate::store::Edit;

impl App {
    /// Opens the line editor for a name to save the query under.
    pub(super) fn name_search(&mut self) {
        if self.input.text().trim().is_empty() {
            self.status = Some("type a query first (/), then name it".to_string());
            return;
        }
        self.open_prompt(super::prompt::Prompt::SearchName, "");
    }

    /// Saves the query under `name`, with the view it was typed in.
    pub(super) fn save_search(&mut self, name: &str) {
        let name = name.trim();
        if name.is_empty() {
            return;
        }
        let edit = Edit::Search {
            name: name.to_string(),
            saved: Some((self.input.text().to_string(), self.view_name())),
        };
        if self.edit(vec![edit]) {
            self.status = Some(format!("saved the search as {name:?} · u undoes"));
        }
    }
}
