"""Hierarchies: every cut of two trees of Birch2 (100 000 points) scored in one pass, against one
comparison of two flat partitions of the same size, in one run.

Target (issue: beyond flat partitions): all cuts k = 1 … 200 of two trees on Birch2 (its 100
clusters twice over), the values of ARI and Fowlkes-Mallows, within 10x one
``compare(a, b).scores(["ari", "fowlkes_mallows"])`` of two flat partitions of the same 100 000
objects (the two trees' cuts at k = 100); the same with their chance bands is timed beside it (the
exact variance of the pair counts per cut). The trees are single link (cluval's, from the minimum
spanning tree) and genieclust's Genie (Gini threshold 0.3), both built once before timing: a tree
is checked and its leaf order worked out when it is made (``as_tree``), once for all its cuts and
comparisons. Also timed: building each tree and converting Genie's model (the checks and the leaf
order included), for scale.

Usage::

    CLUVAL_DATA_DIR=... python benchmarks/bench_trees.py
"""

from __future__ import annotations

import argparse

import genieclust

from cluval_core import compare
from cluval_core.algorithms.clustering import hierarchy
from cluval_core.core.trees import as_tree, cut_profile
from cluval_core.data.datasets import load_dataset
from timing import paired, timed

IDS = ["ari", "fowlkes_mallows"]
TARGET = 10.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--k-max", type=int, default=200)
    args = parser.parse_args()
    X = load_dataset("birch2").X
    single = hierarchy(X, "single")
    genie = as_tree(genieclust.Genie(n_clusters=1, gini_threshold=0.3).fit(X))
    a, b = single.cut(100), genie.cut(100)
    print(f"Birch2 (N = {len(X):,}): single link against Genie, medians of {args.repeats} alternating runs")
    print("| work | time | one flat comparison | ratio | target |")
    print("|---|---|---|---|---|")
    for bands, what in ((False, "values"), (True, "values and chance bands")):
        ours, flat, ratio = paired(lambda: cut_profile(single, genie, IDS, k_max=args.k_max, bands=bands),
                                   lambda: compare(a, b).scores(IDS), repeats=args.repeats)
        verdict = f"≤ {TARGET:g}x: {'met' if ratio <= TARGET else 'NOT met'}" if not bands else "-"
        print(f"| every cut k = 1 … {args.k_max}, ARI and FM, {what} | {ours:.3f} s | {flat:.4f} s | {ratio:.1f}x | "
              f"{verdict} |")
    print(f"| building the single-link tree | {timed(lambda: hierarchy(X, 'single'), 3):.2f} s | | | |")
    model = genieclust.Genie(n_clusters=1, gini_threshold=0.3)
    print(f"| building Genie's tree (genieclust) | {timed(lambda: model.fit(X), 3):.2f} s | | | |")
    print(f"| converting it (as_tree: its checks and leaf order) | {timed(lambda: as_tree(model), 3):.2f} s | | | |")


if __name__ == "__main__":
    main()
