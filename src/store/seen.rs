//! When the reader first loaded each paper, for "new since last visit".
//!
//! Every paper ever loaded has a time here, so this is by far the largest
//! part of the state once a big corpus has been opened: it is written
//! grouped by time (`{"<time>": ["<id>", …]}`), one line a paper, since
//! the papers of one load share one time. Merging keeps the earliest time.

use std::collections::{BTreeMap, HashMap};
use std::fmt;

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::stamp::Stamp;

/// When each paper was first seen, by paper id.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Seen(HashMap<String, Stamp>);

impl Seen {
    /// No paper recorded.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// How many papers are recorded.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// When paper `id` was first seen.
    pub fn get(&self, id: &str) -> Option<Stamp> {
        self.0.get(id).copied()
    }

    /// Records that `id` was seen at `at`, keeping the earliest time. True
    /// when that changed anything.
    pub fn record(&mut self, id: &str, at: Stamp) -> bool {
        match self.0.get_mut(id) {
            Some(t) if *t <= at => false,
            Some(t) => {
                *t = at;
                true
            }
            None => {
                self.0.insert(id.to_string(), at);
                true
            }
        }
    }

    /// Takes in `other`, the earliest time of each paper.
    pub fn absorb(&mut self, other: Seen) {
        if self.0.is_empty() {
            self.0 = other.0;
            return;
        }
        self.0.reserve(other.0.len().saturating_sub(self.0.len()));
        for (id, at) in other.0 {
            self.keep_earliest(id, at);
        }
    }

    fn keep_earliest(&mut self, id: String, at: Stamp) {
        self.0
            .entry(id)
            .and_modify(|t| *t = (*t).min(at))
            .or_insert(at);
    }
}

impl Serialize for Seen {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut groups: BTreeMap<Stamp, Vec<&str>> = BTreeMap::new();
        for (id, at) in &self.0 {
            groups.entry(*at).or_default().push(id);
        }
        let mut map = s.serialize_map(Some(groups.len()))?;
        for (at, mut ids) in groups {
            ids.sort_unstable();
            map.serialize_entry(&at, &ids)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Seen {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Groups;
        impl<'de> Visitor<'de> for Groups {
            type Value = Seen;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object of times, each with a list of paper ids")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Seen, A::Error> {
                let mut out = Seen::default();
                while let Some((at, ids)) = map.next_entry::<Stamp, Vec<String>>()? {
                    out.0.reserve(ids.len());
                    for id in ids {
                        out.keep_earliest(id, at);
                    }
                }
                Ok(out)
            }
        }
        d.deserialize_map(Groups)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_earliest_time_is_kept_and_written_grouped() {
        let mut a = Seen::default();
        assert!(a.record("x", Stamp(5)));
        assert!(!a.record("x", Stamp(7)));
        assert!(a.record("x", Stamp(3)));
        a.record("y", Stamp(3));
        a.record("z", Stamp(9));
        let mut b = Seen::default();
        b.record("z", Stamp(4));
        b.record("w", Stamp(9));
        a.absorb(b);
        assert_eq!(a.get("z"), Some(Stamp(4)));
        let text = serde_json::to_string(&a).unwrap();
        assert_eq!(
            text,
            r#"{"1970-01-01T00:00:00.003Z":["x","y"],"1970-01-01T00:00:00.004Z":["z"],"1970-01-01T00:00:00.009Z":["w"]}"#
        );
        assert_eq!(serde_json::from_str::<Seen>(&text).unwrap(), a);
        // An id listed twice by hand: its earliest time.
        let twice = r#"{"1970-01-01T00:00:00.009Z":["x"],"1970-01-01T00:00:00.002Z":["x"]}"#;
        let s: Seen = serde_json::from_str(twice).unwrap();
        assert_eq!(s.get("x"), Some(Stamp(2)));
    }
}
