//! `paperboat list` and `paperboat mark`: papers with their marks, and marking them.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::select::{self, Filter, Marked, latest_session, load_with_ids, parse_day, sort_key};
use super::*;
use crate::export::{JsonPaper, Text};
use crate::order::SortKey;
use crate::store::Stamp;
use crate::store::{self, Flag};
use crate::text::markup;

/// Arguments of `paperboat list`.
#[derive(Args, Debug)]
#[command(group = clap::ArgGroup::new("which").multiple(false))]
pub struct ListArgs {
    /// Only bookmarked papers.
    #[arg(long, group = "which")]
    pub bookmarked: bool,
    /// Only papers not marked read.
    #[arg(long, group = "which")]
    pub unread: bool,
    /// Only papers marked read.
    #[arg(long, group = "which")]
    pub read: bool,
    /// Only papers with this tag (repeat for papers with every one).
    #[arg(long, value_name = "TAG")]
    pub tag: Vec<String>,
    /// Only papers first seen in the latest reader session that opened these files.
    #[arg(long, conflicts_with = "since")]
    pub new: bool,
    /// Only papers the reader first saw on or after this day (YYYY-MM-DD, local time).
    #[arg(long, value_name = "DATE", value_parser = parse_day)]
    pub since: Option<Stamp>,
    /// The order: as the files list them, by year, first author, or first seen.
    #[arg(long, value_name = "KEY", default_value = "file", value_parser = sort_key())]
    pub sort: SortKey,
    /// One JSON object per line, with `bookmarked`, `read`, `tags`, `note` and `first_seen`; the
    /// title and abstract as the file wrote them (`$25\times$`).
    #[arg(long)]
    pub json: bool,
    /// With --json: the title and abstract as they read on screen (`$25\times$` → `25×`).
    #[arg(long, requires = "json")]
    pub rendered: bool,
    /// Files to list (`-` for standard input). None: the bundled lists.
    pub files: Vec<PathBuf>,
    /// How to read the files.
    #[command(flatten)]
    pub load: LoadArgs,
}

/// Arguments of `paperboat mark`.
#[derive(Args, Debug)]
#[command(group = clap::ArgGroup::new("how").required(true).multiple(false))]
pub struct MarkArgs {
    /// Bookmark them.
    #[arg(long, group = "how")]
    pub bookmark: bool,
    /// Remove their bookmarks.
    #[arg(long, group = "how")]
    pub unbookmark: bool,
    /// Mark them read.
    #[arg(long, group = "how")]
    pub read: bool,
    /// Mark them unread.
    #[arg(long, group = "how")]
    pub unread: bool,
    /// Paper ids (or unique prefixes; an arXiv id, DOI or OpenReview forum as cited works too),
    /// then the files they are in; an argument naming an existing file (or `-`) is a file, one
    /// that looks like a file name and names none an error. No files: the bundled lists.
    #[arg(required = true, value_name = "ID|FILE")]
    pub args: Vec<String>,
    /// How to read the files.
    #[command(flatten)]
    pub load: LoadArgs,
}

/// `<id>\t<marks>\t<title>`, as `list` and `mark` print a paper.
fn write_row(
    out: &mut dyn std::io::Write,
    corpus: &crate::corpus::Corpus,
    state: &store::State,
    i: usize,
) -> std::io::Result<()> {
    let p = &corpus.papers[i];
    writeln!(
        out,
        "{}\t{}\t{}",
        corpus.short_id(i),
        marks_column(state, p.id.as_str()),
        markup::plain(&p.title)
    )
}

fn marks_column(state: &store::State, id: &str) -> &'static str {
    match (state.is_on(id, Flag::Bookmark), state.is_on(id, Flag::Read)) {
        (true, true) => "br",
        (true, false) => "b-",
        (false, true) => "-r",
        (false, false) => "--",
    }
}

pub(super) fn list(cli: &Cli, args: &ListArgs) -> anyhow::Result<ExitCode> {
    let loaded = load_files(&args.load, &args.files)?;
    let store = open_store(cli, &loaded.corpus)?;
    let corpus = &loaded.corpus;
    let filter = Filter {
        marked: if args.bookmarked {
            Marked::Bookmarked
        } else if args.unread {
            Marked::Unread
        } else if args.read {
            Marked::Read
        } else {
            Marked::Any
        },
        tags: args.tag.clone(),
        new: args.new,
        since: args.since,
    };
    if args.new && latest_session(corpus, &store).is_none() {
        eprintln!("paperboat: the reader has not opened these files yet, so no paper is new");
    }
    let keep = filter.keeper(corpus, &store);
    let mut rows: Vec<u32> = (0..corpus.len())
        .filter(|&i| keep(i))
        .map(|i| i as u32)
        .collect();
    select::sort(corpus, &store, &mut rows, args.sort);
    let state = store.state();
    emit(|out| {
        for &i in &rows {
            let i = i as usize;
            if args.json {
                let text = if args.rendered {
                    Text::Shown
                } else {
                    Text::Source
                };
                serde_json::to_writer(&mut *out, &JsonPaper::new(corpus, i, &store, text))?;
                writeln!(out)?;
            } else {
                write_row(out, corpus, state, i)?;
            }
        }
        Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}

pub(super) fn mark(cli: &Cli, args: &MarkArgs) -> anyhow::Result<ExitCode> {
    let (loaded, found) = load_with_ids(&args.load, &args.args, "marked")?;
    let corpus = &loaded.corpus;
    let (field, on) = if args.bookmark {
        (Flag::Bookmark, true)
    } else if args.unbookmark {
        (Flag::Bookmark, false)
    } else if args.read {
        (Flag::Read, true)
    } else {
        (Flag::Read, false)
    };
    let mut store = open_store(cli, corpus)?;
    let changes: Vec<(&str, Flag, bool)> = found
        .iter()
        .map(|&i| (corpus.papers[i].id.as_str(), field, on))
        .collect();
    store.set(&changes)?;
    let state = store.state();
    emit(|out| {
        for &i in &found {
            write_row(out, corpus, state, i)?;
        }
        Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}
