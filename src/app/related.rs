//! "More like this": the list replaced by the papers most like the
//! selected one, best first. Related lists stack: each level remembers
//! where the list below it was left (the selected paper, the scroll of the
//! list and of the abstract, the focus), and going back puts that place
//! back as it was. A related list is its own list: the query and the view
//! do not filter it, and the keys that change them act on the list below,
//! so they go back to it first.

use super::App;
use crate::search::Probe;
use crate::vocabulary::Focus;

/// Papers a related list holds at most.
pub const RELATED_LIMIT: usize = 50;

/// Where a list was left.
#[derive(Clone, Debug)]
pub(super) struct BackTo {
    paper: Option<usize>,
    selected: usize,
    list_offset: usize,
    detail_scroll: usize,
    focus: Focus,
    chosen_link: Option<usize>,
    match_line: Option<usize>,
    sticky: Option<usize>,
}

/// One related list, or a topic's papers.
#[derive(Clone, Debug)]
pub(super) struct Level {
    /// The paper the list is like (none: a topic's).
    of: Option<usize>,
    /// The topic listed: its number and label.
    topic: Option<(usize, String)>,
    /// The related papers, best first.
    pub(super) rows: Vec<u32>,
    /// Where the list below was left.
    back: BackTo,
}

impl App {
    /// The paper the listed papers are like, while a related list is shown.
    pub fn related_to(&self) -> Option<usize> {
        self.related.last().and_then(|l| l.of)
    }

    /// The topic whose papers are listed (its number, its label), while
    /// one is shown from the overview.
    pub fn topic_shown(&self) -> Option<(usize, &str)> {
        let (n, label) = self.related.last()?.topic.as_ref()?;
        Some((*n, label.as_str()))
    }

    /// How many related lists are stacked over the list (0: none shown).
    pub fn related_depth(&self) -> usize {
        self.related.len()
    }

    /// Replaces the list by the papers most like the selected one; says
    /// in the status line when there is no paper or nothing like it.
    pub(super) fn show_related(&mut self) {
        let Some(of) = self.selected_paper() else {
            self.status = Some("no paper is selected".to_string());
            return;
        };
        let found = self.search.related(
            &self.corpus.papers,
            Probe::Paper(of),
            RELATED_LIMIT,
            &|_| true,
        );
        let (indexed, total) = self.search.indexed();
        if found.is_empty() {
            self.status = Some(if indexed < total {
                format!("no paper like this one among the {indexed} indexed so far (of {total})")
            } else {
                "no paper in the open lists is like this one".to_string()
            });
            return;
        }
        if indexed < total {
            self.status = Some(format!(
                "like this among the {indexed} papers indexed so far (of {total}): m again later for all"
            ));
        }
        self.push_level(Some(of), None, found.iter().map(|r| r.idx as u32).collect());
    }

    /// Lists topic number `n`'s papers over the list.
    pub(super) fn show_topic(&mut self, n: usize, topic: crate::search::learn::Topic) {
        let rows = topic.papers.iter().map(|&i| i as u32).collect();
        self.push_level(None, Some((n, topic.label)), rows);
    }

    /// Shows `rows` over the list, remembering where the list was left.
    fn push_level(&mut self, of: Option<usize>, topic: Option<(usize, String)>, rows: Vec<u32>) {
        // The user has chosen where to be: a place still to be restored
        // from the last session is dropped.
        self.restore = None;
        let back = BackTo {
            paper: self.selected_paper(),
            selected: self.selected,
            list_offset: self.list_offset,
            detail_scroll: self.detail_scroll,
            focus: self.focus,
            chosen_link: self.chosen_link.take(),
            match_line: self.match_line.take(),
            sticky: self.sticky.take(),
        };
        self.related.push(Level {
            of,
            topic,
            rows,
            back,
        });
        self.selected = 0;
        self.list_offset = 0;
        self.detail_scroll = 0;
        self.focus = Focus::List;
        self.clamp();
    }

    /// Goes back one related list, to the place the list below was left;
    /// false when no related list is shown.
    pub(super) fn back(&mut self) -> bool {
        let Some(level) = self.related.pop() else {
            return false;
        };
        let p = level.back;
        self.selected = p.selected;
        if self.related.is_empty() {
            // Marks may have changed meanwhile: the paper stays listed, as
            // one just marked out of the view does, until the selection
            // moves. The ranking may have grown (a load): the paper is
            // found again where it is now.
            self.sticky = p.sticky.or(p.paper.filter(|&i| !self.shows(i)));
            self.rebuild_rows(p.paper);
        }
        self.list_offset = p.list_offset;
        self.focus = p.focus;
        self.chosen_link = p.chosen_link;
        self.match_line = p.match_line;
        self.detail_scroll = p.detail_scroll;
        self.clamp();
        true
    }

    /// Goes back to the list under every related list.
    pub(super) fn leave_related(&mut self) {
        self.related.truncate(1);
        self.back();
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;
    use crate::search::{Scope, related_papers};
    use crate::vocabulary::{Action, Message, Mode, View};

    /// The papers the list shows, top to bottom.
    fn listed(app: &App) -> Vec<usize> {
        (0..app.rows()).filter_map(|r| app.paper_at(r)).collect()
    }

    /// Everything that makes up where the list is: checked whole on the
    /// way back.
    fn place(
        app: &App,
    ) -> (
        Option<usize>,
        usize,
        usize,
        usize,
        Focus,
        String,
        View,
        usize,
    ) {
        (
            app.selected_paper(),
            app.selected(),
            app.list_offset(),
            app.detail_scroll(),
            app.focus(),
            app.input().text().to_string(),
            app.view(),
            app.rows(),
        )
    }

    #[test]
    fn m_lists_the_papers_most_like_the_selected_one_best_first() {
        let (mut app, _dir) = app();
        app.apply(Action::SelectRow(1));
        let of = app.selected_paper().unwrap();
        app.apply(Action::Related);
        assert_eq!(app.related_to(), Some(of));
        assert_eq!(app.related_depth(), 1);
        let expected: Vec<usize> = related_papers(
            &app.corpus().papers,
            Probe::Paper(of),
            RELATED_LIMIT,
            &|_| true,
        )
        .iter()
        .map(|r| r.idx)
        .collect();
        assert!(expected.len() > 5, "{expected:?}");
        assert_eq!(listed(&app), expected);
        assert!(!listed(&app).contains(&of), "the paper itself is left out");
        assert_eq!(app.selected(), 0, "the best one is selected");
        assert_eq!(app.selected_paper(), Some(expected[0]));
        // The abstract pane shows the selected related paper.
        app.apply(Action::Down);
        let page = app.page(app.selected_paper().unwrap(), 60);
        let first: String = page.lines[0].iter().map(|p| p.text.as_str()).collect();
        let title = &app.corpus().papers[expected[1]].title;
        assert!(title.starts_with(first.trim_end()), "{first:?} / {title:?}");
    }

    #[test]
    fn the_related_list_ignores_the_query_and_the_view() {
        let (mut app, _dir) = app();
        app.apply(Action::StartSearch);
        typed(&mut app, "orchjail");
        app.apply(Action::AcceptSearch);
        assert_eq!(app.rows(), 1);
        let of = app.selected_paper().unwrap();
        app.apply(Action::Related);
        let expected = related_papers(&app.corpus().papers, Probe::Paper(of), 50, &|_| true);
        assert_eq!(app.rows(), expected.len());
        assert!(app.rows() > 1, "not filtered by the query");
        // Nothing is picked out: the related papers do not match a query.
        let page = app.page(app.selected_paper().unwrap(), 60);
        assert!(page.match_lines.is_empty());
    }

    #[test]
    fn back_returns_to_the_exact_place_through_nested_lists() {
        let (mut app, _dir) = app();
        app.update(Message::Resize(60, 20));
        // A query, a view, a selection below the first screen, the
        // abstract scrolled and focused.
        app.apply(Action::StartSearch);
        typed(&mut app, "a");
        app.apply(Action::AcceptSearch);
        app.apply(Action::CycleView);
        assert_eq!(app.view(), View::Unread);
        app.apply(Action::SelectRow(9));
        app.apply(Action::ScrollList(2));
        app.apply(Action::ToggleFocus);
        app.apply(Action::Down);
        app.apply(Action::Down);
        let start = place(&app);
        assert!(start.2 > 0 && start.3 == 2, "{start:?}");
        let of = app.selected_paper().unwrap();

        app.apply(Action::Related);
        assert_eq!(app.focus(), Focus::List, "the list has focus");
        app.apply(Action::SelectRow(3));
        app.apply(Action::ToggleFocus);
        app.apply(Action::Down);
        let first_level = place(&app);
        let second_of = app.selected_paper().unwrap();
        assert_ne!(second_of, of);

        app.apply(Action::Related);
        assert_eq!(app.related_depth(), 2);
        assert_eq!(app.related_to(), Some(second_of));
        app.apply(Action::Last);

        app.apply(Action::Back);
        assert_eq!(app.related_depth(), 1);
        assert_eq!(app.related_to(), Some(of));
        assert_eq!(place(&app), first_level);

        app.apply(Action::Back);
        assert_eq!(app.related_depth(), 0);
        assert_eq!(app.related_to(), None);
        assert_eq!(place(&app), start);
        // Esc on the list itself does nothing.
        app.apply(Action::Back);
        assert_eq!(place(&app), start);
    }

    #[test]
    fn a_ranking_that_arrives_meanwhile_leaves_the_related_list_alone() {
        let dir = tempfile::tempdir().unwrap();
        let mut app = streaming_app(dir.path());
        let (events, _) = two_batches();
        let mut events = events.into_iter();
        app.update(Message::Load(events.next().unwrap()));
        settle(&mut app);
        // The word index waits for the load to end: let it index the
        // papers come so far.
        app.search().hold_index(false);
        indexed(&app);
        app.apply(Action::SelectRow(4));
        let of = app.selected_paper().unwrap();
        app.apply(Action::Related);
        let shown = listed(&app);
        assert!(!shown.is_empty());
        app.apply(Action::Down);
        let selected = app.selected_paper();
        events.for_each(|e| {
            app.update(Message::Load(e));
        });
        app.update(Message::Loaded);
        settle(&mut app);
        assert_eq!(listed(&app), shown);
        assert_eq!(app.selected_paper(), selected);
        app.apply(Action::Back);
        assert_eq!(app.rows(), 38, "the list took in the papers that came");
        assert_eq!(app.selected_paper(), Some(of));
    }

    #[test]
    fn a_new_querys_ranking_taken_meanwhile_moves_nothing() {
        let (mut app, _dir) = app();
        app.apply(Action::StartSearch);
        for c in "graph".chars() {
            app.apply(Action::Insert(c));
        }
        app.apply(Action::AcceptSearch);
        // The ranking for the query is taken at the next tick, after `m`.
        app.apply(Action::Related);
        app.apply(Action::Down);
        app.apply(Action::Down);
        let selected = app.selected_paper();
        settle(&mut app);
        assert_eq!(app.selected(), 2);
        assert_eq!(app.selected_paper(), selected);
        app.apply(Action::Back);
        let graph = crate::search::rank_papers(&app.corpus().papers, "graph", Scope::Title);
        assert_eq!(app.rows(), graph.len(), "the list is the query's");
    }

    #[test]
    fn marks_work_in_the_related_list() {
        let (mut app, _dir) = app();
        app.apply(Action::CycleView); // unread
        app.apply(Action::SelectRow(2));
        let of = app.selected_paper().unwrap();
        app.apply(Action::Related);
        let rows = app.rows();
        app.apply(Action::Down);
        let p = app.selected_paper().unwrap();
        app.apply(Action::ToggleBookmark);
        app.apply(Action::ToggleRead);
        assert!(app.marks(p).bookmarked && app.marks(p).read);
        assert_eq!(app.rows(), rows, "a related list keeps papers read");
        app.apply(Action::Down);
        assert_eq!(app.rows(), rows, "also once the selection moves");
        let id = app.corpus().papers[p].id.to_string();
        assert!(app.store().state().is_on(&id, crate::store::Flag::Read));
        app.apply(Action::Undo);
        assert!(!app.marks(p).read);
        assert_eq!(app.selected_paper(), Some(p), "undo shows the paper");
        // Every related paper listed, marked read at once.
        app.apply(Action::MarkAllRead);
        assert_eq!(app.mode(), Mode::Confirm);
        app.apply(Action::ConfirmYes);
        assert_eq!(app.counts().read, rows);
        app.apply(Action::Back);
        assert_eq!(app.selected_paper(), Some(of));
        assert_eq!(app.rows(), 38 - rows, "the unread view without them");
    }

    #[test]
    fn a_paper_marked_out_of_the_view_meanwhile_is_there_on_the_way_back() {
        let (mut app, _dir) = app();
        app.apply(Action::CycleView); // unread
        app.apply(Action::SelectRow(2));
        let of = app.selected_paper().unwrap();
        app.apply(Action::Related);
        app.apply(Action::Related);
        // The paper the first list was like, found among papers like its
        // best match, marked read there.
        let row = listed(&app).iter().position(|&i| i == of).unwrap();
        app.apply(Action::SelectRow(row));
        app.apply(Action::ToggleRead);
        app.apply(Action::Back);
        app.apply(Action::Back);
        assert_eq!(app.selected_paper(), Some(of), "still listed");
        assert_eq!(app.selected(), 2);
        assert_eq!(app.rows(), 38);
        app.apply(Action::Down);
        assert_eq!(app.rows(), 37, "gone once the selection moved");
    }

    #[test]
    fn search_and_view_keys_go_back_to_the_list_first() {
        let (mut app, _dir) = app();
        app.apply(Action::SelectRow(5));
        let of = app.selected_paper();
        app.apply(Action::Related);
        app.apply(Action::Related);
        assert_eq!(app.related_depth(), 2);
        app.apply(Action::StartSearch);
        assert_eq!(app.related_depth(), 0);
        assert_eq!(app.mode(), Mode::Search);
        assert_eq!(app.selected_paper(), of);
        app.apply(Action::CancelSearch);
        app.apply(Action::Related);
        app.apply(Action::CycleView);
        assert_eq!(app.related_depth(), 0);
        assert_eq!(app.view(), View::Unread);
    }

    #[test]
    fn the_status_line_says_when_there_is_nothing_to_relate() {
        let (mut app, _dir) = app();
        app.apply(Action::StartSearch);
        typed(&mut app, "zzqqxxjj");
        app.apply(Action::AcceptSearch);
        app.apply(Action::Related);
        assert_eq!(app.status(), Some("no paper is selected"));
        assert_eq!(app.related_depth(), 0);

        // Two papers without a word in common.
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("two.txt");
        std::fs::write(
            &file,
            "Graph kernels\nSpectral graph kernels.\n\nProtein folding\nMolecular dynamics.\n",
        )
        .unwrap();
        let inputs = [crate::loading::Input::Path(file)];
        let loaded = crate::loading::load(&inputs, &Default::default()).unwrap();
        assert_eq!(loaded.corpus.len(), 2);
        let (store, _) = crate::store::Store::open(dir.path());
        let mut app = App::new(loaded, store, || {});
        settle(&mut app);
        // The index is built in the background; the message for a whole
        // index is the one asserted.
        indexed(&app);
        app.apply(Action::Related);
        assert_eq!(
            app.status(),
            Some("no paper in the open lists is like this one")
        );
        assert_eq!(app.related_depth(), 0);
        assert_eq!(app.rows(), 2);
    }
}
