//! A good terminal citizen: signals, suspend and resume, resize storms,
//! panics, the config file and colours, through the real binary.

use crate::common;

use std::path::Path;

use common::{Pty, run};

fn signal(pty: &Pty, sig: i32) {
    let pid = pty.child.process_id().expect("pid") as i32;
    // SAFETY: kill has no memory effects; the child is ours and running.
    assert_eq!(unsafe { libc::kill(pid, sig) }, 0);
}

fn bookmarked(state: &Path) -> usize {
    let o = run(&["list", "--bookmarked"], None, state);
    String::from_utf8_lossy(&o.stdout).lines().count()
}

#[test]
fn sigterm_sighup_and_sigint_save_restore_and_exit_128_plus_the_signal() {
    for (sig, code) in [
        (libc::SIGTERM, 143),
        (libc::SIGHUP, 129),
        (libc::SIGINT, 130),
    ] {
        let state = tempfile::tempdir().unwrap();
        let mut pty = Pty::spawn(&[], 120, 40, state.path(), &[]);
        pty.wait_text("38/38");
        pty.send("jjjb");
        pty.wait_text("bookmarked 1");
        signal(&pty, sig);
        let status = pty.wait_exit();
        assert_eq!(status.exit_code(), code, "signal {sig}");
        assert!(pty.cooked(), "signal {sig}: raw mode left on");
        assert!(pty.screen_restored(), "signal {sig}: screen not restored");
        assert_eq!(bookmarked(state.path()), 1);
        // Where the reader was left is saved too: it reopens on paper 4.
        let mut again = Pty::spawn(&[], 120, 40, state.path(), &[]);
        again.wait_text("★ bookmarked");
        again.send("q");
        assert!(again.wait_exit().success());
    }
}

#[test]
fn ctrl_z_suspends_to_the_shell_and_fg_resumes_with_a_full_redraw() {
    let state = tempfile::tempdir().unwrap();
    let mut sh = Pty::spawn_command(
        "bash",
        &["--norc", "--noprofile", "-i"],
        100,
        30,
        state.path(),
        &[("PS1", "READY$ ")],
    );
    sh.wait_text("READY$");
    sh.send(&format!("{}\r", common::bin().display()));
    sh.wait_text("38/38");
    sh.wait_for("the alternate screen", |s| s.alternate_screen());
    sh.send("\x1a");
    sh.wait_for("the shell prompt on the main screen", |s| {
        !s.alternate_screen() && s.contents().contains("Stopped")
    });
    assert!(
        sh.screen_restored(),
        "mouse or cursor left on while suspended"
    );
    sh.send("fg\r");
    sh.wait_for("the reader back", |s| {
        s.alternate_screen() && s.contents().contains("38/38")
    });
    sh.wait_for("a full redraw", |s| {
        let c = s.contents();
        c.contains("╭ Papers") && c.contains("╭ Abstract") && c.contains("Training models")
    });
    sh.send("q");
    sh.wait_for("the prompt after quitting", |s| !s.alternate_screen());
    sh.send("echo exit=$?\r");
    sh.wait_text("exit=0");
    sh.send("exit\r");
    sh.wait_exit();
}

#[test]
fn resize_storms_never_panic_and_tiny_screens_get_a_note() {
    let state = tempfile::tempdir().unwrap();
    let mut pty = Pty::spawn(&[], 120, 40, state.path(), &[]);
    pty.wait_text("38/38");
    let sizes = [
        (20, 6),
        (300, 100),
        (21, 7),
        (89, 20),
        (90, 20),
        (1, 1),
        (300, 6),
        (20, 100),
        (60, 20),
        (200, 60),
    ];
    for round in 0..6 {
        for (k, &(w, h)) in sizes.iter().enumerate() {
            pty.resize(w, h);
            if (round + k) % 3 == 0 {
                pty.send("j");
            }
        }
    }
    pty.resize(15, 5);
    pty.wait_text("too small");
    pty.resize(100, 30);
    pty.wait_for("the reader at 100x30", |s| {
        s.contents().contains("╭ Papers")
    });
    assert!(pty.child.try_wait().unwrap().is_none(), "still running");
    pty.send("q");
    assert!(pty.wait_exit().success());
}

// The binary injects the panic only when built with debug assertions, as
// this test is: a release build has no such key, so neither the test.
#[cfg(debug_assertions)]
#[test]
fn a_panic_restores_the_terminal_and_prints_the_message() {
    let state = tempfile::tempdir().unwrap();
    let mut pty = Pty::spawn(
        &[],
        100,
        30,
        state.path(),
        &[("PAPERBOAT_TEST_PANIC_KEY", "X")],
    );
    pty.wait_text("38/38");
    pty.send("X");
    let status = pty.wait_exit();
    assert!(!status.success());
    assert!(pty.cooked(), "raw mode left on after a panic");
    assert!(
        pty.screen_restored(),
        "alternate screen left on after a panic"
    );
    pty.wait_text("injected panic for testing");
}

#[test]
fn a_remapped_key_works_and_the_help_shows_it() {
    let state = tempfile::tempdir().unwrap();
    std::fs::write(
        state.path().join("config.toml"),
        "[keys]\nbookmark = \"m\"\n",
    )
    .unwrap();
    let mut pty = Pty::spawn(&[], 120, 40, state.path(), &[]);
    pty.wait_text("38/38");
    pty.send("b");
    pty.send("m");
    pty.wait_text("bookmarked 1");
    pty.send("j");
    pty.send("b");
    pty.send("?");
    pty.wait_for("the help listing m for bookmark", |s| {
        s.contents()
            .lines()
            .any(|l| l.contains(" m ") && l.contains("Bookmark / remove"))
    });
    pty.send("?");
    pty.wait_for("the help closed", |s| !s.contents().contains("╭ Keys"));
    pty.send("q");
    assert!(pty.wait_exit().success());
    assert_eq!(bookmarked(state.path()), 1, "b no longer bookmarks");
}

#[test]
fn a_broken_config_is_reported_and_the_reader_starts_with_defaults() {
    let state = tempfile::tempdir().unwrap();
    std::fs::write(
        state.path().join("config.toml"),
        "[keys]\nbookmark = \"ctrl-nonsense\"\n[theme]\nhighlight = \"#zzzzzz\"\n",
    )
    .unwrap();
    let mut pty = Pty::spawn(&[], 200, 40, state.path(), &[]);
    pty.wait_text("38/38");
    pty.wait_text("config.toml:2: keys.bookmark: unknown key");
    pty.wait_text("config.toml:4: theme.highlight: not a colour");
    pty.send("b");
    pty.wait_text("bookmarked 1");
    pty.send("q");
    assert!(pty.wait_exit().success());
}

/// SGR parameters in `raw` that set a colour.
fn colour_codes(raw: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(raw);
    let mut out = Vec::new();
    for part in text.split("\u{1b}[").skip(1) {
        let Some(end) = part.find(|c: char| !(c.is_ascii_digit() || c == ';')) else {
            continue;
        };
        if !part[end..].starts_with('m') {
            continue;
        }
        let params: Vec<u32> = part[..end]
            .split(';')
            .filter_map(|p| p.parse().ok())
            .collect();
        let mut i = 0;
        while i < params.len() {
            let p = params[i];
            if matches!(p, 30..=37 | 40..=47 | 90..=97 | 100..=107) {
                out.push(p.to_string());
            }
            if p == 38 || p == 48 {
                out.push(part[..end].to_string());
                i += 2;
            }
            i += 1;
        }
    }
    out
}

#[test]
fn no_color_means_no_colour_at_all() {
    let state = tempfile::tempdir().unwrap();
    let mut pty = Pty::spawn(&[], 120, 40, state.path(), &[("NO_COLOR", "1")]);
    pty.wait_text("38/38");
    pty.send("/graph\r");
    pty.wait_text("Graph-Link");
    pty.send("q");
    assert!(pty.wait_exit().success());
    let codes = colour_codes(&pty.raw());
    assert!(codes.is_empty(), "colour codes with NO_COLOR: {codes:?}");
    let mut coloured = Pty::spawn(&[], 120, 40, state.path(), &[]);
    coloured.wait_text("38/38");
    coloured.send("q");
    coloured.wait_exit();
    assert!(
        !colour_codes(&coloured.raw()).is_empty(),
        "the default theme has colour"
    );
}

#[test]
fn color_flag_for_printed_output() {
    let state = tempfile::tempdir().unwrap();
    let id = "ffac74b";
    let always = run(&["show", "--color", "always", id], None, state.path());
    let text = String::from_utf8_lossy(&always.stdout);
    assert!(text.contains("\u{1b}[1m"), "bold title");
    // `run` sets NO_COLOR: emphasis stays, colours go.
    assert!(colour_codes(&always.stdout).is_empty(), "{text}");
    let mut cmd = std::process::Command::new(common::bin());
    cmd.args(["--color", "always", "show", id])
        .env("PAPERBOAT_STATE_DIR", state.path())
        .env("PAPERBOAT_CACHE_DIR", state.path().join("cache"));
    let o = cmd.output().unwrap();
    assert!(
        !colour_codes(&o.stdout).is_empty(),
        "colours without NO_COLOR"
    );
    let never = run(&["show", "--color=never", id], None, state.path());
    assert!(!never.stdout.contains(&0x1b));
}

#[test]
fn config_path_and_default() {
    let state = tempfile::tempdir().unwrap();
    let o = run(&["config", "path"], None, state.path());
    assert_eq!(
        String::from_utf8_lossy(&o.stdout).trim(),
        state.path().join("config.toml").display().to_string()
    );
    let o = run(&["config", "default"], None, state.path());
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("# bookmark = \"b\""), "{text}");
    assert!(text.contains("[theme]") && text.contains("[reader]"));
    // The printed default, saved as is, is a valid config.
    std::fs::write(state.path().join("config.toml"), text.as_bytes()).unwrap();
    let o = run(&["show", "ffac74b"], None, state.path());
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// The reader runs with transparent huge pages off (see `alloc`): its
/// own process says so, as the kernel reports it.
#[cfg(target_os = "linux")]
#[test]
fn the_reader_runs_without_transparent_huge_pages() {
    let state = tempfile::tempdir().unwrap();
    let mut pty = Pty::spawn(&[], 120, 40, state.path(), &[]);
    pty.wait_text("38/38");
    let pid = pty.child.process_id().expect("pid");
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    pty.send("q");
    assert!(pty.wait_exit().success());
    // Linux reports it from 5.0 on.
    let thp = status.lines().find(|l| l.starts_with("THP_enabled:"));
    assert_eq!(
        thp.and_then(|l| l.split_whitespace().nth(1)),
        Some("0"),
        "{status}"
    );
}
