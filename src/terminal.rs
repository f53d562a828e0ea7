//! The interactive session: raw mode, the alternate screen and mouse
//! reporting, switched on at start and off again on every way out (normal
//! exit, error, panic), and the event loop that feeds keys to the app.

use std::io::{self, IsTerminal, Stdout, stdout};
use std::sync::Once;
use std::sync::mpsc;
use std::time::Duration;

use crossterm::event::{self, DisableMouseCapture, EnableMouseCapture, Event};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

use crate::app::{Action, App};
use crate::corpus::load::Loaded;
use crate::store::Store;
use crate::ui;

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
            Ok(terminal) => Ok(Session { terminal }),
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
}

fn handle(app: &mut App, ev: Event) {
    match ev {
        Event::Key(key) => {
            if let Some(action) = app.keymap.action(app.mode, &key) {
                app.apply(action);
            }
        }
        Event::Mouse(m) => {
            if let Some(action) = ui::mouse_action(app, &m) {
                app.apply(action);
            }
        }
        Event::Resize(w, h) => app.apply(Action::Resize(w, h)),
        _ => {}
    }
}

/// Runs the reader until the user quits.
pub fn run(loaded: Loaded, store: Store, messages: Vec<String>) -> io::Result<()> {
    if !stdout().is_terminal() {
        return Err(io::Error::other(
            "the reader needs a terminal on standard output (try `paperboat search` or `paperboat --help`)",
        ));
    }
    let (tx, rx) = mpsc::channel::<Wake>();
    let results_tx = tx.clone();
    let mut app = App::new(loaded, store, move || {
        let _ = results_tx.send(Wake::Results);
    });
    if !messages.is_empty() {
        app.status = Some(messages.join(" · "));
    }
    let mut session = Session::start()?;
    let size = session.terminal.size()?;
    app.apply(Action::Resize(size.width, size.height));
    std::thread::Builder::new()
        .name("paperboat-input".into())
        .spawn(move || {
            while let Ok(ev) = event::read() {
                if tx.send(Wake::Term(ev)).is_err() {
                    break;
                }
            }
        })?;
    loop {
        app.tick();
        session.terminal.draw(|f| ui::draw(f, &app))?;
        if app.quit {
            break;
        }
        let timeout = if app.search.is_running() {
            Duration::from_millis(16)
        } else {
            Duration::from_secs(1)
        };
        let first = match rx.recv_timeout(timeout) {
            Ok(w) => Some(w),
            Err(mpsc::RecvTimeoutError::Timeout) => None,
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        };
        // Apply everything that is waiting, then draw once.
        for w in first
            .into_iter()
            .chain(std::iter::from_fn(|| rx.try_recv().ok()))
        {
            if let Wake::Term(ev) = w {
                handle(&mut app, ev);
            }
            if app.quit {
                break;
            }
        }
    }
    drop(session);
    Ok(())
}
