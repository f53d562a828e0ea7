//! JSON Lines read for titles and ids alone (what `paperboat search`
//! prints): only the fields a paper's title, id and abstract come from are
//! read; authors, years and venues are passed over unread, which on the
//! arXiv snapshot is half of the parsing. A paper whose id would be a hash
//! of its text needs those too (its [`Variant`](crate::corpus::Variant)),
//! so it is read whole, and so is any line this reading refuses: the
//! outcome is always [`parse_line_deferring`]'s as far as titles and ids go.

use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, Visitor};

use super::lenient::{ExternalIds, MaybePlain, ObjectKey, Text, Urls, first_abstract, first_text};
use super::lines::parse_line_deferring;
use super::record::{Ids, field_of, ids, urls};
use crate::corpus::json_string::Plain;
use crate::corpus::{PaperId, Record};

/// [`parse_line_deferring`] for a reader that keeps only titles and ids:
/// the record has the same title, abstract, arXiv id and DOI (and so makes
/// a paper with the same id and title), but may lack the other fields.
pub fn parse_line_titles(
    line: &str,
    line_no: usize,
) -> Result<Option<(Record, Option<Plain<'_>>)>, String> {
    let line = line.strip_prefix('\u{FEFF}').unwrap_or(line);
    let trimmed = line.trim();
    if trimmed.is_empty() {
        return Ok(None);
    }
    if trimmed.starts_with('{')
        && let Ok(found) = serde_json::from_str::<TitleRecord>(trimmed)
        && let Some(found) = found.into_record(line_no)
    {
        return Ok(Some(found));
    }
    parse_line_deferring(line, line_no)
}

/// The fields of a paper object that its title, abstract and ids come
/// from (see `JsonRecord`, whose field names these are).
#[derive(Default)]
struct TitleRecord<'a> {
    id: Text<'a>,
    explicit: [Text<'a>; 3],
    external_ids: ExternalIds<'a>,
    dois: [Text<'a>; 2],
    titles: [Text<'a>; 3],
    abstract_text: MaybePlain<'a, false>,
    abstracts: [Text<'a>; 4],
    number: Text<'a>,
    urls: [Urls<'a>; 7],
}

/// What a key of a paper object is to a [`TitleRecord`]: a field it
/// reads, one it passes over, or one of neither (any other key).
enum KeyRole {
    Id,
    Explicit(usize),
    ExternalIds,
    Doi(usize),
    Title(usize),
    Abstract,
    OtherAbstract(usize),
    Number,
    Url(usize),
    /// A field that `JsonRecord` reads and this passes over.
    Unread,
}

impl KeyRole {
    /// The field `JsonRecord`'s field `f` (its place in its `FIELDS`)
    /// is here.
    fn of(f: usize) -> KeyRole {
        use KeyRole::*;
        match f {
            0 => Id,
            1..=3 => Explicit(f - 1),
            4 => ExternalIds,
            5 | 6 => Doi(f - 5),
            7 | 8 => Title(f - 7),
            41 => Title(2),
            9 => Abstract,
            10..=13 => OtherAbstract(f - 10),
            32 => Number,
            34..=40 => Url(f - 34),
            _ => Unread,
        }
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for TitleRecord<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(TitleVisitor(PhantomData))
    }
}

struct TitleVisitor<'a>(PhantomData<&'a ()>);

impl<'de: 'a, 'a> Visitor<'de> for TitleVisitor<'a> {
    type Value = TitleRecord<'a>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a paper object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<TitleRecord<'a>, A::Error> {
        let mut r = TitleRecord::default();
        let mut seen = 0u64;
        while let Some(ObjectKey(key)) = map.next_key::<ObjectKey<'a>>()? {
            let Some(f) = field_of(&key) else {
                map.next_value::<IgnoredAny>()?;
                continue;
            };
            // `JsonRecord` refuses a field given twice.
            if seen & (1 << f) != 0 {
                return Err(de::Error::custom("a field given twice"));
            }
            seen |= 1 << f;
            match KeyRole::of(f) {
                KeyRole::Id => r.id = map.next_value()?,
                KeyRole::Explicit(i) => r.explicit[i] = map.next_value()?,
                KeyRole::ExternalIds => r.external_ids = map.next_value()?,
                KeyRole::Doi(i) => r.dois[i] = map.next_value()?,
                KeyRole::Title(i) => r.titles[i] = map.next_value()?,
                KeyRole::Abstract => r.abstract_text = map.next_value()?,
                KeyRole::OtherAbstract(i) => r.abstracts[i] = map.next_value()?,
                KeyRole::Number => r.number = map.next_value()?,
                KeyRole::Url(i) => r.urls[i] = map.next_value()?,
                KeyRole::Unread => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(r)
    }
}

impl<'a> TitleRecord<'a> {
    /// The record and its plain abstract as written (see
    /// `JsonRecord::into_record_deferring`); `None` when its id would be a
    /// hash of its text.
    fn into_record(self, line: usize) -> Option<(Record, Option<Plain<'a>>)> {
        let [t0, t1, t2] = self.titles;
        let [e0, e1, e2] = self.explicit;
        let [d0, d1] = self.dois;
        let urls = urls(self.urls.each_ref());
        let Ids { arxiv, doi, id, .. } = ids(
            [e0, e1, e2, self.external_ids.arxiv],
            self.id,
            [d0, d1, self.external_ids.doi],
            self.number,
            &urls,
        );
        let given_id = id.as_deref().and_then(PaperId::exported);
        if arxiv.is_none() && doi.is_none() && given_id.is_none() {
            return None;
        }
        let (plain, first) = match self.abstract_text {
            MaybePlain::Plain(raw) => (Some(raw), Text::Missing),
            MaybePlain::Text(t) => (None, t),
        };
        let [a0, a1, a2, a3] = self.abstracts;
        let abstract_text = first_abstract([first, a0, a1, a2, a3]);
        let record = Record {
            title: first_text([t0, t1, t2]),
            abstract_text: abstract_text.filter(|_| plain.is_none()),
            arxiv,
            doi,
            line,
            given_id,
            ..Record::default()
        };
        Some((record, plain))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use proptest::prelude::*;

    use super::*;
    use crate::corpus::Paper;
    use crate::corpus::json_string::string_paragraphs;
    use crate::corpus::readers::json::record::tests::KEYS;

    /// What a titles-only reader keeps of a line read either way: the
    /// outcome, the record's title, abstract (decoded, deferred or not) and
    /// ids, and the paper's id, title and whether it has an abstract.
    fn kept(
        parsed: Result<Option<(Record, Option<Plain<'_>>)>, String>,
    ) -> Result<Option<String>, String> {
        let Some((mut r, plain)) = parsed? else {
            return Ok(None);
        };
        if let Some(plain) = plain {
            r.abstract_text = string_paragraphs(plain.raw);
        }
        // Whether the abstract came deferred is not compared: a bad
        // escape in a field the titles reader passes over (say a lone
        // surrogate in `authors_parsed`) makes the whole reading decode the
        // abstract at once, and the abstract read is the same either way.
        let fields = format!(
            "{:?} {:?} {:?} {:?} {}",
            r.title, r.abstract_text, r.arxiv, r.doi, r.line
        );
        let paper = r.into_paper(&Arc::from("list"), 0).map(|p: Paper| {
            (
                p.id,
                p.title,
                p.title_derived,
                p.abstract_text.is_empty(),
                p.variant.is_empty(),
            )
        });
        Ok(Some(format!("{fields} {paper:?}")))
    }

    fn same(line: &str) {
        assert_eq!(
            kept(parse_line_titles(line, 7)),
            kept(parse_line_deferring(line, 7)),
            "{line}"
        );
    }

    const ARXIV: &str = r#"{"id":"0704.0001","submitter":"P. N","authors":"C. Bal\\'azs, E. L. Berger","title":"Calculation of prompt\n  diphoton production","journal-ref":"Phys.Rev.D76:013009,2007","doi":"10.1103/PhysRevD.76.013009","abstract":"  A fully differential calculation\nin QCD.\n","versions":[{"version":"v1","created":"Mon, 2 Apr 2007 19:18:42 GMT"}],"update_date":"2008-11-26","authors_parsed":[["Bal\u00e1zs","C.",""],["Berger","E. L.",""]]}"#;

    #[test]
    fn an_arxiv_line_reads_as_a_whole_reading_does_without_the_rest() {
        same(ARXIV);
        let (r, plain) = parse_line_titles(ARXIV, 3).unwrap().unwrap();
        assert_eq!(
            r.title.as_deref(),
            Some("Calculation of prompt diphoton production")
        );
        assert_eq!(r.arxiv.as_deref(), Some("0704.0001"));
        assert!(plain.is_some_and(|p| p.raw.starts_with("\"  A fully")));
        // Passed over: the titles do not need them.
        assert!(r.authors.is_empty() && r.year.is_none() && r.venue.is_none());
    }

    #[test]
    fn lines_without_an_id_repeats_and_bad_lines_are_read_whole() {
        for line in [
            r#"{"title":"No id","abstract":"text","authors":"A B","year":2020}"#,
            r#"{"id":"0704.0001","title":"T","authors":"A","authors":"B"}"#,
            r#"{"id":"0704.0001","title":"T","title":"U"}"#,
            r#"{"id":"0704.0001","title":"T",}"#,
            r#"{"id":"0704.0001","title":"bad \q escape"}"#,
            r#"["not an object"]"#,
            "",
            "   ",
            "\u{FEFF}{\"arxiv\":\"2101.00001\",\"title\":\"x\"}",
            r#"{"number":"arXiv:2106.09685","title":"Zotero"}"#,
            r#"{"doi":"10.48550/arXiv.2106.09685","abstract":["", "derived title here. More."]}"#,
            r#"{"url":["https://arxiv.org/abs/2106.09685v2"],"Title":{"name":"S2"}}"#,
            r#"{"externalIds":{"ArXiv":"2106.09685","DOI":"10.1/x"},"title":null,"summary":"Only an abstract."}"#,
            // A bad escape where only the whole reading looks.
            r#"{"authors_parsed":"caf\u00e9 \ud800","arxiv_id":12,"abstract":"10.48550/arXiv.2106.09685"}"#,
        ] {
            same(line);
        }
    }

    /// Values of every shape a field meets.
    const VALUES: &[&str] = &[
        "null",
        "true",
        "12",
        "2020",
        "-3.5",
        "\"\"",
        "\"  \"",
        "\"0704.0001\"",
        "\"arXiv:2106.09685\"",
        "\"10.1103/PhysRevD.76.013009\"",
        "\"10.48550/arXiv.2106.09685\"",
        "\"https://arxiv.org/abs/2106.09685\"",
        "\"https://doi.org/10.1/abc\"",
        "\"A title\\n  on two lines\"",
        "\"Plain words. And more.\"",
        "\"caf\\u00e9 \\ud800\"",
        "\"tab\\there\"",
        "\"<b>bold</b> $x^2$\"",
        "[]",
        "[\"\", \"second\"]",
        "[[\"Last\",\"First\",\"\"]]",
        "{\"name\":\"Venue\"}",
        "{\"ArXiv\":\"2101.00002\"}",
        "{\"url\":\"https://x.org/a\"}",
        "[{\"created\":\"Mon, 2 Apr 2007\"}]",
        "{\"a\":[1,{}]}",
    ];

    fn line_of(fields: &[(usize, usize)]) -> String {
        let body: Vec<String> = fields
            .iter()
            .map(|&(k, v)| format!("\"{}\":{}", KEYS[k % KEYS.len()], VALUES[v % VALUES.len()]))
            .collect();
        format!("{{{}}}", body.join(","))
    }

    proptest! {
        #[test]
        fn reading_for_titles_keeps_what_a_whole_reading_does(
            fields in proptest::collection::vec((any::<usize>(), any::<usize>()), 0..8),
        ) {
            same(&line_of(&fields));
        }

        #[test]
        fn mutated_lines_read_for_titles_as_whole(
            edits in proptest::collection::vec((any::<usize>(), any::<u8>(), 0u8..3), 1..6),
        ) {
            let mut bytes = ARXIV.as_bytes().to_vec();
            crate::corpus::readers::mutate(&mut bytes, &edits);
            same(&String::from_utf8_lossy(&bytes));
        }

        #[test]
        fn any_text_reads_for_titles_as_whole(text in "[\\[\\]{}\",:0-9a-zA-Z \\n\\\\]{0,80}") {
            same(&text);
        }
    }
}
