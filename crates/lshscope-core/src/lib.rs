//! lshscope-core: the engine of lshscope, a workbench for MinHash + LSH near-duplicate
//! detection.
//!
//! It is plain library code: it never prints or touches a terminal, takes option structs,
//! returns values or a typed [`Error`] that speaks the engine's terms (the faces add their flag
//! names), and reports progress (and takes cancellation) through a [`jobs::Progress`] handle the
//! caller passes in. The faces are other crates: the `lshscope` binary (command line, explorer,
//! plots) and the Python package; none of their dependencies is in this crate's tree.
//!
//! ```text
//! Corpus ─▶ Index (ShingleSets + Signatures) ─▶ find_candidates(Banding) ─▶ verify ─▶ pairs
//!   corpus::read_corpus   minhash::build_index     minhash::find_candidates   minhash::verify
//!            └──────────────── pipeline::Pipeline: the same four phases, timed ───────────┘
//! ```
//!
//! # Layout
//!
//! - [`corpus`] readers, [`text`] normalization and shingling, [`minhash`] hash families,
//!   banding, verification and the S-curve;
//! - [`analysis`] truth, recall, histograms, labels, clusters; [`pipeline`] the one timed
//!   sequence; [`tune`] the tuner and its hand-off to other tools; [`online`] the index file;
//!   [`diff`] the pair diff; [`learn`] the teaching walkthrough's numbers;
//! - [`io`] atomic writes, compression, the Parquet column toolkit, excerpts in messages;
//!   [`pairs`] pair files (read, write, Parquet); [`synthetic`] corpus generators;
//!   [`util`] the random generator, interval arithmetic and number formatting;
//! - [`terms`] the settings messages name, for each face to put its own names in (the
//!   command line's flags, Python's keywords); [`error`] the typed error.
//!
//! # Example
//!
//! Near-duplicate pairs of a few documents: read, index, band, verify.
//!
//! ```
//! use lshscope_core::corpus::Corpus;
//! use lshscope_core::jobs::Progress;
//! use lshscope_core::minhash::{Banding, BandingOptions, IndexOptions, build_index, find_candidates, verify};
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
//! # Ok::<(), lshscope_core::Error>(())
//! ```
//!
//! [`pipeline::Pipeline`] runs the same phases with timings; `examples/dedup_pairs.rs` reads a
//! file with it.

#![warn(missing_docs)]

pub mod analysis;
pub mod corpus;
pub mod diff;
pub mod error;
pub mod io;
pub mod jobs;
pub mod learn;
pub mod minhash;
pub mod online;
pub mod pairs;
pub mod pipeline;
pub mod synthetic;
pub mod terms;
pub mod text;
pub mod tune;
pub mod util;

pub use error::{Error, Result};
