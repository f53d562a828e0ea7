//! The field types of a JSON paper object: each accepts any JSON value
//! and makes what it can of it (a year as a number or a string, authors as
//! a string, a list of strings or of objects, `null` anywhere), borrowing
//! from the input where it can.

use std::borrow::Cow;
use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use crate::corpus::NAME_SEP;
use crate::corpus::fields::{plausible_year, split_names, year_in};
use crate::corpus::fold::{control_bytes, equal_bytes, folded, one_plain_word, push_folded};
use crate::corpus::json_string::{Plain, plain_json_string};

/// A JSON number as the parser gave it.
#[derive(Clone, Copy)]
pub(super) enum Num {
    U(u64),
    I(i64),
    F(f64),
}

/// A field type that accepts any JSON value and makes what it can of it;
/// values of a kind it has no use for read as its default.
pub(super) trait Lenient<'a>: Default {
    fn from_text(text: Cow<'a, str>) -> Self {
        let _ = text;
        Self::default()
    }

    /// A string that had escapes, so it lives in the parser's scratch
    /// buffer only.
    fn from_transient(text: &str) -> Self {
        Self::from_text(Cow::Owned(text.to_owned()))
    }

    fn from_number(n: Num) -> Self {
        let _ = n;
        Self::default()
    }

    fn from_seq<'de: 'a, A: SeqAccess<'de>>(mut seq: A) -> Result<Self, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Self::default())
    }

    fn from_map<'de: 'a, A: MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Self::default())
    }
}

pub(super) struct LenientVisitor<T>(PhantomData<T>);

impl<'de: 'a, 'a, T: Lenient<'a>> Visitor<'de> for LenientVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<T, E> {
        Ok(T::default())
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<T, E> {
        Ok(T::from_number(Num::I(v)))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<T, E> {
        Ok(T::from_number(Num::U(v)))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<T, E> {
        Ok(T::from_number(Num::F(v)))
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<T, E> {
        Ok(T::from_text(Cow::Borrowed(v)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        Ok(T::from_transient(v))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<T, E> {
        Ok(T::from_text(Cow::Owned(v)))
    }

    fn visit_unit<E: de::Error>(self) -> Result<T, E> {
        Ok(T::default())
    }

    fn visit_none<E: de::Error>(self) -> Result<T, E> {
        Ok(T::default())
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        d.deserialize_any(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<T, A::Error> {
        T::from_seq(seq)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        T::from_map(map)
    }
}

macro_rules! deserialize_leniently {
    ($($ty:ident),*) => {$(
        impl<'de: 'a, 'a> Deserialize<'de> for $ty<'a> {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                d.deserialize_any(LenientVisitor(PhantomData))
            }
        }
    )*};
}

deserialize_leniently!(Text, JsonAuthors, AuthorName, Urls, ExternalIds, Strings);

/// A field that may be left in the file: a plain string (see
/// [`plain_json_string`]) as written, quotes and escapes included; any
/// other value as a [`Text`]. `WORDS`: whether to tell if its words can
/// be read as written too (see [`Plain`]), for papers whose abstracts
/// may be indexed; not for titles alone.
pub(super) enum MaybePlain<'a, const WORDS: bool = true> {
    Plain(Plain<'a>),
    Text(Text<'a>),
}

impl<const WORDS: bool> Default for MaybePlain<'_, WORDS> {
    fn default() -> Self {
        MaybePlain::Text(Text::Missing)
    }
}

impl<'de: 'a, 'a, const WORDS: bool> Deserialize<'de> for MaybePlain<'a, WORDS> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = <&'de serde_json::value::RawValue>::deserialize(d)?.get();
        MaybePlain::from_raw(raw).map_err(de::Error::custom)
    }
}

impl<'a, const WORDS: bool> MaybePlain<'a, WORDS> {
    /// The field of `raw`, a JSON value as written.
    pub(super) fn from_raw(raw: &'a str) -> serde_json::Result<Self> {
        let plain = match WORDS {
            true => Plain::of(raw),
            false => plain_json_string(raw).then_some(Plain {
                raw,
                written: false,
            }),
        };
        if let Some(plain) = plain {
            return Ok(MaybePlain::Plain(plain));
        }
        serde_json::from_str(raw).map(MaybePlain::Text)
    }
}

impl<'de> Deserialize<'de> for Year {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(LenientVisitor(PhantomData))
    }
}

/// An object key, borrowed from the input when it has no escapes.
pub(super) struct ObjectKey<'a>(pub(super) Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for ObjectKey<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct KeyVisitor<'a>(PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for KeyVisitor<'a> {
            type Value = ObjectKey<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<ObjectKey<'a>, E> {
                Ok(ObjectKey(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<ObjectKey<'a>, E> {
                Ok(ObjectKey(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<ObjectKey<'a>, E> {
                Ok(ObjectKey(Cow::Owned(v)))
            }
        }
        d.deserialize_str(KeyVisitor(PhantomData))
    }
}

/// A text field: a string, a number written as text, the first non-blank
/// text of a list (Crossref writes `"title": ["…"]`), or an object's
/// `name` (Semantic Scholar writes `"journal": {"name": "…"}`). Strings
/// without escapes stay borrowed until used; others are folded at once,
/// so each is copied only once.
#[derive(Default)]
pub(super) enum Text<'a> {
    #[default]
    Missing,
    Raw(&'a str),
    Folded(String),
}

impl<'a> Lenient<'a> for Text<'a> {
    fn from_text(text: Cow<'a, str>) -> Self {
        match text {
            Cow::Borrowed(s) => Text::Raw(s),
            Cow::Owned(s) => Text::from_transient(&s),
        }
    }

    /// Folded at once, but a blank line kept (an abstract's paragraphs:
    /// [`Text::into_paragraphs`]); [`Text::into_folded`] folds it away.
    fn from_transient(text: &str) -> Self {
        Text::Folded(crate::corpus::fold::folded_paragraphs(text).unwrap_or_default())
    }

    fn from_number(n: Num) -> Self {
        Text::Folded(match n {
            Num::U(v) => v.to_string(),
            Num::I(v) => v.to_string(),
            Num::F(v) => v.to_string(),
        })
    }

    fn from_seq<'de: 'a, A: SeqAccess<'de>>(mut seq: A) -> Result<Self, A::Error> {
        let mut found = Text::Missing;
        while let Some(t) = seq.next_element::<Text<'a>>()? {
            if found.is_blank() && !t.is_blank() {
                found = t;
            }
        }
        Ok(found)
    }

    fn from_map<'de: 'a, A: MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
        let mut found = Text::Missing;
        while let Some(ObjectKey(key)) = map.next_key::<ObjectKey<'a>>()? {
            if key == "name" && found.is_blank() {
                found = map.next_value::<Text<'a>>()?;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(found)
    }
}

impl Text<'_> {
    pub(super) fn is_blank(&self) -> bool {
        match self {
            Text::Missing => true,
            Text::Raw(s) => s.trim().is_empty(),
            Text::Folded(s) => s.is_empty(),
        }
    }

    /// The text with whitespace folded, `None` when blank.
    pub(super) fn into_folded(self) -> Option<String> {
        match self {
            Text::Missing => None,
            Text::Raw(s) => folded(s),
            Text::Folded(s) if s.contains('\n') => folded(&s),
            Text::Folded(s) => Some(s).filter(|s| !s.is_empty()),
        }
    }

    /// [`Text::into_folded`] for an abstract: its paragraphs kept apart.
    pub(super) fn into_paragraphs(self) -> Option<String> {
        match self {
            Text::Missing => None,
            Text::Raw(s) => crate::corpus::fold::folded_paragraphs(s),
            Text::Folded(s) => Some(s).filter(|s| !s.is_empty()),
        }
    }

    /// Appends the folded text to `out` (see [`push_folded`]).
    pub(super) fn push_to(&self, out: &mut String) {
        match self {
            Text::Missing => {}
            Text::Raw(s) => push_folded(out, s),
            Text::Folded(s) => push_folded(out, s),
        }
    }
}

/// The first of `texts` that is not blank, folded.
pub(super) fn first_text<'a, const N: usize>(texts: [Text<'a>; N]) -> Option<String> {
    texts.into_iter().find_map(Text::into_folded)
}

/// The first of `texts` that is not blank, folded as an abstract.
pub(super) fn first_abstract<'a, const N: usize>(texts: [Text<'a>; N]) -> Option<String> {
    texts.into_iter().find_map(Text::into_paragraphs)
}

/// A year: a number, the first four-digit run of a string, the first year
/// in a list, or an object's `date-parts` / `raw` / `literal` / `year` /
/// `created` / `date-time` / `date` (CSL-JSON dates, arXiv versions).
#[derive(Default, Clone, Copy)]
pub(super) struct Year(pub(super) Option<i32>);

impl<'a> Lenient<'a> for Year {
    fn from_text(text: Cow<'a, str>) -> Self {
        Year(year_in(&text))
    }

    fn from_transient(text: &str) -> Self {
        Year(year_in(text))
    }

    fn from_number(n: Num) -> Self {
        Year(match n {
            Num::U(v) => i64::try_from(v).ok().and_then(plausible_year),
            Num::I(v) => plausible_year(v),
            Num::F(v) if v.fract() == 0.0 && v.abs() < 1e6 => plausible_year(v as i64),
            Num::F(_) => None,
        })
    }

    fn from_seq<'de: 'a, A: SeqAccess<'de>>(mut seq: A) -> Result<Self, A::Error> {
        let mut found = None;
        while let Some(Year(y)) = seq.next_element::<Year>()? {
            found = found.or(y);
        }
        Ok(Year(found))
    }

    fn from_map<'de: 'a, A: MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
        let mut found = None;
        while let Some(ObjectKey(key)) = map.next_key::<ObjectKey<'a>>()? {
            if is_date_key(&key) {
                found = found.or(map.next_value::<Year>()?.0);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(Year(found))
    }
}

/// Whether an object's `key` holds its year ([`Year`]).
pub(super) fn is_date_key(key: &str) -> bool {
    matches!(
        key,
        "date-parts" | "raw" | "literal" | "year" | "created" | "date-time" | "date"
    )
}

/// Author names: one string of names (kept whole until needed, see
/// [`split_names`]), or a list of names, arXiv's parsed triples
/// `["Last", "First", "Jr"]`, or objects (see [`AuthorName`]). A list is
/// written straight into one string, the names joined as
/// [`Authors`](crate::corpus::Authors) keeps them: no string a name.
#[derive(Default)]
pub(super) enum JsonAuthors<'a> {
    #[default]
    None,
    Joined(Cow<'a, str>),
    List(String),
}

impl<'a> Lenient<'a> for JsonAuthors<'a> {
    fn from_text(text: Cow<'a, str>) -> Self {
        JsonAuthors::Joined(text)
    }

    fn from_seq<'de: 'a, A: SeqAccess<'de>>(mut seq: A) -> Result<Self, A::Error> {
        let (mut all, mut name) = NAMES.take();
        let mut shapes = Shapes::default();
        let mut result = Ok(());
        loop {
            match seq.next_element::<AuthorName<'a>>() {
                Ok(Some(author)) => author.push_to(&mut all, &mut name, &mut shapes),
                Ok(None) => break,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        shapes.finish(&mut all);
        // Made to size, once.
        let list = JsonAuthors::List(all.as_str().into());
        all.clear();
        NAMES.set((all, name));
        result.map(|()| list)
    }

    fn from_map<'de: 'a, A: MapAccess<'de>>(map: A) -> Result<Self, A::Error> {
        let (mut all, mut name) = (String::new(), String::new());
        let mut shapes = Shapes::default();
        AuthorName::from_map(map)?.push_to(&mut all, &mut name, &mut shapes);
        shapes.finish(&mut all);
        Ok(JsonAuthors::List(all))
    }
}

/// arXiv's `authors_parsed`: [`JsonAuthors`], read from the field as
/// written when it has the snapshot's shape, a list of lists of strings
/// without escapes (see [`name_lists`]); any other value is read as
/// [`JsonAuthors`] reads it, with the same result. The field as written
/// comes with it (its place tells a line's parse whether it is the one
/// read ahead of the parser: `parse_abstract_apart` in lines.rs).
#[derive(Default)]
pub(super) struct ParsedAuthors<'a>(pub(super) JsonAuthors<'a>, pub(super) &'a str);

impl<'de: 'a, 'a> Deserialize<'de> for ParsedAuthors<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = <&'de serde_json::value::RawValue>::deserialize(d)?.get();
        ParsedAuthors::from_raw(raw).map_err(de::Error::custom)
    }
}

impl<'a> ParsedAuthors<'a> {
    /// The field of `raw`, a JSON value as written.
    pub(super) fn from_raw(raw: &'a str) -> serde_json::Result<Self> {
        if let Some(names) = name_lists(raw) {
            return Ok(ParsedAuthors(names, raw));
        }
        serde_json::from_str(raw).map(|names| ParsedAuthors(names, raw))
    }
}

/// `raw`, a JSON value as written, read as [`JsonAuthors::from_seq`] reads
/// a list of lists of strings (`[["Last", "First", "Jr"], …]`): each
/// inner list an [`AuthorName`] of its strings. `None` when `raw` is not
/// such a list with every string free of escapes and control characters,
/// to be read by the parser. The arXiv snapshot's names are almost all so;
/// read by the parser, a string at a time, they had been an eighth of a
/// cold search's instructions.
fn name_lists(raw: &str) -> Option<JsonAuthors<'_>> {
    let (names, end) = name_lists_at(raw, 0)?;
    raw.as_bytes()[end..]
        .iter()
        .all(|c| matches!(c, b' ' | b'\n' | b'\t' | b'\r'))
        .then_some(names)
}

/// [`name_lists`] of the value that starts at `start` in `raw` (white
/// space before it passed over), with where it ends: for a value found in
/// its line ahead of the parser.
pub(super) fn name_lists_at(raw: &str, start: usize) -> Option<(JsonAuthors<'_>, usize)> {
    let b = raw.as_bytes();
    let mut i = start;
    // The byte after white space at `i`, past it.
    let next = |i: &mut usize| {
        while let Some(&c) = b.get(*i) {
            *i += 1;
            if c > b' ' || !matches!(c, b' ' | b'\n' | b'\t' | b'\r') {
                return c;
            }
        }
        0
    };
    if next(&mut i) != b'[' {
        return None;
    }
    let (mut all, mut name) = NAMES.take();
    let mut read = || -> Option<()> {
        let mut open = next(&mut i);
        if open == b']' {
            return Some(());
        }
        loop {
            if open != b'[' {
                return None;
            }
            // Most names are a compact triple, read at once.
            if let Some((spans, end)) = compact_triple(b, i - 1) {
                push_parts(&mut all, &mut name, spans.map(|(s, e)| &raw[s..e]));
                i = end;
                match next(&mut i) {
                    b',' => open = next(&mut i),
                    b']' => return Some(()),
                    _ => return None,
                }
                continue;
            }
            let mut parts = [""; 3];
            let mut k = 0;
            let mut quote = next(&mut i);
            // Strings, a comma between each two, until the list ends.
            while quote != b']' || k > 0 {
                if quote != b'"' {
                    return None;
                }
                let len = plain_string_len(b, i)?;
                if k < 3 {
                    parts[k] = &raw[i..i + len];
                }
                k += 1;
                i += len + 1;
                match next(&mut i) {
                    b',' => quote = next(&mut i),
                    b']' => break,
                    _ => return None,
                }
            }
            push_parts(&mut all, &mut name, parts);
            match next(&mut i) {
                b',' => open = next(&mut i),
                b']' => return Some(()),
                _ => return None,
            }
        }
    };
    let done = read().is_some();
    let names = done.then(|| (JsonAuthors::List(all.as_str().into()), i));
    all.clear();
    NAMES.set((all, name));
    names
}

/// The length of the JSON string whose text starts at `b[i]`, up to its
/// closing quote, if no escape or control character comes before it.
/// Sixteen bytes at a time ([`crate::simd::string_stops`]), then eight by
/// integer tests: a name or a key is a few bytes, but a byte at a time,
/// three tests each, it was nearly half of reading arXiv's author lists, and eight at a time
/// 7% of a cold search's instructions once every key and value of a line
/// was found so (see `members.rs`).
#[inline(always)]
pub(super) fn plain_string_len(b: &[u8], i: usize) -> Option<usize> {
    let mut k = i;
    while let Some(sixteen) = b.get(k..k + 16).and_then(|s| s.try_into().ok()) {
        let stops = crate::simd::string_stops(sixteen);
        if stops != 0 {
            let at = k + stops.trailing_zeros() as usize;
            return (b[at] == b'"').then_some(at - i);
        }
        k += 16;
    }
    while let Some(eight) = b.get(k..k + 8) {
        let w = u64::from_le_bytes(eight.try_into().unwrap_or_default());
        let stops = equal_bytes(w, b'"') | equal_bytes(w, b'\\') | control_bytes(w);
        if stops != 0 {
            let at = k + (stops.trailing_zeros() / 8) as usize;
            return (b[at] == b'"').then_some(at - i);
        }
        k += 8;
    }
    let at = k + b[k..]
        .iter()
        .position(|&c| c == b'"' || c == b'\\' || c < 0x20)?;
    (b[at] == b'"').then_some(at - i)
}

/// The three strings' spans (their text) of the compact arXiv triple
/// `["Last","First","Suffix"]` whose `[` is `b[i]`, and where it ends
/// (past its `]`), when it is one: no white space, and no escape, control
/// character or byte past ASCII, within 32 bytes. Two 16-byte loads find
/// every quote of it at once (a string at a time, each string's end
/// waited on the one before).
fn compact_triple(b: &[u8], i: usize) -> Option<([(usize, usize); 3], usize)> {
    let w: &[u8; 32] = b.get(i..i + 32)?.try_into().ok()?;
    if w[0] != b'[' || w[1] != b'"' {
        return None;
    }
    let (quotes, stops) = crate::simd::quotes_and_stops(w);
    // The quotes after the first: the three strings' ends and, between
    // them, the next ones' starts.
    let mut q = quotes & !0b11;
    let mut take = || {
        let k = q.trailing_zeros() as usize;
        q &= q.wrapping_sub(1);
        k
    };
    let (end1, open2, end2, open3, end3) = (take(), take(), take(), take(), take());
    // Where quotes ran out, `take` gives 32.
    if end3 >= 31
        || open2 != end1 + 2
        || open3 != end2 + 2
        || w[end1 + 1] != b','
        || w[end2 + 1] != b','
        || w[end3 + 1] != b']'
        || stops & ((1 << end3) - 1) != 0
    {
        return None;
    }
    let spans = [(2, end1), (open2 + 1, end2), (open3 + 1, end3)].map(|(s, e)| (i + s, i + e));
    Some((spans, i + end3 + 2))
}

/// Appends an arXiv triple's name (`[last, given, suffix]`) to `all` as
/// [`AuthorName::push_to`] does: parts that are one word each of printable
/// ASCII (nearly all) are written straight in.
fn push_parts(all: &mut String, name: &mut String, [last, given, suffix]: [&str; 3]) {
    if ![given, last, suffix].into_iter().all(one_plain_word) {
        let [given, last, suffix] = [given, last, suffix].map(Text::Raw);
        // A triple's parts are not kept (see `AuthorName::push_to`).
        return AuthorName([given, Text::Missing, last, suffix], Parts::Unknown).push_to(
            all,
            name,
            &mut Shapes::default(),
        );
    }
    let mut first = true;
    for part in [given, last, suffix] {
        if part.is_empty() {
            continue;
        }
        if !first {
            all.push(' ');
        } else if !all.is_empty() {
            all.push(NAME_SEP);
        }
        first = false;
        all.push_str(part);
    }
}

thread_local! {
    /// Room to write a list of names and one name in, kept between papers
    /// so that a list is written without growing a string name by name.
    static NAMES: std::cell::Cell<(String, String)> = const {
        std::cell::Cell::new((String::new(), String::new()))
    };
}

impl JsonAuthors<'_> {
    pub(super) fn into_authors(self) -> crate::corpus::Authors {
        match self {
            JsonAuthors::None => crate::corpus::Authors::default(),
            JsonAuthors::Joined(s) => crate::corpus::Authors::from_written(split_names(&s)),
            JsonAuthors::List(all) => crate::corpus::Authors::from_joined(all),
        }
    }
}

/// One author: a string, an arXiv triple `["Last", "First", "Jr", …]`
/// (later items, affiliations, are dropped), or an object with `name` /
/// `literal` / `display_name` / `fullName` or `given` + `family` /
/// `firstName` + `lastName` (CSL's particles and suffix too). Its parts in
/// the order they are shown (given, particle, family, suffix), and
/// whether they are known as such.
#[derive(Default)]
pub(super) struct AuthorName<'a>([Text<'a>; 4], Parts);

/// What an [`AuthorName`]'s parts are known as.
#[derive(Default, Clone, Copy, PartialEq, Eq)]
pub(super) enum Parts {
    /// Not told apart: a string, or an arXiv triple (whose parts are
    /// told from its words when asked, which keeps the snapshot's names,
    /// a fifth of its papers' bytes in memory, without a shape each).
    #[default]
    Unknown,
    /// An object's given and family names.
    Known,
    /// CSL's `literal`: an organisation.
    Literal,
}

/// The shapes of a list's names as [`crate::corpus::Authors`] keeps
/// them, begun at the first name whose parts are known.
#[derive(Default)]
pub(super) struct Shapes {
    bytes: Vec<u8>,
    names: usize,
    known: bool,
}

impl Shapes {
    fn push(&mut self, shape: Option<[u8; 3]>) {
        match shape {
            Some(s) => {
                if !self.known {
                    self.bytes.extend(std::iter::repeat_n(b'!', 3 * self.names));
                    self.known = true;
                }
                self.bytes.extend_from_slice(&s);
            }
            None if self.known => self.bytes.extend_from_slice(b"!!!"),
            None => {}
        }
        self.names += 1;
    }

    /// Appends the shapes to the names, when any is known.
    fn finish(self, all: &mut String) {
        if self.known {
            all.push(crate::corpus::SHAPE_SEP);
            all.push_str(std::str::from_utf8(&self.bytes).unwrap_or(""));
        }
    }
}

impl AuthorName<'_> {
    /// Appends the name (the parts' folded words joined by spaces) to the
    /// names in `all`, unless it is blank, and its shape to `shapes`;
    /// `name` is room to write it in.
    pub(super) fn push_to(&self, all: &mut String, name: &mut String, shapes: &mut Shapes) {
        name.clear();
        let mut words = [0usize; 4];
        for (part, count) in self.0.iter().zip(&mut words) {
            let before = name.len();
            part.push_to(name);
            // Counted only where kept.
            if self.1 != Parts::Unknown {
                *count = name[before..].split(' ').filter(|w| !w.is_empty()).count();
            }
        }
        if name.is_empty() {
            return;
        }
        // A name written whole, family name first (`Smith, Jane`): read
        // into its parts and shown given name first, as every format's.
        // Only a name given whole as one string: an arXiv triple's parts
        // are already apart.
        let whole = matches!(self.0[1..], [Text::Missing, Text::Missing, Text::Missing]);
        let mut written = None;
        if self.1 == Parts::Unknown && whole && name.contains(',') {
            let parts = crate::corpus::fields::Name::text(name);
            let shown = parts.display();
            if !shown.is_empty() {
                *name = shown;
                written = Some(crate::corpus::paper::shape_of(&parts));
            }
        }
        if !all.is_empty() {
            all.push(NAME_SEP);
        }
        // A control byte is rare in a name: only then is one of the
        // separators looked for.
        let clean =
            !name.bytes().any(|b| b < 0x20) || !name.contains([NAME_SEP, crate::corpus::SHAPE_SEP]);
        if clean {
            all.push_str(name);
        } else {
            all.push_str(&name.replace([NAME_SEP, crate::corpus::SHAPE_SEP], " "));
        }
        let [g, p, f, _] = words;
        let shape = match self.1 {
            Parts::Unknown => written,
            _ if !clean => Some(*b"!!!"),
            Parts::Literal => Some(*b"~~~"),
            Parts::Known if f > 0 && g.max(p).max(f) <= 40 => {
                Some([b'0' + g as u8, b'0' + p as u8, b'0' + f as u8])
            }
            Parts::Known => Some(*b"!!!"),
        };
        shapes.push(shape);
    }
}

impl<'a> Lenient<'a> for AuthorName<'a> {
    fn from_text(text: Cow<'a, str>) -> Self {
        let m = || Text::Missing;
        AuthorName([Text::from_text(text), m(), m(), m()], Parts::Unknown)
    }

    fn from_transient(text: &str) -> Self {
        let m = || Text::Missing;
        AuthorName([Text::from_transient(text), m(), m(), m()], Parts::Unknown)
    }

    fn from_seq<'de: 'a, A: SeqAccess<'de>>(mut seq: A) -> Result<Self, A::Error> {
        let [mut last, mut first, mut suffix] = [Text::Missing, Text::Missing, Text::Missing];
        let mut i = 0;
        while let Some(t) = seq.next_element::<Text<'a>>()? {
            match i {
                0 => last = t,
                1 => first = t,
                2 => suffix = t,
                _ => {}
            }
            i += 1;
        }
        Ok(AuthorName(
            [first, Text::Missing, last, suffix],
            Parts::Unknown,
        ))
    }

    fn from_map<'de: 'a, A: MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
        let [mut whole, mut literal, mut given, mut family] =
            [Text::Missing, Text::Missing, Text::Missing, Text::Missing];
        let [mut particle, mut dropping, mut suffix] =
            [Text::Missing, Text::Missing, Text::Missing];
        while let Some(ObjectKey(key)) = map.next_key::<ObjectKey<'a>>()? {
            let slot = match &*key {
                "name" | "display_name" | "full_name" | "fullName" => &mut whole,
                "literal" => &mut literal,
                "given" | "firstName" | "first_name" => &mut given,
                "family" | "lastName" | "last_name" => &mut family,
                "non-dropping-particle" => &mut particle,
                "dropping-particle" => &mut dropping,
                "suffix" => &mut suffix,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                    continue;
                }
            };
            let text = map.next_value::<Text<'a>>()?;
            if slot.is_blank() {
                *slot = text;
            }
        }
        let m = || Text::Missing;
        Ok(if !literal.is_blank() {
            AuthorName([literal, m(), m(), m()], Parts::Literal)
        } else if !whole.is_blank() {
            AuthorName([whole, m(), m(), m()], Parts::Unknown)
        } else {
            // CSL: `Ludwig van Beethoven` is given, the dropping particle
            // `van` or the non-dropping one, and the family name.
            let particle = if particle.is_blank() {
                dropping
            } else {
                particle
            };
            AuthorName([given, particle, family, suffix], Parts::Known)
        })
    }
}

/// URLs: a string, a list, or objects' `url` / `URL` / `href` / `oa_url`
/// (OpenAlex's `open_access`, Semantic Scholar's `openAccessPdf`).
#[derive(Default)]
pub(super) struct Urls<'a>(pub(super) Vec<Cow<'a, str>>);

impl<'a> Lenient<'a> for Urls<'a> {
    fn from_text(text: Cow<'a, str>) -> Self {
        Urls(vec![text])
    }

    fn from_seq<'de: 'a, A: SeqAccess<'de>>(mut seq: A) -> Result<Self, A::Error> {
        let mut all = Vec::new();
        while let Some(Urls(u)) = seq.next_element::<Urls<'a>>()? {
            all.extend(u);
        }
        Ok(Urls(all))
    }

    fn from_map<'de: 'a, A: MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
        let mut all = Vec::new();
        while let Some(ObjectKey(key)) = map.next_key::<ObjectKey<'a>>()? {
            if matches!(&*key, "url" | "URL" | "href" | "oa_url") {
                all.extend(map.next_value::<Urls<'a>>()?.0);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(Urls(all))
    }
}

/// A list of short strings (keywords): a list of strings (lists in it
/// flattened), or one string of them separated by `;` or `,`.
#[derive(Default)]
pub(super) struct Strings<'a>(Vec<Cow<'a, str>>, bool);

impl<'a> Lenient<'a> for Strings<'a> {
    fn from_text(text: Cow<'a, str>) -> Self {
        Strings(vec![text], true)
    }

    fn from_seq<'de: 'a, A: SeqAccess<'de>>(mut seq: A) -> Result<Self, A::Error> {
        let mut all = Vec::new();
        while let Some(Strings(s, _)) = seq.next_element::<Strings<'a>>()? {
            all.extend(s);
        }
        Ok(Strings(all, false))
    }
}

impl Strings<'_> {
    /// True when no string was given.
    pub(super) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The strings, whitespace folded, blank ones left out; one string
    /// given alone split at `;` (else `,`).
    pub(super) fn split(self) -> Vec<String> {
        let Strings(all, alone) = self;
        let mut out = Vec::new();
        for s in &all {
            let sep = if !alone {
                None
            } else if s.contains(';') {
                Some(';')
            } else {
                Some(',')
            };
            match sep {
                Some(sep) => out.extend(s.split(sep).filter_map(folded)),
                None => out.extend(folded(s)),
            }
        }
        out
    }
}

/// Codes that hold no space (arXiv's categories): a list of strings, or
/// one string of them separated by whitespace, `;` or `,` (the arXiv
/// snapshot writes `"cs.LG stat.ML"`); each read once, into its own
/// string.
#[derive(Default)]
pub(super) struct Codes(pub(super) Vec<String>);

impl Codes {
    fn add(&mut self, text: &str) {
        let codes = || {
            text.split(|c: char| c.is_whitespace() || c == ';' || c == ',')
                .filter(|c| !c.is_empty())
        };
        // Room for these alone: a paper keeps its list as long as it is
        // held (a million arXiv papers' categories).
        self.0.reserve_exact(codes().count());
        self.0.extend(codes().map(str::to_string));
    }
}

impl<'de> Deserialize<'de> for Codes {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(LenientVisitor(PhantomData))
    }
}

impl<'a> Lenient<'a> for Codes {
    fn from_text(text: Cow<'a, str>) -> Self {
        let mut codes = Codes::default();
        codes.add(&text);
        codes
    }

    fn from_transient(text: &str) -> Self {
        let mut codes = Codes::default();
        codes.add(text);
        codes
    }

    fn from_seq<'de: 'a, A: SeqAccess<'de>>(mut seq: A) -> Result<Self, A::Error> {
        let mut all = Codes::default();
        while let Some(Codes(c)) = seq.next_element::<Codes>()? {
            all.0.extend(c);
        }
        Ok(all)
    }
}

/// Semantic Scholar's `externalIds`: `ArXiv` and `DOI`.
#[derive(Default)]
pub(super) struct ExternalIds<'a> {
    pub(super) arxiv: Text<'a>,
    pub(super) doi: Text<'a>,
}

impl<'a> Lenient<'a> for ExternalIds<'a> {
    fn from_map<'de: 'a, A: MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
        let mut ids = ExternalIds::default();
        while let Some(ObjectKey(key)) = map.next_key::<ObjectKey<'a>>()? {
            match &*key {
                "ArXiv" | "arXiv" | "arxiv" => ids.arxiv = map.next_value()?,
                "DOI" | "doi" => ids.doi = map.next_value()?,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(ids)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// A JSON value for an author list: mostly lists of strings (arXiv's
    /// triples), and now and then what the fast reading leaves to the
    /// parser (a name alone, `null`, a number, an object).
    fn value() -> impl Strategy<Value = serde_json::Value> {
        use serde_json::Value;
        let part = prop_oneof![
            8 => "[A-Za-z.\\- ]{0,10}".prop_map(Value::from),
            1 => "[ -~\u{e9}\t\n\"\\\\]{0,8}".prop_map(Value::from),
            1 => Just(Value::Null),
            1 => (0..3000i64).prop_map(Value::from),
        ];
        let name = prop_oneof![
            8 => proptest::collection::vec(part, 0..5).prop_map(Value::from),
            1 => "[A-Za-z ]{0,12}".prop_map(Value::from),
            1 => Just(serde_json::json!({"given": "Ada", "family": "Lovelace"})),
        ];
        prop_oneof![
            8 => proptest::collection::vec(name, 0..6).prop_map(Value::from),
            1 => "[A-Za-z ,]{0,20}".prop_map(Value::from),
            1 => Just(Value::Null),
        ]
    }

    /// The value as a file may write it: compact, or with white space
    /// between its tokens.
    fn written(v: &serde_json::Value, spaced: bool) -> String {
        match spaced {
            true => serde_json::to_string_pretty(v).unwrap(),
            false => serde_json::to_string(v).unwrap(),
        }
    }

    proptest! {
        /// `authors_parsed` read as written gives the names the parser
        /// gives, whatever its value.
        #[test]
        fn parsed_authors_read_as_written_are_the_parsers(
            v in value(),
            spaced in any::<bool>(),
        ) {
            let raw = written(&v, spaced);
            let fast: ParsedAuthors = serde_json::from_str(&raw).unwrap();
            let slow: JsonAuthors = serde_json::from_str(&raw).unwrap();
            prop_assert_eq!(fast.0.into_authors(), slow.into_authors(), "{}", raw);
        }
    }

    proptest! {
        /// Where a string's text ends, found eight bytes at a time, is
        /// where a byte at a time finds it: its closing quote, unless an
        /// escape or a control character comes first.
        #[test]
        fn a_plain_string_ends_where_a_byte_at_a_time_says(
            text in proptest::collection::vec(
                prop_oneof![
                    6 => 0x20u8..0x7f,
                    1 => Just(b'"'),
                    1 => Just(b'\\'),
                    1 => 0u8..0x20,
                    1 => 0x80u8..=0xff,
                ],
                0..40,
            ),
            start in 0usize..40,
        ) {
            let i = start.min(text.len());
            let slow = text[i..]
                .iter()
                .position(|&c| c == b'"' || c == b'\\' || c < 0x20)
                .filter(|&k| text[i + k] == b'"');
            prop_assert_eq!(plain_string_len(&text, i), slow, "{:?} from {}", text, i);
        }
    }

    #[test]
    fn only_a_compact_triple_of_plain_ascii_within_32_bytes_is_read_at_once() {
        let at_once = |t: &str| {
            let padded = format!("{t}{}", " ".repeat(40));
            compact_triple(padded.as_bytes(), 0).map(|(spans, end)| {
                let parts = spans.map(|(s, e)| padded[s..e].to_string());
                (parts, end)
            })
        };
        let strings = |v: [&str; 3]| v.map(String::from);
        assert_eq!(
            at_once(r#"["Rossi","Marta",""],"#),
            Some((strings(["Rossi", "Marta", ""]), 20))
        );
        // Its `]` the 32nd byte, then one past it.
        let full = r#"["Abcdefghijk","Mnopqrstu","Vw"]"#;
        assert_eq!(full.len(), 32);
        assert_eq!(
            at_once(full),
            Some((strings(["Abcdefghijk", "Mnopqrstu", "Vw"]), 32))
        );
        for t in [
            r#"["Abcdefghijkl","Mnopqrstu","Vw"]"#,
            r#"["Rossi","Marta"]"#,
            r#"["Rossi","Marta","","x"]"#,
            r#"["Rossi", "Marta",""]"#,
            r#"["Ro"ssi","Marta",""]"#,
            r#"["Müller","Jan",""]"#,
            "[\"Ro\tssi\",\"Marta\",\"\"]",
            r#"[["Rossi","Marta",""]]"#,
        ] {
            assert_eq!(at_once(t), None, "{t}");
        }
        // Short of 32 bytes left: read as before, a string at a time.
        assert_eq!(compact_triple(br#"["Rossi","Marta",""]"#, 0), None);
    }

    #[test]
    fn every_byte_at_every_place_in_eight_or_sixteen_ends_a_plain_string_or_not_as_it_should() {
        for c in 0..=255u8 {
            for at in 0..41 {
                let mut text = vec![b'a'; 41];
                text[at] = c;
                text.push(b'"');
                let stops = c == b'"' || c == b'\\' || c < 0x20;
                let want = match stops {
                    true => (c == b'"').then_some(at),
                    false => Some(41),
                };
                assert_eq!(plain_string_len(&text, 0), want, "{c:#x} at {at}");
            }
        }
    }

    #[test]
    fn arxiv_triples_are_read_as_written_and_anything_else_by_the_parser() {
        let names = |raw: &str| name_lists(raw).map(JsonAuthors::into_authors);
        assert_eq!(
            names(r#"[["Rossi","Marta",""], ["van der Berg", "Anna", "Jr."]]"#).unwrap(),
            ["Marta Rossi", "Anna van der Berg Jr."]
        );
        assert_eq!(names("[]").unwrap(), Vec::<String>::new());
        assert_eq!(names("[[], [\"Kim\"]]").unwrap(), ["Kim"]);
        // Left to the parser: escapes, other values, a trailing comma,
        // what follows the list.
        for raw in [
            r#"[["M\u00fcller","Jan",""]]"#,
            r#"[["Kim",null]]"#,
            r#"["Kim"]"#,
            r#"[["Kim",],]"#,
            r#"[["Kim"],]"#,
            r#"[["Kim"]] x"#,
            r#"[["Kim""#,
            "{}",
        ] {
            assert!(name_lists(raw).is_none(), "{raw}");
        }
    }
}
