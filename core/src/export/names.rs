//! Author names as each output writes them, in one place: a list joined
//! for people and spreadsheets, and BibTeX's `and`-separated list, which
//! its readers split into names again.
//!
//! A name goes out in its parts as the readers found them: given name
//! first for people and spreadsheets (the same order the screen shows),
//! and in BibTeX as `von Last, Jr, First`, the one form every BibTeX
//! reader splits the same way, so `Ludwig van Beethoven` and `Martin
//! Luther King Jr` come back with their particle and suffix where they
//! were. An organisation's name is braced whole, as BibTeX writes a
//! corporate name; so is any name the BibTeX reader would not read back
//! as the same parts.

use crate::corpus::Authors;
use crate::corpus::fields::Name;

/// A name as text that reads back as the same parts: as shown, given
/// name first (`Ada Lovelace`), unless the free-text rule would part it
/// otherwise (`Alireza Sahami Shirazi`, whose family name is two words);
/// that one is written family name first (`Sahami Shirazi, Alireza`),
/// which every reader of names in text takes as written. An
/// organisation's name goes as written.
pub(super) fn as_text(name: &Name) -> String {
    let shown = name.display();
    if name.literal || Name::text(&shown) == *name {
        return shown;
    }
    let sorted = name.sorted(false);
    if Name::text(&sorted) == *name {
        sorted
    } else {
        shown
    }
}

/// A CSV cell of names: each [`as_text`], joined by `; `. A lone name
/// holding a comma ends with `;`, so that a reader of the cell does not
/// take its comma for one between names.
pub(super) fn cell(authors: &Authors) -> String {
    let names: Vec<String> = authors.names().map(|n| as_text(&n)).collect();
    let mut out = names.join("; ");
    if names.len() == 1 && out.contains(',') {
        out.push(';');
    }
    out
}

/// Authors serialized as a list of names [`as_text`] (JSON).
pub struct AsText<'a>(pub &'a Authors);

impl serde::Serialize for AsText<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.names().map(|n| as_text(&n)))
    }
}

/// The value of a BibTeX `author` field for `authors`: each name written
/// by `escape` (the writer's LaTeX escaping) and checked against the
/// BibTeX reader's reading of it; a name it would not read back as
/// itself is braced whole.
pub(super) fn bibtex(authors: &Authors, escape: impl Fn(&str) -> String) -> String {
    use crate::corpus::bibtex::value;
    let written: Vec<String> = authors
        .names()
        .map(|name| {
            let braced = || format!("{{{}}}", escape(&name.display()));
            if name.literal {
                return braced();
            }
            let parts = Name {
                given: escape(&name.given),
                particle: escape(&name.particle),
                family: escape(&name.family),
                suffix: escape(&name.suffix),
                literal: false,
            };
            let reads_back =
                |plain: &str| matches!(value::names(plain).as_slice(), [read] if *read == name);
            let plain = parts.sorted(true);
            if reads_back(&plain) {
                return plain;
            }
            // A family name BibTeX would part (`{van Greunen}`, whose
            // `van` is not a particle here) is braced.
            let plain = Name {
                family: format!("{{{}}}", parts.family),
                ..parts
            }
            .sorted(true);
            if reads_back(&plain) { plain } else { braced() }
        })
        .collect();
    written.join(" and ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn authors(names: Vec<Name>) -> Authors {
        Authors::from_names(names)
    }

    #[test]
    fn bibtex_writes_von_last_jr_first_and_braces_an_organisation() {
        let a = authors(vec![
            Name::of("Ludwig", "van", "Beethoven", ""),
            Name::of("Martin Luther", "", "King", "Jr"),
            Name::of("J", "", "van Greunen", ""),
            Name::literal("World Health Organization"),
        ]);
        assert_eq!(
            bibtex(&a, str::to_string),
            "van Beethoven, Ludwig and King, Jr, Martin Luther and {van Greunen}, J \
             and {World Health Organization}"
        );
    }

    #[test]
    fn text_is_given_first_unless_the_parts_would_be_lost() {
        assert_eq!(
            as_text(&Name::of("Ada", "", "Lovelace", "")),
            "Ada Lovelace"
        );
        assert_eq!(
            as_text(&Name::of("Ludwig", "van", "Beethoven", "")),
            "Ludwig van Beethoven"
        );
        assert_eq!(
            as_text(&Name::of("Alireza", "", "Sahami Shirazi", "")),
            "Sahami Shirazi, Alireza"
        );
        let one = authors(vec![Name::of("Alireza", "", "Sahami Shirazi", "")]);
        assert_eq!(cell(&one), "Sahami Shirazi, Alireza;");
        let two = authors(vec![
            Name::of("Ada", "", "Lovelace", ""),
            Name::of("Alireza", "", "Sahami Shirazi", ""),
        ]);
        assert_eq!(cell(&two), "Ada Lovelace; Sahami Shirazi, Alireza");
    }
}
