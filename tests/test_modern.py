"""The modern family (docs/definitions.rst, "The modern family"): values by hand, and against each peer.

Peers: scikit-learn (AMI normalisers, homogeneity, completeness, V-measure), clusim
(element-centric similarity, pair-counting measures), the authors' clustering-mi package
(reduced mutual information and its normalisation), the bcubed package, and aricode's MARI
(an R package: its formula is written out below, line for line).
"""

from __future__ import annotations

import math
from fractions import Fraction

import bcubed
import clustering_mi
import numpy as np
import pytest
from clusim import sim as clusim_sim
from clusim.clustering import Clustering
from scipy.special import gammaln
from sklearn import metrics

import cluval_core
from cluval_core import CluvalError, Comparison, compare

# a = [0,0,1,1,2,2,2,3], b = [0,0,1,1,1,2,2,2]: rows r = (2, 2, 3, 1), columns c = (2, 3, 3),
# cells n = 2 (0,0), 2 (1,1), 1 (2,1), 2 (2,2), 1 (3,2); N = 8.
# Pairs: a = 3, m_a = 5, m_b = 7, M = 28, so b = 2, c = 4, d = 19.
HAND_A = [0, 0, 1, 1, 2, 2, 2, 3]
HAND_B = [0, 0, 1, 1, 1, 2, 2, 2]
BY_HAND = {
    # (1/8)(4/2 + 4/3 + 1/3 + 4/3 + 1/3) = 2/3
    "bcubed_precision": Fraction(2, 3),
    # (1/8)(4/2 + 4/2 + 1/3 + 4/3 + 1/1) = 5/6
    "bcubed_recall": Fraction(5, 6),
    "bcubed_f": 2 * Fraction(2, 3) * Fraction(5, 6) / (Fraction(2, 3) + Fraction(5, 6)),
    # n^2 / max(r, c): 4/2 + 4/3 + 1/3 + 4/3 + 1/3 = 16/3, over 8
    "ecs": Fraction(2, 3),
    "pair_jaccard": Fraction(3, 9),
    "sokal_sneath": (Fraction(3, 5) + Fraction(3, 7) + Fraction(19, 21) + Fraction(19, 23)) / 4,
    # T1 = 16, T2 = 8 + 12 + 9 + 18 + 3 = 50, T3 = -(14 + 18 + 22); E = 28 (35 - 3 - 12) / (6 * 70) = 4/3
    "mari": (3 - Fraction(4, 3)) / (Fraction(12, 2) - Fraction(4, 3)),
}


@pytest.mark.parametrize("index_id", sorted(BY_HAND))
def test_values_by_hand(index_id):
    assert compare(HAND_A, HAND_B).score(index_id) == pytest.approx(float(BY_HAND[index_id]), rel=1e-15)


def test_pair_correlation_by_hand():
    c = compare(HAND_A, HAND_B)
    expected = (28 * 3 - 5 * 7) / math.sqrt(5 * 7 * 23 * 21)
    assert c.score("pair_correlation") == pytest.approx(expected, rel=1e-15)
    assert c.score("pair_correlation_distance") == pytest.approx(math.acos(expected) / math.pi, rel=1e-15)


def test_element_scores_by_hand_and_their_mean_is_ecs():
    scores = cluval_core.element_centric_scores(HAND_A, HAND_B)
    # objects of cell (0,0): 2/2; (1,1): 2/3; (2,1): 1/3; (2,2): 2/3; (3,2): 1/3
    assert scores.tolist() == pytest.approx([1, 1, 2 / 3, 2 / 3, 1 / 3, 2 / 3, 2 / 3, 1 / 3], rel=1e-15)
    assert scores.mean() == pytest.approx(compare(HAND_A, HAND_B).score("ecs"), rel=1e-15)
    with pytest.raises(CluvalError, match="labels"):
        Comparison.from_table([[2, 0], [1, 3]]).element_scores  # noqa: B018


def test_the_ecs_definition_equals_its_simplified_form():
    """The definitions' per-cell bracket equals n_ij / max(r_i, c_j) for every cell."""
    rng = np.random.default_rng(4)
    for _ in range(20):
        a, b = rng.integers(0, 5, 200), rng.integers(0, 6, 200)
        c = compare(a, b)
        r, col, v = c.cells
        ri, cj = c.row_sizes[r], c.col_sizes[col]
        bracket = 1 - 0.5 * (v * np.abs(1 / ri - 1 / cj) + (ri - v) / ri + (cj - v) / cj)
        assert np.sum(v * bracket) / c.n == pytest.approx(c.score("ecs"), rel=1e-13)


def _cases():
    rng = np.random.default_rng(2024)
    cases = []
    for n, k_a, k_b in [(12, 2, 3), (60, 3, 3), (200, 5, 8), (400, 7, 4), (150, 4, 12), (90, 1, 3), (90, 3, 1)]:
        a = rng.integers(0, k_a, n)
        b = np.where(rng.random(n) < 0.5, a % k_b, rng.integers(0, k_b, n))
        cases.append((a, b))
    return cases


CASES = _cases()
SKLEARN_AMI = {"ami": "arithmetic", "ami_sqrt": "geometric", "ami_max": "max", "ami_min": "min"}


@pytest.mark.parametrize("index_id", sorted(SKLEARN_AMI))
def test_ami_normalisers_against_scikit_learn(index_id):
    for a, b in CASES:
        ours = compare(a, b).score(index_id)
        theirs = metrics.adjusted_mutual_info_score(a, b, average_method=SKLEARN_AMI[index_id])
        assert ours == pytest.approx(theirs, rel=1e-10, abs=1e-12), (index_id, len(a))


def test_ami_with_a_bound_reached_by_every_random_table_is_undefined():
    """All singletons on one side: every arrangement gives MI = H of the other side = min entropy.
    (MI - EMI) / (min - EMI) is 0/0; scikit-learn returns what rounding leaves (0.67, -1.0)."""
    a, b = [0, 0, 1, 1], [0, 1, 2, 3]
    assert math.isnan(compare(a, b).score("ami_min")) and math.isnan(compare(b, a).score("ami_min"))
    assert math.isfinite(compare(a, b).score("ami_max"))


def test_homogeneity_completeness_and_v_measure_against_scikit_learn():
    for a, b in CASES:
        c = compare(a, b)
        assert c.score("homogeneity") == pytest.approx(metrics.homogeneity_score(a, b), rel=1e-12, abs=1e-15)
        assert c.score("completeness") == pytest.approx(metrics.completeness_score(a, b), rel=1e-12, abs=1e-15)
        if c.score("completeness") > 0:  # beta = 0 is homogeneity (scikit-learn divides by 0 where c = 0)
            assert cluval_core.v_measure_score(a, b, beta=0) == pytest.approx(c.score("homogeneity"), rel=1e-14)
        for beta in (0.5, 1.0, 2.0, 10.0):
            assert cluval_core.v_measure_score(a, b, beta=beta) == pytest.approx(
                metrics.v_measure_score(a, b, beta=beta), rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("beta", [-1, math.nan, math.inf, "1", True, None])
def test_v_measure_refuses_a_bad_beta(beta):
    with pytest.raises(CluvalError, match="beta"):
        cluval_core.v_measure_score([0, 0, 1], [0, 1, 1], beta=beta)


def _clusim(labels):
    return Clustering(elm2clu_dict={i: [int(x)] for i, x in enumerate(labels)})


def test_ecs_against_clusim_element_sim():
    for a, b in CASES:
        for alpha in (0.9, 0.5):  # flat partitions: the restart parameter changes nothing
            theirs = clusim_sim.element_sim(_clusim(a), _clusim(b), alpha=alpha)
            assert compare(a, b).score("ecs") == pytest.approx(theirs, rel=1e-10), len(a)


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


def test_bcubed_against_the_bcubed_package():
    for a, b in CASES:
        reference = {i: {int(x)} for i, x in enumerate(a)}
        candidate = {i: {int(x)} for i, x in enumerate(b)}
        c = compare(a, b)
        precision = bcubed.precision(candidate, reference)
        recall = bcubed.recall(candidate, reference)
        assert c.score("bcubed_precision") == pytest.approx(precision, rel=1e-12)
        assert c.score("bcubed_recall") == pytest.approx(recall, rel=1e-12)
        assert c.score("bcubed_f") == pytest.approx(bcubed.fscore(precision, recall), rel=1e-12)


def _aricode_mari(a, b):
    """aricode's MARI (R/aricode.R), line for line, in floats."""
    c = compare(a, b)
    r, col, nij = c.cells
    ni, nj = c.row_sizes.astype(float), c.col_sizes.astype(float)
    n = len(a)
    choose2 = lambda x: x * (x - 1) / 2  # noqa: E731
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


def test_mari_is_exact_at_large_n():
    """Counts kept in integers: N = 3e9 objects in a 2 x 2 table, against exact fractions."""
    table = np.array([[1_000_000_007, 500_000_000], [499_999_999, 1_000_000_001]], dtype=np.int64)
    c = Comparison.from_table(table)
    n = int(table.sum())
    cells = [int(x) for x in table.ravel()]
    rows, cols = [int(x) for x in table.sum(1)], [int(x) for x in table.sum(0)]
    pairs = lambda xs: sum(x * (x - 1) // 2 for x in xs)  # noqa: E731
    a, m_a, m_b, m = pairs(cells), pairs(rows), pairs(cols), n * (n - 1) // 2
    t = 2 * n + sum(v * rows[i // 2] * cols[i % 2] for i, v in enumerate(cells)) - sum(v * v for v in cells) \
        - sum(x * x for x in rows) - sum(x * x for x in cols)
    expected = Fraction(m * (m_a * m_b - a - t), 6 * math.comb(n, 4))
    assert c.score("mari") == float((a - expected) / (Fraction(m_a + m_b, 2) - expected))


def test_mari_needs_four_objects():
    assert math.isnan(compare([0, 0, 1], [0, 1, 1]).score("mari"))


RMI_SCALE = math.log(2)  # the authors' package works in bits, for the whole table


def test_rmi_against_the_authors_package():
    for a, b in CASES:
        c = compare(a, b)
        n = len(a)
        # the reference is the 'ground truth': the package's second argument
        dirichlet = clustering_mi.mutual_information(b, a, variation="reduced") * RMI_SCALE / n
        assert c.score("rmi") == pytest.approx(dirichlet, rel=1e-7, abs=1e-10), len(a)
        flat = clustering_mi.mutual_information(b, a, variation="reduced_flat") * RMI_SCALE / n
        assert c.score("rmi_flat") == pytest.approx(flat, rel=1e-12, abs=1e-14), len(a)
        if c.k_true > 1:  # the package gives 0 for a one-cluster reference; so do we, unless identical
            normalised = clustering_mi.normalized_mutual_information(b, a, variation="reduced", normalization="second")
            assert c.score("nrmi") == pytest.approx(normalised, rel=1e-7, abs=1e-10), len(a)


def test_rmi_is_asymmetric_and_nrmi_is_one_for_identical_partitions():
    a, b = CASES[2]
    assert compare(a, b).score("rmi") != pytest.approx(compare(b, a).score("rmi"), rel=1e-9)
    assert compare(a, a).score("nrmi") == 1.0
    assert compare(a, np.array(a) + 5).score("rmi") == pytest.approx(compare(a, a).score("rmi"), rel=1e-12)


def test_flat_rmi_counts_tables_exactly_when_the_reference_is_all_singletons():
    """Every column sum 1: Omega = N! / prod r! exactly. (The authors' package returns
    log((N+1)! / prod (r+1)!) in nats here, an off-by-one in its exact branch.)"""
    a, b = np.arange(6), np.array([0, 0, 0, 1, 1, 2])
    c = compare(a, b)
    rows, cols, cells = np.ones(6), np.array([3, 2, 1]), np.ones(6)
    traditional = gammaln(7) - gammaln(rows + 1).sum() - gammaln(cols + 1).sum() + gammaln(cells + 1).sum()
    log_omega = gammaln(7) - gammaln(cols + 1).sum()  # tables with row sums (3, 2, 1), column sums all 1
    assert c.score("rmi_flat") == pytest.approx((traditional - log_omega) / 6, rel=1e-13, abs=1e-15)


@pytest.mark.parametrize("index_id", ["rmi", "rmi_flat", "nrmi", "mari", "bcubed_f", "ecs", "pair_correlation",
                                      "sokal_sneath", "pair_jaccard", "homogeneity", "ami_max"])
def test_sparse_tables_give_the_dense_values(index_id):
    rng = np.random.default_rng(11)
    a = rng.integers(0, 40, 3000)
    b = np.where(rng.random(3000) < 0.7, a, rng.integers(0, 50, 3000))
    dense = compare(a, b)
    from scipy.sparse import csr_array
    sparse = Comparison.from_table(csr_array(dense.table))
    assert sparse.score(index_id) == pytest.approx(dense.score(index_id), rel=1e-12, abs=1e-15)


def test_conventions_for_trivial_partitions():
    ones, singles = [0] * 6, list(range(6))
    assert compare(singles, singles).score("pair_jaccard") == 1.0  # no pair together on either side
    assert compare(singles, singles).score("sokal_sneath") == 1.0
    assert math.isnan(compare(singles, ones).score("sokal_sneath"))
    assert math.isnan(compare(ones, [0, 0, 0, 1, 1, 1]).score("pair_correlation"))
    assert math.isnan(compare(ones, [0, 0, 0, 1, 1, 1]).score("pair_correlation_distance"))
    assert compare(ones, [0, 0, 0, 1, 1, 1]).score("homogeneity") == 1.0  # H_a = 0
    assert compare(ones, [0, 0, 0, 1, 1, 1]).score("completeness") == 0.0
    # the reference's reduced entropy is 0 when it is one cluster: NRMI is 0 (the contract, as the
    # authors define it), for identical partitions too
    assert compare(ones, ones).score("nrmi") == 0.0 and compare(ones, [0, 0, 0, 1, 1, 1]).score("nrmi") == 0.0


@pytest.mark.parametrize("call, kwargs, match", [
    (cluval_core.adjusted_mutual_info_score, {"average_method": "mean"}, "average_method"),
    (cluval_core.adjusted_mutual_info_score, {"average_method": "joint"}, "average_method"),
    (cluval_core.bcubed_score, {"measure": "f1"}, "measure"),
    (cluval_core.reduced_mutual_information, {"reduction": "dm"}, "reduction"),
])
def test_options_are_checked(call, kwargs, match):
    with pytest.raises(CluvalError, match=match):
        call([0, 0, 1, 1], [0, 1, 1, 1], **kwargs)
