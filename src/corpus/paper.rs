//! A paper ready to show, and its author names.

use std::fmt;
use std::sync::Arc;

use super::{Abstract, PaperId, Variant};

/// One paper, ready to show: every text field sanitized.
#[derive(Clone, PartialEq, Debug)]
pub struct Paper {
    /// Stable identity.
    pub id: PaperId,
    /// The title, given or derived (may hold light markup when given).
    pub title: String,
    /// True when the title was derived from the abstract.
    pub title_derived: bool,
    /// The abstract (paragraphs separated by `\n\n`); empty when the record
    /// had none.
    pub abstract_text: Abstract,
    /// The list the paper came from (a header line, or the file name),
    /// shared by the papers of a list.
    pub source: Arc<str>,
    /// Position in its list, from 0.
    pub position: u32,
    /// Author names as written.
    pub authors: Authors,
    /// Publication year.
    pub year: Option<i32>,
    /// Journal, conference or venue.
    pub venue: Option<String>,
    /// Links given by the record (URLs and the DOI's link); see
    /// [`Paper::links`].
    pub record_links: Vec<String>,
    /// Further lists that held the same paper.
    pub also_in: Vec<Arc<str>>,
    /// The id this paper had before its reader read the one it has now
    /// (see [`Record::former_id`]).
    pub former_id: Option<PaperId>,
    /// What tells this paper from another with the same title and
    /// abstract (see [`Variant`]); empty when its id is its record's own.
    pub variant: Variant,
    /// The fields few records have (keywords, OpenReview's forum and
    /// venue ids, arXiv's categories and announce type); `None` when it
    /// has none, so that a paper without them costs one pointer.
    pub more: Option<Box<More>>,
}

/// The fields of a paper that few records have.
#[derive(Clone, Default, PartialEq, Eq, Debug)]
pub struct More {
    /// Keywords, as the record gives them (OpenReview's, a CSV column).
    pub keywords: Vec<String>,
    /// arXiv categories, primary first (`cs.LG`).
    pub categories: Vec<String>,
    /// The OpenReview forum id (`frA0NNBS1n`).
    pub forum: Option<String>,
    /// OpenReview's venue id (`ICML.cc/2024/Conference`).
    pub venue_id: Option<String>,
    /// How arXiv announced the paper in a feed: `new`, `cross`, `replace`
    /// or `replace-cross` (a replacement is a new version of a paper
    /// announced before, not a new paper).
    pub announce: Option<String>,
}

impl More {
    /// True when it holds nothing.
    pub fn is_empty(&self) -> bool {
        *self == More::default()
    }

    /// The fields a reader is shown (keywords, categories, how arXiv
    /// announced it), each named, with its values; the ids are shown as
    /// links.
    pub fn labelled(&self) -> Vec<(&'static str, Vec<&str>)> {
        fn list(v: &[String]) -> Vec<&str> {
            v.iter().map(String::as_str).collect()
        }
        fn one(v: &Option<String>) -> Vec<&str> {
            v.iter().map(String::as_str).collect()
        }
        [
            ("keywords", list(&self.keywords)),
            ("categories", list(&self.categories)),
            ("announced", one(&self.announce)),
        ]
        .into_iter()
        .filter(|(_, v)| !v.is_empty())
        .collect()
    }

    /// Fills what `self` lacks from `other`.
    pub fn fill_from(&mut self, other: &More) {
        let fill_list = |mine: &mut Vec<String>, theirs: &[String]| {
            if mine.is_empty() {
                mine.extend_from_slice(theirs);
            }
        };
        let fill_one = |mine: &mut Option<String>, theirs: &Option<String>| {
            if mine.is_none() {
                mine.clone_from(theirs);
            }
        };
        fill_list(&mut self.keywords, &other.keywords);
        fill_list(&mut self.categories, &other.categories);
        fill_one(&mut self.forum, &other.forum);
        fill_one(&mut self.venue_id, &other.venue_id);
        fill_one(&mut self.announce, &other.announce);
    }
}

impl Paper {
    /// A paper of an id and a title alone, at `position` in list
    /// `source`: every other field empty.
    pub fn bare(id: PaperId, title: String, source: Arc<str>, position: u32) -> Paper {
        Paper {
            id,
            title,
            title_derived: false,
            abstract_text: Abstract::default(),
            source,
            position,
            authors: Authors::default(),
            year: None,
            venue: None,
            record_links: Vec::new(),
            also_in: Vec::new(),
            former_id: None,
            variant: Variant::default(),
            more: None,
        }
    }

    /// Fills what this paper lacks from `other`, the same paper met in
    /// another list: its abstract, authors, year, venue, links (each
    /// added once) and rare fields where this one has none. Its title
    /// and id stay.
    pub fn fill_from(&mut self, other: Paper) {
        if self.abstract_text.is_empty() && !other.abstract_text.is_empty() {
            self.abstract_text = other.abstract_text;
        }
        if self.authors.is_empty() {
            self.authors = other.authors;
        }
        self.year = self.year.or(other.year);
        if self.venue.is_none() {
            self.venue = other.venue;
        }
        for link in other.record_links {
            if !self.record_links.contains(&link) {
                self.record_links.push(link);
            }
        }
        match (&mut self.more, other.more) {
            (Some(mine), Some(theirs)) => mine.fill_from(&theirs),
            (mine @ None, theirs) => *mine = theirs,
            (Some(_), None) => {}
        }
    }

    /// The paper's keywords, OpenReview ids and the like: empty when it
    /// has none.
    pub fn more(&self) -> &More {
        static NONE: More = More {
            keywords: Vec::new(),
            categories: Vec::new(),
            forum: None,
            venue_id: None,
            announce: None,
        };
        self.more.as_deref().unwrap_or(&NONE)
    }

    /// The paper's DOI: as its record's resolver link writes it (case
    /// kept, `fields::doi_link`), else its id's (lower case).
    pub fn doi(&self) -> Option<std::borrow::Cow<'_, str>> {
        let from_link = self
            .record_links
            .iter()
            .find_map(|l| super::fields::doi_link(l));
        let from_id = self.id.as_str().strip_prefix("doi:");
        match (from_link, from_id) {
            (Some(link), Some(id)) if !link.eq_ignore_ascii_case(id) => {
                Some(std::borrow::Cow::Borrowed(id))
            }
            (Some(link), _) => Some(std::borrow::Cow::Borrowed(link)),
            (None, id) => id.map(std::borrow::Cow::Borrowed),
        }
    }

    /// The paper's arXiv id: its id's, else one an arxiv.org link (or
    /// arXiv's DOI) of its record names.
    pub fn arxiv_id(&self) -> Option<std::borrow::Cow<'_, str>> {
        if let Some(a) = self.id.as_str().strip_prefix("arxiv:") {
            return Some(std::borrow::Cow::Borrowed(a));
        }
        self.record_links
            .iter()
            .find_map(|l| super::fields::arxiv_in(l, false))
            .map(|a| std::borrow::Cow::Owned(super::fields::arxiv_key(&a).to_string()))
    }

    /// The paper's links: the record's, then the arXiv abstract page when
    /// the id is an arXiv one (unless the record's last link is that).
    pub fn links(&self) -> Vec<String> {
        let mut links = self.record_links.clone();
        if let Some(a) = self.id.as_str().strip_prefix("arxiv:") {
            let abs = format!("https://arxiv.org/abs/{a}");
            if links.last() != Some(&abs) {
                links.push(abs);
            }
        }
        if let Some(forum) = &self.more().forum
            && !links
                .iter()
                .any(|l| super::fields::forum_in(l) == Some(forum))
        {
            links.push(format!("https://openreview.net/forum?id={forum}"));
        }
        links
    }
}

/// Author names (none blank; a paper's are sanitized), kept as one
/// string, the names separated by a control character that sanitizing
/// never leaves in a name: one allocation a paper rather than one a name
/// and one for the list (the arXiv snapshot has about five names a
/// paper).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Authors(Box<str>);

/// Between two names in [`Authors`].
pub(crate) const NAME_SEP: char = '\u{1F}';

impl Authors {
    /// Names already joined by [`NAME_SEP`], none blank.
    pub(crate) fn from_joined(joined: String) -> Authors {
        Authors(joined.into())
    }

    /// The names joined by [`NAME_SEP`], as [`Authors::from_joined`] takes them.
    pub(crate) fn joined(&self) -> &str {
        &self.0
    }

    /// The names in order.
    pub fn iter(&self) -> impl Iterator<Item = &str> + Clone {
        self.0.split(NAME_SEP).filter(|n| !n.is_empty())
    }

    /// The number of names.
    pub fn len(&self) -> usize {
        if self.0.is_empty() {
            0
        } else {
            self.0.matches(NAME_SEP).count() + 1
        }
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// True when sanitizing would change no name. One pass over them all
    /// tells for names of printable ASCII and accented Latin letters
    /// (`fold::plain_word_byte`; most names): no doubled space, none at a
    /// name's ends (as `sanitize::line` leaves a line); the others are
    /// sanitized to tell.
    pub(crate) fn all_clean(&self) -> bool {
        let b = self.0.as_bytes();
        const SEP: u8 = NAME_SEP as u8;
        let printable = b.iter().fold(true, |ok, &c| {
            ok & ((c == b' ') | (c == SEP) | crate::corpus::fold::plain_word_byte(c))
        });
        let spaced = b
            .iter()
            .zip(b.get(1..).unwrap_or(&[]))
            .fold(false, |bad, (&x, &y)| {
                bad | ((x == b' ') & ((y == b' ') | (y == SEP))) | ((x == SEP) & (y == b' '))
            });
        let ends = b.first() != Some(&b' ') && b.last() != Some(&b' ');
        (printable && !spaced && ends)
            || self.iter().all(|a| crate::text::sanitize::line_cow(a) == a)
    }

    /// The names joined by `sep`.
    pub fn join(&self, sep: &str) -> String {
        self.iter().collect::<Vec<_>>().join(sep)
    }
}

impl<S: AsRef<str>> FromIterator<S> for Authors {
    /// Blank names are left out; a name holding the separator (which
    /// sanitized text never does) has it as a space.
    fn from_iter<I: IntoIterator<Item = S>>(names: I) -> Self {
        let mut all = String::new();
        for name in names {
            let name = name.as_ref();
            if name.trim().is_empty() {
                continue;
            }
            if !all.is_empty() {
                all.push(NAME_SEP);
            }
            all.extend(name.chars().map(|c| if c == NAME_SEP { ' ' } else { c }));
        }
        Authors(all.into())
    }
}

impl std::ops::Index<usize> for Authors {
    type Output = str;

    /// Name `i` (panics past the last, as a list does).
    fn index(&self, i: usize) -> &str {
        self.iter().nth(i).expect("an author's index past the last")
    }
}

impl<T: AsRef<str>> PartialEq<[T]> for Authors {
    fn eq(&self, other: &[T]) -> bool {
        self.iter().eq(other.iter().map(AsRef::as_ref))
    }
}

impl<T: AsRef<str>, const N: usize> PartialEq<[T; N]> for Authors {
    fn eq(&self, other: &[T; N]) -> bool {
        *self == other[..]
    }
}

impl<T: AsRef<str>> PartialEq<Vec<T>> for Authors {
    fn eq(&self, other: &Vec<T>) -> bool {
        *self == other[..]
    }
}

impl fmt::Debug for Authors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl serde::Serialize for Authors {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

#[cfg(test)]
mod tests {
    use proptest::strategy::{Just, Strategy};

    use super::*;

    proptest::proptest! {
        /// Names are told clean at once exactly when sanitizing each would
        /// change none: spaces doubled or at an end, controls, characters
        /// past ASCII (accented letters, which the pass takes, and white
        /// space, invisible and control characters past ASCII, which it
        /// leaves to sanitizing, about the edges of the range it takes).
        #[test]
        fn names_are_clean_when_sanitizing_changes_none(
            names in proptest::collection::vec(
                proptest::collection::vec(
                    proptest::prop_oneof![
                        8 => "[A-Za-z.\\-]{1,6}",
                        4 => Just(" ".to_string()),
                        1 => "[\\u{7}\\u{7f}\\u{e9}\\u{200b}\\u{a0}\\u{ad}\\u{85}\\u{bf}\\u{c0}\\u{f1}\\u{2ff}\\u{300}\\u{61c}]",
                    ],
                    1..5,
                )
                .prop_map(|parts| parts.concat()),
                0..4,
            ),
        ) {
            let mut joined = String::new();
            for n in names.iter().filter(|n| !n.is_empty()) {
                if !joined.is_empty() {
                    joined.push(NAME_SEP);
                }
                joined.push_str(n);
            }
            let authors = Authors::from_joined(joined);
            let each = authors.iter().all(|a| crate::text::sanitize::line_cow(a) == a);
            proptest::prop_assert_eq!(authors.all_clean(), each, "{:?}", names);
        }
    }
}
