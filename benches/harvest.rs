//! Reading an OAI-PMH harvest against reading the same papers as an
//! arXiv API Atom feed: the OAI-PMH reader should be at least as fast per
//! byte. Both inputs are made here, from the same 100,000 papers (title,
//! abstract, three to six authors, categories, dates, a DOI for a third,
//! a journal reference for a fifth), each in its format's own markup, and
//! parsed by the registry's readers in the same run, in turns; the best
//! of seven parses of each is printed in MB/s, with the ratio.
//!
//! `cargo bench --bench harvest` (`-- N` for another number of papers).

use std::fmt::Write;
use std::time::{Duration, Instant};

use paperboat::corpus::Format;

/// Parses of each input; the best of each counts.
const ROUNDS: usize = 7;

const WORDS: &[&str] = &[
    "learning",
    "model",
    "graph",
    "neural",
    "quantum",
    "field",
    "theory",
    "sparse",
    "bound",
    "optimal",
    "random",
    "network",
    "energy",
    "dark",
    "matter",
    "kernel",
    "gradient",
    "descent",
    "transformer",
    "attention",
    "lattice",
    "symmetry",
    "&",
    "<",
    "$\\alpha$",
    "data",
    "we",
    "show",
    "that",
    "the",
    "of",
    "a",
    "is",
    "in",
    "for",
    "with",
];

/// The text of paper `i`, `n` words from a fixed mix.
fn words(i: usize, n: usize, seed: usize) -> String {
    let mut s = String::new();
    let mut x = i.wrapping_mul(2_654_435_761).wrapping_add(seed);
    for k in 0..n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        if k > 0 {
            s.push(if k.is_multiple_of(11) { '\n' } else { ' ' });
        }
        s.push_str(WORDS[x % WORDS.len()]);
    }
    s
}

/// XML text: `&` and `<` escaped.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;")
}

struct Paper {
    id: String,
    title: String,
    abstract_text: String,
    authors: Vec<(String, String)>,
    doi: Option<String>,
    journal: Option<String>,
}

fn paper(i: usize) -> Paper {
    Paper {
        id: format!("2{:03}.{:05}", 401 + i / 90_000, i % 90_000),
        title: words(i, 12, 1),
        abstract_text: words(i, 160, 2),
        authors: (0..3 + i % 4)
            .map(|k| {
                (
                    format!("Keyname{}", (i * 7 + k) % 997),
                    format!("First {k}"),
                )
            })
            .collect(),
        doi: i.is_multiple_of(3).then(|| format!("10.1000/j.{i}")),
        journal: i
            .is_multiple_of(5)
            .then(|| format!("J. Bench. {} ({})", i % 40, 2000 + i % 26)),
    }
}

fn oai_pmh(papers: &[Paper]) -> String {
    let mut s = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<OAI-PMH xmlns=\"http://www.openarchives.org/OAI/2.0/\">\n<responseDate>2026-12-07T00:00:00Z</responseDate>\n<request verb=\"ListRecords\" metadataPrefix=\"arXiv\" set=\"cs\">https://oaipmh.arxiv.org/oai</request>\n<ListRecords>\n",
    );
    for p in papers {
        let _ = write!(
            s,
            "<record>\n<header>\n <identifier>oai:arXiv.org:{}</identifier>\n <datestamp>2026-12-01</datestamp>\n <setSpec>cs</setSpec>\n</header>\n<metadata>\n <arXiv xmlns=\"http://arxiv.org/OAI/arXiv/\">\n <id>{}</id><created>2026-11-30</created><authors>",
            p.id, p.id
        );
        for (last, first) in &p.authors {
            let _ = write!(
                s,
                "<author><keyname>{last}</keyname><forenames>{first}</forenames></author>"
            );
        }
        let _ = write!(
            s,
            "</authors><title>{}</title><categories>cs.LG stat.ML</categories>",
            esc(&p.title)
        );
        if let Some(j) = &p.journal {
            let _ = write!(s, "<journal-ref>{}</journal-ref>", esc(j));
        }
        if let Some(d) = &p.doi {
            let _ = write!(s, "<doi>{d}</doi>");
        }
        let _ = writeln!(
            s,
            "<license>http://creativecommons.org/licenses/by/4.0/</license><abstract>  {}\n</abstract></arXiv>\n</metadata>\n</record>",
            esc(&p.abstract_text)
        );
    }
    s.push_str("<resumptionToken/>\n</ListRecords>\n</OAI-PMH>\n");
    s
}

fn atom(papers: &[Paper]) -> String {
    let mut s = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n  <title type=\"html\">ArXiv Query: search_query=cat:cs.LG</title>\n  <id>http://arxiv.org/api/bench</id>\n  <updated>2026-12-07T00:00:00-05:00</updated>\n",
    );
    for p in papers {
        let _ = write!(
            s,
            "  <entry>\n    <id>http://arxiv.org/abs/{}v1</id>\n    <updated>2026-12-01T00:00:00Z</updated>\n    <published>2026-11-30T00:00:00Z</published>\n    <title>{}</title>\n    <summary>  {}\n</summary>\n",
            p.id,
            esc(&p.title),
            esc(&p.abstract_text)
        );
        for (last, first) in &p.authors {
            let _ = writeln!(
                s,
                "    <author>\n      <name>{first} {last}</name>\n    </author>"
            );
        }
        if let Some(d) = &p.doi {
            let _ = writeln!(
                s,
                "    <arxiv:doi xmlns:arxiv=\"http://arxiv.org/schemas/atom\">{d}</arxiv:doi>"
            );
        }
        if let Some(j) = &p.journal {
            let _ = writeln!(
                s,
                "    <arxiv:journal_ref xmlns:arxiv=\"http://arxiv.org/schemas/atom\">{}</arxiv:journal_ref>",
                esc(j)
            );
        }
        let _ = writeln!(
            s,
            "    <link href=\"http://arxiv.org/abs/{0}v1\" rel=\"alternate\" type=\"text/html\"/>\n    <link title=\"pdf\" href=\"http://arxiv.org/pdf/{0}v1\" rel=\"related\" type=\"application/pdf\"/>\n    <arxiv:primary_category xmlns:arxiv=\"http://arxiv.org/schemas/atom\" term=\"cs.LG\" scheme=\"http://arxiv.org/schemas/atom\"/>\n    <category term=\"cs.LG\" scheme=\"http://arxiv.org/schemas/atom\"/>\n    <category term=\"stat.ML\" scheme=\"http://arxiv.org/schemas/atom\"/>\n  </entry>",
            p.id
        );
    }
    s.push_str("</feed>\n");
    s
}

/// One parse of `text` as `format`: its time and the papers read.
fn time(format: Format, text: &str) -> (Duration, usize) {
    let t = Instant::now();
    let parsed = format.reader().parse(text);
    let took = t.elapsed();
    assert!(
        parsed.skipped.is_empty(),
        "{format}: {:?}",
        &parsed.skipped[..1]
    );
    assert!(parsed.records.iter().all(|r| r.abstract_text.is_some()));
    let papers = parsed.records.len();
    std::hint::black_box(parsed);
    (took, papers)
}

// The allocator the binary uses: both readers allocate a string or more a
// field.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    paperboat::alloc::configure();
    let n: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(100_000);
    let papers: Vec<Paper> = (0..n).map(paper).collect();
    let inputs = [
        (Format::OAIPMH, oai_pmh(&papers)),
        (Format::ATOM, atom(&papers)),
    ];
    drop(papers);
    println!("{n} papers, the same in each format; best of {ROUNDS} parses, taken in turns");
    // In turns, so that a busy minute on a shared machine falls on both.
    let mut best = [Duration::MAX; 2];
    for _ in 0..ROUNDS {
        for (k, (format, text)) in inputs.iter().enumerate() {
            let (t, read) = time(*format, text);
            assert_eq!(read, n, "{format}");
            best[k] = best[k].min(t);
        }
    }
    let mut rates = Vec::new();
    for ((format, text), t) in inputs.iter().zip(best) {
        assert_eq!(paperboat::corpus::readers::detect(text, None), *format);
        let mb = text.len() as f64 / 1e6;
        let rate = mb / t.as_secs_f64();
        println!(
            "{:>7}: {:7.1} MB in {:6.3} s = {:6.1} MB/s ({:.0} papers/s)",
            format.name(),
            mb,
            t.as_secs_f64(),
            rate,
            n as f64 / t.as_secs_f64()
        );
        rates.push(rate);
    }
    println!(
        "oaipmh / atom, per byte: {:.2}x {}",
        rates[0] / rates[1],
        if rates[0] >= rates[1] {
            "(at least as fast: met)"
        } else {
            "(slower: NOT met)"
        }
    );
}
