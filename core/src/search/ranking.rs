//! Ranking on the caller's thread, the engine behind `paperboat search`
//! and the benches: a query over papers (or over a title list with its
//! stored word index) ranked whole, with what the ranking says of its
//! words ([`Notes`]); and the part of the word index a query reads,
//! built for it alone.

use super::items::{self, Items};
use super::labels::Labels;
use super::pass::{match_threads, matchers, matches_of};
use super::query::{self, Hits, Query, Reading, Widened};
use super::worker::{HitCache, index_piece};
use super::{Match, Scope, TitleIndex, TitleList, WordIndex, fields, order, phrase, select, words};
use crate::corpus::{Abstract, Paper};
use crate::search::masks::Bits;

/// What a ranking says of its query's words besides its matches.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Notes {
    /// Words taken past their forms to find papers, as typed, and how:
    /// the words they start, or the words within an edit or two.
    pub widened: Vec<(String, Widened)>,
    /// Words no paper holds, every field searched: the matches are then
    /// the titles holding their letters in order, shown apart and not
    /// counted as matches.
    pub unheld: Vec<String>,
}

impl Notes {
    /// The notes of `query`'s words, given their hits.
    pub(crate) fn of(query: &Query, hits: &[Hits]) -> Notes {
        let mut notes = Notes::default();
        for (w, h) in query.words.iter().zip(hits) {
            if w.title_only || w.title.negative {
                continue;
            }
            if h.widened != Widened::No {
                notes.widened.push((w.needle.clone(), h.widened.clone()));
            }
            if h.none() {
                notes.unheld.push(w.needle.clone());
            }
        }
        notes
    }

    /// True when the matches are titles matched letter by letter alone,
    /// not counted as matches.
    pub fn apart(&self) -> bool {
        !self.unheld.is_empty()
    }

    /// A line saying what was searched for in place of what, and which
    /// words no paper holds; `None` when there is nothing to say.
    pub fn describe(&self) -> Option<String> {
        let quoted = |w: &str| format!("\"{w}\"");
        let mut searched: Vec<String> = Vec::new();
        for (typed, how) in &self.widened {
            match how {
                Widened::Typos(words) => searched.push(format!(
                    "{} for {}",
                    words
                        .iter()
                        .map(|w| quoted(w))
                        .collect::<Vec<_>>()
                        .join(", "),
                    quoted(typed)
                )),
                Widened::Prefix => searched.push(format!("words starting {}", quoted(typed))),
                Widened::No => {}
            }
        }
        let mut parts: Vec<String> = Vec::new();
        if !searched.is_empty() {
            parts.push(format!("searched {}", searched.join("; ")));
        }
        if !self.unheld.is_empty() {
            let words: Vec<String> = self.unheld.iter().map(|w| quoted(w)).collect();
            parts.push(format!(
                "no paper holds {}: titles with its letters in order, not counted",
                words.join(" or ")
            ));
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }
}

/// `text` parsed as a query being typed ([`Query::parse_typing`]) or a
/// finished one ([`Query::parse`]).
pub(crate) fn parse(text: &str, typing: bool) -> Query {
    if typing {
        Query::parse_typing(text)
    } else {
        Query::parse(text)
    }
}

/// A ranking made on the caller's thread: its rows and what it says of
/// its words.
#[derive(Debug, Default, PartialEq)]
pub struct Ranking {
    /// Best first: the matches, or (every field, for a word no paper
    /// holds) the titles that hold its letters in order.
    pub matches: Vec<Match>,
    pub notes: Notes,
}

impl Ranking {
    /// The matches that count: none when the rows are titles matched
    /// letter by letter ([`Notes::apart`]).
    pub fn counted(self) -> Vec<Match> {
        if self.notes.apart() {
            Vec::new()
        } else {
            self.matches
        }
    }
}

/// Ranks `papers` for `query` (finished) on the caller's thread, using
/// every core: the engine behind `paperboat search`. The matches that
/// count ([`Ranking::counted`]).
pub fn rank_papers(papers: &[Paper], query: &str, scope: Scope) -> Vec<Match> {
    ranking(papers, query, scope).counted()
}

/// [`rank_papers`], every row and its notes.
pub fn ranking(papers: &[Paper], query: &str, scope: Scope) -> Ranking {
    ranking_labelled(papers, query, scope, &Labels::default(), None)
}

/// [`rank_papers`], with the papers' tags and notes for `tag:` and
/// `note:`, and the word index over the papers when one is at hand (read
/// back from the cache); else the part of it the query reads is built.
pub fn rank_labelled(
    papers: &[Paper],
    query: &str,
    scope: Scope,
    labels: &Labels,
    index: Option<&WordIndex>,
) -> Vec<Match> {
    ranking_labelled(papers, query, scope, labels, index).counted()
}

/// [`rank_labelled`], every row and its notes.
pub fn ranking_labelled(
    papers: &[Paper],
    query: &str,
    scope: Scope,
    labels: &Labels,
    index: Option<&WordIndex>,
) -> Ranking {
    rank_parsed(papers, &Query::parse(query), scope, (labels, index))
}

/// [`ranking`] of `query` as it is being typed (its last word also the
/// start of longer words: [`Query::parse_typing`]), as the reader ranks
/// it while it is typed.
pub fn ranking_typed(papers: &[Paper], query: &str, scope: Scope) -> Ranking {
    let parsed = Query::parse_typing(query);
    rank_parsed(papers, &parsed, scope, (&Labels::default(), None))
}

fn rank_parsed(
    papers: &[Paper],
    parsed: &Query,
    scope: Scope,
    (labels, index): (&Labels, Option<&WordIndex>),
) -> Ranking {
    let items = Items::build(papers, match_threads(), |p| &p.title);
    if parsed.error.is_some() {
        return Ranking::default();
    }
    let needs_index = scope == Scope::All || !parsed.filters.is_empty();
    let built;
    let index = match index {
        Some(ix) if ix.indexed == papers.len() => ix,
        _ => {
            built = if needs_index && !parsed.is_empty() {
                index_papers_for(papers, parsed)
            } else {
                WordIndex::default()
            };
            &built
        }
    };
    let texts = match parsed.words.iter().any(|w| w.phrase) {
        true => phrase::Texts::Held(papers.iter().map(|p| p.abstract_text.clone()).collect()),
        false => phrase::Texts::None,
    };
    rank_items(&items, parsed, scope, (index, labels, &texts))
}

/// The word index of `papers`, built on every core.
pub fn index_papers(papers: &[Paper]) -> WordIndex {
    index_into(papers, &WordIndex::default())
}

/// The part of the word index of `papers` that `query` reads, built on
/// every core: only the words that start with one of its words are
/// posted (see [`WordIndex::keeping`]), so that it ranks as the whole
/// index does at a fraction of the cost.
pub fn index_papers_for(papers: &[Paper], query: &Query) -> WordIndex {
    let first = index_into(papers, &WordIndex::keeping(index_prefixes(query)));
    // A word no paper holds is looked for by its typos: indexed again,
    // the words within its edits posted too.
    match typo_words(&first, query) {
        typos if typos.is_empty() => first,
        typos => index_into(
            papers,
            &WordIndex::keeping_typos(index_prefixes(query), &typos),
        ),
    }
}

/// The words (folded) whose index entries `query` reads: each ranking
/// word's, and the words of its filters' choices (field atoms and words).
pub(super) fn index_prefixes(query: &Query) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut word = |w: &query::Word| {
        out.extend(w.folded.iter().map(|p| words::kept_prefix(p, w.reading)));
    };
    for w in &query.words {
        word(w);
    }
    let mut fields = Vec::new();
    for alt in query.filters.iter().flat_map(|f| &f.alts) {
        match alt {
            query::Alt::Word(w) => word(w),
            query::Alt::Field(f) => {
                use fields::Field::{Abstract, Author, Category, Keyword, Title, Venue};
                if let (
                    Title | Abstract | Author | Venue | Keyword | Category,
                    fields::FieldValue::Words { words, .. },
                ) = (f.field, &f.value)
                {
                    fields.extend(words.iter().map(|w| fields::fold(w).into_owned()));
                }
            }
        }
    }
    out.extend(fields);
    out.sort();
    out.dedup();
    out
}

fn index_into(papers: &[Paper], blank: &WordIndex) -> WordIndex {
    let abstracts: Vec<Abstract> = papers.iter().map(|p| p.abstract_text.clone()).collect();
    let metas: Vec<_> = papers.iter().map(items::doc_meta).collect();
    index_piece(0, &metas, &abstracts, match_threads(), &|| false, blank)
        .unwrap_or_else(|| blank.empty_like())
}

/// Whether `query` has a word that no paper holds and that is looked
/// for by its typos, which `index`, built for another query's words
/// alone ([`WordIndex::keeping`]), does not post: the query must then be
/// ranked over an index that does ([`ranking_labelled`] builds one).
pub fn needs_typos(index: &WordIndex, query: &Query) -> bool {
    index.kept_prefixes().is_some() && !typo_words(index, query).is_empty()
}

/// The words (folded) of `query` that no word of `index` answers and
/// that are looked for by their typos.
fn typo_words(index: &WordIndex, query: &Query) -> Vec<String> {
    let mut out = Vec::new();
    for w in query.words.iter().filter(|w| !w.title_only) {
        if !matches!(w.reading, Reading::Whole | Reading::Typing) {
            continue;
        }
        for part in &w.folded {
            if words::typo_edits(part.chars().count()) > 0
                && !index.holds(part, w.reading, w.fields)
            {
                out.push(part.clone());
            }
        }
    }
    out
}

/// Ranks the papers of a title list for `query` in `scope` with `index`,
/// the word index over the same papers (read back from the cache): as
/// [`rank_papers`] ranks them, without the papers. `None` when the index
/// is over another number of papers.
pub fn rank_titles_indexed(
    list: &TitleList,
    query: &str,
    scope: Scope,
    index: &WordIndex,
) -> Option<Ranking> {
    if index.indexed != list.len() {
        return None;
    }
    let parsed = Query::parse(query);
    if parsed.error.is_some() {
        return Some(Ranking::default());
    }
    let items = list.merged_items();
    Some(rank_items(
        &items,
        &parsed,
        scope,
        (index, &Labels::default(), &phrase::Texts::None),
    ))
}

/// The bytes of `index`, read back ([`WordIndex::from_bytes`]), that
/// [`rank_titles_indexed`] reads to rank `query` (see
/// [`WordIndex::bytes_read_by`]): the postings of its words and of the
/// words of its filters (`author:`, `abs:`, `|` groups; years and ids are
/// not postings); `None` for an index built here.
pub fn index_bytes_read(index: &WordIndex, query: &str) -> Option<Vec<std::ops::Range<usize>>> {
    use fields::FieldValue;
    use query::Alt;
    let parsed = Query::parse(query);
    let words = parsed
        .words
        .iter()
        .chain(
            parsed
                .filters
                .iter()
                .flat_map(|f| &f.alts)
                .filter_map(|a| match a {
                    Alt::Word(w) => Some(w),
                    Alt::Field(_) => None,
                }),
        );
    let fielded = parsed
        .filters
        .iter()
        .flat_map(|f| &f.alts)
        .flat_map(|a| match a {
            Alt::Field(f) => match &f.value {
                FieldValue::Words { words, .. } => words.as_slice(),
                FieldValue::Years(..) | FieldValue::Topic(_) | FieldValue::Anything => &[],
            },
            Alt::Word(_) => &[],
        });
    // Each word's forms' lead (the words it starts and its forms start
    // with it), and the words its typos found where they were looked for.
    let mut read: Vec<String> = Vec::new();
    for w in words {
        for part in &w.folded {
            read.push(words::kept_prefix(part, w.reading));
            if matches!(w.reading, Reading::Whole | Reading::Typing)
                && !index.holds(part, w.reading, w.fields)
            {
                let terms = index.terms(part, w.reading, w.fields);
                read.extend(terms.words().map(str::to_string));
            }
        }
    }
    index.bytes_read_by(
        read.iter()
            .map(String::as_str)
            .chain(fielded.map(String::as_str)),
    )
}

pub(super) fn rank_items(
    items: &Items,
    query: &Query,
    scope: Scope,
    (index, labels, texts): (&WordIndex, &Labels, &phrase::Texts),
) -> Ranking {
    let n = items.len();
    let mut matchers = matchers();
    let hits: Vec<Hits> = match scope {
        Scope::All => {
            let mut cache = HitCache::default();
            query
                .words
                .iter()
                .map(|w| cache.get(index, w, n, (items, texts)))
                .collect()
        }
        Scope::Title => Vec::new(),
    };
    let notes = Notes::of(query, &hits);
    let filters: Vec<Bits> = query
        .filters
        .iter()
        .map(|f| select::filter_bits(f, items, (index, labels), scope, n, &mut matchers[0]))
        .collect();
    let mut matches = matches_of(items, query, scope, hits, filters, &mut matchers);
    if !query.words.is_empty() {
        matches.sort_unstable_by(order);
    }
    Ranking { matches, notes }
}

/// Ranks titles kept in parts, each with the index of its first title,
/// as one list, best first (as [`rank_papers`] in the title scope).
pub fn rank_title_parts<'a>(
    parts: impl Iterator<Item = (&'a TitleIndex, usize)>,
    query: &str,
) -> Vec<Match> {
    let query = Query::parse(query);
    let mut matchers = matchers();
    let mut all = Vec::new();
    for (part, start) in parts {
        let matches = matches_of(
            part.items(),
            &query,
            Scope::Title,
            Vec::new(),
            Vec::new(),
            &mut matchers,
        );
        all.extend(matches.into_iter().map(|mut m| {
            m.idx += start as u32;
            m
        }));
    }
    if !query.is_empty() {
        all.sort_unstable_by(order);
    }
    all
}
