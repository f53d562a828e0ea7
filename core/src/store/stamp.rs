//! Times as the state file writes them, and a mark: on or off at a time.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

/// A time in milliseconds since the Unix epoch, written as RFC 3339.
///
/// Read from a file (which may have been edited by hand or written by a
/// clock gone wrong), a time before 1970 reads as 1970 and one after
/// [`Stamp::LATEST_READ`] as that: a change made later is always stamped
/// after it, and every time kept can be written (RFC 3339 ends with the
/// year 9999, [`Stamp::MAX`]).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Stamp(pub u64);

impl Stamp {
    /// The last millisecond RFC 3339 can write: 9999-12-31T23:59:59.999Z.
    pub const MAX: Stamp = Stamp(253_402_300_799_999);

    /// The latest time read from a file: 9999-01-01T00:00:00Z, a year
    /// short of [`Stamp::MAX`], so that the changes that must come after
    /// it still have times to take.
    pub const LATEST_READ: Stamp = Stamp(253_370_764_800_000);

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
        let t = UNIX_EPOCH + Duration::from_millis(self.0.min(Stamp::MAX.0));
        s.serialize_str(&humantime::format_rfc3339_millis(t).to_string())
    }
}

impl<'de> Deserialize<'de> for Stamp {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Stamp, D::Error> {
        let s = String::deserialize(d)?;
        Stamp::read(&s).map_err(serde::de::Error::custom)
    }
}

impl Stamp {
    /// An RFC 3339 time as read from a file: before 1970 as 1970, after
    /// [`Stamp::LATEST_READ`] as that; an error when it is no time.
    pub fn read(s: &str) -> Result<Stamp, String> {
        let clamp = |ms: u64| Stamp(ms.min(Stamp::LATEST_READ.0));
        match humantime::parse_rfc3339_weak(s) {
            Ok(t) => Ok(match t.duration_since(UNIX_EPOCH) {
                Ok(d) => clamp(u64::try_from(d.as_millis()).unwrap_or(u64::MAX)),
                Err(_) => Stamp(0),
            }),
            Err(e) => {
                // humantime reads the years 1970 to 9999: a time outside
                // them, written as RFC 3339 (`1969-…`, `+10000-…`), is
                // taken to the nearest end.
                let digits = s.trim().trim_start_matches('+');
                let year_len = digits.bytes().take_while(u8::is_ascii_digit).count();
                let dated = year_len >= 4
                    && digits[year_len..].starts_with('-')
                    && digits[year_len..].len() >= 6;
                match digits[..year_len].parse::<u64>() {
                    Ok(year) if dated && year < 1970 => Ok(Stamp(0)),
                    _ if dated && year_len > 4 => Ok(Stamp::LATEST_READ),
                    _ => Err(format!("{s:?} is not a time: {e}")),
                }
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_out_of_range_are_taken_to_the_nearest_end_and_always_written() {
        let read = |s: &str| Stamp::read(s);
        assert_eq!(
            read("2026-12-02T13:40:00.123Z"),
            Ok(Stamp(1_796_218_800_123))
        );
        assert_eq!(read("9999-12-31T23:59:59.999Z"), Ok(Stamp::LATEST_READ));
        assert_eq!(read("+10000-01-01T00:00:00Z"), Ok(Stamp::LATEST_READ));
        assert_eq!(read("1969-12-31T23:59:59Z"), Ok(Stamp(0)));
        assert_eq!(read("0001-01-01T00:00:00Z"), Ok(Stamp(0)));
        assert!(read("yesterday").is_err());
        assert!(read("12345").is_err());
        assert!(read("").is_err());
        for t in [Stamp(0), Stamp::LATEST_READ, Stamp::MAX, Stamp(u64::MAX)] {
            let written = serde_json::to_string(&t).unwrap();
            let back: Stamp = serde_json::from_str(&written).unwrap();
            assert!(back <= Stamp::LATEST_READ, "{written}");
        }
    }
}
