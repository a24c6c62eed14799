"""Values computed by hand from the papers, cross-checks against scikit-learn and genieclust,
and the special cases that docs/definitions.rst fixes."""

from __future__ import annotations

import math

import genieclust.compare_partitions as gc
import numpy as np
import pytest
from sklearn import metrics as skm

from cluval_core import Comparison, compare, pair_sets_index

# ---------------------------------------------------------------------- Rand (1971)


def test_rand_six_point_example():
    # Y = {(a,b,c), (d,e,f)}, Y' = {(a,b), (c,d,e), (f)}: 2 pairs together in both, 7 apart in
    # both, 6 mixed, so c(Y, Y') = 9/15 = 0.6 (Rand 1971, section 2).
    c = compare(list("YYYZZZ"), [1, 1, 2, 2, 2, 3])
    assert (c.pair_counts.a, c.pair_counts.d, c.pair_counts.b + c.pair_counts.c) == (2, 7, 6)
    assert c.score("ri") == 0.6


# ---------------------------------------------------------------------- Gagolewski's notes

GAGOLEWSKI_C = np.array([[12, 37, 1], [40, 0, 0], [0, 0, 30]])


def test_genieclust_notes_normalising_permutation():
    # The notes reorder the columns as (2, 1, 3): row 1 pairs with column 2, row 2 with column 1.
    c = Comparison.from_table(GAGOLEWSKI_C)
    assert c.row_normalised_pairing.cols.tolist() == [1, 0, 2]
    assert c.accuracy_pairing.cols.tolist() == [1, 0, 2]
    assert c.score("pa") == (37 + 40 + 30) / 120
    # AAA = ((37/50 + 40/40 + 30/30)/3 - 1/3) / (1 - 1/3) = 0.87
    assert c.score("aaa") == pytest.approx(0.87, abs=1e-15)
    assert c.score("na") == pytest.approx((107 / 120 - 1 / 3) / (2 / 3), abs=1e-15)


# ---------------------------------------------------------------------- PSI paper


def _three_clusters(sizes):
    return np.repeat(np.arange(len(sizes)), sizes)


@pytest.mark.parametrize("third", [2000, 1000, 500, 50])
def test_psi_ignores_cluster_size_imbalance(third):
    # Section 7.4: 200 objects of each of the first two clusters are mislabelled; the third
    # cluster shrinks. S = 0.8 + 0.8 + 1 and, with equal size lists, E = 1: PSI = 1.6/2 = 0.8.
    g = _three_clusters([1000, 1000, third])
    p = g.copy()
    p[:200], p[1000:1200] = 1, 0
    c = compare(g, p)
    assert c.hungarian_pairing.total == pytest.approx(2.6, abs=1e-14)
    assert c.psi_expected == pytest.approx(1.0, abs=1e-14)
    assert c.score("psi") == pytest.approx(0.8, abs=1e-14)


@pytest.mark.parametrize("x", [0, 50, 200, 400, 600])
def test_psi_and_nvd_fall_linearly_with_error(x):
    # Section 7.3, Fig. 16: x objects of every cluster move, half to each other cluster, sizes
    # unchanged. S = 3 (1000 - x)/1000, E = 1, so PSI = (3 (1 - x/1000) - 1) / 2; NVD = CH = x/1000.
    g = _three_clusters([1000, 1000, 1000])
    p = g.copy()
    for k in range(3):
        start = 1000 * k
        p[start:start + x // 2] = (k + 1) % 3
        p[start + x // 2:start + x] = (k + 2) % 3
    c = compare(g, p)
    assert c.score("psi") == pytest.approx((3 * (1 - x / 1000) - 1) / 2, abs=1e-14)
    assert c.score("nvd") == pytest.approx(x / 1000, abs=1e-14)
    assert c.score("ch_greedy") == pytest.approx(x / 1000, abs=1e-14)
    assert c.score("purity") == pytest.approx(1 - x / 1000, abs=1e-14)


@pytest.mark.parametrize("first", [1500, 1700, 2000])
def test_nvd_constant_while_enlarging_first_cluster(first):
    # Section 7.3: between 1500 and 2000 objects, NVD's shared objects sum to 5000 of 6000.
    # The first cluster grows by taking the second cluster's objects (it is empty at 2000).
    g = _three_clusters([1000, 1000, 1000])
    p = g.copy()
    p[1000:first] = 0
    assert compare(g, p).score("nvd") == pytest.approx(1 - 5000 / 6000, abs=1e-14)


def test_psi_expected_pairs_largest_with_largest():
    # E = sum_i (r_(i) c_(i) / N) / max(r_(i), c_(i)) over sizes sorted descending.
    table = np.array([[30, 0, 0, 0], [0, 20, 5, 0], [0, 0, 5, 40]])
    c = Comparison.from_table(table)
    r, k, n = [45, 30, 25], [40, 30, 20], 100  # sizes sorted descending
    expected = sum(ri * ki / n / max(ri, ki) for ri, ki in zip(r, k))
    assert c.psi_expected == pytest.approx(expected, abs=1e-15)
    s = 30 / 30 + 20 / 25 + 40 / 45
    assert c.hungarian_pairing.total == pytest.approx(s, abs=1e-15)
    assert c.score("psi") == pytest.approx((s - expected) / (4 - expected), abs=1e-15)
    assert c.score("psi_simplified") == pytest.approx((s - 1) / 3, abs=1e-15)
    assert len(c.hungarian_pairing) == 3 and c.hungarian_pairing.unpaired_cols.tolist() == [2]


def test_psi_special_cases():
    assert pair_sets_index([1, 1, 1], [2, 2, 2]) == 1.0  # K = K' = 1
    # S < E gives 0 (a pairing worse than chance), never a negative value
    c = Comparison.from_table([[5, 4, 5], [2, 0, 3], [5, 2, 5]])
    # rows 14, 5, 12; columns 12, 6, 13; N = 31
    assert c.hungarian_pairing.total == pytest.approx(4 / 14 + 3 / 13 + 5 / 12, abs=1e-15)
    assert c.psi_expected == pytest.approx((13 + 12 + 5) / 31, abs=1e-15)
    assert c.score("psi") == 0.0


# ---------------------------------------------------------------------- CI and greedy pairing


def test_centroid_index_counts_orphans_both_ways():
    # Reference 4 clusters; candidate merges 0+1 and splits 3 into two: one orphan each way.
    truth = np.repeat([0, 1, 2, 3], 10)
    pred = np.repeat([0, 0, 1, 2], 10)
    pred[35:] = 3
    c = compare(truth, pred)
    forward, backward = c.jaccard_mapping
    assert forward.targets.tolist() == [0, 0, 1, 2]  # clusters 0 and 1 both map to merged 0
    assert forward.orphans.tolist() == [3]
    assert backward.targets.tolist() == [0, 2, 3, 3]
    assert backward.orphans.tolist() == [1]
    assert c.score("ci_partition") == 1.0
    shared = (10 + 10 + 10 + 5) + (10 + 10 + 5 + 5)
    assert c.score("csi_partition") == pytest.approx(shared / 80, abs=1e-15)


def test_centroid_based_index_uses_feature_space():
    X = np.array([[0.0, 0], [0, 1], [10, 0], [10, 1], [20, 0], [20, 1]])
    truth = [0, 0, 1, 1, 2, 2]
    pred = [0, 0, 0, 0, 1, 2]  # merges the first two, splits the third
    c = compare(truth, pred, X=X)
    assert c.centroids[1].tolist() == [[5.0, 0.5], [20.0, 0.0], [20.0, 1.0]]
    assert c.score("ci_centroid") == 1.0
    assert c.score("ci_partition") == 1.0
    assert compare(truth, truth, X=X).score("cr") == 1.0
    assert c.score("cr") < 1.0


def test_greedy_pairing_can_miss_the_optimum():
    table = np.array([[10, 9], [9, 0]])
    c = Comparison.from_table(table)
    assert c.greedy_pairing.overlap.tolist() == [10, 0]
    assert c.score("ch_greedy") == pytest.approx(1 - 10 / 28)
    assert c.score("ch_optimal") == pytest.approx(1 - 18 / 28)


# ---------------------------------------------------------------------- special cases


def test_one_cluster_on_each_side():
    c = compare([1, 1, 1, 1], ["a", "a", "a", "a"])
    s = c.scores()
    assert s["ari"] == 1.0 and s["ami"] == 1.0 and s["nmi_sum"] == 1.0 and s["nvi"] == 0.0
    assert s["psi"] == 1.0 and s["na"] == 1.0 and s["aaa"] == 1.0 and s["ci_partition"] == 0.0
    assert math.isnan(s["afm"])


def test_one_cluster_on_one_side():
    c = compare([0, 0, 1, 1], [5, 5, 5, 5])
    s = c.scores()
    assert s["nmi_sum"] == 0.0 and s["nmi_max"] == 0.0 and s["ami"] == 0.0 and s["nvi"] == 1.0
    assert math.isnan(compare([5, 5, 5, 5], [0, 0, 1, 1]).score("aaa"))


def test_fowlkes_mallows_undefined_for_singletons():
    assert math.isnan(compare([0, 1, 2, 3], [0, 0, 1, 1]).score("fowlkes_mallows"))


def test_all_singletons_identical():
    c = compare([0, 1, 2, 3, 4], [9, 8, 7, 6, 5])
    assert c.score("ari") == 1.0 and c.score("ami") == 1.0 and c.score("psi") == 1.0


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


# ---------------------------------------------------------------------- cross-checks


def _pairs():
    rng = np.random.default_rng(11)
    out = []
    for n, k_a, k_b, share in [(50, 3, 3, 0.5), (1000, 5, 5, 0.2), (2000, 10, 7, 0.5), (500, 2, 9, 0.9),
                               (3000, 30, 30, 0.3), (200, 4, 4, 1.0)]:
        a = rng.integers(0, k_a, n)
        b = np.where(rng.random(n) < share, rng.integers(0, k_b, n), a % k_b)
        out.append((a, b))
    return out


PAIRS = _pairs()

SKLEARN = {
    "ri": skm.rand_score,
    "ari": skm.adjusted_rand_score,
    "mi": skm.mutual_info_score,
    "nmi_sum": lambda a, b: skm.normalized_mutual_info_score(a, b, average_method="arithmetic"),
    "nmi_sqrt": lambda a, b: skm.normalized_mutual_info_score(a, b, average_method="geometric"),
    "nmi_max": lambda a, b: skm.normalized_mutual_info_score(a, b, average_method="max"),
    "nmi_min": lambda a, b: skm.normalized_mutual_info_score(a, b, average_method="min"),
    "ami": skm.adjusted_mutual_info_score,
    "fowlkes_mallows": skm.fowlkes_mallows_score,
}


@pytest.mark.parametrize("index_id", list(SKLEARN))
@pytest.mark.parametrize("case", range(len(PAIRS)))
def test_agrees_with_scikit_learn(index_id, case):
    a, b = PAIRS[case]
    assert compare(a, b).score(index_id) == pytest.approx(SKLEARN[index_id](a, b), abs=1e-9)


def test_vi_and_v_measure_agree_with_scikit_learn():
    from scipy.stats import entropy as scipy_entropy

    def entropy(labels):
        return scipy_entropy(np.unique(labels, return_counts=True)[1])

    for a, b in PAIRS:
        c = compare(a, b)
        mi = skm.mutual_info_score(a, b)
        assert c.entropies.mutual_information == pytest.approx(mi, abs=1e-12)
        # VI = H_a + H_b - 2 MI with scikit-learn's MI and SciPy's entropies; NVI divides by H_a + H_b
        vi = entropy(a) + entropy(b) - 2 * mi
        assert c.score("vi") == pytest.approx(vi, abs=1e-12)
        assert c.score("nvi") == pytest.approx(vi / (entropy(a) + entropy(b)), abs=1e-12)
        assert c.score("nmi_sum") == pytest.approx(skm.v_measure_score(a, b), abs=1e-9)
        h, completeness, _ = skm.homogeneity_completeness_v_measure(a, b)
        assert mi / c.entropies.true == pytest.approx(h, abs=1e-12)
        assert mi / c.entropies.pred == pytest.approx(completeness, abs=1e-12)


def _codes(labels):
    return np.unique(labels, return_inverse=True)[1]


GENIECLUST = {
    "psi": lambda a, b: gc.pair_sets_index(a, b),
    "psi_simplified": lambda a, b: gc.pair_sets_index(a, b, simplified=True),
    "na": gc.normalized_pivoted_accuracy,
    "aaa": gc.normalized_clustering_accuracy,
    "ari": gc.adjusted_rand_score,
    "ri": gc.rand_score,
}


@pytest.mark.parametrize("index_id", list(GENIECLUST))
@pytest.mark.parametrize("case", range(len(PAIRS)))
def test_agrees_with_genieclust_on_square_tables(index_id, case):
    a, b = PAIRS[case]
    c = compare(a, b)
    if c.k_true != c.k_pred:  # genieclust pads non-square tables: make this one square
        b = np.where(np.arange(len(a)) % 3 == 0, (a + 1) % c.k_true, a)
        c = compare(a, b)
    ours = c.score(index_id)
    theirs = GENIECLUST[index_id](_codes(a), _codes(b))
    assert ours == pytest.approx(theirs, abs=1e-9)


def test_psi_agrees_with_genieclust_on_nonsquare_tables():
    # docs/definitions.rst: E pairs the largest with the largest, as genieclust does
    rng = np.random.default_rng(2)
    for k_a, k_b in [(3, 5), (6, 2), (4, 9)]:
        a = rng.integers(0, k_a, 700)
        b = np.where(rng.random(700) < 0.4, rng.integers(0, k_b, 700), a % k_b)
        assert pair_sets_index(a, b) == pytest.approx(gc.pair_sets_index(_codes(a), _codes(b)), abs=1e-9)


def test_label_gaps_do_not_create_empty_clusters():
    # genieclust would build max-min+1 rows; we keep only clusters that occur
    a = np.array([0, 0, 0, 10, 10, 10])
    b = np.array([1, 1, 2, 2, 3, 3])
    c = compare(a, b)
    assert c.table.shape == (2, 3)
    assert c.score("psi") == compare(a // 10, b).score("psi")


# ---------------------------------------------------------------------- soft partitions


def _one_hot(labels):
    codes = _codes(labels)
    out = np.zeros((len(labels), codes.max() + 1))
    out[np.arange(len(labels)), codes] = 1.0
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


@pytest.mark.parametrize("n, k_a, k_b, skew", [(20_000, 30, 40, False), (50_000, 8, 60, True), (3_000, 200, 3, True)])
def test_windowed_expected_mutual_information_equals_the_full_sum(n, k_a, k_b, skew):
    # scikit-learn sums every hypergeometric term; the window must not change the value
    from sklearn.metrics.cluster._expected_mutual_info_fast import expected_mutual_information as full_sum

    from cluval_core import expected_mutual_information

    rng = np.random.default_rng(n)
    p_a = rng.dirichlet(np.full(k_a, 0.3 if skew else 5.0))
    a = rng.choice(k_a, size=n, p=p_a)
    b = rng.integers(0, k_b, n)
    table = compare(a, b).table
    ours = expected_mutual_information(table.sum(1), table.sum(0))
    assert ours == pytest.approx(full_sum(table, n), rel=1e-10, abs=1e-14)


def test_soft_and_hardened_tables_name_clusters_alike():
    from cluval_core.experiments import soft_versus_crisp

    V = np.array([[0.9, 0.1], [0.6, 0.4], [0.2, 0.8], [0.0, 1.0]])
    soft, hard, _ = soft_versus_crisp(["x", "x", "y", "y"], V, ["psi"])
    assert soft.row_labels.tolist() == hard.row_labels.tolist() == ["x", "y"]
    assert soft.col_labels.tolist() == hard.col_labels.tolist() == [0, 1]
