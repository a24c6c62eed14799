"""Clustering algorithms behind one entry point, deterministic for a given seed.

>>> import numpy as np
>>> X = np.r_[np.zeros((5, 2)), np.ones((5, 2)) * 10]
>>> result = cluster(X, "kmeans++", 2, seed=0)
>>> sorted(np.bincount(result.labels).tolist()), result.objective
([5, 5], 0.0)
"""

from __future__ import annotations

import time
import warnings
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
from scipy.cluster.hierarchy import fcluster, linkage
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components, minimum_spanning_tree
from scipy.spatial import Delaunay, QhullError

from ._validation import CluvalError, as_data

__all__ = ["ClusteringResult", "ALGORITHMS", "Algorithm", "cluster", "sse", "kmeans_iterations",
           "random_swap", "single_linkage", "fuzzy_c_means"]

# A condensed distance matrix of more than this many bytes is refused before allocation.
MAX_PAIRWISE_BYTES = 2 * 2**30
NOISE_LABEL = -1


@dataclass(frozen=True, eq=False)
class ClusteringResult:
    """What a clustering run produced.

    ``labels`` are 0..k-1 (DBSCAN marks noise with ``noise_label``, -1); ``centroids`` are the
    cluster means; ``memberships`` the soft assignment (N x k) where the method has one;
    ``objective`` the sum of squared errors to the centroids; ``iterations`` the iterations
    (or swaps) run; ``seconds`` the wall time.
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

    @property
    def k(self) -> int:
        labels = self.labels if self.noise_label is None else self.labels[self.labels != self.noise_label]
        return int(len(np.unique(labels)))


@dataclass(frozen=True)
class Algorithm:
    key: str
    name: str
    description: str
    run: Callable
    params: dict  # name -> (default, description)
    soft: bool = False
    needs_k: bool = True
    pairwise_memory: bool = False


# ---------------------------------------------------------------------- helpers
def _centroids(X, labels, k):
    counts = np.bincount(labels, minlength=k).astype(float)
    sums = np.stack([np.bincount(labels, weights=X[:, j], minlength=k) for j in range(X.shape[1])], axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return sums / counts[:, None]


def sse(X, labels, centroids=None) -> float:
    """Sum of squared Euclidean distances of each point to its cluster's centroid."""
    labels = np.asarray(labels)
    valid = labels >= 0
    X, labels = X[valid], labels[valid]
    k = int(labels.max()) + 1 if labels.size else 0
    centroids = _centroids(X, labels, k) if centroids is None else centroids
    return float(((X - centroids[labels]) ** 2).sum())


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


def _check_k(k, n):
    if not isinstance(k, (int, np.integer)) or isinstance(k, bool):
        raise CluvalError(f"k must be a whole number, got {k!r}")
    if k < 1:
        raise CluvalError(f"k must be at least 1, got {k}")
    if k > n:
        raise CluvalError(f"k = {k} exceeds the number of points ({n}): choose k <= {n}")


def _check_pairwise_memory(n, method):
    needed = n * (n - 1) // 2 * 8
    if needed > MAX_PAIRWISE_BYTES:
        raise CluvalError(
            f"{method} on {n} points needs an n x n distance matrix ({needed / 2**30:.1f} GiB), more than "
            f"the {MAX_PAIRWISE_BYTES / 2**30:.0f} GiB allowed: use k-means, random swap or single link "
            "(which need no such matrix), or cluster a subsample")


# ---------------------------------------------------------------------- k-means family
def _kmeans_random(X, k, seed, max_iter=300):
    rng = np.random.default_rng(seed)
    C = X[rng.choice(len(X), size=k, replace=False)].astype(float)
    C, labels, iterations = _lloyd(X, C, max_iter)
    return labels, C, iterations, {}


def _kmeans_pp(X, k, seed, n_init=10, max_iter=300):
    from sklearn.cluster import KMeans

    model = KMeans(n_clusters=k, init="k-means++", n_init=int(n_init), max_iter=int(max_iter), random_state=seed)
    labels = model.fit_predict(X)
    return labels, model.cluster_centers_, int(model.n_iter_), {}


def random_swap(X, k, *, iterations=5000, seed=0, kmeans_steps=2, progress=None):
    """Random swap clustering (Fränti & Kivijärvi 2000).

    From random centroids, each of `iterations` trials moves one random centroid to a random
    data point and runs `kmeans_steps` k-means iterations; the trial is kept only if the SSE
    falls. Returns (labels, centroids, sse, accepted swaps).
    """
    X = np.ascontiguousarray(X, dtype=float)
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


def _random_swap(X, k, seed, iterations=5000, progress=None):
    labels, C, _, accepted = random_swap(X, k, iterations=int(iterations), seed=seed, progress=progress)
    return labels, C, int(iterations), {"accepted swaps": accepted}


# ---------------------------------------------------------------------- hierarchical
def _mst_edges_delaunay(X):
    """Edges of the Euclidean minimum spanning tree, through the Delaunay triangulation."""
    unique, inverse = np.unique(X, axis=0, return_inverse=True)
    inverse = inverse.ravel()
    m = len(unique)
    rows, cols, weights = [], [], []
    if m >= X.shape[1] + 2:
        tri = Delaunay(unique)
        simplices = tri.simplices
        d = simplices.shape[1]
        pairs = [(i, j) for i in range(d) for j in range(i + 1, d)]
        a = np.concatenate([simplices[:, i] for i, _ in pairs])
        b = np.concatenate([simplices[:, j] for _, j in pairs])
        lo, hi = np.minimum(a, b), np.maximum(a, b)
        key = np.unique(lo.astype(np.int64) * m + hi)
        a, b = np.divmod(key, m)
        w = np.sqrt(((unique[a] - unique[b]) ** 2).sum(1))
        graph = coo_matrix((np.maximum(w, 1e-300), (a, b)), shape=(m, m)).tocsr()
        tree = minimum_spanning_tree(graph).tocoo()
        if connected_components(tree, directed=False)[0] != 1:
            raise QhullError("triangulation did not connect every point")
        rows.append(tree.row), cols.append(tree.col), weights.append(tree.data)
    elif m > 1:
        D = np.sqrt(((unique[:, None] - unique[None]) ** 2).sum(-1))
        tree = minimum_spanning_tree(np.triu(D) + 0).tocoo()
        rows.append(tree.row), cols.append(tree.col), weights.append(tree.data)
    # duplicates join their first copy at distance zero
    first = np.full(m, -1)
    first[inverse[::-1]] = np.arange(len(X))[::-1]
    dup = np.flatnonzero(first[inverse] != np.arange(len(X)))
    return inverse, first, (np.concatenate(rows) if rows else np.zeros(0, int)), \
        (np.concatenate(cols) if cols else np.zeros(0, int)), \
        (np.concatenate(weights) if weights else np.zeros(0)), dup


def single_linkage(X, k):
    """Single-link clustering into k clusters without an n x n matrix.

    The single-link dendrogram is the Euclidean minimum spanning tree; cutting its k-1
    longest edges leaves the k clusters. For d <= 3 the tree is found in the Delaunay
    triangulation (which contains it) in O(n log n); otherwise through scipy's linkage, with
    the memory check of the other linkages. Ties in edge length at the cut are broken by
    edge order, where scikit-learn may break them differently.
    """
    n, d = X.shape
    if k == n:
        return np.arange(n)
    if d > 3:
        _check_pairwise_memory(n, "single link in more than 3 dimensions")
        return fcluster(linkage(X, method="single"), k, criterion="maxclust") - 1
    try:
        inverse, first, rows, cols, weights, dup = _mst_edges_delaunay(X)
    except QhullError:  # degenerate (e.g. collinear) data: fall back to the matrix method
        _check_pairwise_memory(n, "single link on degenerate data")
        return fcluster(linkage(X, method="single"), k, criterion="maxclust") - 1
    # map tree edges back to original point indices; duplicates hang on their first copy
    a = np.concatenate([first[rows], dup])
    b = np.concatenate([first[cols], first[inverse[dup]]])
    w = np.concatenate([weights, np.zeros(len(dup))])
    order = np.argsort(w, kind="stable")
    keep = order[: len(w) - (k - 1)]
    graph = coo_matrix((np.ones(len(keep)), (a[keep], b[keep])), shape=(n, n))
    _, labels = connected_components(graph, directed=False)
    return labels


def _agglomerative(method):
    def run(X, k, seed):
        if method == "single":
            labels = single_linkage(X, k)
        else:
            _check_pairwise_memory(len(X), f"{method.capitalize()} linkage")
            labels = fcluster(linkage(X, method=method), k, criterion="maxclust") - 1
        _, labels = np.unique(labels, return_inverse=True)
        return labels, _centroids(X, labels, labels.max() + 1), len(X) - k, {}
    return run


def _dbscan(X, k, seed, eps=0.5, min_samples=5):
    from sklearn.cluster import DBSCAN

    if eps <= 0:
        raise CluvalError(f"DBSCAN's eps must be positive, got {eps}")
    labels = DBSCAN(eps=float(eps), min_samples=int(min_samples)).fit_predict(X)
    found = labels[labels >= 0]
    centroids = _centroids(X[labels >= 0], found, found.max() + 1) if found.size else np.zeros((0, X.shape[1]))
    return labels, centroids, 1, {"noise points": int((labels < 0).sum())}


def _gmm(X, k, seed, covariance="full", n_init=1):
    from sklearn.mixture import GaussianMixture

    model = GaussianMixture(n_components=k, covariance_type=covariance, n_init=int(n_init), random_state=seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # convergence warnings are reported through iterations
        model.fit(X)
    memberships = model.predict_proba(X)
    return memberships.argmax(1), model.means_, int(model.n_iter_), {"memberships": memberships}


def fuzzy_c_means(X, k, *, m=2.0, seed=0, max_iter=300, tol=1e-6):
    """Fuzzy c-means (Bezdek 1981) with fuzzifier m. Returns (memberships, centroids, iterations)."""
    if m <= 1:
        raise CluvalError(f"the fuzzifier m must exceed 1, got {m}")
    rng = np.random.default_rng(seed)
    U = rng.dirichlet(np.ones(k), size=len(X))
    C = np.zeros((k, X.shape[1]))
    sq_norms = (X * X).sum(1)[:, None]
    exponent = -1.0 / (m - 1)
    for it in range(1, max_iter + 1):
        W = U * U if m == 2 else U**m
        C = (W.T @ X) / W.sum(0)[:, None]
        d2 = np.maximum(sq_norms - 2.0 * (X @ C.T) + (C * C).sum(1)[None, :], 1e-300)
        inv = 1.0 / d2 if m == 2 else d2**exponent
        new = inv / inv.sum(1, keepdims=True)
        change = np.abs(new - U).max()
        U = new
        if change < tol:
            return U, C, it
    return U, C, max_iter


def _fcm(X, k, seed, m=2.0, max_iter=300):
    U, C, iterations = fuzzy_c_means(X, k, m=float(m), seed=seed, max_iter=int(max_iter))
    return U.argmax(1), C, iterations, {"memberships": U}


ALGORITHMS = {a.key: a for a in [
    Algorithm("kmeans", "k-means (random start, one run)",
              "Lloyd's algorithm from k random points, run once: the papers' 'KM', often stuck in a local optimum.",
              _kmeans_random, {"max_iter": (300, "maximum iterations")}),
    Algorithm("kmeans++", "k-means++ (best of n_init)",
              "scikit-learn's k-means with k-means++ seeding, best of n_init runs.",
              _kmeans_pp, {"n_init": (10, "restarts"), "max_iter": (300, "maximum iterations")}),
    Algorithm("random_swap", "Random swap",
              "Fränti & Kivijärvi (2000): T trial swaps of one centroid to a random point, each followed by two "
              "k-means iterations and kept only if the SSE falls.",
              _random_swap, {"iterations": (5000, "trial swaps T")}),
    Algorithm("ward", "Agglomerative, Ward", "Hierarchical clustering merging the pair that least increases SSE.",
              _agglomerative("ward"), {}, pairwise_memory=True),
    Algorithm("single", "Agglomerative, single link",
              "Merges the two clusters with the closest pair of points: the minimum spanning tree cut into k.",
              _agglomerative("single"), {}),
    Algorithm("average", "Agglomerative, average link", "Merges the clusters with the smallest mean distance.",
              _agglomerative("average"), {}, pairwise_memory=True),
    Algorithm("complete", "Agglomerative, complete link", "Merges the clusters with the smallest maximum distance.",
              _agglomerative("complete"), {}, pairwise_memory=True),
    Algorithm("dbscan", "DBSCAN", "Density-based; the number of clusters follows from eps and min_samples; "
              "noise is labelled -1.", _dbscan, {"eps": (0.5, "neighbourhood radius"),
                                                  "min_samples": (5, "core point threshold")}, needs_k=False),
    Algorithm("gmm", "Gaussian mixture", "EM for a mixture of k Gaussians; soft memberships are the posteriors.",
              _gmm, {"covariance": ("full", "covariance type"), "n_init": (1, "restarts")}, soft=True),
    Algorithm("fcm", "Fuzzy c-means", "Bezdek's fuzzy c-means with fuzzifier m (m = 2 as in Lei et al.).",
              _fcm, {"m": (2.0, "fuzzifier"), "max_iter": (300, "maximum iterations")}, soft=True),
]}


def cluster(X, algorithm: str, k: int | None = None, *, seed: int = 0, progress=None, **params) -> ClusteringResult:
    """Cluster X with one of :data:`ALGORITHMS`; deterministic for a given seed.

    Parameters
    ----------
    X : array-like (N, d)
    algorithm : str
        A key of ALGORITHMS: kmeans, kmeans++, random_swap, ward, single, average, complete,
        dbscan, gmm, fcm.
    k : int
        Number of clusters (ignored by DBSCAN).
    seed : int
    progress : callable(fraction, message), optional
        Called during long runs (random swap).
    **params
        The algorithm's own parameters (see ``ALGORITHMS[key].params``).
    """
    try:
        algo = ALGORITHMS[algorithm]
    except KeyError:
        raise CluvalError(f"unknown algorithm {algorithm!r}; known: {', '.join(ALGORITHMS)}") from None
    X = as_data(X, len(X) if hasattr(X, "__len__") else 0)
    n = len(X)
    if algo.needs_k:
        _check_k(k, n)
    if algo.pairwise_memory:
        _check_pairwise_memory(n, algo.name)
    unknown = set(params) - set(algo.params)
    if unknown:
        raise CluvalError(f"{algo.name} has no parameter(s) {sorted(unknown)}; it takes {sorted(algo.params)}")
    kwargs = dict(params)
    if algorithm == "random_swap":
        kwargs["progress"] = progress
    start = time.perf_counter()
    labels, centroids, iterations, extra = algo.run(X, k, seed, **kwargs)
    seconds = time.perf_counter() - start
    labels = np.asarray(labels, dtype=np.int64)
    memberships = extra.pop("memberships", None)
    noise = NOISE_LABEL if algorithm == "dbscan" else None
    return ClusteringResult(algorithm, labels, np.asarray(centroids, dtype=float), sse(X, labels),
                            int(iterations), seconds, memberships, noise, {**params, **extra})
