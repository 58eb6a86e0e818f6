//! Colours, or their monochrome stand-ins. With `NO_COLOR` or `--color never` every highlight
//! is carried by reverse video, bold or underline instead of colour, so nothing that matters
//! disappears on a monochrome terminal.

use ratatui::style::{Color, Modifier, Style};
use ratatui::symbols::Marker;

use lshscope_core::diff::{Kind, SegmentKind};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    pub mono: bool,
}

/// Colours of pinned curves, in pin order.
const PIN_COLORS: [Color; 6] = [
    Color::Magenta,
    Color::Yellow,
    Color::Green,
    Color::LightRed,
    Color::LightBlue,
    Color::White,
];

/// Maximum number of pinned curves (one colour each).
pub const MAX_PINS: usize = PIN_COLORS.len();

impl Theme {
    pub fn new(mono: bool) -> Self {
        Theme { mono }
    }

    fn fg(&self, color: Color) -> Style {
        if self.mono {
            Style::default()
        } else {
            Style::default().fg(color)
        }
    }

    pub fn color(&self, color: Color) -> Color {
        if self.mono { Color::Reset } else { color }
    }

    pub fn title(&self) -> Style {
        Style::default().add_modifier(Modifier::BOLD)
    }

    /// Border of the focused panel.
    pub fn focused_border(&self) -> Style {
        if self.mono {
            Style::default().add_modifier(Modifier::BOLD)
        } else {
            Style::default().fg(Color::Cyan)
        }
    }

    pub fn border(&self) -> Style {
        self.fg(Color::DarkGray)
    }

    pub fn dim(&self) -> Style {
        if self.mono {
            Style::default()
        } else {
            Style::default().fg(Color::DarkGray)
        }
    }

    /// Characters covered by shingles both documents share.
    pub fn shared(&self) -> Style {
        if self.mono {
            Style::default().add_modifier(Modifier::REVERSED)
        } else {
            Style::default().bg(Color::Yellow).fg(Color::Black)
        }
    }

    /// A stretch of one text in the viewer's diff mode ([`lshscope_core::diff::TextDiff::segments`]):
    /// unchanged text dimmed, each kind of difference its own background; in monochrome,
    /// reverse video for what only one side has, underline added for changes and moves.
    pub fn diff(&self, kind: SegmentKind) -> Style {
        let on = |bg: Color| Style::default().bg(bg).fg(Color::Black);
        match (kind, self.mono) {
            (SegmentKind::Row { kind, .. }, mono) => match (kind, mono) {
                (Kind::Equal, _) => self.dim(),
                (Kind::Deleted, false) => on(Color::LightRed),
                (Kind::Inserted, false) => on(Color::LightGreen),
                (Kind::Deleted | Kind::Inserted, true) => {
                    Style::default().add_modifier(Modifier::REVERSED)
                }
                (Kind::Changed, false) => on(Color::Yellow),
                (Kind::Changed, true) => {
                    Style::default().add_modifier(Modifier::REVERSED | Modifier::UNDERLINED)
                }
                (Kind::MovedOut { .. } | Kind::MovedIn { .. }, false) => on(Color::LightBlue),
                (Kind::MovedOut { .. } | Kind::MovedIn { .. }, true) => {
                    Style::default().add_modifier(Modifier::UNDERLINED)
                }
            },
            (SegmentKind::Gap, _) => self.dim(),
            (SegmentKind::Uncompared, _) => self.dim().add_modifier(Modifier::ITALIC),
        }
    }

    /// The selected row of a table.
    pub fn selected(&self) -> Style {
        if self.mono {
            Style::default().add_modifier(Modifier::REVERSED | Modifier::BOLD)
        } else {
            Style::default().bg(Color::Blue).fg(Color::White)
        }
    }

    pub fn key(&self) -> Style {
        if self.mono {
            Style::default().add_modifier(Modifier::BOLD)
        } else {
            Style::default()
                .fg(Color::Cyan)
                .add_modifier(Modifier::BOLD)
        }
    }

    pub fn warning(&self) -> Style {
        if self.mono {
            Style::default().add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
        } else {
            Style::default()
                .fg(Color::Yellow)
                .add_modifier(Modifier::BOLD)
        }
    }

    pub fn error(&self) -> Style {
        if self.mono {
            Style::default().add_modifier(Modifier::BOLD | Modifier::REVERSED)
        } else {
            Style::default()
                .fg(Color::LightRed)
                .add_modifier(Modifier::BOLD)
        }
    }

    pub fn good(&self) -> Style {
        if self.mono {
            Style::default().add_modifier(Modifier::BOLD)
        } else {
            Style::default().fg(Color::Green)
        }
    }

    pub fn curve(&self) -> Color {
        self.color(Color::Cyan)
    }

    pub fn pin(&self, i: usize) -> Color {
        self.color(PIN_COLORS[i % PIN_COLORS.len()])
    }

    /// Pinned curves use dots in monochrome so they differ from the current (Braille) curve.
    pub fn pin_marker(&self) -> Marker {
        if self.mono {
            Marker::Dot
        } else {
            Marker::Braille
        }
    }

    /// A second sketch family's measured curve (`P`): its own colour, and in monochrome its
    /// own marker (◇) tells it apart.
    pub fn family(&self) -> Style {
        Style::default().fg(self.color(Color::LightMagenta))
    }

    pub fn threshold(&self) -> Color {
        self.color(Color::LightRed)
    }

    pub fn bars(&self) -> Color {
        self.color(Color::Blue)
    }

    pub fn bars_selected(&self) -> Color {
        self.color(Color::LightCyan)
    }

    pub fn overlay_curve(&self) -> Color {
        self.color(Color::Yellow)
    }

    pub fn label(&self, label: lshscope_core::analysis::labels::Label) -> Style {
        use lshscope_core::analysis::labels::Label;
        if self.mono {
            return Style::default().add_modifier(Modifier::BOLD);
        }
        match label {
            Label::Duplicate => Style::default().fg(Color::Green),
            Label::NotDuplicate => Style::default().fg(Color::LightRed),
            Label::Unsure => Style::default().fg(Color::Yellow),
        }
    }
}
