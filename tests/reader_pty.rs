//! The real binary in a pseudo-terminal: what a user sees and what the
//! terminal is left like.

mod common;

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
    pty.wait_text("safety risks in T2I agents.");
    // `q` in search mode is typed, not quit.
    pty.send("q");
    pty.wait_text("/ jailq");
    pty.send("\x1b");
    pty.wait_text("38/38");
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
    pty.wait_text("1 https://anonymous.4open.science/r/CoPro-8A95/README.md");
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
