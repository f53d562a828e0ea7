//! Keys to actions.
//!
//! One table maps a key in a mode to an [`Action`]; the reader looks keys up
//! in it and the help overlay lists it, so the two never disagree. In search
//! mode every printable key not in the table edits the query, so `j`, `k`
//! and `q` type letters there.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use crate::vocabulary::{Action, Mode};

/// A key with its modifiers, as bound in the table.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct KeyChord {
    /// The key.
    pub code: KeyCode,
    /// Ctrl, Alt (Shift is folded into the character for letters).
    pub mods: KeyModifiers,
}

impl KeyChord {
    /// A plain key.
    pub const fn plain(code: KeyCode) -> KeyChord {
        KeyChord {
            code,
            mods: KeyModifiers::NONE,
        }
    }

    /// A character key.
    pub const fn ch(c: char) -> KeyChord {
        KeyChord::plain(KeyCode::Char(c))
    }

    /// Ctrl plus a character.
    pub const fn ctrl(c: char) -> KeyChord {
        KeyChord {
            code: KeyCode::Char(c),
            mods: KeyModifiers::CONTROL,
        }
    }

    /// The key of a terminal key event, normalised: Shift is dropped from
    /// characters (`G` arrives as Shift+`G`) and Ctrl letters are lower case.
    pub fn from_event(ev: &KeyEvent) -> KeyChord {
        let mut mods = ev.modifiers & (KeyModifiers::CONTROL | KeyModifiers::ALT);
        let code = match ev.code {
            KeyCode::Char(c) if mods.contains(KeyModifiers::CONTROL) => {
                KeyCode::Char(c.to_ascii_lowercase())
            }
            KeyCode::BackTab => {
                mods = KeyModifiers::NONE;
                KeyCode::BackTab
            }
            other => other,
        };
        // Shift is part of the character already (`G`, `?`); it is dropped.
        KeyChord { code, mods }
    }

    /// Reads a key as `config.toml` writes it: an optional `ctrl-`, `alt-`
    /// or `shift-` (any case, in any order), then one character (`m`, `G`,
    /// `?`, `-`) or a key name (`space`, `enter`, `esc`, `tab`, `backspace`,
    /// `delete`, `insert`, `up`, `down`, `left`, `right`, `home`, `end`,
    /// `pageup`/`pgup`, `pagedown`/`pgdn`, `f1`–`f12`).
    pub fn parse(spec: &str) -> Result<KeyChord, String> {
        let mut rest = spec.trim();
        if rest.is_empty() {
            return Err("an empty key".to_string());
        }
        let mut mods = KeyModifiers::NONE;
        let mut shift = false;
        while let Some((head, tail)) = rest.split_once('-') {
            if tail.is_empty() {
                break;
            }
            match head.to_ascii_lowercase().as_str() {
                "ctrl" | "control" | "c" => mods |= KeyModifiers::CONTROL,
                "alt" | "meta" | "m" | "a" => mods |= KeyModifiers::ALT,
                "shift" | "s" => shift = true,
                _ => break,
            }
            rest = tail;
        }
        let mut chars = rest.chars();
        let code = match (chars.next(), chars.next()) {
            (Some(c), None) => KeyCode::Char(c),
            _ => match rest.to_ascii_lowercase().as_str() {
                "space" | "spc" => KeyCode::Char(' '),
                "enter" | "return" | "ret" => KeyCode::Enter,
                "esc" | "escape" => KeyCode::Esc,
                "tab" => KeyCode::Tab,
                "backtab" => KeyCode::BackTab,
                "backspace" | "bs" => KeyCode::Backspace,
                "delete" | "del" => KeyCode::Delete,
                "insert" | "ins" => KeyCode::Insert,
                "up" => KeyCode::Up,
                "down" => KeyCode::Down,
                "left" => KeyCode::Left,
                "right" => KeyCode::Right,
                "home" => KeyCode::Home,
                "end" => KeyCode::End,
                "pageup" | "pgup" => KeyCode::PageUp,
                "pagedown" | "pgdn" | "pgdown" => KeyCode::PageDown,
                "minus" => KeyCode::Char('-'),
                name => match name.strip_prefix('f').and_then(|n| n.parse::<u8>().ok()) {
                    Some(n) if (1..=12).contains(&n) => KeyCode::F(n),
                    _ => return Err(format!("unknown key {spec:?}")),
                },
            },
        };
        let code = match code {
            KeyCode::Tab if shift => KeyCode::BackTab,
            KeyCode::Char(c) if shift => KeyCode::Char(c.to_uppercase().next().unwrap_or(c)),
            KeyCode::Char(c) if mods.contains(KeyModifiers::CONTROL) => {
                KeyCode::Char(c.to_ascii_lowercase())
            }
            other => other,
        };
        if matches!(code, KeyCode::Char(c) if c.is_control()) {
            return Err(format!("unknown key {spec:?}"));
        }
        Ok(KeyChord { code, mods })
    }

    /// How `config.toml` writes the key; [`KeyChord::parse`] reads it back.
    pub fn spec(&self) -> String {
        let base = match self.code {
            KeyCode::Char(' ') => "space".to_string(),
            KeyCode::Char(c) => c.to_string(),
            KeyCode::Enter => "enter".into(),
            KeyCode::Esc => "esc".into(),
            KeyCode::Tab => "tab".into(),
            KeyCode::BackTab => "backtab".into(),
            KeyCode::Backspace => "backspace".into(),
            KeyCode::Delete => "delete".into(),
            KeyCode::Insert => "insert".into(),
            KeyCode::Up => "up".into(),
            KeyCode::Down => "down".into(),
            KeyCode::Left => "left".into(),
            KeyCode::Right => "right".into(),
            KeyCode::Home => "home".into(),
            KeyCode::End => "end".into(),
            KeyCode::PageUp => "pageup".into(),
            KeyCode::PageDown => "pagedown".into(),
            KeyCode::F(n) => format!("f{n}"),
            other => format!("{other:?}").to_lowercase(),
        };
        let mut s = String::new();
        if self.mods.contains(KeyModifiers::CONTROL) {
            s.push_str("ctrl-");
        }
        if self.mods.contains(KeyModifiers::ALT) {
            s.push_str("alt-");
        }
        s.push_str(&base);
        s
    }

    /// How the key is written in the help overlay (`Ctrl-d`, `PgDn`, `g`).
    pub fn label(&self) -> String {
        let base = match self.code {
            KeyCode::Char(' ') => "Space".to_string(),
            KeyCode::Char(c) => c.to_string(),
            KeyCode::Up => "↑".into(),
            KeyCode::Down => "↓".into(),
            KeyCode::Left => "←".into(),
            KeyCode::Right => "→".into(),
            KeyCode::PageUp => "PgUp".into(),
            KeyCode::PageDown => "PgDn".into(),
            KeyCode::Home => "Home".into(),
            KeyCode::End => "End".into(),
            KeyCode::Enter => "Enter".into(),
            KeyCode::Esc => "Esc".into(),
            KeyCode::Tab => "Tab".into(),
            KeyCode::BackTab => "Shift-Tab".into(),
            KeyCode::Backspace => "Backspace".into(),
            KeyCode::Delete => "Del".into(),
            KeyCode::F(n) => format!("F{n}"),
            other => format!("{other:?}"),
        };
        let mut s = String::new();
        if self.mods.contains(KeyModifiers::CONTROL) {
            s.push_str("Ctrl-");
        }
        if self.mods.contains(KeyModifiers::ALT) {
            s.push_str("Alt-");
        }
        s.push_str(&base);
        s
    }
}

/// The actions `config.toml` can bind in browse mode, by name.
pub fn bindable() -> Vec<(&'static str, Action)> {
    use Action as A;
    vec![
        ("quit", A::Quit),
        ("down", A::Down),
        ("up", A::Up),
        ("page_down", A::PageDown),
        ("page_up", A::PageUp),
        ("half_page_down", A::HalfPageDown),
        ("half_page_up", A::HalfPageUp),
        ("first", A::First),
        ("last", A::Last),
        ("scroll_down", A::ScrollDown),
        ("scroll_up", A::ScrollUp),
        ("scroll_page_down", A::ScrollPageDown),
        ("scroll_page_up", A::ScrollPageUp),
        ("toggle_focus", A::ToggleFocus),
        ("search", A::StartSearch),
        ("toggle_scope", A::ToggleScope),
        ("help", A::ToggleHelp),
        ("bookmark", A::ToggleBookmark),
        ("read", A::ToggleRead),
        ("select", A::TogglePick),
        ("select_all", A::PickListed),
        ("clear_selection", A::ClearPicks),
        ("tags", A::EditTags),
        ("save_search", A::SaveSearch),
        ("export", A::ExportList),
        ("saved_searches", A::RecallSearch),
        ("sort", A::CycleSort),
        ("triage", A::Triage),
        ("note", A::EditNote),
        ("cycle_view", A::CycleView),
        ("mark_all_read", A::MarkAllRead),
        ("forget_for_you", A::ForgetForYou),
        ("widen_list", A::WidenList),
        ("narrow_list", A::NarrowList),
        ("related", A::Related),
        ("overview", A::Overview),
        ("back", A::Back),
        ("undo", A::Undo),
        ("redo", A::Redo),
        ("next_match", A::NextMatch),
        ("prev_match", A::PrevMatch),
        ("open_link", A::OpenLink),
        ("copy_link", A::CopyLink),
        ("suspend", A::Suspend),
    ]
}

/// One row of the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Binding {
    /// The mode it applies in.
    pub mode: Mode,
    /// The key.
    pub key: KeyChord,
    /// What it does.
    pub action: Action,
}

/// The key table in force.
#[derive(Clone, Debug)]
pub struct Keymap {
    bindings: Vec<Binding>,
}

impl Default for Keymap {
    fn default() -> Self {
        Keymap {
            bindings: default_bindings(),
        }
    }
}

fn default_bindings() -> Vec<Binding> {
    use Action as A;
    use KeyCode as K;
    let browse: &[(KeyChord, Action)] = &[
        (KeyChord::ch('j'), A::Down),
        (KeyChord::plain(K::Down), A::Down),
        (KeyChord::ctrl('n'), A::Down),
        (KeyChord::ch('k'), A::Up),
        (KeyChord::plain(K::Up), A::Up),
        (KeyChord::ctrl('p'), A::Up),
        (KeyChord::plain(K::PageDown), A::PageDown),
        (KeyChord::ctrl('d'), A::HalfPageDown),
        (KeyChord::plain(K::PageUp), A::PageUp),
        (KeyChord::ctrl('u'), A::HalfPageUp),
        (KeyChord::ch('g'), A::First),
        (KeyChord::plain(K::Home), A::First),
        (KeyChord::ch('G'), A::Last),
        (KeyChord::plain(K::End), A::Last),
        (KeyChord::ch(' '), A::ScrollPageDown),
        (KeyChord::ch('J'), A::ScrollDown),
        (KeyChord::ch('K'), A::ScrollUp),
        (KeyChord::plain(K::Tab), A::ToggleFocus),
        (KeyChord::ch('n'), A::NextMatch),
        (KeyChord::ch('N'), A::PrevMatch),
        (KeyChord::ch('o'), A::OpenLink),
        (KeyChord::ch('y'), A::CopyLink),
        (KeyChord::ch('1'), A::ChooseLink(1)),
        (KeyChord::ch('2'), A::ChooseLink(2)),
        (KeyChord::ch('3'), A::ChooseLink(3)),
        (KeyChord::ch('4'), A::ChooseLink(4)),
        (KeyChord::ch('5'), A::ChooseLink(5)),
        (KeyChord::ch('6'), A::ChooseLink(6)),
        (KeyChord::ch('7'), A::ChooseLink(7)),
        (KeyChord::ch('8'), A::ChooseLink(8)),
        (KeyChord::ch('9'), A::ChooseLink(9)),
        (KeyChord::ch('b'), A::ToggleBookmark),
        (KeyChord::ch('r'), A::ToggleRead),
        (KeyChord::ch('x'), A::TogglePick),
        (KeyChord::ch('X'), A::PickListed),
        (KeyChord::ch('c'), A::ClearPicks),
        (KeyChord::ch('t'), A::EditTags),
        (KeyChord::ch('S'), A::SaveSearch),
        (KeyChord::ch('E'), A::ExportList),
        (KeyChord::ch('L'), A::RecallSearch),
        (KeyChord::ch('s'), A::CycleSort),
        (KeyChord::ch('T'), A::Triage),
        (KeyChord::ch('e'), A::EditNote),
        (KeyChord::ch('v'), A::CycleView),
        (KeyChord::ch('R'), A::MarkAllRead),
        (KeyChord::ch('F'), A::ForgetForYou),
        (KeyChord::ch('>'), A::WidenList),
        (KeyChord::ch('<'), A::NarrowList),
        (KeyChord::ch('m'), A::Related),
        (KeyChord::ch('O'), A::Overview),
        (KeyChord::plain(K::Esc), A::Back),
        (KeyChord::ch('u'), A::Undo),
        (KeyChord::ctrl('r'), A::Redo),
        (KeyChord::ch('/'), A::StartSearch),
        (KeyChord::ctrl('t'), A::ToggleScope),
        (KeyChord::ch('?'), A::ToggleHelp),
        (KeyChord::ch('q'), A::Quit),
        (KeyChord::ctrl('c'), A::Quit),
        (KeyChord::ctrl('z'), A::Suspend),
    ];
    // Editing a line: the query, a tag line, a name.
    let editing: &[(KeyChord, Action)] = &[
        (KeyChord::plain(K::Backspace), A::Backspace),
        (KeyChord::plain(K::Delete), A::DeleteForward),
        (KeyChord::ctrl('w'), A::DeleteWord),
        (KeyChord::ctrl('u'), A::ClearQuery),
        (KeyChord::plain(K::Left), A::CursorLeft),
        (KeyChord::plain(K::Right), A::CursorRight),
        (KeyChord::plain(K::Home), A::CursorHome),
        (KeyChord::plain(K::End), A::CursorEnd),
    ];
    let search = &[
        &[
            (KeyChord::plain(K::Enter), A::AcceptSearch),
            (KeyChord::plain(K::Esc), A::CancelSearch),
        ][..],
        editing,
        &[
            (KeyChord::plain(K::Down), A::Down),
            (KeyChord::ctrl('n'), A::Down),
            (KeyChord::plain(K::Up), A::Up),
            (KeyChord::ctrl('p'), A::Up),
            (KeyChord::plain(K::PageDown), A::PageDown),
            (KeyChord::plain(K::PageUp), A::PageUp),
            (KeyChord::ctrl('t'), A::ToggleScope),
            (KeyChord::ctrl('c'), A::Quit),
            (KeyChord::ctrl('z'), A::Suspend),
        ][..],
    ]
    .concat();
    let help: &[(KeyChord, Action)] = &[
        (KeyChord::ch('?'), A::ToggleHelp),
        (KeyChord::plain(K::Esc), A::ToggleHelp),
        (KeyChord::ch('q'), A::ToggleHelp),
        (KeyChord::ch('j'), A::Down),
        (KeyChord::plain(K::Down), A::Down),
        (KeyChord::ch('k'), A::Up),
        (KeyChord::plain(K::Up), A::Up),
        (KeyChord::plain(K::PageDown), A::PageDown),
        (KeyChord::ch(' '), A::PageDown),
        (KeyChord::plain(K::PageUp), A::PageUp),
        (KeyChord::ch('g'), A::First),
        (KeyChord::plain(K::Home), A::First),
        (KeyChord::ch('G'), A::Last),
        (KeyChord::plain(K::End), A::Last),
        (KeyChord::ctrl('c'), A::Quit),
    ];
    let triage: &[(KeyChord, Action)] = &[
        (KeyChord::ch('y'), A::Keep),
        (KeyChord::ch('n'), A::Skip),
        (KeyChord::ch('l'), A::Later),
        (KeyChord::ch('u'), A::Undo),
        (KeyChord::ch('j'), A::ScrollDown),
        (KeyChord::plain(K::Down), A::ScrollDown),
        (KeyChord::ch('k'), A::ScrollUp),
        (KeyChord::plain(K::Up), A::ScrollUp),
        (KeyChord::ch(' '), A::ScrollPageDown),
        (KeyChord::plain(K::PageDown), A::ScrollPageDown),
        (KeyChord::plain(K::PageUp), A::ScrollPageUp),
        (KeyChord::ch('t'), A::EditTags),
        (KeyChord::ch('e'), A::EditNote),
        (KeyChord::ch('o'), A::OpenLink),
        (KeyChord::plain(K::Esc), A::Back),
        (KeyChord::ch('T'), A::Back),
        (KeyChord::ch('q'), A::Back),
        (KeyChord::ch('?'), A::ToggleHelp),
        (KeyChord::ctrl('c'), A::Quit),
        (KeyChord::ctrl('z'), A::Suspend),
    ];
    let pick: &[(KeyChord, Action)] = &[
        (KeyChord::ch('j'), A::Down),
        (KeyChord::plain(K::Down), A::Down),
        (KeyChord::ch('k'), A::Up),
        (KeyChord::plain(K::Up), A::Up),
        (KeyChord::plain(K::Enter), A::AcceptLine),
        (KeyChord::ch('d'), A::RemoveSaved),
        (KeyChord::plain(K::Esc), A::CancelLine),
        (KeyChord::ch('q'), A::CancelLine),
        (KeyChord::ctrl('c'), A::Quit),
    ];
    let overview: &[(KeyChord, Action)] = &[
        (KeyChord::ch('j'), A::Down),
        (KeyChord::plain(K::Down), A::Down),
        (KeyChord::ch('k'), A::Up),
        (KeyChord::plain(K::Up), A::Up),
        (KeyChord::ch('g'), A::First),
        (KeyChord::ch('G'), A::Last),
        (KeyChord::plain(K::Enter), A::AcceptLine),
        (KeyChord::plain(K::Esc), A::CancelLine),
        (KeyChord::ch('O'), A::CancelLine),
        (KeyChord::ch('q'), A::CancelLine),
        (KeyChord::ctrl('c'), A::Quit),
    ];
    let prompt = &[
        &[
            (KeyChord::plain(K::Enter), A::AcceptLine),
            (KeyChord::plain(K::Esc), A::CancelLine),
            (KeyChord::plain(K::Tab), A::Complete),
        ][..],
        editing,
        &[(KeyChord::ctrl('c'), A::Quit)][..],
    ]
    .concat();
    let confirm: &[(KeyChord, Action)] = &[
        (KeyChord::ch('y'), A::ConfirmYes),
        (KeyChord::plain(K::Enter), A::ConfirmYes),
        (KeyChord::ch('n'), A::ConfirmNo),
        (KeyChord::plain(K::Esc), A::ConfirmNo),
        (KeyChord::ch('q'), A::ConfirmNo),
        (KeyChord::ctrl('c'), A::Quit),
    ];
    [
        (Mode::Browse, browse),
        (Mode::Search, &search[..]),
        (Mode::Help, help),
        (Mode::Confirm, confirm),
        (Mode::Triage, triage),
        (Mode::Prompt, &prompt[..]),
        (Mode::Pick, pick),
        (Mode::Overview, overview),
    ]
    .into_iter()
    .flat_map(|(mode, rows)| {
        rows.iter().map(move |(key, action)| Binding {
            mode,
            key: *key,
            action: action.clone(),
        })
    })
    .collect()
}

impl Keymap {
    /// The action for a key event in `mode`, if any. Releases and repeats
    /// of non-press kinds are ignored.
    pub fn action(&self, mode: Mode, ev: &KeyEvent) -> Option<Action> {
        if ev.kind != KeyEventKind::Press && ev.kind != KeyEventKind::Repeat {
            return None;
        }
        let key = KeyChord::from_event(ev);
        if let Some(b) = self
            .bindings
            .iter()
            .find(|b| b.mode == mode && b.key == key)
        {
            return Some(b.action.clone());
        }
        match (mode, key.code) {
            (Mode::Search | Mode::Prompt, KeyCode::Char(c))
                if !key
                    .mods
                    .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) =>
            {
                Some(Action::Insert(c))
            }
            // Any other key closes the help.
            (Mode::Help, _) => Some(Action::ToggleHelp),
            _ => None,
        }
    }

    /// The table's rows for `mode`, grouped by action in table order:
    /// (keys, description). Feeds the help overlay.
    pub fn help(&self, mode: Mode) -> Vec<(Vec<String>, &'static str)> {
        let mut rows: Vec<(&'static str, Vec<String>)> = Vec::new();
        for b in self.bindings.iter().filter(|b| b.mode == mode) {
            let what = b.action.describe();
            match rows.iter_mut().find(|(d, _)| *d == what) {
                Some((_, keys)) => keys.push(b.key.label()),
                None => rows.push((what, vec![b.key.label()])),
            }
        }
        rows.into_iter()
            .map(|(what, keys)| (compress_digits(keys), what))
            .collect()
    }

    /// Every binding.
    pub fn bindings(&self) -> &[Binding] {
        &self.bindings
    }

    /// Binds `action` in `mode` to exactly `keys`: its old keys go, and
    /// whatever else those keys did in that mode goes too.
    /// The new keys take the place of the old in the table (and so in the
    /// help).
    pub fn rebind(&mut self, mode: Mode, action: &Action, keys: &[KeyChord]) {
        let at = self
            .bindings
            .iter()
            .position(|b| b.mode == mode && b.action == *action);
        let before = at.map_or(0, |at| {
            self.bindings[..at]
                .iter()
                .filter(|b| b.mode != mode || (b.action != *action && !keys.contains(&b.key)))
                .count()
        });
        self.bindings
            .retain(|b| b.mode != mode || (b.action != *action && !keys.contains(&b.key)));
        let new = keys.iter().map(|key| Binding {
            mode,
            key: *key,
            action: action.clone(),
        });
        match at {
            Some(_) => {
                let tail = self.bindings.split_off(before);
                self.bindings.extend(new);
                self.bindings.extend(tail);
            }
            None => self.bindings.extend(new),
        }
    }

    /// The keys bound to `action` in `mode`.
    pub fn keys_for(&self, mode: Mode, action: &Action) -> Vec<KeyChord> {
        self.bindings
            .iter()
            .filter(|b| b.mode == mode && b.action == *action)
            .map(|b| b.key)
            .collect()
    }
}

/// `1 2 3 … 9` → `1–9` in the help.
fn compress_digits(keys: Vec<String>) -> Vec<String> {
    let digits = keys.len() > 2
        && keys
            .iter()
            .all(|k| k.len() == 1 && k.as_bytes()[0].is_ascii_digit());
    if digits {
        vec![format!("{}–{}", keys[0], keys[keys.len() - 1])]
    } else {
        keys
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn key_specs() {
        assert_eq!(KeyChord::parse("m"), Ok(KeyChord::ch('m')));
        assert_eq!(KeyChord::parse("G"), Ok(KeyChord::ch('G')));
        assert_eq!(KeyChord::parse("shift-g"), Ok(KeyChord::ch('G')));
        assert_eq!(KeyChord::parse("ctrl-c"), Ok(KeyChord::ctrl('c')));
        assert_eq!(KeyChord::parse("Ctrl-C"), Ok(KeyChord::ctrl('c')));
        assert_eq!(KeyChord::parse("C-x"), Ok(KeyChord::ctrl('x')));
        assert_eq!(KeyChord::parse("-"), Ok(KeyChord::ch('-')));
        assert_eq!(KeyChord::parse("ctrl--"), Ok(KeyChord::ctrl('-')));
        assert_eq!(KeyChord::parse("space"), Ok(KeyChord::ch(' ')));
        assert_eq!(
            KeyChord::parse("PgDn"),
            Ok(KeyChord::plain(KeyCode::PageDown))
        );
        assert_eq!(
            KeyChord::parse("shift-tab"),
            Ok(KeyChord::plain(KeyCode::BackTab))
        );
        assert_eq!(KeyChord::parse("f5"), Ok(KeyChord::plain(KeyCode::F(5))));
        assert_eq!(
            KeyChord::parse("alt-enter"),
            Ok(KeyChord {
                code: KeyCode::Enter,
                mods: KeyModifiers::ALT
            })
        );
        for bad in ["", "ctrl-", "nope", "f13", "ctrl-foo", "hyper-x"] {
            assert!(KeyChord::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn rebinding_moves_a_key() {
        let mut km = Keymap::default();
        km.rebind(Mode::Browse, &Action::ToggleBookmark, &[KeyChord::ch('m')]);
        let press = |c| KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
        assert_eq!(
            km.action(Mode::Browse, &press('m')),
            Some(Action::ToggleBookmark)
        );
        assert_eq!(km.action(Mode::Browse, &press('b')), None);
        km.rebind(Mode::Browse, &Action::Quit, &[KeyChord::ch('j')]);
        assert_eq!(
            km.action(Mode::Browse, &press('j')),
            Some(Action::Quit),
            "j moved to quit"
        );
        assert_eq!(km.action(Mode::Browse, &press('q')), None);
        assert_eq!(
            km.keys_for(Mode::Browse, &Action::Down).len(),
            2,
            "down keeps ↓ and Ctrl-n"
        );
    }

    proptest! {
        #[test]
        fn key_spec_parser_never_panics(s in any::<String>()) {
            let _ = KeyChord::parse(&s);
        }

        #[test]
        fn key_specs_round_trip(
            c in proptest::char::range('!', '~'),
            ctrl in any::<bool>(),
            alt in any::<bool>(),
            named in 0usize..20,
        ) {
            let names = [
                KeyCode::Enter, KeyCode::Esc, KeyCode::Tab, KeyCode::BackTab, KeyCode::Backspace,
                KeyCode::Delete, KeyCode::Insert, KeyCode::Up, KeyCode::Down, KeyCode::Left,
                KeyCode::Right, KeyCode::Home, KeyCode::End, KeyCode::PageUp, KeyCode::PageDown,
                KeyCode::F(1), KeyCode::F(12), KeyCode::Char(' '),
            ];
            let mut mods = KeyModifiers::NONE;
            if ctrl { mods |= KeyModifiers::CONTROL; }
            if alt { mods |= KeyModifiers::ALT; }
            let code = match names.get(named) {
                Some(k) => *k,
                None if ctrl => KeyCode::Char(c.to_ascii_lowercase()),
                None => KeyCode::Char(c),
            };
            let key = KeyChord { code, mods };
            prop_assert_eq!(KeyChord::parse(&key.spec()), Ok(key));
        }
    }

    fn press(code: KeyCode, mods: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, mods)
    }

    #[test]
    fn search_mode_types_letters_that_browse_mode_binds() {
        let km = Keymap::default();
        for c in ['j', 'k', 'q', 'g', 'G', '/', '?', ' '] {
            assert_eq!(
                km.action(Mode::Search, &press(KeyCode::Char(c), KeyModifiers::NONE)),
                Some(Action::Insert(c)),
                "{c}"
            );
        }
        assert_eq!(
            km.action(Mode::Browse, &press(KeyCode::Char('j'), KeyModifiers::NONE)),
            Some(Action::Down)
        );
    }

    #[test]
    fn shifted_letters_and_ctrl_keys() {
        let km = Keymap::default();
        assert_eq!(
            km.action(
                Mode::Browse,
                &press(KeyCode::Char('G'), KeyModifiers::SHIFT)
            ),
            Some(Action::Last)
        );
        assert_eq!(
            km.action(
                Mode::Browse,
                &press(KeyCode::Char('d'), KeyModifiers::CONTROL)
            ),
            Some(Action::HalfPageDown)
        );
        assert_eq!(
            km.action(
                Mode::Search,
                &press(KeyCode::Char('w'), KeyModifiers::CONTROL)
            ),
            Some(Action::DeleteWord)
        );
    }

    #[test]
    fn releases_are_ignored() {
        let km = Keymap::default();
        let mut ev = press(KeyCode::Char('j'), KeyModifiers::NONE);
        ev.kind = KeyEventKind::Release;
        assert_eq!(km.action(Mode::Browse, &ev), None);
    }

    #[test]
    fn help_lists_every_binding_of_a_mode() {
        let km = Keymap::default();
        let rows = km.help(Mode::Browse);
        let listed: usize = rows
            .iter()
            .map(|(k, _)| if k == &["1–9"] { 9 } else { k.len() })
            .sum();
        let bound = km
            .bindings()
            .iter()
            .filter(|b| b.mode == Mode::Browse)
            .count();
        assert_eq!(listed, bound);
        assert!(
            rows.iter()
                .any(|(k, d)| k.contains(&"q".to_string()) && d.contains("Quit"))
        );
    }
}
