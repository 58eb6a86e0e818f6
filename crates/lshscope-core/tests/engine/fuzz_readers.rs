//! The fuzz targets of `fuzz/targets.rs`, run by `cargo test` for a short, bounded time with a
//! seeded mutation loop (the stable-toolchain harness; `cargo +nightly fuzz run TARGET` runs
//! the same targets coverage-guided for as long as you like). A failure prints the seed and
//! the iteration, so it can be replayed.

#[path = "../../../../fuzz/targets.rs"]
mod targets;

use std::time::{Duration, Instant};

use lshscope_core::util::rng::SplitMix64;

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

/// A draw in [0, n) from the shared generator, by modulo (the mapping the fuzz cases were
/// found with, so the mutation sequence of each seed stays the same).
fn below(rng: &mut SplitMix64, n: usize) -> usize {
    (rng.next_u64() % n.max(1) as u64) as usize
}

fn mutate(rng: &mut SplitMix64, input: &mut Vec<u8>) {
    for _ in 0..=below(rng, 4) {
        match below(rng, 5) {
            0 if !input.is_empty() => {
                let i = below(rng, input.len());
                input[i] ^= 1 << below(rng, 8);
            }
            1 => {
                let at = below(rng, input.len() + 1);
                let token = TOKENS[below(rng, TOKENS.len())];
                input.splice(at..at, token.iter().copied());
            }
            2 if !input.is_empty() => {
                let start = below(rng, input.len());
                let end = (start + below(rng, 16)).min(input.len());
                input.drain(start..end);
            }
            3 => {
                let at = below(rng, input.len() + 1);
                let byte = rng.next_u64() as u8;
                input.insert(at, byte);
            }
            _ if input.len() > 1 => {
                // Duplicate a slice: repeated structure (many rows) from few seeds.
                let start = below(rng, input.len());
                let end = (start + below(rng, 64)).min(input.len());
                let copy = input[start..end].to_vec();
                let at = below(rng, input.len() + 1);
                input.splice(at..at, copy);
            }
            _ => input.push(rng.next_u64() as u8),
        }
    }
    input.truncate(16 * 1024);
}

fn run(name: &str, target: fn(&[u8]), seed: u64) {
    let mut rng = SplitMix64::new(seed);
    let mut pool: Vec<Vec<u8>> = SEEDS.iter().map(|s| s.to_vec()).collect();
    if name.starts_with("parquet") {
        // A real pyarrow file, so mutations reach the page decoders and not only the magic.
        let fixture = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/data/notes.parquet"
        );
        pool.push(std::fs::read(fixture).expect("read the Parquet fixture"));
    }
    let start = Instant::now();
    let mut done = 0u64;
    while done < ITERATIONS && start.elapsed() < TIME_CAP {
        let mut input = pool[below(&mut rng, pool.len())].clone();
        mutate(&mut rng, &mut input);
        let outcome = std::panic::catch_unwind(|| target(&input));
        if outcome.is_err() {
            panic!("fuzz target {name} panicked at iteration {done} (seed {seed}) on {input:?}");
        }
        // Keep a few mutants as new parents, so structure accumulates.
        if below(&mut rng, 16) == 0 && pool.len() < 256 {
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
