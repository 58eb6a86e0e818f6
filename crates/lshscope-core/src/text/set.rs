//! A document's shingle set: the sorted, distinct 64-bit hashes of its shingles, the form
//! `ShingleSets` stores and every sketch family and exact Jaccard read.
//!
//! This is the part of the signature phase every family shares (normalize, shingle, hash, sort
//! and de-duplicate), so it is built here once, with reusable buffers and, on CPUs with
//! AVX-512, a vectorized finish of the sort. The result is the same set bit for bit on every
//! path: the tests check it against the plain definition (every shingle's hash, then
//! `sort_unstable` and `dedup`).

use super::{ShingleOptions, Shingler};

/// Builds one document's shingle set at a time, keeping its buffers between documents so the
/// hot path does not allocate. Not `Sync`: use one per thread.
#[derive(Debug)]
pub struct SetBuilder {
    shingler: Shingler,
    /// The last document's shingle hashes in text order, repeats included.
    hashes: Vec<u64>,
    sort: SortScratch,
}

impl SetBuilder {
    /// A builder of shingle sets under `options`, with empty scratch buffers.
    pub fn new(options: ShingleOptions) -> SetBuilder {
        SetBuilder {
            shingler: Shingler::new(options),
            hashes: Vec::new(),
            sort: SortScratch::new(),
        }
    }

    /// The settings the sets are cut with.
    pub fn options(&self) -> &ShingleOptions {
        self.shingler.options()
    }

    /// Appends the shingle set of `text` (sorted, distinct) to `out`, after what is there.
    /// Writing straight into the caller's buffer lets an index keep the set where it is
    /// written, without a copy.
    pub fn set_onto(&mut self, text: &str, out: &mut Vec<u64>) {
        self.hashes.clear();
        self.shingler.hashes(text, &mut self.hashes);
        sort_dedup_onto(&self.hashes, &mut self.sort, out);
    }

    /// The shingle set of `text` as a new vector.
    pub fn set(&mut self, text: &str) -> Vec<u64> {
        let mut out = Vec::new();
        self.set_onto(text, &mut out);
        out
    }
}

/// Buffers reused by [`sort_dedup_onto`] from one document to the next.
#[derive(Debug)]
pub struct SortScratch {
    counts: Vec<u32>,
    /// The CPU has what the AVX-512 finish needs (checked once, here).
    avx512: bool,
}

impl SortScratch {
    pub fn new() -> SortScratch {
        SortScratch {
            counts: Vec::new(),
            avx512: simd::available(),
        }
    }
}

impl Default for SortScratch {
    fn default() -> Self {
        SortScratch::new()
    }
}

/// Below this many hashes the standard library's small-sort networks win.
const SMALL: usize = 32;

/// Above this many hashes (a document of ~64 k shingles) the bucket pass would need more than
/// 2^16 counters to stay near one value per bucket; such documents are rare, and a comparison
/// sort is fine for them.
const LARGE: usize = 1 << 16;

/// A bucket that holds more values than this means the hashes are not spread the way uniform
/// hashes are (or that a document is very repetitive in a way hashing did not undo): the
/// vectorized finish would need one pass per value of the largest bucket, so a comparison sort
/// takes over.
const MAX_BUCKET: u32 = 16;

/// Appends the sorted, de-duplicated set of `hashes` to `out`.
///
/// The hashes are uniformly distributed, so one counting pass on their top bits scatters them
/// into nearly sorted order (about one value per bucket, at most a handful): values of different
/// buckets are already in order, and only the few values that share a bucket can be out of
/// order. With AVX-512 the finish is odd-even transposition sort over the whole array, 8 values
/// to a register: a bucket of m values is sorted after m passes of compare-exchanges of
/// neighbours (Knuth, The Art of Computer Programming vol. 3, §5.3.4, exercise 37), and a
/// compare-exchange across two buckets never swaps, so as many passes as the largest bucket
/// holds sort every bucket at once; then the repeats, now neighbours, are squeezed out with
/// `vpcompressq`. Without AVX-512 an insertion sort finishes (near-linear on such input) and a
/// branch-free pass removes repeats.
///
/// The scatter writes into `out`'s spare room, where the set stays: no copy afterwards.
pub fn sort_dedup_onto(hashes: &[u64], scratch: &mut SortScratch, out: &mut Vec<u64>) {
    let n = hashes.len();
    let start = out.len();
    if !(SMALL..=LARGE).contains(&n) {
        out.extend_from_slice(hashes);
        let set = &mut out[start..];
        set.sort_unstable();
        let kept = dedup_sorted(set);
        out.truncate(start + kept);
        return;
    }
    let largest_bucket = bucket_scatter(hashes, &mut scratch.counts, out);
    let set = &mut out[start..];
    let kept = if largest_bucket > MAX_BUCKET {
        set.sort_unstable();
        dedup_sorted(set)
    } else if scratch.avx512 {
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: `avx512` is set only when the CPU has what the function uses.
            unsafe { simd::finish_dedup(set, largest_bucket as usize) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        unreachable!("AVX-512 is detected on x86-64 only")
    } else {
        finish_nearly_sorted(set);
        dedup_sorted(set)
    };
    out.truncate(start + kept);
}

/// Appends `hashes` to `out` ordered by their top bits (one counting pass, about one value per
/// bucket) and returns how many values the largest bucket holds.
fn bucket_scatter(hashes: &[u64], counts: &mut Vec<u32>, out: &mut Vec<u64>) -> u32 {
    let n = hashes.len();
    let bits = (usize::BITS - n.leading_zeros()).clamp(6, 16);
    let shift = 64 - bits;
    counts.clear();
    counts.resize(1 << bits, 0);
    // A slice, not the Vec: through `&mut Vec` every count's store might alias the Vec's own
    // pointer and length as far as the compiler knows, so both were loaded again and the
    // bounds checked for every hash (a third of the pass's instructions). `& mask` proves every
    // index in bounds (the shift already keeps it below 2^bits).
    let counts = counts.as_mut_slice();
    let mask = counts.len() - 1;
    for &h in hashes {
        counts[(h >> shift) as usize & mask] += 1;
    }
    // Exclusive prefix sums, the running total in a register: written as
    // `counts[i] += counts[i - 1]` it became a chain of store-to-load forwards through memory.
    let mut total = 0;
    let mut largest = 0;
    for c in counts.iter_mut() {
        let here = *c;
        largest = largest.max(here);
        *c = total;
        total += here;
    }
    let start = out.len();
    out.reserve(n);
    let room = &mut out.spare_capacity_mut()[..n];
    for &h in hashes {
        let slot = &mut counts[(h >> shift) as usize & mask];
        room[*slot as usize].write(h);
        *slot += 1;
    }
    // SAFETY: the scatter wrote each of the n slots exactly once (the prefix sums give every
    // hash its own slot below n).
    unsafe { out.set_len(start + n) };
    largest
}

/// Sorts hashes that a bucket pass left nearly sorted. Like an insertion sort, but a value
/// that belongs one place to the left (the common case: two values in one bucket, in the wrong
/// order) is swapped with min/max instead of a branch; a branch whose outcome is a coin flip per
/// value cost more than the moves. Only a value that belongs two or more places to the left
/// (a rare branch) walks left like in insertion sort.
fn finish_nearly_sorted(v: &mut [u64]) {
    let Some(&first) = v.first() else {
        return;
    };
    // `largest` is the value at i - 1 once v[..i] is sorted: the largest so far, kept in a
    // register instead of being stored and reloaded.
    let mut largest = first;
    for i in 1..v.len() {
        let x = v[i];
        let (lo, hi) = (x.min(largest), x.max(largest));
        v[i - 1] = lo;
        // Only when x < largest can lo be smaller than v[i - 2] (v[..i - 1] is sorted).
        if i >= 2 && v[i - 2] > lo {
            let mut j = i - 1;
            while j > 0 && v[j - 1] > lo {
                v[j] = v[j - 1];
                j -= 1;
            }
            v[j] = lo;
        }
        largest = hi;
    }
    let last = v.len() - 1;
    v[last] = largest;
}

/// Moves the distinct values of a sorted slice to its front and returns how many there are.
/// Branch-free: repeated shingles come at random, so a branch on them would mispredict.
fn dedup_sorted(v: &mut [u64]) -> usize {
    let Some(&first) = v.first() else {
        return 0;
    };
    let mut last = first;
    let mut kept = 1;
    for i in 1..v.len() {
        let x = v[i];
        v[kept] = x;
        kept += (x != last) as usize;
        last = x;
    }
    kept
}

/// The AVX-512 finish: odd-even transposition passes and the squeeze of repeats.
mod simd {
    /// True when the CPU can run [`finish_dedup`].
    pub(super) fn available() -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            std::is_x86_feature_detected!("avx512f")
        }
        #[cfg(not(target_arch = "x86_64"))]
        false
    }

    /// Sorts `v`, in which values are out of order only within runs of at most `passes`
    /// values whose neighbours outside the run are in order with them (the buckets of
    /// [`super::bucket_scatter`]), moves its distinct values to the front and returns how many
    /// there are. The caller checks [`available`].
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn finish_dedup(v: &mut [u64], passes: usize) -> usize {
        use std::arch::x86_64::*;
        let n = v.len();
        let p = v.as_mut_ptr();
        // The lanes of the last, partial block: loads fill the others with the largest value,
        // which a compare-exchange leaves where it is, and stores skip them.
        let lanes = |i: usize| -> __mmask8 {
            if n - i >= 8 {
                0xff
            } else {
                ((1u32 << (n - i)) - 1) as __mmask8
            }
        };
        let top = _mm512_set1_epi64(-1);
        // Lane i and lane i ^ 1 change places: the partner of each lane in a compare-exchange.
        let partner = _mm512_set_epi64(6, 7, 4, 5, 2, 3, 0, 1);
        // One pass compares pairs (j, j + 1) for every j of one parity; blocks of 8 starting at
        // that parity hold 4 whole pairs, so the blocks of a pass are independent.
        for pass in 0..passes {
            let mut i = pass % 2;
            while i < n {
                let m = lanes(i);
                // SAFETY: the masked lanes are below n.
                unsafe {
                    let x = _mm512_mask_loadu_epi64(top, m, p.add(i).cast());
                    let y = _mm512_permutexvar_epi64(partner, x);
                    let lo = _mm512_min_epu64(x, y);
                    let hi = _mm512_max_epu64(x, y);
                    // The first lane of a pair takes the smaller value, the second the larger.
                    let sorted = _mm512_mask_blend_epi64(0b1010_1010, lo, hi);
                    _mm512_mask_storeu_epi64(p.add(i).cast(), m, sorted);
                }
                i += 8;
            }
        }
        // Keep v[i] when it differs from v[i - 1] (always v[0]); each block's kept values go
        // to `kept`, which never passes the block being read, so nothing unread is overwritten.
        let mut kept = 0;
        let mut previous = _mm512_setzero_si512();
        let mut first: __mmask8 = 1;
        let mut i = 0;
        while i < n {
            let m = lanes(i);
            // SAFETY: the masked lanes are below n; the stored ones below kept + 8 ≤ i + 8
            // and below n.
            unsafe {
                let x = _mm512_maskz_loadu_epi64(m, p.add(i).cast());
                // Lane j holds v[i + j - 1]: the previous block's last value, then this one's.
                let before = _mm512_alignr_epi64::<7>(x, previous);
                let keep = _mm512_mask_cmpneq_epu64_mask(m, x, before) | first;
                let squeezed = _mm512_maskz_compress_epi64(keep, x);
                let count = keep.count_ones() as usize;
                _mm512_mask_storeu_epi64(
                    p.add(kept).cast(),
                    ((1u32 << count) - 1) as __mmask8,
                    squeezed,
                );
                kept += count;
                previous = x;
            }
            first = 0;
            i += 8;
        }
        kept
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::{Profile, ShingleKind, shingle_hash};
    use crate::util::rng::SplitMix64;

    /// The plain definition: every shingle's hash, sorted, repeats removed.
    fn reference_set(options: &ShingleOptions, text: &str) -> Vec<u64> {
        let mut shingler = Shingler::new(options.clone());
        let mut set: Vec<u64> = shingler.spans(text).into_iter().map(|s| s.hash).collect();
        set.sort_unstable();
        set.dedup();
        set
    }

    fn reference_sort(hashes: &[u64]) -> Vec<u64> {
        let mut v = hashes.to_vec();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// Both finishes: the AVX-512 one where the CPU has it, and the portable one.
    fn scratches() -> Vec<SortScratch> {
        let mut portable = SortScratch::new();
        portable.avx512 = false;
        vec![SortScratch::new(), portable]
    }

    #[test]
    fn sorted_sets_equal_sort_and_dedup_on_random_and_adversarial_hashes() {
        let mut rng = SplitMix64::new(29);
        let mut inputs: Vec<Vec<u64>> = vec![
            vec![],
            vec![7],
            vec![0; 100],
            vec![u64::MAX; 40],
            // Everything in one bucket: past MAX_BUCKET, the comparison sort takes over.
            (0..500).rev().collect(),
            // Repeats of the extremes among uniform values.
            (0..300)
                .map(|i| match i % 5 {
                    0 => 0,
                    1 => u64::MAX,
                    _ => rng.next_u64(),
                })
                .collect(),
        ];
        for n in [
            1, 2, 8, 9, 31, 32, 33, 63, 64, 65, 100, 400, 511, 512, 513, 5000,
        ] {
            for repeats in [0, 10, 60] {
                let mut v: Vec<u64> = Vec::with_capacity(n);
                for _ in 0..n {
                    if !v.is_empty() && rng.below(100) < repeats {
                        v.push(v[rng.below(v.len() as u64) as usize]);
                    } else {
                        v.push(rng.next_u64());
                    }
                }
                inputs.push(v);
            }
            // Values crowded into few buckets: top bits from a small range.
            inputs.push(
                (0..n)
                    .map(|_| (rng.below(3) << 61) | (rng.next_u64() >> 40))
                    .collect(),
            );
        }
        // Longer than LARGE: the comparison sort's range.
        inputs.push((0..LARGE as u64 + 3).map(|_| rng.next_u64() >> 1).collect());
        for mut scratch in scratches() {
            for hashes in &inputs {
                let expected = reference_sort(hashes);
                let mut out = vec![3, 1];
                sort_dedup_onto(hashes, &mut scratch, &mut out);
                assert_eq!(out[..2], [3, 1], "what was there stays");
                assert_eq!(out[2..], expected[..], "n = {}", hashes.len());
            }
        }
    }

    #[test]
    fn nearly_sorted_finish_sorts_anything() {
        let mut rng = crate::util::rng::SplitMix64::new(23);
        for n in [0, 1, 2, 3, 10, 100, 1000] {
            for spread in [1, 3, 1 << 62, u64::MAX] {
                let mut v: Vec<u64> = (0..n)
                    .map(|i| (i as u64).wrapping_mul(7) ^ (rng.next_u64() % spread))
                    .collect();
                if n > 5 {
                    v.reverse();
                    v[n / 2] = v[0];
                }
                let mut expected = v.clone();
                expected.sort_unstable();
                finish_nearly_sorted(&mut v);
                assert_eq!(v, expected, "n = {n}, spread {spread}");
            }
        }
    }

    #[test]
    fn odd_even_passes_sort_any_bucket_of_that_many_values() {
        // Every order of a bucket of m ≤ 7 values, at both parities of its start, between
        // values already in order: m passes sort it (the claim `finish_dedup` rests on).
        if !simd::available() {
            return;
        }
        fn permutations(m: usize) -> Vec<Vec<u64>> {
            if m == 0 {
                return vec![vec![]];
            }
            let mut all = Vec::new();
            for p in permutations(m - 1) {
                for at in 0..=p.len() {
                    let mut q = p.clone();
                    q.insert(at, m as u64);
                    all.push(q);
                }
            }
            all
        }
        for m in 1..=7 {
            for bucket in permutations(m) {
                for before in [0, 1, 2, 7, 8, 9] {
                    let mut v: Vec<u64> = (0..before as u64).collect();
                    v.extend(bucket.iter().map(|x| x + 100));
                    v.extend([500, 600, 700]);
                    let mut expected = v.clone();
                    expected.sort_unstable();
                    expected.dedup();
                    // SAFETY: checked above.
                    let kept = unsafe { simd::finish_dedup(&mut v, m) };
                    assert_eq!(v[..kept], expected[..], "{bucket:?} after {before}");
                }
            }
        }
    }

    #[test]
    fn sets_equal_the_plain_definition_on_random_texts() {
        // ASCII (the AVX-512 path), mixed Unicode (the general path), control bytes, lone
        // combining marks, whitespace runs; texts from empty to several thousand characters;
        // repeated words so sets have repeats to remove.
        let pieces = [
            "the",
            "THE",
            "quick",
            "fox",
            " ",
            "  ",
            "\t",
            "\n",
            ".",
            ",",
            "'",
            "\u{0}",
            "\u{1f}",
            "\u{7f}",
            "é",
            "e\u{301}",
            "\u{301}",
            "ß",
            "İ",
            "Σ",
            "“",
            "”",
            "—",
            "\u{a0}",
            "\u{3000}",
            "漢字",
            "😀",
            "ﬁ",
            "Ｆ",
            "0123456789",
            "lorem ipsum dolor sit amet",
        ];
        let mut rng = SplitMix64::new(41);
        let mut texts: Vec<String> = vec![String::new(), " ".into(), "a".into(), "ab".into()];
        for round in 0..300 {
            let ascii_only = round % 2 == 0;
            let words = [0, 1, 3, 20, 80, 400, 1500][round % 7];
            let mut t = String::new();
            for _ in 0..words {
                let piece = pieces[rng.below(pieces.len() as u64) as usize];
                if ascii_only && !piece.is_ascii() {
                    continue;
                }
                t.push_str(piece);
            }
            texts.push(t);
        }
        let mut option_sets = Vec::new();
        for kind in [
            "char:1", "char:3", "char:5", "char:8", "char:9", "word:1", "word:3",
        ] {
            for (lowercase, strip_punct, nfkc) in [
                (true, false, false),
                (false, false, false),
                (true, true, true),
            ] {
                option_sets.push(ShingleOptions {
                    kind: kind.parse::<ShingleKind>().unwrap(),
                    lowercase,
                    nfkc,
                    strip_punct,
                    profile: Profile::Lshscope,
                });
            }
        }
        option_sets.push(ShingleOptions::for_profile(Profile::Datatrove));
        for options in &option_sets {
            for avx512 in [true, false] {
                let mut builder = SetBuilder::new(options.clone());
                builder.sort.avx512 &= avx512;
                // Sets appended one after another, as an index writes them.
                let mut all = Vec::new();
                let mut expected_all = Vec::new();
                for t in &texts {
                    let expected = reference_set(options, t);
                    assert_eq!(builder.set(t), expected, "{options:?}, {t:?}");
                    builder.set_onto(t, &mut all);
                    expected_all.extend(expected);
                }
                assert_eq!(all, expected_all, "{options:?}");
            }
        }
        // Hashes are those of the shingle bytes: a sanity anchor for the reference itself.
        let mut builder = SetBuilder::new(ShingleOptions::default());
        assert_eq!(builder.set("Hello"), vec![shingle_hash(b"hello")]);
    }
}
