"""Speed of cluval's clustering against its peers, measured in the same run (issue 3).

* Random swap, T = 5000, on Unbalance: cluval's implementation against a straightforward
  numpy one (broadcast distances, the same algorithm and random choices); target at most
  5 s, and the ground-truth structure (centroid index 0) in at least 4 of 5 seeds.
* Single link (issue: "single link on Birch2 within 1.5x of genieclust"): the same
  partition as scikit-learn's AgglomerativeClustering(linkage="single") on S1-S4, Unbalance
  and Aggregate; on Birch2 (100 000 points, k = 100) cluval's cluster(X, "single", 100)
  against genieclust.Genie(n_clusters=100, gini_threshold=1.0) (which is single link),
  interleaved in the same run: median of --repeats runs each, the ratio cluval / genieclust
  (target at most 1.5) and whether the partitions are identical (adjusted Rand 1); then,
  unless --skip-sklearn-birch, scikit-learn's single link on Birch2 once (target: cluval at
  least 10x faster).
* Cost estimates (issue 8): for ordinary runs, the time cluster() estimated beforehand
  against the time measured (target: measured / estimated between 0.05 and 2, so the
  budget neither lets a slow run through nor blocks a quick one by much); for the hostile
  requests of issue 8, the time to refuse (target: under 0.5 s each).

Needs the data sets (CLUVAL_DATA_DIR or the cache).

    python benchmarks/bench_clustering.py [--seeds 5] [--peer-iterations 5000] [--repeats 7]
                                          [--skip-sklearn-birch] [--only single_link]
"""

from __future__ import annotations

import argparse
import time

import genieclust
import numpy as np
from sklearn.cluster import AgglomerativeClustering

from cluval_core import CluvalError, compare
from cluval_core.algorithms.clustering import DEFAULT_BUDGET, cluster, estimate_cost
from cluval_core.data.datasets import load_dataset


def naive_random_swap(X, k, iterations, seed):
    """The textbook version: full distance matrix by broadcasting, Python-level updates."""
    rng = np.random.default_rng(seed)
    n = len(X)

    def kmeans(C, steps):
        for _ in range(steps):
            labels = ((X[:, None, :] - C[None]) ** 2).sum(-1).argmin(1)
            C = np.array([X[labels == j].mean(0) if (labels == j).any() else C[j] for j in range(k)])
        d = ((X[:, None, :] - C[None]) ** 2).sum(-1)
        labels = d.argmin(1)
        return C, labels, d.min(1).sum()

    C, labels, best = kmeans(X[rng.choice(n, size=k, replace=False)].copy(), 2)
    swap_cluster = rng.integers(0, k, iterations)
    swap_point = rng.integers(0, n, iterations)
    for t in range(iterations):
        trial = C.copy()
        trial[swap_cluster[t]] = X[swap_point[t]]
        trial, trial_labels, value = kmeans(trial, 2)
        if value < best:
            C, labels, best = trial, trial_labels, value
    return labels


def bench_random_swap(seeds, peer_iterations):
    ds = load_dataset("unbalance")
    times, cis = [], []
    for seed in range(seeds):
        result = cluster(ds.X, "random_swap", 8, seed=seed, iterations=5000)
        times.append(result.seconds)
        cis.append(compare(ds.labels, result.labels, X=ds.X).score("ci_centroid"))
    start = time.perf_counter()
    naive_random_swap(ds.X, 8, peer_iterations, 0)
    naive = (time.perf_counter() - start) * 5000 / peer_iterations
    ours = float(np.median(times))
    print("\nRandom swap, T = 5000, Unbalance (k = 8)")
    print(f"  cluval: median {ours:.2f} s over {seeds} seeds (min {min(times):.2f}, max {max(times):.2f})")
    print(f"  straightforward numpy: {naive:.1f} s" + ("" if peer_iterations == 5000
                                                      else f" (scaled from {peer_iterations} swaps)"))
    print(f"  ratio cluval / peer: {ours / naive:.3f}  (target: cluval at most 5 s)")
    print(f"  centroid index per seed: {[int(c) for c in cis]}; CI = 0 in {sum(c == 0 for c in cis)} of {seeds}")


def _seconds(run):
    start = time.perf_counter()
    result = run()
    return time.perf_counter() - start, result


def bench_single_link(repeats, skip_sklearn):
    print("\nSingle link: same partition as scikit-learn")
    for name in ["s1", "s2", "s3", "s4", "unbalance", "aggregation"]:
        ds = load_dataset(name)
        ours = cluster(ds.X, "single", ds.k).labels
        theirs = AgglomerativeClustering(n_clusters=ds.k, linkage="single").fit_predict(ds.X)
        print(f"  {name:<12} identical: {compare(ours, theirs).is_identical}")
    X = load_dataset("birch2").X

    def run_ours():
        return cluster(X, "single", 100).labels

    def run_genie():
        return genieclust.Genie(n_clusters=100, gini_threshold=1.0).fit_predict(X)

    run_ours(), run_genie()  # first calls load libraries and start thread pools
    ours, genie = [], []
    for _ in range(repeats):  # interleaved, so that both see the same load on the machine
        seconds, ours_labels = _seconds(run_ours)
        ours.append(seconds)
        seconds, genie_labels = _seconds(run_genie)
        genie.append(seconds)
    same = compare(ours_labels, genie_labels)
    ours_median, genie_median = float(np.median(ours)), float(np.median(genie))
    print(f"\nSingle link on Birch2 (n = {len(X):,}, k = 100), median of {repeats} interleaved runs each")
    print(f"  {'':<44} {'median':>8} {'min':>8} {'max':>8}")
    for label, times in [("cluval cluster(X, 'single', 100)", ours),
                         ("genieclust Genie(gini_threshold=1.0)", genie)]:
        print(f"  {label:<44} {np.median(times):7.3f}s {min(times):7.3f}s {max(times):7.3f}s")
    print(f"  ratio cluval / genieclust: {ours_median / genie_median:.2f}  (target: at most 1.5)")
    print(f"  same partition: identical up to relabelling {same.is_identical}, adjusted Rand {same.score('ari'):.6f}")
    if skip_sklearn:
        print("  scikit-learn skipped (--skip-sklearn-birch)")
        return
    theirs, _ = _seconds(lambda: AgglomerativeClustering(n_clusters=100, linkage="single").fit_predict(X))
    print(f"  scikit-learn (one run): {theirs:.1f} s; speed-up {theirs / ours_median:.0f}x (target: at least 10x)")


ORDINARY_RUNS = [("s1", "kmeans", {}), ("s1", "kmeans++", {}), ("s1", "random_swap", {}), ("s1", "single", {}),
                 ("s1", "ward", {}), ("s1", "gmm", {}), ("s1", "fcm", {}), ("s1", "dbscan", {"eps": 15300.0}),
                 ("unbalance", "random_swap", {}), ("aggregation", "dbscan", {"eps": 1.2}),
                 ("birch2", "kmeans", {}), ("birch2", "kmeans++", {}), ("birch2", "single", {}),
                 ("birch2", "random_swap", {"iterations": 100}), ("birch2", "dbscan", {"eps": 426.0})]


def bench_estimates():
    print("\nCost estimates: measured / estimated time for ordinary runs (target 0.05 .. 2)")
    for name, algorithm, params in ORDINARY_RUNS:
        ds = load_dataset(name)
        k = ds.k if algorithm != "dbscan" else None
        estimate = estimate_cost(ds.X, algorithm, k, **params)
        result = cluster(ds.X, algorithm, k, seed=0, **params)
        print(f"  {name:<12} {algorithm:<12} estimated {estimate.seconds:8.2f} s, measured {result.seconds:7.2f} s, "
              f"ratio {result.seconds / estimate.seconds:5.2f}; memory estimate {estimate.memory / 2**20:7.1f} MiB")
    rng = np.random.default_rng(0)
    birch2 = load_dataset("birch2").X
    hostile = [("k-means++, k = n = 100 000", lambda: cluster(rng.random((100_000, 2)), "kmeans++", 100_000)),
               ("DBSCAN, eps = 1e9, 30 000 points", lambda: cluster(rng.random((30_000, 2)), "dbscan", eps=1e9)),
               ("random swap defaults on Birch2", lambda: cluster(birch2, "random_swap", 100)),
               ("Ward on Birch2", lambda: cluster(birch2, "ward", 100))]
    print(f"\nHostile requests: time to refuse (budget {DEFAULT_BUDGET}; target under 0.5 s)")
    for label, request in hostile:
        start = time.perf_counter()
        try:
            request()
            outcome = "NOT REFUSED"
        except CluvalError as exc:
            outcome = str(exc)[:90] + "..."
        print(f"  {label:<34} {time.perf_counter() - start:6.3f} s  {outcome}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--peer-iterations", type=int, default=5000,
                        help="swaps to run the straightforward version for (scaled to 5000)")
    parser.add_argument("--repeats", type=int, default=7, help="runs of single link on Birch2, each side")
    parser.add_argument("--skip-sklearn-birch", action="store_true")
    parser.add_argument("--only", choices=["random_swap", "single_link", "estimates"])
    args = parser.parse_args()
    if args.only in (None, "random_swap"):
        bench_random_swap(args.seeds, args.peer_iterations)
    if args.only in (None, "single_link"):
        bench_single_link(args.repeats, args.skip_sklearn_birch)
    if args.only in (None, "estimates"):
        bench_estimates()


if __name__ == "__main__":
    main()
