//! Titles without their papers, ready to rank and to print: what
//! `paperboat search` keeps of a corpus.

use super::items::Items;

/// Titles' readable text (markup rendered), in the matcher's buffers. An
/// ASCII title is printed from the matcher's own bytes; the others, which
/// the matcher holds a character per grapheme, keep their text beside.
#[derive(Default)]
pub struct TitleIndex {
    pub(super) items: Items,
    /// The non-ASCII titles' indices, ascending.
    pub(super) wide_at: Vec<u32>,
    /// Their text, in the same order.
    pub(super) wide_text: Vec<Box<str>>,
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
        self.items.spans.vec_mut().reserve(more);
        self.items.masks.vec_mut().reserve(more);
        self.items.ascii.vec_mut().reserve(bytes);
    }

    /// Room for `more` titles of `bytes` in all, exactly: for a list
    /// told how long it will be.
    pub fn reserve_exact(&mut self, more: usize, bytes: usize) {
        self.items.spans.vec_mut().reserve_exact(more);
        self.items.masks.vec_mut().reserve_exact(more);
        self.items.ascii.vec_mut().reserve_exact(bytes);
    }

    /// How many titles there is room for without growing.
    pub fn capacity(&self) -> usize {
        self.items.spans.capacity()
    }

    /// The bytes of the ASCII titles' text.
    pub fn ascii_bytes(&self) -> usize {
        self.items.ascii.len()
    }

    /// Adds a title's readable text.
    pub fn push(&mut self, plain: &str) {
        self.items.push_plain(plain);
        if self.items.spans.last().is_some_and(|s| s.wide()) {
            self.wide_at.push((self.len() - 1) as u32);
            self.wide_text.push(plain.into());
        }
    }

    /// Adds a title that [`super::masks::plain_ascii_title_mask`] passed,
    /// with the mask it gave.
    pub fn push_plain_ascii(&mut self, text: &str, mask: u64) {
        debug_assert!(text.is_ascii());
        self.items.push_ascii(text.as_bytes(), mask);
    }

    /// Title `i`'s readable text.
    pub fn text(&self, i: usize) -> &str {
        let s = self.items.spans[i];
        if s.wide() {
            match self.wide_at.binary_search(&(i as u32)) {
                Ok(k) => &self.wide_text[k],
                Err(_) => "",
            }
        } else {
            // `ascii` holds only the bytes of ASCII titles (see
            // `Items::store_plain`); bytes read back from the cache are
            // checked again here, a word at a time.
            let bytes = &self.items.ascii[s.start..][..s.len as usize];
            crate::simd::ascii_str(bytes).unwrap_or_default()
        }
    }

    /// Asks the CPU to start fetching what [`TitleIndex::text`] reads
    /// for title `i`: where it lies (`far`), or, that fetched by now, its
    /// text. For reading titles in an order other than theirs, a few
    /// ahead.
    pub fn prefetch(&self, i: usize, far: bool) {
        let Some(s) = self.items.spans.get(i) else {
            return;
        };
        if far {
            prefetch(s);
        } else if !s.wide()
            && let Some(b) = self.items.ascii.get(s.start)
        {
            prefetch(b);
        }
    }

    /// Replaces title `i`'s text.
    pub fn set(&mut self, i: usize, plain: &str) {
        if i >= self.len() {
            return;
        }
        let wide = (!plain.is_ascii()).then(|| plain.into());
        set_sparse(&mut self.wide_at, &mut self.wide_text, i, wide);
        let (span, mask) = self.items.store_plain(plain);
        (self.items.spans.vec_mut()[i], self.items.masks.vec_mut()[i]) = (span, mask);
    }

    pub(super) fn items(&self) -> &Items {
        &self.items
    }

    /// Keeps only the titles `keep` says (the others' text stays in the
    /// buffer unused: repeats are few).
    pub fn retain(&mut self, keep: &[bool]) {
        retain_kept(self.items.spans.vec_mut(), keep);
        retain_kept(self.items.masks.vec_mut(), keep);
        retain_sparse(&mut self.wide_at, &mut self.wide_text, keep);
    }
}

/// Sets entry `i` of a sparse list (`at`: ascending indices; `values`:
/// theirs) to `value`, or removes it for `None`.
pub fn set_sparse<T>(at: &mut Vec<u32>, values: &mut Vec<T>, i: usize, value: Option<T>) {
    match (at.binary_search(&(i as u32)), value) {
        (Ok(k), Some(v)) => values[k] = v,
        (Ok(k), None) => {
            at.remove(k);
            values.remove(k);
        }
        (Err(k), Some(v)) => {
            at.insert(k, i as u32);
            values.insert(k, v);
        }
        (Err(_), None) => {}
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

pub use crate::simd::prefetch;

#[cfg(test)]
mod tests {
    use super::*;

    use crate::search::{Match, Scope, rank_title_parts};

    fn index(titles: &[&str]) -> TitleIndex {
        let mut t = TitleIndex::default();
        for s in titles {
            t.push(s);
        }
        t
    }

    /// Ranks parts as `search` does, each after the ones before it.
    fn rank_parts(parts: &[&TitleIndex], query: &str) -> Vec<Match> {
        let starts = parts.iter().scan(0, |at, p| {
            let start = *at;
            *at += p.len();
            Some(start)
        });
        rank_title_parts(parts.iter().copied().zip(starts), query)
    }

    fn rank(t: &TitleIndex, query: &str) -> Vec<Match> {
        rank_parts(&[t], query)
    }

    #[test]
    fn text_reads_back_ascii_and_wide_titles_after_changes() {
        let mut t = index(&[
            "Plain one",
            "Über große Modelle",
            "Second plain",
            "naïve Bayes",
            "ascii again",
        ]);
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
        let ranked: Vec<u32> = rank(&t, "ascii").iter().map(|m| m.idx).collect();
        assert_eq!(ranked.len(), 2);
        assert!(ranked.contains(&1) && ranked.contains(&4));
        assert!(rank(&t, "über").is_empty());
        assert_eq!(rank(&t, "stillwide").len(), 1);
    }

    #[test]
    fn retained_titles_keep_their_text_and_order() {
        let mut t = index(&["a one", "ü two", "b three", "é four", "c five", "ö six"]);
        t.retain(&[true, false, true, true, false, true]);
        let all: Vec<&str> = (0..t.len()).map(|i| t.text(i)).collect();
        assert_eq!(all, ["a one", "b three", "é four", "ö six"]);
        assert_eq!(
            rank(&t, "six").iter().map(|m| m.idx).collect::<Vec<_>>(),
            [3]
        );
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
        // In two parts, as the loading threads make them.
        let (first, second) = (index(&titles[..2]), index(&titles[2..]));
        for q in ["rl", "sparse", "sp att", "'diffusion", "^s !auto", "zzz"] {
            let a: Vec<(u32, u32)> = rank_parts(&[&first, &second], q)
                .iter()
                .map(|m| (m.idx, m.points()))
                .collect();
            let b: Vec<(u32, u32)> = super::super::rank_papers(&papers, q, Scope::Title)
                .iter()
                .map(|m| (m.idx, m.points()))
                .collect();
            assert_eq!(a, b, "{q}");
            assert_eq!(a.is_empty(), q == "zzz", "{q}: matches");
        }
    }
}
