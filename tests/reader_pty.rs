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
    let screen = pty.screen();
    assert!(
        screen.contains("OrchJail: an orchestration-guided fuzzing framework"),
        "{screen}"
    );
    assert!(
        screen.contains("safety risks in T2I agents."),
        "abstract pane shows the paper:\n{screen}"
    );
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
