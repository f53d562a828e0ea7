//! Keystroke to final ranked first page, through the reader's own `App`:
//! types each query a character at a time into a loaded corpus and times,
//! for every keystroke, how long until the ranking shown answers it, and the
//! longest the UI thread spent in one `apply`, `tick` or `draw`.
//!
//! `cargo bench --bench keystroke -- FILE...` (`lines` files from
//! `cargo run --release --example gen_corpus -- lines 1M f.txt`; any
//! other file is loaded as the reader loads it, e.g. `jsonl 1M f.jsonl`).
//! `SCOPE=all` types into the every-field scope, once the word index is
//! built (the time that takes is printed). `QUERIES="a;b c"` types those
//! queries instead of the three it types by default.

use std::time::{Duration, Instant};

use paperboat::app::App;
use paperboat::corpus::{Corpus, text};
use paperboat::keys::Keymap;
use paperboat::loading::{Input, Loaded, Options, load};
use paperboat::store::Store;
use paperboat::ui;
use paperboat::ui::theme::Theme;
use paperboat::vocabulary::{Action, Effect, Message};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn main() {
    paperboat::alloc::configure();
    let files: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let state = tempfile::tempdir().unwrap();
    let all = std::env::var("SCOPE").is_ok_and(|s| s == "all");
    for f in files {
        let loaded = if f.ends_with(".txt") {
            let content = std::fs::read_to_string(&f).expect("read");
            let list: std::sync::Arc<str> = "bench".into();
            let papers: Vec<_> = text::parse_lines(&content)
                .records
                .into_iter()
                .enumerate()
                .filter_map(|(i, r)| r.into_paper(&list, i as u32))
                .collect();
            Loaded {
                corpus: Corpus::new(papers),
                reports: Vec::new(),
                key: format!("bench {f}"),
                index: None,
            }
        } else {
            let inputs = [Input::Path(f.clone().into())];
            load(&inputs, &Options::default()).expect("load")
        };
        let n = loaded.corpus.len();
        let (store, _) = Store::open(state.path());
        // As the reader's loop: woken by each new ranking, drawing then.
        let (tx, rx) = std::sync::mpsc::channel();
        let mut app = App::new(loaded, store, move || {
            let _ = tx.send(());
        });
        app.update(Message::Resize(120, 40));
        let (theme, keymap) = (Theme::default(), Keymap::default());
        let mut term = Terminal::new(TestBackend::new(120, 40)).unwrap();
        while app.search().is_running() {
            app.update(Message::Tick);
            std::thread::sleep(Duration::from_millis(1));
        }
        println!("{f}: {n} papers");
        if all {
            let t = Instant::now();
            app.apply(Action::ToggleScope);
            while app.search().indexed().0 < n {
                app.update(Message::Tick);
                std::thread::sleep(Duration::from_millis(5));
            }
            println!(
                "  every-field scope; word index built {:.1} s after the list showed",
                t.elapsed().as_secs_f64()
            );
        }
        let queries = std::env::var("QUERIES")
            .unwrap_or_else(|_| "rl;sparse attn;diffusion language model decoding".to_string());
        for q in queries.split(';') {
            app.apply(Action::StartSearch);
            app.apply(Action::ClearQuery);
            while app.search().is_running() {
                app.update(Message::Tick);
                std::thread::sleep(Duration::from_millis(1));
            }
            let mut per_key = Vec::new();
            let mut worst_ui = Duration::ZERO;
            for c in q.chars() {
                let t = Instant::now();
                let u = Instant::now();
                app.apply(Action::Insert(c));
                worst_ui = worst_ui.max(u.elapsed());
                // As the reader's loop does: a frame for the keystroke, then
                // one for each new ranking, waiting to be woken for it.
                let u = Instant::now();
                term.draw(|fr| ui::draw(fr, &app, &theme, &keymap)).unwrap();
                worst_ui = worst_ui.max(u.elapsed());
                loop {
                    let u = Instant::now();
                    if app.update(Message::Tick).contains(&Effect::Redraw) {
                        term.draw(|fr| ui::draw(fr, &app, &theme, &keymap)).unwrap();
                    }
                    worst_ui = worst_ui.max(u.elapsed());
                    if app.search().first_page_final() {
                        break;
                    }
                    let _ = rx.recv_timeout(Duration::from_millis(16));
                    while rx.try_recv().is_ok() {}
                }
                per_key.push(t.elapsed());
            }
            // The first page can be final before every match is counted
            // (every field: see core/src/search/page.rs); the count follows.
            let t = Instant::now();
            while app.search().is_running() {
                app.update(Message::Tick);
                std::thread::sleep(Duration::from_millis(1));
            }
            let counted = t.elapsed();
            let ms = |d: &Duration| d.as_secs_f64() * 1e3;
            let worst = per_key.iter().max().unwrap();
            let keys: Vec<String> = per_key.iter().map(|d| format!("{:.0}", ms(d))).collect();
            println!(
                "  {q:?}: {} rows (all in order {:.0} ms after the last key); keystroke→final first page: worst {:.1} ms, per key [{}] ms; longest UI step {:.1} ms",
                app.rows(),
                ms(&counted),
                ms(worst),
                keys.join(" "),
                ms(&worst_ui)
            );
        }
    }
}

/// The binary's allocator, so that the numbers are the binary's.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;
