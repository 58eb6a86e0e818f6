//! lshscope's faces over the engine ([`lshscope_core`]): the command line ([`cli`]), the
//! terminal explorer ([`tui`]) and SVG/PNG figures ([`plot`]). They parse, call the engine and
//! render; every algorithm lives in the engine crate.

pub mod cli;
pub mod plot;
pub mod tui;
