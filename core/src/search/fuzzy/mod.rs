//! nucleo's fuzzy score for ASCII titles, computed without nucleo's setup.
//!
//! Most of a keystroke's time on a large corpus went to nucleo working out
//! each title's character classes and copying it into its matrix before it
//! scored it. For an ASCII title and an ASCII query word this module gives
//! the same score from the title's bytes: the same prefilter, the same
//! window, the same dynamic programme over the same rows, with the bonus of
//! a column read from a table, and only the cells that hold a match worked
//! out. The result is identical to `nucleo_matcher`'s `fuzzy_match` (an
//! exhaustive test and a property test hold it to that); anything it does
//! not cover is left to nucleo.

use std::cell::RefCell;

use crate::simd;

mod pairs;

use pairs::{BOUND_TABLE_MOST, BoundTable, mask_bit};
pub use pairs::{
    Bonuses, PAIR_REACH, pair_halves, pair_probe, paired_most, paired_most_within, word_pairs,
};

// nucleo-matcher 0.3.1's scoring constants (score.rs) and default config.
const SCORE_MATCH: u16 = 16;
const PENALTY_GAP_START: u16 = 3;
const PENALTY_GAP_EXTENSION: u16 = 1;
const BONUS_BOUNDARY: u16 = SCORE_MATCH / 2;
const BONUS_CAMEL123: u16 = BONUS_BOUNDARY - PENALTY_GAP_START;
const BONUS_NON_WORD: u16 = BONUS_BOUNDARY;
const BONUS_CONSECUTIVE: u16 = PENALTY_GAP_START + PENALTY_GAP_EXTENSION;
const BONUS_FIRST_CHAR_MULTIPLIER: u16 = 2;
const BONUS_BOUNDARY_WHITE: u16 = BONUS_BOUNDARY + 2;
const BONUS_BOUNDARY_DELIMITER: u16 = BONUS_BOUNDARY + 1;
const DELIMITERS: &[u8] = b"/,:;|";
/// Windows longer than this, and needles longer than [`MAX_NEEDLE`], are
/// left to nucleo: its matrix has room for 100 KiB of cells, and past that
/// it switches to its greedy matcher, whose scores differ.
const MAX_WINDOW: usize = 1024;
/// See [`MAX_WINDOW`] (1024 × 64 cells fit nucleo's matrix).
const MAX_NEEDLE: usize = 64;

// Character classes, in nucleo's order.
const WHITESPACE: u8 = 0;
const NON_WORD: u8 = 1;
const DELIMITER: u8 = 2;
const LOWER: u8 = 3;
const UPPER: u8 = 4;
const NUMBER: u8 = 6;

const fn class_of(c: u8) -> u8 {
    match c {
        b'a'..=b'z' => LOWER,
        b'A'..=b'Z' => UPPER,
        b'0'..=b'9' => NUMBER,
        b' ' | b'\t' | b'\n' | b'\x0C' | b'\r' => WHITESPACE,
        _ => {
            let mut i = 0;
            while i < DELIMITERS.len() {
                if DELIMITERS[i] == c {
                    return DELIMITER;
                }
                i += 1;
            }
            NON_WORD
        }
    }
}

/// nucleo's `Config::bonus_for` with the default config.
const fn bonus_for(prev: u8, class: u8) -> u16 {
    if class > DELIMITER {
        match prev {
            WHITESPACE => return BONUS_BOUNDARY_WHITE,
            DELIMITER => return BONUS_BOUNDARY_DELIMITER,
            NON_WORD => return BONUS_BOUNDARY,
            _ => {}
        }
    }
    if (prev == LOWER && class == UPPER) || (prev != NUMBER && class == NUMBER) {
        BONUS_CAMEL123
    } else if class == WHITESPACE {
        BONUS_BOUNDARY_WHITE
    } else if class == NON_WORD {
        BONUS_NON_WORD
    } else {
        0
    }
}

/// The class of every byte (non-ASCII bytes never reach here).
const CLASS: [u8; 256] = {
    let mut t = [NON_WORD; 256];
    let mut b = 0;
    while b < 128 {
        t[b] = class_of(b as u8);
        b += 1;
    }
    t
};

/// `BONUS[prev class][class]`.
const BONUS: [[u8; 8]; 8] = {
    let mut t = [[0u8; 8]; 8];
    let mut p = 0;
    while p < 8 {
        let mut c = 0;
        while c < 8 {
            t[p][c] = bonus_for(p as u8, c as u8) as u8;
            c += 1;
        }
        p += 1;
    }
    t
};

/// A query word ready for [`Needle::score`]: ASCII, lower case when case
/// is ignored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Needle {
    bytes: Box<[u8]>,
    ignore_case: bool,
    /// The [`pair_probe`] of each two of its characters side by side,
    /// where it is letters and digits only (and not too long to score
    /// here); empty otherwise.
    probes: Box<[u128]>,
    /// The title mask bit of each of its characters (either case), where
    /// `probes` is not empty ([`Needle::pair_bound_in`]).
    bits: Box<[u64]>,
    /// For a needle of up to [`BOUND_TABLE_MOST`] characters,
    /// [`Needle::pair_bound_in`]'s answer for every title by what decides
    /// it ([`Needle::bound_key`]): worked out once, looked up for each of
    /// millions of titles. Empty otherwise.
    bounds: BoundTable,
}

/// The most one needle character adds to a score: a match and the largest
/// bonus (a consecutive match inherits at most that too). The first
/// character's bonus counts twice, so a word of `m` characters scores at
/// most `m * MAX_PER_CHAR + MAX_FIRST_EXTRA`, and a word grown by `k`
/// characters scores at most `k * MAX_PER_CHAR` more than it did (its
/// alignment, cut back, is one of the shorter word's).
pub const MAX_PER_CHAR: u32 = (SCORE_MATCH + BONUS_BOUNDARY_WHITE) as u32;
/// See [`MAX_PER_CHAR`].
pub const MAX_FIRST_EXTRA: u32 = BONUS_BOUNDARY_WHITE as u32;

/// The most a word of `chars` characters scores: whole, at the start of a
/// word (see [`MAX_PER_CHAR`]).
pub const fn word_most(chars: usize) -> u32 {
    chars as u32 * MAX_PER_CHAR + MAX_FIRST_EXTRA
}

/// A matrix cell: the best score with this needle character matched here,
/// and the bonus a consecutive match inherits.
#[derive(Clone, Copy, Default)]
struct Cell {
    score: u16,
    consecutive: u8,
}

/// The cells of one row that hold a match (the others hold none), by column.
type Row = Vec<(u16, Cell)>;

#[derive(Default)]
struct Scratch {
    /// Per needle character, a bit per title byte: where it occurs.
    occ: Vec<u64>,
    cur: Row,
    next: Row,
    rows: Vec<usize>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::default();
}

/// Sets in `set` (a bit per byte of `hay`, cleared) where `c` occurs,
/// ASCII case folded when `ignore_case`; sixteen bytes at a time
/// ([`simd::equal_folded`]). A title's last few bytes are read as the last
/// sixteen (they overlap the sixteen before): copying them out to read
/// them stalled on every title.
fn occurrences(set: &mut [u64], hay: &[u8], c: u8, ignore_case: bool) {
    // Upper- and lower-case letters differ only in bit 5, and no other
    // byte lands on a lower-case letter with it set.
    let fold = if ignore_case && c.is_ascii_lowercase() {
        0x20
    } else {
        0
    };
    let bits = |sixteen: &[u8; 16]| u64::from(simd::equal_folded(sixteen, c, fold));
    let n = hay.len();
    let chunks = hay.chunks_exact(16);
    let tail = chunks.remainder().len();
    let full = n / 16;
    // Each word of `set` is written once (or-ing into memory chunk by
    // chunk waited on the store before).
    let mut acc = 0u64;
    for (k, chunk) in chunks.enumerate() {
        if let Ok(sixteen) = chunk.try_into() {
            acc |= bits(sixteen) << (16 * (k % 4));
        }
        if k % 4 == 3 {
            set[k / 4] = acc;
            acc = 0;
        }
    }
    if tail > 0 {
        acc |= if n >= 16 {
            hay[n - 16..]
                .try_into()
                .map_or(0, |s| bits(s) >> (16 - tail))
        } else {
            let mut bytes = [0u8; 16];
            bytes[..tail].copy_from_slice(hay);
            bits(&bytes) & ((1 << tail) - 1)
        } << (16 * (full % 4));
    }
    if !full.is_multiple_of(4) || tail > 0 {
        set[full / 4] = acc;
    }
}

/// The first place at or after `from` in `set`.
#[inline]
fn next_bit(set: &[u64], from: usize) -> Option<usize> {
    let mut w = from / 64;
    let mut bits = *set.get(w)? & (!0u64 << (from % 64));
    loop {
        if bits != 0 {
            return Some(w * 64 + bits.trailing_zeros() as usize);
        }
        w += 1;
        bits = *set.get(w)?;
    }
}

/// The last place in `set`.
#[inline]
fn last_bit(set: &[u64]) -> Option<usize> {
    let w = set.iter().rposition(|&b| b != 0)?;
    Some(w * 64 + 63 - set[w].leading_zeros() as usize)
}

/// Calls `f` with every place in `from..to` in `set`, in order, until it
/// returns true.
#[inline]
fn each_bit(set: &[u64], from: usize, to: usize, mut f: impl FnMut(usize) -> bool) {
    if from >= to {
        return;
    }
    let first = from / 64;
    for (w, &word) in set.iter().enumerate().take((to - 1) / 64 + 1).skip(first) {
        let mut bits = word;
        if w == first {
            bits &= !0u64 << (from % 64);
        }
        while bits != 0 {
            let k = w * 64 + bits.trailing_zeros() as usize;
            if k >= to || f(k) {
                return;
            }
            bits &= bits - 1;
        }
    }
}

/// Calls `f` with each byte of the ASCII text `hay` and the bonus nucleo
/// gives a match of it there.
#[inline]
pub fn each_bonus(hay: &[u8], mut f: impl FnMut(u8, u16)) {
    // The start counts as white space.
    let mut prev = WHITESPACE;
    for &c in hay {
        let class = CLASS[c as usize];
        f(c, u16::from(BONUS[prev as usize][class as usize]));
        prev = class;
    }
}

/// Whether nucleo takes ASCII byte `c` for white space.
pub fn is_white(c: u8) -> bool {
    CLASS[c as usize] == WHITESPACE
}

/// The largest bonus, a letter's or digit's at the start or after white
/// space.
pub const BONUS_MOST: u16 = BONUS_BOUNDARY_WHITE;

/// What one character matched where it gets no bonus scores.
pub const SCORE_PLAIN: u32 = SCORE_MATCH as u32;

/// The most two characters score where the second gets no bonus of its
/// own, the first none but after white space, and they are not whole
/// right after white space: apart (a gap costs at least its start), the
/// first at a word's start (side by side, with the first elsewhere, they
/// score 36 at most).
pub const PAIR_APART_MOST: u32 = 2 * SCORE_MATCH as u32
    + BONUS_FIRST_CHAR_MULTIPLIER as u32 * BONUS_BOUNDARY_WHITE as u32
    - PENALTY_GAP_START as u32;

/// A title's bytes with the class of the character before a column.
struct Window<'a> {
    hay: &'a [u8],
    /// Where the window starts in the title.
    start: usize,
}

impl Window<'_> {
    /// The bonus of a match at title byte `k`.
    #[inline(always)]
    fn bonus(&self, k: usize) -> u16 {
        let prev = if k == 0 {
            WHITESPACE
        } else {
            CLASS[self.hay[k - 1] as usize]
        };
        u16::from(BONUS[prev as usize][CLASS[self.hay[k] as usize] as usize])
    }
}

impl Needle {
    /// The fast path for a fuzzy word `needle` matched with `ignore_case`
    /// (as nucleo's smart case decided), when it covers it.
    pub fn new(needle: &str, ignore_case: bool) -> Option<Needle> {
        let b = needle.as_bytes();
        let probes =
            if b.len() >= 2 && b.len() <= MAX_NEEDLE && b.iter().all(u8::is_ascii_alphanumeric) {
                b.windows(2).map(|w| pair_probe(w[0], w[1])).collect()
            } else {
                Box::default()
            };
        let bits = if probes.is_empty() {
            Box::default()
        } else {
            b.iter().map(|&c| mask_bit(c)).collect()
        };
        let bounds = if !probes.is_empty() && b.len() <= BOUND_TABLE_MOST {
            BoundTable::new(1 << (3 * b.len() - 1))
        } else {
            BoundTable::default()
        };
        (needle.is_ascii() && !needle.is_empty()).then(|| Needle {
            bytes: b.into(),
            ignore_case,
            probes,
            bits,
            bounds,
        })
    }

    /// The [`super::masks::title_mask`] bit of needle byte `c`, a letter
    /// or digit matched whatever its case (a digit has none).
    fn folded_bit(&self, c: u8) -> Option<u64> {
        match c {
            b'a'..=b'z' if self.ignore_case => Some(1 << (c - b'a')),
            b'0'..=b'9' => Some(1 << (26 + c - b'0')),
            _ => None,
        }
    }

    /// [`Needle::folded_bit`] of a needle of one character.
    pub fn single_bit(&self) -> Option<u64> {
        match *self.bytes {
            [c] => self.folded_bit(c),
            _ => None,
        }
    }

    /// [`Needle::folded_bit`] of each of a needle of two characters.
    pub fn pair_bits(&self) -> Option<(u64, u64)> {
        match *self.bytes {
            [a, b] => Some((self.folded_bit(a)?, self.folded_bit(b)?)),
            _ => None,
        }
    }

    /// Whether title byte `b` is needle byte `c` (as the case is matched).
    fn same(&self, b: u8, c: u8) -> bool {
        if self.ignore_case {
            b.to_ascii_lowercase() == c
        } else {
            b == c
        }
    }

    /// Whether the needle matches the ASCII text `hay` at all (nucleo's
    /// prefilter, which decides for ASCII): `None` when nucleo must answer.
    pub fn matches(&self, hay: &[u8]) -> Option<bool> {
        let needle = &self.bytes[..];
        if needle.len() >= hay.len() {
            return None;
        }
        if hay.len() >= 16 {
            return Some(self.subsequence_by_sixteen(hay));
        }
        // Each needle character after the one before (the first one's
        // place at most `n - m` follows: the rest must fit after it).
        let mut rest = hay.iter();
        Some(needle.iter().all(|&c| rest.any(|&b| self.same(b, c))))
    }

    /// [`Needle::matches`] sixteen bytes at a time
    /// ([`simd::equal_folded`]): each needle character is looked for from
    /// just after the one before, which is most often within the same
    /// sixteen. `hay` is sixteen bytes or more.
    fn subsequence_by_sixteen(&self, hay: &[u8]) -> bool {
        let n = hay.len();
        let mut from = 0;
        for &c in &self.bytes[..] {
            let fold = if self.ignore_case && c.is_ascii_lowercase() {
                0x20
            } else {
                0
            };
            loop {
                if from >= n {
                    return false;
                }
                // The last sixteen bytes where fewer are left.
                let at = from.min(n - 16);
                let Some(sixteen) = hay.get(at..at + 16).and_then(|s| s.try_into().ok()) else {
                    return false;
                };
                let found = simd::equal_folded(sixteen, c, fold) & (!0u32 << (from - at));
                if found != 0 {
                    from = at + found.trailing_zeros() as usize + 1;
                    break;
                }
                from = at + 16;
            }
        }
        true
    }

    /// nucleo's fuzzy score of this needle in the ASCII text `hay`:
    /// `Some(None)` when it does not match, `None` when nucleo must answer.
    pub fn score(&self, hay: &[u8]) -> Option<Option<u16>> {
        self.score_at_least(hay, 0).map(|s| match s {
            Scored::Exact(score) => Some(score),
            // Every score is at least 0.
            Scored::None | Scored::Below => None,
        })
    }

    /// [`Needle::score`] for a caller that only wants scores of `need` or
    /// more: a match that cannot reach it may be answered with
    /// [`Scored::Below`] without working out its score. `None` when nucleo
    /// must answer.
    pub fn score_at_least(&self, hay: &[u8], need: u16) -> Option<Scored> {
        let most = word_most(self.bytes.len());
        self.score_at_least_else(
            hay,
            need,
            most.saturating_sub(1).min(u32::from(u16::MAX)) as u16,
        )
    }

    /// [`Needle::score_at_least`] where the caller knows that the needle
    /// scores at most `else_most` unless it stands whole right after white
    /// space (see [`Needle::pair_bits`]).
    pub fn score_at_least_else(&self, hay: &[u8], need: u16, else_most: u16) -> Option<Scored> {
        let needle = &self.bytes[..];
        let (n, m) = (hay.len(), needle.len());
        if m >= n || m > MAX_NEEDLE || n > usize::from(u16::MAX) {
            return None;
        }
        SCRATCH.with(|s| {
            let s = &mut *s.borrow_mut();
            let words = n.div_ceil(64);
            s.occ.clear();
            s.occ.resize(m * words, 0);
            for (j, &c) in needle.iter().enumerate() {
                // A character met before occurs where it did (`attention`
                // has three `t`s).
                match needle[..j].iter().position(|&d| d == c) {
                    Some(i) => s.occ.copy_within(i * words..(i + 1) * words, j * words),
                    None => occurrences(&mut s.occ[j * words..][..words], hay, c, self.ignore_case),
                }
            }
            let occ = |j: usize| &s.occ[j * words..][..words];
            if m == 1 {
                return Some(single(occ(0), hay).map_or(Scored::None, Scored::Exact));
            }
            // nucleo's prefilter: the first place the first character can
            // match, the greedy end, and the last place the last character
            // occurs after it.
            let start = match next_bit(occ(0), 0) {
                Some(k) if k <= n - m => k,
                _ => return Some(Scored::None),
            };
            s.rows.clear();
            s.rows.push(start);
            let mut greedy_end = start + 1;
            for j in 1..m {
                let Some(k) = next_bit(occ(j), greedy_end) else {
                    return Some(Scored::None);
                };
                s.rows.push(k);
                greedy_end = k + 1;
            }
            let end = last_bit(occ(m - 1)).map_or(greedy_end, |k| (k + 1).max(greedy_end));
            if end - start > MAX_WINDOW {
                return None;
            }
            let window = Window { hay, start };
            if end - start == m {
                return Some(Scored::Exact(consecutive_score(&window, m)));
            }
            // The best any alignment can score: the needle whole, at the
            // start of a word.
            let most = word_most(m) as u16;
            if need > most {
                return Some(Scored::Below);
            }
            if self.at_word_start(occ(0), occ(1), &window) {
                return Some(Scored::Exact(most));
            }
            if need > else_most.min(most - 1) {
                return Some(Scored::Below);
            }
            let Scratch {
                occ,
                cur,
                next,
                rows,
            } = s;
            let occ = |j: usize| &occ[j * words..][..words];
            if m == 2 {
                return Some(Scored::Exact(optimal_pair(
                    occ(0),
                    occ(1),
                    end,
                    &window,
                    rows[1],
                )));
            }
            Some(Scored::Exact(optimal(
                m, &occ, end, &window, rows, cur, next,
            )))
        })
    }

    /// Whether the needle occurs whole right after white space (or at the
    /// start), where each of its characters gets the largest bonus: the
    /// one alignment that scores [`MAX_PER_CHAR`] a character and
    /// [`MAX_FIRST_EXTRA`], which no other reaches (any gap costs).
    /// `first` and `second` are where its first two characters occur.
    fn at_word_start(&self, first: &[u64], second: &[u64], window: &Window) -> bool {
        let (hay, needle) = (window.hay, &self.bytes[..]);
        let (start, to) = (window.start, hay.len() + 1 - needle.len());
        // Where the first character is followed by the second: seldom.
        for (w, (&a, &b)) in first.iter().zip(second).enumerate() {
            let next = second.get(w + 1).map_or(0, |&c| c << 63);
            let mut bits = a & ((b >> 1) | next);
            while bits != 0 {
                let k = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if (start..to).contains(&k)
                    && window.bonus(k) == BONUS_BOUNDARY_WHITE
                    && hay[k + 2..k + needle.len()]
                        .iter()
                        .zip(&needle[2..])
                        .all(|(&b, &c)| self.same(b, c))
                {
                    return true;
                }
            }
        }
        false
    }
}

/// What [`Needle::score_at_least`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scored {
    /// The needle does not match.
    None,
    /// It matches with this score.
    Exact(u16),
    /// It matches, scoring less than was asked for.
    Below,
}

/// nucleo's `substring_match_1_ascii`: the best place for one character.
fn single(occ: &[u64], hay: &[u8]) -> Option<u16> {
    let window = Window { hay, start: 0 };
    let mut best = None;
    each_bit(occ, 0, hay.len(), |k| {
        let bonus = window.bonus(k);
        let score = bonus * BONUS_FIRST_CHAR_MULTIPLIER + SCORE_MATCH;
        if best.is_none_or(|b| score > b) {
            best = Some(score);
        }
        // Nothing beats a match after white space.
        bonus >= BONUS_BOUNDARY_WHITE
    });
    best
}

/// nucleo's `calculate_score` for a window that is the needle itself.
fn consecutive_score(window: &Window, m: usize) -> u16 {
    let mut first = window.bonus(window.start);
    let mut score = SCORE_MATCH + first * BONUS_FIRST_CHAR_MULTIPLIER;
    for k in window.start + 1..window.start + m {
        let mut b = window.bonus(k);
        if b >= BONUS_BOUNDARY && b > first {
            first = b;
        }
        b = b.max(first).max(BONUS_CONSECUTIVE);
        score += SCORE_MATCH + b;
    }
    score
}

/// nucleo's `next_m_cell`: needle character `j + 1` matched at a column
/// whose bonus is `bonus`, after `diag` (character `j` matched at the
/// column before; score 0 when it is not) or a gap worth `gap`.
#[inline(always)]
fn next_cell(gap: u16, bonus: u16, diag: Cell) -> Cell {
    if diag.score == 0 {
        return Cell {
            score: gap + bonus + SCORE_MATCH,
            consecutive: bonus as u8,
        };
    }
    let mut consecutive = u16::from(diag.consecutive).max(BONUS_CONSECUTIVE);
    if bonus >= BONUS_BOUNDARY && bonus > consecutive {
        consecutive = bonus;
    }
    let on = diag.score + consecutive.max(bonus);
    let skip = gap + bonus;
    if on > skip {
        Cell {
            score: on + SCORE_MATCH,
            consecutive: consecutive as u8,
        }
    } else {
        Cell {
            score: skip + SCORE_MATCH,
            consecutive: bonus as u8,
        }
    }
}

/// nucleo's optimal alignment over the window `window.start..end`, row by
/// row: row `j` (needle character `j`, at the places `occ(j)`) starts at
/// `rows[j]`, its greedy place, and holds a match only where that
/// character occurs, so only those cells are worked out. nucleo's gap
/// score at column `k` is the best of `score - 3 - (k - 1 - c)` over the
/// previous row's matches at `c < k` (never below 0), which a running
/// maximum of `score + c` gives.
fn optimal<'a>(
    m: usize,
    occ: &impl Fn(usize) -> &'a [u64],
    end: usize,
    window: &Window,
    rows: &[usize],
    cur: &mut Row,
    next: &mut Row,
) -> u16 {
    let start = window.start;
    cur.clear();
    each_bit(occ(0), start, end, |k| {
        let b = window.bonus(k);
        cur.push((
            (k - start) as u16,
            Cell {
                score: b * BONUS_FIRST_CHAR_MULTIPLIER + SCORE_MATCH,
                consecutive: b as u8,
            },
        ));
        false
    });
    let mut most = 0;
    for (j, &row) in rows.iter().enumerate().take(m).skip(1) {
        next.clear();
        // The last row is not kept: only its best score is wanted.
        let last = j == m - 1;
        // No match before: no gap score.
        let mut best = -(1 << 20);
        let mut i = 0;
        each_bit(occ(j), row, end, |k| {
            let q = k - start;
            while let Some(&(c, cell)) = cur.get(i)
                && usize::from(c) + 2 <= q
            {
                best = best.max(i32::from(cell.score) + i32::from(c));
                i += 1;
            }
            let diag = match cur.get(i) {
                Some(&(c, cell)) if usize::from(c) + 1 == q => cell,
                _ => Cell::default(),
            };
            let gap = (best - q as i32 - 1).max(0) as u16;
            let cell = next_cell(gap, window.bonus(k), diag);
            if last {
                most = most.max(cell.score);
            } else {
                next.push((q as u16, cell));
            }
            false
        });
        std::mem::swap(cur, next);
    }
    if m == 1 {
        most = cur.iter().map(|(_, c)| c.score).max().unwrap_or(0);
    }
    most
}

/// [`optimal`] for a needle of two characters, at the places `first` and
/// `second`, the second's row starting at `row`: each of the second's
/// places is worked out from the first's before it as they are met, with
/// no row kept.
fn optimal_pair(first: &[u64], second: &[u64], end: usize, window: &Window, row: usize) -> u16 {
    let start = window.start;
    let first_cell = |k: usize| {
        let b = window.bonus(k);
        Cell {
            score: b * BONUS_FIRST_CHAR_MULTIPLIER + SCORE_MATCH,
            consecutive: b as u8,
        }
    };
    // The first character's places not yet passed, from the window's start.
    let mut ahead = next_bit(first, start).filter(|&c| c < end);
    // No match before: no gap score.
    let mut best = -(1 << 20);
    let mut most = 0;
    each_bit(second, row, end, |k| {
        while let Some(c) = ahead
            && c + 2 <= k
        {
            best = best.max(i32::from(first_cell(c).score) + c as i32);
            ahead = next_bit(first, c + 1).filter(|&c| c < end);
        }
        let diag = match ahead {
            Some(c) if c + 1 == k => first_cell(c),
            _ => Cell::default(),
        };
        let gap = (best - k as i32 - 1).max(0) as u16;
        most = most.max(next_cell(gap, window.bonus(k), diag).score);
        false
    });
    most
}

#[cfg(test)]
mod tests {
    use super::*;
    use nucleo::pattern::{Atom, AtomKind, CaseMatching, Normalization};
    use nucleo::{Config, Matcher, Utf32Str};
    use proptest::prelude::*;

    fn nucleo_score(hay: &str, needle: &str) -> Option<u16> {
        let atom = Atom::new(
            needle,
            CaseMatching::Smart,
            Normalization::Smart,
            AtomKind::Fuzzy,
            false,
        );
        let mut m = Matcher::new(Config::DEFAULT);
        let mut buf = Vec::new();
        atom.score(Utf32Str::new(hay, &mut buf), &mut m)
    }

    fn ours(hay: &str, needle: &str) -> Option<Option<u16>> {
        let ignore_case = !needle.chars().any(|c| c.is_ascii_uppercase());
        Needle::new(needle, ignore_case)?.score(hay.as_bytes())
    }

    #[test]
    fn agrees_with_nucleo_on_titles() {
        let titles = [
            "Reinforcement Learning from Human Feedback",
            "RL for LLMs: a survey",
            "Sparse attention for long contexts",
            "SparseNet: sparse-attention/long ctx",
            "rlrlrl rl-rl rl_rl RLRL",
            "A3C: asynchronous actor-critic",
        ];
        for t in titles {
            for q in [
                "rl", "RL", "sparse", "spat", "lc", "a3", "ac", "learning", "rlrl",
            ] {
                // ASCII needles shorter than the title: all covered.
                let Some(fast) = ours(t, q) else {
                    panic!("{q:?} in {t:?} is left to nucleo");
                };
                assert_eq!(fast, nucleo_score(t, q), "{q:?} in {t:?}");
            }
        }
    }

    #[test]
    fn scores_what_it_covers() {
        assert_eq!(
            ours("Reinforcement Learning", "rl"),
            Some(nucleo_score("Reinforcement Learning", "rl"))
        );
        assert!(ours("Reinforcement Learning", "rl").unwrap().is_some());
        assert_eq!(ours("Sparse attention", "xyz"), Some(None));
        // Non-ASCII words and needles as long as the title are nucleo's.
        assert_eq!(ours("Sparse", "s"), Some(nucleo_score("Sparse", "s")));
        assert_eq!(ours("Sparse", "spärse"), None);
        assert_eq!(ours("ab", "ab"), None);
        let long = "a".repeat(MAX_NEEDLE + 1);
        assert_eq!(ours(&format!("{long}b"), &long), None);
    }

    #[test]
    fn a_word_start_scores_the_most_and_the_rest_can_be_left_below() {
        let fast = Needle::new("rl", true).unwrap();
        let most = (2 * MAX_PER_CHAR + MAX_FIRST_EXTRA) as u16;
        for hay in [
            "Deep RL for robots",
            "rl agents",
            "Scaling RLHF: rl-from-feedback",
        ] {
            assert_eq!(
                fast.score_at_least(hay.as_bytes(), most),
                Some(Scored::Exact(most))
            );
            assert_eq!(nucleo_score(hay, "rl"), Some(most), "{hay}");
        }
        // A match elsewhere scores less: asked for the most, it is below.
        let hay = "Reinforcement Learning, unrolled";
        assert!(nucleo_score(hay, "rl").unwrap() < most);
        assert_eq!(
            fast.score_at_least(hay.as_bytes(), most),
            Some(Scored::Below)
        );
        assert_eq!(
            fast.score_at_least(hay.as_bytes(), most + 1),
            Some(Scored::Below)
        );
        assert_eq!(
            fast.score_at_least(hay.as_bytes(), 1),
            Some(Scored::Exact(nucleo_score(hay, "rl").unwrap()))
        );
        assert_eq!(
            fast.score_at_least(b"no match here", most),
            Some(Scored::None)
        );
    }

    #[test]
    fn agrees_with_nucleo_exhaustively_on_short_texts() {
        // Every text of up to five characters over a small alphabet, every
        // two- and three-character needle over it: most match, and every
        // covered score is nucleo's.
        let alphabet = ['a', 'b', 'A', ' ', '-', '1'];
        let mut texts = vec![String::new()];
        let mut all = Vec::new();
        for _ in 0..5 {
            texts = texts
                .iter()
                .flat_map(|t| alphabet.iter().map(move |c| format!("{t}{c}")))
                .collect();
            all.extend(texts.iter().cloned());
        }
        let needles = [
            "a", "A", "-", "ab", "ba", "aa", "a1", "Ab", "a-b", "aba", "b a",
        ];
        let mut scored = 0;
        for t in &all {
            for q in needles {
                match ours(t, q) {
                    Some(fast) => {
                        assert_eq!(fast, nucleo_score(t, q), "{q:?} in {t:?}");
                        scored += usize::from(fast.is_some());
                    }
                    // Only a needle as long as the text is left to nucleo.
                    None => assert!(q.len() >= t.len(), "{q:?} in {t:?} is left to nucleo"),
                }
            }
        }
        assert!(scored > 10_000, "only {scored} matches scored");
    }

    /// The most `needle` can score in `hay` by `hay`'s pair filter
    /// ([`Needle::pair_bound`]).
    fn bound(hay: &str, needle: &str) -> u32 {
        let ignore_case = !needle.chars().any(|c| c.is_ascii_uppercase());
        Needle::new(needle, ignore_case)
            .unwrap()
            .pair_bound(word_pairs(hay.as_bytes()))
            .unwrap()
    }

    /// [`bound`] told too which of the needle's characters have a bonus
    /// of their own in `hay`, and where ([`Needle::pair_bound_in`]): never
    /// more.
    fn bound_in(hay: &str, needle: &str) -> u32 {
        let ignore_case = !needle.chars().any(|c| c.is_ascii_uppercase());
        bound_in_of(&Needle::new(needle, ignore_case).unwrap(), hay)
    }

    /// [`bound_in`] for a needle made already (a needle's bounds are
    /// worked out once).
    fn bound_in_of(needle: &Needle, hay: &str) -> u32 {
        let chars = crate::search::masks::Chars::ascii(
            hay.as_bytes(),
            crate::search::masks::title_mask(hay),
        );
        let within = needle
            .pair_bound_in(chars.pairs, chars.starts, chars.inner)
            .unwrap();
        let alone = needle.pair_bound(chars.pairs).unwrap();
        assert!(within <= alone, "{needle:?} in {hay:?}");
        within
    }

    /// Every text of one to `longest` characters over `alphabet`.
    fn every_text(alphabet: &[char], longest: usize) -> Vec<String> {
        let mut texts = vec![String::new()];
        let mut every = Vec::new();
        for _ in 0..longest {
            texts = texts
                .iter()
                .flat_map(|t| alphabet.iter().map(move |c| format!("{t}{c}")))
                .collect();
            every.extend(texts.iter().cloned());
        }
        every
    }

    #[test]
    fn the_pair_filter_and_the_bonuses_bound_every_score() {
        // As below, the characters' bonuses told too: every score is
        // within the bound, and where the first letter of a needle has no
        // bonus in a text, the bound is under the pair filter's alone.
        let alphabet = ['a', 'b', 'A', 'B', ' ', '-', ':', '1', '('];
        let needles = [
            "ab", "ba", "aa", "a1", "1a", "Ab", "aB", "aba", "ab1", "abab", "b1Ab", "bab",
        ]
        .map(|q| {
            let ignore_case = !q.chars().any(|c| c.is_ascii_uppercase());
            (q, Needle::new(q, ignore_case).unwrap())
        });
        let (mut lower, mut matched) = (0, 0);
        for t in &every_text(&alphabet, 5) {
            for (q, needle) in &needles {
                let within = bound_in_of(needle, t);
                if let Some(s) = nucleo_score(t, q) {
                    matched += 1;
                    let alone = needle.pair_bound(word_pairs(t.as_bytes())).unwrap();
                    lower += usize::from(within < alone);
                    assert!(u32::from(s) <= within, "{q:?} in {t:?}: {s} > {within}");
                }
            }
        }
        assert!(lower > 20_000, "{lower} of {matched} matches bounded lower");
        // An acronym whose first letter no word of the title starts with
        // and that has no bonus there: 16 for it, and the rest as they
        // may. The pair filter alone gave 72.
        let title = "Diagnosing Neural Operators with anomaly Networks";
        assert_eq!(bound(title, "gnn"), 72);
        assert_eq!(bound_in(title, "gnn"), 60);
        assert!(nucleo_score(title, "gnn").unwrap() <= 60);
        // Side by side at a word's start after the first letter: the most
        // the bound allows is reached.
        let reached = "big Nnet";
        assert_eq!(bound_in(reached, "gnn"), 65);
        assert_eq!(nucleo_score(reached, "gnn"), Some(65));
        // With a word starting with the first letter, as before.
        let graph = "Graph Networks in Neural Operators";
        assert_eq!(bound_in(graph, "gnn"), bound(graph, "gnn"));
    }

    #[test]
    fn the_pair_filter_bounds_every_score() {
        // Every text of up to five characters over a small alphabet, and
        // needles of two to four letters and digits: nucleo's score is
        // never above the bound, which is under the word's most for most
        // texts.
        let alphabet = ['a', 'b', 'A', 'B', ' ', '-', ':', '1'];
        let (mut under, mut matched) = (0, 0);
        for t in &every_text(&alphabet, 5) {
            for q in [
                "ab", "ba", "aa", "a1", "1a", "Ab", "aB", "aba", "ab1", "abab", "b1Ab",
            ] {
                let most = bound(t, q);
                assert!(most <= word_most(q.len()), "{q:?} in {t:?}: {most}");
                if let Some(s) = nucleo_score(t, q) {
                    matched += 1;
                    under += usize::from(most < word_most(q.len()));
                    assert!(u32::from(s) <= most, "{q:?} in {t:?}: {s} > {most}");
                }
            }
        }
        assert!(
            under > 20_000,
            "{under} of {matched} matches bounded under the most"
        );
        // Two characters: 62 where paired, 49 where not; the reach: a
        // word's first letter pairs with a word's first letter ten bytes
        // after the one beside it, and not eleven, where the gap alone
        // keeps the score to 49.
        let (near, far) = ("a xxxxxxxx b", "a xxxxxxxxx b");
        assert_eq!(bound(near, "ab"), 62);
        assert_eq!(nucleo_score(near, "ab"), Some(50));
        assert_eq!(bound(far, "ab"), 49);
        assert_eq!(nucleo_score(far, "ab"), Some(49));
        // Side by side at a word's start, after punctuation and a delimiter.
        for t in ["x rl", "x-rl", "x:rl", "RL", "x RLHF"] {
            assert_eq!(bound(t, "rl"), 62, "{t:?}");
        }
        // Inside a word, or apart with no bonus.
        for t in ["world", "x rxl", "early rise"] {
            assert_eq!(bound(t, "rl"), 49, "{t:?}");
        }
        // Three letters none of whose pairs a title holds score at most 72
        // there (where any one pair makes it 75 or more); whole at a
        // word's start, the most.
        let far_apart = "xAyyyyyyyyyyyyy Byyyyyyyyyyyyy C";
        assert_eq!(bound(far_apart, "abc"), 72);
        assert_eq!(bound("x rlh", "rlh"), word_most(3));
    }

    proptest! {
        // A short needle's bound looked up is the bound worked out, for
        // any title's pairs and bonuses (a longer one's is worked out).
        #[test]
        fn a_bound_looked_up_is_the_bound_worked_out(
            needle in "[abAB1]{2,6}",
            pairs in proptest::array::uniform2(proptest::num::u64::ANY),
            starts in proptest::num::u64::ANY,
            inner in proptest::num::u64::ANY,
        ) {
            let ignore_case = !needle.chars().any(|c| c.is_ascii_uppercase());
            let fast = Needle::new(&needle, ignore_case).unwrap();
            prop_assert_eq!(fast.bounds.is_empty(), needle.len() > BOUND_TABLE_MOST);
            let have = u128::from(pairs[0]) | (u128::from(pairs[1]) << 64);
            prop_assert_eq!(
                fast.pair_bound_in(pairs, starts, inner),
                Some(fast.walk_bound(have, starts, inner))
            );
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]
        // The pair filter bounds nucleo's score over titles of words of any
        // length.
        #[test]
        fn the_pair_filter_bounds_long_titles(
            hay in "[a-cA-C1]{0,14}([ :-][a-cA-C1]{1,14}){0,8}",
            needle in "[abcABC1]{2,6}",
        ) {
            if let Some(s) = nucleo_score(&hay, &needle) {
                prop_assert!(u32::from(s) <= bound(&hay, &needle), "{s}");
                prop_assert!(u32::from(s) <= bound_in(&hay, &needle), "{s}");
            }
        }

        // What ranking prunes by: a word scores at most MAX_PER_CHAR per
        // character (and the first character's extra), and one character
        // more adds at most MAX_PER_CHAR; `matches` agrees with scoring.
        #[test]
        fn growth_is_bounded(
            hay in "[aAbBcC1 _/:.-]{1,80}",
            needle in "[abcABC1_/.-]{1,5}",
            more in "[abcABC1_/.-]",
        ) {
            let longer = format!("{needle}{more}");
            let short = nucleo_score(&hay, &needle);
            let long = nucleo_score(&hay, &longer);
            if let Some(s) = short {
                prop_assert!(u32::from(s) <= needle.len() as u32 * MAX_PER_CHAR + MAX_FIRST_EXTRA);
            }
            match (short, long) {
                (Some(s), Some(l)) => {
                    prop_assert!(u32::from(l) <= u32::from(s) + MAX_PER_CHAR, "{l} > {s} + 26");
                }
                // What does not match does not match with more typed.
                (None, l) => prop_assert_eq!(l, None),
                (Some(_), None) => {}
            }
            let ignore_case = !longer.chars().any(|c| c.is_ascii_uppercase());
            match Needle::new(&longer, ignore_case).unwrap().matches(hay.as_bytes()) {
                Some(m) => prop_assert_eq!(m, long.is_some()),
                // Only a needle as long as the title is left to nucleo.
                None => prop_assert!(longer.len() >= hay.len()),
            }
        }

        // Asked for a least score, it answers with nucleo's score, or says
        // truly that a match scores less.
        #[test]
        fn a_least_score_asked_for_is_kept_to(
            hay in "[aAbBcC1 _/:.-]{1,100}",
            needle in "[abcABC1_/.-]{1,5}",
            need in 0u16..200,
        ) {
            let ignore_case = !needle.chars().any(|c| c.is_ascii_uppercase());
            let fast = Needle::new(&needle, ignore_case).unwrap();
            let want = nucleo_score(&hay, &needle);
            match fast.score_at_least(hay.as_bytes(), need) {
                Some(Scored::Exact(s)) => prop_assert_eq!(Some(s), want),
                Some(Scored::Below) => prop_assert!(want.is_some_and(|s| s < need), "{:?}", want),
                Some(Scored::None) => prop_assert_eq!(want, None),
                // Only a needle as long as the title is left to nucleo.
                None => {
                    prop_assert!(needle.len() >= hay.len());
                    prop_assert_eq!(fast.score(hay.as_bytes()), None);
                }
            }
        }

        #[test]
        fn same_score_as_nucleo(
            hay in "[aAbBcC1 _/:.-]{1,150}",
            needle in "[abcABC1_/.-]{1,5}",
        ) {
            // Only a needle as long as the title is left to nucleo.
            match ours(&hay, &needle) {
                Some(fast) => prop_assert_eq!(fast, nucleo_score(&hay, &needle)),
                None => prop_assert!(needle.len() >= hay.len()),
            }
            // Long enough to be read sixteen bytes at a time.
            let ignore_case = !needle.chars().any(|c| c.is_ascii_uppercase());
            match Needle::new(&needle, ignore_case).unwrap().matches(hay.as_bytes()) {
                Some(m) => prop_assert_eq!(m, nucleo_score(&hay, &needle).is_some()),
                None => prop_assert!(needle.len() >= hay.len()),
            }
        }
    }
}
