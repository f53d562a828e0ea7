//! The links of a paper: those its record gives (URL, DOI, arXiv id) and
//! those its abstract holds (`\href`, `<…>`, bare URLs, `doi:10.…`,
//! `arXiv:2401.01234`), in that order, each once.

use std::collections::HashSet;

use super::markup::Rich;

/// A DOI suffix longer than this is not one: looking no further keeps a
/// text of `10.1234/` after `10.1234/` from reading to its end from each.
/// (Registered suffixes run to a few dozen characters.)
const MAX_DOI_SUFFIX: usize = 200;

/// A DOI in running text: `10.` then a registrant code, `/`, a suffix.
fn doi_at(text: &str, i: usize) -> Option<usize> {
    let rest = &text[i..];
    let digits = rest.strip_prefix("10.")?;
    let reg = digits.bytes().take_while(u8::is_ascii_digit).count();
    if !(4..=9).contains(&reg) || digits.as_bytes().get(reg) != Some(&b'/') {
        return None;
    }
    let suffix = &digits[reg + 1..];
    let mut cap = suffix.len().min(MAX_DOI_SUFFIX);
    while !suffix.is_char_boundary(cap) {
        cap -= 1;
    }
    super::work::count(cap);
    let len = super::markup::url_len(&suffix[..cap]);
    (len > 0).then_some(3 + reg + 1 + len)
}

/// An arXiv id after `arXiv:`: `2401.01234` (optionally `v2`) or an old
/// style `hep-th/9901001`.
fn arxiv_at(text: &str, i: usize) -> Option<(usize, usize)> {
    let rest = &text[i..];
    let prefix = ["arXiv:", "arxiv:", "arXiv: "]
        .iter()
        .find(|p| rest.starts_with(**p))?;
    let id = &rest[prefix.len()..];
    let new = {
        let b = id.as_bytes();
        let yymm = b.iter().take(4).all(u8::is_ascii_digit) && b.get(4) == Some(&b'.');
        let num = b.iter().skip(5).take_while(|c| c.is_ascii_digit()).count();
        (yymm && (4..=5).contains(&num)).then(|| {
            let mut n = 5 + num;
            if b.get(n) == Some(&b'v') {
                n += 1 + b
                    .iter()
                    .skip(n + 1)
                    .take_while(|c| c.is_ascii_digit())
                    .count();
            }
            n
        })
    };
    let old = || {
        // The archive's letters up to the `/` (looking no further than
        // they go, not to the next `/` of the text).
        let slash = id
            .bytes()
            .take_while(|&c| c.is_ascii_lowercase() || c == b'-' || c == b'.')
            .count();
        if slash == 0 || id.as_bytes().get(slash) != Some(&b'/') {
            return None;
        }
        let num = &id[slash + 1..];
        let n = num.bytes().take_while(u8::is_ascii_digit).count();
        (n == 7).then_some(slash + 1 + n)
    };
    let len = new.or_else(old)?;
    Some((prefix.len(), len))
}

/// The longest DOI [`doi_at`] finds: `10.`, nine digits, `/`, a suffix.
const MAX_DOI: usize = 3 + 9 + 1 + MAX_DOI_SUFFIX;

/// What the links listed so far hold from each `10.` on (at most a DOI's
/// length), in order: a DOI is inside one of them when it starts one of
/// these. Looking a DOI up is then a search in order, not a scan of every
/// link, which a text of thousands of DOIs made quadratic.
#[derive(Default)]
struct Inside<'a>(std::collections::BTreeSet<&'a str>);

impl<'a> Inside<'a> {
    /// Adds what `s` holds from each `10.` on.
    fn add(&mut self, s: &'a str) {
        for (k, _) in s.match_indices("10.") {
            let mut end = s.len().min(k + MAX_DOI);
            while !s.is_char_boundary(end) {
                end -= 1;
            }
            self.0.insert(&s[k..end]);
        }
    }

    /// True when `doi` (starting with `10.`) is inside a link added.
    fn holds(&self, doi: &str) -> bool {
        self.0
            .range(doi..)
            .next()
            .is_some_and(|s| s.starts_with(doi))
    }
}

/// Every link of a paper, numbered from 1 in the order returned.
pub fn collect(record_links: &[String], rich: &Rich) -> Vec<String> {
    fn add(out: &mut Vec<String>, seen: &mut HashSet<String>, url: String) {
        if seen.insert(url.clone()) {
            out.push(url);
        }
    }
    let mut out: Vec<String> = Vec::new();
    let mut seen = HashSet::new();
    let mut inside = Inside::default();
    for l in record_links.iter().chain(&rich.links) {
        add(&mut out, &mut seen, l.clone());
        inside.add(l);
    }
    let text = rich.text.as_str();
    super::work::count(text.len());
    for (i, _) in text.char_indices() {
        let at_word =
            i == 0 || !text[..i].ends_with(|c: char| c.is_alphanumeric() || c == '/' || c == '.');
        if !at_word {
            continue;
        }
        if let Some(len) = doi_at(text, i) {
            // Not the inside of a URL already listed. (An arXiv link holds
            // no DOI: its id has no `/` after `10.` and digits.)
            let doi = &text[i..i + len];
            if !inside.holds(doi) {
                add(&mut out, &mut seen, format!("https://doi.org/{doi}"));
                inside.add(doi);
            }
        } else if let Some((skip, len)) = arxiv_at(text, i) {
            let id = &text[i + skip..i + skip + len];
            add(&mut out, &mut seen, format!("https://arxiv.org/abs/{id}"));
        }
    }
    out
}

/// The web address a link can be opened at, or `None`: an `http://` or
/// `https://` URL as it is (no white space or control character in it),
/// a DOI (`doi:10.…`, `10.…/…`) as its doi.org page, an arXiv id
/// (`arXiv:2401.01234`) as its abstract page. Anything else (`file:`,
/// `javascript:`, `data:`, `smb:`, a word that would read as an option)
/// is never handed to a browser or an opener, nor made a live link.
pub fn openable(link: &str) -> Option<String> {
    let link = link.trim();
    let clean = |s: &str| !s.is_empty() && !s.chars().any(|c| c.is_whitespace() || c.is_control());
    let scheme_end = link.find("://").unwrap_or(0);
    let scheme = &link[..scheme_end];
    if scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https") {
        let rest = &link[scheme_end + 3..];
        return (clean(rest) && !rest.starts_with('/'))
            .then(|| format!("{}://{rest}", scheme.to_ascii_lowercase()));
    }
    let lower = link.to_ascii_lowercase();
    if lower.starts_with("arxiv:") {
        let id = link[6..].trim();
        let written = format!("arXiv:{id}");
        return arxiv_at(&written, 0)
            .filter(|&(skip, len)| skip + len == written.len())
            .map(|_| format!("https://arxiv.org/abs/{id}"));
    }
    let doi = if lower.starts_with("doi:") {
        link[4..].trim()
    } else {
        link
    };
    let (prefix, suffix) = doi.split_once('/')?;
    let registrant = prefix.strip_prefix("10.")?;
    (!registrant.is_empty()
        && registrant.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && clean(suffix))
    .then(|| format!("https://doi.org/{prefix}/{}", escape_path(suffix)))
}

/// `s` with the characters a URL's path may not hold as such
/// percent-encoded (`<`, `>`, `"`, `` ` ``, `{`, `}`, `|`, `\`, `^`, `#`,
/// `?`, `%` not starting an escape): a DOI written into a link.
fn escape_path(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    for (i, c) in s.char_indices() {
        let escape = match c {
            '<' | '>' | '"' | '`' | '{' | '}' | '|' | '\\' | '^' | '#' | '?' => true,
            '%' => {
                !(b.len() > i + 2 && b[i + 1].is_ascii_hexdigit() && b[i + 2].is_ascii_hexdigit())
            }
            _ => false,
        };
        if escape {
            out.push_str(&format!("%{:02X}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::markup::render;

    #[test]
    fn only_web_links_open_and_ids_become_their_pages() {
        for (link, opened) in [
            (
                "https://arxiv.org/abs/1801.05533",
                Some("https://arxiv.org/abs/1801.05533"),
            ),
            (
                "HTTP://Example.org/a?b=c&d#e",
                Some("http://Example.org/a?b=c&d#e"),
            ),
            (
                "doi:10.1145/3292500.3330701",
                Some("https://doi.org/10.1145/3292500.3330701"),
            ),
            (
                "10.1000/<script>alert(1)</script>",
                Some("https://doi.org/10.1000/%3Cscript%3Ealert(1)%3C/script%3E"),
            ),
            (
                "arXiv:2401.01234v2",
                Some("https://arxiv.org/abs/2401.01234v2"),
            ),
            (
                "arxiv:hep-th/9901001",
                Some("https://arxiv.org/abs/hep-th/9901001"),
            ),
            ("javascript:alert(1)", None),
            ("JavaScript://%0aalert(1)", None),
            ("file:///etc/passwd", None),
            ("smb://host/share", None),
            ("data:text/html,<script>", None),
            ("-oProxyCommand=id", None),
            ("--help", None),
            ("https://", None),
            ("https:///etc/passwd", None),
            ("https://a.org/x y", None),
            ("https://a.org/\u{1b}[2J", None),
            ("ftp://a.org/x", None),
            ("arxiv:not-an-id", None),
            ("10.1/", None),
            ("", None),
        ] {
            assert_eq!(openable(link).as_deref(), opened, "{link}");
        }
    }

    #[test]
    fn record_links_then_abstract_links_each_once() {
        let rich = render(
            "See \\href{https://a.org/x}{code}, <https://b.org>, https://c.org/y. \
             Also doi:10.1145/3292500.3330701 and arXiv:2401.01234v2, arXiv:hep-th/9901001; https://a.org/x",
        );
        let links = collect(&["https://doi.org/10.1/own".to_string()], &rich);
        assert_eq!(
            links,
            vec![
                "https://doi.org/10.1/own",
                "https://a.org/x",
                "https://b.org",
                "https://c.org/y",
                "https://doi.org/10.1145/3292500.3330701",
                "https://arxiv.org/abs/2401.01234v2",
                "https://arxiv.org/abs/hep-th/9901001",
            ]
        );
    }

    #[test]
    fn dois_inside_urls_are_not_listed_twice() {
        let rich = render("https://doi.org/10.1145/3292500.3330701 is it");
        assert_eq!(
            collect(&[], &rich),
            vec!["https://doi.org/10.1145/3292500.3330701"]
        );
    }

    #[test]
    fn numbers_that_are_not_ids() {
        let rich = render("We get 10.5% gains; arXiv:12 is not an id; 10.12/x is too short");
        assert!(collect(&[], &rich).is_empty());
    }
}
