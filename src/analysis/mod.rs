//! Analyses of verified pairs: similarity histograms, human labels.

pub mod histogram;
pub mod labels;
