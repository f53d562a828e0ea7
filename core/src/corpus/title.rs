//! Deriving a short title from an abstract, for records that have none.
//!
//! The bundled lists are bare abstracts. A researcher scanning 3,000 of them
//! wants each row to say what the paper is, so the title is built the way a
//! reader would summarise it:
//!
//! 1. When the abstract names its contribution (`We present OrchJail, an …`,
//!    `We propose constrained projection policy optimization (CoPro)`,
//!    `**CausalArmor**`), the title starts with that name and its short
//!    description: `OrchJail: an orchestration-guided fuzzing framework …`.
//! 2. Otherwise the earliest contribution sentence (`We introduce a …`,
//!    `We study …`, `This paper investigates …`) gives its object,
//!    `Constructing a conformal prediction set …`.
//! 3. Otherwise a question the abstract asks, or its first sentence.
//!
//! The result is cut at a clause boundary to at most [`MAX_TITLE`]
//! characters, holds no markup, and depends on the abstract alone, so the
//! same abstract always gets the same title.

use crate::text::markup::{self, Emphasis, Rich};

/// Longest derived title, in characters.
pub const MAX_TITLE: usize = 100;
/// A title cut shorter than this at a clause boundary reads as a fragment.
const MIN_CUT: usize = 32;
/// A cut at a strong boundary this long is preferred to a longer cut at a
/// weaker one.
const GOOD_CUT: usize = 50;

/// Verbs that introduce what a paper contributes.
const PROPOSE: &[&str] = &[
    "propose",
    "introduce",
    "present",
    "develop",
    "design",
    "devise",
    "build",
    "construct",
    "create",
    "contribute",
    "offer",
    "formulate",
];
/// Verbs that introduce what a paper studies; the object is the topic.
const STUDY: &[&str] = &[
    "study",
    "investigate",
    "analyze",
    "analyse",
    "examine",
    "explore",
    "revisit",
    "characterize",
    "characterise",
    "consider",
    "address",
    "tackle",
    "reanalyze",
    "formalize",
];
/// Verbs whose object reads as a title once turned into a gerund.
const DO: &[(&str, &str)] = &[
    ("train", "Training"),
    ("use", "Using"),
    ("apply", "Applying"),
    ("leverage", "Leveraging"),
    ("evaluate", "Evaluating"),
    ("benchmark", "Benchmarking"),
    ("measure", "Measuring"),
    ("quantify", "Quantifying"),
    ("identify", "Identifying"),
    ("compare", "Comparing"),
    ("extend", "Extending"),
    ("learn", "Learning"),
];
/// Third-person verbs after `This paper`/`This work`.
const PAPER_VERBS: &[&str] = &[
    "proposes",
    "introduces",
    "presents",
    "develops",
    "studies",
    "investigates",
    "explores",
    "examines",
    "analyzes",
    "analyses",
    "revisits",
    "addresses",
    "considers",
    "describes",
    "tackles",
    "characterizes",
    "uncovers",
    "shows",
    "demonstrates",
    "reveals",
    "provides",
    "finds",
    "establishes",
];
/// Words that open a noun phrase rather than a name.
const DETERMINERS: &[&str] = &[
    "a", "an", "the", "this", "these", "that", "those", "our", "its", "their", "two", "three",
    "four", "several", "many", "some", "new", "novel", "such", "each", "both", "one", "all",
    "here", "we", "it", "in", "to", "how", "what", "why", "when",
];
/// Words a cut title must not end on.
const DANGLING: &[&str] = &[
    "a", "an", "the", "of", "in", "on", "for", "to", "with", "and", "or", "that", "which", "by",
    "via", "from", "into", "across", "at", "as", "its", "their", "our", "is", "are", "while",
    "where", "through", "using", "under", "over", "between", "both", "more", "than", "rather",
    "without", "within", "based", "such", "this", "these", "can", "be", "designed", "used",
    "aimed", "able", "respect", "order", "due",
];

/// A title is read from the start of an abstract: past this many bytes
/// (abstracts run to a few thousand) the rest is not looked at, so that a
/// huge one costs no more than a long one.
const MAX_READ: usize = 16 * 1024;

/// Derives a title from `abstract_text` (sanitized, possibly with markup).
pub fn derive(abstract_text: &str) -> String {
    let mut end = abstract_text.len().min(MAX_READ);
    while !abstract_text.is_char_boundary(end) {
        end -= 1;
    }
    // What the heuristics below read is bounded by this.
    crate::text::work::count(end);
    let rich = markup::render(&abstract_text[..end]);
    let text = rich.text.as_str();
    let sentences = sentences(text);
    let title = named(&rich, &sentences)
        .or_else(|| contribution(text, &sentences))
        .or_else(|| question(text, &sentences))
        .or_else(|| sentences.first().map(|s| first_sentence(&text[s.clone()])))
        .unwrap_or_default();
    let title = finish(&title, text);
    if title.is_empty() {
        finish(&cut(text), text)
    } else {
        title
    }
}

/// Byte ranges of the sentences of `text`.
fn sentences(text: &str) -> Vec<std::ops::Range<usize>> {
    const ABBREV: &[&str] = &[
        "e.g.", "i.e.", "al.", "vs.", "cf.", "fig.", "eq.", "approx.", "resp.", "etc.", "no.",
        "sec.", "ref.", "viz.", "et.",
    ];
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    // Where the last space before `i` is, and where the first character
    // that is not a space lies from some point on: each found once, not
    // searched for again from every sentence end.
    let mut word_start = 0;
    let mut next_at: Option<(usize, Option<char>)> = None;
    while i < bytes.len() {
        let b = bytes[i];
        let ends = matches!(b, b'.' | b'?' | b'!' | b'\n')
            && (i + 1 == bytes.len() || bytes[i + 1] == b' ' || b == b'\n');
        if ends {
            let next = match next_at {
                Some((at, c)) if at > i => c,
                _ => {
                    let rest = &text[i + 1..];
                    let lead = rest.len() - rest.trim_start().len();
                    let c = rest[lead..].chars().next();
                    next_at = Some((i + 1 + lead, c));
                    c
                }
            };
            // No abbreviation is longer than this.
            let word = if i + 1 - word_start <= 16 {
                text[word_start..=i].to_lowercase()
            } else {
                String::new()
            };
            let abbrev = ABBREV.contains(&word.as_str())
                || (word.len() == 2 && word.as_bytes()[0].is_ascii_alphabetic() && b == b'.');
            let continues = next.is_some_and(|c| c.is_lowercase());
            if b == b'\n' || (!abbrev && !continues) {
                let s = &text[start..=i];
                if !s.trim().is_empty() {
                    out.push(start..i + 1);
                }
                start = i + 1;
            }
        }
        if b == b' ' {
            word_start = i + 1;
        }
        i += 1;
    }
    if start < text.len() && !text[start..].trim().is_empty() {
        out.push(start..text.len());
    }
    // Trim leading spaces off each range.
    out.into_iter()
        .map(|r| {
            let lead = text[r.clone()].len() - text[r.clone()].trim_start().len();
            r.start + lead..r.end
        })
        .collect()
}

/// A word of a sentence with its byte range.
#[derive(Clone, Copy)]
struct Word<'a> {
    text: &'a str,
    start: usize,
    end: usize,
}

fn words(s: &str) -> Vec<Word<'_>> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in s.char_indices() {
        if c.is_whitespace() {
            if let Some(st) = start.take() {
                out.push(Word {
                    text: &s[st..i],
                    start: st,
                    end: i,
                });
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(st) = start {
        out.push(Word {
            text: &s[st..],
            start: st,
            end: s.len(),
        });
    }
    out
}

fn bare(word: &str) -> String {
    word.trim_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase()
}

/// Finds `we … <verb>` in a sentence: (verb, byte offset after the verb).
fn contribution_verb<'a>(sentence: &str, verbs: &[&'a str]) -> Option<(&'a str, usize)> {
    let ws = words(sentence);
    let we = ws.iter().position(|w| bare(w.text) == "we")?;
    for (k, w) in ws.iter().enumerate().skip(we + 1) {
        let b = bare(w.text);
        let Some(v) = verbs.iter().find(|v| **v == b) else {
            continue;
        };
        // "the method we propose is …" reads the other way round.
        let next = ws.get(k + 1).map(|n| bare(n.text)).unwrap_or_default();
        if matches!(next.as_str(), "is" | "are" | "was" | "were") {
            continue;
        }
        return Some((v, w.end));
    }
    None
}

/// The object after a verb: the rest of the sentence, trimmed.
fn object(sentence: &str, after: usize) -> &str {
    let o = sentence[after..].trim();
    let o = o.strip_prefix("here").map(str::trim_start).unwrap_or(o);
    let o = o.trim_start_matches([',', ':']).trim_start();
    o.trim_end_matches(['.', '!', '?']).trim_end()
}

fn is_determiner(w: &str) -> bool {
    DETERMINERS.contains(&bare(w).as_str())
}

/// A word that can be part of a name: it has a capital or a digit
/// (`OrchJail`, `DC-Leap`, `π-Distill`, `Entropy-based`, `TTC`).
fn name_word(w: &str) -> bool {
    let w = w.trim_matches(|c: char| !(c.is_alphanumeric() || c == '-'));
    !w.is_empty()
        && (w.chars().any(char::is_uppercase)
            || (w.chars().any(|c| c.is_ascii_digit()) && w.chars().any(char::is_alphabetic)))
}

/// A short identifier such as a paper gives its method: two capitals or a
/// digit (`CoPro`, `PSV`, `TaH`, `SpecFlow`, `GPT-4`).
fn strict_name(s: &str) -> bool {
    let s = s.trim();
    let words = s.split_whitespace().count();
    let caps = s.chars().filter(|c| c.is_uppercase()).count();
    let letters = s.chars().filter(|c| c.is_alphabetic()).count();
    (1..=3).contains(&words)
        && s.chars().count() <= 32
        && letters >= 2
        && (caps >= 2 || s.chars().any(|c| c.is_ascii_digit()))
        && !matches!(s.to_lowercase().as_str(), "i" | "ii" | "iii" | "iv")
}

/// Case A: `expansion (NAME)` or `a thing (namely, NAME: expansion)`.
fn paren_name(obj: &str) -> Option<String> {
    let open = obj.find('(')?;
    let pre = obj[..open].trim();
    let pre_words: Vec<&str> = pre.split_whitespace().collect();
    if pre_words.is_empty() || pre_words.len() > 8 || pre.contains([':', ';']) {
        return None;
    }
    let close = open + obj[open..].find(')')?;
    let inner = obj[open + 1..close].trim();
    let inner = [
        "namely,", "namely", "i.e.,", "called", "dubbed", "coined", "termed", "or",
    ]
    .iter()
    .find_map(|p| inner.strip_prefix(p))
    .unwrap_or(inner)
    .trim();
    let (name, expansion) = match inner.split_once(':') {
        Some((n, e)) => (n.trim(), Some(e.trim())),
        None => (inner, None),
    };
    if !strict_name(name) {
        return None;
    }
    let post = obj[close + 1..].trim_start_matches([',', ' ']).trim();
    let _ = expansion;
    // `an unsupervised framework (namely, RISE: …)`: the name labels the
    // phrase before it; `constrained projection … (CoPro)`: it abbreviates it.
    let head = if is_determiner(pre_words[0]) {
        if pre_words.len() > 6 {
            return None;
        }
        format!("{name}: {pre}")
    } else if pre.chars().next().is_some_and(char::is_uppercase) {
        format!("{pre} ({name})")
    } else {
        format!("{name}: {pre}")
    };
    Some(join_description(&head, post, true))
}

/// Joins a name (`head`) and what the sentence says next about it.
/// `described`: the head already says what the thing is (an expansion), so
/// a relative clause is extra and the cut may drop it.
fn join_description(head: &str, rest: &str, described: bool) -> String {
    let rest = rest
        .trim_start_matches([',', ':', ';', '—', '–', ' '])
        .trim();
    if rest.is_empty() {
        return head.to_string();
    }
    let sep = if head.contains(": ") { ", " } else { ": " };
    let first = bare(rest.split_whitespace().next().unwrap_or(""));
    match first.as_str() {
        "a" | "an" | "the" => format!("{head}{sep}{rest}"),
        "which" | "that" | "who" if described => format!("{head}, {rest}"),
        "which" | "that" | "who" => {
            let verb_phrase = rest.split_once(' ').map_or("", |x| x.1);
            format!("{head}{sep}{verb_phrase}")
        }
        "to" | "for" | "via" | "with" | "in" | "on" | "by" | "as" => format!("{head} {rest}"),
        _ if described => head.to_string(),
        _ => format!("{head}{sep}{rest}"),
    }
}

/// Case B: the object starts with a name (`OrchJail, an …`,
/// `Entropy-based TTC, which …`, `Continuized-HiPPO Operator.`).
fn leading_name(obj: &str) -> Option<(String, String)> {
    let ws = words(obj);
    let first = ws.first()?;
    if is_determiner(first.text) {
        return None;
    }
    let mut end_word = 0;
    let mut name_end = 0;
    for (k, w) in ws.iter().enumerate().take(5) {
        let t = w.text;
        let stop_after = t.ends_with([',', ':', ';', '.']);
        let core = t.trim_end_matches([',', ':', ';', '.']);
        if k > 0 && !name_word(core) && !matches!(core, "of" | "and" | "for" | "via" | "the" | "de")
        {
            break;
        }
        if !name_word(core) && k == 0 {
            return None;
        }
        if name_word(core) {
            end_word = k + 1;
            name_end = w.start + core.len();
        }
        if stop_after || t.contains('(') {
            break;
        }
    }
    if end_word == 0 {
        return None;
    }
    let name = obj[..name_end]
        .trim()
        .trim_end_matches(['(', ' '])
        .to_string();
    // `Confidence Region detection as …`: capitals that modify a noun are
    // not a name. A name is followed by punctuation or a linking word.
    let after = obj[name_end..].trim_start();
    let next = bare(after.split_whitespace().next().unwrap_or(""));
    let ends_cleanly = after.is_empty()
        || after.starts_with([',', ':', ';', '(', '.', '—', '–'])
        || matches!(
            next.as_str(),
            "which"
                | "that"
                | "to"
                | "for"
                | "as"
                | "a"
                | "an"
                | "the"
                | "is"
                | "with"
                | "and"
                | "in"
                | "on"
                | "by"
                | "via"
        );
    if !ends_cleanly {
        return None;
    }
    // A name is not a sentence: `Large Language Models (LLMs) show …`.
    if name.split_whitespace().count() > 4 || name.chars().count() > 40 {
        return None;
    }
    Some((name, obj[name_end..].to_string()))
}

/// Case C: a name given emphasis inside the object
/// (`a framework, **Foo**, that …`).
fn emphasized_name(rich: &Rich, obj_start: usize, obj: &str) -> Option<(String, String)> {
    let obj_end = obj_start + obj.len();
    for span in &rich.spans {
        if span.end <= obj_start || span.start >= obj_end {
            continue;
        }
        let emph = span.marks.has(Emphasis::BOLD)
            || span.marks.has(Emphasis::ITALIC)
            || span.marks.has(Emphasis::SMALLCAPS);
        if !emph {
            continue;
        }
        let s = span.start.max(obj_start);
        let e = span.end.min(obj_end);
        let name = rich.text[s..e].trim();
        if strict_name(name) || (name_word(name) && !name.contains(' ')) {
            let before = rich.text[obj_start..s]
                .trim_end()
                .trim_end_matches([',', '('])
                .trim_end();
            let before = ["called", "named", "dubbed", "termed", "namely"]
                .iter()
                .find_map(|w| before.strip_suffix(w))
                .unwrap_or(before)
                .trim_end()
                .trim_end_matches(',');
            let after = rich.text[e..obj_end].trim_start_matches([',', ')', ' ']);
            let desc = if before.is_empty() {
                after.to_string()
            } else {
                format!("{before} {after}")
            };
            return Some((name.to_string(), desc));
        }
    }
    None
}

/// The clause before `we propose` (`as the continuous limit of the HiPPO
/// Matrix, we propose …`), as a description.
fn leading_clause(sentence: &str) -> Option<String> {
    let we = sentence.to_lowercase().find("we ")?;
    let mut pre = sentence[..we].trim().trim_end_matches(',').trim();
    for opener in [
        "In this paper,",
        "In this work,",
        "Here,",
        "To this end,",
        "In this paper",
        "In this work",
    ] {
        if let Some(rest) = pre.strip_prefix(opener) {
            pre = rest.trim();
        }
    }
    let rest = pre.strip_prefix("as ")?;
    (!rest.is_empty()).then(|| rest.to_string())
}

/// Step 1: the first sentence that names its contribution.
fn named(rich: &Rich, sentences: &[std::ops::Range<usize>]) -> Option<String> {
    let text = rich.text.as_str();
    for range in sentences {
        let sentence = &text[range.clone()];
        let Some((_, after)) = contribution_verb(sentence, PROPOSE) else {
            continue;
        };
        let obj = object(sentence, after);
        let obj = cut_enumeration(obj);
        if obj.is_empty() {
            continue;
        }
        if let Some(t) = paren_name(obj) {
            return Some(t);
        }
        if let Some((name, rest)) = leading_name(obj) {
            let rest_trim = rest.trim_start_matches([',', ' ']);
            if rest_trim.is_empty() {
                return Some(match leading_clause(sentence) {
                    Some(clause) => format!("{name}: {clause}"),
                    None => name,
                });
            }
            return Some(join_description(&name, &rest, false));
        }
        let obj_start = obj.as_ptr() as usize - text.as_ptr() as usize;
        if let Some((name, desc)) = emphasized_name(rich, obj_start, obj) {
            return Some(join_description(&name, &desc, false));
        }
    }
    None
}

/// `… framework that (i) computes …` → `… framework that`.
fn cut_enumeration(obj: &str) -> &str {
    ["(i)", "(1)", "(a)"]
        .iter()
        .filter_map(|m| obj.find(m))
        .min()
        .map_or(obj, |p| obj[..p].trim_end())
}

/// Step 2: the earliest contribution or study sentence, as its object.
fn contribution(text: &str, sentences: &[std::ops::Range<usize>]) -> Option<String> {
    let do_verbs: Vec<&str> = DO.iter().map(|(v, _)| *v).collect();
    for range in sentences {
        let sentence = &text[range.clone()];
        if let Some(t) = this_paper(sentence) {
            return Some(t);
        }
        if let Some((_, after)) = contribution_verb(sentence, PROPOSE) {
            let obj = cut_enumeration(object(sentence, after));
            if !obj.is_empty() && !obj.starts_with("that ") {
                return Some(strip_to(obj));
            }
        }
        if let Some((_, after)) = contribution_verb(sentence, STUDY) {
            let obj = cut_enumeration(object(sentence, after));
            if !obj.is_empty() && !obj.starts_with("that ") {
                return Some(strip_problem(obj).to_string());
            }
        }
        if let Some((verb, after)) = contribution_verb(sentence, &do_verbs) {
            let obj = cut_enumeration(object(sentence, after));
            let gerund = DO.iter().find(|(v, _)| *v == verb).map(|(_, g)| *g)?;
            if !obj.is_empty() && !obj.starts_with("that ") && !obj.starts_with("this ") {
                return Some(format!("{gerund} {obj}"));
            }
        }
    }
    None
}

/// `to learn X` → `Learn X`; other objects unchanged.
fn strip_to(obj: &str) -> String {
    obj.strip_prefix("to ").unwrap_or(obj).to_string()
}

/// `the problem of constructing X` → `constructing X`.
fn strip_problem(obj: &str) -> &str {
    for p in [
        "the problem of ",
        "the question of ",
        "the task of ",
        "the challenge of ",
        "the issue of ",
    ] {
        if let Some(rest) = obj.strip_prefix(p) {
            return rest;
        }
    }
    obj
}

/// `This paper investigates X and uncovers Y` → `X`.
fn this_paper(sentence: &str) -> Option<String> {
    let lower = sentence.to_lowercase();
    let subject = [
        "this paper ",
        "this work ",
        "this study ",
        "this article ",
        "in this paper, we ",
    ]
    .iter()
    .find(|s| lower.starts_with(*s))?;
    let rest = &sentence[subject.len()..];
    let verb = rest.split_whitespace().next()?;
    if !PAPER_VERBS.contains(&bare(verb).as_str()) {
        return None;
    }
    let obj = object(rest, verb.len());
    let mut end = obj.len();
    for w in words(obj) {
        if bare(w.text) == "and" {
            let next = &obj[w.end..].trim_start();
            let nv = next.split_whitespace().next().map(bare).unwrap_or_default();
            if PAPER_VERBS.contains(&nv.as_str()) {
                end = w.start;
                break;
            }
        }
    }
    let obj = obj[..end].trim();
    (!obj.is_empty()).then(|| strip_problem(obj).to_string())
}

/// Step 3: a question the abstract asks (`This raises a natural question:
/// can we …?`), when it does not lean on the sentence before.
fn question(text: &str, sentences: &[std::ops::Range<usize>]) -> Option<String> {
    for range in sentences {
        let s = text[range.clone()].trim();
        if !s.ends_with('?') {
            continue;
        }
        let q = s.rsplit_once(": ").map_or(s, |(_, q)| q);
        let leans_back = q
            .split_whitespace()
            .any(|w| matches!(bare(w).as_str(), "this" | "these" | "it" | "they" | "such"));
        if !leans_back && q.chars().count() <= MAX_TITLE + 10 {
            return Some(q.to_string());
        }
    }
    None
}

/// Step 4: the first sentence, reduced to its subject when that is a
/// phrase of its own (`Finding X in Y is a central goal …` → `Finding X in Y`).
fn first_sentence(s: &str) -> String {
    let s = s.trim().trim_end_matches(['.', '!', '?']);
    for verb in [
        " is ",
        " are ",
        " has ",
        " have ",
        " remains ",
        " remain ",
        " can ",
        " has been ",
    ] {
        if let Some(p) = s.find(verb) {
            let subject = &s[..p];
            if subject.split_whitespace().count() >= 4 && !subject.contains(',') {
                return subject.to_string();
            }
        }
    }
    s.to_string()
}

/// Boundaries to cut a long title at, strongest first.
const BOUNDARIES: &[&[&str]] = &[
    &[
        ", which ",
        ", where ",
        ", while ",
        ", whereas ",
        "; ",
        ": ",
        ", thereby ",
        ", enabling ",
        ", allowing ",
        ", making ",
        ", achieving ",
        ", yielding ",
        " — ",
        ", and ",
        ", but ",
    ],
    &[
        " that ",
        " which ",
        " where ",
        " by ",
        " via ",
        " through ",
        " using ",
        " rather than ",
        " while ",
        " without ",
        " based on ",
        " so that ",
    ],
    &[
        " and ", " with ", " to ", " for ", " in ", " on ", " into ", " from ", " across ",
        " under ", " as ",
    ],
];

/// Cuts `title` to at most [`MAX_TITLE`] characters at the strongest clause
/// boundary that leaves a title of some length, else at a word boundary.
fn cut(title: &str) -> String {
    let title = title.trim();
    if title.chars().count() <= MAX_TITLE {
        return title.to_string();
    }
    let limit = title
        .char_indices()
        .nth(MAX_TITLE)
        .map_or(title.len(), |(i, _)| i);
    // The name before a colon is never cut into.
    let floor = title.find(": ").map_or(MIN_CUT, |p| (p + 12).max(MIN_CUT));
    // The strongest boundary wins unless it leaves a stub; then the longest
    // cut of any level.
    let mut fallback: Option<usize> = None;
    for level in BOUNDARIES {
        let best = level
            .iter()
            .flat_map(|b| title.match_indices(b).map(|(p, _)| p))
            .filter(|&p| p >= floor && p <= limit)
            .max();
        if let Some(p) = best {
            if title[..p].chars().count() >= GOOD_CUT {
                return title[..p].to_string();
            }
            fallback = fallback.max(Some(p));
        }
    }
    if let Some(p) = fallback {
        return title[..p].to_string();
    }
    let p = title[..limit].rfind(' ').unwrap_or(limit);
    title[..p].to_string()
}

/// Cuts, removes leftover markup characters and dangling words, balances
/// parentheses and capitalises the first word when it is a plain word.
fn finish(title: &str, whole: &str) -> String {
    let title = cut(title);
    let mut t: String = title
        .chars()
        .filter(|c| !matches!(c, '$' | '*' | '{' | '}' | '\\' | '`'))
        .collect();
    t = t.split_whitespace().collect::<Vec<_>>().join(" ");
    loop {
        let trimmed = t.trim_end_matches([',', ';', ':', '.', ' ', '—', '–', '-']);
        let last_word_start = trimmed.rfind(' ').map_or(0, |p| p + 1);
        let last = &trimmed[last_word_start..];
        if last_word_start > 0 && DANGLING.contains(&last.to_lowercase().as_str()) {
            t = trimmed[..last_word_start].to_string();
            continue;
        }
        t = trimmed.to_string();
        break;
    }
    // An opening parenthesis the cut left unclosed goes with what follows it.
    if t.matches('(').count() > t.matches(')').count()
        && let Some(p) = t.rfind('(')
    {
        t = t[..p].trim_end().to_string();
    }
    t = expand_acronym(&t, whole);
    capitalise(&t)
}

/// `SR through the lens …` → `Symbolic Regression (SR) through the lens …`
/// when the abstract defines the acronym and the title has the room.
fn expand_acronym(title: &str, whole: &str) -> String {
    let Some(first) = title.split_whitespace().next() else {
        return title.to_string();
    };
    let is_acronym = first.len() >= 2
        && first.len() <= 6
        && first.chars().all(|c| c.is_ascii_uppercase())
        && title.len() > first.len();
    if !is_acronym {
        return title.to_string();
    }
    let marker = format!("({first})");
    let Some(p) = whole.find(&marker) else {
        return title.to_string();
    };
    let before: Vec<&str> = whole[..p].split_whitespace().collect();
    let n = first.len();
    if before.len() < n {
        return title.to_string();
    }
    let words = &before[before.len() - n..];
    let initials: String = words
        .iter()
        .filter_map(|w| w.chars().next())
        .collect::<String>()
        .to_uppercase();
    if initials != first {
        return title.to_string();
    }
    let expanded = format!("{} {marker}{}", words.join(" "), &title[first.len()..]);
    if expanded.chars().count() <= MAX_TITLE {
        expanded
    } else {
        title.to_string()
    }
}

fn capitalise(t: &str) -> String {
    let first_word = t.split_whitespace().next().unwrap_or("");
    let plain_word = first_word.chars().all(|c| !c.is_uppercase());
    let mut chars = t.chars();
    match chars.next() {
        Some(c) if plain_word && c.is_lowercase() => c.to_uppercase().chain(chars).collect(),
        _ => t.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Corpus;

    /// The bundled lists (`assets/*.txt`) read into a corpus as the loader
    /// reads them: paragraphs, a paper each, repeats merged.
    fn bundled() -> Corpus {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../assets");
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "txt"))
            .collect();
        files.sort();
        assert!(!files.is_empty(), "no bundled lists in {dir}");
        let mut papers = Vec::new();
        for path in files {
            let parsed = crate::corpus::text::parse(&std::fs::read_to_string(&path).unwrap());
            let source: std::sync::Arc<str> = parsed.header.unwrap_or_default().into();
            papers.extend(
                (0u32..)
                    .zip(parsed.records)
                    .filter_map(|(i, r)| r.into_paper(&source, i)),
            );
        }
        Corpus::new(papers)
    }

    #[test]
    fn names_and_descriptions() {
        assert_eq!(
            derive(
                "Tool-calling agents are risky. We present OrchJail, an orchestration-guided fuzzing framework for jailbreaking tool-calling T2I agents. Its core idea is simple."
            ),
            "OrchJail: an orchestration-guided fuzzing framework for jailbreaking tool-calling T2I agents"
        );
        assert_eq!(
            derive(
                "We propose constrained projection policy optimization (CoPro), which alternates between an E-step moment projection and an M-step policy projection."
            ),
            "CoPro: constrained projection policy optimization"
        );
        assert_eq!(
            derive(
                "Based on this signature, we propose **CausalArmor**, a selective defense framework that (i) computes lightweight attributions."
            ),
            "CausalArmor: a selective defense framework"
        );
    }

    #[test]
    fn contribution_objects() {
        assert_eq!(
            derive(
                "Background here. We study the problem of constructing a conformal prediction set that is uniformly valid across multiple distributions."
            ),
            "Constructing a conformal prediction set that is uniformly valid across multiple distributions"
        );
        assert_eq!(
            derive(
                "Finding human-understandable circuits in language models is a central goal of the field."
            ),
            "Finding human-understandable circuits in language models"
        );
    }

    #[test]
    fn long_titles_are_cut_at_a_clause() {
        let t = derive(
            "We introduce a testing-by-betting framework that leverages predictions on unlabeled data to enhance the power of sequential hypothesis testing.",
        );
        assert!(t.chars().count() <= MAX_TITLE, "{t}");
        assert_eq!(
            t,
            "A testing-by-betting framework that leverages predictions on unlabeled data"
        );
    }

    #[test]
    fn no_markup_survives() {
        let t = derive(
            "We propose $\\textbf{InstEmb}$, a novel instruction following embedding framework.",
        );
        assert_eq!(
            t,
            "InstEmb: a novel instruction following embedding framework"
        );
    }

    #[test]
    fn acronyms_defined_in_the_abstract_are_expanded() {
        let t = derive(
            "Symbolic Regression (SR) is hard. We study SR through the lens of \\emph{parameterized complexity theory}.",
        );
        assert_eq!(
            t,
            "Symbolic Regression (SR) through the lens of parameterized complexity theory"
        );
    }

    /// Every seed abstract that names its contribution gets a title that
    /// starts with, or holds, that name.
    #[test]
    fn seed_abstracts_that_name_their_contribution_have_it_in_the_title() {
        let corpus = bundled();
        let names = [
            "OrchJail",
            "DC-Leap",
            "CoPro",
            "LEAP",
            "FedDTL",
            "BioToken",
            "SpecFlow",
            "InstEmb",
            "Wonda",
            "CausalArmor",
            "RLKV",
            "Graph-Link",
            "MET-Bench",
            "Expert-Sample",
            "Think-at-Hard",
            "RISE",
            "Agentic Monte Carlo",
            "CoDaPO",
            "Propose, Solve, Verify",
            "π-Distill",
            "Coh",
            "Entropy-based TTC",
            "Continuized-HiPPO Operator",
        ];
        let whole_word = |text: &str, w: &str| {
            text.match_indices(w).any(|(i, _)| {
                let before = text[..i].chars().next_back();
                let after = text[i + w.len()..].chars().next();
                let edge = |c: Option<char>| !c.is_some_and(|c| c.is_alphanumeric() || c == '-');
                edge(before) && edge(after)
            })
        };
        for name in names {
            let paper = corpus
                .papers
                .iter()
                .find(|p| whole_word(&markup::plain(&p.abstract_text.text()), name))
                .unwrap_or_else(|| panic!("no seed abstract names {name}"));
            assert!(
                paper.title.contains(name),
                "{name} not in {:?}",
                paper.title
            );
        }
    }

    #[test]
    fn seed_titles_are_short_clean_unique_and_stable() {
        let corpus = bundled();
        assert!(!corpus.is_empty(), "no bundled papers to check");
        let mut seen = std::collections::HashSet::new();
        for p in &corpus.papers {
            let t = &p.title;
            assert!(t.chars().count() <= MAX_TITLE, "{t}");
            assert!(t.chars().count() >= 20, "too short: {t}");
            assert!(
                !t.contains(['$', '\\', '*', '{', '}', '`']),
                "markup left: {t}"
            );
            assert!(!t.ends_with([',', ';', ':', '.']), "{t}");
            assert_eq!(&derive(&p.abstract_text.text()), t, "not stable");
            assert!(seen.insert(t.clone()), "duplicate: {t}");
        }
    }

    #[test]
    fn empty_and_odd_input_never_panics() {
        assert_eq!(derive(""), "");
        for s in [
            "?",
            "We propose.",
            "We propose (",
            "we introduce ((((",
            "$$",
            "We present X (Y",
            "**",
            "a. b. c.",
        ] {
            let t = derive(s);
            assert!(t.chars().count() <= MAX_TITLE);
        }
    }
}
