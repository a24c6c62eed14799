"""Clustering algorithms: deterministic, correct on easy data, clear errors on bad input."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.cluster import AgglomerativeClustering

from cluval_core import CluvalError, compare
from cluval_core.clustering import ALGORITHMS, cluster, fuzzy_c_means, single_linkage, sse
from cluval_core.datasets import load_dataset
from cluval_core.synthetic import lei_set, unbalance_like


@pytest.fixture(scope="module")
def blobs():
    return lei_set("G4", 2, seed=1)  # five separated clusters of 100


@pytest.mark.parametrize("algorithm", list(ALGORITHMS))
def test_every_algorithm_is_deterministic_and_reports_itself(algorithm, blobs):
    X, truth = blobs
    params = {"eps": 1.5} if algorithm == "dbscan" else {}
    params.update({"iterations": 200} if algorithm == "random_swap" else {})
    a = cluster(X, algorithm, 5, seed=3, **params)
    b = cluster(X, algorithm, 5, seed=3, **params)
    assert np.array_equal(a.labels, b.labels)
    assert a.labels.shape == (len(X),) and a.seconds >= 0 and a.iterations >= 1
    assert a.objective == pytest.approx(sse(X, a.labels))
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
    line = np.c_[np.arange(10.0), np.zeros(10)]  # collinear: Delaunay fails, the fallback works
    assert compare(single_linkage(line[[0, 1, 2, 7, 8, 9]], 2), [0, 0, 0, 1, 1, 1]).is_identical


def test_fuzzy_c_means_memberships():
    X, truth = lei_set("G4", 1, seed=0)
    U, C, iterations = fuzzy_c_means(X, 5, seed=0)
    np.testing.assert_allclose(U.sum(1), 1)
    assert compare(truth, U.argmax(1)).score("ari") > 0.95


@pytest.mark.parametrize("k, message", [(0, "k must be at least 1"), (10**6, "exceeds the number of points"),
                                        (2.5, "whole number")])
def test_bad_k(k, message, blobs):
    with pytest.raises(CluvalError, match=message):
        cluster(blobs[0], "kmeans", k)


def test_bad_data_and_names(blobs):
    X = blobs[0].copy()
    X[3, 1] = np.nan
    with pytest.raises(CluvalError, match="non-finite"):
        cluster(X, "kmeans", 3)
    with pytest.raises(CluvalError, match="unknown algorithm 'kmedoids'"):
        cluster(blobs[0], "kmedoids", 3)
    with pytest.raises(CluvalError, match="has no parameter"):
        cluster(blobs[0], "kmeans", 3, eps=2)


@pytest.mark.parametrize("algorithm", ["ward", "average", "complete"])
def test_pairwise_methods_refuse_huge_inputs_before_allocating(algorithm):
    X = np.zeros((100_000, 2))  # the check runs before any distance is computed
    with pytest.raises(CluvalError, match=r"needs an n x n distance matrix \(37.3 GiB\).*use k-means"):
        cluster(X, algorithm, 5)
