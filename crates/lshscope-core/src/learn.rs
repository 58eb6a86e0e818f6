//! The computations behind `lshscope learn`: every number the walkthrough shows, computed from
//! the documents with the engine's own normalization, hash family and S-curve, so what a class
//! sees is what `scan` does. Nothing here prints or touches a terminal.

use std::collections::{BTreeMap, BTreeSet};

use crate::minhash::oph::OnePermutation;
use crate::minhash::{HashFamily, fold32, scurve};
use crate::text::{ShingleKind, ShingleOptions, Shingler, shingle_hash};
use crate::util::rng::SplitMix64;

/// The built-in documents: short questions of the kind seen on Q&A sites, written for this
/// project. Under word:1 shingles (punctuation stripped) the near-duplicates sit at known
/// similarities: 1–2 and 4–5 at 0.75, 1–3 and 2–3 at 0.4; 6 shares almost nothing.
pub const BUILTIN_DOCUMENTS: [&str; 6] = [
    "How do I sort a Python list?",
    "How do I sort a Java list?",
    "How can I sort my list quickly?",
    "Why does my sourdough bread not rise?",
    "Why does my bread dough not rise?",
    "Which train goes from Vienna to Prague?",
];

/// The normalization the walkthrough uses: the engine's own (lowercase, whitespace runs made
/// one space, as `scan` does by default) plus punctuation removal, which `scan` does only with
/// `--strip-punct`: on six short questions "list?" and "list" should be one word.
pub fn learn_options(kind: ShingleKind) -> ShingleOptions {
    ShingleOptions {
        kind,
        strip_punct: true,
        ..ShingleOptions::default()
    }
}

/// One document of the walkthrough: its text and its normalized form.
#[derive(Debug, Clone, PartialEq)]
pub struct LearnDoc {
    /// The document's id, as the caller gave it.
    pub id: String,
    /// The text as given.
    pub text: String,
    /// The text after the shingler's normalization (case, Unicode form, punctuation as the
    /// shingle options say): what the shingles are cut from.
    pub normalized: String,
}

/// Everything the walkthrough shows, for one setting of k, K, b and r.
#[derive(Debug, Clone)]
pub struct Walkthrough {
    /// The documents, in the order given.
    pub docs: Vec<LearnDoc>,
    /// The shingle kind and size (characters or words, k) the walkthrough cuts.
    pub kind: ShingleKind,
    /// The distinct shingles of each document, sorted.
    pub shingles: Vec<Vec<String>>,
    /// Every distinct shingle of all documents (the rows of the characteristic matrix), sorted.
    pub universe: Vec<String>,
    /// Characteristic matrix: `matrix[row][doc]` is true when document `doc` has shingle `row`.
    pub matrix: Vec<Vec<bool>>,
    /// K random permutations of the rows (drawn from a seed): `permutations[k][row]` is the
    /// position of `row` in permutation k.
    pub permutations: Vec<Vec<usize>>,
    /// Signature matrix from permutations: `[k][doc]` = first position holding a 1.
    pub perm_signatures: Vec<Vec<usize>>,
    /// Signature matrix from the engine's hash family: `[k][doc]`.
    pub hash_signatures: Vec<Vec<u32>>,
    /// Each document's K rows under the engine's one-permutation hashing (same K and seed),
    /// with how each row was made.
    pub one_permutation: Vec<OnePermutationRows>,
}

/// One document under one-permutation hashing with optimal densification, computed by the
/// engine's own code (`crate::minhash::oph`, the family `--family one-permutation` draws).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OnePermutationRows {
    /// The one hash of each shingle, in the order of [`Walkthrough::shingles`].
    pub hashes: Vec<u32>,
    /// The bin (0-based, of K) each shingle's hash falls into.
    pub bins: Vec<usize>,
    /// The K rows: each bin's smallest hash, or the copy densification made.
    pub rows: Vec<u32>,
    /// Per bin: empty for a bin a shingle reached; otherwise the bins densification probed,
    /// in order, the last the occupied bin it copied from.
    pub probes: Vec<Vec<usize>>,
}

impl OnePermutationRows {
    /// The occupied bin an empty bin copied its row from; `None` for an occupied bin.
    pub fn donor(&self, bin: usize) -> Option<usize> {
        self.probes[bin].last().copied()
    }

    /// Bins no shingle reached (all K for a document without shingles).
    pub fn empty_bins(&self) -> usize {
        let mut reached = vec![false; self.rows.len()];
        for &bin in &self.bins {
            reached[bin] = true;
        }
        reached.iter().filter(|&&r| !r).count()
    }
}

/// Normalized text of each document with the engine's normalization.
pub fn documents(texts: &[(String, String)], opts: &ShingleOptions) -> Vec<LearnDoc> {
    let mut shingler = Shingler::new(opts.clone());
    texts
        .iter()
        .map(|(id, text)| LearnDoc {
            id: id.clone(),
            text: text.clone(),
            normalized: shingler.normalize(text).to_string(),
        })
        .collect()
}

/// The distinct shingles of a normalized text, sorted. Like the engine, a non-empty text
/// shorter than one shingle is one shingle, its whole text.
pub fn shingles_of(normalized: &str, kind: ShingleKind) -> Vec<String> {
    let mut set = BTreeSet::new();
    match kind {
        ShingleKind::Char(k) => {
            let chars: Vec<char> = normalized.chars().collect();
            if chars.len() < k {
                if !chars.is_empty() {
                    set.insert(normalized.to_string());
                }
            } else {
                for w in chars.windows(k) {
                    set.insert(w.iter().collect::<String>());
                }
            }
        }
        ShingleKind::Word(n) => {
            let words: Vec<&str> = normalized.split(' ').filter(|w| !w.is_empty()).collect();
            if words.len() < n {
                if !words.is_empty() {
                    set.insert(words.join(" "));
                }
            } else {
                for w in words.windows(n) {
                    set.insert(w.join(" "));
                }
            }
        }
    }
    set.into_iter().collect()
}

/// Jaccard similarity of two sorted sets, with |A∩B| and |A∪B|.
pub fn jaccard(a: &[String], b: &[String]) -> (usize, usize, f64) {
    let sa: BTreeSet<&String> = a.iter().collect();
    let inter = b.iter().filter(|s| sa.contains(s)).count();
    let union = a.len() + b.len() - inter;
    let j = if union == 0 {
        0.0
    } else {
        inter as f64 / union as f64
    };
    (inter, union, j)
}

/// A uniformly random permutation of `0..n` (Fisher–Yates), as the position of each row.
pub fn permutation(n: usize, rng: &mut SplitMix64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        // Plain modulo (bias below n/2⁶⁴) keeps the permutations the walkthrough has shown.
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    // order[pos] = row; invert to position of row.
    let mut position = vec![0; n];
    for (pos, &row) in order.iter().enumerate() {
        position[row] = pos;
    }
    position
}

impl Walkthrough {
    /// Computes every step for `docs` with shingles `kind` and `num_perm` permutations.
    pub fn new(docs: Vec<LearnDoc>, kind: ShingleKind, num_perm: usize, seed: u64) -> Self {
        let shingles: Vec<Vec<String>> = docs
            .iter()
            .map(|d| shingles_of(&d.normalized, kind))
            .collect();
        let universe: Vec<String> = shingles
            .iter()
            .flatten()
            .cloned()
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let matrix: Vec<Vec<bool>> = universe
            .iter()
            .map(|s| {
                shingles
                    .iter()
                    .map(|set| set.binary_search(s).is_ok())
                    .collect()
            })
            .collect();
        // The generator the hash family uses, seeded with the seed as given.
        let mut rng = SplitMix64::new(seed);
        let permutations: Vec<Vec<usize>> = (0..num_perm)
            .map(|_| permutation(universe.len(), &mut rng))
            .collect();
        let perm_signatures = permutations
            .iter()
            .map(|pos| {
                (0..docs.len())
                    .map(|d| {
                        (0..universe.len())
                            .filter(|&row| matrix[row][d])
                            .map(|row| pos[row])
                            .min()
                            .unwrap_or(usize::MAX)
                    })
                    .collect()
            })
            .collect();
        let family = HashFamily::new(num_perm, seed);
        let hash_signatures = (0..num_perm)
            .map(|k| {
                shingles
                    .iter()
                    .map(|set| {
                        set.iter()
                            .map(|s| family.value(k, fold32(shingle_hash(s.as_bytes()))))
                            .min()
                            .unwrap_or(u32::MAX)
                    })
                    .collect()
            })
            .collect();
        // The shingle hashes as the engine's sets hold them (the full 64 bits).
        let oph = OnePermutation::new(num_perm, seed);
        let one_permutation = shingles
            .iter()
            .map(|set| {
                let hashes: Vec<u64> = set.iter().map(|s| shingle_hash(s.as_bytes())).collect();
                let trace = oph.trace(&hashes);
                OnePermutationRows {
                    hashes: trace.values,
                    bins: trace.bins,
                    rows: trace.rows,
                    probes: trace.probes,
                }
            })
            .collect();
        Walkthrough {
            docs,
            kind,
            shingles,
            universe,
            matrix,
            permutations,
            perm_signatures,
            hash_signatures,
            one_permutation,
        }
    }

    /// Fraction of signature rows (from permutations) on which documents `a` and `b` agree.
    pub fn perm_agreement(&self, a: usize, b: usize) -> f64 {
        agreement(self.perm_signatures.iter().map(|row| row[a] == row[b]))
    }

    /// Fraction of signature rows (from the hash family) on which `a` and `b` agree.
    pub fn hash_agreement(&self, a: usize, b: usize) -> f64 {
        agreement(self.hash_signatures.iter().map(|row| row[a] == row[b]))
    }

    /// Fraction of one-permutation rows on which `a` and `b` agree.
    pub fn one_permutation_agreement(&self, a: usize, b: usize) -> f64 {
        let (ra, rb) = (&self.one_permutation[a].rows, &self.one_permutation[b].rows);
        agreement(ra.iter().zip(rb).map(|(x, y)| x == y))
    }

    /// Buckets of each band over the hash signature: for band i, a map from the band's
    /// values to the documents that share them. Uses the first `bands * rows` rows.
    pub fn buckets(&self, bands: usize, rows: usize) -> Vec<BTreeMap<Vec<u32>, Vec<usize>>> {
        (0..bands)
            .map(|band| {
                let mut map: BTreeMap<Vec<u32>, Vec<usize>> = BTreeMap::new();
                for d in 0..self.docs.len() {
                    let key: Vec<u32> = (band * rows..(band + 1) * rows)
                        .filter_map(|k| self.hash_signatures.get(k).map(|row| row[d]))
                        .collect();
                    map.entry(key).or_default().push(d);
                }
                map
            })
            .collect()
    }

    /// Candidate pairs (a < b): documents sharing a bucket in at least one band.
    pub fn candidates(&self, bands: usize, rows: usize) -> BTreeSet<(usize, usize)> {
        let mut pairs = BTreeSet::new();
        for band in self.buckets(bands, rows) {
            for docs in band.values() {
                for (i, &a) in docs.iter().enumerate() {
                    for &b in &docs[i + 1..] {
                        pairs.insert((a, b));
                    }
                }
            }
        }
        pairs
    }
}

/// One pair of documents (a < b) with its exact Jaccard, as verification computes it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ExactPair {
    /// Position of the first document in [`Walkthrough::docs`].
    pub a: usize,
    /// Position of the second document, greater than `a`.
    pub b: usize,
    /// Shingles the two documents share.
    pub intersection: usize,
    /// Distinct shingles of the two together.
    pub union: usize,
    /// intersection / union, in [0, 1] (0 when both have no shingles).
    pub jaccard: f64,
}

/// What verification does with the candidates of one banding at threshold t: every candidate's
/// exact Jaccard decides whether it is kept (≥ t) or dropped (a false positive); the pairs at
/// or above t that never became candidates (false negatives) are listed apart, because
/// verification never sees them.
#[derive(Debug, Clone, PartialEq)]
pub struct Verification {
    /// t: candidates at or above it are kept, below it dropped.
    pub threshold: f64,
    /// Candidates at or above t, by (a, b).
    pub kept: Vec<ExactPair>,
    /// Candidates below t (false positives), by (a, b).
    pub dropped: Vec<ExactPair>,
    /// Pairs at or above t that are not candidates (false negatives), by (a, b).
    pub missed: Vec<ExactPair>,
    /// Every pair of the documents: what comparing all of them would cost.
    pub all_pairs: usize,
}

impl Verification {
    /// Exact comparisons verification makes: one per candidate.
    pub fn comparisons(&self) -> usize {
        self.kept.len() + self.dropped.len()
    }
}

impl Walkthrough {
    /// The exact Jaccard of documents `a` and `b` (a < b).
    pub fn exact_pair(&self, a: usize, b: usize) -> ExactPair {
        let (intersection, union, jaccard) = jaccard(&self.shingles[a], &self.shingles[b]);
        ExactPair {
            a,
            b,
            intersection,
            union,
            jaccard,
        }
    }

    /// Verifies the candidates of `bands` × `rows` at `threshold` (see [`Verification`]).
    pub fn verify(&self, bands: usize, rows: usize, threshold: f64) -> Verification {
        let candidates = self.candidates(bands, rows);
        let n = self.docs.len();
        let mut v = Verification {
            threshold,
            kept: Vec::new(),
            dropped: Vec::new(),
            missed: Vec::new(),
            all_pairs: n * n.saturating_sub(1) / 2,
        };
        for a in 0..n {
            for b in a + 1..n {
                let pair = self.exact_pair(a, b);
                let similar = pair.jaccard >= threshold;
                match (candidates.contains(&(a, b)), similar) {
                    (true, true) => v.kept.push(pair),
                    (true, false) => v.dropped.push(pair),
                    (false, true) => v.missed.push(pair),
                    (false, false) => {}
                }
            }
        }
        v
    }

    /// Verification as CSV: `a,b,intersection,union,jaccard,verdict`, one row per candidate
    /// (`kept` or `dropped`) and per false negative (`missed`).
    pub fn verification_csv(&self, bands: usize, rows: usize, threshold: f64) -> String {
        let v = self.verify(bands, rows, threshold);
        let mut out = String::from("a,b,intersection,union,jaccard,verdict\n");
        for (pairs, verdict) in [
            (&v.kept, "kept"),
            (&v.dropped, "dropped"),
            (&v.missed, "missed"),
        ] {
            for p in pairs {
                out.push_str(&format!(
                    "{},{},{},{},{:.6},{verdict}\n",
                    csv_field(&self.docs[p.a].id),
                    csv_field(&self.docs[p.b].id),
                    p.intersection,
                    p.union,
                    p.jaccard
                ));
            }
        }
        out
    }
}

impl Walkthrough {
    /// The rows of the characteristic matrix in the order permutation `k` puts them.
    pub fn permuted_rows(&self, k: usize) -> Vec<usize> {
        let mut rows: Vec<usize> = (0..self.universe.len()).collect();
        rows.sort_by_key(|&row| self.permutations[k][row]);
        rows
    }

    /// The characteristic matrix as CSV: `shingle,<doc ids…>` then one 0/1 row per shingle.
    pub fn characteristic_csv(&self) -> String {
        let mut out = self.csv_header("shingle");
        for (row, shingle) in self.universe.iter().enumerate() {
            out.push_str(&csv_field(shingle));
            for &x in &self.matrix[row] {
                out.push_str(if x { ",1" } else { ",0" });
            }
            out.push('\n');
        }
        out
    }

    /// A signature matrix as CSV: `row,<doc ids…>` then one row per permutation or hash.
    pub fn signature_csv(&self, from_hashes: bool) -> String {
        let mut out = self.csv_header(if from_hashes { "hash" } else { "permutation" });
        for k in 0..self.permutations.len() {
            out.push_str(&(k + 1).to_string());
            for d in 0..self.docs.len() {
                let v = if from_hashes {
                    self.hash_signatures[k][d] as u64
                } else {
                    self.perm_signatures[k][d] as u64
                };
                out.push_str(&format!(",{v}"));
            }
            out.push('\n');
        }
        out
    }

    /// One-permutation hashing as CSV: `id,bin,row,from_bin`, one line per document and bin
    /// (bins 1-based; `from_bin` is the bin itself when a shingle reached it, else the
    /// occupied bin densification copied from).
    pub fn one_permutation_csv(&self) -> String {
        let mut out = String::from("id,bin,row,from_bin\n");
        for (doc, oph) in self.docs.iter().zip(&self.one_permutation) {
            for (bin, row) in oph.rows.iter().enumerate() {
                let from = oph.donor(bin).unwrap_or(bin);
                out.push_str(&format!(
                    "{},{},{row},{}\n",
                    csv_field(&doc.id),
                    bin + 1,
                    from + 1
                ));
            }
        }
        out
    }

    /// The documents' shingles as CSV: `id,normalized,shingles` (shingles joined by ` | `).
    pub fn shingles_csv(&self) -> String {
        let mut out = String::from("id,normalized,shingles\n");
        for (d, doc) in self.docs.iter().enumerate() {
            out.push_str(&format!(
                "{},{},{}\n",
                csv_field(&doc.id),
                csv_field(&doc.normalized),
                csv_field(&self.shingles[d].join(" | "))
            ));
        }
        out
    }

    /// The buckets of every band as CSV: `band,bucket,documents` (ids joined by spaces).
    pub fn buckets_csv(&self, bands: usize, rows: usize) -> String {
        let mut out = String::from("band,values,documents\n");
        for (band, buckets) in self.buckets(bands, rows).iter().enumerate() {
            for (values, docs) in buckets {
                let values: Vec<String> = values.iter().map(u32::to_string).collect();
                let ids: Vec<&str> = docs.iter().map(|&d| self.docs[d].id.as_str()).collect();
                out.push_str(&format!(
                    "{},{},{}\n",
                    band + 1,
                    values.join(" "),
                    csv_field(&ids.join(" "))
                ));
            }
        }
        out
    }

    fn csv_header(&self, first: &str) -> String {
        let mut out = first.to_string();
        for doc in &self.docs {
            out.push(',');
            out.push_str(&csv_field(&doc.id));
        }
        out.push('\n');
        out
    }
}

/// A CSV field, quoted when it holds a comma, quote or line break.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn agreement(it: impl Iterator<Item = bool>) -> f64 {
    let (mut same, mut total) = (0usize, 0usize);
    for eq in it {
        total += 1;
        same += eq as usize;
    }
    if total == 0 {
        0.0
    } else {
        same as f64 / total as f64
    }
}

/// The intermediate numbers of the S-curve at similarity `s`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SCurveSteps {
    /// sʳ: the probability that one band's r rows all agree.
    pub s_pow_r: f64,
    /// 1 − sʳ: the probability that one band misses.
    pub band_miss: f64,
    /// (1 − sʳ)ᵇ: the probability that every band misses.
    pub all_bands_miss: f64,
    /// 1 − (1 − sʳ)ᵇ: the probability that the pair becomes a candidate, P(s).
    pub candidate: f64,
}

/// The S-curve at similarity `s` ∈ [0, 1] for `bands` bands of `rows` rows, step by step.
pub fn scurve_steps(s: f64, bands: usize, rows: usize) -> SCurveSteps {
    let s_pow_r = s.powi(rows as i32);
    let band_miss = 1.0 - s_pow_r;
    let all_bands_miss = band_miss.powi(bands as i32);
    SCurveSteps {
        s_pow_r,
        band_miss,
        all_bands_miss,
        candidate: scurve::candidate_probability(s, bands, rows),
    }
}
