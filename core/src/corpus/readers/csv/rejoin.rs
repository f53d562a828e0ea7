//! Rows of crawler CSV put back together. Scripts that scrape conference
//! sites (OpenReview, say) often write their CSV without quoting, so a
//! title or abstract with a comma splits its row into too many fields.
//! Such rows usually end in, or are punctuated by, columns whose values
//! have a shape (a forum link, an id, a year, a decision such as `Accept
//! (poster)`): learnt from the rows that have the right number of fields,
//! these shapes pin down where the extra fields belong. A row is put back
//! together only when exactly one way of joining its extra fields back
//! into the text columns gives every shaped column a value of its shape;
//! otherwise it stays skipped and is reported.

use std::collections::HashSet;

use super::{Role, Row};
use crate::corpus::fields::year_in;

/// Decisions conference sites give, accepted in a decision column even
/// when no well-formed row shows them.
const DECISIONS: &[&str] = &[
    "Accept (oral)",
    "Accept (spotlight)",
    "Accept (poster)",
    "Accept",
    "Reject",
    "Withdrawn",
    "Desk Rejected",
];

/// Most extra fields a row may have for its ways to be counted: beyond
/// that a row is skipped as it was (the count grows with the square of
/// the fields).
const MOST_EXTRA: usize = 64;

/// The shape of a column's values.
#[derive(Debug, PartialEq)]
enum Shape {
    /// Anything, commas included: a column extra fields may join.
    Text,
    /// An http(s) link.
    Url,
    /// A year.
    Year,
    /// A number.
    Number,
    /// One word (an id, a key).
    Token,
    /// One of a few values (a decision, a track).
    Choice(HashSet<String>),
    /// Names separated by `;`, `|` or ` and `, each of two to six words.
    Names,
}

/// What each column's values look like.
pub(super) struct Shapes(Vec<Column>);

/// What a column's values look like.
struct Column {
    shape: Shape,
    /// A blank value is seen in it.
    blank: bool,
    /// No value starts or ends with a space (the writer trimmed them): a
    /// field that does is a piece of a value split at a comma, not one.
    trimmed: bool,
}

/// A row's extra fields joined back: the one way, or how many ways there
/// are (0, or 2 for two or more).
pub(super) enum Rejoined {
    One(Vec<String>),
    Ways(usize),
}

impl Shapes {
    /// Learns the columns' shapes from the rows with `width` fields;
    /// `role(col)` is what the header names the column. A column is text
    /// unless at least three rows agree on a shape.
    pub(super) fn learn(
        rows: &[&Row],
        width: usize,
        role: impl Fn(usize) -> Option<Role>,
    ) -> Shapes {
        let shapes = (0..width)
            .map(|col| {
                let raw: Vec<&str> = rows
                    .iter()
                    .map(|r| r.fields.get(col).map_or("", String::as_str))
                    .collect();
                let blank = raw.iter().any(|v| v.trim().is_empty());
                let values: Vec<&str> = raw.into_iter().filter(|v| !v.trim().is_empty()).collect();
                Column {
                    shape: shape_of(&values, role(col)),
                    blank,
                    trimmed: values.len() >= 3 && values.iter().all(|v| *v == v.trim()),
                }
            })
            .collect();
        Shapes(shapes)
    }

    /// True when some column has a shape: rows can be put back together.
    pub(super) fn any(&self) -> bool {
        self.0.iter().any(|c| c.shape != Shape::Text)
    }

    /// Whether the value made of `first` to `last` (one field, or the
    /// pieces of a text) fits column `col`.
    fn fits(&self, col: usize, first: &str, last: &str) -> bool {
        let c = &self.0[col];
        if first.trim().is_empty() && std::ptr::eq(first, last) {
            return c.blank || c.shape == Shape::Text;
        }
        if c.trimmed
            && (first.starts_with(char::is_whitespace) || last.ends_with(char::is_whitespace))
        {
            return false;
        }
        c.shape == Shape::Text || has_shape(&c.shape, first)
    }

    /// `fields` (more than there are columns) joined back by `delimiter`
    /// into one field a column, where exactly one way gives every column a
    /// value of its shape.
    pub(super) fn rejoin(&self, fields: &[String], delimiter: u8) -> Rejoined {
        let (n, w) = (fields.len(), self.0.len());
        if n <= w || n - w > MOST_EXTRA || !self.any() {
            return Rejoined::Ways(0);
        }
        // ways[c][i]: the ways (0, 1 or 2 for more) to give columns c.. the
        // fields i..; filled from the last column back.
        let mut ways = vec![vec![0u8; n + 1]; w + 1];
        ways[w][n] = 1;
        for c in (0..w).rev() {
            let rest = w - c - 1;
            for i in 0..n.saturating_sub(rest) {
                ways[c][i] = if self.0[c].shape == Shape::Text {
                    let mut sum = 0u8;
                    for j in i + 1..=n - rest {
                        if ways[c + 1][j] > 0 && self.fits(c, &fields[i], &fields[j - 1]) {
                            sum = (sum + ways[c + 1][j]).min(2);
                        }
                    }
                    sum
                } else if self.fits(c, &fields[i], &fields[i]) {
                    ways[c + 1][i + 1]
                } else {
                    0
                };
            }
        }
        if ways[0][0] != 1 {
            return Rejoined::Ways(ways[0][0].into());
        }
        let sep = char::from(delimiter).to_string();
        let mut out = Vec::with_capacity(w);
        let mut i = 0;
        for c in 0..w {
            let rest = w - c - 1;
            let j = if self.0[c].shape == Shape::Text {
                (i + 1..=n - rest)
                    .find(|&j| ways[c + 1][j] == 1 && self.fits(c, &fields[i], &fields[j - 1]))
                    .unwrap_or(i + 1)
            } else {
                i + 1
            };
            out.push(fields[i..j].join(&sep));
            i = j;
        }
        Rejoined::One(out)
    }
}

/// The shape every one of `values` (blank ones left out) has.
fn shape_of(values: &[&str], role: Option<Role>) -> Shape {
    if values.len() < 3 {
        return Shape::Text;
    }
    let all = |shape: &Shape| values.iter().all(|v| *v == v.trim() && has_shape(shape, v));
    if matches!(role, Some(Role::Title | Role::Abstract | Role::Venue)) {
        return Shape::Text;
    }
    if role == Some(Role::Authors) {
        return if all(&Shape::Names) {
            Shape::Names
        } else {
            Shape::Text
        };
    }
    for shape in [Shape::Url, Shape::Year, Shape::Number] {
        if all(&shape) {
            return shape;
        }
    }
    let distinct: HashSet<&str> = values.iter().copied().collect();
    if values.len() >= 6 && distinct.len() <= 8 && distinct.len() * 2 <= values.len() {
        let mut choices: HashSet<String> = distinct.into_iter().map(str::to_string).collect();
        if choices.iter().any(|c| DECISIONS.contains(&c.as_str())) {
            choices.extend(DECISIONS.iter().map(|d| d.to_string()));
        }
        return Shape::Choice(choices);
    }
    if all(&Shape::Token) {
        return Shape::Token;
    }
    if all(&Shape::Names) {
        return Shape::Names;
    }
    Shape::Text
}

fn has_shape(shape: &Shape, v: &str) -> bool {
    match shape {
        Shape::Text => true,
        Shape::Url => {
            (v.starts_with("http://") || v.starts_with("https://"))
                && !v.contains(char::is_whitespace)
        }
        Shape::Year => v.len() == 4 && year_in(v).is_some(),
        Shape::Number => v.parse::<f64>().is_ok(),
        Shape::Token => v.len() <= 100 && !v.contains(char::is_whitespace),
        Shape::Choice(set) => set.contains(v),
        Shape::Names => names(v),
    }
}

/// True when `v` reads as a list of names: separated by `;`, `|` or
/// ` and `, each of two to six words, each word capitalised, an initial or
/// a particle (`van`, `de`, …).
fn names(v: &str) -> bool {
    const PARTICLES: &[&str] = &[
        "van", "von", "de", "der", "den", "da", "di", "du", "del", "della", "la", "le", "dos",
        "das", "bin", "al", "el", "y", "ten", "ter",
    ];
    v.replace(" and ", ";").split([';', '|']).all(|name| {
        let words: Vec<&str> = name.split_whitespace().collect();
        (2..=6).contains(&words.len())
            && words
                .iter()
                .all(|w| w.chars().next().is_some_and(char::is_uppercase) || PARTICLES.contains(w))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(fields: &[&str]) -> Row {
        Row {
            line: 1,
            fields: fields.iter().map(|f| f.to_string()).collect(),
        }
    }

    fn split(line: &str) -> Vec<String> {
        line.split(',').map(str::to_string).collect()
    }

    #[test]
    fn shaped_columns_pin_the_extra_fields_down() {
        let good: Vec<Row> = (0..8)
            .map(|i| {
                let decision = ["Accept (poster)", "Reject"][i % 2];
                let forum = format!("https://openreview.net/forum?id=abc{i}");
                row(&["A title", "Ann Lee;Bo Wu", "An abstract.", &forum, decision])
            })
            .collect();
        let rows: Vec<&Row> = good.iter().collect();
        let shapes = Shapes::learn(&rows, 5, |c| {
            [
                Some(Role::Title),
                Some(Role::Authors),
                Some(Role::Abstract),
                None,
                None,
            ][c]
        });
        assert!(shapes.any());
        // Commas in the title only: one way.
        let fields = split(
            "Graphs, trees, and forests,Ann Lee;Bo Wu,We study graphs.,https://openreview.net/forum?id=x,Accept (spotlight)",
        );
        match shapes.rejoin(&fields, b',') {
            Rejoined::One(f) => {
                assert_eq!(f[0], "Graphs, trees, and forests");
                assert_eq!(f[2], "We study graphs.");
                assert_eq!(f[4], "Accept (spotlight)");
            }
            Rejoined::Ways(n) => panic!("{n} ways"),
        }
        // Commas in the title and the abstract, the names between them.
        let fields = split(
            "Sparse, fast attention,Ann Lee,We make it sparse, and fast.,https://openreview.net/forum?id=y,Reject",
        );
        assert!(matches!(shapes.rejoin(&fields, b','), Rejoined::One(_)));
        // A title piece that reads as names: two ways.
        let fields = split(
            "Large Models,Small Data,Ann Lee,We study.,https://openreview.net/forum?id=z,Reject",
        );
        assert!(matches!(shapes.rejoin(&fields, b','), Rejoined::Ways(2)));
        // A piece that starts with a space starts no value (names written
        // with commas are not taken for an author and an abstract).
        let fields = split("T,Ann Lee, Bo Wu,We study.,https://openreview.net/forum?id=z,Reject");
        assert!(matches!(shapes.rejoin(&fields, b','), Rejoined::Ways(0)));
        // No way: the decision is not one.
        let fields = split("T,Ann Lee,A, b.,https://openreview.net/forum?id=z,Maybe");
        assert!(matches!(shapes.rejoin(&fields, b','), Rejoined::Ways(0)));
    }

    #[test]
    fn names_and_shapes() {
        assert!(names("Ann Lee;Bo Wu"));
        assert!(names("Ludwig van Beethoven and J. S. Bach"));
        assert!(!names("Trees"));
        assert!(!names(" and forests"));
        assert!(has_shape(&Shape::Year, "2023"));
        assert!(!has_shape(&Shape::Url, "https://a b"));
    }
}
