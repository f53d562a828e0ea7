//! Topics on the arXiv sample: how well the groups match the papers'
//! arXiv archives (normalized mutual information), beside plain k-means
//! (Lloyd's, k-means++ seeding, Euclidean) on arxiv-sanity-lite's TF-IDF,
//! with the same number of groups.

use std::collections::HashMap;

use paperboat::search::learn::{Rows, default_k, topic_features, topics};

use crate::recommend::Baseline;
use crate::related::categories;

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

/// Measures the topics of `path` (JSON Lines with arXiv categories).
pub fn measure(path: &str) {
    let Some(c) = crate::load_or_say(path) else {
        return;
    };
    let cats = categories(path);
    let papers = &c.papers;
    // Each paper's primary archive and primary category, numbered.
    let mut names: HashMap<String, usize> = HashMap::new();
    let mut label = |s: String| {
        let n = names.len();
        *names.entry(s).or_insert(n)
    };
    let primary: Vec<String> = papers
        .iter()
        .map(|p| {
            let id = p.id.as_str().trim_start_matches("arxiv:");
            cats.get(id)
                .and_then(|c| c.split_whitespace().next())
                .unwrap_or("")
                .to_string()
        })
        .collect();
    let archive: Vec<usize> = primary
        .iter()
        .map(|c| label(format!("a:{}", c.split('.').next().unwrap_or(c))))
        .collect();
    let category: Vec<usize> = primary.iter().map(|c| label(format!("c:{c}"))).collect();
    let archives = archive
        .iter()
        .collect::<std::collections::HashSet<_>>()
        .len();
    let features = topic_features(papers);
    let baseline = Baseline::new(papers);
    println!(
        "\n{}: {} papers, {archives} archives; NMI with the primary archive (and category)",
        c.name,
        papers.len()
    );
    println!(
        "  {:<8} {:>22} {:>26}",
        "k", "paperboat topics", "k-means on TF-IDF (mean)"
    );
    for k in [default_k(papers.len()), archives, 2 * archives] {
        let ours: Vec<usize> = topics(papers, &features, k)
            .of
            .iter()
            .map(|&t| t as usize)
            .collect();
        let (mut ka, mut kc) = (0.0, 0.0);
        for seed in 0..SEEDS {
            let theirs = kmeans(&baseline, papers.len(), baseline.dim, k, seed + 1);
            ka += nmi(&theirs, &archive);
            kc += nmi(&theirs, &category);
        }
        println!(
            "  {k:<8} {:>13.3} ({:.3}) {:>17.3} ({:.3})",
            nmi(&ours, &archive),
            nmi(&ours, &category),
            ka / SEEDS as f64,
            kc / SEEDS as f64
        );
    }
}
