"""Speed of cluval's clustering against its peers, measured in the same run (issue 3).

* Random swap, T = 5000, on Unbalance: cluval's implementation against a straightforward
  numpy one (broadcast distances, the same algorithm and random choices); target at most
  5 s, and the ground-truth structure (centroid index 0) in at least 4 of 5 seeds.
* Single link on Birch2 (100 000 points): cluval (minimum spanning tree through the
  Delaunay triangulation) against scikit-learn's AgglomerativeClustering(linkage="single");
  target at least 10x faster, and the same partition as scikit-learn on S1-S4, Unbalance
  and Aggregate.

Needs the data sets (CLUVAL_DATA_DIR or the cache).

    python benchmarks/bench_clustering.py [--seeds 5] [--peer-iterations 5000] [--skip-sklearn-birch]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from sklearn.cluster import AgglomerativeClustering

from cluval_core import compare
from cluval_core.clustering import cluster
from cluval_core.datasets import load_dataset


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


def bench_single_link(skip_birch):
    print("\nSingle link: same partition as scikit-learn")
    for name in ["s1", "s2", "s3", "s4", "unbalance", "aggregation"]:
        ds = load_dataset(name)
        ours = cluster(ds.X, "single", ds.k).labels
        theirs = AgglomerativeClustering(n_clusters=ds.k, linkage="single").fit_predict(ds.X)
        print(f"  {name:<12} identical: {compare(ours, theirs).is_identical}")
    ds = load_dataset("birch2")
    times = []
    for _ in range(3):
        times.append(cluster(ds.X, "single", 100).seconds)
    ours = float(np.median(times))
    print(f"\nSingle link on Birch2 (n = {len(ds.X)}): cluval median {ours:.2f} s")
    if skip_birch:
        print("  scikit-learn skipped (--skip-sklearn-birch)")
        return
    start = time.perf_counter()
    AgglomerativeClustering(n_clusters=100, linkage="single").fit_predict(ds.X)
    theirs = time.perf_counter() - start
    print(f"  scikit-learn: {theirs:.1f} s; speed-up {theirs / ours:.0f}x (target: at least 10x)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--peer-iterations", type=int, default=5000,
                        help="swaps to run the straightforward version for (scaled to 5000)")
    parser.add_argument("--skip-sklearn-birch", action="store_true")
    args = parser.parse_args()
    bench_random_swap(args.seeds, args.peer_iterations)
    bench_single_link(args.skip_sklearn_birch)


if __name__ == "__main__":
    main()
