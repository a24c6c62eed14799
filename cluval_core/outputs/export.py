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
from ..core.registry import FAMILIES, INDICES, get_index
from ..core.validation import CluvalError
from .plots import contingency_heatmap, mapping_diagram, partition_scatter

__all__ = ["json_safe", "to_json", "format_value", "score_table", "contingency_frame", "provenance",
           "csv_with_provenance", "json_with_provenance", "html_report", "report_figures"]


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

    Integer-valued indices (the Centroid Index) print as whole numbers; NaN is "undefined".
    Others get `digits` decimals, and more when rounding would show a value they do not
    have: a bound of the range, the best value or 0 (0.99998 is not shown as "1").

    >>> format_value("ci_partition", 3.0), format_value("psi", 0.5), format_value("ari", float("nan"))
    ('3', '0.5', 'undefined')
    >>> format_value("ari", 0.99998), format_value("ari", 1.0), format_value("nvd", 2e-7)
    ('0.99998', '1', '0.0000002')
    """
    info = get_index(index_id)  # an unknown id is a CluvalError naming the valid ones
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise CluvalError(f"value must be a number, got {value!r}")
    value = float(value)
    if value != value:
        return "undefined"
    if math.isinf(value):
        return _number(value)
    if info.integer_valued:
        return f"{value:.0f}"
    landmarks = {info.best, *info.range, 0.0}
    for places in range(digits, 16):
        shown = f"{value:.{places}f}".rstrip("0").rstrip(".")
        if shown == "-0":
            shown = "0"
        if float(shown) == value or float(shown) not in landmarks:
            return shown
    return repr(value)


def score_table(scores: dict, chance: pd.DataFrame | None = None, uncertainty: pd.DataFrame | None = None
                ) -> pd.DataFrame:
    """The registry's facts next to each value: family, name, id, value, range, best, ...

    With `chance` (a :meth:`Comparison.chance <cluval_core.Comparison.chance>` frame) the table
    gains each index's ``expected`` value under the permutation model, the Monte Carlo standard
    error of that expectation (``expected error``, empty when it is exact), ``sd``, ``z`` and
    ``p``; with `uncertainty` (:meth:`Comparison.uncertainty
    <cluval_core.Comparison.uncertainty>`) its standard error ``se`` and interval ``low`` to
    ``high``. An index missing from either frame gets empty cells there.
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
                        "p": facts["p"] if known else math.nan})
        if uncertainty is not None:
            known = index_id in uncertainty.index
            for column in ("se", "low", "high"):
                row[column] = uncertainty.loc[index_id, column] if known else math.nan
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
