//! `paperboat list` and `paperboat mark`: papers with their marks, and marking them.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::*;
use crate::export::JsonPaper;
use crate::store::{self, Field};
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
    /// One JSON object per line, with `bookmarked` and `read` fields.
    #[arg(long)]
    pub json: bool,
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
    /// Paper ids (or unique prefixes), then the files they are in; an
    /// argument naming an existing file (or `-`) is a file. No files: the
    /// bundled lists.
    #[arg(required = true, value_name = "ID|FILE")]
    pub args: Vec<String>,
    /// How to read the files.
    #[command(flatten)]
    pub load: LoadArgs,
}

fn marks_column(state: &store::State, id: &str) -> &'static str {
    match (
        state.is_on(id, Field::Bookmark),
        state.is_on(id, Field::Read),
    ) {
        (true, true) => "br",
        (true, false) => "b-",
        (false, true) => "-r",
        (false, false) => "--",
    }
}

pub(super) fn list(cli: &Cli, args: &ListArgs) -> anyhow::Result<ExitCode> {
    let loaded = load_files(&args.load, &args.files)?;
    let store = open_store(cli, &loaded.corpus)?;
    let (corpus, state) = (&loaded.corpus, store.state());
    emit(|out| {
        for (i, p) in corpus.papers.iter().enumerate() {
            let id = p.id.as_str();
            let keep = if args.bookmarked {
                state.is_on(id, Field::Bookmark)
            } else if args.unread {
                !state.is_on(id, Field::Read)
            } else if args.read {
                state.is_on(id, Field::Read)
            } else {
                true
            };
            if !keep {
                continue;
            }
            if args.json {
                serde_json::to_writer(&mut *out, &JsonPaper::new(corpus, i, state))?;
                writeln!(out)?;
            } else {
                writeln!(
                    out,
                    "{}\t{}\t{}",
                    corpus.short_id(i),
                    marks_column(state, id),
                    markup::plain(&p.title)
                )?;
            }
        }
        Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}

pub(super) fn mark(cli: &Cli, args: &MarkArgs) -> anyhow::Result<ExitCode> {
    let (files, ids): (Vec<&String>, Vec<&String>) = args
        .args
        .iter()
        .partition(|a| a.as_str() == "-" || std::path::Path::new(a).exists());
    if ids.is_empty() {
        anyhow::bail!("no paper ids given (arguments that name files are read as files)");
    }
    let files: Vec<PathBuf> = files.into_iter().map(PathBuf::from).collect();
    let loaded = load_files(&args.load, &files)?;
    let corpus = &loaded.corpus;
    let mut found = Vec::new();
    let mut problems = Vec::new();
    for id in &ids {
        match resolve(corpus, id) {
            Ok(i) => found.push(i),
            Err(why) => problems.push(why),
        }
    }
    if !problems.is_empty() {
        anyhow::bail!("{}; nothing was marked", problems.join("; "));
    }
    let (field, on) = if args.bookmark {
        (Field::Bookmark, true)
    } else if args.unbookmark {
        (Field::Bookmark, false)
    } else if args.read {
        (Field::Read, true)
    } else {
        (Field::Read, false)
    };
    let mut store = open_store(cli, corpus)?;
    let changes: Vec<(&str, Field, bool)> = found
        .iter()
        .map(|&i| (corpus.papers[i].id.as_str(), field, on))
        .collect();
    store.set(&changes)?;
    let state = store.state();
    emit(|out| {
        for &i in &found {
            let p = &corpus.papers[i];
            writeln!(
                out,
                "{}\t{}\t{}",
                corpus.short_id(i),
                marks_column(state, p.id.as_str()),
                markup::plain(&p.title)
            )?;
        }
        Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}
