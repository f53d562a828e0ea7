//! Look-ahead that costs the text once, not once per opener.
//!
//! The readers of markup look ahead for the end of what an opener starts:
//! the `}` of a `{`, the `](` of a `[`, the `>` of `<https://`, the closing
//! `*` of an emphasis. Searching afresh from every opener makes a run of
//! openers without a closer (a megabyte of `{` or of `[a](`) quadratic. So
//! [`super::render`] makes, for the text it renders, a [`Scan`] that
//! remembers the answers, and passes it by reference to every reader: where
//! the next occurrence of a pattern lies after a position (as reading goes
//! on, a search that failed is not repeated over the same bytes), and the
//! matching `}` of every `{`, found in one pass with a stack. The readers
//! still see slices of the text; each answer is cut to the slice asked
//! about, so it is the answer a plain search of that slice gives.
//!
//! Every search here also counts the bytes it looks at
//! ([`crate::text::work`]), which the tests use to hold rendering to a
//! bound linear in its input.

pub(crate) use crate::text::work::count;

/// What is looked for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Sought {
    /// A fixed string.
    Str(&'static str),
    /// A whitespace character.
    Space,
    /// A closing emphasis run: its byte and its length.
    Closer(u8, usize),
}

/// The first occurrence at or after `from` is at `found`, with its length
/// (`None`: there is none to the end of the text).
struct Memo {
    key: Sought,
    from: usize,
    found: Option<(usize, usize)>,
}

/// What is remembered about one text while it renders: made by
/// [`super::render`] and passed by reference to every reader that looks
/// ahead. Its searches take slices of the text; a string that is not one
/// is searched plainly.
pub(super) struct Scan<'a> {
    /// The text; `None` when too long for the brace table's `u32`
    /// positions (with a bit to spare), read then without memory (no
    /// abstract comes near 2 GB).
    text: Option<&'a str>,
    memos: Vec<Memo>,
    /// Positions of every `{` that has a matching `}`, and of that `}`,
    /// in order, built on first use.
    braces: Option<Vec<(u32, u32)>>,
    /// The entry of `braces` last asked for: text is read left to right,
    /// so the next one asked for is mostly the one after it.
    cursor: usize,
}

impl<'a> Scan<'a> {
    /// Look-ahead remembered for `text` and its slices.
    pub(super) fn new(text: &'a str) -> Scan<'a> {
        Scan {
            text: (text.len() < ESCAPED as usize).then_some(text),
            memos: Vec::new(),
            braces: None,
            cursor: 0,
        }
    }

    /// The text, and `s` as a byte range of it, when `s` is a slice of it.
    fn locate(&self, s: &str) -> Option<(&'a str, usize, usize)> {
        let text = self.text?;
        let start = s.as_ptr().addr().checked_sub(text.as_ptr().addr())?;
        let end = start.checked_add(s.len())?;
        // A string inside the text is made of its bytes, so it starts and
        // ends at char boundaries of it; an empty one may lie at any
        // address, and is searched as it is (which costs nothing).
        (!s.is_empty() && end <= text.len()).then_some((text, start, end))
    }

    /// The first occurrence of `key` at or after byte `at` of `text`, and
    /// its length, found with `first` (which looks in a `&str` and returns
    /// the offset and length of what it finds).
    fn remembered(
        &mut self,
        text: &str,
        key: Sought,
        at: usize,
        first: impl Fn(&str) -> Option<(usize, usize)>,
    ) -> Option<(usize, usize)> {
        let memo = self.memos.iter().position(|m| m.key == key);
        let known = memo.map(|k| &self.memos[k]);
        let found = match known {
            Some(m) if m.from <= at && m.found.is_none_or(|(f, _)| at <= f) => m.found,
            _ => {
                let rest = &text[at..];
                let hit = first(rest);
                count(hit.map_or(rest.len(), |(p, _)| p + 1));
                hit.map(|(p, len)| (at + p, len))
            }
        };
        let fresh = Memo {
            key,
            from: at,
            found,
        };
        match memo {
            Some(k) => self.memos[k] = fresh,
            None => self.memos.push(fresh),
        }
        found
    }

    /// `hay.find(pat)`, remembered.
    pub(super) fn find(&mut self, hay: &str, pat: &'static str) -> Option<usize> {
        let Some((text, start, end)) = self.locate(hay) else {
            count(hay.len());
            return hay.find(pat);
        };
        let (f, _) = self.remembered(text, Sought::Str(pat), start, |t| {
            t.find(pat).map(|p| (p, pat.len()))
        })?;
        (f + pat.len() <= end).then(|| f - start)
    }

    /// True when `hay` holds a whitespace character, remembered.
    pub(super) fn has_space(&mut self, hay: &str) -> bool {
        let Some((text, start, end)) = self.locate(hay) else {
            count(hay.len());
            return hay.contains(char::is_whitespace);
        };
        self.remembered(text, Sought::Space, start, |t| {
            t.char_indices()
                .find(|(_, c)| c.is_whitespace())
                .map(|(p, c)| (p, c.len_utf8()))
        })
        .is_some_and(|(f, len)| f + len <= end)
    }

    /// Where `rest` (the text after an emphasis opener of `run` times `c`,
    /// from the end of that run) holds a closer for it: the first run of
    /// exactly `run` times `c`, after a character that is not a space and
    /// before one that is not part of a word (or the end of `rest`).
    pub(super) fn emphasis_closer(&mut self, rest: &str, c: u8, run: usize) -> Option<usize> {
        let Some((text, start, end)) = self.locate(rest) else {
            return closer_by_scanning(rest, c, run);
        };
        // In the whole text, the first closer from here; one that ends
        // inside `rest` closes here too.
        let whole = self.remembered(text, Sought::Closer(c, run), start, |t| {
            first_closer(t, c, run)
        });
        if let Some((f, len)) = whole
            && f + len <= end
        {
            return Some(f - start);
        }
        // A run cut by the end of `rest` (or with a word after it in the
        // text but not in `rest`) may close here though not in the text.
        let b = rest.as_bytes();
        let trail = b
            .iter()
            .rev()
            .take(run + 1)
            .take_while(|&&x| x == c)
            .count();
        count(trail);
        let j = rest.len() - trail;
        (trail == run && j > 0 && closes(rest, j, c, run).is_some()).then_some(j)
    }

    /// Given text starting with `{`, the byte offset of its matching `}`:
    /// the first unescaped `}` that brings the depth back to where it was.
    pub(super) fn matching_brace(&mut self, s: &str) -> Option<usize> {
        if s.as_bytes().first() != Some(&b'{') {
            return None;
        }
        let Some((text, start, end)) = self.locate(s) else {
            return scan_brace(s);
        };
        let table = self
            .braces
            .get_or_insert_with(|| brace_table(text.as_bytes()));
        let at = start as u32;
        // The first entry not before `at`: walked to from the last one
        // asked for when reading goes on, searched for when it went back.
        let mut k = self.cursor.min(table.len());
        if k > 0 && table[k - 1].0 >= at {
            k = table.partition_point(|&(p, _)| p < at);
        } else {
            let from = k;
            while k < table.len() && table[k].0 < at {
                k += 1;
            }
            count(k - from);
        }
        self.cursor = k;
        count(1);
        let &(p, close) = table.get(k)?;
        let close = close as usize;
        (p == at && close < end).then(|| close - start)
    }
}

/// The length of the run of `c` at `t[j..]` when it closes an emphasis of
/// `run` times `c`: after a character that is not a space, before one that
/// is not part of a word (or the end of `t`), and `run` long.
fn closes(t: &str, j: usize, c: u8, run: usize) -> Option<usize> {
    let b = t.as_bytes();
    let len = b[j..].iter().take_while(|&&x| x == c).count();
    count(len);
    let prev = t[..j].chars().next_back();
    let next = t[j + len..].chars().next();
    (len == run
        && prev.is_some_and(|p| !p.is_whitespace())
        && !next.is_some_and(super::is_word_char))
    .then_some(len)
}

/// The first run of `c` in `t` that closes an emphasis of `run` times `c`,
/// each run taken from its start, with its length.
fn first_closer(t: &str, c: u8, run: usize) -> Option<(usize, usize)> {
    let b = t.as_bytes();
    let mut from = 0;
    while let Some(p) = memchr::memchr(c, &b[from..]) {
        let j = from + p;
        // A run that starts before `t` does is not a closer here.
        if (j == 0 || b[j - 1] != c)
            && let Some(len) = closes(t, j, c, run)
        {
            return Some((j, len));
        }
        from = j + 1;
    }
    None
}

/// [`Scan::emphasis_closer`] by scanning, for text that is not set up.
fn closer_by_scanning(rest: &str, c: u8, run: usize) -> Option<usize> {
    count(rest.len());
    let b = rest.as_bytes();
    let mut from = 0;
    while let Some(p) = memchr::memchr(c, &b[from..]) {
        let j = from + p;
        if let Some(len) = closes(rest, j, c, run) {
            return Some(j).filter(|_| len == run);
        }
        from = j + b[j..].iter().take_while(|&&x| x == c).count();
    }
    None
}

/// [`Scan::matching_brace`] by scanning, for text that is not set up.
fn scan_brace(s: &str) -> Option<usize> {
    let bytes = s.as_bytes();
    let mut level = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 1,
            b'{' => level += 1,
            b'}' => {
                level -= 1;
                if level == 0 {
                    count(i);
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    count(bytes.len());
    None
}

/// The bit of a pending brace that says it was escaped.
const ESCAPED: u32 = 1 << 31;

/// Every `{` of `text` that has a matching `}`, with it, in one pass.
///
/// A scan from a `{` skips the byte after each `\`; after that `{` it is in
/// step with a scan from the start of the text, so which braces count is
/// the same for both. An unescaped `{` matches as usual: the `}` that
/// closes its group. An escaped one (which a scan from it still counts)
/// matches the `}` that closes the group it stands in, or, outside any
/// group, the next `}` that closes none. So the openers wait on one stack:
/// a `}` takes the escaped ones on top, then one unescaped one. Unmatched
/// openers take four bytes each while the text is read, and nothing after.
fn brace_table(text: &[u8]) -> Vec<(u32, u32)> {
    count(text.len());
    let mut out: Vec<(u32, u32)> = Vec::new();
    let mut pending: Vec<u32> = Vec::new();
    let mut escaped = false;
    for (i, &b) in text.iter().enumerate() {
        if escaped {
            escaped = false;
            if b == b'{' {
                pending.push(i as u32 | ESCAPED);
            }
            continue;
        }
        match b {
            b'\\' => escaped = true,
            b'{' => pending.push(i as u32),
            b'}' => {
                while let Some(&p) = pending.last().filter(|&&p| p & ESCAPED != 0) {
                    out.push((p & !ESCAPED, i as u32));
                    pending.pop();
                }
                if let Some(p) = pending.pop() {
                    out.push((p, i as u32));
                }
            }
            _ => {}
        }
    }
    out.sort_unstable_by_key(|&(p, _)| p);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `{` of `s`, matched through the table and by scanning.
    fn agree(s: &str) {
        let mut scan = Scan::new(s);
        for (i, _) in s.match_indices('{') {
            for end in [s.len(), (i + 3).min(s.len())] {
                assert_eq!(
                    scan.matching_brace(&s[i..end]),
                    scan_brace(&s[i..end]),
                    "{s:?} at {i}..{end}"
                );
            }
        }
    }

    #[test]
    fn the_brace_table_matches_as_a_scan_does() {
        for s in [
            "{a}",
            "{{a}",
            "{a}}{",
            "\\{a}",
            "{\\}}",
            "\\\\{a}",
            "{{{{",
            "}}{}{",
            "{ \\{ } }",
            "a{b{c}d}e{",
            "\\{\\{}}",
        ] {
            agree(s);
        }
    }

    #[test]
    fn remembered_searches_give_what_a_search_gives() {
        let s = "a](b x](c ](d";
        let mut scan = Scan::new(s);
        for i in 0..s.len() {
            for j in (i..=s.len()).rev() {
                let hay = &s[i..j];
                assert_eq!(scan.find(hay, "]("), hay.find("]("), "{i}..{j}");
                assert_eq!(scan.has_space(hay), hay.contains(char::is_whitespace));
                // A copy is no slice of the text: searched as it is.
                let copy = hay.to_string();
                assert_eq!(scan.find(&copy, "]("), hay.find("]("), "{i}..{j}");
                assert_eq!(scan.has_space(&copy), hay.contains(char::is_whitespace));
            }
        }
    }
}

#[cfg(test)]
mod props {
    use super::*;
    use proptest::prelude::*;

    /// The closer search as first written: every run of the delimiter in
    /// turn, from just after the opener.
    fn closer_by_search(rest: &str, c: char, run: usize) -> Option<usize> {
        use super::super::{is_word_char, next_char, prev_char};
        let delim = c.to_string().repeat(run);
        let mut from = run;
        while let Some(pos) = rest[from..].find(&delim) {
            let j = from + pos;
            let closer_run = rest[j..].bytes().take_while(|&b| b == c as u8).count();
            let prev = prev_char(rest, j);
            let next = next_char(rest, j + closer_run);
            if closer_run == run
                && prev.is_some_and(|p| !p.is_whitespace())
                && !next.is_some_and(is_word_char)
                && j > run
            {
                return Some(j);
            }
            from = j + closer_run.max(1);
        }
        None
    }

    proptest! {
        #[test]
        fn emphasis_closes_where_the_search_did(s in "[*_ ab.é]{0,24}") {
            let mut scan = Scan::new(&s);
            for (i, c) in s.char_indices().filter(|(_, c)| matches!(c, '*' | '_')) {
                let run = s[i..].bytes().take_while(|&b| b == c as u8).count();
                if run > 3 || (i > 0 && s.as_bytes()[i - 1] == c as u8) {
                    continue;
                }
                for end in (i + run..=s.len()).filter(|&e| s.is_char_boundary(e)) {
                    let rest = &s[i..end];
                    let want = closer_by_search(rest, c, run);
                    let got = scan.emphasis_closer(&rest[run..], c as u8, run).map(|j| j + run);
                    prop_assert_eq!(got, want, "{:?} {}..{}", s, i, end);
                    // And by scanning, for a string that is no slice of it.
                    let copy = rest[run..].to_string();
                    let got = scan.emphasis_closer(&copy, c as u8, run).map(|j| j + run);
                    prop_assert_eq!(got, want, "{:?} {}..{} copied", s, i, end);
                }
            }
        }

        #[test]
        fn braces_match_as_a_scan_does(s in "[{}\\\\a ]{0,24}") {
            let mut scan = Scan::new(&s);
            for (i, _) in s.match_indices('{') {
                for end in i + 1..=s.len() {
                    prop_assert_eq!(scan.matching_brace(&s[i..end]), scan_brace(&s[i..end]));
                }
            }
        }

        #[test]
        fn searches_in_any_order_find_what_a_search_finds(
            s in "[\\](x ]{0,20}",
            order in proptest::collection::vec((0usize..21, 0usize..21), 0..12),
        ) {
            let mut scan = Scan::new(&s);
            for (a, b) in order {
                let (a, b) = (a.min(s.len()), b.min(s.len()));
                let (a, b) = (a.min(b), a.max(b));
                prop_assert_eq!(scan.find(&s[a..b], "]("), s[a..b].find("]("));
                prop_assert_eq!(scan.find(&s[a..b], ")"), s[a..b].find(')'));
                prop_assert_eq!(scan.has_space(&s[a..b]), s[a..b].contains(char::is_whitespace));
            }
        }
    }
}
