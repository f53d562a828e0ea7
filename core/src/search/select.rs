//! What a query asks of the word index, worked out once before a pass:
//! each ranking word's hits (its BM25F score per paper) and, per filter,
//! the papers it lets through.

use nucleo::Matcher;

use super::Scope;
use super::fields::{Field, FieldAtom, FieldValue};
use super::items::Items;
use super::labels::Labels;
use super::masks::Bits;
use super::query::{Alt, Filter, Hits, Word};
use super::words::{Part, Reading, Terms, Widened, WordIndex};

/// `word`'s hits among papers `0..n`: its BM25F score in the title,
/// abstract and authors of each paper that holds a word it matches (see
/// [`Reading`]; each of its words, when it has several: `graph-based`).
/// Empty for a word matched in titles only.
pub fn word_hits(index: &WordIndex, word: &Word, n: usize) -> Hits {
    if word.title_only || word.folded.is_empty() {
        return Hits::default();
    }
    let covered = index.indexed.min(n);
    let last = word.folded.len() - 1;
    // Each part's terms: the last read as the word is, those before it
    // finished (followed by a hyphen).
    let parts: Vec<Terms<'_>> = word
        .folded
        .iter()
        .enumerate()
        .map(|(k, part)| {
            let reading = match word.reading {
                Reading::Typing if k < last => Reading::Whole,
                r => r,
            };
            index.terms(part, reading, word.fields)
        })
        .collect();
    let widened = parts
        .iter()
        .map(|t| t.widened.clone())
        .find(|w| *w != Widened::No)
        .unwrap_or_default();
    let mut in_title = Bits::new(n);
    for t in &parts {
        let mut these = Bits::new(n);
        for postings in t.title_postings() {
            for &p in postings {
                if (p >> 8) as usize >= n {
                    break;
                }
                these.insert(p >> 8);
            }
        }
        in_title.union(&these);
    }
    // A word no paper holds (`gnn` in many corpora) scores no paper: no
    // score per paper is made for it (10 MB at 2.7M papers, written at
    // every keystroke).
    if parts.iter().any(Terms::is_empty) {
        let mut hits = Hits::new(Vec::new(), in_title.into(), (covered, n));
        hits.widened = widened;
        return hits;
    }
    let mut total = crate::alloc::written_zeros::<f32>(n);
    if let [one] = parts.as_slice() {
        scores_over_cores(index, one, &mut total);
    } else {
        let mut each = crate::alloc::written_zeros::<f32>(n);
        for (k, part) in parts.iter().enumerate() {
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
    }
    let mut hits = Hits::new(total, in_title.into(), (covered, n));
    hits.widened = widened;
    hits
}

/// [`WordIndex::add_terms_from`], the papers split over the cores: a
/// letter just typed can start a tenth of all the words of a million
/// abstracts.
fn scores_over_cores(index: &WordIndex, terms: &Terms<'_>, scores: &mut [f32]) {
    const PART_MIN: usize = 262_144;
    let threads = rayon::current_num_threads().max(1);
    if scores.len() < 2 * PART_MIN || threads == 1 {
        index.add_terms_from(terms, 0, scores);
        return;
    }
    let part = scores.len().div_ceil(threads);
    rayon::scope(|s| {
        for (k, chunk) in scores.chunks_mut(part).enumerate() {
            s.spawn(move |_| index.add_terms_from(terms, k * part, chunk));
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
        Field::Keyword => Part::Keywords,
        Field::Category => Part::Categories,
        // Read as title words by the query.
        Field::Title | Field::Year | Field::Id | Field::Tag | Field::Note | Field::Topic => {
            Part::Title
        }
    };
    let bits = match &f.value {
        FieldValue::Anything => return Bits::full(n),
        FieldValue::Years(lo, hi) => index.papers_in_years(*lo, *hi, n),
        FieldValue::Topic(t) => labels.papers_in_topic(*t, n),
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
/// matches it, or (every-field scope) as the word index does: papers
/// holding it (by their titles' words, those not yet indexed).
fn word_bits(
    w: &Word,
    items: &Items,
    index: &WordIndex,
    scope: Scope,
    n: usize,
    matcher: &mut Matcher,
) -> Bits {
    let by_words = scope == Scope::All && !w.title_only;
    let hits = match by_words {
        true => word_hits(index, w, n),
        false => Hits::default(),
    };
    let mut bits = Bits::new(n);
    for i in 0..n.min(items.len()) {
        let idx = i as u32;
        let title = items.title(i);
        let matched = if by_words {
            let held = hits.get(idx) > 0.0 || (hits.past(idx) && w.title_holds(title));
            held != w.title.negative
        } else {
            // A negated word's atom scores where the title lacks it.
            w.title.score(title, matcher).is_some()
        };
        if matched {
            bits.insert(idx);
        }
    }
    bits
}
