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
    if let Some(names) = python_list(cell) {
        return names
            .iter()
            .map(|n| fold(n))
            .filter(|n| !n.is_empty())
            .collect();
    }
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

/// Splits a table cell of short items (keywords): a Python list's
/// strings, else on `;` when it has any, else on commas.
pub fn split_list_cell(cell: &str) -> Vec<String> {
    let items: Vec<String> = match python_list(cell) {
        Some(items) => items,
        None => {
            let sep = if cell.contains(';') { ';' } else { ',' };
            cell.split(sep).map(str::to_string).collect()
        }
    };
    items
        .iter()
        .map(|i| fold(i))
        .filter(|i| !i.is_empty())
        .collect()
}

/// The strings of a cell written as a Python list, as scripts print one
/// (`['Ruochen Wang', "Dan O'Neil"]`, or without the brackets): `None`
/// unless the cell starts with a quoted string. A string ends at its
/// quote where a comma or the end follows, so a name whose own quote was
/// left unescaped (`'Dan O'Neil'`) stays whole; an item written without
/// quotes (`Tommaso d'Orsi`, as one list on OpenReview had its
/// double-quoted names unquoted) runs to the next comma. `\'`, `\"` and
/// `\\` are the quote and the backslash.
fn python_list(cell: &str) -> Option<Vec<String>> {
    let mut s = cell.trim();
    if let Some(inner) = s.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        s = inner.trim();
    }
    if !s.starts_with(['\'', '"']) {
        return None;
    }
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        let quote = b.get(i).copied().filter(|&c| c == b'\'' || c == b'"');
        let (item, next) = match quote {
            Some(q) => {
                let mut item = String::new();
                let mut j = i + 1;
                loop {
                    let k = j + memchr::memchr2(q, b'\\', b.get(j..)?)?;
                    item.push_str(&s[j..k]);
                    if b[k] == b'\\' {
                        let c = s[k + 1..].chars().next()?;
                        item.push(c);
                        j = k + 1 + c.len_utf8();
                        continue;
                    }
                    let mut after = k + 1;
                    while after < b.len() && b[after].is_ascii_whitespace() {
                        after += 1;
                    }
                    if after == b.len() || b[after] == b',' {
                        break (item, after + 1);
                    }
                    // A quote inside the string.
                    item.push(q as char);
                    j = k + 1;
                }
            }
            None => {
                let end = memchr::memchr(b',', &b[i..]).map_or(b.len(), |k| i + k);
                (s[i..end].to_string(), end + 1)
            }
        };
        out.push(item);
        i = next;
    }
    Some(out)
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
    fn python_lists_of_names_and_keywords() {
        assert_eq!(
            split_name_cell("'Ruochen Wang', 'Ting Liu', 'Cho-Jui Hsieh'"),
            ["Ruochen Wang", "Ting Liu", "Cho-Jui Hsieh"]
        );
        assert_eq!(
            split_name_cell("['Ada Lovelace', \"Dan O'Neil\"]"),
            ["Ada Lovelace", "Dan O'Neil"]
        );
        // Names whose quotes were lost or left unescaped stay whole.
        assert_eq!(
            split_name_cell("'Vincent Cohen-Addad', Tommaso d'Orsi, 'Aida Mousavifar'"),
            ["Vincent Cohen-Addad", "Tommaso d'Orsi", "Aida Mousavifar"]
        );
        assert_eq!(
            split_name_cell("'Dan O'Neil', 'Li Wu'"),
            ["Dan O'Neil", "Li Wu"]
        );
        assert_eq!(split_name_cell(r"'Dan O\'Neil'"), ["Dan O'Neil"]);
        // Not a list: read as before.
        assert_eq!(split_name_cell("'t Hooft, Gerard"), ["'t Hooft, Gerard"]);
        assert_eq!(
            split_name_cell("Jane Smith; Li Wu"),
            ["Jane Smith", "Li Wu"]
        );
        assert_eq!(split_list_cell("['graph', 'llm']"), ["graph", "llm"]);
        assert_eq!(
            split_list_cell("graph; large language models"),
            ["graph", "large language models"]
        );
        assert_eq!(split_list_cell("a, b,, c"), ["a", "b", "c"]);
        // An open quote never closed: linear, and no list.
        let open = format!("'{}", "a'b".repeat(100_000));
        assert_eq!(python_list(&open), None);
    }

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
