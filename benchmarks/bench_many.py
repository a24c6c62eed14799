"""Many clusterings: all pairwise ARI and PSI of 100 partitions of 100 000 objects, and half a
million pairs of 1 000 partitions of 10 000 objects, in one run.

Targets (issue: fast at every shape of table):

* 100 partitions of 1e5 objects, every pairwise ARI and PSI: at most 0.5x a plain loop of
  genieclust's ``adjusted_rand_score`` and ``pair_sets_index`` over the same pairs, and at most
  0.3x a plain loop of cluval's own ``compare(a, b).scores(["ari", "psi"])`` (each ratio the
  median of the per-run ratios, compare_many and the loop alternating);
* 1 000 partitions of 1e4 objects (500 500 pairs) within a minute, with progress.

The partitions are runs of one algorithm: a base clustering of 20 clusters with 20% of the
objects relabelled at random into 10 to 30 clusters in each (so their meet has about as many
groups as objects: every table is counted over the objects). scikit-learn's
``adjusted_rand_score`` alone is timed on the first 500 pairs and scaled, for scale (it has no
many-partition form: every call factorises both partitions again).

Usage::

    python benchmarks/bench_many.py
    python benchmarks/bench_many.py --quick     # without the half a million pairs
"""

from __future__ import annotations

import argparse
import math
import time

import genieclust
import numpy as np
from sklearn.metrics import adjusted_rand_score

from cluval_core import compare, compare_many
from timing import paired


def runs(p: int, n: int, seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    base = rng.integers(0, 20, n)
    return [np.where(rng.random(n) < 0.8, base, rng.integers(0, int(rng.integers(10, 30)), n)) for _ in range(p)]


def loop_seconds(pairs, one_pair) -> float:
    start = time.perf_counter()
    for a, b in pairs:
        one_pair(a, b)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--partitions", type=int, default=100)
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="without the 1 000 partitions of 1e4 objects")
    args = parser.parse_args()
    parts = runs(args.partitions, args.n)
    pairs = [(parts[a], parts[b]) for a in range(args.partitions) for b in range(a + 1, args.partitions)]
    def ours():
        compare_many(parts, ["ari", "psi"], budget=math.inf)

    def genie():
        for a, b in pairs:
            genieclust.compare_partitions.adjusted_rand_score(a, b)
            genieclust.compare_partitions.pair_sets_index(a, b)

    def loop():
        for a, b in pairs:
            compare(a, b).scores(["ari", "psi"])

    ours()  # code compiled and loaded before anything is timed
    print(f"{args.partitions} partitions of {args.n:,} objects, {len(pairs):,} pairs; compare_many and each loop "
          f"alternate, {args.repeats} times: the medians, and the median of the per-run ratios")
    print("| work | seconds | compare_many in the same runs (s) | compare_many / this | target |")
    print("|---|---|---|---|---|")
    for name, peer, target in (("a loop of genieclust's ARI and PSI", genie, 0.5),
                               ("a loop of cluval's compare(a, b).scores([ARI, PSI])", loop, 0.3)):
        mine, theirs, ratio = paired(ours, peer, args.repeats)
        print(f"| {name} | {theirs:.2f} | {mine:.2f} | {ratio:.2f} | "
              f"at most {target}: {'met' if ratio <= target else 'NOT met'} |", flush=True)
    sklearn = loop_seconds(pairs[:500], adjusted_rand_score) / 500 * len(pairs)
    print(f"| scikit-learn adjusted_rand_score alone (scaled from 500 pairs) | {sklearn:.2f} | {mine:.2f} | "
          f"{mine / sklearn:.2f} | - |")
    if not args.quick:
        many = runs(1000, 10_000, seed=1)
        reports = []
        start = time.perf_counter()
        compare_many(many, ["ari", "psi"], budget=math.inf, progress=lambda done, total: reports.append(done))
        seconds = time.perf_counter() - start
        print(f"\n1 000 partitions of 10 000 objects, 500 500 pairs, ARI and PSI: {seconds:.1f} s "
              f"({len(reports)} progress reports); target under 60 s: {'met' if seconds < 60 else 'NOT met'}")


if __name__ == "__main__":
    main()
