//! `paperboat recommend`: the unread papers, best first, by a model
//! learned from the reader's bookmarks, keeps and skips (or a tag's
//! papers), each with the words that weigh most for it.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::search::hit_json;
use super::*;
use crate::search::learn::{Resets, Trained, Whose};
use crate::store::{Flag, Stamp};

/// Arguments of `paperboat recommend`.
#[derive(Args, Debug)]
pub struct RecommendArgs {
    /// The model of a tag (its papers the positives) instead of the reader's bookmarks.
    #[arg(long, value_name = "TAG")]
    pub tag: Option<String>,
    /// Print at most N papers.
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub limit: usize,
    /// One JSON object per line (as `search --json`, the score the model's), with "why": the
    /// words, pairs or authors that weigh most for the paper.
    #[arg(long)]
    pub json: bool,
    /// Forget the model (the reader's, or --tag's) without touching any mark: only what is
    /// marked from now on teaches it.
    #[arg(long)]
    pub reset: bool,
    /// The files (`-` for standard input; none: the bundled lists).
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// How to read the files.
    #[command(flatten)]
    pub load: LoadArgs,
}

/// `paperboat recommend`.
pub(super) fn recommend(cli: &Cli, args: &RecommendArgs) -> anyhow::Result<ExitCode> {
    let whose = match &args.tag {
        Some(t) if t.trim().is_empty() => anyhow::bail!("--tag is empty: name a tag"),
        Some(t) => Whose::Tag(t.trim().to_string()),
        None => Whose::Reader,
    };
    if args.reset {
        let dir = state_dir(cli)?;
        let mut resets = Resets::read(&dir).map_err(anyhow::Error::msg)?;
        resets
            .reset(&dir, &whose, Stamp::now())
            .map_err(anyhow::Error::msg)?;
        let name = match &whose {
            Whose::Reader => "the reader's model".to_string(),
            Whose::Tag(t) => format!("the model of tag {}", crate::text::sanitize::line(t)),
        };
        eprintln!("paperboat: {name} is forgotten; marks made from now on teach it again");
        return Ok(ExitCode::SUCCESS);
    }
    // A resets file that cannot be read would bring back marks forgotten.
    Resets::read(&state_dir(cli)?).map_err(anyhow::Error::msg)?;
    let loaded = load_files(&args.load, &args.files)?;
    let corpus = &loaded.corpus;
    let store = open_store(cli, corpus)?;
    let trained = match Trained::from_store(&corpus.papers, &store, &whose) {
        Ok(t) => t,
        Err(few) => {
            eprintln!(
                "paperboat: {}",
                crate::text::sanitize::line(&few.advice(&whose))
            );
            return Ok(ExitCode::from(1));
        }
    };
    let scores = trained.scores();
    let on = |i: usize, f| store.is_on(corpus.papers[i].id.as_str(), f);
    let mut rows: Vec<usize> = (0..corpus.len())
        .filter(|&i| !on(i, Flag::Read) && !on(i, Flag::Bookmark))
        .filter(|&i| match &whose {
            Whose::Tag(t) => !store.has_tag(corpus.papers[i].id.as_str(), t),
            Whose::Reader => true,
        })
        .collect();
    rows.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
    rows.truncate(args.limit);
    emit(|out| {
        for &i in &rows {
            let p = &corpus.papers[i];
            let why = trained.why(i, p);
            if args.json {
                let mut v = hit_json(corpus, i, scores[i]);
                v["why"] = why.into();
                serde_json::to_writer(&mut *out, &v)?;
                writeln!(out)?;
            } else {
                writeln!(
                    out,
                    "{}\t{}\t{}",
                    corpus.short_id(i),
                    crate::text::markup::plain_cow(&p.title),
                    why.join(", ")
                )?;
            }
        }
        Ok(())
    })?;
    Ok(if rows.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
