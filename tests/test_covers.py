"""Overlapping clusterings: Omega equals clusim's and, on partitions, ARI; extended BCubed equals
python-bcubed's and, on partitions, BCubed; the overlapping NMIs follow their papers' formulas
computed cluster by cluster; F1 and NF1 by hand; the policies for objects one cover lists;
degenerate and hostile covers."""

from __future__ import annotations

import math
from fractions import Fraction

import bcubed
import numpy as np
import pandas as pd
import pytest
from clusim import sim
from clusim.clustering import Clustering
from scipy import sparse

from cluval_core import INDICES, CluvalError, CluvalWarning, compare
from cluval_core.core import covers
from cluval_core.core.covers import (
    COVER_MEASURES,
    MGH_NORMALISATIONS,
    Cover,
    CoverComparison,
    as_cover,
    compare_covers,
    cover_from_memberships,
    cover_of_partition,
    hardened_cover,
)
from cluval_core.indices.peers import COVER_PEER_NAMES, COVER_PEERS, cover_peer_names


def _random_covers(rng, n, ka, kb):
    A = (rng.random((n, ka)) < rng.uniform(0.1, 0.6)).astype(int)
    B = (rng.random((n, kb)) < rng.uniform(0.1, 0.6)).astype(int)
    A[np.arange(n), rng.integers(0, ka, n)] = 1  # every object in some cluster, as the peers need
    B[np.arange(n), rng.integers(0, kb, n)] = 1
    return A, B


def _clusim(M):
    return Clustering(elm2clu_dict={i: list(np.flatnonzero(row)) for i, row in enumerate(M)})


def _sets(M):
    return {i: set(np.flatnonzero(row).tolist()) for i, row in enumerate(M)}


@pytest.mark.parametrize("seed", range(8))
def test_omega_and_extended_bcubed_equal_the_peers_on_random_covers(seed):
    rng = np.random.default_rng(seed)
    for _ in range(10):
        A, B = _random_covers(rng, int(rng.integers(4, 40)), int(rng.integers(1, 6)), int(rng.integers(1, 6)))
        c = compare_covers(A, B)
        with np.errstate(all="ignore"):
            omega = sim.omega_index(_clusim(A), _clusim(B))
        if math.isnan(omega):  # nothing to adjust: cluval's convention, as for ARI, is 1 when every pair agrees
            omega = 1.0 if np.array_equal(np.triu(A @ A.T, 1), np.triu(B @ B.T, 1)) else math.nan
        assert c.omega() == pytest.approx(omega, abs=1e-13, nan_ok=True)
        assert c.extended_bcubed_precision() == pytest.approx(bcubed.precision(_sets(B), _sets(A)), abs=1e-13)
        assert c.extended_bcubed_recall() == pytest.approx(bcubed.recall(_sets(B), _sets(A)), abs=1e-13)


@pytest.mark.parametrize("seed", range(6))
def test_on_partitions_omega_is_ari_and_extended_bcubed_is_bcubed(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 60))
    a, b = rng.integers(0, 4, n), rng.integers(0, 5, n)
    c, flat = compare_covers(a, b), compare(a, b)
    assert c.omega() == pytest.approx(flat.score("ari"), abs=1e-14)
    assert c.omega_expected() == INDICES["ri"].expectation(flat)[0]  # the Rand index's, exactly
    for i in ("bcubed_precision", "bcubed_recall", "bcubed_f"):
        assert getattr(c, f"extended_{i}")() == pytest.approx(flat.score(i), abs=1e-14)


def test_omega_by_hand():
    # pairs (0,1): 1/1, (0,2): 1/0, (1,2): 1/0, (0,3), (1,3): 0/0, (2,3): 1/1: 4 of 6 agree;
    # counts 0 and 1: reference 2 and 4, candidate 4 and 2: expected (8 + 8) / 36
    c = compare_covers([[0, 1, 2], [2, 3]], [[0, 1], [2, 3]])
    assert c.omega() == pytest.approx((4 / 6 - 16 / 36) / (1 - 16 / 36), abs=1e-15)
    assert c.omega_expected() == 16 / 36
    # a pair in two clusters of each: counts 2 and 2 agree
    same = [[0, 1], [0, 1, 2], [3]]
    assert compare_covers(same, same).omega() == 1.0


def _lfk_by_hand(A, B, clusims=False):
    """LFK's ONMI, cluster by cluster, from the paper's definitions (log base 2); with `clusims`,
    h(1 - P11) in place of h(P00), as clusim's onmi computes it."""
    n = len(A)

    def h(p):
        return 0.0 if p <= 0 else -p * math.log2(p)

    def conditional(X, Y):
        total = []
        for k in range(X.shape[1]):
            x = X[:, k]
            hx = h(x.mean()) + h(1 - x.mean())
            best = None
            for m in range(Y.shape[1]):
                y = Y[:, m]
                p11 = np.sum((x == 1) & (y == 1)) / n
                p10 = np.sum((x == 1) & (y == 0)) / n
                p01 = np.sum((x == 0) & (y == 1)) / n
                p00 = np.sum((x == 0) & (y == 0)) / n if not clusims else 1 - p11
                if h(p11) + h(p00) > h(p01) + h(p10):
                    hy = h(y.mean()) + h(1 - y.mean())
                    value = h(p11) + h(p10) + h(p01) + h(p00) - hy
                    best = value if best is None else min(best, value)
            given = hx if best is None else best
            total.append((given, hx))
        return total

    def normalised(pairs):
        return np.mean([g / hx if hx > 0 else 0.0 for g, hx in pairs])

    xy, yx = conditional(A, B), conditional(B, A)
    lfk = 1 - 0.5 * (normalised(xy) + normalised(yx))
    hX, hY = sum(hx for _, hx in xy), sum(hy for _, hy in yx)
    mutual = 0.5 * (hX - sum(g for g, _ in xy) + hY - sum(g for g, _ in yx))
    return lfk, mutual, hX, hY


@pytest.mark.parametrize("seed", range(5))
def test_the_overlapping_nmis_follow_their_definitions(seed):
    rng = np.random.default_rng(seed + 100)
    A, B = _random_covers(rng, int(rng.integers(6, 30)), int(rng.integers(2, 5)), int(rng.integers(2, 5)))
    c = compare_covers(A, B)
    lfk, mutual, hX, hY = _lfk_by_hand(A, B)
    assert c.onmi_lfk() == pytest.approx(lfk, abs=1e-12)
    norms = {"max": max(hX, hY), "min": min(hX, hY), "sqrt": math.sqrt(hX * hY), "arithmetic": (hX + hY) / 2,
             "joint": hX + hY - mutual}
    for normalisation in MGH_NORMALISATIONS:
        assert c.onmi_mgh(normalisation) == pytest.approx(min(1.0, max(0.0, mutual / norms[normalisation])),
                                                          abs=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_clusims_onmi_is_lfks_with_h_of_one_minus_p11_for_h_of_p00(seed):
    """The difference the module states, shown: clusim's value is the by-hand formula with that one
    term changed, so the two agree only where P00 = 1 - P11 (identical clusters)."""
    rng = np.random.default_rng(seed + 200)
    A, B = _random_covers(rng, int(rng.integers(8, 30)), int(rng.integers(2, 5)), int(rng.integers(2, 5)))
    with np.errstate(all="ignore"):
        theirs = sim.onmi(_clusim(A), _clusim(B))
    assert theirs == pytest.approx(_lfk_by_hand(A, B, clusims=True)[0], abs=1e-12)
    assert compare_covers(A, B).onmi_lfk() == pytest.approx(_lfk_by_hand(A, B)[0], abs=1e-12)


def test_identical_covers_score_best_and_clusims_onmi_agrees_only_there():
    A = [[0, 1, 2], [2, 3, 4], [5, 6], [6, 7, 0]]
    c = compare_covers(A, A)
    assert c.scores() == pytest.approx({i: 1.0 for i in COVER_MEASURES}, abs=1e-12)
    M = as_cover(A).members.toarray()
    assert sim.onmi(_clusim(M), _clusim(M)) == pytest.approx(1.0, abs=1e-12)


def test_f1_and_nf1_by_hand():
    # reference clusters {0,1,2,3} {4,5}; candidate {0,1} {2,3} {4,5}
    c = compare_covers([[0, 1, 2, 3], [4, 5]], [[0, 1], [2, 3], [4, 5]])
    # reference side: best F1 2*2/(4+2) = 2/3 and 1; candidate side: 2/3, 2/3, 1
    assert c.f1() == pytest.approx(0.5 * ((2 / 3 + 1) / 2 + (2 / 3 + 2 / 3 + 1) / 3), abs=1e-15)
    # nf1: candidate clusters match reference 0, 0, 1 (F1 2/3, 2/3, 1); coverage 2/2; redundancy 3/2
    assert c.nf1() == pytest.approx((2 / 3 + 2 / 3 + 1) / 3 * 1 / 1.5, abs=1e-15)


def test_the_policies_for_objects_one_cover_lists():
    reference = {"x": ["a", "b", "c"], "y": ["d", "e"]}
    candidate = {"p": ["a", "b"], "q": ["c", "d", "f"]}  # e only in the reference, f only in the candidate
    with pytest.warns(CluvalWarning, match="2 objects are listed by one cover only"):
        both = compare_covers(reference, candidate)
    assert both.n == 4 and sorted(both.reference.objects) == ["a", "b", "c", "d"]
    with pytest.warns(CluvalWarning):
        alone = compare_covers(reference, candidate, policy="singletons")
    assert alone.n == 6 and alone.reference.k == 3 and alone.candidate.k == 3
    with pytest.warns(CluvalWarning):
        extra = compare_covers(reference, candidate, policy="extra_cluster")
    assert extra.reference.k == 3 and extra.candidate.k == 3
    assert extra.overlap.sum() == 6 + 0  # e and f sit in different extra clusters
    with pytest.raises(CluvalError, match="policy must be one of"):
        compare_covers(reference, candidate, policy="union")


def test_thresholded_memberships_and_uncovered_objects():
    U = np.array([[0.9, 0.1], [0.6, 0.4], [0.45, 0.55], [0.2, 0.8], [0.5, 0.5]])
    loose, strict = cover_from_memberships(U, 0.4), cover_from_memberships(U, 0.7)
    assert loose.memberships_per_object.tolist() == [1, 2, 2, 1, 2]
    assert strict.memberships_per_object.tolist() == [1, 0, 0, 1, 0]
    c = compare_covers(np.array([0, 0, 1, 1, 1]), strict)
    assert all(math.isfinite(v) for v in c.scores().values())


@pytest.mark.parametrize("bad, message", [
    ("abc", "lists of members"), ([[0, 1], 3], "collection of members"), ([[0]], "at least 2 objects"),
    (np.array([[0, 2], [1, 0]]), "0 and 1 only"), ([[0, [1]]], "hashable"),
])
def test_hostile_covers_are_refused_with_a_message(bad, message):
    with pytest.raises(CluvalError, match=message):
        as_cover(bad)


def test_hostile_arguments_are_refused_with_a_message():
    with pytest.raises(CluvalError, match="threshold"):
        cover_from_memberships([[0.5, 0.5], [1, 0]], 0)
    c = compare_covers([[0, 1], [2, 3]], [[0, 1, 2, 3]])
    with pytest.raises(CluvalError, match="normalisation"):
        c.onmi_mgh("mean")
    with pytest.raises(CluvalError, match="unknown cover measure"):
        c.scores(["nope"])
    with pytest.raises(CluvalError, match="share 1 objects"):
        compare_covers({"x": ["a", "b"]}, {"y": ["b", "c"]})


def test_a_table_of_object_cluster_rows_is_a_cover():
    frame = pd.DataFrame({"object": ["a", "b", "b", "c", "d"], "cluster": ["x", "x", "y", "y", "y"]})
    cover = as_cover(frame)
    assert cover.objects.tolist() == ["a", "b", "c", "d"] and cover.memberships_per_object.tolist() == [1, 2, 1, 1]
    same = as_cover({"x": ["a", "b"], "y": ["b", "c", "d"]})
    assert compare_covers(cover, same).omega() == 1.0


def test_object_types_are_exact_even_when_their_hashes_collide(monkeypatch):
    rng = np.random.default_rng(3)
    A, B = _random_covers(rng, 30, 4, 5)
    want = compare_covers(A, B).scores()
    monkeypatch.setattr(covers, "_HASH", np.zeros_like(covers._HASH))  # every row hashes alike
    assert compare_covers(A, B).scores() == pytest.approx(want, abs=1e-15)


def _ecs_by_hand(A, B, alpha=0.9):
    """clusim's element-centric similarity of covers, densely: personalised PageRank of the walk
    object -> one of its clusters -> one of that cluster's objects (an object in no cluster its own
    singleton), scores 1 - |p_A - p_B|_1 / (2 alpha)."""
    def affinity(M):
        M = M.astype(float)
        alone = M.sum(axis=1) == 0
        M = np.hstack([M, np.eye(len(M))[:, alone]])
        M = M[:, M.sum(axis=0) > 0]
        W = (M / M.sum(axis=1, keepdims=True)) @ (M / M.sum(axis=0, keepdims=True)).T
        return (1 - alpha) * np.linalg.inv(np.eye(len(M)) - alpha * W)

    return float(np.mean(1 - np.abs(affinity(A) - affinity(B)).sum(axis=1) / (2 * alpha)))


@pytest.mark.parametrize("seed", range(5))
def test_element_centric_similarity_of_covers_is_the_walks_by_hand(seed):
    rng = np.random.default_rng(seed + 300)
    for _ in range(8):
        n = int(rng.integers(4, 30))
        A = (rng.random((n, int(rng.integers(1, 5)))) < 0.4).astype(int)  # some objects in no cluster
        B = (rng.random((n, int(rng.integers(1, 5)))) < 0.4).astype(int)
        for alpha in (0.9, 0.5):
            assert compare_covers(A, B).ecs(alpha) == pytest.approx(_ecs_by_hand(A, B, alpha), abs=1e-13)


def test_element_centric_similarity_of_partitions_is_the_registrys():
    rng = np.random.default_rng(7)
    a, b = rng.integers(0, 4, 50), rng.integers(0, 6, 50)
    assert compare_covers(a, b).ecs() == pytest.approx(compare(a, b).score("ecs"), abs=1e-13)


def test_element_centric_similarity_refuses_what_it_cannot_do(monkeypatch):
    c = compare_covers([[0, 1, 2], [2, 3]], [[0, 1], [2, 3]])
    with pytest.raises(CluvalError, match="alpha"):
        c.ecs(1.0)
    monkeypatch.setattr(covers, "MAX_ECS_TYPES", 2)
    with pytest.warns(CluvalWarning, match="ECS is not computed"):
        assert math.isnan(c.ecs())


def _brute_omega(A, B):
    """Omega by visiting every pair."""
    tA, tB = A @ A.T, B @ B.T
    iu = np.triu_indices(len(A), 1)
    a, b = tA[iu], tB[iu]
    m = len(a)
    top = int(max(a.max(), b.max())) + 1
    expected = float(np.bincount(a, minlength=top) @ np.bincount(b, minlength=top)) / m ** 2
    observed = float(np.mean(a == b))
    return (observed - expected) / (1 - expected)


def test_objects_in_very_many_clusters_are_counted_pair_by_pair():
    """Two objects in 24 clusters each would need 2^24 sets of clusters apiece: the pairs are counted
    one by one instead, to the same values."""
    reference = [[0, 1, i + 2] for i in range(24)]
    with pytest.warns(CluvalWarning, match="22 objects are listed by one cover only"):
        c = compare_covers(reference, [[0, 1], [2, 3]], policy="singletons")
    A, B = c.reference.members.toarray(), c.candidate.members.toarray()
    assert c.omega() == pytest.approx(_brute_omega(A, B), abs=1e-14)
    assert c.extended_bcubed_precision() == pytest.approx(bcubed.precision(_sets(B), _sets(A)), abs=1e-14)


def test_objects_in_tens_of_thousands_of_clusters_keep_their_shape():
    """An object in 50 000 clusters a side: its shape (50 000 x 50 000 clusters) is past 32 bits; the
    objects' types and the pair counts stay exact."""
    k = 50_000
    starts = np.array([0, k, k + 1, k + 2], dtype=np.int32)  # 32-bit indices, as scipy keeps them
    A = sparse.csr_array((np.ones(k + 2), np.r_[np.arange(k), 0, 1].astype(np.int32), starts), shape=(3, k))
    B = sparse.csr_array((np.ones(k + 2), np.r_[np.arange(k), 0, 0].astype(np.int32), starts), shape=(3, k))
    c = compare_covers(A, B)
    assert c.reference.members.indptr.dtype == np.int32
    assert {shape: w.tolist() for shape, (w, _, _) in c._kinds.items()} == {(1, 1): [1, 1], (k, k): [1]}
    assert c.ecs() == pytest.approx(_ecs_by_hand(A.toarray(), B.toarray()), abs=1e-12)
    with pytest.raises(CluvalError, match="sets of clusters"):  # 2^100 000 sets, and too many cells pair by pair
        c.omega()
    with pytest.raises(CluvalError, match="overlap table"):
        c.onmi_lfk()


def test_shapes_past_16_bits_in_a_block_keep_their_objects_apart():
    """Objects in 200 reference clusters and in 170 candidate clusters in one block: the shapes' codes
    (past 2^15) sort them apart, so each keeps its type."""
    A, B = np.zeros((253, 200), dtype=int), np.zeros((253, 170), dtype=int)
    A[0, :], B[0, 0] = 1, 1
    A[1, 0], B[1, :] = 1, 1
    A[2, :2], B[2, :2] = 1, 1
    A[3:, 0], B[3:, 0] = 1, 1
    c = compare_covers(A, B)
    w, TA, TB = c._joint
    got = {(tuple(TA[[i]].indices.tolist()), tuple(TB[[i]].indices.tolist())): int(w[i]) for i in range(len(w))}
    assert got == _types_by_hand(A, B)
    assert np.array_equal(c.overlap, A.T @ B)
    assert c.omega() == pytest.approx(_brute_omega(A, B), rel=1e-6)  # the pairs by hand lose digits near 0 in floats


def _extended_bcubed_precision_exactly(A, B) -> Fraction:
    """Extended BCubed precision in fractions, pair by pair, over the objects in some candidate cluster."""
    a, b = A @ A.T, B @ B.T
    covered = [u for u in range(len(A)) if b[u, u]]
    per_object = [sum((Fraction(min(int(a[u, v]), int(b[u, v])), int(b[u, v])) for v in np.flatnonzero(b[u])),
                      Fraction(0)) / len(np.flatnonzero(b[u])) for u in covered]
    return sum(per_object, Fraction(0)) / len(covered)


def test_extended_bcubed_of_objects_in_many_clusters_keeps_its_last_digits():
    """Objects in up to 5 clusters a side: the pair counts' moments reach n 2^(J + L) and the binomial
    transform alternates in sign; E is counted exactly before the shares are summed, so the value is
    the exact one rounded, not one with its last few digits lost."""
    reference = [[0], [0, 6], [3, 4, 5], [3, 5], [1, 2, 4, 7, 8], [0, 6], [2, 5, 7, 8], [3, 5], [1, 2, 6, 7, 8], [1],
                 [0, 3], [4], [1], [2, 7, 8]]
    candidate = [[0, 2, 5, 7, 8], [0, 2, 3, 5, 7, 8], [0, 2, 3, 5, 7, 8], [2, 7, 8], [0, 4, 5], [0, 2, 3, 5, 7, 8],
                 [2, 7, 8], [0, 2, 5, 7, 8], [0, 2, 3, 5, 7, 8], [0, 4, 5], [0, 2, 7, 8], [0, 4, 5], [2, 5, 7, 8]]
    c = compare_covers(as_cover(reference, objects=range(9)), as_cover(candidate, objects=range(9)))
    exact = _extended_bcubed_precision_exactly(c.reference.members.toarray(), c.candidate.members.toarray())
    assert c.extended_bcubed_precision() == pytest.approx(float(exact), rel=1e-15)


def test_objects_counted_pair_by_pair_in_150_clusters_a_side():
    """One object in 150 clusters a side: its pairs are counted one by one, E with (J + 1)(L + 1) =
    22 801 cells a type, and no square matrix of that many cells is made."""
    A, B = np.zeros((50, 150), dtype=int), np.zeros((50, 150), dtype=int)
    A[0], A[1:, 0] = 1, 1
    B[0], B[1:, 1 + np.arange(49) % 149] = 1, 1
    c = compare_covers(A, B)
    assert c.extended_bcubed_precision() == pytest.approx(bcubed.precision(_sets(B), _sets(A)), abs=1e-14)
    assert c.omega() == pytest.approx(_brute_omega(A, B), abs=1e-12)


def test_measures_beyond_their_limits_are_nan_with_a_warning(monkeypatch):
    monkeypatch.setattr(covers, "MAX_OVERLAP_CELLS", 3)
    c = compare_covers([[0, 1], [2, 3]], [[0, 1, 2], [3]])
    with pytest.warns(CluvalWarning, match="is not computed: the overlap table of 2 x 2 clusters"):
        values = c.scores()
    assert math.isnan(values["onmi_lfk"]) and math.isnan(values["f1"]) and math.isfinite(values["omega"])
    monkeypatch.setattr(covers, "MAX_SUBSETS", 1)
    monkeypatch.setattr(covers, "MAX_PAIRWISE_OBJECTS", 2)
    with pytest.raises(CluvalError, match="pair measures"):
        compare_covers([[0, 1], [2, 3]], [[0, 1, 2], [3]]).omega()


def test_empty_clusters_move_no_measure():
    rng = np.random.default_rng(11)
    A, B = _random_covers(rng, 25, 3, 4)
    with_empty = np.hstack([B, np.zeros((25, 5), dtype=int)])
    assert compare_covers(A, with_empty).scores() == pytest.approx(compare_covers(A, B).scores(), abs=1e-15)


def test_tables_and_names_are_read_as_they_mean():
    wide = pd.DataFrame([[1, 0, 1], [0, 1, 1], [1, 1, 0], [0, 0, 1]], columns=["x", "y", "z"], index=list("abcd"))
    cover = as_cover(wide)
    assert cover.objects.tolist() == list("abcd") and cover.clusters.tolist() == ["x", "y", "z"]
    assert cover.memberships_per_object.tolist() == [2, 2, 2, 1]
    assert as_cover(pd.DataFrame({"label": [0, 0, 1]})).k == 2  # one column: labels
    with pytest.raises(CluvalError, match="two columns"):
        as_cover(pd.DataFrame({"o": ["a", "b"], "c": ["x", "y"], "note": ["p", "q"]}))
    tuples = as_cover(np.eye(3, dtype=int), objects=[(0, 1), (1, 2), (2, 3)])
    assert tuples.objects.shape == (3,) and tuples.objects[0] == (0, 1)
    assert as_cover(np.array([[1, 0], [0, 1], [1, 1]], dtype=object)).k == 2
    assert cover_from_memberships(sparse.csr_array([[0.9, 0.1], [0.2, 0.8]]), 0.5).k == 2


@pytest.mark.parametrize("call, message", [
    (lambda: as_cover([0, 0, 1, 1], objects=["a", "b", "c"]), "4 objects but 3 objects were named"),
    (lambda: as_cover([["a", "b"]], objects=["a", "a", "b"]), "more than once"),
    (lambda: cover_from_memberships([["x", "y"], ["z", "w"]], 0.5), "matrix of numbers"),
    (lambda: cover_from_memberships([[0.5], [0.5, 0.5]], 0.5), "matrix of numbers"),
])
def test_hostile_names_and_memberships_are_refused_with_a_message(call, message):
    with pytest.raises(CluvalError, match=message):
        call()


def test_a_partition_and_hardened_memberships_as_covers():
    cover = cover_of_partition(np.array([1, 1, 0, 2, 2]), noise=0)
    assert cover.memberships_per_object.tolist() == [1, 1, 0, 1, 1] and cover.k == 2
    assert cover.summary() == {"clusters": 2, "memberships per object": 0.8, "objects in several clusters": 0,
                               "objects in none": 1}
    hard = hardened_cover([[0.6, 0.4], [0.5, 0.5], [0.1, 0.9]])
    assert hard.members.toarray().tolist() == [[1, 0], [1, 0], [0, 1]]  # a tie goes to the first


def test_objects_given_as_a_generator_are_read_once():
    cover = as_cover([["a", "b"], ["c"]], objects=(name for name in "abcd"))
    assert cover.objects.tolist() == list("abcd") and cover.memberships_per_object.tolist() == [1, 1, 1, 0]


def test_a_zero_stored_in_a_sparse_matrix_is_no_membership():
    stored = sparse.csr_array((np.array([1, 0, 1, 1]), np.array([0, 1, 1, 0]), np.array([0, 2, 3, 4])), shape=(3, 2))
    assert stored.nnz == 4
    assert as_cover(stored).members.toarray().tolist() == [[1, 0], [0, 1], [1, 0]]


def _types_by_hand(A, B) -> dict:
    """Each object type (its clusters on both sides) with how many objects have it."""
    found = {}
    for row_a, row_b in zip(A, B):
        key = (tuple(np.flatnonzero(row_a).tolist()), tuple(np.flatnonzero(row_b).tolist()))
        found[key] = found.get(key, 0) + 1
    return found


def _grouped_and_counted(ka, kb, pa, pb, seed) -> set:
    """The types of two random covers are the types by hand and the moments' pair counts the pairs
    counted one by one; returns how the types were grouped."""
    rng = np.random.default_rng(seed)
    n = 300
    A = (rng.random((n, ka)) < pa).astype(int)
    B = (rng.random((n, kb)) < pb).astype(int)
    A[rng.integers(0, n, 40), :] = 0  # some objects in no reference cluster
    A[:60], B[:60] = 0, 0  # two crowds of objects of one type each, in several clusters: with the hundreds of
    A[:30, :7], B[:30, :2] = 1, 1  # clusters kept of 2 200, some 300^9 needs more than 62 bits (rows sorted)
    A[30:60, 7:10], B[30:60, 0] = 1, 1  # and some 300^4 fewer, but more than 2^16 (codes sorted)
    c = compare_covers(A, B)
    radix = max(c.reference.k, c.candidate.k)
    groupings = {("one code: " + ("counted" if covers._counted((c.reference.k + 1) * (c.candidate.k + 1), n)
                                  else "codes sorted")) if x <= 1 and y <= 1 else
                 "counted" if covers._counted(radix ** (x + y), int(objects.sum())) else "codes sorted"
                 if radix ** (x + y) < 2**62 else "rows sorted" for (x, y), (objects, _, _) in c._kinds.items()}
    kept_a, kept_b = A[:, A.sum(axis=0) > 0], B[:, B.sum(axis=0) > 0]
    w, TA, TB = c._joint
    got = {(tuple(TA[[i]].indices.tolist()), tuple(TB[[i]].indices.tolist())): int(w[i]) for i in range(len(w))}
    assert got == _types_by_hand(kept_a, kept_b)
    D, E = c._pair_counts.D, c._pair_counts.E
    by_pair = covers._pairwise_counts(*c._joint)
    D_by_pair, E_by_pair = by_pair.D, by_pair.E
    assert np.array_equal(D, D_by_pair) and np.array_equal(E, E_by_pair)
    return groupings


def test_object_types_and_pair_counts_by_every_grouping(monkeypatch):
    """Types are found by counting their clusters' codes, by sorting them, or (beyond 62 bits) by sorting
    the rows; the moments' pair counts equal the pairs counted one by one, whichever grouping ran."""
    monkeypatch.setattr(covers, "MAX_PAIRWISE_OBJECTS", 0)  # the moments, never the pairs one by one
    seen = set()
    for case in [(5, 4, 0.3, 0.4, 0), (2200, 3, 0.0005, 0.3, 1), (70, 60, 0.03, 0.03, 2), (3, 1, 0.5, 0.5, 3),
                 (2200, 2200, 0.0008, 0.0008, 4)]:
        seen |= _grouped_and_counted(*case)
    assert seen == {"counted", "codes sorted", "rows sorted", "one code: counted", "one code: codes sorted"}


def test_the_pair_counts_are_the_same_without_the_overlap_table_or_in_whole_numbers(monkeypatch):
    rng = np.random.default_rng(9)
    A, B = _random_covers(rng, 120, 6, 5)
    want = compare_covers(A, B).scores(["omega", "extended_bcubed_precision", "extended_bcubed_recall"])
    monkeypatch.setattr(covers, "MAX_OVERLAP_CELLS", 3)  # the pairs of single clusters counted, not looked up
    monkeypatch.setattr(covers, "_FLOAT_WHOLE", 1.0)  # the transform in integers
    assert compare_covers(A, B).scores(["omega", "extended_bcubed_precision", "extended_bcubed_recall"]) == want


def test_a_membership_listed_any_number_of_times_is_one_and_the_callers_matrix_stays():
    repeated = [[0] * 300 + [1], [1, 2]]  # object 0 listed 300 times in the first cluster
    assert as_cover(repeated).members.toarray().tolist() == [[1, 0], [1, 1], [0, 1]]
    stored = sparse.csr_array((np.array([1.0, 0.0, 1.0, 1.0, 1.0]), np.array([0, 1, 1, 0, 1]),
                               np.array([0, 2, 3, 5])), shape=(3, 2))
    before = (stored.data.copy(), stored.indices.copy(), stored.indptr.copy())
    first = compare_covers([[0, 2], [1, 2]], stored).omega()
    assert all(np.array_equal(x, y) for x, y in zip(before, (stored.data, stored.indices, stored.indptr)))
    assert compare_covers([[0, 2], [1, 2]], stored).omega() == first == 1.0
    unsorted = sparse.csr_array((np.ones(4), np.array([1, 0, 1, 0]), np.array([0, 3, 4, 4])), shape=(3, 2))
    assert not unsorted.has_canonical_format  # a row's clusters out of order, one listed twice
    assert as_cover(unsorted).members.toarray().tolist() == [[1, 1], [1, 0], [0, 0]]
    assert unsorted.indices.tolist() == [1, 0, 1, 0]


@pytest.mark.parametrize("times", [2, 256, 257])
@pytest.mark.parametrize("form", ["coo", "csc"])
def test_a_membership_listed_many_times_in_a_coo_or_csc_matrix_is_one(times, form):
    """A COO (or CSC) matrix of 8-bit data that lists a membership 256 times: read each stored 1 apart
    and summed in 64 bits, it is one membership (summed in 8 bits it wrapped to 0, and was lost)."""
    rows, ones = np.r_[np.zeros(times, dtype=np.int32), 1, 2], np.ones(times + 2, dtype=np.int8)
    if form == "coo":
        listed = sparse.coo_array((ones, (rows, np.r_[np.zeros(times, dtype=int), 1, 1])), shape=(3, 2))
    else:  # by columns, the repeats kept as stored
        listed = sparse.csc_array((ones, rows, np.array([0, times, times + 2], dtype=np.int32)), shape=(3, 2))
    assert as_cover(listed).members.toarray().tolist() == [[1, 0], [0, 1], [0, 1]]


def test_a_cover_of_no_cluster_at_all_is_compared_by_its_definitions():
    """Every object in no cluster of the reference: each pair shares 0 clusters there."""
    B = np.array([[1, 0], [1, 0], [0, 1], [0, 1], [1, 1]])
    c = compare_covers(np.zeros((5, 3), dtype=int), B)
    assert c.reference.k == 0
    assert c.omega() == pytest.approx(_brute_omega(np.zeros((5, 0), dtype=int), B), abs=1e-15)
    assert c.omega_expected() == pytest.approx(4 / 10, abs=1e-15)  # the 4 of 10 pairs sharing no candidate cluster
    assert math.isnan(c.extended_bcubed_recall())  # no object in a reference cluster
    both = compare_covers(np.zeros((4, 1), dtype=int), np.zeros((4, 2), dtype=int))
    assert both.omega() == 1.0  # every pair shares 0 clusters on both sides


def test_measure_ids_must_be_names():
    with pytest.raises(CluvalError, match="unknown cover measure"):
        compare_covers([[0, 1], [2, 3]], [[0, 1, 2], [3]]).scores([["omega"]])


def test_complex_unhashable_and_ambiguous_inputs_are_refused_or_said():
    with pytest.raises(CluvalError, match="complex"):
        as_cover(np.array([[1 + 1j, 0], [0, 1]]))
    with pytest.raises(CluvalError, match="hashable"):
        as_cover(np.eye(3), objects=[[0], [1], [2]])
    with pytest.warns(CluvalWarning, match="read as \\(object, cluster\\) rows"):
        as_cover(pd.DataFrame({"c1": [1, 0, 1], "c2": [0, 1, 1]}))
    assert as_cover(pd.DataFrame({"c1": [1, 0, 1], "c2": [0, 1, 1]}).to_numpy()).n == 3


def test_counting_pairs_one_by_one_is_refused_where_its_table_would_be_too_large(monkeypatch):
    """The pair-by-pair count holds, for each kind of object, a count per number of shared clusters."""
    reference = [[0, 1, i + 2] for i in range(24)]
    monkeypatch.setattr(covers, "MAX_OVERLAP_CELLS", 10)
    with pytest.warns(CluvalWarning, match="listed by one cover only"):
        c = compare_covers(reference, [[0, 1], [2, 3]], policy="singletons")
    with pytest.raises(CluvalError, match="kinds of objects times the clusters a pair can share"):
        c.omega()


def test_the_cover_peer_map_names_every_measure_and_its_python_calls_say_what_they_give():
    """Every cover measure has a row per peer; the Python peers' calls resolve, and the relation the
    map states holds on random covers (clusim's and python-bcubed's; cdlib and networkit were read)."""
    assert list(COVER_PEER_NAMES) == list(COVER_MEASURES)
    assert all(list(entries) == list(COVER_PEERS) for entries in COVER_PEER_NAMES.values())
    rng = np.random.default_rng(4)
    A, B = _random_covers(rng, 40, 4, 5)
    c = compare_covers(A, B)
    ctrue, cpred = _clusim(A), _clusim(B)
    cdict, ldict = _sets(B), _sets(A)
    run = {"omega": lambda: sim.omega_index(ctrue, cpred),
           "onmi_lfk": lambda: sim.onmi(ctrue, cpred),
           "ecs": lambda: sim.element_sim(ctrue, cpred, alpha=0.9),
           "extended_bcubed_precision": lambda: bcubed.precision(cdict, ldict),
           "extended_bcubed_recall": lambda: bcubed.recall(cdict, ldict),
           "extended_bcubed_f": lambda: bcubed.fscore(bcubed.precision(cdict, ldict), bcubed.recall(cdict, ldict))}
    for measure, call in run.items():
        entry = next(e for e in COVER_PEER_NAMES[measure].values() if e.call and e.call.split("(")[0] in
                     ("clusim.sim.omega_index", "clusim.sim.onmi", "clusim.sim.element_sim", "bcubed.precision",
                      "bcubed.recall", "bcubed.fscore"))
        try:
            theirs = call()
        except AttributeError as exc:  # clusim 0.4's element_sim of covers with recent SciPy, as the note says
            assert "tolist" in str(exc) and "tolist" in entry.note
            continue
        ours = getattr(c, measure)()
        assert (theirs == pytest.approx(ours, abs=1e-12)) == (entry.relation == "same"), measure
    with pytest.raises(CluvalError, match="unknown cover measure"):
        cover_peer_names("ari")
    assert cover_peer_names("onmi_mgh").set_index("tool").loc["networkit", "relation"] == "scaled"


@pytest.mark.parametrize("indices, indptr, message", [
    ([0, 1, 0], [0, 3, 1, 3], "indptr must be a non-decreasing"),
    ([0, 5, 0], [0, 2, 2, 3], "indices must be < 2"),
    ([0, -1, 0], [0, 2, 2, 3], "indices must be >= 0"),
])
def test_a_malformed_sparse_matrix_is_refused_not_read(indices, indptr, message):
    """A CSR matrix whose row pointers fall or whose clusters lie outside its columns (scipy checks neither
    when it is made) is refused with scipy's reason, not read as some other cover."""
    members = sparse.csr_array((np.ones(3, np.int8), np.array(indices), np.array(indptr)), shape=(3, 2))
    with pytest.raises(CluvalError, match=f"malformed: {message}"):
        compare_covers(members, [[0, 1], [2]])


@pytest.mark.parametrize("largest", [2**20, 2**61])
def test_each_set_is_given_the_objects_summed_over_its_code(largest):
    """The sets' objects are summed over equal codes: grouped by their high bits and a table of 2^16 slots
    where the high bits are few (codes below 2^20), sorted where they are not (below 2^61)."""
    rng = np.random.default_rng(largest % 1000)
    codes = rng.choice(rng.integers(0, largest, 300, dtype=np.int64), 5_000)  # many codes alike
    weights = rng.integers(1, 50, len(codes))
    _, inverse = np.unique(codes, return_inverse=True)
    assert np.array_equal(covers._shared(codes, weights), np.bincount(inverse, weights=weights)[inverse])
    assert len(covers._shared(codes[:0], weights[:0])) == 0


def test_unnamed_objects_are_one_read_only_list_of_positions():
    a, b = as_cover([[0, 1], [2, 3]]), as_cover(np.eye(4, dtype=int))
    assert as_cover(np.eye(4, dtype=int)).objects is b.objects and not b.objects.flags.writeable
    assert a.objects.tolist() == b.objects.tolist() == [0, 1, 2, 3]


@pytest.mark.parametrize("dtype", [np.float16, np.longdouble, ">f8", ">i8"])
def test_a_csr_matrix_of_any_number_type_or_byte_order_is_read(dtype):
    """Data the compiled loops cannot read (half or long floats, the other byte order) goes numpy's way."""
    dense = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0], [0, 0, 1]], np.int8)
    plain = sparse.csr_array(dense)
    odd = sparse.csr_array((plain.data.astype(dtype), plain.indices, plain.indptr), shape=plain.shape)
    swapped = sparse.csr_array(dense)
    swapped.indices, swapped.indptr = swapped.indices.astype(">i4"), swapped.indptr.astype(">i4")
    for members in (odd, swapped):
        assert as_cover(members).members.toarray().tolist() == dense.tolist()
        assert compare_covers(members, dense).omega() == 1.0


def test_a_cover_made_by_hand_is_checked_before_it_is_compared():
    """A Cover built directly (its matrix unchecked by scipy) is checked as any matrix is where it is
    compared: a cluster outside its columns is refused, never read past the end of an array."""
    objects, clusters = np.arange(4), np.arange(4)
    good = Cover(sparse.csr_array(np.eye(4, dtype=np.int8)), objects, clusters)
    assert compare_covers(good, np.eye(4, dtype=int)).omega() == 1.0
    assert CoverComparison(good, good).omega() == 1.0
    for bad in (7, 2_000_000_000, -5):
        members = sparse.csr_array((np.ones(4, np.int8), np.array([0, 1, 2, bad]), np.arange(5)), shape=(4, 4))
        with pytest.raises(CluvalError, match="malformed"):
            compare_covers(Cover(members, objects, clusters), good)
        with pytest.raises(CluvalError, match="malformed"):
            CoverComparison(good, Cover(members, objects, clusters))
        with pytest.raises(CluvalError, match="malformed"):
            Cover(members, objects, clusters).sizes  # noqa: B018 - counted only once checked
    assert Cover(sparse.csr_array(np.eye(4, dtype=np.int8)), objects, clusters).sizes.tolist() == [1, 1, 1, 1]
    with pytest.raises(CluvalError, match="same objects"):
        CoverComparison(good, as_cover(np.eye(5, dtype=int)))
    with pytest.raises(CluvalError, match="not a sparse matrix of its objects by its clusters"):
        compare_covers(Cover(sparse.csr_array(np.eye(3, dtype=np.int8)), objects, clusters), good)
