//! Which words an index built for one query posts: those starting with one
//! of the query's words (folded). Every other word is only counted, for
//! the field's length, so that the scores equal the whole index's.
//!
//! Most words of an abstract cannot match, and are told apart as written,
//! before folding: a word that is all ASCII folds to its lower case, and
//! a word starting with an ASCII letter folds to a word starting with
//! that letter in lower case, so those are compared byte by byte with no
//! allocation; only a word starting with another character is folded
//! first.

use super::super::fields::fold;

/// The folded prefixes a query-only index posts.
pub(super) struct Keep {
    prefixes: Vec<String>,
    /// Whether a word starting with this ASCII byte (lower case) can
    /// start with a prefix.
    first: [bool; 128],
    /// An empty prefix: every word is kept.
    all: bool,
}

impl Keep {
    pub(super) fn new(prefixes: Vec<String>) -> Keep {
        let prefixes: Vec<String> = prefixes.iter().map(|p| fold(p).into_owned()).collect();
        let mut first = [false; 128];
        for p in &prefixes {
            if let Some(&b) = p.as_bytes().first().filter(|b| b.is_ascii()) {
                first[b as usize] = true;
            }
        }
        Keep {
            all: prefixes.iter().any(String::is_empty),
            prefixes,
            first,
        }
    }

    /// Whether `word` (as written, not folded) folds to a word that
    /// starts with a prefix: `Some(answer)` when that is known without
    /// folding, `None` when the word must be folded to tell.
    #[inline]
    pub(super) fn keeps_raw(&self, word: &str) -> Option<bool> {
        if self.all {
            return Some(true);
        }
        let bytes = word.as_bytes();
        let first = *bytes.first()?;
        if first.is_ascii() && !self.first[first.to_ascii_lowercase() as usize] {
            return Some(false);
        }
        if !word.is_ascii() {
            return None;
        }
        // Its folding is its lower case: a prefix (lower case) starts it
        // when the first bytes are equal ignoring case.
        Some(
            self.prefixes.iter().any(|p| {
                bytes.len() >= p.len() && bytes[..p.len()].eq_ignore_ascii_case(p.as_bytes())
            }),
        )
    }

    /// Whether `folded` starts with a prefix.
    pub(super) fn keeps(&self, folded: &str) -> bool {
        self.all || self.prefixes.iter().any(|p| folded.starts_with(p.as_str()))
    }

    pub(super) fn prefixes(&self) -> &[String] {
        &self.prefixes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_told_apart_before_folding_as_after() {
        let keep = Keep::new(vec!["spa".into(), "hernan".into(), "é".into(), "ae".into()]);
        for w in [
            "Sparse",
            "spa",
            "SPAtial",
            "sp",
            "sparse",
            "hernández",
            "Hernández",
            "Hernan",
            "attention",
            "Émile",
            "émile",
            "Æsop",
            "aesop",
            "x",
            "1spa",
            "Ærø",
            "ß",
        ] {
            let folded = fold(w);
            let want = keep.keeps(&folded);
            if let Some(got) = keep.keeps_raw(w) {
                assert_eq!(got, want, "{w}");
            }
        }
        // "é" folds to "e": a prefix as typed is folded too.
        assert!(keep.keeps("emile"));
        assert_eq!(keep.keeps_raw("Émile"), None);
        assert_eq!(keep.keeps_raw("Zeta"), Some(false));
        assert!(Keep::new(vec![String::new()]).keeps_raw("anything") == Some(true));
    }
}
