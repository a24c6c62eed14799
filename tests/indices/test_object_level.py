"""The object-level family (BCubed precision, recall and F, element-centric similarity):
values by hand, the computation in steps, and agreement with the bcubed package and clusim."""

from __future__ import annotations

from fractions import Fraction

import bcubed
import numpy as np
import pytest
from clusim import sim as clusim_sim
from clusim.clustering import Clustering

import cluval_core
from cluval_core import CluvalError, Comparison, compare
from family_cases import CASES, HAND_A, HAND_B, steps_by_symbol

# HAND_A against HAND_B: rows r = (2, 2, 3, 1), columns c = (2, 3, 3), cells 2 (0,0), 2 (1,1),
# 1 (2,1), 2 (2,2), 1 (3,2); N = 8.
BY_HAND = {
    # (1/8)(4/2 + 4/3 + 1/3 + 4/3 + 1/3) = 2/3
    "bcubed_precision": Fraction(2, 3),
    # (1/8)(4/2 + 4/2 + 1/3 + 4/3 + 1/1) = 5/6
    "bcubed_recall": Fraction(5, 6),
    "bcubed_f": 2 * Fraction(2, 3) * Fraction(5, 6) / (Fraction(2, 3) + Fraction(5, 6)),
    # n^2 / max(r, c): 4/2 + 4/3 + 1/3 + 4/3 + 1/3 = 16/3, over 8
    "ecs": Fraction(2, 3),
}


@pytest.mark.parametrize("index_id", sorted(BY_HAND))
def test_values_by_hand(index_id):
    assert compare(HAND_A, HAND_B).score(index_id) == pytest.approx(float(BY_HAND[index_id]), rel=1e-15)


def test_bcubed_in_steps_by_hand():
    steps = steps_by_symbol(compare(HAND_A, HAND_B), "bcubed_f")
    assert steps == {"P": pytest.approx(2 / 3, rel=1e-15), "R": pytest.approx(5 / 6, rel=1e-15),
                     "F": pytest.approx(20 / 27, rel=1e-15)}
    assert steps["F"] == compare(HAND_A, HAND_B).score("bcubed_f")


def test_element_scores_by_hand_and_their_mean_is_ecs():
    scores = cluval_core.element_centric_scores(HAND_A, HAND_B)
    # objects of cell (0,0): 2/2; (1,1): 2/3; (2,1): 1/3; (2,2): 2/3; (3,2): 1/3
    assert scores.tolist() == pytest.approx([1, 1, 2 / 3, 2 / 3, 1 / 3, 2 / 3, 2 / 3, 1 / 3], rel=1e-15)
    assert scores.mean() == pytest.approx(compare(HAND_A, HAND_B).score("ecs"), rel=1e-15)
    with pytest.raises(CluvalError, match="labels"):
        Comparison.from_table([[2, 0], [1, 3]]).element_scores  # noqa: B018 (the property raises)


def test_the_ecs_definition_equals_its_simplified_form():
    """The definitions' per-cell bracket equals n_ij / max(r_i, c_j) for every cell."""
    rng = np.random.default_rng(4)
    for _ in range(20):
        a, b = rng.integers(0, 5, 200), rng.integers(0, 6, 200)
        c = compare(a, b)
        r, col, v = c.cells
        ri, cj = c.row_sizes[r], c.col_sizes[col]
        bracket = 1 - 0.5 * (v * np.abs(1 / ri - 1 / cj) + (ri - v) / ri + (cj - v) / cj)
        assert np.sum(v * bracket) / c.n == pytest.approx(c.score("ecs"), rel=1e-13)


def test_options_are_checked():
    with pytest.raises(CluvalError, match="measure"):
        cluval_core.bcubed_score([0, 0, 1, 1], [0, 1, 1, 1], measure="f1")


def _clusim(labels):
    return Clustering(elm2clu_dict={i: [int(x)] for i, x in enumerate(labels)})


def test_ecs_against_clusim_element_sim():
    for a, b in CASES:
        for alpha in (0.9, 0.5):  # flat partitions: the restart parameter changes nothing
            theirs = clusim_sim.element_sim(_clusim(a), _clusim(b), alpha=alpha)
            assert compare(a, b).score("ecs") == pytest.approx(theirs, rel=1e-10), len(a)


def test_bcubed_against_the_bcubed_package():
    for a, b in CASES:
        reference = {i: {int(x)} for i, x in enumerate(a)}
        candidate = {i: {int(x)} for i, x in enumerate(b)}
        c = compare(a, b)
        precision = bcubed.precision(candidate, reference)
        recall = bcubed.recall(candidate, reference)
        assert c.score("bcubed_precision") == pytest.approx(precision, rel=1e-12)
        assert c.score("bcubed_recall") == pytest.approx(recall, rel=1e-12)
        assert c.score("bcubed_f") == pytest.approx(bcubed.fscore(precision, recall), rel=1e-12)


def test_the_sorted_cell_totals_of_many_cells_are_counted_by_count_and_size():
    """From 2**14 cells on, each kind's sorted cell totals (whose sum is the order-free sum) come
    from the distinct (count, size) pairs, counted: the same array, to the last bit, as sorting
    every cell's total, on independent and related labels, and on counts too large to count."""
    from cluval_core.indices import object_level

    rng = np.random.default_rng(8)
    tables = []
    for k, n in ((300, 200_000), (2000, 400_000)):
        a = rng.integers(0, k, n)
        tables.append(compare(a, rng.integers(0, k, n)).table)
        tables.append(compare(a, np.where(rng.random(n) < 0.5, a, rng.integers(0, k, n))).table)
    huge = rng.integers(1, 2**40, (150, 150))
    huge[0, 0] = 2**61
    tables.append(huge)
    for table in tables:
        c = Comparison.from_table(table)
        assert len(c.cells.values) >= object_level._MANY_CELLS
        for which, sorted_totals in object_level._SORTED.items():
            assert sorted_totals(c).tobytes() == np.sort(object_level._cell_totals(c, which)).tobytes(), which
