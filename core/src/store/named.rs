//! Things kept by name and merged name by name: a paper's tags and the
//! saved searches. Names keep the case they were written in and compare
//! without it; each name holds its newest version, and a removal is a
//! newer version (a tombstone), never a deletion, so that it survives a
//! merge with a copy that still has the name.

use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{DeserializeOwned, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::stamp::{Mark, Stamp};

/// Most characters in a tag, a saved search's name or its scope.
pub const NAME_MAX_CHARS: usize = 64;
/// Most bytes in a saved search's query.
pub const QUERY_MAX_BYTES: usize = 4096;

/// How a name shows in a message: quoted, escaped, at most 40 characters.
pub(super) fn shown(s: &str) -> String {
    let mut short: String = s.chars().take(40).collect();
    if short.len() < s.len() {
        short.push('…');
    }
    format!("{short:?}")
}

/// Characters a name or a query may not hold: controls (line breaks
/// among them), line and paragraph separators, and the invisible and
/// direction-changing characters the text module removes from corpus text
/// (the same list; the store sits beside that module, not above it).
fn unfit(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{200B}'..='\u{200F}'
            | '\u{2028}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{2069}'
            | '\u{061C}'
            | '\u{FEFF}'
            | '\u{00AD}'
        )
}

/// `text` as a name or a query is kept when read from the file (which
/// may have been edited by hand): the characters [`unfit`] to be kept
/// removed, trimmed. What a command prints or exports of it is then as
/// clean as what was typed.
pub(super) fn clean_line(text: &str) -> String {
    if !text.contains(unfit) {
        return text.trim().to_string();
    }
    text.chars()
        .filter(|&c| !unfit(c))
        .collect::<String>()
        .trim()
        .to_string()
}

/// `text` (a note) as kept when read from the file: [`clean_line`]'s
/// characters removed but line breaks and tabs, which a note's markdown
/// holds.
pub(super) fn clean_text(text: &str) -> String {
    let keep = |c: char| c == '\n' || c == '\t' || !unfit(c);
    if text.chars().all(keep) {
        return text.to_string();
    }
    text.chars().filter(|&c| keep(c)).collect()
}

/// Why `text` cannot be kept as one line, if it cannot.
fn unclean(what: &str, text: &str) -> Option<String> {
    text.contains(unfit).then(|| {
        format!(
            "{what} {} holds a control or invisible character",
            shown(text)
        )
    })
}

/// `name` trimmed, when it can name a tag or a saved search (`what` says
/// which, for the message): not empty, at most [`NAME_MAX_CHARS`]
/// characters, no control or invisible characters.
pub fn check_name(what: &str, name: &str) -> Result<String, String> {
    let name = name.trim();
    if name.is_empty() {
        return Err(format!("a {what} cannot be empty"));
    }
    if name.chars().nth(NAME_MAX_CHARS).is_some() {
        return Err(format!(
            "{what} {} is longer than {NAME_MAX_CHARS} characters",
            shown(name)
        ));
    }
    match unclean(what, name) {
        Some(why) => Err(why),
        None => Ok(name.to_string()),
    }
}

/// A saved search's query and scope as they will be kept, or why not.
pub fn check_search(query: &str, scope: &str) -> Result<(String, String), String> {
    if query.len() > QUERY_MAX_BYTES {
        return Err(format!(
            "a saved query holds at most {QUERY_MAX_BYTES} bytes, not {}",
            query.len()
        ));
    }
    if let Some(why) = unclean("query", query) {
        return Err(why);
    }
    let scope = scope.trim();
    if scope.is_empty() {
        return Ok((query.to_string(), String::new()));
    }
    Ok((query.to_string(), check_name("scope", scope)?))
}

/// The key a name is compared by: trimmed and lower-cased.
pub fn fold(name: &str) -> String {
    name.trim().to_lowercase()
}

/// A version of something kept by name.
pub trait Versioned: Clone {
    /// How it is written in the file, under its name.
    type Record: Serialize + DeserializeOwned;
    /// Its name, as written.
    fn name(&self) -> &str;
    /// True when `self` wins over `other`, a version of the same name. A
    /// total order: ties fall to the contents, never to the argument order.
    fn beats(&self, other: &Self) -> bool;
    /// The record to write.
    fn record(&self) -> Self::Record;
    /// Back from the file.
    fn from_record(name: String, record: Self::Record) -> Self;
    /// False for a tombstone.
    fn live(&self) -> bool;
}

/// The newest version of each name, keyed by [`fold`].
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Named<T>(BTreeMap<String, T>);

impl<T> Default for Named<T> {
    fn default() -> Self {
        Named(BTreeMap::new())
    }
}

impl<T: Versioned> Named<T> {
    /// Nothing kept, not even a tombstone.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The newest version under `name` (compared without case), live or not.
    pub fn get(&self, name: &str) -> Option<&T> {
        self.0.get(&fold(name))
    }

    /// The live versions, by folded name.
    pub fn live(&self) -> impl Iterator<Item = &T> {
        self.0.values().filter(|v| v.live())
    }

    /// Every version, tombstones too, by folded name.
    pub fn all(&self) -> impl Iterator<Item = &T> {
        self.0.values()
    }

    /// Keeps `v` where it beats what its name holds. True when it did.
    pub fn put(&mut self, v: T) -> bool {
        let key = fold(v.name());
        match self.0.get_mut(&key) {
            Some(old) if !v.beats(old) => false,
            Some(old) => {
                *old = v;
                true
            }
            None => {
                self.0.insert(key, v);
                true
            }
        }
    }

    /// Takes in `other`, name by name.
    pub fn absorb(&mut self, other: Named<T>) {
        for v in other.0.into_values() {
            self.put(v);
        }
    }
}

impl<T: Versioned> Serialize for Named<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for v in self.0.values() {
            map.serialize_entry(v.name(), &v.record())?;
        }
        map.end()
    }
}

impl<'de, T: Versioned> Deserialize<'de> for Named<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Names<T>(PhantomData<T>);
        impl<'de, T: Versioned> Visitor<'de> for Names<T> {
            type Value = Named<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object of names")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Named<T>, A::Error> {
                let mut out = Named::default();
                while let Some((name, record)) = map.next_entry::<String, T::Record>()? {
                    // A name edited by hand into something no name can be
                    // (a control character) is kept cleaned; an empty one
                    // is passed over.
                    let name = clean_line(&name);
                    if name.is_empty() {
                        continue;
                    }
                    // Two names that differ only in case: the newest.
                    out.put(T::from_record(name, record));
                }
                Ok(out)
            }
        }
        d.deserialize_map(Names(PhantomData))
    }
}

/// One tag of one paper: its name as last written, on or off, and when.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Tag {
    /// As written (trimmed).
    pub name: String,
    /// On the paper, or taken off.
    pub on: bool,
    /// When.
    pub at: Stamp,
}

impl Versioned for Tag {
    type Record = Mark;
    fn name(&self) -> &str {
        &self.name
    }
    fn beats(&self, other: &Tag) -> bool {
        (self.at, self.on, &self.name) > (other.at, other.on, &other.name)
    }
    fn record(&self) -> Mark {
        Mark {
            on: self.on,
            at: self.at,
        }
    }
    fn from_record(name: String, m: Mark) -> Tag {
        Tag {
            name,
            on: m.on,
            at: m.at,
        }
    }
    fn live(&self) -> bool {
        self.on
    }
}

/// A paper's tags.
pub type Tags = Named<Tag>;

/// A search kept under a name: its query and scope, or its removal.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Search {
    /// As written (trimmed).
    pub name: String,
    /// The query text, as typed.
    pub query: String,
    /// Where it applies, as the caller names it (empty: anywhere).
    pub scope: String,
    /// When it was saved or removed.
    pub at: Stamp,
    /// A tombstone: removed (or renamed away) at `at`.
    pub removed: bool,
}

/// A saved search in the file.
#[derive(Serialize, Deserialize)]
pub struct SearchRecord {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    query: Option<String>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    scope: String,
    at: Stamp,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    removed: bool,
}

impl Versioned for Search {
    type Record = SearchRecord;
    fn name(&self) -> &str {
        &self.name
    }
    fn beats(&self, o: &Search) -> bool {
        (self.at, !self.removed, &self.query, &self.scope, &self.name)
            > (o.at, !o.removed, &o.query, &o.scope, &o.name)
    }
    fn record(&self) -> SearchRecord {
        SearchRecord {
            query: (!self.removed).then(|| self.query.clone()),
            scope: if self.removed {
                String::new()
            } else {
                self.scope.clone()
            },
            at: self.at,
            removed: self.removed,
        }
    }
    fn from_record(name: String, r: SearchRecord) -> Search {
        Search {
            name,
            removed: r.removed || r.query.is_none(),
            query: clean_line(&r.query.unwrap_or_default()),
            scope: clean_line(&r.scope),
            at: r.at,
        }
    }
    fn live(&self) -> bool {
        !self.removed
    }
}

/// The saved searches.
pub type Searches = Named<Search>;

#[cfg(test)]
mod tests {
    use super::*;

    fn tag(name: &str, on: bool, at: u64) -> Tag {
        Tag {
            name: name.to_string(),
            on,
            at: Stamp(at),
        }
    }

    #[test]
    fn names_compare_without_case_and_keep_theirs() {
        let mut t = Tags::default();
        assert!(t.put(tag("LLM", true, 5)));
        assert!(!t.put(tag("llm", false, 4)), "older loses");
        assert_eq!(t.get("lLm").unwrap().name, "LLM");
        assert!(t.put(tag("llm", false, 6)));
        assert_eq!(t.live().count(), 0);
        assert_eq!(t.all().count(), 1, "the removal is kept");
    }

    #[test]
    fn names_are_checked() {
        assert_eq!(check_name("tag", "  to read ").unwrap(), "to read");
        for bad in ["", "   ", "a\u{1b}[2Jb", "two\nlines", "bidi\u{202e}x"] {
            let e = check_name("tag", bad).unwrap_err();
            assert!(e.contains("tag"), "{e}");
        }
        let long = "x".repeat(NAME_MAX_CHARS + 1);
        assert!(check_name("tag", &long).unwrap_err().contains("longer"));
        assert!(check_name("tag", &"é".repeat(NAME_MAX_CHARS)).is_ok());
        let e = check_name("tag", &"y".repeat(1 << 20)).unwrap_err();
        assert!(e.len() < 100, "the message quotes a bounded part: {e}");
        assert!(check_search(&"q".repeat(QUERY_MAX_BYTES + 1), "").is_err());
        assert!(check_search("a\tb", "").is_err());
        assert_eq!(
            check_search("year:2024", " all ").unwrap(),
            ("year:2024".to_string(), "all".to_string())
        );
    }

    #[test]
    fn a_file_with_two_cases_of_one_name_keeps_the_newest() {
        let text = r#"{"LLM": {"on": true, "at": "2026-01-01T00:00:00Z"},
                       "llm": {"on": false, "at": "2026-01-02T00:00:00Z"}}"#;
        let t: Tags = serde_json::from_str(text).unwrap();
        let only = t.get("LLM").unwrap();
        assert_eq!((only.name.as_str(), only.on), ("llm", false));
    }

    #[test]
    fn searches_round_trip_with_tombstones() {
        let mut s = Searches::default();
        s.put(Search {
            name: "Recent".into(),
            query: "year:2026".into(),
            scope: "all".into(),
            at: Stamp(1),
            removed: false,
        });
        s.put(Search {
            name: "gone".into(),
            query: String::new(),
            scope: String::new(),
            at: Stamp(2),
            removed: true,
        });
        let text = serde_json::to_string(&s).unwrap();
        assert!(text.contains(r#""gone":{"at":"1970-01-01T00:00:00.002Z","removed":true}"#));
        let back: Searches = serde_json::from_str(&text).unwrap();
        assert_eq!(back, s);
    }
}
