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

mod datasketch;
mod datatrove;
mod nemo;
mod spark;
mod text_dedup;

/// A tool's parameters, in the order the tool documents them.
type Parameters = Vec<(String, serde_json::Value)>;

/// What every tool's parameters are computed from.
#[derive(Debug, Clone, Copy)]
struct Tuned {
    bands: usize,
    rows: usize,
    num_perm: usize,
    threshold: f64,
    shingle: ShingleKind,
    /// P(t) of the banding.
    probability_at_threshold: f64,
}

impl Tuned {
    /// For a tool that shingles words only: why a char-shingle tuning does not carry over.
    fn word_ngram_note(&self, tool: Tool, n: usize) -> Option<String> {
        match self.shingle {
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
        }
    }

    /// The same warning inside the block to paste, where it cannot be missed: the n-gram size
    /// printed there counts words, so the tool's Jaccard is not the one tuned on.
    fn char_shingle_warning(&self, tool: Tool, parameter: &str, n: usize) -> String {
        match self.shingle {
            ShingleKind::Word(_) => String::new(),
            ShingleKind::Char(k) => format!(
                "# WARNING: tuned on char:{k} shingles, but {}'s {parameter} counts words: its \
                 Jaccard on {n}-word shingles is not the one tuned on; re-tune with {ProfileSetting} {} \
                 before using this\n",
                tool.name(),
                tool.profile()
            ),
        }
    }
}

/// A tool whose parameters [`export_for`] prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tool {
    /// Hugging Face datatrove's MinHash deduplication.
    Datatrove,
    /// text-dedup's MinHash LSH script.
    TextDedup,
    /// datasketch's `MinHashLSH`.
    Datasketch,
    /// Spark MLlib's `MinHashLSH`.
    Spark,
    /// NVIDIA NeMo Curator's fuzzy deduplication.
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
    /// The tool the parameters are for.
    pub tool: Tool,
    /// The sketch family the tool draws its rows with ([`Tool::family`]).
    pub family: SketchFamily,
    /// The criterion that picked the banding ([`super::TuneRow::criterion`]).
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
    let tuned = Tuned {
        bands: curve.bands,
        rows: curve.rows,
        num_perm,
        threshold,
        shingle,
        probability_at_threshold: candidate_probability(threshold, curve.bands, curve.rows),
    };
    let mut notes = Vec::new();
    let (parameters, snippet) = match tool {
        Tool::Datatrove => datatrove::parameters(&tuned, &mut notes),
        Tool::TextDedup => text_dedup::parameters(&tuned, &mut notes),
        Tool::Datasketch => datasketch::parameters(&tuned, &mut notes),
        Tool::Spark => spark::parameters(&tuned, &mut notes),
        Tool::Nemo => nemo::parameters(&tuned, &mut notes),
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
