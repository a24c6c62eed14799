"""Contingency tables to build comparisons from by hand: the papers' examples, checked and moved.

A table here is a K x K' array of whole counts (rows: reference clusters, columns: candidate
clusters) of at most :data:`MAX_CLUSTERS` a side, each count at most :data:`MAX_COUNT` and
:data:`MAX_OBJECTS` objects in all, so that any table a person (or a link) gives is compared
in about a second. :func:`preset_tables` gives the examples; :func:`checked_table` checks a
table; :func:`table_to_text` and :func:`table_from_text` write it compactly (rows separated by
``;``, cells by ``,``) and read it back; :func:`move_objects` moves objects between cells.

>>> table = preset_tables()["rand_1971"].table
>>> table_to_text(table)
'2,1,0;0,2,1'
>>> table_to_text(move_objects(table_from_text("2,1,0;0,2,1"), (0, 1), (1, 1), 1))
'2,0,0;0,3,1'
"""

from __future__ import annotations

import math
import re
from typing import NamedTuple

import numpy as np

from ..core.labels import compare
from ..core.validation import CluvalError, fewer_than_two
from .synthetic import enlarge_cluster, increasing_error, size_imbalance

__all__ = ["Preset", "preset_tables", "empty_table", "checked_table", "table_to_text", "table_from_text",
           "move_objects", "suggested_move", "too_few_objects", "MAX_CLUSTERS", "MAX_COUNT", "MAX_OBJECTS"]

MAX_CLUSTERS = 50  # rows or columns
MAX_COUNT = 10**9  # objects in one cell
MAX_OBJECTS = 10**10  # objects in the whole table
_ROW = re.compile(r"[0-9]{1,10}(,[0-9]{1,10})*")
_LONGEST_TEXT = MAX_CLUSTERS * MAX_CLUSTERS * 11  # every cell ten digits and a separator


class Preset(NamedTuple):
    """One example table: what it is called, where it comes from and what it shows, and the table."""

    title: str
    description: str
    table: np.ndarray


# The genieclust notes' example confusion matrix, as printed there (not computable from anything else).
GENIECLUST_NOTES_TABLE = ((12, 37, 1), (40, 0, 0), (0, 0, 30))
# Rand (1971), section 2: Y = {(a, b, c), (d, e, f)} and Y' = {(a, b), (c, d, e), (f)}, which give c = .6.
RAND_1971_Y = ("a", "a", "a", "b", "b", "b")  # the clusters of the points a, b, c, d, e, f in Y
RAND_1971_Y_PRIME = ("a", "a", "b", "b", "b", "c")  # and in Y'
# The values of the PSI paper's section 7 experiments shown as presets (see preset_tables).
PSI_IMBALANCE_THIRD = 50
PSI_ERROR_WRONG = 200
PSI_ENLARGED_SIZE = 1500


def preset_tables() -> dict[str, Preset]:
    """The example tables, by key: where each comes from, in its description.

    - ``rand_1971``: Rand (1971), section 2, the worked example: six points a..f with
      Y = {(a, b, c), (d, e, f)} and Y' = {(a, b), (c, d, e), (f)}; nine of the 15 point pairs
      agree, so c(Y, Y') = .6. Built from those labels.
    - ``genieclust_permutation``: the example confusion matrix of Gagolewski's notes on
      external cluster validity measures (genieclust documentation, "Set-matching measures"):
      [[12, 37, 1], [40, 0, 0], [0, 0, 30]], whose best pairing is not the diagonal (row 1
      goes with column 2, row 2 with column 1). The one table typed in.
    - ``psi_imbalance``, ``psi_error``, ``psi_enlarged``: Rezaei & Fränti (2016), section 7,
      reference G of three clusters of 1000 objects: cluster-size imbalance (Figs. 17-18, two
      clusters exchange 200 objects while the third, labelled without error, has shrunk to 50),
      increasing error (Figs. 15-16, 200 objects of every cluster labelled as the other two)
      and enlarging the first cluster (Figs. 11-12, P's first cluster grown to 1500 objects
      from the second). Built by :mod:`cluval_core.synthetic`, the generators of those
      experiments, at those values.

    >>> {key: preset.table.sum() for key, preset in preset_tables().items()}["psi_imbalance"]
    np.int64(2050)
    """
    return {
        "rand_1971": Preset(
            "Rand (1971): the worked example",
            "Rand's illustration (1971, section 2): six points, Y = {(a, b, c), (d, e, f)} against "
            "Y′ = {(a, b), (c, d, e), (f)}. Nine of the 15 point pairs are treated alike, so the Rand index is .6.",
            _table(RAND_1971_Y, RAND_1971_Y_PRIME)),
        "genieclust_permutation": Preset(
            "genieclust notes: a permuted table",
            "The example confusion matrix of Gagolewski's notes on external validity measures (genieclust): "
            "the best pairing is not the diagonal (reference 1 goes with candidate 2, reference 2 with "
            "candidate 1), so plain accuracy (the diagonal, 42 of 120) says little while the pairing-based "
            "indices see 107 of 120 objects matched.",
            np.array(GENIECLUST_NOTES_TABLE, dtype=np.int64)),
        "psi_imbalance": Preset(
            "PSI paper: cluster-size imbalance",
            f"Rezaei & Fränti (2016), Figs. 17–18: two clusters of 1000 exchange 200 objects while the third, "
            f"labelled without error, has shrunk to {PSI_IMBALANCE_THIRD}. PSI stays at 0.9 whatever the third "
            "cluster's size; ARI falls from 0.91 (third cluster of 2000) to 0.66 here.",
            _table(*size_imbalance(PSI_IMBALANCE_THIRD))),
        "psi_error": Preset(
            "PSI paper: error in every cluster",
            f"Rezaei & Fränti (2016), Figs. 15–16: {PSI_ERROR_WRONG} of the 1000 objects of every cluster are "
            "labelled as the other two clusters (half each), sizes unchanged. PSI, NVD, CH and purity fall "
            "linearly with the error; NMI and ARI bend.",
            _table(*increasing_error(PSI_ERROR_WRONG))),
        "psi_enlarged": Preset(
            "PSI paper: enlarging the first cluster",
            f"Rezaei & Fränti (2016), Figs. 11–12: P's first cluster has grown to {PSI_ENLARGED_SIZE} objects by "
            "taking half of the second. NMI and ARI weigh the large clusters most; PSI falls almost linearly as "
            "the cluster grows.",
            _table(*enlarge_cluster(PSI_ENLARGED_SIZE, which="first"))),
    }


def _table(labels_true, labels_pred) -> np.ndarray:
    table = compare(labels_true, labels_pred).table
    return np.asarray(table, dtype=np.int64)


def empty_table(rows: int, columns: int) -> np.ndarray:
    """A `rows` x `columns` table of zeros, to fill in by hand.

    >>> empty_table(2, 3).tolist()
    [[0, 0, 0], [0, 0, 0]]
    """
    for name, value in (("rows", rows), ("columns", columns)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 1 <= value <= MAX_CLUSTERS:
            raise CluvalError(f"{name} must be a whole number from 1 to {MAX_CLUSTERS}, got {value!r}")
    return np.zeros((int(rows), int(columns)), dtype=np.int64)


def checked_table(table) -> np.ndarray:
    """`table` (nested lists, an array or a DataFrame) as whole counts, or a CluvalError saying why not.

    Empty cells (None, NaN) count as 0. Every cell must be a whole number from 0 to
    :data:`MAX_COUNT`, the table at most :data:`MAX_CLUSTERS` a side with at most
    :data:`MAX_OBJECTS` objects. Cells are named from 1 in messages, as people count.

    >>> checked_table([[3, None], [0, 2.0]]).tolist()
    [[3, 0], [0, 2]]
    >>> checked_table([[1, -2]])
    Traceback (most recent call last):
    ...
    cluval_core.CluvalError: cell (row 1, column 2) holds -2: a count must be a whole number from 0 to 1000000000
    """
    try:
        values = np.array(table, dtype=object)
    except ValueError as exc:
        raise CluvalError(f"the table must be rectangular ({exc})") from None
    if values.ndim != 2 or values.shape[0] < 1 or values.shape[1] < 1:
        raise CluvalError(f"the table must have rows and columns, got shape {values.shape}")
    if max(values.shape) > MAX_CLUSTERS:
        raise CluvalError(f"the table has {values.shape[0]} x {values.shape[1]} cells: at most {MAX_CLUSTERS} "
                          "clusters a side here")
    counts = np.zeros(values.shape, dtype=np.int64)
    for (i, j), value in np.ndenumerate(values):
        count = _count(value)
        if count is None:
            raise CluvalError(f"cell (row {i + 1}, column {j + 1}) holds {_shown(value)}: a count must be a whole "
                              f"number from 0 to {MAX_COUNT}")
        counts[i, j] = count
    total = int(counts.sum())
    if total > MAX_OBJECTS:
        raise CluvalError(f"the table holds {total:,} objects: at most {MAX_OBJECTS:,} here")
    return counts


def _count(value) -> int | None:
    """A cell's whole count, 0 for an empty cell, or None when it is not a count in range."""
    if value is None:
        return 0
    if isinstance(value, (bool, np.bool_)):
        return None
    if isinstance(value, (int, np.integer)):
        return int(value) if 0 <= value <= MAX_COUNT else None
    if isinstance(value, (float, np.floating)):
        if math.isnan(value):
            return 0
        return int(value) if float(value).is_integer() and 0 <= value <= MAX_COUNT else None
    return None


def _shown(value) -> str:
    text = repr(value.item() if isinstance(value, np.generic) else value)
    return text if len(text) <= 30 else text[:29] + "…"


def table_to_text(table) -> str:
    """The table in one line: rows separated by ``;``, cells by ``,`` (for a link).

    >>> table_to_text([[5, 0], [1, 4]])
    '5,0;1,4'
    """
    counts = checked_table(table)
    return ";".join(",".join(str(int(v)) for v in row) for row in counts)


def table_from_text(text: str) -> np.ndarray:
    """The table :func:`table_to_text` wrote, checked: a CluvalError says what is wrong with any other text.

    The work is bounded before anything is parsed: text longer than a full table of ten-digit
    counts is refused as it is.

    >>> table_from_text("5,0;1,4").tolist()
    [[5, 0], [1, 4]]
    >>> table_from_text("5,0;1")
    Traceback (most recent call last):
    ...
    cluval_core.CluvalError: the table's rows differ in length: row 2 has 1 cells, row 1 has 2
    """
    if not isinstance(text, str):
        raise CluvalError(f"the table must be text, got {type(text).__name__}")
    if len(text) > _LONGEST_TEXT:
        raise CluvalError(f"the table's text has {len(text):,} characters: at most {_LONGEST_TEXT:,} "
                          f"({MAX_CLUSTERS} x {MAX_CLUSTERS} counts)")
    rows = text.split(";")
    if len(rows) > MAX_CLUSTERS:
        raise CluvalError(f"the table has {len(rows)} rows: at most {MAX_CLUSTERS} here")
    cells = []
    for number, row in enumerate(rows, start=1):
        if not _ROW.fullmatch(row):
            raise CluvalError(f"row {number} of the table, {_shown(row)}, is not whole counts separated by commas "
                              "(rows are separated by semicolons)")
        cells.append(row.split(","))
        if len(cells[-1]) != len(cells[0]):
            raise CluvalError(f"the table's rows differ in length: row {number} has {len(cells[-1])} cells, "
                              f"row 1 has {len(cells[0])}")
    return checked_table([[int(v) for v in row] for row in cells])


def move_objects(table, source: tuple[int, int], target: tuple[int, int], m: int) -> np.ndarray:
    """A new table with `m` objects moved from cell `source` to cell `target` ((row, column), from 0).

    Moving more objects than the source cell holds is refused, as is moving none or moving
    within one cell.

    >>> move_objects([[5, 0], [0, 5]], (0, 0), (0, 1), 2).tolist()
    [[3, 2], [0, 5]]
    >>> move_objects([[5, 0], [0, 5]], (0, 1), (0, 0), 1)
    Traceback (most recent call last):
    ...
    cluval_core.CluvalError: cell (row 1, column 2) holds 0 objects: cannot move 1 from it
    """
    counts = checked_table(table)
    for name, cell in (("from", source), ("to", target)):
        if (len(cell) != 2 or not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in cell)
                or not (0 <= cell[0] < counts.shape[0] and 0 <= cell[1] < counts.shape[1])):
            raise CluvalError(f"the {name} cell {cell!r} is not a cell of this {counts.shape[0]} x "
                              f"{counts.shape[1]} table")
    if isinstance(m, bool) or not isinstance(m, (int, np.integer)) or m < 1:
        raise CluvalError(f"m must be a whole number of at least 1, got {m!r}")
    if tuple(source) == tuple(target):
        raise CluvalError("the from and to cells are the same cell: nothing would move")
    held = int(counts[source[0], source[1]])
    where = f"cell (row {source[0] + 1}, column {source[1] + 1})"
    if m > held:
        raise CluvalError(f"{where} holds {held} objects: cannot move {m} from it")
    if counts[target[0], target[1]] + m > MAX_COUNT:
        raise CluvalError(f"the to cell would hold more than {MAX_COUNT} objects")
    moved = counts.copy()
    moved[source[0], source[1]] -= m
    moved[target[0], target[1]] += m
    return moved


def too_few_objects(table) -> bool:
    """Whether `table` holds fewer objects than a comparison needs (two): a table being filled in.

    >>> too_few_objects(empty_table(3, 3)), too_few_objects([[1, 0], [0, 0]]), too_few_objects([[1, 0], [0, 1]])
    (True, True, False)
    """
    return fewer_than_two(int(checked_table(table).sum()))


def suggested_move(table) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """A move of one object that :func:`move_objects` accepts on `table`, as (from cell, to cell)
    counted from 0, or None when the table allows none (no objects, or a single cell).

    The object leaves the first non-empty cell, row by row, for the next cell that can take it
    (the cell to its right, else the first of the next row, around to the start).

    >>> suggested_move([[0, 3], [2, 0]])
    ((0, 1), (1, 0))
    >>> suggested_move([[0, 0], [0, 4]])
    ((1, 1), (0, 0))
    >>> suggested_move(empty_table(2, 2)) is None, suggested_move([[7]]) is None
    (True, True)
    """
    counts = checked_table(table)
    filled = np.flatnonzero(counts.ravel())
    if not len(filled):
        return None
    start = int(filled[0])
    for step in range(1, counts.size):
        target = (start + step) % counts.size
        if counts.flat[target] < MAX_COUNT:
            return divmod(start, counts.shape[1]), divmod(target, counts.shape[1])
    return None
