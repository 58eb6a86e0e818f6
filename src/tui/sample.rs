//! The embedded sample corpus: `sample_data/planted.csv` (20 000 generated documents with
//! planted near-duplicates at known Jaccard levels), gzipped into the binary so that a bare
//! `lshscope` shows the explorer with something worth looking at.

use std::path::Path;

use crate::Result;
use crate::corpus::{Corpus, InputFormat, ReadOptions, ReadReport, read_bytes};
use crate::jobs::Progress;

/// `gzip -9 -c sample_data/planted.csv > assets/planted.csv.gz`
pub const SAMPLE_GZ: &[u8] = include_bytes!("../../assets/planted.csv.gz");

/// What the sample is called in titles and file names.
pub const SAMPLE_NAME: &str = "embedded sample (planted.csv)";

/// Decodes the embedded `id,text` CSV into a corpus with the corpus reader, reporting
/// (compressed) bytes on `progress`.
pub fn read_sample(progress: &Progress) -> Result<(Corpus, ReadReport)> {
    let opts = ReadOptions {
        format: InputFormat::Csv,
        ..ReadOptions::default()
    };
    read_bytes(SAMPLE_GZ, Path::new("<embedded sample>"), &opts, progress)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sample_decodes_to_the_planted_corpus() {
        let (corpus, report) = read_sample(&Progress::new()).unwrap();
        assert_eq!(corpus.len(), 20_000);
        assert_eq!(report.documents, 20_000);
        assert_eq!(corpus.id(0), "doc-000001");
        assert!(corpus.text(0).starts_with("Mol zyst chus"));
    }
}
