"""Experiments from the papers, each returning a tidy DataFrame of computed values.

These power the app's teaching pages (scenario curves, the PSI-versus-ARI demonstrations)
and the reproduction of the papers' tables and figures.
"""

from __future__ import annotations

from typing import Callable

import numpy as np
import pandas as pd

from .clustering import cluster
from .comparison import Comparison, compare
from .contingency import factorize
from .registry import INDICES
from .synthetic import SCENARIOS, unbalance_like

__all__ = ["soft_versus_crisp", "SOFT_INDICES", "scenario_curve", "algorithms_on", "sparse_cluster_curve", "remove_smallest_classes",
           "PAPER_INDICES"]

PAPER_INDICES = ["ari", "nmi_sum", "nvd", "psi"]
Progress = Callable[[float, str], None] | None
# indices that need no coordinates: what a partition pair alone can give
LABEL_INDICES = [i for i, info in INDICES.items() if not info.needs_data]


SOFT_INDICES = ["nmi_sum", "nmi_sqrt", "nmi_max", "nmi_min", "nmi_joint", "vi", "nvi", "ri", "ari", "psi"]


def soft_versus_crisp(labels_true, memberships, ids=None):
    """A crisp reference against a soft candidate: the soft table N* = U^T V (U one-hot) and the
    hardened one (each object to its largest membership), and each index on both.

    Returns ``(soft comparison, hardened comparison, frame)``; the frame has one row per
    index with its soft value, its crisp value and their difference.

    N* = [[1.5, 0.5], [0.2, 1.8]]: a = 0.89, b = 1.11, c = 1.2, d = 2.8 pairs, so soft ARI = 2(ad - bc)/16.18.

    >>> V = [[0.9, 0.1], [0.6, 0.4], [0.2, 0.8], [0.0, 1.0]]
    >>> soft, hard, frame = soft_versus_crisp([0, 0, 1, 1], V, ["ari"])
    >>> hard.score("ari"), round(soft.score("ari"), 4)
    (1.0, 0.1434)
    """
    ids = list(ids or SOFT_INDICES)
    V = np.asarray(memberships, dtype=float)
    codes, _ = factorize(np.asarray(labels_true))
    U = np.zeros((len(codes), codes.max() + 1))
    U[np.arange(len(codes)), codes] = 1.0
    soft = Comparison.from_memberships(U, V)
    hard = compare(labels_true, V.argmax(axis=1))
    rows = [{"index": INDICES[i].name, "id": i, "soft": soft.score(i), "crisp (hardened)": hard.score(i)}
            for i in ids]
    frame = pd.DataFrame(rows)
    frame["soft - crisp"] = frame["soft"] - frame["crisp (hardened)"]
    return soft, hard, frame


def scenario_curve(key: str, ids=None, *, seed: int = 0, progress: Progress = None) -> pd.DataFrame:
    """Every index over the whole range of a :data:`~cluval_core.synthetic.SCENARIOS` entry.

    >>> frame = scenario_curve("error", ["psi", "nvd"])
    >>> frame[["wrong objects per cluster", "psi", "nvd"]].head(3).round(3).values.tolist()
    [[0.0, 1.0, 0.0], [50.0, 0.925, 0.05], [100.0, 0.85, 0.1]]
    """
    scenario = SCENARIOS[key]
    ids = list(ids or LABEL_INDICES)
    rows = []
    for i, value in enumerate(scenario.values):
        g, p = scenario.make(value, seed)[:2]
        rows.append({scenario.parameter: value, **compare(g, p).scores(ids)})
        if progress is not None:
            progress((i + 1) / len(scenario.values), f"{scenario.parameter} = {value}")
    return pd.DataFrame(rows)


def _summary(truth, labels, X, ids):
    c = compare(truth, labels, X=X)
    return c.scores(ids)


def algorithms_on(X, truth, k, algorithms, *, seed: int = 0, ids=None, progress: Progress = None):
    """Cluster X with each algorithm and compare with `truth`.

    Returns ``(frame, labels)``: one row of index values per algorithm, and each
    algorithm's labels (for plotting).
    """
    ids = list(ids or PAPER_INDICES + ["ci_centroid"])
    rows, labels = [], {}
    for i, (name, algorithm, params) in enumerate(algorithms):
        result = cluster(X, algorithm, k, seed=seed, **params)
        labels[name] = result.labels
        rows.append({"algorithm": name, **_summary(truth, result.labels, X, ids), "seconds": result.seconds})
        if progress is not None:
            progress((i + 1) / len(algorithms), f"{name} done")
    return pd.DataFrame(rows), labels


def sparse_cluster_curve(sparse_sizes, *, lost: int = 10, seed: int = 0, ids=None) -> pd.DataFrame:
    """The same small error on ever smaller clusters: ARI hardly moves, PSI falls.

    On Unbalance-like sets whose five sparse clusters shrink through `sparse_sizes`, the
    candidate is the ground truth except that every sparse cluster loses its `lost` points
    nearest to a dense cluster to that dense cluster (what k-means does when a dense
    cluster's centroid reaches into the sparse region). The misplaced points are the same
    few dozen throughout; what changes is the share of each small cluster they represent.
    """
    ids = list(ids or PAPER_INDICES + ["ci_partition"])
    rows = []
    for size in sparse_sizes:
        X, truth = unbalance_like(sparse_size=int(size), seed=seed)
        dense = np.unique(truth)[:3]
        centres = np.array([X[truth == c].mean(0) for c in dense])
        candidate = truth.copy()
        for c in np.unique(truth)[3:]:
            members = np.flatnonzero(truth == c)
            d = ((X[members][:, None] - centres[None]) ** 2).sum(-1)
            nearest = d.min(1).argsort(kind="stable")[:lost]
            candidate[members[nearest]] = dense[d[nearest].argmin(1)]
        rows.append({"sparse cluster size": int(size), "misplaced": int((candidate != truth).sum()),
                     **compare(truth, candidate).scores(ids)})
    return pd.DataFrame(rows)


def remove_smallest_classes(labels, *, removals: int = 3, seeds: int = 100, X=None, mode: str = "random",
                            ids=None) -> pd.DataFrame:
    """PSI paper, Table 7: remove the smallest class, then the next, ..., redistributing its
    objects, and compare each result with the original partition.

    ``mode="random"`` sends every removed object to a uniformly random remaining class
    (averaged over `seeds` draws); ``mode="nearest"`` sends it to the remaining class with
    the nearest centroid in X (deterministic).
    """
    ids = list(ids or PAPER_INDICES)
    labels = np.asarray(labels)
    classes, sizes = np.unique(labels, return_counts=True)
    order = classes[np.argsort(sizes, kind="stable")]
    rows = []
    for r in range(1, removals + 1):
        removed, remaining = order[:r], np.setdiff1d(classes, order[:r])
        moved = np.isin(labels, removed)
        if mode == "nearest":
            if X is None:
                raise ValueError("mode='nearest' needs X")
            centres = np.array([X[labels == c].mean(0) for c in remaining])
            new = labels.copy()
            new[moved] = remaining[((X[moved][:, None] - centres[None]) ** 2).sum(-1).argmin(1)]
            values = compare(labels, new).scores(ids)
            rows.append({"K": len(remaining), **values})
            continue
        draws = []
        for seed in range(seeds):
            new = labels.copy()
            new[moved] = np.random.default_rng(seed).choice(remaining, size=int(moved.sum()))
            draws.append(compare(labels, new).scores(ids))
        frame = pd.DataFrame(draws)
        rows.append({"K": len(remaining), **frame.mean().to_dict(),
                     **{f"{i} sd": frame[i].std() for i in ids}})
    return pd.DataFrame(rows)
