//! Hostile abstracts: how long the text paths take on a megabyte of the
//! worst text we know of. Each kind (runs of markup openers and closers,
//! alone and mixed with words; one word without spaces; CJK; combining
//! marks; one long line of short words) is built at 1 MB, in a titled and
//! an untitled record (whose title is derived from the abstract), and
//! timed as the commands meet it: loaded from a file through
//! `paperboat::loading`, its title derived, laid out and styled as `show`
//! does (and again with a query's words picked out, as the reader does),
//! and searched in the `all` scope. Prints the worst time of each kind and
//! flags any over 100 ms.
//!
//! `cargo bench --bench hostile` (a release build; `-- KIND...` for some
//! kinds only).

use std::io::Write;
use std::time::{Duration, Instant};

use paperboat::corpus::title;
use paperboat::loading::{Input, Options, load};
use paperboat::search::{self, Query, Scope};
use paperboat::ui;

/// Size of each hostile abstract.
const SIZE: usize = 1 << 20;
/// What a step may take.
const BUDGET: Duration = Duration::from_millis(100);

/// The kinds: a name and what is repeated to a megabyte.
fn kinds() -> Vec<(String, String)> {
    let units = [
        ("lbrace", "{"),
        ("rbrace", "}"),
        ("lbracket", "["),
        ("rbracket", "]"),
        ("lparen", "("),
        ("rparen", ")"),
        ("md-link", "[a]("),
        ("link-close", "]("),
        ("textbf", "\\textbf{"),
        ("href", "\\href{"),
        ("dollar", "$"),
        ("ddollar", "$$"),
        ("math-open", "\\("),
        ("star", "*"),
        ("dstar", "**"),
        ("under", "_"),
        ("dunder", "__"),
        ("backtick", "`"),
        ("lt", "<"),
        ("angle-url", "<http://"),
        ("backslash", "\\"),
        ("url-paren", "http://a.b/("),
        ("tilde", "~"),
        ("dashes", "--"),
        ("star-word", "*a "),
        ("doi", "(10.1234/"),
        ("arxiv", "arXiv:"),
        ("url", "http://a.b/c "),
        ("url-close", "http://x/)"),
    ];
    let mut out = Vec::new();
    for (name, unit) in units {
        out.push((name.to_string(), repeat(unit)));
        out.push((format!("{name}+words"), repeat(&format!("{unit} word "))));
    }
    out.push(("one-word".into(), repeat("a")));
    out.push(("cjk".into(), repeat("论文研究")));
    out.push(("combining".into(), format!("a{}", repeat("\u{301}"))));
    out.push(("short-words".into(), repeat("ab ")));
    out.push(("sentences".into(), repeat("a. ")));
    out.push(("lines".into(), repeat("a\n")));
    out
}

/// `unit` repeated to [`SIZE`] bytes (cut at a character boundary).
fn repeat(unit: &str) -> String {
    let mut s = unit.repeat(SIZE / unit.len() + 1);
    let mut end = SIZE;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s.truncate(end);
    s
}

/// One record of JSON Lines holding `abs`, with a title or without.
fn record(abs: &str, titled: bool) -> String {
    let abs = serde_json::to_string(abs).expect("a string");
    if titled {
        format!("{{\"title\":\"A hostile abstract\",\"abstract\":{abs}}}\n")
    } else {
        format!("{{\"abstract\":{abs}}}\n")
    }
}

fn time<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let t = Instant::now();
    let out = f();
    (out, t.elapsed())
}

fn main() {
    paperboat::alloc::configure();
    let only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let theme = ui::theme::Theme::default();
    // The query the "marked" and "search" columns use (`HOSTILE_QUERY=a`
    // highlights nearly every word).
    let query_text = std::env::var("HOSTILE_QUERY").unwrap_or_else(|_| "word hostile".into());
    let query = Query::parse(&query_text);
    println!(
        "{:<18} {:>8} {:>8} {:>8} {:>8} {:>8}",
        "kind (1 MB)", "load", "title", "show", "marked", "search"
    );
    let mut over = 0;
    for (name, abs) in kinds() {
        if !only.is_empty() && !only.contains(&name) {
            continue;
        }
        let mut worst = [Duration::ZERO; 5];
        for titled in [true, false] {
            let path = dir.path().join(format!("{name}-{titled}.jsonl"));
            std::fs::File::create(&path)
                .and_then(|mut f| f.write_all(record(&abs, titled).as_bytes()))
                .expect("a written file");
            let (loaded, load_t) = time(|| load(&[Input::Path(path)], &Options::default()));
            let loaded = loaded.expect("the record loads");
            let corpus = &loaded.corpus;
            let (_, title_t) = time(|| title::derive(&abs));
            let marks = paperboat::vocabulary::Marks::default();
            let view = |query| ui::detail::PaperView {
                corpus,
                idx: 0,
                marks,
                theme: &theme,
                query,
                chosen_link: None,
                tags: &[],
                note: None,
                names: Default::default(),
            };
            let (_, show_t) = time(|| {
                let r = ui::detail::render(&view(None), 76);
                ui::print::lines_to_string(&r.lines, true)
            });
            let (_, marked_t) = time(|| ui::detail::render(&view(Some(&query)), 76));
            let (_, search_t) =
                time(|| search::rank_papers(&corpus.papers, &query_text, Scope::All));
            for (w, t) in worst
                .iter_mut()
                .zip([load_t, title_t, show_t, marked_t, search_t])
            {
                *w = (*w).max(t);
            }
        }
        let ms = |d: Duration| format!("{:.1}", d.as_secs_f64() * 1e3);
        let flag = if worst.iter().any(|&t| t > BUDGET) {
            over += 1;
            "  OVER 100 ms"
        } else {
            ""
        };
        println!(
            "{:<18} {:>8} {:>8} {:>8} {:>8} {:>8}{flag}",
            name,
            ms(worst[0]),
            ms(worst[1]),
            ms(worst[2]),
            ms(worst[3]),
            ms(worst[4]),
        );
    }
    println!("(milliseconds, worst of titled and untitled; {over} kinds over 100 ms)");
}
