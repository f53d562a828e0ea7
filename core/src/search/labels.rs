//! What the reader's own marks add to a paper for `tag:` and `note:`:
//! its tags and its note, handed to the matcher by whoever keeps them (the
//! search layer knows nothing of the store).

use super::fields::{fold, for_each_folded};
use super::masks::Bits;

/// Tags and notes by paper index.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Labels {
    /// (paper, tag folded), a pair per tag.
    tags: Vec<(u32, String)>,
    /// (paper, the note's words folded).
    notes: Vec<(u32, Vec<String>)>,
    /// By paper: its topic's number (from 1), for `topic:`.
    topics: Vec<u32>,
}

impl Labels {
    /// Paper `idx` has `tag`.
    pub fn add_tag(&mut self, idx: usize, tag: &str) {
        self.tags.push((idx as u32, fold(tag.trim()).into_owned()));
    }

    /// Paper `idx`'s note is `text`.
    pub fn add_note(&mut self, idx: usize, text: &str) {
        let mut words = Vec::new();
        for_each_folded(text, &mut String::new(), |w| words.push(w.to_string()));
        self.notes.push((idx as u32, words));
    }

    /// The labels of papers `ids` (in index order), their tags and note
    /// given by `tags` and `note` (the reading list's, to whoever keeps
    /// it).
    pub fn of<'a>(
        ids: impl Iterator<Item = &'a str>,
        tags: impl Fn(&str) -> Vec<&'a str>,
        note: impl Fn(&str) -> Option<&'a str>,
    ) -> Labels {
        let mut labels = Labels::default();
        for (i, id) in ids.enumerate() {
            for t in tags(id) {
                labels.add_tag(i, t);
            }
            if let Some(n) = note(id) {
                labels.add_note(i, n);
            }
        }
        labels
    }

    /// Each paper's topic's number (from 1), by paper index.
    pub fn set_topics(&mut self, topics: Vec<u32>) {
        self.topics = topics;
    }

    /// True when no paper has a tag, a note or a topic.
    pub fn is_empty(&self) -> bool {
        self.tags.is_empty() && self.notes.is_empty() && self.topics.is_empty()
    }

    /// The papers (of `n`) of topic `t` (from 1).
    pub fn papers_in_topic(&self, t: u32, n: usize) -> Bits {
        let mut bits = Bits::new(n);
        for (i, &of) in self.topics.iter().enumerate().take(n) {
            if of == t {
                bits.insert(i as u32);
            }
        }
        bits
    }

    /// The papers (of `n`) with a tag that starts with each of `words`
    /// (the tag itself when `whole`; words folded).
    pub fn papers_tagged(&self, words: &[String], whole: bool, n: usize) -> Bits {
        // A tag of several words (`to read`) is matched as written.
        let want = words.join(" ");
        let mut bits = Bits::new(n);
        for (i, tag) in &self.tags {
            let tag = tag.as_str();
            let hit = if whole {
                tag == want
            } else {
                tag.starts_with(&want)
                    || tag
                        .split(|c: char| !c.is_alphanumeric())
                        .any(|w| w.starts_with(&want))
            };
            if hit && (*i as usize) < n {
                bits.insert(*i);
            }
        }
        bits
    }

    /// The papers (of `n`) whose note has, for each of `words`, a word
    /// starting with it (or it, when `whole`).
    pub fn papers_noted(&self, words: &[String], whole: bool, n: usize) -> Bits {
        let mut bits = Bits::new(n);
        for (i, note) in &self.notes {
            let has = |w: &String| {
                note.iter().any(|n| {
                    if whole {
                        n == w
                    } else {
                        n.starts_with(w.as_str())
                    }
                })
            };
            if (*i as usize) < n && words.iter().all(has) {
                bits.insert(*i);
            }
        }
        bits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_and_notes_by_word_start_case_and_accents_folded() {
        let mut l = Labels::default();
        l.add_tag(0, "To Read");
        l.add_tag(1, "reading-group");
        l.add_tag(2, "Café");
        l.add_note(1, "Compare with **Schütze** et al., section 3.");
        let who = |b: Bits| (0..4).filter(|&i| b.contains(i)).collect::<Vec<_>>();
        let w = |s: &str| vec![s.to_string()];
        assert_eq!(who(l.papers_tagged(&w("read"), false, 4)), [0, 1]);
        assert_eq!(who(l.papers_tagged(&w("to"), false, 4)), [0]);
        assert_eq!(who(l.papers_tagged(&w("group"), false, 4)), [1]);
        assert_eq!(
            who(l.papers_tagged(&["to".into(), "read".into()], true, 4)),
            [0]
        );
        assert_eq!(who(l.papers_tagged(&w("cafe"), true, 4)), [2]);
        assert_eq!(who(l.papers_noted(&w("schutze"), false, 4)), [1]);
        assert_eq!(who(l.papers_noted(&w("sect"), false, 4)), [1]);
        assert!(who(l.papers_noted(&w("sect"), true, 4)).is_empty());
        assert!(!l.is_empty());
    }

    #[test]
    fn a_topic_is_its_papers() {
        let mut l = Labels::default();
        l.set_topics(vec![2, 1, 2, 3]);
        let who = |b: Bits| (0..4).filter(|&i| b.contains(i)).collect::<Vec<_>>();
        assert_eq!(who(l.papers_in_topic(2, 4)), [0, 2]);
        assert_eq!(who(l.papers_in_topic(3, 4)), [3]);
        assert!(who(l.papers_in_topic(4, 4)).is_empty());
    }
}
