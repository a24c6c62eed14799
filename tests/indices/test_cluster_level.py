"""The cluster-level family (the Centroid Index and Centroid Similarity Index of partitions and
of centroids, the Centroid Ratio): values by hand, the computation in steps, special cases."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from cluval_core import compare
from family_cases import HAND_A, HAND_B, steps_by_symbol


def test_partition_indices_in_steps_by_hand():
    # HAND_A against HAND_B by Jaccard: G0 -> P0, G1 -> P1 (2/3), G2 -> P2 (1/2 > 1/5), G3 -> P2
    # (1/3): every candidate cluster is reached. P0 -> G0, P1 -> G1, P2 -> G2: G3 is an orphan.
    c = compare(HAND_A, HAND_B)
    assert steps_by_symbol(c, "ci_partition") == {"orphans(G→P)": 0, "orphans(P→G)": 1, "CI": 1.0}
    forward, backward = c.jaccard_mapping
    assert forward.targets.tolist() == [0, 1, 2, 2] and forward.orphans.tolist() == []
    assert backward.targets.tolist() == [0, 1, 2] and backward.orphans.tolist() == [3]
    # shared objects along the mappings: 2 + 2 + 2 + 1 one way, 2 + 2 + 2 the other
    assert c.score("csi_partition") == float(Fraction(7 + 6, 2 * 8))
    assert list(steps_by_symbol(c, "csi_partition").values())[-1] == c.score("csi_partition")


def test_centroid_index_counts_orphans_both_ways():
    # Reference 4 clusters; candidate merges 0+1 and splits 3 into two: one orphan each way.
    truth = np.repeat([0, 1, 2, 3], 10)
    pred = np.repeat([0, 0, 1, 2], 10)
    pred[35:] = 3
    c = compare(truth, pred)
    forward, backward = c.jaccard_mapping
    assert forward.targets.tolist() == [0, 0, 1, 2]  # clusters 0 and 1 both map to merged 0
    assert forward.orphans.tolist() == [3]
    assert backward.targets.tolist() == [0, 2, 3, 3]
    assert backward.orphans.tolist() == [1]
    assert c.score("ci_partition") == 1.0
    shared = (10 + 10 + 10 + 5) + (10 + 10 + 5 + 5)
    assert c.score("csi_partition") == pytest.approx(shared / 80, abs=1e-15)


def test_centroid_based_index_uses_feature_space():
    X = np.array([[0.0, 0], [0, 1], [10, 0], [10, 1], [20, 0], [20, 1]])
    truth = [0, 0, 1, 1, 2, 2]
    pred = [0, 0, 0, 0, 1, 2]  # merges the first two, splits the third
    c = compare(truth, pred, X=X)
    assert c.centroids[1].tolist() == [[5.0, 0.5], [20.0, 0.0], [20.0, 1.0]]
    assert c.score("ci_centroid") == 1.0
    assert c.score("ci_partition") == 1.0
    assert compare(truth, truth, X=X).score("cr") == 1.0
    assert c.score("cr") < 1.0


def test_one_cluster_on_each_side():
    assert compare([1, 1, 1, 1], ["a", "a", "a", "a"]).score("ci_partition") == 0.0
