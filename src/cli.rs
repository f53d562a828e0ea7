//! The command line: the reader (no subcommand) and the commands that print
//! instead of opening a screen. Parsing is clap's; what each command prints
//! is here, written to a buffered stdout that treats a closed pipe
//! (`paperboat search x | head`) as success.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use serde::Serialize;

use crate::corpus::load::{self, Input, Loaded};
use crate::search::{self, Scope};
use crate::text::markup;

/// A fast terminal reader for lists of research-paper abstracts.
#[derive(Parser, Debug)]
#[command(
    name = "paperboat",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    /// What to do; without one, open the reader.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Files to read (`-` for standard input). None: the bundled ICML 2026 lists.
    pub files: Vec<PathBuf>,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Print the papers matching QUERY, best first (exit 1 when none match).
    Search(SearchArgs),
}

/// `--scope` values.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum ScopeArg {
    /// Titles only.
    Title,
    /// Titles and abstracts.
    All,
}

impl From<ScopeArg> for Scope {
    fn from(s: ScopeArg) -> Scope {
        match s {
            ScopeArg::Title => Scope::Title,
            ScopeArg::All => Scope::All,
        }
    }
}

/// Arguments of `paperboat search`.
#[derive(Args, Debug)]
pub struct SearchArgs {
    /// Match titles, or titles and abstracts.
    #[arg(long, value_enum, default_value_t = ScopeArg::Title)]
    pub scope: ScopeArg,
    /// Print at most N matches.
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// One JSON object per line instead of `<id>\t<title>`.
    #[arg(long)]
    pub json: bool,
    /// The query, in fzf syntax (`'exact`, `^prefix`, `suffix$`, `!not`); empty matches all.
    pub query: String,
    /// Files to search (`-` for standard input). None: the bundled lists.
    pub files: Vec<PathBuf>,
}

/// A search hit as `--json` prints it.
#[derive(Serialize)]
struct Hit<'a> {
    id: &'a str,
    short_id: &'a str,
    title: String,
    #[serde(rename = "abstract")]
    abstract_text: &'a str,
    source: &'a str,
    score: u32,
    authors: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    year: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    venue: Option<&'a str>,
    links: &'a [String],
}

/// Writes through `f`; a closed pipe ends the output quietly.
fn emit(f: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> anyhow::Result<()> {
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    match f(&mut out).and_then(|()| out.flush()) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}

fn load_files(files: &[PathBuf]) -> anyhow::Result<Loaded> {
    Ok(load::load(&Input::from_args(files))?)
}

fn search(args: &SearchArgs) -> anyhow::Result<ExitCode> {
    let loaded = load_files(&args.files)?;
    let corpus = &loaded.corpus;
    let matches = search::rank_papers(&corpus.papers, &args.query, args.scope.into());
    let shown = &matches[..args.limit.unwrap_or(usize::MAX).min(matches.len())];
    emit(|out| {
        for m in shown {
            let i = m.idx as usize;
            let p = &corpus.papers[i];
            let title = markup::plain(&p.title);
            if args.json {
                let hit = Hit {
                    id: p.id.as_str(),
                    short_id: corpus.short_id(i),
                    title,
                    abstract_text: &p.abstract_text,
                    source: &p.source,
                    score: m.points(),
                    authors: &p.authors,
                    year: p.year,
                    venue: p.venue.as_deref(),
                    links: &p.links,
                };
                serde_json::to_writer(&mut *out, &hit)?;
                writeln!(out)?;
            } else {
                writeln!(out, "{}\t{}", corpus.short_id(i), title)?;
            }
        }
        Ok(())
    })?;
    Ok(if matches.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Runs the command line; returns the process exit code.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match &cli.command {
        Some(Command::Search(args)) => search(args),
        None => {
            let loaded = load_files(&cli.files)?;
            crate::terminal::run(loaded)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// The whole program: parse, run, report. Errors print as
/// `paperboat: <message>` and exit 2 (as usage errors do).
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("paperboat: {e:#}");
            ExitCode::from(2)
        }
    }
}
