//! Search quality: how well the ranking finds a paper a reader is after,
//! and how alike the "related papers" are, printed beside plain textbook
//! baselines (Okapi BM25, TF-IDF cosine) measured in the same run.
//!
//! `cargo bench --bench quality [-- FILE...]`: the real corpora in
//! `tests/data/corpora` that have titles and abstracts, the bundled lists
//! (titles derived from the abstract, reported apart), and any FILE given.
//! What is measured and why: `docs/QUALITY.md`. The figures are the same on
//! every run: queries come from a fixed-seed generator.

#[path = "quality/baselines.rs"]
mod baselines;
#[path = "quality/labels.rs"]
mod labels;
#[path = "quality/queries.rs"]
mod queries;
#[path = "quality/recommend.rs"]
mod recommend;
#[path = "quality/related.rs"]
mod related;
#[path = "quality/topics.rs"]
mod topics;
#[path = "quality/vocab.rs"]
mod vocab;
#[path = "quality/word_sets.rs"]
mod word_sets;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use paperboat::corpus::Paper;
use paperboat::loading::{Input, Options, load};
use paperboat::search::{Scope, Search, paper_text, rank_papers, ranking_typed};
use paperboat::text::markup::plain_cow;

use baselines::{Index, before};
use queries::{KINDS, Kind, Rng, query, searchable, words};
use vocab::Vocab;

/// The real corpora.
const CORPORA: &str = "tests/data/corpora";
/// The corpus with arXiv categories, for related papers.
const ARXIV: &str = "tests/data/corpora/arxiv-snapshot_wanng-ide.jsonl";
/// Papers picked per corpus to be searched for.
const PICK: usize = 300;
/// paperboat's rankings come from the reader's matcher ([`Search`]: the
/// abstracts indexed once), as [`rank_papers`] indexes them again for
/// every query (36 ms a query at 3,700 papers). The first queries of each
/// kind are ranked both ways, and the rankings compared: this many in a
/// corpus of up to [`BIG`] papers, one above.
const CHECK: usize = 10;
const BIG: usize = 20_000;
/// A default corpus with fewer papers that can be searched for is left out.
const MIN_TARGETS: usize = 10;

// ------------------------------------------------------------ the corpora

/// A corpus loaded, with what the queries are made from.
pub(crate) struct Corpus {
    name: String,
    /// Titles derived from the abstract (the bundled lists).
    derived: bool,
    papers: Vec<Paper>,
    /// Each paper's title group: papers with the same title share one.
    group: Vec<u32>,
    index: Index,
    vocab: Vocab,
}

impl Corpus {
    fn new(name: String, papers: Vec<Paper>) -> Corpus {
        let derived = papers.iter().filter(|p| p.title_derived).count() * 2 > papers.len();
        let mut groups: HashMap<String, u32> = HashMap::new();
        let group = papers
            .iter()
            .map(|p| {
                let n = groups.len() as u32;
                *groups
                    .entry(words(&plain_cow(&p.title)).join(" "))
                    .or_insert(n)
            })
            .collect();
        let index = Index::new(papers.iter().map(paper_text));
        let vocab = Vocab::new(&papers);
        Corpus {
            name,
            derived,
            papers,
            group,
            index,
            vocab,
        }
    }

    /// The papers to search for: [`searchable`], with a title of the
    /// corpus's kind (given, or derived in a corpus of derived titles).
    fn targets(&self) -> Vec<usize> {
        (0..self.papers.len())
            .filter(|&i| {
                self.papers[i].title_derived == self.derived && searchable(&self.papers[i])
            })
            .collect()
    }
}

pub(crate) fn load_corpus(name: String, inputs: &[Input]) -> Result<Corpus, String> {
    let loaded = load(inputs, &Options::default()).map_err(|e| e.to_string())?;
    Ok(Corpus::new(name, loaded.corpus.papers.into_vec()))
}

// ---------------------------------------------------------------- systems

#[derive(Clone, Copy, PartialEq, Eq)]
enum System {
    Title,
    All,
    Bm25,
    TfIdf,
}

const SYSTEMS: [System; 4] = [System::Title, System::All, System::Bm25, System::TfIdf];

impl System {
    fn name(self) -> &'static str {
        match self {
            System::Title => "paperboat title",
            System::All => "paperboat all",
            System::Bm25 => "BM25",
            System::TfIdf => "TF-IDF",
        }
    }
}

/// paperboat's ranking of `q`, from the reader's matcher; also from
/// [`rank_papers`] when `check`, counting a difference in `checks`.
fn paperboat(
    live: &mut Search,
    papers: &[Paper],
    (q, typed): (&str, bool),
    scope: Scope,
    check: bool,
    checks: &mut Checks,
) -> Vec<usize> {
    if typed {
        live.type_query(q, scope);
    } else {
        live.set_query(q, scope);
    }
    assert!(
        live.wait(Duration::from_secs(600)),
        "no ranking for {q:?} in 10 minutes"
    );
    live.tick();
    // The matches: not the titles shown apart for a word no paper holds.
    let r = live.results();
    let ranking: Vec<usize> = r.matches[..r.counted()]
        .iter()
        .map(|m| m.idx as usize)
        .collect();
    if check {
        let direct = match typed {
            true => ranking_typed(papers, q, scope).counted(),
            false => rank_papers(papers, q, scope),
        };
        checks.compared += 1;
        if !direct
            .iter()
            .map(|m| m.idx as usize)
            .eq(ranking.iter().copied())
        {
            checks.differ.push(format!("{q:?} ({})", scope.name()));
        }
    }
    ranking
}

/// Rankings compared between the reader's matcher and [`rank_papers`].
#[derive(Default)]
struct Checks {
    compared: usize,
    /// The queries whose rankings differed.
    differ: Vec<String>,
}

/// Where `system` ranks paper `target` for `q` (1-based; the best rank of
/// the papers with its title), and the paper it ranks first.
fn rank(
    system: System,
    c: &Corpus,
    live: &mut Search,
    (q, typed): (&str, bool),
    target: usize,
    (check, checks): (bool, &mut Checks),
) -> (Option<usize>, Option<usize>) {
    let g = c.group[target];
    match system {
        System::Title | System::All => {
            let scope = if system == System::Title {
                Scope::Title
            } else {
                Scope::All
            };
            let ranking = paperboat(live, &c.papers, (q, typed), scope, check, checks);
            let at = ranking.iter().position(|&d| c.group[d] == g).map(|r| r + 1);
            (at, ranking.first().copied())
        }
        System::Bm25 | System::TfIdf => {
            let qw = words(q);
            let scored = if system == System::Bm25 {
                c.index.bm25(&qw)
            } else {
                c.index.tfidf(&qw)
            };
            // The rank of the group's best paper, without sorting them all.
            let best = scored
                .iter()
                .filter(|(d, _)| c.group[*d as usize] == g)
                .min_by(|a, b| before(a, b));
            let at = best.map(|b| 1 + scored.iter().filter(|s| before(s, b).is_lt()).count());
            let first = scored
                .iter()
                .min_by(|a, b| before(a, b))
                .map(|s| s.0 as usize);
            (at, first)
        }
    }
}

// ------------------------------------------------------------------ tally

/// Figures of one system on one kind of query.
#[derive(Clone, Copy, Default)]
struct Tally {
    queries: usize,
    hit1: usize,
    hit3: usize,
    hit10: usize,
    rr: f64,
    missing: usize,
}

impl Tally {
    fn add(&mut self, at: Option<usize>) {
        self.queries += 1;
        match at {
            Some(r) => {
                self.hit1 += usize::from(r <= 1);
                self.hit3 += usize::from(r <= 3);
                self.hit10 += usize::from(r <= 10);
                self.rr += 1.0 / r as f64;
            }
            None => self.missing += 1,
        }
    }

    fn merge(&mut self, o: &Tally) {
        self.queries += o.queries;
        self.hit1 += o.hit1;
        self.hit3 += o.hit3;
        self.hit10 += o.hit10;
        self.rr += o.rr;
        self.missing += o.missing;
    }
}

/// Tallies by kind, then system.
type Table = [[Tally; 4]; KINDS.len()];

pub(crate) fn pct(n: usize, d: usize) -> String {
    if d == 0 {
        "-".into()
    } else {
        format!("{:.1}%", 100.0 * n as f64 / d as f64)
    }
}

fn print_table(t: &Table) {
    println!(
        "  {:<12} {:<16} {:>7} {:>7} {:>7} {:>7} {:>6} {:>9}",
        "kind", "system", "queries", "hit@1", "hit@3", "hit@10", "MRR", "not found"
    );
    for k in KINDS {
        for s in SYSTEMS {
            let x = &t[k as usize][s as usize];
            if x.queries == 0 {
                continue;
            }
            println!(
                "  {:<12} {:<16} {:>7} {:>7} {:>7} {:>7} {:>6.3} {:>9}",
                k.name(),
                s.name(),
                x.queries,
                pct(x.hit1, x.queries),
                pct(x.hit3, x.queries),
                pct(x.hit10, x.queries),
                x.rr / x.queries as f64,
                pct(x.missing, x.queries),
            );
        }
    }
}

/// A query that did not find its paper first.
struct Failure {
    corpus: String,
    query: String,
    target: String,
    at: Option<usize>,
    first: Option<String>,
}

fn short(s: &str) -> String {
    let s = plain_cow(s);
    if s.chars().count() > 76 {
        format!("{}...", s.chars().take(73).collect::<String>())
    } else {
        s.into_owned()
    }
}

/// Runs every kind of query for the corpus's picked papers through every
/// system.
fn known_item(
    c: &Corpus,
    failures: &mut [[Vec<Failure>; 4]; KINDS.len()],
    checks: &mut Checks,
) -> Table {
    let mut rng = Rng::named(&c.name);
    let mut targets = c.targets();
    rng.shuffle(&mut targets);
    targets.truncate(PICK);
    let mut live = Search::new(|| {});
    live.extend(&c.papers);
    let check = if c.papers.len() > BIG { 1 } else { CHECK };
    let mut table = Table::default();
    for k in KINDS {
        let mut made = 0;
        for &i in &targets {
            let Some(q) = query(k, &c.papers[i], &mut rng, &c.vocab) else {
                continue;
            };
            made += 1;
            for s in SYSTEMS {
                // A title piece is typed: its last word is cut short.
                let typed = k == Kind::TitlePiece;
                let (at, first) = rank(s, c, &mut live, (&q, typed), i, (made <= check, checks));
                table[k as usize][s as usize].add(at);
                if at != Some(1) {
                    failures[k as usize][s as usize].push(Failure {
                        corpus: c.name.clone(),
                        query: q.clone(),
                        target: short(&c.papers[i].title),
                        at,
                        first: first.map(|f| short(&c.papers[f].title)),
                    });
                }
            }
        }
    }
    table
}

/// How many items two sorted lists share.
fn shared(a: &[String], b: &[String]) -> usize {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                n += 1;
                i += 1;
                j += 1;
            }
        }
    }
    n
}

/// A few failures of each system on each kind of query, picked at random
/// (with a fixed seed).
fn print_failures(failures: &[[Vec<Failure>; 4]; KINDS.len()]) {
    println!("\n== Queries that did not find their paper first (a few of each)");
    let mut rng = Rng::named("failures");
    for s in SYSTEMS {
        println!("\n{}:", s.name());
        for k in KINDS {
            let all = &failures[k as usize][s as usize];
            if all.is_empty() {
                continue;
            }
            let f = &all[rng.below(all.len())];
            let at =
                f.at.map_or("not found".to_string(), |r| format!("rank {r}"));
            println!("  {} {:?} ({}): {at}", k.name(), f.query, f.corpus);
            println!("    wanted: {}", f.target);
            println!("    first:  {}", f.first.as_deref().unwrap_or("(nothing)"));
        }
    }
}

// ------------------------------------------------------------------- main

/// The corpus of `path`, or `None` when it cannot be read (said on
/// standard output).
pub(crate) fn load_or_say(path: &str) -> Option<Corpus> {
    match load_corpus(file_name(Path::new(path)), &[Input::Path(path.into())]) {
        Ok(c) => Some(c),
        Err(e) => {
            println!("{path}: {e}");
            None
        }
    }
}

pub(crate) fn file_name(p: &Path) -> String {
    p.file_name().map_or_else(
        || p.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// Real lists held out from tuning, labelled by venue or arXiv category
/// (`labels.rs`).
const HELD_OUT: [&str; 3] = [
    "tests/data/corpora/bib_zotero_bbt_papers3_3725.bib",
    "tests/data/corpora/bib_jabref2.10_physics_916.bib",
    "tests/data/corpora/arxiv_atom_api_2026_astroph_63.xml",
];

/// Recommendations (and topics) on the arXiv sample, the held-out lists
/// and `files`.
fn learn(files: &[&str], skips: usize) {
    let lists: Vec<labels::List> = std::iter::once(ARXIV)
        .chain(HELD_OUT)
        .chain(files.iter().copied())
        .filter_map(labels::list)
        .collect();
    println!("\n== Recommendations: simulated readers who like one label");
    println!(
        "  precision@20: of the first 20 unread papers recommended, the share with that label"
    );
    for (i, list) in lists.iter().enumerate() {
        println!(
            "\n{}: {} papers with an abstract; labels readers like: {}",
            list.name,
            list.papers.len(),
            labels::sizes(&list.labels)
        );
        // The recipe was tuned on the arXiv sample's first draw; the
        // other lists, and the sample's other draws, were not tuned on.
        if i == 0 && list.labels.fine.is_some() {
            let t = recommend::measure(list, &[""], skips);
            recommend::print(&format!("{}, tuned on", list.name), list, &t, skips);
            let t = recommend::measure(list, &[":b", ":c", ":d", ":e"], skips);
            recommend::print(
                &format!("{}, other draws (not tuned on)", list.name),
                list,
                &t,
                skips,
            );
        } else {
            let t = recommend::measure(list, &["", ":b", ":c", ":d", ":e"], skips);
            recommend::print(&format!("{} (not tuned on)", list.name), list, &t, skips);
        }
    }
    println!("\n== Topics: how well the groups match the labels");
    for list in &lists {
        topics::measure(list);
    }
}

fn main() {
    paperboat::alloc::configure();
    let started = Instant::now();
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    // `--learn`: the recommendations and topics alone (on the arXiv
    // sample, the held-out lists and any FILE given: a list whose papers
    // give arXiv categories, or a venue).
    if args.iter().any(|a| a == "--learn") {
        // `--skips N`: the simulated readers' skips (8 unless set).
        let mut skips = recommend::NEGATIVES;
        let mut files: Vec<&str> = Vec::new();
        let mut rest = args.iter().filter(|a| *a != "--learn");
        while let Some(a) = rest.next() {
            if a == "--skips" {
                let Some(n) = rest.next().and_then(|n| n.parse().ok()) else {
                    eprintln!("quality: --skips takes a number");
                    std::process::exit(2);
                };
                skips = n;
            } else {
                files.push(a);
            }
        }
        learn(&files, skips);
        eprintln!("quality: {:.1} s", started.elapsed().as_secs_f64());
        return;
    }
    let extra: Vec<PathBuf> = args.iter().map(PathBuf::from).collect();
    let mut files: Vec<PathBuf> = std::fs::read_dir(CORPORA)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.sort();
    // (corpus, its inputs, a file of the test data: left out when it has
    // too few papers to search for)
    let mut inputs: Vec<(String, Vec<Input>, bool)> = files
        .iter()
        .map(|f| (file_name(f), vec![Input::Path(f.clone())], true))
        .collect();
    inputs.push((
        "bundled lists".into(),
        (0..paperboat::loading::BUNDLED.len())
            .map(Input::Bundled)
            .collect(),
        false,
    ));
    inputs.extend(
        extra
            .iter()
            .map(|f| (file_name(f), vec![Input::Path(f.clone())], false)),
    );

    println!("== Known-item search: the rank of the paper a query was made from");
    println!(
        "  hit@k: share of queries with the paper in the first k; MRR: mean of 1/rank (0 when"
    );
    println!("  not found); not found: the system did not return the paper at all");
    let mut failures: [[Vec<Failure>; 4]; KINDS.len()] = Default::default();
    let mut checks = Checks::default();
    let mut given = Table::default();
    let mut derived = Table::default();
    let (mut given_n, mut derived_n) = (Vec::new(), Vec::new());
    let mut seen: Vec<(String, Vec<String>)> = Vec::new();
    let mut word_sums = [word_sets::SetTally::default(); 4];
    for (name, input, test_data) in inputs {
        let c = match load_corpus(name.clone(), &input) {
            Ok(c) => c,
            Err(e) => {
                println!("\n{name}: left out: {e}");
                continue;
            }
        };
        let targets = c.targets();
        if test_data && c.derived {
            println!("\n{name}: left out: its titles are derived from the abstracts");
            continue;
        }
        if test_data && targets.len() < MIN_TARGETS {
            println!(
                "\n{name}: left out: {} of its {} papers can be searched for (a given title and \
                 an abstract, with words to type), fewer than {MIN_TARGETS}",
                targets.len(),
                c.papers.len()
            );
            continue;
        }
        // The same records in another format count once.
        let mut key: Vec<String> = targets
            .iter()
            .map(|&i| words(&c.papers[i].title).join(" "))
            .collect();
        key.sort();
        if let Some((other, _)) = seen.iter().find(|(_, k)| shared(k, &key) * 2 > key.len()) {
            println!("\n{name}: left out: most of its papers are those of {other}");
            continue;
        }
        seen.push((name.clone(), key));
        let t = Instant::now();
        let table = known_item(&c, &mut failures, &mut checks);
        eprintln!("{name}: {:.1} s", t.elapsed().as_secs_f64());
        println!(
            "\n{name}: {} papers, {} can be searched for, {} picked{}",
            c.papers.len(),
            targets.len(),
            targets.len().min(PICK),
            if c.derived {
                " (titles derived from the abstract)"
            } else {
                ""
            }
        );
        print_table(&table);
        let sets = word_sets::word_sets(&c);
        println!("  word queries ({} ordinary words):", sets[0].words);
        word_sets::print(&sets);
        let (sum, names) = if c.derived {
            (&mut derived, &mut derived_n)
        } else {
            (&mut given, &mut given_n)
        };
        for k in 0..KINDS.len() {
            for s in 0..4 {
                sum[k][s].merge(&table[k][s]);
            }
        }
        names.push(name);
        if !c.derived {
            for (all, one) in word_sums.iter_mut().zip(&sets) {
                all.merge(one);
            }
        }
    }
    println!("\n== Overall, given titles ({} corpora)", given_n.len());
    print_table(&given);
    let mixed = &given[Kind::Mixed as usize];
    println!(
        "  headline (mixed, hit@1 / MRR): {}",
        SYSTEMS
            .iter()
            .map(|&s| {
                let x = &mixed[s as usize];
                let mrr = x.rr / x.queries.max(1) as f64;
                format!("{} {} / {mrr:.3}", s.name(), pct(x.hit1, x.queries))
            })
            .collect::<Vec<_>>()
            .join(", ")
    );
    for kind in [Kind::Typo, Kind::Form] {
        let t = &given[kind as usize];
        println!(
            "  headline ({}, hit@3): {}",
            kind.name(),
            SYSTEMS
                .iter()
                .map(|&s| format!(
                    "{} {}",
                    s.name(),
                    pct(t[s as usize].hit3, t[s as usize].queries)
                ))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    println!(
        "\n== Word queries, given titles ({} corpora, {} words each at most)",
        given_n.len(),
        word_sets::WORDS
    );
    println!(
        "  precision: of the papers returned, the share holding the word or another form of it"
    );
    println!(
        "  (its Snowball stem), or it in an author's name; recall: of those, the share returned"
    );
    word_sets::print(&word_sums);
    if !derived_n.is_empty() {
        println!(
            "\n== Overall, titles derived from the abstract: {}",
            derived_n.join(", ")
        );
        print_table(&derived);
    }
    println!(
        "\npaperboat's rankings: the reader's matcher; {} of them also by rank_papers: {}",
        checks.compared,
        if checks.differ.is_empty() {
            "the same".to_string()
        } else {
            format!(
                "{} differ: {}",
                checks.differ.len(),
                checks.differ.join(", ")
            )
        }
    );
    print_failures(&failures);
    related::related(ARXIV);
    learn(&[], recommend::NEGATIVES);
    eprintln!("quality: {:.1} s", started.elapsed().as_secs_f64());
}
