//! `E`: the selection (else the bookmarked papers) written as a Markdown
//! reading list, grouped by tag with notes, as `paperboat export` writes
//! it, to a new file in the current directory.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::App;
use crate::export::{self, Format};

impl App {
    pub(super) fn export_list(&mut self) {
        self.export_to(Path::new("."));
    }

    /// [`App::export_list`] into `dir`.
    fn export_to(&mut self, dir: &Path) {
        let (papers, what): (Vec<usize>, &str) = if self.picked.is_empty() {
            let marked = (0..self.corpus.len())
                .filter(|&i| self.marks[i].bookmarked)
                .collect();
            (marked, "bookmarked")
        } else {
            (self.picked.iter().copied().collect(), "selected")
        };
        if papers.is_empty() {
            self.status = Some("nothing to export: select papers (x) or bookmark some (b)".into());
            return;
        }
        self.status = Some(match self.write_list(dir, &papers) {
            Ok(path) => format!(
                "exported {} {what} paper{} to {}",
                papers.len(),
                if papers.len() == 1 { "" } else { "s" },
                path.display()
            ),
            Err(e) => format!("could not export: {e}"),
        });
    }

    /// Writes `papers` to a new file in `dir`, named for the time; never
    /// over an existing file.
    fn write_list(&self, dir: &Path, papers: &[usize]) -> std::io::Result<PathBuf> {
        let mut text = Vec::new();
        export::write(
            &mut text,
            Format::Markdown,
            &self.corpus,
            papers,
            &self.store,
        )?;
        let stamp = humantime::format_rfc3339_seconds(std::time::SystemTime::now())
            .to_string()
            .replace(':', "");
        for n in 0.. {
            let name = match n {
                0 => format!("reading-list-{stamp}.md"),
                n => format!("reading-list-{stamp}-{n}.md"),
            };
            let path = dir.join(name);
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(mut f) => {
                    f.write_all(&text)?;
                    return Ok(path);
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
        unreachable!("some name is free")
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use crate::vocabulary::Action;

    /// Exports into `dir` and reads back the file the status line names.
    fn exported(app: &mut super::App, dir: &std::path::Path) -> String {
        app.export_to(dir);
        let status = app.status().unwrap().to_string();
        let path = status.rsplit(" to ").next().unwrap();
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{status}: {e}"))
    }

    #[test]
    fn the_selection_else_the_bookmarks_go_to_a_new_file() {
        let (mut app, _dir) = app();
        let out = tempfile::tempdir().unwrap();
        let title = |app: &super::App, row: usize| {
            let t = &app.corpus.papers[app.paper_at(row).unwrap()].title;
            t.chars().take(24).collect::<String>()
        };
        app.export_to(out.path());
        assert!(app.status().unwrap().starts_with("nothing to export"));
        // The bookmarks, when nothing is selected.
        app.apply(Action::SelectRow(2));
        app.apply(Action::ToggleBookmark);
        let text = exported(&mut app, out.path());
        assert!(app.status().unwrap().contains("1 bookmarked paper "));
        assert!(text.contains(&title(&app, 2)), "{text}");
        assert!(!text.contains(&title(&app, 5)));
        // The selection wins over them, in a new file.
        app.apply(Action::SelectRow(5));
        app.apply(Action::TogglePick);
        let text = exported(&mut app, out.path());
        assert!(app.status().unwrap().contains("1 selected paper "));
        assert!(text.contains(&title(&app, 5)) && !text.contains(&title(&app, 2)));
        assert_eq!(std::fs::read_dir(out.path()).unwrap().count(), 2);
    }
}
