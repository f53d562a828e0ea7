//! The user's `config.toml`: keys, colours, reader defaults.
//!
//! The file sits beside `state.json` (the same directory, so `--state-dir`
//! moves both). It is optional; every setting has a default. A setting that
//! is broken or unknown is reported by file, line and key, and its default is
//! used: the reader always starts.
//!
//! ```toml
//! [keys]            # browse-mode actions, one key or a list
//! bookmark = "m"
//! quit = ["q", "ctrl-c"]
//!
//! [theme]           # a colour (named or "#rrggbb"), or a table
//! highlight = "magenta"
//! selection = { bg = "#264f78", bold = true }
//!
//! [reader]
//! scope = "title"   # all | title
//! view = "unread"   # all | unread | bookmarked
//! list = 60          # the list's share of the screen, percent (20-80)
//!
//! [cache]
//! max_size = "4G"   # the cache of large files, at most
//! ```

use std::path::{Path, PathBuf};

use ratatui::style::{Color, Modifier, Style};
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use crate::corpus::NameOrder;
use crate::keys::{self, KeyChord, Keymap};
use crate::search::Scope;
use crate::ui::theme::Theme;
use crate::vocabulary::{Mode, View};

/// The config file's name in the state directory.
pub const FILE_NAME: &str = "config.toml";

/// Everything the config sets.
#[derive(Clone, Debug)]
pub struct Config {
    /// The key table.
    pub keymap: Keymap,
    /// Colours by role.
    pub theme: Theme,
    /// The search scope the reader starts with.
    pub scope: Scope,
    /// The view used when a corpus has no remembered one.
    pub view: View,
    /// The order names are shown in (`[reader] names`).
    pub names: NameOrder,
    /// The list's share of the screen's middle, in percent
    /// (`[reader] list`).
    pub list: u8,
    /// Bytes the cache of large files may take (`[cache] max_size`).
    pub cache_size: Option<u64>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            keymap: Keymap::default(),
            theme: Theme::default(),
            scope: Scope::All,
            view: View::All,
            names: NameOrder::GivenFirst,
            list: crate::app::layout::LIST_SHARE,
            cache_size: None,
        }
    }
}

/// The config file's path in `dir`.
pub fn path(dir: &Path) -> PathBuf {
    dir.join(FILE_NAME)
}

/// Reads `dir/config.toml`. A missing file is the defaults, silently; any
/// problem is a message and the default for what it spoiled.
pub fn load(dir: &Path) -> (Config, Vec<String>) {
    let p = path(dir);
    match std::fs::read_to_string(&p) {
        Ok(text) => parse(&text, &p.display().to_string()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => (Config::default(), Vec::new()),
        Err(e) => (
            Config::default(),
            vec![format!("{}: {e}; using the default settings", p.display())],
        ),
    }
}

/// 1-based line of byte offset `at`.
fn line_of(text: &str, at: usize) -> usize {
    text[..at.min(text.len())].matches('\n').count() + 1
}

struct Reporter<'a> {
    text: &'a str,
    file: &'a str,
    problems: Vec<(usize, String)>,
}

impl Reporter<'_> {
    fn report(&mut self, at: usize, key: &str, what: impl std::fmt::Display) {
        let line = line_of(self.text, at);
        self.problems.push((
            line,
            format!("{}:{line}: {key}: {what}; using the default", self.file),
        ));
    }

    /// The messages in file order.
    fn into_messages(mut self) -> Vec<String> {
        self.problems.sort_by_key(|(line, _)| *line);
        self.problems.into_iter().map(|(_, m)| m).collect()
    }
}

/// Parses config text; `file` names it in messages.
pub fn parse(text: &str, file: &str) -> (Config, Vec<String>) {
    let mut config = Config::default();
    let mut r = Reporter {
        text,
        file,
        problems: Vec::new(),
    };
    let table = match DeTable::parse(text) {
        Ok(t) => t,
        Err(e) => {
            let line = e.span().map_or(1, |s| line_of(text, s.start));
            let msg = e
                .message()
                .lines()
                .next()
                .unwrap_or("invalid TOML")
                .to_string();
            return (
                config,
                vec![format!("{file}:{line}: {msg}; using the default settings")],
            );
        }
    };
    for (section, value) in table.get_ref() {
        let name = section.get_ref().as_ref();
        let at = section.span().start;
        let DeValue::Table(inner) = value.get_ref() else {
            r.report(at, name, "expected a [section]");
            continue;
        };
        match name {
            "keys" => keys_section(inner, &mut config.keymap, &mut r),
            "theme" => theme_section(inner, &mut config.theme, &mut r),
            "reader" => reader_section(inner, &mut config, &mut r),
            "cache" => cache_section(inner, &mut config, &mut r),
            _ => r.report(
                at,
                name,
                "unknown section (known: keys, theme, reader, cache)",
            ),
        }
    }
    (config, r.into_messages())
}

fn string_of<'a>(v: &'a Spanned<DeValue>) -> Option<&'a str> {
    match v.get_ref() {
        DeValue::String(s) => Some(s.as_ref()),
        _ => None,
    }
}

fn keys_section(table: &DeTable, keymap: &mut Keymap, r: &mut Reporter) {
    let names = keys::bindable();
    let mut bound: Vec<(KeyChord, String)> = Vec::new();
    for (k, v) in table {
        let name = k.get_ref().as_ref();
        let full = format!("keys.{name}");
        let Some((_, action)) = names.iter().find(|(n, _)| *n == name) else {
            r.report(k.span().start, &full, "unknown action");
            continue;
        };
        let specs: Vec<(&str, usize)> = match v.get_ref() {
            DeValue::String(s) => vec![(s.as_ref(), v.span().start)],
            DeValue::Array(items) => {
                let mut out = Vec::new();
                for item in items {
                    match string_of(item) {
                        Some(s) => out.push((s, item.span().start)),
                        None => {
                            r.report(
                                item.span().start,
                                &full,
                                "expected a key such as \"m\" or \"ctrl-c\"",
                            );
                        }
                    }
                }
                out
            }
            _ => {
                r.report(v.span().start, &full, "expected a key or a list of keys");
                continue;
            }
        };
        let mut parsed = Vec::new();
        let mut ok = true;
        for (spec, at) in specs {
            match KeyChord::parse(spec) {
                Ok(key) => {
                    if let Some((_, other)) = bound.iter().find(|(b, _)| *b == key) {
                        r.report(at, &full, format!("{spec:?} is already bound to {other}"));
                        ok = false;
                    } else {
                        parsed.push(key);
                    }
                }
                Err(e) => {
                    r.report(at, &full, e);
                    ok = false;
                }
            }
        }
        // `[]` unbinds the action.
        if ok {
            for key in &parsed {
                bound.push((*key, name.to_string()));
            }
            keymap.rebind(Mode::Browse, action, &parsed);
        }
    }
}

/// A colour by name (`red`, `lightblue`, `darkgray`, `reset`) or `#rrggbb` / `#rgb`.
pub fn parse_color(s: &str) -> Result<Color, String> {
    let t = s.trim().to_ascii_lowercase().replace(['-', '_', ' '], "");
    if let Some(hex) = t.strip_prefix('#') {
        let expand = |h: &str| -> Option<u8> { u8::from_str_radix(h, 16).ok() };
        return match hex.len() {
            6 => match (expand(&hex[0..2]), expand(&hex[2..4]), expand(&hex[4..6])) {
                (Some(r), Some(g), Some(b)) => Ok(Color::Rgb(r, g, b)),
                _ => Err(format!("not a colour: {s:?}")),
            },
            3 => {
                let d: Option<Vec<u8>> = hex
                    .chars()
                    .map(|c| c.to_digit(16).map(|v| (v * 17) as u8))
                    .collect();
                match d.as_deref() {
                    Some([r, g, b]) => Ok(Color::Rgb(*r, *g, *b)),
                    _ => Err(format!("not a colour: {s:?}")),
                }
            }
            _ => Err(format!("not a colour: {s:?}")),
        };
    }
    Ok(match t.as_str() {
        "reset" | "default" | "none" => Color::Reset,
        "black" => Color::Black,
        "red" => Color::Red,
        "green" => Color::Green,
        "yellow" => Color::Yellow,
        "blue" => Color::Blue,
        "magenta" | "purple" => Color::Magenta,
        "cyan" => Color::Cyan,
        "gray" | "grey" => Color::Gray,
        "darkgray" | "darkgrey" | "brightblack" => Color::DarkGray,
        "lightred" | "brightred" => Color::LightRed,
        "lightgreen" | "brightgreen" => Color::LightGreen,
        "lightyellow" | "brightyellow" => Color::LightYellow,
        "lightblue" | "brightblue" => Color::LightBlue,
        "lightmagenta" | "brightmagenta" => Color::LightMagenta,
        "lightcyan" | "brightcyan" => Color::LightCyan,
        "white" | "brightwhite" => Color::White,
        _ => {
            return Err(format!(
                "not a colour: {s:?} (a name such as \"cyan\" or \"#rrggbb\")"
            ));
        }
    })
}

/// A role's style: a colour (the foreground; the background for
/// `selection`), or a table of `fg`, `bg`, `bold`, `italic`, `underline`,
/// `dim`, `reversed`.
fn style_of(role: &str, v: &Spanned<DeValue>, r: &mut Reporter, key: &str) -> Option<Style> {
    match v.get_ref() {
        DeValue::String(s) => match parse_color(s) {
            Ok(c) if role == "selection" => Some(Style::new().bg(c)),
            Ok(c) => Some(Style::new().fg(c)),
            Err(e) => {
                r.report(v.span().start, key, e);
                None
            }
        },
        DeValue::Table(t) => {
            let mut style = Style::new();
            for (k, val) in t {
                let field = k.get_ref().as_ref();
                let full = format!("{key}.{field}");
                match (field, val.get_ref()) {
                    ("fg" | "bg", DeValue::String(s)) => match parse_color(s) {
                        Ok(c) if field == "fg" => style = style.fg(c),
                        Ok(c) => style = style.bg(c),
                        Err(e) => {
                            r.report(val.span().start, &full, e);
                            return None;
                        }
                    },
                    (
                        "bold" | "italic" | "underline" | "dim" | "reversed",
                        DeValue::Boolean(on),
                    ) => {
                        let m = match field {
                            "bold" => Modifier::BOLD,
                            "italic" => Modifier::ITALIC,
                            "underline" => Modifier::UNDERLINED,
                            "dim" => Modifier::DIM,
                            _ => Modifier::REVERSED,
                        };
                        style = if *on {
                            style.add_modifier(m)
                        } else {
                            style.remove_modifier(m)
                        };
                    }
                    _ => {
                        r.report(
                            k.span().start,
                            &full,
                            "unknown or mistyped field (fg, bg: colours; bold, italic, underline, dim, reversed: true/false)",
                        );
                        return None;
                    }
                }
            }
            Some(style)
        }
        _ => {
            r.report(v.span().start, key, "expected a colour or a table");
            None
        }
    }
}

fn theme_section(table: &DeTable, theme: &mut Theme, r: &mut Reporter) {
    for (k, v) in table {
        let role = k.get_ref().as_ref();
        let key = format!("theme.{role}");
        let Some(slot) = theme.role_mut(role) else {
            r.report(
                k.span().start,
                &key,
                format!("unknown role (known: {})", Theme::ROLES.join(", ")),
            );
            continue;
        };
        let before = *slot;
        if let Some(style) = style_of(role, v, r, &key) {
            *slot = style;
        } else {
            *slot = before;
        }
    }
}

fn reader_section(table: &DeTable, config: &mut Config, r: &mut Reporter) {
    for (k, v) in table {
        let name = k.get_ref().as_ref();
        let key = format!("reader.{name}");
        let value = string_of(v);
        match name {
            "scope" => match value {
                Some("title") => config.scope = Scope::Title,
                Some("all") => config.scope = Scope::All,
                _ => r.report(v.span().start, &key, "expected \"title\" or \"all\""),
            },
            "view" => match value.and_then(View::from_name) {
                Some(view) => config.view = view,
                None => r.report(
                    v.span().start,
                    &key,
                    "expected \"all\", \"unread\" or \"bookmarked\"",
                ),
            },
            "names" => match value {
                Some("given-first") => config.names = NameOrder::GivenFirst,
                Some("family-first") => config.names = NameOrder::FamilyFirst,
                _ => r.report(
                    v.span().start,
                    &key,
                    "expected \"given-first\" or \"family-first\"",
                ),
            },
            "list" => {
                let shares = crate::app::layout::LIST_SHARES;
                match v.get_ref() {
                    DeValue::Integer(i) => match i.as_str().parse::<u8>() {
                        Ok(n) if shares.contains(&n) => config.list = n,
                        _ => r.report(v.span().start, &key, "expected a percent from 20 to 80"),
                    },
                    _ => r.report(v.span().start, &key, "expected a percent from 20 to 80"),
                }
            }
            _ => r.report(
                k.span().start,
                &key,
                "unknown setting (known: scope, view, list, names)",
            ),
        }
    }
}

fn cache_section(table: &DeTable, config: &mut Config, r: &mut Reporter) {
    for (k, v) in table {
        let name = k.get_ref().as_ref();
        let key = format!("cache.{name}");
        match name {
            "max_size" => match v.get_ref() {
                DeValue::String(s) => match parse_size(s) {
                    Ok(n) => config.cache_size = Some(n),
                    Err(e) => r.report(v.span().start, &key, e),
                },
                DeValue::Integer(i) => match i.as_str().parse::<u64>() {
                    Ok(n) => config.cache_size = Some(n),
                    Err(_) => r.report(v.span().start, &key, "expected a size (\"4G\")"),
                },
                _ => r.report(v.span().start, &key, "expected a size (\"4G\")"),
            },
            _ => r.report(k.span().start, &key, "unknown setting (known: max_size)"),
        }
    }
}

/// `500M`, `2G`, `1024` → bytes.
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim().to_ascii_uppercase();
    let t = t
        .strip_suffix("IB")
        .or_else(|| t.strip_suffix('B'))
        .unwrap_or(&t);
    let (num, mult) = match t.chars().last() {
        Some('K') => (&t[..t.len() - 1], 1u64 << 10),
        Some('M') => (&t[..t.len() - 1], 1 << 20),
        Some('G') => (&t[..t.len() - 1], 1 << 30),
        Some('T') => (&t[..t.len() - 1], 1 << 40),
        _ => (t, 1),
    };
    let n: f64 = num
        .trim()
        .parse()
        .map_err(|_| format!("not a size: {s:?} (e.g. 500M, 2G)"))?;
    if n < 0.0 {
        return Err(format!("not a size: {s:?}"));
    }
    Ok((n * mult as f64) as u64)
}

/// A complete config file with every setting at its default, commented
/// out: `paperboat config default > ~/.config/paperboat/config.toml`.
pub fn default_file() -> String {
    let keymap = Keymap::default();
    let mut out = String::from(
        "# paperboat configuration. Every line is a default; uncomment to change it.\n\
         # Problems in this file are reported when paperboat starts (file, line and key)\n\
         # and the default is used instead.\n\n\
         # Browse-mode keys: an action takes one key or a list. Keys are a character\n\
         # (\"m\", \"G\", \"?\") or a name (space enter esc tab backtab backspace delete\n\
         # insert up down left right home end pageup pagedown f1-f12), with optional\n\
         # ctrl-, alt- or shift- in front. Binding a key takes it from the action that\n\
         # had it.\n[keys]\n",
    );
    for (name, action) in keys::bindable() {
        let keys: Vec<String> = keymap
            .keys_for(Mode::Browse, &action)
            .iter()
            .map(|k| format!("{:?}", k.spec()))
            .collect();
        let value = match keys.len() {
            0 => "[]".to_string(),
            1 => keys[0].clone(),
            _ => format!("[{}]", keys.join(", ")),
        };
        out.push_str(&format!("# {name} = {value}  # {}\n", action.describe()));
    }
    out.push_str(
        "\n# Colours by role: a colour name (black red green yellow blue magenta cyan gray\n\
         # darkgray lightred lightgreen lightyellow lightblue lightmagenta lightcyan white\n\
         # reset) or \"#rrggbb\"; or a table such as { fg = \"cyan\", bold = true }\n\
         # (fg, bg, bold, italic, underline, dim, reversed). NO_COLOR turns colours off.\n[theme]\n",
    );
    for (role, what) in Theme::ROLES.iter().zip(Theme::ROLE_DOCS) {
        out.push_str(&format!(
            "# {role} = {}  # {what}\n",
            Theme::default().spec(role)
        ));
    }
    out.push_str(
        "\n[reader]\n# scope = \"all\"  # what a query matches at start: all (every field) | title\n\
         # view = \"all\"     # the view for lists opened the first time: all | unread | bookmarked\n\
         # list = 50        # the list's share of the screen beside (or above) the abstract, in percent (20-80; < and > change it)\n\
         # names = \"given-first\"  # how names show: given-first (Ada Lovelace) | family-first (Lovelace, Ada)\n\
         \n[cache]\n# max_size = \"4G\"  # the cache that opens large files again at once: at most this much\n",
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

    fn press(c: char) -> KeyEvent {
        KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
    }

    #[test]
    fn keys_are_remapped() {
        let (c, problems) = parse(
            "[keys]\nbookmark = \"m\"\nquit = [\"x\", \"ctrl-c\"]\n",
            "c.toml",
        );
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(
            c.keymap.action(Mode::Browse, &press('m')),
            Some(crate::vocabulary::Action::ToggleBookmark)
        );
        assert_eq!(c.keymap.action(Mode::Browse, &press('b')), None);
        assert_eq!(
            c.keymap.action(Mode::Browse, &press('x')),
            Some(crate::vocabulary::Action::Quit)
        );
        assert_eq!(c.keymap.action(Mode::Browse, &press('q')), None);
    }

    #[test]
    fn problems_name_file_line_and_key_and_keep_defaults() {
        let text = "[keys]\nbookmark = \"ctrl-nope\"\nfly = \"f\"\nread = 3\n\n[theme]\nhighlight = \"chartreuse\"\nmarks = \"#ff0000\"\nnope = \"red\"\n\n[reader]\nscope = \"everything\"\nview = \"unread\"\n[other]\nx = 1\n";
        let (c, p) = parse(text, "config.toml");
        let expect = [
            "config.toml:2: keys.bookmark: unknown key",
            "config.toml:3: keys.fly: unknown action",
            "config.toml:4: keys.read: expected a key or a list of keys",
            "config.toml:7: theme.highlight: not a colour",
            "config.toml:9: theme.nope: unknown role",
            "config.toml:12: reader.scope: expected",
            "config.toml:14: other: unknown section",
        ];
        for (e, got) in expect.iter().zip(&p) {
            assert!(got.starts_with(e), "{got:?} should start with {e:?}");
        }
        assert_eq!(p.len(), expect.len(), "{p:#?}");
        assert_eq!(
            c.keymap.action(Mode::Browse, &press('b')),
            Some(crate::vocabulary::Action::ToggleBookmark),
            "default kept"
        );
        assert_eq!(c.theme.marks, Style::new().fg(Color::Rgb(255, 0, 0)));
        assert_eq!(c.theme.highlight, Theme::default().highlight);
        assert_eq!(c.view, View::Unread);
        assert_eq!(c.scope, Scope::All, "default kept");
    }

    #[test]
    fn names_show_given_or_family_name_first() {
        let (c, p) = parse("[reader]\nnames = \"family-first\"\n", "c.toml");
        assert!(p.is_empty(), "{p:?}");
        assert_eq!(c.names, NameOrder::FamilyFirst);
        let (c, p) = parse("[reader]\nnames = \"surname\"\n", "c.toml");
        assert_eq!(c.names, NameOrder::GivenFirst, "default kept");
        assert!(p[0].contains("reader.names: expected"), "{p:?}");
    }

    #[test]
    fn a_key_bound_twice_is_reported() {
        let (_, p) = parse("[keys]\nbookmark = \"m\"\nread = \"m\"\n", "c.toml");
        assert_eq!(p.len(), 1);
        assert!(
            p[0].starts_with("c.toml:3: keys.read: \"m\" is already bound to bookmark"),
            "{p:?}"
        );
    }

    #[test]
    fn the_cache_size_is_a_size_or_a_message() {
        let (c, p) = parse("[cache]\nmax_size = \"2G\"\n", "c.toml");
        assert_eq!((c.cache_size, p.len()), (Some(2 << 30), 0));
        let (c, p) = parse("[cache]\nmax_size = 1000\n", "c.toml");
        assert_eq!((c.cache_size, p.len()), (Some(1000), 0));
        let (c, p) = parse("[cache]\nmax_size = \"lots\"\nkeep = 1\n", "c.toml");
        assert_eq!(c.cache_size, None);
        assert!(
            p[0].starts_with("c.toml:2: cache.max_size: not a size"),
            "{p:?}"
        );
        assert!(
            p[1].starts_with("c.toml:3: cache.keep: unknown setting"),
            "{p:?}"
        );
    }

    #[test]
    fn broken_toml_is_one_message_with_its_line() {
        let (c, p) = parse("[keys]\nbookmark = \"m\n", "c.toml");
        assert_eq!(p.len(), 1);
        assert!(p[0].starts_with("c.toml:2: "), "{p:?}");
        assert_eq!(
            c.keymap.action(Mode::Browse, &press('b')),
            Some(crate::vocabulary::Action::ToggleBookmark)
        );
    }

    #[test]
    fn theme_tables_and_colours() {
        let (c, p) = parse(
            "[theme]\nselection = { bg = \"#264f78\", bold = true }\nlink = \"lightblue\"\ndim = \"#abc\"\n",
            "c",
        );
        assert!(p.is_empty(), "{p:?}");
        assert_eq!(
            c.theme.selection,
            Style::new()
                .bg(Color::Rgb(0x26, 0x4f, 0x78))
                .add_modifier(Modifier::BOLD)
        );
        assert_eq!(c.theme.link, Style::new().fg(Color::LightBlue));
        assert_eq!(c.theme.dim, Style::new().fg(Color::Rgb(0xaa, 0xbb, 0xcc)));
    }

    #[test]
    fn the_default_file_parses_to_the_defaults_and_uncommented_too() {
        let text = default_file();
        let (c, p) = parse(&text, "default");
        assert!(p.is_empty(), "{p:?}");
        assert_eq!(c.theme, Theme::default());
        let uncommented: String = text
            .lines()
            .map(|l| match l.strip_prefix("# ") {
                Some(rest)
                    if rest.split_once(" = ").is_some_and(|(k, _)| {
                        k.chars().all(|c| c.is_ascii_lowercase() || c == '_')
                    }) =>
                {
                    rest
                }
                _ if l.starts_with('#') => "",
                _ => l,
            })
            .collect::<Vec<_>>()
            .join("\n");
        let (c2, p2) = parse(&uncommented, "uncommented");
        assert!(p2.is_empty(), "{p2:?}\n{uncommented}");
        assert_eq!(c2.theme, Theme::default());
        let mut checked = 0;
        for b in Keymap::default()
            .bindings()
            .iter()
            .filter(|b| b.mode == Mode::Browse)
        {
            if keys::bindable().iter().any(|(_, a)| *a == b.action) {
                assert!(
                    c2.keymap.keys_for(Mode::Browse, &b.action).contains(&b.key),
                    "{b:?}"
                );
                checked += 1;
            }
        }
        // Every bindable action has a default key or more, all checked.
        assert!(checked >= keys::bindable().len(), "{checked}");
    }
}
