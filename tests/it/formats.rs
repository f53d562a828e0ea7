//! Reading exports through the real binary: detection, forcing a format,
//! several files, directories, stdin, bad files, `check`.

use crate::common;

use std::path::{Path, PathBuf};

use common::{Pty, run};

fn corpora() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpora");
    assert!(dir.is_dir(), "{} is missing", dir.display());
    dir
}

fn out(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn check_reports_per_file_and_fails_on_unreadable_ones() {
    let state = tempfile::tempdir().unwrap();
    let c = corpora();
    let o = run(
        &[
            "check",
            path(&c.join("bib_xampl_patashnik.bib")),
            path(&c.join("ris_rayyan_issue992.txt")),
        ],
        None,
        state.path(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let text = out(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].ends_with("bib_xampl_patashnik.bib: 34 papers, 34 without abstract, 2 skipped (line 228: no title and no abstract; line 360: no title and no abstract)"),
        "{text}"
    );
    assert!(
        lines[1].ends_with("ris_rayyan_issue992.txt: 19 papers, 11 without abstract"),
        "{text}"
    );
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("figure.png");
    std::fs::write(&png, b"\x89PNG\r\n\x1a\n....").unwrap();
    let o = run(&["check", path(&png)], None, state.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(
        out(&o).contains("figure.png: not a corpus: a PNG image"),
        "{}",
        out(&o)
    );
}

#[test]
fn a_bad_file_among_good_ones_is_named_and_the_rest_load() {
    let state = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.bib");
    std::fs::write(&empty, "").unwrap();
    let good = corpora().join("biblatex_zotero_bbt_arxiv_12.bib");
    let o = run(
        &["search", "", path(&empty), path(&good)],
        None,
        state.path(),
    );
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(out(&o).lines().count(), 11);
    assert!(err(&o).contains("empty.bib: empty file"), "{}", err(&o));
    let o = run(&["search", "", path(&empty)], None, state.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("no papers found: ") && err(&o).contains("empty.bib: empty file"),
        "{}",
        err(&o)
    );
}

#[test]
fn stdin_is_detected_from_its_content_and_formats_can_be_forced() {
    let state = tempfile::tempdir().unwrap();
    let ris = std::fs::read(corpora().join("ris_scopus_6.ris")).unwrap();
    let o = run(&["search", "", "-"], Some(&ris), state.path());
    assert_eq!(out(&o).lines().count(), 6, "{}", err(&o));
    // A file of titles has no blank lines: one paper per line.
    let titles = b"Sparse attention for long contexts\nDense retrieval at scale\nReinforcement learning from verifiable rewards\n";
    let o = run(&["search", "", "-"], Some(titles), state.path());
    assert_eq!(out(&o).lines().count(), 3);
    // Forced: the same bytes as one paragraph.
    let o = run(
        &["search", "--format", "text", "", "-"],
        Some(titles),
        state.path(),
    );
    assert_eq!(out(&o).lines().count(), 1);
    let o = run(
        &["search", "--format", "nonsense", "", "-"],
        Some(titles),
        state.path(),
    );
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn json_output_carries_authors_year_and_venue() {
    let state = tempfile::tempdir().unwrap();
    let o = run(
        &[
            "search",
            "--json",
            "--limit",
            "1",
            "",
            path(&corpora().join("arxiv_atom_api_2026_astroph_63.xml")),
        ],
        None,
        state.path(),
    );
    let v: serde_json::Value = serde_json::from_str(out(&o).lines().next().unwrap()).unwrap();
    assert!(v["id"].as_str().unwrap().starts_with("arxiv:"), "{v}");
    assert!(!v["authors"].as_array().unwrap().is_empty());
    assert_eq!(v["year"], 2026);
    let o = run(
        &[
            "list",
            "--json",
            path(&corpora().join("bib_jabref5.1_groups_23.bib")),
        ],
        None,
        state.path(),
    );
    let first: serde_json::Value = serde_json::from_str(out(&o).lines().next().unwrap()).unwrap();
    assert!(first.get("authors").is_some() && first.get("bookmarked").is_some());
}

#[test]
fn the_max_size_option() {
    let state = tempfile::tempdir().unwrap();
    let f = corpora().join("ris_scopus_6.ris");
    let o = run(
        &["search", "--max-size", "10K", "", path(&f)],
        None,
        state.path(),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("over the size limit (10.0 KiB; --max-size)"),
        "{}",
        err(&o)
    );
    let o = run(
        &["search", "--max-size", "1M", "", path(&f)],
        None,
        state.path(),
    );
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn the_reader_shows_what_loaded_and_the_papers_metadata() {
    let state = tempfile::tempdir().unwrap();
    let f = corpora().join("arxiv_atom_api_2026_astroph_63.xml");
    let mut pty = Pty::spawn(&[path(&f)], 160, 40, state.path(), &[]);
    pty.wait_text("63/63");
    pty.wait_text("arxiv_atom_api_2026_astroph_63.xml: 63 papers");
    pty.wait_for("authors, year and venue in the abstract pane", |s| {
        s.contents().contains(" · 2026")
    });
    pty.send("q");
    assert!(pty.wait_exit().success());
}
