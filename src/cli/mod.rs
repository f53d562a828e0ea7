//! The command line: the reader (no subcommand) and the commands that print
//! instead of opening a screen. Parsing is clap's; what each command prints
//! is here, written to a buffered stdout that treats a closed pipe
//! (`paperboat search x | head`) as success.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::corpus::{Corpus, Lookup};
use crate::loading::{self, Format, Input, Loaded};
use crate::store::{self, Store};

mod cache;
mod export;
mod fetch;
mod marks;
mod recommend;
mod related;
mod search;
mod select;
mod show;
mod topics;
mod triage;

pub use cache::CacheCommand;
pub use export::{ExportArgs, ExportFormat};
pub use fetch::{FetchArgs, FetchSource};
pub use marks::{ListArgs, MarkArgs};
pub use recommend::RecommendArgs;
pub use related::RelatedArgs;
pub use search::{ScopeArg, SearchArgs};
pub use show::{CheckArgs, ShowArgs};
pub use topics::TopicsArgs;
pub use triage::{NoteArgs, TagArgs};

/// A fast terminal reader for lists of research-paper abstracts.
#[derive(Parser, Debug)]
#[command(
    name = "paperboat",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    /// What to do; without one, open the reader.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Files to read (`-` for standard input). None: the bundled ICML 2026 lists.
    pub files: Vec<PathBuf>,
    /// Where bookmarks, read state and config.toml live (default: the user config directory).
    #[arg(long, global = true, value_name = "DIR", env = "PAPERBOAT_STATE_DIR")]
    pub state_dir: Option<PathBuf>,
    /// Colour and emphasis in printed output: on a terminal (auto), always or never.
    #[arg(long, global = true, value_enum, default_value_t = ColorArg::Auto)]
    pub color: ColorArg,
    /// How to read the files.
    #[command(flatten)]
    pub load: LoadArgs,
}

/// How inputs are read: the options of every command that reads files.
#[derive(Args, Debug, Clone)]
pub struct LoadArgs {
    /// Read every input as this format instead of detecting it.
    #[arg(long, value_parser = input_format())]
    pub format: Option<Format>,
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

/// The values of `--format` (and `export --input-format`): the name of a
/// format. Help lists every name with what it reads, and any other name is
/// refused with the list, as clap refuses any value not among the possible.
fn input_format() -> impl TypedValueParser<Value = Format> {
    PossibleValuesParser::new(Format::all().map(|f| PossibleValue::new(f.name()).help(f.about())))
        .map(|name| Format::named(&name).expect("every possible value names a format"))
}

/// `500M`, `2G`, `1024` → bytes.
fn parse_size(s: &str) -> Result<u64, String> {
    crate::config::parse_size(s)
}

/// `--color` values.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum ColorArg {
    /// Style output written to a terminal.
    Auto,
    /// Always style output.
    Always,
    /// Never style output.
    Never,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Print the papers matching QUERY, best first (exit 1 when none match).
    Search(SearchArgs),
    /// Print papers with their marks: `<id>\t<marks>\t<title>` (marks: `b` bookmarked, `r` read).
    List(ListArgs),
    /// Bookmark or mark read papers by id or unique id prefix.
    Mark(MarkArgs),
    /// Put tags on papers or take them off, by id or unique id prefix; print their tags.
    Tag(TagArgs),
    /// Print a paper's note; set it (--set) or edit it (--edit).
    Note(NoteArgs),
    /// Print the bookmarked papers (or all, or by tag) as Markdown, BibTeX, CSV or JSON.
    Export(ExportArgs),
    /// Print one paper: title, metadata, abstract and links, wrapped.
    Show(ShowArgs),
    /// Print the papers most like a paper (by id), a text, or the bookmarked papers, best first.
    Related(RelatedArgs),
    /// Print the unread papers a model learned from your bookmarks, keeps and skips (or a
    /// tag's papers) ranks first, each with why.
    Recommend(RecommendArgs),
    /// Print what the papers are about: labelled topics, largest first (`topic:N` in a query
    /// selects one).
    Topics(TopicsArgs),
    /// Say what each file holds: papers, without abstract, skipped (with lines).
    Check(CheckArgs),
    /// Fetch a list from arXiv (OAI-PMH) or OpenReview into a file, politely; again, only
    /// what is new.
    Fetch(FetchArgs),
    /// About the state file.
    #[command(subcommand)]
    State(StateCommand),
    /// About the config file.
    #[command(subcommand)]
    Config(ConfigCommand),
    /// About the cache that makes opening a large file again instant.
    #[command(subcommand)]
    Cache(CacheCommand),
}

/// `paperboat config …`.
#[derive(Subcommand, Debug)]
pub enum ConfigCommand {
    /// Print the config file's path.
    Path,
    /// Print a fully commented config file with every default.
    Default,
}

/// `paperboat state …`.
#[derive(Subcommand, Debug)]
pub enum StateCommand {
    /// Print the state file's path.
    Path,
}

/// Writes through `f`; a closed pipe ends the output quietly.
fn emit(f: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> anyhow::Result<()> {
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    match f(&mut out).and_then(|()| out.flush()) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}

/// Ends standard output, everything printed written: a pipeline reading
/// it sees its end while this process goes on with what is left (storing
/// titles in the cache). Standard output goes nowhere after this.
fn end_output() {
    let _ = io::stdout().flush();
    crate::sys::stdout_to_null();
}

/// The cache for this run (set once the command line is read): `None`
/// where there is no cache directory.
static CACHE: std::sync::OnceLock<Option<loading::CacheOptions>> = std::sync::OnceLock::new();

/// Load options from the command line.
fn load_options(args: &LoadArgs) -> loading::Options {
    loading::Options {
        format: args.format,
        max_size: args.max_size,
        cache: if args.no_cache {
            None
        } else {
            CACHE.get().cloned().flatten()
        },
        ..loading::Options::default()
    }
}

/// Where the cache is (`PAPERBOAT_CACHE_DIR`, else the platform's cache
/// directory), its limit (`PAPERBOAT_CACHE_SIZE`, else `[cache]
/// max_size` in config.toml, else 4 GiB) and the smallest file it holds
/// (`PAPERBOAT_CACHE_MIN_SIZE`, else 1 MiB).
fn cache_options(cli: &Cli) -> Option<loading::CacheOptions> {
    let dir = std::env::var_os("PAPERBOAT_CACHE_DIR")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(loading::cache::default_dir)?;
    let from_env = std::env::var("PAPERBOAT_CACHE_SIZE").ok().and_then(|s| {
        parse_size(&s)
            .map_err(|e| eprintln!("paperboat: PAPERBOAT_CACHE_SIZE: {e}; using the default"))
            .ok()
    });
    let limit = from_env
        .or_else(|| {
            let dir = state_dir(cli).ok()?;
            crate::config::load(&dir).0.cache_size
        })
        .unwrap_or(loading::cache::DEFAULT_LIMIT);
    let mut cache = loading::CacheOptions::new(dir, limit);
    if let Ok(s) = std::env::var("PAPERBOAT_CACHE_MIN_SIZE") {
        match parse_size(&s) {
            Ok(n) => cache.min_size = n,
            Err(e) => eprintln!("paperboat: PAPERBOAT_CACHE_MIN_SIZE: {e}; using the default"),
        }
    }
    Some(cache)
}

/// Loads the files; what loaded with a warning (skipped records, a file
/// refused) is said on stderr.
fn load_files(args: &LoadArgs, files: &[PathBuf]) -> anyhow::Result<Loaded> {
    let loaded = loading::load(&Input::from_args(files), &load_options(args))?;
    say_reports(&loaded.reports);
    Ok(loaded)
}

/// Says on stderr what loaded with a warning.
fn say_reports(reports: &[loading::Report]) {
    for r in reports.iter().filter(|r| !r.clean()) {
        eprintln!("paperboat: {r}");
    }
}

/// The state directory: `--state-dir`, `PAPERBOAT_STATE_DIR`, or the
/// platform's config directory.
fn state_dir(cli: &Cli) -> anyhow::Result<PathBuf> {
    match &cli.state_dir {
        Some(d) => Ok(d.clone()),
        None => store::default_dir().ok_or_else(|| {
            anyhow::anyhow!("no config directory found (no home directory?); pass --state-dir DIR")
        }),
    }
}

/// Opens the store, printing what it had to say on stderr. Marks saved
/// under the old id of a paper of `corpus` whose id changed follow it.
fn open_store(cli: &Cli, corpus: &Corpus) -> anyhow::Result<Store> {
    let mut store = open_dir(cli)?;
    adopt_ids(&mut store, corpus);
    Ok(store)
}

/// Opens the store, printing what it had to say on stderr.
fn open_dir(cli: &Cli) -> anyhow::Result<Store> {
    let (store, messages) = Store::open(&state_dir(cli)?);
    for m in messages {
        eprintln!("paperboat: {m}");
    }
    Ok(store)
}

/// Gives the marks saved under the old id of a paper of `corpus` whose id
/// changed to its new id.
fn adopt_ids(store: &mut Store, corpus: &Corpus) {
    let moves = corpus.former_ids();
    let pairs: Vec<(&str, &str)> = moves
        .iter()
        .map(|(old, new)| (old.as_str(), new.as_str()))
        .collect();
    if let Err(e) = store.adopt(&pairs) {
        eprintln!("paperboat: could not save marks that follow a paper's new id: {e}");
    }
}

/// The width to wrap printed text to: the terminal's, else `$COLUMNS`,
/// else 80.
fn print_width() -> usize {
    use std::io::IsTerminal;
    if io::stdout().is_terminal()
        && let Ok((w, _)) = crossterm::terminal::size()
        && w > 0
    {
        return w as usize;
    }
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse().ok())
        .filter(|&w: &usize| w > 0)
        .unwrap_or(80)
}

/// Whether printed output gets emphasis: `--color`, where `auto` means
/// when stdout is a terminal. (`NO_COLOR` still takes the colours out.)
fn styled_output(color: ColorArg) -> bool {
    use std::io::IsTerminal;
    match color {
        ColorArg::Always => true,
        ColorArg::Never => false,
        ColorArg::Auto => io::stdout().is_terminal() && !crate::ui::theme::no_color_env(),
    }
}

/// Resolves one id argument, or says why it does not name one paper.
fn resolve(corpus: &crate::corpus::Corpus, id: &str) -> Result<usize, String> {
    match corpus.lookup(id) {
        Lookup::Found(i) => Ok(i),
        Lookup::Unknown => Err(format!(
            "no paper has id {}",
            crate::text::sanitize::line(id)
        )),
        Lookup::Ambiguous(hits) => {
            let names: Vec<String> = hits
                .iter()
                .take(5)
                .map(|&i| corpus.papers[i].id.to_string())
                .collect();
            Err(format!(
                "{} is ambiguous: {}{}",
                crate::text::sanitize::line(id),
                names.join(", "),
                if hits.len() > 5 { ", …" } else { "" }
            ))
        }
    }
}

/// Runs the command line; returns the process exit code.
pub fn run(mut cli: Cli) -> anyhow::Result<ExitCode> {
    fetch::name_lists(&mut cli);
    CACHE.get_or_init(|| cache_options(&cli));
    match &cli.command {
        Some(Command::Cache(command)) => cache::cache(&cli, command),
        Some(Command::Search(args)) => search::search(&cli, args),
        Some(Command::Check(args)) => show::check(args),
        Some(Command::Fetch(args)) => fetch::fetch(args),
        Some(Command::List(args)) => marks::list(&cli, args),
        Some(Command::Mark(args)) => marks::mark(&cli, args),
        Some(Command::Tag(args)) => triage::tag(&cli, args),
        Some(Command::Note(args)) => triage::note(&cli, args),
        Some(Command::Export(args)) => export::export_cmd(&cli, args),
        Some(Command::Show(args)) => show::show(&cli, args),
        Some(Command::Related(args)) => related::related(&cli, args),
        Some(Command::Recommend(args)) => recommend::recommend(&cli, args),
        Some(Command::Topics(args)) => topics::topics(args),
        Some(Command::State(StateCommand::Path)) => {
            let path = state_dir(&cli)?.join(store::FILE_NAME);
            emit(|out| writeln!(out, "{}", path.display()))?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Config(ConfigCommand::Path)) => {
            let path = crate::config::path(&state_dir(&cli)?);
            emit(|out| writeln!(out, "{}", path.display()))?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Config(ConfigCommand::Default)) => {
            emit(|out| out.write_all(crate::config::default_file().as_bytes()))?;
            Ok(ExitCode::SUCCESS)
        }
        None => {
            use std::io::IsTerminal;
            if !io::stdout().is_terminal() {
                anyhow::bail!(
                    "the reader needs a terminal on standard output (try `paperboat search` or `paperboat --help`)"
                );
            }
            let inputs = Input::from_args(&cli.files);
            if inputs.iter().any(|i| matches!(i, Input::Stdin)) && io::stdin().is_terminal() {
                // The loader would read the keys meant for the reader.
                anyhow::bail!(
                    "standard input is the terminal: pipe a corpus into `paperboat -` (e.g. `curl … | paperboat -`)"
                );
            }
            let options = load_options(&cli.load);
            // Inputs that cannot be read at all are said before the
            // screen is taken; the rest streams in while the reader runs.
            loading::precheck(&inputs, &options)?;
            let start = crate::terminal::Start {
                inputs,
                options,
                // What loaded is said in the status line (for files; the
                // bundled lists always load the same).
                announce: !cli.files.is_empty(),
            };
            let mut messages = Vec::new();
            let dir = state_dir(&cli)?;
            let (store, store_messages) = Store::open(&dir);
            messages.extend(store_messages);
            let (config, problems) = crate::config::load(&dir);
            messages.extend(problems);
            match crate::terminal::run(start, store, config, messages)? {
                crate::terminal::Exit::Quit => Ok(ExitCode::SUCCESS),
                crate::terminal::Exit::Signal(sig) => Ok(ExitCode::from((128 + sig) as u8)),
                crate::terminal::Exit::NoPapers(e) => Err(e.into()),
            }
        }
    }
}

/// Moves global options given before a subcommand (`paperboat --state-dir
/// D list`) after it, where clap accepts them: the reader's file arguments
/// share the top level with the subcommands, so clap reads any top-level
/// argument as the reader's.
pub fn normalize_args(args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    let names: Vec<String> = Cli::command_names();
    const GLOBAL: [&str; 2] = ["--state-dir", "--color"];
    let mut k = 1;
    while k < args.len() {
        let a = args[k].to_string_lossy();
        if GLOBAL.contains(&a.as_ref()) {
            k += 2;
        } else if GLOBAL.iter().any(|g| a.starts_with(&format!("{g}="))) {
            k += 1;
        } else {
            break;
        }
    }
    if k == 1 || k >= args.len() || !names.iter().any(|n| *n == args[k].to_string_lossy()) {
        return args;
    }
    let mut out = vec![args[0].clone(), args[k].clone()];
    out.extend_from_slice(&args[1..k]);
    out.extend_from_slice(&args[k + 1..]);
    out
}

impl Cli {
    fn command_names() -> Vec<String> {
        use clap::CommandFactory;
        Cli::command()
            .get_subcommands()
            .map(|c| c.get_name().to_string())
            .collect()
    }
}

/// The whole program: parse, run, report. Errors print as
/// `paperboat: <message>` and exit 2 (as usage errors do).
pub fn main() -> ExitCode {
    let cli = Cli::parse_from(normalize_args(std::env::args_os().collect()));
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("paperboat: {e:#}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    #[test]
    fn every_format_is_the_value_of_its_name_and_has_help() {
        assert!(Format::all().count() > 1);
        for format in Format::all() {
            assert!(!format.about().is_empty(), "{}", format.name());
            let cli = Cli::try_parse_from(["paperboat", "--format", format.name()]).unwrap();
            assert_eq!(cli.load.format, Some(format));
        }
    }

    #[test]
    fn an_unknown_format_is_refused_with_the_list_of_formats() {
        let names: Vec<&str> = Format::all().map(Format::name).collect();
        let list = format!("[possible values: {}]", names.join(", "));
        for args in [
            &["paperboat", "--format", "bogus"][..],
            &["paperboat", "search", "--format", "JSON", "x"],
            &[
                "paperboat",
                "export",
                "--format",
                "json",
                "--input-format",
                "bogus",
            ],
        ] {
            let err = Cli::try_parse_from(args).unwrap_err();
            assert_eq!(err.kind(), clap::error::ErrorKind::InvalidValue, "{args:?}");
            assert!(err.to_string().contains(&list), "{err}");
        }
    }

    #[test]
    fn the_help_of_every_command_that_reads_files_lists_the_formats() {
        let mut cli = Cli::command();
        cli.build();
        let mut helps = vec![("paperboat", cli.render_long_help().to_string())];
        for name in [
            "search",
            "list",
            "mark",
            "tag",
            "note",
            "export",
            "show",
            "related",
            "recommend",
            "topics",
            "check",
        ] {
            let sub = cli.find_subcommand_mut(name).unwrap();
            helps.push((name, sub.render_long_help().to_string()));
        }
        for (name, help) in helps {
            for format in Format::all() {
                let line = format!("- {}:", format.name());
                assert!(help.contains(&line), "{name}: {line}\n{help}");
                assert!(help.contains(format.about()), "{name}\n{help}");
            }
        }
    }
}
