//! Phrases (`"graph neural"`): of the papers holding each of a phrase's
//! words (the word index says which), those whose title or abstract has
//! them side by side and in order, each as written or in another form
//! (`"graph neural network"` finds "graph neural networks"). The index
//! keeps no word positions (they would cost more than the index itself),
//! so the candidates' texts are read again and checked, on every core:
//! a phrase's words together are held by few papers.

use std::sync::Arc;

use super::fields::for_each_folded;
use super::items::Items;
use super::query::{Hits, Word};
use super::words::stem;
use crate::corpus::{Abstract, Papers};

/// Where the texts of papers are read for phrases: the abstracts given
/// with the papers, or the papers themselves (left in the cache).
#[derive(Clone, Default)]
pub enum Texts {
    /// No abstract is known: phrases are looked for in titles alone.
    #[default]
    None,
    /// Paper `i`'s abstract is `held[i]`.
    Held(Vec<Abstract>),
    /// Paper `i`'s abstract is `papers[i]`'s.
    Stored(Papers),
}

impl Texts {
    /// Calls `f` with paper `i`'s abstract, if it is known and can be
    /// read.
    pub fn with_abstract(&self, i: usize, f: &mut dyn FnMut(&str)) {
        let a = match self {
            Texts::None => None,
            Texts::Held(all) => all.get(i),
            Texts::Stored(papers) => papers.get(i).map(|p| &p.abstract_text),
        };
        if let Some(Ok(text)) = a.map(Abstract::read) {
            f(&crate::text::markup::plain_cow(&text));
        }
    }

    /// Keeps `abstracts` as papers `first..`'s (held texts only).
    pub fn set(&mut self, first: usize, abstracts: &[Abstract]) {
        if let Texts::Stored(_) = self {
            return;
        }
        if let Texts::None = self {
            *self = Texts::Held(Vec::new());
        }
        if let Texts::Held(all) = self {
            if all.len() < first + abstracts.len() {
                all.resize(first + abstracts.len(), Abstract::default());
            }
            all[first..first + abstracts.len()].clone_from_slice(abstracts);
        }
    }
}

/// A phrase's words, each with its stem, ready to be looked for.
struct Phrase {
    words: Vec<(String, String)>,
}

impl Phrase {
    fn new(word: &Word) -> Phrase {
        Phrase {
            words: word
                .folded
                .iter()
                .map(|w| (w.clone(), stem(w).into_owned()))
                .collect(),
        }
    }

    /// Whether `text` has the phrase's words side by side, in order.
    fn stands_in(&self, text: &str) -> bool {
        let n = self.words.len();
        if n == 0 {
            return false;
        }
        // How many of the phrase's words the text's last words matched,
        // for each place the phrase could have started (a word can start
        // it again while it is being matched: "a a b").
        let mut open: Vec<usize> = Vec::new();
        let mut found = false;
        let mut buf = String::new();
        for_each_folded(text, &mut buf, |t| {
            if found {
                return;
            }
            let matches = |k: usize| {
                let (w, s) = &self.words[k];
                t == w || (t.as_bytes().first() == s.as_bytes().first() && stem(t) == *s)
            };
            open.retain_mut(|k| {
                let ok = matches(*k);
                *k += 1;
                ok
            });
            if matches(0) {
                open.push(1);
            }
            found = open.contains(&n);
        });
        found
    }
}

/// Keeps in `hits` (a phrase's: the papers holding all of its words)
/// only the papers whose title (from `items`) or abstract (from `texts`)
/// has the phrase.
pub(super) fn verify(hits: &mut Hits, word: &Word, items: &Items, texts: &Texts) {
    let phrase = Phrase::new(word);
    let scores: &[f32] = &hits.scores;
    let candidates: Vec<u32> = (0..scores.len() as u32)
        .filter(|&i| scores[i as usize] > 0.0)
        .collect();
    let keep = crate::parallel::map_split(&candidates, crate::parallel::threads(), |_, part| {
        let mut title = String::new();
        part.iter()
            .map(|&i| {
                let i = i as usize;
                title.clear();
                if i < items.len() {
                    title.extend(items.title(i).chars());
                }
                let mut stands = phrase.stands_in(&title);
                if !stands {
                    texts.with_abstract(i, &mut |a| stands = phrase.stands_in(a));
                }
                stands
            })
            .collect::<Vec<bool>>()
    });
    let mut kept = scores.to_vec();
    for (&i, stands) in candidates.iter().zip(keep.into_iter().flatten()) {
        if !stands {
            kept[i as usize] = 0.0;
        }
    }
    hits.count = kept.iter().filter(|&&s| s > 0.0).count();
    hits.scores = Arc::new(kept);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Query;

    fn phrase(q: &str) -> Phrase {
        Phrase::new(&Query::parse(q).words[0])
    }

    #[test]
    fn a_phrase_stands_where_its_words_are_side_by_side_in_any_form() {
        let p = phrase("\"graph neural network\"");
        assert!(p.stands_in("We train Graph Neural Networks on molecules."));
        assert!(p.stands_in("graph-neural-network"));
        assert!(!p.stands_in("a graph, a neural network"));
        assert!(!p.stands_in("neural graph network"));
        assert!(!p.stands_in("graph neural"));
        // A start that fails does not hide the one inside it.
        assert!(phrase("\"a a b\"").stands_in("x a a a b y"));
        // Not a word it merely starts.
        assert!(!phrase("\"graph neural\"").stands_in("graphene neural"));
    }
}
