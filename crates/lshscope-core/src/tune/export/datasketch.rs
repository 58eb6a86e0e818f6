//! The banding in datasketch's `MinHashLSH(params=(b, r))`.

use super::*;

pub(super) fn parameters(tuned: &Tuned, notes: &mut Vec<String>) -> (Parameters, String) {
    let tool = Tool::Datasketch;
    let Tuned {
        bands: b,
        rows: r,
        num_perm,
        shingle,
        ..
    } = *tuned;
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
