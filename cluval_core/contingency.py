"""The contingency table of two partitions, built once and fast.

Rows are the clusters of ``labels_true`` and columns those of ``labels_pred``, each ordered
by their sorted distinct label values; only clusters that occur are kept, so label gaps
never create empty clusters. Integer labels take a counting path (one ``np.bincount`` over
combined codes, streamed in cache-sized chunks); every other label type is factorised by
hashing (``pandas.factorize``), never by sorting the objects.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._validation import CluvalError

__all__ = ["factorize", "contingency_table"]

# Largest dense table (cells) the integer counting path may allocate before falling back
# to factorising each side: 4 Mi cells = 32 MiB.
_MAX_DENSE_CELLS = 1 << 22


def _sort_key(value):
    return (type(value).__name__, value)


def _sorted_uniques_order(uniques: np.ndarray) -> np.ndarray:
    """Argsort of the distinct labels; mixed types sort by (type name, value)."""
    try:
        return np.argsort(uniques, kind="stable")
    except TypeError:
        return np.array(sorted(range(len(uniques)), key=lambda i: _sort_key(uniques[i])), dtype=np.intp)


def _int_range(labels: np.ndarray):
    lo, hi = int(labels.min()), int(labels.max())
    return lo, hi - lo + 1


def factorize(labels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Codes 0..K-1 (in sorted label order) and the sorted distinct labels.

    >>> codes, uniques = factorize(np.array([10, -3, 10, 7]))
    >>> codes.tolist(), uniques.tolist()
    ([2, 0, 2, 1], [-3, 7, 10])
    """
    if labels.dtype.kind == "b":
        labels = labels.astype(np.int8)
    if labels.dtype.kind in "iu":
        lo, width = _int_range(labels)
        if width <= max(_MAX_DENSE_CELLS, 2 * labels.size):
            shifted = (labels - lo if lo != 0 else labels).astype(np.int64, copy=False)
            present = np.bincount(shifted, minlength=width) > 0
            lookup = np.cumsum(present) - 1
            return lookup[shifted], np.flatnonzero(present) + lo
    codes, uniques = pd.factorize(labels, sort=False)
    uniques = np.asarray(uniques)
    order = _sorted_uniques_order(uniques)
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    return rank[codes], uniques[order]


def _integer_table(a: np.ndarray, b: np.ndarray):
    """Dense counting for two integer label vectors; None when the ranges are too wide."""
    b_lo, b_width = _int_range(b)
    a_lo, a_width = _int_range(a)
    if a_width * b_width > max(_MAX_DENSE_CELLS, 2 * a.size):
        return None
    if (max(abs(a_lo), abs(a_lo + a_width)) + 1) * b_width + abs(b_lo) + b_width >= 2**62:
        return None  # combined codes would not fit in int64
    n = a.size
    cells = a_width * b_width
    chunk = min(n, max(1 << 18, 16 * cells))
    buffer = np.empty(chunk, dtype=np.int64)
    counts = np.zeros(cells, dtype=np.int64)
    offset = a_lo * b_width + b_lo
    for start in range(0, n, chunk):
        stop = min(start + chunk, n)
        code = buffer[: stop - start]
        np.multiply(a[start:stop], b_width, out=code, casting="unsafe")
        code += b[start:stop]
        if offset:
            code -= offset
        counts += np.bincount(code, minlength=cells)
    full = counts.reshape(a_width, b_width)
    rows = np.flatnonzero(full.any(axis=1))
    cols = np.flatnonzero(full.any(axis=0))
    table = full[rows][:, cols] if (len(rows) < a_width or len(cols) < b_width) else full
    return table, rows + a_lo, cols + b_lo


def contingency_table(labels_true: np.ndarray, labels_pred: np.ndarray):
    """Return ``(table, row_labels, col_labels)`` for two validated label vectors.

    ``table[i, j]`` counts the objects in the i-th reference cluster and the j-th candidate
    cluster (int64); labels are the sorted distinct values of each vector.

    >>> table, rows, cols = contingency_table(np.array(["a", "a", "b"]), np.array([5, 9, 9]))
    >>> table.tolist(), rows.tolist(), cols.tolist()
    ([[1, 1], [0, 1]], ['a', 'b'], [5, 9])
    """
    if labels_true.shape != labels_pred.shape:
        raise CluvalError(f"labels_true and labels_pred differ in length: {labels_true.size} != {labels_pred.size}")
    if labels_true.dtype.kind in "iu" and labels_pred.dtype.kind in "iu":
        dense = _integer_table(labels_true, labels_pred)
        if dense is not None:
            return dense
    codes_a, rows = factorize(labels_true)
    codes_b, cols = factorize(labels_pred)
    return table_from_codes(codes_a, codes_b, len(rows), len(cols)), rows, cols


def table_from_codes(codes_a: np.ndarray, codes_b: np.ndarray, k_a: int, k_b: int) -> np.ndarray:
    """Count the (row code, column code) pairs into a ``k_a x k_b`` int64 table."""
    if k_a * k_b > 50_000_000:
        raise CluvalError(f"the contingency table would have {k_a} x {k_b} cells, more than this machine "
                          "can hold densely: compare partitions with fewer clusters")
    combined = codes_a.astype(np.int64) * k_b + codes_b
    return np.bincount(combined, minlength=k_a * k_b).reshape(k_a, k_b)
