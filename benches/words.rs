//! The word index: how long it takes to build, how much memory it holds
//! beside the text it covers, how long a query word's BM25F scores take
//! (the cost a keystroke adds in the every-field scope), and how long
//! related papers take for one paper, beside a plain TF-IDF cosine over the
//! same papers measured in the same run.
//!
//! A typo's lookup over the words, as built and read back, beside an FST
//! of the same words searched with the same Levenshtein automaton.
//!
//! Then the index on disk: how long writing it and reading it back take
//! (from a buffer and from a memory-mapped file), what the read-back
//! index holds on the heap, and prefix queries on it beside the same on
//! the index as built; and the index built for one query beside the whole.
//!
//! `cargo bench --bench words -- FILE...` (any file the reader opens, e.g.
//! `cargo run --release --example gen_corpus -- jsonl 1M f.jsonl`).

use std::time::{Duration, Instant};

use paperboat::loading::{Input, Options, load};
use std::sync::Arc;

use paperboat::search::{
    Probe, Query, Reading, Shared, WordIndex, index_papers, index_papers_for, related_in,
};

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Median and worst of `times`.
fn spread(mut times: Vec<Duration>) -> (f64, f64) {
    times.sort();
    (ms(times[times.len() / 2]), ms(*times.last().unwrap()))
}

fn main() {
    paperboat::alloc::configure();
    let files: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    for f in files {
        let loaded = load(&[Input::Path(f.clone().into())], &Options::default()).expect("load");
        let papers = &loaded.corpus.papers;
        let n = papers.len();
        let text: usize = papers
            .iter()
            .map(|p| {
                p.title.len()
                    + p.abstract_text.text().len()
                    + p.authors.iter().map(str::len).sum::<usize>()
            })
            .sum();
        let t = Instant::now();
        let index = index_papers(papers);
        let built = t.elapsed();
        let heap = index.heap_bytes();
        println!(
            "{f}: {n} papers, {:.0} MB of title, abstract and author text",
            text as f64 / 1e6
        );
        println!(
            "  index: built in {:.2} s on every core; {:.0} MB ({:.2}x the text), {} distinct words",
            built.as_secs_f64(),
            heap as f64 / 1e6,
            heap as f64 / text as f64,
            index.vocabulary()
        );
        let frozen = on_disk(&index);
        for word in [
            "s",
            "sp",
            "spa",
            "sparse",
            "a",
            "at",
            "attention",
            "l",
            "la",
        ] {
            let time = |ix: &WordIndex| {
                let times: Vec<Duration> = (0..5)
                    .map(|_| {
                        let mut scores = vec![0.0f32; n];
                        let t = Instant::now();
                        ix.add_scores(word, false, &mut scores);
                        std::hint::black_box(&scores);
                        t.elapsed()
                    })
                    .collect();
                spread(times)
            };
            let (median, worst) = time(&index);
            let (fmedian, fworst) = time(&frozen);
            println!(
                "  word {word:?}: BM25F scores median {median:.1} ms, worst {worst:.1} ms; \
                 read back from disk: median {fmedian:.1} ms, worst {fworst:.1} ms"
            );
        }
        typos(&index, &frozen);
        for q in ["sparse attention", "author:smith graph"] {
            let t = Instant::now();
            let only = index_papers_for(papers, &Query::parse(q));
            println!(
                "  index for the query {q:?} only: built in {:.2} s ({} distinct words)",
                t.elapsed().as_secs_f64(),
                only.vocabulary()
            );
        }
        // Related papers for 50 papers spread over the corpus.
        let picks: Vec<usize> = (0..50).map(|k| k * n / 50).collect();
        let times: Vec<Duration> = picks
            .iter()
            .map(|&i| {
                let t = Instant::now();
                let r = related_in(&index, papers, Probe::Paper(i), 50, &|_| true);
                std::hint::black_box(r);
                t.elapsed()
            })
            .collect();
        let (median, worst) = spread(times);
        println!("  related, one paper (top 50): median {median:.1} ms, worst {worst:.1} ms");
        // The baseline: a plain TF-IDF cosine of one paper against all,
        // with the papers' vectors made beforehand (their cost not counted).
        let vectors = baseline::vectors(papers);
        let times: Vec<Duration> = picks
            .iter()
            .take(10)
            .map(|&i| {
                let t = Instant::now();
                std::hint::black_box(baseline::top(&vectors, i, 50));
                t.elapsed()
            })
            .collect();
        let (median, worst) = spread(times);
        println!(
            "  baseline TF-IDF cosine, one paper against all (vectors prebuilt): median {median:.1} ms, worst {worst:.1} ms"
        );
    }
}

/// A word with a typo's lookup (`WordIndex::terms`, which finds no word
/// as typed, in another form or starting so, then walks the words with
/// a Levenshtein automaton): on the index as built (a hash map of words)
/// and read back (sorted words), beside an FST of the same words
/// searched with the same automaton (the `fst` crate), whose build is
/// timed too.
fn typos(index: &WordIndex, frozen: &WordIndex) {
    use fst::{IntoStreamer, Streamer};
    use levenshtein_automata::LevenshteinAutomatonBuilder;
    let words = index.scored_words();
    let t = Instant::now();
    let set = fst::Set::from_iter(words.iter()).expect("sorted words");
    println!(
        "  typos: an FST of the {} words built in {:.0} ms ({:.1} MB)",
        words.len(),
        ms(t.elapsed()),
        set.as_fst().size() as f64 / 1e6
    );
    let builders = [
        LevenshteinAutomatonBuilder::new(1, true),
        LevenshteinAutomatonBuilder::new(2, true),
    ];
    for typo in [
        "sparce",
        "nueral",
        "atention",
        "difusion",
        "trasnformer",
        "lnaguage",
    ] {
        let all = [true; 3];
        let time = |ix: &WordIndex| {
            let times: Vec<Duration> = (0..5)
                .map(|_| {
                    let t = Instant::now();
                    std::hint::black_box(ix.terms(typo, Reading::Whole, all).is_empty());
                    t.elapsed()
                })
                .collect();
            spread(times)
        };
        let found: Vec<String> = index
            .terms(typo, Reading::Whole, all)
            .words()
            .map(str::to_string)
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        let (hash, _) = time(index);
        let (sorted, _) = time(frozen);
        let edits = if typo.len() >= 8 { 2 } else { 1 };
        let times: Vec<Duration> = (0..5)
            .map(|_| {
                let t = Instant::now();
                let dfa = builders[edits - 1].build_dfa(typo);
                let mut stream = set.search(&dfa).into_stream();
                let mut n = 0;
                while stream.next().is_some() {
                    n += 1;
                }
                std::hint::black_box(n);
                t.elapsed()
            })
            .collect();
        let (fst_ms, _) = spread(times);
        println!(
            "  typo {typo:?} ({} found: {}): as built {hash:.2} ms, read back {sorted:.2} ms; FST {fst_ms:.2} ms",
            found.len(),
            found.iter().take(4).cloned().collect::<Vec<_>>().join(" ")
        );
    }
}

/// Writes `index` out and reads it back, timing each way; returns it read
/// back from a memory-mapped file.
fn on_disk(index: &WordIndex) -> WordIndex {
    let t = Instant::now();
    let mut bytes = Vec::new();
    let written = index.write_to(&mut bytes).expect("write");
    let wrote = t.elapsed();
    let copy: Shared = Arc::new(bytes.clone());
    let t = Instant::now();
    let from_vec = WordIndex::from_bytes(copy).expect("read");
    let read_vec = t.elapsed();
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("words");
    std::fs::write(&path, &bytes).expect("write file");
    drop(bytes);
    let file = std::fs::File::open(&path).expect("open");
    let t = Instant::now();
    let map = paperboat::sys::map(&file).expect("map");
    let shared: Shared = Arc::new(map);
    let mapped = WordIndex::from_bytes(shared).expect("read mapped");
    let read_map = t.elapsed();
    println!(
        "  on disk: {:.0} MB, written in {:.0} ms; read back from a buffer in {:.1} ms \
         ({} KB on the heap), from a memory map in {:.1} ms ({} KB on the heap, {:.0} MB mapped)",
        written as f64 / 1e6,
        ms(wrote),
        ms(read_vec),
        from_vec.heap_bytes() / 1000,
        ms(read_map),
        mapped.heap_bytes() / 1000,
        mapped.shared_bytes() as f64 / 1e6,
    );
    mapped
}

mod baseline {
    use paperboat::corpus::Paper;
    use paperboat::search::masks::words;
    use std::collections::HashMap;

    pub type Vector = Vec<(u32, f32)>;

    /// Unit TF-IDF vectors, word ids sorted.
    pub fn vectors(papers: &[Paper]) -> Vec<Vector> {
        let mut ids: HashMap<String, u32> = HashMap::new();
        let mut df: Vec<u32> = Vec::new();
        let docs: Vec<HashMap<u32, f32>> = papers
            .iter()
            .map(|p| {
                let mut tf = HashMap::new();
                let text = format!("{} {}", p.title, p.abstract_text.text());
                for w in words(&text) {
                    let next = ids.len() as u32;
                    let id = *ids.entry(w).or_insert(next);
                    if id as usize == df.len() {
                        df.push(0);
                    }
                    *tf.entry(id).or_insert(0.0) += 1.0;
                }
                for id in tf.keys() {
                    df[*id as usize] += 1;
                }
                tf
            })
            .collect();
        let n = papers.len() as f32;
        docs.into_iter()
            .map(|tf| {
                let mut v: Vector = tf
                    .into_iter()
                    .map(|(id, c)| (id, c * (n / df[id as usize] as f32).ln()))
                    .collect();
                let norm = v.iter().map(|x| x.1 * x.1).sum::<f32>().sqrt().max(1e-9);
                v.iter_mut().for_each(|x| x.1 /= norm);
                v.sort_by_key(|x| x.0);
                v
            })
            .collect()
    }

    fn dot(a: &Vector, b: &Vector) -> f32 {
        let (mut i, mut j, mut s) = (0, 0, 0.0);
        while i < a.len() && j < b.len() {
            match a[i].0.cmp(&b[j].0) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => {
                    s += a[i].1 * b[j].1;
                    i += 1;
                    j += 1;
                }
            }
        }
        s
    }

    /// The `k` papers closest to paper `i`.
    pub fn top(vectors: &[Vector], i: usize, k: usize) -> Vec<usize> {
        let mut scored: Vec<(f32, usize)> = vectors
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(j, v)| (dot(&vectors[i], v), j))
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        scored.truncate(k);
        scored.into_iter().map(|x| x.1).collect()
    }
}

/// The binary's allocator, so that the numbers are the binary's.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;
