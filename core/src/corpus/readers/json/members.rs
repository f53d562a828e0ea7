//! A paper object's members found by one walk over its line, for a
//! record to read its fields from without serde_json's generic reading
//! of the object (see `JsonRecord::read` in record.rs).
//!
//! serde_json reads an object a key at a time: each key is parsed as a
//! string, handed to the record's matcher, then its value is read or
//! passed over by the parser's general code. On the arXiv snapshot
//! (fourteen members a line) that was a fifth of a cold search's
//! instructions, most of it per key and per value rather than per byte.
//! The walk finds each member's key and value as written: a string by
//! its closing quote (sixteen bytes at a time), a nested value by its
//! brackets. It checks only what it can tell alone (the punctuation
//! between members, keys and strings free of escapes and control
//! characters, the three literals); every other value comes as written
//! for the parser to read, so that the object is taken exactly when the
//! parser would take it.

use serde::de::IgnoredAny;

use super::lenient::plain_string_len;
use crate::corpus::json_string::string_end;

/// How deep a value found by its brackets may nest; the parser takes a
/// line with deeper values (up to its own limit, 128 levels), which the
/// walk leaves to it.
const MAX_DEPTH: usize = 64;

/// How a member's value was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// A string with neither an escape nor a control character: its text
    /// is the value less its quotes, as written.
    Plain,
    /// `null`, `true` or `false`.
    Literal,
    /// Any other value (a string with escapes, a number, an array, an
    /// object), found but not checked: the parser reads it.
    Other,
    /// A value the caller found (and read) ahead of the walk: one of the
    /// spans it named ([`each_known`]).
    Known,
}

/// Calls `f` with each member of `s`, a JSON object with nothing around
/// it but white space: its key (the inside of a string free of escapes
/// and control characters), its value as written, and how that was found
/// ([`Kind`]). False, at once, when `f` returns false or `s` is not such
/// an object as far as the walk can tell; true when every member was
/// given. An [`Kind::Other`] value may still be bad JSON: `f` reads it
/// (or asks [`passes`]).
pub(super) fn each<'a>(s: &'a str, f: impl FnMut(&'a str, &'a str, Kind) -> bool) -> bool {
    each_known(s, &[], f)
}

/// [`each`], where a value that starts where one of `known` does (a
/// span of `s`, found ahead of the walk) ends where it says, unread,
/// and comes as [`Kind::Known`]: arXiv's abstract and author names, read
/// ahead of the walk, are not gone over again. (Found elsewhere, such a
/// span is gone over as any other bytes.)
pub(super) fn each_known<'a>(
    s: &'a str,
    known: &[(usize, usize)],
    mut f: impl FnMut(&'a str, &'a str, Kind) -> bool,
) -> bool {
    let b = s.as_bytes();
    let mut i = past_white_space(b, 0);
    if b.get(i) != Some(&b'{') {
        return false;
    }
    i = past_white_space(b, i + 1);
    if b.get(i) == Some(&b'}') {
        return past_white_space(b, i + 1) == b.len();
    }
    loop {
        let Some((key, at)) = key_at(s, i) else {
            return false;
        };
        i = at;
        let found = match known.iter().find(|&&(from, _)| from == i) {
            // A character boundary past its start (the caller's word is
            // not taken for it: `between` relies on both).
            Some(&(_, end)) if end > i && s.is_char_boundary(end) => Some((end, Kind::Known)),
            Some(_) => None,
            None => value_end(b, i),
        };
        let Some((end, kind)) = found else {
            return false;
        };
        if !f(key, slice_unchecked(s, i, end), kind) {
            return false;
        }
        i = past_white_space(b, end);
        match b.get(i) {
            Some(b',') => i = past_white_space(b, i + 1),
            Some(b'}') => return past_white_space(b, i + 1) == b.len(),
            _ => return false,
        }
    }
}

/// Calls `f` with each member of each object of `s`, a JSON array of
/// objects whose every value is a string with neither an escape nor a
/// control character (arXiv's `versions`, `[{"version":"v1","created":
/// "Mon, 2 Apr 2007 …"}]`): its key and its text. False, at once, for
/// anything else, which the parser reads. Such a list by the parser had
/// been a twentieth of a cold search's instructions.
pub(super) fn each_flat<'a>(s: &'a str, mut f: impl FnMut(&'a str, &'a str)) -> bool {
    let b = s.as_bytes();
    if b.first() != Some(&b'[') {
        return false;
    }
    let mut i = past_white_space(b, 1);
    if b.get(i) == Some(&b']') {
        return i + 1 == b.len();
    }
    loop {
        if b.get(i) != Some(&b'{') {
            return false;
        }
        i = past_white_space(b, i + 1);
        if b.get(i) != Some(&b'}') {
            loop {
                let Some((key, at)) = key_at(s, i) else {
                    return false;
                };
                let Some(len) = (b.get(at) == Some(&b'"'))
                    .then(|| plain_string_len(b, at + 1))
                    .flatten()
                else {
                    return false;
                };
                f(key, slice_unchecked(s, at + 1, at + 1 + len));
                i = past_white_space(b, at + len + 2);
                match b.get(i) {
                    Some(b',') => i = past_white_space(b, i + 1),
                    Some(b'}') => break,
                    _ => return false,
                }
            }
        }
        i = past_white_space(b, i + 1);
        match b.get(i) {
            Some(b',') => i = past_white_space(b, i + 1),
            Some(b']') => return i + 1 == b.len(),
            _ => return false,
        }
    }
}

/// `s[from..to]`, where each end is next to an ASCII byte of `s` (a
/// quote, a bracket, a colon, a comma) or at its end: a character
/// boundary, which is not checked again (the checks were a tenth of the
/// walk's instructions).
#[inline(always)]
fn slice_unchecked(s: &str, from: usize, to: usize) -> &str {
    debug_assert!(s.is_char_boundary(from) && s.is_char_boundary(to) && from <= to);
    // SAFETY: `from <= to <= s.len()`, both character boundaries (the
    // callers' promise, checked in debug builds): the walk found them
    // next to ASCII bytes it had read.
    unsafe { s.get_unchecked(from..to) }
}

/// The key of the member that starts at `s[i]` (the inside of a string
/// free of escapes and control characters) and where its value starts
/// (past the colon and white space).
#[inline(always)]
fn key_at(s: &str, i: usize) -> Option<(&str, usize)> {
    let b = s.as_bytes();
    if b.get(i) != Some(&b'"') {
        return None;
    }
    let len = plain_string_len(b, i + 1)?;
    let key = slice_unchecked(s, i + 1, i + 1 + len);
    let colon = past_white_space(b, i + len + 2);
    (b.get(colon) == Some(&b':')).then(|| (key, past_white_space(b, colon + 1)))
}

/// Whether the value of a member no field reads is one the parser passes
/// over (as [`IgnoredAny`]); `raw` and `kind` as [`each`] gives them.
pub(super) fn passes(raw: &str, kind: Kind) -> bool {
    match kind {
        Kind::Plain | Kind::Literal => true,
        Kind::Other => serde_json::from_str::<IgnoredAny>(raw).is_ok(),
        // Not a field's: the walk cannot vouch for it.
        Kind::Known => false,
    }
}

/// Past JSON white space from `i`.
fn past_white_space(b: &[u8], mut i: usize) -> usize {
    while let Some(b' ' | b'\t' | b'\n' | b'\r') = b.get(i) {
        i += 1;
    }
    i
}

/// Where the value that starts at `b[i]` ends, and how it was found;
/// `None` when no value can start there, or a string or brackets are
/// not closed. A number's end is the first byte that cannot be in one.
#[inline(always)]
fn value_end(b: &[u8], i: usize) -> Option<(usize, Kind)> {
    let literal = |word: &[u8]| {
        (b.get(i..i + word.len()) == Some(word)).then_some((i + word.len(), Kind::Literal))
    };
    match *b.get(i)? {
        b'"' => match plain_string_len(b, i + 1) {
            Some(len) => Some((i + len + 2, Kind::Plain)),
            None => Some((string_end(b, i + 1)? + 1, Kind::Other)),
        },
        b'n' => literal(b"null"),
        b't' => literal(b"true"),
        b'f' => literal(b"false"),
        b'[' | b'{' => Some((nested_end(b, i)?, Kind::Other)),
        b'-' | b'0'..=b'9' => {
            let len = b[i..]
                .iter()
                .position(|c| !matches!(c, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
                .unwrap_or(b.len() - i);
            Some((i + len, Kind::Other))
        }
        _ => None,
    }
}

/// Past the bracket that closes the one at `b[i]`, strings passed over
/// whole; `None` when none does within [`MAX_DEPTH`] levels. Which kind
/// of bracket closes which is the parser's to check. (A byte at a time:
/// such values are short, arXiv's `versions` the one in each line, and
/// sixteen bytes at a time took more instructions.)
fn nested_end(b: &[u8], mut i: usize) -> Option<usize> {
    let mut depth = 0;
    while let Some(&c) = b.get(i) {
        match c {
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return None;
                }
            }
            b']' | b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            b'"' => i = string_end(b, i + 1)?,
            _ => {}
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walked(s: &str) -> Option<Vec<(String, String, Kind)>> {
        let mut out = Vec::new();
        each(s, |k, v, kind| {
            out.push((k.to_string(), v.to_string(), kind));
            true
        })
        .then_some(out)
    }

    #[test]
    fn members_come_as_written_with_how_each_was_found() {
        let got = walked(
            r#" { "a" : "x y" ,"b":null,"c":[1,{"d":"]"}],"e":-1.5e3,"f":"q\"z","g":true}  "#,
        )
        .unwrap();
        let want = [
            ("a", r#""x y""#, Kind::Plain),
            ("b", "null", Kind::Literal),
            ("c", r#"[1,{"d":"]"}]"#, Kind::Other),
            ("e", "-1.5e3", Kind::Other),
            ("f", r#""q\"z""#, Kind::Other),
            ("g", "true", Kind::Literal),
        ];
        assert_eq!(got.len(), want.len());
        for ((k, v, kind), (wk, wv, wkind)) in got.iter().zip(want) {
            assert_eq!((k.as_str(), v.as_str(), *kind), (wk, wv, wkind));
        }
        assert_eq!(walked("{}"), Some(Vec::new()));
        assert_eq!(walked(" {\t}\r"), Some(Vec::new()));
    }

    #[test]
    fn what_the_walk_cannot_vouch_for_is_refused() {
        for s in [
            "",
            "[]",
            "{",
            "{}x",
            r#"{"a":1,}"#,
            r#"{"a" 1}"#,
            r#"{"a":}"#,
            r#"{"a":nul}"#,
            r#"{"a":nullx}"#,
            r#"{"a":"b"x}"#,
            r#"{"a\u0062":1}"#,
            "{\"a\tb\":1}",
            r#"{a:1}"#,
            r#"{"a":[1,2}"#,
            r#"{"a":"unclosed}"#,
            r#"{"a":1}{"b":2}"#,
            r#"{"a":+1}"#,
        ] {
            assert_eq!(walked(s), None, "{s}");
        }
        let deep = format!(r#"{{"a":{}1{}}}"#, "[".repeat(65), "]".repeat(65));
        assert_eq!(walked(&deep), None);
        let fits = format!(r#"{{"a":{}1{}}}"#, "[".repeat(64), "]".repeat(64));
        assert!(walked(&fits).is_some());
    }

    #[test]
    fn a_list_of_flat_objects_gives_its_members_and_anything_else_is_refused() {
        let flat = |s: &str| {
            let mut out = Vec::new();
            each_flat(s, |k, v| out.push(format!("{k}={v}"))).then_some(out.join(" "))
        };
        assert_eq!(
            flat(r#"[{"version":"v1","created":"Mon, 2 Apr 2007"}, { "version" : "v2" } ,{}]"#),
            Some("version=v1 created=Mon, 2 Apr 2007 version=v2".to_string())
        );
        assert_eq!(flat("[]"), Some(String::new()));
        assert_eq!(flat("[ ]"), Some(String::new()));
        for s in [
            "",
            "[",
            "{}",
            r#"[{"a":1}]"#,
            r#"[{"a":"b\n"}]"#,
            r#"[{"a":["b"]}]"#,
            r#"["a"]"#,
            r#"[{"a":"b",}]"#,
            r#"[{"a":"b"},]"#,
            r#"[{"a":"b"}"#,
            r#"[{"a":"b"}] "#,
            r#"[{"a" "b"}]"#,
            r#"[{"a":"b"}{"c":"d"}]"#,
        ] {
            assert_eq!(flat(s), None, "{s}");
        }
    }

    #[test]
    fn a_value_no_field_reads_passes_as_the_parser_passes_it() {
        for (raw, kind, ok) in [
            ("null", Kind::Literal, true),
            (r#""x""#, Kind::Plain, true),
            (r#""a\nb""#, Kind::Other, true),
            (r#""a\qb""#, Kind::Other, false),
            ("[1,{}]", Kind::Other, true),
            ("[1,}", Kind::Other, false),
            ("1e400", Kind::Other, true),
            ("1.", Kind::Other, false),
            ("--1", Kind::Other, false),
        ] {
            assert_eq!(passes(raw, kind), ok, "{raw}");
            assert_eq!(
                serde_json::from_str::<IgnoredAny>(&format!("{{\"k\":{raw}}}")).is_ok(),
                ok,
                "{raw}"
            );
        }
    }

    #[test]
    fn a_megabyte_of_brackets_is_walked_in_one_pass() {
        // Linear, and refused at the depth limit rather than recursing.
        let open = format!("{{\"a\":{}", "[".repeat(1 << 20));
        assert_eq!(walked(&open), None);
        let quotes = format!("{{\"a\":[{}]}}", "\"\",".repeat(1 << 18) + "1");
        assert!(walked(&quotes).is_some());
    }
}
