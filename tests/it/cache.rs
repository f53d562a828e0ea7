//! The cache of large files, through the real binary: a warm open prints
//! what a cold one prints, whatever happened to the file or to the cache
//! meanwhile; the commands that show and empty it; `--no-cache`.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

struct Env {
    state: tempfile::TempDir,
    cache: tempfile::TempDir,
    files: tempfile::TempDir,
}

impl Env {
    fn new() -> Env {
        Env {
            state: tempfile::tempdir().unwrap(),
            cache: tempfile::tempdir().unwrap(),
            files: tempfile::tempdir().unwrap(),
        }
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(common::bin());
        cmd.args(args)
            .env("PAPERBOAT_STATE_DIR", self.state.path())
            .env("PAPERBOAT_CACHE_DIR", self.cache.path())
            .env_remove("PAPERBOAT_CACHE_SIZE")
            // Files of SMALLEST bytes or more are cached: small enough
            // for an unoptimised binary to read quickly.
            .env("PAPERBOAT_CACHE_MIN_SIZE", SMALLEST.to_string())
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        cmd
    }

    fn run(&self, args: &[&str]) -> Output {
        self.command(args).output().unwrap()
    }

    /// What the commands that read `file` print (all of it), and their exit
    /// codes.
    fn outputs(&self, file: &Path, extra: &[&str]) -> String {
        let f = file.to_str().unwrap();
        self.printed(
            &[
                vec!["list", f],
                vec!["check", f],
                vec!["search", "--scope", "title", "sparse", f],
                vec!["search", "attention", f],
            ],
            extra,
        )
    }

    /// What each command line (with `extra`) prints, all of it, and its
    /// exit code.
    fn printed(&self, runs: &[Vec<&str>], extra: &[&str]) -> String {
        let mut all = String::new();
        for args in runs {
            let name = format!("{args:?}");
            let mut args = args.clone();
            args.extend_from_slice(extra);
            let o = self.run(&args);
            all.push_str(&format!(
                "{name} {:?}\n{}\n{}\n",
                o.status.code(),
                String::from_utf8_lossy(&o.stdout),
                without_slow_hint(&String::from_utf8_lossy(&o.stderr))
            ));
        }
        all
    }

    /// Entries in the cache directory.
    fn entries(&self) -> Vec<PathBuf> {
        let mut all: Vec<PathBuf> = std::fs::read_dir(self.cache.path())
            .map(|r| r.map(|e| e.unwrap().path()).collect())
            .unwrap_or_default();
        all.retain(|p| p.extension().is_some_and(|e| e == "papers"));
        all.sort();
        all
    }

    fn file(&self, name: &str, text: &str) -> PathBuf {
        let p = self.files.path().join(name);
        std::fs::write(&p, text).unwrap();
        p
    }
}

/// `stderr` without the hint a search over every field gives when it took
/// two seconds or more: how long a run takes on a loaded machine is not
/// what these tests compare, and the hint says nothing else.
fn without_slow_hint(stderr: &str) -> String {
    stderr
        .lines()
        .filter(|l| !l.starts_with("paperboat: this search read every abstract of "))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// Asserts `got == want`, showing the first line that differs.
#[track_caller]
fn same(got: &str, want: &str, what: &str) {
    if got != want {
        let at = got.lines().zip(want.lines()).position(|(a, b)| a != b);
        let line = at.unwrap_or(got.lines().count().min(want.lines().count()));
        panic!(
            "{what}: differs at line {line}:\n got: {:?}\nwant: {:?}",
            got.lines().nth(line),
            want.lines().nth(line)
        );
    }
}

/// The smallest file the binary caches in these tests (1 MiB unless told).
const SMALLEST: usize = 64 << 10;

/// A file of `format` past [`SMALLEST`]: records with distinct ids, some
/// without an abstract, a repeat, and one broken record where the format
/// has them.
fn corpus(format: &str, salt: &str) -> String {
    let mut out = String::new();
    let mut i = 0;
    while out.len() < SMALLEST + 4096 {
        i += 1;
        let title = format!("Paper {i} {salt} on sparse attention for long contexts");
        let abs = if i % 9 == 0 {
            String::new()
        } else {
            format!("We study attention {i} in depth, with $\\alpha$ and *more* words to read.")
        };
        out.push_str(&match format {
            "jsonl" => match i % 500 {
                17 => "{\"title\": broken\n".to_string(),
                18 => "{\"id\": \"2401.00003\", \"title\": \"Repeat\"}\n".to_string(),
                _ => format!(
                    "{{\"id\": \"2401.{i:05}\", \"title\": \"{title}\", \"authors\": \"A. Lovelace and A. Turing\", \"abstract\": \"{abs}\", \"journal-ref\": \"ICML 2024\"}}\n"
                ),
            },
            "bib" => format!(
                "@article{{k{i},\n  title = {{{title}}},\n  author = {{Lovelace, Ada and Turing, Alan}},\n  year = {{{}}},\n  doi = {{10.1000/{i}}},\n  abstract = {{{abs}}}\n}}\n\n",
                2000 + i % 25
            ),
            "ris" => format!(
                "TY  - JOUR\nTI  - {title}\nAU  - Lovelace, Ada\nPY  - 2020\nDO  - 10.2000/{i}\nAB  - {abs}\nER  - \n\n"
            ),
            "csv" => {
                let head = if i == 1 { "title,abstract,doi,year\n" } else { "" };
                format!("{head}\"{title}\",\"{abs}\",10.3000/{i},2021\n")
            }
            _ => format!("{title}\n"),
        });
    }
    out
}

#[test]
fn a_warm_open_prints_what_a_cold_one_prints_in_every_format() {
    let env = Env::new();
    for (ext, format) in [
        ("jsonl", "jsonl"),
        ("bib", "bib"),
        ("ris", "ris"),
        ("csv", "csv"),
        ("txt", "lines"),
    ] {
        let file = env.file(&format!("big.{ext}"), &corpus(format, "x"));
        let cold = env.outputs(&file, &["--no-cache"]);
        assert!(env.entries().is_empty(), "--no-cache writes nothing");
        assert!(cold.contains("Paper 12 x"), "{cold}");
        same(&env.outputs(&file, &[]), &cold, &format!("{ext}: recorded"));
        assert_eq!(env.entries().len(), 1, "{ext}");
        same(&env.outputs(&file, &[]), &cold, &format!("{ext}: replayed"));
        std::fs::remove_file(env.entries().pop().unwrap()).unwrap();
    }
}

#[test]
fn a_changed_file_is_read_again() {
    let env = Env::new();
    let file = env.file("a.jsonl", &corpus("jsonl", "first"));
    let check = |what: &str| {
        let cold = env.outputs(&file, &["--no-cache"]);
        same(&env.outputs(&file, &[]), &cold, what);
        same(&env.outputs(&file, &[]), &cold, what);
    };
    check("first");
    // Rewritten in place: the same length, another time, other text in
    // the middle only.
    let mut text = std::fs::read_to_string(&file).unwrap();
    let mid = text.find("Paper 150 first").unwrap();
    text.replace_range(mid..mid + 15, "Paper 150 ZZZZZ");
    std::thread::sleep(std::time::Duration::from_millis(30));
    std::fs::write(&file, &text).unwrap();
    check("rewritten");
    assert!(env.outputs(&file, &[]).contains("ZZZZZ"));
    text.push_str("{\"id\": \"2402.00001\", \"title\": \"Appended sparse paper\"}\n");
    std::fs::write(&file, &text).unwrap();
    check("appended");
    std::fs::write(&file, &text[..text.len() - SMALLEST / 4]).unwrap();
    check("truncated");
    let other = env.file("b.jsonl", &corpus("jsonl", "second"));
    std::fs::rename(&other, &file).unwrap();
    check("replaced");
    assert_eq!(env.entries().len(), 1, "one entry a file");
}

#[test]
fn a_damaged_cache_is_rebuilt_without_a_word() {
    let env = Env::new();
    let file = env.file("a.bib", &corpus("bib", "x"));
    let cold = env.outputs(&file, &["--no-cache"]);
    same(&env.outputs(&file, &[]), &cold, "recorded");
    let entry = env.entries().pop().unwrap();
    let good = std::fs::read(&entry).unwrap();
    let mut damaged = Vec::new();
    for at in [
        0,
        9,
        13,
        20,
        44,
        64,
        good.len() / 3,
        good.len() / 2,
        good.len() - 30,
    ] {
        let mut b = good.clone();
        b[at] ^= 0x5a;
        damaged.push(b);
    }
    damaged.push(good[..good.len() / 2].to_vec());
    damaged.push(b"garbage".repeat(1000));
    let mut version = good.clone();
    version[8] = version[8].wrapping_add(1);
    damaged.push(version);
    for bytes in damaged {
        std::fs::write(&entry, &bytes).unwrap();
        same(&env.outputs(&file, &[]), &cold, "damaged");
        assert_eq!(std::fs::read(&entry).unwrap().len(), good.len(), "rebuilt");
    }
}

#[test]
fn stored_titles_are_used_alone_and_never_when_damaged() {
    let env = Env::new();
    let file = env.file("t.jsonl", &corpus("jsonl", "t"));
    let f = file.to_str().unwrap();
    let runs = [
        vec!["search", "--scope", "title", "sparse", f],
        vec!["search", "--scope", "title", "zzzz", f],
    ];
    let cold = env.printed(&runs, &["--no-cache"]);
    same(&env.printed(&runs, &[]), &cold, "recorded");
    let [titles] = entries_of(&env, "titles").try_into().unwrap();
    // Only the titles are stored (the papers are not what `search` reads
    // next time), and they alone answer.
    assert!(env.entries().is_empty(), "no papers recorded");
    same(&env.printed(&runs, &[]), &cold, "titles alone");
    // Papers recorded by another command stay, and are not what answers.
    env.run(&["check", f]);
    let [papers] = env.entries().try_into().unwrap();
    std::fs::write(&papers, b"not an entry").unwrap();
    same(&env.printed(&runs, &[]), &cold, "titles, papers damaged");
    assert_eq!(std::fs::read(&papers).unwrap(), b"not an entry", "not read");
    let good = std::fs::read(&titles).unwrap();
    let mut damaged: Vec<Vec<u8>> = [9, 20, 60, good.len() / 2, good.len() - 30]
        .iter()
        .map(|&at| {
            let mut b = good.clone();
            b[at] ^= 0x5a;
            b
        })
        .collect();
    damaged.push(good[..good.len() / 2].to_vec());
    damaged.push(b"garbage".repeat(1000));
    for bytes in damaged {
        std::fs::write(&titles, &bytes).unwrap();
        same(&env.printed(&runs, &[]), &cold, "damaged titles");
        assert_eq!(std::fs::read(&titles).unwrap(), good, "rebuilt");
    }
}

#[test]
fn a_search_over_every_field_prints_all_then_stores_the_titles() {
    // The titles are stored once the results are out: all of them out,
    // the entry there when the process has ended, and what answers next.
    let env = Env::new();
    let file = env.file("e.jsonl", &corpus("jsonl", "e"));
    let f = file.to_str().unwrap();
    let every = [vec!["search", "attention", f]];
    let title = [vec!["search", "--scope", "title", "sparse", f]];
    let cold = env.printed(&every, &["--no-cache"]);
    assert!(cold.lines().count() > 300, "{cold}");
    assert!(entries_of(&env, "titles").is_empty());
    same(&env.printed(&every, &[]), &cold, "stored");
    let [titles] = entries_of(&env, "titles").try_into().unwrap();
    let stored = std::fs::read(&titles).unwrap();
    same(&env.printed(&every, &[]), &cold, "with the titles stored");
    same(
        &env.printed(&title, &[]),
        &env.printed(&title, &["--no-cache"]),
        "titles alone",
    );
    assert_eq!(std::fs::read(&titles).unwrap(), stored, "not stored again");
}

#[test]
fn a_search_over_a_title_list_stores_its_whole_index_for_the_next() {
    // A title list's whole word index is small: the first search over
    // every field stores it, and the next read it, printing the same for
    // any query (words it did not ask for, and a typo).
    let env = Env::new();
    let file = env.file("t.txt", &corpus("lines", "t"));
    let f = file.to_str().unwrap();
    let first = [vec!["search", "attention", f]];
    let cold = env.printed(&first, &["--no-cache"]);
    assert!(cold.lines().count() > 300, "{cold}");
    assert!(entries_of(&env, "index").is_empty());
    same(&env.printed(&first, &[]), &cold, "first");
    let [index] = entries_of(&env, "index").try_into().unwrap();
    for q in ["sparse contexts", "long", "atention"] {
        let other = [vec!["search", q, f]];
        same(
            &env.printed(&other, &[]),
            &env.printed(&other, &["--no-cache"]),
            q,
        );
    }
    assert!(index.exists());
}

#[test]
fn processes_at_once_agree_while_the_entry_is_written_and_replaced() {
    let env = Env::new();
    let file = env.file("a.jsonl", &corpus("jsonl", "x"));
    let f = file.to_str().unwrap();
    let want = env.run(&["list", "--no-cache", f]);
    assert_eq!(want.status.code(), Some(0));
    for round in 0..3 {
        // An empty cache: every process records, one after another renames
        // its entry into place while the others read it.
        let children: Vec<_> = (0..5)
            .map(|k| {
                let args: &[&str] = if k == 4 && round > 0 {
                    &["cache", "clear"]
                } else {
                    &["list", f]
                };
                (k, env.command(args).spawn().unwrap())
            })
            .collect();
        for (k, child) in children {
            let o = child.wait_with_output().unwrap();
            assert_eq!(
                o.status.code(),
                Some(0),
                "{}",
                String::from_utf8_lossy(&o.stderr)
            );
            if k < 4 || round == 0 {
                assert_eq!(o.stdout, want.stdout, "round {round}, process {k}");
                assert_eq!(o.stderr, want.stderr);
            }
        }
    }
}

#[test]
fn the_least_recently_used_entries_go_first() {
    let env = Env::new();
    let files: Vec<PathBuf> = (0..3)
        .map(|k| env.file(&format!("{k}.txt"), &corpus("lines", &k.to_string())))
        .collect();
    let limit = limit_for_two(&env);
    let open = |k: usize| {
        let o = env
            .command(&["list", files[k].to_str().unwrap()])
            .env("PAPERBOAT_CACHE_SIZE", &limit)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0));
        std::thread::sleep(std::time::Duration::from_millis(30));
    };
    let mut names = Vec::new();
    for k in 0..2 {
        open(k);
        let new: Vec<PathBuf> = env
            .entries()
            .into_iter()
            .filter(|e| !names.contains(e))
            .collect();
        assert_eq!(new.len(), 1);
        names.push(new[0].clone());
    }
    // 0 is used again, then 2 comes: 1 goes.
    open(0);
    open(2);
    let left = env.entries();
    assert_eq!(left.len(), 2, "{left:?}");
    assert!(
        left.contains(&names[0]) && !left.contains(&names[1]),
        "{left:?}"
    );
}

/// A limit that holds two entries of [`corpus`]`("lines")` but not three.
fn limit_for_two(env: &Env) -> String {
    let probe = tempfile::tempdir().unwrap();
    let file = env.files.path().join("probe.txt");
    std::fs::write(&file, corpus("lines", "p")).unwrap();
    let o = env
        .command(&["list", file.to_str().unwrap()])
        .env("PAPERBOAT_CACHE_DIR", probe.path())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    std::fs::remove_file(&file).unwrap();
    let size: u64 = std::fs::read_dir(probe.path())
        .unwrap()
        .map(|e| e.unwrap().metadata().unwrap().len())
        .sum();
    (size * 5 / 2).to_string()
}

#[test]
fn cache_path_size_and_clear() {
    let env = Env::new();
    let text = |o: &Output| String::from_utf8_lossy(&o.stdout).into_owned();
    let o = env.run(&["cache", "path"]);
    assert_eq!(text(&o).trim(), env.cache.path().to_str().unwrap());
    let o = env.run(&["cache", "size"]);
    assert_eq!(
        text(&o),
        "0 bytes in 0 entries (0 files' papers, 0 word indexes, 0 title lists); limit 4.0 GiB\n"
    );
    let file = env.file("a.jsonl", &corpus("jsonl", "x"));
    let mine = env.cache.path().join("notes.txt");
    std::fs::write(&mine, "not paperboat's").unwrap();
    env.run(&["check", file.to_str().unwrap()]);
    let o = env
        .command(&["cache", "size"])
        .env("PAPERBOAT_CACHE_SIZE", "2G")
        .output()
        .unwrap();
    let size = text(&o);
    assert!(
        size.contains(
            " in 1 entry (1 file's papers, 0 word indexes, 0 title lists); limit 2.0 GiB"
        ),
        "{size}"
    );
    let o = env.run(&["cache", "clear"]);
    assert!(text(&o).starts_with("removed "), "{}", text(&o));
    assert!(env.entries().is_empty());
    assert!(mine.exists(), "only paperboat's entries go");
}

#[test]
fn the_cache_size_comes_from_the_config_file() {
    let env = Env::new();
    std::fs::write(
        env.state.path().join("config.toml"),
        "[cache]\nmax_size = \"300M\"\n",
    )
    .unwrap();
    let o = env.run(&["cache", "size"]);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(out.ends_with("limit 300.0 MiB\n"), "{out}");
}

#[test]
fn xdg_cache_home_is_honoured() {
    let env = Env::new();
    let xdg = tempfile::tempdir().unwrap();
    let file = env.file("a.jsonl", &corpus("jsonl", "x"));
    let cmd = |args: &[&str]| {
        env.command(args)
            .env_remove("PAPERBOAT_CACHE_DIR")
            .env("XDG_CACHE_HOME", xdg.path())
            .output()
            .unwrap()
    };
    let o = cmd(&["cache", "path"]);
    let dir = xdg.path().join("paperboat");
    assert_eq!(
        String::from_utf8_lossy(&o.stdout).trim(),
        dir.to_str().unwrap()
    );
    assert_eq!(
        cmd(&["check", file.to_str().unwrap()]).status.code(),
        Some(0)
    );
    let written = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(written, 1);
    cmd(&["cache", "clear"]);
}

/// Queries that read the word index: every field, field atoms, `|`
/// groups, negation.
const INDEXED_QUERIES: [&str; 7] = [
    "attention",
    "sparse lon",
    "author:lovelace depth",
    "year:2020.. attention",
    "attention | nothingsuch",
    "!contexts",
    "title:paper 12",
];

/// What `search` prints for queries that read the word index (every
/// field, field atoms, `|` groups; `<id>\t<title>` lines and JSON), with
/// the exit codes.
fn searches(env: &Env, file: &Path, extra: &[&str]) -> String {
    let f = file.to_str().unwrap();
    let runs: Vec<Vec<&str>> = INDEXED_QUERIES
        .iter()
        .flat_map(|&q| [vec!["search", q, f], vec!["search", q, f, "--json"]])
        .collect();
    env.printed(&runs, extra)
}

/// The stored word-index entries.
fn indexes(env: &Env) -> Vec<PathBuf> {
    entries_of(env, "index")
}

/// The stored entries of a kind (`papers`, `index`, `titles`).
fn entries_of(env: &Env, ext: &str) -> Vec<PathBuf> {
    let mut all: Vec<PathBuf> = std::fs::read_dir(env.cache.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    all.sort();
    all
}

fn build(env: &Env, file: &Path) -> String {
    let o = env.run(&["cache", "build", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn a_stored_word_index_ranks_as_an_index_built_for_the_query() {
    let env = Env::new();
    let f = env.file("w.jsonl", &corpus("jsonl", "w"));
    let cold = searches(&env, &f, &["--no-cache"]);
    assert!(cold.contains("Lovelace"), "{cold}");
    assert!(indexes(&env).is_empty());
    assert!(build(&env, &f).contains("word index stored ("));
    assert_eq!(indexes(&env).len(), 1);
    assert_eq!(
        entries_of(&env, "titles").len(),
        1,
        "build stores the titles"
    );
    same(&searches(&env, &f, &[]), &cold, "with the stored index");
    assert!(build(&env, &f).contains("word index stored already"));
    // `--no-cache` neither reads nor writes it.
    same(&searches(&env, &f, &["--no-cache"]), &cold, "--no-cache");
}

#[test]
fn a_stored_index_of_a_changed_file_or_a_damaged_one_is_never_used() {
    let env = Env::new();
    let f = env.file("c.jsonl", &corpus("jsonl", "c"));
    build(&env, &f);
    // Papers appended (a daily update): the index no longer covers them.
    let mut grown = std::fs::read_to_string(&f).unwrap();
    grown.push_str(
        "{\"id\": \"2499.00001\", \"title\": \"A late paper\", \"authors\": \"A. Lovelace\", \"abstract\": \"Attention in depth, late.\"}\n",
    );
    std::fs::write(&f, &grown).unwrap();
    let cold = searches(&env, &f, &["--no-cache"]);
    assert!(cold.contains("A late paper"));
    same(&searches(&env, &f, &[]), &cold, "after an append");
    // Rebuilt, then damaged in its middle, then cut short.
    build(&env, &f);
    let entry = &indexes(&env)[0];
    let mut bytes = std::fs::read(entry).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x5a;
    std::fs::write(entry, &bytes).unwrap();
    same(&searches(&env, &f, &[]), &cold, "a damaged index");
    std::fs::write(entry, &bytes[..mid]).unwrap();
    same(&searches(&env, &f, &[]), &cold, "an index cut short");
    std::fs::write(entry, b"not an index at all").unwrap();
    same(
        &searches(&env, &f, &[]),
        &cold,
        "garbage in place of the index",
    );
}

#[cfg(unix)]
#[test]
fn what_is_not_a_file_in_the_cache_is_passed_over() {
    // A FIFO where each entry goes (its opening would wait for a writer
    // forever) and a directory: each command goes on as without a cache.
    let env = Env::new();
    let f = env.file("a.jsonl", &corpus("jsonl", "x"));
    let cold = env.outputs(&f, &["--no-cache"]);
    same(&env.outputs(&f, &[]), &cold, "recorded");
    build(&env, &f);
    let entries: Vec<PathBuf> = ["papers", "titles", "index"]
        .iter()
        .flat_map(|ext| entries_of(&env, ext))
        .collect();
    assert_eq!(entries.len(), 3, "{entries:?}");
    for (k, entry) in entries.iter().enumerate() {
        std::fs::remove_file(entry).unwrap();
        if k == 0 {
            std::fs::create_dir(entry).unwrap();
        } else {
            let made = Command::new("mkfifo").arg(entry).status().unwrap();
            assert!(made.success());
        }
    }
    let f_str = f.to_str().unwrap();
    for args in [
        vec!["search", "--scope", "title", "sparse", f_str],
        vec!["search", "attention", f_str],
        vec!["list", f_str],
        vec!["cache", "size"],
    ] {
        let mut child = env
            .command(&args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while child.try_wait().unwrap().is_none() {
            if std::time::Instant::now() > deadline {
                let _ = child.kill();
                panic!("{args:?} hung on what is not a file in the cache");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        assert!(child.wait().unwrap().success(), "{args:?}");
    }
    same(&env.outputs(&f, &[]), &cold, "passed over");
}

/// The ids `search` prints for `query` over `file`, in order: from its
/// `<id>\t<title>` lines, or from `--json` (which reads whole papers).
fn ranked_ids(env: &Env, query: &str, file: &Path, json: bool, extra: &[&str]) -> Vec<String> {
    let mut args = vec!["search", query, file.to_str().unwrap()];
    if json {
        args.push("--json");
    }
    args.extend_from_slice(extra);
    let o = env.run(&args);
    assert!(o.status.code().is_some_and(|c| c < 2), "{o:?}");
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| match json {
            true => serde_json::from_str::<serde_json::Value>(l).unwrap()["short_id"]
                .as_str()
                .unwrap()
                .to_string(),
            false => l.split('\t').next().unwrap().to_string(),
        })
        .collect()
}

#[test]
fn a_search_that_indexes_as_it_reads_ranks_as_one_over_whole_papers() {
    let env = Env::new();
    let jsonl = env.file("s.jsonl", &corpus("jsonl", "s"));
    let bib = env.file("s.bib", &corpus("bib", "s"));
    // Few runs: each reads a megabyte in an unoptimised build.
    let jsonl_queries = ["sparse lon", "author:lovelace depth", "!contexts"];
    let bib_queries = ["year:2020.. attention", "attention | nothingsuch"];
    for (f, extras, queries) in [
        (&jsonl, &[&["--no-cache"][..], &[]][..], &jsonl_queries[..]),
        (&bib, &[&["--no-cache"][..]][..], &bib_queries[..]),
    ] {
        for &query in queries {
            // Lines: titles kept, the query's index built as the papers
            // stream by (no index stored); JSON: whole papers held.
            for extra in extras {
                let lines = ranked_ids(&env, query, f, false, extra);
                assert_eq!(
                    lines,
                    ranked_ids(&env, query, f, true, extra),
                    "{query} {extra:?}"
                );
                // Every title has "contexts"; the JSON Lines have no years.
                let none = query == "!contexts" || (query.contains("year") && f == &jsonl);
                assert_eq!(lines.is_empty(), none, "{query} {f:?}");
            }
        }
    }
    assert!(
        indexes(&env).is_empty(),
        "an index for one query is not stored"
    );
}

#[test]
fn searches_agree_while_the_index_is_built_and_replaced() {
    let env = Env::new();
    let f = env.file("p.jsonl", &corpus("jsonl", "p"));
    let cold = searches(&env, &f, &["--no-cache"]);
    let path = f.to_str().unwrap();
    let builders: Vec<_> = (0..3)
        .map(|_| env.command(&["cache", "build", path]).spawn().unwrap())
        .collect();
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| same(&searches(&env, &f, &[]), &cold, "while building"));
        }
    });
    for b in builders {
        assert!(b.wait_with_output().unwrap().status.success());
    }
    same(&searches(&env, &f, &[]), &cold, "once built");
    assert_eq!(indexes(&env).len(), 1);
}

#[test]
fn standard_input_and_small_files_are_not_cached() {
    let env = Env::new();
    let big = corpus("jsonl", "x");
    let mut child = env
        .command(&["check", "-"])
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), big.as_bytes()).unwrap();
    assert_eq!(child.wait_with_output().unwrap().status.code(), Some(0));
    let small = env.file("small.jsonl", &big[..SMALLEST - 1000]);
    let o = env.run(&["check", small.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    assert!(env.entries().is_empty());
    // Without PAPERBOAT_CACHE_MIN_SIZE, a file under 1 MiB is not cached.
    let o = env
        .command(&["check", env.file("big.jsonl", &big).to_str().unwrap()])
        .env_remove("PAPERBOAT_CACHE_MIN_SIZE")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert!(env.entries().is_empty());
}
