"""Speed at scale: many clusters, all-singleton partitions, AMI's expectation, every index at once.

Targets (issue: scale), each a ratio against the peer measured in the same run where there is one:

* N = 1e6, K = K' in 1e3, 1e4, 1e5 and all singletons (K = N): the table and every index but
  AMI (pairings and mappings included) at most 1x scikit-learn's ``adjusted_rand_score`` alone
  on the same labels (its sparse table is the peer); AMI exact where scikit-learn's would take
  minutes to hours (its cost grows with K^2);
* AMI at N = 1e7: K = 1 000 under 0.3 s, K = 5 000 under 1 s, K = 1e4 under 2 s (the table
  given); at N = 1e6 with all singletons under 2 s;
* all 30 indices at N = 1e7, K = 100 within 3x the time of the table alone: the 27 computed
  from the table; the three centroid indices also read the coordinates (N x d floats, more
  data than the labels), so they are reported beside it.

The reference labels are K clusters drawn uniformly; the candidate is the reference with 10% of
the objects moved to a random cluster (for all singletons, 10% of the labels permuted among
themselves, so both stay all singletons). Where a ratio is the target, ours and the peer's run
alternate and the ratio is the median of the per-repeat ratios, so a noisy machine shifts both
sides alike. Dask at N = 1e9 is ``bench_dask.py``; single link is ``bench_clustering.py``.

Usage::

    python benchmarks/bench_scale.py              # everything (a few minutes)
    python benchmarks/bench_scale.py --quick      # fewer repeats
"""

from __future__ import annotations

import argparse

import numpy as np
from sklearn.metrics import adjusted_rand_score

from cluval_core import INDICES, Comparison, compare
from timing import forget, paired, timed

IDS_BUT_AMI = [i for i, info in INDICES.items() if i != "ami" and not info.needs_data]
MOVED = 0.1


def labels(n: int, k: int, seed: int):
    """Reference labels of k uniform clusters (k = n: all singletons) and a candidate with 10% moved."""
    rng = np.random.default_rng(seed)
    moved = np.flatnonzero(rng.random(n) < MOVED)
    if k == n:
        a = rng.permutation(n)
        b = a.copy()
        b[moved] = b[rng.permutation(moved)]
        return a, b
    a = rng.integers(0, k, n)
    b = a.copy()
    b[moved] = rng.integers(0, k, len(moved))
    return a, b


def every_index_but_ami(a, b):
    c = compare(a, b)
    c.scores(IDS_BUT_AMI)
    c.jaccard_mapping  # noqa: B018 - the mapping is part of the work measured
    return c


def ami_given_the_table(c: Comparison) -> float:
    """AMI from a fresh comparison of the same table, so nothing computed before is reused."""
    forget()  # nor the expectation of these cluster sizes
    return Comparison.from_table(c.table).score("ami")


def many_clusters(repeats: int):
    n = 10**6
    print(f"N = {n:.0e}, every index but AMI (with pairings and mappings) against scikit-learn's "
          f"adjusted_rand_score alone; medians of {repeats} alternating runs")
    print("| K | ours (s) | sklearn ARI (s) | ours / sklearn | target | AMI (s) | AMI |")
    print("|---|---|---|---|---|---|---|")
    for k in (10**3, 10**4, 10**5, n):
        a, b = labels(n, k, seed=k)
        ours, theirs, ratio = paired(lambda: every_index_but_ami(a, b), lambda: adjusted_rand_score(a, b), repeats)
        c = compare(a, b)
        assert abs(c.score("ari") - adjusted_rand_score(a, b)) <= 1e-12
        ami_seconds = timed(lambda: ami_given_the_table(c), 3)
        name = "N (singletons)" if k == n else f"{k:.0e}"
        print(f"| {name} | {ours:.3f} | {theirs:.3f} | {ratio:.2f} | {'met' if ratio <= 1 else 'NOT met'} | "
              f"{ami_seconds:.3f} | {c.score('ami'):.6f} |", flush=True)


def ami_at_scale(repeats: int):
    print(f"\nAMI, the table given (a fresh comparison each run), medians of {repeats} runs")
    print("| N | K | AMI (s) | target (s) | | table and AMI from the labels (s) |")
    print("|---|---|---|---|---|---|")
    for n, k, target in ((10**7, 1000, 0.3), (10**7, 5000, 1.0), (10**7, 10**4, 2.0), (10**6, 10**6, 2.0)):
        a, b = labels(n, k, seed=k)
        c = compare(a, b)
        seconds = timed(lambda: ami_given_the_table(c), repeats)
        from_labels = timed(lambda: forget() or compare(a, b).score("ami"), 3)
        name = "N (singletons)" if k == n else f"{k:.0e}"
        print(f"| {n:.0e} | {name} | {seconds:.3f} | {target} | {'met' if seconds < target else 'NOT met'} | "
              f"{from_labels:.3f} |", flush=True)


def every_index_against_the_table(repeats: int):
    n, k = 10**7, 100
    a, b = labels(n, k, seed=1)
    X = np.random.default_rng(2).random((n, 2))  # coordinates for the three centroid indices
    from_table = [i for i, info in INDICES.items() if not info.needs_data]

    def every_index_of_the_table():
        forget()
        c = compare(a, b)
        c.scores(from_table)
        c.jaccard_mapping  # noqa: B018 - the property computes the mappings being timed

    def every_index_with_coordinates():
        forget()
        compare(a, b, X=X).scores()

    print(f"\nN = {n:.0e}, K = {k}, against the table alone (compare(a, b)); medians of {repeats} alternating runs")
    print("| work | seconds | table (s) | ratio | target |")
    print("|---|---|---|---|---|")
    ours, table, ratio = paired(every_index_of_the_table, lambda: compare(a, b), repeats)
    print(f"| the {len(from_table)} indices of the table (AMI included) | {ours:.3f} | {table:.3f} | {ratio:.2f} | "
          f"at most 3x: {'met' if ratio <= 3 else 'NOT met'} |", flush=True)
    ours, table, ratio = paired(every_index_with_coordinates, lambda: compare(a, b), repeats)
    print(f"| all {len(INDICES)}, with the centroids of 2-D coordinates | {ours:.3f} | {table:.3f} | {ratio:.2f} | - |",
          flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="3 repeats instead of 7")
    args = parser.parse_args()
    repeats = 3 if args.quick else 7
    many_clusters(repeats)
    ami_at_scale(repeats)
    every_index_against_the_table(repeats)


if __name__ == "__main__":
    main()
