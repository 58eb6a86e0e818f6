//! MinHash signatures, LSH banding, candidate pairs and their verification.

mod banding;
mod bucket_bits;
mod cminhash;
pub mod collisions;
pub(crate) mod family;
mod identical;
mod index;
mod mix;
pub(crate) mod oph;
pub mod scurve;
pub mod similarity;
mod sketch;
mod stream;
pub mod tune;
mod verify;

pub(crate) use banding::bucket_lists_of_representatives;
pub use banding::{
    BandBuckets, Banding, BandingOptions, BucketInfo, BucketLists, CandidatePair, Candidates,
    MIN_MAX_BUCKET, SharedBands, band_key, band_keys, bucket_lists, find_candidates,
    find_candidates_among, max_bucket_refusal, pairs_among,
};
pub use family::{HashFamily, fold32, signature_into};
pub use identical::IdenticalGroups;
pub(crate) use identical::{first_of_each_row, first_of_each_set};
pub use index::{
    Index, IndexOptions, ShingleSets, Signatures, build_index, leading_signatures_of_sets,
    signatures_of_sets, signatures_of_texts,
};
pub use sketch::{SketchFamily, SketchScratch, Sketcher};
pub use stream::{StreamCounts, stream_verified};
pub(crate) use verify::PackedPair;
pub(crate) use verify::jaccards_at_least;
pub use verify::{VerifiedPair, estimate, verify};
