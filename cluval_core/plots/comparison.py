"""Figures of one comparison (no Streamlit here: the app only renders them).

Colours follow the Hungarian pairing: a candidate cluster takes the colour of its reference
partner, so a glance shows which clusters correspond; unpaired clusters are dark grey and
Centroid Index orphans are drawn in red.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.colors import qualitative
from plotly.subplots import make_subplots

from ..report import ComparisonReport

__all__ = ["PALETTE", "project_2d", "partition_scatter", "contingency_heatmap", "mapping_diagram"]

PALETTE = qualitative.Dark24 + qualitative.Light24 + qualitative.Alphabet
UNPAIRED = "#444444"
ORPHAN = "#d62728"
WEBGL_FROM = 2000  # points; beyond this, scatter plots use WebGL


def project_2d(X: np.ndarray, *others):
    """The points in 2-D: themselves when d <= 2, else their first two principal components.

    Returns ``(X2, axis_titles, [each of `others` projected the same way])``; an `others`
    entry that is None stays None (e.g. centroids of a comparison without data).
    """
    X = np.asarray(X, dtype=float)
    if X.shape[1] == 1:
        def project(A):
            return np.c_[A[:, 0], np.zeros(len(A))]
        axes = ("x1", "")
    elif X.shape[1] == 2:
        def project(A):
            return np.asarray(A, dtype=float)
        axes = ("x1", "x2")
    else:
        mean = X.mean(0)
        _, s, vt = np.linalg.svd(X - mean, full_matrices=False)
        share = s**2 / (s**2).sum()

        def project(A):
            return (np.asarray(A, dtype=float) - mean) @ vt[:2].T
        axes = (f"PC1 ({share[0]:.0%})", f"PC2 ({share[1]:.0%})")
    return project(X), axes, [None if A is None else project(A) for A in others]


def _colour(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


def cluster_colours(report: ComparisonReport, side: str) -> list[str]:
    """One colour per cluster: reference cluster i gets colour i, a candidate its partner's."""
    if side == "true":
        return [_colour(i) for i in range(report.k_true)]
    return [_colour(p) if p >= 0 else UNPAIRED for p in report.partner_of_candidate]


def _discrete_colorscale(colours: list[str]):
    """A colorscale that maps the integer i (0..len-1) to colours[i], with no blending."""
    k = len(colours)
    if k == 1:
        return [[0, colours[0]], [1, colours[0]]]
    scale = []
    for i, colour in enumerate(colours):
        scale += [[i / k, colour], [(i + 1) / k, colour]]
    return scale


def partition_scatter(X2: np.ndarray, report: ComparisonReport, side: str, *, title: str = "",
                      axis_titles=("x1", "x2"), orphans=(), centroids: np.ndarray | None = None,
                      max_points: int = 200_000) -> go.Figure:
    """Scatter of one partition, coloured by cluster (candidates by their Hungarian partner).

    `orphans` lists cluster indices of this side that the CI mapping leaves orphaned: their
    centroids are drawn as large red crosses. Clusters left out of the Hungarian pairing have
    hollow square centroids (and unpaired candidate clusters dark grey points). The points
    are one trace coloured through a discrete colour scale, so 100 000 points stay light to
    build and to send.
    """
    codes = report.row_codes if side == "true" else report.col_codes
    labels = report.row_labels if side == "true" else report.col_labels
    colours = cluster_colours(report, side)
    n = len(codes)
    idx = np.arange(n)
    if n > max_points:  # keep the browser responsive: a deterministic thinning
        idx = idx[:: int(np.ceil(n / max_points))]
    scatter = go.Scattergl if len(idx) > WEBGL_FROM else go.Scatter
    shown_labels = labels[codes[idx]]
    if shown_labels.dtype.kind not in "iuf":
        shown_labels = codes[idx]
    fig = go.Figure(scatter(
        x=X2[idx, 0], y=X2[idx, 1], mode="markers", name="points",
        marker=dict(color=codes[idx], colorscale=_discrete_colorscale(colours), cmin=-0.5,
                    cmax=len(colours) - 0.5, size=4 if len(idx) > 5000 else 6, opacity=0.75),
        customdata=shown_labels, hovertemplate="cluster %{customdata}<extra></extra>", showlegend=False,
    ))
    if centroids is not None and len(centroids):
        orphan_set = set(int(o) for o in orphans)
        order = report.row_order if side == "true" else report.col_order
        unpaired = set(int(i) for i in order[report.n_pairs:])
        symbols = ["x" if i in orphan_set else "square-open" if i in unpaired else "diamond"
                   for i in range(len(centroids))]
        sizes = [18 if i in orphan_set else 11 for i in range(len(centroids))]
        edge = [ORPHAN if i in orphan_set else "black" for i in range(len(centroids))]
        fig.add_trace(go.Scatter(
            x=centroids[:, 0], y=centroids[:, 1], mode="markers+text" if len(centroids) <= 40 else "markers",
            name="centroids", text=[f"{v} (unpaired)" if i in unpaired else str(v) for i, v in enumerate(labels)],
            textposition="top center",
            marker=dict(symbol=symbols, size=sizes, color=[ORPHAN if i in orphan_set else c
                                                           for i, c in enumerate(colours)],
                        line=dict(color=edge, width=1.5)),
            hovertemplate="centroid of %{text}<extra></extra>", showlegend=False,
        ))
    fig.update_layout(title=title, margin=dict(l=10, r=10, t=40, b=10), height=420,
                      xaxis_title=axis_titles[0], yaxis_title=axis_titles[1])
    fig.update_yaxes(scaleanchor="x", scaleratio=1)
    return fig


def contingency_heatmap(report: ComparisonReport, *, annotate_up_to: int = 30) -> go.Figure:
    """The contingency table ordered so the Hungarian pairs lie on the diagonal.

    Row and column titles carry the cluster sizes (the marginals); the paired cells are
    outlined.
    """
    t = report.table_ordered
    rows = [f"{report.row_labels[i]} (n={report.row_sizes[i]:g})" for i in report.row_order]
    cols = [f"{report.col_labels[j]} (n={report.col_sizes[j]:g})" for j in report.col_order]
    annotate = max(t.shape) <= annotate_up_to
    fmt = "{:g}" if t.dtype.kind in "iu" else "{:.1f}"
    text = [[fmt.format(v) for v in row] for row in t] if annotate else None
    fig = go.Figure(go.Heatmap(
        z=t, x=np.arange(t.shape[1]), y=np.arange(t.shape[0]), colorscale="Blues", text=text,
        texttemplate="%{text}" if annotate else None, customdata=[[(r, c) for c in cols] for r in rows],
        hovertemplate="reference %{customdata[0]}<br>candidate %{customdata[1]}<br>shared %{z}<extra></extra>",
        colorbar=dict(title="n_ij"),
    ))
    xs, ys = [], []
    for p in range(report.n_pairs):  # one trace outlines every paired cell
        xs += [p - 0.5, p + 0.5, p + 0.5, p - 0.5, p - 0.5, None]
        ys += [p - 0.5, p - 0.5, p + 0.5, p + 0.5, p - 0.5, None]
    fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", line=dict(color=ORPHAN, width=2), hoverinfo="skip",
                             showlegend=False))
    step = max(1, int(np.ceil(max(t.shape) / 40)))  # at most ~40 tick labels per axis
    fig.update_yaxes(autorange="reversed", title="reference", tickvals=list(range(0, t.shape[0], step)),
                     ticktext=rows[::step], showgrid=False, zeroline=False)
    fig.update_xaxes(title="candidate", side="top", tickvals=list(range(0, t.shape[1], step)),
                     ticktext=cols[::step], showgrid=False, zeroline=False)
    size = max(350, min(900, 28 * max(t.shape) + 150))
    fig.update_layout(height=size, margin=dict(l=10, r=10, t=60, b=10))
    return fig


def mapping_diagram(report: ComparisonReport, basis: str = "partition") -> go.Figure:
    """Both nearest-neighbour mappings as bipartite diagrams, orphans in red.

    Left panel: every reference cluster points at its nearest candidate cluster; right panel:
    every candidate cluster points at its nearest reference cluster. Node labels carry the
    in-degree; a target nobody points at is an orphan. Clusters are stacked in the Hungarian
    order (partners side by side), so agreeing clusters give horizontal arrows.
    """
    m = report.mappings[basis]
    rank_true = np.empty(report.k_true, dtype=int)
    rank_true[report.row_order] = np.arange(report.k_true)
    rank_pred = np.empty(report.k_pred, dtype=int)
    rank_pred[report.col_order] = np.arange(report.k_pred)
    fig = make_subplots(rows=1, cols=2, subplot_titles=(
        f"reference → candidate: {len(m['orphans_pred'])} orphan(s)",
        f"candidate → reference: {len(m['orphans_true'])} orphan(s)"))
    panels = [
        (report.row_labels, report.col_labels, m["forward_targets"], m["in_degree_pred"], set(m["orphans_pred"]),
         rank_true, rank_pred),
        (report.col_labels, report.row_labels, m["backward_targets"], m["in_degree_true"], set(m["orphans_true"]),
         rank_pred, rank_true),
    ]
    for col, (src_labels, dst_labels, targets, in_degree, orphans, src_rank, dst_rank) in enumerate(panels, 1):
        y_src = 1 - src_rank / max(len(src_labels) - 1, 1)
        y_dst = 1 - dst_rank / max(len(dst_labels) - 1, 1)
        xs, ys, sizes = [], [], []
        for s, t in enumerate(targets):  # one trace: a segment per arrow, its head as a marker
            xs += [0, 0.97, None]
            ys += [y_src[s], y_dst[t], None]
            sizes += [0, 9, 0]
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines+markers", line=dict(color="#7f7f7f", width=1),
                                 marker=dict(symbol="arrow", angleref="previous", size=sizes, color="#7f7f7f"),
                                 hoverinfo="skip", showlegend=False), row=1, col=col)
        labelled = len(src_labels) <= 40 and len(dst_labels) <= 40
        fig.add_trace(go.Scatter(x=np.zeros(len(y_src)), y=y_src, mode="markers+text" if labelled else "markers",
                                 text=[str(v) for v in src_labels], textposition="middle left",
                                 marker=dict(size=10, color="#1f77b4"), hovertemplate="%{text}<extra></extra>",
                                 showlegend=False), row=1, col=col)
        dst_colour = [ORPHAN if i in orphans else "#2ca02c" for i in range(len(dst_labels))]
        fig.add_trace(go.Scatter(x=np.ones(len(y_dst)), y=y_dst, mode="markers+text" if labelled else "markers",
                                 text=[f"{v} (in {d})" for v, d in zip(dst_labels, in_degree)],
                                 textposition="middle right", marker=dict(size=12, color=dst_colour),
                                 hovertemplate="%{text}<extra></extra>", showlegend=False), row=1, col=col)
    fig.update_xaxes(visible=False, range=[-0.35, 1.35])
    fig.update_yaxes(visible=False, range=[-0.08, 1.08])
    height = max(300, min(1200, 22 * max(report.k_true, report.k_pred) + 120))
    fig.update_layout(height=height, margin=dict(l=10, r=10, t=40, b=10))
    return fig
