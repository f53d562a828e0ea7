//! Recommendations on the arXiv sample: simulated readers who like one
//! arXiv archive bookmark a few of its papers and skip a few others, and
//! the figure is the share of the first 20 unread papers recommended that
//! are of that archive (precision@20), beside `related --bookmarked` and
//! arxiv-sanity-lite's recipe (TF-IDF of words and pairs, a linear SVM).

use std::collections::HashMap;

use paperboat::corpus::Paper;
use paperboat::search::learn::features::unit_length;
use paperboat::search::learn::{Example, Features, Linear, Loss, Model, Recipe, Rows, Signals};
use paperboat::search::{Probe, paper_text, related_papers};

use crate::baselines::top;
use crate::load_or_say;
use crate::queries::{Rng, content, words};
use crate::related::categories;

/// Bookmarks and skips per simulated reader.
pub const POSITIVES: usize = 8;
pub const NEGATIVES: usize = 8;
/// Readers per archive.
const READERS: usize = 10;
/// An archive is liked by readers when it has this many papers or more.
const MIN_ARCHIVE: usize = 20;
/// The first recommendations looked at.
const AT: usize = 20;

/// Each paper's archives (every category's, cross-lists too), and the
/// archives with enough papers to be liked, largest first.
pub fn archives(path: &str, papers: &[Paper]) -> (Vec<Vec<String>>, Vec<String>) {
    let cats = categories(path);
    let of: Vec<Vec<String>> = papers
        .iter()
        .map(|p| {
            let mut a: Vec<String> =
                p.id.as_str()
                    .strip_prefix("arxiv:")
                    .and_then(|id| cats.get(id))
                    .map(|c| {
                        c.split_whitespace()
                            .map(|c| c.split('.').next().unwrap_or(c).to_string())
                            .collect()
                    })
                    .unwrap_or_default();
            a.sort();
            a.dedup();
            a
        })
        .collect();
    let mut n: HashMap<&str, usize> = HashMap::new();
    for a in of.iter().flatten() {
        *n.entry(a).or_default() += 1;
    }
    let mut liked: Vec<(usize, String)> = n
        .into_iter()
        .filter(|&(_, k)| k >= MIN_ARCHIVE)
        .map(|(a, k)| (k, a.to_string()))
        .collect();
    liked.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    (of, liked.into_iter().map(|(_, a)| a).collect())
}

/// arxiv-sanity-lite's features, as its scikit-learn `TfidfVectorizer`
/// makes them: lower-cased words without stop words, and pairs of them,
/// sublinear TF, smoothed IDF, rows of unit length (no stemming).
pub struct Baseline {
    offsets: Vec<usize>,
    cols: Vec<u32>,
    vals: Vec<f32>,
    pub dim: usize,
}

impl Rows for Baseline {
    fn row(&self, i: usize) -> (&[u32], &[f32]) {
        let r = self.offsets[i]..self.offsets[i + 1];
        (&self.cols[r.clone()], &self.vals[r])
    }
}

impl Baseline {
    pub fn new(papers: &[Paper]) -> Baseline {
        let mut vocab: HashMap<String, u32> = HashMap::new();
        let mut rows: Vec<Vec<(u32, f32)>> = Vec::new();
        for p in papers {
            let ws: Vec<String> = words(&paper_text(p))
                .into_iter()
                .filter(|w| content(w))
                .collect();
            let mut terms: Vec<String> = ws.clone();
            terms.extend(ws.windows(2).map(|w| format!("{} {}", w[0], w[1])));
            let mut tf: HashMap<u32, f32> = HashMap::new();
            for t in terms {
                let n = vocab.len() as u32;
                *tf.entry(*vocab.entry(t).or_insert(n)).or_default() += 1.0;
            }
            let mut row: Vec<(u32, f32)> = tf.into_iter().collect();
            row.sort_by_key(|t| t.0);
            rows.push(row);
        }
        let mut df = vec![0f32; vocab.len()];
        for &(c, _) in rows.iter().flatten() {
            df[c as usize] += 1.0;
        }
        let n = papers.len() as f32;
        let mut b = Baseline {
            offsets: vec![0],
            cols: Vec::new(),
            vals: Vec::new(),
            dim: vocab.len(),
        };
        for row in rows {
            let start = b.vals.len();
            for (c, tf) in row {
                let idf = ((1.0 + n) / (1.0 + df[c as usize])).ln() + 1.0;
                b.cols.push(c);
                b.vals.push((1.0 + tf.ln()) * idf);
            }
            unit_length(&mut b.vals[start..]);
            b.offsets.push(b.cols.len());
        }
        b
    }

    /// `LinearSVC(class_weight='balanced', C)` over the reader's
    /// positives against every other paper (as arxiv-sanity-lite trains a
    /// tag), its scores.
    pub fn svm(&self, n: usize, positives: &[usize], c: f32) -> Vec<f32> {
        let pos = positives.len() as f32;
        let neg = (n - positives.len()) as f32;
        let examples: Vec<Example> = (0..n)
            .map(|i| {
                let positive = positives.contains(&i);
                let weight = n as f32 / (2.0 * if positive { pos } else { neg });
                Example {
                    row: i as u32,
                    positive,
                    cost: c * weight,
                }
            })
            .collect();
        let m = Linear::train(self, &examples, self.dim, Loss::SquaredHinge);
        (0..n).map(|i| m.score(self, i)).collect()
    }
}

/// The systems compared, by name.
pub const SYSTEMS: [&str; 6] = [
    "paperboat recommend",
    "  its SVM alone",
    "  without weak negatives",
    "related --bookmarked",
    "TF-IDF + SVM, C=0.01 (a-s-lite)",
    "TF-IDF + SVM, C=1",
];

/// Precision@20 summed per system over the readers.
#[derive(Default)]
pub struct Tally {
    pub readers: usize,
    pub hits: [usize; SYSTEMS.len()],
}

/// The first [`AT`] of `scores` among papers `open`, best first.
fn first(scores: &[f32], open: &[bool]) -> Vec<usize> {
    let scored: Vec<(u32, f64)> = scores
        .iter()
        .enumerate()
        .filter(|&(i, _)| open[i])
        .map(|(i, &s)| (i as u32, f64::from(s)))
        .collect();
    top(scored, AT)
}

/// `k` of `xs` drawn at random.
fn sample(rng: &mut Rng, xs: &[usize], k: usize) -> Vec<usize> {
    let mut xs = xs.to_vec();
    rng.shuffle(&mut xs);
    xs.truncate(k);
    xs
}

/// Runs the simulated readers on `path` (a JSON Lines arXiv list),
/// drawn by the generator seeded with `draw` too (the recipe was tuned
/// on the draw `""`; others are readers it was not tuned on).
pub fn measure(path: &str, draw: &str) -> Option<(String, Tally)> {
    let c = load_or_say(path)?;
    let papers = &c.papers;
    let (of, liked) = archives(path, papers);
    let features = Features::build(papers);
    let baseline = Baseline::new(papers);
    let n = papers.len();
    let mut t = Tally::default();
    for archive in &liked {
        let members: Vec<usize> = (0..n).filter(|&i| of[i].contains(archive)).collect();
        let others: Vec<usize> = (0..n)
            .filter(|&i| !of[i].is_empty() && !of[i].contains(archive))
            .collect();
        let mut rng = Rng::named(&format!("{}:{archive}{draw}", c.name));
        for _ in 0..READERS {
            let signals = Signals {
                positives: sample(&mut rng, &members, POSITIVES),
                negatives: sample(&mut rng, &others, NEGATIVES),
            };
            let mut open = vec![true; n];
            for &i in signals.positives.iter().chain(&signals.negatives) {
                open[i] = false;
            }
            let model = |recipe| {
                Model::train(&features, &signals, recipe)
                    .map(|m| m.scores(&features))
                    .unwrap_or_default()
            };
            let related: Vec<usize> =
                related_papers(papers, Probe::Papers(&signals.positives), AT, &|i| open[i])
                    .iter()
                    .map(|r| r.idx)
                    .collect();
            let rankings = [
                first(&model(Recipe::DEFAULT), &open),
                first(
                    &model(Recipe {
                        centroid: 0.0,
                        negative_centroid: 0.0,
                        feedback: 0.0,
                        smooth: 0.0,
                        ..Recipe::DEFAULT
                    }),
                    &open,
                ),
                first(
                    &model(Recipe {
                        weak_share: 0.0,
                        ..Recipe::DEFAULT
                    }),
                    &open,
                ),
                related,
                first(&baseline.svm(n, &signals.positives, 0.01), &open),
                first(&baseline.svm(n, &signals.positives, 1.0), &open),
            ];
            t.readers += 1;
            for (s, r) in rankings.iter().enumerate() {
                t.hits[s] += r.iter().filter(|&&i| of[i].contains(archive)).count();
            }
        }
    }
    Some((
        format!(
            "{} ({} archives: {})",
            c.name,
            liked.len(),
            liked.join(", ")
        ),
        t,
    ))
}

/// Prints the table of one list.
pub fn print(name: &str, t: &Tally) {
    println!(
        "\n{name}: {} readers, each {POSITIVES} bookmarks of the archive and {NEGATIVES} skips of others",
        t.readers
    );
    println!("  {:<34} {:>14}", "system", "precision@20");
    for (s, sys) in SYSTEMS.iter().enumerate() {
        let p = t.hits[s] as f64 / (t.readers * AT).max(1) as f64;
        println!("  {sys:<34} {:>13.1}%", 100.0 * p);
    }
}
