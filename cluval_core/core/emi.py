"""Expected mutual information (and its variance) under the hypergeometric model, windowed, exact to ~1e-14.

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

from .compiled import compiled
from .numeric import distinct
from .validation import CluvalError

__all__ = ["expected_mutual_information", "expected_mutual_information_terms", "expected_mutual_information_left_out",
           "expected_cell_sums_left_out", "mutual_information_grid",
           "mutual_information_variance", "variance_terms", "MAX_TERMS", "MAX_VARIANCE_TERMS"]

_LOG_INV_EPS = math.log(1e17)
_CELLS_PER_BLOCK = 1 << 18    # terms evaluated at once: a few arrays that stay in the cache
_ANCHOR_EVERY = 128           # terms carried by the ratio of successive probabilities
_SEGMENTS_PER_GROUP = 1 << 14  # segments whose anchors are computed at once
_STEPS = np.arange(_ANCHOR_EVERY)[:, None]
_TABLE_LIMIT = 1 << 22        # a table of the summed values up to 4M entries (32 MB), if the sum needs it
#: The most terms one expected mutual information may sum (about half a minute here): beyond,
#: it is refused rather than left to run for hours (N = 10^15 with two clusters needs 10^9).
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
    sides = (np.sort(_cluster_sizes(row_sizes, "row_sizes")), np.sort(_cluster_sizes(col_sizes, "col_sizes")))
    return _expected_mutual_information(*(x.tobytes() for x in sides))


@functools.lru_cache(maxsize=64)  # random tables with fixed margins share it
def _expected_mutual_information(a_bytes: bytes, b_bytes: bytes) -> float:
    a, b, sums, n = _size_pairs(np.frombuffer(a_bytes, dtype=np.int64), np.frombuffer(b_bytes, dtype=np.int64))
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


def mutual_information_grid(a: np.ndarray, b: np.ndarray, n: int) -> np.ndarray:
    """E[(m/N) log(N m / (a b))] for the count m shared by clusters of sizes a_i and b_j of N
    objects, one entry per pair of the given distinct positive sizes: the grid whose weighted sum
    is :func:`expected_mutual_information` (a `grid` for :func:`expected_cell_sums_left_out`)."""
    return _distinct_pair_sums(a.tobytes(), b.tobytes(), n).reshape(len(a), len(b))


def expected_mutual_information_left_out(row_sizes, col_sizes, rows, cols) -> np.ndarray:
    """E[MI] of the margins with one object left out of row ``rows[k]`` and column ``cols[k]``,
    for each k (the exact jackknife's expectations), from one sum at N - 1
    (:func:`expected_cell_sums_left_out`).

    >>> out = expected_mutual_information_left_out([3, 2], [2, 3], [0, 1], [1, 0])
    >>> bool(np.isclose(out[0], expected_mutual_information([2, 2], [2, 2])))
    True
    """
    return np.maximum(expected_cell_sums_left_out(mutual_information_grid, row_sizes, col_sizes, rows, cols), 0.0)


def expected_cell_sums_left_out(grid, row_sizes, col_sizes, rows, cols) -> np.ndarray:
    """E[sum_ij T(n_ij)] under the permutation model for the margins with one object left out of
    row ``rows[k]`` and column ``cols[k]``, for each k, from one grid at N - 1: the exact jackknife's
    expectations of a sum over the cells (the expected mutual information, the Tsallis power sum).

    ``grid(A, B, n)`` gives E[T(m)] for the count m shared by clusters of sizes A_i and B_j of n
    objects, one entry per pair of the given distinct positive sizes (T(0) = 0: an empty cluster
    shares nothing). Every reduced margin holds sizes of the given margins or one less, so one
    grid S over the sizes s and s - 1 of both sides serves them all: with u = S c_b and w = c_a S,
    leaving out of sizes x and y changes c_a' S c_b' by a few of their entries, O(1) each. The
    values are those of the sum on each reduced margin to the last bits the different grouping of
    the sums allows.
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
    sizes = []
    for positive in (a_pos, b_pos):
        values = distinct(np.concatenate((positive, positive - 1)))
        sizes.append(values[values > 0])
    A, B = sizes
    if len(A) * len(B) > MAX_SIZE_PAIRS:
        raise CluvalError(f"the jackknife's expected sums over the cells run over {len(A) * len(B):,} distinct pairs "
                          f"of sizes, more than the {MAX_SIZE_PAIRS:,} cluval sums")
    if n != int(b_pos.sum(dtype=object)) or n > _MAX_N:
        _size_pairs(a, b)  # says why
    S = np.zeros((len(A) + 1, len(B) + 1))  # a last row and column of zeros: size 0 shares nothing
    S[:-1, :-1] = grid(A, B, n - 1)
    count_a = np.bincount(np.searchsorted(A, a_pos), minlength=len(A) + 1).astype(np.float64)
    count_b = np.bincount(np.searchsorted(B, b_pos), minlength=len(B) + 1).astype(np.float64)
    u, w = S @ count_b, count_a @ S
    total = float(count_a @ u)

    def position(values, sizes):  # where each size is in the grid; size 0 at the zero line
        at = np.searchsorted(values, sizes)
        return np.where(sizes > 0, at, len(values))

    x, x1 = position(A, a[rows]), position(A, a[rows] - 1)
    y, y1 = position(B, b[cols]), position(B, b[cols] - 1)
    return (total - u[x] + u[x1] - w[y] + w[y1]) + (S[x, y] - S[x, y1] - S[x1, y] + S[x1, y1])


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
    sums = _hypergeometric_sums(ai, bj, n, np.log, np.log(ai) + np.log(bj) - math.log(n)) / n
    sums.flags.writeable = False
    return sums


def _hypergeometric_sums(ai: np.ndarray, bj: np.ndarray, n: int, values, shift=None, window=None) -> np.ndarray:
    """sum_m (values(m) - shift) m P(m | ai, bj, n) for each pair of cluster sizes (ai[k], bj[k])
    among n objects (1-D int64 arrays), over the window of m that carries the hypergeometric mass
    (0 for an empty window); `values` maps an array of counts (floats) to an array, `shift` is one
    number per pair, or None for sum_m values(m) P(m). With values = log and shift = log(mu) the
    sums are the expected mutual information's; with values = m^q and no shift, E[m^q]. The windows
    are the expected mutual information's (from m = 1) unless `window(ai, bj, n)` gives others (lo,
    hi); values is read at max(m, 1), so a window from m = 0 suits the sums weighted by m alone.

    >>> E = _hypergeometric_sums(np.array([2]), np.array([2]), 4, lambda m: m * m)  # P(1) = 4/6, P(2) = 1/6
    >>> bool(np.isclose(E[0], 4 / 6 + 4 / 6, rtol=1e-14))
    True
    """
    sums = np.zeros(len(ai))
    lo, hi = (window or _window)(ai, bj, n)
    keep = np.flatnonzero(hi >= lo)
    ai, bj, lo = ai[keep], bj[keep], lo[keep]
    width = hi[keep] - lo + 1
    total_terms = int(width.sum())
    if total_terms > MAX_TERMS:
        raise CluvalError(f"the expected mutual information of these cluster sizes (N = {n}) needs "
                          f"{total_terms:.3g} terms, more than the {MAX_TERMS:.0e} cluval sums")
    if not len(keep):
        return sums
    by_count = shift is not None
    shift = shift[keep] if by_count else np.zeros(len(keep))
    # each window is cut into segments of _ANCHOR_EVERY terms (the last one shorter), each
    # with P anchored at its start; segments are summed a block at a time
    segments = (width + _ANCHOR_EVERY - 1) // _ANCHOR_EVERY
    ends = np.cumsum(segments)
    top = int((lo + width).max())
    # a table of values(m) pays when the windows hold more terms than it has entries
    table = np.empty(0)
    if top <= min(_TABLE_LIMIT, 2 * total_terms):
        table = values(np.maximum(np.arange(top + _ANCHOR_EVERY, dtype=np.float64), 1.0))
    pair_sums = np.zeros(len(width))
    for first in range(0, int(ends[-1]), _SEGMENTS_PER_GROUP):
        seg = np.arange(first, min(first + _SEGMENTS_PER_GROUP, int(ends[-1])))
        pair = np.searchsorted(ends, seg, side="right")
        at = lo[pair] + (seg - (ends[pair] - segments[pair])) * _ANCHOR_EVERY
        length = np.minimum(_ANCHOR_EVERY, lo[pair] + width[pair] - at)
        A, B = ai[pair], bj[pair]
        anchor_p = np.exp(_log_hypergeometric(at, A, B, n))
        span = int(length.max())
        per_block = _CELLS_PER_BLOCK // span
        for s in range(0, len(seg), per_block):  # (the blocks group each pair's sum as they always have)
            block = slice(s, s + per_block)
            at_values = (table[:0].reshape(0, 0) if len(table)  # values(at + j) at once where there is no table
                         else values(np.maximum(at[block] + _STEPS[:span], 1).astype(np.float64)))
            segment_sums = _segment_sums(at[block], length[block], A[block], B[block], anchor_p[block],
                                         shift[pair[block]], by_count, n, table, at_values)
            pair_sums += np.bincount(pair[block], weights=segment_sums, minlength=len(width))
    sums[keep] = pair_sums
    return sums


@compiled
def _segment_sums(at, length, A, B, anchor_p, shift, by_count, n, table, at_values):
    """For each segment,  sum_{at <= m < at + length}  (values(m) - shift) m P(m)  (from m = at up),
    or sum values(m) P(m) where not `by_count`.

    P is carried from each anchor P(at) by the exact ratio
    P(m+1)/P(m) = (A-m)(B-m) / ((m+1)(N-A-B+m+1)), at most _ANCHOR_EVERY - 1 times (a relative
    error of at most ~3e-14). values(m) is read from `table` (at m) or, where that is empty, from
    `at_values` (values(at + j) in row j, a column per segment).
    """
    out = np.empty(len(at))
    tabled = len(table) > 0
    for s in range(len(at)):
        a, b, rest = float(A[s]), float(B[s]), float(n + 1 - A[s] - B[s])
        p, total = anchor_p[s], 0.0
        for j in range(length[s]):
            m = float(at[s] + j)
            if j:
                step = m - 1.0
                p = (a - step) * (b - step) / ((rest + step) * m) * p
            value = table[at[s] + j] if tabled else at_values[j, s]
            total += ((value - shift[s]) * m if by_count else value) * p
        out[s] = total
    return out


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



# ---------------------------------------------------------------------- the variance of MI
#: The most terms the variance of the mutual information may sum (seconds here: N = 10^5 with
#: 10 clusters a side is 3e8); beyond, it is not computed (NaN) rather than left to run for minutes.
MAX_VARIANCE_TERMS = 5 * 10**8


def variance_terms(row_sizes, col_sizes, n, width=None) -> int:
    """About how many terms :func:`mutual_information_variance` sums for these cluster sizes: for
    each pair of distinct sizes, the products of its window with another cell's, for every other
    distinct size of a row or a column."""
    fa, fb = (np.unique(np.asarray(x, dtype=np.float64)) for x in (row_sizes, col_sizes))
    if width is None:
        lo, hi = _span(fa[:, None], fb[None, :], float(n))
        width = int((hi - lo).max()) + 1
    return len(fa) * len(fb) * (len(fa) + len(fb)) * width * width + len(fa) ** 2 * len(fb) * width * width


# Windows are computed about this many terms at a time, so that the temporaries stay in the cache
_WINDOW_TERMS = 1 << 17


def _window_probabilities(lo, hi, A, B, n):
    """(x, P): the counts lo..hi of each window, padded to the widest (x stays at hi there, with
    P = 0), and their hypergeometric probabilities P(x | A, B, n), all broadcast. log P is anchored
    at each window's start in Loader's form and carried by the logarithms of the exact ratios of
    successive terms, so that a window reaching deep into a tail (where P(lo) underflows and the
    ratios' product would overflow) keeps every probability; a ratio of 0 past the support gives 0.
    Each window's terms depend on that window alone: they are computed a few windows at a time."""
    lo, hi, A, B, n = np.broadcast_arrays(*(np.asarray(v, dtype=np.float64) for v in (lo, hi, A, B, n)))
    steps = np.arange(int((hi - lo).max(initial=0)) + 1, dtype=np.float64)
    flat = [v.reshape(-1) for v in (lo, hi, A, B, n)]
    x, p = np.empty((lo.size, len(steps))), np.empty((lo.size, len(steps)))
    per = max(1, _WINDOW_TERMS // len(steps))
    for start in range(0, lo.size, per):
        part = slice(start, start + per)
        _windows_into(*(v[part] for v in flat), steps, x[part], p[part])
    return x.reshape(lo.shape + (len(steps),)), p.reshape(lo.shape + (len(steps),))


def _windows_into(lo, hi, A, B, n, steps, x_out, p_out):
    """:func:`_window_probabilities` of windows given as 1-D arrays, written into x_out and p_out."""
    x = lo[:, None] + steps
    anchor = np.zeros(lo.shape)  # log P(lo)
    single = (A == 0) | (B == 0) | (A == n) | (B == n)  # one table only: the window is its one point
    if (~single).any():
        anchor[~single] = _log_hypergeometric(lo[~single], A[~single], B[~single], n[~single])
    step = x[:, :-1]
    outside = (x[:, 1:] > hi[:, None]) | (step >= np.minimum(A, B)[:, None])
    # log((A - step)+ (B - step)+ / ((step + 1)(N - A - B + step + 1))), in place
    ratio, factor = np.subtract(A[:, None], step), np.subtract(B[:, None], step)
    np.maximum(ratio, 0.0, out=ratio)
    np.maximum(factor, 0.0, out=factor)
    ratio *= factor
    np.add((n - A - B)[:, None], step, out=factor)
    factor += 1
    factor *= step + 1
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio /= factor
        np.log(ratio, out=ratio)
    ratio[outside] = -np.inf
    log_p = p_out  # log P, then P
    log_p[:, 0] = 0.0
    np.cumsum(ratio, axis=-1, out=log_p[:, 1:])
    log_p += anchor[:, None]
    np.exp(log_p, out=p_out)
    np.minimum(x, hi[:, None], out=x_out)


def _span(A, B, n) -> tuple[np.ndarray, np.ndarray]:
    """The window of shared counts that carries the hypergeometric mass (as the expected mutual
    information's, from 0): (lo, hi) for each (A, B) among n, broadcast."""
    A, B, n = np.broadcast_arrays(*(np.asarray(v, dtype=np.float64) for v in (A, B, n)))
    mu = np.where(n > 0, A * B / np.where(n > 0, n, 1.0), 0.0)
    positive = mu > 0
    upper = np.zeros_like(mu)
    if positive.any():
        upper[positive] = _bennett_width(mu[positive])
    lo = np.maximum(np.maximum(0, A + B - n), np.floor(mu - np.sqrt(2 * _LOG_INV_EPS * mu)))
    hi = np.minimum(np.minimum(A, B), np.ceil(mu + upper))
    return lo.astype(np.int64), np.maximum(hi, lo).astype(np.int64)


def mutual_information_variance(row_sizes, col_sizes) -> float:
    r"""Var[MI] (nats squared) of two partitions with these cluster sizes under the permutation
    (hypergeometric) model, exactly; NaN where the sum would take more than
    :data:`MAX_VARIANCE_TERMS` terms.

    MI = S / N + constant with S = sum_ij n_ij log n_ij, so Var[MI] = Var[S] / N^2. Each n log n is
    replaced by its deviance from the cell's expected count, f_ij(n) = n log(n / mu_ij) - n + mu_ij
    with mu_ij = a_i b_j / N: the two differ by a term linear in n whose sum over the table the
    margins fix, so the variance is the same, and the deviances are small where the counts are
    likely (about half a chi-squared), so that E[S^2] - E[S]^2 keeps its digits at large N.
    E[S^2] is the sum over every pair of cells (i, j), (i', j') of E[f_ij f_i'j'], by conditioning
    (Romano, Bailey, Nguyen & Verspoor 2014, Standardized mutual information for clustering
    comparisons, ICML): n_ij ~ Hyp(N, a_i, b_j); given n_ij = x, another cell of row i has
    n_ij' ~ Hyp(N - b_j, a_i - x, b_j'), another cell of column j has n_i'j ~ Hyp(N - a_i, a_i', b_j - x),
    and a cell of neither, given n_ij' = y, has n_i'j' ~ Hyp(N - a_i, a_i', b_j' - y). Equal cluster
    sizes give equal terms, so the sums run over distinct sizes with their multiplicities, and
    each hypergeometric sum over the window that carries its mass (as the expected mutual
    information's).

    >>> round(mutual_information_variance([2, 2], [2, 2]), 12) == round(math.log(2) ** 2 * (1/3 - 1/9), 12)
    True
    """
    sides = [np.sort(_cluster_sizes(x, name)) for x, name in ((row_sizes, "row_sizes"), (col_sizes, "col_sizes"))]
    if _distinct_sorted(sides[0]) > _distinct_sorted(sides[1]):  # the same variance; fewer distinct rows: cheaper
        sides.reverse()
    return _mutual_information_variance(*(x.tobytes() for x in sides))


def _distinct_sorted(sizes: np.ndarray) -> int:
    """How many distinct values a sorted array holds."""
    return int(np.count_nonzero(sizes[1:] != sizes[:-1])) + (len(sizes) > 0)


def _pair_expectations(A, B1, B2, N, lo1, hi1, lo2, hi2, u, v):
    """E[u(x) v(y)] for the counts (x, y) that A objects drawn from N share with two disjoint
    groups of sizes B1 and B2, whose law is C(B1, x) C(B2, y) C(N - B1 - B2, A - x - y) / C(N, A):
    it depends on x + y through the last factor only, so the double sum is a Hankel form,
    U' K(x + y) V. Each factor is tilted by e^(-t x), e^(-t y) and e^(t (x + y)) with t = log((N - A) / A),
    the slope of every factor at its mean, so that each peaks where the pair's mass lies; the sum
    is divided by the same form with u = v = 1, which is 1 up to the mass outside the windows
    (lo1..hi1 and lo2..hi2 carry the mass of x and y). All arguments broadcast over a leading
    axis; u and v are arrays over the windows (padding ignored)."""
    A, B1, B2, lo1, hi1, lo2, hi2 = (np.array(np.broadcast_to(x, (len(u),)), dtype=np.float64)
                                     for x in (A, B1, B2, lo1, hi1, lo2, hi2))
    return _pair_forms(A, B1, B2, float(N), lo1, hi1, lo2, hi2, np.ascontiguousarray(u, dtype=np.float64),
                       np.ascontiguousarray(v, dtype=np.float64))


@compiled
def _carried(out, count, lo, size, factor):
    """out[:count] = C(size, lo + x) factor^x for x = 0..count-1 up to a common factor, carried
    from 1 by the exact ratio (size - x) / (x + 1) factor: the largest is made 1 at the end, and
    the product is scaled down by 1e-200 whenever it passes 1e200 (the factors are log-concave,
    so what falls below the smallest double then is negligible beside their peak)."""
    out[0] = top = 1.0
    for x in range(1, count):
        step = lo + x - 1
        out[x] = out[x - 1] * (max(size - step, 0.0) / (step + 1) * factor)
        if out[x] > 1e200:
            for y in range(x + 1):
                out[y] *= 1e-200
            top *= 1e-200
        top = max(top, out[x])
    for x in range(count):
        out[x] /= top


@compiled
def _pair_forms(A, B1, B2, N, lo1, hi1, lo2, hi2, u, v):
    """:func:`_pair_expectations`, a row b at a time: the factors U (the first group's count,
    lo1..hi1, tilted by e^(-t x)), V (the second's) and K (the rest's, C(N - B1 - B2, A - s)
    e^(t s) for s = x + y from lo1 + lo2) carried by their exact ratios (:func:`_carried`), then
    the two Hankel forms, summed over x for each y (elementwise, which vectorises) and over y."""
    rows = len(A)
    out = np.empty(rows)
    wide1 = wide2 = 1
    for b in range(rows):
        wide1, wide2 = max(wide1, int(hi1[b] - lo1[b]) + 1), max(wide2, int(hi2[b] - lo2[b]) + 1)
    U, V, K = np.empty(wide1), np.empty(wide2), np.empty(wide1 + wide2 - 1)
    by_y, weighted_by_y = np.empty(wide2), np.empty(wide2)
    for b in range(rows):
        shrink = A[b] / (N - A[b])  # e^-t
        n1, n2 = int(hi1[b] - lo1[b]) + 1, int(hi2[b] - lo2[b]) + 1
        if b == 0 or lo1[b] != lo1[b - 1] or hi1[b] != hi1[b - 1] or B1[b] != B1[b - 1] or A[b] != A[b - 1]:
            _carried(U, n1, lo1[b], B1[b], shrink)  # (rows of the same first group come together)
        _carried(V, n2, lo2[b], B2[b], shrink)
        # K(s) = C(rest, k) e^(t s) with k = first - s the draw's objects in neither group: the
        # ratio C(rest, k - 1) / C(rest, k) = k / (rest - k + 1), from k = min(first, rest) down
        rest = N - B1[b] - B2[b]
        first = A[b] - lo1[b] - lo2[b]
        for s in range(n1 + n2 - 1):
            K[s] = 0.0
        start = max(first - rest, 0.0)  # the first s with k <= rest
        stop = min(first, n1 + n2 - 2.0)  # the last s with k >= 0
        if start <= stop:
            begin, end = int(start), int(stop)
            _carried(K[begin:], end - begin + 1, rest - (first - begin), rest, 1.0 / shrink)
        for y in range(n2):
            by_y[y] = weighted_by_y[y] = 0.0
        for x in range(n1):
            wu, uu = U[x] * u[b, x], U[x]
            for y in range(n2):
                weighted_by_y[y] += wu * K[x + y]
                by_y[y] += uu * K[x + y]
        total = norm = 0.0
        for y in range(n2):
            total += weighted_by_y[y] * (V[y] * v[b, y])
            norm += by_y[y] * V[y]
        out[b] = total / norm if norm > 0 else math.nan  # (no mass within the windows: never a guess)
    return out


@functools.lru_cache(maxsize=64)  # random tables with fixed margins share it
def _mutual_information_variance(a_bytes: bytes, b_bytes: bytes) -> float:
    a, b, _, n = _size_pairs(np.frombuffer(a_bytes, dtype=np.int64), np.frombuffer(b_bytes, dtype=np.int64))
    if n <= 1 or len(a) < 2 or len(b) < 2 or a.max() == 1 or b.max() == 1:
        return 0.0  # one cluster or all singletons on a side: every table has the same MI
    av, ca = np.unique(a, return_counts=True)
    bv, cb = np.unique(b, return_counts=True)
    fa, fb, ca, cb, N = av.astype(np.float64), bv.astype(np.float64), ca.astype(np.float64), cb.astype(np.float64), \
        float(n)
    lo, hi = _span(fa[:, None], fb[None, :], N)  # the window of each cell, (A, B)
    width = int((hi - lo).max()) + 1
    if variance_terms(fa, fb, N, width) > MAX_VARIANCE_TERMS:
        return math.nan
    mu = fa[:, None] * fb[None, :] / N
    x, px = _window_probabilities(lo, hi, fa[:, None], fb[None, :], N)  # (A, B, x)
    fx = _deviance(x, np.broadcast_to(mu[..., None], x.shape))
    mean = float(ca @ np.einsum("abx,abx->ab", px, fx) @ cb)  # E[S]
    total = float(ca @ np.einsum("abx,abx->ab", px, fx * fx) @ cb)  # E[S^2]: each cell with itself, then the rest
    weight_a = ca[None, :] - np.eye(len(fa))  # (A, A'): the other rows of each size
    weight_b = cb[None, :] - np.eye(len(fb))
    for i, A in enumerate(fa):
        rest = N - A  # the objects outside row i
        # the other rows' expected deviances in a column with m of its objects outside row i, each
        # taken from its own expected count A' m / rest (the remainder is added per column below)
        # (only for the m that the windows of row i's count in each column leave, a window per column)
        ylo, yhi = _span(A, fb, N)
        cut = np.unique((fb[:, None] - (ylo[:, None] + np.arange(int((yhi - ylo).max()) + 1)))
                        [np.arange(int((yhi - ylo).max()) + 1) <= (yhi - ylo)[:, None]]).astype(np.float64)
        # (E[dev(Z, nu)] = E[Z log Z] - nu log nu, as E[Z] = nu: a few digits of nu log nu cancel)
        others_at = cut  # at each count in cut, not at every count up to a size
        sizes, counts = (x.ravel().astype(np.int64) for x in np.meshgrid(fa, cut, indexing="ij"))
        nu = fa[:, None] * cut / rest
        z_log_z = _hypergeometric_sums(sizes, counts, int(rest), np.log, np.zeros(len(sizes)),
                                      window=_span).reshape(len(fa), len(cut))
        others = weight_a[i] @ (z_log_z - nu * np.log(np.where(nu > 0, nu, 1.0)))
        # cells of the same row (j'), and of neither (i', j'): every pair of columns j != j' at once
        ylo, yhi = _span(A, fb, N)  # the window of row i's count in each column j'
        y = ylo[:, None] + np.arange(int((yhi - ylo).max()) + 1)  # (j', y)
        y = np.minimum(y, yhi[:, None]).astype(np.float64)
        cut = fb[:, None] - y  # column j''s objects outside row i
        F = (others[np.searchsorted(others_at, cut)] + _deviance(y, np.broadcast_to(mu[i][:, None], y.shape))
             + np.einsum("a,akz->kz", weight_a[i], _deviance(fa[:, None, None] * cut / rest, np.broadcast_to(
                 mu[:, :, None], (len(fa), len(fb), y.shape[1])))))
        j, k = np.nonzero(weight_b)  # sizes of j and j' that occur together
        pairs = _pair_expectations(np.full(len(j), A), fb[j], fb[k], N, lo[i][j], hi[i][j], ylo[k], yhi[k],
                                   fx[i][j], F[k])
        total += ca[i] * float((cb[j] * weight_b[j, k]) @ pairs)
        # cells of the same column (i'): column j draws its B objects; row i takes x, row i' y of them
        k, j = np.nonzero(weight_a[i][:, None] * np.ones(len(fb)))
        ylo, yhi = _span(fa[k], fb[j], N)
        y = ylo[:, None] + np.arange(int((yhi - ylo).max()) + 1)
        values = _deviance(np.minimum(y, yhi[:, None]).astype(np.float64), np.broadcast_to(mu[k, j][:, None],
                                                                                           y.shape))
        pairs = _pair_expectations(fb[j], np.full(len(j), A), fa[k], N, lo[i][j], hi[i][j], ylo, yhi, fx[i][j],
                                   values)
        total += ca[i] * float((weight_a[i][k] * cb[j]) @ pairs)
    variance = total - mean * mean  # both sums are accurate to ~1e-15 of themselves: below that, 0
    if not math.isfinite(variance):
        return math.nan  # never a number the sums did not give
    return float(variance / (N * N)) if variance > 1e-12 * total else 0.0
