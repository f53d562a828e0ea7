//! What a reader (or a tag) is likely to want next: a linear model per
//! reader and per tag, trained on the machine from the reader's own
//! marks. Bookmarks (triage's keeps) or a tag's papers are the positives;
//! papers read without a bookmark (triage's skips) the negatives; every
//! other paper of the list a weak negative, weighing little. The score
//! adds the model's margin to the likeness with the positives' mean (a
//! few bookmarks say more through their words together than a margin
//! learned from them does). A reset forgets what was marked before it.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::features::{DIM, Features, Stems, for_each_term};
use super::linear::{Example, Linear, Loss};
use crate::corpus::Paper;
use crate::store::{Stamp, Store};

/// Positives a model needs before it says anything.
pub const MIN_POSITIVES: usize = 3;

/// How a model is trained: the costs of each kind of example and how the
/// score is made. [`Recipe::DEFAULT`] is what the reader and the
/// commands use; the quality bench tries others (docs/QUALITY.md).
#[derive(Clone, Copy, Debug)]
pub struct Recipe {
    /// The cost of a positive or an explicit negative.
    pub cost: f32,
    /// All weak negatives together weigh this many times the positives.
    pub weak_share: f32,
    /// How much the likeness to the positives' mean adds to the margin.
    pub centroid: f32,
    /// How much the likeness to the negatives' mean takes off.
    pub negative_centroid: f32,
    /// Pseudo-relevance feedback: after a first model, the unlabelled
    /// papers it ranks first, this many per positive, are taken as
    /// positives too ...
    pub feedback: f32,
    /// ... weighing this much of a positive, over this many rounds.
    pub feedback_weight: f32,
    pub rounds: u8,
    /// The first [`RERANK`] papers are ranked again, each adding this
    /// share of the mean score of its [`NEIGHBOURS`] likest among them:
    /// a paper like other good picks is likelier a good pick.
    pub smooth: f32,
}

/// Weak negatives trained on at most (an even sample past that).
pub const WEAK_SAMPLE: usize = 10_000;

/// Papers ranked again by their neighbours' scores.
pub const RERANK: usize = 300;
/// Neighbours a paper's score is smoothed over.
pub const NEIGHBOURS: usize = 10;

/// The likeness of two rows (columns sorted): a merge of the two.
fn row_dot(a: (&[u32], &[f32]), b: (&[u32], &[f32])) -> f32 {
    let (mut i, mut j, mut sum) = (0, 0, 0.0);
    while i < a.0.len() && j < b.0.len() {
        match a.0[i].cmp(&b.0[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                sum += a.1[i] * b.1[j];
                i += 1;
                j += 1;
            }
        }
    }
    sum
}

impl Recipe {
    /// The recipe of the reader and the commands.
    pub const DEFAULT: Recipe = Recipe {
        cost: 1.0,
        weak_share: 1.0,
        centroid: 0.5,
        negative_centroid: 0.3,
        feedback: 1.0,
        feedback_weight: 0.6,
        rounds: 2,
        smooth: 2.0,
    };
}

/// What a model is trained from: rows of the features.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Signals {
    pub positives: Vec<usize>,
    pub negatives: Vec<usize>,
}

/// Which model: the reader's own, or a tag's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Whose {
    Reader,
    Tag(String),
}

impl Whose {
    /// The key its reset is kept under.
    fn key(&self) -> String {
        match self {
            Whose::Reader => "reader".into(),
            Whose::Tag(t) => format!("tag:{}", crate::store::fold(t)),
        }
    }
}

impl Signals {
    /// The signals in `store` for the papers whose ids `ids` gives in
    /// row order, for `whose` model, marks before `since` forgotten.
    pub fn from_store<'a>(
        store: &Store,
        ids: impl Iterator<Item = &'a str>,
        whose: &Whose,
        since: Option<Stamp>,
    ) -> Signals {
        let after = |at: Stamp| since.is_none_or(|s| at > s);
        let mut s = Signals::default();
        for (i, id) in ids.enumerate() {
            let Some(e) = store.state().papers.get(id) else {
                continue;
            };
            let on = |m: Option<crate::store::Mark>| m.filter(|m| m.on && after(m.at)).is_some();
            let bookmarked = e.bookmark.is_some_and(|m| m.on);
            let read = on(e.read);
            let positive = match whose {
                Whose::Reader => on(e.bookmark),
                Whose::Tag(t) => e.tags.get(t).is_some_and(|t| t.on && after(t.at)),
            };
            if positive {
                s.positives.push(i);
            } else if read && !bookmarked {
                s.negatives.push(i);
            }
        }
        s
    }
}

/// A trained model of one reader or tag.
#[derive(Clone, Debug)]
pub struct Model {
    linear: Linear,
    /// The positives' mean and the negatives' mean (dense), scaled by the
    /// recipe.
    centroid: Vec<f32>,
    /// [`Recipe::smooth`].
    smooth: f32,
}

/// Why no model could be trained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooFew {
    pub positives: usize,
}

impl Model {
    /// Trains on `signals` over `features` by `recipe`.
    pub fn train(features: &Features, signals: &Signals, recipe: Recipe) -> Result<Model, TooFew> {
        if signals.positives.len() < MIN_POSITIVES {
            return Err(TooFew {
                positives: signals.positives.len(),
            });
        }
        let mut model = Model::fit(features, signals, recipe, &[]);
        let extra = (recipe.feedback * signals.positives.len() as f32) as usize;
        if extra == 0 || recipe.feedback_weight <= 0.0 {
            return Ok(model);
        }
        let mut labelled = vec![false; features.len()];
        for &r in signals.positives.iter().chain(&signals.negatives) {
            if let Some(l) = labelled.get_mut(r) {
                *l = true;
            }
        }
        for round in 1..=recipe.rounds.max(1) as usize {
            let mut open: Vec<(f32, usize)> = (0..features.len())
                .filter(|&r| !labelled[r])
                .map(|r| (model.score(features, r), r))
                .collect();
            let extra = (extra * round).min(open.len());
            if extra == 0 {
                break;
            }
            open.select_nth_unstable_by(extra - 1, |a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
            let pseudo: Vec<usize> = open[..extra].iter().map(|&(_, r)| r).collect();
            model = Model::fit(features, signals, recipe, &pseudo);
        }
        Ok(model)
    }

    /// One model: the signals, and `pseudo` positives weighing
    /// `recipe.feedback_weight`.
    fn fit(features: &Features, signals: &Signals, recipe: Recipe, pseudo: &[usize]) -> Model {
        let n = features.len();
        let mut labelled = vec![false; n];
        let mut examples = Vec::with_capacity(n);
        for (rows, positive, cost) in [
            (&signals.positives, true, recipe.cost),
            (&signals.negatives, false, recipe.cost),
            (&pseudo.to_vec(), true, recipe.cost * recipe.feedback_weight),
        ] {
            for &r in rows {
                if r < n && !labelled[r] {
                    labelled[r] = true;
                    examples.push(Example {
                        row: r as u32,
                        positive,
                        cost,
                    });
                }
            }
        }
        let weak = n - examples.len();
        if weak > 0 && recipe.weak_share > 0.0 {
            // Past WEAK_SAMPLE, an even sample of them stands for all,
            // weighing as much together: training stays bounded.
            let step = weak.div_ceil(WEAK_SAMPLE).max(1);
            let taken = weak.div_ceil(step);
            let cost =
                recipe.cost * recipe.weak_share * signals.positives.len() as f32 / taken as f32;
            examples.extend(
                (0..n)
                    .filter(|&r| !labelled[r])
                    .step_by(step)
                    .map(|r| Example {
                        row: r as u32,
                        positive: false,
                        cost,
                    }),
            );
        }
        let linear = Linear::train(features, &examples, DIM, Loss::Hinge);
        let mut centroid = vec![0f32; DIM];
        let pseudo_share = recipe.centroid * recipe.feedback_weight;
        for (rows, share) in [
            (&signals.positives[..], recipe.centroid),
            (pseudo, pseudo_share),
            (&signals.negatives[..], -recipe.negative_centroid),
        ] {
            let k = share / rows.len().max(1) as f32;
            for &r in rows.iter().filter(|&&r| r < n) {
                let (c, v) = features.row(r);
                for (&c, &v) in c.iter().zip(v) {
                    centroid[c as usize] += k * v;
                }
            }
        }
        Model {
            linear,
            centroid,
            smooth: recipe.smooth,
        }
    }

    /// The score of row `i`: higher is likelier wanted.
    pub fn score(&self, features: &Features, i: usize) -> f32 {
        self.linear.score(features, i) + features.dot(i, &self.centroid)
    }

    /// Every row's score, the first [`RERANK`] smoothed by their
    /// neighbours' (see [`Recipe::smooth`]).
    pub fn scores(&self, features: &Features) -> Vec<f32> {
        let mut scores: Vec<f32> = (0..features.len())
            .map(|i| self.score(features, i))
            .collect();
        if self.smooth <= 0.0 || scores.len() < 2 {
            return scores;
        }
        let mut top: Vec<usize> = (0..scores.len()).collect();
        let r = RERANK.min(top.len());
        top.select_nth_unstable_by(r - 1, |&a, &b| {
            scores[b].total_cmp(&scores[a]).then(a.cmp(&b))
        });
        top.truncate(r);
        let smoothed: Vec<f32> = top
            .iter()
            .map(|&i| {
                let mut near: Vec<(f32, usize)> = top
                    .iter()
                    .filter(|&&j| j != i)
                    .map(|&j| (row_dot(features.row(i), features.row(j)), j))
                    .collect();
                let m = NEIGHBOURS.min(near.len());
                if m == 0 {
                    return scores[i];
                }
                near.select_nth_unstable_by(m - 1, |a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
                let mean = near[..m].iter().map(|&(_, j)| scores[j]).sum::<f32>() / m as f32;
                scores[i] + self.smooth * mean
            })
            .collect();
        // Past the first ones, the smoothing is not there: keep them below.
        let floor = top.iter().map(|&i| scores[i]).fold(f32::MAX, f32::min);
        let lift = smoothed.iter().copied().fold(f32::MAX, f32::min) - floor;
        for s in scores.iter_mut() {
            *s += lift.min(0.0);
        }
        for (&i, s) in top.iter().zip(smoothed) {
            scores[i] = s;
        }
        scores
    }

    /// What weighs a column in favour of a paper.
    fn weight(&self, c: u32) -> f32 {
        self.linear.weights[c as usize] + self.centroid[c as usize]
    }

    /// Why paper `p` (row `i`) scores as it does: up to `n` of its words,
    /// pairs or authors that weigh most for it, strongest first. Empty
    /// when nothing of it weighs for it.
    pub fn why(&self, features: &Features, i: usize, p: &Paper, n: usize) -> Vec<String> {
        let (cols, vals) = features.row(i);
        let mut weighed: Vec<(f32, u32)> = cols
            .iter()
            .zip(vals)
            .map(|(&c, &v)| (self.weight(c) * v, c))
            .filter(|&(w, _)| w > 0.0)
            .collect();
        weighed.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        // A few more than asked: a pair and its own words say one thing.
        weighed.truncate(n * 3);
        let mut names: Vec<Option<String>> = vec![None; weighed.len()];
        for_each_term(p, &mut Stems::default(), |c, t| {
            if let Some(k) = weighed.iter().position(|&(_, w)| w == c)
                && names[k].is_none()
            {
                names[k] = Some(t.label());
            }
        });
        let mut out: Vec<String> = Vec::new();
        for name in names.into_iter().flatten() {
            if out.len() == n {
                break;
            }
            // "graph neural" after "graph" adds a word; "graph" after it none.
            if out.iter().any(|o| o.split(' ').any(|w| w == name)) {
                continue;
            }
            out.retain(|o| !name.split(' ').any(|w| w == o));
            out.push(name);
        }
        out
    }
}

/// When each model was last reset, kept beside the marks in
/// `models.json`: marks older than a model's reset do not train it.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Resets {
    #[serde(default)]
    version: u32,
    #[serde(default)]
    reset: std::collections::BTreeMap<String, u64>,
}

/// The file resets are kept in.
pub const RESETS_FILE: &str = "models.json";

impl Resets {
    fn path(dir: &Path) -> PathBuf {
        dir.join(RESETS_FILE)
    }

    /// The resets kept in `dir` (none when the file is missing). A file
    /// that cannot be read is an error naming it.
    pub fn read(dir: &Path) -> Result<Resets, String> {
        let path = Resets::path(dir);
        match std::fs::read_to_string(&path) {
            Ok(text) => serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Resets::default()),
            Err(e) => Err(format!("{}: {e}", path.display())),
        }
    }

    /// When `whose` model was last reset.
    pub fn since(&self, whose: &Whose) -> Option<Stamp> {
        self.reset.get(&whose.key()).map(|&s| Stamp(s))
    }

    /// Forgets `whose` model as of `at` and writes the file in `dir`
    /// (atomically: a new file renamed over the old).
    pub fn reset(&mut self, dir: &Path, whose: &Whose, at: Stamp) -> Result<(), String> {
        self.version = 1;
        self.reset.insert(whose.key(), at.0);
        let path = Resets::path(dir);
        let err = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
        std::fs::create_dir_all(dir).map_err(|e| err(&e))?;
        let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(|e| err(&e))?;
        serde_json::to_writer_pretty(&mut tmp, self).map_err(|e| err(&e))?;
        tmp.persist(&path).map_err(|e| err(&e))?;
        Ok(())
    }
}

/// A model trained for a list, with the rows it was trained on.
pub struct Trained {
    pub features: Features,
    pub model: Model,
}

impl Trained {
    /// Trains `whose` model for `papers` from the marks in `store`
    /// (those before the model's reset, kept beside the store, left out).
    /// `Err` says how few positives there were.
    pub fn from_store(papers: &[Paper], store: &Store, whose: &Whose) -> Result<Trained, TooFew> {
        Trained::with_features(Features::build(papers), papers, store, whose)
    }

    /// As [`Trained::from_store`], over rows already built for `papers`.
    pub fn with_features(
        features: Features,
        papers: &[Paper],
        store: &Store,
        whose: &Whose,
    ) -> Result<Trained, TooFew> {
        let since = store
            .path()
            .parent()
            .and_then(|dir| Resets::read(dir).ok())
            .and_then(|r| r.since(whose));
        let signals =
            Signals::from_store(store, papers.iter().map(|p| p.id.as_str()), whose, since);
        let model = Model::train(&features, &signals, Recipe::DEFAULT)?;
        Ok(Trained { features, model })
    }

    /// Every paper's score.
    pub fn scores(&self) -> Vec<f32> {
        self.model.scores(&self.features)
    }

    /// Why paper `i` scores as it does (see [`Model::why`]).
    pub fn why(&self, i: usize, p: &Paper) -> Vec<String> {
        self.model.why(&self.features, i, p, WHY_WORDS)
    }
}

/// Words, pairs or authors a reason names.
pub const WHY_WORDS: usize = 3;

impl TooFew {
    /// What the reader should do, for `whose` model.
    pub fn advice(&self, whose: &Whose) -> String {
        let what = match whose {
            Whose::Reader => format!(
                "{} bookmarked or kept since the last reset; {MIN_POSITIVES} are needed to learn \
                 from: bookmark (b) or keep (y in triage) a few papers you want to read",
                self.positives
            ),
            Whose::Tag(t) => format!(
                "{} tagged {t} since the last reset; {MIN_POSITIVES} are needed to learn from: \
                 tag a few more papers {t}",
                self.positives
            ),
        };
        format!("{what}, then ask again")
    }
}
