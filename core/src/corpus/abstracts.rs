//! A paper's abstract: held as text, or left in the file it came from and
//! read when it is shown or indexed.
//!
//! Abstracts are most of a corpus: in the arXiv snapshot about 1.2 of its
//! 1.5 GB. Decoding, cleaning and keeping them all while loading cost more
//! than half of the time it took for a million papers' titles to become
//! searchable, and the memory they took had to be cleared by the kernel
//! first. So a JSON Lines file that is mapped while it loads keeps, for
//! each plain abstract, only where it is in the file: the text is read back
//! (a few kilobytes, from the page cache) when the reader shows it and when
//! the background index reads it. The file is read through its own open
//! handle, so a file replaced by a new one (as editors and most exports
//! do) leaves the opened one readable; a file rewritten in place is
//! noticed (its length or time changed) and the abstract says so, where a
//! mapping would have crashed the reader.

use std::borrow::Cow;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::SystemTime;

pub use super::json_string::{Plain, plain_json_string};
use super::json_string::{string_paragraphs, words_as_written};
use crate::text::sanitize;

/// An open file that abstracts are read back from, and what it was like
/// when it was opened.
pub struct FileText {
    file: File,
    path: PathBuf,
    len: u64,
    modified: Option<SystemTime>,
}

/// A count of things in use, up to a maximum.
struct Slots {
    used: AtomicUsize,
    max: usize,
}

impl Slots {
    const fn new(max: usize) -> Slots {
        Slots {
            used: AtomicUsize::new(0),
            max,
        }
    }

    /// Takes a slot: false when all are in use.
    fn take(&self) -> bool {
        if self.used.fetch_add(1, Ordering::AcqRel) >= self.max {
            self.used.fetch_sub(1, Ordering::AcqRel);
            return false;
        }
        true
    }

    fn give_back(&self) {
        self.used.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Files kept open to read abstracts back from, at most 256: a directory
/// of thousands of large files must not use up the process's file handles
/// (saving the marks needs one). Past that, a file's abstracts are decoded
/// as they load.
static OPEN: Slots = Slots::new(256);

impl FileText {
    /// Keeps a handle of `file` (at `path`) to read abstracts back from;
    /// `None` when as many as [`OPEN`] allows are kept already, or it
    /// cannot be had.
    pub fn open(file: &File, path: &Path) -> Option<Arc<FileText>> {
        if !OPEN.take() {
            return None;
        }
        let kept = (|| {
            let meta = file.metadata().ok()?;
            Some(FileText {
                file: file.try_clone().ok()?,
                path: path.to_path_buf(),
                len: meta.len(),
                modified: meta.modified().ok(),
            })
        })();
        if kept.is_none() {
            OPEN.give_back();
        }
        kept.map(Arc::new)
    }

    /// True while the file is as it was when opened.
    fn unchanged(&self) -> bool {
        self.file
            .metadata()
            .is_ok_and(|m| m.len() == self.len && m.modified().ok() == self.modified)
    }

    /// The `len` bytes at `at`, while the file is unchanged.
    fn read(&self, at: u64, len: u32) -> Result<Vec<u8>, String> {
        let mut buf = Vec::new();
        self.read_into(at, len, &mut buf)?;
        Ok(buf)
    }

    /// [`FileText::read`] into the start of `buf`, which grows to `len`
    /// bytes if shorter and is not made shorter: a buffer read into again
    /// and again is cleared only once (a run of abstracts is a megabyte,
    /// and clearing each had been a twentieth of a search's reading).
    fn read_into<'b>(&self, at: u64, len: u32, buf: &'b mut Vec<u8>) -> Result<&'b [u8], String> {
        let changed = || {
            format!(
                "{} has changed since it was opened: open it again to read this abstract",
                self.path.display()
            )
        };
        if !self.unchanged() {
            return Err(changed());
        }
        let len = len as usize;
        if buf.len() < len {
            buf.resize(len, 0);
        }
        read_exact_at(&self.file, &mut buf[..len], at).map_err(|e| {
            format!(
                "could not read the abstract from {}: {e}",
                self.path.display()
            )
        })?;
        Ok(&buf[..len])
    }
}

impl FileText {
    /// The text of an abstract's JSON string as read back.
    fn decode(&self, raw: &[u8]) -> Result<String, String> {
        let text = std::str::from_utf8(raw)
            .ok()
            .and_then(string_paragraphs)
            .ok_or_else(|| {
                format!(
                    "{} no longer holds this abstract where it was: open it again to read it",
                    self.path.display()
                )
            })?;
        Ok(sanitize::block_owned(text))
    }
}

/// An abstract as [`for_each_read`] gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Read<'a> {
    /// Its text.
    Text(&'a str),
    /// The inside of its JSON string as written, when its words can be
    /// read there ([`words_as_written`]): an index need not decode it.
    Written(&'a str),
}

/// Calls `f` with each of `all` that can be read (its index and text), in
/// order, until `f` says to stop (returns false); false then. Abstracts
/// left near one another in the same file (as a file's papers are) are
/// read a run of up to [`RUN`] bytes at a time: the background index reads
/// a million of them, and a read and a check of the file each had cost
/// two million system calls.
pub fn for_each_text(all: &[Abstract], mut f: impl FnMut(usize, &str) -> bool) -> bool {
    each(all, false, |k, read| match read {
        Read::Text(t) | Read::Written(t) => f(k, t),
    })
}

/// [`for_each_text`], but an abstract left in its file whose words can be
/// read as written is given so ([`Read::Written`]), not decoded: for the
/// word index, which reads every abstract and needs only its words. (In
/// the arXiv sample of the tests 110 of 200 abstracts are, the others
/// having markup; decoding, folding and cleaning such abstracts had been
/// a third of a cold search over the synthetic corpus.)
pub fn for_each_read(all: &[Abstract], f: impl FnMut(usize, Read<'_>) -> bool) -> bool {
    each(all, true, f)
}

/// [`for_each_read`] over `n` abstracts, the `k`th `at(k)`, those left in
/// `file` between `start` and `start + bytes.len()` read from `bytes` (the
/// file's bytes there, in memory) rather than from the file: for an index
/// made as the papers are parsed, while their line is in the core's cache.
pub fn for_each_read_in<'a>(
    n: usize,
    at: impl Fn(usize) -> &'a Abstract,
    view: Option<(&FileText, u64, &[u8])>,
    mut f: impl FnMut(usize, Read<'_>) -> bool,
) -> bool {
    // The bytes of `len` at `at` in `file`, if the view holds them.
    let viewed = |file: &FileText, at: u64, len: u32| {
        let (theirs, start, bytes) = view?;
        if !std::ptr::eq(file, theirs) {
            return None;
        }
        let from = usize::try_from(at.checked_sub(start)?).ok()?;
        bytes.get(from..from.checked_add(len as usize)?)
    };
    for k in 0..n {
        let a = at(k);
        let go_on = match a {
            Abstract::Text(t) => f(k, Read::Text(t)),
            Abstract::Json {
                file,
                at,
                len,
                words,
            } => match viewed(file, *at, *len) {
                Some(raw) => give(&mut f, k, true, file, raw, *words),
                None => each(std::slice::from_ref(a), true, |_, r| f(k, r)),
            },
        };
        if !go_on {
            return false;
        }
    }
    true
}

/// Gives `f` abstract `k` as read back from `raw` (a JSON string in
/// `file`), whose words were told to be readable as written or not
/// (`words`) when it loaded: [`Read::Written`] when `written` and they
/// are.
fn give(
    f: &mut dyn FnMut(usize, Read<'_>) -> bool,
    k: usize,
    written: bool,
    file: &FileText,
    raw: &[u8],
    words: Option<bool>,
) -> bool {
    let inner = match words {
        _ if !written => None,
        // Its bytes were checked when loaded; only that they are still
        // ASCII (the file may have been rewritten in place since,
        // keeping its length and time) is checked again.
        // (Checking them as UTF-8 again was 1% of a cold search.)
        Some(true) => crate::simd::ascii_str(raw)
            .filter(|s| s.len() >= 2)
            .map(|s| &s[1..s.len() - 1]),
        Some(false) => None,
        None => std::str::from_utf8(raw).ok().and_then(words_as_written),
    };
    if let Some(inner) = inner {
        return f(k, Read::Written(inner));
    }
    match file.decode(raw) {
        Ok(text) => f(k, Read::Text(&text)),
        // Passed over, as it cannot be read.
        Err(_) => true,
    }
}

fn each(all: &[Abstract], written: bool, mut f: impl FnMut(usize, Read<'_>) -> bool) -> bool {
    let mut k = 0;
    let mut room = Vec::new();
    while k < all.len() {
        let (file, start, first_len) = match &all[k] {
            Abstract::Text(t) => {
                if !f(k, Read::Text(t)) {
                    return false;
                }
                k += 1;
                continue;
            }
            Abstract::Json { file, at, len, .. } => (file, *at, *len),
        };
        // The run: the abstracts that follow in the same file, in order,
        // each ending within RUN bytes of the first's start.
        let mut end = k;
        let mut run_end = start;
        while let Some(Abstract::Json {
            file: f2, at, len, ..
        }) = all.get(end)
        {
            let stop = at + u64::from(*len);
            if !Arc::ptr_eq(file, f2) || *at < run_end || stop - start > RUN {
                break;
            }
            run_end = stop;
            end += 1;
        }
        // A run of one is read alone (it may be too long for a run). A
        // file that changed has nothing to read: the run is passed over,
        // as each would be alone. (A run is at most RUN bytes.)
        let (end, run_end) = match end == k {
            true => (k + 1, start + u64::from(first_len)),
            false => (end, run_end),
        };
        if let Ok(buf) = file.read_into(start, (run_end - start) as u32, &mut room) {
            for (j, a) in all.iter().enumerate().take(end).skip(k) {
                if let Abstract::Json { at, len, words, .. } = a {
                    let from = (at - start) as usize;
                    let raw = &buf[from..from + *len as usize];
                    if !give(&mut f, j, written, file, raw, *words) {
                        return false;
                    }
                }
            }
        }
        k = end;
    }
    true
}

/// The most bytes [`for_each_text`] reads at once.
const RUN: u64 = 1 << 20;

impl Drop for FileText {
    fn drop(&mut self) {
        OPEN.give_back();
    }
}

/// Fills `buf` from byte `at` of `file`, by offset (the file's position
/// untouched, so that threads may share it); an error when it ends first.
#[cfg(unix)]
pub(crate) fn read_exact_at(file: &File, buf: &mut [u8], at: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, at)
}

#[cfg(windows)]
pub(crate) fn read_exact_at(file: &File, mut buf: &mut [u8], mut at: u64) -> std::io::Result<()> {
    use std::os::windows::fs::FileExt;
    while !buf.is_empty() {
        match file.seek_read(buf, at)? {
            0 => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            n => {
                buf = &mut buf[n..];
                at += n as u64;
            }
        }
    }
    Ok(())
}

/// A paper's abstract (paragraphs separated by `\n\n`, sanitized when
/// read); empty when the record had none.
#[derive(Clone)]
pub enum Abstract {
    /// The text itself.
    Text(Arc<str>),
    /// A JSON string (quotes included) of `len` bytes at `at` in `file`,
    /// checked when loaded to be plain (see [`plain_json_string`]): never
    /// empty once read. `words`: whether its words can be read as written
    /// ([`Read::Written`]), as told when it was loaded (`None`: not told,
    /// as for papers read back from the cache; it is told when read).
    Json {
        file: Arc<FileText>,
        at: u64,
        len: u32,
        words: Option<bool>,
    },
}

impl Default for Abstract {
    fn default() -> Self {
        Abstract::Text(Arc::from(""))
    }
}

impl From<String> for Abstract {
    fn from(text: String) -> Self {
        Abstract::Text(text.into())
    }
}

impl From<&str> for Abstract {
    fn from(text: &str) -> Self {
        Abstract::Text(text.into())
    }
}

impl Abstract {
    /// True when the record had no abstract.
    pub fn is_empty(&self) -> bool {
        match self {
            Abstract::Text(t) => t.is_empty(),
            Abstract::Json { .. } => false,
        }
    }

    /// The text, or why it cannot be read any more.
    pub fn read(&self) -> Result<Cow<'_, str>, String> {
        match self {
            Abstract::Text(t) => Ok(Cow::Borrowed(t)),
            Abstract::Json { file, at, len, .. } => {
                let raw = file.read(*at, *len)?;
                file.decode(&raw).map(Cow::Owned)
            }
        }
    }

    /// The text, or a sentence saying why it cannot be read any more
    /// (sanitized too: it names a file).
    pub fn text(&self) -> Cow<'_, str> {
        self.read().unwrap_or_else(|why| {
            Cow::Owned(sanitize::line_owned(format!(
                "(The abstract cannot be shown: {why}.)"
            )))
        })
    }
}

impl PartialEq for Abstract {
    fn eq(&self, other: &Self) -> bool {
        self.text() == other.text()
    }
}

impl std::fmt::Debug for Abstract {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&*self.text(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn read_back_from_the_file_and_a_file_changed_in_place_is_noticed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.jsonl");
        let raw = r#""Plain\n  text""#;
        std::fs::write(&path, format!("{{\"abstract\":{raw}}}\n")).unwrap();
        let file = File::open(&path).unwrap();
        let handle = FileText::open(&file, &path).unwrap();
        let a = Abstract::Json {
            file: handle,
            at: "{\"abstract\":".len() as u64,
            len: raw.len() as u32,
            words: None,
        };
        assert!(!a.is_empty());
        assert_eq!(a.read().unwrap(), "Plain text");
        assert_eq!(a, Abstract::from("Plain text"));

        // Rewritten in place (shorter): the abstract says so.
        std::thread::sleep(std::time::Duration::from_millis(20));
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .truncate(true)
            .open(&path)
            .unwrap();
        f.write_all(b"{}\n").unwrap();
        drop(f);
        let why = a.read().unwrap_err();
        assert!(why.contains("a.jsonl has changed"), "{why}");
        assert!(a.text().contains("cannot be shown"));
    }

    /// A file of one paper object a line, each with one of `strings` (JSON
    /// strings as written) as its abstract: its content, and where each
    /// string is.
    fn abstracts_file(path: &Path, strings: &[&str]) -> (String, Vec<(u64, u32)>) {
        let mut content = String::new();
        let mut spans = Vec::new();
        for s in strings {
            content.push_str("{\"abstract\":");
            spans.push((content.len() as u64, s.len() as u32));
            content.push_str(s);
            content.push_str("}\n");
        }
        std::fs::write(path, &content).unwrap();
        (content, spans)
    }

    /// Whether an abstract's words can be read as written is taken as it
    /// was told when loaded, or told when read; a file rewritten in place
    /// (its length and time kept) never gives words past ASCII as written.
    #[test]
    fn words_told_when_loaded_are_read_as_told() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.jsonl");
        let strings = [r#""Plain\nwords here""#, r#""Marked $x$ up""#];
        let (content, spans) = abstracts_file(&path, &strings);
        let file = File::open(&path).unwrap();
        let handle = FileText::open(&file, &path).unwrap();
        let told = |i: usize, words| Abstract::Json {
            file: handle.clone(),
            at: spans[i].0,
            len: spans[i].1,
            words,
        };
        let read = |all: &[Abstract]| {
            let mut got = Vec::new();
            for_each_read(all, |_, r| {
                got.push(match r {
                    Read::Written(w) => format!("as written: {w}"),
                    Read::Text(t) => format!("text: {t}"),
                });
                true
            });
            got
        };
        let all = [
            told(0, Some(true)),
            told(0, None),
            told(1, Some(false)),
            told(1, None),
        ];
        assert_eq!(
            read(&all),
            [
                "as written: Plain\\nwords here",
                "as written: Plain\\nwords here",
                "text: Marked $x$ up",
                "text: Marked $x$ up",
            ]
        );
        // Rewritten in place: two ASCII bytes become one character past
        // ASCII, the length and time kept.
        let modified = std::fs::metadata(&path).unwrap().modified().unwrap();
        std::fs::write(&path, content.replacen("ds", "\u{e9}", 1)).unwrap();
        let f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        f.set_modified(modified).unwrap();
        drop(f);
        assert_eq!(read(&all[..1]), ["text: Plain wor\u{e9} here"]);
    }

    #[test]
    fn read_in_runs_as_one_by_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.jsonl");
        let strings = [
            r#""First\n one""#,
            r#""Second""#,
            r#""Third  \"three\"""#,
            r#""Fourth""#,
        ];
        let (_, spans) = abstracts_file(&path, &strings);
        let file = File::open(&path).unwrap();
        let (a, b) = (
            FileText::open(&file, &path).unwrap(),
            FileText::open(&file, &path).unwrap(),
        );
        let json = |f: &Arc<FileText>, i: usize| Abstract::Json {
            file: f.clone(),
            at: spans[i].0,
            len: spans[i].1,
            words: None,
        };
        // Runs broken by held text, another handle, and going backwards.
        let all = vec![
            json(&a, 0),
            json(&a, 1),
            Abstract::from("Held"),
            json(&a, 2),
            json(&b, 3),
            json(&a, 1),
            json(&a, 3),
        ];
        let one_by_one = |all: &[Abstract]| -> Vec<(usize, String)> {
            all.iter()
                .enumerate()
                .filter_map(|(k, x)| x.read().ok().map(|t| (k, t.into_owned())))
                .collect()
        };
        let in_runs = |all: &[Abstract]| {
            let mut got = Vec::new();
            let done = for_each_text(all, |k, t| {
                got.push((k, t.to_string()));
                true
            });
            (done, got)
        };
        let want = one_by_one(&all);
        assert_eq!(want.len(), 7);
        assert_eq!(want[3].1, "Third \"three\"");
        assert_eq!(in_runs(&all), (true, want));

        // Stopped by the caller: nothing after.
        let mut seen = Vec::new();
        assert!(!for_each_text(&all, |k, _| {
            seen.push(k);
            k < 3
        }));
        assert_eq!(seen, [0, 1, 2, 3]);

        // The file rewritten in place: only the held text is read.
        std::fs::write(&path, "{}\n").unwrap();
        assert_eq!(in_runs(&all), (true, vec![(2, "Held".to_string())]));
        assert_eq!(one_by_one(&all), vec![(2, "Held".to_string())]);
    }

    #[test]
    fn slots_run_out_and_come_back() {
        let slots = Slots::new(3);
        assert!((0..3).all(|_| slots.take()));
        assert!(!slots.take() && !slots.take());
        slots.give_back();
        assert!(slots.take());
        assert!(!slots.take());
    }

    #[test]
    fn a_file_replaced_by_a_new_one_still_reads_as_opened() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.jsonl");
        std::fs::write(&path, "\"Old text\"").unwrap();
        let file = File::open(&path).unwrap();
        let a = Abstract::Json {
            file: FileText::open(&file, &path).unwrap(),
            at: 0,
            len: 10,
            words: None,
        };
        let new = dir.path().join("b.jsonl");
        std::fs::write(&new, "\"New\"").unwrap();
        std::fs::rename(&new, &path).unwrap();
        assert_eq!(a.read().unwrap(), "Old text");
    }
}
