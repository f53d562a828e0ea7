//! `paperboat export`: the bookmarked papers (or all, those with some
//! tags, or those named) as a reading list, BibTeX, JSON or CSV.

use std::process::ExitCode;

use clap::{Args, ValueEnum};

use super::select::{self, Filter, Marked, find_ids, sort_key, split_ids};
use super::*;
use crate::export::{self};
use crate::loading::Format;
use crate::order::SortKey;

/// `--format` values of `export`.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum ExportFormat {
    /// A Markdown reading list, grouped by tag, with notes, as it reads on screen.
    Markdown,
    /// BibTeX: @article, @inproceedings or @misc (arXiv: eprint); tags as keywords, the note as
    /// annote, the id as paperboat-id.
    Bibtex,
    /// A JSON array, one object a paper (as `list --json` prints them).
    Json,
    /// CSV: id, title, abstract, authors, year, venue, doi, arxiv, url, links, keywords,
    /// categories, tags, note, bookmarked, read.
    Csv,
}

/// Arguments of `paperboat export`.
#[derive(Args, Debug)]
#[command(
    after_help = "What is exported: the bookmarked papers by default; with --all every paper; \
with --tag every paper with those tags (bookmarked or not); with ids, those papers. \
Opening a BibTeX, JSON or CSV export gives back the same papers, with the same ids, tags \
and notes."
)]
pub struct ExportArgs {
    /// Output format.
    #[arg(long, value_enum)]
    pub format: ExportFormat,
    /// Every paper of the files, not just the bookmarked ones.
    #[arg(long)]
    pub all: bool,
    /// Every paper with this tag, bookmarked or not (repeat for papers with every one).
    #[arg(long, value_name = "TAG")]
    pub tag: Vec<String>,
    /// JSON and CSV: the title and abstract as they read on screen (`$25\times$` → `25×`), not as
    /// the file wrote them (which is what reads back as the same paper).
    #[arg(long)]
    pub rendered: bool,
    /// CSV: write every cell as it is. By default a cell that a spreadsheet would run as a formula
    /// (starting with =, +, -, @, a tab or a carriage return) gets a ' in front.
    #[arg(long)]
    pub raw_cells: bool,
    /// The order: as the files list them (the default; ids: as given), by year, first author,
    /// or first seen.
    #[arg(long, value_name = "KEY", value_parser = sort_key())]
    pub sort: Option<SortKey>,
    /// Papers to export by id (or unique prefix; an arXiv id, DOI or OpenReview forum as cited
    /// works too) instead of the bookmarked ones, and the files to export from (`-` for standard
    /// input; none: the bundled lists). An argument naming an existing file is a file; one that
    /// looks like a file name and names none is an error.
    #[arg(value_name = "ID|FILE")]
    pub args: Vec<String>,
    /// Read every input as this format instead of detecting it.
    #[arg(long, value_name = "FORMAT", value_parser = input_format())]
    pub input_format: Option<Format>,
    /// Refuse inputs larger than SIZE (bytes, or with K, M, G: 500M, 2G). Default: no limit for
    /// JSON Lines and title lists (read a chunk at a time); a quarter of the memory for formats
    /// read whole.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub max_size: Option<u64>,
    /// Neither read nor write the cache that makes opening a large file again instant
    /// (`paperboat cache`).
    #[arg(long)]
    pub no_cache: bool,
}

pub(super) fn export_cmd(cli: &Cli, args: &ExportArgs) -> anyhow::Result<ExitCode> {
    let load_args = LoadArgs {
        format: args.input_format,
        max_size: args.max_size,
        no_cache: args.no_cache,
    };
    let (files, ids) = split_ids(&args.args)?;
    let loaded = load_files(&load_args, &files)?;
    let store = open_store(cli, &loaded.corpus)?;
    let corpus = &loaded.corpus;
    // Bookmarked papers unless told which: all of them, those tagged, or
    // those named.
    let chosen = args.all || !ids.is_empty() || !args.tag.is_empty();
    let filter = Filter {
        marked: if chosen {
            Marked::Any
        } else {
            Marked::Bookmarked
        },
        tags: args.tag.clone(),
        ..Filter::default()
    };
    let keep = filter.keeper(corpus, &store);
    let mut rows: Vec<u32> = if ids.is_empty() {
        (0..corpus.len())
            .filter(|&i| keep(i))
            .map(|i| i as u32)
            .collect()
    } else {
        let found = find_ids(
            corpus,
            &ids,
            "exported (an argument naming no file is read as an id)",
        )?;
        found
            .into_iter()
            .filter(|&i| keep(i))
            .map(|i| i as u32)
            .collect()
    };
    if let Some(key) = args.sort {
        select::sort(corpus, &store, &mut rows, key);
    }
    let indices: Vec<usize> = rows.into_iter().map(|i| i as usize).collect();
    if indices.is_empty() {
        let which = if chosen { "" } else { "bookmarked " };
        let tagged = if args.tag.is_empty() {
            String::new()
        } else {
            let tags: Vec<String> = args
                .tag
                .iter()
                .map(|t| crate::text::sanitize::line(t))
                .collect();
            format!(" tagged {}", tags.join(" and "))
        };
        let hint = if chosen {
            ""
        } else {
            " (use --all for every paper, --tag T for those tagged T)"
        };
        eprintln!("paperboat: no {which}papers{tagged} to export{hint}");
    }
    let format = match args.format {
        ExportFormat::Markdown => export::Format::Markdown,
        ExportFormat::Bibtex => export::Format::Bibtex,
        ExportFormat::Json => export::Format::Json,
        ExportFormat::Csv => export::Format::Csv,
    };
    let options = export::Options {
        format,
        text: if args.rendered {
            export::Text::Shown
        } else {
            export::Text::Source
        },
        guard_formulas: !args.raw_cells,
    };
    emit(|out| export::write_with(out, options, corpus, &indices, &store))?;
    Ok(ExitCode::SUCCESS)
}
