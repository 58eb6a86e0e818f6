//! Notes and warnings that explain a report's choices: which row an export takes under a
//! removal bound, a candidate count that swings with the seed, the constraints in words.

use super::{SeedCorpus, SeedSpread, Tool, TuneRow};

use crate::minhash::scurve::candidate_probability;
use crate::minhash::tune::{Constraints, ProbabilityBound};
use crate::terms::Setting::{Budget, Export, MaxFalseRemoval, Sample, Threshold};
use crate::util::numfmt::percent_fine;

/// Whether `row` removes pairs at the bound's similarity with at most its probability.
pub(super) fn keeps_removal_bound(row: &TuneRow, bound: ProbabilityBound) -> bool {
    candidate_probability(bound.similarity, row.curve.bands, row.curve.rows) <= bound.probability
}

/// Which row `--for` exports when a removal bound applies, and why: the `removal` row, ahead
/// of the `budget` or `constraints` row the user asked for (and whether it breaks the
/// budget), or the `budget` row when that keeps the bound too. `rows[0]` is the exported row.
pub(super) fn removal_export_note(
    tool: Tool,
    bound: ProbabilityBound,
    rows: &[TuneRow],
    budget: Option<f64>,
) -> String {
    let s = crate::util::numfmt::decimal(bound.similarity);
    let banding = |row: &TuneRow| format!("{} × {}", row.curve.bands, row.curve.rows);
    let removal_at_bound = |row: &TuneRow| {
        percent_fine(candidate_probability(
            bound.similarity,
            row.curve.bands,
            row.curve.rows,
        ))
    };
    let chosen = &rows[0];
    if chosen.criterion == "budget" {
        let whose = if tool.verifies() {
            format!("the {MaxFalseRemoval} bound")
        } else {
            format!(
                "the bound {} needs (it removes every candidate without a Jaccard check)",
                tool.name()
            )
        };
        return format!(
            "{Export} exports the `budget` row ({}), not `removal`: it keeps the budget and removes \
             pairs at {s} with P = {}, within {} of {whose}",
            banding(chosen),
            removal_at_bound(chosen),
            percent_fine(bound.probability)
        );
    }
    let why = if tool.verifies() {
        format!(
            "{MaxFalseRemoval} bounds false removals to P({s}) ≤ {}",
            percent_fine(bound.probability)
        )
    } else {
        format!(
            "{} removes every candidate without a Jaccard check, so false removals must stay \
             within P({s}) ≤ {} ({MaxFalseRemoval})",
            tool.name(),
            percent_fine(bound.probability)
        )
    };
    let mut note = format!(
        "{Export} exports the `removal` row ({}): {why}",
        banding(chosen)
    );
    for row in rows[1..]
        .iter()
        .filter(|row| matches!(row.criterion, "budget" | "constraints"))
    {
        note.push_str(&format!(
            "; the `{}` row ({}) is not exported: it removes pairs at {s} with P = {}",
            row.criterion,
            banding(row),
            removal_at_bound(row)
        ));
    }
    // The budget holds for the worst seed with --corpus, else for the expectation.
    let candidates = match (&chosen.seed_spread, &chosen.corpus) {
        (Some(spread), _) if spread.estimated() => spread.high.map(|n| {
            (
                n,
                "candidate pairs at the top of the worst seed's 95 % interval",
            )
        }),
        (Some(spread), _) => spread
            .max
            .map(|n| (n, "candidate pairs for the worst seed")),
        (None, Some(c)) => Some((c.expected_candidates, "expected candidate pairs")),
        (None, None) => None,
    };
    if let (Some(budget), Some((candidates, what))) = (budget, candidates)
        && candidates > budget
    {
        note.push_str(&format!(
            "; its {} {what} exceed {Budget} {}: raise the budget or loosen \
             {MaxFalseRemoval}",
            crate::util::numfmt::thousands(candidates.round() as u64),
            crate::util::numfmt::thousands(budget as u64)
        ));
    }
    note
}

/// A warning when a row's candidate count swings with the seed beyond chance (budget for the
/// worst seed), or when some seed's count is unknown.
pub(super) fn seed_spread_warning(spread: Option<&SeedSpread>) -> Option<String> {
    let spread = spread?;
    if spread.incomplete() {
        return Some(format!(
            "for some seeds the candidate count passed what lshscope counts ({} bucket pairs): \
             count on a {Sample}",
            crate::util::numfmt::compact(crate::minhash::collisions::DEFAULT_MAX_BUCKET_PAIRS)
        ));
    }
    spread.beyond_chance().then(|| {
        format!(
            "candidate count swings from {} to {} across {} seeds, far beyond chance (pairs that \
             share boilerplate collide together): budget for the worst seed",
            spread.show(spread.min.unwrap_or(0.0)),
            spread.show(spread.max.unwrap_or(0.0)),
            spread.seeds.len()
        )
    })
}

pub(super) fn describe_constraints(c: &Constraints) -> String {
    let mut parts = Vec::new();
    for b in &c.reject {
        parts.push(format!(
            "P({}) ≤ {}",
            b.similarity,
            percent_fine(b.probability)
        ));
    }
    for b in &c.accept {
        parts.push(format!(
            "P({}) ≥ {}",
            b.similarity,
            percent_fine(b.probability)
        ));
    }
    parts.join(", ") + ", fewest hashes, then steepest"
}

/// Why a report without a threshold has fewer criteria.
pub(super) fn without_threshold_note() -> String {
    format!(
        "no {Threshold}: only the constraint search and the given bandings (the recall and \
         datasketch criteria need t)"
    )
}

/// How candidates counted on a sample of a corpus's documents stand for the corpus's counts,
/// and what `budget` holds for then; none when every document was counted.
pub(super) fn sampled_seeds_note(seeds: &SeedCorpus, budget: Option<f64>) -> Option<String> {
    seeds.sampled().then(|| {
        format!(
            "candidate counts per seed were counted on a uniform sample of {} of {} \
             documents and multiplied by N(N−1)/(n(n−1)) = {:.2}: estimates of the \
             corpus's counts; every seed shares the sample's error, so each count carries \
             its 95 % sampling interval{}",
            crate::util::numfmt::thousands(seeds.documents as u64),
            crate::util::numfmt::thousands(seeds.population as u64),
            seeds.pair_scale(),
            match budget {
                Some(_) => format!(" and {Budget} holds for the top of the worst seed's interval"),
                None => String::new(),
            }
        )
    })
}
