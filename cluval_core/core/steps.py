"""An index's computation in steps, with one table's numbers.

:meth:`Comparison.steps` returns a :class:`Steps`: the ordered :class:`Step` objects of one
index, each a symbol, its formula, the formula with this table's numbers put in, and its
value. The last step's value is the index's value, computed from the values of the steps
before it, so the steps are the computation and not a description of it. Each index's
family module writes its steps with the helpers here.

>>> from cluval_core import compare
>>> print(compare([0, 0, 1, 1], [0, 0, 1, 2]).steps("ri"))
a = Σ C(n_ij, 2) = 1 + 0 + 0 = 1
b = Σ C(r_i, 2) − a = (1 + 1) − 1 = 1
c = Σ C(c_j, 2) − a = (1 + 0 + 0) − 1 = 0
M = C(N, 2) = C(4, 2) = 6
d = M − a − b − c = 6 − 1 − 1 − 0 = 4
RI = (a + d) / M = (1 + 4) / 6 = 0.8333
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = ["Step", "Steps", "shown", "sum_of", "listed"]

# Terms written out in a sum before the rest are summarised ("… 40 more").
SHOWN_TERMS = 6


@dataclass(frozen=True)
class Step:
    """One step of a computation: ``symbol = formula = numbers = value``.

    Attributes
    ----------
    symbol : str
        What the step computes (``"a"``, ``"E"``, ``"ARI"``).
    formula : str
        How, in symbols (``"Σ C(n_ij, 2)"``); empty for a given number or a convention.
    numbers : str
        The formula with this table's numbers put in (empty when the value needs no working).
    value : int, float or Fraction
        The result: an exact integer or fraction where the index counts exactly.
    note : str
        Why a convention applies, or what the value means; usually empty.
    """

    symbol: str
    formula: str
    numbers: str
    value: object
    note: str = ""

    def __str__(self) -> str:
        """``symbol = formula = numbers = value``; a convention (a value without working) adds its note."""
        parts = [self.symbol, *(part for part in (self.formula, self.numbers) if part)]
        result = shown(self.value)
        if not parts[1:] or parts[-1] != result:
            parts.append(result)
        text = " = ".join(parts)
        return text if parts[1:] or not self.note else f"{text} ({self.note})"


class Steps(tuple):
    """The steps of one index's computation, in order; ``value`` is the last step's value.

    A tuple of :class:`Step` with the index id (``index_id``); ``str()`` writes one step a line,
    ``to_frame()`` gives a table of them, and ``steps["E"]`` the value of the step named E.
    """

    index_id: str

    def __new__(cls, index_id: str, steps):
        self = super().__new__(cls, steps)
        self.index_id = index_id
        return self

    @property
    def value(self) -> float:
        """The index's value: the last step's, as a float (NaN where it is undefined)."""
        return float(self[-1].value)

    def __getitem__(self, key):
        if isinstance(key, str):
            for step in reversed(self):
                if step.symbol == key:
                    return step.value
            raise KeyError(f"no step computes {key!r}; the steps compute {', '.join(s.symbol for s in self)}")
        return super().__getitem__(key)

    def __str__(self) -> str:
        return "\n".join(str(step) for step in self)

    def __repr__(self) -> str:
        return f"<Steps of {self.index_id}: {len(self)} steps, value {shown(self.value)}>"

    def to_frame(self):
        """One row per step: symbol, formula, numbers, value and note."""
        return pd.DataFrame([{"symbol": s.symbol, "formula": s.formula, "numbers": s.numbers,
                              "value": float(s.value), "note": s.note} for s in self])


def shown(value, digits: int = 4) -> str:
    """A number as a step shows it: whole numbers in full, others to `digits` decimals, never
    rounded onto a different-looking value (1 − 1e-9 shows as 0.999999999, not 1).

    >>> shown(3), shown(0.5), shown(2 / 3), shown(1 - 1e-9), shown(float("nan")), shown(1e-7)
    ('3', '0.5', '0.6667', '0.999999999', 'NaN', '1e-07')
    """
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, numbers.Integral):
        return str(int(value))
    value = float(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "∞" if value > 0 else "−∞"
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    if value != 0 and abs(value) < 10 ** -digits:
        text = f"{value:.{digits - 1}g}"
    else:
        text = f"{value:.{digits}f}".rstrip("0").rstrip(".")
        if float(text) != value and text in {"0", "1", "-0", "-1"}:
            text = f"{value:.10g}"
    return "−" + text[1:] if text.startswith("-") else text


def listed(values, *, limit: int = SHOWN_TERMS, count: int | None = None) -> list[str]:
    """The first `limit` values shown, and "… k more" for the rest; `count` is the number of
    values in all when `values` holds only the first of them (so that a long list costs nothing)."""
    first = list(values[:limit]) if isinstance(values, (list, tuple)) else list(np.ravel(values)[:limit])
    total = len(values) if count is None else count
    parts = [v if isinstance(v, str) else shown(v) for v in first]
    if total > limit:
        parts.append(f"… {total - limit} more")
    return parts


def sum_of(values, *, limit: int = SHOWN_TERMS, count: int | None = None) -> str:
    """A sum written out: "1 + 3 + 0", at most `limit` terms and then "… k more"."""
    parts = listed(values, limit=limit, count=count)
    return " + ".join(parts) if parts else "0"
