"""Where the indices disagree, on real data: which of two clusterings is closer to the truth.

Gösgens, Tikhonov & Prokhorenkova (ICML 2021) show that the choice of index can change which
algorithm wins. This module measures it on the benchmark sets: each set is clustered by each
algorithm with the reference's number of clusters (:func:`battery_scores`), every index scores
every clustering against the reference, and then

* :func:`disagreement`: for every pair of indices, the share of the pairs of clusterings of one
  set (two algorithms, one seed) that both indices order strictly and order the other way
  round: how often they disagree about which clustering is closer to the truth;
* :func:`rankings`: for one index, each algorithm's rank on each set (1 for the best, ties
  sharing their mean rank), the mean rank over the sets, Friedman's test that all algorithms
  rank alike, and the Nemenyi critical difference of the mean ranks (Demšar 2006), below
  which two algorithms cannot be told apart (:func:`critical_difference`).

:data:`REDUCED` takes seconds (small sets, the fast algorithms, one seed); :data:`FULL` takes
minutes (every set up to 10 000 points, every algorithm that takes a number of clusters, three
seeds). Both are deterministic: the same battery gives the same frames.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import pandas as pd
from scipy import stats

from ..algorithms.clustering import cluster
from ..core.labels import compare
from ..core.registry import INDICES, index_ids
from ..core.validation import CluvalError
from ..data.datasets import load_dataset
from .checks import Progress, report

__all__ = ["Battery", "REDUCED", "FULL", "battery_scores", "disagreement", "rankings", "critical_difference",
           "preferences", "ranked_pairs", "winners", "Rankings"]

KEYS = ["dataset", "algorithm", "seed"]  # the columns that name one clustering of a battery


@dataclass(frozen=True)
class Battery:
    """Which sets, clustered by which algorithms with which seeds."""

    datasets: tuple[str, ...]
    algorithms: tuple[str, ...]
    seeds: tuple[int, ...] = (0,)

    @property
    def runs(self) -> int:
        return len(self.datasets) * len(self.algorithms) * len(self.seeds)


REDUCED = Battery(datasets=("aggregation", "compound", "flame", "jain", "pathbased", "spiral", "r15", "iris", "wine",
                            "glass", "ecoli"),
                  algorithms=("kmeans++", "ward", "average", "complete", "single", "gmm"))
FULL = Battery(datasets=("s1", "s2", "s3", "s4", "unbalance", "aggregation", "compound", "a1", "a2", "a3", "d31",
                         "r15", "flame", "jain", "pathbased", "spiral", "yeast", "wine", "ecoli", "glass", "iris"),
               algorithms=("kmeans", "kmeans++", "random_swap", "ward", "average", "complete", "single", "gmm", "fcm"),
               seeds=(0, 1, 2))


def battery_scores(battery: Battery = REDUCED, ids=None, *, progress: Progress = None) -> pd.DataFrame:
    """Every index of every clustering of the battery against its set's reference partition.

    One row per clustering (columns ``dataset``, ``algorithm``, ``seed``, ``k``, then one column
    per index id); the clusterings have the reference's number of clusters. `progress(fraction,
    message)` is called after each clustering.
    """
    if not isinstance(battery, Battery):
        raise CluvalError(f"battery must be a Battery (REDUCED, FULL or your own), got {battery!r}")
    if not battery.runs:
        raise CluvalError("the battery is empty: name at least one data set, algorithm and seed")
    ids = index_ids(ids)
    rows, done = [], 0
    for name in battery.datasets:
        data = load_dataset(name)
        for algorithm in battery.algorithms:
            for seed in battery.seeds:
                labels = cluster(data.X, algorithm, data.k, seed=seed).labels
                rows.append({"dataset": name, "algorithm": algorithm, "seed": seed, "k": data.k,
                             **compare(data.labels, labels, X=data.X).scores(ids)})
                done += 1
                report(progress, done / battery.runs, f"{name}: {algorithm}, seed {seed}")
    return pd.DataFrame(rows)


def _check_scores(scores, ids=None) -> list[str]:
    if not isinstance(scores, pd.DataFrame) or not set(KEYS) <= set(scores.columns) or scores.empty:
        raise CluvalError("scores must be a DataFrame of battery_scores: the columns dataset, algorithm, seed and "
                          "one per index id")
    present = [c for c in scores.columns if c in INDICES]
    ids = present if ids is None else index_ids(ids)
    missing = [i for i in ids if i not in scores.columns]
    if missing:
        raise CluvalError(f"scores has no column for {', '.join(missing)}")
    if scores.duplicated(KEYS).any():
        raise CluvalError("scores names one clustering (dataset, algorithm, seed) twice")
    return ids


def preferences(scores: pd.DataFrame, ids=None) -> pd.DataFrame:
    """For every pair of clusterings of one set and seed (algorithms A and B) and every index:
    +1 when the index puts A closer to the truth, -1 when B, 0 on a tie or an undefined value.

    One row per pair (columns ``dataset``, ``seed``, ``A``, ``B``, then one per index id).
    """
    ids = _check_scores(scores, ids)
    rows = []
    for (name, seed), group in scores.groupby(["dataset", "seed"], sort=False):
        values = group.set_index("algorithm")[ids]
        for a, b in combinations(values.index, 2):
            row = {"dataset": name, "seed": seed, "A": a, "B": b}
            for i in ids:
                x, y = float(values.at[a, i]), float(values.at[b, i])
                better = np.sign(x - y) if INDICES[i].higher_is_better else np.sign(y - x)
                row[i] = 0 if math.isnan(better) else int(better)
            rows.append(row)
    return pd.DataFrame(rows, columns=["dataset", "seed", "A", "B", *ids])


def disagreement(scores: pd.DataFrame, ids=None) -> pd.DataFrame:
    """For every pair of indices, the share of the pairs of clusterings that both order strictly
    and that they order the other way round (0 on the diagonal; NaN where no pair is ordered by both).

    >>> scores = pd.DataFrame({"dataset": "d", "algorithm": ["x", "y", "z"], "seed": 0,
    ...                        "ari": [0.9, 0.5, 0.1], "vi": [0.2, 0.1, 0.3]})
    >>> float(disagreement(scores).loc["ari", "vi"])  # they order (x, y) apart, (x, z) and (y, z) alike
    0.3333333333333333
    """
    found = preferences(scores, ids)
    ids = list(found.columns[4:])
    signs = found[ids].to_numpy()
    out = np.full((len(ids), len(ids)), np.nan)
    for p, q in np.ndindex(len(ids), len(ids)):
        both = (signs[:, p] != 0) & (signs[:, q] != 0)
        if both.any():
            out[p, q] = float(np.mean(signs[both, p] != signs[both, q]))
    return pd.DataFrame(out, index=pd.Index(ids, name="index"), columns=ids)


def critical_difference(k: int, n: int, alpha: float = 0.05) -> float:
    """The Nemenyi critical difference of mean ranks for k algorithms on n sets (Demšar 2006):
    q_alpha sqrt(k (k + 1) / (6 n)), q_alpha the studentized range's quantile over sqrt(2).

    >>> round(critical_difference(5, 10), 3)  # Demšar's q_0.05 for k = 5 is 2.728
    1.929
    """
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 2:
        raise CluvalError(f"k must be a whole number of at least 2 algorithms, got {k!r}")
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise CluvalError(f"n must be a whole number of at least 1 data set, got {n!r}")
    if not isinstance(alpha, float) or not 0 < alpha < 1:
        raise CluvalError(f"alpha must be a number between 0 and 1, got {alpha!r}")
    q = stats.studentized_range.ppf(1 - alpha, k, np.inf) / math.sqrt(2)
    return float(q * math.sqrt(k * (k + 1) / (6 * n)))


@dataclass(frozen=True)
class Rankings:
    """The algorithms ranked by one index over the sets (see :func:`rankings`)."""

    index_id: str
    ranks: pd.DataFrame  # one row per set (and seed), one column per algorithm: 1 for the best
    mean_ranks: pd.Series  # over the rows, best first
    friedman: float  # the statistic, NaN with fewer than 3 algorithms or 2 rows
    p_value: float
    critical_difference: float  # Nemenyi, at alpha


def rankings(scores: pd.DataFrame, index_id: str, *, alpha: float = 0.05) -> Rankings:
    """Each algorithm's rank by `index_id` on each set and seed, the mean ranks, Friedman's test
    and the Nemenyi critical difference at `alpha`. A set where the index is undefined for some
    algorithm is left out.

    >>> scores = pd.DataFrame({"dataset": list("ppqq"), "algorithm": list("xyxy"), "seed": 0,
    ...                        "ari": [0.9, 0.5, 0.8, 0.8]})
    >>> rankings(scores, "ari").mean_ranks.to_dict()
    {'x': 1.25, 'y': 1.75}
    """
    _check_scores(scores, [index_id])
    wide = scores.pivot_table(index=["dataset", "seed"], columns="algorithm", values=index_id, sort=False,
                              dropna=False).dropna()
    wide = wide[[a for a in dict.fromkeys(scores["algorithm"]) if a in wide.columns]]
    if wide.empty:
        raise CluvalError(f"{index_id} is undefined on every set for some algorithm: nothing to rank")
    ranks = wide.rank(axis=1, ascending=not INDICES[index_id].higher_is_better, method="average")
    mean = ranks.mean().sort_values(kind="stable")
    k, n = ranks.shape[1], ranks.shape[0]
    statistic = p_value = math.nan
    if k >= 3 and n >= 2:
        statistic, p_value = (float(x) for x in stats.friedmanchisquare(*wide.to_numpy().T))
    cd = critical_difference(k, n, alpha) if k >= 2 else math.nan
    return Rankings(index_id, ranks, mean, statistic, p_value, cd)


def ranked_pairs(matrix: pd.DataFrame) -> pd.Series:
    """The pairs of indices of a :func:`disagreement` matrix, each once, most disagreeing first
    (a Series indexed by the two ids; pairs no clustering pair orders for both are left out).

    >>> matrix = pd.DataFrame([[0, 0.1, 0.4], [0.1, 0, 0.2], [0.4, 0.2, 0]], index=list("xyz"), columns=list("xyz"))
    >>> ranked_pairs(matrix).to_dict()
    {('x', 'z'): 0.4, ('y', 'z'): 0.2, ('x', 'y'): 0.1}
    """
    upper = np.triu(np.ones(matrix.shape, dtype=bool), 1)
    return matrix.where(upper).stack().dropna().sort_values(ascending=False, kind="stable").astype(float)


def winners(ranked: dict) -> dict:
    """{algorithm: the index ids that rank it first}, from {index id: :class:`Rankings`} (an algorithm
    tied for first counts for each index that ties it)."""
    out = {}
    for index_id, found in ranked.items():
        best = found.mean_ranks.iloc[0]
        for algorithm in found.mean_ranks.index[found.mean_ranks <= best]:
            out.setdefault(algorithm, []).append(index_id)
    return out
