"""The information-theoretic family (MI, the NMIs, VI and NVI, the AMIs, homogeneity,
completeness and V-measure, the reduced mutual informations): values by hand, the computation
in steps, special cases, and agreement with scikit-learn, SciPy and the RMI authors' package."""

from __future__ import annotations

import math

import clustering_mi
import numpy as np
import pytest
from scipy.special import gammaln
from scipy.stats import entropy as scipy_entropy
from sklearn import metrics as skm

import cluval_core
from cluval_core import CluvalError, compare
from family_cases import CASES, HAND_A, HAND_B, PAIRS, steps_by_symbol

# ---------------------------------------------------------------------- by hand


def _h(sizes):
    n = sum(sizes)
    return -sum(s / n * math.log(s / n) for s in sizes)


# HAND_A against HAND_B: rows (2, 2, 3, 1), columns (2, 3, 3), cells 2, 2, 1, 2, 1 of N = 8
H_A, H_B = _h([2, 2, 3, 1]), _h([2, 3, 3])
MI = (2 / 8) * math.log(8 * 2 / (2 * 2)) + (2 / 8) * math.log(8 * 2 / (2 * 3)) + (1 / 8) * math.log(8 / (3 * 3)) \
    + (2 / 8) * math.log(8 * 2 / (3 * 3)) + (1 / 8) * math.log(8 / (1 * 3))


def test_entropies_and_normalised_values_by_hand():
    c = compare(HAND_A, HAND_B)
    assert c.score("mi") == pytest.approx(MI, rel=1e-14)
    assert c.score("nmi_sum") == pytest.approx(2 * MI / (H_A + H_B), rel=1e-14)
    assert c.score("nmi_sqrt") == pytest.approx(MI / math.sqrt(H_A * H_B), rel=1e-14)
    assert c.score("nmi_max") == pytest.approx(MI / max(H_A, H_B), rel=1e-14)
    assert c.score("nmi_min") == pytest.approx(MI / min(H_A, H_B), rel=1e-14)
    assert c.score("nmi_joint") == pytest.approx(MI / (H_A + H_B - MI), rel=1e-14)
    assert c.score("vi") == pytest.approx(H_A + H_B - 2 * MI, rel=1e-14)
    assert c.score("homogeneity") == pytest.approx(MI / H_A, rel=1e-14)
    assert c.score("completeness") == pytest.approx(MI / H_B, rel=1e-14)


def test_nmi_in_steps_by_hand():
    steps = steps_by_symbol(compare(HAND_A, HAND_B), "nmi_sum")
    assert list(steps) == ["H_a", "H_b", "MI", "norm", "NMI_sum"]
    assert steps["H_a"] == pytest.approx(H_A, rel=1e-14) and steps["H_b"] == pytest.approx(H_B, rel=1e-14)
    assert steps["MI"] == pytest.approx(MI, rel=1e-14)
    assert steps["norm"] == pytest.approx((H_A + H_B) / 2, rel=1e-14)
    assert steps["NMI_sum"] == compare(HAND_A, HAND_B).score("nmi_sum")


def test_vi_in_steps_by_hand():
    steps = steps_by_symbol(compare(HAND_A, HAND_B), "vi")
    assert steps["VI"] == pytest.approx(H_A + H_B - 2 * MI, rel=1e-14)


def test_flat_rmi_counts_tables_exactly_when_the_reference_is_all_singletons():
    """Every column sum 1: Omega = N! / prod r! exactly. (The authors' package returns
    log((N+1)! / prod (r+1)!) in nats here, an off-by-one in its exact branch.)"""
    a, b = np.arange(6), np.array([0, 0, 0, 1, 1, 2])
    c = compare(a, b)
    rows, cols, cells = np.ones(6), np.array([3, 2, 1]), np.ones(6)
    traditional = gammaln(7) - gammaln(rows + 1).sum() - gammaln(cols + 1).sum() + gammaln(cells + 1).sum()
    log_omega = gammaln(7) - gammaln(cols + 1).sum()  # tables with row sums (3, 2, 1), column sums all 1
    assert c.score("rmi_flat") == pytest.approx((traditional - log_omega) / 6, rel=1e-13, abs=1e-15)


# ---------------------------------------------------------------------- special cases


def test_one_cluster_on_each_side():
    s = compare([1, 1, 1, 1], ["a", "a", "a", "a"]).scores()
    assert s["ami"] == 1.0 and s["nmi_sum"] == 1.0 and s["nvi"] == 0.0


def test_one_cluster_on_one_side():
    s = compare([0, 0, 1, 1], [5, 5, 5, 5]).scores()
    assert s["nmi_sum"] == 0.0 and s["nmi_max"] == 0.0 and s["ami"] == 0.0 and s["nvi"] == 1.0


def test_all_singletons_identical():
    assert compare([0, 1, 2, 3, 4], [9, 8, 7, 6, 5]).score("ami") == 1.0


def test_ami_with_a_bound_reached_by_every_random_table_is_undefined():
    """All singletons on one side: every arrangement gives MI = H of the other side = min entropy.
    (MI - EMI) / (min - EMI) is 0/0; scikit-learn returns what rounding leaves (0.67, -1.0)."""
    a, b = [0, 0, 1, 1], [0, 1, 2, 3]
    assert math.isnan(compare(a, b).score("ami_min")) and math.isnan(compare(b, a).score("ami_min"))
    assert math.isfinite(compare(a, b).score("ami_max"))


def test_conventions_for_trivial_partitions():
    ones = [0] * 6
    assert compare(ones, [0, 0, 0, 1, 1, 1]).score("homogeneity") == 1.0  # H_a = 0
    assert compare(ones, [0, 0, 0, 1, 1, 1]).score("completeness") == 0.0
    # the reference's reduced entropy is 0 when it is one cluster: NRMI is 0 (the definitions,
    # as the authors give them), for identical partitions too
    assert compare(ones, ones).score("nrmi") == 0.0 and compare(ones, [0, 0, 0, 1, 1, 1]).score("nrmi") == 0.0


@pytest.mark.parametrize("candidate", [[0, 1, 2], [0, 0, 1], [0, 1, 2, 3, 4, 5, 6, 7], [0] * 8, [0, 1] * 50])
def test_rmi_of_one_reference_cluster_is_exactly_zero(candidate):
    """One reference cluster carries no information: each term of both encodings meets its own
    negative, so RMI is 0 exactly, not within a dot product's rounding (an FMA kernel left 6e-16)."""
    c = compare([0] * len(candidate), candidate)
    assert c.score("rmi") == 0.0 and c.steps("rmi").value == 0.0


def test_rmi_is_asymmetric_and_nrmi_is_one_for_identical_partitions():
    a, b = CASES[2]
    assert compare(a, b).score("rmi") != pytest.approx(compare(b, a).score("rmi"), rel=1e-9)
    assert compare(a, a).score("nrmi") == 1.0
    assert compare(a, np.array(a) + 5).score("rmi") == pytest.approx(compare(a, a).score("rmi"), rel=1e-12)


@pytest.mark.parametrize("beta", [-1, math.nan, math.inf, "1", True, None])
def test_v_measure_refuses_a_bad_beta(beta):
    with pytest.raises(CluvalError, match="beta"):
        cluval_core.v_measure_score([0, 0, 1], [0, 1, 1], beta=beta)


@pytest.mark.parametrize("call, kwargs, match", [
    (cluval_core.adjusted_mutual_info_score, {"average_method": "mean"}, "average_method"),
    (cluval_core.adjusted_mutual_info_score, {"average_method": "joint"}, "average_method"),
    (cluval_core.reduced_mutual_information, {"reduction": "dm"}, "reduction"),
])
def test_options_are_checked(call, kwargs, match):
    with pytest.raises(CluvalError, match=match):
        call([0, 0, 1, 1], [0, 1, 1, 1], **kwargs)


# ---------------------------------------------------------------------- peers

SKLEARN = {
    "mi": skm.mutual_info_score,
    "nmi_sum": lambda a, b: skm.normalized_mutual_info_score(a, b, average_method="arithmetic"),
    "nmi_sqrt": lambda a, b: skm.normalized_mutual_info_score(a, b, average_method="geometric"),
    "nmi_max": lambda a, b: skm.normalized_mutual_info_score(a, b, average_method="max"),
    "nmi_min": lambda a, b: skm.normalized_mutual_info_score(a, b, average_method="min"),
    "ami": skm.adjusted_mutual_info_score,
}


@pytest.mark.parametrize("index_id", list(SKLEARN))
@pytest.mark.parametrize("case", range(len(PAIRS)))
def test_agrees_with_scikit_learn(index_id, case):
    a, b = PAIRS[case]
    assert compare(a, b).score(index_id) == pytest.approx(SKLEARN[index_id](a, b), abs=1e-9)


def test_vi_and_v_measure_agree_with_scikit_learn():
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


SKLEARN_AMI = {"ami": "arithmetic", "ami_sqrt": "geometric", "ami_max": "max", "ami_min": "min"}


@pytest.mark.parametrize("index_id", sorted(SKLEARN_AMI))
def test_ami_normalisers_against_scikit_learn(index_id):
    for a, b in CASES:
        ours = compare(a, b).score(index_id)
        theirs = skm.adjusted_mutual_info_score(a, b, average_method=SKLEARN_AMI[index_id])
        assert ours == pytest.approx(theirs, rel=1e-10, abs=1e-12), (index_id, len(a))


def test_homogeneity_completeness_and_v_measure_against_scikit_learn():
    for a, b in CASES:
        c = compare(a, b)
        assert c.score("homogeneity") == pytest.approx(skm.homogeneity_score(a, b), rel=1e-12, abs=1e-15)
        assert c.score("completeness") == pytest.approx(skm.completeness_score(a, b), rel=1e-12, abs=1e-15)
        if c.score("completeness") > 0:  # beta = 0 is homogeneity (scikit-learn divides by 0 where c = 0)
            assert cluval_core.v_measure_score(a, b, beta=0) == pytest.approx(c.score("homogeneity"), rel=1e-14)
        for beta in (0.5, 1.0, 2.0, 10.0):
            assert cluval_core.v_measure_score(a, b, beta=beta) == pytest.approx(
                skm.v_measure_score(a, b, beta=beta), rel=1e-12, abs=1e-15)


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


def test_fair_nmi_is_nmi_times_the_penalty_for_another_number_of_clusters():
    """ClustPy's fair NMI: exp(-|K_true - K_pred| / K_true) times scikit-learn's NMI (arithmetic mean)."""
    from sklearn.metrics import normalized_mutual_info_score

    for a, b in PAIRS:
        k_a, k_b = len(np.unique(a)), len(np.unique(b))
        expected = math.exp(-abs(k_a - k_b) / k_a) * normalized_mutual_info_score(a, b)
        assert compare(a, b).score("fnmi") == pytest.approx(expected, rel=1e-12)
    assert compare([0, 0, 1, 1], [0, 1, 2, 3]).score("fnmi") == pytest.approx(math.exp(-1) * 2 / 3, rel=1e-15)
    assert compare([0, 0, 1, 1], [1, 1, 0, 0]).score("fnmi") == 1.0
    # asymmetric: the penalty reads the reference's number of clusters
    assert compare([0, 1, 2, 3], [0, 0, 1, 1]).score("fnmi") == pytest.approx(math.exp(-0.5) * 2 / 3, rel=1e-15)
