//! Look-ahead that costs the text once, not once per opener.
//!
//! The readers of markup look ahead for the end of what an opener starts:
//! the `}` of a `{`, the `](` of a `[`, the `>` of `<https://`, the closing
//! `*` of an emphasis. Searching afresh from every opener makes a run of
//! openers without a closer (a megabyte of `{` or of `[a](`) quadratic. So
//! [`super::render`] sets up, for the text it renders, a [`Scan`] that
//! remembers the answers: where the next occurrence of a pattern lies after
//! a position (as reading goes on, a search that failed is not repeated
//! over the same bytes),
//! and the matching `}` of every `{`, found in one pass with a stack. The
//! readers still see slices of the text; each answer is cut to the slice
//! asked about, so it is the answer a plain search of that slice gives.
//!
//! Every search here also counts the bytes it looks at
//! ([`crate::text::work`]), which the tests use to hold rendering to a
//! bound linear in its input.

use std::cell::RefCell;

pub(crate) use crate::text::work::count;

thread_local! {
    static SCAN: RefCell<Option<Scan>> = const { RefCell::new(None) };
}

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

/// What is remembered about one text while it renders.
struct Scan {
    /// Address and length of the text.
    base: usize,
    len: usize,
    memos: Vec<Memo>,
    /// Positions of every `{` that has a matching `}`, and of that `}`,
    /// in order, built on first use.
    braces: Option<Vec<(u32, u32)>>,
    /// The entry of `braces` last asked for: text is read left to right,
    /// so the next one asked for is mostly the one after it.
    cursor: usize,
}

impl Scan {
    /// `s` as a byte range of the text, when it is a slice of it.
    fn locate(&self, s: &str) -> Option<(usize, usize)> {
        let start = (s.as_ptr() as usize).checked_sub(self.base)?;
        (start + s.len() <= self.len).then_some((start, start + s.len()))
    }
}

/// Runs `f` with look-ahead remembered for `src` (and its slices). Nested
/// calls on slices of a text already set up share its memory.
pub(super) fn with_scan<T>(src: &str, f: impl FnOnce() -> T) -> T {
    let inside = SCAN.with(|s| s.borrow().as_ref().is_some_and(|s| s.locate(src).is_some()));
    // Texts too long for the brace table's `u32` positions (with a bit
    // to spare) are read without memory (no abstract comes near 2 GB).
    if inside || src.len() >= ESCAPED as usize {
        return f();
    }
    let fresh = Scan {
        base: src.as_ptr() as usize,
        len: src.len(),
        memos: Vec::new(),
        braces: None,
        cursor: 0,
    };
    let outer = SCAN.with(|s| s.borrow_mut().replace(fresh));
    struct Restore(Option<Option<Scan>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            if let Some(outer) = self.0.take() {
                SCAN.with(|s| *s.borrow_mut() = outer);
            }
        }
    }
    let _restore = Restore(Some(outer));
    f()
}

/// The text the scan covers, from byte `at` on.
///
/// # Safety
/// `scan` describes a live `&str` that outlives this call: [`with_scan`]
/// holds it borrowed while `scan` is installed.
unsafe fn tail(scan: &Scan, at: usize) -> &str {
    // SAFETY: `base..base + len` is the `&str` given to `with_scan`, still
    // borrowed; `at` is a char boundary since it is the start of a slice of
    // it or an occurrence found in it.
    unsafe {
        let all = std::slice::from_raw_parts(scan.base as *const u8, scan.len);
        std::str::from_utf8_unchecked(&all[at..])
    }
}

/// The first occurrence of `key` at or after byte `at` of the text, and its
/// length, found with `first` (which looks in a `&str` and returns the
/// offset and length of what it finds).
fn remembered(
    scan: &mut Scan,
    key: Sought,
    at: usize,
    first: impl Fn(&str) -> Option<(usize, usize)>,
) -> Option<(usize, usize)> {
    let memo = scan.memos.iter().position(|m| m.key == key);
    let known = memo.map(|k| &scan.memos[k]);
    let found = match known {
        Some(m) if m.from <= at && m.found.is_none_or(|(f, _)| at <= f) => m.found,
        _ => {
            // SAFETY: see `tail`.
            let rest = unsafe { tail(scan, at) };
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
        Some(k) => scan.memos[k] = fresh,
        None => scan.memos.push(fresh),
    }
    found
}

/// `hay.find(pat)`, remembered.
pub(super) fn find(hay: &str, pat: &'static str) -> Option<usize> {
    SCAN.with(|s| {
        let mut s = s.borrow_mut();
        let Some((scan, (start, end))) = s.as_mut().and_then(|sc| sc.locate(hay).map(|r| (sc, r)))
        else {
            count(hay.len());
            return hay.find(pat);
        };
        let (f, _) = remembered(scan, Sought::Str(pat), start, |t| {
            t.find(pat).map(|p| (p, pat.len()))
        })?;
        (f + pat.len() <= end).then(|| f - start)
    })
}

/// True when `hay` holds a whitespace character, remembered.
pub(super) fn has_space(hay: &str) -> bool {
    SCAN.with(|s| {
        let mut s = s.borrow_mut();
        let Some((scan, (start, end))) = s.as_mut().and_then(|sc| sc.locate(hay).map(|r| (sc, r)))
        else {
            count(hay.len());
            return hay.contains(char::is_whitespace);
        };
        remembered(scan, Sought::Space, start, |t| {
            t.char_indices()
                .find(|(_, c)| c.is_whitespace())
                .map(|(p, c)| (p, c.len_utf8()))
        })
        .is_some_and(|(f, len)| f + len <= end)
    })
}

/// Where `rest` (the text after an emphasis opener of `run` times `c`,
/// from the end of that run) holds a closer for it: the first run of
/// exactly `run` times `c`, after a character that is not a space and
/// before one that is not part of a word (or the end of `rest`).
pub(super) fn emphasis_closer(rest: &str, c: u8, run: usize) -> Option<usize> {
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
    /// Runs of `c` in `t` from offset `from`, each from its start.
    fn first(t: &str, c: u8, run: usize) -> Option<(usize, usize)> {
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
    let plain = |rest: &str| {
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
    };
    SCAN.with(|s| {
        let mut s = s.borrow_mut();
        let Some((scan, (start, end))) = s.as_mut().and_then(|sc| sc.locate(rest).map(|r| (sc, r)))
        else {
            return plain(rest);
        };
        // In the whole text, the first closer from here; one that ends
        // inside `rest` closes here too.
        let whole = remembered(scan, Sought::Closer(c, run), start, |t| first(t, c, run));
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
    })
}

/// Given text starting with `{`, the byte offset of its matching `}`: the
/// first unescaped `}` that brings the depth back to where it was.
pub(super) fn matching_brace(s: &str) -> Option<usize> {
    if s.as_bytes().first() != Some(&b'{') {
        return None;
    }
    SCAN.with(|cell| {
        let mut cell = cell.borrow_mut();
        let Some((scan, (start, end))) = cell.as_mut().and_then(|sc| sc.locate(s).map(|r| (sc, r)))
        else {
            return scan_brace(s);
        };
        if scan.braces.is_none() {
            // SAFETY: see `tail`.
            let text = unsafe { tail(scan, 0) };
            scan.braces = Some(brace_table(text.as_bytes()));
        }
        let table = scan.braces.as_ref()?;
        let at = start as u32;
        // The first entry not before `at`: walked to from the last one
        // asked for when reading goes on, searched for when it went back.
        let mut k = scan.cursor.min(table.len());
        if k > 0 && table[k - 1].0 >= at {
            k = table.partition_point(|&(p, _)| p < at);
        } else {
            let from = k;
            while k < table.len() && table[k].0 < at {
                k += 1;
            }
            count(k - from);
        }
        scan.cursor = k;
        count(1);
        let &(p, close) = table.get(k)?;
        let close = close as usize;
        (p == at && close < end).then(|| close - start)
    })
}

/// [`matching_brace`] by scanning, for text that is not set up.
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
        with_scan(s, || {
            for (i, _) in s.match_indices('{') {
                for end in [s.len(), (i + 3).min(s.len())] {
                    assert_eq!(
                        matching_brace(&s[i..end]),
                        scan_brace(&s[i..end]),
                        "{s:?} at {i}..{end}"
                    );
                }
            }
        });
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
        with_scan(s, || {
            for i in 0..s.len() {
                for j in (i..=s.len()).rev() {
                    assert_eq!(find(&s[i..j], "]("), s[i..j].find("]("), "{i}..{j}");
                    assert_eq!(has_space(&s[i..j]), s[i..j].contains(char::is_whitespace));
                }
            }
        });
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
            with_scan(&s, || {
                for (i, c) in s.char_indices().filter(|(_, c)| matches!(c, '*' | '_')) {
                    let run = s[i..].bytes().take_while(|&b| b == c as u8).count();
                    if run > 3 || (i > 0 && s.as_bytes()[i - 1] == c as u8) {
                        continue;
                    }
                    for end in (i + run..=s.len()).filter(|&e| s.is_char_boundary(e)) {
                        let rest = &s[i..end];
                        let got = emphasis_closer(&rest[run..], c as u8, run).map(|j| j + run);
                        prop_assert_eq!(got, closer_by_search(rest, c, run), "{:?} {}..{}", s, i, end);
                    }
                }
                Ok(())
            })?;
        }

        #[test]
        fn braces_match_as_a_scan_does(s in "[{}\\\\a ]{0,24}") {
            with_scan(&s, || {
                for (i, _) in s.match_indices('{') {
                    for end in i + 1..=s.len() {
                        prop_assert_eq!(matching_brace(&s[i..end]), scan_brace(&s[i..end]));
                    }
                }
                Ok(())
            })?;
        }

        #[test]
        fn searches_in_any_order_find_what_a_search_finds(
            s in "[\\](x ]{0,20}",
            order in proptest::collection::vec((0usize..21, 0usize..21), 0..12),
        ) {
            with_scan(&s, || {
                for (a, b) in order {
                    let (a, b) = (a.min(s.len()), b.min(s.len()));
                    let (a, b) = (a.min(b), a.max(b));
                    prop_assert_eq!(find(&s[a..b], "]("), s[a..b].find("]("));
                    prop_assert_eq!(find(&s[a..b], ")"), s[a..b].find(')'));
                    prop_assert_eq!(has_space(&s[a..b]), s[a..b].contains(char::is_whitespace));
                }
                Ok(())
            })?;
        }
    }
}
