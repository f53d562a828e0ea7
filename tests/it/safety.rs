//! Corpus text can never control the terminal: a list full of escape
//! sequences, controls and invisible characters, shown by the real binary.

use crate::common;

use common::{Pty, run};

/// A list whose titles and abstracts carry every kind of injection.
fn hostile_list() -> Vec<u8> {
    let mut text = String::from("Hostile \u{1b}]0;PWNED-TITLE\u{7}list\n\n");
    text.push_str("Alpha\u{1b}]0;PWNED-TITLE\u{7} title words\n");
    text.push_str("First abstract with \u{1b}]8;;https://evil.example/\u{1b}\\linked\u{1b}]8;;\u{1b}\\ text, ");
    text.push_str("a clipboard \u{1b}]52;c;cGFzdGVk\u{7}write, a clear \u{1b}[2Jscreen, ");
    text.push_str("a device \u{1b}Pq#0;2;0;0;0DCSPAYLOAD\u{1b}\\string, a C1 \u{9b}31mcsi, ");
    text.push_str(
        "a bell\u{7}ring, bidi \u{202e}reversed\u{202c} text, zero\u{200b}width\u{2060}joiners, ",
    );
    text.push_str("a line\u{2028}separator, a\ttab and a\rcarriage return.\n\n");
    text.push_str("Second \u{202e}evil\u{202c} paper\n");
    text.push_str("Plain second abstract.\n");
    let mut bytes = text.into_bytes();
    // A raw C1 byte, invalid on its own in UTF-8.
    bytes.extend_from_slice(b"\n\nRaw byte \x9b2J and \x1b[31mred\x1b[0m end.\n");
    bytes
}

const INJECTED: &[&[u8]] = &[
    b"\x1b]0;",
    b"PWNED-TITLE",
    b"\x1b]8;",
    b"evil.example",
    b"\x1b]52;",
    b"cGFzdGVk",
    b"\x1bP",
    b"DCSPAYLOAD",
    b"\xc2\x9b",
    b"\x07",
    "\u{202e}".as_bytes(),
    "\u{202c}".as_bytes(),
    "\u{200b}".as_bytes(),
    "\u{2060}".as_bytes(),
    "\u{2028}".as_bytes(),
];

fn find(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

#[test]
fn the_reader_writes_none_of_the_injected_sequences_and_the_words_survive() {
    let state = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("hostile.txt");
    std::fs::write(&file, hostile_list()).unwrap();
    let mut pty = Pty::spawn(&[file.to_str().unwrap()], 200, 50, state.path(), &[]);
    pty.wait_text("3/3");
    pty.wait_text("carriage return.");
    pty.wait_text("Alpha title words");
    let screen = pty.screen();
    for words in [
        "Alpha title words",
        "linked text",
        "a clipboard write",
        "a clear screen",
        "a device string",
        "a C1 csi",
        "bellring",
        "reversed text",
        "zerowidthjoiners",
        "a line separator",
        "a tab and a carriage return.",
    ] {
        assert!(screen.contains(words), "{words:?} missing:\n{screen}");
    }
    // Every paper is drawn once: the other two as well.
    pty.send("j");
    pty.wait_text("Plain second abstract.");
    pty.send("j");
    pty.wait_text("red end.");
    pty.send("q");
    assert!(pty.wait_exit().success());
    let raw = pty.raw();
    for seq in INJECTED {
        assert!(
            !find(&raw, seq),
            "the reader wrote {:?}",
            String::from_utf8_lossy(seq)
        );
    }
    // The screen is cleared once by the reader itself at most, never by text.
    assert!(!find(&raw, b"\x1b[2Jscreen"));
}

#[test]
fn commands_print_none_of_them_either() {
    let state = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("hostile\u{1b}]0;name\u{7}.txt");
    std::fs::write(&file, hostile_list()).unwrap();
    let f = file.to_str().unwrap();
    let outputs = [
        run(&["search", "", f], None, state.path()),
        run(&["search", "--json", "", f], None, state.path()),
        run(&["list", f], None, state.path()),
        run(
            &["export", "--all", "--format", "markdown", f],
            None,
            state.path(),
        ),
        run(
            &["export", "--all", "--format", "bibtex", f],
            None,
            state.path(),
        ),
        run(&["show", "", f], None, state.path()),
        run(
            &["search", "x", f, "/no/such\u{1b}[2J/file"],
            None,
            state.path(),
        ),
    ];
    for o in &outputs {
        for stream in [&o.stdout, &o.stderr] {
            for seq in INJECTED {
                assert!(
                    !find(stream, seq),
                    "printed {:?}",
                    String::from_utf8_lossy(seq)
                );
            }
            assert!(
                !find(stream, b"\x1b["),
                "an escape sequence was printed: {}",
                String::from_utf8_lossy(stream)
            );
        }
    }
    assert!(String::from_utf8_lossy(&outputs[0].stdout).contains("Alpha title words"));
}

/// A state file edited by hand can hold anything: its tags and notes
/// reach no output with a control, escape or invisible character.
#[test]
fn a_hand_edited_state_file_prints_clean() {
    let state = tempfile::tempdir().unwrap();
    let rows = run(&["list"], None, state.path());
    let id = String::from_utf8(rows.stdout)
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .split('\t')
        .next()
        .unwrap()
        .to_string();
    let full = {
        let o = run(&["list", "--json"], None, state.path());
        let first: serde_json::Value =
            serde_json::from_str(String::from_utf8(o.stdout).unwrap().lines().next().unwrap())
                .unwrap();
        first["id"].as_str().unwrap().to_string()
    };
    assert!(full.starts_with(&id));
    let state_json = serde_json::json!({
        "version": 2,
        "papers": {
            full.clone(): {
                "tags": {
                    "red\u{1b}[31mtag\u{7}": {"on": true, "at": "2026-01-01T00:00:00.000Z"},
                    "=cmd|' /C calc'!A0": {"on": true, "at": "2026-01-01T00:00:00.000Z"},
                    "\u{1b}": {"on": true, "at": "2026-01-01T00:00:00.000Z"}
                },
                "note": {"text": "line \u{1b}]0;PWNED\u{7}one\r\n\u{202e}two\u{9b}2J", "at": "2026-01-01T00:00:00.000Z"}
            }
        }
    });
    std::fs::write(
        state.path().join("state.json"),
        serde_json::to_vec(&state_json).unwrap(),
    )
    .unwrap();
    let outputs = [
        run(&["list", "--json"], None, state.path()),
        run(&["list", "--tag", "red[31mtag"], None, state.path()),
        run(&["export", "--all", "--format", "csv"], None, state.path()),
        run(&["export", "--all", "--format", "json"], None, state.path()),
        run(
            &["export", "--all", "--format", "bibtex"],
            None,
            state.path(),
        ),
        run(
            &["export", "--all", "--format", "markdown"],
            None,
            state.path(),
        ),
        run(&["show", &full], None, state.path()),
        run(&["tag", &full], None, state.path()),
        run(&["note", &full], None, state.path()),
    ];
    for o in &outputs {
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        for stream in [&o.stdout, &o.stderr] {
            for seq in [
                &b"\x1b"[..],
                b"\x07",
                b"\\u001b",
                b"\\u0007",
                "\u{202e}".as_bytes(),
                "\u{9b}".as_bytes(),
                b"\r",
            ] {
                assert!(
                    !find(stream, seq),
                    "printed {:?} in {}",
                    String::from_utf8_lossy(seq),
                    String::from_utf8_lossy(stream)
                );
            }
        }
    }
    // The tag kept cleaned, and the cell that would run as a formula
    // guarded.
    let csv = String::from_utf8_lossy(&outputs[2].stdout).to_string();
    assert!(csv.contains("red[31mtag"), "{csv}");
    assert!(csv.contains("'=cmd|' /C calc'!A0"), "{csv}");
}
