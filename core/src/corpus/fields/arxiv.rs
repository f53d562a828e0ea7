//! arXiv identifiers: their two shapes, and where a record writes them
//! (a field, a prefix, a URL, arXiv's DOI, free text).

/// True for an arXiv identifier of either shape, a version allowed:
/// `2101.00001`, `2101.00001v2`, `hep-th/9901001`, `math.GT/0309136v1`.
/// An old-style archive is lower-case letters and hyphens, with an
/// optional `.SUBJECT` class.
pub fn is_arxiv_id(id: &str) -> bool {
    let id = strip_version(id);
    let digits = |s: &str, n: std::ops::RangeInclusive<usize>| {
        n.contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit())
    };
    if let Some((yymm, num)) = id.split_once('.')
        && digits(yymm, 4..=4)
        && digits(num, 4..=5)
    {
        return true;
    }
    if let Some((archive, num)) = id.split_once('/') {
        let (name, class) = archive.split_once('.').unwrap_or((archive, "A"));
        return name.starts_with(|c: char| c.is_ascii_lowercase())
            && name.bytes().all(|b| b.is_ascii_lowercase() || b == b'-')
            && !class.is_empty()
            && class.bytes().all(|b| b.is_ascii_alphabetic() || b == b'-')
            && digits(num, 7..=7);
    }
    false
}

/// The year an arXiv id was first submitted in, from the year and month
/// it begins with: `2402.01234` → 2024, `hep-th/9901001` → 1999.
pub fn arxiv_year(id: &str) -> Option<i32> {
    let id = arxiv_key(id);
    if !is_arxiv_id(id) {
        return None;
    }
    let yymm = match id.split_once('/') {
        Some((_, num)) => &num[..4],
        None => &id[..4],
    };
    let yy: i32 = yymm[..2].parse().ok()?;
    // Old-style ids began in 1991; new-style ones in 2007.
    Some(if yy >= 91 { 1900 + yy } else { 2000 + yy })
}

/// `2401.01234v2` → `2401.01234`.
pub(crate) fn strip_version(id: &str) -> &str {
    // A byte loop: ids are a dozen bytes, below what a searcher pays off.
    match id.bytes().rposition(|b| b == b'v') {
        Some(i) if i > 0 && i + 1 < id.len() && id[i + 1..].bytes().all(|b| b.is_ascii_digit()) => {
            &id[..i]
        }
        _ => id,
    }
}

/// `s` trimmed, without an `arXiv:` prefix (any case).
pub fn strip_arxiv_prefix(s: &str) -> &str {
    let s = s.trim();
    match s.get(..6) {
        Some(p) if p.eq_ignore_ascii_case("arxiv:") => s[6..].trim_start(),
        _ => s,
    }
}

/// What an arXiv id is known by: trimmed, no `arXiv:` prefix, no
/// version (`arXiv:2401.01234v2` → `2401.01234`).
pub fn arxiv_key(id: &str) -> &str {
    strip_version(strip_arxiv_prefix(id))
}

/// The arXiv id in `s`, version kept: after `arxiv.org/abs/`,
/// `arxiv.org/pdf/` or `arxiv.org/html/` (any host ending so, `.pdf`
/// dropped), `10.48550/arXiv.` (arXiv's DOIs, as such or in a doi.org
/// link) or `arXiv:`, or (when `bare`) `s` itself. Only ids of arXiv's two
/// shapes count.
pub fn arxiv_in(s: &str, bare: bool) -> Option<String> {
    const MARKERS: [&str; 5] = [
        "arxiv.org/abs/",
        "arxiv.org/pdf/",
        "arxiv.org/html/",
        "10.48550/arxiv.",
        "arxiv:",
    ];
    let s = s.trim();
    let lower = s.to_ascii_lowercase();
    let start = match MARKERS
        .iter()
        .find_map(|m| lower.find(m).map(|i| i + m.len()))
    {
        Some(i) => s[i..].len() - s[i..].trim_start().len() + i,
        None if bare => 0,
        None => return None,
    };
    let id = s[start..]
        .split(|c: char| c.is_whitespace() || c == '?' || c == '#')
        .next()?
        .trim_end_matches('/');
    let id = id.strip_suffix(".pdf").unwrap_or(id);
    is_arxiv_id(id).then(|| id.to_string())
}

/// The first arXiv id written in free text (`arXiv preprint
/// arXiv:2101.00001`), when the text mentions arXiv.
pub fn arxiv_in_text(s: &str) -> Option<String> {
    if !s.to_lowercase().contains("arxiv") {
        return None;
    }
    s.split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        .map(|t| strip_arxiv_prefix(t).trim_end_matches(['.', ')', ']']))
        .find(|t| is_arxiv_id(t))
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_shapes_with_and_without_versions() {
        for id in [
            "2106.09685",
            "2106.09685v2",
            "0704.0001",
            "hep-th/9901001",
            "hep-th/9901001v3",
            "math.GT/0309136",
            "math.CO/0601001v1",
        ] {
            assert!(is_arxiv_id(id), "{id}");
        }
        for id in [
            "smith2020",
            "W2741809807",
            "10.1/x",
            "10.1000/abc",
            "2401.123",
            "2101.001",
            "HEP/9901001",
            "hep-th/990100",
            "math./0309136",
            "v2",
            "",
        ] {
            assert!(!is_arxiv_id(id), "{id}");
        }
    }

    #[test]
    fn keys_drop_prefixes_and_versions() {
        assert_eq!(arxiv_key("2106.09685v2"), "2106.09685");
        assert_eq!(arxiv_key(" arXiv:2106.09685v12 "), "2106.09685");
        assert_eq!(arxiv_key("arxiv:hep-th/9901001v1"), "hep-th/9901001");
        assert_eq!(arxiv_key("ARXIV: math.GT/0309136"), "math.GT/0309136");
        assert_eq!(strip_version("v2"), "v2");
        assert_eq!(strip_version("2106.09685v"), "2106.09685v");
    }

    #[test]
    fn every_spelling_gives_the_id() {
        let want = Some("2106.09685".to_string());
        for s in [
            "arXiv:2106.09685",
            "arxiv:2106.09685",
            "arXiv: 2106.09685",
            "https://arxiv.org/abs/2106.09685",
            "http://arxiv.org/abs/2106.09685/",
            "https://arxiv.org/pdf/2106.09685",
            "https://arxiv.org/pdf/2106.09685.pdf",
            "https://arxiv.org/html/2106.09685",
            "http://export.arxiv.org/abs/2106.09685",
            "https://export.arxiv.org/pdf/2106.09685.pdf",
            "https://arxiv.org/abs/2106.09685?context=cs",
            "10.48550/arXiv.2106.09685",
            "10.48550/arxiv.2106.09685",
            "https://doi.org/10.48550/arXiv.2106.09685",
            "http://dx.doi.org/10.48550/ARXIV.2106.09685",
        ] {
            assert_eq!(arxiv_in(s, false), want, "{s}");
        }
        assert_eq!(
            arxiv_in("https://arxiv.org/pdf/2106.09685v2.pdf", false).as_deref(),
            Some("2106.09685v2")
        );
        assert_eq!(
            arxiv_in("http://arxiv.org/abs/hep-th/9901001v1", false).as_deref(),
            Some("hep-th/9901001v1")
        );
        assert_eq!(
            arxiv_in("math.GT/0309136", true).as_deref(),
            Some("math.GT/0309136")
        );
        assert_eq!(
            arxiv_in("2106.09685v2", true).as_deref(),
            Some("2106.09685v2")
        );
        assert_eq!(arxiv_in("2106.09685", false), None);
        assert_eq!(arxiv_in("10.48550/arXiv.foo", false), None);
        assert_eq!(arxiv_in("https://example.org/abs/2106.09685", false), None);
        assert_eq!(arxiv_in("v1", true), None);
    }

    #[test]
    fn free_text_mentioning_arxiv() {
        assert_eq!(
            arxiv_in_text("arXiv preprint arXiv:2101.00001").as_deref(),
            Some("2101.00001")
        );
        assert_eq!(
            arxiv_in_text("ArXiv e-prints, 2101.00001.").as_deref(),
            Some("2101.00001")
        );
        assert_eq!(arxiv_in_text("Journal 2101.00001"), None);
        assert_eq!(arxiv_in_text("arXiv preprint"), None);
    }
}
