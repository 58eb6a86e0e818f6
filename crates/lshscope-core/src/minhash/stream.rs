//! Candidate pairs verified and handed on band by band, never all held at once.
//!
//! [`super::find_candidates`] lists every bucket pair of every band, then sorts and merges
//! them into one list of distinct pairs: memory grows with the pairs, and a template family of
//! 15,000 members is 112 million pairs per band. Here the buckets of all bands are kept
//! ([`BucketLists`]: memory follows documents × bands), and each band's bucket pairs are
//! enumerated in bounded batches: a pair is taken in the first band where it shares a listed
//! bucket (so each distinct pair is taken once, with the same `bands_hit` as the listing
//! gives), verified, and handed to the caller, which writes it out. Peak memory is the bucket
//! lists plus one batch, whatever the number of candidates.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;

use super::banding::{BandBuckets, BucketLists};
use super::bucket_bits::BucketBits;
use super::identical::IdenticalGroups;
use super::index::Index;
use super::similarity::{prefetch_set, prefetch_signature};
use super::verify::{Needs, VerifiedPair, estimate, jaccards_at_least_with, ratio};
use crate::Result;
use crate::jobs::{Phase, Progress};
use crate::util::rng::PairHasher;

/// Bucket pairs per unit of parallel work: large enough to amortise scheduling, small enough
/// that one bucket of 15,000 members (112 M pairs) spreads over both cores.
const UNIT_PAIRS: u64 = 1 << 16;

/// Bucket pairs per batch handed on: verified pairs of one batch are held together (at most
/// 40 bytes each), so this bounds the memory of the stream at about 160 MB.
const BATCH_PAIRS: u64 = 1 << 22;

/// How many pairs ahead a pair's set and signature are fetched: far enough that a set from
/// memory arrives in time, near enough that it is still in cache when read.
const SETS_AHEAD: usize = 4;

/// What a stream of verified candidates went through.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StreamCounts {
    /// Distinct candidate pairs (each counted in the first band it collides in).
    pub candidates: u64,
    /// Candidates at or above the threshold, handed on.
    pub kept: u64,
}

/// A slice of one band's bucket pairs: whole buckets `first..last`, or, for one large bucket,
/// its pairs whose first member is at positions `from..to`.
#[derive(Debug, Clone, Copy)]
struct Unit {
    buckets: (usize, usize),
    members: Option<(usize, usize)>,
    pairs: u64,
}

/// Verifies the candidates of the banding `lists` describes (their Jaccard against `index`),
/// keeps those at or above `threshold` and hands them to `sink` in batches, band by band (in
/// a band, by bucket, then by member order); `a < b` in every pair. Returns the counts.
///
/// With `copies` (the identical groups of `index`), a pair of copies of one shingle set is
/// known without reading either set or signature (Jaccard and estimate 1), and a pair with a
/// copy on either side is verified once per pair of sets in each unit of work. On
/// template-heavy corpora such pairs are most candidates (a text copied 20,000 times is 200 M
/// of them).
///
/// In a bucket whose pairs would cost more to merge than its members' sets to map, the
/// intersections are counted from bitmaps of the values the members share (`BucketBits`):
/// the same values and decisions.
pub fn stream_verified(
    index: &Index,
    lists: &BucketLists,
    copies: Option<&IdenticalGroups>,
    threshold: f64,
    progress: &Progress,
    sink: impl FnMut(&[VerifiedPair]) -> Result<()>,
) -> Result<StreamCounts> {
    stream_mapping_at(
        index,
        lists,
        copies,
        threshold,
        BUILD_PER_ENTRY,
        progress,
        sink,
    )
}

/// [`stream_verified`], mapping buckets at `build_per_entry` (0: every bucket of
/// [`MAPPED_FROM`] members or more, at its first merge; `u64::MAX`: none).
fn stream_mapping_at(
    index: &Index,
    lists: &BucketLists,
    copies: Option<&IdenticalGroups>,
    threshold: f64,
    build_per_entry: u64,
    progress: &Progress,
    mut sink: impl FnMut(&[VerifiedPair]) -> Result<()>,
) -> Result<StreamCounts> {
    progress.begin(Phase::Verifying, lists.bucket_pairs);
    let mut counts = StreamCounts::default();
    for (band, buckets) in lists.bands.iter().enumerate() {
        let units = units_of(buckets.iter().map(|m| m.len()));
        let split = grouped_large_buckets(lists, buckets, band);
        let cells = cells_of_large_buckets(buckets);
        let mapped_bytes = AtomicUsize::new(0);
        let band = BandWork {
            index,
            lists,
            copies,
            threshold,
            band,
            buckets,
            split: &split,
            cells: &cells,
            mapped_bytes: &mapped_bytes,
            build_per_entry,
        };
        for batch in batches_of(&units) {
            let results: Vec<(Vec<VerifiedPair>, u64)> = batch
                .par_iter()
                .map(|unit| {
                    progress.check()?;
                    let found = band.verify_unit(unit);
                    progress.advance(unit.pairs);
                    Ok(found)
                })
                .collect::<Result<_>>()?;
            for (out, candidates) in results {
                counts.candidates += candidates;
                counts.kept += out.len() as u64;
                sink(&out)?;
            }
        }
    }
    Ok(counts)
}

/// The buckets of `band` cut into several units, grouped by prefix once (in parallel) where
/// that pays: their units share the grouping. Band 0 has no earlier buckets to group by.
fn grouped_large_buckets(
    lists: &BucketLists,
    buckets: &BandBuckets,
    band: usize,
) -> HashMap<usize, PrefixClasses> {
    if band == 0 {
        return HashMap::new();
    }
    let large: Vec<usize> = (0..buckets.len())
        .filter(|&k| super::pairs_among(buckets.bucket(k).len() as u64) > UNIT_PAIRS)
        .collect();
    large
        .into_par_iter()
        .filter_map(|k| {
            let mut classes = PrefixClasses::default();
            classes.build(lists, buckets.bucket(k), band);
            classes.pays().then_some((k, classes))
        })
        .collect()
}

/// One empty cell per bucket of `band` cut into several units, where its units build the
/// bucket's bitmaps once, when the first of them finds they pay ([`BandWork::verify_unit`]).
fn cells_of_large_buckets(buckets: &BandBuckets) -> HashMap<usize, OnceLock<Option<BucketBits>>> {
    (0..buckets.len())
        .filter(|&k| super::pairs_among(buckets.bucket(k).len() as u64) > UNIT_PAIRS)
        .map(|k| (k, OnceLock::new()))
        .collect()
}

/// The position of `b` in `members` (ascending), at or after `from`: galloping, since
/// successive partners are often near.
#[inline]
fn seek(members: &[u32], from: usize, b: u32) -> usize {
    let mut lo = from;
    let mut step = 1;
    while lo + step < members.len() && members[lo + step] < b {
        lo += step;
        step <<= 1;
    }
    let end = (lo + step + 1).min(members.len());
    lo + members[lo..end].partition_point(|&m| m < b)
}

/// Buckets of fewer members are never mapped: they have too few pairs to repay it.
const MAPPED_FROM: usize = 16;

/// Where one bucket's pairs stand in a unit: merged so far, or counted from bitmaps
/// ([`BandWork::map_if_it_pays`]).
#[derive(Default)]
struct BucketMapping<'c> {
    /// The cell of a bucket cut into several units (its bitmaps shared by them).
    cell: Option<&'c OnceLock<Option<BucketBits>>>,
    /// True when the unit's own bitmaps hold this bucket.
    local: bool,
    /// True once mapping was decided (built or found too large).
    tried: bool,
    /// What the merges so far cost, in values merged, over how many pairs (each member's
    /// pairs with the members after it).
    merged: u64,
    pairs: u64,
    /// The cost of mapping the bucket, once asked.
    cost: Option<u64>,
}

impl<'c> BucketMapping<'c> {
    /// The bucket's bitmaps, if built: the unit's own (`local`) or its cell's.
    fn bits<'b>(&'b self, local: &'b BucketBits) -> Option<&'b BucketBits> {
        if self.local {
            Some(local)
        } else {
            self.cell
                .and_then(|cell| cell.get())
                .and_then(Option::as_ref)
        }
    }

    /// Records one member's merges: their `cost` and its `later` pairs.
    fn merged(&mut self, cost: u64, later: usize) {
        self.merged += cost;
        self.pairs += later as u64;
    }
}

/// Bytes of bitmaps of split buckets one band holds at once (the cells of
/// [`cells_of_large_buckets`]); past it, their buckets are merged.
const MAPPED_BYTES: usize = 256 << 20;

/// Mapping a bucket ([`BucketBits`]) costs about as much as merging this many values per value
/// it maps (one hash-table probe against a few compares; measured on job ads, templates and
/// short texts at t = 0, 0.5 and 0.8, 2026-11-29). A unit maps a bucket once the merges of
/// its members so far, extrapolated to the bucket's pairs still to come, cost more than that:
/// buckets whose pairs were mostly taken in earlier bands, or whose merges stop early at a
/// high threshold, are left to the merge.
const BUILD_PER_ENTRY: u64 = 16;

/// Consecutive runs of `units` of at most [`BATCH_PAIRS`] bucket pairs together (a unit
/// larger than that alone).
fn batches_of(units: &[Unit]) -> impl Iterator<Item = &[Unit]> {
    let mut start = 0;
    std::iter::from_fn(move || {
        if start == units.len() {
            return None;
        }
        let mut end = start;
        let mut pairs = 0;
        while end < units.len() && (end == start || pairs + units[end].pairs <= BATCH_PAIRS) {
            pairs += units[end].pairs;
            end += 1;
        }
        let batch = &units[start..end];
        start = end;
        Some(batch)
    })
}

/// What verifying the units of one band reads.
struct BandWork<'a> {
    index: &'a Index,
    lists: &'a BucketLists,
    copies: Option<&'a IdenticalGroups>,
    threshold: f64,
    band: usize,
    buckets: &'a BandBuckets,
    /// The large buckets' groupings, shared by their units ([`grouped_large_buckets`]).
    split: &'a HashMap<usize, PrefixClasses>,
    /// The split buckets' bitmaps, built by the first unit they pay for and shared by the
    /// others ([`cells_of_large_buckets`]), and the bytes they hold.
    cells: &'a HashMap<usize, OnceLock<Option<BucketBits>>>,
    mapped_bytes: &'a AtomicUsize,
    /// [`BUILD_PER_ENTRY`], or another for tests.
    build_per_entry: u64,
}

/// The similarities of pairs of representatives (`None`: below the threshold), keyed by the
/// pair of representatives, for pairs with a copy on either side: every pair between copies
/// of two sets has the sets' similarity.
type SetPairMemo<V> = HashMap<u64, V, BuildHasherDefault<PairHasher>>;

/// One unit's buffers, reused member by member.
#[derive(Default)]
struct UnitScratch<'a> {
    /// The pairs of the current member taken in this band, with their bands hit.
    fresh: Vec<(u32, u32)>,
    /// Per class of a grouped bucket, its fresh partners (filled as met).
    fresh_of: Vec<Option<Vec<u32>>>,
    classes: Scratch,
    /// At most one entry per pair of representatives met in the unit.
    of_sets: SetPairMemo<Option<(f64, f64)>>,
    /// Per fresh pair, where its similarity comes from.
    slots: Vec<Slot>,
    /// The fresh pairs to merge, by index into `fresh`, and their sets.
    merges: Vec<usize>,
    others: Vec<&'a [u64]>,
    merged: Vec<Option<f64>>,
    /// The merged pairs kept (by index into `fresh`) and their Jaccards, for the estimates.
    kept: Vec<(usize, f64)>,
    /// The merges' needs per |A| + |B| at the scan's threshold.
    needs: Needs,
    /// The memo's keys first met with the current member, with the pair that computes them.
    first_here: SetPairMemo<usize>,
}

impl<'a> BandWork<'a> {
    /// Verifies one unit's fresh pairs: those at or above the threshold, in the order they
    /// were met, and the number of candidates taken.
    fn verify_unit(&self, unit: &Unit) -> (Vec<VerifiedPair>, u64) {
        let mut out = Vec::new();
        let mut candidates = 0u64;
        let mut work = UnitScratch::default();
        let mut local = PrefixClasses::default();
        let mut local_bits = BucketBits::default();
        let (first, last) = unit.buckets;
        for k in first..last {
            // The rows of a bucket's members are read at random, and a bucket of two or three
            // has no later member to fetch them ahead: fetch those of a bucket further on.
            if k + BUCKETS_AHEAD < last {
                for &d in self
                    .buckets
                    .bucket(k + BUCKETS_AHEAD)
                    .iter()
                    .take(ROWS_AHEAD)
                {
                    self.lists.prefetch(d);
                }
            }
            let members = self.buckets.bucket(k);
            let (from, to) = unit.members.unwrap_or((0, members.len()));
            // The members' sets as bitmaps over what they share, once mapping them pays
            // ([`BucketMapping`]); a split bucket's are built once, by the first of its units
            // to get there, for all of them.
            let mut mapping = BucketMapping {
                cell: unit.members.and(self.cells.get(&k)),
                ..BucketMapping::default()
            };
            // Members grouped by their earlier buckets, when that saves compares: a split
            // bucket's were grouped once for all its units.
            let grouped = match unit.members {
                Some(_) => self.split.get(&k),
                None if self.band > 0 && members.len() >= CLASSES_FROM => {
                    local.build(self.lists, members, self.band);
                    local.pays().then_some(&local)
                }
                None => None,
            };
            if let Some(classes) = grouped {
                work.fresh_of.clear();
                work.fresh_of.resize(classes.len(), None);
            }
            for i in from..to {
                // First the pairs of `a` taken in this band (not in an earlier one) ...
                self.fresh_pairs(grouped, members, i, &mut work);
                candidates += work.fresh.len() as u64;
                // ... then their similarities ...
                let a = members[i];
                self.settle_known(a, &mut work);
                self.map_if_it_pays(members, i, &mut mapping, &mut local_bits);
                match mapping.bits(&local_bits) {
                    Some(bits) => self.count_the_rest(a, i, members, bits, &mut work),
                    None => {
                        let cost = self.merge_the_rest(a, &mut work);
                        mapping.merged(cost, members.len() - 1 - i);
                    }
                }
                work.remember_sets();
                // ... handed on in the order they were met.
                work.hand_on(a, &mut out);
            }
        }
        (out, candidates)
    }

    /// The pairs of the member at position `i` of `members` taken in this band, into
    /// `work.fresh`.
    #[inline]
    fn fresh_pairs(
        &self,
        grouped: Option<&PrefixClasses>,
        members: &[u32],
        i: usize,
        work: &mut UnitScratch<'a>,
    ) {
        work.fresh.clear();
        match grouped {
            Some(classes) => classes.first_met_in(
                self.lists,
                members,
                i,
                self.band,
                &mut work.fresh_of,
                &mut work.classes,
                &mut work.fresh,
            ),
            None => {
                self.lists
                    .first_met_in(members[i], &members[i + 1..], self.band, &mut work.fresh)
            }
        }
    }

    /// Settles the fresh pairs of `a` that need no merge: pairs of copies of one set, and
    /// pairs of sets already met in this unit; the others go to `work.merges`.
    #[inline]
    fn settle_known(&self, a: u32, work: &mut UnitScratch<'a>) {
        work.slots.clear();
        work.merges.clear();
        work.first_here.clear();
        let copy_of_a = self
            .copies
            .map(|g| (g.representative(a), g.multiplicity(a) > 1));
        for (q, &(b, _)) in work.fresh.iter().enumerate() {
            let slot = match (self.copies, copy_of_a) {
                (Some(g), Some((ra, a_copied))) => {
                    let rb = g.representative(b);
                    if ra == rb {
                        // As `jaccard_at_least` and `estimate` find for two equal, non-empty
                        // sets (documents without shingles are in no bucket), without
                        // reading them.
                        Slot::Done((1.0 >= self.threshold).then_some((1.0, 1.0)))
                    } else if a_copied || g.multiplicity(b) > 1 {
                        let key = (u64::from(ra.min(rb)) << 32) | u64::from(ra.max(rb));
                        match work.of_sets.get(&key) {
                            Some(&known) => Slot::Done(known),
                            None => match work.first_here.get(&key) {
                                Some(&first) => Slot::Same(first),
                                None => {
                                    work.first_here.insert(key, q);
                                    work.merges.push(q);
                                    Slot::Merge
                                }
                            },
                        }
                    } else {
                        work.merges.push(q);
                        Slot::Merge
                    }
                }
                _ => {
                    work.merges.push(q);
                    Slot::Merge
                }
            };
            work.slots.push(slot);
        }
    }

    /// Merges `a`'s set with the sets of the pairs in `work.merges`, two at a time, and
    /// settles them, estimates included. Copies of a set have its shingles and its signature,
    /// so a pair's similarity is its sets' (what the unit's memo then holds,
    /// [`UnitScratch::remember_sets`]).
    #[inline]
    fn merge_the_rest(&self, a: u32, work: &mut UnitScratch<'a>) -> u64 {
        let (sets, signatures) = (&self.index.sets, &self.index.signatures);
        let set_a = sets.get(a as usize);
        let partner = |q: usize| work.fresh[q].0 as usize;
        // Only a kept pair's estimate reads its signature (8 cache lines at K = 128, more
        // than a short text's set). Where every pair is kept the first signatures are fetched
        // during the merges; otherwise only once the merges have said which pairs stay, so
        // that the many pairs below a threshold such as 0.8 take no line-fill buffer for a
        // signature never read.
        let every_pair_kept = self.threshold <= 0.0;
        work.others.clear();
        work.others
            .extend(work.merges.iter().map(|&q| sets.get(partner(q))));
        for (&q, set) in work.merges.iter().zip(&work.others).take(SETS_AHEAD) {
            prefetch_set(set);
            if every_pair_kept {
                prefetch_signature(signatures.row(partner(q)));
            }
        }
        jaccards_at_least_with(
            set_a,
            &work.others,
            self.threshold,
            &mut work.needs,
            &mut work.merged,
        );
        work.kept.clear();
        for (&q, &j) in work.merges.iter().zip(&work.merged) {
            match j {
                Some(j) => work.kept.push((q, j)),
                None => work.slots[q] = Slot::Done(None),
            }
        }
        self.estimate_kept(a, work, !every_pair_kept);
        // What these merges cost, in values merged, for the choice to map the bucket. Above
        // a threshold a merge stops once the pair can no longer reach it, after about the
        // share 1 − t of its values on the pairs far below it, which most candidates are.
        let values: usize = work.others.iter().map(|set| set.len()).sum();
        let read = (1.0 - self.threshold).clamp(0.1, 1.0);
        ((values + set_a.len() * work.others.len()) as f64 * read) as u64
    }

    /// Settles the pairs of `work.kept` with their estimates, the signatures fetched a few
    /// pairs ahead (the first ones too, with `fetch_first`).
    #[inline]
    fn estimate_kept(&self, a: u32, work: &mut UnitScratch<'a>, fetch_first: bool) {
        let signatures = &self.index.signatures;
        let partner = |q: usize| work.fresh[q].0 as usize;
        if fetch_first {
            for &(q, _) in work.kept.iter().take(SETS_AHEAD) {
                prefetch_signature(signatures.row(partner(q)));
            }
        }
        for (k, &(q, j)) in work.kept.iter().enumerate() {
            // The signature a few pairs on is fetched while this one's rows are compared.
            if let Some(&(ahead, _)) = work.kept.get(k + SETS_AHEAD) {
                prefetch_signature(signatures.row(partner(ahead)));
            }
            work.slots[q] = Slot::Done(Some((j, estimate(signatures, a as usize, partner(q)))));
        }
    }

    /// Maps the bucket `members` (into its cell, or `local_bits` for a bucket of one unit)
    /// when the merges of its members met so far, extrapolated to the pairs from position `i`
    /// on, cost more than mapping it ([`BUILD_PER_ENTRY`]). A bucket is tried once.
    fn map_if_it_pays(
        &self,
        members: &[u32],
        i: usize,
        mapping: &mut BucketMapping<'a>,
        local_bits: &mut BucketBits,
    ) {
        if mapping.tried
            || mapping.merged == 0
            || members.len() < MAPPED_FROM
            || mapping.cell.is_some_and(|cell| cell.get().is_some())
        {
            return;
        }
        let cost = *mapping.cost.get_or_insert_with(|| {
            self.build_per_entry
                .saturating_mul(BucketBits::entries(self.index, members))
        });
        // The pairs from `i` on (each member pairs with those after it), at the merge cost
        // per pair met so far.
        let later = (members.len() - 1 - i) as u64;
        let rest = later * (later + 1) / 2;
        if (mapping.merged as f64) * (rest as f64) < (cost as f64) * (mapping.pairs as f64) {
            return;
        }
        match mapping.cell {
            Some(cell) => {
                cell.get_or_init(|| self.mapped_shared(members));
            }
            None => mapping.local = local_bits.build(self.index, members),
        }
        // A bucket too large to map is not tried again.
        mapping.tried = true;
    }

    /// The bitmaps of a split bucket, for its cell: None when they would be too large, or
    /// when the band's split buckets already hold [`MAPPED_BYTES`].
    fn mapped_shared(&self, members: &[u32]) -> Option<BucketBits> {
        let mut bits = BucketBits::default();
        if !bits.build(self.index, members) {
            return None;
        }
        bits.drop_scratch();
        let bytes = bits.bytes();
        let before = self.mapped_bytes.fetch_add(bytes, Ordering::Relaxed);
        (before + bytes <= MAPPED_BYTES).then_some(bits)
    }

    /// [`Self::merge_the_rest`] for a bucket mapped into `bits`: each pair's intersection
    /// counted from the bitmaps, the same values and decisions. `i` is `a`'s position in
    /// `members`.
    #[inline]
    fn count_the_rest(
        &self,
        a: u32,
        i: usize,
        members: &[u32],
        bits: &BucketBits,
        work: &mut UnitScratch<'a>,
    ) {
        work.kept.clear();
        // Members are in document order, and so are the fresh partners.
        let mut p = i + 1;
        for &q in &work.merges {
            let b = work.fresh[q].0;
            p = seek(members, p, b);
            debug_assert_eq!(members[p], b, "a fresh partner is a later member");
            // As `jaccard_at_least` decides from the full intersection: its size bound and
            // needs only stop merges early whose ratio stays below the threshold.
            let j = ratio(bits.intersection(i, p), bits.size_sum(i, p));
            if j >= self.threshold {
                work.kept.push((q, j));
            } else {
                work.slots[q] = Slot::Done(None);
            }
        }
        self.estimate_kept(a, work, true);
    }
}

impl UnitScratch<'_> {
    /// Records the pairs of sets first met with the current member in the unit's memo.
    #[inline]
    fn remember_sets(&mut self) {
        for (&key, &q) in &self.first_here {
            self.of_sets.insert(key, self.slots[q].done());
        }
    }

    /// `a`'s fresh pairs at or above the threshold, onto `out` in the order they were met.
    #[inline]
    fn hand_on(&self, a: u32, out: &mut Vec<VerifiedPair>) {
        for (q, &(b, bands_hit)) in self.fresh.iter().enumerate() {
            let found = match self.slots[q] {
                Slot::Same(first) => self.slots[first].done(),
                slot => slot.done(),
            };
            if let Some((jaccard, estimate)) = found {
                out.push(VerifiedPair {
                    a,
                    b,
                    bands_hit,
                    jaccard,
                    estimate,
                });
            }
        }
    }
}

/// Where a fresh pair's similarity comes from.
#[derive(Debug, Clone, Copy)]
enum Slot {
    /// Known: Jaccard and estimate, or `None` below the threshold.
    Done(Option<(f64, f64)>),
    /// To be merged (then `Done`).
    Merge,
    /// The value of the earlier pair at this index (the same pair of sets).
    Same(usize),
}

impl Slot {
    fn done(self) -> Option<(f64, f64)> {
        match self {
            Slot::Done(found) => found,
            Slot::Merge | Slot::Same(_) => unreachable!("settled before it is read"),
        }
    }
}

/// Buckets of at least this many members are grouped by their members' earlier buckets
/// ([`PrefixClasses`]) when a band's pairs are enumerated; in a smaller bucket the grouping
/// costs more than the compares it saves.
const CLASSES_FROM: usize = 16;

/// The members of one bucket of band β, grouped into classes by their *prefix*: their
/// buckets in bands 0..β (a member's row of [`BucketLists::buckets_of`] cut at β).
///
/// Whether a pair is taken in band β (shares no listed bucket in an earlier band) depends on
/// the two prefixes only, so it is the same for every pair of members drawn from two given
/// classes: one compare of the classes' first members decides them all. Verbatim copies have
/// one prefix, and so do members that met the same documents in every earlier band; on
/// template corpora a family's bucket is a few large classes and many single members, and a
/// pair of copies met again in every band costs one compare per bucket, not one per pair.
#[derive(Debug, Default)]
struct PrefixClasses {
    /// Per position in the bucket, its class.
    class_of: Vec<u32>,
    /// Positions grouped by class, ascending within one: class c's are
    /// `by_class[starts[c]..starts[c + 1]]`.
    by_class: Vec<u32>,
    starts: Vec<u32>,
    /// The build's scratch: (hash of the prefix, position).
    keyed: Vec<(u64, u32)>,
}

/// Per-member scratch of [`PrefixClasses::first_met_in`].
#[derive(Debug, Default)]
struct Scratch {
    classes: Vec<u32>,
    positions: Vec<u32>,
}

impl PrefixClasses {
    /// Groups `members` (one bucket of `band`, `band` > 0) by prefix, reusing this value's
    /// memory.
    fn build(&mut self, lists: &BucketLists, members: &[u32], band: usize) {
        let prefix = |p: u32| &lists.buckets_of(members[p as usize])[..band];
        self.keyed.clear();
        self.keyed
            .extend((0..members.len() as u32).map(|p| (prefix_hash(prefix(p)), p)));
        // Equal prefixes end up adjacent, in position order; the hash only orders, the
        // prefixes themselves decide equality.
        self.keyed.sort_unstable_by(|x, y| {
            x.0.cmp(&y.0)
                .then_with(|| prefix(x.1).cmp(prefix(y.1)))
                .then(x.1.cmp(&y.1))
        });
        self.class_of.clear();
        self.class_of.resize(members.len(), 0);
        self.by_class.clear();
        self.starts.clear();
        for (q, &(hash, p)) in self.keyed.iter().enumerate() {
            let new_class = q == 0 || {
                let (previous_hash, previous) = self.keyed[q - 1];
                hash != previous_hash || prefix(p) != prefix(previous)
            };
            if new_class {
                self.starts.push(q as u32);
            }
            self.class_of[p as usize] = (self.starts.len() - 1) as u32;
            self.by_class.push(p);
        }
        self.starts.push(members.len() as u32);
    }

    /// Number of classes.
    fn len(&self) -> usize {
        self.starts.len() - 1
    }

    fn members_of(&self, class: usize) -> &[u32] {
        &self.by_class[self.starts[class] as usize..self.starts[class + 1] as usize]
    }

    /// Worth using: at most half as many classes as members, so the compares of class pairs
    /// are at most a quarter of those of member pairs.
    fn pays(&self) -> bool {
        2 * self.len() <= self.class_of.len()
    }

    /// What [`BucketLists::first_met_in`] appends for the member at position `i` and the
    /// members after it, in the same order, with the same bands hit. The classes whose pairs
    /// with `i`'s class are taken in `band` are found once per class and bucket (kept in
    /// `fresh_of`, one entry per class, for classes of more than one member); only the pairs
    /// taken here are then read member by member, for their bands hit.
    #[allow(clippy::too_many_arguments)]
    fn first_met_in(
        &self,
        lists: &BucketLists,
        members: &[u32],
        i: usize,
        band: usize,
        fresh_of: &mut [Option<Vec<u32>>],
        scratch: &mut Scratch,
        fresh: &mut Vec<(u32, u32)>,
    ) {
        let class = self.class_of[i] as usize;
        let first_of = |c: usize| members[self.members_of(c)[0] as usize];
        // Classes whose members all come before `i` pair with no member from `i` on; `i` is
        // the first member of its class met here, so the list found holds for the class's
        // later members too.
        let find = |out: &mut Vec<u32>| {
            let lead = first_of(class);
            out.clear();
            out.extend(
                (0..self.len())
                    .filter(|&c| {
                        *self.members_of(c).last().expect("no empty class") as usize > i
                            && lists.shared_bands(lead, first_of(c)).first >= band
                    })
                    .map(|c| c as u32),
            );
        };
        let fresh_classes: &[u32] = if self.members_of(class).len() > 1 {
            fresh_of[class].get_or_insert_with(|| {
                let mut out = Vec::new();
                find(&mut out);
                out
            })
        } else {
            find(&mut scratch.classes);
            &scratch.classes
        };
        let positions = &mut scratch.positions;
        positions.clear();
        for &c in fresh_classes {
            let later = self.members_of(c as usize);
            let after = later.partition_point(|&p| p as usize <= i);
            positions.extend_from_slice(&later[after..]);
        }
        positions.sort_unstable();
        let a = members[i];
        for (q, &p) in positions.iter().enumerate() {
            if let Some(&ahead) = positions.get(q + ROWS_AHEAD) {
                lists.prefetch(members[ahead as usize]);
            }
            let b = members[p as usize];
            let shared = lists.shared_bands(a, b);
            debug_assert_eq!(shared.first, band, "a pair taken in band {band}");
            fresh.push((b, shared.count));
        }
    }
}

/// A hash of a prefix of bucket numbers, to bring equal prefixes together.
#[inline]
fn prefix_hash(prefix: &[u32]) -> u64 {
    prefix.iter().fold(0x9e37_79b9_7f4a_7c15u64, |h, &x| {
        (h ^ u64::from(x))
            .wrapping_mul(0xff51_afd7_ed55_8ccd)
            .rotate_left(29)
    })
}

/// How many buckets ahead [`BandWork::verify_unit`] fetches the first members' rows.
const BUCKETS_AHEAD: usize = 2;

/// How many members ahead [`PrefixClasses::first_met_in`] fetches a row (as
/// [`BucketLists::first_met_in`] does), and how many first members of a bucket ahead
/// [`BandWork::verify_unit`] fetches.
const ROWS_AHEAD: usize = 8;

/// Cuts one band's buckets (given by their sizes) into units of about [`UNIT_PAIRS`] pairs.
fn units_of(sizes: impl Iterator<Item = usize>) -> Vec<Unit> {
    let mut units = Vec::new();
    let mut open: Option<Unit> = None;
    for (k, m) in sizes.enumerate() {
        let pairs = super::pairs_among(m as u64);
        if pairs > UNIT_PAIRS {
            units.extend(open.take());
            // Member i pairs with the m − 1 − i members after it: cut where the running
            // total passes a unit.
            let mut from = 0;
            let mut acc = 0u64;
            for i in 0..m {
                acc += (m - 1 - i) as u64;
                if acc >= UNIT_PAIRS || i + 1 == m {
                    units.push(Unit {
                        buckets: (k, k + 1),
                        members: Some((from, i + 1)),
                        pairs: acc,
                    });
                    from = i + 1;
                    acc = 0;
                }
            }
            continue;
        }
        let unit = open.get_or_insert(Unit {
            buckets: (k, k),
            members: None,
            pairs: 0,
        });
        unit.buckets.1 = k + 1;
        unit.pairs += pairs;
        if unit.pairs >= UNIT_PAIRS {
            units.extend(open.take());
        }
    }
    units.extend(open);
    units
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Corpus;
    use crate::minhash::{
        Banding, BandingOptions, IndexOptions, bucket_lists, build_index, find_candidates_among,
        verify,
    };

    #[test]
    fn units_cover_every_pair_once() {
        for sizes in [
            vec![2, 3, 400, 2, 5000, 2, 2],
            vec![],
            vec![700; 30],
            vec![2; 100_000],
        ] {
            let units = units_of(sizes.iter().copied());
            let mut covered = vec![0u64; sizes.len()];
            for u in &units {
                match u.members {
                    Some((from, to)) => {
                        assert_eq!(u.buckets.1, u.buckets.0 + 1);
                        let m = sizes[u.buckets.0];
                        let pairs: u64 = (from..to).map(|i| (m - 1 - i) as u64).sum();
                        assert_eq!(pairs, u.pairs);
                        covered[u.buckets.0] += pairs;
                    }
                    None => {
                        for k in u.buckets.0..u.buckets.1 {
                            let m = sizes[k] as u64;
                            covered[k] += m * (m - 1) / 2;
                        }
                    }
                }
            }
            for (k, &m) in sizes.iter().enumerate() {
                assert_eq!(covered[k], (m as u64) * (m as u64 - 1) / 2, "bucket {k}");
            }
        }
    }

    /// The streamed pairs are the listed candidates verified, as a set, with the same values,
    /// with and without a bucket cap and a subset of documents.
    #[test]
    fn streams_what_the_listing_verifies() {
        let texts: Vec<String> = (0..3000)
            .map(|i| match i % 6 {
                0 => "a notice copied word for word across many pages".to_string(),
                1 | 2 => format!(
                    "listing {} of the same template with detail {}",
                    i % 50,
                    i % 9
                ),
                _ => format!("unrelated text {i} {} {}", i * 7 % 101, i * 3 % 89),
            })
            .collect();
        let corpus = Corpus::from_texts(texts.iter().map(String::as_str));
        let options = IndexOptions {
            num_perm: 64,
            ..IndexOptions::default()
        };
        let index = build_index(&corpus, &options, &Progress::new()).unwrap();
        let some: Vec<bool> = (0..index.len()).map(|d| d % 3 != 1).collect();
        let groups = IdenticalGroups::find(&index.sets);
        assert!(groups.copies() > 400, "the corpus has copies");
        for (bands, rows, cap, included, t) in [
            (16, 4, None, None, 0.0),
            (8, 8, Some(50), None, 0.0),
            (32, 2, None, Some(&some[..]), 0.3),
            (4, 16, Some(2), Some(&some[..]), 0.9),
            (8, 4, Some(600), None, 1.0),
            (8, 4, None, None, f64::NAN),
        ] {
            let banding = BandingOptions {
                banding: Banding { bands, rows },
                max_bucket: cap,
            };
            let listed =
                find_candidates_among(&index.signatures, &banding, included, &Progress::new())
                    .unwrap();
            let expected = verify(&index, &listed.pairs, t, &Progress::new()).unwrap();
            let lists =
                bucket_lists(&index.signatures, &banding, included, &Progress::new()).unwrap();
            for copies in [None, Some(&groups)] {
                let mut streamed = Vec::new();
                let counts =
                    stream_verified(&index, &lists, copies, t, &Progress::new(), |batch| {
                        streamed.extend_from_slice(batch);
                        Ok(())
                    })
                    .unwrap();
                let case = format!("{bands}×{rows} cap {cap:?} copies {}", copies.is_some());
                assert_eq!(counts.candidates, listed.pairs.len() as u64, "{case}");
                assert_eq!(counts.kept, expected.len() as u64, "{case}");
                streamed.sort_by_key(|p| (p.a, p.b));
                assert_eq!(streamed, expected, "{case}");
            }
        }
    }

    /// Counting intersections from a bucket's bitmaps changes no pair, value or order: the
    /// stream mapping every bucket it can, at its first merge, equals the stream mapping none,
    /// on a template corpus (copies, families of hundreds, buckets cut into units) at several
    /// thresholds, with and without the copies' shortcut.
    #[test]
    fn mapped_buckets_give_the_merges_pairs() {
        use crate::synthetic::templated::{TemplateOptions, generate_templated};
        let corpus = generate_templated(&TemplateOptions {
            docs: 3_000,
            max_family: 800,
            seed: 11,
            ..TemplateOptions::default()
        })
        .corpus;
        let index = build_index(&corpus, &IndexOptions::default(), &Progress::new()).unwrap();
        let groups = IdenticalGroups::find(&index.sets);
        let stream = |lists: &BucketLists, copies, t, build_per_entry| {
            let mut pairs = Vec::new();
            let counts = stream_mapping_at(
                &index,
                lists,
                copies,
                t,
                build_per_entry,
                &Progress::new(),
                |batch| {
                    pairs.extend_from_slice(batch);
                    Ok(())
                },
            )
            .unwrap();
            (counts, pairs)
        };
        let mut split = false;
        for (bands, rows) in [(32, 4), (20, 5), (8, 1)] {
            let banding = BandingOptions {
                banding: Banding { bands, rows },
                max_bucket: None,
            };
            let lists = bucket_lists(&index.signatures, &banding, None, &Progress::new()).unwrap();
            split |= lists.bands.iter().any(|buckets| {
                (0..buckets.len()).any(|k| {
                    crate::minhash::pairs_among(buckets.bucket(k).len() as u64) > UNIT_PAIRS
                })
            });
            for t in [0.0, 0.3, 0.5, 0.8, 1.0] {
                for copies in [None, Some(&groups)] {
                    let merged = stream(&lists, copies, t, u64::MAX);
                    let mapped = stream(&lists, copies, t, 0);
                    let case = format!("{bands}×{rows} t {t} copies {}", copies.is_some());
                    assert!(merged.0.kept > 0, "{case}: pairs kept");
                    assert_eq!(mapped, merged, "{case}");
                }
            }
        }
        assert!(split, "some bucket is cut into units, so its map is shared");
    }

    /// Grouping a bucket's members by their earlier buckets changes no pair: for every member
    /// of every bucket of every band, the pairs taken and their bands hit are those of the
    /// member-by-member check, in the same order, with and without a bucket cap.
    #[test]
    fn classes_take_the_pairs_the_member_check_takes() {
        use crate::synthetic::templated::{TemplateOptions, generate_templated};
        let corpus = generate_templated(&TemplateOptions {
            docs: 4_000,
            max_family: 600,
            seed: 5,
            ..TemplateOptions::default()
        })
        .corpus;
        let index = build_index(&corpus, &IndexOptions::default(), &Progress::new()).unwrap();
        let (mut grouped_buckets, mut merged_members) = (0, 0);
        for (bands, rows, cap) in [(32, 4, None), (20, 5, Some(100)), (9, 13, None)] {
            let banding = BandingOptions {
                banding: Banding { bands, rows },
                max_bucket: cap,
            };
            let lists = bucket_lists(&index.signatures, &banding, None, &Progress::new()).unwrap();
            let mut classes = PrefixClasses::default();
            let mut scratch = Scratch::default();
            let (mut by_member, mut by_class) = (Vec::new(), Vec::new());
            for (band, buckets) in lists.bands.iter().enumerate().skip(1) {
                for members in buckets.iter() {
                    classes.build(&lists, members, band);
                    if classes.pays() {
                        grouped_buckets += 1;
                    }
                    merged_members += members.len() - classes.len();
                    let mut fresh_of = vec![None; classes.len()];
                    for i in 0..members.len() {
                        by_member.clear();
                        lists.first_met_in(members[i], &members[i + 1..], band, &mut by_member);
                        by_class.clear();
                        classes.first_met_in(
                            &lists,
                            members,
                            i,
                            band,
                            &mut fresh_of,
                            &mut scratch,
                            &mut by_class,
                        );
                        assert_eq!(by_class, by_member, "{bands}×{rows}, band {band}");
                    }
                }
            }
        }
        assert!(
            grouped_buckets > 100,
            "{grouped_buckets} buckets worth grouping"
        );
        assert!(
            merged_members > 10_000,
            "{merged_members} members share a class"
        );
    }
}
