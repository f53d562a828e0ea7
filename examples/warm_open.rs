//! The reader's warm open of one large file, without a terminal, to time
//! and weigh: its papers left in the cache and listed from the stored
//! titles, a page of 40 of them read alone, then every one decoded
//! (`Papers::decode_all`, which `paperboat check` does not reach). Prints
//! the times and the peak memory at each step; for a before and after,
//! run two builds of it alternately under `/usr/bin/time`
//! (docs/UNSAFE.md, "Measuring the papers' decoding").
//!
//! ```sh
//! cargo build --release --example warm_open
//! PAPERBOAT_CACHE_DIR=/tmp/pb-cache target/release/examples/warm_open FILE
//! ```
//!
//! The first run fills the cache (and stores the titles); the later ones
//! open it warm.

use std::time::Instant;

use paperboat::loading::{self, CacheOptions, Event, Input, Options};

/// The process's peak resident memory so far, in KB.
fn hwm_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

fn main() {
    paperboat::alloc::configure();
    let file = std::env::args().nth(1).expect("FILE");
    let dir = std::env::var_os("PAPERBOAT_CACHE_DIR").expect("PAPERBOAT_CACHE_DIR");
    let opts = Options {
        cache: Some(CacheOptions::new(dir.into(), 64 << 30)),
        ..Options::default()
    };
    let inputs = [Input::Path(file.into())];
    let t0 = Instant::now();
    let mut stored = None;
    let mut page_ms = 0.0;
    loading::stream(&inputs, &opts, true, &mut |e| {
        if let Event::Stored(papers, _) = e {
            // A page of ranked papers, each from another block: read
            // alone, before the decoding thread starts.
            let t = Instant::now();
            let n = papers.len();
            let mut sum = 0;
            for k in 0..40 {
                sum += papers
                    .get((k * 7919 * 131) % n)
                    .map_or(0, |p| p.title.len());
            }
            page_ms = t.elapsed().as_secs_f64() * 1e3;
            assert!(sum > 0);
            stored = Some(papers);
        }
    });
    let listed = t0.elapsed();
    let Some(papers) = stored else {
        loading::store_titles(&inputs, &opts);
        println!("not stored yet: titles stored now, run again");
        return;
    };
    let hwm_listed = hwm_kb();
    papers.decode_all();
    let all = t0.elapsed();
    let n: usize = papers.iter().map(|p| p.title.len()).sum();
    println!(
        "listed {:.0} ms (page of 40 read alone {:.2} ms, peak {} MB); decoded all {:.0} ms, peak {} MB ({} title bytes)",
        listed.as_secs_f64() * 1e3,
        page_ms,
        hwm_listed / 1024,
        all.as_secs_f64() * 1e3,
        hwm_kb() / 1024,
        n
    );
}
