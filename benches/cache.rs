//! Reopening a large file: the real binary, run as a user runs it, with
//! the cache empty (cold: the file is parsed and the cache written), with
//! it filled (warm), and without it (`--no-cache`, the baseline: every
//! open as it was before the cache). For `paperboat search` in both
//! scopes: wall time and peak memory of the process. For the reader, in a
//! pseudo-terminal: time to the first rows of the list, to the whole list
//! (the count says every paper), and to every word indexed.
//!
//! `cargo bench --bench cache -- FILE [QUERY]` (e.g. a file from
//! `cargo run --release --example gen_corpus -- jsonl 2700k f.jsonl`).
//! `RUNS=N` runs each figure N times (default 3) and prints min, median
//! and max. Read the file once first so that it is in the page cache: the
//! figures are then the program's, not the disk's. With `fzf` on the PATH,
//! `fzf --filter QUERY` over the file's lines is timed too, as what a
//! user without paperboat would run.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};

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

/// The reader's times: to the first rows, to every paper listed, to
/// every word indexed.
struct Reader {
    first_rows: Duration,
    whole_list: Duration,
    indexed: Option<Duration>,
}

/// Starts the reader on `file` in a 120x40 pseudo-terminal and watches
/// its screen.
fn reader(bin: &str, file: &Path, env: &[(&str, &Path)], extra: &[&str]) -> Reader {
    let pair = native_pty_system()
        .openpty(PtySize {
            rows: 40,
            cols: 120,
            pixel_width: 0,
            pixel_height: 0,
        })
        .expect("openpty");
    let mut cmd = CommandBuilder::new(bin);
    cmd.args(extra);
    cmd.arg(file);
    cmd.env("TERM", "xterm-256color");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let start = Instant::now();
    let mut child = pair.slave.spawn_command(cmd).expect("spawn");
    drop(pair.slave);
    let mut out = pair.master.try_clone_reader().unwrap();
    let mut input = pair.master.take_writer().unwrap();
    let nz = |n: u16| std::num::NonZeroU16::new(n).unwrap();
    let mut screen = vt100::Parser::new(nz(40), nz(120), 0);
    let mut buf = vec![0u8; 1 << 16];
    let (mut first_rows, mut whole_list, mut indexed) = (None, None, None);
    let deadline = Duration::from_secs(600);
    while indexed.is_none() && start.elapsed() < deadline {
        let n = out.read(&mut buf).unwrap_or(0);
        if n == 0 {
            break;
        }
        screen.process(&buf[..n]);
        let text = screen.screen().contents();
        let top = text.lines().next().unwrap_or("");
        let bottom = text.lines().last().unwrap_or("");
        // The list's first row holds a title once papers are listed.
        let row = text.lines().nth(2).unwrap_or("");
        if first_rows.is_none() && row.chars().filter(|c| c.is_alphanumeric()).count() > 3 {
            first_rows = Some(start.elapsed());
        }
        // While loading, the top line says `loading N`; then `N/N`. Then
        // a search, whose status line says `indexing words N%` until every
        // abstract is indexed.
        if whole_list.is_none() && first_rows.is_some() && !top.contains("loading") {
            whole_list = Some(start.elapsed());
            input.write_all(b"/s").unwrap();
            input.flush().unwrap();
        }
        if whole_list.is_some() && bottom.contains("papers in") && !bottom.contains("indexing") {
            indexed = Some(start.elapsed());
        }
    }
    // Esc leaves the search, q quits.
    let _ = input.write_all(b"\x1bq");
    let _ = input.flush();
    let _ = child.wait();
    Reader {
        first_rows: first_rows.unwrap_or(deadline),
        whole_list: whole_list.unwrap_or(deadline),
        indexed,
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
    let env = [
        ("PAPERBOAT_STATE_DIR", state.path()),
        ("PAPERBOAT_CACHE_DIR", cache.path()),
    ];
    let show_reader = |what: &str, times: Vec<Reader>| {
        println!("  reader, {what}:");
        println!(
            "    first rows of the list   {}",
            spread(times.iter().map(|r| r.first_rows).collect(), secs)
        );
        println!(
            "    every paper listed       {}",
            spread(times.iter().map(|r| r.whole_list).collect(), secs)
        );
        let indexed: Vec<Duration> = times.iter().filter_map(|r| r.indexed).collect();
        if indexed.len() == times.len() {
            println!("    every word indexed       {}", spread(indexed, secs));
        } else {
            println!("    every word indexed       not within 10 minutes");
        }
    };
    show_reader(
        "--no-cache (baseline)",
        (0..runs)
            .map(|_| reader(bin, file, &env, &["--no-cache"]))
            .collect(),
    );
    clear();
    // The reader stores the index once it is built, and finishes storing
    // it before it quits.
    let cold = reader(bin, file, &env, &[]);
    show_reader("cache empty (cold)", vec![cold]);
    show_reader(
        "cache filled (warm)",
        (0..runs).map(|_| reader(bin, file, &env, &[])).collect(),
    );
}
