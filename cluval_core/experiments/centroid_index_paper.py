"""Fränti, Rezaei & Zhao (2014), "Centroid index: cluster level similarity measure".

k-means on S1-S4, Unbalance and Birch2; single link on Compound; k-means and DBSCAN on
Aggregate; centroid-based and partition-based CI side by side.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..algorithms.clustering import cluster
from ..core.labels import compare
from ..data.datasets import load_dataset
from ..outputs.plots.experiments import centroid_index_boxes
from .checks import Experiment, ExperimentResult, Progress, check, checks_frame, report

__all__ = ["EXPERIMENTS", "UNBALANCE_KMEANS_CI", "kmeans_single_link_dbscan"]

# the paper's claims
UNBALANCE_KMEANS_CI = 4  # k-means on Unbalance: four clusters wrongly located (the typical run)
COMPOUND_SINGLE_LINK_CI = 3  # single link on Compound: three false clusters, each of one point
AGGREGATE_KMEANS_CI = 2  # k-means on Aggregate misses two clusters
AGGREGATE_DBSCAN_CI = 0  # DBSCAN on Aggregate finds every cluster

KMEANS_SETS = ("s1", "s2", "s3", "s4", "unbalance", "birch2")
DATASETS = (*KMEANS_SETS, "compound", "aggregation")


def kmeans_single_link_dbscan(full: bool = False, progress: Progress = None) -> ExperimentResult:
    """The centroid-index paper: k-means on S1-S4, Unbalance, Birch2; SL on Compound; Aggregate."""
    seeds = 50 if full else 5
    rows = []
    for i, name in enumerate(KMEANS_SETS):
        ds = load_dataset(name)
        for seed in range(seeds if name != "birch2" else max(2, seeds // 5)):
            labels = cluster(ds.X, "kmeans", ds.k, seed=seed).labels
            c = compare(ds.labels, labels, X=ds.X)
            rows.append({"data": name, "algorithm": "k-means", "seed": seed, "ci_centroid": c.score("ci_centroid"),
                         "ci_partition": c.score("ci_partition")})
        report(progress, (i + 1) / (len(KMEANS_SETS) + 2), name)
    compound = load_dataset("compound")
    sl = cluster(compound.X, "single", compound.k).labels
    c = compare(compound.labels, sl, X=compound.X)
    singletons = int((np.bincount(sl) == 1).sum())
    rows.append({"data": "compound", "algorithm": "single link", "seed": 0, "ci_centroid": c.score("ci_centroid"),
                 "ci_partition": c.score("ci_partition"), "singleton clusters": singletons})
    agg = load_dataset("aggregation")
    for seed in range(seeds):
        c = compare(agg.labels, cluster(agg.X, "kmeans", agg.k, seed=seed).labels, X=agg.X)
        rows.append({"data": "aggregation", "algorithm": "k-means", "seed": seed,
                     "ci_centroid": c.score("ci_centroid"), "ci_partition": c.score("ci_partition")})
    best = None
    for eps in (1.2, 1.5, 1.8):
        for min_samples in (5, 8, 10):
            db = cluster(agg.X, "dbscan", eps=eps, min_samples=min_samples).labels
            keep = db >= 0  # the paper leaves DBSCAN's outliers out
            ci = compare(agg.labels[keep], db[keep]).score("ci_partition")
            if best is None or ci < best[0]:
                best = (ci, eps, min_samples, int((~keep).sum()))
    rows.append({"data": "aggregation", "algorithm": f"DBSCAN (eps {best[1]}, min_samples {best[2]})", "seed": 0,
                 "ci_centroid": np.nan, "ci_partition": best[0], "outliers": best[3]})
    report(progress, 1.0, "done")
    values = pd.DataFrame(rows)
    km = values[values["algorithm"] == "k-means"]
    agree = float((km["ci_centroid"] == km["ci_partition"]).mean())
    unb = km[km["data"] == "unbalance"]
    checks = [
        check("centroid- and partition-based CI mostly agree (share of k-means runs)", 1.0, agree, 0.1,
              "the two mappings differ for clusters whose centroid lies in another cluster"),
        check(f"k-means on Unbalance: CI = {UNBALANCE_KMEANS_CI} (typical run; share of seeds)", 1.0,
              float((unb["ci_centroid"] == UNBALANCE_KMEANS_CI).mean()), 0.5,
              "k-means from random starts is multi-modal"),
        check(f"single link on Compound: CI = {COMPOUND_SINGLE_LINK_CI}", COMPOUND_SINGLE_LINK_CI,
              float(values.loc[values["data"] == "compound", "ci_partition"].iloc[0]), 0),
        check(f"single link on Compound: {COMPOUND_SINGLE_LINK_CI} false clusters of one point",
              COMPOUND_SINGLE_LINK_CI, singletons, 0),
        check(f"k-means on Aggregate misses {AGGREGATE_KMEANS_CI} clusters: CI = {AGGREGATE_KMEANS_CI} "
              "(median over seeds)", AGGREGATE_KMEANS_CI,
              float(km[km["data"] == "aggregation"]["ci_centroid"].median()), 0,
              "k-means from random starts finds most of Aggregate's seven groups in most runs here; the "
              "paper shows a single run"),
        check(f"DBSCAN on Aggregate: CI = {AGGREGATE_DBSCAN_CI} (best of a small parameter grid, outliers left out)",
              AGGREGATE_DBSCAN_CI, best[0], 0,
              "the paper gives no DBSCAN parameters; here the bridges between touching clusters merge them "
              "for every (eps, min_samples) tried"),
    ]
    fig = centroid_index_boxes(values)
    return ExperimentResult(values, checks_frame(checks), fig, [f"{seeds} k-means seeds per data set."])


EXPERIMENTS = [
    Experiment("centroid_index_paper", "Centroid-index paper (k-means, single link, DBSCAN)",
               "Fränti, Rezaei & Zhao 2014",
               "Centroid- and partition-based CI for k-means on S1–S4, Unbalance, Birch2; single link on Compound; "
               "DBSCAN and k-means on Aggregate.", kmeans_single_link_dbscan, 21, "5 seeds per data set",
               datasets=DATASETS),
]
