//! What a format reader finds: [`Record`]s of raw fields, and how a record
//! becomes a [`Paper`] (sanitized, with an id and, when it has no title, a
//! derived one).

use std::sync::Arc;

use super::{
    Abstract, Authors, More, Paper, PaperId, Variant, content_hash, fields, json_string, title,
};
use crate::text::sanitize;

/// A record as a format reader found it: raw, unsanitized fields.
#[derive(Clone, Default, Debug)]
pub struct Record {
    /// The title, if the record gives one.
    pub title: Option<String>,
    /// The abstract, if any.
    pub abstract_text: Option<String>,
    /// Author names.
    pub authors: Authors,
    /// Year.
    pub year: Option<i32>,
    /// Venue.
    pub venue: Option<String>,
    /// Explicit URLs.
    pub urls: Vec<String>,
    /// An arXiv identifier.
    pub arxiv: Option<String>,
    /// A DOI.
    pub doi: Option<String>,
    /// The record's own key in its file (a BibTeX key, a CSL-JSON `id`, a
    /// RIS `ID`): two records of one file with different keys are
    /// different papers, whatever their text.
    pub key: Option<String>,
    /// The volume, which tells the volumes of a multi-volume work apart.
    pub volume: Option<String>,
    /// The id a paperboat export gave the paper ([`PaperId::exported`]):
    /// when set, the paper keeps it, whatever its other fields would
    /// make of it, so that what goes out comes back as itself.
    pub given_id: Option<PaperId>,
    /// The line the record starts on (1-based), for messages.
    pub line: usize,
    /// The id the paper had before the reader learnt to read the one it
    /// has now (an arXiv id found where it used to be missed): marks
    /// kept under it are moved to the new one. `None` for most records.
    pub former_id: Option<PaperId>,
    /// The fields few records have (keywords, OpenReview's forum id, …).
    /// A record with no arXiv id or DOI whose forum id is known (here,
    /// or in an OpenReview forum or PDF link among its URLs) is known by
    /// it (`openreview:frA0NNBS1n`).
    pub more: Option<Box<More>>,
}

impl Record {
    /// Its rare fields (keywords, the forum id, …), empty when it has
    /// none.
    pub fn more(&self) -> &More {
        self.more.as_deref().unwrap_or(&super::paper::NO_MORE)
    }

    /// Its rare fields, to fill.
    pub fn more_mut(&mut self) -> &mut More {
        self.more.get_or_insert_with(Default::default)
    }

    /// Sanitizes the record and gives it an id and, when it has no title, a
    /// derived one. `source` is the list's (sanitized) name. `None` when the
    /// record has neither title nor abstract.
    pub fn into_paper(self, source: &Arc<str>, position: u32) -> Option<Paper> {
        self.into_paper_deferring(source, position, None)
    }

    /// [`Record::into_paper`] for a record whose abstract was left in its
    /// file (the record has none): `deferred` is it, with the JSON string
    /// it is there. The string is decoded only where the paper needs its
    /// text now: for an id hashed from it, or a title derived from it.
    pub fn into_paper_deferring(
        mut self,
        source: &Arc<str>,
        position: u32,
        deferred: Option<(Abstract, &str)>,
    ) -> Option<Paper> {
        let mut deferred = deferred;
        let decode = |text: &mut Option<String>, deferred: &mut Option<(Abstract, &str)>| {
            if let Some((_, raw)) = deferred.take() {
                *text = json_string::string_paragraphs(raw);
            }
        };
        let empty = |s: &Option<String>| s.as_deref().is_none_or(|t| t.trim().is_empty());
        // A deferred abstract is never empty.
        if deferred.is_none() && empty(&self.title) && empty(&self.abstract_text) {
            return None;
        }
        let has = |s: &Option<String>| s.as_deref().is_some_and(|s| !s.trim().is_empty());
        if !has(&self.arxiv) && !has(&self.doi) {
            decode(&mut self.abstract_text, &mut deferred);
        }
        let arxiv = self
            .arxiv
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty());
        let doi = self.doi.as_deref().map(str::trim).filter(|s| !s.is_empty());
        if self.more().forum.is_none()
            && let Some(forum) = self.urls.iter().find_map(|u| fields::forum_in(u))
        {
            let forum = forum.to_string();
            self.more.get_or_insert_with(Default::default).forum = Some(forum);
        }
        let hashed = |r: &Record| {
            PaperId::from_hash(content_hash(
                r.title.as_deref(),
                r.abstract_text.as_deref().unwrap_or(""),
            ))
        };
        let given = self.given_id.take();
        let forum = self.more.as_ref().and_then(|m| m.forum.as_deref());
        let (id, variant) = match (arxiv, doi, forum) {
            _ if let Some(id) = given => (id, Variant::default()),
            (Some(a), _, _) => (PaperId::arxiv(&sanitize::line_cow(a)), Variant::default()),
            (None, Some(d), _) => (PaperId::doi(&sanitize::line_cow(d)), Variant::default()),
            (None, None, Some(forum)) => {
                // Before forum ids were read, the paper was known by the
                // hash of its text: marks kept under it follow.
                let id = PaperId::openreview(forum);
                if self.former_id.is_none() {
                    self.former_id = Some(hashed(&self));
                }
                (id, Variant::default())
            }
            (None, None, None) => (
                hashed(&self),
                Variant::of(
                    self.key.as_deref(),
                    &self.authors,
                    self.year,
                    self.volume.as_deref(),
                ),
            ),
        };
        // The raw text is no longer needed: sanitize it in place.
        let given = self
            .title
            .take()
            .map(sanitize::line_owned)
            .filter(|t| !t.is_empty());
        if given.is_none() {
            decode(&mut self.abstract_text, &mut deferred);
        }
        let abstract_text = match deferred {
            Some((text, _)) => text,
            None => self
                .abstract_text
                .take()
                .map(sanitize::block_owned)
                .unwrap_or_default()
                .into(),
        };
        if given.is_none() && abstract_text.is_empty() {
            return None;
        }
        let mut links: Vec<String> = self
            .urls
            .iter()
            .map(|u| sanitize::line_cow(u))
            .filter(|u| u.starts_with("http://") || u.starts_with("https://"))
            .map(String::from)
            .collect();
        // Each link once; the DOI's unless a link names it already (a DOI
        // ignores case).
        keep_first(&mut links);
        if let Some(d) = doi {
            let d = sanitize::line(d);
            if !links
                .iter()
                .any(|l| fields::doi_link(l).is_some_and(|l| l.eq_ignore_ascii_case(&d)))
            {
                links.push(format!("https://doi.org/{d}"));
            }
        }
        // The arXiv link is made from the id when asked for (see
        // `Paper::links`): a million papers need not keep a million. A
        // paper known by another id keeps its record's arXiv id as a link.
        if let Some(a) = arxiv
            && !id.as_str().starts_with("arxiv:")
        {
            let link = format!("https://arxiv.org/abs/{}", sanitize::line(a));
            if !links.contains(&link) {
                links.push(link);
            }
        }
        let (title, title_derived) = match given {
            Some(t) => (t, false),
            None => (title::derive(&abstract_text.text()), true),
        };
        Some(Paper {
            id,
            title,
            title_derived,
            abstract_text,
            source: source.clone(),
            position,
            // Kept as they are when every name is clean (the common case).
            authors: if self.authors.all_clean() {
                self.authors
            } else {
                self.authors.sanitized()
            },
            year: self.year,
            venue: self
                .venue
                .map(sanitize::line_owned)
                .filter(|v| !v.is_empty()),
            record_links: links,
            also_in: Vec::new(),
            former_id: self.former_id,
            variant,
            more: more(self.more),
        })
    }
}

/// Drops the repeats of `links`, the first of each kept where it was.
fn keep_first(links: &mut Vec<String>) {
    if links.len() < 2 {
        return;
    }
    if links.len() <= 16 {
        let mut k = 1;
        while k < links.len() {
            if links[..k].contains(&links[k]) {
                links.remove(k);
            } else {
                k += 1;
            }
        }
        return;
    }
    let mut seen = std::collections::HashSet::with_capacity(links.len());
    links.retain(|l| seen.insert(l.clone()));
}

/// A record's rare fields, sanitized and boxed; `None` when it has none.
fn more(more: Option<Box<More>>) -> Option<Box<More>> {
    let mut more = more?;
    // Each once, where first given (a keyword repeated apart, as MeSH
    // headings and authors' keywords often are), in place: a short list
    // (most are, an arXiv paper's categories) looked through, a long
    // one hashed.
    let clean = |v: &mut Vec<String>| {
        let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
        let mut kept = 0;
        for at in 0..v.len() {
            let s = sanitize::line_owned(std::mem::take(&mut v[at]));
            let new = if kept < 16 {
                !v[..kept].contains(&s)
            } else {
                if seen.is_empty() {
                    seen.extend(v[..kept].iter().cloned());
                }
                seen.insert(s.clone())
            };
            if !s.is_empty() && new {
                v[kept] = s;
                kept += 1;
            }
        }
        v.truncate(kept);
    };
    clean(&mut more.keywords);
    clean(&mut more.categories);
    more.roles.retain_mut(|(role, name)| {
        *role = sanitize::line(role);
        *name = sanitize::line(name);
        !role.is_empty() && !name.is_empty()
    });
    for one in [&mut more.forum, &mut more.venue_id, &mut more.announce] {
        *one = one
            .take()
            .map(sanitize::line_owned)
            .filter(|s| !s.is_empty());
    }
    (!more.is_empty()).then_some(more)
}

/// What a format reader found in one input: the list's name if the input
/// names one, the records in input order, and what it had to skip.
#[derive(Debug, Default)]
pub struct Parsed {
    /// The list's name, when the input gives one (a text file's header).
    pub header: Option<String>,
    /// The records, in input order.
    pub records: Vec<Record>,
    /// Records that could not be read: (1-based line, reason).
    pub skipped: Vec<(usize, String)>,
    /// Records read only once put back together (CSV rows split by
    /// unquoted commas).
    pub repaired: usize,
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn a_forum_link_names_a_paper_without_an_arxiv_id_or_doi() {
        let record = Record {
            title: Some("Sparse Attention".into()),
            abstract_text: Some("We route.".into()),
            urls: vec!["https://openreview.net/pdf?id=frA0NNBS1n".into()],
            ..Record::default()
        };
        let hash = PaperId::from_hash(content_hash(Some("Sparse Attention"), "We route."));
        let p = record.clone().into_paper(&"l".into(), 0).unwrap();
        assert_eq!(p.id.as_str(), "openreview:frA0NNBS1n");
        // Marks kept under the id it had before follow it.
        assert_eq!(p.former_id, Some(hash));
        assert_eq!(p.more().forum.as_deref(), Some("frA0NNBS1n"));
        // An arXiv id or a DOI still comes first.
        let arxiv = Record {
            arxiv: Some("2401.00001".into()),
            ..record
        };
        let p = arxiv.into_paper(&"l".into(), 0).unwrap();
        assert_eq!(p.id.as_str(), "arxiv:2401.00001");
        assert_eq!(p.former_id, None);
        assert!(
            p.links()
                .contains(&"https://openreview.net/pdf?id=frA0NNBS1n".to_string())
        );
    }

    #[test]
    fn a_paper_keeps_each_keyword_and_category_once_where_first_given() {
        let record = Record {
            title: Some("T".into()),
            more: More {
                keywords: ["stress", "memory", "\u{1b}[31m", "stress", "memory"]
                    .map(String::from)
                    .to_vec(),
                categories: ["cs.LG", "stat.ML", "cs.LG"].map(String::from).to_vec(),
                ..More::default()
            }
            .into(),
            ..Record::default()
        };
        let p = record.into_paper(&"l".into(), 0).unwrap();
        // A keyword that is an escape sequence alone is none.
        assert_eq!(p.more().keywords, ["stress", "memory"]);
        assert_eq!(p.more().categories, ["cs.LG", "stat.ML"]);
        // A long list, past the ones looked through, is hashed: the same.
        let long: Vec<String> = (0..60).map(|k| format!("k{}", k % 25)).collect();
        let record = Record {
            title: Some("T".into()),
            more: More {
                keywords: long,
                ..More::default()
            }
            .into(),
            ..Record::default()
        };
        let p = record.into_paper(&"l".into(), 0).unwrap();
        let want: Vec<String> = (0..25).map(|k| format!("k{k}")).collect();
        assert_eq!(p.more().keywords, want);
    }

    proptest! {
        /// Authors, ids and links are checked clean without a copy
        /// (`sanitize::line_cow`): what they are kept as is what cleaning
        /// a copy of them makes.
        #[test]
        fn a_field_checked_clean_in_place_reads_as_cleaned(
            s in "[ a-zA-Z.,\\-\u{e9}\u{a0}\u{200b}\u{1b}\t\n]{0,24}",
        ) {
            prop_assert_eq!(&*sanitize::line_cow(&s), sanitize::line(&s));
            prop_assert_eq!(sanitize::line_owned(s.clone()), sanitize::line(&s));
        }
    }
}
