"""Many clusterings of the same objects compared pairwise (seeds, a range of k, algorithms).

:func:`compare_many` factorises each partition once and builds each pair's table from the
codes (one compiled counting pass over the objects for a block of pairs, counted ahead in a
second thread when the objects are many), so P partitions cost P factorisations and P(P-1)/2
tables. When the partitions agree on most objects (runs of one
algorithm), their meet, the groups of objects labelled alike in every partition, is much
smaller than N: each table is then counted over the groups, weighted by their sizes, as every
pairwise table is a margin of the meet. Every value comes from the registry's own code through
a :class:`~cluval_core.Comparison`, with the ties broken in the order clusters first occur,
as :func:`~cluval_core.compare` does.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pandas as pd

from .chance import BUDGET_SECONDS, Pace, check_budget
from .comparison import Comparison
from .compiled import compiled
from .contingency import factorize, first_occurrence_order, table_from_codes
from .registry import INDICES, index_ids
from .validation import DENSE_CELLS, CluvalError, as_labels

__all__ = ["compare_many"]

# Most pairs of partitions one call compares (about a minute of work at N = 1e4).
MAX_PAIRS = 1_000_000
# The meet is used when it has at most this share of the objects' count.
_MEET_SHARE = 0.25
# Pairs whose tables one compiled call counts; a second thread counts the next two blocks (the
# count releases the GIL) while the caller scores this one ...
_BLOCK_PAIRS = 64
# ... over at least this many objects (or groups of the meet); over fewer the count is done in turn.
_AHEAD_FROM = 30_000


def _named_partitions(partitions) -> tuple[list[str], list[np.ndarray]]:
    if isinstance(partitions, pd.DataFrame):
        return [str(c) for c in partitions.columns], [partitions[c].to_numpy() for c in partitions.columns]
    if isinstance(partitions, Mapping):
        return [str(k) for k in partitions], list(partitions.values())
    if isinstance(partitions, (str, bytes)) or not hasattr(partitions, "__len__"):
        raise CluvalError("partitions must be a list of label vectors, a dict of them by name, or a DataFrame with "
                          f"one column per partition, got {type(partitions).__name__}")
    return [str(i) for i in range(len(partitions))], list(partitions)


def compare_many(partitions, ids=("ari",), *, progress=None, budget: float = BUDGET_SECONDS) -> dict[str, pd.DataFrame]:
    """Every pairwise value of the chosen indices for a list of partitions of the same objects.

    Parameters
    ----------
    partitions : list of label vectors, dict name -> labels, or DataFrame (one column each)
        At least two partitions of the same N objects.
    ids : str or sequence of str
        Index ids (``cluval_core.INDICES``); indices that need coordinates are refused.
    progress : callable(done, total), optional
        Called as the pairs are compared (about a hundred times in all).
    budget : float
        Seconds the work may take (60 by default; ``math.inf`` for no limit): judged from the
        pace of the first pairs, as :func:`~cluval_core.core.chance.chance` does, work that would
        take longer stops with an error saying how long it would take.

    Returns
    -------
    dict id -> DataFrame
        One P x P matrix per index, rows and columns named by the partitions; entry (p, q)
        is the index with p as the reference and q as the candidate (the diagonal compares
        each partition with itself). When every index asked for is symmetric, each pair is
        compared once and its value mirrored.

    >>> m = compare_many({"a": [0, 0, 1, 1], "b": [0, 0, 1, 2], "c": [0, 1, 0, 1]}, ["ari", "purity"])
    >>> m["ari"].round(3).values.tolist()
    [[1.0, 0.571, -0.5], [0.571, 1.0, -0.286], [-0.5, -0.286, 1.0]]
    >>> float(m["purity"].loc["a", "b"]), float(m["purity"].loc["b", "a"])
    (1.0, 0.75)
    """
    budget = check_budget(budget)
    names, labels = _named_partitions(partitions)
    ids = index_ids(ids, has_data=False, without_data="compare_many compares labels alone, without coordinates")
    if len(labels) < 2:
        raise CluvalError(f"compare_many needs at least 2 partitions, got {len(labels)}")
    if len(set(names)) < len(names):
        raise CluvalError("the partitions' names repeat: give each a name of its own")
    p = len(labels)
    if p * (p + 1) // 2 > MAX_PAIRS:
        raise CluvalError(f"{p} partitions make {p * (p + 1) // 2:,} pairs, more than the {MAX_PAIRS:,} cluval "
                          "compares "
                          "in one call")
    arrays = [as_labels(x, f"partitions[{name!r}]") for name, x in zip(names, labels)]
    n = len(arrays[0])
    for name, x in zip(names, arrays):
        if len(x) != n:
            raise CluvalError(f"partition {name!r} has {len(x)} labels, the first has {n}: every partition must "
                              "label the same objects")
    factorised = [factorize(x, f"partitions[{name!r}]") for name, x in zip(names, arrays)]
    codes = [np.asarray(c, dtype=np.intp) for c, _ in factorised]
    uniques = [u for _, u in factorised]
    ks = [len(u) for u in uniques]
    # each partition's tie order (its clusters in the order they first occur) serves every pair
    orders = [first_occurrence_order(c, k) for c, k in zip(codes, ks)]
    counted, weights = _meet(codes, ks) or (codes, None)
    # the codes counted, one row each, in the smallest type that holds them: less to read per pair
    rows = np.empty((p, len(counted[0])), dtype=np.min_scalar_type(max(max(ks) - 1, 0)))
    for row, c in zip(rows, counted):
        row[:] = c
    symmetric = all(INDICES[i].symmetric for i in ids)
    out = {i: np.full((p, p), np.nan) for i in ids}
    pairs = [(a, b) for a in range(p) for b in range(p) if a <= b or not symmetric]
    pace = Pace(len(pairs), budget, "compare_many", "compare fewer partitions or fewer indices", "pairs")
    every = max(1, len(pairs) // 100)
    for done, ((a, b), table) in enumerate(_tables(rows, np.array(ks), weights, pairs), 1):
        comparison = Comparison._build(table, uniques[a], uniques[b], codes=(codes[a], codes[b]),
                                       tie_order=(orders[a], orders[b]), copy=False)
        for i, value in zip(ids, comparison._scores_in_order(ids)):  # ids checked once above
            out[i][a, b] = value
            if a != b and symmetric:  # else (b, a) is compared in its own turn
                out[i][b, a] = value
        pace.done(done)
        if progress is not None and (done % every == 0 or done == len(pairs)):
            progress(done, len(pairs))
    return {i: pd.DataFrame(matrix, index=names, columns=names) for i, matrix in out.items()}


def _meet(codes: list[np.ndarray], ks: list[int]):
    """The meet of the partitions, when it has few groups: (each partition's code of each group,
    each group's size), or None once it has more than a share _MEET_SHARE of the objects."""
    n = len(codes[0])
    group, groups = codes[0], ks[0]
    for c, k in zip(codes[1:], ks[1:]):
        group, distinct = pd.factorize(group.astype(np.int64) * k + c)
        groups = len(distinct)
        if groups > _MEET_SHARE * n:
            return None
    first = np.full(groups, n, dtype=np.intp)
    np.minimum.at(first, group, np.arange(n))  # one object of each group
    return [c[first] for c in codes], np.bincount(group, minlength=groups)


def _tables(counted: np.ndarray, ks: np.ndarray, weights, pairs: list[tuple[int, int]]):
    """Each pair of `pairs` with its table, in order: the k_a x k_b tables of the rows of
    `counted` (codes of objects, or of the meet's groups with their sizes as `weights`), sparse
    beyond DENSE_CELLS. Blocks of pairs are counted in one call each; over at least _AHEAD_FROM
    objects (or groups), in a second thread, two blocks ahead."""
    blocks = [pairs[at:at + _BLOCK_PAIRS] for at in range(0, len(pairs), _BLOCK_PAIRS)]
    if counted.shape[1] < _AHEAD_FROM:  # counting is a small part of the work: no thread to hand it over
        for block in blocks:
            yield from zip(block, _block_tables(counted, ks, weights, block))
        return
    with ThreadPoolExecutor(max_workers=1) as pool:
        ahead = deque(pool.submit(_block_tables, counted, ks, weights, block) for block in blocks[:2])
        for at, block in enumerate(blocks):
            tables = ahead.popleft().result()
            if at + 2 < len(blocks):
                ahead.append(pool.submit(_block_tables, counted, ks, weights, blocks[at + 2]))
            yield from zip(block, tables)


def _block_tables(counted: np.ndarray, ks: np.ndarray, weights, block: list[tuple[int, int]]) -> list:
    """The tables of one block of pairs: the dense ones counted in one compiled call."""
    firsts, seconds = np.array(block, dtype=np.intp).T
    dense = ks[firsts] * ks[seconds] <= DENSE_CELLS
    cells, starts = _counted_pairs(counted, firsts[dense], seconds[dense], ks, weights)
    dense_tables = iter(np.split(cells, starts[1:-1]))
    return [next(dense_tables).reshape(ks[a], ks[b]) if small else
            table_from_codes(counted[a], counted[b], int(ks[a]), int(ks[b]), weights=weights)
            for a, b, small in zip(firsts, seconds, dense)]


@compiled
def _counted_pairs(codes, firsts, seconds, ks, weights):
    """The dense tables of the pairs of rows (firsts[p], seconds[p]) of `codes`, each object (or
    group, of `weights` objects) counted: (every table's cells one after another, row by row,
    and where each starts, with the end last)."""
    starts = np.zeros(len(firsts) + 1, dtype=np.int64)
    for p in range(len(firsts)):
        starts[p + 1] = starts[p] + ks[firsts[p]] * ks[seconds[p]]
    cells = np.zeros(starts[-1], dtype=np.int64)
    for p in range(len(firsts)):
        a, b, k_b, at = codes[firsts[p]], codes[seconds[p]], ks[seconds[p]], starts[p]
        for x in range(len(a)):
            cells[at + a[x] * k_b + b[x]] += 1 if weights is None else weights[x]
    return cells, starts
