"""The property atlas as a figure (:mod:`cluval_core.indices.properties`).

:func:`atlas_heatmap` draws the matrix of indices (rows) and properties (columns), each cell
coloured by its state: dark green for proved, light green for holding on every case tried,
light grey for failing (a counterexample is kept); the hover says which and, for a proof, its
source.

>>> from cluval_core.indices.properties import atlas_matrix
>>> fig = atlas_heatmap(atlas_matrix().loc[["ari", "vi"]])
>>> fig.data[0].y
('ari', 'vi')
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from ...core.registry import INDICES
from ...core.validation import CluvalError
from ...indices.properties import PROPERTIES, PROVED, SHORT, STATES
from .comparison import plotly_text

__all__ = ["atlas_heatmap", "STATE_COLOURS"]

# state -> (level on the colour scale, colour)
STATE_COLOURS = {"fails": (0, "#e9e9ec"), "not searched": (1, "#ffffff"), "holds": (2, "#a1d99b"),
                 "proved": (3, "#238b45")}
_MARKS = {"fails": "✗", "not searched": "?", "holds": "✓", "proved": "P"}


def atlas_heatmap(matrix: pd.DataFrame, *, title: str = "Which index has which property") -> go.Figure:
    """The matrix of :func:`~cluval_core.indices.properties.atlas_matrix` (index ids as rows, property ids
    as columns, states as cells) as a heatmap with one mark per cell: P proved, ✓ holds on every case
    tried, ✗ fails."""
    if not isinstance(matrix, pd.DataFrame) or matrix.empty:
        raise CluvalError("matrix must be a non-empty DataFrame of states, index ids as rows, property ids as columns")
    unknown = set(matrix.to_numpy().ravel()) - set(STATE_COLOURS)
    if unknown:
        raise CluvalError(f"unknown states {sorted(map(str, unknown))}; the states are {', '.join(STATE_COLOURS)}")
    ids, props = [str(i) for i in matrix.index], [str(p) for p in matrix.columns]
    levels = [[STATE_COLOURS[s][0] for s in row] for row in matrix.to_numpy()]
    marks = [[_MARKS[s] for s in row] for row in matrix.to_numpy()]
    hover = [[_hover(i, p, s) for p, s in zip(props, row)] for i, row in zip(ids, matrix.to_numpy())]
    scale = []
    for level, colour in sorted(STATE_COLOURS.values()):
        scale += [[level / 3, colour], [min(1.0, (level + 0.999) / 3), colour]] if level < 3 else [[1.0, colour]]
    fig = go.Figure(go.Heatmap(
        z=levels, x=[SHORT.get(p, p) for p in props], y=ids, text=marks, texttemplate="%{text}",
        hovertext=hover, hovertemplate="%{hovertext}<extra></extra>", colorscale=scale, zmin=0, zmax=3,
        showscale=False, xgap=1, ygap=1))
    fig.update_xaxes(side="top", showgrid=False, tickangle=-50)
    fig.update_yaxes(autorange="reversed", showgrid=False)
    fig.update_layout(title=dict(text=plotly_text(title), x=0, xanchor="left"),
                      height=max(260, 90 + 19 * len(ids)), margin=dict(l=10, r=10, t=100, b=10))
    return fig


def _hover(index: str, prop: str, state: str) -> str:
    name = INDICES[index].name if index in INDICES else index
    prop_name = PROPERTIES[prop].name if prop in PROPERTIES else prop
    line = f"{plotly_text(name)}<br>{plotly_text(prop_name)}: {STATES.get(state, state)}"
    if state == "proved":
        source = PROVED.get((index, prop), "")
        line += "<br>" + plotly_text(source[:90] + ("…" if len(source) > 90 else ""))
    elif state == "fails":
        line += "<br>(choose it under the matrix to see the counterexample)"
    return line
