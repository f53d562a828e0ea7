//! `paperboat related`, run as a user runs it: papers like a paper, like a
//! text, like the bookmarked ones.

use crate::common;

use common::run;
use paperboat::search::{Probe, related_papers};

fn stdout(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The short ids of the printed lines, in order.
fn ids(o: &std::process::Output) -> Vec<String> {
    stdout(o)
        .lines()
        .map(|l| l.split_once('\t').expect("<id>\\t<title>").0.to_string())
        .collect()
}

/// The bundled papers, and the short id of each, as the commands print
/// them.
fn bundled() -> (paperboat::corpus::Corpus, Vec<String>) {
    let corpus = paperboat::loading::bundled().corpus;
    let short = (0..corpus.len())
        .map(|i| corpus.short_id(i).to_string())
        .collect();
    (corpus, short)
}

/// The bundled paper whose title starts so.
fn paper(corpus: &paperboat::corpus::Corpus, title: &str) -> usize {
    corpus
        .papers
        .iter()
        .position(|p| p.title.starts_with(title))
        .unwrap_or_else(|| panic!("no paper titled {title}"))
}

#[test]
fn by_id_prints_the_papers_most_like_it_best_first() {
    let state = tempfile::tempdir().unwrap();
    let (corpus, short) = bundled();
    let of = paper(&corpus, "OrchJail");
    let expected: Vec<String> = related_papers(&corpus.papers, Probe::Paper(of), 10, &|_| true)
        .iter()
        .map(|r| short[r.idx].clone())
        .collect();
    assert_eq!(expected.len(), 10);
    // The short id, the whole id and a longer prefix name the same paper.
    let whole = corpus.papers[of].id.to_string();
    for id in [short[of].as_str(), whole.as_str(), &whole[..10]] {
        let o = run(&["related", id], None, state.path());
        assert_eq!(o.status.code(), Some(0), "{id}: {}", stderr(&o));
        assert_eq!(ids(&o), expected, "{id}");
        assert!(
            !ids(&o).contains(&short[of]),
            "the paper itself is left out"
        );
    }
    // Titles as `search` prints them.
    let o = run(&["related", &short[of], "--limit", "3"], None, state.path());
    let search = run(&["search", ""], None, state.path());
    for line in stdout(&o).lines() {
        assert!(stdout(&search).lines().any(|l| l == line), "{line}");
    }
    assert_eq!(ids(&o), expected[..3]);
}

#[test]
fn reads_the_files_given_and_standard_input() {
    let state = tempfile::tempdir().unwrap();
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/corpora/arxiv_atom_api_2026_astroph_63.xml"
    );
    let o = run(
        &["related", "arXiv:2604.21920", file, "--limit", "5"],
        None,
        state.path(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let from_file = ids(&o);
    assert_eq!(from_file.len(), 5);
    assert!(from_file.iter().all(|id| id.starts_with("arxiv:")));
    assert!(!from_file.contains(&"arxiv:2604.21920".to_string()));
    let text = std::fs::read(file).unwrap();
    let o = run(
        &["related", "arxiv:2604.21920", "-", "--limit", "5"],
        Some(&text),
        state.path(),
    );
    assert_eq!(ids(&o), from_file);
}

#[test]
fn text_finds_the_paper_whose_first_sentence_it_is() {
    let state = tempfile::tempdir().unwrap();
    let (corpus, short) = bundled();
    for title in ["OrchJail", "CoPro", "Graph-Link"] {
        let i = paper(&corpus, title);
        let text = corpus.papers[i].abstract_text.text();
        let end = text.find(". ").expect("a first sentence") + 1;
        let sentence = &text[..end];
        let o = run(&["related", "--text", sentence], None, state.path());
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(ids(&o).first(), Some(&short[i]), "{sentence}");
    }
    // Words no paper has: nothing, exit 1, as `search` finds nothing.
    let o = run(&["related", "--text", "zzqqxxjj"], None, state.path());
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
}

#[test]
fn bookmarked_ranks_the_unread_papers_by_likeness_to_the_bookmarked() {
    let state = tempfile::tempdir().unwrap();
    let (corpus, short) = bundled();
    // Nothing bookmarked yet: said, exit 1.
    let o = run(&["related", "--bookmarked"], None, state.path());
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("bookmark"), "{}", stderr(&o));
    assert!(o.stdout.is_empty());

    let marked = [paper(&corpus, "OrchJail"), paper(&corpus, "CausalArmor")];
    let read = paper(&corpus, "CoPro");
    let mark = |how: &str, ids: &[&str]| {
        let mut args = vec!["mark", how];
        args.extend(ids);
        let o = run(&args, None, state.path());
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    };
    mark("--bookmark", &[&short[marked[0]], &short[marked[1]]]);
    mark("--read", &[&short[read]]);
    let o = run(
        &["related", "--bookmarked", "--limit", "37"],
        None,
        state.path(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let got = ids(&o);
    let expected: Vec<String> =
        related_papers(&corpus.papers, Probe::Papers(&marked), 37, &|i| i != read)
            .iter()
            .map(|r| short[r.idx].clone())
            .collect();
    assert_eq!(got, expected);
    assert!(got.len() > 10, "{got:?}");
    for left_out in [marked[0], marked[1], read] {
        assert!(!got.contains(&short[left_out]), "{}", short[left_out]);
    }
    // A bookmarked paper read is still a bookmark to go on from.
    mark("--read", &[&short[marked[0]]]);
    let o = run(
        &["related", "--bookmarked", "--limit", "37"],
        None,
        state.path(),
    );
    assert_eq!(ids(&o), expected);
}

#[test]
fn json_lines_carry_the_paper_and_a_score_best_first() {
    let state = tempfile::tempdir().unwrap();
    let (corpus, short) = bundled();
    let of = paper(&corpus, "Graph-Link");
    let o = run(
        &["related", &short[of], "--json", "--limit", "4"],
        None,
        state.path(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let rows: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 4);
    let plain = run(&["related", &short[of], "--limit", "4"], None, state.path());
    for (r, line) in rows.iter().zip(stdout(&plain).lines()) {
        for key in [
            "id", "short_id", "title", "abstract", "source", "authors", "links",
        ] {
            assert!(r.get(key).is_some(), "{key} missing in {r}");
        }
        assert_eq!(
            format!(
                "{}\t{}",
                r["short_id"].as_str().unwrap(),
                r["title"].as_str().unwrap()
            ),
            line
        );
        assert_eq!(r["id"].as_str().unwrap().len(), 16);
    }
    let scores: Vec<f64> = rows.iter().map(|r| r["score"].as_f64().unwrap()).collect();
    assert!(scores.iter().all(|&s| s > 0.0), "{scores:?}");
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
}

#[test]
fn an_unknown_id_is_named_and_exits_2_as_show_does() {
    let state = tempfile::tempdir().unwrap();
    let related = run(&["related", "zzzzzzz"], None, state.path());
    let show = run(&["show", "zzzzzzz"], None, state.path());
    assert_eq!(related.status.code(), Some(2));
    assert_eq!(stderr(&related), stderr(&show));
    assert!(stderr(&related).contains("zzzzzzz"));
    assert!(related.stdout.is_empty());
}

#[test]
fn exactly_one_of_an_id_text_or_bookmarked() {
    let state = tempfile::tempdir().unwrap();
    let (_, short) = bundled();
    for (args, says) in [
        (
            &["related"][..],
            "give a paper id, --text TEXT or --bookmarked",
        ),
        (
            &["related", "--text", "agents", "--bookmarked"],
            "cannot be used with",
        ),
        (
            &["related", &short[0], "--text", "agents"],
            "cannot be given with --text",
        ),
        (
            &["related", "--bookmarked", &short[0]],
            "cannot be given with --bookmarked",
        ),
        (&["related", "--text", ""], "--text is empty"),
    ] {
        let o = run(args, None, state.path());
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
        assert!(o.stdout.is_empty(), "{args:?}");
    }
}
