"""Hostile input for labels and tables: one test per rule of issue 8 ("Labels and tables") and
per reproduction it quotes, each value worked out by hand in the comments.

The rules: integer labels of every width are counted exactly; containers that are not label
vectors are refused; labels that cannot be sorted work; fractional float labels warn; noise
labels match exactly; option values are validated; ``from_table`` and ``Comparison(...)``
validate their table; soft tables stay in range; no value depends on label coding, ties
included (docs/definitions.rst, "Orientation": the cluster that occurs first in the input wins a tie);
centroid results do not depend on the scale of X.
"""

from __future__ import annotations

import itertools
import math
import warnings
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

import cluval_core
from cluval_core import (
    INDICES,
    CluvalError,
    Comparison,
    Noise,
    adjusted_rand_score,
    compare,
    criterion_h,
    f_measure,
    normalized_mutual_info_score,
    pair_sets_index,
    purity_score,
)


def _warning_class():
    """cluval's Warning subclass, imported late so that collection never depends on it."""
    from cluval_core import CluvalWarning

    assert issubclass(CluvalWarning, Warning)
    return CluvalWarning


def _same(x: float, y: float) -> bool:
    """Exactly equal, or both NaN."""
    return x == y or (math.isnan(x) and math.isnan(y))


def _in_range(index_id: str, value: float) -> bool:
    lo, hi = INDICES[index_id].range
    return isinstance(value, float) and (math.isnan(value) or lo - 1e-12 <= value <= hi + 1e-12)


# ============================================================== integer labels, exactly

@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32, np.uint64])
def test_unsigned_labels_of_every_width_are_counted_exactly(dtype):
    # [0,0,1,1] against itself is the table [[2,0],[0,2]]: ARI 1, whichever side is unsigned
    u = np.array([0, 0, 1, 1], dtype=dtype)
    assert adjusted_rand_score([0, 0, 1, 1], u) == 1.0
    assert adjusted_rand_score(u, [0, 0, 1, 1]) == 1.0
    # against signed labels (numpy promotes int64 with uint64 to float64)
    assert adjusted_rand_score(np.array([-7, -7, 3, 3]), u) == 1.0
    # the top of the dtype's range, next to its neighbour: still two clusters of two
    top = int(np.iinfo(dtype).max)
    high = np.array([top, top, top - 1, top - 1], dtype=dtype)
    c = compare(high, np.array([-1, -1, 2**40, 2**40]))
    assert c.score("ari") == 1.0
    assert sorted(c.row_labels.tolist()) == [top - 1, top]


HUGE_LABELS = {
    # two clusters whose labels differ by 1 where float64 cannot tell them apart
    "2**53 uint64": np.array([2**53, 2**53, 2**53 + 1, 2**53 + 1], dtype=np.uint64),
    "2**53 ints": [2**53, 2**53, 2**53 + 1, 2**53 + 1],
    "2**63 uint64": np.array([2**63, 2**63, 2**63 + 1, 2**63 + 1], dtype=np.uint64),
    "2**63 ints": [2**63, 2**63, 2**63 + 1, 2**63 + 1],
    "2**64-1 uint64": np.array([2**64 - 2, 2**64 - 2, 2**64 - 1, 2**64 - 1], dtype=np.uint64),
    "2**64 ints": [2**64, 2**64, 2**64 + 1, 2**64 + 1],
    "-2**63 ints": [-2**63, -2**63, -2**63 + 1, -2**63 + 1],
}


@pytest.mark.parametrize("name", list(HUGE_LABELS))
def test_huge_integer_labels_never_go_through_float64(name):
    labels = HUGE_LABELS[name]
    # the same partition as [0, 0, 1, 1]: ARI 1, and the two labels kept exactly
    assert adjusted_rand_score(labels, [0, 0, 1, 1]) == 1.0
    assert adjusted_rand_score([0, 0, 1, 1], labels) == 1.0
    c = compare(labels, [0, 0, 1, 1])
    assert sorted(c.row_labels.tolist()) == sorted({int(v) for v in labels})


def test_python_ints_beyond_int64_mixed_with_negative_ints():
    # np.asarray([2**63, -1]) is a float64 array, which merges 2**63 with 2**63 + 1: the three
    # clusters {0,1}, {2,3}, {4,5} must stay three, so ARI against [0,0,1,1,2,2] is 1
    labels = [2**63, 2**63, 2**63 + 1, 2**63 + 1, -1, -1]
    assert adjusted_rand_score(labels, [0, 0, 1, 1, 2, 2]) == 1.0
    assert compare([0, 0, 1, 1, 2, 2], labels).k_pred == 3


# ============================================================== containers

TWO_COLUMNS = pd.DataFrame({"x": [0, 0, 1, 1], "y": [1, 1, 0, 0]})
OTHER_TWO_COLUMNS = pd.DataFrame({"x": [5, 6, 7, 8], "y": [0, 1, 0, 1]})
NOT_LABEL_VECTORS = {
    "2-column DataFrame": TWO_COLUMNS,
    "dict": {0: 0, 1: 0, 2: 1, 3: 1},
    "set": {0, 1, 2, 3},
    "frozenset": frozenset({0, 1, 2, 3}),
}


@pytest.mark.parametrize("name", list(NOT_LABEL_VECTORS))
def test_containers_that_are_not_label_vectors_are_refused(name):
    bad = NOT_LABEL_VECTORS[name]
    with pytest.raises(CluvalError, match="labels_true"):
        compare(bad, [0, 0, 1, 1])
    with pytest.raises(CluvalError, match="labels_pred"):
        compare([0, 0, 1, 1], bad)


def test_two_dataframes_are_not_compared_by_their_column_names():
    # the reproduction: two 2-column frames with the same column names gave ARI 1.0
    with pytest.raises(CluvalError, match="labels_true"):
        adjusted_rand_score(TWO_COLUMNS, OTHER_TWO_COLUMNS)


def test_a_one_column_dataframe_is_read_as_its_column():
    truth = pd.DataFrame({"gt": ["a", "a", "b", "b", "c", "c"]}, index=[9, 8, 7, 6, 5, 4])
    pred = [0, 0, 0, 1, 1, 1]
    from_frame = compare(truth, pred)
    from_series = compare(truth["gt"], pred)
    # a = {0,1}, b = {2,3}, c = {4,5} against {0,1,2}, {3,4,5}, read by position
    assert from_frame.table.tolist() == [[2, 0], [1, 1], [0, 2]]
    assert from_frame.table.tolist() == from_series.table.tolist()
    assert from_frame.row_labels.tolist() == from_series.row_labels.tolist()
    assert from_frame.scores() == from_series.scores()
    # and as labels_pred
    assert compare(pred, truth).scores() == compare(pred, truth["gt"]).scores()


# ============================================================== labels that cannot be sorted

PRED = [0, 1, 1, 0, 2, 2]
UNSORTABLE = {
    # first-occurrence codes of each: [0, 0, 1, 1, 2, 2] or as noted
    "complex list": [1j, 1j, 2, 2, 1 + 1j, 1 + 1j],
    "complex array": np.array([1j, 1j, 2, 2, 1 + 1j, 1 + 1j]),
    "tuple, str, float, frozenset": [(1, 2), "x", 3.5, frozenset({1}), (1, 2), "x"],
    "int, str, tuple": [1, "a", (1, 2), 1, "a", (1, 2)],
    # frozensets sort by inclusion, a partial order: sorting them gives no consistent order
    "frozensets": [frozenset({1}), frozenset({2}), frozenset({1}), frozenset({1, 2}), frozenset({2}),
                   frozenset({1, 2})],
}
UNSORTABLE_CODES = {
    "complex list": [0, 0, 1, 1, 2, 2],
    "complex array": [0, 0, 1, 1, 2, 2],
    "tuple, str, float, frozenset": [0, 1, 2, 3, 0, 1],
    "int, str, tuple": [0, 1, 2, 0, 1, 2],
    "frozensets": [0, 1, 0, 2, 1, 2],
}


@pytest.mark.parametrize("name", list(UNSORTABLE))
def test_unsortable_hashable_labels_work_like_their_integer_codes(name):
    labels, codes = UNSORTABLE[name], UNSORTABLE_CODES[name]
    with warnings.catch_warnings():  # 3.5 may be said to look continuous: allowed, not required
        if hasattr(cluval_core, "CluvalWarning"):
            warnings.filterwarnings("ignore", category=cluval_core.CluvalWarning)
        as_true = compare(labels, PRED).scores()
        as_pred = compare(PRED, labels).scores()
    coded_true = compare(codes, PRED).scores()
    coded_pred = compare(PRED, codes).scores()
    assert set(as_true) == set(coded_true)
    assert all(_same(as_true[i], coded_true[i]) for i in coded_true), (as_true, coded_true)
    assert all(_same(as_pred[i], coded_pred[i]) for i in coded_pred), (as_pred, coded_pred)


@pytest.mark.parametrize("labels", [
    ["a", "a\x00", "a", "a\x00"],
    [b"a", b"a\x00", b"a", b"a\x00"],
    ("x\x00\x00", "x", "x\x00\x00", "x"),
], ids=["str", "bytes", "tuple of str"])
def test_strings_differing_by_trailing_nul_are_different_labels(labels):
    # "a" != "a\x00" as Python values, but numpy's fixed-width strings drop trailing NULs:
    # two clusters {0, 2} and {1, 3}, the same partition as [0, 1, 0, 1], ARI 1
    assert compare(labels, [0, 1, 0, 1]).k_true == 2
    assert adjusted_rand_score(labels, [0, 1, 0, 1]) == 1.0


def test_missing_label_among_unsortable_labels_is_refused():
    # None is a missing label even when the other labels cannot be sorted
    with pytest.raises(CluvalError, match="labels_true contains a missing"):
        compare([1, "a", (1, 2), None], [0, 0, 1, 1])


# ============================================================== float labels

@pytest.mark.parametrize("labels", [
    [0.5, 0.5, 1.5, 1.5],
    np.array([0.1, 0.1, 0.2, 0.2], dtype=np.float32),
    pd.Series([2.5, 2.5, -1.25, -1.25]),
], ids=["list", "float32", "series"])
def test_fractional_float_labels_warn_that_they_look_continuous(labels):
    CluvalWarning = _warning_class()
    # still two clusters of two, so ARI against [0,0,1,1] is 1
    with pytest.warns(CluvalWarning, match="continuous"):
        assert adjusted_rand_score(labels, [0, 0, 1, 1]) == 1.0
    with pytest.warns(CluvalWarning, match="continuous"):
        assert adjusted_rand_score([0, 0, 1, 1], labels) == 1.0


@pytest.mark.parametrize("labels", [
    [1.0, 1.0, 2.0, 2.0],
    np.array([-3.0, -3.0, 7.0, 7.0], dtype=np.float32),
    [-0.0, 0.0, 1e300, 1e300],  # -0.0 == 0.0: one label
    pd.Series([4.0, 4.0, 5.0, 5.0]),
], ids=["list", "float32", "signed-zero-and-huge", "series"])
def test_whole_number_float_labels_do_not_warn(labels):
    # pytest turns any warning into an error here
    assert adjusted_rand_score(labels, [0, 0, 1, 1]) == 1.0
    assert adjusted_rand_score([0, 0, 1, 1], labels) == 1.0


# ============================================================== noise labels

NOISE_PRED = [5, 6, 5, 6, 7, 7]
ABSENT_NOISE = [
    # (labels_true, noise label): the label does not occur, though numpy casting or str() would
    # make it match one
    (np.array([2, 2, 0, 0, 1, 1]), 2.5),  # int64(2.5) == 2
    ([2, 2, 0, 0, 1, 1], "2"),  # int64("2") == 2
    (np.array(["2", "2", "a", "a", "b", "b"]), 2),  # str(2) == "2"
    (np.array([True, True, False, False, True, False]), -1),  # bool(-1) is True
    (np.array([255, 255, 0, 0, 1, 1], dtype=np.uint8), -1),  # uint8(-1) wraps to 255
    (np.array([0, 0, 1, 1, 2, 2]), 9),  # simply absent (from the candidate too)
]


@pytest.mark.parametrize("policy", ["drop_reference_noise", "singletons"])
@pytest.mark.parametrize("labels, label", ABSENT_NOISE, ids=[
    "2.5-vs-int", "str-vs-int", "int-vs-str", "-1-vs-bool", "-1-vs-uint8", "absent"])
def test_noise_label_is_matched_exactly(labels, label, policy):
    CluvalWarning = _warning_class()
    # nothing carries the noise label: nothing is dropped or split (N = 6, three reference
    # clusters, the same table as without noise handling), and a warning says so
    with pytest.warns(CluvalWarning):
        c = compare(labels, NOISE_PRED, noise=Noise(label, policy))
    plain = compare(labels, NOISE_PRED)
    assert c.n == 6
    assert c.table.tolist() == plain.table.tolist()
    assert c.scores() == plain.scores()


@pytest.mark.parametrize("labels, label, kept", [
    ([1, 1, 0, 0, 2, 2], True, 4),  # the two objects labelled 1 are dropped
    (np.array([True, True, False, False, True, False]), 1, 3),  # the three labelled True
], ids=["True-vs-int", "1-vs-bool"])
def test_noise_label_true_matches_one_as_the_table_does(labels, label, kept):
    # The noise label is matched by the rule that tells labels apart in the table: equal Python
    # values are one label, and True == 1 (compare([1, True, 0], ...) has two reference
    # clusters), so the objects labelled 1 (or True) are dropped and no warning is given.
    assert compare(np.array([1, True, 0], dtype=object), [0, 1, 2]).k_true == 2
    c = compare(labels, NOISE_PRED, noise=Noise(label, "drop_reference_noise"))
    assert c.n == kept


PRESENT_NOISE = [
    # (labels_true, noise label, the labels left): the first two objects are noise
    (np.array([np.int64(-1), np.int64(-1), 0, 0, 1, 1], dtype=object), -1, {0, 1}),
    (np.array([-1, -1, "a", "a", "b", "b"], dtype=object), np.int64(-1), {"a", "b"}),
    (np.array([np.str_("x"), np.str_("x"), 1, 1, 2, 2], dtype=object), "x", {1, 2}),
    (np.array(["x", "x", 1, 1, 2, 2], dtype=object), np.str_("x"), {1, 2}),
    (np.array(["x", "x", "a", "a", "b", "b"]), np.str_("x"), {"a", "b"}),
    (np.array([-1, -1, 0, 0, 1, 1], dtype=np.int8), -1, {0, 1}),
    (np.array([2**64 - 1, 2**64 - 1, 0, 0, 2**64 - 2, 2**64 - 2], dtype=np.uint64), 2**64 - 1, {0, 2**64 - 2}),
    (np.array([2**63 + 1, 2**63 + 1, 2**63, 2**63, 1, 1], dtype=np.uint64), np.uint64(2**63 + 1), {2**63, 1}),
]


@pytest.mark.parametrize("labels, label, left", PRESENT_NOISE, ids=[str(i) for i in range(len(PRESENT_NOISE))])
def test_noise_label_matches_numpy_and_python_scalars_alike(labels, label, left):
    # dropping the first two objects leaves N = 4 and two reference clusters
    c = compare(labels, NOISE_PRED, noise=Noise(label, "drop_reference_noise"))
    assert c.n == 4
    assert set(c.row_labels.tolist()) == left
    assert c.scores() == compare(labels[2:], NOISE_PRED[2:]).scores()
    # as singletons: the two noise objects become two clusters of one, 2 + 2 = 4 rows
    s = compare(labels, NOISE_PRED, noise=Noise(label, "singletons"))
    assert s.n == 6 and s.k_true == 4


def test_noise_has_no_default_label():
    # 0 (benchmark files) and -1 (DBSCAN) are both common: the caller names it
    with pytest.raises(TypeError):
        Noise()
    assert Noise(-1).policy == "drop_reference_noise"
    assert Noise(-1) == Noise(-1, policy="drop_reference_noise")


# ============================================================== option values

A, B = [0, 0, 1, 1, 2], [0, 1, 1, 2, 2]
CHOICES = [
    ("over", lambda v: f_measure(A, B, over=v), ["true", "pred"]),
    ("pairing", lambda v: criterion_h(A, B, pairing=v), ["greedy", "optimal"]),
    ("average_method", lambda v: normalized_mutual_info_score(A, B, average_method=v),
     ["arithmetic", "geometric", "max", "min", "joint"]),
]


@pytest.mark.parametrize("value", ["typo", "", None, 1, "Greedy"])
@pytest.mark.parametrize("argument, call, accepted", CHOICES, ids=[c[0] for c in CHOICES])
def test_option_values_are_validated(argument, call, accepted, value):
    with pytest.raises(CluvalError) as info:
        call(value)
    message = str(info.value)
    assert argument in message
    assert all(choice in message for choice in accepted), message


FLAGS = [
    ("simplified", lambda v: pair_sets_index(A, B, simplified=v)),
    ("inverse", lambda v: purity_score(A, B, inverse=v)),
]


@pytest.mark.parametrize("value", [1, 0, "yes", "False", None, 1.0])
@pytest.mark.parametrize("argument, call", FLAGS, ids=[f[0] for f in FLAGS])
def test_flags_must_be_bool(argument, call, value):
    with pytest.raises(CluvalError) as info:
        call(value)
    message = str(info.value)
    assert argument in message
    assert ("True" in message and "False" in message) or "bool" in message, message


def test_flags_select_their_variant():
    # [0,0,0,1,1] vs [0,0,1,2,2]: table [[2,1,0],[0,0,2]], r = (3,2), c = (2,1,2), N = 5.
    # Purity (1/N) sum_j max_i n_ij = (2+1+2)/5 = 1; inverse purity (2+2)/5 = 0.8.
    # PSI: S = 2/3 + 2/2 = 5/3; E = (3*2/5)/3 + (2*2/5)/2 = 0.8 (sizes sorted descending);
    # PSI = (5/3 - 0.8)/(3 - 0.8) = 13/33; simplified (E = 1): (5/3 - 1)/(3 - 1) = 1/3.
    a, b = [0, 0, 0, 1, 1], [0, 0, 1, 2, 2]
    assert purity_score(a, b, inverse=False) == 1.0
    assert purity_score(a, b, inverse=True) == pytest.approx(0.8, abs=1e-15)
    assert pair_sets_index(a, b, simplified=False) == pytest.approx(13 / 33, abs=1e-15)
    assert pair_sets_index(a, b, simplified=True) == pytest.approx(1 / 3, abs=1e-15)
    assert pair_sets_index(a, b, simplified=np.bool_(True)) == pytest.approx(1 / 3, abs=1e-15)


# ============================================================== tables

def test_from_table_label_lists_must_match_the_shape():
    table = [[1, 2], [3, 4]]
    with pytest.raises(CluvalError, match="row_labels"):
        Comparison.from_table(table, row_labels=["a"])
    with pytest.raises(CluvalError, match="row_labels"):
        Comparison.from_table(table, row_labels=["a", "b", "c"])
    with pytest.raises(CluvalError, match="col_labels"):
        Comparison.from_table(table, col_labels=["x", "y", "z"])
    with pytest.raises(CluvalError, match="row_labels"):
        Comparison.from_memberships([[1, 0], [0, 1]], [[1, 0], [0, 1]], row_labels=[7])


SPARSE = {"csr": sp.csr_matrix, "coo": sp.coo_matrix, "csc": sp.csc_matrix, "csr_array": sp.csr_array}


@pytest.mark.parametrize("kind", list(SPARSE))
def test_from_table_keeps_a_scipy_sparse_table_sparse(kind):
    dense = np.array([[5, 0, 1], [0, 4, 0], [2, 0, 0]])
    c = Comparison.from_table(SPARSE[kind](dense))
    assert c.is_sparse and not Comparison.from_table(dense).is_sparse
    assert c.table.toarray().tolist() == dense.tolist()
    assert c.scores() == Comparison.from_table(dense).scores()


def test_from_table_accepts_a_crosstab_and_keeps_its_labels():
    a = pd.Series(["x", "x", "y", "y", "y", "z"])
    b = pd.Series([10, 10, 10, 20, 30, 30])
    c = Comparison.from_table(pd.crosstab(a, b))
    assert c.row_labels.tolist() == ["x", "y", "z"]
    assert c.col_labels.tolist() == [10, 20, 30]
    # crosstab sorts, and here the sorted order is also the order of first occurrence
    assert c.scores() == compare(a, b).scores()


def test_dataframe_labels_follow_the_rows_that_are_kept():
    frame = pd.DataFrame([[1, 2], [0, 0], [3, 0]], index=["r0", "r1", "r2"], columns=["c0", "c1"])
    c = Comparison.from_table(frame)
    assert c.row_labels.tolist() == ["r0", "r2"]  # the empty row r1 is dropped
    assert c.col_labels.tolist() == ["c0", "c1"]


def _exact_ari(table) -> Fraction:
    """Hubert-Arabie ARI with Python ints: 2(ad - bc) / ((a+b)(b+d) + (a+c)(c+d))."""
    t = [[int(v) for v in row] for row in table]
    pairs = lambda x: x * (x - 1) // 2  # noqa: E731 - a one-line helper, named for reading
    n = sum(map(sum, t))
    a = sum(pairs(v) for row in t for v in row)
    b = sum(pairs(sum(row)) for row in t) - a
    c = sum(pairs(sum(col)) for col in zip(*t)) - a
    d = pairs(n) - a - b - c
    return Fraction(2 * (a * d - b * c), (a + b) * (b + d) + (a + c) * (c + d))


HUGE_TABLES = {
    # the issue's: N = 4 * 2**62 + 9 overflows int64 and ARI was 28; exactly it is 2**-62 to
    # double precision
    "issue": [[2**62] * 4 + [5], [1, 0, 0, 0, 3]],
    "uint64": np.array([[2**63, 1], [1, 1]], dtype=np.uint64),
    "int64 overflow": np.array([[2**62, 2**62], [2**62, 1]]),
    "whole floats": np.array([[1e20, 3.0], [2.0, 1e19]]),
}
CONSTRUCTORS = {"from_table": Comparison.from_table, "Comparison": Comparison}


@pytest.mark.parametrize("constructor", list(CONSTRUCTORS))
@pytest.mark.parametrize("name", list(HUGE_TABLES))
def test_huge_tables_are_exact_or_refused(name, constructor):
    table = HUGE_TABLES[name]
    try:
        c = CONSTRUCTORS[constructor](table)
        value = c.score("ari")
    except CluvalError:
        return  # refused clearly: allowed
    rows = [[int(v) for v in row] for row in table]
    assert value == pytest.approx(float(_exact_ari(rows)), rel=1e-12, abs=0)
    n = sum(map(sum, rows))
    assert c.score("ri") == pytest.approx(float(1 - Fraction(_pairs_apart_in_one(rows), math.comb(n, 2))), rel=1e-12)
    assert all(_in_range(i, v) for i, v in c.scores().items())


def _pairs_apart_in_one(t) -> int:
    """b + c: pairs together in exactly one partition."""
    pairs = lambda x: x * (x - 1) // 2  # noqa: E731 - a one-line helper, named for reading
    a = sum(pairs(v) for row in t for v in row)
    return sum(pairs(sum(row)) for row in t) + sum(pairs(sum(col)) for col in zip(*t)) - 2 * a


def test_below_2_62_a_huge_table_is_counted_exactly():
    # [[2**61, 1], [1, 2**60]] totals 3 * 2**60 + 2 < 2**62: not refused, and exact
    table = [[2**61, 1], [1, 2**60]]
    assert Comparison.from_table(table).score("ari") == pytest.approx(float(_exact_ari(table)), rel=1e-12)


@pytest.mark.parametrize("table", [
    np.array([[1, -2], [3, 4]]),  # unvalidated, it gave RI 0.43 (1.83 in an earlier version)
    np.array([[1.0, np.nan], [1.0, 1.0]]),
    np.array([[1.0, np.inf], [1.0, 1.0]]),
    np.array([[-0.5, 2.0], [1.0, 1.0]]),
    np.zeros((2, 2)),
], ids=["negative", "nan", "inf", "negative-float", "zero"])
def test_the_public_constructor_validates_like_from_table(table):
    with pytest.raises(CluvalError):
        Comparison.from_table(table)
    with pytest.raises(CluvalError):
        Comparison(table).score("ri")


# ============================================================== soft tables

SOFT_IDS = [i for i, info in INDICES.items() if getattr(info, "soft", True) and not info.needs_data]


def _assert_soft_scores_in_range(c):
    scores = c.scores()
    for index_id in SOFT_IDS:
        assert _in_range(index_id, c.score(index_id)), (index_id, c.score(index_id))
    for index_id, value in scores.items():  # the others too: in range, or NaN
        assert _in_range(index_id, value), (index_id, value)
    return scores


def test_soft_table_of_independent_memberships_stays_in_range():
    # U = identity (100 singletons), V = 0.01 everywhere: N* has every cell 0.01, margins 1,
    # N = 100. The partitions are independent: MI = sum 1e-4 log(100 * 0.01 / 1) = 0, so every
    # NMI is 0, VI = H_a + H_b = 2 ln 100 and NVI = 1. Unguarded, ARI's denominator (a+b)(b+d) +
    # (a+c)(c+d) is 0 up to rounding and ARI came out as -3.5e15.
    c = Comparison.from_memberships(np.eye(100), np.full((100, 100), 0.01))
    scores = _assert_soft_scores_in_range(c)
    assert scores["mi"] == pytest.approx(0, abs=1e-12)
    for index_id in ("nmi_sum", "nmi_sqrt", "nmi_max", "nmi_min", "nmi_joint"):
        assert scores[index_id] == pytest.approx(0, abs=1e-12)
    assert scores["vi"] == pytest.approx(2 * math.log(100), rel=1e-12)
    assert scores["nvi"] == pytest.approx(1, abs=1e-12)


def test_soft_table_with_negative_pair_counts_stays_in_range():
    # U: two objects, each 1/3 in three clusters; V: both in cluster 0. N* = [[2/3, 0]] * 3, the
    # empty column is dropped: K_a = 3, K_b = 1, N = 2. "Pairs" a = 3 (2/3)(-1/3)/2 = -1/3 < 0,
    # so sqrt((a+b)(a+c)) had a negative argument (it raised "math domain error").
    # One side has one cluster: MI = 0, every NMI is 0 and NVI is 1; VI = H_a = ln 3.
    c = Comparison.from_memberships([[1 / 3] * 3] * 2, [[1, 0], [1, 0]])
    assert (c.k_true, c.k_pred) == (3, 1)
    scores = _assert_soft_scores_in_range(c)
    assert scores["mi"] == pytest.approx(0, abs=1e-12)
    assert scores["nmi_sum"] == 0 and scores["nmi_max"] == 0
    assert scores["nvi"] == 1
    assert scores["vi"] == pytest.approx(math.log(3), rel=1e-12)


INFORMATION = ["mi", "nmi_sum", "nmi_sqrt", "nmi_max", "nmi_min", "nmi_joint", "vi", "nvi"]


def _underflow_cases():
    # 1. memberships of 1e-300: N* = [[2, 0, 0], [0, 2, 1e-300], [1e-300, 0, 0]], the limit of
    #    [[2, 0], [0, 2]] plus two clusters of (almost) nothing
    U = np.array([[1, 0, 1e-300], [1, 0, 0], [0, 1, 0], [0, 1, 0]])
    V = np.array([[1, 0, 0], [1, 0, 0], [0, 1, 1e-300], [0, 1, 0]])
    yield "1e-300", Comparison.from_memberships(U, V)
    # 2. 3e-162 * 3e-162 = 1e-323, a subnormal cell; divided by N = 100 it underflows to 0,
    #    and 0 log 0 was NaN
    W = np.zeros((100, 3))
    W[:50, 0], W[50:, 1] = 1, 1
    W[0] = [1, 0, 3e-162]
    yield "subnormal product", Comparison.from_memberships(W, W)
    # 3. the subnormal cells given directly
    yield "subnormal table", Comparison.from_table([[50, 5e-324], [5e-324, 50]])


@pytest.mark.parametrize("case", range(3), ids=["1e-300", "subnormal-product", "subnormal-table"])
def test_underflowed_cells_never_give_nan_entropies(case):
    name, c = list(_underflow_cases())[case]
    scores = _assert_soft_scores_in_range(c)
    # every case is [[2, 0], [0, 2]] or [[50, 0], [0, 50]] up to cells below 1e-160, and p log p
    # tends to 0: H_a = H_b = H_ab = MI = ln 2 (nats), every NMI is 1 and VI = NVI = 0, to 1e-12
    for index_id in INFORMATION:
        assert not math.isnan(scores[index_id]), (name, index_id)
    assert c.entropies.joint == pytest.approx(math.log(2), rel=1e-12)
    assert scores["mi"] == pytest.approx(math.log(2), rel=1e-12)
    for index_id in ("nmi_sum", "nmi_sqrt", "nmi_max", "nmi_min", "nmi_joint"):
        assert scores[index_id] == pytest.approx(1, abs=1e-12), index_id
    assert scores["vi"] == pytest.approx(0, abs=1e-12)
    assert scores["nvi"] == pytest.approx(0, abs=1e-12)


def test_a_soft_side_of_one_cluster_has_no_entropy_below_zero():
    # the reference is one cluster up to 1e-300 per object; N, the sum of the cells, is 3 - 4e-16
    # while the first row's size is 3.0, so its p log p came out as +2e-16 and H_a as -2e-16: the
    # geometric-mean NMI took the square root of a negative number (a fuzz find)
    U = np.array([[1.0, 1e-300]] * 3)
    V = np.array([[0, 0, 1 / 9, 8 / 9], [0.25] * 4, [0, 1 / 3, 0, 2 / 3]])
    c = Comparison.from_memberships(U, V)
    assert c.row_sizes[0] > c.n  # the case: a size above N in its last bit
    assert c.entropies.true == 0.0
    scores = _assert_soft_scores_in_range(c)
    assert scores["mi"] == 0.0


def test_registry_says_which_indices_are_meaningful_on_soft_tables():
    flags = {i: info.soft for i, info in INDICES.items()}
    assert all(isinstance(v, bool) for v in flags.values())
    # AMI's expectation needs integer counts (docs/definitions.rst); indices that need X need objects
    assert flags["ami"] is False
    assert not any(flags[i] for i, info in INDICES.items() if info.needs_data)
    # docs/definitions.rst names these as defined on N*
    assert all(flags[i] for i in ("mi", "nmi_sum", "nmi_max", "vi", "nvi", "ri", "ari", "psi"))


# ============================================================== ties

def test_criterion_h_breaks_ties_by_first_occurrence():
    # [1,2,2] vs [1,1,2]: rows (in order of first occurrence) G1 = {0}, G2 = {1,2}; columns
    # P1 = {0,1}, P2 = {2}; table [[1, 0], [1, 1]]. Three cells tie at 1; the row that occurs
    # first (G1) wins, then the first column: (G1, P1). Then (G2, P2) = 1. Sum 2: CH = 1 - 2/3.
    # [1,0,0] vs [1,1,2] is the same partition with label 1 -> 1, 2 -> 0: the same value
    # (they used to give 0.333 and 0.667).
    first = criterion_h([1, 2, 2], [1, 1, 2])
    assert first == pytest.approx(1 / 3, abs=1e-15)
    assert criterion_h([1, 0, 0], [1, 1, 2]) == first
    assert criterion_h(["b", "a", "a"], [9, 9, -9]) == first


def test_criterion_h_tie_among_a_row_of_ones():
    # [0,0,0,1] vs [0,1,2,0]: G0 = {0,1,2}, G1 = {3}; P0 = {0,3}, P1 = {1}, P2 = {2};
    # table [[1, 1, 1], [1, 0, 0]]. Four cells tie at 1: row G0 first, then column P0 (object 0)
    # wins; G1 is left with P1 or P2, both 0. Sum 1: CH = 1 - 1/4 = 0.75 (pairing G0-P1, G1-P0
    # would give 0.5). Every relabelling gives 0.75.
    for a, b in [([0, 0, 0, 1], [0, 1, 2, 0]), ([1, 1, 1, 0], [2, 1, 0, 2]), (["x", "x", "x", "a"], [5, -1, 0, 5])]:
        assert criterion_h(a, b) == 0.75, (a, b)


GRID4 = np.array([[i % 3, i // 3] for i in range(4)], dtype=float)  # (0,0) (1,0) (2,0) (0,1)


def test_centroid_index_breaks_ties_by_first_occurrence():
    # a = [0,0,0,1]: G0 = {p0,p1,p2} centroid (1,0), G1 = {p3} centroid (0,1);
    # b = [0,1,0,1]: P0 = {p0,p2} centroid (1,0), P1 = {p1,p3} centroid (0.5,0.5).
    # Squared distances: G0-P0 0, G0-P1 0.5, G1-P0 2, G1-P1 0.5.
    # G -> P: G0 -> P0, G1 -> P1: no orphan. P -> G: P0 -> G0; P1 ties between G0 and G1 (0.5):
    # G0 occurs first and wins, so G1 is an orphan: CI = 1 (0 if G1 won).
    # CSI = ((2 + 1) + (2 + 1)) / 8 = 0.75 either way.
    for a, b in [([0, 0, 0, 1], [0, 1, 0, 1]), ([1, 1, 1, 0], [1, 0, 1, 0]), (["b", "b", "b", "a"], [3, 2, 3, 2])]:
        c = compare(a, b, X=GRID4)
        assert c.score("ci_centroid") == 1.0, (a, b)
        assert c.score("csi_centroid") == 0.75, (a, b)


def test_centroid_ratio_breaks_ties_by_first_occurrence():
    # a = [0,0,0,1]: G0 centroid (1,0), G1 (0,1); b = [0,0,1,0]: P0 = {p0,p1,p3} centroid
    # (1/3,1/3), P1 = {p2} centroid (2,0). Squared distances: G0-P0 5/9, G1-P0 5/9, G0-P1 1,
    # G1-P1 5. The greedy pairing starts with a tie at 5/9: G0 occurs first, so (G0,P0), then
    # (G1,P1). D(G0) = D(G1) = sqrt 2, D(P0) = D(P1) = sqrt(26)/3.
    # (G0,P0): (5/9)/(sqrt2 sqrt26/3) = 0.23, stable; (G1,P1): 5/(sqrt2 sqrt26/3) = 2.08, unstable.
    # CR = 1 - 1/2 = 0.5 (the other choice, (G1,P0) then (G0,P1) with ratio 0.42, gives 1).
    for a, b in [([0, 0, 0, 1], [0, 0, 1, 0]), ([1, 1, 1, 0], [1, 1, 0, 1]), (["q", "q", "q", "p"], [-4, -4, 8, -4])]:
        assert compare(a, b, X=GRID4).score("cr") == 0.5, (a, b)


def _restricted_growth(n: int, k_max: int = 3):
    """Every partition of n objects into 2..k_max clusters, coded by first occurrence."""
    for codes in itertools.product(range(k_max), repeat=n):
        if codes[0] == 0 and max(codes) >= 1 and all(codes[i] <= max(codes[:i]) + 1 for i in range(1, n)):
            yield codes


def _grid(n: int) -> np.ndarray:
    return np.array([[i % 3, i // 3] for i in range(n)], dtype=float)


def _has_tie(a, b, X) -> bool:
    """Whether some tie-broken result of (a, b) faces equal candidates (exact arithmetic)."""
    k_a, k_b = max(a) + 1, max(b) + 1
    t = [[0] * k_b for _ in range(k_a)]
    for i, j in zip(a, b):
        t[i][j] += 1
    r = [sum(row) for row in t]
    c = [sum(col) for col in zip(*t)]
    jac = [[Fraction(t[i][j], r[i] + c[j] - t[i][j]) for j in range(k_b)] for i in range(k_a)]
    n_dim = X.shape[1]
    cent = [[[Fraction(0)] * n_dim for _ in range(k)] for k in (k_a, k_b)]
    for side, codes, sizes in ((0, a, r), (1, b, c)):
        for obj, code in enumerate(codes):
            for d in range(n_dim):
                cent[side][code][d] += Fraction(X[obj, d]) / sizes[code]
    dist = [[-sum((cent[0][i][d] - cent[1][j][d]) ** 2 for d in range(n_dim)) for j in range(k_b)]
            for i in range(k_a)]
    for m in (jac, dist):  # nearest-neighbour mappings, both ways
        for line in [*m, *zip(*m)]:
            if list(line).count(max(line)) > 1:
                return True
    for m in (t, dist):  # greedy pairings: equal cells competing at some step
        free_r, free_c = set(range(k_a)), set(range(k_b))
        while free_r and free_c:
            cells = [(m[i][j], i, j) for i in free_r for j in free_c]
            best = max(cells)[0]
            if sum(v == best for v, _, _ in cells) > 1:
                return True
            _, i, j = max(cells)
            free_r.discard(i)
            free_c.discard(j)
    bb = [[Fraction(t[i][j], max(r[i], c[j])) for j in range(k_b)] for i in range(k_a)]
    recall = [[Fraction(t[i][j], r[i]) for j in range(k_b)] for i in range(k_a)]
    for m in (t, bb, recall):  # optimal pairings: more than one optimum
        rows = range(k_a) if k_a <= k_b else range(k_b)
        cell = (lambda i, j, m=m: m[i][j]) if k_a <= k_b else (lambda i, j, m=m: m[j][i])
        totals = [sum(cell(i, p) for i, p in zip(rows, perm))
                  for perm in itertools.permutations(range(max(k_a, k_b)), len(rows))]
        if totals.count(max(totals)) > 1:
            return True
    return False


def _tie_heavy_cases(n: int, limit: int):
    """Pairs of partitions of n objects that tie somewhere: all of them, or the first `limit`
    in a fixed random order."""
    X = _grid(n)
    parts = list(_restricted_growth(n))
    pairs = [(a, b) for a in parts for b in parts]
    if len(pairs) > limit:
        pairs = [pairs[i] for i in np.random.default_rng(n).permutation(len(pairs))]
    cases = []
    for a, b in pairs:
        if _has_tie(a, b, X):
            cases.append((a, b))
            if len(cases) == limit:
                break
    return cases


def _bijections(codes, rng):
    """Relabellings of a first-occurrence coding: random ints, negative ints, strings, swap."""
    k = max(codes) + 1
    return {
        "ints": dict(enumerate(int(v) for v in rng.choice(10_000, size=k, replace=False))),
        "negative": dict(enumerate(-1 - 3 * int(v) for v in rng.permutation(k))),
        "strings": dict(enumerate(f"c{int(v)}" for v in rng.permutation(k))),
        "swap": dict(enumerate(range(k - 1, -1, -1))),  # which value is which, exchanged
    }


PAIRINGS = ("greedy_pairing", "hungarian_pairing", "accuracy_pairing", "row_normalised_pairing")


def _structure(c, back_a, back_b):
    """Pairings and mappings as pairs of (first-occurrence) cluster codes, with their tie flags."""
    out = {}
    for name in PAIRINGS:
        p = getattr(c, name)
        pairs = zip((back_a[v] for v in p.row_labels.tolist()), (back_b[v] for v in p.col_labels.tolist()))
        out[name] = (sorted(pairs), getattr(p, "tie_broken", None))
    for name in ("jaccard_mapping", "centroid_mapping"):
        for m in getattr(c, name):
            src, dst = (back_a, back_b) if m.direction == "true->pred" else (back_b, back_a)
            targets = m.target_labels[m.targets].tolist()
            out[name, m.direction] = (sorted((src[s], dst[t]) for s, t in zip(m.source_labels.tolist(), targets)),
                                      getattr(m, "tie_broken", None))
    return out


@pytest.mark.parametrize("n, limit", [(4, 10_000), (5, 120), (6, 120)])
def test_no_index_depends_on_label_coding_in_tie_heavy_cases(n, limit):
    # Every pair of partitions of n objects into 2 or 3 clusters whose tables, Jaccard or
    # centroid distances (points on a grid) tie somewhere: every index, every pairing and
    # mapping must come out the same under any bijection of the labels, because ties are
    # broken by first occurrence, which no relabelling changes.
    X = _grid(n)
    failures = []
    for case, (a, b) in enumerate(_tie_heavy_cases(n, limit)):
        base = compare(np.array(a), np.array(b), X=X)
        base_scores = base.scores()
        identity = {v: v for v in range(3)}
        base_structure = _structure(base, identity, identity)
        rng = np.random.default_rng([n, case])
        maps_a, maps_b = _bijections(a, rng), _bijections(b, rng)
        for form in maps_a:
            ma, mb = maps_a[form], maps_b[form]
            c = compare(np.array([ma[v] for v in a]), np.array([mb[v] for v in b]), X=X)
            got = c.scores()
            diff = {i: (base_scores[i], got[i]) for i in base_scores if not _same(base_scores[i], got[i])}
            back_a = {v: k for k, v in ma.items()}
            back_b = {v: k for k, v in mb.items()}
            structure = _structure(c, back_a, back_b)
            moved = [key for key in base_structure if structure[key] != base_structure[key]]
            if diff or moved or set(got) != set(base_scores):
                failures.append((a, b, form, diff, moved))
    assert not failures, f"{len(failures)} relabellings changed a result, e.g. {failures[:3]}"


def test_tie_heavy_search_finds_ties():
    # the brute force above is only as good as its cases: of the 13 x 13 pairs of partitions of
    # 4 objects into 2 or 3 clusters, 144 tie somewhere on the grid
    assert len(_tie_heavy_cases(4, 10_000)) == 144
    assert len(_tie_heavy_cases(6, 120)) == 120
    assert _has_tie((0, 1, 1), (0, 0, 1), _grid(3))  # the criterion_h example above
    assert _has_tie((0, 0, 0, 1), (0, 1, 0, 1), _grid(4))  # the centroid index example
    # [[3,1],[0,1]] with centroid distances 9.39, 91.25, 168.5 and 0.25: nothing ties
    assert not _has_tie((0, 0, 0, 0, 1), (0, 0, 0, 1, 1), np.array([[0, 0], [0, 1], [1, 0], [9, 9], [9, 10.]]))


SQUARE = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype=float)


def test_pairings_and_mappings_say_when_a_tie_was_broken():
    # a = [0,0,1,1], b = [0,1,0,1]: the table [[1,1],[1,1]], all cells, Jaccard values (1/3)
    # and Braun-Banquet values (1/2) equal; on the unit square the reference centroids (0,.5)
    # and (1,.5) are both 0.5 (squared) from the candidate's (.5,0) and (.5,1): every choice ties.
    tied = compare([0, 0, 1, 1], [0, 1, 0, 1], X=SQUARE)
    # a = b = [0,0,0,1,1]: the table [[3,0],[0,2]], far-apart centroids: no choice ties
    # (the greedy pairing takes 3, then 2; each cluster's best match is unique)
    clear = compare([0, 0, 0, 1, 1], [0, 0, 0, 1, 1], X=[[0, 0], [0, 1], [1, 0], [9, 9], [9, 10]])
    for name in PAIRINGS:
        for c, expected in ((tied, True), (clear, False)):
            flag = getattr(c, name).tie_broken
            assert isinstance(flag, (bool, np.bool_)) and bool(flag) is expected, (name, expected)
    for name in ("jaccard_mapping", "centroid_mapping"):
        for c, expected in ((tied, True), (clear, False)):
            for mapping in getattr(c, name):
                flag = mapping.tie_broken
                assert isinstance(flag, (bool, np.bool_)) and bool(flag) is expected, (name, mapping.direction)


# ============================================================== coordinates

# Reference: G0 = (-1,0) (1,0) (0,0), centroid (0,0); G1 = (10,1) (10,-1), centroid (10,0);
# G2 = (0,9) (0,11) (0,10), centroid (0,10); G3 = (9,9) (9,11) (10,10) (11,10), centroid (9.75,10).
# Candidate: P0 = G0 + G1, centroid (4,0); P1 = G2; P2 = (9,9) (9,11) (10,10), centroid (28/3,10);
# P3 = (11,10).
SHAPES_X = np.array([[-1, 0], [1, 0], [0, 0], [10, 1], [10, -1], [0, 9], [0, 11], [0, 10],
                     [9, 9], [9, 11], [10, 10], [11, 10]], dtype=float)
SHAPES_A = [0, 0, 0, 1, 1, 2, 2, 2, 3, 3, 3, 3]
SHAPES_B = [0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3]


def test_centroid_indices_of_the_scale_example():
    # G -> P: G0 -> P0 (16), G1 -> P0 (36), G2 -> P1 (0), G3 -> P2 (0.17 < 1.56): P3 orphan.
    # P -> G: P0 -> G0 (16 < 36), P1 -> G2, P2 -> G3, P3 -> G3: G1 orphan. CI = 1.
    # CSI = ((3 + 2 + 3 + 3) + (3 + 3 + 3 + 1)) / 24 = 21/24.
    # CR: greedy pairs (G2,P1) d=0, (G3,P2) d^2=0.17, (G0,P0) d^2=16, (G1,P3) d^2=101. Own
    # nearest: D(G0)=D(G1)=10, D(G2)=D(G3)=9.75, D(P0)=sqrt(116), D(P1)=28/3, D(P2)=D(P3)=5/3.
    # Ratios: 0, 0.17/16.25, 16/(10 sqrt 116) = 0.15, 101/(10 * 5/3) = 6.06 > 1: one unstable
    # pair of four, CR = 0.75.
    _assert_the_scale_example(compare(SHAPES_A, SHAPES_B, X=SHAPES_X))


def _assert_the_scale_example(c):
    assert c.score("ci_centroid") == 1.0
    assert c.score("csi_centroid") == 21 / 24
    assert c.score("cr") == 0.75
    forward, backward = c.centroid_mapping
    assert forward.targets.tolist() == [0, 0, 1, 2]
    assert backward.targets.tolist() == [0, 2, 3, 3]


@pytest.mark.parametrize("transform", ["scale 1e-150", "scale 1e150", "scale 1e300", "scale 1e-300",
                                       "shift 1e10", "shift -1e10 and scale 1e150"])
def test_centroid_results_do_not_depend_on_the_scale_of_x(transform):
    kind, *args = transform.split()
    X = SHAPES_X * float(args[0]) if kind == "scale" else SHAPES_X + float(args[0])
    if len(args) > 1:
        X = X * float(args[-1])
    assert np.isfinite(X).all()
    # the values of the unscaled example above (CR used to flip from 0 to 1 past 1e154)
    _assert_the_scale_example(compare(SHAPES_A, SHAPES_B, X=X))


@pytest.mark.parametrize("power", [-500, 500, 997])
def test_tie_heavy_grids_scaled_by_powers_of_two(power):
    # scaling by 2**k is exact, so every tie on the grid stays a tie and every result (values,
    # mappings, their tie flags) must be the same; 2**997 * 2 is finite but its square is not
    failures = []
    for n in (4, 5):
        X = _grid(n)
        identity = {v: v for v in range(3)}
        for a, b in _tie_heavy_cases(n, 40):
            plain = compare(np.array(a), np.array(b), X=X)
            scaled = compare(np.array(a), np.array(b), X=X * 2.0**power)
            ids = ("ci_centroid", "csi_centroid", "cr")
            if (plain.scores(ids) != scaled.scores(ids)
                    or _structure(plain, identity, identity) != _structure(scaled, identity, identity)):
                failures.append((a, b))
    assert not failures, f"{len(failures)} grids changed when scaled by 2**{power}, e.g. {failures[:3]}"


def test_tables_with_huge_clusters_score_without_work_or_warnings_that_grow_with_a_size():
    """Two tables the fuzzer found: a cluster of 2**40 objects (SMI's variance kept one entry per
    count up to the largest size: 8 TiB) and 2.3e18 objects (ATMI's windows, beyond exact floats,
    overflowed exp). Both give every index, each a value or NaN, and no warning but cluval's own."""
    from cluval_core import Comparison

    for table in ([[0, 0, 0], [0, 0, 0], [0, 0, 1], [0, 2**40, 0]],
                  np.array([[3, 100000], [9007199254740993, 2305843009213693952]], dtype=np.uint64)):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            scores = Comparison.from_table(table).scores()
        assert all(issubclass(w.category, cluval_core.CluvalWarning) for w in caught), caught[0].message
        assert len(scores) == 63 and all(isinstance(v, float) for v in scores.values())
    assert math.isnan(scores["atmi"])


@pytest.mark.parametrize("table", [[[2**62]], [[2**61, 2**61]], [[2**61], [2**61]], [[2**61 - 1, 1], [1, 2**61 - 1]]],
                             ids=["one cell", "one row", "one column", "diagonal"])
def test_tables_of_the_most_objects_cluval_counts_stay_in_range(table):
    """N = 2**62, the most objects cluval counts exactly: every index in its range or NaN. The
    centroid similarity index added its two mapped sums in int64, which 2N = 2**63 wrapped to
    -2**63 (CSI = -1 on the one-cell table: a fuzz find); two partitions of one cluster are equal."""
    from cluval_core import Comparison

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cluval_core.CluvalWarning)  # AMI and ATMI are not computed this far
        c = Comparison.from_table(table)
        scores = c.scores()
    for index_id, value in scores.items():
        lo, hi = INDICES[index_id].range
        assert math.isnan(value) or lo <= value <= hi, (index_id, value)
    if c.k_true == c.k_pred == 1:
        assert scores["csi_partition"] == scores["purity"] == scores["ri"] == 1.0
