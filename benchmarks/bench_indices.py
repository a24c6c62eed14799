"""Speed of cluval's index engine against scikit-learn and genieclust, in one run.

Every timing is the median of several repeats on the same random labels; where a ratio is
the target, ours and the peer's run alternate and the ratio is the median of the per-repeat
ratios, so a noisy machine shifts both sides alike. Targets (issue 2):

* contingency of integer labels within 2x of one ``np.bincount`` over the combined codes;
  string labels at least 5x faster than ``np.unique``;
* all indices but AMI (with pairings and mappings) at N=1e7, K=100 within 1.5x of
  genieclust's ``pair_sets_index`` alone;
* AMI equal to scikit-learn's within 1e-9 and at least 50x faster at N=1e6, K=100, and
  under 2 s at N=1e6, K=1000;
* memory below 1 GB at N=1e7.

Usage::

    python benchmarks/bench_indices.py            # the grid, skipping peers slower than a minute
    python benchmarks/bench_indices.py --full     # also the minute-long peers (AMI at K=1000)
    python benchmarks/bench_indices.py --quick    # N up to 1e6 only
"""

from __future__ import annotations

import argparse
import time
import tracemalloc

import genieclust
import numpy as np
from sklearn import metrics as skm
from sklearn.metrics.cluster import contingency_matrix

from cluval_core import compare
from timing import IDS_BUT_AMI, forget, paired, timed


def all_but_ami(a, b):
    c = compare(a, b)
    c.scores(IDS_BUT_AMI)
    c.jaccard_mapping  # noqa: B018 - the mapping is part of the work measured
    return c


def run(ns, ks, full):
    rows = []
    rng = np.random.default_rng(2016)
    for n in ns:
        for k in ks:
            a = rng.integers(0, k, n)
            b = np.where(rng.random(n) < 0.5, a, rng.integers(0, k, n))
            reps = 5 if n <= 10**6 else 3
            row = {"N": n, "K": k}
            combined = a * k + b
            row["table"], row["bincount"], row["table / bincount"] = paired(
                lambda: compare(a, b), lambda: np.bincount(combined, minlength=k * k), 2 * reps + 1)
            row["sklearn table"] = timed(lambda: contingency_matrix(a, b), 1)
            row["all but AMI"], row["genieclust PSI"], row["all / genieclust"] = paired(
                lambda: all_but_ami(a, b), lambda: genieclust.compare_partitions.pair_sets_index(a, b), reps)
            c = compare(a, b)
            row["AMI"] = timed(lambda: forget() or compare(a, b).score("ami"),
                               1 if n > 10**6 else 3)  # the expectation of these sizes is not reused
            sklearn_ami_seconds = 11 * (n / 1e6) * (k / 100) ** 2  # rough model of its cost
            if n <= 10**6 and (sklearn_ami_seconds < 60 or full):
                start = time.perf_counter()
                theirs = skm.adjusted_mutual_info_score(a, b)
                row["sklearn AMI"] = time.perf_counter() - start
                row["AMI |diff|"] = abs(c.score("ami") - theirs)
            if n <= 10**6 and (k <= 100 or full):
                row["genieclust AMI"] = timed(lambda: genieclust.compare_partitions.adjusted_mi_score(a, b), 1)
            if n <= 10**6 or full:
                labels = np.array([f"cluster-{i}" for i in range(k)], dtype=object)
                sa, sb = labels[a], labels[b]
                row["string table"] = timed(lambda: compare(sa, sb), 3)
                row["np.unique strings"] = timed(lambda: (np.unique(sa, return_inverse=True),
                                                          np.unique(sb, return_inverse=True)), 1)
            rows.append(row)
            print_row(row, flush=True)
    return rows


def print_row(row, flush=False):
    parts = [f"N={row['N']:.0e} K={row['K']:>4}"]
    for key, value in row.items():
        if key in ("N", "K"):
            continue
        parts.append(f"{key}={value:.3g}" + ("" if "diff" in key or "/" in key else "s"))
    print("  ".join(parts), flush=flush)


def summary(rows):
    print("\n| N | K | table / bincount | table / sklearn | strings / np.unique | all-but-AMI / genieclust PSI "
          "| AMI (s) | sklearn AMI / AMI | genieclust AMI / AMI | AMI abs diff |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        sk = f"{r['sklearn AMI'] / r['AMI']:.0f}" if "sklearn AMI" in r else "-"
        ge = f"{r['genieclust AMI'] / r['AMI']:.0f}" if "genieclust AMI" in r else "-"
        skt = f"1/{r['sklearn table'] / r['table']:.0f}" if "sklearn table" in r else "-"
        st = f"1/{r['np.unique strings'] / r['string table']:.0f}" if "string table" in r else "-"
        diff = f"{r['AMI |diff|']:.1e}" if "AMI |diff|" in r else "-"
        print(f"| {r['N']:.0e} | {r['K']} | {r['table / bincount']:.2f} | {skt} | {st} | "
              f"{r['all / genieclust']:.2f} | {r['AMI']:.3f} | {sk} | {ge} | {diff} |")


def memory_at(n=10**7, k=100):
    rng = np.random.default_rng(1)
    a = rng.integers(0, k, n)
    b = rng.integers(0, k, n)
    tracemalloc.start()
    c = all_but_ami(a, b)
    c.score("ami")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    inputs = a.nbytes + b.nbytes
    print(f"\npeak memory of compare + every index at N={n:.0e}, K={k}: {peak / 2**20:.0f} MiB "
          f"(beyond the {inputs / 2**20:.0f} MiB of input labels)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--full", action="store_true", help="also run peers that take over a minute")
    parser.add_argument("--quick", action="store_true", help="N up to 1e6 only")
    args = parser.parse_args()
    ns = [10**5, 10**6] if args.quick else [10**5, 10**6, 10**7]
    rows = run(ns, [10, 100, 1000], args.full)
    summary(rows)
    if not args.quick:
        memory_at()


if __name__ == "__main__":
    main()
