//! The fuzz targets of `fuzz/targets.rs`, run by `cargo test` for a short, bounded time with a
//! seeded mutation loop (the stable-toolchain harness; `cargo +nightly fuzz run TARGET` runs
//! the same targets coverage-guided for as long as you like). A failure prints the seed and
//! the iteration, so it can be replayed.

#[path = "../fuzz/targets.rs"]
mod targets;

use std::time::{Duration, Instant};

/// Per target: at most this many inputs, and at most this long.
const ITERATIONS: u64 = 20_000;
const TIME_CAP: Duration = Duration::from_secs(3);

/// Bytes that matter to the readers: delimiters, quotes, line endings, JSON punctuation,
/// escapes, NUL, a byte-order mark, multi-byte and invalid UTF-8, and compression magics.
const TOKENS: &[&[u8]] = &[
    b"\"",
    b",",
    b"\t",
    b"\n",
    b"\r\n",
    b"\r",
    b"{",
    b"}",
    b"[",
    b"]",
    b":",
    b"\\",
    b"\\u00e9",
    b"\0",
    b"\xEF\xBB\xBF",
    "é".as_bytes(),
    "日本".as_bytes(),
    b"\xFF",
    b"\xC3",
    b"\x1f\x8b",
    b"\x28\xb5\x2f\xfd",
    b"BZh",
    b"\xFD7zXZ\0",
    b"PAR1",
    b"PK\x03\x04",
    b"\"\"",
    b"null",
    b"\"text\"",
    b"\"id\"",
    b"id,text\n",
    b"id\ttext\n",
    b"  ",
    b"...",
];

const SEEDS: &[&[u8]] = &[
    b"",
    b"id,text\n1,\"hello, world\"\n2,\"two\nlines\"\n3,plain\n",
    b"id\ttext\n1\t\"quoted at the start\n2\tends with a quote\"\n",
    b"{\"id\": 1, \"text\": \"a \\\"b\\\" c\"}\n\n{\"text\": null}\n",
    b"first line\r\nsecond line\nthird",
    b"\xEF\xBB\xBFid,text\n\"unterminated,oops\n4,x\n",
];

/// SplitMix64 (Steele et al. 2014): small, seedable, enough for choosing mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn mutate(rng: &mut Rng, input: &mut Vec<u8>) {
    for _ in 0..=rng.below(4) {
        match rng.below(5) {
            0 if !input.is_empty() => {
                let i = rng.below(input.len());
                input[i] ^= 1 << rng.below(8);
            }
            1 => {
                let at = rng.below(input.len() + 1);
                let token = TOKENS[rng.below(TOKENS.len())];
                input.splice(at..at, token.iter().copied());
            }
            2 if !input.is_empty() => {
                let start = rng.below(input.len());
                let end = (start + rng.below(16)).min(input.len());
                input.drain(start..end);
            }
            3 => {
                let at = rng.below(input.len() + 1);
                let byte = rng.next() as u8;
                input.insert(at, byte);
            }
            _ if input.len() > 1 => {
                // Duplicate a slice: repeated structure (many rows) from few seeds.
                let start = rng.below(input.len());
                let end = (start + rng.below(64)).min(input.len());
                let copy = input[start..end].to_vec();
                let at = rng.below(input.len() + 1);
                input.splice(at..at, copy);
            }
            _ => input.push(rng.next() as u8),
        }
    }
    input.truncate(16 * 1024);
}

fn run(name: &str, target: fn(&[u8]), seed: u64) {
    let mut rng = Rng(seed);
    let mut pool: Vec<Vec<u8>> = SEEDS.iter().map(|s| s.to_vec()).collect();
    if name.starts_with("parquet") {
        // A real pyarrow file, so mutations reach the page decoders and not only the magic.
        let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/notes.parquet");
        pool.push(std::fs::read(fixture).expect("read the Parquet fixture"));
    }
    let start = Instant::now();
    let mut done = 0u64;
    while done < ITERATIONS && start.elapsed() < TIME_CAP {
        let mut input = pool[rng.below(pool.len())].clone();
        mutate(&mut rng, &mut input);
        let outcome = std::panic::catch_unwind(|| target(&input));
        if outcome.is_err() {
            panic!("fuzz target {name} panicked at iteration {done} (seed {seed}) on {input:?}");
        }
        // Keep a few mutants as new parents, so structure accumulates.
        if rng.below(16) == 0 && pool.len() < 256 {
            pool.push(input);
        }
        done += 1;
    }
    assert!(done > 0, "{name} ran no input");
}

macro_rules! fuzz_tests {
    ($($target:ident),* $(,)?) => {
        $(
            #[test]
            fn $target() {
                run(stringify!($target), targets::$target, 0x5eed ^ stringify!($target).len() as u64);
            }
        )*
    };
}

fuzz_tests!(
    text_bytes,
    delimited_bytes,
    jsonl_bytes,
    csv_roundtrip,
    tsv_roundtrip,
    jsonl_roundtrip,
    compressed,
    directory,
    shingler,
    parquet_bytes,
    parquet_pairs_roundtrip,
);
