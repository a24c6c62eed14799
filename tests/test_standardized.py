"""The standardized indices (SRI, SMI), PMI₂ and the registered Tsallis index: the exact variance of
the mutual information against every table with the margins and against random tables, the
z-scores' mean 0 and SD 1 by enumeration, PMI₂ against the exact p-value, values by hand, the
anatomy and the conventions."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import cluval_core
from cluval_core import Comparison, compare
from cluval_core.core import emi
from cluval_core.core.attainable import tables_with_margins
from cluval_core.indices import properties as P

# (rows, cols): margins small enough to enumerate every table; unequal, tied, lopsided
MARGINS = [([2, 2], [2, 2]), ([3, 2], [2, 3]), ([5, 4, 3, 1], [6, 4, 3]), ([6, 1, 1], [2, 2, 2, 2]),
           ([9, 2, 2], [5, 5, 3]), ([4, 4, 4], [4, 4, 4]), ([3, 3, 2, 2, 1], [4, 4, 3]), ([7, 7], [13, 1])]


def _every_table(rows, cols):
    """(probability, comparison) of every table with these margins under the permutation model."""
    n = sum(rows)
    fixed = sum(math.lgamma(v + 1) for v in (*rows, *cols)) - math.lgamma(n + 1)
    for table in tables_with_margins(rows, cols):
        yield math.exp(fixed - sum(math.lgamma(v + 1) for v in table.ravel())), Comparison.from_table(table)


def _moments(rows, cols, index_id):
    """(mean, variance) of an index over every table with the margins."""
    first = second = 0.0
    for weight, c in _every_table(rows, cols):
        value = c.score(index_id)
        first += weight * value
        second += weight * value * value
    return first, second - first * first


# ---------------------------------------------------------------------- the variance of MI
@pytest.mark.parametrize(("rows", "cols"), MARGINS)
def test_the_variance_of_mi_is_the_variance_over_every_table(rows, cols):
    _, variance = _moments(rows, cols, "mi")
    assert emi.mutual_information_variance(rows, cols) == pytest.approx(variance, rel=1e-11, abs=1e-14)
    # the sides swapped and the sizes reordered: the same variance
    assert emi.mutual_information_variance(cols[::-1], rows) == pytest.approx(variance, rel=1e-11, abs=1e-14)


def test_the_variance_of_mi_by_hand():
    # two halves against two halves of four objects: MI is log 2 with probability 1/3, else 0
    assert emi.mutual_information_variance([2, 2], [2, 2]) == pytest.approx(math.log(2) ** 2 * (1 / 3 - 1 / 9),
                                                                             rel=1e-14)
    assert emi.mutual_information_variance([4], [1, 3]) == 0.0  # one cluster: every table is the same
    assert emi.mutual_information_variance([1, 1, 1, 1], [2, 2]) == pytest.approx(0.0, abs=1e-14)  # singletons


def _lopsided(n, k, rng):
    """Margins whose windows reach far into each other's tails: two large rows and a third of half
    their size against two columns (k = 0); a row of 99 % of the objects (k = -1), where the
    windows' first probabilities underflow."""
    if k == 0:
        return np.repeat([0, 1, 2], [1400, 1400, 700]), rng.permutation(np.repeat([0, 1], [1500, 2000]))
    return np.repeat([0, 1], [99 * n // 100, n // 100]), rng.permutation(np.repeat([0, 1, 2], [n // 2, 3 * n // 10,
                                                                                                n // 5]))


@pytest.mark.parametrize(("n", "k", "seed"), [(3000, 3, 0), (2000, 12, 1), (600, 40, 2), (3500, 0, 3),
                                              (100_000, -1, 4)])
def test_the_variance_of_mi_matches_random_tables(n, k, seed):
    """Against the variance over 3 000 random tables: within 5 of its standard errors (the fourth
    moment estimated from the same tables)."""
    rng = np.random.default_rng(seed)
    c = compare(*(_lopsided(n, k, rng) if k <= 0 else (rng.integers(0, k, n), rng.integers(0, k, n))))
    draw = stats.random_table(c.row_sizes, c.col_sizes)
    values = np.array([Comparison.from_table(t).score("mi") for t in draw.rvs(3000, random_state=rng)])
    centred = values - values.mean()
    sample = centred.var(ddof=1)
    se = math.sqrt((np.mean(centred ** 4) - sample ** 2) / len(values))
    assert abs(emi.mutual_information_variance(c.row_sizes, c.col_sizes) - sample) < 5 * se


def test_a_side_of_many_sizes_against_two_costs_no_more_than_its_transpose():
    # 17 distinct sizes against 442 and 4 558: the other rows' expectations are needed only near each
    # column's own window, and the side with fewer distinct sizes is taken as the rows
    rows = [504, 657, 461, 79, 173, 261, 161, 205, 105, 168, 31, 100, 574, 379, 1016, 32, 94]
    assert emi.variance_terms([442, 4558], rows, 5000) < emi.MAX_VARIANCE_TERMS
    emi._mutual_information_variance.cache_clear()
    assert emi.mutual_information_variance(rows, [442, 4558]) == emi.mutual_information_variance([4558, 442], rows)
    assert emi._mutual_information_variance.cache_info().misses == 1  # one computation for both orders


def test_the_variance_is_not_computed_beyond_the_budget(monkeypatch):
    monkeypatch.setattr(emi, "MAX_VARIANCE_TERMS", 10)
    emi._mutual_information_variance.cache_clear()
    try:
        assert math.isnan(emi.mutual_information_variance([30, 30, 40], [50, 50]))
        c = compare(np.repeat([0, 1, 2], [30, 30, 40]), np.tile([0, 1], 50))
        assert math.isnan(c.score("smi"))
        assert "terms cluval sums" in c.steps("smi")[-1].note
    finally:
        emi._mutual_information_variance.cache_clear()


# ---------------------------------------------------------------------- z-scores: mean 0, SD 1
@pytest.mark.parametrize(("rows", "cols"), [m for m in MARGINS if m[0] != [7, 7]])
@pytest.mark.parametrize("index_id", ["sri", "smi"])
def test_a_z_score_has_mean_0_and_variance_1_over_every_table(rows, cols, index_id):
    mean, variance = _moments(rows, cols, index_id)
    assert mean == pytest.approx(0.0, abs=1e-11)
    assert variance == pytest.approx(1.0, rel=1e-10)
    # chance() says so exactly
    frame = Comparison.from_table(next(tables_with_margins(rows, cols))).chance([index_id], n_samples=10, seed=0)
    assert frame.loc[index_id, "method"] == "exact"
    assert (frame.loc[index_id, "expected"], frame.loc[index_id, "sd"]) == (0.0, 1.0)


def test_sri_by_hand():
    # a = 3 pairs together in both; m_a = m_b = 7 of M = 28, so E[a] = 7/4
    a, b = [0, 0, 0, 1, 1, 1, 2, 2], [0, 0, 1, 1, 1, 2, 2, 2]
    c = compare(a, b)
    values = [(sum(math.comb(int(v), 2) for v in t.ravel()), w) for w, t in (
        (w, c2.table) for w, c2 in _every_table([3, 3, 2], [2, 3, 3]))]
    mean = sum(x * w for x, w in values)
    sd = math.sqrt(sum(x * x * w for x, w in values) - mean * mean)
    assert mean == pytest.approx(7 / 4, rel=1e-13)
    assert c.score("sri") == pytest.approx((3 - 7 / 4) / sd, rel=1e-12)
    assert c.steps("sri")["E"] == pytest.approx(7 / 4)
    # equally the z-score of the Rand index, whose mean and SD chance() gives in closed form
    ri = c.chance(["ri"], n_samples=10, seed=0).loc["ri"]
    assert c.score("sri") == pytest.approx((c.score("ri") - ri["expected"]) / ri["sd"], rel=1e-12)


def test_smi_by_hand():
    a, b = [0, 0, 0, 1, 1, 1, 2, 2], [0, 0, 1, 1, 1, 2, 2, 2]
    mean, variance = _moments([3, 3, 2], [3, 3, 2], "mi")
    c = compare(a, b)
    assert c.score("smi") == pytest.approx((c.score("mi") - mean) / math.sqrt(variance), rel=1e-11)
    assert cluval_core.standardized_mutual_info_score(a, b) == c.score("smi")


@pytest.mark.parametrize("index_id", ["sri", "smi", "pmi2"])
def test_z_scores_are_undefined_where_every_table_is_alike(index_id):
    assert math.isnan(compare([0, 0, 1, 1], [0, 0, 0, 0]).score(index_id))  # one cluster
    assert math.isnan(compare([0, 1, 2, 3], [0, 0, 1, 1]).score(index_id))  # all singletons
    assert "0/0" in compare([0, 1, 2, 3], [0, 0, 1, 1]).steps(index_id)[-1].note
    soft = Comparison.from_table(np.array([[1.5, 0.5], [0.25, 1.75]]))
    assert math.isnan(soft.score(index_id))


# ---------------------------------------------------------------------- PMI₂
def test_pmi2_is_the_normal_law_of_sri_and_close_to_the_exact_p_value():
    rows, cols = [6, 6, 6], [6, 6, 6]
    first = next(tables_with_margins(rows, cols))
    laws = [(w, sum(math.comb(int(v), 2) for v in c.table.ravel())) for w, c in _every_table(rows, cols)]
    for table in (first, np.array([[4, 1, 1], [1, 4, 1], [1, 1, 4]]), np.array([[2, 2, 2], [2, 2, 2], [2, 2, 2]])):
        c = Comparison.from_table(table)
        a = c.pair_counts.a
        exact = sum(w for w, x in laws if x < a) + sum(w for w, x in laws if x == a) / 2  # the mid-p value
        assert c.score("pmi2") == pytest.approx(0.5 * math.erfc(-c.score("sri") / math.sqrt(2)), rel=1e-14)
        assert abs(c.score("pmi2") - exact) < 0.05, (table.tolist(), c.score("pmi2"), exact)


def test_pmi2_grows_with_the_pairs_together_in_both():
    tables = [np.array([[5 - k, k], [k, 5 - k]]) for k in range(3)]  # a falls as k grows, margins fixed
    values = [Comparison.from_table(t).score("pmi2") for t in tables]
    assert values == sorted(values, reverse=True) and 0 < values[-1] < 0.5 < values[0] < 1


# ---------------------------------------------------------------------- the registered Tsallis index
def test_the_registered_tsallis_index_is_the_function_at_its_q():
    rng = np.random.default_rng(7)
    a, b = rng.integers(0, 4, 60), rng.integers(0, 5, 60)
    q = cluval_core.INDICES["atmi"].function_options["q"]
    assert compare(a, b).score("atmi") == cluval_core.adjusted_tsallis_mutual_info_score(a, b, q=q)
    steps = compare(a, b).steps("atmi")
    assert steps.value == compare(a, b).score("atmi")
    assert steps["MIq"] == pytest.approx(steps["Hq_a"] + steps["Hq_b"] - steps["Hq_ab"], rel=1e-14)


@pytest.mark.parametrize(("a", "b"), [([0, 0, 0, 1, 1, 2, 2], [0, 1, 1, 1, 2, 2, 0]),
                                      ([0, 0, 1, 1, 1, 2], [0, 0, 0, 1, 2, 2])])
def test_the_adjusted_indices_have_mean_0_over_every_table(a, b):
    for index_id, value in zip(["atmi", "sri", "smi"], P.expected_values(a, b, ["atmi", "sri", "smi"])):
        assert value == pytest.approx(0.0, abs=1e-12), index_id


@pytest.mark.parametrize("index_id", ["atmi", "sri", "smi"])
def test_the_anatomy_adds_up_to_the_value(index_id):
    rng = np.random.default_rng(3)
    c = compare(rng.integers(0, 3, 80), rng.integers(0, 4, 80))
    parts = c.contributions(index_id)
    assert parts.total == pytest.approx(c.score(index_id), rel=1e-12)


def test_the_tsallis_index_is_0_where_every_random_table_is_this_one():
    # all singletons against two clusters: MI_q equals its expectation, so 0 exactly (not rounding noise)
    for a, b in [([0, 1, 2], [0, 1, 1]), ([0, 1, 2, 3], [0, 0, 1, 1]), ([0, 0, 1, 1], [0, 0, 0, 0])]:
        c = compare(a, b)
        assert c.score("atmi") == 0.0 and c.steps("atmi").value == 0.0
        assert c.contributions("atmi").total == 0.0  # the convention's value, as the constant
    assert compare([0, 0, 0], [1, 1, 1]).score("atmi") == 1.0  # both one cluster: identical


def test_work_over_many_margins_leaves_smi_out_unless_it_is_named():
    rng = np.random.default_rng(5)
    c = compare(rng.integers(0, 3, 60), rng.integers(0, 3, 60))
    assert "smi" not in c.uncertainty().index and "smi" not in c.chance(n_samples=5, seed=0, model="num").index
    assert "smi" in c.chance(n_samples=5, seed=0).index  # the permutation model: one set of margins
    named = c.uncertainty(["smi", "ari"])
    assert list(named.index) == ["smi", "ari"] and np.isfinite(named.loc["smi", "se"])
    assert "smi" in c.chance(["smi"], n_samples=5, seed=0, model="num").index


def test_the_variance_is_nan_rather_than_a_wrong_number_and_lopsided_margins_are_right():
    # a row of 29 000 of 30 000 objects: the windows reach deep into the tails (once 0.0 from NaN)
    rows, cols = [29000, 1000], [20000, 10000]
    exact = emi.mutual_information_variance(rows, cols)
    rng = np.random.default_rng(11)
    values = np.array([Comparison.from_table(t).score("mi") for t in stats.random_table(rows, cols).rvs(
        3000, random_state=rng)])
    se = math.sqrt((np.mean((values - values.mean()) ** 4) - values.var() ** 2) / len(values))
    assert exact > 0 and abs(exact - values.var(ddof=1)) < 5 * se


def test_the_tsallis_index_refuses_q_within_a_millionth_of_1_and_huge_counts():
    a, b = [0, 0, 0, 1, 1, 1, 2, 2], [0, 0, 1, 1, 1, 2, 2, 2]
    with pytest.raises(cluval_core.CluvalError, match="within 1e-06 of 1"):
        cluval_core.adjusted_tsallis_mutual_info_score(a, b, q=1 + 1e-12)
    near = cluval_core.adjusted_tsallis_mutual_info_score(a, b, q=1 + 1e-6)
    assert near == pytest.approx(cluval_core.adjusted_mutual_info_score(a, b), abs=1e-5)
    huge = Comparison.from_table(np.array([[2, 1, 0], [0, 3, 0], [0, 1, 1]]) * 10**15)
    assert math.isnan(huge.score("atmi")) and "terms cluval sums" in huge.steps("atmi")[-1].note


def test_the_variance_of_mi_keeps_about_eleven_digits_whichever_side_rows_are():
    """E[S^2] - E[S]^2 still cancels a few digits: the same sum taken with the other side as rows
    (which the function chooses for other sizes) agrees to about 1e-11 of the variance, as
    docs/definitions.rst says, no closer and no further."""
    rng = np.random.default_rng(5)
    gaps = []
    for _ in range(4):
        a, b = (np.sort(rng.multinomial(2000, rng.dirichlet(np.full(k, 5.0)))) for k in rng.integers(4, 9, 2))
        a, b = a[a > 0], b[b > 0]
        one, other = (emi._mutual_information_variance(x.tobytes(), y.tobytes()) for x, y in ((a, b), (b, a)))
        gaps.append(abs(one - other) / one)
    assert max(gaps) < 1e-10 and max(gaps) > 0


@pytest.mark.parametrize(("rows", "cols"), [([799, 706, 1386, 13234, 42], [7502, 656, 8009]),
                                            ([1849, 628, 5411, 2], [3427, 22, 891, 169, 2185, 857, 339])])
def test_the_variance_of_mi_keeps_its_digits_when_one_cluster_holds_most_objects(rows, cols):
    """A row of 13 234 of 16 167 objects: the two orientations of the same sum agree to 2e-10 of the
    variance (the other rows' expected z log z, taken as running sums of logarithms, once let them
    drift 2e-9 apart)."""
    a, b = (np.sort(np.array(x, dtype=np.int64)) for x in (rows, cols))
    one, other = (emi._mutual_information_variance(x.tobytes(), y.tobytes()) for x, y in ((a, b), (b, a)))
    assert abs(one - other) < 2e-10 * one
