"""Figures of one comparison, built from the :class:`~cluval_core.Comparison` itself.

Colours follow the Hungarian pairing: a candidate cluster takes the colour of its reference
partner, so a glance shows which clusters correspond. Pairs that share no object are no
correspondence and are shown as unpaired. Two colours are reserved and never used for a
cluster: grey (:data:`UNPAIRED`) and red (:data:`ORPHAN`, a Centroid Index orphan).

>>> from cluval_core import compare
>>> fig = contingency_heatmap(compare([0, 0, 1, 1, 2], [5, 5, 6, 6, 6]))
>>> fig.data[0].z.tolist()
[[2, 0], [0, 2], [0, 1]]
"""

from __future__ import annotations

import colorsys
import html

import numpy as np
import plotly.graph_objects as go
from plotly.colors import hex_to_rgb, qualitative

from ...core.registry import INDICES
from ...core.validation import CluvalError, check_choice
from .raster import image_extent, points_image

__all__ = ["PALETTE", "UNPAIRED", "ORPHAN", "OUTLINE", "project_2d", "cluster_colour_index", "partition_scatter",
           "contingency_heatmap", "mapping_diagram", "condensed_order", "MAX_SHOWN", "LABELLED_SHARE",
           "CONTRIBUTIONS_WRITTEN_UP_TO"]

UNPAIRED = "#808080"  # mid grey: visible on light and dark backgrounds
ORPHAN = "#e0201b"
OUTLINE = "#f2a900"  # amber: the cells a claim is about, distinct from the pairs' red outline and both scales
IMAGE_FROM = 2000  # points; beyond this, a scatter plot draws its points as one picture
MAX_SHOWN = 60  # clusters per side drawn one by one in the table and the mapping diagram; the rest are grouped
MAX_LABELLED = 40  # clusters per side that get text labels


def _is_cluster_colour(colour: str) -> bool:
    """Not near-black, not grey and not red: those mean 'unpaired' and 'orphan'."""
    r, g, b = (v / 255 for v in hex_to_rgb(colour))
    hue, lightness, saturation = colorsys.rgb_to_hls(r, g, b)
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    reddish = (hue < 0.04 or hue > 0.95) and saturation > 0.35
    return luminance > 0.2 and saturation > 0.25 and not reddish


def _palette() -> list[str]:
    chosen: list[str] = []
    for colour in qualitative.D3 + qualitative.Bold + qualitative.Set2 + qualitative.Light24 + qualitative.Alphabet:
        colour = colour.lower()
        if not colour.startswith("#") or not _is_cluster_colour(colour):
            continue
        rgb = np.array(hex_to_rgb(colour))
        if all(np.abs(rgb - np.array(hex_to_rgb(c))).sum() > 60 for c in chosen):
            chosen.append(colour)
    return chosen


PALETTE = _palette()


def project_2d(X: np.ndarray, *others, names=None):
    """The points in 2-D: themselves when d <= 2, else their first two principal components.

    Returns ``(X2, axis_titles, [each of `others` projected the same way])``; an `others`
    entry that is None stays None (e.g. centroids of a comparison without data). The axis
    titles are the coordinates' `names` when given and d <= 2 (else x1, x2 or PC1, PC2).

    >>> project_2d(np.array([[0.0, 1.0], [2.0, 3.0]]), names=("height", "weight"))[1]
    ('height', 'weight')
    """
    X = np.asarray(X, dtype=float)
    if names is not None and len(names) != X.shape[1]:
        raise CluvalError(f"names must name the {X.shape[1]} coordinates of X, got {len(names)}: {list(names)!r}")
    if X.shape[1] == 1:
        def project(A):
            return np.c_[A[:, 0], np.zeros(len(A))]
        axes = (str(names[0]) if names is not None else "x1", "")
    elif X.shape[1] == 2:
        def project(A):
            return np.asarray(A, dtype=float)
        axes = tuple(str(name) for name in names) if names is not None else ("x1", "x2")
    else:
        mean = X.mean(0)
        _, s, vt = np.linalg.svd(X - mean, full_matrices=False)
        share = s**2 / (s**2).sum()

        def project(A):
            return (np.asarray(A, dtype=float) - mean) @ vt[:2].T
        axes = (f"PC1 ({share[0]:.0%})", f"PC2 ({share[1]:.0%})")
    return project(X), axes, [None if A is None else project(A) for A in others]


def cluster_colour_index(c, side: str) -> np.ndarray:
    """For each cluster of one side, its colour's position in :data:`PALETTE`, or -1 (unpaired).

    Reference clusters are coloured in the pairing's display order (the largest pairs get
    the first colours); a candidate cluster takes its partner's colour.
    """
    pairing = c.hungarian_pairing
    rank = np.empty(c.k_true, dtype=np.intp)
    rank[pairing.row_order] = np.arange(c.k_true)
    colour = rank % len(PALETTE)
    if side == "true":
        return colour
    partner = pairing.col_partner
    return np.where(partner >= 0, colour[np.maximum(partner, 0)], -1)


def _side(c, side: str):
    check_choice("side", side, ("true", "pred"))
    if side == "true":
        return c.row_labels, c.row_sizes, c.codes[0]
    return c.col_labels, c.col_sizes, c.codes[1]


def _mappings(c):
    """The CI mapping the scatter plots mark: centroid-based when the data is known."""
    return c.centroid_mapping if c.has_data else c.jaccard_mapping


def partition_scatter(c, side: str, *, title: str = "", X2=None, centroids=None, axis_titles=None,
                      coordinate_names=None, max_points: int = 200_000, compact: bool = False) -> go.Figure:
    """Scatter of one partition, coloured by cluster (candidates by their Hungarian partner).

    Centroids are small diamonds with a dark rim; hollow squares mark clusters shown as
    unpaired, and a thin red cross a cluster the Centroid Index mapping leaves orphaned (nobody
    maps to it); a legend names them. Labels are placed so that none covers another (a label
    with no free place is left out; hover names every centroid). Up to :data:`IMAGE_FROM` points
    are markers that name their cluster on hover; more are drawn as one picture
    (:func:`~cluval_core.outputs.plots.raster.points_image`, fast at any n), with the overlays
    as vector traces above it. `X2` and `centroids` give 2-D coordinates
    (default: :func:`project_2d` of the comparison's X and its centroids, with the axes titled
    by `coordinate_names`, the names of X's columns, when there are at most two). A `compact`
    figure is lower, has no cluster labels and lets the points fill a narrow column.
    """
    labels, sizes, codes = _side(c, side)
    if X2 is None:
        if not c.has_data:
            raise CluvalError("partition_scatter draws the objects' points: compare the partitions with X=... "
                              "(or give X2, their 2-D coordinates)")
        X2, axis_titles, (centroids,) = project_2d(c.data, c.centroids[0 if side == "true" else 1],
                                                   names=coordinate_names)
    axis_titles = [_text(title) for title in axis_titles or ("x1", "x2")]
    colour = cluster_colour_index(c, side)
    n = len(codes)
    idx = np.arange(n) if n <= max_points else np.arange(0, n, int(np.ceil(n / max_points)))
    # one colour per point: its cluster's in the palette, grey for unpaired
    point_colour = colour[codes[idx]]
    point_colour = np.where(point_colour < 0, len(PALETTE), point_colour)
    scale = PALETTE + [UNPAIRED]
    diameter = 3 if len(idx) > 20_000 else 5 if len(idx) > IMAGE_FROM else 7  # screen pixels
    if len(idx) > IMAGE_FROM:  # one picture of the points, the overlays vector traces above it
        # a little more opaque than markers: overlapping discs do not add up in one picture
        picture = points_image(X2[idx, 0], X2[idx, 1], point_colour, scale, diameter=diameter, opacity=0.85)
        corners_x, corners_y = image_extent(picture)
        fig = go.Figure(go.Scatter(x=corners_x, y=corners_y, mode="markers", name="extent", marker=dict(opacity=0),
                                   hoverinfo="skip", showlegend=False))
        fig.add_layout_image(**picture)
        # a picture lies below the grid: lines across the clusters would read as part of the data
        fig.update_xaxes(showgrid=False, zeroline=False)
        fig.update_yaxes(showgrid=False, zeroline=False)
    else:
        cluster_text = np.array([_text(v) for v in labels], dtype=object)
        fig = go.Figure(go.Scatter(
            x=X2[idx, 0].astype(np.float32), y=X2[idx, 1].astype(np.float32), mode="markers", name="points",
            marker=dict(color=point_colour.astype(np.uint8), colorscale=_discrete_colorscale(scale), cmin=-0.5,
                        cmax=len(scale) - 0.5, size=diameter, opacity=0.7),
            customdata=cluster_text[codes[idx]], hovertemplate="cluster %{customdata}<extra></extra>",
            showlegend=False))
    if centroids is not None and len(centroids):
        forward, backward = _mappings(c)
        orphans = set((backward if side == "true" else forward).orphans.tolist())
        unpaired = set(c.hungarian_pairing.shown_unpaired[0 if side == "true" else 1].tolist())
        kinds = [("orphan" if i in orphans else "unpaired" if i in unpaired else "paired")
                 for i in range(len(centroids))]
        fills = [PALETTE[colour[i]] if colour[i] >= 0 else UNPAIRED for i in range(len(centroids))]
        style = {kind: CENTROID_STYLE[kind] for kind in kinds}
        text = [f"{_text(labels[i])} ({kinds[i]}, n={_size(sizes[i])})" for i in range(len(centroids))]
        # small markers with a dark rim, the orphan's an open cross: the points under them stay visible
        fig.add_trace(go.Scatter(
            x=centroids[:, 0], y=centroids[:, 1], mode="markers", name="centroids", text=text,
            marker=dict(symbol=[style[k][0] for k in kinds], size=[style[k][1] for k in kinds],
                        color=[ORPHAN if k == "orphan" else fills[i] for i, k in enumerate(kinds)],
                        line=dict(color=[ORPHAN if k == "orphan" else "#222222" for k in kinds],
                                  width=[2.5 if k == "orphan" else 1.2 for k in kinds]),
                        opacity=0.9),
            hovertemplate="centroid of %{text}<extra></extra>", showlegend=False))
        for kind, (symbol, size, legend) in style.items():  # a legend entry for each kind of centroid shown
            fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", name=legend, hoverinfo="skip",
                                     marker=dict(symbol=symbol, size=size + 2, line=dict(width=2, color=ORPHAN if
                                                 kind == "orphan" else "#222222"),
                                                 color=ORPHAN if kind == "orphan" else UNPAIRED)))
        if len(centroids) <= MAX_LABELLED and not compact:  # annotations sit above every trace
            # set at once: each add_annotation copies all those before it (quadratic in the labels)
            fig.update_layout(annotations=[
                dict(x=centroids[i, 0], y=centroids[i, 1], text=_text(labels[i]), showarrow=False, xshift=dx,
                     yshift=dy, font=dict(size=10), bgcolor="rgba(255,255,255,0.6)", borderpad=0)
                for i, (dx, dy) in _label_places(centroids, X2[idx]).items()])
    # below the plot, where a long title cannot run into it in a narrow column
    legend = dict(orientation="h", x=0.5, xanchor="center", y=0, yanchor="bottom", yref="container",
                  font=dict(size=11))
    if compact:
        fig.update_layout(title=title, margin=dict(l=0, r=0, t=30, b=0), height=300, showlegend=False)
        return fig
    fig.update_layout(title=title, margin=dict(l=10, r=10, t=40, b=60), height=460, legend=legend,
                      xaxis_title=axis_titles[0], yaxis_title=axis_titles[1])
    fig.update_yaxes(scaleanchor="x", scaleratio=1)
    return fig


# centroid markers: symbol, size (pixels) and legend text; an orphan is an open cross in red, so that
# it differs in shape from a paired centroid for every reader
CENTROID_STYLE = {"paired": ("diamond", 8, "centroid"), "unpaired": ("square-open", 9, "centroid, unpaired"),
                  "orphan": ("x-thin-open", 9, "orphan centroid (CI)")}
LABEL_BOX = (26, 14)  # pixels a centroid's label takes, about, at font size 10


def _label_places(centroids: np.ndarray, points: np.ndarray, plot=(420, 330)) -> dict:
    """Where each centroid's label goes, as a shift in pixels from its centroid: above it, else
    below, right or left, the first place free of the labels placed so far; a label with no
    free place is left out (its cluster is named on hover). `plot` is the plot area's size in
    pixels, about; `points` set the axes' ranges.

    >>> sorted(_label_places(np.array([[0.0, 0.0], [0.0, 0.001]]), np.array([[0.0, 0.0], [1.0, 1.0]])).values())
    [(0, -12), (0, 12)]
    """
    low = np.minimum(points.min(0), centroids.min(0))
    span = np.maximum(np.maximum(points.max(0), centroids.max(0)) - low, 1e-12)
    at = (centroids - low) / span * np.array(plot)  # pixels, y upwards
    width, height = LABEL_BOX
    placed, places = [], {}
    for i in np.argsort(-at[:, 1], kind="stable"):  # from the top down
        for dx, dy in ((0, 12), (0, -12), (width, 0), (-width, 0)):
            centre = at[i] + (dx, dy)
            if all(abs(centre[0] - x) >= width or abs(centre[1] - y) >= height for x, y in placed):
                placed.append(centre)
                places[int(i)] = (dx, dy)
                break
    return places


def _discrete_colorscale(colours: list[str]):
    """A colorscale that maps the integer i (0..len-1) to colours[i], with no blending."""
    k = len(colours)
    if k == 1:
        return [[0, colours[0]], [1, colours[0]]]
    scale = []
    for i, colour in enumerate(colours):
        scale += [[i / k, colour], [(i + 1) / k, colour]]
    return scale


def condensed_order(order: np.ndarray, max_shown: int = MAX_SHOWN) -> tuple[np.ndarray, np.ndarray]:
    """The clusters drawn one by one and those grouped, for a side in display order.

    Up to `max_shown` clusters are all drawn; beyond that, the first ``max_shown - 1`` (the
    largest pairs come first) and one group for the rest.

    >>> condensed_order(np.arange(5), 3)
    (array([0, 1]), array([2, 3, 4]))
    """
    if len(order) <= max_shown:
        return order, order[:0]
    return order[:max_shown - 1], order[max_shown - 1:]


def _condensed_table(c, keep_rows, rest_rows, keep_cols, rest_cols) -> np.ndarray:
    """The table with the kept rows and columns in order and the rest summed into one "other"
    row and column (when there is a rest), from the non-empty cells: no K_a x K_b array."""
    out = np.zeros((len(keep_rows) + bool(len(rest_rows)), len(keep_cols) + bool(len(rest_cols))),
                   dtype=c.cells.values.dtype)
    row_at = np.full(c.k_true, len(keep_rows), dtype=np.intp)  # the "other" row (if any)
    row_at[keep_rows] = np.arange(len(keep_rows))
    col_at = np.full(c.k_pred, len(keep_cols), dtype=np.intp)
    col_at[keep_cols] = np.arange(len(keep_cols))
    r, col, v = c.cells
    np.add.at(out, (row_at[r], col_at[col]), v)
    return out


def plotly_text(value) -> str:
    """A label or name as plotly text: plotly reads a few HTML tags (and their attributes) in
    titles, ticks and hover text, so the label's own markup and quotes are escaped; plotly
    shows the characters themselves.

    >>> plotly_text('<b>x" onmouseover="y</b>')
    '&lt;b&gt;x&quot; onmouseover=&quot;y&lt;/b&gt;'
    """
    return html.escape(str(value), quote=True)


_text = plotly_text


def _size(value) -> str:
    """A cluster size: whole for counts, one decimal for a soft table's sums of memberships."""
    return f"{value}" if isinstance(value, (int, np.integer)) else f"{value:.1f}"


def _axis_labels(labels, sizes, keep, rest) -> list[str]:
    names = [f"{_text(labels[i])} (n={_size(sizes[i])})" for i in keep]
    if len(rest):
        names.append(f"other {len(rest)} (n={_size(sizes[rest].sum())})")
    return names


def _condensed_cells(values: np.ndarray, keep_rows, rest_rows, keep_cols, rest_cols) -> np.ndarray:
    """A dense K_a x K_b array of per-cell values laid out like :func:`_condensed_table`: the kept
    rows and columns in order, the rest summed into one "other" row and column."""
    out = np.zeros((len(keep_rows) + bool(len(rest_rows)), len(keep_cols) + bool(len(rest_cols))))
    row_at = np.full(values.shape[0], len(keep_rows), dtype=np.intp)
    row_at[keep_rows] = np.arange(len(keep_rows))
    col_at = np.full(values.shape[1], len(keep_cols), dtype=np.intp)
    col_at[keep_cols] = np.arange(len(keep_cols))
    np.add.at(out, (row_at[:, None], col_at[None, :]), values)
    return out


COLUMN_ROOM = 0.55  # the heatmap's width for column labels, as a share of the rows' height
TICK_SPACING = 12  # pixels per tick label at the heatmap's smaller font (10 px): closer labels would overlap


def _thinned(n: int, room: float) -> list[int]:
    """Every `step`-th of `n` tick positions (the first and the last always), one per
    :data:`TICK_SPACING` pixels of `room`.

    >>> _thinned(5, 100), _thinned(50, 120)[:4]
    ([0, 1, 2, 3, 4], [0, 5, 10, 15])
    """
    step = max(1, int(np.ceil(n * TICK_SPACING / room)))
    ticks = list(range(0, n, step))
    if ticks[-1] != n - 1:
        if n - 1 - ticks[-1] < step:
            ticks[-1] = n - 1  # the last (often "other") keeps its label without crowding its neighbour
        else:
            ticks.append(n - 1)
    return ticks


CONTRIBUTIONS_WRITTEN_UP_TO = 10  # clusters a side up to which contributions are written in their cells
LABELLED_SHARE = 0.05  # a contribution is written in its cell when it is at least this share of the largest


def _contribution_text(value: float, reach: float) -> str:
    """A cell's contribution in two significant digits, written only where it carries weight
    (at least :data:`LABELLED_SHARE` of the largest in absolute value): the colour shows the rest."""
    if value == 0 or abs(value) < LABELLED_SHARE * reach:
        return ""
    return f"{value:.2g}"


def contingency_heatmap(c, *, colour_by: str = "counts", max_shown: int = MAX_SHOWN,
                        annotate_up_to: int = 30, height: int | None = None, outline: tuple = ()) -> go.Figure:
    """The contingency table ordered so the Hungarian pairs lie on the diagonal, largest first.

    Row and column titles carry the cluster sizes (the marginals); pairs that share objects
    are outlined, clusters shown as unpaired come last. Beyond `max_shown` clusters a side,
    the smallest-overlap ones are summed into one "other" row or column, and the title says so.

    `colour_by` is ``"counts"`` (the shared objects n_ij, on a sequential scale) or an index id
    whose registry entry has an anatomy (``INDICES[id].anatomy``): each cell is then coloured
    and labelled by its contribution to that index (:meth:`Comparison.contributions
    <cluval_core.Comparison.contributions>`), on a diverging scale centred on 0, since
    contributions can be negative. Grouped clusters get the sum of their cells' contributions,
    so the drawn cells still add up, with the constant term, to the index's value. On tables of
    up to :data:`CONTRIBUTIONS_WRITTEN_UP_TO` clusters a side, a cell's number is written where it carries
    weight (at least :data:`LABELLED_SHARE` of the largest contribution, in absolute value);
    every cell's is on hover.

    `height` (pixels) fixes the figure's height, e.g. to fit a first screen; by default it
    grows with the table. Tick labels are thinned to one per :data:`TICK_SPACING` pixels, so
    that none overlap (every cluster is named on hover).

    `outline` names cells to outline in :data:`OUTLINE` (an explanation's claim, for example):
    ``(row, column)`` positions in the comparison's ``row_labels`` and ``col_labels``, None for a
    whole row or column; a cell of a grouped cluster outlines its "other" row or column.

    >>> from cluval_core import compare
    >>> c = compare([0, 0, 1, 1], [0, 0, 1, 1])
    >>> contingency_heatmap(c, colour_by="ari").data[0].z.round(3).tolist()
    [[0.625, -0.125], [-0.125, 0.625]]
    """
    counts = colour_by == "counts"
    if not counts and (colour_by not in INDICES or not INDICES[colour_by].anatomy):
        anatomy = ", ".join(i for i, info in INDICES.items() if info.anatomy)
        raise CluvalError(f"colour_by must be 'counts' or an index with an anatomy of cells ({anatomy}), "
                         f"got {colour_by!r}")
    pairing = c.hungarian_pairing
    keep_rows, rest_rows = condensed_order(pairing.row_order, max_shown)
    keep_cols, rest_cols = condensed_order(pairing.col_order, max_shown)
    t = _condensed_table(c, keep_rows, rest_rows, keep_cols, rest_cols)
    rows = _axis_labels(c.row_labels, c.row_sizes, keep_rows, rest_rows)
    cols = _axis_labels(c.col_labels, c.col_sizes, keep_cols, rest_cols)
    # a contribution takes more digits than a count: written on smaller tables only
    annotate = max(t.shape) <= (annotate_up_to if counts else min(annotate_up_to, CONTRIBUTIONS_WRITTEN_UP_TO))
    integer = t.dtype.kind in "iu"
    shared = [[f"{v:g}" if integer else f"{v:.1f}" for v in row] for row in t.tolist()]
    text = shared if annotate else None
    # the colour scale spans the clusters drawn one by one: a grouped cell may saturate it
    if counts:
        z = t
        hover = [[f"reference {r}<br>candidate {col}" for col in cols] for r in rows]  # at most MAX_SHOWN² cells
        kept = t[:len(keep_rows), :len(keep_cols)]
        zmax = float(kept.max()) if kept.size and kept.max() > 0 else None
        scale = dict(colorscale="Blues", zmin=0, zmax=zmax)
        hovertemplate = "%{hovertext}<br>shared " + ("%{z}" if integer else "%{z:.3f}") + "<extra></extra>"
        colorbar = dict(title="n_ij", thickness=12)
    else:
        parts = c.contributions(colour_by)
        z = _condensed_cells(parts.cells, keep_rows, rest_rows, keep_cols, rest_cols)
        hover = [[f"reference {r}<br>candidate {col}<br>shared {shared[i][j]}" for j, col in enumerate(cols)]
                 for i, r in enumerate(rows)]
        kept = np.abs(z[:len(keep_rows), :len(keep_cols)])
        reach = float(kept.max()) if kept.size and kept.max() > 0 else 1.0
        if annotate:
            text = [[_contribution_text(v, reach) for v in row] for row in z.tolist()]
        # red below 0, blue above, a light neutral at 0
        scale = dict(colorscale="RdBu", zmid=0, zmin=-reach, zmax=reach)
        hovertemplate = "%{hovertext}<br>contribution %{z:.4g}<extra></extra>"
        colorbar = dict(title="share", thickness=12)
    fig = go.Figure(go.Heatmap(
        z=z, x=np.arange(t.shape[1]), y=np.arange(t.shape[0]), text=text,
        texttemplate="%{text}" if annotate else None, hovertext=hover, hovertemplate=hovertemplate,
        colorbar=colorbar, xgap=1 if annotate else 0, ygap=1 if annotate else 0, **scale,
    ))
    shown = min(pairing.n_shown, len(keep_rows), len(keep_cols))
    xs, ys = [], []
    for p in range(shown):  # one trace outlines every pair that shares objects
        xs += [p - 0.5, p + 0.5, p + 0.5, p - 0.5, p - 0.5, None]
        ys += [p - 0.5, p - 0.5, p + 0.5, p + 0.5, p - 0.5, None]
    fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", line=dict(color=ORPHAN, width=2), hoverinfo="skip",
                             showlegend=False))
    if outline:
        fig.add_trace(_outline_trace(outline, keep_rows, keep_cols, *t.shape))
    grouped = []
    if len(rest_rows):
        grouped.append(f"{len(rest_rows)} reference")
    if len(rest_cols):
        grouped.append(f"{len(rest_cols)} candidate")
    note = (f"{c.k_true} × {c.k_pred}: the first {max_shown - 1} a side drawn;<br>"
            f"the other {' and '.join(grouped)}<br>summed as 'other' (not coloured)" if grouped else None)
    size = height or max(360, min(760, 22 * max(t.shape) + 180))
    bottom = 64 if note else 10
    # the rows share what the column titles (about 90 px with the axis title) and the margins leave; the
    # plot is rarely wider than COLUMN_ROOM of that (a narrow column, less the row titles and the colour bar)
    room = max(size - 40 - bottom - 90, TICK_SPACING)
    font = dict(size=10 if max(t.shape) > 20 or room / len(rows) < 14 else 12)
    row_ticks = _thinned(len(rows), room)
    col_ticks = _thinned(len(cols), COLUMN_ROOM * room)
    fig.update_yaxes(title="reference", showgrid=False, zeroline=False, tickfont=font,
                     tickvals=row_ticks, ticktext=[rows[i] for i in row_ticks], range=[len(rows) - 0.5, -0.5])
    fig.update_xaxes(title="candidate", side="top", showgrid=False, zeroline=False, tickfont=font, tickangle=-90,
                     tickvals=col_ticks, ticktext=[cols[i] for i in col_ticks], range=[-0.5, len(cols) - 0.5])
    fig.update_layout(height=size, margin=dict(l=10, r=10, t=40, b=bottom))
    if note:
        # right-aligned under the plot: in a narrow figure it runs leftwards under the row titles
        fig.add_annotation(text=note, x=1, xref="paper", xanchor="right", y=0, yref="paper", yanchor="top", yshift=-8,
                           showarrow=False, align="right", font=dict(size=10))
    return fig


def _outline_trace(cells, keep_rows, keep_cols, n_rows: int, n_cols: int) -> go.Scatter:
    """One trace of rectangles around `cells` ((row, column) positions in the comparison; None for a
    whole row or column) as drawn: kept clusters at their place in the order, grouped ones in the
    "other" row or column (last)."""
    row_at = {int(r): p for p, r in enumerate(keep_rows)}
    col_at = {int(j): p for p, j in enumerate(keep_cols)}
    boxes = set()
    for i, j in cells:
        y = None if i is None else row_at.get(int(i), len(keep_rows))
        x = None if j is None else col_at.get(int(j), len(keep_cols))
        boxes.add(((-0.5, n_cols - 0.5) if x is None else (x - 0.45, x + 0.45),
                   (-0.5, n_rows - 0.5) if y is None else (y - 0.45, y + 0.45)))
    xs, ys = [], []
    for (x0, x1), (y0, y1) in sorted(boxes):
        xs += [x0, x1, x1, x0, x0, None]
        ys += [y0, y0, y1, y1, y0, None]
    return go.Scatter(x=xs, y=ys, mode="lines", line=dict(color=OUTLINE, width=3, dash="dot"), hoverinfo="skip",
                      showlegend=False, name="outlined")


MAPPED, MAPPED_SYMBOL, ORPHAN_SYMBOL = "#2ca02c", "circle", "x-open"  # an orphan differs in shape as well as colour


def mapping_diagram(c, basis: str = "partition", *, max_shown: int = MAX_SHOWN, height: int | None = None) -> go.Figure:
    """Both nearest-neighbour mappings in one diagram: reference, candidate, reference again.

    Arrows from the left column map every reference cluster to its nearest candidate cluster;
    arrows from the middle column map every candidate cluster to its nearest reference
    cluster (right column). A target nobody points at is an orphan, drawn as a red hollow
    cross (a mapped target is a filled green circle: the shapes differ for readers who do not
    tell red from green); a legend says so. Hovering a node gives its in-degree.
    Clusters are stacked in the pairing's display order (partners at the same height), so
    agreeing clusters give horizontal arrows. Beyond `max_shown` clusters a side, the clusters
    where the mappings disagree (orphans, targets of several clusters and the clusters that
    point at them) are drawn first, filled up with the largest pairs; the rest are one
    "other N" node (hovering it gives its number of orphans). `basis` is "partition" (Jaccard) or
    "centroid". `height` (pixels) fixes the figure's height; node texts are written when
    there is room for them.
    """
    check_choice("basis", basis, ("partition", "centroid"))
    forward, backward = c.centroid_mapping if basis == "centroid" else c.jaccard_mapping
    pairing = c.hungarian_pairing
    # the clusters where the two partitions disagree, by either mapping
    row_focus = (backward.in_degree != 1) | (forward.in_degree[forward.targets] != 1)
    col_focus = (forward.in_degree != 1) | (backward.in_degree[backward.targets] != 1)
    row_keep, row_rest = _focused_order(pairing.row_order, row_focus, max_shown)
    col_keep, col_rest = _focused_order(pairing.col_order, col_focus, max_shown)
    ref_y, ref_text, ref_n = _node_positions(c.row_labels, row_keep, row_rest, None)
    cand_y, cand_text, cand_n = _node_positions(c.col_labels, col_keep, col_rest, forward.in_degree)
    back_y, back_text, back_n = _node_positions(c.row_labels, row_keep, row_rest, backward.in_degree)
    size = height or max(300, min(900, 22 * max(ref_n, cand_n) + 140))
    labelled = max(ref_n, cand_n) <= min(MAX_LABELLED, (size - 100) // 12)
    fig = go.Figure()
    for x0, src_y, dst_y, targets in ((0, ref_y, cand_y, forward.targets), (1, cand_y, back_y, backward.targets)):
        arrows = sorted(set(zip(src_y.tolist(), dst_y[targets].tolist())))
        xs, ys, sizes = [], [], []
        for y0, y1 in arrows:  # one trace: a segment per arrow, its head as a marker
            xs += [x0 + 0.04, x0 + 0.93, None]
            ys += [y0, y1, None]
            sizes += [0, 8, 0]
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines+markers", line=dict(color="#8c8c8c", width=1),
                                 marker=dict(symbol="arrow", angleref="previous", size=sizes, color="#8c8c8c"),
                                 hoverinfo="skip", showlegend=False))
    # The right column repeats the left one's clusters at the same heights: its labels are written
    # only when short, so that long ones leave the arrows their room (hover names every node).
    right_labelled = labelled and max((len(str(label)) for label in c.row_labels[row_keep]), default=0) <= SHORT_LABEL
    columns = [(0, ref_n, ref_text, None, "middle left", "reference", labelled),
               (1, cand_n, cand_text, forward, "top right", "candidate", labelled),  # above its outgoing arrow
               (2, back_n, back_text, backward, "middle right", "reference", right_labelled)]
    for x, n_nodes, texts, mapping, position, side, written in columns:
        y = _node_y(n_nodes)
        if mapping is None:
            marker = dict(size=9, color="#1f77b4", symbol=MAPPED_SYMBOL)
        else:
            orphan_y = set((cand_y if mapping is forward else back_y)[mapping.orphans].tolist())
            orphan = [v in orphan_y for v in y.tolist()]
            marker = dict(size=[11 if o else 9 for o in orphan], color=[ORPHAN if o else MAPPED for o in orphan],
                          symbol=[ORPHAN_SYMBOL if o else MAPPED_SYMBOL for o in orphan], line=dict(width=2))
        fig.add_trace(go.Scatter(x=np.full(n_nodes, x), y=y, mode="markers+text" if written else "markers",
                                 text=texts[0], textposition=position, textfont=dict(size=10), marker=marker,
                                 cliponaxis=False, customdata=texts[1],
                                 hovertemplate=f"{side} %{{customdata}}<extra></extra>", showlegend=False))
    for name, colour, symbol in (("mapped to", MAPPED, MAPPED_SYMBOL), ("orphan: nobody maps to it", ORPHAN,
                                                                         ORPHAN_SYMBOL)):
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", name=name, hoverinfo="skip",
                                 marker=dict(size=10, color=colour, symbol=symbol, line=dict(width=2))))
    # short column heads, as the pairing's: long labels can leave the columns little room between them
    for x, text in ((0, "ref"), (1, "cand"), (2, "ref")):
        fig.add_annotation(x=x, y=1.0, yref="paper", yanchor="bottom", text=f"<b>{text}</b>",
                           showarrow=False, font=dict(size=11),
                           hovertext="reference clusters" if text == "ref" else "candidate clusters")
    title = f"orphans: {forward.n_orphans} candidate, {backward.n_orphans} reference"
    fig.update_layout(title=dict(text=title, font=dict(size=12), x=0.5, xanchor="center", y=0.995, yanchor="top"),
                      legend=dict(orientation="h", x=0.5, xanchor="center", y=0, yanchor="top", font=dict(size=11)))
    fig.update_xaxes(visible=False, range=[-0.08, 2.08], fixedrange=True)
    fig.update_yaxes(visible=False, range=[-0.04, 1.06], fixedrange=True)
    # the side columns' texts stand in the margins, sized to them; the whole label is on hover
    margins = (_text_margin(ref_text[0]) if labelled else 5, _text_margin(back_text[0]) if right_labelled else 5)
    fig.update_layout(height=size, margin=dict(l=margins[0], r=margins[1], t=60, b=30),
                      plot_bgcolor="rgba(0,0,0,0)")  # no panel behind the nodes, whatever the template
    return fig


LABEL_CHARS = 18  # characters of a cluster's label written beside its node; the whole label is on hover
SHORT_LABEL = 6  # a label's characters up to which the mapping's right column writes its labels too
CHAR_WIDTH = 6  # px per character of the node texts (10 px font), to size the margins


def shortened(label: str, chars: int = LABEL_CHARS) -> str:
    """A cluster's label cut to `chars` characters, an ellipsis marking the cut (at least its
    first character is kept, however little room there is).

    >>> shortened("Iris-versicolor"), shortened("a label longer than eighteen characters")
    ('Iris-versicolor', 'a label longer th…')
    >>> shortened("setosa", 0), shortened("", 0)
    ('s…', '')
    """
    return label if len(label) <= max(chars, 0) else label[:max(chars - 1, 1)] + "…"


def _text_margin(texts: list[str]) -> int:
    """Pixels beside the plot for the longest of `texts` (plotly's escaped texts; at least 5)."""
    return max(5, CHAR_WIDTH * max((len(html.unescape(t)) for t in texts), default=0) + 14)


def _focused_order(order, focus, max_shown):
    """The clusters drawn one by one, in display `order`, and those grouped: every cluster up to
    `max_shown`, else first the `focus` ones, then the next in order, up to ``max_shown - 1``.

    >>> _focused_order(np.arange(6), np.array([0, 0, 0, 0, 1, 1], bool), 4)
    (array([0, 4, 5]), array([1, 2, 3]))
    """
    if len(order) <= max_shown:
        return order, order[:0]
    ranked = np.r_[order[focus[order]], order[~focus[order]]][:max_shown - 1]
    position = np.empty(len(order), dtype=np.intp)
    position[order] = np.arange(len(order))
    keep = ranked[np.argsort(position[ranked], kind="stable")]
    kept = np.zeros(len(order), dtype=bool)
    kept[keep] = True
    return keep, order[~kept[order]]


def _node_positions(labels, keep, rest, in_degree):
    """y position (1 at the top) of each cluster's node, the node texts and the number of nodes."""
    n_nodes = len(keep) + (1 if len(rest) else 0)
    slot = np.empty(len(keep) + len(rest), dtype=np.intp)
    slot[keep] = np.arange(len(keep))
    slot[rest] = len(keep)
    y = _node_y(n_nodes)[slot]
    texts = [_text(shortened(str(labels[i]))) for i in keep]
    hover = [_text(labels[i]) if in_degree is None else f"{_text(labels[i])}: {in_degree[i]} point(s) at it"
             for i in keep]
    if len(rest):
        orphans = int(np.count_nonzero(in_degree[rest] == 0)) if in_degree is not None else 0
        texts.append(f"other {len(rest)}")
        hover.append(f"{len(rest)} other clusters" + ("" if in_degree is None else f", {orphans} orphan(s)"))
    return y, (texts, hover), n_nodes


def _node_y(n_nodes: int) -> np.ndarray:
    return 1 - np.arange(n_nodes) / max(n_nodes - 1, 1)
