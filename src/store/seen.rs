//! When the reader first loaded each paper, for "new since last visit".
//!
//! Every paper ever loaded has a time here, so this is by far the largest
//! part of the state once a big corpus has been opened: a million papers
//! make 25 MiB. It is kept in its own file, `first_seen.json` beside
//! `state.json`, so that a mark, tag or note saved does not rewrite it
//! (docs/STATE.md has the figures), and read on first use, not when the
//! store opens. It is written grouped by time (`{"<time>": ["<id>", …]}`),
//! one line a paper, since the papers of one load share one time. Merging
//! keeps the earliest time.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::io;
use std::path::Path;
use std::time::SystemTime;

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::file::{Read, fingerprint, read_file, set_aside, write_atomic};
use super::stamp::Stamp;
use super::{StoreError, VERSION};

/// The first-seen times' file in the state directory.
pub const SEEN_FILE_NAME: &str = "first_seen.json";

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

/// The first-seen file.
#[derive(Deserialize)]
struct SeenDoc {
    version: u64,
    #[serde(default)]
    first_seen: Seen,
}

impl Default for SeenDoc {
    fn default() -> Self {
        SeenDoc {
            version: VERSION,
            first_seen: Seen::default(),
        }
    }
}

/// The first-seen file as written.
#[derive(Serialize)]
struct SeenOut<'a> {
    version: u64,
    first_seen: &'a Seen,
}

/// The first-seen times as one store knows them, and their file.
#[derive(Debug)]
pub(super) struct SeenFile {
    /// The times.
    pub(super) seen: Seen,
    /// Times not yet saved.
    pub(super) dirty: bool,
    read_only: Option<String>,
    fingerprint: Option<(SystemTime, u64)>,
    notice: Option<String>,
}

impl SeenFile {
    /// Reads the file in `dir`. A broken file is moved aside (unless the
    /// store is `read_only`: then nothing is moved, and nothing written).
    pub(super) fn load(dir: &Path, read_only: bool) -> SeenFile {
        let path = dir.join(SEEN_FILE_NAME);
        let mut f = SeenFile {
            seen: Seen::default(),
            dirty: false,
            read_only: read_only.then(String::new),
            fingerprint: fingerprint(&path),
            notice: None,
        };
        match read_file(&path, |d: &SeenDoc| d.version) {
            Read::Missing => {}
            Read::Parsed(d) => f.seen = d.first_seen,
            Read::Newer(d) => {
                f.seen = d.first_seen;
                f.refuse(&path);
            }
            Read::Broken(_) if read_only => {}
            Read::Broken(why) => f.set_aside(dir, &why),
        }
        f
    }

    fn refuse(&mut self, path: &Path) -> StoreError {
        let msg = format!(
            "{} was written by a newer paperboat; first-seen times are not saved",
            path.display()
        );
        self.read_only = Some(msg.clone());
        self.notice = Some(msg.clone());
        StoreError::ReadOnly(msg)
    }

    fn set_aside(&mut self, dir: &Path, why: &str) {
        match set_aside(dir, SEEN_FILE_NAME, why, "first-seen times") {
            Ok(msg) => self.notice = Some(msg),
            Err(msg) => {
                self.read_only = Some(msg.clone());
                self.notice = Some(msg);
            }
        }
    }

    /// False when the file must not be written (a newer version's, or one
    /// that could be neither read nor moved aside).
    pub(super) fn writable(&self) -> bool {
        self.read_only.is_none()
    }

    /// What loading or saving found that the user should hear of, once.
    pub(super) fn take_notice(&mut self) -> Option<String> {
        self.notice.take()
    }

    /// Re-reads the file, merges, writes it atomically through `tmp`. The
    /// caller holds the state's lock.
    pub(super) fn save_locked(&mut self, dir: &Path, tmp: &Path) -> Result<(), StoreError> {
        if let Some(why) = &self.read_only {
            return Err(StoreError::ReadOnly(why.clone()));
        }
        let path = dir.join(SEEN_FILE_NAME);
        match read_file(&path, |d: &SeenDoc| d.version) {
            Read::Missing => {}
            Read::Parsed(d) => self.seen.absorb(d.first_seen),
            Read::Newer(_) => return Err(self.refuse(&path)),
            Read::Broken(why) => {
                self.set_aside(dir, &why);
                if let Some(why) = &self.read_only {
                    return Err(StoreError::ReadOnly(why.clone()));
                }
            }
        }
        let out = SeenOut {
            version: VERSION,
            first_seen: &self.seen,
        };
        let io_err = |source| StoreError::Io {
            path: path.display().to_string(),
            source,
        };
        let mut json = serde_json::to_vec_pretty(&out).map_err(|e| io_err(io::Error::other(e)))?;
        json.push(b'\n');
        write_atomic(dir, tmp, &path, &json).map_err(io_err)?;
        self.dirty = false;
        self.fingerprint = fingerprint(&path);
        Ok(())
    }

    /// Merges in what another instance saved since we last looked. True
    /// when the file had changed.
    pub(super) fn refresh(&mut self, dir: &Path) -> bool {
        let path = dir.join(SEEN_FILE_NAME);
        let now = fingerprint(&path);
        if now == self.fingerprint {
            return false;
        }
        self.fingerprint = now;
        match read_file(&path, |d: &SeenDoc| d.version) {
            Read::Parsed(d) => {
                self.seen.absorb(d.first_seen);
                true
            }
            _ => false,
        }
    }

    /// Each paper that changed id (`(old, new)`) keeps the earlier time of
    /// the two. True when any changed.
    pub(super) fn adopt(&mut self, moves: &[(&str, &str)]) -> bool {
        let mut changed = false;
        for &(old, new) in moves {
            if let Some(at) = self.seen.get(old) {
                changed |= self.seen.record(new, at);
            }
        }
        self.dirty |= changed && self.writable();
        changed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn arb_seen() -> impl Strategy<Value = Seen> {
        proptest::collection::vec(("[a-e]", 0u64..20), 0..6).prop_map(|v| {
            let mut s = Seen::default();
            for (id, at) in v {
                s.record(&id, Stamp(at));
            }
            s
        })
    }

    fn merged(a: &Seen, b: &Seen) -> Seen {
        let mut m = a.clone();
        m.absorb(b.clone());
        m
    }

    proptest! {
        #[test]
        fn merging_is_commutative_associative_idempotent(
            a in arb_seen(), b in arb_seen(), c in arb_seen()
        ) {
            prop_assert_eq!(merged(&a, &b), merged(&b, &a));
            prop_assert_eq!(merged(&merged(&a, &b), &c), merged(&a, &merged(&b, &c)));
            prop_assert_eq!(merged(&a, &a), a.clone());
            let text = serde_json::to_string(&a).unwrap();
            prop_assert_eq!(serde_json::from_str::<Seen>(&text).unwrap(), a);
        }
    }

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
