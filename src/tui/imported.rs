//! The explorer on another tool's result (`explore --pairs FILE`, `explore --clusters FILE`):
//! the pairs or clusters of that file take the place of lshscope's own banding.
//!
//! The import runs as the re-banding job does, with the same ticket (so the status line,
//! cancellation and "latest wins" are the candidates' own), and answers with a
//! [`BandOutcome`]: the histogram, pair list, viewer, labels and missed list need nothing
//! new. The file is read and its Jaccards computed once; b and r still move the S-curve, which
//! stays as a reference, and recount each pair's bands hit under the new banding, but the
//! pairs are the file's. The clusters view audits the file's clusters (a pairs file: the
//! connected components of all its pairs, as a tool that does not verify removes them).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use lshscope_core::analysis::clusters::{AuditLimits, Clusters};
use lshscope_core::analysis::import::{
    ImportOptions, ImportReport, count_bands_hit, import_clusters, import_pairs, pair_components,
};
use lshscope_core::jobs::Ticket;
use lshscope_core::minhash::VerifiedPair;
use lshscope_core::{Error, Result};

use super::candidates::{BandOutcome, Prepared, RebandJob, RebandRequest};
use super::clusters::FixedClusters;

/// Which kind of result a file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImportKind {
    /// Pairs of document ids.
    Pairs,
    /// Document id → cluster id.
    Clusters,
}

/// The file to import and how to read it. Public fields: given once through `App::new`'s
/// inputs and only read after that.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportSpec {
    pub kind: ImportKind,
    pub path: PathBuf,
    pub options: ImportOptions,
}

impl ImportSpec {
    /// The file's name for titles (`pairs.parquet`).
    pub fn file_name(&self) -> String {
        self.path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| self.path.display().to_string())
    }
}

/// What an import read: its pairs with exact Jaccards (`bands_hit` 0), the clusters the tool
/// forms, and what was set aside. Public fields: an import job's answer, kept as it came
/// ([`ImportedState::accept`]) and only read.
#[derive(Debug, Clone)]
pub struct Imported {
    pub kind: ImportKind,
    /// Pairs: the file's pairs. Clusters: each removed document with its cluster's kept one.
    pub pairs: Arc<Vec<VerifiedPair>>,
    pub clusters: Arc<Clusters>,
    /// Clusters whose spanning tree came from sampled member pairs.
    pub sampled_trees: usize,
    pub report: ImportReport,
}

/// The session's import: what to read, and what was read. Its fields are private: read
/// through the accessors, changed only by [`ImportedState::accept`].
#[derive(Debug, Default)]
pub struct ImportedState {
    spec: Option<Arc<ImportSpec>>,
    result: Option<Arc<Imported>>,
    /// The report was shown once.
    announced: bool,
}

impl ImportedState {
    /// The session's import, given once at the start (`None`: lshscope's own banding).
    pub fn new(spec: Option<ImportSpec>) -> Self {
        ImportedState {
            spec: spec.map(Arc::new),
            ..ImportedState::default()
        }
    }

    /// The file to import and how to read it.
    pub fn spec(&self) -> Option<&ImportSpec> {
        self.spec.as_deref()
    }

    /// What the import read, once it did.
    pub fn result(&self) -> Option<&Imported> {
        self.result.as_deref()
    }

    /// Keeps what an import job read (later bandings only recount the bands hit); the first
    /// time, hands back the report's summary for the status line.
    pub fn accept(&mut self, imported: Arc<Imported>) -> Option<String> {
        let news = (!self.announced).then(|| format!("imported {}", imported.report.summary()));
        self.announced = true;
        self.result = Some(imported);
        news
    }

    /// True when the candidates come from a file rather than lshscope's banding.
    pub fn is_active(&self) -> bool {
        self.spec.is_some()
    }

    /// The job that answers `ticket` in import mode (`None`: lshscope's own banding).
    pub fn job_for(&self, ticket: &RebandJob) -> Option<ImportJob> {
        let spec = self.spec.clone()?;
        Some(Ticket {
            id: ticket.id,
            request: ImportRequest {
                reband: ticket.request.clone(),
                spec,
                imported: self.result.clone(),
            },
            progress: ticket.progress.clone(),
            submitted: ticket.submitted,
        })
    }

    /// The clusters the clusters view audits instead of clustering the candidates.
    pub fn clusters(&self) -> Option<FixedClusters> {
        self.result.as_ref().map(|r| FixedClusters {
            clusters: Arc::clone(&r.clusters),
            from_pairs: r.kind == ImportKind::Pairs,
        })
    }

    /// What the pair list and histogram show: `pairs from FILE`, or for clusters `removed ↔
    /// kept, clusters from FILE`.
    pub fn pairs_heading(&self) -> Option<String> {
        let source = self.source()?;
        Some(match self.spec.as_ref()?.kind {
            ImportKind::Pairs => format!("imported {source}"),
            ImportKind::Clusters => format!("removed ↔ kept, {source}"),
        })
    }

    /// `pairs from FILE` / `clusters from FILE`, for titles.
    pub fn source(&self) -> Option<String> {
        let spec = self.spec.as_ref()?;
        let what = match spec.kind {
            ImportKind::Pairs => "pairs",
            ImportKind::Clusters => "clusters",
        };
        Some(format!("{what} from {}", spec.file_name()))
    }
}

/// Import (once) and answer a banding with the file's pairs.
/// Public fields: a message from the App to a job, built once and read by the job.
#[derive(Debug, Clone)]
pub struct ImportRequest {
    /// The banding asked for, the list view and the histogram bins.
    pub reband: RebandRequest,
    pub spec: Arc<ImportSpec>,
    /// The file as read before, if it was: only the bands hit are counted again.
    pub imported: Option<Arc<Imported>>,
}

pub type ImportJob = Ticket<ImportRequest>;

/// An import job's answer.
#[derive(Debug)]
pub enum ImportAnswer {
    Done {
        imported: Arc<Imported>,
        outcome: BandOutcome,
    },
    /// The file cannot be imported (the session ends with this error).
    Failed { request: u64, error: Error },
}

/// Reads the file (unless read before) and answers the request's banding; `None` when
/// cancelled.
pub fn run_import(job: &ImportJob) -> Option<ImportAnswer> {
    let start = Instant::now();
    let request = &job.request;
    let imported = match &request.imported {
        Some(done) => Arc::clone(done),
        None => match read(&request.spec, &request.reband, job) {
            Ok(done) => Arc::new(done),
            Err(Error::Cancelled) => return None,
            Err(error) => {
                return Some(ImportAnswer::Failed {
                    request: job.id,
                    error,
                });
            }
        },
    };
    if job.progress.check().is_err() {
        return None;
    }
    let data = &request.reband.data;
    let banding = request.reband.banding;
    let mut pairs = imported.pairs.as_ref().clone();
    count_bands_hit(&mut pairs, banding, &data.index.signatures);
    let prepared = Prepared::new(&pairs, request.reband.bins, request.reband.view);
    job.progress.finish();
    Some(ImportAnswer::Done {
        imported,
        outcome: BandOutcome {
            request: job.id,
            banding,
            pairs: Arc::new(pairs),
            known: None,
            elapsed: start.elapsed(),
            prepared: Some(Box::new(prepared)),
        },
    })
}

fn read(spec: &ImportSpec, request: &RebandRequest, job: &ImportJob) -> Result<Imported> {
    let data = &request.data;
    let (corpus, index) = (&data.corpus, &data.index);
    Ok(match spec.kind {
        ImportKind::Pairs => {
            let read = import_pairs(&spec.path, corpus, index, &spec.options, &job.progress)?;
            // The explorer copies the pairs for every banding it shows: the re-banding's budget.
            let limit = lshscope_core::pipeline::rebanding::MAX_BUCKET_PAIRS;
            if read.pairs.len() as u64 > limit {
                return Err(Error::refused(format!(
                    "{} holds {} distinct pairs, more than the explorer holds ({}); audit the \
                     tool's clusters with --clusters instead, or keep fewer pairs",
                    spec.path.display(),
                    lshscope_core::util::numfmt::thousands(read.pairs.len() as u64),
                    lshscope_core::util::numfmt::thousands(limit)
                )));
            }
            let clusters = pair_components(corpus.len(), &read.pairs);
            Imported {
                kind: spec.kind,
                pairs: Arc::new(read.pairs),
                clusters: Arc::new(clusters),
                sampled_trees: 0,
                report: read.report,
            }
        }
        ImportKind::Clusters => {
            let read = import_clusters(
                &spec.path,
                corpus,
                index,
                &spec.options,
                AuditLimits::default().exact_members,
                &job.progress,
            )?;
            Imported {
                kind: spec.kind,
                pairs: Arc::new(read.pairs),
                clusters: Arc::new(read.clusters),
                sampled_trees: read.sampled_trees,
                report: read.report,
            }
        }
    })
}
