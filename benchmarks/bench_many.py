"""Many clusterings: all pairwise ARI and PSI of 100 partitions of 100 000 objects, in one run.

Target (issue: the modern family): under 5 s. The peer is scikit-learn's
``adjusted_rand_score`` alone, timed on the first 500 pairs and scaled to all of them (it has
no many-partition form: every call factorises both partitions again).

Usage::

    python benchmarks/bench_many.py
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from sklearn.metrics import adjusted_rand_score

from cluval_core import compare_many
from timing import timed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--partitions", type=int, default=100)
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    base = rng.integers(0, 20, args.n)  # runs of one algorithm: most objects agree, k varies
    parts = [np.where(rng.random(args.n) < 0.8, base, rng.integers(0, int(rng.integers(10, 30)), args.n))
             for _ in range(args.partitions)]
    pairs = [(a, b) for a in range(args.partitions) for b in range(a + 1, args.partitions)]
    ours = timed(lambda: compare_many(parts, ["ari", "psi"]), args.repeats)
    sample = pairs[:500]
    start = time.perf_counter()
    for a, b in sample:
        adjusted_rand_score(parts[a], parts[b])
    theirs = (time.perf_counter() - start) / len(sample) * len(pairs)
    print(f"{args.partitions} partitions of {args.n:,} objects, {len(pairs):,} pairs; median of {args.repeats} runs")
    print("| work | seconds |")
    print("|---|---|")
    print(f"| cluval compare_many, ARI and PSI | {ours:.2f} |")
    print(f"| scikit-learn adjusted_rand_score alone, every pair (scaled from {len(sample)}) | {theirs:.2f} |")
    print(f"ratio {ours / theirs:.3f}; target under 5 s: {'met' if ours < 5 else 'NOT met'}")


if __name__ == "__main__":
    main()
