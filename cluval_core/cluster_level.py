"""Cluster-level indices: Centroid Index, Centroid Similarity Index, Centroid Ratio.

Every cluster is mapped to its nearest cluster in the other partition: by Jaccard similarity
n_ij / (r_i + c_j - n_ij) for the partition-based variants (``ci_partition``,
``csi_partition``), by squared Euclidean distance between centroids for the centroid-based
ones (``ci_centroid``, ``csi_centroid``, which need X). Ties go to the lowest index.

* CI = max(orphans of the mapping reference -> candidate, orphans candidate -> reference),
  where an orphan is a target cluster that nothing maps to (Fränti, Rezaei & Zhao 2014):
  0 means the same cluster-level structure, each unit is one cluster missing somewhere.
* CSI = (sum_i n_{i,NN(i)} + sum_j n_{NN(j),j}) / (2N) with the same mapping.
* CR = 1 - (#unstable pairs) / max(K_a, K_b) (Zhao & Fränti 2014): centroids are paired
  greedily by distance; a pair is unstable if D_ij^2 / (D_i D_j) > 1, D_i being a centroid's
  distance to its nearest other centroid in its own solution. With unequal numbers of
  clusters the centroids left unpaired count as unstable (for K_a = K_b this is the paper's
  definition).
"""

from __future__ import annotations

import numpy as np

from ._numeric import order_free_sum

__all__ = ["centroid_index", "centroid_similarity_index", "centroid_ratio"]


def _mapping(c, basis: str):
    return c.jaccard_mapping if basis == "partition" else c.centroid_mapping


def centroid_index(c, basis: str = "partition") -> float:
    forward, backward = _mapping(c, basis)
    return float(max(forward.n_orphans, backward.n_orphans))


def centroid_similarity_index(c, basis: str = "partition") -> float:
    cells = np.concatenate(c.mapped_overlaps(basis))
    shared = order_free_sum(cells) if c.is_soft else int(cells.sum())
    return float(shared / (2 * c.n))


def centroid_ratio(c) -> float:
    cr = c.centroid_ratio
    k = max(c.k_true, c.k_pred)
    return 1.0 - (int(cr.unstable.sum()) + cr.n_unpaired) / k
