//! Harvesting arXiv through OAI-PMH: ListRecords in the `arXiv` metadata
//! format, from a set, following resumptionTokens to the end of the list.
//!
//! A set is given as arXiv names it (`cs`, `math`, `physics:hep-th`, and
//! on arXiv's current server a category's `cs:cs:LG`) or by an archive or
//! category: `hep-th` harvests `physics:hep-th`; `cs.LG` harvests its
//! archive's set, `cs`, a set every arXiv server has served, and keeps
//! the papers whose categories list `cs.LG` (cross-lists included).
//!
//! Each paper is written as a line of arXiv's metadata snapshot (`id`,
//! `authors`, `title`, `comments`, `journal-ref`, `doi`, `report-no`,
//! `categories`, `license`, `abstract`, `versions`, `update_date`,
//! `authors_parsed`), its text as arXiv gave it, `update_date` the record's
//! datestamp: the next fetch into the file asks `from` the latest one.

use serde::Serialize;

use super::http::Client;
use super::list_file::{ListFile, arxiv_key};
use super::{FetchError, Options, Progress, Summary, slug};
use crate::corpus::readers::oaipmh::{OaiRecord, Page, parse_page};

/// arXiv's groups: each is a set of its own.
const GROUPS: &[&str] = &[
    "cs", "econ", "eess", "math", "physics", "q-bio", "q-fin", "stat",
];

/// The archives of the physics group: each is the set `physics:ARCHIVE`.
const PHYSICS_ARCHIVES: &[&str] = &[
    "astro-ph", "cond-mat", "gr-qc", "hep-ex", "hep-lat", "hep-ph", "hep-th", "math-ph", "nlin",
    "nucl-ex", "nucl-th", "physics", "quant-ph",
];

/// What to harvest from arXiv.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArxivTarget {
    /// The OAI-PMH set asked for.
    pub set: String,
    /// The category a paper must list to be kept, if any.
    pub category: Option<String>,
    /// As the user gave it.
    pub given: String,
}

impl ArxivTarget {
    /// Reads a set or category as the command line gives it.
    pub fn parse(given: &str) -> Result<ArxivTarget, String> {
        let given = given.trim();
        let lower = given.to_ascii_lowercase();
        let target = |set: String, category: Option<String>| ArxivTarget {
            set,
            category,
            given: given.to_string(),
        };
        let archive_set = |archive: &str| {
            if GROUPS.contains(&archive) && archive != "physics" {
                Some(archive.to_string())
            } else if PHYSICS_ARCHIVES.contains(&archive) {
                Some(format!("physics:{archive}"))
            } else {
                None
            }
        };
        let plain = |s: &str| {
            !s.is_empty()
                && s.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b':' | b'.'))
        };
        if given.contains(':') && plain(given) {
            return Ok(target(given.to_string(), None));
        }
        if GROUPS.contains(&lower.as_str()) {
            return Ok(target(lower, None));
        }
        if let Some(set) = archive_set(&lower) {
            return Ok(target(set, None));
        }
        if let Some((archive, sub)) = given.split_once('.')
            && plain(sub)
            && !sub.contains(['.', ':'])
            && let Some(set) = archive_set(&archive.to_ascii_lowercase())
        {
            let category = format!("{}.{sub}", archive.to_ascii_lowercase());
            return Ok(target(set, Some(category)));
        }
        Err(format!(
            "{} is neither an arXiv set nor a category (e.g. cs, cs.LG, math.AG, hep-th, \
             astro-ph.CO, physics:hep-ex)",
            crate::text::sanitize::line(given)
        ))
    }

    /// The list's name: `cs-lg` for `cs.LG`.
    pub fn list_name(&self) -> String {
        slug(&self.given)
    }
}

/// A line of arXiv's metadata snapshot.
#[derive(Serialize)]
struct SnapshotLine<'a> {
    id: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    submitter: Option<&'a str>,
    authors: String,
    title: Option<&'a str>,
    comments: Option<&'a str>,
    #[serde(rename = "journal-ref")]
    journal_ref: Option<&'a str>,
    doi: Option<&'a str>,
    #[serde(rename = "report-no")]
    report_no: Option<&'a str>,
    categories: Option<&'a str>,
    license: Option<&'a str>,
    #[serde(rename = "abstract")]
    abstract_text: Option<&'a str>,
    versions: Vec<Version<'a>>,
    update_date: Option<&'a str>,
    authors_parsed: Vec<[&'a str; 3]>,
}

#[derive(Serialize)]
struct Version<'a> {
    version: &'a str,
    created: &'a str,
}

/// The record as a line of arXiv's metadata snapshot, with the id it is
/// known by (no version); `None` without an arXiv id.
pub fn snapshot_line(r: &OaiRecord) -> Option<(String, String)> {
    let id = r.arxiv_id()?;
    let meta = &r.meta;
    let versions = if meta.versions.is_empty() {
        meta.created
            .as_deref()
            .map(|created| Version {
                version: "v1",
                created: created.trim(),
            })
            .into_iter()
            .collect()
    } else {
        meta.versions
            .iter()
            .map(|(v, d)| Version {
                version: v.as_str(),
                created: d.as_str(),
            })
            .collect()
    };
    let line = SnapshotLine {
        id: &id,
        submitter: meta.submitter.as_deref(),
        authors: match &meta.authors_text {
            Some(text) if meta.names.is_empty() => text.clone(),
            _ => r.authors().join(", "),
        },
        title: meta.title.as_deref(),
        comments: meta.comments.as_deref(),
        journal_ref: r.journal_ref(),
        doi: meta.doi.as_deref(),
        report_no: meta.report_no.as_deref(),
        categories: meta.categories.as_deref(),
        license: meta.license.as_deref(),
        abstract_text: r.abstract_text(),
        versions,
        update_date: r.datestamp.as_deref().map(str::trim),
        authors_parsed: meta
            .names
            .iter()
            .map(|n| [n.keyname.trim(), n.forenames.trim(), n.suffix.trim()])
            .collect(),
    };
    let json = serde_json::to_string(&line).ok()?;
    Some((arxiv_key(&id), json))
}

/// `s` for a URL's query.
pub(super) fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The URL of the first ListRecords request.
fn first_url(endpoint: &str, set: &str, from: Option<&str>, until: Option<&str>) -> String {
    let mut url = format!(
        "{endpoint}{}verb=ListRecords&metadataPrefix=arXiv&set={}",
        if endpoint.contains('?') { '&' } else { '?' },
        encode(set)
    );
    for (name, value) in [("from", from), ("until", until)] {
        if let Some(v) = value {
            url.push_str(&format!("&{name}={}", encode(v)));
        }
    }
    url
}

/// Harvests `target` from `endpoint` into `list`.
pub(super) fn harvest(
    target: &ArxivTarget,
    endpoint: &str,
    opts: &Options,
    list: &mut ListFile,
    client: &mut Client,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Summary, FetchError> {
    let from = opts
        .from
        .clone()
        .or_else(|| list.last_datestamp().map(str::to_string));
    let mut summary = Summary {
        from: from.clone(),
        ..Summary::default()
    };
    let mut url = first_url(
        endpoint,
        &target.set,
        from.as_deref(),
        opts.until.as_deref(),
    );
    let mut last_token: Option<String> = None;
    loop {
        let page_no = summary.pages + 1;
        let Some(text) = client.page(&url, endpoint, page_no, progress)? else {
            summary.interrupted = true;
            return Ok(summary);
        };
        let page = parse_page(&text);
        check(&page, endpoint, page_no)?;
        summary.pages = page_no;
        if page.error.is_some() {
            // noRecordsMatch: nothing (more) to add.
            return Ok(summary);
        }
        let mut lines = Vec::new();
        for r in &page.records {
            if r.deleted {
                summary.passed_over += 1;
                continue;
            }
            summary.received += 1;
            if let Some(c) = &target.category
                && !r.lists_category(c)
            {
                summary.outside += 1;
                continue;
            }
            let Some((key, line)) = snapshot_line(r) else {
                return Err(FetchError::Malformed {
                    endpoint: endpoint.to_string(),
                    page: page_no,
                    what: format!("the record at line {} has no arXiv id", r.line),
                });
            };
            if list.holds(&key) {
                summary.held += 1;
            } else {
                lines.push((key, line));
            }
        }
        summary.written += list.append(lines)?;
        progress(&Progress::Page {
            page: page_no,
            received: summary.received,
            written: summary.written,
            expected: page.token.as_ref().and_then(|t| t.complete_list_size),
        });
        let Some(token) = page.token else {
            return Ok(summary);
        };
        if last_token.as_deref() == Some(token.value.as_str()) {
            return Err(FetchError::Malformed {
                endpoint: endpoint.to_string(),
                page: page_no,
                what: "the server gave the same resumptionToken twice".to_string(),
            });
        }
        url = format!(
            "{endpoint}{}verb=ListRecords&resumptionToken={}",
            if endpoint.contains('?') { '&' } else { '?' },
            encode(&token.value)
        );
        last_token = Some(token.value);
    }
}

/// A page that cannot be taken: an OAI error other than noRecordsMatch,
/// malformed or cut-short XML.
fn check(page: &Page, endpoint: &str, page_no: usize) -> Result<(), FetchError> {
    if let Some(e) = &page.error
        && e.code != "noRecordsMatch"
    {
        return Err(FetchError::Oai {
            endpoint: endpoint.to_string(),
            page: page_no,
            code: crate::text::sanitize::line(&e.code),
            message: crate::text::sanitize::line(&e.message),
        });
    }
    let malformed = |what: String| {
        Err(FetchError::Malformed {
            endpoint: endpoint.to_string(),
            page: page_no,
            what,
        })
    };
    if let Some((line, why)) = page.skipped.first() {
        return malformed(format!("line {line}: {why}"));
    }
    if !page.complete {
        return malformed("the answer is not an OAI-PMH response (or it is cut short)".to_string());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_and_categories() {
        let t = |s: &str| ArxivTarget::parse(s).map(|t| (t.set, t.category));
        let some = |set: &str, c: Option<&str>| Ok((set.to_string(), c.map(str::to_string)));
        assert_eq!(t("cs.LG"), some("cs", Some("cs.LG")));
        assert_eq!(t("CS.lg"), some("cs", Some("cs.lg")));
        assert_eq!(t("math.AG"), some("math", Some("math.AG")));
        assert_eq!(t("stat.ML"), some("stat", Some("stat.ML")));
        assert_eq!(
            t("astro-ph.CO"),
            some("physics:astro-ph", Some("astro-ph.CO"))
        );
        assert_eq!(
            t("cond-mat.str-el"),
            some("physics:cond-mat", Some("cond-mat.str-el"))
        );
        assert_eq!(
            t("physics.optics"),
            some("physics:physics", Some("physics.optics"))
        );
        assert_eq!(t("hep-th"), some("physics:hep-th", None));
        assert_eq!(t(" cs "), some("cs", None));
        assert_eq!(t("physics"), some("physics", None));
        assert_eq!(t("physics:hep-ex"), some("physics:hep-ex", None));
        assert_eq!(t("cs:cs:LG"), some("cs:cs:LG", None));
        for bad in ["", "biology", "cs.LG.x", "foo.bar", "cs:&x", "cs."] {
            let e = t(bad).unwrap_err();
            assert!(
                e.contains("neither an arXiv set nor a category"),
                "{bad}: {e}"
            );
        }
    }

    #[test]
    fn urls_follow_the_protocol() {
        assert_eq!(
            first_url(
                "https://oaipmh.arxiv.org/oai",
                "physics:hep-ex",
                Some("2026-12-01"),
                None
            ),
            "https://oaipmh.arxiv.org/oai?verb=ListRecords&metadataPrefix=arXiv&set=physics%3Ahep-ex&from=2026-12-01"
        );
        assert_eq!(
            first_url("http://h/oai?key=1", "cs", None, Some("2026-12-02")),
            "http://h/oai?key=1&verb=ListRecords&metadataPrefix=arXiv&set=cs&until=2026-12-02"
        );
        assert_eq!(encode("6960524|1001 a/b"), "6960524%7C1001%20a%2Fb");
    }

    #[test]
    fn records_become_snapshot_lines() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/data/sources/oaipmh_listrecords_arxiv.xml"
        );
        let page = parse_page(&std::fs::read_to_string(path).unwrap());
        let (key, line) = snapshot_line(&page.records[0]).unwrap();
        assert_eq!(key, "2612.00001");
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(v["id"], "2612.00001");
        assert_eq!(
            v["authors"],
            "Ada Lovelace, Martin Luther King Jr, The Synthetic Collaboration"
        );
        assert_eq!(
            v["authors_parsed"],
            serde_json::json!([
                ["Lovelace", "Ada", ""],
                ["King", "Martin Luther", "Jr"],
                ["The Synthetic Collaboration", "", ""]
            ])
        );
        assert_eq!(
            v["versions"],
            serde_json::json!([{"version": "v1", "created": "2026-11-28"}])
        );
        assert_eq!(v["update_date"], "2026-12-02");
        assert_eq!(v["categories"], "cs.LG stat.ML");
        assert_eq!(v["journal-ref"], "J. Synth. Res. 1 (2026) 1-12");
        assert_eq!(v["doi"], "10.5555/synthetic.2026.001 10.5555/second.doi");
        assert_eq!(v["comments"], "12 pages & 3 figures");
        assert_eq!(v["report-no"], serde_json::Value::Null);
        assert!(v.get("submitter").is_none());
        assert!(
            v["abstract"]
                .as_str()
                .unwrap()
                .starts_with("  This record is written by hand")
        );
        // arXivRaw keeps its submitter, versions and string of names.
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/data/sources/oaipmh_getrecord_arxivraw.xml"
        );
        let page = parse_page(&std::fs::read_to_string(path).unwrap());
        let (_, line) = snapshot_line(&page.records[0]).unwrap();
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(v["submitter"], "Pavel Nadolsky");
        assert_eq!(
            v["authors"],
            "C. Bal\\'azs, E. L. Berger, P. M. Nadolsky, C.-P. Yuan"
        );
        assert_eq!(v["versions"][1]["created"], "Tue, 24 Jul 2007 20:10:27 GMT");
    }
}
