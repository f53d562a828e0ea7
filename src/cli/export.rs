//! `paperboat export`: the bookmarked papers (or all) as a reading list.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use super::*;
use crate::export::{self};
use crate::loading::Format;
use crate::store::Field;

/// `--format` values of `export`.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum ExportFormat {
    /// A Markdown reading list.
    Markdown,
    /// BibTeX `@misc` entries.
    Bibtex,
    /// A JSON array.
    Json,
}

/// Arguments of `paperboat export`.
#[derive(Args, Debug)]
pub struct ExportArgs {
    /// Output format.
    #[arg(long, value_enum)]
    pub format: ExportFormat,
    /// Every paper, not just the bookmarked ones.
    #[arg(long)]
    pub all: bool,
    /// Files to export from (`-` for standard input). None: the bundled lists.
    pub files: Vec<PathBuf>,
    /// Read every input as this format instead of detecting it.
    #[arg(long, value_name = "FORMAT", value_parser = input_format())]
    pub input_format: Option<Format>,
    /// Refuse inputs larger than SIZE (bytes, or with K, M, G: 500M, 2G).
    #[arg(long, value_name = "SIZE", default_value = "2G", value_parser = parse_size)]
    pub max_size: u64,
}

pub(super) fn export_cmd(cli: &Cli, args: &ExportArgs) -> anyhow::Result<ExitCode> {
    let load_args = LoadArgs {
        format: args.input_format,
        max_size: args.max_size,
    };
    let loaded = load_files(&load_args, &args.files)?;
    let store = open_store(cli, &loaded.corpus)?;
    let (corpus, state) = (&loaded.corpus, store.state());
    let indices: Vec<usize> = (0..corpus.len())
        .filter(|&i| args.all || state.is_on(corpus.papers[i].id.as_str(), Field::Bookmark))
        .collect();
    if indices.is_empty() {
        eprintln!("paperboat: no bookmarked papers to export (use --all for every paper)");
    }
    let format = match args.format {
        ExportFormat::Markdown => export::Format::Markdown,
        ExportFormat::Bibtex => export::Format::Bibtex,
        ExportFormat::Json => export::Format::Json,
    };
    emit(|out| export::write(out, format, corpus, &indices, state))?;
    Ok(ExitCode::SUCCESS)
}
