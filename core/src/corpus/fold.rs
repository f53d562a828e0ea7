//! Whitespace folding for the readers of formats that keep text as
//! written (JSON, Atom): runs of white space become one space, the ends
//! are trimmed. Fast, as it runs over every abstract of a large file.

/// Appends the words of `s` to `out`, after a single space unless `out`
/// is empty: whitespace runs (newlines, indentation, any Unicode space)
/// fold to one space, ends are trimmed. It runs over every abstract of a
/// million-line file, so stretches whose words are already separated by
/// single spaces are found eight bytes at a time and copied whole.
pub(crate) fn push_folded(out: &mut String, s: &str) {
    // A word alone (an author's name's part, a year): nothing to fold.
    if one_plain_word(s) {
        if !s.is_empty() {
            push_word(out, s);
        }
        return;
    }
    let mut i = skip_spaces(s, 0);
    while i < s.len() {
        let end = stretch_end(s, i);
        push_word(out, &s[i..end]);
        i = skip_spaces(s, end);
    }
}

/// True when `s` is at most 32 bytes of [`plain_word_byte`]s (or empty):
/// a word that folding leaves as it is.
pub(crate) fn one_plain_word(s: &str) -> bool {
    s.len() <= 32 && s.bytes().all(plain_word_byte)
}

/// A byte of text (UTF-8) that folding and cleaning leave as it is
/// wherever it stands: printable ASCII but a space, or a byte of a
/// character from U+00C0 to U+02FF (accented Latin letters, as in most
/// names past ASCII, IPA and modifier letters: none is white space, a
/// control or invisible), whose first bytes are 0xC3-0xCB.
#[inline]
pub(crate) fn plain_word_byte(b: u8) -> bool {
    b.wrapping_sub(0x21) < 0x5E || matches!(b, 0x80..=0xBF | 0xC3..=0xCB)
}

const LOW: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `w` equal to `c`, exactly.
pub(crate) fn equal_bytes(w: u64, c: u8) -> u64 {
    let x = w ^ (LOW * u64::from(c));
    !(((x & !HIGH) + !HIGH) | x) & HIGH
}

/// The high bit of each byte of `w` below 0x20 (an ASCII control),
/// exactly: the high bit clear, and clear still once 0x60 is added to the
/// low seven bits.
pub(crate) fn control_bytes(w: u64) -> u64 {
    !((w & !HIGH) + LOW * 0x60) & !w & HIGH
}

/// The end of the stretch that starts with the non-space at `start`: the
/// first whitespace that is not a lone `' '` between two non-spaces.
fn stretch_end(s: &str, start: usize) -> usize {
    let bytes = s.as_bytes();
    let mut i = start;
    while i < bytes.len() {
        if let (Some(w), Some(&after)) = (word_at(bytes, i), bytes.get(i + 8)) {
            // Bytes that may end the stretch: ASCII controls, non-ASCII
            // bytes, and a space followed by a space.
            let controls = control_bytes(w);
            let spaces = equal_bytes(w, b' ');
            let next_spaces = (spaces >> 8) | (u64::from(after == b' ') << 63);
            let flags = controls | (w & HIGH) | (spaces & next_spaces);
            if flags == 0 {
                i += 8;
                continue;
            }
            i += (flags.trailing_zeros() / 8) as usize;
        }
        let len = space_len(s, i);
        let ends = match len {
            0 => false,
            _ if bytes[i] == b' ' => i + 1 == bytes.len() || space_len(s, i + 1) > 0,
            _ => true,
        };
        if ends {
            // A ' ' just before a newline or wide space belongs to the run.
            let mut end = i;
            while end > start && bytes[end - 1] == b' ' {
                end -= 1;
            }
            return end;
        }
        i += 1;
    }
    bytes.len()
}

/// The eight bytes at `i` as a little-endian word, if there are eight.
fn word_at(bytes: &[u8], i: usize) -> Option<u64> {
    let chunk = bytes.get(i..i + 8)?;
    Some(u64::from_le_bytes(chunk.try_into().ok()?))
}

/// The offset of the first non-whitespace character at or after `i`.
fn skip_spaces(s: &str, mut i: usize) -> usize {
    while i < s.len() {
        match space_len(s, i) {
            0 => break,
            len => i += len,
        }
    }
    i
}

/// The byte length of the whitespace character at byte `i` of `s`, 0 when
/// there is none (or `i` is inside a character). Only the lead bytes of
/// White_Space characters are decoded.
fn space_len(s: &str, i: usize) -> usize {
    match s.as_bytes()[i] {
        b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c => 1,
        0xc2 | 0xe1 | 0xe2 | 0xe3 => match s.get(i..).and_then(|t| t.chars().next()) {
            Some(c) if c.is_whitespace() => c.len_utf8(),
            _ => 0,
        },
        _ => 0,
    }
}

fn push_word(out: &mut String, word: &str) {
    if !out.is_empty() {
        out.push(' ');
    }
    out.push_str(word);
}

/// Folds runs of whitespace (newlines, indentation) to single spaces and
/// trims.
pub(crate) fn fold_whitespace(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    push_folded(&mut out, s);
    out
}

/// [`fold_whitespace`], `None` when nothing is left.
pub(crate) fn folded(s: &str) -> Option<String> {
    Some(fold_whitespace(s)).filter(|s| !s.is_empty())
}

/// [`folded`] for an abstract: whitespace folded within paragraphs, a
/// blank line between two kept as a paragraph break (`\n\n`), as the
/// other readers and the screen keep them.
pub(crate) fn folded_paragraphs(s: &str) -> Option<String> {
    let blank_at = |nl: usize| {
        let rest = &s.as_bytes()[nl + 1..];
        let gap = rest
            .iter()
            .take_while(|&&b| matches!(b, b' ' | b'\t' | b'\r'))
            .count();
        rest.get(gap) == Some(&b'\n')
    };
    if !memchr::memchr_iter(b'\n', s.as_bytes()).any(blank_at) {
        return folded(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut start = 0;
    for nl in memchr::memchr_iter(b'\n', s.as_bytes()) {
        if nl < start || !blank_at(nl) {
            continue;
        }
        let paragraph = fold_whitespace(&s[start..nl]);
        if !paragraph.is_empty() {
            if !out.is_empty() {
                out.push_str("\n\n");
            }
            out.push_str(&paragraph);
        }
        start = nl + 1;
    }
    let last = fold_whitespace(&s[start..]);
    if !last.is_empty() {
        if !out.is_empty() {
            out.push_str("\n\n");
        }
        out.push_str(&last);
    }
    Some(out).filter(|s| !s.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paragraphs_stay_apart_and_fold_within() {
        assert_eq!(folded_paragraphs(" a\n  b ").as_deref(), Some("a b"));
        assert_eq!(
            folded_paragraphs("a\n b\n\nc  d\r\n \t\r\n\n e\n").as_deref(),
            Some("a b\n\nc d\n\ne")
        );
        assert_eq!(folded_paragraphs("\n\n \n\n"), None);
        assert_eq!(folded_paragraphs("\n\nx").as_deref(), Some("x"));
    }

    #[test]
    fn a_character_of_plain_word_bytes_is_left_as_it_is() {
        let mut taken = 0;
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            let mut utf8 = [0; 4];
            if !c.encode_utf8(&mut utf8).bytes().all(plain_word_byte) {
                continue;
            }
            taken += 1;
            let word = format!("a{c}b");
            assert!(one_plain_word(&word), "{c:?}");
            assert_eq!(fold_whitespace(&word), word, "{c:?}");
            assert_eq!(crate::text::sanitize::line(&word), word, "{c:?}");
        }
        // Printable ASCII but the space, and U+00C0 to U+02FF.
        assert_eq!(taken, 94 + 0x2FF - 0xC0 + 1);
    }

    #[test]
    fn folding() {
        for (raw, want) in [
            ("", ""),
            ("   ", ""),
            ("a", "a"),
            (" a  b\n\n  c\t", "a b c"),
            ("one two three", "one two three"),
            ("x \u{a0}y\u{2003}\u{3000}z", "x y z"),
            ("héllo wörld\r\n—ok", "héllo wörld —ok"),
            ("a \n b", "a b"),
            ("a\u{85}b", "a b"),
            ("中文 标题\n  续", "中文 标题 续"),
        ] {
            assert_eq!(fold_whitespace(raw), want, "{raw:?}");
            let words: Vec<&str> = raw.split_whitespace().collect();
            assert_eq!(fold_whitespace(raw), words.join(" "));
        }
        let mut out = String::from("A.");
        push_folded(&mut out, "  B.  ");
        push_folded(&mut out, " ");
        assert_eq!(out, "A. B.");
    }

    proptest::proptest! {
        /// Short words (an author's name's parts) and longer texts alike
        /// fold to their words joined by single spaces, after what came
        /// before.
        #[test]
        fn pushed_text_folds_to_its_words(
            before in "[a-z]{0,3}",
            s in "([!-~]{0,40}|[ \t\n\u{a0}\u{85}\u{7f}\u{1f}]|\u{e9}){0,4}",
        ) {
            let mut out = before.clone();
            push_folded(&mut out, &s);
            let mut words: Vec<&str> = before.split_whitespace().collect();
            words.extend(s.split_whitespace());
            proptest::prop_assert_eq!(out, words.join(" "), "{:?}", s);
        }
    }
}
