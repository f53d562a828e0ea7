//! Asking a server for a page, politely: one request at a time, a pause
//! between requests (never under 3 s on arXiv's own servers, as its terms
//! of use ask), a 503's `Retry-After` and OpenReview's 429 `resetTime`
//! waited out, timeouts on every phase, and other failures (5xx, a
//! dropped connection, a timeout) retried a bounded number of times after
//! a pause that doubles. The client is ureq: blocking, on rustls.
//!
//! Each request runs on a thread of its own while the caller's thread
//! waits for it in short slices, so that a stop (Ctrl-C) ends the fetch
//! at once rather than when a slow server answers.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime};

use super::{FetchError, Options, Progress};

/// The User-Agent: paperboat, its version, and where it comes from.
pub(super) fn user_agent() -> String {
    let version = env!("CARGO_PKG_VERSION");
    match option_env!("CARGO_PKG_REPOSITORY").filter(|r| !r.is_empty()) {
        Some(url) => format!("paperboat/{version} (+{url})"),
        None => format!("paperboat/{version}"),
    }
}

/// The least pause between requests to arXiv's own servers.
const ARXIV_FLOOR: Duration = Duration::from_secs(3);
/// Retries after a failure that may pass (5xx, a timeout, a dropped
/// connection).
const RETRIES: u32 = 4;
/// Waits a server may ask for in a row (503 + Retry-After, 429).
const ASKED_WAITS: u32 = 10;
/// The longest wait a server may ask for: longer, the fetch stops and
/// says when to try again.
const LONGEST_WAIT: Duration = Duration::from_secs(2 * 3600);
/// The largest page read (arXiv's hold a few MB).
const LARGEST_PAGE: u64 = 512 << 20;
/// How often a wait looks at the stop flag.
const SLICE: Duration = Duration::from_millis(50);

/// Why a request gave no page.
enum Failure {
    /// Stopped by a signal.
    Stopped,
    /// The server failed, or could not be reached, after the retries.
    Failed(String),
}

/// What came back from one request.
struct Answer {
    status: u16,
    retry_after: Option<String>,
    body: Result<String, String>,
}

/// A client for one service's server.
pub(super) struct Client {
    agent: ureq::Agent,
    service: &'static str,
    interval: Duration,
    backoff: Duration,
    last_start: Option<Instant>,
    stop: Arc<AtomicBool>,
}

/// True when `endpoint` is one of arXiv's own servers (`*.arxiv.org`).
fn is_arxiv_host(endpoint: &str) -> bool {
    let rest = endpoint.split_once("://").map_or(endpoint, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host = authority.rsplit('@').next().unwrap_or("");
    let host = host.split(':').next().unwrap_or("").to_ascii_lowercase();
    host == "arxiv.org" || host.ends_with(".arxiv.org")
}

impl Client {
    /// A client for `service` at `endpoint`.
    pub(super) fn new(
        service: &'static str,
        endpoint: &str,
        opts: &Options,
    ) -> Result<Client, FetchError> {
        if !(endpoint.starts_with("http://") || endpoint.starts_with("https://")) {
            return Err(FetchError::Usage(format!(
                "the endpoint {endpoint} is not an http:// or https:// URL"
            )));
        }
        let default = if service == "arXiv" {
            Duration::from_secs(3)
        } else {
            Duration::from_secs(1)
        };
        let mut interval = opts.delay.unwrap_or(default);
        if is_arxiv_host(endpoint) {
            interval = interval.max(ARXIV_FLOOR);
        }
        let (connect, answer, body) = match opts.timeout {
            Some(t) => (t, t, t),
            None => (
                Duration::from_secs(30),
                Duration::from_secs(180),
                Duration::from_secs(300),
            ),
        };
        let config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .user_agent(user_agent())
            .max_idle_connections_per_host(1)
            .timeout_resolve(Some(connect))
            .timeout_connect(Some(connect))
            .timeout_send_request(Some(connect))
            .timeout_recv_response(Some(answer))
            .timeout_recv_body(Some(body))
            .build();
        Ok(Client {
            agent: config.into(),
            service,
            interval,
            backoff: interval.max(if opts.delay.is_some() {
                Duration::ZERO
            } else {
                Duration::from_secs(2)
            }),
            last_start: None,
            stop: opts.stop.clone(),
        })
    }

    /// Page `page` of the list at `endpoint`, from `url`: `None` when a
    /// stop came first.
    pub(super) fn page(
        &mut self,
        url: &str,
        endpoint: &str,
        page: usize,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<Option<String>, FetchError> {
        progress(&Progress::Request { page });
        match self.get(url, progress) {
            Ok(text) => Ok(Some(text)),
            Err(Failure::Stopped) => Ok(None),
            Err(Failure::Failed(why)) => Err(FetchError::Http {
                endpoint: endpoint.to_string(),
                page,
                why,
            }),
        }
    }

    /// The page at `url`.
    fn get(&mut self, url: &str, progress: &mut dyn FnMut(&Progress)) -> Result<String, Failure> {
        let mut failures = 0;
        let mut asked = 0;
        loop {
            if let Some(last) = self.last_start {
                self.sleep_until(last + self.interval)?;
            }
            self.last_start = Some(Instant::now());
            let answer = self.request(url)?;
            let wait = match answer.status {
                200..=299 => return answer.body.map_err(|why| self.failed(&why)),
                503 | 429 => {
                    asked += 1;
                    self.asked_wait(&answer)
                        .map_err(Failure::Failed)?
                        .filter(|_| asked <= ASKED_WAITS)
                }
                _ => None,
            };
            if let Some(wait) = wait {
                let seconds = wait.as_secs_f64().ceil() as u64;
                progress(&Progress::Waiting {
                    why: format!("{} asks to wait {seconds} s", self.service),
                    seconds,
                });
                // A server asking for less than the usual pause gets it.
                self.sleep(wait.max(self.interval))?;
                self.last_start = None;
                continue;
            }
            let why = match (&answer.status, &answer.body) {
                (0, Err(why)) => why.clone(),
                (s, body) => status_text(*s, body.as_deref().ok()),
            };
            let transient = answer.status == 0 || answer.status >= 500 || answer.status == 429;
            failures += 1;
            if !transient || failures > RETRIES {
                let tries = if failures > 1 {
                    format!(" (tried {failures} times)")
                } else {
                    String::new()
                };
                return Err(Failure::Failed(format!("{why}{tries}")));
            }
            let pause = self.backoff * 2u32.pow(failures - 1);
            let seconds = pause.as_secs_f64().ceil() as u64;
            progress(&Progress::Waiting {
                why: format!("{why}; trying again in {seconds} s ({failures} of {RETRIES})"),
                seconds,
            });
            self.sleep(pause)?;
            self.last_start = None;
        }
    }

    /// A failure reading a page that came.
    fn failed(&self, why: &str) -> Failure {
        Failure::Failed(why.to_string())
    }

    /// How long the server asks to wait (503 with Retry-After, 429 with
    /// OpenReview's `details.resetTime` or Retry-After); `None` when it
    /// does not say; an error when it asks for longer than we wait.
    fn asked_wait(&self, answer: &Answer) -> Result<Option<Duration>, String> {
        let now = SystemTime::now();
        let reset = answer
            .body
            .as_deref()
            .ok()
            .and_then(reset_time)
            .or_else(|| {
                answer
                    .retry_after
                    .as_deref()
                    .and_then(|r| retry_after(r, now))
            });
        let Some(until) = reset else {
            return Ok(None);
        };
        let wait = until.duration_since(now).unwrap_or(Duration::ZERO);
        if wait > LONGEST_WAIT {
            return Err(format!(
                "{} asks to wait until {} ({} min); try again then",
                self.service,
                humantime::format_rfc3339_seconds(until),
                wait.as_secs() / 60
            ));
        }
        Ok(Some(wait))
    }

    /// One request, on a thread of its own; the caller waits for it.
    fn request(&self, url: &str) -> Result<Answer, Failure> {
        let (tx, rx) = mpsc::channel();
        let agent = self.agent.clone();
        let url = url.to_string();
        std::thread::spawn(move || {
            let _ = tx.send(request(&agent, &url));
        });
        loop {
            if self.stop.load(Ordering::Relaxed) {
                return Err(Failure::Stopped);
            }
            match rx.recv_timeout(SLICE) {
                Ok(answer) => return Ok(answer),
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(Failure::Failed("the request's thread ended".to_string()));
                }
            }
        }
    }

    fn sleep_until(&self, until: Instant) -> Result<(), Failure> {
        self.sleep(until.saturating_duration_since(Instant::now()))
    }

    /// Sleeps `d`, looking at the stop flag every slice.
    fn sleep(&self, d: Duration) -> Result<(), Failure> {
        let end = Instant::now() + d;
        loop {
            if self.stop.load(Ordering::Relaxed) {
                return Err(Failure::Stopped);
            }
            let left = end.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Ok(());
            }
            std::thread::sleep(left.min(SLICE));
        }
    }
}

/// Sends one GET and reads the answer (status 0: no answer).
fn request(agent: &ureq::Agent, url: &str) -> Answer {
    let mut response = match agent.get(url).call() {
        Ok(r) => r,
        Err(e) => {
            return Answer {
                status: 0,
                retry_after: None,
                body: Err(transport_error(&e)),
            };
        }
    };
    let status = response.status().as_u16();
    let retry_after = response
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let limit = if (200..300).contains(&status) {
        LARGEST_PAGE
    } else {
        64 << 10
    };
    let body = response
        .body_mut()
        .with_config()
        .limit(limit)
        .read_to_string()
        .map_err(|e| transport_error(&e));
    // A page cut short is no page, whatever the status said.
    let status = if body.is_err() && (200..300).contains(&status) {
        0
    } else {
        status
    };
    Answer {
        status,
        retry_after,
        body,
    }
}

/// A transport failure in words.
fn transport_error(e: &ureq::Error) -> String {
    match e {
        ureq::Error::Timeout(t) => format!("no answer in time ({t})"),
        ureq::Error::HostNotFound => "the host was not found".to_string(),
        ureq::Error::ConnectionFailed => "the connection failed".to_string(),
        ureq::Error::Io(io) => match io.kind() {
            std::io::ErrorKind::ConnectionRefused => "the connection was refused".to_string(),
            std::io::ErrorKind::UnexpectedEof
            | std::io::ErrorKind::ConnectionReset
            | std::io::ErrorKind::ConnectionAborted => {
                "the connection dropped before the page was whole".to_string()
            }
            _ => format!("{io}"),
        },
        ureq::Error::BodyExceedsLimit(n) => format!("the page is larger than {n} bytes"),
        other => other.to_string(),
    }
}

/// A status that gave no page, in words, with the start of the body the
/// server sent with it.
fn status_text(status: u16, body: Option<&str>) -> String {
    let reason = match status {
        400 => " Bad Request",
        401 => " Unauthorized",
        403 => " Forbidden",
        404 => " Not Found",
        429 => " Too Many Requests",
        500 => " Internal Server Error",
        502 => " Bad Gateway",
        503 => " Service Unavailable",
        504 => " Gateway Timeout",
        _ => "",
    };
    let said: String = body
        .map(|b| b.split_whitespace().collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
        .chars()
        .take(160)
        .collect();
    let said = crate::text::sanitize::line(&said);
    if said.is_empty() {
        format!("the server answered {status}{reason}")
    } else {
        format!("the server answered {status}{reason}: {said}")
    }
}

/// OpenReview's 429 body: `{"name": "RateLimitError", …, "details":
/// {"resetTime": "2026-08-31T08:59:25.212Z", …}}`.
fn reset_time(body: &str) -> Option<SystemTime> {
    #[derive(serde::Deserialize)]
    struct Details {
        #[serde(rename = "resetTime")]
        reset_time: Option<String>,
    }
    #[derive(serde::Deserialize)]
    struct RateLimit {
        details: Option<Details>,
    }
    let limit: RateLimit = serde_json::from_str(body).ok()?;
    let time = limit.details?.reset_time?;
    humantime::parse_rfc3339_weak(time.trim().trim_end_matches('Z')).ok()
}

/// A Retry-After value: seconds, or an HTTP date.
fn retry_after(value: &str, now: SystemTime) -> Option<SystemTime> {
    let value = value.trim();
    match value.parse::<u64>() {
        Ok(seconds) => Some(now + Duration::from_secs(seconds)),
        Err(_) => httpdate::parse_http_date(value).ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arxiv_hosts_are_known_whatever_the_url() {
        for url in [
            "https://oaipmh.arxiv.org/oai",
            "http://export.arxiv.org/oai2",
            "https://ARXIV.org/oai",
            "https://user@export.arxiv.org:443/oai2?verb=Identify",
        ] {
            assert!(is_arxiv_host(url), "{url}");
        }
        for url in [
            "http://127.0.0.1:8080/oai",
            "https://notarxiv.org/oai",
            "https://arxiv.org.example.com/oai",
            "https://example.com/arxiv.org",
        ] {
            assert!(!is_arxiv_host(url), "{url}");
        }
    }

    #[test]
    fn the_floor_holds_on_arxiv_whatever_the_delay_asked() {
        let opts = Options {
            delay: Some(Duration::ZERO),
            ..Options::default()
        };
        let c = Client::new("arXiv", "https://oaipmh.arxiv.org/oai", &opts).unwrap();
        assert_eq!(c.interval, ARXIV_FLOOR);
        let c = Client::new("arXiv", "http://127.0.0.1:9/oai", &opts).unwrap();
        assert_eq!(c.interval, Duration::ZERO);
        let c = Client::new("arXiv", "http://127.0.0.1:9/oai", &Options::default()).unwrap();
        assert_eq!(c.interval, Duration::from_secs(3));
        let c = Client::new(
            "OpenReview",
            "https://api2.openreview.net",
            &Options::default(),
        )
        .unwrap();
        assert_eq!(
            (c.interval, c.backoff),
            (Duration::from_secs(1), Duration::from_secs(2))
        );
        assert!(Client::new("arXiv", "ftp://x", &opts).is_err());
    }

    #[test]
    fn waits_asked_for_in_both_shapes() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000);
        assert_eq!(
            retry_after(" 120 ", now),
            Some(now + Duration::from_secs(120))
        );
        assert_eq!(
            retry_after("Sun, 06 Nov 1994 08:49:37 GMT", now),
            Some(SystemTime::UNIX_EPOCH + Duration::from_secs(784_111_777))
        );
        assert_eq!(retry_after("soon", now), None);
        let body = r#"{"name":"RateLimitError","message":"Too many requests","status":429,"details":{"limit":36,"remaining":0,"resetTime":"2026-08-31T08:59:25.212Z","used":37}}"#;
        let t = reset_time(body).unwrap();
        assert_eq!(
            humantime::format_rfc3339_millis(t).to_string(),
            "2026-08-31T08:59:25.212Z"
        );
        assert_eq!(reset_time(r#"{"name":"RateLimitError"}"#), None);
        assert_eq!(reset_time("<html>busy</html>"), None);
    }

    #[test]
    fn statuses_in_words() {
        assert_eq!(
            status_text(404, Some("")),
            "the server answered 404 Not Found"
        );
        assert_eq!(
            status_text(500, Some("  oops\n\x1b[31m bad ")),
            "the server answered 500 Internal Server Error: oops bad"
        );
        assert!(user_agent().starts_with(&format!("paperboat/{}", env!("CARGO_PKG_VERSION"))));
    }
}
