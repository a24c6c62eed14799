"""The synthetic partitions and point sets reproduce the papers' constructions."""

from __future__ import annotations

import numpy as np
import pytest

from cluval_core import CluvalError, compare
from cluval_core.data import synthetic as syn


def test_random_partition_is_deterministic_by_seed():
    g, p = syn.random_partition(5, seed=1)
    g2, p2 = syn.random_partition(5, seed=1)
    assert np.array_equal(p, p2) and g.size == p.size == 3000
    assert len(np.unique(p)) == 5
    assert not np.array_equal(p, syn.random_partition(5, seed=2)[1])


@pytest.mark.parametrize("which", ["first", "second"])
def test_enlarge_cluster_sizes(which):
    for size in (1000, 1500, 2000, 2500, 3000):
        g, p = syn.enlarge_cluster(size, which=which)
        target = 0 if which == "first" else 1
        assert (p == target).sum() == size
    g, p = syn.enlarge_cluster(2000, which="first")
    assert len(np.unique(p)) == 2
    assert len(np.unique(syn.enlarge_cluster(2950, which="second")[1])) == 3


def test_enlarging_either_cluster_gives_the_same_psi():
    # Section 7.3: "PSI results the same curves in both of the cases"
    for size in range(1000, 3001, 250):
        first = compare(*syn.enlarge_cluster(size, which="first")).score("psi")
        second = compare(*syn.enlarge_cluster(size, which="second")).score("psi")
        assert first == pytest.approx(second, abs=0.02)


def test_increasing_error_keeps_sizes():
    g, p = syn.increasing_error(300)
    assert np.bincount(p).tolist() == [1000, 1000, 1000]
    assert (g != p).sum() == 900


def test_size_imbalance_matches_the_papers_ari():
    # Section 7.4: ARI about 0.91 with a third cluster of 2000 and 0.66 with 50; PSI unchanged.
    big, small = compare(*syn.size_imbalance(2000)), compare(*syn.size_imbalance(50))
    assert big.score("ari") == pytest.approx(0.91, abs=0.01)
    assert small.score("ari") == pytest.approx(0.66, abs=0.01)
    assert big.score("psi") == small.score("psi") == pytest.approx(0.9)


def test_number_of_clusters_keeps_nvd_constant():
    values = {k: compare(*syn.number_of_clusters(k)).score("nvd") for k in (2, 5, 20)}
    assert all(v == pytest.approx(0.2) for v in values.values())


@pytest.mark.parametrize("overlap", [0.05, 0.15, 0.3])
def test_m2_overlap_is_what_was_asked(overlap):
    X, labels = syn.m2(overlap, seed=3)
    centres = np.array([X[labels == c].mean(0) for c in (0, 1)])
    closer_to_other = ((X - centres[1 - labels]) ** 2).sum(1) < ((X - centres[labels]) ** 2).sum(1)
    assert closer_to_other.mean() == pytest.approx(overlap, abs=0.02)
    assert X.shape == (2000, 8)


def test_unbalance_like_sizes():
    X, labels = syn.unbalance_like(sparse_size=40)
    assert np.bincount(labels).tolist() == [2000] * 3 + [40] * 5


@pytest.mark.parametrize("group, count", list(syn.LEI_GROUPS.items()))
def test_lei_groups(group, count):
    X, labels = syn.lei_set(group, 1 if group == "G4" else count)
    assert X.shape[1] == 2 and len(np.unique(labels)) == 5
    if group in ("G2", "G3"):
        assert np.bincount(labels)[4] == 100 * count
    with pytest.raises(CluvalError):
        syn.lei_set(group, count + 1)


# Rand (1971) Table 1 closed forms; the "one point from each cluster" row is printed as
# (kn - 3n - k + 3)/(kn^2 - n) but counting pairs gives (kn^2 - 3n - k + 3)/(kn^2 - n).
RAND_FORMULAS = {
    "join_two": lambda k, n: ((k * k - 2) * n - k) / (k * k * n - k),
    "split_half": lambda k, n: ((2 * k * k - 1) * n - 2 * k) / (2 * k * k * n - 2 * k),
    "split_singletons": lambda k, n: ((k * k - 1) * n - k + 1) / (k * k * n - k),
    "one_from_each": lambda k, n: (k * n * n - 3 * n - k + 3) / (k * n * n - n),
    "move_point": lambda k, n: (k * k * n - k - 4) / (k * k * n - k),
    "split_different": lambda k, n: ((k * k - 1) * n - k) / (k * k * n - k),
    "join_different": lambda k, n: ((k * k - 4) * n - k) / (k * k * n - k),
    "join_all": lambda k, n: (n - 1) / (k * n - 1),
    "split_all": lambda k, n: ((k - 1) * n) / (k * n - 1),
    "transpose": lambda k, n: ((k - 1) * (n - 1)) / (k * n - 1),
}


@pytest.mark.parametrize("kind", list(RAND_FORMULAS))
@pytest.mark.parametrize("k, n", [(4, 6), (5, 10), (10, 50), (3, 8)])
def test_rand_table_one_closed_forms(kind, k, n):
    if kind == "join_different" and k < 4:  # needs two disjoint pairs of clusters
        with pytest.raises(CluvalError, match="needs more clusters"):
            syn.rand_modification(kind, k, n)
        return
    y, y2 = syn.rand_modification(kind, k, n)
    assert compare(y, y2).score("ri") == pytest.approx(RAND_FORMULAS[kind](k, n), abs=1e-14)


def test_rand_printed_entry_is_wrong():
    y, y2 = syn.rand_modification("one_from_each", 5, 10)
    printed = (5 * 10 - 3 * 10 - 5 + 3) / (5 * 10 * 10 - 10)
    assert compare(y, y2).score("ri") != pytest.approx(printed)


@pytest.mark.parametrize("key", list(syn.SCENARIOS))
def test_every_scenario_makes_its_default_pair(key):
    scenario = syn.SCENARIOS[key]
    made = scenario.make(scenario.default, 0)
    assert len(made[0]) == len(made[1])
    assert scenario.default in scenario.values
    assert scenario.explanation.count(". ") >= 1


@pytest.mark.parametrize("key", list(syn.SYNTHETIC_SETS))
def test_synthetic_sets(key):
    X, labels = syn.make_synthetic(key, seed=0)
    assert len(X) == len(labels) and np.isfinite(X).all()


@pytest.mark.parametrize("key", list(syn.SCENARIOS))
def test_scenario_pairs_numbered_from_one_for_display(key):
    scenario = syn.SCENARIOS[key]
    g0, p0 = scenario.make(scenario.default, 0)[:2]
    g1, p1 = scenario.pair(scenario.default, 0, first_label=1)
    assert g1.min() == 1 and p1.min() == 1
    assert np.array_equal(g1, np.asarray(g0) + 1) and np.array_equal(p1, np.asarray(p0) + 1)
    assert np.array_equal(scenario.pair(scenario.default, 0)[1], p0)  # numbered from 0 unless asked
    # renumbering changes no index value
    assert compare(g1, p1).scores(["ari", "psi", "nvd"]) == compare(g0, p0).scores(["ari", "psi", "nvd"])
