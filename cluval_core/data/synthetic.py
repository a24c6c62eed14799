"""Synthetic partitions and point sets from the papers: offline and deterministic by seed.

Partition pairs (reference G, candidate P) reproduce the PSI paper's section 7 (Rezaei &
Fränti 2016), with G three clusters of 1000 objects unless stated otherwise. Point sets
reproduce the M2 family (sections 7.6-7.7), an Unbalance-like set, the G1-G4 groups of Lei
et al. (2017, section III-B) and Rand's (1971) Table 1 modifications. They are also what the
app falls back to when no benchmark data is available.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy.stats import norm

from ..core.validation import CluvalError

__all__ = [
    "random_partition", "enlarge_cluster", "increasing_error", "size_imbalance", "number_of_clusters",
    "Scenario", "SCENARIOS", "m2", "unbalance_like", "lei_set", "LEI_GROUPS", "rand_modification",
    "RAND_MODIFICATIONS", "SyntheticSet", "SYNTHETIC_SETS", "make_synthetic",
]


# The most a generator builds at once (labels and coordinates, 8 bytes a number): larger
# requests are refused before anything is allocated.
MAX_BYTES = 2 * 2**30


def _whole(name: str, value, low: int, high: int | None = None) -> int:
    """`value` as an int, refused unless a whole number (not a bool) within [low, high]."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Integral, np.integer)) \
            or value < low or (high is not None and value > high):
        within = f"from {low} to {high}" if high is not None else f"of at least {low}"
        raise CluvalError(f"{name} must be a whole number {within}, got {value!r}")
    return int(value)


def _affordable(objects: int, numbers_each: int = 2) -> None:
    """Refuse a set of `objects` objects (each `numbers_each` numbers: labels, coordinates) beyond MAX_BYTES."""
    size = objects * numbers_each * 8
    if size > MAX_BYTES:
        raise CluvalError(f"{objects:,} objects would take {size / 2**30:.1f} GiB, more than the "
                          f"{MAX_BYTES / 2**30:.0f} GiB a generator builds at once: ask for fewer objects")


def _blocks(sizes) -> np.ndarray:
    return np.repeat(np.arange(len(sizes)), sizes)


def _rng(seed):
    return np.random.default_rng(seed)


# ---------------------------------------------------------------------- PSI paper, section 7
def random_partition(k: int, *, n_per_cluster: int = 1000, k_true: int = 3, seed=0):
    """Fig. 9-10: G has `k_true` clusters; P gives every object a uniformly random label of `k`."""
    k, n_per_cluster, k_true = _whole("k", k, 1), _whole("n_per_cluster", n_per_cluster, 1), _whole("k_true", k_true, 1)
    _affordable(n_per_cluster * k_true)
    g = _blocks([n_per_cluster] * k_true)
    return g, _rng(seed).integers(0, k, g.size)


def enlarge_cluster(size: int, *, which: str = "first", n_per_cluster: int = 1000):
    """Figs. 11-14: one cluster of P grows to `size` objects (1000..3000) by taking others'.

    ``which="first"``: the first cluster takes the second cluster's objects, then the third's,
    so P has two clusters from 2000 on. ``which="second"``: the middle cluster takes equally
    from both neighbours, so P keeps three clusters until it holds everything.
    """
    n = _whole("n_per_cluster", n_per_cluster, 1)
    _affordable(3 * n)
    size = _whole("size", size, n, 3 * n)
    g = _blocks([n, n, n])
    p = g.copy()
    extra = size - n
    if which == "first":
        p[n:n + min(extra, n)] = 0
        p[2 * n:2 * n + max(extra - n, 0)] = 0
    elif which == "second":
        p[n - (extra + 1) // 2:n] = 1
        p[2 * n:2 * n + extra // 2] = 1
    else:
        raise CluvalError(f"which must be 'first' or 'second', got {which!r}")
    return g, p


def increasing_error(wrong: int, *, n_per_cluster: int = 1000, k: int = 3):
    """Figs. 15-16: `wrong` objects of every cluster move, split evenly over the other
    clusters, so the sizes stay equal; at 2/3 of the cluster the objects are spread evenly."""
    n, k = _whole("n_per_cluster", n_per_cluster, 1), _whole("k", k, 2)
    _affordable(n * k)
    wrong = _whole("wrong", wrong, 0, n)
    g = _blocks([n] * k)
    p = g.copy()
    for c in range(k):
        moved = np.arange(c * n, c * n + wrong)
        others = np.array([o for o in range(k) if o != c])
        p[moved] = others[np.arange(wrong) % len(others)]
    return g, p


def size_imbalance(third: int, *, exchanged: int = 200, n_per_cluster: int = 1000):
    """Figs. 17-18: two clusters of 1000 exchange `exchanged` objects (half each way); the
    third cluster, labelled without error, shrinks (2000 down to 50 in the paper)."""
    n = _whole("n_per_cluster", n_per_cluster, 1)
    third = _whole("third (the third cluster's objects)", third, 1)
    _affordable(2 * n + third)
    exchanged = _whole("exchanged", exchanged, 0, n)
    g = _blocks([n, n, third])
    p = g.copy()
    half = exchanged // 2
    p[:half] = 1
    p[n:n + exchanged - half] = 0
    return g, p


def number_of_clusters(k: int, *, wrong: int = 200, n_per_cluster: int = 1000):
    """Figs. 19-20: `k` clusters of equal size, `wrong` objects of each labelled as the next one."""
    k, n_per_cluster = _whole("k", k, 2), _whole("n_per_cluster", n_per_cluster, 1)
    _affordable(k * n_per_cluster)
    wrong = _whole("wrong", wrong, 0, n_per_cluster)
    g = _blocks([n_per_cluster] * k)
    p = g.copy()
    for c in range(k):
        p[c * n_per_cluster:c * n_per_cluster + wrong] = (c + 1) % k
    return g, p


@dataclass(frozen=True)
class Scenario:
    """A family of partition pairs along one parameter, with what it reveals."""

    key: str
    title: str
    parameter: str
    values: tuple
    default: object
    explanation: str
    make: Callable  # (value, seed) -> (labels_true, labels_pred[, X]), clusters numbered from 0

    def pair(self, value, seed=0, *, first_label: int = 0):
        """(labels_true, labels_pred) at `value`, clusters numbered from `first_label` (1 for display).

        >>> g, p = SCENARIOS["clusters"].pair(3, first_label=1)
        >>> sorted(set(g.tolist())), sorted(set(p.tolist()))
        ([1, 2, 3], [1, 2, 3])
        >>> SCENARIOS["clusters"].pair(3)[0].min()
        np.int64(0)
        """
        labels_true, labels_pred = self.make(value, seed)[:2]
        return np.asarray(labels_true) + first_label, np.asarray(labels_pred) + first_label


def _overlap_pair(overlap, seed):
    X, g = m2(overlap / 100, seed=seed)
    # the nearest-centroid partition: what an ideal algorithm returns for this overlap
    centroids = np.array([X[g == c].mean(axis=0) for c in (0, 1)])
    p = ((X - centroids[1]) ** 2).sum(1) < ((X - centroids[0]) ** 2).sum(1)
    return g, p.astype(np.int64), X


SCENARIOS = {s.key: s for s in [
    Scenario("random", "Random partitions", "clusters in P", tuple(range(1, 21)), 3,
             "P gives every object a random label, so any similarity is pure chance. Indices that are "
             "not corrected for chance (RI, NVD, purity, CH) stay well above zero and drift with K, while "
             "ARI, AMI and PSI stay near 0.",
             lambda v, seed: random_partition(v, seed=seed)),
    Scenario("enlarge_first", "Enlarging the first cluster", "size of P's first cluster",
             tuple(range(1000, 3001, 50)), 1500,
             "The first cluster swallows the second and then the third, so P loses a cluster at 2000. "
             "NMI and ARI rise towards that knee because they ignore the shrinking cluster, NVD is flat "
             "between 1500 and 2000, and PSI falls almost linearly.",
             lambda v, seed: enlarge_cluster(v, which="first")),
    Scenario("enlarge_second", "Enlarging the second cluster", "size of P's second cluster",
             tuple(range(1000, 3001, 50)), 1500,
             "The middle cluster takes objects from both neighbours, so P keeps three clusters until the "
             "end. PSI draws the same curve as when the first cluster grows: it depends on how much is "
             "wrong, not on where the error went.",
             lambda v, seed: enlarge_cluster(v, which="second")),
    Scenario("error", "Increasing error in every cluster", "wrong objects per cluster",
             tuple(range(0, 701, 50)), 200,
             "Every cluster loses the same number of objects to the others, sizes unchanged. PSI, NVD, CH "
             "and purity fall linearly (PSI to 0 when the labels are spread evenly), while NMI and ARI bend.",
             lambda v, seed: increasing_error(min(v, 666))),
    Scenario("imbalance", "Cluster-size imbalance", "size of the third cluster",
             tuple(range(2000, 49, -50)), 500,
             "The same 200 objects are misplaced between two clusters of 1000 while a perfect third cluster "
             "shrinks. Only PSI stays put (0.9): ARI falls from 0.91 to 0.66 because pair counts weigh "
             "clusters by the square of their size.",
             lambda v, seed: size_imbalance(v)),
    Scenario("clusters", "Number of clusters", "clusters", tuple(range(2, 21)), 5,
             "Each cluster has 200 of its 1000 objects labelled as the next cluster. NVD, CH and purity "
             "are exactly constant; the chance-corrected indices rise with K because chance agreement "
             "shrinks as clusters multiply.",
             lambda v, seed: number_of_clusters(v)),
    Scenario("overlap", "Cluster overlap (M2)", "overlap (%)", tuple(range(0, 51, 5)), 15,
             "Two Gaussian clusters of 1000 points in 8-D move together; P is the nearest-centroid split. "
             "1 - NVD follows 1 - overlap and PSI 1 - overlap/0.5, the paper's expected responses.",
             _overlap_pair),
]}


# ---------------------------------------------------------------------- point sets
def m2(overlap: float, *, d: int = 8, n_per_cluster: int = 1000, seed=0):
    """Two spherical unit-variance Gaussian clusters whose overlap is `overlap`.

    Overlap is the share of a cluster's points closer to the other cluster's centre than to
    its own (PSI paper, section 7.6); for unit variance that is Phi(-delta/2), so the centres
    lie delta = -2 Phi^-1(overlap) apart along the first axis. Returns (X, labels).
    """
    if isinstance(overlap, bool) or not isinstance(overlap, numbers.Real) or not 0 <= overlap <= 0.5:
        raise CluvalError(f"overlap must lie in [0, 0.5], got {overlap!r}")
    d, n_per_cluster = _whole("d", d, 1), _whole("n_per_cluster", n_per_cluster, 1)
    _affordable(2 * n_per_cluster, d + 1)
    delta = -2 * norm.ppf(overlap) if overlap > 0 else 12.0
    rng = _rng(seed)
    X = rng.normal(size=(2 * n_per_cluster, d))
    labels = _blocks([n_per_cluster, n_per_cluster])
    X[n_per_cluster:, 0] += delta
    return X, labels


def unbalance_like(*, dense_size: int = 2000, sparse_size: int = 100, n_dense: int = 3, n_sparse: int = 5,
                   seed=0):
    """Dense and sparse Gaussian clusters laid out like the Unbalance set. Returns (X, labels).

    Three tight clusters of `dense_size` points sit on the left, five wide clusters of
    `sparse_size` points on the right; shrinking `sparse_size` makes the imbalance worse.
    """
    dense_size, sparse_size = _whole("dense_size", dense_size, 1), _whole("sparse_size", sparse_size, 1)
    n_dense, n_sparse = _whole("n_dense", n_dense, 0, 3), _whole("n_sparse", n_sparse, 0, 5)
    if n_dense + n_sparse == 0:
        raise CluvalError("n_dense and n_sparse are both 0: the set would have no clusters")
    _affordable(n_dense * dense_size + n_sparse * sparse_size, 3)
    rng = _rng(seed)
    dense_centres = np.array([[150.0, 330.0], [220.0, 130.0], [80.0, 120.0]])[:n_dense]
    sparse_centres = np.array([[520.0, 380.0], [640.0, 300.0], [560.0, 180.0], [700.0, 120.0],
                               [720.0, 420.0]])[:n_sparse]
    parts, labels = [], []
    for i, c in enumerate(dense_centres):
        parts.append(rng.normal(c, 12.0, size=(dense_size, 2)))
        labels.append(np.full(dense_size, i))
    for j, c in enumerate(sparse_centres):
        parts.append(rng.normal(c, 25.0, size=(sparse_size, 2)))
        labels.append(np.full(sparse_size, n_dense + j))
    return np.vstack(parts), np.concatenate(labels)


LEI_MEANS = [[2, 0], [2, 13], [13, 10], [8, 17]]
LEI_GROUPS = {"G1": 5, "G2": 6, "G3": 6, "G4": 9}
LEI_G4_SIZES = [100, 500, 1000, 5000, 10**4, 5 * 10**4, 10**5, 5 * 10**5, 10**6]


def lei_set(group: str, index: int, *, seed=0):
    """One of the five-cluster 2-D Gaussian sets of Lei et al. (section III-B). Returns (X, labels).

    G1 'Ovp#' (index 1-5): equal clusters of 200, cluster 5 at [13, 3 + i] moving towards
    cluster 3. G2 'Dens#' (1-6): cluster 5 at [13, 3] with 100 i points, the rest split evenly.
    G3 'OvpDens#' (1-6): as G2 with cluster 5 at [13, 8], overlapping cluster 3. G4 'NSize#'
    (1-9): five separated equal clusters, n from 100 to 10^6. Identity covariances.
    """
    if not isinstance(group, str) or group not in LEI_GROUPS:
        raise CluvalError(f"Lei et al. sets are G1 1-5, G2 1-6, G3 1-6, G4 1-9; got group {group!r}")
    index = _whole(f"index (of {group})", index, 1, LEI_GROUPS[group])
    if group == "G4":
        n = LEI_G4_SIZES[index - 1]
        means = np.array([[2, 0], [2, 13], [20, 13], [11, 20], [15, 5]], dtype=float)
        sizes = [n // 5] * 5
    else:
        n = 1000
        fifth = {"G1": [13, 3 + index], "G2": [13, 3], "G3": [13, 8]}[group]
        means = np.array(LEI_MEANS + [fifth], dtype=float)
        n5 = 200 if group == "G1" else 100 * index
        sizes = [(n - n5) // 4] * 4 + [n5]
    rng = _rng(seed)
    X = np.vstack([rng.normal(m, 1.0, size=(s, 2)) for m, s in zip(means, sizes)])
    return X, _blocks(sizes)


# ---------------------------------------------------------------------- Rand (1971), Table 1
RAND_MODIFICATIONS = {
    "join_two": "A: two clusters joined",
    "split_half": "A: one cluster split into two equal parts (n even)",
    "split_singletons": "A: one cluster split into single point clusters",
    "one_from_each": "A: one point taken from each cluster to form a new cluster of k points",
    "move_point": "B: movement of a point to different clusters",
    "split_different": "B: different clusters split into two equal parts (n even)",
    "join_different": "B: different pairs of clusters joined",
    "join_all": "C: all clusters joined into one large cluster",
    "split_all": "C: all clusters split into single point clusters",
    "transpose": "C: n clusters of k points, one point from each original cluster",
}


def rand_modification(kind: str, k: int, n: int):
    """The two clusterings Rand's Table 1 compares, for k clusters of n points each.

    Part A and C rows return (Y, Y'); part B rows return (Y', Y''), two modifications of the
    same Y applied to different clusters.
    """
    if kind not in RAND_MODIFICATIONS:
        raise CluvalError(f"unknown modification {kind!r}; known: {', '.join(RAND_MODIFICATIONS)}")
    k, n = _whole("k", k, 2), _whole("n", n, 2)
    _affordable(k * n)
    if kind in ("split_half", "split_different") and n % 2:
        raise CluvalError(f"{RAND_MODIFICATIONS[kind]} needs an even n, got {n}")
    if k < {"join_different": 4, "move_point": 3}.get(kind, 2):
        raise CluvalError(f"{RAND_MODIFICATIONS[kind]} needs more clusters, got k={k}")
    y = _blocks([n] * k)
    point = np.arange(k * n)
    if kind == "join_two":
        return y, np.where(y == 1, 0, y)
    if kind == "split_half":
        return y, np.where((y == 0) & (point < n // 2), k, y)
    if kind == "split_singletons":
        return y, np.where(y == 0, k + point, y)
    if kind == "one_from_each":
        return y, np.where(point % n == 0, k, y)
    if kind == "move_point":
        a, b = y.copy(), y.copy()
        a[0], b[0] = 1, 2 % k
        return a, b
    if kind == "split_different":
        return (np.where((y == 0) & (point < n // 2), k, y), np.where((y == 1) & (point < n + n // 2), k, y))
    if kind == "join_different":
        return np.where(y == 1, 0, y), np.where(y == 3, 2, y)
    if kind == "join_all":
        return y, np.zeros_like(y)
    if kind == "split_all":
        return y, point
    return y, point % n  # transpose


# ---------------------------------------------------------------------- sets for the app
@dataclass(frozen=True)
class SyntheticSet:
    key: str
    title: str
    description: str
    make: Callable  # seed -> (X, labels)


SYNTHETIC_SETS = {s.key: s for s in [
    SyntheticSet("unbalance_like", "Unbalance-like (synthetic)",
                 "Three dense clusters of 2000 points and five sparse clusters of 100, like Unbalance.",
                 lambda seed: unbalance_like(seed=seed)),
    SyntheticSet("m2_15", "M2, 15% overlap (synthetic)",
                 "Two Gaussian clusters of 1000 points in 8-D with 15% overlap (PSI paper, 7.6).",
                 lambda seed: m2(0.15, seed=seed)),
    SyntheticSet("lei_g1_ovp3", "Lei G1 'Ovp3' (synthetic)",
                 "Five unit-variance Gaussian clusters of 200 points; two of them overlap.",
                 lambda seed: lei_set("G1", 3, seed=seed)),
    SyntheticSet("lei_g2_dens6", "Lei G2 'Dens6' (synthetic)",
                 "Five separated Gaussian clusters, one of 600 points and four of 100.",
                 lambda seed: lei_set("G2", 6, seed=seed)),
]}


def make_synthetic(key: str, seed: int = 0):
    """(X, labels) of a synthetic set of :data:`SYNTHETIC_SETS`."""
    try:
        return SYNTHETIC_SETS[key].make(seed)
    except KeyError:
        raise CluvalError(f"unknown synthetic set {key!r}; known: {', '.join(SYNTHETIC_SETS)}") from None
