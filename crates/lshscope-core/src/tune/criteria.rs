//! The criteria: each searches the bandings the export's tool takes and gives a row, or says
//! why it found none. [`Criteria::pick`] runs them in the report's order.

use super::notes::{describe_constraints, keeps_removal_bound};
use super::similarities::{Evidence, PairSample};
use super::{MAX_NUM_PERM_SEARCHED, SeedCorpus, Tool, TuneOptions, TuneRow};
use crate::Result;
use crate::jobs::Progress;
use crate::minhash::scurve::{candidate_probability, datasketch_optimal_params};
use crate::minhash::tune::{
    BUDGET_RECALL_TIE_POINTS, CorpusEstimate, SampleIntervals, SimilarityDistribution,
    best_recall_with_removal_bound_among, best_recall_within_budget_among,
    closest_to_constraints_among, constraint_search_among, corpus_estimate, quantiles,
    sharpest_with_probability_at_among, smallest_num_perm_for_among, summarize,
};
use crate::terms::Setting::{Banding as GivenBanding, NumPerm, Sample};
use crate::util::numfmt::{decimal, percent_fine, thousands};

/// What every criterion searches with and every row is computed from.
pub(super) struct Criteria<'a> {
    options: &'a TuneOptions,
    evidence: Option<&'a Evidence>,
    /// K, the permutations every banding fits in.
    k: usize,
    /// The threshold, NaN without one: everything that needs t was refused without it.
    t: f64,
}

/// The rows the criteria picked and the criteria that found none.
#[derive(Default)]
pub(super) struct Picks {
    /// In the order [`TuneReport::rows`](super::TuneReport::rows) documents.
    pub(super) rows: Vec<TuneRow>,
    pub(super) not_found: Vec<String>,
}

impl<'a> Criteria<'a> {
    pub(super) fn new(options: &'a TuneOptions, evidence: Option<&'a Evidence>) -> Criteria<'a> {
        Criteria {
            options,
            evidence,
            k: options.num_perm,
            t: options.threshold.unwrap_or(f64::NAN),
        }
    }

    /// Runs every criterion the options ask for, in the report's order. `seeds` counts the
    /// budget's candidates per seed; `progress` cancels that counting.
    pub(super) fn pick(&self, seeds: Option<&SeedCorpus>, progress: &Progress) -> Result<Picks> {
        let mut picks = Picks::default();
        self.removal(&mut picks);
        self.budget(seeds, progress, &mut picks)?;
        // Listed after the other criteria: a banding that breaks a bound the user set is
        // shown, never chosen for an export.
        let closest = self.constraints(&mut picks);
        if self.options.threshold.is_some() {
            self.recall(&mut picks);
            picks.rows.push(self.datasketch());
        }
        picks.rows.extend(closest);
        for g in &self.options.given {
            // A given banding that a criterion also picked repeats that row's figures: say so,
            // so the two rows read as one banding and not as a coincidence.
            let also: Vec<&str> = picks
                .rows
                .iter()
                .filter(|row| {
                    row.criterion != "given"
                        && (row.curve.bands, row.curve.rows) == (g.bands, g.rows)
                })
                .map(|row| row.criterion)
                .collect();
            let description = match also.as_slice() {
                [] => format!("the banding given with {GivenBanding}"),
                names => format!(
                    "the banding given with {GivenBanding}; the {} row{} above pick{} it too",
                    names.join(" and "),
                    if names.len() > 1 { "s" } else { "" },
                    if names.len() > 1 { "" } else { "s" },
                ),
            };
            picks
                .rows
                .push(self.row("given", description, g.bands, g.rows));
        }
        self.put_first_budget_that_keeps_removal_bound(&mut picks.rows);
        Ok(picks)
    }

    /// Whether the export's tool takes banding (b, r): the picks for an export are searched
    /// among the bandings its tool takes.
    fn takes(&self, b: usize, r: usize) -> bool {
        self.options.export.is_none_or(|tool| tool.takes(b, r))
    }

    fn distribution(&self) -> Option<&'a SimilarityDistribution> {
        self.evidence.map(|e| &e.distribution)
    }

    fn sample(&self) -> Option<&'a PairSample> {
        self.evidence.and_then(|e| e.sample.as_ref())
    }

    /// The row of banding (b, r) for `criterion`: its curve, its bounds and quantiles, its
    /// corpus columns, and warnings on permutations it leaves unused and a weak P(t).
    pub(super) fn row(
        &self,
        criterion: &'static str,
        description: String,
        b: usize,
        r: usize,
    ) -> TuneRow {
        let (k, t) = (self.k, self.t);
        let curve = summarize(b, r, self.options.threshold);
        let sampled = self.sample().and_then(|s| s.intervals(b, r, t));
        let corpus = self.distribution().map(|d| {
            corpus_columns(
                d,
                b,
                r,
                t,
                sampled.is_some_and(|s| !s.threshold_is_measurable()),
            )
        });
        let mut warnings = Vec::new();
        // K bounds the search either way, but a tool that sizes its signature from the
        // banding never computes the rest.
        let unused_permutations = if self
            .options
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
        // At t = 0 every pair is at or above t and P(0) = 0 for any banding: no warning.
        if let Some(p) = curve.probability_at_threshold
            && p < 0.5
            && t > 0.0
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
            bounds: self.options.constraints.check(b, r),
            quantiles: quantiles(b, r, &self.options.quantiles),
            corpus,
            sampled,
            seed_spread: None,
            warnings,
        }
    }

    /// `removal`, for a tool that removes every candidate: the highest P(t) that keeps the
    /// removal bound.
    fn removal(&self, picks: &mut Picks) {
        let Some(bound) = self.options.removal_bound() else {
            return;
        };
        let k = self.k;
        match best_recall_with_removal_bound_among(k, self.t, bound, &|b, r| self.takes(b, r)) {
            Some((b, r)) => {
                let mut row = self.row(
                    "removal",
                    format!(
                        "for a tool that removes every candidate: the highest P(t) that removes \
                         pairs at {} with P ≤ {}",
                        decimal(bound.similarity),
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
                picks.rows.push(row);
            }
            None => picks.not_found.push(format!(
                "removal: no banding with b·r ≤ {k} removes pairs at {} with P ≤ {}",
                decimal(bound.similarity),
                percent_fine(bound.probability)
            )),
        }
    }

    /// `budget`: counted on the corpus for every seed when one is given, else expected from
    /// the pair similarities.
    fn budget(
        &self,
        seeds: Option<&SeedCorpus>,
        progress: &Progress,
        picks: &mut Picks,
    ) -> Result<()> {
        match (seeds, self.distribution(), self.options.budget) {
            (Some(seeds), _, Some(budget)) => self.budget_on_seeds(seeds, budget, progress, picks),
            (None, Some(d), Some(budget)) => {
                self.budget_expected(d, budget, picks);
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// `budget` on the corpus: the best banding whose real candidate count stays within the
    /// budget for the worst seed.
    fn budget_on_seeds(
        &self,
        seeds: &SeedCorpus,
        budget: f64,
        progress: &Progress,
        picks: &mut Picks,
    ) -> Result<()> {
        let (k, t) = (self.k, self.t);
        let distribution = self.distribution();
        // Rank by expected recall when similarities are given, else by P(t).
        let rank = |b: usize, r: usize| match distribution {
            // Refused bandings rank last, and a refused pick counts as none (the pick has the
            // most bands within the budget for its r, so b < 2 only if r's do).
            _ if !self.takes(b, r) => f64::NEG_INFINITY,
            Some(d) => corpus_estimate(d, b, r, t).expected_recall.unwrap_or(0.0),
            None => candidate_probability(t, b, r),
        };
        let pick = seeds.best_within_budget(k, budget, rank, progress)?;
        match pick.filter(|p| self.takes(p.banding.bands, p.banding.rows)) {
            Some(pick) => {
                let mut row = self.row(
                    "budget",
                    format!(
                        "highest {} with at most {} candidate pairs on the corpus for {}{}{}",
                        if distribution.is_some() {
                            "expected recall at t"
                        } else {
                            "P(t)"
                        },
                        thousands(budget as u64),
                        match seeds.seeds.len() {
                            1 => "its seed".to_string(),
                            n => format!("every one of {n} seeds"),
                        },
                        match seeds.sampled() {
                            true => " (the top of its 95 % interval, estimated from a sample)",
                            false => "",
                        },
                        budget_tie(),
                    ),
                    pick.banding.bands,
                    pick.banding.rows,
                );
                row.seed_spread = Some(pick.spread);
                picks.rows.push(row);
            }
            None => picks.not_found.push(format!(
                "budget: every banding with b·r ≤ {k} gives more than {} candidates on the \
                 corpus for some seed{}",
                thousands(budget as u64),
                match seeds.sampled() {
                    true => format!(
                        ", at the top of its 95 % interval (a larger {Sample} narrows the \
                         interval)"
                    ),
                    false => format!(" (or more than lshscope counts: use {Sample})"),
                }
            )),
        }
        Ok(())
    }

    /// `budget` on pair similarities: the highest expected recall at t within the budget of
    /// expected candidates (the top of their interval for a sample of pairs).
    fn budget_expected(&self, d: &SimilarityDistribution, budget: f64, picks: &mut Picks) {
        let (k, t) = (self.k, self.t);
        let sample = self.sample();
        let intervals = sample.map(|s| move |b: usize, r: usize| s.intervals(b, r, t));
        let intervals: Option<&SampleIntervals<'_>> = intervals.as_ref().map(|f| f as _);
        match best_recall_within_budget_among(d, k, t, budget, intervals, &|b, r| self.takes(b, r))
        {
            Some((b, r, _)) => picks.rows.push(self.row(
                "budget",
                if sample.is_some() {
                    format!(
                        "highest expected recall at t with the top of the 95 % interval of \
                         expected candidates within {}{}",
                        thousands(budget as u64),
                        budget_tie()
                    )
                } else {
                    format!(
                        "highest expected recall at t with at most {} expected candidates{}",
                        thousands(budget as u64),
                        budget_tie()
                    )
                },
                b,
                r,
            )),
            None if d.at_or_above(t) == 0.0 => picks.not_found.push(format!(
                "budget: no pair in the similarities reaches t = {t}, so recall is undefined"
            )),
            None => picks.not_found.push(format!(
                "budget: every banding with b·r ≤ {k} expects more than {} candidates",
                thousands(budget as u64)
            )),
        }
    }

    /// `constraints`: the banding that meets every bound. When none does, the `closest` row
    /// is returned for the caller to list after the others.
    fn constraints(&self, picks: &mut Picks) -> Option<TuneRow> {
        let constraints = &self.options.constraints;
        if constraints.is_empty() {
            return None;
        }
        let k = self.k;
        let takes = |b: usize, r: usize| self.takes(b, r);
        let description = describe_constraints(constraints);
        if let Some(&(b, r)) = constraint_search_among(k, constraints, &takes).first() {
            picks.rows.push(self.row("constraints", description, b, r));
            return None;
        }
        let more = match smallest_num_perm_for_among(constraints, k, MAX_NUM_PERM_SEARCHED, &takes)
        {
            Some((needed, b, r)) => format!("raise {NumPerm} to {needed} ({b} × {r} meets them)"),
            None => format!("no K up to {MAX_NUM_PERM_SEARCHED} meets them either: loosen a bound"),
        };
        picks.not_found.push(format!(
            "constraints: no banding with b·r ≤ {k} meets {description}; {more}"
        ));
        let (b, r, _) = closest_to_constraints_among(k, constraints, &takes)?;
        let mut row = self.row(
            "closest",
            "the banding that misses the constraints least (the sum of the log-factors by \
             which it misses each bound)"
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
        Some(row)
    }

    /// `recall`: P(t) at least the minimum, then the least false-positive area.
    fn recall(&self, picks: &mut Picks) {
        let (k, t) = (self.k, self.t);
        let min_recall = self.options.min_recall;
        match sharpest_with_probability_at_among(k, t, min_recall, &|b, r| self.takes(b, r)) {
            Some((b, r)) => picks.rows.push(self.row(
                "recall",
                format!("P(t) ≥ {min_recall}, then the least false-positive area"),
                b,
                r,
            )),
            None => picks.not_found.push(format!(
                "recall: no banding with b·r ≤ {k} reaches P({t}) ≥ {min_recall}"
            )),
        }
    }

    /// `datasketch`: its own pick, with warnings where datasketch itself refuses it.
    fn datasketch(&self) -> TuneRow {
        let (fp, fn_) = (self.options.fp_weight, self.options.fn_weight);
        let (b, r) = datasketch_optimal_params(self.t, self.k, fp, fn_);
        let mut row = self.row(
            "datasketch",
            format!("datasketch's pick: min {fp}·∫₀ᵗP + {fn_}·∫ₜ¹(1−P) (uniform similarities)"),
            b,
            r,
        );
        // datasketch/lsh.py (MinHashLSH.__init__) refuses weights outside [0, 1] or whose
        // float sum is not exactly 1.0, and any b < 2, including its own pick.
        if fp + fn_ != 1.0 || fp > 1.0 || fn_ > 1.0 {
            row.warnings.push(format!(
                "datasketch raises ValueError for weights ({fp}, {fn_}): they must lie in [0, 1] \
                 and sum to 1.0; this is its pick for the weights scaled to sum to 1 \
                 ({}, {}), which give the same banding",
                decimal(fp / (fp + fn_)),
                decimal(fn_ / (fp + fn_))
            ));
        }
        if b < 2 {
            row.warnings.push(
                "datasketch raises ValueError for its own pick here (b < 2: \"The number of \
                 bands are too small\")"
                    .to_string(),
            );
        }
        row
    }

    /// For a tool that removes every candidate, a budget row that also keeps the removal
    /// bound goes first: both limits hold, and it has the highest expected recall within the
    /// budget.
    fn put_first_budget_that_keeps_removal_bound(&self, rows: &mut Vec<TuneRow>) {
        if let Some(bound) = self.options.removal_bound()
            && rows.first().is_some_and(|row| row.criterion == "removal")
            && let Some(i) = rows
                .iter()
                .position(|row| row.criterion == "budget" && keeps_removal_bound(row, bound))
        {
            let budget_row = rows.remove(i);
            rows.insert(0, budget_row);
        }
    }
}

/// The corpus columns of banding (b, r) at t on `d`. Precision is undefined with no pair at
/// or above t, and recall and precision both are when `unmeasurable` (a sample with too few
/// pairs at or above t).
fn corpus_columns(
    d: &SimilarityDistribution,
    b: usize,
    r: usize,
    t: f64,
    unmeasurable: bool,
) -> CorpusEstimate {
    let mut estimate = corpus_estimate(d, b, r, t);
    // With no pair at or above t, the share of candidates at or above t is 0 by definition
    // but says nothing about the banding: undefined, like recall.
    if estimate.pairs_at_or_above <= 0.0 {
        estimate.expected_precision = None;
    }
    // From a handful of sampled pairs at or above t, recall and precision at t are not
    // results: left out, and the notes say why.
    if unmeasurable {
        estimate.expected_recall = None;
        estimate.expected_precision = None;
    }
    estimate
}

/// The end of every budget row's description: how [`BUDGET_RECALL_TIE_POINTS`] breaks ties.
fn budget_tie() -> String {
    format!("; within {BUDGET_RECALL_TIE_POINTS} percentage point of it, the fewest candidates")
}
