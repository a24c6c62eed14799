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
from scipy.stats import spearmanr

from .cached import cached_property
from .chance import _exact_expectations
from .comparison import Comparison, PairCounts, PairsOnly
from .registry import INDICES, index_ids
from .validation import CluvalError, as_labels

__all__ = ["Tree", "as_tree", "cut_labels", "cut_profile", "cophenetic_correlation", "bakers_gamma", "entanglement",
           "Tanglegram", "tanglegram_layout", "MAX_PAIR_OBJECTS", "MAX_CUTS",
           "MAX_TABLE_CUTS"]

# Most objects whose pairs the whole-tree measures read (N (N - 1) / 2 distances of 8 bytes, twice)
MAX_PAIR_OBJECTS = 5_000
# Most cuts a profile scores: with indices of the pair counts alone (each merge updates the counts),
# and with indices that read each cut's k x k table (a comparison per cut: the work grows as k_max^4,
# about a second at 500 cuts)
MAX_CUTS, MAX_TABLE_CUTS = 2_000, 500


@dataclass(frozen=True)
class Tree:
    """A hierarchy over ``n`` objects as SciPy's linkage matrix (read-only, float64, N - 1 rows)."""

    linkage: np.ndarray

    @property
    def n(self) -> int:
        return len(self.linkage) + 1

    @cached_property
    def starts(self) -> np.ndarray:
        """Each node's first place in the leaf order (merge m's node lists its first child's leaves,
        then its second's): node x holds the leaves at places ``starts[x]`` to ``starts[x] + size - 1``,
        so every cut is read off it in O(N) (:func:`as_tree` works it out once per tree)."""
        return _leaf_starts(self.linkage)

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
        try:
            heights = (np.arange(1, len(children) + 1, dtype=np.float64) if distances is None
                       else np.asarray(distances, dtype=np.float64))
        except (TypeError, ValueError):
            raise CluvalError(f"{name}'s distances_ must be numbers") from None
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
        if children.size and (children.min() < 0 or children.max() >= 2 * n - 1):
            raise CluvalError(f"{name}'s children_ name nodes outside 0 … {2 * n - 2}: is the tree complete?")
        later = np.flatnonzero((children >= n + np.arange(len(children))[:, None]).any(axis=1))
        if len(later):
            raise CluvalError(f"{name}'s merge {later[0]} joins a node made later: children_ is not in merge order")
        sizes = [1] * n
        for x, y in zip(children[:, 0].tolist(), children[:, 1].tolist()):
            sizes.append(sizes[x] + sizes[y])
        tree = np.column_stack([children.astype(np.float64), heights, sizes[n:]])
    try:
        if np.iscomplexobj(tree):
            raise TypeError("complex")
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
    tree = Tree(Z)
    tree.starts  # noqa: B018 - worked out once, with the tree, for all its cuts
    return tree


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
    # each merge's size is its children's (a leaf's is 1): then, from the first merge up, every size is right
    sizes = np.concatenate([np.ones(n), Z[:, 3]])
    if not np.array_equal(sizes[children[:, 0]] + sizes[children[:, 1]], Z[:, 3]):
        raise CluvalError(f"{name} is not a valid linkage matrix: its fourth column must count the objects under "
                          "each merge")


def _leaf_starts(Z: np.ndarray) -> np.ndarray:
    """Each node's first place in the leaf order: the sum, over the path from the node up to the root,
    of the sizes of the first children that precede it; pointer doubling sums each path in
    O(N log depth) array steps."""
    n = len(Z) + 1
    first, second = Z[:, 0].astype(np.intp), Z[:, 1].astype(np.intp)
    up = np.arange(2 * n - 1)
    up[first] = up[second] = np.arange(n, 2 * n - 1)
    sizes = np.ones(2 * n - 1, dtype=np.int64)
    sizes[n:] = Z[:, 3]
    starts = np.zeros(2 * n - 1, dtype=np.int64)
    starts[second] = sizes[first]  # a second child starts after its sibling's leaves
    root = 2 * n - 2
    while (up != root).any():
        starts += starts[up]
        up = up[up]
    return starts


def _cut(tree: Tree, k: int) -> tuple[np.ndarray, dict, np.ndarray]:
    """The cut into k clusters: each object's cluster (numbered 0 … k - 1 in no particular order),
    the clusters' numbers by their top nodes, and the children of the last k - 1 merges (node
    numbers). Each cluster is a run of the leaf order (:attr:`Tree.starts`)."""
    n, Z = tree.n, tree.linkage
    below = n - k  # merges 0 … below - 1 make the cut
    above = Z[below:, :2].astype(np.intp)
    # the clusters' top nodes: the children of the merges above the cut that are not made above it
    tops = above.ravel()
    tops = tops[tops < n + below] if k > 1 else np.array([2 * n - 2])
    starts = tree.starts
    in_order = np.argsort(starts[tops], kind="stable")
    sizes = np.where(tops >= n, Z[np.maximum(tops - n, 0), 3], 1).astype(np.intp)[in_order]
    labels = np.repeat(in_order, sizes)[starts[:n]]
    return labels, dict(zip(tops.tolist(), range(k))), above


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
    return _Merging(tree, _check_k(k, tree.n)).labels


class _Merging:
    """One side's clusters as cuts go from k_max down to 1: the labels at k_max (in order of first
    appearance with ``ordered``, else in no particular order), each cluster's number by its top
    node (``number``), and ``joins``: for each later merge, the two clusters it joins, the one kept
    (by its number) first, the smaller number."""

    def __init__(self, tree: Tree, k_max: int, ordered: bool = True):
        n = tree.n
        self.labels, self.number, above = _cut(tree, k_max)
        if ordered:
            self.labels, found = pd.factorize(self.labels)
            renumber = np.empty(k_max, dtype=np.intp)
            renumber[found] = np.arange(k_max)
            self.number = {top: int(renumber[i]) for top, i in self.number.items()}
        first = n + n - k_max  # the node of the first merge above the cut
        number, kept = self.number, []
        joins = []
        for x, y in above.tolist():  # each node above the cut is its cluster of smaller number
            x = kept[x - first] if x >= first else number[x]
            y = kept[y - first] if y >= first else number[y]
            joins.append((x, y) if x < y else (y, x))
            kept.append(joins[-1][0])
        self.joins = joins


def _profile_cuts(labels_a, labels_b, merging_a, merging_b, k_max: int, tables: bool):
    """(k, table, pair counts, sizes) for k = k_max … 1: each cut's pair counts and both sides' cluster
    sizes (a cluster merged into another 0), and with `tables` its table in first-occurrence order
    (else None), each the previous with the rows (and columns) the next merge joins added together,
    and the pairs those merges put together added to the counts.

    With `tables` the clusters are numbered in order of first appearance (:class:`_Merging`), so the
    cluster a merge keeps (the one whose objects appear first) is the one of smaller number, and the
    clusters still apart, in ascending order, are in first-occurrence order: the tie order of each
    cut. The pair counts and sizes need no order."""
    shape = (int(labels_a.max()) + 1, int(labels_b.max()) + 1)
    table = np.bincount(labels_a * shape[1] + labels_b, minlength=shape[0] * shape[1]).reshape(shape)
    sizes = [table.sum(axis=1).tolist(), table.sum(axis=0).tolist()]  # Python ints: exact products
    n = sum(sizes[0])
    total = n * (n - 1) // 2
    both = int(np.sum(table * (table - 1))) // 2
    side = [sum(x * (x - 1) for x in s) // 2 for s in sizes]
    lines = table, table.T  # each side's clusters as lines (views of one table)
    merging = [(axis, m.joins) for axis, m in enumerate((merging_a, merging_b)) if m is not None]
    alive = [np.ones(shape[0], dtype=bool), np.ones(shape[1], dtype=bool)]
    for k in range(k_max, 0, -1):
        only_a, only_b = side[0] - both, side[1] - both
        shown = table[np.ix_(np.flatnonzero(alive[0]), np.flatnonzero(alive[1]))] if tables else None
        yield k, shown, PairCounts(both, only_a, only_b, total - both - only_a - only_b), sizes
        if k == 1:
            return
        step = k_max - k  # the merge that makes k - 1 clusters of k
        for axis, joins in merging:
            keep, gone = joins[step]
            kept, joined, counts = lines[axis][keep], lines[axis][gone], sizes[axis]
            both += int(kept @ joined)  # the pairs of a cell's two parts, now together in both
            side[axis] += counts[keep] * counts[gone]
            counts[keep] += counts[gone]
            counts[gone] = 0
            kept += joined  # views of the table: its line `keep` takes in the line `gone`
            joined.fill(0)
            alive[axis][gone] = False


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
    `k_max` defaults to 30 (at most N, and at most :data:`MAX_CUTS`, or :data:`MAX_TABLE_CUTS` with an
    index that reads more than the pair counts).

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
    # indices of the pair counts alone (and their bands, from the cluster sizes) are read off the
    # counts each merge updates; the others off each cut's table, in first-occurrence order
    tables = any(INDICES[i].cost != "pairs" for i in ids)
    if tables and k_max > MAX_TABLE_CUTS:
        reads = next(i for i in ids if INDICES[i].cost != "pairs")
        raise CluvalError(f"k_max = {k_max:,} cuts with {reads}, which reads each cut's table, is more than the "
                          f"{MAX_TABLE_CUTS:,} cuts scored that way (a k x k table at each k): choose k_max up to "
                          f"{MAX_TABLE_CUTS:,}, or indices of the pair counts alone (such as ari and fowlkes_mallows)")
    merging_a = _Merging(tree, k_max, ordered=tables)
    if other_tree is not None:
        merging_b = _Merging(other_tree, k_max, ordered=tables)
        sides = merging_a.labels, merging_b.labels, merging_a, merging_b
    else:  # the flat labels are the reference (rows), the tree's cuts the candidate
        sides = labels_b, merging_a.labels, None, merging_a
    k_true = int(sides[0].max()) + 1
    columns = {"value": [], "expected": [], "sd": [], "k_true": [], "k_pred": []}
    for k, table, pairs, sizes in _profile_cuts(*sides, k_max, tables):
        counts = PairsOnly(pairs, [[x for x in side if x] for side in sizes] if bands else None)
        c = (Comparison._build(table, np.arange(table.shape[0]), np.arange(table.shape[1]), copy=False) if tables
             else None)
        exact = _exact_expectations(c if tables else counts, ids) if bands else {}
        for i in ids:
            expected, sd = exact.get(i, (math.nan, None))
            columns["value"].append(counts.score(i) if INDICES[i].cost == "pairs" else c.score(i))
            columns["expected"].append(expected)
            columns["sd"].append(math.nan if sd is None else sd)
        columns["k_true"].append(k if other_tree is not None else k_true)
        columns["k_pred"].append(k)
    m = len(ids)  # the cuts came from k_max down: the frame goes up, the indices in the order asked
    by_cut = {name: np.repeat(values[::-1], m) if name.startswith("k_") else
              np.array(values, dtype=np.float64).reshape(k_max, m)[::-1].ravel() for name, values in columns.items()}
    return pd.DataFrame({"k": np.repeat(np.arange(1, k_max + 1), m),
                         "index": np.tile(np.array(ids, dtype=object), k_max), **by_cut})


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
        cut = _Merging(tree, k)
        drawn = dendrogram(tree.linkage, truncate_mode="lastp", p=k, no_plot=True)
        branches.append((drawn["icoord"], drawn["dcoord"]))
        leaves.append(np.array([cut.number[top] for top in drawn["leaves"]]))  # the drawn leaves: the clusters' tops
        labels.append(cut.labels)
    table = np.zeros((k, k), dtype=np.int64)
    np.add.at(table, (labels[0], labels[1]), 1)
    return Tanglegram(k, tuple(branches), tuple(leaves), table)
