//! Reading corpora: files, directories, standard input, or the bundled ICML
//! 2026 lists.
//!
//! Each input is read whole, checked (a size limit; empty, binary and image
//! files are refused by name), decoded (UTF-8 with a BOM or without, invalid
//! sequences replaced and counted; UTF-16 with a BOM), its format detected
//! from the content with the file extension as a hint (or forced), parsed,
//! and turned into papers. A report per input says what loaded and what was
//! skipped, with lines. One input that cannot be read never stops the
//! others; only when no input yields a paper is loading an error.
//!
//! Loading sits above search (papers are made ready for the matcher as
//! they come) and below everything that shows them. Here are the entry
//! points and what they return; `input` opens and decodes inputs,
//! `chunks` parses line-oriented inputs in parallel, and `stream` runs a
//! load and says how it goes. What depends on an input's format is asked
//! of its [`Format`] (the registry of readers in `corpus::readers`):
//! loading never names a format.

pub mod cache;
mod chunks;
pub mod fetch;
mod input;
mod stream;
mod topics;

use std::path::PathBuf;

use thiserror::Error;

pub use self::cache::CacheOptions;
use self::chunks::Keep;
pub use self::input::{decode, size};
use self::input::{expand, open_head};
use self::stream::stream_keeping;
pub use self::stream::{Event, expected_papers};
pub use self::topics::topics_of;
pub use crate::corpus::Format;
pub use crate::corpus::readers::{detect, parse};
use crate::corpus::{Corpus, Paper};
use crate::search::{TitleList, WordIndex};
use crate::text::sanitize;

/// The bundled lists, embedded in the binary: (file name, contents).
pub const BUNDLED: &[(&str, &str)] = &[
    (
        "000_84d52d1267d14ca9.txt",
        include_str!("../../../assets/000_84d52d1267d14ca9.txt"),
    ),
    (
        "001_780c446c1d4ca5ac.txt",
        include_str!("../../../assets/001_780c446c1d4ca5ac.txt"),
    ),
];

/// What fraction of the machine's memory an input read whole (not line by
/// line) may be: parsing holds the text and its records at once, about
/// three times the file.
const WHOLE_SHARE: u64 = 4;

/// How to load.
#[derive(Clone, Debug)]
pub struct Options {
    /// A format forced on every input (`--format`); detected when `None`.
    pub format: Option<Format>,
    /// Inputs larger than this many bytes are refused (`--max-size`).
    /// `None`: no limit, except that an input read whole (not line by
    /// line) may not be larger than [`whole_limit`] says.
    pub max_size: Option<u64>,
    /// Bytes of a line-oriented input read and parsed at a time.
    pub chunk: usize,
    /// Where papers read from large files are cached, to be read back
    /// when the same file is opened again; `None`: not cached.
    pub cache: Option<CacheOptions>,
    /// Whether a file the cache does not hold has its papers recorded
    /// into it as it loads (a file that grew is always). [`load_titles`]
    /// of one file turns it off: it stores the finished titles instead,
    /// and not recording whole papers lets it read titles alone.
    pub record_papers: bool,
    /// For a search over every field: the index its parsing threads index
    /// each piece of papers in as they parse it, handed on before the
    /// piece's papers ([`Event::Words`]).
    pub words: Option<IndexAsParsed>,
}

/// See [`Options::words`]: an index of no paper, posting what the query
/// reads ([`crate::search::QueryIndex::blank`]).
#[derive(Clone)]
pub struct IndexAsParsed(pub std::sync::Arc<crate::search::WordIndex>);

impl std::fmt::Debug for IndexAsParsed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("IndexAsParsed")
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            format: None,
            max_size: None,
            chunk: chunks::CHUNK,
            cache: None,
            record_papers: true,
            words: None,
        }
    }
}

/// The largest input that can be read whole (formats that are not line
/// oriented, and UTF-16 files), when no `--max-size` is given: a quarter
/// of the machine's memory (`None` where it cannot be told). A JSON
/// Lines or title-list file has no such limit: it is read a chunk at a
/// time, in bounded memory, whatever its size.
pub fn whole_limit() -> Option<u64> {
    crate::sys::memory().map(|m| m / WHOLE_SHARE)
}

/// Where papers come from.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Input {
    /// A file (or a directory: its supported files).
    Path(PathBuf),
    /// Standard input (`-` on the command line).
    Stdin,
    /// One of the bundled lists, by index into [`BUNDLED`].
    Bundled(usize),
}

impl Input {
    /// The inputs for command-line arguments: `-` is stdin, no arguments
    /// means the bundled lists.
    pub fn from_args(files: &[PathBuf]) -> Vec<Input> {
        if files.is_empty() {
            return (0..BUNDLED.len()).map(Input::Bundled).collect();
        }
        files
            .iter()
            .map(|f| {
                if f.as_os_str() == "-" {
                    Input::Stdin
                } else {
                    Input::Path(f.clone())
                }
            })
            .collect()
    }

    /// The name messages use for this input (sanitized: file names come
    /// from users and may hold anything).
    pub fn name(&self) -> String {
        match self {
            Input::Path(p) => sanitize::line(&p.display().to_string()),
            Input::Stdin => "stdin".to_string(),
            Input::Bundled(i) => format!("bundled:{}", BUNDLED[*i].0),
        }
    }

    /// The list name for papers from an input that names none itself.
    fn list_name(&self) -> String {
        match self {
            Input::Path(p) => sanitize::line(
                &p.file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_else(|| p.display().to_string()),
            ),
            Input::Stdin => "stdin".to_string(),
            Input::Bundled(i) => BUNDLED[*i].0.to_string(),
        }
    }
}

/// Why loading failed as a whole.
#[derive(Debug, Error)]
pub enum LoadError {
    /// No input yielded a paper; the reports say why.
    #[error("no papers found: {}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    NoPapers(Vec<Report>),
}

/// What one input gave.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// The input's name.
    pub name: String,
    /// The format it was read as.
    pub format: Option<&'static str>,
    /// Papers loaded.
    pub papers: usize,
    /// Of those, papers with a title but no abstract.
    pub without_abstract: usize,
    /// Of those, papers listed already (the same id earlier in this input
    /// or in an earlier one): they are shown once, with every list.
    pub repeated: usize,
    /// Records skipped: (line, reason).
    pub skipped: Vec<(usize, String)>,
    /// Of the papers, those whose records were read only once put back
    /// together (CSV rows split by unquoted commas).
    pub repaired: usize,
    /// Invalid UTF-8 sequences replaced.
    pub invalid_utf8: usize,
    /// Why the input could not be read at all.
    pub error: Option<String>,
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(e) = &self.error {
            return write!(f, "{}: {e}", self.name);
        }
        let s = if self.papers == 1 { "" } else { "s" };
        write!(f, "{}: {} paper{s}", self.name, self.papers)?;
        if self.without_abstract > 0 {
            write!(f, ", {} without abstract", self.without_abstract)?;
        }
        if self.repeated > 0 {
            write!(f, ", {} listed already", self.repeated)?;
        }
        if self.repaired > 0 {
            let s = if self.repaired == 1 { "" } else { "s" };
            write!(f, ", {} row{s} repaired", self.repaired)?;
        }
        if !self.skipped.is_empty() {
            write!(f, ", {} skipped", self.skipped.len())?;
            let shown: Vec<String> = self
                .skipped
                .iter()
                .take(3)
                .map(|(line, why)| format!("line {line}: {why}"))
                .collect();
            let more = if self.skipped.len() > 3 { "; …" } else { "" };
            write!(f, " ({}{more})", shown.join("; "))?;
        }
        if self.invalid_utf8 > 0 {
            write!(
                f,
                ", {} invalid UTF-8 sequences replaced",
                self.invalid_utf8
            )?;
        }
        Ok(())
    }
}

impl Report {
    /// True when the input loaded without a warning.
    pub fn clean(&self) -> bool {
        self.error.is_none() && self.skipped.is_empty() && self.invalid_utf8 == 0
    }
}

/// A loaded corpus and what each input contributed.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The papers.
    pub corpus: Corpus,
    /// One report per input file, in input order.
    pub reports: Vec<Report>,
    /// Names this set of inputs, so that the reader can return to where it
    /// was left: `bundled`, or the files' absolute paths.
    pub key: String,
    /// The word index over every paper, when the cache had it (a file
    /// loaded alone; see [`Event::Index`]).
    pub index: Option<WordIndex>,
}

/// The key for a set of inputs (see [`Loaded::key`]).
pub fn corpus_key(inputs: &[Input]) -> String {
    if inputs.iter().all(|i| matches!(i, Input::Bundled(_))) {
        return "bundled".to_string();
    }
    let names: Vec<String> = inputs
        .iter()
        .map(|i| match i {
            Input::Path(p) => std::fs::canonicalize(p)
                .unwrap_or_else(|_| p.clone())
                .display()
                .to_string(),
            other => other.name(),
        })
        .collect();
    names.join(" + ")
}

/// Checks, before a load, that some input can be read at all: each file
/// is opened and its head looked at (standard input is taken on trust).
/// Fails, with every input's reason, when none can; the reader uses it to
/// say so before it takes the screen.
pub fn precheck(inputs: &[Input], opts: &Options) -> Result<(), LoadError> {
    let mut reports = Vec::new();
    for item in expand(inputs) {
        let input = match item {
            Ok(input) => input,
            Err(report) => {
                reports.push(*report);
                continue;
            }
        };
        if matches!(input, Input::Stdin) {
            return Ok(());
        }
        match open_head(&input, opts) {
            Ok(_) => return Ok(()),
            Err(e) => reports.push(Report {
                name: input.name(),
                error: Some(e),
                ..Report::default()
            }),
        }
    }
    Err(LoadError::NoPapers(reports))
}

/// Reads every input, handing papers to `out` as they come (made ready
/// for the matcher when `prepare`), and a report after each input. Inputs
/// that cannot be read are reported and the rest load.
pub fn stream(inputs: &[Input], opts: &Options, prepare: bool, out: &mut dyn FnMut(Event)) {
    let keep = if prepare {
        Keep::Prepared
    } else {
        Keep::Papers
    };
    stream_keeping(inputs, opts, keep, out);
}

/// Loads every input. Inputs that cannot be read are reported and the rest
/// load; it is an error only when no input yields a paper.
pub fn load(inputs: &[Input], opts: &Options) -> Result<Loaded, LoadError> {
    let mut corpus = Corpus::default();
    let mut index = None;
    let reports = gather(inputs, opts, Keep::Papers, &mut |event, expected| {
        match event {
            Some(Event::Papers(batch, _)) => corpus.push(batch),
            Some(Event::Index(ix)) => index = Some(*ix),
            _ => {}
        }
        // Room for the papers the rest of the input will likely hold, so
        // the corpus is not copied as it grows.
        if let Some(n) = expected
            && corpus.papers.capacity() == corpus.len()
        {
            let more = n.saturating_sub(corpus.len());
            corpus.papers.reserve(more);
        }
    });
    if corpus.is_empty() {
        return Err(LoadError::NoPapers(reports));
    }
    corpus.finish();
    Ok(Loaded {
        corpus,
        reports,
        key: corpus_key(inputs),
        index,
    })
}

/// [`load`] keeping only each paper's title and id: what `search` prints.
/// The papers are let go batch by batch, so a million of them are never
/// held at once (on 1M titles this halves the memory the load takes). A
/// file loaded alone has its finished titles read back from the cache when
/// they are there, and stored there once finished when not.
pub fn load_titles(
    inputs: &[Input],
    opts: &Options,
) -> Result<(TitleList, Vec<Report>), LoadError> {
    titles_of(inputs, opts, None).map(LoadedTitles::stored)
}

/// A load's titles and reports, and the titles it leaves to store in the
/// cache ([`load_titles_deferring`]).
pub struct LoadedTitles {
    pub list: TitleList,
    pub reports: Vec<Report>,
    /// The titles left to store, and the cache they go to.
    pending: Option<(cache::Pending, CacheOptions)>,
}

impl LoadedTitles {
    /// Stores the titles in the cache when the load left them to store
    /// (as [`load_titles`] does before it returns); the list and reports.
    pub fn stored(mut self) -> (TitleList, Vec<Report>) {
        self.store();
        (self.list, self.reports)
    }

    /// Stores the titles when the load left them to store; once.
    pub fn store(&mut self) {
        if let (Some((pending, cache)), [report]) = (self.pending.take(), self.reports.as_slice()) {
            pending.store(&cache, &self.list, report);
        }
    }

    /// `f(list)`, while the titles are stored (when the load left them to
    /// store) on a thread of lowered priority: what `search` does while
    /// it ranks and prints. Stored after the results, it held one core
    /// while the other sat idle.
    pub fn storing_beside<R>(&mut self, f: impl FnOnce(&TitleList) -> R) -> R {
        let list = &self.list;
        match (self.pending.take(), self.reports.as_slice()) {
            (Some((pending, cache)), [report]) => std::thread::scope(|s| {
                s.spawn(move || {
                    crate::parallel::lower_priority();
                    pending.store(&cache, list, report);
                });
                f(list)
            }),
            _ => f(list),
        }
    }
}

/// [`load_titles`], the titles left for the caller to store
/// ([`LoadedTitles::store`], [`LoadedTitles::storing_beside`]): `search`
/// writes the entry (465 MB at 2.7M papers) while it ranks and prints,
/// not before.
///
/// With `each`, every paper is read whole and each batch handed to it
/// before only its titles are kept: for what must see every field of
/// every paper once (an index of a query's words) but need not hold the
/// papers. The papers come in the list's order, with the papers the load
/// will likely hold in all (0 while that is not known); stored titles are
/// not read then (the papers are), but are stored when missing.
pub fn load_titles_deferring(
    inputs: &[Input],
    opts: &Options,
    each: Option<EachBatch<'_>>,
) -> Result<LoadedTitles, LoadError> {
    titles_of(inputs, opts, each)
}

/// Stores the finished titles of a file loaded alone (`inputs` one path,
/// the cache on, no `--max-size`) when the cache holds none for it as it
/// is now: what a reader does once its load is over, so that its next
/// open copies each title made ready for the matcher rather than making
/// it again, and the next `search` reads titles alone. Made from the
/// papers entry the load recorded, on the calling thread.
pub fn store_titles(inputs: &[Input], opts: &Options) {
    // Stored titles are known by their key alone here (reading them back
    // checks every byte, 443 MB at 2.7M papers): titles that fail their
    // checksums were passed over as the file loaded, and the next search
    // stores them again.
    if let (Some(cache), [input @ Input::Path(path)]) = (&opts.cache, inputs)
        && opts.max_size.is_none()
        && !cache::has_titles(cache, path, opts.format)
        && let Some(cache::Titles::Missing(_)) =
            cache::titles(cache, path, opts.format, input.name())
    {
        let _ = load_titles(inputs, opts);
    }
}

/// What [`load_titles_deferring`] hands each batch of papers to.
/// With each batch: the papers likely in all, and the batch's words as
/// indexed where they were parsed ([`Options::words`]), if they were.
type EachBatch<'a> = &'a mut dyn FnMut(&[Paper], usize, Option<WordIndex>);

fn titles_of(
    inputs: &[Input],
    opts: &Options,
    mut each: Option<EachBatch<'_>>,
) -> Result<LoadedTitles, LoadError> {
    // A file loaded alone may have its finished titles in the cache.
    let stored = match (&opts.cache, inputs) {
        (Some(cache), [input @ Input::Path(path)]) if opts.max_size.is_none() => {
            cache::titles(cache, path, opts.format, input.name())
        }
        _ => None,
    };
    let pending = match stored {
        Some(cache::Titles::Stored(list, report)) if each.is_none() => {
            return Ok(LoadedTitles {
                list,
                reports: vec![report],
                pending: None,
            });
        }
        Some(cache::Titles::Missing(pending)) => Some(pending),
        _ => None,
    };
    // The titles are what the next search reads, unless it must see
    // whole papers again (each): then their papers are recorded too.
    let no_record;
    let opts = match pending {
        Some(_) if each.is_none() => {
            no_record = Options {
                record_papers: false,
                ..opts.clone()
            };
            &no_record
        }
        _ => opts,
    };
    let keep = if each.is_some() {
        Keep::Papers
    } else {
        Keep::Titles
    };
    let mut list = TitleList::default();
    let mut likely = 0;
    let mut words = None;
    let reports = gather(inputs, opts, keep, &mut |event, expected| match event {
        None => {
            likely = expected.unwrap_or(0);
            list.expect(likely);
        }
        Some(Event::Words(w)) => words = Some(*w),
        Some(Event::Papers(batch, _)) => {
            if let Some(each) = each.as_mut() {
                each(&batch.papers, likely, words.take());
            }
            list.push(batch.papers);
        }
        Some(Event::Titles(titles)) => list.append(titles, None),
        _ => {}
    });
    if list.is_empty() {
        return Err(LoadError::NoPapers(reports));
    }
    list.finish();
    Ok(LoadedTitles {
        list,
        reports,
        pending: pending.zip(opts.cache.clone()),
    })
}

/// Streams `inputs` into `keep`: each batch of new papers, and now and then
/// the papers the whole load will likely hold (a twentieth over the
/// estimate). Returns the reports.
fn gather(
    inputs: &[Input],
    opts: &Options,
    keep: Keep,
    take: &mut dyn FnMut(Option<Event>, Option<usize>),
) -> Vec<Report> {
    let mut reports = Vec::new();
    stream_keeping(inputs, opts, keep, &mut |e| match e {
        Event::Report(r) => reports.push(r),
        Event::Progress {
            bytes,
            total,
            papers,
        } => take(
            None,
            expected_papers(papers, bytes, total).map(|n| n + n / 20),
        ),
        papers => take(Some(papers), None),
    });
    reports
}

/// The bundled lists, loaded.
pub fn bundled() -> Loaded {
    let inputs: Vec<Input> = (0..BUNDLED.len()).map(Input::Bundled).collect();
    load(&inputs, &Options::default()).expect("the bundled lists always load")
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    pub(super) fn load_text(name: &str, content: &[u8]) -> (Loaded, tempfile::TempDir) {
        load_in_chunks(name, content, Options::default().chunk)
    }

    /// [`load_text`], read `chunk` bytes at a time.
    pub(super) fn load_in_chunks(
        name: &str,
        content: &[u8],
        chunk: usize,
    ) -> (Loaded, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        std::fs::write(&path, content).unwrap();
        let opts = Options {
            chunk,
            ..Options::default()
        };
        (load(&[Input::Path(path)], &opts).unwrap(), dir)
    }

    #[test]
    fn the_seed_lists_load_as_38_papers_in_two_lists_in_file_order() {
        let loaded = bundled();
        assert_eq!(loaded.corpus.len(), 38);
        assert_eq!(loaded.reports.len(), 2);
        assert_eq!(loaded.reports[0].papers, 19);
        assert_eq!(loaded.reports[1].papers, 19);
        assert!(loaded.reports.iter().all(|r| r.format == Some("text")));
        let papers = &loaded.corpus.papers;
        assert!(papers.iter().all(|p| &*p.source == "ICML 2026 论文列表"));
        assert!(
            papers[0]
                .abstract_text
                .text()
                .starts_with("Finding human-understandable circuits")
        );
        assert!(
            papers[19]
                .abstract_text
                .text()
                .starts_with("Pass@$k$ and other methods")
        );
        assert_eq!(papers[18].position, 18);
        assert_eq!(papers[19].position, 0);
        assert!(papers.iter().all(|p| p.title_derived && p.id.is_hash()));
    }

    #[test]
    fn reordering_and_adding_papers_changes_no_id() {
        let ids = |s: &str| {
            let (loaded, _d) = load_text("x.txt", s.as_bytes());
            loaded
                .corpus
                .papers
                .into_vec()
                .into_iter()
                .map(|p| (p.abstract_text.text().into_owned(), p.id))
                .collect::<std::collections::HashMap<_, _>>()
        };
        let a = ids("L\n\nFirst abstract.\n\nSecond abstract.");
        let b = ids("L\n\nNew one.\n\nSecond abstract.\n\nFirst abstract.");
        assert_eq!(a["First abstract."], b["First abstract."]);
        assert_eq!(a["Second abstract."], b["Second abstract."]);
    }

    #[test]
    fn a_file_without_a_header_is_named_after_the_file() {
        let (loaded, _d) = load_text("accepted.txt", b"One abstract.\n\nAnother abstract.");
        assert_eq!(&*loaded.corpus.papers[0].source, "accepted.txt");
    }

    #[test]
    fn a_directory_loads_its_supported_files_and_papers_merge_across_files() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("a.bib"),
            "@article{x, title={Same Paper}, doi={10.1000/ABC}}",
        )
        .unwrap();
        std::fs::write(
            dir.path().join("b.ris"),
            "TY  - JOUR\nTI  - Same Paper\nDO  - 10.1000/abc\nER  - \n",
        )
        .unwrap();
        std::fs::write(dir.path().join("notes.png"), "ignored").unwrap();
        let loaded = load(
            &[Input::Path(dir.path().to_path_buf())],
            &Options::default(),
        )
        .unwrap();
        assert_eq!(loaded.reports.len(), 2);
        assert_eq!(loaded.corpus.len(), 1);
        let p = &loaded.corpus.papers[0];
        assert_eq!(p.id.as_str(), "doi:10.1000/abc");
        assert_eq!(&*p.source, "a.bib");
        assert_eq!(p.also_in, vec![Arc::<str>::from("b.ris")]);
        // The second file's report says its paper was listed already.
        assert_eq!(loaded.reports[0].repeated, 0);
        assert_eq!(loaded.reports[1].repeated, 1);
        assert!(
            loaded.reports[1]
                .to_string()
                .ends_with(", 1 listed already"),
            "{}",
            loaded.reports[1]
        );
    }

    #[test]
    fn records_with_neither_title_nor_abstract_are_skipped_and_counted() {
        let (loaded, _d) = load_text("x.bib", b"@misc{a, title={Kept}}\n@misc{b, year={2020}}\n");
        let r = &loaded.reports[0];
        assert_eq!(r.papers, 1);
        assert_eq!(r.without_abstract, 1);
        assert_eq!(r.skipped, vec![(2, "no title and no abstract".to_string())]);
        assert_eq!(
            r.to_string(),
            format!(
                "{}: 1 paper, 1 without abstract, 1 skipped (line 2: no title and no abstract)",
                r.name
            )
        );
    }
}

#[cfg(test)]
mod props {
    use super::*;
    use proptest::prelude::*;

    /// Real files, cut to a size that keeps the test quick.
    fn samples() -> Vec<(Format, Vec<u8>)> {
        let format = |name| Format::named(name).unwrap();
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/corpora");
        let mut out = vec![(format("text"), BUNDLED[0].1.as_bytes()[..4000].to_vec())];
        for (name, format) in [
            ("bib_mendeley_export_512.bib", format("bibtex")),
            ("ris_lens_bom_100.ris", format("ris")),
            ("arxiv-snapshot_wanng-ide.jsonl", format("jsonl")),
            ("arxiv_atom_api_2026_astroph_63.xml", format("atom")),
            ("tsv_csl_chinese_abstracts_dev.tsv", format("tsv")),
        ] {
            let bytes = std::fs::read(dir.join(name)).unwrap_or_else(|e| {
                panic!("{}: {e} (tests/data/corpora)", dir.join(name).display())
            });
            out.push((format, bytes[..bytes.len().min(6000)].to_vec()));
        }
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn random_bytes_never_panic_any_loader(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
            let (text, _) = decode(bytes);
            for format in Format::all() {
                let parsed = parse(&text, format);
                for r in parsed.records {
                    let _ = r.into_paper(&"p".into(), 0);
                }
            }
            let _ = detect(&text, None);
        }

        #[test]
        fn mutated_real_files_never_panic_their_loader(
            which in 0usize..6,
            edits in proptest::collection::vec((any::<u16>(), any::<u8>(), 0u8..3), 1..40),
        ) {
            let samples = samples();
            let (format, mut bytes) = samples[which].clone();
            for (pos, byte, op) in edits {
                if bytes.is_empty() {
                    break;
                }
                let at = pos as usize % bytes.len();
                match op {
                    0 => bytes[at] = byte,
                    1 => bytes.insert(at, byte),
                    _ => {
                        bytes.remove(at);
                    }
                }
            }
            let (text, _) = decode(bytes);
            for r in parse(&text, format).records.into_iter().chain(parse(&text, detect(&text, None)).records) {
                let _ = r.into_paper(&"p".into(), 0);
            }
        }
    }
}
