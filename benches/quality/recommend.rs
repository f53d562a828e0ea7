//! Recommendations on labelled lists: simulated readers who like one
//! label (an arXiv archive, a venue family: `labels.rs`) bookmark a few
//! of its papers and skip a few others, and the figure is the share of
//! the first 20 unread papers recommended that have that label
//! (precision@20), beside `related --bookmarked` and arxiv-sanity-lite's
//! recipe (TF-IDF of words and pairs, a linear SVM).

use std::collections::HashMap;

use paperboat::corpus::Paper;
use paperboat::search::learn::features::unit_length;
use paperboat::search::learn::{Example, Features, Linear, Loss, Model, Recipe, Rows, Signals};
use paperboat::search::{Probe, paper_text, related_papers};

use crate::baselines::top;
use crate::labels::List;
use crate::queries::{Rng, content, words};

/// Bookmarks and skips per simulated reader (`--skips N` sets the
/// skips).
pub const POSITIVES: usize = 8;
pub const NEGATIVES: usize = 8;
/// Readers per label and draw.
const READERS: usize = 10;
/// The first recommendations looked at.
const AT: usize = 20;

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

/// Precision@20 summed per system over the readers, overall and by
/// the label they like.
#[derive(Default)]
pub struct Tally {
    pub readers: usize,
    pub hits: [usize; SYSTEMS.len()],
    /// By label, in the order readers like them: readers and hits.
    pub per: Vec<(String, usize, [usize; SYSTEMS.len()])>,
    /// By reader: hits.
    pub each: Vec<[usize; SYSTEMS.len()]>,
    /// By label: [`likest`]'s share and chance.
    pub likest: Vec<(String, f64, f64)>,
}

impl Tally {
    fn add(&mut self, label: &str, hits: [usize; SYSTEMS.len()]) {
        self.readers += 1;
        let at = match self.per.iter().position(|p| p.0 == label) {
            Some(at) => at,
            None => {
                self.per.push((label.to_string(), 0, [0; SYSTEMS.len()]));
                self.per.len() - 1
            }
        };
        self.per[at].1 += 1;
        self.each.push(hits);
        for (s, h) in hits.iter().enumerate() {
            self.hits[s] += h;
            self.per[at].2[s] += h;
        }
    }
}

/// How far the words tell a label from the others, whatever the
/// system: of each of its papers' [`AT`] likest labelled papers (cosine
/// of the rows), the share with the label, over its papers; and that
/// share by chance.
fn likest(features: &Features, of: &[Vec<String>], label: &str) -> (f64, f64) {
    let known: Vec<usize> = (0..of.len()).filter(|&i| !of[i].is_empty()).collect();
    let members: Vec<usize> = known
        .iter()
        .copied()
        .filter(|&i| of[i].iter().any(|l| l == label))
        .collect();
    let mut dense = vec![0f32; paperboat::search::learn::DIM];
    let mut share = 0.0;
    for &m in &members {
        let (cols, vals) = features.row(m);
        for (&c, &v) in cols.iter().zip(vals) {
            dense[c as usize] = v;
        }
        let near: Vec<(u32, f64)> = known
            .iter()
            .filter(|&&j| j != m)
            .map(|&j| (j as u32, f64::from(features.dot(j, &dense))))
            .collect();
        let with = top(near, AT)
            .iter()
            .filter(|&&j| of[j].iter().any(|l| l == label))
            .count();
        share += with as f64 / AT as f64;
        for &c in cols {
            dense[c as usize] = 0.0;
        }
    }
    let m = members.len().max(1) as f64;
    let chance = (m - 1.0) / (known.len() as f64 - 1.0).max(1.0);
    (share / m, chance)
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

/// Runs the simulated readers on `list`, [`READERS`] per label and per
/// draw of the generator (seeded with the list, the label and the draw:
/// the recipe was tuned on the arXiv sample's draw `""`). A paper with
/// no label is neither bookmarked nor skipped, and left out of the
/// ranking counted (it is neither a hit nor a miss); it is still in the
/// list the models learn from.
pub fn measure(list: &List, draws: &[&str], skips: usize) -> Tally {
    let papers = &list.papers;
    let of = &list.labels.of;
    let features = Features::build(papers);
    let baseline = Baseline::new(papers);
    let n = papers.len();
    let mut t = Tally::default();
    for label in &list.labels.liked {
        let (share, chance) = likest(&features, of, label);
        t.likest.push((label.clone(), share, chance));
    }
    for draw in draws {
        for label in &list.labels.liked {
            let members: Vec<usize> = (0..n).filter(|&i| of[i].contains(label)).collect();
            let others: Vec<usize> = (0..n)
                .filter(|&i| !of[i].is_empty() && !of[i].contains(label))
                .collect();
            let mut rng = Rng::named(&format!("{}:{label}{draw}", list.name));
            for _ in 0..READERS {
                let signals = Signals {
                    positives: sample(&mut rng, &members, POSITIVES),
                    negatives: sample(&mut rng, &others, skips),
                };
                let mut open: Vec<bool> = of.iter().map(|o| !o.is_empty()).collect();
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
                let hits = rankings.map(|r| r.iter().filter(|&&i| of[i].contains(label)).count());
                t.add(label, hits);
            }
        }
    }
    t
}

/// Short names of the systems, for the table by label.
const SHORT: [&str; SYSTEMS.len()] = ["ours", "SVM", "no weak", "related", "a-s-l", "C=1"];

/// Prints the table of one list: overall, then by label.
pub fn print(title: &str, list: &List, t: &Tally, skips: usize) {
    let pct = |hits: usize, readers: usize| 100.0 * hits as f64 / (readers * AT).max(1) as f64;
    println!(
        "\n{title}: {} readers, each {POSITIVES} bookmarks of one {} and {skips} skips of others",
        t.readers, list.labels.what
    );
    println!("  {:<34} {:>14}", "system", "precision@20");
    for (s, sys) in SYSTEMS.iter().enumerate() {
        println!("  {sys:<34} {:>13.1}%", pct(t.hits[s], t.readers));
    }
    // How far recommend is above each baseline, reader by reader: the
    // mean difference and the half-width of its 95% interval (normal,
    // over the readers drawn).
    for (s, sys) in [(3, "related --bookmarked"), (4, "arxiv-sanity-lite")] {
        let d: Vec<f64> = t
            .each
            .iter()
            .map(|h| 100.0 * (h[0] as f64 - h[s] as f64) / AT as f64)
            .collect();
        let n = d.len().max(2) as f64;
        let mean = d.iter().sum::<f64>() / n;
        let var = d.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0);
        println!(
            "  recommend above {sys:<21} {mean:>+5.1} points (95%: ±{:.1})",
            1.96 * (var / n).sqrt()
        );
    }
    print!("  {:<36} {:>7}", "by label (papers)", "readers");
    for s in SHORT {
        print!(" {s:>8}");
    }
    println!(" {:>16}", "likest (chance)");
    for (label, readers, hits) in &t.per {
        let size = list.labels.of.iter().filter(|o| o.contains(label)).count();
        print!("  {:<36} {readers:>7}", format!("{label} ({size})"));
        for h in hits {
            print!(" {:>7.1}%", pct(*h, *readers));
        }
        if let Some((_, share, chance)) = t.likest.iter().find(|l| &l.0 == label) {
            print!(" {:>7.1}% ({:.1}%)", 100.0 * share, 100.0 * chance);
        }
        println!();
    }
    println!(
        "  likest: of each paper's {AT} likest labelled papers (cosine of the rows), the share with its label"
    );
}
