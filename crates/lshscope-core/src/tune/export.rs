//! A banding in the parameters of the tools people deduplicate with (datatrove, text-dedup,
//! datasketch, Spark MLlib, NeMo Curator): values to paste, a snippet, and what the tool
//! cannot express or does differently. The one place that knows those tools' terms.

use serde::Serialize;
use serde_json::json;

use crate::minhash::SketchFamily;
use crate::minhash::scurve::candidate_probability;
use crate::minhash::tune::CurveSummary;
use crate::terms::Setting::{
    Banding as GivenBanding, Corpus, Family, Profile as ProfileSetting, Seeds, Shingle,
};
use crate::text::{Profile, ShingleKind};
use crate::util::numfmt::percent_fine;

/// A tool whose parameters [`export_for`] prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tool {
    Datatrove,
    TextDedup,
    Datasketch,
    Spark,
    Nemo,
}

impl Tool {
    /// Whether the tool checks a candidate's similarity before removing it. datatrove and
    /// NeMo Curator's fuzzy workflow do not (checked in their sources); text-dedup does with
    /// the `check_false_positive = true` this export sets, Spark's join compares distances,
    /// datasketch leaves the decision to its caller.
    pub fn verifies(self) -> bool {
        !matches!(self, Tool::Datatrove | Tool::Nemo)
    }

    /// Whether the tool computes exactly the hashes its banding uses, with no separate
    /// num_perm, so that none is "computed but never banded": datatrove (num_buckets ×
    /// hashes_per_bucket), NeMo Curator (num_bands × minhashes_per_band) and Spark MLlib
    /// (numHashTables, one MinHash per table), as their exports below say. text-dedup and
    /// datasketch take num_perm beside the banding, compute all of it and band b·r of it.
    pub fn sizes_signature_from_banding(self) -> bool {
        matches!(self, Tool::Datatrove | Tool::Nemo | Tool::Spark)
    }

    /// The `--profile` that shingles as this tool does.
    pub fn profile(self) -> Profile {
        match self {
            Tool::Datatrove => Profile::Datatrove,
            Tool::TextDedup => Profile::TextDedup,
            Tool::Datasketch => Profile::Datasketch,
            Tool::Spark => Profile::Spark,
            Tool::Nemo => Profile::Nemo,
        }
    }

    /// The tool whose shingling `profile` reproduces (none for lshscope's own).
    pub fn for_profile(profile: Profile) -> Option<Tool> {
        [
            Tool::Datatrove,
            Tool::TextDedup,
            Tool::Datasketch,
            Tool::Spark,
            Tool::Nemo,
        ]
        .into_iter()
        .find(|t| t.profile() == profile)
    }

    /// Why the tool refuses the banding b × r outright (it raises an error), or `None` when it
    /// takes it. A banding the tool can only approximate (Spark's tables are r = 1) is taken:
    /// [`export_for`] prints the tool's nearest equivalent and says what differs.
    pub fn refuses(self, bands: usize, _rows: usize) -> Option<&'static str> {
        match self {
            // datasketch/lsh.py, MinHashLSH.__init__ (ekzhu/datasketch at 8d4bda1, lines
            // 179-180), for params given as for its own pick: `if self.b < 2: raise
            // ValueError("The number of bands are too small (b < 2)")`.
            Tool::Datasketch if bands < 2 => Some(
                "MinHashLSH raises ValueError for b < 2 (\"The number of bands are too small\")",
            ),
            _ => None,
        }
    }

    /// Whether the tool takes b × r (see [`Tool::refuses`]): the filter the tuner's searches
    /// run with when the export is for this tool.
    pub fn takes(self, bands: usize, rows: usize) -> bool {
        self.refuses(bands, rows).is_none()
    }

    /// For a report exported to this tool: that its picks were searched among the bandings
    /// the tool takes, or `None` when it takes every banding.
    pub fn search_note(self) -> Option<String> {
        match self {
            Tool::Datasketch => Some(format!(
                "datasketch refuses bandings with fewer than 2 bands (MinHashLSH raises \
                 ValueError for b < 2), so every pick above (removal, budget, constraints, \
                 recall) was searched among bandings with b ≥ 2; the datasketch row is its own \
                 pick and {GivenBanding} rows are yours, as given"
            )),
            _ => None,
        }
    }

    /// The sketch family the tool draws its K rows with, checked in each tool's source:
    /// every one computes K independent hash functions per shingle, one affine map of the
    /// shingle hash per row, the minimum of each over the set (lshscope's classic family):
    /// datatrove `(shingles * a + b) % _mersenne_prime` (pipeline/dedup/minhash.py at a649de7),
    /// text-dedup `(hashvalues * a + b) % MODULO_PRIME` (config/algorithms/minhash.py at
    /// 7538f3e), datasketch `(a * hv + b) % _mersenne_prime` (minhash.py at 8d4bda1), NeMo
    /// Curator cuDF's `str.minhash(a=seeds_a, b=seeds_b, …)` (stages/deduplication/fuzzy/
    /// minhash.py at 1e2e427), Spark MLlib `((1L + i) * a + b) % MinHashLSH.HASH_PRIME`
    /// (MinHashLSH.scala).
    pub fn family(self) -> SketchFamily {
        match self {
            Tool::Datatrove | Tool::TextDedup | Tool::Datasketch | Tool::Spark | Tool::Nemo => {
                SketchFamily::Classic
            }
        }
    }

    /// What the tool's family is, in one phrase for notes.
    fn family_phrase(self) -> &'static str {
        match self.family() {
            SketchFamily::Classic => {
                "K independent hashes per shingle, one affine map (a·h + b mod a prime) per row: \
                 lshscope's classic family"
            }
            SketchFamily::OnePermutation => "one-permutation hashing with densification",
            SketchFamily::CMinHash => "C-MinHash",
        }
    }

    /// The tool's name as its users write it.
    pub fn name(self) -> &'static str {
        match self {
            Tool::Datatrove => "datatrove",
            Tool::TextDedup => "text-dedup",
            Tool::Datasketch => "datasketch",
            Tool::Spark => "Spark MLlib",
            Tool::Nemo => "NeMo Curator",
        }
    }
}

/// A banding in another tool's terms.
#[derive(Debug, Clone, Serialize)]
pub struct ToolExport {
    pub tool: Tool,
    /// The sketch family the tool draws its rows with ([`Tool::family`]).
    pub family: SketchFamily,
    pub criterion: &'static str,
    /// The tool's parameter names and values, in the order the tool documents them; JSON
    /// writes them as one object in that order (`jq .export.parameters.num_bands` works).
    #[serde(serialize_with = "parameters_as_object")]
    pub parameters: Vec<(String, serde_json::Value)>,
    /// Code or a command line to paste.
    pub snippet: String,
    /// What the tool cannot express, or does differently.
    pub notes: Vec<String>,
}

fn parameters_as_object<S: serde::Serializer>(
    parameters: &[(String, serde_json::Value)],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_map(parameters.iter().map(|(k, v)| (k, v)))
}

/// The banding of `curve` (picked by `criterion`, e.g. a [`super::TuneRow`]'s) in `tool`'s own
/// parameters, with what the tool cannot express.
pub fn export_for(
    tool: Tool,
    criterion: &'static str,
    curve: &CurveSummary,
    num_perm: usize,
    threshold: f64,
    shingle: ShingleKind,
    tuned_family: SketchFamily,
) -> ToolExport {
    let (b, r) = (curve.bands, curve.rows);
    let probability_at_threshold = candidate_probability(threshold, b, r);
    let mut notes = Vec::new();
    let word_ngram_note = |tool: Tool, n: usize| match shingle {
        ShingleKind::Word(_) => None,
        ShingleKind::Char(k) => Some(format!(
            "{} shingles words, not characters: it cannot express char:{k} shingles. \
             Jaccard values (and so the right threshold) differ between the two; re-run \
             `lshscope scan {} {} {} word:{n}` on your data before trusting this \
             banding",
            tool.name(),
            ProfileSetting.in_code(),
            tool.profile(),
            Shingle.in_code()
        )),
    };
    // The same warning inside the block to paste, where it cannot be missed: the n-gram size
    // printed there counts words, so the tool's Jaccard is not the one tuned on.
    let char_shingle_warning = |tool: Tool, parameter: &str, n: usize| match shingle {
        ShingleKind::Word(_) => String::new(),
        ShingleKind::Char(k) => format!(
            "# WARNING: tuned on char:{k} shingles, but {}'s {parameter} counts words: its \
             Jaccard on {n}-word shingles is not the one tuned on; re-tune with {ProfileSetting} {} \
             before using this\n",
            tool.name(),
            tool.profile()
        ),
    };
    let (parameters, snippet) = match tool {
        // Checked against datatrove's pipeline/dedup/minhash.py (huggingface/datatrove at
        // a649de7): shingles are word n-grams of load_word_tokenizer("en") (spaCy's blank
        // English tokenizer) on simplify_text(text), and the buckets stage writes a duplicate pair for every equal band signature, which the
        // cluster stage joins; no Jaccard is computed.
        Tool::Datatrove => {
            let n = word_size(shingle);
            notes.extend(word_ngram_note(tool, n));
            notes.push(
                "datatrove removes every candidate: a pair sharing one band signature is a \
                 duplicate and clusters are joined from such pairs, with no Jaccard check, so \
                 P(s) is the probability that a pair at similarity s is removed"
                    .to_string(),
            );
            notes.push(normalization_note(tool, ShingleKind::Word(n)));
            notes.push(format!(
                "datatrove computes exactly num_buckets × hashes_per_bucket = {} hashes; \
                 there is no separate num_perm",
                b * r
            ));
            (
                vec![
                    ("n_grams".to_string(), json!(n)),
                    ("num_buckets".to_string(), json!(b)),
                    ("hashes_per_bucket".to_string(), json!(r)),
                ],
                format!(
                    "{}from datatrove.pipeline.dedup.minhash import MinhashConfig\n\
                     config = MinhashConfig(n_grams={n}, num_buckets={b}, hashes_per_bucket={r})",
                    char_shingle_warning(tool, "n_grams", n)
                ),
            )
        }
        // Checked against text-dedup's sources (main at 7538f3e): `Config` reads
        // `config.toml` in the working directory (TomlConfigSettingsSource), and its `input`,
        // `algorithm`, `output` and `debug` fields have no defaults, so all four tables must be
        // there; `CliApp.run` lets nested flags (`--algorithm.bands 13`) override the file
        // (tried with its locked pydantic-settings 2.10.1). The `[algorithm]` table names the
        // banding `bands` and `rows`, and `ngram_size` counts words of
        // `regex.split(r"\W", text.lower())`.
        Tool::TextDedup => {
            let n = word_size(shingle);
            notes.extend(word_ngram_note(tool, n));
            notes.push(
                "text-dedup reads its settings from config.toml in the directory it runs in \
                 (the --b/--r flags of its old releases are gone; nested flags such as \
                 --algorithm.bands override the file): put this [algorithm] table there next \
                 to your [input], [output] and [debug] tables, all four of which it requires \
                 (an empty [debug] will do)"
                    .to_string(),
            );
            notes.push(
                "with bands and rows given, text-dedup skips its own datasketch-style \
                 optimisation (which would pick from the threshold alone)"
                    .to_string(),
            );
            notes.push(
                "check_false_positive = true makes text-dedup verify: within each candidate \
                 cluster it keeps as duplicates the documents whose Jaccard with some other member \
                 reaches the threshold; with false it removes every candidate, and P(s) is then \
                 the probability that a pair is removed"
                    .to_string(),
            );
            notes.push(normalization_note(tool, ShingleKind::Word(n)));
            let threshold_text = crate::util::numfmt::decimal(threshold);
            (
                vec![
                    ("algorithm_name".to_string(), json!("minhash")),
                    ("num_perm".to_string(), json!(num_perm)),
                    ("bands".to_string(), json!(b)),
                    ("rows".to_string(), json!(r)),
                    ("ngram_size".to_string(), json!(n)),
                    ("threshold".to_string(), json!(threshold)),
                    ("check_false_positive".to_string(), json!(true)),
                ],
                format!(
                    "# config.toml (in the directory you run text-dedup from)\n\
                     {}\
                     [algorithm]\n\
                     algorithm_name = \"minhash\"\n\
                     text_column = \"text\"\n\
                     num_perm = {num_perm}\n\
                     bands = {b}\n\
                     rows = {r}\n\
                     ngram_size = {n}\n\
                     threshold = {threshold_text}\n\
                     check_false_positive = true\n\
                     # then: uv run -m text_dedup.minhash",
                    char_shingle_warning(tool, "ngram_size", n)
                ),
            )
        }
        Tool::Datasketch => {
            notes.push(
                "with params=(b, r) datasketch ignores `threshold` and `weights`; it requires \
                 b·r ≤ num_perm"
                    .to_string(),
            );
            // Only a banding given with --banding, or datasketch's own pick, gets here with
            // b < 2: the other criteria search among the bandings datasketch takes.
            if let Some(why) = tool.refuses(b, r) {
                notes.push(format!(
                    "datasketch cannot express {b} × {r}: {why}; pick a banding with at least 2 \
                     bands"
                ));
            }
            notes.push(format!(
                "datasketch hashes whatever tokens you pass to MinHash.update: build the {} \
                 shingles yourself",
                shingle
            ));
            if let ShingleKind::Word(_) = shingle {
                notes.push(normalization_note(tool, shingle));
            }
            (
                vec![
                    ("num_perm".to_string(), json!(num_perm)),
                    ("params".to_string(), json!([b, r])),
                ],
                format!(
                    "from datasketch import MinHash, MinHashLSH\n\
                     lsh = MinHashLSH(num_perm={num_perm}, params=({b}, {r}))\n\
                     # each document: m = MinHash(num_perm={num_perm}); m.update(shingle.encode()) ..."
                ),
            )
        }
        Tool::Spark => {
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
        // Checked against NeMo Curator's FuzzyDeduplicationWorkflow (NVIDIA-NeMo/Curator at
        // 1075bd3, again at 1e2e427): char_ngrams defaults to 24 and logs a warning below 20; bands_per_iteration
        // defaults to 5 and must lie in [1, num_bands] (ValueError otherwise); the workflow
        // joins LSH buckets into connected components without verifying any pair.
        Tool::Nemo => {
            let char_ngrams = match shingle {
                ShingleKind::Char(k) => {
                    if k < NEMO_MIN_QUIET_CHAR_NGRAMS {
                        notes.push(format!(
                            "NeMo logs a warning for char_ngrams below \
                             {NEMO_MIN_QUIET_CHAR_NGRAMS} (it reports about 5 % false positives \
                             there); char_ngrams={k} is what you tuned for"
                        ));
                    }
                    notes.push(normalization_note(tool, shingle));
                    Some(k)
                }
                ShingleKind::Word(n) => {
                    notes.push(format!(
                        "NeMo Curator shingles characters (char_ngrams): it cannot express \
                         word:{n}, and this export does not guess a size; re-tune with \
                         `{} char:K` (NeMo's default is 24) and measure with \
                         `lshscope scan {} char:K`",
                        Shingle.in_code(),
                        Shingle.in_code()
                    ));
                    None
                }
            };
            notes.push(
                "NeMo's fuzzy workflow removes every candidate: it joins LSH buckets into \
                 connected components and verifies no pair, so P(s) is the probability that a \
                 pair at similarity s is removed"
                    .to_string(),
            );
            notes.push(format!(
                "NeMo computes num_bands × minhashes_per_band = {} minhashes",
                b * r
            ));
            let mut parameters = vec![
                ("char_ngrams".to_string(), json!(char_ngrams)),
                ("num_bands".to_string(), json!(b)),
                ("minhashes_per_band".to_string(), json!(r)),
            ];
            let mut arguments = format!(
                "char_ngrams={}, num_bands={b}, minhashes_per_band={r}",
                char_ngrams.map_or("K".to_string(), |k| k.to_string())
            );
            if b < NEMO_DEFAULT_BANDS_PER_ITERATION {
                notes.push(format!(
                    "bands_per_iteration must not exceed num_bands and defaults to \
                     {NEMO_DEFAULT_BANDS_PER_ITERATION}: with {b} bands it is set to {b}"
                ));
                parameters.push(("bands_per_iteration".to_string(), json!(b)));
                arguments.push_str(&format!(", bands_per_iteration={b}"));
            }
            (
                parameters,
                format!(
                    "from nemo_curator.stages.deduplication.fuzzy.workflow import FuzzyDeduplicationWorkflow\n\
                     workflow = FuzzyDeduplicationWorkflow(..., {arguments})"
                ),
            )
        }
    };
    notes.push(family_note(tool, tuned_family));
    ToolExport {
        tool,
        family: tool.family(),
        criterion,
        parameters,
        snippet,
        notes,
    }
}

/// Which family the tool draws its rows with, and whether this tuning drew its rows the same
/// way. When not, the curves differ by an amount only a measurement shows: `tune --corpus`
/// adds it ([`family_measured_note`]).
fn family_note(tool: Tool, tuned_family: SketchFamily) -> String {
    if tool.family() == tuned_family {
        format!(
            "{} draws its rows as {}, as this tuning did",
            tool.name(),
            tool.family_phrase()
        )
    } else {
        format!(
            "{} draws its rows as {}; this tuning drew them with {}, whose rows depend on each \
             other, so its real S-curve on your corpus differs from this one by an amount only \
             a measurement shows: tune with {Family} {} (or add {Corpus} FILE to compare \
             candidate counts)",
            tool.name(),
            tool.family_phrase(),
            tuned_family,
            tool.family()
        )
    }
}

/// The export's banding counted on the same documents and seeds in the tuning's family and in
/// the tool's: the measured difference the family note points to.
pub fn family_measured_note(
    tool: Tool,
    banding: crate::minhash::Banding,
    tuned: (SketchFamily, &super::SeedSpread),
    tools: &super::SeedSpread,
) -> String {
    let range = |s: &super::SeedSpread| {
        let count = match (s.median, s.min, s.max) {
            (Some(median), Some(min), Some(max)) if s.seeds.len() > 1 => format!(
                "{} candidate pairs (median; seeds {}–{})",
                s.show(median),
                s.show(min),
                s.show(max)
            ),
            (Some(median), _, _) => format!("{} candidate pairs", s.show(median)),
            _ => return "a count the work bound stopped".to_string(),
        };
        // Counted on a sample: where the corpus's count lies for every seed, at 95 % each.
        match (s.estimated(), s.low, s.high) {
            (true, Some(low), Some(high)) => {
                format!("{count}, 95 % interval {}–{}", s.show(low), s.show(high))
            }
            _ => count,
        }
    };
    let seeds = tools.seeds.len();
    format!(
        "measured on {Corpus} with {seeds} {} at {banding}: {} ({}) gives {}; {} gives {}{}",
        crate::util::numfmt::for_count(seeds as u64, "seed", "seeds"),
        tool.family(),
        tool.name(),
        range(tools),
        tuned.0,
        range(tuned.1),
        if seeds == 1 {
            format!(" (one seed shows one draw of each family: {Seeds} 5 shows how far they move)")
        } else {
            String::new()
        }
    )
}

/// What `tool` does to text before hashing, and how `--profile` reproduces it for `shingle`
/// (the statements themselves live with the profiles, in [`Profile::normalization`] and
/// [`Profile::fidelity`]).
fn normalization_note(tool: Tool, shingle: ShingleKind) -> String {
    let profile = tool.profile();
    format!(
        "{}'s shingles: {}. `{} {profile} {} {shingle}` (scan, truth, dedup, explore) \
         reproduces them: {}. The Jaccard you tune on is then the one {} sees",
        tool.name(),
        profile.normalization(),
        ProfileSetting.in_code(),
        Shingle.in_code(),
        profile.fidelity(),
        tool.name()
    )
}

/// Below this char_ngrams NeMo's workflow logs a false-positive warning.
const NEMO_MIN_QUIET_CHAR_NGRAMS: usize = 20;

/// NeMo's default bands_per_iteration, which must not exceed num_bands.
const NEMO_DEFAULT_BANDS_PER_ITERATION: usize = 5;

/// Added to Spark's distance threshold so that its strict comparison keeps the pairs at
/// exactly J = t: far below any difference between two Jaccard values of real sets, far above
/// the rounding of 1 − J.
const SPARK_DISTANCE_MARGIN: f64 = 1e-9;

/// The fewest single-MinHash tables (r = 1) whose P(t) = 1 − (1 − t)^tables reaches
/// `probability` (capped just below 1, where no finite number of tables reaches it).
fn spark_tables_reaching(probability: f64, threshold: f64) -> usize {
    let target = probability.min(1.0 - 1e-12);
    ((1.0 - target).ln() / (1.0 - threshold).ln())
        .ceil()
        .max(1.0) as usize
}

/// The word n-gram size to print for tools that only shingle words.
fn word_size(shingle: ShingleKind) -> usize {
    match shingle {
        ShingleKind::Word(n) => n,
        // No character-to-word equivalence exists; 5 words is datatrove's default.
        ShingleKind::Char(_) => 5,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::minhash::tune::summarize;

    #[test]
    fn spark_gets_enough_single_hash_tables_for_the_same_probability() {
        let t = 0.8;
        let e = export_for(
            Tool::Spark,
            "given",
            &summarize(20, 5, Some(t)),
            128,
            t,
            ShingleKind::Char(5),
            SketchFamily::Classic,
        );
        let tables = e.parameters[0].1.as_u64().unwrap() as usize;
        let p = summarize(20, 5, Some(t)).probability_at_threshold.unwrap();
        assert!(candidate_probability(t, tables, 1) >= p);
        assert!(candidate_probability(t, tables - 1, 1) < p);
        assert!(e.notes[0].contains("cannot express 20 × 5"));
        // r = 1 is Spark's own shape: the bands are the tables, nothing to explain.
        let same = export_for(
            Tool::Spark,
            "given",
            &summarize(7, 1, Some(t)),
            128,
            t,
            ShingleKind::Char(5),
            SketchFamily::Classic,
        );
        assert_eq!(same.parameters[0].1, json!(7));
        assert!(!same.notes.iter().any(|n| n.contains("cannot express")));
        assert_eq!(same.family, SketchFamily::Classic);
        assert!(same.notes.last().unwrap().contains("as this tuning did"));
        // Tuned in another family: the export says so and how to measure the difference.
        let other = export_for(
            Tool::Spark,
            "given",
            &summarize(7, 1, Some(t)),
            128,
            t,
            ShingleKind::Char(5),
            SketchFamily::OnePermutation,
        );
        let note = crate::terms::render_neutral(other.notes.last().unwrap());
        assert!(
            note.contains("drew them with one-permutation") && note.contains("`family` classic"),
            "{note}"
        );
    }
}
