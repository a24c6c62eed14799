"""Bad input gives one clear CluvalError naming the argument, never a wrong number."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from cluval_core import CluvalError, Comparison, Noise, compare, get_index


@pytest.mark.parametrize("a, b, message", [
    ([0, 1, 2], [0, 1], "differ in length: 3 != 2"),
    ([], [], "labels_true is empty"),
    ([[0, 1], [1, 0]], [0, 1], r"labels_true must be 1-D: shape is \(2, 2\)"),
    ([0, 1], np.zeros((2, 1)), r"labels_pred must be 1-D: shape is \(2, 1\)"),
    ([0.0, np.nan, 1.0], [0, 1, 1], "labels_true contains a missing or infinite label"),
    ([0, 1, 1], [0.0, np.inf, 1.0], "labels_pred contains a missing or infinite label"),
    ([0, None, 1], [0, 1, 1], r"labels_true contains a missing or infinite label \(None at position 1\)"),
    (["a", "b"], pd.Series([1.0, None]), "labels_pred contains a missing"),
    ("abc", "abc", "labels_true must be a 1-D sequence"),
    (5, [1], "labels_true must be a 1-D sequence"),
    ([[1], [2, 3]], [1, 2], r"labels_true contains an unhashable label \(\[1\] at position 0\)"),
    ([[1, 2], [3, 4]], [1, 2], "labels_true must be 1-D"),
    ([0], [0], "at least 2 objects"),
])
def test_bad_labels(a, b, message):
    with pytest.raises(CluvalError, match=message):
        compare(a, b)


def test_error_is_a_value_error():
    assert issubclass(CluvalError, ValueError)


@pytest.mark.parametrize("X, message", [
    (np.zeros((3, 2)), "X has 3 rows but the labels describe 4 objects"),
    (np.array([[0, 1], [np.nan, 1], [0, 0], [1, 1]]), r"X contains a non-finite value \(nan at row 1, column 0\)"),
    (np.array([[0, 1], [np.inf, 1], [0, 0], [1, 1]]), "non-finite"),
    ([["a", "b"]] * 4, "X must be numeric"),
    (np.zeros((4, 0)), "X has no features"),
    (np.zeros((4, 2, 2)), "X must be a 2-D array"),
])
def test_bad_data(X, message):
    with pytest.raises(CluvalError, match=message):
        compare([0, 0, 1, 1], [0, 1, 1, 1], X=X)


@pytest.mark.parametrize("table, message", [
    ([[1, -2], [3, 4]], r"negative entry \(-2 at \[0, 1\]\)"),
    ([[1.0, np.nan]], "non-finite entry"),
    ([[1.0, np.inf]], "non-finite entry"),
    ([1, 2, 3], "must be 2-D"),
    ([[0, 0], [0, 0]], "sums to zero"),
    (np.zeros((0, 3)), "empty"),
    ([["a"]], "must be numeric"),
])
def test_bad_tables(table, message):
    with pytest.raises(CluvalError, match=message):
        Comparison.from_table(table)


@pytest.mark.parametrize("U, message", [
    ([[0.5, 0.6], [1, 0]], r"U row 0 sums to 1.1"),
    ([[1.5, -0.5], [1, 0]], "negative membership"),
    ([[np.nan, 1], [1, 0]], "non-finite membership"),
    ([0.5, 0.5], "must be 2-D"),
])
def test_bad_memberships(U, message):
    with pytest.raises(CluvalError, match=message):
        Comparison.from_memberships(U, [[1, 0], [0, 1]])


def test_membership_tolerance_and_length():
    Comparison.from_memberships([[0.5, 0.5 + 5e-7], [1, 0]], [[1, 0], [0, 1]])
    with pytest.raises(CluvalError, match="differ in number of objects"):
        Comparison.from_memberships([[1, 0]] * 3, [[1, 0]] * 2)


def test_unknown_index_lists_valid_ids():
    with pytest.raises(ValueError, match="unknown index id 'rand'; the ids are ri, ari, "):
        get_index("rand")
    with pytest.raises(CluvalError, match="unknown index id 'bogus'; the ids are ri, ari, "):
        compare([0, 1], [0, 1]).scores(["psi", "bogus"])


def test_centroid_indices_need_x():
    with pytest.raises(CluvalError, match="index 'ci_centroid' needs the data X"):
        compare([0, 1], [0, 1]).score("ci_centroid")
    assert "cr" not in compare([0, 1], [0, 1]).scores()
    assert "cr" in compare([0, 1], [0, 1], X=[[0.0], [1.0]]).scores()


def test_comparison_is_immutable():
    c = compare([0, 0, 1], [0, 1, 1])
    with pytest.raises(AttributeError):
        c.table = None
    with pytest.raises(ValueError):
        c.table[0, 0] = 5
    with pytest.raises(ValueError):
        c.hungarian_pairing.overlap[0] = 5


def test_mixed_labels_keep_their_types():
    c = compare([1, "1", 1, "1"], [0, 0, 1, 1])
    assert c.k_true == 2
    assert c.row_labels.tolist() == [1, "1"]


def test_bool_and_huge_int_labels():
    assert compare([True, False, True], [1, 0, 1]).score("ari") == 1.0
    big = np.array([2**62, -2**62, 2**62], dtype=np.int64)
    assert compare(big, [1, 0, 1]).score("ari") == 1.0
    assert compare(np.array([2**64 - 1, 0, 2**64 - 1], dtype=np.uint64), [1, 0, 1]).score("ari") == 1.0


class TestNoise:
    truth = [0, 0, 1, 1, 1, 2, 2, 2]
    pred = [5, 5, 5, 6, 6, 7, 7, 0]

    def test_default_keeps_noise_as_a_cluster(self):
        assert compare(self.truth, self.pred).k_true == 3

    def test_drop_reference_noise(self):
        c = compare(self.truth, self.pred, noise=Noise(0, "drop_reference_noise"))
        assert c.n == 6 and c.row_labels.tolist() == [1, 2]
        assert c.score("ari") == compare(self.truth[2:], self.pred[2:]).score("ari")

    def test_singletons(self):
        c = compare(self.truth, self.pred, noise=(0, "singletons"))
        assert c.k_true == 4 and c.k_pred == 4
        assert c.row_labels.tolist()[-2:] == ["noise#0", "noise#1"]
        assert c.col_labels.tolist()[-1] == "noise#7"

    def test_singletons_with_x_keep_codes(self):
        X = np.arange(16, dtype=float).reshape(8, 2)
        c = compare(self.truth, self.pred, X=X, noise=(0, "singletons"))
        assert c.centroids[0].shape == (4, 2)

    def test_bad_policy(self):
        with pytest.raises(CluvalError, match="noise policy must be one of"):
            compare(self.truth, self.pred, noise=(0, "ignore"))
        with pytest.raises(CluvalError, match="noise must be None"):
            compare(self.truth, self.pred, noise="0")

    def test_all_noise(self):
        with pytest.raises(CluvalError, match="nothing is left"):
            compare([0, 0, 0], [1, 2, 3], noise=(0, "drop_reference_noise"))


def test_the_callers_arrays_stay_writable():
    table = np.array([[3, 1], [0, 4]])
    Comparison.from_table(table).scores()
    table[0, 0] = 2  # still the caller's, still writable
    labels = np.array([0, 0, 1, 1])
    compare(labels, labels).scores()
    labels[0] = 1
