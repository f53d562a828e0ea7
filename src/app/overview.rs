//! `O`: the overview of the list as it is (its view and search): its
//! papers grouped into labelled topics (`search::learn::topics`), largest
//! first, for the ui to draw as bars. Enter shows a topic's papers as a
//! list of their own over the list (a level of the related stack, so Esc
//! goes back to where the list was); Esc closes the overview unchanged.
//! The grouping runs on a thread of its own (seconds at tens of
//! thousands of papers), sharing the papers; the box says so meanwhile
//! and fills on a tick.

use std::sync::mpsc::{Receiver, channel};

use super::App;
use crate::search::learn::{Fit, Topic, default_k, topic_features_of, topics_of};
use crate::vocabulary::{Action, Mode};

/// The overview on screen.
pub(super) struct Overview {
    /// The topics, largest first (none while grouping).
    topics: Vec<Topic>,
    /// The grouping under way.
    pending: Option<Receiver<Vec<Topic>>>,
    /// The chosen row.
    chosen: usize,
    /// Papers grouped (those listed when `O` was pressed).
    grouped: usize,
}

impl App {
    /// Groups the listed papers into topics and shows the overview.
    pub(super) fn open_overview(&mut self) {
        if let Some(why) = self.none_counted("O") {
            self.status = Some(why);
            return;
        }
        let rows = self.counted_papers();
        if rows.len() < 2 {
            self.status = Some("too few papers listed to group into topics".to_string());
            return;
        }
        // Shared with the thread, not copied (held papers are copied only
        // if changed while it groups them).
        let papers = self.corpus.papers.clone();
        let (tx, rx) = channel();
        let picked = rows.clone();
        std::thread::spawn(move || {
            let features = topic_features_of(&papers, &picked);
            let k = default_k(picked.len());
            let found = topics_of(&papers, &picked, &features, k, Fit::DEFAULT).topics;
            let _ = tx.send(found);
        });
        self.overview = Some(Overview {
            topics: Vec::new(),
            pending: Some(rx),
            chosen: 0,
            grouped: rows.len(),
        });
        self.mode = Mode::Overview;
    }

    /// Takes in the topics grouped meanwhile; true when they came.
    pub(super) fn take_topics(&mut self) -> bool {
        let Some(o) = &mut self.overview else {
            return false;
        };
        let Some(Ok(found)) = o.pending.as_ref().map(Receiver::try_recv) else {
            return false;
        };
        o.topics = found;
        o.pending = None;
        true
    }

    /// Waits for the grouping under way (tests).
    #[cfg(test)]
    pub(super) fn wait_for_topics(&mut self) {
        for _ in 0..1000 {
            if self.take_topics() || self.overview.as_ref().is_none_or(|o| o.pending.is_none()) {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }

    /// A key while the overview is open.
    pub(super) fn overview_act(&mut self, action: Action) {
        let Some(o) = &mut self.overview else {
            self.mode = Mode::Browse;
            return;
        };
        let last = o.topics.len().saturating_sub(1);
        match action {
            Action::Down => o.chosen = (o.chosen + 1).min(last),
            Action::Up => o.chosen = o.chosen.saturating_sub(1),
            Action::First => o.chosen = 0,
            Action::Last => o.chosen = last,
            Action::AcceptLine => {
                let n = o.chosen;
                let Some(t) = o.topics.get(n).cloned() else {
                    return;
                };
                self.mode = Mode::Browse;
                self.show_topic(n + 1, t);
            }
            Action::Quit => {
                self.save_place();
                self.quit = true;
            }
            _ => self.mode = Mode::Browse,
        }
    }

    /// Each paper's topic's number in the whole list's default grouping
    /// (as `paperboat topics` numbers them), for `topic:N`. The grouping
    /// runs on a thread (seconds at a million papers): until it is in, no
    /// paper has a topic, and the status says so; then the labels are
    /// given to the matcher again and the query answered.
    pub(super) fn topic_numbers(&mut self) -> Vec<u32> {
        // Papers came in since (a load): group again.
        let stale = self
            .topic_numbers
            .as_ref()
            .is_none_or(|t| t.len() != self.corpus.len());
        if stale && self.topic_job.is_none() && self.corpus.papers.is_ready() {
            let papers = self.corpus.papers.clone();
            let (tx, rx) = channel();
            std::thread::spawn(move || {
                let _ = tx.send(crate::search::learn::list_topics(&papers, None).numbers());
            });
            self.topic_job = Some(rx);
            self.status = Some("grouping the list into topics…".to_string());
        }
        match &self.topic_numbers {
            Some(t) if !stale => t.clone(),
            _ => Vec::new(),
        }
    }

    /// Takes the whole list's grouping once it is in (see
    /// [`App::topic_numbers`]); true when it came.
    pub(super) fn take_topic_numbers(&mut self) -> bool {
        let Some(Ok(numbers)) = self.topic_job.as_ref().map(Receiver::try_recv) else {
            return false;
        };
        self.topic_job = None;
        self.topic_numbers = Some(numbers);
        self.labels_dirty = true;
        self.status = Some("grouped the list into topics".to_string());
        true
    }

    /// The overview's topics (none while grouping), the chosen one and
    /// how many papers are grouped, while it is open.
    pub fn overview(&self) -> Option<(&[Topic], usize, usize)> {
        let o = self
            .overview
            .as_ref()
            .filter(|_| self.mode == Mode::Overview)?;
        Some((&o.topics, o.chosen, o.grouped))
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use crate::vocabulary::{Action, Mode};

    #[test]
    fn o_groups_the_list_enter_lists_a_topic_esc_goes_back() {
        let (mut app, _dir) = app();
        app.apply(Action::Down);
        app.apply(Action::Down);
        let before = (app.selected_paper(), app.rows());
        app.apply(Action::Overview);
        assert_eq!(app.mode(), Mode::Overview);
        app.wait_for_topics();
        let (topics, chosen, grouped) = app.overview().unwrap();
        assert_eq!((chosen, grouped), (0, app.rows()));
        assert!(topics.len() >= 2);
        let sizes: Vec<usize> = topics.iter().map(|t| t.papers.len()).collect();
        assert_eq!(sizes.iter().sum::<usize>(), grouped);
        assert!(sizes.windows(2).all(|w| w[0] >= w[1]), "{sizes:?}");
        assert!(topics.iter().all(|t| !t.label.is_empty()));
        // Esc closes it, nothing changed.
        app.apply(Action::CancelLine);
        assert_eq!(app.mode(), Mode::Browse);
        assert_eq!((app.selected_paper(), app.rows()), before);
        // Enter on the second topic lists its papers.
        app.apply(Action::Overview);
        app.wait_for_topics();
        app.apply(Action::Down);
        let second = app.overview().unwrap().0[1].clone();
        app.apply(Action::AcceptLine);
        assert_eq!(app.mode(), Mode::Browse);
        assert_eq!(app.rows(), second.papers.len());
        let shown: Vec<usize> = (0..app.rows()).filter_map(|r| app.paper_at(r)).collect();
        assert_eq!(shown, second.papers);
        assert_eq!(app.topic_shown(), Some((2, second.label.as_str())));
        // Esc goes back to where the list was.
        app.apply(Action::Back);
        assert_eq!(app.topic_shown(), None);
        assert_eq!((app.selected_paper(), app.rows()), before);
    }

    #[test]
    fn topic_n_in_the_query_lists_the_topic_as_the_command_numbers_it() {
        let (mut app, _dir) = app();
        let want = crate::search::learn::list_topics(&app.corpus().papers, None);
        app.apply(Action::StartSearch);
        typed(&mut app, "topic:2");
        app.apply(Action::AcceptSearch);
        settle(&mut app);
        // The list is grouped on a thread: the reader says so and goes on.
        app.update(crate::vocabulary::Message::Tick);
        for _ in 0..1000 {
            if app.topic_job.is_none() && app.topic_numbers.is_some() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
            app.update(crate::vocabulary::Message::Tick);
        }
        assert!(app.topic_numbers.is_some(), "grouped");
        app.update(crate::vocabulary::Message::Tick);
        settle(&mut app);
        let mut shown: Vec<usize> = (0..app.rows()).filter_map(|r| app.paper_at(r)).collect();
        shown.sort_unstable();
        assert_eq!(shown, want.topics[1].papers);
    }

    #[test]
    fn o_groups_the_search_s_papers_only() {
        let (mut app, _dir) = app();
        app.apply(Action::StartSearch);
        typed(&mut app, "learning");
        app.apply(Action::AcceptSearch);
        settle(&mut app);
        let listed = app.rows();
        assert!(listed > 2 && listed < app.corpus().len(), "{listed}");
        app.apply(Action::Overview);
        app.wait_for_topics();
        let (topics, _, grouped) = app.overview().unwrap();
        assert_eq!(grouped, listed);
        let mut all: Vec<usize> = topics.iter().flat_map(|t| t.papers.clone()).collect();
        let mut want: Vec<usize> = (0..listed).filter_map(|r| app.paper_at(r)).collect();
        all.sort_unstable();
        want.sort_unstable();
        assert_eq!(all, want);
    }
}
