"""Soft partitions and tables: one-hot memberships give exactly the crisp values, N* = Uᵀ V, a
table gives the values of its labels, and soft and hardened tables name clusters alike."""

from __future__ import annotations

import math

import numpy as np
import pytest

from cluval_core import Comparison, compare
from family_cases import PAIRS, codes


def _one_hot(labels):
    coded = codes(labels)
    out = np.zeros((len(labels), coded.max() + 1))
    out[np.arange(len(labels)), coded] = 1.0
    return out


@pytest.mark.parametrize("case", range(len(PAIRS)))
def test_one_hot_memberships_give_exactly_the_crisp_values(case):
    a, b = PAIRS[case]
    crisp = compare(a, b).scores()
    soft = Comparison.from_memberships(_one_hot(a), _one_hot(b)).scores()
    assert soft == crisp


def test_soft_table_is_u_transpose_v():
    rng = np.random.default_rng(4)
    U = rng.dirichlet(np.ones(3), size=200)
    V = rng.dirichlet(np.ones(4), size=200)
    c = Comparison.from_memberships(U, V)
    assert c.is_soft
    np.testing.assert_allclose(c.table, U.T @ V)
    s = c.scores()
    assert math.isnan(s["ami"])
    assert 0 <= s["nmi_max"] <= 1 and 0 <= s["psi"] <= 1
    assert c.pair_counts.total == pytest.approx(200 * 199 / 2)


def test_from_table_equals_labels():
    # a table breaks ties in its own order, labels in the order clusters first occur: laid
    # out in that order, the table gives every value bit for bit
    for a, b in PAIRS:
        c = compare(a, b)
        rows, cols = c.tie_order
        assert Comparison.from_table(c.table[np.ix_(rows, cols)]).scores() == c.scores()


def test_soft_and_hardened_tables_name_clusters_alike():
    from cluval_core.experiments import soft_versus_crisp

    V = np.array([[0.9, 0.1], [0.6, 0.4], [0.2, 0.8], [0.0, 1.0]])
    soft, hard, _ = soft_versus_crisp(["x", "x", "y", "y"], V, ["psi"])
    assert soft.row_labels.tolist() == hard.row_labels.tolist() == ["x", "y"]
    assert soft.col_labels.tolist() == hard.col_labels.tolist() == [0, 1]
