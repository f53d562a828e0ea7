//! The non-interactive commands, run as a user runs them.

use crate::common;

use common::run;

fn stdout(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn search_prints_id_tab_title_best_first() {
    let state = tempfile::tempdir().unwrap();
    let o = run(&["search", "orchjail"], None, state.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1, "{out}");
    let (id, title) = lines[0].split_once('\t').unwrap();
    assert_eq!(id.len(), 7);
    assert!(id.bytes().all(|b| b.is_ascii_hexdigit()));
    assert!(title.starts_with("OrchJail: "), "{title}");
}

#[test]
fn empty_query_lists_every_paper_in_corpus_order() {
    let state = tempfile::tempdir().unwrap();
    let o = run(&["search", ""], None, state.path());
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 38);
    assert!(out.lines().nth(1).unwrap().contains("OrchJail"));
}

#[test]
fn no_match_exits_1_and_prints_nothing() {
    let state = tempfile::tempdir().unwrap();
    let o = run(&["search", "zzqqxxjj"], None, state.path());
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
}

#[test]
fn json_lines_carry_the_paper() {
    let state = tempfile::tempdir().unwrap();
    let o = run(
        &["search", "--json", "--limit", "3", "rl"],
        None,
        state.path(),
    );
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    let rows: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 3);
    for r in &rows {
        for key in ["id", "title", "abstract", "source", "score"] {
            assert!(r.get(key).is_some(), "{key} missing in {r}");
        }
        assert_eq!(r["source"], "ICML 2026 论文列表");
        assert_eq!(r["id"].as_str().unwrap().len(), 16);
    }
    let scores: Vec<u64> = rows.iter().map(|r| r["score"].as_u64().unwrap()).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
}

#[test]
fn every_field_by_default_finds_words_only_in_abstracts() {
    let state = tempfile::tempdir().unwrap();
    let title_only = run(
        &["search", "--scope", "title", "'AgentDojo"],
        None,
        state.path(),
    );
    assert_eq!(title_only.status.code(), Some(1));
    let all = run(&["search", "'AgentDojo"], None, state.path());
    assert_eq!(all.status.code(), Some(0));
    assert!(stdout(&all).contains("CausalArmor"));
    let all = run(
        &["search", "--scope", "all", "'AgentDojo"],
        None,
        state.path(),
    );
    assert!(stdout(&all).contains("CausalArmor"));
}

#[test]
fn reads_files_and_stdin() {
    let state = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mine.txt");
    std::fs::write(
        &file,
        "My list\n\nWe present Foo, a tool for reading abstracts.\n\nAnother paper about bars.",
    )
    .unwrap();
    let o = run(
        &["search", "foo", file.to_str().unwrap()],
        None,
        state.path(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("\tFoo: a tool for reading abstracts"));
    let o = run(
        &["search", "--json", "bars", "-"],
        Some(b"Stdin list\n\nOnly a paper about bars."),
        state.path(),
    );
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("\"source\":\"Stdin list\""));
}

#[test]
fn a_missing_file_is_named_and_exits_2() {
    let state = tempfile::tempdir().unwrap();
    let o = run(&["search", "x", "/no/such/file.txt"], None, state.path());
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("/no/such/file.txt"), "{err}");
    assert!(err.starts_with("paperboat: "), "{err}");
    assert!(!err.contains("panicked"));
}

#[test]
fn usage_errors_exit_2() {
    let state = tempfile::tempdir().unwrap();
    let o = run(&["search"], None, state.path());
    assert_eq!(o.status.code(), Some(2));
    let o = run(&["search", "--scope", "nope", "x"], None, state.path());
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn help_and_version() {
    let state = tempfile::tempdir().unwrap();
    let o = run(&["--version"], None, state.path());
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).starts_with("paperboat "));
    let o = run(&["--help"], None, state.path());
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("search"));
}

#[test]
fn the_reader_refuses_to_start_without_a_terminal() {
    let state = tempfile::tempdir().unwrap();
    let o = run(&[], None, state.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("terminal"), "{}", stderr(&o));
}

#[test]
fn a_closed_pipe_is_not_an_error() {
    let state = tempfile::tempdir().unwrap();
    let mut child = std::process::Command::new(common::bin())
        .args(["search", ""])
        .env("PAPERBOAT_STATE_DIR", state.path())
        .env("PAPERBOAT_CACHE_DIR", state.path().join("cache"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
}

#[test]
fn show_prints_the_paper_wrapped_and_plain_when_piped() {
    let state = tempfile::tempdir().unwrap();
    let id =
        String::from_utf8(run(&["search", "--limit", "1", "copro"], None, state.path()).stdout)
            .unwrap();
    let id = id.split('\t').next().unwrap().to_string();
    let mut cmd = std::process::Command::new(common::bin());
    cmd.args(["show", &id])
        .env("PAPERBOAT_STATE_DIR", state.path())
        .env("PAPERBOAT_CACHE_DIR", state.path().join("cache"))
        .env("COLUMNS", "50");
    let o = cmd.output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    assert!(
        text.starts_with("CoPro: constrained projection policy"),
        "{text}"
    );
    assert!(
        text.contains("Links\n 1 https://anonymous.4open.science/"),
        "{text}"
    );
    assert!(
        text.replace("\n   ", "")
            .contains(" 1 https://anonymous.4open.science/r/CoPro-8A95/README.md"),
        "long links wrap whole: {text}"
    );
    assert!(
        text.contains("($q*$)") || text.contains("(q*)"),
        "math rendered: {text}"
    );
    assert!(
        text.lines()
            .all(|l| unicode_width::UnicodeWidthStr::width(l) <= 50),
        "{text}"
    );
    assert!(!text.contains('\u{1b}'), "no styling when piped");
    let o = run(&["show", "zzzzzzz"], None, state.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("zzzzzzz"));
}

#[test]
fn plain_lines_agree_with_json_on_ids_titles_and_order() {
    // Plain output keeps titles and ids only; it must print what the
    // whole-paper path prints, repeated derived titles (made unique with
    // the short id) and repeated papers (shown once) included.
    let state = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("list.txt");
    std::fs::write(
        &file,
        "List\n\nWe study sparse attention.\n\nWe study sparse attention!\n\n\
         Sparse Attention Title\nAn abstract.\n\nWe study sparse attention.\n",
    )
    .unwrap();
    let more = dir.path().join("more.jsonl");
    std::fs::write(
        &more,
        "{\"id\":\"2401.00001\",\"title\":\"Sparse routing\",\"abstract\":\"x\"}\n",
    )
    .unwrap();
    let files = [file.to_str().unwrap(), more.to_str().unwrap()];
    for q in ["sparse", "", "zzqq"] {
        let plain = run(
            &[&["search", q][..], &files[..]].concat(),
            None,
            state.path(),
        );
        let json = run(
            &[&["search", "--json", q][..], &files[..]].concat(),
            None,
            state.path(),
        );
        assert_eq!(plain.status.code(), json.status.code(), "{q}");
        let from_json: Vec<String> = stdout(&json)
            .lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                format!(
                    "{}\t{}",
                    v["short_id"].as_str().unwrap(),
                    v["title"].as_str().unwrap()
                )
            })
            .collect();
        let lines: Vec<String> = stdout(&plain).lines().map(str::to_string).collect();
        assert_eq!(lines, from_json, "{q}");
        assert_eq!(lines.is_empty(), q == "zzqq", "{q}: {lines:?}");
        if q == "sparse" {
            assert_eq!(lines.len(), 4, "{lines:?}");
            assert!(lines.iter().any(|l| l.contains(" [")), "{lines:?}");
        }
    }
}

/// A small JSON Lines list: words in titles and abstracts.
fn worded_list(dir: &std::path::Path) -> String {
    let path = dir.join("worded.jsonl");
    let lines = [
        r#"{"title": "Graph neural networks", "abstract": "We learn on graphs of molecules."}"#,
        r#"{"title": "Graphene sheets", "abstract": "Carbon in two dimensions."}"#,
        r#"{"title": "Robot motion", "abstract": "Planning with a transformer."}"#,
    ];
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn search_prints_the_papers_holding_the_word_and_says_what_it_widened() {
    let state = tempfile::tempdir().unwrap();
    let file = worded_list(state.path());
    let titles = |o: &std::process::Output| -> Vec<String> {
        stdout(o)
            .lines()
            .map(|l| l.split_once('\t').unwrap().1.to_string())
            .collect()
    };
    // The word and its forms, not the words it merely starts.
    let o = run(&["search", "graphs", &file], None, state.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(titles(&o), ["Graph neural networks"]);
    assert!(o.stderr.is_empty(), "{}", stderr(&o));
    // A typo: found, and said.
    let o = run(&["search", "trasnformer", &file], None, state.path());
    assert_eq!(titles(&o), ["Robot motion"]);
    assert!(
        stderr(&o).contains("searched \"transformer\" for \"trasnformer\""),
        "{}",
        stderr(&o)
    );
    // A phrase.
    let o = run(&["search", "\"neural network\"", &file], None, state.path());
    assert_eq!(titles(&o), ["Graph neural networks"]);
    let o = run(&["search", "\"network neural\"", &file], None, state.path());
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn search_counts_no_title_matched_letter_by_letter_as_a_match() {
    let state = tempfile::tempdir().unwrap();
    let file = worded_list(state.path());
    let o = run(&["search", "rbt", &file], None, state.path());
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(o.stdout.is_empty());
    assert!(
        stderr(&o).contains("no paper holds \"rbt\""),
        "{}",
        stderr(&o)
    );
    // The title scope matches titles letter by letter.
    let o = run(
        &["search", "--scope", "title", "rbt", &file],
        None,
        state.path(),
    );
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o).lines().count(), 1);
}
