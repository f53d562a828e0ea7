//! JSON strings as written in a file: whether one is plain enough to be
//! left there and read back later, and the text a record has of one. The
//! JSON reader uses it when it leaves abstracts in the file, and the
//! abstracts read back use it, so it sits below both.

use super::fold::folded;

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
    // One pass the compiler vectorises: every byte printable ASCII.
    if !inner
        .iter()
        .fold(true, |ok, &c| ok & (c.wrapping_sub(0x20) < 0x5F))
    {
        return false;
    }
    let mut escaped_upto = 0;
    for i in memchr::memchr_iter(b'\\', inner) {
        if i < escaped_upto {
            // The second of `\\`.
            continue;
        }
        match inner.get(i + 1) {
            Some(b'n' | b't' | b'r' | b'"' | b'\\' | b'/') => escaped_upto = i + 2,
            _ => return false,
        }
    }
    // A letter or digit not right after a backslash (an escape's letter);
    // one after a `\\` is passed over too, which only costs a decode.
    inner
        .iter()
        .enumerate()
        .any(|(i, c)| c.is_ascii_alphanumeric() && (i == 0 || inner[i - 1] != b'\\'))
}

/// A JSON string (quotes included) as the text a record has of it: its
/// whitespace folded, `None` when blank or not a string. Decoded once:
/// borrowed from `raw` when it has no escapes, decoded when it has (most
/// abstracts of the arXiv snapshot have a `\n`), never parsed twice.
pub fn string_folded(raw: &str) -> Option<String> {
    use serde::Deserializer;
    let mut de = serde_json::Deserializer::from_str(raw);
    let text = de.deserialize_str(StrVisitor).ok()?;
    de.end().ok()?;
    folded(&text)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::sanitize;
    use proptest::prelude::*;

    #[test]
    fn strings_are_decoded_and_folded() {
        assert_eq!(string_folded(r#"" a  b ""#).as_deref(), Some("a b"));
        assert_eq!(
            string_folded(r#""Line one\nline  two \"q\" \u00e9""#).as_deref(),
            Some("Line one line two \"q\" é")
        );
        assert_eq!(string_folded(r#"" \n ""#), None);
        assert_eq!(string_folded("12"), None);
        assert_eq!(string_folded(r#""a" x"#), None);
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

    proptest! {
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
            let text = string_folded(&raw).unwrap();
            prop_assert!(!sanitize::block_owned(text).is_empty());
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
    }
}
