//! Small helpers every layer uses: the one random generator, interval arithmetic, and numbers
//! as people read them.

pub mod numfmt;
pub mod rng;
pub mod sorted;
pub mod stats;
