r"""The attainable range: the worst and the best value each index can reach with the observed
cluster sizes.

With both partitions' cluster sizes fixed (the table's margins r and c), an index takes its
values only on the tables with those margins, and its extremes there may lie far inside its
range: ARI cannot reach −1, and with sizes that no pairing can match, no index reaches its best
value. :func:`attainable_range` gives each index's two ends, each one either **exact** or a
**reached** value (a table with these sizes reaches it, and the extreme lies at least that far):

* every table with these margins, when there are few (``limit``, 2 000 by default): both ends
  exact for every index, by enumeration;
* otherwise, the worst end of the indices that are monotone functions of the pairs together
  in both partitions, a = Σ C(n_ij, 2) (the pair-counting indices but MARI, which also reads
  higher moments), is exact on the table that minimises Σ n_ij², and that of the indices
  monotone in the mutual information (the information-theoretic family but the reduced mutual
  informations RMI, its flat form and NRMI, which read the cells beyond MI) on the table that
  maximises the joint entropy, minimising Σ n_ij log n_ij. Both are convex separable costs over
  the transportation polytope, solved exactly as a linear programme over unit increments (its
  matrix is totally unimodular, so the optimum is a table of counts; Chacón & Rastrojo 2023 give
  a closed form for ARI's lowest value when only the numbers of clusters are given);
* the best end is exact where the sizes allow it: identical partitions when the two lists of
  sizes are the same (for an index that scores its best value there, and for the two families),
  and for the two families a nested table, where one partition's clusters are unions of the
  other's (a = min(m_a, m_b), MI = min(H_a, H_b), their largest possible values), when one is
  found;
* every other end is the most extreme value among those tables, the observed table itself, the
  most concentrated table the sizes give (sizes sorted and matched greedily) and the table
  nearest the product r_i c_j / N (independent partitions): reached, so the true extreme lies at least as far. Beyond
  ``UNIT_LIMIT`` unit increments (about N · min(K_a, K_b) > 200 000) the two programmes are not
  solved, and the worst ends are reached values too.

An index that needs the objects' coordinates has no range from the sizes alone (NaN).

>>> from cluval_core import compare
>>> c = compare([0] * 3 + [1] * 3, [0] * 2 + [1] * 4)
>>> frame = attainable_range(c, ["ari", "ri"])
>>> [round(float(frame.loc["ari", end]), 4) for end in ("low", "high")], bool(frame["low_exact"].all())
([-0.2162, 0.3243], True)
>>> frame.loc["ari", "how"]
'every table with these sizes (3 tables)'
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pandas as pd
from scipy import sparse
from scipy.optimize import linprog

from .registry import _ADDED, INDICES, get_index
from .validation import CluvalError

__all__ = ["attainable_range", "tables_with_margins", "least_concentrated", "pair_monotone", "info_monotone",
           "ENUMERATION_LIMIT"]

ENUMERATION_LIMIT = 2_000  # tables: every one of them is compared
CELL_LIMIT = 1_000_000  # cells of the table (K_a K_b) the candidate tables may hold
UNIT_LIMIT = 200_000  # unit increments the linear programme may hold (Σ_ij min(r_i, c_j)): about 2 s


def pair_monotone() -> frozenset[str]:
    """The registered indices that, with the margins fixed, are monotone functions of a, the pairs
    together in both partitions: the pair-counting family but MARI (which reads higher moments of
    the table); a user's own pair index is one too (a function of a, b, c, d, and with the margins
    fixed b, c and d are linear in a) only if it is monotone, which cluval cannot know, so it is left out."""
    return frozenset(i for i, info in INDICES.items()
                     if info.family == "pair_counting" and i != "mari" and not _added(i))


# the information-theoretic indices that read more of the table than its mutual information: the reduced
# mutual informations subtract a term of the cells (a Dirichlet-multinomial fit, or Σ log n_ij!), and the
# Tsallis index reads Σ n_ij^q, which orders tables otherwise than Σ n_ij log n_ij
_NOT_BY_MI = frozenset({"rmi", "rmi_flat", "nrmi", "atmi"})


def info_monotone() -> frozenset[str]:
    """The registered indices that, with the margins fixed, are monotone functions of the mutual
    information: the information-theoretic family (the entropies, K_a, K_b and the expected mutual
    information, and its variance, are fixed by the margins) but the reduced mutual informations and
    the Tsallis index, which read the cells beyond MI."""
    return frozenset(i for i, info in INDICES.items()
                     if info.family == "information" and i not in _NOT_BY_MI and not _added(i))


def _added(index_id: str) -> bool:
    return index_id in _ADDED


def tables_with_margins(rows, cols, limit: int | None = None):
    """Every table of counts with row sums `rows` and column sums `cols`, filled cell by cell
    (a generator); with `limit`, a CluvalError once more than `limit` tables were made."""
    rows, cols = [int(v) for v in rows], [int(v) for v in cols]
    if sum(rows) != sum(cols):
        raise CluvalError(f"the row sums ({sum(rows)}) and the column sums ({sum(cols)}) differ")
    k, m = len(rows), len(cols)
    table = np.zeros((k, m), np.int64)
    made = 0

    def fill(cell: int, row_left: list, col_left: list):
        nonlocal made
        if cell == k * m:
            made += 1
            if limit is not None and made > limit:
                raise CluvalError(f"more than {limit:,} tables have these margins")
            yield table.copy()
            return
        i, j = divmod(cell, m)
        if j == m - 1:  # the row's last cell takes what the row has left
            values = [row_left[i]] if row_left[i] <= col_left[j] else []
        elif i == k - 1:  # the last row takes what the column has left
            values = [col_left[j]] if col_left[j] <= row_left[i] else []
        else:
            values = range(min(row_left[i], col_left[j]) + 1)
        for v in values:
            table[i, j] = v
            row_left[i] -= v
            col_left[j] -= v
            yield from fill(cell + 1, row_left, col_left)
            row_left[i] += v
            col_left[j] += v

    yield from fill(0, rows, cols)


def _at_most(rows, cols, limit: int) -> int:
    """An upper bound on the number of tables with these margins, or `limit` + 1 as soon as the bound
    passes `limit`: the free cells (all but the last row and column, which the margins then fix)
    each take a value from 0 to min(r_i, c_j)."""
    free = np.minimum.outer(np.asarray(rows[:-1], np.int64), np.asarray(cols[:-1], np.int64)) + 1
    bound = 1
    for v in free.ravel():
        bound *= int(v)
        if bound > limit:
            return limit + 1
    return bound


def _square(n: np.ndarray) -> np.ndarray:
    return n.astype(float) ** 2


def _n_log_n(n: np.ndarray) -> np.ndarray:
    n = n.astype(float)
    return np.where(n > 0, n * np.log(np.maximum(n, 1.0)), 0.0)


def least_concentrated(rows, cols, cost: Callable = _square) -> np.ndarray | None:
    """The table of counts with these margins that minimises Σ cost(n_ij), for a convex `cost`
    (default n², which minimises the pairs together in both; ``_n_log_n`` maximises the joint
    entropy). Solved exactly as a transportation problem over unit increments: each cell's k-th
    object costs cost(k) − cost(k − 1), increasing in k, so the cheapest increments are taken in
    order. None when the programme would exceed ``UNIT_LIMIT`` increments, or when the solver
    returns no optimal table of counts."""
    rows, cols = np.asarray(rows, np.int64), np.asarray(cols, np.int64)
    k, m = len(rows), len(cols)
    caps = np.minimum.outer(rows, cols).ravel()
    total = int(caps.sum())
    if total > UNIT_LIMIT:
        return None
    cell = np.repeat(np.arange(k * m), caps)  # each variable: one unit of one cell
    step = np.arange(total) - np.repeat(np.cumsum(caps) - caps, caps) + 1  # its rank k in the cell
    increments = cost(step) - cost(step - 1)
    row_of, col_of = cell // m, cell % m
    a_eq = sparse.vstack([sparse.csr_matrix((np.ones(total), (row_of, np.arange(total))), shape=(k, total)),
                          sparse.csr_matrix((np.ones(total), (col_of, np.arange(total))), shape=(m, total))])
    found = linprog(increments, A_eq=a_eq, b_eq=np.r_[rows, cols].astype(float), bounds=(0, 1), method="highs-ds")
    if found.status != 0 or np.abs(found.x - np.round(found.x)).max(initial=0) > 1e-6:
        return None  # no optimal vertex: the ends it would give are left to the tables that are reached
    table = np.bincount(cell, weights=np.round(found.x), minlength=k * m).reshape(k, m).astype(np.int64)
    if not (np.array_equal(table.sum(axis=1), rows) and np.array_equal(table.sum(axis=0), cols)):
        return None
    return table


def _rounded_product(rows, cols) -> np.ndarray:
    """A table with these margins near the product table r_i c_j / N (of independent partitions):
    the product's whole parts, the remainders placed greedily."""
    rows, cols = np.asarray(rows, np.int64), np.asarray(cols, np.int64)
    table = (np.multiply.outer(rows, cols) // max(int(rows.sum()), 1)).astype(np.int64)
    return table + _greedy(rows - table.sum(axis=1), cols - table.sum(axis=0))


def _greedy(rows, cols) -> np.ndarray:
    """The most concentrated table the sizes give greedily: both sorted, largest first, each row
    filling the columns in order (the north-west corner rule on sorted sizes), in the original order."""
    rows, cols = np.asarray(rows, np.int64), np.asarray(cols, np.int64)
    row_order, col_order = np.argsort(-rows, kind="stable"), np.argsort(-cols, kind="stable")
    r, c = rows[row_order].copy(), cols[col_order].copy()
    table = np.zeros((len(r), len(c)), np.int64)
    i = j = 0
    while i < len(r) and j < len(c):
        v = min(r[i], c[j])
        table[i, j] = v
        r[i] -= v
        c[j] -= v
        i += r[i] == 0
        j += c[j] == 0
    out = np.zeros_like(table)
    out[np.ix_(row_order, col_order)] = table
    return out


def _nested(rows, cols) -> np.ndarray | None:
    """A table where each cluster of the side with more clusters lies inside one cluster of the
    other (one partition nested in the other), found by first-fit decreasing; None when that finds
    none (one may still exist)."""
    rows, cols = np.asarray(rows, np.int64), np.asarray(cols, np.int64)
    for fine, coarse, transpose in ((rows, cols, False), (cols, rows, True)):
        if len(fine) < len(coarse):
            continue
        left = coarse.copy()
        table = np.zeros((len(fine), len(coarse)), np.int64)
        for i in np.argsort(-fine, kind="stable"):
            fits = np.flatnonzero(left >= fine[i])
            if not len(fits):
                break
            j = fits[np.argmin(left[fits])]  # the tightest fit
            table[i, j] = fine[i]
            left[j] -= fine[i]
        else:
            if not left.any():
                return table.T if transpose else table
    return None


def _identical(rows, cols) -> np.ndarray | None:
    """A table of identical partitions (a permutation matrix of the sizes), when the sizes allow one."""
    rows, cols = np.asarray(rows, np.int64), np.asarray(cols, np.int64)
    if len(rows) != len(cols) or not np.array_equal(np.sort(rows), np.sort(cols)):
        return None
    table = np.zeros((len(rows), len(cols)), np.int64)
    table[np.argsort(rows, kind="stable"), np.argsort(cols, kind="stable")] = np.sort(rows)
    return table


def attainable_range(c, ids=None, *, limit: int = ENUMERATION_LIMIT) -> pd.DataFrame:
    """Each index's worst and best value over the tables with c's margins (both partitions' cluster
    sizes), one row per index id: ``low`` and ``high`` (the lowest and highest values, whatever the
    index's direction), ``low_exact`` and ``high_exact`` (True when the end is the extreme itself,
    False when it is a value some table reaches, the extreme lying at least as far), and ``how``,
    in words. Needs a table of counts (:mod:`cluval_core.core.chance`'s rule)."""
    if getattr(c, "is_soft", False):
        raise CluvalError("the attainable range needs a table of counts, not a real-valued (soft or weighted) table")
    ids = list(INDICES) if ids is None else [get_index(i).id for i in ids]
    cells = len(c.row_sizes) * len(c.col_sizes)
    if cells > CELL_LIMIT:
        raise CluvalError(f"the attainable range is computed for tables of at most {CELL_LIMIT:,} cells (K_a × K_b); "
                          f"this one has {len(c.row_sizes):,} × {len(c.col_sizes):,} = {cells:,}")
    plain = [i for i in ids if not INDICES[i].needs_data]
    rows, cols = np.asarray(c.row_sizes, np.int64), np.asarray(c.col_sizes, np.int64)
    out = pd.DataFrame(index=pd.Index(ids, name="index"),
                       columns=["low", "high", "low_exact", "high_exact", "how"], dtype=object)
    for i in ids:
        if INDICES[i].needs_data:
            out.loc[i] = [math.nan, math.nan, False, False, "needs the objects' coordinates, not only the sizes"]
    if not plain:
        return _typed(out)
    everything = None
    if _at_most(rows, cols, max(limit, 1)) <= max(limit, 1):  # few enough to compare every one (one always is)
        everything = list(tables_with_margins(rows, cols))
    if everything is not None:
        values = np.array([[s[i] for i in plain] for s in (_scores(c, t, plain) for t in everything)], float)
        how = f"every table with these sizes ({len(everything):,} table{'s' if len(everything) != 1 else ''})"
        for j, i in enumerate(plain):
            defined = values[:, j][~np.isnan(values[:, j])]
            if len(defined):
                out.loc[i] = [float(defined.min()), float(defined.max()), True, True, how]
            else:
                out.loc[i] = [math.nan, math.nan, False, False, "undefined on every table with these sizes"]
        return _typed(out)
    candidates = {"spread": least_concentrated(rows, cols, _square),
                  "entropy": least_concentrated(rows, cols, _n_log_n), "product": _rounded_product(rows, cols),
                  "greedy": _greedy(rows, cols), "nested": _nested(rows, cols), "identical": _identical(rows, cols),
                  "observed": np.asarray(c.table, np.int64)}
    found = {name: _scores(c, t, plain) for name, t in candidates.items() if t is not None}
    by_pairs, by_information = pair_monotone(), info_monotone()
    for i in plain:
        info = INDICES[i]
        values = {name: s[i] for name, s in found.items() if not math.isnan(s[i])}
        if not values:
            out.loc[i] = [math.nan, math.nan, False, False, "undefined on every table tried"]
            continue
        low, high = min(values.values()), max(values.values())
        worst_exact = best_exact = False
        notes = []
        worst_table = "spread" if i in by_pairs else "entropy" if i in by_information else None
        if worst_table in values:
            worst = values[worst_table]
            worst_exact = True
            notes.append("worst: the table with the fewest pairs together" if worst_table == "spread"
                         else "worst: the table with the largest joint entropy")
            if info.higher_is_better:
                low = worst
            else:
                high = worst
        monotone = i in by_pairs or i in by_information
        if "identical" in values and (monotone or values["identical"] == info.best):
            best, best_exact = values["identical"], True  # the index's own best, or a's and MI's largest
            notes.append("best: identical partitions")
        elif "nested" in values and monotone:
            best, best_exact = values["nested"], True
            notes.append("best: one partition nested in the other")
        else:
            best = max(values.values()) if info.higher_is_better else min(values.values())
        if info.higher_is_better:
            high = best
        else:
            low = best
        low_exact = worst_exact if info.higher_is_better else best_exact
        high_exact = best_exact if info.higher_is_better else worst_exact
        inexact = [end for end, exact in (("low", low_exact), ("high", high_exact)) if not exact]
        if inexact:
            notes.append(f"{' and '.join(inexact)}: reached by a table with these sizes; the extreme lies at least "
                         "as far")
        out.loc[i] = [float(low), float(high), low_exact, high_exact, "; ".join(notes)]
    return _typed(out)


def _scores(c, table, ids) -> dict:
    """The indices on another table with c's margins (sharing what the margins alone fix)."""
    return c.with_table(table, same_margins=True).scores(list(ids))


def _typed(out: pd.DataFrame) -> pd.DataFrame:
    return out.astype({"low": float, "high": float, "low_exact": bool, "high_exact": bool, "how": str})
