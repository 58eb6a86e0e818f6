//! `tune --format csv`: one row per criterion, the curve's numbers and, with a corpus, its
//! counts and seed spread.

use lshscope_core::tune::TuneReport;
use lshscope_core::{Error, Result};

/// A CSV field: the number, or empty when there is none.
fn optional(v: Option<f64>) -> String {
    v.map(|x| x.to_string()).unwrap_or_default()
}

pub(super) fn render_csv(report: &TuneReport) -> Result<String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let corpus = report.corpus.is_some();
    let mut header = vec![
        "criterion",
        "bands",
        "rows",
        "hashes",
        "unused_permutations",
        "steepest_point",
        "steepest_slope",
        "approximate_threshold",
        "threshold",
        "probability_at_threshold",
        "similarity_at_10",
        "similarity_at_50",
        "similarity_at_90",
        "width_10_90",
        "probability_at_approximate_threshold",
        "false_positive_area",
        "false_negative_area",
    ];
    let quantile_columns: Vec<String> = report
        .rows
        .first()
        .map(|r| {
            r.quantiles
                .iter()
                .map(|(p, _)| format!("s_at_{p}"))
                .collect()
        })
        .unwrap_or_default();
    header.extend(quantile_columns.iter().map(String::as_str));
    if corpus {
        header.extend([
            "expected_candidates",
            "expected_recall",
            "expected_precision",
        ]);
    }
    // A weighted sample of pairs: each estimate's 95 % interval.
    let sampled = report.rows.iter().any(|r| r.sampled.is_some());
    if sampled {
        header.extend([
            "expected_candidates_low",
            "expected_candidates_high",
            "expected_recall_low",
            "expected_recall_high",
            "expected_precision_low",
            "expected_precision_high",
        ]);
    }
    let seeds = report.seed_corpus.is_some();
    if seeds {
        header.extend([
            "candidates_median",
            "candidates_min",
            "candidates_max",
            "candidates_low",
            "candidates_high",
        ]);
    }
    header.push("warnings");
    let io = |e: csv::Error| Error::internal(format!("cannot format the CSV table: {e}"));
    w.write_record(&header).map_err(io)?;
    for row in &report.rows {
        let c = &row.curve;
        let mut rec = vec![
            row.criterion.to_string(),
            c.bands.to_string(),
            c.rows.to_string(),
            c.hashes.to_string(),
            row.unused_permutations.to_string(),
            c.steepest_point.to_string(),
            c.steepest_slope.to_string(),
            c.approximate_threshold.to_string(),
            optional(c.threshold),
            optional(c.probability_at_threshold),
            c.similarity_at_10.to_string(),
            c.similarity_at_50.to_string(),
            c.similarity_at_90.to_string(),
            c.width_10_90.to_string(),
            c.probability_at_approximate_threshold.to_string(),
            optional(c.false_positive_area),
            optional(c.false_negative_area),
        ];
        rec.extend(row.quantiles.iter().map(|(_, s)| s.to_string()));
        if let Some(e) = &row.corpus {
            let opt = |v: Option<f64>| v.map(|x| x.to_string()).unwrap_or_default();
            rec.extend([
                e.expected_candidates.to_string(),
                opt(e.expected_recall),
                opt(e.expected_precision),
            ]);
        }
        if sampled {
            let iv = row.sampled.as_ref();
            let ends = |v: Option<(f64, f64)>| [optional(v.map(|x| x.0)), optional(v.map(|x| x.1))];
            let [cl, ch] = ends(iv.map(|i| i.expected_candidates));
            let [rl, rh] = ends(iv.and_then(|i| i.expected_recall));
            let [pl, ph] = ends(iv.and_then(|i| i.expected_precision));
            rec.extend([cl, ch, rl, rh, pl, ph]);
        }
        if seeds {
            let spread = row.seed_spread.as_ref();
            rec.extend([
                optional(spread.and_then(|s| s.median)),
                optional(spread.and_then(|s| s.min)),
                optional(spread.and_then(|s| s.max)),
                optional(spread.and_then(|s| s.low)),
                optional(spread.and_then(|s| s.high)),
            ]);
        }
        rec.push(row.warnings.join("; "));
        w.write_record(&rec).map_err(io)?;
    }
    let bytes = w
        .into_inner()
        .map_err(|e| Error::internal(format!("cannot format the CSV table: {e}")))?;
    Ok(String::from_utf8(bytes).expect("CSV of UTF-8 fields is UTF-8"))
}
