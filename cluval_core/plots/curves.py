"""Figures of index values along a parameter or across groups (scenarios, algorithms, soft vs crisp)."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from .comparison import ORPHAN

__all__ = ["index_curves", "score_bars"]


def index_curves(frame: pd.DataFrame, parameter: str, ids, *, current=None, names=None) -> go.Figure:
    """One line per index over a scenario's parameter, the current position marked."""
    fig = go.Figure()
    for index_id in ids:
        fig.add_trace(go.Scatter(x=frame[parameter], y=frame[index_id], mode="lines+markers",
                                 name=(names or {}).get(index_id, index_id), marker=dict(size=4)))
    if current is not None:
        fig.add_vline(x=current, line=dict(color=ORPHAN, dash="dash"))
    fig.update_layout(height=430, margin=dict(l=10, r=10, t=30, b=10), xaxis_title=parameter,
                      yaxis_title="index value", legend=dict(orientation="h", y=-0.2))
    return fig


def score_bars(frame: pd.DataFrame, group: str, ids, *, names=None) -> go.Figure:
    """Grouped bars: one group per row of `frame` (e.g. algorithms), one bar per index."""
    fig = go.Figure()
    for index_id in ids:
        fig.add_trace(go.Bar(x=frame[group], y=frame[index_id], name=(names or {}).get(index_id, index_id),
                             text=[f"{v:.2f}" for v in frame[index_id]], textposition="outside"))
    fig.update_layout(barmode="group", height=380, margin=dict(l=10, r=10, t=30, b=10),
                      yaxis=dict(range=[0, 1.12], title="index value"))
    return fig
