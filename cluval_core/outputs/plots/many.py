"""Figures of many clusterings of the same objects (:func:`cluval_core.compare_many`,
:mod:`cluval_core.stability`).

One heatmap per index: the same colour means "alike" for every index (dark where two
solutions agree), so heatmaps of a similarity and of a distance drawn side by side read the
same way. The stability curve over k is :func:`cluval_core.plots.stability_curves`.

>>> import numpy as np
>>> from cluval_core import compare_many
>>> m = compare_many({"a": [0, 0, 1, 1], "b": [0, 0, 1, 2], "c": [0, 1, 0, 1]}, ["ari"])
>>> fig = pairwise_heatmap(m["ari"], "ari")
>>> np.round(fig.data[0].z, 3).tolist(), fig.data[0].reversescale  # dark where alike
([[1.0, 0.571, -0.5], [0.571, 1.0, -0.286], [-0.5, -0.286, 1.0]], False)
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from ...core.registry import get_index
from ...core.validation import CluvalError
from .comparison import plotly_text

__all__ = ["pairwise_heatmap", "PAIRWISE_WRITTEN_UP_TO", "LONGEST_TICK"]

PAIRWISE_WRITTEN_UP_TO = 12  # solutions a side whose cells carry their value as text; beyond, on hover only
LONGEST_TICK = 16  # characters of a solution's name on an axis; the whole name is on hover


_text = plotly_text


def _tick(name: str) -> str:
    name = str(name)
    return _text(name if len(name) <= LONGEST_TICK else name[:LONGEST_TICK - 1] + "…")


def pairwise_heatmap(matrix: pd.DataFrame, index_id: str, *, title: str | None = None) -> go.Figure:
    """The pairwise values of one index over many solutions, as a heatmap.

    Row p, column q is the index with solution p as the reference and q as the candidate
    (:func:`~cluval_core.compare_many`'s matrix). Dark means alike for every index: a
    similarity's scale runs from light (low) to dark (high), a distance's the other way
    round, so the most stable solutions show as dark rows and columns. The colour scale spans
    the values drawn; cells carry their value as text on matrices of up to
    :data:`PAIRWISE_WRITTEN_UP_TO` solutions (whole numbers for counts such as the Centroid
    Index), and every cell's value is on hover with the solutions' full names.

    Parameters
    ----------
    matrix : DataFrame
        Square, the same solutions as rows and columns.
    index_id : str
        The index the matrix holds (its direction and name come from the registry).
    title : str, optional
        Defaults to the index's name.
    """
    info = get_index(index_id)
    if not isinstance(matrix, pd.DataFrame) or matrix.shape[0] != matrix.shape[1] or matrix.shape[0] < 1 \
            or list(matrix.index) != list(matrix.columns):
        raise CluvalError(f"matrix must be a square DataFrame with the same solutions as rows and columns, got "
                          f"{type(matrix).__name__} of shape {getattr(matrix, 'shape', None)}")
    z = matrix.to_numpy(dtype=float)
    names = [str(name) for name in matrix.index]
    p = len(names)
    positions = list(range(p))  # by position: two names may shorten to the same tick
    written = p <= PAIRWISE_WRITTEN_UP_TO
    digits = ".0f" if info.integer_valued else ".2f"
    text = [["" if math.isnan(v) else format(v, digits) for v in row] for row in z.tolist()] if written else None
    hover = [[f"reference {_text(r)}<br>candidate {_text(c)}" for c in names] for r in names]
    finite = z[np.isfinite(z)]
    low, high = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
    if low == high:  # every pair alike: a scale around the one value
        low, high = low - 0.5, high + 0.5
    fig = go.Figure(go.Heatmap(
        z=z, x=positions, y=positions, text=text, texttemplate="%{text}" if written else None,
        hovertext=hover, hovertemplate="%{hovertext}<br>" + _text(info.name) + ": %{z:.4g}<extra></extra>",
        colorscale="Blues", reversescale=not info.higher_is_better, zmin=low, zmax=high, xgap=1, ygap=1,
        colorbar=dict(thickness=10, title=dict(text="higher:<br>more alike" if info.higher_is_better
                                               else "lower:<br>more alike", side="top"))))
    ticks = [_tick(name) for name in names]
    step = max(1, math.ceil(p / 30))  # at most 30 names an axis
    fig.update_xaxes(tickvals=positions[::step], ticktext=ticks[::step], title_text="candidate (column)",
                     tickangle=-45 if p > 6 or any(len(t) > 4 for t in ticks) else 0, showgrid=False)
    fig.update_yaxes(tickvals=positions[::step], ticktext=ticks[::step], title_text="reference (row)",
                     autorange="reversed", showgrid=False, scaleanchor="x", constrain="domain")
    fig.update_layout(title=dict(text=_text(title if title is not None else info.name), x=0, xanchor="left"),
                      height=430, margin=dict(l=10, r=10, t=50, b=10))
    return fig
