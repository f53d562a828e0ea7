//! The interactive session: raw mode, the alternate screen and mouse
//! reporting, switched on at start and off again on every way out (normal
//! exit, error, panic, SIGTERM/SIGHUP/SIGINT, Ctrl-Z), and the event loop
//! that feeds keys, signals and search results to the app.

use std::io::{self, IsTerminal, Stdout, Write, stdout};
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use crossterm::event::{self, DisableMouseCapture, EnableMouseCapture, Event};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM, SIGTSTP};
use signal_hook::iterator::Signals;

pub mod editor;

use crate::app::App;
use crate::config::Config;
use crate::keys::Keymap;
use crate::loading::{self as load, Input, LoadError};
use crate::store::Store;
use crate::ui;
use crate::ui::theme::no_color_env;
use crate::vocabulary::{Effect, Message};

/// Puts the terminal back as the shell left it. Safe to call twice.
pub fn restore() {
    let _ = disable_raw_mode();
    let _ = execute!(
        stdout(),
        DisableMouseCapture,
        LeaveAlternateScreen,
        crossterm::cursor::Show
    );
}

fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            // Restore first, so the message lands on the normal screen.
            restore();
            previous(info);
        }));
    });
}

/// The terminal while the reader runs; dropping it restores the terminal.
pub struct Session {
    /// The ratatui terminal.
    pub terminal: Terminal<CrosstermBackend<Stdout>>,
    /// Where the word index goes once built (see [`Effect::StoreIndex`]):
    /// the cache, for a single file.
    index_to: Option<IndexTarget>,
    /// Threads writing to the cache, waited for when the reader quits.
    writers: Vec<std::thread::JoinHandle<()>>,
}

/// The cache and the file a word index is stored for.
struct IndexTarget {
    cache: load::cache::CacheOptions,
    path: std::path::PathBuf,
    format: Option<load::Format>,
}

impl IndexTarget {
    /// The target for a load of `inputs`: a single file, with the cache on.
    fn of(inputs: &[Input], options: &load::Options) -> Option<IndexTarget> {
        match (inputs, &options.cache) {
            ([Input::Path(path)], Some(cache)) if path.is_file() => Some(IndexTarget {
                cache: cache.clone(),
                path: path.clone(),
                format: options.format,
            }),
            _ => None,
        }
    }
}

impl Session {
    /// Enters raw mode, the alternate screen and mouse capture.
    pub fn start() -> io::Result<Session> {
        install_panic_hook();
        enable_raw_mode()?;
        let entered = execute!(stdout(), EnterAlternateScreen, EnableMouseCapture);
        if let Err(e) = entered {
            restore();
            return Err(e);
        }
        match Terminal::new(CrosstermBackend::new(stdout())) {
            Ok(terminal) => Ok(Session {
                terminal,
                index_to: None,
                writers: Vec::new(),
            }),
            Err(e) => {
                restore();
                Err(e)
            }
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        restore();
    }
}

/// What wakes the event loop.
enum Wake {
    /// A terminal event.
    Term(Event),
    /// The matcher has a new ranking.
    Results,
    /// A signal arrived.
    Signal(i32),
    /// The loader has more to say (boxed: a batch of papers is large
    /// beside the other wakes).
    Load(Box<load::Event>),
    /// The loader is done.
    Loaded,
    /// First-seen times are recorded (see [`Effect::RecordSeen`]).
    Seen(Result<Vec<bool>, String>),
}

/// How the reader ended.
#[derive(Debug)]
pub enum Exit {
    /// The user quit.
    Quit,
    /// A signal asked it to (SIGTERM, SIGHUP, SIGINT): exit with 128 + it.
    Signal(i32),
    /// The inputs gave no paper (the reports say why).
    NoPapers(LoadError),
}

/// What the reader opens.
pub struct Start {
    /// The inputs, loaded on a background thread while the reader runs.
    pub inputs: Vec<Input>,
    /// How to load them.
    pub options: load::Options,
    /// Whether what loaded is said in the status line once loading ends.
    pub announce: bool,
}

/// How long the first frame waits for the load to end, so that a small
/// corpus opens whole (and where it was left) rather than streaming in.
const FIRST_FRAME_WAIT: Duration = Duration::from_millis(15);

/// Loads `start`'s inputs on a background thread, telling `tx` as it goes.
fn spawn_loader(start: Start, tx: mpsc::Sender<Wake>) -> io::Result<()> {
    std::thread::Builder::new()
        .name("paperboat-load".into())
        .spawn(move || {
            load::stream(&start.inputs, &start.options, true, &mut |e| {
                let _ = tx.send(Wake::Load(Box::new(e)));
            });
            let _ = tx.send(Wake::Loaded);
            // For the next open. Not waited for when the reader quits: a
            // store cut short leaves only a temporary file.
            load::store_titles(&start.inputs, &start.options);
        })?;
    Ok(())
}

/// Suspends the process the way a shell expects (terminal restored, then
/// stopped); once resumed (`fg`), takes the terminal back and redraws all.
fn suspend(session: &mut Session, app: &mut App) -> io::Result<()> {
    restore();
    signal_hook::low_level::emulate_default_handler(signal_hook::consts::SIGTSTP)?;
    // Resumed.
    let size = take_back(session)?;
    app.update(Message::Resize(size.width, size.height));
    Ok(())
}

/// Takes the terminal back after another program had it (a shell after
/// `Ctrl-z`, an editor): raw mode, the alternate screen, everything
/// redrawn. Resizing to the current size clears the screen and the buffers
/// without asking the terminal where its cursor is (an answer the input
/// thread would swallow).
fn take_back(session: &mut Session) -> io::Result<ratatui::layout::Size> {
    enable_raw_mode()?;
    execute!(stdout(), EnterAlternateScreen, EnableMouseCapture)?;
    let size = session.terminal.size()?;
    session
        .terminal
        .resize(ratatui::layout::Rect::new(0, 0, size.width, size.height))?;
    Ok(size)
}

/// Set while the editor has the terminal: the input thread stops reading
/// keys, so that they reach the editor.
static INPUT_PAUSED: AtomicBool = AtomicBool::new(false);
/// Set by the input thread once it has stopped reading for the pause.
static INPUT_IDLE: AtomicBool = AtomicBool::new(false);

/// Hands the terminal to the editor on `text` and takes it back.
fn edit_in_editor(session: &mut Session, text: &str) -> io::Result<Result<Vec<u8>, String>> {
    INPUT_PAUSED.store(true, Ordering::SeqCst);
    // Wait (briefly) for the input thread to stop reading.
    for _ in 0..100 {
        if INPUT_IDLE.load(Ordering::SeqCst) {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    restore();
    let result = editor::edit(text);
    take_back(session)?;
    INPUT_PAUSED.store(false, Ordering::SeqCst);
    Ok(result)
}

/// A test-only way to make the reader panic: in debug builds, the key named
/// by `PAPERBOAT_TEST_PANIC_KEY` panics (to check the terminal is restored
/// and the message shown).
fn injected_panic(ev: &Event) {
    if cfg!(debug_assertions)
        && let Event::Key(k) = ev
        && let crossterm::event::KeyCode::Char(c) = k.code
        && std::env::var("PAPERBOAT_TEST_PANIC_KEY").is_ok_and(|v| v == c.to_string())
    {
        panic!("injected panic for testing (PAPERBOAT_TEST_PANIC_KEY={c})");
    }
}

/// Hands a terminal event to the app: a key through the key table, a
/// mouse event by where it lands, a new size. Returns the app's effects.
fn handle(app: &mut App, keymap: &Keymap, ev: Event) -> Vec<Effect> {
    injected_panic(&ev);
    let message = match ev {
        Event::Key(key) => keymap.action(app.mode(), &key).map(Message::Action),
        Event::Mouse(m) => ui::mouse_action(app, &m).map(Message::Action),
        Event::Resize(w, h) => Some(Message::Resize(w, h)),
        _ => None,
    };
    message.map_or_else(Vec::new, |m| app.update(m))
}

/// The program that opens links: `PAPERBOAT_OPENER` when set (a command
/// and its arguments, split at spaces), else the platform's own.
fn opener() -> Vec<String> {
    if let Ok(cmd) = std::env::var("PAPERBOAT_OPENER")
        && !cmd.trim().is_empty()
    {
        return cmd.split_whitespace().map(str::to_string).collect();
    }
    let default = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    vec![default.to_string()]
}

/// Opens `url` with the opener, detached: its output never reaches the
/// screen and the reader does not wait for it. Only an http(s) address
/// is handed on (`text::links::openable`: the app asks for no other), so
/// that the opener's argument can never be read as an option or a
/// scheme that runs something (`file:`, `javascript:`, `-oProxyCommand`).
pub fn open_link(url: &str) -> io::Result<()> {
    open_with(&opener(), url)
}

/// [`open_link`] with the opener `cmd` (a program and its arguments).
fn open_with(cmd: &[String], url: &str) -> io::Result<()> {
    let Some(url) = crate::text::links::openable(url) else {
        return Err(io::Error::other(
            "only http(s) links are opened (y copies the link)",
        ));
    };
    let mut child = std::process::Command::new(&cmd[0])
        .args(&cmd[1..])
        .arg(&url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", cmd[0])))?;
    // Reap it when it ends so that no zombie is left behind.
    std::thread::spawn(move || child.wait());
    Ok(())
}

/// The OSC 52 sequence that puts `text` on the terminal's clipboard.
pub fn osc52(text: &str) -> String {
    use base64::Engine;
    let encoded = base64::engine::general_purpose::STANDARD.encode(text.as_bytes());
    format!("\u{1b}]52;c;{encoded}\u{7}")
}

/// Carries out what the app asked for and tells it how that went.
fn run_effects(
    app: &mut App,
    session: &mut Session,
    effects: Vec<Effect>,
    tx: &mpsc::Sender<Wake>,
) -> io::Result<()> {
    for effect in effects {
        match effect {
            Effect::RecordSeen { dir, ids, now } => {
                let tx = tx.clone();
                std::thread::Builder::new()
                    .name("paperboat-seen".into())
                    .spawn(move || {
                        let result = crate::app::record_seen_in(&dir, ids, now);
                        let _ = tx.send(Wake::Seen(result));
                    })?;
            }
            Effect::StoreIndex(index) => {
                if let Some(to) = &session.index_to {
                    let (cache, path, format) = (to.cache.clone(), to.path.clone(), to.format);
                    session.writers.push(
                        std::thread::Builder::new()
                            .name("paperboat-cache".into())
                            .spawn(move || {
                                let papers = index.indexed().1;
                                let _ = load::cache::store_index(
                                    &cache,
                                    &path,
                                    format,
                                    papers,
                                    &mut |out| index.write_to(out),
                                );
                            })?,
                    );
                }
            }
            Effect::Suspend => suspend(session, app)?,
            Effect::EditNote { id, text } => {
                let result = edit_in_editor(session, &text)?;
                app.update(Message::NoteEdited { id, result });
            }
            Effect::Open(url) => {
                let result = open_link(&url).map_err(|e| e.to_string());
                app.update(Message::Opened { url, result });
            }
            Effect::Copy(text) => {
                let mut out = stdout();
                let done = out
                    .write_all(osc52(&text).as_bytes())
                    .and_then(|()| out.flush());
                app.update(Message::Copied(done.map_err(|e| e.to_string())));
            }
            // The loop draws once everything waiting is taken in.
            Effect::Redraw => {}
        }
    }
    Ok(())
}

/// Runs the reader until the user quits or a signal ends it. The corpus
/// streams in while the reader runs.
pub fn run(start: Start, store: Store, config: Config, messages: Vec<String>) -> io::Result<Exit> {
    if !stdout().is_terminal() {
        return Err(io::Error::other(
            "the reader needs a terminal on standard output (try `paperboat search` or `paperboat --help`)",
        ));
    }
    let (tx, rx) = mpsc::channel::<Wake>();
    let results_tx = tx.clone();
    let key = load::corpus_key(&start.inputs);
    let mut app = App::loading(key, store, start.announce, move || {
        let _ = results_tx.send(Wake::Results);
    });
    // The key table and the colours stay here; the app takes the rest.
    let Config {
        keymap,
        theme,
        scope,
        view,
        names,
        list,
        cache_size: _,
    } = config;
    let theme = if no_color_env() {
        theme.without_color()
    } else {
        theme
    };
    app.update(Message::Configured { scope, view, list });
    app.update(Message::Names(names));
    app.update(Message::Problems(messages));
    let mut signals = Signals::new([SIGTERM, SIGHUP, SIGINT, SIGTSTP])?;
    let signal_handle = signals.handle();
    let signal_tx = tx.clone();
    std::thread::Builder::new()
        .name("paperboat-signals".into())
        .spawn(move || {
            for sig in signals.forever() {
                if signal_tx.send(Wake::Signal(sig)).is_err() {
                    break;
                }
            }
        })?;
    let index_to = IndexTarget::of(&start.inputs, &start.options);
    spawn_loader(start, tx.clone())?;
    let effects_tx = tx.clone();
    // A small corpus is whole before the first frame is due.
    let deadline = std::time::Instant::now() + FIRST_FRAME_WAIT;
    let mut early = Vec::new();
    while let Some(left) = deadline.checked_duration_since(std::time::Instant::now()) {
        match rx.recv_timeout(left) {
            Ok(Wake::Load(e)) => {
                app.update(Message::Load(*e));
            }
            Ok(Wake::Loaded) => {
                app.update(Message::Loaded);
                break;
            }
            Ok(other) => early.push(other),
            Err(_) => break,
        }
    }
    if app.quitting() {
        signal_handle.close();
        return Ok(match app.into_failure() {
            Some(e) => Exit::NoPapers(e),
            None => Exit::Quit,
        });
    }
    // The first frame shows what is ranked by then.
    app.search().wait(FIRST_FRAME_WAIT);
    app.update(Message::Tick);
    let mut session = Session::start()?;
    session.index_to = index_to;
    let size = session.terminal.size()?;
    app.update(Message::Resize(size.width, size.height));
    std::thread::Builder::new()
        .name("paperboat-input".into())
        .spawn(move || {
            // A read can fail for a moment (a stop and continue, a resize
            // arriving mid-read): keep reading, and give up only when it
            // keeps failing (the terminal is gone).
            let mut failures = 0;
            loop {
                // While the editor has the terminal, its keys are its own.
                if INPUT_PAUSED.load(Ordering::SeqCst) {
                    INPUT_IDLE.store(true, Ordering::SeqCst);
                    std::thread::sleep(Duration::from_millis(5));
                    continue;
                }
                INPUT_IDLE.store(false, Ordering::SeqCst);
                match event::poll(Duration::from_millis(50)) {
                    Ok(false) => continue,
                    Ok(true) if INPUT_PAUSED.load(Ordering::SeqCst) => continue,
                    _ => {}
                }
                match event::read() {
                    Ok(ev) => {
                        failures = 0;
                        if tx.send(Wake::Term(ev)).is_err() {
                            break;
                        }
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(_) => {
                        failures += 1;
                        if failures > 200 {
                            break;
                        }
                        std::thread::sleep(Duration::from_millis(10));
                    }
                }
            }
        })?;
    let mut exit = Exit::Quit;
    let mut first_frame = true;
    'outer: loop {
        // What a tick asks for (the word index stored, once built).
        let effects = app.update(Message::Tick);
        run_effects(&mut app, &mut session, effects, &effects_tx)?;
        if app.mode() == crate::vocabulary::Mode::Help {
            // The help scrolls no further than its end, at this width.
            let width = session.terminal.size()?.width;
            app.update(Message::HelpLines(
                ui::help::lines(&keymap, &theme, width).len(),
            ));
        }
        session
            .terminal
            .draw(|f| ui::draw(f, &app, &theme, &keymap))?;
        if std::mem::take(&mut first_frame) {
            let effects = app.update(Message::FrameShown);
            run_effects(&mut app, &mut session, effects, &effects_tx)?;
        }
        if app.quitting() {
            break;
        }
        let timeout = if app.search().is_running() {
            Duration::from_millis(16)
        } else {
            Duration::from_millis(250)
        };
        let first = if early.is_empty() {
            match rx.recv_timeout(timeout) {
                Ok(w) => Some(w),
                Err(mpsc::RecvTimeoutError::Timeout) => None,
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        } else {
            None
        };
        // Apply everything that is waiting, then draw once.
        let waiting: Vec<Wake> = std::mem::take(&mut early);
        let mut effects = Vec::new();
        for w in waiting
            .into_iter()
            .chain(first)
            .chain(std::iter::from_fn(|| rx.try_recv().ok()))
        {
            effects = match w {
                Wake::Term(ev) => handle(&mut app, &keymap, ev),
                Wake::Results => Vec::new(),
                Wake::Load(e) => app.update(Message::Load(*e)),
                Wake::Loaded => app.update(Message::Loaded),
                Wake::Seen(result) => app.update(Message::SeenRecorded(result)),
                Wake::Signal(SIGTSTP) => {
                    app.update(Message::Stopping);
                    suspend(&mut session, &mut app)?;
                    Vec::new()
                }
                Wake::Signal(sig) => {
                    app.update(Message::Stopping);
                    exit = Exit::Signal(sig);
                    break 'outer;
                }
            };
            if app.quitting() {
                break;
            }
            run_effects(
                &mut app,
                &mut session,
                std::mem::take(&mut effects),
                &effects_tx,
            )?;
        }
        run_effects(&mut app, &mut session, effects, &effects_tx)?;
    }
    signal_handle.close();
    let writers = std::mem::take(&mut session.writers);
    drop(session);
    // A word index being written to the cache is finished (a second or
    // two for a million papers), unless a signal ends the reader: the next
    // open would otherwise index every abstract again.
    if matches!(exit, Exit::Quit) {
        for w in writers {
            let _ = w.join();
        }
    }
    if let Some(e) = app.take_failure() {
        exit = Exit::NoPapers(e);
    }
    // The process ends now, and every mark is saved: the matcher's and the
    // indexer's threads (the indexer at low priority, slow to be scheduled
    // on a busy machine) are not waited for, as dropping the app would.
    std::mem::forget(app);
    Ok(exit)
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_web_links_are_handed_to_the_opener() {
        // An opener that does not exist: starting it is an error of its
        // own, which only a link that was handed on meets.
        let cmd = ["/nonexistent/opener".to_string()];
        for link in [
            "-oProxyCommand=id",
            "javascript:alert(1)",
            "file:///etc/passwd",
            "smb://h/s",
        ] {
            let e = super::open_with(&cmd, link).unwrap_err();
            assert!(e.to_string().contains("only http(s) links"), "{link}: {e}");
        }
        let e = super::open_with(&cmd, "https://a.org").unwrap_err();
        assert!(e.to_string().contains("/nonexistent/opener"), "{e}");
    }
}
