//! Related papers on the arXiv sample: how many of a paper's five closest
//! share its arXiv category, and whether the first sentence of its
//! abstract finds it.

use paperboat::corpus::Paper;
use paperboat::search::{Probe, paper_text, related_papers};
use paperboat::text::markup::plain_cow;
use unicode_segmentation::UnicodeSegmentation;

use crate::baselines::{Index, top};
use crate::pct;
use crate::queries::words;
use paperboat::search::words::stem;

/// The first sentence of a paper's abstract, markup removed.
fn first_sentence(p: &Paper) -> String {
    let text = plain_cow(&p.abstract_text.text()).into_owned();
    text.unicode_sentences()
        .next()
        .unwrap_or("")
        .trim()
        .to_string()
}

pub fn related(path: &str) {
    let Some(c) = crate::load_or_say(path) else {
        return;
    };
    // Primary category of each paper.
    let primary: Vec<Option<String>> = c
        .papers
        .iter()
        .map(|p| p.more().categories.first().cloned())
        .collect();
    let archive = |cat: &str| cat.split('.').next().unwrap_or(cat).to_string();
    let known: Vec<usize> = (0..c.papers.len())
        .filter(|&i| primary[i].is_some())
        .collect();
    println!(
        "\n== Related papers: {} ({} papers, {} with a primary category, {} categories)",
        c.name,
        c.papers.len(),
        known.len(),
        {
            let mut u: Vec<&String> = primary.iter().flatten().collect();
            u.sort();
            u.dedup();
            u.len()
        }
    );
    println!(
        "  same category / archive: share of the top 5 in the paper's primary category / its archive"
    );
    println!("  own first sentence: the paper ranked first for the first sentence of its abstract");
    println!(
        "  {:<20} {:>13} {:>12} {:>19}",
        "system", "same category", "same archive", "own first sentence"
    );
    let k = 5;
    let names = ["paperboat related", "TF-IDF", "TF-IDF, stemmed", "BM25"];
    // The baselines over stemmed words (Snowball, as paperboat stems).
    let stems =
        |text: &str| -> Vec<String> { words(text).iter().map(|w| stem(w).into_owned()).collect() };
    let stemmed = Index::new(c.papers.iter().map(|p| stems(&paper_text(p)).join(" ")));
    for (s, name) in names.iter().enumerate() {
        let (mut cat, mut arch, mut first) = (0usize, 0usize, 0usize);
        for &i in &known {
            let pc = primary[i].as_deref().unwrap_or("");
            let own_words = words(&paper_text(&c.papers[i]));
            let without = |v: Vec<(u32, f64)>| {
                v.into_iter()
                    .filter(|(d, _)| *d as usize != i)
                    .collect::<Vec<_>>()
            };
            let like: Vec<usize> = match s {
                0 => related_papers(&c.papers, Probe::Paper(i), k, &|_| true)
                    .into_iter()
                    .map(|r| r.idx)
                    .collect(),
                1 => top(without(c.index.tfidf(&own_words)), k),
                2 => top(without(stemmed.tfidf(&stems(&paper_text(&c.papers[i])))), k),
                _ => top(without(c.index.bm25(&own_words)), k),
            };
            for j in like {
                let jc = primary[j].as_deref().unwrap_or("");
                cat += usize::from(jc == pc);
                arch += usize::from(archive(jc) == archive(pc));
            }
            let sentence = first_sentence(&c.papers[i]);
            let sw = words(&sentence);
            let best = match s {
                0 => related_papers(&c.papers, Probe::Text(&sentence), 1, &|_| true)
                    .first()
                    .map(|r| r.idx),
                1 => top(c.index.tfidf(&sw), 1).first().copied(),
                2 => top(stemmed.tfidf(&stems(&sentence)), 1).first().copied(),
                _ => top(c.index.bm25(&sw), 1).first().copied(),
            };
            first += usize::from(best.is_some_and(|b| c.group[b] == c.group[i]));
        }
        println!(
            "  {:<20} {:>13} {:>12} {:>19}",
            name,
            pct(cat, known.len() * k),
            pct(arch, known.len() * k),
            pct(first, known.len())
        );
    }
    // What five papers drawn at random would share.
    let (mut cat, mut arch) = (0usize, 0usize);
    for &i in &known {
        for &j in &known {
            if i != j {
                let (pi, pj) = (primary[i].as_deref(), primary[j].as_deref());
                cat += usize::from(pi == pj);
                arch += usize::from(pi.map(archive) == pj.map(archive));
            }
        }
    }
    let pairs = known.len() * known.len().saturating_sub(1);
    println!(
        "  {:<20} {:>13} {:>12} {:>19}",
        "random (expected)",
        pct(cat, pairs),
        pct(arch, pairs),
        pct(1, known.len())
    );
}
