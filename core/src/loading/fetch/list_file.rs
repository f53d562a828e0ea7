//! The file a fetch writes: JSON Lines, appended to a page at a time and
//! never rewritten. Opening it reads what it holds (the keys of its
//! papers, arXiv's last datestamp), drops a torn last line a killed fetch
//! left, refuses a file that is not a fetched list of the same source,
//! and locks it so that two fetches never write one file at once. A new
//! file is made only when the first page comes: a fetch that fails
//! before leaves nothing behind.

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::{FetchError, Source};

/// Which source's lines a file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// arXiv snapshot lines, known by `id`.
    Arxiv,
    /// OpenReview notes, known by `forum` (else `id`).
    OpenReview,
}

impl Kind {
    pub(super) fn of(source: &Source) -> Kind {
        match source {
            Source::Arxiv(_) => Kind::Arxiv,
            Source::OpenReview(_) => Kind::OpenReview,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Kind::Arxiv => "arXiv papers",
            Kind::OpenReview => "OpenReview notes",
        }
    }
}

/// What a line is read for.
#[derive(Deserialize)]
struct Line {
    id: Option<serde_json::Value>,
    forum: Option<String>,
    update_date: Option<String>,
    content: Option<serde::de::IgnoredAny>,
    categories: Option<serde::de::IgnoredAny>,
}

/// A fetched list being written.
pub(super) struct ListFile {
    path: PathBuf,
    kind: Kind,
    /// Open (and locked) once the file exists.
    file: Option<File>,
    keys: HashSet<String>,
    last_datestamp: Option<String>,
    lines: usize,
    repaired: bool,
}

/// A file error in words, naming the file.
fn file_error(path: &Path, why: impl std::fmt::Display) -> FetchError {
    FetchError::File {
        path: path.to_path_buf(),
        why: why.to_string(),
    }
}

/// Opens `path` for writing, locked: an error when another fetch holds it.
fn open_locked(path: &Path, create: bool) -> Result<File, FetchError> {
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(create)
        .open(path)
        .map_err(|e| file_error(path, e))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(file_error(
            path,
            "another paperboat fetch is writing this file; wait for it to end",
        )),
        Err(std::fs::TryLockError::Error(e)) => Err(file_error(path, e)),
    }
}

impl ListFile {
    /// Opens `path` (a missing file is made when the first page comes).
    pub(super) fn open(path: &Path, kind: Kind) -> Result<ListFile, FetchError> {
        let mut list = ListFile {
            path: path.to_path_buf(),
            kind,
            file: None,
            keys: HashSet::new(),
            last_datestamp: None,
            lines: 0,
            repaired: false,
        };
        if !path.exists() {
            return Ok(list);
        }
        let mut file = open_locked(path, false)?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)
            .map_err(|e| file_error(path, e))?;
        // A kill while a page was written may leave a torn last line:
        // what follows the last line end goes.
        let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        if whole < bytes.len() {
            file.set_len(whole as u64)
                .map_err(|e| file_error(path, e))?;
            list.repaired = true;
        }
        let text = String::from_utf8_lossy(&bytes[..whole]);
        for (n, line) in text.lines().enumerate() {
            if !line.trim().is_empty() {
                list.read_line(line, n + 1)?;
            }
        }
        file.seek(SeekFrom::End(0))
            .map_err(|e| file_error(path, e))?;
        list.file = Some(file);
        Ok(list)
    }

    /// Takes in one line the file holds.
    fn read_line(&mut self, text: &str, n: usize) -> Result<(), FetchError> {
        let not_ours = |why: &str| {
            file_error(
                &self.path,
                format!(
                    "line {n} {why}: this is not a list fetched from {}; fetch into another file (-o)",
                    self.kind.name().split(' ').next().unwrap_or("")
                ),
            )
        };
        let line: Line =
            serde_json::from_str(text).map_err(|_| not_ours("is not a JSON object"))?;
        let kind = if line.content.is_some() || line.forum.is_some() {
            Kind::OpenReview
        } else if line.categories.is_some() || line.update_date.is_some() {
            Kind::Arxiv
        } else {
            self.kind
        };
        if kind != self.kind {
            return Err(not_ours(&format!("holds {}", kind.name())));
        }
        let id = match &line.id {
            Some(serde_json::Value::String(s)) => Some(s.clone()),
            _ => None,
        };
        let key = match self.kind {
            Kind::Arxiv => id.map(|i| arxiv_key(&i)),
            Kind::OpenReview => line.forum.or(id),
        };
        if let Some(key) = key {
            self.keys.insert(key);
        }
        if let Some(date) = line.update_date
            && self
                .last_datestamp
                .as_deref()
                .is_none_or(|d| d < date.as_str())
        {
            self.last_datestamp = Some(date);
        }
        self.lines += 1;
        Ok(())
    }

    /// True when the file holds the paper known by `key`.
    pub(super) fn holds(&self, key: &str) -> bool {
        self.keys.contains(key)
    }

    /// The latest `update_date` the file holds (arXiv).
    pub(super) fn last_datestamp(&self) -> Option<&str> {
        self.last_datestamp.as_deref()
    }

    /// How many papers the file holds.
    pub(super) fn len(&self) -> usize {
        self.lines
    }

    /// True when a torn last line was dropped on opening.
    pub(super) fn repaired(&self) -> bool {
        self.repaired
    }

    /// Appends a page's new papers, `(key, JSON line)`, in one write, and
    /// makes them durable. A key the file holds, or given twice, is
    /// written once.
    pub(super) fn append(&mut self, lines: Vec<(String, String)>) -> Result<usize, FetchError> {
        let mut buf = String::new();
        let mut written = 0;
        for (key, line) in lines {
            debug_assert!(!line.contains('\n'));
            if self.keys.insert(key) {
                buf.push_str(&line);
                buf.push('\n');
                written += 1;
            }
        }
        if written == 0 {
            return Ok(0);
        }
        if self.file.is_none() {
            if let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir).map_err(|e| file_error(dir, e))?;
            }
            let mut file = open_locked(&self.path, true)?;
            file.seek(SeekFrom::End(0))
                .map_err(|e| file_error(&self.path, e))?;
            self.file = Some(file);
        }
        let file = self.file.as_mut().expect("opened above");
        file.write_all(buf.as_bytes())
            .and_then(|()| file.sync_data())
            .map_err(|e| file_error(&self.path, e))?;
        self.lines += written;
        Ok(written)
    }
}

/// What an arXiv id is known by in a file: no version.
pub(super) fn arxiv_key(id: &str) -> String {
    crate::corpus::fields::arxiv_key(id).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(dir: &Path, text: &str, kind: Kind) -> Result<ListFile, FetchError> {
        let path = dir.join("l.jsonl");
        std::fs::write(&path, text).unwrap();
        ListFile::open(&path, kind)
    }

    #[test]
    fn a_file_is_read_for_its_keys_and_last_datestamp() {
        let dir = tempfile::tempdir().unwrap();
        let text = "{\"id\":\"2401.00001\",\"categories\":\"cs.LG\",\"update_date\":\"2024-01-03\"}\n\n{\"id\":\"2401.00002v2\",\"update_date\":\"2024-01-09\"}\n{\"id\":\"2401.00003\",\"update_date\":\"2024-01-05\"}\n";
        let l = list(dir.path(), text, Kind::Arxiv).unwrap();
        assert!(l.holds("2401.00001") && l.holds("2401.00002") && !l.holds("2401.00004"));
        assert_eq!(l.last_datestamp(), Some("2024-01-09"));
        assert_eq!((l.len(), l.repaired()), (3, false));
        drop(l);
        let text =
            "{\"id\":\"n1\",\"forum\":\"f1\",\"content\":{}}\n{\"id\":\"f2\",\"content\":{}}\n";
        let l = list(dir.path(), text, Kind::OpenReview).unwrap();
        assert!(l.holds("f1") && l.holds("f2") && !l.holds("n1"));
    }

    #[test]
    fn a_torn_last_line_is_dropped_and_appending_goes_on_after_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("l.jsonl");
        std::fs::write(&path, "{\"id\":\"a\",\"forum\":\"a\"}\n{\"id\":\"b\",\"fo").unwrap();
        let mut l = ListFile::open(&path, Kind::OpenReview).unwrap();
        assert!(l.repaired() && l.holds("a") && !l.holds("b"));
        let n = l
            .append(vec![
                ("b".into(), "{\"id\":\"b\",\"forum\":\"b\"}".into()),
                ("a".into(), "{\"id\":\"a\",\"forum\":\"a\"}".into()),
                ("b".into(), "{\"id\":\"b\",\"forum\":\"b\"}".into()),
            ])
            .unwrap();
        assert_eq!((n, l.len()), (1, 2));
        drop(l);
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "{\"id\":\"a\",\"forum\":\"a\"}\n{\"id\":\"b\",\"forum\":\"b\"}\n"
        );
    }

    #[test]
    fn other_files_are_refused_unchanged() {
        let dir = tempfile::tempdir().unwrap();
        for (text, kind, why) in [
            (
                "@article{k, title={T}}\n",
                Kind::Arxiv,
                "line 1 is not a JSON object",
            ),
            (
                "{\"id\":\"x\",\"forum\":\"x\",\"content\":{}}\n",
                Kind::Arxiv,
                "line 1 holds OpenReview notes",
            ),
            (
                "{\"id\":\"2401.00001\",\"update_date\":\"2024-01-01\"}\n[1]\n",
                Kind::Arxiv,
                "line 2 is not a JSON object",
            ),
        ] {
            let Err(e) = list(dir.path(), text, kind).map(drop) else {
                panic!("{text}");
            };
            assert!(e.to_string().contains(why), "{e}");
            let path = dir.path().join("l.jsonl");
            assert_eq!(std::fs::read_to_string(path).unwrap(), text);
        }
    }

    #[test]
    fn a_new_file_is_made_with_its_directory_only_when_a_paper_comes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lists/new.jsonl");
        let mut l = ListFile::open(&path, Kind::Arxiv).unwrap();
        assert_eq!(l.append(Vec::new()).unwrap(), 0);
        assert!(!path.exists());
        l.append(vec![("x".into(), "{\"id\":\"x\"}".into())])
            .unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "{\"id\":\"x\"}\n");
    }

    #[test]
    fn two_fetches_never_write_one_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("l.jsonl");
        std::fs::write(&path, "").unwrap();
        let _first = ListFile::open(&path, Kind::Arxiv).unwrap();
        let Err(e) = ListFile::open(&path, Kind::Arxiv) else {
            panic!("opened twice");
        };
        assert!(e.to_string().contains("another paperboat fetch"), "{e}");
    }
}
