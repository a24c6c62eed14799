"""Pairing and matching clusters of two partitions.

*Pairing* is one-to-one: each cluster is used at most once, so ``min(K_a, K_b)`` pairs are
formed and the clusters left over on the larger side are *unpaired*. It is optimal
(Hungarian algorithm, ``scipy.optimize.linear_sum_assignment``) for PSI and pivoted
accuracy, and greedy for Criterion H and Centroid Ratio.

*Matching* (nearest-neighbour mapping) lets every cluster point at its most similar cluster
on the other side; several may point at the same one, and the clusters nobody points at are
the *orphans* that the Centroid Index counts.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.optimize import linear_sum_assignment

__all__ = ["Pairing", "Mapping", "optimal_pairing", "greedy_pairing", "nearest_mapping"]


@dataclass(frozen=True, eq=False)
class Pairing:
    """A one-to-one pairing of reference clusters (rows) with candidate clusters (columns).

    Attributes are aligned arrays, one entry per pair: ``rows``/``cols`` (cluster indices),
    ``row_labels``/``col_labels``, ``row_sizes``/``col_sizes``, ``overlap`` (shared objects
    n_ij), ``similarity`` (the criterion that was maximised), ``braun_banquet``
    (n_ij / max(r_i, c_j)) and ``jaccard`` (n_ij / (r_i + c_j - n_ij)). ``unpaired_rows`` and
    ``unpaired_cols`` hold the indices of the clusters left over. ``total`` is the summed
    similarity.
    """

    criterion: str
    rows: np.ndarray
    cols: np.ndarray
    row_labels: np.ndarray
    col_labels: np.ndarray
    row_sizes: np.ndarray
    col_sizes: np.ndarray
    overlap: np.ndarray
    similarity: np.ndarray
    braun_banquet: np.ndarray
    jaccard: np.ndarray
    unpaired_rows: np.ndarray
    unpaired_cols: np.ndarray
    total: float

    def __len__(self) -> int:
        return len(self.rows)

    def to_frame(self) -> pd.DataFrame:
        """One row per pair: labels, sizes, overlap, Braun-Banquet and Jaccard similarity."""
        return pd.DataFrame({
            "reference": self.row_labels, "candidate": self.col_labels,
            "reference size": self.row_sizes, "candidate size": self.col_sizes,
            "overlap": self.overlap, "braun_banquet": self.braun_banquet, "jaccard": self.jaccard,
        })


@dataclass(frozen=True, eq=False)
class Mapping:
    """Nearest-neighbour mapping from every source cluster to one target cluster.

    ``targets[s]`` is the target cluster index that source cluster ``s`` maps to;
    ``in_degree[t]`` counts the sources mapped to target ``t``; ``orphans`` are the targets
    with in-degree zero. ``direction`` is ``"true->pred"`` or ``"pred->true"``.
    """

    direction: str
    criterion: str
    targets: np.ndarray
    in_degree: np.ndarray
    source_labels: np.ndarray
    target_labels: np.ndarray

    @property
    def orphans(self) -> np.ndarray:
        return np.flatnonzero(self.in_degree == 0)

    @property
    def n_orphans(self) -> int:
        return int(np.count_nonzero(self.in_degree == 0))

    def to_frame(self) -> pd.DataFrame:
        """One row per source cluster: its label, its target's label and that in-degree."""
        return pd.DataFrame({
            "source": self.source_labels, "target": self.target_labels[self.targets],
            "target in-degree": self.in_degree[self.targets],
        })


def optimal_pairing(similarity: np.ndarray):
    """Row and column indices of a one-to-one pairing maximising the summed similarity.

    >>> optimal_pairing(np.array([[1.0, 0.9], [0.9, 0.0]]))
    (array([0, 1]), array([1, 0]))
    """
    rows, cols = linear_sum_assignment(similarity, maximize=True)
    return rows.astype(np.intp), cols.astype(np.intp)


def greedy_pairing(values: np.ndarray):
    """Repeatedly pair the largest remaining cell and delete its row and column.

    Ties go to the first maximal cell in row-major order. Pairs of zero value are still
    formed (they add nothing) so that ``min(K_a, K_b)`` pairs always result.

    >>> greedy_pairing(np.array([[5, 4], [4, 0]]))
    (array([0, 1]), array([0, 1]))
    """
    k_a, k_b = values.shape
    flat = values.ravel()
    order = np.argsort(-flat, kind="stable")
    row_of, col_of = np.divmod(order, k_b)
    used_rows = np.zeros(k_a, dtype=bool)
    used_cols = np.zeros(k_b, dtype=bool)
    pairs = []
    need = min(k_a, k_b)
    for r, c in zip(row_of.tolist(), col_of.tolist()):
        if not used_rows[r] and not used_cols[c]:
            used_rows[r] = used_cols[c] = True
            pairs.append((r, c))
            if len(pairs) == need:
                break
    pairs.sort()
    rows = np.array([p[0] for p in pairs], dtype=np.intp)
    cols = np.array([p[1] for p in pairs], dtype=np.intp)
    return rows, cols


def nearest_mapping(scores: np.ndarray, *, lower_is_nearer: bool = False):
    """For each row, the column with the best score (ties go to the lowest column index).

    Returns ``(targets, in_degree)``.

    >>> nearest_mapping(np.array([[0.2, 0.5], [0.1, 0.5], [0.0, 0.0]]))
    (array([1, 1, 0]), array([1, 2]))
    """
    targets = (np.argmin(scores, axis=1) if lower_is_nearer else np.argmax(scores, axis=1)).astype(np.intp)
    in_degree = np.bincount(targets, minlength=scores.shape[1])
    return targets, in_degree
