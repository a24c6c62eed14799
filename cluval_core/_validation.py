"""Input validation shared by every entry point.

Each checker takes the user's value and the argument's name, and either returns a clean
numpy array or raises :class:`CluvalError` with a message that names the argument, says
what was wrong (with the offending value) and what is accepted.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

__all__ = ["CluvalError", "as_labels", "first_bad_label", "bad_label_error", "as_data", "as_table", "as_memberships"]

MEMBERSHIP_TOLERANCE = 1e-6


class CluvalError(ValueError):
    """The one exception cluval raises for bad input: a ``ValueError`` subclass."""

    __module__ = "cluval_core"


def _item(value):
    """A numpy scalar as the plain Python value, for readable messages."""
    return value.item() if isinstance(value, np.generic) else value


def _describe(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def as_labels(labels, name: str) -> np.ndarray:
    """Return `labels` as a 1-D numpy array of hashable, finite, non-missing values.

    Accepts lists, tuples, numpy arrays and pandas Series (including categoricals) of
    ints, strings, bools or any mix of hashable values. Mixed lists keep their types (1 and
    "1" stay different labels) by becoming object arrays.
    """
    if isinstance(labels, (pd.Series, pd.Index)):
        arr = np.asarray(labels.astype(object) if isinstance(labels.dtype, pd.CategoricalDtype) else labels)
    elif isinstance(labels, np.ndarray):
        arr = labels
    elif isinstance(labels, (str, bytes)) or not hasattr(labels, "__len__"):
        raise CluvalError(f"{name} must be a 1-D sequence of labels, got {type(labels).__name__} {_describe(labels)}")
    else:
        seq = list(labels)
        try:
            arr = np.asarray(seq)
        except (ValueError, TypeError) as exc:  # ragged nested sequences
            raise CluvalError(f"{name} must be 1-D: {exc}") from None
        if arr.dtype.kind in "USO" and arr.ndim == 1 and not all(isinstance(v, str) for v in seq):
            arr = np.empty(len(seq), dtype=object)
            arr[:] = seq
    if arr.ndim != 1:
        raise CluvalError(f"{name} must be 1-D: shape is {arr.shape}")
    if arr.size == 0:
        raise CluvalError(f"{name} is empty: at least one label is needed")
    kind = arr.dtype.kind
    if kind == "f":
        bad = ~np.isfinite(arr)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise bad_label_error(name, i, f"a missing or infinite label ({_item(arr[i])!r}")
    elif kind == "c":
        raise CluvalError(f"{name} has complex labels (dtype {arr.dtype}): use ints or strings")
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


def _check_finite_nonnegative(arr: np.ndarray, name: str, what: str, hint: str = "") -> None:
    """Name the first non-finite or negative cell of a 2-D array."""
    for bad, problem in ((~np.isfinite(arr), "non-finite"), (arr < 0, "negative")):
        if bad.any():
            i, j = np.argwhere(bad)[0]
            raise CluvalError(f"{name} has a {problem} {what} ({_item(arr[i, j])!r} at [{i}, {j}]){hint}")


def as_table(table, name: str = "table") -> np.ndarray:
    """Return a non-negative finite 2-D table; int64 when every entry is a whole number."""
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
    if arr.dtype.kind not in "iuf":
        raise CluvalError(f"{name} must be numeric, got dtype {arr.dtype}")
    _check_finite_nonnegative(arr, name, "entry", ": counts must be >= 0")
    if arr.dtype.kind == "f":
        if np.all(arr == np.round(arr)) and arr.max() < 2**62:
            arr = arr.astype(np.int64)
    elif arr.dtype.kind == "u":
        if arr.max() >= 2**62:
            raise CluvalError(f"{name} has an entry too large to count exactly ({_item(arr.max())})")
        arr = arr.astype(np.int64)
    else:
        arr = arr.astype(np.int64, copy=False)
    if arr.sum() <= 0:
        raise CluvalError(f"{name} sums to zero: there are no objects to compare")
    return arr


def as_memberships(U, name: str) -> np.ndarray:
    """Return a membership matrix (objects x clusters): finite, >= 0, rows summing to 1."""
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
