//! A paper ready to show, and its author names.

use std::fmt;
use std::sync::Arc;

use super::fields::Name;
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
    /// People other than the authors, with their roles, in the order
    /// given: (`editor`, `Ada Lovelace`), (`inventor`, …).
    pub roles: Vec<(String, String)>,
}

impl From<More> for Option<Box<More>> {
    /// Boxed, or nothing when it holds nothing: what records and papers
    /// keep.
    fn from(more: More) -> Option<Box<More>> {
        (!more.is_empty()).then(|| Box::new(more))
    }
}

/// The fields of a paper that has none of them.
pub(crate) static NO_MORE: More = More {
    keywords: Vec::new(),
    categories: Vec::new(),
    forum: None,
    venue_id: None,
    announce: None,
    roles: Vec::new(),
};

impl More {
    /// True when it holds nothing.
    pub fn is_empty(&self) -> bool {
        *self == More::default()
    }

    /// The fields a reader is shown (keywords, categories, how arXiv
    /// announced it), each named, with its values; the ids are shown as
    /// links.
    pub fn labelled(&self) -> Vec<(&str, Vec<&str>)> {
        fn list(v: &[String]) -> Vec<&str> {
            v.iter().map(String::as_str).collect()
        }
        fn one(v: &Option<String>) -> Vec<&str> {
            v.iter().map(String::as_str).collect()
        }
        let mut out: Vec<(&str, Vec<&str>)> = Vec::new();
        // People by role, each role once, in the order first met.
        for (role, _) in &self.roles {
            if out.iter().any(|(r, _)| r == role) {
                continue;
            }
            let names = self
                .roles
                .iter()
                .filter(|(r, _)| r == role)
                .map(|(_, n)| n.as_str())
                .collect();
            out.push((role.as_str(), names));
        }
        out.extend(
            [
                ("keywords", list(&self.keywords)),
                ("categories", list(&self.categories)),
                ("announced", one(&self.announce)),
            ]
            .into_iter()
            .filter(|(_, v)| !v.is_empty()),
        );
        out
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
        if self.roles.is_empty() {
            self.roles.clone_from(&other.roles);
        }
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
        self.more.as_deref().unwrap_or(&NO_MORE)
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
///
/// Each name is kept as shown, given name first (`Ludwig van
/// Beethoven`). Where its reader knew the parts (BibTeX, RIS, CSL-JSON),
/// the string ends with their shape, after [`SHAPE_SEP`]: three bytes a
/// name, the number of words of the given name, the particle and the
/// family name (the suffix is the rest), `~~~` for a literal name and
/// `!!!` for one whose parts are told from the words when asked
/// ([`Name::text`]). A list none of whose parts are known has no shape.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Authors(Box<str>);

/// Between two names in [`Authors`].
pub(crate) const NAME_SEP: char = '\u{1F}';

/// Between the names in [`Authors`] and their shapes.
pub(crate) const SHAPE_SEP: char = '\u{1E}';

/// The shape of a literal name.
const LITERAL: &[u8; 3] = b"~~~";
/// The shape of a name whose parts are not known.
const UNKNOWN: &[u8; 3] = b"!!!";
/// Most words a part may have in a shape (its count is one byte from
/// `0`, below the two marks).
const MOST_WORDS: usize = 40;

/// The shape of `name` (see [`Authors`]).
pub(crate) fn shape_of(name: &Name) -> [u8; 3] {
    if name.literal {
        return *LITERAL;
    }
    let count = |p: &str| p.split(' ').filter(|w| !w.is_empty()).count();
    let (g, p, f) = (
        count(&name.given),
        count(&name.particle),
        count(&name.family),
    );
    if g.max(p).max(f) > MOST_WORDS {
        return *UNKNOWN;
    }
    [b'0' + g as u8, b'0' + p as u8, b'0' + f as u8]
}

impl Authors {
    /// Names already joined by [`NAME_SEP`], none blank.
    pub(crate) fn from_joined(joined: String) -> Authors {
        Authors(joined.into())
    }

    /// Names in their parts, in order; blank ones are left out.
    pub fn from_names(names: impl IntoIterator<Item = Name>) -> Authors {
        Authors::build(names.into_iter().map(|n| {
            let shape = shape_of(&n);
            (n.display(), shape)
        }))
    }

    /// Names as a format writes them in free text: one written family
    /// name first (`Smith, Jane`) is read into its parts and shown given
    /// name first; the others are kept as written, their parts told from
    /// their words when asked (no work for the common case).
    pub fn from_written<S: AsRef<str>>(names: impl IntoIterator<Item = S>) -> Authors {
        Authors::build(names.into_iter().map(|n| {
            let n = n.as_ref();
            if n.contains(',') {
                let name = Name::text(n);
                let shape = shape_of(&name);
                (name.display(), shape)
            } else {
                (n.to_string(), *UNKNOWN)
            }
        }))
    }

    /// Names as shown with their shapes; blank ones are left out, and the
    /// shapes are kept only when one is known.
    fn build(names: impl Iterator<Item = (String, [u8; 3])>) -> Authors {
        let mut all = String::new();
        let mut shapes: Vec<u8> = Vec::new();
        let mut known = false;
        for (shown, shape) in names {
            if shown.trim().is_empty() {
                continue;
            }
            if !all.is_empty() {
                all.push(NAME_SEP);
            }
            push_name(&mut all, &shown);
            // A name holding the separators was written with spaces: its
            // parts are told from its words.
            let shape = if shown.contains([NAME_SEP, SHAPE_SEP]) {
                *UNKNOWN
            } else {
                shape
            };
            known |= &shape != UNKNOWN;
            shapes.extend_from_slice(&shape);
        }
        if known {
            all.push(SHAPE_SEP);
            all.push_str(std::str::from_utf8(&shapes).unwrap_or(""));
        }
        Authors(all.into())
    }

    /// The names and shapes as kept (for the cache), as
    /// [`Authors::from_encoded`] takes them.
    pub(crate) fn encoded(&self) -> &str {
        &self.0
    }

    /// What [`Authors::encoded`] gave.
    pub(crate) fn from_encoded(s: String) -> Authors {
        Authors(s.into())
    }

    /// The names joined by [`NAME_SEP`], without their shapes.
    pub(crate) fn joined(&self) -> &str {
        match self.shape_at() {
            Some(at) => &self.0[..at],
            None => &self.0,
        }
    }

    /// Where [`SHAPE_SEP`] is, if the names have shapes: looked for from
    /// the end, where it is, and only when the last byte can end shapes
    /// (names are read so for every paper a load makes).
    fn shape_at(&self) -> Option<usize> {
        let b = self.0.as_bytes();
        // Shapes end in a count or a mark; most names end in a letter.
        match b.last() {
            Some(c) if c.is_ascii_digit() || *c == b'~' || *c == b'!' => {
                memchr::memrchr(SHAPE_SEP as u8, b)
            }
            _ => None,
        }
    }

    /// The shapes, three bytes a name, when known.
    fn shapes(&self) -> Option<&[u8]> {
        self.shape_at()
            .map(|at| &self.0.as_bytes()[at + SHAPE_SEP.len_utf8()..])
    }

    /// The names in order, as shown (given name first).
    pub fn iter(&self) -> impl Iterator<Item = &str> + Clone {
        self.joined().split(NAME_SEP).filter(|n| !n.is_empty())
    }

    /// The names in their parts: as their reader found them, else told
    /// from the words shown ([`Name::text`]).
    pub fn names(&self) -> impl Iterator<Item = Name> + '_ {
        let shapes = self.shapes().unwrap_or(&[]);
        self.iter()
            .enumerate()
            .map(move |(i, shown)| match shapes.get(3 * i..3 * i + 3) {
                Some(s) if s == LITERAL => Name::literal(shown),
                Some(s) if s != UNKNOWN && s.iter().all(|&b| b >= b'0') => {
                    let words: Vec<&str> = shown.split(' ').collect();
                    let (g, p, f) = (
                        usize::from(s[0] - b'0'),
                        usize::from(s[1] - b'0'),
                        usize::from(s[2] - b'0'),
                    );
                    if g + p + f > words.len() || f == 0 {
                        return Name::text(shown);
                    }
                    let part = |from: usize, to: usize| words[from..to].join(" ");
                    Name::of(
                        &part(0, g),
                        &part(g, g + p),
                        &part(g + p, g + p + f),
                        &part(g + p + f, words.len()),
                    )
                }
                _ => Name::text(shown),
            })
    }

    /// The first name's family name without its particle (a literal
    /// name whole): what a narrow list shows of the authors.
    pub fn first_family(&self) -> Option<String> {
        Some(self.names().next()?.family)
    }

    /// The names as shown in `order`.
    pub fn shown(&self, order: NameOrder) -> Vec<String> {
        match order {
            NameOrder::GivenFirst => self.iter().map(String::from).collect(),
            NameOrder::FamilyFirst => self.names().map(|n| n.sorted(false)).collect(),
        }
    }

    /// The names sanitized (see [`crate::text::sanitize::line`]), each
    /// keeping its parts where sanitizing left its words as they were.
    pub(crate) fn sanitized(&self) -> Authors {
        let shapes = self.shapes();
        let mut all = String::new();
        let mut kept: Vec<u8> = Vec::new();
        for (i, name) in self.iter().enumerate() {
            let clean = crate::text::sanitize::line(name);
            if clean.is_empty() {
                continue;
            }
            if !all.is_empty() {
                all.push(NAME_SEP);
            }
            all.push_str(&clean);
            let shape = shapes
                .and_then(|s| s.get(3 * i..3 * i + 3))
                .filter(|_| clean.split(' ').count() == name.split(' ').count())
                .unwrap_or(UNKNOWN);
            kept.extend_from_slice(shape);
        }
        if kept.chunks(3).any(|s| s != UNKNOWN) {
            all.push(SHAPE_SEP);
            all.push_str(std::str::from_utf8(&kept).unwrap_or(""));
        }
        Authors(all.into())
    }

    /// The number of names.
    pub fn len(&self) -> usize {
        let names = self.joined();
        if names.is_empty() {
            0
        } else {
            names.matches(NAME_SEP).count() + 1
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
        let b = self.joined().as_bytes();
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

/// Appends `name` with the separators it holds (which sanitized text
/// never does) as spaces.
fn push_name(all: &mut String, name: &str) {
    all.extend(name.chars().map(|c| {
        if c == NAME_SEP || c == SHAPE_SEP {
            ' '
        } else {
            c
        }
    }));
}

impl<S: AsRef<str>> FromIterator<S> for Authors {
    /// Names as shown, their parts not known. Blank names are left out;
    /// a name holding a separator (which sanitized text never does) has
    /// it as a space.
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
            push_name(&mut all, name);
        }
        Authors(all.into())
    }
}

/// The order names are shown in (`[reader] names` in config.toml).
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub enum NameOrder {
    /// `Ada Lovelace`, `Ludwig van Beethoven`.
    #[default]
    GivenFirst,
    /// `Lovelace, Ada`, `van Beethoven, Ludwig`.
    FamilyFirst,
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
