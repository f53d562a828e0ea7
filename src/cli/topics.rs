//! `paperboat topics`: what a list is about, as labelled groups of its
//! papers, largest first (`search::learn::topics`).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use serde::Serialize;

use super::*;
use crate::search::learn::list_topics;

/// Arguments of `paperboat topics`.
#[derive(Args, Debug)]
pub struct TopicsArgs {
    /// Group into N topics (default: from the list's size n, √(n/2)/2.5 from 2 to 60: 14 at 2,600).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub k: Option<u32>,
    /// One JSON object per topic: {"topic": N, "label": "...", "words": [...], "ids": [...]}.
    #[arg(long)]
    pub json: bool,
    /// The files (`-` for standard input; none: the bundled lists).
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// How to read the files.
    #[command(flatten)]
    pub load: LoadArgs,
}

/// A topic as `--json` writes it.
#[derive(Serialize)]
struct Line<'a> {
    topic: usize,
    label: &'a str,
    words: &'a [String],
    ids: Vec<&'a str>,
}

/// `paperboat topics`: `<N>\t<papers>\t<label>` a topic, or JSON lines.
pub(super) fn topics(args: &TopicsArgs) -> anyhow::Result<ExitCode> {
    let loaded = load_files(&args.load, &args.files)?;
    let corpus = &loaded.corpus;
    if corpus.is_empty() {
        anyhow::bail!("no papers to group");
    }
    let found = match args.k {
        Some(k) => list_topics(&corpus.papers, Some(k as usize)),
        // The default grouping, kept in the cache beside the word index.
        None => crate::loading::topics_of(
            &crate::loading::Input::from_args(&args.files),
            &load_options(&args.load),
            &corpus.papers,
        ),
    };
    emit(|out| {
        for (n, t) in found.topics.iter().enumerate() {
            if args.json {
                let line = Line {
                    topic: n + 1,
                    label: &t.label,
                    words: &t.words,
                    ids: t
                        .papers
                        .iter()
                        .map(|&i| corpus.papers[i].id.as_str())
                        .collect(),
                };
                serde_json::to_writer(&mut *out, &line)?;
                writeln!(out)?;
            } else {
                writeln!(out, "{}\t{}\t{}", n + 1, t.papers.len(), t.label)?;
            }
        }
        Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}
