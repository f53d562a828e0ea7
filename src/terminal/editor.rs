//! The user's editor on a note, run the same way by the reader (`e`) and
//! by `paperboat note --edit`: `$VISUAL`, else `$EDITOR`, else `vi`, read
//! by the shell as git reads it (`EDITOR="code --wait"`, a path with
//! spaces quoted), on a private temporary file whose name cannot be
//! guessed (the `tempfile` crate: created new, readable by the user
//! alone, removed afterwards).

use std::ffi::OsString;
use std::io::Write;

/// The editor's command as the user set it: `$VISUAL`, else `$EDITOR`,
/// else `vi`.
pub fn command() -> OsString {
    ["VISUAL", "EDITOR"]
        .iter()
        .filter_map(std::env::var_os)
        .find(|e| !e.to_string_lossy().trim().is_empty())
        .unwrap_or_else(|| "vi".into())
}

/// Runs the editor on `text` and returns the bytes it left in the file
/// (which the caller reads as text, or keeps when they are not: see
/// `Store::keep_unsaved_note`), or why there are none: the editor could
/// not start or ended with an error (the note is then unchanged).
pub fn edit(text: &str) -> Result<Vec<u8>, String> {
    let mut file = tempfile::Builder::new()
        .prefix("paperboat-note-")
        .suffix(".md")
        .tempfile()
        .map_err(|e| format!("could not make a file for the editor: {e}"))?;
    file.write_all(text.as_bytes())
        .and_then(|()| file.flush())
        .map_err(|e| format!("could not write the note for the editor: {e}"))?;
    let editor = command();
    let shown = crate::text::sanitize::line(&editor.to_string_lossy());
    let status = run(&editor, file.path())
        .map_err(|e| format!("could not start the editor {shown} ({e}); set $VISUAL or $EDITOR"))?;
    if !status.success() {
        return Err(format!(
            "the editor {shown} ended with {status}; the note is unchanged"
        ));
    }
    // Read by its path: an editor may have written a new file in its place.
    std::fs::read(file.path())
        .map_err(|e| format!("could not read the note back ({e}); it is unchanged"))
}

/// Runs `editor` on `path` with the terminal, through the shell as git
/// does (`sh -c '<editor> "$@"' sh <path>`).
fn run(editor: &OsString, path: &std::path::Path) -> std::io::Result<std::process::ExitStatus> {
    #[cfg(unix)]
    let mut cmd = {
        let mut line = editor.clone();
        line.push(" \"$@\"");
        let mut cmd = std::process::Command::new("sh");
        cmd.arg("-c").arg(line).arg("sh").arg(path);
        cmd
    };
    #[cfg(not(unix))]
    let mut cmd = {
        let mut cmd = std::process::Command::new(editor);
        cmd.arg(path);
        cmd
    };
    cmd.status()
}
