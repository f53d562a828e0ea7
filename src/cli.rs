//! The command line: the reader (no subcommand) and the commands that print
//! instead of opening a screen. Parsing is clap's; what each command prints
//! is here, written to a buffered stdout that treats a closed pipe
//! (`paperboat search x | head`) as success.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};
use serde::Serialize;

use crate::corpus::{Corpus, Lookup};
use crate::export::{self, JsonPaper};
use crate::loading::{self, Format, Input, Loaded};
use crate::search::{self, Probe, Scope};
use crate::store::{self, Field, Store};
use crate::text::markup;

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
    /// Refuse inputs larger than SIZE (bytes, or with K, M, G: 500M, 2G).
    #[arg(long, value_name = "SIZE", default_value = "2G", value_parser = parse_size)]
    pub max_size: u64,
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
    let t = s.trim().to_ascii_uppercase();
    let t = t
        .strip_suffix("IB")
        .or_else(|| t.strip_suffix('B'))
        .unwrap_or(&t);
    let (num, mult) = match t.chars().last() {
        Some('K') => (&t[..t.len() - 1], 1u64 << 10),
        Some('M') => (&t[..t.len() - 1], 1 << 20),
        Some('G') => (&t[..t.len() - 1], 1 << 30),
        Some('T') => (&t[..t.len() - 1], 1 << 40),
        _ => (t, 1),
    };
    let n: f64 = num
        .trim()
        .parse()
        .map_err(|_| format!("not a size: {s:?} (e.g. 500M, 2G)"))?;
    if n < 0.0 {
        return Err(format!("not a size: {s:?}"));
    }
    Ok((n * mult as f64) as u64)
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
    /// Print the bookmarked papers (or all) as Markdown, BibTeX or JSON.
    Export(ExportArgs),
    /// Print one paper: title, metadata, abstract and links, wrapped.
    Show(ShowArgs),
    /// Print the papers most like a paper (by id), a text, or the bookmarked papers, best first.
    Related(RelatedArgs),
    /// Say what each file holds: papers, without abstract, skipped (with lines).
    Check(CheckArgs),
    /// About the state file.
    #[command(subcommand)]
    State(StateCommand),
    /// About the config file.
    #[command(subcommand)]
    Config(ConfigCommand),
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

/// Arguments of `paperboat list`.
#[derive(Args, Debug)]
#[command(group = clap::ArgGroup::new("which").multiple(false))]
pub struct ListArgs {
    /// Only bookmarked papers.
    #[arg(long, group = "which")]
    pub bookmarked: bool,
    /// Only papers not marked read.
    #[arg(long, group = "which")]
    pub unread: bool,
    /// Only papers marked read.
    #[arg(long, group = "which")]
    pub read: bool,
    /// One JSON object per line, with `bookmarked` and `read` fields.
    #[arg(long)]
    pub json: bool,
    /// Files to list (`-` for standard input). None: the bundled lists.
    pub files: Vec<PathBuf>,
    /// How to read the files.
    #[command(flatten)]
    pub load: LoadArgs,
}

/// Arguments of `paperboat mark`.
#[derive(Args, Debug)]
#[command(group = clap::ArgGroup::new("how").required(true).multiple(false))]
pub struct MarkArgs {
    /// Bookmark them.
    #[arg(long, group = "how")]
    pub bookmark: bool,
    /// Remove their bookmarks.
    #[arg(long, group = "how")]
    pub unbookmark: bool,
    /// Mark them read.
    #[arg(long, group = "how")]
    pub read: bool,
    /// Mark them unread.
    #[arg(long, group = "how")]
    pub unread: bool,
    /// Paper ids (or unique prefixes), then the files they are in; an
    /// argument naming an existing file (or `-`) is a file. No files: the
    /// bundled lists.
    #[arg(required = true, value_name = "ID|FILE")]
    pub args: Vec<String>,
    /// How to read the files.
    #[command(flatten)]
    pub load: LoadArgs,
}

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
    /// The paper's id or a unique id prefix.
    pub id: String,
    /// Files holding it (`-` for standard input). None: the bundled lists.
    pub files: Vec<PathBuf>,
    /// How to read the files.
    #[command(flatten)]
    pub load: LoadArgs,
}

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
    /// The paper's id or a unique id prefix, then the files (`-` for standard input; none: the
    /// bundled lists). With --text or --bookmarked, files only.
    #[arg(value_name = "ID|FILE")]
    pub args: Vec<String>,
    /// How to read the files.
    #[command(flatten)]
    pub load: LoadArgs,
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

/// Writes through `f`; a closed pipe ends the output quietly.
fn emit(f: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> anyhow::Result<()> {
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    match f(&mut out).and_then(|()| out.flush()) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}

/// Load options from the command line.
fn load_options(args: &LoadArgs) -> loading::Options {
    loading::Options {
        format: args.format,
        max_size: args.max_size,
        ..loading::Options::default()
    }
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

fn check(args: &CheckArgs) -> anyhow::Result<ExitCode> {
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

fn search(args: &SearchArgs) -> anyhow::Result<ExitCode> {
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
fn write_hit<S: Serialize>(
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
    let (mut store, messages) = Store::open(&state_dir(cli)?);
    for m in messages {
        eprintln!("paperboat: {m}");
    }
    let moves = corpus.former_ids();
    let pairs: Vec<(&str, &str)> = moves
        .iter()
        .map(|(old, new)| (old.as_str(), new.as_str()))
        .collect();
    if let Err(e) = store.adopt(&pairs) {
        eprintln!("paperboat: could not save marks that follow a paper's new id: {e}");
    }
    Ok(store)
}

fn marks_column(state: &store::State, id: &str) -> &'static str {
    match (
        state.is_on(id, Field::Bookmark),
        state.is_on(id, Field::Read),
    ) {
        (true, true) => "br",
        (true, false) => "b-",
        (false, true) => "-r",
        (false, false) => "--",
    }
}

fn list(cli: &Cli, args: &ListArgs) -> anyhow::Result<ExitCode> {
    let loaded = load_files(&args.load, &args.files)?;
    let store = open_store(cli, &loaded.corpus)?;
    let (corpus, state) = (&loaded.corpus, store.state());
    emit(|out| {
        for (i, p) in corpus.papers.iter().enumerate() {
            let id = p.id.as_str();
            let keep = if args.bookmarked {
                state.is_on(id, Field::Bookmark)
            } else if args.unread {
                !state.is_on(id, Field::Read)
            } else if args.read {
                state.is_on(id, Field::Read)
            } else {
                true
            };
            if !keep {
                continue;
            }
            if args.json {
                serde_json::to_writer(&mut *out, &JsonPaper::new(corpus, i, state))?;
                writeln!(out)?;
            } else {
                writeln!(
                    out,
                    "{}\t{}\t{}",
                    corpus.short_id(i),
                    marks_column(state, id),
                    markup::plain(&p.title)
                )?;
            }
        }
        Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}

fn mark(cli: &Cli, args: &MarkArgs) -> anyhow::Result<ExitCode> {
    let (files, ids): (Vec<&String>, Vec<&String>) = args
        .args
        .iter()
        .partition(|a| a.as_str() == "-" || std::path::Path::new(a).exists());
    if ids.is_empty() {
        anyhow::bail!("no paper ids given (arguments that name files are read as files)");
    }
    let files: Vec<PathBuf> = files.into_iter().map(PathBuf::from).collect();
    let loaded = load_files(&args.load, &files)?;
    let corpus = &loaded.corpus;
    let mut found = Vec::new();
    let mut problems = Vec::new();
    for id in &ids {
        match resolve(corpus, id) {
            Ok(i) => found.push(i),
            Err(why) => problems.push(why),
        }
    }
    if !problems.is_empty() {
        anyhow::bail!("{}; nothing was marked", problems.join("; "));
    }
    let (field, on) = if args.bookmark {
        (Field::Bookmark, true)
    } else if args.unbookmark {
        (Field::Bookmark, false)
    } else if args.read {
        (Field::Read, true)
    } else {
        (Field::Read, false)
    };
    let mut store = open_store(cli, corpus)?;
    let changes: Vec<(&str, Field, bool)> = found
        .iter()
        .map(|&i| (corpus.papers[i].id.as_str(), field, on))
        .collect();
    store.set(&changes)?;
    let state = store.state();
    emit(|out| {
        for &i in &found {
            let p = &corpus.papers[i];
            writeln!(
                out,
                "{}\t{}\t{}",
                corpus.short_id(i),
                marks_column(state, p.id.as_str()),
                markup::plain(&p.title)
            )?;
        }
        Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
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

fn show(cli: &Cli, args: &ShowArgs) -> anyhow::Result<ExitCode> {
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
    let view = crate::ui::detail::PaperView {
        corpus,
        idx: i,
        marks: crate::vocabulary::Marks {
            bookmarked: store.is_on(id, Field::Bookmark),
            read: store.is_on(id, Field::Read),
        },
        theme: &theme,
        query: None,
        chosen_link: None,
    };
    let rendered = crate::ui::detail::render(&view, print_width());
    let text = crate::ui::print::lines_to_string(&rendered.lines, styled_output(cli.color));
    emit(|out| out.write_all(text.as_bytes()))?;
    Ok(ExitCode::SUCCESS)
}

/// `paperboat related`: the papers most like a paper (by id), a text, or
/// the bookmarked papers (then only unread papers), best first.
fn related(cli: &Cli, args: &RelatedArgs) -> anyhow::Result<ExitCode> {
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
            .filter(|&i| on(i, Field::Bookmark))
            .collect();
        if marked.is_empty() {
            eprintln!(
                "paperboat: no paper of these lists is bookmarked, so there is nothing to go on \
                 (bookmark with b in the reader or `paperboat mark --bookmark ID`)"
            );
            return Ok(ExitCode::from(1));
        }
        like(Probe::Papers(&marked), &|i| !on(i, Field::Read))
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

fn export_cmd(cli: &Cli, args: &ExportArgs) -> anyhow::Result<ExitCode> {
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

/// Runs the command line; returns the process exit code.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match &cli.command {
        Some(Command::Search(args)) => search(args),
        Some(Command::Check(args)) => check(args),
        Some(Command::List(args)) => list(&cli, args),
        Some(Command::Mark(args)) => mark(&cli, args),
        Some(Command::Export(args)) => export_cmd(&cli, args),
        Some(Command::Show(args)) => show(&cli, args),
        Some(Command::Related(args)) => related(&cli, args),
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
            "search", "list", "mark", "export", "show", "related", "check",
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
