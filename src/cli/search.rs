//! `paperboat search`: the papers matching a query, best first.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use serde::Serialize;

use super::*;
use crate::corpus::Corpus;
use crate::loading::{self, Input};
use crate::search::{self, Scope};
use crate::text::markup;

/// `--scope` values.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum ScopeArg {
    /// Titles only, fuzzily (fastest: abstracts are not read).
    Title,
    /// Every field: words of title, abstract and authors ranked by BM25F, then fuzzy title matches.
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
    /// Match every field (words ranked by relevance), or titles only.
    #[arg(long, value_enum, default_value_t = ScopeArg::All)]
    pub scope: ScopeArg,
    /// Print at most N matches.
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// One JSON object per line instead of `<id>\t<title>`.
    #[arg(long)]
    pub json: bool,
    /// The query, in fzf syntax (`'exact`, `^prefix`, `suffix$`, `!not`, `a | b`) with field
    /// atoms (`author:`, `title:`, `abs:`, `venue:`, `year:2019..2021`, `id:`); empty matches all.
    pub query: String,
    /// Files to search (`-` for standard input). None: the bundled lists.
    pub files: Vec<PathBuf>,
    /// How to read the files.
    #[command(flatten)]
    pub load: LoadArgs,
}

/// A search hit (or a related paper) as `--json` prints it; `S` is the
/// score's type.
#[derive(Serialize)]
struct Hit<'a, S> {
    id: &'a str,
    short_id: &'a str,
    title: std::borrow::Cow<'a, str>,
    #[serde(rename = "abstract")]
    abstract_text: std::borrow::Cow<'a, str>,
    source: &'a str,
    score: S,
    authors: &'a crate::corpus::Authors,
    #[serde(skip_serializing_if = "Option::is_none")]
    year: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    venue: Option<&'a str>,
    links: Vec<String>,
}

pub(super) fn search(args: &SearchArgs) -> anyhow::Result<ExitCode> {
    let query = match search::Query::parse_checked(&args.query) {
        Ok(q) => q,
        Err(e) => {
            eprintln!("paperboat: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    // Field atoms and `|` groups ask for more than titles.
    if args.json || args.scope == ScopeArg::All || !query.filters.is_empty() {
        return search_papers(args);
    }
    // `<id>\t<title>` lines need only titles and ids: papers are not kept.
    let (list, reports) =
        loading::load_titles(&Input::from_args(&args.files), &load_options(&args.load))?;
    say_reports(&reports);
    let matches = list.rank(&args.query);
    let ahead = |m: &search::Match, far| list.prefetch_line(m.idx as usize, far);
    print_matches(args, &matches, ahead, |out, m| {
        list.write_line(out, m.idx as usize);
        Ok(())
    })?;
    // The process ends next: the OS takes the memory back at once, where
    // freeing a million titles one by one takes a tenth of a second.
    std::mem::forget(list);
    Ok(found(&matches))
}

/// `search --json` or over abstracts: whole papers.
fn search_papers(args: &SearchArgs) -> anyhow::Result<ExitCode> {
    let loaded = load_files(&args.load, &args.files)?;
    let corpus = &loaded.corpus;
    let matches = search::rank_papers(&corpus.papers, &args.query, args.scope.into());
    print_matches(
        args,
        &matches,
        |_, _| {},
        |out, m| write_hit(out, corpus, m.idx as usize, args.json.then(|| m.points())),
    )?;
    // As in `search`.
    std::mem::forget(loaded);
    Ok(found(&matches))
}

impl<'a, S> Hit<'a, S> {
    fn new(corpus: &'a Corpus, i: usize, score: S) -> Hit<'a, S> {
        let p = &corpus.papers[i];
        Hit {
            id: p.id.as_str(),
            short_id: corpus.short_id(i),
            title: markup::plain_cow(&p.title),
            abstract_text: p.abstract_text.text(),
            source: &p.source,
            score,
            authors: &p.authors,
            year: p.year,
            venue: p.venue.as_deref(),
            links: p.links(),
        }
    }
}

/// Writes paper `i` as `search` prints it: a JSON line with `score`
/// when there is one, else `<id>\t<title>`.
pub(super) fn write_hit<S: Serialize>(
    out: &mut dyn Write,
    corpus: &Corpus,
    i: usize,
    score: Option<S>,
) -> io::Result<()> {
    match score {
        Some(score) => {
            serde_json::to_writer(&mut *out, &Hit::new(corpus, i, score))?;
            writeln!(out)
        }
        None => writeln!(
            out,
            "{}\t{}",
            corpus.short_id(i),
            markup::plain_cow(&corpus.papers[i].title)
        ),
    }
}

/// Exit status 1 when nothing matched, as grep and fzf --filter.
fn found(matches: &[search::Match]) -> ExitCode {
    if matches.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// How many lines ahead [`print_matches`] asks for what a line reads.
const AHEAD: usize = 8;

/// Prints the matches (at most `--limit`), one `line` each, formatted in
/// blocks on every core and written in order; `ahead(m, far)` is called
/// for the match [`AHEAD`] lines on (`far`: twice that), to start
/// fetching what its line will read.
fn print_matches(
    args: &SearchArgs,
    matches: &[search::Match],
    ahead: impl Fn(&search::Match, bool) + Sync,
    line: impl Fn(&mut Vec<u8>, &search::Match) -> io::Result<()> + Sync,
) -> anyhow::Result<()> {
    let shown = &matches[..args.limit.unwrap_or(usize::MAX).min(matches.len())];
    let format_block = |block: &[search::Match]| -> io::Result<Vec<u8>> {
        let mut out = Vec::with_capacity(block.len() * 64);
        for (k, m) in block.iter().enumerate() {
            if let Some(a) = block.get(k + 2 * AHEAD) {
                ahead(a, true);
            }
            if let Some(a) = block.get(k + AHEAD) {
                ahead(a, false);
            }
            line(&mut out, m)?;
        }
        Ok(out)
    };
    const BLOCK: usize = 32_768;
    let threads = crate::parallel::threads();
    emit(|out| {
        for group in shown.chunks(BLOCK * threads) {
            let blocks = crate::parallel::map_pieces(group, BLOCK, |_, block| format_block(block));
            for block in blocks {
                out.write_all(&block?)?;
            }
        }
        Ok(())
    })
}
