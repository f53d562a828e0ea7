//! Bookmarks and read state through the real binary: the reader in a
//! pseudo-terminal and the `list`, `mark`, `export` and `state` commands.

use crate::common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{Pty, run};

fn out(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `list` rows: (id, marks, title).
fn list(args: &[&str], state: &Path) -> Vec<(String, String, String)> {
    let mut all = vec!["list"];
    all.extend_from_slice(args);
    let o = run(&all, None, state);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    out(&o)
        .lines()
        .map(|l| {
            let mut f = l.splitn(3, '\t');
            (
                f.next().unwrap().to_string(),
                f.next().unwrap().to_string(),
                f.next().unwrap().to_string(),
            )
        })
        .collect()
}

/// A corpus of `n` distinct papers in a file.
fn corpus_file(dir: &Path, n: usize) -> String {
    let mut text = String::from("Stress list\n\n");
    for i in 0..n {
        text.push_str(&format!(
            "Paper number {i} studies topic {} in depth.\n\n",
            i * 7919
        ));
    }
    let path = dir.join("stress.txt");
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

#[test]
fn reader_round_trip_bookmark_and_read_then_list_agrees() {
    let state = tempfile::tempdir().unwrap();
    let mut pty = Pty::spawn(&[], 120, 40, state.path(), &[]);
    pty.wait_text("38/38");
    pty.send("j");
    pty.send("b");
    pty.wait_text("bookmarked 1");
    pty.send("jr");
    pty.wait_text("read 1/38");
    pty.send("q");
    assert!(pty.wait_exit().success());

    let rows = list(&[], state.path());
    assert_eq!(rows[1].1, "b-", "{:?}", rows[1]);
    assert_eq!(rows[2].1, "-r", "{:?}", rows[2]);
    let bookmarked = list(&["--bookmarked"], state.path());
    assert_eq!(bookmarked.len(), 1);
    assert_eq!(bookmarked[0].0, rows[1].0);
    assert_eq!(list(&["--read"], state.path()).len(), 1);
    assert_eq!(list(&["--unread"], state.path()).len(), 37);

    // Reopen: the marks are on screen, and the reader is back on the paper
    // it was left on (the third).
    let mut pty = Pty::spawn(&[], 120, 40, state.path(), &[]);
    pty.wait_text("bookmarked 1");
    pty.wait_for("the marks in the list and the abstract pane", |s| {
        let screen = s.contents();
        let lines: Vec<&str> = screen.lines().collect();
        lines.len() > 4
            && lines[3].contains("★  OrchJail")
            && lines[4].contains(" ✓ Entropy-based TTC: selects")
            && screen.contains("✓ read")
    });
    pty.send("q");
    assert!(pty.wait_exit().success());
}

#[test]
fn mark_by_prefix_and_errors_name_the_bad_ids() {
    let state = tempfile::tempdir().unwrap();
    let rows = list(&[], state.path());
    let id = &rows[5].0;
    let o = run(&["mark", &id[..5], "--bookmark"], None, state.path());
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(out(&o).starts_with(&format!("{id}\tb-\t")));
    let o = run(&["mark", "zzzzzzz", &id[..7], "--read"], None, state.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("zzzzzzz"), "{}", err(&o));
    assert_eq!(
        list(&["--read"], state.path()).len(),
        0,
        "nothing marked on an error"
    );
    // Every id starts with one of 16 hex digits: one of them is ambiguous.
    let ambiguous = (0..16)
        .map(|d| format!("{d:x}"))
        .find(|p| rows.iter().filter(|r| r.0.starts_with(p.as_str())).count() > 1)
        .unwrap();
    let o = run(&["mark", &ambiguous, "--read"], None, state.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("ambiguous"), "{}", err(&o));
    let o = run(&["mark", id], None, state.path());
    assert_eq!(o.status.code(), Some(2), "an action flag is required");
}

#[test]
fn export_formats() {
    let state = tempfile::tempdir().unwrap();
    let rows = list(&[], state.path());
    run(
        &["mark", &rows[1].0, &rows[8].0, "--bookmark"],
        None,
        state.path(),
    );
    let md = out(&run(
        &["export", "--format", "markdown"],
        None,
        state.path(),
    ));
    assert_eq!(md.matches("\n## ").count(), 2, "{md}");
    assert!(md.contains("## OrchJail"));
    let bib = out(&run(&["export", "--format", "bibtex"], None, state.path()));
    assert_eq!(bib.matches("@misc{").count(), 2);
    assert!(bib.contains("abstract      = {"));
    let json = out(&run(
        &["export", "--format", "json", "--all"],
        None,
        state.path(),
    ));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let arr = v.as_array().unwrap();
    assert_eq!(arr.len(), 38);
    assert_eq!(arr.iter().filter(|p| p["bookmarked"] == true).count(), 2);
}

#[test]
fn state_path_and_overrides() {
    let state = tempfile::tempdir().unwrap();
    let o = run(&["state", "path"], None, state.path());
    assert_eq!(
        out(&o).trim(),
        state.path().join("state.json").display().to_string()
    );
    let other = tempfile::tempdir().unwrap();
    let o = run(
        &[
            "--state-dir",
            other.path().to_str().unwrap(),
            "state",
            "path",
        ],
        None,
        state.path(),
    );
    assert_eq!(
        out(&o).trim(),
        other.path().join("state.json").display().to_string()
    );
}

#[test]
fn list_json_has_marks() {
    let state = tempfile::tempdir().unwrap();
    let rows = list(&[], state.path());
    run(&["mark", &rows[0].0, "--read"], None, state.path());
    let o = run(&["list", "--json"], None, state.path());
    let first: serde_json::Value = serde_json::from_str(out(&o).lines().next().unwrap()).unwrap();
    assert_eq!(first["read"], true);
    assert_eq!(first["bookmarked"], false);
}

/// A tiny deterministic generator for kill moments.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n.max(1)
    }
}

#[test]
fn kill_9_during_saves_never_breaks_the_file_or_loses_an_acknowledged_mark() {
    let state = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = corpus_file(dir.path(), 100);
    let ids: Vec<String> = list(&[&file], state.path())
        .into_iter()
        .map(|r| r.0)
        .collect();
    assert_eq!(ids.len(), 100);
    // How long one save takes here, to spread the kills over it.
    let t = Instant::now();
    run(&["mark", &ids[0], "--read", &file], None, state.path());
    let mut span = (t.elapsed().as_micros() as u64 * 3 / 2).max(1);
    let mut rng = Lcg(0x5eed);
    let mut acked = Vec::new();
    let mut killed = 0;
    for (k, id) in ids.iter().enumerate() {
        // On a busy machine a save can take longer than the one timed:
        // while none has finished, the kills are spread wider.
        if k % 10 == 9 && acked.is_empty() {
            span *= 2;
        }
        let mut child = Command::new(common::bin())
            .args(["mark", id, "--bookmark", &file])
            .env("PAPERBOAT_STATE_DIR", state.path())
            .env("PAPERBOAT_CACHE_DIR", state.path().join("cache"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_micros(rng.next(span)));
        let _ = child.kill(); // SIGKILL
        let status = child.wait().unwrap();
        if status.success() {
            acked.push(id.clone());
        } else {
            killed += 1;
        }
        let path = state.path().join("state.json");
        if path.exists() {
            let text = std::fs::read_to_string(&path).unwrap();
            let v: serde_json::Value = serde_json::from_str(&text)
                .unwrap_or_else(|e| panic!("state.json broken after a kill: {e}\n{text}"));
            assert_eq!(v["version"], 2);
        }
    }
    assert!(
        killed > 10,
        "the kills should land: only {killed} of 100 did"
    );
    let bookmarked: Vec<String> = list(&["--bookmarked", &file], state.path())
        .into_iter()
        .map(|r| r.0)
        .collect();
    assert!(!acked.is_empty(), "no save finished before its kill");
    for id in &acked {
        assert!(
            bookmarked.contains(id),
            "acknowledged bookmark of {id} lost"
        );
    }
    let leftovers: Vec<_> = std::fs::read_dir(state.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("corrupt"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn four_processes_marking_at_once_lose_nothing() {
    let state = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = corpus_file(dir.path(), 400);
    let ids: Vec<String> = list(&[&file], state.path())
        .into_iter()
        .map(|r| r.0)
        .collect();
    assert_eq!(ids.len(), 400);
    std::thread::scope(|s| {
        for chunk in ids.chunks(100) {
            let (file, state) = (&file, state.path());
            s.spawn(move || {
                for id in chunk {
                    let o = run(&["mark", id, "--bookmark", file], None, state);
                    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
                }
            });
        }
    });
    assert_eq!(list(&["--bookmarked", &file], state.path()).len(), 400);
}

#[test]
fn a_newer_unbookmark_from_another_instance_survives_the_readers_next_save() {
    let state = tempfile::tempdir().unwrap();
    let rows = list(&[], state.path());
    run(&["mark", &rows[0].0, "--bookmark"], None, state.path());
    let mut pty = Pty::spawn(&[], 120, 40, state.path(), &[]);
    pty.wait_text("bookmarked 1");
    // Another instance removes the bookmark (a newer entry)…
    let o = run(&["mark", &rows[0].0, "--unbookmark"], None, state.path());
    assert_eq!(o.status.code(), Some(0));
    // …the running reader picks it up…
    pty.wait_text("bookmarked 0");
    // …and its own next save keeps it.
    pty.send("jjb");
    pty.wait_text("bookmarked 1");
    pty.send("q");
    assert!(pty.wait_exit().success());
    let bookmarked = list(&["--bookmarked"], state.path());
    assert_eq!(bookmarked.len(), 1);
    assert_eq!(bookmarked[0].0, rows[2].0);
}

#[test]
fn corrupt_state_is_moved_aside_with_a_message_and_the_reader_starts() {
    let cases: Vec<(&str, Vec<u8>)> = vec![
        (
            "truncated",
            br#"{"version": 1, "papers": {"abc": {"bookmark": {"on": tr"#.to_vec(),
        ),
        (
            "random bytes",
            (0..200u32)
                .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
                .collect(),
        ),
        ("empty", Vec::new()),
    ];
    for (what, bytes) in cases {
        let state = tempfile::tempdir().unwrap();
        std::fs::write(state.path().join("state.json"), &bytes).unwrap();
        let o = run(&["list"], None, state.path());
        assert_eq!(o.status.code(), Some(0), "{what}: {}", err(&o));
        assert!(err(&o).contains("corrupt-"), "{what}: {}", err(&o));
        let aside = std::fs::read_dir(state.path())
            .unwrap()
            .filter_map(|e| e.ok())
            .find(|e| {
                e.file_name()
                    .to_string_lossy()
                    .starts_with("state.json.corrupt-")
            })
            .unwrap_or_else(|| panic!("{what}: nothing moved aside"));
        assert_eq!(
            std::fs::read(aside.path()).unwrap(),
            bytes,
            "{what}: original bytes kept"
        );
    }
    // A directory where the file should be; the reader starts and says so.
    let state = tempfile::tempdir().unwrap();
    std::fs::create_dir(state.path().join("state.json")).unwrap();
    std::fs::write(state.path().join("state.json").join("inside"), "keep me").unwrap();
    let mut pty = Pty::spawn(&[], 120, 40, state.path(), &[]);
    pty.wait_text("38/38");
    pty.wait_text("could not be read");
    pty.send("b");
    pty.wait_text("bookmarked 1");
    pty.send("q");
    assert!(pty.wait_exit().success());
    let moved = std::fs::read_dir(state.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .find(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("state.json.corrupt-")
        })
        .unwrap();
    assert_eq!(
        std::fs::read_to_string(moved.path().join("inside")).unwrap(),
        "keep me"
    );
    assert_eq!(list(&["--bookmarked"], state.path()).len(), 1);
}

#[test]
fn a_newer_versions_file_stays_byte_identical() {
    let state = tempfile::tempdir().unwrap();
    let rows = list(&[], state.path());
    let text = format!(
        "{{\"version\": 7, \"papers\": {{\"{}\": {{\"bookmark\": {{\"on\": true, \"at\": \"2026-01-01T00:00:00Z\"}}}}}}, \"future\": [1, 2]}}\n",
        PaperFull::of(&rows[3].0, state.path())
    );
    let path = state.path().join("state.json");
    std::fs::write(&path, &text).unwrap();
    let o = run(&["mark", &rows[0].0, "--bookmark"], None, state.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("newer"), "{}", err(&o));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    // The reader shows the marks it can read, refuses new ones, and says why.
    let mut pty = Pty::spawn(&[], 120, 40, state.path(), &[]);
    pty.wait_text("bookmarked 1");
    pty.send("b");
    pty.wait_text("newer paperboat");
    pty.send("q");
    assert!(pty.wait_exit().success());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
}

/// The full id of a paper given its short id.
struct PaperFull;
impl PaperFull {
    fn of(short: &str, state: &Path) -> String {
        let o = run(&["list", "--json"], None, state);
        out(&o)
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .find(|v| v["short_id"] == short)
            .map(|v| v["id"].as_str().unwrap().to_string())
            .unwrap()
    }
}
