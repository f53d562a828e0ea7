//! DOIs: a field meant for one, a DOI somewhere in free text, and the
//! form a paper's id keeps (lower case: DOIs ignore case).

/// What may come before a DOI in a field meant for one: a resolver link
/// (`https://doi.org/`, `http://dx.doi.org/`, `www.`), `doi:`, `DOI `.
const PREFIXES: [&str; 7] = [
    "https://",
    "http://",
    "www.",
    "dx.doi.org/",
    "doi.org/",
    "doi:",
    "doi ",
];

/// `s` trimmed, without the resolver link or `doi:` before its DOI.
fn strip_doi_prefix(s: &str) -> &str {
    let mut rest = s.trim();
    while let Some(p) = PREFIXES.iter().find(|p| {
        rest.get(..p.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(p))
    }) {
        rest = rest[p.len()..].trim_start();
    }
    rest
}

/// The DOI a field meant for one starts with (`10.1000/xyz`,
/// `doi:10.1000/xyz`, `DOI 10.1000/xyz`, `https://doi.org/10.1000/xyz`,
/// `http://dx.doi.org/10.1000/xyz`), as written, up to white space and
/// without trailing `.`, `,` or `;`; `None` when it starts with none.
pub fn doi(s: &str) -> Option<String> {
    let token = strip_doi_prefix(s)
        .split_whitespace()
        .next()?
        .trim_end_matches([',', ';', '.']);
    let (prefix, suffix) = token.split_once('/')?;
    let registrant = prefix.strip_prefix("10.")?;
    let valid = !registrant.is_empty()
        && registrant.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && !suffix.is_empty();
    valid.then(|| token.to_string())
}

/// The first DOI anywhere in `s`, free text that may hold other things
/// (BibTeX's `doi` field: `DOI: 10.1016/…`, a link, a stray note): a
/// `10.` not inside a word, a registrant of at least four digits, a `/`,
/// up to white space, trailing `.`, `,` and `;` dropped. Stricter than
/// [`doi`] about the registrant, as text is not known to hold one.
pub fn doi_in_text(s: &str) -> Option<String> {
    let mut from = 0;
    while let Some(p) = s[from..].find("10.") {
        let at = from + p;
        let rest = &s[at + 3..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let boundary = !s[..at].ends_with(|c: char| c.is_ascii_alphanumeric());
        if boundary && digits >= 4 && rest[digits..].starts_with('/') {
            let doi = s[at..]
                .split_whitespace()
                .next()
                .unwrap_or("")
                .trim_end_matches(['.', ',', ';']);
            if doi.len() > 3 + digits + 1 {
                return Some(doi.to_string());
            }
        }
        from = at + 3;
    }
    None
}

/// The DOI a resolver link names (`https://doi.org/10.…`,
/// `http://dx.doi.org/10.…`), as the link writes it; `None` for any other
/// link.
pub fn doi_link(url: &str) -> Option<&str> {
    let url = url.trim();
    let rest = ["https://", "http://"].iter().find_map(|p| {
        url.get(..p.len())
            .filter(|h| h.eq_ignore_ascii_case(p))
            .map(|_| &url[p.len()..])
    })?;
    let rest = ["doi.org/", "dx.doi.org/", "www.doi.org/"]
        .iter()
        .find_map(|h| {
            rest.get(..h.len())
                .filter(|x| x.eq_ignore_ascii_case(h))
                .map(|_| &rest[h.len()..])
        })?;
    doi(rest).filter(|d| d.len() == rest.len()).map(|_| rest)
}

/// What a DOI is known by in a paper's id: without a resolver link or
/// `doi:`, in lower case.
pub fn doi_key(doi: &str) -> String {
    strip_doi_prefix(doi).to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_meant_for_a_doi() {
        let want = Some("10.1145/3065386".to_string());
        for s in [
            "10.1145/3065386",
            " 10.1145/3065386 ",
            "https://doi.org/10.1145/3065386",
            "http://doi.org/10.1145/3065386",
            "http://dx.doi.org/10.1145/3065386",
            "https://DX.DOI.org/10.1145/3065386",
            "doi.org/10.1145/3065386",
            "www.doi.org/10.1145/3065386",
            "doi:10.1145/3065386",
            "DOI:10.1145/3065386",
            "doi: 10.1145/3065386",
            "DOI 10.1145/3065386",
            "10.1145/3065386.",
            "10.1145/3065386,",
            "10.1145/3065386; 10.1/other",
        ] {
            assert_eq!(doi(s), want, "{s:?}");
        }
        assert_eq!(doi("https://DOI.org/10.1/A b").as_deref(), Some("10.1/A"));
        assert_eq!(doi("10.1234.5/x.").as_deref(), Some("10.1234.5/x"));
        assert_eq!(
            doi("10.48550/arXiv.2106.09685").as_deref(),
            Some("10.48550/arXiv.2106.09685")
        );
        assert_eq!(doi("https://example.org/10.1/x"), None);
        assert_eq!(doi("10./x"), None);
        assert_eq!(doi("10.1/"), None);
        assert_eq!(doi("not a doi"), None);
        assert_eq!(doi(""), None);
    }

    #[test]
    fn a_doi_in_free_text() {
        let d = |v: &str| doi_in_text(v);
        assert_eq!(
            d("10.1037/ppm0000281").as_deref(),
            Some("10.1037/ppm0000281")
        );
        assert_eq!(d("https://doi.org/10.1/abc"), None);
        assert_eq!(
            d("http://dx.doi.org/10.1016/S0004-3702(97)00050-7").as_deref(),
            Some("10.1016/S0004-3702(97)00050-7")
        );
        assert_eq!(
            d("DOI: 10.1016/j.x.2006.01.004.").as_deref(),
            Some("10.1016/j.x.2006.01.004")
        );
        assert_eq!(
            d("see doi:10.1107/S0365110X60000388, p. 3").as_deref(),
            Some("10.1107/S0365110X60000388")
        );
        assert_eq!(d("R. Parasuraman, R. Davies"), None);
        assert_eq!(d("j.desal.2005.02.017"), None);
        assert_eq!(d("x10.1016/abc"), None);
    }

    #[test]
    fn keys_fold_case_and_drop_links() {
        assert_eq!(doi_key("10.1/ABC"), "10.1/abc");
        assert_eq!(doi_key("https://doi.org/10.1/ABC"), "10.1/abc");
        assert_eq!(doi_key("http://dx.doi.org/10.1/ABC"), "10.1/abc");
        assert_eq!(doi_key("doi:10.1/ABC"), "10.1/abc");
        assert_eq!(
            doi_key("10.48550/arXiv.2106.09685"),
            "10.48550/arxiv.2106.09685"
        );
    }
}
