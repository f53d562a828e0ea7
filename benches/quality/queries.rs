//! The queries a reader would type to find a paper again, made from the
//! paper itself with a fixed-seed generator.

use paperboat::corpus::Paper;
use paperboat::text::markup::plain_cow;

use crate::vocab::{Vocab, typo};

/// splitmix64: a tiny generator, so the queries are the same on every run.
pub struct Rng(u64);

impl Rng {
    /// Seeded by a name, so that one corpus's queries do not depend on
    /// which other corpora are loaded.
    pub fn named(name: &str) -> Rng {
        // FNV-1a.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in name.bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        Rng(h)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn shuffle<T>(&mut self, xs: &mut [T]) {
        for i in (1..xs.len()).rev() {
            xs.swap(i, self.below(i + 1));
        }
    }

    /// `k` distinct items of `xs` (which has at least `k`).
    pub fn choose<T: Clone>(&mut self, xs: &[T], k: usize) -> Vec<T> {
        let mut v = xs.to_vec();
        self.shuffle(&mut v);
        v.truncate(k);
        v
    }
}

/// Lower-cased runs of letters and digits: the words of the baselines and
/// of the queries.
pub fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Words a reader would not type to find a paper: English function words
/// and the stock phrases of abstracts.
#[rustfmt::skip]
const STOP: &[&str] = &[
    "about", "above", "after", "again", "against", "all", "also", "among", "and", "any", "are",
    "based", "because", "been", "before", "being", "below", "between", "both", "but", "can",
    "could", "did", "does", "doing", "down", "during", "each", "few", "for", "from", "further",
    "had", "has", "have", "having", "her", "here", "hers", "him", "his", "how", "however",
    "into", "its", "itself", "may", "more", "most", "much", "must", "new", "nor", "not", "now",
    "off", "once", "one", "only", "other", "our", "ours", "out", "over", "own", "paper", "present",
    "presented", "presents", "propose", "proposed", "result", "results", "same", "she",
    "should", "show", "showed", "shown", "shows", "some", "study", "such", "than", "that",
    "the", "their", "them", "then", "there", "these", "they", "this", "those", "through",
    "thus", "too", "two", "under", "until", "use", "used", "uses", "using", "very", "via",
    "was", "way", "well", "were", "what", "when", "where", "whether", "which", "while", "who",
    "whom", "why", "will", "with", "within", "without", "would", "yet", "you", "your",
];

/// Chinese, Japanese and Korean script: their words are not separated by
/// spaces, so the query kinds do not apply.
pub fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x3040..=0x30ff | 0x3400..=0x4dbf | 0x4e00..=0x9fff
        | 0xac00..=0xd7af | 0xf900..=0xfaff | 0x20000..=0x2ffff)
}

/// A word a reader might type: 3+ letters, not only digits, not a stop
/// word.
pub fn content(w: &str) -> bool {
    w.chars().count() >= 3
        && w.chars().any(char::is_alphabetic)
        && !w.chars().any(is_cjk)
        && !STOP.contains(&w)
}

/// Distinct words of `ws` in first-seen order, those `keep` accepts.
fn distinct(ws: &[String], keep: impl Fn(&str) -> bool) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for w in ws {
        if keep(w) && !out.contains(w) {
            out.push(w.clone());
        }
    }
    out
}

/// The surname of an author as a reader types it: the part before a
/// comma ("Curie, Marie") or the last word ("Marie Curie"), its last word
/// of two letters or more, lower case.
fn surname(name: &str) -> Option<String> {
    let part = match name.split_once(',') {
        Some((last, _)) => last,
        None => name,
    };
    words(part)
        .into_iter()
        .rev()
        .find(|w| w.chars().count() >= 2 && w.chars().any(char::is_alphabetic))
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Mixed,
    TitlePiece,
    Topic,
    Author,
    /// A mixed query whose title word has one typo.
    Typo,
    /// A mixed query whose title word is another form of it.
    Form,
}

pub const KINDS: [Kind; 6] = [
    Kind::Mixed,
    Kind::TitlePiece,
    Kind::Topic,
    Kind::Author,
    Kind::Typo,
    Kind::Form,
];

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Mixed => "mixed",
            Kind::TitlePiece => "title piece",
            Kind::Topic => "topic",
            Kind::Author => "author",
            Kind::Typo => "one typo",
            Kind::Form => "word form",
        }
    }
}

/// The words of a paper's title and abstract, markup removed.
fn fields(p: &Paper) -> (Vec<String>, Vec<String>) {
    (
        words(&plain_cow(&p.title)),
        words(&plain_cow(&p.abstract_text.text())),
    )
}

/// True for a paper that can be searched for: a title with two words a
/// reader might type, two more such words in the abstract, and no words
/// run together (Chinese, Japanese, Korean).
pub fn searchable(p: &Paper) -> bool {
    if p.title.chars().any(is_cjk) {
        return false;
    }
    let (t, a) = fields(p);
    let tw = distinct(&t, content);
    tw.len() >= 2 && distinct(&a, |w| content(w) && !tw.iter().any(|x| x == w)).len() >= 2
}

/// A query of `kind` for paper `p`, if the paper has what it needs;
/// `vocab`: the corpus's words (for typos and other forms).
pub fn query(kind: Kind, p: &Paper, rng: &mut Rng, vocab: &Vocab) -> Option<String> {
    let (t, a) = fields(p);
    let tw = distinct(&t, content);
    let aw = distinct(&a, |w| content(w) && !tw.iter().any(|x| x == w));
    let mut q: Vec<String> = match kind {
        Kind::Mixed if tw.len() >= 2 && !aw.is_empty() => {
            let mut q = rng.choose(&tw, 2);
            q.extend(rng.choose(&aw, 1));
            rng.shuffle(&mut q);
            q
        }
        Kind::TitlePiece => {
            // A run of 2-3 words of the title as written (hyphens and
            // apostrophes kept) whose last, one a reader might type, is
            // cut to 3+ letters with at least one letter left off.
            let t: Vec<String> = plain_cow(&p.title)
                .split_whitespace()
                .map(|w| {
                    w.trim_matches(|ch: char| !ch.is_alphanumeric())
                        .to_lowercase()
                })
                .filter(|w| !w.is_empty())
                .collect();
            let ends: Vec<usize> = (1..t.len())
                .filter(|&e| content(&t[e]) && t[e].chars().count() >= 4)
                .collect();
            if ends.is_empty() {
                return None;
            }
            let end = ends[rng.below(ends.len())];
            let span = 2 + rng.below(2);
            let mut q = t[end + 1 - span.min(end + 1)..=end].to_vec();
            let last = q.pop()?;
            let keep = 3 + rng.below(last.chars().count() - 3);
            let cut: String = last.chars().take(keep).collect();
            q.push(
                cut.trim_end_matches(|ch: char| !ch.is_alphanumeric())
                    .to_string(),
            );
            q
        }
        Kind::Topic if aw.len() >= 2 => rng.choose(&aw, 2),
        // Two title words, one changed, and an abstract word: the typo
        // is one edit that makes a word no paper holds; the form is
        // another word of the corpus with the title word's stem, not in
        // the title.
        Kind::Typo | Kind::Form if tw.len() >= 2 && !aw.is_empty() => {
            let mut picks = rng.choose(&tw, tw.len());
            let changed = picks.iter().enumerate().find_map(|(k, w)| {
                let fold = |w: &str| crate::vocab::folded(w).join("");
                let made = match kind {
                    Kind::Typo => typo(w, vocab, rng),
                    _ => vocab.other_form(&fold(w), &t, rng),
                };
                made.map(|m| (k, m))
            });
            let (k, made) = changed?;
            let other = picks.remove(k);
            let mut q = vec![made, picks.into_iter().find(|w| *w != other)?];
            q.extend(rng.choose(&aw, 1));
            rng.shuffle(&mut q);
            q
        }
        Kind::Author if !tw.is_empty() => {
            let names: Vec<&str> = p.authors.iter().collect();
            if names.is_empty() {
                return None;
            }
            let s = surname(names[rng.below(names.len())])?;
            vec![s, rng.choose(&tw, 1).pop()?]
        }
        _ => return None,
    };
    q.retain(|w| !w.is_empty());
    Some(q.join(" "))
}
