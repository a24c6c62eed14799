"""Many clusterings of one data set: runs over seeds or over k, the stability curve over k, and
which solutions the indices agree are the most stable.

:func:`cluster_many` runs one algorithm (through :func:`~cluval_core.clustering.cluster`)
over a range of seeds or a range of k and returns the named partitions, ready for
:func:`~cluval_core.compare_many`. :func:`stability_curve` chooses the number of clusters by
stability, as the PSI paper does for its Fig. 25, with any index of the registry.
:func:`most_stable` reads the pairwise matrices of :func:`~cluval_core.compare_many` and says
which solutions agree most with the others, index by index. Every function validates its
arguments first and estimates the work of all its runs together: work beyond the budget is
refused before the first run, with what to change.

Notes
-----
**Stability curve** (Rezaei & Fränti 2016, section 7.8, after Lange et al. 2004). For each
k, the whole data set X is clustered into k clusters (partition :math:`P_k`); then each of
S random subsets :math:`X_s` (drawn once, without replacement, at the sampling rate r:
:math:`\\lfloor rN \\rfloor` points) is clustered into k clusters on its own
(:math:`Q_{k,s}`), and compared by an external index with the whole data's partition
restricted to the subset, :math:`P_k|_{X_s}` (the reference):

.. math:: \\mathrm{stability}(k) = \\frac{1}{S} \\sum_{s=1}^{S} \\mathrm{index}(P_k|_{X_s}, Q_{k,s})

The chosen k is the most stable one: the highest stability for a similarity, the **lowest**
for a distance (the registry's ``higher_is_better``), the smallest k on a tie.

**Most stable solutions.** Given the pairwise matrices :math:`M^{(i)}` of P solutions (entry
(p, q): index i with p as the reference and q as the candidate), solution p's agreement with
the others under index i is the mean over the other solutions of both directions,

.. math:: a_i(p) = \\frac{1}{P - 1} \\sum_{q \\ne p} \\tfrac12 \\left(M^{(i)}_{pq} + M^{(i)}_{qp}\\right)

(the plain mean for a symmetric index). Each index ranks the solutions by it, 1 for the most
stable (the highest agreement for a similarity, the lowest for a distance; tied solutions
share the better rank). The solutions the indices **agree** are most stable are those ranked
first by every index; the table is ordered by the mean rank over the indices. A NaN value
(an index undefined on some pair) makes that solution's agreement NaN and leaves it unranked
by that index.

References
----------
M. Rezaei and P. Fränti, "Set matching measures for external cluster validity", IEEE TKDE
28(8), 2016, section 7.8 and Fig. 25. T. Lange, V. Roth, M. L. Braun and J. M. Buhmann,
"Stability-based validation of clustering solutions", Neural Computation 16(6), 2004.

Examples
--------
Two runs that find the same partition (labelled differently) and a third that splits it
three ways: the two that agree are the most stable, for a similarity and for a distance.

>>> from cluval_core import compare_many
>>> runs = {"seed 0": [0, 0, 0, 1, 1, 1], "seed 1": [1, 1, 1, 0, 0, 0], "seed 2": [0, 0, 1, 1, 2, 2]}
>>> verdict = most_stable(compare_many(runs, ["ari", "vi"]))
>>> verdict.index[verdict["agreed"]].tolist()
['seed 0', 'seed 1']
>>> verdict.loc["seed 2", ["ari rank", "vi rank"]].tolist()
[3.0, 3.0]
"""

from __future__ import annotations

import math
import numbers
import time
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..core.labels import compare
from ..core.registry import INDICES, index_ids
from ..core.validation import CluvalError
from .clustering import (
    DEFAULT_BUDGET,
    INTERACTIVE_BUDGET,
    MAX_SEED,
    Budget,
    _algorithm,
    _as_points,
    _bytes_text,
    _check_budget,
    _describe,
    _seconds_text,
    cluster,
    estimate_cost,
    interactive_defaults,
)

__all__ = ["SAMPLING_RATE", "SUBSETS", "MAX_RUNS", "MAX_SUBSETS", "StabilityCurve", "cluster_many",
           "stability_curve", "curve_run_costs", "mean_agreement", "rank_solutions", "most_stable", "leaders",
           "interactive_parameters"]

SAMPLING_RATE = 0.2  # the PSI paper's sampling rate for Fig. 25
SUBSETS = 10  # ... and its number of subsets
MAX_RUNS = 1000  # the most clustering runs one call makes (the budget usually refuses far fewer)
MAX_SUBSETS = 100
# Subset s at k is clustered with seed SUBSET_SEED_STEP * s + k; the whole data at k with seed k.
SUBSET_SEED_STEP = 1000


@dataclass(frozen=True, eq=False)
class StabilityCurve:
    """What :func:`stability_curve` found.

    Attributes
    ----------
    values : DataFrame
        One row per k: column ``k``, then each index's stability (its mean over the subsets).
    runs : DataFrame
        One row per (k, subset): ``k``, ``subset`` (from 0) and each index's value.
    best_k : dict
        Index id -> the most stable k (highest stability for a similarity, lowest for a
        distance; the smallest k on a tie; None where every value is NaN).
    partitions : dict
        ``"k=2"``, ``"k=3"``, ... -> the whole data's partition with that k (labels 0..k-1),
        ready for :func:`~cluval_core.compare_many`.
    ids, ks, subsets, rate, seed, algorithm, params
        The settings of the run (``params``: the algorithm's parameters as given).
    seconds : float
        The wall time the clustering runs and the comparisons took.
    """

    values: pd.DataFrame
    runs: pd.DataFrame
    best_k: dict
    partitions: dict
    ids: tuple
    ks: tuple
    subsets: int
    rate: float
    seed: int
    algorithm: str
    params: dict = field(default_factory=dict)
    seconds: float = math.nan

    @property
    def agreed_k(self) -> int | None:
        """The smallest k that every index finds most stable (sharing the best value counts), or
        None when no k is."""
        ranking = self.ranking()
        agreed = ranking.index[ranking["agreed"]]
        return min(int(name.removeprefix("k=")) for name in agreed) if len(agreed) else None

    def ranking(self, ids=None) -> pd.DataFrame:
        """The values of k ranked by the stability under each of `ids` (default: all of the curve's),
        as :func:`rank_solutions` ranks them; rows ``k=2``, ``k=3``, ..."""
        ids = list(self.ids) if ids is None else index_ids(ids, repeats=False)
        missing = [i for i in ids if i not in self.ids]
        if missing:
            raise CluvalError(f"this curve has no values of {', '.join(missing)}; it has {', '.join(self.ids)}")
        scores = self.values.set_index("k")[ids]
        scores.index = pd.Index([f"k={k}" for k in scores.index], name="solution")
        return rank_solutions(scores)


# ---------------------------------------------------------------------- validation
def _whole_numbers(name: str, values, low: int, high: int | None, at_least: int) -> list[int]:
    """`values` as a list of distinct whole numbers in [low, high], at least `at_least` of them."""
    accepted = f"distinct whole numbers from {low}" + (f" to {high}" if high is not None else "")
    if isinstance(values, (str, bytes, Mapping)) or not hasattr(values, "__iter__"):
        raise CluvalError(f"{name} must be a sequence of {accepted} (e.g. range(2, 11)), got {_describe(values)}")
    values = list(values)
    for value in values:
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Integral, np.integer)) \
                or value < low or (high is not None and value > high):
            raise CluvalError(f"{name} must hold {accepted}, got {_describe(value)} in {_describe(values)}")
    values = [int(v) for v in values]
    if len(set(values)) < len(values):
        repeated = sorted({v for v in values if values.count(v) > 1})
        raise CluvalError(f"{name} must hold distinct values, got {', '.join(map(str, repeated))} more than once")
    if len(values) < at_least:
        raise CluvalError(f"{name} must hold at least {at_least} values, got {len(values)}: {_describe(values)}")
    if len(values) > MAX_RUNS:
        raise CluvalError(f"{name} holds {len(values):,} values, more than the {MAX_RUNS:,} runs cluval makes in "
                          "one call")
    return values


def _whole(name: str, value, low: int, high: int) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Integral, np.integer)) \
            or not low <= value <= high:
        raise CluvalError(f"{name} must be a whole number from {low} to {high}, got {_describe(value)}")
    return int(value)


def _check_work(X, algo, plan, budget: Budget, stored: float, what: str, remedy: str) -> None:
    """Refuse `plan` ((points, k, count, params) per kind of run) when its runs together exceed `budget`.

    Each run is estimated by :func:`~cluval_core.clustering.estimate_cost` (arguments checked
    as by ``cluster``); the runs follow each other, so their seconds add up and the memory is
    the largest run's plus `stored` bytes of labels kept.
    """
    seconds, memory, runs = 0.0, 0.0, 0
    for points, k, count, params in plan:
        cost = estimate_cost(points, algo.key, k, **params)
        seconds += count * cost.seconds
        memory = max(memory, cost.memory)
        runs += count
    memory += stored
    if seconds <= budget.seconds and memory <= budget.memory:
        return
    over = []
    if seconds > budget.seconds:
        over.append(f"about {_seconds_text(seconds)}, more than the budget of {_seconds_text(budget.seconds)}")
    if memory > budget.memory:
        over.append(f"about {_bytes_text(memory)} of memory, more than the budget of {_bytes_text(budget.memory)}")
    raise CluvalError(f"{what} ({runs:,} runs of {algo.name} on {len(X):,} points) would need {' and '.join(over)}, "
                      f"so nothing was started: {remedy}, or {algo.remedy}; to allow it, pass "
                      "budget=Budget(seconds=..., memory=...)")


# ---------------------------------------------------------------------- many runs
def cluster_many(X, algorithm: str, *, seeds=None, ks=None, k: int | None = None, seed: int = 0,
                 budget: Budget = DEFAULT_BUDGET, progress=None, **params) -> dict[str, np.ndarray]:
    """Run one algorithm over a range of seeds (k fixed) or over a range of k (seed fixed).

    Every run goes through :func:`~cluval_core.clustering.cluster`; the runs' estimated time
    and memory are added up first, and work beyond `budget` is refused before any run.

    Parameters
    ----------
    X : array-like (N, d)
        The points.
    algorithm : str
        A key of :data:`~cluval_core.clustering.ALGORITHMS`. Over seeds: one whose result
        depends on the seed (not Ward, single, average, complete link or DBSCAN); over k: one
        that takes k (not DBSCAN).
    seeds : sequence of int, optional
        At least 2 distinct seeds from 0 to 2**32 - 1; each run uses `k` clusters.
    ks : sequence of int, optional
        At least 2 distinct numbers of clusters; each run uses `seed`. Give `seeds` or `ks`.
    k : int
        The number of clusters of every run over seeds.
    seed : int
        The seed of every run over k.
    budget : Budget
        The most time and memory all the runs together may take (60 s, 2 GiB by default).
    progress : callable(done, total), optional
        Called after each run.
    **params
        The algorithm's parameters, the same for every run.

    Returns
    -------
    dict
        ``"seed 0"``, ``"seed 1"``, ... or ``"k=2"``, ``"k=3"``, ... -> labels (0..k-1), in
        the order of `seeds` or `ks`.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.r_[np.zeros((5, 2)), np.ones((5, 2)) * 10, np.ones((5, 2)) * [0, 10]]
    >>> runs = cluster_many(X, "kmeans++", seeds=[0, 1, 2], k=3)
    >>> list(runs), [len(set(labels.tolist())) for labels in runs.values()]
    (['seed 0', 'seed 1', 'seed 2'], [3, 3, 3])
    >>> cluster_many(X, "ward", seeds=[0, 1], k=3)
    Traceback (most recent call last):
    ...
    cluval_core.CluvalError: Agglomerative, Ward gives the same clustering for every seed: vary k instead (ks=...)
    """
    algo = _algorithm(algorithm)
    budget = _check_budget(budget)
    X = _as_points(X)
    if (seeds is None) == (ks is None):
        raise CluvalError("give seeds (runs that differ by their random start, with k) or ks (runs that differ by "
                          f"their number of clusters), not {'both' if seeds is not None else 'neither'}")
    if seeds is not None:
        if algo.deterministic:
            what = "vary k instead (ks=...)" if algo.needs_k else "so the runs cannot differ"
            raise CluvalError(f"{algo.name} gives the same clustering for every seed: {what}")
        seeds = _whole_numbers("seeds", seeds, 0, MAX_SEED, 2)
        if algo.needs_k and k is None:
            raise CluvalError("k is needed with seeds: the number of clusters of every run")
        runs = [(f"seed {s}", k, s) for s in seeds]
        plan = [(X, k, len(seeds), params)]
        remedy = "choose fewer seeds"
    else:
        if not algo.needs_k:
            raise CluvalError(f"{algo.name} finds the number of clusters itself, so it cannot be run over k")
        if k is not None:
            raise CluvalError(f"k must not be given with ks (each run takes its k from ks), got k={_describe(k)}")
        ks = _whole_numbers("ks", ks, 1, None, 2)
        runs = [(f"k={value}", value, seed) for value in ks]
        plan = [(X, value, 1, params) for value in ks]
        remedy = "choose fewer values of k, or smaller ones"
    _check_work(X, algo, plan, budget, 8.0 * len(X) * len(runs), "These runs", remedy)
    out = {}
    for done, (name, run_k, run_seed) in enumerate(runs, 1):
        out[name] = cluster(X, algo.key, run_k, seed=run_seed, budget=budget, **params).labels
        if progress is not None:
            progress(done, len(runs))
    return out


def stability_curve(X, algorithm: str, ks, ids=("ari", "psi"), *, subsets: int = SUBSETS,
                    rate: float = SAMPLING_RATE, seed: int = 0, budget: Budget = DEFAULT_BUDGET, progress=None,
                    **params) -> StabilityCurve:
    """The stability of each number of clusters k over random subsets (the PSI paper's Fig. 25).

    For each k the whole of X is clustered, and so is each of `subsets` random subsets of
    ``floor(rate * N)`` points; each subset's clustering is compared with the whole data's
    clustering restricted to the subset (the reference) by every index in `ids`, and the
    stability is the mean over the subsets (formula in the module's Notes). The most stable
    k is the highest for a similarity, the lowest for a distance.

    Parameters
    ----------
    X : array-like (N, d)
        The points.
    algorithm : str
        A key of :data:`~cluval_core.clustering.ALGORITHMS` that takes k (not DBSCAN).
    ks : sequence of int
        At least 2 distinct values of k from 2 up to the subsets' size (k = 1 is trivially
        stable).
    ids : str or sequence of str
        Any index ids of the registry (:data:`cluval_core.INDICES`); indices that need the
        coordinates are given the subset's points.
    subsets : int
        Number of random subsets, 1 to 100 (the paper: 10).
    rate : float
        Sampling rate, strictly between 0 and 1 (the paper: 0.2).
    seed : int
        Draws the subsets (numpy's ``default_rng(seed)``). The runs have seeds of their own:
        k for the whole data, ``1000 * s + k`` for subset s (from 0), so that every run can be
        repeated with :func:`~cluval_core.clustering.cluster`.
    budget : Budget
        The most time and memory all the runs together may take (60 s, 2 GiB by default).
    progress : callable(done, total), optional
        Called after each clustering run.
    **params
        The algorithm's parameters, the same for every run.

    Returns
    -------
    StabilityCurve
        ``values`` (stability per k and index), ``runs`` (every subset's value),
        ``best_k`` (the most stable k per index), ``partitions`` (the whole data's
        clustering at each k).

    Examples
    --------
    Three tight groups far apart: three clusters are found again on every subset.

    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = np.concatenate([rng.normal(centre, 0.3, (40, 2)) for centre in ([0, 0], [10, 0], [5, 9])])
    >>> curve = stability_curve(X, "kmeans++", [2, 3, 4, 5], ["ari", "vi"], subsets=4, rate=0.5)
    >>> curve.best_k, curve.agreed_k
    ({'ari': 3, 'vi': 3}, 3)
    >>> curve.values.loc[curve.values["k"] == 3, ["ari", "vi"]].values.tolist()
    [[1.0, 0.0]]
    """
    algo = _algorithm(algorithm)
    budget = _check_budget(budget)
    X = _as_points(X)
    if not algo.needs_k:
        raise CluvalError(f"{algo.name} finds the number of clusters itself: the stability curve varies k, so it "
                          "needs an algorithm that takes k")
    ids = index_ids(ids, repeats=False)
    ks = _whole_numbers("ks", ks, 2, None, 2)
    subsets = _whole("subsets", subsets, 1, MAX_SUBSETS)
    if isinstance(rate, (bool, np.bool_)) or not isinstance(rate, (numbers.Real, np.floating)) \
            or not (math.isfinite(rate) and 0 < rate < 1):
        raise CluvalError(f"rate must be a sampling rate strictly between 0 and 1 (the paper: 0.2), got "
                          f"{_describe(rate)}")
    rate = float(rate)
    seed = _whole("seed", seed, 0, MAX_SEED)
    n = len(X)
    size = int(rate * n)
    if size < max(ks):
        raise CluvalError(f"rate {rate:g} of {n:,} points gives subsets of {size:,} points, fewer than the largest k "
                          f"({max(ks)}): choose a higher rate or smaller values of k")
    if SUBSET_SEED_STEP * (subsets - 1) + max(ks) > MAX_SEED:
        raise CluvalError(f"ks reaches {max(ks)}: the subsets' seeds (1000 s + k) would pass {MAX_SEED}")
    rng = np.random.default_rng(seed)
    samples = [np.sort(rng.choice(n, size=size, replace=False)) for _ in range(subsets)]
    plan = [(X, k, 1, params) for k in ks] + [(X[samples[0]], k, subsets, params) for k in ks]
    _check_work(X, algo, plan, budget, 8.0 * (n + size) * len(ks), "This stability curve",
                "choose fewer values of k, fewer subsets or a lower rate")
    with_points = any(INDICES[i].needs_data for i in ids)
    start = time.perf_counter()
    total = len(ks) * (1 + subsets)
    rows, partitions, done = [], {}, 0
    for k in ks:
        whole = cluster(X, algo.key, k, seed=k, budget=budget, **params).labels
        partitions[f"k={k}"] = whole
        done += 1
        if progress is not None:
            progress(done, total)
        for s, sample in enumerate(samples):
            part = cluster(X[sample], algo.key, k, seed=SUBSET_SEED_STEP * s + k, budget=budget, **params).labels
            scores = compare(whole[sample], part, X=X[sample] if with_points else None).scores(ids)
            rows.append({"k": k, "subset": s, **scores})
            done += 1
            if progress is not None:
                progress(done, total)
    runs = pd.DataFrame(rows, columns=["k", "subset", *ids])
    # the mean over the subsets; NaN where some subset's value is NaN (an index undefined there)
    values = runs.groupby("k", sort=False)[ids].agg(lambda column: column.mean(skipna=False)).reset_index()
    best = {}
    for index_id in ids:
        column = values[index_id]
        if column.isna().all():
            best[index_id] = None
            continue
        target = column.max() if INDICES[index_id].higher_is_better else column.min()
        best[index_id] = int(values.loc[column == target, "k"].min())
    return StabilityCurve(values, runs, best, partitions, tuple(ids), tuple(ks), subsets, rate, seed, algo.key,
                          dict(params), time.perf_counter() - start)


def curve_run_costs(X, algorithm: str, ks, *, subsets: int = SUBSETS, rate: float = SAMPLING_RATE,
                    **params) -> list[float]:
    """The estimated seconds of each clustering run of :func:`stability_curve`, in the order it
    makes them (for each k: the whole data, then each subset), from
    :func:`~cluval_core.clustering.estimate_cost`: the relative weights of the runs, for a
    progress bar whose steps are of unequal cost (the estimates themselves are generous).

    >>> import numpy as np
    >>> X = np.random.default_rng(0).random((1000, 2))
    >>> costs = curve_run_costs(X, "kmeans++", [2, 8], subsets=2, rate=0.5)
    >>> len(costs), costs[0] < costs[3], costs[1] == costs[2] < costs[0]
    (6, True, True)
    """
    X = _as_points(X)
    size = max(int(rate * len(X)), 1)
    costs = []
    for k in ks:
        costs.append(estimate_cost(X, algorithm, k, **params).seconds)
        costs += [estimate_cost(X[:size], algorithm, k, **params).seconds] * subsets
    return costs


# ---------------------------------------------------------------------- the most stable solutions
def mean_agreement(matrices) -> pd.DataFrame:
    """Each solution's mean agreement with the others, per index (formula in the module's Notes).

    Parameters
    ----------
    matrices : dict id -> DataFrame
        Square matrices, as :func:`~cluval_core.compare_many` returns them: rows and columns
        the same solutions in the same order, entry (p, q) the index with p as the reference.

    Returns
    -------
    DataFrame
        One row per solution, one column per index: the mean, over the other solutions, of
        the index in both directions (the diagonal is left out).

    Examples
    --------
    >>> from cluval_core import compare_many
    >>> m = compare_many({"a": [0, 0, 1, 1], "b": [0, 0, 1, 2], "c": [0, 1, 0, 1]}, ["ari"])
    >>> mean_agreement(m)["ari"].round(4).tolist()  # a: (4/7 - 1/2) / 2, b: (4/7 - 2/7) / 2, c: (-1/2 - 2/7) / 2
    [0.0357, 0.1429, -0.3929]
    """
    if not isinstance(matrices, Mapping) or not matrices:
        raise CluvalError(f"matrices must be a dict of index id -> square DataFrame (compare_many's result), got "
                          f"{_describe(matrices)}")
    names = None
    out = {}
    for index_id, matrix in matrices.items():
        index_ids([index_id])
        if not isinstance(matrix, pd.DataFrame) or matrix.shape[0] != matrix.shape[1] \
                or list(matrix.index) != list(matrix.columns):
            raise CluvalError(f"matrices[{index_id!r}] must be a square DataFrame with the same solutions as rows and "
                              f"columns, got {type(matrix).__name__} of shape {getattr(matrix, 'shape', None)}")
        if names is None:
            names = list(matrix.index)
        elif list(matrix.index) != names:
            raise CluvalError(f"matrices[{index_id!r}] compares other solutions than the first matrix: every matrix "
                              "must have the same rows and columns")
        if len(names) < 2:
            raise CluvalError(f"mean agreement needs at least 2 solutions, got {len(names)}")
        values = matrix.to_numpy(dtype=float)
        both = (values + values.T) / 2
        np.fill_diagonal(both, 0.0)
        out[index_id] = both.sum(axis=1) / (len(names) - 1)  # NaN anywhere in a row stays NaN
    return pd.DataFrame(out, index=pd.Index(names, name="solution"))


def rank_solutions(scores: pd.DataFrame) -> pd.DataFrame:
    """Rank solutions by each index's score and say which every index puts first.

    Parameters
    ----------
    scores : DataFrame
        One row per solution, one column per index id: a score where the registry's
        direction says which is better (:func:`mean_agreement`, or the stability of each k).

    Returns
    -------
    DataFrame
        Indexed by solution, ordered by ``mean rank`` (ties keep the given order): for each
        index its score (column ``id``) and its rank (``id rank``: 1 for the most stable, the
        highest similarity or the lowest distance; tied solutions share the better rank; NaN
        for a NaN score), then ``mean rank`` (over the indices that rank it), ``first by``
        (how many indices rank it first) and ``agreed`` (True when every index does).

    Examples
    --------
    >>> import pandas as pd
    >>> scores = pd.DataFrame({"ari": [0.9, 0.5, 0.9], "vi": [0.2, 0.1, 0.3]}, index=["a", "b", "c"])
    >>> ranked = rank_solutions(scores)
    >>> ranked[["ari rank", "vi rank", "mean rank", "first by", "agreed"]].values.tolist()
    [[1.0, 2.0, 1.5, 1, False], [3.0, 1.0, 2.0, 1, False], [1.0, 3.0, 2.0, 1, False]]
    """
    if not isinstance(scores, pd.DataFrame) or scores.empty:
        raise CluvalError(f"scores must be a non-empty DataFrame (solutions x index ids), got {_describe(scores)}")
    ids = index_ids([str(c) for c in scores.columns])
    columns, ranks = {}, []
    for index_id in ids:
        column = scores[index_id].astype(float)
        rank = column.rank(ascending=not INDICES[index_id].higher_is_better, method="min")
        columns[index_id] = column
        columns[f"{index_id} rank"] = rank
        ranks.append(rank)
    out = pd.DataFrame(columns, index=scores.index.copy())  # built at once: one column at a time fragments it
    ranks = pd.concat(ranks, axis=1)
    out["mean rank"] = ranks.mean(axis=1)
    out["first by"] = (ranks == 1).sum(axis=1).astype(int)
    out["agreed"] = out["first by"] == len(ids)
    order = np.lexsort((np.arange(len(out)), out["mean rank"].fillna(np.inf).to_numpy()))
    return out.iloc[order]


def most_stable(matrices) -> pd.DataFrame:
    """Which solutions the indices agree are the most stable: :func:`rank_solutions` of
    :func:`mean_agreement` (definitions in the module's Notes).

    Examples
    --------
    >>> from cluval_core import compare_many
    >>> m = compare_many({"a": [0, 0, 1, 1], "b": [0, 0, 1, 2], "c": [0, 1, 0, 1]}, ["ari", "nvd"])
    >>> verdict = most_stable(m)
    >>> verdict.index.tolist(), bool(verdict.loc["b", "agreed"])  # b shares most with a and c, by both
    (['b', 'a', 'c'], True)
    """
    return rank_solutions(mean_agreement(matrices))


def leaders(ranking: pd.DataFrame) -> dict[str, list]:
    """The solutions each index ranks first in a table of :func:`rank_solutions` (several on a
    tie), in the table's order (by mean rank).

    >>> import pandas as pd
    >>> ranked = rank_solutions(pd.DataFrame({"ari": [0.9, 0.9, 0.1], "vi": [0.2, 0.1, 0.3]}, index=["a", "b", "c"]))
    >>> leaders(ranked)
    {'ari': ['b', 'a'], 'vi': ['b']}
    """
    ids = [column.removesuffix(" rank") for column in ranking.columns if column.endswith(" rank")
           and column != "mean rank"]
    return {index_id: [name for name, rank in ranking[f"{index_id} rank"].items() if rank == 1] for index_id in ids}


def interactive_parameters(X, algorithm: str, ks, *, repeats: int = 1, subsets: int = 0, rate: float = SAMPLING_RATE,
                           budget: Budget = INTERACTIVE_BUDGET) -> dict:
    """The algorithm's parameters for a front end that runs it many times within one `budget`.

    At each k of `ks`, the algorithm runs `repeats` times on the whole of X (the seeds of
    :func:`cluster_many`) and once on each of `subsets` subsets of ``rate * N`` points (a
    :func:`stability_curve`). Each parameter takes the default of
    :func:`~cluval_core.clustering.interactive_defaults` with the budget shared by these runs,
    counted as ``len(ks) * (repeats + subsets * rate)`` runs on the whole of X at the largest k:
    iterations and restarts are lowered to fit; nothing is raised.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.random.default_rng(0).random((20_000, 2))
    >>> one = interactive_parameters(X, "random_swap", [15])["iterations"]
    >>> many = interactive_parameters(X, "random_swap", [15], repeats=20)["iterations"]
    >>> many < one
    True
    """
    X = _as_points(X)
    ks = _whole_numbers("ks", ks, 1, None, 1)
    repeats = _whole("repeats", repeats, 1, MAX_RUNS)
    subsets = _whole("subsets", subsets, 0, MAX_SUBSETS)
    if isinstance(rate, (bool, np.bool_)) or not isinstance(rate, (numbers.Real, np.floating)) \
            or not (math.isfinite(rate) and 0 < rate < 1):
        raise CluvalError(f"rate must be a sampling rate strictly between 0 and 1, got {_describe(rate)}")
    budget = _check_budget(budget)
    runs = len(ks) * (repeats + subsets * rate)
    share = Budget(seconds=budget.seconds / runs, memory=budget.memory)
    k = max(ks) if _algorithm(algorithm).needs_k else None
    return interactive_defaults(X, algorithm, k, budget=share)
