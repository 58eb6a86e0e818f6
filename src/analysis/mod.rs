//! Analyses on top of the engine: ground truth, measured recall.

pub mod recall;
pub mod truth;
