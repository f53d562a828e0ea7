//! `paperboat fetch` against a local server: a thread on 127.0.0.1 that
//! replays scripted answers (paged OAI-PMH responses with
//! resumptionTokens, OAI errors, paged OpenReview notes, a 503 with
//! Retry-After, a 429 with resetTime, a connection dropped mid-body, a
//! server that never answers, malformed pages) and notes each request.
//! It serves its script and stops, and never runs past 30 s. No test
//! touches the network.

use crate::common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime};

// ---------------------------------------------------------------------------
// The server.

/// One scripted answer.
enum Reply {
    /// Status, extra headers, body.
    Full(u16, Vec<(&'static str, String)>, String),
    /// OpenReview's 429, its `resetTime` `secs` after it is sent.
    RateLimited(u64),
    /// Claims a body of `n` bytes, sends `part` of it and hangs up.
    Drop(usize, String),
    /// Reads the request and never answers.
    Silent,
}

fn ok(body: String) -> Reply {
    Reply::Full(200, Vec::new(), body)
}

/// A request the server saw: when, its target, its User-Agent.
#[derive(Clone, Debug)]
struct Seen {
    at: Instant,
    target: String,
    agent: String,
}

struct Server {
    url: String,
    seen: Arc<Mutex<Vec<Seen>>>,
    done: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Server {
    fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }

    fn targets(&self) -> Vec<String> {
        self.seen().into_iter().map(|s| s.target).collect()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Reads a request's head: (target, User-Agent).
fn read_request(stream: &mut TcpStream) -> Option<(String, String)> {
    stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    let mut reader = BufReader::new(stream.try_clone().ok()?);
    let mut first = String::new();
    reader.read_line(&mut first).ok()?;
    let target = first.split_whitespace().nth(1)?.to_string();
    let mut agent = String::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 || line.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.eq_ignore_ascii_case("user-agent")
        {
            agent = value.trim().to_string();
        }
    }
    Some((target, agent))
}

fn answer(stream: &mut TcpStream, reply: Reply) {
    let head = |status: u16, headers: &[(&str, String)], len: usize| {
        let mut h =
            format!("HTTP/1.1 {status} X\r\nContent-Length: {len}\r\nConnection: close\r\n");
        for (k, v) in headers {
            h.push_str(&format!("{k}: {v}\r\n"));
        }
        h + "\r\n"
    };
    let _ = match reply {
        Reply::Full(status, headers, body) => {
            stream.write_all((head(status, &headers, body.len()) + &body).as_bytes())
        }
        Reply::RateLimited(secs) => {
            let reset = SystemTime::now() + Duration::from_secs(secs);
            let body = format!(
                r#"{{"name":"RateLimitError","message":"Too many requests","status":429,"details":{{"limit":36,"remaining":0,"resetTime":"{}","used":37}}}}"#,
                humantime::format_rfc3339_millis(reset)
            );
            let h = head(
                429,
                &[("Content-Type", "application/json".to_string())],
                body.len(),
            );
            stream.write_all((h + &body).as_bytes())
        }
        Reply::Drop(claimed, part) => {
            stream.write_all((head(200, &[], claimed) + &part).as_bytes())
        }
        Reply::Silent => {
            // Held open, unanswered, until the client gives up.
            let mut sink = [0u8; 64];
            let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
            let _ = stream.read(&mut sink);
            Ok(())
        }
    };
    let _ = stream.flush();
    let _ = stream.shutdown(std::net::Shutdown::Both);
}

/// Serves `replies` in order, one a connection, then stops.
fn serve(replies: Vec<Reply>) -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    listener.set_nonblocking(true).unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let done = Arc::new(AtomicBool::new(false));
    let over = done.clone();
    let thread = std::thread::spawn(move || {
        let deadline = Instant::now() + Duration::from_secs(30);
        let mut replies = replies.into_iter();
        let mut next = replies.next();
        while next.is_some() && Instant::now() < deadline && !over.load(Ordering::Relaxed) {
            match listener.accept() {
                Ok((mut stream, _)) => {
                    let _ = stream.set_nonblocking(false);
                    let Some((target, agent)) = read_request(&mut stream) else {
                        continue;
                    };
                    log.lock().unwrap().push(Seen {
                        at: Instant::now(),
                        target,
                        agent,
                    });
                    answer(&mut stream, next.take().unwrap());
                    next = replies.next();
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    std::thread::sleep(Duration::from_millis(2));
                }
                Err(_) => break,
            }
        }
    });
    Server {
        url,
        seen,
        done,
        thread: Some(thread),
    }
}

// ---------------------------------------------------------------------------
// Pages.

fn record(id: &str, datestamp: &str, categories: &str) -> String {
    format!(
        r#"<record><header><identifier>oai:arXiv.org:{id}</identifier><datestamp>{datestamp}</datestamp><setSpec>cs</setSpec></header>
<metadata><arXiv xmlns="http://arxiv.org/OAI/arXiv/"><id>{id}</id><created>2026-11-30</created>
<authors><author><keyname>Noether</keyname><forenames>Emmy</forenames></author><author><keyname>Paper {id}</keyname></author></authors>
<title>A paper numbered {id} about
  learning &amp; testing</title><categories>{categories}</categories>
<abstract>  The abstract of {id}, which says what it does.
</abstract></arXiv></metadata></record>
"#
    )
}

fn deleted(id: &str, datestamp: &str) -> String {
    format!(
        r#"<record><header status="deleted"><identifier>oai:arXiv.org:{id}</identifier><datestamp>{datestamp}</datestamp></header></record>
"#
    )
}

fn oai_page(records: &[String], token: Option<&str>) -> String {
    let token = match token {
        Some(t) => {
            format!(r#"<resumptionToken cursor="0" completeListSize="9">{t}</resumptionToken>"#)
        }
        None => "<resumptionToken/>".to_string(),
    };
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/">
<responseDate>2026-12-07T00:00:00Z</responseDate><request verb="ListRecords">http://local/oai</request>
<ListRecords>
{}{token}
</ListRecords>
</OAI-PMH>
"#,
        records.concat()
    )
}

fn oai_error(code: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2026-12-07T00:00:00Z</responseDate>
<request>http://local/oai</request><error code="{code}">The server says {code}.</error></OAI-PMH>
"#
    )
}

fn note(id: &str, forum: &str) -> String {
    format!(
        r#"{{"id":"{id}","forum":"{forum}","number":1,"cdate":1767225600000,"content":{{"title":{{"value":"Note {id}"}},"abstract":{{"value":"Abstract of {id}: \"quoted\" and é."}},"authors":{{"value":["Ada Lovelace"]}},"venueid":{{"value":"ICML.cc/2026/Conference"}}}}}}"#
    )
}

fn notes_page(notes: &[String], count: usize) -> String {
    format!(r#"{{"notes":[{}],"count":{count}}}"#, notes.join(","))
}

// ---------------------------------------------------------------------------
// Running the binary.

struct Home {
    _dir: tempfile::TempDir,
    data: PathBuf,
    state: PathBuf,
}

fn home() -> Home {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let state = dir.path().join("state");
    Home {
        data,
        state,
        _dir: dir,
    }
}

impl Home {
    fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(common::bin());
        cmd.args(args)
            .env("PAPERBOAT_DATA_DIR", &self.data)
            .env("PAPERBOAT_STATE_DIR", &self.state)
            .env("PAPERBOAT_CACHE_DIR", self.state.join("cache"))
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        cmd
    }

    fn run(&self, args: &[&str]) -> Output {
        self.command(args).output().unwrap()
    }

    /// `paperboat fetch SOURCE WHAT --endpoint URL …`, quick to retry.
    fn fetch(&self, source: &str, what: &str, url: &str, more: &[&str]) -> Output {
        let endpoint = if source == "arxiv" {
            format!("{url}/oai")
        } else {
            url.to_string()
        };
        let mut args = vec![
            "fetch",
            source,
            what,
            "--endpoint",
            &endpoint,
            "--delay",
            "0.01",
        ];
        if !more.contains(&"--timeout") {
            args.extend(["--timeout", "2"]);
        }
        args.extend_from_slice(more);
        self.run(&args)
    }

    fn list(&self, name: &str) -> PathBuf {
        self.data.join("lists").join(format!("{name}.jsonl"))
    }
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

fn field(line: &str, key: &str) -> serde_json::Value {
    serde_json::from_str::<serde_json::Value>(line).unwrap()[key].clone()
}

// ---------------------------------------------------------------------------
// arXiv.

#[test]
fn a_category_is_harvested_from_its_set_through_every_token() {
    let server = serve(vec![
        ok(oai_page(
            &[
                record("2612.00001", "2026-12-01", "cs.LG stat.ML"),
                record("2612.00002", "2026-12-01", "cs.AI"),
                deleted("2612.00003", "2026-12-01"),
            ],
            Some("tok|1 2"),
        )),
        ok(oai_page(
            &[
                record("2612.00004", "2026-12-02", "cs.CV cs.LG"),
                record("cs/9901001", "2026-12-03", "cs.lg"),
            ],
            None,
        )),
    ]);
    let h = home();
    let o = h.fetch("arxiv", "cs.LG", &server.url, &[]);
    assert!(o.status.success(), "{}", err(&o));
    let file = h.list("cs-lg");
    // The path is printed at the end; one summary line without a terminal.
    assert_eq!(out(&o).trim(), file.display().to_string());
    let said = err(&o);
    assert_eq!(said.lines().count(), 1, "{said}");
    assert!(
        said.contains("arXiv cs.LG (set cs): 4 papers in 2 pages, 3 new (1 outside the category, 1 passed over"),
        "{said}"
    );
    let targets = server.targets();
    assert_eq!(
        targets,
        [
            "/oai?verb=ListRecords&metadataPrefix=arXiv&set=cs",
            "/oai?verb=ListRecords&resumptionToken=tok%7C1%202"
        ]
    );
    assert!(
        server
            .seen()
            .iter()
            .all(|s| s.agent.starts_with("paperboat/"))
    );
    let l = lines(&file);
    let ids: Vec<_> = l.iter().map(|l| field(l, "id")).collect();
    assert_eq!(ids, ["2612.00001", "2612.00004", "cs/9901001"]);
    assert_eq!(field(&l[0], "update_date"), "2026-12-01");
    assert_eq!(
        field(&l[0], "authors_parsed"),
        serde_json::json!([["Noether", "Emmy", ""], ["Paper 2612.00001", "", ""]])
    );
    // The reader reads it as the arXiv snapshot, by the list's name.
    let o = h.run(&["check", "cs-lg"]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(out(&o).contains("3 papers"), "{}", out(&o));
    let o = h.run(&["list", "cs-lg"]);
    assert!(o.status.success(), "{}", err(&o));
    let listed = out(&o);
    assert_eq!(listed.lines().count(), 3, "{listed}");
    assert!(
        listed.starts_with(
            "arxiv:2612.00001\t--\tA paper numbered 2612.00001 about learning & testing\n"
        ),
        "{listed}"
    );
    let o = h.run(&["show", "arxiv:2612.00004", "cs-lg"]);
    assert!(out(&o).contains("Emmy Noether"), "{}", out(&o));
}

#[test]
fn fetching_again_adds_only_what_is_new_and_marks_stay() {
    let first = serve(vec![ok(oai_page(
        &[
            record("2612.00001", "2026-12-01", "cs.LG"),
            record("2612.00002", "2026-12-02", "cs.LG"),
        ],
        None,
    ))]);
    let h = home();
    let o = h.fetch("arxiv", "cs", &first.url, &[]);
    assert!(o.status.success(), "{}", err(&o));
    let file = h.list("cs");
    let before = std::fs::read_to_string(&file).unwrap();
    let o = h.run(&["mark", "--bookmark", "arxiv:2612.00002", "cs"]);
    assert!(o.status.success(), "{}", err(&o));
    // The next day: the server sends the last day again, and a new paper.
    let second = serve(vec![ok(oai_page(
        &[
            record("2612.00002", "2026-12-02", "cs.LG"),
            record("2612.00003", "2026-12-03", "cs.LG"),
        ],
        None,
    ))]);
    let o = h.fetch("arxiv", "cs", &second.url, &[]);
    assert!(o.status.success(), "{}", err(&o));
    assert_eq!(
        second.targets(),
        ["/oai?verb=ListRecords&metadataPrefix=arXiv&set=cs&from=2026-12-02"]
    );
    assert!(
        err(&o).contains("since 2026-12-02: 2 papers in 1 page, 1 new (1 held already)"),
        "{}",
        err(&o)
    );
    let after = std::fs::read_to_string(&file).unwrap();
    assert!(
        after.starts_with(&before),
        "what was there is never rewritten"
    );
    assert_eq!(after.lines().count(), 3);
    let o = h.run(&["list", "cs"]);
    assert_eq!(
        out(&o)
            .lines()
            .map(|l| l.split('\t').take(2).collect::<Vec<_>>().join(" "))
            .collect::<Vec<_>>(),
        [
            "arxiv:2612.00001 --",
            "arxiv:2612.00002 b-",
            "arxiv:2612.00003 --"
        ]
    );
    // An explicit --until is sent; -o writes where asked.
    let third = serve(vec![ok(oai_error("noRecordsMatch"))]);
    let elsewhere = h.data.join("elsewhere.jsonl");
    let o = h.fetch(
        "arxiv",
        "cs",
        &third.url,
        &[
            "--from",
            "2026-12-05",
            "--until",
            "2026-12-06",
            "-o",
            elsewhere.to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{}", err(&o));
    assert_eq!(
        third.targets(),
        ["/oai?verb=ListRecords&metadataPrefix=arXiv&set=cs&from=2026-12-05&until=2026-12-06"]
    );
    // noRecordsMatch is no error: nothing new, no file made.
    assert!(
        err(&o).contains("0 papers in 1 page, 0 new; nothing written"),
        "{}",
        err(&o)
    );
    assert!(!elsewhere.exists());
    assert_eq!(out(&o), "");
}

#[test]
fn oai_errors_and_malformed_pages_fail_naming_the_endpoint_and_page() {
    let h = home();
    let file = h.list("math");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    let held = "{\"id\":\"2601.00001\",\"title\":\"Kept\",\"abstract\":\"A.\",\"update_date\":\"2026-01-01\"}\n";
    std::fs::write(&file, held).unwrap();
    let server = serve(vec![ok(oai_error("badArgument"))]);
    let o = h.fetch("arxiv", "math", &server.url, &[]);
    assert_eq!(o.status.code(), Some(2));
    let said = err(&o);
    assert!(said.contains(&format!("{}/oai, page 1: the server answered with OAI-PMH error badArgument: The server says badArgument.", server.url)), "{said}");
    assert!(said.contains("holds 1 papers, every one whole"), "{said}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), held);
    // A page of records, then one cut short.
    let page = oai_page(&[record("2612.00009", "2026-12-02", "math.AG")], Some("t2"));
    let server = serve(vec![
        ok(page),
        ok(oai_page(&[record("2612.00010", "2026-12-03", "math.AG")], None)[..300].to_string()),
    ]);
    let o = h.fetch("arxiv", "math", &server.url, &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains(", page 2: "), "{}", err(&o));
    assert_eq!(lines(&file).len(), 2, "page 1 is kept, whole");
    // Not XML at all.
    let server = serve(vec![
        ok("<html><body>Maintenance</body></html>".to_string()),
    ]);
    let o = h.fetch("arxiv", "math", &server.url, &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("page 1: the answer is not an OAI-PMH response"),
        "{}",
        err(&o)
    );
    assert_eq!(lines(&file).len(), 2);
}

#[test]
fn busy_servers_are_waited_for_as_they_ask() {
    let page = oai_page(&[record("2612.00001", "2026-12-01", "cs.LG")], None);
    let server = serve(vec![
        Reply::Full(
            503,
            vec![("Retry-After", "1".to_string())],
            "busy".to_string(),
        ),
        Reply::Full(502, Vec::new(), "bad gateway".to_string()),
        Reply::Drop(5000, page[..200].to_string()),
        ok(page),
    ]);
    let h = home();
    let o = h.fetch("arxiv", "cs", &server.url, &[]);
    assert!(o.status.success(), "{}", err(&o));
    let seen = server.seen();
    assert_eq!(seen.len(), 4);
    // Retry-After: 1 is a second between the 503 and the next request.
    assert!(
        seen[1].at - seen[0].at >= Duration::from_millis(950),
        "{seen:?}"
    );
    assert_eq!(lines(&h.list("cs")).len(), 1);
}

#[test]
fn a_server_that_never_answers_or_keeps_dropping_is_given_up() {
    let h = home();
    let server = serve(vec![
        Reply::Silent,
        Reply::Silent,
        Reply::Silent,
        Reply::Silent,
        Reply::Silent,
    ]);
    let o = h.fetch("arxiv", "cs", &server.url, &["--timeout", "0.3"]);
    assert_eq!(o.status.code(), Some(2));
    let said = err(&o);
    assert!(said.contains("page 1: no answer in time"), "{said}");
    assert!(
        said.contains("(tried 5 times); nothing was written"),
        "{said}"
    );
    assert_eq!(server.seen().len(), 5);
    assert!(!h.list("cs").exists());
    let page = oai_page(&[record("2612.00001", "2026-12-01", "cs.LG")], Some("next"));
    let cut = |p: &str| Reply::Drop(p.len(), p[..p.len() / 2].to_string());
    let server = serve(vec![
        ok(page.clone()),
        cut(&page),
        cut(&page),
        cut(&page),
        cut(&page),
        cut(&page),
    ]);
    let o = h.fetch("arxiv", "cs", &server.url, &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("page 2: the connection dropped before the page was whole"),
        "{}",
        err(&o)
    );
    assert_eq!(lines(&h.list("cs")).len(), 1);
    // Nothing listens: refused at once, retried, given up.
    let url = {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}", l.local_addr().unwrap())
    };
    let o = h.fetch("arxiv", "cs", &url, &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains(&format!("{url}/oai, page 1: ")),
        "{}",
        err(&o)
    );
}

#[test]
fn an_interrupted_fetch_keeps_every_page_and_goes_on_next_time() {
    let server = serve(vec![
        ok(oai_page(
            &[
                record("2612.00001", "2026-12-01", "cs.LG"),
                record("2612.00002", "2026-12-02", "cs.LG"),
            ],
            Some("page2"),
        )),
        Reply::Silent,
    ]);
    let h = home();
    let endpoint = format!("{}/oai", server.url);
    let child = h
        .command(&[
            "fetch",
            "arxiv",
            "cs",
            "--endpoint",
            &endpoint,
            "--delay",
            "0.01",
        ])
        .spawn()
        .unwrap();
    let waited = Instant::now();
    while server.seen().len() < 2 && waited.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(server.seen().len(), 2, "page 2 was asked for");
    // SAFETY: kill has no memory effects; the child is ours and running.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", err(&o));
    assert!(err(&o).contains("interrupted: "), "{}", err(&o));
    assert!(
        err(&o).contains("(run the same command again to go on)"),
        "{}",
        err(&o)
    );
    let file = h.list("cs");
    assert_eq!(lines(&file).len(), 2);
    // A torn line, as a kill in the middle of a write leaves.
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&file)
        .unwrap();
    f.write_all(b"{\"id\":\"2612.0000").unwrap();
    drop(f);
    let server = serve(vec![ok(oai_page(
        &[
            record("2612.00002", "2026-12-02", "cs.LG"),
            record("2612.00003", "2026-12-03", "cs.LG"),
        ],
        None,
    ))]);
    let o = h.fetch("arxiv", "cs", &server.url, &[]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(err(&o).contains("torn last line"), "{}", err(&o));
    assert_eq!(
        server.targets()[0],
        "/oai?verb=ListRecords&metadataPrefix=arXiv&set=cs&from=2026-12-02"
    );
    let ids: Vec<_> = lines(&file).iter().map(|l| field(l, "id")).collect();
    assert_eq!(ids, ["2612.00001", "2612.00002", "2612.00003"]);
}

#[test]
fn bad_arguments_are_refused_before_any_request() {
    let h = home();
    // Should an argument get through, the request goes to a closed port
    // on this machine, never to the service.
    let nowhere = ["--endpoint", "http://127.0.0.1:9"];
    for (args, why) in [
        (
            &["fetch", "arxiv", "biology"][..],
            "neither an arXiv set nor a category",
        ),
        (
            &["fetch", "arxiv", "cs", "--from", "2026-13-01"],
            "YYYY-MM-DD",
        ),
        (
            &["fetch", "arxiv", "cs", "--endpoint", "ftp://x"],
            "not an http:// or https:// URL",
        ),
        (&["fetch", "openreview", " "], "the venue id is empty"),
    ] {
        let mut args = args.to_vec();
        if !args.contains(&"--endpoint") {
            args.extend(nowhere);
        }
        let o = h.run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(err(&o).contains(why), "{args:?}: {}", err(&o));
    }
    // The defaults are named in the help (never asked for here).
    use paperboat::loading::fetch::{ARXIV_ENDPOINT, OPENREVIEW_ENDPOINT};
    for (source, endpoint) in [
        ("arxiv", ARXIV_ENDPOINT),
        ("openreview", OPENREVIEW_ENDPOINT),
    ] {
        let o = h.run(&["fetch", source, "--help"]);
        let shown = format!("[default: {endpoint}]");
        assert!(out(&o).contains(&shown), "{}", out(&o));
    }
}

// ---------------------------------------------------------------------------
// OpenReview.

#[test]
fn a_venue_is_fetched_page_by_page_and_again_only_its_new_papers() {
    let mut first: Vec<String> = (0..1000)
        .map(|i| note(&format!("p{i:09}"), &format!("p{i:09}")))
        .collect();
    // A review in the same answer is no paper.
    first[10] = note("r000000001", "p000000001");
    let second: Vec<String> = (1000..1500)
        .map(|i| note(&format!("p{i:09}"), &format!("p{i:09}")))
        .collect();
    let server = serve(vec![
        ok(notes_page(&first, 1500)),
        Reply::RateLimited(1),
        ok(notes_page(&second, 1500)),
    ]);
    let h = home();
    let o = h.fetch("openreview", "ICML.cc/2026/Conference", &server.url, &[]);
    assert!(o.status.success(), "{}", err(&o));
    let seen = server.seen();
    let targets: Vec<_> = seen.iter().map(|s| s.target.as_str()).collect();
    assert_eq!(
        targets,
        [
            "/notes?content.venueid=ICML.cc%2F2026%2FConference&offset=0&limit=1000",
            "/notes?content.venueid=ICML.cc%2F2026%2FConference&offset=1000&limit=1000",
            "/notes?content.venueid=ICML.cc%2F2026%2FConference&offset=1000&limit=1000",
        ]
    );
    // The 429 is waited out until its resetTime.
    assert!(
        seen[2].at - seen[1].at >= Duration::from_millis(950),
        "{seen:?}"
    );
    let file = h.list("icml2026");
    let l = lines(&file);
    assert_eq!(l.len(), 1499);
    // Each note exactly as received.
    assert_eq!(l[0], first[0]);
    assert_eq!(l[1499 - 1], second[499]);
    assert!(!l.iter().any(|l| l.contains("r000000001")));
    assert!(
        err(&o).contains("1499 papers in 2 pages, 1499 new (1 passed over"),
        "{}",
        err(&o)
    );
    // The reader reads them as OpenReview notes, by the list's name.
    let o = h.run(&["check", "icml2026"]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(out(&o).contains("1499 papers"), "{}", out(&o));
    let o = h.run(&["show", "openreview:p000000002", "icml2026"]);
    assert!(
        out(&o).contains("Abstract of p000000002: \"quoted\" and é."),
        "{}",
        out(&o)
    );
    // Again: only the forum it lacks.
    let server = serve(vec![ok(notes_page(
        &[first[0].clone(), note("p000009999", "p000009999")],
        2,
    ))]);
    let before = std::fs::read_to_string(&file).unwrap();
    let o = h.fetch("openreview", "ICML.cc/2026/Conference", &server.url, &[]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(
        err(&o).contains("2 papers in 1 page, 1 new (1 held already)"),
        "{}",
        err(&o)
    );
    let after = std::fs::read_to_string(&file).unwrap();
    assert_eq!(after, before + &note("p000009999", "p000009999") + "\n");
}

#[test]
fn malformed_openreview_answers_fail_and_keep_the_file() {
    let h = home();
    let out_file = h.data.join("venue.jsonl");
    let server = serve(vec![
        ok(notes_page(&[note("a", "a")], 2)),
        ok("{\"notes\": [{\"id\": \"b\", ".to_string()),
    ]);
    let o = h.fetch(
        "openreview",
        "X/2026",
        &server.url,
        &["-o", out_file.to_str().unwrap()],
    );
    assert_eq!(o.status.code(), Some(2));
    let said = err(&o);
    assert!(
        said.contains(&format!(
            "{}, page 2: the answer is not a page of notes",
            server.url
        )),
        "{said}"
    );
    assert!(said.contains("holds 1 papers"), "{said}");
    assert_eq!(lines(&out_file), [note("a", "a")]);
    // A 404 (a wrong endpoint) is not retried.
    let server = serve(vec![Reply::Full(
        404,
        Vec::new(),
        "Cannot GET /notes".to_string(),
    )]);
    let o = h.fetch(
        "openreview",
        "X/2026",
        &server.url,
        &["-o", out_file.to_str().unwrap()],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("page 1: the server answered 404 Not Found: Cannot GET /notes;"),
        "{}",
        err(&o)
    );
    assert_eq!(server.seen().len(), 1);
}

// ---------------------------------------------------------------------------
// Names of fetched lists.

#[test]
fn fetched_lists_are_opened_by_name_and_files_still_come_first() {
    let h = home();
    let lists = h.data.join("lists");
    std::fs::create_dir_all(&lists).unwrap();
    std::fs::write(
        lists.join("mine.jsonl"),
        "{\"id\":\"2601.00001\",\"title\":\"From the list\",\"abstract\":\"A.\"}\n{\"id\":\"2601.00002\",\"title\":\"Second\",\"abstract\":\"B.\"}\n",
    )
    .unwrap();
    let o = h.run(&["search", "list", "mine"]);
    assert!(o.status.success(), "{}", err(&o));
    assert_eq!(out(&o), "arxiv:2601.00001\tFrom the list\n");
    let o = h.run(&["list", "mine.jsonl"]);
    assert_eq!(out(&o).lines().count(), 2);
    let o = h.run(&["mark", "--read", "arxiv:2601.00002", "mine"]);
    assert!(o.status.success(), "{}", err(&o));
    let o = h.run(&["list", "--read", "mine"]);
    assert_eq!(out(&o), "arxiv:2601.00002\t-r\tSecond\n");
    // A file of that name in the working directory comes first.
    let cwd = tempfile::tempdir().unwrap();
    std::fs::write(cwd.path().join("mine"), "Only here\n").unwrap();
    let o = h
        .command(&["list", "mine"])
        .current_dir(cwd.path())
        .output()
        .unwrap();
    assert!(out(&o).contains("Only here"), "{}", out(&o));
    // A name that is no list is a missing file, as before.
    let o = h.run(&["list", "nosuch"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("nosuch: No such file"), "{}", err(&o));
}

#[test]
fn on_a_terminal_the_line_says_how_it_goes_and_why_it_waits() {
    let page = |id: &str, token| oai_page(&[record(id, "2026-12-01", "cs.LG")], token);
    let server = serve(vec![
        ok(page("2612.00001", Some("t1"))),
        Reply::Full(
            503,
            vec![("Retry-After", "1".to_string())],
            "busy".to_string(),
        ),
        ok(page("2612.00002", None)),
    ]);
    let h = home();
    let endpoint = format!("{}/oai", server.url);
    let data = h.data.to_str().unwrap().to_string();
    let mut pty = common::Pty::spawn(
        &[
            "fetch",
            "arxiv",
            "cs.LG",
            "--endpoint",
            &endpoint,
            "--delay",
            "0.01",
        ],
        60,
        20,
        &h.state,
        &[("PAPERBOAT_DATA_DIR", &data)],
    );
    // 60 columns: the counts and the reason, without the source's name
    // and the list's size.
    pty.wait_text("page 2 · 1 received · 1 new · arXiv asks to wait 1 s");
    let status = pty.wait_exit();
    assert!(status.success());
    let screen = pty.screen();
    assert!(
        screen.contains("paperboat: arXiv cs.LG (set cs): 2 papers in 2 pages, 2 new"),
        "{screen}"
    );
    assert!(
        !screen.contains("asks to wait"),
        "the line is drawn over: {screen}"
    );
}
