//! Making corpus text safe to print.
//!
//! Every string that comes from a file passes through here once, at load, so
//! that nothing the UI or the CLI prints can move the cursor, retitle the
//! window, write the clipboard or reorder the text on screen. Whole escape
//! sequences are removed (not just their ESC byte, which would leave the rest
//! of the sequence as visible garbage), as are other control characters,
//! bidirectional overrides and invisible characters.

/// Where the text goes: a one-line field (title, author, file name) or a
/// block (an abstract), which keeps its paragraph breaks as `\n`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Shape {
    /// One line: every line break becomes a space.
    Line,
    /// Paragraphs: single line breaks join lines, blank lines separate
    /// paragraphs (kept as one blank line, `\n\n`).
    Block,
}

/// Sanitizes `input` as one line: controls and escape sequences removed,
/// whitespace runs folded to one space, trimmed.
pub fn line(input: &str) -> String {
    clean(input, Shape::Line)
}

/// Sanitizes `input` as a block of paragraphs separated by `\n\n`.
pub fn block(input: &str) -> String {
    clean(input, Shape::Block)
}

/// [`line`] for a string the caller gives up: returned as it is, without a
/// copy, when it is clean already (the common case).
pub fn line_owned(input: String) -> String {
    if already_clean(&input) {
        input
    } else {
        clean(&input, Shape::Line)
    }
}

/// [`line`], borrowing `input` when it is clean already (the common case).
pub fn line_cow(input: &str) -> std::borrow::Cow<'_, str> {
    if already_clean(input) {
        std::borrow::Cow::Borrowed(input)
    } else {
        std::borrow::Cow::Owned(clean(input, Shape::Line))
    }
}

/// [`block`] for a string the caller gives up (see [`line_owned`]).
pub fn block_owned(input: String) -> String {
    if already_clean(&input) {
        input
    } else {
        clean(&input, Shape::Block)
    }
}

/// True for characters that are removed outright: bidi embeddings,
/// overrides and isolates, and zero-width or invisible format characters.
fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{200B}'..='\u{200F}'   // zero-width space/joiners, LRM, RLM
        | '\u{202A}'..='\u{202E}' // bidi embeddings and overrides
        | '\u{2060}'..='\u{2064}' // word joiner, invisible operators
        | '\u{2066}'..='\u{2069}' // bidi isolates
        | '\u{061C}'              // Arabic letter mark
        | '\u{FEFF}'              // BOM / zero-width no-break space
        | '\u{00AD}'              // soft hyphen: invisible unless the line breaks there
    )
}

/// Sanitizes `input` for the given shape.
pub fn clean(input: &str, shape: Shape) -> String {
    super::work::count(input.len());
    if already_clean(input) {
        return input.to_string();
    }
    let stripped = strip_controls(input);
    fold_whitespace(&stripped, shape)
}

/// True when `input` would come out of [`clean`] unchanged in either shape:
/// no control, invisible or separator character, no leading, trailing or
/// doubled space. Most corpus text is like that; checking is much cheaper
/// than rebuilding it.
fn already_clean(input: &str) -> bool {
    let bytes = input.as_bytes();
    if bytes.first() == Some(&b' ') || bytes.last() == Some(&b' ') {
        return false;
    }
    if input.is_ascii() {
        return plain_ascii_line(bytes);
    }
    let mut prev_space = false;
    for c in input.chars() {
        if c.is_control() || is_invisible(c) || c.is_whitespace() && (c != ' ' || prev_space) {
            return false;
        }
        prev_space = c == ' ';
    }
    true
}

/// True when `bytes` are printable ASCII without a doubled space (leading
/// and trailing spaces are the caller's to check). Written without early
/// exits, so that the compiler can vectorise it: it runs over every title
/// and abstract loaded.
pub fn plain_ascii_line(bytes: &[u8]) -> bool {
    let printable = bytes
        .iter()
        .fold(true, |ok, &b| ok & (0x20..0x7f).contains(&b));
    let doubled = bytes
        .iter()
        .zip(bytes.get(1..).unwrap_or(&[]))
        .fold(false, |d, (&a, &b)| d | ((a == b' ') & (b == b' ')));
    printable && !doubled
}

/// Removes escape sequences and control characters. Tabs become spaces;
/// CR, LF, U+2028 and U+2029 become `\n` (folded later).
fn strip_controls(input: &str) -> String {
    let mut out = String::with_capacity(input.len());
    let mut strings = Strings {
        none_from: usize::MAX,
    };
    let mut chars = input.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '\u{1B}' => {
                let skip = escape_len(input, i + 1, &mut strings);
                // Advance past `skip` bytes of `rest`.
                let end = i + 1 + skip;
                while let Some(&(j, _)) = chars.peek() {
                    if j >= end {
                        break;
                    }
                    chars.next();
                }
            }
            // C1 introducers of control strings and CSI.
            '\u{9B}' | '\u{9D}' | '\u{90}' | '\u{98}' | '\u{9E}' | '\u{9F}' => {
                let at = i + c.len_utf8();
                let skip = if c == '\u{9B}' {
                    csi_len(&input[at..])
                } else {
                    strings.len(input, at).unwrap_or(0)
                };
                let end = i + c.len_utf8() + skip;
                while let Some(&(j, _)) = chars.peek() {
                    if j >= end {
                        break;
                    }
                    chars.next();
                }
            }
            '\t' => out.push(' '),
            // CRLF is one line end.
            '\r' if input[i + 1..].starts_with('\n') => {}
            '\n' | '\r' | '\u{2028}' | '\u{2029}' | '\u{85}' => out.push('\n'),
            c if c.is_control() => {}
            c if is_invisible(c) => {}
            c => out.push(c),
        }
    }
    out
}

/// Where control strings are known to be unterminated: one that has no
/// terminator after byte `none_from` has none after any later byte either,
/// so a run of introducers is not read to the end of the text from each.
struct Strings {
    none_from: usize,
}

impl Strings {
    /// [`string_len`] of `input` from byte `at`.
    fn len(&mut self, input: &str, at: usize) -> Option<usize> {
        if at >= self.none_from {
            return None;
        }
        let n = string_len(&input[at..]);
        super::work::count(n.unwrap_or(input.len() - at));
        if n.is_none() {
            self.none_from = at;
        }
        n
    }
}

/// Length in bytes of the escape sequence that follows an ESC byte at
/// `at - 1` of `input`.
fn escape_len(input: &str, at: usize, strings: &mut Strings) -> usize {
    let rest = &input[at..];
    let bytes = rest.as_bytes();
    match bytes.first() {
        None => 0,
        Some(b'[') => 1 + csi_len(&rest[1..]),
        Some(b']' | b'P' | b'X' | b'^' | b'_') => match strings.len(input, at + 1) {
            Some(n) => 1 + n,
            // Unterminated: drop the introducer only, so no text is lost.
            None => 1,
        },
        Some(&b) if (0x20..=0x2F).contains(&b) => {
            // nF sequences: intermediates then one final byte.
            let mut n = 0;
            while n < bytes.len() && (0x20..=0x2F).contains(&bytes[n]) {
                n += 1;
            }
            if n < bytes.len() && (0x30..=0x7E).contains(&bytes[n]) {
                n + 1
            } else {
                n
            }
        }
        Some(&b) if (0x30..=0x7E).contains(&b) => 1,
        Some(_) => 0,
    }
}

/// Length of a CSI sequence body: parameters, intermediates, final byte.
fn csi_len(rest: &str) -> usize {
    let bytes = rest.as_bytes();
    let mut n = 0;
    while n < bytes.len() && (0x30..=0x3F).contains(&bytes[n]) {
        n += 1;
    }
    while n < bytes.len() && (0x20..=0x2F).contains(&bytes[n]) {
        n += 1;
    }
    if n < bytes.len() && (0x40..=0x7E).contains(&bytes[n]) {
        n + 1
    } else {
        n
    }
}

/// Length of a control string (OSC, DCS, SOS, PM, APC) up to and including
/// its terminator (BEL, ESC \ or C1 ST); `None` when it is unterminated.
fn string_len(rest: &str) -> Option<usize> {
    for (i, c) in rest.char_indices() {
        match c {
            '\u{07}' | '\u{9C}' => return Some(i + c.len_utf8()),
            '\u{1B}' => {
                return Some(if rest[i + 1..].starts_with('\\') {
                    i + 2
                } else {
                    i + 1
                });
            }
            _ => {}
        }
    }
    None
}

fn fold_whitespace(text: &str, shape: Shape) -> String {
    let mut out = String::with_capacity(text.len());
    match shape {
        Shape::Line => {
            for word in text.split_whitespace() {
                if !out.is_empty() {
                    out.push(' ');
                }
                out.push_str(word);
            }
        }
        Shape::Block => {
            let mut blank_run = false;
            for line in text.split('\n') {
                let line = line.trim();
                if line.is_empty() {
                    blank_run = true;
                    continue;
                }
                if !out.is_empty() {
                    out.push_str(if blank_run { "\n\n" } else { " " });
                }
                blank_run = false;
                for (k, word) in line.split_whitespace().enumerate() {
                    if k > 0 {
                        out.push(' ');
                    }
                    out.push_str(word);
                }
            }
        }
    }
    out
}

/// True when `text` holds no character that [`clean`] would remove.
pub fn is_clean(text: &str) -> bool {
    !text.chars().any(|c| {
        (c.is_control() && c != '\n') || is_invisible(c) || matches!(c, '\u{2028}' | '\u{2029}')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removes_whole_escape_sequences() {
        assert_eq!(line("a\u{1b}[2Jb"), "ab");
        assert_eq!(line("a\u{1b}]0;evil title\u{07}b"), "ab");
        assert_eq!(
            line("a\u{1b}]8;;http://x\u{1b}\\link\u{1b}]8;;\u{1b}\\b"),
            "alinkb"
        );
        assert_eq!(line("a\u{1b}]52;c;aGVsbG8=\u{07}b"), "ab");
        assert_eq!(line("a\u{1b}Pq#0;2;0;0;0\u{1b}\\b"), "ab");
        assert_eq!(line("a\u{9b}31mb"), "ab");
        assert_eq!(line("a\u{1b}(Bb"), "ab");
        assert_eq!(line("a\u{1b}cb"), "ab");
    }

    #[test]
    fn unterminated_control_string_keeps_the_words() {
        assert_eq!(line("a\u{1b}]0;still here"), "a0;still here");
    }

    #[test]
    fn removes_controls_bidi_and_invisibles() {
        assert_eq!(line("a\u{07}b\u{0}c\u{7f}d"), "abcd");
        assert_eq!(line("ab\u{202E}cd\u{2066}e\u{2069}"), "abcde");
        assert_eq!(line("zero\u{200B}width\u{FEFF}"), "zerowidth");
        assert_eq!(line("tab\there"), "tab here");
        assert_eq!(line("line\r\nbreak\u{2028}sep"), "line break sep");
    }

    #[test]
    fn block_keeps_paragraphs() {
        assert_eq!(
            block("one\ntwo\n\n\nthree  four\n"),
            "one two\n\nthree four"
        );
        assert_eq!(block("crlf\r\nline\r\n\r\nnext"), "crlf line\n\nnext");
        assert_eq!(block("  \n\nx"), "x");
    }

    #[test]
    fn clean_text_is_unchanged() {
        let s = "ICML 2026 论文列表 π-Distill — fine";
        assert_eq!(line(s), s);
        assert!(is_clean(s));
    }
}

#[cfg(test)]
mod props {
    use super::*;
    use proptest::prelude::*;

    fn hostile() -> impl Strategy<Value = String> {
        proptest::collection::vec(
            prop_oneof![
                Just("\u{1b}".to_string()),
                Just("\u{1b}[".to_string()),
                Just("\u{1b}]".to_string()),
                Just("\u{1b}P".to_string()),
                Just("\u{9b}".to_string()),
                Just("\u{9d}".to_string()),
                Just("\u{7}".to_string()),
                Just("\u{1b}\\".to_string()),
                Just("\u{202e}".to_string()),
                Just("\u{200b}".to_string()),
                Just("\u{2028}".to_string()),
                Just("\t".to_string()),
                Just("\r\n".to_string()),
                Just("\n\n".to_string()),
                "[a-z0-9;:]{0,5}".prop_map(|s| s),
                any::<char>().prop_map(|c| c.to_string()),
            ],
            0..40,
        )
        .prop_map(|v| v.concat())
    }

    proptest! {
        #[test]
        fn sanitizing_is_idempotent_and_leaves_nothing_forbidden(s in hostile()) {
            for shape in [Shape::Line, Shape::Block] {
                let once = clean(&s, shape);
                prop_assert!(is_clean(&once), "{:?}", once);
                prop_assert_eq!(clean(&once, shape), once.clone());
                if shape == Shape::Line {
                    prop_assert!(!once.contains('\n'));
                }
            }
        }

        #[test]
        fn any_string_sanitizes_clean(s in any::<String>()) {
            prop_assert!(is_clean(&line(&s)));
            prop_assert!(is_clean(&block(&s)));
        }
    }
}
