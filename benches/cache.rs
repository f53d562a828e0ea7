//! Reopening a large file: the real binary, run as a user runs it, with
//! the cache empty (cold: the file is parsed and the cache written), with
//! it filled (warm), and without it (`--no-cache`, the baseline: every
//! open as it was before the cache). For `paperboat search` in both
//! scopes: wall time and peak memory of the process. (The reader's warm
//! open is timed by hand in a terminal: docs/PERFORMANCE.md.)
//!
//! `cargo bench --bench cache -- FILE [QUERY]` (e.g. a file from
//! `cargo run --release --example gen_corpus -- jsonl 2700k f.jsonl`).
//! `RUNS=N` runs each figure N times (default 3) and prints min, median
//! and max. Read the file once first so that it is in the page cache: the
//! figures are then the program's, not the disk's. With `fzf` on the PATH,
//! `fzf --filter QUERY` over the file's lines is timed too, as what a
//! user without paperboat would run.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A finished run: wall time and peak resident memory (KiB).
struct Run {
    wall: Duration,
    peak_kib: u64,
}

/// Runs `cmd` to its end, its output thrown away; wall time and peak
/// memory (from `wait4`).
// The child is reaped by `wait4`, which `Child::wait` cannot stand in
// for: it gives no resource usage.
#[allow(clippy::zombie_processes)]
fn run(mut cmd: Command) -> Run {
    cmd.stdout(Stdio::null()).stderr(Stdio::null());
    let start = Instant::now();
    let child = cmd.spawn().expect("spawn");
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid value for wait4 to fill.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: the pid is our child's; status and usage are valid pointers.
    let pid = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    assert!(pid > 0, "wait4 failed");
    Run {
        wall: start.elapsed(),
        peak_kib: usage.ru_maxrss as u64,
    }
}

fn secs(d: Duration) -> String {
    format!("{:.2} s", d.as_secs_f64())
}

/// `min / median / max` of `values`, formatted by `f`.
fn spread<T: Copy + Ord>(mut values: Vec<T>, f: impl Fn(T) -> String) -> String {
    values.sort();
    format!(
        "{} / {} / {}",
        f(values[0]),
        f(values[values.len() / 2]),
        f(values[values.len() - 1])
    )
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let Some(file) = args.first() else {
        eprintln!("usage: cargo bench --bench cache -- FILE [QUERY]");
        std::process::exit(2);
    };
    let file = Path::new(file);
    let query = args.get(1).map_or("sparse attention", String::as_str);
    let runs: usize = std::env::var("RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3)
        .max(1);
    let bin = env!("CARGO_BIN_EXE_paperboat");
    let size = std::fs::metadata(file).expect("the file").len();
    let state = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let clear = || {
        for e in std::fs::read_dir(cache.path()).unwrap().flatten() {
            let _ = std::fs::remove_dir_all(e.path()).or_else(|_| std::fs::remove_file(e.path()));
        }
    };
    let search = |scope: &str, extra: &[&str]| {
        let mut cmd = Command::new(bin);
        cmd.args(["search", "--scope", scope])
            .args(extra)
            .arg(query)
            .arg(file)
            .env("PAPERBOAT_STATE_DIR", state.path())
            .env("PAPERBOAT_CACHE_DIR", cache.path());
        cmd
    };
    println!(
        "{} ({:.2} GB), query {query:?}, {runs} runs each: min / median / max",
        file.display(),
        size as f64 / 1e9
    );
    let show = |what: &str, runs: Vec<Run>| {
        let peak = runs.iter().map(|r| r.peak_kib).max().unwrap_or(0);
        println!(
            "  {what:<44} {}   peak {:.0} MB ({:.2}x the file)",
            spread(runs.iter().map(|r| r.wall).collect(), secs),
            peak as f64 * 1024.0 / 1e6,
            peak as f64 * 1024.0 / size as f64
        );
    };
    for scope in ["all", "title"] {
        show(
            &format!("search --scope {scope} --no-cache (baseline)"),
            (0..runs)
                .map(|_| run(search(scope, &["--no-cache"])))
                .collect(),
        );
        show(
            &format!("search --scope {scope}, cache empty (cold)"),
            (0..runs)
                .map(|_| {
                    clear();
                    run(search(scope, &[]))
                })
                .collect(),
        );
        // Filled by the last cold run (and, for the index, by `cache
        // build` where the command has it).
        let _ = Command::new(bin)
            .args(["cache", "build"])
            .arg(file)
            .env("PAPERBOAT_CACHE_DIR", cache.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        show(
            &format!("search --scope {scope}, cache filled (warm)"),
            (0..runs).map(|_| run(search(scope, &[]))).collect(),
        );
    }
    if Command::new("fzf").arg("--version").output().is_ok() {
        show(
            "fzf --filter over the file's lines (reference)",
            (0..runs)
                .map(|_| {
                    let mut cmd = Command::new("fzf");
                    cmd.args(["--filter", query])
                        .stdin(std::fs::File::open(file).unwrap());
                    run(cmd)
                })
                .collect(),
        );
    }
}
