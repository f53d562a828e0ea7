//! Field atoms in a query (`author:hinton`, `year:2019..2021`, `!venue:icml`)
//! and the folding that makes words compare: case and accents folded, so
//! that `schütze` finds Schütze and `hernandez` finds Hernández.

use std::borrow::Cow;
use std::fmt;

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

use crate::text::wrap::stands_alone;

/// A field a query atom can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// `title:` the usual atom rules, on the title only.
    Title,
    /// `abs:` (or `abstract:`) words of the abstract.
    Abstract,
    /// `author:` (or `authors:`) a word of an author's name starts with it.
    Author,
    /// `venue:` a word of the venue starts with it.
    Venue,
    /// `year:2019`, `year:2019..2021`, `year:2023..`, `year:..2010`.
    Year,
    /// `id:` the paper's id (or the id without its `arxiv:`/`doi:`
    /// prefix) starts with it.
    Id,
    /// `tag:` a tag of the paper starts with it.
    Tag,
    /// `note:` a word of the paper's note starts with it.
    Note,
    /// `topic:3` the papers of topic 3 of the list (`paperboat topics`).
    Topic,
    /// `kw:` (or `keyword:`) a word of the paper's keywords starts with it.
    Keyword,
    /// `cat:` (or `category:`) an arXiv category of the paper starts with
    /// it: `cat:cs.LG`, `cat:cs` (the archive), `cat:'cs.L` (whole: none).
    Category,
}

/// The names a field atom can use, as the help and errors list them.
pub const FIELD_NAMES: &str = "title, abs, author, venue, year, id, tag, note, topic, kw, cat";

impl Field {
    fn named(name: &str) -> Option<Field> {
        Some(match name.to_ascii_lowercase().as_str() {
            "title" | "t" => Field::Title,
            "abs" | "abstract" => Field::Abstract,
            "author" | "authors" | "au" => Field::Author,
            "venue" | "journal" => Field::Venue,
            "year" | "y" => Field::Year,
            "id" => Field::Id,
            "tag" | "tags" => Field::Tag,
            "topic" => Field::Topic,
            "note" | "notes" => Field::Note,
            "kw" | "keyword" | "keywords" => Field::Keyword,
            "cat" | "category" | "categories" => Field::Category,
            _ => return None,
        })
    }
}

/// Why a query cannot be run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QueryError {
    /// `name:` names no field.
    UnknownField(String),
    /// `year:` with something that is not a year or a range of years.
    BadYears(String),
    /// `topic:` with something that is not a topic's number.
    BadTopic(String),
}

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QueryError::UnknownField(name) => write!(
                f,
                "unknown field {name:?} in the query (fields: {FIELD_NAMES}; \
                 to search for a word with a colon, start it with ')"
            ),
            QueryError::BadYears(v) => write!(
                f,
                "year:{v} is not a year or a range (year:2019, year:2019..2021, \
                 year:2023.., year:..2010)"
            ),
            QueryError::BadTopic(v) => write!(
                f,
                "topic:{v} is not a topic's number (topic:1 is the largest; `paperboat topics` \
                 lists them)"
            ),
        }
    }
}

impl std::error::Error for QueryError {}

/// How a field atom's text is matched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FieldValue {
    /// Words (folded) each of which must start a word of the field; whole
    /// words only when `whole` (`author:'li`).
    Words { words: Vec<String>, whole: bool },
    /// Years, both ends included.
    Years(i32, i32),
    /// A topic's number (from 1).
    Topic(u32),
    /// Nothing typed after the colon yet: matches every paper.
    Anything,
}

/// A field atom: `[!]name:value`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldAtom {
    pub field: Field,
    pub negative: bool,
    /// For [`Field::Title`], the atom as written after the colon (with
    /// its `'`, `^`, `$`), matched as a title word; otherwise unused.
    pub raw: String,
    pub value: FieldValue,
}

/// Reads `word` (one query word, escapes kept) as a field atom: `None`
/// when it is not one (no `name:` at its start, after an optional `!`),
/// an error when the name is no field or the value cannot be read.
pub fn parse_field(word: &str) -> Option<Result<FieldAtom, QueryError>> {
    let (negative, rest) = match word.strip_prefix('!') {
        Some(r) => (true, r),
        None => (false, word),
    };
    let colon = rest.find(':')?;
    let name = &rest[..colon];
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphabetic()) {
        return None;
    }
    let Some(field) = Field::named(name) else {
        return Some(Err(QueryError::UnknownField(format!("{name}:"))));
    };
    let raw = rest[colon + 1..].replace("\\ ", " ");
    let value = match field {
        _ if raw.is_empty() || raw == "'" => FieldValue::Anything,
        Field::Year => match parse_years(&raw) {
            Some((lo, hi)) => FieldValue::Years(lo, hi),
            None => return Some(Err(QueryError::BadYears(raw))),
        },
        Field::Topic => match raw.parse::<u32>() {
            Ok(t) if t >= 1 && raw.bytes().all(|b| b.is_ascii_digit()) => FieldValue::Topic(t),
            _ => return Some(Err(QueryError::BadTopic(raw))),
        },
        Field::Id => FieldValue::Words {
            words: vec![raw.trim_start_matches('\'').to_lowercase()],
            whole: false,
        },
        // A category is one term: its dot and dash are its own.
        Field::Category => FieldValue::Words {
            words: vec![fold(raw.trim_start_matches('\'')).into_owned()],
            whole: raw.starts_with('\''),
        },
        _ => {
            let (whole, text) = match raw.strip_prefix('\'') {
                Some(t) => (true, t),
                None => (false, raw.trim_start_matches('^').trim_end_matches('$')),
            };
            let mut words = Vec::new();
            let mut buf = String::new();
            for_each_folded(text, &mut buf, |w| words.push(w.to_string()));
            if words.is_empty() {
                FieldValue::Anything
            } else {
                FieldValue::Words { words, whole }
            }
        }
    };
    Some(Ok(FieldAtom {
        field,
        negative,
        raw,
        value,
    }))
}

/// `2019`, `2019..2021`, `2023..`, `..2010` (also with `-` for `..`
/// between two years).
fn parse_years(v: &str) -> Option<(i32, i32)> {
    let year = |s: &str| -> Option<i32> {
        (!s.is_empty() && s.len() <= 4 && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse().ok())
            .flatten()
    };
    if let Some((a, b)) = v.split_once("..") {
        let lo = if a.is_empty() { i32::MIN } else { year(a)? };
        let hi = if b.is_empty() { i32::MAX } else { year(b)? };
        return (lo <= hi && !(a.is_empty() && b.is_empty())).then_some((lo, hi));
    }
    if let Some((a, b)) = v.split_once('-') {
        let (lo, hi) = (year(a)?, year(b)?);
        return (lo <= hi).then_some((lo, hi));
    }
    let y = year(v)?;
    Some((y, y))
}

/// A letter as a word compares: lower case, accents dropped, the Latin
/// letters that do not decompose spelt as they are typed.
fn fold_char(c: char, out: &mut String) {
    for l in c.to_lowercase() {
        match l {
            'ø' => out.push('o'),
            'ł' => out.push('l'),
            'đ' | 'ð' => out.push('d'),
            'æ' => out.push_str("ae"),
            'œ' => out.push_str("oe"),
            'ß' => out.push_str("ss"),
            'þ' => out.push_str("th"),
            'ı' => out.push('i'),
            l if l.is_ascii() => out.push(l),
            l => out.extend(l.to_string().nfd().filter(|&d| !is_combining_mark(d))),
        }
    }
}

/// `word` folded: lower case, accents dropped. Borrowed when it already is.
pub fn fold(word: &str) -> Cow<'_, str> {
    if word
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    {
        return Cow::Borrowed(word);
    }
    if word.is_ascii() {
        return Cow::Owned(word.to_ascii_lowercase());
    }
    let mut out = String::with_capacity(word.len());
    word.chars().for_each(|c| fold_char(c, &mut out));
    Cow::Owned(out)
}

/// Calls `f` with each word of `text` folded ([`fold`]); `buf` holds the
/// words that had to change. Words are runs of letters and digits; CJK
/// characters are each a word.
pub fn for_each_folded(text: &str, buf: &mut String, mut f: impl FnMut(&str)) {
    for_each_word(text, |w| f(fold_into(w, buf)));
}

/// `word` folded ([`fold`]): itself when folding leaves it as it is, else
/// written into `buf` (no allocation a word).
pub fn fold_into<'a>(word: &'a str, buf: &'a mut String) -> &'a str {
    let b = word.as_bytes();
    if b.iter()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
    {
        return word;
    }
    buf.clear();
    if word.is_ascii() {
        buf.push_str(word);
        buf.make_ascii_lowercase();
    } else {
        word.chars().for_each(|c| fold_char(c, buf));
    }
    buf
}

/// Calls `f` with each word of `text` as written, the words
/// [`word_spans`](super::masks::word_spans) gives: runs of letters and
/// digits, a CJK character a word by itself. ASCII is read a byte at a
/// time (most of an abstract), other characters decoded one by one: the
/// word index reads every word of every abstract through here.
pub fn for_each_word(text: &str, mut f: impl FnMut(&str)) {
    let bytes = text.as_bytes();
    // The character at `i` (a boundary), and its length.
    let char_at = |i: usize| {
        let c = text[i..]
            .chars()
            .next()
            .unwrap_or(char::REPLACEMENT_CHARACTER);
        (c, c.len_utf8())
    };
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii() {
            if !b.is_ascii_alphanumeric() {
                i += 1;
                continue;
            }
        } else {
            let (c, len) = char_at(i);
            if stands_alone(c) {
                f(&text[i..i + len]);
                i += len;
                continue;
            }
            if !c.is_alphanumeric() {
                i += len;
                continue;
            }
        }
        let start = i;
        while i < bytes.len() {
            let b = bytes[i];
            if b.is_ascii() {
                if !b.is_ascii_alphanumeric() {
                    break;
                }
                i += 1;
            } else {
                let (c, len) = char_at(i);
                if !c.is_alphanumeric() || stands_alone(c) {
                    break;
                }
                i += len;
            }
        }
        f(&text[start..i]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn atom(w: &str) -> FieldAtom {
        parse_field(w).unwrap().unwrap()
    }

    #[test]
    fn names_values_and_negation() {
        let a = atom("author:Schütze");
        assert_eq!(a.field, Field::Author);
        assert!(!a.negative);
        assert_eq!(
            a.value,
            FieldValue::Words {
                words: vec!["schutze".into()],
                whole: false
            }
        );
        let a = atom("!author:samy");
        assert!(a.negative);
        assert_eq!(
            atom("abs:'graph").value,
            FieldValue::Words {
                words: vec!["graph".into()],
                whole: true
            }
        );
        assert_eq!(atom("venue:").value, FieldValue::Anything);
        assert_eq!(atom("title:^sparse").raw, "^sparse");
        assert_eq!(
            atom("id:arXiv:2101.0").value,
            FieldValue::Words {
                words: vec!["arxiv:2101.0".into()],
                whole: false
            }
        );
    }

    #[test]
    fn words_that_are_not_field_atoms() {
        for w in ["sparse", "'re:invent", "10:30", "a-b:c", ":x", "!x"] {
            assert!(parse_field(w).is_none(), "{w}");
        }
    }

    #[test]
    fn unknown_fields_and_bad_years_are_errors_naming_them() {
        let e = parse_field("foo:bar").unwrap().unwrap_err();
        assert_eq!(e, QueryError::UnknownField("foo:".into()));
        assert!(e.to_string().contains("\"foo:\""), "{e}");
        let e = parse_field("year:20x9").unwrap().unwrap_err();
        assert!(e.to_string().contains("year:20x9"), "{e}");
        assert!(parse_field("year:2021..2019").unwrap().is_err());
        assert!(parse_field("year:..").unwrap().is_err());
    }

    #[test]
    fn year_ranges() {
        let y = |v: &str| match atom(&format!("year:{v}")).value {
            FieldValue::Years(a, b) => (a, b),
            other => panic!("{other:?}"),
        };
        assert_eq!(y("2019"), (2019, 2019));
        assert_eq!(y("2019..2021"), (2019, 2021));
        assert_eq!(y("2019-2021"), (2019, 2021));
        assert_eq!(y("2023.."), (2023, i32::MAX));
        assert_eq!(y("..2010"), (i32::MIN, 2010));
    }

    proptest::proptest! {
        #[test]
        fn words_are_the_spans_words_are(text in "[a-zA-Z0-9 ,.'éÉøß²论文\u{0301}\u{1F600}-]{0,40}") {
            let mut got = Vec::new();
            for_each_word(&text, |w| got.push(w.to_string()));
            let want: Vec<String> = super::super::masks::word_spans(&text).map(String::from).collect();
            proptest::prop_assert_eq!(&got, &want);
            let mut folded = Vec::new();
            for_each_folded(&text, &mut String::new(), |w| folded.push(w.to_string()));
            let want: Vec<String> = want.iter().map(|w| fold(w).into_owned()).collect();
            proptest::prop_assert_eq!(folded, want);
        }
    }

    #[test]
    fn folding_drops_case_and_accents() {
        assert_eq!(fold("Hernández"), "hernandez");
        assert_eq!(fold("SCHÜTZE"), "schutze");
        assert_eq!(fold("Søren"), "soren");
        assert_eq!(fold("Łukasz"), "lukasz");
        assert_eq!(fold("straße"), "strasse");
        assert!(matches!(fold("plain42"), Cow::Borrowed(_)));
        let mut got = Vec::new();
        let mut buf = String::new();
        for_each_folded("Hernández-Orallo, J. 论文", &mut buf, |w| {
            got.push(w.to_string())
        });
        assert_eq!(got, ["hernandez", "orallo", "j", "论", "文"]);
    }
}
