//! Topics on labelled lists: how well the groups match the papers'
//! labels (arXiv archives, venue families: `labels.rs`), by normalized
//! mutual information, beside plain k-means (Lloyd's, k-means++ seeding,
//! Euclidean) on arxiv-sanity-lite's TF-IDF, with the same number of
//! groups.

use std::collections::HashMap;

use paperboat::search::learn::{Fit, Rows, default_k, topic_features, topics_of};

use crate::labels::List;
use crate::recommend::Baseline;

/// Seeds plain k-means is run with (its figure is their mean).
const SEEDS: u64 = 5;

/// Normalized mutual information of two labellings (arithmetic mean of
/// the entropies, as scikit-learn's default).
pub fn nmi(a: &[usize], b: &[usize]) -> f64 {
    let n = a.len() as f64;
    let mut joint: HashMap<(usize, usize), f64> = HashMap::new();
    let mut pa: HashMap<usize, f64> = HashMap::new();
    let mut pb: HashMap<usize, f64> = HashMap::new();
    for (&x, &y) in a.iter().zip(b) {
        *joint.entry((x, y)).or_default() += 1.0;
        *pa.entry(x).or_default() += 1.0;
        *pb.entry(y).or_default() += 1.0;
    }
    let h = |p: &HashMap<usize, f64>| -p.values().map(|&c| c / n * (c / n).ln()).sum::<f64>();
    let mi: f64 = joint
        .iter()
        .map(|(&(x, y), &c)| c / n * ((c / n) / (pa[&x] / n * pb[&y] / n)).ln())
        .sum();
    let denom = (h(&pa) + h(&pb)) / 2.0;
    if denom == 0.0 { 1.0 } else { mi / denom }
}

/// Plain k-means on `rows` (`dim` columns): Lloyd's iterations from
/// k-means++ seeds, squared Euclidean distance.
fn kmeans(rows: &impl Rows, n: usize, dim: usize, k: usize, seed: u64) -> Vec<usize> {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut rand = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let norm2 = |i: usize| rows.row(i).1.iter().map(|v| v * v).sum::<f32>();
    let mut cents: Vec<Vec<f32>> = Vec::new();
    let dist = |i: usize, c: &[f32], cn: f32| norm2(i) + cn - 2.0 * rows.dot(i, c);
    let dense = |i: usize| {
        let mut c = vec![0f32; dim];
        let (cols, vals) = rows.row(i);
        for (&col, &v) in cols.iter().zip(vals) {
            c[col as usize] = v;
        }
        c
    };
    let norms = |cents: &[Vec<f32>]| -> Vec<f32> {
        cents
            .iter()
            .map(|c| c.iter().map(|v| v * v).sum())
            .collect()
    };
    cents.push(dense((rand() * n as f64) as usize % n));
    while cents.len() < k {
        let cn = norms(&cents);
        let d: Vec<f32> = (0..n)
            .map(|i| {
                cents
                    .iter()
                    .zip(&cn)
                    .map(|(c, &x)| dist(i, c, x))
                    .fold(f32::MAX, f32::min)
                    .max(0.0)
            })
            .collect();
        let total: f64 = d.iter().map(|&x| f64::from(x)).sum();
        let mut at = rand() * total;
        let mut pick = n - 1;
        for (i, &x) in d.iter().enumerate() {
            at -= f64::from(x);
            if at <= 0.0 {
                pick = i;
                break;
            }
        }
        cents.push(dense(pick));
    }
    let mut of = vec![0usize; n];
    for _ in 0..50 {
        let cn = norms(&cents);
        let again: Vec<usize> = (0..n)
            .map(|i| {
                (0..k)
                    .min_by(|&a, &b| {
                        dist(i, &cents[a], cn[a]).total_cmp(&dist(i, &cents[b], cn[b]))
                    })
                    .unwrap()
            })
            .collect();
        let moved = again != of;
        of = again;
        let mut sums = vec![vec![0f32; dim]; k];
        let mut size = vec![0usize; k];
        for i in 0..n {
            size[of[i]] += 1;
            let (cols, vals) = rows.row(i);
            for (&c, &v) in cols.iter().zip(vals) {
                sums[of[i]][c as usize] += v;
            }
        }
        for t in 0..k {
            if size[t] > 0 {
                cents[t] = sums[t].iter().map(|v| v / size[t] as f32).collect();
            }
        }
        if !moved {
            break;
        }
    }
    of
}

/// `nmi` over the papers `known` gives a label, numbered.
fn nmi_known(groups: &[usize], known: &[Option<String>]) -> f64 {
    let mut names: HashMap<&str, usize> = HashMap::new();
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for (&g, k) in groups.iter().zip(known) {
        if let Some(k) = k {
            let n = names.len();
            a.push(g);
            b.push(*names.entry(k).or_insert(n));
        }
    }
    nmi(&a, &b)
}

/// Seeds paperboat's topics are also run with, to show how much the
/// seed matters (the reader's are seed 0's).
const OUR_SEEDS: u64 = 8;

/// The mean and the lowest and highest of `xs`.
fn spread(xs: &[f64]) -> (f64, f64, f64) {
    let mean = xs.iter().sum::<f64>() / xs.len() as f64;
    let lo = xs.iter().copied().fold(f64::MAX, f64::min);
    let hi = xs.iter().copied().fold(f64::MIN, f64::max);
    (mean, lo, hi)
}

/// Measures the topics of `list`: NMI with each paper's primary label
/// for the default k, the number of labels and twice that: paperboat's
/// topics as the reader gets them, the same over [`OUR_SEEDS`] seeds
/// (mean, lowest), plain k-means over [`SEEDS`] (mean, highest); and, on
/// an arXiv list, the first and third with the primary category.
pub fn measure(list: &List) {
    let papers = &list.papers;
    let l = &list.labels;
    let known = l.primary.iter().flatten().count();
    let groups = l
        .primary
        .iter()
        .flatten()
        .collect::<std::collections::HashSet<_>>()
        .len();
    let features = topic_features(papers);
    let baseline = Baseline::new(papers);
    let all: Vec<usize> = (0..papers.len()).collect();
    println!(
        "\n{}: {} papers, {known} with a primary {} ({groups} of them); NMI with it",
        list.name,
        papers.len(),
        l.what,
    );
    println!(
        "  {:<4} {:>16} {:>20} {:>26}",
        "k", "paperboat topics", "8 seeds: mean, low", "k-means: mean, high (5)"
    );
    for k in [default_k(papers.len()), groups, 2 * groups] {
        let ours: Vec<Vec<usize>> = (0..OUR_SEEDS)
            .map(|seed| {
                let fit = Fit {
                    seed,
                    ..Fit::DEFAULT
                };
                topics_of(papers, &all, &features, k, fit)
                    .of
                    .iter()
                    .map(|&t| t as usize)
                    .collect()
            })
            .collect();
        let theirs: Vec<Vec<usize>> = (0..SEEDS)
            .map(|seed| kmeans(&baseline, papers.len(), baseline.dim, k, seed + 1))
            .collect();
        let nmis = |runs: &[Vec<usize>]| -> Vec<f64> {
            runs.iter().map(|r| nmi_known(r, &l.primary)).collect()
        };
        let (m, lo, _) = spread(&nmis(&ours));
        let (km, _, hi) = spread(&nmis(&theirs));
        println!(
            "  {k:<4} {:>16.3} {:>13.3}, {lo:.3} {:>19.3}, {hi:.3}",
            nmi_known(&ours[0], &l.primary),
            m,
            km
        );
        if let Some(fine) = &l.fine {
            let per: Vec<f64> = theirs.iter().map(|r| nmi_known(r, fine)).collect();
            println!(
                "  {:<4} {:>16.3} {:>40.3}   (primary category)",
                "",
                nmi_known(&ours[0], fine),
                spread(&per).0
            );
        }
    }
}
