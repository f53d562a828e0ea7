//! Which papers a command prints and in what order, shared by `list`,
//! `search` and `export`: marks, tags, first seen (`--new`, `--since`),
//! `--sort`, and the ids given to `mark`, `tag` and `note`.

use std::path::PathBuf;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};

use super::*;
use crate::corpus::Corpus;
use crate::order::{SortKey, sort_rows};
use crate::store::{Flag, Stamp};

/// The values of `--sort`: the names of the sort orders.
pub(super) fn sort_key() -> impl TypedValueParser<Value = SortKey> {
    PossibleValuesParser::new(SortKey::ALL.map(|k| PossibleValue::new(k.name())))
        .map(|name| SortKey::named(&name).expect("every possible value names a sort order"))
}

/// Sorts `rows` (paper indices) by `key`; `seen` reads first-seen times
/// from the store only when the key needs them. `for-you` trains the
/// reader's model first; without enough marks to, it says what to do and
/// leaves the order as it is.
pub(super) fn sort(corpus: &Corpus, store: &Store, rows: &mut [u32], key: SortKey) {
    let mut for_you = Vec::new();
    if key == SortKey::ForYou {
        let whose = crate::search::learn::Whose::Reader;
        match crate::search::learn::Trained::from_store(&corpus.papers, store, &whose) {
            Ok(t) => for_you = t.scores(),
            Err(few) => eprintln!(
                "paperboat: not sorted for you: {}",
                crate::text::sanitize::line(&few.advice(&whose))
            ),
        }
    }
    sort_rows(
        &corpus.papers,
        rows,
        key,
        &|id| store.first_seen(id),
        &for_you,
    );
}

/// Which marks a paper must have.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Marked {
    /// Any.
    #[default]
    Any,
    /// Bookmarked.
    Bookmarked,
    /// Not marked read.
    Unread,
    /// Marked read.
    Read,
}

/// What a paper must have to be printed. Every condition must hold.
#[derive(Clone, Debug, Default)]
pub(super) struct Filter {
    /// Its marks.
    pub marked: Marked,
    /// Every one of these tags (compared without case).
    pub tags: Vec<String>,
    /// First seen in the latest reader session (see [`latest_session`]).
    pub new: bool,
    /// First seen at or after this time.
    pub since: Option<Stamp>,
}

impl Filter {
    /// Reads a saved search's scope: a view's name (`all`, `unread`,
    /// `bookmarked`, `read`, `new`) or `tag:NAME`; empty for every paper.
    /// Anything else is `Err` with the scope as shown.
    pub fn from_scope(scope: &str) -> Result<Filter, String> {
        let mut f = Filter::default();
        match scope.trim() {
            "" | "all" => {}
            "bookmarked" => f.marked = Marked::Bookmarked,
            "unread" => f.marked = Marked::Unread,
            "read" => f.marked = Marked::Read,
            "new" => f.new = true,
            s => match s.strip_prefix("tag:") {
                Some(tag) if !tag.trim().is_empty() => f.tags.push(tag.trim().to_string()),
                _ => return Err(crate::text::sanitize::line(s)),
            },
        }
        Ok(f)
    }

    /// Whether the filter lets every paper through.
    pub fn is_empty(&self) -> bool {
        self.marked == Marked::Any && self.tags.is_empty() && !self.new && self.since.is_none()
    }

    /// A test for paper indices of `corpus`, reading `store` (the
    /// first-seen times only when asked for).
    pub fn keeper<'a>(
        &'a self,
        corpus: &'a Corpus,
        store: &'a Store,
    ) -> impl Fn(usize) -> bool + 'a {
        let latest = if self.new {
            latest_session(corpus, store)
        } else {
            None
        };
        move |i| {
            let id = corpus.papers[i].id.as_str();
            let marks = match self.marked {
                Marked::Any => true,
                Marked::Bookmarked => store.is_on(id, Flag::Bookmark),
                Marked::Unread => !store.is_on(id, Flag::Read),
                Marked::Read => store.is_on(id, Flag::Read),
            };
            marks
                && self.tags.iter().all(|t| store.has_tag(id, t))
                && (!self.new || latest.is_some_and(|l| store.first_seen(id) == Some(l)))
                && self
                    .since
                    .is_none_or(|s| store.first_seen(id).is_some_and(|f| f >= s))
        }
    }
}

/// The time of the latest reader session that first saw papers of
/// `corpus`: the newest first-seen time among its papers. The reader
/// records every paper new to a session at one time, so the papers first
/// seen at that time are those that session saw first.
pub(super) fn latest_session(corpus: &Corpus, store: &Store) -> Option<Stamp> {
    corpus
        .papers
        .iter()
        .filter_map(|p| store.first_seen(p.id.as_str()))
        .max()
}

/// `YYYY-MM-DD` → the first millisecond of that day in local time.
pub(super) fn parse_day(s: &str) -> Result<Stamp, String> {
    let bad = || {
        format!(
            "not a date: {} (write YYYY-MM-DD, e.g. 2026-12-01)",
            crate::text::sanitize::line(s)
        )
    };
    let parts: Vec<&str> = s.trim().split('-').collect();
    let [y, m, d] = parts[..] else {
        return Err(bad());
    };
    if y.len() != 4 || m.len() != 2 || d.len() != 2 {
        return Err(bad());
    }
    let num = |t: &str| {
        t.parse::<u32>()
            .ok()
            .filter(|_| t.bytes().all(|b| b.is_ascii_digit()))
    };
    let (Some(y), Some(m), Some(d)) = (num(y), num(m), num(d)) else {
        return Err(bad());
    };
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let days = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    if !(1..=12).contains(&m) || d == 0 || d > days[m as usize - 1] {
        return Err(bad());
    }
    let secs = crate::sys::local_midnight(y as i32, m, d).ok_or_else(bad)?;
    Ok(Stamp(secs.max(0) as u64 * 1000))
}

/// Splits `ID... [FILE]...` arguments: one naming an existing file (or
/// `-`) is a file, every other one an id; one that names no file but was
/// plainly meant as one ([`meant_as_file`]) is an error naming it.
pub(super) fn split_ids(args: &[String]) -> anyhow::Result<(Vec<PathBuf>, Vec<&str>)> {
    let (files, ids): (Vec<&String>, Vec<&String>) = args
        .iter()
        .partition(|a| a.as_str() == "-" || std::path::Path::new(a).exists());
    let missing: Vec<String> = ids
        .iter()
        .filter(|a| meant_as_file(a))
        .map(|a| crate::text::sanitize::line(a))
        .collect();
    if !missing.is_empty() {
        anyhow::bail!("no such file: {}", missing.join(", "));
    }
    Ok((
        files.into_iter().map(PathBuf::from).collect(),
        ids.into_iter().map(String::as_str).collect(),
    ))
}

/// True when `arg`, which names no file, was meant as a file rather than
/// a paper id: it does not read as an id (an arXiv id, a DOI, an
/// OpenReview forum, as written or as cited: `PaperId::meant_by`), and it
/// is a path (`/`, `./`, `../` or `~/` first, or a folder that exists
/// before its last `/`) or a name with an extension of one to five
/// letters (`papers.bib`, `list.jsonl`, `papres.jsno`).
pub(super) fn meant_as_file(arg: &str) -> bool {
    use crate::corpus::PaperId;
    let arg = arg.trim();
    if arg.is_empty()
        || PaperId::exported(arg).is_some()
        || !PaperId::meant_by(arg).is_empty()
        || arg.contains(':')
    {
        return false;
    }
    let path = std::path::Path::new(arg);
    let in_folder = path
        .parent()
        .is_some_and(|dir| !dir.as_os_str().is_empty() && dir.is_dir());
    let name = arg.rsplit('/').next().unwrap_or(arg);
    let extension = name.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty()
            && (1..=5).contains(&ext.len())
            && ext.bytes().all(|b| b.is_ascii_alphabetic())
    });
    ["/", "./", "../", "~/"].iter().any(|p| arg.starts_with(p)) || in_folder || extension
}

/// Says why `arg`, given where a paper id goes, is no id: it names a
/// file (the id was left out), or names none but was meant as one.
pub(super) fn check_id(arg: &str) -> anyhow::Result<()> {
    let shown = crate::text::sanitize::line(arg);
    if arg != "-" && std::path::Path::new(arg).is_file() {
        anyhow::bail!("{shown} is a file: give a paper id first, then the files");
    }
    if meant_as_file(arg) {
        anyhow::bail!("no such file: {shown}");
    }
    Ok(())
}

/// Finds each id (or unique prefix) in `corpus`, a paper given twice
/// once. Every id that names no paper, or several, is said in one error
/// that ends with `nothing was <done>`.
pub(super) fn find_ids(corpus: &Corpus, ids: &[&str], done: &str) -> anyhow::Result<Vec<usize>> {
    let mut found = Vec::new();
    let mut given = std::collections::HashSet::new();
    let mut problems = Vec::new();
    for id in ids {
        match resolve(corpus, id) {
            Ok(i) if given.insert(i) => found.push(i),
            Ok(_) => {}
            Err(why) => problems.push(why),
        }
    }
    if !problems.is_empty() {
        anyhow::bail!("{}; nothing was {done}", problems.join("; "));
    }
    Ok(found)
}

/// Reads `ID... [FILE]...` (see [`split_ids`]), loads the files and finds
/// each id (see [`find_ids`]).
pub(super) fn load_with_ids(
    load: &LoadArgs,
    args: &[String],
    done: &str,
) -> anyhow::Result<(Loaded, Vec<usize>)> {
    let (files, ids) = split_ids(args)?;
    if ids.is_empty() {
        anyhow::bail!("no paper ids given (arguments that name files are read as files)");
    }
    let loaded = load_files(load, &files)?;
    let found = find_ids(&loaded.corpus, &ids, done)?;
    Ok((loaded, found))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_are_checked() {
        for bad in [
            "2026-13-01",
            "2026-02-30",
            "2025-02-29",
            "26-12-01",
            "2026-1-01",
            "yesterday",
            "2026-12-01-",
            "+026-12-01",
            "",
        ] {
            let err = parse_day(bad).unwrap_err();
            assert!(err.contains("YYYY-MM-DD"), "{bad}: {err}");
        }
        let a = parse_day("2024-02-29").unwrap();
        let b = parse_day("2024-03-01").unwrap();
        // A day is 23 to 25 hours long, whatever the zone.
        assert!((23 * 3_600_000..=25 * 3_600_000).contains(&(b.0 - a.0)));
    }

    #[test]
    fn arguments_meant_as_files_are_told_from_ids() {
        for file in [
            "papers.bib",
            "papres.jsno",
            "list.jsonl",
            "./papers",
            "../x",
            "/no/such/place",
            "~/lists/a",
            "papers.bi",
        ] {
            assert!(meant_as_file(file), "{file}");
        }
        for id in [
            "1801.05533",
            "1801.05533v2",
            "hep-th/9901001",
            "10.1145/3292500.3330701",
            "10.1000/report.pdf",
            "https://doi.org/10.1145/3292500.3330701",
            "https://arxiv.org/abs/1801.05533",
            "arxiv:1801.05533",
            "doi:10.1000/a.b",
            "openreview:frA0NNBS1n",
            "frA0NNBS1n",
            "7795f65",
            "0123456789abcdef",
            "",
        ] {
            assert!(!meant_as_file(id), "{id}");
        }
    }

    #[test]
    fn scopes_name_views_and_tags() {
        assert!(Filter::from_scope("").unwrap().is_empty());
        assert!(Filter::from_scope("all").unwrap().is_empty());
        assert_eq!(Filter::from_scope("unread").unwrap().marked, Marked::Unread);
        assert!(Filter::from_scope("new").unwrap().new);
        assert_eq!(Filter::from_scope("tag: LoRA").unwrap().tags, ["LoRA"]);
        assert!(Filter::from_scope("tag:").is_err());
        assert!(Filter::from_scope("sideways").is_err());
    }
}
