//! Synthetic corpora with planted near-duplicates and their truth, for `lshscope gen`, the
//! benchmarks and the tests: pseudo-word documents ([`words`]), job ads a person can judge
//! ([`jobads`]), and template families shaped like real dumps ([`templated`]).

pub mod jobads;
pub mod templated;
pub mod words;
