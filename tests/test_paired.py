"""The paired comparison of two candidates against one reference (cluval_core.core.paired): the
jackknife against leaving out each object from both comparisons, the bootstrap and the permutation
test against their definitions, the test's level on candidates alike in distribution, its power,
relabelling, the sentences and hostile input."""

import math

import numpy as np
import pytest

from cluval_core import INDICES, CluvalError, compare, compare_paired

TABLE_IDS = [i for i, info in INDICES.items() if not info.needs_data]


def _noisy(truth, rate, k, rng):
    """The reference with each object moved to a random cluster with probability `rate`."""
    return np.where(rng.random(len(truth)) < rate, rng.integers(0, k, len(truth)), truth)


def _leave_one_out_se(truth, a, b, ids, X=None):
    """The jackknife standard error of I(truth, a) - I(truth, b), leaving out each object in turn."""
    n = len(truth)
    differences = []
    for k in range(n):
        keep = np.arange(n) != k
        x = None if X is None else X[keep]
        one = compare(truth[keep], a[keep], X=x).scores(ids)
        two = compare(truth[keep], b[keep], X=x).scores(ids)
        differences.append([one[i] - two[i] for i in ids])
    d = np.array(differences)
    return dict(zip(ids, np.sqrt((n - 1) / n * ((d - d.mean(axis=0)) ** 2).sum(axis=0))))


@pytest.mark.parametrize("seed", range(4))
def test_the_paired_jackknife_leaves_out_each_object_from_both_comparisons(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(10, 22))
    truth = rng.integers(0, 3, n)
    a, b = _noisy(truth, 0.3, 3, rng), rng.integers(0, 4, n)
    paired = compare_paired(truth, a, b, TABLE_IDS, n_bootstrap=0, n_permutations=0)
    brute = _leave_one_out_se(truth, a, b, TABLE_IDS)
    for i in TABLE_IDS:
        assert paired.table.loc[i, "se"] == pytest.approx(brute[i], abs=1e-12, nan_ok=True), i
        assert paired.table.loc[i, "a"] == compare(truth, a).score(i) or math.isnan(paired.table.loc[i, "a"])
        assert paired.table.loc[i, "b"] == compare(truth, b).score(i) or math.isnan(paired.table.loc[i, "b"])


def test_the_paired_jackknife_of_the_centroid_indices_leaves_out_each_object_with_its_coordinates():
    rng = np.random.default_rng(5)
    truth = rng.integers(0, 3, 15)
    a, b, X = _noisy(truth, 0.2, 3, rng), rng.integers(0, 3, 15), rng.normal(size=(15, 2))
    ids = ["ci_centroid", "cr", "ari"]
    paired = compare_paired(truth, a, b, ids, X=X, n_bootstrap=0, n_permutations=0)
    brute = _leave_one_out_se(truth, a, b, ids, X)
    for i in ids:
        assert paired.table.loc[i, "se"] == pytest.approx(brute[i], abs=1e-12), i


def test_the_interval_columns_follow_their_definitions():
    rng = np.random.default_rng(2)
    truth = rng.integers(0, 4, 300)
    a, b = _noisy(truth, 0.2, 4, rng), _noisy(truth, 0.35, 4, rng)
    paired = compare_paired(truth, a, b, ["ari", "vi"], n_bootstrap=300, n_permutations=300, level=0.9, seed=1)
    row = paired.table.loc["ari"]
    z = 1.6448536269514722
    assert row["low"] == pytest.approx(row["difference"] - z * row["se"])
    assert row["high"] == pytest.approx(row["difference"] + z * row["se"])
    boot = paired.bootstrap["ari"].to_numpy()
    assert [row["boot_low"], row["boot_high"]] == pytest.approx(np.quantile(boot, [0.05, 0.95]), rel=1e-14)
    swapped = paired.permutations["ari"].to_numpy()
    assert row["p"] == (1 + np.sum(np.abs(swapped) >= abs(row["difference"]) * (1 - 1e-12))) / 301
    assert paired.bootstrap.shape == (300, 2) and paired.permutations.shape == (300, 2)
    # A moved a fifth of the objects, B a third: ARI favours A, and VI (a distance) does too
    assert row["closer"] == "A" and paired.table.loc["vi", "closer"] == "A"
    assert row["difference"] > 0 > paired.table.loc["vi", "difference"]
    # the resampled differences centre near the observed one; the swapped ones near 0
    assert abs(np.mean(boot) - row["difference"]) < 2 * row["se"]
    assert abs(np.mean(swapped)) < 2 * np.std(swapped) / math.sqrt(300) + 1e-3
    assert row["se"] == pytest.approx(np.std(boot, ddof=1), rel=0.3)  # two estimates of one SE


@pytest.mark.parametrize("k, n, rate, trials", [
    (3, 60, 0.4, 200),
    # ten weakly matched clusters: naming B's clusters after A's (not both after the reference) made
    # the swaps too alike and rejected about 10 % of such trials
    pytest.param(10, 80, 0.6, 300, marks=pytest.mark.slow),
])
def test_the_permutation_test_keeps_its_level_on_candidates_alike_in_distribution(k, n, rate, trials):
    """A and B drawn independently by one process from the reference: their labels are exchangeable
    object by object, so p <= 0.05 in about 5 % of the trials at most (a fixed seed; the bound
    allows three binomial standard deviations)."""
    rng = np.random.default_rng(11 + k)
    rejected = 0
    for trial in range(trials):
        truth = rng.integers(0, k, n)
        a, b = _noisy(truth, rate, k, rng), _noisy(truth, rate, k, rng)
        paired = compare_paired(truth, a, b, ["ari"], jackknife=False, n_bootstrap=0, n_permutations=99,
                                seed=trial)
        rejected += paired.table.loc["ari", "p"] <= 0.05
    assert rejected / trials <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / trials)


def test_the_permutation_test_finds_a_real_difference():
    rng = np.random.default_rng(4)
    found = 0
    for trial in range(20):
        truth = rng.integers(0, 3, 120)
        a, b = _noisy(truth, 0.1, 3, rng), _noisy(truth, 0.5, 3, rng)
        paired = compare_paired(truth, a, b, ["ari", "psi"], jackknife=False, n_bootstrap=0, n_permutations=99,
                                seed=trial)
        found += all(paired.table["p"] <= 0.05) and all(paired.table["closer"] == "A")
    assert found >= 18


def test_few_differing_objects_cannot_be_significant():
    """A and B differ on 5 objects only: of the 32 ways to swap them, two give a difference as large
    as the observed one, so p is about 1/16 however large that difference is."""
    truth = np.array([0] * 10 + [1] * 10)
    a = np.array([0] * 10 + [1] * 9 + [0])
    b = np.array([0] * 7 + [1] * 3 + [1] * 7 + [0] * 3)
    paired = compare_paired(truth, a, b, ["ari"], jackknife=False, n_bootstrap=0, n_permutations=2000, seed=0)
    assert paired.table.loc["ari", "p"] == pytest.approx(2 / 32, abs=0.015)


def test_relabelling_changes_nothing():
    rng = np.random.default_rng(7)
    truth = rng.integers(0, 4, 200)
    a, b = _noisy(truth, 0.2, 4, rng), _noisy(truth, 0.3, 5, rng)
    ids = ["ari", "psi", "ch_greedy", "ci_partition"]
    first = compare_paired(truth, a, b, ids, n_bootstrap=50, n_permutations=50, seed=3)
    renamed = compare_paired(np.array(list("wxyz"))[truth], 10 + 7 * a, np.array([5, 1, 9, 2, 7])[b], ids,
                             n_bootstrap=50, n_permutations=50, seed=3)
    assert first.table.equals(renamed.table)
    assert first.bootstrap.equals(renamed.bootstrap) and first.permutations.equals(renamed.permutations)


def test_sentences_say_what_the_checks_show_and_what_they_do_not():
    truth = np.array([0] * 20 + [1] * 20)
    a = np.array([0] * 20 + [1] * 19 + [0])
    b = np.array([0] * 15 + [1] * 5 + [1] * 15 + [0] * 5)
    paired = compare_paired(truth, a, b, ["ari", "vi"], n_bootstrap=200, n_permutations=200, seed=0,
                            names=("k-means", "Ward"))
    text = paired.sentence("ari")
    assert text.startswith("Adjusted Rand index: k-means 0.8999, Ward 0.2303, k-means − Ward = 0.6697 (95 % intervals: "
                           "jackknife ")
    assert "k-means is closer to the reference than Ward" in text and "does not say" in text
    assert "k-means is closer" in paired.sentence("vi")  # a distance: lower is closer
    same = compare_paired(truth, a, a[::-1], ["ari"], n_bootstrap=50, n_permutations=50, seed=0)
    assert "equally close" in same.sentence("ari")
    rng = np.random.default_rng(0)
    truth = rng.integers(0, 3, 50)
    near, far = _noisy(truth, 0.4, 3, rng), _noisy(truth, 0.42, 3, rng)
    weak = compare_paired(truth, near, far, ["ari"], n_bootstrap=200, n_permutations=200, seed=0)
    assert weak.table.loc["ari", "p"] > 0.05
    assert "do not show that either candidate is closer" in weak.sentence("ari") or "uncertain" in weak.sentence("ari")
    singletons = compare_paired(truth, np.arange(50), far, ["fowlkes_mallows"], n_bootstrap=0, n_permutations=0)
    assert singletons.table.loc["fowlkes_mallows", "closer"] == "undefined"
    assert "undefined for A" in singletons.sentence("fowlkes_mallows")


def test_the_default_indices_and_skipped_methods():
    rng = np.random.default_rng(1)
    truth = rng.integers(0, 3, 40)
    paired = compare_paired(truth, _noisy(truth, 0.2, 3, rng), _noisy(truth, 0.3, 3, rng), jackknife=False,
                            n_bootstrap=0, n_permutations=0)
    assert list(paired.table.index) == [i for i, info in INDICES.items() if info.headline and not info.needs_data]
    assert paired.bootstrap is None and paired.permutations is None
    assert paired.table[["se", "low", "high", "boot_low", "boot_high", "p"]].isna().all().all()


def test_progress_counts_the_resamples_and_permutations():
    rng = np.random.default_rng(1)
    truth = rng.integers(0, 3, 40)
    seen = []
    compare_paired(truth, _noisy(truth, 0.2, 3, rng), _noisy(truth, 0.3, 3, rng), ["ari"], n_bootstrap=20,
                   n_permutations=30, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(k, 50) for k in range(1, 51)]


@pytest.mark.parametrize("call, message", [
    (lambda t, a, b: compare_paired(t, a, b[:-1]), "differ in length"),
    (lambda t, a, b: compare_paired(t[:2], a[:2], b[:2]), "at least 3 objects"),
    (lambda t, a, b: compare_paired(t, a, b, ["nope"]), "unknown index id 'nope'"),
    (lambda t, a, b: compare_paired(t, a, b, ["ci_centroid"]), "needs the data X"),
    (lambda t, a, b: compare_paired(t, a, b, level=95), "level must be"),
    (lambda t, a, b: compare_paired(t, a, b, n_bootstrap=1), "n_bootstrap must be a whole number of at least 2"),
    (lambda t, a, b: compare_paired(t, a, b, n_permutations=-3), "n_permutations must be a whole number"),
    (lambda t, a, b: compare_paired(t, a, b, n_permutations=2.5), "n_permutations must be a whole number"),
    (lambda t, a, b: compare_paired(t, a, b, names=("A",)), "names must be two non-empty strings"),
    (lambda t, a, b: compare_paired(t, a, b, seed="x"), "seed must be"),
    (lambda t, a, b: compare_paired(t, a, b, budget=0), "budget must be a positive number"),
    (lambda t, a, b: compare_paired(t, a, b, progress=3), "progress must be a function"),
    (lambda t, a, b: compare_paired(t, a, b, TABLE_IDS, n_permutations=100_000, budget=0.5),
     r"the paired bootstrap evaluates|the permutation test evaluates|the paired jackknife evaluates"),
])
def test_hostile_input_is_refused_by_name(call, message):
    rng = np.random.default_rng(0)
    truth = rng.integers(0, 3, 300)
    with pytest.raises(CluvalError, match=message):
        call(truth, _noisy(truth, 0.2, 3, rng), _noisy(truth, 0.3, 3, rng))


# ---------------------------------------------------------------------- found in review
def test_infinite_and_undefined_values_give_nan_not_an_error():
    paired = compare_paired([2, 3, 1, 2], [1, 0, 1, 1], [3, 3, 0, 3], ["southwood"], n_bootstrap=0, n_permutations=0)
    assert math.isnan(paired.table.loc["southwood", "se"])  # a left-out value is infinite: so is no SE
    same = compare_paired([0, 1, 2, 1], [1, 3, 2, 3], [5, 7, 6, 7], ["southwood"], n_bootstrap=0, n_permutations=0)
    assert same.table.loc["southwood", "a"] == math.inf and "equally close" in same.sentence("southwood")
    truth = np.repeat([0, 1, 2], 10)
    other = np.r_[truth[:-3], [0, 0, 0]]
    undefined = compare_paired(truth, np.arange(30), other, ["fowlkes_mallows"], n_bootstrap=100, n_permutations=20,
                               seed=0)
    row = undefined.table.loc["fowlkes_mallows"]
    assert row["closer"] == "undefined" and math.isnan(row["boot_low"]) and math.isnan(row["p"])
    both = compare_paired(truth, np.arange(30), np.arange(30)[::-1], ["fowlkes_mallows"], n_bootstrap=0,
                          n_permutations=0)
    assert "undefined for A and B" in both.sentence("fowlkes_mallows")


def test_sentences_name_only_the_checks_that_ran_and_can_speak():
    truth = np.array([0] * 20 + [1] * 20)
    a = np.array([0] * 20 + [1] * 19 + [0])
    b = np.array([0] * 15 + [1] * 5 + [1] * 15 + [0] * 5)
    only_p = compare_paired(truth, a, b, ["ari"], jackknife=False, n_bootstrap=0, n_permutations=200, seed=0)
    text = only_p.sentence("ari")
    assert "The permutation test's p is below 0.05: on these 40 objects A is closer" in text
    assert "interval" not in text and "resampling" not in text
    truth = np.repeat([0, 1, 2], [20, 20, 5])
    steps = compare_paired(truth, truth, np.where(truth == 2, 0, truth), ["ci_partition"], n_bootstrap=0,
                           n_permutations=0)
    assert steps.table.loc["ci_partition", "se"] == 0
    assert "no check of the difference was run" in steps.sentence("ci_partition")
    assert "has no width here" in steps.sentence("ci_partition")


def test_the_swaps_do_not_depend_on_the_resamples_and_the_work_asked_is_bounded():
    rng = np.random.default_rng(8)
    truth = rng.integers(0, 3, 100)
    a, b = _noisy(truth, 0.2, 3, rng), _noisy(truth, 0.3, 3, rng)
    few = compare_paired(truth, a, b, ["ari"], n_bootstrap=0, n_permutations=50, seed=4)
    many = compare_paired(truth, a, b, ["ari"], n_bootstrap=60, n_permutations=50, seed=4)
    assert few.permutations.equals(many.permutations) and few.table.loc["ari", "p"] == many.table.loc["ari", "p"]
    with pytest.raises(CluvalError, match="n_bootstrap must be at most 1,000,000"):
        compare_paired(truth, a, b, n_bootstrap=10**9)
    with pytest.raises(CluvalError, match="the paired bootstrap evaluates 1,000,000 tables here"):
        compare_paired(truth, a, b, ["ari"], jackknife=False, n_bootstrap=10**6, n_permutations=0, budget=0.5)
    with pytest.raises(CluvalError, match="labels_true and labels_b differ in length: 100 != 99"):
        compare_paired(truth, a, b[:-1])
    from fractions import Fraction

    assert compare_paired(truth, a, b, ["ari"], level=Fraction(9, 10), n_bootstrap=0, n_permutations=0).level == 0.9
