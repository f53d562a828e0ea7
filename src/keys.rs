//! Keys to actions.
//!
//! One table maps a key in a mode to an [`Action`]; the reader looks keys up
//! in it and the help overlay lists it, so the two never disagree. In search
//! mode every printable key not in the table edits the query, so `j`, `k`
//! and `q` type letters there.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use crate::app::{Action, Mode};

/// A key with its modifiers, as bound in the table.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Key {
    /// The key.
    pub code: KeyCode,
    /// Ctrl, Alt (Shift is folded into the character for letters).
    pub mods: KeyModifiers,
}

impl Key {
    /// A plain key.
    pub const fn plain(code: KeyCode) -> Key {
        Key {
            code,
            mods: KeyModifiers::NONE,
        }
    }

    /// A character key.
    pub const fn ch(c: char) -> Key {
        Key::plain(KeyCode::Char(c))
    }

    /// Ctrl plus a character.
    pub const fn ctrl(c: char) -> Key {
        Key {
            code: KeyCode::Char(c),
            mods: KeyModifiers::CONTROL,
        }
    }

    /// The key of a terminal key event, normalised: Shift is dropped from
    /// characters (`G` arrives as Shift+`G`) and Ctrl letters are lower case.
    pub fn from_event(ev: &KeyEvent) -> Key {
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
        Key { code, mods }
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

/// One row of the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Binding {
    /// The mode it applies in.
    pub mode: Mode,
    /// The key.
    pub key: Key,
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
    let browse: &[(Key, Action)] = &[
        (Key::ch('j'), A::Down),
        (Key::plain(K::Down), A::Down),
        (Key::ctrl('n'), A::Down),
        (Key::ch('k'), A::Up),
        (Key::plain(K::Up), A::Up),
        (Key::ctrl('p'), A::Up),
        (Key::plain(K::PageDown), A::PageDown),
        (Key::ctrl('d'), A::HalfPageDown),
        (Key::plain(K::PageUp), A::PageUp),
        (Key::ctrl('u'), A::HalfPageUp),
        (Key::ch('g'), A::First),
        (Key::plain(K::Home), A::First),
        (Key::ch('G'), A::Last),
        (Key::plain(K::End), A::Last),
        (Key::ch(' '), A::ScrollPageDown),
        (Key::ch('J'), A::ScrollDown),
        (Key::ch('K'), A::ScrollUp),
        (Key::plain(K::Tab), A::ToggleFocus),
        (Key::ch('n'), A::NextMatch),
        (Key::ch('N'), A::PrevMatch),
        (Key::ch('o'), A::OpenLink),
        (Key::ch('y'), A::CopyLink),
        (Key::ch('1'), A::ChooseLink(1)),
        (Key::ch('2'), A::ChooseLink(2)),
        (Key::ch('3'), A::ChooseLink(3)),
        (Key::ch('4'), A::ChooseLink(4)),
        (Key::ch('5'), A::ChooseLink(5)),
        (Key::ch('6'), A::ChooseLink(6)),
        (Key::ch('7'), A::ChooseLink(7)),
        (Key::ch('8'), A::ChooseLink(8)),
        (Key::ch('9'), A::ChooseLink(9)),
        (Key::ch('b'), A::ToggleBookmark),
        (Key::ch('r'), A::ToggleRead),
        (Key::ch('v'), A::CycleView),
        (Key::ch('R'), A::MarkAllRead),
        (Key::ch('u'), A::Undo),
        (Key::ctrl('r'), A::Redo),
        (Key::ch('/'), A::StartSearch),
        (Key::ctrl('t'), A::ToggleScope),
        (Key::ch('?'), A::ToggleHelp),
        (Key::ch('q'), A::Quit),
        (Key::ctrl('c'), A::Quit),
    ];
    let search: &[(Key, Action)] = &[
        (Key::plain(K::Enter), A::AcceptSearch),
        (Key::plain(K::Esc), A::CancelSearch),
        (Key::plain(K::Backspace), A::Backspace),
        (Key::plain(K::Delete), A::DeleteForward),
        (Key::ctrl('w'), A::DeleteWord),
        (Key::ctrl('u'), A::ClearQuery),
        (Key::plain(K::Left), A::CursorLeft),
        (Key::plain(K::Right), A::CursorRight),
        (Key::plain(K::Home), A::CursorHome),
        (Key::plain(K::End), A::CursorEnd),
        (Key::plain(K::Down), A::Down),
        (Key::ctrl('n'), A::Down),
        (Key::plain(K::Up), A::Up),
        (Key::ctrl('p'), A::Up),
        (Key::plain(K::PageDown), A::PageDown),
        (Key::plain(K::PageUp), A::PageUp),
        (Key::ctrl('t'), A::ToggleScope),
        (Key::ctrl('c'), A::Quit),
    ];
    let help: &[(Key, Action)] = &[
        (Key::ch('?'), A::ToggleHelp),
        (Key::plain(K::Esc), A::ToggleHelp),
        (Key::ch('q'), A::ToggleHelp),
        (Key::ch('j'), A::Down),
        (Key::plain(K::Down), A::Down),
        (Key::ch('k'), A::Up),
        (Key::plain(K::Up), A::Up),
        (Key::ctrl('c'), A::Quit),
    ];
    let confirm: &[(Key, Action)] = &[
        (Key::ch('y'), A::ConfirmYes),
        (Key::plain(K::Enter), A::ConfirmYes),
        (Key::ch('n'), A::ConfirmNo),
        (Key::plain(K::Esc), A::ConfirmNo),
        (Key::ch('q'), A::ConfirmNo),
        (Key::ctrl('c'), A::Quit),
    ];
    [
        (Mode::Browse, browse),
        (Mode::Search, search),
        (Mode::Help, help),
        (Mode::Confirm, confirm),
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
        let key = Key::from_event(ev);
        if let Some(b) = self
            .bindings
            .iter()
            .find(|b| b.mode == mode && b.key == key)
        {
            return Some(b.action.clone());
        }
        match (mode, key.code) {
            (Mode::Search, KeyCode::Char(c))
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
