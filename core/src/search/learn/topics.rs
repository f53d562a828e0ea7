//! What a list is about: its papers grouped by spherical k-means on their
//! TF-IDF rows ([`Features`]), each group labelled by its most distinctive
//! words (class-based TF-IDF, as BERTopic labels its topics: a word's
//! weight in the group over its weight in every group). The clustering is
//! a few dozen lines: a dense centroid per topic over the list's most
//! used columns, seeded by k-means++ from a fixed seed, Lloyd's passes,
//! then single rows moved where they raise the objective (Dhillon's first
//! variation), so the same list gets the same topics (and `topic:N` the
//! same papers) every time.

use rustc_hash::FxHashMap;

use super::features::{Features, Stems, Term, for_each_term, unit_length};
use crate::corpus::Paper;

/// Columns the centroids span at most: the list's most used.
const MAX_COLUMNS: usize = 1 << 15;
/// How the centroids are fitted.
#[derive(Clone, Copy, Debug)]
pub struct Fit {
    /// Runs from different seeds; the best is kept.
    pub runs: usize,
    /// Rows the runs are made on at most (an even sample past that);
    /// the best is then refined on `sample` rows.
    pub runs_on: usize,
    /// Rows fitted on at most (an even sample past that); every row is
    /// then assigned once.
    pub sample: usize,
    /// Whether each run, and the best one on `sample` rows, is refined
    /// by moving single rows ([`refine`]) after Lloyd's passes.
    pub refine: bool,
    /// Mixed into the generator's seed (0 for the reader's topics; the
    /// quality bench tries others to see how much the seed matters).
    pub seed: u64,
}

impl Fit {
    /// What `paperboat topics` and the reader use.
    pub const DEFAULT: Fit = Fit {
        runs: 8,
        runs_on: 2_000,
        sample: 20_000,
        refine: true,
        seed: 0,
    };
    /// The textbook: one run over every row (the speed bench's baseline).
    pub const TEXTBOOK: Fit = Fit {
        runs: 1,
        runs_on: usize::MAX,
        sample: usize::MAX,
        refine: false,
        seed: 0,
    };
}
/// Passes of k-means at most.
const MAX_PASSES: usize = 25;
/// Words a topic's `words` list.
const WORDS: usize = 8;
/// Words its label joins.
const LABEL_WORDS: usize = 3;

/// One topic.
#[derive(Clone, Debug, PartialEq)]
pub struct Topic {
    /// Its most distinctive words, joined (`"galaxy, redshift, survey"`).
    pub label: String,
    /// Its most distinctive words and pairs, most distinctive first.
    pub words: Vec<String>,
    /// Its papers, by index, in list order.
    pub papers: Vec<usize>,
}

/// A list's topics, largest first, and each paper's.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Topics {
    pub topics: Vec<Topic>,
    /// By paper: its topic's index in `topics`.
    pub of: Vec<u32>,
}

/// The topics of a list of `n` papers, unless asked: √(n/2)/2.5, from
/// 2 to 60 (4 at 200 papers, 14 at 2,600, 49 at 30,000).
pub fn default_k(n: usize) -> usize {
    ((n as f64 / 2.0).sqrt() / 2.5).round().clamp(2.0, 60.0) as usize
}

/// A splitmix64 step.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Rows projected on the kept columns (renumbered), of unit length.
struct Projected {
    offsets: Vec<usize>,
    cols: Vec<u32>,
    vals: Vec<f32>,
    dim: usize,
}

impl Projected {
    fn new(f: &Features) -> Projected {
        let mut df: FxHashMap<u32, u32> = FxHashMap::default();
        for i in 0..f.len() {
            for &c in f.row(i).0 {
                *df.entry(c).or_default() += 1;
            }
        }
        let n = f.len() as u32;
        // The most used columns, those in four papers of five or more
        // left out (they tell no group from another).
        let mut kept: Vec<(u32, u32)> = df
            .into_iter()
            .filter(|&(_, d)| d * 5 < n.max(2) * 4)
            .collect();
        kept.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        kept.truncate(MAX_COLUMNS);
        let id: FxHashMap<u32, u32> = kept
            .iter()
            .enumerate()
            .map(|(k, &(c, _))| (c, k as u32))
            .collect();
        let mut p = Projected {
            offsets: vec![0],
            cols: Vec::new(),
            vals: Vec::new(),
            dim: kept.len(),
        };
        for i in 0..f.len() {
            let start = p.vals.len();
            let (c, v) = f.row(i);
            for (c, &v) in c.iter().zip(v) {
                if let Some(&k) = id.get(c) {
                    p.cols.push(k);
                    p.vals.push(v);
                }
            }
            unit_length(&mut p.vals[start..]);
            p.offsets.push(p.cols.len());
        }
        p
    }

    fn row(&self, i: usize) -> (&[u32], &[f32]) {
        let r = self.offsets[i]..self.offsets[i + 1];
        (&self.cols[r.clone()], &self.vals[r])
    }

    /// Row `i`'s likeness to each centroid (`centroids` column-major:
    /// `k` values per column), into `out`.
    fn likeness(&self, i: usize, centroids: &[f32], k: usize, out: &mut [f32]) {
        out.iter_mut().for_each(|x| *x = 0.0);
        let (c, v) = self.row(i);
        for (&c, &v) in c.iter().zip(v) {
            let col = &centroids[c as usize * k..c as usize * k + k];
            for (o, &w) in out.iter_mut().zip(col) {
                *o += v * w;
            }
        }
    }

    /// How alike rows `fit` are to their centroids, summed.
    fn fitness(&self, fit: &[usize], of: &[u32], centroids: &[f32], k: usize) -> f32 {
        fit.iter()
            .zip(of)
            .map(|(&i, &t)| {
                let (cols, vals) = self.row(i);
                cols.iter()
                    .zip(vals)
                    .map(|(&c, &v)| v * centroids[c as usize * k + t as usize])
                    .sum::<f32>()
            })
            .sum()
    }

    /// The nearest centroid of each of `rows`, on every core.
    fn assign(&self, rows: &[usize], centroids: &[f32], k: usize) -> Vec<u32> {
        let piece = rows.len().div_ceil(crate::parallel::threads()).max(1);
        crate::parallel::map_pieces(rows, piece, |_, rows| {
            let mut sims = vec![0f32; k];
            rows.iter()
                .map(|&i| {
                    self.likeness(i, centroids, k, &mut sims);
                    let mut best = 0;
                    for (j, &s) in sims.iter().enumerate() {
                        if s > sims[best] {
                            best = j;
                        }
                    }
                    best as u32
                })
                .collect::<Vec<u32>>()
        })
        .concat()
    }

    /// The centroids (column-major, unit length) of `rows` assigned to
    /// `of`; an empty cluster keeps its old centroid.
    fn centroids(&self, rows: &[usize], of: &[u32], k: usize, old: &[f32]) -> Vec<f32> {
        let mut c = vec![0f32; self.dim * k];
        let mut size = vec![0usize; k];
        for (&i, &t) in rows.iter().zip(of) {
            size[t as usize] += 1;
            let (cols, vals) = self.row(i);
            for (&col, &v) in cols.iter().zip(vals) {
                c[col as usize * k + t as usize] += v;
            }
        }
        let mut norm = vec![0f32; k];
        for col in c.chunks(k) {
            for (n, &x) in norm.iter_mut().zip(col) {
                *n += x * x;
            }
        }
        for (col, old) in c.chunks_mut(k).zip(old.chunks(k)) {
            for t in 0..k {
                if size[t] == 0 || norm[t] == 0.0 {
                    col[t] = old[t];
                } else {
                    col[t] /= norm[t].sqrt();
                }
            }
        }
        c
    }
}

/// One run of spherical k-means over rows `fit`: k-means++ seeds, then
/// passes until few rows move. The centroids and each row's group.
fn run(p: &Projected, fit: &[usize], k: usize, seed: &mut u64) -> (Vec<f32>, Vec<u32>) {
    let centroids = seeds(p, fit, k, seed);
    lloyd(p, fit, k, centroids)
}

/// Sweeps over rows `fit` at most in [`refine`].
const MAX_SWEEPS: usize = 20;

/// Dhillon's first variation (incremental spherical k-means): each row
/// in turn moves to the group where the objective, the sum of the
/// groups' summed rows' lengths, gains most, its own group's sum taken
/// without it. Lloyd's passes leave a row where its own weight holds a
/// small group's centroid; this does not. Sweeps stop as Lloyd's passes
/// do, when few rows move (one in two hundred). The centroids after.
fn refine(p: &Projected, fit: &[usize], k: usize, of: &mut [u32]) -> Vec<f32> {
    let mut sums = vec![0f32; p.dim * k];
    let mut size = vec![0usize; k];
    for (&i, &t) in fit.iter().zip(of.iter()) {
        size[t as usize] += 1;
        let (cols, vals) = p.row(i);
        for (&c, &v) in cols.iter().zip(vals) {
            sums[c as usize * k + t as usize] += v;
        }
    }
    let mut dots = vec![0f32; k];
    for _ in 0..MAX_SWEEPS {
        let mut norm2 = vec![0f64; k];
        for col in sums.chunks(k) {
            for (n, &x) in norm2.iter_mut().zip(col) {
                *n += f64::from(x) * f64::from(x);
            }
        }
        let mut moved = 0;
        for (j, &i) in fit.iter().enumerate() {
            let a = of[j] as usize;
            let (cols, vals) = p.row(i);
            if size[a] <= 1 || cols.is_empty() {
                continue;
            }
            let xx: f64 = vals.iter().map(|&v| f64::from(v) * f64::from(v)).sum();
            p.likeness(i, &sums, k, &mut dots);
            let out = norm2[a].sqrt() - (norm2[a] - 2.0 * f64::from(dots[a]) + xx).max(0.0).sqrt();
            let mut best = (0.0, a);
            for b in (0..k).filter(|&b| b != a) {
                let gain = (norm2[b] + 2.0 * f64::from(dots[b]) + xx).max(0.0).sqrt()
                    - norm2[b].sqrt()
                    - out;
                if gain > best.0 {
                    best = (gain, b);
                }
            }
            let (gain, b) = best;
            if gain <= 1e-6 {
                continue;
            }
            norm2[a] += xx - 2.0 * f64::from(dots[a]);
            norm2[b] += xx + 2.0 * f64::from(dots[b]);
            for (&c, &v) in cols.iter().zip(vals) {
                sums[c as usize * k + a] -= v;
                sums[c as usize * k + b] += v;
            }
            size[a] -= 1;
            size[b] += 1;
            of[j] = b as u32;
            moved += 1;
        }
        if moved * 200 <= fit.len() {
            break;
        }
    }
    let mut norm = vec![0f32; k];
    for col in sums.chunks(k) {
        for (n, &x) in norm.iter_mut().zip(col) {
            *n += x * x;
        }
    }
    for col in sums.chunks_mut(k) {
        for (x, &n) in col.iter_mut().zip(&norm) {
            if n > 0.0 {
                *x /= n.sqrt();
            }
        }
    }
    sums
}

/// k-means++ seeds among rows `fit`.
fn seeds(p: &Projected, fit: &[usize], k: usize, seed: &mut u64) -> Vec<f32> {
    // k-means++ seeding: each next centroid a row drawn by its distance
    // (1 - likeness) to the nearest centroid so far.
    let mut centroids = vec![0f32; p.dim * k];
    let mut best = vec![0f32; fit.len()];
    for t in 0..k {
        let pick = if t == 0 {
            fit[(next(seed) % fit.len() as u64) as usize]
        } else {
            let total: f64 = best.iter().map(|&s| f64::from((1.0 - s).max(0.0))).sum();
            let mut at = (next(seed) as f64 / u64::MAX as f64) * total;
            let mut chosen = fit[fit.len() - 1];
            for (j, &s) in best.iter().enumerate() {
                at -= f64::from((1.0 - s).max(0.0));
                if at <= 0.0 {
                    chosen = fit[j];
                    break;
                }
            }
            chosen
        };
        let (cols, vals) = p.row(pick);
        for (&c, &v) in cols.iter().zip(vals) {
            centroids[c as usize * k + t] = v;
        }
        for (j, &i) in fit.iter().enumerate() {
            let (cols, vals) = p.row(i);
            let s: f32 = cols
                .iter()
                .zip(vals)
                .map(|(&c, &v)| v * centroids[c as usize * k + t])
                .sum();
            best[j] = if t == 0 { s } else { best[j].max(s) };
        }
    }
    centroids
}

/// Lloyd's passes over rows `fit` from `centroids`, until few rows move
/// (one in two hundred) or [`MAX_PASSES`].
fn lloyd(p: &Projected, fit: &[usize], k: usize, mut centroids: Vec<f32>) -> (Vec<f32>, Vec<u32>) {
    let mut of = p.assign(fit, &centroids, k);
    for _ in 0..MAX_PASSES {
        centroids = p.centroids(fit, &of, k, &centroids);
        let again = p.assign(fit, &centroids, k);
        let moved = again.iter().zip(&of).filter(|(a, b)| a != b).count();
        of = again;
        if moved * 200 <= fit.len() {
            break;
        }
    }
    (centroids, of)
}

/// Groups `papers` (whose rows `features` holds) into `k` topics.
pub fn topics(papers: &[Paper], features: &Features, k: usize) -> Topics {
    let all: Vec<usize> = (0..papers.len()).collect();
    topics_of(papers, &all, features, k, Fit::DEFAULT)
}

/// [`topics`] of papers `rows` alone, whose rows `features` holds in
/// that order ([`Features::build_picked`]). A topic's `papers` are
/// indices into `papers`; `of` follows `rows`.
pub fn topics_of(
    papers: &[Paper],
    rows: &[usize],
    features: &Features,
    k: usize,
    fit_by: Fit,
) -> Topics {
    let n = features.len();
    if n == 0 {
        return Topics::default();
    }
    let k = k.clamp(1, n);
    let p = Projected::new(features);
    let mut seed =
        0x2545_f491_4f6c_dd1d_u64 ^ n as u64 ^ fit_by.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    // The rows fitted on: all, or an even sample.
    let fit: Vec<usize> = if n <= fit_by.sample {
        (0..n).collect()
    } else {
        (0..fit_by.sample).map(|j| j * n / fit_by.sample).collect()
    };
    // The best of a few runs from different seeds on a small sample (the
    // one whose rows are likest their centroids: the objective), then
    // fitted on `fit`.
    let few: Vec<usize> = if fit.len() <= fit_by.runs_on {
        fit.clone()
    } else {
        (0..fit_by.runs_on)
            .map(|j| fit[j * fit.len() / fit_by.runs_on])
            .collect()
    };
    let mut best: Option<(f32, Vec<f32>, Vec<u32>)> = None;
    for _ in 0..fit_by.runs.max(1) {
        let (mut centroids, mut of) = run(&p, &few, k, &mut seed);
        if fit_by.refine {
            centroids = refine(&p, &few, k, &mut of);
        }
        let fitness = p.fitness(&few, &of, &centroids, k);
        if best.as_ref().is_none_or(|b| fitness > b.0) {
            best = Some((fitness, centroids, of));
        }
    }
    let (_, centroids, of) = best.expect("at least one run");
    let (centroids, of) = if few.len() == fit.len() {
        (centroids, of)
    } else {
        let (mut centroids, mut of) = lloyd(&p, &fit, k, centroids);
        if fit_by.refine {
            centroids = refine(&p, &fit, k, &mut of);
        }
        (centroids, of)
    };
    let all: Vec<usize> = (0..n).collect();
    let of = if n <= fit_by.sample {
        of
    } else {
        p.assign(&all, &centroids, k)
    };
    label(papers, rows, features, &of, k)
}

/// The topics of an assignment: labelled by class-based TF-IDF, empty
/// ones dropped, largest first (ties by first paper), renumbered so.
fn label(papers: &[Paper], rows: &[usize], features: &Features, of: &[u32], k: usize) -> Topics {
    // Each column's weight by topic: the sum of the rows' TF-IDF.
    let mut weight: Vec<FxHashMap<u32, f32>> = vec![FxHashMap::default(); k];
    let mut total = vec![0f32; k];
    let mut overall: FxHashMap<u32, f32> = FxHashMap::default();
    for (i, &t) in of.iter().enumerate() {
        let (cols, vals) = features.row(i);
        for (&c, &v) in cols.iter().zip(vals) {
            let tf = v;
            *weight[t as usize].entry(c).or_default() += tf;
            *overall.entry(c).or_default() += tf;
            total[t as usize] += tf;
        }
    }
    let mean = total.iter().sum::<f32>() / k as f32;
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); k];
    for (i, &t) in of.iter().enumerate() {
        members[t as usize].push(i);
    }
    let mut topics: Vec<Topic> = Vec::new();
    let mut order: Vec<usize> = (0..k).filter(|&t| !members[t].is_empty()).collect();
    order.sort_by(|&a, &b| {
        members[b]
            .len()
            .cmp(&members[a].len())
            .then(members[a][0].cmp(&members[b][0]))
    });
    for &t in &order {
        let mut scored: Vec<(f32, u32)> = weight[t]
            .iter()
            .map(|(&c, &w)| {
                let ctfidf = w / total[t].max(1e-6) * (1.0 + mean / overall[&c]).ln();
                (ctfidf, c)
            })
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        scored.truncate(WORDS * 4);
        let members: Vec<usize> = members[t].iter().map(|&i| rows[i]).collect();
        let words = name_columns(papers, &members, &scored);
        let label = words
            .iter()
            .filter(|w| !w.contains(' '))
            .take(LABEL_WORDS)
            .cloned()
            .collect::<Vec<_>>()
            .join(", ");
        topics.push(Topic {
            label,
            words: words.into_iter().take(WORDS).collect(),
            papers: members,
        });
    }
    let mut renumber = vec![0u32; k];
    for (new, &t) in order.iter().enumerate() {
        renumber[t] = new as u32;
    }
    Topics {
        topics,
        of: of.iter().map(|&t| renumber[t as usize]).collect(),
    }
}

/// The words and pairs behind the best columns of a topic, in the order
/// of `scored`, authors left out: read from up to 100 of its papers.
fn name_columns(papers: &[Paper], members: &[usize], scored: &[(f32, u32)]) -> Vec<String> {
    let mut names: Vec<Option<String>> = vec![None; scored.len()];
    let mut authors = vec![false; scored.len()];
    let mut stems = Stems::default();
    let step = members.len().div_ceil(100).max(1);
    for &i in members.iter().step_by(step) {
        for_each_term(&papers[i], &mut stems, |c, term| {
            if let Some(k) = scored.iter().position(|&(_, s)| s == c) {
                if matches!(term, Term::Author(_)) {
                    authors[k] = true;
                } else if names[k].is_none() {
                    names[k] = Some(term.label());
                }
            }
        });
    }
    let mut out: Vec<String> = Vec::new();
    for (name, author) in names.into_iter().zip(authors) {
        let Some(name) = name.filter(|_| !author) else {
            continue;
        };
        if !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

/// The rows topics group by: words and pairs, not authors (a paper's
/// authors say who, not what about).
pub fn topic_features(papers: &[Paper]) -> Features {
    let all: Vec<usize> = (0..papers.len()).collect();
    topic_features_of(papers, &all)
}

/// [`topic_features`] of papers `rows` alone.
pub fn topic_features_of(papers: &[Paper], rows: &[usize]) -> Features {
    Features::build_picked(papers, rows, |t| !matches!(t, Term::Author(_)))
}

/// The topics of `papers`: `k` of them, or [`default_k`]'s.
pub fn list_topics(papers: &[Paper], k: Option<usize>) -> Topics {
    let features = topic_features(papers);
    topics(
        papers,
        &features,
        k.unwrap_or_else(|| default_k(papers.len())),
    )
}

impl Topics {
    /// Each paper's topic's number, from 1 (as `topic:` and the commands
    /// number them).
    pub fn numbers(&self) -> Vec<u32> {
        self.of.iter().map(|&t| t + 1).collect()
    }

    /// The topics as bytes to keep (the cache keeps them beside the word
    /// index): JSON of the labels and words, and each paper's topic.
    pub fn to_bytes(&self) -> Vec<u8> {
        let kept = Kept {
            method: METHOD,
            labels: self
                .topics
                .iter()
                .map(|t| (t.label.clone(), t.words.clone()))
                .collect(),
            of: self.of.clone(),
        };
        serde_json::to_vec(&kept).unwrap_or_default()
    }

    /// The topics [`Topics::to_bytes`] made, of a list of `papers`
    /// papers; `None` when they are not that (another list, another
    /// [`METHOD`], damage).
    pub fn from_bytes(bytes: &[u8], papers: usize) -> Option<Topics> {
        let kept: Kept = serde_json::from_slice(bytes).ok()?;
        let k = kept.labels.len();
        if kept.method != METHOD
            || kept.of.len() != papers
            || kept.of.iter().any(|&t| t as usize >= k)
        {
            return None;
        }
        let mut topics: Vec<Topic> = kept
            .labels
            .into_iter()
            .map(|(label, words)| Topic {
                label,
                words,
                papers: Vec::new(),
            })
            .collect();
        for (i, &t) in kept.of.iter().enumerate() {
            topics[t as usize].papers.push(i);
        }
        Some(Topics {
            topics,
            of: kept.of,
        })
    }
}

/// How topics are grouped, kept with them: topics kept by another
/// method (0: before it was kept, Lloyd's passes alone) are grouped again.
const METHOD: u32 = 1;

/// What [`Topics::to_bytes`] keeps.
#[derive(serde::Serialize, serde::Deserialize)]
struct Kept {
    #[serde(default)]
    method: u32,
    labels: Vec<(String, Vec<String>)>,
    of: Vec<u32>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::tests::paper;

    /// `n` papers on galaxies and `n` on graphs, one of each in turn.
    fn two_subjects(n: usize) -> Vec<Paper> {
        let mut papers = Vec::new();
        for i in 0..n {
            papers.push(paper(
                &format!("Galaxy redshift survey {i}"),
                "galaxies stars telescope redshift cosmology",
            ));
            papers.push(paper(
                &format!("Graph coloring bounds {i}"),
                "graphs vertices chromatic number edges",
            ));
        }
        papers
    }

    #[test]
    fn two_subjects_make_two_labelled_topics() {
        let mut papers = two_subjects(12);
        papers.push(paper("Galaxy clusters", "redshift of galaxies"));
        let f = Features::build(&papers);
        let t = topics(&papers, &f, 2);
        assert_eq!(t.topics.len(), 2);
        assert_eq!(t.topics[0].papers.len(), 13, "largest first");
        assert!(
            t.topics[0].label.contains("galax") || t.topics[0].label.contains("redshift"),
            "{:?}",
            t.topics[0]
        );
        assert!(
            t.topics[1]
                .words
                .iter()
                .any(|w| w.contains("graph") || w.contains("chromatic")),
            "{:?}",
            t.topics[1]
        );
        for (i, &o) in t.of.iter().enumerate() {
            assert!(t.topics[o as usize].papers.contains(&i));
        }
        // The same list, the same topics; kept and read back.
        assert_eq!(topics(&papers, &f, 2), t);
        assert_eq!(
            Topics::from_bytes(&t.to_bytes(), papers.len()),
            Some(t.clone())
        );
        assert_eq!(Topics::from_bytes(&t.to_bytes(), papers.len() + 1), None);
        assert_eq!(Topics::from_bytes(b"{", papers.len()), None);
        // Kept by the method before: grouped again.
        let old = br#"{"labels": [["galaxy", []]], "of": [0]}"#;
        assert_eq!(Topics::from_bytes(old, 1), None);
        let this = format!(r#"{{"method": {METHOD}, "labels": [["galaxy", []]], "of": [0]}}"#);
        assert_eq!(
            Topics::from_bytes(this.as_bytes(), 1).map(|t| t.of),
            Some(vec![0])
        );
    }

    #[test]
    fn refining_moves_rows_to_their_subject() {
        // Two subjects, grouped badly on purpose: each group holds half of
        // each. Moving single rows must raise the objective and end with
        // one subject a group.
        let papers = two_subjects(10);
        let f = topic_features(&papers);
        let p = Projected::new(&f);
        let rows: Vec<usize> = (0..papers.len()).collect();
        let mut of: Vec<u32> = rows.iter().map(|&i| (i / 2 % 2) as u32).collect();
        let before = p.centroids(&rows, &of, 2, &vec![0.0; p.dim * 2]);
        let was = p.fitness(&rows, &of, &before, 2);
        let centroids = refine(&p, &rows, 2, &mut of);
        assert!(p.fitness(&rows, &of, &centroids, 2) > was + 1.0);
        for i in 0..papers.len() {
            assert_eq!(of[i] == of[0], i % 2 == 0, "paper {i}: {of:?}");
        }
    }

    #[test]
    fn default_k_grows_with_the_list() {
        assert_eq!(default_k(0), 2);
        assert!(default_k(3_000) > default_k(200));
        assert_eq!(default_k(10_000_000), 60);
    }
}
