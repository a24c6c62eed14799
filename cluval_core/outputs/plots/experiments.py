"""Figures of the paper reproductions (:mod:`cluval_core.experiments`).

Every figure names its axes, and its legends and subplot titles give index *names* from the
registry (``Pair Sets Index``), never ids. A value column ``"1-nvd"`` (the PSI paper plots
distances as similarities) is labelled ``"1 − Normalised van Dongen"``. Each index's lines,
boxes and bars have its colour (:data:`cluval_core.outputs.plots.colours.INDEX_COLOURS`), the
same as in the app's other figures.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ...core.registry import INDICES
from .colours import index_colour
from .curves import PANELS, panel_of

__all__ = ["index_label", "similarity_grid", "overlap_and_dimension", "seed_boxes", "class_removal",
           "stability_curves", "centroid_index_boxes", "formula_check", "success_rate_bars"]

_MARGIN = dict(l=10, r=10, t=60, b=10)
_LEGEND_BELOW = dict(orientation="h", yanchor="top", y=-0.18, xanchor="left", x=0)
SIMILARITY = "similarity (1 = identical)"


def index_label(key: str) -> str:
    """A value column's name for people: the index's name, ``1 − name`` for a distance shown as a
    similarity, a qualifier kept (``published psi``, ``psi sd``), anything else unchanged.

    >>> index_label("psi"), index_label("1-nvd"), index_label("seed")
    ('Pair Sets Index', '1 − Normalised van Dongen', 'seed')
    >>> index_label("published 1-nvd"), index_label("ari sd")
    ('published 1 − Normalised van Dongen', 'Adjusted Rand index sd')
    """
    if key in INDICES:
        return INDICES[key].name
    if key.startswith("1-") and key[2:] in INDICES:
        return f"1 − {INDICES[key[2:]].name}"
    words = key.split(" ")
    if len(words) == 2 and _is_index(words[1]):
        return f"{words[0]} {index_label(words[1])}"
    if len(words) == 2 and _is_index(words[0]):
        return f"{index_label(words[0])} {words[1]}"
    return key


def _is_index(key: str) -> bool:
    return key in INDICES or (key.startswith("1-") and key[2:] in INDICES)


def similarity_grid(values: pd.DataFrame, x: str, group: str, ids, *, x_titles: dict | None = None,
                    y_title: str = SIMILARITY, cols: int = 3) -> go.Figure:
    """One subplot per value of `group` (titled by it), one line per index over `x`.

    `x_titles` gives each group's x-axis title (the quantity varied in that experiment).
    """
    groups = list(dict.fromkeys(values[group]))
    rows = int(np.ceil(len(groups) / cols))
    fig = make_subplots(rows=rows, cols=cols, subplot_titles=groups, vertical_spacing=0.22 / max(rows - 1, 1),
                        horizontal_spacing=0.07)
    for i, name in enumerate(groups):
        part = values[values[group] == name]
        row, col = i // cols + 1, i % cols + 1
        for key in ids:
            if key not in part:
                continue
            fig.add_trace(go.Scatter(x=part[x], y=part[key], mode="lines", name=index_label(key),
                                     line=dict(color=index_colour(key)), legendgroup=key, showlegend=i == 0),
                          row=row, col=col)
        fig.update_xaxes(title_text=(x_titles or {}).get(name, x), row=row, col=col)
        if col == 1:
            fig.update_yaxes(title_text=y_title, row=row, col=col)
    fig.update_layout(height=360 * rows + 80, margin=_MARGIN, legend=dict(_LEGEND_BELOW, y=-0.08))
    return fig


def overlap_and_dimension(by_overlap: pd.DataFrame, by_dimension: pd.DataFrame, ids, expected: dict) -> go.Figure:
    """Two panels: the indices against the measured overlap, and against the dimension.

    `expected` maps an index column to the column of its expected response (dashed).
    """
    fig = make_subplots(rows=1, cols=2, horizontal_spacing=0.08,
                        subplot_titles=("Overlap varied (d = 8, Fig. 21)", "Dimension varied (15% overlap, Fig. 22)"))
    for key in ids:
        style = dict(color=index_colour(key))
        fig.add_trace(go.Scatter(x=by_overlap["overlap"], y=by_overlap[key], name=index_label(key),
                                 mode="lines+markers", line=style, legendgroup=key), row=1, col=1)
        fig.add_trace(go.Scatter(x=by_dimension["d"], y=by_dimension[key], name=index_label(key), mode="lines+markers",
                                 line=style, legendgroup=key, showlegend=False), row=1, col=2)
    for key, column in expected.items():
        fig.add_trace(go.Scatter(x=by_overlap["overlap"], y=by_overlap[column], mode="lines",
                                 name=f"{index_label(key)}, expected", line=dict(color=index_colour(key), dash="dash")),
                      row=1, col=1)
    fig.update_xaxes(title_text="overlap (share of points nearer the other centroid)", tickformat=".0%", row=1, col=1)
    fig.update_xaxes(title_text="dimension d (log scale)", type="log", tickvals=list(by_dimension["d"]), row=1, col=2)
    fig.update_yaxes(title_text=SIMILARITY, row=1, col=1)
    fig.update_layout(height=480, margin=_MARGIN, legend=_LEGEND_BELOW)
    return fig


def seed_boxes(runs: pd.DataFrame, ids, *, published: dict | None = None, published_name: str = "published",
               title: str = "", y_title: str = SIMILARITY) -> go.Figure:
    """One box per index over the runs (e.g. k-means seeds), the published value as a cross."""
    fig = go.Figure()
    for key in ids:
        fig.add_trace(go.Box(y=runs[key], name=index_label(key), boxpoints="all", jitter=0.4, pointpos=0,
                             marker=dict(color=index_colour(key), size=5), showlegend=False))
    if published:
        fig.add_trace(go.Scatter(x=[index_label(k) for k in published], y=list(published.values()), mode="markers",
                                 name=published_name,  # grey: seen on light and dark backgrounds
                                 marker=dict(symbol="x", size=14, color="#808080")))
    fig.update_layout(title=title, height=460, margin=_MARGIN, xaxis_title="index", yaxis_title=y_title,
                      legend=_LEGEND_BELOW)
    return fig


def class_removal(values: pd.DataFrame, published: pd.DataFrame, ids, *, mode: str = "redistribution") -> go.Figure:
    """Indices against the number of classes left, one line per redistribution rule, published as crosses."""
    fig = go.Figure()
    dashes = ["solid", "dot", "dash"]
    for m, rule in enumerate(values[mode].unique()):
        part = values[values[mode] == rule]
        for key in ids:
            fig.add_trace(go.Scatter(x=part["K"], y=part[key], name=f"{index_label(key)}, {rule}", mode="lines+markers",
                                     line=dict(color=index_colour(key), dash=dashes[m % len(dashes)])))
    for key in ids:
        fig.add_trace(go.Scatter(x=published["K"], y=published[key], name=f"{index_label(key)}, published",
                                 mode="markers", marker=dict(symbol="x", size=13, color=index_colour(key))))
    fig.update_xaxes(autorange="reversed", title="classes left (K)", dtick=1)
    fig.update_layout(height=460, margin=_MARGIN, yaxis_title="similarity to the original partition",
                      legend=_LEGEND_BELOW)
    return fig


# The stability curve's axes, by the kind of index drawn on them (cluval_core.plots.curves.PANELS).
_STABILITY_AXES = {"similarity": "mean similarity to the full clustering",
                   "distance": "mean distance to the full clustering<br>(lower is more stable)",
                   "unbounded similarity": "mean similarity (unbounded)",
                   "unbounded distance": "mean distance (unbounded)<br>(lower is more stable)"}


def _stability_panel(key: str) -> str:
    """The axis of a value column: ``1-nvd`` (a distance shown as a similarity) is a similarity."""
    if key.startswith("1-") and key[2:] in INDICES:
        return "similarity"
    return panel_of(key)


def stability_curves(values: pd.DataFrame, ids, *, true_k: int | None = None, best_k: dict | None = None) -> go.Figure:
    """Each index's stability against k (:func:`cluval_core.stability.stability_curve`).

    `values` has a column ``k`` and one column per entry of `ids`: index ids of the registry,
    or ``1-id`` for a distance shown as a similarity (the PSI paper's ``1-nvd``). Indices of
    different kinds get axes of their own, one below the other: similarities, distances
    (lower is more stable), and indices without an upper bound. `best_k` (index id -> k, as
    ``StabilityCurve.best_k``) marks each index's most stable k with a star; `true_k` draws
    the ground truth's number of clusters as a dashed line.

    >>> import pandas as pd
    >>> values = pd.DataFrame({"k": [2, 3, 4], "ari": [0.7, 1.0, 0.8], "vi": [0.5, 0.0, 0.4]})
    >>> fig = stability_curves(values, ["ari", "vi"], best_k={"ari": 3, "vi": 3})
    >>> [trace.name for trace in fig.data]
    ['Adjusted Rand index', 'Adjusted Rand index: most stable k', 'Variation of information', \
'Variation of information: most stable k']
    >>> list(fig.data[3].x), list(fig.data[3].y)
    ([3], [0.0])
    """
    ids = list(ids)
    panels = {}
    for key in ids:
        panels.setdefault(_stability_panel(key), []).append(key)
    panels = {panel: panels[panel] for panel in PANELS if panel in panels}
    rows = len(panels)
    fig = make_subplots(rows=rows, cols=1, shared_xaxes=True, vertical_spacing=0.1,
                        row_heights=[2.0] + [1.0] * (rows - 1) if rows > 1 else None)
    for row, (panel, members) in enumerate(panels.items(), start=1):
        for key in members:
            colour = index_colour(key)
            fig.add_trace(go.Scatter(x=values["k"], y=values[key], name=index_label(key), mode="lines+markers",
                                     line=dict(color=colour), legendgroup=key,
                                     hovertemplate="k = %{x}: %{y:.4f}<extra>" + index_label(key) + "</extra>"),
                          row=row, col=1)
            best = (best_k or {}).get(key)
            if best is not None:
                at = values.loc[values["k"] == best, key]
                fig.add_trace(go.Scatter(x=[best], y=at.tolist(), name=f"{index_label(key)}: most stable k",
                                         mode="markers", legendgroup=key, showlegend=False,
                                         marker=dict(symbol="star", size=16, color=colour,
                                                     line=dict(width=1, color="#808080")),
                                         hovertemplate=f"most stable by {index_label(key)}: k = %{{x}}<extra></extra>"),
                              row=row, col=1)
        fig.update_yaxes(title_text=_STABILITY_AXES[panel], row=row, col=1)
    if true_k is not None:
        fig.add_vline(x=true_k, line=dict(dash="dash", color="#808080"),
                      annotation_text=f"{true_k} clusters in the ground truth", annotation_position="top left")
    ks = list(values["k"])
    if len(ks) <= 30:
        fig.update_xaxes(tickvals=ks)
    fig.update_xaxes(title_text="number of clusters k", row=rows, col=1)
    fig.update_layout(height=460 + 200 * (rows - 1), margin=_MARGIN, legend=_LEGEND_BELOW)
    return fig


def centroid_index_boxes(values: pd.DataFrame, ids=("ci_centroid", "ci_partition")) -> go.Figure:
    """The centroid indices of each (data set, algorithm) over its runs, side by side."""
    groups = values["data"] + " · " + values["algorithm"].str.replace(r" \(.*\)", "", regex=True)
    fig = go.Figure()
    for key in ids:
        fig.add_trace(go.Box(x=groups, y=values[key], name=index_label(key), boxpoints="all", pointpos=0,
                             marker=dict(color=index_colour(key), size=5), line=dict(color=index_colour(key))))
    fig.update_layout(boxmode="group", height=460, margin=_MARGIN, xaxis_title="data set · algorithm",
                      yaxis_title="clusters wrongly located (CI)", legend=_LEGEND_BELOW,
                      title="Centroid index against the ground truth (0 = every cluster found)")
    return fig


def formula_check(frame: pd.DataFrame, columns: dict, *, title: str = "") -> go.Figure:
    """Values of several columns (e.g. computed and from a formula) for each (k, n) row of `frame`."""
    fig = go.Figure()
    where = [f"k = {k}, n = {n}" for k, n in zip(frame["k"], frame["n"])]
    # filled, crossed and open markers of decreasing size, so that coinciding values stay visible
    styles = [dict(symbol="circle", size=7), dict(symbol="x", size=9), dict(symbol="circle-open", size=15,
                                                                             line=dict(width=2))]
    for j, (column, name) in enumerate(columns.items()):
        fig.add_trace(go.Scatter(x=np.arange(1, len(frame) + 1), y=frame[column], name=name, mode="markers",
                                 text=where, hovertemplate="%{text}: %{y:.6f}", marker=styles[j % len(styles)]))
    fig.update_layout(title=title, height=440, margin=_MARGIN, xaxis_title="(k, n) combination, by k then n",
                      yaxis_title=f"{INDICES['ri'].name} (RI)", legend=_LEGEND_BELOW)
    return fig


def success_rate_bars(values: pd.DataFrame, columns: dict, *, group: str = "data") -> go.Figure:
    """Grouped bars: one group per row (data set), one bar per index; `columns` maps a value column
    to its index id."""
    fig = go.Figure()
    for column, index_id in columns.items():
        fig.add_trace(go.Bar(x=values[group], y=values[column], name=f"{index_label(index_id)} ({column})",
                             marker=dict(color=index_colour(index_id))))
    fig.update_layout(barmode="group", height=460, margin=_MARGIN, xaxis_title="data set",
                      yaxis=dict(title="success rate (share of runs)", range=[0, 1.05], tickformat=".0%"),
                      legend=_LEGEND_BELOW)
    return fig
