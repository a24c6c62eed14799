"""Reading a user's CSV file of points and/or labels, with a clear error for every bad file.

>>> frame = read_csv_bytes(b"x,y,truth\\n0,0,a\\n0,1,a\\n5,5,b\\n")
>>> X, labels, names = points_and_labels(frame, ["x", "y"], "truth")
>>> X.shape, labels.tolist(), names
((3, 2), [1, 1, 2], ['a', 'b'])
"""

from __future__ import annotations

import csv
import io

import numpy as np
import pandas as pd

from ._validation import CluvalError
from .contingency import factorize

__all__ = ["MAX_BYTES", "read_csv_bytes", "points_and_labels", "label_column"]

MAX_BYTES = 200 * 2**20


def read_csv_bytes(data: bytes, name: str = "the file") -> pd.DataFrame:
    """Parse CSV (or TSV, semicolon- or space-separated) bytes into a DataFrame with a header."""
    if len(data) > MAX_BYTES:
        raise CluvalError(f"{name} is {len(data) / 2**20:.0f} MB, more than the {MAX_BYTES // 2**20} MB accepted: "
                          "subsample it first")
    if not data.strip():
        raise CluvalError(f"{name} is empty: upload a CSV file with a header row and one row per object")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise CluvalError(f"{name} is not UTF-8 text: save it as a UTF-8 CSV file") from None
    sample = text[:65536]
    try:
        dialect = csv.Sniffer().sniff(sample, delimiters=",;\t| ")
        sep = dialect.delimiter
    except csv.Error:
        sep = ","
    try:
        frame = pd.read_csv(io.StringIO(text), sep=sep, skipinitialspace=True)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, ValueError) as exc:
        first = str(exc).splitlines()[0]
        raise CluvalError(f"{name} could not be read as CSV ({first}): check that every row has the same "
                          "number of fields") from None
    if frame.shape[1] < 2:
        raise CluvalError(f"{name} has a single column ({frame.columns[0]!r}): cluval needs at least two "
                          "(two label columns, or coordinates and a label column). Is the delimiter a comma, "
                          "semicolon or tab?")
    if len(frame) < 2:
        raise CluvalError(f"{name} has {len(frame)} data row(s): at least 2 objects are needed")
    frame.columns = [str(c).strip() for c in frame.columns]
    return frame


def _column(frame: pd.DataFrame, column: str) -> pd.Series:
    if column not in frame.columns:
        raise CluvalError(f"column {column!r} is not in the file; its columns are: {', '.join(frame.columns)}")
    return frame[column]


def label_column(frame: pd.DataFrame, column: str) -> tuple[np.ndarray, list]:
    """A label column as codes 1..k (in sorted label order) and the original label names."""
    series = _column(frame, column)
    missing = series.isna()
    if missing.any():
        row = int(np.flatnonzero(missing.to_numpy())[0])
        raise CluvalError(f"column {column!r} has {int(missing.sum())} empty label(s), the first in data row "
                          f"{row + 1}: every object needs a label in both partitions")
    values = series.to_numpy()
    if values.dtype.kind == "O":
        values = values.astype(str)
    codes, uniques = factorize(values, column)
    return codes + 1, [v.item() if isinstance(v, np.generic) else v for v in uniques]


def points_and_labels(frame: pd.DataFrame, coordinates, label: str):
    """Coordinates as a float matrix and one label column as codes 1..k with their names."""
    if not coordinates:
        raise CluvalError("choose at least one coordinate column")
    columns = [_column(frame, c) for c in coordinates]
    X = np.empty((len(frame), len(columns)))
    for j, (name, col) in enumerate(zip(coordinates, columns)):
        numeric = pd.to_numeric(col, errors="coerce")
        bad = numeric.isna() | ~np.isfinite(numeric.to_numpy(dtype=float, na_value=np.nan))
        if bad.any():
            row = int(np.flatnonzero(bad.to_numpy())[0])
            raise CluvalError(f"coordinate column {name!r} is not numeric: data row {row + 1} holds "
                              f"{col.iloc[row]!r}. Choose numeric columns as coordinates")
        X[:, j] = numeric.to_numpy(dtype=float)
    labels, names = label_column(frame, label)
    return X, labels, names
