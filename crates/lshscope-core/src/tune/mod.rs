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

mod notes;
mod options;
mod report;
mod similarities;

use crate::jobs::Progress;
use crate::minhash::Banding;
use crate::minhash::scurve::{candidate_probability, datasketch_optimal_params};
use crate::minhash::tune::{
    MIN_SAMPLED_AT_THRESHOLD, SampleIntervals, SimilarityDistribution,
    best_recall_with_removal_bound_among, best_recall_within_budget_among,
    closest_to_constraints_among, constraint_search_among, corpus_estimate, quantiles,
    sharpest_with_probability_at_among, smallest_num_perm_for_among, summarize,
};
use crate::terms::Setting::{
    Banding as GivenBanding, Budget, Corpus, EstimatePairs, NumPerm, Pairs, Sample, ScanBanding,
    Similarities, Threshold,
};
use crate::util::numfmt::{for_count, percent_fine};
use crate::{Error, Result};
use notes::{describe_constraints, keeps_removal_bound, removal_export_note, seed_spread_warning};
pub use options::{PairSimilarities, TuneOptions};
pub use report::{CorpusInfo, SampleInfo, SeedCorpusInfo, TuneReport, TuneRow};
pub use similarities::{
    InclusionWeighted, THRESHOLDED_PAIRS_HINT, horvitz_thompson, thresholded_floor,
};
use similarities::{PairSample, stratified_notes, thresholded_note, truth_notes};

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
    let constraints = options.constraints.clone();

    let mut notes = Vec::new();
    let mut similarity_floor = None;
    // A weighted sample of pairs (`truth --estimate-pairs`): its rows, for intervals.
    let mut sample_rows: Option<PairSample> = None;
    let (corpus, distribution) = match &options.similarities {
        None => (None, None),
        Some(source) => {
            let path = source.path();
            let plain_list = matches!(source, PairSimilarities::Similarities(_));
            let stratified = match source {
                PairSimilarities::Similarities(_) => {
                    crate::analysis::stratified::read_stratified(path)?
                }
                _ => None,
            };
            let weighted = match &stratified {
                Some(sample) => sample.weighted_rows(),
                None => crate::pairs::read_weighted_similarities(path, plain_list)?,
            };
            let values: Vec<f64> = weighted.iter().map(|&(s, _)| s).collect();
            let distribution = match source {
                PairSimilarities::Truth(_) => {
                    notes.extend(truth_notes(&values, t));
                    SimilarityDistribution::from_similarities(&values)
                }
                PairSimilarities::ScanPairs { scan_banding, .. } => {
                    // Said whatever else is given: --scan-banding corrects for the pairs the
                    // scan's banding missed, not for those its --threshold dropped.
                    similarity_floor = thresholded_floor(&values);
                    notes.extend(similarity_floor.map(|lowest| thresholded_note(lowest, t)));
                    match scan_banding {
                        Some(scan) => {
                            let weighted = horvitz_thompson(&values, *scan);
                            let covered = match similarity_floor {
                                Some(lowest) => format!(
                                    "all pairs of the corpus with Jaccard ≥ {} (the lowest in the \
                                     pairs file; the scan dropped those below it), so expected \
                                     candidates and precision describe that range only",
                                    crate::util::numfmt::decimal(lowest)
                                ),
                                None => "all pairs of the corpus".to_string(),
                            };
                            notes.push(format!(
                                "each pair weighted by 1/P₀(s) for the scan's {} × {} banding: \
                                 the corpus columns estimate {covered}; rare low-similarity \
                                 pairs carry large weights, so those estimates are noisy",
                                scan.bands, scan.rows
                            ));
                            if weighted.impossible > 0 {
                                notes.push(format!(
                                    "{} {} with P₀(s) = 0 (similarity 0) {} left out",
                                    crate::util::numfmt::thousands(weighted.impossible as u64),
                                    for_count(weighted.impossible as u64, "pair", "pairs"),
                                    for_count(weighted.impossible as u64, "was", "were")
                                ));
                            }
                            weighted.distribution
                        }
                        None => SimilarityDistribution::from_similarities(&values),
                    }
                }
                PairSimilarities::Similarities(_) if stratified.is_some() => {
                    let sample = stratified.expect("matched");
                    notes.extend(stratified_notes(&sample, t));
                    sample_rows = Some(PairSample::Stratified(sample));
                    SimilarityDistribution::from_weighted(weighted)
                }
                PairSimilarities::Similarities(_) if weighted.iter().any(|&(_, w)| w != 1.0) => {
                    sample_rows = Some(PairSample::Uniform(weighted.clone()));
                    let distribution = SimilarityDistribution::from_weighted(weighted);
                    notes.push(format!(
                        "each sampled pair counts its `weight` times: the corpus columns \
                         estimate all {} pairs it was sampled from, so {Budget} counts \
                         candidates of the whole corpus",
                        crate::util::numfmt::estimated_count(distribution.total())
                    ));
                    distribution
                }
                PairSimilarities::Similarities(_) => {
                    SimilarityDistribution::from_similarities(&values)
                }
            };
            (Some(path.display().to_string()), Some(distribution))
        }
    };
    if options.budget.is_some() && distribution.is_none() && seeds.is_none() {
        return Err(Error::usage(format!(
            "{Budget} needs pair similarities or a corpus: give {Pairs} FILE, \
             {Similarities} FILE or {Corpus} FILE",
        )));
    }
    if let Some(b) = options.budget
        && !(b >= 0.0 && b.is_finite())
    {
        return Err(Error::usage(format!(
            "{Budget} must be a non-negative number of pairs, got {b}"
        )));
    }

    let mut rows = Vec::new();
    let mut not_found = Vec::new();
    // The picks for an export are searched among the bandings its tool takes.
    let takes = |b: usize, r: usize| options.export.is_none_or(|tool| tool.takes(b, r));
    notes.extend(options.export.and_then(Tool::search_note));
    let make_row = |criterion: &'static str, description: String, b: usize, r: usize| {
        let curve = summarize(b, r, threshold);
        let sampled = sample_rows.as_ref().and_then(|s| s.intervals(b, r, t));
        let corpus = distribution.as_ref().map(|d| {
            let mut estimate = corpus_estimate(d, b, r, t);
            // With no pair at or above t, the share of candidates at or above t is 0 by
            // definition but says nothing about the banding: undefined, like recall.
            if estimate.pairs_at_or_above <= 0.0 {
                estimate.expected_precision = None;
            }
            // From a handful of sampled pairs at or above t, recall and precision at t are
            // not results: left out, and the notes say why.
            if sampled.is_some_and(|s| !s.threshold_is_measurable()) {
                estimate.expected_recall = None;
                estimate.expected_precision = None;
            }
            estimate
        });
        let mut warnings = Vec::new();
        // K bounds the search either way, but a tool that sizes its signature from the
        // banding never computes the rest.
        let unused_permutations = if options
            .export
            .is_some_and(Tool::sizes_signature_from_banding)
        {
            0
        } else {
            k - b * r
        };
        if unused_permutations > 0 {
            warnings.push(format!(
                "uses {} of {k} permutations: {unused_permutations} computed but never banded",
                b * r
            ));
        }
        if let Some(p) = curve.probability_at_threshold
            && p < 0.5
        {
            warnings.push(format!(
                "P(t = {t}) = {:.1} %: most pairs at the threshold are missed",
                100.0 * p
            ));
        }
        TuneRow {
            criterion,
            description,
            curve,
            unused_permutations,
            bounds: constraints.check(b, r),
            quantiles: quantiles(b, r, &options.quantiles),
            corpus,
            sampled,
            seed_spread: None,
            warnings,
        }
    };

    if let Some(bound) = options.removal_bound() {
        match best_recall_with_removal_bound_among(k, t, bound, &takes) {
            Some((b, r)) => {
                let mut row = make_row(
                    "removal",
                    format!(
                        "for a tool that removes every candidate: the highest P(t) that removes \
                         pairs at {} with P ≤ {}",
                        crate::util::numfmt::decimal(bound.similarity),
                        percent_fine(bound.probability)
                    ),
                    b,
                    r,
                );
                if let Some(e) = &row.corpus
                    && let Some(precision) = e.expected_precision
                {
                    row.warnings.push(format!(
                        "{} of the candidate pairs (all removed) are expected below t",
                        percent_fine(1.0 - precision)
                    ));
                }
                rows.push(row);
            }
            None => not_found.push(format!(
                "removal: no banding with b·r ≤ {k} removes pairs at {} with P ≤ {}",
                crate::util::numfmt::decimal(bound.similarity),
                percent_fine(bound.probability)
            )),
        }
    }
    match (seeds, &distribution, options.budget) {
        (Some(seeds), _, Some(budget)) => {
            // Rank by expected recall when similarities are given, else by P(t).
            let rank = |b: usize, r: usize| match &distribution {
                // Refused bandings rank last, and a refused pick counts as none (the pick
                // has the most bands within the budget for its r, so b < 2 only if r's do).
                _ if !takes(b, r) => f64::NEG_INFINITY,
                Some(d) => corpus_estimate(d, b, r, t).expected_recall.unwrap_or(0.0),
                None => candidate_probability(t, b, r),
            };
            let pick = seeds.best_within_budget(k, budget, rank, progress)?;
            match pick.filter(|p| takes(p.banding.bands, p.banding.rows)) {
                Some(pick) => {
                    let mut row = make_row(
                        "budget",
                        format!(
                            "highest {} with at most {} candidate pairs on the corpus for {}",
                            if distribution.is_some() {
                                "expected recall at t"
                            } else {
                                "P(t)"
                            },
                            crate::util::numfmt::thousands(budget as u64),
                            match seeds.seeds.len() {
                                1 => "its seed".to_string(),
                                n => format!("every one of {n} seeds"),
                            },
                        ) + match seeds.sampled() {
                            true => " (the top of its 95 % interval, estimated from a sample)",
                            false => "",
                        },
                        pick.banding.bands,
                        pick.banding.rows,
                    );
                    row.seed_spread = Some(pick.spread);
                    rows.push(row);
                }
                None => not_found.push(format!(
                    "budget: every banding with b·r ≤ {k} gives more than {} candidates on the \
                     corpus for some seed{}",
                    crate::util::numfmt::thousands(budget as u64),
                    match seeds.sampled() {
                        true => format!(
                            ", at the top of its 95 % interval (a larger {Sample} narrows the \
                             interval)"
                        ),
                        false => format!(" (or more than lshscope counts: use {Sample})"),
                    }
                )),
            }
        }
        (None, Some(d), Some(budget)) => {
            let intervals = sample_rows
                .as_ref()
                .map(|s| move |b: usize, r: usize| s.intervals(b, r, t));
            let intervals: Option<&SampleIntervals<'_>> = intervals.as_ref().map(|f| f as _);
            match best_recall_within_budget_among(d, k, t, budget, intervals, &takes) {
                Some((b, r, _)) => rows.push(make_row(
                    "budget",
                    if sample_rows.is_some() {
                        format!(
                            "highest expected recall at t with the top of the 95 % interval of \
                             expected candidates within {}",
                            crate::util::numfmt::thousands(budget as u64)
                        )
                    } else {
                        format!(
                            "highest expected recall at t with at most {} expected candidates",
                            crate::util::numfmt::thousands(budget as u64)
                        )
                    },
                    b,
                    r,
                )),
                None if d.at_or_above(t) == 0.0 => not_found.push(format!(
                    "budget: no pair in the similarities reaches t = {t}, so recall is undefined"
                )),
                None => not_found.push(format!(
                    "budget: every banding with b·r ≤ {k} expects more than {} candidates",
                    crate::util::numfmt::thousands(budget as u64)
                )),
            }
        }
        _ => {}
    }
    let mut closest = None;
    if !constraints.is_empty() {
        let description = describe_constraints(&constraints);
        match constraint_search_among(k, &constraints, &takes).first() {
            Some(&(b, r)) => rows.push(make_row("constraints", description, b, r)),
            None => {
                let more = match smallest_num_perm_for_among(
                    &constraints,
                    k,
                    MAX_NUM_PERM_SEARCHED,
                    &takes,
                ) {
                    Some((needed, b, r)) => {
                        format!("raise {NumPerm} to {needed} ({b} × {r} meets them)")
                    }
                    None => format!(
                        "no K up to {MAX_NUM_PERM_SEARCHED} meets them either: loosen a bound"
                    ),
                };
                not_found.push(format!(
                    "constraints: no banding with b·r ≤ {k} meets {description}; {more}"
                ));
                if let Some((b, r, _)) = closest_to_constraints_among(k, &constraints, &takes) {
                    let mut row = make_row(
                        "closest",
                        "the banding that misses the constraints least (the sum of the \
                         log-factors by which it misses each bound)"
                            .to_string(),
                        b,
                        r,
                    );
                    for c in row.bounds.iter().filter(|c| !c.met) {
                        row.warnings.push(format!(
                            "{} bound missed: P({}) = {} against {} {}",
                            c.kind,
                            c.similarity,
                            percent_fine(c.probability),
                            if c.kind == "reject" { "≤" } else { "≥" },
                            percent_fine(c.bound)
                        ));
                    }
                    // Listed after the other criteria: a banding that breaks a bound the
                    // user set is shown, never chosen for an export.
                    closest = Some(row);
                }
            }
        }
    }
    if threshold.is_some() {
        match sharpest_with_probability_at_among(k, t, options.min_recall, &takes) {
            Some((b, r)) => rows.push(make_row(
                "recall",
                format!(
                    "P(t) ≥ {}, then the least false-positive area",
                    options.min_recall
                ),
                b,
                r,
            )),
            None => not_found.push(format!(
                "recall: no banding with b·r ≤ {k} reaches P({t}) ≥ {}",
                options.min_recall
            )),
        }
        let (b, r) = datasketch_optimal_params(t, k, options.fp_weight, options.fn_weight);
        let mut row = make_row(
            "datasketch",
            format!(
                "datasketch's pick: min {}·∫₀ᵗP + {}·∫ₜ¹(1−P) (uniform similarities)",
                options.fp_weight, options.fn_weight
            ),
            b,
            r,
        );
        // datasketch/lsh.py (MinHashLSH.__init__) refuses weights outside [0, 1] or whose
        // float sum is not exactly 1.0, and any b < 2, including its own pick.
        let (fp, fn_) = (options.fp_weight, options.fn_weight);
        if fp + fn_ != 1.0 || fp > 1.0 || fn_ > 1.0 {
            row.warnings.push(format!(
                "datasketch raises ValueError for weights ({fp}, {fn_}): they must lie in [0, 1] \
                 and sum to 1.0; this is its pick for the weights scaled to sum to 1 \
                 ({}, {}), which give the same banding",
                crate::util::numfmt::decimal(fp / (fp + fn_)),
                crate::util::numfmt::decimal(fn_ / (fp + fn_))
            ));
        }
        if b < 2 {
            row.warnings.push(
                "datasketch raises ValueError for its own pick here (b < 2: \"The number of \
                 bands are too small\")"
                    .to_string(),
            );
        }
        rows.push(row);
    } else {
        notes.push(format!(
            "no {Threshold}: only the constraint search and the given bandings (the recall \
             and datasketch criteria need t)"
        ));
    }
    rows.extend(closest);
    for g in &options.given {
        rows.push(make_row(
            "given",
            format!("the banding given with {GivenBanding}"),
            g.bands,
            g.rows,
        ));
    }

    // For a tool that removes every candidate, a budget row that also keeps the removal bound
    // goes first: both limits hold, and it has the highest expected recall within the budget.
    let removal_bound = options.removal_bound();
    if let Some(bound) = removal_bound
        && rows.first().is_some_and(|row| row.criterion == "removal")
        && let Some(i) = rows
            .iter()
            .position(|row| row.criterion == "budget" && keeps_removal_bound(row, bound))
    {
        let budget_row = rows.remove(i);
        rows.insert(0, budget_row);
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
    if let Some(d) = &distribution
        && d.at_or_above(t) <= 0.0
    {
        notes.push(format!(
            "no pair in {} reaches t = {t}: recall and precision at t are undefined (n/a); \
             lower t, or give more pairs (a larger {EstimatePairs} sample, a scan with {Threshold} 0)",
            options
                .similarities
                .as_ref()
                .map_or("the similarities".to_string(), |s| s
                    .path()
                    .display()
                    .to_string())
        ));
    }

    if let Some(PairSimilarities::ScanPairs {
        scan_banding: None, ..
    }) = options.similarities
    {
        notes.push(format!(
            "pairs from a scan hold only the pairs that scan's banding found (and kept at its \
             {Threshold}): expected candidates and recall count those pairs, not pairs it \
             missed; give {ScanBanding} BxR to correct for the missed ones"
        ));
    }
    let mut seed_corpus = None;
    if let Some(seeds) = seeds {
        for row in rows.iter_mut().filter(|row| row.seed_spread.is_none()) {
            let banding = Banding {
                bands: row.curve.bands,
                rows: row.curve.rows,
            };
            row.seed_spread = Some(seeds.spread(banding, progress)?);
        }
        for row in &mut rows {
            row.warnings
                .extend(seed_spread_warning(row.seed_spread.as_ref()));
        }
        if seeds.sampled() {
            notes.push(format!(
                "candidate counts per seed were counted on a uniform sample of {} of {} \
                 documents and multiplied by N(N−1)/(n(n−1)) = {:.2}: estimates of the \
                 corpus's counts; every seed shares the sample's error, so each count carries \
                 its 95 % sampling interval{}",
                crate::util::numfmt::thousands(seeds.documents as u64),
                crate::util::numfmt::thousands(seeds.population as u64),
                seeds.pair_scale(),
                match options.budget {
                    Some(_) =>
                        format!(" and {Budget} holds for the top of the worst seed's interval"),
                    None => String::new(),
                }
            ));
        }
        seed_corpus = Some(SeedCorpusInfo {
            source: seeds.source.clone(),
            population: seeds.population,
            documents: seeds.documents,
            seeds: seeds.seeds.clone(),
            pair_scale: seeds.pair_scale(),
        });
    }
    if let (Some(export), Some(tool_seeds), Some(tuned)) = (
        &mut export,
        tool_seeds,
        rows.first().and_then(|row| row.seed_spread.as_ref()),
    ) && tool_seeds.family != options.family
    {
        let banding = Banding {
            bands: rows[0].curve.bands,
            rows: rows[0].curve.rows,
        };
        let tools = tool_seeds.spread(banding, progress)?;
        export.notes.push(export::family_measured_note(
            export.tool,
            banding,
            (options.family, tuned),
            &tools,
        ));
    }
    if let (Some(tool), Some(bound)) = (options.export, removal_bound)
        && rows.iter().any(|row| row.criterion == "removal")
    {
        notes.push(removal_export_note(tool, bound, &rows, options.budget));
    }
    // Any banding gives the same counts at t; (1, 1) is one that always exists.
    let sample_info = sample_rows
        .as_ref()
        .and_then(|s| s.intervals(1, 1, t))
        .map(|s| SampleInfo {
            sampled_pairs: s.sampled_pairs,
            sampled_at_or_above: s.sampled_at_or_above,
            pairs_at_or_above_interval: s.pairs_at_or_above,
        });
    // (With none at all, the note on a t that no pair reaches says it.)
    if let Some(s) = &sample_info
        && (1..MIN_SAMPLED_AT_THRESHOLD).contains(&s.sampled_at_or_above)
    {
        notes.push(format!(
            "only {} of the {} sampled pairs {} Jaccard ≥ {t}: too few to estimate \
             recall and precision at t (left out; they need {MIN_SAMPLED_AT_THRESHOLD}), and \
             the count at or above t is uncertain (see its interval). Sample more pairs \
             (`truth {}`), or run `truth` for the exact pairs above t",
            s.sampled_at_or_above,
            crate::util::numfmt::thousands(s.sampled_pairs as u64),
            for_count(s.sampled_at_or_above as u64, "has", "have"),
            EstimatePairs.in_code(),
        ));
    }
    let corpus = match (corpus, &distribution) {
        // `+ 0.0` turns the -0.0 of an empty float sum into 0.
        (Some(source), Some(d)) => Some(CorpusInfo {
            source,
            pairs: d.total() + 0.0,
            pairs_at_or_above_threshold: d.at_or_above(t) + 0.0,
            sample: sample_info,
            similarity_floor,
        }),
        _ => None,
    };
    Ok(TuneReport {
        num_perm: k,
        family: options.family,
        threshold,
        fp_weight: options.fp_weight,
        fn_weight: options.fn_weight,
        min_recall: options.min_recall,
        constraints,
        corpus,
        seed_corpus,
        rows,
        not_found,
        chosen,
        export,
        notes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::minhash::tune::ProbabilityBound;
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
