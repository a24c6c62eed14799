"""Speed at every shape of table: many clusters, many cells, all singletons, AMI, every index at once, scaling.

Targets (issues: scale; fast at every shape of table), each a ratio against the peer or floor
measured in the same run:

* N = 1e6: the table and every index but AMI (pairings and mappings included; the AMI and RMI
  variants are timed on their own) at most 1x scikit-learn's ``adjusted_rand_score`` alone on
  the same labels (its sparse table is the peer), for K = K' in 1e3, 1e4, 1e5 and all
  singletons with a tenth of the objects moved ("structured"), for K = K' = 1e3 and 1e4 drawn
  independently (a million non-empty cells at 1e4), and for all singletons against K = 1 000;
* the table from labels within 2x one counting pass over the combined codes where a dense count
  fits in memory (N = 1e7, K = K' = 5 000), and within 2x one ``np.unique`` of them where it
  does not (K = K' = 20 000);
* AMI at N = 1e7: K = 1 000 under 0.3 s, K = 5 000 under 1 s, K = 1e4 under 2 s (the table
  given); at N = 1e6 with all singletons under 2 s;
* all indices of the table at N = 1e7, K = 100 within 3x the time of the table alone; the
  three centroid indices also read the coordinates (N x d floats, more data than the labels),
  so they are reported beside it;
* scaling, reported: ``compare(a, b).scores()`` (every index of the table) for N = 1e4 ... 1e8
  at K = 100 and for K = 10 ... 1e5 at N = 1e6 (1e4 for independent labels), structured and
  independent, with the ratio to
  the floor (the table counted from codes already in 0..K-1: one ``bincount``, or one
  ``np.unique`` where a dense count does not fit) at each point and the fitted growth exponent;
* where the time goes, reported: for labels drawn independently, the three optimal pairings and
  scipy's ``linear_sum_assignment`` on the same three weightings of the dense table (K = 1e3),
  against scikit-learn's ARI.

Where a ratio is the target, ours and the peer's run alternate and the ratio is the median of
the per-repeat ratios, so a noisy machine shifts both sides alike. Dask at N = 1e9 is
``bench_dask.py``; single link is ``bench_clustering.py``.

Usage::

    python benchmarks/bench_scale.py              # everything (several minutes)
    python benchmarks/bench_scale.py --quick      # fewer repeats, N up to 1e7 in the scaling
"""

from __future__ import annotations

import argparse
import math
import statistics

import numpy as np
from scipy.optimize import linear_sum_assignment
from sklearn.metrics import adjusted_rand_score

from cluval_core import INDICES, Comparison, compare
from timing import IDS_BUT_AMI, forget, paired, timed

MOVED = 0.1
TABLE_IDS = [i for i, info in INDICES.items() if not info.needs_data]
# The most cells the floor counts densely (as cluval does); beyond, it sorts.
FLOOR_COUNTED = 1 << 25


def labels(n: int, k: int, seed: int, kind: str = "structured", k_b: int | None = None):
    """Reference labels of k uniform clusters (k = n: all singletons) and a candidate: the reference
    with 10% of the objects moved ("structured"; for all singletons, 10% of the labels permuted
    among themselves, so both stay all singletons), or k_b (default k) clusters drawn
    independently ("independent")."""
    rng = np.random.default_rng(seed)
    a = rng.permutation(n) if k == n else rng.integers(0, k, n)
    if kind == "independent":
        k_b = k if k_b is None else k_b
        return a, (rng.permutation(n) if k_b == n else rng.integers(0, k_b, n))
    moved = np.flatnonzero(rng.random(n) < MOVED)
    b = a.copy()
    b[moved] = b[rng.permutation(moved)] if k == n else rng.integers(0, k, len(moved))
    return a, b


def every_index_but_ami(a, b):
    c = compare(a, b)
    c.scores(IDS_BUT_AMI)
    c.jaccard_mapping  # noqa: B018 - the mapping is part of the work measured
    return c


def floor(a, b, k_a: int, k_b: int):
    """The table from codes already in 0..K-1: one counting pass, or one sort where a dense count does not fit."""
    combined = a * k_b + b
    if k_a * k_b <= FLOOR_COUNTED:
        return np.bincount(combined, minlength=k_a * k_b)
    return np.unique(combined, return_counts=True)  # the counts keep numpy's sorting path, the fastest


def ami_given_the_table(c: Comparison) -> float:
    """AMI from a fresh comparison of the same table, so nothing computed before is reused."""
    forget()  # nor the expectation of these cluster sizes
    return Comparison.from_table(c.table).score("ami")


def many_clusters(repeats: int):
    n = 10**6
    print(f"N = {n:.0e}, every index but AMI ({len(IDS_BUT_AMI)} indices, with pairings and mappings) against "
          f"scikit-learn's adjusted_rand_score alone; medians of {repeats} alternating runs")
    print("| labels | K | K' | non-empty cells | ours (s) | sklearn ARI (s) | ours / sklearn | target | AMI (s) |")
    print("|---|---|---|---|---|---|---|---|---|")
    cases = [("structured", k, k) for k in (10**3, 10**4, 10**5, n)]
    cases += [("independent", 10**3, 10**3), ("independent", 10**4, 10**4), ("independent", n, 10**3)]
    for kind, k, k_b in cases:
        a, b = labels(n, k, seed=k + k_b, kind=kind, k_b=k_b)
        ours, theirs, ratio = paired(lambda: every_index_but_ami(a, b), lambda: adjusted_rand_score(a, b), repeats)
        c = compare(a, b)
        assert abs(c.score("ari") - adjusted_rand_score(a, b)) <= 1e-12
        ami_seconds = timed(lambda: ami_given_the_table(c), 3)
        print(f"| {kind} | {_k(k, n)} | {_k(k_b, n)} | {len(c.cells.values):,} | {ours:.3f} | {theirs:.3f} | "
              f"{ratio:.2f} | {'met' if ratio <= 1 else 'NOT met'} | {ami_seconds:.3f} |", flush=True)


def where_the_time_goes(repeats: int):
    """For labels drawn independently, the three optimal pairings (Braun-Banquet for PSI, the overlap
    for accuracy, the overlap over the row size for AAA) against scipy's dense assignment solver on
    the same three weightings of the table (where it fits) and scikit-learn's ARI: the part of the
    work that any exact pairing pays, measured in the same run."""
    n = 10**6
    print(f"\nWhere the time goes, N = {n:.0e} drawn independently: the three optimal pairings of a fresh "
          f"comparison, and scipy's linear_sum_assignment on the same three weightings of the dense table; "
          f"medians of {repeats} alternating runs")
    print("| K = K' | every index but AMI (s) | three optimal pairings (s) | of which Braun-Banquet (s) | "
          "scipy's three dense assignments (s) | sklearn ARI (s) | dense assignments / sklearn |")
    print("|---|---|---|---|---|---|---|")
    for k in (10**3, 10**4):
        a, b = labels(n, k, seed=2 * k, kind="independent", k_b=k)
        dense = None
        if k <= 10**3:
            t = compare(a, b).table
            t = (t.toarray() if hasattr(t, "toarray") else np.asarray(t)).astype(np.float64)
            r, c = t.sum(axis=1, keepdims=True), t.sum(axis=0, keepdims=True)
            dense = [t, t / np.maximum(r, c), t / r]
        runs = {name: [] for name in ("all", "pairings", "bb", "lsa", "sklearn")}
        for _ in range(repeats):
            runs["all"].append(timed(lambda: every_index_but_ami(a, b), 1))
            fresh = compare(a, b)
            runs["bb"].append(timed(lambda: fresh.hungarian_pairing, 1))
            rest = timed(lambda: (fresh.accuracy_pairing, fresh.row_normalised_pairing), 1)
            runs["pairings"].append(runs["bb"][-1] + rest)
            if dense is not None:
                runs["lsa"].append(timed(lambda: [linear_sum_assignment(w, maximize=True) for w in dense], 1))
            runs["sklearn"].append(timed(lambda: adjusted_rand_score(a, b), 1))
        med = {name: statistics.median(v) if v else math.nan for name, v in runs.items()}
        lsa = "-" if dense is None else f"{med['lsa']:.3f}"
        ratio = "-" if dense is None else f"{med['lsa'] / med['sklearn']:.2f}"
        print(f"| {k:.0e} | {med['all']:.3f} | {med['pairings']:.3f} | {med['bb']:.3f} | {lsa} | "
              f"{med['sklearn']:.3f} | {ratio} |", flush=True)


def _k(k: int, n: int) -> str:
    return "N" if k == n else f"{k:.0e}"


def table_from_labels(repeats: int):
    n = 10**7
    print(f"\nThe table from labels, N = {n:.0e}, K = K' drawn independently, against the floor (the table "
          f"from codes already in 0..K-1); medians of {repeats} alternating runs")
    print("| K = K' | cells densely | floor | ours (s) | floor (s) | ours / floor | target |")
    print("|---|---|---|---|---|---|---|")
    for k in (5000, 20_000):
        a, b = labels(n, k, seed=k, kind="independent")
        ours, theirs, ratio = paired(lambda: compare(a, b), lambda: floor(a, b, k, k), repeats)
        what = "one bincount" if k * k <= FLOOR_COUNTED else "one np.unique"
        print(f"| {k:,} | {k * k:.1e} | {what} | {ours:.3f} | {theirs:.3f} | {ratio:.2f} | "
              f"at most 2x: {'met' if ratio <= 2 else 'NOT met'} |", flush=True)


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


def scaling(quick: bool):
    """compare(a, b).scores() over N at K = 100 and over K at N = 1e6, with the floor and the growth exponent."""
    print("\nScaling: compare(a, b).scores(), every index of the table (AMI included), against the floor (the "
          "table from codes in 0..K-1); medians of 3 runs (1 beyond N = 1e7)")
    print("| labels | N | K | non-empty cells | ours (s) | floor (s) | ours / floor |")
    print("|---|---|---|---|---|---|---|")
    n_grid = [(n, 100) for n in (10**4, 10**5, 10**6, 10**7) + (() if quick else (10**8,))]
    # independent labels stop at K = 1e4: at 1e5 (a million cells, about ten a row, weights nearly
    # tied) the Braun-Banquet pairing alone takes about 15 s (README, Benchmarks)
    k_grid = {"structured": [(10**6, k) for k in (10, 100, 10**3, 10**4, 10**5)],
              "independent": [(10**6, k) for k in (10, 100, 10**3, 10**4)]}
    exponents = []
    for kind in ("structured", "independent"):
        for axis, points in (("N", n_grid), ("K", k_grid[kind])):
            xs, ys = [], []
            for n, k in points:
                a, b = labels(n, k, seed=n + k, kind=kind)
                repeats = 3 if n <= 10**7 else 1
                ours = timed(lambda: forget() or compare(a, b).scores(TABLE_IDS), repeats)
                theirs = timed(lambda: floor(a, b, k, k), repeats)
                cells = len(compare(a, b).cells.values)
                print(f"| {kind} | {n:.0e} | {k:.0e} | {cells:,} | {ours:.3f} | {theirs:.3f} | {ours / theirs:.1f} |",
                      flush=True)
                xs.append(n if axis == "N" else k)
                ys.append(ours)
            slope = float(np.polyfit(np.log10(xs), np.log10(ys), 1)[0])
            exponents.append((kind, axis, slope, xs[0], xs[-1]))
    print("\n| labels | growth with | from | to | fitted exponent (time ~ x^e) |")
    print("|---|---|---|---|---|")
    for kind, axis, slope, lo, hi in exponents:
        print(f"| {kind} | {axis} | {lo:.0e} | {hi:.0e} | {slope:.2f} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="3 repeats instead of 7; N up to 1e7 in the scaling")
    args = parser.parse_args()
    repeats = 3 if args.quick else 7
    many_clusters(repeats)
    where_the_time_goes(3 if args.quick else 5)
    table_from_labels(repeats)
    ami_at_scale(repeats)
    every_index_against_the_table(repeats)
    scaling(args.quick)


if __name__ == "__main__":
    main()
