//! `paperboat recommend` and `paperboat topics`, run as a user runs them,
//! on the arXiv sample of the test data (its categories read from the
//! file to tell what a reader who likes astrophysics wants).

use crate::common;

use std::collections::HashMap;
use std::path::PathBuf;

use common::run;

fn stdout(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn arxiv() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/corpora/arxiv-snapshot_wanng-ide.jsonl")
        .display()
        .to_string()
}

/// Each paper's id (as the commands print it in JSON) and its archives.
fn archives() -> Vec<(String, Vec<String>)> {
    std::fs::read_to_string(arxiv())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .map(|v| {
            let cats = v["categories"].as_str().unwrap();
            (
                format!("arxiv:{}", v["id"].as_str().unwrap()),
                cats.split(' ')
                    .map(|c| c.split('.').next().unwrap().to_string())
                    .collect(),
            )
        })
        .collect()
}

fn mark(state: &std::path::Path, flag: &str, ids: &[&str]) {
    let file = arxiv();
    let mut args = vec!["mark", flag];
    args.extend(ids);
    args.push(&file);
    let o = run(&args, None, state);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn too_few_bookmarks_say_what_to_do_and_exit_1() {
    let state = tempfile::tempdir().unwrap();
    let file = arxiv();
    let o = run(&["recommend", &file], None, state.path());
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).is_empty());
    assert!(stderr(&o).contains("bookmark"), "{}", stderr(&o));
    let o = run(&["recommend", "--tag", "stars", &file], None, state.path());
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("tag a few more papers stars"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn bookmarks_of_one_archive_bring_its_unread_papers_first_each_with_why() {
    let state = tempfile::tempdir().unwrap();
    let file = arxiv();
    let papers = archives();
    let astro: Vec<&str> = papers
        .iter()
        .filter(|(_, a)| a.iter().any(|a| a == "astro-ph"))
        .map(|(id, _)| id.as_str())
        .collect();
    let others: Vec<&str> = papers
        .iter()
        .filter(|(_, a)| !a.iter().any(|a| a == "astro-ph"))
        .map(|(id, _)| id.as_str())
        .collect();
    mark(state.path(), "--bookmark", &astro[..5]);
    mark(state.path(), "--read", &others[..5]);
    let o = run(
        &["recommend", "--json", "--limit", "10", &file],
        None,
        state.path(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 10);
    let of: HashMap<&str, &Vec<String>> = papers.iter().map(|(i, a)| (i.as_str(), a)).collect();
    let mut hits = 0;
    for l in &lines {
        let id = l["id"].as_str().unwrap();
        assert!(
            !astro[..5].contains(&id) && !others[..5].contains(&id),
            "{id} is marked"
        );
        let why = l["why"].as_array().unwrap();
        assert!(!why.is_empty() && why.len() <= 3, "{l}");
        hits += usize::from(of[id].iter().any(|a| a == "astro-ph"));
    }
    // One paper in ten of the list is of astro-ph.
    assert!(hits >= 6, "{hits} of 10");
    // The plain lines: id, title, why.
    let o = run(&["recommend", "--limit", "3", &file], None, state.path());
    let plain = stdout(&o);
    assert_eq!(plain.lines().count(), 3);
    assert!(plain.lines().all(|l| l.split('\t').count() == 3), "{plain}");
    // `--sort for-you` orders a search the same way.
    let o = run(
        &["search", "--sort", "for-you", "--json", "", &file],
        None,
        state.path(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let first: Vec<String> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["id"].to_string())
        .filter(|id| !astro[..5].iter().any(|a| id.contains(a)))
        .filter(|id| !others[..5].iter().any(|a| id.contains(a)))
        .take(10)
        .collect();
    let want: Vec<String> = lines.iter().map(|l| l["id"].to_string()).collect();
    assert_eq!(first, want);
}

#[test]
fn a_reset_forgets_the_model_and_keeps_the_marks() {
    let state = tempfile::tempdir().unwrap();
    let file = arxiv();
    let papers = archives();
    let ids: Vec<&str> = papers.iter().take(4).map(|(id, _)| id.as_str()).collect();
    mark(state.path(), "--bookmark", &ids);
    let o = run(&["recommend", &file], None, state.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run(&["recommend", "--reset"], None, state.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("forgotten"), "{}", stderr(&o));
    let o = run(&["recommend", &file], None, state.path());
    assert_eq!(o.status.code(), Some(1), "nothing marked since the reset");
    assert!(stderr(&o).contains("0 bookmarked"), "{}", stderr(&o));
    let o = run(&["list", "--bookmarked", &file], None, state.path());
    assert_eq!(stdout(&o).lines().count(), 4, "the marks stay");
    // A resets file that cannot be read is named, and nothing is printed.
    std::fs::write(state.path().join("models.json"), "{ not json").unwrap();
    let o = run(&["recommend", &file], None, state.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).is_empty());
    assert!(stderr(&o).contains("models.json"), "{}", stderr(&o));
}

#[test]
fn topics_group_the_list_and_topic_n_selects_one() {
    let state = tempfile::tempdir().unwrap();
    let file = arxiv();
    let o = run(&["topics", "--json", "--k", "6", &file], None, state.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let topics: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(topics.len(), 6);
    let sizes: Vec<usize> = topics
        .iter()
        .map(|t| t["ids"].as_array().unwrap().len())
        .collect();
    assert_eq!(sizes.iter().sum::<usize>(), 200, "every paper in one topic");
    assert!(
        sizes.windows(2).all(|w| w[0] >= w[1]),
        "largest first: {sizes:?}"
    );
    for (n, t) in topics.iter().enumerate() {
        assert_eq!(t["topic"], n + 1);
        assert!(!t["label"].as_str().unwrap().is_empty());
        assert!(!t["words"].as_array().unwrap().is_empty());
    }
    // The plain lines: number, papers, label.
    let o = run(&["topics", "--k", "6", &file], None, state.path());
    let first = stdout(&o).lines().next().unwrap().to_string();
    assert_eq!(
        first,
        format!("1\t{}\t{}", sizes[0], topics[0]["label"].as_str().unwrap())
    );
    // Without --k, `topic:2` selects topic 2 of the default grouping.
    let o = run(&["topics", "--json", &file], None, state.path());
    let second: serde_json::Value =
        serde_json::from_str(stdout(&o).lines().nth(1).unwrap()).unwrap();
    let mut want: Vec<String> = second["ids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    let o = run(&["search", "--json", "topic:2", &file], None, state.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let mut got: Vec<String> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .map(|v| v["id"].as_str().unwrap().to_string())
        .collect();
    want.sort();
    got.sort();
    assert_eq!(got, want);
    let o = run(&["search", "topic:x", &file], None, state.path());
    assert_ne!(o.status.code(), Some(0));
    assert!(stderr(&o).contains("topic:x"), "{}", stderr(&o));
}
