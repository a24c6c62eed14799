"""The one-line functions named like scikit-learn's accept scikit-learn's calls exactly, so that
switching an import changes no call, and give its values (where the two differ, a test says why)."""

from __future__ import annotations

import inspect
import math
import warnings

import numpy as np
import pandas as pd
import pytest
import sklearn.metrics as skm

import cluval_core

SHARED = ["rand_score", "adjusted_rand_score", "fowlkes_mallows_score", "mutual_info_score",
          "normalized_mutual_info_score", "adjusted_mutual_info_score", "homogeneity_score", "completeness_score",
          "v_measure_score"]
AVERAGE_METHODS = ["arithmetic", "geometric", "max", "min"]


@pytest.mark.parametrize("name", SHARED)
def test_every_parameter_of_scikit_learns_function_is_accepted_alike(name):
    ours = inspect.signature(getattr(cluval_core, name)).parameters
    for parameter in inspect.signature(getattr(skm, name)).parameters.values():
        assert parameter.name in ours, (name, parameter.name)
        mine = ours[parameter.name]
        assert mine.kind == parameter.kind, (name, parameter.name)
        assert mine.default == parameter.default, (name, parameter.name, mine.default, parameter.default)


def _label_vectors():
    """Label vectors in the forms scikit-learn accepts: lists, arrays of ints, strings and
    whole floats, Series, with label gaps and negative labels."""
    rng = np.random.default_rng(11)
    out = []
    for n, k_a, k_b in [(30, 3, 4), (100, 5, 5), (12, 2, 6), (50, 1, 3), (40, 4, 1), (20, 20, 4), (60, 7, 2)]:
        a = rng.integers(0, k_a, n)
        b = np.where(rng.random(n) < 0.6, a % k_b, rng.integers(0, k_b, n))
        out += [(a, b), (a.tolist(), b.tolist()), (a * 7 - 3, b + 100), (a.astype(str), b.astype(float)),
                (pd.Series(a), pd.Series(b.astype(str)))]
    out += [([0, 0, 1, 1], [1, 1, 0, 0]), ([0, 1, 2, 3], [0, 1, 2, 3]), ([0, 0, 0], [0, 0, 0]), ([7], [3]),
            ([], []), (["a"], ["b"]), ([0, 0], [0, 1])]
    return out


VECTORS = _label_vectors()


def _same_value(ours, theirs, tolerance=1e-12):
    return ours == theirs or abs(ours - theirs) <= tolerance * max(1.0, abs(theirs))


def _sklearn(name, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its warnings about continuous-looking labels
        return getattr(skm, name)(*args, **kwargs)


def _bound_reached_by_every_table(a, b, average_method) -> bool:
    """True where AMI is 0/0: its bound equals E[MI] (as when one side is all singletons and the
    bound is the smaller entropy), the one place cluval's AMI is NaN and scikit-learn's is what
    rounding leaves."""
    c = cluval_core.compare(a, b)
    if c.k_true == 1 or c.k_pred == 1 or c.is_identical:
        return False
    bound = {"arithmetic": (c.entropies.true + c.entropies.pred) / 2,
             "geometric": math.sqrt(c.entropies.true * c.entropies.pred),
             "max": max(c.entropies.true, c.entropies.pred), "min": min(c.entropies.true, c.entropies.pred)}
    return bound[average_method] - c.expected_mutual_information <= 1e-9 * bound[average_method]


@pytest.mark.parametrize("name", ["normalized_mutual_info_score", "adjusted_mutual_info_score"])
@pytest.mark.parametrize("average_method", [None, *AVERAGE_METHODS])
def test_nmi_and_ami_give_scikit_learns_values_for_its_calls(name, average_method):
    ours, checked = getattr(cluval_core, name), 0
    for a, b in VECTORS:
        for call in ("positional", "keywords"):
            options = {} if average_method is None else {"average_method": average_method}
            args, kwargs = ((a, b), options) if call == "positional" else ((), {"labels_true": a, "labels_pred": b,
                                                                               **options})
            expected, got = _sklearn(name, *args, **kwargs), ours(*args, **kwargs)
            if name.startswith("adjusted") and len(a) > 1 and \
                    _bound_reached_by_every_table(a, b, average_method or "arithmetic"):
                assert math.isnan(got) and abs(expected) < 1.5, (a, b, average_method, expected)
                continue
            assert isinstance(got, float) and _same_value(got, expected), (a, b, average_method, got, expected)
            checked += 1
    assert checked >= 2 * len(VECTORS) - 10


def test_ami_is_undefined_where_every_random_table_reaches_its_bound():
    """All singletons against two pairs: every random arrangement has MI = H(pairs), the smaller
    entropy, so AMI with the min bound is 0/0. scikit-learn returns what rounding leaves (here -1
    one way and 0.67 the other); cluval says undefined."""
    singles, pairs = [0, 1, 2, 3], [0, 0, 1, 1]
    assert math.isnan(cluval_core.adjusted_mutual_info_score(singles, pairs, average_method="min"))
    assert _sklearn("adjusted_mutual_info_score", singles, pairs, average_method="min") == pytest.approx(-1.0)
    assert _sklearn("adjusted_mutual_info_score", pairs, singles, average_method="min") == pytest.approx(2 / 3)


@pytest.mark.parametrize("name", ["rand_score", "adjusted_rand_score", "fowlkes_mallows_score", "mutual_info_score",
                                  "homogeneity_score", "completeness_score", "v_measure_score"])
def test_the_other_shared_names_give_scikit_learns_values(name):
    checked = 0
    for a, b in VECTORS:
        if len(a) < 2:
            continue  # the contract: fewer than 2 objects is an error (scikit-learn gives a convention)
        expected = _sklearn(name, a, b)
        c = cluval_core.compare(a, b)
        got = getattr(cluval_core, name)(labels_true=a, labels_pred=b)
        if name == "fowlkes_mallows_score" and (c.pair_counts.a + c.pair_counts.b == 0
                                                or c.pair_counts.a + c.pair_counts.c == 0):
            assert math.isnan(got) and expected == 0.0  # undefined (0/0): NaN here, 0 there
            continue
        assert _same_value(got, expected), (name, a, b, got, expected)
        checked += 1
    assert checked >= len(VECTORS) - 10


def test_mutual_info_score_takes_a_contingency_table_like_scikit_learn():
    a, b = [0, 0, 1, 1, 2, 2, 2], [0, 0, 0, 1, 1, 2, 2]
    table = skm.cluster.contingency_matrix(a, b)
    for given in (table, table.tolist(), skm.cluster.contingency_matrix(a, b, sparse=True)):
        assert _same_value(cluval_core.mutual_info_score(None, None, contingency=given),
                           skm.mutual_info_score(None, None, contingency=given))
    assert cluval_core.mutual_info_score(a, b) == cluval_core.mutual_info_score([9], [9], contingency=table)


def test_v_measure_with_beta_like_scikit_learn():
    a, b = [0, 0, 1, 1, 2, 2, 2, 3], [0, 0, 0, 1, 1, 2, 2, 2]
    for beta in (0.0, 0.5, 1.0, 2.0):
        assert _same_value(cluval_core.v_measure_score(a, b, beta=beta), skm.v_measure_score(a, b, beta=beta))


def test_the_former_normaliser_keyword_still_works_with_a_warning():
    a, b = [0, 0, 1, 1, 2], [0, 1, 1, 2, 2]
    for former, now in [("sum", "arithmetic"), ("sqrt", "geometric"), ("max", "max"), ("min", "min")]:
        with pytest.warns(DeprecationWarning, match="use average_method="):
            old = cluval_core.adjusted_mutual_info_score(a, b, normaliser=former)
        assert old == cluval_core.adjusted_mutual_info_score(a, b, average_method=now)
    with pytest.warns(DeprecationWarning):
        assert cluval_core.normalized_mutual_info_score(a, b, normaliser="joint") == \
            cluval_core.compare(a, b).score("nmi_joint")
    with pytest.warns(DeprecationWarning), pytest.raises(cluval_core.CluvalError, match="normaliser must be one of"):
        cluval_core.normalized_mutual_info_score(a, b, normaliser="arithmetic")
