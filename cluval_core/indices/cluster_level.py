"""Cluster-level indices: Centroid Index, Centroid Similarity Index, Centroid Ratio, each in one place.

Every cluster is mapped to its nearest cluster in the other partition: by Jaccard similarity
n_ij / (r_i + c_j - n_ij) for the partition-based variants (``ci_partition``,
``csi_partition``), by squared Euclidean distance between centroids for the centroid-based
ones (``ci_centroid``, ``csi_centroid``, which need X). Equal candidates go to the cluster
that occurs first in the data (the tie order), so no relabelling changes a value.

* CI = max(orphans of the mapping reference -> candidate, orphans candidate -> reference),
  where an orphan is a target cluster that nothing maps to (Fränti, Rezaei & Zhao 2014):
  0 means the same cluster-level structure, each unit is one cluster missing somewhere.
* CSI = (sum_i n_{i,NN(i)} + sum_j n_{NN(j),j}) / (2N) with the same mapping.
* CR = 1 - (#unstable pairs) / max(K_a, K_b) (Zhao & Fränti 2014): centroids are paired
  greedily by distance; a pair is unstable if D_ij^2 / (D_i D_j) > 1, D_i being a centroid's
  distance to its nearest other centroid in its own solution. With unequal numbers of
  clusters the centroids left unpaired count as unstable (for K_a = K_b this is the paper's
  definition).

>>> from cluval_core import compare
>>> print(compare([0, 0, 1, 1, 2, 2], [0, 0, 0, 0, 1, 1]).steps("ci_partition"))
orphans(G→P) = candidate clusters no reference cluster maps to = none = 0
orphans(P→G) = reference clusters no candidate cluster maps to = 1
CI = max(orphans(G→P), orphans(P→G)) = max(0, 1) = 1
"""

from __future__ import annotations

import numpy as np

from ..core.labels import score_labels
from ..core.numeric import order_free_sum
from ..core.registry import INF, Anatomy, IndexInfo
from ..core.steps import Step, listed, shown

__all__ = ["centroid_index", "centroid_similarity_index", "centroid_ratio"]

FAMILY, FAMILY_NAME = "cluster_level", "Cluster level (centroid index family)"

CI_PAPER = "Fränti, Rezaei & Zhao (2014), Centroid index: cluster level similarity measure, Pattern Recognition 47(9)"


def _mapping(c, basis: str):
    return c.jaccard_mapping if basis == "partition" else c.centroid_mapping


# ---------------------------------------------------------------------- Centroid Index
def _centroid_index(c, basis: str) -> float:
    forward, backward = _mapping(c, basis)
    return float(max(forward.n_orphans, backward.n_orphans))


def _orphan_labels(mapping) -> str:
    labels = mapping.target_labels[mapping.orphans]
    return ", ".join(listed([str(label) for label in labels])) if len(labels) else "none"


def _ci_steps(c, basis: str):
    forward, backward = _mapping(c, basis)
    by = "largest Jaccard similarity" if basis == "partition" else "nearest centroid"
    return [Step("orphans(G→P)", "candidate clusters no reference cluster maps to", _orphan_labels(forward),
                 forward.n_orphans, f"each reference cluster maps to the candidate cluster of {by}"),
            Step("orphans(P→G)", "reference clusters no candidate cluster maps to", _orphan_labels(backward),
                 backward.n_orphans),
            Step("CI", "max(orphans(G→P), orphans(P→G))", f"max({forward.n_orphans}, {backward.n_orphans})",
                 _centroid_index(c, basis))]


def _ci_clusters(c, basis: str):
    forward, backward = _mapping(c, basis)
    return Anatomy(None, 0.0, "1 marks a cluster that no cluster of the other partition maps to (an orphan)",
                   rows=(backward.in_degree == 0).astype(float), cols=(forward.in_degree == 0).astype(float))


# ---------------------------------------------------------------------- Centroid Similarity Index
def _mapped_sums(c, basis: str):
    """(sum_i n_{i,NN(i)}, sum_j n_{NN(j),j}): exact ints for counts."""
    forward, backward = c.mapped_overlaps(basis)
    add = order_free_sum if c.is_soft else (lambda cells: int(cells.sum()))
    return add(forward), add(backward)


def _centroid_similarity_index(c, basis: str) -> float:
    if c.is_soft:
        shared = order_free_sum(np.concatenate(c.mapped_overlaps(basis)))
    else:  # each side's sum is at most N, exact; their total can pass 2^63 (one sum of both wrapped)
        shared = sum(_mapped_sums(c, basis))
    return float(shared / (2 * c.n))


def _csi_steps(c, basis: str):
    forward, backward = c.mapped_overlaps(basis)
    first, second = _mapped_sums(c, basis)
    from_rows = "largest Jaccard similarity" if basis == "partition" else "nearest centroid"
    return [Step("Σ_i n_i,NN(i)", "objects each reference cluster shares with the cluster it maps to",
                 " + ".join(listed(forward)), first, f"mapped by {from_rows}"),
            Step("Σ_j n_NN(j),j", "the same for each candidate cluster", " + ".join(listed(backward)), second),
            Step("CSI", "(Σ_i + Σ_j) / (2N)", f"({shown(first)} + {shown(second)}) / (2 × {shown(c.n)})",
                 _centroid_similarity_index(c, basis))]


def _csi_cells(c, dense, basis: str):
    forward, backward = _mapping(c, basis)
    t = dense.table
    hits = np.zeros(t.shape)
    np.add.at(hits, (np.arange(t.shape[0]), forward.targets), 1.0)
    np.add.at(hits, (backward.targets, np.arange(t.shape[1])), 1.0)
    return Anatomy(hits * t / (2 * dense.n), 0.0, "n_ij / 2N for each mapping that chooses the cell")


# ---------------------------------------------------------------------- Centroid Ratio
def _centroid_ratio(c) -> float:
    cr = c.centroid_ratio
    k = max(c.k_true, c.k_pred)
    return 1.0 - (int(cr.unstable.sum()) + cr.n_unpaired) / k


def _cr_steps(c):
    cr = c.centroid_ratio
    k = max(c.k_true, c.k_pred)
    unstable = int(cr.unstable.sum())
    return [Step("pairs", "centroids paired greedily, closest pair first", "", len(cr.ratio)),
            Step("unstable", "#pairs with D_ij² / (D_i D_j) > 1", ", ".join(listed(cr.ratio)), unstable,
                 "each pair's ratio listed"),
            Step("unpaired", "clusters of the larger side left unpaired", "", cr.n_unpaired),
            Step("K", "max(K_a, K_b)", f"max({c.k_true}, {c.k_pred})", k),
            Step("CR", "1 − (unstable + unpaired) / K", f"1 − ({unstable} + {cr.n_unpaired}) / {k}",
                 _centroid_ratio(c))]


# ---------------------------------------------------------------------- one-line functions
def centroid_index(labels_true, labels_pred, *, X=None, noise=None) -> float:
    """Centroid Index: centroid-based with X, partition-based (Jaccard mapping) without.

    >>> centroid_index([0, 0, 1, 1, 2, 2], [0, 0, 0, 0, 1, 1])
    1.0
    """
    return score_labels("ci_partition" if X is None else "ci_centroid", labels_true, labels_pred, X=X, noise=noise)


def centroid_similarity_index(labels_true, labels_pred, *, X=None, noise=None) -> float:
    """Centroid Similarity Index: centroid-based with X, partition-based without."""
    return score_labels("csi_partition" if X is None else "csi_centroid", labels_true, labels_pred, X=X, noise=noise)


def centroid_ratio(labels_true, labels_pred, *, X, noise=None) -> float:
    """Centroid Ratio (Zhao & Fränti 2014); needs the data X."""
    return score_labels("cr", labels_true, labels_pred, X=X, noise=noise)


# ---------------------------------------------------------------------- the registry's entries
# The family's indices, in the order the registry lists them (cluval_core.indices registers them).
ENTRIES = (
    IndexInfo(
        id="ci_partition", headline=True, name="Centroid index (partition-based)", family=FAMILY, range=(0, INF),
        higher_is_better=False, chance_adjusted=False, symmetric=True, integer_valued=True, tie_dependent=True,
        cost="pairing", function=centroid_index,
        formula=r"\mathrm{CI} = \max(\mathrm{orphans}(G\to P), \mathrm{orphans}(P\to G))",
        symbols=r"Each reference cluster maps to the candidate cluster with the largest Jaccard similarity $n_{ij} / "
                r"(r_i + c_j - n_{ij})$; $\mathrm{orphans}(G \to P)$ counts the candidate clusters nobody maps to, "
                r"and $P \to G$ is the same the other way. Equal similarities go to the cluster that occurs first.",
        reference=CI_PAPER,
        caveat="Counts missing clusters, not misplaced objects: two partitions with CI = 0 can still differ "
               "in many border points.",
        compute=lambda c: _centroid_index(c, "partition"), steps=lambda c: _ci_steps(c, "partition"),
        clusters=lambda c: _ci_clusters(c, "partition")),
    IndexInfo(
        id="csi_partition", name="Centroid similarity index (partition-based)", family=FAMILY,
        range=(0, 1), higher_is_better=True, chance_adjusted=False, symmetric=True, tie_dependent=True,
        cost="pairing", function=centroid_similarity_index,
        formula=r"\mathrm{CSI} = \frac{\sum_i n_{i,NN(i)} + \sum_j n_{NN(j),j}}{2N}",
        symbols="$NN(i)$ is the candidate cluster reference cluster $i$ maps to (largest Jaccard similarity), $NN(j)$ "
                "the reference cluster candidate cluster $j$ maps to; equal similarities go to the cluster that "
                "occurs first.",
        reference=CI_PAPER,
        caveat="Object-level counterpart of CI with the same nearest-neighbour mapping; not corrected for chance.",
        compute=lambda c: _centroid_similarity_index(c, "partition"), steps=lambda c: _csi_steps(c, "partition"),
        cells=lambda c, dense: _csi_cells(c, dense, "partition")),
    IndexInfo(
        id="ci_centroid", headline=True, name="Centroid index", family=FAMILY, range=(0, INF), higher_is_better=False,
        chance_adjusted=False, symmetric=True, needs_data=True, soft=False, integer_valued=True,
        tie_dependent=True, cost="pairing", function=centroid_index,
        formula=r"\mathrm{CI} = \max(\mathrm{orphans}(C\to C'), \mathrm{orphans}(C'\to C))",
        symbols=r"$C$ and $C'$ are the two partitions' centroids (the means of their clusters' points); each centroid "
                r"maps to the nearest centroid of the other partition, and $\mathrm{orphans}(C \to C')$ counts the "
                r"centroids of $C'$ nobody maps to. Equal distances go to the cluster that occurs first.",
        reference=CI_PAPER,
        caveat="Maps clusters by centroid distance: for non-convex clusters (rings, spirals) the nearest "
               "centroid need not be the matching cluster.",
        compute=lambda c: _centroid_index(c, "centroid"), steps=lambda c: _ci_steps(c, "centroid"),
        clusters=lambda c: _ci_clusters(c, "centroid")),
    IndexInfo(
        id="csi_centroid", name="Centroid similarity index", family=FAMILY, range=(0, 1),
        higher_is_better=True, chance_adjusted=False, symmetric=True, needs_data=True, soft=False,
        tie_dependent=True, cost="pairing", function=centroid_similarity_index,
        formula=r"\mathrm{CSI} = \frac{\sum_i n_{i,NN(i)} + \sum_j n_{NN(j),j}}{2N}",
        symbols="$NN(i)$ is the candidate cluster whose centroid is nearest to reference cluster $i$'s centroid, "
                "$NN(j)$ likewise the other way; equal distances go to the cluster that occurs first.",
        reference=CI_PAPER,
        caveat="As CSI (partition-based), with the nearest-centroid mapping.",
        compute=lambda c: _centroid_similarity_index(c, "centroid"), steps=lambda c: _csi_steps(c, "centroid"),
        cells=lambda c, dense: _csi_cells(c, dense, "centroid")),
    IndexInfo(
        id="cr", name="Centroid ratio", family=FAMILY, range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=True, needs_data=True, soft=False, tie_dependent=True, cost="pairing",
        function=centroid_ratio,
        formula=r"\mathrm{CR} = 1 - \frac{\#\text{unstable pairs}}{K}",
        symbols=r"The centroids are paired greedily, closest pair first; a pair $(C_i, C'_j)$ is unstable when "
                r"$D_{ij}^2 / (D_i D_j) > 1$, with $D_i$ the distance from $C_i$ to the nearest other centroid of its "
                r"own partition. $K = \max(K_a, K_b)$, and clusters left unpaired count as unstable.",
        reference="Zhao & Fränti (2014), Centroid ratio for a pairwise random swap clustering algorithm, "
                  "IEEE TKDE 26(5)",
        caveat="A cluster-level yes/no per pair: says nothing about how many objects are misplaced.",
        compute=_centroid_ratio, steps=_cr_steps),
)
