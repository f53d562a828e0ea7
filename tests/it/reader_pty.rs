//! The real binary in a pseudo-terminal: what a user sees and what the
//! terminal is left like.

use crate::common;

use common::Pty;

#[test]
fn type_a_query_read_the_result_quit_and_the_terminal_is_restored() {
    let state = tempfile::tempdir().unwrap();
    let mut pty = Pty::spawn(&[], 120, 40, state.path(), &[]);
    pty.wait_text("38/38");
    pty.wait_for("the alternate screen", |s| s.alternate_screen());
    pty.send("/");
    pty.send("jail");
    pty.wait_text("1/38");
    // A frame can arrive in pieces: wait for the parts that matter.
    pty.wait_text("OrchJail: an orchestration-guided fuzzing framework");
    pty.wait_text("Tool-calling text-to-image (T2I) agents");
    // `q` in search mode is typed, not quit.
    pty.send("q");
    pty.wait_text("/ jailq");
    pty.send("\x1b");
    // The top line's count: the query cleared, so Esc was read.
    pty.wait_text(" 38/38 papers · ");
    pty.send("q");
    let status = pty.wait_exit();
    assert!(status.success(), "{status:?}");
    assert!(pty.cooked(), "raw mode left on");
    assert!(
        pty.screen_restored(),
        "alternate screen or mouse mode left on"
    );
}

#[test]
fn resize_redraws_in_the_stacked_layout() {
    let state = tempfile::tempdir().unwrap();
    let mut pty = Pty::spawn(&[], 120, 40, state.path(), &[]);
    pty.wait_text("38/38");
    pty.resize(60, 20);
    pty.wait_for("stacked panes", |s| {
        let c = s.contents();
        c.lines().nth(1).is_some_and(|l| l.contains("Papers")) && c.contains("╭ Abstract")
    });
    pty.send("\x03");
    assert!(pty.wait_exit().success());
    assert!(pty.cooked());
}

#[test]
fn o_opens_the_link_with_the_opener_and_y_copies_with_osc_52() {
    use base64::Engine;
    let state = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("opened.txt");
    let script = dir.path().join("opener.sh");
    std::fs::write(
        &script,
        format!("#!/bin/sh\necho \"$1\" >> {}\n", log.display()),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let mut pty = Pty::spawn(
        &[],
        120,
        40,
        state.path(),
        &[("PAPERBOAT_OPENER", script.to_str().unwrap())],
    );
    pty.wait_text("38/38");
    pty.send("/'CoPro\r");
    pty.wait_text("1/38");
    pty.wait_text("1 https://anonymous.4open.science/r/CoPro");
    pty.send("o");
    pty.wait_text("opening https://anonymous.4open.science");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while !log.exists() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(
        std::fs::read_to_string(&log).unwrap().trim(),
        "https://anonymous.4open.science/r/CoPro-8A95/README.md"
    );
    pty.send("y");
    pty.wait_text("copied the title and link");
    let raw = pty.raw();
    let expected = base64::engine::general_purpose::STANDARD
        .encode("CoPro: constrained projection policy optimization\nhttps://anonymous.4open.science/r/CoPro-8A95/README.md");
    let osc = format!("\u{1b}]52;c;{expected}\u{7}");
    assert!(
        raw.windows(osc.len()).any(|w| w == osc.as_bytes()),
        "no OSC 52 with the title and link"
    );
    pty.send("q");
    assert!(pty.wait_exit().success());
}

/// `big.jsonl` in `dir`, of the lines `line(0)` to `line(n - 1)`; its path.
fn big_jsonl(dir: &tempfile::TempDir, n: usize, line: impl Fn(usize) -> String) -> String {
    let path = dir.path().join("big.jsonl");
    std::fs::write(&path, (0..n).map(line).collect::<String>()).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn a_large_file_opens_and_its_papers_read_in_full() {
    let state = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = big_jsonl(&dir, 60_000, |i| {
        format!(
            "{{\"id\": \"2401.{i:05}\", \"title\": \"Paper number {i} on streaming loads\", \"abstract\": \"The abstract of paper {i}.\"}}\n"
        )
    });
    let mut pty = Pty::spawn(&[&path], 120, 40, state.path(), &[]);
    // Whole once loaded, and the status line says what loaded.
    pty.wait_text("60000/60000");
    pty.wait_text("big.jsonl: 60000 papers");
    pty.send("/number 59999");
    // The count on the top line, whole: `11/60000`, a count on the way
    // there, holds `1/60000` too.
    pty.wait_text(" 1/60000 papers · ");
    pty.wait_text("The abstract of paper 59999.");
    // Esc and `q` apart, or the terminal reads them as Alt-q: the query
    // cleared is the sign that Esc was read (a frame drawn as the query
    // was typed can show every paper too, but not after the one above).
    pty.send("\x1b");
    pty.wait_text(" 60000/60000 papers · ");
    pty.send("q");
    assert!(pty.wait_exit().success());
    assert!(pty.cooked());
}

#[test]
fn a_reader_on_files_that_cannot_be_opened_says_so_before_taking_the_screen() {
    let state = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, "").unwrap();
    let missing = dir.path().join("missing.bib");
    let (empty, missing) = (
        empty.to_string_lossy().into_owned(),
        missing.to_string_lossy().into_owned(),
    );
    let mut pty = Pty::spawn(&[&empty, &missing], 100, 30, state.path(), &[]);
    let status = pty.wait_exit();
    assert_eq!(status.exit_code(), 2, "{status:?}");
    let raw = String::from_utf8_lossy(&pty.raw()).into_owned();
    assert!(raw.contains("empty.txt: empty file"), "{raw}");
    assert!(raw.contains("missing.bib"), "{raw}");
    assert!(!raw.contains("\x1b[?1049h"), "took the screen: {raw:?}");
    assert!(pty.cooked());
}

#[test]
fn a_file_that_holds_no_paper_ends_the_reader_with_why() {
    let state = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nothing.json");
    std::fs::write(&path, "[]\n").unwrap();
    let path = path.to_string_lossy().into_owned();
    let mut pty = Pty::spawn(&[&path], 100, 30, state.path(), &[]);
    let status = pty.wait_exit();
    assert_eq!(status.exit_code(), 2, "{status:?}");
    assert!(pty.screen().contains("no papers found"), "{}", pty.screen());
    assert!(pty.screen().contains("nothing.json"), "{}", pty.screen());
    assert!(pty.cooked());
    assert!(pty.screen_restored());
}

#[test]
fn reading_standard_input_from_the_terminal_is_refused() {
    let state = tempfile::tempdir().unwrap();
    let mut pty = Pty::spawn(&["-"], 100, 30, state.path(), &[]);
    let status = pty.wait_exit();
    assert_eq!(status.exit_code(), 2, "{status:?}");
    let raw = String::from_utf8_lossy(&pty.raw()).into_owned();
    assert!(raw.contains("standard input is the terminal"), "{raw}");
    assert!(!raw.contains("\x1b[?1049h"), "took the screen: {raw:?}");
}

#[test]
fn e_hands_the_terminal_to_the_editor_and_saves_the_note_it_leaves() {
    let state = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let started = dir.path().join("started");
    let script = dir.path().join("editor.sh");
    // An editor that reads a line from the terminal and appends it to
    // the file, its last argument.
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nfor last; do :; done\ntouch {}\nread line\necho \"$line\" >> \"$last\"\n",
            started.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let editor = format!("{} --ignored-by-the-script", script.display());
    let mut pty = Pty::spawn(
        &[],
        120,
        40,
        state.path(),
        &[("VISUAL", editor.as_str()), ("EDITOR", "false")],
    );
    pty.wait_text("38/38");
    pty.send("e");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !started.exists() {
        assert!(std::time::Instant::now() < deadline, "the editor never ran");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // The keys go to the editor, not the reader (q would quit it).
    pty.send("q then Read section 4 again\r");
    pty.wait_text("note saved");
    pty.wait_text("q then Read section 4 again");
    pty.send("q");
    assert!(pty.wait_exit().success());
    assert!(pty.cooked());
    let saved = std::fs::read_to_string(state.path().join("state.json")).unwrap();
    assert!(saved.contains("q then Read section 4 again"), "{saved}");
}

#[test]
fn triage_keeps_skips_and_resumes_in_the_real_reader() {
    let state = tempfile::tempdir().unwrap();
    let mut pty = Pty::spawn(&[], 120, 40, state.path(), &[]);
    pty.wait_text("38/38");
    pty.send("T");
    pty.wait_text("Triage · 0/38 triaged · 0 kept");
    pty.send("y");
    pty.wait_text("Triage · 1/38 triaged · 1 kept");
    pty.send("n");
    pty.wait_text("Triage · 2/38 triaged · 1 kept");
    pty.send("\x1b");
    pty.wait_text("triaged 2/38 · 1 kept · T resumes");
    pty.send("T");
    pty.wait_text("Triage · 2/38 triaged · 1 kept");
    pty.send("u");
    pty.wait_text("Triage · 1/38 triaged · 1 kept");
    pty.send("q");
    pty.wait_text("bookmarked 1");
    pty.send("q");
    assert!(pty.wait_exit().success());
    assert!(pty.cooked());
    let saved = std::fs::read_to_string(state.path().join("state.json")).unwrap();
    assert_eq!(saved.matches("\"bookmark\"").count(), 1, "{saved}");
}

#[test]
fn papers_are_new_on_a_first_visit_and_not_on_the_next() {
    let state = tempfile::tempdir().unwrap();
    let mut pty = Pty::spawn(&[], 200, 60, state.path(), &[]);
    pty.wait_text("new 38");
    pty.send("q");
    assert!(pty.wait_exit().success());
    assert!(state.path().join("first_seen.json").exists());
    let mut pty = Pty::spawn(&[], 200, 60, state.path(), &[]);
    pty.wait_text("38/38");
    // The second visit's recording finds nothing new.
    pty.wait_for("new 0", |s| s.contents().contains("new 0"));
    pty.send("q");
    assert!(pty.wait_exit().success());
}

#[test]
fn a_file_whose_titles_and_index_are_stored_is_listed_whole_and_reads_as_when_cold() {
    let state = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = big_jsonl(&dir, 30_000, |i| {
        format!(
            "{{\"id\": \"2401.{i:05}\", \"title\": \"Paper number {i} on stored lists\", \"authors\": \"Ada Lovelace\", \"year\": 2024, \"abstract\": \"The abstract of paper {i}.\"}}\n"
        )
    });
    // Opened cold first: a bookmark on the third paper.
    let mut pty = Pty::spawn(&[&path], 120, 40, state.path(), &[]);
    pty.wait_text("30000/30000");
    pty.send("jjb");
    pty.wait_for("the bookmark", |s| s.contents().contains("★ bookmarked"));
    pty.send("q");
    assert!(pty.wait_exit().success());
    let built = common::run(&["cache", "build", &path], None, state.path());
    assert!(built.status.success(), "{built:?}");
    let said = String::from_utf8_lossy(&built.stdout);
    assert!(
        said.contains("word index stored") && said.contains("titles stored"),
        "{said}"
    );
    // Warm: the bookmark and the paper selected come back, each paper
    // reads in full, and search finds by title and abstract.
    let mut pty = Pty::spawn(&[&path], 120, 40, state.path(), &[]);
    pty.wait_text("30000/30000");
    pty.wait_text("The abstract of paper 2.");
    pty.wait_for("the bookmark", |s| s.contents().contains("★ bookmarked"));
    assert!(
        pty.screen().contains("Ada Lovelace · 2024"),
        "{}",
        pty.screen()
    );
    pty.send("G");
    pty.wait_text("The abstract of paper 29999.");
    pty.send("/number 17171");
    pty.wait_text(" 1/30000 papers · ");
    pty.wait_text("The abstract of paper 17171.");
    pty.send("\x1b");
    pty.wait_text(" 30000/30000 papers · ");
    pty.send("q");
    assert!(pty.wait_exit().success());
    assert!(pty.cooked());
}
