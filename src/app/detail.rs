//! The selected paper laid out for the abstract pane: its title, its
//! marks, who wrote it and where it comes from, then the abstract rendered
//! from its markup and wrapped to the pane with the query's words picked
//! out, then its links, numbered. Text in, lines out: each piece of a line
//! says what it is and how it is marked up, and the ui gives that a style.
//! The app scrolls over these lines and jumps between their matches;
//! `paperboat show` prints the same layout.

use std::ops::Range;

use super::App;
use crate::corpus::{Corpus, Paper};
use crate::search::Query;
use crate::text::markup::{self, Rich};
use crate::text::{links, wrap};
use crate::vocabulary::Marks;

/// What a piece of text is, which decides its style.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// Ordinary text: the byline, the abstract.
    Plain,
    /// The title (bold).
    Title,
    /// The bookmark and read marks.
    Marks,
    /// Secondary text: where the paper is from, labels.
    Dim,
    /// A link.
    Link,
    /// The label of the chosen link.
    Chosen,
}

/// A run of text in one look.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    /// The text.
    pub text: String,
    /// What it is.
    pub tone: Tone,
    /// Its markup (bold, italic, math, code, link).
    pub emphasis: markup::Emphasis,
    /// Whether a word of the query is here.
    pub matched: bool,
}

impl Piece {
    /// Text in a tone, with no markup.
    pub(super) fn new(text: impl Into<String>, tone: Tone) -> Piece {
        Piece {
            text: text.into(),
            tone,
            emphasis: markup::Emphasis::default(),
            matched: false,
        }
    }
}

/// One line of the pane: its pieces, left to right.
pub type Line = Vec<Piece>;

/// `rich` wrapped to `width`, in `tone` and marked up as it says, with
/// `highlights` (byte ranges of `rich.text`, sorted, not overlapping, as
/// [`Query::occurrences`] gives them) picked out. Also returns the lines
/// (indices into the result) on which a highlight starts.
///
/// Lines, style runs and highlights all go left to right, so each is
/// walked once with a cursor: the work is linear in the text, however many
/// runs and highlights it has.
pub fn rich_lines(
    rich: &Rich,
    width: usize,
    tone: Tone,
    highlights: &[Range<usize>],
) -> (Vec<Line>, Vec<usize>) {
    let mut out = Vec::new();
    let mut hits = Vec::new();
    let spans = &rich.spans;
    // First run, and first highlight, that does not end before the line.
    let (mut sp, mut hp) = (0, 0);
    // First highlight that does not start before the line.
    let mut starts = 0;
    let mut cuts = Vec::new();
    for r in wrap::wrap(&rich.text, width) {
        while starts < highlights.len() && highlights[starts].start < r.start {
            starts += 1;
        }
        if highlights
            .get(starts)
            .is_some_and(|h| h.start < r.end.max(r.start + 1))
        {
            hits.push(out.len());
        }
        while sp < spans.len() && spans[sp].end < r.start {
            sp += 1;
        }
        while hp < highlights.len() && highlights[hp].end < r.start {
            hp += 1;
        }
        cuts.clear();
        cuts.extend([r.start, r.end]);
        for s in spans[sp..].iter().take_while(|s| s.start <= r.end) {
            cuts.extend([s.start, s.end]);
        }
        for h in highlights[hp..].iter().take_while(|h| h.start <= r.end) {
            cuts.extend([h.start, h.end]);
        }
        cuts.retain(|&c| c >= r.start && c <= r.end && rich.text.is_char_boundary(c));
        cuts.sort_unstable();
        cuts.dedup();
        let (mut s, mut h) = (sp, hp);
        let pieces: Line = cuts
            .windows(2)
            .map(|w| {
                let (a, b) = (w[0], w[1]);
                while s < spans.len() && spans[s].end <= a {
                    s += 1;
                }
                while h < highlights.len() && highlights[h].end <= a {
                    h += 1;
                }
                Piece {
                    text: rich.text[a..b].to_string(),
                    tone,
                    emphasis: spans
                        .get(s)
                        .filter(|x| x.start <= a)
                        .map_or(markup::Emphasis::NONE, |x| x.marks),
                    matched: highlights.get(h).is_some_and(|x| x.start <= a),
                }
            })
            .collect();
        out.push(pieces);
    }
    (out, hits)
}

/// What the abstract pane (and `paperboat show`) shows of one paper.
pub struct PaperText<'a> {
    /// The corpus holding it.
    pub corpus: &'a Corpus,
    /// Its index.
    pub idx: usize,
    /// Its marks.
    pub marks: Marks,
    /// The query whose words are picked out in the abstract.
    pub query: Option<&'a Query>,
    /// The link chosen with a digit key (0-based).
    pub chosen_link: Option<usize>,
    /// Its tags.
    pub tags: &'a [&'a str],
    /// Its note (markdown), shown under the abstract.
    pub note: Option<&'a str>,
    /// Why the "for you" order puts it where it is, under the abstract.
    pub reason: Option<&'a str>,
    /// The order names are shown in.
    pub names: crate::corpus::NameOrder,
}

/// A paper laid out at a width.
pub struct Page {
    /// The lines.
    pub lines: Vec<Line>,
    /// Lines on which a query match starts, for `n`/`N`.
    pub match_lines: Vec<usize>,
    /// The paper's links, numbered from 1 on screen.
    pub links: Vec<String>,
}

/// At most this many author names are listed before `+N more`.
const MAX_AUTHORS: usize = 8;
/// At most this many keywords (or other values of a field) are listed
/// above the abstract, and no more than two lines hold, before `+N
/// more`: a library's MeSH headings would push the abstract off a small
/// screen (`search --json` lists all).
const MAX_VALUES: usize = 6;

/// Lays out a paper: title, marks, where it is from, who wrote it, the
/// abstract, the links.
pub fn lay_out(v: &PaperText, width: usize) -> Page {
    let paper: &Paper = &v.corpus.papers[v.idx];
    let plain = |text: String| Rich {
        text,
        ..Rich::default()
    };
    let (mut out, _) = rich_lines(&markup::render(&paper.title), width, Tone::Title, &[]);
    let mut flags = Vec::new();
    if v.marks.bookmarked {
        flags.push("★ bookmarked");
    }
    if v.marks.read {
        flags.push("✓ read");
    }
    if !flags.is_empty() {
        out.push(vec![Piece::new(flags.join("  "), Tone::Marks)]);
    }
    if !v.tags.is_empty() {
        let tags = crate::text::sanitize::line(&format!("# {}", v.tags.join(" · ")));
        out.extend(rich_lines(&plain(tags), width, Tone::Marks, &[]).0);
    }
    let mut byline = Vec::new();
    if !paper.authors.is_empty() {
        let shown = paper.authors.shown(v.names);
        let sep = match v.names {
            crate::corpus::NameOrder::GivenFirst => ", ",
            // Names holding a comma are told apart by semicolons.
            crate::corpus::NameOrder::FamilyFirst => "; ",
        };
        let mut names = shown[..shown.len().min(MAX_AUTHORS)].join(sep);
        if paper.authors.len() > MAX_AUTHORS {
            names.push_str(&format!(" +{} more", paper.authors.len() - MAX_AUTHORS));
        }
        byline.push(names);
    }
    if let Some(y) = paper.year {
        byline.push(y.to_string());
    }
    if let Some(venue) = &paper.venue {
        byline.push(venue.clone());
    }
    if !byline.is_empty() {
        out.extend(rich_lines(&plain(byline.join(" · ")), width, Tone::Plain, &[]).0);
    }
    for (label, values) in paper.more().labelled() {
        // As many values as fit two lines (at least one), at most
        // MAX_VALUES, then how many more there are.
        let line = |n: usize| {
            let mut line = format!("{label}: {}", values[..n].join(" · "));
            if n < values.len() {
                line.push_str(&format!(" +{} more", values.len() - n));
            }
            line
        };
        // Far longer than two lines (a hostile keyword of a megabyte)
        // cannot fit: not laid out to be told so.
        let fits = |n: usize| {
            let bytes: usize = values[..n].iter().map(|v| v.len()).sum();
            bytes <= 64 * width.max(1)
                && rich_lines(&plain(line(n)), width, Tone::Dim, &[]).0.len() <= 2
        };
        let n = (1..=values.len().min(MAX_VALUES))
            .rev()
            .find(|&n| n == 1 || fits(n))
            .unwrap_or(0);
        let line = line(n);
        out.extend(rich_lines(&plain(line), width, Tone::Dim, &[]).0);
    }
    let mut meta = vec![paper.source.to_string()];
    meta.extend(paper.also_in.iter().map(|s| s.to_string()));
    meta.push(v.corpus.short_id(v.idx).to_string());
    out.extend(rich_lines(&plain(meta.join(" · ")), width, Tone::Dim, &[]).0);
    out.push(Line::default());
    let rich = markup::render(&paper.abstract_text.text());
    let mut match_lines = Vec::new();
    if paper.abstract_text.is_empty() {
        out.push(vec![Piece::new("(no abstract)", Tone::Dim)]);
    } else {
        let hl = v
            .query
            .map(|q| q.occurrences(&rich.text))
            .unwrap_or_default();
        let (lines, hits) = rich_lines(&rich, width, Tone::Plain, &hl);
        let first = out.len();
        match_lines.extend(hits.into_iter().map(|h| h + first));
        out.extend(lines);
    }
    if let Some(reason) = v.reason {
        let line = crate::text::sanitize::line(&format!("For you: {reason}"));
        out.push(Line::default());
        out.extend(rich_lines(&plain(line), width, Tone::Dim, &[]).0);
    }
    if let Some(note) = v.note {
        out.push(Line::default());
        out.push(vec![Piece::new("Note", Tone::Dim)]);
        let note = crate::text::sanitize::block(note);
        out.extend(rich_lines(&markup::render(&note), width, Tone::Plain, &[]).0);
    }
    let links = links::collect(&paper.links(), &rich);
    if !links.is_empty() {
        out.push(Line::default());
        out.push(vec![Piece::new("Links", Tone::Dim)]);
        for (k, url) in links.iter().enumerate() {
            let chosen = v.chosen_link == Some(k);
            let mark = if chosen { "▸" } else { " " };
            let label = format!("{mark}{} ", k + 1);
            let indent = label.chars().count();
            let label_tone = if chosen { Tone::Chosen } else { Tone::Dim };
            // Long URLs wrap (split where they must) rather than being cut.
            let (lines, _) = rich_lines(
                &plain(url.clone()),
                width.saturating_sub(indent).max(8),
                Tone::Link,
                &[],
            );
            for (n, line) in lines.into_iter().enumerate() {
                let head = if n == 0 {
                    label.clone()
                } else {
                    " ".repeat(indent)
                };
                let mut pieces = vec![Piece::new(head, label_tone)];
                pieces.extend(line);
                out.push(pieces);
            }
        }
    }
    Page {
        lines: out,
        match_lines,
        links,
    }
}

impl App {
    /// Paper `idx` laid out for the abstract pane, `width` columns wide.
    pub fn page(&self, idx: usize, width: usize) -> Page {
        let id = self.corpus.papers[idx].id.as_str();
        let tags = self.store.tags(id);
        let reason = self.reason(idx);
        lay_out(
            &PaperText {
                corpus: &self.corpus,
                idx,
                marks: self.marks(idx),
                // A related list is not the query's: nothing to pick out.
                query: self.related.is_empty().then(|| self.search.parsed()),
                chosen_link: self.chosen_link,
                tags: &tags,
                note: self.store.note(id),
                reason: reason.as_deref(),
                names: self.names,
            },
            width,
        )
    }

    /// The selected paper laid out for the abstract pane.
    pub(super) fn rendered(&self) -> Option<Page> {
        let width = self.layout().detail_width();
        self.selected_paper().map(|i| self.page(i, width))
    }

    /// Lines the selected paper's text takes in the abstract pane: what it
    /// scrolls over.
    pub(super) fn detail_lines(&self) -> usize {
        self.rendered().map_or(0, |p| p.lines.len())
    }

    /// Scrolls to the next (or previous) line of the abstract holding a
    /// match of the query, wrapping around.
    pub(super) fn jump_to_match(&mut self, forward: bool) {
        let Some(r) = self.rendered() else { return };
        let lines = r.match_lines;
        if lines.is_empty() {
            self.status = Some("no matches in this abstract".to_string());
            return;
        }
        let here = self.match_line;
        let target = if forward {
            let after = |l: usize| here.map_or(l >= self.detail_scroll, |h| l > h);
            lines
                .iter()
                .copied()
                .find(|&l| after(l))
                .unwrap_or(lines[0])
        } else {
            let before = |l: usize| here.map_or(l < self.detail_scroll, |h| l < h);
            lines
                .iter()
                .copied()
                .rev()
                .find(|&l| before(l))
                .unwrap_or(lines[lines.len() - 1])
        };
        self.match_line = Some(target);
        let max = r.lines.len().saturating_sub(self.detail_height());
        self.detail_scroll = target.saturating_sub(1).min(max);
        let k = lines.iter().position(|&l| l == target).unwrap_or(0) + 1;
        self.status = Some(format!("match {k}/{}", lines.len()));
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use crate::vocabulary::{Action, Effect, Message};

    #[test]
    fn n_and_shift_n_walk_the_matches_in_the_abstract() {
        let (mut app, _dir) = app();
        app.update(Message::Resize(60, 20));
        app.apply(Action::StartSearch);
        typed(&mut app, "orchjail");
        app.apply(Action::AcceptSearch);
        let lines = app.page(app.selected_paper().unwrap(), 56).match_lines;
        assert!(lines.len() >= 3, "{lines:?}");
        app.apply(Action::NextMatch);
        let first = app.match_line().unwrap();
        app.apply(Action::NextMatch);
        let second = app.match_line().unwrap();
        assert!(second > first);
        assert!(app.detail_scroll() <= second && second < app.detail_scroll() + 10);
        assert!(app.status().unwrap().starts_with("match 2/"));
        app.apply(Action::PrevMatch);
        assert_eq!(app.match_line(), Some(first));
        app.apply(Action::PrevMatch);
        assert_eq!(app.match_line(), lines.last().copied(), "wraps around");
    }

    #[test]
    fn a_long_list_of_keywords_is_cut_above_the_abstract() {
        let dir = tempfile::tempdir().unwrap();
        let (store, _) = crate::store::Store::open(dir.path());
        let mut loaded = crate::loading::bundled();
        loaded.corpus.papers[0].more = Some(Box::new(crate::corpus::More {
            keywords: (1..=9).map(|k| format!("heading{k}")).collect(),
            categories: vec!["cs.LG".into(), "stat.ML".into()],
            ..Default::default()
        }));
        let app = crate::app::App::new(loaded, store, || {});
        let text: Vec<String> = app
            .page(0, 200)
            .lines
            .iter()
            .map(|l| l.iter().map(|p| p.text.as_str()).collect())
            .collect();
        let line = |label: &str| text.iter().find(|l| l.starts_with(label)).cloned();
        assert_eq!(
            line("keywords:").as_deref(),
            Some(
                "keywords: heading1 · heading2 · heading3 · heading4 · heading5 · heading6 +3 more"
            )
        );
        assert_eq!(
            line("categories:").as_deref(),
            Some("categories: cs.LG · stat.ML")
        );
        // Narrow, as many as two lines hold.
        let narrow: Vec<String> = app
            .page(0, 30)
            .lines
            .iter()
            .map(|l| l.iter().map(|p| p.text.as_str()).collect::<String>())
            .collect();
        let at = narrow
            .iter()
            .position(|l| l.starts_with("keywords:"))
            .unwrap();
        let two = format!("{} {}", narrow[at].trim_end(), narrow[at + 1].trim());
        assert_eq!(
            two,
            "keywords: heading1 · heading2 · heading3 · heading4 +5 more"
        );
        assert!(narrow[at + 2].starts_with("categories:"));
    }

    #[test]
    fn links_are_chosen_opened_and_copied_through_effects() {
        let (mut app, _dir) = app();
        app.apply(Action::StartSearch);
        typed(&mut app, "CoPro");
        app.apply(Action::AcceptSearch);
        assert_eq!(
            app.apply(Action::OpenLink),
            vec![Effect::Open(
                "https://anonymous.4open.science/r/CoPro-8A95/README.md".into()
            )]
        );
        app.apply(Action::ChooseLink(2));
        assert_eq!(app.status(), Some("this paper has no link 2"));
        match app.apply(Action::CopyLink).pop() {
            Some(Effect::Copy(text)) => {
                assert!(
                    text.starts_with("CoPro: constrained projection policy optimization\n"),
                    "{text}"
                );
                assert!(text.ends_with("/README.md"));
            }
            other => panic!("{other:?}"),
        }
        // Moving to another paper forgets the chosen link.
        app.apply(Action::ChooseLink(1));
        assert_eq!(app.chosen_link(), Some(0));
    }

    #[test]
    fn only_web_links_reach_the_opener_and_the_others_can_be_copied() {
        let dir = tempfile::tempdir().unwrap();
        let (store, _) = crate::store::Store::open(dir.path());
        let mut loaded = crate::loading::bundled();
        loaded.corpus.papers[0].record_links.clear();
        loaded.corpus.papers[0].abstract_text = "See \\href{javascript:alert(1)}{this}, \\url{-oProxyCommand=id}, \\url{file:///etc/passwd} and doi:10.1000/xyz."
            .into();
        let mut app = crate::app::App::new(loaded, store, || {});
        app.update(crate::vocabulary::Message::Resize(120, 40));
        super::super::testing::settle(&mut app);
        for (k, link) in [
            (1, "javascript:alert(1)"),
            (2, "-oProxyCommand=id"),
            (3, "file:///etc/passwd"),
        ] {
            app.apply(Action::ChooseLink(k));
            assert_eq!(app.apply(Action::OpenLink), vec![], "{link}");
            assert_eq!(
                app.status(),
                Some(format!("not opened: {link} is not a web link (y copies it)").as_str())
            );
            match app.apply(Action::CopyLink).pop() {
                Some(Effect::Copy(text)) => assert!(text.ends_with(link), "{text}"),
                other => panic!("{other:?}"),
            }
        }
        app.apply(Action::ChooseLink(4));
        assert_eq!(
            app.apply(Action::OpenLink),
            vec![Effect::Open("https://doi.org/10.1000/xyz".into())]
        );
    }
}
