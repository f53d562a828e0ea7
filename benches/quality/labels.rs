//! What a paper is known to be about, for the recommendation and topic
//! benches: the simulated readers like one label, and topics are matched
//! against the labels. A list whose papers give arXiv categories (in any
//! format) is labelled by archive, or by category when most of its papers
//! are in one archive (one archive's listing, as astro-ph's: its readers
//! like a category); any other list by its papers' venue, written
//! many ways in a real library ("CHI '09: Proceedings ...", "Proceedings
//! of the SIGCHI Conference on Human Factors ...") and brought together
//! into a family by the table [`FAMILIES`] below, the one place those
//! rules are written.

use std::collections::HashMap;

use paperboat::corpus::Paper;

/// A label readers can like has this many papers (with an abstract) or
/// more, or a quarter of a list of fewer than 80.
pub const MIN_LABEL: usize = 20;

/// Venue families: a venue belongs to the first family one of whose
/// phrases it holds, as whole words, once folded ([`fold`]: lower case,
/// every run of other than letters and digits one space). A venue no
/// phrase matches is a family of its own, folded as it is written. The
/// rows were written from the venues of the held-out lists
/// (`bib_zotero_bbt_papers3_3725`, `bib_jabref2.10_physics_916`), before
/// any figure was measured on them; their order matters where a venue
/// names another (UIST's early proceedings are "ACM SIGGRAPH symposium on
/// User interface software", a MobileHCI paper is tagged "(CHI 2008)").
pub const FAMILIES: &[(&str, &[&str])] = &[
    (
        "MobileHCI",
        &[
            "mobilehci",
            "mobile hci",
            "human computer interaction with mobile devices",
        ],
    ),
    ("UIST", &["uist", "user interface software and technology"]),
    (
        "CHI",
        &[
            "chi",
            "human factors in computing systems",
            "sigchi conference on human computer interaction",
        ],
    ),
    (
        "ACM TOG / SIGGRAPH",
        &["transactions on graphics", "tog", "siggraph"],
    ),
    ("ISWC (wearable computers)", &["iswc", "wearable computers"]),
    (
        "ICMI (multimodal interfaces)",
        &["icmi", "conference on multimodal interfaces"],
    ),
    (
        "TEI (tangible interaction)",
        &[
            "tei",
            "tangible and embedded interaction",
            "tangible embedded and embodied interaction",
        ],
    ),
    (
        "UbiComp",
        &["ubicomp", "conference on ubiquitous computing"],
    ),
    ("CSCW", &["cscw"]),
    ("IUI", &["iui", "conference on intelligent user interfaces"]),
    ("Physical Review B", &["physical review b", "phys rev b"]),
    (
        "Physica Status Solidi (a, b)",
        &["physica status solidi", "phys status solidi"],
    ),
    ("Journal de Physique", &["journal de physique"]),
    ("Solar Energy Materials", &["solar energy materials"]),
];

/// `text` lower-cased, every run of other than letters and digits one
/// space, a space either side (so that a phrase is found as whole words).
pub fn fold(text: &str) -> String {
    let mut out = String::from(" ");
    for c in text.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            out.push(c);
        } else if !out.ends_with(' ') {
            out.push(' ');
        }
    }
    if !out.ends_with(' ') {
        out.push(' ');
    }
    out
}

/// The family of a venue: [`FAMILIES`]' first match, else the venue
/// folded; `None` for a venue with no letter (`…`, `\ldots`).
pub fn family(venue: &str) -> Option<String> {
    let v = fold(venue);
    if !v.chars().any(char::is_alphabetic) || v.trim() == "ldots" {
        return None;
    }
    for (name, phrases) in FAMILIES {
        if phrases.iter().any(|p| v.contains(&format!(" {p} "))) {
            return Some((*name).to_string());
        }
    }
    Some(v.trim().to_string())
}

/// A list's labels.
pub struct Labels {
    /// What a label is: "archive" or "venue family".
    pub what: &'static str,
    /// By paper: every label it has (an arXiv paper's cross-lists too);
    /// empty when nothing is known of it.
    pub of: Vec<Vec<String>>,
    /// The labels of [`MIN_LABEL`] papers or more, largest first.
    pub liked: Vec<String>,
    /// By paper: the label topics are matched against (the primary
    /// archive; the family when readers can like it), `None` to leave
    /// the paper out of the match.
    pub primary: Vec<Option<String>>,
    /// By paper, arXiv lists labelled by archive alone: the primary
    /// category.
    pub fine: Option<Vec<Option<String>>>,
}

/// A labelled list: its name, its papers with an abstract (the others say
/// too little to be recommended or grouped by), their labels.
pub struct List {
    pub name: String,
    pub papers: Vec<Paper>,
    pub labels: Labels,
}

/// The list at `path`, or `None` when it cannot be read (said).
pub fn list(path: &str) -> Option<List> {
    let c = crate::load_or_say(path)?;
    let papers: Vec<Paper> = c
        .papers
        .into_iter()
        .filter(|p| !p.abstract_text.text().trim().is_empty())
        .collect();
    let labels = labels(&papers);
    Some(List {
        name: c.name,
        papers,
        labels,
    })
}

/// The labels of `papers`: by arXiv archive (or category) when they give
/// categories, else by venue family.
pub fn labels(papers: &[Paper]) -> Labels {
    let cats = |p: &Paper| p.more().categories.clone();
    let mut l = if papers.iter().all(|p| cats(p).is_empty()) {
        let of: Vec<Vec<String>> = papers
            .iter()
            .map(|p| p.venue.as_deref().and_then(family).into_iter().collect())
            .collect();
        Labels {
            what: "venue family",
            primary: of.iter().map(|f| f.first().cloned()).collect(),
            of,
            liked: Vec::new(),
            fine: None,
        }
    } else {
        let archive = |c: &str| c.split('.').next().unwrap_or(c).to_string();
        // Labelled by category where one archive holds most papers.
        let mut by_archive: HashMap<String, usize> = HashMap::new();
        for p in papers {
            if let Some(c) = cats(p).first() {
                *by_archive.entry(archive(c)).or_default() += 1;
            }
        }
        let listing = by_archive.values().any(|&k| 2 * k > papers.len());
        let label = |c: &str| if listing { c.to_string() } else { archive(c) };
        let of = papers
            .iter()
            .map(|p| {
                let mut a: Vec<String> = cats(p).iter().map(|c| label(c)).collect();
                a.sort();
                a.dedup();
                a
            })
            .collect();
        Labels {
            what: if listing { "category" } else { "archive" },
            of,
            liked: Vec::new(),
            primary: papers
                .iter()
                .map(|p| cats(p).first().map(|c| label(c)))
                .collect(),
            // By archive, the primary category too; a listing's labels
            // are its categories already.
            fine: (!listing).then(|| papers.iter().map(|p| cats(p).first().cloned()).collect()),
        }
    };
    let mut n: HashMap<&str, usize> = HashMap::new();
    for a in l.of.iter().flatten() {
        *n.entry(a).or_default() += 1;
    }
    let mut liked: Vec<(usize, String)> = n
        .into_iter()
        .filter(|&(_, k)| k >= MIN_LABEL.min(papers.len() / 4))
        .map(|(a, k)| (k, a.to_string()))
        .collect();
    liked.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    l.liked = liked.into_iter().map(|(_, a)| a).collect();
    if l.what == "venue family" {
        // A venue family topics are matched against is one readers can
        // like: hundreds of families of a paper or two say nothing of
        // how a list is grouped.
        for p in &mut l.primary {
            if p.as_ref().is_some_and(|f| !l.liked.contains(f)) {
                *p = None;
            }
        }
    }
    l
}

/// How many papers each label readers can like has, for the tables.
pub fn sizes(l: &Labels) -> String {
    l.liked
        .iter()
        .map(|a| {
            let n = l.of.iter().filter(|o| o.contains(a)).count();
            format!("{a} {n}")
        })
        .collect::<Vec<_>>()
        .join(", ")
}
