"""Figures of where the indices disagree on real data (:mod:`cluval_core.experiments.disagreement`).

* :func:`disagreement_heatmap`: for every pair of indices, the share of the pairs of clusterings
  they order the other way round, as a heatmap (white for never, dark red for always);
* :func:`critical_difference_diagram`: the algorithms' mean ranks by one index on an axis, with
  a bar joining the algorithms whose mean ranks lie within the Nemenyi critical difference
  (Demšar 2006), which the sets cannot tell apart.

>>> import pandas as pd
>>> from cluval_core.experiments.disagreement import disagreement, rankings
>>> scores = pd.DataFrame({"dataset": list("ppqq"), "algorithm": list("xyxy"), "seed": 0,
...                        "ari": [0.9, 0.5, 0.8, 0.7], "vi": [0.2, 0.1, 0.3, 0.4]})
>>> disagreement_heatmap(disagreement(scores)).data[0].z.tolist()
[[0.0, 0.5], [0.5, 0.0]]
>>> [t.name for t in critical_difference_diagram(rankings(scores, "ari")).data if t.name in ("x", "y")]
['x', 'y']
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from ...core.registry import INDICES
from ...core.validation import CluvalError
from .colours import INDEX_PALETTE
from .comparison import plotly_text

__all__ = ["disagreement_heatmap", "critical_difference_diagram", "cliques"]


def disagreement_heatmap(matrix: pd.DataFrame, *, title: str = "How often two indices disagree") -> go.Figure:
    """A square matrix of :func:`~cluval_core.experiments.disagreement.disagreement` as a heatmap,
    each cell written as a percentage, the indices' names on hover."""
    if not isinstance(matrix, pd.DataFrame) or matrix.shape[0] != matrix.shape[1] or matrix.empty \
            or list(matrix.index) != list(matrix.columns):
        raise CluvalError("matrix must be a square DataFrame with the same index ids as rows and columns")
    ids = [str(i) for i in matrix.index]
    z = matrix.to_numpy(dtype=float)
    names = [INDICES[i].name if i in INDICES else i for i in ids]
    text = [["" if math.isnan(v) else f"{100 * v:.0f}%" for v in row] for row in z.tolist()]
    hover = [[f"{plotly_text(a)}<br>against {plotly_text(b)}" for b in names] for a in names]
    fig = go.Figure(go.Heatmap(
        z=z, x=ids, y=ids, text=text, texttemplate="%{text}" if len(ids) <= 16 else None, hovertext=hover,
        hovertemplate="%{hovertext}<br>order the pair the other way round in %{z:.1%} of the pairs<extra></extra>",
        colorscale="Reds", zmin=0.0, zmax=max(0.5, float(np.nanmax(z)) if np.isfinite(z).any() else 0.5),
        xgap=1, ygap=1, colorbar=dict(thickness=10, tickformat=".0%", title=dict(text="disagree", side="top"))))
    fig.update_xaxes(tickangle=-45, showgrid=False)
    fig.update_yaxes(autorange="reversed", showgrid=False, scaleanchor="x", constrain="domain")
    fig.update_layout(title=dict(text=plotly_text(title), x=0, xanchor="left"), height=480,
                      margin=dict(l=10, r=10, t=50, b=10))
    return fig


def cliques(mean_ranks: pd.Series, difference: float) -> list[list[str]]:
    """The maximal runs of algorithms (in mean-rank order) whose mean ranks lie within `difference`
    of each other, each of at least two, none inside another.

    >>> cliques(pd.Series({"a": 1.0, "b": 1.5, "c": 2.9, "d": 3.0}), 1.0)
    [['a', 'b'], ['c', 'd']]
    """
    names, values = list(mean_ranks.index), mean_ranks.to_numpy(dtype=float)
    runs = []
    for start in range(len(names)):
        end = start
        while end + 1 < len(names) and values[end + 1] - values[start] < difference:
            end += 1
        if end > start and not any(s <= start and end <= e for s, e in runs):
            runs.append((start, end))
    return [names[s:e + 1] for s, e in runs]


def critical_difference_diagram(found, *, title: str | None = None) -> go.Figure:
    """The mean ranks of :func:`~cluval_core.experiments.disagreement.rankings` on an axis (1, the
    best, on the left), as Demšar (2006) draws them: each algorithm's rank joined by an elbow to its
    name (the better half on the left, the rest on the right), a bar under the algorithms that the
    critical difference cannot tell apart, and the critical difference itself as a scale above."""
    mean = found.mean_ranks
    k = len(mean)
    info = INDICES[found.index_id]
    grey, colour = "#777", INDEX_PALETTE["blue"]
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=[1, k], y=[0, 0], mode="lines", line=dict(color="#444", width=1.5), showlegend=False,
                             hoverinfo="skip", name="axis"))
    for tick in range(1, k + 1):
        fig.add_trace(go.Scatter(x=[tick, tick], y=[0, 0.12], mode="lines", line=dict(color="#444", width=1),
                                 showlegend=False, hoverinfo="skip", name=f"tick {tick}"))
        fig.add_annotation(x=tick, y=0.12, text=str(tick), showarrow=False, yshift=10)
    bars = cliques(mean, found.critical_difference) if math.isfinite(found.critical_difference) else []
    depth = 0.35 + 0.22 * len(bars)  # the elbows start below the bars
    half = (k + 1) / 2
    order = list(mean.items())
    left = [item for item in order if item[1] <= half]
    right = [item for item in order if item[1] > half][::-1]
    for side, items in (("left", left), ("right", right)):
        for row, (name, rank) in enumerate(items):
            y = -(depth + 0.55 * row)
            end = 0.5 if side == "left" else k + 0.5
            fig.add_trace(go.Scatter(x=[rank, rank, end], y=[0, y, y], mode="lines", line=dict(color=grey, width=1),
                                     name=str(name), showlegend=False,
                                     hovertemplate=f"{plotly_text(name)}: mean rank {rank:.2f}<extra></extra>"))
            fig.add_annotation(x=end, y=y, text=f"{plotly_text(name)} ({rank:.2f})", showarrow=False,
                               xanchor="right" if side == "left" else "left", xshift=-4 if side == "left" else 4)
    for level, members in enumerate(bars):
        low, high = float(mean[members[0]]), float(mean[members[-1]])
        y = -(0.25 + 0.22 * level)
        fig.add_trace(go.Scatter(x=[low - 0.03, high + 0.03], y=[y, y], mode="lines", line=dict(color=colour, width=5),
                                 showlegend=False, name="not told apart",
                                 hovertemplate=plotly_text(", ".join(map(str, members)))
                                 + ": not told apart<extra></extra>"))
    if math.isfinite(found.critical_difference):
        fig.add_trace(go.Scatter(x=[1, 1 + found.critical_difference], y=[0.75, 0.75], mode="lines+markers",
                                 line=dict(color="#444", width=2), marker=dict(symbol="line-ns-open", size=10),
                                 showlegend=False, name="critical difference",
                                 hovertemplate="critical difference %{customdata:.2f}<extra></extra>",
                                 customdata=[found.critical_difference] * 2))
        fig.add_annotation(x=1 + found.critical_difference / 2, y=0.75, yshift=11, showarrow=False,
                           text=f"CD = {found.critical_difference:.2f}")
    rows = max(len(left), len(right))
    test = ("" if math.isnan(found.p_value) else
            f"; Friedman χ² = {found.friedman:.1f}, p = {found.p_value:.2g}")
    fig.update_xaxes(visible=False, range=[0.45, k + 0.55])  # the names sit in the margins, whatever the width
    fig.update_yaxes(visible=False, range=[-(depth + 0.55 * rows), 1.05])
    fig.update_layout(title=dict(text=plotly_text(title or f"{info.name}: mean ranks{test}"), x=0, xanchor="left",
                                 font=dict(size=14)),
                      height=170 + 30 * rows + 16 * len(bars), margin=dict(l=150, r=150, t=50, b=10), showlegend=False)
    return fig
