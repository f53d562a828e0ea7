//! The bundled abstracts render without leftover markup: what the reader
//! shows first, checked whole. It reads the bundled lists through the
//! loader, so it lives here, above every layer, rather than beside the
//! renderer it checks.

use paperboat::text::markup::render;

/// Renders every bundled abstract and returns the leftovers of markup:
/// dollars, backslash commands, `**`, `__`, braces.
fn leftovers() -> Vec<(usize, String)> {
    let corpus = paperboat::loading::bundled().corpus;
    assert!(!corpus.papers.is_empty(), "no bundled abstract to render");
    let mut out = Vec::new();
    for (i, p) in corpus.papers.iter().enumerate() {
        let t = render(&p.abstract_text.text()).text;
        for (k, c) in t.char_indices() {
            let next = t[k + c.len_utf8()..].chars().next();
            let bad = c == '$'
                || (c == '\\' && next.is_some_and(|n| n.is_ascii_alphabetic()))
                || ((c == '*' || c == '_') && next == Some(c))
                || c == '{'
                || c == '}';
            if bad {
                let s = t[k.saturating_sub(20)..].chars().take(40).collect();
                out.push((i, s));
            }
        }
    }
    out
}

#[test]
fn no_markup_is_left_in_any_rendered_seed_abstract() {
    let left = leftovers();
    assert!(left.is_empty(), "{left:#?}");
}
