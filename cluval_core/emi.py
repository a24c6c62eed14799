"""Expected mutual information under the hypergeometric model, windowed and exact to ~1e-12.

The expected mutual information of two partitions with cluster sizes ``a`` (rows) and ``b``
(columns) of ``N`` objects is (Vinh, Epps & Bailey 2010, eq. 24a)

    E[MI] = sum_ij sum_n  (n/N) log(N n / (a_i b_j)) * P(n | N, a_i, b_j),

where P is the hypergeometric probability of ``n`` shared objects. The inner sum runs over
``max(1, a_i+b_j-N) <= n <= min(a_i, b_j)``, which makes the exact sum cost about
``sum_ij min(a_i, b_j)`` terms (10^8 for N = 10^6 and K = 100). Almost all of that mass lies
close to the mean ``mu = a_i b_j / N``: we sum only ``mu - t_lo <= n <= mu + t_hi`` with

    mu h(t_hi / mu) = L,   t_lo = sqrt(2 L mu),   h(u) = (1 + u) log(1 + u) - u,
    L = log(1/eps),   eps = 1e-17.

For a sum of Bernoulli variables with variance at most ``mu``, Bennett's inequality bounds
the upper tail by ``exp(-mu h(t/mu))`` and the lower tail by ``exp(-t^2 / (2 mu))``, both
``eps`` at these widths; Hoeffding (1963, Theorem 4) shows that sampling without
replacement (the hypergeometric law) is dominated by sampling with replacement for every
convex function, so the same bounds hold here. Every term satisfies
``|(n/N) log(N n/(a b))| <= (min(a, b)/N) log N``, so the total truncation error is at most
``2 eps log(N) sum_ij min(a_i, b_j)/N <= 2 eps log(N) min(K_a, K_b)``: below 1e-13 for any
N <= 10^12 and K <= 10^3. Each term costs a few look-ups in a table of log-factorials.
Clusters of equal size give equal terms, so the sum runs over the distinct pairs of sizes,
each weighted by how often it occurs.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import gammaln

from ._validation import CluvalError

__all__ = ["expected_mutual_information", "MAX_TERMS"]

_LOG_INV_EPS = math.log(1e17)
_TERMS_PER_CHUNK = 1 << 21
_TABLE_LIMIT = 50_000_000  # beyond this N, log-factorials (and logs) are computed on demand
# The most terms one expected mutual information may sum (about half a minute here): beyond,
# it is refused rather than left to run for hours (N = 10^15 with two clusters needs 10^9).
MAX_TERMS = 10**9


def _bennett_width(mu: np.ndarray) -> np.ndarray:
    """t with mu h(t/mu) = L, by Newton's method on u = t/mu (h is convex and increasing)."""
    target = _LOG_INV_EPS / mu
    # Bernstein's width is larger than Bennett's: start there and Newton decreases monotonically
    u = (_LOG_INV_EPS / 3 + np.sqrt(_LOG_INV_EPS**2 / 9 + 2 * _LOG_INV_EPS * mu)) / mu
    for _ in range(50):
        log1u = np.log1p(u)
        step = ((1 + u) * log1u - u - target) / log1u
        u = u - step
        if np.all(np.abs(step) <= 1e-9 * u):
            break
    return u * mu * (1 + 1e-9)


def _window(a: np.ndarray, b: np.ndarray, n: int):
    mu = a.astype(np.float64) * b / n  # in floats: a * b overflows int64 beyond N = 3e9
    lo = np.maximum(np.maximum(1, a + b - n), np.floor(mu - np.sqrt(2 * _LOG_INV_EPS * mu))).astype(np.int64)
    hi = np.minimum(np.minimum(a, b), np.ceil(mu + _bennett_width(mu))).astype(np.int64)
    return lo, hi


def expected_mutual_information(row_sizes, col_sizes) -> float:
    """Expected mutual information (nats) of two partitions with the given cluster sizes.

    Parameters
    ----------
    row_sizes, col_sizes : array of int
        Cluster sizes of the two partitions (each summing to the same N).

    Returns
    -------
    float
        E[MI] under the permutation (hypergeometric) model, >= 0.

    Examples
    --------
    Two halves against two halves of four objects: the only tables are the identity-like
    one (MI = log 2, probability 2/6) and the mixed one (MI = 0, probability 4/6).

    >>> round(expected_mutual_information([2, 2], [2, 2]), 12) == round(math.log(2) / 3, 12)
    True
    """
    a = np.sort(np.asarray(row_sizes, dtype=np.int64))  # sorted: the value never depends on the order
    b = np.sort(np.asarray(col_sizes, dtype=np.int64))
    n = int(a.sum())
    if n != int(b.sum()):
        raise ValueError(f"row and column sizes sum to different totals: {n} != {int(b.sum())}")
    if n <= 1:
        return 0.0
    if n <= _TABLE_LIMIT:
        lfact_table = gammaln(np.arange(n + 1, dtype=np.float64) + 1)
        lfact = lfact_table.__getitem__
    else:
        def lfact(k):
            return gammaln(np.asarray(k, dtype=np.float64) + 1)

    # clusters of equal size contribute equally: sum over distinct (row size, column size)
    # pairs, each weighted by how often it occurs (K_a K_b pairs become a few thousand)
    a, a_count = np.unique(a, return_counts=True)
    b, b_count = np.unique(b, return_counts=True)
    ai, bj = np.meshgrid(a, b, indexing="ij")
    ai, bj = ai.ravel(), bj.ravel()
    weight = np.multiply.outer(a_count, b_count).ravel().astype(np.float64)
    lo, hi = _window(ai, bj, n)
    keep = hi >= lo
    ai, bj, lo, hi, weight = ai[keep], bj[keep], lo[keep], hi[keep], weight[keep]
    counts = hi - lo + 1
    total_terms = int(counts.sum())
    if total_terms > MAX_TERMS:
        raise CluvalError(f"the expected mutual information of these cluster sizes (N = {n}) needs "
                          f"{total_terms:.3g} terms, more than the {MAX_TERMS:.0e} cluval sums")
    # per pair: the part of log P(n) and of the MI term that does not depend on n
    const = lfact(ai) + lfact(bj) + lfact(n - ai) + lfact(n - bj) - lfact(n)
    log_ratio = math.log(n) - np.log(ai) - np.log(bj)
    if hi.max() <= _TABLE_LIMIT:
        log_table = np.log(np.arange(1, int(hi.max()) + 1, dtype=np.float64))  # log(k) at k - 1

        def log(k):
            return log_table[k - 1]
    else:
        log = np.log
    total = 0.0
    ends = np.cumsum(counts)
    start = 0
    while start < len(counts):
        base = ends[start - 1] if start else 0
        stop = int(np.searchsorted(ends, base + _TERMS_PER_CHUNK, side="right"))
        stop = max(stop, start + 1)
        c = counts[start:stop]
        pair = np.repeat(np.arange(start, stop), c)
        nij = np.arange(int(c.sum())) - np.repeat(np.cumsum(c) - c - lo[start:stop], c)
        A, B = ai[pair], bj[pair]
        log_p = const[pair] - lfact(nij) - lfact(A - nij) - lfact(B - nij) - lfact(n - A - B + nij)
        mi_term = weight[pair] * nij * (log(nij) + log_ratio[pair])
        total += float(np.dot(mi_term, np.exp(log_p))) / n
        start = stop
    return max(total, 0.0)
