//! What the word-level measures need of a corpus: its words (folded as
//! the word index folds them) grouped by Snowball stem, which papers hold
//! each, and the queries made from them: other forms of a title word,
//! and one typo in one.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use paperboat::corpus::Paper;
use paperboat::search::fields::fold;
use paperboat::search::words::stem;
use paperboat::text::markup::plain_cow;

use crate::queries::{Rng, words};

/// A corpus's words.
pub struct Vocab {
    /// Stem → the words (folded) of titles and abstracts with it.
    pub forms: BTreeMap<String, BTreeSet<String>>,
    /// Word (folded) → the papers whose title or abstract holds it.
    pub held: HashMap<String, BTreeSet<u32>>,
    /// Word (folded) → the papers whose author names hold it.
    pub authors: HashMap<String, BTreeSet<u32>>,
}

/// `text`'s words, folded as the index folds them.
pub fn folded(text: &str) -> Vec<String> {
    words(text).iter().map(|w| fold(w).into_owned()).collect()
}

impl Vocab {
    pub fn new(papers: &[Paper]) -> Vocab {
        let mut v = Vocab {
            forms: BTreeMap::new(),
            held: HashMap::new(),
            authors: HashMap::new(),
        };
        for (i, p) in papers.iter().enumerate() {
            let text = format!(
                "{}\n{}",
                plain_cow(&p.title),
                plain_cow(&p.abstract_text.text())
            );
            for w in folded(&text) {
                v.forms
                    .entry(stem(&w).into_owned())
                    .or_default()
                    .insert(w.clone());
                v.held.entry(w).or_default().insert(i as u32);
            }
            for name in p.authors.iter() {
                for w in folded(name) {
                    v.authors.entry(w).or_default().insert(i as u32);
                }
            }
        }
        v
    }

    /// The papers holding `word` (folded) or another form of it in their
    /// title or abstract, or the word itself in their authors' names:
    /// what a word query should find.
    pub fn truth(&self, word: &str) -> BTreeSet<u32> {
        let mut out: BTreeSet<u32> = self.authors.get(word).cloned().unwrap_or_default();
        if let Some(forms) = self.forms.get(stem(word).as_ref()) {
            for f in forms {
                out.extend(self.held.get(f).into_iter().flatten());
            }
        }
        out
    }

    /// True when some paper holds `word` (folded).
    pub fn has(&self, word: &str) -> bool {
        self.held.contains_key(word) || self.authors.contains_key(word)
    }

    /// Another form of `word` that some paper holds, none of `avoid`.
    pub fn other_form(&self, word: &str, avoid: &[String], rng: &mut Rng) -> Option<String> {
        let forms = self.forms.get(stem(word).as_ref())?;
        let others: Vec<&String> = forms
            .iter()
            .filter(|f| f.as_str() != word && !avoid.contains(f) && f.chars().count() >= 3)
            .collect();
        (!others.is_empty()).then(|| others[rng.below(others.len())].clone())
    }
}

/// `word` with one edit at random (a letter dropped, added, changed, or
/// two side by side swapped), such that no paper holds what it makes;
/// `None` after a few tries.
pub fn typo(word: &str, vocab: &Vocab, rng: &mut Rng) -> Option<String> {
    let letters: Vec<char> = word.chars().collect();
    if letters.len() < 5 || !word.bytes().all(|b| b.is_ascii_lowercase()) {
        return None;
    }
    for _ in 0..12 {
        let mut w = letters.clone();
        let at = rng.below(w.len());
        let other = (b'a' + rng.below(26) as u8) as char;
        match rng.below(4) {
            0 => {
                w.remove(at);
            }
            1 => w.insert(at, other),
            2 => w[at] = other,
            _ if at + 1 < w.len() => w.swap(at, at + 1),
            _ => w.swap(at - 1, at),
        }
        let w: String = w.into_iter().collect();
        if w != word && !vocab.has(&w) && stem(&w) != stem(word) {
            return Some(w);
        }
    }
    None
}

/// Ordinary content words of a corpus to query, at most `k`: held by two
/// papers or more and by at most a tenth of them, 4+ letters, a reader's
/// word (not a stop word, not only digits).
pub fn ordinary(vocab: &Vocab, n: usize, k: usize, rng: &mut Rng) -> Vec<String> {
    let mut all: Vec<&String> = vocab
        .held
        .iter()
        .filter(|(w, papers)| {
            papers.len() >= 2
                && papers.len() * 10 <= n.max(20)
                && w.chars().count() >= 4
                && crate::queries::content(w)
        })
        .map(|(w, _)| w)
        .collect();
    all.sort();
    rng.choose(&all, k.min(all.len()))
        .into_iter()
        .cloned()
        .collect()
}
