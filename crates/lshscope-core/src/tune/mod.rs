//! The tuner's report: for K permutations and a threshold t, the banding (b, r) each criterion
//! picks (datasketch's, a recall target, constraints, a candidate budget, bandings given by
//! the user), each with its S-curve summary and, when pair similarities of a corpus are given,
//! the expected candidates, recall and precision on them; plus the chosen banding in another
//! tool's terms ([`export`]).
//!
//! The curve math and the searches live in [`crate::minhash::tune`]; this module decides what
//! a report holds. `lshscope tune` parses its flags into [`TuneOptions`], calls
//! [`build_report`] and renders the [`TuneReport`] as a table, CSV or JSON. Messages and notes
//! name the options as [`crate::terms::Setting`] tokens; a face names them its own way
//! ([`TuneReport::name_settings`]).
//!
//! The files: `options.rs` (what to tune for), `report.rs` (what a report holds),
//! `similarities.rs` (the pair similarities and samples behind the corpus columns), `notes.rs`
//! (the notes that explain the choices), and here the report's steps.

pub mod export;
pub mod seeds;

mod criteria;
mod notes;
mod options;
mod report;
mod similarities;

use crate::jobs::Progress;
use crate::minhash::{Banding, SketchFamily};
use crate::terms::Setting::{Budget, Corpus, Pairs, Similarities};
use crate::{Error, Result};
use criteria::{Criteria, Picks};
use notes::{removal_export_note, sampled_seeds_note, seed_spread_warning, without_threshold_note};
pub use options::{PairSimilarities, TuneOptions};
pub use report::{CorpusInfo, SampleInfo, SeedCorpusInfo, TuneReport, TuneRow};
use similarities::{Evidence, too_few_sampled_note, unweighted_scan_pairs_note};
pub use similarities::{
    InclusionWeighted, THRESHOLDED_PAIRS_HINT, horvitz_thompson, thresholded_floor,
};

pub use export::{Tool, ToolExport, export_for};
pub use seeds::{SeedCorpus, SeedSpread};

/// The largest K searched for when the constraints need more permutations than given.
const MAX_NUM_PERM_SEARCHED: usize = 2048;

/// Reads the similarities (if any), then computes every row. Errors name the option or the
/// file, line and column.
pub fn build_report(options: &TuneOptions) -> Result<TuneReport> {
    build_report_with(options, None, None, &Progress::new())
}

/// [`build_report`], with every row's real candidate count per seed on `seeds`, and the
/// budget held for the worst seed. `tool_seeds`: the same documents and seeds in the family
/// of the `--for` tool when it is not the tuning's ([`SeedCorpus::in_family`]); the export
/// then says what that family counts at its banding. `progress` cancels the counting.
///
/// The steps: read the pair similarities (`Evidence::read`), let each criterion pick its
/// row (`Criteria::pick`), export the first row, count every row on the seeds, and say in
/// notes what the numbers rest on.
pub fn build_report_with(
    options: &TuneOptions,
    seeds: Option<&SeedCorpus>,
    tool_seeds: Option<&SeedCorpus>,
    progress: &Progress,
) -> Result<TuneReport> {
    options.validate()?;
    let k = options.num_perm;
    let threshold = options.threshold;
    // Everything that needs t (similarities, budget, export) was refused without one.
    let t = threshold.unwrap_or(f64::NAN);
    let evidence = match &options.similarities {
        Some(source) => Some(Evidence::read(source, t)?),
        None => None,
    };
    check_budget(options.budget, evidence.is_some() || seeds.is_some())?;

    let mut notes = evidence.as_ref().map_or_else(Vec::new, |e| e.notes.clone());
    notes.extend(options.export.and_then(Tool::search_note));
    let Picks {
        mut rows,
        not_found,
    } = Criteria::new(options, evidence.as_ref()).pick(seeds, progress)?;
    if threshold.is_none() {
        notes.push(without_threshold_note());
    }
    let Some(chosen_row) = rows.first() else {
        // Only without a threshold: the constraints were infeasible and nothing was given.
        return Err(Error::usage(format!(
            "no banding to show: {}",
            not_found.join("; ")
        )));
    };
    let chosen = chosen_row.criterion;
    let mut export = options.export.map(|tool| {
        export_for(
            tool,
            chosen,
            &chosen_row.curve,
            k,
            t,
            options.shingle,
            options.family,
        )
    });
    notes.extend(
        evidence
            .as_ref()
            .and_then(|e| e.unreached_threshold_note(t)),
    );
    if let Some(PairSimilarities::ScanPairs {
        scan_banding: None, ..
    }) = options.similarities
    {
        notes.push(unweighted_scan_pairs_note());
    }

    let seed_corpus = match seeds {
        Some(seeds) => {
            count_on_seeds(&mut rows, seeds, progress)?;
            notes.extend(sampled_seeds_note(seeds, options.budget));
            Some(SeedCorpusInfo::of(seeds))
        }
        None => None,
    };
    if let (Some(export), Some(tool_seeds)) = (&mut export, tool_seeds) {
        count_in_tool_family(export, &rows[0], options.family, tool_seeds, progress)?;
    }
    if let (Some(tool), Some(bound)) = (options.export, options.removal_bound())
        && rows.iter().any(|row| row.criterion == "removal")
    {
        notes.push(removal_export_note(tool, bound, &rows, options.budget));
    }
    let sample_info = evidence.as_ref().and_then(|e| e.sample_info(t));
    notes.extend(sample_info.and_then(|s| too_few_sampled_note(&s, t)));
    let corpus = evidence.map(|e| CorpusInfo {
        source: e.source,
        // `+ 0.0` turns the -0.0 of an empty float sum into 0.
        pairs: e.distribution.total() + 0.0,
        pairs_at_or_above_threshold: e.distribution.at_or_above(t) + 0.0,
        sample: sample_info,
        similarity_floor: e.floor,
    });
    Ok(TuneReport {
        num_perm: k,
        family: options.family,
        threshold,
        fp_weight: options.fp_weight,
        fn_weight: options.fn_weight,
        min_recall: options.min_recall,
        constraints: options.constraints.clone(),
        corpus,
        seed_corpus,
        rows,
        not_found,
        chosen,
        export,
        notes,
    })
}

/// The banding of `row`.
fn banding_of(row: &TuneRow) -> Banding {
    Banding {
        bands: row.curve.bands,
        rows: row.curve.rows,
    }
}

/// Refuses a budget with nothing to count candidates on (`countable`: pair similarities or
/// a corpus), or one that is not a number of pairs.
fn check_budget(budget: Option<f64>, countable: bool) -> Result<()> {
    let Some(b) = budget else {
        return Ok(());
    };
    if !countable {
        return Err(Error::usage(format!(
            "{Budget} needs pair similarities or a corpus: give {Pairs} FILE, \
             {Similarities} FILE or {Corpus} FILE",
        )));
    }
    if !(b >= 0.0 && b.is_finite()) {
        return Err(Error::usage(format!(
            "{Budget} must be a non-negative number of pairs, got {b}"
        )));
    }
    Ok(())
}

/// Counts every row's candidates per seed (the budget row has its count from the search),
/// and warns on the rows whose count swings with the seed.
fn count_on_seeds(rows: &mut [TuneRow], seeds: &SeedCorpus, progress: &Progress) -> Result<()> {
    for row in rows.iter_mut().filter(|row| row.seed_spread.is_none()) {
        let banding = banding_of(row);
        row.seed_spread = Some(seeds.spread(banding, progress)?);
    }
    for row in rows {
        row.warnings
            .extend(seed_spread_warning(row.seed_spread.as_ref()));
    }
    Ok(())
}

/// When the export's tool hashes in another family than the tuning's `family`, counts the
/// exported row's banding in the tool's family on the same documents and seeds
/// (`tool_seeds`), and says in the export's notes how the two counts differ.
fn count_in_tool_family(
    export: &mut ToolExport,
    exported: &TuneRow,
    family: SketchFamily,
    tool_seeds: &SeedCorpus,
    progress: &Progress,
) -> Result<()> {
    let Some(tuned) = exported.seed_spread.as_ref() else {
        return Ok(());
    };
    if tool_seeds.family == family {
        return Ok(());
    }
    let banding = banding_of(exported);
    let tools = tool_seeds.spread(banding, progress)?;
    export.notes.push(export::family_measured_note(
        export.tool,
        banding,
        (family, tuned),
        &tools,
    ));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::minhash::scurve::candidate_probability;
    use crate::minhash::tune::{ProbabilityBound, corpus_estimate};
    use crate::util::rng::SplitMix64;

    #[test]
    fn horvitz_thompson_by_hand() {
        // With 1 band of 1 row, P₀(s) = s: a pair at 0.5 stands for 2 pairs, one at 0.25 for
        // 4, and a pair at similarity 0 cannot be weighted.
        let w = horvitz_thompson(&[0.5, 0.25, 0.0, 0.5], Banding { bands: 1, rows: 1 });
        assert_eq!(w.impossible, 1);
        assert_eq!(w.distribution.points(), &[(0.25, 4.0), (0.5, 4.0)]);
        assert_eq!(w.distribution.total(), 8.0);
    }

    /// The corrected sums are unbiased: over many simulated scans of one population, where
    /// each pair is found independently with probability P₀(s), the mean estimate of the
    /// population's totals lies within 4 standard errors of the truth.
    #[test]
    fn horvitz_thompson_is_unbiased_on_simulated_scans() {
        let scan = Banding { bands: 8, rows: 4 };
        let other = Banding { bands: 16, rows: 4 };
        let t = 0.7;
        let mut rng = SplitMix64::new(2024);
        // 3000 pairs, similarities spread over [0.1, 1]: P₀ runs from 0.0008 to 1.
        let population: Vec<f64> = (0..3000).map(|_| 0.1 + 0.9 * rng.unit()).collect();
        let p0 = |s: f64| candidate_probability(s, scan.bands, scan.rows);
        // Three totals and the variance of their HT estimates under independent inclusion:
        // Var = Σ y² (1 − p) / p for a sum of y over the population.
        let sums = |y: &dyn Fn(f64) -> f64| {
            let total: f64 = population.iter().map(|&s| y(s)).sum();
            let var: f64 = population
                .iter()
                .map(|&s| y(s) * y(s) * (1.0 - p0(s)) / p0(s))
                .sum();
            (total, var)
        };
        let all = sums(&|_| 1.0);
        let above = sums(&|s| if s >= t { 1.0 } else { 0.0 });
        let candidates = sums(&|s| candidate_probability(s, other.bands, other.rows));

        const TRIALS: usize = 400;
        let (mut est_all, mut est_above, mut est_candidates) = (0.0, 0.0, 0.0);
        let mut found_pairs = 0usize;
        for _ in 0..TRIALS {
            let found: Vec<f64> = population
                .iter()
                .copied()
                .filter(|&s| rng.unit() < p0(s))
                .collect();
            found_pairs += found.len();
            let w = horvitz_thompson(&found, scan);
            assert_eq!(w.impossible, 0);
            est_all += w.distribution.total();
            est_above += w.distribution.at_or_above(t);
            est_candidates +=
                corpus_estimate(&w.distribution, other.bands, other.rows, t).expected_candidates;
        }
        for (name, estimate, (truth, var)) in [
            ("pairs", est_all, all),
            ("pairs at or above t", est_above, above),
            ("expected candidates", est_candidates, candidates),
        ] {
            let mean = estimate / TRIALS as f64;
            let standard_error = (var / TRIALS as f64).sqrt();
            assert!(
                (mean - truth).abs() < 4.0 * standard_error,
                "{name}: mean estimate {mean} vs {truth} (standard error {standard_error})"
            );
        }
        // Without the weights the found pairs stand for about half the population.
        let found_share = found_pairs as f64 / TRIALS as f64 / all.0;
        assert!((0.45..0.6).contains(&found_share), "{found_share}");
    }

    #[test]
    fn report_rows_follow_the_criteria_in_order() {
        let mut options = TuneOptions::new(0.8);
        options.constraints.reject.push(ProbabilityBound {
            similarity: 0.3,
            probability: 0.01,
        });
        options.given.push(Banding { bands: 20, rows: 5 });
        options.export = Some(Tool::Datatrove);
        let report = build_report(&options).unwrap();
        let criteria: Vec<&str> = report.rows.iter().map(|r| r.criterion).collect();
        assert_eq!(criteria, ["constraints", "recall", "datasketch", "given"]);
        assert_eq!(report.chosen, "constraints");
        let export = report.export.unwrap();
        assert_eq!(export.criterion, "constraints");
        let c = &report.rows[0].curve;
        assert_eq!(
            export.parameters[1],
            ("num_buckets".to_string(), serde_json::json!(c.bands))
        );
        assert!(report.corpus.is_none() && report.notes.is_empty());

        options.budget = Some(10.0);
        let e = build_report(&options).unwrap_err().to_string();
        assert!(e.contains("`budget` needs pair similarities"), "{e}");
        options.num_perm = 0;
        assert!(options.validate().is_err());
    }
}
