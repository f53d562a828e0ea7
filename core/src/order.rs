//! The orders a list can be sorted in, the same in the reader and in the
//! commands that print: file order, match score, year, first author, first
//! seen.

use crate::corpus::Paper;
use crate::search::fields::fold;
use crate::store::Stamp;

/// A sort order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SortKey {
    /// As the files list the papers.
    File,
    /// Best match first (as ranked; file order without a query).
    #[default]
    Score,
    /// Newest year first; papers without a year last.
    Year,
    /// By the first author's family name (case and accents folded);
    /// papers without authors last.
    Author,
    /// Most recently first seen first; never seen last.
    Seen,
    /// Likeliest wanted first, by the model learned from the reader's
    /// marks (`search::learn`); as ranked while there is no model.
    ForYou,
}

impl SortKey {
    /// Every key, in the order the reader cycles through them.
    pub const ALL: [SortKey; 6] = [
        SortKey::File,
        SortKey::Score,
        SortKey::Year,
        SortKey::Author,
        SortKey::Seen,
        SortKey::ForYou,
    ];

    /// The name the command line and the search line use.
    pub fn name(self) -> &'static str {
        match self {
            SortKey::File => "file",
            SortKey::Score => "score",
            SortKey::Year => "year",
            SortKey::Author => "author",
            SortKey::Seen => "seen",
            SortKey::ForYou => "for-you",
        }
    }

    /// The key named `name`.
    pub fn named(name: &str) -> Option<SortKey> {
        SortKey::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The next key in the cycle.
    pub fn next(self) -> SortKey {
        let k = SortKey::ALL.iter().position(|&k| k == self).unwrap_or(0);
        SortKey::ALL[(k + 1) % SortKey::ALL.len()]
    }
}

/// What a paper's first author sorts by, folded: the family name, then
/// the given name (a particle does not sort: `van Beethoven` goes under
/// B, as bibliographies file it).
pub fn first_author_key(p: &Paper) -> Option<String> {
    let first = p.authors.names().next()?;
    Some(fold(&format!("{} {}", first.family, first.given)).into_owned())
}

/// Sorts `rows` (indices into `papers`, in ranking order) by `key`,
/// stably: rows that tie keep their order. `first_seen` gives a paper's
/// first-seen time by id; `for_you` each paper's score by the reader's
/// model (empty without one).
pub fn sort_rows(
    papers: &[Paper],
    rows: &mut [u32],
    key: SortKey,
    first_seen: &dyn Fn(&str) -> Option<Stamp>,
    for_you: &[f32],
) {
    match key {
        SortKey::Score => {}
        SortKey::ForYou => rows.sort_by(|&a, &b| {
            let s = |i: u32| for_you.get(i as usize).copied().unwrap_or(f32::MIN);
            s(b).total_cmp(&s(a))
        }),
        SortKey::File => rows.sort_by_key(|&i| i),
        SortKey::Year => rows.sort_by_key(|&i| {
            std::cmp::Reverse(
                papers
                    .get(i as usize)
                    .and_then(|p| p.year)
                    .unwrap_or(i32::MIN),
            )
        }),
        SortKey::Author => {
            let keys: Vec<(Option<String>, u32)> = rows
                .iter()
                .map(|&i| (papers.get(i as usize).and_then(first_author_key), i))
                .collect();
            let mut order: Vec<usize> = (0..rows.len()).collect();
            // Papers without authors last.
            order.sort_by(|&a, &b| match (&keys[a].0, &keys[b].0) {
                (Some(x), Some(y)) => x.cmp(y),
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => std::cmp::Ordering::Equal,
            });
            for (slot, k) in rows.iter_mut().zip(order) {
                *slot = keys[k].1;
            }
        }
        SortKey::Seen => rows.sort_by_key(|&i| {
            std::cmp::Reverse(
                papers
                    .get(i as usize)
                    .and_then(|p| first_seen(p.id.as_str()))
                    .map_or(0, |s| s.0),
            )
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Record;

    fn paper(title: &str, authors: &[&str], year: Option<i32>) -> Paper {
        Record {
            title: Some(title.into()),
            abstract_text: Some("x".into()),
            authors: authors.iter().map(|a| a.to_string()).collect(),
            year,
            ..Default::default()
        }
        .into_paper(&"t".into(), 0)
        .unwrap()
    }

    #[test]
    fn each_key_orders_and_keeps_ties_in_place() {
        let papers = vec![
            paper("A", &["Jürgen Schmidhuber"], Some(2015)),
            paper("B", &["Bengio, Yoshua"], None),
            paper("C", &[], Some(2020)),
            paper("D", &["Geoffrey Hinton"], Some(2015)),
        ];
        let sorted = |key, rows: &[u32]| {
            let mut r = rows.to_vec();
            sort_rows(
                &papers,
                &mut r,
                key,
                &|id| (id == papers[1].id.as_str()).then_some(Stamp(5)),
                &[0.5, 2.0, -1.0, 0.5],
            );
            r
        };
        let ranked = [3, 1, 0, 2];
        assert_eq!(sorted(SortKey::Score, &ranked), ranked);
        assert_eq!(sorted(SortKey::File, &ranked), [0, 1, 2, 3]);
        assert_eq!(sorted(SortKey::Year, &ranked), [2, 3, 0, 1]);
        assert_eq!(sorted(SortKey::Author, &ranked), [1, 3, 0, 2]);
        assert_eq!(sorted(SortKey::Seen, &ranked), [1, 3, 0, 2]);
        assert_eq!(sorted(SortKey::ForYou, &ranked), [1, 3, 0, 2]);
    }

    #[test]
    fn names_and_the_cycle() {
        for k in SortKey::ALL {
            assert_eq!(SortKey::named(k.name()), Some(k));
        }
        assert_eq!(SortKey::Seen.next(), SortKey::ForYou);
        assert_eq!(SortKey::ForYou.next(), SortKey::File);
        assert_eq!(SortKey::named("nope"), None);
    }
}
