//! A query as the matcher uses it: fzf-style words parsed by nucleo
//! (`'exact`, `^prefix`, `suffix$`, `!not`, smart case, normalisation),
//! each with the character mask a title must have to match it and the text
//! the abstract index is asked for.

use nucleo::pattern::{Atom, AtomKind, CaseMatching, Normalization};
use nucleo::{Matcher, Utf32Str};

use super::fields::{FieldAtom, QueryError, parse_field};
use super::fuzzy::{MAX_PER_CHAR, Needle, PAIR_APART_MOST, SCORE_PLAIN, Scored, word_most};
use super::masks::{Bits, Chars, needle_mask};
pub use super::words::{Reading, Widened};

/// Most matches highlighted in one abstract: a one-letter query on a
/// megabyte of short words matches hundreds of thousands of times, and
/// each highlight is a piece of the laid-out text. Past it the abstract
/// reads unhighlighted (and `n` stops at the last).
pub const MAX_OCCURRENCES: usize = 10_000;

/// One query word.
#[derive(Clone, Debug)]
pub struct Word {
    /// Matched against the title, as nucleo parses it.
    pub title: Atom,
    /// The word's text as matched (escapes and atom syntax removed).
    pub needle: String,
    /// The characters a title needs to match it.
    pub mask: u64,
    /// `^…`, `…$`: only the title has a start and an end.
    pub anchored: bool,
    /// Matched against the title only, as fzf's atom (anchored): the
    /// word index is not asked.
    pub title_only: bool,
    /// The needle's words, folded as the word index folds words (case,
    /// accents): usually one; every one must be held (`graph-based`).
    pub folded: Vec<String>,
    /// How the word index reads it: see [`Reading`].
    pub reading: Reading,
    /// The fields its words are looked for in (title, abstract,
    /// authors): all but for a `title:` word.
    pub fields: [bool; 3],
    /// A phrase (`"graph neural"`): its words must stand side by side.
    pub phrase: bool,
    /// The fast path for a fuzzy word, where it applies.
    fast: Option<Needle>,
    /// The most the word scores in any title: [`word_most`] for a plain
    /// fuzzy word, the most a score can be for any other.
    most: u16,
}

impl Word {
    /// The word's score in `title` (which holds `chars`) where it is
    /// `need` or more; a match scoring less may be answered
    /// [`Scored::Below`]. `None` where the fast path does not apply (score
    /// it).
    pub fn at_least(&self, title: Utf32Str<'_>, need: u32, chars: Chars) -> Option<Scored> {
        // A title whose pair filter keeps the word under `need` (its
        // characters seldom side by side at a word's start): only whether
        // it matches counts.
        if self.pruned(title, need, chars)
            && let (Some(fast), Utf32Str::Ascii(bytes)) = (&self.fast, title)
        {
            return Some(if fast.matches(bytes)? {
                Scored::Below
            } else {
                Scored::None
            });
        }
        self.at_least_unpruned(title, need, chars)
    }

    /// [`Word::at_least`] where the title is known not to be
    /// [`Word::pruned`].
    fn at_least_unpruned(&self, title: Utf32Str<'_>, need: u32, chars: Chars) -> Option<Scored> {
        let (Some(fast), Utf32Str::Ascii(bytes)) = (&self.fast, title) else {
            return None;
        };
        // One letter or digit, case ignored: what the masks say is enough
        // for most titles (the most it can score is at a word's start, the
        // least where it gets no bonus, and it matches wherever it occurs).
        if let Some(bit) = fast.single_bit()
            && bytes.len() > 1
            && bytes.len() <= usize::from(u16::MAX)
        {
            let most = word_most(1);
            if chars.starts & bit != 0 {
                return Some(Scored::Exact(most as u16));
            }
            if chars.all & bit != 0 && (chars.starts | chars.inner) & bit == 0 {
                return Some(Scored::Exact(SCORE_PLAIN as u16));
            }
            if chars.all & bit != 0 && need >= most {
                return Some(Scored::Below);
            }
        }
        let need = need.min(u32::from(u16::MAX)) as u16;
        // Two letters where the second never gets a bonus of its own and
        // the first none but after white space: unless they stand whole
        // at a word's start, they score little (`rl` in most titles).
        if let Some((first, second)) = fast.pair_bits()
            && (chars.starts | chars.inner) & second == 0
            && chars.inner & first == 0
        {
            return fast.score_at_least_else(bytes, need, PAIR_APART_MOST as u16);
        }
        fast.score_at_least(bytes, need)
    }

    /// Whether the word scores under `need` in the ASCII `title` (which
    /// holds `chars`), if it matches at all, by what the title's masks
    /// say ([`Needle::pair_bound_in`]): the title unread.
    #[inline]
    pub fn pruned(&self, title: Utf32Str<'_>, need: u32, chars: Chars) -> bool {
        let (Some(fast), Utf32Str::Ascii(_)) = (&self.fast, title) else {
            return false;
        };
        fast.pair_bound_in(chars.pairs, chars.starts, chars.inner)
            .is_some_and(|most| need > most)
    }

    /// The word's score in `title` (nucleo's, by the fast path where it
    /// applies).
    #[inline]
    pub fn score(&self, title: Utf32Str<'_>, matcher: &mut Matcher) -> Option<u16> {
        if let (Some(fast), Utf32Str::Ascii(bytes)) = (&self.fast, title)
            && let Some(score) = fast.score(bytes)
        {
            return score;
        }
        self.title.score(title, matcher)
    }
}

/// One choice of a [`Filter`].
#[derive(Clone, Debug)]
pub enum Alt {
    Word(Word),
    Field(FieldAtom),
}

/// Atoms that select papers without ranking them: a field atom
/// (`author:hinton`), or a group of choices joined by `|` (fzf's OR), any
/// of which a paper must match.
#[derive(Clone, Debug)]
pub struct Filter {
    pub alts: Vec<Alt>,
    /// The atoms as written, to tell two queries apart.
    pub text: String,
}

/// A parsed query.
#[derive(Clone, Debug, Default)]
pub struct Query {
    /// The words that rank, in query order.
    pub words: Vec<Word>,
    /// The most every word but the last can score together, where each is
    /// a plain fuzzy word (see [`MAX_PER_CHAR`]).
    head_most: Option<u32>,
    /// What a paper must match besides the words.
    pub filters: Vec<Filter>,
    /// Why the query cannot be run (an unknown field): it matches nothing.
    pub error: Option<QueryError>,
}

/// A query word as the matcher reads it; `None` for one with nothing to
/// match (`!`, `^`). `title_field`: a `title:` word; `typing`: the word
/// being typed (the last, no space after it).
fn word(raw: &str, title_field: bool, typing: bool) -> Option<Word> {
    // A phrase is matched in titles as a piece of text (`'…`).
    let quoted = raw.trim_start_matches('!').strip_prefix('"');
    let phrase = quoted.map(|q| q.strip_suffix('"').unwrap_or(q));
    let atom_text = match phrase {
        Some(p) => format!(
            "{}'{}",
            if raw.starts_with('!') { "!" } else { "" },
            p.replace(' ', "\\ ")
        ),
        None => raw.to_string(),
    };
    let raw = atom_text.as_str();
    let mut title = Atom::parse(raw, CaseMatching::Smart, Normalization::Smart);
    if title.needle_text().is_empty() {
        return None;
    }
    let anchored = matches!(
        title.kind,
        AtomKind::Prefix | AtomKind::Postfix | AtomKind::Exact
    );
    // nucleo-matcher 0.3.1: with smart case an anchored atom holding
    // a capital only matches the whole string. Match it ignoring case.
    if anchored && raw.chars().any(char::is_uppercase) {
        title = Atom::parse(raw, CaseMatching::Ignore, Normalization::Smart);
    }
    let needle: String = title.needle_text().chars().collect();
    let mask = if title.negative {
        0
    } else {
        needle_mask(&needle)
    };
    let fast = (title.kind == AtomKind::Fuzzy && !title.negative)
        .then(|| Needle::new(&needle, !needle.chars().any(char::is_uppercase)))
        .flatten();
    let mut folded = Vec::new();
    super::fields::for_each_folded(&needle, &mut String::new(), |w| folded.push(w.to_string()));
    let most = match &fast {
        Some(_) => u16::try_from(word_most(needle.chars().count())).unwrap_or(u16::MAX),
        None => u16::MAX,
    };
    let reading = if phrase.is_some() || title.negative {
        Reading::Forms
    } else if title.kind == AtomKind::Substring {
        Reading::Exact
    } else if typing {
        Reading::Typing
    } else {
        Reading::Whole
    };
    Some(Word {
        title,
        folded,
        needle,
        mask,
        anchored,
        title_only: anchored,
        reading,
        fields: [true, !title_field, !title_field],
        phrase: phrase.is_some(),
        fast,
        most,
    })
}

/// Splits a query into words at unescaped spaces, as nucleo does, but
/// for a phrase: from a `"` that starts a word (after an optional `!`)
/// to the next `"`, spaces and all (to the end while it is open).
pub fn query_words(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut escaped = false;
    let mut quoted = false;
    for (i, c) in text.char_indices() {
        match c {
            '"' if !escaped && (quoted || matches!(&text[start..i], "" | "!")) => {
                quoted = !quoted;
            }
            ' ' if !escaped && !quoted => {
                if i > start {
                    out.push(&text[start..i]);
                }
                start = i + 1;
            }
            '\\' => {
                escaped = !escaped;
                continue;
            }
            _ => {}
        }
        escaped = false;
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

/// Sort keys at or above this are papers whose every query word is a word
/// hit (every-field scope).
pub const TITLE_TIER: u32 = 1 << 31;

/// How much a word hit's fuzzy match score in the title adds to its BM25F
/// score: a word whole, in order, at a word's start counts for more than
/// the same word anywhere in the title (`wearable disp` finds "Wearable
/// Displays" before a paper on displacement that mentions wearables). Set
/// by the quality bench (docs/QUALITY.md): from 0 to 0.15 the title-piece
/// queries' hit@1 rises from 74% to 77% and the mixed ones' falls from
/// 95.5% to 94.9%.
const TITLE_MATCH_WEIGHT: f32 = 0.15;

/// BM25F scores are kept in sort keys as fixed point with this many steps
/// to one.
const BM25_SCALE: f32 = 4096.0;

/// Per paper, a query word's BM25F score over the fields it is looked for
/// in (0: the paper holds none of the words it matches: see
/// [`Reading`]), and whether the paper's title holds one; empty for a
/// word matched in titles only.
#[derive(Clone, Debug, Default)]
pub struct Hits {
    /// A `Vec` shared as it is: made into an `Arc<[f32]>`, 4 bytes a
    /// paper were copied into fresh memory, slow to touch the first time
    /// on a VM, for every word typed.
    pub scores: std::sync::Arc<Vec<f32>>,
    pub in_title: std::sync::Arc<Bits>,
    /// Papers with a hit (a score above 0).
    pub count: usize,
    /// The papers the index held when these were worked out (`0..`):
    /// papers past them are matched by their titles' words meanwhile.
    pub covered: usize,
    /// The papers searched when these were worked out.
    pub papers: usize,
    /// How far the word was widened to find papers.
    pub widened: Widened,
}

/// The every-field sort key ([`Query::score_all`]): papers whose every
/// positive word is a word hit by their BM25F score, then the others by
/// how many words are hits and their title match score.
#[inline]
fn all_key(bm25: f32, fuzzy: u32, word_hits: u32, positive: u32) -> u32 {
    let every = TITLE_TIER | ((bm25 * BM25_SCALE) as u32).min(TITLE_TIER - 1);
    let rest = fuzzy.saturating_add((bm25 * BM25_SCALE / 64.0) as u32);
    let some = (word_hits << 24) | rest.min((1 << 24) - 1);
    if word_hits == positive { every } else { some }
}

/// A paper [`Query::score_all_at_least`] found to match, or that may.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AllScored {
    /// Its score.
    Exact(u32),
    /// A bound on its score, under the floor asked for.
    Below(u32),
    /// A bound on its score under the floor, if it matches: whether its
    /// one word without a word hit is in the title was not looked for.
    Unchecked(u32),
}

impl Hits {
    /// Hits of these scores (per paper; 0 for none) and title hits, over
    /// the first `covered` papers of `papers` searched.
    pub fn new(
        scores: Vec<f32>,
        in_title: std::sync::Arc<Bits>,
        (covered, papers): (usize, usize),
    ) -> Hits {
        Hits {
            count: scores.iter().filter(|&&s| s > 0.0).count(),
            papers,
            scores: std::sync::Arc::new(scores),
            in_title,
            covered,
            widened: Widened::No,
        }
    }

    #[inline]
    pub fn get(&self, idx: u32) -> f32 {
        self.scores.get(idx as usize).copied().unwrap_or(0.0)
    }

    /// True when no paper has the word (the index holds every paper
    /// searched): it is matched in titles, letter by letter, and its
    /// matches are not counted (every field).
    #[inline]
    pub fn none(&self) -> bool {
        self.count == 0 && self.covered >= self.papers
    }

    /// Whether paper `idx` lies past the papers these cover (not yet
    /// indexed).
    #[inline]
    pub fn past(&self, idx: u32) -> bool {
        idx as usize >= self.covered
    }
}

impl Word {
    /// True when both words match the same papers the same way.
    pub fn same_as(&self, other: &Word) -> bool {
        self.title == other.title
            && self.title_only == other.title_only
            && self.reading == other.reading
            && self.fields == other.fields
            && self.phrase == other.phrase
    }

    /// Whether `title` holds a word starting with each of this word's
    /// (folded): how a paper not yet indexed is matched.
    pub fn title_holds(&self, title: Utf32Str<'_>) -> bool {
        let mut words: Vec<String> = Vec::new();
        let mut cur = String::new();
        let mut push = |cur: &mut String| {
            if !cur.is_empty() {
                words.push(super::fields::fold(cur).into_owned());
                cur.clear();
            }
        };
        for c in title.chars() {
            if c.is_alphanumeric() {
                cur.push(c);
            } else {
                push(&mut cur);
            }
        }
        push(&mut cur);
        self.folded
            .iter()
            .all(|part| words.iter().any(|w| w.starts_with(part.as_str())))
    }
}

impl Query {
    /// Parses `text` with smart case and normalisation: fzf's atoms,
    /// `|` between atoms for any of them, field atoms and phrases. Every
    /// word is finished (see [`Query::parse_typing`]).
    pub fn parse(text: &str) -> Query {
        Query::parse_as(text, false)
    }

    /// [`Query::parse`] for a query being typed: its last word, unless a
    /// space follows it, is read as the start of a word ([`Reading::Typing`]).
    pub fn parse_typing(text: &str) -> Query {
        Query::parse_as(text, true)
    }

    fn parse_as(text: &str, typing: bool) -> Query {
        let mut groups: Vec<(Vec<Alt>, String)> = Vec::new();
        let mut error = None;
        let mut join = false;
        let all = query_words(text);
        let open = typing && !text.ends_with(' ');
        for (k, raw) in all.iter().copied().enumerate() {
            let typing = open && k + 1 == all.len();
            if raw == "|" {
                join = !groups.is_empty();
                continue;
            }
            let alt = match parse_field(raw) {
                Some(Ok(f)) if f.field == super::fields::Field::Title => {
                    let atom = if f.negative {
                        format!("!{}", f.raw)
                    } else {
                        f.raw
                    };
                    word(&atom, true, typing).map(Alt::Word)
                }
                Some(Ok(f)) => Some(Alt::Field(f)),
                Some(Err(e)) => {
                    error.get_or_insert(e);
                    None
                }
                None => word(raw, false, typing).map(Alt::Word),
            };
            let Some(alt) = alt else {
                join = false;
                continue;
            };
            match groups.last_mut() {
                Some((alts, written)) if join => {
                    alts.push(alt);
                    written.push_str(" | ");
                    written.push_str(raw);
                }
                _ => groups.push((vec![alt], raw.to_string())),
            }
            join = false;
        }
        let mut words = Vec::new();
        let mut filters = Vec::new();
        for (mut alts, text) in groups {
            match alts.pop() {
                Some(Alt::Word(w)) if alts.is_empty() => words.push(w),
                Some(last) => {
                    alts.push(last);
                    filters.push(Filter { alts, text });
                }
                None => {}
            }
        }
        let head = words.split_last().map_or(&[][..], |(_, head)| head);
        let head_most = head
            .iter()
            .map(|w| w.fast.as_ref().map(|_| word_most(w.needle.chars().count())))
            .sum();
        Query {
            words,
            head_most,
            filters,
            error,
        }
    }

    /// [`Query::parse`], or why the query cannot be run.
    pub fn parse_checked(text: &str) -> Result<Query, QueryError> {
        let q = Query::parse(text);
        match q.error {
            Some(e) => Err(e),
            None => Ok(q),
        }
    }

    /// The most every word but the last can score together in any title,
    /// where that is known.
    pub fn head_most(&self) -> Option<u32> {
        self.head_most
    }

    /// True when both queries are the same words (whatever the spacing).
    pub fn same_as(&self, other: &Query) -> bool {
        self.words.len() == other.words.len()
            && self
                .words
                .iter()
                .zip(&other.words)
                .all(|(a, b)| a.same_as(b))
            && self.same_filters(other)
            && self.error == other.error
    }

    /// True when both queries have the same filters.
    pub fn same_filters(&self, other: &Query) -> bool {
        self.filters.len() == other.filters.len()
            && self
                .filters
                .iter()
                .zip(&other.filters)
                .all(|(a, b)| a.text == b.text)
    }

    /// Whether the query has a `tag:`, `note:` or `topic:` atom (it
    /// needs the papers' [`Labels`](super::Labels)).
    pub fn asks_labels(&self) -> bool {
        use super::fields::Field;
        self.asks(|f| matches!(f, Field::Tag | Field::Note | Field::Topic))
    }

    /// Whether the query has a `topic:` atom (the labels need the list's
    /// topics).
    pub fn asks_topics(&self) -> bool {
        self.asks(|f| f == super::fields::Field::Topic)
    }

    fn asks(&self, field: impl Fn(super::fields::Field) -> bool) -> bool {
        self.filters.iter().any(|f| {
            f.alts
                .iter()
                .any(|a| matches!(a, Alt::Field(fa) if field(fa.field)))
        })
    }

    /// True when the query matches everything.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty() && self.filters.is_empty() && self.error.is_none()
    }

    /// How much more than `prev` this query can score on any title, when it
    /// only grows `prev`'s last word (a plain fuzzy one) or adds a plain
    /// fuzzy word: a title whose score for `prev` plus this cannot reach a
    /// ranking's first page need not be scored for it yet.
    pub fn growth_over(&self, prev: &Query) -> Option<u32> {
        let last = self.words.last()?;
        last.fast.as_ref()?;
        if self.words.len() == prev.words.len() + 1 {
            return Some(word_most(last.needle.chars().count()));
        }
        let old = prev.words.last()?;
        old.fast.as_ref()?;
        // Both ASCII (they have a fast path). A capital turns smart case
        // to exact case, which only takes matches away.
        let (a, b) = (old.needle.to_lowercase(), last.needle.to_lowercase());
        let more = b.len().checked_sub(a.len())? as u32;
        (self.words.len() == prev.words.len() && b.starts_with(&a) && more > 0)
            .then_some(more * MAX_PER_CHAR)
    }

    /// Whether the last word matches `title` (which holds `chars`) at all,
    /// where that is cheaper to tell than its score (`None`: score it).
    pub fn last_word_matches(&self, title: Utf32Str<'_>, chars: Chars) -> Option<bool> {
        match (&self.words.last()?.fast, title) {
            (Some(fast), Utf32Str::Ascii(bytes)) => match fast.single_bit() {
                // One letter or digit, case ignored: the mask says.
                Some(bit) if bytes.len() > 1 => Some(chars.all & bit != 0),
                _ => fast.matches(bytes),
            },
            _ => None,
        }
    }

    /// The last word's score in `title` (which holds `chars`) where it is
    /// `need` or more; a match scoring less may be answered
    /// [`Scored::Below`]. `None` where the fast path does not apply (score
    /// it).
    pub fn last_word_at_least(
        &self,
        title: Utf32Str<'_>,
        need: u32,
        chars: Chars,
    ) -> Option<Scored> {
        self.words.last()?.at_least(title, need, chars)
    }

    /// For a query of two words, the first's score in `title` where it is
    /// `need` or more, as [`Query::last_word_at_least`]; `None` where that
    /// does not apply (score the query).
    pub fn head_at_least(&self, title: Utf32Str<'_>, need: u32) -> Option<Scored> {
        match (&self.words[..], title) {
            ([first, _], Utf32Str::Ascii(bytes)) => first
                .fast
                .as_ref()?
                .score_at_least(bytes, need.min(u32::from(u16::MAX)) as u16),
            _ => None,
        }
    }

    /// The characters a title must hold to match the whole query.
    pub fn title_mask(&self) -> u64 {
        self.words.iter().fold(0, |m, w| m | w.mask)
    }

    /// The title score, when every word matches the title.
    pub fn score_title(&self, title: Utf32Str<'_>, matcher: &mut Matcher) -> Option<u32> {
        self.score_title_from(title, matcher, 0, 0)
            .map(|(score, _)| score)
    }

    /// [`Query::score_title`] when the words before `from` are known to
    /// score `base` together: (the score, the score of every word but the
    /// last).
    pub fn score_title_from(
        &self,
        title: Utf32Str<'_>,
        matcher: &mut Matcher,
        from: usize,
        base: u32,
    ) -> Option<(u32, u32)> {
        let last = self.words.len().saturating_sub(1);
        let (mut score, mut head) = (base, base);
        for (j, w) in self.words.iter().enumerate().skip(from) {
            score += u32::from(w.score(title, matcher)?);
            if j < last {
                head = score;
            }
        }
        Some((score, head))
    }

    /// Every-field match of paper `idx`: it holds every word (one of the
    /// words each matches, `hits[k][idx]` its BM25F score above 0) and no
    /// negated one, and its title matches every anchored atom. A word no
    /// paper holds is matched in the title letter by letter instead:
    /// such papers rank under every paper that holds its words (below
    /// [`TITLE_TIER`]), and are not counted as matches. Papers holding
    /// every word rank by their summed BM25F score plus a share of the
    /// words' title match score ([`TITLE_MATCH_WEIGHT`]); the others by
    /// their title match score.
    pub fn score_all(
        &self,
        title: Utf32Str<'_>,
        chars: Chars,
        idx: u32,
        hits: &[Hits],
        matcher: &mut Matcher,
    ) -> Option<u32> {
        // Every score is 0 or more: none is below the floor.
        match self.score_all_at_least(title, chars, idx, hits, (matcher, 0))? {
            AllScored::Exact(score) | AllScored::Below(score) => Some(score),
            // Never under a floor of 0.
            AllScored::Unchecked(_) => None,
        }
    }

    /// [`Query::score_all`] where only a score of `floor` or more is
    /// wanted: where a single word is no word hit, it is scored only if
    /// it can lift the paper to `floor` ([`Word::at_least`]), and a paper
    /// it cannot is answered with a bound under `floor`
    /// ([`AllScored::Below`]). `None`: it does not match.
    pub fn score_all_at_least(
        &self,
        title: Utf32Str<'_>,
        chars: Chars,
        idx: u32,
        hits: &[Hits],
        (matcher, floor): (&mut Matcher, u32),
    ) -> Option<AllScored> {
        let title_mask = chars.all;
        let (mut bm25, mut fuzzy, mut word_hits, mut positive) = (0.0f32, 0u32, 0u32, 0u32);
        // The word that no paper holds, if it is the only one.
        let (mut missed, mut misses) = (None, 0);
        for (w, h) in self.words.iter().zip(hits) {
            if w.title_only {
                // An anchored atom: the title must match it (or, negated,
                // not); a match adds its share.
                let s = w.score(title, matcher)?;
                if !w.title.negative {
                    bm25 += TITLE_MATCH_WEIGHT * f32::from(s);
                }
                continue;
            }
            let hit = h.get(idx);
            let held = hit > 0.0 || (!h.none() && h.past(idx) && w.title_holds(title));
            if w.title.negative {
                if held {
                    return None;
                }
                continue;
            }
            positive += 1;
            if held {
                bm25 += hit;
                word_hits += 1;
                // Only where the title has the word: elsewhere its letters
                // scattered over the title mean nothing.
                if (h.in_title.contains(idx) || h.past(idx))
                    && title_mask & w.mask == w.mask
                    && let Some(s) = w.score(title, matcher)
                {
                    bm25 += TITLE_MATCH_WEIGHT * f32::from(s);
                }
                continue;
            }
            // Papers hold the word, not this one.
            if !h.none() {
                return None;
            }
            // No paper holds it: its letters in the title, in order.
            if title_mask & w.mask != w.mask {
                return None;
            }
            misses += 1;
            if misses == 1 {
                missed = Some(w);
                continue;
            }
            fuzzy += u32::from(w.score(title, matcher)?);
        }
        if let Some(w) = missed {
            if misses == 1 {
                // The paper's key is its tier, then the word's score plus
                // what its hits add (see `all_key`).
                let tier = word_hits << 24;
                let hits_add = (bm25 * BM25_SCALE / 64.0) as u32;
                let need = floor.saturating_sub(tier).saturating_sub(hits_add);
                // `need` is 1 or more where the word cannot reach it, so
                // the paper is under `floor`.
                let under = || {
                    tier | need
                        .saturating_sub(1)
                        .saturating_add(hits_add)
                        .min((1 << 24) - 1)
                };
                // Whether it matches is not wanted for the first page, and
                // most of two million titles were read for that alone
                // (`gnn`): it is left to `settle`.
                if w.pruned(title, need, chars) {
                    return Some(AllScored::Unchecked(under()));
                }
                match w.at_least_unpruned(title, need, chars) {
                    Some(Scored::None) => return None,
                    Some(Scored::Below) => return Some(AllScored::Below(under())),
                    Some(Scored::Exact(s)) => fuzzy += u32::from(s),
                    None => fuzzy += u32::from(w.score(title, matcher)?),
                }
            } else {
                fuzzy += u32::from(w.score(title, matcher)?);
            }
        }
        Some(AllScored::Exact(all_key(bm25, fuzzy, word_hits, positive)))
    }

    /// A bound on [`Query::score_all`] of paper `idx` worked out from its
    /// word hits and its title's letters alone, the title unread: 0 where
    /// these show that it does not match (a bound is never 0: a word that
    /// is no word hit can score at least one letter's most). Each word's
    /// score in the title is taken at its most ([`Word::most`]), and the
    /// score is summed as `score_all` sums it (adding 0 where it adds
    /// nothing), so that the bound is never below.
    #[inline]
    pub fn all_bound(&self, idx: u32, hits: &[Hits], title_mask: u64) -> u32 {
        let (mut bm25, mut fuzzy, mut word_hits, mut positive) = (0.0f32, 0u32, 0u32, 0u32);
        let (mut need, mut excluded) = (0u64, false);
        for (w, h) in self.words.iter().zip(hits) {
            if w.title_only {
                if !w.title.negative {
                    bm25 += TITLE_MATCH_WEIGHT * f32::from(w.most);
                    need |= w.mask;
                }
                continue;
            }
            let hit = h.get(idx);
            let is_hit = hit > 0.0;
            // Not yet indexed: its title may hold it.
            let maybe = !is_hit && !h.none() && h.past(idx);
            if w.title.negative {
                excluded |= is_hit;
                continue;
            }
            positive += 1;
            bm25 += hit;
            word_hits += u32::from(is_hit || maybe);
            excluded |= !is_hit && !maybe && !h.none();
            let bonus = (is_hit && h.in_title.contains(idx) && title_mask & w.mask == w.mask)
                || (maybe && title_mask & w.mask == w.mask);
            bm25 += if bonus {
                TITLE_MATCH_WEIGHT * f32::from(w.most)
            } else {
                0.0
            };
            let apart = h.none();
            need |= if apart { w.mask } else { 0 };
            fuzzy += if apart { u32::from(w.most) } else { 0 };
        }
        let key = all_key(bm25, fuzzy, word_hits, positive);
        if excluded || title_mask & need != need {
            0
        } else {
            key
        }
    }

    /// Whether paper `idx` matches as [`Query::score_all`] asks (`None`:
    /// not), and if so whether every word is a word hit (`Some(true)`), at
    /// less cost than its score: a word that is no word hit is only
    /// checked to match the title.
    pub fn all_word_hits(
        &self,
        title: Utf32Str<'_>,
        title_mask: u64,
        idx: u32,
        hits: &[Hits],
        matcher: &mut Matcher,
    ) -> Option<bool> {
        let mut all = true;
        for (w, h) in self.words.iter().zip(hits) {
            if w.title_only {
                w.score(title, matcher)?;
                continue;
            }
            let held = h.get(idx) > 0.0 || (!h.none() && h.past(idx) && w.title_holds(title));
            if w.title.negative {
                if held {
                    return None;
                }
                continue;
            }
            if held {
                continue;
            }
            if !h.none() {
                return None;
            }
            all = false;
            if title_mask & w.mask != w.mask {
                return None;
            }
            let matched = match (&w.fast, title) {
                (Some(fast), Utf32Str::Ascii(bytes)) => fast.matches(bytes),
                _ => None,
            };
            match matched {
                Some(false) => return None,
                Some(true) => {}
                None => {
                    w.score(title, matcher)?;
                }
            }
        }
        Some(all)
    }

    /// Highlight positions (grapheme indices) of the query in `title`:
    /// sorted, each once.
    pub fn title_indices(&self, title: Utf32Str<'_>, matcher: &mut Matcher, out: &mut Vec<u32>) {
        out.clear();
        for w in &self.words {
            if w.title.negative {
                continue;
            }
            let before = out.len();
            if w.title.indices(title, matcher, out).is_none() {
                out.truncate(before);
            }
        }
        out.sort_unstable();
        out.dedup();
    }

    /// Where each positive word occurs in `text` as a substring (case
    /// folded unless the word has a capital): byte ranges, sorted, not
    /// overlapping, the first [`MAX_OCCURRENCES`] of them. Used to
    /// highlight abstracts.
    pub fn occurrences(&self, text: &str) -> Vec<std::ops::Range<usize>> {
        let lower = text.to_lowercase();
        let same_len = lower.len() == text.len();
        let mut out: Vec<std::ops::Range<usize>> = Vec::new();
        for w in &self.words {
            if w.title.negative || w.needle.is_empty() {
                continue;
            }
            let smart_case = w.needle.chars().any(char::is_uppercase);
            let (hay, pat) = if smart_case || !same_len {
                (text, w.needle.clone())
            } else {
                (lower.as_str(), w.needle.to_lowercase())
            };
            crate::text::work::count(hay.len());
            out.extend(hay.match_indices(&pat).map(|(p, m)| p..p + m.len()));
        }
        out.sort_by_key(|r| (r.start, std::cmp::Reverse(r.end)));
        let mut merged: Vec<std::ops::Range<usize>> = Vec::new();
        for r in out {
            match merged.last_mut() {
                Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
                _ => {
                    if merged.len() == MAX_OCCURRENCES {
                        break;
                    }
                    merged.push(r);
                }
            }
        }
        merged
    }
}

/// True when every paper matching `new` also matches `old`, so `new` need
/// only rescan `old`'s matches: more characters typed at the end, unless
/// that edits a negated word (`!ab` excludes less than `!a`) or turns an
/// anchor or escape into a literal.
pub fn extends(new: &str, old: &str) -> bool {
    if !new.starts_with(old) || old.ends_with(['$', '\\']) {
        return false;
    }
    // `|` widens; a field atom's value is not always narrowed by more
    // characters (`year:201` to `year:2019`), nor a word by becoming one.
    if new.contains('|') || query_words(new).last().is_some_and(|w| w.contains(':')) {
        return false;
    }
    if new.len() > old.len()
        && !old.ends_with(' ')
        && !new[old.len()..].starts_with(' ')
        && let Some(last) = query_words(old).last()
        && last.starts_with('!')
        && last.len() > 1
    {
        return false;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_atoms_and_or_groups_become_filters() {
        let q = Query::parse("sparse author:bengio !venue:icml attn");
        let words: Vec<&str> = q.words.iter().map(|w| w.needle.as_str()).collect();
        assert_eq!(words, ["sparse", "attn"]);
        assert_eq!(q.filters.len(), 2);
        assert!(q.error.is_none());
        let q = Query::parse("graph ^core go$ | rb$ | py$");
        assert_eq!(q.words.len(), 2, "graph and ^core rank");
        assert_eq!(q.filters.len(), 1);
        assert_eq!(q.filters[0].alts.len(), 3);
        assert_eq!(q.filters[0].text, "go$ | rb$ | py$");
        // `title:` is a ranking word matched in titles only.
        let q = Query::parse("title:sparse");
        assert_eq!(q.words.len(), 1);
        assert!(q.filters.is_empty());
        // Every field: the title's words (the title scope: fuzzily).
        assert!(!q.words[0].title_only && q.words[0].fields == [true, false, false]);
        // A `|` with nothing before it joins nothing.
        assert_eq!(Query::parse("| a").words.len(), 1);
    }

    #[test]
    fn an_unknown_field_makes_the_query_an_error() {
        let q = Query::parse("sparse foo:bar");
        assert_eq!(q.error, Some(QueryError::UnknownField("foo:".into())));
        assert!(!q.is_empty());
        assert!(Query::parse_checked("sparse foo:bar").is_err());
        assert!(Query::parse_checked("sparse 'foo:bar").is_ok());
    }

    #[test]
    fn words_fold_for_the_word_index() {
        let q = Query::parse("Schütze graph-based");
        assert_eq!(q.words[0].folded, ["schutze"]);
        assert_eq!(q.words[1].folded, ["graph", "based"]);
        assert!(!q.words[0].title_only);
        assert!(Query::parse("^graph").words[0].title_only);
    }

    #[test]
    fn field_atoms_and_groups_are_never_narrowed_from() {
        assert!(extends("sparse at", "sparse a"));
        assert!(extends("author:ben sparse", "author:ben"));
        assert!(!extends("year:2019", "year:201"), "not monotone");
        assert!(!extends("au:", "au"));
        assert!(!extends("a | b", "a | "), "| widens");
    }

    #[test]
    fn highlights_stop_at_the_most_an_abstract_shows() {
        let q = Query::parse("a");
        let text = "a b ".repeat(MAX_OCCURRENCES + 500);
        let found = q.occurrences(&text);
        assert_eq!(found.len(), MAX_OCCURRENCES);
        assert_eq!(found[0], 0..1);
        assert_eq!(
            found[MAX_OCCURRENCES - 1],
            4 * (MAX_OCCURRENCES - 1)..4 * (MAX_OCCURRENCES - 1) + 1
        );
        // Under the limit, every one.
        assert_eq!(q.occurrences(&"a b ".repeat(10)).len(), 10);
    }

    use crate::search::masks::title_mask;
    use nucleo::{Config, Matcher};
    use proptest::prelude::*;

    // Two letters, where the masks may bound them (49 where they are
    // apart), on every short title of a few characters.
    #[test]
    fn two_letters_are_bounded_by_the_masks_truly() {
        const ALPHABET: &[u8] = b"abA1 -";
        let mut matcher = Matcher::new(Config::DEFAULT);
        let mut hays: Vec<Vec<u8>> = vec![Vec::new()];
        let mut bounded = 0;
        for _ in 0..5 {
            hays = hays
                .iter()
                .flat_map(|h| ALPHABET.iter().map(move |&c| [&h[..], &[c]].concat()))
                .collect();
            for hay in &hays {
                let text = std::str::from_utf8(hay).unwrap();
                let chars = Chars::ascii(hay, title_mask(text));
                let title = Utf32Str::Ascii(hay);
                for word in ["ab", "ba", "aa", "a1", "1b"] {
                    let query = Query::parse(word);
                    let want = query.words[0].title.score(title, &mut matcher);
                    for need in [0, 36, 48, 49, 50, 58, 59, 60, 61, 62, 63] {
                        match query.last_word_at_least(title, need, chars) {
                            Some(Scored::Exact(s)) => assert_eq!(Some(s), want, "{text:?} {word}"),
                            Some(Scored::Below) => {
                                bounded += 1;
                                assert!(
                                    want.is_some_and(|s| u32::from(s) < need),
                                    "{text:?} {word} at {need}: {want:?}"
                                );
                            }
                            Some(Scored::None) => assert_eq!(want, None, "{text:?} {word}"),
                            // Only a word as long as the title is left
                            // to nucleo.
                            None => assert!(hay.len() <= word.len(), "{text:?} {word}"),
                        }
                    }
                }
            }
        }
        assert!(bounded > 1000, "{bounded}");
    }

    #[test]
    fn head_most_is_what_the_words_before_the_last_can_score() {
        // 26 a letter, 10 more for a word's first.
        assert_eq!(Query::parse("sparse at").head_most(), Some(166));
        assert_eq!(Query::parse("rl sparse at").head_most(), Some(62 + 166));
        assert_eq!(Query::parse("sparse").head_most(), Some(0));
        // Exact, negated and non-ASCII words: not known.
        assert_eq!(Query::parse("'sparse at").head_most(), None);
        assert_eq!(Query::parse("!dense at").head_most(), None);
        assert_eq!(Query::parse("spärse at").head_most(), None);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        // The last word as the ranking asks for it (one letter answered
        // from the title's masks alone), against nucleo's own score.
        #[test]
        fn the_last_word_at_least_is_nucleos_score(
            hay in "[aAbB1 _/:.\t-]{1,60}",
            word in "[abAB1]{1,3}",
            // Around the most one, two and three letters score.
            need in prop::sample::select(vec![0u32, 1, 30, 35, 36, 37, 48, 49, 50, 61, 62, 63, 87, 88, 89]),
        ) {
            let query = Query::parse(&format!("x {word}"));
            let last = query.words.last().unwrap();
            let chars = Chars::ascii(hay.as_bytes(), title_mask(&hay));
            let title = Utf32Str::Ascii(hay.as_bytes());
            let mut matcher = Matcher::new(Config::DEFAULT);
            let want = last.title.score(title, &mut matcher);
            match query.last_word_at_least(title, need, chars) {
                Some(Scored::Exact(s)) => prop_assert_eq!(Some(s), want),
                Some(Scored::Below) => prop_assert!(want.is_some_and(|s| u32::from(s) < need), "{:?}", want),
                Some(Scored::None) => prop_assert_eq!(want, None),
                // Only a word as long as the title is left to nucleo.
                None => prop_assert!(word.len() >= hay.len()),
            }
            match query.last_word_matches(title, chars) {
                Some(matched) => prop_assert_eq!(matched, want.is_some()),
                None => prop_assert!(word.len() >= hay.len()),
            }
        }

        // Ranking bounds a title's words before the last by this, without
        // reading it.
        #[test]
        fn the_words_before_the_last_score_at_most_head_most(
            hay in "[aAbB1 _/:.\t-]{1,60}",
            words in prop::collection::vec("[abAB1_.]{1,4}", 1..4),
        ) {
            let query = Query::parse(&format!("{} z", words.join(" ")));
            let title = Utf32Str::Ascii(hay.as_bytes());
            let mut matcher = Matcher::new(Config::DEFAULT);
            let head: Option<u32> = query.words[..query.words.len() - 1]
                .iter()
                .map(|w| w.title.score(title, &mut matcher).map(u32::from))
                .sum();
            let most = query.head_most().unwrap();
            prop_assert!(head.is_none_or(|h| h <= most), "{head:?} > {most}");
        }
    }
}
