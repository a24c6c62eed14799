"""The comparison object: one contingency table, and everything derived from it, once.

A :class:`Comparison` holds the table of two partitions and computes, on first use and once,
the structures every index reads: pair counts, entropies, the optimal and greedy pairings,
the nearest-cluster mappings, centroids. It reads no labels itself (:func:`~cluval_core.compare`
does, in :mod:`cluval_core.core.labels`) and knows no index: :meth:`Comparison.score`,
:meth:`Comparison.steps` and :meth:`Comparison.contributions` ask the registry's entry.

>>> from cluval_core import compare
>>> c = compare([0, 0, 0, 1, 1, 1], [0, 0, 1, 1, 2, 2])
>>> c.table.tolist()
[[2, 1, 0], [0, 1, 2]]
>>> c.pair_counts
PairCounts(a=2, b=4, c=1, d=8)
>>> c.score("ri") == 10 / 15, c.score("psi") == (4/3 - 2/3) / (3 - 2/3)
(True, True)
"""

from __future__ import annotations

import math
import os
import warnings
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy.sparse import csr_array
from scipy.spatial.distance import cdist

from . import attainable as _attainable
from . import chance as _chance
from .cached import cached_property
from .compiled import compiled
from .contingency import contingency_table, factorize, first_occurrence_order, table_from_codes
from .emi import expected_mutual_information, mutual_information_grid
from .matching import (
    TIE_TOLERANCE,
    Mappings,
    NearestMapping,
    Pairing,
    assignment_gaps,
    greedy_pairing,
    greedy_pairing_cells,
    nearest_mapping,
    nearest_mapping_cells,
    optimal_pairing_cells,
    optimal_pairing_cells_is_tied,
    share_cell_graph,
    tie_priority,
)
from .numeric import FEW_TERMS, _sorted_sum, distinct_counts, order_free_sum, order_free_sum_counted
from .registry import LEFT_OUT_UPDATES, get_index, index_ids
from .steps import Step, Steps
from .validation import (
    DENSE_CELLS,
    SOFT_TOLERANCE,
    CluvalError,
    _item,
    as_labels,
    as_memberships,
    as_table,
    fewer_than_two,
    warn,
)

__all__ = ["Comparison", "PairCounts", "PairsOnly", "Entropies", "CentroidRatio", "Cells"]

_MAX_CENTROID_PAIRS = 50_000_000  # a dense matrix of centroid distances: 400 MB
# Distances between centroids (in units of the data's extent) closer than this, relatively,
# or absolutely for squared distances, are ties: rounding cannot tell them apart.
_DISTANCE_RTOL, _DISTANCE_ATOL = TIE_TOLERANCE, 1e-20


@dataclass(frozen=True)
class PairCounts:
    """Pairs of objects: together in both (a), only in the reference (b), only in the
    candidate (c), apart in both (d). Exact Python ints for crisp partitions."""

    a: int | float
    b: int | float
    c: int | float
    d: int | float

    @property
    def total(self):
        return self.a + self.b + self.c + self.d


class PairsOnly:
    """Two crisp partitions known by their four pair counts alone: all that an index of cost
    ``"pairs"`` reads of a comparison, so work that updates the pair counts table by table (the
    cuts of two trees) scores those indices without building each table's comparison. The
    values are :meth:`Comparison.score`'s on any table with these pair counts. With the cluster
    sizes of both sides (`sizes`, in any order), the permutation model's exact expectations of
    those indices (``INDICES[id].expectation``) read it too.

    >>> PairsOnly(PairCounts(a=2, b=4, c=1, d=8)).score("ri")
    0.6666666666666666
    """

    __slots__ = ("pair_counts", "row_sizes", "col_sizes", "_memo")
    is_soft = False

    def __init__(self, pair_counts: PairCounts, sizes: tuple | None = None):
        self.pair_counts = pair_counts
        if sizes is not None:
            self.row_sizes, self.col_sizes = (np.asarray(s, dtype=np.int64) for s in sizes)
            self._memo = {}

    @property
    def n(self) -> int:
        return int(self.row_sizes.sum())

    @property
    def k_true(self) -> int:
        return len(self.row_sizes)

    @property
    def k_pred(self) -> int:
        return len(self.col_sizes)

    def memo(self, derive):
        """As :meth:`Comparison.memo`: ``derive(self)`` computed once."""
        if derive not in self._memo:
            self._memo[derive] = derive(self)
        return self._memo[derive]

    margin_memo = memo  # what the sizes alone give: these sizes are this object's own

    @property
    def is_identical(self) -> bool:
        """The same partitions up to label names: no pair together on one side only."""
        return self.pair_counts.b == 0 and self.pair_counts.c == 0

    def score(self, index_id: str) -> float:
        info = get_index(index_id)
        if info.cost != "pairs":
            raise CluvalError(f"{info.id} reads more of a table than its pair counts")
        return float(info.compute(self)) + 0.0  # never -0.0, as Comparison.score


class Cells(NamedTuple):
    """The non-empty cells of a table in row-major order: row, column and count of each."""

    rows: np.ndarray
    cols: np.ndarray
    values: np.ndarray


@dataclass(frozen=True)
class Entropies:
    """Entropies in nats: reference, candidate, joint, and their mutual information."""

    true: float
    pred: float
    joint: float
    mutual_information: float


class PsiSteps(NamedTuple):
    """Deprecated (``Comparison.psi_steps``): PSI's S, E, max(K, K′), value, simplified value and last step."""

    S: float
    E: float
    max_k: int
    psi: float
    psi_simplified: float
    formula: str


@dataclass(frozen=True, eq=False)
class CentroidRatio:
    """Centroid Ratio's greedy pairing of centroids and each pair's stability ratio."""

    pairing_rows: np.ndarray
    pairing_cols: np.ndarray
    ratio: np.ndarray  # D_ij^2 / (D_i D_j) per pair
    unstable: np.ndarray  # bool per pair
    n_unpaired: int
    tie_broken: bool = False


class _Table(np.ndarray):
    """A comparison's dense table: read-only, and writing into it says why in cluval's words.

    Arithmetic on it, copies and conversions give plain numpy arrays.
    """

    def __setitem__(self, key, value):
        raise CluvalError("a comparison's table is read-only: every value computed from it assumes it never changes. "
                          "Change a copy (numpy.array(c.table)) and compare that (Comparison.from_table)")

    def __array_wrap__(self, array, context=None, return_scalar=False):
        if return_scalar and isinstance(array, np.ndarray) and array.ndim == 0:
            return array[()]
        return array.view(np.ndarray) if isinstance(array, np.ndarray) else array

    def copy(self, order="C"):
        return np.array(self, order=order)

    def __repr__(self):
        return repr(np.asarray(self))

    def astype(self, dtype, *args, **kwargs):
        return np.asarray(self).astype(dtype, *args, **kwargs)


def _labels_of_table(values, n: int, name: str) -> np.ndarray:
    """Row or column labels given to a table: one distinct hashable value per cluster."""
    if values is None:
        return np.arange(n)
    labels = as_labels(list(values) if isinstance(values, (pd.Index, range)) else values, name)
    if len(labels) != n:
        raise CluvalError(f"{name} has {len(labels)} labels but the table has {n} "
                          f"{'rows' if name == 'row_labels' else 'columns'}")
    repeated = pd.Index(labels, dtype=object, tupleize_cols=False).duplicated()
    if repeated.any():
        raise CluvalError(f"{name} repeats the label {_item(labels[repeated.argmax()])!r}: each cluster needs its own "
                          "label")
    return labels


def _margin(table, axis: int) -> np.ndarray:
    """Row (axis=1) or column (axis=0) sums of a dense or sparse table, in its own dtype.

    Real-valued sums are taken in sorted order, so that permuting the other side's clusters
    (relabelling) leaves every margin the same to the last bit.
    """
    if table.dtype.kind != "f":
        return np.asarray(table.sum(axis=axis)).ravel()
    if isinstance(table, np.ndarray):
        return np.sort(table, axis=axis).sum(axis=axis)
    lines = (table if axis == 1 else table.T).tocsr()
    owner = np.repeat(np.arange(lines.shape[0]), np.diff(lines.indptr))
    order = np.lexsort((lines.data, owner))
    return np.bincount(owner[order], weights=lines.data[order], minlength=lines.shape[0])


@compiled
def _dense_counts(table):
    """A dense table of counts in one compiled pass: its row and column sums and its non-empty cells
    (rows, columns, counts) in row-major order, as ``np.nonzero`` orders them."""
    k_a, k_b = table.shape
    row_sizes = np.zeros(k_a, dtype=np.int64)
    col_sizes = np.zeros(k_b, dtype=np.int64)
    filled = 0
    for i in range(k_a):
        for j in range(k_b):
            v = table[i, j]
            row_sizes[i] += v
            col_sizes[j] += v
            filled += v != 0
    rows = np.empty(filled, dtype=np.intp)
    cols = np.empty(filled, dtype=np.intp)
    values = np.empty(filled, dtype=np.int64)
    x = 0
    for i in range(k_a):
        for j in range(k_b):
            if table[i, j] != 0:
                rows[x], cols[x], values[x] = i, j, table[i, j]
                x += 1
    return row_sizes, col_sizes, rows, cols, values


def _one_less(x: int) -> float:
    """x log x - (x - 1) log(x - 1) (0 log 0 = 0): what a sum of x log x loses when one count x loses
    one, written log x + (x - 1) log1p(1 / (x - 1)) so that no digits cancel."""
    return 0.0 if x == 1 else math.log(x) + (x - 1) * math.log1p(1 / (x - 1))


def _entropies_left_out(e: Entropies, n: int, x: int, r: int, c: int) -> Entropies:
    """The entropies of a table of counts with one object of a cell left out (the cell's count x,
    its row's size r and column's size c lose one, N = n too), updated from the whole table's `e`.

    N H = N log N - sum x log x over each side's sizes (the cells' counts for the joint entropy) and
    N MI = sum n log n + N log N - sum r log r - sum c log c, so each, times N, changes by a few
    terms of :func:`_one_less`; the products with N are updated and divided by N - 1. The sums of
    the whole table are order-free (every value to the last bit); these are within a few units
    in the last place of them (the jackknife's values, to the last bits the sums allow).
    """
    whole, fewer = _one_less(n), n - 1
    return Entropies((n * e.true - whole + _one_less(r)) / fewer, (n * e.pred - whole + _one_less(c)) / fewer,
                     (n * e.joint - whole + _one_less(x)) / fewer,
                     max((n * e.mutual_information - whole - _one_less(x) + _one_less(r) + _one_less(c)) / fewer, 0.0))


def _value_counts_left_out(counted: tuple[np.ndarray, np.ndarray], x: int) -> tuple[np.ndarray, np.ndarray]:
    """:attr:`Comparison.cell_value_counts` with one cell's count x one less: x held by one cell fewer,
    x - 1 (unless 0) by one more; exactly what counting the left-out table's cells gives."""
    values, counts = counted
    at = int(np.searchsorted(values, x))
    counts = counts.copy()
    counts[at] -= 1
    if x > 1 and at > 0 and values[at - 1] == x - 1:
        counts[at - 1] += 1
    elif x > 1:
        values, counts = np.insert(values, at, x - 1), np.insert(counts, at, 1)
        at += 1
    if counts[at] == 0:
        values, counts = np.delete(values, at), np.delete(counts, at)
    _read_only(values, counts)
    return values, counts


@compiled
def _gathered(found, values, similarity):
    """Each pair's count and similarity (in float64) from its cell's position `found` among the
    non-empty cells (-1, a pair that shares nothing: 0 and 0.0), and the similarities'
    :func:`~cluval_core.core.numeric.order_free_sum` where it is one compiled sum (a few
    nonzero-summing terms; NaN elsewhere, for the caller to sum)."""
    overlap = np.zeros(len(found), dtype=values.dtype)
    sim = np.zeros(len(found))
    for x in range(len(found)):
        if found[x] >= 0:
            overlap[x] = values[found[x]]
            sim[x] = similarity[found[x]]
    total = _sorted_sum(sim) if len(sim) <= FEW_TERMS else np.nan
    return overlap, sim, total if total != 0.0 else np.nan


_BRAUN_BANQUET, _JACCARD, _RECALL = range(3)


@compiled
def _cell_ratios(kind, rows, cols, values, row_sizes, col_sizes):
    """A similarity of each cell (rows, cols, values) from the cluster sizes, in float64, by the
    operations numpy's elementwise form takes (the same bits): n / max(r, c) (_BRAUN_BANQUET),
    n / (r + c - n) (_JACCARD) or n / r (_RECALL)."""
    out = np.empty(len(values))
    for x in range(len(values)):
        n, r, c = values[x], row_sizes[rows[x]], col_sizes[cols[x]]
        if kind == _BRAUN_BANQUET:
            out[x] = n / max(r, c)
        elif kind == _JACCARD:
            out[x] = n / (r + c - n)
        else:
            out[x] = n / r
    return out


@compiled
def _psi_expected_terms(row_sizes, col_sizes, n):
    """PSI's E term by term: (r c / N) / max(r, c) for the min(K_a, K_b) largest sizes of each
    side, both sorted descending, paired in turn (in float64)."""
    k = min(len(row_sizes), len(col_sizes))
    r = np.sort(row_sizes)[::-1][:k].astype(np.float64)
    c = np.sort(col_sizes)[::-1][:k].astype(np.float64)
    return r * c / n / np.maximum(r, c)


def _read_only(*arrays):
    for arr in arrays:
        if isinstance(arr, np.ndarray):
            arr.setflags(write=False)


def _pair_sum(values: np.ndarray, n_total: float):
    """sum of C(v, 2) over `values`: an exact Python int for integer arrays."""
    if values.dtype.kind in "iu":
        if n_total < 3_000_000_000:  # the sum is below N^2 / 2 < 2^63
            return int(_pairs_within(values.astype(np.int64, copy=False)))
        return sum(int(v) * (int(v) - 1) // 2 for v in values.ravel().tolist())
    return order_free_sum(values * (values - 1.0) / 2.0)


@compiled
def _pairs_within(values):
    """sum of v (v - 1) / 2 over whole numbers `values`, in 64 bits."""
    total = 0
    for v in values:
        total += v * (v - 1) // 2
    return total


# Up to this many non-empty cells, a sum of a term of the count alone sorts every term (Comparison.cell_sum).
_FEW_CELLS = 256


def _entropy(counts: np.ndarray, n: float) -> float:
    p = counts[counts > 0] / n
    p = p[p > 0]  # soft cells may underflow to 0 once divided
    # a soft size may exceed N, the sum of the cells, in its last bit: no entropy below 0
    return max(-order_free_sum(p * np.log(p)), 0.0)


def _margin_entropies(c) -> tuple[float, float]:
    """(H(rows), H(columns)) in nats."""
    return _entropy(c.row_sizes, c.n), _entropy(c.col_sizes, c.n)


class Comparison:
    """Two partitions of the same objects, compared through one contingency table.

    Build one with :func:`compare`, :meth:`from_table` or :meth:`from_memberships`. Every
    derived structure (pair counts, entropies, pairings, mappings, centroids) is computed on
    first use and kept; the object is immutable.

    Attributes
    ----------
    table : ndarray (K_a, K_b)
        ``table[i, j]`` objects in reference cluster i and candidate cluster j; int64 for
        crisp partitions, float64 for soft ones.
    row_labels, col_labels : ndarray
        The label value of each row (reference cluster) and column (candidate cluster).
    """

    def __init__(self, table, row_labels=None, col_labels=None):
        if isinstance(table, pd.DataFrame):
            row_labels = table.index if row_labels is None else row_labels
            col_labels = table.columns if col_labels is None else col_labels
        table = as_table(table)
        self._setup(table, _labels_of_table(row_labels, table.shape[0], "row_labels"),
                    _labels_of_table(col_labels, table.shape[1], "col_labels"))

    @classmethod
    def _build(cls, table, row_labels, col_labels, *, X=None, labels=None, codes=None, noise=None, tie_order=None,
               weighted=False, margin_facts=None, known=None, copy=True):
        """A comparison of a table cluval built itself (no validation).

        `table` is a numpy array or a scipy.sparse array of counts; `tie_order`, when given, is
        (rows, columns) in the order their clusters first occur (else it is derived from
        `labels` or `codes`, or is the table's own order); `margin_facts` are cached properties
        that depend on the cluster sizes alone, known from another table with the same margins;
        `known(grid)`, a function giving the expected sum over the cells that `grid` defines
        (:meth:`known_sum`), or None where the comparison computes it, asked on first use: computed
        for many tables at once (the jackknife's). ``copy=False`` takes
        over `table`, which nothing else holds (else the comparison keeps a copy).
        """
        self = cls.__new__(cls)
        self._setup(table, row_labels, col_labels, X=X, labels=labels, codes=codes, noise=noise, tie_order=tie_order,
                    weighted=weighted, copy=copy)
        self.__dict__.update(margin_facts or {})  # as the cached properties keep them
        object.__setattr__(self, "_known", known)
        return self

    def _setup(self, table, row_labels, col_labels, *, X=None, labels=None, codes=None, noise=None, tie_order=None,
               weighted=False, copy=True):
        sparse = hasattr(table, "toarray") and hasattr(table, "nnz")
        if not sparse and table.dtype.kind in "iu" and table.size > DENSE_CELLS:
            table, sparse = csr_array(table), True  # a large table keeps only its non-empty cells
        # our own copy (unless handed over: one cluval built, already canonical), made read-only below
        table = csr_array(table, copy=copy) if sparse else np.array(table) if copy else np.asarray(table)
        if sparse and copy:
            table.sum_duplicates()
            table.eliminate_zeros()
        counted = None if sparse or table.dtype != np.int64 else _dense_counts(table)  # margins and cells at once
        row_sizes, col_sizes = counted[:2] if counted else (_margin(table, 1), _margin(table, 0))
        row_labels, col_labels = np.array(row_labels), np.array(col_labels)
        if not (row_sizes.all() and col_sizes.all()):  # sizes are never negative: some cluster is empty
            rows_kept, cols_kept = np.flatnonzero(row_sizes > 0), np.flatnonzero(col_sizes > 0)
            table = table[rows_kept][:, cols_kept]
            row_labels, col_labels = row_labels[rows_kept], col_labels[cols_kept]
        else:  # the margins of the table kept (real-valued ones are summed anew after a cut: in their own order)
            _read_only(row_sizes, col_sizes, *(counted or ())[2:])
            self.__dict__.update(row_sizes=row_sizes, col_sizes=col_sizes)  # as the cached properties keep them
            if counted:
                self.__dict__["cells"] = Cells(*counted[2:])
        n = row_sizes.sum()
        if fewer_than_two(n):
            raise CluvalError(f"at least 2 objects are needed to compare partitions, got {n}")
        if table.dtype.kind in "iu":
            self.__dict__["n"] = int(n)  # as the cached property keeps it (a real total is summed in order)
        _read_only(*((table.data, table.indices, table.indptr) if sparse else (table,)), row_labels, col_labels)
        self.__dict__.update(
            table=table if sparse else table.view(_Table), row_labels=row_labels, col_labels=col_labels, _X=X,
            _codes=codes, _labels=labels, noise=noise, _tie_order=tie_order,
            is_weighted=weighted,  # built with sample_weight: cells are sums of weights
            _memberships=None,  # (U, V) of a soft comparison, for chance()
            _values={},  # index id -> value, each computed once
            _memo={},  # function -> what it derives from this comparison (memo())
            _margin_memo={},  # function -> what it derives from the cluster sizes alone (margin_memo())
            _known=None)  # see _build

    def __setattr__(self, name, value):
        raise AttributeError("Comparison objects are immutable")

    def __repr__(self):
        kind = "soft " if self.is_soft else ""
        return (f"<Comparison of {kind}partitions: N={self.n:g}, K_true={self.k_true}, "
                f"K_pred={self.k_pred}{', with X' if self.has_data else ''}>")

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_table(cls, table, row_labels=None, col_labels=None):
        """Compare through a given table: counts, or real values for soft partitions.

        `table` may be a nested list, a numpy array, a scipy.sparse matrix or a pandas
        DataFrame (e.g. ``pandas.crosstab``), whose index and columns become the row and
        column labels. Empty rows and columns (clusters with no objects) are dropped. Ties are
        broken in the table's own row and column order.

        >>> Comparison.from_table([[5, 0], [0, 5]]).score("ari")
        1.0
        """
        return cls(table, row_labels, col_labels)

    @classmethod
    def from_memberships(cls, U, V, row_labels=None, col_labels=None):
        """Compare soft partitions through the generalised table ``N* = U^T V``.

        `U` (N x K_a) and `V` (N x K_b) hold each object's memberships, rows summing to 1.
        One-hot memberships are crisp labels: they give exactly the crisp table and values
        (ties broken in the order clusters first occur, as for labels); soft ones break ties
        in the table's order. `row_labels` and `col_labels` name the clusters (default
        0..K-1).

        >>> U = [[1, 0], [1, 0], [0, 1], [0, 1]]
        >>> V = [[0.9, 0.1], [0.8, 0.2], [0.1, 0.9], [0.0, 1.0]]
        >>> Comparison.from_memberships(U, V).table.round(2).tolist()
        [[1.7, 0.3], [0.1, 1.9]]
        """
        U = as_memberships(U, "U")
        V = as_memberships(V, "V")
        if U.shape[0] != V.shape[0]:
            raise CluvalError(f"U and V differ in number of objects: {U.shape[0]} != {V.shape[0]}")
        row_labels = _labels_of_table(row_labels, U.shape[1], "row_labels")
        col_labels = _labels_of_table(col_labels, V.shape[1], "col_labels")
        if np.array_equal(U, U.astype(bool)) and np.array_equal(V, V.astype(bool)):
            a, b = U.argmax(axis=1), V.argmax(axis=1)  # one-hot: crisp labels, compared as such
            table, rows, cols = contingency_table(a, b)
            codes = (np.searchsorted(rows, a), np.searchsorted(cols, b))  # the clusters that occur
            return cls._build(table, row_labels[rows], col_labels[cols], codes=codes)
        comparison = cls._build(U.T @ V, row_labels, col_labels)
        # kept for the permutation and resampling models (chance, uncertainty): the clusters
        # the table keeps are those with some membership (a row of N* sums to U's column)
        memberships = (U[:, U.sum(axis=0) > 0], V[:, V.sum(axis=0) > 0])
        _read_only(*memberships)
        object.__setattr__(comparison, "_memberships", memberships)
        return comparison

    # ------------------------------------------------------------------ comparisons derived from this one
    def with_table(self, table, *, rows=None, cols=None, tie_order=None, codes=None, X=None,
                   same_margins: bool = False, known=None) -> Comparison:
        """The comparison of another table over some of these clusters: a random, resampled or
        reduced table (chance, the jackknife, the bootstrap).

        `rows` and `cols` say which of this comparison's clusters the table's rows and columns
        are (default all, in order); `tie_order` is the new table's (default: these clusters'
        order, or the order of `codes` when given). With ``same_margins=True`` the table has
        this one's cluster sizes, and shares what depends on them alone (the expected mutual
        information); `known` gives the new table's expected sums over the cells, as in
        :meth:`known_sum`, or is None where they should be computed.
        """
        row_labels = self.row_labels if rows is None else self.row_labels[rows]
        col_labels = self.col_labels if cols is None else self.col_labels[cols]
        if tie_order is None and codes is None and rows is None and cols is None:
            tie_order = self.tie_order
        # (real-valued margins of another table are the same only to their last bits: nothing is shared)
        shared = {name: self.__dict__[name] for name in _MARGIN_FACTS
                  if same_margins and not self.is_soft and name in self.__dict__}
        return type(self)._build(table, row_labels, col_labels, X=X, codes=codes, tie_order=tie_order,
                                 margin_facts=shared, known=known)

    def with_objects(self, chosen) -> Comparison:
        """The comparison of some of the objects, with their coordinates: `chosen` indexes the
        objects (repeats allowed, as a bootstrap draws them); clusters left empty are dropped."""
        chosen = np.asarray(chosen)
        codes_a, codes_b = (codes[chosen] for codes in self.codes)
        (new_a, rows), (new_b, cols) = factorize(codes_a), factorize(codes_b)
        table = table_from_codes(new_a, new_b, len(rows), len(cols))
        X = None if self._X is None else self._X[chosen]
        return type(self)._build(table, self.row_labels[rows], self.col_labels[cols], X=X, codes=(new_a, new_b))

    def memo(self, derive):
        """``derive(self)``, computed once for this comparison and kept: for what an index family
        derives from the table and several of its indices read (the permutation model's
        moments, say)."""
        try:
            return self._memo[derive]
        except KeyError:
            value = self._memo[derive] = derive(self)
            return value

    def margin_memo(self, derive):
        """``derive(self)`` for a derivation that reads the cluster sizes alone (an expectation or
        variance under the permutation model, say): computed once and kept for every table with
        the same margins (:meth:`with_table` with ``same_margins=True``), such as chance()'s
        random tables."""
        try:
            return self._margin_memo[derive]
        except KeyError:
            value = self._margin_memo[derive] = derive(self)
            return value

    def known_sum(self, grid) -> float | None:
        """The expected sum over the cells that `grid` defines (``grid(A, B, n)``: E[T(m)] for the
        count m shared by clusters of sizes A_i and B_j of n objects), when it was computed for many
        tables at once and handed to this one (the jackknife's:
        :func:`~cluval_core.core.emi.expected_cell_sums_left_out`); None where the comparison
        computes it itself."""
        return None if self._known is None else self._known(grid)

    # ------------------------------------------------------------------ basic facts
    @cached_property
    def is_soft(self) -> bool:
        return self.table.dtype.kind == "f"

    @property
    def is_sparse(self) -> bool:
        """True when :attr:`table` is a ``scipy.sparse.csr_array`` of its non-empty cells (tables
        of more than ``DENSE_CELLS`` cells); every index is computed the same way either way."""
        return not isinstance(self.table, np.ndarray)

    @cached_property
    def cells(self) -> Cells:
        """The non-empty cells in row-major order: what every index is computed from."""
        t = self.table
        if self.is_sparse:
            rows = np.repeat(np.arange(t.shape[0], dtype=np.intp), np.diff(t.indptr))
            cells = Cells(rows, t.indices.astype(np.intp), t.data)
        else:
            t = np.asarray(t)  # plain arrays from here on, not the read-only table's class
            rows, cols = np.nonzero(t)
            cells = Cells(rows, cols, t[rows, cols])
        _read_only(*cells)
        return cells

    @cached_property
    def cell_value_counts(self) -> tuple[np.ndarray, np.ndarray]:
        """The distinct values of the non-empty cells, ascending, and how many cells hold each."""
        counted = distinct_counts(self.cells.values)
        _read_only(*counted)
        return counted

    def cell_sum(self, term) -> float:
        """The order-free sum (:func:`~cluval_core.core.numeric.order_free_sum`) of ``term(n_ij)`` over
        the non-empty cells, for an elementwise `term` of the count alone: on a table of counts it is
        taken once per distinct count (:attr:`cell_value_counts`), the same sum to the last bit. `term`
        must give one term per value."""
        values, counts = ((self.cells.values, None) if self.is_soft or len(self.cells.values) <= _FEW_CELLS
                          else self.cell_value_counts)  # few cells: sorting them all costs less
        terms = np.asarray(term(values))
        if terms.shape != values.shape:
            raise ValueError(f"cell_sum needs one term per value: {values.shape} values gave {terms.shape} terms")
        return order_free_sum(terms) if counts is None else order_free_sum_counted(terms, counts)

    def cell_values(self, rows, cols) -> np.ndarray:
        """The counts n_ij of the given (row, column) index pairs (0 for empty cells)."""
        rows, cols = np.asarray(rows, dtype=np.intp), np.asarray(cols, dtype=np.intp)
        if not self.is_sparse:
            return self.table[rows, cols]
        found = self._find_cells(rows, cols)
        values = self.cells.values
        return np.where(found >= 0, values[found], values.dtype.type(0))

    def _find_cells(self, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
        """Positions in :attr:`cells` of the given (row, column) pairs, -1 for empty cells."""
        keys = self._cell_keys
        wanted = rows.astype(np.int64) * self.k_pred + cols
        at = np.minimum(np.searchsorted(keys, wanted), len(keys) - 1)
        return np.where(keys[at] == wanted, at, -1)

    @cached_property
    def _cell_keys(self) -> np.ndarray:
        """row * K_b + column of each cell: ascending, as the cells are row-major."""
        return self.cells.rows.astype(np.int64) * self.k_pred + self.cells.cols

    def _per_cell(self, values: np.ndarray):
        """A table of per-cell values laid out like :attr:`table` (0 on empty cells)."""
        r, c, _ = self.cells
        if self.is_sparse:
            return csr_array((values, c, self.table.indptr), shape=self.table.shape)
        out = np.zeros(self.table.shape)
        out[r, c] = values
        return out

    @property
    def has_data(self) -> bool:
        return self._X is not None

    @property
    def data(self) -> np.ndarray | None:
        """The objects' coordinates X (read-only), or None when compared without them."""
        return self._X

    @property
    def memberships(self) -> tuple[np.ndarray, np.ndarray] | None:
        """(U, V), the memberships of a soft comparison built by :meth:`from_memberships`
        (read-only; the clusters the table keeps), or None."""
        return self._memberships

    @property
    def has_objects(self) -> bool:
        """True when built from unweighted labels: the table counts objects that ``codes`` names one
        by one, so resampling and permutation models may move the objects themselves."""
        return (self._labels is not None or self._codes is not None) and not self.is_weighted

    @cached_property
    def n(self):
        if not self.is_soft:
            return int(self.table.sum())
        return order_free_sum(self.cells.values)

    @cached_property
    def row_sizes(self) -> np.ndarray:
        sizes = _margin(self.table, 1)
        _read_only(sizes)
        return sizes

    @cached_property
    def col_sizes(self) -> np.ndarray:
        sizes = _margin(self.table, 0)
        _read_only(sizes)
        return sizes

    @property
    def k_true(self) -> int:
        return self.table.shape[0]

    @property
    def k_pred(self) -> int:
        return self.table.shape[1]

    @cached_property
    def is_identical(self) -> bool:
        """True when the two partitions are the same up to label names."""
        return self.k_true == self.k_pred == len(self.cells.values)

    # ------------------------------------------------------------------ pair counting
    @cached_property
    def pair_counts(self) -> PairCounts:
        n = self.n
        together_both = _pair_sum(self.cells.values, n)
        together_true = _pair_sum(self.row_sizes, n)
        together_pred = _pair_sum(self.col_sizes, n)
        all_pairs = n * (n - 1) // 2 if not self.is_soft else n * (n - 1) / 2
        b = together_true - together_both
        c = together_pred - together_both
        return PairCounts(together_both, b, c, all_pairs - together_both - b - c)

    # ------------------------------------------------------------------ information
    @cached_property
    def entropies(self) -> Entropies:
        n = self.n
        h_true, h_pred = self.margin_memo(_margin_entropies)
        if self.is_identical:  # the same multiset of probabilities: make the equalities exact
            return Entropies(h_true, h_true, h_true, h_true)
        r_idx, c_idx, nz = self.cells
        # counts are positive: each distinct count's term once (the same sum as _entropy's)
        h_joint = _entropy(nz, n) if self.is_soft else -self.cell_sum(lambda v: (v / n) * np.log(v / n))
        p = nz / n
        if self.is_soft:  # logs taken one by one: tiny soft cells never meet log(0)
            log_ratio = (np.log(nz) + np.log(float(n)) - np.log(self.row_sizes)[r_idx]
                         - np.log(self.col_sizes)[c_idx])
        else:
            outer = self.row_sizes[r_idx].astype(np.float64) * self.col_sizes[c_idx]
            log_ratio = np.log(nz * float(n)) - np.log(outer)
        mi = order_free_sum(p * log_ratio)
        return Entropies(h_true, h_pred, h_joint, max(mi, 0.0))

    @cached_property
    def expected_mutual_information(self) -> float:
        """E[MI] in nats under the permutation model (both partitions' sizes fixed), which every
        AMI subtracts; NaN for a real-valued table, or with a warning beyond the work cluval does."""
        if self.is_soft:
            return math.nan
        known = self.known_sum(mutual_information_grid)
        if known is not None:
            return max(known, 0.0)
        try:
            return expected_mutual_information(self.row_sizes, self.col_sizes)
        except CluvalError as exc:
            warn(f"AMI is not computed: {exc}", stacklevel=6)
            return math.nan

    # ------------------------------------------------------------------ tie order
    @cached_property
    def tie_order(self) -> tuple[np.ndarray, np.ndarray]:
        """(rows, columns) in the order their clusters first occur in the input.

        Ties in pairings and mappings are broken in this order (docs/definitions.rst), which no
        relabelling changes. Comparisons built from a table use its own order.
        """
        if self._tie_order is not None:
            orders = tuple(np.asarray(order, dtype=np.intp) for order in self._tie_order)
        elif self._labels is not None:
            orders = tuple(first_occurrence_order(labels, values)
                           for labels, values in zip(self._labels, (self.row_labels, self.col_labels)))
        elif self._codes is not None:
            orders = tuple(first_occurrence_order(codes, k) for codes, k in zip(self._codes, self.table.shape))
        else:
            orders = (np.arange(self.k_true, dtype=np.intp), np.arange(self.k_pred, dtype=np.intp))
        _read_only(*orders)
        return orders

    # ------------------------------------------------------------------ pairings
    def _pairing(self, criterion: str, rows: np.ndarray, cols: np.ndarray, found: np.ndarray,
                 similarity: np.ndarray, tie) -> Pairing:
        """A Pairing of the given pairs, whose cells are at `found` in :attr:`cells` (-1: empty);
        `similarity` holds the criterion's value of each cell."""
        overlap, sim, total = _gathered(found, self.cells.values, similarity)
        _read_only(rows, cols, overlap, sim)
        return Pairing(criterion, rows, cols, overlap, sim, order_free_sum(sim) if math.isnan(total) else total, tie,
                       (self.row_sizes, self.col_sizes, self.row_labels, self.col_labels))

    def _optimal_pairing(self, criterion: str, similarity: np.ndarray) -> Pairing:
        """The optimal pairing on a similarity given per non-empty cell (0 elsewhere)."""
        r, c, _ = self.cells
        if self.is_identical:  # one cell per row and column: they are the only pairing that uses no empty cell
            return self._pairing(criterion, r, c, np.arange(len(r)), similarity, False)
        rows, cols, found = optimal_pairing_cells(r, c, similarity, self.table.shape, *self.tie_order,
                                                  priority=lambda: self._tie_priority, return_cells=True,
                                                  shared=self._pairing_graph)
        tie = partial(optimal_pairing_cells_is_tied, r, c, similarity, self.table.shape, rows, cols)
        return self._pairing(criterion, rows, cols, found, similarity, tie)

    @cached_property
    def _pairing_graph(self) -> dict:
        """What the optimal pairings of this table share (their cells' graph; see
        :func:`~cluval_core.core.matching.optimal_pairing_cells`)."""
        return {}

    @cached_property
    def _tie_priority(self) -> np.ndarray:
        r, c, _ = self.cells
        return tie_priority(r, c, self.table.shape, *self.tie_order)

    @cached_property
    def _cell_braun_banquet(self) -> np.ndarray:
        """n_ij / max(r_i, c_j) of each non-empty cell."""
        return _cell_ratios(_BRAUN_BANQUET, *self.cells, self.row_sizes, self.col_sizes)

    @cached_property
    def _cell_jaccard(self) -> np.ndarray:
        """n_ij / (r_i + c_j - n_ij) of each non-empty cell."""
        return _cell_ratios(_JACCARD, *self.cells, self.row_sizes, self.col_sizes)

    @cached_property
    def braun_banquet(self):
        """n_ij / max(r_i, c_j) for every cell: the similarity PSI pairs on (laid out like
        :attr:`table`, sparse when it is)."""
        return self._per_cell(self._cell_braun_banquet)

    @cached_property
    def jaccard(self):
        """n_ij / (r_i + c_j - n_ij) for every cell: the similarity CI maps on (laid out like
        :attr:`table`, sparse when it is)."""
        return self._per_cell(self._cell_jaccard)

    @cached_property
    def hungarian_pairing(self) -> Pairing:
        """The optimal one-to-one pairing on Braun-Banquet similarity (PSI's S is its total)."""
        return self._optimal_pairing("braun_banquet", self._cell_braun_banquet)

    @cached_property
    def accuracy_pairing(self) -> Pairing:
        """The one-to-one pairing with the most shared objects (pivoted accuracy)."""
        return self._optimal_pairing("overlap", self.cells.values)

    @cached_property
    def row_normalised_pairing(self) -> Pairing:
        """The one-to-one pairing maximising sum of n_ij / r_i (adjusted asymmetric accuracy)."""
        return self._optimal_pairing("recall", self._row_normalised_weights())

    @cached_property
    def greedy_pairing(self) -> Pairing:
        """Criterion H's greedy pairing: largest remaining cell first, ties in tie order."""
        r, c, v = self.cells
        if self.is_identical:
            return self._pairing("overlap", r, c, np.arange(len(r)), v, False)
        rows, cols, tie, found = greedy_pairing_cells(r, c, v, self.table.shape, *self.tie_order,
                                                        priority=lambda: self._tie_priority, return_cells=True,
                                                        shared=self._pairing_graph)
        return self._pairing("overlap", rows, cols, found, v, tie)

    def _row_normalised_weights(self) -> np.ndarray:
        """n_ij / r_i of each non-empty cell."""
        return _cell_ratios(_RECALL, *self.cells, self.row_sizes, self.col_sizes)

    def _left_out(self, cell: int, tie_order=None, known=None) -> Comparison | None:
        """This comparison with one object of the non-empty cell `cell` left out (the exact
        jackknife), in `tie_order` (default this one's), sharing what provably stays the same;
        None when a cluster would empty or the table is sparse (the caller reduces the table).

        Shared: the pair counts (exact integers: a loses n_ij - 1 pairs, the row and column r_i - 1
        and c_j - 1, all pairs N - 1), the cells' tie order when the tie order is the same, the
        pairings that provably stay (:meth:`_share_pairings`), the entropies updated from the whole
        table's (:func:`_entropies_left_out`: to a few units in the last place, not to the bit), and
        what the index families derive and know how to update
        (:func:`~cluval_core.core.registry.left_out_update`). `known` is as in :meth:`with_table`.
        """
        r, c, v = self.cells
        i, j = int(r[cell]), int(c[cell])
        if self.is_sparse or self.row_sizes[i] == 1 or self.col_sizes[j] == 1:
            return None
        table = np.array(self.table)
        table[i, j] -= 1
        same_order = tie_order is None or _same_order(self.tie_order, tie_order)
        child = self.with_table(table, tie_order=self.tie_order if same_order else tie_order, known=known)
        counts, n = self.pair_counts, int(self.n)
        a = counts.a - (int(v[cell]) - 1)
        b = counts.a + counts.b - (int(self.row_sizes[i]) - 1) - a
        c_ = counts.a + counts.c - (int(self.col_sizes[j]) - 1) - a
        child.__dict__["pair_counts"] = PairCounts(a, b, c_, (n - 1) * (n - 2) // 2 - a - b - c_)
        if same_order:
            child.__dict__["tie_order"] = self.tie_order  # the same read-only arrays
            priority = self._tie_priority
            if v[cell] == 1:  # the emptied cell leaves the order; the cells after it move up
                kept = np.arange(len(v)) != cell
                priority = priority[kept] - (priority[kept] > priority[cell])
            child.__dict__["_tie_priority"] = priority
        self._share_pairings(child, cell, same_order)
        if "entropies" in self.__dict__ and not (self.is_soft or self.is_identical or child.is_identical):
            child.__dict__["entropies"] = _entropies_left_out(self.entropies, n, int(v[cell]), int(self.row_sizes[i]),
                                                              int(self.col_sizes[j]))
        if "cell_value_counts" in self.__dict__:
            child.__dict__["cell_value_counts"] = _value_counts_left_out(self.cell_value_counts, int(v[cell]))
        for derive, update in list(LEFT_OUT_UPDATES.items()):  # what the families update instead of deriving again
            if derive in self._memo:
                child._memo[derive] = update(self._memo[derive], self, i, j)
        return child

    def _share_pairings(self, child: Comparison, cell: int, same_order: bool) -> None:
        """Give `child`, this comparison with one object of the non-empty cell `cell` left out
        (the same clusters: the exact jackknife; `same_order`: in the same tie order), the pairings
        of this one that provably stay its pairings, so that it does not solve them again.

        Leaving out an object of cell (i, j) changes only the weights of row i and column j.
        An optimal pairing P that no other pairing ties stays the only optimal one when P
        does not use (i, j) and P's cells of row i and of column j gain at least as much as
        any cell of their row and column, and as nothing (a pairing may leave the row or column
        to a pair that shares nothing): every other pairing then gains no more than P. For the
        overlap n_ij only (i, j) changes, by -1; for n_ij / r_i row i's cells grow in proportion
        to n_ij; for n_ij / max(r_i, c_j) the rule is checked on the cells. Where the other cells
        gain more, P still stays when what they gain beyond P's cells is less than the row's and
        the column's gaps (:func:`~cluval_core.core.matching.assignment_gaps`: what every pairing
        that moves the row, or the column, loses against P), each alone and the two together
        less than the larger gap, by a margin that the child's own solution and tie test (the
        tie tolerance per pair) cannot blur: any other pairing moves row i, column j or both, and
        gains at most those amounts more than P. The greedy pairing
        stays the same when it does not use (i, j) and the tie order is the same: that cell only
        comes later in the order, where it was already blocked. The child's pairing is then
        built from these pairs exactly as from its own solution, so every value is the one it
        would compute.
        """
        if self.is_identical or child.table.shape != self.table.shape:
            return
        facts = self.memo(_PairingFacts)
        row, col = facts.lines(cell)
        emptied = bool(self.cells.values[cell] == 1)  # the child's cells are these, the emptied one removed
        for name, criterion, weight in _OPTIMAL_PAIRINGS:
            found, in_pairing, before, tied = facts.pairings[name]
            if tied or in_pairing[cell]:
                continue
            after = weight(child)
            excess = _excess(row, cell, emptied, before, after, in_pairing), _excess(col, cell, emptied, before,
                                                                                     after, in_pairing)
            if max(excess) > 0 and (criterion == "overlap" or not facts.stays(name, cell, *excess, after)):
                continue
            similarity = child.cells.values if criterion == "overlap" else after
            child.__dict__[name] = child._pairing(criterion, getattr(self, name).rows, getattr(self, name).cols,
                                                  _in_child(found, cell, emptied), similarity, False)
        found, in_pairing, _, _ = facts.pairings["greedy_pairing"]
        if same_order and not in_pairing[cell]:  # ties go by the order
            greedy = self.greedy_pairing
            child.__dict__["greedy_pairing"] = child._pairing(
                "overlap", greedy.rows, greedy.cols, _in_child(found, cell, emptied), child.cells.values,
                partial(_greedy_tie, child))

    def _pairing_cells(self, pairing: Pairing) -> np.ndarray:
        """Each pair's position in :attr:`cells` (-1: a pair of clusters that share nothing)."""
        return self._find_cells(pairing.rows, pairing.cols)

    @cached_property
    def psi_expected(self) -> float:
        """PSI's E: sum over the min(K_a, K_b) largest-with-largest pairs of
        (r c / N) / max(r, c), both size lists sorted descending."""
        return order_free_sum(_psi_expected_terms(self.row_sizes, self.col_sizes, float(self.n)))

    @property
    def psi_steps(self) -> PsiSteps:
        """Deprecated: use ``steps("psi")``, PSI's computation in steps (S, E, max(K, K′))."""
        warnings.warn("Comparison.psi_steps is deprecated: use Comparison.steps(\"psi\")", DeprecationWarning,
                      stacklevel=2)
        steps = self.steps("psi")
        return PsiSteps(steps["S"], steps["E"], steps["k"], steps.value, self.score("psi_simplified"), str(steps[-1]))

    # ------------------------------------------------------------------ mappings
    def _mappings(self, criterion: str, nearest) -> Mappings:
        """Nearest-neighbour mappings both ways; nearest(forward, target_order) gives one way's
        (targets, in_degree, tie_broken)."""
        row_order, col_order = self.tie_order
        out = []
        for direction, forward, order, src, dst in (("true->pred", True, col_order, self.row_labels, self.col_labels),
                                                    ("pred->true", False, row_order, self.col_labels, self.row_labels)):
            targets, in_degree, tie = nearest(forward, order)
            _read_only(targets, in_degree)
            out.append(NearestMapping(direction, criterion, targets, in_degree, src, dst, tie))
        return Mappings(*out)

    @cached_property
    def _jaccard_nearest(self):
        """Both ways: (targets, in_degree, tie_broken, the chosen cells' positions in cells)."""
        r, c, _ = self.cells
        rows, cols = self.tie_order
        shape = self.table.shape
        return (nearest_mapping_cells(r, c, self._cell_jaccard, shape, cols, return_cells=True),
                nearest_mapping_cells(c, r, self._cell_jaccard, shape[::-1], rows, return_cells=True))

    @cached_property
    def jaccard_mapping(self) -> Mappings:
        """Nearest neighbour by Jaccard, (reference -> candidate, candidate -> reference)."""
        return self._mappings("jaccard", lambda forward, order: self._jaccard_nearest[0 if forward else 1][:3])

    def mapped_overlaps(self, basis: str = "partition") -> tuple[np.ndarray, np.ndarray]:
        """Shared objects of every cluster with the cluster it maps to: n_{i,NN(i)} for each
        reference cluster, n_{NN(j),j} for each candidate cluster (CSI sums them)."""
        if basis == "partition":
            values = self.cells.values
            return values[self._jaccard_nearest[0][3]], values[self._jaccard_nearest[1][3]]
        forward, backward = self.centroid_mapping
        return (self.cell_values(np.arange(self.k_true), forward.targets),
                self.cell_values(backward.targets, np.arange(self.k_pred)))

    @cached_property
    def element_scores(self) -> np.ndarray:
        """Each object's element-centric similarity, in the order of the labels compared (their
        mean is ``ecs``); needs labels, not a table.

        For flat partitions an object's similarity is the Braun-Banquet similarity of its cell,
        n_ij / max(r_i, c_j) (Gates et al. 2019).
        """
        scores = self._cell_braun_banquet[self._find_cells(*self.codes)]
        _read_only(scores)
        return scores

    # ------------------------------------------------------------------ data (X)
    def _require_data(self, what: str):
        if self._X is None:
            raise CluvalError(f"{what} needs the data X: pass X=... to compare()")

    @cached_property
    def codes(self) -> tuple[np.ndarray, np.ndarray]:
        """Per-object cluster indices (row index, column index); needs labels, not a table."""
        if self._codes is not None:
            return self._codes
        if self._labels is None:
            raise CluvalError("per-object cluster indices exist only for comparisons built from labels")
        codes = tuple(factorize(labels)[0] for labels in self._labels)
        _read_only(*codes)
        return codes

    @cached_property
    def _unit_frame(self) -> tuple[np.ndarray, int]:
        """The shift to X's bounding box's centre and the power of two that scales it into [-1, 1].

        Centroids and their distances are computed in these units, where nothing
        overflows or underflows and where scaling X by a power of two changes no bit: a
        mapping never depends on the data's units. Returns (shift, exponent).
        """
        X = self._X
        # column by column: a reduction along the rows of a C-ordered matrix is ~30x slower
        low = np.array([X[:, j].min() for j in range(X.shape[1])])
        high = np.array([X[:, j].max() for j in range(X.shape[1])])
        shift = low / 2 + high / 2
        # x - shift is monotone in x: its largest magnitude is at the column's min or max
        extent = float(np.maximum(np.abs(high - shift), np.abs(low - shift)).max())
        exponent = int(np.frexp(extent)[1]) if extent > 0 else 0
        return shift, exponent

    @cached_property
    def _unit_centroids(self) -> tuple[np.ndarray, np.ndarray]:
        self._require_data("centroids")
        shift, exponent = self._unit_frame
        d = self._X.shape[1]
        sums = [np.zeros((k, d)) for k in (self.k_true, self.k_pred)]
        z = np.empty(len(self._X))
        for j in range(d):  # one coordinate in unit frame at a time
            np.subtract(self._X[:, j], shift[j], out=z)
            np.ldexp(z, -exponent, out=z)
            for total, codes, k in zip(sums, self.codes, (self.k_true, self.k_pred)):
                total[:, j] = np.bincount(codes, weights=z, minlength=k)
        return sums[0] / self.row_sizes[:, None], sums[1] / self.col_sizes[:, None]

    @cached_property
    def centroids(self) -> tuple[np.ndarray, np.ndarray]:
        """Mean of each reference and each candidate cluster in the feature space of X."""
        shift, exponent = self._unit_frame
        out = tuple(np.ldexp(cent, exponent) + shift for cent in self._unit_centroids)
        _read_only(*out)
        return out

    @cached_property
    def _unit_distances(self) -> np.ndarray:
        """Squared Euclidean distances between centroids, in the unit frame."""
        if self.k_true * self.k_pred > _MAX_CENTROID_PAIRS:
            raise CluvalError(f"the centroid-based indices compare all {self.k_true} x {self.k_pred} pairs of "
                              "centroids, "
                              f"more than {_MAX_CENTROID_PAIRS:.0e}: use the partition-based ones (ci_partition, "
                              "csi_partition), which need only the table")
        return cdist(*self._unit_centroids, "sqeuclidean")

    @cached_property
    def centroid_distances(self) -> np.ndarray:
        """Squared Euclidean distances between reference and candidate centroids."""
        with np.errstate(over="ignore"):
            d = np.ldexp(self._unit_distances, 2 * self._unit_frame[1])
        _read_only(d)
        return d

    @cached_property
    def centroid_mapping(self) -> Mappings:
        """Nearest centroid (squared Euclidean), (reference -> candidate, candidate -> reference).

        Distances equal to within rounding (a relative 1e-9) are ties, broken in tie order.
        """
        d2 = self._unit_distances

        def nearest(forward, order):
            return nearest_mapping(d2 if forward else d2.T, order, lower_is_nearer=True,
                                   rtol=_DISTANCE_RTOL, atol=_DISTANCE_ATOL)

        return self._mappings("centroid", nearest)

    @cached_property
    def centroid_ratio(self) -> CentroidRatio:
        """Greedy pairing of centroids by distance, and the stability of each pair.

        Distances equal to within rounding are ties, broken in tie order; a ratio counts as
        above 1 only beyond rounding (1 + 1e-9).
        """
        d2 = self._unit_distances
        rows, cols, tie = greedy_pairing(-d2, *self.tie_order, rtol=_DISTANCE_RTOL, atol=_DISTANCE_ATOL)
        own = []
        for cent in self._unit_centroids:
            if len(cent) < 2:
                own.append(np.full(len(cent), np.inf))
                continue
            dd = cdist(cent, cent, "sqeuclidean")
            np.fill_diagonal(dd, np.inf)
            own.append(np.sqrt(dd.min(axis=1)))
        pair_d2 = d2[rows, cols]
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):  # 0 * inf: a lone centroid
            denominator = own[0][rows] * own[1][cols]
            ratio = np.where(pair_d2 == 0, 0.0, pair_d2 / denominator)
        unpaired = max(self.k_true, self.k_pred) - len(rows)
        return CentroidRatio(rows, cols, ratio, ratio > 1 + TIE_TOLERANCE, unpaired, tie)

    # ------------------------------------------------------------------ chance, uncertainty, anatomy
    def chance(self, ids=None, *, n_samples: int = 1000, seed=None, progress=None,
               budget: float = _chance.BUDGET_SECONDS, model: str = "perm") -> pd.DataFrame:
        """Each index under a random model: by default the permutation model (both partitions'
        cluster sizes fixed); ``model`` "perm1", "num", "num1", "all" or "all1" draws the candidate
        (and, without the 1, the reference too) uniformly among the partitions with its number of
        clusters, or among all partitions (:mod:`cluval_core.core.random_models`).

        Returns a DataFrame indexed by index id with the observed ``value``, the ``expected``
        value (exact where a closed form exists, ``method`` "exact", else the mean of
        `n_samples` random tables with the same margins, "Monte Carlo", with its standard
        error ``mc_error``), the standard deviation ``sd`` (exact for the indices linear in the
        pair counts, else from the random tables), ``z`` = (value - expected) / sd and the
        one-sided ``p`` in the index's better direction,
        (1 + #{random values at least as good}) / (1 + n_samples), the value ``adjusted`` for
        chance, (value - expected) / (best - expected) (under the permutation model that of the
        Rand index is ARI), and the ``model``. Under the models that draw whole partitions the
        Rand index (mean and SD) and the mutual information (mean) are exact. Deterministic for a
        given `seed`; `progress(done, total)` is called as the tables are evaluated. The work
        stops with an error as soon as its first tables show that all of them would take
        longer than `budget` seconds (60 by default; ``math.inf`` for no limit). Needs integer
        counts (see :mod:`cluval_core.core.chance`). Under the models that draw whole partitions
        every one has margins of its own, so ``ids=None`` leaves out the indices whose exact
        variance costs about a second per set of margins (cost "moments": SMI); name them to
        have them.

        >>> from cluval_core import compare
        >>> c = compare([0] * 5 + [1] * 5, [0] * 4 + [1] * 6)
        >>> frame = c.chance(["ari", "psi"], n_samples=200, seed=0)
        >>> float(frame.loc["ari", "expected"]), frame.loc["ari", "method"]
        (0.0, 'exact')
        """
        return _chance.chance(self, ids, n_samples=n_samples, seed=seed, progress=progress, budget=budget,
                              model=model)

    def attainable(self, ids=None) -> pd.DataFrame:
        """Each index's lowest and highest value over the tables with this table's margins (both
        partitions' cluster sizes): ``low``, ``high``, whether each end is exact (``low_exact``,
        ``high_exact``) or a value some table reaches, and ``how`` (see
        :mod:`cluval_core.core.attainable`).

        >>> from cluval_core import compare
        >>> compare([0, 0, 0, 1, 1, 1], [0, 0, 1, 1, 1, 1]).attainable(["ri"])["low"].tolist()
        [0.4]
        """
        return _attainable.attainable_range(self, ids)

    def uncertainty(self, ids=None, *, method: str = "jackknife", level: float = 0.95, n_samples: int = 1000,
                    seed=None, progress=None, budget: float = _chance.BUDGET_SECONDS) -> pd.DataFrame:
        """Standard error ``se`` and interval (``low``, ``high``) of each index.

        ``method="jackknife"`` leaves out each object in turn, exactly from the table (one
        evaluation per non-empty cell, weighted by its count; a normal interval);
        ``"bootstrap"`` resamples the table's cells `n_samples` times (a percentile interval).
        The indices that need the coordinates compare anew with each object left out (or each
        resample); `progress(done, total)` is called as they go. As :meth:`chance`, the work
        stops when its first evaluations show that all would take longer than `budget` seconds.
        Every evaluation here has margins of its own, so ``ids=None`` leaves out the indices whose
        exact variance costs about a second per set of margins (the registry's cost "moments":
        SMI); name them to have them.
        """
        return _chance.uncertainty(self, ids, method=method, level=level, n_samples=n_samples, seed=seed,
                                   progress=progress, budget=budget)

    def contributions(self, index_id: str) -> _chance.Contributions:
        """Each cell's share of an index: a :class:`~cluval_core.Contributions` whose ``cells``
        (shaped like the table) and ``constant`` add up to the value; per-cluster orphan
        indicators for the Centroid Index (``INDICES[id].anatomy`` says which have cells).

        >>> from cluval_core import compare
        >>> parts = compare([0, 0, 1, 1], [0, 0, 1, 1]).contributions("ari")
        >>> parts.cells.round(3).tolist(), parts.constant
        ([[0.625, -0.125], [-0.125, 0.625]], 0.0)
        """
        return _chance.contributions(self, index_id)

    # ------------------------------------------------------------------ indices
    def score(self, index_id: str) -> float:
        """The value of one index (see :data:`cluval_core.INDICES`).

        On soft tables an index the registry marks as not meaningful there (``soft``) is NaN,
        and so is a value that rounding or the generalised counts (a soft cell below 1 has a
        negative "pair count" n(n-1)/2) push outside the index's range; a value within
        rounding of the range is clipped to it.
        """
        info = get_index(index_id)
        if info.id in self._values:
            return self._values[info.id]
        if info.needs_data:
            self._require_data(f"index {index_id!r}")
        if self.is_soft and not info.soft:
            return math.nan
        value = float(info.compute(self)) + 0.0  # never -0.0
        value = _within_range(value, info.range) if self.is_soft else value
        self._values[info.id] = value
        return value

    def scores(self, ids=None) -> dict[str, float]:
        """``{id: value}`` for the given index ids; all applicable ones when `ids` is None.

        Indices that need X are included only when the comparison has X. On a table of many
        cells, the pairings of the clusters that the indices read are solved in a second thread
        while the other indices are computed (the same values: each pairing is the one solved alone).
        """
        ids = index_ids(ids, has_data=self.has_data)
        return dict(zip(ids, self._scores_in_order(ids)))

    def _scores_in_order(self, ids) -> list[float]:
        """The values of `ids`, ids already checked (:func:`~cluval_core.core.registry.index_ids`), in
        their order: what :meth:`scores` and the loops over many tables (chance, the jackknife, the
        bootstrap, compare_many) read. On a table of many cells the pairings the indices read are
        solved in a second thread while the other indices are computed (:meth:`_pairings_to_solve`)."""
        pairings = self._pairings_to_solve(ids)
        if not pairings:
            return [self.score(i) for i in ids]
        with ThreadPoolExecutor(max_workers=1) as pool:  # the pairings solved in turn beside the other indices
            aside = [pool.submit(getattr, self, name) for name in pairings]
            try:
                for i in ids:
                    if get_index(i).pairing is None:
                        self.score(i)  # kept, and read below
            finally:  # those not begun are solved here, while the thread ends its own
                begun = [job for job in aside if not job.cancel()]
            for name, job in zip(pairings, aside):
                if job.cancelled():
                    getattr(self, name)
            for job in begun:
                job.result()  # (raises what the solver raised)
        return [self.score(i) for i in ids]

    def _pairings_to_solve(self, ids) -> list[str]:
        """Of the pairings the indices `ids` read, those not yet kept that scores() solves in a
        second thread (their solvers release the GIL) while the other indices are computed: all
        of them on a table of at least _ASIDE_CELLS non-empty cells, none on a smaller one (there
        they are solved when first read). What they share with each other is built first; each
        is the pairing solved alone."""
        if len(self.cells.values) < _ASIDE_CELLS or self.is_identical or _cores() < 2:
            return []
        names = {get_index(i).pairing for i in ids}
        wanted = [name for name in _PAIRINGS_BY_COST if name in names and name not in self.__dict__]
        if not wanted:
            return []
        r, c, v = self.cells
        share_cell_graph(self._pairing_graph, r, c, v, self.table.shape, *self.tie_order)
        self._tie_priority  # noqa: B018 - read by every pairing's tie order: computed once, here
        return wanted

    def steps(self, index_id: str) -> Steps:
        """One index's computation in steps, with this table's numbers.

        Each :class:`~cluval_core.core.steps.Step` is a formula, the formula with the numbers
        put in, and its value; the last step's value is exactly :meth:`score`'s (``.value``).
        Where a convention sets the value (one cluster on a side, identical partitions), the
        step says so.

        >>> from cluval_core import compare
        >>> c = compare([0, 0, 0, 0, 1, 1, 2, 2], [0, 0, 1, 1, 2, 2, 3, 3])
        >>> steps = c.steps("psi")
        >>> print(steps[-1])
        PSI = (S − E) / (k − E) = (2.5 − 0.75) / (4 − 0.75) = 0.5385
        >>> steps["S"], steps["E"], steps.value == c.score("psi")
        (2.5, 0.75, True)
        """
        info = get_index(index_id)
        if info.needs_data:
            self._require_data(f"index {index_id!r}")
        if self.is_soft and not info.soft:
            return Steps(info.id, [Step(info.id.upper(), "", "", math.nan,
                                        "needs counts: it is not defined on a real-valued table")])
        steps = list(info.steps(self))
        if self.is_soft:  # score() keeps soft values within the range: say so where that changed one
            last = float(steps[-1].value)
            kept = _within_range(last, info.range)
            if not (kept == last or (math.isnan(kept) and math.isnan(last))):
                note = ("outside the range by more than rounding: undefined" if math.isnan(kept)
                        else "within rounding of the range: kept in it")
                steps.append(Step(steps[-1].symbol, "", "", kept, note))
        return Steps(info.id, steps)


class _PairingFacts:
    """What :meth:`Comparison._share_pairings` reads of the whole table, once: each pairing's
    cells (positions in ``cells``, -1 for pairs that share nothing), a mask of them, the
    weights and whether another pairing ties, and its pairs; the cells of each row and of each
    column; each optimal pairing's gaps, when first asked (:meth:`stays`)."""

    def __init__(self, c: Comparison):
        r, col, _ = c.cells
        self.pairings = {}
        for name, _, weight in (*_OPTIMAL_PAIRINGS, ("greedy_pairing", "overlap", None)):
            pairing = getattr(c, name)
            found = c._pairing_cells(pairing)
            in_pairing = np.zeros(len(r), dtype=bool)
            in_pairing[found[found >= 0]] = True
            tied = pairing.tie_broken if weight is not None else None
            self.pairings[name] = (found, in_pairing, None if weight is None else weight(c), tied)
        self.shape = c.table.shape
        self.pairs = {name: (getattr(c, name).rows, getattr(c, name).cols) for name, _, _ in _OPTIMAL_PAIRINGS}
        self._gaps = {}
        self.row_start = np.searchsorted(r, np.arange(c.k_true + 1))  # cells are row-major
        self.by_col = np.argsort(col, kind="stable")
        self.col_start = np.searchsorted(col[self.by_col], np.arange(c.k_pred + 1))
        self.r, self.col = r, col

    def stays(self, name: str, cell: int, row_excess: float, col_excess: float, after: np.ndarray) -> bool:
        """Whether the pairing `name`, untied and without `cell` (i, j), is still the only optimal
        pairing, by a margin, when row i's cells gain at most `row_excess` more than its pair's
        and column j's `col_excess` more (see :meth:`Comparison._share_pairings`)."""
        before = self.pairings[name][2]
        if name not in self._gaps:  # each row's gap, by the column its pair has
            rows, cols = self.pairs[name]
            gaps = assignment_gaps(self.r, self.col, before, self.shape, rows, cols)
            self._gaps[name] = None if gaps is None else (gaps, gaps[rows[np.argsort(cols)]])
        if self._gaps[name] is None:
            return False
        by_row, by_col = self._gaps[name]
        gap_row, gap_col = by_row[self.r[cell]], by_col[self.col[cell]]
        # what the child's own solution and tie test (TIE_TOLERANCE of the largest weight per pair) can tell apart
        margin = 2 * (len(by_row) + 1) * TIE_TOLERANCE * max(float(before.max()), float(after.max()))
        row_excess, col_excess = max(row_excess, 0.0), max(col_excess, 0.0)
        return bool(row_excess < gap_row - margin and col_excess < gap_col - margin
                    and row_excess + col_excess < max(gap_row, gap_col) - margin)

    def lines(self, cell: int) -> tuple[np.ndarray, np.ndarray]:
        """The cells of the cell's row and of its column."""
        i, j = self.r[cell], self.col[cell]
        return (np.arange(self.row_start[i], self.row_start[i + 1]),
                self.by_col[self.col_start[j]:self.col_start[j + 1]])


@compiled
def _excess(line, cell, emptied, before, after, in_pairing):
    """How much more weight, from parent (`before`) to child (`after`, by the child's cells), the
    cells of `line` (the parent's cells of one row or column) gain than the pairing's cell among
    them, at most (a line's empty cells, and a pair that shares nothing, gain nothing): <= 0 when
    the pairing's cell gains most. With `emptied`, `cell` is not among the child's cells: it loses
    all its weight, and the cells after it are one place earlier in the child."""
    most, mine = 0.0, -np.inf
    for x in line:
        if emptied and x == cell:
            gained = -before[x]
        else:
            gained = after[x - 1 if emptied and x > cell else x] - before[x]
        most = max(most, gained)
        if in_pairing[x]:
            mine = max(mine, gained)
    return most - (mine if mine > -np.inf else 0.0)


def _same_order(mine, theirs) -> bool:
    """Whether two tie orders (rows, columns) are the same."""
    return mine is theirs or all(a is b or np.array_equal(a, b) for a, b in zip(mine, theirs))


def _in_child(found: np.ndarray, cell: int, emptied: bool) -> np.ndarray:
    """The positions `found` of the parent's cells among the child's (the emptied cell removed)."""
    return found - ((found > cell) & (found >= 0)) if emptied else found


# The pairings scores() solves in a second thread, the costliest first (Braun-Banquet's is the
# slowest on tables of many cells) ...
_PAIRINGS_BY_COST = ("hungarian_pairing", "row_normalised_pairing", "accuracy_pairing", "greedy_pairing")
# ... on tables of at least this many non-empty cells (on fewer, a thread gains less than it costs)
_ASIDE_CELLS = 1 << 16


def _cores() -> int:
    """The processor cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


# The optimal pairings: (property, criterion, the weights of a comparison's cells).
_OPTIMAL_PAIRINGS = (("hungarian_pairing", "braun_banquet", lambda x: x._cell_braun_banquet),
                     ("accuracy_pairing", "overlap", lambda x: x.cells.values.astype(np.float64)),
                     ("row_normalised_pairing", "recall", lambda x: x._row_normalised_weights()))


def _greedy_tie(child) -> bool:
    """Whether the child's greedy pairing depended on the tie order (computed only if asked)."""
    r, c, v = child.cells
    return greedy_pairing_cells(r, c, v, child.table.shape, *child.tie_order, priority=child._tie_priority)[2]


# Cached properties that depend on the cluster sizes alone: a table with the same margins shares them.
_MARGIN_FACTS = ("expected_mutual_information", "psi_expected", "_margin_memo")


def _within_range(value: float, bounds: tuple[float, float]) -> float:
    lo, hi = bounds
    slack = SOFT_TOLERANCE * max(1.0, abs(value)) if math.isfinite(value) else 0.0
    if math.isnan(value) or value < lo - slack or value > hi + slack:
        return math.nan
    return float(min(max(value, lo), hi))
