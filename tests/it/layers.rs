//! The house rules the compiler cannot hold, read from the source: each
//! module imports only the layers below it (inside the core crate, and
//! inside the reader's), the modules inside a layer form no circle, and no
//! file grows past one job's size. That the core knows nothing of the
//! reader, the terminal or the command line is the crate boundary's work:
//! core/Cargo.toml names none of them. docs/ARCHITECTURE.md draws the same layers;
//! when a module is added, it gets a row in [`LAYERS`] and a line there.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The top-level modules, lowest layer first. A module may import its own
/// layer's code and any lower layer, never a higher one; two modules of the
/// same rank may not import each other.
const LAYERS: &[(&str, u8)] = &[
    ("simd", 0),
    ("sys", 0),
    ("alloc", 1),
    ("parallel", 1),
    ("text", 2),
    ("store", 2),
    ("corpus", 3),
    ("search", 4),
    ("loading", 5),
    ("order", 5),
    ("export", 6),
    ("vocabulary", 7),
    ("app", 8),
    ("keys", 9),
    ("ui", 10),
    ("config", 11),
    ("terminal", 12),
    ("cli", 13),
];

/// Crates the core must not name.
const OUTSIDE: &[&str] = &["clap", "ratatui", "crossterm"];

/// Most lines of code a file may hold before its tests (blank lines and
/// comments not counted).
const MOST_CODE_LINES: usize = 800;

fn rank(module: &str) -> Option<u8> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|&(_, r)| r)
}

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a source file: `src/corpus/readers/mod.rs` is
/// `["corpus", "readers"]`, `src/lib.rs` is `[]`.
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap();
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs");
    if !matches!(stem, "mod" | "lib" | "main") {
        parts.push(stem.to_string());
    }
    parts
}

/// The code of a file before its test module (`#[cfg(test)] mod …`),
/// without blank lines and comments.
fn code_lines(text: &str) -> Vec<&str> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim();
        let next = lines[i + 1..]
            .iter()
            .map(|l| l.trim())
            .find(|l| !l.is_empty());
        if t == "#[cfg(test)]" && next.is_some_and(|l| l.starts_with("mod ")) {
            break;
        }
        if t.is_empty() || t.starts_with("//") {
            continue;
        }
        out.push(*line);
    }
    out
}

/// The paths a line names: `crate::a::b` and, resolved against `here`,
/// `super::a`, up to the first segment that is not a lower-case name (a
/// type, a brace). The tail may name an item rather than a module.
fn named_modules(line: &str, here: &[String]) -> Vec<Vec<String>> {
    let code = match line.find("//") {
        Some(i) if !line[..i].contains('"') => &line[..i],
        _ => line,
    };
    let mut out = Vec::new();
    for (prefix, base) in [("crate::", Vec::new()), ("super::", parent(here))] {
        let mut from = 0;
        while let Some(k) = code[from..].find(prefix) {
            let at = from + k;
            from = at + prefix.len();
            // `paperboat_crate::` or `my_super::` are other names.
            if at > 0 {
                let before = code.as_bytes()[at - 1];
                if before.is_ascii_alphanumeric() || before == b'_' {
                    continue;
                }
            }
            let mut path = base.clone();
            let rest = &code[from..];
            let mut rest_iter = rest.split("::");
            let mut supers = rest_iter.next();
            // `super::super::x`
            while prefix == "super::" && supers == Some("super") {
                path.pop();
                supers = rest_iter.next();
            }
            for seg in std::iter::once(supers).flatten().chain(rest_iter) {
                let name: String = seg
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                let lower = name.chars().next().is_some_and(|c| c.is_ascii_lowercase());
                if name.is_empty() || !lower || name == "self" {
                    break;
                }
                path.push(name);
            }
            if !path.is_empty() {
                out.push(path);
            }
        }
    }
    out
}

fn parent(module: &[String]) -> Vec<String> {
    module[..module.len().saturating_sub(1)].to_vec()
}

struct Source {
    file: String,
    module: Vec<String>,
    text: String,
}

/// The sources of both crates: the core's (`core/src`) and the reader's
/// (`src`), whose `lib.rs` re-exports the core's modules under the same
/// names, so that a path means the same module in either.
fn read_sources() -> Vec<Source> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut all = Vec::new();
    for src in [root.join("core/src"), root.join("src")] {
        let mut files = Vec::new();
        sources(&src, &mut files);
        files.sort();
        assert!(files.len() > 5, "the source tree was not found at {src:?}");
        all.extend(files.into_iter().map(|f| Source {
            file: f.strip_prefix(root).unwrap().display().to_string(),
            module: module_of(&src, &f),
            text: std::fs::read_to_string(&f).unwrap(),
        }));
    }
    all
}

#[test]
fn every_top_level_module_has_a_layer() {
    let mut missing = BTreeSet::new();
    for s in read_sources() {
        if let Some(top) = s.module.first()
            && rank(top).is_none()
        {
            missing.insert(top.clone());
        }
    }
    assert!(
        missing.is_empty(),
        "modules without a layer in tests/it/layers.rs (and docs/ARCHITECTURE.md): {missing:?}"
    );
}

#[test]
fn no_module_imports_a_layer_above_it() {
    let mut upward = Vec::new();
    let mut checked = 0;
    for s in read_sources() {
        let Some(top) = s.module.first() else {
            continue; // lib.rs and main.rs sit above every layer
        };
        let Some(mine) = rank(top) else { continue };
        for (n, line) in code_lines(&s.text).into_iter().enumerate() {
            for named in named_modules(line, &s.module) {
                let Some(theirs) = rank(&named[0]) else {
                    continue;
                };
                checked += 1;
                if named[0] != *top && theirs >= mine {
                    upward.push(format!(
                        "{} (code line {}): {} imports {}: {}",
                        s.file,
                        n + 1,
                        top,
                        named.join("::"),
                        line.trim()
                    ));
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} imports were read");
    assert!(
        upward.is_empty(),
        "imports of a layer at or above the importer's:\n{}",
        upward.join("\n")
    );
}

/// The compiler keeps the core from importing the reader; its manifest
/// keeps it from the terminal and the command line.
#[test]
fn the_core_crate_names_no_terminal_or_command_line_crate() {
    let manifest =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("core/Cargo.toml"))
            .unwrap();
    let table: toml::Table = manifest.parse().unwrap();
    assert!(table.contains_key("dependencies"), "{manifest}");
    for section in ["dependencies", "dev-dependencies", "target"] {
        let text = table
            .get(section)
            .map(|v| v.to_string())
            .unwrap_or_default();
        for krate in OUTSIDE {
            assert!(
                !text.contains(krate),
                "core/Cargo.toml [{section}] names {krate}"
            );
        }
    }
}

#[test]
fn the_modules_inside_a_layer_form_no_circle() {
    // Edges between modules (files) that are neither inside the other
    // (corpus::readers::json -> corpus::fields), found from `crate::` and
    // `super::` paths, each cut to the longest module it names.
    let sources = read_sources();
    let modules: BTreeSet<Vec<String>> = sources.iter().map(|s| s.module.clone()).collect();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for s in &sources {
        if s.module.is_empty() {
            continue;
        }
        let me = s.module.join("::");
        for line in code_lines(&s.text) {
            for mut named in named_modules(line, &s.module) {
                while !named.is_empty() && !modules.contains(&named) {
                    named.pop();
                }
                let inside = |a: &[String], b: &[String]| a.len() <= b.len() && b[..a.len()] == *a;
                if named.is_empty() || inside(&named, &s.module) || inside(&s.module, &named) {
                    continue;
                }
                edges
                    .entry(me.clone())
                    .or_default()
                    .insert(named.join("::"));
            }
        }
    }
    assert!(!edges.is_empty(), "no edges found between modules");
    // Depth-first search for a back edge.
    fn visit(
        node: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        match state.get(node) {
            Some(2) => return None,
            Some(1) => {
                let start = stack.iter().position(|n| n == node).unwrap();
                let mut circle = stack[start..].to_vec();
                circle.push(node.to_string());
                return Some(circle);
            }
            _ => {}
        }
        state.insert(node.to_string(), 1);
        stack.push(node.to_string());
        for next in edges.get(node).into_iter().flatten() {
            if let Some(c) = visit(next, edges, state, stack) {
                return Some(c);
            }
        }
        stack.pop();
        state.insert(node.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for node in edges.keys() {
        let mut stack = Vec::new();
        if let Some(circle) = visit(node, &edges, &mut state, &mut stack) {
            panic!("an import circle: {}", circle.join(" -> "));
        }
    }
}

#[test]
fn no_file_holds_more_than_one_jobs_worth_of_code() {
    let mut big = Vec::new();
    for s in read_sources() {
        let n = code_lines(&s.text).len();
        if n > MOST_CODE_LINES {
            big.push(format!("{}: {n} lines of code", s.file));
        }
    }
    assert!(
        big.is_empty(),
        "files over {MOST_CODE_LINES} lines of code (split them by job):\n{}",
        big.join("\n")
    );
}

#[test]
fn the_path_reader_sees_imports() {
    let here = vec!["corpus".to_string(), "readers".to_string()];
    assert_eq!(
        named_modules("use crate::search::{Match, Scope};", &here),
        vec![vec!["search".to_string()]]
    );
    assert_eq!(
        named_modules("use super::super::text::markup::render;", &here)[0].join("::"),
        "text::markup::render"
    );
    assert_eq!(
        named_modules("use super::fields::arxiv_id;", &here),
        vec![vec![
            "corpus".to_string(),
            "fields".to_string(),
            "arxiv_id".to_string()
        ]]
    );
    assert_eq!(
        named_modules("let x = crate::app::App::new(); // crate::ui", &here),
        vec![vec!["app".to_string()]]
    );
    assert!(named_modules("use my_crate::x;", &here).is_empty());
}
