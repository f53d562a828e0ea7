//! Colours and emphasis by role. The default reads on dark and light
//! terminals alike: it uses the terminal's own foreground and background and
//! a few of the sixteen named colours, which every terminal theme adapts.

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
