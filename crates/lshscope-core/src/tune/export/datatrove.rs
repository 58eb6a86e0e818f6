//! The banding in datatrove's `MinhashConfig`.

use super::*;

// Checked against datatrove's pipeline/dedup/minhash.py (huggingface/datatrove at
// a649de7): shingles are word n-grams of load_word_tokenizer("en") (spaCy's blank
// English tokenizer) on simplify_text(text), and the buckets stage writes a duplicate pair
// for every equal band signature, which the cluster stage joins; no Jaccard is computed.
pub(super) fn parameters(tuned: &Tuned, notes: &mut Vec<String>) -> (Parameters, String) {
    let tool = Tool::Datatrove;
    let Tuned {
        bands: b,
        rows: r,
        shingle,
        ..
    } = *tuned;
    let n = word_size(shingle);
    notes.extend(tuned.word_ngram_note(tool, n));
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
            tuned.char_shingle_warning(tool, "n_grams", n)
        ),
    )
}
