//! Loading speed and memory: reads files the way the reader and the
//! commands do and reports time, papers per second and peak memory
//! (`VmHWM`, Linux) after each.
//!
//! `cargo bench --bench loading -- FILE...` (peak memory is the process's:
//! give one file per run for its own figure; files e.g. from
//! `cargo run --release --example gen_corpus -- jsonl 1M f.jsonl`).

use std::time::Instant;

use paperboat::corpus::Corpus;
use paperboat::loading::{Event, Input, Options, expected_papers, stream};
use paperboat::search::Search;

/// Peak resident memory so far, in MiB (Linux).
fn peak_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

fn main() {
    paperboat::alloc::configure();
    let files: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let searchable = std::env::var_os("SEARCHABLE").is_some();
    for f in files {
        let size = std::fs::metadata(&f).map(|m| m.len()).unwrap_or(0);
        let t = Instant::now();
        let mut corpus = Corpus::default();
        let mut search = searchable.then(|| Search::new(|| {}));
        // As the reader does: titles while loading, abstracts after.
        if let Some(s) = &search {
            s.hold_index(true);
        }
        stream(
            &[Input::Path(f.clone().into())],
            &Options::default(),
            searchable,
            &mut |e| {
                match e {
                    Event::Papers(batch, prepared) => {
                        if let (Some(s), Some(p)) = (search.as_mut(), prepared) {
                            s.extend_prepared(p);
                        }
                        corpus.push(batch);
                    }
                    Event::Progress {
                        bytes,
                        total,
                        papers,
                    } => {
                        // As the reader does.
                        if let Some(n) = expected_papers(papers, bytes, total) {
                            corpus.reserve_for(n);
                            if let Some(s) = &search {
                                s.reserve_for(n);
                            }
                        }
                    }
                    _ => {}
                }
            },
        );
        corpus.finish();
        let papers = corpus.len();
        let secs = t.elapsed().as_secs_f64();
        println!(
            "{f}: {papers} papers from {:.0} MiB in {secs:.2} s ({:.0}k papers/s, {:.0} MiB/s){}; peak memory {}",
            size as f64 / 1048576.0,
            papers as f64 / secs / 1e3,
            size as f64 / 1048576.0 / secs,
            if searchable {
                ", titles searchable"
            } else {
                ""
            },
            peak_mib().map_or("?".into(), |m| format!(
                "{m:.0} MiB ({:.2}x the file)",
                m * 1048576.0 / size.max(1) as f64
            )),
        );
        if let Some(s) = &search {
            s.hold_index(false);
            while s.indexed().0 < papers {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            println!(
                "  abstracts indexed at {:.2} s; peak memory {}",
                t.elapsed().as_secs_f64(),
                peak_mib().map_or("?".into(), |m| format!(
                    "{m:.0} MiB ({:.2}x the file)",
                    m * 1048576.0 / size.max(1) as f64
                )),
            );
        }
    }
}

/// The binary's allocator, so that the numbers are the binary's.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;
