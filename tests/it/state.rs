//! The state file, version 2, where it can go wrong: several stores and
//! processes saving tags, notes, first-seen times and saved searches to
//! one file at once, kill -9 in the middle of saves (a migration among
//! them), a version 1 file migrated, a newer version's file left alone.

use crate::common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use paperboat::store::{self, Flag, Stamp, State, Store};
use tempfile::TempDir;

/// Full paper ids of `file` (or of the bundled lists), in list order.
fn ids(file: Option<&str>, state: &Path) -> Vec<String> {
    let mut args = vec!["list", "--json"];
    args.extend(file);
    let o = common::run(&args, None, state);
    assert_eq!(o.status.code(), Some(0));
    String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["id"].as_str().unwrap().to_string()
        })
        .collect()
}

/// A state directory, and a JSON Lines corpus of 100 papers in another:
/// the directories, the corpus's path and its papers' ids.
fn hundred_papers() -> (TempDir, TempDir, String, Vec<String>) {
    let state = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = jsonl_corpus(dir.path(), 100);
    let ids = ids(Some(&file), state.path());
    (state, dir, file, ids)
}

/// A JSON Lines corpus of `n` distinct papers; its path.
fn jsonl_corpus(dir: &Path, n: usize) -> String {
    let text: String = (0..n)
        .map(|i| {
            format!(
                "{{\"title\": \"Triage paper {i}\", \"abstract\": \"About topic {}.\"}}\n",
                i * 31
            )
        })
        .collect();
    let path = dir.join("triage.jsonl");
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

fn parse(path: &Path) -> State {
    let text = std::fs::read_to_string(path).unwrap();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("state.json unreadable: {e}\n{text}"))
}

#[test]
fn four_stores_and_a_process_saving_at_once_lose_nothing() {
    let state = tempfile::tempdir().unwrap();
    let bundled = ids(None, state.path());
    std::thread::scope(|s| {
        for k in 0..4 {
            let dir = state.path();
            s.spawn(move || {
                let (mut store, msgs) = Store::open(dir);
                assert!(msgs.is_empty(), "{msgs:?}");
                for i in 0..40 {
                    let id = format!("paper-{k}-{i}");
                    store.set_tag(&id, "triage", true).unwrap();
                    store.set_tag(&id, &format!("Worker {k}"), true).unwrap();
                    if i % 4 == 0 {
                        store.set_note(&id, &format!("note {k}/{i}")).unwrap();
                    }
                }
                let mine: Vec<String> = (0..40).map(|i| format!("paper-{k}-{i}")).collect();
                let new = store
                    .record_first_seen(mine.iter().map(String::as_str), Stamp::now())
                    .unwrap();
                assert_eq!(new, 40);
                store
                    .save_search(&format!("search {k}"), &format!("worker:{k}"), "all")
                    .unwrap();
            });
        }
        // Meanwhile, another process marks papers of the bundled lists.
        let (bundled, dir) = (&bundled, state.path());
        s.spawn(move || {
            for id in bundled.iter().take(20) {
                let o = common::run(&["mark", id, "--bookmark"], None, dir);
                assert_eq!(o.status.code(), Some(0));
            }
        });
    });
    let (all, _) = Store::open(state.path());
    for k in 0..4 {
        for i in 0..40 {
            let id = format!("paper-{k}-{i}");
            let worker = format!("Worker {k}");
            assert_eq!(all.tags(&id), ["triage", worker.as_str()], "{id}");
            assert!(all.first_seen(&id).is_some(), "{id}");
            let note = (i % 4 == 0).then(|| format!("note {k}/{i}"));
            assert_eq!(all.note(&id), note.as_deref(), "{id}");
        }
        let tags = all.all_tags();
        assert!(tags.contains(&(format!("Worker {k}"), 40)), "{tags:?}");
        let search = all.saved_search(&format!("Search {k}")).unwrap();
        assert_eq!(search.query, format!("worker:{k}"));
    }
    assert_eq!(all.all_tags()[0], ("triage".to_string(), 160));
    for id in bundled.iter().take(20) {
        assert!(all.is_on(id, Flag::Bookmark), "{id}");
    }
    assert!(
        all.note_conflicts().is_empty(),
        "different papers, no conflict"
    );
}

#[test]
fn a_tag_taken_off_in_one_store_stays_off_after_the_other_saves() {
    let state = tempfile::tempdir().unwrap();
    let (mut a, _) = Store::open(state.path());
    a.set_tag("p", "Needs review", true).unwrap();
    a.set_tag("p", "kept", true).unwrap();
    let (mut b, _) = Store::open(state.path());
    let (mut c, _) = Store::open(state.path());
    assert!(b.has_tag("p", "needs review"));
    a.set_tag("p", "NEEDS REVIEW", false).unwrap();
    // b and c still have the tag on and save other changes of the paper.
    b.set_tag("p", "from b", true).unwrap();
    c.set(&[("p", Flag::Read, true)]).unwrap();
    c.set_note("p", "c's note").unwrap();
    for store in [&mut b, &mut c] {
        store.refresh();
        assert!(!store.has_tag("p", "needs review"));
    }
    let (d, _) = Store::open(state.path());
    assert_eq!(d.tags("p"), ["from b", "kept"]);
    assert!(d.is_on("p", Flag::Read));
    // Putting it back on later wins in turn.
    b.set_tag("p", "needs review", true).unwrap();
    a.set_tag("p", "kept", false).unwrap();
    assert_eq!(
        Store::open(state.path()).0.tags("p"),
        ["from b", "needs review"]
    );
}

#[test]
fn notes_written_at_once_in_four_stores_keep_the_newest_and_the_rest() {
    let state = tempfile::tempdir().unwrap();
    Store::open(state.path()).0.set_note("p", "start").unwrap();
    for round in 0..5 {
        // Four readers open the note as it is, then all edit it at once.
        let go = std::sync::Barrier::new(4);
        std::thread::scope(|s| {
            for k in 0..4 {
                let (dir, go) = (state.path(), &go);
                s.spawn(move || {
                    let (mut store, _) = Store::open(dir);
                    go.wait();
                    store
                        .set_note("p", &format!("round {round}, reader {k}"))
                        .unwrap();
                });
            }
        });
        let (all, _) = Store::open(state.path());
        let note = all.note("p").unwrap();
        let kept: Vec<&str> = all
            .note_conflicts()
            .iter()
            .map(|c| c.text)
            .filter(|t| t.starts_with(&format!("round {round},")))
            .collect();
        // One won, the newest; none of the other three is lost.
        assert_eq!(kept.len(), 3, "round {round}: {note:?} and {kept:?}");
        for k in 0..4 {
            let text = format!("round {round}, reader {k}");
            assert!(note == text || kept.contains(&text.as_str()), "{text} lost");
        }
        let newest = all.note_written("p").unwrap();
        assert!(all.note_conflicts().iter().all(|c| c.at <= newest));
    }
    assert_eq!(Store::open(state.path()).0.note_conflicts().len(), 15);
}

/// Runs `paperboat mark ID --bookmark FILE` for each id and kills it
/// (SIGKILL) at moments spread over one save's duration, calling `check`
/// on the state directory after each. Then every bookmark whose process
/// finished before its kill must be there.
fn kill_marks_midway(state: &Path, file: &str, ids: &[String], check: impl Fn(&Path)) {
    let t = Instant::now();
    let o = common::run(&["list", file], None, state);
    assert_eq!(o.status.code(), Some(0));
    let span = (t.elapsed().as_micros() as u64 * 2).max(1);
    let mut acked = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        let mut child = Command::new(common::bin())
            .args(["mark", id, "--bookmark", file])
            .env("PAPERBOAT_STATE_DIR", state)
            .env("PAPERBOAT_CACHE_DIR", state.join("cache"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // A fixed scatter of moments, the same on every run.
        let at = span * ((i as u64 * 37) % 100) / 100;
        std::thread::sleep(Duration::from_micros(at));
        let _ = child.kill();
        if child.wait().unwrap().success() {
            acked.push(id.clone());
        }
        check(state);
    }
    let killed = ids.len() - acked.len();
    assert!(killed > 10, "the kills should land: only {killed} did");
    // However the kills fell on a busy machine, one save runs to its end
    // among the wreckage and must be kept with the others acknowledged.
    let last = ids.last().unwrap();
    let o = common::run(&["mark", last, "--bookmark", file], None, state);
    assert_eq!(o.status.code(), Some(0));
    check(state);
    acked.push(last.clone());
    let names: Vec<String> = std::fs::read_dir(state)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        !names.iter().any(|n| n.contains("corrupt")),
        "nothing was ever unreadable"
    );
    // What the killed saves left is gone with the last save.
    assert!(
        !names.iter().any(|n| n.contains(".tmp-")),
        "temporary files left: {names:?}"
    );
    let (after, _) = Store::open(state);
    for id in &acked {
        assert!(after.is_on(id, Flag::Bookmark), "acknowledged {id} lost");
    }
}

#[test]
fn kill_9_during_saves_keeps_tags_notes_and_searches() {
    let (state, _dir, file, ids) = hundred_papers();
    {
        let (mut store, _) = Store::open(state.path());
        for id in &ids {
            store.set_tag(id, "seeded", true).unwrap();
            store
                .set_note(id, &format!("Notes on **{id}**\n\n- one\n"))
                .unwrap();
        }
        store.save_search("kept", "triage", "").unwrap();
        store
            .record_first_seen(ids.iter().map(String::as_str), Stamp(1_000))
            .unwrap();
    }
    kill_marks_midway(state.path(), &file, &ids, |dir| {
        let s = parse(&dir.join(store::FILE_NAME));
        assert_eq!(s.version, store::VERSION);
        for id in &ids {
            assert_eq!(s.tags(id), ["seeded"]);
            assert!(s.note(id).unwrap().starts_with("Notes on"));
        }
        let (seen, _) = Store::open(dir);
        for id in &ids {
            assert_eq!(seen.first_seen(id), Some(Stamp(1_000)));
        }
        assert!(s.searches.get("kept").is_some());
    });
}

#[test]
fn kill_9_during_a_migration_leaves_the_old_file_or_the_new_and_the_backup() {
    let (state, _dir, file, ids) = hundred_papers();
    let papers: Vec<String> = ids
        .iter()
        .map(|id| {
            format!("\"{id}\": {{\"read\": {{\"on\": true, \"at\": \"2026-01-01T00:00:00Z\"}}}}")
        })
        .collect();
    let v1 = format!(
        "{{\"version\": 1, \"papers\": {{{}}}}}\n",
        papers.join(", ")
    );
    let path = state.path().join(store::FILE_NAME);
    std::fs::write(&path, &v1).unwrap();
    let backup = state.path().join(store::backup_name(1));
    kill_marks_midway(state.path(), &file, &ids, |dir| {
        let s = parse(&dir.join(store::FILE_NAME));
        assert!(matches!(s.version, 1 | 2), "{}", s.version);
        if s.version == 2 {
            assert!(backup.exists(), "rewritten before the old file was kept");
        }
        if backup.exists() {
            assert_eq!(std::fs::read_to_string(&backup).unwrap(), v1);
        }
        assert!(ids.iter().all(|id| s.is_on(id, Flag::Read)), "a mark lost");
    });
    assert_eq!(parse(&path).version, 2);
}

#[test]
fn the_binary_migrates_a_version_1_file_on_its_first_save() {
    let state = tempfile::tempdir().unwrap();
    let ids = ids(None, state.path());
    let v1 = format!(
        r#"{{"version": 1, "papers": {{"{}": {{"bookmark": {{"on": true, "at": "2026-01-01T00:00:00Z"}}}}, "{}": {{"read": {{"on": true, "at": "2026-01-01T00:00:00Z"}}, "bookmark": {{"on": false, "at": "2026-01-02T00:00:00Z"}}}}}}, "views": {{"bundled": {{"view": "unread", "at": "2026-01-01T00:00:00Z"}}}}}}"#,
        ids[0], ids[1]
    );
    let path = state.path().join(store::FILE_NAME);
    std::fs::write(&path, &v1).unwrap();
    let backup = state.path().join(store::backup_name(1));
    // Reading does not rewrite.
    let o = common::run(&["list", "--bookmarked"], None, state.path());
    assert_eq!(String::from_utf8_lossy(&o.stdout).lines().count(), 1);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), v1);
    assert!(!backup.exists());
    let o = common::run(&["mark", &ids[2], "--read"], None, state.path());
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(std::fs::read_to_string(&backup).unwrap(), v1);
    let s = parse(&path);
    assert_eq!(s.version, 2);
    assert!(s.is_on(&ids[0], Flag::Bookmark));
    assert!(s.is_on(&ids[1], Flag::Read) && !s.is_on(&ids[1], Flag::Bookmark));
    assert!(s.papers[&ids[1]].bookmark.is_some(), "the un-bookmark kept");
    assert!(s.is_on(&ids[2], Flag::Read));
    assert_eq!(s.views["bundled"].view.as_deref(), Some("unread"));
}

#[test]
fn a_newer_versions_file_is_left_byte_identical() {
    let state = tempfile::tempdir().unwrap();
    let ids = ids(None, state.path());
    let path = state.path().join(store::FILE_NAME);
    let text = format!(
        r#"{{"version": 3, "papers": {{"{}": {{"tags": {{"later": {{"on": true, "at": "2026-01-01T00:00:00Z"}}}}, "note": {{"text": "n", "at": "2026-01-01T00:00:00Z"}}, "rating": 5}}}}, "folders": []}}"#,
        ids[0]
    );
    std::fs::write(&path, &text).unwrap();
    let (mut s, msgs) = Store::open(state.path());
    assert!(msgs[0].contains("newer"), "{msgs:?}");
    assert_eq!(s.tags(&ids[0]), ["later"]);
    assert_eq!(s.note(&ids[0]), Some("n"));
    assert!(s.set_tag(&ids[0], "x", true).is_err());
    assert!(s.set_note(&ids[0], "m").is_err());
    assert!(s.save_search("s", "q", "").is_err());
    s.record_first_seen(ids.iter().map(String::as_str), Stamp::now())
        .unwrap();
    assert!(s.save().is_err());
    let o = common::run(&["mark", &ids[1], "--read"], None, state.path());
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    let names: Vec<_> = std::fs::read_dir(state.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n != "state.json.lock")
        .collect();
    assert_eq!(names, ["state.json"], "no backup, no temporary file");
}

#[test]
fn the_documented_files_read_as_documented() {
    let doc = std::fs::read_to_string("docs/STATE.md").unwrap();
    let blocks: Vec<&str> = doc
        .split("```json\n")
        .skip(1)
        .map(|b| &b[..b.find("```").unwrap()])
        .collect();
    assert_eq!(blocks.len(), 2);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(store::FILE_NAME), blocks[0]).unwrap();
    std::fs::write(dir.path().join(store::SEEN_FILE_NAME), blocks[1]).unwrap();
    let (s, msgs) = Store::open(dir.path());
    assert!(msgs.is_empty(), "{msgs:?}");
    let id = "arxiv:2106.09685";
    assert!(s.is_on(id, Flag::Bookmark) && !s.is_on(id, Flag::Read));
    assert_eq!(s.tags(id), ["LoRA"]);
    assert!(s.note(id).unwrap().contains("**adapters**"));
    let search = s.saved_search("Adapters").unwrap();
    assert_eq!(
        (search.query.as_str(), search.scope.as_str()),
        ("lora adapter", "bookmarked")
    );
    assert!(s.saved_search("old").is_none());
    let kept: Vec<_> = s
        .note_conflicts()
        .iter()
        .map(|c| (c.paper, c.text))
        .collect();
    assert_eq!(kept, [(id, "Read §4 again.")]);
    assert!(s.first_seen("doi:10.1145/3442188.3445922").is_some());
    assert_eq!(
        s.place("<corpus key>").unwrap().view.as_deref(),
        Some("unread")
    );
}
