//! The statistics a band's buckets report besides their pairs: the largest buckets, the
//! buckets over the cap and the pairs the cap drops.

use super::{BucketInfo, pairs_among};

/// What the buckets of one band (or, totalled, of all bands) report besides their pairs.
#[derive(Default)]
pub(super) struct BucketStats {
    /// The largest buckets, largest first (at most 10 kept).
    pub(super) largest: Vec<BucketInfo>,
    /// Buckets above the cap, largest first (at most 10 kept), and how many there were.
    pub(super) capped: Vec<BucketInfo>,
    pub(super) capped_count: usize,
    /// Bucket pairs the cap dropped.
    pub(super) dropped: u64,
}

impl BucketStats {
    /// Walks the buckets of one band's `keys` (sorted by key, then document) that hold two or
    /// more documents, records them, and hands each one's first `cap` members to `visit`.
    pub(super) fn walk(
        &mut self,
        keys: &[(u64, u32)],
        band: usize,
        cap: usize,
        mut visit: impl FnMut(&[(u64, u32)]),
    ) {
        for run in keys.chunk_by(|x, y| x.0 == y.0) {
            let size = run.len();
            if size < 2 {
                continue;
            }
            let kept = self.record(
                BucketInfo {
                    band,
                    size,
                    first_doc: run[0].1,
                },
                cap,
            );
            visit(&run[..kept]);
        }
        self.finish();
    }

    /// Records one bucket of two or more documents and returns how many of its members the
    /// cap keeps.
    pub(super) fn record(&mut self, info: BucketInfo, cap: usize) -> usize {
        self.largest.push(info);
        if self.largest.len() > 64 {
            keep_top(&mut self.largest, 10);
        }
        let kept = info.size.min(cap);
        if kept < info.size {
            self.capped.push(info);
            self.capped_count += 1;
            if self.capped.len() > 64 {
                keep_top(&mut self.capped, 10);
            }
            self.dropped += pairs_among(info.size as u64) - pairs_among(kept as u64);
        }
        kept
    }

    /// Keeps the ten largest of each list, after the last [`BucketStats::record`].
    pub(super) fn finish(&mut self) {
        keep_top(&mut self.largest, 10);
        keep_top(&mut self.capped, 10);
    }

    /// The statistics of all bands together.
    pub(super) fn total<'a>(bands: impl Iterator<Item = &'a BucketStats>) -> BucketStats {
        let mut total = BucketStats::default();
        for b in bands {
            total.largest.extend_from_slice(&b.largest);
            total.capped.extend_from_slice(&b.capped);
            total.capped_count += b.capped_count;
            total.dropped += b.dropped;
        }
        keep_top(&mut total.largest, 10);
        keep_top(&mut total.capped, 10);
        total
    }
}

fn keep_top(list: &mut Vec<BucketInfo>, limit: usize) {
    list.sort_by(|x, y| y.size.cmp(&x.size).then(x.band.cmp(&y.band)));
    list.truncate(limit);
}
