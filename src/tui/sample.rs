//! The embedded sample corpus: `sample_data/planted.csv` (20 000 generated documents with
//! planted near-duplicates at known Jaccard levels), gzipped into the binary so that a bare
//! `lshscope` shows the explorer with something worth looking at.

use std::io::Read;
use std::path::Path;

use crate::corpus::{Corpus, InputFormat, ReadReport};
use crate::jobs::{Phase, Progress};
use crate::{Error, Result};

/// `gzip -9 -c sample_data/planted.csv > assets/planted.csv.gz`
pub const SAMPLE_GZ: &[u8] = include_bytes!("../../assets/planted.csv.gz");

/// What the sample is called in titles and file names.
pub const SAMPLE_NAME: &str = "embedded sample (planted.csv)";

/// Decodes the embedded `id,text` CSV into a corpus, reporting bytes on `progress`.
pub fn read_sample(progress: &Progress) -> Result<(Corpus, ReadReport)> {
    let name = Path::new("<embedded sample>");
    progress.begin(Phase::Reading, SAMPLE_GZ.len() as u64);
    let mut csv_bytes = Vec::new();
    flate2::read::GzDecoder::new(SAMPLE_GZ)
        .read_to_end(&mut csv_bytes)
        .map_err(|e| Error::io(name, e))?;
    progress.set_total(csv_bytes.len() as u64);
    progress.set_done(0);
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(csv_bytes.as_slice());
    let mut corpus = Corpus::new();
    let mut report = ReadReport {
        format: InputFormat::Csv,
        bytes: csv_bytes.len() as u64,
        ..Default::default()
    };
    let mut record = csv::StringRecord::new();
    let mut last_pos = 0u64;
    loop {
        let more = reader.read_record(&mut record).map_err(|e| {
            let line = e.position().map(|p| p.line()).unwrap_or(0);
            Error::input(name, line, e.to_string())
        })?;
        if !more {
            break;
        }
        let (id, text) = (record.get(0).unwrap_or(""), record.get(1).unwrap_or(""));
        if text.trim().is_empty() {
            report.empty += 1;
        }
        corpus.push(id, text);
        let pos = reader.position().byte();
        progress.advance(pos - last_pos);
        last_pos = pos;
        if corpus.len().is_multiple_of(4096) {
            progress.check()?;
        }
    }
    report.documents = corpus.len();
    Ok((corpus, report))
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
