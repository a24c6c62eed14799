"""The modern index family (INDICES.md, "The modern family"), each read off the one table.

With pair counts a, b, c, d (``Comparison.pair_counts``), M = C(N, 2), m_a = a + b and
m_b = a + c, and the table's cells n_ij with row sizes r_i (reference) and column sizes c_j
(candidate):

* ``ami_sqrt``, ``ami_max``, ``ami_min``: AMI bounded by the geometric mean, the larger or the
  smaller entropy (:func:`cluval_core.information.adjusted_mutual_information`);
* ``homogeneity`` = MI / H_a and ``completeness`` = MI / H_b (1 where that entropy is 0), and
  the V-measure (1 + beta) h c / (beta h + c) (:func:`v_measure`);
* ``bcubed_precision`` = (1/N) sum n_ij^2 / c_j, ``bcubed_recall`` = (1/N) sum n_ij^2 / r_i,
  ``bcubed_f`` their harmonic mean (Bagga & Baldwin 1998; Amigó et al. 2009);
* ``ecs``, element-centric similarity of flat partitions (Gates et al. 2019): each object's
  similarity is 1 - (L1 distance of its two clusters' uniform memberships) / 2, which for
  an object of cell (i, j) is n_ij / max(r_i, c_j); ECS is their mean,
  (1/N) sum n_ij^2 / max(r_i, c_j);
* ``rmi`` and ``rmi_flat``: reduced mutual information in nats per object, the traditional
  (microcanonical) mutual information less the information needed to encode the table
  given the cluster sizes, with the Dirichlet-multinomial reduction (Jerdee, Kirkley &
  Newman 2024) or the flat one (Newman, Cantwell & Young 2020); ``nrmi`` is RMI over the
  reference's reduced entropy (the RMI of the reference with itself);
* ``mari``, the modified adjusted Rand index under the multinomial model (Sundqvist,
  Chiquet & Rigaill 2023), computed in exact integers for counts;
* ``pair_correlation`` = (M a - m_a m_b) / sqrt(m_a m_b (M - m_a)(M - m_b)) (Gösgens,
  Tikhonov & Prokhorenkova 2021), ``pair_correlation_distance`` = arccos(that) / pi,
  ``pair_jaccard`` = a / (a + b + c), ``sokal_sneath`` = (a/m_a + a/m_b + d/(d + b) + d/(d + c)) / 4.

The reduced mutual information's two minimisations over the Dirichlet concentration alpha
run over log(alpha) in [log 1e-4, log 1e4], the authors' range, by bounded Brent search; the
log-binomial sums are taken over the distinct cell values and cluster sizes, each weighted
by how often it occurs, so each step costs the number of distinct values, not of cells.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from scipy.optimize import brentq
from scipy.special import digamma, gammaln

from ._numeric import order_free_sum
from ._validation import SOFT_TOLERANCE

__all__ = ["homogeneity", "completeness", "v_measure", "bcubed_precision",
           "bcubed_recall", "bcubed_f", "element_centric_similarity", "element_scores", "reduced_mutual_information",
           "reduced_mutual_information_flat", "normalized_reduced_mutual_information", "modified_adjusted_rand",
           "pair_correlation", "pair_correlation_distance", "pair_jaccard", "sokal_sneath", "sokal_sneath_in_a"]

_ALPHA_RANGE = (math.log(1e-4), math.log(1e4))


# ---------------------------------------------------------------------- information
def _share_of(c, entropy: float) -> float:
    if entropy <= (SOFT_TOLERANCE if c.is_soft else 0.0):
        return 1.0
    return min(c.entropies.mutual_information / entropy, 1.0)


def homogeneity(c) -> float:
    """MI / H_a: how far each candidate cluster holds objects of one reference cluster only."""
    return _share_of(c, c.entropies.true)


def completeness(c) -> float:
    """MI / H_b: how far each reference cluster's objects share one candidate cluster."""
    return _share_of(c, c.entropies.pred)


def v_measure(c, beta: float = 1.0) -> float:
    """(1 + beta) h c / (beta h + c) with h the homogeneity and c the completeness (0 where c = 0)."""
    h, k = homogeneity(c), completeness(c)
    if beta * h + k == 0:  # h = k = 0, or beta = 0 with k = 0: the product is 0
        return 0.0
    return (1 + beta) * h * k / (beta * h + k)


# ---------------------------------------------------------------------- per object
def _squares_over(c, sizes: np.ndarray) -> float:
    r, col, v = c.cells
    return order_free_sum(v.astype(np.float64) * v / sizes) / c.n


def bcubed_precision(c) -> float:
    """(1/N) sum n_ij^2 / c_j: the mean share of an object's candidate cluster in its reference cluster."""
    return _squares_over(c, c.col_sizes[c.cells.cols])


def bcubed_recall(c) -> float:
    """(1/N) sum n_ij^2 / r_i: the mean share of an object's reference cluster in its candidate cluster."""
    return _squares_over(c, c.row_sizes[c.cells.rows])


def bcubed_f(c) -> float:
    p, r = bcubed_precision(c), bcubed_recall(c)
    return 2 * p * r / (p + r)


def _cell_element_scores(c) -> np.ndarray:
    """Each non-empty cell's objects' element-centric similarity, n_ij / max(r_i, c_j)."""
    r, col, v = c.cells
    return v / np.maximum(c.row_sizes[r], c.col_sizes[col])


def element_centric_similarity(c) -> float:
    """(1/N) sum over objects of n_ij / max(r_i, c_j) (Gates et al. 2019, flat partitions)."""
    return order_free_sum(c.cells.values * _cell_element_scores(c)) / c.n


def element_scores(c) -> np.ndarray:
    """Each object's element-centric similarity, in the order of the labels compared."""
    rows, cols = c.codes
    found = c._find_cells(rows, cols)
    return _cell_element_scores(c)[found]


# ---------------------------------------------------------------------- reduced mutual information
def _distinct(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values and how often each occurs, as floats."""
    distinct, counts = np.unique(values, return_counts=True)
    return distinct.astype(np.float64), counts.astype(np.float64)


def _log_binom(n, m):
    return gammaln(n + 1) - gammaln(m + 1) - gammaln(n - m + 1)


def _minimum(terms) -> float:
    """The least value over alpha in [1e-4, 1e4] of the reduced encoding's cost, given as
    ``terms = [(weight, size, scale), ...]``: sum of weight * log C(size + scale alpha - 1, scale alpha - 1).

    Each term is convex in log(alpha) beyond its start and the sum has one minimum (the
    authors' premise): it is where the derivative, sum of weight * scale * alpha *
    (digamma(size + scale alpha) - digamma(scale alpha)), changes sign, found by Brent's method
    to 1e-12 in log(alpha), or an end of the range where it does not change sign.
    """
    weights = np.concatenate([w for w, _, _ in terms])
    sizes = np.concatenate([v for _, v, _ in terms])
    scales = np.concatenate([np.full(len(v), q) for _, v, q in terms])

    def cost(t):
        a = scales * math.exp(t)
        return float(np.dot(weights, gammaln(sizes + a) - gammaln(a)) - np.dot(weights, gammaln(sizes + 1)))

    def slope(t):
        a = scales * math.exp(t)
        return float(np.dot(weights, a * (digamma(sizes + a) - digamma(a))))

    low, high = _ALPHA_RANGE
    if slope(low) >= 0:
        return cost(low)
    if slope(high) <= 0:
        return cost(high)
    return cost(brentq(slope, low, high, xtol=1e-12))


def _prior(sizes: np.ndarray, n: float, q: float):
    """The terms of log C(N + q alpha - 1, q alpha - 1) - sum log C(n_g + alpha - 1, alpha - 1)."""
    values, counts = _distinct(sizes)
    return [(np.array([1.0]), np.array([n]), q), (-counts, values, 1.0)]


def _conditional(cols: np.ndarray, cells: np.ndarray, q: float):
    """The terms of sum_s [log C(n_s + q alpha - 1, q alpha - 1) - sum_g log C(n_gs + alpha - 1, alpha - 1)]."""
    s_values, s_counts = _distinct(cols)
    v_values, v_counts = _distinct(cells)
    return [(s_counts, s_values, q), (-v_counts, v_values, 1.0)]


@lru_cache(maxsize=256)
def _reference_terms(sizes: bytes) -> tuple[float, float]:
    """(H(g), H(g | g)) of a reference with these cluster sizes (sorted int64 bytes), in nats.

    Both depend on the sizes alone, so random tables with the same margins share them.
    H(g) = min_alpha prior(alpha) + log N! - sum log n_g!; H(g | g) is H(g | c) with the candidate
    equal to the reference (a diagonal table).
    """
    rows = np.frombuffer(sizes, dtype=np.int64)
    n, q = float(rows.sum()), float(len(rows))
    h_g = _minimum(_prior(rows, n, q)) + float(gammaln(n + 1)) - float(np.sum(gammaln(rows + 1.0)))
    return h_g, _minimum(_conditional(rows, rows, q))


def _key(sizes: np.ndarray) -> bytes:
    return np.sort(np.asarray(sizes, dtype=np.int64)).tobytes()


def _reduced_information(c) -> float:
    """RMI of the whole table in nats, the reference being the rows (Jerdee et al. 2024).

    H(g) = min_alpha [log C(N + q alpha - 1, q alpha - 1) - sum_g log C(n_g + alpha - 1, alpha - 1)]
           + log N! - sum_g log n_g!
    H(g | c) = min_alpha sum_s [log C(n_s + q alpha - 1, q alpha - 1) - sum_g log C(n_gs + alpha - 1, alpha - 1)]
               + sum_s log n_s! - sum_gs log n_gs!
    with q the number of reference clusters; RMI = H(g) - H(g | c).
    """
    h_g, _ = _reference_terms(_key(c.row_sizes))
    cols, cells = _distinct(c.col_sizes), _distinct(c.cells.values)
    h_g_given_c = (_minimum(_conditional(c.col_sizes, c.cells.values, float(c.k_true)))
                   + float(np.dot(cols[1], gammaln(cols[0] + 1))) - float(np.dot(cells[1], gammaln(cells[0] + 1))))
    return h_g - h_g_given_c


def reduced_mutual_information(c) -> float:
    """Reduced mutual information (Dirichlet-multinomial reduction) in nats per object; NaN on real tables."""
    if c.is_soft:
        return math.nan
    return _reduced_information(c) / c.n


def normalized_reduced_mutual_information(c) -> float:
    """RMI over the reference's reduced entropy (its RMI with itself), asymmetric by design.

    1 for identical partitions; 0 where the reference's reduced entropy is not positive
    (one cluster, or too few objects to say more than the sizes do), as the authors do.
    """
    if c.is_soft:
        return math.nan
    if c.is_identical:
        return 1.0
    h_g, h_g_given_g = _reference_terms(_key(c.row_sizes))
    own = h_g - h_g_given_g
    if own <= 0:
        return 0.0
    return c.score("rmi") * c.n / own


def _log_tables_count(row_sums: np.ndarray, col_sums: np.ndarray) -> float:
    """log of the number of tables of counts with these margins, by the effective-columns
    estimate (Jerdee, Kirkley & Newman 2023), in nats; exact when every column sum is 1."""
    rs, cs = np.asarray(row_sums, dtype=np.float64), np.asarray(col_sums, dtype=np.float64)
    m, n = float(len(rs)), order_free_sum(rs)
    squares = order_free_sum(cs * cs)
    if squares == n:  # every column sum is 1: each column's one object goes to a row, N! / prod r!
        return float(gammaln(n + 1)) - order_free_sum(gammaln(rs + 1))
    alpha = (n * n - n + (n * n - squares) / m) / (squares - n)
    return (-float(_log_binom(n + m * alpha - 1, m * alpha - 1)) + order_free_sum(_log_binom(rs + alpha - 1, alpha - 1))
            + order_free_sum(_log_binom(cs + m - 1, m - 1)))


def reduced_mutual_information_flat(c) -> float:
    """Reduced mutual information with the flat reduction, in nats per object; NaN on real tables.

    (log N! - sum log r_i! - sum log c_j! + sum log n_ij! - log Omega(c, r)) / N, with Omega the
    number of tables whose row sums are the candidate's sizes and column sums the reference's.
    """
    if c.is_soft:
        return math.nan
    n = float(c.n)
    traditional = (float(gammaln(n + 1)) - order_free_sum(gammaln(c.row_sizes + 1.0))
                   - order_free_sum(gammaln(c.col_sizes + 1.0)) + order_free_sum(gammaln(c.cells.values + 1.0)))
    return (traditional - _log_tables_count(c.col_sizes, c.row_sizes)) / n


# ---------------------------------------------------------------------- pair counting
def _exact_square_sum(values: np.ndarray, n) -> int | float:
    """sum of v^2: an exact Python int for counts."""
    if values.dtype.kind == "f":
        return order_free_sum(values * values)
    if n < 2**31:
        return int(np.sum(values * values))
    return sum(int(v) * int(v) for v in values.tolist())


def _row_weighted_sum(c) -> int | float:
    """sum_ij n_ij r_i c_j (MARI's T2): an exact Python int for counts."""
    r, col, v = c.cells
    if c.is_soft:
        return order_free_sum(v * c.row_sizes[r] * c.col_sizes[col])
    n = c.n
    if n < 2**31:
        # per row s_i = sum_j n_ij c_j <= N^2 < 2^62; then sum r_i s_i split at 2^31 so no product overflows
        starts = np.flatnonzero(np.r_[True, r[1:] != r[:-1]])
        s = np.add.reduceat(v * c.col_sizes[col], starts)
        sizes = c.row_sizes[r[starts]]
        high, low = np.divmod(s, 2**31)
        return (int(np.sum(sizes * high)) << 31) + int(np.sum(sizes * low))
    return sum(int(x) * int(y) * int(z) for x, y, z in zip(v.tolist(), c.row_sizes[r].tolist(),
                                                          c.col_sizes[col].tolist()))


def modified_adjusted_rand(c) -> float:
    """MARI: (a - E) / ((m_a + m_b)/2 - E) with E the expectation of a under the multinomial model.

    E = M (m_a m_b - a - (T1 + T2 + T3)) / (6 C(N, 4)), T1 = 2N, T2 = sum n_ij r_i c_j,
    T3 = -sum n_ij^2 - sum r_i^2 - sum c_j^2 (Sundqvist et al. 2023, Lemma 3.3). Exact for
    counts; 1 when E equals the maximum and a > 0; NaN for fewer than 4 objects.
    """
    p = c.pair_counts
    n = c.n
    if n < 4:
        return math.nan
    a, m_a, m_b, m = p.a, p.a + p.b, p.a + p.c, p.total
    r, col, v = c.cells
    t = (2 * n + _row_weighted_sum(c) - _exact_square_sum(v, n) - _exact_square_sum(c.row_sizes, n)
         - _exact_square_sum(c.col_sizes, n))
    quadruples = 6 * (n * (n - 1) * (n - 2) * (n - 3) // 24 if not c.is_soft else n * (n - 1) * (n - 2) * (n - 3) / 24)
    q = m_a * m_b - a - t  # E = M q / quadruples
    if c.is_soft:
        expected = m * q / quadruples
        maximum = (m_a + m_b) / 2
        if abs(maximum - expected) <= SOFT_TOLERANCE * m:
            return 1.0 if c.is_identical else math.nan
        return (a - expected) / (maximum - expected)
    # (a - M q / Q) / ((m_a + m_b)/2 - M q / Q) = 2 (a Q - M q) / ((m_a + m_b) Q - 2 M q), in integers
    numerator = 2 * (a * quadruples - m * q)
    denominator = (m_a + m_b) * quadruples - 2 * m * q
    if denominator == 0:
        return 1.0 if a > 0 else math.nan
    return numerator / denominator


def pair_correlation(c) -> float:
    """Pearson correlation of the pair indicators: (M a - m_a m_b) / sqrt(m_a m_b (M - m_a)(M - m_b)).

    NaN when a factor is 0 (one side all singletons or one cluster).
    """
    p = c.pair_counts
    m_a, m_b, m = p.a + p.b, p.a + p.c, p.total
    factors = (m_a, m_b, m - m_a, m - m_b)
    tolerance = SOFT_TOLERANCE * m if c.is_soft else 0
    if min(factors) <= tolerance:
        return math.nan
    numerator = m * p.a - m_a * m_b
    product = m_a * m_b * (m - m_a) * (m - m_b)
    if isinstance(product, int):
        root = math.isqrt(product)
        if root * root == product:
            return max(min(numerator / root, 1.0), -1.0)
    root = math.sqrt(m_a * m_b) * math.sqrt((m - m_a) * (m - m_b))
    return max(min(numerator / root, 1.0), -1.0)


def pair_correlation_distance(c) -> float:
    """arccos(pair_correlation) / pi: 0 for identical partitions, 1 for perfectly anti-correlated pairs."""
    value = pair_correlation(c)
    return math.acos(value) / math.pi if not math.isnan(value) else math.nan


def pair_jaccard(c) -> float:
    """a / (a + b + c): 1 when no pair is together on either side (both all singletons)."""
    p = c.pair_counts
    union = p.a + p.b + p.c
    if union <= (SOFT_TOLERANCE * p.total if c.is_soft else 0):
        return 1.0 if c.is_identical else math.nan
    return p.a / union


def sokal_sneath_in_a(m, m_a, m_b) -> tuple[float, float]:
    """(weight, constant) with Sokal-Sneath = weight * a + constant, given the margins' pair counts:
    b = m_a - a, c = m_b - a, d + b = M - m_b and d + c = M - m_a (chance and anatomy use it)."""
    weight = (1 / m_a + 1 / m_b + 1 / (m - m_b) + 1 / (m - m_a)) / 4
    constant = (m - m_a - m_b) * (1 / (m - m_b) + 1 / (m - m_a)) / 4
    return weight, constant


def sokal_sneath(c) -> float:
    """(a/(a+b) + a/(a+c) + d/(d+b) + d/(d+c)) / 4: 1 for identical partitions, NaN when a
    denominator is 0 otherwise."""
    p = c.pair_counts
    denominators = (p.a + p.b, p.a + p.c, p.d + p.b, p.d + p.c)
    if c.is_identical:
        return 1.0
    tolerance = SOFT_TOLERANCE * p.total if c.is_soft else 0
    if min(denominators) <= tolerance:
        return math.nan
    return (p.a / denominators[0] + p.a / denominators[1] + p.d / denominators[2] + p.d / denominators[3]) / 4
