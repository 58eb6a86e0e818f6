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
Without an exact file (a corpus too large to join) pass --no-exact: the table then shows the
estimates and interval widths only, which need no exact value.

It is slow by design (one index and one sample per seed); run it in the background:

    lshscope gen --templates -n 100000 -o /tmp/t100k.csv
    nice -n 10 python3 benches/stratified_coverage.py /tmp/t100k.csv 0.9 \
        --exact /tmp/t100k.truth09.csv.zst > coverage.log

docs/tuning.md holds the table it printed.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time


def run_json(cmd):
    return json.loads(subprocess.run(cmd, check=True, capture_output=True).stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus")
    ap.add_argument("threshold", type=float)
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--pairs", type=int, default=100_000, help="N of --estimate-pairs")
    ap.add_argument("--exact", help="the exact join's output (written when missing)")
    ap.add_argument("--no-exact", action="store_true")
    ap.add_argument("--bin", default=os.environ.get("LSHSCOPE", "target/release/lshscope"))
    args = ap.parse_args()
    if not args.no_exact and not args.exact:
        ap.error("give --exact FILE, or --no-exact")
    lsh, t = args.bin, str(args.threshold)

    exact_count, exact_recall = None, {}
    if not args.no_exact:
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
        for seed in range(1, args.seeds + 1):
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
