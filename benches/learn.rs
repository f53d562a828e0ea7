//! Speed of the reader's models: the TF-IDF rows, a recommendation model
//! trained (and trained again, as after a mark) and the topics of a list,
//! beside baselines measured in the same run: `related --bookmarked`'s
//! ranking and arxiv-sanity-lite's LinearSVC (every paper an example) for
//! the model, textbook k-means (one run over every row) for the topics.
//!
//! `cargo bench --bench learn -- FILE...` (lists made by e.g.
//! `cargo run --release --example gen_corpus -- jsonl 30k f.jsonl`);
//! `SKIP_TEXTBOOK=1` leaves out the textbook k-means (minutes at 1M).

use std::time::Instant;

use paperboat::loading::{Input, Options, load};
use paperboat::search::learn::{
    DIM, Example, Features, Fit, Linear, Loss, Model, Recipe, Signals, default_k, topic_features,
    topics_of,
};
use paperboat::search::{Probe, related_papers};

/// Seconds since `t`.
fn secs(t: Instant) -> f64 {
    t.elapsed().as_secs_f64()
}

fn main() {
    paperboat::alloc::configure();
    let files: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let textbook = std::env::var_os("SKIP_TEXTBOOK").is_none();
    println!("threads: {}", paperboat::parallel::threads());
    for f in files {
        let t = Instant::now();
        let opts = Options {
            cache: None,
            ..Default::default()
        };
        let loaded = match load(&[Input::Path(f.clone().into())], &opts) {
            Ok(l) => l,
            Err(e) => {
                println!("{f}: {e}");
                continue;
            }
        };
        let papers: &[paperboat::corpus::Paper] = &loaded.corpus.papers;
        let n = papers.len();
        println!("\n{f}: {n} papers (loaded in {:.1} s)", secs(t));
        // A reader with 8 bookmarks and 8 skips, spread over the list.
        let signals = Signals {
            positives: (0..8).map(|k| k * n / 8).collect(),
            negatives: (0..8).map(|k| k * n / 8 + n / 16).collect(),
        };
        let t = Instant::now();
        let features = Features::build(papers);
        let rows = secs(t);
        let t = Instant::now();
        let model = Model::train(&features, &signals, Recipe::DEFAULT).expect("8 positives");
        let scores = model.scores(&features);
        let train = secs(t);
        let t = Instant::now();
        let again = Model::train(&features, &signals, Recipe::DEFAULT).expect("8 positives");
        let _ = again.scores(&features);
        let retrain = secs(t);
        let t = Instant::now();
        let pos = signals.positives.len() as f32;
        let examples: Vec<Example> = (0..n)
            .map(|i| {
                let positive = signals.positives.contains(&i);
                let share = if positive { pos } else { n as f32 - pos };
                Example {
                    row: i as u32,
                    positive,
                    cost: 0.01 * n as f32 / (2.0 * share),
                }
            })
            .collect();
        let svm = Linear::train(&features, &examples, DIM, Loss::SquaredHinge);
        let _: Vec<f32> = (0..n).map(|i| svm.score(&features, i)).collect();
        let svm_secs = secs(t);
        let t = Instant::now();
        let related = related_papers(papers, Probe::Papers(&signals.positives), 20, &|_| true);
        let related_secs = secs(t);
        assert!(!related.is_empty() && scores.len() == n);
        println!("  {:<44} {:>9}", "recommend", "seconds");
        println!("  {:<44} {rows:>9.2}", "TF-IDF rows (once a list)");
        println!("  {:<44} {train:>9.2}", "model trained, every paper scored");
        println!("  {:<44} {retrain:>9.2}", "  again (after a mark)");
        println!(
            "  {:<44} {svm_secs:>9.2}",
            "baseline: LinearSVC, every paper (a-s-lite)"
        );
        println!(
            "  {:<44} {related_secs:>9.2}",
            "baseline: related --bookmarked (its index too)"
        );
        let k = default_k(n);
        let all: Vec<usize> = (0..n).collect();
        let t = Instant::now();
        let tf = topic_features(papers);
        let topic_rows = secs(t);
        let t = Instant::now();
        let found = topics_of(papers, &all, &tf, k, Fit::DEFAULT);
        let ours = secs(t);
        println!("  {:<44} {:>9}", format!("topics (k = {k})"), "seconds");
        println!(
            "  {:<44} {topic_rows:>9.2}",
            "TF-IDF rows (words and pairs)"
        );
        println!(
            "  {:<44} {ours:>9.2}",
            format!("grouped and labelled ({} topics)", found.topics.len())
        );
        if textbook {
            let t = Instant::now();
            let _ = topics_of(papers, &all, &tf, k, Fit::TEXTBOOK);
            println!(
                "  {:<44} {:>9.2}",
                "baseline: textbook k-means, every row, 1 run",
                secs(t)
            );
        }
    }
}
