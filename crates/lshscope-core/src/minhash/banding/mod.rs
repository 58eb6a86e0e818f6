//! LSH banding: split each signature into b bands of r rows, bucket documents by band, and
//! collect the pairs that share at least one bucket.

mod buckets;
mod candidates;
mod keys;
mod stats;
#[cfg(test)]
mod tests;

pub(crate) use buckets::bucket_lists_of_representatives;
pub use buckets::{BandBuckets, BucketLists, SharedBands, bucket_lists};
pub use candidates::{find_candidates, find_candidates_among};
pub use keys::{band_key, band_keys};

use super::index::Signatures;
use crate::terms::Setting::{Bands, NumPerm, Rows};
use crate::{Error, Result};

/// b bands of r rows; uses the first b·r rows of each signature.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Banding {
    /// b: the number of bands, at least 1.
    pub bands: usize,
    /// r: signature rows per band, at least 1. Band i hashes rows `i·r..(i+1)·r`.
    pub rows: usize,
}

impl Banding {
    /// Checks b ≥ 1, r ≥ 1 and b·r ≤ K.
    pub fn new(bands: usize, rows: usize, num_perm: usize) -> Result<Self> {
        if num_perm == 0 {
            return Err(Error::usage(format!("{NumPerm} must be at least 1")));
        }
        if bands == 0 || rows == 0 {
            return Err(Error::usage(format!(
                "bands and rows must be at least 1 (got {bands} bands × {rows} rows)"
            )));
        }
        if bands * rows > num_perm {
            return Err(Error::usage(format!(
                "{bands} bands × {rows} rows = {} hashes, but signatures have only {num_perm} \
                 ({NumPerm}): lower {Bands} or {Rows}, or raise {NumPerm}",
                bands * rows
            )));
        }
        Ok(Banding { bands, rows })
    }

    /// b·r: the signature rows the banding reads (at most K; the rest are unused).
    pub fn hashes_used(&self) -> usize {
        self.bands * self.rows
    }

    /// For each band, how many of its r rows the signatures `a` and `b` agree on; r means the
    /// band puts them in the same bucket (its key is a hash of exactly those r values).
    pub fn band_agreement<'s>(
        &self,
        a: &'s [u32],
        b: &'s [u32],
    ) -> impl Iterator<Item = usize> + 's {
        let rows = self.rows;
        (0..self.bands).map(move |i| {
            let range = i * rows..(i + 1) * rows;
            crate::minhash::similarity::agreeing_rows(&a[range.clone()], &b[range])
        })
    }

    /// Which bands put documents `a` and `b` of `sigs` in the same bucket. A document without
    /// shingles is in no bucket, so it collides nowhere.
    pub fn agreeing_bands(&self, sigs: &Signatures, a: usize, b: usize) -> Vec<bool> {
        let empty = sigs.is_empty_doc(a) || sigs.is_empty_doc(b);
        self.band_agreement(sigs.row(a), sigs.row(b))
            .map(|rows| !empty && rows == self.rows)
            .collect()
    }

    /// True when documents `a` and `b` of `sigs` share a bucket in some band: a candidate
    /// pair (the bucket cap aside), decided from the two signatures, as
    /// [`Self::agreeing_bands`] decides each band.
    pub fn collide(&self, sigs: &Signatures, a: usize, b: usize) -> bool {
        !sigs.is_empty_doc(a)
            && !sigs.is_empty_doc(b)
            && self
                .band_agreement(sigs.row(a), sigs.row(b))
                .any(|rows| rows == self.rows)
    }

    /// The most rows any one band agrees on for documents `a` and `b` of `sigs`: r means they
    /// are a candidate; for a missed pair, how close it came.
    pub fn closest_band(&self, sigs: &Signatures, a: usize, b: usize) -> usize {
        self.band_agreement(sigs.row(a), sigs.row(b))
            .max()
            .unwrap_or(0)
    }
}

impl std::fmt::Display for Banding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}×{}", self.bands, self.rows)
    }
}

/// A banding with its bucket cap: what [`find_candidates`] and [`bucket_lists`] take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BandingOptions {
    /// The b × r to band with.
    pub banding: Banding,
    /// Only the first N members (in input order) of a larger bucket form pairs; never fewer
    /// than [`MIN_MAX_BUCKET`].
    pub max_bucket: Option<usize>,
}

/// The smallest bucket cap: a bucket's first N documents form its pairs, so a cap below 2
/// would keep none. The banding never caps below it; the faces refuse less
/// ([`max_bucket_refusal`]).
pub const MIN_MAX_BUCKET: usize = 2;

/// What every banding pass does first: checks that `included` has one flag per document and
/// that the banding fits the signatures, begins the progress phase, and returns the banding
/// and the bucket cap (never below [`MIN_MAX_BUCKET`]).
fn start_banding(
    sigs: &Signatures,
    options: &BandingOptions,
    included: Option<&[bool]>,
    progress: &crate::jobs::Progress,
) -> Result<(Banding, usize)> {
    if let Some(inc) = included {
        assert_eq!(inc.len(), sigs.len(), "one flag per document");
    }
    let banding = options.banding;
    Banding::new(banding.bands, banding.rows, sigs.num_perm())?;
    let cap = options.max_bucket.unwrap_or(usize::MAX).max(MIN_MAX_BUCKET);
    progress.begin(crate::jobs::Phase::Banding, banding.bands as u64);
    Ok((banding, cap))
}

/// Why a bucket cap of `n` is refused, when it is below [`MIN_MAX_BUCKET`]: each face adds
/// how to say "no cap" in its own terms.
pub fn max_bucket_refusal(n: usize) -> Option<String> {
    (n < MIN_MAX_BUCKET).then(|| {
        format!(
            "{n} would keep no pair (the first N documents of a bucket form its pairs); give at \
             least {MIN_MAX_BUCKET}"
        )
    })
}

/// Two documents (input positions, `a < b`) that share a bucket in `bands_hit` bands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CandidatePair {
    /// Input position of the first document, 0-based.
    pub a: u32,
    /// Input position of the second document, greater than `a`.
    pub b: u32,
    /// Bands in which the two share a bucket, from 1 to b.
    pub bands_hit: u32,
}

/// A bucket worth reporting: its band, its size and its first member.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct BucketInfo {
    /// The band the bucket is in, 0-based.
    pub band: usize,
    /// Documents in the bucket, before any cap.
    pub size: usize,
    /// Input position of its first member: a document to show as an example of what the bucket holds.
    pub first_doc: u32,
}

/// The candidate pairs of one banding, with what its buckets looked like and where the time went.
#[derive(Debug, Clone, Default)]
pub struct Candidates {
    /// Sorted by (a, b).
    pub pairs: Vec<CandidatePair>,
    /// The largest buckets over all bands, largest first (at most 10).
    pub largest_buckets: Vec<BucketInfo>,
    /// Buckets larger than `max_bucket`, largest first (at most 10 listed).
    pub capped_buckets: Vec<BucketInfo>,
    /// How many buckets were larger than `max_bucket`, all of them (the list above keeps 10).
    pub capped_bucket_count: usize,
    /// Bucket pairs not emitted because of the cap (counted with multiplicity over bands).
    pub pairs_dropped_by_cap: u64,
    /// Bucket pairs emitted, over all bands (before the union).
    pub bucket_pairs: u64,
    /// Time spent computing bucket keys and grouping them, all bands.
    pub grouping_seconds: f64,
    /// Time spent merging the bands' pairs into candidates.
    pub union_seconds: f64,
}

/// The pairs among `m` documents, m(m − 1)/2: what a bucket of m stands for, and the pairs of
/// a corpus of m documents.
pub fn pairs_among(m: u64) -> u64 {
    m * m.saturating_sub(1) / 2
}
