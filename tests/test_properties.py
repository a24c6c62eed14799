"""Registry-driven property tests: every index, every property, one parametrised test each."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cluval_core import INDICES, compare

# Classifications written out here, independently of the registry, and checked against it:
# a new index that nobody classified fails test_union_every_index_is_classified.
SYMMETRIC = {"ri", "ari", "fowlkes_mallows", "afm", "mi", "nmi_sum", "nmi_sqrt", "nmi_max", "nmi_min",
             "nmi_joint", "vi", "nvi", "ami", "nvd", "ch_optimal", "pa", "na", "psi", "psi_simplified",
             "ci_partition", "csi_partition", "ci_centroid", "csi_centroid", "cr",
             "ami_sqrt", "ami_max", "ami_min", "mari", "pair_correlation", "pair_correlation_distance",
             "pair_jaccard", "sokal_sneath", "bcubed_f", "ecs", "mirkin", "hubert", "czekanowski_dice", "kulczynski",
             "russel_rao", "rogers_tanimoto", "sokal_sneath_2", "southwood", "chi2", "frobenius", "sri", "pmi2",
             "smi", "atmi"}
ASYMMETRIC = {"f_measure", "f_measure_pred", "purity", "purity_inverse", "aaa", "ch_greedy",
              "homogeneity", "completeness", "bcubed_precision", "bcubed_recall", "rmi", "rmi_flat", "nrmi",
              "pair_recall", "pair_precision", "fnmi", "split_join_true", "split_join_pred"}
DISTANCES = {"vi", "nvi", "nvd", "ch_greedy", "ch_optimal", "ci_partition", "ci_centroid", "pair_correlation_distance",
             "mirkin", "split_join_true", "split_join_pred", "frobenius"}
CHANCE_ADJUSTED = {"ari", "afm", "ami", "aaa", "psi", "ami_sqrt", "ami_max", "ami_min", "mari", "pair_correlation",
                   "rmi", "rmi_flat", "nrmi", "sri", "pmi2", "smi", "atmi"}
# Chance-adjusted by standardising: z-scores (mean 0 and SD 1 by chance) and a p-value's complement
# (about 1/2 by chance, and 1 for any agreement far beyond chance)
Z_SCORES = {"sri", "smi"}
P_VALUES = {"pmi2"}
NEEDS_DATA = {"ci_centroid", "csi_centroid", "cr"}
# Pairs of (index, transposed twin): f(a, b) == twin(b, a)
TWINS = {"f_measure": "f_measure_pred", "purity": "purity_inverse", "homogeneity": "completeness",
         "bcubed_precision": "bcubed_recall", "pair_recall": "pair_precision",
         "split_join_true": "split_join_pred"}
# Similarities whose top is reached only by one cluster on both sides, not by every pair of identical
# partitions: identical partitions score the share of pairs that share a cluster (Russel-Rao's a / M).
NOT_TOP_WHEN_IDENTICAL = {"russel_rao"}

ALL = list(INDICES)


def test_union_every_index_is_classified():
    assert SYMMETRIC | ASYMMETRIC == set(INDICES)
    assert not SYMMETRIC & ASYMMETRIC


@pytest.mark.parametrize("index_id", ALL)
def test_registry_matches_classification(index_id):
    info = INDICES[index_id]
    assert info.symmetric == (index_id in SYMMETRIC)
    assert info.higher_is_better == (index_id not in DISTANCES)
    assert info.chance_adjusted == (index_id in CHANCE_ADJUSTED)
    assert info.needs_data == (index_id in NEEDS_DATA)
    assert info.range[0] < info.range[1]
    assert info.range[0] <= info.best <= info.range[1]
    assert info.best == (info.range[1] if info.higher_is_better else info.range[0])
    assert info.formula and info.reference and info.caveat and info.name


def _cases():
    """(labels_true, labels_pred, X) triples of several shapes, tie-free tables."""
    rng = np.random.default_rng(20161)
    cases = []
    for n, k_a, k_b in [(300, 3, 3), (500, 5, 8), (400, 7, 4), (250, 2, 6)]:
        a = rng.integers(0, k_a, n)
        b = np.where(rng.random(n) < 0.6, a % k_b, rng.integers(0, k_b, n))
        X = rng.normal(size=(n, 2)) + a[:, None] * 3.0
        cases.append((a, b, X))
    return cases


CASES = _cases()


def _scores(a, b, X):
    return compare(a, b, X=X).scores()


@pytest.fixture(scope="module")
def base_scores():
    return [_scores(a, b, X) for a, b, X in CASES]


@pytest.mark.parametrize("index_id", sorted(SYMMETRIC))
@pytest.mark.parametrize("case", range(len(CASES)))
def test_symmetric_indices_are_symmetric(index_id, case, base_scores):
    a, b, X = CASES[case]
    swapped = compare(b, a, X=X).score(index_id)
    assert swapped == pytest.approx(base_scores[case][index_id], rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("index_id", sorted(ASYMMETRIC - {"ch_greedy"}))
def test_asymmetric_indices_really_are(index_id, base_scores):
    differs = [not math.isclose(compare(b, a).score(index_id), base_scores[i][index_id], rel_tol=1e-9)
               for i, (a, b, X) in enumerate(CASES)]
    assert any(differs)


@pytest.mark.parametrize("index_id", sorted(TWINS))
def test_one_way_indices_have_a_transposed_twin(index_id, base_scores):
    for i, (a, b, _) in enumerate(CASES):
        assert compare(b, a).score(TWINS[index_id]) == pytest.approx(base_scores[i][index_id], rel=1e-12)


def _relabelings(labels):
    distinct = np.unique(labels)
    rng = np.random.default_rng(len(labels))
    perm = rng.permutation(len(distinct))
    lut = dict(zip(distinct.tolist(), perm.tolist()))
    ints = np.array([lut[v] for v in labels.tolist()])
    return {
        "permuted": ints,
        "gaps": ints * 7919 + 13,
        "negative": -ints - 5,
        "huge": ints.astype(object) * 10**30 + 1,
        "strings": np.array([f"cluster {v}" for v in ints.tolist()]),
        "mixed": np.array([v if v % 2 else f"c{v}" for v in ints.tolist()], dtype=object),
        "list": ints.tolist(),
        "series": pd.Series(ints * 3),
        "categorical": pd.Series(pd.Categorical([f"k{v}" for v in ints.tolist()])),
        "floats": ints.astype(float) * 2 + 1,
    }


@pytest.mark.parametrize("form", list(_relabelings(np.arange(3))))
@pytest.mark.parametrize("case", range(len(CASES)))
def test_every_index_ignores_label_numbering_and_format(form, case, base_scores):
    a, b, X = CASES[case]
    a2 = _relabelings(a)[form]
    b2 = _relabelings(b + 100)[form]
    got = compare(a2, b2, X=X).scores()
    assert set(got) == set(base_scores[case])
    for index_id, value in base_scores[case].items():  # bit for bit: sums never depend on the order
        assert got[index_id] == value or (math.isnan(value) and math.isnan(got[index_id])), index_id


@pytest.mark.parametrize("index_id", ALL)
def test_values_lie_in_the_registered_range(index_id, base_scores):
    lo, hi = INDICES[index_id].range
    for scores in base_scores:
        assert lo - 1e-12 <= scores[index_id] <= hi + 1e-12


@pytest.mark.parametrize("index_id", [i for i in ALL
                                      if math.isfinite(INDICES[i].best) and i not in NOT_TOP_WHEN_IDENTICAL])
@pytest.mark.parametrize("case", range(len(CASES)))
def test_identical_partitions_give_the_best_value(index_id, case):
    a, _, X = CASES[case]
    b = _relabelings(a)["strings"]
    assert compare(a, b, X=X).score(index_id) == INDICES[index_id].best


@pytest.mark.parametrize("case", range(len(CASES)))
def test_russel_rao_of_identical_partitions_is_the_share_of_pairs_together(case):
    a, _, X = CASES[case]
    sizes = np.unique(a, return_counts=True)[1]
    together = sum(int(s) * (int(s) - 1) // 2 for s in sizes)
    assert compare(a, _relabelings(a)["strings"]).score("russel_rao") == together / (len(a) * (len(a) - 1) // 2)
    assert compare(np.zeros(9), np.zeros(9)).score("russel_rao") == 1.0  # the top: one cluster on both sides


@pytest.mark.parametrize("index_id", [i for i in ALL if INDICES[i].chance_adjusted and i not in
                                      {"aaa"} | Z_SCORES | P_VALUES])
def test_chance_adjusted_indices_are_near_zero_for_random_partitions(index_id):
    rng = np.random.default_rng(7)
    values = [compare(*[rng.integers(0, 5, 5000) for _ in range(2)]).score(index_id) for _ in range(5)]
    assert abs(np.mean(values)) < 0.02


@pytest.mark.parametrize("index_id", sorted(Z_SCORES | P_VALUES))
def test_standardised_indices_are_standard_for_random_partitions(index_id):
    rng = np.random.default_rng(9)
    values = np.array([compare(*[rng.integers(0, 4, 400) for _ in range(2)]).score(index_id) for _ in range(60)])
    if index_id in Z_SCORES:  # mean 0 within 3 standard errors, SD about 1
        assert abs(values.mean()) < 3 / math.sqrt(len(values)) and 0.7 < values.std() < 1.3
    else:  # about uniform on [0, 1]
        assert abs(values.mean() - 0.5) < 3 * math.sqrt(1 / 12 / len(values))


def test_aaa_is_near_zero_for_random_partitions():
    rng = np.random.default_rng(8)
    values = [compare(rng.integers(0, 5, 5000), rng.integers(0, 5, 5000)).score("aaa") for _ in range(5)]
    assert abs(np.mean(values)) < 0.03


@pytest.mark.parametrize("index_id", [i for i in ALL if INDICES[i].higher_is_better and i not in NEEDS_DATA])
def test_similarities_fall_as_noise_grows(index_id):
    rng = np.random.default_rng(3)
    truth = np.repeat(np.arange(4), 250)
    values = []
    for share in (0.0, 0.3, 0.9):
        pred = truth.copy()
        flip = rng.random(truth.size) < share
        pred[flip] = rng.integers(0, 4, flip.sum())
        values.append(compare(truth, pred).score(index_id))
    if index_id in P_VALUES:  # 1 for both agreements far beyond chance
        assert values[0] >= values[1] > values[2]
    else:
        assert values[0] > values[1] > values[2]


# ---------------------------------------------------------------------- hypothesis
labels = st.lists(st.integers(0, 4), min_size=2, max_size=40)


@st.composite
def label_pairs(draw):
    a = draw(labels)
    b = draw(st.lists(st.integers(-2, 3), min_size=len(a), max_size=len(a)))
    return np.array(a), np.array(b)


@settings(max_examples=150, deadline=None)
@given(label_pairs())
def test_hypothesis_bounds_and_pair_counts(pair):
    a, b = pair
    c = compare(a, b)
    n = len(a)
    assert c.pair_counts.total == n * (n - 1) // 2
    assert min(c.pair_counts.a, c.pair_counts.b, c.pair_counts.c, c.pair_counts.d) >= 0
    assert c.table.sum() == n
    for index_id, value in c.scores().items():
        lo, hi = INDICES[index_id].range
        assert math.isnan(value) or lo - 1e-9 <= value <= hi + 1e-9, (index_id, value)


@settings(max_examples=150, deadline=None)
@given(label_pairs(), st.randoms(use_true_random=False))
def test_hypothesis_relabelling_and_symmetry(pair, rnd):
    a, b = pair
    base = compare(a, b).scores()
    values = sorted(set(a.tolist()))
    shuffled = values[:]
    rnd.shuffle(shuffled)
    lut = {v: f"x{w}" for v, w in zip(values, shuffled)}
    relabelled = compare([lut[v] for v in a.tolist()], b).scores()
    swapped = compare(b, a).scores()
    for index_id, value in base.items():  # ties included: the cluster that occurs first wins
        assert relabelled[index_id] == value or (math.isnan(value) and math.isnan(relabelled[index_id])), index_id
        if index_id in SYMMETRIC:
            assert swapped[index_id] == pytest.approx(value, rel=1e-9, abs=1e-12, nan_ok=True), index_id
