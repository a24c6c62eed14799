"""The attainable range: each index's extremes over the tables with the observed cluster sizes,
checked against every table with those sizes, by hand, and on the classification it rests on."""

from __future__ import annotations

import math

import numpy as np
import pytest

from cluval_core import INDICES, CluvalError, Comparison, compare
from cluval_core.core import attainable as A

PLAIN = [i for i in INDICES if not INDICES[i].needs_data]
# margins small enough to enumerate, unequal sizes (no identical partitions) and equal ones
MARGINS = [((3, 3), (2, 4)), ((4, 3, 2), (5, 4)), ((3, 3, 2), (3, 3, 2)), ((5, 2, 2), (3, 3, 3)),
           ((2, 2, 2, 1), (4, 3)), ((6, 3), (3, 3, 3)), ((4, 4, 1), (2, 2, 2, 3)),
           ((2, 6, 2), (7, 3)), ((6, 2, 6), (4, 10)), ((10, 4), (3, 9, 2))]  # the last three: RMI is not monotone in MI


def _random_margins(count: int, seed: int):
    """Margin sets of at most 14 objects and 4 clusters a side, with at most 600 tables."""
    rng = np.random.default_rng(seed)
    found = []
    while len(found) < count:
        n = int(rng.integers(5, 15))
        rows = np.bincount(rng.integers(0, int(rng.integers(2, 5)), n))
        cols = np.bincount(rng.integers(0, int(rng.integers(2, 5)), n))
        rows, cols = tuple(int(v) for v in rows if v), tuple(int(v) for v in cols if v)
        if len(rows) > 1 and len(cols) > 1 and A._at_most(rows, cols, 600) <= 600:
            found.append((rows, cols))
    return found


RANDOM_MARGINS = _random_margins(12, 7)


def _every_table(rows, cols):
    tables = list(A.tables_with_margins(rows, cols))
    values = np.array([[s[i] for i in PLAIN] for s in (Comparison.from_table(t).scores(PLAIN) for t in tables)])
    return tables, values


def test_the_range_by_hand():
    # sizes 3, 3 against 2, 4: three tables; a = 4, 2, 4 of M = 15 pairs, m_a = 6, m_b = 7, E[a] = 2.8
    tables = [t.tolist() for t in A.tables_with_margins((3, 3), (2, 4))]
    assert tables == [[[0, 3], [2, 1]], [[1, 2], [1, 2]], [[2, 1], [0, 3]]]
    frame = compare([0, 0, 0, 1, 1, 1], [0, 0, 1, 1, 1, 1]).attainable(["ari", "ri"])
    assert frame.loc["ari", "low"] == pytest.approx((2 - 2.8) / (6.5 - 2.8))
    assert frame.loc["ari", "high"] == pytest.approx((4 - 2.8) / (6.5 - 2.8))
    assert frame.loc["ri", "low"] == pytest.approx(6 / 15) and frame.loc["ri", "high"] == pytest.approx(10 / 15)
    assert frame["low_exact"].all() and frame["high_exact"].all()


@pytest.mark.parametrize(("rows", "cols"), MARGINS)
def test_enumerated_ranges_are_every_tables_extremes(rows, cols):
    tables, values = _every_table(rows, cols)
    frame = A.attainable_range(Comparison.from_table(tables[0]), PLAIN)
    with np.errstate(invalid="ignore"):
        np.testing.assert_allclose(frame["low"], np.nanmin(values, axis=0), rtol=1e-12)
        np.testing.assert_allclose(frame["high"], np.nanmax(values, axis=0), rtol=1e-12)


@pytest.mark.parametrize(("rows", "cols"), MARGINS + RANDOM_MARGINS)
def test_the_ends_claimed_exact_without_enumeration_are_exact(rows, cols):
    """Enumeration switched off: every end called exact equals every table's extreme, and every other
    end is a value some table reaches (the true extreme lies at least as far)."""
    tables, values = _every_table(rows, cols)
    frame = A.attainable_range(Comparison.from_table(tables[0]), PLAIN, limit=0)
    with np.errstate(invalid="ignore"):
        low, high = np.nanmin(values, axis=0), np.nanmax(values, axis=0)
    for j, i in enumerate(PLAIN):
        row = frame.loc[i]
        if math.isnan(low[j]):
            continue
        reached = values[:, j]
        for end, exact, extreme in (("low", row["low_exact"], low[j]), ("high", row["high_exact"], high[j])):
            if exact:
                assert row[end] == pytest.approx(extreme, rel=1e-12, abs=1e-12), (i, end)
            else:
                assert np.isclose(reached, row[end], rtol=1e-12, atol=1e-12).any(), (i, end)  # some table reaches it
    worst = frame.loc["ari", "low_exact"] and frame.loc["nmi_sum", "low_exact"]
    assert worst  # the two families' worst ends are exact from the programmes


@pytest.mark.parametrize(("rows", "cols"), MARGINS)
def test_the_programmes_find_every_tables_minimum(rows, cols):
    tables = list(A.tables_with_margins(rows, cols))
    for cost in (A._square, A._n_log_n):
        best = min(cost(t).sum() for t in tables)
        found = A.least_concentrated(rows, cols, cost)
        assert found.sum(axis=1).tolist() == list(rows) and found.sum(axis=0).tolist() == list(cols)
        assert cost(found).sum() == pytest.approx(best, rel=1e-12)


@pytest.mark.parametrize(("rows", "cols"), MARGINS + RANDOM_MARGINS)
def test_the_monotone_families_are_monotone_in_a_and_in_mi(rows, cols):
    """What the exact worst ends rest on: with the margins fixed, every index of pair_monotone() is a
    function of a, every index of info_monotone() one of the mutual information, rising with it for a
    similarity and falling for a distance."""
    tables, values = _every_table(rows, cols)
    comparisons = [Comparison.from_table(t) for t in tables]
    a = np.array([c.pair_counts.a for c in comparisons], float)
    mi = np.array([c.scores(["mi"])["mi"] for c in comparisons])
    for family, key in ((A.pair_monotone(), a), (A.info_monotone(), mi)):
        order = np.argsort(key, kind="stable")
        for i in family:
            v = values[order, PLAIN.index(i)]
            finite = np.isfinite(v)  # Southwood is +inf on identical partitions, an undefined value NaN
            steps = np.diff(v[finite])
            same = np.isclose(np.diff(key[order][finite]), 0, atol=1e-12)
            assert np.allclose(steps[same], 0, atol=1e-9), i  # equal a (or MI), equal value
            direction = 1 if INDICES[i].higher_is_better else -1
            assert (direction * steps >= -1e-9).all(), i


def test_the_monotone_families_are_known_after_registration():
    assert "ari" in A.pair_monotone() and "mari" not in A.pair_monotone() and "psi" not in A.pair_monotone()
    assert {"ami", "vi", "nmi_joint", "homogeneity"} <= A.info_monotone()
    assert not {"rmi", "rmi_flat", "nrmi"} & A.info_monotone()


def test_the_reduced_mutual_information_is_not_monotone_in_mi():
    """Why RMI and its kin are left out: on sizes (2, 6, 2) and (7, 3) the table of largest joint entropy
    is not RMI's lowest."""
    tables = list(A.tables_with_margins((2, 6, 2), (7, 3)))
    rmi = [Comparison.from_table(t).score("rmi") for t in tables]
    widest = A.least_concentrated((2, 6, 2), (7, 3), A._n_log_n)
    assert min(rmi) < Comparison.from_table(widest).score("rmi") - 1e-3
    frame = Comparison.from_table(tables[0]).attainable(["rmi"])
    assert frame.loc["rmi", "low"] == pytest.approx(min(rmi))  # few tables: every one compared


def test_a_single_cluster_side_has_one_table_and_undefined_indices_say_so():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        frame = compare([0] * 5, [0, 1, 2, 3, 4]).attainable(["ari", "nmi_sum", "psi", "pair_correlation"])
    assert frame.loc["psi", "low_exact"] and frame.loc["psi", "low"] == frame.loc["psi", "high"]
    assert np.isnan(frame.loc["pair_correlation", "low"]) and not frame.loc["pair_correlation", "low_exact"]
    assert frame.loc["pair_correlation", "how"] == "undefined on every table with these sizes"
    one = A.attainable_range(compare([0, 0, 1, 1], [0, 0, 0, 0]), ["psi"], limit=0)
    assert one.loc["psi", "low_exact"] and one.loc["psi", "high_exact"]  # one table: no programme needed


def test_large_tables_use_the_programmes_and_say_which_end_is_exact():
    rng = np.random.default_rng(0)
    a = rng.integers(0, 8, 3000)
    b = np.where(rng.random(3000) < 0.7, a, rng.integers(0, 9, 3000))
    frame = compare(a, b).attainable()
    assert frame.loc["ari", "low_exact"] and frame.loc["nmi_sum", "low_exact"] and frame.loc["vi", "high_exact"]
    assert frame.loc["ari", "low"] < 0.01 and not frame.loc["psi", "low_exact"]
    assert math.isnan(frame.loc["ci_centroid", "low"]) and "coordinates" in frame.loc["ci_centroid", "how"]
    value = compare(a, b).scores()
    for i in PLAIN:  # the observed table lies within its own range, exact ends or not (it is one of the tables)
        if not math.isnan(value[i]):
            assert frame.loc[i, "low"] - 1e-9 <= value[i] <= frame.loc[i, "high"] + 1e-9, i


def test_identical_and_nested_sizes_reach_the_best_value():
    # equal sizes: identical partitions; 4 + 2 = 6 and 3 + 3: nested
    frame = compare([0] * 4 + [1] * 2 + [2] * 3, [0] * 2 + [1] * 3 + [2] * 4).attainable(["ari", "vi"])
    assert frame.loc["ari", "high"] == 1 and frame.loc["vi", "low"] == 0
    nested = A._nested((4, 2, 3, 3), (6, 6))
    assert nested is not None and (nested > 0).sum(axis=1).tolist() == [1, 1, 1, 1]
    assert A._nested((5, 4), (3, 3, 3)) is None


def test_the_work_is_bounded_by_the_tables_cells(monkeypatch):
    monkeypatch.setattr(A, "CELL_LIMIT", 8)
    with pytest.raises(CluvalError, match="at most 8 cells"):
        compare([0, 1, 2, 0, 1, 2], [0, 1, 2, 2, 1, 0]).attainable()
    monkeypatch.setattr(A, "UNIT_LIMIT", 1)  # no programme: the worst ends are values some table reaches
    c = compare([0, 0, 1, 1, 1, 1, 0], [0, 1, 1, 2, 2, 2, 0])
    frame = A.attainable_range(c, ["ari", "vi"], limit=0)
    assert not frame.loc["ari", "low_exact"] and not frame.loc["vi", "high_exact"]
    every = [Comparison.from_table(t).score("ari") for t in A.tables_with_margins(c.row_sizes, c.col_sizes)]
    assert min(every) <= frame.loc["ari", "low"] <= c.score("ari") <= frame.loc["ari", "high"] <= max(every)


def test_soft_tables_and_unbalanced_margins_are_refused():
    with pytest.raises(CluvalError, match="table of counts"):
        Comparison.from_table(np.array([[0.5, 0.5], [0.2, 0.8]])).attainable()
    with pytest.raises(CluvalError, match="differ"):
        list(A.tables_with_margins((2, 2), (3,)))


def test_the_sentence_beside_the_chance_band():
    from cluval_core.outputs.export import chance_sentence, reachable

    c = compare([0, 0, 0, 1, 1, 1], [0, 0, 1, 1, 1, 1])
    chance, reach = c.chance(["ari", "fowlkes_mallows"], n_samples=20, seed=0), c.attainable(["ari", "fowlkes_mallows"])
    assert chance_sentence("ari", c.score("ari"), chance, reach) == (
        "Adjusted Rand index is 0.3243; by chance 0 ± 0.26; for these sizes it can reach −0.2162 … 0.3243.")
    assert chance_sentence("fowlkes_mallows", 0.5, chance, reach).startswith("Fowlkes-Mallows index is 0.5;")
    assert reachable("psi", 0.0008, 1.0, False, True) == "≤ 0.0008 … 1"
    assert reachable("ari", float("nan"), 1.0) == "undefined"
