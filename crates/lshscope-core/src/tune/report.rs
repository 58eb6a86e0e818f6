//! What a report holds: its rows, the corpora it was measured on, and the renaming of the
//! settings its text names for a face.

use super::{SeedCorpus, SeedSpread, ToolExport};

use serde::Serialize;

use crate::minhash::SketchFamily;
use crate::minhash::tune::{
    BoundCheck, Constraints, CorpusEstimate, CurveSummary, SampledIntervals,
};
use crate::terms::Setting::{self};

/// One row of the report: a banding and why it was picked.
#[derive(Debug, Clone, Serialize)]
pub struct TuneRow {
    /// Short key: `datasketch`, `recall`, `constraints`, `budget` or `given`.
    pub criterion: &'static str,
    /// What the criterion means, in words.
    pub description: String,
    /// The banding's S-curve figures at the threshold.
    #[serde(flatten)]
    pub curve: CurveSummary,
    /// Permutations computed but never banded: K − b·r, or 0 for a `--for` tool that computes
    /// only the hashes it bands ([`Tool::sizes_signature_from_banding`](super::export::Tool::sizes_signature_from_banding)).
    pub unused_permutations: usize,
    /// P at every constraint similarity, and whether each bound holds (with constraints).
    pub bounds: Vec<BoundCheck>,
    /// (p, s) with P(s) = p for each requested probability (`--quantiles`).
    pub quantiles: Vec<(f64, f64)>,
    /// Expected behaviour on the given similarities (with --pairs / --similarities).
    pub corpus: Option<CorpusEstimate>,
    /// 95 % intervals of `corpus` when the similarities are a weighted sample of pairs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sampled: Option<SampledIntervals>,
    /// The real candidate count on the corpus under each seed (with --corpus).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed_spread: Option<SeedSpread>,
    /// What to watch for with this banding, one sentence each.
    pub warnings: Vec<String>,
}

/// The corpus whose candidates were counted per seed (with --corpus).
#[derive(Debug, Clone, Serialize)]
pub struct SeedCorpusInfo {
    /// The corpus as the caller named it (a path).
    pub source: String,
    /// Documents in the corpus, and how many were counted (a uniform sample when fewer).
    pub population: usize,
    /// Documents counted on.
    pub documents: usize,
    /// The seeds the candidates were counted under, in order.
    pub seeds: Vec<u64>,
    /// Corpus pairs per sample pair: N(N−1) / (n(n−1)), 1 without sampling.
    pub pair_scale: f64,
}

impl SeedCorpusInfo {
    /// What the report says of the corpus `seeds` counted on.
    pub(super) fn of(seeds: &SeedCorpus) -> SeedCorpusInfo {
        SeedCorpusInfo {
            source: seeds.source.clone(),
            population: seeds.population,
            documents: seeds.documents,
            seeds: seeds.seeds.clone(),
            pair_scale: seeds.pair_scale(),
        }
    }
}

/// The pair similarities the corpus columns are computed on.
#[derive(Debug, Clone, Serialize)]
pub struct CorpusInfo {
    /// The file they came from.
    pub source: String,
    /// Their number (a weighted sum with [`horvitz_thompson`](super::similarities::horvitz_thompson) weights).
    pub pairs: f64,
    /// Their weighted number at or above the threshold t.
    pub pairs_at_or_above_threshold: f64,
    /// For a weighted sample: the rows sampled, how many reach t, and the 95 % interval of
    /// `pairs_at_or_above_threshold`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sample: Option<SampleInfo>,
    /// The lowest Jaccard of a pairs file that a scan's --threshold cut off there: the file
    /// holds no pair below it, so every count and corpus column, corpus-wide estimates
    /// included, covers only pairs at or above it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub similarity_floor: Option<f64>,
}

/// What a weighted sample of pairs holds at the threshold.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct SampleInfo {
    /// Rows of the sample.
    pub sampled_pairs: usize,
    /// Rows of the sample at or above t.
    pub sampled_at_or_above: usize,
    /// 95 % interval of the corpus's pairs at or above t.
    pub pairs_at_or_above_interval: (f64, f64),
}

/// Everything `lshscope tune` reports.
#[derive(Debug, Clone, Serialize)]
pub struct TuneReport {
    /// K, the signature length every banding fits in.
    pub num_perm: usize,
    /// The sketch family of the signatures.
    pub family: SketchFamily,
    /// The threshold t the rows were computed at; `None` when none was given.
    pub threshold: Option<f64>,
    /// datasketch's weight on the false-positive area.
    pub fp_weight: f64,
    /// datasketch's weight on the false-negative area.
    pub fn_weight: f64,
    /// The P(t) the `recall` criterion had to reach.
    pub min_recall: f64,
    /// The bounds the `constraints` criterion searched with.
    pub constraints: Constraints,
    /// The pair similarities the corpus columns came from (with --pairs, --similarities or --truth).
    pub corpus: Option<CorpusInfo>,
    /// The corpus the candidates were counted on per seed (with --corpus).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed_corpus: Option<SeedCorpusInfo>,
    /// In order: removal, budget, constraints, recall, datasketch, closest, then the given
    /// bandings, except that a budget row that keeps the removal bound too goes before
    /// removal; a criterion that finds nothing has no row.
    pub rows: Vec<TuneRow>,
    /// Criteria that found no banding, with the reason.
    pub not_found: Vec<String>,
    /// The criterion of the row the export uses (the first row: see `rows` for the order).
    pub chosen: &'static str,
    /// The chosen banding in the terms of the tool asked for (`--for`); `None` without one.
    pub export: Option<ToolExport>,
    /// Remarks on the report as a whole, one sentence each.
    pub notes: Vec<String>,
}

impl TuneReport {
    /// The report with `name`'s names for the settings its text names: the rows'
    /// descriptions and warnings, the criteria not found, the notes, and the export's snippet
    /// (whose comments may advise a setting) and notes.
    /// The engine writes them with [`Setting`] tokens; a face calls this before it shows or
    /// serialises the report ([`crate::terms::render_neutral`] gives the engine's own names).
    pub fn name_settings<N: AsRef<str>>(&mut self, name: impl Fn(Setting) -> N) {
        let rename = |text: &mut String| *text = crate::terms::render(text, &name);
        for row in &mut self.rows {
            rename(&mut row.description);
            row.warnings.iter_mut().for_each(rename);
        }
        self.not_found.iter_mut().for_each(rename);
        self.notes.iter_mut().for_each(rename);
        if let Some(export) = &mut self.export {
            rename(&mut export.snippet);
            export.notes.iter_mut().for_each(rename);
        }
    }
}
