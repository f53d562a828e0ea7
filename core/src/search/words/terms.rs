//! What a query word matches in the word index, field by field: the word
//! itself, its other English forms (one Snowball stem: `networks` and
//! `network`, `learned` and `learning`), the longer words it starts while
//! it is being typed, and, only where no paper holds any of those, the
//! words it starts (a finished word) and then the words within one edit
//! of it (two from eight letters, a transposition counting one), as
//! Lucene's fuzzy term queries find them. A word that holds papers is
//! never widened, so a correct word brings no noise.
//!
//! Forms are told by stemming the index's words that start as the stem
//! does (the stem less its last letter: `studi` for `study` and
//! `studies`), so only a few hundred words are stemmed for a query word.
//! Typos are found by a Levenshtein automaton (`levenshtein_automata`,
//! tantivy's) run over the field's words: sorted words (an index read
//! back) are walked as a trie would be, every word after a prefix the
//! automaton has given up on passed over by binary search; a hash map's
//! words (an index being built) are each run through it, a word of a
//! length the edits cannot reach passed over unread. docs/SEARCH.md
//! gives the measurements beside an FST.

use std::sync::OnceLock;

use levenshtein_automata::{DFA, Distance, LevenshteinAutomatonBuilder, SINK_STATE};
use rust_stemmers::{Algorithm, Stemmer};

use super::{Part, WEIGHTED, WordIndex, Words};

/// How a query word is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reading {
    /// `'word`: that word alone.
    Exact,
    /// A finished word: it and its other forms; where no paper holds
    /// either, the words it starts; where none holds those, its typos.
    Whole,
    /// The word being typed: it, its forms and the words it starts;
    /// where no paper holds any, its typos.
    Typing,
    /// A negated word or a word of a phrase: it and its other forms,
    /// never widened.
    Forms,
}

/// How an index word answers a query word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum How {
    /// The word itself.
    Exact,
    /// Another form of it (the same stem).
    Form,
    /// A longer word it starts.
    Completion,
    /// A word this many edits from it.
    Typo(u8),
}

/// How far a query word was taken past its forms, to find papers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Widened {
    /// Not at all.
    #[default]
    No,
    /// No paper holds it or a form of it: the words it starts.
    Prefix,
    /// No paper holds it, a form of it, or a word it starts: these words,
    /// within an edit or two of it (the most common first, a few).
    Typos(Vec<String>),
}

/// How much another form of a finished word counts beside the word
/// itself: a tenth, so that papers holding the word as typed rank first
/// (set by the quality bench: from 0.8 to 0.5 to 0.1 topic queries'
/// hit@1 rose from 70.8% to 71.7% to 73.2%, and on the held-out ICML
/// 2024 list from 29.7% to 32.3%, word-form queries' hit@3 staying at
/// 97.7%).
const FORM_WEIGHT: f32 = 0.1;
/// How much a typo's word counts, per edit, less.
const TYPO_STEP: f32 = 0.2;
/// Words at least this long are looked for with one edit, and with two
/// from [`TWO_EDITS`] letters (Elasticsearch's "fuzziness: AUTO" gives
/// one edit from 3 letters; a five-letter word within one edit of many
/// real words is the usual start in spelling correction).
pub const TYPO_LETTERS: usize = 5;
/// See [`TYPO_LETTERS`].
const TWO_EDITS: usize = 8;
/// Typo words named in a note, at most.
const NAMED_TYPOS: usize = 3;

/// The words of one field a query word matches, with how, and their
/// postings.
pub(super) type FieldTerms<'a> = Vec<(&'a str, How, &'a [u32])>;

/// The index words a query word matches, in each scored field
/// ([`WEIGHTED`]'s order), sorted, and how far it was widened.
pub struct Terms<'a> {
    pub(super) fields: [FieldTerms<'a>; 3],
    /// The query word's length in characters (for completions' weight).
    typed: usize,
    pub widened: Widened,
}

impl Terms<'_> {
    /// True when the word matches no word of any field.
    pub fn is_empty(&self) -> bool {
        self.fields.iter().all(Vec::is_empty)
    }

    /// The words matched, every field's.
    pub fn words(&self) -> impl Iterator<Item = &str> {
        self.fields.iter().flatten().map(|t| t.0)
    }

    /// The postings of the title's terms.
    pub fn title_postings(&self) -> impl Iterator<Item = &[u32]> {
        self.fields[0].iter().map(|t| t.2)
    }

    /// Each field's terms with the weight each adds to a paper's score
    /// before BM25's term frequency: its idf (for the word and its forms,
    /// the idf of the papers holding any of them, as a stemmed index
    /// would count them), times how much its kind counts.
    pub(super) fn weighted(&self, index: &WordIndex, field: usize) -> Vec<(f32, &[u32])> {
        let terms = &self.fields[field];
        let (_, weight, _) = WEIGHTED[field];
        let forms_df: usize = terms
            .iter()
            .filter(|t| matches!(t.1, How::Exact | How::Form))
            .map(|t| t.2.len())
            .sum();
        let forms_idf = index.idf(forms_df.min(index.indexed));
        terms
            .iter()
            .map(|&(word, how, postings)| {
                let kind = match how {
                    How::Exact => index.idf(postings.len()),
                    How::Form => FORM_WEIGHT * forms_idf,
                    How::Completion => {
                        let full = word.chars().count().max(1) as f32;
                        (0.5 + 0.5 * self.typed as f32 / full) * index.idf(postings.len())
                    }
                    How::Typo(d) => (1.0 - TYPO_STEP * f32::from(d)) * index.idf(postings.len()),
                };
                (kind * weight, postings)
            })
            .collect()
    }
}

/// The English stemmer (Snowball's, as Lucene's EnglishAnalyzer has it).
fn stemmer() -> &'static Stemmer {
    static STEMMER: OnceLock<Stemmer> = OnceLock::new();
    STEMMER.get_or_init(|| Stemmer::create(Algorithm::English))
}

/// `word`'s Snowball English stem (the word, folded, as the index holds
/// it).
pub fn stem(word: &str) -> std::borrow::Cow<'_, str> {
    stemmer().stem(word)
}

/// The automaton builders for one and two edits, transpositions costing
/// one (made once: a few milliseconds for two).
fn builder(edits: u8) -> &'static LevenshteinAutomatonBuilder {
    static ONE: OnceLock<LevenshteinAutomatonBuilder> = OnceLock::new();
    static TWO: OnceLock<LevenshteinAutomatonBuilder> = OnceLock::new();
    let cell = if edits <= 1 { &ONE } else { &TWO };
    cell.get_or_init(|| LevenshteinAutomatonBuilder::new(edits.clamp(1, 2), true))
}

/// The edits a word of `letters` letters is looked for with, where no
/// paper holds it: 0 (none) under [`TYPO_LETTERS`].
pub fn typo_edits(letters: usize) -> u8 {
    match letters {
        n if n >= TWO_EDITS => 2,
        n if n >= TYPO_LETTERS => 1,
        _ => 0,
    }
}

/// Whether `word` is read with its other forms: a word of three letters
/// or more (a shorter one's stem is itself).
fn has_forms(reading: Reading, letters: usize) -> bool {
    reading != Reading::Exact && letters >= 3
}

/// What every word with `word`'s stem starts with, as far as it is also
/// `word`'s start: the stem less its last letter (`studi` is the stem of
/// `study`, `hope` of `hoping`), at least two letters of the word.
pub fn forms_lead<'w>(word: &'w str, stem: &str) -> &'w str {
    let lead = match stem.char_indices().nth(3) {
        Some(_) => stem.char_indices().last().map_or(stem, |(i, _)| &stem[..i]),
        None => stem,
    };
    let common = word
        .char_indices()
        .zip(lead.chars())
        .take_while(|((_, a), b)| a == b)
        .last()
        .map_or(0, |((i, c), _)| i + c.len_utf8());
    let least = word.char_indices().nth(2).map_or(word.len(), |(i, _)| i);
    &word[..common.max(least)]
}

/// The prefix an index built for one query must post every word of, for
/// `word` (folded) read so: its forms' lead, or the word itself.
pub fn kept_prefix(word: &str, reading: Reading) -> String {
    let letters = word.chars().count();
    if has_forms(reading, letters) {
        forms_lead(word, &stem(word)).to_string()
    } else {
        word.to_string()
    }
}

/// The automaton of the words within [`typo_edits`] of `word` (folded);
/// `None` for a word too short to be looked for by its typos.
pub(super) fn typo_automaton(word: &str) -> Option<DFA> {
    let edits = typo_edits(word.chars().count());
    (edits > 0).then(|| builder(edits).build_dfa(word))
}

/// Whether `dfa` accepts `word`, and with how many edits; `Err(k)`: it
/// gave up at byte `k` (no word starting with `word[..=k]` is within).
pub(super) fn within(dfa: &DFA, word: &[u8]) -> Result<Option<u8>, usize> {
    let mut state = dfa.initial_state();
    for (k, &b) in word.iter().enumerate() {
        state = dfa.transition(state, b);
        if state == SINK_STATE {
            return Err(k);
        }
    }
    Ok(match dfa.distance(state) {
        Distance::Exact(d) => Some(d),
        Distance::AtLeast(_) => None,
    })
}

impl Words {
    /// Calls `f` with each word within `dfa`'s edits of its query, and
    /// the edits. `letters`: the query's length in bytes when it is
    /// ASCII (a word longer or shorter by more than `edits` is passed
    /// over unread).
    fn each_within<'s>(
        &'s self,
        dfa: &DFA,
        (ascii_len, edits): (Option<usize>, u8),
        mut f: impl FnMut(&'s str, u8, &'s [u32]),
    ) {
        let within = |w: &[u8]| within(dfa, w);
        match self {
            Words::Hash(m) => {
                for (w, postings) in m {
                    if let Some(len) = ascii_len
                        && w.is_ascii()
                        && w.len().abs_diff(len) > usize::from(edits)
                    {
                        continue;
                    }
                    if let Ok(Some(d)) = within(w.as_bytes()) {
                        f(w, d, postings);
                    }
                }
            }
            Words::Frozen(fr) => {
                let v = fr.view();
                let mut i = 0;
                while i < v.len() {
                    let word = v.word(i);
                    match within(word) {
                        Ok(found) => {
                            if let (Some(d), Ok(w)) = (found, std::str::from_utf8(word)) {
                                f(w, d, v.postings(i));
                            }
                            i += 1;
                        }
                        // Every word that starts as this one does up to
                        // the byte the automaton gave up at is out.
                        Err(k) => i = v.past_prefix(&word[..=k], i).max(i + 1),
                    }
                }
            }
        }
    }
}

impl WordIndex {
    /// What `word` (folded, one word) matches, read as `reading`, in the
    /// scored fields that `fields` lets in (title, abstract, authors).
    /// Authors' names have no forms: a name is matched as written (and
    /// as a prefix while typed, and by its typos).
    pub fn terms(&self, word: &str, reading: Reading, fields: [bool; 3]) -> Terms<'_> {
        self.terms_with(word, reading, fields, true)
    }

    /// Whether a paper holds `word` read so, its typos left out: whether
    /// [`WordIndex::terms`] finds it a word before it looks for typos.
    pub fn holds(&self, word: &str, reading: Reading, fields: [bool; 3]) -> bool {
        !self.terms_with(word, reading, fields, false).is_empty()
    }

    fn terms_with(
        &self,
        word: &str,
        reading: Reading,
        fields: [bool; 3],
        typos: bool,
    ) -> Terms<'_> {
        let letters = word.chars().count();
        let stem = has_forms(reading, letters).then(|| stem(word).into_owned());
        let lead = stem.as_deref().map_or(word, |s| forms_lead(word, s));
        let mut out: [FieldTerms<'_>; 3] = Default::default();
        for (k, &(part, _, _)) in WEIGHTED.iter().enumerate() {
            if !fields[k] {
                continue;
            }
            let forms = stem.as_deref().filter(|_| part != Part::Authors);
            let terms = &mut out[k];
            self.parts[part as usize].each_with(lead, false, false, |t, postings| {
                let how = if t == word {
                    How::Exact
                } else {
                    // A longer word a word being typed starts is one it
                    // may be becoming, a form of it or not (`learn`:
                    // "learning", "learnability"), weighed as such; its
                    // other forms are looked for among the words it does
                    // not start.
                    if reading == Reading::Typing && t.starts_with(word) {
                        How::Completion
                    } else {
                        match forms {
                            Some(s) if *stem_of(t) == *s => How::Form,
                            _ => return,
                        }
                    }
                };
                terms.push((t, how, postings));
            });
        }
        let mut widened = Widened::No;
        if out.iter().all(Vec::is_empty) && reading == Reading::Whole {
            for (k, &(part, _, _)) in WEIGHTED.iter().enumerate() {
                if fields[k] {
                    self.parts[part as usize].each_with(word, false, false, |t, p| {
                        out[k].push((t, How::Completion, p));
                    });
                }
            }
            if out.iter().any(|t| !t.is_empty()) {
                widened = Widened::Prefix;
            }
        }
        let edits = typo_edits(letters);
        if typos
            && out.iter().all(Vec::is_empty)
            && matches!(reading, Reading::Whole | Reading::Typing)
            && edits > 0
        {
            let dfa = builder(edits).build_dfa(word);
            let ascii_len = word.is_ascii().then_some(word.len());
            for (k, &(part, _, _)) in WEIGHTED.iter().enumerate() {
                if fields[k] {
                    self.parts[part as usize].each_within(&dfa, (ascii_len, edits), |t, d, p| {
                        out[k].push((t, How::Typo(d), p));
                    });
                }
            }
            if out.iter().any(|t| !t.is_empty()) {
                widened = Widened::Typos(named_typos(&out));
            }
        }
        for terms in &mut out {
            // Summed in the words' order, as on disk, whatever the form.
            terms.sort_unstable_by_key(|t| t.0);
        }
        Terms {
            fields: out,
            typed: letters,
            widened,
        }
    }
}

/// A word's stem (allocation-free when it is its own stem).
fn stem_of(word: &str) -> std::borrow::Cow<'_, str> {
    stem(word)
}

/// The typo words to name: the fewest edits first, then the most papers.
fn named_typos(fields: &[FieldTerms<'_>; 3]) -> Vec<String> {
    let mut all: Vec<(u8, usize, &str)> = Vec::new();
    for t in fields.iter().flatten() {
        if let How::Typo(d) = t.1 {
            match all.iter_mut().find(|a| a.2 == t.0) {
                Some(a) => a.1 += t.2.len(),
                None => all.push((d, t.2.len(), t.0)),
            }
        }
    }
    all.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)).then(a.2.cmp(b.2)));
    all.into_iter()
        .take(NAMED_TYPOS)
        .map(|a| a.2.to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index(abstracts: &[&str]) -> WordIndex {
        let mut ix = WordIndex::default();
        for (i, a) in abstracts.iter().enumerate() {
            ix.add(i as u32, &super::super::DocMeta::default(), a);
        }
        ix
    }

    fn words(t: &Terms<'_>) -> Vec<(String, How)> {
        let mut all: Vec<(String, How)> = t.fields[1]
            .iter()
            .map(|&(w, h, _)| (w.to_string(), h))
            .collect();
        all.sort_by(|a, b| a.0.cmp(&b.0));
        all
    }

    const ALL: [bool; 3] = [true; 3];

    /// Each reading of each word, over the index as built and as read
    /// back (hash map and sorted words).
    fn both(abstracts: &[&str], f: impl Fn(&WordIndex)) {
        let built = index(abstracts);
        f(&built);
        let mut bytes = Vec::new();
        built.write_to(&mut bytes).unwrap();
        f(&WordIndex::from_bytes(std::sync::Arc::new(bytes)).unwrap());
    }

    #[test]
    fn a_word_finds_its_forms_and_not_the_words_it_merely_starts() {
        both(
            &[
                "graph networks learned",
                "a network learning to learn",
                "graphene graphs studies study",
                "transformers transform",
            ],
            |ix| {
                let t = ix.terms("network", Reading::Whole, ALL);
                assert_eq!(
                    words(&t),
                    [
                        ("network".into(), How::Exact),
                        ("networks".into(), How::Form)
                    ]
                );
                assert_eq!(t.widened, Widened::No);
                let t = ix.terms("learned", Reading::Whole, ALL);
                assert_eq!(
                    words(&t),
                    [
                        ("learn".into(), How::Form),
                        ("learned".into(), How::Exact),
                        ("learning".into(), How::Form)
                    ]
                );
                let t = ix.terms("graph", Reading::Whole, ALL);
                let got: Vec<String> = words(&t).into_iter().map(|w| w.0).collect();
                assert_eq!(got, ["graph", "graphs"], "not graphene");
                // A form that the word does not start.
                let t = ix.terms("studies", Reading::Whole, ALL);
                let got: Vec<String> = words(&t).into_iter().map(|w| w.0).collect();
                assert_eq!(got, ["studies", "study"]);
                // `'word`: the word alone.
                let t = ix.terms("network", Reading::Exact, ALL);
                assert_eq!(words(&t), [("network".into(), How::Exact)]);
            },
        );
    }

    #[test]
    fn a_word_being_typed_finds_the_words_it_starts_too() {
        both(&["graph networks", "graphene sheets", "graphs"], |ix| {
            let t = ix.terms("graph", Reading::Typing, ALL);
            assert_eq!(
                words(&t),
                [
                    ("graph".into(), How::Exact),
                    ("graphene".into(), How::Completion),
                    ("graphs".into(), How::Completion)
                ]
            );
            // A form it does not start, while it is typed.
            let t = ix.terms("graphs", Reading::Typing, ALL);
            assert_eq!(
                words(&t),
                [("graph".into(), How::Form), ("graphs".into(), How::Exact)]
            );
            let t = ix.terms("gr", Reading::Typing, ALL);
            assert_eq!(words(&t).len(), 3);
            assert!(words(&t).iter().all(|w| w.1 == How::Completion));
        });
    }

    #[test]
    fn only_a_word_no_paper_holds_is_widened() {
        both(
            &[
                "transformer models",
                "heteroscedastic noise",
                "transformers and a transformed world",
                "neural nets",
            ],
            |ix| {
                // Prefix first for a finished word.
                let t = ix.terms("heterosc", Reading::Whole, ALL);
                assert_eq!(t.widened, Widened::Prefix);
                assert_eq!(words(&t), [("heteroscedastic".into(), How::Completion)]);
                // One transposition, under eight letters: one edit.
                let t = ix.terms("nueral", Reading::Whole, ALL);
                assert_eq!(t.widened, Widened::Typos(vec!["neural".into()]));
                assert_eq!(words(&t), [("neural".into(), How::Typo(1))]);
                assert!(ix.terms("nuerla", Reading::Whole, ALL).is_empty());
                // Two edits from eight letters, the nearest named first.
                let t = ix.terms("trasnformer", Reading::Whole, ALL);
                assert_eq!(
                    t.widened,
                    Widened::Typos(vec![
                        "transformer".into(),
                        "transformed".into(),
                        "transformers".into()
                    ])
                );
                assert_eq!(words(&t)[0], ("transformed".into(), How::Typo(2)));
                assert_eq!(words(&t)[1], ("transformer".into(), How::Typo(1)));
                let t = ix.terms("trasnformr", Reading::Typing, ALL);
                let got: Vec<String> = words(&t).into_iter().map(|w| w.0).collect();
                assert!(got.contains(&"transformer".to_string()), "{got:?}");
                // Under five letters, no typo.
                assert!(ix.terms("nurl", Reading::Whole, ALL).is_empty());
                // A word that holds papers is not widened.
                let t = ix.terms("neural", Reading::Whole, ALL);
                assert_eq!(words(&t), [("neural".into(), How::Exact)]);
                // Forms are never widened (a negated word).
                assert!(ix.terms("trasnformer", Reading::Forms, ALL).is_empty());
            },
        );
    }

    #[test]
    fn the_forms_lead_starts_every_form() {
        for (word, forms) in [
            ("study", &["studies", "studied", "studying"][..]),
            ("hoping", &["hope", "hoped", "hopes"]),
            ("networks", &["network", "networking"]),
            ("learned", &["learn", "learning", "learns"]),
            ("cry", &["cries", "cried"]),
        ] {
            let lead = forms_lead(word, &stem(word));
            for f in forms {
                assert_eq!(stem(f), stem(word), "{f} {word}");
                assert!(f.starts_with(lead), "{f} does not start with {lead}");
            }
        }
    }
}
