//! Colours and emphasis by role. The default reads on dark and light
//! terminals alike: it uses the terminal's own foreground and background and
//! a few of the sixteen named colours, which every terminal theme adapts.
//! With `NO_COLOR` set, [`Theme::without_color`] keeps only bold, reverse,
//! underline and dim.

use ratatui::style::{Color, Modifier, Style};

/// Styles by role.
#[derive(Clone, Debug, PartialEq)]
pub struct Theme {
    /// The selected row.
    pub selection: Style,
    /// Matched characters and query words.
    pub highlight: Style,
    /// The marks column.
    pub marks: Style,
    /// Secondary text: metadata, hints, counts.
    pub dim: Style,
    /// The border of the focused pane.
    pub focus: Style,
    /// Inline math.
    pub math: Style,
    /// Code (`\texttt`).
    pub code: Style,
    /// Link text.
    pub link: Style,
}

impl Default for Theme {
    fn default() -> Self {
        Theme {
            selection: Style::new().add_modifier(Modifier::REVERSED),
            highlight: Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
            marks: Style::new().fg(Color::Yellow),
            dim: Style::new().add_modifier(Modifier::DIM),
            focus: Style::new().fg(Color::Cyan),
            math: Style::new().fg(Color::Cyan),
            code: Style::new().fg(Color::Green),
            link: Style::new()
                .fg(Color::Blue)
                .add_modifier(Modifier::UNDERLINED),
        }
    }
}

impl Theme {
    /// The roles' names, as `config.toml` writes them.
    pub const ROLES: [&'static str; 8] = [
        "selection",
        "highlight",
        "marks",
        "dim",
        "focus",
        "math",
        "code",
        "link",
    ];
    /// What each role colours, in the order of [`Theme::ROLES`].
    pub const ROLE_DOCS: [&'static str; 8] = [
        "the selected row",
        "matched characters and query words",
        "the bookmark and read marks",
        "secondary text: metadata, hints, counts",
        "the border of the focused pane",
        "inline math in abstracts",
        "code in abstracts",
        "links",
    ];

    /// The style of a role by name.
    pub fn role_mut(&mut self, role: &str) -> Option<&mut Style> {
        Some(match role {
            "selection" => &mut self.selection,
            "highlight" => &mut self.highlight,
            "marks" => &mut self.marks,
            "dim" => &mut self.dim,
            "focus" => &mut self.focus,
            "math" => &mut self.math,
            "code" => &mut self.code,
            "link" => &mut self.link,
            _ => return None,
        })
    }

    /// A role's style as a `config.toml` value.
    pub fn spec(&self, role: &str) -> String {
        let mut copy = self.clone();
        let Some(style) = copy.role_mut(role).map(|s| *s) else {
            return String::new();
        };
        let mut parts = Vec::new();
        let name = |c: Color| match c {
            Color::Rgb(r, g, b) => format!("\"#{r:02x}{g:02x}{b:02x}\""),
            other => format!("\"{}\"", format!("{other:?}").to_lowercase()),
        };
        if let Some(fg) = style.fg {
            parts.push(format!("fg = {}", name(fg)));
        }
        if let Some(bg) = style.bg {
            parts.push(format!("bg = {}", name(bg)));
        }
        for (m, n) in [
            (Modifier::BOLD, "bold"),
            (Modifier::ITALIC, "italic"),
            (Modifier::UNDERLINED, "underline"),
            (Modifier::DIM, "dim"),
            (Modifier::REVERSED, "reversed"),
        ] {
            if style.add_modifier.contains(m) {
                parts.push(format!("{n} = true"));
            }
        }
        format!("{{ {} }}", parts.join(", "))
    }

    /// The theme with every colour removed; emphasis by modifiers only, and
    /// roles that relied on colour alone get one.
    pub fn without_color(&self) -> Theme {
        let strip = |s: Style, fallback: Modifier| {
            let mut t = Style::new().add_modifier(s.add_modifier);
            if t.add_modifier.is_empty() {
                t = t.add_modifier(fallback);
            }
            t
        };
        Theme {
            selection: strip(self.selection, Modifier::REVERSED),
            highlight: strip(self.highlight, Modifier::BOLD),
            marks: strip(self.marks, Modifier::BOLD),
            dim: strip(self.dim, Modifier::DIM),
            focus: strip(self.focus, Modifier::BOLD),
            math: strip(self.math, Modifier::ITALIC),
            code: strip(self.code, Modifier::BOLD),
            link: strip(self.link, Modifier::UNDERLINED),
        }
    }
}

/// True when the `NO_COLOR` convention asks for no colour.
pub fn no_color_env() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_color_has_no_colour_left() {
        let t = Theme::default().without_color();
        for role in Theme::ROLES {
            let mut t = t.clone();
            let s = *t.role_mut(role).unwrap();
            assert_eq!((s.fg, s.bg), (None, None), "{role}");
            assert!(!s.add_modifier.is_empty(), "{role} still stands out");
        }
    }
}
