"""The pair-counting family (RI, ARI, Fowlkes-Mallows, AFM, MARI, the pair correlation and its
distance, the pairs' Jaccard index, Sokal-Sneath): values by hand, the computation in steps,
special cases, and agreement with scikit-learn, genieclust, clusim and aricode's formula."""

from __future__ import annotations

import math
from fractions import Fraction

import genieclust.compare_partitions as gc
import numpy as np
import pytest
from clusim import sim as clusim_sim
from clusim.clustering import Clustering
from sklearn import metrics as skm

from cluval_core import Comparison, compare
from family_cases import CASES, HAND_A, HAND_B, PAIRS, codes, steps_by_symbol

# ---------------------------------------------------------------------- by hand

# HAND_A against HAND_B: a = 3, b = 2, c = 4, d = 19, M = 28 (family_cases.py).
BY_HAND = {
    "ri": Fraction(3 + 19, 28),
    "ari": (3 - Fraction(5 * 7, 28)) / (Fraction(5 + 7, 2) - Fraction(5 * 7, 28)),
    "pair_jaccard": Fraction(3, 9),
    "sokal_sneath": (Fraction(3, 5) + Fraction(3, 7) + Fraction(19, 21) + Fraction(19, 23)) / 4,
    # T1 = 16, T2 = 8 + 12 + 9 + 18 + 3 = 50, T3 = -(14 + 18 + 22); E = 28 (35 - 3 - 12) / (6 * 70) = 4/3
    "mari": (3 - Fraction(4, 3)) / (Fraction(12, 2) - Fraction(4, 3)),
}


@pytest.mark.parametrize("index_id", sorted(BY_HAND))
def test_values_by_hand(index_id):
    assert compare(HAND_A, HAND_B).score(index_id) == pytest.approx(float(BY_HAND[index_id]), rel=1e-15)


def test_rand_six_point_example():
    # Y = {(a,b,c), (d,e,f)}, Y' = {(a,b), (c,d,e), (f)}: 2 pairs together in both, 7 apart in
    # both, 6 mixed, so c(Y, Y') = 9/15 = 0.6 (Rand 1971, section 2).
    c = compare(list("YYYZZZ"), [1, 1, 2, 2, 2, 3])
    assert (c.pair_counts.a, c.pair_counts.d, c.pair_counts.b + c.pair_counts.c) == (2, 7, 6)
    assert c.score("ri") == 0.6


def test_pair_correlation_by_hand():
    c = compare(HAND_A, HAND_B)
    expected = (28 * 3 - 5 * 7) / math.sqrt(5 * 7 * 23 * 21)
    assert c.score("pair_correlation") == pytest.approx(expected, rel=1e-15)
    assert c.score("pair_correlation_distance") == pytest.approx(math.acos(expected) / math.pi, rel=1e-15)


def test_ari_in_steps_by_hand():
    steps = steps_by_symbol(compare(HAND_A, HAND_B), "ari")
    assert steps == {"a": 3, "b": 2, "c": 4, "M": 28, "d": 19, "E": Fraction(5, 4), "max": 6,
                     "ARI": pytest.approx(7 / 19, rel=1e-15)}
    assert steps["ARI"] == compare(HAND_A, HAND_B).score("ari")


def test_pair_counts_exact_for_a_hundred_million_objects():
    n = 10**8
    table = np.array([[n // 2 - 1, 1], [3, n // 2 - 3]], dtype=np.int64)
    c = Comparison.from_table(table)
    a = sum(v * (v - 1) // 2 for v in table.ravel().tolist())
    rows = sum(v * (v - 1) // 2 for v in table.sum(1).tolist())
    cols = sum(v * (v - 1) // 2 for v in table.sum(0).tolist())
    assert c.pair_counts.a == a and c.pair_counts.b == rows - a and c.pair_counts.c == cols - a
    assert c.pair_counts.total == n * (n - 1) // 2
    assert isinstance(c.pair_counts.a, int)
    assert 0.999 < c.score("ari") < 1.0


def test_mari_is_exact_at_large_n():
    """Counts kept in integers: N = 3e9 objects in a 2 x 2 table, against exact fractions."""
    table = np.array([[1_000_000_007, 500_000_000], [499_999_999, 1_000_000_001]], dtype=np.int64)
    c = Comparison.from_table(table)
    n = int(table.sum())
    cells = [int(x) for x in table.ravel()]
    rows, cols = [int(x) for x in table.sum(1)], [int(x) for x in table.sum(0)]
    pairs = lambda xs: sum(x * (x - 1) // 2 for x in xs)  # noqa: E731 (a one-line helper, named for reading)
    a, m_a, m_b, m = pairs(cells), pairs(rows), pairs(cols), n * (n - 1) // 2
    t = 2 * n + sum(v * rows[i // 2] * cols[i % 2] for i, v in enumerate(cells)) - sum(v * v for v in cells) \
        - sum(x * x for x in rows) - sum(x * x for x in cols)
    expected = Fraction(m * (m_a * m_b - a - t), 6 * math.comb(n, 4))
    assert c.score("mari") == float((a - expected) / (Fraction(m_a + m_b, 2) - expected))


# ---------------------------------------------------------------------- special cases


def test_one_cluster_on_each_side():
    c = compare([1, 1, 1, 1], ["a", "a", "a", "a"])
    assert c.score("ari") == 1.0
    assert math.isnan(c.score("afm"))


def test_all_singletons_identical():
    assert compare([0, 1, 2, 3, 4], [9, 8, 7, 6, 5]).score("ari") == 1.0


def test_fowlkes_mallows_undefined_for_singletons():
    assert math.isnan(compare([0, 1, 2, 3], [0, 0, 1, 1]).score("fowlkes_mallows"))


def test_mari_needs_four_objects():
    assert math.isnan(compare([0, 0, 1], [0, 1, 1]).score("mari"))


def test_conventions_for_trivial_partitions():
    ones, singles = [0] * 6, list(range(6))
    assert compare(singles, singles).score("pair_jaccard") == 1.0  # no pair together on either side
    assert compare(singles, singles).score("sokal_sneath") == 1.0
    assert math.isnan(compare(singles, ones).score("sokal_sneath"))
    assert math.isnan(compare(ones, [0, 0, 0, 1, 1, 1]).score("pair_correlation"))
    assert math.isnan(compare(ones, [0, 0, 0, 1, 1, 1]).score("pair_correlation_distance"))


# ---------------------------------------------------------------------- peers

SKLEARN = {
    "ri": skm.rand_score,
    "ari": skm.adjusted_rand_score,
    "fowlkes_mallows": skm.fowlkes_mallows_score,
}


@pytest.mark.parametrize("index_id", list(SKLEARN))
@pytest.mark.parametrize("case", range(len(PAIRS)))
def test_agrees_with_scikit_learn(index_id, case):
    a, b = PAIRS[case]
    assert compare(a, b).score(index_id) == pytest.approx(SKLEARN[index_id](a, b), abs=1e-9)


@pytest.mark.parametrize("index_id, theirs", [("ari", gc.adjusted_rand_score), ("ri", gc.rand_score)])
@pytest.mark.parametrize("case", range(len(PAIRS)))
def test_agrees_with_genieclust(index_id, theirs, case):
    a, b = PAIRS[case]
    assert compare(a, b).score(index_id) == pytest.approx(theirs(codes(a), codes(b)), abs=1e-9)


def _clusim(labels):
    return Clustering(elm2clu_dict={i: [int(x)] for i, x in enumerate(labels)})


def test_pair_counting_measures_against_clusim():
    for a, b in CASES:
        c = compare(a, b)
        ca, cb = _clusim(a), _clusim(b)
        assert c.score("pair_jaccard") == pytest.approx(clusim_sim.jaccard_index(ca, cb), rel=1e-12)
        if math.isfinite(c.score("pair_correlation")):
            # clusim divides (ad - bc) by the product of the four margins, not by its square root
            p = c.pair_counts
            product = (p.a + p.b) * (p.a + p.c) * (p.d + p.b) * (p.d + p.c)
            theirs = clusim_sim.pearson_correlation(ca, cb)
            assert c.score("pair_correlation") == pytest.approx(theirs * math.sqrt(product), rel=1e-10)


def _aricode_mari(a, b):
    """aricode's MARI (R/aricode.R), line for line, in floats."""
    c = compare(a, b)
    r, col, nij = c.cells
    ni, nj = c.row_sizes.astype(float), c.col_sizes.astype(float)
    n = len(a)
    choose2 = lambda x: x * (x - 1) / 2  # noqa: E731 (as aricode names it)
    stot, srow, scol = choose2(nij.astype(float)).sum(), choose2(ni).sum(), choose2(nj).sum()
    t1 = 2 * n
    t2 = np.sum(nij * ni[r] * nj[col])
    t3 = -np.sum(nij.astype(float) ** 2) - np.sum(ni**2) - np.sum(nj**2)
    expected = (srow * scol - stot - (t1 + t2 + t3)) / (6 * math.comb(n, 4)) * math.comb(n, 2)
    maximum = (srow + scol) / 2
    if expected == maximum and stot != 0:
        return 1.0
    return (stot - expected) / (maximum - expected)


def test_mari_against_aricodes_formula():
    for a, b in CASES:
        assert compare(a, b).score("mari") == pytest.approx(_aricode_mari(a, b), rel=1e-10, abs=1e-12)
