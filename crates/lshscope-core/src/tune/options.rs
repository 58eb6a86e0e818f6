//! What to tune for: the options of a report and the checks that need nothing read.

use super::Tool;
use std::path::{Path, PathBuf};

use crate::error::check_unit;
use crate::minhash::tune::{Constraints, ProbabilityBound};
use crate::minhash::{Banding, SketchFamily};
use crate::terms::Setting::{
    Accept, Banding as GivenBanding, Budget, Export, FnWeight, FpWeight, MaxFalseRemoval,
    MinRecall, NumPerm, Pairs, Quantiles, Reject, Similarities, Threshold, Truth,
};
use crate::text::ShingleKind;
use crate::{Error, Result};

/// The default removal bound for tools that remove every candidate: pairs this far below the
/// threshold ([`TuneOptions::removal_bound`] says why) ...
const DEFAULT_REMOVAL_GAP: f64 = 0.3;
/// ... are removed with at most this probability.
const DEFAULT_MAX_FALSE_REMOVAL: f64 = 0.05;

/// Where the pair similarities that weight the corpus columns come from.
#[derive(Debug, Clone, PartialEq)]
pub enum PairSimilarities {
    /// The candidate pairs of a scan (`--pairs`): a pair file with a `jaccard` column. With
    /// the banding the scan ran with (`--scan-banding`), each pair counts 1/P₀(s) times
    /// ([`horvitz_thompson`](super::similarities::horvitz_thompson)), so the columns estimate all pairs, not only those found.
    ScanPairs {
        /// The pair file.
        path: PathBuf,
        /// The banding the scan ran with, when known: each pair is weighted by 1/P₀(s).
        scan_banding: Option<Banding>,
    },
    /// Pair similarities (`--similarities`), for example of random pairs: a pair file with a
    /// `jaccard` column, or one number per line.
    Similarities(PathBuf),
    /// A truth file (`--truth`): every pair at or above the join's threshold.
    Truth(PathBuf),
}

impl PairSimilarities {
    /// The file the similarities are read from.
    pub fn path(&self) -> &Path {
        match self {
            PairSimilarities::ScanPairs { path, .. } => path,
            PairSimilarities::Similarities(path) | PairSimilarities::Truth(path) => path,
        }
    }
}

/// What to tune for. [`TuneOptions::new`] gives the defaults of `lshscope tune`.
#[derive(Debug, Clone, PartialEq)]
pub struct TuneOptions {
    /// K: every banding considered has b·r ≤ K.
    pub num_perm: usize,
    /// The sketch family of the signatures (recorded in the report; the corpus columns
    /// count candidates of signatures in this family).
    pub family: SketchFamily,
    /// The Jaccard similarity t at which pairs count as duplicates. Without it only the
    /// constraint search and the given bandings run (they need no threshold).
    pub threshold: Option<f64>,
    /// datasketch's weights on the false-positive area ∫₀ᵗ P and the false-negative area
    /// ∫ₜ¹ (1 − P).
    pub fp_weight: f64,
    /// datasketch's weight on the false-negative area.
    pub fn_weight: f64,
    /// The P(t) the `recall` criterion must reach.
    pub min_recall: f64,
    /// Bounds on P at chosen similarities, for the `constraints` criterion.
    pub constraints: Constraints,
    /// Bandings to evaluate as they are (`given` rows).
    pub given: Vec<Banding>,
    /// Pair similarities that add the corpus columns.
    pub similarities: Option<PairSimilarities>,
    /// The `budget` criterion: the highest expected recall at t with at most this many
    /// expected candidates (needs `similarities`).
    pub budget: Option<f64>,
    /// Translate the chosen banding (the first row: `removal` when [`Self::removal_bound`]
    /// gives one, unless the `budget` row keeps that bound too; else `budget`, else
    /// `constraints`, else `recall`) into this tool's parameters.
    pub export: Option<Tool>,
    /// The shingles hashed, for the n-gram settings of the export.
    pub shingle: ShingleKind,
    /// Probabilities at which every row also reports the similarity s with P(s) = p.
    pub quantiles: Vec<f64>,
    /// For a tool that removes every candidate: the most a pair at this similarity may be
    /// removed ([`TuneOptions::removal_bound`] supplies the default).
    pub max_false_removal: Option<ProbabilityBound>,
}

impl TuneOptions {
    /// The defaults of `lshscope tune` at threshold t: K = 128, equal datasketch weights,
    /// P(t) ≥ 0.99 for the recall criterion, char:5 shingles, nothing else.
    pub fn new(threshold: f64) -> Self {
        TuneOptions {
            num_perm: 128,
            family: SketchFamily::Classic,
            threshold: Some(threshold),
            fp_weight: 0.5,
            fn_weight: 0.5,
            min_recall: 0.99,
            constraints: Constraints::default(),
            given: Vec::new(),
            similarities: None,
            budget: None,
            export: None,
            shingle: ShingleKind::Char(5),
            quantiles: Vec::new(),
            max_false_removal: None,
        }
    }

    /// The removal bound of the `removal` criterion: the one given, else, when the export tool
    /// removes every candidate, at most 5 % removal at t − 0.3 (at t = 0.8, pairs at J = 0.5,
    /// which differ in a third of their shingles, are then rarely removed, and K = 128 still
    /// reaches P(t) ≈ 0.9). `None` when nothing asks for it, and when constraints are given:
    /// they are the user's own bounds.
    pub fn removal_bound(&self) -> Option<ProbabilityBound> {
        if self.max_false_removal.is_some() {
            return self.max_false_removal;
        }
        if !self.constraints.is_empty() {
            return None;
        }
        let t = self.threshold?;
        let removes_all = self.export.is_some_and(|tool| !tool.verifies());
        removes_all.then(|| ProbabilityBound {
            similarity: (t - DEFAULT_REMOVAL_GAP).max(0.0),
            probability: DEFAULT_MAX_FALSE_REMOVAL,
        })
    }

    /// Checks what can be checked without reading anything.
    pub fn validate(&self) -> Result<()> {
        let k = self.num_perm;
        if k == 0 {
            return Err(Error::usage(format!("{NumPerm} must be at least 1")));
        }
        match self.threshold {
            Some(t) => check_unit(&Threshold.to_string(), t)?,
            None => {
                if self.constraints.is_empty() && self.given.is_empty() {
                    return Err(Error::usage(format!(
                        "give {Threshold} T, or constraints ({Reject}/{Accept}) or {GivenBanding} \
                         to evaluate without one",
                    )));
                }
                for (given, needs) in [
                    (
                        self.similarities.is_some(),
                        format!("{Pairs}, {Similarities} and {Truth} need"),
                    ),
                    (self.budget.is_some(), format!("{Budget} needs")),
                    (self.export.is_some(), format!("{Export} needs")),
                    (
                        self.max_false_removal.is_some(),
                        format!("{MaxFalseRemoval} needs"),
                    ),
                ] {
                    if given {
                        return Err(Error::usage(format!("{needs} {Threshold} T")));
                    }
                }
            }
        }
        check_unit(&MinRecall.to_string(), self.min_recall)?;
        if let Some(p) = self.quantiles.iter().find(|p| !(**p > 0.0 && **p < 1.0)) {
            return Err(Error::usage(format!(
                "{Quantiles} are probabilities strictly between 0 and 1, got {p}"
            )));
        }
        for (name, w) in [(FpWeight, self.fp_weight), (FnWeight, self.fn_weight)] {
            if !(w >= 0.0 && w.is_finite()) {
                return Err(Error::usage(format!(
                    "{name} must be a non-negative number, got {w}"
                )));
            }
        }
        if self.fp_weight + self.fn_weight == 0.0 {
            return Err(Error::usage(format!(
                "{FpWeight} and {FnWeight} cannot both be 0: nothing would be minimised",
            )));
        }
        for b in &self.given {
            if b.bands * b.rows > k {
                return Err(Error::usage(format!(
                    "{GivenBanding} {}x{} needs {} permutations but {NumPerm} is {k}: \
                     lower bands or rows, or raise {NumPerm}",
                    b.bands,
                    b.rows,
                    b.bands * b.rows
                )));
            }
        }
        Ok(())
    }
}
