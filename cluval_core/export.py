"""Strict JSON for downloads and the command line: NaN and infinities are written as null.

Python's ``json`` writes ``NaN`` and ``Infinity`` by default, which are not JSON: other
readers refuse the file. Every JSON cluval writes goes through :func:`to_json`.

>>> print(to_json({"ari": 1.0, "psi": float("nan"), "k": np.int64(3)}, indent=None))
{"ari": 1.0, "psi": null, "k": 3}
"""

from __future__ import annotations

import json
import math

import numpy as np

__all__ = ["json_safe", "to_json"]


def json_safe(value):
    """`value` with numpy scalars and arrays as Python values, and non-finite floats as None."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {json_safe(k) if isinstance(k, np.generic) else k: json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [json_safe(v) for v in value]
    return value


def to_json(value, *, indent: int | None = 1) -> str:
    """Strict JSON text of `value` (NaN and infinities as null; never ``NaN`` in the output)."""
    return json.dumps(json_safe(value), indent=indent, allow_nan=False)
