"""Figures of overlapping clusterings: where the objects in several clusters (or none) lie.

>>> import numpy as np
>>> fig = membership_scatter(np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 0.5]]), np.array([0, 1, 2]))
>>> [trace.name for trace in fig.data]
['in no cluster (1)', 'in one cluster (1)', 'in 2 or more clusters (1)']
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from .comparison import UNPAIRED, project_2d

__all__ = ["membership_scatter", "MEMBERSHIP_COLOURS"]

# no cluster, one, several: grey (as unpaired elsewhere), blue and orange, apart for every reader
MEMBERSHIP_COLOURS = (UNPAIRED, "#1f77b4", "#e66100")
_SYMBOLS = ("x-thin-open", "circle", "diamond")


def membership_scatter(X: np.ndarray, counts: np.ndarray, *, title: str = "", max_points: int = 20_000) -> go.Figure:
    """The objects (in 2-D: their first two principal components beyond two coordinates) by how many
    clusters of a cover hold them: none (grey crosses), one (blue dots) or several (orange
    diamonds, drawn on top). Beyond `max_points` an evenly spaced sample of each group is drawn."""
    X2, axis_titles, _ = project_2d(np.asarray(X, dtype=np.float64))
    counts = np.asarray(counts)
    fig = go.Figure()
    for group, (name, colour, symbol) in enumerate(zip(("in no cluster", "in one cluster", "in 2 or more clusters"),
                                                      MEMBERSHIP_COLOURS, _SYMBOLS)):
        members = np.flatnonzero(counts == group if group < 2 else counts >= 2)
        shown = members[np.linspace(0, len(members) - 1, min(len(members), max_points)).astype(int)] \
            if len(members) else members
        fig.add_trace(go.Scattergl(x=X2[shown, 0], y=X2[shown, 1], mode="markers", name=f"{name} ({len(members):,})",
                                   marker={"color": colour, "symbol": symbol, "size": 4 if group == 1 else 6,
                                           "opacity": 0.45 if group == 1 else 0.9},
                                   hoverinfo="skip"))
    fig.update_layout(title_text=title, height=460, margin={"l": 10, "r": 10, "t": 40 if title else 10, "b": 10},
                      legend={"orientation": "h", "y": -0.14, "yanchor": "top"},
                      xaxis={"title": axis_titles[0]}, yaxis={"title": axis_titles[1], "scaleanchor": "x"})
    return fig
