use super::*;

fn meta(title: &str, authors: &str) -> DocMeta {
    DocMeta {
        title: title.into(),
        authors: authors.into(),
        ..Default::default()
    }
}

fn index(docs: &[(&str, &str, &str)]) -> WordIndex {
    let mut ix = WordIndex::default();
    for (i, (t, a, abs)) in docs.iter().enumerate() {
        ix.add(i as u32, &meta(t, a), abs);
    }
    ix
}

fn ranked(ix: &WordIndex, word: &str, n: usize) -> Vec<usize> {
    let mut s = vec![0.0; n];
    ix.add_scores(word, false, &mut s);
    let mut order: Vec<usize> = (0..n).filter(|&i| s[i] > 0.0).collect();
    order.sort_by(|&a, &b| s[b].total_cmp(&s[a]));
    order
}

#[test]
fn a_word_in_the_title_outranks_it_in_the_abstract() {
    let ix = index(&[
        ("Dense retrieval", "", "Retrieval with genomic codes."),
        ("Genomic language models", "", "Models of DNA."),
        ("Vision", "", "Nothing of it."),
    ]);
    assert_eq!(ranked(&ix, "genomic", 3), vec![1, 0]);
    assert_eq!(ranked(&ix, "geno", 3), vec![1, 0], "prefixes");
    assert_eq!(ranked(&ix, "enomic", 3), Vec::<usize>::new(), "not infixes");
}

#[test]
fn the_whole_word_outranks_a_longer_word_it_starts() {
    let ix = index(&[("Learning to rank", "", ""), ("Learn to rank", "", "")]);
    assert_eq!(ranked(&ix, "learn", 2), vec![1, 0]);
}

#[test]
fn authors_fold_case_and_accents() {
    let ix = index(&[
        ("A", "José Hernández-Orallo", ""),
        ("B", "Hinrich Schütze", ""),
        ("C", "Jürgen Schmidhuber", ""),
    ]);
    let who = |w: &str| {
        let b = ix.papers_with(Part::Authors, &[w.to_string()], false, 3);
        (0..3).filter(|&i| b.contains(i)).collect::<Vec<_>>()
    };
    assert_eq!(who("hernandez"), vec![0]);
    assert_eq!(who("orallo"), vec![0]);
    assert_eq!(who("schutze"), vec![1]);
    assert_eq!(who("Schütze"), vec![1]);
    assert_eq!(who("schmid"), vec![2]);
    assert_eq!(who("sch"), vec![1, 2]);
}

#[test]
fn an_index_built_in_pieces_is_the_index_built_whole() {
    let texts: Vec<String> = (0..300)
        .map(|i| {
            format!(
                "Paper {i} on Sparse attention, word{} word{}",
                i % 7,
                i % 11
            )
        })
        .collect();
    let m = |i: usize| DocMeta {
        title: format!("T{}", i % 5).into(),
        authors: format!("Author{}", i % 13).into(),
        year: Some(2000 + (i % 20) as i32),
        id: format!("arxiv:{i}").into(),
        ..Default::default()
    };
    let mut whole = WordIndex::default();
    for (i, t) in texts.iter().enumerate() {
        whole.add(i as u32, &m(i), t);
    }
    // Pieces numbered from 0 (their arrays padded to their first paper)
    // or from their first paper (their arrays holding their own papers),
    // appended with and without the papers to come known.
    let mut pieces = WordIndex::default();
    let mut from_first = WordIndex::default();
    for (k, chunk) in texts.chunks(64).enumerate() {
        let mut piece = WordIndex::default();
        let mut own = WordIndex::default().empty_from(k * 64);
        for (j, t) in chunk.iter().enumerate() {
            piece.add((k * 64 + j) as u32, &m(k * 64 + j), t);
            own.add((k * 64 + j) as u32, &m(k * 64 + j), t);
        }
        let arrays = |ix: &WordIndex| {
            [
                ix.title_len.len(),
                ix.abstract_len.len(),
                ix.authors_len.len(),
                ix.years.len(),
                ix.id_ends.len(),
            ]
        };
        assert_eq!(arrays(&own), [chunk.len(); 5]);
        assert_eq!(arrays(&piece), [k * 64 + chunk.len(); 5]);
        pieces.append_expecting(piece, texts.len());
        if k % 2 == 0 {
            from_first.append_expecting(own, texts.len());
        } else {
            from_first.append(own);
        }
    }
    assert_eq!(from_first.indexed, 300);
    let mut written = Vec::new();
    from_first.write_to(&mut written).unwrap();
    let mut before = Vec::new();
    pieces.write_to(&mut before).unwrap();
    assert!(written == before, "the same index, byte for byte");
    assert_eq!(pieces.indexed, 300);
    assert_eq!(pieces.vocabulary(), whole.vocabulary());
    for q in ["sparse", "word3", "t1", "author1", "2"] {
        let a = ranked(&whole, q, 300);
        assert!(!a.is_empty(), "{q}");
        assert_eq!(ranked(&pieces, q, 300), a, "{q}");
    }
    let years = pieces.papers_in_years(2003, 2004, 300);
    assert_eq!((0..300).filter(|&i| years.contains(i)).count(), 30);
    assert_eq!(years, whole.papers_in_years(2003, 2004, 300));
    let ids = pieces.papers_with_id("29", 300);
    assert_eq!(
        (0..300).filter(|&i| ids.contains(i)).collect::<Vec<_>>(),
        vec![29, 290, 291, 292, 293, 294, 295, 296, 297, 298, 299]
    );
    assert!(whole.papers_with_id("ARXIV:7", 300).contains(7));
    assert!(!whole.papers_with_id("rxiv", 300).contains(7));
    assert_eq!(ids, whole.papers_with_id("29", 300));
}

#[test]
fn scores_in_parts_are_the_scores_whole() {
    let docs: Vec<(String, String)> = (0..500)
        .map(|i| {
            (
                format!("T{} w{}", i % 9, i % 4),
                format!("sparse{} attention a{}", i % 5, i % 7),
            )
        })
        .collect();
    let mut ix = WordIndex::default();
    for (i, (t, a)) in docs.iter().enumerate() {
        ix.add(i as u32, &meta(t, "Ann Author"), a);
    }
    for word in ["s", "sparse1", "a", "t", "w3", "author"] {
        let mut whole = vec![0.0; 500];
        ix.add_scores(word, false, &mut whole);
        assert!(whole.iter().any(|&x| x > 0.0), "{word}");
        let mut parts = vec![0.0; 500];
        for (k, chunk) in parts.chunks_mut(77).enumerate() {
            ix.add_scores_from(word, false, k * 77, chunk);
        }
        assert_eq!(parts, whole, "{word}");
    }
}

#[test]
fn counts_are_kept_per_field() {
    let ix = index(&[
        ("x", "", "attention attention Attention"),
        ("x", "", "attention"),
    ]);
    let mut s = vec![0.0; 2];
    ix.add_scores("attention", true, &mut s);
    assert!(s[0] > s[1] && s[1] > 0.0, "{s:?}");
    assert_eq!(ix.document_frequency("attention"), 2);
}

// The index on disk, and the index built for one query, over real
// exports.

#[cfg(test)]
mod on_disk {
    use std::sync::{Arc, OnceLock};

    use proptest::prelude::*;

    use super::super::super::items::{Items, doc_meta};
    use super::super::super::worker::index_piece;
    use super::super::super::{Labels, Query, Scope, index_papers, index_papers_for, rank_items};
    use super::super::*;
    use crate::corpus::{Abstract, Paper};
    use crate::loading::{Input, Options, load};

    const CORPORA: [&str; 4] = [
        "arxiv-snapshot_wanng-ide.jsonl",
        "bib_mendeley_export_512.bib",
        "tsv_csl_chinese_abstracts_dev.tsv",
        "ris_zotero_100.ris",
    ];

    fn corpus(name: &str) -> Vec<Paper> {
        let path = format!(
            "{}/../tests/data/corpora/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        load(&[Input::Path(path.into())], &Options::default())
            .expect(name)
            .corpus
            .papers
            .into_vec()
    }

    fn write(ix: &WordIndex) -> Vec<u8> {
        let mut v = Vec::new();
        let n = ix.write_to(&mut v).unwrap();
        assert_eq!(n as usize, v.len());
        v
    }

    fn read(bytes: Vec<u8>) -> WordIndex {
        WordIndex::from_bytes(Arc::new(bytes)).unwrap()
    }

    /// Bytes one past an aligned start: every array of more than a byte
    /// is copied, not viewed.
    struct Askew(Vec<u8>);

    impl AsRef<[u8]> for Askew {
        fn as_ref(&self) -> &[u8] {
            &self.0[1..]
        }
    }

    fn askew(bytes: &[u8]) -> WordIndex {
        let mut v = Vec::with_capacity(bytes.len() + 1);
        v.push(0);
        v.extend_from_slice(bytes);
        WordIndex::from_bytes(Arc::new(Askew(v))).unwrap()
    }

    /// Words to ask an index: some of its words, their first letters and
    /// first two and three, and words it lacks.
    fn probes(ix: &WordIndex) -> Vec<String> {
        let mut out: Vec<String> = vec!["".into(), "zzqxj".into(), "é".into(), "2".into()];
        for words in &ix.parts {
            for (k, (w, _)) in words.sorted().iter().enumerate() {
                if k % 41 != 0 {
                    continue;
                }
                let w = std::str::from_utf8(w).unwrap();
                out.push(w.to_string());
                for n in 1..=3 {
                    out.push(w.chars().take(n).collect());
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }

    fn bits(f: &[f32]) -> Vec<u32> {
        f.iter().map(|x| x.to_bits()).collect()
    }

    /// Every query of `a` and `b` gives the same answer.
    fn same(a: &WordIndex, b: &WordIndex, probes: &[String]) {
        assert_eq!(a.indexed, b.indexed);
        assert_eq!(a.vocabulary(), b.vocabulary());
        let n = a.indexed;
        for w in probes {
            for whole in [false, true] {
                let (mut x, mut y) = (vec![0.0; n], vec![0.0; n]);
                a.add_scores(w, whole, &mut x);
                b.add_scores(w, whole, &mut y);
                assert_eq!(bits(&x), bits(&y), "{w:?} {whole}");
                // Whether it scores any paper is told without scoring.
                let any = x.iter().any(|&s| s > 0.0);
                assert_eq!(a.scores_any(w, whole), any, "{w:?} {whole}");
                assert_eq!(b.scores_any(w, whole), any, "{w:?} {whole}");
                for part in [
                    Part::Title,
                    Part::Abstract,
                    Part::Authors,
                    Part::Venue,
                    Part::Keywords,
                    Part::Categories,
                ] {
                    let ws = [w.clone()];
                    assert_eq!(
                        a.papers_with(part, &ws, whole, n),
                        b.papers_with(part, &ws, whole, n),
                        "{w:?} {part:?}"
                    );
                }
            }
            let (mut x, mut y) = (vec![0.0; n / 2], vec![0.0; n / 2]);
            a.add_scores_from(w, false, n / 3, &mut x);
            b.add_scores_from(w, false, n / 3, &mut y);
            assert_eq!(bits(&x), bits(&y), "{w:?} from");
            assert_eq!(a.document_frequency(w), b.document_frequency(w), "{w:?}");
            let (mut x, mut y) = (vec![0.0; n], vec![0.0; n]);
            a.add_word_weights(w, 0.7, &mut x);
            b.add_word_weights(w, 0.7, &mut y);
            assert_eq!(bits(&x), bits(&y), "{w:?} weights");
            assert_eq!(a.papers_with_id(w, n), b.papers_with_id(w, n), "{w:?} id");
        }
        for (lo, hi) in [(2000, 2010), (i32::MIN, 1999), (2020, i32::MAX), (0, 0)] {
            assert_eq!(a.papers_in_years(lo, hi, n), b.papers_in_years(lo, hi, n));
        }
        for df in [0, 1, 7, n] {
            assert_eq!(a.idf(df).to_bits(), b.idf(df).to_bits());
        }
    }

    #[test]
    fn a_read_back_index_answers_as_the_index_built() {
        for name in CORPORA {
            let built = index_papers(&corpus(name));
            assert!(built.vocabulary() > 100, "{name}");
            let bytes = write(&built);
            let back = read(bytes.clone());
            let probes = probes(&built);
            same(&built, &back, &probes);
            // Written again, the same bytes.
            assert_eq!(write(&back), bytes, "{name}");
            // Kept where it lies: nothing of it on the heap.
            assert_eq!(back.heap_bytes(), 0, "{name}");
            assert!(back.shared_bytes() + 512 > bytes.len(), "{name}");
            // Unaligned bytes are copied, and answer the same.
            let copied = askew(&bytes);
            assert!(copied.heap_bytes() > 0);
            same(&built, &copied, &probes);
            // From a memory map.
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("words");
            std::fs::write(&path, &bytes).unwrap();
            let file = std::fs::File::open(&path).unwrap();
            let map = crate::sys::map(&file).unwrap();
            let mapped = WordIndex::from_bytes(Arc::new(map)).unwrap();
            assert_eq!(mapped.heap_bytes(), 0);
            same(&built, &mapped, &probes);
        }
    }

    fn index_of(papers: &[Paper], first: usize) -> WordIndex {
        let abstracts: Vec<Abstract> = papers.iter().map(|p| p.abstract_text.clone()).collect();
        let metas: Vec<DocMeta> = papers.iter().map(doc_meta).collect();
        index_piece(
            first as u32,
            &metas,
            &abstracts,
            1,
            &|| false,
            &WordIndex::default(),
        )
        .unwrap()
    }

    #[test]
    fn a_read_back_index_grows_as_the_index_built() {
        let papers = corpus("bib_mendeley_export_512.bib");
        let whole = index_papers(&papers);
        let half = papers.len() / 2;
        let mut grown = read(write(&index_of(&papers[..half], 0)));
        grown.append_expecting(index_of(&papers[half..], half), papers.len());
        same(&whole, &grown, &probes(&whole));
        // Papers added one by one to a read-back index.
        let mut added = read(write(&index_of(&papers[..half], 0)));
        for (i, p) in papers.iter().enumerate().skip(half) {
            let meta = doc_meta(p);
            let text = crate::text::markup::plain_cow(p.abstract_text.text().as_ref()).into_owned();
            added.add(i as u32, &meta, &text);
        }
        same(&whole, &added, &probes(&whole));
        // A read-back index appended to another.
        let mut front = index_of(&papers[..half], 0);
        front.append(read(write(&index_of(&papers[half..], half))));
        same(&whole, &front, &probes(&whole));
    }

    /// The abstracts of the JSON Lines file at `path`, each left in the
    /// file as a loader leaves a plain one (see `Abstract::Json`).
    fn left_in_file(path: &std::path::Path) -> Vec<Abstract> {
        use std::collections::HashMap;
        let body = std::fs::read_to_string(path).unwrap();
        let file = std::fs::File::open(path).unwrap();
        let handle = crate::corpus::abstracts::FileText::open(&file, path).unwrap();
        let mut out = Vec::new();
        let mut at = 0;
        for line in body.split_inclusive('\n') {
            let fields: HashMap<&str, &serde_json::value::RawValue> =
                serde_json::from_str(line).unwrap();
            let raw = fields["abstract"].get();
            out.push(Abstract::Json {
                file: handle.clone(),
                at: (at + raw.as_ptr() as usize - line.as_ptr() as usize) as u64,
                len: raw.len() as u32,
                words: None,
            });
            at += line.len();
        }
        out
    }

    /// How many of `abstracts` are read as written.
    fn written(abstracts: &[Abstract]) -> usize {
        let mut n = 0;
        crate::corpus::abstracts::for_each_read(abstracts, |_, r| {
            n += usize::from(matches!(r, crate::corpus::abstracts::Read::Written(_)));
            true
        });
        n
    }

    /// Whole, and for queries' prefixes: an index that read `abstracts`
    /// as written in their file answers as one that decoded them.
    fn read_as_written_as_decoded(abstracts: &[Abstract]) {
        let metas: Vec<DocMeta> = (0..abstracts.len())
            .map(|i| DocMeta {
                title: format!("Paper {i}").into(),
                ..Default::default()
            })
            .collect();
        let blanks = [
            WordIndex::default(),
            WordIndex::keeping(vec!["sp".into(), "att".into()]),
            WordIndex::keeping(vec!["n".into(), "t".into(), "r".into()]),
            WordIndex::keeping((b'a'..=b'z').map(|c| (c as char).to_string()).collect()),
        ];
        for blank in &blanks {
            let mut decoded = blank.empty_like();
            // An abstract that cannot be read (a blank one) is passed
            // over, as the index passes it over.
            for (i, a) in abstracts.iter().enumerate() {
                if let Ok(text) = a.read() {
                    let text = crate::text::markup::plain_cow(&text).into_owned();
                    decoded.add(i as u32, &metas[i], &text);
                }
            }
            let built = index_piece(0, &metas, abstracts, 2, &|| false, blank).unwrap();
            let mut probes = probes(&decoded);
            probes.extend(["n", "t", "r", "nwe", "tthe"].map(String::from));
            same(&built, &decoded, &probes);
        }
    }

    #[test]
    fn abstracts_read_as_written_index_as_their_text() {
        let path = format!(
            "{}/../tests/data/corpora/arxiv-snapshot_wanng-ide.jsonl",
            env!("CARGO_MANIFEST_DIR")
        );
        let abstracts = left_in_file(path.as_ref());
        // Most abstracts of the snapshot are read as written, each with
        // `\n` escapes (the others have TeX); a test over none would
        // prove nothing.
        let n = written(&abstracts);
        assert!(n * 2 > abstracts.len(), "{n} of {}", abstracts.len());
        read_as_written_as_decoded(&abstracts);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Abstracts of every kind of escape, markup and case, words
        /// across the 64-byte blocks the index reads at once: read as
        /// written, they index as their text. The clean ones (a word,
        /// then words without `h`, so no `http`, escapes and punctuation
        /// that is not markup) are all read as written;
        /// the others hold markup and backslashes too, and most are not.
        #[test]
        fn any_abstract_read_as_written_indexes_as_its_text(
            clean in proptest::collection::vec(
                "[A-Za-z0-9]{1,9}([A-Za-gi-z0-9]{1,70}|[ ,.:()]|[\\n\\t\\r\"/]|\\n[a-z]{1,3}){0,30}",
                1..8,
            ),
            other in proptest::collection::vec(
                "([A-Za-z0-9]{1,70}|[ ,.'$_-]|[\\n\\t\\r\"/\\\\]|\\\\n[a-z]{1,3}|http){0,30}",
                0..6,
            ),
            slashes in any::<bool>(),
        ) {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("a.jsonl");
            let mut body = String::new();
            for a in clean.iter().chain(&other) {
                let mut raw = serde_json::to_string(a).unwrap();
                if slashes {
                    raw = raw.replace('/', "\\/");
                }
                body.push_str(&format!("{{\"abstract\": {raw}}}\n"));
            }
            std::fs::write(&path, body).unwrap();
            let abstracts = left_in_file(&path);
            prop_assert!(written(&abstracts) >= clean.len());
            read_as_written_as_decoded(&abstracts);
        }
    }

    /// A real index's bytes, for corrupting.
    fn real() -> &'static (Vec<u8>, Vec<String>) {
        static REAL: OnceLock<(Vec<u8>, Vec<String>)> = OnceLock::new();
        REAL.get_or_init(|| {
            let ix = index_papers(&corpus("ris_zotero_100.ris"));
            (write(&ix), probes(&ix))
        })
    }

    /// Asks `ix` everything, for papers beyond it too.
    fn exercise(ix: &WordIndex, probes: &[String]) {
        let n = ix.indexed.min(1000) + 3;
        for w in probes.iter().step_by(5) {
            let mut s = vec![0.0; n];
            ix.add_scores(w, false, &mut s);
            ix.add_scores(w, true, &mut s);
            ix.add_scores_from(w, false, 2, &mut s[..n / 2]);
            ix.add_word_weights(w, 1.0, &mut s);
            let _ = ix.document_frequency(w);
            let _ = ix.papers_with(Part::Authors, std::slice::from_ref(w), false, n);
            let _ = ix.papers_with_id(w, n);
        }
        let _ = ix.papers_in_years(1990, 2030, n);
        let _ = (ix.vocabulary(), ix.heap_bytes(), ix.idf(3));
        let mut again = Vec::new();
        let _ = ix.write_to(&mut again);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn flipped_bytes_never_panic(
            flips in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6)
        ) {
            let (bytes, probes) = real();
            let mut bytes = bytes.clone();
            for (at, b) in flips {
                let i = at.index(bytes.len());
                bytes[i] ^= b | 1;
            }
            if let Ok(ix) = WordIndex::from_bytes(Arc::new(bytes)) {
                exercise(&ix, probes);
            }
        }

        #[test]
        fn a_truncated_index_is_an_error(at in any::<prop::sample::Index>()) {
            let (bytes, _) = real();
            let cut = bytes[..at.index(bytes.len())].to_vec();
            prop_assert!(WordIndex::from_bytes(Arc::new(cut)).is_err());
        }

        #[test]
        fn random_bytes_never_panic(
            tail in proptest::collection::vec(any::<u8>(), 0..600),
            header in any::<bool>(),
        ) {
            let (real, probes) = real();
            let mut bytes = if header { real[..crate::search::words::frozen::HEADER_BYTES].to_vec() } else { Vec::new() };
            bytes.extend(tail);
            if let Ok(ix) = WordIndex::from_bytes(Arc::new(bytes)) {
                exercise(&ix, probes);
            }
        }

        #[test]
        fn random_word_sets_read_back_as_built(
            docs in proptest::collection::vec(
                (
                    proptest::collection::vec("[a-cé]{1,3}", 0..4),
                    proptest::collection::vec("[a-dÆ]{1,4}", 0..12),
                    proptest::collection::vec("[A-Cb]{1,3}", 0..3),
                    0i32..3000,
                ),
                0..40,
            )
        ) {
            let mut built = WordIndex::default();
            for (i, (t, a, au, y)) in docs.iter().enumerate() {
                let meta = DocMeta {
                    title: t.join(" ").into(),
                    authors: au.join(", ").into(),
                    venue: a.first().cloned().unwrap_or_default().into(),
                    id: format!("X:{}", t.concat()).into(),
                    year: (*y > 10).then_some(*y),
                    keywords: a.iter().rev().take(2).cloned().collect(),
                    categories: t.iter().take(2).map(|w| format!("{w}.Q")).collect(),
                };
                built.add(i as u32, &meta, &a.join(" "));
            }
            let mut probes = probes(&built);
            probes.extend(["a", "b", "c", "d", "e", "ae", "x:"].map(String::from));
            let back = read(write(&built));
            same(&built, &back, &probes);
            same(&built, &askew(&write(&built)), &probes);
        }
    }

    fn ranked(papers: &[Paper], items: &Items, q: &Query, ix: &WordIndex) -> Vec<(u32, u64)> {
        let _ = papers;
        let texts = crate::search::phrase::Texts::None;
        rank_items(items, q, Scope::All, (ix, &Labels::default(), &texts))
            .matches
            .iter()
            .map(|m| (m.idx, m.key))
            .collect()
    }

    /// A query of words the corpus holds (some cut short, some in field
    /// atoms, negated or in a `|` group).
    fn query_of(words: &[String], picks: &[(prop::sample::Index, u8, u8)]) -> String {
        let mut q = Vec::new();
        for (at, cut, kind) in picks {
            let w = &words[at.index(words.len())];
            let keep = 1 + (*cut as usize) % w.chars().count().max(1);
            let w: String = w.chars().take(keep).collect();
            q.push(match kind % 10 {
                0 => format!("author:{w}"),
                1 => format!("abs:{w}"),
                2 => format!("title:{w}"),
                3 => format!("venue:{w}"),
                4 => format!("!{w}"),
                5 => format!("{w} | abs:'{w}"),
                6 => "year:2000..2020".to_string(),
                _ => w,
            });
        }
        q.join(" ")
    }

    /// Papers, their whole index, and words of it.
    type Ranked = (Vec<Paper>, WordIndex, Vec<String>);

    fn ranking_corpora() -> &'static Vec<Ranked> {
        static ALL: OnceLock<Vec<Ranked>> = OnceLock::new();
        ALL.get_or_init(|| {
            [
                "arxiv-snapshot_wanng-ide.jsonl",
                "bib_zotero_bbt_papers3_3725.bib",
            ]
            .iter()
            .map(|name| {
                let papers = corpus(name);
                let ix = index_papers(&papers);
                let words: Vec<String> = probes(&ix)
                    .into_iter()
                    .filter(|w| w.chars().count() > 2)
                    .collect();
                (papers, ix, words)
            })
            .collect()
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        #[test]
        fn an_index_for_one_query_ranks_as_the_whole_index(
            which in 0usize..2,
            picks in proptest::collection::vec(
                (any::<prop::sample::Index>(), any::<u8>(), any::<u8>()), 1..4
            ),
            batch in 1usize..3000,
            as_parsed in any::<u64>(),
        ) {
            let (papers, whole, words) = &ranking_corpora()[which];
            let q = query_of(words, &picks);
            let query = Query::parse(&q);
            let items = Items::build(papers, 1, |p| &p.title);
            let only = index_papers_for(papers, &query);
            prop_assert!(only.vocabulary() <= whole.vocabulary());
            let want = ranked(papers, &items, &query, whole);
            prop_assert_eq!(&ranked(papers, &items, &query, &only), &want, "{}", q);
            // Built a batch at a time, as `search` builds it while the
            // papers stream by: each batch's words indexed where it was
            // parsed, or gathered (a bit of `as_parsed` a batch).
            let mut streamed = crate::search::QueryIndex::new(&query);
            let blank = streamed.blank();
            for (k, part) in papers.chunks(batch).enumerate() {
                let words = (as_parsed >> (k % 64) & 1 == 1)
                    .then(|| crate::search::index_parsed(part, &blank, None));
                streamed.add(part, words);
            }
            let streamed = streamed.finish();
            prop_assert_eq!(streamed.indexed, papers.len());
            // A word looked for by its typos needs them posted: `search`
            // then ranks whole papers (as above).
            let typos = crate::search::needs_typos(&streamed, &query);
            if !typos {
                prop_assert_eq!(&ranked(papers, &items, &query, &streamed), &want, "{} by {}", q, batch);
            }
        }
    }
}

#[test]
fn room_is_taken_once_for_the_length_likely_and_never_crept_up_to() {
    // Told the final length well ahead: one allocation, of that length.
    let mut v: Vec<u32> = Vec::new();
    let mut grown = 0;
    for _ in 0..100 {
        let cap = v.capacity();
        super::room(&mut v, 1000, 100_000);
        v.extend(std::iter::repeat_n(7, 1000));
        grown += usize::from(v.capacity() != cap);
    }
    assert_eq!((grown, v.capacity()), (1, 100_000));
    // An estimate a little ahead each time (as one that creeps up, or
    // one too low): grown as a vector grows, a few times in all.
    let mut v: Vec<u32> = Vec::new();
    let mut grown = 0;
    for _ in 0..1000 {
        let cap = v.capacity();
        let likely = (v.len() + 1000) * 102 / 100;
        super::room(&mut v, 1000, likely);
        v.extend(std::iter::repeat_n(7, 1000));
        grown += usize::from(v.capacity() != cap);
    }
    assert!(grown <= 12, "grown {grown} times for 1000 appends");
}
