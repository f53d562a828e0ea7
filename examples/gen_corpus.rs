//! Writes a realistic synthetic corpus for benchmarks: machine-learning
//! titles and abstracts from a fixed vocabulary, deterministic for a given
//! size, in the seed text format, `lines` (one title per line) or the arXiv
//! metadata snapshot's JSON Lines.
//!
//! ```sh
//! cargo run --release --example gen_corpus -- jsonl 1M /tmp/arxiv-1m.jsonl
//! cargo run --release --example gen_corpus -- lines 100k /tmp/titles-100k.txt
//! cargo run --release --example gen_corpus -- text 10k /tmp/list-10k.txt
//! ```
//!
//! `real` repeats the real arXiv sample of the tests (200 papers, TeX and
//! all) to the size asked for, each copy with ids and titles of its own:
//! real text, which the synthetic vocabulary lacks.
//!
//! ```sh
//! cargo run --release --example gen_corpus -- real 480k /tmp/real-480k.jsonl
//! ```

use std::io::{BufWriter, Write};

const ADJ: &[&str] = &[
    "Sparse",
    "Efficient",
    "Scalable",
    "Robust",
    "Adaptive",
    "Hierarchical",
    "Contrastive",
    "Causal",
    "Latent",
    "Multimodal",
    "Self-Supervised",
    "Federated",
    "Differentiable",
    "Probabilistic",
    "Bayesian",
    "Geometric",
    "Equivariant",
    "Continual",
    "Offline",
    "Few-Shot",
    "Zero-Shot",
    "Long-Context",
    "Low-Rank",
    "Quantized",
    "Distilled",
    "Interpretable",
    "Provable",
    "Stable",
    "Fast",
    "Parameter-Efficient",
    "Diffusion-Based",
    "Retrieval-Augmented",
    "Test-Time",
    "Memory-Efficient",
    "Gradient-Free",
    "Structured",
];
const NOUN: &[&str] = &[
    "Attention",
    "Transformers",
    "Language Models",
    "Diffusion Models",
    "Graph Networks",
    "Reinforcement Learning",
    "Policy Optimization",
    "Representation Learning",
    "Embeddings",
    "Tokenization",
    "Decoding",
    "Reasoning",
    "Planning",
    "Alignment",
    "Preference Optimization",
    "Mixture of Experts",
    "State Space Models",
    "Neural Operators",
    "Kernels",
    "Autoencoders",
    "Vision Transformers",
    "Reward Models",
    "World Models",
    "Agents",
    "Optimizers",
    "Normalizing Flows",
    "Score Matching",
    "Knowledge Distillation",
    "Pruning",
    "Quantization",
    "Speculative Decoding",
    "KV Caches",
    "Chain-of-Thought",
    "In-Context Learning",
];
const TASK: &[&str] = &[
    "Code Generation",
    "Image Synthesis",
    "Protein Folding",
    "Molecule Design",
    "Machine Translation",
    "Question Answering",
    "Time Series Forecasting",
    "Robot Control",
    "Theorem Proving",
    "Mathematical Reasoning",
    "Speech Recognition",
    "Video Understanding",
    "Recommendation",
    "Anomaly Detection",
    "Causal Discovery",
    "Semantic Segmentation",
    "Text Summarization",
    "Program Synthesis",
    "Drug Discovery",
    "Weather Prediction",
    "Tabular Learning",
    "Medical Imaging",
    "Autonomous Driving",
    "Information Retrieval",
];
const PREP: &[&str] = &["for", "via", "with", "in", "under", "beyond", "without"];
const SYLL: &[&str] = &[
    "Spec", "Flow", "Leap", "Orch", "Jail", "Graph", "Link", "Coh", "Pro", "Fed", "Bio", "Token",
    "Think", "Rise", "Arm", "Mix", "Tune", "Sparse", "Net", "Former", "Diff", "Quant", "Lo", "Ra",
];
const VERB: &[&str] = &[
    "improves",
    "reduces",
    "accelerates",
    "stabilizes",
    "generalizes",
    "outperforms",
    "matches",
    "scales",
    "simplifies",
    "unifies",
    "explains",
    "bounds",
];
const OBJ: &[&str] = &[
    "inference cost",
    "sample efficiency",
    "training stability",
    "memory usage",
    "the accuracy of downstream tasks",
    "robustness to distribution shift",
    "the quality of generated samples",
    "long-horizon credit assignment",
    "calibration under uncertainty",
    "throughput on commodity hardware",
];
const DATA: &[&str] = &[
    "ImageNet",
    "GSM8K",
    "MATH",
    "HumanEval",
    "MBPP",
    "GLUE",
    "SuperGLUE",
    "MMLU",
    "COCO",
    "LibriSpeech",
    "D4RL",
    "Atari",
    "OGB",
    "WikiText-103",
    "C4",
    "The Pile",
];
const CATS: &[&str] = &[
    "cs.LG", "cs.CL", "cs.CV", "cs.AI", "stat.ML", "cs.RO", "cs.IR", "cs.NE",
];
const FIRST: &[&str] = &[
    "Wei", "Anna", "Luis", "Priya", "Chen", "Sofia", "Omar", "Yuki", "Elena", "Kwame", "Marta",
    "Ivan", "Aisha", "Tomás", "Hana", "Noah", "Lea", "Ravi", "Mei", "Jonas",
];
const LAST: &[&str] = &[
    "Zhang",
    "Müller",
    "García",
    "Patel",
    "Kim",
    "Rossi",
    "Nguyen",
    "Silva",
    "Kowalski",
    "Okafor",
    "Tanaka",
    "Novak",
    "Haddad",
    "Johansson",
    "Dubois",
    "Singh",
    "Ivanova",
    "Li",
];

/// splitmix64: small, fast, deterministic.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[(self.next() % xs.len() as u64) as usize]
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn method(r: &mut Rng) -> String {
    let n = 2 + r.below(2);
    (0..n).map(|_| r.pick(SYLL)).collect()
}

fn title(r: &mut Rng) -> String {
    // Real lists rarely repeat a title: most carry a method name, a second
    // clause or both, which makes a million draws nearly all distinct.
    let base = base_title(r);
    match r.below(4) {
        0 => base,
        1 => format!("{}: {base}", method(r)),
        2 => format!("{base} {} {}", r.pick(PREP), r.pick(TASK)),
        _ => format!(
            "{}: {base} {} {} {}",
            method(r),
            r.pick(PREP),
            r.pick(ADJ).to_lowercase(),
            r.pick(TASK)
        ),
    }
}

fn base_title(r: &mut Rng) -> String {
    match r.below(5) {
        0 => format!(
            "{}: {} {} for {}",
            method(r),
            r.pick(ADJ),
            r.pick(NOUN),
            r.pick(TASK)
        ),
        1 => format!(
            "{} {} {} {} {}",
            r.pick(ADJ),
            r.pick(NOUN),
            r.pick(PREP),
            r.pick(ADJ).to_lowercase(),
            r.pick(NOUN)
        ),
        2 => format!(
            "Towards {} {} with {}",
            r.pick(ADJ),
            r.pick(TASK),
            r.pick(NOUN)
        ),
        3 => format!(
            "On the {} of {} in {}",
            ["Limits", "Geometry", "Dynamics", "Robustness", "Scaling"][r.below(5) as usize],
            r.pick(NOUN),
            r.pick(TASK)
        ),
        _ => format!(
            "{} {} {} {}",
            r.pick(ADJ),
            r.pick(NOUN),
            r.pick(PREP),
            r.pick(TASK)
        ),
    }
}

fn abstract_text(r: &mut Rng, title: &str) -> String {
    let mut s = String::new();
    let name = title.split(':').next().unwrap_or("our method");
    s.push_str(&format!(
        "{} {} have become central to {}, but their {} remains poorly understood. ",
        r.pick(ADJ),
        r.pick(NOUN).to_lowercase(),
        r.pick(TASK).to_lowercase(),
        r.pick(OBJ)
    ));
    s.push_str(&format!(
        "We propose {name}, a {} {} that {} {} by {}. ",
        r.pick(ADJ).to_lowercase(),
        r.pick(NOUN).to_lowercase(),
        r.pick(VERB),
        r.pick(OBJ),
        [
            "exploiting low-rank structure",
            "reweighting tokens",
            "pruning attention heads",
            "sharing experts across layers",
            "learning a latent prior"
        ][r.below(5) as usize]
    ));
    let n = 3 + r.below(5);
    for _ in 0..n {
        s.push_str(&format!(
            "On {} and {}, it {} {} by {}.{}% over strong {} baselines. ",
            r.pick(DATA),
            r.pick(DATA),
            r.pick(VERB),
            r.pick(OBJ),
            1 + r.below(40),
            r.below(10),
            r.pick(NOUN).to_lowercase()
        ));
    }
    s.push_str(&format!(
        "Our analysis shows that {} {} {} when {} is scarce, and we release code and models.",
        r.pick(ADJ).to_lowercase(),
        r.pick(NOUN).to_lowercase(),
        r.pick(VERB),
        r.pick(OBJ)
    ));
    s
}

fn authors(r: &mut Rng) -> Vec<(String, String)> {
    (0..1 + r.below(7))
        .map(|_| (r.pick(FIRST).to_string(), r.pick(LAST).to_string()))
        .collect()
}

/// JSON string escaping (quotes, backslashes, controls).
fn js(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

/// `n` papers of the real arXiv sample in `tests/data`, repeated: copy `k`
/// has ids and titles of its own (its title ends in ` k`) and no DOI, so
/// that no two papers are one.
fn real(w: &mut impl Write, n: usize) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/corpora/arxiv-snapshot_wanng-ide.jsonl"
    );
    let sample: Vec<serde_json::Map<String, serde_json::Value>> = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for i in 0..n {
        let (k, j) = (i / sample.len(), i % sample.len());
        let mut paper = sample[j].clone();
        let title = paper.get("title").and_then(|t| t.as_str()).unwrap_or("");
        let title = format!("{title} {k}");
        paper.insert("title".into(), title.into());
        let id = format!("{:04}.{:05}", 1000 + k / 100, (k % 100) * 1000 + j);
        paper.insert("id".into(), id.into());
        paper.remove("doi");
        writeln!(w, "{}", serde_json::Value::Object(paper)).unwrap();
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [format, size, out] = args.as_slice() else {
        eprintln!("usage: gen_corpus text|lines|jsonl|real 10k|100k|1M|N OUT");
        std::process::exit(2);
    };
    let n: usize = match size.to_lowercase().as_str() {
        s if s.ends_with('k') => s[..s.len() - 1].parse::<usize>().unwrap() * 1_000,
        s if s.ends_with('m') => s[..s.len() - 1].parse::<usize>().unwrap() * 1_000_000,
        s => s.parse().unwrap(),
    };
    let mut w = BufWriter::with_capacity(1 << 20, std::fs::File::create(out).unwrap());
    if format == "real" {
        real(&mut w, n);
        w.flush().unwrap();
        return;
    }
    let mut r = Rng(0x5eed_0000 + n as u64);
    if format == "text" {
        writeln!(w, "Synthetic ML list ({n} papers)").unwrap();
    }
    for i in 0..n {
        let t = title(&mut r);
        match format.as_str() {
            "lines" => writeln!(w, "{t}").unwrap(),
            "text" => {
                let a = abstract_text(&mut r, &t);
                writeln!(w, "\n{t}\n{a}").unwrap();
            }
            "jsonl" => {
                let a = abstract_text(&mut r, &t);
                let au = authors(&mut r);
                let names: Vec<String> = au.iter().map(|(f, l)| format!("{f} {l}")).collect();
                let parsed: Vec<String> = au
                    .iter()
                    .map(|(f, l)| format!("[{},{},\"\"]", js(l), js(f)))
                    .collect();
                let year = 7 + (i % 19);
                let id = format!("{:02}{:02}.{:05}", year, 1 + i % 12, i % 100_000);
                // Wrapped and indented like the real snapshot.
                let wrapped: String = a
                    .split(' ')
                    .enumerate()
                    .map(|(k, word)| {
                        if k > 0 && k % 12 == 0 {
                            format!("\n  {word}")
                        } else {
                            format!(" {word}")
                        }
                    })
                    .collect();
                writeln!(
                    w,
                    "{{\"id\":{},\"submitter\":{},\"authors\":{},\"title\":{},\"comments\":\"{} pages, {} figures\",\"journal-ref\":null,\"doi\":null,\"report-no\":null,\"categories\":{},\"license\":\"http://arxiv.org/licenses/nonexclusive-distrib/1.0/\",\"abstract\":{},\"versions\":[{{\"version\":\"v1\",\"created\":\"Mon, {} Jan 20{:02} 10:00:00 GMT\"}}],\"update_date\":\"20{:02}-01-{:02}\",\"authors_parsed\":[{}]}}",
                    js(&id),
                    js(&names[0]),
                    js(&names.join(", ")),
                    js(&format!("  {t}")),
                    8 + r.below(20),
                    1 + r.below(9),
                    js(&format!("{} {}", r.pick(CATS), r.pick(CATS))),
                    js(&format!("{wrapped}\n")),
                    1 + i % 28,
                    year,
                    year,
                    1 + i % 28,
                    parsed.join(","),
                )
                .unwrap();
            }
            other => {
                eprintln!("unknown format {other}");
                std::process::exit(2);
            }
        }
    }
    w.flush().unwrap();
}
