//! Tags on the paper or the selection, typed in the line editor: `+name`
//! puts a tag on, `-name` takes it off, a bare name toggles it (on for all
//! when any lacks it); `"two words"` for a tag with spaces. Tab completes
//! from the tags already in use. Every change is one undoable step.

use super::App;
use crate::store::{Edit, StoreError};

/// What a word of the line asks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum TagOp {
    /// Put the tag on.
    Add(String),
    /// Take it off.
    Remove(String),
    /// On for all when any lacks it, else off.
    Toggle(String),
}

/// The words of a tag line: split at spaces except inside double quotes,
/// each with its `+` or `-`. Linear in the line.
pub(super) fn parse(line: &str) -> Vec<TagOp> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            c if c.is_whitespace() && !quoted => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            c => word.push(c),
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
        .into_iter()
        .filter_map(|w| {
            let op = if let Some(t) = w.strip_prefix('+') {
                TagOp::Add(t.trim().to_string())
            } else if let Some(t) = w.strip_prefix('-') {
                TagOp::Remove(t.trim().to_string())
            } else {
                TagOp::Toggle(w)
            };
            match &op {
                TagOp::Add(t) | TagOp::Remove(t) | TagOp::Toggle(t) if t.is_empty() => None,
                _ => Some(op),
            }
        })
        .collect()
}

impl App {
    /// Opens the line editor for tags on the paper or the selection.
    pub(super) fn edit_tags(&mut self) {
        if self.targets().is_empty() {
            self.status = Some("no paper to tag".to_string());
            return;
        }
        self.open_prompt(super::prompt::Prompt::Tags, "");
        let shown = self.targets_tags();
        self.status = Some(if shown.is_empty() {
            "+tag puts on, -tag takes off, a name toggles · Tab completes".to_string()
        } else {
            format!("has: {} · +tag -tag or a name toggles", shown.join(", "))
        });
    }

    /// The tags of the first target (what the editor starts from).
    fn targets_tags(&self) -> Vec<String> {
        let targets = self.targets();
        let Some(&first) = targets.first() else {
            return Vec::new();
        };
        let id = self.corpus.papers[first].id.as_str();
        self.store.tags(id).iter().map(|t| t.to_string()).collect()
    }

    /// Applies a tag line to the paper or the selection.
    pub(super) fn apply_tags(&mut self, line: &str) {
        let targets = self.targets();
        let ids: Vec<String> = targets
            .iter()
            .map(|&i| self.corpus.papers[i].id.to_string())
            .collect();
        let mut edits = Vec::new();
        for op in parse(line) {
            let (tag, on) = match op {
                TagOp::Add(t) => (t, true),
                TagOp::Remove(t) => (t, false),
                TagOp::Toggle(t) => {
                    let all = ids.iter().all(|id| self.store.has_tag(id, &t));
                    (t, !all)
                }
            };
            edits.extend(ids.iter().map(|id| Edit::Tag {
                id: id.clone(),
                tag: tag.clone(),
                on,
            }));
        }
        if edits.is_empty() {
            return;
        }
        let n = ids.len();
        if self.edit(edits) {
            self.status = Some(format!(
                "tags changed on {n} paper{} · u undoes",
                if n == 1 { "" } else { "s" }
            ));
        }
        let keep = self.selected_paper();
        self.rebuild_rows(keep);
    }

    /// Gives the matcher the papers' tags and notes, for `tag:` and
    /// `note:`, when they changed and the query asks for them (reading
    /// them costs a look-up a paper).
    pub(super) fn sync_labels(&mut self) {
        if !self.labels_dirty || !self.search.asks_labels() {
            return;
        }
        let numbers = self
            .search
            .parsed()
            .asks_topics()
            .then(|| self.topic_numbers());
        let store = &self.store;
        let ids = crate::vocabulary::IdList::of_papers(&self.corpus.papers).resolved();
        let mut labels =
            crate::search::Labels::of(ids.iter(), |id| store.tags(id), |id| store.note(id));
        if let Some(numbers) = numbers {
            labels.set_topics(numbers);
        }
        self.search.set_labels(labels);
        self.labels_dirty = false;
    }

    /// Applies edits to the store as one undoable change and saves;
    /// returns whether anything changed.
    pub(super) fn edit(&mut self, edits: Vec<Edit>) -> bool {
        match self.store.apply(&edits) {
            Ok(undo) if undo.is_empty() => {
                self.status = Some("nothing changed".to_string());
                false
            }
            Ok(undo) => {
                self.labels_dirty = true;
                self.undo.push(super::marks::Change::edits(undo));
                self.redo.clear();
                let result = self.store.save();
                self.saved(result);
                true
            }
            Err(StoreError::Invalid(why)) => {
                self.status = Some(why);
                false
            }
            Err(e) => {
                self.saved(Err(e));
                false
            }
        }
    }

    /// Completes the tag at the cursor from the tags in use: the whole
    /// tag when one fits, else as far as they agree, naming them.
    pub(super) fn complete_tag(&mut self) {
        let text = self.line.text().to_string();
        let cursor = self.line.cursor();
        let start = text[..cursor]
            .rfind(|c: char| c.is_whitespace() || c == '"')
            .map_or(0, |p| p + 1);
        let mut from = start;
        while text[from..cursor].starts_with(['+', '-']) {
            from += 1;
        }
        let prefix = text[from..cursor].to_lowercase();
        let names: Vec<String> = self
            .store
            .all_tags()
            .into_iter()
            .map(|(name, _)| name)
            .filter(|name| name.to_lowercase().starts_with(&prefix))
            .collect();
        let fill = match names.as_slice() {
            [] => {
                self.status = Some("no tag starts so".to_string());
                return;
            }
            [one] if one.contains(' ') && !text[..from].ends_with('"') => {
                format!("\"{one}\" ")
            }
            [one] if one.contains(' ') => format!("{one}\" "),
            [one] => format!("{one} "),
            many => {
                self.status = Some(format!("tags: {}", many.join(", ")));
                common_prefix(many)
            }
        };
        if fill.chars().count() < prefix.chars().count() {
            return;
        }
        // The typed prefix is replaced by the tag as written.
        for _ in text[from..cursor].chars() {
            self.line.backspace();
        }
        for c in fill.chars() {
            self.line.insert(c);
        }
    }
}

/// The longest start the names share, compared without case (as the first
/// writes it).
fn common_prefix(names: &[String]) -> String {
    let first = &names[0];
    let mut end = first.len();
    for other in &names[1..] {
        let mut shared = 0;
        for ((i, a), b) in first.char_indices().zip(other.chars()) {
            if a.to_lowercase().ne(b.to_lowercase()) {
                break;
            }
            shared = i + a.len_utf8();
        }
        end = end.min(shared);
    }
    first[..end].to_string()
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;
    use crate::vocabulary::{Action, Message, Mode, View};

    fn line(app: &mut super::App, s: &str) {
        for c in s.chars() {
            app.apply(Action::Insert(c));
        }
    }

    fn tags_of(app: &super::App, i: usize) -> Vec<String> {
        let id = app.corpus().papers[i].id.as_str();
        app.store().tags(id).iter().map(|t| t.to_string()).collect()
    }

    #[test]
    fn the_line_reads_adds_removes_toggles_and_quotes() {
        assert_eq!(
            parse(r#"+a -b c "to review" +"x y"  - +"#),
            vec![
                TagOp::Add("a".into()),
                TagOp::Remove("b".into()),
                TagOp::Toggle("c".into()),
                TagOp::Toggle("to review".into()),
                TagOp::Add("x y".into()),
            ]
        );
    }

    #[test]
    fn tags_go_on_the_selection_undo_in_one_step_and_persist() {
        let (mut app, dir) = app();
        app.apply(Action::TogglePick); // 0
        app.apply(Action::TogglePick); // 1
        app.apply(Action::EditTags);
        assert_eq!(app.mode(), Mode::Prompt);
        line(&mut app, "LoRA +\"to review\"");
        app.apply(Action::AcceptLine);
        assert_eq!(app.mode(), Mode::Browse);
        assert_eq!(tags_of(&app, 0), ["LoRA", "to review"]);
        assert_eq!(tags_of(&app, 1), ["LoRA", "to review"]);
        assert!(tags_of(&app, 2).is_empty());
        // A bare name all of them have comes off.
        app.apply(Action::EditTags);
        line(&mut app, "lora");
        app.apply(Action::AcceptLine);
        assert_eq!(tags_of(&app, 0), ["to review"]);
        app.apply(Action::Undo);
        assert_eq!(tags_of(&app, 1), ["LoRA", "to review"]);
        app.apply(Action::Undo);
        assert!(tags_of(&app, 0).is_empty() && tags_of(&app, 1).is_empty());
        app.apply(Action::Redo);
        assert_eq!(tags_of(&app, 0), ["LoRA", "to review"]);
        let reopened = app_in(dir.path());
        assert_eq!(tags_of(&reopened, 1), ["LoRA", "to review"]);
    }

    #[test]
    fn a_tag_query_follows_the_tags_as_they_change() {
        let (mut app, _dir) = app();
        app.apply(Action::StartSearch);
        typed(&mut app, "tag:lora");
        assert_eq!(app.rows(), 0);
        app.apply(Action::AcceptSearch);
        app.apply(Action::ClearQuery);
        settle(&mut app);
        let (a, b) = (app.paper_at(3).unwrap(), app.paper_at(7).unwrap());
        for row in [3, 7] {
            app.apply(Action::SelectRow(row));
            app.apply(Action::EditTags);
            line(&mut app, "LoRA");
            app.apply(Action::AcceptLine);
        }
        app.apply(Action::StartSearch);
        typed(&mut app, "tag:lora");
        app.update(Message::Tick);
        settle(&mut app);
        let mut shown: Vec<usize> = (0..app.rows()).filter_map(|r| app.paper_at(r)).collect();
        shown.sort();
        let mut want = vec![a, b];
        want.sort();
        assert_eq!(shown, want);
        // Taken off one: the query runs again.
        app.apply(Action::AcceptSearch);
        app.apply(Action::SelectRow(0));
        app.apply(Action::EditTags);
        line(&mut app, "-lora");
        app.apply(Action::AcceptLine);
        app.update(Message::Tick);
        settle(&mut app);
        assert_eq!(app.rows(), 1);
    }

    #[test]
    fn escape_leaves_the_tags_and_the_query_alone() {
        let (mut app, _dir) = app();
        app.apply(Action::EditTags);
        line(&mut app, "q");
        assert_eq!(app.mode(), Mode::Prompt, "q types in the line");
        app.apply(Action::CancelLine);
        assert_eq!(app.mode(), Mode::Browse);
        assert!(tags_of(&app, 0).is_empty());
        assert_eq!(app.input().text(), "");
        assert!(!app.quitting());
    }

    #[test]
    fn tab_completes_from_the_tags_in_use() {
        let (mut app, _dir) = app();
        app.apply(Action::EditTags);
        line(&mut app, "reading-group robustness \"to review\"");
        app.apply(Action::AcceptLine);
        app.apply(Action::Down);
        app.apply(Action::EditTags);
        line(&mut app, "+REA");
        app.apply(Action::Complete);
        assert_eq!(app.prompt().unwrap().1.text(), "+reading-group ");
        line(&mut app, "r");
        app.apply(Action::Complete);
        assert_eq!(app.prompt().unwrap().1.text(), "+reading-group r");
        assert_eq!(app.status(), Some("tags: reading-group, robustness"));
        line(&mut app, "o");
        app.apply(Action::Complete);
        assert_eq!(app.prompt().unwrap().1.text(), "+reading-group robustness ");
        line(&mut app, "to");
        app.apply(Action::Complete);
        assert_eq!(
            app.prompt().unwrap().1.text(),
            "+reading-group robustness \"to review\" "
        );
        app.apply(Action::AcceptLine);
        assert_eq!(
            tags_of(&app, 1),
            ["reading-group", "robustness", "to review"]
        );
    }

    #[test]
    fn a_view_per_tag_in_the_cycle() {
        let (mut app, _dir) = app();
        for (row, tag) in [(3, "beta"), (5, "alpha"), (6, "alpha")] {
            app.apply(Action::SelectRow(row));
            app.apply(Action::EditTags);
            line(&mut app, tag);
            app.apply(Action::AcceptLine);
        }
        let mut seen = Vec::new();
        for _ in 0..6 {
            app.apply(Action::CycleView);
            seen.push((app.view(), app.view_tag().map(str::to_string), app.rows()));
        }
        assert_eq!(
            seen,
            [
                (View::Unread, None, 38),
                (View::Bookmarked, None, 0),
                (View::New, None, 0),
                (View::Tagged, Some("alpha".to_string()), 2),
                (View::Tagged, Some("beta".to_string()), 1),
                (View::All, None, 38),
            ]
        );
    }

    #[test]
    fn the_views_cycle_through_the_tags_of_the_open_files_alone() {
        let dir = tempfile::tempdir().unwrap();
        {
            // A tag of a paper of another file, kept in the same list.
            let (mut store, _) = crate::store::Store::open(dir.path());
            store
                .set_tag("arxiv:1706.03762", "elsewhere", true)
                .unwrap();
            store.save().unwrap();
        }
        let mut app = app_in(dir.path());
        app.apply(Action::SelectRow(2));
        app.apply(Action::EditTags);
        line(&mut app, "here");
        app.apply(Action::AcceptLine);
        assert_eq!(app.open_tags(), ["here"]);
        let mut tags = Vec::new();
        for _ in 0..6 {
            app.apply(Action::CycleView);
            tags.extend(app.view_tag().map(str::to_string));
        }
        assert_eq!(tags, ["here"]);
    }

    #[test]
    fn a_tag_the_store_refuses_is_said_and_nothing_changes() {
        let (mut app, _dir) = app();
        app.apply(Action::EditTags);
        line(&mut app, &"x".repeat(65));
        app.apply(Action::AcceptLine);
        assert!(tags_of(&app, 0).is_empty());
        assert!(
            app.status().unwrap_or("").contains("64"),
            "{:?}",
            app.status()
        );
    }
}
