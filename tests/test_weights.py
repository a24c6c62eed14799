"""Weighted comparisons: compare(..., sample_weight=w) and the class-balanced comparison."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from cluval_core import INDICES, CluvalError, compare

TABLE_IDS = [i for i, info in INDICES.items() if not info.needs_data]


def _labels(seed, n=120, k_a=4, k_b=5):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, k_a, n)
    b = np.where(rng.random(n) < 0.6, a % k_b, rng.integers(0, k_b, n))
    return a, b, rng


@pytest.mark.parametrize("seed", range(3))
def test_whole_number_weights_are_repeated_objects_for_every_index(seed):
    a, b, rng = _labels(seed)
    w = rng.integers(0, 4, len(a))
    weighted = compare(a, b, sample_weight=w)
    repeated = compare(np.repeat(a, w), np.repeat(b, w))
    assert weighted.table.dtype.kind == "i" and np.array_equal(weighted.table, repeated.table)
    for index_id in TABLE_IDS:  # the same table and tie order: the same values to the last bit
        x, y = weighted.score(index_id), repeated.score(index_id)
        assert x == y or (math.isnan(x) and math.isnan(y)), index_id


def test_whole_number_weights_have_the_repeated_objects_chance_and_jackknife():
    a, b, rng = _labels(7, n=60)
    w = rng.integers(1, 3, len(a))
    weighted = compare(a, b, sample_weight=w.astype(float))
    repeated = compare(np.repeat(a, w), np.repeat(b, w))
    ids = ["ari", "nmi_sum", "psi"]
    assert weighted.chance(ids, n_samples=50, seed=3).equals(repeated.chance(ids, n_samples=50, seed=3))
    pd.testing.assert_frame_equal(weighted.uncertainty(ids), repeated.uncertainty(ids), rtol=1e-12)


def test_real_weights_give_sums_of_weights_and_nan_where_counts_are_needed():
    a, b = [0, 0, 1, 1, 2], [0, 1, 1, 1, 2]
    c = compare(a, b, sample_weight=[0.5, 1.5, 1.0, 2.25, 3.0])
    assert c.is_weighted and c.is_soft
    assert c.table.tolist() == [[0.5, 1.5, 0.0], [0.0, 3.25, 0.0], [0.0, 0.0, 3.0]]
    for index_id in TABLE_IDS:
        if not INDICES[index_id].soft:
            assert math.isnan(c.score(index_id)), index_id
        else:
            lo, hi = INDICES[index_id].range
            value = c.score(index_id)
            assert math.isnan(value) or lo <= value <= hi, index_id
    # purity: column maxima 0.5, 3.25, 3.0 over the total weight 8.25
    assert c.score("purity") == pytest.approx((0.5 + 3.25 + 3.0) / 8.25, rel=1e-15)
    with pytest.raises(CluvalError, match="whole-number weights"):
        c.chance(["ari"])
    with pytest.raises(CluvalError, match="whole-number weights"):
        c.uncertainty(["ari"])


SCALE_FREE_FAMILIES = {"information", "set_matching", "object_level"}


def test_indices_of_proportions_do_not_depend_on_the_weights_scale():
    """Pair counts use n(n-1)/2 of the sums of weights, as on soft tables, so they depend on the scale
    (README); the indices of proportions do not."""
    a, b, rng = _labels(11)
    w = rng.random(len(a)) + 0.1
    one, other = compare(a, b, sample_weight=w), compare(a, b, sample_weight=w * 8.0)
    for index_id in TABLE_IDS:
        # counts of objects (the split-join projections) scale with the weights: they are in objects
        if INDICES[index_id].family in SCALE_FREE_FAMILIES and INDICES[index_id].soft and \
                not INDICES[index_id].integer_valued:
            assert one.score(index_id) == pytest.approx(other.score(index_id), rel=1e-12, abs=1e-14), index_id


def test_balanced_weights_weigh_each_reference_class_the_same():
    truth = [0, 0, 1, 1, 1, 1, 1, 1]
    found = [0, 1, 1, 1, 1, 1, 1, 1]
    c = compare(truth, found, sample_weight="balanced")
    # class 0 (2 objects) weighs 8 / (2 * 2) = 2 each, class 1 (6 objects) 8 / (2 * 6) = 2/3 each
    assert c.table.ravel().tolist() == pytest.approx([2.0, 2.0, 0.0, 4.0], rel=1e-15)
    assert c.row_sizes.tolist() == pytest.approx([4.0, 4.0], rel=1e-15)
    # inverse purity: row maxima 2 and 4 of 8, against 1 + 6 of 8 unweighted
    assert c.score("purity_inverse") == pytest.approx(0.75, rel=1e-15)
    assert compare(truth, found).score("purity_inverse") == 0.875
    # balanced is the explicit weights N / (K_a r_i)
    explicit = compare(truth, found, sample_weight=[2, 2] + [2 / 3] * 6)
    assert c.scores(TABLE_IDS) == pytest.approx(explicit.scores(TABLE_IDS), rel=1e-12, nan_ok=True)


def test_balanced_weights_follow_the_noise_policy():
    truth, found = [0, 0, 1, 1, 1, 2, 2, 2, 2, 2], [0, 0, 1, 1, 1, 1, 2, 2, 2, 2]
    c = compare(truth, found, noise=(0, "drop_reference_noise"), sample_weight="balanced")
    # classes 1 (3 objects) and 2 (5 objects) are left: 8 / (2 * 3) and 8 / (2 * 5)
    assert c.row_sizes.tolist() == pytest.approx([4.0, 4.0], rel=1e-15)


def test_objects_of_weight_zero_are_left_out():
    c = compare([0, 0, 1, 1, 2], [0, 1, 1, 1, 2], sample_weight=[1, 0, 1, 1, 0])
    assert c.table.tolist() == [[1, 0], [0, 2]]
    assert c.row_labels.tolist() == [0, 1] and c.col_labels.tolist() == [0, 1]


@pytest.mark.parametrize("weights, match", [
    ([1, 1, 1], "3 weights but the labels describe 4"), ([1, -1, 1, 1], "negative"), ([1, np.inf, 1, 1], "non-finite"),
    ([0, 0, 0, 0], "zero for every object"), ("heavy", "'balanced'"), ([[1, 1, 1, 1]], "1-D"),
    (["a", "b", "c", "d"], "numeric"), ([0.5, 0.5, 0, 0], "at least 2"), ([2.0**62] * 4, "more than cluval counts"),
])
def test_bad_weights_are_named(weights, match):
    with pytest.raises(CluvalError, match=match):
        compare([0, 0, 1, 1], [0, 1, 1, 1], sample_weight=weights)


def test_weights_with_coordinates_are_refused():
    with pytest.raises(CluvalError, match="sample_weight and X"):
        compare([0, 0, 1, 1], [0, 1, 1, 1], X=np.zeros((4, 2)), sample_weight=[1, 1, 1, 1])


def test_weights_keep_label_numbering_irrelevant():
    a, b, rng = _labels(5)
    w = rng.random(len(a))
    base = compare(a, b, sample_weight=w).scores(TABLE_IDS)
    relabelled = compare([f"class {x}" for x in (a * 7 + 3)], -b, sample_weight=w).scores(TABLE_IDS)
    for index_id in TABLE_IDS:
        x, y = base[index_id], relabelled[index_id]
        assert x == y or (math.isnan(x) and math.isnan(y)), index_id


def test_integer_weights_beyond_float_precision_stay_exact():
    big = 2**60 + 1  # not a float64: it would round to 2**60
    c = compare([0, 0, 1], [0, 1, 1], sample_weight=np.array([big, 1, 2], dtype=np.int64))
    assert c.table.dtype.kind == "i" and c.table.tolist() == [[big, 1], [0, 2]]
    assert c.n == big + 3
