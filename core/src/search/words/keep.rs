//! Which words an index built for one query posts: those starting with one
//! of the query's words (folded). Every other word is only counted, for
//! the field's length, so that the scores equal the whole index's. The
//! whole index counts and posts its words through here too ([`EVERY`]).
//!
//! Most words of an abstract cannot match, and are told apart as written,
//! before folding: a word that is all ASCII folds to its lower case, and
//! a word starting with an ASCII letter folds to a word starting with
//! that letter in lower case, so those are compared byte by byte with no
//! allocation; only a word starting with another character is folded
//! first.

use levenshtein_automata::DFA;

use super::super::fields::{fold, for_each_word};
use super::{typo_automaton, within};
use crate::simd::{self, Candidates};

/// The folded prefixes a query-only index posts.
pub(super) struct Keep {
    prefixes: Vec<String>,
    /// Whether a word starting with this ASCII byte (lower case) can
    /// start with a prefix.
    first: [bool; 128],
    /// The ASCII bytes (lower case) a prefix starts with.
    firsts: Vec<u8>,
    /// For each ASCII byte (lower case) a prefix starts with, a bit per
    /// ASCII byte (lower case) that can follow it in a word kept: the
    /// prefixes' second bytes, or every byte when a prefix is that one
    /// byte alone.
    seconds: [u128; 128],
    /// The prefixes' first two bytes (lower case), when every prefix that
    /// an ASCII word can start with has two and they are few
    /// ([`MAX_PAIRS`]): a word start is then a candidate only where the
    /// byte after it is one's second byte too.
    pairs: Option<Vec<[u8; 2]>>,
    /// An empty prefix: every word is kept.
    all: bool,
    /// Words kept with their typos: a word within one's edits is kept
    /// (every word is then folded and tried).
    typos: Vec<DFA>,
}

/// The most first letters a block's candidates are told by.
const MAX_FIRSTS: usize = 8;
/// The most pairs of first two bytes a block's candidates are told by.
const MAX_PAIRS: usize = 4;

/// Keeps every word.
pub(super) static EVERY: Keep = Keep {
    prefixes: Vec::new(),
    first: [false; 128],
    firsts: Vec::new(),
    seconds: [0; 128],
    pairs: None,
    all: true,
    typos: Vec::new(),
};

impl Keep {
    pub(super) fn new(prefixes: Vec<String>, typos: &[String]) -> Keep {
        let prefixes: Vec<String> = prefixes.iter().map(|p| fold(p).into_owned()).collect();
        let mut first = [false; 128];
        let mut seconds = [0u128; 128];
        for p in &prefixes {
            if let Some(&b) = p.as_bytes().first().filter(|b| b.is_ascii()) {
                first[b as usize] = true;
                seconds[b as usize] |= match p.as_bytes().get(1) {
                    None => u128::MAX,
                    Some(&c) if c.is_ascii() => 1 << c,
                    // No ASCII word starts with this prefix.
                    Some(_) => 0,
                };
            }
        }
        let mut pairs = Some(Vec::new());
        for p in &prefixes {
            match p.as_bytes() {
                // No ASCII word starts with it.
                [a, b, ..] if !a.is_ascii() || !b.is_ascii() => {}
                [a, b, ..] => {
                    let pair = [a.to_ascii_lowercase(), b.to_ascii_lowercase()];
                    if let Some(pairs) = pairs.as_mut().filter(|v| !v.contains(&pair)) {
                        pairs.push(pair);
                    }
                }
                // One byte: every word starting with it is a candidate.
                _ => pairs = None,
            }
        }
        Keep {
            typos: typos.iter().filter_map(|w| typo_automaton(w)).collect(),
            all: prefixes.iter().any(String::is_empty),
            firsts: (0..128u8).filter(|&b| first[b as usize]).collect(),
            pairs: pairs.filter(|v| v.len() <= MAX_PAIRS),
            prefixes,
            first,
            seconds,
        }
    }

    /// Whether `word` (as written, not folded) folds to a word that
    /// starts with a prefix: `Some(answer)` when that is known without
    /// folding, `None` when the word must be folded to tell.
    #[inline]
    pub(super) fn keeps_raw(&self, word: &str) -> Option<bool> {
        if self.all {
            return Some(true);
        }
        if !self.typos.is_empty() {
            return None;
        }
        let bytes = word.as_bytes();
        let first = *bytes.first()?;
        if first.is_ascii() && !self.first[first.to_ascii_lowercase() as usize] {
            return Some(false);
        }
        if !word.is_ascii() {
            return None;
        }
        // Its folding is its lower case: a prefix (lower case) starts it
        // when the first bytes are equal ignoring case.
        Some(
            self.prefixes.iter().any(|p| {
                bytes.len() >= p.len() && bytes[..p.len()].eq_ignore_ascii_case(p.as_bytes())
            }),
        )
    }

    /// Whether `folded` starts with a prefix, typos not looked at (a
    /// term no query word's typos are looked for in: a category).
    pub(super) fn keeps_as_written(&self, folded: &str) -> bool {
        self.all || self.prefixes.iter().any(|p| folded.starts_with(p.as_str()))
    }

    /// Whether `folded` starts with a prefix.
    pub(super) fn keeps(&self, folded: &str) -> bool {
        self.all
            || self.prefixes.iter().any(|p| folded.starts_with(p.as_str()))
            || self
                .typos
                .iter()
                .any(|dfa| matches!(within(dfa, folded.as_bytes()), Ok(Some(_))))
    }

    pub(super) fn prefixes(&self) -> &[String] {
        &self.prefixes
    }

    /// Calls `f` with each word of `text` (as written) that folds to one
    /// starting with a prefix, in order, and gives the number of words, as
    /// `for_each_word` does. A byte that is ASCII and no letter or digit
    /// always ends a word, so a text is cut there into stretches: those
    /// all ASCII go [`Keep::each_kept_ascii`]'s way, sixty-four bytes at
    /// a time, and only the words around a character past ASCII (a Greek
    /// letter of a rendered formula, an accented name) one at a time.
    pub(super) fn each_kept(&self, text: &str, mut f: impl FnMut(&str)) -> usize {
        // Most texts are ASCII throughout, which the standard library
        // tells a word at a time (the search below goes a byte at a time).
        if text.is_ascii() {
            return self.each_kept_ascii::<false>(text, &mut f);
        }
        let bytes = text.as_bytes();
        let mut words = 0;
        let mut i = 0;
        while i < bytes.len() {
            let Some(wide) = bytes[i..].iter().position(|b| !b.is_ascii()) else {
                return words + self.each_kept_ascii::<false>(&text[i..], &mut f);
            };
            let wide = i + wide;
            // The word the character is in, and what follows it up to the
            // next ASCII byte that is no letter or digit.
            let from = bytes[i..wide]
                .iter()
                .rposition(|b| !b.is_ascii_alphanumeric())
                .map_or(i, |k| i + k + 1);
            let to = bytes[wide..]
                .iter()
                .position(|b| b.is_ascii() && !b.is_ascii_alphanumeric())
                .map_or(bytes.len(), |k| wide + k);
            words += self.each_kept_ascii::<false>(&text[i..from], &mut f);
            for_each_word(&text[from..to], |w| {
                words += 1;
                if keeps_word(self, w) {
                    f(w);
                }
            });
            i = to;
        }
        words
    }

    /// For ASCII `text`: calls `f` with each word that
    /// [`Keep::keeps_raw`] keeps, in order, and gives the number of words,
    /// as `for_each_word` with `keeps_raw` do. Sixty-four bytes at a
    /// time: a mask of the letters and digits gives where words start
    /// (their number is its bits), and only the words starting with a
    /// prefix's first two bytes (or first letter: [`Candidates`]) are cut out and
    /// compared. An abstract's other words (most of them) cost no branch
    /// of their own.
    ///
    /// `ESCAPED`: `text` is the inside of a JSON string as written, whose
    /// every backslash starts a two-byte escape (`\n`, `\"`): the byte
    /// after a backslash is not a letter of a word, as the character the
    /// escape stands for is none.
    pub(super) fn each_kept_ascii<const ESCAPED: bool>(
        &self,
        text: &str,
        f: impl FnMut(&str),
    ) -> usize {
        debug_assert!(text.is_ascii());
        // Where the processor has AVX2, the masks are made thirty-two
        // bytes at a time, and each block's words counted by one
        // instruction (not a dozen).
        match simd::Avx2::detect() {
            Some(avx2) => simd::with_avx2(avx2, |avx2| {
                self.kept_by::<ESCAPED>(text, f, |block, next, by| {
                    simd::word_masks_avx2::<ESCAPED>(avx2, block, next, by)
                })
            }),
            None => self.kept_by::<ESCAPED>(text, f, simd::word_masks::<ESCAPED>),
        }
    }

    /// How a block's word starts are told to be candidates.
    fn told_by(&self) -> Candidates<'_> {
        match &self.pairs {
            _ if self.all || !self.typos.is_empty() => Candidates::Every,
            Some(pairs) => Candidates::Pairs(pairs),
            None if self.firsts.len() <= MAX_FIRSTS => Candidates::Firsts(&self.firsts),
            None => Candidates::Every,
        }
    }

    /// [`Keep::each_kept_ascii`], each block's masks made by `masks`
    /// (given the block, and the 64 bytes one byte on from it).
    #[inline(always)]
    fn kept_by<const ESCAPED: bool>(
        &self,
        text: &str,
        mut f: impl FnMut(&str),
        masks: impl Fn(&[u8; 64], &[u8; 64], Candidates<'_>) -> (u64, u64, u64),
    ) -> usize {
        let bytes = text.as_bytes();
        let by = self.told_by();
        let mut words = 0usize;
        let mut carry = 0u64;
        let mut slash_carry = 0u64;
        let mut at = 0;
        while at < bytes.len() {
            let (mut alnum, candidate, slashes) = match bytes.get(at..at + 65) {
                Some(b) => masks(b[..64].try_into().unwrap(), b[1..].try_into().unwrap(), by),
                // The last few bytes, after them none that is a letter.
                None => {
                    let mut tail = [0u8; 65];
                    tail[..bytes.len() - at].copy_from_slice(&bytes[at..]);
                    masks(
                        tail[..64].try_into().unwrap(),
                        tail[1..].try_into().unwrap(),
                        by,
                    )
                }
            };
            if ESCAPED {
                alnum &= !((slashes << 1) | slash_carry);
                slash_carry = slashes >> 63;
            }
            let starts = alnum & !((alnum << 1) | carry);
            carry = alnum >> 63;
            words += starts.count_ones() as usize;
            let mut candidates = starts & candidate;
            while candidates != 0 {
                let s = at + candidates.trailing_zeros() as usize;
                candidates &= candidates - 1;
                // A word's first two bytes that no prefix starts with pass
                // it by (the masks tell most such apart already); one byte
                // alone is followed by a byte that is no letter or digit,
                // or none.
                let next = bytes.get(s + 1).map_or(0, u8::to_ascii_lowercase);
                if !self.all
                    && self.typos.is_empty()
                    && self.seconds[usize::from(bytes[s].to_ascii_lowercase())] >> next & 1 == 0
                {
                    continue;
                }
                let len = bytes[s..]
                    .iter()
                    .position(|b| !b.is_ascii_alphanumeric())
                    .unwrap_or(bytes.len() - s);
                let word = &text[s..s + len];
                if keeps_word(self, word) {
                    f(word);
                }
            }
            at += 64;
        }
        words
    }
}

/// Whether `word` (as written), folded, starts with one of `keep`'s
/// prefixes.
fn keeps_word(keep: &Keep, word: &str) -> bool {
    keep.keeps_raw(word)
        .unwrap_or_else(|| keep.keeps(&fold(word)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// What `for_each_word` with `keeps_raw` give: the words kept, and
    /// the number of words.
    fn slow(keep: &Keep, text: &str) -> (Vec<String>, usize) {
        let (mut kept, mut n) = (Vec::new(), 0);
        for_each_word(text, |w| {
            n += 1;
            if keep.keeps_raw(w) == Some(true) {
                kept.push(w.to_string());
            }
        });
        (kept, n)
    }

    fn fast(keep: &Keep, text: &str) -> (Vec<String>, usize) {
        kept_ascii::<false>(keep, text)
    }

    /// [`Keep::each_kept_ascii`]'s words and count, checked to be the
    /// same with the masks made sixteen bytes at a time as with the
    /// processor's best.
    fn kept_ascii<const ESCAPED: bool>(keep: &Keep, text: &str) -> (Vec<String>, usize) {
        let sixteen = collect(|f| keep.kept_by::<ESCAPED>(text, f, simd::word_masks::<ESCAPED>));
        let best = collect(|f| keep.each_kept_ascii::<ESCAPED>(text, f));
        assert_eq!(best, sixteen, "{text:?}");
        best
    }

    /// The words `each` calls its argument with, and what it returns.
    fn collect(each: impl Fn(&mut dyn FnMut(&str)) -> usize) -> (Vec<String>, usize) {
        let mut kept = Vec::new();
        let n = each(&mut |w| kept.push(w.to_string()));
        (kept, n)
    }

    fn keeps() -> Vec<Keep> {
        let p = |v: &[&str]| Keep::new(v.iter().map(|s| s.to_string()).collect(), &[]);
        vec![
            p(&["spa", "att"]),
            p(&["a"]),
            p(&["x1", "9b"]),
            p(&[""]),
            // More first letters than the masks compare (eight).
            p(&["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]),
            p(&["é", "zeta"]),
            p(&[]),
            // More pairs of first bytes than the masks compare (four).
            p(&["ab", "cd", "ef", "gh", "ij"]),
        ]
    }

    #[test]
    fn ascii_words_are_counted_and_kept_as_one_at_a_time() {
        let texts = [
            String::new(),
            "Sparse attention, at scale: SPArse ATTn (a9) and 9b x1y.".to_string(),
            // Words across the 64-byte blocks, and at the very end.
            format!("{}spark {}atta", "a".repeat(63), "b ".repeat(40)),
            "a".repeat(64),
            "a ".repeat(64),
            " ".repeat(64) + "spa",
            "{[".repeat(100),
            "ab\n\"cd_ef-gh@ij`kl{mn}op~QR[ST]UV^WX:YZ/09".to_string(),
        ];
        for keep in keeps() {
            for t in &texts {
                assert_eq!(fast(&keep, t), slow(&keep, t), "{t:?}");
            }
        }
    }

    proptest! {
        #[test]
        fn any_ascii_text_is_counted_and_kept_as_one_at_a_time(
            // Any printable text, and long words across the 64-byte
            // blocks.
            text in prop_oneof!["[ -~\n\t]{0,300}", "([asAS][a-z0-9]{0,90}[ ,.]){0,8}"],
            which in 0usize..8,
        ) {
            let keep = &keeps()[which];
            prop_assert_eq!(fast(keep, &text), slow(keep, &text));
        }
    }

    proptest! {
        /// The inside of a JSON string as written, escapes and all, gives
        /// the words of the text it stands for.
        #[test]
        fn escaped_text_is_counted_and_kept_as_its_text(
            text in prop_oneof![
                "([ -\\[\\]-~]{0,70}|[\\n\\t\\r\"/]){0,8}",
                "([asAS][a-z0-9]{0,90}[\\n\"/ ]){0,8}",
            ],
            which in 0usize..8,
        ) {
            let keep = &keeps()[which];
            let raw = serde_json::to_string(&text).unwrap().replace('/', "\\/");
            let inner = &raw[1..raw.len() - 1];
            prop_assert_eq!(kept_ascii::<true>(keep, inner), slow(keep, &text), "{}", inner);
        }
    }

    proptest! {
        /// Any text, past ASCII too: cut into stretches, it gives the words
        /// one at a time gives, each kept as the word-by-word test keeps
        /// it (told before folding, or after where it must be folded).
        #[test]
        fn any_text_is_counted_and_kept_as_one_at_a_time(
            text in "([a-zA-Z0-9]{0,70}|[ ,.\\-]|[éüÉαβ中文—∑\u{a0}Æß]){0,20}",
            which in 0usize..8,
        ) {
            let keeps = keeps();
            for keep in [&keeps[which], &EVERY] {
                let (mut kept, mut n) = (Vec::new(), 0);
                for_each_word(&text, |w| {
                    n += 1;
                    let raw = keep.keeps_raw(w);
                    if raw == Some(true) || raw.is_none() && keep.keeps(&fold(w)) {
                        kept.push(w.to_string());
                    }
                });
                let mut got = Vec::new();
                let m = keep.each_kept(&text, |w| got.push(w.to_string()));
                prop_assert_eq!((got, m), (kept, n), "{:?}", text);
            }
        }
    }

    #[test]
    fn words_are_told_apart_before_folding_as_after() {
        let keep = Keep::new(
            vec!["spa".into(), "hernan".into(), "é".into(), "ae".into()],
            &[],
        );
        for w in [
            "Sparse",
            "spa",
            "SPAtial",
            "sp",
            "sparse",
            "hernández",
            "Hernández",
            "Hernan",
            "attention",
            "Émile",
            "émile",
            "Æsop",
            "aesop",
            "x",
            "1spa",
            "Ærø",
            "ß",
        ] {
            let folded = fold(w);
            let want = keep.keeps(&folded);
            if let Some(got) = keep.keeps_raw(w) {
                assert_eq!(got, want, "{w}");
            }
        }
        // "é" folds to "e": a prefix as typed is folded too.
        assert!(keep.keeps("emile"));
        assert_eq!(keep.keeps_raw("Émile"), None);
        assert_eq!(keep.keeps_raw("Zeta"), Some(false));
        assert!(Keep::new(vec![String::new()], &[]).keeps_raw("anything") == Some(true));
    }
}
