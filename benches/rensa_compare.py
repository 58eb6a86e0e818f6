#!/usr/bin/env python3
"""lshscope `scan` against rensa on one corpus, one core, in one run (docs/performance.md).

lshscope runs as a user runs it: read the CSV, char 5-shingles, K = 128 classic MinHash, LSH
at 32 bands x 4 rows, exact Jaccard of every candidate, pairs written sorted (to /dev/null).
rensa (https://github.com/beowolx/rensa) is given the same shingles, already made, and only
its own work is timed: hash (`RMinHash.from_token_sets`), index (`RMinHashLSH.insert_many`)
and query (`query_all`), no verification. Reading the file and shingling it in Python are
timed apart and left out of rensa's figure, which favours rensa.

The two alternate (lshscope, rensa, lshscope, ...) so a drift in the machine's load hits
both; each one's CPU seconds (user + system) are the figure, medians over the rounds.

Each round uses its own seed, the same for both tools (`--seeds`, default 1 to 5). On short
texts with common words the candidate count of one seed is far from the S-curve's expectation
(a band whose rows all rank a common phrase's shingles first makes a bucket of thousands), and
both tools' times follow their candidate counts: on 63,441 Debian package descriptions at
32 x 4, lshscope's seeds 1 to 10 gave 1.04 M to 4.01 M candidates, the default seed 1 the
most. One seed would compare two draws, not two tools; each round prints both counts.

`--thresholds 0,0.8` runs scan at each threshold in every round (rensa once: its work does not
depend on one). At t = 0 scan writes every candidate with its exact Jaccard; at t > 0 it still
decides every candidate exactly (a merge stops once the pair can no longer reach t, and a kept
pair carries its exact value), which is what a dedup at that threshold needs; rensa decides
nothing either way.

`--family c-minhash` compares the C-MinHash sketches instead: lshscope runs `scan --family
c-minhash`, rensa `CMinHash.from_token_sets` in place of `RMinHash.from_token_sets`. rensa has
no LSH index for C-MinHash (`RMinHashLSH` refuses a `CMinHash`; `CMinHashDeduplicator`
compares a sketch with every stored one, no banding), so each `CMinHash`'s 32-bit digest
(`digest()`, the top half of each 64-bit value) is put into an `RMinHash` through its pickle
state, and the same `RMinHashLSH` bands it: rensa's own banding, as in the classic run. That
repacking is Python glue rensa would not need with an index of its own; it is timed apart and
left out of rensa's figure, like the shingling. What differs between the two C-MinHash runs:

- the permutations: both take row k as the minimum of pi(sigma(x) shifted by k), but lshscope's
  pi is affine on 32 bits (c*y + d, c odd, redrawn until the K shifts are spread), so a row
  costs one addition per shingle; rensa 0.5.0's pi and sigma are keyed SplitMix64 finalizers
  on 64 bits (its `src/cminhash.rs`, state version 2), a multiply-xorshift mix per row and
  shingle, closer to the paper's random permutations (rensa 0.4.0's pi was affine like
  lshscope's; in the 0.5.0 wheel a one-token sketch's consecutive values no longer differ by
  one constant, as an affine pi would make them), and about three times its RMinHash's cost;
- the shingle hash: lshscope's own 64-bit hash of each shingle, rensa's hash of the shingle
  string, so the two draw different (equally random) sketches and candidate counts;
- the rest as in the classic run: lshscope verifies every candidate exactly, rensa does not.

    python3 -m venv /tmp/rensa-venv && /tmp/rensa-venv/bin/pip install rensa
    lshscope gen --kind jobs -n 60000 -o /tmp/jobs60k.csv
    RAYON_NUM_THREADS=1 /tmp/rensa-venv/bin/python benches/rensa_compare.py \\
        /tmp/jobs60k.csv --lshscope target/release/lshscope --seeds 1,2,3,4,5 \\
        [--thresholds 0,0.8] [--family c-minhash]
"""

import argparse
import csv
import os
import re
import resource
import statistics
import subprocess
import sys
import time

BANDS, ROWS, NUM_PERM, SHINGLE = 32, 4, 128, 5


def shingles(text):
    """lshscope's default shingles: lowercase, whitespace runs made one space, char 5-grams
    (a text shorter than 5 characters is one shingle, an empty one none)."""
    t = " ".join(text.lower().split())
    if len(t) <= SHINGLE:
        return [t] if t else []
    return list({t[i : i + SHINGLE] for i in range(len(t) - SHINGLE + 1)})


def read_texts(path):
    csv.field_size_limit(sys.maxsize)
    with open(path, newline="", encoding="utf-8") as f:
        rows = csv.reader(f)
        header = next(rows)
        column = header.index("text")
        return [row[column] for row in rows]


def cpu_self():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def cpu_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_lshscope(binary, corpus, seed, family, threshold):
    env = dict(os.environ, RAYON_NUM_THREADS="1")
    # The classic family is scan's default: its command line stays the one measured before.
    family_args = [] if family == "classic" else ["--family", family]
    before, wall = cpu_children(), time.perf_counter()
    done = subprocess.run(
        [binary, "scan", corpus, "-b", str(BANDS), "-r", str(ROWS), "-t", threshold,
         "--seed", str(seed), *family_args, "-o", "/dev/null"],
        env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    cpu, wall = cpu_children() - before, time.perf_counter() - wall
    found = re.search(r"^([\d,]+) candidate pairs", done.stderr, re.MULTILINE)
    if found is None:
        sys.exit(f"no candidate count in lshscope's summary:\n{done.stderr}")
    return cpu, wall, int(found.group(1).replace(",", ""))


def varint(n):
    """postcard's unsigned integer: LEB128, seven bits a byte, low bits first."""
    out = bytearray()
    while n >= 0x80:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def as_rminhashes(rensa, sketches, seed):
    """`RMinHash` objects holding each sketch's 32-bit digest, for `RMinHashLSH`, which takes
    nothing else. The state is rensa 0.5.0's pickle of an `RMinHash` (its `__getstate__`): a
    prefix, then postcard's version, num_perm, seed and digest; the prefix and version are
    read from a real `RMinHash`, so a rensa that changes them fails here, not silently."""
    probe = rensa.RMinHash(1, seed)
    state = probe.__getstate__()
    tail = varint(1) + varint(seed) + varint(1) + varint(probe.digest()[0])
    if not state.endswith(tail):
        sys.exit("rensa's RMinHash state is not the layout this script expects")
    prefix = state[: -len(tail)] + varint(NUM_PERM) + varint(seed) + varint(NUM_PERM)
    wrapped = []
    for sketch in sketches:
        digest = sketch.digest()
        r = rensa.RMinHash(NUM_PERM, seed)
        r.__setstate__(prefix + b"".join(varint(v) for v in digest))
        if r.digest() != digest:
            sys.exit("an RMinHash rebuilt from a C-MinHash digest does not hold it")
        wrapped.append(r)
    return wrapped


def run_rensa(rensa, token_sets, seed, family):
    times = {}
    start = cpu_self()
    if family == "classic":
        hashes = rensa.RMinHash.from_token_sets(token_sets, NUM_PERM, seed)
        times["hash"] = cpu_self() - start
    else:
        sketches = rensa.CMinHash.from_token_sets(token_sets, NUM_PERM, seed)
        times["hash"] = cpu_self() - start
        start = cpu_self()
        hashes = as_rminhashes(rensa, sketches, seed)
        times["repack"] = cpu_self() - start
        del sketches
    start = cpu_self()
    lsh = rensa.RMinHashLSH(0.5, NUM_PERM, BANDS)
    lsh.insert_many(hashes)
    times["index"] = cpu_self() - start
    start = cpu_self()
    found = lsh.query_all(hashes)
    times["query"] = cpu_self() - start
    # Distinct pairs the queries returned (each document finds itself too).
    pairs = sum(len(keys) - (d in keys) for d, keys in enumerate(found)) // 2
    return times, pairs


def rensa_work(times):
    """rensa's own CPU seconds: hashing, indexing and querying, not the repacking glue."""
    return times["hash"] + times["index"] + times["query"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("corpus", help="a CSV with a `text` column (`lshscope gen` writes one)")
    parser.add_argument("--lshscope", default="target/release/lshscope")
    parser.add_argument("--seeds", default="1,2,3,4,5",
                        help="one round per seed, the same seed for both tools")
    parser.add_argument("--thresholds", default="0",
                        help="lshscope's -t, comma separated: each seed runs scan once per "
                             "threshold (rensa's work does not depend on it)")
    parser.add_argument("--family", choices=["classic", "c-minhash"], default="classic",
                        help="the sketch both tools compute (see above for C-MinHash)")
    args = parser.parse_args()
    if os.environ.get("RAYON_NUM_THREADS") != "1":
        sys.exit("run with RAYON_NUM_THREADS=1: both tools must use one core")
    import rensa

    start = cpu_self()
    texts = read_texts(args.corpus)
    read_s = cpu_self() - start
    start = cpu_self()
    token_sets = [shingles(t) for t in texts]
    shingle_s = cpu_self() - start
    print(f"{len(texts):,} documents; rensa's input in Python: reading {read_s:.2f} s, "
          f"shingling {shingle_s:.2f} s of CPU (not counted below)")
    thresholds = args.thresholds.split(",")
    ours = {t: [] for t in thresholds}
    theirs, our_pairs, their_pairs = [], [], []
    for seed in [int(s) for s in args.seeds.split(",")]:
        runs = []
        for t in thresholds:
            cpu, wall, found = run_lshscope(args.lshscope, args.corpus, seed, args.family, t)
            ours[t].append(cpu)
            runs.append(f"-t {t} {cpu:.2f} s CPU ({wall:.2f} s wall)")
        our_pairs.append(found)
        times, pairs = run_rensa(rensa, token_sets, seed, args.family)
        theirs.append(rensa_work(times))
        their_pairs.append(pairs)
        repack = (f" (repacking into RMinHash {times['repack']:.2f} s, not counted)"
                  if "repack" in times else "")
        print(f"seed {seed}: lshscope scan {', '.join(runs)}, {found:,} candidates verified; "
              f"rensa hash {times['hash']:.2f} + index {times['index']:.2f} + query "
              f"{times['query']:.2f} = {theirs[-1]:.2f} s CPU ({pairs:,} candidates){repack}; "
              f"load {os.getloadavg()[0]:.1f}")
    theirs_m = statistics.median(theirs)
    print(f"medians: rensa {theirs_m:.2f} s (hash, index, query; "
          f"{statistics.median(their_pairs):,.0f} candidates, none verified); lshscope "
          f"{statistics.median(our_pairs):,.0f} candidates, every one verified exactly")
    for t in thresholds:
        ours_m = statistics.median(ours[t])
        print(f"lshscope -t {t}: {ours_m:.2f} s (read, shingle, hash, band, verify, write); "
              f"lead {theirs_m / ours_m:.2f}x (with rensa's reading and shingling counted: "
              f"{(theirs_m + read_s + shingle_s) / ours_m:.2f}x)")

if __name__ == "__main__":
    main()
