//! Hostile and unusual records: a broken record costs that record alone,
//! different records stay different papers even when their title and
//! abstract agree, and crawler CSV rows split by unquoted commas are put
//! back together where their typed columns allow one way only.

use std::path::Path;

use paperboat::loading::{Input, Loaded, Options, Report, load};

/// Loads `text` as a file named `name`.
fn load_as(name: &str, text: &str) -> (Loaded, Report) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    let loaded = load(&[Input::Path(path)], &Options::default()).unwrap();
    let report = loaded.reports[0].clone();
    (loaded, report)
}

fn ids(loaded: &Loaded) -> Vec<String> {
    loaded
        .corpus
        .papers
        .iter()
        .map(|p| p.id.as_str().to_string())
        .collect()
}

fn titles(loaded: &Loaded) -> Vec<String> {
    loaded
        .corpus
        .papers
        .iter()
        .map(|p| p.title.clone())
        .collect()
}

// ---------------------------------------------------------------------------
// Distinct records stay distinct.

const TWO_VOLUMES: &str = "@book{hist1, author = {Gibbon, Edward}, title = {The History of the Decline and Fall of the Roman Empire}, year = {1776}, volume = {1}}

@book{hist2, author = {Gibbon, Edward}, title = {The History of the Decline and Fall of the Roman Empire}, year = {1776}, volume = {2}}
";

#[test]
fn the_volumes_of_a_work_are_different_papers() {
    let (loaded, report) = load_as("volumes.bib", TWO_VOLUMES);
    assert_eq!(loaded.corpus.len(), 2, "{report}");
    assert_eq!(report.repeated, 0);
    let ids = ids(&loaded);
    assert_ne!(ids[0], ids[1]);
    // The first keeps the id a paper with this title had before: marks
    // saved under it stay on it.
    let (alone, _) = load_as("one.bib", TWO_VOLUMES.split("\n\n").next().unwrap());
    assert_eq!(alone.corpus.papers[0].id.as_str(), ids[0]);
    // Both are hash ids, shown short.
    assert!(loaded.corpus.papers.iter().all(|p| p.id.is_hash()));
}

#[test]
fn the_same_entry_repeated_is_one_paper_with_a_notice() {
    let one = TWO_VOLUMES.split("\n\n").next().unwrap();
    let (loaded, report) = load_as("twice.bib", &format!("{one}\n\n{one}\n"));
    assert_eq!(loaded.corpus.len(), 1);
    assert_eq!(report.repeated, 1);
    assert!(
        report.to_string().ends_with(", 1 listed already"),
        "{report}"
    );
}

#[test]
fn same_authors_and_year_but_another_volume_is_another_paper() {
    // No keys at all (JSON objects without `id`): the volume tells them
    // apart; the same volume again is a repeat.
    let text = r#"[
  {"title": "Collected Papers", "author": [{"family": "Noether", "given": "Emmy"}], "issued": {"date-parts": [[1983]]}, "volume": "1"},
  {"title": "Collected Papers", "author": [{"family": "Noether", "given": "Emmy"}], "issued": {"date-parts": [[1983]]}, "volume": "2"},
  {"title": "Collected Papers", "author": [{"family": "Noether", "given": "Emmy"}], "issued": {"date-parts": [[1983]]}, "volume": "1"}
]"#;
    let (loaded, report) = load_as("noether.json", text);
    assert_eq!(loaded.corpus.len(), 2, "{report}");
    assert_eq!(report.repeated, 1);
}

#[test]
fn csl_json_items_with_distinct_ids_are_distinct_papers() {
    // A Zotero export: a reprint under its own item id, with the same
    // title and abstract (and even the same authors and year).
    let item = |id: &str| {
        format!(
            r#"{{"id": "{id}", "type": "book", "title": "On Growth and Form", "abstract": "Why living things have the shapes they have.", "author": [{{"family": "Thompson", "given": "D'Arcy"}}], "issued": {{"date-parts": [[1917]]}}}}"#
        )
    };
    let text = format!(
        "[{}, {}, {}, {}]",
        item("http://zotero.org/users/1/items/AAAA1111"),
        item("http://zotero.org/users/1/items/BBBB2222"),
        item("http://zotero.org/users/1/items/CCCC3333"),
        item("http://zotero.org/users/1/items/AAAA1111"),
    );
    let (loaded, report) = load_as("zotero.json", &text);
    assert_eq!(loaded.corpus.len(), 3, "{report}");
    assert_eq!(report.repeated, 1);
    let ids = ids(&loaded);
    assert!(ids[0] != ids[1] && ids[1] != ids[2] && ids[0] != ids[2]);
    // Different titles are not touched: the first keeps its plain id.
    let (alone, _) = load_as(
        "one.json",
        &format!("[{}]", item("http://zotero.org/users/1/items/AAAA1111")),
    );
    assert_eq!(alone.corpus.papers[0].id.as_str(), ids[0]);
}

#[test]
fn ris_records_with_distinct_ids_are_distinct_papers() {
    let rec = |id: &str| {
        format!(
            "TY  - JOUR\nID  - {id}\nTI  - Letter to the editor\nAU  - Smith, J.\nPY  - 2001\nER  - \n\n"
        )
    };
    let text = format!("{}{}{}", rec("17"), rec("18"), rec("17"));
    let (loaded, report) = load_as("letters.ris", &text);
    assert_eq!(loaded.corpus.len(), 2, "{report}");
    assert_eq!(report.repeated, 1);
}

#[test]
fn records_with_an_arxiv_id_or_doi_are_one_paper_whatever_their_keys() {
    let text = "@article{a1, title = {T}, author = {Lee, A.}, eprint = {2106.09685}, archivePrefix = {arXiv}}
@article{a2, title = {T}, author = {Lee, Ann}, year = {2022}, eprint = {2106.09685}, archivePrefix = {arXiv}}
@article{d1, title = {U}, doi = {10.1000/xyz}}
@article{d2, title = {U}, doi = {10.1000/XYZ}, volume = {3}}
";
    let (loaded, report) = load_as("ids.bib", text);
    assert_eq!(ids(&loaded), ["arxiv:2106.09685", "doi:10.1000/xyz"]);
    assert_eq!(report.repeated, 2);
}

#[test]
fn a_paper_in_two_files_is_one_paper_with_both_lists_whatever_its_keys() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.bib");
    let b = dir.path().join("b.bib");
    std::fs::write(
        &a,
        "@article{smith2001, title = {A study}, author = {Smith, John}, year = {2001}}\n",
    )
    .unwrap();
    std::fs::write(
        &b,
        "@article{Smith01a, title = {A study}, author = {John Smith}, year = {2001}}\n",
    )
    .unwrap();
    let loaded = load(&[Input::Path(a), Input::Path(b)], &Options::default()).unwrap();
    assert_eq!(loaded.corpus.len(), 1);
    assert_eq!(loaded.corpus.papers[0].also_in.len(), 1);
    assert_eq!(loaded.reports[1].repeated, 1);
}

#[test]
fn the_examples_of_biblatex_keep_their_reprints_and_translations() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpora/biblatex_examples_plk.bib");
    let loaded = load(&[Input::Path(path)], &Options::default()).unwrap();
    assert_eq!(loaded.corpus.len(), 89);
    assert_eq!(loaded.reports[0].repeated, 1);
    let titles = titles(&loaded);
    let count = |t: &str| titles.iter().filter(|x| *x == t).count();
    assert_eq!(count("Information Theory and Statistics"), 3);
    assert_eq!(count("The Rites of Passage"), 2);
}

// ---------------------------------------------------------------------------
// The smallest possible loss.

#[test]
fn a_lone_surrogate_in_a_json_array_costs_nothing_but_itself() {
    let text = "[\n  {\"title\": \"First\", \"abstract\": \"Before \\ud800 after.\"},\n  {\"title\": \"Second\"},\n  {\"title\": \"Third\"}\n]\n";
    let (loaded, report) = load_as("items.json", text);
    assert_eq!(titles(&loaded), ["First", "Second", "Third"], "{report}");
    assert!(report.clean(), "{report}");
    let abs = loaded.corpus.papers[0].abstract_text.text();
    assert_eq!(abs, "Before \u{fffd} after.");
}

#[test]
fn a_lone_surrogate_in_json_lines_costs_nothing_but_itself() {
    let text = "{\"title\": \"First\", \"abstract\": \"Before \\ud800 after.\"}\n{\"title\": \"Second\", \"abstract\": \"Plain.\"}\n";
    let (loaded, report) = load_as("items.jsonl", text);
    assert_eq!(titles(&loaded), ["First", "Second"], "{report}");
    assert!(report.clean(), "{report}");
    assert_eq!(
        loaded.corpus.papers[0].abstract_text.text(),
        "Before \u{fffd} after."
    );
}

#[test]
fn invalid_utf8_costs_the_bytes_alone() {
    let mut bytes = b"{\"title\": \"Caf".to_vec();
    bytes.push(0xff);
    bytes.extend_from_slice(b"\"}\n{\"title\": \"Next\"}\n");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bytes.jsonl");
    std::fs::write(&path, bytes).unwrap();
    let loaded = load(&[Input::Path(path)], &Options::default()).unwrap();
    assert_eq!(titles(&loaded), ["Caf\u{fffd}", "Next"]);
    assert_eq!(loaded.reports[0].invalid_utf8, 1);
}

// ---------------------------------------------------------------------------
// Crawler CSV.

#[test]
fn crawler_csv_rows_split_by_commas_are_put_back_together() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/crawler_openreview_neurips_30.csv");
    let loaded = load(&[Input::Path(path)], &Options::default()).unwrap();
    let report = &loaded.reports[0];
    assert_eq!(loaded.corpus.len(), 27, "{report}");
    assert_eq!(report.repaired, 12);
    assert_eq!(
        report.skipped,
        [
            (
                13,
                "6 fields, header has 5: more than one way to join them back".to_string()
            ),
            (19, "6 fields, header has 5".to_string()),
            (25, "6 fields, header has 5".to_string()),
        ]
    );
    assert!(
        report
            .to_string()
            .contains(": 27 papers, 12 rows repaired, 3 skipped (line 13: "),
        "{report}"
    );
    let paper = |title: &str| {
        loaded
            .corpus
            .papers
            .iter()
            .find(|p| p.title == title)
            .unwrap_or_else(|| panic!("no paper {title:?}"))
    };
    // Commas in the title and in the abstract.
    let p = paper("Memory, Attention, and Recurrence in State Space Models");
    assert_eq!(p.authors, ["Julia Kowalski", "Ben Adeyemi"]);
    assert_eq!(
        p.abstract_text.text(),
        "State space models, unlike attention, compress the past into a fixed state; we measure what they forget."
    );
    assert_eq!(p.links(), ["https://openreview.net/forum?id=Ma8Rs4Ny2N"]);
    // Inner quotes left as they were written.
    let p = paper("The \"Lottery Ticket\" Hypothesis at Scale");
    assert!(
        p.abstract_text
            .text()
            .contains("the \"critical\" early phase")
    );
    // The papers keep the rows' order.
    let positions: Vec<u32> = loaded.corpus.papers.iter().map(|p| p.position).collect();
    assert_eq!(positions, (0..27).collect::<Vec<_>>());
    assert_eq!(
        loaded.corpus.papers[1].title,
        "Graphs, Trees, and Forests: A Unified View of Message Passing"
    );
}

/// Loads `text` as `name`; the titles loaded and the lines skipped.
fn outcome(name: &str, text: &str) -> (Vec<String>, Vec<usize>, String) {
    let (loaded, report) = load_as(name, text);
    let lines = report.skipped.iter().map(|(line, _)| *line).collect();
    (titles(&loaded), lines, report.to_string())
}

#[test]
fn a_broken_record_costs_that_record_in_every_format() {
    let cases: &[(&str, &str, &[&str], &[usize])] = &[
        (
            "broken.bib",
            "@article{a, title={First}}\n\n@article{b title={x}}\n\n@article{c, title={Third}}\n",
            &["First", "Third"],
            &[3],
        ),
        (
            "broken.ris",
            "TY  - JOUR\nTI  - First\nER  - \n\nTI  - stray\nER  - \n\nTY  - JOUR\nTI  - Third\nER  - \n",
            &["First", "Third"],
            &[5],
        ),
        (
            "broken.csv",
            "title,abstract\nFirst,a\nSecond,\"never closed\nThird,c\nFourth,d,extra\nFifth,e\n",
            &["First", "Third", "Fifth"],
            &[3, 5],
        ),
        (
            "broken.tsv",
            "title\tabstract\nFirst\ta\nSecond\n\nThird\tc\n",
            &["First", "Third"],
            &[3],
        ),
        (
            "broken.xml",
            "<feed xmlns=\"http://www.w3.org/2005/Atom\">\n<entry><title>First</title></entry>\n<entry><title>Second</b></entry>\n<entry><title>Third</title></entry>\n</feed>\n",
            &["First", "Third"],
            &[3],
        ),
        (
            "broken.json",
            "[\n  {\"title\": \"First\"},\n  {\"title\": \"Second\", \"year\": 20x1},\n  {\"title\": \"Third\"}\n]\n",
            &["First", "Third"],
            &[3],
        ),
        (
            "broken.jsonl",
            "{\"title\": \"First\"}\n{\"title\": \"Second\",\n{\"title\": \"Third\"}\n",
            &["First", "Third"],
            &[2],
        ),
    ];
    for (name, text, want, lines) in cases {
        let (got, skipped, report) = outcome(name, text);
        assert_eq!(got, *want, "{name}: {report}");
        assert_eq!(skipped, *lines, "{name}: {report}");
        for line in *lines {
            assert!(report.contains(&format!("line {line}: ")), "{report}");
        }
    }
}

#[test]
fn search_keeps_distinct_records_distinct_as_list_does() {
    // JSON Lines is read for `search` keeping titles alone.
    let line = |id: &str, volume: &str| {
        format!(
            "{{\"id\": \"{id}\", \"title\": \"Collected Works\", \"author\": [{{\"family\": \"Euler\", \"given\": \"Leonhard\"}}], \"volume\": \"{volume}\"}}\n"
        )
    };
    let text = format!(
        "{}{}{}{}",
        line("euler1", "1"),
        line("euler2", "2"),
        line("euler1", "1"),
        line("euler3", "2")
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("works.jsonl");
    std::fs::write(&path, &text).unwrap();
    let inputs = [Input::Path(path)];
    let loaded = load(&inputs, &Options::default()).unwrap();
    let (list, reports) = paperboat::loading::load_titles(&inputs, &Options::default()).unwrap();
    assert_eq!(loaded.corpus.len(), 3);
    assert_eq!(list.len(), 3);
    assert_eq!(reports[0].repeated, 1);
    for i in 0..3 {
        assert_eq!(list.short_id(i).as_str(), loaded.corpus.short_id(i));
    }
}
