//! When the reader first loaded each paper, for "new since last visit".
//!
//! Every paper ever loaded has a time here, so this is by far the largest
//! part of the state once a big corpus has been opened: a million papers
//! make 25 MiB. It is kept in its own file, `first_seen.json` beside
//! `state.json`, so that a mark, tag or note saved does not rewrite it
//! (docs/STATE.md has the figures), and read on first use, not when the
//! store opens. It is written grouped by time (`{"<time>": ["<id>", …]}`),
//! one line a paper, since the papers of one load share one time; within a
//! time, in the order the ids were first recorded. Merging keeps the
//! earliest time.
//!
//! The ids are held one after another in the order first recorded, as the
//! file lists them, and a reopen walks them beside the corpus's: a list
//! opened again finds each of its papers at the place after the last one,
//! one comparison of bytes a paper, with no table to make. Looking an id
//! up anywhere else goes through a table of each id's 128-bit hash (as
//! the corpus's dedup holds ids), made on first need. At 2.7M papers a
//! reopen took about two seconds of a core with a map keyed by `String`:
//! most of it finding each key in memory, a miss or two a paper.

use std::collections::BTreeMap;
use std::collections::hash_map::Entry;
use std::fmt;
use std::io;
use std::path::Path;
use std::sync::OnceLock;
use std::time::SystemTime;

use rustc_hash::FxHashMap;
use serde::de::{DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::file::{Read, fingerprint, read_file, set_aside, write_atomic};
use super::stamp::Stamp;
use super::{StoreError, VERSION};

/// The first-seen times' file in the state directory.
pub const SEEN_FILE_NAME: &str = "first_seen.json";

/// How many times one walk beside a corpus looks for an id through all
/// the ids' bytes (where the place after the last one found does not hold
/// it) before it makes the table instead. (Two in tests, so that the
/// property tests reach the table and the renumbering often.)
const SCANS: usize = if cfg!(test) { 2 } else { 8 };

/// A walk of at least this many ids over a file in the old order, most of
/// them looked up rather than found in place, puts its ids first
/// ([`Seen::record_each`]).
/// (A few in tests, so that the property tests renumber too.)
const REORDER_FROM: usize = if cfg!(test) { 3 } else { 10_000 };

/// What [`Seen::record_each`] did.
#[derive(Debug, PartialEq, Eq)]
pub struct Walk {
    /// For each id, whether it is new since the walk's time.
    pub fresh: Vec<bool>,
    /// How many ids it recorded, or gave an earlier time.
    pub changed: usize,
    /// The ids were numbered anew: the file is to be written again.
    pub reordered: bool,
}

/// An id's key: its 128-bit xxh3 hash, taken for the id. Two of a few
/// million ids share one with odds of about one in 10^26.
fn key(id: &str) -> u128 {
    xxhash_rust::xxh3::xxh3_128(id.as_bytes())
}

/// When each paper was first seen, by paper id.
#[derive(Clone, Default, Debug)]
pub struct Seen {
    /// The ids, one after another, in the order first recorded (as read:
    /// a file edited by hand may list one twice).
    text: String,
    /// Where each id of `text` ends: an id's number is its place here.
    ends: Vec<usize>,
    /// When each number's id was first seen. A number whose id an earlier
    /// number has too keeps the time it was read with: the table holds
    /// the earliest of them.
    times: Vec<Stamp>,
    /// By id key: the earliest time, and the first number with the id.
    table: OnceLock<FxHashMap<u128, (Stamp, u32)>>,
    /// Read from a file whose every time lists its ids sorted, as files
    /// were written before the order recorded was kept.
    sorted: bool,
}

impl PartialEq for Seen {
    /// The same ids with the same times (whatever the order recorded).
    fn eq(&self, other: &Seen) -> bool {
        let (a, b) = (self.table(), other.table());
        a.len() == b.len()
            && a.iter()
                .all(|(k, (t, _))| b.get(k).is_some_and(|(u, _)| u == t))
    }
}

impl Eq for Seen {}

impl Seen {
    /// No paper recorded.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// How many papers are recorded.
    pub fn len(&self) -> usize {
        self.table().len()
    }

    /// When paper `id` was first seen.
    pub fn get(&self, id: &str) -> Option<Stamp> {
        self.table().get(&key(id)).map(|&(t, _)| t)
    }

    /// Records that `id` was seen at `at`, keeping the earliest time. True
    /// when that changed anything.
    pub fn record(&mut self, id: &str, at: Stamp) -> bool {
        self.note(id, at).1
    }

    /// Records that each of `ids` was seen at `now` (keeping the earliest
    /// time) and says for each whether it is new since `now`. Walks the
    /// ids recorded beside `ids` while they come in the same order, which
    /// a list opened again does. When most of a large list had to be
    /// looked up instead in a file from before the ids were kept in the
    /// order recorded (sorted), its ids are put first, in its order, so
    /// that the next walk finds them in place: the file is then to be
    /// written again. Only such a file: two large lists sharing most of
    /// their papers in other orders would otherwise each renumber the
    /// ids, and rewrite the file, every time the other was opened.
    pub fn record_each<'a>(&mut self, ids: impl IntoIterator<Item = &'a str>, now: Stamp) -> Walk {
        let (mut next, mut scans, mut changed, mut looked_up) = (0, 0, 0, 0);
        let mut walked: Vec<u32> = Vec::new();
        let fresh = ids
            .into_iter()
            .map(|id| {
                let at = match self.place(id, next, &mut scans) {
                    Found::At(i) => Some(i),
                    Found::Absent => {
                        walked.push(self.ends.len() as u32);
                        self.push(id, now);
                        changed += 1;
                        next = self.ends.len();
                        return true;
                    }
                    Found::Unknown => None,
                };
                // A time already before `now` stays, whichever number of
                // the id holds it.
                if let Some(i) = at
                    && self.times[i] < now
                {
                    walked.push(i as u32);
                    next = i + 1;
                    return false;
                }
                let before = self.ends.len();
                let (kept, change, i) = self.note(id, now);
                looked_up += usize::from(at.is_none() && i < before);
                changed += usize::from(change);
                walked.push(i as u32);
                next = i + 1;
                kept >= now
            })
            .collect();
        let reordered = self.sorted && walked.len() >= REORDER_FROM && looked_up > walked.len() / 2;
        if reordered {
            self.put_first(&walked);
        }
        Walk {
            fresh,
            changed,
            reordered,
        }
    }

    /// Numbers the ids anew: those numbered `first` (in that order), then
    /// the others as they were; each id once, with its earliest time.
    fn put_first(&mut self, first: &[u32]) {
        let table = self.table();
        let n = self.ends.len();
        let mut placed = vec![false; n];
        let mut order: Vec<(usize, Stamp)> = Vec::with_capacity(table.len());
        let rest = {
            let mut rest: Vec<(u32, Stamp)> = table.values().map(|&(t, i)| (i, t)).collect();
            rest.sort_unstable();
            rest
        };
        for &i in first {
            let &(t, i) = &table[&key(self.id(i as usize))];
            if !std::mem::replace(&mut placed[i as usize], true) {
                order.push((i as usize, t));
            }
        }
        for (i, t) in rest {
            if !placed[i as usize] {
                order.push((i as usize, t));
            }
        }
        let mut text = String::with_capacity(self.text.len());
        let mut ends = Vec::with_capacity(order.len());
        let mut times = Vec::with_capacity(order.len());
        for (i, t) in order {
            text.push_str(self.id(i));
            ends.push(text.len());
            times.push(t);
        }
        *self = Seen {
            text,
            ends,
            times,
            table: OnceLock::new(),
            sorted: false,
        };
    }

    /// The time kept for `id` once it is recorded as seen at `at`, whether
    /// that changed anything, and the first number with the id.
    fn note(&mut self, id: &str, at: Stamp) -> (Stamp, bool, usize) {
        self.table();
        let number = self.ends.len() as u32;
        let table = self.table.get_mut().expect("made above");
        match table.entry(key(id)) {
            Entry::Occupied(mut e) => {
                let (t, first) = e.get_mut();
                let changed = at < *t;
                *t = (*t).min(at);
                let kept = *t;
                self.times[*first as usize] = kept;
                (kept, changed, *first as usize)
            }
            Entry::Vacant(e) => {
                e.insert((at, number));
                self.text.push_str(id);
                self.ends.push(self.text.len());
                self.times.push(at);
                (at, true, number as usize)
            }
        }
    }

    /// Adds `id`, not recorded, as seen at `at`.
    fn push(&mut self, id: &str, at: Stamp) {
        if let Some(table) = self.table.get_mut() {
            table.insert(key(id), (at, self.ends.len() as u32));
        }
        self.text.push_str(id);
        self.ends.push(self.text.len());
        self.times.push(at);
    }

    /// The first number whose id is `id`, found in the ids' bytes: one
    /// pass over them (`memmem`), each place it occurs checked to be a
    /// whole id.
    fn find(&self, id: &str) -> Option<usize> {
        if id.is_empty() {
            return (0..self.ends.len()).find(|&i| self.start_of(i) == self.ends[i]);
        }
        memchr::memmem::find_iter(self.text.as_bytes(), id.as_bytes()).find_map(|from| {
            let i = self.ends.partition_point(|&e| e <= from);
            (i < self.ends.len() && self.start_of(i) == from && self.ends[i] == from + id.len())
                .then_some(i)
        })
    }

    /// Where number `i`'s id starts.
    fn start_of(&self, i: usize) -> usize {
        i.checked_sub(1).map_or(0, |j| self.ends[j])
    }

    /// Id number `i`.
    fn id(&self, i: usize) -> &str {
        &self.text[self.start_of(i)..self.ends[i]]
    }

    /// The table, made now if it was not.
    fn table(&self) -> &FxHashMap<u128, (Stamp, u32)> {
        self.table.get_or_init(|| {
            let mut table =
                FxHashMap::with_capacity_and_hasher(self.ends.len(), Default::default());
            for (i, &t) in self.times.iter().enumerate() {
                table
                    .entry(key(self.id(i)))
                    .and_modify(|(u, _): &mut (Stamp, u32)| *u = (*u).min(t))
                    .or_insert((t, i as u32));
            }
            table
        })
    }

    /// Where `id` is, looked for where the last id was found (`next`)
    /// and, while there is no table, through all the ids' bytes (`scans`
    /// of them so far).
    fn place(&self, id: &str, next: usize, scans: &mut usize) -> Found {
        if next < self.ends.len() && self.id(next) == id {
            Found::At(next)
        } else if self.table.get().is_none() && *scans < SCANS {
            *scans += 1;
            self.find(id).map_or(Found::Absent, Found::At)
        } else {
            Found::Unknown
        }
    }

    /// Takes in `other`, the earliest time of each paper. Walks `other`'s
    /// ids beside these: a file read back to be merged before it is
    /// written again holds the ids read from it before, in their order.
    pub fn absorb(&mut self, other: Seen) {
        if self.is_empty() {
            *self = other;
            return;
        }
        let (mut next, mut scans) = (0, 0);
        for k in 0..other.ends.len() {
            let (id, at) = (other.id(k), other.times[k]);
            next = match self.place(id, next, &mut scans) {
                // As early or earlier already.
                Found::At(i) if self.times[i] <= at => i + 1,
                Found::Absent => {
                    self.push(id, at);
                    self.ends.len()
                }
                _ => self.note(id, at).2 + 1,
            };
        }
    }
}

/// Where [`Seen::place`] found an id.
enum Found {
    /// At this number.
    At(usize),
    /// Nowhere: it is not recorded.
    Absent,
    /// Not where looked: the table is to tell.
    Unknown,
}

impl Serialize for Seen {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // Each number as it is: an id listed twice (by hand) is written
        // twice, each with a time no earlier than its earliest, which one
        // of them has.
        let mut groups: BTreeMap<Stamp, Vec<&str>> = BTreeMap::new();
        for (i, &at) in self.times.iter().enumerate() {
            groups.entry(at).or_default().push(self.id(i));
        }
        let mut map = s.serialize_map(Some(groups.len()))?;
        for (at, ids) in groups {
            map.serialize_entry(&at, &ids)?;
        }
        map.end()
    }
}

/// One time's ids, added to a [`Seen`] as they are read.
struct Group<'a>(&'a mut Seen, Stamp);

impl<'de> DeserializeSeed<'de> for Group<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Group<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of paper ids")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let Group(seen, at) = self;
        let first = seen.ends.len();
        while seq.next_element_seed(Id(seen, at))?.is_some() {}
        seen.sorted &= (first + 1..seen.ends.len()).all(|i| seen.id(i - 1) <= seen.id(i));
        Ok(())
    }
}

/// One id, added to a [`Seen`] without a string of its own.
struct Id<'a>(&'a mut Seen, Stamp);

impl<'de> DeserializeSeed<'de> for Id<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Id<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a paper id")
    }
    fn visit_str<E: serde::de::Error>(self, id: &str) -> Result<(), E> {
        self.0.push(id, self.1);
        Ok(())
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
                let mut out = Seen {
                    sorted: true,
                    ..Seen::default()
                };
                while let Some(at) = map.next_key::<Stamp>()? {
                    map.next_value_seed(Group(&mut out, at))?;
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

    /// Re-reads the file, merges, writes it atomically. The caller holds
    /// the state's lock.
    pub(super) fn save_locked(&mut self, dir: &Path) -> Result<(), StoreError> {
        if let Some(why) = &self.read_only {
            return Err(StoreError::ReadOnly(why.clone()));
        }
        let path = dir.join(SEEN_FILE_NAME);
        // Unchanged since it was read (or last written): nothing to merge.
        // At 2.7M papers reading it again is a quarter of a second.
        let read = if fingerprint(&path) == self.fingerprint {
            Read::Missing
        } else {
            read_file(&path, |d: &SeenDoc| d.version)
        };
        match read {
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
        write_atomic(&path, &json).map_err(io_err)?;
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

    /// A file's groups as written by hand: any ids (`a`, `ab`, `b`, `ba`
    /// and the empty one, so that one is inside another), repeats within
    /// and across times.
    fn arb_file() -> impl Strategy<Value = Vec<(u64, Vec<String>)>> {
        let id =
            proptest::sample::select(vec!["a", "ab", "b", "ba", "", "c"]).prop_map(String::from);
        proptest::collection::vec((0u64..20, proptest::collection::vec(id, 0..6)), 0..4)
    }

    fn json_of(groups: &[(u64, Vec<String>)]) -> String {
        let groups: Vec<String> = groups
            .iter()
            .map(|(t, ids)| {
                format!(
                    "{}: {}",
                    serde_json::to_string(&Stamp(*t)).unwrap(),
                    serde_json::to_string(ids).unwrap()
                )
            })
            .collect();
        format!("{{{}}}", groups.join(", "))
    }

    proptest! {
        /// Walking ids beside those read (in their order, out of it, with
        /// new ones, with times at or after `now`) says what a plain map
        /// of the earliest times says, and leaves the same times.
        #[test]
        fn recording_in_a_walk_is_recording_in_a_map(
            file in arb_file(),
            ids in proptest::collection::vec(proptest::sample::select(vec!["a", "ab", "b", "ba", "", "c", "d"]), 0..12),
            now in 0u64..22,
            in_order in any::<bool>(),
            sort_groups in any::<bool>(),
        ) {
            // Half the files as they were written before: sorted.
            let mut file = file;
            if sort_groups {
                file.iter_mut().for_each(|(_, g)| g.sort());
            }
            let mut model: std::collections::HashMap<String, Stamp> = Default::default();
            for (t, group) in &file {
                for id in group {
                    let e = model.entry(id.clone()).or_insert(Stamp(*t));
                    *e = (*e).min(Stamp(*t));
                }
            }
            // A list opened again: the ids in the order read, then `ids`.
            let mut walk: Vec<String> = if in_order {
                file.iter().flat_map(|(_, g)| g.clone()).collect()
            } else {
                Vec::new()
            };
            walk.extend(ids.iter().map(|s| s.to_string()));
            let now = Stamp(now);
            let mut want_changed = 0;
            let want: Vec<bool> = walk
                .iter()
                .map(|id| {
                    let e = model.entry(id.clone()).or_insert(Stamp(u64::MAX));
                    if now < *e {
                        *e = now;
                        want_changed += 1;
                    }
                    *e >= now
                })
                .collect();
            let mut seen: Seen = serde_json::from_str(&json_of(&file)).unwrap();
            let done = seen.record_each(walk.iter().map(String::as_str), now);
            prop_assert_eq!(done.fresh, want);
            prop_assert_eq!(done.changed, want_changed);
            prop_assert_eq!(seen.len(), model.len());
            for (id, t) in &model {
                prop_assert_eq!(seen.get(id), Some(*t));
            }
            prop_assert_eq!(seen.get("zz"), None);
            // Read back the same; written once each when read so.
            let text = serde_json::to_string(&seen).unwrap();
            let back: Seen = serde_json::from_str(&text).unwrap();
            let listed: usize = file.iter().map(|(_, g)| g.len()).sum();
            let once = file.iter().flat_map(|(_, g)| g).collect::<std::collections::HashSet<_>>().len() == listed;
            if once {
                prop_assert_eq!(back.ends.len(), model.len());
            }
            prop_assert_eq!(back, seen);
        }
    }

    proptest! {
        /// Merging two files' times (each maybe listing an id twice, in any
        /// order) keeps each id's earliest, as a plain map does; also
        /// after one was walked (its table made or not).
        #[test]
        fn merging_files_keeps_the_earliest(a in arb_file(), b in arb_file(), walk in any::<bool>()) {
            let mut model: std::collections::HashMap<String, Stamp> = Default::default();
            for (t, group) in a.iter().chain(&b) {
                for id in group {
                    let e = model.entry(id.clone()).or_insert(Stamp(*t));
                    *e = (*e).min(Stamp(*t));
                }
            }
            let mut mine: Seen = serde_json::from_str(&json_of(&a)).unwrap();
            if walk {
                let ids: Vec<&String> = a.iter().flat_map(|(_, g)| g).collect();
                mine.record_each(ids.into_iter().map(String::as_str), Stamp(100));
            }
            mine.absorb(serde_json::from_str(&json_of(&b)).unwrap());
            prop_assert_eq!(mine.len(), model.len());
            for (id, t) in &model {
                prop_assert_eq!(mine.get(id), Some(*t));
            }
            let back: Seen = serde_json::from_str(&serde_json::to_string(&mine).unwrap()).unwrap();
            prop_assert_eq!(back, mine);
        }
    }

    #[test]
    fn a_list_opened_again_is_walked_without_the_table() {
        let ids: Vec<String> = (0..1000).map(|i| format!("id{i:03}")).collect();
        let mut first = Seen::default();
        let done = first.record_each(["x", "y"], Stamp(1));
        assert_eq!((done.fresh, done.changed), (vec![true, true], 2));
        let done = first.record_each(ids.iter().map(String::as_str), Stamp(2));
        assert!(done.fresh.iter().all(|&f| f) && done.changed == 1000);
        let text = serde_json::to_string(&first).unwrap();
        // Reopened: the list is found after the first two ids, by one
        // search through the bytes; then each id where the last one ended.
        let mut again: Seen = serde_json::from_str(&text).unwrap();
        let done = again.record_each(ids.iter().map(String::as_str), Stamp(3));
        assert!(done.fresh.iter().all(|&f| !f) && done.changed == 0 && !done.reordered);
        assert!(again.table.get().is_none(), "no table was made");
        // More ids after the list: new, and still no table for a few.
        let done = again.record_each(ids.iter().map(String::as_str).chain(["new"]), Stamp(3));
        assert_eq!(done.fresh.iter().filter(|&&f| f).count(), 1);
        assert_eq!(done.changed, 1);
        assert!(again.table.get().is_none());
        assert_eq!(again.get("new"), Some(Stamp(3)));
        assert_eq!(again.get("id999"), Some(Stamp(2)));
        assert_eq!(again.get("x"), Some(Stamp(1)));
    }

    #[test]
    fn a_list_out_of_order_in_an_old_file_is_put_in_its_order_for_the_next_walk() {
        // Written as files were before the order recorded was kept: the
        // ids sorted within each time. The list has them reversed.
        let ids: Vec<String> = (0..50).map(|i| format!("id{i:02}")).rev().collect();
        let sorted: Vec<String> = ids.iter().rev().cloned().collect();
        let other = vec!["other".to_string(), "zz".to_string()];
        let file = json_of(&[
            (3, other),
            (5, sorted[..10].to_vec()),
            (7, sorted[10..].to_vec()),
        ]);
        let mut seen: Seen = serde_json::from_str(&file).unwrap();
        let done = seen.record_each(ids.iter().map(String::as_str), Stamp(9));
        assert!(done.fresh.iter().all(|&f| !f) && done.changed == 0);
        assert!(done.reordered, "most were looked up: numbered anew");
        let text = serde_json::to_string(&seen).unwrap();
        let mut again: Seen = serde_json::from_str(&text).unwrap();
        // Written by time, the list's order within each: found in place
        // but where a time's ids start.
        let done = again.record_each(ids.iter().map(String::as_str), Stamp(9));
        assert!(!done.reordered && done.changed == 0);
        assert!(again.table.get().is_none(), "found in place: no table");
        assert_eq!(again, seen);
        assert_eq!(again.get("id00"), Some(Stamp(5)));
        assert_eq!(again.get("id49"), Some(Stamp(7)));
        assert_eq!(
            again.get("other"),
            Some(Stamp(3)),
            "ids not in the list kept"
        );
        assert_eq!(again.get("zz"), Some(Stamp(3)));
        // Now in the list's order, not sorted: another list with the same
        // papers in another order is looked up, and renumbers nothing.
        let sorted_walk = again.record_each(sorted.iter().map(String::as_str), Stamp(9));
        assert!(!sorted_walk.reordered);
        assert_eq!(
            serde_json::to_string(&again).unwrap(),
            text,
            "nothing to write again"
        );
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
