//! Titles without their papers, ready to rank and to print: what
//! `paperboat search` keeps of a corpus.

use super::{Items, Match, Query, Scope, rank_items};

/// Titles' readable text (markup rendered), in the matcher's buffers. An
/// ASCII title is printed from the matcher's own bytes; the others, which
/// the matcher holds a character per grapheme, keep their text beside.
#[derive(Default)]
pub struct TitleIndex {
    items: Items,
    /// The non-ASCII titles' indices, ascending.
    wide_at: Vec<u32>,
    /// Their text, in the same order.
    wide_text: Vec<Box<str>>,
}

impl std::fmt::Debug for TitleIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TitleIndex")
            .field("len", &self.len())
            .finish()
    }
}

impl TitleIndex {
    /// How many titles there are.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Room for `more` titles of `bytes` in all.
    pub fn reserve(&mut self, more: usize, bytes: usize) {
        self.items.spans.reserve(more);
        self.items.masks.reserve(more);
        self.items.ascii.reserve(bytes);
    }

    /// The bytes of ASCII text held.
    pub fn text_len(&self) -> usize {
        self.items.ascii.len()
    }

    /// Adds a title's readable text.
    pub fn push(&mut self, plain: &str) {
        self.items.push_plain(plain);
        if self.items.spans.last().is_some_and(|s| s.wide) {
            self.wide_at.push((self.len() - 1) as u32);
            self.wide_text.push(plain.into());
        }
    }

    /// Adds a title that [`super::index::plain_ascii_title_mask`] passed,
    /// with the mask it gave.
    pub fn push_plain_ascii(&mut self, text: &str, mask: u64) {
        debug_assert!(text.is_ascii());
        self.items.push_ascii(text.as_bytes(), mask);
    }

    /// Title `i`'s readable text.
    pub fn text(&self, i: usize) -> &str {
        let s = self.items.spans[i];
        if s.wide {
            match self.wide_at.binary_search(&(i as u32)) {
                Ok(k) => &self.wide_text[k],
                Err(_) => "",
            }
        } else {
            let bytes = &self.items.ascii[s.start..][..s.len as usize];
            debug_assert!(bytes.is_ascii());
            // SAFETY: `ascii` holds only the bytes of ASCII titles (see
            // `Items::store_plain`), and ASCII is UTF-8.
            unsafe { std::str::from_utf8_unchecked(bytes) }
        }
    }

    /// Replaces title `i`'s text.
    pub fn set(&mut self, i: usize, plain: &str) {
        if i >= self.len() {
            return;
        }
        let at = self.wide_at.binary_search(&(i as u32));
        match (at, plain.is_ascii()) {
            (Ok(k), false) => self.wide_text[k] = plain.into(),
            (Ok(k), true) => {
                self.wide_at.remove(k);
                self.wide_text.remove(k);
            }
            (Err(k), false) => {
                self.wide_at.insert(k, i as u32);
                self.wide_text.insert(k, plain.into());
            }
            (Err(_), true) => {}
        }
        (self.items.spans[i], self.items.masks[i]) = self.items.store_plain(plain);
    }

    pub(super) fn items(&self) -> &Items {
        &self.items
    }

    /// Keeps only the titles `keep` says (the others' text stays in the
    /// buffer unused: repeats are few).
    pub fn retain(&mut self, keep: &[bool]) {
        retain_kept(&mut self.items.spans, keep);
        retain_kept(&mut self.items.masks, keep);
        retain_sparse(&mut self.wide_at, &mut self.wide_text, keep);
    }

    /// Adds `other`'s titles after these.
    pub fn append(&mut self, other: TitleIndex) {
        let base = self.len() as u32;
        self.items.append(other.items);
        self.wide_at.extend(other.wide_at.iter().map(|k| k + base));
        self.wide_text.extend(other.wide_text);
    }

    /// The titles matching `query`, best first (as
    /// [`super::rank_papers`] in the title scope).
    pub fn rank(&self, query: &str) -> Vec<Match> {
        rank_items(&self.items, &Query::parse(query), Scope::Title, Vec::new())
    }
}

/// Keeps the entries of `list` that `keep` says (in place: nothing moves
/// before the first one dropped).
pub fn retain_kept<T>(list: &mut Vec<T>, keep: &[bool]) {
    let mut k = keep.iter();
    list.retain(|_| *k.next().unwrap_or(&true));
}

/// Keeps the entries of a sparse list (`at`: ascending indices into a list
/// of which `keep` says which stay; `values`: theirs) whose index stays,
/// each index renumbered as the list will be.
pub fn retain_sparse<T: Default>(at: &mut Vec<u32>, values: &mut Vec<T>, keep: &[bool]) {
    let mut kept_before = 0u32;
    let mut next = 0;
    let mut out = 0;
    for (i, &stays) in keep.iter().enumerate() {
        if next < at.len() && at[next] as usize == i {
            if stays {
                at[out] = kept_before;
                values.swap(out, next);
                out += 1;
            }
            next += 1;
        }
        kept_before += u32::from(stays);
    }
    at.truncate(out);
    values.truncate(out);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index(titles: &[&str]) -> TitleIndex {
        let mut t = TitleIndex::default();
        for s in titles {
            t.push(s);
        }
        t
    }

    #[test]
    fn text_reads_back_ascii_and_wide_titles_after_appends_and_changes() {
        let mut t = index(&["Plain one", "Über große Modelle", "Second plain"]);
        t.append(index(&["naïve Bayes", "ascii again"]));
        let all: Vec<&str> = (0..t.len()).map(|i| t.text(i)).collect();
        assert_eq!(
            all,
            [
                "Plain one",
                "Über große Modelle",
                "Second plain",
                "naïve Bayes",
                "ascii again"
            ]
        );
        t.set(0, "Now wide: é");
        t.set(1, "Now ascii");
        t.set(3, "Still wide: ü");
        t.set(4, "ascii still");
        let all: Vec<&str> = (0..t.len()).map(|i| t.text(i)).collect();
        assert_eq!(
            all,
            [
                "Now wide: é",
                "Now ascii",
                "Second plain",
                "Still wide: ü",
                "ascii still"
            ]
        );
        // Ranking reads the changed text.
        let ranked: Vec<u32> = t.rank("ascii").iter().map(|m| m.idx).collect();
        assert_eq!(ranked.len(), 2);
        assert!(ranked.contains(&1) && ranked.contains(&4));
        assert!(t.rank("über").is_empty());
        assert_eq!(t.rank("stillwide").len(), 1);
    }

    #[test]
    fn retained_titles_keep_their_text_and_order() {
        let mut t = index(&["a one", "ü two", "b three", "é four", "c five", "ö six"]);
        t.retain(&[true, false, true, true, false, true]);
        let all: Vec<&str> = (0..t.len()).map(|i| t.text(i)).collect();
        assert_eq!(all, ["a one", "b three", "é four", "ö six"]);
        assert_eq!(t.rank("six").iter().map(|m| m.idx).collect::<Vec<_>>(), [3]);
    }

    #[test]
    fn ranks_as_the_paper_ranking_does() {
        let titles = [
            "Sparse attention for long context",
            "Reinforcement learning from feedback",
            "Spectral methods in RL",
            "Diffusion language models",
            "Scaling sparse autoencoders",
        ];
        let papers: Vec<crate::corpus::Paper> = titles
            .iter()
            .map(|t| {
                crate::corpus::Record {
                    title: Some(t.to_string()),
                    ..Default::default()
                }
                .into_paper(&"t".into(), 0)
                .unwrap()
            })
            .collect();
        let t = index(&titles);
        for q in ["rl", "sparse", "sp att", "'diffusion", "^s !auto", "zzz"] {
            let a: Vec<(u32, u32)> = t.rank(q).iter().map(|m| (m.idx, m.points())).collect();
            let b: Vec<(u32, u32)> = super::super::rank_papers(&papers, q, Scope::Title)
                .iter()
                .map(|m| (m.idx, m.points()))
                .collect();
            assert_eq!(a, b, "{q}");
        }
    }
}
