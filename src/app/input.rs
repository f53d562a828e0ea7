//! The query being typed: a line of text with a cursor, edited by the
//! search mode's keys.

/// The query being typed, with a cursor (a byte offset on a char boundary).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineInput {
    /// The text.
    text: String,
    /// Cursor position in bytes.
    cursor: usize,
}

impl LineInput {
    /// The text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Cursor position in bytes.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// Puts the cursor at byte `at` (a char boundary).
    pub(super) fn set_cursor(&mut self, at: usize) {
        self.cursor = at;
    }

    pub(super) fn prev_boundary(&self) -> usize {
        self.text[..self.cursor]
            .char_indices()
            .next_back()
            .map_or(0, |(i, _)| i)
    }

    pub(super) fn next_boundary(&self) -> usize {
        self.text[self.cursor..]
            .chars()
            .next()
            .map_or(self.cursor, |c| self.cursor + c.len_utf8())
    }

    pub(super) fn insert(&mut self, c: char) {
        self.text.insert(self.cursor, c);
        self.cursor += c.len_utf8();
    }

    pub(super) fn backspace(&mut self) {
        if self.cursor > 0 {
            let p = self.prev_boundary();
            self.text.replace_range(p..self.cursor, "");
            self.cursor = p;
        }
    }

    pub(super) fn delete(&mut self) {
        let n = self.next_boundary();
        self.text.replace_range(self.cursor..n, "");
    }

    pub(super) fn delete_word(&mut self) {
        let before = &self.text[..self.cursor];
        let trimmed = before.trim_end();
        let start = trimmed.rfind(' ').map_or(0, |p| p + 1);
        self.text.replace_range(start..self.cursor, "");
        self.cursor = start;
    }

    pub(super) fn clear(&mut self) {
        self.text.clear();
        self.cursor = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use crate::vocabulary::{Action, Mode};

    #[test]
    fn search_mode_types_j_and_k_and_filters() {
        let (mut app, _dir) = app();
        app.apply(Action::StartSearch);
        assert_eq!(app.mode(), Mode::Search);
        typed(&mut app, "orchjail");
        assert_eq!(app.input().text(), "orchjail");
        assert_eq!(app.rows(), 1);
        let p = &app.corpus().papers[app.selected_paper().unwrap()];
        assert!(p.title.starts_with("OrchJail"), "{}", p.title);
        app.apply(Action::AcceptSearch);
        assert_eq!(app.mode(), Mode::Browse);
        assert_eq!(app.rows(), 1, "Enter keeps the filter");
        app.apply(Action::StartSearch);
        app.apply(Action::CancelSearch);
        settle(&mut app);
        assert_eq!(app.rows(), 38, "Esc clears it");
    }

    #[test]
    fn editing_the_query() {
        let (mut app, _dir) = app();
        app.apply(Action::StartSearch);
        typed(&mut app, "sparse attn");
        app.apply(Action::DeleteWord);
        assert_eq!(app.input().text(), "sparse ");
        app.apply(Action::CursorHome);
        app.apply(Action::Insert('x'));
        assert_eq!(app.input().text(), "xsparse ");
        app.apply(Action::CursorRight);
        app.apply(Action::Backspace);
        assert_eq!(app.input().text(), "xparse ");
        app.apply(Action::DeleteForward);
        assert_eq!(app.input().text(), "xarse ");
        app.apply(Action::ClearQuery);
        assert_eq!(app.input().text(), "");
    }
}
