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
