//! Wrapping by display width.
//!
//! Lines break at spaces and between CJK characters, never inside a word
//! unless the word alone is wider than the line. Widths are terminal columns
//! (unicode-width, as ratatui counts them), so `论文` takes four and a
//! combining accent none. The wrapping itself is textwrap's first-fit; only
//! the word boundaries are ours.

use std::ops::Range;

use textwrap::core::{Word, break_words};
use textwrap::wrap_algorithms::wrap_first_fit;
use unicode_width::UnicodeWidthStr;

/// Display width of `s` in terminal columns.
pub fn width(s: &str) -> usize {
    s.width()
}

/// True for characters that are words on their own, since the scripts
/// they belong to put no spaces between words (CJK ideographs, kana,
/// hangul syllables): the abstract index takes each for a word.
#[inline]
pub fn stands_alone(c: char) -> bool {
    matches!(c as u32, 0x2E80..=0x9FFF | 0xAC00..=0xD7FF | 0xF900..=0xFAFF | 0x20000..=0x3FFFF)
}

/// True for characters after or before which a line may break although no
/// space stands there: those that [`stands_alone`], hangul jamo, and CJK
/// compatibility and fullwidth forms.
fn breaks_around(c: char) -> bool {
    stands_alone(c) || matches!(c as u32, 0xA960..=0xA97F | 0xFE30..=0xFE4F | 0xFF00..=0xFF60)
}

/// Splits a paragraph into words, each with its trailing spaces, handing
/// each to `each` as it is found.
fn words<'a>(par: &'a str, mut each: impl FnMut(Word<'a>)) {
    let mut start = 0;
    let mut prev: Option<char> = None;
    let mut in_space = false;
    for (i, c) in par.char_indices() {
        let boundary = if c == ' ' {
            in_space = true;
            false
        } else if in_space {
            in_space = false;
            true
        } else {
            prev.is_some_and(|p| breaks_around(p) || breaks_around(c))
        };
        if boundary && i > start {
            each(Word::from(&par[start..i]));
            start = i;
        }
        prev = Some(c);
    }
    if start < par.len() {
        each(Word::from(&par[start..]));
    }
}

/// Words wrapped at a time: the words of a long paragraph are not all
/// held at once (a megabyte of short words made hundreds of megabytes of
/// them).
const BATCH: usize = 1024;

/// Wraps `text` to `width` columns. Returns byte ranges into `text`, one per
/// screen line, without trailing spaces. Paragraphs (separated by blank
/// lines, `\n\n`) start on a new line with an empty line between them.
pub fn wrap(text: &str, width: usize) -> Vec<Range<usize>> {
    super::work::count(text.len());
    let width = width.max(1);
    let mut lines = Vec::new();
    let mut offset = 0;
    for par in text.split('\n') {
        if par.trim().is_empty() {
            offset += par.len() + 1;
            continue;
        }
        if !lines.is_empty() {
            lines.push(offset..offset);
        }
        let base = par.as_ptr() as usize;
        // First-fit from the start of a line depends only on the words from
        // there on, so the words are wrapped a batch at a time and the last
        // line of each batch, which later words may join, starts the next.
        let mut batch: Vec<Word> = Vec::with_capacity(BATCH);
        let mut limit = BATCH;
        let mut flush = |batch: &mut Vec<Word>, last: bool| {
            super::work::count(batch.len());
            let ws = break_words(batch.drain(..), width);
            let wrapped = wrap_first_fit(&ws, &[width as f64]);
            let keep = if last {
                wrapped.len()
            } else {
                wrapped.len() - 1
            };
            for line in &wrapped[..keep] {
                let (Some(first), Some(last)) = (line.first(), line.last()) else {
                    continue;
                };
                let s = first.word.as_ptr() as usize - base;
                let e = last.word.as_ptr() as usize - base + last.word.len();
                lines.push(offset + s..offset + e);
            }
            if !last && let Some(open) = wrapped.last() {
                batch.extend_from_slice(open);
            }
        };
        words(par, |w| {
            batch.push(w);
            if batch.len() >= limit {
                flush(&mut batch, false);
                // A line of more words than a batch (zero-width ones) is
                // carried whole: the batch grows so that carrying stays
                // linear.
                limit = (batch.len() * 2).max(BATCH);
            }
        });
        flush(&mut batch, true);
        offset += par.len() + 1;
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str, w: usize) -> Vec<&str> {
        wrap(text, w).into_iter().map(|r| &text[r]).collect()
    }

    #[test]
    fn wraps_at_spaces_and_keeps_words_whole() {
        assert_eq!(
            lines("the quick brown fox", 10),
            vec!["the quick", "brown fox"]
        );
        assert_eq!(
            lines("use π-Distill now", 10),
            vec!["use", "π-Distill", "now"]
        );
    }

    #[test]
    fn long_words_are_split_only_when_wider_than_the_line() {
        assert_eq!(lines("abcdefghij k", 4), vec!["abcd", "efgh", "ij k"]);
    }

    #[test]
    fn cjk_takes_two_columns_and_breaks_between_characters() {
        let t = "ICML 2026 论文列表";
        assert_eq!(width(t), 18);
        assert_eq!(lines(t, 14), vec!["ICML 2026 论文", "列表"]);
        assert_eq!(lines(t, 13), vec!["ICML 2026 论", "文列表"]);
    }

    #[test]
    fn paragraphs_are_separated_by_a_blank_line() {
        assert_eq!(lines("one two\n\nthree", 20), vec!["one two", "", "three"]);
        assert_eq!(lines("one\nthree", 20), vec!["one", "", "three"]);
    }

    /// [`wrap`] as first written: every word of a paragraph at once.
    fn wrap_whole(text: &str, width: usize) -> Vec<Range<usize>> {
        let width = width.max(1);
        let mut lines = Vec::new();
        let mut offset = 0;
        for par in text.split('\n') {
            if par.trim().is_empty() {
                offset += par.len() + 1;
                continue;
            }
            if !lines.is_empty() {
                lines.push(offset..offset);
            }
            let base = par.as_ptr() as usize;
            let mut all = Vec::new();
            words(par, |w| all.push(w));
            let ws = break_words(all, width);
            for line in wrap_first_fit(&ws, &[width as f64]) {
                let (Some(first), Some(last)) = (line.first(), line.last()) else {
                    continue;
                };
                let s = first.word.as_ptr() as usize - base;
                let e = last.word.as_ptr() as usize - base + last.word.len();
                lines.push(offset + s..offset + e);
            }
            offset += par.len() + 1;
        }
        lines
    }

    #[test]
    fn batches_wrap_as_the_whole_paragraph_does() {
        let kinds = [
            "ab ".repeat(3000),
            "论文".repeat(2000),
            // Ideographic tone marks: words of no width, none of them a
            // place a line must break.
            "\u{302A}".repeat(5000),
            format!("{} x {}", "a".repeat(5000), "bc d ".repeat(900)),
            "one two  three\n\nfour ".repeat(700),
            "w\u{301} 论x ".repeat(1500),
        ];
        for text in &kinds {
            for width in [1, 2, 7, 40, 80] {
                assert_eq!(wrap(text, width), wrap_whole(text, width), "{width}");
            }
        }
    }

    #[test]
    fn every_line_fits() {
        let t = "Spectral-Progressive Thought Flow (SpecFlow), 論文 a novel lightweight multimodal reasoning framework — émigré naïve";
        for w in 2..40 {
            let ls = lines(t, w);
            assert!(ls.len() > 1, "{w}: one line");
            for l in ls {
                assert!(width(l) <= w, "{l:?} wider than {w}");
            }
        }
    }
}
