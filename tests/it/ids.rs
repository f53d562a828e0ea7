//! One paper, one id: LoRA (arXiv 2106.09685, DOI
//! 10.48550/arXiv.2106.09685) written the way each format writes it gets
//! `arxiv:2106.09685` from every reader, so its marks and its place in a
//! merged list do not depend on the file it came in.

use crate::common;

use std::sync::Arc;

use paperboat::corpus::{PaperId, Parsed, atom, bibtex, csv, json, ris};

const TITLE: &str = "LoRA: Low-Rank Adaptation of Large Language Models";
const ABSTRACT: &str =
    "We propose Low-Rank Adaptation, or LoRA, which freezes the pre-trained model weights.";

/// Each format's file, as its usual writer makes it.
fn files() -> Vec<(&'static str, Parsed)> {
    vec![
        (
            "BibTeX with eprint",
            bibtex::parse(&format!(
                "@misc{{hu2021lora,\n  title = {{{TITLE}}},\n  author = {{Hu, Edward J. and Shen, Yelong}},\n  year = {{2021}},\n  eprint = {{2106.09685}},\n  archivePrefix = {{arXiv}},\n  primaryClass = {{cs.CL}},\n  abstract = {{{ABSTRACT}}},\n}}\n"
            )),
        ),
        (
            "BibTeX with only a URL",
            bibtex::parse(&format!(
                "@article{{hu2021lora,\n  title = {{{TITLE}}},\n  author = {{Hu, Edward J. and Shen, Yelong}},\n  year = {{2021}},\n  url = {{http://arxiv.org/abs/2106.09685}},\n}}\n"
            )),
        ),
        (
            "RIS",
            ris::parse(&format!(
                "TY  - PREPRINT\r\nTI  - {TITLE}\r\nAU  - Hu, Edward J.\r\nAU  - Shen, Yelong\r\nAB  - {ABSTRACT}\r\nDA  - 2021/06/17/\r\nPY  - 2021\r\nDO  - 10.48550/arXiv.2106.09685\r\nUR  - http://arxiv.org/abs/2106.09685\r\nER  - \r\n"
            )),
        ),
        (
            "arXiv snapshot JSON line",
            json::parse(&format!(
                "{{\"id\":\"2106.09685\",\"submitter\":\"Edward J. Hu\",\"authors\":\"Edward J. Hu, Yelong Shen\",\"title\":\"{TITLE}\",\"doi\":null,\"abstract\":\"  {ABSTRACT}\\n\",\"versions\":[{{\"version\":\"v1\",\"created\":\"Thu, 17 Jun 2021 17:37:18 GMT\"}},{{\"version\":\"v2\",\"created\":\"Sat, 16 Oct 2021 18:40:34 GMT\"}}],\"update_date\":\"2021-10-19\",\"authors_parsed\":[[\"Hu\",\"Edward J.\",\"\"],[\"Shen\",\"Yelong\",\"\"]]}}\n"
            )),
        ),
        (
            "Atom entry",
            atom::parse(&format!(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\" xmlns:arxiv=\"http://arxiv.org/schemas/atom\">\n<entry>\n<id>http://arxiv.org/abs/2106.09685v2</id>\n<published>2021-06-17T17:37:18Z</published>\n<title>{TITLE}</title>\n<summary>{ABSTRACT}</summary>\n<author><name>Edward J. Hu</name></author>\n<arxiv:doi>10.48550/arXiv.2106.09685</arxiv:doi>\n<link href=\"http://arxiv.org/abs/2106.09685v2\" rel=\"alternate\" type=\"text/html\"/>\n<link title=\"pdf\" href=\"http://arxiv.org/pdf/2106.09685v2\" rel=\"related\" type=\"application/pdf\"/>\n</entry>\n</feed>\n"
            )),
        ),
        (
            "CSL-JSON as Zotero writes it",
            json::parse(&format!(
                "[\n\t{{\n\t\t\"id\": \"http://zotero.org/users/local/kZ4cR1uB/items/7XQ2ZJ9M\",\n\t\t\"type\": \"article\",\n\t\t\"abstract\": \"{ABSTRACT}\",\n\t\t\"DOI\": \"10.48550/arXiv.2106.09685\",\n\t\t\"note\": \"arXiv:2106.09685 [cs]\",\n\t\t\"number\": \"arXiv:2106.09685\",\n\t\t\"publisher\": \"arXiv\",\n\t\t\"source\": \"arXiv.org\",\n\t\t\"title\": \"{TITLE}\",\n\t\t\"URL\": \"http://arxiv.org/abs/2106.09685\",\n\t\t\"author\": [{{\"family\": \"Hu\", \"given\": \"Edward J.\"}}, {{\"family\": \"Shen\", \"given\": \"Yelong\"}}],\n\t\t\"accessed\": {{\"date-parts\": [[\"2024\", 1, 5]]}},\n\t\t\"issued\": {{\"date-parts\": [[\"2021\", 10, 16]]}}\n\t}}\n]\n"
            )),
        ),
        (
            "CSL-JSON as Zotero writes it, without a DOI",
            json::parse(&format!(
                "[{{\"id\": \"http://zotero.org/users/local/kZ4cR1uB/items/7XQ2ZJ9M\", \"type\": \"article\", \"abstract\": \"{ABSTRACT}\", \"number\": \"arXiv:2106.09685\", \"title\": \"{TITLE}\", \"URL\": \"http://arxiv.org/abs/2106.09685\", \"issued\": {{\"date-parts\": [[\"2021\", 10, 16]]}}}}]"
            )),
        ),
        (
            "Semantic Scholar JSON",
            json::parse(&format!(
                "{{\"data\": [{{\"paperId\": \"a8ca46b171467ceb2d7652fbfb67fe701ad86092\", \"externalIds\": {{\"DBLP\": \"journals/corr/abs-2106-09685\", \"ArXiv\": \"2106.09685\", \"DOI\": \"10.48550/arXiv.2106.09685\", \"CorpusId\": 235458009}}, \"url\": \"https://www.semanticscholar.org/paper/a8ca46b171467ceb2d7652fbfb67fe701ad86092\", \"title\": \"{TITLE}\", \"abstract\": \"{ABSTRACT}\", \"venue\": \"International Conference on Learning Representations\", \"year\": 2021, \"authors\": [{{\"authorId\": \"2157840220\", \"name\": \"J. E. Hu\"}}]}}]}}"
            )),
        ),
        (
            "CSV",
            csv::parse(
                &format!(
                    "Title,Authors,Year,DOI,URL,Abstract\n\"{TITLE}\",\"Hu, Edward J.; Shen, Yelong\",2021,10.48550/arXiv.2106.09685,https://arxiv.org/abs/2106.09685,\"{ABSTRACT}\"\n"
                ),
                b',',
            ),
        ),
    ]
}

#[test]
fn every_format_gives_lora_its_arxiv_id() {
    let files = files();
    assert_eq!(files.len(), 9);
    let list: Arc<str> = "list".into();
    for (format, parsed) in files {
        assert!(parsed.skipped.is_empty(), "{format}: {:?}", parsed.skipped);
        assert_eq!(parsed.records.len(), 1, "{format}: {:?}", parsed.records);
        let record = parsed.records.into_iter().next().unwrap();
        let paper = record.into_paper(&list, 0).unwrap();
        assert_eq!(paper.id.as_str(), "arxiv:2106.09685", "{format}");
        assert_eq!(paper.title, TITLE, "{format}");
    }
}

#[test]
fn zotero_papers_remember_the_id_they_had() {
    let list: Arc<str> = "list".into();
    let paper = |format: &str| {
        let (_, parsed) = files().into_iter().find(|(f, _)| *f == format).unwrap();
        let record = parsed.records.into_iter().next().unwrap();
        record.into_paper(&list, 0).unwrap()
    };
    // With arXiv's DOI, the paper was known by it.
    let with_doi = paper("CSL-JSON as Zotero writes it");
    assert_eq!(
        with_doi.former_id,
        Some(PaperId::parse("doi:10.48550/arxiv.2106.09685"))
    );
    // Without, by the hash of its title and abstract.
    let without = paper("CSL-JSON as Zotero writes it, without a DOI");
    let former = without.former_id.expect("a former id");
    assert!(former.is_hash(), "{former}");
    assert_eq!(
        former,
        PaperId::from_hash(paperboat::corpus::content_hash(Some(TITLE), ABSTRACT))
    );
    // Formats whose reader always read the arXiv id have none.
    for format in ["BibTeX with eprint", "RIS", "Semantic Scholar JSON", "CSV"] {
        assert_eq!(paper(format).former_id, None, "{format}");
    }
}

#[test]
fn marks_saved_under_the_old_id_follow_a_zotero_paper_to_its_arxiv_id() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    std::fs::create_dir(&state).unwrap();
    let old = PaperId::from_hash(paperboat::corpus::content_hash(Some(TITLE), ABSTRACT));
    // What an earlier paperboat saved for the paper: bookmarked and read,
    // under the hash id it gave a CSL-JSON paper.
    std::fs::write(
        state.join("state.json"),
        format!(
            "{{\"version\": 1, \"papers\": {{\"{old}\": {{\"bookmark\": {{\"on\": true, \"at\": \"2026-12-01T10:00:00.000Z\"}}, \"read\": {{\"on\": true, \"at\": \"2026-12-01T10:00:01.000Z\"}}}}}}}}"
        ),
    )
    .unwrap();
    let file = dir.path().join("zotero.json");
    std::fs::write(
        &file,
        format!(
            "[{{\"id\": \"http://zotero.org/users/local/kZ4cR1uB/items/7XQ2ZJ9M\", \"type\": \"article\", \"abstract\": \"{ABSTRACT}\", \"number\": \"arXiv:2106.09685\", \"title\": \"{TITLE}\", \"URL\": \"http://arxiv.org/abs/2106.09685\"}}]"
        ),
    )
    .unwrap();
    let out = common::run(&["list", file.to_str().unwrap()], None, &state);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(stdout, format!("arxiv:2106.09685\tbr\t{TITLE}\n"));
    // The new id holds the marks in the file now, and the old one still
    // has them for an older paperboat.
    let saved = std::fs::read_to_string(state.join("state.json")).unwrap();
    assert!(saved.contains("arxiv:2106.09685"), "{saved}");
    assert!(saved.contains(old.as_str()), "{saved}");
    // A second run finds the marks where they are, and changes nothing.
    let again = common::run(&["list", file.to_str().unwrap()], None, &state);
    assert_eq!(String::from_utf8_lossy(&again.stdout), stdout);
    assert_eq!(
        std::fs::read_to_string(state.join("state.json")).unwrap(),
        saved
    );
}
