//! Analyses on top of the engine: ground truth and measured recall, similarity histograms,
//! human labels, clusters and the chaining audit, and other tools' results read back
//! ([`import`]).

pub mod blocked;
pub mod center;
pub mod clusters;
pub mod components;
pub mod cost;
pub mod dedup;
pub mod family_curve;
pub mod histogram;
pub mod import;
pub mod labels;
pub mod recall;
pub mod redraws;
pub mod sampled;
pub mod shingle_advice;
pub mod stratified;
pub mod truth;
