//! A word's forms in titles and abstracts, for many words at once: what
//! related papers weigh a probe's words by. A probe has a hundred words;
//! an index being built keeps its words in a hash map, which is gone
//! through once for all of them (a prefix lookup a word would go through
//! it a hundred times), an index read back looks each up by binary search.

use rustc_hash::FxHashMap;

use super::terms::{forms_lead, stem};
use super::{K1, Part, WEIGHTED, WordIndex, Words};

/// The postings of the words holding one stem, in the title (0) and the
/// abstract (1).
#[derive(Default)]
pub struct Forms<'a> {
    pub fields: [Vec<&'a [u32]>; 2],
}

impl Forms<'_> {
    /// The papers holding a form in the field where most do (at most:
    /// a paper holding two forms counts twice).
    pub fn df(&self) -> usize {
        self.fields
            .iter()
            .map(|f| f.iter().map(|p| p.len()).sum::<usize>())
            .max()
            .unwrap_or(0)
    }
}

impl WordIndex {
    /// For each of `words` (folded), the title's and abstract's words
    /// with its stem, the word itself among them.
    pub fn forms_of(&self, words: &[String]) -> Vec<Forms<'_>> {
        let stems: Vec<String> = words.iter().map(|w| stem(w).into_owned()).collect();
        let leads: Vec<&str> = words
            .iter()
            .zip(&stems)
            .map(|(w, s)| forms_lead(w, s))
            .collect();
        let mut out: Vec<Forms<'_>> = words.iter().map(|_| Forms::default()).collect();
        for (k, part) in [Part::Title, Part::Abstract].into_iter().enumerate() {
            match &self.parts[part as usize] {
                Words::Hash(map) => {
                    // The words asked by their lead's first two bytes.
                    let mut by: FxHashMap<&[u8], Vec<usize>> = FxHashMap::default();
                    for (i, lead) in leads.iter().enumerate() {
                        by.entry(&lead.as_bytes()[..lead.len().min(2)])
                            .or_default()
                            .push(i);
                    }
                    for (t, postings) in map {
                        let Some(asked) = by.get(&t.as_bytes()[..t.len().min(2)]) else {
                            continue;
                        };
                        let mut t_stem = None;
                        for &i in asked {
                            if t.starts_with(leads[i])
                                && *t_stem.get_or_insert_with(|| stem(t)) == *stems[i]
                            {
                                out[i].fields[k].push(postings.as_slice());
                            }
                        }
                    }
                }
                words => {
                    for (i, lead) in leads.iter().enumerate() {
                        words.each_with(lead, false, true, |t, postings| {
                            if stem(t) == *stems[i] {
                                out[i].fields[k].push(postings);
                            }
                        });
                    }
                }
            }
        }
        out
    }

    /// Adds `weight` times paper `i`'s BM25 weight of `forms` in its
    /// title and abstract (each field weighted) to `scores[i]`, for every
    /// paper holding one.
    pub fn add_forms_weights(&self, forms: &Forms<'_>, weight: f32, scores: &mut [f32]) {
        for (k, lists) in forms.fields.iter().enumerate() {
            for postings in lists {
                self.add_postings_weights(k, postings, weight, scores);
            }
        }
    }

    /// Adds `weight` times paper `i`'s BM25 weight of `word` (folded) in
    /// its authors' names to `scores[i]`, for every paper with it; the
    /// papers with it.
    pub fn add_author_weights(&self, word: &str, weight: f32, scores: &mut [f32]) -> usize {
        let Some(postings) = self.parts[Part::Authors as usize].get(word) else {
            return 0;
        };
        self.add_postings_weights(2, postings, weight, scores);
        postings.len()
    }

    /// Every distinct word of the title, abstract and authors, sorted:
    /// the vocabulary a typo is looked up in (for the words bench's
    /// comparison with an FST of it).
    pub fn scored_words(&self) -> Vec<String> {
        let mut all: Vec<String> = [Part::Title, Part::Abstract, Part::Authors]
            .iter()
            .flat_map(|&p| self.parts[p as usize].sorted())
            .filter_map(|(w, _)| std::str::from_utf8(w).ok().map(str::to_string))
            .collect();
        all.sort_unstable();
        all.dedup();
        all
    }

    /// The papers whose authors' names hold `word` (folded).
    pub fn author_frequency(&self, word: &str) -> usize {
        self.parts[Part::Authors as usize]
            .get(word)
            .map_or(0, <[u32]>::len)
    }

    /// Adds `weight` times the BM25 weight in field `k` (0 title, 1
    /// abstract) of the word of `postings` to the scores of the papers
    /// holding it.
    pub(super) fn add_postings_weights(
        &self,
        k: usize,
        postings: &[u32],
        weight: f32,
        scores: &mut [f32],
    ) {
        let lens = self.lens();
        let (_, field_weight, b) = WEIGHTED[k];
        let avg = self.average(k);
        let w = weight * field_weight;
        for &p in postings {
            let i = (p >> 8) as usize;
            let Some(score) = scores.get_mut(i) else {
                break;
            };
            let tf = (p & 0xff) as f32;
            let norm = 1.0 - b + b * lens.of(k, i) / avg;
            *score += w * tf * (K1 + 1.0) / (tf + K1 * norm);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_are_found_alike_in_a_hash_map_and_in_sorted_words() {
        let mut built = WordIndex::default();
        for (i, a) in [
            "networks of graphs",
            "a network studied",
            "studies of networking",
            "graphene",
        ]
        .iter()
        .enumerate()
        {
            built.add(i as u32, &super::super::DocMeta::default(), a);
        }
        let mut bytes = Vec::new();
        built.write_to(&mut bytes).unwrap();
        let back = WordIndex::from_bytes(std::sync::Arc::new(bytes)).unwrap();
        let asked = ["network".to_string(), "study".into(), "graph".into()];
        for ix in [&built, &back] {
            let f = ix.forms_of(&asked);
            // networks, network, networking: three papers.
            assert_eq!(f[0].df(), 3);
            assert_eq!(f[1].df(), 2, "studied, studies");
            assert_eq!(f[2].df(), 1, "graphs, not graphene");
            let mut scores = vec![0.0; 4];
            ix.add_forms_weights(&f[0], 1.0, &mut scores);
            assert!(scores[..3].iter().all(|&s| s > 0.0) && scores[3] == 0.0);
        }
    }
}
