"""Many clusterings of the same objects compared pairwise (seeds, a range of k, algorithms).

:func:`compare_many` factorises each partition once and builds each pair's table from the
codes (one ``bincount``), so P partitions cost P factorisations and P(P-1)/2 tables; every
value comes from the registry's own code through a :class:`~cluval_core.Comparison`, with
the ties broken in the order clusters first occur, as :func:`~cluval_core.compare` does.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from .comparison import Comparison
from .contingency import factorize, first_occurrence_order, table_from_codes
from .registry import INDICES, index_ids
from .validation import CluvalError, as_labels

__all__ = ["compare_many"]

# Most pairs of partitions one call compares (about a minute of work at N = 1e5).
MAX_PAIRS = 200_000


def _named_partitions(partitions) -> tuple[list[str], list[np.ndarray]]:
    if isinstance(partitions, pd.DataFrame):
        return [str(c) for c in partitions.columns], [partitions[c].to_numpy() for c in partitions.columns]
    if isinstance(partitions, Mapping):
        return [str(k) for k in partitions], list(partitions.values())
    if isinstance(partitions, (str, bytes)) or not hasattr(partitions, "__len__"):
        raise CluvalError("partitions must be a list of label vectors, a dict of them by name, or a DataFrame with "
                          f"one column per partition, got {type(partitions).__name__}")
    return [str(i) for i in range(len(partitions))], list(partitions)


def compare_many(partitions, ids=("ari",), *, progress=None) -> dict[str, pd.DataFrame]:
    """Every pairwise value of the chosen indices for a list of partitions of the same objects.

    Parameters
    ----------
    partitions : list of label vectors, dict name -> labels, or DataFrame (one column each)
        At least two partitions of the same N objects.
    ids : str or sequence of str
        Index ids (``cluval_core.INDICES``); indices that need coordinates are refused.
    progress : callable(done, total), optional
        Called as the pairs are compared.

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
    # each partition's tie order (its clusters in the order they first occur) serves every pair
    orders = [first_occurrence_order(codes, len(uniques)) for codes, uniques in factorised]
    symmetric = all(INDICES[i].symmetric for i in ids)
    out = {i: np.full((p, p), np.nan) for i in ids}
    pairs = [(a, b) for a in range(p) for b in range(p) if a <= b or not symmetric]
    for done, (a, b) in enumerate(pairs, 1):
        (codes_a, uniques_a), (codes_b, uniques_b) = factorised[a], factorised[b]
        table = table_from_codes(codes_a, codes_b, len(uniques_a), len(uniques_b))
        comparison = Comparison._build(table, uniques_a, uniques_b, codes=(codes_a, codes_b),
                                       tie_order=(orders[a], orders[b]))
        for i, value in comparison.scores(ids).items():
            out[i][a, b] = value
            if a != b and symmetric:  # else (b, a) is compared in its own turn
                out[i][b, a] = value
        if progress is not None:
            progress(done, len(pairs))
    return {i: pd.DataFrame(matrix, index=names, columns=names) for i, matrix in out.items()}
