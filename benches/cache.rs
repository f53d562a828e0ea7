//! Reopening a large file: the real binary, run as a user runs it, with
//! the cache empty (cold: the file is parsed and the cache written), with
//! it filled (warm), and without it (`--no-cache`, the baseline: every
//! open as it was before the cache). For `paperboat search` in both
//! scopes: wall time and peak memory of the process. (The reader's warm
//! open is timed by the startup bench: docs/PERFORMANCE.md, Start-up.)
//!
//! `cargo bench --bench cache -- FILE [QUERY]` (e.g. a file from
//! `cargo run --release --example gen_corpus -- jsonl 2700k f.jsonl`).
//! `RUNS=N` runs each figure N times (default 3) and prints min, median
//! and max. `ROWS=search,grown,fzf` (the default) chooses the figures:
//! `grown` times `check` of a copy of the file with lines appended since
//! it was cached (the entry's old part checked against the file, then
//! replayed). `BASELINE_BIN=PATH` runs another build of paperboat beside
//! this one, each with a cache of its own, for a before and after in the
//! same run. Read the file once first so that it is in the page cache: the
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

/// Lines appended to the file's copy before each grown run.
const GROWN_LINES: usize = 1000;

/// `n` lines of JSON Lines papers numbered from `from`, new to the file.
fn appended(from: usize, n: usize) -> String {
    (from..from + n)
        .map(|i| {
            format!(
                "{{\"id\": \"9912.{i:05}\", \"title\": \"Appended paper {i} on sparse attention\", \"abstract\": \"An abstract added since, {i}.\"}}\n"
            )
        })
        .collect()
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
    let rows = std::env::var("ROWS").unwrap_or_else(|_| "search,grown,fzf".into());
    // This build, and another to compare it with in the same run (each
    // with a cache of its own: their entries' versions may differ).
    let mut bins = vec![("this", env!("CARGO_BIN_EXE_paperboat").to_string())];
    if let Ok(other) = std::env::var("BASELINE_BIN") {
        bins.push(("baseline build", other));
    }
    let size = std::fs::metadata(file).expect("the file").len();
    let state = tempfile::tempdir().unwrap();
    let caches: Vec<tempfile::TempDir> =
        bins.iter().map(|_| tempfile::tempdir().unwrap()).collect();
    let clear = |cache: &Path| {
        for e in std::fs::read_dir(cache).unwrap().flatten() {
            let _ = std::fs::remove_dir_all(e.path()).or_else(|_| std::fs::remove_file(e.path()));
        }
    };
    let command = |bin: &str, cache: &Path, args: &[&str], file: &Path| {
        let mut cmd = Command::new(bin);
        cmd.args(args)
            .arg(file)
            .env("PAPERBOAT_STATE_DIR", state.path())
            .env("PAPERBOAT_CACHE_DIR", cache);
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
            "  {what:<58} {}   peak {:.0} MB ({:.2}x the file)",
            spread(runs.iter().map(|r| r.wall).collect(), secs),
            peak as f64 * 1024.0 / 1e6,
            peak as f64 * 1024.0 / size as f64
        );
    };
    for ((name, bin), cache) in bins.iter().zip(&caches) {
        let cache = cache.path();
        if !rows.contains("search") {
            break;
        }
        for scope in ["all", "title"] {
            let search = |extra: &[&str]| {
                let mut args = vec!["search", "--scope", scope];
                args.extend_from_slice(extra);
                args.push(query);
                command(bin, cache, &args, file)
            };
            show(
                &format!("{name}: search --scope {scope} --no-cache (baseline)"),
                (0..runs).map(|_| run(search(&["--no-cache"]))).collect(),
            );
            show(
                &format!("{name}: search --scope {scope}, cache empty (cold)"),
                (0..runs)
                    .map(|_| {
                        clear(cache);
                        run(search(&[]))
                    })
                    .collect(),
            );
            // Filled by the last cold run (and, for the index, by `cache
            // build` where the command has it).
            let _ = command(bin, cache, &["cache", "build"], file)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
            show(
                &format!("{name}: search --scope {scope}, cache filled (warm)"),
                (0..runs).map(|_| run(search(&[]))).collect(),
            );
        }
    }
    if rows.contains("grown") {
        // A file that grew since it was cached (arXiv's snapshot gains
        // lines every day): its entry's old part is checked, then
        // replayed, and the new lines read. On a copy of the file, lines
        // appended to it before each run.
        let dir = tempfile::tempdir_in(file.parent().unwrap_or(Path::new("."))).unwrap();
        let copy = dir.path().join(file.file_name().unwrap());
        std::fs::copy(file, &copy).expect("a copy of the file");
        let mut next = 0;
        let mut grow = || {
            let mut f = std::fs::OpenOptions::new()
                .append(true)
                .open(&copy)
                .unwrap();
            std::io::Write::write_all(&mut f, appended(next, GROWN_LINES).as_bytes()).unwrap();
            next += GROWN_LINES;
        };
        let check = |bin: &str, cache: &Path, extra: &[&str]| {
            let mut args = vec!["check"];
            args.extend_from_slice(extra);
            let mut cmd = command(bin, cache, &args, &copy);
            cmd.stdout(Stdio::null());
            cmd
        };
        for ((name, bin), cache) in bins.iter().zip(&caches) {
            clear(cache.path());
            show(
                &format!("{name}: check, cache empty (cold)"),
                vec![run(check(bin, cache.path(), &[]))],
            );
            show(
                &format!("{name}: check, cache filled (warm)"),
                (0..runs)
                    .map(|_| run(check(bin, cache.path(), &[])))
                    .collect(),
            );
        }
        // Each run, every build: lines appended, then each build's entry
        // (one append behind, or two) checked and replayed.
        let mut grown: Vec<Vec<Run>> = bins.iter().map(|_| Vec::new()).collect();
        let mut cold: Vec<Run> = Vec::new();
        for _ in 0..runs {
            grow();
            for (k, ((_, bin), cache)) in bins.iter().zip(&caches).enumerate() {
                grown[k].push(run(check(bin, cache.path(), &[])));
            }
            cold.push(run(check(&bins[0].1, caches[0].path(), &["--no-cache"])));
        }
        for ((name, _), runs) in bins.iter().zip(grown) {
            show(
                &format!("{name}: check, {GROWN_LINES} lines appended since (grown)"),
                runs,
            );
        }
        show("this: check --no-cache of the grown file (baseline)", cold);
    }
    if rows.contains("fzf") && Command::new("fzf").arg("--version").output().is_ok() {
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
