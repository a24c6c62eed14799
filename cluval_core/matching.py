"""Pairing and matching clusters of two partitions.

*Pairing* is one-to-one: each cluster is used at most once, so ``min(K_a, K_b)`` pairs are
formed and the clusters left over on the larger side are *unpaired*. It is optimal
(Hungarian algorithm, ``scipy.optimize.linear_sum_assignment``) for PSI and pivoted
accuracy, and greedy for Criterion H and Centroid Ratio.

*Matching* (nearest-neighbour mapping) lets every cluster point at its most similar cluster
on the other side; several may point at the same one, and the clusters nobody points at are
the *orphans* that the Centroid Index counts.

Ties are broken by a *tie order* of the rows and of the columns (INDICES.md: the order in
which clusters first occur in the input, so that no result depends on how labels are
numbered): among equal candidates the one earliest in that order wins, and for cells the
row decides first, then the column. Every result says whether it broke a tie.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy.optimize import linear_sum_assignment

__all__ = ["Pairing", "Mapping", "Mappings", "optimal_pairing", "greedy_pairing", "nearest_mapping"]


@dataclass(frozen=True, eq=False)
class Pairing:
    """A one-to-one pairing of reference clusters (rows) with candidate clusters (columns).

    Attributes are aligned arrays, one entry per pair: ``rows``/``cols`` (cluster indices),
    ``row_labels``/``col_labels``, ``row_sizes``/``col_sizes``, ``overlap`` (shared objects
    n_ij), ``similarity`` (the criterion that was maximised), ``braun_banquet``
    (n_ij / max(r_i, c_j)) and ``jaccard`` (n_ij / (r_i + c_j - n_ij)). ``unpaired_rows`` and
    ``unpaired_cols`` hold the indices of the clusters left over. ``total`` is the summed
    similarity. ``tie_broken`` is True when another pairing would have done as well (for
    the optimal pairings: another pairing within rounding of the optimum, 1e-9 of the
    largest similarity; for the greedy one: a step had several largest cells), so that the
    tie order chose.
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
    _tie: object = field(default=False, repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.rows)

    @cached_property
    def tie_broken(self) -> bool:
        """True when the pairing depended on the tie order (computed on first use)."""
        return bool(self._tie() if callable(self._tie) else self._tie)

    def to_frame(self) -> pd.DataFrame:
        """One row per pair: labels, sizes, overlap, Braun-Banquet and Jaccard similarity."""
        return pd.DataFrame({
            "reference": self.row_labels, "candidate": self.col_labels,
            "reference size": self.row_sizes, "candidate size": self.col_sizes,
            "overlap": self.overlap, "braun_banquet": self.braun_banquet, "jaccard": self.jaccard,
        })

    # ------------------------------------------------------------------ for display
    @cached_property
    def shares_objects(self) -> np.ndarray:
        """For each pair, whether its clusters share any object (overlap > 0).

        A one-to-one pairing pairs min(K_a, K_b) clusters even when some pairs share nothing;
        such a pair adds nothing and is no correspondence, so it is shown as unpaired.
        """
        return _read_only(self.overlap > 0)

    @cached_property
    def display_order(self) -> np.ndarray:
        """The pairs that share objects, by decreasing overlap (ties in pairing order)."""
        kept = np.flatnonzero(self.shares_objects)
        return _read_only(kept[np.argsort(-self.overlap[kept], kind="stable")])

    @property
    def n_shown(self) -> int:
        """The number of pairs shown as pairs: those that share objects."""
        return len(self.display_order)

    @cached_property
    def row_order(self) -> np.ndarray:
        """Reference clusters for display: paired ones in :attr:`display_order`, then the rest
        (clusters of empty pairs, then the unpaired) in index order."""
        return _read_only(_shown_first(self.rows[self.display_order], self.rows, self.unpaired_rows))

    @cached_property
    def col_order(self) -> np.ndarray:
        """Candidate clusters for display, aligned with :attr:`row_order` for the shown pairs."""
        return _read_only(_shown_first(self.cols[self.display_order], self.cols, self.unpaired_cols))

    @cached_property
    def row_partner(self) -> np.ndarray:
        """For each reference cluster, its partner's column index, or -1 when it has none that
        shares objects."""
        return _read_only(_partners(self.rows, self.cols, self.shares_objects, len(self.rows) + len(self.unpaired_rows)))

    @cached_property
    def col_partner(self) -> np.ndarray:
        """For each candidate cluster, its partner's row index, or -1 (see :attr:`row_partner`)."""
        return _read_only(_partners(self.cols, self.rows, self.shares_objects, len(self.cols) + len(self.unpaired_cols)))

    @cached_property
    def shown_unpaired(self) -> tuple[np.ndarray, np.ndarray]:
        """(reference, candidate) cluster indices shown as unpaired: left over, or in a pair that
        shares no object."""
        return (_read_only(self.row_order[self.n_shown:].copy()), _read_only(self.col_order[self.n_shown:].copy()))

    def display_frame(self) -> pd.DataFrame:
        """The shown pairs in display order, numbered from 1 (see :meth:`to_frame`)."""
        frame = self.to_frame().iloc[self.display_order].reset_index(drop=True)
        frame.insert(0, "pair", np.arange(1, len(frame) + 1))
        return frame


@dataclass(frozen=True, eq=False)
class Mapping:
    """Nearest-neighbour mapping from every source cluster to one target cluster.

    ``targets[s]`` is the target cluster index that source cluster ``s`` maps to;
    ``in_degree[t]`` counts the sources mapped to target ``t``; ``orphans`` are the targets
    with in-degree zero. ``direction`` is ``"true->pred"`` or ``"pred->true"``.
    ``tie_broken`` is True when some source had several nearest targets, so that the tie
    order chose.
    """

    direction: str
    criterion: str
    targets: np.ndarray
    in_degree: np.ndarray
    source_labels: np.ndarray
    target_labels: np.ndarray
    tie_broken: bool = False

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


class Mappings(NamedTuple):
    """Both nearest-neighbour mappings of a comparison, and the Centroid Index they give.

    Unpacks as ``(forward, backward)``: reference -> candidate, candidate -> reference.
    """

    forward: Mapping
    backward: Mapping

    @property
    def ci(self) -> int:
        """max(orphans of both directions): the number of clusters located differently."""
        return max(self.forward.n_orphans, self.backward.n_orphans)

    @property
    def direction(self) -> str:
        """Which direction gives CI: "both directions", "reference → candidate" or "candidate → reference"."""
        if self.forward.n_orphans == self.backward.n_orphans:
            return "both directions"
        return "reference → candidate" if self.forward.n_orphans > self.backward.n_orphans else "candidate → reference"


TIE_TOLERANCE = 1e-9


def _read_only(array: np.ndarray) -> np.ndarray:
    array.flags.writeable = False
    return array


def _shown_first(shown: np.ndarray, paired: np.ndarray, unpaired: np.ndarray) -> np.ndarray:
    rest = np.setdiff1d(np.r_[paired, unpaired], shown)  # sorted: index order
    return np.r_[shown, rest].astype(np.intp)


def _partners(mine: np.ndarray, theirs: np.ndarray, keep: np.ndarray, k: int) -> np.ndarray:
    partner = np.full(k, -1, dtype=np.intp)
    partner[mine[keep]] = theirs[keep]
    return partner


def _identity(n: int, order) -> np.ndarray:
    return np.arange(n, dtype=np.intp) if order is None else np.asarray(order, dtype=np.intp)


def optimal_pairing(similarity: np.ndarray, row_order=None, col_order=None):
    """Row and column indices of a one-to-one pairing maximising the summed similarity.

    Among several optimal pairings the choice is made on the table laid out in tie order
    (rows `row_order`, columns `col_order`; default: as given), so it follows the clusters,
    not their positions. Pairs are returned by increasing row index.

    >>> optimal_pairing(np.array([[1.0, 0.9], [0.9, 0.0]]))
    (array([0, 1]), array([1, 0]))
    """
    row_order = _identity(similarity.shape[0], row_order)
    col_order = _identity(similarity.shape[1], col_order)
    r, c = linear_sum_assignment(similarity[np.ix_(row_order, col_order)], maximize=True)
    rows, cols = row_order[r], col_order[c]
    by_row = np.argsort(rows)
    return rows[by_row].astype(np.intp), cols[by_row].astype(np.intp)


def optimal_pairing_is_tied(similarity: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> bool:
    """True when a pairing other than (`rows`, `cols`) is optimal too.

    Each chosen cell is made worse by delta and the problem solved again: any other optimal
    pairing keeps at least one cell fewer of the penalised ones and now wins, while a unique
    optimum, better than every other pairing by more than k delta, stays. delta is below
    1/k for integer similarities (so the test is exact) and TIE_TOLERANCE times the largest
    similarity otherwise (so pairings equal up to rounding count as ties).

    >>> optimal_pairing_is_tied(np.array([[1, 0], [0, 1]]), np.array([0, 1]), np.array([0, 1]))
    False
    >>> optimal_pairing_is_tied(np.array([[1, 1], [1, 1]]), np.array([0, 1]), np.array([0, 1]))
    True
    """
    k = len(rows)
    if k == 0:
        return False
    weights = similarity.astype(np.float64)  # a copy
    if similarity.dtype.kind in "iu":
        delta = 1.0 / (k + 1)
    else:
        delta = TIE_TOLERANCE * max(float(np.abs(weights).max()), np.finfo(float).tiny)
    weights[rows, cols] -= delta
    r, c = linear_sum_assignment(weights, maximize=True)
    return set(zip(r.tolist(), c.tolist())) != set(zip(rows.tolist(), cols.tolist()))


def _near(values: np.ndarray, best, rtol: float, atol: float):
    """Values as good as `best` (larger is better) within rtol * |best| + atol."""
    if not (rtol or atol):
        return values >= best  # exact, also for integers beyond 2**53
    return values >= best - (rtol * abs(best) + atol)


def greedy_pairing(values: np.ndarray, row_order=None, col_order=None, *, rtol: float = 0.0, atol: float = 0.0):
    """Repeatedly pair the largest remaining cell and delete its row and column.

    Cells within ``rtol * |largest| + atol`` of the largest remaining one tie; a tie goes
    to the cell whose row comes first in `row_order`, then whose column comes first in
    `col_order` (default: as given). Pairs of zero value are still formed (they add nothing)
    so that ``min(K_a, K_b)`` pairs always result. Returns ``(rows, cols, tie_broken)``, pairs
    by increasing row index; `tie_broken` is True when tied cells shared a row or a column,
    so that the tie order chose between pairings.

    >>> greedy_pairing(np.array([[5, 4], [4, 0]]))
    (array([0, 1]), array([0, 1]), False)
    >>> greedy_pairing(np.array([[1, 0], [1, 1]]), row_order=[1, 0])
    (array([0, 1]), array([1, 0]), True)
    """
    row_order = _identity(values.shape[0], row_order)
    col_order = _identity(values.shape[1], col_order)
    laid_out = values[np.ix_(row_order, col_order)]
    k_a, k_b = laid_out.shape
    flat = laid_out.ravel()
    order = np.argsort(-flat, kind="stable")
    sorted_values = flat[order]
    used_rows = np.zeros(k_a, dtype=bool)
    used_cols = np.zeros(k_b, dtype=bool)
    pairs, tie_broken = [], False
    need = min(k_a, k_b)
    position = 0
    while len(pairs) < need:
        while used_rows[order[position] // k_b] or used_cols[order[position] % k_b]:
            position += 1
        chosen = order[position]
        if not tie_broken:
            # the available cells that tie with the best one: the first in tie order wins, and
            # the tie matters when two of them share a row or a column (else all get paired)
            best, tied = sorted_values[position], [chosen]
            for stop in range(position + 1, len(order)):
                if not _near(sorted_values[stop], best, rtol, atol):
                    break
                cell = order[stop]
                if not (used_rows[cell // k_b] or used_cols[cell % k_b]):
                    tied.append(cell)
            if len(tied) > 1:
                tied_rows, tied_cols = np.divmod(np.array(tied), k_b)
                tie_broken = len(set(tied_rows.tolist())) < len(tied) or len(set(tied_cols.tolist())) < len(tied)
                chosen = min(tied)  # row-major index in tie order
        r, c = divmod(int(chosen), k_b)
        used_rows[r] = used_cols[c] = True
        pairs.append((int(row_order[r]), int(col_order[c])))
    pairs.sort()
    rows = np.array([p[0] for p in pairs], dtype=np.intp)
    cols = np.array([p[1] for p in pairs], dtype=np.intp)
    return rows, cols, tie_broken


def nearest_mapping(scores: np.ndarray, col_order=None, *, lower_is_nearer: bool = False,
                    rtol: float = 0.0, atol: float = 0.0):
    """For each row, the column with the best score.

    Scores within ``rtol * |best| + atol`` of a row's best tie; the column first in
    `col_order` (default: as given) wins. Returns ``(targets, in_degree, tie_broken)``.

    >>> nearest_mapping(np.array([[0.2, 0.5], [0.1, 0.5], [0.0, 0.0]]))
    (array([1, 1, 0]), array([1, 2]), True)
    >>> nearest_mapping(np.array([[0.0, 0.0]]), col_order=[1, 0])[0]
    array([1])
    """
    col_order = _identity(scores.shape[1], col_order)
    laid_out = scores[:, col_order]
    if lower_is_nearer:
        laid_out = -laid_out
    best = laid_out.max(axis=1, keepdims=True)
    near = _near(laid_out, best, rtol, atol)
    first = np.argmax(near, axis=1)
    targets = col_order[first].astype(np.intp)
    in_degree = np.bincount(targets, minlength=scores.shape[1])
    return targets, in_degree, bool((near.sum(axis=1) > 1).any())
