"""Float sums that do not depend on the order of their terms.

Relabelling clusters permutes the rows and columns of the table, so a plain floating-point
sum over cells or clusters could change in its last bit. ``order_free_sum`` sums the terms
in sorted order, so every index is bit for bit independent of how labels are numbered.
"""

from __future__ import annotations

import numpy as np

from .compiled import compiled


def order_free_sum(values) -> float:
    """The sum of `values` (any shape), the same to the last bit in any order.

    >>> x = [0.1, 0.2, 0.3, 1e16, -1e16]
    >>> order_free_sum(x) == order_free_sum(x[::-1]), sum(x) == sum(x[::-1])
    (True, False)
    """
    values = values.ravel() if isinstance(values, np.ndarray) else np.ravel(values)
    if values.dtype == np.float64 and len(values) <= FEW_TERMS:
        total = _sorted_sum(values)
        if total != 0.0:  # a zero total is numpy's, whose sign may follow the order of signed zeros
            return total
    return float(np.sort(values).sum())


# Up to this many terms an order-free sum sorts and sums in one compiled call (a call to numpy
# costs more than the work on so few terms; numpy sums up to 128 terms without splitting them).
FEW_TERMS = 128


@compiled
def _sorted_sum(values):
    """``np.sort(values).sum()`` for at most 128 float64 `values`, to the last bit: sorted, then
    summed as numpy sums a contiguous vector of that length: below 8 terms in turn; else in eight
    running sums (one per position modulo 8, over the whole groups of 8), combined as
    ((0+1)+(2+3))+((4+5)+(6+7)), then the remaining terms in turn."""
    a = np.sort(values)
    n = len(a)
    if n < 8:
        total = 0.0
        for i in range(n):
            total += a[i]
        return total
    r = a[:8].copy()
    whole = n - n % 8
    for i in range(8, whole, 8):
        for j in range(8):
            r[j] += a[i + j]
    total = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
    for i in range(whole, n):
        total += a[i]
    return total


def order_free_sum_counted(terms: np.ndarray, counts: np.ndarray) -> float:
    """``order_free_sum(np.repeat(terms, counts))`` to the last bit, sorting only the distinct terms.

    The sorted array of all the terms is each distinct term, in sorted order, repeated as often
    as it occurs, so it is built without sorting every term: a table's cell sums whose term
    depends on the count alone take it once per distinct count.

    >>> terms, counts = np.array([0.3, 0.1, 1e16]), np.array([2, 1, 3])
    >>> order_free_sum_counted(terms, counts) == order_free_sum(np.repeat(terms, counts))
    True
    """
    order = np.argsort(terms, kind="stable")
    return float(np.repeat(terms[order], counts[order]).sum())


def sorted_replaced(sorted_values: np.ndarray, old: np.ndarray, new: np.ndarray) -> np.ndarray:
    """``np.sort(sorted_values with the values `old` taken out and `new` put in)``, without sorting
    it all: each of `old` (all present, no NaN) takes out one of its equal values and `new`,
    sorted, is merged in, in one pass. Summed, it gives the order-free sum of the changed terms
    to the last bit (the same sorted array), at the cost of the changes.

    >>> sorted_replaced(np.array([1.0, 2.0, 2.0, 5.0]), np.array([2.0, 5.0]), np.array([3.0, 0.5])).tolist()
    [0.5, 1.0, 2.0, 3.0]
    """
    merged = merged_replaced(sorted_values, np.sort(old), np.sort(new))
    if merged is None:
        raise ValueError("sorted_replaced: a value to take out is not among the sorted values")
    return merged


@compiled
def merged_replaced(values, old, new):
    """The sorted `values` without one equal value for each of the sorted `old`, merged with the
    sorted `new` (None when some of `old` is missing): :func:`sorted_replaced` in one compiled
    pass, callable from compiled code."""
    out = np.empty(len(values) - len(old) + len(new), dtype=values.dtype)
    b = c = o = 0
    for a in range(len(values)):
        x = values[a]
        if b < len(old) and x == old[b]:
            b += 1
            continue
        while c < len(new) and new[c] < x:
            out[o] = new[c]
            o += 1
            c += 1
        if o == len(out):
            return None
        out[o] = x
        o += 1
    if b < len(old):
        return None
    while c < len(new):
        out[o] = new[c]
        o += 1
        c += 1
    return out


def distinct(values) -> np.ndarray:
    """The sorted distinct values of an array, as ``np.unique(values)`` gives them, always by sorting.

    (Since numpy 2.3, ``np.unique`` without a ``return_*`` flag hashes, which is up to 30 times
    slower on arrays with many distinct values; asking for the counts keeps the sorting path.)

    >>> distinct(np.array([3, 1, 3, 2])).tolist()
    [1, 2, 3]
    """
    return np.unique(values, return_counts=True)[0]


def distinct_counts(values) -> tuple[np.ndarray, np.ndarray]:
    """The sorted distinct values of an array and how often each occurs, as
    ``np.unique(values, return_counts=True)`` gives them; a few whole numbers are sorted and
    their runs counted in one compiled call, more within a small range counted in one pass
    instead of sorted.

    >>> [x.tolist() for x in distinct_counts(np.array([3, 1, 3, 2]))]
    [[1, 2, 3], [1, 1, 2]]
    """
    values = np.ravel(values)
    if values.dtype.kind in "iu" and 0 < len(values) <= _FEW_VALUES:
        return _sorted_runs(values)
    if values.dtype.kind in "iu" and len(values):
        low, high = int(values.min()), int(values.max())
        # counting reads no more than a sort would; offsets from the least value, in 64 bits
        if high - low <= 4 * len(values) + 1024 and high < 2**63:
            counts = np.bincount(values.astype(np.int64) - low)
            present = np.flatnonzero(counts)
            return (present + low).astype(values.dtype), counts[present]
    return np.unique(values, return_counts=True)


# Up to this many whole numbers, distinct_counts sorts them and counts the runs in one compiled
# call (a few numpy calls cost more than the work on so few values)
_FEW_VALUES = 256


@compiled
def _sorted_runs(values):
    """The distinct values of `values` (whole numbers), ascending, and how often each occurs: the
    runs of the sorted values."""
    ordered = np.sort(values)
    runs = 0
    for x in range(len(ordered)):
        if x == 0 or ordered[x] != ordered[x - 1]:
            runs += 1
    distinct = np.empty(runs, dtype=ordered.dtype)
    counts = np.zeros(runs, dtype=np.intp)
    k = -1
    for x in range(len(ordered)):
        if x == 0 or ordered[x] != ordered[x - 1]:
            k += 1
            distinct[k] = ordered[x]
        counts[k] += 1
    return distinct, counts
