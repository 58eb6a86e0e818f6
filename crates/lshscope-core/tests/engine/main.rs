//! The engine's integration tests: one binary, one module per area, using only
//! `lshscope_core` (no terminal, command-line or plotting crate is compiled for them).

mod corpora;

mod diff_engine;
mod families;
mod family_curve;
mod fuzz_readers;
mod import_engine;
mod input_counts;
mod labels;
mod learn_engine;
mod pipeline;
mod planted_recall;
mod profiles;
mod sampled_candidates;
mod scurve;
mod statistics;
mod stream_signatures;
mod truth;
mod truth_intervals;
mod verified_exact;
