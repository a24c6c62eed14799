"""Pairing and matching clusters of two partitions.

*Pairing* is one-to-one: each cluster is used at most once, so ``min(K_a, K_b)`` pairs are
formed and the clusters left over on the larger side are *unpaired*. It is optimal
(Hungarian algorithm, ``scipy.optimize.linear_sum_assignment``) for PSI and pivoted
accuracy, and greedy for Criterion H and Centroid Ratio.

*Matching* (nearest-neighbour mapping) lets every cluster point at its most similar cluster
on the other side; several may point at the same one, and the clusters nobody points at are
the *orphans* that the Centroid Index counts.

Ties are broken by a *tie order* of the rows and of the columns (docs/definitions.rst: the order in
which clusters first occur in the input, so that no result depends on how labels are
numbered): among equal candidates the one earliest in that order wins, and for cells the
row decides first, then the column. Every result says whether it broke a tie.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy.optimize import linear_sum_assignment

from .cached import cached_property
from .compiled import compiled

__all__ = ["Pairing", "NearestMapping", "Mappings", "optimal_pairing", "greedy_pairing", "nearest_mapping",
           "optimal_pairing_cells", "greedy_pairing_cells", "nearest_mapping_cells"]


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
    overlap: np.ndarray
    similarity: np.ndarray
    total: float
    _tie: object = field(default=False, repr=False, compare=False)
    # (row sizes, column sizes, row labels, column labels) of the whole table: the rest is derived on first use
    _clusters: tuple = field(default=(), repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.rows)

    @cached_property
    def row_sizes(self) -> np.ndarray:
        return _read_only(self._clusters[0][self.rows])

    @cached_property
    def col_sizes(self) -> np.ndarray:
        return _read_only(self._clusters[1][self.cols])

    @cached_property
    def row_labels(self) -> np.ndarray:
        return _read_only(self._clusters[2][self.rows])

    @cached_property
    def col_labels(self) -> np.ndarray:
        return _read_only(self._clusters[3][self.cols])

    @cached_property
    def braun_banquet(self) -> np.ndarray:
        return _read_only(self.overlap / np.maximum(self.row_sizes, self.col_sizes))

    @cached_property
    def jaccard(self) -> np.ndarray:
        return _read_only(self.overlap / (self.row_sizes + self.col_sizes - self.overlap))

    @cached_property
    def unpaired_rows(self) -> np.ndarray:
        return _read_only(_unused(self.rows, len(self._clusters[0])))

    @cached_property
    def unpaired_cols(self) -> np.ndarray:
        return _read_only(_unused(self.cols, len(self._clusters[1])))

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
        k = len(self.rows) + len(self.unpaired_rows)
        return _read_only(_partners(self.rows, self.cols, self.shares_objects, k))

    @cached_property
    def col_partner(self) -> np.ndarray:
        """For each candidate cluster, its partner's row index, or -1 (see :attr:`row_partner`)."""
        k = len(self.cols) + len(self.unpaired_cols)
        return _read_only(_partners(self.cols, self.rows, self.shares_objects, k))

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
class NearestMapping:
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

    forward: NearestMapping
    backward: NearestMapping

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
    array.setflags(write=False)
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
    ascending = sorted_values[::-1]
    used_rows = np.zeros(k_a, dtype=bool)
    used_cols = np.zeros(k_b, dtype=bool)
    pairs, tie_broken = [], False
    need = min(k_a, k_b)
    position = 0
    while len(pairs) < need:
        while used_rows[order[position] // k_b] or used_cols[order[position] % k_b]:
            position += 1
        # every time: the available cells that tie with the best one (a run of the sorted cells)
        # go to the first in tie order, and the tie matters when two of them share a row or a
        # column (else all of them get paired anyway)
        best = sorted_values[position]
        threshold = best if not (rtol or atol) else best - (rtol * abs(best) + atol)
        stop = len(ascending) - int(np.searchsorted(ascending, threshold, side="left"))
        run = order[position:stop]
        tied = run[~(used_rows[run // k_b] | used_cols[run % k_b])]
        chosen = order[position]
        if len(tied) > 1:
            tied_rows, tied_cols = np.divmod(tied, k_b)
            tie_broken = tie_broken or len(np.unique(tied_rows)) < len(tied) or len(np.unique(tied_cols)) < len(tied)
            chosen = tied.min()  # row-major index in tie order
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


# ---------------------------------------------------------------------- on the non-empty cells
# The functions below read a table as its non-empty cells: aligned arrays `rows`, `cols` and
# `values` (every other cell is 0), with `shape` = (K_a, K_b). Their cost grows with the
# number of cells, never with K_a K_b, and on a table whose every row and column has a
# non-empty cell they give the results of the dense functions above.

# Largest block (cells) of a connected component solved densely by linear_sum_assignment;
# larger components go to the sparse solver (as fast on a 1 000 x 1 000 block, twice as fast on 2 000 x 2 000).
_DENSE_BLOCK = 1 << 20
# On a component of more than _SEARCH_ROWS rows (on its shorter side), the sparse solver's searches
# may look at _SEARCH_BUDGET times its cells and rows before it starts again from an auction's
# prices (_priced_paths), and at _SEARCH_SOFT times them while more than _SEARCH_TAIL rows (and a
# twentieth of them) are left to search: the last searches over plateaus of tied weights each
# cross a large part of the graph (measured at N = 1e6: 208 and 467 times the cells for the
# Braun-Banquet pairing at K = 1e4 and 2e4, with about a sixth of its searches left after 4 times;
# the overlap pairings, and every pairing at K = 5 000, within 16 times, with 3% or a few dozen rows
# left after 4 times). Smaller components are always searched to the end.
_SEARCH_ROWS = 4096
_SEARCH_BUDGET = 32
_SEARCH_SOFT = 4
_SEARCH_TAIL = 256
# The auction gives way to the plain searches, which go on where they stopped, after this many bids
# per edge of the square problem, and so do the searches that finish from its prices after this
# many times the cells and rows. Measured at N = 1e6 and 3e6, drawn independently: the
# Braun-Banquet pairing's auction needs 1 bid per edge up to K = 4e4 and 4 at K = 1e5, its finish
# 9-57 times the cells (the plain searches to the end would take 0.5-42 s); the row-normalised
# pairing's finish at K = 1e5, whose weights tie across whole rows, would take 1 311 times them
# (79 s), the plain searches to the end 6 s.
_AUCTION_BIDS = 16
_FINISH_BUDGET = 128
# The auction's first epsilon, as a fraction of the largest weight: it starts from the searches'
# prices, close to the optimum's on most columns, which a larger epsilon would first disturb.
_AUCTION_START = 1e-3
# Pairs forced by dominance are fixed only where the first round takes out at least this share
# of the cells (1/_FEW_FORCED): at N = 1e6 and K = 1e4 drawn independently it fixes 62 Braun-Banquet
# pairs (1% of the cells), whose own components and layout would cost more than they save.
_FEW_FORCED = 16
# Tables up to this many cells are paired by one dense assignment, without the forced pairs
# and the connected components.
_SMALL_TABLE = 4096


def _ranks(order, k: int) -> np.ndarray:
    """rank[i] = position of cluster i in `order` (default: as given)."""
    rank = np.empty(k, dtype=np.intp)
    rank[_identity(k, order)] = np.arange(k)
    return rank


def _forced_pairs(rows, cols, w, k_a, k_b, priority):
    """Pairs that some optimal pairing contains, found without solving, and the cells left.

    A cell with w_ij >= (largest other cell of row i) + (largest other cell of column j)
    belongs to an optimal pairing: in an optimal pairing without it, i pairs with k and j with l, and
    trading (i, k), (l, j) for (i, j) loses w_ik + w_lj - w_ij <= 0 (weights are >= 0). Fixing
    it and deleting its row and column only lowers the other cells' bounds, so
    every such cell can be fixed at once (one per row and column: in tie order, `priority`, the
    first of each row, then the first of each column of those), and the test repeated on what is
    left. On tables close to a permutation this pairs almost every cluster. Where the first round
    takes out less than 1/_FEW_FORCED of the cells, nothing is fixed: the solver's work hardly
    shrinks, and the components and layout of all the cells, which the table's pairings share,
    serve instead of ones of their own. Returns (the fixed cells, round by round in tie order; the
    cells left, ascending), in one compiled call (:func:`_forced_rounds`).
    """
    rows, cols, priority = (np.ascontiguousarray(x, np.intp) for x in (rows, cols, priority))
    return _forced_rounds(rows, cols, np.ascontiguousarray(w, np.float64), k_a, k_b, priority, _FEW_FORCED)


@compiled
def _forced_rounds(rows, cols, w, k_a, k_b, priority, few):
    """:func:`_forced_pairs`: each round's dominant cells (:func:`_dominant`) put in priority order
    (the priorities are distinct: counted where there are many, else sorted), the first of each
    row kept, of those the first of each column fixed, and the cells of their rows and columns
    deleted (counted first, so that a first round that fixes too little copies nothing)."""
    n = len(w)
    alive = np.arange(n)
    r, c, v = rows, cols, w
    fixed = np.empty(min(k_a, k_b), dtype=np.intp)
    n_fixed, round_ = 0, 0
    row_seen = np.full(k_a, -1, dtype=np.intp)  # the last round in which a row's first cell came
    row_used, col_used = np.zeros(k_a, dtype=np.bool_), np.zeros(k_b, dtype=np.bool_)
    by_rank = np.full(0, -1, dtype=np.intp)
    span = priority.max() + 1 if n else 0
    while len(alive):
        forced = _dominant(r, c, v, k_a, k_b)
        if not len(forced):
            break
        if len(forced) * 16 > span:
            if not len(by_rank):
                by_rank = np.full(span, -1, dtype=np.intp)
            for x in forced:
                by_rank[priority[alive[x]]] = x
            at = 0
            for rank in range(span):
                if by_rank[rank] >= 0:
                    forced[at] = by_rank[rank]
                    by_rank[rank] = -1
                    at += 1
        else:
            forced = forced[np.argsort(priority[alive[forced]])]
        for x in forced:
            if row_seen[r[x]] == round_:  # not the first of its row
                continue
            row_seen[r[x]] = round_
            if not col_used[c[x]]:  # the first of its column among the rows' first
                row_used[r[x]] = col_used[c[x]] = True
                fixed[n_fixed] = alive[x]
                n_fixed += 1
        kept = 0
        for x in range(len(alive)):
            kept += not (row_used[r[x]] or col_used[c[x]])
        if round_ == 0 and (n - kept) * few < n:
            return np.zeros(0, dtype=np.intp), alive
        left, r_left, c_left, v_left = (np.empty(kept, dtype=np.intp), np.empty(kept, dtype=r.dtype),
                                        np.empty(kept, dtype=c.dtype), np.empty(kept))
        at = 0
        for x in range(len(alive)):
            if not (row_used[r[x]] or col_used[c[x]]):
                left[at], r_left[at], c_left[at], v_left[at] = alive[x], r[x], c[x], v[x]
                at += 1
        alive, r, c, v, round_ = left, r_left, c_left, v_left, round_ + 1
    return fixed[:n_fixed], alive


@compiled
def _dominant(r, c, v, k_a, k_b):
    """The cells x with v[x] >= (the largest other cell of its row) + (of its column), in order
    (0 where a line has no other cell; v >= 0)."""
    row_best, row_second, row_top = _best_two(r, v, k_a)
    col_best, col_second, col_top = _best_two(c, v, k_b)
    out = np.empty(len(v), dtype=np.intp)
    found = 0
    for x in range(len(v)):
        i, j = r[x], c[x]
        other_row = row_second[i] if row_top[i] == x else row_best[i]
        other_col = col_second[j] if col_top[j] == x else col_best[j]
        if v[x] >= other_row + other_col:
            out[found] = x
            found += 1
    return out[:found]


@compiled
def _best_two(line, v, k):
    """Each line's largest value (v >= 0), the first cell holding it, and the largest of its other
    cells (0 where none), in one pass over the cells."""
    best, second, top = np.zeros(k), np.zeros(k), np.full(k, -1)
    for x in range(len(v)):
        g = line[x]
        if v[x] > best[g] or top[g] < 0:
            second[g], best[g], top[g] = best[g], v[x], x
        elif v[x] > second[g]:
            second[g] = v[x]
    return best, second, top


@compiled
def _components(r, c, k_a, k_b):
    """The connected components of the graph whose edges are the cells (r, c) between rows
    0..k_a-1 and columns 0..k_b-1, by union-find: (the cells grouped by component, each group in
    the cells' order, and where each group starts)."""
    parent = np.arange(k_a + k_b)
    for x in range(len(r)):
        a, b = r[x], k_a + c[x]
        while parent[a] != a:  # halving the paths as they are walked
            parent[a] = parent[parent[a]]
            a = parent[a]
        while parent[b] != b:
            parent[b] = parent[parent[b]]
            b = parent[b]
        if a != b:
            parent[max(a, b)] = min(a, b)
    label = np.full(k_a + k_b, -1)
    groups = 0
    cell_group = np.empty(len(r), dtype=np.intp)
    for x in range(len(r)):  # groups numbered as their first cell comes
        root = r[x]
        while parent[root] != root:
            root = parent[root]
        if label[root] < 0:
            label[root] = groups
            groups += 1
        cell_group[x] = label[root]
    grouped, starts = _counting_order(cell_group, groups)
    starts = starts[:groups]
    return grouped, starts


@compiled
def _counting_order(keys, k):
    """The positions of `keys` (each in 0..k-1) in a stable sort of them, by counting, and where
    each key's run starts in that order (k + 1 entries)."""
    start = np.zeros(k + 1, dtype=np.intp)
    for x in range(len(keys)):
        start[keys[x] + 1] += 1
    for g in range(k):
        start[g + 1] += start[g]
    starts = start.copy()
    order = np.empty(len(keys), dtype=np.intp)
    for x in range(len(keys)):
        order[start[keys[x]]] = x
        start[keys[x]] += 1
    return order, starts


def _compact(ranks: np.ndarray, k: int) -> tuple[np.ndarray, int]:
    """(each entry's position among the distinct ranks (each in 0..k-1), how many are distinct),
    counted rather than sorted."""
    present = np.zeros(k, dtype=bool)
    present[ranks] = True
    position = np.cumsum(present) - 1
    return position[ranks], int(position[-1]) + 1 if k else 0


@compiled
def _best_of_each(group, other, w, k, k_other):
    """The cells of a maximum-weight matching when no two cells share an `other` line (each row,
    say, has one cell): each `group` line's heaviest cell, ties to the one whose other line comes
    first (`other` holds tie ranks, in 0..k_other-1): what the forced pairs find on such a table,
    without sorting, in one pass. Returns the cells' positions, ascending."""
    best = np.full(k, -np.inf)
    first = np.full(k, k_other)
    pick = np.full(k, -1)
    for x in range(len(w)):
        g = group[x]
        if w[x] > best[g] or (w[x] == best[g] and other[x] < first[g]):
            best[g], first[g], pick[g] = w[x], other[x], x
    taken = np.zeros(len(w), dtype=np.bool_)
    for g in range(k):
        if pick[g] >= 0:
            taken[pick[g]] = True
    return np.flatnonzero(taken)


class _Layout(NamedTuple):
    """One connected component's cells as its solver reads them, whatever their weights: each
    cell's row and column among the component's (compacted); for the dense solver (`cell` not
    None) each cell's position in the n_r x n_c block, flattened, and the block's cell at each
    position (-1: none); for the sparse solver (`by_row` not None) the cells by row, then
    column (in tie order), where each row's run starts, and their columns, rows and columns
    swapped where there are fewer columns."""
    row_of: np.ndarray
    col_of: np.ndarray
    n_r: int
    n_c: int
    by_row: np.ndarray | None = None
    starts: np.ndarray | None = None
    cols: np.ndarray | None = None
    flat: np.ndarray | None = None
    cell: np.ndarray | None = None


def _layout(r, c, shape) -> _Layout:
    """The :class:`_Layout` of one connected component's cells (r and c are tie ranks)."""
    (row_of, n_r), (col_of, n_c) = _compact(r, shape[0]), _compact(c, shape[1])
    if n_r * n_c <= _DENSE_BLOCK:
        flat, cell = _block_cells(row_of, col_of, n_r, n_c)
        return _Layout(row_of, col_of, n_r, n_c, flat=flat, cell=cell)
    if n_r > n_c:  # fewer rows, fewer paths to search
        row_of, col_of, n_r, n_c = col_of, row_of, n_c, n_r
    by_col, _ = _counting_order(col_of, n_c)
    by_row, starts = _counting_order(row_of[by_col], n_r)  # the cells by row, then column: in tie order
    by_row = by_col[by_row]
    return _Layout(row_of, col_of, n_r, n_c, by_row, starts, col_of[by_row])


def _solved(layout: _Layout, w) -> np.ndarray:
    """Cell indices of a maximum-weight matching of one connected component laid out as `layout`,
    its cells weighing `w`, keeping only cells of positive weight."""
    if layout.by_row is None:
        pr, pc = linear_sum_assignment(_block_costs(layout.flat, w, layout.n_r, layout.n_c))
        chosen = layout.cell[pr, pc]
        return chosen[chosen >= 0]
    if not np.isfinite(w).all():  # as linear_sum_assignment: an infinite cost leaves a search nowhere to go
        raise ValueError("the similarities to pair on must be finite")
    w = w[layout.by_row]
    unit = len(w) + layout.n_r
    budget, soft = (_SEARCH_BUDGET * unit, _SEARCH_SOFT * unit) if layout.n_r > _SEARCH_ROWS else (1 << 62, 1 << 62)
    graph = layout.starts, layout.cols, w, layout.n_c
    u, v, row_col, edge, col_row = state = _bid_rows(*graph)  # the searches update it in place
    if not _searched(*graph, *state, budget, soft, _SEARCH_TAIL):
        # long searches over plateaus of tied weights: start again from prices, or else go on
        priced, solved = _priced_paths(*graph, _AUCTION_BIDS, v, _AUCTION_START, _FINISH_BUDGET * unit)
        if solved:
            edge = priced
        else:
            _searched(*graph, *state, 1 << 62, 1 << 62, 0)
    return layout.by_row[edge[edge >= 0]]


def _component_pairs(r, c, w, shape) -> np.ndarray:
    """Cell indices of a maximum-weight matching of one connected component (cells laid out
    in tie order: r and c are ranks), keeping only cells of positive weight."""
    return _solved(_layout(r, c, shape), w)


class _CellGraph:
    """What the optimal pairings of one table share whatever the weights of its positive cells
    (the same cells: the overlap, n_ij / r_i and n_ij / max(r_i, c_j) are positive on the same
    ones): the cells' tie ranks, whether they lie one a row or one a column, their tie-order
    priority, and the connected components of them all with each one's :class:`_Layout` (what a
    pairing solves when no pair is forced), each computed when first needed."""

    def __init__(self, positive, rows, cols, shape, row_order, col_order):
        k_a, k_b = shape
        self.positive, self.shape = positive, shape
        self.r = _ranks(row_order, k_a)[rows[positive]]
        self.c = _ranks(col_order, k_b)[cols[positive]]
        self.one_a_row = np.bincount(self.r, minlength=k_a).max(initial=0) <= 1
        self.one_a_col = not self.one_a_row and np.bincount(self.c, minlength=k_b).max(initial=0) <= 1
        self._priority = None

    def priority(self, priority) -> np.ndarray:
        """The positive cells' tie-order ranks among all cells (`priority`: as in :func:`_priority`)."""
        if self._priority is None:
            self._priority = priority()[self.positive]
        return self._priority

    @cached_property
    def components(self) -> list[tuple[np.ndarray, _Layout]]:
        """(the cells, their layout) of each connected component of all the positive cells."""
        by_comp, starts = _components(self.r, self.c, *self.shape)
        return [(cells, _layout(self.r[cells], self.c[cells], self.shape)) for cells in np.split(by_comp, starts[1:])]


def _cell_graph(shared, positive, rows, cols, shape, row_order, col_order) -> _CellGraph:
    """The :class:`_CellGraph` of these positive cells: the one kept in the dict `shared` when it
    is of the same cells, else a new one (kept there)."""
    graph = None if shared is None else shared.get("cell graph")
    if graph is None or not np.array_equal(graph.positive, positive):
        graph = _CellGraph(positive, rows, cols, shape, row_order, col_order)
        if shared is not None:
            shared["cell graph"] = graph
    return graph


def share_cell_graph(shared: dict, rows, cols, values, shape, row_order=None, col_order=None) -> None:
    """Build in `shared` (as in :func:`optimal_pairing_cells`) the graph that the pairings of one
    table share, as the first of them would: pairings then solved side by side, in threads, find
    it there rather than each building its own."""
    if shape[0] * shape[1] > _SMALL_TABLE:  # (a small table's pairings share nothing)
        _cell_graph(shared, np.flatnonzero(np.asarray(values) > 0), np.asarray(rows, np.intp),
                    np.asarray(cols, np.intp), shape, row_order, col_order)


@compiled
def _heap_push(keys, items, size, key, item):
    """Put (key, item) on the binary min-heap held in keys[:size], items[:size]; the new size."""
    x = size
    while x > 0:
        parent = (x - 1) >> 1
        if keys[parent] <= key:
            break
        keys[x], items[x] = keys[parent], items[parent]
        x = parent
    keys[x], items[x] = key, item
    return size + 1


@compiled
def _heap_pop(keys, items, size):
    """(key, item, new size): the least key of the heap in keys[:size], items[:size], taken off."""
    key, item = keys[0], items[0]
    size -= 1
    last_key, last_item = keys[size], items[size]
    x = 0
    while 2 * x + 1 < size:
        child = 2 * x + 1
        if child + 1 < size and keys[child + 1] < keys[child]:
            child += 1
        if keys[child] >= last_key:
            break
        keys[x], items[x] = keys[child], items[child]
        x = child
    keys[x], items[x] = last_key, last_item
    return key, item, size


@compiled
def _search_space(columns, entries):
    """The work arrays of :func:`_search` over `columns` columns with a heap of `entries`: (distance,
    settled, via_row, via_edge, reached, order, heap_keys, heap_items)."""
    return (np.full(columns, np.inf), np.zeros(columns, dtype=np.bool_), np.empty(columns, dtype=np.intp),
            np.empty(columns, dtype=np.intp), np.empty(columns, dtype=np.intp), np.empty(columns + 1, dtype=np.intp),
            np.empty(entries), np.empty(entries, dtype=np.intp))


@compiled
def _search(start, starts, cols, w, n_c, own, budget, u, v, row_col, row_edge, col_row, distance, settled, via_row,
            via_edge, reached, order, heap_keys, heap_items):
    """One shortest augmenting path from the free row `start` (Dijkstra on the reduced costs -w - u - v,
    with a heap), until it reaches a free column; then the settled columns' duals move, the path flips
    and the searched rows' matched edges are tight again. With `own`, each row i also has column
    n_c + i of cost 0 (edge -1). The scratch arrays (distance at inf, settled False) are left as
    found. Returns the budget left once the rows scanned have used their edges from it; below 0,
    the search stopped there and nothing changed."""
    n_reached = n_settled = size = 0
    i, base, sink = start, 0.0, -1
    while sink < 0:
        end = starts[i + 1]
        last = end + 1 if own else end
        budget -= last - starts[i]
        if budget < 0:
            break
        for t in range(starts[i], last):  # the row's edges, then its own column
            j, cost = (cols[t], -w[t]) if t < end else (n_c + i, 0.0)
            if settled[j]:
                continue
            through = base + max(cost - u[i] - v[j], 0.0)
            if through < distance[j]:
                if distance[j] == np.inf:
                    reached[n_reached] = j
                    n_reached += 1
                distance[j], via_row[j], via_edge[j] = through, i, t if t < end else -1
                if through <= base and col_row[j] < 0:  # a free column as near as any can be
                    sink = j
                    break
                size = _heap_push(heap_keys, heap_items, size, through, j)
        if sink < 0:
            key, j, size = _heap_pop(heap_keys, heap_items, size)
            while settled[j] or key != distance[j]:  # an entry since bettered
                key, j, size = _heap_pop(heap_keys, heap_items, size)
            if col_row[j] < 0:
                sink = j
            else:
                settled[j] = True
                order[n_settled] = j
                n_settled += 1
                i, base = col_row[j], key
    if sink >= 0:
        nearest = distance[sink]
        for x in range(n_settled):
            v[order[x]] += distance[order[x]] - nearest
        j = sink
        while True:  # flip the path
            i = via_row[j]
            col_row[j] = i
            j, row_col[i], row_edge[i] = row_col[i], j, via_edge[j]
            if i == start:
                break
        order[n_settled] = sink
        for x in range(n_settled + 1):  # the matched edges of the rows searched are tight again
            j = order[x]
            i = col_row[j]
            u[i] = (-w[row_edge[i]] if row_edge[i] >= 0 else 0.0) - v[j]
    for x in range(n_reached):
        distance[reached[x]] = np.inf
        settled[reached[x]] = False
    return budget


@compiled
def _augmenting_paths(starts, cols, w, n_c, budget, soft=1 << 62, tail=0):
    """A maximum-weight matching of a bipartite graph in which a row may stay unmatched: (for each
    row, the position of its matched edge (-1: unmatched), True, the column duals), or (..., False,
    the column duals so far) once the searches have looked at more than `budget` edges, or at more
    than `soft` with more than `tail` rows (and a twentieth of them) still to search, unfinished.
    Row p's edges are starts[p] .. starts[p + 1] - 1, to columns cols[...] (0..n_c-1) with weights w[...] > 0.

    The shortest augmenting path method of Jonker and Volgenant, on costs -w with a column of its
    own for each row (column n_c + p, cost 0: "unmatched"), so that every row is matched. Duals u
    (rows) and v (columns) keep every reduced cost, cost - u - v, at least 0, and 0 on the matched
    edges; a free column's v stays 0 (v moves only on matched columns), which with every row
    matched makes the matching optimal. First each row bids for its cheapest column, taking it
    from its holder and lowering the column's v so that its two cheapest columns tie
    (augmenting row reduction, two rounds); then each row still free grows a shortest path tree
    (Dijkstra on the reduced costs, with a heap) until it reaches a free column, moves the duals
    of the columns it settled and flips the path. The work follows the edges each search
    reaches, not the number of columns.
    """
    u, v, row_col, row_edge, col_row = _bid_rows(starts, cols, w, n_c)
    solved = _searched(starts, cols, w, n_c, u, v, row_col, row_edge, col_row, budget, soft, tail)
    return row_edge, solved, v


@compiled
def _bid_rows(starts, cols, w, n_c):
    """The start of :func:`_augmenting_paths`: the augmenting row reduction, then each row's dual
    its least reduced cost. Returns the state the searches go on from: (u, v, each row's column
    (-1: free), each row's matched edge, each column's row)."""
    n_r = len(starts) - 1
    m = n_c + n_r
    v = np.zeros(m)
    u = np.zeros(n_r)
    row_col = np.full(n_r, -1)
    row_edge = np.full(n_r, -1)
    col_row = np.full(m, -1)
    free = np.arange(n_r)
    n_free = n_r
    bids = 4 * (len(cols) + n_r)  # at most: a long run of ever smaller bids is left to the paths
    for _ in range(2):
        h, queued, n_free = 0, n_free, 0
        while h < queued and bids > 0:
            bids -= 1
            i = free[h]
            h += 1
            u1, j1, e1 = -v[n_c + i], n_c + i, -1  # the cheapest column and the next, own column included
            u2, j2, e2 = np.inf, -1, -1
            for t in range(starts[i], starts[i + 1]):
                reduced = -w[t] - v[cols[t]]
                if reduced < u2:
                    if reduced >= u1:
                        u2, j2, e2 = reduced, cols[t], t
                    else:
                        u2, j2, e2 = u1, j1, e1
                        u1, j1, e1 = reduced, cols[t], t
            holder = col_row[j1]
            if u1 < u2 < np.inf:
                v[j1] -= u2 - u1
            elif u1 == u2 and holder >= 0:  # a tie: take the second column instead
                j1, e1 = j2, e2
                holder = col_row[j1]
            row_col[i], row_edge[i], col_row[j1] = j1, e1, i
            if holder >= 0:
                row_col[holder] = row_edge[holder] = -1
                if u1 < u2:  # the displaced row bids next
                    h -= 1
                    free[h] = holder
                else:
                    free[n_free] = holder
                    n_free += 1
    for i in range(n_r):
        least = -v[n_c + i]
        for t in range(starts[i], starts[i + 1]):
            least = min(least, -w[t] - v[cols[t]])
        u[i] = least
    return u, v, row_col, row_edge, col_row


@compiled
def _searched(starts, cols, w, n_c, u, v, row_col, row_edge, col_row, budget, soft, tail):
    """The searches of :func:`_augmenting_paths` from each free row in turn, on the state of
    :func:`_bid_rows` (updated in place): True once every row is matched, False once they have
    looked at more than `budget` edges, or at more than `soft` with more than `tail` rows (and a
    twentieth of them) still to search. Called again on the state it left, it goes on from the
    row it stopped at, as if it had not stopped."""
    n_r = len(starts) - 1
    m = n_c + n_r
    free = np.empty(n_r, dtype=np.intp)
    n_free = 0
    for i in range(n_r):
        if row_col[i] < 0:
            free[n_free] = i
            n_free += 1
    distance, settled, via_row, via_edge, reached, order, heap_keys, heap_items = _search_space(m, len(cols) + n_r + 1)
    soft = budget - soft  # the budget left when the soft limit is reached
    for f in range(n_free):
        budget = _search(free[f], starts, cols, w, n_c, True, budget, u, v, row_col, row_edge, col_row, distance,
                         settled, via_row, via_edge, reached, order, heap_keys, heap_items)
        if budget < 0 or (budget < soft and n_free - f - 1 > max(tail, n_free // 20)):
            return False
    return True


@compiled
def _priced_paths(starts, cols, w, n_c, bids_per_edge, duals, start, budget):
    """:func:`_augmenting_paths` (the matched edge of each row, True) for graphs whose searches run
    long: weights tied across much of each row make every late search cross a plateau of the
    reduced costs, most of the graph. The problem is made square (:func:`_squared`) and an
    auction with epsilon-scaling (Bertsekas) prices it, starting from the prices the searches had
    reached (minus the column `duals`, own columns included, which the square problem numbers
    alike): each row bids for its best column, raising the price by the margin over its second
    best plus epsilon, so that ties are broken by epsilon and settled by local bids; epsilon falls
    fourfold from `start` down to 1e-4 of the largest weight (both fractions of it). Its prices are
    only a start: each row keeps its column if that is exactly its cheapest at those prices, and
    the rows left are matched by shortest augmenting paths (:func:`_square_paths`), exact as
    before. (..., False) where the auction bids more than `bids_per_edge` times the square
    problem's edges, or those searches look at more than `budget` edges: the plain searches go on.
    """
    n_r = len(starts) - 1
    edge = np.full(n_r, -1)
    s_starts, s_cols, s_w, s_edge = _squared(starts, cols, w, n_c)
    top = np.max(w)
    prices, bid_col, priced = _auction(s_starts, s_cols, s_w, -duals, top * start, top * 1e-4,
                                       bids_per_edge * len(s_cols))
    if not priced:
        return edge, False
    square_edge, left = _square_paths(s_starts, s_cols, s_w, prices, bid_col, budget)
    if left < 0:
        return edge, False
    for i in range(n_r):
        edge[i] = s_edge[square_edge[i]]
    return edge, True


@compiled
def _squared(starts, cols, w, n_c):
    """The square problem whose perfect matchings are the matchings of the rows (starts, cols, w):
    rows 0..n_r-1 and one row n_r + j per column j, columns 0..n_c-1 and one column n_c + i per row
    i. Row i has its edges and (i, n_c + i) ("unpaired"); row n_r + j has (n_r + j, j) ("unpaired")
    and (n_r + j, n_c + i) for each edge (i, j), so that when i takes j, j's row takes i's column.
    Only row i's own edges weigh anything. Returns (starts, cols, weights, the original edge or -1)."""
    n_r = len(starts) - 1
    n = n_r + n_c
    sizes = np.zeros(n + 1, dtype=np.intp)
    for i in range(n_r):
        sizes[i + 1] = starts[i + 1] - starts[i] + 1
    for t in range(len(cols)):
        sizes[n_r + cols[t] + 1] += 1
    for j in range(n_c):
        sizes[n_r + j + 1] += 1
    for x in range(n):
        sizes[x + 1] += sizes[x]
    s_cols = np.empty(sizes[n], dtype=np.intp)
    s_w = np.zeros(sizes[n])
    s_edge = np.full(sizes[n], -1, dtype=np.intp)
    at = sizes[:n].copy()
    for j in range(n_c):
        s_cols[at[n_r + j]] = j
        at[n_r + j] += 1
    for i in range(n_r):
        for t in range(starts[i], starts[i + 1]):
            s_cols[at[i]], s_w[at[i]], s_edge[at[i]] = cols[t], w[t], t
            at[i] += 1
            s_cols[at[n_r + cols[t]]] = n_c + i
            at[n_r + cols[t]] += 1
        s_cols[at[i]] = n_c + i
        at[i] += 1
    return sizes, s_cols, s_w, s_edge


@compiled
def _auction(starts, cols, w, prices, epsilon, final, most_bids):
    """Forward auction with epsilon-scaling on a square problem whose every row has two edges or
    more and which has a perfect matching, from the given `prices` (raised in place): (prices,
    each row's column, True), or False third once more than `most_bids` bids were made. Each phase
    frees every row and keeps the prices."""
    n = len(starts) - 1
    col_row = np.full(n, -1)
    row_col = np.full(n, -1)
    queue = np.empty(n, dtype=np.intp)
    while True:
        col_row[:] = -1
        for i in range(n):
            queue[i] = i
        head, tail, waiting = 0, 0, n  # a ring, full
        while waiting > 0:
            most_bids -= 1
            if most_bids < 0:
                return prices, row_col, False
            i = queue[head]
            head = head + 1 if head + 1 < n else 0
            waiting -= 1
            best, second, j = -np.inf, -np.inf, -1
            for t in range(starts[i], starts[i + 1]):
                value = w[t] - prices[cols[t]]
                if value > second:
                    if value > best:
                        best, second, j = value, best, cols[t]
                    else:
                        second = value
            prices[j] += (best - second if second > -np.inf else 0.0) + epsilon  # one edge: no margin
            held = col_row[j]
            col_row[j], row_col[i] = i, j
            if held >= 0:
                queue[tail] = held
                tail = tail + 1 if tail + 1 < n else 0
                waiting += 1
        if epsilon <= final:
            return prices, row_col, True
        epsilon = max(epsilon / 4, final)


@compiled
def _square_paths(starts, cols, w, prices, start_col, budget):
    """An optimal perfect matching of a square problem (each row's matched edge) by shortest
    augmenting paths, started from prices: the column duals are minus the prices, each row's dual
    its least reduced cost, and a row keeps its column `start_col` where that is exactly its
    least; every other row is matched by a search (:func:`_search`, with no column of its
    own here: the square problem has a perfect matching, so a free column is always reached)."""
    n = len(starts) - 1
    v = -prices
    u = np.empty(n)
    row_col = np.full(n, -1)
    row_edge = np.full(n, -1)
    col_row = np.full(n, -1)
    free = np.empty(n, dtype=np.intp)
    n_free = 0
    for i in range(n):
        least, kept = np.inf, -1
        for t in range(starts[i], starts[i + 1]):
            reduced = -w[t] - v[cols[t]]
            if reduced < least or (reduced == least and cols[t] == start_col[i]):
                least, kept = reduced, t if cols[t] == start_col[i] else -1
        u[i] = least
        if kept >= 0 and col_row[cols[kept]] < 0:
            row_col[i], row_edge[i], col_row[cols[kept]] = cols[kept], kept, i
        else:
            free[n_free] = i
            n_free += 1
    distance, settled, via_row, via_edge, reached, order, heap_keys, heap_items = _search_space(n, len(cols) + 1)
    for f in range(n_free):
        budget = _search(free[f], starts, cols, w, n, False, budget, u, v, row_col, row_edge, col_row, distance,
                         settled, via_row, via_edge, reached, order, heap_keys, heap_items)
        if budget < 0:
            break
    return row_edge, budget


@compiled
def _block_cells(rows, cols, n_r, n_c):
    """(each cell's position in the n_r x n_c block, flattened; the block's cell at each position,
    -1 where none) of the cells (rows, cols)."""
    flat = np.empty(len(rows), dtype=np.intp)
    cell = np.full((n_r, n_c), -1, dtype=np.intp)
    for x in range(len(rows)):
        flat[x] = rows[x] * n_c + cols[x]
        cell[rows[x], cols[x]] = x
    return flat, cell


@compiled
def _block_costs(flat, w, n_r, n_c):
    """The n_r x n_c block of costs -w at the cells' positions `flat`, -0.0 elsewhere: what
    ``linear_sum_assignment(block of w, maximize=True)`` minimises after negating the block."""
    cost = np.full(n_r * n_c, -0.0)
    for x in range(len(flat)):
        cost[flat[x]] = -w[x]
    return cost.reshape(n_r, n_c)


@compiled
def _small_block(rows, cols, values, row_order, col_order):
    """(block, cell): the positive `values` of the cells (rows, cols) in a dense block over the rows
    and the columns that have such cells, both in tie order, and each entry's cell (-1: none)."""
    k_a, k_b = len(row_order), len(col_order)
    row_of = np.full(k_a, -1, dtype=np.intp)
    col_of = np.full(k_b, -1, dtype=np.intp)
    for x in range(len(rows)):
        if values[x] > 0:
            row_of[rows[x]] = 0
            col_of[cols[x]] = 0
    n_r = 0
    for i in row_order:
        if row_of[i] == 0:
            row_of[i] = n_r
            n_r += 1
    n_c = 0
    for j in col_order:
        if col_of[j] == 0:
            col_of[j] = n_c
            n_c += 1
    block = np.zeros((n_r, n_c))
    cell = np.full((n_r, n_c), -1, dtype=np.intp)
    for x in range(len(rows)):
        if values[x] > 0:
            block[row_of[rows[x]], col_of[cols[x]]] = values[x]
            cell[row_of[rows[x]], col_of[cols[x]]] = x
    return block, cell


def _unused(used: np.ndarray, k: int) -> np.ndarray:
    """The indices 0..k-1 not in `used`, ascending."""
    if len(used) == k:  # used holds each index at most once: none is left
        return np.zeros(0, dtype=np.intp)
    free = np.ones(k, dtype=bool)
    free[used] = False
    return np.flatnonzero(free)


def _pad(pair_cells, rows, cols, k_a, k_b, row_order, col_order):
    """Complete a matching (the cells `pair_cells` of the cell arrays `rows`, `cols`) to
    min(K_a, K_b) pairs: unmatched rows with unmatched columns, both in tie order (such pairs
    share no object: a positive cell between them would improve the matching). Returns
    (rows, cols, cells) by row, cells -1 for the added pairs."""
    return _padded(np.asarray(pair_cells, dtype=np.intp), rows, cols, k_a, k_b, row_order, col_order)


@compiled
def _solved_padded(cell, pair_rows, pair_cols, rows, cols, k_a, k_b, row_at, col_at):
    """:func:`_pad` of the cells of a small block's solution (`cell` at each solved pair; -1, a
    pair that shares nothing, is left to the padding), in one call."""
    chosen = np.empty(len(pair_rows), dtype=np.intp)
    found = 0
    for x in range(len(pair_rows)):
        if cell[pair_rows[x], pair_cols[x]] >= 0:
            chosen[found] = cell[pair_rows[x], pair_cols[x]]
            found += 1
    return _padded(chosen[:found], rows, cols, k_a, k_b, row_at, col_at)


@compiled
def _padded(pair_cells, rows, cols, k_a, k_b, row_at, col_at):
    """:func:`_pad` in one pass over the clusters (`row_at`, `col_at`: each side in tie order)."""
    col_of_row = np.full(k_a, -1, dtype=np.intp)
    cell_of_row = np.full(k_a, -1, dtype=np.intp)
    col_used = np.zeros(k_b, dtype=np.bool_)
    for p in pair_cells:
        col_of_row[rows[p]] = cols[p]
        cell_of_row[rows[p]] = p
        col_used[cols[p]] = True
    pairs = len(pair_cells)
    j = 0  # the next column in tie order, unused
    for rank in range(k_a):
        row = row_at[rank]
        if col_of_row[row] >= 0:
            continue
        while j < k_b and col_used[col_at[j]]:
            j += 1
        if j == k_b:
            break
        col_of_row[row] = col_at[j]
        j += 1
        pairs += 1
    out_rows = np.empty(pairs, dtype=np.intp)
    out_cols = np.empty(pairs, dtype=np.intp)
    out_cells = np.empty(pairs, dtype=np.intp)
    k = 0
    for row in range(k_a):
        if col_of_row[row] >= 0:
            out_rows[k], out_cols[k], out_cells[k] = row, col_of_row[row], cell_of_row[row]
            k += 1
    return out_rows, out_cols, out_cells


def tie_priority(rows, cols, shape, row_order=None, col_order=None) -> np.ndarray:
    """Each cell's position when the cells are sorted in tie order, row first, then column."""
    r, c = _ranks(row_order, shape[0])[rows], _ranks(col_order, shape[1])[cols]
    return _tie_positions(r, c, shape[0], shape[1])


@compiled
def _tie_positions(r, c, k_a, k_b):
    """Each cell's position in the stable order of (r, c) (ranks in 0..k_a-1 and 0..k_b-1): one
    counting sort by r k_b + c where the k_a x k_b grid is not much larger than the cells, else
    two, by c and then by r."""
    priority = np.empty(len(r), dtype=np.intp)
    if k_a * k_b <= _GRID_CELLS * len(r) + 4096:
        start = np.zeros(k_a * k_b + 1, dtype=np.intp)
        for x in range(len(r)):
            start[r[x] * k_b + c[x] + 1] += 1
        for y in range(k_a * k_b):
            start[y + 1] += start[y]
        for x in range(len(r)):
            key = r[x] * k_b + c[x]
            priority[x] = start[key]
            start[key] += 1
        return priority
    by_col, _ = _counting_order(c, k_b)
    by_both, _ = _counting_order(r[by_col], k_a)
    priority[by_col[by_both]] = np.arange(len(r))
    return priority


# The tie order's positions count the cells in one pass over the k_a x k_b grid where it has at
# most this many entries per cell (plus 4 096)
_GRID_CELLS = 4


def optimal_pairing_cells(rows, cols, values, shape, row_order=None, col_order=None, *, priority=None,
                          return_cells=False, shared=None):
    """A one-to-one pairing maximising the summed values of its cells, from the non-empty cells.

    A small table (up to ``_SMALL_TABLE`` cells) is solved by one dense assignment in tie
    order. On a larger one, pairs forced by a dominance test are fixed first (see
    :func:`_forced_pairs`); the rest is solved one connected component of the cells' graph at
    a time: densely
    (``linear_sum_assignment``) when the component's block is small, else on its cells by
    shortest augmenting paths (:func:`_augmenting_paths`). The clusters left over are
    paired in tie order, so that min(K_a, K_b) pairs result. Returns (rows, cols) by row.
    `priority` (optional, to share the work between calls) ranks the cells in tie order, row
    first: ``tie_priority(rows, cols, shape, row_order, col_order)``, or is a function giving
    it (called only when it is needed). With `return_cells`, the
    position of each pair's cell in the input arrays comes third (-1 for pairs of empty cells).
    `shared` (optional) is a dict the caller keeps for one table (the same cells, in the same tie
    order), in which the pairings of weights positive on the same cells share their graph: the
    cells' ranks and connected components and how each component is laid out for its solver.

    >>> optimal_pairing_cells(np.array([0, 0, 1]), np.array([0, 1, 0]), np.array([1.0, 0.9, 0.9]), (2, 2))
    (array([0, 1]), array([1, 0]))
    """
    k_a, k_b = shape
    rows, cols, values = np.asarray(rows, np.intp), np.asarray(cols, np.intp), np.asarray(values)
    row_at, col_at = _identity(k_a, row_order), _identity(k_b, col_order)
    if k_a * k_b <= _SMALL_TABLE:  # one dense assignment costs less than finding the structure
        block, cell = _small_block(rows, cols, values.astype(np.float64), row_at, col_at)
        pairs = _solved_padded(cell, *linear_sum_assignment(block, maximize=True), rows, cols, k_a, k_b, row_at,
                               col_at)
        return pairs if return_cells else pairs[:2]
    positive = np.flatnonzero(values > 0)
    graph = _cell_graph(shared, positive, rows, cols, shape, row_order, col_order)
    r, c, w = graph.r, graph.c, values[positive].astype(np.float64)
    if graph.one_a_row:  # one cell a row (singletons, a refinement)
        chosen, alive = _best_of_each(c, r, w, k_b, k_a), np.zeros(0, dtype=np.intp)
    elif graph.one_a_col:  # one cell a column
        chosen, alive = _best_of_each(r, c, w, k_a, k_b), np.zeros(0, dtype=np.intp)
    else:
        chosen, alive = _forced_pairs(r, c, w, k_a, k_b, graph.priority(
            lambda: _priority(priority, rows, cols, shape, row_order, col_order)))
    if len(alive):
        if len(alive) == len(w):  # nothing forced: every positive cell's components, shared by the weights
            parts = graph.components
        else:
            by_comp, starts = _components(r[alive], c[alive], k_a, k_b)
            parts = [(alive[part], None) for part in np.split(by_comp, starts[1:])]
        found = [chosen]
        for cells, layout in parts:
            layout = _layout(r[cells], c[cells], shape) if layout is None else layout
            found.append(cells[_solved(layout, w[cells])])
        chosen = np.concatenate(found)
    pairs = _pad(positive[chosen], rows, cols, k_a, k_b, row_at, col_at)
    return pairs if return_cells else pairs[:2]


def assignment_gaps(rows, cols, values, shape, pair_rows, pair_cols) -> np.ndarray | None:
    """For each row of a square table whose optimal pairing (`pair_rows`, `pair_cols`) pairs every
    row with a column, how much less than the optimum every pairing that gives that row another
    column sums to (0: another pairing ties), from the non-empty cells; None for any other table,
    or one of more than ``_SMALL_TABLE`` cells.

    A pairing that moves row i moves rows along a cycle: i takes column q, q's row takes another
    column, and so on back to i's column. What the cycle loses is a sum of (the moved row's
    value in its own column - in its new one), so the least loss of any cycle through i's column
    is a shortest cycle, found for every column at once by Floyd-Warshall on the columns (no cycle
    is negative: the pairing is optimal).

    >>> assignment_gaps(np.array([0, 0, 1, 1]), np.array([0, 1, 0, 1]), np.array([5.0, 1.0, 2.0, 3.0]), (2, 2),
    ...                 np.array([0, 1]), np.array([0, 1])).tolist()
    [5.0, 5.0]
    """
    k = shape[0]
    if shape[1] != k or len(pair_rows) != k or k * k > _SMALL_TABLE:
        return None
    block = np.zeros(shape)
    block[np.asarray(rows, np.intp), np.asarray(cols, np.intp)] = values
    pair_col = np.empty(k, dtype=np.intp)
    pair_col[np.asarray(pair_rows, np.intp)] = pair_cols
    if not (block[np.arange(k), pair_col] > 0).all():  # some pair shares nothing: padded, not solved
        return None
    return _cycle_gaps(block, pair_col)


@compiled
def _cycle_gaps(block, pair_col):
    """:func:`assignment_gaps` of a dense square block with row i paired with column pair_col[i]."""
    k = len(pair_col)
    row_of = np.empty(k, dtype=np.intp)
    for i in range(k):
        row_of[pair_col[i]] = i
    loss = np.empty((k, k))  # loss[a, b]: column a's row moves to column b
    for a in range(k):
        p = row_of[a]
        for b in range(k):
            loss[a, b] = np.inf if a == b else block[p, a] - block[p, b]
    for m in range(k):  # paths through columns 0..m; the diagonal becomes the shortest cycle
        for a in range(k):
            through = loss[a, m]
            if through == np.inf:
                continue
            for b in range(k):
                if through + loss[m, b] < loss[a, b]:
                    loss[a, b] = through + loss[m, b]
    gaps = np.empty(k)
    for i in range(k):
        gaps[i] = loss[pair_col[i], pair_col[i]]
    return gaps


def optimal_pairing_cells_is_tied(rows, cols, values, shape, pair_rows, pair_cols) -> bool:
    """True when another pairing is optimal too (see :func:`optimal_pairing_is_tied`), from the
    non-empty cells; `pair_rows`, `pair_cols` is the pairing found."""
    k = len(pair_rows)
    if k == 0:
        return False
    k_a, k_b = shape
    values = np.asarray(values)
    key = pd.Index(np.asarray(rows, np.int64) * k_b + np.asarray(cols, np.int64))
    at = key.get_indexer(np.asarray(pair_rows, np.int64) * k_b + np.asarray(pair_cols, np.int64))
    positive = at[at >= 0]
    positive = positive[values[positive] > 0]
    if (k_a - len(positive)) * (k_b - len(positive)) > 1:
        return True  # two empty pairs could swap partners
    weights = values.astype(np.float64)
    if values.dtype.kind in "iu":
        delta = 1.0 / (k + 1)
    else:
        delta = TIE_TOLERANCE * max(float(np.abs(weights).max()), np.finfo(float).tiny)
    weights[positive] -= delta
    again = optimal_pairing_cells(rows, cols, weights, shape)
    return set(zip(*map(np.ndarray.tolist, again))) != set(zip(np.asarray(pair_rows).tolist(),
                                                                np.asarray(pair_cols).tolist()))


def greedy_pairing_cells(rows, cols, values, shape, row_order=None, col_order=None, *, priority=None,
                         return_cells=False, shared=None):
    """:func:`greedy_pairing` (exact ties) from the non-empty cells of a table with values >= 0.

    The sequential greedy takes a cell when it comes first, in the order (value descending,
    then tie order), among the cells still available in both its row and its column: the
    cells are sorted once and taken in one compiled pass (:func:`_greedy_taken`); the clusters
    left after the positive cells are paired in tie order (pairs of zero value), as the dense
    greedy does. Returns (rows, cols, tie_broken), and with `return_cells` the position of each
    pair's cell in the input (-1: empty) fourth. `priority` and `shared` are as in
    :func:`optimal_pairing_cells`.

    >>> greedy_pairing_cells(np.array([0, 1, 1]), np.array([0, 0, 1]), np.array([1, 1, 1]), (2, 2), row_order=[1, 0])
    (array([0, 1]), array([1, 0]), True)
    """
    k_a, k_b = shape
    rows, cols, values = np.asarray(rows, np.intp), np.asarray(cols, np.intp), np.asarray(values)
    row_at, col_at = _identity(k_a, row_order), _identity(k_b, col_order)
    if k_a * k_b > _SMALL_TABLE:
        graph = _cell_graph(shared, np.flatnonzero(values > 0), rows, cols, shape, row_order, col_order)
        one_a_line = _greedy_one_a_line(graph, rows, cols, values, row_at, col_at)
        if one_a_line is not None:
            pair_rows, pair_cols, tie, cells = one_a_line
            return (pair_rows, pair_cols, tie, cells) if return_cells else (pair_rows, pair_cols, tie)
    priority = _priority(priority, rows, cols, shape, row_order, col_order)
    if k_a * k_b <= _SMALL_TABLE:  # the same steps in one compiled call
        pair_rows, pair_cols, cells, tie = _small_greedy(rows, cols, values, np.asarray(priority, np.intp), k_a, k_b,
                                                         row_at, col_at, values.dtype.kind in "iu")
        return (pair_rows, pair_cols, tie, cells) if return_cells else (pair_rows, pair_cols, tie)
    top = int(values.max(initial=0)) if values.dtype.kind in "iu" else -1
    if 0 <= top <= 4 * len(values) + 4096:  # whole values, in a range not much wider than the cells: counted
        order = _counted_order(np.asarray(priority, np.intp), values.astype(np.int64, copy=False), top)
    else:
        by_tie = np.empty(len(priority), dtype=np.intp)  # the cells in tie order
        by_tie[priority] = np.arange(len(priority))
        by_tie = by_tie[values[by_tie] > 0]
        # value descending, ties in tie order: a stable sort of the cells already in tie order
        order = by_tie[np.argsort(-values[by_tie], kind="stable")]
    taken, tie = _greedy_taken(rows[order], cols[order], values[order], k_a, k_b)
    n_taken = int(taken.sum())
    if n_taken < min(k_a, k_b) and (k_a - n_taken) * (k_b - n_taken) > 1:
        tie = True  # the empty pairs could be formed in several ways
    pair_rows, pair_cols, cells = _pad(order[taken], rows, cols, k_a, k_b, row_at, col_at)
    return (pair_rows, pair_cols, tie, cells) if return_cells else (pair_rows, pair_cols, tie)


@compiled
def _counted_order(priority, values, top):
    """The cells of positive whole `values` (each at most `top`) by value descending, ties in tie
    order (`priority`: each cell's distinct rank), by one counting sort of the cells in tie order."""
    by_tie = np.empty(len(priority), dtype=np.intp)
    for x in range(len(priority)):
        by_tie[priority[x]] = x
    start = np.zeros(top + 2, dtype=np.intp)  # start[top - v + 1] counts the value v
    for x in range(len(values)):
        if values[x] > 0:
            start[top - values[x] + 1] += 1
    for g in range(top + 1):
        start[g + 1] += start[g]
    order = np.empty(start[top + 1], dtype=np.intp)
    for x in by_tie:
        if values[x] > 0:
            at = top - values[x]
            order[start[at]] = x
            start[at] += 1
    return order


@compiled
def _small_greedy(rows, cols, values, priority, k_a, k_b, row_at, col_at, whole):
    """:func:`greedy_pairing_cells` of a small table in one call: the positive cells in tie order
    (`priority`), sorted stably by value descending (`whole`: the values are whole numbers, sorted
    with their tie-order positions as one key), taken by :func:`_greedy_taken`, padded by
    :func:`_padded`. Returns (rows, cols, cells, tie_broken)."""
    by_tie = np.empty(len(priority), dtype=np.intp)
    by_tie[priority] = np.arange(len(priority))
    by_tie = by_tie[values[by_tie] > 0]
    n = len(by_tie)
    top = values[by_tie].max() if n else 0
    if whole and top < (1 << 62) // max(n, 1):  # (value descending, tie order) as one whole number each
        keys = np.sort((top - values[by_tie]).astype(np.int64) * n + np.arange(n))
        order = by_tie[keys % n]
    else:
        order = by_tie[np.argsort(-values[by_tie], kind="mergesort")]
    taken, tie = _greedy_taken(rows[order], cols[order], values[order], k_a, k_b)
    n_taken = taken.sum()
    if n_taken < min(k_a, k_b) and (k_a - n_taken) * (k_b - n_taken) > 1:
        tie = True  # the empty pairs could be formed in several ways
    pair_rows, pair_cols, cells = _padded(order[taken], rows, cols, k_a, k_b, row_at, col_at)
    return pair_rows, pair_cols, cells, tie


@compiled
def _greedy_taken(r, c, v, k_a, k_b):
    """The sequential greedy over cells in its order (`v` descending, ties in tie order; every
    v > 0): (the mask of the cells it takes, whether a tie mattered). A cell is taken when its
    row and its column are both still free; a tie mattered when, as a value's turn came, two of
    its cells still available shared a row or a column (the cells of a line whose pair has a
    larger value were no longer available). Values are compared in their own type."""
    n = len(r)
    taken = np.zeros(n, dtype=np.bool_)
    row_used = np.zeros(k_a, dtype=np.bool_)
    col_used = np.zeros(k_b, dtype=np.bool_)
    row_value = np.zeros(k_a, dtype=v.dtype)  # the value of the cell taken in each used line
    col_value = np.zeros(k_b, dtype=v.dtype)
    for x in range(n):
        if not row_used[r[x]] and not col_used[c[x]]:
            taken[x] = row_used[r[x]] = col_used[c[x]] = True
            row_value[r[x]] = col_value[c[x]] = v[x]
    row_run = np.full(k_a, -1)  # the run of equal values in which a line's cell last came up
    col_run = np.full(k_b, -1)
    run = 0
    for x in range(n):
        if x and v[x] != v[x - 1]:
            run += 1
        # still available at its value's turn: free, or taken at this very value
        if (not row_used[r[x]] or row_value[r[x]] <= v[x]) and (not col_used[c[x]] or col_value[c[x]] <= v[x]):
            if row_run[r[x]] == run or col_run[c[x]] == run:
                return taken, True
            row_run[r[x]] = run
            col_run[c[x]] = run
    return taken, False


def _greedy_one_a_line(graph, rows, cols, values, row_order, col_order):
    """The greedy pairing of a table whose positive cells are one a row (or one a column), without
    sorting: the greedy takes each column's largest cell, the first in tie order among equals
    (rows never compete), and a tie mattered where a column has two largest cells. None for
    other tables. `graph` is the :class:`_CellGraph` of the positive cells. Returns (rows, cols,
    tie_broken, cells) as greedy_pairing_cells does."""
    (k_a, k_b), positive = graph.shape, graph.positive
    v = values[positive]
    if graph.one_a_row:
        chosen = _best_of_each(cols[positive], graph.r, v, k_b, k_a)
        lines, k = cols[positive], k_b
    elif graph.one_a_col:
        chosen = _best_of_each(rows[positive], graph.c, v, k_a, k_b)
        lines, k = rows[positive], k_a
    else:
        return None
    best = np.zeros(k, dtype=v.dtype)
    best[lines[chosen]] = v[chosen]
    tie = bool((np.bincount(lines[v == best[lines]], minlength=k) > 1).any())
    n_taken = len(chosen)
    if n_taken < min(k_a, k_b) and (k_a - n_taken) * (k_b - n_taken) > 1:
        tie = True  # the empty pairs could be formed in several ways
    pair_rows, pair_cols, cells = _pad(positive[chosen], rows, cols, k_a, k_b, row_order, col_order)
    return pair_rows, pair_cols, tie, cells


def _priority(priority, rows, cols, shape, row_order, col_order) -> np.ndarray:
    """The cells' tie-order ranks: `priority` itself, what it gives when it is a function, or computed."""
    if priority is None:
        return tie_priority(rows, cols, shape, row_order, col_order)
    return priority() if callable(priority) else priority


def nearest_mapping_cells(sources, targets, scores, shape, target_order=None, *, return_cells=False):
    """:func:`nearest_mapping` (exact ties, higher is nearer) from the non-empty cells.

    `sources`, `targets`, `scores` are aligned cell arrays; every source must have a cell of
    positive score (every cluster shares objects with some cluster of the other side).
    Returns ``(targets, in_degree, tie_broken)``, and with `return_cells` the position of each
    source's chosen cell in the input arrays fourth.

    >>> nearest_mapping_cells(np.array([0, 0, 1]), np.array([0, 1, 1]), np.array([0.2, 0.5, 0.5]), (2, 2))
    (array([1, 1]), array([0, 2]), False)
    """
    k_src, k_dst = shape
    sources, targets = np.asarray(sources, np.intp), np.asarray(targets, np.intp)
    scores = np.asarray(scores, dtype=np.float64)
    complete, out, in_degree, tie, cells = _nearest(sources, targets, scores, k_src, k_dst,
                                                    _identity(k_dst, target_order))
    if not complete:
        raise ValueError("every source needs a cell")
    return (out, in_degree, tie, cells) if return_cells else (out, in_degree, tie)


@compiled
def _nearest(sources, targets, scores, k_src, k_dst, order):
    """:func:`nearest_mapping_cells` in two passes over the cells (`order`: the targets in tie
    order): (whether every source has a cell and no NaN score, targets, in-degrees, whether a
    tie was broken, each source's chosen cell)."""
    rank = np.empty(k_dst, dtype=np.intp)
    rank[order] = np.arange(k_dst)
    best = np.full(k_src, -np.inf)
    for x in range(len(sources)):
        s = sources[x]
        if np.isnan(scores[x]) or np.isnan(best[s]):
            best[s] = np.nan
        elif scores[x] > best[s]:
            best[s] = scores[x]
    first = np.full(k_src, k_dst, dtype=np.intp)  # the nearest target's rank, first in tie order
    cells = np.empty(k_src, dtype=np.intp)
    nearest = np.zeros(k_src, dtype=np.intp)
    for x in range(len(sources)):
        s = sources[x]
        if scores[x] == best[s]:
            nearest[s] += 1
            if rank[targets[x]] < first[s]:
                first[s] = rank[targets[x]]
                cells[s] = x
    out = np.empty(k_src, dtype=np.intp)
    in_degree = np.zeros(k_dst, dtype=np.intp)
    tie = False
    for s in range(k_src):
        if not np.isfinite(best[s]):
            return False, out, in_degree, tie, cells
        out[s] = order[first[s]]
        in_degree[out[s]] += 1
        tie = tie or nearest[s] > 1
    return True, out, in_degree, tie, cells
