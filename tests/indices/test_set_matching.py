"""The set-matching family (F-measures, purity and inverse purity, van Dongen, Criterion H
greedy and optimal, pair accuracy, NA, AAA, PSI and its simplified form): values by hand and
from the PSI paper, the computation in steps, special cases, and agreement with genieclust."""

from __future__ import annotations

import math
from fractions import Fraction

import genieclust.compare_partitions as gc
import numpy as np
import pytest

from cluval_core import Comparison, compare, pair_sets_index
from family_cases import HAND_A, HAND_B, PAIRS, codes, steps_by_symbol

# ---------------------------------------------------------------------- by hand

# HAND_A against HAND_B: rows [2,0,0], [0,2,0], [0,1,2], [0,0,1]; r = (2,2,3,1), c = (2,3,3), N = 8.
# F(i,j) = 2 n_ij / (r_i + c_j): the rows' best are 1, 4/5, 2/3, 1/2; the columns' 1, 4/5, 2/3.
# The optimal one-to-one pairing of cells takes 2 + 2 + 2 objects; of row recalls n_ij / r_i it
# takes rows 0, 1 and 3 (1 + 1 + 1 = 3 beats 1 + 1 + 2/3).
BY_HAND = {
    "purity": Fraction(2 + 2 + 2, 8),
    "purity_inverse": Fraction(2 + 2 + 2 + 1, 8),
    "nvd": 1 - Fraction(7 + 6, 2 * 8),
    "f_measure": (2 * 1 + 2 * Fraction(4, 5) + 3 * Fraction(2, 3) + 1 * Fraction(1, 2)) / 8,
    "f_measure_pred": (2 * 1 + 3 * Fraction(4, 5) + 3 * Fraction(2, 3)) / 8,
    "ch_greedy": 1 - Fraction(6, 8),
    "ch_optimal": 1 - Fraction(6, 8),
    "pa": Fraction(6, 8),
    "na": (Fraction(6, 8) - Fraction(1, 4)) / (1 - Fraction(1, 4)),
    "aaa": (Fraction(3, 4) - Fraction(1, 4)) / (1 - Fraction(1, 4)),
    # S = 2/2 + 2/3 + 2/3; E pairs sizes sorted (3,2,2,1) with (3,3,2): 9/8/3 + 6/8/3 + 4/8/2 = 7/8
    "psi": (Fraction(7, 3) - Fraction(7, 8)) / (4 - Fraction(7, 8)),
    "psi_simplified": (Fraction(7, 3) - 1) / (4 - 1),
}


@pytest.mark.parametrize("index_id", sorted(BY_HAND))
def test_values_by_hand(index_id):
    assert compare(HAND_A, HAND_B).score(index_id) == pytest.approx(float(BY_HAND[index_id]), rel=1e-15)


def test_psi_in_steps_by_hand():
    steps = steps_by_symbol(compare(HAND_A, HAND_B), "psi")
    assert steps == {"S": pytest.approx(7 / 3, rel=1e-15), "E": pytest.approx(7 / 8, rel=1e-15), "k": 4,
                     "PSI": pytest.approx(7 / 15, rel=1e-14)}
    assert steps["PSI"] == compare(HAND_A, HAND_B).score("psi")


def test_purity_and_criterion_h_in_steps_by_hand():
    c = compare(HAND_A, HAND_B)
    assert steps_by_symbol(c, "purity") == {"Σ max": 6, "Purity": 0.75}
    assert steps_by_symbol(c, "ch_optimal") == {"Σ n": 6, "CH*": 0.25}


GAGOLEWSKI_C = np.array([[12, 37, 1], [40, 0, 0], [0, 0, 30]])


def test_genieclust_notes_normalising_permutation():
    # The notes reorder the columns as (2, 1, 3): row 1 pairs with column 2, row 2 with column 1.
    c = Comparison.from_table(GAGOLEWSKI_C)
    assert c.row_normalised_pairing.cols.tolist() == [1, 0, 2]
    assert c.accuracy_pairing.cols.tolist() == [1, 0, 2]
    assert c.score("pa") == (37 + 40 + 30) / 120
    # AAA = ((37/50 + 40/40 + 30/30)/3 - 1/3) / (1 - 1/3) = 0.87
    assert c.score("aaa") == pytest.approx(0.87, abs=1e-15)
    assert c.score("na") == pytest.approx((107 / 120 - 1 / 3) / (2 / 3), abs=1e-15)


def test_greedy_pairing_can_miss_the_optimum():
    table = np.array([[10, 9], [9, 0]])
    c = Comparison.from_table(table)
    assert c.greedy_pairing.overlap.tolist() == [10, 0]
    assert c.score("ch_greedy") == pytest.approx(1 - 10 / 28)
    assert c.score("ch_optimal") == pytest.approx(1 - 18 / 28)


# ---------------------------------------------------------------------- the PSI paper


def _three_clusters(sizes):
    return np.repeat(np.arange(len(sizes)), sizes)


@pytest.mark.parametrize("third", [2000, 1000, 500, 50])
def test_psi_ignores_cluster_size_imbalance(third):
    # Section 7.4: 200 objects of each of the first two clusters are mislabelled; the third
    # cluster shrinks. S = 0.8 + 0.8 + 1 and, with equal size lists, E = 1: PSI = 1.6/2 = 0.8.
    g = _three_clusters([1000, 1000, third])
    p = g.copy()
    p[:200], p[1000:1200] = 1, 0
    c = compare(g, p)
    assert c.hungarian_pairing.total == pytest.approx(2.6, abs=1e-14)
    assert c.psi_expected == pytest.approx(1.0, abs=1e-14)
    assert c.score("psi") == pytest.approx(0.8, abs=1e-14)


@pytest.mark.parametrize("x", [0, 50, 200, 400, 600])
def test_psi_and_nvd_fall_linearly_with_error(x):
    # Section 7.3, Fig. 16: x objects of every cluster move, half to each other cluster, sizes
    # unchanged. S = 3 (1000 - x)/1000, E = 1, so PSI = (3 (1 - x/1000) - 1) / 2; NVD = CH = x/1000.
    g = _three_clusters([1000, 1000, 1000])
    p = g.copy()
    for k in range(3):
        start = 1000 * k
        p[start:start + x // 2] = (k + 1) % 3
        p[start + x // 2:start + x] = (k + 2) % 3
    c = compare(g, p)
    assert c.score("psi") == pytest.approx((3 * (1 - x / 1000) - 1) / 2, abs=1e-14)
    assert c.score("nvd") == pytest.approx(x / 1000, abs=1e-14)
    assert c.score("ch_greedy") == pytest.approx(x / 1000, abs=1e-14)
    assert c.score("purity") == pytest.approx(1 - x / 1000, abs=1e-14)


@pytest.mark.parametrize("first", [1500, 1700, 2000])
def test_nvd_constant_while_enlarging_first_cluster(first):
    # Section 7.3: between 1500 and 2000 objects, NVD's shared objects sum to 5000 of 6000.
    # The first cluster grows by taking the second cluster's objects (it is empty at 2000).
    g = _three_clusters([1000, 1000, 1000])
    p = g.copy()
    p[1000:first] = 0
    assert compare(g, p).score("nvd") == pytest.approx(1 - 5000 / 6000, abs=1e-14)


def test_psi_expected_pairs_largest_with_largest():
    # E = sum_i (r_(i) c_(i) / N) / max(r_(i), c_(i)) over sizes sorted descending.
    table = np.array([[30, 0, 0, 0], [0, 20, 5, 0], [0, 0, 5, 40]])
    c = Comparison.from_table(table)
    r, k, n = [45, 30, 25], [40, 30, 20], 100  # sizes sorted descending
    expected = sum(ri * ki / n / max(ri, ki) for ri, ki in zip(r, k))
    assert c.psi_expected == pytest.approx(expected, abs=1e-15)
    s = 30 / 30 + 20 / 25 + 40 / 45
    assert c.hungarian_pairing.total == pytest.approx(s, abs=1e-15)
    assert c.score("psi") == pytest.approx((s - expected) / (4 - expected), abs=1e-15)
    assert c.score("psi_simplified") == pytest.approx((s - 1) / 3, abs=1e-15)
    assert len(c.hungarian_pairing) == 3 and c.hungarian_pairing.unpaired_cols.tolist() == [2]


# ---------------------------------------------------------------------- special cases


def test_psi_special_cases():
    assert pair_sets_index([1, 1, 1], [2, 2, 2]) == 1.0  # K = K' = 1
    # S < E gives 0 (a pairing worse than chance), never a negative value
    c = Comparison.from_table([[5, 4, 5], [2, 0, 3], [5, 2, 5]])
    # rows 14, 5, 12; columns 12, 6, 13; N = 31
    assert c.hungarian_pairing.total == pytest.approx(4 / 14 + 3 / 13 + 5 / 12, abs=1e-15)
    assert c.psi_expected == pytest.approx((13 + 12 + 5) / 31, abs=1e-15)
    assert c.score("psi") == 0.0


def test_one_cluster_on_each_side():
    s = compare([1, 1, 1, 1], ["a", "a", "a", "a"]).scores()
    assert s["psi"] == 1.0 and s["na"] == 1.0 and s["aaa"] == 1.0


def test_aaa_is_undefined_for_a_one_cluster_reference():
    assert math.isnan(compare([5, 5, 5, 5], [0, 0, 1, 1]).score("aaa"))


def test_all_singletons_identical():
    assert compare([0, 1, 2, 3, 4], [9, 8, 7, 6, 5]).score("psi") == 1.0


def test_label_gaps_do_not_create_empty_clusters():
    # genieclust would build max-min+1 rows; only clusters that occur count here
    a = np.array([0, 0, 0, 10, 10, 10])
    b = np.array([1, 1, 2, 2, 3, 3])
    c = compare(a, b)
    assert c.table.shape == (2, 3)
    assert c.score("psi") == compare(a // 10, b).score("psi")


# ---------------------------------------------------------------------- peers

GENIECLUST = {
    "psi": lambda a, b: gc.pair_sets_index(a, b),
    "psi_simplified": lambda a, b: gc.pair_sets_index(a, b, simplified=True),
    "na": gc.normalized_pivoted_accuracy,
    "aaa": gc.normalized_clustering_accuracy,
}


@pytest.mark.parametrize("index_id", list(GENIECLUST))
@pytest.mark.parametrize("case", range(len(PAIRS)))
def test_agrees_with_genieclust_on_square_tables(index_id, case):
    a, b = PAIRS[case]
    c = compare(a, b)
    if c.k_true != c.k_pred:  # genieclust pads non-square tables: make this one square
        b = np.where(np.arange(len(a)) % 3 == 0, (a + 1) % c.k_true, a)
        c = compare(a, b)
    assert c.score(index_id) == pytest.approx(GENIECLUST[index_id](codes(a), codes(b)), abs=1e-9)


def test_psi_agrees_with_genieclust_on_nonsquare_tables():
    # docs/definitions.rst: E pairs the largest with the largest, as genieclust does
    rng = np.random.default_rng(2)
    for k_a, k_b in [(3, 5), (6, 2), (4, 9)]:
        a = rng.integers(0, k_a, 700)
        b = np.where(rng.random(700) < 0.4, rng.integers(0, k_b, 700), a % k_b)
        assert pair_sets_index(a, b) == pytest.approx(gc.pair_sets_index(codes(a), codes(b)), abs=1e-9)


def test_split_join_projections_by_hand_and_their_sum_is_twice_n_times_nvd():
    from cluval_core import CluvalError, split_join_distance

    c = compare(HAND_A, HAND_B)  # row maxima 2, 2, 2, 1; column maxima 2, 2, 2; N = 8
    assert (c.score("split_join_true"), c.score("split_join_pred")) == (1.0, 2.0)
    assert [step.symbol for step in c.steps("split_join_true")] == ["Σ max", "SJ_a"]
    for a, b in PAIRS:
        c = compare(a, b)
        assert c.score("split_join_true") + c.score("split_join_pred") == pytest.approx(2 * c.n * c.score("nvd"))
        assert split_join_distance(a, b, side="pred") == compare(b, a).score("split_join_true")
    assert compare(range(6), [0] * 6).score("split_join_true") == 0.0  # every singleton lies in the one cluster
    with pytest.raises(CluvalError, match="side"):
        split_join_distance([0, 1], [0, 1], side="both")
