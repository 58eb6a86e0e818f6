//! lshscope: a workbench for MinHash + LSH near-duplicate detection.
//!
//! The engine (everything here but `cli`, `tui` and `plot`) is plain library code: it never
//! prints or touches a terminal, takes option structs, returns values or a typed [`Error`], and
//! reports progress (and takes cancellation) through a [`jobs::Progress`] handle the caller
//! passes in.
//!
//! ```text
//! Corpus ─▶ Index (ShingleSets + Signatures) ─▶ find_candidates(Banding) ─▶ verify ─▶ pairs
//!   corpus::read_corpus   minhash::build_index     minhash::find_candidates   minhash::verify
//!            └──────────────── pipeline::Pipeline: the same four phases, timed ───────────┘
//! ```
//!
//! # Features
//!
//! All three are on by default; without them the crate is the engine alone, with no
//! command-line, terminal or plotting dependency (`default-features = false`).
//!
//! - `cli`: the `lshscope` binary and `cli` (clap, completions, man page, progress bars,
//!   Ctrl-C). Turns on `tui` and `plot`, since `explore`, `learn` and `plot` are subcommands.
//! - `tui`: the ratatui explorer, `tui`. Turns on `plot` for its SVG/PNG exports.
//! - `plot`: SVG/PNG export of S-curves and histograms with plotters, `plot`.
//!
//! # Example
//!
//! Near-duplicate pairs of a few documents: read, index, band, verify.
//!
//! ```
//! use lshscope::corpus::Corpus;
//! use lshscope::jobs::Progress;
//! use lshscope::minhash::{Banding, BandingOptions, IndexOptions, build_index, find_candidates, verify};
//!
//! let corpus = Corpus::from_pairs([
//!     ("a", "How do I reset my password if I no longer have access to my email?"),
//!     ("b", "How can I reset my password if I no longer have access to my email?"),
//!     ("c", "What is the fastest way to boil an egg so the yolk stays soft?"),
//! ]);
//! let progress = Progress::new();
//! let index = build_index(&corpus, &IndexOptions::default(), &progress)?;
//! // 32 bands of 4 rows: P(candidate) is 0.5 near Jaccard 0.4 and above 0.99 at 0.7.
//! let banding = BandingOptions { banding: Banding::new(32, 4, 128)?, max_bucket: None };
//! let candidates = find_candidates(&index.signatures, &banding, &progress)?;
//! let pairs = verify(&index, &candidates.pairs, 0.7, &progress)?;
//!
//! assert_eq!(pairs.len(), 1);
//! let (a, b) = (corpus.id(pairs[0].a as usize), corpus.id(pairs[0].b as usize));
//! assert_eq!((a, b), ("a", "b"));
//! assert!(pairs[0].jaccard >= 0.7 && pairs[0].jaccard < 1.0);
//! # Ok::<(), lshscope::Error>(())
//! ```
//!
//! [`pipeline::Pipeline`] runs the same phases with timings; `examples/dedup_pairs.rs` reads a
//! file with it.

pub mod analysis;
pub mod atomic;
#[cfg(feature = "cli")]
pub mod cli;
pub mod corpus;
pub mod diff;
pub mod error;
pub mod excerpt;
pub mod jobads;
pub mod jobs;
pub mod learn;
pub mod minhash;
pub mod numfmt;
pub mod online;
pub mod pairfile;
pub mod pairs_parquet;
pub mod pipeline;
#[cfg(feature = "plot")]
pub mod plot;
pub mod rng;
pub mod similarity;
pub mod stats;
pub mod synth;
pub mod templated;
pub mod text;
#[cfg(feature = "tui")]
pub mod tui;
pub mod tune;

pub use error::{Error, Result};
