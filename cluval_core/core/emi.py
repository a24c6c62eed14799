"""Expected mutual information under the hypergeometric model, windowed, exact to ~1e-14.

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
N <= 10^12 and K <= 10^3.

Clusters of equal size give equal terms, so the sum runs over the distinct pairs of sizes,
each weighted by how often it occurs. Within a window, P is computed every 128 terms in
Loader's saddle-point form (a sum of small terms, accurate to ~1e-14 at any N, where a
difference of log-factorials of size N loses log10(N log N) digits: 1e-8 at N = 10^7) and
carried between these anchors by the exact ratio of successive probabilities. The only
table, of log(n) up to the largest window end, is built when the windows hold more terms than
it has entries (and at most 4M of them), so memory never grows with N.
Against exact sums (tests/test_emi.py, N = 1 to 10^9) the error is below 1e-12 relative or
5e-15 nats absolute, whichever is larger: the rounding of log(mu) = log(a b / N) shifts every
term of a window alike, by about one unit in the last place of log N.
"""

from __future__ import annotations

import functools
import math

import numpy as np
from scipy.special import gammaln

from .numeric import distinct
from .validation import CluvalError

__all__ = ["expected_mutual_information", "expected_mutual_information_terms", "expected_mutual_information_left_out",
           "MAX_TERMS"]

_LOG_INV_EPS = math.log(1e17)
_CELLS_PER_BLOCK = 1 << 18    # terms evaluated at once: a few arrays that stay in the cache
_ANCHOR_EVERY = 128           # terms carried by the ratio of successive probabilities
_SEGMENTS_PER_GROUP = 1 << 14  # segments whose anchors are computed at once
_STEPS = np.arange(_ANCHOR_EVERY)[:, None]
_TABLE_LIMIT = 1 << 22        # a table of log(m) up to 4M entries (32 MB), if the sum needs it
# The most terms one expected mutual information may sum (about half a minute here): beyond,
# it is refused rather than left to run for hours (N = 10^15 with two clusters needs 10^9).
MAX_TERMS = 10**9
# The most distinct (row size, column size) pairs (about 2 000 distinct sizes a side: seconds and
# a few hundred MB); beyond, refused likewise.
MAX_SIZE_PAIRS = 4_000_000
# Most objects the sums are taken for: beyond, counts are no longer exact floats and the windowed
# sum loses its terms.
_MAX_N = 2**53


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
    a, b, sums, n = _size_pairs(row_sizes, col_sizes)
    if n <= 1:
        return 0.0
    a, a_count = np.unique(a, return_counts=True)
    b, b_count = np.unique(b, return_counts=True)
    return max(float(np.multiply.outer(a_count, b_count).ravel() @ sums), 0.0)


def expected_mutual_information_terms(row_sizes, col_sizes) -> np.ndarray:
    """Each cell's share of :func:`expected_mutual_information`: a K_a x K_b array (rows and
    columns in the given order) whose entry (i, j) is sum_n (n/N) log(N n/(a_i b_j)) P(n),
    and whose total is E[MI].

    >>> terms = expected_mutual_information_terms([2, 2], [2, 2])
    >>> bool(np.isclose(terms.sum(), expected_mutual_information([2, 2], [2, 2])))
    True
    """
    rows = _cluster_sizes(row_sizes, "row_sizes")
    cols = _cluster_sizes(col_sizes, "col_sizes")
    a, b, sums, n = _size_pairs(rows, cols)
    if n <= 1:
        return np.zeros((len(rows), len(cols)))
    a = distinct(a)
    b = distinct(b)
    by_size = sums.reshape(len(a), len(b))
    terms = by_size[np.minimum(np.searchsorted(a, rows), len(a) - 1)][:, np.minimum(np.searchsorted(b, cols),
                                                                                     len(b) - 1)]
    terms[rows == 0] = 0.0  # an empty cluster shares nothing
    terms[:, cols == 0] = 0.0
    return terms


def expected_mutual_information_left_out(row_sizes, col_sizes, rows, cols) -> np.ndarray:
    """E[MI] of the margins with one object left out of row ``rows[k]`` and column ``cols[k]``,
    for each k (the exact jackknife's expectations), from one sum at N - 1.

    Every such margin holds sizes of the given margins or one less, so one grid of pair sums
    over the sizes s and s - 1 of both sides serves them all: with u = S c_b and w = c_a S,
    leaving out of sizes x and y changes c_a' S c_b' by a few of their entries, O(1) each. The
    values are those of :func:`expected_mutual_information` on each reduced margin to the
    last bits the different grouping of the sums allows.

    >>> out = expected_mutual_information_left_out([3, 2], [2, 3], [0, 1], [1, 0])
    >>> bool(np.isclose(out[0], expected_mutual_information([2, 2], [2, 2])))
    True
    """
    a = _cluster_sizes(row_sizes, "row_sizes")
    b = _cluster_sizes(col_sizes, "col_sizes")
    rows, cols = _clusters_left(rows, a, "rows"), _clusters_left(cols, b, "cols")
    if len(rows) != len(cols):
        raise CluvalError(f"rows and cols name the cells objects are left out of, one each: got {len(rows)} rows "
                          f"and {len(cols)} cols")
    a_pos, b_pos = a[a > 0], b[b > 0]
    n = int(a_pos.sum(dtype=object))
    if n - 1 <= 1:
        return np.zeros(len(rows))
    grid = []
    for sizes in (a_pos, b_pos):
        values = distinct(np.concatenate((sizes, sizes - 1)))
        grid.append(values[values > 0])
    A, B = grid
    if len(A) * len(B) > MAX_SIZE_PAIRS:
        raise CluvalError(f"the jackknife's expected mutual information sums over {len(A) * len(B):,} distinct pairs "
                          f"of sizes, more than the {MAX_SIZE_PAIRS:,} cluval sums")
    if n != int(b_pos.sum(dtype=object)) or n > _MAX_N:
        _size_pairs(a, b)  # says why
    S = np.zeros((len(A) + 1, len(B) + 1))  # a last row and column of zeros: size 0 shares nothing
    S[:-1, :-1] = _distinct_pair_sums(A.tobytes(), B.tobytes(), n - 1).reshape(len(A), len(B))
    count_a = np.bincount(np.searchsorted(A, a_pos), minlength=len(A) + 1).astype(np.float64)
    count_b = np.bincount(np.searchsorted(B, b_pos), minlength=len(B) + 1).astype(np.float64)
    u, w = S @ count_b, count_a @ S
    total = float(count_a @ u)

    def position(values, sizes):  # where each size is in the grid; size 0 at the zero line
        at = np.searchsorted(values, sizes)
        return np.where(sizes > 0, at, len(values))

    x, x1 = position(A, a[rows]), position(A, a[rows] - 1)
    y, y1 = position(B, b[cols]), position(B, b[cols] - 1)
    out = (total - u[x] + u[x1] - w[y] + w[y1]) + (S[x, y] - S[x, y1] - S[x1, y] + S[x1, y1])
    return np.maximum(out, 0.0)


def _clusters_left(clusters, sizes: np.ndarray, name: str) -> np.ndarray:
    """`clusters` as positions of non-empty clusters among `sizes` (an object is left out of each), or a CluvalError."""
    arr = np.asarray(clusters)
    if arr.ndim != 1 or (arr.size and arr.dtype.kind not in "iu"):
        raise CluvalError(f"{name} must be a 1-D sequence of cluster positions (whole numbers), got {clusters!r}")
    if arr.size and (arr.min() < 0 or arr.max() >= len(sizes) or (sizes[arr] == 0).any()):
        raise CluvalError(f"{name} must name non-empty clusters among the {len(sizes)} given, got {clusters!r}")
    return arr.astype(np.intp)


def _cluster_sizes(sizes, name: str) -> np.ndarray:
    """`sizes` as a 1-D int64 array of whole, non-negative counts, or a CluvalError saying why not."""
    try:
        arr = np.asarray(sizes)
    except (TypeError, ValueError):
        arr = None
    if arr is None or arr.ndim != 1 or arr.dtype.kind not in "iuf" or arr.size == 0:
        raise CluvalError(f"{name} must be a non-empty 1-D sequence of cluster sizes (whole numbers), got {sizes!r}")
    if arr.dtype.kind == "f" and not (np.isfinite(arr).all() and (arr == np.round(arr)).all()):
        raise CluvalError(f"{name} must hold whole numbers of objects, got {sizes!r}")
    if (arr < 0).any():
        raise CluvalError(f"{name} must not be negative, got {sizes!r}")
    if arr.max() >= 2**62 or (arr.dtype.kind == "u" and arr.max() >= 2**62):
        raise CluvalError(f"{name} holds a size of {int(arr.max()):,} objects, more than cluval counts")
    return arr.astype(np.int64)


def _size_pairs(row_sizes, col_sizes):
    """(sizes a, sizes b, sums, N): the sums of every distinct pair of sizes (a row-major
    len(unique a) x len(unique b) grid, flattened), each divided by N. Cached by the sizes."""
    a = np.sort(_cluster_sizes(row_sizes, "row_sizes"))  # sorted: the value never depends on the order
    b = np.sort(_cluster_sizes(col_sizes, "col_sizes"))
    n = int(a.sum(dtype=object))
    if n != int(b.sum(dtype=object)):
        raise CluvalError(f"row and column sizes sum to different totals: {n} != {int(b.sum(dtype=object))}")
    if n > _MAX_N:
        raise CluvalError(f"the expected mutual information is computed for at most 2**53 objects "
                          f"({_MAX_N:.2g}), where every count is an exact float; the sizes sum to {n:,}")
    a, b = a[a > 0], b[b > 0]  # empty clusters share nothing
    if n <= 1:
        return a, b, np.zeros(len(distinct(a)) * len(distinct(b))), n
    pairs = len(distinct(a)) * len(distinct(b))
    if pairs > MAX_SIZE_PAIRS:
        raise CluvalError(f"the expected mutual information of these cluster sizes sums over {pairs:,} distinct "
                          f"pairs of sizes, more than the {MAX_SIZE_PAIRS:,} cluval sums")
    return a, b, _distinct_pair_sums(a.tobytes(), b.tobytes(), n), n


@functools.lru_cache(maxsize=64)  # random tables with fixed margins share their expectation
def _distinct_pair_sums(a_bytes: bytes, b_bytes: bytes, n: int) -> np.ndarray:
    # clusters of equal size contribute equally: sum over distinct (row size, column size)
    # pairs, each weighted by how often it occurs (K_a K_b pairs become a few thousand)
    a = distinct(np.frombuffer(a_bytes, dtype=np.int64))
    b = distinct(np.frombuffer(b_bytes, dtype=np.int64))
    ai, bj = np.meshgrid(a, b, indexing="ij")
    ai, bj = ai.ravel(), bj.ravel()
    sums = np.zeros(len(ai))
    lo, hi = _window(ai, bj, n)
    keep = np.flatnonzero(hi >= lo)
    ai, bj, lo = ai[keep], bj[keep], lo[keep]
    width = hi[keep] - lo + 1
    total_terms = int(width.sum())
    if total_terms > MAX_TERMS:
        raise CluvalError(f"the expected mutual information of these cluster sizes (N = {n}) needs "
                          f"{total_terms:.3g} terms, more than the {MAX_TERMS:.0e} cluval sums")
    if not len(keep):
        return sums
    # each window is cut into segments of _ANCHOR_EVERY terms (the last one shorter), each
    # with P anchored at its start; segments are summed a block at a time
    segments = (width + _ANCHOR_EVERY - 1) // _ANCHOR_EVERY
    ends = np.cumsum(segments)
    log_mu = np.log(ai) + np.log(bj) - math.log(n)
    top = int((lo + width).max())
    # a table of log(m) pays when the windows hold more terms than it has entries
    log_table = None
    if top <= min(_TABLE_LIMIT, 2 * total_terms):
        log_table = np.log(np.maximum(np.arange(top + _ANCHOR_EVERY, dtype=np.float64), 1.0))
    cells = min(_CELLS_PER_BLOCK, int(ends[-1]) * _ANCHOR_EVERY)  # small sums, small buffers
    buffers = (*np.empty((4, cells)), np.empty(cells, dtype=np.intp))
    pair_sums = np.zeros(len(width))
    for first in range(0, int(ends[-1]), _SEGMENTS_PER_GROUP):
        seg = np.arange(first, min(first + _SEGMENTS_PER_GROUP, int(ends[-1])))
        pair = np.searchsorted(ends, seg, side="right")
        at = lo[pair] + (seg - (ends[pair] - segments[pair])) * _ANCHOR_EVERY
        length = np.minimum(_ANCHOR_EVERY, lo[pair] + width[pair] - at)
        A, B = ai[pair], bj[pair]
        anchor_p = np.exp(_log_hypergeometric(at, A, B, n))
        per_block = _CELLS_PER_BLOCK // int(length.max())
        for s in range(0, len(seg), per_block):
            block = slice(s, s + per_block)
            segment_sums = _block_sum(at[block], length[block], A[block], B[block], anchor_p[block],
                                      log_mu[pair[block]], n, log_table, buffers)
            pair_sums += np.bincount(pair[block], weights=segment_sums, minlength=len(width))
    sums[keep] = pair_sums / n
    sums.flags.writeable = False
    return sums


def _block_sum(at, length, A, B, anchor_p, log_mu, n, log_table, buffers) -> np.ndarray:
    """For each segment,  sum_{at <= m < at + length}  m log(m / mu) P(m).

    P is carried from each anchor P(at) by the exact ratio
    P(m+1)/P(m) = (A-m)(B-m) / ((m+1)(N-A-B+m+1)), at most _ANCHOR_EVERY - 1 times (a relative
    error of at most ~3e-14). Segments are columns, so that each step of the product is one
    contiguous row; the work arrays are `buffers`, reused from block to block.
    """
    segments, span = len(at), int(length.max())
    mf, p, work, scratch = (x[:segments * span].reshape(span, segments) for x in buffers[:4])
    m = buffers[4][:segments * span].reshape(span, segments)
    np.add(at, _STEPS[:span], out=m)  # m[j, i] = at_i + j: the shared counts
    np.copyto(mf, m)
    p[0] = anchor_p
    step, ratio, part = mf[:-1], p[1:], scratch[1:]
    np.subtract(A.astype(np.float64), step, out=ratio)
    np.subtract(B.astype(np.float64), step, out=part)
    ratio *= part
    np.add((n + 1 - A - B).astype(np.float64), step, out=part)
    part *= mf[1:]
    ratio /= part
    # a segment shorter than span ends early: a zero ratio there zeroes the rest of its column
    short = np.flatnonzero(length < span)
    p[length[short], short] = 0.0
    for j in range(1, span):
        p[j] *= p[j - 1]
    if log_table is not None:
        np.take(log_table, m, out=work)
    else:
        np.log(mf, out=work)
    work -= log_mu
    work *= mf
    work *= p
    return work.sum(axis=0)


# ---------------------------------------------------------------------- hypergeometric probabilities
# Loader's saddle-point form (Loader 2000, "Fast and accurate computation of binomial
# probabilities"; the form of R's dbinom and dhyper): every log-probability is a sum of small
# terms, never a difference of log-factorials of size N, so it keeps ~1e-14 relative accuracy
# at any N (differences of lgamma(N) lose about log10(N log N) digits: 1e-8 at N = 1e7).
_LOG_2PI = math.log(2 * math.pi)


_K = np.arange(16.0)  # k = 0..15 (k = 0 is never used)
_SMALL_STIRLING_ERRORS = gammaln(_K + 1) - (_K + 0.5) * np.log(np.maximum(_K, 1)) + _K - _LOG_2PI / 2


def _stirling_error(k: np.ndarray) -> np.ndarray:
    """log(k!) - log(sqrt(2 pi k) (k/e)^k) for whole k >= 1: a table up to 15, Stirling's series beyond."""
    kk = k * k
    series = (1 / 12 - (1 / 360 - (1 / 1260 - (1 / 1680 - 1 / (1188 * kk)) / kk) / kk) / kk) / k
    return np.where(k <= 15, _SMALL_STIRLING_ERRORS[np.minimum(k, 15).astype(np.intp)], series)


def _deviance(x: np.ndarray, mean: np.ndarray) -> np.ndarray:
    """x log(x / mean) + mean - x without cancellation (x >= 0, mean > 0, or both 0)."""
    safe = np.where(mean > 0, mean, 1.0)
    direct = x * np.log(np.where(x > 0, x, safe) / safe) + (mean - x)
    # x close to the mean: the series in v = (x - mean) / (x + mean), |v| < 0.1 (two digits a term)
    v = (x - mean) / np.where(x + mean > 0, x + mean, 1.0)
    near = np.abs(v) < 0.1
    v = np.where(near, v, 0.0)
    total = (x - mean) * v
    term = 2 * x * v
    v2 = v * v
    largest = float(v2.max(initial=0.0))
    j = 1
    while largest**j > 1e-18:  # the next term's size relative to the first
        term *= v2
        total += term / (2 * j + 1)
        j += 1
    return np.where(near, total, direct)


def _log_binomial_probability(x, size, p):
    """log of C(size, x) p^x (1-p)^(size-x), for whole 0 <= x <= size and 0 < p <= 1 (Loader's form)."""
    x, size, p = np.broadcast_arrays(*(np.asarray(v, dtype=np.float64) for v in (x, size, p)))
    inner = (x > 0) & (x < size)
    xs = np.where(inner, x, 1.0)
    ns = np.where(inner, size, 2.0)
    general = (_stirling_error(ns) - _stirling_error(xs) - _stirling_error(ns - xs)
               - _deviance(xs, ns * p) - _deviance(ns - xs, ns * (1 - p))
               - 0.5 * (_LOG_2PI + np.log(xs) + np.log1p(-xs / ns)))
    edge = np.flatnonzero(~inner)
    if len(edge):  # x = 0: size log(1-p); x = size: size log(p); as deviances, accurate for p near 0 or 1
        x, size, p = x[edge], size[edge], p[edge]
        general[edge] = np.where(x == 0, -_deviance(size, size * (1 - p)) - size * p,
                                 -_deviance(size, size * p) - size * (1 - p))
    return general


def _log_hypergeometric(m, A, B, n):
    """log P(m shared objects | clusters of sizes A and B among n), within the support."""
    m, A, B = (np.asarray(x, dtype=np.float64) for x in (m, A, B))
    p = B / n
    return (_log_binomial_probability(m, A, p) + _log_binomial_probability(B - m, n - A, p)
            - _log_binomial_probability(B, n, p))

