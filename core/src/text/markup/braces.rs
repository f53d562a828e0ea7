//! The pieces of LaTeX's syntax that text mode and math mode both read:
//! a `{…}` group, its argument form, and a command's name. Apart from
//! both readers so that neither has to import the other for them.

use super::scan::{Scan, count};

/// Reads one `{…}` argument after optional spaces: (inner text, bytes used).
pub(super) fn brace_arg<'s>(scan: &mut Scan<'_>, s: &'s str) -> Option<(&'s str, usize)> {
    let skipped = s.len() - s.trim_start_matches([' ', '\n']).len();
    count(skipped);
    let t = &s[skipped..];
    let close = scan.matching_brace(t)?;
    Some((&t[1..close], skipped + close + 1))
}

pub(super) fn command_name(s: &str) -> &str {
    let end = s
        .char_indices()
        .find(|(_, c)| !c.is_ascii_alphabetic())
        .map_or(s.len(), |(i, _)| i);
    &s[..end]
}
