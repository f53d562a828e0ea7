//! Field atoms and ranked words in `paperboat search`, on real exports.

use crate::common;

use common::run;

const ARXIV: &str = "tests/data/corpora/arxiv-snapshot_wanng-ide.jsonl";
const AAAI: &str = "tests/data/corpora/bib_paren_delimited_quoted_1018.bib";
const LENS: &str = "tests/data/corpora/ris_lens_bom_100.ris";

/// The ids `search` prints for `query` in `file` (exit status checked).
fn ids(query: &str, file: &str, extra: &[&str]) -> Vec<String> {
    let state = tempfile::tempdir().unwrap();
    let mut args = vec!["search"];
    args.extend(extra);
    args.extend([query, file]);
    let o = run(&args, None, state.path());
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "{query}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    out.lines()
        .map(|l| l.split('\t').next().unwrap().to_string())
        .collect()
}

/// Every paper of `file` as `search --json` prints it.
fn papers(file: &str) -> Vec<serde_json::Value> {
    let state = tempfile::tempdir().unwrap();
    let o = run(&["search", "--json", "", file], None, state.path());
    assert_eq!(o.status.code(), Some(0));
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `v` in order.
fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

/// The ids `search` shows of the papers `keep` takes, in order.
fn ids_where(
    papers: &[serde_json::Value],
    keep: impl Fn(&serde_json::Value) -> bool,
) -> Vec<String> {
    sorted(
        papers
            .iter()
            .filter(|p| keep(p))
            .map(|p| p["short_id"].as_str().unwrap().to_string())
            .collect(),
    )
}

fn authors_of(p: &serde_json::Value) -> String {
    p["authors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect::<Vec<_>>()
        .join("; ")
}

#[test]
fn author_atoms_fold_case_and_accents_and_match_word_starts() {
    // Héctor Muñoz-Avila is written with and without the accent on
    // the first name in this export.
    let munoz = ids("author:munoz", AAAI, &[]);
    assert!(munoz.len() >= 2, "{munoz:?}");
    assert_eq!(ids("author:Muñoz", AAAI, &[]), munoz);
    // Every word must start a word of a name: one paper spells him
    // "Munoz-Avia".
    let full = ids("author:MUNOZ-avila", AAAI, &[]);
    assert_eq!(full.len(), munoz.len() - 1, "{full:?}");
    let all = papers(AAAI);
    for id in &munoz {
        let p = all.iter().find(|p| p["short_id"] == id.as_str()).unwrap();
        assert!(authors_of(p).replace('ñ', "n").contains("Munoz-Avi"), "{p}");
    }
    // A word start, not a word inside.
    assert_eq!(ids("author:avila", AAAI, &[]), full);
    assert!(ids("author:unoz", AAAI, &[]).is_empty());
    // García-Sáez, Gema, from a Lens export.
    let garcia = ids("author:saez", LENS, &[]);
    assert_eq!(garcia, ["doi:10.3389/fendo.2021.636959"]);
}

#[test]
fn negated_fields_years_ids_and_venues_combine() {
    let aaai = papers(AAAI);
    let years = |lo: i64, hi: i64| {
        ids_where(&aaai, |p| {
            p["year"].as_i64().is_some_and(|y| (lo..=hi).contains(&y))
        })
    };
    for (q, lo, hi) in [
        ("year:1995", 1995, 1995),
        ("year:1995..1999", 1995, 1999),
        ("year:2001..", 2001, 9999),
        ("year:..1990", 0, 1990),
    ] {
        let want = years(lo, hi);
        assert!(!want.is_empty() && want.len() < aaai.len(), "{q}");
        assert_eq!(sorted(ids(q, AAAI, &[])), want, "{q}");
    }
    let all = papers(ARXIV);
    assert_eq!(
        ids("id:0704.000", ARXIV, &[]),
        (1..=9)
            .map(|k| format!("arxiv:0704.000{k}"))
            .collect::<Vec<_>>()
    );
    assert_eq!(ids("id:arxiv:0704.0001", ARXIV, &[]), ["arxiv:0704.0001"]);
    let phys = ids("venue:phys", ARXIV, &[]);
    assert!(!phys.is_empty());
    for id in &phys {
        let p = all.iter().find(|p| p["id"] == id.as_str()).unwrap();
        assert!(
            p["venue"].as_str().unwrap().to_lowercase().contains("phys"),
            "{p}"
        );
    }
    let not_phys = ids("!venue:phys", ARXIV, &[]);
    assert_eq!(phys.len() + not_phys.len(), all.len());
    // Balázs wrote 0704.0001; without him, the rest of 0704.000x.
    assert_eq!(ids("author:balazs", ARXIV, &[]), ["arxiv:0704.0001"]);
    assert_eq!(ids("id:0704.000 !author:balazs", ARXIV, &[]).len(), 8);
    // `|` between atoms: either.
    let either = ids("author:balazs | id:0704.0002", ARXIV, &[]);
    assert_eq!(either, ["arxiv:0704.0001", "arxiv:0704.0002"]);
}

#[test]
fn title_and_abstract_atoms_look_only_there() {
    // "diphoton" is in the title of 0704.0001 alone.
    assert_eq!(ids("title:'diphoton", ARXIV, &[]), ["arxiv:0704.0001"]);
    // Fuzzy as other title words are: it ranks first.
    let fuzzy = ids("title:diphoton", ARXIV, &[]);
    assert_eq!(fuzzy[0], "arxiv:0704.0001");
    let in_abs = ids("abs:diphoton", ARXIV, &[]);
    assert!(
        in_abs.contains(&"arxiv:0704.0001".to_string()),
        "{in_abs:?}"
    );
    let all = papers(ARXIV);
    for id in &in_abs {
        let p = all.iter().find(|p| p["id"] == id.as_str()).unwrap();
        assert!(
            p["abstract"]
                .as_str()
                .unwrap()
                .to_lowercase()
                .contains("diphoton"),
            "{id}"
        );
    }
}

#[test]
fn category_and_keyword_atoms_select_what_the_files_give() {
    let all = papers(ARXIV);
    let with = |pick: &dyn Fn(&str) -> bool| {
        ids_where(&all, |p| {
            p["categories"]
                .as_array()
                .is_some_and(|c| c.iter().any(|c| pick(c.as_str().unwrap())))
        })
    };
    // A category whole, cross-lists too; an archive by its prefix; a
    // category alone with `'`; the rest with `!`.
    let co = with(&|c| c == "math.CO");
    assert!(co.len() >= 3, "{co:?}");
    assert_eq!(sorted(ids("cat:math.CO", ARXIV, &[])), co);
    assert_eq!(sorted(ids("category:MATH.co", ARXIV, &[])), co);
    let math = with(&|c| c.starts_with("math"));
    assert!(math.len() > co.len());
    assert_eq!(sorted(ids("cat:math", ARXIV, &[])), math);
    assert!(ids("cat:'math", ARXIV, &[]).is_empty());
    assert_eq!(sorted(ids("cat:'math.CO", ARXIV, &[])), co);
    assert_eq!(ids("!cat:math", ARXIV, &[]).len(), all.len() - math.len());
    // Keywords, by their words' starts; not the abstract's words.
    let lens = papers(LENS);
    let holding = |word: &str| {
        ids_where(&lens, |p| {
            p["keywords"].as_array().is_some_and(|k| {
                k.iter().any(|k| {
                    let k = k.as_str().unwrap().to_lowercase();
                    k.split(|c: char| !c.is_alphanumeric())
                        .any(|w| w.starts_with(word))
                })
            })
        })
    };
    let quality = holding("qualit");
    assert!(!quality.is_empty());
    assert_eq!(sorted(ids("kw:qualit", LENS, &[])), quality);
    assert_eq!(sorted(ids("keywords:QUALIT", LENS, &[])), quality);
    let abs_only: Vec<String> = ids("abs:quality", LENS, &[])
        .into_iter()
        .filter(|id| !quality.contains(id))
        .collect();
    assert!(
        !abs_only.is_empty(),
        "a paper with the word in its abstract alone"
    );
}

#[test]
fn an_unknown_field_is_named_and_exits_2() {
    let state = tempfile::tempdir().unwrap();
    let o = run(&["search", "colour:red", ARXIV], None, state.path());
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("\"colour:\""), "{err}");
    assert!(o.stdout.is_empty());
    let o = run(&["search", "year:nineteen", ARXIV], None, state.path());
    assert_eq!(o.status.code(), Some(2));
    // A colon in a quoted word is a word.
    let o = run(&["search", "'e:x", ARXIV], None, state.path());
    assert_ne!(o.status.code(), Some(2));
}

#[test]
fn topic_words_rank_the_paper_that_has_them_first() {
    // Word hits in title and abstract rank above scattered letters.
    let first = |q: &str| ids(q, ARXIV, &["--scope", "all"]).first().cloned();
    assert_eq!(
        first("prompt diphoton cross").as_deref(),
        Some("arxiv:0704.0001")
    );
    // A word of an author's name is a word of the paper.
    assert_eq!(first("balazs diphoton").as_deref(), Some("arxiv:0704.0001"));
}

#[test]
fn tag_and_note_atoms_read_the_reading_list() {
    let state = tempfile::tempdir().unwrap();
    let ok = |args: &[&str]| {
        let o = run(args, None, state.path());
        assert_eq!(
            o.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    ok(&[
        "tag",
        "--add",
        "To Read",
        "arxiv:0704.0001",
        "arxiv:0704.0002",
        ARXIV,
    ]);
    ok(&["tag", "--add", "reading-group", "arxiv:0704.0003", ARXIV]);
    ok(&[
        "note",
        "arxiv:0704.0002",
        "--set",
        "Compare with Schütze's appendix.",
        ARXIV,
    ]);
    let search = |q: &str| -> Vec<String> {
        ok(&["search", q, ARXIV])
            .lines()
            .map(|l| l.split('\t').next().unwrap().to_string())
            .collect()
    };
    let mut read = search("tag:read");
    read.sort();
    assert_eq!(
        read,
        ["arxiv:0704.0001", "arxiv:0704.0002", "arxiv:0704.0003"]
    );
    assert_eq!(search("tag:group"), ["arxiv:0704.0003"]);
    assert_eq!(search("note:schutze"), ["arxiv:0704.0002"]);
    assert_eq!(search("tag:to !note:append"), ["arxiv:0704.0001"]);
    assert_eq!(search("!tag:read").len(), 197);
    // With words, in the title scope too.
    assert_eq!(
        ok(&["search", "--scope", "title", "tag:to diphoton", ARXIV])
            .lines()
            .count(),
        1
    );
}
