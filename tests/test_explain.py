"""Why the headline indices differ, in words (cluval_core.outputs.explain): every number a claim
states is checked against a value computed here by hand or read off the comparison."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.sparse import csr_array

from cluval_core import Comparison
from cluval_core.outputs.explain import AGREEMENT, CARRIED_SHARE, explain, outline
from cluval_core.outputs.plots import OUTLINE, contingency_heatmap

# Unbalance clustered by k-means (random start, seed 0): reference cluster 1 (2,000 objects) split
# over five candidate clusters, the five sparse clusters of 100 merged into candidate cluster 8.
UNBALANCE_KMEANS = np.array([[0, 541, 302, 0, 419, 329, 409, 0],
                             [0, 0, 0, 2000, 0, 0, 0, 0],
                             [2000, 0, 0, 0, 0, 0, 0, 0],
                             *[[0, 0, 0, 0, 0, 0, 0, 100]] * 5])
LABELS = list(range(1, 9))


def unbalance() -> Comparison:
    return Comparison.from_table(UNBALANCE_KMEANS, row_labels=LABELS, col_labels=LABELS)


def kinds(explanation) -> list[str]:
    return [claim.kind for claim in explanation.claims]


def test_unbalance_names_the_merge_as_what_decides_psi_against_ari():
    e = explain(unbalance())
    assert kinds(e) == ["disagree", "disagree", "carried", "carried", "counts", "merge", "split", "orphans"]
    widest, ari_psi = e.claims[:2]
    # NMI is the highest similarity here, PSI the lowest; ARI against PSI comes second
    assert widest.text.startswith("PSI (0.2346) is lower than NMI (0.8076).")
    assert ari_psi.text.startswith("PSI (0.2346) is lower than ARI (0.789).")
    merge = "candidate cluster 8 (500 objects) merges 5 reference clusters, 4, 5, 6, 7 and 8 (100 objects each)"
    assert merge in widest.text and merge in ari_psi.text
    # five of the eight clusters PSI counts; the pairs ARI counts: the merged candidate cluster's
    # C(500, 2) = 124,750 of the 4,539,234 pairs within candidate clusters (more than the reference
    # side's 5 × 4,950 of 6,021,750)
    assert ari_psi.numbers["share of clusters"] == 5 / 8
    assert ari_psi.numbers["share of pairs"] == pytest.approx(124_750 / 4_539_234)
    assert "5 of the 8 clusters (62%) PSI counts, but hold 2.7% of the pairs of objects ARI counts" in ari_psi.text
    # against NMI, objects: 500 of 6,500
    assert widest.numbers["share of objects"] == pytest.approx(500 / 6500)
    assert "7.7% of the objects NMI counts" in widest.text
    assert widest.rows == (3, 4, 5, 6, 7) and widest.cols == (7,)
    assert widest.cells == tuple((i, 7) for i in range(3, 8))


def test_unbalance_facts_psi_pairs_and_what_each_index_counts():
    e = explain(unbalance())
    by_kind = {claim.kind: claim for claim in e.claims}
    split = by_kind["split"]
    assert split.text == ("Reference cluster 1 (2,000 objects) is split: 5 candidate clusters, 2, 5, 7, 6 and 3, are "
                          "made mostly of it (they share 541, 419, 409, 329 and 302 of its objects).")
    assert split.rows == (0,) and split.cols == (1, 4, 6, 5, 2)
    counts = by_kind["counts"]
    assert counts.numbers["pair ratio"] == pytest.approx(1_999_000 / 4_950)  # C(2000, 2) / C(100, 2)
    assert "holds 1,999,000 pairs, cluster 4 (100) 4,950" in counts.text and "weighs 404 times" in counts.text
    assert counts.numbers["object ratio"] == 20
    psi = e.claims[3]
    assert psi.numbers == {"S": pytest.approx(1 + 1 + 541 / 2000 + 100 / 500), "k": 8, "whole": 2}
    assert "S = 2.47 of a possible max(K, K′) = 8" in psi.text
    assert "(1, 2) adds 0.27; (4, 8) adds 0.20; 4 clusters without a partner sharing objects add 0" in psi.text
    orphans = by_kind["orphans"]
    assert orphans.text.startswith("CI = 4: ") and orphans.cols == (2, 4, 5, 6) and orphans.rows == (4, 5, 6, 7)


def test_the_cells_named_as_carrying_ari_are_the_fewest_that_reach_the_share():
    c = unbalance()
    claim = explain(c).claims[2]
    parts = c.contributions("ari").cells.clip(min=0)
    shares = [parts[i, j] / parts.sum() for i, j in claim.cells]
    assert sum(shares) == pytest.approx(claim.numbers["share"])
    assert sum(shares) >= CARRIED_SHARE > sum(shares[:-1])
    assert shares == sorted(shares, reverse=True)
    assert claim.cells == ((1, 3), (2, 0))  # the two dense clusters found whole
    assert "(2, 4) and (3, 1): 90% of what its cells add" in claim.text


def test_identical_partitions_agree():
    e = explain(Comparison.from_table([[5, 0], [0, 5]]))
    assert e.claims[0].kind == "agree" and e.claims[0].numbers["gap"] == 0
    assert "agree to within 0.1: ARI 1, NMI 1, AMI 1, PSI 1" in e.claims[0].text
    assert "all have 5 objects" in e.claims[-1].text


def test_one_cluster_on_each_side():
    e = explain(Comparison.from_table([[10]]))
    assert "There is one reference cluster (10 objects)" in e.claims[-1].text
    assert "1 pair found whole adds 1" in e.claims[-2].text


def test_a_gap_with_no_structural_cause_says_so():
    e = explain(Comparison.from_table([[5, 1, 2], [1, 4, 0], [0, 1, 3]]))  # Manning et al.'s example
    gap = e.claims[0]
    assert gap.kind == "disagree" and gap.numbers["gap"] >= AGREEMENT
    assert "No single merge, split or orphan explains the gap" in gap.text
    assert not (gap.rows or gap.cols or gap.cells)


def test_claims_follow_the_clusters_not_their_order():
    """Permuting rows and columns (labels attached) gives the same sentences about the same clusters.

    Only ties may differ: which of the five merged clusters of 100 the Hungarian pairing gives
    candidate cluster 8, and which the CI mapping sends it to, is broken in the table's order;
    PSI's S and the number of orphans are the same.
    """
    c = unbalance()
    rng = np.random.default_rng(3)
    rows, cols = rng.permutation(8), rng.permutation(8)
    shuffled = Comparison.from_table(UNBALANCE_KMEANS[rows][:, cols], row_labels=np.array(LABELS)[rows],
                                     col_labels=np.array(LABELS)[cols])
    original, permuted = explain(c), explain(shuffled)
    assert kinds(original) == kinds(permuted)
    assert original.claims[3].numbers == permuted.claims[3].numbers  # PSI's S, k and the pairs found whole
    assert permuted.claims[-1].text.startswith("CI = 4: ")
    untied = [i for i, claim in enumerate(original.claims) if claim.kind != "orphans" and i != 3]
    for i in untied:
        a, b = original.claims[i], permuted.claims[i]
        assert a.text == b.text
        assert sorted(c.row_labels[k] for k in a.rows) == sorted(shuffled.row_labels[k] for k in b.rows)
        assert sorted(c.col_labels[k] for k in a.cols) == sorted(shuffled.col_labels[k] for k in b.cols)


def test_a_sparse_table_is_explained_as_the_dense_one():
    dense = unbalance()
    sparse = Comparison.from_table(csr_array(UNBALANCE_KMEANS), row_labels=LABELS, col_labels=LABELS)
    assert sparse.is_sparse  # a scipy sparse table stays sparse (tests/test_edges.py)
    assert [claim.text for claim in explain(sparse).claims] == [claim.text for claim in explain(dense).claims]


def test_soft_tables_are_explained_with_finite_shares():
    rng = np.random.default_rng(0)
    U = rng.dirichlet(np.ones(3), size=60)
    V = np.column_stack([U[:, 0] + U[:, 1], U[:, 2]])
    e = explain(Comparison.from_memberships(U, V))
    assert e.claims and all(claim.text for claim in e.claims)
    assert all(math.isfinite(v) for claim in e.claims for v in claim.numbers.values())


def test_outline_is_the_claims_cells_else_its_clusters():
    e = explain(unbalance())
    merge = next(claim for claim in e.claims if claim.kind == "merge")
    assert outline(merge) == tuple((i, 7) for i in range(3, 8))
    counts = next(claim for claim in e.claims if claim.kind == "counts")
    assert outline(counts) == ((0, None), (3, None))  # the largest and the smallest reference cluster
    fig = contingency_heatmap(unbalance(), outline=outline(merge))
    drawn = fig.data[-1]
    assert drawn.line.color == OUTLINE
    assert list(drawn.x).count(None) == 5  # one rectangle per merged cluster's cell
