"""Float sums that do not depend on the order of their terms.

Relabelling clusters permutes the rows and columns of the table, so a plain floating-point
sum over cells or clusters could change in its last bit. ``exact_sum`` rounds the exact sum
once (``math.fsum``), so every index is bit-for-bit independent of how labels are numbered.
"""

from __future__ import annotations

import math

import numpy as np


def exact_sum(values) -> float:
    """The correctly rounded sum of `values` (any shape), whatever their order.

    >>> exact_sum(np.array([1e16, 1.0, -1e16])), float(np.sum(np.array([1e16, 1.0, -1e16])))
    (1.0, 0.0)
    """
    return math.fsum(np.ravel(values).tolist())
