//! A warm load (read back from the cache) equals a cold one: the corpus,
//! the reports, the titles alone and the stream's papers, for every real
//! corpus and for large files read a chunk at a time.

use std::path::{Path, PathBuf};

use super::record::REPLAYS;
use super::*;
use crate::loading::chunks::FILE_FROM;
use crate::loading::{Event, Input, Options, load, load_titles, stream};

fn cached(dir: &Path, chunk: usize, format: Option<Format>) -> Options {
    Options {
        format,
        chunk,
        cache: Some(CacheOptions::new(dir.to_path_buf(), 1 << 40)),
        ..Options::default()
    }
}

/// Everything a load hands on, as text: papers (every field), reports.
fn loaded(inputs: &[Input], opts: &Options) -> String {
    match load(inputs, opts) {
        Ok(l) => format!("{:#?}\n{:#?}", l.corpus.papers, l.reports),
        Err(e) => format!("{e}"),
    }
}

fn titles(inputs: &[Input], opts: &Options) -> String {
    match load_titles(inputs, opts) {
        Ok((list, reports)) => {
            let mut out = Vec::new();
            for i in 0..list.len() {
                list.write_line(&mut out, i);
            }
            format!("{}\n{reports:#?}", String::from_utf8_lossy(&out))
        }
        Err(e) => format!("{e}"),
    }
}

/// What the stream hands on, as text: every paper (and whether it was
/// made ready for the matcher), the lists that earlier papers are in too,
/// the reports (not how the papers were cut into batches).
fn streamed(inputs: &[Input], opts: &Options) -> String {
    let mut out = String::new();
    stream(inputs, opts, true, &mut |e| match e {
        Event::Papers(batch, prepared) => {
            for p in &batch.papers {
                out.push_str(&format!("{p:?} {}\n", prepared.is_some()));
            }
            for a in &batch.also_in {
                out.push_str(&format!("also {a:?}\n"));
            }
        }
        Event::Report(r) => out.push_str(&format!("{r:?}\n")),
        _ => {}
    });
    out
}

/// The entries in `dir` with extension `ext`.
fn entries(dir: &Path, ext: &str) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect()
}

/// Loads `inputs` cold, then twice with the cache (recording, then
/// replaying): all the same, in every mode.
fn warm_equals_cold(inputs: &[Input], chunk: usize, format: Option<Format>) {
    let dir = tempfile::tempdir().unwrap();
    let cold = Options {
        format,
        chunk,
        ..Options::default()
    };
    let opts = cached(dir.path(), chunk, format);
    type Run = fn(&[Input], &Options) -> String;
    for (what, run) in [
        ("load", loaded as Run),
        ("titles", titles as Run),
        ("stream", streamed as Run),
    ] {
        clear(dir.path()).unwrap();
        let want = run(inputs, &cold);
        let before = REPLAYS.get();
        assert_eq!(run(inputs, &opts), want, "{what}: recording");
        assert_eq!(REPLAYS.get(), before, "{what}");
        assert_eq!(run(inputs, &opts), want, "{what}: replayed");
        let files = inputs
            .iter()
            .filter(|i| matches!(i, Input::Path(_)))
            .count();
        assert!(REPLAYS.get() >= before + files, "{what}");
    }
    // A file searched alone: its titles are read back without its papers.
    if let [Input::Path(p)] = inputs
        && p.is_file()
    {
        clear(dir.path()).unwrap();
        let want = titles(inputs, &cold);
        assert_eq!(titles(inputs, &opts), want);
        assert_eq!(usage(dir.path()).unwrap().titles, 1, "{inputs:?} {want}");
        for p in entries(dir.path(), PAPERS_EXT) {
            std::fs::remove_file(p).unwrap();
        }
        let before = REPLAYS.get();
        assert_eq!(titles(inputs, &opts), want, "titles alone");
        assert_eq!(REPLAYS.get(), before + 1, "titles alone");
    }
    // Written in one mode, read in another.
    clear(dir.path()).unwrap();
    titles(inputs, &opts);
    assert_eq!(loaded(inputs, &opts), loaded(inputs, &cold));
    clear(dir.path()).unwrap();
    loaded(inputs, &opts);
    assert_eq!(titles(inputs, &opts), titles(inputs, &cold));
}

fn corpora() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/corpora");
    let mut all: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    all.sort();
    all
}

#[test]
fn every_real_corpus_loads_warm_as_it_loads_cold() {
    let src = tempfile::tempdir().unwrap();
    // Files up to a third of a megabyte (every format but TSV, which
    // tests/it/cache.rs reads warm): quick in an unoptimised build.
    for path in corpora()
        .into_iter()
        .filter(|p| p.metadata().unwrap().len() <= 330 << 10)
    {
        // A copy: the cache keys the file by its path and time.
        let copy = src.path().join(path.file_name().unwrap());
        std::fs::copy(&path, &copy).unwrap();
        warm_equals_cold(&[Input::Path(copy)], 16 << 20, None);
    }
    // All at once, as a directory (repeats across files).
    warm_equals_cold(&[Input::Path(src.path().to_path_buf())], 4096, None);
}

#[test]
fn large_files_read_in_chunks_load_warm_as_cold() {
    let src = tempfile::tempdir().unwrap();
    // Read by offset (past FILE_FROM), cut into chunks and pieces: abstracts left in
    // the file, escapes, a broken line, invalid UTF-8, a repeat.
    let mut jsonl = b"\xEF\xBB\xBF".to_vec();
    let mut lines = String::new();
    let mut n = 0;
    while jsonl.len() < FILE_FROM as usize + (64 << 10) {
        n += 1;
        let line = match n % 1000 {
            7 => "{\"title\": broken\n".to_string(),
            8 => "{\"id\": \"2401.00003\", \"title\": \"Repeat\"}\n".to_string(),
            9 => {
                format!("{{\"title\": \"Untitled {n}\", \"abstract\": \"Hashed \\u00e9 {n}.\"}}\n")
            }
            _ => format!(
                "{{\"id\": \"2401.{n:05}\", \"title\": \"Paper {n} on $\\\\alpha$\", \"authors\": \"A. B. and C. D.\", \"abstract\": \"  We study {n}.\\n More. \", \"doi\": \"10.1/{n}\"}}\n"
            ),
        };
        jsonl.extend_from_slice(line.as_bytes());
        if n == 1_500 {
            jsonl.extend_from_slice(b"{\"title\": \"Bad \xFF byte\"}\n");
        }
        lines.push_str(&format!("Title {} of a list\n", n % 30_000));
        if n % 11 == 0 {
            lines.push('\n');
        }
    }
    let a = src.path().join("big.jsonl");
    std::fs::write(&a, &jsonl).unwrap();
    let b = src.path().join("titles.txt");
    std::fs::write(&b, &lines).unwrap();
    warm_equals_cold(&[Input::Path(a)], 64 << 10, None);
    warm_equals_cold(&[Input::Path(b)], 64 << 10, Format::named("lines"));
}

#[test]
fn a_changed_file_is_read_again() {
    let src = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let path = src.path().join("a.jsonl");
    let line = |i: usize, t: &str| format!("{{\"id\": \"2401.{i:05}\", \"title\": \"{t} {i}\"}}\n");
    let text = |t: &str| (0..500).map(|i| line(i, t)).collect::<String>();
    let opts = cached(cache.path(), 16 << 20, None);
    let inputs = [Input::Path(path.clone())];
    let check = |what: &str| {
        let cold = Options {
            cache: None,
            ..opts.clone()
        };
        assert_eq!(loaded(&inputs, &opts), loaded(&inputs, &cold), "{what}");
        assert_eq!(loaded(&inputs, &opts), loaded(&inputs, &cold), "{what}");
    };
    std::fs::write(&path, text("Aaaa")).unwrap();
    check("first");
    // Rewritten: the same length, other text.
    std::fs::write(&path, text("Bbbb")).unwrap();
    check("rewritten");
    let mut more = text("Bbbb");
    more.push_str(&line(900, "Cccc"));
    std::fs::write(&path, &more).unwrap();
    check("appended");
    std::fs::write(&path, &more[..more.len() / 2]).unwrap();
    check("truncated");
    let other = src.path().join("b.jsonl");
    std::fs::write(&other, text("Dddd")).unwrap();
    std::fs::rename(&other, &path).unwrap();
    check("replaced");
    assert_eq!(usage(cache.path()).unwrap().papers, 1, "one entry a file");
}

#[test]
fn a_damaged_entry_is_rebuilt() {
    let src = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let path = src.path().join("a.bib");
    let mut bib = String::new();
    for i in 0..300 {
        bib.push_str(&format!(
            "@article{{k{i}, title={{Paper {i}}}, author={{Lovelace, Ada}}, year={{2020}}, abstract={{About {i}.}}}}\n"
        ));
    }
    std::fs::write(&path, bib).unwrap();
    let opts = cached(cache.path(), 16 << 20, None);
    let inputs = [Input::Path(path)];
    let want = loaded(&inputs, &Options::default());
    assert_eq!(loaded(&inputs, &opts), want);
    let entry = std::fs::read_dir(cache.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == PAPERS_EXT))
        .unwrap();
    let good = std::fs::read(&entry).unwrap();
    let step = good.len() / 101 + 1;
    let mut damaged: Vec<Vec<u8>> = (0..good.len())
        .step_by(step)
        .map(|at| {
            let mut b = good.clone();
            b[at] ^= 0x41;
            b
        })
        .collect();
    damaged.push(good[..good.len() / 2].to_vec());
    damaged.push(Vec::new());
    damaged.push(vec![0xAB; good.len()]);
    let mut other_version = good.clone();
    other_version[8] ^= 1;
    damaged.push(other_version);
    for bytes in damaged {
        std::fs::write(&entry, &bytes).unwrap();
        assert_eq!(loaded(&inputs, &opts), want);
        // Rebuilt (when the damage was found).
        assert_eq!(loaded(&inputs, &opts), want);
    }
}

#[test]
fn a_file_that_grew_replays_its_old_part_and_reads_the_new() {
    let src = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let path = src.path().join("a.jsonl");
    let line = |n: usize| {
        format!(
            "{{\"id\": \"2401.{n:05}\", \"title\": \"Paper {n}\", \"abstract\": \"Plain {n} text, long enough to matter.\"}}\n"
        )
    };
    let mut text = String::new();
    let mut n = 0;
    while text.len() < FILE_FROM as usize + (64 << 10) {
        n += 1;
        text.push_str(&line(n));
    }
    std::fs::write(&path, &text).unwrap();
    let inputs = [Input::Path(path.clone())];
    let opts = cached(cache.path(), 64 << 10, None);
    let cold = Options {
        cache: None,
        ..opts.clone()
    };
    type Run = fn(&[Input], &Options) -> String;
    let runs = [loaded as Run, titles as Run, streamed as Run];
    assert_eq!(loaded(&inputs, &opts), loaded(&inputs, &cold));
    for (k, tail) in [
        // A day's new papers: a broken line, a repeat of an old paper,
        // new ones.
        "{\"title\": broken\n{\"id\": \"2401.00003\", \"title\": \"Again\"}\n{\"id\": \"2402.00001\", \"title\": \"New\"}\n",
        "{\"id\": \"2402.00002\", \"title\": \"Newer\", \"abstract\": \"Plain.\"}\n",
        // No line end at the end: the next append continues this line.
        "{\"id\": \"2402.00003\", \"title\": \"Unfinished\"}",
        "\n{\"id\": \"2402.00004\", \"title\": \"After\"}\n",
    ]
    .into_iter()
    .enumerate()
    {
        text.push_str(tail);
        let mut f = std::fs::OpenOptions::new().append(true).open(&path).unwrap();
        std::io::Write::write_all(&mut f, tail.as_bytes()).unwrap();
        drop(f);
        let before = REPLAYS.get();
        for run in runs {
            let (got, want) = (run(&inputs, &opts), run(&inputs, &cold));
            if got != want {
                let at = got.lines().zip(want.lines()).position(|(a, b)| a != b);
                panic!("append {k}: differs at line {at:?}");
            }
        }
        // The first load after the append replayed the old part (unless
        // the old part did not end a line).
        let grown = usize::from(k != 3);
        assert_eq!(REPLAYS.get() - before, 2 + grown, "append {k}");
        assert_eq!(usage(cache.path()).unwrap().papers, 1);
    }
    let want = loaded(&inputs, &cold);
    assert!(want.contains("2402.00004") && want.contains("invalid JSON"));
}

#[test]
fn a_file_changed_in_its_middle_then_grown_is_read_again_whole() {
    // A `cp` of a file over the cached one keeps its inode: the same
    // length with a line changed in the middle (both ends as they were),
    // then more lines. The entry's old part no longer hashes as the file's
    // does: the file is read again whole, never replayed stale.
    let src = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let path = src.path().join("a.jsonl");
    let line = |n: usize, year: usize| {
        format!("{{\"id\": \"2401.{n:05}\", \"title\": \"Paper {n}\", \"year\": {year}}}\n")
    };
    let mut text = String::new();
    let mut n = 0;
    while text.len() < FILE_FROM as usize + (16 << 10) {
        n += 1;
        text.push_str(&line(n, 2023));
    }
    std::fs::write(&path, &text).unwrap();
    let inputs = [Input::Path(path.clone())];
    let opts = cached(cache.path(), 64 << 10, None);
    let cold = Options {
        cache: None,
        ..opts.clone()
    };
    assert_eq!(loaded(&inputs, &opts), loaded(&inputs, &cold));
    let middle = text.find(&line(n / 2, 2023)).unwrap();
    let changed = line(n / 2, 2024);
    text.replace_range(middle..middle + changed.len(), &changed);
    text.push_str(&line(n + 1, 2024));
    let ino =
        |p: &std::path::Path| std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(p).unwrap());
    let before_ino = ino(&path);
    std::fs::write(&path, &text).unwrap();
    assert_eq!(ino(&path), before_ino, "written over, as cp does");
    let before = REPLAYS.get();
    let (got, want) = (loaded(&inputs, &opts), loaded(&inputs, &cold));
    assert_eq!(REPLAYS.get(), before, "not replayed");
    assert_eq!(got, want);
    let corpus = load(&inputs, &opts).unwrap().corpus;
    let year = |id: String| {
        corpus
            .papers
            .iter()
            .find(|p| p.id.as_str() == id)
            .unwrap()
            .year
    };
    assert_eq!(year(format!("arxiv:2401.{:05}", n / 2)), Some(2024));
    assert_eq!(year(format!("arxiv:2401.{:05}", n + 1)), Some(2024));
}

/// What a reader's load hands on, the matcher's share included: each
/// paper's id and all that was made of it for the matcher. Handing the
/// first batch on waits a moment, so that titles stored for the file are
/// read back before the next batch is made ready.
fn prepared(inputs: &[Input], opts: &Options) -> String {
    let mut out = String::new();
    let mut first = true;
    stream(inputs, opts, true, &mut |e| {
        if let Event::Papers(batch, Some(made)) = e {
            for (i, p) in batch.papers.iter().enumerate() {
                out.push_str(&format!("{} {}\n", p.id.as_str(), made.shown(i)));
            }
            if std::mem::take(&mut first) {
                std::thread::sleep(std::time::Duration::from_millis(300));
            }
        }
    });
    out
}

#[test]
fn a_reader_copies_the_titles_stored_for_its_file_as_it_would_make_them() {
    use crate::loading::stream::MADE;
    let src = tempfile::tempdir().unwrap();
    // Many batches: ASCII, accented and marked-up titles, derived titles
    // alike (told apart in the stored list by their ids), a repeat (so
    // that the papers come in batches, not left in the cache).
    let mut jsonl = String::new();
    for n in 0..6_000 {
        jsonl.push_str(&match n % 7 {
            1 => format!("{{\"id\": \"2401.{n:05}\", \"title\": \"Über naïve models {n}\"}}\n"),
            2 => format!("{{\"title\": \"Fast $O(n)$ {{\\\\em sorting}} {n}\", \"abstract\": \"On {n}.\"}}\n"),
            3 => format!(
                "{{\"abstract\": \"A first sentence shared by many papers. Then {n}.\"}}\n"
            ),
            4 => "{\"id\": \"2401.00001\", \"title\": \"A repeat\"}\n".into(),
            _ => format!(
                "{{\"id\": \"2401.{n:05}\", \"title\": \"Sparse attention {n}\", \"authors\": \"A. B. and C. D.\", \"abstract\": \"We study {n}.\"}}\n"
            ),
        });
    }
    let file = src.path().join("papers.jsonl");
    std::fs::write(&file, &jsonl).unwrap();
    let bib = src.path().join("refs.bib");
    let real = corpora()
        .into_iter()
        .find(|p| p.extension().is_some_and(|e| e == "bib"));
    std::fs::copy(real.unwrap(), &bib).unwrap();
    for (path, chunk) in [(file, 16 << 10), (bib, 16 << 20)] {
        let inputs = [Input::Path(path.clone())];
        let dir = tempfile::tempdir().unwrap();
        let cold = Options {
            chunk,
            ..Options::default()
        };
        let opts = cached(dir.path(), chunk, None);
        let want = prepared(&inputs, &cold);
        assert_eq!(prepared(&inputs, &opts), want, "{path:?}: recording");
        assert_eq!(usage(dir.path()).unwrap().titles, 0);
        crate::loading::store_titles(&inputs, &opts);
        assert_eq!(usage(dir.path()).unwrap().titles, 1, "{path:?}");
        if chunk > jsonl.len() {
            // Each id its own: its papers are left in the cache instead,
            // each as a cold load makes it.
            let papers = stored_papers(&inputs, &opts).expect("left in the cache");
            let want = load(&inputs, &cold).unwrap().corpus.papers;
            assert_eq!(format!("{:?}", papers), format!("{want:?}"), "{path:?}");
            continue;
        }
        MADE.set(0);
        // The titles are read back on a thread of their own, which the
        // first batch's pause gives time; a machine busy enough to delay
        // it past that has the load tried again.
        for _ in 0..5 {
            assert_eq!(prepared(&inputs, &opts), want, "{path:?}: titles copied");
            if MADE.get() > 0 {
                break;
            }
        }
        assert!(MADE.get() > 0, "{path:?}: the stored titles were copied");
    }
}

/// A JSON line of paper `n`: its own arXiv id, a title and an abstract.
fn paper_line(n: usize) -> String {
    format!("{{\"id\": \"2401.{n:05}\", \"title\": \"Paper {n}\", \"abstract\": \"On {n}.\"}}\n")
}

#[test]
fn a_file_whose_ids_are_each_its_own_replays_alone_without_the_dedup() {
    use crate::loading::stream::UNDEDUPED;
    let src = tempfile::tempdir().unwrap();
    let line = paper_line;
    let distinct: String = (0..3_000).map(line).collect();
    // The same papers and one of them again; two papers that differ only
    // in their authors, without ids (the second takes a distinguished
    // id); a file that repeats an id of the first.
    let repeat = format!("{distinct}{}", line(17));
    let varied = format!(
        "{distinct}{{\"title\": \"Twin\", \"abstract\": \"Same.\", \"authors\": \"A. B.\"}}\n\
         {{\"title\": \"Twin\", \"abstract\": \"Same.\", \"authors\": \"C. D.\"}}\n"
    );
    let files: Vec<PathBuf> = [
        ("distinct", &distinct),
        ("repeat", &repeat),
        ("varied", &varied),
    ]
    .iter()
    .map(|(name, text)| {
        let path = src.path().join(format!("{name}.jsonl"));
        std::fs::write(&path, text).unwrap();
        path
    })
    .collect();
    let other = src.path().join("other.jsonl");
    std::fs::write(&other, line(5)).unwrap();
    let cases = [
        (vec![Input::Path(files[0].clone())], true),
        (vec![Input::Path(files[1].clone())], false),
        (vec![Input::Path(files[2].clone())], false),
        // Not alone: the second file's papers must meet the first's.
        (
            vec![Input::Path(files[0].clone()), Input::Path(other.clone())],
            false,
        ),
    ];
    for (inputs, passes) in cases {
        let dir = tempfile::tempdir().unwrap();
        let opts = cached(dir.path(), 16 << 10, None);
        let cold = Options {
            chunk: 16 << 10,
            ..Options::default()
        };
        type Run = fn(&[Input], &Options) -> String;
        for (what, run) in [("load", loaded as Run), ("stream", streamed as Run)] {
            clear(dir.path()).unwrap();
            let want = run(&inputs, &cold);
            assert_eq!(run(&inputs, &opts), want, "{what} {inputs:?}: recording");
            UNDEDUPED.set(0);
            assert_eq!(run(&inputs, &opts), want, "{what} {inputs:?}: replayed");
            assert_eq!(UNDEDUPED.get() > 0, passes, "{what} {inputs:?}");
        }
    }
}

#[test]
fn a_reader_leaves_out_what_the_stored_index_of_its_file_covers() {
    let src = tempfile::tempdir().unwrap();
    let path = src.path().join("papers.jsonl");
    let text: String = (0..2_000).map(paper_line).collect();
    std::fs::write(&path, text).unwrap();
    let inputs = [Input::Path(path.clone())];
    let dir = tempfile::tempdir().unwrap();
    let opts = cached(dir.path(), 16 << 10, None);
    // Each batch: whether it lacks what the index reads; whether an index came.
    let run = || {
        let (mut lacking, mut index) = (Vec::new(), false);
        stream(&inputs, &opts, true, &mut |e| match e {
            Event::Papers(_, Some(made)) => lacking.push(made.lacks_index_fields()),
            Event::Index(_) => index = true,
            _ => {}
        });
        (lacking, index)
    };
    let (cold, index) = run();
    assert!(cold.len() > 1 && !cold.contains(&true) && !index);
    let papers = load(&inputs, &opts).unwrap().corpus.papers;
    let built = crate::search::index_papers(&papers);
    let cache = opts.cache.as_ref().unwrap();
    store_index(cache, &path, None, papers.len(), &mut |out| {
        built.write_to(out)
    })
    .unwrap();
    let (warm, index) = run();
    assert_eq!(warm.len(), cold.len());
    assert!(!warm.contains(&false) && index, "{warm:?}");
}

/// What a reader's load hands on for a file whose titles are stored: its
/// papers left in the cache (with the list they were read through), or
/// `None` when they came in batches.
fn stored_papers(inputs: &[Input], opts: &Options) -> Option<crate::corpus::Papers> {
    let mut stored = None;
    let mut batches = 0;
    stream(inputs, opts, true, &mut |e| match e {
        Event::Stored(papers, list) => {
            assert_eq!(list.len(), papers.len());
            stored = Some(papers);
        }
        Event::Papers(..) => batches += 1,
        _ => {}
    });
    assert!(stored.is_none() || batches == 0);
    stored
}

/// Stores the titles and word index of `inputs` (a file alone).
fn store_titles_and_index(inputs: &[Input], opts: &Options) {
    let papers = load(inputs, opts).unwrap().corpus.papers;
    crate::loading::store_titles(inputs, opts);
    let built = crate::search::index_papers(&papers);
    let [Input::Path(path)] = inputs else {
        panic!("a file alone")
    };
    let cache = opts.cache.as_ref().unwrap();
    store_index(cache, path, None, papers.len(), &mut |out| {
        built.write_to(out)
    })
    .unwrap();
}

#[test]
fn a_reader_leaves_the_papers_of_a_file_whose_titles_are_stored_in_the_cache() {
    let src = tempfile::tempdir().unwrap();
    // Many blocks; derived titles that collide (made unique by their
    // ids once the corpus is whole), titles with markup, hash ids.
    let line = |n: usize| match n % 5 {
        1 => format!("{{\"abstract\": \"A first sentence shared by many papers. Then {n}.\"}}\n"),
        2 => format!(
            "{{\"id\": \"2401.{n:05}\", \"abstract\": \"A first sentence shared by many papers. Then {n}.\"}}\n"
        ),
        3 => format!(
            "{{\"title\": \"Fast $O(n)$ {{\\\\em sorting}} {n}\", \"abstract\": \"On {n}.\"}}\n"
        ),
        _ => format!(
            "{{\"id\": \"2401.{n:05}\", \"title\": \"Über attention {n}\", \"authors\": \"A. B. and C. D.\", \"year\": 2024, \"abstract\": \"We study {n}.\"}}\n"
        ),
    };
    let text: String = (0..3_000).map(line).collect();
    let path = src.path().join("papers.jsonl");
    std::fs::write(&path, &text).unwrap();
    let inputs = [Input::Path(path.clone())];
    let cold = load(
        &inputs,
        &Options {
            chunk: 16 << 10,
            ..Options::default()
        },
    )
    .unwrap();
    assert!(cold.corpus.papers.iter().any(|p| p.title.ends_with(']')));
    let dir = tempfile::tempdir().unwrap();
    let opts = cached(dir.path(), 16 << 10, None);
    // The index alone stored: papers in batches; the titles alone, or
    // both: left in the cache.
    store_titles_and_index(&inputs, &opts);
    for p in entries(dir.path(), TITLES_EXT) {
        std::fs::remove_file(p).unwrap();
    }
    assert!(stored_papers(&inputs, &opts).is_none());
    clear(dir.path()).unwrap();
    load(&inputs, &opts).unwrap();
    crate::loading::store_titles(&inputs, &opts);
    assert!(stored_papers(&inputs, &opts).is_some());
    store_titles_and_index(&inputs, &opts);
    // Each paper read alone (no thread decodes them all here), then all.
    let file = std::fs::File::open(&path).unwrap();
    let list: Arc<str> = crate::text::sanitize::line(&inputs[0].list_name()).into();
    let format = Format::named("jsonl").unwrap();
    let cache = opts.cache.as_ref().unwrap();
    let Lookup::Replay(replay) =
        lookup(cache, &inputs[0], &file, format, &list, (true, true, true))
    else {
        panic!("an entry to replay")
    };
    let Some(Titles::Stored(titles_list, _)) = super::titles(cache, &path, None, String::new())
    else {
        panic!("titles stored")
    };
    let alone = replay.stored(Arc::new(titles_list)).ok().expect("by block");
    for i in (0..3_000).rev() {
        assert_eq!(alone[i], cold.corpus.papers[i], "paper {i} alone");
    }
    assert!(!alone.is_ready());
    assert_eq!(*alone, *cold.corpus.papers);
    let papers = stored_papers(&inputs, &opts).expect("left in the cache");
    let corpus = crate::corpus::Corpus::stored(papers);
    assert!(corpus.papers.is_stored());
    // Read a paper at a time, then every one: the cold load's papers.
    for i in [2_999, 0, 1_501, 7] {
        assert_eq!(corpus.papers[i], cold.corpus.papers[i], "paper {i}");
    }
    let mut ids = Vec::new();
    corpus.papers.each_id(|i, id| ids.push((i, id.to_string())));
    let want: Vec<(usize, String)> = (0..3_000)
        .map(|i| (i, cold.corpus.papers[i].id.to_string()))
        .collect();
    assert_eq!(ids, want);
    // Found by their ids as kept: a hash id, an arXiv id, a repeat.
    let (hash, arxiv) = (want[1].1.as_str(), want[2_999].1.as_str());
    assert_eq!(hash.len(), 16);
    assert_eq!(
        corpus
            .papers
            .find_ids(&[arxiv, "arxiv:2401.99999", hash, arxiv]),
        vec![Some(2_999), None, Some(1), Some(2_999)]
    );
    assert_eq!(
        format!("{:?}", corpus.papers),
        format!("{:?}", cold.corpus.papers)
    );
    for i in 0..3_000 {
        assert_eq!(corpus.short_id(i), cold.corpus.short_id(i));
    }
    // The load's report, as a cold load's.
    let (mut reports, mut left) = (Vec::new(), None);
    stream(&inputs, &opts, true, &mut |e| match e {
        Event::Report(r) => reports.push(r),
        Event::Stored(papers, _) => left = Some(papers),
        _ => {}
    });
    assert_eq!(reports, cold.reports);
    // The load's own thread decoding them is done before the entry is
    // damaged below.
    left.expect("left in the cache").decode_all();

    // A block damaged on disk: its papers are their ids and titles alone
    // (the others as they were), nothing panics, and the entry goes. The
    // damaged entry replaces the good one as the cache replaces entries.
    let [entry] = entries(dir.path(), PAPERS_EXT).try_into().unwrap();
    let mut bytes = std::fs::read(&entry).unwrap();
    let at = bytes.len() / 2;
    bytes[at] ^= 0x55;
    let damaged_entry = entry.with_extension("damaged");
    std::fs::write(&damaged_entry, &bytes).unwrap();
    std::fs::rename(&damaged_entry, &entry).unwrap();
    let papers = stored_papers(&inputs, &opts).expect("left in the cache");
    let damaged: Vec<usize> = (0..3_000)
        .filter(|&i| papers[i] != cold.corpus.papers[i])
        .collect();
    assert!(!damaged.is_empty() && damaged.len() < 3_000, "{damaged:?}");
    for &i in &damaged {
        let (p, want) = (&papers[i], &cold.corpus.papers[i]);
        assert_eq!((&p.id, &p.title), (&want.id, &want.title));
        assert!(p.abstract_text.is_empty() && p.authors.is_empty());
    }
    assert!(entries(dir.path(), PAPERS_EXT).is_empty());
    // Opened again: parsed and recorded afresh, the same papers.
    assert!(stored_papers(&inputs, &opts).is_none());
    let again = stored_papers(&inputs, &opts).expect("left in the cache");
    assert_eq!(format!("{:?}", again), format!("{:?}", cold.corpus.papers));
}

#[test]
fn papers_with_repeats_or_former_ids_are_not_left_in_the_cache() {
    let src = tempfile::tempdir().unwrap();
    let line = paper_line;
    let distinct: String = (0..2_000).map(line).collect();
    let repeat = format!("{distinct}{}", line(17));
    // A CSL-JSON item of an arXiv paper: its id was once its DOI.
    let former = format!(
        "{distinct}{{\"id\": \"x\", \"type\": \"article\", \"title\": \"Late\", \"DOI\": \"10.48550/arXiv.2101.00001\", \"URL\": \"https://arxiv.org/abs/2101.00001\"}}\n"
    );
    for (name, text, left) in [
        ("d", &distinct, true),
        ("r", &repeat, false),
        ("f", &former, false),
    ] {
        let path = src.path().join(format!("{name}.jsonl"));
        std::fs::write(&path, text).unwrap();
        let inputs = [Input::Path(path)];
        let dir = tempfile::tempdir().unwrap();
        let opts = cached(dir.path(), 16 << 10, None);
        store_titles_and_index(&inputs, &opts);
        let cold = load(&inputs, &Options::default()).unwrap();
        if name == "f" {
            assert!(!cold.corpus.former_ids().is_empty(), "{name}");
        }
        assert_eq!(stored_papers(&inputs, &opts).is_some(), left, "{name}");
        assert_eq!(
            format!("{:?}", load(&inputs, &opts).unwrap().corpus.papers),
            format!("{:?}", cold.corpus.papers),
            "{name}"
        );
    }
}
