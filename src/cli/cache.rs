//! `paperboat cache …`: where the cache of large files is, how much it
//! holds, filling it ahead of time, and emptying it. What the cache is:
//! docs/CACHE.md.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};

use super::{Cli, LoadArgs, emit, load_options, say_reports};
use crate::loading::{self, CacheOptions, Input};
use crate::search;

/// `paperboat cache …`.
#[derive(Subcommand, Debug)]
pub enum CacheCommand {
    /// Print the cache directory.
    Path,
    /// Print what the cache holds, and its limit.
    Size,
    /// Remove paperboat's entries from the cache directory (nothing else).
    Clear,
    /// Read files into the cache now, with their word index: what the reader stores once it has
    /// indexed a file, so that `search` over every field and the next open answer at once.
    Build(BuildArgs),
}

/// Arguments of `paperboat cache build`.
#[derive(Args, Debug)]
pub struct BuildArgs {
    /// The files (each is cached on its own).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// How to read the files.
    #[command(flatten)]
    pub load: LoadArgs,
}

/// Runs `paperboat cache …`.
pub fn cache(cli: &Cli, command: &CacheCommand) -> anyhow::Result<ExitCode> {
    let CacheOptions { dir, limit, .. } = super::cache_options(cli).ok_or_else(|| {
        anyhow::anyhow!("no cache directory found (no home directory?); set PAPERBOAT_CACHE_DIR")
    })?;
    match command {
        CacheCommand::Path => emit(|out| writeln!(out, "{}", dir.display()))?,
        CacheCommand::Size => {
            let u = loading::cache::usage(&dir)?;
            let plural = |n: usize, one: &str, many: &str| {
                format!("{n} {}", if n == 1 { one } else { many })
            };
            emit(|out| {
                writeln!(
                    out,
                    "{} in {} ({}, {}, {}); limit {}",
                    loading::size(u.bytes),
                    plural(u.papers + u.indexes + u.titles, "entry", "entries"),
                    plural(u.papers, "file's papers", "files' papers"),
                    plural(u.indexes, "word index", "word indexes"),
                    plural(u.titles, "title list", "title lists"),
                    loading::size(limit)
                )
            })?;
        }
        CacheCommand::Clear => {
            let freed = loading::cache::clear(&dir)?;
            emit(|out| writeln!(out, "removed {}", loading::size(freed)))?;
        }
        CacheCommand::Build(args) => return build(args),
    }
    Ok(ExitCode::SUCCESS)
}

/// `paperboat cache build`: each file loaded alone (its papers cached),
/// its whole word index built and stored unless one is stored already,
/// then its titles as `search` keeps them.
fn build(args: &BuildArgs) -> anyhow::Result<ExitCode> {
    let opts = load_options(&args.load);
    let Some(cache) = &opts.cache else {
        eprintln!("paperboat: the cache is off (--no-cache): nothing to build");
        return Ok(ExitCode::from(2));
    };
    let mut failed = false;
    for file in &args.files {
        let loaded = match loading::load(&[Input::Path(file.clone())], &opts) {
            Ok(loaded) => loaded,
            Err(e) => {
                eprintln!("paperboat: {e}");
                failed = true;
                continue;
            }
        };
        say_reports(&loaded.reports);
        let papers = loaded.corpus.len();
        let name = Input::Path(file.clone()).name();
        let said = if loaded.index.is_some() {
            "word index stored already".to_string()
        } else {
            let index = search::index_papers(&loaded.corpus.papers);
            let mut bytes = 0;
            loading::cache::store_index(cache, file, opts.format, papers, &mut |out| {
                bytes = index.write_to(out)?;
                Ok(bytes)
            })?;
            if loading::cache::index_for(cache, file, opts.format, papers).is_some() {
                format!("word index stored ({})", loading::size(bytes))
            } else {
                "word index not stored (too small to cache, changed meanwhile, or over the \
                 cache's limit)"
                    .to_string()
            }
        };
        // What `search` reads of the file: its finished titles.
        drop(loaded);
        let titles = match loading::load_titles(&[Input::Path(file.clone())], &opts) {
            Ok((list, _)) => {
                // As `search`: freeing millions of titles one by one is
                // left to the process's end.
                std::mem::forget(list);
                if loading::cache::has_titles(cache, file, opts.format) {
                    "titles stored"
                } else {
                    "titles not stored"
                }
            }
            Err(_) => "titles not stored",
        };
        emit(|out| writeln!(out, "{name}: {papers} papers, {said}, {titles}"))?;
    }
    Ok(if failed {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    })
}
