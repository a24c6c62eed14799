"""The contingency table of two partitions, built once and fast.

Rows are the clusters of ``labels_true`` and columns those of ``labels_pred``, each ordered
by their sorted distinct label values (labels that cannot be sorted, such as complex numbers
or mixtures of types without an order, keep the order in which they first occur); only
clusters that occur are kept, so label gaps never create empty clusters. Integer labels of
any width take a counting path (one ``np.bincount`` over combined codes, streamed in
cache-sized chunks) and are never converted to floats; every other label type is factorised
by hashing (``pandas.factorize``), never by sorting the objects. Two labels are the same
cluster exactly when they are equal as Python values (``1``, ``1.0`` and ``True`` are one
label; ``1`` and ``"1"`` are two).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.sparse import csr_array

from .compiled import compiled
from .validation import DENSE_CELLS, CluvalError, bad_label_error, first_bad_label

__all__ = ["factorize", "contingency_table", "first_occurrence_order"]

# Widest integer label range factorised by counting (a lookup table of that many entries).
_MAX_LOOKUP = 1 << 22
# Most cells a table larger than DENSE_CELLS is counted in densely (256 MB of counts), when it
# has at most _CELLS_PER_OBJECT cells per object; its non-empty cells are then kept sparse. One
# counting pass is several times quicker than sorting the combined codes.
_COUNTING_CELLS = 1 << 25
_CELLS_PER_OBJECT = 4


def _counted_cells(n: int) -> int:
    """Most cells a table of n objects is counted in (more: its combined codes are sorted)."""
    return max(DENSE_CELLS, min(_COUNTING_CELLS, _CELLS_PER_OBJECT * n))


def _sort_key(value):
    return (type(value).__name__, value)


def _sorted_uniques_order(uniques: np.ndarray) -> np.ndarray:
    """Argsort of the distinct labels (in first-occurrence order); mixed types sort by
    (type name, value); labels with no order at all keep their first-occurrence order."""
    try:
        return np.argsort(uniques, kind="stable")
    except TypeError:
        pass
    try:
        return np.array(sorted(range(len(uniques)), key=lambda i: _sort_key(uniques[i])), dtype=np.intp)
    except TypeError:
        return np.arange(len(uniques), dtype=np.intp)


def _as_exact_ints(labels: np.ndarray) -> np.ndarray:
    """Bools and unsigned ints as int64 when that is exact; uint64 beyond int64 unchanged."""
    if labels.dtype.kind == "b":
        return labels.astype(np.int8)
    if labels.dtype.kind == "u" and (labels.dtype.itemsize < 8 or int(labels.max()) < 2**63):
        return labels.astype(np.int64)
    return labels


def first_occurrence_order(labels: np.ndarray, uniques) -> np.ndarray:
    """The cluster indices in the order their first object occurs (the tie-breaking order).

    `labels` holds each object's label and `uniques` the clusters' distinct labels in table
    order (as :func:`factorize` returns them), or `labels` holds each object's cluster index
    and `uniques` is the number of clusters. Only the prefix of `labels` that contains
    every cluster is read.

    >>> first_occurrence_order(np.array([2, 0, 2, 1]), 3).tolist()
    [2, 0, 1]
    >>> first_occurrence_order(np.array(["b", "a", "b"]), np.array(["a", "b"])).tolist()
    [1, 0]
    """
    if isinstance(uniques, int):
        return _first_seen(np.asarray(labels), 0, np.arange(uniques), uniques)
    k = len(uniques)
    if labels.dtype.kind == "i" and uniques.dtype.kind == "i" and k:  # sorted integers
        lo, width = int(uniques[0]), int(uniques[-1]) - int(uniques[0]) + 1
        if width <= max(_MAX_LOOKUP, 2 * k):  # through a look-up table, in one pass that stops once all came
            lookup = np.full(width, -1, dtype=np.intp)
            lookup[uniques - lo] = np.arange(k)
            return _first_seen(labels, lo, lookup, k)
    length = min(len(labels), max(1024, 8 * k))
    while True:
        found = pd.unique(labels[:length])
        if len(found) == k or length == len(labels):
            break
        length = min(len(labels), 4 * length)
    if labels.dtype.kind in "iub" and uniques.dtype.kind in "iub":
        return np.searchsorted(uniques, found).astype(np.intp)
    return pd.Index(uniques, dtype=object, tupleize_cols=False).get_indexer(
        pd.Index(found, dtype=object, tupleize_cols=False)).astype(np.intp)


@compiled
def _first_seen(labels, lo, lookup, k):
    """The cluster indices 0..k-1 of the codes lookup[labels - lo], in the order their first object
    occurs: one pass that stops once all k have come (a label outside the look-up table, or
    looked up as -1, is an error)."""
    seen = np.zeros(k, dtype=np.bool_)
    order = np.empty(k, dtype=np.intp)
    found = 0
    for x in range(len(labels)):
        at = labels[x] - lo
        code = lookup[at] if 0 <= at < len(lookup) else -1
        if code < 0:
            raise ValueError("a label outside the clusters counted")
        if not seen[code]:
            seen[code] = True
            order[found] = code
            found += 1
            if found == k:
                break
    return order[:found]


def _int_range(labels: np.ndarray):
    lo, hi = int(labels.min()), int(labels.max())
    return lo, hi - lo + 1


def factorize(labels: np.ndarray, name: str = "labels") -> tuple[np.ndarray, np.ndarray]:
    """Codes 0..K-1 (in sorted label order) and the sorted distinct labels.

    >>> codes, uniques = factorize(np.array([10, -3, 10, 7]))
    >>> codes.tolist(), uniques.tolist()
    ([2, 0, 2, 1], [-3, 7, 10])
    """
    labels = _as_exact_ints(labels)
    if labels.dtype.kind == "i":
        lo, width = _int_range(labels)
        if width <= max(_MAX_LOOKUP, 2 * labels.size):
            shifted = (labels - lo if lo != 0 else labels).astype(np.int64, copy=False)
            present = np.bincount(shifted, minlength=width) > 0
            lookup = np.cumsum(present) - 1
            return lookup[shifted], np.flatnonzero(present).astype(labels.dtype) + lo
    if labels.dtype.kind in "US" and labels.dtype.itemsize > 0:
        hashed = _factorize_fixed_width(labels)
        if hashed is not None:
            codes, uniques = hashed
            return _sorted_codes(codes, uniques)
    try:
        codes, uniques = pd.factorize(labels, sort=False)
    except TypeError:  # an unhashable value: find and name it
        raise bad_label_error(name, *first_bad_label(labels)) from None
    uniques = np.asarray(uniques)
    if labels.dtype.kind == "O":
        if codes.min() < 0:  # pandas codes None and NaN as -1
            i = int(np.argmin(codes))
            raise bad_label_error(name, i, f"a missing or infinite label ({labels[i]!r}")
        bad = first_bad_label(uniques)
        if bad is not None:
            position = int(np.flatnonzero(codes == bad[0])[0])
            raise bad_label_error(name, position, bad[1])
    return _sorted_codes(codes, uniques)


def _sorted_codes(codes: np.ndarray, uniques: np.ndarray):
    order = _sorted_uniques_order(uniques)
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    return rank[codes], uniques[order]


def _factorize_fixed_width(labels: np.ndarray):
    """Factorise a fixed-width string array by hashing its raw characters to one int64.

    A polynomial hash over the characters (wrapping uint64 arithmetic) turns each string
    into an integer that pandas factorises with its integer hash table; one vectorised
    comparison against each code's first string then proves there was no collision (on a
    collision, None sends the caller to the general path).
    """
    width = labels.dtype.itemsize // 4 if labels.dtype.kind == "U" else labels.dtype.itemsize
    chars = labels.view(np.uint32 if labels.dtype.kind == "U" else np.uint8).reshape(len(labels), width)
    digest = np.zeros(len(labels), dtype=np.uint64)
    for column in range(width):
        digest *= np.uint64(1_000_003)
        digest += chars[:, column]
    codes, _ = pd.factorize(digest.view(np.int64), sort=False)
    first = np.empty(codes.max() + 1, dtype=np.int64)
    first[codes[::-1]] = np.arange(len(codes) - 1, -1, -1)
    uniques = labels[first]
    if not np.array_equal(uniques[codes], labels):
        return None
    return codes, uniques


def _integer_table(a: np.ndarray, b: np.ndarray):
    """Dense counting for two integer label vectors; None when the ranges are too wide.

    Only b's range is found up front (the multiplier of the combined code); a is streamed in
    cache-sized chunks whose own range is read while the chunk is in cache, and each chunk's
    counts are added into the rows of a table that grows to a's full range.
    """
    b_lo, width = _int_range(b)
    n = a.size
    limit = _counted_cells(n)
    if width > limit:
        return None
    chunk = min(n, max(1 << 18, 16 * width * width))  # a chunk's counts cost about width^2
    buffer = np.empty(chunk, dtype=np.int64)
    acc, acc_lo = np.zeros((0, width), dtype=np.int64), 0
    for start in range(0, n, chunk):
        stop = min(start + chunk, n)
        a_part = a[start:stop]
        lo, hi = int(a_part.min()), int(a_part.max())
        if (max(abs(lo), abs(hi)) + 1) * width + abs(b_lo) >= 2**62:
            return None  # combined codes would not fit in int64
        rows = hi - lo + 1
        if rows * width > limit:
            return None
        code = buffer[: stop - start]
        np.multiply(a_part, np.int64(width), out=code, casting="unsafe")
        code += b[start:stop]
        offset = lo * width + b_lo
        if offset:
            code -= offset
        counts = np.bincount(code, minlength=rows * width).reshape(rows, width)
        if acc.shape[0] == 0:
            acc, acc_lo = counts, lo
            continue
        new_lo, new_hi = min(acc_lo, lo), max(acc_lo + acc.shape[0], hi + 1)
        if (new_hi - new_lo) * width > limit:
            return None
        if new_lo < acc_lo or new_hi > acc_lo + acc.shape[0]:
            grown = np.zeros((new_hi - new_lo, width), dtype=np.int64)
            grown[acc_lo - new_lo: acc_lo - new_lo + acc.shape[0]] = acc
            acc, acc_lo = grown, new_lo
        acc[lo - acc_lo: hi - acc_lo + 1] += counts
    nonzero = acc != 0
    rows = np.flatnonzero(nonzero.any(axis=1))
    cols = np.flatnonzero(nonzero.any(axis=0))
    cut = len(rows) < acc.shape[0] or len(cols) < width
    table = acc[rows][:, cols] if cut else acc
    if table.size > DENSE_CELLS:  # kept as its non-empty cells
        table = _csr_of_dense(table, None if cut else nonzero)
    return table, rows + acc_lo, cols + b_lo


def _integer_cells(a: np.ndarray, b: np.ndarray, range_a: tuple[int, int], range_b: tuple[int, int]):
    """The table of two integer label vectors whose table is too large to hold densely: counted from
    the labels' offsets in their ranges (:func:`_sparse_table`), without factorising either side
    first, its empty rows and columns then dropped; None when a range is too wide for that (the
    caller factorises). The ranges are each side's (lowest label, width)."""
    (a_lo, width_a), (b_lo, width_b) = range_a, range_b
    most = max(_MAX_LOOKUP, 2 * a.size)  # a look-up table of each range, as factorize() allows
    if width_a > most or width_b > most:
        return None
    table = _sparse_table(a, b, width_a, width_b, a_lo, b_lo)
    per_row = np.diff(table.indptr)
    rows = np.flatnonzero(per_row)
    present = np.zeros(width_b, dtype=bool)
    present[table.indices] = True
    cols = np.flatnonzero(present)
    indices = table.indices if len(cols) == width_b else (np.cumsum(present) - 1)[table.indices]
    table = csr_array((table.data, indices, np.r_[0, np.cumsum(per_row[rows])]), shape=(len(rows), len(cols)))
    if len(rows) * len(cols) <= DENSE_CELLS:
        table = table.toarray()
    return table, (rows + a_lo).astype(a.dtype), (cols + b_lo).astype(b.dtype)


def contingency_table(labels_true: np.ndarray, labels_pred: np.ndarray):
    """Return ``(table, row_labels, col_labels)`` for two validated label vectors.

    ``table[i, j]`` counts the objects in the i-th reference cluster and the j-th candidate
    cluster (int64); labels are the sorted distinct values of each vector. A table of more
    than ``DENSE_CELLS`` cells is a ``scipy.sparse.csr_array`` holding only the non-empty
    cells.

    >>> table, rows, cols = contingency_table(np.array(["a", "a", "b"]), np.array([5, 9, 9]))
    >>> table.tolist(), rows.tolist(), cols.tolist()
    ([[1, 1], [0, 1]], ['a', 'b'], [5, 9])
    """
    if labels_true.shape != labels_pred.shape:
        raise CluvalError(f"labels_true and labels_pred differ in length: {labels_true.size} != {labels_pred.size}")
    labels_true, labels_pred = _as_exact_ints(labels_true), _as_exact_ints(labels_pred)
    if labels_true.dtype.kind == "i" and labels_pred.dtype.kind == "i":
        ranges = _int_range(labels_true), _int_range(labels_pred)
        counted = _integer_table(labels_true, labels_pred) if ranges[0][1] * ranges[1][1] <= DENSE_CELLS else None
        if counted is None:
            counted = _integer_cells(labels_true, labels_pred, *ranges)
        if counted is not None:
            return counted
    codes_a, rows = factorize(labels_true, "labels_true")
    codes_b, cols = factorize(labels_pred, "labels_pred")
    return table_from_codes(codes_a, codes_b, len(rows), len(cols)), rows, cols


def table_from_codes(codes_a: np.ndarray, codes_b: np.ndarray, k_a: int, k_b: int, weights=None):
    """Count the (row code, column code) pairs into a ``k_a x k_b`` int64 table: dense up to
    ``DENSE_CELLS`` cells, else a ``scipy.sparse.csr_array`` of the non-empty cells.

    With `weights` (finite, non-negative floats), each pair adds its weight: the table is
    int64 when every weight is a whole number (exact at any total), float64 otherwise.

    >>> table_from_codes(np.array([0, 0, 1]), np.array([0, 1, 1]), 2, 2, weights=np.array([2.0, 1.0, 3.0])).tolist()
    [[2, 1], [0, 3]]
    """
    dense = k_a * k_b <= DENSE_CELLS
    if weights is None and not dense:
        return _sparse_table(codes_a, codes_b, k_a, k_b)
    combined = codes_a.astype(np.int64, copy=False) * k_b + codes_b
    if weights is None:
        return np.bincount(combined, minlength=k_a * k_b).reshape(k_a, k_b)
    else:
        keys, where = (np.arange(k_a * k_b), combined) if dense else np.unique(combined, return_inverse=True)
        whole = weights.dtype.kind == "i" or bool(np.all(weights == np.floor(weights)))
        if whole and weights.sum(dtype=object) < 2**53:  # every partial sum is a whole number below 2**53: exact
            counts = np.bincount(where, weights=weights, minlength=len(keys)).astype(np.int64)
        elif whole:
            counts = np.zeros(len(keys), dtype=np.int64)
            np.add.at(counts, where, weights.astype(np.int64))
        else:
            counts = np.bincount(where, weights=weights, minlength=len(keys))
        if dense:
            return counts.reshape(k_a, k_b)
    return _csr(keys, counts, k_a, k_b)


def _sparse_table(codes_a: np.ndarray, codes_b: np.ndarray, k_a: int, k_b: int, lo_a: int = 0,
                  lo_b: int = 0) -> csr_array:
    """The k_a x k_b table of the pairs (codes_a - lo_a, codes_b - lo_b) as a CSR matrix of its non-empty
    cells, counted without sorting: row by row in a scratch row where the table has at most 8 cells
    per object (:func:`_cells_by_rows`), else by ordering the pairs by column, then by row
    (:func:`_cells`); O(N + k_a + k_b) either way."""
    n = len(codes_a)
    index = np.int32 if max(n, k_a, k_b) < 2**31 else np.int64  # the passes' own arrays: half the bytes
    indptr, counts = np.zeros(k_a + 1, np.int64), np.empty(n + 1, np.int64)
    if k_a * k_b <= 8 * n:
        columns = np.empty(n + 1, np.int64)
        cells = _cells_by_rows(codes_a, codes_b, lo_a, lo_b, k_b, indptr, np.empty(n, index), columns, counts)
    else:
        columns = np.empty(n, index)
        cells = _cells(codes_a, codes_b, lo_a, lo_b, k_b, indptr, np.empty(n, index), columns, counts)
    return csr_array((_trimmed(counts, cells), _trimmed(columns, cells).astype(np.int64, copy=False), indptr),
                     shape=(k_a, k_b))


def _trimmed(array: np.ndarray, length: int) -> np.ndarray:
    """array[:length], a view when that is most of it (no copy), else a copy (the rest freed)."""
    return array[:length] if 2 * length >= len(array) else array[:length].copy()


@compiled
def _cells_by_rows(codes_a, codes_b, lo_a, lo_b, k_b, indptr, by_row, columns, counts) -> int:
    """:func:`_cells` for a table of few cells per object: the pairs' columns ordered by row into
    `by_row` (one counting pass), then each row counted in one scratch row of k_b slots and read
    in column order, cleared as it is read. The read has no branch: every slot is written at the
    next cell's place, which moves on only past a count (so `columns` and `counts` hold one more
    than the pairs)."""
    k_a = len(indptr) - 1
    for a in codes_a:
        indptr[a - lo_a + 1] += 1
    for a in range(k_a):
        indptr[a + 1] += indptr[a]
    filled = indptr[:-1].copy()
    for i in range(len(codes_a)):
        row = codes_a[i] - lo_a
        by_row[filled[row]] = codes_b[i] - lo_b
        filled[row] += 1
    scratch = np.zeros(k_b, np.int64)
    cells = 0
    for a in range(k_a):
        begin, end = indptr[a], indptr[a + 1]
        indptr[a] = cells
        for p in range(begin, end):
            scratch[by_row[p]] += 1
        for b in range(k_b):
            count = scratch[b]
            columns[cells] = b
            counts[cells] = count
            scratch[b] = 0
            cells += count != 0
    indptr[k_a] = cells
    return cells


@compiled
def _cells(codes_a, codes_b, lo_a, lo_b, k_b, indptr, rows, columns, counts) -> int:
    """The non-empty cells of the table of the pairs (row codes_a - lo_a, column codes_b - lo_b), as a
    CSR matrix's arrays:
    into `indptr` (one more than the rows, zeros), `columns` (each row's ascending) and `counts`,
    returning how many; without sorting: the pairs are ordered by column into `rows`, then stably by
    row into `columns` (two counting passes), and each row's runs of one column counted in place."""
    k_a = len(indptr) - 1
    starts = np.zeros(k_b + 1, np.int64)
    for b in codes_b:
        starts[b - lo_b + 1] += 1
    for b in range(k_b):
        starts[b + 1] += starts[b]
    filled = starts[:-1].copy()
    for i in range(len(codes_a)):  # each pair's row, the pairs in the order of their columns
        rows[filled[codes_b[i] - lo_b]] = codes_a[i] - lo_a
        filled[codes_b[i] - lo_b] += 1
    for a in codes_a:
        indptr[a - lo_a + 1] += 1
    for a in range(k_a):
        indptr[a + 1] += indptr[a]
    filled = indptr[:-1].copy()
    for b in range(k_b):  # each pair's column, the pairs by row, then by column
        for p in range(starts[b], starts[b + 1]):
            columns[filled[rows[p]]] = b
            filled[rows[p]] += 1
    cells = 0
    for a in range(k_a):  # each row's runs of one column: a cell, moved to the front
        begin, end = indptr[a], indptr[a + 1]
        indptr[a] = cells
        for p in range(begin, end):
            if p > begin and columns[p] == columns[cells - 1]:
                counts[cells - 1] += 1
            else:
                columns[cells] = columns[p]
                counts[cells] = 1
                cells += 1
    indptr[k_a] = cells
    return cells


def _csr_of_dense(table: np.ndarray, nonzero: np.ndarray | None = None) -> csr_array:
    """The non-empty cells of a dense table of counts (`nonzero`: its mask, if known), as a ``csr_array``."""
    nonzero = table != 0 if nonzero is None else nonzero
    keys = np.flatnonzero(nonzero)  # a boolean mask: several times quicker than on the counts
    per_row = np.count_nonzero(nonzero, axis=1)
    cols = keys - np.repeat(np.arange(0, table.size, table.shape[1]), per_row)  # keys % K_b, without a division
    return csr_array((table.ravel()[keys], cols, np.r_[0, np.cumsum(per_row)]), shape=table.shape)


def _csr(keys: np.ndarray, counts: np.ndarray, k_a: int, k_b: int) -> csr_array:
    """The k_a x k_b table whose non-empty cells are row * k_b + column = `keys` (ascending) with `counts`."""
    rows, cols = np.divmod(keys, k_b)
    indptr = np.r_[0, np.cumsum(np.bincount(rows, minlength=k_a))]
    return csr_array((counts if counts.dtype.kind == "f" else counts.astype(np.int64), cols, indptr),
                     shape=(k_a, k_b))
