//! JSON and JSON Lines. (Being written.)

use super::Parsed;

/// Parses an input in this format.
pub fn parse(_text: &str) -> Parsed {
    Parsed::default()
}
