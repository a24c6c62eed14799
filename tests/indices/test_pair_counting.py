"""The pair-counting family (RI, ARI, Fowlkes-Mallows, AFM, MARI, the pair correlation and its
distance, the pairs' Jaccard index, Sokal-Sneath): values by hand, the computation in steps,
special cases, and agreement with scikit-learn, genieclust, clusim and aricode's formula."""

from __future__ import annotations

import math
from fractions import Fraction

import genieclust.compare_partitions as gc
import numpy as np
import pytest
from clusim import sim as clusim_sim
from clusim.clustering import Clustering
from sklearn import metrics as skm

from cluval_core import Comparison, compare
from family_cases import CASES, HAND_A, HAND_B, PAIRS, codes, steps_by_symbol

# ---------------------------------------------------------------------- by hand

# HAND_A against HAND_B: a = 3, b = 2, c = 4, d = 19, M = 28 (family_cases.py).
BY_HAND = {
    "ri": Fraction(3 + 19, 28),
    "ari": (3 - Fraction(5 * 7, 28)) / (Fraction(5 + 7, 2) - Fraction(5 * 7, 28)),
    "pair_jaccard": Fraction(3, 9),
    "sokal_sneath": (Fraction(3, 5) + Fraction(3, 7) + Fraction(19, 21) + Fraction(19, 23)) / 4,
    # T1 = 16, T2 = 8 + 12 + 9 + 18 + 3 = 50, T3 = -(14 + 18 + 22); E = 28 (35 - 3 - 12) / (6 * 70) = 4/3
    "mari": (3 - Fraction(4, 3)) / (Fraction(12, 2) - Fraction(4, 3)),
}


@pytest.mark.parametrize("index_id", sorted(BY_HAND))
def test_values_by_hand(index_id):
    assert compare(HAND_A, HAND_B).score(index_id) == pytest.approx(float(BY_HAND[index_id]), rel=1e-15)


def test_rand_six_point_example():
    # Y = {(a,b,c), (d,e,f)}, Y' = {(a,b), (c,d,e), (f)}: 2 pairs together in both, 7 apart in
    # both, 6 mixed, so c(Y, Y') = 9/15 = 0.6 (Rand 1971, section 2).
    c = compare(list("YYYZZZ"), [1, 1, 2, 2, 2, 3])
    assert (c.pair_counts.a, c.pair_counts.d, c.pair_counts.b + c.pair_counts.c) == (2, 7, 6)
    assert c.score("ri") == 0.6


def test_pair_correlation_by_hand():
    c = compare(HAND_A, HAND_B)
    expected = (28 * 3 - 5 * 7) / math.sqrt(5 * 7 * 23 * 21)
    assert c.score("pair_correlation") == pytest.approx(expected, rel=1e-15)
    assert c.score("pair_correlation_distance") == pytest.approx(math.acos(expected) / math.pi, rel=1e-15)


def test_ari_in_steps_by_hand():
    steps = steps_by_symbol(compare(HAND_A, HAND_B), "ari")
    assert steps == {"a": 3, "b": 2, "c": 4, "M": 28, "d": 19, "E": Fraction(5, 4), "max": 6,
                     "ARI": pytest.approx(7 / 19, rel=1e-15)}
    assert steps["ARI"] == compare(HAND_A, HAND_B).score("ari")


def test_pair_counts_exact_for_a_hundred_million_objects():
    n = 10**8
    table = np.array([[n // 2 - 1, 1], [3, n // 2 - 3]], dtype=np.int64)
    c = Comparison.from_table(table)
    a = sum(v * (v - 1) // 2 for v in table.ravel().tolist())
    rows = sum(v * (v - 1) // 2 for v in table.sum(1).tolist())
    cols = sum(v * (v - 1) // 2 for v in table.sum(0).tolist())
    assert c.pair_counts.a == a and c.pair_counts.b == rows - a and c.pair_counts.c == cols - a
    assert c.pair_counts.total == n * (n - 1) // 2
    assert isinstance(c.pair_counts.a, int)
    assert 0.999 < c.score("ari") < 1.0


@pytest.mark.parametrize("table", [
    [[1_000_000_007, 500_000_000], [499_999_999, 1_000_000_001]],  # N = 3e9: sums in Python integers
    [[2**29 + 7, 2**29 - 3, 1], [2**29 - 5, 2**29 - 11, 2]],  # N = 2^31 - 9: the compiled 64-bit sums' largest
    [[7, 0, 3, 1], [2, 9, 0, 4], [1, 1, 6, 0]]])
def test_mari_is_exact_at_large_n(table):
    """Counts kept in integers, up to N = 3e9 objects, against exact fractions."""
    table = np.array(table, dtype=np.int64)
    c = Comparison.from_table(table)
    n = int(table.sum())
    k_b = table.shape[1]
    cells = [int(x) for x in table.ravel()]
    rows, cols = [int(x) for x in table.sum(1)], [int(x) for x in table.sum(0)]
    pairs = lambda xs: sum(x * (x - 1) // 2 for x in xs)  # noqa: E731 (a one-line helper, named for reading)
    a, m_a, m_b, m = pairs(cells), pairs(rows), pairs(cols), n * (n - 1) // 2
    t = 2 * n + sum(v * rows[i // k_b] * cols[i % k_b] for i, v in enumerate(cells)) - sum(v * v for v in cells) \
        - sum(x * x for x in rows) - sum(x * x for x in cols)
    expected = Fraction(m * (m_a * m_b - a - t), 6 * math.comb(n, 4))
    assert c.score("mari") == float((a - expected) / (Fraction(m_a + m_b, 2) - expected))


# ---------------------------------------------------------------------- special cases


def test_one_cluster_on_each_side():
    c = compare([1, 1, 1, 1], ["a", "a", "a", "a"])
    assert c.score("ari") == 1.0
    assert math.isnan(c.score("afm"))


def test_all_singletons_identical():
    assert compare([0, 1, 2, 3, 4], [9, 8, 7, 6, 5]).score("ari") == 1.0


def test_fowlkes_mallows_undefined_for_singletons():
    assert math.isnan(compare([0, 1, 2, 3], [0, 0, 1, 1]).score("fowlkes_mallows"))


def test_mari_needs_four_objects():
    assert math.isnan(compare([0, 0, 1], [0, 1, 1]).score("mari"))


def test_conventions_for_trivial_partitions():
    ones, singles = [0] * 6, list(range(6))
    assert compare(singles, singles).score("pair_jaccard") == 1.0  # no pair together on either side
    assert compare(singles, singles).score("sokal_sneath") == 1.0
    assert math.isnan(compare(singles, ones).score("sokal_sneath"))
    assert math.isnan(compare(ones, [0, 0, 0, 1, 1, 1]).score("pair_correlation"))
    assert math.isnan(compare(ones, [0, 0, 0, 1, 1, 1]).score("pair_correlation_distance"))


# ---------------------------------------------------------------------- peers

SKLEARN = {
    "ri": skm.rand_score,
    "ari": skm.adjusted_rand_score,
    "fowlkes_mallows": skm.fowlkes_mallows_score,
}


@pytest.mark.parametrize("index_id", list(SKLEARN))
@pytest.mark.parametrize("case", range(len(PAIRS)))
def test_agrees_with_scikit_learn(index_id, case):
    a, b = PAIRS[case]
    assert compare(a, b).score(index_id) == pytest.approx(SKLEARN[index_id](a, b), abs=1e-9)


@pytest.mark.parametrize("index_id, theirs", [("ari", gc.adjusted_rand_score), ("ri", gc.rand_score)])
@pytest.mark.parametrize("case", range(len(PAIRS)))
def test_agrees_with_genieclust(index_id, theirs, case):
    a, b = PAIRS[case]
    assert compare(a, b).score(index_id) == pytest.approx(theirs(codes(a), codes(b)), abs=1e-9)


def _clusim(labels):
    return Clustering(elm2clu_dict={i: [int(x)] for i, x in enumerate(labels)})


def test_pair_counting_measures_against_clusim():
    for a, b in CASES:
        c = compare(a, b)
        ca, cb = _clusim(a), _clusim(b)
        assert c.score("pair_jaccard") == pytest.approx(clusim_sim.jaccard_index(ca, cb), rel=1e-12)
        if math.isfinite(c.score("pair_correlation")):
            # clusim divides (ad - bc) by the product of the four margins, not by its square root
            p = c.pair_counts
            product = (p.a + p.b) * (p.a + p.c) * (p.d + p.b) * (p.d + p.c)
            theirs = clusim_sim.pearson_correlation(ca, cb)
            assert c.score("pair_correlation") == pytest.approx(theirs * math.sqrt(product), rel=1e-10)


def _aricode_mari(a, b):
    """aricode's MARI (R/aricode.R), line for line, in floats."""
    c = compare(a, b)
    r, col, nij = c.cells
    ni, nj = c.row_sizes.astype(float), c.col_sizes.astype(float)
    n = len(a)
    choose2 = lambda x: x * (x - 1) / 2  # noqa: E731 (as aricode names it)
    stot, srow, scol = choose2(nij.astype(float)).sum(), choose2(ni).sum(), choose2(nj).sum()
    t1 = 2 * n
    t2 = np.sum(nij * ni[r] * nj[col])
    t3 = -np.sum(nij.astype(float) ** 2) - np.sum(ni**2) - np.sum(nj**2)
    expected = (srow * scol - stot - (t1 + t2 + t3)) / (6 * math.comb(n, 4)) * math.comb(n, 2)
    maximum = (srow + scol) / 2
    if expected == maximum and stot != 0:
        return 1.0
    return (stot - expected) / (maximum - expected)


def test_mari_against_aricodes_formula():
    for a, b in CASES:
        assert compare(a, b).score("mari") == pytest.approx(_aricode_mari(a, b), rel=1e-10, abs=1e-12)


# ---------------------------------------------------------------------- the ratios of the pair counts
# HAND_A against HAND_B: a = 3, b = 2, c = 4, d = 19, M = 28.
RATIOS_BY_HAND = {
    "mirkin": Fraction(2 * (2 + 4)),
    "hubert": Fraction(3 + 19 - 2 - 4, 28),
    "pair_recall": Fraction(3, 5),
    "pair_precision": Fraction(3, 7),
    "czekanowski_dice": Fraction(6, 12),
    "kulczynski": (Fraction(3, 5) + Fraction(3, 7)) / 2,
    "russel_rao": Fraction(3, 28),
    "rogers_tanimoto": Fraction(22, 22 + 12),
    "sokal_sneath_2": Fraction(22, 22 + 3),
    "southwood": Fraction(3, 6),
}


@pytest.mark.parametrize("index_id", sorted(RATIOS_BY_HAND))
def test_ratios_of_the_pair_counts_by_hand(index_id):
    c = compare(HAND_A, HAND_B)
    assert c.score(index_id) == float(RATIOS_BY_HAND[index_id])  # one rounding of the exact ratio
    assert c.steps(index_id).value == c.score(index_id)


def _brute_pairs(x, y):
    """a, b, c, d over every unordered pair of objects, one pair at a time."""
    counts = [0, 0, 0, 0]
    for i in range(len(x)):
        for j in range(i + 1, len(x)):
            together_x, together_y = x[i] == x[j], y[i] == y[j]
            counts[0 if together_x and together_y else 1 if together_x else 2 if together_y else 3] += 1
    return counts


DEFINITIONS = {  # as the peers write them, from a, b, c, d
    "mirkin": lambda a, b, c, d: 2 * (b + c),
    "hubert": lambda a, b, c, d: (a + d - b - c) / (a + b + c + d),
    "pair_recall": lambda a, b, c, d: a / (a + b),
    "pair_precision": lambda a, b, c, d: a / (a + c),
    "czekanowski_dice": lambda a, b, c, d: 2 * a / (2 * a + b + c),
    "kulczynski": lambda a, b, c, d: (a / (a + b) + a / (a + c)) / 2,
    "russel_rao": lambda a, b, c, d: a / (a + b + c + d),
    "rogers_tanimoto": lambda a, b, c, d: ((a + d) / 2) / ((a + d) / 2 + b + c),
    "sokal_sneath_2": lambda a, b, c, d: (2 * (a + d)) / (2 * (a + d) + b + c),
    "southwood": lambda a, b, c, d: a / (b + c),
}


@pytest.mark.parametrize("case", range(len(CASES)))
def test_ratios_agree_with_their_definitions_on_every_pair(case):
    x, y = CASES[case]
    a, b, cc, d = _brute_pairs(x.tolist(), y.tolist())
    c = compare(x, y)
    assert (c.pair_counts.a, c.pair_counts.b, c.pair_counts.c, c.pair_counts.d) == (a, b, cc, d)
    for index_id, definition in DEFINITIONS.items():
        try:
            expected = definition(a, b, cc, d)
        except ZeroDivisionError:
            assert math.isnan(c.score(index_id)), index_id  # not identical here, so undefined
            continue
        assert c.score(index_id) == pytest.approx(expected, rel=1e-14), index_id


def test_ratios_of_identical_partitions_and_their_conventions():
    labels = [0, 0, 1, 1, 1, 2]
    c = compare(labels, [5, 5, 7, 7, 7, 9])
    expected = {"mirkin": 0.0, "hubert": 1.0, "pair_recall": 1.0, "pair_precision": 1.0, "czekanowski_dice": 1.0,
                "kulczynski": 1.0, "rogers_tanimoto": 1.0, "sokal_sneath_2": 1.0, "southwood": math.inf,
                "russel_rao": 4 / 15}
    assert {i: c.score(i) for i in expected} == expected
    singletons = compare(range(5), range(5))  # no pair together on either side: a = b = c = 0
    assert [singletons.score(i) for i in ("pair_recall", "czekanowski_dice", "kulczynski", "southwood")] == \
        [1.0, 1.0, 1.0, math.inf]
    apart = compare(range(5), [0, 0, 1, 1, 2])  # the reference all singletons: a / (a + b) = 0 / 0
    assert math.isnan(apart.score("pair_recall")) and math.isnan(apart.score("kulczynski"))
    assert apart.score("pair_precision") == 0.0
    assert apart.steps("pair_recall")[-1].note == "the denominator is 0: undefined"


def test_mirkin_is_the_rand_index_in_ordered_pairs_and_its_anatomy_counts_each_objects_disagreements():
    for x, y in PAIRS:
        c = compare(x, y)
        n = len(x)
        assert c.score("mirkin") == pytest.approx(n * (n - 1) * (1 - c.score("ri")), rel=1e-12)
        sizes_a, sizes_b = np.bincount(codes(x)), np.bincount(codes(y))
        table = np.asarray(c.table, dtype=np.int64)
        meila = int((sizes_a ** 2).sum() + (sizes_b ** 2).sum() - 2 * (table ** 2).sum())  # Meilă (2007)
        assert c.score("mirkin") == meila
        parts = c.contributions("mirkin")
        assert parts.constant == 0 and (parts.cells >= 0).all() and parts.cells.sum() == meila


def _all_tables(rows, cols):
    """Every table of counts with these margins and its probability under the permutation model."""
    from itertools import product
    from math import comb, factorial, prod

    n = sum(rows)
    total = factorial(n) // prod(factorial(x) for x in rows) // prod(factorial(x) for x in cols)
    out = []

    def fill(i, left, cells):
        if i == len(rows) - 1:
            if all(v >= 0 for v in left):
                table = cells + [left]
                count = prod(factorial(x) for x in rows) * prod(factorial(x) for x in cols)
                count //= prod(factorial(v) for line in table for v in line)
                out.append((np.array(table), Fraction(count * comb(n, n), factorial(n))))
            return
        for row in product(*[range(min(rows[i], v) + 1) for v in left]):
            if sum(row) == rows[i]:
                fill(i + 1, [v - r for v, r in zip(left, row)], cells + [list(row)])

    fill(0, list(cols), [])
    assert sum(p for _, p in out) == 1 and total > 0
    return out


@pytest.mark.parametrize("rows, cols", [([3, 2, 2], [4, 3]), ([2, 2, 1, 2], [3, 2, 2]), ([4, 3], [2, 2, 2, 1])])
def test_exact_expectations_and_deviations_of_the_linear_ratios_by_enumeration(rows, cols):
    ids = ["mirkin", "hubert", "pair_recall", "pair_precision", "czekanowski_dice", "kulczynski", "russel_rao",
           "chi2", "frobenius", "fnmi"]
    tables = _all_tables(rows, cols)
    found = Comparison.from_table(tables[0][0]).chance(ids, n_samples=2, seed=0)
    for index_id in ids:
        values = [(Comparison.from_table(t).score(index_id), p) for t, p in tables]
        mean = sum(float(p) * v for v, p in values)
        assert found.loc[index_id, "method"] == "exact", index_id
        assert found.loc[index_id, "expected"] == pytest.approx(mean, rel=1e-12, abs=1e-14), index_id
        if index_id not in ("chi2", "frobenius", "fnmi"):  # the pair ratios' SD is exact too
            sd = math.sqrt(sum(float(p) * (v - mean) ** 2 for v, p in values))
            assert found.loc[index_id, "sd"] == pytest.approx(sd, rel=1e-10, abs=1e-14), index_id


def test_the_anatomy_of_the_ratios_and_the_new_indices_adds_up_to_the_value():
    for x, y in PAIRS[:4]:
        c = compare(x, y)
        for index_id in ("hubert", "pair_recall", "pair_precision", "czekanowski_dice", "kulczynski", "russel_rao",
                         "rogers_tanimoto", "sokal_sneath_2", "southwood",
                         "chi2", "frobenius", "fnmi", "split_join_true", "split_join_pred"):
            parts = c.contributions(index_id)
            assert parts.cells.sum() + parts.constant == pytest.approx(c.score(index_id), rel=1e-12, abs=1e-12)


def test_chi_squared_is_scipys_and_the_frobenius_distance_the_co_membership_matrices():
    from scipy.stats import chi2_contingency

    for x, y in PAIRS[:4]:
        c = compare(x, y)
        assert c.score("chi2") == pytest.approx(chi2_contingency(np.asarray(c.table), correction=False)[0], rel=1e-11)
        one_hot_a, one_hot_b = np.eye(c.k_true)[codes(x)], np.eye(c.k_pred)[codes(y)]
        p_a = one_hot_a @ np.diag(1 / one_hot_a.sum(0)) @ one_hot_a.T
        p_b = one_hot_b @ np.diag(1 / one_hot_b.sum(0)) @ one_hot_b.T
        assert c.score("frobenius") == pytest.approx(((p_a - p_b) ** 2).sum(), rel=1e-10)
    assert compare([0, 0, 1, 1], [1, 1, 0, 0]).score("frobenius") == 0.0
    assert compare([0, 0, 0, 0], [0, 1, 0, 1]).score("chi2") == 0.0  # one cluster: S is 1, never below


def test_mcnemar_of_the_pairs_is_clustercrits():
    from cluval_core.indices.pair_counting import pair_mcnemar

    for x, y in PAIRS[:3]:
        p = compare(x, y).pair_counts
        a, b, cc, d = _brute_pairs(x.tolist(), y.tolist())
        assert pair_mcnemar(p) == pytest.approx((b - cc) / math.sqrt(b + cc), rel=1e-14)
        assert pair_mcnemar(compare(y, x).pair_counts) == pytest.approx(-pair_mcnemar(p), rel=1e-14)
    assert math.isnan(pair_mcnemar(compare([0, 1, 1], [2, 3, 3]).pair_counts))


# ---------------------------------------------------------------------- an index of your own
@pytest.fixture
def yule():
    from cluval_core import pair_index, remove_index

    info = pair_index("yule_q", lambda a, b, c, d: (a * d - b * c) / (a * d + b * c), name="Yule's Q",
                      range=(-1, 1), symmetric=True)
    yield info
    remove_index("yule_q")


def test_an_index_of_your_own_is_computed_like_cluvals(yule):
    from cluval_core import INDICES, compare_many, pair_index_score
    from cluval_core.indices.peers import peer_names
    from cluval_core.outputs.plots.colours import index_colour

    c = compare(HAND_A, HAND_B)  # a = 3, b = 2, c = 4, d = 19
    assert c.score("yule_q") == (3 * 19 - 2 * 4) / (3 * 19 + 2 * 4)
    assert c.steps("yule_q").value == c.score("yule_q") and "f(3, 2, 4, 19)" in str(c.steps("yule_q"))
    assert "yule_q" in c.scores() and INDICES["yule_q"].call.endswith('index_id="yule_q")')
    assert pair_index_score(HAND_A, HAND_B, index_id="yule_q") == c.score("yule_q")
    found = c.chance(["yule_q"], n_samples=50, seed=0)
    assert found.loc["yule_q", "method"] == "Monte Carlo" and -1 <= found.loc["yule_q", "expected"] <= 1
    assert math.isfinite(c.uncertainty(["yule_q"]).loc["yule_q", "se"])
    assert compare_many({"x": HAND_A, "y": HAND_B}, ["yule_q"])["yule_q"].loc["x", "y"] == c.score("yule_q")
    assert (peer_names("yule_q")["relation"] == "absent").all() and index_colour("yule_q").startswith("#")
    assert math.isnan(compare([0, 1, 2], [0, 1, 2]).score("yule_q"))  # 0 / 0 in f: NaN


def test_an_index_of_your_own_is_refused_with_reasons_and_removed_on_request(yule):
    from cluval_core import CluvalError, pair_index, remove_index

    def f(a, b, c, d):
        return a

    for bad, match in [(dict(index_id="yule_q"), "is taken"), (dict(index_id="no way"), "letters, digits"),
                       (dict(index_id="ari"), "is taken"), (dict(index_id=3), "letters, digits"),
                       (dict(index_id="x1", f=3), "f must be a function"),
                       (dict(index_id="x1", range=(1, 0)), "range must be"),
                       (dict(index_id="x1", range=[0, 1]), "range must be"),
                       (dict(index_id="x1", symmetric="yes"), "symmetric must be True or False"),
                       (dict(index_id="x1", name=5), "name must be text")]:
        with pytest.raises(CluvalError, match=match):
            pair_index(**{"f": f, **bad})
    with pytest.raises(CluvalError, match="only an index you added"):
        remove_index("ari")
    with pytest.raises(CluvalError, match="unknown index id 'x1'"):
        remove_index("x1")
