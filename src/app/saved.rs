//! Saved searches: the query (and the view it was typed in) kept under a
//! name, and recalled from a small picker.

use super::App;
use crate::store::Edit;
use crate::vocabulary::{Action, Mode};

/// A saved search as the picker lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Saved {
    /// Its name.
    pub name: String,
    /// The query.
    pub query: String,
    /// The view it was saved in (empty: any).
    pub view: String,
}

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

impl App {
    /// The saved searches, by name, for the picker.
    pub fn saved_searches(&self) -> Vec<Saved> {
        self.store
            .saved_searches()
            .into_iter()
            .map(|s| Saved {
                name: s.name.clone(),
                query: s.query.clone(),
                view: s.scope.clone(),
            })
            .collect()
    }

    /// The picker's chosen row, while it is open.
    pub fn picker(&self) -> Option<usize> {
        self.picker.filter(|_| self.mode == Mode::Pick)
    }

    /// Opens the picker of saved searches.
    pub(super) fn open_picker(&mut self) {
        if self.store.saved_searches().is_empty() {
            self.status = Some("no saved searches yet · S saves the query".to_string());
            return;
        }
        self.leave_related();
        self.picker = Some(0);
        self.mode = Mode::Pick;
    }

    /// Takes an action in the picker.
    pub(super) fn picker_act(&mut self, action: Action) {
        let saved = self.saved_searches();
        let at = self.picker.unwrap_or(0).min(saved.len().saturating_sub(1));
        match action {
            Action::Down => self.picker = Some((at + 1).min(saved.len().saturating_sub(1))),
            Action::Up => self.picker = Some(at.saturating_sub(1)),
            Action::AcceptLine => {
                self.mode = Mode::Browse;
                if let Some(s) = saved.get(at) {
                    self.recall(s);
                }
            }
            Action::RemoveSaved => {
                if let Some(s) = saved.get(at) {
                    let edit = Edit::Search {
                        name: s.name.clone(),
                        saved: None,
                    };
                    if self.edit(vec![edit]) {
                        self.status = Some(format!("removed {:?} · u undoes", s.name));
                    }
                    if saved.len() == 1 {
                        self.mode = Mode::Browse;
                    }
                }
            }
            Action::Quit => {
                self.save_place();
                self.quit = true;
            }
            _ => self.mode = Mode::Browse,
        }
    }

    /// Puts a saved search's query (and view) back.
    fn recall(&mut self, s: &Saved) {
        self.input.clear();
        for c in s.query.chars() {
            self.input.insert(c);
        }
        if !s.view.is_empty() {
            self.set_view_named(&s.view);
        }
        self.sticky = None;
        self.query_changed();
        let keep = self.selected_paper();
        self.rebuild_rows(keep);
        self.status = Some(format!("search {:?}: {}", s.name, s.query));
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use crate::vocabulary::{Action, Mode, View};

    fn save_as(app: &mut super::App, name: &str) {
        app.apply(Action::SaveSearch);
        for c in name.chars() {
            app.apply(Action::Insert(c));
        }
        app.apply(Action::AcceptLine);
    }

    #[test]
    fn a_named_query_is_recalled_with_its_view_and_removed() {
        let (mut app, dir) = app();
        app.apply(Action::RecallSearch);
        assert_eq!(app.mode(), Mode::Browse);
        assert!(app.status().unwrap().contains("no saved searches"));
        app.apply(Action::SaveSearch);
        assert!(app.status().unwrap().contains("type a query first"));
        app.apply(Action::CycleView); // unread
        app.apply(Action::StartSearch);
        typed(&mut app, "framework");
        app.apply(Action::AcceptSearch);
        let n = app.rows();
        save_as(&mut app, "frameworks");
        assert!(app.status().unwrap().starts_with("saved the search"));
        app.apply(Action::ClearQuery);
        app.apply(Action::StartSearch);
        app.apply(Action::CancelSearch);
        while app.view() != View::All {
            app.apply(Action::CycleView);
        }
        settle(&mut app);
        assert_eq!(app.rows(), 38);
        let mut again = app_in(dir.path());
        again.apply(Action::RecallSearch);
        assert_eq!(again.mode(), Mode::Pick);
        assert_eq!(again.saved_searches()[0].name, "frameworks");
        again.apply(Action::AcceptLine);
        settle(&mut again);
        assert_eq!(again.input().text(), "framework");
        assert_eq!(again.view(), View::Unread);
        assert_eq!(again.rows(), n);
        again.apply(Action::RecallSearch);
        again.apply(Action::RemoveSaved);
        assert!(again.saved_searches().is_empty());
        assert_eq!(again.mode(), Mode::Browse);
        again.apply(Action::Undo);
        assert_eq!(again.saved_searches().len(), 1);
    }
}
