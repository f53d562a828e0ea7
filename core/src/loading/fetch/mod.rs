//! Fetching lists from their sources into a file paperboat reads: arXiv
//! through its OAI-PMH interface, OpenReview through its API v2 notes.
//!
//! A fetch writes JSON Lines: for arXiv one line per paper in the shape of
//! arXiv's metadata snapshot (which the JSON Lines reader reads fast), for
//! OpenReview each submission note as the API gave it. Lines are appended
//! a page at a time, whole, so that an interruption (Ctrl-C, a dropped
//! connection, a kill) leaves a valid file holding every paper received;
//! a torn last line left by a kill is dropped the next time. Fetching
//! again into the same file adds only what it lacks (arXiv: from the last
//! datestamp it holds; OpenReview: the forum ids it lacks) and never
//! rewrites a line, so ids, and the marks kept under them, stay.
//!
//! Requests are polite as the services ask (`http.rs`): one at a time, at
//! most one every 3 s on arXiv, a 503's Retry-After and OpenReview's 429
//! `resetTime` waited out, other failures retried a bounded number of
//! times with a growing pause. `arxiv.rs` and `openreview.rs` page
//! through each service; `list_file.rs` keeps the file.
//!
//! Fetched lists live in the user data directory (`lists/`), named after
//! their source (`cs-lg.jsonl`, `icml2026.jsonl`), where [`list_named`]
//! finds them by name for every command that takes files.

mod arxiv;
mod http;
mod list_file;
mod openreview;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use thiserror::Error;

pub use self::arxiv::{ArxivTarget, snapshot_line};
pub use self::openreview::venue_list_name;

/// arXiv's OAI-PMH base URL.
pub const ARXIV_ENDPOINT: &str = "https://oaipmh.arxiv.org/oai";
/// OpenReview's API v2 base URL.
pub const OPENREVIEW_ENDPOINT: &str = "https://api2.openreview.net";

/// The file extension of fetched lists.
pub const LIST_EXTENSION: &str = "jsonl";

/// Where a list comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// An arXiv set, or a category kept from its archive's set.
    Arxiv(ArxivTarget),
    /// An OpenReview venue id (`ICML.cc/2026/Conference`).
    OpenReview(String),
}

impl Source {
    /// The service's name, for messages.
    pub fn service(&self) -> &'static str {
        match self {
            Source::Arxiv(_) => "arXiv",
            Source::OpenReview(_) => "OpenReview",
        }
    }

    /// The name of the list a fetch of this source makes: `cs-lg`,
    /// `icml2026`.
    pub fn list_name(&self) -> String {
        match self {
            Source::Arxiv(target) => target.list_name(),
            Source::OpenReview(venue) => venue_list_name(venue),
        }
    }

    /// The endpoint used unless another is given.
    pub fn default_endpoint(&self) -> &'static str {
        match self {
            Source::Arxiv(_) => ARXIV_ENDPOINT,
            Source::OpenReview(_) => OPENREVIEW_ENDPOINT,
        }
    }
}

/// How to fetch.
#[derive(Clone, Debug)]
pub struct Options {
    /// The server (default: the source's own, [`Source::default_endpoint`]).
    pub endpoint: Option<String>,
    /// arXiv: the first datestamp wanted (`YYYY-MM-DD`); by default the
    /// last the file holds, or none for a new file.
    pub from: Option<String>,
    /// arXiv: the last datestamp wanted.
    pub until: Option<String>,
    /// The pause between requests and the first pause before a retry
    /// (default: 3 s on arXiv, 1 s on OpenReview). Never under 3 s on
    /// arXiv's own servers.
    pub delay: Option<Duration>,
    /// How long a server may take to connect, answer and send a page
    /// (default: 30 s, 3 min and 5 min).
    pub timeout: Option<Duration>,
    /// Set (by a signal) to stop: the fetch ends after the page it is
    /// writing, if any, with every page received kept.
    pub stop: Arc<AtomicBool>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            endpoint: None,
            from: None,
            until: None,
            delay: None,
            timeout: None,
            stop: Arc::new(AtomicBool::new(false)),
        }
    }
}

/// What a fetch did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Pages received.
    pub pages: usize,
    /// Papers received (deleted records and replies not counted).
    pub received: usize,
    /// Papers written: those the file lacked.
    pub written: usize,
    /// Papers the file held already.
    pub held: usize,
    /// arXiv: papers of the set that do not list the category asked for.
    pub outside: usize,
    /// arXiv: deleted records; OpenReview: notes that are not submissions.
    pub passed_over: usize,
    /// The papers the file holds now.
    pub total: usize,
    /// arXiv: the `from` sent (the file's last datestamp or `--from`).
    pub from: Option<String>,
    /// Stopped by a signal before the list ended.
    pub interrupted: bool,
    /// A torn last line (from a killed fetch) was dropped before writing.
    pub repaired: bool,
}

/// What a fetch says as it goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Progress {
    /// A page is asked for (1-based).
    Request { page: usize },
    /// A page is written: the totals so far.
    Page {
        page: usize,
        received: usize,
        written: usize,
        /// How many papers the whole list holds, when the server says.
        expected: Option<u64>,
    },
    /// Waiting before the next request, and why ("arXiv asks to wait 2 s").
    Waiting { why: String, seconds: u64 },
}

/// Why a fetch failed. Every page received before stays in the file.
#[derive(Debug, Error)]
pub enum FetchError {
    #[error("{endpoint}, page {page}: {why}")]
    Http {
        endpoint: String,
        page: usize,
        why: String,
    },
    #[error("{endpoint}, page {page}: the server answered with OAI-PMH error {code}: {message}")]
    Oai {
        endpoint: String,
        page: usize,
        code: String,
        message: String,
    },
    #[error("{endpoint}, page {page}: {what}")]
    Malformed {
        endpoint: String,
        page: usize,
        what: String,
    },
    #[error("{}: {why}", path.display())]
    File { path: PathBuf, why: String },
    #[error("{0}")]
    Usage(String),
}

/// Fetches `source` into `file` (created when missing, appended to
/// otherwise); `progress` hears how it goes.
pub fn fetch(
    source: &Source,
    file: &Path,
    opts: &Options,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Summary, FetchError> {
    let endpoint = opts
        .endpoint
        .clone()
        .unwrap_or_else(|| source.default_endpoint().to_string());
    let mut client = http::Client::new(source.service(), &endpoint, opts)?;
    let mut list = list_file::ListFile::open(file, list_file::Kind::of(source))?;
    let repaired = list.repaired();
    let mut summary = match source {
        Source::Arxiv(target) => {
            arxiv::harvest(target, &endpoint, opts, &mut list, &mut client, progress)?
        }
        Source::OpenReview(venue) => {
            openreview::harvest(venue, &endpoint, &mut list, &mut client, progress)?
        }
    };
    summary.repaired = repaired;
    summary.total = list.len();
    Ok(summary)
}

/// The directory fetched lists go to: `lists/` in `PAPERBOAT_DATA_DIR`,
/// else in the user data directory (`~/.local/share/paperboat/lists`).
pub fn lists_dir() -> Option<PathBuf> {
    let data = std::env::var_os("PAPERBOAT_DATA_DIR")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            directories::ProjectDirs::from("", "", "paperboat").map(|d| d.data_dir().to_path_buf())
        })?;
    Some(data.join("lists"))
}

/// The file a fetch of `source` writes by default.
pub fn default_file(source: &Source) -> Option<PathBuf> {
    Some(lists_dir()?.join(format!("{}.{LIST_EXTENSION}", source.list_name())))
}

/// The fetched list `arg` names, when `arg` is a bare name (no directory)
/// of a list in [`lists_dir`]: `icml2026` or `icml2026.jsonl`.
pub fn list_named(arg: &str) -> Option<PathBuf> {
    if arg.is_empty() || arg.contains(['/', '\\']) || arg.starts_with('.') {
        return None;
    }
    let dir = lists_dir()?;
    [dir.join(format!("{arg}.{LIST_EXTENSION}")), dir.join(arg)]
        .into_iter()
        .find(|p| p.is_file())
}

/// `text` as a list name: lower case, each run of other characters than
/// letters and digits one `-`, none at the ends (`cs.LG` → `cs-lg`).
pub(crate) fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_named_after_their_source() {
        let name = |s: &Source| s.list_name();
        let arxiv = |t: &str| Source::Arxiv(ArxivTarget::parse(t).unwrap());
        assert_eq!(name(&arxiv("cs.LG")), "cs-lg");
        assert_eq!(name(&arxiv("physics:hep-ex")), "physics-hep-ex");
        assert_eq!(name(&arxiv("math")), "math");
        let or = |v: &str| Source::OpenReview(v.to_string());
        assert_eq!(name(&or("ICML.cc/2026/Conference")), "icml2026");
        assert_eq!(name(&or("NeurIPS.cc/2025/Conference")), "neurips2025");
        assert_eq!(
            name(&or("ICLR.cc/2025/Workshop/Blog_Track")),
            "iclr2025-workshop-blog-track"
        );
        assert_eq!(name(&or("TMLR")), "tmlr");
        assert_eq!(slug("  --Ünï.Code__"), "ünï-code");
        assert_eq!(slug("…"), "");
    }
}
