"""Random models beyond the permutation model (cluval_core.core.random_models, chance(model=...)):
the exact expectations against enumerating every partition for small N and against clusim's
closed forms, the Stirling and Bell numbers against exact integers, the samplers' uniformity, and
chance() under each model."""

import itertools
import math
from collections import Counter

import numpy as np
import pytest

from cluval_core import CluvalError, Comparison, compare
from cluval_core.core import random_models as rm


def _growth_strings(n):
    """Every partition of n objects, once each, as restricted growth strings."""
    def grow(prefix, top):
        if len(prefix) == n:
            yield tuple(prefix)
            return
        for value in range(top + 1):
            yield from grow(prefix + [value], max(top, value + 1))
    yield from grow([0], 1)


def _rand_and_mi(a, b):
    """The Rand index and the mutual information (nats) by their definitions, pair by pair and cell by cell."""
    n = len(a)
    agree = sum((a[i] == a[j]) == (b[i] == b[j]) for i, j in itertools.combinations(range(n), 2))
    cells, rows, cols = Counter(zip(a, b)), Counter(a), Counter(b)
    mi = sum(v / n * math.log(n * v / (rows[i] * cols[j])) for (i, j), v in cells.items())
    return agree / (n * (n - 1) / 2), mi


def _draws(side, labels, partitions):
    if side == "fixed":
        return [tuple(labels)]
    if side == "sizes":
        return sorted(set(itertools.permutations(labels)))
    if side == "number":
        return [p for p in partitions if len(set(p)) == len(set(labels))]
    return partitions


@pytest.mark.parametrize("model", list(rm.MODELS))
@pytest.mark.parametrize("reference, candidate", [((0, 0, 0, 1, 1), (0, 1, 1, 1, 2)),
                                                  ((0, 0, 1, 1, 2, 2), (0, 0, 0, 0, 1, 1))])
def test_the_expectations_are_the_mean_over_every_partition_the_model_draws(model, reference, candidate):
    partitions = list(_growth_strings(len(reference)))
    side_a, side_b = rm.sides(model)
    values = np.array([_rand_and_mi(a, b) for a in _draws(side_a, reference, partitions)
                       for b in _draws(side_b, candidate, partitions)])
    rows = sorted(Counter(reference).values())
    cols = sorted(Counter(candidate).values())
    expected, sd = rm.expected_rand(len(reference), model, rows, cols)
    assert expected == pytest.approx(values[:, 0].mean(), abs=1e-14)
    assert sd == pytest.approx(values[:, 0].std(), abs=1e-14)
    assert rm.expected_mutual_information_under(len(reference), model, rows, cols) == pytest.approx(
        values[:, 1].mean(), abs=1e-13)


@pytest.mark.parametrize("model", list(rm.MODELS))
@pytest.mark.parametrize("rows, cols", [([3, 2, 2], [4, 3]), ([10, 5, 5, 1], [7, 7, 7]), ([16, 12, 8, 4], [20, 20])])
def test_the_expectations_equal_clusims(model, rows, cols):
    """clusim's second clustering is the gold standard: our reference."""
    clusim = pytest.importorskip("clusim.sim")
    n = sum(rows)
    theirs_ri = float(clusim.expected_rand_index(n, random_model=model, n_clusters1=len(cols), n_clusters2=len(rows),
                                                 clu_size_seq1=cols, clu_size_seq2=rows))
    theirs_mi = float(clusim.expected_mi(n, n_clusters1=len(cols), n_clusters2=len(rows), clu_size_seq1=cols,
                                         clu_size_seq2=rows, logbase=math.e, random_model=model))
    assert rm.expected_rand(n, model, rows, cols)[0] == pytest.approx(theirs_ri, rel=1e-12)
    assert rm.expected_mutual_information_under(n, model, rows, cols) == pytest.approx(theirs_mi, rel=1e-10, abs=1e-14)


def _stirling(n, k):
    table = [[0] * (k + 1) for _ in range(n + 1)]
    table[0][0] = 1
    for i in range(1, n + 1):
        for j in range(1, k + 1):
            table[i][j] = j * table[i - 1][j] + table[i - 1][j - 1]
    return table


def test_stirling_and_bell_numbers_hold_far_beyond_floats():
    exact = _stirling(400, 7)
    logs = rm.log_stirling(400, 7)
    for n in (7, 50, 400):
        for k in (1, 4, 7):
            assert logs[n, k] == pytest.approx(math.log(exact[n][k]), rel=1e-12)
    row = [1]  # the Bell triangle: B(n) is the first entry of row n
    for _ in range(300):
        nxt = [row[-1]]
        for value in row:
            nxt.append(nxt[-1] + value)
        row = nxt
    assert rm.log_bell([300])[0] == pytest.approx(math.log(row[0]), rel=1e-12)
    assert np.exp(rm.log_bell([0, 1, 2, 3, 4, 5])).round().tolist() == [1, 1, 2, 5, 15, 52]
    # the chance that a pair is together, at a size where the numbers themselves overflow any float
    together = rm.pair_chances(5000, "number", [1] * 15)[0]
    assert together == pytest.approx(1 / 15, rel=1e-3)
    assert math.isfinite(rm.expected_rand(5000, "all", [5000], [5000])[1])


@pytest.mark.parametrize("n, k, count", [(5, 2, 15), (8, 7, 28), (5, None, 52), (6, 3, 90)])
def test_random_partitions_are_uniform(n, k, count):
    """Each partition drawn about equally often (rejection, the sequential recurrence, Stam's algorithm)."""
    rng = np.random.default_rng(1)
    draws = 200 * count

    def canonical(codes):
        names = {}
        return tuple(names.setdefault(x, len(names)) for x in codes)

    seen = Counter(canonical(rm.random_partition(n, k, rng)) for _ in range(draws))
    assert len(seen) == count
    frequencies = np.array(list(seen.values())) / draws
    assert np.abs(frequencies - 1 / count).max() < 5 * math.sqrt(1 / count / draws)


def test_chance_under_each_model():
    rng = np.random.default_rng(3)
    truth = rng.integers(0, 4, 200)
    found = np.where(rng.random(200) < 0.3, rng.integers(0, 4, 200), truth)
    c = compare(truth, found)
    rows, cols = c.row_sizes.tolist(), c.col_sizes.tolist()
    perm = c.chance(["ri", "ari", "mi", "psi"], n_samples=100, seed=0)
    assert perm.loc["ri", "adjusted"] == pytest.approx(perm.loc["ari", "value"], abs=1e-12)  # adjusted RI is ARI
    assert perm.drop(columns="model").equals(c.chance(["ri", "ari", "mi", "psi"], n_samples=100, seed=0,
                                                      model="perm1").drop(columns="model"))
    for model in ("num", "num1", "all", "all1"):
        frame = c.chance(["ri", "mi", "psi", "ci_partition"], n_samples=300, seed=1, model=model)
        assert (frame["model"] == model).all()
        expected, sd = rm.expected_rand(200, model, rows, cols)
        assert (frame.loc["ri", "expected"], frame.loc["ri", "sd"]) == (expected, sd)
        assert frame.loc["ri", "method"] == "exact"
        assert frame.loc["mi", "expected"] == rm.expected_mutual_information_under(200, model, rows, cols)
        assert frame.loc["psi", "method"] == "Monte Carlo"
        best = 1.0
        assert frame.loc["psi", "adjusted"] == pytest.approx((frame.loc["psi", "value"] - frame.loc["psi", "expected"])
                                                             / (best - frame.loc["psi", "expected"]))
    # the drawn tables' Rand index centres on the exact expectation
    sampled = c.chance(["ri", "rogers_tanimoto"], n_samples=400, seed=2, model="all1")
    exact = rm.expected_rand(200, "all1", rows, cols)
    assert abs(sampled.loc["ri", "expected"] - exact[0]) == 0
    draws = [compare(truth, rm.random_partition(200, None, np.random.default_rng(s))).score("ri") for s in range(200)]
    assert abs(np.mean(draws) - exact[0]) < 4 * exact[1] / math.sqrt(200)
    assert np.std(draws) == pytest.approx(exact[1], rel=0.25)


def test_a_table_without_objects_and_the_refusals():
    c = Comparison.from_table([[5, 1, 0], [1, 6, 2]])
    frame = c.chance(["ri", "ari", "nvd"], n_samples=50, seed=0, model="num1")
    assert frame.loc["ri", "method"] == "exact" and frame.loc["ari", "method"] == "Monte Carlo"
    for bad in ("nope", None, ["num"], 3):
        with pytest.raises(CluvalError, match="model must be one of perm, perm1, num, num1, all, all1"):
            c.chance(model=bad)
    soft = Comparison.from_memberships([[1, 0], [0.5, 0.5], [0, 1]], [[1, 0], [0, 1], [0, 1]])
    with pytest.raises(CluvalError, match="needs a table of counts"):
        soft.chance(["ari"], n_samples=10, model="all")
    with pytest.raises(CluvalError, match="1 to 4 clusters"):
        rm.random_partition(4, 5, np.random.default_rng(0))
    with pytest.raises(CluvalError, match="more than the"):
        rm.log_stirling(100_000, 1_000)
