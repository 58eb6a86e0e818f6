//! The banding in NeMo Curator's `FuzzyDeduplicationWorkflow`.

use super::*;

/// Below this char_ngrams NeMo's workflow logs a false-positive warning.
const NEMO_MIN_QUIET_CHAR_NGRAMS: usize = 20;

/// NeMo's default bands_per_iteration, which must not exceed num_bands.
const NEMO_DEFAULT_BANDS_PER_ITERATION: usize = 5;

// Checked against NeMo Curator's FuzzyDeduplicationWorkflow (NVIDIA-NeMo/Curator at
// 1075bd3, again at 1e2e427): char_ngrams defaults to 24 and logs a warning below 20; bands_per_iteration
// defaults to 5 and must lie in [1, num_bands] (ValueError otherwise); the workflow
// joins LSH buckets into connected components without verifying any pair.
pub(super) fn parameters(tuned: &Tuned, notes: &mut Vec<String>) -> (Parameters, String) {
    let tool = Tool::Nemo;
    let Tuned {
        bands: b,
        rows: r,
        shingle,
        ..
    } = *tuned;
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
