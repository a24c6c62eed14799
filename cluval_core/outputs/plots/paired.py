"""The paired comparison of two candidates against one reference (:func:`cluval_core.compare_paired`)
as a figure: one strip per index, oriented so that right is "A closer".

Each strip shows the observed difference with its jackknife interval, the bootstrap interval,
and the differences the permutation test produced by swapping the candidates' labels (a box: where
differences fall when neither candidate is better). A difference whose intervals leave 0 and that
lies beyond the box is more than chance; one inside the box is not.
"""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ...core.registry import INDICES
from .colours import index_colour

__all__ = ["paired_differences"]

NULL_COLOUR = "rgba(128, 128, 128, 0.35)"  # the swapped labels' differences: no index's colour
ROWS = ("observed, jackknife", "bootstrap", "swapped labels")
STRIP_HEIGHT = 120  # px per index


def _oriented(values, index_id: str):
    """Differences turned so that a positive one favours A (distances: B − A)."""
    sign = 1.0 if INDICES[index_id].higher_is_better else -1.0
    return sign * np.asarray(values, dtype=float)


def paired_differences(paired, *, title: str | None = None) -> go.Figure:
    """One strip per index of a :class:`~cluval_core.PairedComparison`, right meaning "A closer"."""
    ids = list(paired.table.index)
    a, b = paired.names
    fig = make_subplots(rows=len(ids), cols=1, vertical_spacing=min(0.5 / max(len(ids), 1), 0.12))
    for row, index_id in enumerate(ids, start=1):
        info = INDICES[index_id]
        values = paired.table.loc[index_id]
        colour = index_colour(index_id)
        forward = "A − B" if info.higher_is_better else "B − A"
        observed = float(_oriented([values["difference"]], index_id)[0])
        if not math.isnan(observed):
            low, high = sorted(_oriented([values["low"], values["high"]], index_id))
            error = ({} if math.isnan(values["se"]) else
                     {"error_x": dict(type="data", symmetric=False, array=[high - observed],
                                      arrayminus=[observed - low], color=colour, thickness=3, width=8)})
            fig.add_trace(go.Scatter(
                x=[observed], y=[ROWS[0]], mode="markers", marker=dict(symbol="diamond", size=13, color=colour),
                name=f"{info.name}: {forward}", legendgroup=index_id, showlegend=False,
                hovertemplate=(f"{info.name}<br>{forward} = %{{x:.4g}}" + (
                    f"<br>{100 * paired.level:g} % jackknife interval {low:.4g} to {high:.4g}"
                    if error else "") + "<extra></extra>"), **error), row=row, col=1)
        if not math.isnan(values["boot_low"]):
            low, high = sorted(_oriented([values["boot_low"], values["boot_high"]], index_id))
            fig.add_trace(go.Scatter(
                x=[low, high], y=[ROWS[1]] * 2, mode="lines+markers", line=dict(color=colour, width=3),
                marker=dict(symbol="line-ns", size=10, line=dict(width=2, color=colour), color=colour),
                name=f"{info.name}: bootstrap interval", legendgroup=index_id, showlegend=False,
                hovertemplate=(f"{info.name}<br>{100 * paired.level:g} % bootstrap interval of {forward}: "
                               f"{low:.4g} to {high:.4g}<extra></extra>")), row=row, col=1)
        if paired.permutations is not None:
            swapped = _oriented(paired.permutations[index_id].dropna(), index_id)
            fig.add_trace(go.Box(
                x=swapped, y=[ROWS[2]] * len(swapped), orientation="h", boxpoints=False, fillcolor=NULL_COLOUR,
                line=dict(color="grey", width=1), name="differences under swapped labels", showlegend=False,
                hovertemplate="swapped labels: %{x:.4g}<extra></extra>"), row=row, col=1)
        p = "" if math.isnan(values["p"]) else f", p = {values['p']:.3g}"
        fig.add_vline(x=0, line=dict(color="grey", dash="dot", width=1), row=row, col=1)
        fig.update_xaxes(title=dict(text=f"{info.name}: {forward}{p}", font=dict(size=12),
                                    standoff=4), zeroline=False, automargin=True, row=row, col=1)
        fig.update_yaxes(categoryorder="array", categoryarray=list(ROWS[::-1]), automargin=True, row=row, col=1)
    fig.update_layout(title=title or f"Is {a} closer to the reference than {b}? Right of 0: {a} closer",
                      height=90 + STRIP_HEIGHT * len(ids),
                      margin=dict(l=10, r=10, t=50, b=10), meta="paired_differences")
    return fig
