//! What a query asks of the word index, worked out once before a pass:
//! each ranking word's hits (its BM25F score per paper) and, per filter,
//! the papers it lets through.

use nucleo::Matcher;

use super::Scope;
use super::fields::{Field, FieldAtom, FieldValue};
use super::index::Bits;
use super::items::Items;
use super::labels::Labels;
use super::query::{Alt, Filter, Hits, Word};
use super::words::{Part, WordIndex};

/// `word`'s hits among papers `0..n`: its BM25F score in the title,
/// abstract and authors of each paper where a word there starts with it
/// (each of its words, when it has several: `graph-based`). Empty for a
/// word matched in titles only.
pub fn word_hits(index: &WordIndex, word: &Word, n: usize) -> Hits {
    if word.title_only || word.folded.is_empty() {
        return Hits::default();
    }
    let in_title = index
        .papers_with(Part::Title, &word.folded, false, n)
        .into();
    // A word no word of the index starts with (`gnn` in many corpora)
    // scores no paper: no score per paper is made for it (10 MB at 2.7M
    // papers, written at every keystroke).
    if !word.folded.iter().all(|part| index.scores_any(part, false)) {
        return Hits::new(Vec::new(), in_title);
    }
    let mut total = crate::alloc::written_zeros::<f32>(n);
    if let [one] = word.folded.as_slice() {
        scores_over_cores(index, one, &mut total);
        return Hits::new(total, in_title);
    }
    let mut each = crate::alloc::written_zeros::<f32>(n);
    for (k, part) in word.folded.iter().enumerate() {
        each.iter_mut().for_each(|s| *s = 0.0);
        scores_over_cores(index, part, &mut each);
        for (t, &e) in total.iter_mut().zip(&each) {
            // Every part must be there.
            *t = if e > 0.0 && (k == 0 || *t > 0.0) {
                *t + e
            } else {
                0.0
            };
        }
    }
    Hits::new(total, in_title)
}

/// [`WordIndex::add_scores`], the papers split over the cores: a letter
/// just typed can start a tenth of all the words of a million abstracts.
fn scores_over_cores(index: &WordIndex, word: &str, scores: &mut [f32]) {
    const PART_MIN: usize = 262_144;
    let threads = rayon::current_num_threads().max(1);
    if scores.len() < 2 * PART_MIN || threads == 1 {
        index.add_scores(word, false, scores);
        return;
    }
    let part = scores.len().div_ceil(threads);
    rayon::scope(|s| {
        for (k, chunk) in scores.chunks_mut(part).enumerate() {
            s.spawn(move |_| index.add_scores_from(word, false, k * part, chunk));
        }
    });
}

/// The papers of `0..n` that `filter` lets through: those matching any of
/// its choices.
pub fn filter_bits(
    filter: &Filter,
    items: &Items,
    (index, labels): (&WordIndex, &Labels),
    scope: Scope,
    n: usize,
    matcher: &mut Matcher,
) -> Bits {
    let mut out = Bits::new(n);
    for alt in &filter.alts {
        let bits = match alt {
            Alt::Field(f) => field_bits(f, index, labels, n),
            Alt::Word(w) => word_bits(w, items, index, scope, n, matcher),
        };
        out.union(&bits);
    }
    out
}

fn field_bits(f: &FieldAtom, index: &WordIndex, labels: &Labels, n: usize) -> Bits {
    let part = match f.field {
        Field::Author => Part::Authors,
        Field::Venue => Part::Venue,
        Field::Abstract => Part::Abstract,
        // Read as title words by the query.
        Field::Title | Field::Year | Field::Id | Field::Tag | Field::Note => Part::Title,
    };
    let bits = match &f.value {
        FieldValue::Anything => return Bits::full(n),
        FieldValue::Years(lo, hi) => index.papers_in_years(*lo, *hi, n),
        FieldValue::Words { words, whole } if f.field == Field::Tag => {
            labels.papers_tagged(words, *whole, n)
        }
        FieldValue::Words { words, whole } if f.field == Field::Note => {
            labels.papers_noted(words, *whole, n)
        }
        FieldValue::Words { words, .. } if f.field == Field::Id => {
            index.papers_with_id(words.first().map_or("", String::as_str), n)
        }
        FieldValue::Words { words, whole } => index.papers_with(part, words, *whole, n),
    };
    if f.negative { bits.complement(n) } else { bits }
}

/// The papers a word matches on its own: in the title as the title scope
/// matches it, or (every-field scope) by a word hit.
fn word_bits(
    w: &Word,
    items: &Items,
    index: &WordIndex,
    scope: Scope,
    n: usize,
    matcher: &mut Matcher,
) -> Bits {
    let hits = match scope {
        Scope::All => word_hits(index, w, n),
        Scope::Title => Hits::default(),
    };
    let mut bits = Bits::new(n);
    for i in 0..n.min(items.len()) {
        let idx = i as u32;
        let in_title = w.title.score(items.title(i), matcher).is_some();
        let hit = hits.get(idx) > 0.0;
        // A negated word's atom scores where the title lacks it.
        let matched = if w.title.negative {
            in_title && !hit
        } else {
            in_title || hit
        };
        if matched {
            bits.insert(idx);
        }
    }
    bits
}
