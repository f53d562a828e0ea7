//! Triage from the command line, through the real binary: `tag`, `note`
//! (with an editor), `list --tag/--new/--since/--sort/--json`, `search
//! --sort/--saved` and `export --tag/--sort/--format csv`.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use common::bin;

/// Three papers with DOIs (stable ids), years and authors.
const BIB: &str = r"@article{a, title={Alpha paper on graphs}, author={Zed, Ann and Bee, Bob}, year={2019}, doi={10.1000/alpha}, abstract={Graphs are studied here.}}
@article{b, title={Beta paper on graphs and trees}, author={Adams, Carl}, year={2023}, doi={10.1000/beta}, abstract={Trees and graphs.}}
@article{c, title={Gamma paper on sets}, author={Moss, Dana}, year={2021}, doi={10.1000/gamma}, abstract={Sets, not graphs.}}
";

const A: &str = "doi:10.1000/alpha";
const B: &str = "doi:10.1000/beta";
const C: &str = "doi:10.1000/gamma";

/// A state directory and the three papers' file.
struct Setup {
    dir: tempfile::TempDir,
    bib: PathBuf,
}

impl Setup {
    fn new() -> Setup {
        let dir = tempfile::tempdir().unwrap();
        let bib = dir.path().join("papers.bib");
        std::fs::write(&bib, BIB).unwrap();
        std::fs::create_dir(dir.path().join("state")).unwrap();
        Setup { dir, bib }
    }

    fn state(&self) -> PathBuf {
        self.dir.path().join("state")
    }

    /// Runs `paperboat ARGS` (the file appended when `file`), with `env`.
    fn run_env(&self, args: &[&str], file: bool, env: &[(&str, &str)]) -> Output {
        let mut cmd = Command::new(bin());
        cmd.args(args)
            .env("PAPERBOAT_STATE_DIR", self.state())
            .env("PAPERBOAT_CACHE_DIR", self.state().join("cache"))
            .env("NO_COLOR", "1")
            .env_remove("VISUAL")
            .env_remove("EDITOR")
            .env("TZ", "UTC")
            .stdin(Stdio::null());
        if file {
            cmd.arg(&self.bib);
        }
        for (k, v) in env {
            cmd.env(k, v);
        }
        cmd.output().unwrap()
    }

    fn run(&self, args: &[&str]) -> Output {
        self.run_env(args, true, &[])
    }

    /// `run`, asserting exit 0; the output.
    fn ok(&self, args: &[&str]) -> String {
        let o = self.run(args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", err(&o));
        out(&o)
    }

    /// The ids `list ARGS` prints, in order.
    fn ids(&self, args: &[&str]) -> Vec<String> {
        let mut all = vec!["list"];
        all.extend_from_slice(args);
        self.ok(&all)
            .lines()
            .map(|l| l.split('\t').next().unwrap().to_string())
            .collect()
    }

    /// Writes first_seen.json as the reader leaves it: ids by time.
    fn seen(&self, groups: &[(&str, &[&str])]) {
        let map: serde_json::Map<String, serde_json::Value> = groups
            .iter()
            .map(|(at, ids)| (at.to_string(), serde_json::json!(ids)))
            .collect();
        let file = serde_json::json!({ "version": 2, "first_seen": map });
        std::fs::write(self.state().join("first_seen.json"), file.to_string()).unwrap();
    }

    /// An executable shell script in the temporary directory.
    fn script(&self, name: &str, body: &str) -> String {
        let path = self.dir.path().join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        path.display().to_string()
    }
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn json_lines(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn tag_adds_and_removes_by_prefix_and_list_selects_by_every_tag() {
    let s = Setup::new();
    let printed = s.ok(&[
        "tag",
        "--add",
        "LoRA",
        "--add",
        "to read",
        "doi:10.1000/al",
        B,
    ]);
    assert_eq!(
        printed,
        format!(
            "{A}\tLoRA, to read\tAlpha paper on graphs\n{B}\tLoRA, to read\tBeta paper on graphs and trees\n"
        )
    );
    // Removal compares without case; one call can add and remove.
    let printed = s.ok(&["tag", "--remove", "lora", "--add", "graphs", A]);
    assert_eq!(
        printed,
        format!("{A}\tgraphs, to read\tAlpha paper on graphs\n")
    );
    assert_eq!(s.ids(&["--tag", "TO READ"]), [A, B]);
    assert_eq!(s.ids(&["--tag", "to read", "--tag", "graphs"]), [A]);
    assert_eq!(s.ids(&["--tag", "lora"]), [B]);
    assert!(s.ids(&["--tag", "lora", "--bookmarked"]).is_empty());
    // Without --add or --remove, the tags are printed and nothing changes.
    assert_eq!(s.ok(&["tag", C]), format!("{C}\t\tGamma paper on sets\n"));
}

#[test]
fn tag_refuses_bad_ids_and_bad_tags_whole() {
    let s = Setup::new();
    let o = s.run(&["tag", "--add", "x", A, "doi:10.1000/nope"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("no paper has id doi:10.1000/nope"),
        "{}",
        err(&o)
    );
    assert!(err(&o).contains("nothing was tagged"), "{}", err(&o));
    let o = s.run(&["tag", "--add", "x", "doi:10.1000/"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("ambiguous"), "{}", err(&o));
    let o = s.run(&["tag", "--add", "fine", "--add", "  ", A]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("nothing was tagged"), "{}", err(&o));
    assert!(s.ids(&["--tag", "fine"]).is_empty(), "all or nothing");
    assert!(s.ids(&["--tag", "x"]).is_empty());
}

#[test]
fn note_prints_sets_and_removes() {
    let s = Setup::new();
    let o = s.run(&["note", B]);
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("has no note"), "{}", err(&o));
    s.ok(&[
        "note",
        B,
        "--set",
        "Read §4 {twice}\n- compare with *adapters*",
    ]);
    assert_eq!(
        s.ok(&["note", "doi:10.1000/b"]),
        "Read §4 {twice}\n- compare with *adapters*\n"
    );
    let listed = json_lines(&s.ok(&["list", "--json"]));
    assert_eq!(
        listed[1]["note"],
        "Read §4 {twice}\n- compare with *adapters*"
    );
    assert_eq!(listed[0]["note"], serde_json::Value::Null);
    s.ok(&["note", B, "--set", ""]);
    assert_eq!(s.run(&["note", B]).status.code(), Some(1));
    let o = s.run(&["note", "doi:10.1000/nope"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("doi:10.1000/nope"), "{}", err(&o));
}

#[test]
fn show_prints_the_tags_and_the_note_under_the_abstract() {
    let s = Setup::new();
    s.ok(&["tag", "--add", "to read", "--add", "LoRA", A]);
    s.ok(&["note", A, "--set", "Compare with the beta paper."]);
    let shown = s.ok(&["show", A]);
    let abs = shown
        .find("Graphs are studied here.")
        .expect("the abstract");
    let tags = shown.find("to read").expect("the tags");
    let note = shown
        .find("Compare with the beta paper.")
        .expect("the note");
    assert!(tags < abs && abs < note, "{shown}");
    assert!(shown.contains("LoRA"), "{shown}");
    let plain = s.ok(&["show", B]);
    assert!(
        !plain.contains("to read") && !plain.contains("Compare"),
        "{plain}"
    );
}

#[test]
fn note_edit_saves_on_success_only() {
    let s = Setup::new();
    s.ok(&["note", A, "--set", "first words"]);
    // The editor gets the note in a file, and its changes are saved.
    let append = s.script(
        "append.sh",
        "grep -q 'first words' \"$1\" && printf 'more words\\n' >> \"$1\"",
    );
    let edit = |editor: &str, visual: Option<&str>| {
        let mut env = vec![("EDITOR", editor)];
        if let Some(v) = visual {
            env.push(("VISUAL", v));
        }
        let mut cmd = vec!["note", "--edit", A];
        let bib = s.bib.display().to_string();
        cmd.push(&bib);
        let o = s.run_env(&cmd, false, &env);
        (o.status.code(), err(&o))
    };
    let (code, _) = edit(&append, None);
    assert_eq!(code, Some(0));
    assert_eq!(s.ok(&["note", A]), "first words\nmore words\n");
    // A failing editor leaves the note as it was, and says so.
    let fail = s.script("fail.sh", "printf 'lost\\n' > \"$1\"; exit 3");
    let (code, stderr) = edit(&fail, None);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("unchanged"), "{stderr}");
    assert_eq!(s.ok(&["note", A]), "first words\nmore words\n");
    // An editor that changes nothing changes nothing.
    let (code, stderr) = edit("true", None);
    assert_eq!(code, Some(0));
    assert!(stderr.contains("unchanged"), "{stderr}");
    assert_eq!(s.ok(&["note", A]), "first words\nmore words\n");
    // $VISUAL comes before $EDITOR; emptying the file removes the note.
    let empty = s.script("empty.sh", ": > \"$1\"");
    let (code, _) = edit(&fail, Some(&empty));
    assert_eq!(code, Some(0));
    assert_eq!(s.run(&["note", A]).status.code(), Some(1));
    // The editor is read by the shell, as git reads it: arguments, and a
    // name with spaces quoted. The file it gets has a name no one can
    // guess beforehand, readable by the user alone.
    let log = s.dir.path().join("args.txt");
    let spaced = s.script(
        "my editor.sh",
        &format!(
            "printf '%s|' \"$@\" > '{0}'; echo >> '{0}'; ls -l \"$2\" | cut -c1-10 >> '{0}'; printf 'from spaced\\n' > \"$2\"",
            log.display()
        ),
    );
    let quoted = format!("'{spaced}' --wait");
    let (code, stderr) = edit(&quoted, None);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(s.ok(&["note", A]), "from spaced\n");
    let logged = std::fs::read_to_string(&log).unwrap();
    let (args, mode) = logged.split_once('\n').unwrap();
    let mut args = args.split('|');
    assert_eq!(args.next(), Some("--wait"));
    let file = args.next().unwrap();
    let name = Path::new(file).file_name().unwrap().to_str().unwrap();
    assert!(
        name.starts_with("paperboat-note-") && name.ends_with(".md"),
        "{name}"
    );
    assert!(!name.contains(&std::process::id().to_string()));
    assert!(!Path::new(file).exists(), "removed afterwards");
    assert_eq!(mode.trim(), "-rw-------");
}

#[test]
fn a_note_that_cannot_be_saved_is_kept_in_a_file() {
    let s = Setup::new();
    s.ok(&["note", A, "--set", "kept words"]);
    let mut cmd = vec!["note", "--edit", A];
    let bib = s.bib.display().to_string();
    cmd.push(&bib);
    for (script, body, why) in [
        (
            "latin1.sh",
            "printf 'caf\\351\\n' > \"$1\"",
            "it is not UTF-8",
        ),
        (
            "long.sh",
            "head -c 70000 /dev/zero | tr '\\0' x > \"$1\"",
            "at most 65536 bytes",
        ),
    ] {
        let editor = s.script(script, body);
        let o = s.run_env(&cmd, false, &[("EDITOR", editor.as_str())]);
        assert_eq!(o.status.code(), Some(2), "{script}");
        let stderr = err(&o);
        assert!(stderr.contains(why), "{stderr}");
        let path = stderr
            .split("it is kept in ")
            .nth(1)
            .unwrap_or_else(|| panic!("{stderr}"))
            .trim();
        let kept = std::fs::read(path).unwrap();
        assert!(kept.len() >= 4, "{script}");
        assert!(path.starts_with(s.state().to_str().unwrap()), "{path}");
        // The note itself is as it was.
        assert_eq!(s.ok(&["note", A]), "kept words\n");
    }
}

#[test]
fn list_new_since_and_sort_by_first_seen() {
    let s = Setup::new();
    // Never opened in the reader: nothing is new, and it is said.
    let o = s.run(&["list", "--new"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(out(&o), "");
    assert!(err(&o).contains("not opened these files"), "{}", err(&o));
    s.seen(&[
        ("2026-12-01T10:00:00.000Z", &[A, C]),
        ("2026-12-02T20:00:00.000Z", &[B]),
        // A later session of other files: not these files' latest.
        ("2026-12-05T08:00:00.000Z", &["doi:10.1000/elsewhere"]),
    ]);
    assert_eq!(s.ids(&["--new"]), [B]);
    assert_eq!(s.ids(&["--since", "2026-12-01"]), [A, B, C]);
    assert_eq!(s.ids(&["--since", "2026-12-02"]), [B]);
    assert!(s.ids(&["--since", "2026-12-03"]).is_empty());
    assert_eq!(s.ids(&["--sort", "seen"]), [B, A, C]);
    // The day is local: 20:00 UTC on the 2nd is the 3rd ten hours east.
    let east = |day: &str| {
        let o = s.run_env(&["list", "--since", day], true, &[("TZ", "XYZ-10")]);
        assert_eq!(o.status.code(), Some(0), "{}", err(&o));
        out(&o).lines().count()
    };
    assert_eq!(east("2026-12-03"), 1);
    assert_eq!(east("2026-12-04"), 0);
    for bad in ["2026-02-30", "12/03/2026", "2026-12"] {
        let o = s.run(&["list", "--since", bad]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(err(&o).contains("YYYY-MM-DD"), "{}", err(&o));
    }
    assert_eq!(
        s.run(&["list", "--new", "--since", "2026-12-01"])
            .status
            .code(),
        Some(2)
    );
    let listed = json_lines(&s.ok(&["list", "--json", "--new"]));
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0]["first_seen"], "2026-12-02T20:00:00.000Z");
    assert_eq!(listed[0]["tags"], serde_json::json!([]));
}

#[test]
fn list_and_search_sort_by_year_and_author() {
    let s = Setup::new();
    assert_eq!(s.ids(&["--sort", "year"]), [B, C, A]);
    assert_eq!(s.ids(&["--sort", "author"]), [B, C, A]);
    assert_eq!(s.ids(&["--sort", "file"]), [A, B, C]);
    let o = s.run(&["list", "--sort", "size"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("file, score, year, author, seen"),
        "{}",
        err(&o)
    );
    let ids = |args: &[&str]| -> Vec<String> {
        let mut all = vec!["search"];
        all.extend_from_slice(args);
        s.ok(&all)
            .lines()
            .map(|l| l.split('\t').next().unwrap().to_string())
            .collect()
    };
    assert_eq!(ids(&["--sort", "year", "graphs"]), [B, C, A]);
    assert_eq!(
        ids(&["--sort", "file", "--scope", "title", "graphs"]),
        [A, B]
    );
    assert_eq!(ids(&["--sort", "year", "--limit", "1", "graphs"]), [B]);
}

#[test]
fn search_saved_runs_the_query_and_scope_from_the_state() {
    let s = Setup::new();
    let state = serde_json::json!({
        "version": 2,
        "papers": { A: { "bookmark": { "on": true, "at": "2026-12-01T10:00:00.000Z" } } },
        "searches": {
            "graphs": { "query": "graphs", "at": "2026-12-01T10:00:00.000Z" },
            "kept graphs": { "query": "graphs", "scope": "bookmarked", "at": "2026-12-01T10:00:00.000Z" },
            "gone": { "at": "2026-12-01T10:00:00.000Z", "removed": true }
        }
    });
    std::fs::write(s.state().join("state.json"), state.to_string()).unwrap();
    let ids = |out: String| -> Vec<String> {
        out.lines()
            .map(|l| l.split('\t').next().unwrap().to_string())
            .collect()
    };
    assert_eq!(ids(s.ok(&["search", "--saved", "graphs"])).len(), 3);
    assert_eq!(ids(s.ok(&["search", "--saved", "KEPT GRAPHS"])), [A]);
    let o = s.run(&["search", "--saved", "gone"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("no search is saved as gone (saved: graphs, kept graphs)"),
        "{}",
        err(&o)
    );
    // Without --saved, the query is required.
    assert_eq!(s.run_env(&["search"], false, &[]).status.code(), Some(2));
}

#[test]
fn export_selects_by_tag_sorts_and_writes_csv() {
    let s = Setup::new();
    s.ok(&["mark", "--bookmark", A, B]);
    s.ok(&["tag", "--add", "group", A, C]);
    s.ok(&["note", C, "--set", "why, \"this\"\nsecond line"]);
    // Every paper with the tag, bookmarked (A) or not (C).
    let md = s.ok(&["export", "--format", "markdown", "--tag", "group"]);
    assert!(md.contains("2 papers,"), "{md}");
    assert!(md.contains("## group\n\n### Alpha paper on graphs"), "{md}");
    assert!(md.contains("### Gamma paper on sets"), "{md}");
    // Every paper with the tag, newest year first.
    let csv_text = s.ok(&[
        "export", "--format", "csv", "--all", "--tag", "group", "--sort", "year",
    ]);
    let mut reader = csv::Reader::from_reader(csv_text.as_bytes());
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(
        header,
        [
            "id",
            "title",
            "abstract",
            "authors",
            "year",
            "venue",
            "doi",
            "arxiv",
            "url",
            "links",
            "keywords",
            "categories",
            "tags",
            "note",
            "bookmarked",
            "read"
        ]
    );
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 2);
    assert_eq!(&rows[0][0], C);
    assert_eq!(&rows[0][2], "Sets, not graphs.");
    assert_eq!(&rows[0][13], "why, \"this\"\nsecond line");
    assert_eq!(&rows[0][14], "false");
    assert_eq!(&rows[1][0], A);
    assert_eq!(&rows[1][3], "Ann Zed; Bob Bee");
    assert_eq!(&rows[1][6], "10.1000/alpha");
    assert_eq!(&rows[1][12], "group");
    assert_eq!(&rows[1][14], "true");
    let o = s.run(&["export", "--format", "bibtex", "--tag", "nothing"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(err(&o).contains("no papers tagged nothing"), "{}", err(&o));
    let json: serde_json::Value =
        serde_json::from_str(&s.ok(&["export", "--format", "json", "--all"])).unwrap();
    assert_eq!(json[0]["tags"], serde_json::json!(["group"]));
    assert_eq!(json[2]["note"], "why, \"this\"\nsecond line");
}

#[test]
fn paths_given_are_files_and_the_rest_ids() {
    let s = Setup::new();
    let o = s.run_env(&["note", A, "missing.bib"], false, &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("missing.bib is not a file"), "{}", err(&o));
    assert!(Path::new(&s.bib).exists());
}

#[test]
fn export_takes_ids_in_the_order_given() {
    let s = Setup::new();
    s.ok(&["tag", "--add", "group", A, C]);
    let ids = |args: &[&str]| -> Vec<String> {
        let mut all = vec!["export", "--format", "csv"];
        all.extend_from_slice(args);
        let text = s.ok(&all);
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        reader
            .records()
            .map(|r| r.unwrap()[0].to_string())
            .collect()
    };
    // Ids given: those papers, bookmarked or not, as given.
    assert_eq!(ids(&[C, "doi:10.1000/b", A]), [C, B, A]);
    assert_eq!(ids(&[C, B, A, "--tag", "group"]), [C, A]);
    assert_eq!(ids(&[C, B, A, "--sort", "file"]), [A, B, C]);
    // A mistyped file name is a missing file, not an unknown id.
    let o = s.run(&["export", "--format", "csv", A, "papers.bi"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("no such file: papers.bi"), "{}", err(&o));
    assert_eq!(out(&o), "");
    let o = s.run(&["export", "--format", "csv", A, "nosuchid"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("no paper has id nosuchid"), "{}", err(&o));
    assert!(err(&o).contains("nothing was exported"), "{}", err(&o));
}

#[test]
fn ids_are_taken_as_papers_are_cited() {
    let s = Setup::new();
    // A DOI bare, as a resolver link, in capitals; an id prefix.
    for given in [
        "10.1000/alpha",
        "https://doi.org/10.1000/alpha",
        "http://dx.doi.org/10.1000/ALPHA",
        "DOI:10.1000/alpha",
    ] {
        let shown = s.ok(&["show", given]);
        assert!(shown.contains("Alpha paper on graphs"), "{given}: {shown}");
    }
    s.ok(&["tag", "--add", "cited", "10.1000/beta"]);
    assert_eq!(s.ids(&["--tag", "cited"]), [B]);
    // A file name given where the id goes.
    let o = s.run_env(&["show", s.bib.to_str().unwrap()], false, &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("is a file: give a paper id first"),
        "{}",
        err(&o)
    );
    let o = s.run_env(&["show", "papers.json"], false, &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("no such file: papers.json"), "{}", err(&o));
    let o = s.run(&["mark", "--bookmark", "10.1000/nothing"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("no paper has id 10.1000/nothing"),
        "{}",
        err(&o)
    );
}

#[test]
fn an_export_opens_as_the_same_papers_with_their_marks() {
    let s = Setup::new();
    // Papers known by a hash of their text (a list of abstracts, one a
    // line), besides the DOIs of the BibTeX file.
    let lines = s.dir.path().join("abstracts.txt");
    std::fs::write(
        &lines,
        "We show that \"quoted\" words, 50% of {braces} and $x_1$ survive an export and come back unchanged in every format we write.\n\
         A second abstract long enough to be one, with an em -- dash, a ``LaTeX quote'' and a url https://example.org/a_b?c=1&d=%20 in it as well.\n",
    )
    .unwrap();
    let files = [s.bib.to_str().unwrap(), lines.to_str().unwrap()];
    let list = |files: &[&str]| -> Vec<serde_json::Value> {
        let mut args = vec!["list", "--json"];
        args.extend_from_slice(files);
        let o = s.run_env(&args, false, &[]);
        assert_eq!(o.status.code(), Some(0), "{}", err(&o));
        out(&o)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let before = list(&files);
    assert_eq!(before.len(), 5);
    let hashed = before[3]["id"].as_str().unwrap().to_string();
    let run = |args: &[&str]| {
        let o = s.run_env(args, false, &[]);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", err(&o));
        out(&o)
    };
    let mut args = vec!["tag", "--add", "kept", &hashed, A];
    args.extend_from_slice(&files);
    run(&args);
    let mut args = vec!["note", &hashed, "--set", "a note, 100% \"mine\""];
    args.extend_from_slice(&files);
    run(&args);
    let before = list(&files);
    for (format, ext) in [("bibtex", "bib"), ("json", "json"), ("csv", "csv")] {
        let mut args = vec!["export", "--all", "--format", format];
        args.extend_from_slice(&files);
        let exported = s.dir.path().join(format!("export.{ext}"));
        std::fs::write(&exported, run(&args)).unwrap();
        let after = list(&[exported.to_str().unwrap()]);
        assert_eq!(after.len(), before.len(), "{format}");
        for (a, b) in before.iter().zip(&after) {
            for field in ["id", "abstract", "authors", "year", "tags", "note"] {
                assert_eq!(a[field], b[field], "{format}: {field}");
            }
            // BibTeX is LaTeX: a title's markup goes out as LaTeX and
            // comes back as the screen showed it.
            let title = |p: &serde_json::Value| p["title"].as_str().unwrap().to_string();
            if format == "bibtex" {
                let shown = paperboat::text::markup::plain;
                assert_eq!(shown(&title(a)), shown(&title(b)), "{format}");
            } else {
                assert_eq!(title(a), title(b), "{format}");
            }
        }
    }
}
