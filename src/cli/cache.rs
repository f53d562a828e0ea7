//! `paperboat cache …`: where the cache of large files is, how much it
//! holds, and emptying it. What the cache is: docs/CACHE.md.

use std::process::ExitCode;

use clap::Subcommand;

use super::{Cli, emit};
use crate::loading::{self, CacheOptions};

/// `paperboat cache …`.
#[derive(Subcommand, Debug)]
pub enum CacheCommand {
    /// Print the cache directory.
    Path,
    /// Print what the cache holds, and its limit.
    Size,
    /// Remove paperboat's entries from the cache directory (nothing else).
    Clear,
}

/// Runs `paperboat cache …`.
pub fn cache(cli: &Cli, command: &CacheCommand) -> anyhow::Result<ExitCode> {
    let CacheOptions { dir, limit } = super::cache_options(cli).ok_or_else(|| {
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
                    "{} in {} ({}, {}); limit {}",
                    loading::size(u.bytes),
                    plural(u.papers + u.indexes, "entry", "entries"),
                    plural(u.papers, "file's papers", "files' papers"),
                    plural(u.indexes, "word index", "word indexes"),
                    loading::size(limit)
                )
            })?;
        }
        CacheCommand::Clear => {
            let freed = loading::cache::clear(&dir)?;
            emit(|out| writeln!(out, "removed {}", loading::size(freed)))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
