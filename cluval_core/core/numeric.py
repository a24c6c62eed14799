"""Float sums that do not depend on the order of their terms.

Relabelling clusters permutes the rows and columns of the table, so a plain floating-point
sum over cells or clusters could change in its last bit. ``order_free_sum`` sums the terms
in sorted order, so every index is bit for bit independent of how labels are numbered.
"""

from __future__ import annotations

import numpy as np


def order_free_sum(values) -> float:
    """The sum of `values` (any shape), the same to the last bit in any order.

    >>> x = [0.1, 0.2, 0.3, 1e16, -1e16]
    >>> order_free_sum(x) == order_free_sum(x[::-1]), sum(x) == sum(x[::-1])
    (True, False)
    """
    return float(np.sort(np.ravel(values)).sum())


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
    ``np.unique(values, return_counts=True)`` gives them; whole numbers within a small range are
    counted in one pass instead of sorted.

    >>> [x.tolist() for x in distinct_counts(np.array([3, 1, 3, 2]))]
    [[1, 2, 3], [1, 1, 2]]
    """
    values = np.ravel(values)
    if values.dtype.kind in "iu" and len(values):
        low, high = int(values.min()), int(values.max())
        # counting reads no more than a sort would; offsets from the least value, in 64 bits
        if high - low <= 4 * len(values) + 1024 and high < 2**63:
            counts = np.bincount(values.astype(np.int64) - low)
            present = np.flatnonzero(counts)
            return (present + low).astype(values.dtype), counts[present]
    return np.unique(values, return_counts=True)
