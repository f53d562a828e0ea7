//! What goes out comes back: every real export in `tests/data/corpora`
//! is loaded, tagged and annotated, exported as BibTeX, JSON and CSV
//! (`export --all`), and the export opened again. Every paper must come
//! back as itself: its id (so its marks, tags and note), title, authors,
//! year, venue, DOI, arXiv id, abstract and links.
//!
//! Where a format cannot keep a field the test says why and checks what
//! it keeps instead: BibTeX has one `url` (besides the DOI and arXiv id),
//! and a title or venue with markup (`$\alpha$`, `--`) goes out as LaTeX,
//! which its reader renders: it comes back as the screen showed it. The
//! CSV reader takes a `;` or `,` off a link's end. An abstract whose `$`
//! do not pair goes out to BibTeX with the last one escaped (other
//! readers would take the rest of the file for math): it shows as it did.
//!
//! `cargo test --test roundtrip -- --nocapture` prints what was kept, a
//! line per file and format ("shown": the title, or venue, as the screen
//! shows it).

use std::path::{Path, PathBuf};

use paperboat::corpus::{Corpus, Paper};
use paperboat::export::{self, Format};
use paperboat::loading::{Input, Options, load};
use paperboat::store::{Edit, Store};
use paperboat::text::markup;

fn corpora() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpora");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
}

fn open(path: &Path) -> Corpus {
    load(&[Input::Path(path.to_path_buf())], &Options::default())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .corpus
}

/// The DOI a paper carries: its id's, else its doi.org link's.
fn doi_of(p: &Paper) -> Option<String> {
    if let Some(d) = p.id.as_str().strip_prefix("doi:") {
        return Some(d.to_string());
    }
    p.links().iter().find_map(|l| {
        let l = l.to_ascii_lowercase();
        [
            "https://doi.org/",
            "http://doi.org/",
            "https://dx.doi.org/",
            "http://dx.doi.org/",
        ]
        .iter()
        .find_map(|r| l.strip_prefix(r).map(str::to_string))
    })
}

/// The arXiv id a paper carries: its id's, else its arxiv.org link's.
fn arxiv_of(p: &Paper) -> Option<String> {
    if let Some(a) = p.id.as_str().strip_prefix("arxiv:") {
        return Some(a.to_string());
    }
    p.links()
        .iter()
        .find_map(|l| paperboat::corpus::fields::arxiv_in(l, false))
}

/// What a round trip kept, counted in papers.
#[derive(Default, Debug, Clone, Copy)]
struct Kept {
    papers: usize,
    back: usize,
    id: usize,
    title: usize,
    title_shown: usize,
    venue_shown: usize,
    authors: usize,
    /// Names that came back in the same parts (given, particle, family,
    /// suffix; an organisation's whole).
    parts: usize,
    year: usize,
    venue: usize,
    doi: usize,
    arxiv: usize,
    abstract_text: usize,
    links: usize,
    keywords: usize,
    /// arXiv categories.
    categories: usize,
    marks: usize,
    /// Differences the format has no reason for.
    unexcused: usize,
}

const FIELDS: [&str; 15] = [
    "id", "title", "shown", "authors", "parts", "year", "venue", "shown", "doi", "arxiv",
    "abstract", "links", "kw", "cats", "marks",
];

impl Kept {
    fn each(&self) -> [usize; 15] {
        [
            self.id,
            self.title,
            self.title_shown,
            self.authors,
            self.parts,
            self.year,
            self.venue,
            self.venue_shown,
            self.doi,
            self.arxiv,
            self.abstract_text,
            self.links,
            self.keywords,
            self.categories,
            self.marks,
        ]
    }

    fn add(&mut self, o: &Kept) {
        self.papers += o.papers;
        self.back += o.back;
        self.id += o.id;
        self.title += o.title;
        self.title_shown += o.title_shown;
        self.venue_shown += o.venue_shown;
        self.authors += o.authors;
        self.parts += o.parts;
        self.year += o.year;
        self.venue += o.venue;
        self.doi += o.doi;
        self.arxiv += o.arxiv;
        self.abstract_text += o.abstract_text;
        self.links += o.links;
        self.keywords += o.keywords;
        self.categories += o.categories;
        self.marks += o.marks;
    }
}

/// Loads `file`, tags and annotates its papers, exports them all as
/// `format`, opens the export and counts what came back; the first few
/// differences of each field are kept in `diffs`.
fn round_trip(file: &Path, format: Format, diffs: &mut Vec<String>) -> Kept {
    let dir = tempfile::tempdir().unwrap();
    let before = open(file);
    let (mut store, _) = Store::open(&dir.path().join("state"));
    let mut edits = Vec::new();
    for (i, p) in before.papers.iter().enumerate() {
        let id = p.id.as_str().to_string();
        edits.push(Edit::Tag {
            id: id.clone(),
            tag: format!("tag {}", i % 3),
            on: true,
        });
        if i % 2 == 0 {
            edits.push(Edit::Note {
                id,
                text: format!("Note {i}: 50% & $x_1$ {{braces}}"),
            });
        }
    }
    store.apply(&edits).unwrap();
    let all: Vec<usize> = (0..before.len()).collect();
    let mut out = Vec::new();
    export::write(&mut out, format, &before, &all, &store).unwrap();
    let ext = match format {
        Format::Bibtex => "bib",
        Format::Json => "json",
        Format::Csv => "csv",
        Format::Markdown => "md",
    };
    let exported = dir.path().join(format!("export.{ext}"));
    std::fs::write(&exported, &out).unwrap();
    let after = open(&exported);
    let mut kept = Kept {
        papers: before.len(),
        back: after.len(),
        ..Kept::default()
    };
    let mut diff = |field: &str, i: usize, a: String, b: String| {
        if diffs.iter().filter(|d| d.starts_with(field)).count() < 3 {
            diffs.push(format!("{field} #{i}: {a:?}\n   came back {b:?}"));
        }
    };
    let mut unexcused = 0;
    for (i, p) in before.papers.iter().enumerate() {
        let Some(q) = after.papers.get(i) else {
            break;
        };
        // A difference is a failure unless `excused` says why the format
        // cannot keep it (see `excuses`).
        let mut check = |field: &str, same: bool, excused: bool, a: String, b: String| {
            if !same && !excused {
                unexcused += 1;
                diff(field, i, a, b);
            }
            usize::from(same)
        };
        let bib = format == Format::Bibtex;
        let shown_same =
            |a: Option<&str>, b: Option<&str>| a.map(markup::plain) == b.map(markup::plain);
        let has_markup = |a: Option<&str>| a.is_some_and(|t| markup::plain(t) != t);
        let title = Some(p.title.as_str());
        kept.id += check(
            "id",
            p.id == q.id,
            false,
            p.id.to_string(),
            q.id.to_string(),
        );
        kept.title += check(
            "title",
            p.title == q.title,
            bib && has_markup(title) && shown_same(title, Some(&q.title)),
            p.title.clone(),
            q.title.clone(),
        );
        kept.title_shown += usize::from(shown_same(title, Some(&q.title)));
        kept.venue_shown += usize::from(shown_same(p.venue.as_deref(), q.venue.as_deref()));
        kept.authors += check(
            "authors",
            p.authors.iter().eq(q.authors.iter()),
            // A name shown holding a comma (`{Austin, Claire C}` in
            // BibTeX) is read back from text family name first.
            !bib && p.authors.iter().any(|n| n.contains(',')),
            format!("{:?}", p.authors),
            format!("{:?}", q.authors),
        );
        // In text (JSON, CSV) a name is one string: an organisation's name,
        // or one a reader kept whole (`Liu R.`), comes back read by the
        // free-text rule; BibTeX keeps the parts.
        let parts = |a: &paperboat::corpus::Authors| {
            a.names().map(|n| format!("{n:?}")).collect::<Vec<_>>()
        };
        // Nor can it tell a particle from the family name it begins
        // (`de Oliveira` as one family name, braced in BibTeX).
        let text_form = |a: &paperboat::corpus::Authors| {
            a.names()
                .map(|n| {
                    let family = [n.particle.as_str(), n.family.as_str()].join(" ");
                    format!("{}|{}|{}", n.given, family.trim(), n.suffix)
                })
                .collect::<Vec<_>>()
        };
        let whole = p
            .authors
            .names()
            .any(|n| n.literal || n.display().contains(','));
        kept.parts += check(
            "parts",
            parts(&p.authors) == parts(&q.authors),
            !bib && (whole || text_form(&p.authors) == text_form(&q.authors)),
            parts(&p.authors).join(" | "),
            parts(&q.authors).join(" | "),
        );
        kept.year += check(
            "year",
            p.year == q.year,
            false,
            format!("{:?}", p.year),
            format!("{:?}", q.year),
        );
        kept.venue += check(
            "venue",
            p.venue == q.venue,
            bib && has_markup(p.venue.as_deref())
                && shown_same(p.venue.as_deref(), q.venue.as_deref()),
            format!("{:?}", p.venue),
            format!("{:?}", q.venue),
        );
        kept.doi += check(
            "doi",
            doi_of(p) == doi_of(q),
            false,
            format!("{:?}", doi_of(p)),
            format!("{:?}", doi_of(q)),
        );
        kept.arxiv += check(
            "arxiv",
            arxiv_of(p) == arxiv_of(q),
            false,
            format!("{:?}", arxiv_of(p)),
            format!("{:?}", arxiv_of(q)),
        );
        let (a, b) = (p.abstract_text.text(), q.abstract_text.text());
        // BibTeX readers take a `$` left open for math to the end of the
        // file: the last of an odd number goes out as `\$`, which shows
        // as it did.
        let open_dollar = bib && a.matches('$').count() % 2 == 1;
        kept.abstract_text += check(
            "abstract",
            a == b,
            open_dollar && markup::plain(&a) == markup::plain(&b),
            a.to_string(),
            b.to_string(),
        );
        let (before_links, after_links) = (p.links(), q.links());
        // BibTeX has one `url` besides the DOI and the arXiv id; the CSV
        // reader takes a `;` or `,` off a link's end (cells list links
        // so).
        let own = |l: &String| {
            let l = l.to_ascii_lowercase();
            let page = l.split_once("://").map_or("", |(_, rest)| rest);
            doi_of(p).is_some_and(|d| {
                page == format!("doi.org/{d}") || page == format!("dx.doi.org/{d}")
            }) || arxiv_of(p).is_some_and(|a| {
                page.strip_prefix("arxiv.org/abs/").is_some_and(|id| {
                    id == a
                        || id
                            .strip_prefix(a.as_str())
                            .is_some_and(|v| v.starts_with('v'))
                })
            })
        };
        let others = |links: &[String]| -> Vec<String> {
            links.iter().filter(|l| !own(l)).cloned().collect()
        };
        let excused = match format {
            // The first link that is not the DOI's or arXiv id's page; those
            // come back in their own form.
            Format::Bibtex => {
                others(&after_links) == others(&before_links)[..others(&before_links).len().min(1)]
            }
            Format::Csv => before_links.iter().any(|l| l.ends_with([';', ','])),
            _ => false,
        };
        kept.links += check(
            "links",
            before_links == after_links,
            excused,
            format!("{before_links:?}"),
            format!("{after_links:?}"),
        );
        // BibTeX's `keywords` are the tags (which come back by the id).
        let (kw, back) = (&p.more().keywords, &q.more().keywords);
        kept.keywords += check(
            "keywords",
            kw == back,
            bib && back.is_empty(),
            format!("{kw:?}"),
            format!("{back:?}"),
        );
        // BibTeX has one `primaryClass`: the primary category.
        let (cats, back) = (&p.more().categories, &q.more().categories);
        kept.categories += check(
            "categories",
            cats == back,
            bib && back[..] == cats[..cats.len().min(1)],
            format!("{cats:?}"),
            format!("{back:?}"),
        );
        let marks = |id: &str| (store.tags(id), store.note(id));
        kept.marks += check(
            "marks",
            marks(p.id.as_str()) == marks(q.id.as_str()),
            false,
            format!("{:?}", marks(p.id.as_str())),
            format!("{:?}", marks(q.id.as_str())),
        );
    }
    kept.unexcused = unexcused;
    kept
}

#[test]
fn every_corpus_comes_back_from_every_export() {
    let mut failures = Vec::new();
    for format in [Format::Bibtex, Format::Json, Format::Csv] {
        let mut total = Kept::default();
        println!("\n{format:?}: papers back, then {}", FIELDS.join(" "));
        for file in corpora() {
            let mut diffs = Vec::new();
            let kept = round_trip(&file, format, &mut diffs);
            total.add(&kept);
            let name = file.file_name().unwrap().to_string_lossy().to_string();
            let each = kept.each();
            println!(
                "  {name:<46} {:>5}/{:<5} {}",
                kept.back,
                kept.papers,
                each.map(|n| format!("{n:>5}")).join(" ")
            );
            if kept.back != kept.papers || kept.unexcused > 0 {
                failures.push(format!("{format:?} {name}:\n  {}", diffs.join("\n  ")));
            }
        }
        println!(
            "  {:<46} {:>5}/{:<5} {}",
            "all",
            total.back,
            total.papers,
            total.each().map(|n| format!("{n:>5}")).join(" ")
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Exported BibTeX is BibTeX other readers take: the `biblatex` crate
/// parses every export whole, an entry a paper, and reads back each
/// paper's DOI, arXiv id and link as they are (verbatim fields: no `\&`,
/// `\%` or `\_` in them), and each title without markup as itself.
#[test]
fn bibtex_exports_are_what_other_readers_read() {
    use biblatex::{Bibliography, ChunksExt};
    let mut titles = 0;
    for file in corpora() {
        let corpus = open(&file);
        let dir = tempfile::tempdir().unwrap();
        let (store, _) = Store::open(dir.path());
        let all: Vec<usize> = (0..corpus.len()).collect();
        let mut out = Vec::new();
        export::write(&mut out, Format::Bibtex, &corpus, &all, &store).unwrap();
        let text = String::from_utf8(out).unwrap();
        let name = file.display();
        let bib = Bibliography::parse(&text).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert_eq!(bib.len(), corpus.len(), "{name}");
        for (p, entry) in corpus.papers.iter().zip(bib.iter()) {
            // (A backslash in a DOI, as a file wrote `doi\:10.…` into one,
            // is read by the crate as an escape.)
            match p.doi() {
                Some(d) if d.contains('\\') => {}
                d => assert_eq!(entry.doi().ok().as_deref(), d.as_deref(), "{name}"),
            }
            assert_eq!(
                entry.eprint().ok().as_deref(),
                p.arxiv_id().as_deref(),
                "{name}"
            );
            if let Ok(url) = entry.url() {
                assert!(p.links().contains(&url), "{name}: {url}");
            }
            let plain = markup::plain(&p.title) == p.title;
            if plain && !p.title.contains(['\\', '~', '^', '{', '}', '$']) {
                let read = entry.title().unwrap().format_verbatim();
                assert_eq!(read, p.title, "{name}");
                titles += 1;
            }
        }
    }
    assert!(titles > 10_000, "{titles}");
}
