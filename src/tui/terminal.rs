//! Entering and leaving the terminal's full-screen mode, in one place for the explorer and the
//! learn mode: raw mode, the alternate screen, mouse reporting when asked, and a panic hook
//! that restores all of it before the panic message prints.

use ratatui::DefaultTerminal;
use ratatui::crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::execute;

/// Whether the screen reports mouse clicks and wheel turns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mouse {
    On,
    Off,
}

/// Enters raw mode and the alternate screen (and mouse reporting for [`Mouse::On`]).
/// ratatui's hook (installed by its init) restores raw mode and the screen, then prints the
/// message; ours runs first to turn mouse reporting off too. A panic on a worker thread
/// would leave the UI drawing on a restored terminal, so any panic ends the process.
pub fn setup(mouse: Mouse) -> std::io::Result<DefaultTerminal> {
    let terminal = ratatui::try_init()?;
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if mouse == Mouse::On {
            let _ = execute!(std::io::stdout(), DisableMouseCapture);
        }
        previous(info);
        std::process::exit(101);
    }));
    if mouse == Mouse::On {
        let _ = execute!(std::io::stdout(), EnableMouseCapture);
    }
    Ok(terminal)
}

/// Leaves what [`setup`] entered.
pub fn restore(mouse: Mouse) {
    if mouse == Mouse::On {
        let _ = execute!(std::io::stdout(), DisableMouseCapture);
    }
    ratatui::restore();
}
