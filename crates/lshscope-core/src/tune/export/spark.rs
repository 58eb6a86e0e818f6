//! The banding in Spark MLlib's `MinHashLSH` (single-MinHash tables).

use super::*;

/// Added to Spark's distance threshold so that its strict comparison keeps the pairs at
/// exactly J = t: far below any difference between two Jaccard values of real sets, far above
/// the rounding of 1 − J.
const SPARK_DISTANCE_MARGIN: f64 = 1e-9;

pub(super) fn parameters(tuned: &Tuned, notes: &mut Vec<String>) -> (Parameters, String) {
    let tool = Tool::Spark;
    let Tuned {
        bands: b,
        rows: r,
        threshold,
        shingle,
        probability_at_threshold,
        ..
    } = *tuned;
    // Spark's LSH.approxSimilarityJoin keeps `distCol < threshold` (strictly: checked in
    // mllib's LSH.scala, apache/spark at 033ae5d), so a pair at exactly J = t, distance
    // 1 − t, is dropped; a hair above 1 − t keeps J ≥ t, as lshscope's threshold does.
    let exact_distance = crate::util::numfmt::decimal(1.0 - threshold);
    let distance = crate::util::numfmt::decimal(1.0 - threshold + SPARK_DISTANCE_MARGIN);
    // Spark's tables are single MinHashes (r = 1); for r > 1, the nearest it can do is
    // r = 1 with enough tables to reach the same P(t).
    let tables = if r == 1 {
        b
    } else {
        spark_tables_reaching(probability_at_threshold, threshold)
    };
    if r > 1 {
        notes.push(format!(
            "Spark's MinHashLSH cannot express {b} × {r}: each of its numHashTables is a \
             single MinHash (r = 1, OR only), with no AND of rows inside a band"
        ));
        let low = threshold / 2.0;
        notes.push(format!(
            "the nearest Spark curve reaching the same P(t) = {} is numHashTables={tables} \
             (r = 1), which also makes pairs at similarity {low} candidates with P = {} \
             (vs {} for {b} × {r}); the similarity join then verifies them all",
            percent_fine(probability_at_threshold),
            percent_fine(candidate_probability(low, tables, 1)),
            percent_fine(candidate_probability(low, b, r))
        ));
        notes.push(
            "to get AND inside bands, concatenate r MinHash values per band yourself and \
             join on the band keys"
                .to_string(),
        );
    }
    notes.push(format!(
        "approxSimilarityJoin takes a Jaccard *distance* threshold and keeps pairs strictly \
         below it: 1 − t = {exact_distance} would drop the pairs at exactly J = t, so the \
         snippet passes {distance}"
    ));
    notes.push(
        "joining a DataFrame with itself returns every pair twice and each row with itself: \
         keep datasetA.id < datasetB.id, as the snippet does"
            .to_string(),
    );
    notes.push(match shingle {
        ShingleKind::Char(k) => format!(
            "Spark hashes sparse feature vectors: build the {shingle} shingles first; \
             NGram joins tokens, so for char:{k} the tokens must be single characters \
             (split each text into its characters, then NGram(n={k}) + HashingTF)"
        ),
        ShingleKind::Word(n) => format!(
            "Spark hashes sparse feature vectors: build the {shingle} shingles first \
             (Tokenizer, NGram(n={n}), HashingTF)"
        ),
    });
    // MinHashLSHModel.hashFunction: `require(elems.numNonzeros > 0, "Must have at
    // least 1 non zero entry.")`, and NGram gives no n-gram for fewer than n tokens.
    notes.push(
        "MinHashLSH fails on a document without shingles (\"Must have at least 1 non \
         zero entry\"): NGram(n) gives none for a text of fewer than n tokens, so drop \
         the rows whose n-gram list is empty before fit and the join"
            .to_string(),
    );
    if let ShingleKind::Word(_) = shingle {
        notes.push(normalization_note(tool, shingle));
    }
    (
        vec![("numHashTables".to_string(), json!(tables))],
        format!(
            "from pyspark.ml.feature import MinHashLSH\n\
             mh = MinHashLSH(inputCol=\"features\", outputCol=\"hashes\", numHashTables={tables})\n\
             model = mh.fit(df)\n\
             pairs = model.approxSimilarityJoin(df, df, {distance}, distCol=\"JaccardDistance\") \\\n\
             \x20   .filter(\"datasetA.id < datasetB.id\")"
        ),
    )
}

/// The fewest single-MinHash tables (r = 1) whose P(t) = 1 − (1 − t)^tables reaches
/// `probability` (capped just below 1, where no finite number of tables reaches it).
fn spark_tables_reaching(probability: f64, threshold: f64) -> usize {
    let target = probability.min(1.0 - 1e-12);
    ((1.0 - target).ln() / (1.0 - threshold).ln())
        .ceil()
        .max(1.0) as usize
}
