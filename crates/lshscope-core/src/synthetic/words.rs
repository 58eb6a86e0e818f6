//! Synthetic corpora with planted near-duplicates at chosen Jaccard levels.
//!
//! Words are invented from syllables by a seeded generator (no text is copied from anywhere)
//! and drawn with a Zipf-like skew, so that random documents share a realistic trickle of
//! shingles. Each planted pair is a fresh document and a copy of it with some words replaced;
//! the number of replacements is found by bisection so that the exact Jaccard of the pair,
//! under the given shingle options, lands as close as possible to the requested level.

use crate::corpus::Corpus;
use crate::minhash::similarity::jaccard;
use crate::text::{ShingleOptions, Shingler};
use crate::util::rng::SplitMix64;

/// What [`generate`] makes: a corpus of pseudo-words with pairs planted at chosen Jaccard levels.
#[derive(Debug, Clone)]
pub struct GenOptions {
    /// Documents in the corpus, planted pairs included.
    pub documents: usize,
    /// Mean document length in characters.
    pub length: usize,
    /// Target Jaccard levels of planted pairs.
    pub levels: Vec<f64>,
    /// Planted pairs per level.
    pub pairs_per_level: usize,
    /// Seed of every random choice: the same options give the same corpus.
    pub seed: u64,
    /// The shingles the planted levels are measured with.
    pub shingle: ShingleOptions,
}

/// A planted pair: input positions (a < b), its exact Jaccard and the level it aimed at.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlantedPair {
    /// Input position of the first document.
    pub a: u32,
    /// Input position of the second document.
    pub b: u32,
    /// Exact Jaccard of the two under [`GenOptions::shingle`].
    pub jaccard: f64,
    /// The level it was planted for; `jaccard` lands near it, not on it.
    pub level: f64,
}

/// A uniform index in [0, n), by scaling [`SplitMix64::unit`]: the mapping `gen` has always
/// used, so a seed keeps giving the same corpus.
fn index_below(rng: &mut SplitMix64, n: usize) -> usize {
    (rng.unit() * n as f64) as usize
}

const ONSETS: &[&str] = &[
    "b", "c", "d", "f", "g", "h", "j", "k", "l", "m", "n", "p", "r", "s", "t", "v", "w", "z", "br",
    "ch", "cl", "dr", "fl", "gr", "pl", "pr", "sh", "st", "th", "tr",
];
const VOWELS: &[&str] = &["a", "e", "i", "o", "u", "ai", "ea", "io", "ou", "y"];
const CODAS: &[&str] = &["", "", "", "n", "r", "s", "t", "l", "m", "nd", "st", "ck"];

fn make_vocabulary(rng: &mut SplitMix64, size: usize) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    let mut words = Vec::with_capacity(size);
    while words.len() < size {
        let syllables = 1 + index_below(rng, 3);
        let mut w = String::new();
        for _ in 0..syllables {
            w.push_str(ONSETS[index_below(rng, ONSETS.len())]);
            w.push_str(VOWELS[index_below(rng, VOWELS.len())]);
        }
        w.push_str(CODAS[index_below(rng, CODAS.len())]);
        if seen.insert(w.clone()) {
            words.push(w);
        }
    }
    words
}

struct Writer<'a> {
    vocab: &'a [String],
    rng: SplitMix64,
}

impl Writer<'_> {
    /// A word index with a Zipf-like skew (rank ~ 1/u).
    fn word(&mut self) -> usize {
        let u = self.rng.unit().max(1e-9);
        ((self.vocab.len() as f64).powf(u) as usize - 1).min(self.vocab.len() - 1)
    }

    fn words(&mut self, length: usize) -> Vec<usize> {
        // Lengths vary ±50 % around the mean.
        let target = (length as f64 * (0.5 + self.rng.unit())) as usize;
        let mut words = Vec::new();
        let mut chars = 0;
        while chars < target.max(1) {
            let w = self.word();
            chars += self.vocab[w].len() + 1;
            words.push(w);
        }
        words
    }

    fn render(&self, words: &[usize]) -> String {
        let mut s = String::new();
        for (i, &w) in words.iter().enumerate() {
            let word = &self.vocab[w];
            if i == 0 || s.ends_with('.') {
                if i > 0 {
                    s.push(' ');
                }
                let mut c = word.chars();
                if let Some(f) = c.next() {
                    s.extend(f.to_uppercase());
                    s.push_str(c.as_str());
                }
            } else {
                s.push(' ');
                s.push_str(word);
            }
            // Sentence breaks now and then, so texts look like prose.
            if i + 1 < words.len() && (i % 11) == 10 {
                s.push('.');
            }
        }
        s.push('.');
        s
    }
}

/// The sorted, de-duplicated shingle hashes of `text`: what the planted Jaccard levels are
/// measured on.
pub(crate) fn shingle_set(shingler: &mut Shingler, text: &str) -> Vec<u64> {
    let mut h = Vec::new();
    shingler.hashes(text, &mut h);
    h.sort_unstable();
    h.dedup();
    h
}

/// The smallest number of edits m in `0..=max` whose variant has `jaccard(m)` ≤ `level`
/// (`max` when none has), by bisection: the planting step of every generator. The edits are
/// fixed up front and applied in order, so the Jaccard falls (almost) monotonically with m;
/// the caller then compares m − 1 and m, one of which is the closest to the level.
pub(crate) fn first_at_or_below(
    max: usize,
    level: f64,
    mut jaccard: impl FnMut(usize) -> f64,
) -> usize {
    let (mut lo, mut hi) = (0usize, max);
    while lo < hi {
        let mid = (lo + hi) / 2;
        if jaccard(mid) > level {
            lo = mid + 1
        } else {
            hi = mid
        }
    }
    lo
}

/// Generates the corpus (ids `doc-000001`…, order shuffled) and its planted pairs.
pub fn generate(opts: &GenOptions) -> (Corpus, Vec<PlantedPair>) {
    let mut rng = SplitMix64::new(opts.seed ^ 0x67656e);
    let vocab = make_vocabulary(&mut rng, 6000);
    let mut writer = Writer {
        vocab: &vocab,
        rng: SplitMix64::new(opts.seed.wrapping_mul(31).wrapping_add(7)),
    };
    let mut shingler = Shingler::new(opts.shingle.clone());
    let planted_total = (opts.levels.len() * opts.pairs_per_level * 2).min(opts.documents);
    let mut texts: Vec<String> = Vec::with_capacity(opts.documents);
    // (text index a, text index b, jaccard, level)
    let mut planted = Vec::new();
    'levels: for &level in &opts.levels {
        for _ in 0..opts.pairs_per_level {
            if texts.len() + 2 > planted_total {
                break 'levels;
            }
            let base = writer.words(opts.length);
            let base_text = writer.render(&base);
            let base_set = shingle_set(&mut shingler, &base_text);
            // Replacement order and replacement words fixed up front: Jaccard then falls
            // (almost) monotonically with the number m of replaced positions.
            let mut order: Vec<usize> = (0..base.len()).collect();
            for i in (1..order.len()).rev() {
                order.swap(i, index_below(&mut writer.rng, i + 1));
            }
            let fresh: Vec<usize> = (0..base.len()).map(|_| writer.word()).collect();
            let variant = |m: usize| {
                let mut v = base.clone();
                for &pos in &order[..m] {
                    v[pos] = fresh[pos];
                }
                v
            };
            let lo = first_at_or_below(base.len(), level, |m| {
                jaccard(
                    &base_set,
                    &shingle_set(&mut shingler, &writer.render(&variant(m))),
                )
            });
            // lo is the first m with J ≤ level; m − 1 may be closer.
            let mut best = (f64::INFINITY, String::new(), 0.0);
            for m in [lo.saturating_sub(1), lo] {
                let text = writer.render(&variant(m));
                let j = jaccard(&base_set, &shingle_set(&mut shingler, &text));
                if (j - level).abs() < best.0 {
                    best = ((j - level).abs(), text, j);
                }
            }
            planted.push((texts.len(), texts.len() + 1, best.2, level));
            texts.push(base_text);
            texts.push(best.1);
        }
    }
    while texts.len() < opts.documents {
        let words = writer.words(opts.length);
        texts.push(writer.render(&words));
    }
    // Shuffle document order so planted pairs are not neighbours.
    let mut perm: Vec<usize> = (0..texts.len()).collect();
    for i in (1..perm.len()).rev() {
        perm.swap(i, index_below(&mut writer.rng, i + 1));
    }
    let mut position = vec![0u32; texts.len()];
    for (pos, &orig) in perm.iter().enumerate() {
        position[orig] = pos as u32;
    }
    let width = opts.documents.to_string().len().max(6);
    let mut corpus = Corpus::new();
    for (pos, &orig) in perm.iter().enumerate() {
        corpus.push(&format!("doc-{:0width$}", pos + 1), &texts[orig]);
    }
    corpus.shrink_to_fit();
    let mut pairs: Vec<PlantedPair> = planted
        .into_iter()
        .map(|(x, y, jaccard, level)| {
            let (a, b) = (position[x].min(position[y]), position[x].max(position[y]));
            PlantedPair {
                a,
                b,
                jaccard,
                level,
            }
        })
        .collect();
    pairs.sort_by_key(|p| (p.a, p.b));
    (corpus, pairs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plants_pairs_near_their_levels() {
        let opts = GenOptions {
            documents: 200,
            length: 300,
            levels: vec![0.5, 0.8, 0.95],
            pairs_per_level: 10,
            seed: 3,
            shingle: ShingleOptions::default(),
        };
        let (corpus, pairs) = generate(&opts);
        assert_eq!(corpus.len(), 200);
        assert_eq!(pairs.len(), 30);
        let mut shingler = Shingler::new(ShingleOptions::default());
        for p in &pairs {
            assert!(p.a < p.b);
            let j = jaccard(
                &shingle_set(&mut shingler, corpus.text(p.a as usize)),
                &shingle_set(&mut shingler, corpus.text(p.b as usize)),
            );
            assert_eq!(j, p.jaccard);
            assert!((j - p.level).abs() < 0.06, "level {} got {j}", p.level);
        }
        // Same seed, same corpus.
        let (again, _) = generate(&opts);
        assert_eq!(again.text(17), corpus.text(17));
    }
}
