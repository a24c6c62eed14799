"""Clustering algorithms behind one entry point, deterministic for a given seed, with bounded work.

Every algorithm is declared once in :data:`ALGORITHMS`: its parameters with the values they
accept, and a cost function that estimates the memory and time a run needs from the data's
shape, k and the parameters. :func:`cluster` validates every argument, asks that estimate,
and refuses at once, before any large allocation, a run above its budget
(:data:`DEFAULT_BUDGET`, 60 s and 2 GiB; pass ``budget=Budget(...)`` to allow more).
:func:`parameter_range` gives the ranges an interactive front end may offer
(:data:`INTERACTIVE_BUDGET`, :data:`INTERACTIVE_MAX_K`).

>>> import numpy as np
>>> X = np.r_[np.zeros((5, 2)), np.ones((5, 2)) * 10]
>>> result = cluster(X, "kmeans++", 2, seed=0)
>>> sorted(np.bincount(result.labels).tolist()), result.objective
([5, 5], 0.0)

Two distinct points cannot make three clusters, and a huge k is refused before it starts:

>>> cluster(X, "kmeans", 3)
Traceback (most recent call last):
...
cluval_core.CluvalError: k must be at most the number of distinct points in X (2), got 3
>>> big = np.random.default_rng(0).random((100_000, 2))
>>> cluster(big, "kmeans++", 100_000)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
cluval_core.CluvalError: k-means++ (best of n_init) with k=100000, n_init=10, max_iter=300 on 100,000 points ...
"""

from __future__ import annotations

import math
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import quitefastmst
from scipy.cluster.hierarchy import linkage
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components
from scipy.spatial import cKDTree
from scipy.spatial.distance import pdist
from sklearn.cluster import DBSCAN, KMeans
from sklearn.exceptions import ConvergenceWarning
from sklearn.mixture import GaussianMixture
from threadpoolctl import ThreadpoolController

from ..core.trees import as_tree, cut_labels
from ..core.validation import CluvalError, as_data

__all__ = ["ClusteringResult", "ALGORITHMS", "Algorithm", "Parameter", "Cost", "Budget", "ParameterRange",
           "DEFAULT_BUDGET", "INTERACTIVE_BUDGET", "INTERACTIVE_DEFAULT_BUDGET", "INTERACTIVE_MAX_K", "MAX_SEED",
           "EXPECTED_ITERATIONS", "cluster", "estimate_cost", "parameter_range", "interactive_defaults", "k_range",
           "sse", "kmeans_iterations", "random_swap",
           "single_linkage", "fuzzy_c_means", "hierarchy"]

NOISE_LABEL = -1
# Seeds are numpy's and scikit-learn's: whole numbers from 0 to 2**32 - 1.
MAX_SEED = 2**32 - 1
# The largest k an interactive front end offers (the app's k inputs stop here).
INTERACTIVE_MAX_K = 300
# Methods that stop on convergence (Lloyd's k-means, EM) are costed at min(max_iter,
# EXPECTED_ITERATIONS) iterations: on S1-S4, A3, D31, Unbalance, Birch2 and Yeast, our
# k-means converged within 55 iterations from every start tried. scikit-learn's k-means,
# which stops when the centres move less than its tolerance, is costed at 50: it needed 2 to
# 32 there, and 55 once (Yeast). Fuzzy c-means (tol 1e-6) often runs to max_iter and is
# costed at max_iter.
EXPECTED_ITERATIONS = 100
_SKLEARN_KMEANS_ITERATIONS = 50

# Native threads (OpenMP, BLAS) of one run. One: with two, scikit-learn's k-means ran 5 to 30
# times slower than with one on a 2-core machine whose cores other processes kept busy (S1's
# stability curve, 209 runs: 30 to 58 s against 2 s; Birch2, k = 100: 1.1 to 1.7 s against
# 0.26 s), each thread waiting at every step for a core the other had lost. A front end that
# serves several users runs them side by side instead.
RUN_THREADS = 1
_THREADPOOLS: list = []  # the controller of the native thread pools, made at the first run


def _threads_limited():
    """A context in which the native thread pools run RUN_THREADS threads."""
    if not _THREADPOOLS:
        _THREADPOOLS.append(ThreadpoolController())  # finding the pools takes about 1 ms: once
    return _THREADPOOLS[0].limit(limits=RUN_THREADS)

# ---------------------------------------------------------------------- time and memory model
# Seconds per unit of work, measured on a 2-core machine (numpy 2.4, scikit-learn 1.9) and
# rounded up; the estimates are meant to be right within a factor of a few, not exact.
_LLOYD_PER_DISTANCE = 1e-9      # ours, per point-centroid pair and (dimension + 6)
_LLOYD_PER_POINT = 60e-9        # ours, per point and step (centroid update, argmin)
_SKLEARN_PER_DISTANCE = 0.4e-9  # scikit-learn's k-means (2 threads), same units
_SKLEARN_PER_POINT = 20e-9
_FCM_PER_MEMBERSHIP = 1e-9      # per point-cluster pair and (2 dimensions + 40); x2 unless m = 2
_GMM_PER_MEMBERSHIP = 1e-9      # per point-component pair and (300 + 40 d^2) for each EM step
_LINKAGE_PER_PAIR = 1.2e-7      # scipy's Ward/average/complete linkage, per pair of points
# Single link: quitefastmst's minimum spanning tree, then the cut (Birch2: 0.15 s in all). Per
# point for the distinct points, the cut and the labels; per point for the KD-tree Borůvka in
# 2-D, times _KD_TREE_GROWTH for each further dimension (uniform data, 1e4 to 1e6 points;
# quitefastmst's KD-trees take 2 to 20 dimensions); per pair of points and (dimension + 8) for
# its brute-force Prim. Peak memory measured for 2 to 30 dimensions: 170 to 560 bytes per point.
_SINGLE_PER_POINT = 0.5e-6
_KD_TREE_PER_POINT = 1.5e-6
_KD_TREE_GROWTH = 1.6
_KD_TREE_MAX_DIMENSION = 20
_PRIM_PER_PAIR = 0.6e-9
_SINGLE_BYTES_PER_POINT = 160
_SINGLE_BYTES_PER_COORDINATE = 16
_DBSCAN_PER_POINT = 5e-6        # KD-tree and labelling, per point
_DBSCAN_PER_NEIGHBOUR = 2e-8    # per (point, neighbour within eps) pair
# scikit-learn's DBSCAN holds every neighbourhood at once: 15.5 bytes per pair measured.
_DBSCAN_BYTES_PER_NEIGHBOUR = 16
# Sample used to estimate the number of pairs within eps (KD-tree pair count on the sample).
_DBSCAN_SAMPLE = 2000


@dataclass(frozen=True)
class Cost:
    """Estimated cost of a run: wall time in seconds, peak extra memory in bytes, and what dominates."""

    seconds: float
    memory: float
    work: str = ""

    def fits(self, budget: Budget) -> bool:
        return self.seconds <= budget.seconds and self.memory <= budget.memory


@dataclass(frozen=True)
class Budget:
    """The most time (seconds, estimated) and memory (bytes) a clustering run may take.

    ``Budget(seconds=math.inf, memory=math.inf)`` lifts both limits.
    """

    seconds: float = 60.0
    memory: float = 2 * 2**30

    def __post_init__(self):
        for name in ("seconds", "memory"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) \
                    or not value > 0:
                raise CluvalError(f"Budget {name} must be a positive number (math.inf for no limit), got {value!r}")

    def __str__(self) -> str:
        return f"{_seconds_text(self.seconds)} and {_bytes_text(self.memory)}"


# The budget cluster() applies unless told otherwise.
DEFAULT_BUDGET = Budget(seconds=60.0, memory=2 * 2**30)
# What an interactive front end may offer: its controls' ranges fit this budget.
INTERACTIVE_BUDGET = Budget(seconds=20.0, memory=2**30)
# What it runs by default: restarts (parameters marked ``repeats``) are lowered to fit this,
# so that a first view of a large data set (Birch2, 100,000 points, k = 100) comes quickly.
INTERACTIVE_DEFAULT_BUDGET = Budget(seconds=2.0, memory=2**30)


def _seconds_text(seconds: float) -> str:
    if math.isinf(seconds):
        return "no time limit"
    if seconds < 120:
        return f"{seconds:.3g} s"
    if seconds < 2 * 3600:
        return f"{seconds / 60:.3g} min"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.3g} h"
    return f"{seconds / 86400:.3g} days"


def _bytes_text(memory: float) -> str:
    if math.isinf(memory):
        return "no memory limit"
    if memory < 2**30:
        return f"{memory / 2**20:.3g} MiB"
    return f"{memory / 2**30:.3g} GiB"


# ---------------------------------------------------------------------- declarations
@dataclass(frozen=True)
class Parameter:
    """One parameter of an algorithm: its default, what it means and the values it accepts.

    The default's type gives the kind: int (whole numbers in [low, high]), float (real
    numbers in [low, high], or (low, high] when ``low_open``), str (one of ``choices``).
    ``widget`` is the range an interactive front end offers, where narrower than accepted.
    ``repeats`` marks a count of repetitions (restarts) that each improve the result a little
    at the full cost of a run: front ends lower its default first, to fit
    :data:`INTERACTIVE_DEFAULT_BUDGET` (see :func:`parameter_range`).
    """

    default: object
    description: str
    low: float | None = None
    high: float | None = None
    low_open: bool = False
    choices: tuple = ()
    widget: tuple | None = None
    repeats: bool = False

    def accepted(self) -> str:
        if self.choices:
            return "one of " + ", ".join(map(repr, self.choices))
        kind = "a whole number" if isinstance(self.default, int) else "a number"
        if self.high is None:
            return f"{kind} {'>' if self.low_open else '>='} {self.low:g}"
        if self.low_open:
            return f"{kind} > {self.low:g} and <= {self.high:g}"
        return f"{kind} from {self.low:g} to {self.high:g}"

    def check(self, name: str, value, owner: str):
        """Return `value` as the parameter's type, or raise CluvalError naming it."""
        bad = CluvalError(f"{owner}'s {name} must be {self.accepted()}, got {_describe(value)}")
        if self.choices:
            if isinstance(value, str) and value in self.choices:
                return value
            raise bad
        if isinstance(value, (bool, np.bool_)):
            raise bad
        if isinstance(self.default, int):
            if not isinstance(value, (int, np.integer)):
                raise bad
            value = int(value)
        else:
            if not isinstance(value, (int, float, np.integer, np.floating)) or not math.isfinite(value):
                raise bad
            value = float(value)
        if self.low is not None and (value < self.low or (self.low_open and value == self.low)):
            raise bad
        if self.high is not None and value > self.high:
            raise bad
        return value


@dataclass(frozen=True)
class Algorithm:
    """One clustering algorithm: how to run it, its parameters, and what a run costs.

    ``run(X, k, seed, budget, **params)`` returns (labels, centroids, iterations, extra);
    ``cost(X, k, params)`` returns a :class:`Cost` from the data's shape (and, for DBSCAN,
    a sample of the data) without running anything; ``remedy`` says what to change when a
    run is refused. ``deterministic`` algorithms give the same result for every seed (the
    seed is accepted and ignored).
    """

    key: str
    name: str
    description: str
    run: Callable
    params: dict  # name -> Parameter
    cost: Callable
    remedy: str
    soft: bool = False
    needs_k: bool = True
    reports_progress: bool = False  # run() takes progress=callable(fraction, message)
    deterministic: bool = False  # the seed changes nothing


@dataclass(frozen=True, eq=False)
class ClusteringResult:
    """What a clustering run produced.

    ``labels`` are 0..k-1 (DBSCAN marks noise with ``noise_label``, -1); ``centroids`` are the
    cluster means; ``memberships`` the soft assignment (N x k) where the method has one;
    ``objective`` the sum of squared errors to the centroids; ``iterations`` the iterations
    (or swaps) run; ``seconds`` the wall time; ``params`` every parameter used (defaults
    included) and what the run reported; ``estimate`` the cost estimated beforehand.
    """

    algorithm: str
    labels: np.ndarray
    centroids: np.ndarray
    objective: float
    iterations: int
    seconds: float
    memberships: np.ndarray | None = None
    noise_label: int | None = None
    params: dict = field(default_factory=dict)
    estimate: Cost | None = None

    @property
    def k(self) -> int:
        labels = self.labels if self.noise_label is None else self.labels[self.labels != self.noise_label]
        return int(len(np.unique(labels)))


# ---------------------------------------------------------------------- validation
def _describe(value) -> str:
    text = repr(value.item() if isinstance(value, np.generic) else value)
    return text if len(text) <= 60 else text[:57] + "..."


def _as_points(X, name: str = "X") -> np.ndarray:
    """X as a finite float matrix of at least 2 points (a 1-D array is one feature)."""
    if isinstance(X, (str, bytes, dict, set, frozenset)) or not hasattr(X, "__len__"):
        raise CluvalError(f"{name} must be a 2-D array of coordinates (points x features), got "
                          f"{type(X).__name__} {_describe(X)}")
    try:
        raw = np.asarray(X)
    except (ValueError, TypeError) as exc:
        raise CluvalError(f"{name} must be a 2-D array of coordinates (points x features): {exc}") from None
    if raw.dtype.kind == "c":
        raise CluvalError(f"{name} must hold real coordinates, got complex values (dtype {raw.dtype})")
    arr = as_data(raw, len(raw), name)
    if len(arr) < 2:
        raise CluvalError(f"{name} must have at least 2 points to cluster, got {len(arr)} (shape {arr.shape})")
    return arr


def _distinct_points(X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of X: (index of each one's first copy, in order; which of them each row is).

    Hashing (pandas' factorize, column by column) in O(n d); -0.0 and 0.0 are one value.
    """
    key = None
    for column in X.T:
        codes, values = pd.factorize(column)
        key = codes if key is None else pd.factorize(key * len(values) + codes)[0]
    # codes are numbered in order of first appearance: a first copy exceeds every code before it
    first = np.flatnonzero(np.r_[True, key[1:] > np.maximum.accumulate(key)[:-1]])
    return first, key


def _distinct_points_at_least(X: np.ndarray, k: int) -> int:
    """The number of distinct rows of X, or any number >= k when that is cheaper to show."""
    lower = len(pd.unique(X[:, 0]))
    if lower >= k or X.shape[1] == 1:
        return lower
    return len(_distinct_points(X)[0])


def _check_k(k, X: np.ndarray) -> int:
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)):
        raise CluvalError(f"k must be a whole number of clusters (an int >= 1), got {_describe(k)}")
    k = int(k)
    if k < 1:
        raise CluvalError(f"k must be at least 1, got {k}")
    n = len(X)
    if k > n:
        raise CluvalError(f"k must be at most the number of points in X ({n}), got {k}")
    distinct = _distinct_points_at_least(X, k)
    if k > distinct:
        raise CluvalError(f"k must be at most the number of distinct points in X ({distinct}), got {k}")
    return k


def _check_seed(seed) -> int:
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or not 0 <= seed <= MAX_SEED:
        raise CluvalError(f"seed must be a whole number from 0 to {MAX_SEED} (numpy's range), got {_describe(seed)}")
    return int(seed)


def _algorithm(key) -> Algorithm:
    try:
        return ALGORITHMS[key]
    except (KeyError, TypeError):
        raise CluvalError(f"unknown algorithm {_describe(key)}; known: {', '.join(ALGORITHMS)}") from None


def _check_params(algo: Algorithm, params: dict) -> dict:
    unknown = set(params) - set(algo.params)
    if unknown:
        raise CluvalError(f"{algo.name} has no parameter(s) {sorted(unknown)}; it takes {sorted(algo.params)}")
    return {name: p.check(name, params.get(name, p.default), algo.name) for name, p in algo.params.items()}


def _check_budget(budget) -> Budget:
    if not isinstance(budget, Budget):
        raise CluvalError(f"budget must be a cluval_core.algorithms.clustering.Budget, e.g. Budget(seconds=600), got "
                          f"{_describe(budget)}")
    return budget


def _settings(algo: Algorithm, k, params: dict) -> str:
    parts = ([f"k={k}"] if algo.needs_k else []) + [f"{name}={value!r}" for name, value in params.items()]
    return ", ".join(parts)


def _refuse(algo: Algorithm, X, k, params, cost: Cost, budget: Budget) -> None:
    over = []
    if cost.memory > budget.memory:
        over.append(f"about {_bytes_text(cost.memory)} of memory, more than the budget of {_bytes_text(budget.memory)}")
    if cost.seconds > budget.seconds:
        over.append(f"about {_seconds_text(cost.seconds)}, more than the budget of {_seconds_text(budget.seconds)}")
    work = f" ({cost.work})" if cost.work else ""
    raise CluvalError(
        f"{algo.name} with {_settings(algo, k, params)} on {len(X):,} points{work} would need "
        f"{' and '.join(over)}, so it was not started: {algo.remedy}, or cluster a subsample; to allow it, "
        "pass budget=Budget(seconds=..., memory=...) to cluster()")


def _prepare(algorithm, X, k, seed, params: dict, budget, fixed: dict | None = None):
    """Validate every argument and the run's estimated cost; return what the run needs.

    `fixed` holds settings the registry does not declare (already validated) that the cost
    function reads, e.g. random swap's kmeans_steps.
    """
    algo = _algorithm(algorithm)
    budget = _check_budget(budget)
    X = _as_points(X)
    params = _check_params(algo, params)
    seed = _check_seed(seed)
    if algo.needs_k:
        k = _check_k(k, X)
    cost = algo.cost(X, k, {**params, **(fixed or {})})
    if not cost.fits(budget):
        _refuse(algo, X, k, params, cost, budget)
    return algo, X, k, seed, params, cost


def _scaled(X: np.ndarray) -> tuple[np.ndarray, int]:
    """X times a power of two (exact) when its magnitude would overflow or underflow squares.

    Returns (X scaled, exponent e) with X = scaled * 2**e; e = 0 for ordinary coordinates.
    """
    top = float(np.abs(X).max())
    if top == 0.0 or 2.0**-100 <= top <= 2.0**100:
        return X, 0
    e = math.frexp(top)[1]
    return np.ldexp(X, -e), e


def _unscale(value: float, e: int) -> float:
    try:
        return math.ldexp(value, e)
    except OverflowError:
        return math.inf


def estimate_cost(X, algorithm: str, k: int | None = None, **params) -> Cost:
    """The estimated time and memory of ``cluster(X, algorithm, k, **params)``, without running it.

    Arguments are validated as by :func:`cluster` (the budget is not applied).

    >>> import numpy as np
    >>> X = np.random.default_rng(0).random((30_000, 2))
    >>> print(f"{estimate_cost(X, 'ward', 5).memory / 2**30:.1f} GiB")
    6.7 GiB
    """
    return _prepare(algorithm, X, k, 0, params, Budget(math.inf, math.inf))[-1]


# ---------------------------------------------------------------------- helpers
def _centroids(X, labels, k):
    counts = np.bincount(labels, minlength=k).astype(float)
    sums = np.stack([np.bincount(labels, weights=X[:, j], minlength=k) for j in range(X.shape[1])], axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return sums / counts[:, None]


def sse(X, labels, centroids=None) -> float:
    """Sum of squared Euclidean distances of each point to its cluster's centroid.

    Points labelled below 0 (noise) are left out; the sum is exact in scale, so huge or tiny
    coordinates give ``inf`` or a tiny number rather than an overflow.
    """
    X = np.asarray(X, dtype=float)
    X = X[:, None] if X.ndim == 1 else X
    labels = np.asarray(labels)
    valid = labels >= 0
    X, labels = X[valid], labels[valid]
    if not labels.size:
        return 0.0
    X, e = _scaled(X)
    k = int(labels.max()) + 1
    centroids = _centroids(X, labels, k) if centroids is None else np.ldexp(np.asarray(centroids, float), -e)
    return _unscale(float(((X - centroids[labels]) ** 2).sum()), 2 * e)


def _assign(X, C):
    """Nearest centroid of every point, and the matrix of ||c||^2 - 2 x.c it was read from.

    The ||x||^2 term is the same for every centroid, so it is left out of the argmin (add it
    back to get squared distances).
    """
    d = X @ np.ascontiguousarray(-2.0 * C.T)
    np.add(d, (C * C).sum(1), out=d)
    return d.argmin(axis=1), d


def kmeans_iterations(X, C, iterations, sq_total=None):
    """`iterations` Lloyd steps from centroids C; empty clusters keep their centroid.

    Returns (centroids, labels, sse) after the final assignment.
    """
    sq_total = float((X * X).sum()) if sq_total is None else sq_total
    k = C.shape[0]
    for _ in range(iterations):
        labels, _ = _assign(X, C)
        new = _centroids(X, labels, k)
        empty = np.isnan(new[:, 0])
        new[empty] = C[empty]
        C = new
    labels, d = _assign(X, C)
    value = float(np.take_along_axis(d, labels[:, None], axis=1).sum()) + sq_total
    return C, labels, max(value, 0.0)


def _lloyd(X, C, max_iter=300):
    labels = None
    for it in range(1, max_iter + 1):
        new_labels, _ = _assign(X, C)
        if labels is not None and np.array_equal(new_labels, labels):
            return C, labels, it
        labels = new_labels
        new = _centroids(X, labels, C.shape[0])
        empty = np.isnan(new[:, 0])
        new[empty] = C[empty]
        C = new
    return C, labels, max_iter


def _expected(max_iter: int, typical: int = EXPECTED_ITERATIONS) -> int:
    return min(int(max_iter), typical)


def _lloyd_step_seconds(n, d, k):
    return n * (k * (d + 6) * _LLOYD_PER_DISTANCE + _LLOYD_PER_POINT)


def _lloyd_memory(n, d, k):
    return 16.0 * n * k + 32.0 * n * d + 16.0 * n  # the n x k matrix and its argmin, X, labels


def _sklearn_kmeans_seconds(n, d, k, n_init, max_iter):
    seeding = n * k * (2 + math.log(k)) * (d + 6) * _SKLEARN_PER_DISTANCE  # k-means++ tries 2 + ln k points
    step = n * (k * (d + 6) * _SKLEARN_PER_DISTANCE + _SKLEARN_PER_POINT)
    return n_init * (seeding + _expected(max_iter, _SKLEARN_KMEANS_ITERATIONS) * step)


def _sklearn_kmeans_memory(n, d, k):
    return 8.0 * n * (d + 6 + math.log(k)) + 2 * 8.0 * 256 * k * 2  # per-point buffers and 2 threads' chunks


# ---------------------------------------------------------------------- k-means family
def _kmeans_random(X, k, seed, budget, max_iter=300):
    rng = np.random.default_rng(seed)
    C = X[rng.choice(len(X), size=k, replace=False)].astype(float)
    C, labels, iterations = _lloyd(X, C, max_iter)
    return labels, C, iterations, {}


def _kmeans_random_cost(X, k, params):
    n, d = X.shape
    steps = _expected(params["max_iter"]) + 1
    return Cost(steps * _lloyd_step_seconds(n, d, k), _lloyd_memory(n, d, k),
                f"up to {steps} Lloyd steps over {n:,} x {k} distances")


def _kmeans_pp(X, k, seed, budget, n_init=10, max_iter=300):
    model = KMeans(n_clusters=k, init="k-means++", n_init=n_init, max_iter=max_iter, random_state=seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # reported through iterations
        labels = model.fit_predict(X)
    return labels, model.cluster_centers_, int(model.n_iter_), {}


def _kmeans_pp_cost(X, k, params):
    n, d = X.shape
    return Cost(_sklearn_kmeans_seconds(n, d, k, params["n_init"], params["max_iter"]),
                _sklearn_kmeans_memory(n, d, k),
                f"{params['n_init']} x (k-means++ seeding + about "
                f"{_expected(params['max_iter'], _SKLEARN_KMEANS_ITERATIONS)} "
                f"Lloyd steps) over {n:,} x {k} distances")


def _random_swap_core(X, k, iterations, seed, kmeans_steps, progress):
    rng = np.random.default_rng(seed)
    n = len(X)
    sq_total = float((X * X).sum())
    C = X[rng.choice(n, size=k, replace=False)].copy()
    C, labels, best = kmeans_iterations(X, C, kmeans_steps, sq_total)
    swap_cluster = rng.integers(0, k, iterations)
    swap_point = rng.integers(0, n, iterations)
    accepted = 0
    report_every = max(iterations // 50, 1)
    for t in range(iterations):
        trial = C.copy()
        trial[swap_cluster[t]] = X[swap_point[t]]
        trial, trial_labels, value = kmeans_iterations(X, trial, kmeans_steps, sq_total)
        if value < best:
            C, labels, best = trial, trial_labels, value
            accepted += 1
        if progress is not None and (t + 1) % report_every == 0:
            progress((t + 1) / iterations, f"swap {t + 1}/{iterations}, SSE {best:.6g}")
    return labels, C, best, accepted


_KMEANS_STEPS = Parameter(2, "k-means iterations after each swap", low=1)


def random_swap(X, k, *, iterations=5000, seed=0, kmeans_steps=2, progress=None, budget=DEFAULT_BUDGET):
    """Random swap clustering (Fränti & Kivijärvi 2000).

    From random centroids, each of `iterations` trials moves one random centroid to a random
    data point and runs `kmeans_steps` k-means iterations; the trial is kept only if the SSE
    falls. Arguments are validated, and the cost checked against `budget`, as by
    :func:`cluster`. Returns (labels, centroids, sse, accepted swaps).
    """
    kmeans_steps = _KMEANS_STEPS.check("kmeans_steps", kmeans_steps, "Random swap")
    _, X, k, seed, params, _ = _prepare("random_swap", X, k, seed, {"iterations": iterations}, budget,
                                        {"kmeans_steps": kmeans_steps})
    X, e = _scaled(np.ascontiguousarray(X))
    labels, C, best, accepted = _random_swap_core(X, k, params["iterations"], seed, kmeans_steps, progress)
    return labels, np.ldexp(C, e), _unscale(best, 2 * e), accepted


def _random_swap(X, k, seed, budget, iterations=5000, progress=None):
    labels, C, _, accepted = _random_swap_core(X, k, iterations, seed, 2, progress)
    return labels, C, iterations, {"accepted swaps": accepted}


def _random_swap_cost(X, k, params):
    n, d = X.shape
    steps = (params["iterations"] + 1) * (params.get("kmeans_steps", 2) + 0.5)  # and a final assignment
    return Cost(steps * _lloyd_step_seconds(n, d, k), _lloyd_memory(n, d, k) + 8.0 * n,
                f"{params['iterations']} swaps, each 2 k-means steps over {n:,} x {k} distances")


# ---------------------------------------------------------------------- hierarchical
def _pairwise_cost(n, copies, per_pair):
    condensed = n * (n - 1) / 2 * 8.0
    return Cost(n * n / 2 * per_pair, copies * condensed,
                f"an n x n distance matrix ({_bytes_text(condensed)}, held {copies:g} times)")


def _single_link_plan(n: int, d: int) -> tuple[str, float]:
    """How single link finds the minimum spanning tree of n distinct points in d dimensions
    ("sort", or quitefastmst's "sesqui_kd_tree" or "brute"), and the run's estimated seconds.

    1-D data is sorted. Otherwise the KD-tree Borůvka or Jarník-Prim, whichever is estimated
    quicker: the KD-tree's time per point grows geometrically with d (calibrated on uniform
    data, its hard case), Prim's is quadratic in n and linear in d.
    """
    base = n * _SINGLE_PER_POINT
    if d == 1:
        return "sort", base
    prim = base + n * (n - 1) / 2 * (d + 8) * _PRIM_PER_PAIR
    if d > _KD_TREE_MAX_DIMENSION:
        return "brute", prim
    kd_tree = base + n * _KD_TREE_PER_POINT * _KD_TREE_GROWTH ** (d - 2)
    return ("sesqui_kd_tree", kd_tree) if kd_tree <= prim else ("brute", prim)


def _minimum_spanning_tree(U):
    """Ends (a, b) of the edges of a Euclidean minimum spanning tree of the distinct points
    U (m x d, m >= 2), shortest first.
    """
    m, d = U.shape
    if d == 1:  # the tree joins neighbours in sorted order
        order = np.argsort(U[:, 0], kind="stable")
        shortest = np.argsort(np.diff(U[order, 0]), kind="stable")
        return order[shortest], order[shortest + 1]
    method, _ = _single_link_plan(m, d)
    _, ends = quitefastmst.mst_euclid(np.ascontiguousarray(U), algorithm=method)
    return ends[:, 0], ends[:, 1]


def _single_linkage_core(X, k):
    n = len(X)
    if k == n:
        return np.arange(n)
    # copies join their point's cluster (KD-trees slow down badly on many copies of one point)
    first_copy, inverse = _distinct_points(X)
    m = len(first_copy)
    a, b = _minimum_spanning_tree(X[first_copy]) if m > 1 else (np.zeros(0, int),) * 2
    keep = m - k  # the k - 1 longest edges are cut (k <= m was checked)
    graph = coo_matrix((np.ones(keep), (a[:keep], b[:keep])), shape=(m, m))
    labels = connected_components(graph, directed=False)[1][inverse]
    _, first_member = np.unique(labels, return_index=True)
    rank = np.empty(k, dtype=np.int64)  # clusters numbered in order of first appearance in X
    rank[np.argsort(first_member)] = np.arange(k)
    return rank[labels]


def single_linkage(X, k, *, budget=DEFAULT_BUDGET):
    """Single-link clustering into k clusters by cutting the Euclidean minimum spanning tree.

    The single-link dendrogram is the Euclidean minimum spanning tree (MST) of the distinct
    points: cutting its k-1 longest edges leaves the k clusters, and copies of a point join
    it (copies are found by hashing, O(n d)). The MST comes from quitefastmst (Gagolewski,
    the library under genieclust): in 2 to 20 dimensions Borůvka's algorithm over a KD-tree,
    near-linear in n in low dimensions (Birch2, 100,000 points in 2-D: about 0.1 s) but slower
    with every dimension, or Jarník-Prim with the distances computed on the fly, O(n^2 d)
    time, wherever that is estimated quicker (many dimensions, few points); 1-D data is
    sorted, O(n log n). Memory is O(n d): no n x n matrix is built. Arguments are validated,
    and the cost checked against `budget`, as by :func:`cluster`. Ties in edge length at the
    cut may be broken differently from scipy and scikit-learn.

    Returns the labels 0..k-1, numbered in order of first appearance.

    >>> single_linkage([0.0, 0.1, 0.2, 5.0, 5.1, 9.0], 3).tolist()
    [0, 0, 0, 1, 1, 2]
    >>> single_linkage([[9.0, 9.0], [0.0, 0.0], [0.0, 1.0], [9.0, 9.0]], 2).tolist()
    [0, 1, 1, 0]
    """
    _, X, k, _, _, _ = _prepare("single", X, k, 0, {}, budget)
    return _single_linkage_core(_scaled(X)[0], k)


def _single_linkage_matrix(X) -> np.ndarray:
    """SciPy's linkage matrix of single link from the minimum spanning tree (no n x n matrix): copies of
    a point join it first at height 0, then the tree's edges, shortest first."""
    n = len(X)
    first_copy, inverse = _distinct_points(X)
    m = len(first_copy)
    a, b = _minimum_spanning_tree(X[first_copy]) if m > 1 else (np.zeros(0, int),) * 2
    lengths = np.sqrt(((X[first_copy[a]] - X[first_copy[b]]) ** 2).sum(axis=1))
    copies = np.flatnonzero(first_copy[inverse] != np.arange(n))
    ends = np.concatenate([np.column_stack([first_copy[inverse[copies]], copies]),
                           np.column_stack([first_copy[a], first_copy[b]])]).tolist()
    heights = np.concatenate([np.zeros(len(copies)), lengths])
    owner = list(range(n))  # union-find over the objects; node[root] = the cluster's node number
    node, size = list(range(n)), [1] * n
    Z = np.empty((n - 1, 4))

    def find(x):
        while owner[x] != x:
            owner[x] = owner[owner[x]]
            x = owner[x]
        return x

    for row, (x, y) in enumerate(ends):
        x, y = find(x), find(y)
        left, right = sorted((node[x], node[y]))
        Z[row] = left, right, heights[row], size[x] + size[y]
        owner[y] = x
        node[x], size[x] = n + row, size[x] + size[y]
    return Z


def hierarchy(X, method: str = "ward", *, budget=DEFAULT_BUDGET):
    """The whole tree of an agglomerative method (``"ward"``, ``"average"``, ``"complete"``,
    ``"single"``) as a :class:`~cluval_core.core.trees.Tree`: SciPy's linkage on X (single link
    from the minimum spanning tree, as :func:`single_linkage` cuts it, so that no n x n matrix is
    built), validated and checked against `budget` as by :func:`cluster`. Its cut into k clusters
    is the algorithm's clustering with k clusters (where no distances tie at the cut).

    >>> hierarchy([[0.0], [0.1], [5.0], [5.2]], "single").cut(2).tolist()
    [0, 0, 1, 1]
    """
    if method not in _TREE_METHODS:
        raise CluvalError(f"method must be one of {', '.join(_TREE_METHODS)}, got {method!r}")
    _, X, _, _, _, _ = _prepare(method, X, 1, 0, {}, budget)
    X, e = _scaled(X)
    Z = _single_linkage_matrix(X) if method == "single" else linkage(X, method=method)
    Z[:, 2] = np.ldexp(Z[:, 2], e)  # heights in X's own units
    return as_tree(Z)


def _agglomerative(method):
    def run(X, k, seed, budget):
        if method == "single":
            labels = _single_linkage_core(X, k)
        else:  # cut in the order of the merges: exactly k clusters, also where heights tie at the cut
            labels = cut_labels(linkage(X, method=method), k)
        _, labels = np.unique(labels, return_inverse=True)
        return labels, _centroids(X, labels, labels.max() + 1), len(X) - k, {}
    return run


def _linkage_cost(X, k, params):
    return _pairwise_cost(len(X), 2, _LINKAGE_PER_PAIR)  # scipy copies the condensed matrix to merge


def _single_cost(X, k, params):
    n, d = X.shape
    method, seconds = _single_link_plan(n, d)
    work = {"sort": f"sorting {n:,} points",
            "sesqui_kd_tree": f"a minimum spanning tree of {n:,} points in {d} dimensions over a KD-tree",
            "brute": f"a minimum spanning tree by Prim's algorithm over {n * (n - 1) / 2:.3g} pairs of points "
                     f"in {d} dimensions"}[method]
    return Cost(seconds, n * (_SINGLE_BYTES_PER_POINT + _SINGLE_BYTES_PER_COORDINATE * d), work)


# ---------------------------------------------------------------------- DBSCAN
def _dbscan_sample(X):
    """A fixed random sample of X (all of it when small), for estimates that must be cheap."""
    n = len(X)
    if n <= _DBSCAN_SAMPLE:
        return X
    return X[np.sort(np.random.default_rng(0).choice(n, _DBSCAN_SAMPLE, replace=False))]


def _expected_neighbours(X, eps):
    """Expected (point, neighbour) pairs within eps, self-pairs included, from a sample."""
    n = len(X)
    sample = _dbscan_sample(X)
    s = len(sample)
    tree = cKDTree(sample)
    within = float(tree.count_neighbors(tree, eps)) - s  # ordered pairs of distinct sample points
    return n + within / (s * (s - 1)) * n * (n - 1)


def _dbscan(X, k, seed, budget, eps=0.5, min_samples=5):
    labels = DBSCAN(eps=eps, min_samples=min_samples).fit_predict(X)
    found = labels[labels >= 0]
    centroids = _centroids(X[labels >= 0], found, found.max() + 1) if found.size else np.zeros((0, X.shape[1]))
    return labels, centroids, 1, {"noise points": int((labels < 0).sum())}


def _dbscan_cost(X, k, params):
    Xs, e = _scaled(X)
    n, d = X.shape
    pairs = _expected_neighbours(Xs, min(math.ldexp(params["eps"], -e), 1e300) if e else params["eps"])
    return Cost(n * _DBSCAN_PER_POINT + pairs * _DBSCAN_PER_NEIGHBOUR,
                pairs * _DBSCAN_BYTES_PER_NEIGHBOUR + 40.0 * n * d,
                f"about {pairs / n:,.0f} neighbours within eps per point, {pairs:.3g} in all, "
                f"estimated on a sample of {min(n, _DBSCAN_SAMPLE):,} points")


# ---------------------------------------------------------------------- mixtures
def _gmm(X, k, seed, budget, covariance="full", n_init=1, max_iter=100):
    model = GaussianMixture(n_components=k, covariance_type=covariance, n_init=n_init, max_iter=max_iter,
                            random_state=seed)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # convergence warnings are reported through iterations
            model.fit(X)
            memberships = model.predict_proba(X)
    except ValueError as exc:  # ill-defined covariances: too few distinct points per component
        raise CluvalError(f"the Gaussian mixture with k={k} and covariance={covariance!r} could not be fitted "
                          f"({exc}): choose a smaller k or covariance='diag' or 'spherical'") from None
    if not np.isfinite(memberships).all():
        raise CluvalError(f"the Gaussian mixture with k={k} gave undefined memberships: choose a smaller k or "
                          "covariance='diag' or 'spherical'")
    return memberships.argmax(1), model.means_, int(model.n_iter_), {"memberships": memberships}


def _gmm_cost(X, k, params):
    n, d = X.shape
    step = n * k * (300 + 40 * d * d) * _GMM_PER_MEMBERSHIP
    init = _sklearn_kmeans_seconds(n, d, k, 1, 300)
    seconds = params["n_init"] * (init + (_expected(params["max_iter"]) + 1) * step)
    return Cost(seconds, 32.0 * n * k + 16.0 * n * d + 8.0 * k * d * d,
                f"{params['n_init']} x up to {_expected(params['max_iter'])} EM steps over {n:,} x {k} memberships")


def _fcm_core(X, k, m, seed, max_iter, tol):
    rng = np.random.default_rng(seed)
    U = rng.dirichlet(np.ones(k), size=len(X))
    C = np.zeros((k, X.shape[1]))
    sq_norms = (X * X).sum(1)[:, None]
    exponent = -1.0 / (m - 1)
    for it in range(1, max_iter + 1):
        W = U * U if m == 2 else U**m
        weight = W.sum(0)
        alive = weight > 0  # a centre whose weights all underflowed keeps its place
        C = np.where(alive[:, None], (W.T @ X) / np.where(alive, weight, 1.0)[:, None], C)
        d2 = np.maximum(sq_norms - 2.0 * (X @ C.T) + (C * C).sum(1)[None, :], 1e-300)
        if m == 2:
            inv = 1.0 / d2
        else:  # d2**exponent over- or underflows for m near 1: normalise in logarithms
            inv = exponent * np.log(d2)
            inv -= inv.max(1, keepdims=True)
            np.exp(inv, out=inv)
        new = inv / inv.sum(1, keepdims=True)
        change = np.abs(new - U).max()
        U = new
        if change < tol:
            return U, C, it
    return U, C, max_iter


_FCM_TOL = Parameter(1e-6, "stop when no membership changes by more than this", low=0.0)


def fuzzy_c_means(X, k, *, m=2.0, seed=0, max_iter=300, tol=1e-6, budget=DEFAULT_BUDGET):
    """Fuzzy c-means (Bezdek 1981) with fuzzifier m in (1, 10].

    Memberships are computed in logarithms when m != 2, so they stay finite for m close to 1.
    Arguments are validated, and the cost checked against `budget`, as by :func:`cluster`.
    Returns (memberships, centroids, iterations).

    >>> import numpy as np
    >>> X = np.array([[0.0], [0.1], [5.0], [5.1]])
    >>> U, C, _ = fuzzy_c_means(X, 2, m=1.001)
    >>> np.round(U, 3).tolist(), bool(np.isfinite(U).all())
    ([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [0.0, 1.0]], True)
    """
    tol = _FCM_TOL.check("tol", tol, "Fuzzy c-means")
    _, X, k, seed, params, _ = _prepare("fcm", X, k, seed, {"m": m, "max_iter": max_iter}, budget)
    X, e = _scaled(X)
    U, C, iterations = _fcm_core(X, k, params["m"], seed, params["max_iter"], tol)
    return U, np.ldexp(C, e), iterations


def _fcm(X, k, seed, budget, m=2.0, max_iter=300):
    U, C, iterations = _fcm_core(X, k, m, seed, max_iter, 1e-6)
    return U.argmax(1), C, iterations, {"memberships": U}


def _fcm_cost(X, k, params):
    n, d = X.shape
    per_step = n * k * (2 * d + 40) * _FCM_PER_MEMBERSHIP * (1 if params["m"] == 2 else 2)
    iterations = params["max_iter"]  # with tol = 1e-6 it often runs to max_iter (Birch2, k = 100: 300)
    return Cost(iterations * per_step, 56.0 * n * k, f"up to {iterations} steps over {n:,} x {k} memberships")


# ---------------------------------------------------------------------- the registry
_MAX_ITER = Parameter(300, "maximum iterations", low=1, widget=(1, 1000))
_LINKAGE_REMEDY = "use k-means, random swap or single link (which need no such matrix)"

ALGORITHMS = {a.key: a for a in [
    Algorithm("kmeans", "k-means (random start, one run)",
              "Lloyd's algorithm from k random points, run once: the papers' 'KM', often stuck in a local optimum.",
              _kmeans_random, {"max_iter": _MAX_ITER}, _kmeans_random_cost, "choose a smaller k or max_iter"),
    Algorithm("kmeans++", "k-means++ (best of n_init)",
              "scikit-learn's k-means with k-means++ seeding, best of n_init runs.",
              _kmeans_pp, {"n_init": Parameter(10, "restarts", low=1, widget=(1, 100), repeats=True),
                           "max_iter": _MAX_ITER},
              _kmeans_pp_cost, "choose a smaller k, n_init or max_iter"),
    Algorithm("random_swap", "Random swap",
              "Fränti & Kivijärvi (2000): T trial swaps of one centroid to a random point, each followed by two "
              "k-means iterations and kept only if the SSE falls.",
              _random_swap, {"iterations": Parameter(5000, "trial swaps T", low=1, widget=(1, 100_000))},
              _random_swap_cost, "choose fewer iterations or a smaller k", reports_progress=True),
    Algorithm("ward", "Agglomerative, Ward", "Hierarchical clustering merging the pair that least increases SSE.",
              _agglomerative("ward"), {}, _linkage_cost, _LINKAGE_REMEDY, deterministic=True),
    Algorithm("single", "Agglomerative, single link",
              "Merges the two clusters with the closest pair of points: the minimum spanning tree cut into k.",
              _agglomerative("single"), {}, _single_cost,
              "use k-means or random swap, or reduce the number of dimensions", deterministic=True),
    Algorithm("average", "Agglomerative, average link", "Merges the clusters with the smallest mean distance.",
              _agglomerative("average"), {}, _linkage_cost, _LINKAGE_REMEDY, deterministic=True),
    Algorithm("complete", "Agglomerative, complete link", "Merges the clusters with the smallest maximum distance.",
              _agglomerative("complete"), {}, _linkage_cost, _LINKAGE_REMEDY, deterministic=True),
    Algorithm("dbscan", "DBSCAN", "Density-based; the number of clusters follows from eps and min_samples; "
              "noise is labelled -1.", _dbscan,
              {"eps": Parameter(0.5, "neighbourhood radius", low=0.0, low_open=True),
               "min_samples": Parameter(5, "core point threshold (the point itself included)", low=1,
                                        widget=(1, 100))},
              _dbscan_cost, "choose a smaller eps (parameter_range(X, 'dbscan', 'eps') gives the range that fits)",
              needs_k=False, deterministic=True),
    Algorithm("gmm", "Gaussian mixture", "EM for a mixture of k Gaussians; soft memberships are the posteriors.",
              _gmm, {"covariance": Parameter("full", "covariance type", choices=("full", "tied", "diag", "spherical")),
                     "n_init": Parameter(1, "restarts", low=1, widget=(1, 20), repeats=True),
                     "max_iter": Parameter(100, "maximum EM iterations", low=1, widget=(1, 1000))},
              _gmm_cost, "choose a smaller k, n_init or max_iter", soft=True),
    Algorithm("fcm", "Fuzzy c-means", "Bezdek's fuzzy c-means with fuzzifier m (m = 2 as in Lei et al.).",
              _fcm, {"m": Parameter(2.0, "fuzzifier", low=1.0, high=10.0, low_open=True, widget=(1.05, 10.0)),
                     "max_iter": _MAX_ITER},
              _fcm_cost, "choose a smaller k or max_iter", soft=True),
]}


_TREE_METHODS = ("ward", "average", "complete", "single")  # the algorithms whose whole tree hierarchy() gives


def cluster(X, algorithm: str, k: int | None = None, *, seed: int = 0, progress=None,
            budget: Budget = DEFAULT_BUDGET, **params) -> ClusteringResult:
    """Cluster X with one of :data:`ALGORITHMS`; deterministic for a given seed.

    Every argument is validated first, then the run's time and memory are estimated
    (:func:`estimate_cost`) and a run above `budget` is refused before it starts; every
    refusal is a :class:`~cluval_core.CluvalError` saying what to change.

    Parameters
    ----------
    X : array-like (N, d)
        Finite coordinates of at least 2 points (a 1-D array is one feature).
    algorithm : str
        A key of ALGORITHMS: kmeans, kmeans++, random_swap, ward, single, average, complete,
        dbscan, gmm, fcm.
    k : int
        Number of clusters, from 1 to the number of distinct points (ignored by DBSCAN).
    seed : int
        From 0 to ``MAX_SEED`` (2**32 - 1).
    progress : callable(fraction, message), optional
        Called during long runs by the algorithms that report progress (``reports_progress``).
    budget : Budget
        The most time and memory the run may take (:data:`DEFAULT_BUDGET`: 60 s, 2 GiB).
    **params
        The algorithm's own parameters (see ``ALGORITHMS[key].params`` for their defaults
        and the values each accepts).

    Returns
    -------
    ClusteringResult
    """
    algo, X, k, seed, params, cost = _prepare(algorithm, X, k, seed, params, budget)
    X, e = _scaled(X)
    kwargs = dict(params)
    if algo.key == "dbscan" and e:
        kwargs["eps"] = min(math.ldexp(params["eps"], -e), 1e300)
    if algo.reports_progress:
        kwargs["progress"] = progress
    start = time.perf_counter()
    with _threads_limited():
        labels, centroids, iterations, extra = algo.run(X, k, seed, budget, **kwargs)
    seconds = time.perf_counter() - start
    labels = np.asarray(labels, dtype=np.int64)
    memberships = extra.pop("memberships", None)
    noise = NOISE_LABEL if algo.key == "dbscan" else None
    objective = _unscale(sse(X, labels), 2 * e)
    return ClusteringResult(algo.key, labels, np.ldexp(np.asarray(centroids, dtype=float), e), objective,
                            int(iterations), seconds, memberships, noise, {**params, **extra}, cost)


# ---------------------------------------------------------------------- ranges for front ends
@dataclass(frozen=True)
class ParameterRange:
    """What a front end may offer for one parameter: the bounds, the default and a step."""

    low: float
    high: float
    default: float
    step: float = 1


def _round_step(value: float) -> float:
    return 10.0 ** math.floor(math.log10(value)) / 10 if value > 0 else 1.0


def _round(value: float, down: bool = False) -> float:
    """`value` to 3 significant digits (rounded down when it is a bound that must fit)."""
    if not value > 0:
        return value
    unit = 10.0 ** (math.floor(math.log10(value)) - 2)
    return float(f"{(math.floor(value / unit) if down else round(value / unit)) * unit:.3g}")


def k_range(X) -> ParameterRange:
    """The k a front end may offer: 1 to INTERACTIVE_MAX_K, or to the number of distinct points if fewer.

    >>> k_range([[0.0, 0.0], [1.0, 1.0], [1.0, 1.0]]).high
    2
    """
    X = _as_points(X)
    high = min(INTERACTIVE_MAX_K, _distinct_points_at_least(X, INTERACTIVE_MAX_K))
    return ParameterRange(1, high, min(2, high), 1)


def _eps_range(X, min_samples: int, budget: Budget) -> ParameterRange:
    """eps from a small fraction of the typical neighbour distance up to what fits `budget`.

    The default is the 90th percentile of the distance from a point to its
    (min_samples - 1)-th neighbour, so that about 90% of the points are core points; the top
    is the largest eps whose estimated neighbourhoods fit the budget's memory (and never
    beyond the data's diameter).
    """
    Xs, e = _scaled(X)
    n = len(Xs)
    sample = _dbscan_sample(Xs)
    reach = min(min_samples, n)
    kdist = cKDTree(Xs).query(sample, k=reach)[0]
    kdist = kdist[:, -1] if kdist.ndim == 2 else kdist
    gaps = np.sort(pdist(sample))  # distances between sample points, as the DBSCAN estimate sees them
    diameter = float(gaps[-1]) if gaps.size else 0.0
    if diameter == 0.0:  # every point in the same place: any eps gives one cluster
        return ParameterRange(0.001, 1.0, 1.0, 0.001)
    default = float(np.quantile(kdist, 0.9))
    default = default if default > 0 else float(gaps[np.searchsorted(gaps, 0.0, side="right")])
    affordable = (budget.memory - 40.0 * n * X.shape[1]) / _DBSCAN_BYTES_PER_NEIGHBOUR - n
    share = affordable / (n * (n - 1)) if n > 1 else 1.0
    high = diameter if share >= 1 else float(gaps[max(int(share * gaps.size) - 1, 0)])
    high = min(high, diameter)
    default = min(default, high)
    low = default / 100
    unit = 2.0**e
    low, high, default = _round(low * unit), _round(high * unit, down=True), _round(default * unit)
    high = max(high, low)
    return ParameterRange(low, high, min(max(default, low), high), _round_step(default))


def interactive_defaults(X, algorithm: str, k: int | None = None, chosen: dict | None = None,
                         budget: Budget = INTERACTIVE_BUDGET) -> dict:
    """The parameters of `algorithm` for a front end: `chosen` ones kept, every other numeric
    one at the default of its :func:`parameter_range` (the algorithm's, lowered to fit `budget`).

    >>> import numpy as np
    >>> X = np.random.default_rng(0).random((100_000, 2))
    >>> interactive_defaults(X, "fcm", k=100)["max_iter"] < ALGORITHMS["fcm"].params["max_iter"].default
    True
    """
    params = dict(chosen or {})
    for name, parameter in _algorithm(algorithm).params.items():
        if name not in params and not parameter.choices:
            params[name] = parameter_range(X, algorithm, name, k, params, budget).default
    return params


def parameter_range(X, algorithm: str, name: str, k: int | None = None, chosen: dict | None = None,
                    budget: Budget = INTERACTIVE_BUDGET) -> ParameterRange:
    """The range of `name` (a parameter of `algorithm`, or "k") that a front end may offer.

    k runs from 1 to :data:`INTERACTIVE_MAX_K` (or the number of distinct points, if
    fewer). Iteration counts and restarts stop at the largest value whose estimated cost,
    with k and the parameters already `chosen` (others at their defaults), fits `budget`;
    their default is the algorithm's, lowered to fit. Restarts (``repeats``) default to the
    most that fit :data:`INTERACTIVE_DEFAULT_BUDGET` (at least one): a quick first result on a
    large data set, more on request. DBSCAN's eps follows the data's scale
    (see :func:`_eps_range`). Choices (e.g. covariance) have no range: read
    ``ALGORITHMS[algorithm].params[name].choices``.

    >>> import numpy as np
    >>> X = np.random.default_rng(0).random((100_000, 2))
    >>> parameter_range(X, "random_swap", "iterations", k=100).high < 5000
    True
    >>> restarts = parameter_range(X, "kmeans++", "n_init", k=100)  # one by default, up to ten on request
    >>> restarts.default, restarts.high
    (1, 10)
    """
    if name == "k":
        return k_range(X)
    X = _as_points(X)
    algo = _algorithm(algorithm)
    if name not in algo.params:
        raise CluvalError(f"{algo.name} has no parameter {name!r}; it takes {sorted(algo.params)} (and k)")
    parameter = algo.params[name]
    if parameter.choices:
        raise CluvalError(f"{algo.name}'s {name} is a choice, not a range: one of {', '.join(parameter.choices)}")
    params = _check_params(algo, dict(chosen or {}))
    if algo.needs_k:
        k = _check_k(k if k is not None else 2, X)
    if name == "eps":
        return _eps_range(X, params["min_samples"], budget)
    low, high = parameter.widget or (parameter.low, parameter.high)
    if isinstance(parameter.default, float):
        return ParameterRange(low, high, parameter.default, _round_step(high - low))

    def largest_fitting(high, limit: Budget):
        """The largest value from low to high whose run fits `limit` (low when none does)."""
        def fits(value):
            return algo.cost(X, k, {**params, name: value}).fits(limit)

        if fits(high):
            return high
        lo, hi = low, high  # fits(lo) may fail too: then the least value is offered, and refused if run
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (mid, hi) if fits(mid) else (lo, mid)
        return lo

    high = largest_fitting(high, budget)
    default = min(parameter.default, high)
    if parameter.repeats:
        default = largest_fitting(default, INTERACTIVE_DEFAULT_BUDGET)
    return ParameterRange(low, high, default, 1)
