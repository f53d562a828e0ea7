//! `paperboat related`: the papers most like a paper, a text, or the bookmarks.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::search::write_hit;
use super::*;
use crate::search::{self, Probe};
use crate::store::Flag;

/// Arguments of `paperboat related`: a paper's id, `--text` or
/// `--bookmarked`, exactly one of them.
#[derive(Args, Debug)]
#[command(
    group = clap::ArgGroup::new("like").multiple(false),
    override_usage = "paperboat related [OPTIONS] (ID | --text TEXT | --bookmarked) [FILE]..."
)]
pub struct RelatedArgs {
    /// Papers like this text (a sentence, an abstract) instead of a paper.
    #[arg(long, value_name = "TEXT", group = "like")]
    pub text: Option<String>,
    /// The unread papers most like the bookmarked ones together: what to read next.
    #[arg(long, group = "like")]
    pub bookmarked: bool,
    /// Print at most N papers.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub limit: usize,
    /// One JSON object per line instead of `<id>\t<title>` (as `search --json`, the score a likeness).
    #[arg(long)]
    pub json: bool,
    /// The paper's id or a unique id prefix (an arXiv id, DOI or OpenReview forum as cited works
    /// too), then the files (`-` for standard input; none: the bundled lists). With --text or
    /// --bookmarked, files only.
    #[arg(value_name = "ID|FILE")]
    pub args: Vec<String>,
    /// How to read the files.
    #[command(flatten)]
    pub load: LoadArgs,
}

/// `paperboat related`: the papers most like a paper (by id), a text, or
/// the bookmarked papers (then only unread papers), best first.
pub(super) fn related(cli: &Cli, args: &RelatedArgs) -> anyhow::Result<ExitCode> {
    let by_paper = args.text.is_none() && !args.bookmarked;
    let (id, files) = match args.args.split_first() {
        Some((id, files)) if by_paper => (Some(id), files),
        None if by_paper => anyhow::bail!("give a paper id, --text TEXT or --bookmarked"),
        _ => (None, &args.args[..]),
    };
    let which = if args.bookmarked {
        "--bookmarked"
    } else {
        "--text"
    };
    if let Some(a) = files
        .iter()
        .find(|a| id.is_none() && *a != "-" && !std::path::Path::new(a).exists())
    {
        anyhow::bail!(
            "{} is not a file, and a paper id cannot be given with {which}",
            crate::text::sanitize::line(a)
        );
    }
    if let Some(id) = id {
        super::select::check_id(id)?;
    }
    let files: Vec<PathBuf> = files.iter().map(PathBuf::from).collect();
    let loaded = load_files(&args.load, &files)?;
    let corpus = &loaded.corpus;
    let like = |probe, keep: &dyn Fn(usize) -> bool| {
        search::related_papers(&corpus.papers, probe, args.limit, keep)
    };
    let found = if let Some(id) = id {
        let i = resolve(corpus, id).map_err(anyhow::Error::msg)?;
        like(Probe::Paper(i), &|_| true)
    } else if let Some(text) = &args.text {
        if text.trim().is_empty() {
            anyhow::bail!("--text is empty: give the words to find papers like");
        }
        like(Probe::Text(text), &|_| true)
    } else {
        let store = open_store(cli, corpus)?;
        let on = |i: usize, f| store.is_on(corpus.papers[i].id.as_str(), f);
        let marked: Vec<usize> = (0..corpus.len())
            .filter(|&i| on(i, Flag::Bookmark))
            .collect();
        if marked.is_empty() {
            eprintln!(
                "paperboat: no paper of these lists is bookmarked, so there is nothing to go on \
                 (bookmark with b in the reader or `paperboat mark --bookmark ID`)"
            );
            return Ok(ExitCode::from(1));
        }
        like(Probe::Papers(&marked), &|i| !on(i, Flag::Read))
    };
    emit(|out| {
        for r in &found {
            write_hit(out, corpus, r.idx, args.json.then_some(r.score))?;
        }
        Ok(())
    })?;
    Ok(if found.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
