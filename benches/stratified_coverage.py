#!/usr/bin/env python3
"""Coverage of the stratified pair sample (`truth --estimate-pairs`) over many seeds.

For one corpus and threshold t, samples N pairs for seeds 1..S, reads each sample with
`tune --similarities` and checks its estimates against the exact values:

- the count of pairs with Jaccard >= t: within +-10 % of the exact count, and the 95 %
  interval covering it in at least 18 of 20 seeds;
- recall@t of each criterion row of `tune` (recall, datasketch): the interval covering the
  exact recall (the mean of P(s) over the exact pairs at or above t) in at least 18 of 20
  seeds, and no wider than +-0.02.

The exact values come from `lshscope truth -t T` (the exact similarity join, written once
to EXACT and reused), read back by `tune --truth EXACT`, which gives each row's exact recall.
Where the join's pair list is too large (a million template documents hold ~10^9 pairs at
0.7), pass --distribution DIST instead: the output of `lshscope truth -t T0 --blocks
FAMILIES` (T0 <= T; `jaccard,pairs` rows, the exact count of every Jaccard value at or above
T0), from which the count at or above T and each row's exact recall are summed here. Without
either (--no-exact) the table shows the estimates and interval widths only.

It is slow by design (one index and one sample per seed); run it in the background:

    lshscope gen --templates -n 100000 -o /tmp/t100k.csv
    nice -n 10 python3 benches/stratified_coverage.py /tmp/t100k.csv 0.9 \
        --exact /tmp/t100k.truth09.csv.zst > coverage.log

    lshscope gen --templates -n 1000000 -o /tmp/t1m.csv --families /tmp/t1m.families.csv
    lshscope truth /tmp/t1m.csv -t 0.7 --blocks /tmp/t1m.families.csv --force -o /tmp/t1m.dist.csv
    nice -n 10 python3 benches/stratified_coverage.py /tmp/t1m.csv 0.9 \
        --distribution /tmp/t1m.dist.csv > coverage.log

docs/tuning.md holds the table it printed.
"""

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
import time


def run_json(cmd):
    return json.loads(subprocess.run(cmd, check=True, capture_output=True).stdout)


def read_distribution(path, t):
    """The (jaccard, pairs) rows of an exact distribution at or above t."""
    with open(path, newline="") as f:
        rows = [(float(r["jaccard"]), int(r["pairs"])) for r in csv.DictReader(f)]
    return [(j, n) for j, n in rows if j >= t]


def exact_recall_of(distribution, bands, rows):
    """The mean of P(s) = 1 - (1 - s^r)^b over the pairs of the distribution."""
    total = sum(n for _, n in distribution)
    return sum(n * (1.0 - (1.0 - j ** rows) ** bands) for j, n in distribution) / total


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus")
    ap.add_argument("threshold", type=float)
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--first-seed", type=int, default=1,
                    help="seeds run from here (split a long check into pieces)")
    ap.add_argument("--pairs", type=int, default=100_000, help="N of --estimate-pairs")
    ap.add_argument("--exact", help="the exact join's output (written when missing)")
    ap.add_argument("--distribution",
                    help="exact distribution of `truth --blocks` (instead of --exact)")
    ap.add_argument("--no-exact", action="store_true")
    ap.add_argument("--bin", default=os.environ.get("LSHSCOPE", "target/release/lshscope"))
    args = ap.parse_args()
    if not args.no_exact and not args.exact and not args.distribution:
        ap.error("give --exact FILE, --distribution FILE or --no-exact")
    lsh, t = args.bin, str(args.threshold)

    exact_count, exact_recall, distribution = None, {}, None
    if args.distribution:
        distribution = read_distribution(args.distribution, args.threshold)
        exact_count = sum(n for _, n in distribution)
        print(f"exact: {exact_count:,.0f} pairs >= {t} (from {args.distribution})", flush=True)
    elif not args.no_exact:
        if not os.path.exists(args.exact):
            start = time.time()
            subprocess.run([lsh, "truth", args.corpus, "-t", t, "--force", "-q", "-o", args.exact],
                           check=True)
            print(f"exact join: {time.time() - start:.0f} s", flush=True)
        report = run_json([lsh, "tune", "-t", t, "--truth", args.exact, "--format", "json"])
        exact_count = report["corpus"]["pairs_at_or_above_threshold"]
        for row in report["rows"]:
            exact_recall[(row["bands"], row["rows"])] = row["corpus"]["expected_recall"]
        print(f"exact: {exact_count:,.0f} pairs >= {t}; recall "
              + ", ".join(f"{b}x{r} {v:.4f}" for (b, r), v in exact_recall.items()), flush=True)

    covered, half_widths, errors, seconds = {}, {}, [], []
    with tempfile.TemporaryDirectory() as tmp:
        sample = os.path.join(tmp, "sample.csv")
        for seed in range(args.first_seed, args.first_seed + args.seeds):
            start = time.time()
            subprocess.run([lsh, "truth", args.corpus, "--estimate-pairs", str(args.pairs),
                            "-t", t, "--seed", str(seed), "-q", "-o", sample], check=True)
            seconds.append(time.time() - start)
            report = run_json([lsh, "tune", "-t", t, "--similarities", sample,
                               "--format", "json"])
            corpus = report["corpus"]
            estimate = corpus["pairs_at_or_above_threshold"]
            low, high = corpus["sample"]["pairs_at_or_above_interval"]
            line = [f"seed {seed:2} ({seconds[-1]:.0f} s): >= t {estimate:,.0f} "
                    f"[{low:,.0f}, {high:,.0f}]"]
            if exact_count is not None:
                errors.append(estimate / exact_count - 1)
                covered["count"] = covered.get("count", 0) + (low <= exact_count <= high)
                line[-1] += f" {100 * errors[-1]:+.2f} %"
            for row in report["rows"]:
                key = f"{row['criterion']} {row['bands']}x{row['rows']}"
                interval = row["sampled"]["expected_recall"]
                if interval is None:
                    line.append(f"{key}: n/a")
                    continue
                half_widths.setdefault(key, []).append((interval[1] - interval[0]) / 2)
                text = f"{key}: [{interval[0]:.4f}, {interval[1]:.4f}]"
                if distribution and (row["bands"], row["rows"]) not in exact_recall:
                    exact_recall[(row["bands"], row["rows"])] = exact_recall_of(
                        distribution, row["bands"], row["rows"])
                    print(f"exact recall of {key}: "
                          f"{exact_recall[(row['bands'], row['rows'])]:.6f}", flush=True)
                exact = exact_recall.get((row["bands"], row["rows"]))
                if exact is not None:
                    covered[key] = covered.get(key, 0) + (interval[0] <= exact <= interval[1])
                    text += " covers" if interval[0] <= exact <= interval[1] else " MISSES"
                line.append(text)
            print("; ".join(line), flush=True)

    print(f"seconds per sample: median {sorted(seconds)[len(seconds) // 2]:.1f}")
    if errors:
        print(f"count: largest error {100 * max(abs(e) for e in errors):.2f} %")
    for key, n in covered.items():
        print(f"{key}: interval covers the exact value in {n} of {args.seeds}")
    for key, widths in half_widths.items():
        print(f"{key}: recall interval half-width at most {max(widths):.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
