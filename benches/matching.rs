//! Matching speed: ranks titles for the short, medium and long
//! queries at several corpus sizes, through the same code as `search`.
//!
//! `cargo bench --bench matching -- FILE...` (files in the `lines` format,
//! e.g. from `cargo run --release --example gen_corpus -- lines 1M f.txt`).

use std::time::{Duration, Instant};

use paperboat::corpus::text;
use paperboat::search::{Scope, rank_papers};

fn main() {
    paperboat::alloc::configure();
    let files: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    for f in files {
        let content = std::fs::read_to_string(&f).expect("read");
        let t = Instant::now();
        let list: std::sync::Arc<str> = "bench".into();
        let papers: Vec<_> = text::parse_lines(&content)
            .records
            .into_iter()
            .enumerate()
            .filter_map(|(i, r)| r.into_paper(&list, i as u32))
            .collect();
        println!(
            "{f}: {} titles, parsed in {:.0} ms",
            papers.len(),
            t.elapsed().as_secs_f64() * 1e3
        );
        for q in ["rl", "sparse attn", "diffusion language model decoding"] {
            let mut times: Vec<Duration> = Vec::new();
            let mut n = 0;
            for _ in 0..5 {
                let t = Instant::now();
                n = rank_papers(&papers, q, Scope::Title).len();
                times.push(t.elapsed());
            }
            times.sort();
            println!(
                "  {q:?}: {n} matches, median {:.1} ms, best {:.1} ms",
                times[2].as_secs_f64() * 1e3,
                times[0].as_secs_f64() * 1e3
            );
        }
    }
}

/// The binary's allocator, so that the numbers are the binary's.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;
