//! The list: which papers it shows (the ranking, filtered by the view and
//! a paper kept in place), the selection and scrolling, kept in range and
//! on screen, and the abstract's scrolling beside it.

use super::{App, layout};
use crate::order::{SortKey, sort_rows};
use crate::vocabulary::View;

impl App {
    /// The paper at `row` of the list.
    pub fn paper_at(&self, row: usize) -> Option<usize> {
        if let Some(level) = self.related.last() {
            return level.rows.get(row).map(|&i| i as usize);
        }
        match &self.filtered {
            Some(rows) => rows.get(row).map(|&i| i as usize),
            None => self.search.get(row),
        }
    }

    /// The index of the selected paper, if any paper is listed.
    /// While triaging, the paper triage shows.
    pub fn selected_paper(&self) -> Option<usize> {
        if self.triaging() {
            return self.triage_paper();
        }
        self.paper_at(self.selected)
    }

    /// Rows in the list.
    pub fn rows(&self) -> usize {
        if let Some(level) = self.related.last() {
            return level.rows.len();
        }
        match &self.filtered {
            Some(rows) => rows.len(),
            None => self.search.matched(),
        }
    }

    /// True when the list shows titles matched letter by letter, for a
    /// word of the query that no paper holds (every field): rows shown
    /// apart, none of them a match.
    pub fn apart(&self) -> bool {
        self.related.is_empty() && self.search.results().notes.apart()
    }

    /// The rows that are matches: every row, but none where they are
    /// shown apart ([`App::apart`]). What acts on the papers listed
    /// (`R`, `X`, triage) acts on these.
    pub fn counted_rows(&self) -> usize {
        if self.apart() { 0 } else { self.rows() }
    }

    /// The papers listed that are matches, in the list's order.
    pub(super) fn counted_papers(&self) -> Vec<usize> {
        (0..self.counted_rows())
            .filter_map(|r| self.paper_at(r))
            .collect()
    }

    /// What to say when `what` (a bulk action) finds the list holds no
    /// match, its rows shown apart; `None` when it holds matches.
    pub(super) fn none_counted(&self, what: &str) -> Option<String> {
        let notes = &self.search.results().notes;
        self.apart().then(|| {
            format!(
                "no paper holds \"{}\": {what} acts on matches, and the titles listed are letter matches",
                notes.unheld.join(" ")
            )
        })
    }

    /// Rebuilds the list from the ranking, the view and the kept paper,
    /// keeping paper `keep` selected when it is still listed. A related
    /// list shown over the list stays as it is: the list is rebuilt when
    /// it is back.
    pub(super) fn rebuild_rows(&mut self, keep: Option<usize>) {
        if self.related.is_empty() {
            let sort = self.sort_key();
            self.sort_pending = false;
            self.filtered =
                if self.view == View::All && self.sticky.is_none() && sort == SortKey::Score {
                    None
                } else {
                    let sticky = self.sticky;
                    let mut rows: Vec<u32> = self
                        .search
                        .results()
                        .matches
                        .iter()
                        .map(|m| m.idx)
                        .filter(|&i| self.shows(i as usize) || sticky == Some(i as usize))
                        .collect();
                    // An order by the papers' fields waits, rather than
                    // the screen, while papers left in the cache are
                    // still being decoded (a second or two at 2.7M).
                    let fields = matches!(sort, SortKey::Year | SortKey::Author | SortKey::Seen);
                    self.sort_pending = fields && !self.corpus.papers.is_ready();
                    if !self.sort_pending {
                        let papers: &[crate::corpus::Paper] =
                            if fields { &self.corpus.papers } else { &[] };
                        let store = &self.store;
                        let for_you = self.for_you_scores();
                        sort_rows(papers, &mut rows, sort, &|id| store.first_seen(id), for_you);
                    }
                    Some(rows)
                };
        }
        if let Some(row) = keep.and_then(|p| self.row_of(p)) {
            self.selected = row;
        }
        self.clamp();
    }

    /// The order the list is in: the one chosen, but match score only
    /// while there is a query (without one, the ranking is file order).
    pub fn sort_key(&self) -> SortKey {
        self.sort
    }

    /// The next order: file, score (while searching), year, first author,
    /// first seen.
    pub(super) fn cycle_sort(&mut self) {
        let mut next = self.sort.next();
        if next == SortKey::Score && self.input.text().trim().is_empty() {
            next = next.next();
        }
        self.sort = next;
        if next == SortKey::ForYou {
            self.start_for_you();
        }
        let keep = self.selected_paper();
        self.rebuild_rows(keep);
        self.status = Some(
            if let Some(note) = self.for_you_note().filter(|_| next == SortKey::ForYou) {
                note
            } else if self.sort_pending {
                format!("sorting by {} once every paper is read", next.name())
            } else {
                format!("sorted by {}", next.name())
            },
        );
    }

    /// Whether the list leaves out paper `i` by its marks (the view); a
    /// related list leaves out none.
    pub(super) fn hides(&self, i: usize) -> bool {
        self.related.is_empty() && !self.shows(i)
    }

    pub(super) fn row_of(&self, idx: usize) -> Option<usize> {
        if let Some(level) = self.related.last() {
            return level.rows.iter().position(|&i| i as usize == idx);
        }
        match &self.filtered {
            Some(rows) => rows.iter().position(|&i| i as usize == idx),
            None => self.search.row_of(idx),
        }
    }

    pub(super) fn layout(&self) -> layout::Layout {
        if self.triaging() {
            return layout::triage(self.size.0, self.size.1, self.shape());
        }
        layout::layout(self.size.0, self.size.1, self.shape())
    }

    /// How the screen is shared: the list's part (`<`, `>`, `[reader]
    /// list`), and the rows a long message in the status line wraps to.
    pub fn shape(&self) -> layout::Shape {
        layout::Shape {
            list: self.list_share,
            status: self.message_lines(self.size.0).len().max(1) as u16,
        }
    }

    /// The status line's message, when there is one: what was last
    /// done or failed, the query's error, or what the ranking says of its
    /// words (a typo looked for, a word no paper holds). Else the status
    /// line shows hints.
    pub fn message(&self) -> Option<String> {
        if let Some(msg) = self.status.as_deref().or(self.save_error.as_deref()) {
            return Some(msg.to_string());
        }
        if let Some(e) = &self.search.parsed().error {
            return Some(e.to_string());
        }
        if self.related.is_empty() {
            return self.search.notes().describe();
        }
        None
    }

    /// The message wrapped to a status line `width` columns wide (one
    /// column of margin), at most [`layout::STATUS_MOST`] lines (the last
    /// cut short with `…` if need be); none without a message.
    pub fn message_lines(&self, width: u16) -> Vec<String> {
        let Some(msg) = self.message() else {
            return Vec::new();
        };
        let room = usize::from(width.saturating_sub(2)).max(1);
        let mut lines: Vec<String> = textwrap::wrap(&msg, room)
            .into_iter()
            .map(|l| l.into_owned())
            .collect();
        let most = usize::from(layout::STATUS_MOST);
        if lines.len() > most {
            lines.truncate(most);
            if let Some(last) = lines.last_mut() {
                while unicode_width::UnicodeWidthStr::width(last.as_str()) + 1 > room {
                    last.pop();
                }
                last.push('…');
            }
        }
        lines
    }

    /// Gives the list `by` percent more of the middle (less when
    /// negative), within [`layout::LIST_SHARES`].
    pub(super) fn widen_list(&mut self, by: i8) {
        let (lo, hi) = (*layout::LIST_SHARES.start(), *layout::LIST_SHARES.end());
        self.list_share =
            (self.list_share as i16 + i16::from(by)).clamp(lo.into(), hi.into()) as u8;
        self.status = Some(format!(
            "the list takes {}% · < and > change it · [reader] list in config.toml keeps it",
            self.list_share
        ));
        self.clamp();
    }

    /// Rows of the list pane.
    pub fn list_height(&self) -> usize {
        self.layout().list_rows()
    }

    /// Lines of the abstract pane.
    pub(super) fn detail_height(&self) -> usize {
        self.layout().detail_rows()
    }

    /// Takes in the matcher's newest ranking, if there is one; true when
    /// there was (the screen needs drawing again).
    pub(super) fn take_ranking(&mut self) -> bool {
        let before = self.selected_paper();
        if !self.search.tick() {
            return false;
        }
        let r = self.search.results();
        let now = (r.query.clone(), r.scope);
        let same_query = self.ranked_query.as_ref() == Some(&now);
        self.ranked_query = Some(now);
        if !self.related.is_empty() {
            // A related list is shown: the list takes in the ranking when
            // it is back (`back` finds its paper again).
            return true;
        }
        let keep = if let Some(r) = &self.restore {
            r.at
        } else if same_query && self.selected > 0 {
            // More papers arrived, or the rest of a partial ranking: stay
            // on the same paper. On the top row, follow the top as fzf
            // does (the best match so far is not the best one).
            before
        } else {
            self.selected = 0;
            self.list_offset = 0;
            None
        };
        self.rebuild_rows(keep);
        if let Some(r) = &self.restore {
            // Done once the paper is selected; given up once nothing more
            // can come (it left the corpus, or the query hides it).
            let placed = r.at.is_some() && self.selected_paper() == r.at;
            if placed || !(self.search.is_running() || self.loading.is_some()) {
                self.restore = None;
            }
        }
        if self.selected_paper() != before {
            self.detail_scroll = 0;
            self.chosen_link = None;
            self.match_line = None;
        }
        true
    }

    pub(super) fn query_changed(&mut self) {
        self.send_query(self.search.scope());
    }

    /// Gives the matcher the query in `scope`: as it is being typed in
    /// search mode (its last word also the start of longer words), else
    /// finished, as `paperboat search` reads it.
    pub(super) fn send_query(&mut self, scope: crate::search::Scope) {
        if self.mode == crate::vocabulary::Mode::Search {
            self.search.type_query(self.input.text(), scope);
        } else {
            self.search.set_query(self.input.text(), scope);
        }
    }

    pub(super) fn move_to(&mut self, row: isize) {
        let rows = self.rows();
        if rows == 0 {
            self.selected = 0;
            return;
        }
        let row = row.clamp(0, rows as isize - 1) as usize;
        // The user has chosen: a place still to be restored is dropped.
        self.restore = None;
        if row != self.selected {
            self.selected = row;
            self.detail_scroll = 0;
            self.chosen_link = None;
            self.match_line = None;
            if self.sticky.take().is_some() {
                // The kept paper may now leave the view.
                let target = self.selected_paper();
                self.rebuild_rows(target);
            }
        }
        self.clamp();
    }

    pub(super) fn move_by(&mut self, delta: isize) {
        self.move_to(self.selected as isize + delta);
    }

    pub(super) fn scroll_detail(&mut self, delta: isize) {
        let max = self.detail_lines().saturating_sub(self.detail_height());
        self.detail_scroll = (self.detail_scroll as isize + delta).clamp(0, max as isize) as usize;
    }

    /// Keeps the selection in range and on screen.
    pub(super) fn clamp(&mut self) {
        let rows = self.rows();
        if rows == 0 {
            self.selected = 0;
            self.list_offset = 0;
            return;
        }
        self.selected = self.selected.min(rows - 1);
        let h = self.list_height().max(1);
        if self.selected < self.list_offset {
            self.list_offset = self.selected;
        } else if self.selected >= self.list_offset + h {
            self.list_offset = self.selected + 1 - h;
        }
        self.list_offset = self.list_offset.min(rows.saturating_sub(h));
        let max = self.detail_lines().saturating_sub(self.detail_height());
        self.detail_scroll = self.detail_scroll.min(max);
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use crate::vocabulary::{Action, Message, Mode, View};

    #[test]
    fn titles_listed_for_a_word_no_paper_holds_are_no_matches_to_act_on() {
        let (mut app, _dir) = app();
        app.update(Message::Configured {
            scope: crate::search::Scope::All,
            view: View::All,
            list: super::super::layout::LIST_SHARE,
        });
        app.apply(Action::StartSearch);
        // No paper holds it, nor a word one edit from it: "framework"
        // letter by letter.
        typed(&mut app, "frmwrk");
        assert!(app.apart());
        assert!(app.rows() > 0, "titles with its letters are listed");
        assert_eq!(app.counted_rows(), 0);
        assert!(app.message().unwrap().contains("no paper holds \"frmwrk\""));
        app.apply(Action::AcceptSearch);
        settle(&mut app);
        app.apply(Action::MarkAllRead);
        assert_eq!(app.mode(), Mode::Browse, "nothing to ask");
        assert!(app.status().unwrap().contains("no paper holds"));
        app.apply(Action::PickListed);
        assert_eq!(app.picked_count(), 0);
        app.apply(Action::Triage);
        assert!(!app.triaging());
        // A word papers hold: matches, counted and acted on.
        app.apply(Action::StartSearch);
        app.apply(Action::ClearQuery);
        typed(&mut app, "framework");
        assert!(!app.apart());
        assert!(app.counted_rows() > 0 && app.counted_rows() == app.rows());
        app.apply(Action::AcceptSearch);
        settle(&mut app);
        app.apply(Action::PickListed);
        assert_eq!(app.picked_count(), app.rows());
    }

    #[test]
    fn the_list_widens_and_narrows_within_its_bounds() {
        let (mut app, _dir) = app();
        let width = |app: &super::super::App| app.layout().list.width;
        let before = width(&app);
        assert_eq!(before, 60, "half of 120 columns");
        app.apply(Action::WidenList);
        assert!(width(&app) > before);
        assert_eq!(app.shape().list, 55);
        for _ in 0..20 {
            app.apply(Action::NarrowList);
        }
        assert_eq!(app.shape().list, 20);
        app.update(Message::Configured {
            scope: crate::search::Scope::All,
            view: View::All,
            list: 70,
        });
        assert_eq!(width(&app), 84);
    }

    #[test]
    fn a_long_message_wraps_over_rows_of_the_status_line() {
        let (mut app, _dir) = app();
        app.update(Message::Resize(60, 20));
        assert_eq!(app.layout().status.height, 1);
        app.status = Some("word ".repeat(30));
        let lines = app.message_lines(60);
        assert_eq!(lines.len(), 3);
        assert!(lines.iter().all(|l| l.chars().count() <= 58), "{lines:?}");
        assert_eq!(app.layout().status.height, 3);
        assert_eq!(app.layout().status.y, 17);
        // Past three rows it is cut, and says so.
        app.status = Some("word ".repeat(100));
        assert!(app.message_lines(60)[2].ends_with('…'));
        // A small screen keeps one row for it.
        app.update(Message::Resize(40, 8));
        assert_eq!(app.layout().status.height, 1);
    }

    #[test]
    fn opens_on_all_bundled_papers_in_order() {
        let (app, _dir) = app();
        assert_eq!(app.rows(), 38);
        assert_eq!(app.selected_paper(), Some(0));
    }

    #[test]
    fn moving_stays_in_range() {
        let (mut app, _dir) = app();
        app.apply(Action::Up);
        assert_eq!(app.selected(), 0);
        app.apply(Action::Last);
        assert_eq!(app.selected(), 37);
        app.apply(Action::Down);
        assert_eq!(app.selected(), 37);
        assert!(app.list_offset() + app.list_height() > 37);
        app.apply(Action::First);
        app.apply(Action::PageDown);
        assert_eq!(app.selected(), app.list_height());
        app.apply(Action::HalfPageUp);
        assert_eq!(app.selected(), app.list_height() - app.list_height() / 2);
    }

    #[test]
    fn clicks_and_wheel() {
        let (mut app, _dir) = app();
        app.apply(Action::SelectRow(5));
        assert_eq!(app.selected(), 5);
        app.apply(Action::SelectRow(500));
        assert_eq!(app.selected(), 37);
        app.apply(Action::First);
        app.apply(Action::ScrollList(10));
        assert_eq!(app.list_offset(), 10.min(38 - app.list_height()));
        assert!(app.selected() >= app.list_offset());
    }

    #[test]
    fn focus_on_the_abstract_scrolls_it() {
        let (mut app, _dir) = app();
        app.update(Message::Resize(60, 20));
        app.apply(Action::ToggleFocus);
        app.apply(Action::Down);
        assert_eq!(app.selected(), 0);
        assert_eq!(app.detail_scroll(), 1);
        app.apply(Action::Last);
        let end = app.detail_scroll();
        assert!(end > 1);
        app.apply(Action::Down);
        assert_eq!(app.detail_scroll(), end, "never past the end");
        app.apply(Action::ToggleFocus);
        app.apply(Action::Down);
        assert_eq!(app.selected(), 1);
        assert_eq!(app.detail_scroll(), 0, "a new paper starts at the top");
    }

    #[test]
    fn views_filter_and_search_filters_within_them() {
        let (mut app, _dir) = app();
        for row in [0, 1, 5] {
            app.apply(Action::SelectRow(row));
            app.apply(Action::ToggleBookmark);
        }
        app.apply(Action::SelectRow(1));
        app.apply(Action::ToggleRead);
        app.apply(Action::CycleView);
        assert_eq!(app.view(), View::Unread);
        assert_eq!(app.rows(), 37);
        app.apply(Action::CycleView);
        assert_eq!(app.view(), View::Bookmarked);
        assert_eq!(app.rows(), 3);
        app.apply(Action::StartSearch);
        typed(&mut app, "orchjail");
        assert_eq!(app.rows(), 1, "search within the bookmarked view");
        app.apply(Action::ClearQuery);
        typed(&mut app, "coPro");
        assert_eq!(app.rows(), 0, "CoPro is not bookmarked");
        app.apply(Action::CancelSearch);
        settle(&mut app);
        app.apply(Action::CycleView);
        assert_eq!(app.view(), View::New);
        app.apply(Action::CycleView);
        assert_eq!(app.view(), View::All, "no tags: back to all");
        assert_eq!(app.rows(), 38);
    }

    #[test]
    fn a_paper_leaving_the_view_stays_until_the_selection_moves() {
        let (mut app, _dir) = app();
        app.apply(Action::CycleView); // unread
        app.apply(Action::SelectRow(2));
        let t = title(&app);
        app.apply(Action::ToggleRead);
        assert_eq!(app.rows(), 38, "still listed");
        assert_eq!(title(&app), t, "the cursor did not move");
        app.apply(Action::Down);
        assert_eq!(app.rows(), 37, "gone once the selection moved");
        assert_eq!(app.selected(), 2, "the next paper is where the cursor was");
    }

    #[test]
    fn s_cycles_the_orders_and_skips_score_without_a_query() {
        use crate::order::SortKey;
        let (mut app, _dir) = app_with_years();
        let mut keys = Vec::new();
        for _ in 0..5 {
            app.apply(Action::CycleSort);
            keys.push(app.sort_key());
        }
        assert_eq!(
            keys,
            [
                SortKey::Year,
                SortKey::Author,
                SortKey::Seen,
                SortKey::ForYou,
                SortKey::File,
            ]
        );
        app.apply(Action::CycleSort);
        // By year: newest first, papers without a year last.
        let years: Vec<Option<i32>> = (0..app.rows())
            .map(|r| app.corpus().papers[app.paper_at(r).unwrap()].year)
            .collect();
        assert!(
            years.iter().flatten().min() < years.iter().flatten().max(),
            "{years:?}"
        );
        let mut sorted = years.clone();
        sorted.sort_by_key(|y| std::cmp::Reverse(y.unwrap_or(i32::MIN)));
        assert_eq!(years, sorted);
        assert_eq!(app.rows(), 38);
        // While searching, score is in the cycle.
        app.apply(Action::StartSearch);
        typed(&mut app, "framework");
        app.apply(Action::AcceptSearch);
        while app.sort_key() != SortKey::File {
            app.apply(Action::CycleSort);
        }
        app.apply(Action::CycleSort);
        assert_eq!(app.sort_key(), SortKey::Score);
        assert_eq!(app.status(), Some("sorted by score"));
        let ranked: Vec<usize> = (0..app.rows())
            .map(|r| app.search().get(r).unwrap())
            .collect();
        let shown: Vec<usize> = (0..app.rows()).map(|r| app.paper_at(r).unwrap()).collect();
        assert_eq!(shown, ranked);
    }
}
