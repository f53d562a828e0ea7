//! `paperboat show` and `paperboat check`: one paper, and what files hold.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::*;
use crate::loading::{self, Input};
use crate::store::Flag;

/// Arguments of `paperboat check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Files or directories to check (`-` for standard input).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// How to read the files.
    #[command(flatten)]
    pub load: LoadArgs,
}

/// Arguments of `paperboat show`.
#[derive(Args, Debug)]
pub struct ShowArgs {
    /// The paper's id or a unique id prefix; an arXiv id (`1801.05533v2`), a DOI (bare or as a
    /// doi.org link) or an OpenReview forum id works too.
    pub id: String,
    /// Files holding it (`-` for standard input). None: the bundled lists.
    pub files: Vec<PathBuf>,
    /// How to read the files.
    #[command(flatten)]
    pub load: LoadArgs,
}

pub(super) fn check(args: &CheckArgs) -> anyhow::Result<ExitCode> {
    let reports = match loading::load(&Input::from_args(&args.files), &load_options(&args.load)) {
        Ok(loaded) => loaded.reports,
        Err(loading::LoadError::NoPapers(reports)) => reports,
    };
    let failed = reports.iter().any(|r| r.error.is_some());
    emit(|out| {
        for r in &reports {
            writeln!(out, "{r}")?;
        }
        Ok(())
    })?;
    Ok(if failed {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    })
}

pub(super) fn show(cli: &Cli, args: &ShowArgs) -> anyhow::Result<ExitCode> {
    super::select::check_id(&args.id)?;
    let loaded = load_files(&args.load, &args.files)?;
    let corpus = &loaded.corpus;
    let i = resolve(corpus, &args.id).map_err(anyhow::Error::msg)?;
    let store = open_store(cli, corpus)?;
    let id = corpus.papers[i].id.as_str();
    let (config, problems) = crate::config::load(&state_dir(cli)?);
    for p in problems {
        eprintln!("paperboat: {p}");
    }
    let theme = if crate::ui::theme::no_color_env() {
        config.theme.without_color()
    } else {
        config.theme
    };
    let tags = store.tags(id);
    let view = crate::ui::detail::PaperView {
        corpus,
        idx: i,
        marks: crate::vocabulary::Marks {
            bookmarked: store.is_on(id, Flag::Bookmark),
            read: store.is_on(id, Flag::Read),
        },
        theme: &theme,
        query: None,
        chosen_link: None,
        tags: &tags,
        note: store.note(id),
        names: config.names,
    };
    let rendered = crate::ui::detail::render(&view, print_width());
    let text = crate::ui::print::lines_to_string(&rendered.lines, styled_output(cli.color));
    emit(|out| out.write_all(text.as_bytes()))?;
    Ok(ExitCode::SUCCESS)
}
