"""Partitions the family tests share: one small pair worked out by hand, and random pairs for
the cross-checks against the peers."""

from __future__ import annotations

import numpy as np

# a = [0,0,1,1,2,2,2,3], b = [0,0,1,1,1,2,2,2]: rows r = (2, 2, 3, 1), columns c = (2, 3, 3),
# cells n = 2 (0,0), 2 (1,1), 1 (2,1), 2 (2,2), 1 (3,2); N = 8.
# Pairs: a = 3, m_a = 5, m_b = 7, M = 28, so b = 2, c = 4, d = 19.
HAND_A = [0, 0, 1, 1, 2, 2, 2, 3]
HAND_B = [0, 0, 1, 1, 1, 2, 2, 2]


def _pairs():
    rng = np.random.default_rng(11)
    out = []
    for n, k_a, k_b, share in [(50, 3, 3, 0.5), (1000, 5, 5, 0.2), (2000, 10, 7, 0.5), (500, 2, 9, 0.9),
                               (3000, 30, 30, 0.3), (200, 4, 4, 1.0)]:
        a = rng.integers(0, k_a, n)
        b = np.where(rng.random(n) < share, rng.integers(0, k_b, n), a % k_b)
        out.append((a, b))
    return out


# Larger random pairs, most of them agreeing in part.
PAIRS = _pairs()


def _cases():
    rng = np.random.default_rng(2024)
    cases = []
    for n, k_a, k_b in [(12, 2, 3), (60, 3, 3), (200, 5, 8), (400, 7, 4), (150, 4, 12), (90, 1, 3), (90, 3, 1)]:
        a = rng.integers(0, k_a, n)
        b = np.where(rng.random(n) < 0.5, a % k_b, rng.integers(0, k_b, n))
        cases.append((a, b))
    return cases


# Smaller random pairs, one-cluster sides included.
CASES = _cases()


def codes(labels) -> np.ndarray:
    """Labels as codes 0..k-1 (genieclust's input)."""
    return np.unique(labels, return_inverse=True)[1]


def steps_by_symbol(comparison, index_id: str) -> dict:
    """An index's steps as {symbol: value}."""
    return {step.symbol: step.value for step in comparison.steps(index_id)}
