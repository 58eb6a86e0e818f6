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

    python3 -m venv /tmp/rensa-venv && /tmp/rensa-venv/bin/pip install rensa
    lshscope gen --kind jobs -n 60000 -o /tmp/jobs60k.csv
    RAYON_NUM_THREADS=1 /tmp/rensa-venv/bin/python benches/rensa_compare.py \\
        /tmp/jobs60k.csv --lshscope target/release/lshscope --seeds 1,2,3,4,5
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


def run_lshscope(binary, corpus, seed):
    env = dict(os.environ, RAYON_NUM_THREADS="1")
    before, wall = cpu_children(), time.perf_counter()
    done = subprocess.run(
        [binary, "scan", corpus, "-b", str(BANDS), "-r", str(ROWS), "-t", "0",
         "--seed", str(seed), "-o", "/dev/null"],
        env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    cpu, wall = cpu_children() - before, time.perf_counter() - wall
    found = re.search(r"^([\d,]+) candidate pairs", done.stderr, re.MULTILINE)
    if found is None:
        sys.exit(f"no candidate count in lshscope's summary:\n{done.stderr}")
    return cpu, wall, int(found.group(1).replace(",", ""))


def run_rensa(rensa, token_sets, seed):
    times = {}
    start = cpu_self()
    hashes = rensa.RMinHash.from_token_sets(token_sets, NUM_PERM, seed)
    times["hash"] = cpu_self() - start
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


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("corpus", help="a CSV with a `text` column (`lshscope gen` writes one)")
    parser.add_argument("--lshscope", default="target/release/lshscope")
    parser.add_argument("--seeds", default="1,2,3,4,5",
                        help="one round per seed, the same seed for both tools")
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
    ours, theirs, our_pairs, their_pairs = [], [], [], []
    for seed in [int(s) for s in args.seeds.split(",")]:
        cpu, wall, found = run_lshscope(args.lshscope, args.corpus, seed)
        ours.append(cpu)
        our_pairs.append(found)
        times, pairs = run_rensa(rensa, token_sets, seed)
        theirs.append(sum(times.values()))
        their_pairs.append(pairs)
        print(f"seed {seed}: lshscope scan {cpu:.2f} s CPU ({wall:.2f} s wall, {found:,} "
              f"candidates verified); rensa hash {times['hash']:.2f} + index "
              f"{times['index']:.2f} + query {times['query']:.2f} = {theirs[-1]:.2f} s CPU "
              f"({pairs:,} candidates); load {os.getloadavg()[0]:.1f}")
    ours_m, theirs_m = statistics.median(ours), statistics.median(theirs)
    print(f"medians: lshscope {ours_m:.2f} s (read, shingle, hash, band, verify exactly, "
          f"write; {statistics.median(our_pairs):,.0f} candidates), rensa {theirs_m:.2f} s "
          f"(hash, index, query; {statistics.median(their_pairs):,.0f} candidates, none "
          f"verified)")
    print(f"lshscope's lead: {theirs_m / ours_m:.2f}x "
          f"(with rensa's reading and shingling counted: "
          f"{(theirs_m + read_s + shingle_s) / ours_m:.2f}x)")


if __name__ == "__main__":
    main()
