"""Figures of two hierarchies: the tanglegram of a cut.

>>> from cluval_core.core.trees import tanglegram_layout
>>> Z = [[0, 1, 0.5, 2], [2, 3, 1.0, 2], [4, 5, 2.0, 4]]
>>> fig = tanglegram(tanglegram_layout(Z, Z, 2), ("Ward", "Ward"))
>>> len([trace for trace in fig.data if trace.name == "shared objects"])  # one cluster's lines per width
2
"""

from __future__ import annotations

import html

import numpy as np
import plotly.graph_objects as go

from .comparison import PALETTE, UNPAIRED

__all__ = ["tanglegram", "LINK_WIDTHS", "LABELLED_UP_TO"]

LINK_WIDTHS = (1, 2, 4, 7, 11)  # the widths of the lines between the trees, from the fewest shared objects up
_GAP = 0.8  # the half-width of the middle (leaves' labels and the lines), in units of a tree's height
_LINES_FROM = 0.42  # where the lines between the trees start, on each side of the middle
LABELLED_UP_TO = 20  # leaves per tree written beside their dot; beyond, hover names them


def _branches(icoord, dcoord, side: int, top: float):
    """The branches as one line with breaks: the first tree's root to the left, the second's to the right."""
    xs, ys = [], []
    for along, height in zip(icoord, dcoord):
        for a, h in zip(along, height):
            xs.append(side * (_GAP + h / top))
            ys.append(a)
        xs.append(None)
        ys.append(None)
    return xs, ys


def tanglegram(layout, names: tuple[str, str], *, height: int | None = None) -> go.Figure:
    """Two trees cut into k clusters facing each other (a :class:`~cluval_core.core.trees.Tanglegram`):
    the first with its root on the left, the second on the right, each cluster of the cut a leaf
    with its size, and a line from each cluster of the first cut to each cluster of the second it
    shares objects with, wider as they share more (hover: how many). Straight, parallel lines mean
    the cuts agree; crossing fans mean they split and merge the objects differently. A line takes
    the colour of its cluster of the first cut, and a cluster of the second cut the colour of the
    first cut's cluster it shares most with, so that matching clusters share a colour. Up to
    :data:`LABELLED_UP_TO` leaves a tree are written "cluster (objects)" beside their dot."""
    k = layout.k
    size = height or max(360, min(900, 18 * k + 140))
    fig = go.Figure()
    partner = layout.table.argmax(axis=0)  # each cluster of the second cut: its largest share of the first
    colours = (lambda c: PALETTE[c % len(PALETTE)], lambda c: PALETTE[partner[c] % len(PALETTE)])
    positions = []
    for colour, side, (icoord, dcoord), leaves, name in zip(colours, (-1, 1), layout.branches,
                                                             layout.leaves, names):
        top = max((max(h) for h in dcoord), default=1.0) or 1.0
        xs, ys = _branches(icoord, dcoord, side, top)
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", line={"color": UNPAIRED, "width": 1.5}, hoverinfo="skip",
                                 showlegend=False, name=name))
        y = 5.0 + 10.0 * np.arange(len(leaves))  # where SciPy's dendrogram puts its leaves
        positions.append(dict(zip(leaves.tolist(), y.tolist())))
        counts = layout.table.sum(axis=1 if side < 0 else 0)[leaves]
        fig.add_trace(go.Scatter(
            x=[side * _GAP] * len(leaves), y=y, mode="markers+text" if k <= LABELLED_UP_TO else "markers",
            marker={"size": 8, "color": [colour(c) for c in leaves.tolist()], "line": {"width": 0}},
            text=[f"{c + 1} ({n:,})" for c, n in zip(leaves.tolist(), counts.tolist())],
            textposition="middle right" if side < 0 else "middle left", textfont={"size": 10},
            hovertext=[f"{html.escape(name)}: cluster {c + 1} of {k}, {n:,} objects"
                       for c, n in zip(leaves.tolist(), counts.tolist())],
            hoverinfo="text", showlegend=False, name=name))
    rows, cols = np.nonzero(layout.table)
    shared = layout.table[rows, cols]
    bins = np.minimum((np.sqrt(shared / shared.max()) * len(LINK_WIDTHS)).astype(int), len(LINK_WIDTHS) - 1)
    groups = {}  # (cluster of the first cut, width): its lines, one trace each
    for i, j, n, b in zip(rows.tolist(), cols.tolist(), shared.tolist(), bins.tolist()):
        groups.setdefault((i, b), []).append((j, n))
    for (i, b), lines in groups.items():
        xs, ys, texts = [], [], []
        for j, n in lines:
            xs += [-_LINES_FROM, 0.0, _LINES_FROM, None]
            ys += [positions[0][i], (positions[0][i] + positions[1][j]) / 2, positions[1][j], None]
            texts += [f"cluster {i + 1} of {html.escape(names[0])} and cluster {j + 1} of {html.escape(names[1])} "
                      f"share {n:,} objects"] * 3 + [None]
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", line={"color": colours[0](i), "width": LINK_WIDTHS[b]},
                                 opacity=0.6, hovertext=texts, hoverinfo="text", name="shared objects",
                                 legendgroup="shared", showlegend=False))
    span = 10.0 * k
    fig.update_layout(height=size, margin={"l": 10, "r": 10, "t": 40, "b": 10}, hovermode="closest",
                      xaxis={"visible": False, "range": [-1.0 - _GAP - 0.05, 1.0 + _GAP + 0.05]},
                      yaxis={"visible": False, "range": [span + 2, -2]},
                      annotations=[{"x": side * (0.5 + _GAP), "y": 1, "yref": "paper", "yanchor": "bottom",
                                    "text": f"<b>{html.escape(name)}</b>", "showarrow": False, "xanchor": "center"}
                                   for side, name in zip((-1, 1), names)])
    return fig
