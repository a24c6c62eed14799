"""Hierarchies: every cut's value is compare()'s on that cut's labels (tie-dependent indices
included), the chance band is the registry's exact expectation, the whole-tree measures equal
SciPy's or their definitions computed pair by pair, trees from scikit-learn and genieclust
convert, and hostile input is refused with a message."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy.cluster.hierarchy import cophenet, leaves_list, linkage
from scipy.stats import spearmanr
from sklearn.cluster import AgglomerativeClustering

from cluval_core import INDICES, CluvalError, compare
from cluval_core.algorithms.clustering import cluster, hierarchy
from cluval_core.core.trees import (
    MAX_PAIR_OBJECTS,
    MAX_TABLE_CUTS,
    Tree,
    as_tree,
    bakers_gamma,
    cophenetic_correlation,
    cut_labels,
    cut_profile,
    entanglement,
    tanglegram_layout,
)

LABEL_IDS = [i for i, info in INDICES.items() if not info.needs_data and info.cost != "moments"]


def _points(seed: int, n: int = 120) -> np.ndarray:
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    X[: n // 3] += 5
    X[n // 3: n // 2] -= 4
    return X


@pytest.mark.parametrize("seed, first, second", [(0, "ward", "single"), (1, "average", "complete"),
                                                 (2, "single", "ward")])
def test_every_cut_of_two_trees_is_compare_on_the_cuts_labels_for_every_index(seed, first, second):
    X = _points(seed)
    a, b = linkage(X, first), linkage(X, second)
    profile = cut_profile(a, b, LABEL_IDS, k_max=20)
    assert profile.k.tolist() == [k for k in range(1, 21) for _ in LABEL_IDS]
    for k in range(1, 21):
        labels_a, labels_b = cut_labels(a, k), cut_labels(b, k)
        assert len(np.unique(labels_a)) == k and len(np.unique(labels_b)) == k
        want = compare(labels_a, labels_b).scores(LABEL_IDS)
        got = profile[profile.k == k].set_index("index").value
        for i in LABEL_IDS:
            assert got[i] == want[i] or (math.isnan(got[i]) and math.isnan(want[i])), (k, i)


def test_a_tree_against_flat_labels_scores_each_cut_against_those_labels():
    X = _points(3)
    tree = linkage(X, "ward")
    truth = np.where(np.arange(len(X)) < len(X) // 3, "a", np.where(np.arange(len(X)) < len(X) // 2, "b", "c"))
    profile = cut_profile(tree, truth, ["ari", "psi", "ch_greedy"], k_max=8)
    for k in range(1, 9):
        want = compare(truth, cut_labels(tree, k)).scores(["ari", "psi", "ch_greedy"])
        got = profile[profile.k == k].set_index("index").value.to_dict()
        assert got == pytest.approx(want, abs=0, nan_ok=True)
    assert set(profile.k_true) == {3}


def test_the_chance_band_is_the_exact_expectation_of_each_cut():
    X = _points(4)
    a, b = linkage(X, "ward"), linkage(X, "average")
    profile = cut_profile(a, b, ["ari", "fowlkes_mallows", "psi"], k_max=6)
    for k in (1, 3, 6):
        c = compare(cut_labels(a, k), cut_labels(b, k))
        rows = profile[profile.k == k].set_index("index")
        if k == 1:
            assert rows.expected.isna().all()  # one cluster: every random table is this one
            continue
        for i in ("ari", "fowlkes_mallows"):
            expected, sd = INDICES[i].expectation(c)
            assert rows.loc[i, "expected"] == expected and rows.loc[i, "sd"] == sd
        assert math.isnan(rows.loc["psi", "sd"])  # no exact form: no band


def _random_tree(rng, n: int) -> np.ndarray:
    """A linkage matrix that joins random pairs of the nodes still apart, in any order, at tied heights."""
    alive, sizes, rows = list(range(n)), {x: 1 for x in range(n)}, []
    for m in range(n - 1):
        x, y = (alive.pop(int(rng.integers(len(alive)))) for _ in range(2))
        sizes[n + m] = sizes[x] + sizes[y]
        rows.append([x, y, float(m // 3), sizes[n + m]])
        alive.append(n + m)
    return np.array(rows)


def _cut_by_hand(Z, k: int) -> np.ndarray:
    """The first N - k merges applied one by one to sets of objects, numbered by first appearance."""
    n = len(Z) + 1
    members = {x: {x} for x in range(n)}
    for m in range(n - k):
        members[n + m] = members.pop(int(Z[m][0])) | members.pop(int(Z[m][1]))
    owner = {x: node for node, objects in members.items() for x in objects}
    first = {}
    return np.array([first.setdefault(owner[x], len(first)) for x in range(n)])


@pytest.mark.parametrize("seed", range(6))
def test_every_cut_is_the_partition_after_the_first_n_minus_k_merges(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 40))
    for Z in (_random_tree(rng, n), linkage(rng.normal(size=(n, 2)), ["single", "ward", "average"][seed % 3])):
        for k in range(1, n + 1):
            assert cut_labels(Z, k).tolist() == _cut_by_hand(Z, k).tolist(), (n, k)


def test_the_leaf_order_of_a_tree_is_scipys():
    rng = np.random.default_rng(7)
    for Z in (_random_tree(rng, 50), linkage(rng.normal(size=(80, 2)), "complete"), [[0, 1, 1.0, 2]]):
        tree = as_tree(Z)
        assert np.argsort(tree.starts[: tree.n]).tolist() == leaves_list(tree.linkage).tolist()


@pytest.mark.parametrize("seed", range(4))
def test_indices_of_the_pair_counts_alone_come_off_the_updated_counts_as_compare_gives_them(seed):
    """Without bands, indices of cost "pairs" are read off pair counts updated merge by merge (no table
    per cut): every value is still compare()'s on the two cuts, a tree against flat labels too."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 60))
    pairs = [i for i, info in INDICES.items() if info.cost == "pairs"]
    a, b = _random_tree(rng, n), linkage(rng.normal(size=(n, 2)), "single")
    flat = rng.integers(0, 4, n)
    for other, labels_of in ((b, lambda k: cut_labels(b, k)), (flat, lambda k: flat)):
        profile = cut_profile(a, other, pairs, k_max=n, bands=False)
        assert profile.expected.isna().all() and profile.k.tolist() == [k for k in range(1, n + 1) for _ in pairs]
        for k in range(1, n + 1):
            reference, candidate = (cut_labels(a, k), labels_of(k)) if other is b else (flat, cut_labels(a, k))
            want = compare(reference, candidate).scores(pairs)
            got = profile[profile.k == k].set_index("index").value.to_dict()
            assert got == pytest.approx(want, abs=0, nan_ok=True), k


def test_the_bands_of_indices_of_the_pair_counts_come_off_the_updated_sizes_as_off_each_table():
    """Indices of the pair counts alone take their chance band from the cluster sizes each merge updates
    (no table per cut): the registry's exact expectation on the two cuts, as with a table per cut."""
    rng = np.random.default_rng(12)
    n = 70
    pairs = [i for i, info in INDICES.items() if info.cost == "pairs" and info.expectation is not None]
    a, b = _random_tree(rng, n), linkage(rng.normal(size=(n, 2)), "average")
    fast = cut_profile(a, b, pairs, k_max=n)
    with_tables = cut_profile(a, b, pairs + ["psi"], k_max=n)
    with_tables = with_tables[with_tables["index"] != "psi"].reset_index(drop=True)
    assert fast.equals(with_tables)
    for k in (2, 5, 30, n):
        c = compare(cut_labels(a, k), cut_labels(b, k))
        rows = fast[fast.k == k].set_index("index")
        for i in pairs:
            found = INDICES[i].expectation(c)
            want = (math.nan, math.nan) if found is None else (found[0], math.nan if found[1] is None else found[1])
            assert (rows.loc[i, "expected"], rows.loc[i, "sd"]) == pytest.approx(want, abs=0, nan_ok=True), (k, i)


def test_the_cuts_follow_the_merge_order_even_where_heights_tie():
    Z = [[0, 1, 1.0, 2], [2, 3, 1.0, 2], [4, 5, 1.0, 4]]  # every merge at height 1
    assert [len(set(cut_labels(Z, k))) for k in (1, 2, 3, 4)] == [1, 2, 3, 4]
    assert cut_labels(Z, 3).tolist() == [0, 0, 1, 2]


def test_the_cophenetic_correlation_is_scipys():
    X = _points(5, 60)
    a, b = linkage(X, "ward"), linkage(X, "single")
    assert cophenetic_correlation(a, b) == cophenet(a, cophenet(b))[0]
    assert cophenetic_correlation(a, a) == pytest.approx(1.0, abs=1e-12)


def _stage_by_hand(Z, n):
    """Each pair's largest k whose cut keeps it together, by cutting at every k."""
    cuts = {k: cut_labels(Z, k) for k in range(1, n + 1)}
    return [max(k for k in range(1, n + 1) if cuts[k][u] == cuts[k][v]) for u, v in itertools.combinations(range(n), 2)]


def test_bakers_gamma_is_spearmans_rho_of_the_stages_that_join_each_pair():
    X = _points(6, 24)
    a, b = linkage(X, "complete"), linkage(X, "single")
    want = spearmanr(_stage_by_hand(a, 24), _stage_by_hand(b, 24)).statistic
    assert bakers_gamma(a, b) == pytest.approx(want, abs=1e-12)
    assert bakers_gamma(a, a) == pytest.approx(1.0, abs=1e-12)


def test_entanglement_by_hand():
    # leaf orders [0, 1, 2, 3] and [1, 0, 3, 2]: |0-1| + |1-0| + |2-3| + |3-2| = 4 at L = 1;
    # reversed orders give 3 + 1 + 1 + 3 = 8
    a = [[0, 1, 1.0, 2], [2, 3, 1.0, 2], [4, 5, 2.0, 4]]
    b = [[1, 0, 1.0, 2], [3, 2, 1.0, 2], [4, 5, 2.0, 4]]
    assert entanglement(a, b, L=1) == 4 / 8
    assert entanglement(a, a) == 0.0
    reversed_ = [[3, 2, 1.0, 2], [1, 0, 1.0, 2], [4, 5, 2.0, 4]]
    assert entanglement(a, reversed_) == 1.0


def test_trees_from_scikit_learn_and_genieclust_cut_like_their_own_clusterings():
    genieclust = pytest.importorskip("genieclust")
    X = _points(7, 90)
    model = AgglomerativeClustering(n_clusters=None, distance_threshold=0, linkage="ward",
                                    compute_distances=True).fit(X)
    tree = as_tree(model)
    for k in (2, 4, 7):
        flat = AgglomerativeClustering(n_clusters=k, linkage="ward").fit(X).labels_
        assert compare(flat, tree.cut(k)).score("ari") == 1.0
    genie = genieclust.Genie(n_clusters=1, gini_threshold=0.3).fit(X)
    tree = as_tree(genie)
    for k in (2, 3, 5):
        flat = genieclust.Genie(n_clusters=k, gini_threshold=0.3).fit_predict(X)
        assert compare(flat, tree.cut(k)).score("ari") == 1.0


@pytest.mark.parametrize("method", ["ward", "single", "average", "complete"])
def test_the_hierarchy_of_an_algorithm_cuts_into_its_clusterings(method):
    X = _points(8, 150)
    tree = hierarchy(X, method)
    for k in (2, 5, 11):
        assert compare(cluster(X, method, k).labels, tree.cut(k)).score("ari") == 1.0


def test_single_link_joins_copies_of_a_point_first():
    X = np.array([[0.0, 0.0], [5.0, 5.0], [0.0, 0.0], [0.1, 0.0], [5.0, 5.2]])
    tree = hierarchy(X, "single")
    assert tree.linkage[0, 2] == 0.0 and sorted(tree.linkage[0, :2]) == [0, 2]
    assert tree.cut(2).tolist() == [0, 1, 0, 0, 1]


def test_the_tanglegram_holds_each_cut_and_their_table():
    X = _points(9, 80)
    a, b = linkage(X, "ward"), linkage(X, "single")
    layout = tanglegram_layout(a, b, 5)
    assert sorted(layout.leaves[0].tolist()) == list(range(5)) == sorted(layout.leaves[1].tolist())
    assert np.array_equal(layout.table, compare(cut_labels(a, 5), cut_labels(b, 5)).table)
    assert len(layout.branches[0][0]) == 4  # k - 1 merges above the cut


@pytest.mark.parametrize("bad, message", [
    ([[0, 1, 1.0]], "4 columns"), ([[0, 5, 1.0, 2]], "not a valid linkage"), ("tree", "linkage matrix"),
    ([[0, 1, np.nan, 2]], "NaN"), ([[0, 1, 1.0, 3]], "not a valid linkage"),
])
def test_hostile_trees_are_refused_with_a_message(bad, message):
    with pytest.raises(CluvalError, match=message):
        as_tree(bad)


def test_hostile_arguments_are_refused_with_a_message():
    Z = linkage(_points(10, 12), "ward")
    with pytest.raises(CluvalError, match="from 1 to the 12 objects"):
        cut_labels(Z, 13)
    with pytest.raises(CluvalError, match="k_max"):
        cut_profile(Z, Z, k_max=0)
    with pytest.raises(CluvalError, match="different numbers of objects"):
        cut_profile(Z, linkage(_points(10, 13), "ward"))
    with pytest.raises(CluvalError, match="12 objects but other has 3 labels"):
        cut_profile(Z, [0, 1, 1])
    with pytest.raises(CluvalError, match="unknown index id"):
        cut_profile(Z, Z, ["nope"])
    with pytest.raises(CluvalError, match="must be a linkage matrix"):
        as_tree(Z.astype(complex))
    tall = _random_tree(np.random.default_rng(3), MAX_TABLE_CUTS + 10)
    with pytest.raises(CluvalError, match="psi, which reads each cut's table"):
        cut_profile(tall, tall, ["ari", "psi"], k_max=MAX_TABLE_CUTS + 1)
    assert len(cut_profile(tall, tall, ["ari"], k_max=MAX_TABLE_CUTS + 1, bands=False)) == MAX_TABLE_CUTS + 1
    with pytest.raises(CluvalError, match="L must be a positive number"):
        entanglement(Z, Z, L=0)
    with pytest.raises(CluvalError, match="at least 2 clusters"):
        tanglegram_layout(Z, Z, 1)
    big = Tree(np.column_stack([np.arange(MAX_PAIR_OBJECTS), np.arange(MAX_PAIR_OBJECTS + 1, 2 * MAX_PAIR_OBJECTS + 1),
                                np.arange(1.0, MAX_PAIR_OBJECTS + 1), np.arange(2.0, MAX_PAIR_OBJECTS + 2)]))
    with pytest.raises(CluvalError, match="at most 5,000 objects"):
        cophenetic_correlation(big, big)
    with pytest.raises(CluvalError, match="method must be one of"):
        hierarchy(_points(10, 12), "kmeans")


@pytest.mark.parametrize("method", ["ward", "average", "complete"])
def test_agglomerative_clusterings_have_k_clusters_where_heights_tie(method):
    X = [[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]]  # every neighbour at distance 1
    for k in range(1, 7):
        labels = cluster(X, method, k).labels
        assert len(np.unique(labels)) == k
        assert compare(labels, hierarchy(X, method).cut(k)).score("ari") == 1.0


def test_a_tree_that_stops_early_is_refused():
    from sklearn.neighbors import kneighbors_graph
    X = np.array([[0.0], [0.05], [5.0], [5.1]])
    with pytest.warns(UserWarning, match="connected components"):  # scikit-learn completes the graph
        model = AgglomerativeClustering(n_clusters=2, connectivity=kneighbors_graph(X, 1),
                                        compute_full_tree=False).fit(X)
    with pytest.raises(CluvalError, match="not complete"):
        as_tree(model)


def test_heights_are_in_the_datas_units_and_model_distances_are_kept():
    tree = hierarchy([[0.0], [1e31], [3e31], [7e31]], "single")
    assert tree.linkage[:, 2].tolist() == pytest.approx([1e31, 2e31, 4e31], rel=1e-15)
    X = _points(12, 40)
    model = AgglomerativeClustering(n_clusters=None, distance_threshold=0, linkage="average",
                                    compute_distances=True).fit(X)
    assert np.array_equal(as_tree(model).linkage[:, 2], model.distances_)
    model.distances_ = np.array(["far"] * len(model.distances_))
    with pytest.raises(CluvalError, match="distances_ must be numbers"):
        as_tree(model)
    same = hierarchy([[1.0, 1.0]] * 3, "single")  # one distinct point: a tree all at height 0
    assert same.linkage[:, 2].tolist() == [0.0, 0.0]


def test_the_indices_of_a_profile_can_be_one_name_or_all_of_a_table():
    Z = linkage(_points(13, 30), "ward")
    assert cut_profile(Z, Z, "ari", k_max=3)["index"].unique().tolist() == ["ari"]
    every = cut_profile(Z, Z, None, k_max=2)
    assert set(every["index"]) == {i for i, info in INDICES.items() if not info.needs_data and info.cost != "moments"}
    with pytest.raises(CluvalError, match="coordinates"):
        cut_profile(Z, Z, ["ci_centroid"], k_max=2)
