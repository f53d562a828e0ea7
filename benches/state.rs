//! The state at scale. A million papers recorded as first seen on a first
//! open (one pass, one save of `first_seen.json`); the store opened again,
//! and the first-seen times read on first use; a bookmark, a tag and a
//! note saved beside them (every save re-reads, merges and rewrites
//! `state.json`); another instance's save taken in. A reopen, as the
//! reader's: the times read, each paper recorded and said new or not,
//! beside the textbook way (a map with a `String` a key). As a baseline, the
//! same times kept in `state.json`, one entry a paper: opening it, and a
//! bookmark saved with it.
//!
//! `cargo bench --bench state` (a release build; `-- N` for N papers
//! instead of a million). The files go to a temporary directory under
//! `target/`, on the disk the user's state would be on, fsync included.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use paperboat::store::{Flag, Stamp, Store};

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1e3)
}

fn mib(bytes: usize) -> String {
    format!("{:.1} MiB", bytes as f64 / (1 << 20) as f64)
}

/// Runs `f` `runs` times; the median and the slowest.
fn timed(runs: usize, mut f: impl FnMut()) -> String {
    let mut t: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    t.sort();
    format!("median {}, slowest {}", ms(t[runs / 2]), ms(t[runs - 1]))
}

/// The textbook way to what a reopen asks: the file read into a map with
/// a `String` a key, each id recorded, then each looked up again.
fn string_keyed(path: &std::path::Path, ids: &[String], now: Stamp) -> Vec<bool> {
    #[derive(serde::Deserialize)]
    struct Doc {
        first_seen: std::collections::BTreeMap<Stamp, Vec<String>>,
    }
    let doc: Doc = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let mut seen: HashMap<String, Stamp> = HashMap::new();
    for (at, group) in doc.first_seen {
        for id in group {
            let t = seen.entry(id).or_insert(at);
            *t = (*t).min(at);
        }
    }
    for id in ids {
        let t = seen.entry(id.clone()).or_insert(now);
        *t = (*t).min(now);
    }
    ids.iter().map(|id| seen[id.as_str()] >= now).collect()
}

fn main() {
    let n: usize = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .map_or(1_000_000, |a| a.parse().expect("a count of papers"));
    std::fs::create_dir_all("target").unwrap();
    let dir = tempfile::tempdir_in("target").unwrap();
    let ids: Vec<String> = (0..n)
        .map(|i| format!("arxiv:{:04}.{:05}", 1000 + i / 100_000, i % 100_000))
        .collect();
    println!("{n} papers, state in {}", dir.path().display());

    let (mut store, _) = Store::open(dir.path());
    let start = Instant::now();
    let new = store
        .record_first_seen(ids.iter().map(String::as_str), Stamp::now())
        .unwrap();
    let first = start.elapsed();
    assert_eq!(new, n);
    let seen_file = dir.path().join(paperboat::store::SEEN_FILE_NAME);
    let size = std::fs::metadata(&seen_file).unwrap().len() as usize;
    println!(
        "record_first_seen, first open:  {} (one save), file {}",
        ms(first),
        mib(size)
    );
    let start = Instant::now();
    let again = store
        .record_first_seen(ids.iter().map(String::as_str), Stamp::now())
        .unwrap();
    println!(
        "record_first_seen, next open:   {} (nothing new: {again})",
        ms(start.elapsed())
    );

    println!(
        "reopen: record, say which new:  {}",
        timed(3, || {
            let (mut s, _) = Store::open(dir.path());
            let fresh = s
                .record_first_seen_each(ids.iter().map(String::as_str), Stamp::now())
                .unwrap();
            assert!(fresh.iter().all(|&f| !f));
        })
    );
    println!(
        "  baseline, a String a key:     {}",
        timed(3, || {
            let fresh = string_keyed(&seen_file, &ids, Stamp::now());
            assert!(fresh.iter().all(|&f| !f));
        })
    );
    println!(
        "first use of first_seen:        {}",
        timed(5, || {
            let (s, _) = Store::open(dir.path());
            assert!(s.first_seen(&ids[n - 1]).is_some());
        })
    );
    let mut i = 0;
    println!(
        "bookmark saved (set):           {}",
        timed(5, || {
            i += 1;
            store.set(&[(&ids[i], Flag::Bookmark, true)]).unwrap();
        })
    );
    println!(
        "tag saved (set_tag):            {}",
        timed(5, || {
            i += 1;
            store.set_tag(&ids[i], "triage", true).unwrap();
        })
    );
    println!(
        "note saved (set_note):          {}",
        timed(5, || {
            i += 1;
            store.set_note(&ids[i], "A note of some length.").unwrap();
        })
    );
    println!(
        "Store::open:                    {}",
        timed(5, || {
            let _ = Store::open(dir.path());
        })
    );
    let (mut other, _) = Store::open(dir.path());
    println!(
        "refresh after another's save:   {}",
        timed(5, || {
            i += 1;
            other.set(&[(&ids[i], Flag::Read, true)]).unwrap();
            assert!(store.refresh());
        })
    );

    // Baseline: the times in state.json, one entry a paper.
    let base = tempfile::tempdir_in("target").unwrap();
    let stamp = serde_json::to_value(Stamp::now()).unwrap();
    let papers: serde_json::Map<String, serde_json::Value> = ids
        .iter()
        .map(|id| (id.clone(), serde_json::json!({ "first_seen": stamp })))
        .collect();
    let doc = serde_json::json!({ "version": 2, "papers": papers });
    let text = serde_json::to_vec_pretty(&doc).unwrap();
    std::fs::write(base.path().join("state.json"), &text).unwrap();
    println!("baseline, in state.json:        file {}", mib(text.len()));
    println!(
        "  Store::open:                  {}",
        timed(3, || {
            let _ = Store::open(base.path());
        })
    );
    let (mut store, _) = Store::open(base.path());
    println!(
        "  bookmark saved (set):         {}",
        timed(3, || {
            i += 1;
            store.set(&[(&ids[i], Flag::Bookmark, true)]).unwrap();
        })
    );
}
