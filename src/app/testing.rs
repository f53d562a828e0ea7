//! What the app's tests share: readers on the bundled lists with a
//! private state directory, and ways to let the matcher settle.

use std::time::Duration;

use super::App;
use crate::loading as load;
use crate::store::Store;
use crate::vocabulary::{Action, Message};

/// A reader on the bundled lists with a private state directory
/// (dropped with the guard).
pub(super) fn app() -> (App, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    (app_in(dir.path()), dir)
}

pub(super) fn app_in(dir: &std::path::Path) -> App {
    let (store, msgs) = Store::open(dir);
    assert!(msgs.is_empty(), "{msgs:?}");
    let mut app = App::new(load::bundled(), store, || {});
    app.update(Message::Resize(120, 40));
    settle(&mut app);
    indexed(&app);
    app
}

/// Waits until the word index holds every paper (related papers and the
/// every-field scope read it).
pub(super) fn indexed(app: &App) {
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while app.search().indexed().0 < app.search().indexed().1 {
        assert!(
            std::time::Instant::now() < deadline,
            "the index never ended"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
}

pub(super) fn app_in_unchecked(dir: &std::path::Path) -> App {
    let (store, _) = Store::open(dir);
    let mut app = App::new(load::bundled(), store, || {});
    app.update(Message::Resize(120, 40));
    settle(&mut app);
    app
}

pub(super) fn settle(app: &mut App) {
    assert!(app.search().wait(Duration::from_secs(5)));
    app.update(Message::Tick);
}

pub(super) fn typed(app: &mut App, s: &str) {
    for c in s.chars() {
        app.apply(Action::Insert(c));
    }
    settle(app);
}

/// The bundled papers as two batches, as a streaming load hands them
/// on.
pub(super) fn two_batches() -> (Vec<load::Event>, Vec<String>) {
    let papers = load::bundled().corpus.papers.into_vec();
    let ids = papers.iter().map(|p| p.id.to_string()).collect();
    let mut dedup = crate::corpus::Dedup::default();
    let (a, b) = papers.split_at(20);
    let events = vec![
        load::Event::Papers(dedup.accept(a.to_vec()), None),
        load::Event::Progress {
            bytes: 500,
            total: Some(1000),
            papers: 20,
        },
        load::Event::Papers(dedup.accept(b.to_vec()), None),
    ];
    (events, ids)
}

pub(super) fn streaming_app(dir: &std::path::Path) -> App {
    let (store, _) = Store::open(dir);
    let mut app = App::loading("streamed".into(), store, true, || {});
    app.update(Message::Resize(120, 40));
    app
}

/// [`streaming_app`] with both of [`two_batches`] handed to it, the load
/// not yet ended.
pub(super) fn streamed_app(dir: &std::path::Path) -> App {
    let mut app = streaming_app(dir);
    for e in two_batches().0 {
        app.update(Message::Load(e));
    }
    app
}

/// [`streaming_app`] handed `papers` left in the cache (in blocks of 8)
/// with their finished title list, and told they are all listed; the
/// papers are given back to tell when they are decoded.
pub(super) fn stored_app(
    dir: &std::path::Path,
    papers: &[crate::corpus::Paper],
) -> (App, crate::corpus::Papers) {
    let mut list = crate::search::TitleList::default();
    list.push(papers.to_vec());
    list.finish();
    let stored = crate::corpus::stored_for_tests(papers.to_vec(), 8, list.short_len());
    let mut app = streaming_app(dir);
    let event = load::Event::Stored(stored.clone(), std::sync::Arc::new(list));
    app.update(Message::Load(event));
    app.update(Message::Load(load::Event::Listed));
    (app, stored)
}

pub(super) fn title(app: &App) -> String {
    app.corpus().papers[app.selected_paper().unwrap()]
        .title
        .clone()
}

/// A reader on the bundled lists where paper `i` (of the first 12) has
/// the year 2010 + i % 4 and the author "Author{11 - i}", the rest
/// neither.
pub(super) fn app_with_years() -> (App, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let (store, _) = Store::open(dir.path());
    let mut loaded = load::bundled();
    for (i, p) in loaded.corpus.papers.iter_mut().enumerate().take(12) {
        p.year = Some(2010 + (i % 4) as i32);
        p.authors = [format!("Given Author{:02}", 11 - i)].into_iter().collect();
    }
    let mut app = App::new(loaded, store, || {});
    app.update(Message::Resize(120, 40));
    settle(&mut app);
    (app, dir)
}

/// Carries out the first-seen recording among `effects` as the terminal
/// does (there on a thread of its own), and hands the app the outcome.
pub(super) fn carry_out_seen(app: &mut App, effects: Vec<crate::vocabulary::Effect>) {
    for e in effects {
        if let crate::vocabulary::Effect::RecordSeen { dir, ids, now } = e {
            let result = super::record_seen_in(&dir, ids, now);
            app.update(Message::SeenRecorded(result));
        }
    }
}
