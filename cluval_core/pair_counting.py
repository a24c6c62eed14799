"""Pair-counting indices: Rand, adjusted Rand, Fowlkes-Mallows and its adjusted form.

With a, b, c, d the pairs of objects together in both partitions, together only in the
reference, together only in the candidate, and apart in both (``Comparison.pair_counts``),
and M = C(N, 2) = a + b + c + d:

* ``ri``  = (a + d) / M                                          (Rand 1971)
* ``ari`` = 2 (a d - b c) / ((a + b)(b + d) + (a + c)(c + d))   (Hubert & Arabie 1985)
* ``fowlkes_mallows`` = a / sqrt((a + b)(a + c))                 (Fowlkes & Mallows 1983)
* ``afm`` = (FM - E) / (1 - E), E = sqrt((a + b)(a + c)) / M

Counts are exact integers for crisp partitions, so the only rounding is the final division.
ARI's denominator is zero only when both partitions are the same trivial partition (one
cluster, or all singletons): ARI is then 1. FM is undefined (NaN) when a product is zero
(one side has only singletons); AFM also when E = 1 (both sides one cluster).

On soft tables the "counts" n(n-1)/2 are real and may be negative (a cell below one
object); a denominator or product within a relative 1e-12 of zero (or below it) is
degenerate: ARI is then 1 for identical partitions and NaN otherwise, FM and AFM NaN.
"""

from __future__ import annotations

import math

from ._validation import SOFT_TOLERANCE


def _degenerate(c, value, scale) -> bool:
    """Zero for crisp counts; at most a relative SOFT_TOLERANCE of `scale` for soft ones."""
    return value <= SOFT_TOLERANCE * scale if c.is_soft else value == 0

__all__ = ["rand", "adjusted_rand", "fowlkes_mallows", "adjusted_fowlkes_mallows"]


def rand(c) -> float:
    p = c.pair_counts
    return (p.a + p.d) / p.total


def adjusted_rand(c) -> float:
    p = c.pair_counts
    numerator = 2 * (p.a * p.d - p.b * p.c)
    denominator = (p.a + p.b) * (p.b + p.d) + (p.a + p.c) * (p.c + p.d)
    if _degenerate(c, abs(denominator), p.total * p.total):
        return 1.0 if (not c.is_soft or c.is_identical) else math.nan
    return numerator / denominator


def fowlkes_mallows(c) -> float:
    p = c.pair_counts
    if _degenerate(c, p.a + p.b, p.total) or _degenerate(c, p.a + p.c, p.total):
        return math.nan
    product = (p.a + p.b) * (p.a + p.c)
    if isinstance(product, int):
        root = math.isqrt(product)
        if root * root == product:  # exact, so identical partitions give exactly 1
            return p.a / root
    return p.a / math.sqrt(product)


def adjusted_fowlkes_mallows(c) -> float:
    p = c.pair_counts
    product, total = (p.a + p.b) * (p.a + p.c), p.total
    if math.isnan(fowlkes_mallows(c)) or product >= total * total:
        return math.nan
    # (FM - E) / (1 - E) with FM = a / sqrt(P), E = sqrt(P) / M, rearranged so that the two
    # differences are exact (integers for crisp counts) even when E rounds to 1:
    # AFM = (a M - P) / (M^2 - P) * (M + sqrt(P)) / sqrt(P)
    if p.b == 0 and p.c == 0:
        return 1.0  # FM = 1 exactly
    root = math.sqrt(product)
    return min((p.a * total - product) / (total * total - product) * (total / root + 1), 1.0)
