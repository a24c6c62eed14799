"""Pair-counting indices: every index read off the four pair counts, each in one place.

With a, b, c, d the pairs of objects together in both partitions, together only in the
reference, together only in the candidate, and apart in both (``Comparison.pair_counts``),
M = C(N, 2) = a + b + c + d, m_a = a + b and m_b = a + c:

* ``ri``  = (a + d) / M                                          (Rand 1971)
* ``ari`` = 2 (a d - b c) / ((a + b)(b + d) + (a + c)(c + d))   (Hubert & Arabie 1985),
  which is (a - E) / (max - E) with E = m_a m_b / M, the expectation of a under the
  permutation model, and max = (m_a + m_b) / 2
* ``fowlkes_mallows`` = a / sqrt(m_a m_b)                        (Fowlkes & Mallows 1983)
* ``afm`` = (FM - E) / (1 - E), E = sqrt(m_a m_b) / M
* ``mari``, the modified adjusted Rand index under the multinomial model (Sundqvist,
  Chiquet & Rigaill 2023), computed in exact integers for counts
* ``pair_correlation`` = (M a - m_a m_b) / sqrt(m_a m_b (M - m_a)(M - m_b)) (Gösgens,
  Tikhonov & Prokhorenkova 2021), ``pair_correlation_distance`` = arccos(that) / pi
* ``pair_jaccard`` = a / (a + b + c), ``sokal_sneath`` = (a/m_a + a/m_b + d/(d + b) + d/(d + c)) / 4

Counts are exact integers for crisp partitions, so the only rounding is the final division.
ARI's denominator is zero only when both partitions are the same trivial partition (one
cluster, or all singletons): ARI is then 1. FM is undefined (NaN) when a product is zero
(one side has only singletons); AFM also when E = 1 (both sides one cluster).

On soft tables the "counts" n(n-1)/2 are real and may be negative (a cell below one
object); a denominator or product within a relative 1e-12 of zero (or below it) is
degenerate: ARI is then 1 for identical partitions and NaN otherwise, FM and AFM NaN.

Under the permutation model a = sum C(n_ij, 2) has the exact expectation m_a m_b / M and an
exact variance (from the chances that one pair, two pairs sharing an object and two disjoint
pairs stay together), so every index here that is linear in a (RI, ARI, FM, AFM, the pair
correlation and Sokal-Sneath) has an exact expectation and standard deviation.

>>> from cluval_core import compare
>>> c = compare([0, 0, 0, 1, 1, 1], [0, 0, 1, 1, 2, 2])
>>> c.pair_counts, c.score("ri"), round(c.score("ari"), 4)
(PairCounts(a=2, b=4, c=1, d=8), 0.6666666666666666, 0.2424)
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import repeat

import numpy as np
from scipy.special import ndtr

from ..core import random_models
from ..core.compiled import compiled
from ..core.labels import score_labels
from ..core.numeric import distinct_counts, order_free_sum
from ..core.registry import INF, Anatomy, IndexInfo, add_index, left_out_update
from ..core.steps import Step, shown, sum_of
from ..core.validation import SOFT_TOLERANCE, CluvalError

__all__ = ["rand_score", "adjusted_rand_score", "fowlkes_mallows_score", "adjusted_fowlkes_mallows_score",
           "modified_adjusted_rand_score", "pair_correlation_coefficient", "pair_correlation_distance",
           "pair_jaccard_score", "sokal_sneath_score", "mirkin_metric", "hubert_index", "pair_recall_score",
           "pair_precision_score", "czekanowski_dice_score", "kulczynski_score", "russel_rao_score",
           "rogers_tanimoto_score", "sokal_sneath_2_score", "southwood_score", "standardized_rand_score",
           "p_value_adjusted_rand_score", "pair_index",
           "pair_index_score"]

FAMILY, FAMILY_NAME = "pair_counting", "Pair counting"

GOSGENS = ("Gösgens, Tikhonov & Prokhorenkova (2021), Systematic analysis of cluster similarity indices: how to "
           "validate validation measures, ICML")


def _degenerate(c, value, scale) -> bool:
    """Zero for crisp counts; at most a relative SOFT_TOLERANCE of `scale` for soft ones."""
    return value <= SOFT_TOLERANCE * scale if c.is_soft else value == 0


def _tolerance(c, scale):
    return SOFT_TOLERANCE * scale if c.is_soft else 0


# ---------------------------------------------------------------------- the permutation model
def _summed(sizes) -> tuple[int, int, int, int]:
    """The sums over cluster sizes x of C(x, 2), x(x-1)(x-2), x(x-1)(x-2)(x-3) and (x(x-1))^2, what
    the moments of the pair counts read (Python integers); over many clusters each distinct size
    once, times how often it occurs (all singletons: one term)."""
    sizes = np.asarray(sizes, dtype=np.int64)
    if len(sizes) > _MANY_SIZES:
        values, times = (part.tolist() for part in distinct_counts(sizes))
    else:
        values, times = sizes.tolist(), repeat(1)
    pairs = triples = quadruples = squares = 0
    for x, k in zip(values, times):
        two = x * (x - 1)
        three = two * (x - 2)
        pairs += k * two
        triples += k * three
        quadruples += k * three * (x - 3)
        squares += k * two * two
    return pairs // 2, triples, quadruples, squares  # each x (x - 1) is even


# Beyond this many clusters a side, the size sums take each distinct size once (counting them costs
# more than the loop below it).
_MANY_SIZES = 256


def _size_sums(c):
    """(N, :func:`_summed` over the row sizes, over the column sizes), in Python integers."""
    return int(c.n), _summed(c.row_sizes), _summed(c.col_sizes)


@left_out_update(_size_sums)
def _size_sums_left_out(sums, c, i: int, j: int):
    """One object of cell (i, j) left out: row i and column j each lose one, which changes one
    term of each sum (exactly, in integers)."""
    n, rows, cols = sums
    return n - 1, _one_fewer(rows, int(c.row_sizes[i])), _one_fewer(cols, int(c.col_sizes[j]))


def _one_fewer(sums: tuple, x: int) -> tuple:
    return tuple(total - old + new for total, old, new in zip(sums, _summed([x]), _summed([x - 1])))


@lru_cache(maxsize=64)  # random tables with fixed margins share it
def _pair_sum_variance(n: int, rows: tuple, cols: tuple) -> float:
    """Var[sum_ij C(n_ij, 2)] under the permutation model, exactly, from N and each side's
    :func:`_summed` (:func:`_size_sums`).

    The sum counts, over the S_r pairs of objects together in the reference, those together
    in the randomly assigned candidate. With pi1, pi2, pi3 the chances that one pair, two pairs
    sharing an object, and two disjoint pairs are together in the candidate, and U the pairs of
    reference pairs that share an object: Var = S_r pi1 (1 - pi1) + 2U (pi2 - pi1^2) + D (pi3 - pi1^2),
    D = S_r (S_r - 1) - 2U the ordered disjoint ones.
    """
    s_r = rows[0]
    shared = rows[1] // 2  # each x(x-1)(x-2) is even
    disjoint = s_r * (s_r - 1) - 2 * shared
    # pi_k = p_k / q_k: the variance is summed over a common denominator in Python integers and
    # divided once (int / int is correctly rounded, as the float of a Fraction is); a term that
    # does not apply (too few objects, or no such pairs of pairs) is left out with p_k = 0, q_k = 1
    p1, q1 = cols[0], n * (n - 1) // 2
    p2, q2 = 0, 1
    if n >= 3 and shared:
        p2, q2 = cols[1], n * (n - 1) * (n - 2)
    p3, q3 = 0, 1
    if n >= 4 and disjoint:
        pairs = 2 * cols[0]
        p3, q3 = cols[2] + pairs * pairs - cols[3], n * (n - 1) * (n - 2) * (n - 3)
    square = q1 * q1
    numerator = s_r * p1 * (q1 - p1) * q2 * q3
    if q2 > 1:
        numerator += 2 * shared * (p2 * square - p1 * p1 * q2) * q3
    if q3 > 1:
        numerator += disjoint * (p3 * square - p1 * p1 * q3) * q2
    return max(numerator / (square * q2 * q3), 0.0)


def _null(c):
    """(M, m_a, m_b, E[a], SD[a]) under the permutation model, in Python integers where exact."""
    n, rows, cols = c.memo(_size_sums)
    m = n * (n - 1) // 2
    m_a, m_b = rows[0], cols[0]  # Python integers: exact at any N
    return m, m_a, m_b, m_a * m_b / m, math.sqrt(_pair_sum_variance(n, rows, cols))


def _linear_in_a(c, weight, constant):
    """(E, SD) of weight * a + constant."""
    m, m_a, m_b, expected_a, sd_a = c.margin_memo(_null)
    return expected_a * weight + constant, sd_a * abs(weight)


def _rand_expectation(c):
    m, m_a, m_b, _, sd_a = c.margin_memo(_null)
    return float(Fraction(m * m - m * (m_a + m_b) + 2 * m_a * m_b, m * m)), 2 * sd_a / m  # exact, then rounded once


def _rand_under(c, model):
    """(E, SD) of the Rand index under a model that draws whole partitions (random_models)."""
    sizes = (c.row_sizes.astype(np.int64).tolist(), c.col_sizes.astype(np.int64).tolist())
    return random_models.expected_rand(int(c.n), model, *sizes)


def _ari_expectation(c):
    m, m_a, m_b, expected_a, sd_a = c.margin_memo(_null)
    if (m_a + m_b) / 2 == expected_a:
        return None
    return 0.0, sd_a / abs((m_a + m_b) / 2 - expected_a)


def _fm_expectation(c):
    m, m_a, m_b, expected_a, sd_a = c.margin_memo(_null)
    if not (m_a and m_b):
        return None
    root = math.sqrt(m_a * m_b)
    return expected_a / root, sd_a / root


def _afm_expectation(c):
    m, m_a, m_b, expected_a, sd_a = c.margin_memo(_null)
    root = math.sqrt(m_a * m_b)
    if not (m_a and m_b) or root >= m:
        return None
    return 0.0, sd_a / root / (1 - root / m)


def _within_margins(m, m_a, m_b) -> bool:
    return min(m_a, m_b, m - m_a, m - m_b) > 0


def _correlation_expectation(c):
    m, m_a, m_b, _, sd_a = c.margin_memo(_null)
    if not _within_margins(m, m_a, m_b):
        return None
    return 0.0, m * sd_a / (math.sqrt(m_a * m_b) * math.sqrt((m - m_a) * (m - m_b)))


def _sokal_sneath_expectation(c):
    m, m_a, m_b, _, _ = c.margin_memo(_null)
    if not _within_margins(m, m_a, m_b):
        return None
    return _linear_in_a(c, *sokal_sneath_in_a(m, m_a, m_b))


# ---------------------------------------------------------------------- anatomy
def _dense_pairs(dense):
    """C(n_ij, 2) per cell, M, and the margins' pair sums m_a and m_b, as floats."""
    n = dense.n
    return (dense.table * (dense.table - 1) / 2, n * (n - 1) / 2, float(np.sum(dense.rows * (dense.rows - 1) / 2)),
            float(np.sum(dense.cols * (dense.cols - 1) / 2)))


def _rand_cells(c, dense):
    pairs, m, m_a, m_b = _dense_pairs(dense)
    return Anatomy(2 * pairs / m, (m - m_a - m_b) / m, "2 C(n_ij, 2) / C(N, 2): pairs kept together in both")


def _ari_cells(c, dense):
    pairs, m, m_a, m_b = _dense_pairs(dense)
    denominator = (m_a + m_b) / 2 - m_a * m_b / m
    if denominator == 0:
        return None
    expected = np.outer(dense.rows * (dense.rows - 1) / 2, dense.cols * (dense.cols - 1) / 2) / m
    return Anatomy((pairs - expected) / denominator, 0.0, "(C(n_ij, 2) - its expectation) / ARI's denominator")


def _fm_cells(c, dense):
    pairs, m, m_a, m_b = _dense_pairs(dense)
    if not m_a or not m_b:
        return None
    return Anatomy(pairs / math.sqrt(m_a * m_b), 0.0, "C(n_ij, 2) / sqrt(sum C(r_i, 2) sum C(c_j, 2))")


def _afm_cells(c, dense):
    pairs, m, m_a, m_b = _dense_pairs(dense)
    if not m_a or not m_b:
        return None
    root = math.sqrt(m_a * m_b)
    e = root / m
    return Anatomy(pairs / root / (1 - e), -e / (1 - e),
                   "C(n_ij, 2) / sqrt(...) / (1 - E); the constant is -E / (1 - E)")


def _jaccard_cells(c, dense):
    pairs, m, m_a, m_b = _dense_pairs(dense)
    union = m_a + m_b - float(pairs.sum())
    return Anatomy(pairs / union, 0.0, "C(n_ij, 2) / (a + b + c)") if union > 0 else None


def _correlation_cells(c, dense):
    pairs, m, m_a, m_b = _dense_pairs(dense)
    if min(m_a, m_b, m - m_a, m - m_b) <= 0:
        return None
    root = math.sqrt(m_a * m_b) * math.sqrt((m - m_a) * (m - m_b))
    return Anatomy(m * pairs / root, -m_a * m_b / root,
                   "M C(n_ij, 2) / sqrt(...); the constant is -m_a m_b / sqrt(...)")


def _sokal_sneath_cells(c, dense):
    pairs, m, m_a, m_b = _dense_pairs(dense)
    if min(m_a, m_b, m - m_a, m - m_b) <= 0:
        return None
    weight, constant = sokal_sneath_in_a(m, m_a, m_b)
    return Anatomy(pairs * weight, constant, "C(n_ij, 2) times the weight of a pair together in both; constant from d")


# ---------------------------------------------------------------------- steps
def _pair_count_steps(c) -> list[Step]:
    """a, b, c, d and M, worked out from the table."""
    p = c.pair_counts
    cells, rows, cols = c.cells.values, c.row_sizes, c.col_sizes
    choose = (lambda v: v * (v - 1) / 2) if c.is_soft else (lambda v: v * (v - 1) // 2)
    n = c.n
    return [
        Step("a", "Σ C(n_ij, 2)", sum_of(choose(cells)), p.a),
        Step("b", "Σ C(r_i, 2) − a", f"({sum_of(choose(rows))}) − {shown(p.a)}", p.b),
        Step("c", "Σ C(c_j, 2) − a", f"({sum_of(choose(cols))}) − {shown(p.a)}", p.c),
        Step("M", "C(N, 2)", f"C({shown(n)}, 2)", p.total),
        Step("d", "M − a − b − c", f"{shown(p.total)} − {shown(p.a)} − {shown(p.b)} − {shown(p.c)}", p.d),
    ]


def _margins_steps(c) -> list[Step]:
    """a, m_a = a + b, m_b = a + c, M and d."""
    p = c.pair_counts
    return _pair_count_steps(c) + [
        Step("m_a", "a + b", f"{shown(p.a)} + {shown(p.b)}", p.a + p.b),
        Step("m_b", "a + c", f"{shown(p.a)} + {shown(p.c)}", p.a + p.c),
    ]


def _convention(symbol: str, value, why: str) -> Step:
    return Step(symbol, "", "", value, why)


# ---------------------------------------------------------------------- pair-counting F-measure
def pair_f_beta(pair_counts, beta: float = 1.0) -> Fraction | float:
    """The pair-counting F-measure F_β = (β² + 1) P R / (β² P + R), not a registry index.

    Each pair of objects is a decision, the reference the truth: a pair the candidate puts
    together is a true positive when the reference also does (a) and a false positive when it
    does not (c); a pair the reference holds together that the candidate separates is a false
    negative (b). So precision P = a / (a + c), recall R = a / (a + b), and β > 1 weighs recall
    more (Manning, Raghavan & Schütze 2008, Introduction to Information Retrieval, section 16.3).

    Parameters
    ----------
    pair_counts : PairCounts
        ``Comparison.pair_counts`` (a, b, c, d).
    beta : float
        The weight of recall, positive.

    Returns
    -------
    Fraction or float
        In [0, 1], 1 when the candidate's pairs are the reference's. Exact (a Fraction) for
        whole counts and a whole `beta`; NaN when P or R is undefined (no pair together on a side)
        or both are 0.

    >>> from cluval_core import Comparison
    >>> pairs = Comparison.from_table([[5, 1, 2], [1, 4, 0], [0, 1, 3]]).pair_counts
    >>> pair_f_beta(pairs, 5), round(float(pair_f_beta(pairs, 5)), 3)
    (Fraction(26, 57), 0.456)
    """
    if isinstance(beta, bool) or not isinstance(beta, (int, float)) or not math.isfinite(beta) or beta <= 0:
        raise ValueError(f"beta must be a positive number, got {beta!r}")
    a, b, c = pair_counts.a, pair_counts.b, pair_counts.c
    exact = all(isinstance(v, (int, np.integer)) for v in (a, b, c)) and float(beta).is_integer()
    if a + c == 0 or a + b == 0:
        return math.nan
    if exact:
        precision, recall, weight = Fraction(int(a), int(a + c)), Fraction(int(a), int(a + b)), int(beta) ** 2
    else:
        precision, recall, weight = a / (a + c), a / (a + b), beta * beta
    if precision == 0 and recall == 0:
        return math.nan
    return (weight + 1) * precision * recall / (weight * precision + recall)


def pair_mcnemar(pair_counts) -> float:
    """McNemar's statistic of the pairs (b - c) / sqrt(b + c), not a registry index.

    It compares the pairs that only the reference puts together (b) with those that only the
    candidate does (c): positive when the reference merges more than the candidate, negative
    when it splits more, about 0 when their disagreements balance. It tests whether the two
    partitions disagree one way more than the other, not how far they agree, so it has no best
    value (clusterCrit's ``McNemar``; Desgraupes 2013).

    Parameters
    ----------
    pair_counts : PairCounts
        ``Comparison.pair_counts`` (a, b, c, d).

    Returns
    -------
    float
        NaN when b + c = 0 (no pair on which they disagree).

    >>> from cluval_core import Comparison
    >>> round(pair_mcnemar(Comparison.from_table([[3, 1], [0, 2]]).pair_counts), 4)  # b = 3, c = 2: 1/√5
    0.4472
    """
    b, c = pair_counts.b, pair_counts.c
    return math.nan if b + c == 0 else float((b - c) / math.sqrt(b + c))


# ---------------------------------------------------------------------- Rand index
def _rand(c) -> float:
    p = c.pair_counts
    return (p.a + p.d) / p.total


def _rand_steps(c):
    p = c.pair_counts
    return _pair_count_steps(c) + [
        Step("RI", "(a + d) / M", f"({shown(p.a)} + {shown(p.d)}) / {shown(p.total)}", _rand(c))]


# ---------------------------------------------------------------------- adjusted Rand index
def _ari_parts(p):
    numerator = 2 * (p.a * p.d - p.b * p.c)
    denominator = (p.a + p.b) * (p.b + p.d) + (p.a + p.c) * (p.c + p.d)
    return numerator, denominator


def _adjusted_rand(c) -> float:
    p = c.pair_counts
    numerator, denominator = _ari_parts(p)
    if _degenerate(c, abs(denominator), p.total * p.total):
        return 1.0 if (not c.is_soft or c.is_identical) else math.nan
    return numerator / denominator


def _ari_steps(c):
    p = c.pair_counts
    m_a, m_b = p.a + p.b, p.a + p.c
    exact = not c.is_soft
    expected = Fraction(m_a * m_b, p.total) if exact else m_a * m_b / p.total
    maximum = Fraction(m_a + m_b, 2) if exact else (m_a + m_b) / 2
    steps = _pair_count_steps(c) + [
        Step("E", "(a + b)(a + c) / M", f"{shown(m_a)} × {shown(m_b)} / {shown(p.total)}", expected,
             "the expected a when objects are assigned at random with these cluster sizes"),
        Step("max", "((a + b) + (a + c)) / 2", f"({shown(m_a)} + {shown(m_b)}) / 2", maximum),
    ]
    numerator, denominator = _ari_parts(p)
    if _degenerate(c, abs(denominator), p.total * p.total):
        value = _adjusted_rand(c)
        why = ("max = E: both partitions are the same trivial partition, so ARI is 1 by convention"
               if value == 1 else "max = E within rounding on a real-valued table: undefined")
        return steps + [_convention("ARI", value, why)]
    return steps + [Step("ARI", "(a − E) / (max − E)",
                         f"({shown(p.a)} − {shown(expected)}) / ({shown(maximum)} − {shown(expected)})",
                         _adjusted_rand(c))]


# ---------------------------------------------------------------------- standardized Rand index and PMI_2
def _sri_parts(c):
    """(a - E[a], SD[a]) under the permutation model, the difference exact for counts; None where SD is 0."""
    m, m_a, m_b, _, sd_a = c.margin_memo(_null)
    if sd_a <= 0:
        return None
    return Fraction(c.pair_counts.a * m - m_a * m_b, m), sd_a


def _sri(c) -> float:
    if c.is_soft:
        return math.nan
    parts = c.memo(_sri_parts)
    return math.nan if parts is None else float(parts[0]) / parts[1]


_SD_UNDEFINED = ("SD[a] = 0: every random table has the same pair counts (a side is one cluster or all singletons), "
                 "so a z-score is 0/0")


def _sri_steps(c, symbol: str = "SRI"):
    if c.is_soft:
        return [_convention(symbol, math.nan, "a real-valued table: the permutation model needs counts")]
    p = c.pair_counts
    m, m_a, m_b, _, sd_a = c.margin_memo(_null)
    steps = _pair_count_steps(c) + [
        Step("E", "(a + b)(a + c) / M", f"{shown(m_a)} × {shown(m_b)} / {shown(m)}", Fraction(m_a * m_b, m),
             "the expected a when objects are assigned at random with these cluster sizes"),
        Step("SD", "√Var[a]", "", sd_a, "the standard deviation of a over those random assignments, exactly "
                                        "(from the chances that one pair, two pairs sharing an object and two "
                                        "disjoint pairs are together)")]
    if c.memo(_sri_parts) is None:
        return steps + [_convention(symbol, math.nan, _SD_UNDEFINED)]
    return steps + [Step("SRI", "(a − E) / SD", f"({shown(p.a)} − {shown(steps[-2].value)}) / {shown(sd_a)}",
                         _sri(c), "equally (RI − E[RI]) / SD[RI]: the Rand index is a + d = 2a + M − m_a − m_b "
                                  "over M")]


def _sri_expectation(c):
    return None if c.memo(_sri_parts) is None else (0.0, 1.0)


def _sri_cells(c, dense):
    parts = c.memo(_sri_parts)
    if parts is None:
        return None
    pairs, m, _, _ = _dense_pairs(dense)
    expected = np.outer(dense.rows * (dense.rows - 1) / 2, dense.cols * (dense.cols - 1) / 2) / m
    return Anatomy((pairs - expected) / parts[1], 0.0, "(C(n_ij, 2) − its expectation) / SD[a]")


def _pmi2(c) -> float:
    return float(ndtr(_sri(c)))


def _pmi2_steps(c):
    steps = _sri_steps(c, "PMI₂")
    if math.isnan(steps[-1].value):
        return steps
    return steps + [Step("PMI₂", "Φ(SRI)", f"Φ({shown(steps[-1].value)})", _pmi2(c),
                         "the standard normal law's share below SRI: the chance that a random assignment with these "
                         "cluster sizes puts fewer pairs together in both, in the normal approximation")]


# ---------------------------------------------------------------------- Fowlkes-Mallows
def _fowlkes_mallows(c) -> float:
    p = c.pair_counts
    if _degenerate(c, p.a + p.b, p.total) or _degenerate(c, p.a + p.c, p.total):
        return math.nan
    product = (p.a + p.b) * (p.a + p.c)
    if isinstance(product, int):
        root = math.isqrt(product)
        if root * root == product:  # exact, so identical partitions give exactly 1
            return p.a / root
    return p.a / math.sqrt(product)


def _fm_steps(c):
    p = c.pair_counts
    steps = _margins_steps(c)
    if _degenerate(c, p.a + p.b, p.total) or _degenerate(c, p.a + p.c, p.total):
        return steps + [_convention("FM", math.nan, "m_a or m_b is 0 (a side of singletons only): undefined")]
    return steps + [Step("FM", "a / √(m_a m_b)", f"{shown(p.a)} / √({shown(p.a + p.b)} × {shown(p.a + p.c)})",
                         _fowlkes_mallows(c))]


def _adjusted_fowlkes_mallows(c) -> float:
    p = c.pair_counts
    product, total = (p.a + p.b) * (p.a + p.c), p.total
    if math.isnan(_fowlkes_mallows(c)) or product >= total * total:
        return math.nan
    # (FM - E) / (1 - E) with FM = a / sqrt(P), E = sqrt(P) / M, rearranged so that the two
    # differences are exact (integers for crisp counts) even when E rounds to 1:
    # AFM = (a M - P) / (M^2 - P) * (M + sqrt(P)) / sqrt(P)
    if p.b == 0 and p.c == 0:
        return 1.0  # FM = 1 exactly
    root = math.sqrt(product)
    return min((p.a * total - product) / (total * total - product) * (total / root + 1), 1.0)


def _afm_steps(c):
    p = c.pair_counts
    steps = _fm_steps(c)
    fm = steps[-1].value
    if math.isnan(fm):
        return steps[:-1] + [_convention("AFM", math.nan, steps[-1].note)]
    product = (p.a + p.b) * (p.a + p.c)
    e = math.sqrt(product) / p.total
    steps.append(Step("E", "√(m_a m_b) / M", f"√({shown(p.a + p.b)} × {shown(p.a + p.c)}) / {shown(p.total)}", e))
    if product >= p.total * p.total:
        return steps + [_convention("AFM", math.nan, "E = 1 (both partitions one cluster): undefined")]
    return steps + [Step("AFM", "(FM − E) / (1 − E)", f"({shown(fm)} − {shown(e)}) / (1 − {shown(e)})",
                         _adjusted_fowlkes_mallows(c), "computed as (a M − m_a m_b) / (M² − m_a m_b) × "
                         "(M + √(m_a m_b)) / √(m_a m_b), which keeps both differences exact")]


# ---------------------------------------------------------------------- modified adjusted Rand index
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
        starts = np.flatnonzero(np.concatenate(([True], r[1:] != r[:-1])))
        s = np.add.reduceat(v * c.col_sizes[col], starts)
        sizes = c.row_sizes[r[starts]]
        high, low = np.divmod(s, 2**31)
        return (int(np.sum(sizes * high)) << 31) + int(np.sum(sizes * low))
    return sum(int(x) * int(y) * int(z) for x, y, z in zip(v.tolist(), c.row_sizes[r].tolist(),
                                                          c.col_sizes[col].tolist()))


def _mari_sums(c):
    """(sum n_ij r_i c_j, sum n_ij^2, sum r_i^2, sum c_j^2): exact Python ints for counts."""
    n = c.n
    if not c.is_soft and n < 2**31:  # in 64 bits, in one compiled pass
        r, col, v = c.cells
        high, low, *squares = _mari_sums_64(r, col, v.astype(np.int64, copy=False),
                                            c.row_sizes.astype(np.int64, copy=False),
                                            c.col_sizes.astype(np.int64, copy=False))
        return ((int(high) << 31) + int(low), *map(int, squares))
    return (_row_weighted_sum(c), _exact_square_sum(c.cells.values, n), _exact_square_sum(c.row_sizes, n),
            _exact_square_sum(c.col_sizes, n))


@compiled
def _mari_sums_64(rows, cols, values, row_sizes, col_sizes):
    """:func:`_mari_sums` of a table of fewer than 2^31 objects in 64-bit integers, none of which
    overflows: each row's s_i = sum_j n_ij c_j <= N^2 < 2^62 is split at 2^31 so that sum r_i s_i
    comes as its high and low parts (each sum below N 2^31 < 2^62); the squares' sums are below N^2."""
    s = np.zeros(len(row_sizes), dtype=np.int64)
    cells = 0
    for x in range(len(values)):
        s[rows[x]] += values[x] * col_sizes[cols[x]]
        cells += values[x] * values[x]
    high = low = sizes_a = sizes_b = 0
    for i in range(len(row_sizes)):
        high += row_sizes[i] * (s[i] >> 31)
        low += row_sizes[i] * (s[i] & ((1 << 31) - 1))
        sizes_a += row_sizes[i] * row_sizes[i]
    for j in range(len(col_sizes)):
        sizes_b += col_sizes[j] * col_sizes[j]
    return high, low, cells, sizes_a, sizes_b


@left_out_update(_mari_sums)
def _mari_sums_left_out(sums, c, i: int, j: int):
    """One object of cell (i, j) left out: n_ij, r_i and c_j each lose one. Of sum n r c only the
    terms of row i and column j change: row i's from r_i A to (r_i - 1) A' with A = sum_l n_il c_l
    and A' the same after the change, and column j's others (B = sum over k != i of n_kj r_k)
    from c_j B to (c_j - 1) B."""
    weighted, cells, rows, cols = sums
    x, r, k = int(c.table[i, j]), int(c.row_sizes[i]), int(c.col_sizes[j])
    along_row, down_col = _exact_dot(c.table[i, :], c.col_sizes, c.n), _exact_dot(c.table[:, j], c.row_sizes, c.n)
    after = along_row - x * k + (x - 1) * (k - 1)
    weighted += (r - 1) * after - r * along_row - (down_col - x * r)
    return weighted, cells - x * x + (x - 1) ** 2, rows - r * r + (r - 1) ** 2, cols - k * k + (k - 1) ** 2


def _exact_dot(counts: np.ndarray, sizes: np.ndarray, n) -> int:
    """sum counts * sizes of one line of a table of counts, in Python integers (each term and the sum <= N^2)."""
    if n < 3_000_000_000:
        return int(np.dot(counts.astype(np.int64), sizes.astype(np.int64)))
    return sum(int(a) * int(b) for a, b in zip(counts.tolist(), sizes.tolist()))


def _mari_parts(c):
    """(a, m_a, m_b, M, T, 6 C(N, 4)): MARI's expectation is M (m_a m_b - a - T) / (6 C(N, 4))."""
    p = c.pair_counts
    n = c.n
    weighted, cells, rows, cols = c.memo(_mari_sums)
    t = 2 * n + weighted - cells - rows - cols
    quadruples = 6 * (n * (n - 1) * (n - 2) * (n - 3) // 24 if not c.is_soft else n * (n - 1) * (n - 2) * (n - 3) / 24)
    return p.a, p.a + p.b, p.a + p.c, p.total, t, quadruples


def _modified_adjusted_rand(c) -> float:
    """MARI: (a - E) / ((m_a + m_b)/2 - E) with E the expectation of a under the multinomial model.

    E = M (m_a m_b - a - (T1 + T2 + T3)) / (6 C(N, 4)), T1 = 2N, T2 = sum n_ij r_i c_j,
    T3 = -sum n_ij^2 - sum r_i^2 - sum c_j^2 (Sundqvist et al. 2023, Lemma 3.3). Exact for
    counts; 1 when E equals the maximum and a > 0; NaN for fewer than 4 objects.
    """
    if c.n < 4:
        return math.nan
    a, m_a, m_b, m, t, quadruples = _mari_parts(c)
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


def _mari_steps(c):
    steps = _margins_steps(c)
    if c.n < 4:
        return steps + [_convention("MARI", math.nan, "fewer than 4 objects: the multinomial expectation is undefined")]
    a, m_a, m_b, m, t, quadruples = _mari_parts(c)
    exact = not c.is_soft
    expected = Fraction(m * (m_a * m_b - a - t), quadruples) if exact else m * (m_a * m_b - a - t) / quadruples
    maximum = Fraction(m_a + m_b, 2) if exact else (m_a + m_b) / 2
    steps += [
        Step("T", "2N + Σ n_ij r_i c_j − Σ n_ij² − Σ r_i² − Σ c_j²", "", t),
        Step("Ê", "M (m_a m_b − a − T) / (6 C(N, 4))",
             f"{shown(m)} × ({shown(m_a)} × {shown(m_b)} − {shown(a)} − {shown(t)}) / {shown(quadruples)}", expected,
             "the expected a when the objects are drawn independently (cluster sizes random too)"),
        Step("max", "(m_a + m_b) / 2", f"({shown(m_a)} + {shown(m_b)}) / 2", maximum),
    ]
    value = _modified_adjusted_rand(c)
    if expected == maximum:
        return steps + [_convention("MARI", value, "Ê equals the maximum: 1 when a > 0, else undefined")]
    return steps + [Step("MARI", "(a − Ê) / (max − Ê)",
                         f"({shown(a)} − {shown(expected)}) / ({shown(maximum)} − {shown(expected)})", value)]


# ---------------------------------------------------------------------- pair correlation and its distance
def _pair_correlation(c) -> float:
    """Pearson correlation of the pair indicators: (M a - m_a m_b) / sqrt(m_a m_b (M - m_a)(M - m_b)).

    NaN when a factor is 0 (one side all singletons or one cluster).
    """
    p = c.pair_counts
    m_a, m_b, m = p.a + p.b, p.a + p.c, p.total
    if min(m_a, m_b, m - m_a, m - m_b) <= _tolerance(c, m):
        return math.nan
    numerator = m * p.a - m_a * m_b
    product = m_a * m_b * (m - m_a) * (m - m_b)
    if isinstance(product, int):
        root = math.isqrt(product)
        if root * root == product:
            return max(min(numerator / root, 1.0), -1.0)
    root = math.sqrt(m_a * m_b) * math.sqrt((m - m_a) * (m - m_b))
    return max(min(numerator / root, 1.0), -1.0)


def _correlation_steps(c):
    p = c.pair_counts
    m_a, m_b, m = p.a + p.b, p.a + p.c, p.total
    steps = _margins_steps(c)
    if min(m_a, m_b, m - m_a, m - m_b) <= _tolerance(c, m):
        return steps + [_convention("CC", math.nan, "m_a, m_b, M − m_a or M − m_b is 0 (a side of one cluster or "
                                                    "of singletons only): undefined")]
    return steps + [Step("CC", "(M a − m_a m_b) / √(m_a m_b (M − m_a)(M − m_b))",
                         f"({shown(m)} × {shown(p.a)} − {shown(m_a)} × {shown(m_b)}) / √({shown(m_a)} × {shown(m_b)} × "
                         f"{shown(m - m_a)} × {shown(m - m_b)})", _pair_correlation(c))]


def _correlation_distance(c) -> float:
    """arccos(pair_correlation) / pi: 0 for identical partitions, 1 for perfectly anti-correlated pairs."""
    value = _pair_correlation(c)
    return math.acos(value) / math.pi if not math.isnan(value) else math.nan


def _correlation_distance_steps(c):
    steps = _correlation_steps(c)
    cc = steps[-1].value
    if math.isnan(cc):
        return steps[:-1] + [_convention("CD", math.nan, steps[-1].note)]
    return steps + [Step("CD", "arccos(CC) / π", f"arccos({shown(cc)}) / π", _correlation_distance(c))]


# ---------------------------------------------------------------------- Jaccard and Sokal-Sneath
def _pair_jaccard(c) -> float:
    """a / (a + b + c): 1 when no pair is together on either side (both all singletons)."""
    p = c.pair_counts
    union = p.a + p.b + p.c
    if union <= _tolerance(c, p.total):
        return 1.0 if c.is_identical else math.nan
    return p.a / union


def _jaccard_steps(c):
    p = c.pair_counts
    steps = _pair_count_steps(c)[:3]
    if p.a + p.b + p.c <= _tolerance(c, p.total):
        value = _pair_jaccard(c)
        return steps + [_convention("J", value, "no pair is together on either side: 1 for identical partitions"
                                    if value == 1 else "a + b + c is 0 within rounding: undefined")]
    return steps + [Step("J", "a / (a + b + c)", f"{shown(p.a)} / ({shown(p.a)} + {shown(p.b)} + {shown(p.c)})",
                         _pair_jaccard(c))]


def sokal_sneath_in_a(m, m_a, m_b) -> tuple[float, float]:
    """(weight, constant) with Sokal-Sneath = weight * a + constant, given the margins' pair counts:
    b = m_a - a, c = m_b - a, d + b = M - m_b and d + c = M - m_a (chance and anatomy use it)."""
    weight = (1 / m_a + 1 / m_b + 1 / (m - m_b) + 1 / (m - m_a)) / 4
    constant = (m - m_a - m_b) * (1 / (m - m_b) + 1 / (m - m_a)) / 4
    return weight, constant


def _sokal_sneath(c) -> float:
    """(a/(a+b) + a/(a+c) + d/(d+b) + d/(d+c)) / 4: 1 for identical partitions, NaN when a
    denominator is 0 otherwise."""
    p = c.pair_counts
    denominators = (p.a + p.b, p.a + p.c, p.d + p.b, p.d + p.c)
    if c.is_identical:
        return 1.0
    if min(denominators) <= _tolerance(c, p.total):
        return math.nan
    return (p.a / denominators[0] + p.a / denominators[1] + p.d / denominators[2] + p.d / denominators[3]) / 4


def _sokal_sneath_steps(c):
    p = c.pair_counts
    steps = _pair_count_steps(c)
    if c.is_identical:
        return steps + [_convention("SS", 1.0, "identical partitions: 1 by convention")]
    denominators = (p.a + p.b, p.a + p.c, p.d + p.b, p.d + p.c)
    if min(denominators) <= _tolerance(c, p.total):
        return steps + [_convention("SS", math.nan, "a denominator is 0 (a side of one cluster or of singletons "
                                                    "only): undefined")]
    a, d = shown(p.a), shown(p.d)
    return steps + [Step("SS", "(a/(a + b) + a/(a + c) + d/(d + b) + d/(d + c)) / 4",
                         f"({a}/{shown(denominators[0])} + {a}/{shown(denominators[1])} + "
                         f"{d}/{shown(denominators[2])} + {d}/{shown(denominators[3])}) / 4", _sokal_sneath(c))]


# ---------------------------------------------------------------------- ratios of the pair counts
_LETTER = re.compile(r"\b[abcdM]\b")


@dataclass(frozen=True)
class PairRatio:
    """An index that is a ratio of whole-number polynomials of the pair counts: its value, its
    steps, and, when the ratio is linear in a once the margins are fixed, its exact expectation
    and standard deviation and its anatomy, all from one definition.

    ``parts(a, b, c, d) -> (numerator, denominator)`` in exact integers for counts; the value is
    numerator / denominator, or numerator / sqrt(denominator) with ``root``. ``text`` writes the
    formula in the letters a, b, c, d and M (the steps put the table's numbers in for them).
    Where the denominator is 0 (within a relative 1e-12 of M^degree on soft tables) the value is
    ``when_identical`` for identical partitions and NaN otherwise. Every numerator here is linear
    in a once the margins are fixed (b = m_a - a, c = m_b - a, d = M - m_a - m_b + a), which gives
    the anatomy; ``linear``: the denominator depends on the margins alone too, so the exact
    expectation and standard deviation follow from a's.
    """

    symbol: str
    text: str
    parts: Callable
    when_identical: float = 1.0
    root: bool = False
    linear: bool = False
    degree: int = 1

    def _value(self, c, p):
        numerator, denominator = self.parts(p.a, p.b, p.c, p.d)
        if _degenerate(c, abs(denominator), p.total ** self.degree):
            return None
        return numerator / (math.sqrt(denominator) if self.root else denominator)

    def value(self, c) -> float:
        found = self._value(c, c.pair_counts)
        if found is None:
            return self.when_identical if c.is_identical else math.nan
        return float(found)

    def steps(self, c) -> list[Step]:
        p = c.pair_counts
        letters = {"a": p.a, "b": p.b, "c": p.c, "d": p.d, "M": p.total}
        steps = _pair_count_steps(c)
        if self._value(c, p) is None:
            value = self.value(c)
            return steps + [_convention(self.symbol, value, "the denominator is 0: identical partitions score "
                                        f"{shown(value)}" if c.is_identical else "the denominator is 0: undefined")]
        numbers = _LETTER.sub(lambda m: shown(letters[m.group()]), self.text)
        return steps + [Step(self.symbol, self.text, numbers, self.value(c))]

    def _numerator_in_a(self, m, m_a, m_b):
        """(intercept, slope, denominator at a = 0): the numerator is intercept + slope a once the margins
        are fixed (b = m_a - a, c = m_b - a, d = M - m_a - m_b + a)."""
        n0, denominator = self.parts(0, m_a, m_b, m - m_a - m_b)
        n1, _ = self.parts(1, m_a - 1, m_b - 1, m - m_a - m_b + 1)
        return n0, n1 - n0, denominator

    def _in_a(self, m, m_a, m_b):
        """(intercept, slope, scale): the value is (intercept + slope a) / scale once the margins are fixed."""
        intercept, slope, denominator = self._numerator_in_a(m, m_a, m_b)
        if not denominator:
            return None
        return intercept, slope, (math.sqrt(denominator) if self.root else denominator)

    def expectation(self, c):
        """(E, SD) under the permutation model, from a's exact mean and standard deviation."""
        m, m_a, m_b, _, sd_a = c.margin_memo(_null)
        found = self._in_a(m, m_a, m_b)
        if found is None:
            return None
        intercept, slope, scale = found
        mean = (intercept + slope * Fraction(m_a * m_b, m))
        return float(mean / scale) if isinstance(scale, int) else float(mean) / scale, abs(slope) * sd_a / scale

    def cells(self, c, dense):
        """The numerator is linear in a once the margins are fixed (for every ratio here), so with
        this table's denominator each cell's C(n_ij, 2) carries its share; None where a convention
        sets the value (the denominator is 0)."""
        pairs, m, m_a, m_b = _dense_pairs(dense)
        p = c.pair_counts
        _, denominator = self.parts(p.a, p.b, p.c, p.d)
        if _degenerate(c, abs(denominator), p.total ** self.degree):
            return None
        intercept, slope, _ = self._numerator_in_a(m, m_a, m_b)
        scale = math.sqrt(denominator) if self.root else float(denominator)
        return Anatomy(pairs * (slope / scale), intercept / scale,
                       f"C(n_ij, 2) times {self.symbol}'s weight of a pair together in both; the constant is the "
                       "share of the pairs apart")


def _ratio_entry(ratio: PairRatio, **facts) -> IndexInfo:
    """The registry entry of an index defined by a :class:`PairRatio`."""
    derived = {"cells": ratio.cells, **({"expectation": ratio.expectation} if ratio.linear else {})}
    return IndexInfo(family=FAMILY, cost="pairs", compute=ratio.value, steps=ratio.steps, **{**derived, **facts})


def _mirkin_cells(c, dense):
    """2(b + c) = sum_ij n_ij (r_i - n_ij) + n_ij (c_j - n_ij): each object of a cell with each object it
    shares one cluster with but not the other."""
    t, rows, cols = dense.table, dense.rows, dense.cols
    return Anatomy(t * (rows[:, None] + cols[None, :] - 2 * t), 0.0,
                   "n_ij (r_i + c_j − 2 n_ij): the ordered pairs of the cell's objects with the objects they share "
                   "only one cluster with")



MIRKIN = PairRatio("Mirkin", "2 × (b + c)", lambda a, b, c, d: (2 * (b + c), 1), linear=True)
HUBERT = PairRatio("H", "(a + d − b − c) / M", lambda a, b, c, d: (a + d - b - c, a + b + c + d), linear=True)
RECALL = PairRatio("W_I", "a / (a + b)", lambda a, b, c, d: (a, a + b), linear=True)
PRECISION = PairRatio("W_II", "a / (a + c)", lambda a, b, c, d: (a, a + c), linear=True)
DICE = PairRatio("CD", "2 × a / (2 × a + b + c)", lambda a, b, c, d: (2 * a, 2 * a + b + c), linear=True)
KULCZYNSKI = PairRatio("K", "(a / (a + b) + a / (a + c)) / 2",
                       lambda a, b, c, d: (a * (2 * a + b + c), 2 * (a + b) * (a + c)), linear=True, degree=2)
RUSSEL_RAO = PairRatio("RR", "a / M", lambda a, b, c, d: (a, a + b + c + d), linear=True)
ROGERS_TANIMOTO = PairRatio("RT", "(a + d) / (a + d + 2 × (b + c))",
                            lambda a, b, c, d: (a + d, a + d + 2 * (b + c)))
SOKAL_SNEATH_2 = PairRatio("SS2", "(a + d) / (a + d + (b + c) / 2)",
                           lambda a, b, c, d: (2 * (a + d), 2 * (a + d) + b + c))
SOUTHWOOD = PairRatio("SW", "a / (b + c)", lambda a, b, c, d: (a, b + c), when_identical=math.inf)


# ---------------------------------------------------------------------- your own index of the pair counts
@dataclass(frozen=True)
class _OwnPairIndex:
    """A user's index f(a, b, c, d): its value and its steps."""

    symbol: str
    f: Callable

    def value(self, c) -> float:
        p = c.pair_counts
        try:
            value = self.f(p.a, p.b, p.c, p.d)
        except ZeroDivisionError:
            return math.nan
        return float(value)

    def steps(self, c) -> list[Step]:
        p = c.pair_counts
        numbers = f"f({shown(p.a)}, {shown(p.b)}, {shown(p.c)}, {shown(p.d)})"
        value = self.value(c)
        return _pair_count_steps(c) + [Step(self.symbol, "f(a, b, c, d)", numbers, value,
                                            "f divided by 0: undefined" if math.isnan(value) else "")]


def pair_index(index_id: str, f, *, name: str | None = None, higher_is_better: bool = True,
               range: tuple[float, float] = (-INF, INF), symmetric: bool = False, chance_adjusted: bool = False,
               formula: str = "", reference: str = "your own index", caveat: str = "") -> IndexInfo:
    """Your own index of the pair counts, added to the registry: from then on ``score``,
    ``scores``, ``steps``, ``chance`` (by random tables), ``uncertainty`` and ``compare_many``
    compute it like cluval's own.

    Parameters
    ----------
    index_id : str
        A new id, letters, digits and underscores (``remove_index`` takes it out again).
    f : callable
        ``f(a, b, c, d) -> number``: a, b, c, d are the pairs together in both partitions, only
        in the reference, only in the candidate and apart in both (exact Python integers for
        counts, floats on soft tables). A division by zero in f gives NaN.
    name, formula, reference, caveat : str
        How the index is shown (``name`` defaults to the id; ``formula`` in LaTeX).
    higher_is_better, range, symmetric, chance_adjusted
        Its facts, as for cluval's own indices: they drive rankings, displays and the p-value's
        direction. ``symmetric`` says that f(a, b, c, d) = f(a, c, b, d).

    Returns
    -------
    IndexInfo
        The registry entry, in the pair-counting family.

    >>> from cluval_core import compare, remove_index
    >>> info = pair_index("yule_q", lambda a, b, c, d: (a * d - b * c) / (a * d + b * c), name="Yule's Q",
    ...                   range=(-1, 1), symmetric=True)
    >>> c = compare([0, 0, 0, 1, 1, 1], [0, 0, 1, 1, 2, 2])  # a = 2, b = 4, c = 1, d = 8
    >>> c.score("yule_q") == (2 * 8 - 4 * 1) / (2 * 8 + 4 * 1)
    True
    >>> remove_index("yule_q")
    """
    if not callable(f):
        raise CluvalError(f"f must be a function f(a, b, c, d), got {f!r}")
    for flag, value in (("higher_is_better", higher_is_better), ("symmetric", symmetric),
                        ("chance_adjusted", chance_adjusted)):
        if not isinstance(value, bool):
            raise CluvalError(f"{flag} must be True or False, got {value!r}")
    if (not isinstance(range, tuple) or len(range) != 2 or not all(isinstance(v, (int, float)) for v in range)
            or not range[0] < range[1]):
        raise CluvalError(f"range must be a tuple (low, high) of numbers with low < high, got {range!r}")
    for label, text in (("name", name), ("formula", formula), ("reference", reference), ("caveat", caveat)):
        if text is not None and not isinstance(text, str):
            raise CluvalError(f"{label} must be text, got {text!r}")
    own = _OwnPairIndex(name or str(index_id), f)
    info = IndexInfo(
        id=index_id, name=name or str(index_id), family=FAMILY, cost="pairs", range=(float(range[0]), float(range[1])),
        higher_is_better=higher_is_better, chance_adjusted=chance_adjusted, symmetric=symmetric,
        function=pair_index_score, function_options={"index_id": index_id},
        formula=formula or r"f(a, b, c, d)", reference=reference,
        caveat=caveat or "Your own index: its facts are the ones you gave.", compute=own.value, steps=own.steps)
    add_index(info)
    return info


def pair_index_score(labels_true, labels_pred, *, index_id: str, noise=None) -> float:
    """The value of an index added with :func:`pair_index` (or of any registered index)."""
    return score_labels(index_id, labels_true, labels_pred, noise=noise)


# ---------------------------------------------------------------------- one-line functions
def rand_score(labels_true, labels_pred, *, noise=None) -> float:
    """Rand index (a + d) / C(N, 2); 1 for identical partitions.

    >>> rand_score([0, 0, 1, 1], [0, 0, 1, 2])
    0.8333333333333334
    """
    return score_labels("ri", labels_true, labels_pred, noise=noise)


def adjusted_rand_score(labels_true, labels_pred, *, noise=None) -> float:
    """Hubert-Arabie adjusted Rand index; 1 for identical, about 0 for random partitions.

    >>> adjusted_rand_score([0, 0, 1, 1], [1, 1, 0, 0])
    1.0
    """
    return score_labels("ari", labels_true, labels_pred, noise=noise)


def standardized_rand_score(labels_true, labels_pred, *, noise=None) -> float:
    """The standardized Rand index (Romano, Bailey, Nguyen & Verspoor 2014): how many standard
    deviations the pairs together in both lie above their expectation when the objects are
    assigned at random with both partitions' cluster sizes fixed, (a - E[a]) / SD[a], exactly (the
    same as (RI - E[RI]) / SD[RI]). NaN where every random table has the same pair counts.

    >>> round(standardized_rand_score([0, 0, 0, 1, 1, 1, 2, 2], [0, 0, 1, 1, 1, 2, 2, 2]), 4)
    1.1141
    """
    return score_labels("sri", labels_true, labels_pred, noise=noise)


def p_value_adjusted_rand_score(labels_true, labels_pred, *, noise=None) -> float:
    """PMI₂, the p-value adjusted Rand index of Klede, Altstidl, Zanca & Eskofier (2023), in their
    fast normal approximation: Φ(SRI), the chance that a random assignment with both partitions'
    cluster sizes fixed puts fewer pairs together in both, from the exact mean and SD. In [0, 1],
    about 0.5 by chance (not exactly: the law of the pair counts is skewed); with the margins
    fixed, increasing in the pairs together in both.

    >>> round(p_value_adjusted_rand_score([0, 0, 0, 1, 1, 1, 2, 2], [0, 0, 1, 1, 1, 2, 2, 2]), 4)
    0.8674
    """
    return score_labels("pmi2", labels_true, labels_pred, noise=noise)


def fowlkes_mallows_score(labels_true, labels_pred, *, noise=None) -> float:
    """Fowlkes-Mallows index a / sqrt((a + b)(a + c)); NaN if one side has only singletons."""
    return score_labels("fowlkes_mallows", labels_true, labels_pred, noise=noise)


def adjusted_fowlkes_mallows_score(labels_true, labels_pred, *, noise=None) -> float:
    """Adjusted Fowlkes-Mallows index (FM - E) / (1 - E)."""
    return score_labels("afm", labels_true, labels_pred, noise=noise)


def modified_adjusted_rand_score(labels_true, labels_pred, *, noise=None) -> float:
    """Modified adjusted Rand index under the multinomial model (Sundqvist et al. 2023)."""
    return score_labels("mari", labels_true, labels_pred, noise=noise)


def pair_correlation_coefficient(labels_true, labels_pred, *, noise=None) -> float:
    """Pearson correlation of the two partitions' 'together' indicators over all pairs (Gösgens et al. 2021)."""
    return score_labels("pair_correlation", labels_true, labels_pred, noise=noise)


def pair_correlation_distance(labels_true, labels_pred, *, noise=None) -> float:
    """arccos(pair correlation) / pi: a distance in [0, 1], 0 for identical partitions."""
    return score_labels("pair_correlation_distance", labels_true, labels_pred, noise=noise)


def pair_jaccard_score(labels_true, labels_pred, *, noise=None) -> float:
    """Jaccard index of the pairs put together, a / (a + b + c)."""
    return score_labels("pair_jaccard", labels_true, labels_pred, noise=noise)


def sokal_sneath_score(labels_true, labels_pred, *, noise=None) -> float:
    """Sokal-Sneath index: the mean of a/(a+b), a/(a+c), d/(d+b) and d/(d+c)."""
    return score_labels("sokal_sneath", labels_true, labels_pred, noise=noise)


def mirkin_metric(labels_true, labels_pred, *, noise=None) -> float:
    """Mirkin's metric 2 (b + c): the ordered pairs of objects the partitions disagree on, N (N - 1) (1 - RI).

    >>> mirkin_metric([0, 0, 0, 1, 1], [0, 0, 1, 1, 1])
    8.0
    """
    return score_labels("mirkin", labels_true, labels_pred, noise=noise)


def hubert_index(labels_true, labels_pred, *, noise=None) -> float:
    """Hubert's index (a + d - b - c) / M = 2 RI - 1: agreeing minus disagreeing pairs, as a share."""
    return score_labels("hubert", labels_true, labels_pred, noise=noise)


def pair_recall_score(labels_true, labels_pred, *, noise=None) -> float:
    """Wallace's index a / (a + b): the share of the reference's pairs that the candidate keeps together."""
    return score_labels("pair_recall", labels_true, labels_pred, noise=noise)


def pair_precision_score(labels_true, labels_pred, *, noise=None) -> float:
    """Wallace's index a / (a + c): the share of the candidate's pairs that the reference holds together."""
    return score_labels("pair_precision", labels_true, labels_pred, noise=noise)


def czekanowski_dice_score(labels_true, labels_pred, *, noise=None) -> float:
    """Czekanowski-Dice index 2a / (2a + b + c), the pairs' F1 score."""
    return score_labels("czekanowski_dice", labels_true, labels_pred, noise=noise)


def kulczynski_score(labels_true, labels_pred, *, noise=None) -> float:
    """Kulczynski index: the mean of the pairs' precision and recall."""
    return score_labels("kulczynski", labels_true, labels_pred, noise=noise)


def russel_rao_score(labels_true, labels_pred, *, noise=None) -> float:
    """Russel-Rao index a / M: the share of all pairs together in both partitions."""
    return score_labels("russel_rao", labels_true, labels_pred, noise=noise)


def rogers_tanimoto_score(labels_true, labels_pred, *, noise=None) -> float:
    """Rogers-Tanimoto index (a + d) / (a + d + 2 (b + c)): the Rand index with disagreements counted twice."""
    return score_labels("rogers_tanimoto", labels_true, labels_pred, noise=noise)


def sokal_sneath_2_score(labels_true, labels_pred, *, noise=None) -> float:
    """Sokal-Sneath's second index (a + d) / (a + d + (b + c) / 2): disagreements counted half."""
    return score_labels("sokal_sneath_2", labels_true, labels_pred, noise=noise)


def southwood_score(labels_true, labels_pred, *, noise=None) -> float:
    """Southwood index a / (b + c): pairs together in both per pair together in one only."""
    return score_labels("southwood", labels_true, labels_pred, noise=noise)


# ---------------------------------------------------------------------- the registry's entries
# The family's indices, in the order the registry lists them (cluval_core.indices registers them).
ENTRIES = (
    IndexInfo(
        id="ri", cost="pairs", name="Rand index", family=FAMILY, range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=True, function=rand_score,
        formula=r"\mathrm{RI} = \frac{a+d}{\binom{N}{2}}",
        reference="Rand (1971), Objective criteria for the evaluation of clustering methods, JASA 66",
        caveat="Not corrected for chance: random partitions with many clusters score close to 1, because "
               "almost every pair is 'apart in both'. Compare RI values only for equal K and N.",
        compute=_rand, steps=_rand_steps, expectation=_rand_expectation, model_expectation=_rand_under,
        cells=_rand_cells),
    IndexInfo(
        id="ari", cost="pairs", headline=True, name="Adjusted Rand index", family=FAMILY, range=(-1, 1),
        higher_is_better=True,
        chance_adjusted=True, symmetric=True, function=adjusted_rand_score,
        formula=r"\mathrm{ARI} = \frac{2(ad-bc)}{(a+b)(b+d)+(a+c)(c+d)}",
        symbols=r"Equivalently $(a - E) / (a_{\max} - E)$, with $E = (a+b)(a+c) / \binom{N}{2}$ the $a$ expected by "
                r"chance (both partitions' cluster sizes fixed) and $a_{\max} = ((a+b) + (a+c)) / 2$.",
        reference="Hubert & Arabie (1985), Comparing partitions, J. Classification 2",
        caveat="Counts pairs, so a cluster of n objects weighs like n^2: errors in small clusters barely move it "
               "(on imbalanced data a clustering that merges all small clusters can still score above 0.9).",
        compute=_adjusted_rand, steps=_ari_steps, expectation=_ari_expectation, cells=_ari_cells),
    IndexInfo(
        id="sri", name="Standardized Rand index", family=FAMILY, range=(-INF, INF), higher_is_better=True,
        chance_adjusted=True, symmetric=True, soft=False, function=standardized_rand_score,
        formula=r"\mathrm{SRI} = \frac{a - E[a]}{\sqrt{\mathrm{Var}[a]}}",
        symbols=r"$E[a] = (a+b)(a+c)/\binom{N}{2}$ and $\mathrm{Var}[a]$ are the mean and variance of the pairs "
                r"together in both when the objects are assigned at random with both partitions' cluster sizes fixed "
                r"(the permutation model), exactly; the same as $(\mathrm{RI} - E[\mathrm{RI}]) / "
                r"\mathrm{SD}[\mathrm{RI}]$.",
        reference="Romano, Bailey, Nguyen & Verspoor (2014), Standardized mutual information for clustering "
                  "comparisons: one step further in adjustment for chance, ICML",
        caveat="A z-score, not a similarity on a fixed scale: identical partitions score more on more objects, "
               "so compare values only on the same data. NaN where every random table has the same pair counts "
               "(a side is one cluster or all singletons).",
        compute=_sri, steps=_sri_steps, expectation=_sri_expectation, cells=_sri_cells),
    IndexInfo(
        id="pmi2", name="p-value adjusted Rand index (PMI₂)", family=FAMILY, range=(0, 1), higher_is_better=True,
        chance_adjusted=True, symmetric=True, soft=False, function=p_value_adjusted_rand_score,
        formula=r"\mathrm{PMI}_2 = \Phi(\mathrm{SRI})",
        symbols=r"$\Phi$ is the standard normal distribution function: PMI$_2$ approximates the chance "
                r"$P(a_{\text{random}} < a)$ that a random assignment with these cluster sizes puts fewer pairs "
                r"together in both, from the exact mean and standard deviation of $a$.",
        reference="Klede, Altstidl, Zanca & Eskofier (2023), p-value adjustment for monotonous, unbiased, and "
                  "fast clustering comparison, NeurIPS",
        caveat="A p-value's complement: it saturates at 1 as soon as the agreement is clearly beyond chance, so "
               "it ranks candidates that are all far from chance alike. The normal approximation is Klede et "
               "al.'s fast form; the exact p-value differs from it by up to a few hundredths on small tables.",
        compute=_pmi2, steps=_pmi2_steps),
    IndexInfo(
        id="fowlkes_mallows", cost="pairs", name="Fowlkes-Mallows index", family=FAMILY, range=(0, 1),
        higher_is_better=True, chance_adjusted=False, symmetric=True, function=fowlkes_mallows_score,
        formula=r"\mathrm{FM} = \frac{a}{\sqrt{(a+b)(a+c)}}",
        reference="Fowlkes & Mallows (1983), A method for comparing two hierarchical clusterings, JASA 78",
        caveat="Ignores pairs apart in both partitions; not corrected for chance and high whenever one large "
               "cluster dominates. Undefined (NaN) when one partition has only singletons.",
        compute=_fowlkes_mallows, steps=_fm_steps, expectation=_fm_expectation, cells=_fm_cells),
    IndexInfo(
        id="afm", cost="pairs", name="Adjusted Fowlkes-Mallows", family=FAMILY, range=(-INF, 1), higher_is_better=True,
        chance_adjusted=True, symmetric=True, function=adjusted_fowlkes_mallows_score,
        formula=r"\mathrm{AFM} = \frac{\mathrm{FM}-E}{1-E},\; E=\frac{\sqrt{(a+b)(a+c)}}{\binom{N}{2}}",
        reference="Fowlkes & Mallows (1983); Albatineh et al. (2006), J. Classification 23",
        caveat="A rough chance correction (E is not the exact expectation under the permutation model); "
               "undefined when both partitions are a single cluster.",
        compute=_adjusted_fowlkes_mallows, steps=_afm_steps, expectation=_afm_expectation, cells=_afm_cells),
    IndexInfo(
        id="mari", name="Modified adjusted Rand index", family=FAMILY, range=(-INF, 1), higher_is_better=True,
        chance_adjusted=True, symmetric=True, function=modified_adjusted_rand_score,
        formula=r"\mathrm{MARI} = \frac{a - \hat E}{\frac{(a+b)+(a+c)}{2} - \hat E},\; \hat E = "
                r"\binom{N}{2}\frac{(a+b)(a+c) - a - (T_1 + T_2 + T_3)}{6\binom{N}{4}}",
        symbols=r"$\hat E$ is the expectation of $a$ when the objects are drawn independently (the multinomial model) "
                r"instead of with fixed cluster sizes: $T_1 = 2N$, $T_2 = \sum_{ij} n_{ij} r_i c_j$, $T_3 = "
                r"-\sum_{ij} n_{ij}^2 - \sum_i r_i^2 - \sum_j c_j^2$. NaN below 4 objects.",
        reference="Sundqvist, Chiquet & Rigaill (2023), Adjusting the adjusted Rand index, Computational "
                  "Statistics 38",
        caveat="Corrects ARI's chance model (the cluster sizes are random too) and is then unbiased; close "
               "to ARI for large N, so it shares ARI's weighting of large clusters.",
        compute=_modified_adjusted_rand, steps=_mari_steps),
    IndexInfo(
        id="pair_correlation", cost="pairs", name="Pair-counting correlation", family=FAMILY, range=(-1, 1),
        higher_is_better=True, chance_adjusted=True, symmetric=True, function=pair_correlation_coefficient,
        formula=r"\mathrm{CC} = \frac{Ma - m_a m_b}{\sqrt{m_a m_b (M - m_a)(M - m_b)}}",
        symbols=r"$M = \binom{N}{2}$ pairs; $m_a = a + b$ and $m_b = a + c$ are the pairs together in the reference "
                r"and in the candidate: CC is the Pearson correlation of the two partitions' 'together' indicators "
                r"over all pairs.",
        reference=GOSGENS,
        caveat="Satisfies nearly every desirable property Gösgens et al. list (constant baseline 0, "
               "symmetric, monotone); undefined (NaN) when one side is one cluster or all singletons.",
        compute=_pair_correlation, steps=_correlation_steps, expectation=_correlation_expectation,
        cells=_correlation_cells),
    IndexInfo(
        id="pair_correlation_distance", cost="pairs", name="Pair-counting correlation distance", family=FAMILY,
        range=(0, 1), higher_is_better=False, chance_adjusted=False, symmetric=True,
        function=pair_correlation_distance,
        formula=r"\mathrm{CD} = \frac{\arccos \mathrm{CC}}{\pi}",
        symbols=r"CC is the pair-counting correlation; its $\arccos$ is the angle between the two partitions' centred "
                r"pair-indicator vectors.",
        reference=GOSGENS,
        caveat="A metric on partitions whose value by chance is a constant 0.5 (CC = 0), not 0; undefined where "
               "CC is.",
        compute=_correlation_distance, steps=_correlation_distance_steps),
    IndexInfo(
        id="pair_jaccard", cost="pairs", name="Jaccard index (pairs)", family=FAMILY, range=(0, 1),
        higher_is_better=True,
        chance_adjusted=False, symmetric=True, function=pair_jaccard_score,
        formula=r"J = \frac{a}{a+b+c}",
        symbols="The Jaccard similarity of the two sets of pairs put together; 1 when neither side puts any "
                "pair together (both all singletons).",
        reference="Jaccard (1912); Ben-Hur, Elisseeff & Guyon (2002), PSB",
        caveat="Ignores pairs apart in both; not corrected for chance and biased towards few large clusters.",
        compute=_pair_jaccard, steps=_jaccard_steps, cells=_jaccard_cells),
    IndexInfo(
        id="sokal_sneath", cost="pairs", name="Sokal-Sneath index", family=FAMILY, range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=True, function=sokal_sneath_score,
        formula=r"\mathrm{SS} = \frac{1}{4}\left(\frac{a}{a+b} + \frac{a}{a+c} + \frac{d}{d+b} + \frac{d}{d+c}\right)",
        symbols="The mean of the four conditional agreement rates of the pair counts.",
        reference="Sokal & Sneath (1963), Principles of numerical taxonomy; 'Sokal & Sneath 1' in " + GOSGENS,
        caveat="Weighs together and apart pairs alike, so it stays near 0.5 by chance rather than 0; NaN when a "
               "denominator is 0 (one side one cluster or all singletons) unless the partitions are identical.",
        compute=_sokal_sneath, steps=_sokal_sneath_steps, expectation=_sokal_sneath_expectation,
        cells=_sokal_sneath_cells),
    _ratio_entry(
        MIRKIN, id="mirkin", name="Mirkin metric", range=(0, INF), higher_is_better=False, chance_adjusted=False,
        symmetric=True, integer_valued=True, function=mirkin_metric, cells=_mirkin_cells,
        formula=r"\mathrm{Mirkin} = 2(b+c) = \sum_i r_i^2 + \sum_j c_j^2 - 2\sum_{ij} n_{ij}^2",
        symbols=r"The ordered pairs of objects on which the partitions disagree: $N(N-1)(1 - \mathrm{RI})$.",
        reference="Mirkin (1996), Mathematical classification and clustering, Kluwer; Meilă (2007), Comparing "
                  "clusterings: an information based distance, J. Multivariate Analysis 98",
        caveat="A count that grows with N squared: compare values only for the same N (Clustering.jl divides "
               "it by N(N - 1)). A metric on partitions, but like the Rand index not corrected for chance."),
    _ratio_entry(
        HUBERT, id="hubert", name="Hubert index", range=(-1, 1), higher_is_better=True, chance_adjusted=False,
        symmetric=True, function=hubert_index,
        formula=r"H = \frac{(a+d)-(b+c)}{\binom{N}{2}}",
        symbols=r"Pairs on which the partitions agree minus pairs on which they disagree, as a share of all "
                r"pairs: $2\,\mathrm{RI} - 1$.",
        reference="Hubert (1977), Nominal scale response agreement as a generalized correlation, British J. "
                  "Mathematical and Statistical Psychology 30",
        caveat="The Rand index rescaled, with its faults: random partitions with many clusters score close to "
               "1. Not clusterCrit's 'Hubert', which is the pair-counting correlation."),
    _ratio_entry(
        RECALL, id="pair_recall", name="Pair recall (Wallace)", range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=False, function=pair_recall_score,
        formula=r"W_I = \frac{a}{a+b}",
        symbols="The share of the pairs the reference holds together that the candidate keeps together: the "
                "recall of the pairs, the reference taken as the truth.",
        reference="Wallace (1983), Comment on 'A method for comparing two hierarchical clusterings', JASA 78",
        caveat="One-sided: merging everything into one cluster gives 1. Read it with pair precision (their "
               "geometric mean is Fowlkes-Mallows). NaN when the reference is all singletons."),
    _ratio_entry(
        PRECISION, id="pair_precision", name="Pair precision (Wallace)", range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=False, function=pair_precision_score,
        formula=r"W_{II} = \frac{a}{a+c}",
        symbols="The share of the pairs the candidate puts together that the reference holds together: the "
                "precision of the pairs, the reference taken as the truth.",
        reference="Wallace (1983), Comment on 'A method for comparing two hierarchical clusterings', JASA 78",
        caveat="One-sided: splitting everything into singletons gives NaN and any refinement of the reference "
               "gives 1. Read it with pair recall. NaN when the candidate is all singletons."),
    _ratio_entry(
        DICE, id="czekanowski_dice", name="Czekanowski-Dice index", range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=True, function=czekanowski_dice_score,
        formula=r"\mathrm{CD} = \frac{2a}{2a+b+c}",
        symbols="The harmonic mean of pair precision and recall: the pairs' F1 score (also called the Dice or "
                "Sørensen index, and clusim's fmeasure).",
        reference="Czekanowski (1932); Dice (1945), Measures of the amount of ecologic association between "
                  "species, Ecology 26",
        caveat="Ignores pairs apart in both; not corrected for chance and biased towards few large clusters. "
               "Not the F-measure of clusters (f_measure)."),
    _ratio_entry(
        KULCZYNSKI, id="kulczynski", name="Kulczynski index", range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=True, function=kulczynski_score,
        formula=r"K = \frac{1}{2}\left(\frac{a}{a+b} + \frac{a}{a+c}\right)",
        symbols="The arithmetic mean of pair recall and pair precision.",
        reference="Kulczynski (1927); Desgraupes (2013), Clustering indices, the clusterCrit package's vignette",
        caveat="Ignores pairs apart in both; one side's perfect score carries it to 0.5 whatever the other "
               "side does. NaN when a side is all singletons, unless both are."),
    _ratio_entry(
        RUSSEL_RAO, id="russel_rao", name="Russel-Rao index", range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=True, function=russel_rao_score,
        formula=r"\mathrm{RR} = \frac{a}{\binom{N}{2}}",
        symbols="The share of all pairs that both partitions put together.",
        reference="Russel & Rao (1940), On habitat and association of species of anopheline larvae in "
                  "south-eastern Madras, J. Malaria Institute of India 3",
        caveat="Not 1 for identical partitions: it is then the share of pairs that share a cluster, 1 only for one "
               "cluster on both sides. Depends on the cluster sizes more than on the agreement."),
    _ratio_entry(
        ROGERS_TANIMOTO, id="rogers_tanimoto", name="Rogers-Tanimoto index", range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=True, function=rogers_tanimoto_score,
        formula=r"\mathrm{RT} = \frac{a+d}{a+d+2(b+c)}",
        symbols="The Rand index with each disagreeing pair counted twice.",
        reference="Rogers & Tanimoto (1960), A computer program for classifying plants, Science 132",
        caveat="Like the Rand index dominated by pairs apart in both: close to 1 for random partitions with "
               "many clusters."),
    _ratio_entry(
        SOKAL_SNEATH_2, id="sokal_sneath_2", name="Sokal-Sneath index 2", range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=True, function=sokal_sneath_2_score,
        formula=r"\mathrm{SS2} = \frac{a+d}{a+d+\frac{1}{2}(b+c)}",
        symbols="The Rand index with each disagreeing pair counted half (clusterCrit's Sokal_Sneath2).",
        reference="Sokal & Sneath (1963), Principles of numerical taxonomy; Desgraupes (2013), the clusterCrit "
                  "package's vignette",
        caveat="Even closer to 1 than the Rand index for random partitions with many clusters. Not the "
               "Sokal-Sneath index (sokal_sneath), the mean of four agreement rates."),
    _ratio_entry(
        SOUTHWOOD, id="southwood", name="Southwood index", range=(0, INF), higher_is_better=True,
        chance_adjusted=False, symmetric=True, function=southwood_score,
        formula=r"\mathrm{SW} = \frac{a}{b+c}",
        symbols="Pairs together in both per pair together in one partition only; ∞ for identical partitions.",
        reference="Southwood (1978), Ecological methods; clusim's southwood_index (Gates & Ahn 2019)",
        caveat="Unbounded: identical partitions score ∞ (clusim gives 1.0 there) and near-identical ones huge "
               "values, so averages of it mislead."),
)
