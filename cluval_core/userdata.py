"""Reading a user's file of points and/or labels, with a clear error for every bad file.

One reader serves the app's upload (:func:`read_table_bytes`) and ``cluval compare``
(:func:`read_table`): CSV or TSV text in UTF-8 (comma, semicolon, tab, bar or space
separated, with a header row) or a Parquet file. Limits are checked before anything is
parsed: at most :data:`MAX_BYTES` bytes and :data:`MAX_CELLS` cells.

CSV fields are kept as written: ``01``, ``1.0`` and ``1`` are three different labels, and
``NA``, ``None`` or ``null`` are labels like any other (only an empty field is missing).
Coordinates are converted to numbers when a column is used as coordinates.

>>> frame = read_table_bytes(b"x,y,truth\\n0,0,a\\n0,1,a\\n5,5,b\\n")
>>> X, labels, names = points_and_labels(frame, ["x", "y"], "truth")
>>> X.shape, labels.tolist(), names
((3, 2), [1, 1, 2], ['a', 'b'])
>>> label_column(read_table_bytes(b"t,p\\n01,a\\n1.0,a\\n1,b\\nNA,b\\n"), "t")[1]
['01', '1', '1.0', 'NA']
"""

from __future__ import annotations

import codecs
import csv
import io
import os
import stat
from pathlib import Path

import numpy as np
import pandas as pd

from ._validation import CluvalError
from .contingency import factorize

__all__ = ["MAX_BYTES", "MAX_CELLS", "ACCEPTED", "read_table", "read_table_bytes", "read_csv_bytes",
           "points_and_labels", "label_column", "numeric_columns"]

MAX_BYTES = 200 * 2**20
MAX_CELLS = 20_000_000
ACCEPTED = "a CSV or TSV text file in UTF-8 with a header row, or a Parquet file"
_SNIFF_BYTES = 16384
_DECODE_STEP = 1 << 24  # UTF-8 is checked in steps of this many bytes, without keeping a decoded copy
# Formats recognised by their first bytes, to name them when they are refused.
_MAGIC = {b"\x1f\x8b": "gzip-compressed", b"PK\x03\x04": "a zip archive (or an Excel .xlsx workbook)",
          b"\xd0\xcf\x11\xe0": "an Excel .xls workbook (or another OLE document)", b"%PDF": "a PDF document",
          b"\x89PNG": "a PNG image", b"\xff\xd8\xff": "a JPEG image", b"\x7fELF": "an executable program",
          b"BZh": "bzip2-compressed", b"\xfd7zXZ": "xz-compressed"}


def _too_large(name: str, size: int, max_bytes: int) -> CluvalError:
    limit = f"{max_bytes >> 20} MB" if max_bytes % 2**20 == 0 else f"{max_bytes:,} bytes"
    return CluvalError(f"{name} is {size:,} bytes, more than the {limit} accepted: subsample it first")


def read_table(path, *, max_bytes: int = MAX_BYTES) -> pd.DataFrame:
    """Read a CSV/TSV or Parquet file from disk into a DataFrame (see the module's notes).

    The file is checked with ``stat`` before it is opened: directories, devices, pipes and
    sockets are refused at once, and so is a file larger than `max_bytes`.
    """
    path = Path(path)
    name = str(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise CluvalError(f"{name} does not exist: give the path of {ACCEPTED}") from None
    except OSError as exc:
        raise CluvalError(f"{name} cannot be examined ({exc.strerror or exc}): give the path of {ACCEPTED}") from None
    if stat.S_ISDIR(info.st_mode):
        raise CluvalError(f"{name} is a directory, not a file: give the path of {ACCEPTED}")
    if not stat.S_ISREG(info.st_mode):
        raise CluvalError(f"{name} is not a regular file (it is a device, pipe or socket): give the path of "
                          f"{ACCEPTED}")
    if info.st_size > max_bytes:
        raise _too_large(name, info.st_size, max_bytes)
    try:
        with open(path, "rb") as fh:
            data = fh.read(max_bytes + 1)  # a file that grew since stat is still bounded
    except OSError as exc:
        raise CluvalError(f"{name} cannot be read ({exc.strerror or exc})") from None
    return read_table_bytes(data, name, max_bytes=max_bytes)


def read_table_bytes(data: bytes, name: str = "the file", *, max_bytes: int = MAX_BYTES) -> pd.DataFrame:
    """Parse the bytes of a CSV/TSV or Parquet file into a DataFrame with a header."""
    if len(data) > max_bytes:
        raise _too_large(name, len(data), max_bytes)
    if not data.strip():
        raise CluvalError(f"{name} is empty: give {ACCEPTED} and one row per object")
    if data[:4] == b"PAR1":
        frame = _read_parquet(data, name)
    else:
        frame = _read_csv(data, name)
    if frame.shape[1] < 2:
        raise CluvalError(f"{name} has a single column ({frame.columns[0]!r}): cluval needs at least two "
                          "(two label columns, or coordinates and a label column). Is the delimiter a comma, "
                          "semicolon or tab?")
    if len(frame) < 2:
        raise CluvalError(f"{name} has {len(frame)} data row(s): at least 2 objects are needed")
    frame.columns = [str(c).strip() for c in frame.columns]
    duplicated = frame.columns[frame.columns.duplicated()]
    if len(duplicated):
        raise CluvalError(f"{name} has more than one column named {duplicated[0]!r}: give every column its own name")
    return frame


def read_csv_bytes(data: bytes, name: str = "the file") -> pd.DataFrame:
    """The former name of :func:`read_table_bytes` (which also reads Parquet)."""
    return read_table_bytes(data, name)


def _check_cells(name: str, rows: int, columns: int) -> None:
    if rows * columns > MAX_CELLS:
        raise CluvalError(f"{name} has {rows:,} rows x {columns} columns, more than the {MAX_CELLS:,} cells "
                          "accepted: subsample it, or keep only the columns you compare")


def _text(data: bytes, name: str) -> tuple[bytes, str]:
    """The bytes as UTF-8 (re-encoded from UTF-16 when a byte-order mark says so) and the encoding."""
    if data[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
        try:
            return data.decode("utf-16").encode("utf-8"), "utf-8"
        except UnicodeDecodeError:
            raise CluvalError(f"{name} starts like UTF-16 text but is not valid UTF-16: save it as UTF-8 CSV "
                              "(in a spreadsheet: 'CSV UTF-8')") from None
    for magic, what in _MAGIC.items():
        if data.startswith(magic):
            raise CluvalError(f"{name} is {what}, not a table: give {ACCEPTED}")
    if b"\x00" in data[:65536]:
        raise CluvalError(f"{name} is a binary file (it contains NUL bytes), not text: give {ACCEPTED}")
    decoder = codecs.getincrementaldecoder("utf-8")()
    step = _DECODE_STEP
    for start in range(0, len(data), step):
        pending = len(decoder.getstate()[0])  # bytes of a character cut by the previous step
        try:
            decoder.decode(data[start:start + step], final=start + step >= len(data))
        except UnicodeDecodeError as exc:
            offset = start - pending + exc.start
            raise CluvalError(f"{name} is not UTF-8 text (byte 0x{data[offset]:02x} at offset {offset} cannot "
                              "be decoded): save it as UTF-8 (in a spreadsheet: 'CSV UTF-8')") from None
    return data, "utf-8-sig"


def _read_csv(data: bytes, name: str) -> pd.DataFrame:
    data, encoding = _text(data, name)
    sample = data[:_SNIFF_BYTES].decode("utf-8-sig", errors="ignore")
    if len(data) > _SNIFF_BYTES and "\n" in sample:
        sample = sample[: sample.rindex("\n")]  # whole lines only
    try:
        sep = csv.Sniffer().sniff(sample, delimiters=",;\t| ").delimiter
    except csv.Error:
        sep = ","
    header = sample.lstrip("\ufeff").split("\n", 1)[0]
    _check_cells(name, max(data.count(b"\n"), data.count(b"\r")), max(1, len(header.split(sep))))
    try:
        return pd.read_csv(io.BytesIO(data), sep=sep, encoding=encoding, skipinitialspace=True, dtype=str,
                           keep_default_na=False)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, ValueError, UnicodeDecodeError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise CluvalError(f"{name} could not be read as CSV ({first}): check that every row has the same "
                          "number of fields") from None


def _read_parquet(data: bytes, name: str) -> pd.DataFrame:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise CluvalError(f"{name} is a Parquet file, and reading Parquet needs pyarrow: install it "
                          "(python -m pip install pyarrow) or save the table as CSV") from None
    try:
        parquet = pq.ParquetFile(io.BytesIO(data))
        _check_cells(name, parquet.metadata.num_rows, parquet.metadata.num_columns)
        return parquet.read().to_pandas()
    except CluvalError:
        raise
    except Exception as exc:  # noqa: BLE001 - pyarrow raises many types for a damaged file
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise CluvalError(f"{name} could not be read as Parquet ({first}): give {ACCEPTED}") from None


def _column(frame: pd.DataFrame, column: str) -> pd.Series:
    if column not in frame.columns:
        raise CluvalError(f"column {column!r} is not in the file; its columns are: {', '.join(frame.columns)}")
    return frame[column]


def _missing(series: pd.Series) -> np.ndarray:
    """Empty fields (CSV) and nulls (Parquet): the only missing labels."""
    missing = series.isna().to_numpy(dtype=bool, copy=True)
    if isinstance(series.dtype, pd.StringDtype):
        missing |= series.str.strip().eq("").to_numpy(dtype=bool, na_value=False)
    elif series.dtype == object:
        missing |= series.map(lambda v: isinstance(v, str) and not v.strip()).to_numpy(dtype=bool)
    return missing


def label_column(frame: pd.DataFrame, column: str, noise=None) -> tuple[np.ndarray, list]:
    """A label column as codes 1..k (in sorted label order) and the label names as written.

    With `noise` (a label as written), the objects carrying it get code 0, the app's noise
    code, and the other clusters 1..k; a column without that label has no noise.
    """
    series = _column(frame, column)
    missing = _missing(series)
    if missing.any():
        row = int(np.flatnonzero(missing)[0])
        raise CluvalError(f"column {column!r} has {int(missing.sum())} empty label(s), the first in data row "
                          f"{row + 1}: every object needs a label in both partitions")
    values = series.to_numpy()
    if values.dtype.kind == "O":
        values = values.astype(str)
    codes, uniques = factorize(values, column)
    names = [v.item() if isinstance(v, np.generic) else v for v in uniques]
    if noise is not None and noise in names:
        position = names.index(noise)
        codes = np.where(codes == position, -1, codes - (codes > position))
        del names[position]
    return codes + 1, names


def distinct_labels(frame: pd.DataFrame, column: str, limit: int = 200) -> list:
    """The first `limit` distinct labels of a column as written, in sorted order (for a noise choice)."""
    values = _column(frame, column).to_numpy()
    uniques = pd.unique(values.astype(str) if values.dtype.kind == "O" else values)
    return sorted((v.item() if isinstance(v, np.generic) else v for v in uniques[:limit]), key=str)


def numeric_columns(frame: pd.DataFrame, rows: int = 1000) -> list[str]:
    """The columns whose first `rows` values are all finite numbers (candidates for coordinates)."""
    head = frame.head(rows)
    found = []
    for column in head.columns:
        values = pd.to_numeric(head[column], errors="coerce").to_numpy(dtype=float, na_value=np.nan)
        if len(values) and np.isfinite(values).all():
            found.append(column)
    return found


def default_coordinates(frame: pd.DataFrame) -> list[str]:
    """The coordinate columns to offer first: the first two numeric ones, leaving at least one
    column for the labels (numeric labels included).

    >>> default_coordinates(read_table_bytes(b"x,y,truth\\n0,1,a\\n2,3,b\\n"))
    ['x', 'y']
    >>> default_coordinates(read_table_bytes(b"x,y,truth\\n0,1,1\\n2,3,2\\n"))
    ['x', 'y']
    >>> default_coordinates(read_table_bytes(b"x,truth\\n0,1\\n2,2\\n"))
    ['x']
    """
    numeric = numeric_columns(frame)
    return numeric[:min(2, frame.shape[1] - 1)]


def points_and_labels(frame: pd.DataFrame, coordinates, label: str, noise=None):
    """Coordinates as a float matrix and one label column as codes 1..k (0 = `noise`) with their names."""
    if not coordinates:
        raise CluvalError("choose at least one coordinate column")
    columns = [_column(frame, c) for c in coordinates]
    X = np.empty((len(frame), len(columns)))
    for j, (name, col) in enumerate(zip(coordinates, columns)):
        numeric = pd.to_numeric(col, errors="coerce").to_numpy(dtype=float, na_value=np.nan)
        bad = ~np.isfinite(numeric)
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            raise CluvalError(f"coordinate column {name!r} is not numeric: data row {row + 1} holds "
                              f"{col.iloc[row]!r}. Choose numeric columns as coordinates")
        X[:, j] = numeric
    labels, names = label_column(frame, label, noise)
    return X, labels, names
