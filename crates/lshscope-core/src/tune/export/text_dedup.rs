//! The banding in text-dedup's `[algorithm]` table in config.toml.

use super::*;

// Checked against text-dedup's sources (main at 7538f3e): `Config` reads
// `config.toml` in the working directory (TomlConfigSettingsSource), and its `input`,
// `algorithm`, `output` and `debug` fields have no defaults, so all four tables must be
// there; `CliApp.run` lets nested flags (`--algorithm.bands 13`) override the file
// (tried with its locked pydantic-settings 2.10.1). The `[algorithm]` table names the
// banding `bands` and `rows`, and `ngram_size` counts words of
// `regex.split(r"\W", text.lower())`.
pub(super) fn parameters(tuned: &Tuned, notes: &mut Vec<String>) -> (Parameters, String) {
    let tool = Tool::TextDedup;
    let Tuned {
        bands: b,
        rows: r,
        num_perm,
        threshold,
        shingle,
        ..
    } = *tuned;
    let n = word_size(shingle);
    notes.extend(tuned.word_ngram_note(tool, n));
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
            tuned.char_shingle_warning(tool, "ngram_size", n)
        ),
    )
}
