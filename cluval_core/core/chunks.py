"""Tables built chunk by chunk: streams of label chunks and Dask collections, in bounded memory.

A :class:`PartialTable` is the contingency table of a run of consecutive objects: the sorted
distinct labels of its rows and columns, the position (within the run) of each cluster's
first object, and its non-empty cells. Two runs that follow each other add up by label value
(``first + second``): clusters with equal labels (equal as Python values, as in
:func:`~cluval_core.contingency.contingency_table`) become one row or column, their cells are
summed, and each cluster keeps its earliest first object. A partial table holds
O(non-empty cells + distinct labels) numbers, whatever the number of objects, so
:func:`compare_chunks` compares any number of objects in the memory of one chunk and one
table.

The merged table equals the table of the concatenated labels: the same rows and columns in
the same (sorted) order, the same counts, and the same tie order (clusters in the order their
first object occurs in the whole input, docs/definitions.rst), so every index, tie-dependent ones
included, has exactly the value :func:`~cluval_core.compare` gives on the concatenation.

:func:`compare_dask` does the same for Dask arrays and Series (``compare`` hands them
over): each partition's table is built by cluval's own counting path on a Dask worker, the
partial tables are added in a tree of adjacent partitions, and only the final table is sent
back; everything after the table runs in memory. Dask is imported only there.

>>> first = PartialTable.from_labels(["a", "a", "b"], [1, 1, 2])
>>> second = PartialTable.from_labels(["c", "b"], [2.0, 3])
>>> total = first + second
>>> total.row_labels.tolist(), total.col_labels.tolist(), total.row_first.tolist()
(['a', 'b', 'c'], [1, 2, 3.0], [0, 2, 3])
>>> total.to_comparison().table.toarray().tolist()
[[2, 0, 0], [0, 1, 1], [0, 1, 0]]
"""

from __future__ import annotations

import functools
import numbers
import operator
import sys
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.sparse import coo_array

from .comparison import Comparison
from .contingency import (
    _as_exact_ints,
    _sorted_codes,
    _sorted_uniques_order,
    contingency_table,
    factorize,
    table_from_codes,
)
from .noise import Noise, is_label, normalise_noise
from .validation import MAX_TOTAL, CluvalError, as_labels, bad_label_error, first_bad_label, warn

__all__ = ["PartialTable", "compare_chunks", "compare_dask"]

# Partial tables added together at each step of the Dask tree reduction.
SPLIT_EVERY = 8
# Chunks of fewer objects are read one by one but counted together, this many objects at a time.
_SMALL_CHUNK = 4096
_DASK_EXTRA = 'python -m pip install "cluval[dask]"'


def _first_positions(labels: np.ndarray, uniques: np.ndarray) -> np.ndarray:
    """The position of each cluster's first object, for the clusters `uniques` (table order).

    Only the prefix of `labels` that contains every cluster is read (as in
    :func:`~cluval_core.contingency.first_occurrence_order`).
    """
    k = len(uniques)
    length = min(len(labels), max(1024, 8 * k))
    while True:
        codes, found = pd.factorize(labels[:length], sort=False)
        if len(found) == k or length == len(labels):
            break
        length = min(len(labels), 4 * length)
    # codes number the clusters in the order they occur: a new one is a new running maximum
    running = np.maximum.accumulate(codes)
    first = np.flatnonzero(np.r_[True, running[1:] > running[:-1]])
    if labels.dtype.kind in "iub" and uniques.dtype.kind in "iub":  # sorted integers
        where = np.searchsorted(uniques, np.asarray(found))
    else:
        where = pd.Index(uniques, dtype=object, tupleize_cols=False).get_indexer(
            pd.Index(np.asarray(found), dtype=object, tupleize_cols=False))
    positions = np.empty(k, dtype=np.int64)
    positions[where] = first
    return positions


def _is_pandas_text(labels) -> bool:
    """A pandas Series of text, categories or Python objects: factorised by pandas, without a
    Python object per label (a Dask DataFrame's partitions of CSV text are such Series)."""
    return isinstance(labels, pd.Series) and labels.dtype.kind == "O"


def _codes(labels, name: str) -> tuple[np.ndarray, np.ndarray]:
    """Each object's cluster index and the distinct labels in table order, as
    :func:`~cluval_core.contingency.factorize` gives them, and refused as it refuses them."""
    if not _is_pandas_text(labels):
        return factorize(as_labels(labels, name), name)
    try:
        codes, uniques = pd.factorize(labels, sort=False)
    except TypeError:  # an unhashable value: find and name it
        raise bad_label_error(name, *first_bad_label(np.asarray(labels, dtype=object))) from None
    if codes.size and codes.min() < 0:  # pandas codes None and NaN as -1
        i = int(np.argmin(codes))
        raise bad_label_error(name, i, f"a missing or infinite label ({labels.iloc[i]!r}")
    uniques = np.asarray(uniques, dtype=object)
    bad = first_bad_label(uniques)
    if bad is not None:
        raise bad_label_error(name, int(np.flatnonzero(codes == bad[0])[0]), bad[1])
    return _sorted_codes(codes, uniques)


def _occurring(codes: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Codes and labels without the labels no object carries (order kept)."""
    present = np.bincount(codes, minlength=len(labels)) > 0
    if present.all():
        return codes, labels
    return (np.cumsum(present) - 1)[codes], labels[present]


def _as_objects(labels: np.ndarray) -> np.ndarray:
    """Labels as Python values in an object array (numpy scalars become ints, floats, str)."""
    if labels.dtype.kind == "O":
        return labels
    if labels.dtype.kind in "mM":  # astype(object) would turn nanosecond times into ints
        out = np.empty(len(labels), dtype=object)
        out[:] = list(labels)
        return out
    return labels.astype(object)


def _common_labels(*arrays: np.ndarray) -> np.ndarray:
    """The arrays one after the other in one array whose equal elements are exactly the equal
    Python values.

    Same dtypes concatenate; integers of any widths share an integer dtype when one holds
    them all, texts share the widest text dtype; anything else becomes Python values (``1 ==
    1.0 == True``, ``1 != "1"``), each cluster keeping the value of its first object.
    """
    dtypes = {a.dtype for a in arrays}
    if len(dtypes) == 1:
        return np.concatenate(arrays)
    kinds = {d.kind for d in dtypes}
    common = None
    if kinds <= set("iub"):
        common = np.result_type(*dtypes)
        common = common if common.kind in "iub" else None
    elif len(kinds) == 1 and kinds <= set("USmM"):
        common = np.result_type(*dtypes)
    if common is not None:
        return np.concatenate([a.astype(common) for a in arrays])
    return np.concatenate([_as_objects(a) for a in arrays])


def _merge_labels(a: np.ndarray, a_first: np.ndarray, b: np.ndarray, b_first: np.ndarray):
    """The union of two label sets in table order, each label's first position, and where each
    of `a` and `b` goes in the union.

    `a` comes first in the input: a label in both keeps `a`'s value and first position. Table
    order is sorted label order (contingency.py's rule, incl. mixed types); labels with no
    order keep the order of their first objects, as in a table of the concatenation.
    """
    values = _common_labels(a, b)
    codes, uniques = pd.factorize(values, sort=False)
    uniques = np.asarray(uniques, dtype=values.dtype) if values.dtype.kind != "O" else np.asarray(uniques)
    first = np.empty(len(uniques), dtype=np.int64)
    first[codes[len(a):]] = b_first
    first[codes[: len(a)]] = a_first  # a's objects come before b's
    by_first = np.argsort(first, kind="stable")
    order = by_first[_sorted_uniques_order(uniques[by_first])]
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    return uniques[order], first[order], rank[codes[: len(a)]], rank[codes[len(a):]]


@dataclass(frozen=True, eq=False)
class PartialTable:
    """The contingency table of a run of consecutive objects, to be added to the next run's.

    Attributes
    ----------
    row_labels, col_labels : ndarray
        The distinct labels of the reference (rows) and the candidate (columns), in table
        order (sorted, as :func:`~cluval_core.contingency.contingency_table` orders them).
    row_first, col_first : ndarray of int64
        The position in the run of each row's (column's) first object.
    cells : scipy.sparse.coo_array of int64, shape (len(row_labels), len(col_labels))
        The non-empty cells, without duplicates, in row-major order.
    n : int
        The objects the table counts.
    dropped : int
        Objects dropped before counting because the reference marks them as noise (they hold
        no position in the run).
    """

    row_labels: np.ndarray
    col_labels: np.ndarray
    row_first: np.ndarray
    col_first: np.ndarray
    cells: coo_array
    n: int
    dropped: int = 0

    @classmethod
    def empty(cls, dropped: int = 0) -> PartialTable:
        """The table of a run without objects (the identity of ``+``)."""
        nothing = np.zeros(0, dtype=np.int64)
        return cls(nothing, nothing, nothing, nothing, coo_array((0, 0), dtype=np.int64), 0, dropped)

    @classmethod
    def from_labels(cls, labels_true, labels_pred, *, noise=None) -> PartialTable:
        """The table of one chunk of labels (any lengths, 0 included), built by cluval's
        counting path.

        `noise` may be a :class:`~cluval_core.Noise` with the ``"drop_reference_noise"``
        policy: the objects the reference marks as noise are dropped from the chunk.
        """
        noise = _chunk_noise(noise)
        n_a, n_b = _length(labels_true), _length(labels_pred)
        if n_a is not None and n_b is not None and n_a != n_b:
            raise CluvalError(f"labels_true and labels_pred differ in length: {n_a} != {n_b}")
        if n_a == 0:
            return cls.empty()
        if _is_pandas_text(labels_true) or _is_pandas_text(labels_pred):
            return cls._from_codes(_codes(labels_true, "labels_true"), _codes(labels_pred, "labels_pred"), noise)
        a = as_labels(labels_true, "labels_true")
        b = as_labels(labels_pred, "labels_pred")
        if a.shape != b.shape:
            raise CluvalError(f"labels_true and labels_pred differ in length: {a.size} != {b.size}")
        dropped = 0
        if noise is not None:
            keep = ~is_label(a, noise.label)
            dropped = int(a.size - np.count_nonzero(keep))
            if dropped:
                a, b = a[keep], b[keep]
            if a.size == 0:
                return cls.empty(dropped)
        table, rows, cols = contingency_table(a, b)
        cells = coo_array(table, dtype=np.int64)
        cells.sum_duplicates()
        return cls(rows, cols, _first_positions(a, rows), _first_positions(b, cols), cells, int(a.size), dropped)

    @classmethod
    def _from_codes(cls, true: tuple, pred: tuple, noise: Noise | None) -> PartialTable:
        """The table of labels given as (codes, distinct labels in table order) each."""
        (codes_a, rows), (codes_b, cols) = true, pred
        if codes_a.size != codes_b.size:
            raise CluvalError(f"labels_true and labels_pred differ in length: {codes_a.size} != {codes_b.size}")
        dropped = 0
        if noise is not None:
            keep = ~is_label(rows, noise.label)[codes_a]
            dropped = int(codes_a.size - np.count_nonzero(keep))
            if dropped:
                (codes_a, rows), (codes_b, cols) = _occurring(codes_a[keep], rows), _occurring(codes_b[keep], cols)
            if codes_a.size == 0:
                return cls.empty(dropped)
        cells = coo_array(table_from_codes(codes_a, codes_b, len(rows), len(cols)), dtype=np.int64)
        cells.sum_duplicates()
        first_a = _first_positions(codes_a, np.arange(len(rows)))
        first_b = _first_positions(codes_b, np.arange(len(cols)))
        return cls(rows, cols, first_a, first_b, cells, int(codes_a.size), dropped)

    def __add__(self, other: PartialTable) -> PartialTable:
        """The table of this run followed by `other`'s: labels merged by value, cells summed,
        first positions of `other` shifted past this run's objects."""
        if not isinstance(other, PartialTable):
            return NotImplemented
        if other.n == 0 or self.n == 0:
            kept = other if self.n == 0 else self
            return PartialTable(kept.row_labels, kept.col_labels, kept.row_first, kept.col_first, kept.cells,
                                kept.n, self.dropped + other.dropped)
        n = self.n + other.n
        if n > MAX_TOTAL:
            raise CluvalError(f"the chunks count {n} objects, more than {MAX_TOTAL} (2**62) that cluval counts exactly")
        rows, row_first, rows_a, rows_b = _merge_labels(self.row_labels, self.row_first,
                                                        other.row_labels, other.row_first + self.n)
        cols, col_first, cols_a, cols_b = _merge_labels(self.col_labels, self.col_first,
                                                        other.col_labels, other.col_first + self.n)
        cells = coo_array((np.concatenate([self.cells.data, other.cells.data]),
                           (np.concatenate([rows_a[self.cells.row], rows_b[other.cells.row]]),
                            np.concatenate([cols_a[self.cells.col], cols_b[other.cells.col]]))),
                          shape=(len(rows), len(cols)))
        cells.sum_duplicates()
        return PartialTable(rows, cols, row_first, col_first, cells, n, self.dropped + other.dropped)

    def tie_order(self) -> tuple[np.ndarray, np.ndarray]:
        """(rows, columns) in the order their first objects occur: the tie-breaking order."""
        return np.argsort(self.row_first, kind="stable"), np.argsort(self.col_first, kind="stable")

    def to_comparison(self, noise=None) -> Comparison:
        """The comparison of the whole run (the table handed over as a ``scipy.sparse`` array).

        `noise` is the :class:`~cluval_core.Noise` the chunks were read with, kept for reports.
        """
        if self.n == 0:
            what = "every object carries the noise label" if self.dropped else "there are no objects"
            raise CluvalError(f"at least 2 objects are needed to compare partitions: {what}")
        return Comparison._build(self.cells, self.row_labels, self.col_labels, noise=normalise_noise(noise),
                                 tie_order=self.tie_order())


def _length(labels) -> int | None:
    """The number of labels of a 1-D input, None when it has no length (as_labels says why)."""
    shape = getattr(labels, "shape", None)
    if shape is not None and len(shape) == 1:
        return int(shape[0])
    try:
        return len(labels)
    except TypeError:
        return None


def _chunk_noise(noise) -> Noise | None:
    """The noise treatment a chunked comparison supports: none, or dropping reference noise."""
    noise = normalise_noise(noise)
    if noise is not None and noise.policy != "drop_reference_noise":
        raise CluvalError(f"noise policy {noise.policy!r} needs every object at once (each noise object becomes a "
                          "cluster of its own); chunked and Dask comparisons support noise=None and the "
                          "'drop_reference_noise' policy")
    return noise


def _finish(total: PartialTable, noise: Noise | None, stacklevel: int) -> Comparison:
    """The comparison of all the chunks; `stacklevel` points a warning at the caller's call."""
    if noise is not None and total.dropped == 0 and total.n:
        warn(f"the noise label {noise.label!r} does not occur in labels_true: no object was dropped",
             stacklevel=stacklevel)
    if noise is not None and total.n == 0 and total.dropped:
        raise CluvalError(f"every object of labels_true carries the noise label {noise.label!r}: nothing is left")
    return total.to_comparison(noise)


def compare_chunks(chunks: Iterable, *, noise=None) -> Comparison:
    """Compare two partitions given as a stream of chunks, in bounded memory.

    Parameters
    ----------
    chunks : iterable of (labels_true, labels_pred)
        Consecutive pieces of the two label vectors, each pair of equal length (0 allowed);
        any iterable, a generator included: each chunk is counted and released before the
        next is read.
    noise : None, Noise or (label, "drop_reference_noise"), optional
        As in :func:`~cluval_core.compare`; the ``"singletons"`` policy needs every object at
        once and is refused.

    Returns
    -------
    Comparison
        Exactly :func:`~cluval_core.compare` of the concatenated chunks: the same table,
        labels and tie order, so every index has the same value. Each chunk is read as
        ``compare`` reads a label vector (a list ``[0, 1.0]`` holds floats) and chunks are
        concatenated as Python values. The comparison holds the table only, not the objects
        (no ``codes``, no X).

    Notes
    -----
    Memory holds one chunk and one table of O(non-empty cells + distinct labels), whatever
    the number of objects. Labels are the same cluster across chunks when they are equal as
    Python values (``1``, ``1.0`` and ``True``; never ``1`` and ``"1"``).

    Examples
    --------
    Two chunks give the comparison of their concatenation.

    >>> chunks = [([0, 0, 1], ["x", "x", "y"]), ([1, 2], ["y", "z"])]
    >>> c = compare_chunks(chunks)
    >>> c.table.toarray().tolist(), c.col_labels.tolist()
    ([[2, 0, 0], [0, 2, 0], [0, 0, 1]], ['x', 'y', 'z'])
    >>> c.score("ari")
    1.0
    """
    noise = _chunk_noise(noise)
    if isinstance(chunks, (str, bytes)) or not isinstance(chunks, Iterable):
        raise CluvalError(f"chunks must be an iterable of (labels_true, labels_pred) pairs, got "
                          f"{type(chunks).__name__}")
    merged, small, held = _Merger(), [], 0

    def count_small():  # the small chunks read so far, counted as one run
        if small:
            merged.add(PartialTable.from_labels(_common_labels(*(a for a, _ in small)),
                                                _common_labels(*(b for _, b in small)), noise=noise))
            small.clear()

    for i, chunk in enumerate(chunks):
        if not (isinstance(chunk, (tuple, list)) and len(chunk) == 2):
            raise CluvalError(f"chunk {i} must be a (labels_true, labels_pred) pair, got {type(chunk).__name__}")
        try:
            labels_true, labels_pred = chunk
            n, n_pred = _length(labels_true), _length(labels_pred)
            if n is not None and n_pred is not None and n != n_pred:
                raise CluvalError(f"labels_true and labels_pred differ in length: {n} != {n_pred}")
            if n == 0:
                continue  # an empty chunk adds nothing
            if n is not None and n < _SMALL_CHUNK and not (_is_pandas_text(labels_true) or
                                                          _is_pandas_text(labels_pred)):
                a, b = as_labels(labels_true, "labels_true"), as_labels(labels_pred, "labels_pred")
                if a.shape != b.shape:
                    raise CluvalError(f"labels_true and labels_pred differ in length: {a.size} != {b.size}")
                small.append((_as_exact_ints(a), _as_exact_ints(b)))  # as the table reads them, counted with the next
                held += a.size
                if held >= _SMALL_CHUNK:
                    count_small()
                    held = 0
                continue
            count_small()
            held = 0
            merged.add(PartialTable.from_labels(labels_true, labels_pred, noise=noise))
        except CluvalError as exc:
            raise CluvalError(f"chunk {i}: {exc}") from None
    count_small()
    return _finish(merged.total(), noise, stacklevel=4)


class _Merger:
    """Partial tables of consecutive runs added up in a balanced tree, as a binary counter adds:
    a table is merged with its neighbour only once they are about the same size, so each label
    and cell takes part in O(log(number of chunks)) merges and a long stream of small chunks, or
    of chunks of new labels, costs about what its cells cost (not the square of the chunks)."""

    def __init__(self):
        self._stack: list[tuple[int, PartialTable]] = []  # (size, table), sizes decreasing

    @staticmethod
    def _size(table: PartialTable) -> int:
        return len(table.row_labels) + len(table.col_labels) + table.cells.nnz + 1

    def add(self, table: PartialTable) -> None:
        size = self._size(table)
        while self._stack and self._stack[-1][0] <= size:
            _, earlier = self._stack.pop()
            table = earlier + table  # the earlier run first: its labels' first objects come first
            size = self._size(table)
        self._stack.append((size, table))

    def total(self) -> PartialTable:
        total = PartialTable.empty()
        for _, table in self._stack:
            total = total + table
        return total


# ---------------------------------------------------------------------- Dask
def _dask_kind(labels) -> str:
    """'array', 'series', 'frame' or '' for a non-Dask input (told without importing Dask)."""
    if type(labels).__module__.split(".")[0] != "dask":
        return ""
    # a collection of a Dask module not yet imported cannot be this one (importing costs a second)
    da, dd = sys.modules.get("dask.array"), sys.modules.get("dask.dataframe")
    if da is not None and isinstance(labels, da.Array):
        return "array"
    if dd is not None and isinstance(labels, dd.Series):
        return "series"
    if dd is not None and isinstance(labels, dd.DataFrame):
        return "frame"
    return "other"


def _dask_labels(labels, name: str):
    """A Dask input as a 1-D array or a Series; a non-Dask input as it is."""
    kind = _dask_kind(labels)
    if kind == "frame":
        if len(labels.columns) != 1:
            raise CluvalError(f"{name} must be a 1-D sequence of labels, got a Dask DataFrame with "
                              f"{len(labels.columns)} columns: pass one column, e.g. frame[\"label\"]")
        return labels[labels.columns[0]], "series"
    if kind == "array" and labels.ndim != 1:
        raise CluvalError(f"{name} must be 1-D: shape is {labels.shape}")
    if kind == "other":
        raise CluvalError(f"{name} is a Dask {type(labels).__name__}: cluval compares Dask arrays, Series and "
                          "one-column DataFrames")
    return labels, kind


def _blocks(labels_true, labels_pred) -> tuple[list, list]:
    """The two inputs as lists of Dask delayed blocks that pair up position by position."""
    import dask.array as da

    a, kind_a = _dask_labels(labels_true, "labels_true")
    b, kind_b = _dask_labels(labels_pred, "labels_pred")
    if not kind_a or not kind_b:  # one input in memory: cut it like the Dask array
        on_dask, dask_name, kind = (a, "labels_true", kind_a) if kind_a else (b, "labels_pred", kind_b)
        memory_name = "labels_pred" if kind_a else "labels_true"
        if kind != "array":
            raise CluvalError(f"{dask_name} is a Dask Series and {memory_name} is in memory: pass both as Dask "
                              "collections with the same partitions (e.g. two columns of one Dask DataFrame)")
        if np.isnan(on_dask.shape[0]):
            raise CluvalError(f"{dask_name} is a Dask array of unknown chunk sizes and {memory_name} is in memory: "
                              f"call {dask_name}.compute_chunk_sizes() first, or pass both as Dask arrays")
        in_memory = as_labels(b if kind_a else a, memory_name)
        if in_memory.size != on_dask.shape[0]:
            sizes = (on_dask.shape[0], in_memory.size) if kind_a else (in_memory.size, on_dask.shape[0])
            raise CluvalError(f"labels_true and labels_pred differ in length: {sizes[0]} != {sizes[1]}")
        in_memory = da.from_array(in_memory, chunks=on_dask.chunks)
        a, b = (on_dask, in_memory) if kind_a else (in_memory, on_dask)
        kind_a = kind_b = "array"
    if kind_a == kind_b == "array":
        n_a, n_b = a.shape[0], b.shape[0]
        if not (np.isnan(n_a) or np.isnan(n_b)) and n_a != n_b:
            raise CluvalError(f"labels_true and labels_pred differ in length: {n_a} != {n_b}")
        if a.chunks != b.chunks and not np.isnan(a.chunks[0] + b.chunks[0]).any():
            b = b.rechunk(a.chunks)
    # not optimised one by one: what both inputs share (a file read once for two columns, a
    # block that the other is computed from) stays one task when the whole graph is optimised
    parts = [x.to_delayed(optimize_graph=False).ravel().tolist() if kind == "array"
             else x.to_delayed(optimize_graph=False) for x, kind in ((a, kind_a), (b, kind_b))]
    if len(parts[0]) != len(parts[1]):
        raise CluvalError(f"labels_true has {len(parts[0])} partitions and labels_pred {len(parts[1])}: pass Dask "
                          "collections with the same partitions (e.g. two columns of one Dask DataFrame)")
    return parts[0], parts[1]


def _partition_table(labels_true, labels_pred, noise, index: int) -> PartialTable:
    """One partition's table (runs on a Dask worker); Series are read position by position."""
    n_a, n_b = len(labels_true), len(labels_pred)
    if n_a != n_b:
        raise CluvalError(f"partition {index} has {n_a} labels in labels_true and {n_b} in labels_pred: pass Dask "
                          "collections with the same partitions (e.g. two columns of one Dask DataFrame)")
    try:
        return PartialTable.from_labels(labels_true, labels_pred, noise=noise)
    except CluvalError as exc:
        raise CluvalError(f"partition {index}: {exc}") from None


def _add_in_order(*tables: PartialTable) -> PartialTable:
    return functools.reduce(operator.add, tables)


def compare_dask(labels_true, labels_pred, *, X=None, noise=None, split_every: int = SPLIT_EVERY) -> Comparison:
    """Compare partitions held by Dask collections (``compare`` calls this for Dask inputs).

    Parameters
    ----------
    labels_true, labels_pred : dask.array.Array, dask.dataframe.Series or one-column DataFrame
        Two Dask collections whose partitions pair up (the same chunks, or two columns of one
        DataFrame), or one Dask array and one in-memory label vector (cut like the array).
        Series are read position by position within each partition: their index is not
        aligned.
    X : None
        Not supported: the centroid-based indices need the objects in memory.
    noise : None, Noise or (label, "drop_reference_noise"), optional
        Applied per partition; the ``"singletons"`` policy is refused.
    split_every : int
        Partial tables added at each step of the tree reduction.

    Returns
    -------
    Comparison
        Exactly :func:`~cluval_core.compare` on the computed labels (see :func:`compare_chunks`).

    Notes
    -----
    Each partition's table is built where the partition is (on a worker of a
    ``dask.distributed`` cluster when a client is connected, in a thread otherwise: the
    active scheduler is used), partial tables of adjacent partitions are added in a tree, and
    only the final table comes back. Memory per task is one partition and one table.
    """
    noise = _chunk_noise(noise)
    if X is not None:
        raise CluvalError("X is not supported with Dask labels: the centroid-based indices (ci_centroid, "
                          "csi_centroid, cr) need the objects in memory. Every index that needs only the table is "
                          "computed from Dask labels: pass X=None, or compute the labels and X in memory")
    if not (isinstance(split_every, numbers.Integral) and split_every >= 2):
        raise CluvalError(f"split_every must be an integer >= 2, got {split_every!r}")
    try:
        import dask
    except ImportError:
        raise CluvalError(f"comparing Dask collections needs Dask: {_DASK_EXTRA}") from None
    blocks_a, blocks_b = _blocks(labels_true, labels_pred)
    partition = dask.delayed(_partition_table, pure=True)
    level = [partition(a, b, noise, i) for i, (a, b) in enumerate(zip(blocks_a, blocks_b))]
    if not level:
        raise CluvalError("labels_true has no partitions: there are no objects to compare")
    add = dask.delayed(_add_in_order, pure=True)
    while len(level) > 1:
        level = [add(*level[i:i + split_every]) for i in range(0, len(level), split_every)]
    (total,) = dask.compute(level[0])
    return _finish(total, noise, stacklevel=5)  # called by compare()
