//! Every real export in `tests/data/corpora` (see tests/data/PROVENANCE.md) loads
//! through the same path as the reader, with the number of papers and of
//! abstracts counted independently of paperboat:
//!
//! - BibTeX: bibtexparser 2.1 in Python, entries keyed by paperboat's id
//!   rule (arXiv id, else DOI, else title and abstract, told apart by the
//!   entry's key, authors, year and volume) to count the papers that stay
//!   after merging duplicates. Where bibtexparser drops or truncates
//!   entries the difference was checked by hand (below).
//! - RIS, JSON Lines, Atom, OAI-PMH, TSV: Python's regexes, `json`,
//!   `xml.etree` and `csv` over the raw files; no file holds a DOI or id
//!   twice.
//! - The TDWG text file: `grep -c '^Abstract$'` (one per paper).
//!
//! A file added to the folder without a count here fails the test.

use std::path::PathBuf;

use paperboat::loading::{Input, Options, load};

/// (file, papers, papers with an abstract).
const EXPECTED: &[(&str, usize, usize)] = &[
    ("arxiv-snapshot_wanng-ide.jsonl", 200, 200),
    ("arxiv_atom_api_2026_astroph_63.xml", 63, 63),
    ("bib_jabref2.10_physics_916.bib", 901, 476),
    ("bib_jabref5.1_groups_23.bib", 20, 19),
    // 512 entries, 5 repeat a DOI or the same title and abstract.
    ("bib_mendeley_export_512.bib", 507, 310),
    // bibtexparser rejects one entry for its repeated `keywords` fields
    // (line 10300, which has an abstract); counted with it. 17 entries
    // share a title (and no abstract) with another under a different key:
    // different papers, 987 (970 when a title alone made the paper).
    ("bib_paren_delimited_quoted_1018.bib", 987, 14),
    // Patashnik's examples give one paper in many entry types, each under
    // its own key: 34 entries with a title, each a paper (15 when title
    // and abstract alone made the paper).
    ("bib_xampl_patashnik.bib", 34, 0),
    // bibtexparser drops 23 entries whose `{{\&}` leaves a brace open;
    // paperboat recovers them, and 25 entries repeat another's DOI: 3700.
    // (3671 when entries under different keys with the same title and
    // abstract were one paper.) Abstracts likewise.
    ("bib_zotero_bbt_papers3_3725.bib", 3700, 1297),
    // Reprints, translations and related entries (`kullback:reprint`,
    // `vangennep:trans`, `moore:related`) share a title with the work
    // under another key: different papers (83 when they were one).
    ("biblatex_examples_plk.bib", 89, 6),
    ("biblatex_zotero_bbt_55.bib", 55, 21),
    ("biblatex_zotero_bbt_arxiv_12.bib", 12, 11),
    ("jsonl_asreview_title_abstract_100.jsonl", 100, 99),
    ("oaipmh_arxiv_listrecords_hepex_3.xml", 3, 3),
    ("ris_embase_6.ris", 6, 6),
    ("ris_lens_bom_100.ris", 100, 98),
    ("ris_ovid_psycinfo_6.ris", 6, 6),
    ("ris_proquest_6.ris", 6, 6),
    ("ris_pubmed_endnote_6.txt", 6, 6),
    ("ris_pubmed_zotero_6.ris", 6, 6),
    ("ris_rayyan_issue992.txt", 19, 8),
    ("ris_scopus_6.ris", 6, 6),
    ("ris_web_of_science_10.txt", 10, 10),
    ("ris_zotero_100.ris", 100, 98),
    ("tsv_csl_chinese_abstracts_dev.tsv", 1000, 1000),
    ("txt_tdwg2018_abstracts_paragraphs.txt", 141, 141),
];

fn corpora() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpora");
    assert!(
        dir.is_dir(),
        "{} is missing: the real corpora belong in tests/data/corpora",
        dir.display()
    );
    dir
}

#[test]
fn every_shared_corpus_loads_with_the_counted_papers_and_abstracts() {
    let dir = corpora();
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n != "PROVENANCE.md")
        .collect();
    files.sort();
    let mut failures = Vec::new();
    for name in &files {
        let Some(&(_, papers, abstracts)) = EXPECTED.iter().find(|(f, ..)| f == name) else {
            failures.push(format!("{name}: no expected counts in this test"));
            continue;
        };
        let loaded = match load(&[Input::Path(dir.join(name))], &Options::default()) {
            Ok(l) => l,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let got_papers = loaded.corpus.len();
        let got_abstracts = loaded
            .corpus
            .papers
            .iter()
            .filter(|p| !p.abstract_text.is_empty())
            .count();
        if (got_papers, got_abstracts) != (papers, abstracts) {
            failures.push(format!(
                "{name}: {got_papers} papers / {got_abstracts} abstracts, expected {papers} / {abstracts}"
            ));
        }
        let report = &loaded.reports[0];
        assert!(report.error.is_none(), "{report}");
        for p in &loaded.corpus.papers {
            assert!(
                !p.title.trim().is_empty(),
                "{name}: a paper without a title"
            );
        }
    }
    for (f, ..) in EXPECTED {
        if !files.iter().any(|n| n == f) {
            failures.push(format!("{f}: expected but not in the folder"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn formats_are_detected_for_every_shared_corpus() {
    let dir = corpora();
    for (name, format) in [
        ("arxiv-snapshot_wanng-ide.jsonl", "jsonl"),
        ("arxiv_atom_api_2026_astroph_63.xml", "atom"),
        ("oaipmh_arxiv_listrecords_hepex_3.xml", "oaipmh"),
        ("bib_mendeley_export_512.bib", "bibtex"),
        ("ris_pubmed_endnote_6.txt", "ris"),
        ("ris_web_of_science_10.txt", "ris"),
        ("jsonl_asreview_title_abstract_100.jsonl", "jsonl"),
        ("tsv_csl_chinese_abstracts_dev.tsv", "tsv"),
        ("txt_tdwg2018_abstracts_paragraphs.txt", "text"),
    ] {
        let loaded = load(&[Input::Path(dir.join(name))], &Options::default()).unwrap();
        assert_eq!(loaded.reports[0].format, Some(format), "{name}");
    }
}

#[test]
fn the_same_papers_from_two_exports_appear_once_with_both_sources() {
    // Lens.org's export and Zotero's re-export of it hold the same 100.
    let dir = corpora();
    let inputs = [
        Input::Path(dir.join("ris_lens_bom_100.ris")),
        Input::Path(dir.join("ris_zotero_100.ris")),
    ];
    let loaded = load(&inputs, &Options::default()).unwrap();
    assert_eq!(loaded.corpus.len(), 100);
    assert!(loaded.corpus.papers.iter().all(|p| p.also_in.len() == 1));
}
