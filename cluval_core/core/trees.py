"""Hierarchies: two trees (or a tree and a flat partition) compared cut by cut, and as trees.

A tree is SciPy's linkage matrix Z over N objects (merge m joins nodes ``Z[m, 0]`` and
``Z[m, 1]``, leaves 0..N-1 and merge m's node N + m, at height ``Z[m, 2]``): :func:`as_tree`
also takes scikit-learn's fitted ``AgglomerativeClustering`` and genieclust's ``Genie``.

**Cuts.** The cut of a tree into k clusters is the partition after its first N - k merges
(merge order, so that tied heights still give exactly k clusters). :func:`cut_profile` scores
any registry index at every cut k = 1 … k_max of two trees (the Bk plot of Fowlkes & Mallows
1983, for every index), or of a tree against a flat partition: the table of the cuts at k_max
is built once from the objects, and every smaller k is that table with the rows (and columns)
of the clusters the next merge joins added together, O(k) per merge, so the objects are read
once. Each table is laid out in the order in which its clusters first occur among the objects,
so every value is exactly :func:`~cluval_core.compare`'s on that cut's two label vectors, the
indices that read the tie order included. Where an index has an exact expectation under the
permutation model (``INDICES[id].expectation``), the profile carries it and its standard
deviation at each k: the chance band.

**Trees as wholes** (each pair of objects is scored by where the trees join it):

* :func:`cophenetic_correlation`: the Pearson correlation over all pairs of the two trees'
  cophenetic distances (the height of the merge that joins the pair; Sokal & Rohlf 1962);
  SciPy's ``cophenet(Z_a, cophenet(Z_b))[0]``.
* :func:`bakers_gamma`: Baker's (1974) rank correlation of the stages at which the trees join
  each pair, the stage being the largest k whose cut keeps the pair together; Spearman's rho of
  those stages, as dendextend's ``cor_bakers_gamma`` computes it.
* :func:`entanglement`: how crossed the lines of a tanglegram are: the sum over the objects of
  ``|position in the first tree's leaf order - position in the second's|^L``, divided by its
  value for one order against its reverse (dendextend's ``entanglement``, L = 1.5): 0 when the
  leaf orders agree, 1 for reversed orders.

The pairwise measures read all N (N - 1) / 2 pairs and are refused beyond
:data:`MAX_PAIR_OBJECTS` objects.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.cluster.hierarchy import cophenet, dendrogram, is_valid_linkage, leaves_list
from scipy.sparse import coo_array
from scipy.sparse.csgraph import connected_components
from scipy.stats import spearmanr

from .chance import _exact_expectations
from .comparison import Comparison
from .registry import INDICES, index_ids
from .validation import CluvalError, as_labels

__all__ = ["Tree", "as_tree", "cut_labels", "cut_profile", "cophenetic_correlation", "bakers_gamma", "entanglement",
           "Tanglegram", "tanglegram_layout", "MAX_PAIR_OBJECTS", "MAX_CUTS"]

# Most objects whose pairs the whole-tree measures read (N (N - 1) / 2 distances of 8 bytes, twice)
MAX_PAIR_OBJECTS = 5_000
# Most cuts a profile scores (each cut is one comparison of its k x k table)
MAX_CUTS = 2_000


@dataclass(frozen=True)
class Tree:
    """A hierarchy over ``n`` objects as SciPy's linkage matrix (read-only, float64, N - 1 rows)."""

    linkage: np.ndarray

    @property
    def n(self) -> int:
        return len(self.linkage) + 1

    def cut(self, k: int) -> np.ndarray:
        """The labels of the cut into k clusters (after the first N - k merges), numbered in order of
        first appearance."""
        return cut_labels(self, k)


def as_tree(tree, name: str = "tree") -> Tree:
    """A :class:`Tree` from SciPy's linkage matrix, a :class:`Tree`, or a fitted model with
    ``children_`` (scikit-learn's ``AgglomerativeClustering`` with the full tree, genieclust's
    ``Genie``): their merges in order, at their ``distances_`` when given (else at the merge's
    rank), with SciPy's cluster sizes."""
    if isinstance(tree, Tree):
        return tree
    children = getattr(tree, "children_", None)
    if children is not None:
        children = np.asarray(children)
        if children.ndim != 2 or children.shape[1] != 2 or children.dtype.kind not in "iu":
            raise CluvalError(f"{name}'s children_ must be an (N - 1) x 2 array of node numbers, got shape "
                              f"{children.shape}")
        distances = getattr(tree, "distances_", None)
        heights = (np.arange(1, len(children) + 1, dtype=np.float64) if distances is None
                   else np.asarray(distances, dtype=np.float64))
        if len(heights) != len(children):
            raise CluvalError(f"{name} has {len(children)} merges but {len(heights)} distances: fit it with the "
                              "full tree (compute_full_tree=True)")
        n = len(children) + 1
        for attribute in ("n_leaves_", "n_samples_", "labels_"):  # the objects the model was fitted on
            value = getattr(tree, attribute, None)
            fitted = None if value is None else len(value) if attribute == "labels_" else int(value)
            if fitted is not None and fitted != n:
                raise CluvalError(f"{name} joins {n:,} nodes but was fitted on {fitted:,} objects: the tree is not "
                                  "complete (fit it with compute_full_tree=True and without a distance threshold "
                                  "or connectivity that stops the merges)")
        sizes = np.ones(2 * n - 1, dtype=np.float64)
        if children.size and (children.min() < 0 or children.max() >= 2 * n - 1):
            raise CluvalError(f"{name}'s children_ name nodes outside 0 … {2 * n - 2}: is the tree complete?")
        for m, (x, y) in enumerate(children.tolist()):
            if x >= n + m or y >= n + m:
                raise CluvalError(f"{name}'s merge {m} joins a node made later: children_ is not in merge order")
            sizes[n + m] = sizes[x] + sizes[y]
        tree = np.column_stack([children.astype(np.float64), heights, sizes[n:]])
    try:
        Z = np.array(tree, dtype=np.float64)
    except (TypeError, ValueError):
        raise CluvalError(f"{name} must be a linkage matrix (SciPy's), a Tree or a fitted model with children_, got "
                          f"{type(tree).__name__}") from None
    if Z.ndim != 2 or Z.shape[1] != 4 or len(Z) < 1:
        raise CluvalError(f"{name} must be a linkage matrix of N - 1 rows and 4 columns, got shape {Z.shape}")
    if not np.isfinite(Z).all():
        raise CluvalError(f"{name} holds NaN or infinite values")
    try:
        is_valid_linkage(Z, throw=True)
    except (ValueError, TypeError) as exc:
        raise CluvalError(f"{name} is not a valid linkage matrix: {exc}") from None
    _check_merges(Z, name)
    Z.flags.writeable = False
    return Tree(Z)


def _check_merges(Z: np.ndarray, name: str) -> None:
    """Merge m joins two nodes made before it (leaves 0 … N-1, merge j's node N + j), every node but
    the root is joined once, and column 3 counts the objects under each merge."""
    n = len(Z) + 1
    children = Z[:, :2]
    if not np.array_equal(children, np.round(children)):
        raise CluvalError(f"{name} is not a valid linkage matrix: its first two columns must be node numbers")
    children = children.astype(np.int64)
    made_before = n + np.arange(len(Z))[:, None]
    if children.min() < 0 or (children >= made_before).any():
        raise CluvalError(f"{name} is not a valid linkage matrix: a merge joins a node not made before it")
    if not (np.bincount(children.ravel(), minlength=2 * n - 2)[: 2 * n - 2] == 1).all():
        raise CluvalError(f"{name} is not a valid linkage matrix: a node is joined twice or never")
    sizes = np.ones(2 * n - 1)
    for m, (x, y) in enumerate(children.tolist()):
        sizes[n + m] = sizes[x] + sizes[y]
    if not np.array_equal(sizes[n:], Z[:, 3]):
        raise CluvalError(f"{name} is not a valid linkage matrix: its fourth column must count the objects under "
                          "each merge")


def _representatives(Z: np.ndarray) -> np.ndarray:
    """One leaf of each merge's node (its first child's, followed down), by pointer doubling."""
    n = len(Z) + 1
    first = Z[:, 0].astype(np.int64)
    leaf = first.copy()
    jump = np.where(first >= n, first - n, -1)  # the merge whose first leaf this one's is
    while (jump >= 0).any():
        ahead = jump >= 0
        leaf[ahead] = leaf[jump[ahead]]
        jump[ahead] = jump[jump[ahead]]
    return leaf


def _components(tree: Tree, k: int, rep: np.ndarray | None = None) -> np.ndarray:
    """Labels of the cut into k clusters, numbered in order of first appearance (`rep`: the
    merges' representatives, :func:`_representatives`, when known)."""
    n = tree.n
    Z = tree.linkage
    merges = n - k
    rep = _representatives(Z) if rep is None else rep
    ends = np.where(Z[:merges, :2] >= n, rep[np.maximum(Z[:merges, :2].astype(np.int64) - n, 0)],
                    Z[:merges, :2].astype(np.int64))
    graph = coo_array((np.ones(merges), (ends[:, 0], ends[:, 1])), shape=(n, n))
    labels = connected_components(graph, directed=False)[1]
    return pd.factorize(labels)[0]  # numbered in order of first appearance


def _check_k(k, n: int, name: str = "k") -> int:
    if isinstance(k, bool) or not isinstance(k, numbers.Integral) or not 1 <= k <= n:
        raise CluvalError(f"{name} must be a whole number from 1 to the {n:,} objects, got {k!r}")
    return int(k)


def cut_labels(tree, k: int) -> np.ndarray:
    """The labels of a tree's cut into `k` clusters (after its first N - k merges), 0 … k - 1 in
    order of first appearance.

    >>> Z = [[0, 1, 0.5, 2], [2, 3, 1.0, 2], [4, 5, 2.0, 4]]
    >>> cut_labels(Z, 2).tolist(), cut_labels(Z, 3).tolist()
    ([0, 0, 1, 1], [0, 0, 1, 2])
    """
    tree = as_tree(tree)
    return _components(tree, _check_k(k, tree.n))


class _Merging:
    """One side's clusters as cuts go from k_max down to 1: the labels at k_max (numbered in order of
    first appearance) and, for each later merge, the two clusters (by those labels) it joins."""

    def __init__(self, tree: Tree, k_max: int):
        n = tree.n
        rep = _representatives(tree.linkage)
        self.labels = _components(tree, k_max, rep)
        # the merges n - k_max … n - 2 join, in order, the clusters holding these leaves
        top = tree.linkage[n - k_max:, :2].astype(np.int64)
        self.joins = self.labels[np.where(top >= n, rep[np.maximum(top - n, 0)], top)]


def _profile_tables(labels_a, labels_b, merging_a, merging_b, k_max: int):
    """(k, table) for k = k_max … 1: the cuts' tables in first-occurrence order, each the previous
    with the rows (and columns) the next merge joins added together.

    Clusters are numbered in order of first appearance, so the cluster a merge keeps (the one
    whose objects appear first) is the one of smaller number, and the clusters still apart, in
    ascending order, are in first-occurrence order: the tie order of each cut."""
    shape = (int(labels_a.max()) + 1, int(labels_b.max()) + 1)
    table = np.bincount(labels_a * shape[1] + labels_b, minlength=shape[0] * shape[1]).reshape(shape)
    alive = [np.ones(shape[0], dtype=bool), np.ones(shape[1], dtype=bool)]
    owner = [np.arange(shape[0]), np.arange(shape[1])]  # union-find: cluster -> the cluster it went into
    for k in range(k_max, 0, -1):
        yield k, table[np.ix_(np.flatnonzero(alive[0]), np.flatnonzero(alive[1]))]
        if k == 1:
            return
        step = k_max - k  # the merge that makes k - 1 clusters of k
        for axis, merging in ((0, merging_a), (1, merging_b)):
            if merging is None:
                continue
            keep, gone = sorted(_find(owner[axis], int(c)) for c in merging.joins[step])
            if axis == 0:
                table[keep] += table[gone]
            else:
                table[:, keep] += table[:, gone]
            alive[axis][gone] = False
            owner[axis][gone] = keep


def _find(owner: np.ndarray, x: int) -> int:
    while owner[x] != x:
        owner[x] = owner[owner[x]]
        x = int(owner[x])
    return x


def cut_profile(tree, other, ids=None, *, k_max: int | None = None, bands: bool = True) -> pd.DataFrame:
    """Each index at every cut k = 1 … k_max of `tree` against the same cut of `other` (a tree:
    the Bk plot generalised; `tree`'s cuts are the rows) or against `other` itself (flat labels:
    the reference, the rows, with `tree`'s cuts the candidate: which cut matches it best).

    `ids`: one index id or several; None for every index of a table of labels (those whose exact
    variance is paid per set of margins left out: named, they count). Returns a long frame with one
    row per (k, index): ``value`` (exactly
    :func:`~cluval_core.compare`'s on the two cuts), ``expected`` and ``sd`` under the
    permutation model where the index has an exact expectation there (else NaN; always NaN with
    ``bands=False``, which skips them), and ``k_true``, ``k_pred``, the clusters of each side.
    `k_max` defaults to 30 (at most N, and at most :data:`MAX_CUTS`).

    >>> Z = [[0, 1, 0.5, 2], [2, 3, 1.0, 2], [4, 5, 2.0, 4]]
    >>> cut_profile(Z, Z, ["ri"]).value.tolist()
    [1.0, 1.0, 1.0, 1.0]
    """
    tree = as_tree(tree, "tree")
    n = tree.n
    if ids is None:  # every index of a table of labels (the exact variances per margins left out: named, they count)
        ids = [i for i in index_ids(None, has_data=False) if INDICES[i].cost != "moments"]
    ids = index_ids([ids] if isinstance(ids, str) else list(ids))
    if any(INDICES[i].needs_data for i in ids):
        raise CluvalError(f"{next(i for i in ids if INDICES[i].needs_data)} needs the objects' coordinates, which "
                          "cuts of trees do not carry")
    if isinstance(other, Tree) or hasattr(other, "children_") or _looks_like_linkage(other):
        other_tree = as_tree(other, "other")
        if other_tree.n != n:
            raise CluvalError(f"the trees are over different numbers of objects: {n:,} and {other_tree.n:,}")
        labels_b = None
    else:
        other_tree = None
        labels_b = pd.factorize(as_labels(other, "other"))[0]
        if len(labels_b) != n:
            raise CluvalError(f"the tree is over {n:,} objects but other has {len(labels_b):,} labels")
    k_max = min(30, n) if k_max is None else _check_k(k_max, n, "k_max")
    if k_max > MAX_CUTS:
        raise CluvalError(f"k_max = {k_max:,} asks for more than the {MAX_CUTS:,} cuts a profile scores")
    merging_a = _Merging(tree, k_max)
    if other_tree is not None:
        merging_b = _Merging(other_tree, k_max)
        sides = merging_a.labels, merging_b.labels, merging_a, merging_b
    else:  # the flat labels are the reference (rows), the tree's cuts the candidate
        sides = labels_b, merging_a.labels, None, merging_a
    rows = []
    for k, table in _profile_tables(*sides, k_max):
        c = Comparison._build(table, np.arange(table.shape[0]), np.arange(table.shape[1]), copy=False)
        values = c.scores(ids)
        exact = _exact_expectations(c, ids) if bands else {}
        for i in ids:
            expected, sd = exact.get(i, (math.nan, None))
            rows.append({"k": k, "index": i, "value": values[i], "expected": expected,
                         "sd": math.nan if sd is None else sd, "k_true": c.k_true, "k_pred": c.k_pred})
    return pd.DataFrame(rows).sort_values(["k", "index"], kind="stable",
                                          key=lambda s: s if s.name == "k" else s.map(ids.index)).reset_index(drop=True)


def _looks_like_linkage(obj) -> bool:
    try:
        arr = np.asarray(obj)
    except Exception:  # noqa: BLE001 - anything that is not an array is not a linkage matrix
        return False
    return arr.ndim == 2 and arr.shape[1:] == (4,)


def _pair_values(tree: Tree, heights: np.ndarray) -> np.ndarray:
    """Each pair's value at the merge that joins it (condensed order), given one value per merge."""
    Z = np.array(tree.linkage)
    Z[:, 2] = heights
    return cophenet(Z)


def _pairs_of_both(a, b) -> tuple[Tree, Tree]:
    a, b = as_tree(a, "the first tree"), as_tree(b, "the second tree")
    if a.n != b.n:
        raise CluvalError(f"the trees are over different numbers of objects: {a.n:,} and {b.n:,}")
    if a.n > MAX_PAIR_OBJECTS:
        raise CluvalError(f"this measure reads all {a.n * (a.n - 1) // 2:,} pairs of the {a.n:,} objects; cluval "
                          f"reads them for at most {MAX_PAIR_OBJECTS:,} objects")
    return a, b


def cophenetic_correlation(a, b) -> float:
    """The Pearson correlation over all pairs of objects of the two trees' cophenetic distances
    (the height of the merge that first joins the pair): SciPy's ``cophenet(Z_a, cophenet(Z_b))[0]``.
    NaN when a tree joins every pair at one height.

    >>> Z = [[0, 1, 0.5, 2], [2, 3, 1.0, 2], [4, 5, 2.0, 4]]
    >>> cophenetic_correlation(Z, Z)
    1.0
    """
    a, b = _pairs_of_both(a, b)
    other = cophenet(b.linkage)
    if a.n < 3 or np.ptp(other) == 0 or np.ptp(a.linkage[:, 2]) == 0:
        return math.nan
    return float(cophenet(a.linkage, other)[0])


def bakers_gamma(a, b) -> float:
    """Baker's gamma: Spearman's rank correlation over all pairs of objects of the stages at which
    the two trees join them, a pair's stage being the largest k whose cut keeps it together (N - m
    for the m-th merge, merges counted from 1; dendextend's ``cor_bakers_gamma``). Ties in height do
    not matter: cuts follow the order of the merges. NaN for fewer than three objects.

    >>> Z = [[0, 1, 0.5, 2], [2, 3, 1.0, 2], [4, 5, 2.0, 4]]
    >>> bakers_gamma(Z, Z)
    1.0
    """
    a, b = _pairs_of_both(a, b)
    stages = [_pair_values(t, t.n - np.arange(1, t.n, dtype=np.float64)) for t in (a, b)]
    if len(stages[0]) < 2 or np.ptp(stages[0]) == 0 or np.ptp(stages[1]) == 0:
        return math.nan
    return float(spearmanr(*stages).statistic)


def entanglement(a, b, L: float = 1.5) -> float:
    """How crossed the tanglegram of two trees is: ``sum_o |p_a(o) - p_b(o)|^L`` over the objects, p the
    position (1 … N) in each tree's leaf order (SciPy's ``leaves_list``), divided by the same sum
    for one order against its reverse (dendextend's ``entanglement``). 0 for the same leaf order,
    1 for reversed ones.

    >>> Z = [[0, 1, 0.5, 2], [2, 3, 1.0, 2], [4, 5, 2.0, 4]]
    >>> entanglement(Z, Z)
    0.0
    """
    a, b = as_tree(a, "the first tree"), as_tree(b, "the second tree")
    if a.n != b.n:
        raise CluvalError(f"the trees are over different numbers of objects: {a.n:,} and {b.n:,}")
    if isinstance(L, bool) or not isinstance(L, numbers.Real) or not L > 0 or not math.isfinite(L):
        raise CluvalError(f"L must be a positive number, got {L!r}")
    position = np.empty((2, a.n))
    for side, t in enumerate((a, b)):
        position[side, leaves_list(t.linkage)] = np.arange(t.n)
    worst = float(np.sum(np.abs(np.arange(a.n) - np.arange(a.n)[::-1]) ** L))
    return float(np.sum(np.abs(position[0] - position[1]) ** L) / worst)


@dataclass(frozen=True)
class Tanglegram:
    """Two trees cut into k clusters, drawn facing each other (a tanglegram of the cut).

    ``branches[t]`` holds tree t's branches above the cut as SciPy's dendrogram draws them
    (``icoord``: positions along the leaves, ``dcoord``: heights), ``leaves[t]`` the cut's cluster
    (its label, :func:`cut_labels`) at each leaf position in drawing order, and ``table`` the
    objects each cluster of the first cut shares with each of the second's (k x k, in label order):
    the lines between the two trees.
    """

    k: int
    branches: tuple
    leaves: tuple
    table: np.ndarray


def tanglegram_layout(a, b, k: int) -> Tanglegram:
    """The :class:`Tanglegram` of two trees over the same objects, each cut into `k` clusters.

    >>> Z = [[0, 1, 0.5, 2], [2, 3, 1.0, 2], [4, 5, 2.0, 4]]
    >>> layout = tanglegram_layout(Z, Z, 2)
    >>> [leaves.tolist() for leaves in layout.leaves], layout.table.tolist()
    ([[0, 1], [0, 1]], [[2, 0], [0, 2]])
    """
    trees = as_tree(a, "the first tree"), as_tree(b, "the second tree")
    n = trees[0].n
    if trees[1].n != n:
        raise CluvalError(f"the trees are over different numbers of objects: {n:,} and {trees[1].n:,}")
    k = _check_k(k, n)
    if k < 2:
        raise CluvalError("a tanglegram needs a cut into at least 2 clusters")
    branches, leaves, labels = [], [], []
    for tree in trees:
        cut = _components(tree, k)
        drawn = dendrogram(tree.linkage, truncate_mode="lastp", p=k, no_plot=True)
        nodes = np.asarray(drawn["leaves"])
        leaf = np.where(nodes >= n, _representatives(tree.linkage)[np.maximum(nodes - n, 0)], nodes)
        branches.append((drawn["icoord"], drawn["dcoord"]))
        leaves.append(cut[leaf])
        labels.append(cut)
    table = np.zeros((k, k), dtype=np.int64)
    np.add.at(table, (labels[0], labels[1]), 1)
    return Tanglegram(k, tuple(branches), tuple(leaves), table)
