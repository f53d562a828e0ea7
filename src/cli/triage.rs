//! `paperboat tag` and `paperboat note`: a paper's tags and its note, read
//! and written from the command line, through the same store as the
//! reader.

use std::path::Path;
use std::process::ExitCode;

use clap::Args;

use super::select::load_with_ids;
use super::*;
use crate::export::note_lines;
use crate::store::Edit;
use crate::text::{markup, sanitize};

/// Arguments of `paperboat tag`.
#[derive(Args, Debug)]
#[command(override_usage = "paperboat tag [--add TAG]... [--remove TAG]... ID... [FILE]...")]
pub struct TagArgs {
    /// Put this tag on the papers (repeatable).
    #[arg(long, value_name = "TAG")]
    pub add: Vec<String>,
    /// Take this tag off the papers (repeatable).
    #[arg(long, value_name = "TAG")]
    pub remove: Vec<String>,
    /// Paper ids (or unique prefixes; an arXiv id, DOI or OpenReview forum as cited works too),
    /// then the files they are in; an argument naming an existing file (or `-`) is a file, one
    /// that looks like a file name and names none an error. No files: the bundled lists. Without
    /// --add or --remove, their tags are printed.
    #[arg(required = true, value_name = "ID|FILE")]
    pub args: Vec<String>,
    /// How to read the files.
    #[command(flatten)]
    pub load: LoadArgs,
}

/// Arguments of `paperboat note`.
#[derive(Args, Debug)]
#[command(group = clap::ArgGroup::new("how").multiple(false))]
pub struct NoteArgs {
    /// Replace the note with TEXT (markdown); an empty TEXT removes it.
    #[arg(long, value_name = "TEXT", group = "how", allow_hyphen_values = true)]
    pub set: Option<String>,
    /// Edit the note in $VISUAL, else $EDITOR, else vi; saved when the editor exits 0.
    #[arg(long, group = "how")]
    pub edit: bool,
    /// The paper's id (or a unique prefix; an arXiv id, DOI or OpenReview forum as cited works
    /// too), then the files it is in (`-` for standard input; none: the bundled lists).
    #[arg(required = true, value_name = "ID|FILE")]
    pub args: Vec<String>,
    /// How to read the files.
    #[command(flatten)]
    pub load: LoadArgs,
}

/// `paperboat tag`: puts tags on papers and takes them off, all in one
/// save (or none, when a tag is refused), then prints each paper's id,
/// tags and title.
pub(super) fn tag(cli: &Cli, args: &TagArgs) -> anyhow::Result<ExitCode> {
    let changing = !args.add.is_empty() || !args.remove.is_empty();
    let done = if changing { "tagged" } else { "printed" };
    let (loaded, found) = load_with_ids(&args.load, &args.args, done)?;
    let corpus = &loaded.corpus;
    let mut store = open_store(cli, corpus)?;
    if changing {
        let mut edits = Vec::new();
        for &i in &found {
            let id = corpus.papers[i].id.as_str();
            let wanted = args.add.iter().map(|t| (t, true));
            for (tag, on) in wanted.chain(args.remove.iter().map(|t| (t, false))) {
                edits.push(Edit::Tag {
                    id: id.to_string(),
                    tag: tag.clone(),
                    on,
                });
            }
        }
        store
            .apply(&edits)
            .map_err(|e| anyhow::anyhow!("{e}; nothing was tagged"))?;
        store.save()?;
    }
    emit(|out| {
        for &i in &found {
            let p = &corpus.papers[i];
            let tags: Vec<String> = store
                .tags(p.id.as_str())
                .iter()
                .map(|t| sanitize::line(t))
                .collect();
            writeln!(
                out,
                "{}\t{}\t{}",
                corpus.short_id(i),
                tags.join(", "),
                markup::plain(&p.title)
            )?;
        }
        Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}

/// `paperboat note`: prints a paper's note (exit 1 when it has none), sets
/// it, or edits it.
pub(super) fn note(cli: &Cli, args: &NoteArgs) -> anyhow::Result<ExitCode> {
    let (id, files) = args.args.split_first().expect("clap requires an id");
    super::select::check_id(id)?;
    let mut all = vec![id.clone()];
    all.extend(files.iter().cloned());
    if let Some(f) = files.iter().find(|f| *f != "-" && !Path::new(f).exists()) {
        anyhow::bail!(
            "{} is not a file (give one paper id, then files)",
            sanitize::line(f)
        );
    }
    let (loaded, found) = load_with_ids(&args.load, &all, "changed")?;
    let corpus = &loaded.corpus;
    let id = corpus.papers[found[0]].id.as_str();
    let mut store = open_store(cli, corpus)?;
    let (text, edited) = if let Some(text) = &args.set {
        (text.clone(), false)
    } else if args.edit {
        let before = store.note(id).unwrap_or("").to_string();
        match edit_text(&store, id, &before)? {
            Some(text) => (text, true),
            None => {
                eprintln!("paperboat: the note is unchanged");
                return Ok(ExitCode::SUCCESS);
            }
        }
    } else {
        let Some(note) = store.note(id) else {
            eprintln!("paperboat: {} has no note", sanitize::line(id));
            return Ok(ExitCode::from(1));
        };
        let lines = note_lines(note);
        emit(|out| lines.iter().try_for_each(|l| writeln!(out, "{l}")))?;
        return Ok(ExitCode::SUCCESS);
    };
    if let Err(e) = store.set_note(id, &text) {
        // What the editor wrote is not lost with the error.
        if edited {
            anyhow::bail!("{}", unsaved(&store, id, text.as_bytes(), &e.to_string()));
        }
        return Err(e.into());
    }
    if store.note(id).is_none() {
        eprintln!("paperboat: removed the note of {}", sanitize::line(id));
    } else {
        eprintln!("paperboat: saved the note of {}", sanitize::line(id));
    }
    Ok(ExitCode::SUCCESS)
}

/// Opens `text` in the user's editor (see `terminal::editor`: the reader
/// runs it the same way). The new text when the editor exits 0 having
/// changed it; `None` when it is unchanged; an error when the editor
/// fails (the note is left as it was) or leaves what cannot be a note
/// (not UTF-8): that is kept in a file whose path the error gives.
fn edit_text(store: &Store, id: &str, text: &str) -> anyhow::Result<Option<String>> {
    let written = if text.is_empty() || text.ends_with('\n') {
        text.to_string()
    } else {
        format!("{text}\n")
    };
    let bytes = crate::terminal::editor::edit(&written).map_err(anyhow::Error::msg)?;
    let edited = match String::from_utf8(bytes) {
        Ok(edited) => edited,
        Err(e) => anyhow::bail!("{}", unsaved(store, id, e.as_bytes(), "it is not UTF-8")),
    };
    if edited == written {
        return Ok(None);
    }
    Ok(Some(edited.trim_end().to_string()))
}

/// Keeps a note that cannot be saved in a file; says why and where.
fn unsaved(store: &Store, id: &str, bytes: &[u8], why: &str) -> String {
    match store.keep_unsaved_note(id, bytes) {
        Ok(path) => format!(
            "the note of {} could not be saved ({why}); it is kept in {}",
            sanitize::line(id),
            sanitize::line(&path.display().to_string())
        ),
        Err(e) => format!(
            "the note of {} could not be saved ({why}) nor kept in a file ({e})",
            sanitize::line(id)
        ),
    }
}
