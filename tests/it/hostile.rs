//! Hostile and mutated input: what it renders to, and that the text paths
//! read it in work linear in its size.
//!
//! No test here times anything. The text paths count the bytes they go over
//! (`paperboat::text::work`); a path that reads its input once per opener,
//! per line or per link counts thousands of times more than one that reads
//! it a few times, so a bound of a few dozen steps per input byte turns
//! any such path into a failure, on any machine.
//!
//! The mutation test runs 64 cases; before a release run many more:
//! `PROPTEST_CASES=5000 cargo test --release --test hostile`.

use std::sync::Mutex;

use paperboat::corpus::{Corpus, title};
use paperboat::loading::{Input, Options, load};
use paperboat::search::{self, Query, Scope};
use paperboat::text::markup::{plain, render};
use paperboat::text::{links, work, wrap};
use paperboat::ui;
use proptest::prelude::*;

/// The work count is the whole process's: one test runs at a time.
static COUNTING: Mutex<()> = Mutex::new(());

fn counting() -> std::sync::MutexGuard<'static, ()> {
    COUNTING.lock().unwrap_or_else(|e| e.into_inner())
}

/// The work `f` does, in steps.
fn work_of<T>(f: impl FnOnce() -> T) -> (T, u64) {
    let before = work::total();
    let out = f();
    (out, work::total() - before)
}

/// `unit` repeated to `size` bytes (cut at a character boundary).
fn repeat(unit: &str, size: usize) -> String {
    let mut s = unit.repeat(size / unit.len() + 1);
    let mut end = size;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s.truncate(end);
    s
}

/// The hostile kinds: runs of markup openers and closers, alone and mixed
/// with words, and text without the spaces that wrapping looks for.
fn kinds(size: usize) -> Vec<(String, String)> {
    let units = [
        "{",
        "}",
        "[",
        "]",
        "(",
        ")",
        "[a](",
        "](",
        "\\textbf{",
        "\\href{",
        "$",
        "$$",
        "\\(",
        "*",
        "**",
        "_",
        "__",
        "`",
        "<",
        "<http://",
        "\\",
        "http://a.b/(",
        "~",
        "--",
        "*a ",
        "(10.1234/",
        "arXiv:",
        "http://x/)",
        "\u{9d}",
        "\u{1b}]",
    ];
    let mut out = Vec::new();
    for unit in units {
        out.push((unit.to_string(), repeat(unit, size)));
        let mixed = format!("{unit} word ");
        out.push((mixed.clone(), repeat(&mixed, size)));
    }
    // Arguments nested in one another, each closed: the readers that
    // render an argument on their own (scripts, accents) too.
    for open in ["{", "\\textbf{", "\\textsubscript{", "\\c{", "$x^{"] {
        let k = size / (open.len() + 1);
        let nested = format!("{}a{}", open.repeat(k), "}".repeat(k));
        out.push((format!("nested {open}"), nested));
    }
    out.push(("one word".into(), repeat("a", size)));
    out.push(("cjk".into(), repeat("论文研究", size)));
    out.push(("combining".into(), format!("a{}", repeat("\u{301}", size))));
    out.push(("short words".into(), repeat("ab ", size)));
    out.push(("sentence ends".into(), repeat("a. ", size)));
    out.push(("line ends".into(), repeat("a\n", size)));
    out
}

/// Everything the commands do with an abstract: sanitized, titled,
/// rendered, wrapped, its links found, its matches highlighted.
fn read_through(abs: &str) -> usize {
    let clean = paperboat::text::sanitize::block(abs);
    let t = title::derive(&clean);
    let rich = render(&clean);
    let lines = wrap::wrap(&rich.text, 60);
    let found = links::collect(&[], &rich);
    let hl = Query::parse("word a").occurrences(&rich.text);
    t.len() + lines.len() + found.len() + hl.len()
}

#[test]
fn unmatched_openers_render_as_written() {
    let _one = counting();
    let size = 100 * 1024;
    for unit in [
        "{",
        "}",
        "[",
        "]",
        "(",
        ")",
        "[a](",
        "](",
        "\\textbf{",
        "\\href{",
        "\\(",
        "<",
        "<http://",
        "*",
        "**",
        "_",
        "__",
        "{ word ",
        "[a]( word ",
        "\\textbf{ word ",
        "\\href{ word ",
        "<http:// word ",
        "\\( word ",
    ] {
        let s = repeat(unit, size);
        assert!(plain(&s) == s, "{unit:?} repeated is not shown as written");
    }
    // A URL with an opening parenthesis at each step is one long link.
    let s = repeat("http://a.b/(", size);
    let r = render(&s);
    assert_eq!(r.text, s);
    assert_eq!(r.links.len(), 1);
}

#[test]
fn runs_that_are_markup_render_as_it() {
    let _one = counting();
    let size = 100 * 1024;
    // `$$$$`: empty display math, again and again.
    assert_eq!(plain(&repeat("$$", size)), "");
    // LaTeX quotes, dashes and forced spaces.
    assert_eq!(plain(&repeat("`", size)), "\u{201C}".repeat(size / 2));
    assert!(
        plain(&repeat("--", size))
            .trim_end_matches('-')
            .chars()
            .all(|c| c == '\u{2014}' || c == '\u{2013}'),
        "runs of dashes are em and en dashes"
    );
    assert_eq!(plain(&repeat("\\", size)), " ".repeat(size / 2));
    // `*a*` closes; `*a *a …` never does (a closer follows no space).
    assert_eq!(plain(&repeat("*a* ", 16)), "a a a a ");
    let s = repeat("*a ", size);
    assert!(plain(&s) == s);
    // Links found once each, however often they are repeated.
    let r = render(&repeat("http://a.b/c ", size));
    assert_eq!(r.links, vec!["http://a.b/c"]);
    let found = links::collect(&[], &render(&repeat("(10.1234/x ", size)));
    assert_eq!(found, vec!["https://doi.org/10.1234/x"]);
}

#[test]
fn every_hostile_kind_reads_in_linear_work() {
    let _one = counting();
    for ((name, small), (_, large)) in kinds(32 * 1024).into_iter().zip(kinds(128 * 1024)) {
        let (_, w_small) = work_of(|| read_through(&small));
        let (_, w_large) = work_of(|| read_through(&large));
        let n = large.len() as u64;
        // A few dozen steps a byte, and four times the text is not much
        // more than four times the work.
        assert!(
            w_large <= 64 * n + 100_000,
            "{name:?}: {w_large} steps for {n} bytes"
        );
        assert!(
            w_large <= 5 * w_small + 100_000,
            "{name:?}: {w_small} steps for a quarter, {w_large} for all"
        );
    }
}

#[test]
fn a_huge_abstract_wraps_to_lines_that_fit() {
    let _one = counting();
    for (name, s) in kinds(64 * 1024) {
        let r = render(&paperboat::text::sanitize::block(&s));
        for line in wrap::wrap(&r.text, 40) {
            let text = &r.text[line];
            assert!(
                wrap::width(text) <= 40 || !text.contains(' '),
                "{name:?}: {text:?}"
            );
        }
    }
}

/// The real files, each with its name (its extension says its format).
fn corpora() -> Vec<(String, Vec<u8>)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpora");
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .expect("the test corpora")
        .map(|e| {
            let p = e.expect("an entry").path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).expect("a readable file"))
        })
        .collect();
    out.sort();
    out
}

/// A change to a file.
#[derive(Clone, Debug)]
enum Mutation {
    /// Flip bits of the byte at (a fraction of the length).
    Flip(f64, u8),
    /// Cut the file short.
    Cut(f64),
    /// Repeat a slice (from, length) so many times.
    Repeat(f64, usize, usize),
    /// Insert a run of a markup string.
    Run(f64, &'static str, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let at = 0.0..1.0f64;
    prop_oneof![
        (at.clone(), 1..=255u8).prop_map(|(a, m)| Mutation::Flip(a, m)),
        at.clone().prop_map(Mutation::Cut),
        (at.clone(), 1..64usize, 2..400usize).prop_map(|(a, l, k)| Mutation::Repeat(a, l, k)),
        (
            at,
            prop::sample::select(vec![
                "{",
                "}",
                "[",
                "[a](",
                "](",
                "\\textbf{",
                "\\href{",
                "$",
                "$$",
                "\\(",
                "*",
                "*a ",
                "_",
                "`",
                "<http://",
                "\\",
                "http://a.b/(",
                "~",
                "--",
                "(10.1234/",
                "\"",
                "\\u",
                "\n",
                ",",
                "@",
                "TY  - ",
                "\u{9d}",
                "\u{1b}]",
            ]),
            1000..20_000usize,
        )
            .prop_map(|(a, s, k)| Mutation::Run(a, s, k)),
    ]
}

fn apply(bytes: &mut Vec<u8>, m: &Mutation) {
    let at = |f: f64, len: usize| ((len as f64 * f) as usize).min(len);
    match *m {
        Mutation::Flip(f, mask) => {
            if !bytes.is_empty() {
                let i = at(f, bytes.len() - 1);
                bytes[i] ^= mask;
            }
        }
        Mutation::Cut(f) => bytes.truncate(at(f, bytes.len())),
        Mutation::Repeat(f, len, times) => {
            let i = at(f, bytes.len());
            let slice = bytes[i..(i + len).min(bytes.len())].to_vec();
            let tail = bytes.split_off(i);
            for _ in 0..times {
                bytes.extend_from_slice(&slice);
            }
            bytes.extend_from_slice(&tail);
        }
        Mutation::Run(f, s, times) => {
            let i = at(f, bytes.len());
            let tail = bytes.split_off(i);
            bytes.extend_from_slice(s.repeat(times).as_bytes());
            bytes.extend_from_slice(&tail);
        }
    }
}

/// Loads `bytes` as a file called `name`, then titles, lays out and
/// searches what loaded, as the commands do. Returns the papers.
fn use_file(dir: &std::path::Path, name: &str, bytes: &[u8]) -> usize {
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("a written file");
    let Ok(loaded) = load(&[Input::Path(path)], &Options::default()) else {
        return 0;
    };
    let corpus: &Corpus = &loaded.corpus;
    let theme = ui::theme::Theme::default();
    let query = Query::parse("the model");
    for idx in 0..corpus.len() {
        let abs = corpus.papers[idx].abstract_text.text();
        let _ = title::derive(&abs);
        for q in [None, Some(&query)] {
            let view = ui::detail::PaperView {
                corpus,
                idx,
                marks: Default::default(),
                theme: &theme,
                query: q,
                chosen_link: None,
                tags: &[],
                note: None,
                names: Default::default(),
            };
            let _ = ui::detail::render(&view, 60);
        }
    }
    let _ = search::rank_papers(&corpus.papers, "the model", Scope::All);
    corpus.len()
}

/// A window of a file: a mutant of a whole large file would take long to
/// read in a debug build, and what matters is the change and what is
/// around it.
const WINDOW: usize = 48 * 1024;

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(64),
        ..ProptestConfig::default()
    })]

    #[test]
    fn mutated_real_files_read_in_linear_work(
        file in any::<prop::sample::Index>(),
        start in 0.0..1.0f64,
        mutations in prop::collection::vec(mutation(), 1..4),
    ) {
        let files = corpora();
        let (name, whole) = &files[file.index(files.len())];
        // From a line start, so that the window begins as a file would.
        let mut from = (whole.len().saturating_sub(WINDOW) as f64 * start) as usize;
        while from > 0 && whole[from - 1] != b'\n' {
            from -= 1;
        }
        let mut bytes = whole[from..(from + WINDOW).min(whole.len())].to_vec();
        for m in &mutations {
            apply(&mut bytes, m);
        }
        let dir = tempfile::tempdir().expect("a temporary directory");
        let _one = counting();
        let (papers, steps) = work_of(|| use_file(dir.path(), name, &bytes));
        let n = bytes.len() as u64;
        // Each paper is read a handful of times (loaded, titled, laid out
        // twice, searched), each time in a few steps a byte.
        let bound = 200 * n + 20_000 * papers as u64 + 100_000;
        prop_assert!(
            steps <= bound,
            "{name} with {mutations:?}: {steps} steps for {n} bytes, {papers} papers (bound {bound})"
        );
    }
}
