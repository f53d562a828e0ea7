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
    ("arxiv_atom_api_legacy_2.xml", 2, 2),
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
    // abstract were one paper.) Abstracts likewise, and 4 of the entries
    // that repeat a DOI give the abstract the first one lacks (a regex
    // over the entries' `doi` and `abstract` fields): 1297 + 4.
    ("bib_zotero_bbt_papers3_3725.bib", 3700, 1301),
    // Reprints, translations and related entries (`kullback:reprint`,
    // `vangennep:trans`, `moore:related`) share a title with the work
    // under another key: different papers (83 when they were one).
    ("biblatex_examples_plk.bib", 89, 6),
    ("biblatex_zotero_bbt_55.bib", 55, 21),
    // Python's `csv`: 2610 rows, each with an abstract.
    ("csv_aitrends_icml2024_openreview_2610.csv", 2610, 2610),
    // Python's `json`: 2682 events (2634 posters, 30 workshops, 12
    // tutorials, 6 invited talks), 2672 with an abstract.
    ("json_icml2024_virtualsite_events_2682.json", 2682, 2672),
    // Two entries (`chaudhari_stochastic_gradient_2018` and its `a`) link
    // the same OpenReview forum: one paper.
    ("biblatex_zotero_bbt_arxiv_12.bib", 11, 10),
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
        ("arxiv_atom_api_legacy_2.xml", "atom"),
        ("csv_aitrends_icml2024_openreview_2610.csv", "csv"),
        ("json_icml2024_virtualsite_events_2682.json", "json"),
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

/// The lists researchers start from, as their sources serve them:
/// OpenReview's API answers (v2 and v1), the JSON Lines `fetch` writes,
/// a crawler's wrapper, an accepted-paper list keyed by forum link,
/// arXiv's RSS feeds (2.0 and 1.0) and OAI-PMH pages. No redistributable real response was
/// found, so these were written from the services' documentation
/// (tests/data/PROVENANCE.md): (file, format, papers, abstracts, records
/// skipped).
const SOURCES: &[(&str, &str, usize, usize, usize)] = &[
    // 5 submissions; a review, a decision, a comment, a deleted one.
    ("openreview_v2_notes_icml2024.json", "openreview", 5, 5, 4),
    ("openreview_v2_notes_icml2024.jsonl", "openreview", 5, 5, 0),
    // 2 submissions; a review, an earlier revision.
    ("openreview_v1_notes_iclr2018.json", "openreview", 2, 2, 2),
    // 2 submissions; the crawler's `reviews` hold a review.
    (
        "openreview_v1_crawler_nips2018ws.json",
        "openreview",
        2,
        2,
        1,
    ),
    ("icml2024_accepted_by_forum.json", "openreview", 3, 2, 0),
    ("arxiv_rss2_cs_lg.xml", "rss", 4, 4, 0),
    ("arxiv_rss1_cs_lg.rdf", "rss", 3, 3, 0),
    // arXiv's OAI-PMH in its three formats; each list has a deleted record.
    ("oaipmh_getrecord_arxivraw.xml", "oaipmh", 1, 1, 0),
    ("oaipmh_listrecords_oai_dc.xml", "oaipmh", 2, 2, 1),
    ("oaipmh_listrecords_arxiv.xml", "oaipmh", 2, 2, 1),
];

fn sources() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/sources")
}

fn load_one(path: PathBuf) -> paperboat::loading::Loaded {
    load(&[Input::Path(path)], &Options::default()).unwrap()
}

#[test]
fn the_lists_researchers_start_from_load_with_their_papers() {
    let dir = sources();
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    for name in &files {
        let Some(&(_, format, papers, abstracts, skipped)) =
            SOURCES.iter().find(|(f, ..)| f == name)
        else {
            panic!("{name}: no expected counts in this test");
        };
        let loaded = load_one(dir.join(name));
        let report = &loaded.reports[0];
        assert_eq!(report.format, Some(format), "{name}");
        assert_eq!(loaded.corpus.len(), papers, "{name}");
        let with_abstract = loaded
            .corpus
            .papers
            .iter()
            .filter(|p| !p.abstract_text.is_empty())
            .count();
        assert_eq!(with_abstract, abstracts, "{name}");
        assert_eq!(report.skipped.len(), skipped, "{name}: {report}");
        for p in &loaded.corpus.papers {
            assert!(!p.authors.is_empty(), "{name}: {} has no authors", p.id);
            assert!(
                p.year.is_some() || name.starts_with("icml2024_accepted"),
                "{name}: {}",
                p.id
            );
        }
    }
    assert_eq!(files.len(), SOURCES.len());
}

#[test]
fn openreview_notes_give_forum_ids_fields_and_submissions_only() {
    let loaded = load_one(sources().join("openreview_v2_notes_icml2024.json"));
    let p = &loaded.corpus.papers[0];
    assert_eq!(p.id.as_str(), "openreview:frA0NNBS1n");
    assert_eq!(p.title, "Sparse Attention with Learned Routing");
    assert_eq!(p.authors, ["Ada Lovelace", "Alan Turing"]);
    assert_eq!(p.venue.as_deref(), Some("ICML 2024 Oral"));
    assert_eq!(p.year, Some(2024));
    let more = p.more();
    assert_eq!(
        more.keywords,
        ["sparse attention", "transformers", "efficiency"]
    );
    assert_eq!(more.venue_id.as_deref(), Some("ICML.cc/2024/Conference"));
    assert_eq!(more.forum.as_deref(), Some("frA0NNBS1n"));
    let links = p.links();
    assert!(
        links[0].starts_with("https://openreview.net/pdf/"),
        "{links:?}"
    );
    assert!(links.contains(&"https://openreview.net/forum?id=frA0NNBS1n".to_string()));
    // A keyword string is split; the reasons name what was skipped.
    let fed = &loaded.corpus.papers[3];
    assert_eq!(fed.more().keywords, ["federated learning", "label shift"]);
    let reasons: Vec<&str> = loaded.reports[0]
        .skipped
        .iter()
        .map(|(_, r)| r.as_str())
        .collect();
    assert_eq!(
        reasons,
        [
            "not a submission (Official_Review)",
            "not a submission (Decision)",
            "not a submission (Official_Comment)",
            "not a submission (deleted)"
        ]
    );
    // v1: plain content, year from the creation time.
    let v1 = load_one(sources().join("openreview_v1_notes_iclr2018.json"));
    let ids: Vec<&str> = v1.corpus.papers.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["openreview:rJXMpikCZ", "openreview:SyZipzbCb"]);
    assert_eq!(v1.corpus.papers[0].year, Some(2018));
    assert_eq!(
        v1.corpus.papers[1].more().keywords,
        ["reinforcement learning", "distributed"]
    );
    // A crawler's wrapper lends its venue and year.
    let ws = load_one(sources().join("openreview_v1_crawler_nips2018ws.json"));
    assert!(
        ws.corpus
            .papers
            .iter()
            .all(|p| p.venue.as_deref() == Some("NIPS 2018 Workshop CDNNRIA")
                && p.year == Some(2018))
    );
}

#[test]
fn the_same_paper_in_two_lists_is_one_with_the_fields_of_both() {
    // The accepted-paper list lacks one abstract, venues and keywords;
    // the API's notes have them.
    let dir = sources();
    let inputs = [
        Input::Path(dir.join("icml2024_accepted_by_forum.json")),
        Input::Path(dir.join("openreview_v2_notes_icml2024.json")),
    ];
    let loaded = load(&inputs, &Options::default()).unwrap();
    let ids: Vec<&str> = loaded.corpus.papers.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "openreview:frA0NNBS1n",
            "openreview:Kq2bbbbbbb",
            "openreview:Pm7iiiiiii",
            "openreview:Tz3ddddddd",
            "openreview:Wd4fffffff",
            "openreview:Xy5ggggggg"
        ]
    );
    let gnn = &loaded.corpus.papers[1];
    assert_eq!(&*gnn.source, "icml2024_accepted_by_forum.json");
    assert_eq!(gnn.also_in.len(), 1);
    assert!(
        gnn.abstract_text
            .text()
            .starts_with("Message passing networks")
    );
    assert_eq!(gnn.venue.as_deref(), Some("ICML 2024 Poster"));
    assert_eq!(gnn.more().keywords, ["graph neural networks", "chemistry"]);
    // What the first list had stays.
    assert_eq!(
        gnn.authors,
        ["Grace Hopper", "Edsger Dijkstra", "Barbara Liskov"]
    );
    assert_eq!(loaded.corpus.papers[2].venue, None);
}

#[test]
fn arxiv_feeds_give_the_abstract_after_the_preamble_and_the_announce_type() {
    let rss = load_one(sources().join("arxiv_rss2_cs_lg.xml"));
    assert_eq!(&*rss.corpus.papers[0].source, "cs.LG updates on arXiv.org");
    let got: Vec<(&str, Option<&str>, Option<i32>)> = rss
        .corpus
        .papers
        .iter()
        .map(|p| (p.id.as_str(), p.more().announce.as_deref(), p.year))
        .collect();
    assert_eq!(
        got,
        [
            ("arxiv:2402.14001", Some("new"), Some(2024)),
            ("arxiv:2402.14002", Some("cross"), Some(2024)),
            // A replacement: the year the paper first came out.
            ("arxiv:2203.01258", Some("replace"), Some(2022)),
            ("arxiv:2310.05555", Some("replace-cross"), Some(2023)),
        ]
    );
    for p in &rss.corpus.papers {
        let text = p.abstract_text.text();
        assert!(
            !text.contains("Announce Type") && !text.starts_with("arXiv:"),
            "{text}"
        );
    }
    let replaced = &rss.corpus.papers[2];
    assert_eq!(replaced.authors, ["Antonin Monteil", "Paolo Tilli"]);
    assert_eq!(replaced.more().categories, ["math.OC", "cs.LG"]);
    assert_eq!(
        replaced.venue.as_deref(),
        Some("J. Math. Pures Appl. 175 (2023) 1-30")
    );
    assert!(
        replaced
            .abstract_text
            .text()
            .ends_with("the domain is rescaled.")
    );
    // RSS 1.0: the title's suffix and the HTML go.
    let rdf = load_one(sources().join("arxiv_rss1_cs_lg.rdf"));
    let p = &rdf.corpus.papers[1];
    assert_eq!(p.id.as_str(), "arxiv:2305.12345");
    assert_eq!(p.title, "Tokenizer Choice and Multilingual Fairness");
    assert_eq!(p.more().announce.as_deref(), Some("replace"));
    assert_eq!(p.more().categories, ["cs.CL"]);
    assert_eq!(p.authors, ["Grace Hopper"]);
    assert!(
        p.abstract_text.text().contains("where x < y holds."),
        "{}",
        p.abstract_text.text()
    );
    assert!(!p.abstract_text.text().contains("<p>"));
    assert_eq!(
        rdf.corpus.papers[2].more().announce.as_deref(),
        Some("cross")
    );
}

#[test]
fn real_lists_built_on_openreview_read_their_names_and_titles() {
    let dir = corpora();
    // AI-trends' ICML 2024 list writes authors as a Python list.
    let csv = load_one(dir.join("csv_aitrends_icml2024_openreview_2610.csv"));
    let p = &csv.corpus.papers[0];
    assert_eq!(
        p.title,
        "On Discrete Prompt Optimization for Diffusion Models"
    );
    assert_eq!(
        p.authors,
        ["Ruochen Wang", "Ting Liu", "Cho-Jui Hsieh", "Boqing Gong"]
    );
    let quoted = |a: &str| a.starts_with(['\'', '"']) || a.ends_with(['\'', '"']);
    assert!(
        csv.corpus
            .papers
            .iter()
            .all(|p| !p.authors.iter().any(quoted))
    );
    // Names holding a quote were written unquoted in that list.
    let p = csv
        .corpus
        .papers
        .iter()
        .find(|p| p.title.starts_with("Perturb-and-Project"))
        .unwrap();
    assert_eq!(
        p.authors,
        [
            "Vincent Cohen-Addad",
            "Tommaso d'Orsi",
            "Alessandro Epasto",
            "Vahab Mirrokni",
            "Peilin Zhong"
        ]
    );
    // The ICML 2024 virtual site names its events and their speakers.
    let events = load_one(dir.join("json_icml2024_virtualsite_events_2682.json"));
    let p = &events.corpus.papers[1];
    assert_eq!(
        p.title,
        "$f$-Divergence Based Classification: Beyond the Use of Cross-Entropy"
    );
    assert!(!p.title_derived);
    assert_eq!(p.authors, ["Nicola Novello", "Andrea Tonello"]);
    assert!(events.corpus.papers.iter().all(|p| !p.title_derived));
}

#[test]
fn the_atom_layouts_seen_in_the_wild_read_alike() {
    // The opensearch namespace on each element (older feeds) or on the
    // root (2026's), ids as http:// or https:// links.
    let dir = corpora();
    let legacy = load_one(dir.join("arxiv_atom_api_legacy_2.xml"));
    assert_eq!(legacy.corpus.papers[0].id.as_str(), "arxiv:2510.14968");
    let text = std::fs::read_to_string(dir.join("arxiv_atom_api_2026_astroph_63.xml")).unwrap();
    let https = text.replace("<id>http://arxiv.org/abs/", "<id>https://arxiv.org/abs/");
    assert_ne!(https, text);
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("https.xml");
    std::fs::write(&path, https).unwrap();
    let a = load_one(dir.join("arxiv_atom_api_2026_astroph_63.xml"));
    let b = load_one(path);
    let ids = |l: &paperboat::loading::Loaded| -> Vec<String> {
        l.corpus.papers.iter().map(|p| p.id.to_string()).collect()
    };
    assert_eq!(ids(&a), ids(&b));
    assert_eq!(a.corpus.len(), 63);
    assert!(
        a.corpus
            .papers
            .iter()
            .all(|p| p.id.as_str().starts_with("arxiv:"))
    );
    assert_eq!(
        a.corpus.papers[1].more().categories,
        ["astro-ph.GA", "astro-ph.SR"]
    );
}
