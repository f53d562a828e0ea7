//! JSON strings as written in a file: whether one is plain enough to be
//! left there and read back later, and the text a record has of one. The
//! JSON reader uses it when it leaves abstracts in the file, and the
//! abstracts read back use it, so it sits below both.

use crate::text::markup;

/// True when `raw` (a JSON string, quotes included) is plain: printable
/// ASCII, its only escapes `\n \t \r \" \\ \/`, and a letter or digit
/// outside them. Such a string decodes to text that cleaning keeps a letter
/// of, so it can be left in the file and still be known not to be empty.
/// Anything else (other escapes, non-ASCII) is decoded when loaded.
pub fn plain_json_string(raw: &str) -> bool {
    let b = raw.as_bytes();
    if b.len() < 3 || b[0] != b'"' || b[b.len() - 1] != b'"' {
        return false;
    }
    let inner = &b[1..b.len() - 1];
    // Most strings are printable ASCII whose every backslash starts one of
    // `\n \t \r \" \/`: one pass over the bytes side by side tells (a
    // test the compiler vectorises). Without `\\`, each backslash starts
    // an escape.
    let &last = inner.last().unwrap_or(&0);
    let simple = inner.iter().zip(&inner[1..]).fold(true, |ok, (&x, &y)| {
        let escape = matches!(y, b'n' | b't' | b'r' | b'"' | b'/');
        ok & (x.wrapping_sub(0x20) < 0x5F) & ((x != b'\\') | escape)
    }) && last.wrapping_sub(0x20) < 0x5F
        && last != b'\\';
    if simple {
        return has_letter(inner);
    }
    plain_past_simple(inner)
}

/// For the inside of a JSON string that is not all printable ASCII with
/// simple escapes: [`plain_json_string`]'s answer.
fn plain_past_simple(inner: &[u8]) -> bool {
    // Any other: 32 bytes at a time while they are printable ASCII
    // without a backslash; a block that is not is gone over a byte at a
    // time, escapes and all.
    let mut i = 0;
    while i < inner.len() {
        let end = (i + 32).min(inner.len());
        if end - i == 32
            && inner[i..end].iter().fold(true, |ok, &c| {
                ok & (c.wrapping_sub(0x20) < 0x5F) & (c != b'\\')
            })
        {
            i = end;
            continue;
        }
        while i < end {
            match inner[i] {
                b'\\' => match inner.get(i + 1) {
                    Some(b'n' | b't' | b'r' | b'"' | b'\\' | b'/') => i += 2,
                    _ => return false,
                },
                c if c.wrapping_sub(0x20) < 0x5F => i += 1,
                _ => return false,
            }
        }
    }
    has_letter(inner)
}

/// A plain JSON string as written, quotes included
/// ([`plain_json_string`]), and whether its words can be read there
/// ([`words_as_written`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plain<'a> {
    pub raw: &'a str,
    pub written: bool,
}

impl<'a> Plain<'a> {
    /// `raw` as a plain string, if it is one.
    pub fn of(raw: &'a str) -> Option<Plain<'a>> {
        let (plain, written) = plain_and_written(raw);
        plain.then_some(Plain { raw, written })
    }
}

/// How a JSON string (quotes included) can be left in its file: whether it
/// is plain ([`plain_json_string`]) and whether its words can be read as
/// written ([`words_as_written`]), both told by one pass over its bytes
/// for most strings. Loading asks the first of every abstract; asking the
/// second then too costs little more, and spares reading it again to ask.
///
/// Its pass is vector code, 32 bytes at a time where the processor has
/// AVX2 (asked once), else 16 (SSE2, every x86-64 processor): the one
/// loading's JSON reading spent most in after the parser's own scan.
pub fn plain_and_written(raw: &str) -> (bool, bool) {
    crate::simd::avx2_or(
        |_| plain_and_written_baseline(raw),
        || plain_and_written_baseline(raw),
    )
}

/// [`plain_and_written`] for the target's baseline; inlined into the AVX2
/// copy, whose folds the compiler then makes twice as wide.
#[inline(always)]
fn plain_and_written_baseline(raw: &str) -> (bool, bool) {
    let b = raw.as_bytes();
    if b.len() < 3 || b[0] != b'"' || b[b.len() - 1] != b'"' {
        return (false, false);
    }
    let inner = &b[1..b.len() - 1];
    // The tests of both, side by side, each byte with the one after it;
    // those of `words_as_written` that `plain_json_string` lacks are kept
    // apart.
    let (odd, marked) =
        inner
            .iter()
            .zip(&inner[1..])
            .fold((false, false), |(odd, marked), (&x, &y)| {
                let escape = matches!(y, b'n' | b't' | b'r' | b'"' | b'/');
                (
                    odd | (x.wrapping_sub(0x20) >= 0x5F) | ((x == b'\\') & !escape),
                    marked
                        | markup::markup_byte(x, false)
                        | ((y == b'"') & (x != b'\\'))
                        | markup::markup_pair(x, y),
                )
            });
    let (&first, &last) = (&inner[0], &inner[inner.len() - 1]);
    if odd || last.wrapping_sub(0x20) >= 0x5F || last == b'\\' {
        // Not simple, so not readable as written either.
        return (plain_past_simple(inner), false);
    }
    if !has_letter(inner) {
        return (false, false);
    }
    let written =
        !marked && first != b'"' && !markup::markup_byte(last, false) && !markup::has_http(inner);
    (true, written)
}

/// Whether the inside of a JSON string has a letter or digit not right
/// after a backslash (an escape's letter); one after a `\\` is passed
/// over too, which only costs a decode.
fn has_letter(inner: &[u8]) -> bool {
    inner
        .iter()
        .enumerate()
        .any(|(i, c)| c.is_ascii_alphanumeric() && (i == 0 || inner[i - 1] != b'\\'))
}

/// The inside of `raw`, a JSON string (quotes included), when the words of
/// the text a paper has of it can be read there as written: printable
/// ASCII whose only escapes are `\n \t \r \" \/` (each decodes to a
/// character between words), with a letter or digit outside them and no
/// markup. Its words are then its runs of letters and digits, the letter
/// of each escape left out: decoding, folding white space, cleaning and
/// rendering would change none. `None` for any other string, which is
/// decoded as it always is.
///
/// Markup ([`markup::has_markup`]) is looked for as written: the escapes
/// decode to white space, quotes and slashes, none of them markup, and
/// what is not an escape is the same in the text, where folding white
/// space keeps every two characters side by side that it has (`--`,
/// `''`, `http`). So the string has markup as written (its escapes'
/// backslashes aside) exactly when its text has.
pub fn words_as_written(raw: &str) -> Option<&str> {
    let inner = raw.strip_prefix('"')?.strip_suffix('"')?;
    let b = inner.as_bytes();
    let (&first, &last) = (b.first()?, b.last()?);
    // One pass over the bytes side by side, which the compiler turns into
    // vector code: the first is printable and no markup, a backslash
    // starts one of the escapes and a quote ends one (a quote alone would
    // have ended the string; without `\\`, each backslash starts an
    // escape), and the two are not markup (`''`, `--`). A backslash is
    // not taken for markup here, escapes being none. Then a letter
    // outside the escapes, and `http`.
    let bad = b.iter().zip(&b[1..]).fold(false, |bad, (&x, &y)| {
        let escape = matches!(y, b'n' | b't' | b'r' | b'"' | b'/');
        bad | (x.wrapping_sub(0x20) >= 0x5F)
            | markup::markup_byte(x, false)
            | ((x == b'\\') & !escape)
            | ((y == b'"') & (x != b'\\'))
            | markup::markup_pair(x, y)
    });
    let ends = first != b'"'
        && last != b'\\'
        && last.wrapping_sub(0x20) < 0x5F
        && !markup::markup_byte(last, false);
    (!bad && ends && has_letter(b) && !markup::has_http(b)).then_some(inner)
}

/// The text of a JSON string as written (`raw`, quotes included), as an
/// abstract is kept: decoded, whitespace folded within paragraphs, a
/// blank line kept as a paragraph break
/// ([`folded_paragraphs`](crate::corpus::fold::folded_paragraphs));
/// `None` when it is blank or not one whole string.
pub fn string_paragraphs(raw: &str) -> Option<String> {
    use serde::Deserializer;
    let mut de = serde_json::Deserializer::from_str(raw);
    let text = de.deserialize_str(StrVisitor).ok()?;
    de.end().ok()?;
    crate::corpus::fold::folded_paragraphs(&text)
}

/// Takes a JSON string as it comes: borrowed when the input holds it as
/// is, owned when escapes had to be decoded.
struct StrVisitor;

impl<'de> serde::de::Visitor<'de> for StrVisitor {
    type Value = std::borrow::Cow<'de, str>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a string")
    }

    fn visit_borrowed_str<E: serde::de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(std::borrow::Cow::Borrowed(v))
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(std::borrow::Cow::Owned(v.to_owned()))
    }

    fn visit_string<E: serde::de::Error>(self, v: String) -> Result<Self::Value, E> {
        Ok(std::borrow::Cow::Owned(v))
    }
}

/// `text` (JSON, or a piece of it) with what serde_json refuses in its
/// strings made acceptable, so that a bad string costs that string rather
/// than its record: an escape that is not JSON's (`\q`, `\u12`) and a lone
/// surrogate (`\ud800`) become `\ufffd`, a control character written as
/// it is becomes its escape. `None` when there was nothing to change. A
/// raw line end is left as it is and ends the string for this scan (a
/// string is rarely meant to span lines; a quote missing is likelier), so
/// lines keep their numbers and one missing quote does not turn the rest
/// of the text inside out.
pub fn repair_escapes(text: &str) -> Option<String> {
    const BAD: &str = "\\ufffd";
    let b = text.as_bytes();
    let mut out = String::new();
    // Bytes up to `copied` are in `out` or replaced.
    let mut copied = 0;
    let mut changed = false;
    let mut in_string = false;
    let mut i = 0;
    let replace = |out: &mut String, from: usize, to: usize, with: &str, copied: &mut usize| {
        out.push_str(&text[*copied..from]);
        out.push_str(with);
        *copied = to;
    };
    while i < b.len() {
        let c = b[i];
        if !in_string {
            in_string = c == b'"';
            i += 1;
            continue;
        }
        match c {
            b'"' => in_string = false,
            b'\n' => in_string = false,
            b'\\' => {
                let hex = |k: usize| {
                    b.get(k..k + 4)
                        .filter(|h| h.iter().all(u8::is_ascii_hexdigit))
                        .and_then(|h| u16::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok())
                };
                match b.get(i + 1) {
                    Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => i += 1,
                    Some(b'u') => match hex(i + 2) {
                        Some(0xD800..=0xDBFF)
                            if b.get(i + 6..i + 8) == Some(b"\\u")
                                && matches!(hex(i + 8), Some(0xDC00..=0xDFFF)) =>
                        {
                            i += 11;
                        }
                        Some(0xD800..=0xDFFF) => {
                            changed = true;
                            replace(&mut out, i, i + 6, BAD, &mut copied);
                            i += 5;
                        }
                        Some(_) => i += 5,
                        None => {
                            // `\u` and the hex digits there are.
                            let digits = b[i + 2..]
                                .iter()
                                .take(4)
                                .take_while(|h| h.is_ascii_hexdigit())
                                .count();
                            changed = true;
                            replace(&mut out, i, i + 2 + digits, BAD, &mut copied);
                            i += 1 + digits;
                        }
                    },
                    // A backslash at the end, or before a line end.
                    None | Some(b'\n') => {
                        changed = true;
                        replace(&mut out, i, i + 1, BAD, &mut copied);
                    }
                    Some(_) => {
                        // The escaped character, whole.
                        let len = text[i + 1..].chars().next().map_or(1, char::len_utf8);
                        changed = true;
                        replace(&mut out, i, i + 1 + len, BAD, &mut copied);
                        i += len;
                    }
                }
            }
            0..=0x1F => {
                changed = true;
                replace(&mut out, i, i + 1, &format!("\\u{c:04x}"), &mut copied);
            }
            _ => {}
        }
        i += 1;
    }
    if !changed {
        return None;
    }
    out.push_str(&text[copied..]);
    Some(out)
}

/// Where the JSON string whose inside starts at `from` in `b` ends: the
/// place of the quote that closes it, the byte after each backslash
/// passed over. `None` when no quote closes it. The string is not
/// checked (a control character, an escape JSON lacks): the caller reads
/// it once found (see [`Plain::of`]).
///
/// Sixty-four bytes at a time ([`crate::simd::quotes_and_slashes`]): a
/// quote ends the string unless the byte before it is a backslash that
/// ends a block of its own. A block where a backslash
/// follows a backslash (`\\`, rare in text) is gone over a byte at a
/// time. An abstract of the arXiv snapshot has a `\n` a line: searched
/// for the next quote or backslash escape by escape, each search waited
/// on the one before, and cost what the parser had.
pub fn string_end(b: &[u8], mut from: usize) -> Option<usize> {
    // Whether the byte at `from` is escaped (the block before ended in a
    // backslash that escapes it).
    let mut carry = 0;
    while from + 64 <= b.len() {
        let Ok(block) = b[from..from + 64].try_into() else {
            break;
        };
        let (quotes, slashes) = crate::simd::quotes_and_slashes(block);
        let escaped = (slashes << 1) | carry;
        if slashes & escaped == 0 {
            let ends = quotes & !escaped;
            if ends != 0 {
                return Some(from + ends.trailing_zeros() as usize);
            }
            carry = slashes >> 63;
            from += 64;
        } else {
            let end = from + 64;
            match end_bytewise(b, from + carry as usize, end) {
                Ok(at) => return Some(at),
                Err(next) => {
                    carry = (next - end) as u64;
                    from = end;
                }
            }
        }
    }
    end_bytewise(b, from + carry as usize, b.len()).ok()
}

/// [`string_end`] over the bytes of `b` from `i` to `to`, a byte at a
/// time: `Ok` the place of the closing quote, else `Err` the place of the
/// next byte to look at (`to`, or past it when the last byte is a
/// backslash).
fn end_bytewise(b: &[u8], mut i: usize, to: usize) -> Result<usize, usize> {
    while i < to {
        match b[i] {
            b'"' => return Ok(i),
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
    Err(i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::sanitize;
    use proptest::prelude::*;

    #[test]
    fn strings_are_decoded_and_folded() {
        assert_eq!(string_paragraphs(r#"" a  b ""#).as_deref(), Some("a b"));
        assert_eq!(
            string_paragraphs(r#""Line one\nline  two \"q\" \u00e9""#).as_deref(),
            Some("Line one line two \"q\" é")
        );
        assert_eq!(string_paragraphs(r#"" \n ""#), None);
        assert_eq!(string_paragraphs("12"), None);
        assert_eq!(string_paragraphs(r#""a" x"#), None);
    }

    #[test]
    fn plain_strings() {
        for yes in [
            r#""a""#,
            r#""Line one\nline two \"quoted\" a\\b""#,
            r#"" \t 7 ""#,
        ] {
            assert!(plain_json_string(yes), "{yes}");
        }
        for no in [
            r#""""#,
            r#"" \n \t ""#,
            r#""\u00e9t\u00e9""#,
            "\"été\"",
            r#""\u001b[31m""#,
            r#""\b a""#,
            r#""\\n""#,
            "a",
            r#""a"#,
        ] {
            assert!(!plain_json_string(no), "{no}");
        }
    }

    #[test]
    fn words_as_written_only_where_decoding_changes_no_word() {
        for (raw, inner) in [
            (r#""a""#, "a"),
            (
                r#""Line one\nline two \"quoted\" a\/b\t\r""#,
                r#"Line one\nline two \"quoted\" a\/b\t\r"#,
            ),
            (r#""\"q\" 7""#, r#"\"q\" 7"#),
            (r#""x - y' z""#, "x - y' z"),
        ] {
            assert_eq!(words_as_written(raw), Some(inner), "{raw}");
            assert!(plain_json_string(raw), "{raw}");
        }
        for no in [
            // Not a string, or one whose last quote is escaped.
            r#""""#,
            "a",
            r#""a"#,
            r#""a\""#,
            r#""a"b""#,
            // No letter outside the escapes.
            r#"" \n \t ""#,
            // `\\` decodes to a backslash, which is markup; `\u` and
            // `\b` are decoded.
            r#""a\\b""#,
            r#""a\\n""#,
            r#""\u00e9t\u00e9""#,
            r#""\b a""#,
            "\"été\"",
            "\"a\tb\"",
            // Markup.
            r#""$x^2$""#,
            r#""a_b""#,
            r#""see http:\/\/x.org""#,
            r#""a -- b""#,
            r#""''a''""#,
            r#""{a}""#,
            r#""\emph{a}""#,
        ] {
            assert_eq!(words_as_written(no), None, "{no}");
        }
    }

    #[test]
    fn bad_escapes_become_replacement_characters() {
        let cases = [
            (r#"{"a": "x\ud800y"}"#, "x\u{fffd}y"),
            (r#"{"a": "\udc00"}"#, "\u{fffd}"),
            (r#"{"a": "\ud800\u0041"}"#, "\u{fffd}A"),
            (
                r#"{"a": "\ud83d\ude00 ok \ud800"}"#,
                "\u{1f600} ok \u{fffd}",
            ),
            (
                r#"{"a": "bad \q and \u12 end"}"#,
                "bad \u{fffd} and \u{fffd} end",
            ),
            (r#"{"a": "bad \é"}"#, "bad \u{fffd}"),
            ("{\"a\": \"tab\there\"}", "tab\there"),
            (r#"{"a": "x\"}"#, ""),
        ];
        for (text, want) in cases {
            let fixed = repair_escapes(text).unwrap_or_else(|| text.to_string());
            match serde_json::from_str::<serde_json::Value>(&fixed) {
                Ok(v) => assert_eq!(v["a"], want, "{text}"),
                Err(e) => assert_eq!(want, "", "{text}: {e}"),
            }
        }
        // Valid JSON is left alone.
        for ok in [
            r#"{"a": "\u00e9\n\"\\ \ud83d\ude00"}"#,
            "[1, 2]",
            r#""\\ud800""#,
        ] {
            assert_eq!(repair_escapes(ok), None, "{ok}");
        }
        // A line end ends a string for the scan: the next line is read as
        // it is.
        assert_eq!(
            repair_escapes("{\"a\": \"open\n\"b\": \"\\ud800\"}").as_deref(),
            Some("{\"a\": \"open\n\"b\": \"\\ufffd\"}")
        );
    }

    /// [`plain_json_string`] as it was first written, a pass per rule: what
    /// the one-pass version is held to.
    fn plain_by_rules(raw: &str) -> bool {
        let b = raw.as_bytes();
        if b.len() < 3 || b[0] != b'"' || b[b.len() - 1] != b'"' {
            return false;
        }
        let inner = &b[1..b.len() - 1];
        if !inner.iter().all(|c| c.wrapping_sub(0x20) < 0x5F) {
            return false;
        }
        let mut escaped_upto = 0;
        for i in memchr::memchr_iter(b'\\', inner) {
            if i < escaped_upto {
                continue;
            }
            match inner.get(i + 1) {
                Some(b'n' | b't' | b'r' | b'"' | b'\\' | b'/') => escaped_upto = i + 2,
                _ => return false,
            }
        }
        inner
            .iter()
            .enumerate()
            .any(|(i, c)| c.is_ascii_alphanumeric() && (i == 0 || inner[i - 1] != b'\\'))
    }

    /// [`string_end`] a byte at a time.
    fn string_end_bytewise(b: &[u8], mut from: usize) -> Option<usize> {
        while from < b.len() {
            match b[from] {
                b'"' => return Some(from),
                b'\\' => from += 2,
                _ => from += 1,
            }
        }
        None
    }

    #[test]
    fn a_string_ends_at_its_first_quote_not_escaped() {
        let line = br#"{"abstract":"a \"b\" \\"x":1}"#;
        assert_eq!(string_end(line, 13), Some(23));
        let long = format!(r#"{}\"{}\\"x"#, "a".repeat(40), "b".repeat(40));
        assert_eq!(string_end(long.as_bytes(), 0), Some(long.len() - 2));
        assert_eq!(string_end(b"no end", 0), None);
        // Every escape, at every place about the blocks' edges.
        for escape in [r#"\""#, r#"\\""#, r#"\\\""#, r#"\\\\"#] {
            for at in 0..140 {
                let s = format!(r#"{}{escape}{}"x"#, "a".repeat(at), "b".repeat(70));
                assert_eq!(
                    string_end(s.as_bytes(), 0),
                    string_end_bytewise(s.as_bytes(), 0),
                    "{s}"
                );
            }
        }
        assert_eq!(string_end(br#"ends in an escape\""#, 0), None);
    }

    proptest! {
        /// Found sixty-four bytes at a time, the end is where it is a
        /// byte at a time, wherever the quotes and backslashes fall about
        /// the blocks' edges.
        #[test]
        fn a_string_ends_where_a_byte_at_a_time_tells(
            s in "([a-z ]{0,70}|\\\\[n\"\\\\]|\\\\|\"){0,16}",
            from in 0usize..80,
        ) {
            let b = s.as_bytes();
            let from = from.min(b.len());
            prop_assert_eq!(string_end(b, from), string_end_bytewise(b, from), "{}", s);
        }

        /// The one pass decides as the rules one by one do, on strings
        /// long enough for whole blocks and with escapes of every kind.
        #[test]
        fn plain_in_one_pass_as_by_rules(
            s in "\"([ -~]{0,40}|\\\\[ntr\"\\\\/bu]|\u{e9}|\t){0,12}\"?",
        ) {
            prop_assert_eq!(plain_json_string(&s), plain_by_rules(&s), "{}", s);
        }

        /// A plain string decodes, folds and cleans to text that is not
        /// empty: what leaving it in the file takes for granted. The
        /// strings have a letter or digit, so nearly all of them are plain
        /// (one right after a backslash is not): too few plain ones fails
        /// the test rather than passing it unchecked.
        #[test]
        fn a_plain_string_is_never_empty_once_read(
            s in "[ -~\\n\\t\\r]{0,20}[A-Za-z0-9][ -~\\n\\t\\r]{0,20}",
        ) {
            let raw = serde_json::to_string(&s).unwrap();
            prop_assume!(plain_json_string(&raw));
            let text = string_paragraphs(&raw).unwrap();
            prop_assert!(!sanitize::block_owned(text).is_empty());
        }

        /// A string whose words are read as written is plain, and its text
        /// is what decoding, folding and cleaning make of it, without
        /// markup: its words are those of the text the index would read.
        /// (That they are the same words is the word index's test.)
        #[test]
        fn words_as_written_are_of_plain_text_without_markup(
            s in "([ -~]{0,12}|[\\n\\t\\r\"/\\\\]){0,12}",
            slashes in any::<bool>(),
        ) {
            let mut raw = serde_json::to_string(&s).unwrap();
            if slashes {
                raw = raw.replace('/', "\\/");
            }
            // Read as written exactly when the string is printable ASCII
            // and the escapes named, with a letter or digit, and no markup.
            let text = string_paragraphs(&raw);
            let expected = s
                .chars()
                .all(|c| matches!(c, ' '..='~' | '\n' | '\t' | '\r') && c != '\\')
                && s.chars().any(|c| c.is_ascii_alphanumeric())
                && text.as_ref().is_some_and(|t| !markup::has_markup(t));
            let inner = words_as_written(&raw);
            prop_assert_eq!(inner.is_some(), expected, "{:?}", raw);
            if let Some(inner) = inner {
                prop_assert!(plain_json_string(&raw));
                prop_assert_eq!(inner, &raw[1..raw.len() - 1]);
                let text = text.unwrap();
                prop_assert_eq!(sanitize::block_owned(text.clone()), text.clone());
                prop_assert!(!markup::has_markup(&text), "{}", text);
            }
        }

        /// Both told in one pass, as each is told alone: on strings with
        /// every escape, markup byte and pair, quote, `http`, a letter or
        /// none, and past ASCII, in blocks long enough for the folds.
        #[test]
        fn plain_and_written_in_one_pass_as_each_alone(
            s in "\"?([ -~]{0,40}|\\\\[ntr\"\\\\/bu]|[$*_<\\[`~{}'\\-]{1,2}|http|\u{e9}|\t|\"){0,12}\"?",
            // Mostly words, so that many can be read as written.
            clean in "\"([a-z ]{1,20}|\\\\[nt\"/]|--|''|-|'|http|[$}]){1,8}\"",
        ) {
            for s in [&s, &clean] {
                let (plain, written) = plain_and_written(s);
                // The copy this processor runs and the baseline's agree.
                prop_assert_eq!((plain, written), plain_and_written_baseline(s), "{}", s);
                prop_assert_eq!(plain, plain_json_string(s), "{}", s);
                prop_assert_eq!(written, words_as_written(s).is_some(), "{}", s);
                prop_assert_eq!(Plain::of(s).map(|p| p.written), plain.then_some(written));
            }
        }

        /// A string with a control character (escaped as `\u001b`) or
        /// anything beyond ASCII is decoded when loaded, never left plain.
        #[test]
        fn other_characters_are_never_plain(
            s in "[ -~\\n]{0,20}[\u{1b}\u{e9}\u{200b}][ -~\\n]{0,20}",
        ) {
            let raw = serde_json::to_string(&s).unwrap();
            prop_assert!(!plain_json_string(&raw));
        }

        /// Whatever a string holds, once repaired it reads as a string.
        #[test]
        fn a_repaired_string_always_reads(s in "[ -~\n\t\u{e9}]{0,30}") {
            let raw = format!("\"{}\"", s.replace('\n', " "));
            let fixed = repair_escapes(&raw).unwrap_or(raw.clone());
            // A quote inside ends the string early: the rest is not JSON.
            if !s.contains('"') && !s.ends_with('\\') {
                prop_assert!(serde_json::from_str::<String>(&fixed).is_ok(), "{fixed}");
            }
        }
    }
}
