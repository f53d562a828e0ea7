//! The exports' own tests: every format over the bundled lists.

use super::*;
use crate::store::Flag;
use crate::text::markup;

/// A store in a fresh directory, kept alive with it.
fn store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let (store, _) = Store::open(dir.path());
    (dir, store)
}

fn text(format: Format, corpus: &Corpus, indices: &[usize], store: &Store) -> String {
    let mut out = Vec::new();
    write(&mut out, format, corpus, indices, store).unwrap();
    String::from_utf8(out).unwrap()
}

fn balanced(s: &str) -> bool {
    let mut depth = 0i32;
    let mut escaped = false;
    for c in s.chars() {
        if escaped {
            escaped = false;
            continue;
        }
        match c {
            '\\' => escaped = true,
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth < 0 {
                    return false;
                }
            }
            _ => {}
        }
    }
    depth == 0
}

#[test]
fn bibtex_is_balanced_and_keeps_the_source_text() {
    let corpus = crate::loading::bundled().corpus;
    let all: Vec<usize> = (0..corpus.len()).collect();
    let (_dir, store) = store();
    let text = text(Format::Bibtex, &corpus, &all, &store);
    assert_eq!(text.matches("@misc{").count(), 38);
    assert_eq!(text.matches("  paperboat-id").count(), 38);
    assert!(balanced(&text));
    // The abstract as the file wrote it, which the reader keeps as it
    // is: an escaped percent sign and math as written.
    assert!(text.contains("1.1\\% and 5.94\\%"), "{text}");
    assert!(text.contains("\\times"), "math kept as written");
    assert_eq!(
        bibtex_escape("a{b}_c$~"),
        "a\\{b\\}\\_c\\$\\textasciitilde{}"
    );
    // Read back, every paper is itself.
    let back = crate::corpus::bibtex::parse(&text);
    assert!(back.skipped.is_empty(), "{:?}", back.skipped);
    for (p, r) in corpus.papers.iter().zip(back.records) {
        let q = r.into_paper(&"x".into(), 0).unwrap();
        assert_eq!(q.id, p.id);
        assert_eq!(q.abstract_text.text(), p.abstract_text.text());
    }
}

#[test]
fn markdown_lists_title_id_source_and_abstract() {
    let corpus = crate::loading::bundled().corpus;
    let (_dir, store) = store();
    let text = text(Format::Markdown, &corpus, &[1], &store);
    assert!(
        text.contains("## OrchJail: an orchestration-guided fuzzing framework"),
        "{text}"
    );
    assert!(text.contains(&format!("`{}` · ICML 2026 论文列表", corpus.short_id(1))));
    assert!(text.contains("> Tool-calling text-to-image (T2I) agents"));
}

#[test]
fn bibtex_carries_tags_as_keywords_and_the_note_as_annote_escaped() {
    let corpus = crate::loading::bundled().corpus;
    let (_dir, mut store) = store();
    let id = corpus.papers[2].id.as_str();
    store.set_tag(id, "to read", true).unwrap();
    store.set_tag(id, "LoRA", true).unwrap();
    store
        .set_note(
            id,
            "Compare {adapters} with 50% less \\memory}\nsee §4 & $x_1$",
        )
        .unwrap();
    let text = text(Format::Bibtex, &corpus, &[0, 2], &store);
    assert!(balanced(&text), "{text}");
    assert_eq!(text.matches("keywords").count(), 1, "{text}");
    assert!(text.contains("keywords      = {LoRA, to read},"), "{text}");
    assert!(
        text.contains(
            "annote        = {Compare \\{adapters\\} with 50\\% less \\textbackslash{}memory\\}\nsee §4 \\& \\$x\\_1\\$},"
        ),
        "{text}"
    );
}

#[test]
fn markdown_groups_by_tag_with_notes_untagged_last() {
    let corpus = crate::loading::bundled().corpus;
    let (_dir, mut store) = store();
    let [a, b] = [0, 1].map(|i| corpus.papers[i].id.as_str().to_string());
    store.set_tag(&a, "zeta", true).unwrap();
    store.set_tag(&a, "Alpha", true).unwrap();
    store.set_tag(&b, "alpha", true).unwrap();
    store
        .set_note(&b, "# Not a heading\n\n- point one")
        .unwrap();
    let text = text(Format::Markdown, &corpus, &[0, 1, 2], &store);
    let headings: Vec<&str> = text.lines().filter(|l| l.starts_with("## ")).collect();
    assert_eq!(headings, ["## alpha", "## zeta", "## Untagged"], "{text}");
    let title = |i: usize| {
        format!(
            "### {}",
            markdown_escape(&markup::plain(&corpus.papers[i].title))
        )
    };
    let at = |s: &str| text.match_indices(s).map(|(k, _)| k).collect::<Vec<_>>();
    // Paper 0 under both of its tags, paper 2 once, last.
    assert_eq!(at(&title(0)).len(), 2);
    assert_eq!(at(&title(2)).len(), 1);
    assert!(at(&title(2))[0] > at("## Untagged")[0]);
    assert!(
        text.contains("**Note:**\n\n> # Not a heading\n> \n> - point one\n"),
        "{text}"
    );
}

#[test]
fn csv_has_the_columns_and_quotes_what_needs_it() {
    let corpus = crate::loading::bundled().corpus;
    let (_dir, mut store) = store();
    let id = corpus.papers[3].id.as_str();
    store.set_tag(id, "b", true).unwrap();
    store.set_tag(id, "a", true).unwrap();
    store
        .set_note(id, "line one, with \"quotes\"\nline two")
        .unwrap();
    store.set(&[(id, Flag::Bookmark, true)]).unwrap();
    let text = text(Format::Csv, &corpus, &[3, 4], &store);
    let mut rows = csv::Reader::from_reader(text.as_bytes());
    assert_eq!(rows.headers().unwrap(), &CSV_COLUMNS[..]);
    let rows: Vec<csv::StringRecord> = rows.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 2);
    assert_eq!(&rows[0][0], id);
    assert_eq!(&rows[0][1], corpus.papers[3].title);
    assert_eq!(&rows[0][2], corpus.papers[3].abstract_text.text());
    let col = |name: &str| CSV_COLUMNS.iter().position(|c| *c == name).unwrap();
    let (tags, note, bookmarked, read) = (col("tags"), col("note"), col("bookmarked"), col("read"));
    assert_eq!(&rows[0][tags], "a; b");
    assert_eq!(&rows[0][note], "line one, with \"quotes\"\nline two");
    assert_eq!((&rows[0][bookmarked], &rows[0][read]), ("true", "false"));
    assert_eq!(
        (&rows[1][tags], &rows[1][note], &rows[1][bookmarked]),
        ("", "", "false")
    );
}
