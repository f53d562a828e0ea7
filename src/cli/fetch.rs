//! `paperboat fetch arxiv|openreview`: a list from its source into a file
//! the reader opens (`loading::fetch` does the fetching). On a terminal,
//! stderr shows the pages, papers and rate as they come and why a fetch
//! waits; otherwise one summary line. The file's path is printed on
//! stdout at the end. Ctrl-C (or SIGTERM, SIGHUP) stops at once, every
//! page received kept, and exits 130.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};

use super::emit;
use crate::loading::fetch::{
    self, ARXIV_ENDPOINT, ArxivTarget, FetchError, OPENREVIEW_ENDPOINT, Options, Progress, Source,
    Summary,
};

/// Arguments of `paperboat fetch`.
#[derive(Args, Debug)]
pub struct FetchArgs {
    /// Where from.
    #[command(subcommand)]
    pub source: FetchSource,
}

/// `paperboat fetch …`.
#[derive(Subcommand, Debug)]
pub enum FetchSource {
    /// Harvest an arXiv set or category through OAI-PMH (ListRecords, metadataPrefix arXiv),
    /// at most one request every 3 s. Again into the same file: only what changed since the
    /// last day it holds.
    Arxiv(ArxivArgs),
    /// Fetch a venue's submissions from OpenReview's API v2 (GET /notes?content.venueid=…),
    /// 1,000 a page. Again into the same file: only the papers it lacks.
    Openreview(OpenReviewArgs),
}

/// Arguments of `paperboat fetch arxiv`.
#[derive(Args, Debug)]
pub struct ArxivArgs {
    /// A set (cs, math, physics:hep-th) or a category (cs.LG, math.AG, astro-ph.CO): a category
    /// harvests its archive's set and keeps the papers that list it.
    #[arg(value_name = "SET_OR_CATEGORY")]
    pub set: String,
    /// Only records added or changed on or after this day (default: the last day FILE holds).
    #[arg(long, value_name = "YYYY-MM-DD", value_parser = day)]
    pub from: Option<String>,
    /// Only records added or changed on or before this day.
    #[arg(long, value_name = "YYYY-MM-DD", value_parser = day)]
    pub until: Option<String>,
    /// The OAI-PMH server.
    #[arg(long, value_name = "URL", default_value = ARXIV_ENDPOINT)]
    pub endpoint: String,
    #[command(flatten)]
    pub common: FetchCommon,
}

/// Arguments of `paperboat fetch openreview`.
#[derive(Args, Debug)]
pub struct OpenReviewArgs {
    /// The venue id, as OpenReview writes it: ICML.cc/2026/Conference.
    #[arg(value_name = "VENUE_ID")]
    pub venue: String,
    /// The API v2 server.
    #[arg(long, value_name = "URL", default_value = OPENREVIEW_ENDPOINT)]
    pub endpoint: String,
    #[command(flatten)]
    pub common: FetchCommon,
}

/// What both sources take.
#[derive(Args, Debug)]
pub struct FetchCommon {
    /// The list file, JSON Lines (default: NAME.jsonl in the data directory's lists/, e.g.
    /// cs-lg.jsonl, icml2026.jsonl; PAPERBOAT_DATA_DIR moves it). Open it later by NAME.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Seconds between requests and before a first retry (at least 3 on arXiv's servers).
    #[arg(long, value_name = "SECONDS", hide = true, value_parser = seconds)]
    pub delay: Option<Duration>,
    /// Seconds a server may take to connect, answer or send a page.
    #[arg(long, value_name = "SECONDS", hide = true, value_parser = seconds)]
    pub timeout: Option<Duration>,
}

/// `2026-12-01`, checked.
fn day(s: &str) -> Result<String, String> {
    super::select::parse_day(s).map(|_| s.to_string())
}

/// Seconds, fractions allowed.
fn seconds(s: &str) -> Result<Duration, String> {
    s.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && *v >= 0.0 && *v < 1e6)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| format!("not a number of seconds: {s}"))
}

/// Says on stderr how a fetch goes.
struct Reporter {
    live: bool,
    what: String,
    started: Instant,
    page: usize,
    received: usize,
    written: usize,
    expected: Option<u64>,
    waiting: Option<String>,
}

impl Reporter {
    fn hear(&mut self, p: &Progress) {
        match p {
            Progress::Request { page } => {
                self.page = *page;
                self.waiting = None;
            }
            Progress::Page {
                page,
                received,
                written,
                expected,
            } => {
                self.page = *page;
                (self.received, self.written) = (*received, *written);
                self.expected = expected.or(self.expected);
                self.waiting = None;
            }
            Progress::Waiting { why, .. } => self.waiting = Some(why.clone()),
        }
        if self.live {
            self.draw();
        }
    }

    /// Draws the live line over the last, as much of it as fits: the
    /// counts and why it waits first, the source's name when there is
    /// room.
    fn draw(&self) {
        let secs = self.started.elapsed().as_secs_f64();
        let rate = (secs >= 1.0).then(|| format!(" · {:.0}/s", self.received as f64 / secs));
        let of = self.expected.map(|n| format!(" of about {n}"));
        let why = self.waiting.as_deref().map(|w| format!(" · {w}"));
        let counts = |of: &str, rate: &str| {
            format!(
                "page {} · {} received{of}{rate} · {} new{}",
                self.page,
                self.received,
                self.written,
                why.as_deref().unwrap_or("")
            )
        };
        let full = counts(of.as_deref().unwrap_or(""), rate.as_deref().unwrap_or(""));
        // A line that wraps could not be drawn over.
        let width = crossterm::terminal::size().map_or(80, |(w, _)| usize::from(w).max(2)) - 1;
        let line = [format!("{}: {full}", self.what), full, counts("", "")]
            .into_iter()
            .find(|l| l.chars().count() <= width)
            .unwrap_or_else(|| counts("", ""));
        let line: String = line.chars().take(width).collect();
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r{line}\x1b[K");
        let _ = err.flush();
    }

    /// Ends the live line.
    fn end(&self) {
        if self.live {
            eprintln!();
        }
    }
}

/// Papers a file holds: its lines that are not blank (0 when missing).
fn lines_in(path: &Path) -> usize {
    std::fs::read(path)
        .map(|b| {
            b.split(|&c| c == b'\n')
                .filter(|l| l.iter().any(|c| !c.is_ascii_whitespace()))
                .count()
        })
        .unwrap_or(0)
}

/// Registers the signals that stop a fetch; a second one ends it at once.
fn stop_on_signals() -> anyhow::Result<Arc<AtomicBool>> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let stop = Arc::new(AtomicBool::new(false));
    for signal in [SIGINT, SIGTERM, SIGHUP] {
        signal_hook::flag::register_conditional_shutdown(signal, 130, stop.clone())?;
        signal_hook::flag::register(signal, stop.clone())?;
    }
    Ok(stop)
}

/// Runs `paperboat fetch`.
pub(super) fn fetch(args: &FetchArgs) -> anyhow::Result<ExitCode> {
    let (source, endpoint, common, from, until) = match &args.source {
        FetchSource::Arxiv(a) => {
            let target = ArxivTarget::parse(&a.set).map_err(anyhow::Error::msg)?;
            (
                Source::Arxiv(target),
                &a.endpoint,
                &a.common,
                a.from.clone(),
                a.until.clone(),
            )
        }
        FetchSource::Openreview(o) => {
            let venue = o.venue.trim();
            if venue.is_empty() {
                anyhow::bail!("the venue id is empty (e.g. ICML.cc/2026/Conference)");
            }
            (
                Source::OpenReview(venue.to_string()),
                &o.endpoint,
                &o.common,
                None,
                None,
            )
        }
    };
    let file = match &common.output {
        Some(f) => f.clone(),
        None => fetch::default_file(&source).ok_or_else(|| {
            anyhow::anyhow!("no data directory found (no home directory?); give -o FILE")
        })?,
    };
    let opts = Options {
        endpoint: Some(endpoint.clone()),
        from,
        until,
        delay: common.delay,
        timeout: common.timeout,
        stop: stop_on_signals()?,
    };
    let what = match &source {
        Source::Arxiv(t) => match &t.category {
            Some(c) => format!("arXiv {c} (set {})", t.set),
            None => format!("arXiv set {}", t.set),
        },
        Source::OpenReview(v) => format!("OpenReview {v}"),
    };
    let mut reporter = Reporter {
        live: std::io::stderr().is_terminal(),
        what: crate::text::sanitize::line(&what),
        started: Instant::now(),
        page: 0,
        received: 0,
        written: 0,
        expected: None,
        waiting: None,
    };
    let shown = crate::text::sanitize::line(&file.display().to_string());
    let result = fetch::fetch(&source, &file, &opts, &mut |p| reporter.hear(p));
    reporter.end();
    let summary = match result {
        Ok(summary) => summary,
        Err(e) => {
            let held = match &e {
                FetchError::File { .. } | FetchError::Usage(_) => String::new(),
                _ if file.exists() => format!(
                    "; {shown} holds {} papers, every one whole (run again to go on)",
                    lines_in(&file)
                ),
                _ => "; nothing was written".to_string(),
            };
            eprintln!("paperboat: fetch failed: {}{held}", sanitized(&e));
            return Ok(ExitCode::from(2));
        }
    };
    eprintln!("paperboat: {}", said(&what, &summary, &shown));
    if file.exists() {
        emit(|out| writeln!(out, "{}", file.display()))?;
    }
    Ok(if summary.interrupted {
        ExitCode::from(130)
    } else {
        ExitCode::SUCCESS
    })
}

/// An error's message, sanitized (it quotes what servers sent).
fn sanitized(e: &FetchError) -> String {
    crate::text::sanitize::line(&e.to_string())
}

/// The summary line.
fn said(what: &str, s: &Summary, file: &str) -> String {
    let count =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let mut others = Vec::new();
    if s.outside > 0 {
        others.push(format!("{} outside the category", s.outside));
    }
    if s.held > 0 {
        others.push(format!("{} held already", s.held));
    }
    if s.passed_over > 0 {
        others.push(format!(
            "{} passed over (deleted, or not submissions)",
            s.passed_over
        ));
    }
    let others = if others.is_empty() {
        String::new()
    } else {
        format!(" ({})", others.join(", "))
    };
    let since = s
        .from
        .as_deref()
        .map(|f| format!(" since {f}"))
        .unwrap_or_default();
    let head = if s.interrupted { "interrupted: " } else { "" };
    let tail = if s.total == 0 {
        "; nothing written".to_string()
    } else {
        format!("; {file} holds {}", count(s.total, "paper", "papers"))
    };
    let again = if s.interrupted {
        " (run the same command again to go on)"
    } else {
        ""
    };
    let repaired = if s.repaired {
        " (a torn last line, left by a fetch that was killed, was dropped first)"
    } else {
        ""
    };
    format!(
        "{head}{}{since}: {} in {}, {} new{others}{tail}{again}{repaired}",
        crate::text::sanitize::line(what),
        count(s.received, "paper", "papers"),
        count(s.pages, "page", "pages"),
        s.written,
    )
}

/// Gives the arguments of every command that takes files their fetched
/// lists: an argument that names no existing file but a list in the data
/// directory (`paperboat icml2026`, `paperboat list cs-lg`) is that list's
/// file. Any other argument stays as given, so a missing file is still
/// said to be missing. Paper ids (the first argument of `note`, and of
/// `related` without --text or --bookmarked) are left alone.
pub(super) fn name_lists(cli: &mut super::Cli) {
    use super::{CacheCommand, Command};
    let is_list = |arg: &str| -> Option<PathBuf> {
        if arg == "-" || Path::new(arg).exists() {
            return None;
        }
        fetch::list_named(arg)
    };
    let path = |p: &mut PathBuf| {
        if let Some(found) = p.to_str().and_then(is_list) {
            *p = found;
        }
    };
    let text = |s: &mut String| {
        if let Some(found) = is_list(s) {
            *s = found.display().to_string();
        }
    };
    match &mut cli.command {
        None => cli.files.iter_mut().for_each(path),
        Some(Command::Search(a)) => {
            a.files.iter_mut().for_each(path);
            // With --saved, the query's place holds a file.
            if a.saved.is_some()
                && let Some(q) = &mut a.query
            {
                text(q);
            }
        }
        Some(Command::List(a)) => a.files.iter_mut().for_each(path),
        Some(Command::Show(a)) => a.files.iter_mut().for_each(path),
        Some(Command::Check(a)) => a.files.iter_mut().for_each(path),
        Some(Command::Cache(CacheCommand::Build(a))) => a.files.iter_mut().for_each(path),
        Some(Command::Mark(a)) => a.args.iter_mut().for_each(text),
        Some(Command::Tag(a)) => a.args.iter_mut().for_each(text),
        Some(Command::Export(a)) => a.args.iter_mut().for_each(text),
        Some(Command::Note(a)) => a.args.iter_mut().skip(1).for_each(text),
        Some(Command::Related(a)) => {
            let skip = usize::from(a.text.is_none() && !a.bookmarked);
            a.args.iter_mut().skip(skip).for_each(text);
        }
        _ => {}
    }
}
