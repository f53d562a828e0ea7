//! Start-up: the real binary in a pseudo-terminal, its output read by a
//! terminal emulator, timed from spawn until
//!
//! - the first frame: the search line's count (`38/38`, `0/0`) is drawn;
//! - the first rows: the count says some papers are listed;
//! - all listed: the loading indicator is gone and every paper is listed.
//!
//! `cargo bench --bench startup [-- ARGS…]` (ARGS are passed to paperboat,
//! e.g. a corpus file). The cache directory is private to the run and
//! kept between its runs: the first run of a large file fills it (cold),
//! the others read it (warm), and the first is printed apart. With
//! `BUILD=1`, `paperboat cache build` runs between the first run and the
//! others, so that these also find the file's word index and finished
//! titles stored, as after a session that read the file in full. With
//! `MARKS=n`, `n` papers are bookmarked before the warm runs (a reader's
//! marks are found among the papers as it opens). Prints
//! the median, 90th percentile and worst of `RUNS` runs (default 20).
//! `BIN=path` times that binary instead of this build's.

use std::io::{Read, Write};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};

/// When each mark was reached in one run.
#[derive(Clone, Copy)]
struct Marks {
    frame: Duration,
    rows: Duration,
    all: Duration,
}

/// The search line's count, `listed/total`, as drawn on the top row
/// before the scope (`38/38 · all`).
fn count(top: &str) -> Option<(u64, u64)> {
    let at = [" · all", " · title"]
        .iter()
        .filter_map(|scope| top.find(scope))
        .min()?;
    let before = top[..at].trim_end();
    let word = before.rsplit(' ').next()?;
    let (a, b) = word.split_once('/')?;
    Some((a.parse().ok()?, b.parse().ok()?))
}

fn once(bin: &str, args: &[String], state: &std::path::Path) -> Marks {
    let (rows, cols) = (40, 120);
    let pair = native_pty_system()
        .openpty(PtySize {
            rows,
            cols,
            pixel_width: 0,
            pixel_height: 0,
        })
        .expect("openpty");
    let mut cmd = CommandBuilder::new(bin);
    cmd.args(args);
    cmd.env("TERM", "xterm-256color");
    cmd.env("PAPERBOAT_STATE_DIR", state);
    cmd.env("PAPERBOAT_CACHE_DIR", state.join("cache"));
    let start = Instant::now();
    let mut child = pair.slave.spawn_command(cmd).expect("spawn");
    drop(pair.slave);
    let mut reader = pair.master.try_clone_reader().unwrap();
    let mut writer = pair.master.take_writer().unwrap();
    // The output is read on a thread of its own so that a reader that
    // stops drawing is noticed (a deadline) rather than waited on.
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = [0u8; 65536];
        loop {
            let n = reader.read(&mut buf).unwrap_or(0);
            if tx.send((buf[..n].to_vec(), Instant::now())).is_err() || n == 0 {
                return;
            }
        }
    });
    let nz = |n| std::num::NonZero::new(n).unwrap();
    let mut screen = vt100::Parser::new(nz(rows), nz(cols), 0);
    let (mut frame, mut first_rows) = (None, None);
    let deadline = start + Duration::from_secs(300);
    let all = loop {
        let wait = deadline.saturating_duration_since(Instant::now());
        let (bytes, at) = rx
            .recv_timeout(wait)
            .expect("the reader never listed every paper");
        assert!(!bytes.is_empty(), "paperboat exited before listing");
        screen.process(&bytes);
        let top = screen.screen().rows(0, cols).next().unwrap_or_default();
        let Some((listed, total)) = count(&top) else {
            continue;
        };
        let since = at - start;
        frame.get_or_insert(since);
        if listed > 0 {
            first_rows.get_or_insert(since);
            // No query: every paper is listed once the load is over (a
            // frame can say how many there are before they are listed).
            if listed == total && !top.contains("loading") {
                break since;
            }
        }
    };
    writer.write_all(b"\x03").unwrap();
    let _ = child.wait();
    Marks {
        frame: frame.unwrap(),
        rows: first_rows.unwrap(),
        all,
    }
}

fn main() {
    paperboat::alloc::configure();
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let runs: usize = std::env::var("RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(20)
        .max(1);
    // `BIN=path` times another build (the one before a change, say).
    let bin_var = std::env::var("BIN").ok();
    let bin = bin_var
        .as_deref()
        .unwrap_or(env!("CARGO_BIN_EXE_paperboat"));
    let state = tempfile::tempdir().unwrap();
    let what = if args.is_empty() {
        "bundled lists".to_string()
    } else {
        args.join(" ")
    };
    let first = once(bin, &args, state.path());
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "start-up ({what}), first run (an empty cache): first frame {:.1} ms, first rows {:.1} ms, all listed {:.1} ms",
        ms(first.frame),
        ms(first.rows),
        ms(first.all)
    );
    if std::env::var_os("BUILD").is_some() {
        // What a file read in full before has in the cache besides its
        // papers: its word index and finished titles.
        let took = Instant::now();
        let built = std::process::Command::new(bin)
            .args(["cache", "build"])
            .args(&args)
            .env("PAPERBOAT_STATE_DIR", state.path())
            .env("PAPERBOAT_CACHE_DIR", state.path().join("cache"))
            .output()
            .expect("cache build");
        println!(
            "cache build: {:.1} s, {}",
            took.elapsed().as_secs_f64(),
            String::from_utf8_lossy(&built.stdout).trim()
        );
    }
    if let Some(n) = std::env::var("MARKS")
        .ok()
        .and_then(|n| n.parse::<usize>().ok())
    {
        // A reader with marks: `n` papers bookmarked (the first that
        // `search model` ranks).
        let run = |extra: &[&str]| {
            std::process::Command::new(bin)
                .args(extra)
                .args(&args)
                .env("PAPERBOAT_STATE_DIR", state.path())
                .env("PAPERBOAT_CACHE_DIR", state.path().join("cache"))
                .output()
                .expect("paperboat")
        };
        let limit = n.to_string();
        let found = run(&["search", "--limit", &limit, "model"]);
        let found = String::from_utf8_lossy(&found.stdout).into_owned();
        let ids: Vec<&str> = found.lines().filter_map(|l| l.split('\t').next()).collect();
        let mut mark = vec!["mark", "--bookmark"];
        mark.extend(&ids);
        let marked = run(&mark);
        assert!(marked.status.success(), "{marked:?}");
        println!("marks: {} papers bookmarked", ids.len());
    }
    let marks: Vec<Marks> = (0..runs).map(|_| once(bin, &args, state.path())).collect();
    let line = |name: &str, f: fn(&Marks) -> Duration| {
        let mut times: Vec<Duration> = marks.iter().map(f).collect();
        times.sort();
        let p90 = times[(times.len() * 9 / 10).min(times.len() - 1)];
        println!(
            "  {name}: median {:.1} ms, p90 {:.1} ms, worst {:.1} ms ({runs} runs)",
            ms(times[times.len() / 2]),
            ms(p90),
            ms(times[times.len() - 1]),
        );
    };
    println!("start-up ({what}), the next runs:");
    line("first frame", |m| m.frame);
    line("first rows ", |m| m.rows);
    line("all listed ", |m| m.all);
}

/// The binary's allocator, so that the numbers are the binary's.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;
