//! The "for you" order: the reader's model (`search::learn`) trained
//! from the marks, the list sorted by its scores, a reason for the paper
//! shown, and triage walking in that order. Everything runs on a thread
//! of its own: the rows are built once, on the first use of the order
//! (the list stays as ranked meanwhile, and the status line says so);
//! the model is trained again whenever marks change, and its scores
//! taken in on a tick, so that each keep or skip teaches the next pick
//! without holding a key up.

use std::sync::Arc;
use std::sync::mpsc::{Receiver, channel};

use super::App;
use crate::order::SortKey;
use crate::search::learn::{Features, Model, Recipe, Resets, Signals, TooFew, Whose};

/// What a training hands back: the rows it read, and the model with
/// every paper's score (or how few positives there were).
type Trained = (Arc<Features>, Result<(Model, Vec<f32>), TooFew>);

/// The reader's model, while the "for you" order has been asked for.
pub(super) struct ForYou {
    /// The rows (none while they are first built).
    features: Option<Arc<Features>>,
    /// The newest model, when there were positives enough.
    model: Result<Arc<Model>, TooFew>,
    /// Each paper's score by that model (empty without one).
    pub(super) scores: Vec<f32>,
    /// A training under way.
    training: Option<Receiver<Trained>>,
    /// Marks changed while it trained: train again when it is done.
    stale: bool,
}

/// Trains on `features` (built first from `papers` when `None`), on a
/// thread; the result comes on the receiver.
fn train_apart(
    features: Option<Arc<Features>>,
    papers: Option<crate::corpus::Papers>,
    signals: Signals,
) -> Receiver<Trained> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let features = match (features, papers) {
            (Some(f), _) => f,
            (None, Some(p)) => Arc::new(Features::build(&p)),
            (None, None) => return,
        };
        let model = Model::train(&features, &signals, Recipe::DEFAULT).map(|m| {
            let scores = m.scores(&features);
            (m, scores)
        });
        let _ = tx.send((features, model));
    });
    rx
}

impl App {
    /// The reader's signals, marks before the model's reset left out.
    fn signals(&self) -> Signals {
        let since = self
            .store
            .path()
            .parent()
            .and_then(|d| Resets::read(d).ok())
            .and_then(|r| r.since(&Whose::Reader));
        let mut ids = Vec::with_capacity(self.corpus.len());
        self.corpus.papers.each_id(|_, id| ids.push(id.to_string()));
        Signals::from_store(
            &self.store,
            ids.iter().map(String::as_str),
            &Whose::Reader,
            since,
        )
    }

    /// Starts building the rows and training the first model, on a
    /// thread, unless done (or under way) for these papers.
    pub(super) fn start_for_you(&mut self) {
        let n = self.corpus.len();
        if let Some(f) = &self.for_you {
            let current = f.features.as_ref().is_some_and(|f| f.len() == n);
            if current || f.training.is_some() {
                return;
            }
        }
        // Papers came in since the rows were built (a load): build again.
        let rx = train_apart(None, Some(self.corpus.papers.clone()), self.signals());
        self.for_you = Some(ForYou {
            features: None,
            model: Err(TooFew { positives: 0 }),
            scores: Vec::new(),
            training: Some(rx),
            stale: false,
        });
    }

    /// Marks changed: trains the model again, on a thread.
    pub(super) fn marks_changed(&mut self) {
        let n = self.corpus.len();
        let Some(f) = &mut self.for_you else { return };
        if f.training.is_some() {
            f.stale = true;
            return;
        }
        let Some(features) = f.features.clone().filter(|f| f.len() == n) else {
            self.for_you = None;
            self.start_for_you();
            return;
        };
        let rx = train_apart(Some(features), None, self.signals());
        if let Some(f) = &mut self.for_you {
            f.training = Some(rx);
            f.stale = false;
        }
    }

    /// Takes in a model trained meanwhile; true when the list changed.
    pub(super) fn take_model(&mut self) -> bool {
        let Some(f) = &mut self.for_you else {
            return false;
        };
        let Some(rx) = &f.training else { return false };
        let Ok((features, trained)) = rx.try_recv() else {
            return false;
        };
        f.training = None;
        f.features = Some(features);
        match trained {
            Ok((model, scores)) => {
                f.model = Ok(Arc::new(model));
                f.scores = scores;
            }
            Err(few) => {
                f.model = Err(few);
                f.scores = Vec::new();
            }
        }
        if f.stale {
            self.marks_changed();
        }
        if self.sort != SortKey::ForYou {
            return false;
        }
        if self.triaging() {
            self.reorder_walk();
        } else {
            let keep = self.selected_paper();
            self.rebuild_rows(keep);
            if let Some(note) = self.for_you_note() {
                self.status = Some(note);
            }
        }
        true
    }

    /// Waits for a training under way, and any it called for (tests).
    /// Forgets what the reader's model learned, as `recommend --reset`
    /// does: marks made until now no longer teach it, and every mark
    /// stays. What the status line says.
    pub(super) fn forget_for_you(&mut self) -> String {
        let Some(dir) = self.store.path().parent().map(std::path::Path::to_path_buf) else {
            return "no state directory to keep the reset in".to_string();
        };
        let done = Resets::read(&dir)
            .and_then(|mut r| r.reset(&dir, &Whose::Reader, crate::store::Stamp::now()));
        match done {
            Err(e) => format!(
                "\"for you\" was not reset: {}",
                crate::text::sanitize::line(&e)
            ),
            Ok(()) => {
                self.marks_changed();
                "\"for you\" forgot what it learned; new marks teach it".to_string()
            }
        }
    }

    #[cfg(test)]
    pub(super) fn wait_for_model(&mut self) {
        for _ in 0..500 {
            if self.for_you.as_ref().is_none_or(|f| f.training.is_none()) {
                return;
            }
            self.take_model();
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }

    /// Why the model puts paper `idx` where it does, in the "for you"
    /// order: its words, pairs or authors that weigh most. Otherwise, or
    /// without a model, none.
    pub fn reason(&self, idx: usize) -> Option<String> {
        if self.sort != SortKey::ForYou {
            return None;
        }
        let f = self.for_you.as_ref()?;
        let features = f.features.as_ref().filter(|f| idx < f.len())?;
        let m = f.model.as_ref().ok()?;
        let why = m.why(
            features,
            idx,
            &self.corpus.papers[idx],
            crate::search::learn::recommend::WHY_WORDS,
        );
        Some(if why.is_empty() {
            "nothing of it weighs for it".to_string()
        } else {
            why.join(", ")
        })
    }

    /// What the order says when it has no model: that it is learning,
    /// or how few positives there were.
    pub(super) fn for_you_note(&self) -> Option<String> {
        let f = self.for_you.as_ref()?;
        if f.features.is_none() {
            return Some("for you: learning from your marks…".to_string());
        }
        let few = f.model.as_ref().err()?;
        Some(format!("for you: {}", few.advice(&Whose::Reader)))
    }

    /// The scores of the "for you" order, when it has a model.
    pub(super) fn for_you_scores(&self) -> &[f32] {
        self.for_you.as_ref().map_or(&[][..], |f| &f.scores[..])
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::app;
    use crate::order::SortKey;
    use crate::store::Flag;
    use crate::vocabulary::{Action, Message};

    /// Papers of the bundled lists whose abstract says `word`.
    fn titled(app: &super::App, word: &str) -> Vec<usize> {
        (0..app.corpus().len())
            .filter(|&i| {
                let p = &app.corpus().papers[i];
                p.abstract_text.text().to_lowercase().contains(word)
            })
            .collect()
    }

    /// Bookmarks of papers `rows`, for `set_marks`.
    fn bookmarks(rows: &[usize]) -> Vec<(usize, Flag, bool)> {
        rows.iter().map(|&i| (i, Flag::Bookmark, true)).collect()
    }

    fn to_for_you(app: &mut super::App) {
        while app.sort_key() != SortKey::ForYou {
            app.apply(Action::CycleSort);
        }
        app.wait_for_model();
    }

    #[test]
    fn too_few_bookmarks_say_what_to_do_and_keep_the_order() {
        let (mut app, _dir) = app();
        let before: Vec<usize> = (0..5).filter_map(|r| app.paper_at(r)).collect();
        to_for_you(&mut app);
        let status = app.status().unwrap_or_default().to_string();
        assert!(status.contains("bookmark"), "{status}");
        let after: Vec<usize> = (0..5).filter_map(|r| app.paper_at(r)).collect();
        assert_eq!(before, after);
        assert_eq!(app.reason(after[0]), None);
    }

    /// A reader on the arXiv sample of the test data, and which of its
    /// papers are of arXiv archive `archive` (any of their categories).
    fn arxiv_app(archive: &str) -> (super::App, tempfile::TempDir, Vec<bool>) {
        let dir = tempfile::tempdir().unwrap();
        let (store, _) = crate::store::Store::open(dir.path());
        let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/corpora/arxiv-snapshot_wanng-ide.jsonl");
        let opts = crate::loading::Options {
            cache: None,
            ..Default::default()
        };
        // Each arXiv id's categories, as the file gives them.
        let text = std::fs::read_to_string(&path).unwrap();
        let cats: std::collections::HashMap<String, String> = text
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .map(|v| {
                (
                    v["id"].as_str().unwrap().into(),
                    v["categories"].as_str().unwrap().into(),
                )
            })
            .collect();
        let loaded = crate::loading::load(&[crate::loading::Input::Path(path)], &opts).unwrap();
        let of: Vec<bool> = loaded
            .corpus
            .papers
            .iter()
            .map(|p| {
                let id = p.id.as_str().trim_start_matches("arxiv:");
                cats[id]
                    .split(' ')
                    .any(|c| c.split('.').next() == Some(archive))
            })
            .collect();
        let mut app = super::App::new(loaded, store, || {});
        app.update(Message::Resize(120, 40));
        super::super::testing::settle(&mut app);
        (app, dir, of)
    }

    #[test]
    fn bookmarks_put_their_kind_first_with_a_reason() {
        let (mut app, _dir, astro) = arxiv_app("astro-ph");
        let liked: Vec<usize> = (0..astro.len()).filter(|&i| astro[i]).collect();
        let others: Vec<usize> = (0..astro.len()).filter(|&i| !astro[i]).collect();
        assert!(liked.len() >= 15, "{}", liked.len());
        let mut marks: Vec<(usize, Flag, bool)> = liked[..5]
            .iter()
            .map(|&i| (i, Flag::Bookmark, true))
            .collect();
        marks.extend(others[..5].iter().map(|&i| (i, Flag::Read, true)));
        assert!(app.set_marks(&marks));
        to_for_you(&mut app);
        let shown: Vec<usize> = (0..app.rows()).filter_map(|r| app.paper_at(r)).collect();
        let unmarked: Vec<usize> = shown
            .iter()
            .copied()
            .filter(|i| !liked[..5].contains(i) && !others[..5].contains(i))
            .take(10)
            .collect();
        let hits = unmarked.iter().filter(|&&i| astro[i]).count();
        // One paper in ten of the list is about astrophysics.
        assert!(hits >= 6, "{hits} of the first 10 of astro-ph");
        let why = app
            .reason(unmarked[0])
            .expect("a reason in the for-you order");
        assert!(!why.is_empty());
        let page = app.page(unmarked[0], 80);
        let text: Vec<String> = page
            .lines
            .iter()
            .map(|l| l.iter().map(|p| p.text.as_str()).collect())
            .collect();
        assert!(
            text.iter().any(|l| l == &format!("For you: {why}")),
            "{text:?}"
        );
        // Bookmarks of other papers train again, in the background.
        let more = bookmarks(&others[5..12]);
        assert!(app.set_marks(&more));
        app.wait_for_model();
        app.update(Message::Tick);
        let now: Vec<usize> = (0..app.rows()).filter_map(|r| app.paper_at(r)).collect();
        assert_ne!(now, shown, "the new bookmarks changed the order");
        let scores = app.for_you_scores();
        assert!(now.windows(2).all(|w| scores[w[0]] >= scores[w[1]]));
    }

    #[test]
    fn f_forgets_what_for_you_learned_after_a_yes_and_keeps_the_marks() {
        let (mut app, dir, astro) = arxiv_app("astro-ph");
        let liked: Vec<usize> = (0..astro.len()).filter(|&i| astro[i]).collect();
        let marks = bookmarks(&liked[..5]);
        assert!(app.set_marks(&marks));
        to_for_you(&mut app);
        let top = app.paper_at(0).unwrap();
        assert!(app.reason(top).is_some());
        // Asked first: a no changes nothing.
        app.apply(Action::ForgetForYou);
        assert_eq!(app.mode(), crate::vocabulary::Mode::Confirm);
        assert!(app.question().unwrap().contains("Marks stay"));
        app.apply(Action::ConfirmNo);
        app.wait_for_model();
        assert!(app.reason(top).is_some());
        app.apply(Action::ForgetForYou);
        app.apply(Action::ConfirmYes);
        assert!(
            app.status().unwrap().contains("forgot"),
            "{:?}",
            app.status()
        );
        app.wait_for_model();
        app.update(Message::Tick);
        assert_eq!(app.reason(top), None, "no model without new marks");
        let note = app.for_you_note().unwrap_or_default();
        assert!(note.contains("since the last reset"), "{note}");
        // The marks are all there, and the reset is where the command
        // line's `recommend --reset` keeps it.
        assert!(liked[..5].iter().all(|&i| app.marks[i].bookmarked));
        let resets = crate::search::learn::Resets::read(dir.path()).unwrap();
        assert!(resets.since(&crate::search::learn::Whose::Reader).is_some());
        // New bookmarks teach it again.
        let again = bookmarks(&liked[5..8]);
        assert!(app.set_marks(&again));
        app.wait_for_model();
        app.update(Message::Tick);
        let first = app.paper_at(0).unwrap();
        assert!(app.reason(first).is_some());
    }

    #[test]
    fn triage_walks_for_you_and_each_decision_reorders_what_is_left() {
        let (mut app, _dir) = app();
        let liked = titled(&app, "reinforcement learning");
        let marks = bookmarks(&liked[..3]);
        assert!(app.set_marks(&marks));
        to_for_you(&mut app);
        let first = app.paper_at(0);
        app.apply(Action::Triage);
        assert_eq!(app.triage_paper(), first, "triage starts at the top pick");
        let queue = |app: &super::App| app.walk.as_ref().unwrap().queue.clone();
        let before = queue(&app);
        let scores_before = app.for_you_scores().to_vec();
        // Keeping the papers the model likes least teaches the walk.
        for _ in 0..4 {
            let last = *queue(&app).last().unwrap();
            assert!(app.set_marks(&[(last, Flag::Bookmark, true)]));
        }
        app.apply(Action::Keep);
        app.wait_for_model();
        assert_eq!(app.mode(), crate::vocabulary::Mode::Triage);
        let after = queue(&app);
        assert_ne!(app.for_you_scores(), &scores_before[..], "trained again");
        assert_ne!(before, after, "what is left was put in the new order");
        let w = app.walk.as_ref().unwrap();
        let scores = app.for_you_scores();
        let open: Vec<usize> = (w.pos + 1..w.queue.len())
            .filter(|&k| w.decided[k].is_none())
            .map(|k| w.queue[k])
            .collect();
        assert!(
            open.windows(2).all(|p| scores[p[0]] >= scores[p[1]]),
            "in the model's order"
        );
        let mut a = before.clone();
        let mut b = after.clone();
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b, "the same papers");
    }
}
