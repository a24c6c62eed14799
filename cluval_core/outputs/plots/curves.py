"""Figures of index values along a parameter or across groups (scenarios, algorithms, soft vs crisp).

Indices of different kinds do not share one axis: similarities in [0, 1] (or [-1, 1]) are drawn
together, distances in [0, 1] apart (or as 1 − distance, named so, when asked), and indices
without an upper bound (MI, VI, CI) on an axis of their own. What kind an index is comes from
the registry (:data:`cluval_core.INDICES`: ``higher_is_better``, ``range``). Every line has its
own dash and marker, so that overlapping curves stay distinguishable, and its index's colour
(:data:`cluval_core.outputs.plots.colours.INDEX_COLOURS`, the same on every page and in the
light and dark themes). An axis that holds only counts (CI) has whole-number ticks.
"""

from __future__ import annotations

import math

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ...core.registry import INDICES, index_ids
from .colours import index_colour, translucent
from .comparison import UNPAIRED

__all__ = ["index_curves", "score_bars", "curve_name", "drawn_as_similarity", "panel_of", "PANELS",
           "LINE_DASHES", "MARKER_SYMBOLS", "count_ticks", "series_over"]

LINE_DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")
MARKER_SYMBOLS = ("circle", "square", "diamond", "triangle-up", "x", "cross", "triangle-down", "star",
                  "pentagon", "hexagram")
# The kinds of axis, in the order their panels are drawn, with each axis's title.
PANELS = {"similarity": "similarity<br>(higher is better)",
          "distance": "distance<br>(lower is better)",
          "unbounded similarity": "unbounded similarity<br>(higher is better)",
          "unbounded distance": "unbounded distance<br>(lower is better)"}
# Soft against crisp (and other series) keep their colour and pattern in every panel: colours that
# read on a light and on a dark background.
SERIES_COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd")
LINE_WIDTH, HIGHLIGHT_WIDTH = 2, 4  # a line's width; a highlighted index's (the subject of a page)
SERIES_PATTERNS = ("", "/", ".", "x")
BAR_TEXT_UP_TO = 8  # bars per panel that carry their value as text; beyond that, values are on hover only


def _bounded(index_id: str) -> bool:
    """A finite upper end: MI, VI and CI have none (AMI's open lower end is never reached in practice)."""
    return not math.isinf(INDICES[index_id].range[1])


def drawn_as_similarity(index_id: str, as_similarity: bool = True) -> bool:
    """True when `index_id` is a distance in [0, 1] that a figure with ``as_similarity`` draws as 1 − distance.

    >>> drawn_as_similarity("nvd"), drawn_as_similarity("ari"), drawn_as_similarity("vi")
    (True, False, False)
    """
    info = INDICES[index_id]
    return as_similarity and not info.higher_is_better and tuple(info.range) == (0, 1)


def panel_of(index_id: str, as_similarity: bool = False) -> str:
    """The axis (a key of :data:`PANELS`) an index is drawn on.

    Similarities with a finite best value (ARI, NMI, PSI; AMI too, whose lower end is open)
    share ``"similarity"``; distances in [0, 1] are ``"distance"`` unless drawn as
    1 − distance; MI, VI and CI have no upper bound and get an axis of their own.

    >>> [panel_of(i) for i in ("ari", "ami", "nvd", "vi", "mi")]
    ['similarity', 'similarity', 'distance', 'unbounded distance', 'unbounded similarity']
    >>> panel_of("nvd", as_similarity=True)
    'similarity'
    """
    info = INDICES[index_id]
    if drawn_as_similarity(index_id, as_similarity):
        return "similarity"
    if not _bounded(index_id):
        return "unbounded similarity" if info.higher_is_better else "unbounded distance"
    return "similarity" if info.higher_is_better else "distance"


def curve_name(index_id: str, as_similarity: bool = False, names=None) -> str:
    """The legend name of an index: its registry name, ``1 − name`` when drawn as 1 − distance.

    >>> curve_name("nvd", as_similarity=True), curve_name("nvd")
    ('1 − Normalised van Dongen', 'Normalised van Dongen')
    """
    name = (names or {}).get(index_id, INDICES[index_id].name)
    return f"1 − {name}" if drawn_as_similarity(index_id, as_similarity) else name


def _panels(ids, as_similarity: bool) -> dict:
    """{panel: [ids drawn on it]} in :data:`PANELS` order, only the panels that are used."""
    by_panel = {panel: [] for panel in PANELS}
    for index_id in index_ids(ids):
        by_panel[panel_of(index_id, as_similarity)].append(index_id)
    return {panel: members for panel, members in by_panel.items() if members}


def _style(position: int) -> dict:
    return dict(dash=LINE_DASHES[position % len(LINE_DASHES)],
                symbol=MARKER_SYMBOLS[position % len(MARKER_SYMBOLS)])


def _decreasing(values) -> bool:
    values = pd.Series(values).dropna()
    return len(values) > 1 and bool(values.is_monotonic_decreasing) and values.iloc[0] != values.iloc[-1]


def count_ticks(members, values) -> dict:
    """Axis settings for a panel: whole-number ticks when every index on it is a count (CI), else none.

    >>> count_ticks(["ci_centroid"], [0, 1, 4])
    {'tickformat': 'd', 'tick0': 0, 'dtick': 1}
    >>> count_ticks(["ci_centroid"], [0, 30]), count_ticks(["vi"], [0.5, 1.2])
    ({'tickformat': 'd', 'tick0': 0, 'dtick': 5}, {})
    """
    if not members or not all(INDICES[i].integer_valued for i in members):
        return {}
    finite = [abs(float(v)) for v in values if pd.notna(v) and math.isfinite(float(v))]
    largest = max(finite, default=0.0)
    step = 1
    while largest / step > 8:  # at most about eight ticks: 1, 2, 5, 10, 20, 50, ...
        step = step * 5 // 2 if str(step)[0] == "2" else step * 2
    return dict(tickformat="d", tick0=0, dtick=step)


def index_curves(frame: pd.DataFrame, parameter: str, ids, *, current=None, names=None,
                 as_similarity: bool = False, bands: pd.DataFrame | None = None, highlight=()) -> go.Figure:
    """One line per index over a scenario's parameter, the current position marked.

    Each index has its own dash and marker symbol. With ``as_similarity=True`` distances in
    [0, 1] (NVD, NVI, CH) are drawn as 1 − distance, and named so in the legend, so that up is
    better for every line of the first panel. Indices of another kind (a distance not turned
    round, an index without upper bound) are drawn in a panel below, on their own axis. The x
    axis runs in the order of ``frame[parameter]``: decreasing values are drawn right to left
    as they come, so the axis reads like a slider over the same values.

    `bands` (as :func:`cluval_core.experiments.scenario_chance` gives them: the parameter,
    ``index``, ``expected`` and ``sd``) draws each index's chance band behind its line: the
    expected value ± 2 SD under the permutation model, a translucent band in the line's colour
    (turned round with the line for a distance drawn as 1 − distance). With bands, each line
    takes its colour from :data:`BAND_COLOURS` rather than the template, so that line and band
    match. Every line has its index's colour (:func:`~cluval_core.outputs.plots.colours.index_colour`);
    the indices in `highlight` (a page's subject) are drawn wider, above the others.
    """
    ids = list(ids)
    highlight = set(highlight)
    panels = _panels(ids, as_similarity)
    rows = len(panels)
    fig = make_subplots(rows=rows, cols=1, shared_xaxes=True, vertical_spacing=0.08,
                        row_heights=[2.0] + [1.0] * (rows - 1) if rows > 1 else None)
    # styles follow the drawing order (panel by panel), so that neighbouring lines never share both
    position = {index_id: k for k, index_id in enumerate(i for members in panels.values() for i in members)}
    for row, (panel, members) in enumerate(panels.items(), start=1):
        for index_id in members:
            style = _style(position[index_id])
            values = frame[index_id]
            turned = drawn_as_similarity(index_id, as_similarity)
            if turned:
                values = 1 - values
            name = curve_name(index_id, as_similarity, names)
            colour = index_colour(index_id)
            if bands is not None:
                band = bands[bands["index"] == index_id]
                low, high = band["expected"] - 2 * band["sd"], band["expected"] + 2 * band["sd"]
                if turned:
                    low, high = 1 - high, 1 - low
                for edge, fill in ((high, None), (low, "tonexty")):  # the area between the two edges
                    fig.add_trace(go.Scatter(
                        x=band[parameter], y=edge, mode="lines", line=dict(width=0, color=colour), fill=fill,
                        fillcolor=translucent(colour, 0.3), name=f"{name}: expected by chance ± 2 SD",
                        legendgroup=index_id, showlegend=False, hoverinfo="skip"), row=row, col=1)
            fig.add_trace(go.Scatter(
                x=frame[parameter], y=values, mode="lines+markers", name=name,
                line=dict(dash=style["dash"], width=HIGHLIGHT_WIDTH if index_id in highlight else LINE_WIDTH,
                          color=colour),
                marker=dict(symbol=style["symbol"], size=9 if index_id in highlight else 7, color=colour),
                legendgroup=index_id, legendrank=position[index_id], hovertemplate="%{y:.4f}"), row=row, col=1)
        fig.update_yaxes(title_text=PANELS[panel], row=row, col=1,
                         **count_ticks(members, frame[members].to_numpy().ravel()))
    # a highlighted line is drawn last, above the others
    fig.data = sorted(fig.data, key=lambda trace: trace.legendgroup in highlight and trace.mode != "lines")
    if current is not None:  # grey: no index's colour, seen on light and dark backgrounds
        fig.add_vline(x=current, line=dict(color=UNPAIRED, dash="dash", width=1.5), row="all", col=1)
    reversed_x = _decreasing(frame[parameter])
    fig.update_xaxes(autorange="reversed" if reversed_x else True)
    fig.update_xaxes(title_text=parameter, row=rows, col=1)
    legend_rows = math.ceil(len(ids) / 2)
    fig.update_layout(height=430 + 170 * (rows - 1) + 22 * legend_rows, margin=dict(l=10, r=10, t=30, b=10),
                      hovermode="x unified", legend=dict(orientation="h", yanchor="top", y=-0.16 if rows == 1 else -0.1,
                                                         xanchor="left", x=0, font=dict(size=13)))
    return fig


def score_bars(frame: pd.DataFrame, group: str, ids, *, names=None, series=None,
               as_similarity: bool = False, height: int = 420, text: bool = True) -> go.Figure:
    """Grouped bars of index values, one panel (with its own y axis) per kind of index.

    Without `series`: one group of bars per row of `frame` (named in column `group`, e.g. an
    algorithm), one bar per index id in `ids` (columns of `frame`). With ``series`` (columns
    of `frame`, e.g. ``["soft", "crisp"]``): `frame` has one row per index, its id in column
    `group`; the indices in `ids` are the groups along x and each series is one bar in every
    group, in the same colour and pattern in every panel. `names` maps index ids, and series,
    to the names shown.

    Similarities, distances in [0, 1] and unbounded indices (MI, VI, CI) are drawn in separate
    panels side by side, each axis titled with its kind. A bar carries its value as text only
    while its panel has at most :data:`BAR_TEXT_UP_TO` bars (and the text fits), never with
    ``text=False`` (a table beside the figure gives the values) except on a panel of counts (CI),
    where a zero would show no bar at all; the value is always on hover. With two panels, the
    second one's axis is on the right, clear of the first panel's bars. Without `series`, each
    index's bars have its colour (:func:`~cluval_core.outputs.plots.colours.index_colour`); an
    axis of counts (CI) has whole-number ticks.
    """
    ids = list(ids)
    names = names or {}
    panels = _panels(ids, as_similarity)
    bars_per_group = len(series) if series else 1
    widths = [len(members) * bars_per_group + 1 for members in panels.values()]
    fig = make_subplots(rows=1, cols=len(panels), column_widths=widths,
                        horizontal_spacing=0.1 if len(panels) > 1 else 0)
    for col, (panel, members) in enumerate(panels.items(), start=1):
        if series:
            rows = frame.set_index(group).loc[members]
            categories = [curve_name(i, as_similarity, names) for i in members]
            bars = [(name, rows[name], position) for position, name in enumerate(series)]
        else:
            categories = list(frame[group])
            bars = [(index_id, frame[index_id], ids.index(index_id)) for index_id in members]
        counts = not series and all(INDICES[i].integer_valued for i in members)  # a zero count's bar is invisible
        labelled = (text or counts) and len(bars) * len(categories) <= BAR_TEXT_UP_TO
        drawn = []
        for key, values, position in bars:
            values = [float(v) for v in values]
            if not series and drawn_as_similarity(key, as_similarity):
                values = [1 - v for v in values]
            drawn.extend(v for v in values if pd.notna(v))
            integer = not series and INDICES[key].integer_valued
            text = [(f"{v:.0f}" if integer else f"{v:.2f}") for v in values] if labelled else None
            name = names.get(key, key) if series else curve_name(key, as_similarity, names)
            # a series keeps one colour across panels; an index has its own colour
            marker = dict(color=SERIES_COLOURS[position % len(SERIES_COLOURS)],
                          pattern=dict(shape=SERIES_PATTERNS[position % len(SERIES_PATTERNS)])) if series \
                else dict(color=index_colour(key))
            fig.add_trace(go.Bar(x=categories, y=values, name=name, legendgroup=name,
                                 showlegend=col == 1 or not series, text=text,
                                 textposition="outside" if labelled else "none", cliponaxis=False, marker=marker,
                                 hovertemplate=f"%{{x}}<br>{name}: %{{y:.4f}}<extra></extra>"), row=1, col=col)
        if panel.startswith("unbounded"):
            fig.update_yaxes(rangemode="tozero", row=1, col=col, **({} if series else count_ticks(members, drawn)))
        else:
            fig.update_yaxes(range=[1.1 * min([0.0] + drawn), 1.12 if labelled else 1.02], row=1, col=col)
        fig.update_yaxes(title_text=PANELS[panel], title_font=dict(size=12), row=1, col=col,
                         side="right" if col == 2 == len(panels) else "left")
        long_names = sum(len(str(c)) for c in categories) > 10 * len(categories) or len(categories) > 6
        fig.update_xaxes(tickangle=-35 if long_names else 0, automargin=True, row=1, col=col)
    fig.update_layout(barmode="group", height=height, margin=dict(l=10, r=10, t=40, b=10),
                      uniformtext=dict(minsize=10, mode="hide"),
                      legend=dict(orientation="h", yanchor="bottom", y=1.02, xanchor="right", x=1))
    return fig


def series_over(frame: pd.DataFrame, parameter: str, series, *, current=None, title: str = "",
                value_title: str = "value", ends: dict | None = None) -> go.Figure:
    """One line per series (a clustering, say: the columns `series` of `frame`) along `parameter`,
    each with its own colour, dash and marker; `current` marks the parameter's value shown, `ends`
    ({parameter value: name}) names special values on the axis (q = 1: AMI, q = 2: ARI)."""
    fig = go.Figure()
    for k, name in enumerate(series):
        fig.add_trace(go.Scatter(
            x=frame[parameter], y=frame[name], mode="lines+markers", name=str(name),
            line=dict(color=SERIES_COLOURS[k % len(SERIES_COLOURS)], width=LINE_WIDTH,
                      dash=LINE_DASHES[k % len(LINE_DASHES)]),
            marker=dict(symbol=MARKER_SYMBOLS[k % len(MARKER_SYMBOLS)], size=7),
            hovertemplate=f"{name}<br>{parameter} = %{{x:g}}<br>{value_title} = %{{y:.4f}}<extra></extra>"))
    if current is not None:
        fig.add_vline(x=current, line=dict(color="grey", dash="dot", width=1))
    ticks = sorted(set(frame[parameter]))
    labels = [f"{value:g}" + (f"<br>{ends[value]}" if ends and value in ends else "") for value in ticks]
    fig.update_xaxes(title=parameter, tickvals=ticks, ticktext=labels)
    fig.update_yaxes(title=value_title)
    fig.update_layout(title=title, height=380, margin=dict(l=10, r=10, t=40 if title else 10, b=10),
                      legend=dict(orientation="h", y=-0.25), meta="series_over")
    return fig
