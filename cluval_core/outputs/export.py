"""What leaves cluval: strict JSON, display-ready tables, files that say where they come from.

Python's ``json`` writes ``NaN`` and ``Infinity`` by default, which are not JSON: other
readers refuse the file. Every JSON cluval writes goes through :func:`to_json`.

>>> print(to_json({"ari": 1.0, "psi": float("nan"), "k": np.int64(3)}, indent=None))
{"ari": 1.0, "psi": null, "k": 3}

Every file carries its provenance (:func:`provenance`): CSV files as ``# key: value`` lines
before the header (``pandas.read_csv(..., comment="#")`` skips them), JSON files under a
``"provenance"`` key, and the one-file HTML report in its header.
"""

from __future__ import annotations

import csv
import datetime
import html
import json
import math
import numbers

import numpy as np
import pandas as pd

from .._version import __version__
from ..core.registry import FAMILIES, INDICES, get_index, headline_ids
from ..core.validation import CluvalError
from .plots import contingency_heatmap, mapping_diagram, partition_scatter
from .plots.comparison import shortened

__all__ = ["json_safe", "to_json", "format_value", "reachable", "chance_sentence", "score_table", "contingency_frame",
           "provenance", "csv_with_provenance", "json_with_provenance", "html_report", "report_figures", "handout_html"]


def _key(key):
    """A mapping's key as JSON can hold it: text, a whole number or a finite number (as text)."""
    if isinstance(key, np.generic):
        key = key.item()
    if key is not None and not isinstance(key, (str, int, float, bool)):
        raise CluvalError(f"a key of {type(key).__name__} {key!r} cannot be written as JSON: keys are text or numbers")
    if isinstance(key, float) and not math.isfinite(key):
        raise CluvalError(f"the key {key!r} cannot be written as JSON (not a finite number)")
    return key


def json_safe(value):
    """`value` with numpy scalars and arrays as Python values, non-finite floats as None, and a
    pandas table as ``{row: {column: value}}`` (a Series as ``{row: value}``)."""
    if isinstance(value, pd.DataFrame):
        value = value.to_dict(orient="index")
    elif isinstance(value, pd.Series):
        value = value.to_dict()
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {_key(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [json_safe(v) for v in value]
    return value


def to_json(value, *, indent: int | None = 1) -> str:
    """Strict JSON text of `value` (NaN and infinities as null; never ``NaN`` in the output)."""
    return json.dumps(json_safe(value), indent=indent, allow_nan=False)


# ---------------------------------------------------------------------- for people
def _number(value: float) -> str:
    if math.isinf(value):
        return "∞" if value > 0 else "−∞"
    return f"{value:g}"


def format_value(index_id: str, value: float, digits: int = 4) -> str:
    """A value for display, honest to the digits shown.

    Integer-valued indices (the Centroid Index, the counts) print whole values as whole numbers; NaN is "undefined".
    Others get `digits` decimals, and more when rounding would show a value they do not
    have: a bound of the range, the best value or 0 (0.99998 is not shown as "1").

    >>> format_value("ci_partition", 3.0), format_value("psi", 0.5), format_value("ari", float("nan"))
    ('3', '0.5', 'undefined')
    >>> format_value("ari", 0.99998), format_value("ari", 1.0), format_value("nvd", 2e-7)
    ('0.99998', '1', '0.0000002')
    >>> format_value("pmi2", 3.3180876568832246e-23)
    '3.318e-23'
    """
    info = get_index(index_id)  # an unknown id is a CluvalError naming the valid ones
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise CluvalError(f"value must be a number, got {value!r}")
    value = float(value)
    if value != value:
        return "undefined"
    if math.isinf(value):
        return _number(value)
    if info.integer_valued and value.is_integer():  # a count; on weighted tables it may have decimals
        return f"{value:.0f}"
    landmarks = {info.best, *info.range, 0.0}
    for places in range(digits, 16):
        shown = f"{value:.{places}f}".rstrip("0").rstrip(".")
        if shown == "-0":
            shown = "0"
        if float(shown) == value or float(shown) not in landmarks:
            return shown
    if abs(value) < 10.0 ** -digits:  # a tiny value that every fixed rounding shows as 0
        return f"{value:.{digits - 1}e}"
    return repr(value)


def reachable(index_id: str, low: float, high: float, low_exact: bool = True, high_exact: bool = True) -> str:
    """An attainable range (:meth:`Comparison.attainable <cluval_core.Comparison.attainable>`) in
    words: "low … high", an end that is only a value some table reaches marked "≤" (the lowest
    value is at most this) or "≥" (the highest is at least this).

    >>> reachable("ari", -0.21621621621621623, 1.0), reachable("psi", 0.0008, 1.0, False, True)
    ('−0.2162 … 1', '≤ 0.0008 … 1')
    """
    if low != low or high != high:
        return "undefined"
    left = format_value(index_id, low).replace("-", "−")
    right = format_value(index_id, high).replace("-", "−")
    return f"{'' if low_exact else '≤ '}{left} … {'' if high_exact else '≥ '}{right}"


def chance_sentence(index_id: str, value: float, chance: pd.DataFrame, attainable: pd.DataFrame) -> str:
    """One index's value against chance and against what its sizes allow, in one sentence:
    "ARI is 0.79; by chance 0.00 ± 0.01; for these sizes it can reach −0.12 … 1."."""
    info = get_index(index_id)

    def number(v: float) -> str:
        return format_value(index_id, v).replace("-", "−")

    text = f"{info.name} is {number(value)}"
    if index_id in chance.index and chance.loc[index_id, "expected"] == chance.loc[index_id, "expected"]:
        expected, sd = chance.loc[index_id, "expected"], chance.loc[index_id, "sd"]
        text += f"; by chance {number(expected)}"
        if sd == sd:
            text += f" ± {sd:.2g}"
    if index_id in attainable.index:
        row = attainable.loc[index_id]
        text += ("; for these sizes it can reach "
                 + reachable(index_id, row["low"], row["high"], bool(row["low_exact"]), bool(row["high_exact"])))
    return text + "."


def score_table(scores: dict, chance: pd.DataFrame | None = None, uncertainty: pd.DataFrame | None = None,
                attainable: pd.DataFrame | None = None) -> pd.DataFrame:
    """The registry's facts next to each value: family, name, id, value, range, best, ...

    With `chance` (a :meth:`Comparison.chance <cluval_core.Comparison.chance>` frame) the table
    gains each index's ``expected`` value under the frame's random model, the Monte Carlo standard
    error of that expectation (``expected error``, empty when it is exact), ``sd``, ``z``, ``p``
    and the value ``adjusted`` for chance; with `uncertainty` (:meth:`Comparison.uncertainty
    <cluval_core.Comparison.uncertainty>`) its standard error ``se`` and interval ``low`` to
    ``high``; with `attainable` (:meth:`Comparison.attainable <cluval_core.Comparison.attainable>`)
    the range its cluster sizes allow, in words (``reachable``, see :func:`reachable`). An index
    missing from a frame gets empty cells there.
    """
    rows = []
    for index_id, value in scores.items():
        info = INDICES[index_id]
        row = {
            "family": FAMILIES[info.family], "index": info.name, "id": index_id, "value": value,
            "range": f"[{_number(info.range[0])}, {_number(info.range[1])}]", "best": _number(info.best),
            "better": "higher" if info.higher_is_better else "lower",
            "chance adjusted": info.chance_adjusted, "symmetric": info.symmetric, "formula": info.formula,
        }
        if chance is not None:
            known = index_id in chance.index
            facts = chance.loc[index_id] if known else None
            row.update({"expected": facts["expected"] if known else math.nan,
                        "expected error": facts["mc_error"] if known and facts["method"] != "exact" else math.nan,
                        "sd": facts["sd"] if known else math.nan, "z": facts["z"] if known else math.nan,
                        "p": facts["p"] if known else math.nan,
                        "adjusted": facts.get("adjusted", math.nan) if known else math.nan})
        if uncertainty is not None:
            known = index_id in uncertainty.index
            for column in ("se", "low", "high"):
                row[column] = uncertainty.loc[index_id, column] if known else math.nan
        if attainable is not None:
            known = index_id in attainable.index
            ends = attainable.loc[index_id] if known else None
            row["reachable"] = (reachable(index_id, ends["low"], ends["high"], bool(ends["low_exact"]),
                                          bool(ends["high_exact"])) if known else "")
        rows.append(row)
    return pd.DataFrame(rows)


def _label_texts(labels) -> list[str]:
    """Each label as text, as it is written; as Python writes the value (1 and '1') when two
    labels of one side would otherwise read alike."""
    texts = [str(v) for v in labels]
    if len(set(texts)) < len(texts):
        texts = [repr(v.item() if isinstance(v, np.generic) else v) for v in labels]
    return texts


def contingency_frame(c) -> pd.DataFrame:
    """The table in the pairing's display order with cluster labels and both marginals.

    A sparse table (too many clusters to lay out, see ``Comparison.is_sparse``) is given as
    its non-empty cells instead, one row each: reference, candidate, count.
    """
    pairing = c.hungarian_pairing
    if c.is_sparse:
        rank_r, rank_c = np.argsort(pairing.row_order), np.argsort(pairing.col_order)
        r, col, v = c.cells
        order = np.lexsort((rank_c[col], rank_r[r]))
        return pd.DataFrame({"reference": c.row_labels[r[order]], "candidate": c.col_labels[col[order]],
                             "count": v[order]})
    rows = _label_texts(c.row_labels[pairing.row_order])
    cols = _label_texts(c.col_labels[pairing.col_order])
    frame = pd.DataFrame(np.asarray(c.table)[np.ix_(pairing.row_order, pairing.col_order)],
                         index=pd.Index(rows, name="reference \\ candidate"), columns=cols)
    frame["total"] = c.row_sizes[pairing.row_order]
    frame.loc["total"] = [*c.col_sizes[pairing.col_order], c.n]
    return frame


# ---------------------------------------------------------------------- provenance
def provenance(**facts) -> dict:
    """`facts` (data set, partitions, noise policy, ...) with the cluval version and the date.

    >>> p = provenance(data_set="S1")
    >>> list(p)[:2], p["data_set"]
    (['cluval', 'date'], 'S1')
    """
    stamp = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat()
    return {"cluval": __version__, "date": stamp, **{k: v for k, v in facts.items() if v is not None}}


def _one_line(value) -> str:
    return " ".join(str(value).splitlines())


# A text cell that a spreadsheet would run as a formula starts with one of these.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _inert(value):
    """A text cell as a spreadsheet shows it and never runs: one that would start a formula gets a
    leading apostrophe (a plain number such as "-1" is left as it is)."""
    if not isinstance(value, str) or not value.startswith(_FORMULA_STARTS):
        return value
    try:
        float(value)
        return value
    except ValueError:
        return "'" + value


def csv_with_provenance(frame: pd.DataFrame, facts: dict, **to_csv) -> str:
    """CSV text of `frame` after ``# key: value`` lines; read it back with ``comment="#"``.

    Text is quoted (so that a label holding "#" or a comma reads back whole) and made inert:
    a text cell or name that would start a spreadsheet formula (=, +, -, @) is written with a
    leading apostrophe. A key or value of the provenance stays on its line.

    >>> text = csv_with_provenance(pd.DataFrame({"a": ["x", "=1+2"]}), {"cluval": "0.1"}, index=False)
    >>> print(text, end="")
    # cluval: 0.1
    "a"
    "x"
    "'=1+2"
    """
    header = "".join(f"# {_one_line(key)}: {_one_line(value)}\n" for key, value in facts.items())
    safe = frame.map(_inert).rename(index=_inert, columns=_inert)
    safe.index.name, safe.columns.name = _inert(frame.index.name), _inert(frame.columns.name)
    return header + safe.to_csv(**{"quoting": csv.QUOTE_NONNUMERIC, **to_csv})


def json_with_provenance(values, facts: dict) -> str:
    """Strict JSON ``{"provenance": facts, "values": values}``."""
    return to_json({"provenance": facts, "values": values})


def report_figures(c) -> list:
    """The report's figures, (title, figure): the table, the mappings and, with data, both partitions.

    Outside the app nothing widens a figure's margins for its tick labels, so every axis makes
    room itself (``automargin``) and no row label or tick is clipped.
    """
    figures = [("Contingency table", contingency_heatmap(c)),
               ("Centroid Index mapping (partition-based)", mapping_diagram(c, "partition"))]
    if c.has_data:
        figures.append(("Centroid Index mapping (centroid-based)", mapping_diagram(c, "centroid")))
        figures.append(("Reference", partition_scatter(c, "true")))
        figures.append(("Candidate", partition_scatter(c, "pred")))
    for _, fig in figures:
        fig.update_xaxes(automargin=True)
        fig.update_yaxes(automargin=True)
    return figures


def html_report(c, facts: dict, *, title: str = "cluval comparison", ids=None) -> str:
    """One self-contained HTML file of a comparison: provenance, headline values, the
    contingency table, the Hungarian pairing with PSI's steps, the Centroid Index mappings,
    both partitions when the data is known, and every index. Plotly's script is embedded
    once, so the file opens offline.
    """
    figures = report_figures(c)
    scores = c.scores(ids)
    table = score_table(scores)
    table["value"] = [format_value(i, v, 6) for i, v in scores.items()]
    esc = html.escape  # quotes too: nothing of a label can close an attribute

    def table_html(frame, **options):
        shown = frame.map(lambda v: esc(v) if isinstance(v, str) else v)
        shown.columns = [esc(str(column)) for column in shown.columns]
        return shown.to_html(escape=False, **options)

    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>{esc(title)}</title>",
             "<style>body{font-family:sans-serif;margin:2em;max-width:1200px}table{border-collapse:collapse}"
             "td,th{border:1px solid #ccc;padding:2px 8px;text-align:left}</style></head><body>",
             f"<h1>{esc(title)}</h1><table>"]
    parts += [f"<tr><th>{esc(str(k))}</th><td>{esc(_one_line(v))}</td></tr>" for k, v in facts.items()]
    parts.append("</table><h2>Hungarian pairing</h2>")
    pairs = c.hungarian_pairing.display_frame()
    pairs[["reference", "candidate"]] = pairs[["reference", "candidate"]].map(str)
    parts.append(table_html(pairs, index=False, float_format=lambda v: f"{v:.4f}"))
    parts.append("<h2>Pair Sets Index, step by step</h2><p>"
                 + "<br>".join(esc(str(step)) for step in c.steps("psi")) + "</p>")
    for i, (name, fig) in enumerate(figures):
        parts.append(f"<h2>{esc(name)}</h2>")
        parts.append(fig.to_html(full_html=False, include_plotlyjs=(i == 0)))
    parts.append("<h2>Every index</h2>")
    parts.append(table_html(table.drop(columns=["formula"]), index=False))
    parts.append("</body></html>")
    return "\n".join(parts)


# ---------------------------------------------------------------------- the one-page handout
HANDOUT_PAIRS_SHOWN = 16  # pairs listed; the rest are counted ("and 7 more pairs")
# The printable area of the smaller of A4 (210 x 297 mm) and Letter (216 x 279 mm) inside 12 mm margins:
# the sheet fits one page of either.
HANDOUT_MARGIN_MM, HANDOUT_SHEET_MM = 12, (186, 255)
_PX_PER_MM = 96 / 25.4
_HANDOUT_FIGURES_MM = {"table": (92, 80), "mapping": (92, 80)}  # (width, height) of each figure

_HANDOUT_CSS = """
@page { margin: %(margin)dmm; }
* { box-sizing: border-box; }
html, body { margin: 0; padding: 0; background: #f0f0f0; }
body { font: 9pt/1.3 system-ui, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: #1a1a1a; }
.hint { max-width: %(width)dmm; margin: 6mm auto 0; font-size: 10pt; display: flex; gap: 4mm; align-items: center; }
.hint button { font: inherit; padding: 1mm 4mm; cursor: pointer; }
.sheet { width: %(width)dmm; height: %(height)dmm; margin: 4mm auto 8mm; padding: 0; background: white;
         overflow: hidden; outline: 1px solid #ccc; outline-offset: 6mm; box-shadow: 0 0 0 6mm white; }
.content { display: flex; flex-direction: column; gap: 2.5mm; height: 100%%; transform-origin: top left; }
h1 { font-size: 14pt; margin: 0 0 1mm; }
h2 { font-size: 10pt; margin: 0 0 1mm; }
table { border-collapse: collapse; }
.facts { display: flex; flex-wrap: wrap; gap: 0.5mm 5mm; margin: 0; }
.facts div { white-space: nowrap; max-width: 100%%; overflow: hidden; text-overflow: ellipsis; }
.facts dt { display: inline; color: #555; }
.facts dd { display: inline; margin: 0 0 0 1.5mm; }
.values { display: flex; gap: 1.5mm; }
.value { flex: 1 1 0; border: 1px solid #ccc; border-radius: 1.5mm; padding: 1mm 1.5mm; }
.value .name { font-size: 7.5pt; color: #555; }
.value .id { font-size: 6.5pt; color: #777; font-family: ui-monospace, monospace; }
.value .number { font-size: 13pt; font-weight: 600; }
.value .direction { font-size: 7pt; color: #555; }
.row { display: flex; gap: 4mm; }
.row > div { flex: 1 1 0; min-width: 0; }
.row > div.figure { flex: 0 0 auto; }
.last { flex: 1 1 auto; }
.side { display: flex; flex-direction: column; }
.pairs td, .pairs th { border-bottom: 1px solid #e0e0e0; padding: 0 1.5mm; text-align: right; font-size: 7.5pt; }
.pairs th { font-weight: 600; }
.steps { font-size: 7.5pt; margin: 1mm 0 0; overflow-wrap: anywhere; }
.small { font-size: 7.5pt; color: #444; margin: 0.5mm 0 0; }
.notes { flex: 1 1 auto; min-height: 20mm; margin-top: 2mm; border: 1px solid #999; border-radius: 1.5mm;
         padding: 1mm 2mm;
         background: repeating-linear-gradient(white, white 6.5mm, #ddd 6.5mm, #ddd 6.8mm);
         -webkit-print-color-adjust: exact; print-color-adjust: exact; }
.notes h2 { color: #555; }
@media print {
  html, body { background: white; }
  .hint { display: none; }
  .sheet { margin: 0; outline: none; box-shadow: none; break-inside: avoid; page-break-after: avoid; }
}
"""

# Scale the content down (never up) when it is taller than the sheet, so that it prints on one page whole.
_HANDOUT_FIT = """<script>
function cluvalFit() {
  var sheet = document.querySelector('.sheet'), content = document.querySelector('.content');
  content.style.transform = ''; content.style.width = ''; content.style.height = '';
  var scale = Math.min(1, sheet.clientHeight / content.scrollHeight);
  if (scale < 1) {
    content.style.transform = 'scale(' + scale + ')';
    content.style.width = (100 / scale) + '%%'; content.style.height = (100 / scale) + '%%';
  }
  document.body.dataset.scale = scale;
}
window.addEventListener('load', cluvalFit);
window.addEventListener('beforeprint', cluvalFit);
</script>"""


def _direction(index_id: str) -> str:
    return "higher is better" if INDICES[index_id].higher_is_better else "lower is better"


def handout_figures(c) -> list:
    """The handout's figures, (title, figure), sized in pixels for a printed page: the
    contingency table (its counts written in the cells, no colour bar) and the Centroid Index
    mapping (centroid-based when the data is known)."""
    basis = "centroid" if c.has_data else "partition"
    table = contingency_heatmap(c)
    table.update_traces(showscale=False, textfont=dict(size=7), selector=dict(type="heatmap"))
    table.update_xaxes(tickfont=dict(size=8), title=dict(font=dict(size=10)))
    table.update_yaxes(tickfont=dict(size=8), title=dict(font=dict(size=10)))
    mapping = mapping_diagram(c, basis)
    mapping.update_traces(textfont=dict(size=8))
    mapping.update_annotations(font=dict(size=9))
    _room_for_outer_labels(mapping, round(_HANDOUT_FIGURES_MM["mapping"][0] * _PX_PER_MM), font_px=8)
    figures = [("Contingency table", table, "table"), (f"Centroid Index mapping ({basis}-based)", mapping, "mapping")]
    for _, fig, kind in figures:
        width, height = (round(mm * _PX_PER_MM) for mm in _HANDOUT_FIGURES_MM[kind])
        fig.update_xaxes(automargin=True)
        fig.update_yaxes(automargin=True)
        fig.update_layout(width=width, height=height, autosize=False, title=None, margin=dict(l=2, r=2, t=24, b=2),
                          font=dict(size=9))
    return [(title, fig) for title, fig, _ in figures]


def _room_for_outer_labels(fig, width_px: int, *, font_px: int, most: float = 1.5) -> None:
    """Widen a mapping diagram's x range so that the texts left of its first column and right of
    its last (the reference clusters' labels) are drawn whole in a figure `width_px` wide: up to
    `most` units beside the columns (0 to 2); a text longer than that room is shortened with "…"."""
    outer = [trace for trace in fig.data if trace.mode and "text" in trace.mode and trace.x is not None
             and len(trace.x) and trace.x[0] != 1 and trace.text is not None]
    if not outer:
        return
    glyph_px, node_px = 0.6 * font_px, 18  # an average glyph's width; the node and the gap beside it
    longest = max(len(str(text)) for trace in outer for text in trace.text)
    needed = glyph_px * longest + node_px
    room = min(most, max(0.7, 2 * needed / max(width_px - 2 * needed, 1)))  # room * px per unit = needed
    fig.update_xaxes(range=[-room, 2 + room])
    fits = int((room * width_px / (2 + 2 * room) - node_px) / glyph_px)
    if longest > fits:
        for trace in outer:
            trace.text = [shortened(str(text), fits) for text in trace.text]


def handout_html(c, facts: dict, *, ids=None, title: str = "cluval comparison") -> str:
    """The current view as one printed page: where it comes from, the headline values (each
    saying whether higher or lower is better), the contingency table, the Hungarian pairing with
    the Pair Sets Index's steps, the Centroid Index mapping, and a box for notes.

    The page is sized to fit one A4 or Letter sheet inside 12 mm margins (print CSS), and its
    content is scaled down to the sheet if it would be taller; Plotly's script is embedded, so
    the file opens and prints offline. Indices that need the data are left out of `ids` when the
    comparison has none.
    """
    esc = html.escape
    ids = [i for i in (headline_ids() if ids is None else ids) if c.has_data or not get_index(i).needs_data]
    scores = c.scores(ids)
    width, height = HANDOUT_SHEET_MM
    css = _HANDOUT_CSS % {"margin": HANDOUT_MARGIN_MM, "width": width, "height": height}
    parts = [f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{esc(title)}: handout</title>",
             f"<style>{css}</style></head><body>",
             "<div class='hint'><button type='button' onclick='window.print()'>Print</button><span>This handout "
             "prints on one A4 or Letter page (Ctrl+P or ⌘P; this line is not printed).</span></div>",
             "<div class='sheet'><div class='content'>",
             f"<header><h1>{esc(title)}</h1><dl class='facts'>"]
    parts += [f"<div><dt>{esc(str(k))}</dt><dd>{esc(_one_line(v))}</dd></div>" for k, v in facts.items()]
    parts.append("</dl></header><section class='values'>")
    for index_id, value in scores.items():
        info = INDICES[index_id]
        parts.append(f"<div class='value' data-id='{esc(index_id)}'><div class='name'>{esc(info.name)}</div>"
                     f"<div class='id'>{esc(index_id)}</div>"
                     f"<div class='number'>{esc(format_value(index_id, value))}</div>"
                     f"<div class='direction'>{_direction(index_id)}, range [{_number(info.range[0])}, "
                     f"{_number(info.range[1])}]</div></div>")
    parts.append("</section>")
    figures = handout_figures(c)
    config = {"staticPlot": True, "responsive": False, "displayModeBar": False}
    (table_title, table_figure), (mapping_title, mapping_figure) = figures
    # the table and the pairing side by side, then the mapping beside PSI's steps
    figure_width = _HANDOUT_FIGURES_MM["table"][0]
    parts.append(f"<section class='row'><div class='figure' style='width:{figure_width}mm'><h2>{esc(table_title)}</h2>")
    parts.append(table_figure.to_html(full_html=False, include_plotlyjs=True, config=config))
    parts.append("<p class='small'>Rows: reference clusters; columns: candidate clusters (sizes in brackets); "
                 "the Hungarian pairs lie on the diagonal, outlined.</p></div>")
    parts.append("<div><h2>Hungarian pairing</h2>" + _pairs_html(c) + "</div></section>")
    figure_width = _HANDOUT_FIGURES_MM["mapping"][0]
    parts.append(f"<section class='row last'><div class='figure' style='width:{figure_width}mm'>"
                 f"<h2>{esc(mapping_title)}</h2>")
    parts.append(mapping_figure.to_html(full_html=False, include_plotlyjs=False, config=config) + "</div>")
    mappings = [("partition", c.jaccard_mapping)] + ([("centroid", c.centroid_mapping)] if c.has_data else [])
    parts.append("<div class='side'><h2>Pair Sets Index, step by step</h2><p class='steps'>"
                 + "<br>".join(esc(str(step)) for step in c.steps("psi")) + "</p>")
    parts.append("<h2 style='margin-top:2mm'>Centroid Index</h2><p class='steps'>"
                 + "<br>".join(f"CI ({basis}-based) = {m.ci}, from {esc(m.direction)}" for basis, m in mappings)
                 + "<br>Each cluster points at its most similar cluster on the other side; a cluster nobody "
                   "points at is an orphan (red). CI = the larger number of orphans of the two directions.</p>")
    parts.append("<div class='notes'><h2>Notes</h2></div></div></section>")
    parts.append("</div></div>" + _HANDOUT_FIT + "</body></html>")
    return "\n".join(parts)


def _pairs_html(c) -> str:
    """The Hungarian pairing as a compact table: the first pairs, the rest counted."""
    esc = html.escape
    frame = c.hungarian_pairing.display_frame()
    shown = frame.head(HANDOUT_PAIRS_SHOWN)
    rows = ["<table class='pairs'><tr><th>pair</th><th>ref</th><th>cand</th><th>|G|</th><th>|P|</th>"
            "<th>shared</th><th>BB</th></tr>"]
    for row in shown.itertuples(index=False):
        rows.append(f"<tr><td>{row.pair}</td><td>{esc(str(row.reference))}</td><td>{esc(str(row.candidate))}</td>"
                    f"<td>{_number(row[3])}</td><td>{_number(row[4])}</td><td>{_number(row.overlap)}</td>"
                    f"<td>{row.braun_banquet:.4f}</td></tr>")
    rows.append("</table>")
    if len(frame) > len(shown):
        rows.append(f"<p class='small'>and {len(frame) - len(shown)} more pairs (every pair is in the report).</p>")
    rows.append("<p class='small'>BB: Braun–Banquet similarity, shared / max(|G|, |P|); PSI's S adds it over the "
                "pairs.</p>")
    return "".join(rows)
