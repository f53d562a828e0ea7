//! What the matcher keeps to answer fast: a character mask per title (a
//! query word whose letters a title lacks cannot match it, whatever nucleo
//! would say, so most titles are ruled out in a nanosecond), the words of a
//! text, and sets of papers ([`Bits`]). The word index is in `words`.

use super::fuzzy;
use crate::text::wrap::stands_alone;

use unicode_normalization::UnicodeNormalization;

/// Every bit a letter or digit can set.
const ALNUM_BITS: u64 = (1 << 36) - 1;

/// The mask bit of a lower-case ASCII letter or a digit; 0 for other
/// bytes.
const fn ascii_bit(c: u8) -> u64 {
    match c {
        b'a'..=b'z' => 1 << (c - b'a'),
        b'0'..=b'9' => 1 << (26 + c - b'0'),
        _ => 0,
    }
}

/// The mask bit for a (lower-cased) character, or 0 for ASCII characters
/// that are neither letters nor digits (no requirement is made of them).
fn bit(c: char) -> u64 {
    match c {
        c if c.is_ascii() => ascii_bit(c as u8),
        c => 1 << (36 + (c as u32 % 28)),
    }
}

/// Mask bits of ASCII bytes, case folded.
const ASCII_BITS: [u64; 128] = {
    let mut t = [0u64; 128];
    let mut b = 0;
    while b < 128 {
        t[b] = ascii_bit((b as u8).to_ascii_lowercase());
        b += 1;
    }
    t
};

/// The characters a title holds, as a mask. Case is folded and accents are
/// stripped (nucleo matches `e` against `é`); a Latin letter beyond ASCII
/// sets every letter bit, since nucleo's normalisation may map it to any.
pub fn title_mask(text: &str) -> u64 {
    if text.is_ascii() {
        // Four masks at once: one alone waits on each byte's.
        let b = text.as_bytes();
        let mut m = [0u64; 4];
        let quads = b.chunks_exact(4);
        let rest = quads.remainder();
        for q in quads {
            for k in 0..4 {
                m[k] |= ASCII_BITS[q[k] as usize];
            }
        }
        let tail = rest.iter().fold(0, |m, &c| m | ASCII_BITS[c as usize]);
        return m[0] | m[1] | m[2] | m[3] | tail;
    }
    let mut mask = 0;
    for c in text.chars() {
        if c.is_ascii() {
            mask |= bit(c.to_ascii_lowercase());
            continue;
        }
        for l in c.to_lowercase() {
            mask |= bit(l);
            if let Some(base) = l.to_string().nfd().next() {
                mask |= bit(base);
            }
            if matches!(l as u32, 0x00C0..=0x024F | 0x1E00..=0x1EFF) {
                mask |= ALNUM_BITS;
            }
        }
    }
    mask
}

/// One pass over a title that is already as it will be shown: printable
/// ASCII, clean ([`crate::text::sanitize::line_cow`] borrows it) and
/// without markup ([`crate::text::markup::has_markup`] is false). Its
/// [`title_mask`] when it is, `None` when any of that fails (the caller
/// then takes the general path). Most titles are such, and this is several
/// times cheaper than the three checks one after the other.
pub fn plain_ascii_title_mask(b: &[u8]) -> Option<u64> {
    /// Bytes that rule the fast path out: not printable ASCII, or markup.
    const BAD: [bool; 256] = {
        let mut t = [true; 256];
        let mut c = 0x20;
        while c < 0x7f {
            t[c] = false;
            c += 1;
        }
        let markup = b"\\$*_<[`~{}";
        let mut k = 0;
        while k < markup.len() {
            t[markup[k] as usize] = true;
            k += 1;
        }
        t
    };
    if b.first() == Some(&b' ') || b.last() == Some(&b' ') {
        return None;
    }
    let (mut mask, mut bad, mut doubled, mut http) = (0u64, false, false, false);
    // The last four bytes, for doubled spaces, `''`, `--` and `http`.
    let mut w = 0u32;
    for &c in b {
        mask |= ASCII_BITS[(c & 0x7f) as usize];
        bad |= BAD[c as usize];
        w = (w << 8) | u32::from(c);
        let pair = w & 0xffff;
        doubled |= (pair == 0x2020) | (pair == 0x2727) | (pair == 0x2d2d);
        http |= w == u32::from_be_bytes(*b"http");
    }
    (!bad && !doubled && !http).then_some(mask)
}

/// What a title holds, as masks ([`title_mask`]): every character, and
/// (for an ASCII title) the letters and digits that start a word of it and
/// those that get a bonus elsewhere.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
pub struct Chars {
    pub all: u64,
    /// Letters and digits at the title's start or after white space, where
    /// nucleo gives a match its largest bonus (0 for other titles).
    pub starts: u64,
    /// Letters and digits that get a smaller bonus somewhere (after a
    /// delimiter or other punctuation, a capital after a small letter, a
    /// digit after a non-digit). A letter in neither mask scores no bonus
    /// wherever it is matched. Every bit of `all` for a title that is not
    /// ASCII.
    pub inner: u64,
    /// The pairs of letters and digits that start a word of an ASCII
    /// title, each with the one after it and those with a bonus soon after
    /// ([`fuzzy::word_pairs`]); every bit for a title that is not ASCII.
    pub pairs: [u64; 2],
}

impl Chars {
    /// An ASCII title's, given its [`title_mask`].
    pub fn ascii(b: &[u8], all: u64) -> Chars {
        if b.len() >= 16 {
            let (starts, inner, pairs) = word_bonus(b);
            return Chars {
                all,
                starts,
                inner,
                pairs,
            };
        }
        Chars::ascii_bytewise(b, all)
    }

    /// [`Chars::ascii`] a byte at a time.
    fn ascii_bytewise(b: &[u8], all: u64) -> Chars {
        let (mut starts, mut inner) = (0, 0);
        fuzzy::each_bonus(b, |c, got| {
            let bit = ASCII_BITS[(c & 0x7f) as usize];
            // Branch-free: which of these holds is as good as random.
            let white = got == fuzzy::BONUS_MOST;
            starts |= bit & 0u64.wrapping_sub(u64::from(white));
            inner |= bit & 0u64.wrapping_sub(u64::from(got != 0 && !white));
        });
        Chars {
            all,
            starts,
            inner,
            pairs: fuzzy::word_pairs(b),
        }
    }

    /// A title that is not ASCII (the fast paths pass it by).
    pub fn wide(all: u64) -> Chars {
        Chars {
            all,
            starts: 0,
            inner: all,
            pairs: [u64::MAX; 2],
        }
    }
}

/// The letters and digits of the ASCII text `b` (sixteen bytes or more)
/// that nucleo gives its largest bonus (after white space or at the start)
/// and those it gives a smaller one, as masks. Sixteen bytes at a time
/// ([`crate::simd::classes`]):
/// where the bonuses fall is worked out for all of them at once from their
/// classes and those of the bytes before, and only those few places are
/// read one by one (a byte-at-a-time pass was a sixth of `search`'s time
/// loading a million titles). The rules are nucleo's `bonus_for`, as
/// [`fuzzy::each_bonus`] gives them.
///
/// The places are also kept for the whole of a title of up to 128 bytes,
/// and its pair filter ([`fuzzy::word_pairs`]) made from them: each word's
/// first letter or digit with the one beside it and those with a bonus
/// within reach. Longer titles have it made a byte at a time.
fn word_bonus(b: &[u8]) -> (u64, u64, [u64; 2]) {
    let n = b.len();
    let (mut starts, mut inner) = (0u64, 0u64);
    // Over the whole title (up to 128 bytes): word starts, letters and
    // digits with a bonus, letters and digits.
    let (mut word_at, mut bonus_at, mut alnum_at) = (0u128, 0u128, 0u128);
    let mut at = 0;
    while at < n {
        // The last sixteen bytes where fewer are left.
        let o = at.min(n - 16);
        let Some(chunk) = b.get(o..o + 16).and_then(|c| <&[u8; 16]>::try_from(c).ok()) else {
            break;
        };
        // White space as nucleo classes it.
        let crate::simd::Classes {
            lower,
            upper,
            digit,
            white,
        } = crate::simd::classes(chunk);
        let alpha = lower | upper;
        // The same classes for the byte before each: shifted in from the
        // byte before the chunk (the start counts as white space).
        let before = o.checked_sub(1).map(|k| b[k]);
        let carry = |test: fn(u8) -> bool, start: bool| u32::from(before.map_or(start, test));
        let prev = |m: u32, c: u32| ((m << 1) | c) & 0xffff;
        let p_white = prev(white, carry(fuzzy::is_white, true));
        let p_lower = prev(lower, carry(|c| c.is_ascii_lowercase(), false));
        let p_alpha = prev(alpha, carry(|c| c.is_ascii_alphabetic(), false));
        let p_digit = prev(digit, carry(|c| c.is_ascii_digit(), false));
        // Punctuation, delimiters among it.
        let p_other = !(p_white | p_alpha | p_digit) & 0xffff;
        // Bytes the chunk before covered too count again: or-ing is the
        // same however often.
        let alnum = alpha | digit;
        let mut white_starts = alnum & p_white;
        let mut smaller = (alnum & p_other) | (upper & p_lower) | (digit & p_alpha);
        if n <= 128 {
            let word = white_starts | (alnum & p_other);
            word_at |= u128::from(word) << o;
            bonus_at |= u128::from(white_starts | smaller) << o;
            alnum_at |= u128::from(alnum) << o;
        }
        while white_starts != 0 {
            starts |= ASCII_BITS[usize::from(chunk[white_starts.trailing_zeros() as usize] & 0x7f)];
            white_starts &= white_starts - 1;
        }
        while smaller != 0 {
            inner |= ASCII_BITS[usize::from(chunk[smaller.trailing_zeros() as usize] & 0x7f)];
            smaller &= smaller - 1;
        }
        at = o + 16;
    }
    let pairs = if n <= 128 {
        pairs_from(b, word_at, bonus_at, alnum_at)
    } else {
        fuzzy::word_pairs(b)
    };
    (starts, inner, pairs)
}

/// [`fuzzy::word_pairs`] of the ASCII text `b` (128 bytes at most) from
/// where its words start, where its letters and digits get a bonus, and
/// where they are.
fn pairs_from(b: &[u8], mut word_at: u128, bonus_at: u128, alnum_at: u128) -> [u64; 2] {
    const REACH: u128 = (1 << fuzzy::PAIR_REACH) - 1;
    let mut pairs = 0u128;
    while word_at != 0 {
        let p = word_at.trailing_zeros();
        word_at &= word_at - 1;
        // The one beside it, and those with a bonus within reach after.
        let beside = alnum_at & 1u128.checked_shl(p + 1).unwrap_or(0);
        let near = bonus_at & REACH.checked_shl(p + 2).unwrap_or(0);
        let mut with = beside | near;
        let x = b[p as usize];
        while with != 0 {
            let q = with.trailing_zeros() as usize;
            with &= with - 1;
            pairs |= fuzzy::pair_probe(x, b[q]);
        }
    }
    fuzzy::pair_halves(pairs)
}

/// What a query word needs a title to hold.
pub fn needle_mask(needle: &str) -> u64 {
    needle
        .chars()
        .flat_map(char::to_lowercase)
        .map(bit)
        .fold(0, |m, b| m | b)
}

/// The words of `text` as written: runs of letters and digits; CJK
/// characters each a word.
pub(super) fn word_spans(text: &str) -> impl Iterator<Item = &str> + '_ {
    let mut chars = text.char_indices().peekable();
    std::iter::from_fn(move || {
        loop {
            let (start, c) = chars.next()?;
            if stands_alone(c) {
                return Some(&text[start..start + c.len_utf8()]);
            }
            if !c.is_alphanumeric() {
                continue;
            }
            let mut end = start + c.len_utf8();
            while let Some(&(i, n)) = chars.peek() {
                if n.is_alphanumeric() && !stands_alone(n) {
                    end = i + n.len_utf8();
                    chars.next();
                } else {
                    break;
                }
            }
            return Some(&text[start..end]);
        }
    })
}

/// The words of `text`, lower-cased: runs of letters and digits; CJK
/// characters each a word.
pub fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    word_spans(text).map(str::to_lowercase)
}

/// A set of papers by index.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bits(Vec<u64>);

impl Bits {
    /// An empty set for `n` papers.
    pub fn new(n: usize) -> Bits {
        Bits(vec![0; n.div_ceil(64)])
    }

    /// Adds paper `i`.
    pub fn insert(&mut self, i: u32) {
        let (w, b) = ((i / 64) as usize, i % 64);
        if w >= self.0.len() {
            self.0.resize(w + 1, 0);
        }
        self.0[w] |= 1 << b;
    }

    /// Whether paper `i` is in the set.
    pub fn contains(&self, i: u32) -> bool {
        self.0
            .get((i / 64) as usize)
            .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    /// Every paper of `n`.
    pub fn full(n: usize) -> Bits {
        let mut all = Bits(vec![u64::MAX; n.div_ceil(64)]);
        if !n.is_multiple_of(64)
            && let Some(last) = all.0.last_mut()
        {
            *last = (1 << (n % 64)) - 1;
        }
        all
    }

    /// The papers of `n` not in this set.
    pub fn complement(&self, n: usize) -> Bits {
        let mut out = Bits::full(n);
        for (k, w) in out.0.iter_mut().enumerate() {
            *w &= !self.0.get(k).copied().unwrap_or(0);
        }
        out
    }

    /// Adds every paper of `other`.
    pub fn union(&mut self, other: &Bits) {
        if self.0.len() < other.0.len() {
            self.0.resize(other.0.len(), 0);
        }
        for (w, o) in self.0.iter_mut().zip(&other.0) {
            *w |= o;
        }
    }

    /// Keeps only the papers also in `other`.
    pub fn intersect(&mut self, other: &Bits) {
        for (k, w) in self.0.iter_mut().enumerate() {
            *w &= other.0.get(k).copied().unwrap_or(0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        // Sixteen bytes at a time, as a byte at a time, on every class of
        // byte nucleo tells apart, across chunk ends; the pair filters too,
        // on titles of words of any length, up to 128 bytes and past it.
        #[test]
        fn word_bonuses_are_the_same_sixteen_bytes_at_a_time(
            t in "[aZb1 \t\x0c\r\n/:._(-]{0,70}|[ -~]{0,150}|([a-zA-Z0-9]{1,12}[ :/.-]){0,14}"
        ) {
            let all = title_mask(&t);
            proptest::prop_assert_eq!(
                Chars::ascii(t.as_bytes(), all),
                Chars::ascii_bytewise(t.as_bytes(), all),
                "{:?}", t
            );
        }

        #[test]
        fn the_one_pass_agrees_with_the_checks_it_stands_for(
            t in "[ -~]{0,12}|[a h t p '\\-\\$_\u{7}é]{0,12}"
        ) {
            let general = (t.is_ascii()
                && matches!(crate::text::sanitize::line_cow(&t), std::borrow::Cow::Borrowed(_))
                && !crate::text::markup::has_markup(&t))
            .then(|| title_mask(&t));
            proptest::prop_assert_eq!(plain_ascii_title_mask(t.as_bytes()), general, "{:?}", t);
        }
    }

    #[test]
    fn ascii_masks_hold_every_byte_whatever_the_length() {
        let text = "Zeta-9 graph neural nets, 2x";
        for start in 0..text.len() {
            for end in start..=text.len() {
                let t = &text[start..end];
                let bytewise = t.bytes().fold(0, |m, b| m | ASCII_BITS[b as usize]);
                assert_eq!(title_mask(t), bytewise, "{t:?}");
            }
        }
    }

    #[test]
    fn masks_fold_case_and_accents() {
        assert_eq!(title_mask("Ab") & needle_mask("ab"), needle_mask("ab"));
        assert_eq!(title_mask("café") & needle_mask("e"), needle_mask("e"));
        assert_eq!(
            title_mask("Øresund") & needle_mask("o"),
            needle_mask("o"),
            "Latin letters pass"
        );
        assert_ne!(title_mask("abc") & needle_mask("x"), needle_mask("x"));
        assert_eq!(
            needle_mask("a-b c"),
            needle_mask("abc"),
            "punctuation asks nothing"
        );
        let pi = needle_mask("π");
        assert_eq!(title_mask("π-Distill") & pi, pi);
        assert_ne!(title_mask("Distill") & pi, pi);
    }

    #[test]
    fn words_are_lower_case_runs_and_cjk_characters() {
        let w: Vec<String> = words("Sparse-Attention (SA) in 2026; 论文列表 x").collect();
        assert_eq!(
            w,
            vec![
                "sparse",
                "attention",
                "sa",
                "in",
                "2026",
                "论",
                "文",
                "列",
                "表",
                "x"
            ]
        );
    }
}
