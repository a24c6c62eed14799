"""Clustering algorithms: deterministic, correct on easy data, clear errors on bad input, bounded work."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from sklearn.cluster import AgglomerativeClustering
from sklearn.datasets import make_blobs

from cluval_core import CluvalError, compare
from cluval_core.algorithms import clustering
from cluval_core.algorithms.clustering import (
    ALGORITHMS,
    DEFAULT_BUDGET,
    INTERACTIVE_BUDGET,
    INTERACTIVE_DEFAULT_BUDGET,
    INTERACTIVE_MAX_K,
    MAX_SEED,
    Budget,
    cluster,
    estimate_cost,
    fuzzy_c_means,
    interactive_defaults,
    k_range,
    parameter_range,
    random_swap,
    single_linkage,
    sse,
)
from cluval_core.data.datasets import load_dataset
from cluval_core.data.synthetic import lei_set, unbalance_like


@pytest.fixture(scope="module")
def blobs():
    return lei_set("G4", 2, seed=1)  # five separated clusters of 100


def _small_params(algorithm):
    return {"dbscan": {"eps": 1.5}, "random_swap": {"iterations": 200}}.get(algorithm, {})


@pytest.fixture
def never_run(monkeypatch):
    """Replace an algorithm's run by one that fails the test if it is ever called."""
    def install(algorithm):
        def run(*args, **kwargs):
            raise AssertionError(f"{algorithm} was started although its estimate is over the budget")
        monkeypatch.setitem(ALGORITHMS, algorithm, dataclasses.replace(ALGORITHMS[algorithm], run=run))
    return install


# ---------------------------------------------------------------------- results
@pytest.mark.parametrize("algorithm", list(ALGORITHMS))
def test_every_algorithm_is_deterministic_and_reports_itself(algorithm, blobs):
    X, truth = blobs
    params = _small_params(algorithm)
    a = cluster(X, algorithm, 5, seed=3, **params)
    b = cluster(X, algorithm, 5, seed=3, **params)
    assert np.array_equal(a.labels, b.labels)
    assert a.labels.shape == (len(X),) and a.seconds >= 0 and a.iterations >= 1
    assert a.objective == pytest.approx(sse(X, a.labels))
    assert a.estimate.seconds > 0 and a.estimate.memory > 0
    assert set(ALGORITHMS[algorithm].params) <= set(a.params)  # defaults included
    if ALGORITHMS[algorithm].soft:
        assert a.memberships.shape == (len(X), 5)
        np.testing.assert_allclose(a.memberships.sum(1), 1.0)
    if algorithm != "kmeans":  # a single random start may merge two blobs
        assert compare(truth, a.labels, noise=None).score("ari") > 0.95, algorithm


def test_dbscan_labels_noise_explicitly():
    X, _ = lei_set("G4", 2, seed=1)
    X = np.vstack([X, [[100.0, 100.0]]])
    result = cluster(X, "dbscan", eps=1.5)
    assert result.noise_label == -1 and result.labels[-1] == -1
    assert result.k == 5


def test_random_swap_finds_unbalance_like_structure():
    X, truth = unbalance_like(seed=0)
    result = cluster(X, "random_swap", 8, seed=1, iterations=500)
    assert compare(truth, result.labels, X=X).score("ci_centroid") == 0


def test_random_swap_function_validates_and_reports_the_sse(blobs):
    X, _ = blobs
    labels, centroids, value, accepted = random_swap(X, 5, iterations=50, seed=2)
    assert value == pytest.approx(sse(X, labels)) and centroids.shape == (5, 2) and 0 <= accepted <= 50
    with pytest.raises(CluvalError, match="kmeans_steps must be a whole number >= 1, got 0"):
        random_swap(X, 5, iterations=50, kmeans_steps=0)
    with pytest.raises(CluvalError, match="iterations must be a whole number >= 1, got -5"):
        random_swap(X, 5, iterations=-5)


# ---------------------------------------------------------------------- single link
@pytest.mark.data
@pytest.mark.parametrize("name", ["s1", "s2", "s3", "s4", "unbalance", "aggregation"])
def test_single_link_equals_scikit_learn(name):
    ds = load_dataset(name, download=False)
    ours = cluster(ds.X, "single", ds.k).labels
    theirs = AgglomerativeClustering(n_clusters=ds.k, linkage="single").fit_predict(ds.X)
    assert compare(ours, theirs).is_identical


def test_single_link_with_duplicates_and_tiny_sets():
    X = np.array([[0.0, 0], [0, 0], [1, 0], [5, 5], [5, 5], [5, 6]])
    assert compare(single_linkage(X, 2), [0, 0, 0, 1, 1, 1]).is_identical
    assert compare(single_linkage(X[:2], 1), [0, 0]).is_identical
    line = np.c_[np.arange(10.0), np.zeros(10)]  # collinear
    assert compare(single_linkage(line[[0, 1, 2, 7, 8, 9]], 2), [0, 0, 0, 1, 1, 1]).is_identical


@pytest.mark.parametrize("shape", ["vector", "column"])
def test_single_link_works_on_one_dimensional_data(shape):
    x = np.random.default_rng(4).standard_normal(3000) * 10  # no ties between gaps
    X = x if shape == "vector" else x[:, None]
    ours = cluster(X, "single", 7).labels
    theirs = AgglomerativeClustering(n_clusters=7, linkage="single").fit_predict(x[:, None])
    assert compare(ours, theirs).is_identical
    assert compare(single_linkage(X, 7), theirs).is_identical


@pytest.mark.parametrize("hull", ["collinear in 2-D", "collinear in 3-D", "coplanar in 3-D"])
def test_single_link_on_degenerate_data_needs_no_distance_matrix(hull, monkeypatch):
    rng = np.random.default_rng(5)
    t = rng.standard_normal((2000, 2)) * [10, 3]
    X = {"collinear in 2-D": np.c_[t[:, 0], 2 * t[:, 0] + 1],
         "collinear in 3-D": np.c_[t[:, 0], -t[:, 0], 3 * t[:, 0]],
         "coplanar in 3-D": np.c_[t, t[:, 0] + t[:, 1]]}[hull]
    monkeypatch.setattr(clustering, "linkage", None)  # the matrix method would fail the test
    ours = cluster(X, "single", 6).labels
    theirs = AgglomerativeClustering(n_clusters=6, linkage="single").fit_predict(X)
    assert compare(ours, theirs).is_identical


# ---------------------------------------------------------------------- fuzzy c-means
def test_fuzzy_c_means_memberships():
    X, truth = lei_set("G4", 1, seed=0)
    U, C, iterations = fuzzy_c_means(X, 5, seed=0)
    np.testing.assert_allclose(U.sum(1), 1)
    assert compare(truth, U.argmax(1)).score("ari") > 0.95


@pytest.mark.parametrize("m", [1 + 1e-9, 1.0001, 1.01, 1.5, 2.0, 3.7, 10.0])
def test_fuzzy_c_means_memberships_are_finite_for_every_accepted_m(m, blobs):
    X, truth = blobs
    result = cluster(X * 1e-3, "fcm", 5, m=m, max_iter=100)  # small distances: d**(-1/(m-1)) overflows
    assert np.isfinite(result.memberships).all() and np.isfinite(result.centroids).all()
    np.testing.assert_allclose(result.memberships.sum(1), 1)
    if m < 1.5:  # nearly hard c-means: crisp memberships (one random start may merge two blobs)
        assert (result.memberships.max(1) > 0.99).mean() > 0.95
    else:
        assert compare(truth, result.labels).score("ari") > 0.95


@pytest.mark.parametrize("m", [1.0, 0.5, -2.0, 10.5, math.inf, math.nan, True, "2"])
def test_fuzzy_c_means_refuses_m_outside_one_to_ten(m, blobs):
    with pytest.raises(CluvalError, match=r"Fuzzy c-means's m must be a number > 1 and <= 10, got"):
        cluster(blobs[0], "fcm", 5, m=m)
    with pytest.raises(CluvalError, match=r"m must be a number > 1 and <= 10"):
        fuzzy_c_means(blobs[0], 5, m=m)


# ---------------------------------------------------------------------- arguments
@pytest.mark.parametrize("k, message", [(0, "k must be at least 1, got 0"), (-3, "k must be at least 1, got -3"),
                                        (10**6, r"k must be at most the number of points in X \(500\), got 1000000"),
                                        (2.5, "k must be a whole number of clusters .*, got 2.5"),
                                        (5.0, "k must be a whole number of clusters .*, got 5.0"),
                                        (True, "whole number.*got True"), (None, "whole number.*got None"),
                                        ("5", "whole number.*got '5'")])
def test_bad_k(k, message, blobs):
    with pytest.raises(CluvalError, match=message):
        cluster(blobs[0], "kmeans", k)


@pytest.mark.parametrize("algorithm", [a for a in ALGORITHMS if ALGORITHMS[a].needs_k])
def test_k_above_the_distinct_points_is_refused(algorithm):
    X = np.repeat([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]], 20, axis=0)  # 60 points, 3 distinct
    with pytest.raises(CluvalError, match=r"k must be at most the number of distinct points in X \(3\), got 4"):
        cluster(X, algorithm, 4)
    assert cluster(X, algorithm, 3).k == 3


@pytest.mark.parametrize("algorithm", list(ALGORITHMS))
def test_a_single_point_is_refused(algorithm):
    with pytest.raises(CluvalError, match=r"X must have at least 2 points to cluster, got 1"):
        cluster([[1.0, 2.0]], algorithm, 1)


@pytest.mark.parametrize("algorithm, name", [("kmeans", "max_iter"), ("kmeans++", "max_iter"),
                                             ("kmeans++", "n_init"), ("random_swap", "iterations"),
                                             ("gmm", "max_iter"), ("gmm", "n_init"), ("fcm", "max_iter"),
                                             ("dbscan", "min_samples")])
@pytest.mark.parametrize("value", [0, -1, 2.5, True, "10"])
def test_iteration_counts_must_be_whole_numbers_from_one(algorithm, name, value, blobs):
    with pytest.raises(CluvalError, match=rf"{name} must be a whole number >= 1, got {value!r}"):
        cluster(blobs[0], algorithm, 5, **{name: value})


@pytest.mark.parametrize("eps", [0, 0.0, -1.0, math.inf, -math.inf, math.nan, "1", None, False])
def test_dbscan_eps_must_be_positive_and_finite(eps, blobs):
    with pytest.raises(CluvalError, match=r"DBSCAN's eps must be a number > 0, got"):
        cluster(blobs[0], "dbscan", eps=eps)


@pytest.mark.parametrize("seed", [-1, MAX_SEED + 1, 2**40, 2**100, 1.0, True, "0", None])
@pytest.mark.parametrize("algorithm", ["kmeans", "kmeans++", "single"])
def test_seeds_outside_numpys_range_are_refused(seed, algorithm, blobs):
    with pytest.raises(CluvalError, match=rf"seed must be a whole number from 0 to {MAX_SEED} \(numpy's range\), got"):
        cluster(blobs[0], algorithm, 5, seed=seed)


def test_the_largest_seed_works(blobs):
    a = cluster(blobs[0], "kmeans++", 5, seed=MAX_SEED)
    b = cluster(blobs[0], "kmeans++", 5, seed=np.uint32(MAX_SEED))
    assert np.array_equal(a.labels, b.labels)


@pytest.mark.parametrize("X, message", [
    (np.array([[0.0, 1.0], [np.nan, 2.0], [1.0, 1.0]]), "non-finite value .*row 1, column 0"),
    (np.array([[0.0, 1.0], [np.inf, 2.0], [1.0, 1.0]]), "non-finite value"),
    (np.zeros((3, 2, 2)), "2-D array .*shape is \\(3, 2, 2\\)"),
    (np.zeros((0, 2)), "at least 2 points to cluster, got 0"),
    (np.zeros((5, 0)), "no features"),
    ([["a", "b"], ["c", "d"]], "numeric coordinates"),
    (np.array([[1 + 1j, 0], [0, 1]]), "real coordinates, got complex"),
    ([[0.0, 1.0], [2.0]], "2-D array"),
    ({"a": 1}, "2-D array of coordinates .*got dict"),
    (3.0, "2-D array of coordinates .*got float"),
])
def test_bad_data(X, message):
    with pytest.raises(CluvalError, match=message):
        cluster(X, "kmeans", 1)


def test_bad_names_params_and_budgets(blobs):
    with pytest.raises(CluvalError, match="unknown algorithm 'kmedoids'; known: kmeans, kmeans\\+\\+"):
        cluster(blobs[0], "kmedoids", 3)
    with pytest.raises(CluvalError, match=r"has no parameter\(s\) \['eps'\]; it takes \['max_iter'\]"):
        cluster(blobs[0], "kmeans", 3, eps=2)
    with pytest.raises(CluvalError, match="covariance must be one of 'full', 'tied', 'diag', 'spherical', got 'ful'"):
        cluster(blobs[0], "gmm", 3, covariance="ful")
    with pytest.raises(CluvalError, match=r"budget must be a cluval_core.algorithms.clustering.Budget.*got 60"):
        cluster(blobs[0], "kmeans", 3, budget=60)
    with pytest.raises(CluvalError, match="Budget seconds must be a positive number .*got -1"):
        Budget(seconds=-1)
    with pytest.raises(CluvalError, match="Budget memory must be a positive number .*got nan"):
        Budget(memory=math.nan)


@pytest.mark.parametrize("algorithm", list(ALGORITHMS))
@pytest.mark.parametrize("exponent", [400, -400])
def test_huge_and_tiny_coordinates_give_the_same_clustering(algorithm, exponent, blobs):
    """Scaling by a power of two is exact: the same labels, centroids scaled, no overflow warning."""
    X = blobs[0]
    params = _small_params(algorithm)
    base = cluster(X, algorithm, 5, seed=1, **params)
    scaled_params = {**params, "eps": math.ldexp(params["eps"], exponent)} if "eps" in params else params
    scaled = cluster(np.ldexp(X, exponent), algorithm, 5, seed=1, **scaled_params)
    if algorithm == "gmm":  # its covariance regularisation is absolute, not relative
        assert compare(base.labels, scaled.labels).score("ari") > 0.99
        return
    assert np.array_equal(base.labels, scaled.labels)
    np.testing.assert_allclose(np.ldexp(base.centroids, exponent), scaled.centroids, rtol=1e-12)
    assert scaled.objective == pytest.approx(math.ldexp(base.objective, 2 * exponent), rel=1e-9)


# ---------------------------------------------------------------------- bounded work
def test_kmeans_plus_plus_with_k_equal_to_n_is_refused_before_it_starts(never_run):
    never_run("kmeans++")
    X = np.random.default_rng(0).random((100_000, 2))
    with pytest.raises(CluvalError, match=r"k-means\+\+ .* with k=100000, n_init=10, max_iter=300 on 100,000 points"
                                          r".* would need about [\d.]+ h, more than the budget of 60 s, so it was not "
                                          r"started: choose a smaller k, n_init or max_iter"):
        cluster(X, "kmeans++", 100_000)


def test_dbscan_with_a_huge_eps_is_refused_before_it_starts(never_run):
    never_run("dbscan")
    X = np.random.default_rng(0).random((30_000, 2))
    with pytest.raises(CluvalError, match=r"DBSCAN with eps=1000000000.0, min_samples=5 on 30,000 points \(about "
                                          r"30,000 neighbours within eps per point.*\) would need about 13.4 GiB of "
                                          r"memory, more than the budget of 2 GiB.*choose a smaller eps"):
        cluster(X, "dbscan", eps=1e9)
    cost = estimate_cost(X, "dbscan", eps=1e9)
    assert cost.memory == pytest.approx(30_000**2 * 16, rel=0.01)  # every pair is a neighbour


def test_dbscan_estimate_follows_the_true_neighbourhood_size():
    X = np.random.default_rng(1).random((20_000, 2))
    eps = 0.05
    from scipy.spatial import cKDTree
    true_pairs = cKDTree(X).count_neighbors(cKDTree(X), eps)
    assert estimate_cost(X, "dbscan", eps=eps).memory / 16 == pytest.approx(true_pairs, rel=0.15)


@pytest.mark.data
def test_random_swap_defaults_on_birch2_are_refused_before_they_start(never_run):
    never_run("random_swap")
    ds = load_dataset("birch2", download=False)
    with pytest.raises(CluvalError, match=r"Random swap with k=100, iterations=5000 on 100,000 points .* would need "
                                          r"about [\d.]+ min, more than the budget of 60 s.*choose fewer iterations"):
        cluster(ds.X, "random_swap", 100)
    with pytest.raises(CluvalError, match="choose fewer iterations"):
        random_swap(ds.X, 100)


@pytest.mark.parametrize("algorithm", ["ward", "average", "complete"])
def test_pairwise_methods_refuse_huge_inputs_before_allocating(algorithm, never_run):
    never_run(algorithm)
    X = np.zeros((100_000, 2))  # the check runs before any distance is computed
    X[:, 0] = np.arange(100_000)
    with pytest.raises(CluvalError, match=r"\(an n x n distance matrix \(37.3 GiB, held 2 times\)\) would need about "
                                          r"74.5 GiB of memory.*use k-means, random swap or single link"):
        cluster(X, algorithm, 5)


@pytest.mark.parametrize(("d", "method"), [(8, "sesqui_kd_tree"), (8, "brute"), (25, "brute")])  # a KD-tree: d <= 20
def test_single_link_in_many_dimensions_equals_scikit_learn(d, method, monkeypatch):
    X, _ = make_blobs(1500, n_features=d, centers=6, cluster_std=2.0, random_state=d)
    theirs = AgglomerativeClustering(n_clusters=6, linkage="single").fit_predict(X)
    monkeypatch.setattr(clustering, "_single_link_plan", lambda n, d: (method, 0.0))
    assert compare(single_linkage(X, 6), theirs).is_identical


def test_single_link_plan_takes_the_kd_tree_in_few_dimensions_and_prim_in_many():
    assert clustering._single_link_plan(100_000, 1)[0] == "sort"
    assert clustering._single_link_plan(100_000, 2)[0] == "sesqui_kd_tree"
    assert clustering._single_link_plan(100_000, 8)[0] == "sesqui_kd_tree"
    assert clustering._single_link_plan(1_000, 25)[0] == "brute"
    assert clustering._single_link_plan(100_000, 25)[0] == "brute"


def test_single_link_beyond_the_budget_is_refused_before_it_starts(never_run):
    never_run("single")
    X = np.random.default_rng(0).random((300_000, 30))
    with pytest.raises(CluvalError, match=r"single link with k=5 on 300,000 points \(a minimum spanning tree by "
                                          r"Prim's algorithm over 4.5e\+10 pairs of points in 30 dimensions\) "
                                          r"would need about [\d.]+ min, more than the budget of 60 s.*reduce the "
                                          r"number of dimensions"):
        cluster(X, "single", 5)
    with pytest.raises(CluvalError, match="Prim's algorithm"):
        single_linkage(X, 5)


@pytest.mark.parametrize("algorithm", ["kmeans", "random_swap", "fcm", "gmm"])
def test_every_costly_algorithm_refuses_a_huge_k(algorithm, never_run):
    never_run(algorithm)
    X = np.random.default_rng(0).random((100_000, 2))
    with pytest.raises(CluvalError, match=r"on 100,000 points .* so it was not started: .*a smaller k"):
        cluster(X, algorithm, 50_000)


def test_a_larger_budget_lets_the_run_through(monkeypatch):
    calls = []

    def run(X, k, seed, budget, **params):
        calls.append((len(X), k))
        return np.arange(len(X)) % k, np.zeros((k, 2)), 1, {}

    monkeypatch.setitem(ALGORITHMS, "kmeans++", dataclasses.replace(ALGORITHMS["kmeans++"], run=run))
    X = np.random.default_rng(0).random((100_000, 2))
    with pytest.raises(CluvalError, match="budget"):
        cluster(X, "kmeans++", 100_000)
    assert calls == []
    cluster(X, "kmeans++", 100_000, budget=Budget(seconds=math.inf, memory=math.inf))
    assert calls == [(100_000, 100_000)]


def test_a_smaller_budget_refuses_ordinary_work(blobs):
    assert cluster(blobs[0], "random_swap", 5, iterations=100).k == 5
    with pytest.raises(CluvalError, match=r"more than the budget of 1 ms|more than the budget of 0.001 s"):
        cluster(blobs[0], "random_swap", 5, iterations=100, budget=Budget(seconds=0.001))


@pytest.mark.data
@pytest.mark.parametrize("name", ["s1", "s2", "s3", "s4", "unbalance", "birch2"])
@pytest.mark.parametrize("algorithm", ["kmeans", "kmeans++", "single"])
def test_ordinary_runs_fit_the_default_budget(name, algorithm):
    ds = load_dataset(name, download=False)
    cost = estimate_cost(ds.X, algorithm, ds.k)
    assert cost.fits(DEFAULT_BUDGET), cost
    if name != "birch2":
        assert estimate_cost(ds.X, "random_swap", ds.k).fits(DEFAULT_BUDGET)  # T = 5000, as in the papers
        eps = parameter_range(ds.X, "dbscan", "eps").default
        assert estimate_cost(ds.X, "dbscan", eps=eps).fits(DEFAULT_BUDGET)


# ---------------------------------------------------------------------- ranges for the app
def test_k_range_stops_at_a_few_hundred_and_at_the_distinct_points():
    X = np.random.default_rng(0).random((5000, 2))
    assert k_range(X).high == INTERACTIVE_MAX_K == 300
    assert k_range(np.repeat(X[:40], 3, axis=0)).high == 40
    assert parameter_range(X, "kmeans", "k") == k_range(X)


def test_iteration_ranges_fit_the_interactive_budget():
    X = np.random.default_rng(0).random((100_000, 2))
    r = parameter_range(X, "random_swap", "iterations", k=100)
    assert 1 <= r.high < 5000 and r.default == r.high
    assert estimate_cost(X, "random_swap", 100, iterations=r.high).fits(INTERACTIVE_BUDGET)
    assert not estimate_cost(X, "random_swap", 100, iterations=r.high + 1).fits(INTERACTIVE_BUDGET)
    small = parameter_range(X[:1000], "random_swap", "iterations", k=8)
    assert small.default == 5000 < small.high
    n_init = parameter_range(X, "kmeans++", "n_init", k=300, chosen={"max_iter": 300})
    assert estimate_cost(X, "kmeans++", 300, n_init=n_init.high).fits(INTERACTIVE_BUDGET)
    assert not estimate_cost(X, "kmeans++", 300, n_init=n_init.high + 1).fits(INTERACTIVE_BUDGET)


@pytest.mark.parametrize("algorithm", sorted(ALGORITHMS))
def test_interactive_defaults_fit_the_interactive_budget(algorithm):
    # what the app runs when a page offers no controls (the soft page, a second clustering)
    X = np.random.default_rng(0).random((100_000, 2))
    params = interactive_defaults(X, algorithm, k=100)
    assert set(params) == {n for n, p in ALGORITHMS[algorithm].params.items() if not p.choices}
    repeats = {n for n, p in ALGORITHMS[algorithm].params.items() if p.repeats}
    if estimate_cost(X, algorithm, 100).fits(INTERACTIVE_BUDGET):  # the algorithm's own defaults fit
        assert {n: v for n, v in params.items() if n not in repeats} == \
            {n: p.default for n, p in ALGORITHMS[algorithm].params.items() if not p.choices and n not in repeats}
    elif algorithm not in ("ward", "average", "complete"):  # their n x n matrix fits no iteration count
        assert estimate_cost(X, algorithm, 100, **params).fits(INTERACTIVE_BUDGET)
    assert interactive_defaults(X, algorithm, k=100, chosen=params) == params


@pytest.mark.parametrize("algorithm",
                         sorted(a for a in ALGORITHMS if any(p.repeats for p in ALGORITHMS[a].params.values())))
def test_restarts_default_to_a_quick_first_run_on_large_data(algorithm):
    # 100,000 points and k = 100, as Birch2: the defaults fit INTERACTIVE_DEFAULT_BUDGET (one restart
    # at least); a small data set keeps the algorithm's own defaults; the range still reaches further
    big = np.random.default_rng(0).random((100_000, 2))
    small = big[:2000]
    (name,) = [n for n, p in ALGORITHMS[algorithm].params.items() if p.repeats]
    declared = ALGORITHMS[algorithm].params[name].default
    quick = interactive_defaults(big, algorithm, 100)
    assert quick[name] == 1 and parameter_range(big, algorithm, name, 100).high >= declared
    if declared > 1:
        assert estimate_cost(big, algorithm, 100, **{**quick, name: 2}).seconds > INTERACTIVE_DEFAULT_BUDGET.seconds
    assert interactive_defaults(small, algorithm, 10)[name] == declared
    if algorithm == "kmeans++":  # one run of up to 300 iterations fits: only the restarts are fewer
        assert quick["max_iter"] == ALGORITHMS[algorithm].params["max_iter"].default


def test_interactive_defaults_follow_the_data_scale_for_dbscan():
    X, truth = lei_set("G4", 2, seed=1)
    eps = [interactive_defaults(X * scale, "dbscan")["eps"] for scale in (1.0, 1000.0, 1e-6)]
    assert eps[1] == pytest.approx(eps[0] * 1000, rel=0.01) and eps[2] == pytest.approx(eps[0] * 1e-6, rel=0.01)
    for scale, value in zip((1.0, 1000.0, 1e-6), eps):
        result = cluster(X * scale, "dbscan", eps=value)
        assert compare(truth, result.labels, noise=None).score("ari") > 0.9, scale


@pytest.mark.parametrize("algorithm", list(ALGORITHMS))
def test_deterministic_algorithms_give_one_result_for_every_seed(algorithm):
    X = unbalance_like(seed=2)[0][::4]
    params = _small_params(algorithm)
    runs = [cluster(X, algorithm, 8, seed=seed, **params).labels for seed in (0, 1, 2, 3)]
    same = all(np.array_equal(runs[0], labels) for labels in runs[1:])
    assert same == ALGORITHMS[algorithm].deterministic, algorithm


def test_eps_range_follows_the_data_scale_and_fits_the_budget():
    X, truth = lei_set("G4", 2, seed=1)
    ranges = [parameter_range(X * scale, "dbscan", "eps") for scale in (1.0, 1000.0)]
    for r, scale in zip(ranges, (1.0, 1000.0)):
        assert 0 < r.low < r.default < r.high
        assert r.high <= np.ptp(X * scale, axis=0).max() * math.sqrt(2)  # within the data's diameter
    assert ranges[1].default == pytest.approx(ranges[0].default * 1000, rel=0.01)
    assert compare(truth, cluster(X, "dbscan", eps=ranges[0].default).labels, noise=None).score("ari") > 0.9
    big = np.random.default_rng(0).random((100_000, 2))
    r = parameter_range(big, "dbscan", "eps")
    assert r.high < 0.1  # far below the diameter: the neighbourhoods must fit the memory budget
    assert estimate_cost(big, "dbscan", eps=r.high).fits(INTERACTIVE_BUDGET)
    assert not estimate_cost(big, "dbscan", eps=r.high * 3).fits(INTERACTIVE_BUDGET)


def test_ranges_of_choices_and_unknown_names_are_refused(blobs):
    with pytest.raises(CluvalError, match="covariance is a choice, not a range"):
        parameter_range(blobs[0], "gmm", "covariance", k=5)
    with pytest.raises(CluvalError, match="has no parameter 'eps'"):
        parameter_range(blobs[0], "kmeans", "eps", k=5)
    m = parameter_range(blobs[0], "fcm", "m", k=5)
    assert 1 < m.low < m.default == 2.0 < m.high == 10.0


def test_every_parameter_is_declared_with_its_accepted_values():
    for algo in ALGORITHMS.values():
        for name, parameter in algo.params.items():
            assert parameter.choices or parameter.low is not None, (algo.key, name)
            assert parameter.check(name, parameter.default, algo.name) == parameter.default
            if not parameter.choices:
                assert parameter.widget is not None or name == "eps", (algo.key, name)
