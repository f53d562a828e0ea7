//! Opening inputs: files (the size limit; empty, binary and image files
//! refused by name), directories (their supported files), standard input
//! and the bundled lists; and decoding bytes to text (UTF-8 with a BOM or
//! without, invalid sequences replaced and counted; UTF-16 with a BOM).

use std::borrow::Cow;
use std::io::Read;
use std::path::{Path, PathBuf};

use super::{BUNDLED, Format, Input, Options, Report};

/// Files a directory holds that paperboat reads, sorted by name.
fn directory_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && Format::from_extension(p).is_some())
        .collect();
    files.sort();
    Ok(files)
}

/// What a file's first bytes say it is, when it is not text.
fn not_text(bytes: &[u8]) -> Option<&'static str> {
    let magic: [(&[u8], &str); 8] = [
        (b"\x89PNG", "a PNG image"),
        (b"\xff\xd8\xff", "a JPEG image"),
        (b"GIF8", "a GIF image"),
        (b"%PDF", "a PDF document"),
        (b"PK\x03\x04", "a ZIP archive"),
        (b"\x1f\x8b", "a gzip file"),
        (b"\x7fELF", "a program"),
        (b"BZh", "a bzip2 file"),
    ];
    if let Some((_, what)) = magic.iter().find(|(m, _)| bytes.starts_with(m)) {
        return Some(what);
    }
    let utf16 = bytes.starts_with(&[0xff, 0xfe]) || bytes.starts_with(&[0xfe, 0xff]);
    if !utf16 && bytes.iter().take(8192).any(|&b| b == 0) {
        return Some("binary data (a NUL byte among the first bytes)");
    }
    None
}

/// Decodes a file: UTF-16 with a BOM, else UTF-8 (BOM dropped) with
/// invalid sequences replaced. Returns the text and how many were replaced.
pub fn decode(bytes: Vec<u8>) -> (String, usize) {
    let utf16 = |le: bool| -> String {
        let units: Vec<u16> = bytes[2..]
            .chunks(2)
            .map(|c| {
                let pair = [c[0], *c.get(1).unwrap_or(&0)];
                if le {
                    u16::from_le_bytes(pair)
                } else {
                    u16::from_be_bytes(pair)
                }
            })
            .collect();
        String::from_utf16_lossy(&units)
    };
    if bytes.starts_with(&[0xff, 0xfe]) {
        return (utf16(true), 0);
    }
    if bytes.starts_with(&[0xfe, 0xff]) {
        return (utf16(false), 0);
    }
    let start = if bytes.starts_with(&[0xef, 0xbb, 0xbf]) {
        3
    } else {
        0
    };
    match String::from_utf8(bytes) {
        Ok(mut s) => {
            s.drain(..start);
            (s, 0)
        }
        Err(e) => replace_invalid(&e.into_bytes()[start..]),
    }
}

/// UTF-8 `bytes` as text, each invalid sequence replaced by U+FFFD; and
/// how many were replaced.
fn replace_invalid(bytes: &[u8]) -> (String, usize) {
    let mut invalid = 0;
    let mut rest = bytes;
    let mut out = String::with_capacity(rest.len());
    loop {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                out.push_str(s);
                break;
            }
            Err(e) => {
                let (good, bad) = rest.split_at(e.valid_up_to());
                out.push_str(std::str::from_utf8(good).unwrap_or_default());
                out.push('\u{FFFD}');
                invalid += 1;
                let skip = e.error_len().unwrap_or(bad.len());
                rest = &bad[skip..];
            }
        }
    }
    (out, invalid)
}

/// [`replace_invalid`], borrowing `bytes` when they are valid.
pub(super) fn utf8_lossy(bytes: &[u8]) -> (Cow<'_, str>, usize) {
    match std::str::from_utf8(bytes) {
        Ok(s) => (Cow::Borrowed(s), 0),
        Err(_) => {
            let (s, n) = replace_invalid(bytes);
            (Cow::Owned(s), n)
        }
    }
}

/// A byte count for people.
pub fn size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["bytes", "KiB", "MiB", "GiB"];
    let mut v = bytes as f64;
    let mut u = 0;
    while v >= 1024.0 && u < UNITS.len() - 1 {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{bytes} bytes")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

/// The head read to decide what an input is.
pub(super) const HEAD: usize = 64 << 10;

/// An open input.
pub(super) enum Source {
    File(std::fs::File),
    Stdin(std::io::Stdin),
    Memory(&'static [u8], usize),
}

impl Source {
    /// Appends up to `want` more bytes to `buf`; false once at the end.
    pub(super) fn fill(&mut self, buf: &mut Vec<u8>, want: usize) -> std::io::Result<bool> {
        match self {
            Source::Memory(bytes, at) => {
                let n = want.min(bytes.len() - *at);
                buf.extend_from_slice(&bytes[*at..*at + n]);
                *at += n;
                Ok(*at < bytes.len())
            }
            Source::File(f) => fill_from(f, buf, want),
            Source::Stdin(s) => fill_from(&mut s.lock(), buf, want),
        }
    }
}

/// Appends up to `want` bytes of `r` to `buf`; false once at the end.
fn fill_from(r: &mut dyn Read, buf: &mut Vec<u8>, want: usize) -> std::io::Result<bool> {
    // Room reserved, not filled: a chunk is 16 MiB, and clearing that much
    // for a small file's few kilobytes cost more than reading it.
    buf.reserve(want);
    let got = r.take(want as u64).read_to_end(buf)?;
    Ok(got == want)
}

/// Opens an input; its size when it has one.
fn open(input: &Input, opts: &Options) -> Result<(Source, Option<u64>), String> {
    match input {
        Input::Bundled(i) => Ok((
            Source::Memory(BUNDLED[*i].1.as_bytes(), 0),
            Some(BUNDLED[*i].1.len() as u64),
        )),
        Input::Stdin => Ok((Source::Stdin(std::io::stdin()), None)),
        Input::Path(p) => {
            let meta = std::fs::metadata(p).map_err(|e| e.to_string())?;
            if let Some(max) = opts.max_size
                && meta.len() > max
            {
                return Err(format!(
                    "{} is over the size limit ({}; --max-size)",
                    size(meta.len()),
                    size(max)
                ));
            }
            let f = std::fs::File::open(p).map_err(|e| e.to_string())?;
            Ok((Source::File(f), Some(meta.len())))
        }
    }
}

/// Opens an input and reads its head: the source, its size when known,
/// the head, and whether more follows. An input that cannot be read, is
/// empty or is not text says why.
pub(super) fn open_head(
    input: &Input,
    opts: &Options,
) -> Result<(Source, Option<u64>, Vec<u8>, bool), String> {
    let (mut source, known) = open(input, opts)?;
    let mut buf = Vec::new();
    let more = source.fill(&mut buf, HEAD).map_err(|e| e.to_string())?;
    if !more && buf.iter().all(u8::is_ascii_whitespace) {
        return Err("empty file".to_string());
    }
    if let Some(what) = not_text(&buf) {
        return Err(format!("not a corpus: {what}"));
    }
    Ok((source, known, buf, more))
}

/// The message for an input over `--max-size`.
pub(super) fn too_big(max: u64) -> String {
    format!("over the size limit ({}; --max-size)", size(max))
}

/// The message for a file `len` bytes long when it was opened that ended
/// at byte `end` while it was read: another program cut it short (to
/// `now` bytes, when known).
pub(super) fn cut_short(end: u64, now: Option<u64>, len: u64) -> String {
    let now = now.unwrap_or(end).min(end);
    format!(
        "was cut short as it was read ({now} bytes now, {len} when opened): the papers read before are kept"
    )
}

/// The message for an input read whole (`format`) past `max` bytes,
/// [`whole_limit`](super::whole_limit), when no `--max-size` was given.
pub(super) fn too_big_whole(max: u64, format: Format) -> String {
    format!(
        "too large to read whole: {} is read whole, and past {} (a quarter of this \
         machine's memory) parsing it could exhaust the memory; convert it to JSON Lines \
         (read a chunk at a time, whatever its size), split it, or give --max-size to try anyway",
        format.name(),
        size(max)
    )
}

/// Expands directories into their files.
/// An input that cannot be read says why in a report (boxed: a report is
/// large beside an input).
pub(super) fn expand(inputs: &[Input]) -> Vec<Result<Input, Box<Report>>> {
    let mut out = Vec::new();
    for input in inputs {
        match input {
            Input::Path(p) if p.is_dir() => match directory_files(p) {
                Ok(files) if files.is_empty() => out.push(Err(Box::new(Report {
                    name: input.name(),
                    error: Some("a directory with no files paperboat reads".to_string()),
                    ..Report::default()
                }))),
                Ok(files) => out.extend(files.into_iter().map(|f| Ok(Input::Path(f)))),
                Err(e) => out.push(Err(Box::new(Report {
                    name: input.name(),
                    error: Some(e.to_string()),
                    ..Report::default()
                }))),
            },
            other => out.push(Ok(other.clone())),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::tests::load_text;
    use super::super::{Input, Options, load};

    #[test]
    fn bad_files_are_refused_by_name_and_the_rest_load() {
        let dir = tempfile::tempdir().unwrap();
        let good = dir.path().join("good.txt");
        std::fs::write(&good, "L\n\nAn abstract.\n\nAnother.").unwrap();
        let cases: Vec<(&str, Vec<u8>, &str)> = vec![
            ("empty.txt", b"\n  \n".to_vec(), "empty file"),
            ("pic.png", b"\x89PNG\r\n\x1a\nrest".to_vec(), "PNG image"),
            ("bin.txt", b"abc\x00def".to_vec(), "NUL byte"),
            (
                "doc.bib",
                b"@comment{nothing but a comment}".to_vec(),
                "no papers found (read as bibtex)",
            ),
        ];
        let mut inputs = vec![Input::Path(good)];
        for (name, bytes, _) in &cases {
            let p = dir.path().join(name);
            std::fs::write(&p, bytes).unwrap();
            inputs.push(Input::Path(p));
        }
        inputs.push(Input::Path(dir.path().join("missing.txt")));
        let loaded = load(&inputs, &Options::default()).unwrap();
        assert_eq!(loaded.corpus.len(), 2);
        for (k, (name, _, why)) in cases.iter().enumerate() {
            let r = &loaded.reports[k + 1];
            assert!(r.name.ends_with(name));
            assert!(r.error.as_deref().unwrap_or("").contains(why), "{r}");
        }
        assert!(
            loaded.reports[5]
                .to_string()
                .contains("missing.txt: No such file"),
            "{}",
            loaded.reports[5]
        );
        let err = load(&inputs[1..], &Options::default()).unwrap_err();
        assert!(err.to_string().contains("empty.txt: empty file"), "{err}");
    }

    #[test]
    fn the_size_limit() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("big.txt");
        std::fs::write(&p, "x".repeat(5000)).unwrap();
        let opts = Options {
            max_size: Some(1000),
            ..Options::default()
        };
        let err = load(&[Input::Path(p)], &opts).unwrap_err();
        assert!(err.to_string().contains("over the size limit"), "{err}");
    }

    #[test]
    fn utf16_and_invalid_utf8() {
        let mut utf16 = vec![0xff, 0xfe];
        for u in "L\n\nÜber abstracts.\n\nZwei.".encode_utf16() {
            utf16.extend_from_slice(&u.to_le_bytes());
        }
        let (loaded, _d) = load_text("u16.txt", &utf16);
        assert_eq!(loaded.corpus.len(), 2);
        assert_eq!(
            loaded.corpus.papers[0].abstract_text.text(),
            "Über abstracts."
        );
        let (loaded, _d) = load_text("bad.txt", b"L\n\nBad \xff\xfe bytes \xc3 here.\n\nFine.");
        assert_eq!(
            loaded.reports[0].invalid_utf8, 3,
            "\\xff, \\xfe and a cut-off \\xc3"
        );
        assert!(
            loaded.reports[0]
                .to_string()
                .contains("3 invalid UTF-8 sequences replaced")
        );
        assert!(
            loaded.corpus.papers[0]
                .abstract_text
                .text()
                .contains('\u{FFFD}')
        );
    }
}
