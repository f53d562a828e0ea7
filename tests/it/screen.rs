//! The main screen drawn into ratatui's TestBackend at fixed sizes.

use std::time::Duration;

use paperboat::app::App;
use paperboat::keys::Keymap;
use paperboat::loading as load;
use paperboat::ui;
use paperboat::ui::theme::Theme;
use paperboat::vocabulary::{Action, Message};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::style::Modifier;

fn app_at(w: u16, h: u16) -> App {
    // An empty state directory that is never written: nothing here saves.
    let dir = std::env::temp_dir().join("paperboat-screen-tests-never-written");
    let (store, _) = paperboat::store::Store::open(&dir);
    let mut app = App::new(load::bundled(), store, || {});
    app.update(Message::Resize(w, h));
    settle(&mut app);
    // Related papers read the word index, built in the background.
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while app.search().indexed().0 < app.corpus().len() {
        assert!(std::time::Instant::now() < deadline, "never indexed");
        std::thread::sleep(Duration::from_millis(2));
    }
    app
}

fn settle(app: &mut App) {
    assert!(app.search().wait(Duration::from_secs(5)));
    app.update(Message::Tick);
}

fn draw(app: &App) -> Terminal<TestBackend> {
    let mut t = Terminal::new(TestBackend::new(app.size().0, app.size().1)).unwrap();
    t.draw(|f| ui::draw(f, app, &Theme::default(), &Keymap::default()))
        .unwrap();
    t
}

#[test]
fn main_screen_120x40() {
    let app = app_at(120, 40);
    let t = draw(&app);
    insta::assert_snapshot!("main_120x40", t.backend());
    // The selected row is shown reversed.
    let buf = t.backend().buffer();
    assert!(buf[(3, 2)].modifier.contains(Modifier::REVERSED));
    assert!(!buf[(3, 3)].modifier.contains(Modifier::REVERSED));
}

#[test]
fn main_screen_60x20_stacks_the_panes() {
    let app = app_at(60, 20);
    let t = draw(&app);
    insta::assert_snapshot!("main_60x20", t.backend());
}

#[test]
fn a_query_filters_and_highlights() {
    let mut app = app_at(120, 40);
    app.apply(Action::StartSearch);
    for c in "graph link".chars() {
        app.apply(Action::Insert(c));
    }
    settle(&mut app);
    let t = draw(&app);
    insta::assert_snapshot!("query_graph_link_120x40", t.backend());
    let buf = t.backend().buffer();
    // "Graph-Link: …" is the first row; its G is a matched character.
    let row: String = (0..60).map(|x| buf[(x, 2)].symbol().to_string()).collect();
    assert!(row.contains("Graph-Link"), "{row}");
    let g = row.find('G').unwrap() as u16;
    assert!(
        buf[(g, 2)].modifier.contains(Modifier::BOLD),
        "matched characters are picked out"
    );
}

#[test]
fn help_overlay_lists_the_keys() {
    let mut app = app_at(120, 40);
    app.apply(Action::ToggleHelp);
    let lines = ui::help::lines(&Keymap::default(), &Theme::default(), 120);
    app.update(Message::HelpLines(lines.len()));
    // Every page of it, scrolled through.
    let mut text = String::new();
    let mut last = String::new();
    for _ in 0..lines.len() {
        let page = format!("{}", draw(&app).backend());
        if page == last {
            break;
        }
        text.push_str(&page);
        last = page;
        app.apply(Action::PageDown);
    }
    for (key, what) in [
        ("Ctrl-t", "titles and abstracts"),
        ("Tab", "Focus"),
        ("q Ctrl-c", "Quit"),
        ("x", "Select / unselect"),
        ("X", "Select every listed paper"),
        ("c", "Clear the selection"),
        ("t", "Tags: +add -remove"),
        ("e", "Note: write the paper's note"),
        ("s", "Sort: file"),
        ("T", "Triage the unread papers"),
        ("y", "Keep: bookmark and mark read"),
        ("n", "Skip: mark read"),
        ("l", "Later: leave unread"),
        ("S", "Save the query under a name"),
        ("L", "Saved searches: pick one"),
        ("Tab", "Complete the tag"),
        ("d", "Remove the saved search"),
        ("PgUp", "Page up"),
    ] {
        assert!(
            text.contains(key) && text.contains(what),
            "{key} {what}\n{text}"
        );
    }
}

#[test]
fn tiny_terminals_get_a_note() {
    let app = app_at(15, 4);
    let t = draw(&app);
    assert!(format!("{}", t.backend()).contains("too small"));
}

/// The first line of the screen, as text.
fn top_line(t: &Terminal<TestBackend>) -> String {
    let buf = t.backend().buffer();
    (0..buf.area.width)
        .map(|x| buf[(x, 0)].symbol().to_string())
        .collect()
}

#[test]
fn while_loading_the_search_line_shows_progress_and_keeps_its_count_when_narrow() {
    let dir = std::env::temp_dir().join("paperboat-screen-tests-never-written");
    let (store, _) = paperboat::store::Store::open(&dir);
    let mut app = App::loading("loading-screen".into(), store, false, || {});
    app.update(Message::Resize(50, 20));
    let papers = load::bundled().corpus.papers.into_vec();
    let mut dedup = paperboat::corpus::Dedup::default();
    app.update(Message::Load(load::Event::Papers(
        dedup.accept(papers[..20].to_vec()),
        None,
    )));
    app.update(Message::Load(load::Event::Progress {
        bytes: 1_000,
        total: Some(50_000),
        papers: 20,
    }));
    settle(&mut app);
    let line = top_line(&draw(&app));
    assert!(
        line.contains("loading 20/1.0k │ 20/20 papers · titles"),
        "{line:?}"
    );
    // The hint gives way to the figures rather than run into them.
    assert!(line.trim_start().starts_with("loading"), "{line:?}");
    app.update(Message::Loaded);
    settle(&mut app);
    let line = top_line(&draw(&app));
    assert!(!line.contains("loading"), "{line:?}");
    assert!(line.contains("/ to search · ? for keys"), "{line:?}");
}

#[test]
fn more_like_this_120x40() {
    let mut app = app_at(120, 40);
    app.apply(Action::SelectRow(1));
    let of = app.selected_paper().unwrap();
    app.apply(Action::Related);
    let t = draw(&app);
    insta::assert_snapshot!("related_120x40", t.backend());
    let top = top_line(&t);
    let title = &app.corpus().papers[of].title;
    assert!(top.contains(&format!("Related to: {title}")), "{top:?}");
    assert!(top.contains(&format!("{} related", app.rows())), "{top:?}");
    assert!(format!("{}", t.backend()).contains("Esc back"));
}

#[test]
fn more_like_this_fits_its_title_to_a_narrow_screen() {
    let mut app = app_at(60, 20);
    app.apply(Action::SelectRow(1));
    app.apply(Action::Related);
    app.apply(Action::Related);
    let t = draw(&app);
    insta::assert_snapshot!("related_60x20", t.backend());
    let top = top_line(&t);
    assert!(top.starts_with("   Related to: "), "{top:?}");
    assert!(top.contains('…'), "the title is cut: {top:?}");
    assert!(top.contains("related · level 2"), "{top:?}");
}

#[test]
fn help_overlay_fits_60x20_and_scrolls_to_its_end() {
    let mut app = app_at(60, 20);
    app.apply(Action::ToggleHelp);
    let lines = ui::help::lines(&Keymap::default(), &Theme::default(), 60);
    // Every line fits in the box, none cut.
    assert!(
        lines.iter().all(|l| l.width() <= 56),
        "a line wider than the box"
    );
    app.update(Message::HelpLines(lines.len()));
    let top = format!("{}", draw(&app).backend());
    insta::assert_snapshot!("help_60x20", top);
    app.apply(Action::Last);
    let end = format!("{}", draw(&app).backend());
    assert!(end.contains("Confirm"), "the last group is reached\n{end}");
    assert!(end.contains(&format!("{0}/{0}", lines.len())), "{end}");
    assert_ne!(top, end);
}

#[test]
fn selected_papers_are_marked_and_counted_120x40() {
    let mut app = app_at(120, 40);
    app.apply(Action::TogglePick);
    app.apply(Action::Down);
    app.apply(Action::TogglePick);
    let t = draw(&app);
    insta::assert_snapshot!("selection_120x40", t.backend());
    let text = format!("{}", t.backend());
    assert!(text.contains("● 2 selected"), "{text}");
    assert_eq!(
        text.matches('●').count(),
        3,
        "two rows and the count\n{text}"
    );
}

/// The bundled lists with a year and a first author on the first dozen
/// papers, over a private state directory.
fn app_with_columns(w: u16, h: u16, dir: &std::path::Path) -> App {
    let (store, _) = paperboat::store::Store::open(dir);
    let mut loaded = load::bundled();
    for (i, p) in loaded.corpus.papers.iter_mut().enumerate().take(12) {
        p.year = Some(2014 + i as i32);
        p.authors = [format!("Ada van Lovelace-Byron{i}"), "B C".into()]
            .into_iter()
            .collect();
    }
    let mut app = App::new(loaded, store, || {});
    app.update(Message::Resize(w, h));
    settle(&mut app);
    app
}

#[test]
fn author_year_and_tags_beside_the_title_120x40_none_at_60x20() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_with_columns(120, 40, dir.path());
    app.apply(Action::EditTags);
    for c in "LoRA \"to review\"".chars() {
        app.apply(Action::Insert(c));
    }
    app.apply(Action::AcceptLine);
    let t = draw(&app);
    insta::assert_snapshot!("columns_120x40", t.backend());
    let text = format!("{}", t.backend());
    let first_row = text.lines().nth(2).unwrap();
    assert!(first_row.contains("#LoRA"), "{first_row}");
    assert!(first_row.contains("2014"), "{first_row}");
    assert!(first_row.contains("Lovelace"), "{first_row}");
    assert!(
        text.contains("# LoRA · to review"),
        "the abstract pane has them"
    );
    let narrow = app_with_columns(60, 20, dir.path());
    let text = format!("{}", draw(&narrow).backend());
    let first_row = text.lines().nth(2).unwrap();
    assert!(first_row.contains("#LoRA"), "tags stay: {first_row}");
    assert!(
        !first_row.contains("2014"),
        "no columns under 80: {first_row}"
    );
}

#[test]
fn triage_shows_the_abstract_large_with_progress() {
    let dir = tempfile::tempdir().unwrap();
    for (w, h) in [(120, 40), (60, 20)] {
        let mut app = app_with_columns(w, h, dir.path());
        app.apply(Action::Triage);
        app.apply(Action::Later);
        app.apply(Action::Later);
        let t = draw(&app);
        insta::assert_snapshot!(format!("triage_{w}x{h}"), t.backend());
        let text = format!("{}", t.backend());
        assert!(
            text.contains("Triage · 2/38 triaged · 0 kept · 2 later"),
            "{text}"
        );
        assert!(text.contains("y keep · n skip"), "{text}");
        assert!(!text.contains("Papers"), "no list in triage\n{text}");
    }
}

#[test]
fn the_saved_search_picker_60x20() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_with_columns(60, 20, dir.path());
    for (query, name) in [("framework", "frameworks"), ("jail", "jailbreaks")] {
        app.apply(Action::StartSearch);
        app.apply(Action::ClearQuery);
        for c in query.chars() {
            app.apply(Action::Insert(c));
        }
        app.apply(Action::AcceptSearch);
        app.apply(Action::SaveSearch);
        for c in name.chars() {
            app.apply(Action::Insert(c));
        }
        app.apply(Action::AcceptLine);
    }
    app.apply(Action::RecallSearch);
    app.apply(Action::Down);
    let t = draw(&app);
    insta::assert_snapshot!("picker_60x20", t.backend());
    let text = format!("{}", t.backend());
    assert!(
        text.contains("Saved searches") && text.contains("frameworks"),
        "{text}"
    );
}

/// Opens the overview and waits for its topics (grouped on a thread).
fn overview_at(w: u16, h: u16) -> App {
    let mut app = app_at(w, h);
    app.apply(Action::Overview);
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while app.overview().is_some_and(|o| o.0.is_empty()) {
        assert!(std::time::Instant::now() < deadline, "never grouped");
        std::thread::sleep(Duration::from_millis(5));
        app.update(Message::Tick);
    }
    app
}

#[test]
fn the_overview_60x20_and_200x60() {
    for (w, h, name) in [(60, 20, "overview_60x20"), (200, 60, "overview_200x60")] {
        let app = overview_at(w, h);
        let (topics, _, grouped) = app.overview().unwrap();
        let t = draw(&app);
        let text = format!("{}", t.backend());
        assert!(
            text.contains(&format!("{} topics of {grouped} papers", topics.len())),
            "{text}"
        );
        // A bar a topic, the largest the longest, each with its count.
        let bars: Vec<usize> = text
            .lines()
            .filter(|l| l.contains('█'))
            .map(|l| l.matches('█').count())
            .collect();
        assert!(bars.len() >= topics.len(), "{text}");
        assert!(
            text.contains(&format!(" {} │", topics[0].papers.len())),
            "{text}"
        );
        insta::assert_snapshot!(name, t.backend());
    }
}
