//! `paperboat search`: the papers matching a query, best first.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use serde::Serialize;

use super::select::{self, Filter, sort_key};
use super::*;
use crate::corpus::Corpus;
use crate::loading::{self, Input};
use crate::order::SortKey;
use crate::search::{self, Scope};
use crate::text::markup;
use crate::text::sanitize;

/// `--scope` values.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum ScopeArg {
    /// Titles only, fuzzily (fastest: abstracts are not read).
    Title,
    /// Every field: the papers holding the words (in any form; a typo's words where none holds
    /// one) in title, abstract or authors, ranked by BM25F.
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
    /// The order: best match first (score), as the files list them, by year, first author, or
    /// first seen.
    #[arg(long, value_name = "KEY", default_value = "score", value_parser = sort_key())]
    pub sort: SortKey,
    /// Run the search saved under NAME (its query and scope); no QUERY then.
    #[arg(long, value_name = "NAME")]
    pub saved: Option<String>,
    /// The query, in fzf syntax (`'exact`, `^prefix`, `suffix$`, `!not`, `a | b`) with field
    /// atoms (`author:`, `title:`, `abs:`, `venue:`, `year:2019..2021`, `id:`, `tag:`, `note:`,
    /// `topic:3`, `kw:`, `cat:cs.LG`); empty matches all.
    #[arg(required_unless_present = "saved")]
    pub query: Option<String>,
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
    #[serde(flatten)]
    rare: crate::export::Rare<'a>,
    links: Vec<String>,
}

/// What a search runs: the query and files given, or those of a saved
/// search, and which papers it may print.
struct Plan {
    query: String,
    files: Vec<PathBuf>,
    scope: ScopeArg,
    filter: Filter,
    /// The store, when a saved search had to be read from it.
    store: Option<Store>,
}

impl Plan {
    /// The plan of `args`; `Err` with the exit code after saying why on
    /// stderr.
    fn new(cli: &Cli, args: &SearchArgs) -> anyhow::Result<Result<Plan, ExitCode>> {
        let mut plan = Plan {
            query: args.query.clone().unwrap_or_default(),
            files: args.files.clone(),
            scope: args.scope,
            filter: Filter::default(),
            store: None,
        };
        let Some(name) = &args.saved else {
            return Ok(Ok(plan));
        };
        let store = open_dir(cli)?;
        let Some(saved) = store.saved_search(name) else {
            let names: Vec<String> = store
                .saved_searches()
                .iter()
                .map(|s| sanitize::line(&s.name))
                .collect();
            let known = if names.is_empty() {
                "none is saved yet".to_string()
            } else {
                format!("saved: {}", names.join(", "))
            };
            eprintln!(
                "paperboat: no search is saved as {} ({known})",
                sanitize::line(name)
            );
            return Ok(Err(ExitCode::from(2)));
        };
        // With --saved, every argument is a file.
        if let Some(q) = &args.query {
            plan.files.insert(0, PathBuf::from(q));
        }
        plan.query = saved.query.clone();
        match saved.scope.as_str() {
            "title" => plan.scope = ScopeArg::Title,
            scope => match Filter::from_scope(scope) {
                Ok(f) => plan.filter = f,
                Err(shown) => eprintln!(
                    "paperboat: the search saved as {} is for {shown}, which this command does not \
                     know; searching every paper",
                    sanitize::line(name)
                ),
            },
        }
        plan.store = Some(store);
        Ok(Ok(plan))
    }
}

pub(super) fn search(cli: &Cli, args: &SearchArgs) -> anyhow::Result<ExitCode> {
    let plan = match Plan::new(cli, args)? {
        Ok(plan) => plan,
        Err(code) => return Ok(code),
    };
    let query = match search::Query::parse_checked(&plan.query) {
        Ok(q) => q,
        Err(e) => {
            eprintln!("paperboat: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    // `<id>\t<title>` lines need only titles and ids, and the word index
    // where the ranking reads it (every field, field atoms, `|` groups):
    // papers are not kept. Without a stored index, the part of the index
    // the query reads is built as the papers stream by. For JSON, marks,
    // tags and orders other than the score, whole papers are loaded.
    let indexed = plan.scope == ScopeArg::All || !query.filters.is_empty();
    let opts = load_options(&args.load);
    let stored = match (&opts.cache, plan.files.as_slice()) {
        (Some(cache), [file]) if indexed => stored_index(cache, file, opts.format, &plan.query),
        _ => None,
    };
    if args.json || query.asks_labels() || !plan.filter.is_empty() || args.sort != SortKey::Score {
        return search_papers(cli, args, plan);
    }
    let inputs = Input::from_args(&plan.files);
    let started = std::time::Instant::now();
    // A title list's whole index is small: built whole, as cheaply as
    // the query's part, and stored for the next searches.
    let whole = match (&opts.cache, plan.files.as_slice()) {
        (Some(_), [file]) => indexed && stored.is_none() && title_list(file, opts.format),
        _ => false,
    };
    let (mut titles, built) = if indexed && stored.is_none() {
        let mut index = match whole {
            true => search::QueryIndex::whole(),
            false => search::QueryIndex::new(&query),
        };
        // Each piece of papers is indexed by the thread that parsed it.
        let opts = loading::Options {
            words: Some(loading::IndexAsParsed(index.blank())),
            ..opts.clone()
        };
        let titles = loading::load_titles_deferring(
            &inputs,
            &opts,
            Some(&mut |papers, likely, words| {
                index.expect(likely);
                index.add(papers, words);
            }),
        )?;
        (titles, Some(index.finish()))
    } else {
        (loading::load_titles_deferring(&inputs, &opts, None)?, None)
    };
    say_reports(&titles.reports);
    // (A title list's index is stored: the next search reads it.)
    let read_abstracts = built.is_some() && !whole;
    // The titles a cold load leaves to store (465 MB at 2.7M papers) are
    // stored meanwhile, at a lower priority than the ranking.
    let ranked = titles.storing_beside(|list| {
        let mut kept = None;
        let ranking = match (stored, built) {
            // A word no paper holds is looked for by its typos, which an
            // index of the words the query starts lacks: whole papers.
            (_, Some(index)) if search::needs_typos(&index, &query) => None,
            (_, Some(index)) => {
                // `None`: papers whose abstracts could not be read (their
                // file changed meanwhile) left the index short.
                let ranking =
                    search::rank_titles_indexed(list, &plan.query, plan.scope.into(), &index);
                kept = Some(index);
                ranking
            }
            (None, None) => Some(search::Ranking {
                matches: list.rank(&plan.query),
                notes: search::Notes::default(),
            }),
            // `None`: the file changed since the index was stored.
            (Some((papers, ix)), None) => (papers == list.len())
                .then(|| search::rank_titles_indexed(list, &plan.query, plan.scope.into(), &ix))
                .flatten(),
        };
        let Some(ranking) = ranking else {
            return Ok(None);
        };
        say_notes(&ranking.notes);
        let matches = ranking.counted();
        let ahead = |m: &search::Match, stage| list.prefetch_line(m.idx as usize, stage);
        print_matches(args, &matches, ahead, |out, m| {
            list.write_line(out, m.idx as usize);
            Ok(())
        })?;
        if let (true, Some(_), [file]) = (read_abstracts, &opts.cache, plan.files.as_slice())
            && let Some(hint) = cache_build_hint(file, started.elapsed())
        {
            eprintln!("{hint}");
        }
        end_output();
        anyhow::Ok(Some((matches, kept)))
    });
    let Some((matches, index)) = ranked? else {
        return search_papers(cli, args, plan);
    };
    if let (true, Some(index), Some(cache), [file]) =
        (whole, index, &opts.cache, plan.files.as_slice())
    {
        let papers = titles.list.len();
        loading::cache::store_index(cache, file, opts.format, papers, &mut |out| {
            index.write_to(out)
        })?;
    }
    // The process ends next: the OS takes the memory back at once, where
    // freeing a million titles one by one takes a tenth of a second.
    std::mem::forget(titles);
    Ok(found(&matches))
}

/// Whether `file` is a title list (`lines`: a title a line, nothing
/// else), by its first bytes as the loader would tell it.
fn title_list(file: &std::path::Path, format: Option<loading::Format>) -> bool {
    if let Some(f) = format {
        return f == loading::Format::LINES;
    }
    use std::io::Read;
    let mut head = Vec::new();
    let read = std::fs::File::open(file).and_then(|f| f.take(1 << 16).read_to_end(&mut head));
    let text = String::from_utf8_lossy(&head);
    // A head cut mid-line is read up to its last whole line.
    let text = text.rsplit_once('\n').map_or(&*text, |(whole, _)| whole);
    read.is_ok()
        && crate::corpus::readers::detect(text, loading::Format::from_extension(file))
            == loading::Format::LINES
}

/// The word index stored for `file`, read back, with the number of
/// papers it is over, if the bytes of it that ranking `query` reads are
/// as their checksums say. Only those are verified: the postings of the
/// query's words (its filters' too) and the rest of the index but its
/// postings, a tenth of it at 2.7M papers for two words.
fn stored_index(
    cache: &loading::cache::CacheOptions,
    file: &std::path::Path,
    format: Option<loading::Format>,
    query: &str,
) -> Option<(usize, search::WordIndex)> {
    let stored = loading::cache::stored_index_unverified(cache, file, format)?;
    // Read from bytes not yet verified: no bytes make it panic, and none
    // of it is used unless they are.
    let index = search::WordIndex::from_bytes(stored.bytes()).ok()?;
    let read = search::index_bytes_read(&index, query);
    stored
        .verified(read.as_deref())
        .then_some((stored.papers, index))
}

/// Searches taking longer than this say how to make them fast.
const SLOW_SEARCH: std::time::Duration = std::time::Duration::from_secs(2);

/// After a search over every field that read every abstract of `file`
/// (no word index of it is stored) and took `took`: what to say on stderr
/// so that the next ones answer at once, if it took a while. `search`
/// does not store the index itself: the whole index takes several times
/// the memory of the part a query reads.
fn cache_build_hint(file: &std::path::Path, took: std::time::Duration) -> Option<String> {
    if took < SLOW_SEARCH {
        return None;
    }
    let path = sanitize::line(&file.display().to_string());
    // As a shell takes it: quoted unless it is plain.
    let plain = |c: char| c.is_ascii_alphanumeric() || "/._-+=:@%,".contains(c);
    let arg = if !path.is_empty() && path.chars().all(plain) {
        path.clone()
    } else {
        format!("'{}'", path.replace('\'', r"'\''"))
    };
    Some(format!(
        "paperboat: this search read every abstract of {path} ({:.1} s); \
         `paperboat cache build {arg}` stores its word index, after which searches \
         over every field answer in about a second (or use --scope title)",
        took.as_secs_f64()
    ))
}

/// `search --json`, over abstracts, filtered or sorted: whole papers.
fn search_papers(cli: &Cli, args: &SearchArgs, plan: Plan) -> anyhow::Result<ExitCode> {
    let loaded = load_files(&args.load, &plan.files)?;
    let corpus = &loaded.corpus;
    let labelled = search::Query::parse(&plan.query).asks_labels();
    let mut store = None;
    if !plan.filter.is_empty() || args.sort != SortKey::Score || labelled {
        store = Some(match plan.store {
            Some(mut store) => {
                adopt_ids(&mut store, corpus);
                store
            }
            None => open_store(cli, corpus)?,
        });
    }
    let mut labels = match (&store, labelled) {
        (Some(store), true) => search::Labels::of(
            corpus.papers.iter().map(|p| p.id.as_str()),
            |id| store.tags(id),
            |id| store.note(id),
        ),
        _ => search::Labels::default(),
    };
    if search::Query::parse(&plan.query).asks_topics() {
        let inputs = crate::loading::Input::from_args(&plan.files);
        let topics = crate::loading::topics_of(&inputs, &load_options(&args.load), &corpus.papers);
        labels.set_topics(topics.numbers());
    }
    let ranking = search::ranking_labelled(
        &corpus.papers,
        &plan.query,
        plan.scope.into(),
        &labels,
        loaded.index.as_ref(),
    );
    say_notes(&ranking.notes);
    let mut matches = ranking.counted();
    if let Some(store) = store.filter(|_| !plan.filter.is_empty() || args.sort != SortKey::Score) {
        let keep = plan.filter.keeper(corpus, &store);
        matches.retain(|m| keep(m.idx as usize));
        let mut rows: Vec<u32> = matches.iter().map(|m| m.idx).collect();
        select::sort(corpus, &store, &mut rows, args.sort);
        let mut at = vec![0u32; corpus.len()];
        for (k, m) in matches.iter().enumerate() {
            at[m.idx as usize] = k as u32;
        }
        matches = rows
            .iter()
            .map(|&i| matches[at[i as usize] as usize])
            .collect();
    }
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
            rare: crate::export::Rare::of(p),
            links: p.links(),
        }
    }
}

/// A hit as `--json` writes it, to add to.
pub(super) fn hit_json<S: Serialize>(corpus: &Corpus, i: usize, score: S) -> serde_json::Value {
    serde_json::to_value(Hit::new(corpus, i, score)).unwrap_or_default()
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

/// Says on stderr what a ranking's notes say (a word looked for by its
/// typos, a word no paper holds), so that the output is read rightly.
fn say_notes(notes: &search::Notes) {
    if let Some(line) = notes.describe() {
        let line = if notes.apart() {
            format!("{line} (`--scope title` lists them)")
        } else {
            line
        };
        eprintln!("paperboat: {}", sanitize::line(&line));
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

/// How many lines ahead [`print_matches`] asks for what a line reads, a
/// step at a time.
const AHEAD: usize = 8;

/// The steps of fetching a line ahead (see `TitleList::prefetch_line`).
const STAGES: usize = 3;

/// Prints the matches (at most `--limit`), one `line` each, formatted in
/// blocks on every core and written in order; `ahead(m, stage)` is called
/// for the match `(stage + 1) * AHEAD` lines on, to start fetching what
/// its line will read, step `stage` of [`STAGES`] (the farthest first).
fn print_matches(
    args: &SearchArgs,
    matches: &[search::Match],
    ahead: impl Fn(&search::Match, usize) + Sync,
    line: impl Fn(&mut Vec<u8>, &search::Match) -> io::Result<()> + Sync,
) -> anyhow::Result<()> {
    let shown = &matches[..args.limit.unwrap_or(usize::MAX).min(matches.len())];
    let format_block = |block: &[search::Match]| -> io::Result<Vec<u8>> {
        let mut out = Vec::with_capacity(block.len() * 64);
        for (k, m) in block.iter().enumerate() {
            for stage in 0..STAGES {
                if let Some(a) = block.get(k + (stage + 1) * AHEAD) {
                    ahead(a, stage);
                }
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;
    use std::time::Duration;

    #[test]
    fn a_slow_search_says_how_to_store_the_index_and_a_quick_one_says_nothing() {
        let long = SLOW_SEARCH + Duration::from_millis(300);
        assert_eq!(
            cache_build_hint(Path::new("/d/arxiv.jsonl"), Duration::ZERO),
            None
        );
        let said = cache_build_hint(Path::new("/d/arxiv.jsonl"), long).unwrap();
        assert!(
            said.contains("of /d/arxiv.jsonl (2.3 s)")
                && said.contains("`paperboat cache build /d/arxiv.jsonl`"),
            "{said}"
        );
        // A path a shell would split or expand is quoted for it.
        let said = cache_build_hint(Path::new("/my papers/it's $HOME.jsonl"), long).unwrap();
        assert!(
            said.contains(r"`paperboat cache build '/my papers/it'\''s $HOME.jsonl'`"),
            "{said}"
        );
        // Escapes in a path are not written to the terminal.
        let said = cache_build_hint(Path::new("/d/\u{1b}[2Jx.jsonl"), long).unwrap();
        assert!(!said.contains('\u{1b}'), "{said:?}");
    }
}
