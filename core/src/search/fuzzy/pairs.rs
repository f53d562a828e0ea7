//! What a query word can score in a title, told from the title's masks
//! without reading it: the pair filter (which two letters or digits start
//! a word of the title side by side, or near), which letters get a bonus
//! there, and the walk over the word's letters that bounds nucleo's score
//! from them. A title whose bound is under the first page's floor is only
//! checked to match.

use std::sync::atomic::{AtomicU16, Ordering};

use super::{
    BONUS_BOUNDARY, BONUS_BOUNDARY_DELIMITER, BONUS_BOUNDARY_WHITE, BONUS_CAMEL123,
    BONUS_CONSECUTIVE, BONUS_FIRST_CHAR_MULTIPLIER, Needle, PENALTY_GAP_EXTENSION,
    PENALTY_GAP_START, SCORE_MATCH, each_bonus,
};

/// How far past a word's first letter or digit another with a bonus of
/// its own still makes a pair with it in a title's pair filter
/// ([`word_pairs`]).
pub const PAIR_REACH: usize = 10;

/// The most a needle of letters and digits scores in a title, told for
/// each two side by side in it whether the title's pair filter may hold
/// them (`paired`, in needle order; see [`word_pairs`]).
///
/// A character matched at a word's start scores 16 and at most 10 (twice
/// that for the first), and one beside it in the same run as much, since
/// it carries the run's first bonus on; elsewhere a character scores 16
/// and at most 5 of its own or carried (twice for the first), or 4
/// beside the one before; a gap costs 3 and 1 a byte past the first. A
/// pair the filter lacks cannot stand with its first at a word's start
/// and its second beside it, nor with a bonus within [`PAIR_REACH`]: its
/// second then scores 13 at most (16 and no bonus after a gap, or 26
/// after a gap past the reach). So the bound is a walk over the needle
/// through three kinds of place: at a word's start, in a run begun at
/// one, and elsewhere.
pub fn paired_most(paired: impl Iterator<Item = bool>) -> u32 {
    paired_most_within(paired, std::iter::repeat(Bonuses::ANY))
}

/// The most bonus a needle character can have of its own in a title: at a
/// word's start (`None`: it starts none there) and elsewhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bonuses {
    pub start: Option<u16>,
    pub elsewhere: u16,
}

impl Bonuses {
    /// Any: the largest bonus at a word's start, camel case elsewhere.
    pub const ANY: Bonuses = Bonuses {
        start: Some(BONUS_BOUNDARY_WHITE),
        elsewhere: BONUS_CAMEL123,
    };

    /// A character's, whose mask bit is `bit`, in an ASCII title whose
    /// letters and digits with the largest bonus (after white space or
    /// at the start) are `starts` and with a smaller one somewhere (after
    /// a delimiter or punctuation, camel case, a digit after a non-digit)
    /// `inner`, cases folded. A bonus of [`BONUS_BOUNDARY`] or more is a
    /// word's start; any other is camel case's, at most.
    pub fn of(bit: u64, starts: u64, inner: u64) -> Bonuses {
        let start = if starts & bit != 0 {
            Some(BONUS_BOUNDARY_WHITE)
        } else if inner & bit != 0 {
            Some(BONUS_BOUNDARY_DELIMITER)
        } else {
            None
        };
        let elsewhere = if inner & bit != 0 { BONUS_CAMEL123 } else { 0 };
        Bonuses { start, elsewhere }
    }
}

/// [`paired_most`] with each needle character's [`Bonuses`] (in needle
/// order, the first's included): a character no word starts with cannot
/// stand at a word's start, and one with no bonus of its own scores 16
/// where no run carries one to it.
pub fn paired_most_within(
    paired: impl Iterator<Item = bool>,
    mut bonuses: impl Iterator<Item = Bonuses>,
) -> u32 {
    const NONE: i32 = i32::MIN / 2;
    // Sums with a place that cannot be stay that.
    let add = |a: i32, b: i32| if a <= NONE || b <= NONE { NONE } else { a + b };
    let (score, most, camel) = (
        i32::from(SCORE_MATCH),
        i32::from(BONUS_BOUNDARY_WHITE),
        i32::from(BONUS_CAMEL123),
    );
    let (gap, consecutive) = (i32::from(PENALTY_GAP_START), i32::from(BONUS_CONSECUTIVE));
    let first = i32::from(BONUS_FIRST_CHAR_MULTIPLIER);
    // In a run begun at a word's start (the run's bonus carried on);
    // beside the one before elsewhere (its own bonus, or one carried from
    // a run begun elsewhere, camel case's at most).
    let in_run = score + most;
    let beside = score + camel.max(consecutive);
    // A pair the filter lacks, after a word's start: no bonus after a
    // gap, or past the reach.
    let unpaired = (score - gap)
        .max(score + most - gap - i32::from(PENALTY_GAP_EXTENSION) * PAIR_REACH as i32);
    // The most so far with the last character at a word's start, in a run
    // begun at one, elsewhere.
    let b = bonuses.next().unwrap_or(Bonuses::ANY);
    let (mut at_start, mut run, mut other) = (
        b.start.map_or(NONE, |s| score + first * i32::from(s)),
        NONE,
        score + first * i32::from(b.elsewhere),
    );
    for (paired, b) in paired.zip(bonuses) {
        // Onto a word's start after a gap; elsewhere after a gap.
        let to_start = b.start.map_or(NONE, |s| score + i32::from(s) - gap);
        let apart = score + i32::from(b.elsewhere) - gap;
        let from_start = if paired { at_start } else { NONE };
        let after_start = match (paired, b.start) {
            (true, _) => to_start,
            // Past the reach, at a word's start.
            (false, Some(_)) => unpaired,
            (false, None) => NONE,
        };
        let onto_start = add(at_start, after_start)
            .max(add(run, to_start))
            .max(add(other, to_start));
        let into_run = add(from_start, in_run).max(add(run, in_run));
        let elsewhere = add(at_start, if paired { apart } else { unpaired })
            .max(add(run, apart))
            .max(add(other, beside.max(apart)));
        (at_start, run, other) = (onto_start, into_run, elsewhere);
    }
    at_start.max(run).max(other).max(0) as u32
}

/// A letter's (either case) or digit's bit in a title's mask
/// ([`super::masks::title_mask`]); 0 for any other byte.
pub(super) fn mask_bit(c: u8) -> u64 {
    match c.to_ascii_lowercase() {
        c @ b'a'..=b'z' => 1 << (c - b'a'),
        c @ b'0'..=b'9' => 1 << (26 + c - b'0'),
        _ => 0,
    }
}

/// The places of the ASCII letters (either case) and digits, `0..36`, in
/// [`PAIR_PROBES`]; 36 for any other byte.
const ALNUM_AT: [u8; 256] = {
    let mut t = [36u8; 256];
    let mut k = 0;
    while k < 26 {
        t[b'a' as usize + k] = k as u8;
        t[b'A' as usize + k] = k as u8;
        k += 1;
    }
    while k < 36 {
        t[b'0' as usize + k - 26] = k as u8;
        k += 1;
    }
    t
};

/// [`pair_probe`] of each pair of letters and digits, by their
/// [`ALNUM_AT`]: two bits of 128 from a multiplicative hash of the pair, so
/// that a pair a title lacks is seldom taken for one it has. Any other
/// byte has none.
static PAIR_PROBES: [u128; 37 * 37] = {
    let mut t = [0u128; 37 * 37];
    let mut x = 0;
    while x < 36 {
        let mut y = 0;
        while y < 36 {
            let h = ((x as u32) << 8 | y as u32).wrapping_mul(0x9E37_79B1);
            t[x * 37 + y] = (1 << (h >> 25)) | (1 << ((h >> 18) & 127));
            y += 1;
        }
        x += 1;
    }
    t
};

/// The bits of the pair `x`, `y` (ASCII letters, either case, or digits)
/// in a title's 128-bit pair filter ([`word_pairs`]).
#[inline]
pub fn pair_probe(x: u8, y: u8) -> u128 {
    PAIR_PROBES[usize::from(ALNUM_AT[usize::from(x)]) * 37 + usize::from(ALNUM_AT[usize::from(y)])]
}

/// A pair filter as a title's masks keep it.
pub fn pair_halves(pairs: u128) -> [u64; 2] {
    [pairs as u64, (pairs >> 64) as u64]
}

/// The pair filter of the ASCII text `hay`: each letter or digit that
/// starts a word (nucleo's bonus after white space, a delimiter or other
/// punctuation, or at the start) paired with the letter or digit right
/// after it and with each that has a bonus of its own within
/// [`PAIR_REACH`] bytes after that, case ignored ([`pair_probe`]). What
/// a needle can score in the title follows from which two of its
/// characters side by side are pairs of it ([`paired_most`]).
pub fn word_pairs(hay: &[u8]) -> [u64; 2] {
    let mut pairs = 0u128;
    // The latest word starts, a ring: two bytes apart at the closest, so
    // no more than six are within reach of a byte.
    let mut starts = [(usize::MAX, 0u8); 8];
    let mut last = 0;
    let mut q = 0;
    each_bonus(hay, |c, bonus| {
        if c.is_ascii_alphanumeric() {
            if bonus == 0 {
                // Only side by side with a word's first.
                let (p, x) = starts[last];
                if p.wrapping_add(1) == q {
                    pairs |= pair_probe(x, c);
                }
            } else {
                for &(p, x) in &starts {
                    if p < q && q - p <= PAIR_REACH + 1 {
                        pairs |= pair_probe(x, c);
                    }
                }
                if bonus >= BONUS_BOUNDARY {
                    last = (last + 1) % starts.len();
                    starts[last] = (q, c);
                }
            }
        }
        q += 1;
    });
    pair_halves(pairs)
}

/// [`Needle::pair_bound_in`]'s answers, each worked out when first asked
/// for ([`BoundTable::UNKNOWN`] until then), by any thread: a needle is
/// made at every keystroke, and many in the tests, which most of a whole
/// table's 2,048 answers would slow (they took minutes unoptimised).
#[derive(Default)]
pub(super) struct BoundTable(Box<[AtomicU16]>);

impl BoundTable {
    const UNKNOWN: u16 = u16::MAX;

    pub(super) fn new(len: usize) -> BoundTable {
        BoundTable((0..len).map(|_| AtomicU16::new(Self::UNKNOWN)).collect())
    }

    pub(super) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The answer for `key`, worked out by `work` the first time; `None`
    /// where the table has no such key.
    #[inline]
    fn get(&self, key: usize, work: impl FnOnce() -> u32) -> Option<u32> {
        let slot = self.0.get(key)?;
        // Relaxed: two threads that both work an answer out find the same.
        match slot.load(Ordering::Relaxed) {
            Self::UNKNOWN => {
                let most = work();
                slot.store(
                    most.min(u32::from(Self::UNKNOWN - 1)) as u16,
                    Ordering::Relaxed,
                );
                Some(most)
            }
            most => Some(u32::from(most)),
        }
    }
}

/// A table of answers only: its needle's copy works them out anew.
impl Clone for BoundTable {
    fn clone(&self) -> BoundTable {
        BoundTable::new(self.0.len())
    }
}

/// Answers only: two needles alike are alike whatever they have asked.
impl PartialEq for BoundTable {
    fn eq(&self, _: &BoundTable) -> bool {
        true
    }
}

impl Eq for BoundTable {}

impl std::fmt::Debug for BoundTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "BoundTable({})", self.0.len())
    }
}

/// The longest needle whose pair bounds are tabled: 2^11 answers for
/// four characters (a pair bit a pair, two bonus bits a character).
pub(super) const BOUND_TABLE_MOST: usize = 4;

impl Needle {
    /// What decides [`Needle::pair_bound_in`] in a title, as a number:
    /// bit `j` whether pair `j` is in the title's pair filter, then two
    /// bits a character, whether it is in `starts` and in `inner`.
    #[inline]
    fn bound_key(&self, have: u128, starts: u64, inner: u64) -> usize {
        let pairs = self.probes.len();
        let mut key = 0;
        for (j, &p) in self.probes.iter().enumerate() {
            key |= usize::from(have & p == p) << j;
        }
        for (j, &bit) in self.bits.iter().enumerate() {
            key |= usize::from(starts & bit != 0) << (pairs + 2 * j);
            key |= usize::from(inner & bit != 0) << (pairs + 2 * j + 1);
        }
        key
    }

    /// The pairs and bonuses a [`Needle::bound_key`] of a needle of `m`
    /// characters stands for.
    fn bound_unkey(
        m: usize,
        key: usize,
    ) -> (impl Iterator<Item = bool>, impl Iterator<Item = Bonuses>) {
        let bit = move |k: usize| key >> k & 1 == 1;
        let pairs = m - 1;
        (
            (0..pairs).map(bit),
            (0..m).map(move |j| {
                let (s, i) = (bit(pairs + 2 * j), bit(pairs + 2 * j + 1));
                Bonuses::of(1, u64::from(s), u64::from(i))
            }),
        )
    }

    /// The most the needle scores in a title whose pair filter is `pairs`
    /// ([`word_pairs`], [`paired_most`]); `None` where it is not letters
    /// and digits only.
    pub fn pair_bound(&self, pairs: [u64; 2]) -> Option<u32> {
        self.pair_bound_in(pairs, u64::MAX, u64::MAX)
    }

    /// [`Needle::pair_bound`] in an ASCII title whose letters and digits
    /// with the largest bonus somewhere are `starts` and with a smaller one
    /// `inner` (its [`super::masks::Chars`]): a character in neither
    /// scores no bonus of its own anywhere ([`Bonuses::of`]). Most titles
    /// have no word starting with the first letter of an acronym (`gnn`):
    /// that letter then scores 16 wherever it is matched, and the word
    /// less than it scores where one does.
    pub fn pair_bound_in(&self, pairs: [u64; 2], starts: u64, inner: u64) -> Option<u32> {
        if self.probes.is_empty() {
            return None;
        }
        let have = u128::from(pairs[0]) | (u128::from(pairs[1]) << 64);
        if self.bounds.is_empty() {
            return Some(self.walk_bound(have, starts, inner));
        }
        let key = self.bound_key(have, starts, inner);
        self.bounds.get(key, || {
            let (paired, bonuses) = Needle::bound_unkey(self.bytes.len(), key);
            paired_most_within(paired, bonuses)
        })
    }

    /// [`Needle::pair_bound_in`] worked out, not looked up.
    pub(super) fn walk_bound(&self, have: u128, starts: u64, inner: u64) -> u32 {
        paired_most_within(
            self.probes.iter().map(|&p| have & p == p),
            self.bits.iter().map(|&bit| Bonuses::of(bit, starts, inner)),
        )
    }
}
