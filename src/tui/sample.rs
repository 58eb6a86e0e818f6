//! The embedded sample corpus: `sample_data/jobs.csv`, 20 000 job ads written by
//! `lshscope gen --kind jobs` (reposts, edited reposts, agency templates, company boilerplate
//! and planted near-duplicates at known Jaccard levels, listed in `sample_data/jobs.truth.csv`),
//! gzipped into the binary so that a bare `lshscope` opens the explorer on texts a person can
//! read and judge.

use std::path::Path;

use lshscope_core::Result;
use lshscope_core::corpus::{Corpus, InputFormat, ReadOptions, ReadReport, read_bytes};
use lshscope_core::jobs::Progress;

/// `lshscope gen --kind jobs -o sample_data/jobs.csv --truth sample_data/jobs.truth.csv`, then
/// `gzip -9 -c sample_data/jobs.csv > assets/jobs.csv.gz`.
pub const SAMPLE_GZ: &[u8] = include_bytes!("../../assets/jobs.csv.gz");

/// What the sample is called in titles and file names.
pub const SAMPLE_NAME: &str = "embedded sample (jobs.csv: 20 000 job ads)";

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
    use lshscope_core::synthetic::jobads::{JobAdOptions, generate_job_ads};

    #[test]
    fn sample_decodes_to_the_job_ads() {
        let (corpus, report) = read_sample(&Progress::new()).unwrap();
        assert_eq!(corpus.len(), 20_000);
        assert_eq!(report.documents, 20_000);
        assert_eq!(corpus.id(0), "job-000001");
        // English a person can read, starting with the title.
        assert!(corpus.text(0).starts_with(FIRST_AD), "{}", corpus.text(0));
    }

    /// The first words of the sample's first ad.
    const FIRST_AD: &str = "Registered Nurse – Redmoor & Co – Zürich (hybrid). Full-time";

    /// The embedded sample is what `gen --kind jobs` writes with its defaults: when the
    /// generator changes, regenerate it with the commands on [`SAMPLE_GZ`].
    #[test]
    fn sample_is_what_gen_kind_jobs_writes() {
        let (corpus, _) = read_sample(&Progress::new()).unwrap();
        let generated = generate_job_ads(&JobAdOptions::default()).corpus;
        assert_eq!(corpus.len(), generated.len());
        let differs = (0..corpus.len())
            .find(|&d| corpus.id(d) != generated.id(d) || corpus.text(d) != generated.text(d));
        assert_eq!(
            differs, None,
            "assets/jobs.csv.gz is out of date with the generator: regenerate sample_data/jobs.csv \
             and its truth with `lshscope gen --kind jobs` and gzip it again"
        );
    }
}
