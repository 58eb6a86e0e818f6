//! [`Clock`]: how the explorer reports the time its work took. Measured durations differ from
//! run to run; a fixed clock keeps the screens that show them the same (the tests' snapshots).

use std::time::Duration;

/// How the explorer reports the time its work took: as measured, or as one fixed duration so
/// that screens showing it are the same on every run (the tests' snapshots).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Clock {
    #[default]
    Measured,
    Fixed(Duration),
}

impl Clock {
    /// The duration to report for one that took `measured`.
    pub fn report(self, measured: Duration) -> Duration {
        match self {
            Clock::Measured => measured,
            Clock::Fixed(fixed) => fixed,
        }
    }
}
