//! Papers like a paper ("more like this"), like a text, or like a set of
//! papers (a reading list): ranked by the words they share, a word and
//! its other forms (one Snowball stem) counting as one, weighted by how
//! rare each word is.

use rustc_hash::FxHashMap;

use super::fields::for_each_folded;
use super::words::{Forms, WordIndex, stem};
use super::{Search, index_papers};
use crate::corpus::{Paper, PaperAt};
use crate::text::markup;

/// What related papers are asked for.
#[derive(Clone, Copy, Debug)]
pub enum Probe<'a> {
    /// Papers like paper `idx` (itself left out).
    Paper(usize),
    /// Papers like these together (they are left out).
    Papers(&'a [usize]),
    /// Papers like a free text.
    Text(&'a str),
}

/// A related paper: its index and how alike (higher is closer).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Related {
    pub idx: usize,
    pub score: f32,
}

/// The text a paper is compared by: its title and abstract, markup
/// removed.
pub fn paper_text(p: &Paper) -> String {
    let mut s = markup::plain_cow(&p.title).into_owned();
    s.push('\n');
    s.push_str(&markup::plain_cow(&p.abstract_text.text()));
    s
}

/// Words of the probe that rank (the rarest and most repeated). On the
/// quality bench's arXiv list, 40 words put 20% of the top 5 in the
/// paper's category and 100 words 22% (a TF-IDF cosine over every word:
/// 20%); more words cost time for little.
const PROBE_WORDS: usize = 100;

/// How much a probe's authors weigh beside its words (whose weights have
/// unit length).
const AUTHOR_SHARE: f32 = 0.5;

/// Ranks `papers` by likeness to `probe`, best first, at most `limit`,
/// only papers `keep` accepts (the probe's own papers never), on the
/// caller's thread: builds the word index, then as [`related_in`].
pub fn related_papers(
    papers: &[Paper],
    probe: Probe<'_>,
    limit: usize,
    keep: &dyn Fn(usize) -> bool,
) -> Vec<Related> {
    related_in(&index_papers(papers), papers, probe, limit, keep)
}

/// The probe's words by stem, each weighted by how often it says a form
/// of it and how rare its forms are (TF-IDF, each probe paper counting
/// the same), strongest first: a form the probe says, the forms in the
/// index, and the weight.
fn probe_words<'i>(index: &'i WordIndex, texts: &[String]) -> Vec<(f32, Forms<'i>)> {
    // Stem → (the form said most, how often each form is said).
    let mut counts: Vec<FxHashMap<String, FxHashMap<String, f32>>> = Vec::new();
    let mut buf = String::new();
    for text in texts {
        let mut tf: FxHashMap<String, FxHashMap<String, f32>> = FxHashMap::default();
        for_each_folded(text, &mut buf, |w| {
            *tf.entry(stem(w).into_owned())
                .or_default()
                .entry(w.to_string())
                .or_default() += 1.0;
        });
        counts.push(tf);
    }
    // Each stem's forms in the index, looked up at once.
    let mut stems: Vec<(&String, String)> = counts
        .iter()
        .flatten()
        .map(|(s, forms)| {
            let said = forms
                .iter()
                .max_by(|a, b| a.1.total_cmp(b.1).then_with(|| b.0.cmp(a.0)))
                .map_or_else(String::new, |f| f.0.clone());
            (s, said)
        })
        .collect();
    stems.sort();
    stems.dedup_by(|a, b| a.0 == b.0);
    let said: Vec<String> = stems.iter().map(|s| s.1.clone()).collect();
    let forms = index.forms_of(&said);
    let at: FxHashMap<&String, usize> = stems.iter().enumerate().map(|(k, s)| (s.0, k)).collect();
    let mut total = vec![0.0f32; stems.len()];
    for tf in &counts {
        let weighted: Vec<(usize, f32)> = tf
            .iter()
            .filter_map(|(s, forms_said)| {
                let k = *at.get(s)?;
                let df = forms[k].df();
                // A word no other paper has cannot bring one closer.
                (df > 0).then(|| {
                    let c: f32 = forms_said.values().sum();
                    (k, (1.0 + c.ln()) * index.idf(df.min(index.indexed)))
                })
            })
            .collect();
        let norm = weighted.iter().map(|(_, x)| x * x).sum::<f32>().sqrt();
        for (k, x) in weighted {
            total[k] += x / norm.max(1e-6);
        }
    }
    let mut order: Vec<usize> = (0..stems.len()).filter(|&k| total[k] > 0.0).collect();
    order.sort_by(|&a, &b| {
        total[b]
            .total_cmp(&total[a])
            .then_with(|| stems[a].0.cmp(stems[b].0))
    });
    order.truncate(PROBE_WORDS);
    let mut forms: Vec<Option<Forms<'i>>> = forms.into_iter().map(Some).collect();
    order
        .into_iter()
        .filter_map(|k| Some((total[k], forms[k].take()?)))
        .collect()
}

/// [`related_papers`] with the word index built: each paper scores the
/// sum, over the probe's strongest words (by stem), of the word's weight
/// in the probe times the BM25F weight of its forms in the paper (title
/// and abstract) times their idf.
pub fn related_in(
    index: &WordIndex,
    papers: &(impl PaperAt + ?Sized),
    probe: Probe<'_>,
    limit: usize,
    keep: &dyn Fn(usize) -> bool,
) -> Vec<Related> {
    let n = index.indexed.min(papers.count());
    let (texts, own): (Vec<String>, Vec<usize>) = match probe {
        Probe::Paper(i) => (
            papers.paper_at(i).map(paper_text).into_iter().collect(),
            vec![i],
        ),
        Probe::Papers(set) => (
            set.iter()
                .filter_map(|&i| papers.paper_at(i))
                .map(paper_text)
                .collect(),
            set.to_vec(),
        ),
        Probe::Text(t) => (vec![t.to_string()], Vec::new()),
    };
    let mut scores = vec![0.0f32; n];
    for (weight, forms) in probe_words(index, &texts) {
        let idf = index.idf(forms.df().min(index.indexed));
        index.add_forms_weights(&forms, weight * idf, &mut scores);
    }
    // The probe papers' authors: a paper by the same people is likely on
    // the same subject. Their names' words weigh as much together as
    // [`AUTHOR_SHARE`] of the words' (a name's first word, common, by its
    // low idf little).
    let mut names: Vec<String> = Vec::new();
    let mut buf = String::new();
    for p in own.iter().filter_map(|&i| papers.paper_at(i)) {
        for name in p.authors.iter() {
            for_each_folded(name, &mut buf, |w| {
                if w.chars().count() >= 3 {
                    names.push(w.to_string());
                }
            });
        }
    }
    names.sort();
    names.dedup();
    let share = AUTHOR_SHARE / (names.len() as f32).sqrt().max(1.0);
    for w in &names {
        let df = index.author_frequency(w);
        if df > 1 {
            index.add_author_weights(w, share * index.idf(df), &mut scores);
        }
    }
    for &i in &own {
        if let Some(s) = scores.get_mut(i) {
            *s = 0.0;
        }
    }
    let mut out: Vec<Related> = scores
        .iter()
        .enumerate()
        .filter(|&(i, &s)| s > 0.0 && keep(i))
        .map(|(idx, &score)| Related { idx, score })
        .collect();
    let best = |a: &Related, b: &Related| b.score.total_cmp(&a.score).then(a.idx.cmp(&b.idx));
    if out.len() > limit && limit > 0 {
        out.select_nth_unstable_by(limit - 1, best);
    }
    out.truncate(limit);
    out.sort_by(best);
    out
}

impl Search {
    /// [`related_papers`] among `papers` (the papers this search was given,
    /// in the same order), with the word index built so far (papers not
    /// yet indexed are not found: see [`Search::indexed`]).
    pub fn related(
        &self,
        papers: &(impl PaperAt + ?Sized),
        probe: Probe<'_>,
        limit: usize,
        keep: &dyn Fn(usize) -> bool,
    ) -> Vec<Related> {
        match self.shared.index.read() {
            Ok(ix) => related_in(&ix, papers, probe, limit, keep),
            Err(_) => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::tests::paper;

    fn corpus() -> Vec<Paper> {
        vec![
            paper(
                "Sparse attention for long contexts",
                "We make transformer attention sparse so long documents fit.",
            ),
            paper(
                "Protein folding with diffusion",
                "A diffusion model predicts protein structure from sequence.",
            ),
            paper(
                "Linear attention transformers",
                "Attention in linear time lets transformers read long documents.",
            ),
            paper(
                "Diffusion for molecules",
                "Diffusion models generate molecules and protein binders.",
            ),
            paper(
                "Graph colouring",
                "Colouring sparse graphs with few colours.",
            ),
        ]
    }

    fn ids(r: &[Related]) -> Vec<usize> {
        r.iter().map(|r| r.idx).collect()
    }

    #[test]
    fn like_a_paper_best_first_without_itself() {
        let c = corpus();
        let r = related_papers(&c, Probe::Paper(0), 10, &|_| true);
        assert_eq!(r[0].idx, 2, "{r:?}");
        assert!(!ids(&r).contains(&0));
        assert!(r.windows(2).all(|w| w[0].score >= w[1].score));
        let r = related_papers(&c, Probe::Paper(1), 1, &|_| true);
        assert_eq!(ids(&r), vec![3]);
    }

    #[test]
    fn a_paper_by_the_same_authors_comes_closer() {
        let by = |title: &str, abs: &str, authors: &[&str]| {
            crate::corpus::Record {
                title: Some(title.into()),
                abstract_text: Some(abs.into()),
                authors: authors.iter().map(|a| a.to_string()).collect(),
                ..Default::default()
            }
            .into_paper(&"t".into(), 0)
            .unwrap()
        };
        let c = vec![
            by(
                "Sparse codes",
                "Codes that are sparse.",
                &["Ada Quokkasson"],
            ),
            by("Dense codes", "Codes that are dense.", &["Bo Wombat"]),
            by(
                "Dense codes again",
                "Codes that are dense.",
                &["Ada Quokkasson"],
            ),
            by("Unrelated", "Nothing here.", &["Bo Wombat"]),
        ];
        let r = related_papers(&c, Probe::Paper(0), 3, &|_| true);
        assert_eq!(r[0].idx, 2, "{r:?}");
        // The same words, no author shared: further.
        assert!(r.iter().any(|x| x.idx == 1));
    }

    #[test]
    fn like_a_text_and_like_a_set() {
        let c = corpus();
        let r = related_papers(
            &c,
            Probe::Text("protein structure from sequence"),
            2,
            &|_| true,
        );
        assert_eq!(r[0].idx, 1, "{r:?}");
        let r = related_papers(&c, Probe::Papers(&[0, 2]), 10, &|i| i != 4);
        assert!(!ids(&r).iter().any(|i| [0, 2, 4].contains(i)), "{r:?}");
        assert!(!r.is_empty());
        assert!(related_papers(&c, Probe::Text("zebra"), 5, &|_| true).is_empty());
    }
}
