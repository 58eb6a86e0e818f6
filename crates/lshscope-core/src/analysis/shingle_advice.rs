//! Evidence for choosing the shingle size, and the check that warns when a banding will make a
//! large share of all pairs candidates.
//!
//! The textbook rule (Mining of Massive Datasets, ch. 3.2) says k must be large enough that a
//! given shingle is unlikely to turn up in an unrelated document, and small enough that an
//! edit does not destroy every shingle. Both halves can be measured on the corpus itself:
//! how many shingles are common to many documents, and how similar random (mostly unrelated)
//! pairs of documents look at each size. [`advise_shingles`] measures them for char k = 2…9 and
//! word n = 1…5 on the same random pairs, so the sizes are compared on equal terms.

use rayon::prelude::*;
use serde::Serialize;

use crate::analysis::truth::sample_pairs;
use crate::corpus::Corpus;
use crate::jobs::{Phase, Progress};
use crate::minhash::scurve::candidate_probability;
use crate::minhash::similarity::jaccard;
use crate::minhash::{Banding, ShingleSets};
use crate::text::{ShingleKind, ShingleOptions, Shingler};
use crate::util::numfmt::{percent_rough, thousands};
use crate::{Error, Result};

/// The character shingle sizes the advisor measures.
pub const CHAR_SIZES: std::ops::RangeInclusive<usize> = 2..=9;
/// The word shingle sizes the advisor measures.
pub const WORD_SIZES: std::ops::RangeInclusive<usize> = 1..=5;
/// A shingle is "common" when it occurs in more than this share of the documents.
pub const COMMON_DOCUMENT_SHARE: f64 = 0.01;
/// Random pairs count as unrelated when their 99th-percentile Jaccard is at most this: well
/// below any threshold people deduplicate at (0.5 to 0.9), so the S-curve keeps them out.
pub const BACKGROUND_P99_LIMIT: f64 = 0.10;
/// Random pairs at least this similar at the largest character size ([`CHAR_SIZES`]'s end)
/// are taken as related (near copies, members of one template) and left out of the figures
/// that judge each size: in a corpus of large template families they are a sizeable share of
/// random pairs (a family holding 30 % of the documents makes 9 % of them), and they would make
/// every size look as if unrelated documents looked alike. Unrelated texts share few
/// nine-character runs; related ones share most of theirs.
pub const RELATED_JACCARD: f64 = 0.5;
/// Random pairs sampled by default, for the advisor and for the candidate-share check.
pub const DEFAULT_PAIRS: usize = 2000;
/// The candidate-share check warns when the typical random pair becomes a candidate with at
/// least this probability.
pub const LARGE_CANDIDATE_SHARE: f64 = 0.01;

/// The fewest measured pairs the candidate-share advice rests on: with 100 pairs the sample
/// median lies between the 40th and 60th percentiles of all pairs with 95 % probability
/// (binomial order statistics), close enough to call a typical pair typical.
pub const MIN_ADVICE_PAIRS: usize = 100;

/// Settings of the advisor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdviceOptions {
    /// Normalization (case, NFKC, punctuation); its `kind` is ignored, every size is measured.
    pub normalization: ShingleOptions,
    /// Random document pairs whose Jaccard is measured at every size.
    pub pairs: usize,
    /// Seed of the pair sample.
    pub seed: u64,
}

impl Default for AdviceOptions {
    fn default() -> Self {
        AdviceOptions {
            normalization: ShingleOptions::default(),
            pairs: DEFAULT_PAIRS,
            seed: 1,
        }
    }
}

/// What one shingle size does to the corpus.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShingleSizeStats {
    /// The shingle kind and size these figures are for.
    #[serde(serialize_with = "serialize_kind")]
    pub shingle: ShingleKind,
    /// Distinct shingles over all documents.
    pub distinct: usize,
    /// Mean number of distinct shingles per document.
    pub mean_per_doc: f64,
    /// Share of the distinct shingles that occur in more than 1 % of the documents.
    pub common_share: f64,
    /// Mean Jaccard of the sampled random pairs.
    pub mean_jaccard: f64,
    /// 99th percentile (nearest rank) of the sampled random pairs' Jaccard.
    pub p99_jaccard: f64,
}

fn serialize_kind<S: serde::Serializer>(
    kind: &ShingleKind,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    s.collect_str(kind)
}

/// The advisor's measurements and its recommendation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShingleAdvice {
    /// Documents measured (those with some text after normalization).
    pub documents: usize,
    /// Documents left out because nothing remains of them after normalization.
    pub documents_without_text: usize,
    /// Random pairs measured (every pair when there are fewer than asked).
    pub pairs: usize,
    /// Of those, the related ones ([`RELATED_JACCARD`]) left out of each size's figures; 0
    /// when fewer than [`MIN_ADVICE_PAIRS`] unrelated pairs would remain (then none is left
    /// out, and the reason says so).
    pub related_pairs: usize,
    /// One row per size: char 2…9, then word 1…5.
    pub sizes: Vec<ShingleSizeStats>,
    /// The size the advisor picks; the reason below says why.
    #[serde(serialize_with = "serialize_kind")]
    pub recommended: ShingleKind,
    /// Why, in one or two sentences, with the numbers behind it.
    pub reason: String,
}

impl ShingleAdvice {
    /// The row of `kind`, if it was measured.
    pub fn stats(&self, kind: ShingleKind) -> Option<&ShingleSizeStats> {
        self.sizes.iter().find(|s| s.shingle == kind)
    }
}

/// Every size the advisor measures, in table order.
pub fn measured_sizes() -> Vec<ShingleKind> {
    CHAR_SIZES
        .map(ShingleKind::Char)
        .chain(WORD_SIZES.map(ShingleKind::Word))
        .collect()
}

/// Measures every size of [`measured_sizes`] on `corpus` and recommends one.
///
/// Needs at least two documents with text. Cost: every document is shingled once per size
/// (13 times), so sample large corpora first (the CLI reads a sample by default).
pub fn advise_shingles(
    corpus: &Corpus,
    options: &AdviceOptions,
    progress: &Progress,
) -> Result<ShingleAdvice> {
    let mut normalizer = Shingler::new(options.normalization.clone());
    let with_text: Vec<usize> = (0..corpus.len())
        .filter(|&i| !normalizer.normalize(corpus.text(i)).is_empty())
        .collect();
    if with_text.len() < 2 {
        return Err(Error::usage(format!(
            "the shingle advisor needs at least 2 documents with text, found {}: give it a \
             larger input",
            with_text.len()
        )));
    }
    let all_pairs = sample_pairs(with_text.len(), options.pairs, options.seed);
    let sizes = measured_sizes();
    progress.begin(
        Phase::Signatures,
        ((sizes.len() + 1) * with_text.len()) as u64,
    );
    let largest = ShingleOptions {
        kind: ShingleKind::Char(*CHAR_SIZES.end()),
        ..options.normalization.clone()
    };
    let sets = shingle_sets(corpus, &with_text, &largest, progress)?;
    let unrelated: Vec<(u32, u32)> = all_pairs
        .iter()
        .copied()
        .filter(|&(a, b)| jaccard(&sets[a as usize], &sets[b as usize]) < RELATED_JACCARD)
        .collect();
    drop(sets);
    let too_few_unrelated = unrelated.len() < MIN_ADVICE_PAIRS.min(all_pairs.len());
    let (pairs, related_pairs) = if too_few_unrelated {
        (all_pairs.clone(), 0)
    } else {
        let related = all_pairs.len() - unrelated.len();
        (unrelated, related)
    };
    let mut rows = Vec::with_capacity(sizes.len());
    for &kind in &sizes {
        let opts = ShingleOptions {
            kind,
            ..options.normalization.clone()
        };
        let sets = shingle_sets(corpus, &with_text, &opts, progress)?;
        rows.push(size_stats(kind, &sets, &pairs));
    }
    let (recommended, mut reason) = recommend(&rows);
    if too_few_unrelated {
        reason.push_str(&format!(
            " Nearly all random pairs here are related (Jaccard {RELATED_JACCARD} or more at {}): \
             too few unrelated ones remain to judge the sizes by, so these figures include them.",
            largest.kind
        ));
    }
    Ok(ShingleAdvice {
        documents: with_text.len(),
        documents_without_text: corpus.len() - with_text.len(),
        pairs: all_pairs.len(),
        related_pairs,
        sizes: rows,
        recommended,
        reason,
    })
}

/// The sorted, de-duplicated shingle-hash set of each document in `docs`.
fn shingle_sets(
    corpus: &Corpus,
    docs: &[usize],
    opts: &ShingleOptions,
    progress: &Progress,
) -> Result<Vec<Vec<u64>>> {
    const CHUNK: usize = 1024;
    let chunks: Vec<Vec<Vec<u64>>> = docs
        .par_chunks(CHUNK)
        .map_init(
            || Shingler::new(opts.clone()),
            |shingler, chunk| {
                progress.check()?;
                let sets = chunk
                    .iter()
                    .map(|&i| {
                        let mut set = Vec::new();
                        shingler.hashes(corpus.text(i), &mut set);
                        set.sort_unstable();
                        set.dedup();
                        set
                    })
                    .collect();
                progress.advance(chunk.len() as u64);
                Ok(sets)
            },
        )
        .collect::<Result<_>>()?;
    Ok(chunks.concat())
}

/// The figures of one size from its sets and the sampled pairs (indices into `sets`).
fn size_stats(kind: ShingleKind, sets: &[Vec<u64>], pairs: &[(u32, u32)]) -> ShingleSizeStats {
    let docs = sets.len();
    let total: usize = sets.iter().map(Vec::len).sum();
    // Each set is de-duplicated, so the length of a run of equal hashes in the concatenation
    // is the number of documents holding that shingle.
    let mut all: Vec<u64> = Vec::with_capacity(total);
    for set in sets {
        all.extend_from_slice(set);
    }
    all.par_sort_unstable();
    let (mut distinct, mut common) = (0usize, 0usize);
    let common_above = COMMON_DOCUMENT_SHARE * docs as f64;
    for run in all.chunk_by(|a, b| a == b) {
        distinct += 1;
        if run.len() as f64 > common_above {
            common += 1;
        }
    }
    let mut similarities: Vec<f64> = pairs
        .iter()
        .map(|&(a, b)| jaccard(&sets[a as usize], &sets[b as usize]))
        .collect();
    ShingleSizeStats {
        shingle: kind,
        distinct,
        mean_per_doc: total as f64 / docs.max(1) as f64,
        common_share: if distinct == 0 {
            0.0
        } else {
            common as f64 / distinct as f64
        },
        mean_jaccard: mean(&similarities),
        p99_jaccard: percentile(&mut similarities, 0.99),
    }
}

fn mean(values: &[f64]) -> f64 {
    if values.is_empty() {
        0.0
    } else {
        values.iter().sum::<f64>() / values.len() as f64
    }
}

/// The nearest-rank percentile: the smallest value with at least `q` of the values at or
/// below it.
pub fn percentile(values: &mut [f64], q: f64) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_unstable_by(f64::total_cmp);
    let rank = (q * values.len() as f64).ceil() as usize;
    values[rank.clamp(1, values.len()) - 1]
}

/// The smallest character size whose random pairs stay unrelated, with the reason; word
/// sizes and the least-similar size are fallbacks.
fn recommend(rows: &[ShingleSizeStats]) -> (ShingleKind, String) {
    let unrelated = |s: &ShingleSizeStats| s.p99_jaccard <= BACKGROUND_P99_LIMIT;
    let chars: Vec<&ShingleSizeStats> = rows
        .iter()
        .filter(|s| matches!(s.shingle, ShingleKind::Char(_)))
        .collect();
    let words: Vec<&ShingleSizeStats> = rows
        .iter()
        .filter(|s| matches!(s.shingle, ShingleKind::Word(_)))
        .collect();
    let first_word = words.iter().find(|s| unrelated(s));
    let word_note = match first_word {
        Some(w) => format!(" Among word shingles, {} is the first to do so.", w.shingle),
        None => String::new(),
    };
    if let Some(pos) = chars.iter().position(|s| unrelated(s)) {
        let pick = chars[pos];
        let smaller = match pos.checked_sub(1).map(|p| chars[p]) {
            Some(prev) => format!(
                " ({} gives {}, so unrelated documents start to look alike)",
                prev.shingle,
                fmt_share(prev.p99_jaccard)
            ),
            None => String::new(),
        };
        let k = match pick.shingle {
            ShingleKind::Char(k) | ShingleKind::Word(k) => k,
        };
        let reason = format!(
            "{} is the smallest size at which 99 % of random pairs have Jaccard at most {} \
             (here {}){smaller}. Smaller sizes let unrelated documents share shingles; larger \
             ones make each edit destroy more of them (one edit changes up to {k} of the {:.0} \
             shingles of a mean document).{word_note}",
            pick.shingle,
            BACKGROUND_P99_LIMIT,
            fmt_share(pick.p99_jaccard),
            pick.mean_per_doc,
        );
        return (pick.shingle, reason);
    }
    if let Some(w) = first_word {
        let reason = format!(
            "no character size up to {} keeps 99 % of random pairs at Jaccard {} or less, but \
             {} does (99th percentile {}): the documents share long runs of characters, and \
             whole words separate them better.",
            ShingleKind::Char(*CHAR_SIZES.end()),
            BACKGROUND_P99_LIMIT,
            w.shingle,
            fmt_share(w.p99_jaccard)
        );
        return (w.shingle, reason);
    }
    let best = rows
        .iter()
        .min_by(|a, b| {
            a.p99_jaccard
                .total_cmp(&b.p99_jaccard)
                .then(a.mean_jaccard.total_cmp(&b.mean_jaccard))
        })
        .expect("the advisor measures at least one size");
    let reason = format!(
        "random pairs stay similar at every size (the least similar is {}, 99th percentile {}, \
         above {}): the documents share boilerplate or come from templates. Expect many \
         candidates whatever the size; strip the shared parts first, or band with more rows.",
        best.shingle,
        fmt_share(best.p99_jaccard),
        BACKGROUND_P99_LIMIT
    );
    (best.shingle, reason)
}

fn fmt_share(x: f64) -> String {
    format!("{x:.3}")
}

/// How many of all pairs a banding is expected to make candidates, judged from random pairs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct CandidateShare {
    /// The banding judged.
    pub banding: Banding,
    /// Documents in the index: their pairs, n(n − 1)/2, are what the share is of.
    pub documents: usize,
    /// Random pairs measured.
    pub pairs_sampled: usize,
    /// Their median exact Jaccard: the typical, unrelated pair. Real near-duplicates are a
    /// small minority of all pairs, so they move the median little, unlike the mean.
    pub median_jaccard: f64,
    /// P(s) = 1 − (1 − s^r)^b at the median Jaccard: the chance that the typical pair becomes
    /// a candidate.
    pub median_probability: f64,
    /// The mean of P(s) over the sampled pairs: the expected share of all pairs that become
    /// candidates.
    pub expected_share: f64,
}

impl CandidateShare {
    /// All N(N − 1)/2 pairs of the corpus.
    pub fn total_pairs(&self) -> u64 {
        crate::minhash::pairs_among(self.documents as u64)
    }

    /// The expected number of candidate pairs.
    pub fn expected_candidates(&self) -> f64 {
        self.expected_share * self.total_pairs() as f64
    }

    /// True when the typical random pair is likely enough to become a candidate that a large
    /// share of all pairs will ([`LARGE_CANDIDATE_SHARE`]; at least half of all pairs are then
    /// candidates with that probability or more).
    ///
    /// Only from [`MIN_ADVICE_PAIRS`] pairs up: a median over a handful of pairs (a corpus of
    /// three documents has three) says nothing about the typical pair, and such a corpus has
    /// too few pairs for a large share to cost anything.
    pub fn is_large(&self) -> bool {
        self.pairs_sampled >= MIN_ADVICE_PAIRS && self.median_probability >= LARGE_CANDIDATE_SHARE
    }

    /// Every pair of the corpus was measured, not a sample of them.
    pub fn is_every_pair(&self) -> bool {
        self.pairs_sampled as u64 >= self.total_pairs()
    }
}

/// The expected share of all pairs of `sets` that `banding` makes candidates, from the exact
/// Jaccard of `pairs` random pairs (seeded). `None` with fewer than two documents. Documents
/// without shingles take part (they never collide, and count as such).
pub fn expected_candidate_share(
    sets: &ShingleSets,
    banding: Banding,
    pairs: usize,
    seed: u64,
) -> Option<CandidateShare> {
    if sets.len() < 2 {
        return None;
    }
    let mut similarities: Vec<f64> = sample_pairs(sets.len(), pairs, seed)
        .iter()
        .map(|&(a, b)| jaccard(sets.get(a as usize), sets.get(b as usize)))
        .collect();
    let p = |s: f64| candidate_probability(s, banding.bands, banding.rows);
    let expected_share =
        similarities.iter().map(|&s| p(s)).sum::<f64>() / similarities.len() as f64;
    let median_jaccard = percentile(&mut similarities, 0.5);
    Some(CandidateShare {
        banding,
        documents: sets.len(),
        pairs_sampled: similarities.len(),
        median_jaccard,
        median_probability: p(median_jaccard),
        expected_share,
    })
}

/// The warning `scan` and the explorer give, or `None` when the banding keeps random pairs
/// out: checks [`DEFAULT_PAIRS`] random pairs of the index.
pub fn candidate_share_warning(index: &crate::minhash::Index, banding: Banding) -> Option<String> {
    let share = expected_candidate_share(&index.sets, banding, DEFAULT_PAIRS, index.options.seed)?;
    share
        .is_large()
        .then(|| describe_candidate_share(&share, index.options.shingle.kind))
}

/// The same check as [`candidate_share_warning`], in one short line for the explorer's
/// status bar (which shows the banding beside it).
pub fn candidate_share_notice(index: &crate::minhash::Index, banding: Banding) -> Option<String> {
    let share = expected_candidate_share(&index.sets, banding, DEFAULT_PAIRS, index.options.seed)?;
    share.is_large().then(|| {
        // Fits an 80-column status line.
        format!(
            "warning: {} makes ~{:.0} % of all pairs candidates (random pairs too alike)",
            index.options.shingle.kind,
            100.0 * share.expected_share
        )
    })
}

/// One sentence on a large candidate share and what to do about it.
pub fn describe_candidate_share(share: &CandidateShare, kind: ShingleKind) -> String {
    format!(
        "random pairs are similar under {kind} (median Jaccard {:.2} over {}): \
         with {} the typical pair becomes a candidate with probability {}, \
         and about {} of all {} pairs will (≈ {}). Use longer shingles (`lshscope shingles \
         FILE` compares sizes) or more rows per band.",
        share.median_jaccard,
        if share.is_every_pair() {
            format!("all {} pairs", thousands(share.pairs_sampled as u64))
        } else {
            format!("{} sampled pairs", thousands(share.pairs_sampled as u64))
        },
        crate::util::numfmt::bands_by_rows(share.banding.bands, share.banding.rows),
        percent_rough(share.median_probability),
        percent_rough(share.expected_share),
        thousands(share.total_pairs()),
        thousands(share.expected_candidates().round() as u64),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentile() {
        let mut v: Vec<f64> = (1..=100).map(|i| i as f64).collect();
        assert_eq!(percentile(&mut v, 0.99), 99.0);
        let mut v = vec![0.3, 0.1, 0.2];
        assert_eq!(percentile(&mut v, 0.99), 0.3);
        assert_eq!(percentile(&mut v, 0.5), 0.2);
        assert_eq!(percentile(&mut [], 0.99), 0.0);
    }

    #[test]
    fn char_one_makes_most_pairs_candidates() {
        let texts = [
            "the cat sat on the mat",
            "a dog barked at the mailman",
            "rain is expected over the weekend",
            "stock prices fell sharply today",
        ];
        let sets_of = |texts: &[String]| {
            let mut shingler = Shingler::new(ShingleOptions {
                kind: ShingleKind::Char(1),
                ..ShingleOptions::default()
            });
            let sets: Vec<Vec<u64>> = texts
                .iter()
                .map(|t| {
                    let mut v = Vec::new();
                    shingler.hashes(t, &mut v);
                    v
                })
                .collect();
            ShingleSets::from_sets(&sets)
        };
        let banding = Banding { bands: 20, rows: 5 };
        // 16 texts: 120 pairs, every one measured.
        let many: Vec<String> = (0..16)
            .map(|i| format!("{} number {i}", texts[i % 4]))
            .collect();
        let share = expected_candidate_share(&sets_of(&many), banding, 1000, 1).unwrap();
        assert_eq!(share.pairs_sampled, 120);
        assert!(share.is_every_pair());
        assert!(share.is_large(), "{share:?}");
        assert!(share.median_jaccard > 0.3);
        assert!(share.expected_share > 0.5);
        assert!(
            describe_candidate_share(&share, ShingleKind::Char(1)).contains("over all 120 pairs")
        );
        // Four texts are six pairs: too few to call any pair typical, so no advice.
        let few: Vec<String> = texts.iter().map(|t| t.to_string()).collect();
        let share = expected_candidate_share(&sets_of(&few), banding, 1000, 1).unwrap();
        assert_eq!(share.pairs_sampled, 6);
        assert!(share.median_jaccard > 0.3);
        assert!(!share.is_large(), "{share:?}");
    }
}
