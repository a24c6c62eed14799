"""Input validation shared by every entry point.

Each checker takes the user's value and the argument's name, and either returns a clean
numpy array or raises :class:`CluvalError` with a message that names the argument, says
what was wrong (with the offending value) and what is accepted.
"""

from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Mapping, Set

import numpy as np
import pandas as pd
from scipy.sparse import csr_array

__all__ = ["CluvalError", "CluvalWarning", "warn", "as_labels", "first_bad_label", "bad_label_error", "as_data",
           "as_weights", "as_table", "as_memberships", "check_choice", "check_flag"]

MEMBERSHIP_TOLERANCE = 1e-6
# On soft tables, a denominator within this relative tolerance of zero is zero, and an index
# value within it of its range is clipped to the range (docs/definitions.rst, soft partitions).
SOFT_TOLERANCE = 1e-12
# Largest total a table may have: pair counts stay exact Python ints, and every int64 sum of
# cells or margins stays below 2**63.
MAX_TOTAL = 2**62
# Tables with more cells than this (32 MiB of int64) are kept sparse: only their non-empty
# cells are stored.
DENSE_CELLS = 1 << 22


class CluvalError(ValueError):
    """The one exception cluval raises for bad input: a ``ValueError`` subclass."""

    __module__ = "cluval_core"


class CluvalWarning(UserWarning):
    """Input that cluval accepts but that is probably not what was meant."""

    __module__ = "cluval_core"


def fewer_than_two(total) -> bool:
    """Whether a table's total is below the 2 objects a comparison needs: exactly for counts, within
    the memberships' tolerance for real totals (two objects' memberships may sum to 1.9999999999999998)."""
    if isinstance(total, (int, np.integer)):
        return total < 2
    return float(total) < 2 * (1 - MEMBERSHIP_TOLERANCE)


def warn(message: str, stacklevel: int = 3) -> None:
    warnings.warn(message, CluvalWarning, stacklevel=stacklevel)


def check_choice(name: str, value, choices) -> None:
    """Raise unless `value` is one of `choices` (compared as exact strings)."""
    if not (isinstance(value, str) and value in choices):
        raise CluvalError(f"{name} must be one of {', '.join(map(repr, choices))}, got {_describe(value)}")


def check_flag(name: str, value) -> None:
    """Raise unless `value` is a bool (``numpy.bool_`` included)."""
    if not isinstance(value, (bool, np.bool_)):
        raise CluvalError(f"{name} must be True or False, got {_describe(value)}")


def _item(value):
    """A numpy scalar as the plain Python value, for readable messages."""
    return value.item() if isinstance(value, np.generic) else value


def _describe(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _unmasked(value, name: str):
    """`value` itself, or the data of a numpy masked array with nothing masked: a masked value
    would otherwise be read as if it were there."""
    if isinstance(value, np.ma.MaskedArray):
        masked = int(np.ma.getmaskarray(value).sum())
        if masked:
            raise CluvalError(f"{name} is a masked array with {masked} masked value(s), which cluval would read as "
                              "if they were there: pass the objects you keep (the same ones for every argument), "
                              "or fill the masked values")
        return np.ma.getdata(value)
    return value


def text_labels(values) -> np.ndarray:
    """Text labels as an array that costs what the labels hold: fixed-width strings (hashed by
    their characters, fast) unless one long label would make every label as wide, then objects.

    >>> text_labels(["a", "bb"]).dtype.kind, text_labels(["a"] * 10 + ["x" * 10**6]).dtype.kind
    ('U', 'O')
    """
    values = list(values)
    lengths = [len(v) for v in values]
    longest, total = max(lengths, default=0), sum(lengths)
    if longest * len(values) > 2 * total + (1 << 20) or any(v.endswith("\0") for v in values):
        # fixed width would be mostly padding, or would drop trailing NULs ("a" and "a\0" are two labels)
        return np.fromiter(values, dtype=object, count=len(values))
    return np.array(values, dtype=str) if values else np.array([], dtype=str)


def as_labels(labels, name: str) -> np.ndarray:
    """Return `labels` as a 1-D numpy array of hashable, finite, non-missing values.

    Accepts lists, tuples, numpy arrays, pandas Series (including categoricals) and
    one-column DataFrames of ints, strings, bools or any mix of hashable values. Mixed lists
    keep their types (1 and "1" stay different labels) by becoming object arrays. Float
    labels that are not whole numbers are accepted with a :class:`CluvalWarning`: they
    usually are continuous values given by mistake.
    """
    labels = _unmasked(labels, name)
    if isinstance(labels, pd.DataFrame):
        if labels.shape[1] != 1:
            raise CluvalError(f"{name} must be a 1-D sequence of labels, got a DataFrame with {labels.shape[1]} "
                              "columns: pass one column, e.g. frame[\"label\"]")
        labels = labels.iloc[:, 0]
    if isinstance(labels, (Mapping, Set)):
        raise CluvalError(f"{name} must be a 1-D sequence of labels in object order, got a "
                          f"{type(labels).__name__}, which has no order: pass a list or an array")
    if isinstance(labels, (pd.Series, pd.Index)):
        arr = np.asarray(labels.astype(object) if isinstance(labels.dtype, pd.CategoricalDtype) else labels)
    elif isinstance(labels, np.ndarray):
        arr = labels
    elif isinstance(labels, (str, bytes)) or not hasattr(labels, "__len__"):
        raise CluvalError(f"{name} must be a 1-D sequence of labels, got {type(labels).__name__} {_describe(labels)}")
    else:
        seq = list(labels)
        if seq and all(isinstance(v, str) for v in seq):
            seq = text_labels(seq)  # never padded to the longest label
        try:
            arr = np.asarray(seq)
        except (ValueError, TypeError):  # ragged nested sequences: tuples are labels too
            arr = np.fromiter(seq, dtype=object, count=len(seq))
        if arr.ndim > 1 and all(isinstance(v, tuple) for v in seq):
            arr = np.fromiter(seq, dtype=object, count=len(seq))  # tuples are hashable labels
        if arr.dtype.kind in "USO" and arr.ndim == 1 and not all(isinstance(v, str) for v in seq):
            arr = np.fromiter(seq, dtype=object, count=len(seq))
        elif arr.dtype.kind == "U" and any(v.endswith("\0") for v in seq):
            arr = np.fromiter(seq, dtype=object, count=len(seq))  # numpy strings drop trailing NULs
        elif arr.dtype.kind == "f" and any(isinstance(v, (int, np.integer)) and abs(int(v)) > 2**53 for v in seq):
            arr = np.fromiter(seq, dtype=object, count=len(seq))  # ints that floats would merge
    if arr.ndim != 1:
        raise CluvalError(f"{name} must be 1-D: shape is {arr.shape}")
    if arr.size == 0:
        raise CluvalError(f"{name} is empty: at least one label is needed")
    kind = arr.dtype.kind
    if kind in "fc":
        bad = ~np.isfinite(arr)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise bad_label_error(name, i, f"a missing or infinite label ({_item(arr[i])!r}")
        fractional = np.flatnonzero(arr != np.round(arr))
        if len(fractional):
            warn(f"{name} has float labels that are not whole numbers (e.g. {_item(arr[fractional[0]])!r}): "
                 "they look like continuous values; each distinct value is compared as a cluster", stacklevel=4)
    elif kind == "O" and arr.size <= 10_000:  # larger ones are checked on their distinct values
        bad = first_bad_label(arr)
        if bad is not None:
            raise bad_label_error(name, *bad)
    elif kind in "mM":
        if np.isnat(arr).any():
            raise CluvalError(f"{name} contains a missing (NaT) label")
    return arr


def first_bad_label(values: np.ndarray):
    """Index and description of the first None, NaN, infinite or unhashable value, else None."""
    missing = pd.isna(values)
    for i, v in enumerate(values):
        if missing[i] or (isinstance(v, (float, np.floating)) and math.isinf(v)):
            return i, f"a missing or infinite label ({_item(v)!r}"
        if getattr(v, "__hash__", None) is None:
            return i, f"an unhashable label ({_describe(v)}"
    return None


def bad_label_error(name: str, position: int, what: str) -> CluvalError:
    return CluvalError(f"{name} contains {what} at position {position}): every object needs a finite, "
                       "hashable label")


def as_data(X, n: int, name: str = "X") -> np.ndarray:
    """Return `X` as a finite float64 matrix with `n` rows (a 1-D array is one feature)."""
    X = _unmasked(X, name)
    if np.asarray(X).dtype.kind == "c":
        raise CluvalError(f"{name} has complex values: coordinates must be real numbers (pass the real and "
                          "imaginary parts as two columns)")
    try:
        arr = np.asarray(X, dtype=np.float64)
    except (ValueError, TypeError):
        raise CluvalError(f"{name} must be numeric coordinates; could not convert {_describe(X)}") from None
    if arr.ndim == 1:
        arr = arr[:, None]
    if arr.ndim != 2:
        raise CluvalError(f"{name} must be a 2-D array (objects x features): shape is {arr.shape}")
    if arr.shape[0] != n:
        raise CluvalError(f"{name} has {arr.shape[0]} rows but the labels describe {n} objects")
    if arr.shape[1] == 0:
        raise CluvalError(f"{name} has no features (shape {arr.shape})")
    if not np.isfinite(arr).all():
        i, j = np.argwhere(~np.isfinite(arr))[0]
        raise CluvalError(f"{name} contains a non-finite value ({_item(arr[i, j])!r} at row {i}, column {j})")
    return arr


def as_weights(sample_weight, n: int, name: str = "sample_weight") -> np.ndarray:
    """Return `sample_weight` as `n` finite, non-negative weights, not all zero: int64 for integer
    input (counted exactly, never through floats), float64 otherwise."""
    if isinstance(sample_weight, (str, bytes, dict, set)):
        raise CluvalError(f"{name} must be a sequence of {n} weights or 'balanced', got {_describe(sample_weight)}")
    sample_weight = _unmasked(sample_weight, name)
    kind = np.asarray(sample_weight).dtype.kind
    if kind in "USc" or (kind == "O" and not all(isinstance(w, numbers.Real) for w in np.ravel(sample_weight))):
        raise CluvalError(f"{name} must be numeric weights (real numbers), got {_describe(sample_weight)}: text or "
                          "complex values are not read as weights")
    try:
        arr = np.asarray(sample_weight)
        if arr.dtype.kind in "iub" and arr.size and int(arr.max()) < MAX_TOTAL:
            arr = arr.astype(np.int64)
        else:
            arr = np.asarray(sample_weight, dtype=np.float64)
    except (ValueError, TypeError, OverflowError):
        raise CluvalError(f"{name} must be numeric weights; could not convert {_describe(sample_weight)}") from None
    if arr.ndim != 1:
        raise CluvalError(f"{name} must be 1-D: shape is {arr.shape}")
    if arr.size != n:
        raise CluvalError(f"{name} has {arr.size} weights but the labels describe {n} objects")
    for bad, problem in ((~np.isfinite(arr), "non-finite"), (arr < 0, "negative")):
        if bad.any():
            i = int(np.argmax(bad))
            raise CluvalError(f"{name} has a {problem} weight ({_item(np.asarray(sample_weight)[i])!r} at {i})")
    if not arr.any():
        raise CluvalError(f"{name} is zero for every object: nothing is left to compare")
    total = int(arr.sum(dtype=object)) if arr.dtype.kind == "i" else float(arr.sum())
    if total >= MAX_TOTAL:
        raise CluvalError(f"{name} sums to {total:g}, more than cluval counts ({MAX_TOTAL:.2g})")
    return arr


def _check_finite_nonnegative(arr: np.ndarray, name: str, what: str, hint: str = "") -> None:
    """Name the first non-finite or negative cell of a 2-D array."""
    for bad, problem in ((~np.isfinite(arr), "non-finite"), (arr < 0, "negative")):
        if bad.any():
            i, j = np.argwhere(bad)[0]
            raise CluvalError(f"{name} has a {problem} {what} ({_item(arr[i, j])!r} at [{i}, {j}]){hint}")


def as_table(table, name: str = "table") -> np.ndarray:
    """Return a non-negative finite 2-D table; int64 when every entry is a whole number.

    Accepts nested sequences, numpy arrays, scipy.sparse matrices and pandas DataFrames. A
    scipy.sparse table stays sparse: a canonical ``scipy.sparse.csr_array`` (sorted, no
    duplicate or zero entries).
    Whole-number tables must total at most ``MAX_TOTAL`` (2**62) objects, so that every
    count stays exact.
    """
    table = _unmasked(table, name)
    if isinstance(table, pd.DataFrame):
        table = table.to_numpy()
    elif hasattr(table, "toarray") and hasattr(table, "nnz"):  # scipy.sparse: kept sparse
        return _as_sparse_table(table, name)
    try:
        arr = np.asarray(table)
    except (ValueError, TypeError) as exc:
        raise CluvalError(f"{name} must be a 2-D numeric array: {exc}") from None
    if arr.ndim != 2:
        raise CluvalError(f"{name} must be 2-D: shape is {arr.shape}")
    if arr.size == 0:
        raise CluvalError(f"{name} is empty: shape is {arr.shape}")
    if arr.dtype.kind == "b":
        arr = arr.astype(np.int64)
    if arr.dtype.kind == "O":  # Python ints beyond int64, or mixed values
        try:
            arr = np.asarray(arr, dtype=np.float64) if not _all_ints(arr) else _exact_int_table(arr, name)
        except (ValueError, TypeError, OverflowError):
            k = next((k for k, v in enumerate(arr.flat) if isinstance(v, (bool, np.bool_)) or
                      not isinstance(v, numbers.Real)), 0)
            i, j = np.unravel_index(k, arr.shape)
            raise CluvalError(f"{name} must be numeric: it has {_describe(arr.flat[k])} at [{i}, {j}]") from None
    if arr.dtype.kind not in "iuf":
        raise CluvalError(f"{name} must be numeric, got dtype {arr.dtype}")
    _check_finite_nonnegative(arr, name, "entry", ": counts must be >= 0")
    if arr.dtype.kind == "f":
        with np.errstate(over="ignore"):
            total = float(arr.sum())
        if total > MAX_TOTAL:
            raise CluvalError(f"{name} sums to {total:.6g} objects, more than {MAX_TOTAL} (2**62), the most "
                              "cluval compares")
        if np.all(arr == np.round(arr)):
            arr = arr.astype(np.int64)
    else:
        total = int(arr.sum(dtype=object)) if int(arr.max()) * arr.size > MAX_TOTAL else int(arr.sum())
        if total > MAX_TOTAL:
            raise CluvalError(f"{name} counts {total} objects, more than {MAX_TOTAL} (2**62) that cluval "
                              "counts exactly")
        arr = arr.astype(np.int64, copy=False)
    if arr.sum() <= 0:
        raise CluvalError(f"{name} sums to zero: there are no objects to compare")
    return arr


def _as_sparse_table(table, name: str):
    if len(table.shape) != 2 or 0 in table.shape:
        raise CluvalError(f"{name} must be a non-empty 2-D table: shape is {table.shape}")
    coo = table.tocoo()
    data = coo.data
    if data.dtype.kind == "b":
        data = data.astype(np.int64)
    if data.dtype.kind not in "iuf":
        raise CluvalError(f"{name} must be numeric, got dtype {data.dtype}")
    for bad, problem in ((~np.isfinite(data), "non-finite"), (data < 0, "negative")):
        if bad.any():
            k = int(np.argmax(bad))
            raise CluvalError(f"{name} has a {problem} entry ({_item(data[k])!r} at [{coo.row[k]}, {coo.col[k]}]): "
                              "counts must be >= 0")
    if data.dtype.kind == "f" and np.all(data == np.round(data)) and float(data.sum()) <= MAX_TOTAL:
        data = data.astype(np.int64)
    if data.dtype.kind in "iu" and len(data):
        # every entry, and their sum with repeated entries added up, in exact integers before int64
        k = int(np.argmax(data))
        if int(data[k]) > MAX_TOTAL:
            raise CluvalError(f"{name} has an entry of {int(data[k])} objects (at [{coo.row[k]}, {coo.col[k]}]), more "
                              f"than {MAX_TOTAL} (2**62) that cluval counts exactly")
        total = int(data.sum(dtype=object))
        if total > MAX_TOTAL:
            raise CluvalError(f"{name} counts {total} objects (its entries added up, repeated ones included), more "
                              f"than {MAX_TOTAL} (2**62) that cluval counts exactly")
        data = data.astype(np.int64)
    csr = csr_array((data, (coo.row, coo.col)), shape=coo.shape)
    csr.sum_duplicates()
    csr.eliminate_zeros()
    total = int(csr.data.sum(dtype=object)) if csr.data.dtype.kind == "i" else float(csr.data.sum())
    if total > MAX_TOTAL:
        raise CluvalError(f"{name} counts {total} objects, more than {MAX_TOTAL} (2**62) that cluval counts exactly")
    if total <= 0:
        raise CluvalError(f"{name} sums to zero: there are no objects to compare")
    return csr


def _all_ints(arr: np.ndarray) -> bool:
    return all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in arr.flat)


def _exact_int_table(arr: np.ndarray, name: str) -> np.ndarray:
    values = [int(v) for v in arr.flat]
    if min(values) < 0:
        raise CluvalError(f"{name} has a negative entry ({min(values)}): counts must be >= 0")
    total = sum(values)
    if total > MAX_TOTAL:
        raise CluvalError(f"{name} counts {total} objects, more than {MAX_TOTAL} (2**62) that cluval counts exactly")
    return np.array(values, dtype=np.int64).reshape(arr.shape)


def as_memberships(U, name: str) -> np.ndarray:
    """Return a membership matrix (objects x clusters): finite, >= 0, rows summing to 1."""
    U = _unmasked(U, name)
    if np.asarray(U).dtype.kind in "USc":
        raise CluvalError(f"{name} must be real memberships, got {_describe(U)}")
    try:
        arr = np.asarray(U, dtype=np.float64)
    except (ValueError, TypeError):
        raise CluvalError(f"{name} must be a numeric membership matrix; could not convert {_describe(U)}") from None
    if arr.ndim != 2:
        raise CluvalError(f"{name} must be 2-D (objects x clusters): shape is {arr.shape}")
    if arr.size == 0:
        raise CluvalError(f"{name} is empty: shape is {arr.shape}")
    _check_finite_nonnegative(arr, name, "membership")
    sums = arr.sum(axis=1)
    off = np.abs(sums - 1.0) > MEMBERSHIP_TOLERANCE
    if off.any():
        i = int(np.flatnonzero(off)[0])
        raise CluvalError(f"{name} row {i} sums to {_item(sums[i])!r}, not 1 (tolerance {MEMBERSHIP_TOLERANCE}): "
                          "each object's memberships must sum to 1")
    return arr
