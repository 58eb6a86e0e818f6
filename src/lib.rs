//! lshscope: a workbench for MinHash + LSH near-duplicate detection.
//!
//! The engine (everything here but `tui` and `cli`) is plain library code: it never prints or
//! touches a terminal, takes option structs, returns values or a typed [`Error`], and reports
//! progress through a [`jobs::Progress`] handle the caller passes in.
//!
//! ```text
//! Corpus ─▶ Index (ShingleSets + Signatures) ─▶ find_candidates(Banding) ─▶ verify ─▶ pairs
//! ```

pub mod analysis;
pub mod atomic;
pub mod cli;
pub mod corpus;
pub mod error;
pub mod jobs;
pub mod learn;
pub mod minhash;
pub mod numfmt;
pub mod pairfile;
pub mod pairs_parquet;
pub mod plot;
pub mod rng;
pub mod scan;
pub mod similarity;
pub mod synth;
pub mod templated;
pub mod text;
pub mod tui;
pub mod tune;

pub use error::{Error, Result};
