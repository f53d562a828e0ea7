//! Author names: splitting a field that holds several, and putting
//! `Last, First` in reading order.
//!
//! Formats list names differently and the readers keep their own rules
//! on purpose (a CSV cell `Smith, J; Wu, L` is two names written last
//! name first, kept as written; BibTeX's `and` never splits inside
//! braces); the rules live here side by side so they can be compared.

/// Runs of white space folded to single spaces, trimmed.
fn fold(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Splits a string of names (JSON): on `;` when it has any (`Smith, J.;
/// Lee, C.`), otherwise on `,` and ` and ` (`A. Smith, B. Jones and C.
/// Lee`).
pub fn split_names(s: &str) -> Vec<String> {
    let s = fold(s);
    let parts: Vec<&str> = if s.contains(';') {
        s.split(';').collect()
    } else {
        s.split(',').flat_map(|p| p.split(" and ")).collect()
    };
    parts
        .into_iter()
        .map(|p| {
            let p = p.trim();
            p.strip_prefix("and ").unwrap_or(p).trim()
        })
        .filter(|p| !p.is_empty())
        .map(str::to_owned)
        .collect()
}

/// Splits a table cell of names (CSV): on `;` when it has any, else on
/// ` and ` and then commas, where commas split only when every piece has
/// two words or more (`Jane Smith, Li Wu` is two names, `Smith, Jane`
/// one).
pub fn split_name_cell(cell: &str) -> Vec<String> {
    let cell = fold(cell);
    let parts: Vec<String> = if cell.contains(';') {
        cell.split(';').map(str::to_string).collect()
    } else if cell.contains(" and ") {
        cell.split(" and ").flat_map(split_commas).collect()
    } else {
        split_commas(&cell)
    };
    parts
        .into_iter()
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty())
        .collect()
}

/// `Jane Smith, Li Wu` → two names; `Smith, Jane` → one.
fn split_commas(s: &str) -> Vec<String> {
    let pieces: Vec<&str> = s
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    if pieces.len() >= 2 && pieces.iter().all(|p| p.split_whitespace().count() >= 2) {
        pieces.into_iter().map(str::to_string).collect()
    } else {
        vec![s.to_string()]
    }
}

/// Where [`split_top`] splits.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Split {
    /// At the word `and` (any case) between spaces.
    And,
    /// At commas.
    Comma,
}

/// Splits `s` at brace depth 0 (BibTeX: `{Barnes and Noble}` is one
/// name, `\{` no brace).
pub fn split_top(s: &str, by: Split) -> Vec<&str> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1,
            b'{' => depth += 1,
            b'}' => depth = depth.saturating_sub(1),
            b',' if depth == 0 && by == Split::Comma => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            c if depth == 0 && by == Split::And && c.is_ascii_whitespace() => {
                let word = b.get(i + 1..i + 4);
                let after = b.get(i + 4);
                if word.is_some_and(|w| w.eq_ignore_ascii_case(b"and"))
                    && after.is_some_and(u8::is_ascii_whitespace)
                {
                    out.push(&s[start..i]);
                    start = i + 4;
                    i += 4;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    out.push(&s[start.min(s.len())..]);
    out
}

/// A name's comma-separated parts in reading order: `Last, First` →
/// `First Last`; `Last, Jr, First` → `First Last Jr`; one part as it is.
pub fn ordered_name(parts: &[&str]) -> String {
    match parts {
        [last, first] if !first.is_empty() => format!("{first} {last}"),
        [last, jr, first @ ..] if parts.len() >= 3 => {
            let first = first.join(", ");
            [first.as_str(), last, jr]
                .iter()
                .filter(|p| !p.is_empty())
                .copied()
                .collect::<Vec<_>>()
                .join(" ")
        }
        _ => parts.join(" "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_strings_of_names() {
        assert_eq!(
            split_names("A. Smith, B. Jones and C. Lee"),
            ["A. Smith", "B. Jones", "C. Lee"]
        );
        assert_eq!(
            split_names("Smith, J.;  Lee,\n C."),
            ["Smith, J.", "Lee, C."]
        );
        assert_eq!(split_names("A, and B"), ["A", "B"]);
        assert!(split_names(" ; ").is_empty());
    }

    #[test]
    fn table_cells_of_names() {
        assert_eq!(
            split_name_cell("Jane Smith, Li Wu"),
            ["Jane Smith", "Li Wu"]
        );
        assert_eq!(split_name_cell("Smith, Jane"), ["Smith, Jane"]);
        assert_eq!(split_name_cell("Smith, J; Wu, L"), ["Smith, J", "Wu, L"]);
        assert_eq!(
            split_name_cell("Jane Smith and Li Wu, Bo Chen"),
            ["Jane Smith", "Li Wu", "Bo Chen"]
        );
    }

    #[test]
    fn and_lists_split_outside_braces() {
        assert_eq!(
            split_top("A and {Barnes and Noble} AND C", Split::And),
            ["A", " {Barnes and Noble}", " C"]
        );
        assert_eq!(
            split_top("Last, {Jr, x}, First", Split::Comma),
            ["Last", " {Jr, x}", " First"]
        );
    }

    #[test]
    fn last_first_in_reading_order() {
        assert_eq!(ordered_name(&["Hu", "Edward J."]), "Edward J. Hu");
        assert_eq!(
            ordered_name(&["King", "Jr", "Martin Luther"]),
            "Martin Luther King Jr"
        );
        assert_eq!(ordered_name(&["Edward J. Hu"]), "Edward J. Hu");
        assert_eq!(ordered_name(&["Hu", ""]), "Hu ");
    }
}
