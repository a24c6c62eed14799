"""Every index's computation in steps (Comparison.steps), from the registry: the last step is
exactly the index's value, on random tables and on the degenerate ones, and the steps stay short
whatever the table's size. The steps of particular indices are checked by hand in tests/indices/."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from cluval_core import INDICES, CluvalError, Comparison, Step, Steps, compare


def _same(x: float, y: float) -> bool:
    return x == y or (math.isnan(x) and math.isnan(y))


def _random_comparisons():
    """(name, comparison): random labels of several shapes, with coordinates."""
    rng = np.random.default_rng(20261125)
    out = []
    for k, (n, k_a, k_b, agreement) in enumerate([(40, 3, 3, 0.8), (60, 2, 5, 0.4), (25, 6, 2, 0.2),
                                                  (80, 4, 4, 1.0), (30, 5, 7, 0.0), (200, 8, 6, 0.6)]):
        a = rng.integers(0, k_a, n)
        b = np.where(rng.random(n) < agreement, a % k_b, rng.integers(0, k_b, n))
        X = rng.normal(size=(n, 2)) + a[:, None] * 3.0
        out.append((f"random {k}", compare(a, b, X=X)))
    return out


def _degenerate_comparisons():
    """(name, comparison): one cluster, all singletons, two objects, identical and opposite."""
    X6 = np.arange(12.0).reshape(6, 2)
    X2 = np.array([[0.0, 0.0], [1.0, 1.0]])
    ones, singles = [0] * 6, list(range(6))
    return [
        ("one cluster each", compare(ones, ones, X=X6)),
        ("one cluster vs two", compare(ones, [0, 0, 0, 1, 1, 1], X=X6)),
        ("two vs one cluster", compare([0, 0, 0, 1, 1, 1], ones, X=X6)),
        ("all singletons each", compare(singles, singles, X=X6)),
        ("singletons vs one cluster", compare(singles, ones, X=X6)),
        ("one cluster vs singletons", compare(ones, singles, X=X6)),
        ("N = 2 together", compare([0, 0], [0, 0], X=X2)),
        ("N = 2 apart", compare([0, 1], [0, 1], X=X2)),
        ("N = 2 crossed", compare([0, 1], [0, 0], X=X2)),
        ("identical", compare([0, 0, 1, 1, 2], [5, 5, 6, 6, 7], X=X6[:5])),
    ]


def _other_tables():
    """(name, comparison): tables given directly, soft, weighted and sparse ones."""
    rng = np.random.default_rng(7)
    U = rng.dirichlet([0.5] * 3, 30)
    V = rng.dirichlet([0.5] * 4, 30)
    a = rng.integers(0, 3000, 6000)
    return [
        ("table", Comparison.from_table([[5, 1, 0], [2, 7, 3]])),
        ("soft", Comparison.from_memberships(U, V)),
        ("weighted", compare([0, 0, 1, 1, 2], [0, 1, 1, 2, 2], sample_weight=[0.5, 2.0, 1.5, 1.0, 3.0])),
        ("balanced", compare([0] * 8 + [1] * 2, [0] * 7 + [1] * 3, sample_weight="balanced")),
        ("sparse", compare(a, np.where(rng.random(6000) < 0.5, a, rng.integers(0, 3000, 6000)))),
    ]


CASES = _random_comparisons() + _degenerate_comparisons() + _other_tables()


@pytest.mark.parametrize("index_id", list(INDICES))
def test_the_last_step_is_exactly_the_value(index_id):
    info = INDICES[index_id]
    checked = 0
    for name, c in CASES:
        if info.needs_data and not c.has_data:
            continue
        steps = c.steps(index_id)
        value = c.score(index_id)
        assert isinstance(steps, Steps) and steps.index_id == index_id and len(steps) >= 1
        assert _same(steps.value, value), (name, steps.value, value, str(steps))
        assert all(isinstance(step, Step) and step.symbol for step in steps), name
        if math.isnan(value):  # an undefined value says why
            assert steps[-1].note, (name, str(steps))
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize("index_id", [i for i, info in INDICES.items() if not info.needs_data])
def test_steps_of_a_table_of_thousands_of_clusters_stay_short(index_id):
    _, c = CASES[-1]  # 3 000 clusters a side, kept sparse
    assert c.is_sparse
    steps = c.steps(index_id)
    assert _same(steps.value, c.score(index_id))
    assert all(len(str(step)) < 600 for step in steps), max(str(step) for step in steps)


def test_an_index_that_needs_counts_says_so_on_a_soft_table():
    _, soft = next(case for case in CASES if case[0] == "soft")
    steps = soft.steps("ami")
    assert len(steps) == 1 and math.isnan(steps.value) and "needs counts" in steps[0].note


def test_steps_read_as_text_and_as_a_table():
    c = compare([0, 0, 1, 1], [0, 0, 1, 2])
    steps = c.steps("ri")
    assert str(steps).splitlines()[-1] == "RI = (a + d) / M = (1 + 4) / 6 = 0.8333"
    frame = steps.to_frame()
    assert isinstance(frame, pd.DataFrame) and list(frame.columns) == ["symbol", "formula", "numbers", "value", "note"]
    assert frame["symbol"].tolist() == ["a", "b", "c", "M", "d", "RI"] and frame["value"].iloc[-1] == steps.value
    assert steps["a"] == 1 and steps["d"] == 4
    with pytest.raises(KeyError, match="no step computes 'E'; the steps compute a, b, c, M, d, RI"):
        steps["E"]
    assert repr(steps) == "<Steps of ri: 6 steps, value 0.8333>"


def test_steps_of_an_unknown_index_or_without_x_are_refused():
    c = compare([0, 0, 1, 1], [0, 0, 1, 2])
    with pytest.raises(CluvalError, match="unknown index id 'nope'"):
        c.steps("nope")
    with pytest.raises(CluvalError, match="needs the data X"):
        c.steps("ci_centroid")
