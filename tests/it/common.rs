//! Shared test helpers: running the real binary, in a pipe or in a
//! pseudo-terminal read through a vt100 screen model, as a user meets it.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};

fn nz(n: u16) -> std::num::NonZeroU16 {
    std::num::NonZeroU16::new(n.max(1)).unwrap()
}

/// The binary under test.
pub fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_paperboat"))
}

/// Runs the binary with `args`, feeding `stdin`, with a private state dir
/// (and a private cache in it: a test never writes to the user's cache).
pub fn run(args: &[&str], stdin: Option<&[u8]>, state: &Path) -> Output {
    let mut cmd = Command::new(bin());
    cmd.args(args)
        .env("PAPERBOAT_STATE_DIR", state)
        .env("PAPERBOAT_CACHE_DIR", state.join("cache"))
        .env("NO_COLOR", "1")
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("spawn paperboat");
    if let Some(input) = stdin {
        let mut w = child.stdin.take().unwrap();
        match w.write_all(input) {
            Ok(()) => {}
            // The binary may end before it reads its input (an option it
            // refuses exits at once): its status and output say why, and
            // the test looks at those.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
            Err(e) => panic!("writing paperboat's standard input: {e}"),
        }
    }
    child.wait_with_output().unwrap()
}

/// The binary running in a pseudo-terminal.
pub struct Pty {
    pub child: Box<dyn Child + Send + Sync>,
    master: Box<dyn MasterPty + Send>,
    writer: Box<dyn Write + Send>,
    parser: Arc<Mutex<vt100::Parser>>,
    raw: Arc<Mutex<Vec<u8>>>,
}

impl Pty {
    /// Starts the binary with `args` in a `cols`x`rows` terminal.
    pub fn spawn(args: &[&str], cols: u16, rows: u16, state: &Path, env: &[(&str, &str)]) -> Pty {
        Pty::spawn_command(bin().to_str().unwrap(), args, cols, rows, state, env)
    }

    /// Starts `program` with `args` in a `cols`x`rows` terminal.
    pub fn spawn_command(
        program: &str,
        args: &[&str],
        cols: u16,
        rows: u16,
        state: &Path,
        env: &[(&str, &str)],
    ) -> Pty {
        let pair = native_pty_system()
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("openpty");
        let mut cmd = CommandBuilder::new(program);
        cmd.args(args);
        cmd.env("TERM", "xterm-256color");
        cmd.env("PAPERBOAT_STATE_DIR", state);
        cmd.env("PAPERBOAT_CACHE_DIR", state.join("cache"));
        for (k, v) in env {
            cmd.env(k, v);
        }
        let child = pair.slave.spawn_command(cmd).expect("spawn in pty");
        drop(pair.slave);
        let mut reader = pair.master.try_clone_reader().unwrap();
        let writer = pair.master.take_writer().unwrap();
        let parser = Arc::new(Mutex::new(vt100::Parser::new(nz(rows), nz(cols), 0)));
        let raw = Arc::new(Mutex::new(Vec::new()));
        let (p, r) = (parser.clone(), raw.clone());
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                p.lock().unwrap().process(&buf[..n]);
                r.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        });
        Pty {
            child,
            master: pair.master,
            writer,
            parser,
            raw,
        }
    }

    /// Types `s` (raw bytes: `\x1b` for Esc, `\r` for Enter).
    pub fn send(&mut self, s: &str) {
        self.writer.write_all(s.as_bytes()).unwrap();
        self.writer.flush().unwrap();
    }

    /// The screen's text.
    pub fn screen(&self) -> String {
        self.parser.lock().unwrap().screen().contents()
    }

    /// Everything the program wrote.
    pub fn raw(&self) -> Vec<u8> {
        self.raw.lock().unwrap().clone()
    }

    /// Waits until `pred` holds for the screen, or panics showing it.
    pub fn wait_for(&self, what: &str, pred: impl Fn(&vt100::Screen) -> bool) {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            {
                let parser = self.parser.lock().unwrap();
                if pred(parser.screen()) {
                    return;
                }
            }
            if Instant::now() > deadline {
                panic!("timed out waiting for {what}; screen:\n{}", self.screen());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits until the screen shows `text`.
    pub fn wait_text(&self, text: &str) {
        self.wait_for(text, |s| s.contents().contains(text));
    }

    /// Resizes the terminal.
    pub fn resize(&self, cols: u16, rows: u16) {
        self.master
            .resize(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .unwrap();
        self.parser
            .lock()
            .unwrap()
            .screen_mut()
            .set_size(nz(rows), nz(cols));
    }

    /// Waits for the program to exit.
    pub fn wait_exit(&mut self) -> portable_pty::ExitStatus {
        // Long enough for a machine busy with other tests; a hang is still
        // a failure.
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                // Let the reader thread drain what was written last.
                std::thread::sleep(Duration::from_millis(100));
                return status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("paperboat did not exit; screen:\n{}", self.screen());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// True when the terminal is back in cooked mode (canonical input and
    /// echo on), as a shell expects it.
    pub fn cooked(&self) -> bool {
        let fd = self.master.as_raw_fd().expect("unix pty");
        // SAFETY: termios is a plain C struct; all zeroes is a valid value.
        let mut t: libc::termios = unsafe { std::mem::zeroed() };
        // SAFETY: `fd` is the open pty master; `t` is a termios to fill.
        let ok = unsafe { libc::tcgetattr(fd, &mut t) } == 0;
        ok && (t.c_lflag & libc::ICANON) != 0 && (t.c_lflag & libc::ECHO) != 0
    }

    /// True when the screen model is back on the main screen with mouse
    /// reporting off and the cursor visible.
    pub fn screen_restored(&self) -> bool {
        let parser = self.parser.lock().unwrap();
        let s = parser.screen();
        !s.alternate_screen()
            && s.mouse_protocol_mode() == vt100::MouseProtocolMode::None
            && !s.hide_cursor()
    }
}

impl Drop for Pty {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}
