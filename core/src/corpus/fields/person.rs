//! A name in its parts: given, particle (`van`, `de la`), family and
//! suffix (`Jr`, `III`), or a literal name (an organisation). Every
//! reader gives names so, by its format's rules, and everything after it
//! (the list's first-author column, sorting by family name, the exports,
//! the "Family, Given" order) reads the parts rather than guessing them
//! again from the name as shown.
//!
//! The rules each format writes names by:
//!
//! - BibTeX ([`Name::bibtex`]): `First von Last`, `von Last, First`,
//!   `von Last, Jr, First`; the von part is the words that start with a
//!   lower-case letter (a brace group's special character, `{\'e}`, by
//!   the letter it stands for); a name in braces, `{World Health
//!   Organization}`, is literal.
//! - RIS, Web of Science, MEDLINE, CSV cells of `Last, First`
//!   ([`Name::family_first`]): `Last, First, Suffix`; initials without
//!   spaces (`Baldwin,S.A.`) as written; no comma, a literal name.
//! - Free text, as JSON, Atom and OpenReview write names
//!   ([`Name::text`]): `Last, First` when it has a comma, else BibTeX's
//!   `First von Last`, with a trailing `Jr`, `Sr`, `II`, `III` or `IV` as
//!   the suffix.

/// Suffixes that end a name written given name first.
const SUFFIXES: &[&str] = &["jr", "jr.", "sr", "sr.", "ii", "iii", "iv"];

/// A name in its parts.
#[derive(Clone, Default, PartialEq, Eq, Debug)]
pub struct Name {
    /// Given names (`Ada`, `S.A.`, `Martin Luther`).
    pub given: String,
    /// The particle before the family name (`van`, `de la`).
    pub particle: String,
    /// The family name, or the whole of a literal name.
    pub family: String,
    /// `Jr`, `III`.
    pub suffix: String,
    /// A name not made of parts: an organisation, a collaboration.
    pub literal: bool,
}

/// Runs of white space folded to single spaces, trimmed.
fn fold(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl Name {
    /// A name of parts (each whitespace-folded).
    pub fn of(given: &str, particle: &str, family: &str, suffix: &str) -> Name {
        Name {
            given: fold(given),
            particle: fold(particle),
            family: fold(family),
            suffix: fold(suffix),
            literal: false,
        }
    }

    /// A literal name: shown as written, never split.
    pub fn literal(name: &str) -> Name {
        Name {
            family: fold(name),
            literal: true,
            ..Name::default()
        }
    }

    /// True when it has nothing to show.
    pub fn is_blank(&self) -> bool {
        self.given.is_empty()
            && self.particle.is_empty()
            && self.family.is_empty()
            && self.suffix.is_empty()
    }

    /// The name as shown, given name first: `Ludwig van Beethoven`,
    /// `Martin Luther King Jr`.
    pub fn display(&self) -> String {
        [&self.given, &self.particle, &self.family, &self.suffix]
            .into_iter()
            .filter(|p| !p.is_empty())
            .map(String::as_str)
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The name family name first: `van Beethoven, Ludwig`, `King,
    /// Martin Luther, Jr` (a literal name as written).
    pub fn family_first(parts: &[&str]) -> Name {
        match parts {
            [] => Name::default(),
            [whole] => Name::literal(whole),
            [last, first, rest @ ..] => {
                let (particle, family) = split_particle(last);
                Name::of(first, particle, family, &rest.join(" "))
            }
        }
    }

    /// The name written family name first, as [`Name::family_first`]
    /// reads it (`Lovelace, Ada`): its comma-separated parts.
    pub fn family_first_text(name: &str) -> Name {
        let parts: Vec<&str> = name.split(',').map(str::trim).collect();
        Name::family_first(&parts)
    }

    /// The name, family name first: `van Beethoven, Ludwig`; `King, Jr,
    /// Martin Luther` in BibTeX's order (`bibtex`), else `King, Martin
    /// Luther, Jr`.
    pub fn sorted(&self, bibtex: bool) -> String {
        if self.literal || self.given.is_empty() && self.suffix.is_empty() {
            return [&self.particle, &self.family]
                .into_iter()
                .filter(|p| !p.is_empty())
                .map(String::as_str)
                .collect::<Vec<_>>()
                .join(" ");
        }
        let last = [&self.particle, &self.family]
            .into_iter()
            .filter(|p| !p.is_empty())
            .map(String::as_str)
            .collect::<Vec<_>>()
            .join(" ");
        let mut out = last;
        let parts: [&str; 2] = if bibtex {
            [&self.suffix, &self.given]
        } else {
            [&self.given, &self.suffix]
        };
        for p in parts.into_iter().filter(|p| !p.is_empty()) {
            out.push_str(", ");
            out.push_str(p);
        }
        out
    }

    /// A BibTeX name as its comma-separated parts (already split at
    /// commas outside braces): `First von Last`, `von Last, First`, `von
    /// Last, Jr, First`. A name that is one brace group is literal.
    pub fn bibtex(parts: &[&str]) -> Name {
        let parts: Vec<&str> = parts.iter().map(|p| p.trim()).collect();
        match parts.as_slice() {
            [] => Name::default(),
            [one] => {
                if is_one_group(one) {
                    return Name::literal(one);
                }
                let words = words(one);
                // First: up to the first lower-case word (not the last);
                // von: from there to the last lower-case word before the
                // last word; Last: the rest.
                let n = words.len();
                if n == 1 {
                    return Name::of("", "", words[0], "");
                }
                let von_start = words[..n - 1].iter().position(|w| starts_lower(w));
                match von_start {
                    Some(s) => {
                        let von_end = (s..n - 1)
                            .rev()
                            .find(|&k| starts_lower(words[k]))
                            .map_or(s, |k| k + 1);
                        Name::of(
                            &words[..s].join(" "),
                            &words[s..von_end].join(" "),
                            &words[von_end..].join(" "),
                            "",
                        )
                    }
                    None => Name::of(&words[..n - 1].join(" "), "", words[n - 1], ""),
                }
            }
            [last, first] => {
                let (von, family) = split_von(last);
                Name::of(first, &von, &family, "")
            }
            [last, jr, first @ ..] => {
                let (von, family) = split_von(last);
                Name::of(&first.join(", "), &von, &family, jr)
            }
        }
    }

    /// A name written as free text: `Last, First` (a comma), else
    /// `First von Last` by BibTeX's rule, a trailing suffix apart.
    pub fn text(name: &str) -> Name {
        let name = fold(name);
        if name.contains(',') {
            let parts: Vec<&str> = name.split(',').map(str::trim).collect();
            // `King, Martin Luther, Jr.` (RIS order) and `Smith, Jr.,
            // John` (BibTeX's) both occur: a suffix is told by its word.
            return match parts.as_slice() {
                [last, mid, first] if is_suffix(mid) => {
                    let (particle, family) = split_particle(last);
                    Name::of(first, particle, family, mid)
                }
                _ => Name::family_first(&parts),
            };
        }
        let mut words: Vec<&str> = name.split(' ').filter(|w| !w.is_empty()).collect();
        let suffix = match words.as_slice() {
            [.., w] if words.len() > 2 && is_suffix(w) => words.pop(),
            _ => None,
        };
        let mut n = Name::bibtex(&[&words.join(" ")]);
        n.suffix = suffix.unwrap_or("").to_string();
        n.literal = false;
        n
    }
}

fn is_suffix(w: &str) -> bool {
    SUFFIXES.contains(&w.to_ascii_lowercase().as_str())
}

/// `s`'s words: split at white space outside braces.
fn words(s: &str) -> Vec<&str> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let (mut depth, mut start, mut i) = (0usize, None, 0);
    while i < b.len() {
        match b[i] {
            b'\\' => {
                start.get_or_insert(i);
                i += 1;
            }
            b'{' => {
                start.get_or_insert(i);
                depth += 1;
            }
            b'}' => depth = depth.saturating_sub(1),
            c if c.is_ascii_whitespace() && depth == 0 => {
                if let Some(s0) = start.take() {
                    out.push(&s[s0..i]);
                }
            }
            _ => {
                start.get_or_insert(i);
            }
        }
        i += 1;
    }
    if let Some(s0) = start {
        out.push(&s[s0..]);
    }
    out
}

/// True when `s` is one brace group: `{World Health Organization}`.
fn is_one_group(s: &str) -> bool {
    let Some(inner) = s.strip_prefix('{').and_then(|r| r.strip_suffix('}')) else {
        return false;
    };
    let mut depth = 0i32;
    let mut escaped = false;
    for c in inner.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth < 0 {
                    return false;
                }
            }
            _ => {}
        }
    }
    depth == 0
}

/// Whether a BibTeX word starts with a lower-case letter: its first
/// letter at brace depth 0, or a brace group's special character
/// (`{\'e}mile`) by the letter after its command; a group of plain text
/// (`{van}`) counts as upper case, as BibTeX has it.
fn starts_lower(word: &str) -> bool {
    let b = word.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'{' => {
                // A special character: `{\` then the command.
                if b.get(i + 1) == Some(&b'\\') {
                    let mut j = i + 2;
                    // The command: letters, or one other character.
                    if b.get(j).is_some_and(u8::is_ascii_alphabetic) {
                        let cmd_end = j + b[j..]
                            .iter()
                            .take_while(|c| c.is_ascii_alphabetic())
                            .count();
                        let cmd = &word[j..cmd_end];
                        // A letter command (`{\o}`, `{\ae}`, `{\ss}`) is
                        // its own letter's case.
                        if !matches!(cmd, "v" | "u" | "H" | "c" | "k" | "r" | "d" | "b" | "t") {
                            return cmd.starts_with(|c: char| c.is_ascii_lowercase());
                        }
                        j = cmd_end;
                    } else {
                        j += 1;
                    }
                    return word[j..]
                        .chars()
                        .find(|c| c.is_alphabetic())
                        .is_some_and(char::is_lowercase);
                }
                return false;
            }
            b'\\' => {
                // An accent at depth 0: `\'emile`.
                i += 2;
                while i < b.len() && !b[i].is_ascii_alphabetic() && b[i] != b'{' {
                    i += 1;
                }
                continue;
            }
            _ => {}
        }
        if let Some(c) = word[i..].chars().next()
            && c.is_alphabetic()
        {
            return c.is_lowercase();
        }
        i += word[i..].chars().next().map_or(1, char::len_utf8);
    }
    false
}

/// BibTeX's `von Last` part: the von words (up to the last lower-case
/// word before the last word) and the family name.
fn split_von(last: &str) -> (String, String) {
    let w = words(last);
    let n = w.len();
    if n <= 1 {
        return (String::new(), last.to_string());
    }
    match (0..n - 1).rev().find(|&k| starts_lower(w[k])) {
        Some(k) if starts_lower(w[0]) => (w[..=k].join(" "), w[k + 1..].join(" ")),
        _ => (String::new(), w.join(" ")),
    }
}

/// A family name's leading particle (`van Beethoven` → `van`,
/// `Beethoven`): its lower-case words before the last word.
fn split_particle(last: &str) -> (&str, &str) {
    let last = last.trim();
    let mut cut = 0;
    for (i, w) in last.split(' ').enumerate() {
        let rest = &last[cut..];
        if !rest.contains(' ') || !w.starts_with(|c: char| c.is_lowercase()) {
            let _ = i;
            break;
        }
        cut += w.len() + 1;
    }
    (last[..cut].trim_end(), &last[cut..])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(n: &Name) -> [&str; 4] {
        [&n.given, &n.particle, &n.family, &n.suffix]
    }

    #[test]
    fn bibtex_names_by_bibtex_rules() {
        let b = |s: &str| {
            let p: Vec<&str> =
                crate::corpus::fields::split_top(s, crate::corpus::fields::Split::Comma);
            Name::bibtex(&p)
        };
        assert_eq!(
            parts(&b("Ludwig van Beethoven")),
            ["Ludwig", "van", "Beethoven", ""]
        );
        assert_eq!(
            parts(&b("van Beethoven, Ludwig")),
            ["Ludwig", "van", "Beethoven", ""]
        );
        assert_eq!(
            parts(&b("von Hicks, III, Michael")),
            ["Michael", "von", "Hicks", "III"]
        );
        assert_eq!(
            parts(&b("Jean de la Fontaine")),
            ["Jean", "de la", "Fontaine", ""]
        );
        assert_eq!(
            parts(&b("Charles Louis Xavier Joseph de la Vallee Poussin")),
            ["Charles Louis Xavier Joseph", "de la", "Vallee Poussin", ""]
        );
        assert_eq!(
            parts(&b("Knuth, Donald E.")),
            ["Donald E.", "", "Knuth", ""]
        );
        assert_eq!(parts(&b("Brand")), ["", "", "Brand", ""]);
        assert_eq!(parts(&b("{\\'E}mile Zola")), ["{\\'E}mile", "", "Zola", ""]);
        // A lower-case special character starts a von part, as in BibTeX.
        assert_eq!(parts(&b("{\\'e}mile Zola")), ["", "{\\'e}mile", "Zola", ""]);
        assert_eq!(
            parts(&b("Jean {de La} Fontaine")),
            ["Jean {de La}", "", "Fontaine", ""]
        );
        let who = b("{World Health Organization}");
        assert!(who.literal);
        assert_eq!(who.display(), "{World Health Organization}");
        assert!(!b("{Ji\\v{r}\\'\\i} Matou{\\v{s}}ek").literal);
    }

    #[test]
    fn family_first_names_as_ris_writes_them() {
        let r = Name::family_first_text;
        assert_eq!(parts(&r("Light, Janice")), ["Janice", "", "Light", ""]);
        assert_eq!(parts(&r("Baldwin,S.A.")), ["S.A.", "", "Baldwin", ""]);
        assert_eq!(
            parts(&r("King, Martin Luther, Jr.")),
            ["Martin Luther", "", "King", "Jr."]
        );
        assert_eq!(
            parts(&r("van der Waals, Johannes")),
            ["Johannes", "van der", "Waals", ""]
        );
        let org = r("World Health Organization");
        assert!(org.literal);
        assert_eq!(org.display(), "World Health Organization");
    }

    #[test]
    fn free_text_names() {
        assert_eq!(
            parts(&Name::text("Ada Lovelace")),
            ["Ada", "", "Lovelace", ""]
        );
        assert_eq!(
            parts(&Name::text("Martin Luther King Jr.")),
            ["Martin Luther", "", "King", "Jr."]
        );
        assert_eq!(
            parts(&Name::text("Smith, Jr., John")),
            ["John", "", "Smith", "Jr."]
        );
        assert_eq!(
            parts(&Name::text("Johannes van der Waals")),
            ["Johannes", "van der", "Waals", ""]
        );
        assert_eq!(
            Name::text("Ludwig van Beethoven").sorted(false),
            "van Beethoven, Ludwig"
        );
        assert_eq!(
            Name::text("Martin Luther King Jr.").sorted(true),
            "King, Jr., Martin Luther"
        );
        assert_eq!(
            Name::text("Martin Luther King Jr.").sorted(false),
            "King, Martin Luther, Jr."
        );
        assert_eq!(Name::text("Plato").sorted(false), "Plato");
    }
}
