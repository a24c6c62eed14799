"""Reading a user's file of points and/or labels, with a clear error for every bad file.

One reader serves the app's upload (:func:`read_user_table`) and ``cluval compare``
(:func:`read_table`): CSV or TSV text in UTF-8 (comma, semicolon, tab, bar or space
separated) or a Parquet file. Limits are checked before anything is parsed: at most
:data:`MAX_BYTES` bytes and :data:`MAX_CELLS` cells.

CSV fields are kept as written: ``01``, ``1.0`` and ``1`` are three different labels, and
``NA``, ``None`` or ``null`` are labels like any other (only an empty field is missing).
Coordinates are converted to numbers when a column is used as coordinates. A first row that
looks like data (numbers where the other rows have numbers, text where they have text) is
read as data, and the columns are named ``column 1``, ``column 2``, ...; a column of numbers
written with decimal commas (``1,5`` in a ``;``-separated European export) is read with
decimal points. Rows are counted from 1 after the header: "data row 7" is the seventh
object, as :func:`preview` numbers it.

``cluval compare`` also reads folders of CSV or Parquet files (:func:`table_files`), and inputs
that would need more memory than a budget (:func:`fits_in_memory`) out of core, through Dask
(:func:`dask_label_columns`): the same delimiter, header and labels as written, read in blocks.

>>> frame = read_table_bytes(b"x,y,truth\\n0,0,cat\\n0,1,cat\\n5,5,dog\\n")
>>> X, labels, names = points_and_labels(frame, ["x", "y"], "truth")
>>> X.shape, labels.tolist(), names
((3, 2), ['cat', 'cat', 'dog'], ['cat', 'dog'])
>>> label_column(read_table_bytes(b"t,p\\n01,a\\n1.0,a\\n1,b\\nNA,b\\n"), "t")[1]
['01', '1', '1.0', 'NA']
>>> read_user_table(b"1,5;2,25;a\\n3,0;4,5;b\\n").frame.to_dict("list")
{'column 1': ['1.5', '3.0'], 'column 2': ['2.25', '4.5'], 'column 3': ['a', 'b']}
"""

from __future__ import annotations

import codecs
import csv
import io
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..core.contingency import factorize
from ..core.validation import CluvalError, _describe, check_flag, text_labels

__all__ = ["MAX_BYTES", "MAX_CELLS", "ACCEPTED", "UserTable", "ColumnSummary", "Suggestion", "read_table",
           "read_table_bytes", "read_user_table", "read_csv_bytes", "preview", "points_and_labels", "label_column",
           "distinct_labels", "numeric_columns", "column_summaries", "suggest_columns", "default_coordinates",
           "continuous_label_warning", "table_files", "fits_in_memory", "dask_label_columns"]

MAX_BYTES = 200 * 2**20
MAX_CELLS = 20_000_000
MAX_COLUMNS = 10_000
_LONGEST_FIRST_LINE = 16 * 2**20  # bytes of a first line read to learn a large file's columns
ACCEPTED = "a CSV or TSV text file in UTF-8, or a Parquet file"
_SNIFF_BYTES = 16384
CSV_SUFFIXES = (".csv", ".tsv", ".txt")
PARQUET_SUFFIXES = (".parquet", ".parq", ".pq")
# Peak memory of read_table and label_column per CSV cell (measured: 10 million cells of short
# labels take about 1 GB), the estimate that decides whether a file is read in memory.
BYTES_PER_CELL = 100
_COUNT_STEP = 1 << 24  # lines are counted in steps of this many bytes
_DELIMITERS = (",", ";", "\t", "|", " ")  # in the order preferred when several fit equally well
_DELIMITER_NAMES = {",": "commas", ";": "semicolons", "\t": "tabs", "|": "bars", " ": "spaces"}
_HEADER_ROWS = 1000  # rows compared with the first one to decide whether it is a header
# A number as written in a CSV field: decimal point or decimal comma, optional exponent.
_NUMBER = re.compile(r"[+-]?(\d+([.,]\d+)?|[.,]\d+)([eE][+-]?\d+)?")
_COMMA_NUMBER = re.compile(r"[+-]?(\d+(,\d+)?|,\d+)([eE][+-]?\d+)?")
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


@dataclass(frozen=True)
class UserTable:
    """A user's table as read, and how it was read (to tell the user).

    `delimiter` is None for Parquet; `header` says whether the first row named the columns
    (else they are named ``column 1``, ``column 2``, ...); `decimal_comma` lists the columns
    whose numbers were written with decimal commas (read with decimal points).
    """

    frame: pd.DataFrame
    delimiter: str | None = None
    header: bool = True
    decimal_comma: list = field(default_factory=list)

    @property
    def notes(self) -> list[str]:
        """How the file was read, in sentences for the user (column names quoted)."""
        if self.delimiter is None:
            return ["Read as a Parquet table."]
        notes = [f"Read as CSV with fields separated by {_DELIMITER_NAMES[self.delimiter]}."]
        if not self.header:
            columns = self.frame.shape[1]
            notes.append("The first row holds data, not column names, so the columns are named 'column 1' to "
                         f"'column {columns}'." if columns > 2 else
                         "The first row holds data, not column names, so the columns are named 'column 1' and "
                         "'column 2'.")
        if self.decimal_comma:
            quoted = ", ".join(f"'{c}'" for c in self.decimal_comma)
            notes.append(f"Decimal commas read as decimal points in {quoted} (1,5 is one and a half).")
        return notes


def read_table_bytes(data: bytes, name: str = "the file", *, max_bytes: int = MAX_BYTES,
                     header: bool | None = None) -> pd.DataFrame:
    """Parse the bytes of a CSV/TSV or Parquet file into a DataFrame (see :func:`read_user_table`)."""
    return read_user_table(data, name, max_bytes=max_bytes, header=header).frame


def read_user_table(data: bytes, name: str = "the file", *, max_bytes: int = MAX_BYTES,
                    header: bool | None = None) -> UserTable:
    """Parse the bytes of a CSV/TSV or Parquet file, and say how it was read.

    CSV fields are kept as text, as written. `header`: None decides from the content (a first
    row of numbers over columns of numbers is data), True or False forces it. The rows are
    numbered 0, 1, ... in the frame; messages call row ``i`` "data row ``i + 1``".

    >>> table = read_user_table(b"0.5,0.25,cat\\n1.5,2.0,dog\\n")
    >>> table.header, list(table.frame.columns)
    (False, ['column 1', 'column 2', 'column 3'])
    >>> read_user_table(b"x;y\\n1,5;2\\n3;4,25\\n").decimal_comma
    ['x', 'y']
    """
    if header is not None:
        check_flag("header", header)
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise CluvalError(f"{name} must be given as bytes (the file's content), got {type(data).__name__}")
    if len(data) > max_bytes:
        raise _too_large(name, len(data), max_bytes)
    if not data.strip():
        raise CluvalError(f"{name} is empty: give {ACCEPTED} and one row per object")
    if data[:4] == b"PAR1":
        table = UserTable(_read_parquet(data, name))
    else:
        table = _read_csv(data, name, header)
    frame = table.frame
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
    return table


def read_csv_bytes(data: bytes, name: str = "the file") -> pd.DataFrame:
    """The former name of :func:`read_table_bytes` (which also reads Parquet)."""
    return read_table_bytes(data, name)


def _lines(data: bytes) -> int:
    """Lines of a text: line breaks, and a last line without one (\\r alone ends a line too)."""
    breaks = max(data.count(b"\n"), data.count(b"\r"))
    return breaks + (1 if data and not data.endswith((b"\n", b"\r")) else 0)


def _check_cells(name: str, rows: int, columns: int) -> None:
    if columns > MAX_COLUMNS:
        raise CluvalError(f"{name} has {columns:,} columns in its first line, more than the {MAX_COLUMNS:,} cluval "
                          "reads: keep only the columns you compare (labels, and coordinates if any)")
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


def _delimiter(sample: str) -> str:
    """The delimiter that splits the sample's lines into the same number (> 1) of fields.

    When several do (``1,5;2,25;a`` splits on both), the one whose fields are numbers more
    often wins: ``;`` here, with decimal commas.
    """
    lines = [line for line in sample.splitlines() if line.strip()][:200]
    best, best_score = ",", None
    for preference, sep in enumerate(_DELIMITERS):
        rows = list(csv.reader(lines, delimiter=sep, skipinitialspace=True))
        counts = [len(row) for row in rows]
        width = max(set(counts), key=counts.count) if counts else 0
        if width < 2:
            continue
        fields = [f.strip() for row in rows for f in row]
        numbers = sum(1 for f in fields if _NUMBER.fullmatch(f)) / len(fields)
        score = (counts.count(width) / len(counts), numbers, -preference)
        if best_score is None or score > best_score:
            best, best_score = sep, score
    return best


def _is_number(text: str) -> bool:
    return bool(_NUMBER.fullmatch(text.strip()))


def _first_row_is_header(raw: pd.DataFrame) -> bool:
    """Whether the first row names the columns: it does unless it has the data's pattern.

    The first row is data when, column by column, it holds a number where the next rows hold
    only numbers and text where they hold text, with at least one column of numbers.
    """
    if len(raw) < 2:
        return True
    first, rest = raw.iloc[0], raw.iloc[1:_HEADER_ROWS + 1]
    numeric_columns = 0
    for j in range(raw.shape[1]):
        values = [v for v in rest.iloc[:, j] if v.strip()]
        numeric = bool(values) and all(_is_number(v) for v in values)
        head = first.iloc[j]
        if not head.strip():
            if numeric:
                return True  # an unnamed column (e.g. an exported index) over numbers
            continue
        if _is_number(head) != numeric:
            return True
        numeric_columns += numeric
    return numeric_columns == 0


def _decimal_comma_columns(frame: pd.DataFrame) -> list[int]:
    """The positions of the columns of numbers written with decimal commas (some ``1,5``, all
    numbers or empty)."""
    found = []
    for j in range(frame.shape[1]):
        values = frame.iloc[:, j]
        if not values.str.contains(",", regex=False).any():
            continue
        written = values[values.str.strip() != ""].str.strip()
        if len(written) and written.str.fullmatch(_COMMA_NUMBER.pattern).all():
            found.append(j)
    return found


def _read_csv(data: bytes, name: str, header: bool | None = None) -> UserTable:
    data, encoding = _text(data, name)
    sample = data[:_SNIFF_BYTES].decode("utf-8-sig", errors="ignore")
    if len(data) > _SNIFF_BYTES and "\n" in sample:
        sample = sample[: sample.rindex("\n")]  # whole lines only
    sep = _delimiter(sample)
    end = data.find(b"\n")
    first_line = data if end < 0 else data[:end]  # the whole first line, however long
    _check_cells(name, _lines(data), first_line.count(sep.encode()) + 1)
    try:
        raw = pd.read_csv(io.BytesIO(data), sep=sep, encoding=encoding, skipinitialspace=True, dtype=str,
                          keep_default_na=False, header=None)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, ValueError, UnicodeDecodeError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise CluvalError(f"{name} could not be read as CSV ({first}): check that every row has the same "
                          "number of fields") from None
    if header is None:
        header = _first_row_is_header(raw)
    if header:
        raw.columns = [str(v).strip() or f"column {j + 1}" for j, v in enumerate(raw.iloc[0])]
        raw = raw.iloc[1:].reset_index(drop=True)
    else:
        raw.columns = [f"column {j + 1}" for j in range(raw.shape[1])]
    decimal = _decimal_comma_columns(raw)
    for j in decimal:
        raw.isetitem(j, raw.iloc[:, j].str.replace(",", ".", regex=False))
    return UserTable(raw, sep, bool(header), [raw.columns[j] for j in decimal])


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
        shown = ", ".join(str(c) for c in frame.columns[:20])
        more = f" and {len(frame.columns) - 20:,} more" if len(frame.columns) > 20 else ""
        raise CluvalError(f"column {_describe(column)} is not in the file; its columns are: {shown}{more}")
    return frame[column]


def _missing(series: pd.Series) -> np.ndarray:
    """Empty fields (CSV) and nulls (Parquet): the only missing labels."""
    missing = series.isna().to_numpy(dtype=bool, copy=True)
    if isinstance(series.dtype, pd.StringDtype):
        missing |= series.str.strip().eq("").to_numpy(dtype=bool, na_value=False)
    elif series.dtype == object:
        missing |= series.map(lambda v: isinstance(v, str) and not v.strip()).to_numpy(dtype=bool)
    return missing


def preview(frame: pd.DataFrame, rows: int = 20) -> pd.DataFrame:
    """The first `rows` rows, numbered from 1 as the messages number them ("data row 7").

    >>> preview(read_table_bytes(b"x,t\\n0,a\\n1,b\\n2,c\\n"), 2)
         x  t
    row
    1    0  a
    2    1  b
    """
    head = frame.head(rows).copy()
    head.index = pd.RangeIndex(1, len(head) + 1, name="row")
    return head


def _labels_as_written(series: pd.Series, column: str) -> np.ndarray:
    """The column's values as a label array: text as text, numbers as numbers.

    Text labels cost what they hold (:func:`~cluval_core.core.validation.text_labels`): fixed-width
    strings, hashed by their characters, unless one long label would pad every other one. A
    column of lists or other containers (Parquet's nested types) is refused: a label is one value.
    """
    values = series.to_numpy()
    if values.dtype.kind != "O":
        return values
    nested = series.map(lambda v: isinstance(v, (list, tuple, dict, set, np.ndarray))).to_numpy()
    if nested.any():
        row = int(np.argmax(nested))
        raise CluvalError(f"column {column!r} holds lists or other containers (data row {row + 1}: "
                          f"{_describe(values[row])}): a label is one value; choose a column of labels")
    return text_labels(series.astype(str).tolist())


def _label_key(value):
    """Numbers in numeric order, then text in alphabetical order (for lists shown to users)."""
    if isinstance(value, str) and _is_number(value):
        return (0, float(value.strip().replace(",", ".")), value)
    if isinstance(value, (int, float, np.number)) and not isinstance(value, bool):
        return (0, float(value), str(value))
    return (1, 0.0, str(value))


def label_column(frame: pd.DataFrame, column: str, noise=None) -> tuple[np.ndarray, list]:
    """A label column as written (text from CSV; Parquet's numbers stay numbers) and its clusters.

    Returns ``(labels, names)``: one label per object, and the distinct labels in sorted order
    without `noise` (the label that marks noise, as written; None when there is none). Only an
    empty field (or a null in Parquet) is a missing label, and it is refused with its data row.

    >>> labels, names = label_column(read_table_bytes(b"t,p\\ncat,1\\n-1,2\\ndog,2\\n"), "t", noise="-1")
    >>> labels.tolist(), names
    (['cat', '-1', 'dog'], ['cat', 'dog'])
    """
    series = _column(frame, column)
    missing = _missing(series)
    if missing.any():
        row = int(np.flatnonzero(missing)[0])
        raise CluvalError(f"column {column!r} has {int(missing.sum())} empty label(s), the first in data row "
                          f"{row + 1}: every object needs a label in both partitions")
    labels = _labels_as_written(series, column)
    _, uniques = factorize(labels, column)
    names = [v.item() if isinstance(v, np.generic) else v for v in uniques]
    return labels, [v for v in names if noise is None or v != noise]


def distinct_labels(frame: pd.DataFrame, columns, limit: int = 200) -> list:
    """The distinct labels of one column (or of several), as written, numbers first in numeric
    order, at most `limit` of them (for a choice of the noise label).

    >>> distinct_labels(read_table_bytes(b"a,b\\n10,x\\n9,-1\\n10,y\\n"), ["a", "b"])
    ['-1', '9', '10', 'x', 'y']
    """
    found = {}
    for column in [columns] if isinstance(columns, str) else columns:
        values = _column(frame, column)
        values = values[~_missing(values)]
        for v in pd.unique(values.astype(str) if values.dtype == object else values.to_numpy()):
            found.setdefault(v.item() if isinstance(v, np.generic) else v, None)
            if len(found) >= limit:
                break
    return sorted(found, key=_label_key)


def _numbers(series: pd.Series) -> np.ndarray:
    return pd.to_numeric(series, errors="coerce").to_numpy(dtype=float, na_value=np.nan)


def numeric_columns(frame: pd.DataFrame, rows: int = 1000) -> list[str]:
    """The columns whose first `rows` values are all finite numbers (candidates for coordinates)."""
    head = frame.head(rows)
    found = []
    for column in head.columns:
        values = _numbers(head[column])
        if len(values) and np.isfinite(values).all():
            found.append(column)
    return found


@dataclass(frozen=True)
class ColumnSummary:
    """What a column holds, to suggest its use: coordinates, or labels.

    A column is *continuous* when all its values are numbers and either some are not whole
    numbers or it has more than two distinct values and more than half as many as rows (as
    labels, most clusters would have one or two objects): such a column is taken for a
    coordinate, never silently for labels.
    """

    name: str
    rows: int
    distinct: int
    numeric: bool
    whole: bool

    @property
    def continuous(self) -> bool:
        return self.numeric and (not self.whole or (2 * self.distinct > self.rows and self.distinct > 2))


def column_summaries(frame: pd.DataFrame) -> dict[str, ColumnSummary]:
    """One :class:`ColumnSummary` per column, in the file's order.

    >>> s = column_summaries(read_table_bytes(b"x,k,t\\n0.5,1,a\\n1.5,1,b\\n2.5,2,a\\n"))
    >>> [(c.name, c.distinct, c.continuous) for c in s.values()]
    [('x', 3, True), ('k', 2, False), ('t', 2, False)]
    """
    summaries = {}
    for column in frame.columns:
        series = frame[column]
        values = _numbers(series) if series.dtype.kind in "OUSifu" or isinstance(series.dtype, pd.StringDtype) \
            else np.full(len(series), np.nan)
        numeric = bool(len(values)) and bool(np.isfinite(values).all())
        whole = numeric and bool((values == np.round(values)).all())
        distinct = int(series.astype(str).nunique() if series.dtype == object else series.nunique())
        summaries[column] = ColumnSummary(column, len(series), distinct, numeric, whole)
    return summaries


def continuous_label_warning(summary: ColumnSummary) -> str | None:
    """A warning for a continuous column chosen as labels (None for a label-like column)."""
    if not summary.continuous:
        return None
    what = "decimal numbers" if not summary.whole else "whole numbers, most of them different"
    return (f"column '{summary.name}' holds {what}: {summary.distinct:,} distinct values in {summary.rows:,} rows. "
            "As labels, every distinct value is a cluster of its own; it looks like a coordinate.")


@dataclass(frozen=True)
class Suggestion:
    """The columns to offer first: whether the file has coordinates, which, and which labels.

    `labels` are the label-like columns (the first is the reference); `reference` and
    `candidate` are the first two label columns, for a comparison of two label columns.
    """

    has_coordinates: bool
    coordinates: list
    labels: list
    reference: str
    candidate: str


def suggest_columns(frame: pd.DataFrame, summaries: dict | None = None) -> Suggestion:
    """Coordinates are the continuous numeric columns; labels the others (text, or few whole numbers).

    A file without a continuous column holds only labels. At least one column is left for
    the labels: when every column is continuous the last one is (its use shows a warning).

    >>> suggest_columns(read_table_bytes(b"x,y,truth\\n0.1,1.5,a\\n2.2,3.1,b\\n"))
    Suggestion(has_coordinates=True, coordinates=['x', 'y'], labels=['truth'], reference='truth', candidate='x')
    >>> suggest_columns(read_table_bytes(b"truth,found\\n1,a\\n1,b\\n2,b\\n")).has_coordinates
    False
    """
    summaries = summaries or column_summaries(frame)
    columns = list(frame.columns)
    continuous = [c for c in columns if summaries[c].continuous]
    label_like = [c for c in columns if not summaries[c].continuous]
    coordinates = continuous if label_like else continuous[:-1]
    labels = label_like or [c for c in columns if c not in coordinates][:1]
    order = labels + [c for c in columns if c not in labels]
    return Suggestion(bool(continuous), coordinates, labels, order[0], order[1])


def default_coordinates(frame: pd.DataFrame) -> list[str]:
    """The coordinate columns to offer first (see :func:`suggest_columns`).

    >>> default_coordinates(read_table_bytes(b"x,y,truth\\n0.5,1,a\\n2.5,3,b\\n1.5,7,a\\n"))
    ['x', 'y']
    >>> default_coordinates(read_table_bytes(b"x,y,truth\\n0.5,1,1\\n2.5,3,1\\n1.5,2,2\\n"))
    ['x', 'y']
    >>> default_coordinates(read_table_bytes(b"x,truth\\n0.5,1\\n2.5,2\\n"))
    ['x']
    >>> default_coordinates(read_table_bytes(b"x,truth\\n0.5,1.5\\n2.5,2.5\\n"))
    ['x']
    """
    return suggest_columns(frame).coordinates


def points_and_labels(frame: pd.DataFrame, coordinates, label: str, noise=None):
    """Coordinates as a float matrix, and one label column as written with its clusters' labels
    (see :func:`label_column`)."""
    if not coordinates:
        raise CluvalError("choose at least one coordinate column")
    columns = [_column(frame, c) for c in coordinates]
    X = np.empty((len(frame), len(columns)))
    for j, (name, col) in enumerate(zip(coordinates, columns)):
        numeric = _numbers(col)
        bad = ~np.isfinite(numeric)
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            raise CluvalError(f"coordinate column {name!r} is not numeric: data row {row + 1} holds "
                              f"{col.iloc[row]!r}. Choose numeric columns as coordinates")
        X[:, j] = numeric
    labels, names = label_column(frame, label, noise)
    return X, labels, names


# ---------------------------------------------------------------------- folders and out-of-core reading
def _natural_key(path: Path):
    """File names in natural order: part.2 before part.10."""
    return [(0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", path.name)]


def is_parquet(path: Path) -> bool:
    with open(path, "rb") as fh:
        return fh.read(4) == b"PAR1"


def table_files(path) -> list[Path]:
    """The files a path names: itself, or a folder's CSV or Parquet files in natural name order.

    A folder's files are those ending in .csv, .tsv, .txt, .parquet, .parq or .pq (hidden
    files and names starting with ``_`` left out), all CSV or all Parquet; their objects follow
    each other in that order. A path that is not a folder is returned as it is (the readers
    check it).
    """
    path = Path(path)
    if not path.is_dir():
        return [path]
    suffixes = CSV_SUFFIXES + PARQUET_SUFFIXES
    files = sorted((p for p in path.iterdir() if p.suffix.lower() in suffixes and p.is_file()
                    and not p.name.startswith((".", "_"))), key=_natural_key)
    if not files:
        raise CluvalError(f"{path} is a folder without CSV or Parquet files ({', '.join(suffixes)}): give the path "
                          f"of {ACCEPTED}, or of a folder of them")
    try:
        kinds = {is_parquet(p) for p in files}
    except OSError as exc:
        raise CluvalError(f"a file in {path} cannot be read ({exc.strerror or exc})") from None
    if len(kinds) > 1:
        raise CluvalError(f"{path} holds both CSV and Parquet files: give a folder of one kind")
    return files


def _cells(path: Path, size: int) -> int:
    """The cells of a file, as the in-memory reader counts them (lines x fields of the first
    line for CSV, rows x columns for Parquet); 0 when the file is unreadable (the reader then
    says why)."""
    try:
        if is_parquet(path):
            import pyarrow.parquet as pq

            meta = pq.ParquetFile(path).metadata
            return meta.num_rows * meta.num_columns
        newlines = returns = 0
        fields, in_first_line, last = 1, True, b""
        with open(path, "rb") as fh:
            head = fh.read(_SNIFF_BYTES)
            sep = _delimiter(head.decode("utf-8-sig", errors="ignore")).encode()
            fh.seek(0)
            while block := fh.read(_COUNT_STEP):
                newlines += block.count(b"\n")
                returns += block.count(b"\r")
                if in_first_line:  # the first line's fields, however long the line
                    end = block.find(b"\n")
                    fields += (block if end < 0 else block[:end]).count(sep)
                    in_first_line = end < 0
                last = block[-1:]
    except Exception:  # noqa: BLE001 - unreadable or damaged: the in-memory reader names the problem
        return 0
    lines = max(newlines, returns) + (1 if last and last not in (b"\n", b"\r") else 0)
    return lines * fields if fields <= MAX_COLUMNS else MAX_CELLS + 1  # too wide: never read in memory


def fits_in_memory(path, budget: int) -> bool:
    """Whether :func:`read_table` reads the file within its limits (:data:`MAX_BYTES`,
    :data:`MAX_CELLS`) and within `budget` bytes of memory (:data:`BYTES_PER_CELL` per cell).

    Paths that are not regular files count as fitting: :func:`read_table` says what is wrong.
    """
    try:
        info = os.stat(path)
    except OSError:
        return True
    if not stat.S_ISREG(info.st_mode):
        return True
    size = info.st_size
    if size > MAX_BYTES:
        return False
    if (size + 1) * BYTES_PER_CELL <= budget and size + 1 <= MAX_CELLS:
        return True  # every cell takes at least one byte
    cells = _cells(Path(path), size)
    return cells <= MAX_CELLS and cells * BYTES_PER_CELL <= budget


def _csv_layout(path: Path) -> UserTable:
    """The delimiter, header and column names of a CSV file, read from its first lines."""
    name = str(path)
    try:
        with open(path, "rb") as fh:
            head = fh.read(_SNIFF_BYTES)
            if b"\n" not in head and len(head) == _SNIFF_BYTES and b"\x00" not in head:
                while b"\n" not in head and len(head) < _LONGEST_FIRST_LINE:  # a long first line, read whole
                    more = fh.read(_SNIFF_BYTES)
                    if not more:
                        break
                    head += more
                if b"\n" in head:
                    head += fh.read(_SNIFF_BYTES)  # and the lines after it, to see what the first one is
    except OSError as exc:
        raise CluvalError(f"{name} cannot be read ({exc.strerror or exc})") from None
    if b"\n" not in head and len(head) >= _LONGEST_FIRST_LINE:
        raise CluvalError(f"{name} has a first line longer than {_LONGEST_FIRST_LINE >> 20} MB: "
                          "it is not a table of label columns")
    if head[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
        raise CluvalError(f"{name} is UTF-16 text, which is read out of core only as UTF-8: save it as UTF-8 CSV "
                          "(in a spreadsheet: 'CSV UTF-8')")
    if b"\n" in head:
        head = head[: head.rindex(b"\n") + 1]  # whole lines only
    return read_user_table(head, name)


def _check_labels(frame: pd.DataFrame, columns: list[str], where: str, csv: bool) -> pd.DataFrame:
    """A partition's label columns, refused when one holds an empty field or a null, or when
    the CSV parser took a row with more fields than the first row as an index."""
    if csv and not isinstance(frame.index, pd.RangeIndex):
        raise CluvalError(f"{where} could not be read as CSV (a row has more fields than the first row): check that "
                          "every row has the same number of fields")
    for column in columns:
        missing = _missing(frame[column])
        if missing.any():
            raise CluvalError(f"column {column!r} has {int(missing.sum())} empty label(s) in {where}: every object "
                              "needs a label in both partitions")
    return frame


def quoted_line_break(path, step: int = _DECODE_STEP) -> bool:
    """Whether a CSV file has a line break inside a quoted field ("c\nd"), read in steps.

    A line break is inside quotes exactly when an odd number of double quotes comes before it
    (an escaped quote, "", adds two). Such a file cannot be cut into blocks at line breaks, as
    a parallel reader does.
    """
    odd = False
    with open(path, "rb") as fh:
        while chunk := fh.read(step):
            data = np.frombuffer(chunk, dtype=np.uint8)
            quotes = np.cumsum(data == 34) + odd
            if (quotes[data == 10] % 2).any():
                return True
            odd = bool(quotes[-1] % 2)
    return False


def csv_label_chunks(files, true: str, pred: str, *, rows: int):
    """Two label columns of CSV files read in chunks of `rows` rows, in order, as
    ``(labels_true, labels_pred)`` pairs (for :func:`~cluval_core.compare_chunks`): the reader keeps
    quoted fields whole, line breaks included. The first file's first lines decide the delimiter
    and whether the first row names the columns, as for :func:`dask_label_columns`."""
    files = [Path(f).resolve() for f in files]
    layout = _csv_layout(files[0])
    for column in (true, pred):
        _column(layout.frame, column)
    for path in files:
        reader = pd.read_csv(path, sep=layout.delimiter, header=0 if layout.header else None,
                             names=list(layout.frame.columns), dtype=str, keep_default_na=False,
                             skipinitialspace=True, encoding="utf-8-sig", chunksize=rows)
        with reader:
            for frame in reader:
                frame = _check_labels(frame.reset_index(drop=True), [true, pred], str(path), csv=True)
                yield frame[true].to_numpy(dtype=object), frame[pred].to_numpy(dtype=object)


def dask_label_columns(files, true: str, pred: str, *, blocksize: int):
    """Two label columns of CSV or Parquet files as Dask Series, read out of core.

    The first file's first lines decide the delimiter and whether the first row names the
    columns, as :func:`read_table` decides them; labels are kept as written (text from CSV,
    numbers from Parquet). CSV is read in blocks of about `blocksize` bytes, Parquet by row
    groups. Empty labels are refused when a partition is read.
    """
    import dask.dataframe as dd

    files = [Path(f).resolve() for f in files]
    name = str(files[0]) if len(files) == 1 else f"{files[0].parent}"
    for path in files:
        if not path.is_file():
            raise CluvalError(f"{path} is not a regular file: give the path of {ACCEPTED}, or of a folder of them")
    if is_parquet(files[0]):
        import pyarrow.parquet as pq

        try:
            columns = pq.read_schema(files[0]).names
        except Exception as exc:  # noqa: BLE001 - pyarrow raises many types for a damaged file
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise CluvalError(f"{files[0]} could not be read as Parquet ({first}): give {ACCEPTED}") from None
        for column in (true, pred):
            _column(pd.DataFrame(columns=columns), column)
        frame = dd.read_parquet([str(p) for p in files], columns=list(dict.fromkeys([true, pred])))
    else:
        layout = _csv_layout(files[0])
        for column in (true, pred):
            _column(layout.frame, column)
        # every column is parsed (no usecols), so that a row with too many fields is an error, as in memory
        frame = dd.read_csv([str(p) for p in files], sep=layout.delimiter, header=0 if layout.header else None,
                            names=list(layout.frame.columns), dtype=str, keep_default_na=False,
                            skipinitialspace=True, encoding="utf-8-sig", blocksize=blocksize)
    csv = not is_parquet(files[0])
    frame = frame.map_partitions(_check_labels, [true, pred], name, csv, meta=dict(frame.dtypes))
    return frame[true], frame[pred]
