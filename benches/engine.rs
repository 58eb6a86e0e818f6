//! Micro-benchmarks of the engine's hot paths on a generated corpus of ~400-character
//! documents (the reference size). Run with `cargo bench --bench engine`.
//! Whole-pipeline numbers at 100k and 1M documents come from `lshscope bench` (README).

use std::sync::OnceLock;

use divan::{Bencher, black_box, counter::BytesCount, counter::ItemsCount};
use lshscope_core::corpus::Corpus;
use lshscope_core::jobs::Progress;
use lshscope_core::minhash::similarity::jaccard;
use lshscope_core::minhash::verify;
use lshscope_core::minhash::{
    Banding, BandingOptions, HashFamily, Index, IndexOptions, SketchFamily, SketchScratch,
    Sketcher, build_index, find_candidates, fold32, signatures_of_texts,
};
use lshscope_core::synthetic::templated::{TemplateOptions, generate_templated};
use lshscope_core::synthetic::words::{GenOptions, generate};
use lshscope_core::text::{SetBuilder, ShingleOptions, Shingler};

fn main() {
    divan::main();
}

const DOCS: usize = 20_000;

fn corpus() -> &'static Corpus {
    static CORPUS: OnceLock<Corpus> = OnceLock::new();
    CORPUS.get_or_init(|| {
        generate(&GenOptions {
            documents: DOCS,
            length: 400,
            levels: vec![0.5, 0.7, 0.9],
            pairs_per_level: 500,
            seed: 1,
            shingle: ShingleOptions::default(),
        })
        .0
    })
}

/// A template-heavy corpus (`gen --templates`): families of near-copies, identical copies,
/// short and long texts, quotes and non-ASCII characters (which take the general shingling
/// path), as real dumps are.
fn template_corpus() -> &'static Corpus {
    static CORPUS: OnceLock<Corpus> = OnceLock::new();
    CORPUS.get_or_init(|| {
        generate_templated(&TemplateOptions {
            docs: DOCS,
            ..TemplateOptions::default()
        })
        .corpus
    })
}

fn index() -> &'static Index {
    static INDEX: OnceLock<Index> = OnceLock::new();
    INDEX.get_or_init(|| build_index(corpus(), &IndexOptions::default(), &Progress::new()).unwrap())
}

/// Normalize + hash every char 5-shingle (no MinHash, no sorting).
#[divan::bench]
fn shingle_hashes(bencher: Bencher) {
    hash_all_shingles(bencher, corpus());
}

/// The same on the template-heavy corpus.
#[divan::bench]
fn shingle_hashes_templates(bencher: Bencher) {
    hash_all_shingles(bencher, template_corpus());
}

fn hash_all_shingles(bencher: Bencher, corpus: &Corpus) {
    bencher
        .counter(BytesCount::new(corpus.text_bytes()))
        .bench_local(|| {
            let mut shingler = Shingler::new(ShingleOptions::default());
            let mut out = Vec::with_capacity(1024);
            let mut total = 0;
            for i in 0..corpus.len() {
                out.clear();
                shingler.hashes(corpus.text(i), &mut out);
                total += out.len();
            }
            total
        });
}

/// MinHash K = 128 over pre-hashed shingles (the vectorized kernel alone).
#[divan::bench]
fn minhash_kernel(bencher: Bencher) {
    let corpus = corpus();
    let mut shingler = Shingler::new(ShingleOptions::default());
    let docs: Vec<Vec<u32>> = (0..2000)
        .map(|i| {
            let mut h = Vec::new();
            shingler.hashes(corpus.text(i), &mut h);
            h.into_iter().map(fold32).collect()
        })
        .collect();
    let shingles: usize = docs.iter().map(Vec::len).sum();
    let family = HashFamily::new(128, 1);
    bencher.counter(ItemsCount::new(shingles)).bench_local(|| {
        let mut sig = vec![u32::MAX; 128];
        for d in &docs {
            sig.fill(u32::MAX);
            family.update(&mut sig, d);
            black_box(&sig);
        }
    });
}

/// Whole signature build (normalize, shingle, hash, MinHash, sort sets), one thread.
#[divan::bench(sample_count = 5)]
fn build_index_one_thread(bencher: Bencher) {
    build_on_one_thread(bencher, corpus());
}

/// The same on the template-heavy corpus.
#[divan::bench(sample_count = 5)]
fn build_index_one_thread_templates(bencher: Bencher) {
    build_on_one_thread(bencher, template_corpus());
}

fn build_on_one_thread(bencher: Bencher, corpus: &Corpus) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    bencher
        .counter(BytesCount::new(corpus.text_bytes()))
        .bench_local(|| {
            pool.install(|| {
                build_index(corpus, &IndexOptions::default(), &Progress::new()).unwrap()
            })
        });
}

/// The sketch families side by side (issue 29), K = 128, one thread, on the ~400-character
/// documents: `cargo bench --bench engine -- families`. Times per document are the medians
/// divided by the documents (the items counter).
mod families {
    use super::*;

    const SKETCHED_DOCS: usize = 2000;

    /// The sketch step alone: K rows from each document's sorted shingle-hash set.
    #[divan::bench(args = SketchFamily::ALL)]
    fn sketch_from_sets(bencher: Bencher, family: SketchFamily) {
        let index = index();
        let sketcher = Sketcher::new(family, 128, 1);
        bencher
            .counter(ItemsCount::new(SKETCHED_DOCS))
            .bench_local(|| {
                let mut row = vec![0u32; 128];
                let mut scratch = SketchScratch::default();
                for d in 0..SKETCHED_DOCS {
                    sketcher.sketch_into(index.sets.get(d), &mut row, &mut scratch);
                    black_box(&row);
                }
            });
    }

    /// The part of the phase every family shares: normalize, shingle, hash, sort and
    /// de-duplicate each document's set, one thread, on the ~400-character documents and on
    /// the template-heavy corpus (most of its texts hold a non-ASCII character). The sets go
    /// into one reused buffer, so this leaves out the page faults a build pays for fresh memory.
    #[divan::bench(args = ["gen", "templates"])]
    fn shared_set_step(bencher: Bencher, which: &str) {
        let corpus = if which == "gen" {
            corpus()
        } else {
            template_corpus()
        };
        let mut sets: Vec<u64> = Vec::with_capacity(corpus.text_bytes() + 64);
        bencher
            .counter(ItemsCount::new(corpus.len()))
            .bench_local(|| {
                let mut builder = SetBuilder::new(ShingleOptions::default());
                sets.clear();
                for d in 0..corpus.len() {
                    builder.set_onto(corpus.text(d), &mut sets);
                }
                black_box(sets.len())
            });
    }

    /// The whole signature phase (normalize, shingle, hash, sort the sets, sketch), one
    /// thread: what `build_index` does, with each family's rows.
    #[divan::bench(args = SketchFamily::ALL, sample_count = 5)]
    fn signature_phase_one_thread(bencher: Bencher, family: SketchFamily) {
        let corpus = corpus();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        bencher
            .counter(ItemsCount::new(corpus.len()))
            .bench_local(|| {
                pool.install(|| {
                    let options = IndexOptions {
                        family,
                        ..IndexOptions::default()
                    };
                    build_index(corpus, &options, &Progress::new()).unwrap()
                })
            });
    }

    /// The signatures alone, straight from each text's shingle hashes with no set built
    /// (`signatures_of_texts`), one thread: the same rows as the phase above.
    #[divan::bench(args = SketchFamily::ALL, sample_count = 5)]
    fn signatures_from_stream_one_thread(bencher: Bencher, family: SketchFamily) {
        let corpus = corpus();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let options = IndexOptions {
            family,
            ..IndexOptions::default()
        };
        bencher
            .counter(ItemsCount::new(corpus.len()))
            .bench_local(|| {
                pool.install(|| signatures_of_texts(corpus, &options, &Progress::new()).unwrap())
            });
    }
}

/// Banding 32 × 4 with candidate emission, all threads.
#[divan::bench(sample_count = 10)]
fn banding_32x4(bencher: Bencher) {
    let index = index();
    let opts = BandingOptions {
        banding: Banding::new(32, 4, 128).unwrap(),
        max_bucket: None,
    };
    bencher
        .counter(ItemsCount::new(DOCS))
        .bench_local(|| find_candidates(&index.signatures, &opts, &Progress::new()).unwrap());
}

/// Verification (exact Jaccard + estimate) of candidate pairs sorted by (a, b), one thread.
#[divan::bench(sample_count = 10)]
fn verify_pairs_one_thread(bencher: Bencher) {
    let index = index();
    let opts = BandingOptions {
        banding: Banding::new(20, 5, 128).unwrap(),
        max_bucket: None,
    };
    let pairs = find_candidates(&index.signatures, &opts, &Progress::new())
        .unwrap()
        .pairs;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    bencher
        .counter(ItemsCount::new(pairs.len()))
        .bench_local(|| pool.install(|| verify(index, &pairs, 0.0, &Progress::new()).unwrap()));
}

/// Exact Jaccard of two ~400-shingle sets already in cache (compute cost alone).
#[divan::bench]
fn exact_jaccard_in_cache(bencher: Bencher) {
    let index = index();
    let pairs: Vec<(usize, usize)> = (0..64)
        .flat_map(|a| (a + 1..64).map(move |b| (a, b)))
        .collect();
    bencher
        .counter(ItemsCount::new(pairs.len()))
        .bench_local(|| {
            pairs
                .iter()
                .map(|&(a, b)| jaccard(index.sets.get(a), index.sets.get(b)))
                .sum::<f64>()
        });
}

/// Pairs for the writing benchmarks: random documents, estimates k/128, and Jaccard values
/// either from 1000 values (`few_values`) or ratios i/u of set sizes as real scans give them
/// (hundreds of thousands of distinct values, so most are formatted, not found in a cache).
fn pairs_to_write(few_values: bool) -> Vec<lshscope_core::minhash::VerifiedPair> {
    let mut rng = lshscope_core::util::rng::SplitMix64::new(3);
    (0..1_000_000)
        .map(|_| {
            let a = (rng.next_u64() % DOCS as u64) as u32;
            let b = (rng.next_u64() % DOCS as u64) as u32;
            let agree = rng.next_u64() % 129;
            let jaccard = if few_values {
                (rng.next_u64() % 1000) as f64 / 997.0
            } else {
                let union = 300 + rng.below(500);
                rng.below(union + 1) as f64 / union as f64
            };
            lshscope_core::minhash::VerifiedPair {
                a: a.min(b),
                b: a.max(b),
                bands_hit: (rng.next_u64() % 20) as u32,
                jaccard,
                estimate: agree as f64 / 128.0,
            }
        })
        .collect()
}

/// Pairs written as CSV (ids from the corpus, shortest round-trip floats) into memory, on
/// `threads` threads: the formatting cost of `scan -o pairs.csv` without the disk.
fn write_csv(bencher: Bencher, few_values: bool, threads: usize) {
    let corpus = corpus();
    let pairs = pairs_to_write(few_values);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let mut out = Vec::with_capacity(64 << 20);
    bencher
        .counter(ItemsCount::new(pairs.len()))
        .bench_local(|| {
            out.clear();
            pool.install(|| {
                lshscope_core::pairs::write_pairs(
                    &mut out,
                    corpus,
                    pairs.iter(),
                    lshscope_core::pairs::OutputFormat::Csv,
                    None,
                    None,
                )
            })
            .unwrap();
            black_box(out.len())
        });
}

/// One thread, Jaccard values from a set of 1000 (mostly cached).
#[divan::bench(sample_count = 10)]
fn write_pairs_csv(bencher: Bencher) {
    write_csv(bencher, true, 1);
}

/// One thread, Jaccard values i/u as real scans give them (mostly formatted anew).
#[divan::bench(sample_count = 10)]
fn write_pairs_csv_ratios(bencher: Bencher) {
    write_csv(bencher, false, 1);
}

/// Both cores (chunks formatted in parallel, written in order), ratios as above.
#[divan::bench(sample_count = 10)]
fn write_pairs_csv_ratios_2_threads(bencher: Bencher) {
    write_csv(bencher, false, 2);
}
