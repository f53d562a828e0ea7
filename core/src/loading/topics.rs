//! A list's topics (`search::learn::topics`, the default number of them),
//! kept in the cache beside the file's word index: `paperboat topics` and
//! a `topic:` query on a large file loaded alone group it once, and read
//! the grouping back after (the same file gives the same topics either
//! way). Other inputs are grouped each time.

use super::{Input, Options, cache};
use crate::corpus::Paper;
use crate::search::learn::{Topics, list_topics};

/// The topics of `papers`, loaded from `inputs` with `opts`: read from
/// the cache when kept there, else grouped (and kept, when the cache
/// takes the file; a failure to keep them is not the caller's).
pub fn topics_of(inputs: &[Input], opts: &Options, papers: &[Paper]) -> Topics {
    let (Some(cache), [Input::Path(path)]) = (opts.cache.as_ref(), inputs) else {
        return list_topics(papers, None);
    };
    let n = papers.len();
    if let Some(t) = cache::stored_topics(cache, path, opts.format, n)
        .and_then(|bytes| Topics::from_bytes(&bytes, n))
    {
        return t;
    }
    let t = list_topics(papers, None);
    let _ = cache::store_topics(cache, path, opts.format, n, &t.to_bytes());
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topics_are_kept_beside_the_index_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let file = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/data/corpora/arxiv-snapshot_wanng-ide.jsonl");
        let opts = Options {
            cache: Some(cache::CacheOptions::new(
                dir.path().to_path_buf(),
                cache::DEFAULT_LIMIT,
            )),
            ..Options::default()
        };
        let inputs = [Input::Path(file)];
        let loaded = super::super::load(&inputs, &opts).unwrap();
        let papers: &[Paper] = &loaded.corpus.papers;
        let first = topics_of(&inputs, &opts, papers);
        let kept = std::fs::read_dir(dir.path())
            .unwrap()
            .flatten()
            .filter(|e| e.path().extension().is_some_and(|x| x == "topics"))
            .count();
        assert_eq!(kept, 1, "kept in the cache");
        assert_eq!(first, list_topics(papers, None));
        assert_eq!(topics_of(&inputs, &opts, papers), first, "read back");
        // Another number of papers is another list: grouped again.
        let fewer = &papers[..150];
        assert_eq!(topics_of(&inputs, &opts, fewer), list_topics(fewer, None));
    }
}
