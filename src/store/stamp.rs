//! Times as the state file writes them, and a mark: on or off at a time.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

/// A time in milliseconds since the Unix epoch, written as RFC 3339.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Stamp(pub u64);

impl Stamp {
    /// Now.
    pub fn now() -> Stamp {
        Stamp(
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_millis() as u64),
        )
    }
}

impl Serialize for Stamp {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let t = UNIX_EPOCH + Duration::from_millis(self.0);
        s.serialize_str(&humantime::format_rfc3339_millis(t).to_string())
    }
}

impl<'de> Deserialize<'de> for Stamp {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Stamp, D::Error> {
        let s = String::deserialize(d)?;
        let t = humantime::parse_rfc3339_weak(&s).map_err(serde::de::Error::custom)?;
        let ms = t
            .duration_since(UNIX_EPOCH)
            .map_err(serde::de::Error::custom)?
            .as_millis() as u64;
        Ok(Stamp(ms))
    }
}

/// One mark of one paper: on or off, and when that was decided.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Mark {
    /// Set or cleared.
    pub on: bool,
    /// When.
    pub at: Stamp,
}

impl Mark {
    /// The newer of two marks. Ties (the same millisecond) go to `on`, so
    /// the choice never depends on the order of the arguments.
    pub fn newest(a: Mark, b: Mark) -> Mark {
        if (a.at, a.on) >= (b.at, b.on) { a } else { b }
    }
}

/// The newer of two marks either of which may be missing.
pub(super) fn newest_opt(a: Option<Mark>, b: Option<Mark>) -> Option<Mark> {
    match (a, b) {
        (Some(a), Some(b)) => Some(Mark::newest(a, b)),
        (a, b) => a.or(b),
    }
}
