//! Start-up to first frame: the real binary in a pseudo-terminal, timed from
//! spawn until the first drawn screen (the match count) arrives.
//!
//! `cargo bench --bench startup [-- ARGS…]` (ARGS are passed to paperboat,
//! e.g. a corpus file). Prints the median, 90th percentile and worst of 20
//! runs.

use std::io::{Read, Write};
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};

fn once(bin: &str, args: &[String], state: &std::path::Path) -> Duration {
    let pair = native_pty_system()
        .openpty(PtySize {
            rows: 40,
            cols: 120,
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
    let mut seen = Vec::new();
    let mut buf = [0u8; 65536];
    let elapsed = loop {
        let n = reader.read(&mut buf).unwrap_or(0);
        if n == 0 {
            panic!("paperboat exited before drawing");
        }
        seen.extend_from_slice(&buf[..n]);
        // The search line's count (`38/38`, `12/1000000`) is drawn with the
        // first frame.
        let text = String::from_utf8_lossy(&seen);
        if text.contains("\u{1b}[?1049h") && text.contains(" · title") {
            break start.elapsed();
        }
    };
    writer.write_all(b"\x03").unwrap();
    let _ = child.wait();
    elapsed
}

fn main() {
    paperboat::alloc::configure();
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let bin = env!("CARGO_BIN_EXE_paperboat");
    let state = tempfile::tempdir().unwrap();
    let mut times: Vec<Duration> = (0..20).map(|_| once(bin, &args, state.path())).collect();
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "start-up to first frame ({}): median {:.1} ms, p90 {:.1} ms, worst {:.1} ms (20 runs)",
        if args.is_empty() {
            "bundled lists".to_string()
        } else {
            args.join(" ")
        },
        ms(times[10]),
        ms(times[18]),
        ms(times[19]),
    );
}

/// The binary's allocator, so that the numbers are the binary's.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;
