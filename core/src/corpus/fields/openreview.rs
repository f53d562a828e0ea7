//! OpenReview forum ids: what a paper on OpenReview is known by, and
//! where records write them (a field of their own, or a forum or PDF
//! link `openreview.net/forum?id=…`, `openreview.net/pdf?id=…`).

/// True for an OpenReview note id as OpenReview writes them: 6 to 32
/// letters, digits, `_` or `-` (`frA0NNBS1n`, `rJXMpikCZ`).
pub fn is_forum_id(id: &str) -> bool {
    (6..=32).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// The forum id of an OpenReview forum or PDF link (any openreview.net
/// host: `api2.`, `www.`), if `url` is one: the `id` query parameter of
/// `/forum` or `/pdf`. `None` for other links (`/pdf/<hash>.pdf` names a
/// file, not a forum).
pub fn forum_in(url: &str) -> Option<&str> {
    let url = url.trim();
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
        .unwrap_or(url);
    let (host, path) = rest.split_once('/')?;
    if !(host.eq_ignore_ascii_case("openreview.net")
        || host.to_ascii_lowercase().ends_with(".openreview.net"))
    {
        return None;
    }
    let (page, query) = path.split_once('?')?;
    if !matches!(page.trim_end_matches('/'), "forum" | "pdf") {
        return None;
    }
    let query = query.split('#').next().unwrap_or("");
    query
        .split('&')
        .find_map(|pair| pair.strip_prefix("id="))
        .filter(|id| is_forum_id(id))
}

/// The forum id `id` names: an id as such, an `openreview:` id, or a
/// forum or PDF link.
pub fn forum_of(id: &str) -> Option<&str> {
    let id = id.trim();
    let bare = match id.get(..11) {
        Some(p) if p.eq_ignore_ascii_case("openreview:") => &id[11..],
        _ => id,
    };
    if is_forum_id(bare) {
        Some(bare)
    } else {
        forum_in(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forum_and_pdf_links_name_their_forum() {
        for url in [
            "https://openreview.net/forum?id=frA0NNBS1n",
            "http://openreview.net/forum?id=frA0NNBS1n&noteId=abc123",
            "https://openreview.net/pdf?id=frA0NNBS1n",
            "https://api2.openreview.net/forum/?id=frA0NNBS1n#discussion",
            " https://OpenReview.net/forum?noteId=x&id=frA0NNBS1n ",
        ] {
            assert_eq!(forum_in(url), Some("frA0NNBS1n"), "{url}");
        }
    }

    #[test]
    fn other_links_name_no_forum() {
        for url in [
            "https://api2.openreview.net/pdf/e92f71b36bf501a4596d0b0a2285f14e5d15d076.pdf",
            "https://openreview.net/group?id=ICML.cc/2024/Conference",
            "https://example.org/forum?id=frA0NNBS1n",
            "https://notopenreview.net/forum?id=frA0NNBS1n",
            "https://openreview.net/forum?id=a b",
            "https://openreview.net/forum?id=",
            "openreview",
        ] {
            assert_eq!(forum_in(url), None, "{url}");
        }
    }

    #[test]
    fn an_id_is_read_bare_prefixed_or_as_a_link() {
        assert_eq!(forum_of("frA0NNBS1n"), Some("frA0NNBS1n"));
        assert_eq!(forum_of("openreview:frA0NNBS1n"), Some("frA0NNBS1n"));
        assert_eq!(forum_of("OpenReview:rJXMpikCZ"), Some("rJXMpikCZ"));
        assert_eq!(
            forum_of("https://openreview.net/forum?id=rJXMpikCZ"),
            Some("rJXMpikCZ")
        );
        assert_eq!(forum_of("10.1145/3292500"), None);
        assert_eq!(forum_of("abc"), None);
    }
}
