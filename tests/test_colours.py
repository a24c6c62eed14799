"""One colour per index: the mapping covers the registry, reads on light and dark backgrounds,
keeps PSI and ARI apart for every reader (deuteranopes too), and every figure that draws a
trace per index takes that trace's colour from it."""

from __future__ import annotations

import ast
import inspect
import itertools
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from cluval_core import INDICES, compare_paired
from cluval_core.experiments import lei_soft, psi_paper
from cluval_core.outputs import plots
from cluval_core.outputs.plots import INDEX_COLOURS, INDEX_PALETTE, index_colour, index_label, translucent
from cluval_core.outputs.plots.curves import curve_name
from pages import _paired as paired_view

ROOT = Path(__file__).resolve().parents[1]
LIGHT, DARK = "#ffffff", "#0e1117"  # the backgrounds of Streamlit's light and dark themes


# ---------------------------------------------------------------------- colour vision, by hand
def _linear(colour: str) -> np.ndarray:
    """sRGB ``#rrggbb`` as linear RGB in [0, 1]."""
    c = np.array([int(colour[i:i + 2], 16) for i in (1, 3, 5)]) / 255
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def _luminance(colour: str) -> float:
    return float(_linear(colour) @ [0.2126, 0.7152, 0.0722])


def _contrast(a: str, b: str) -> float:
    """WCAG contrast ratio: 1 (same) to 21 (black on white)."""
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


# Machado, Oliveira & Fernandes (2009): deuteranopia (severity 1) on linear RGB
DEUTERANOPIA = np.array([[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413],
                         [-0.011820, 0.042940, 0.968881]])


def _lab(rgb: np.ndarray) -> np.ndarray:
    """Linear RGB as CIELAB (D65)."""
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]) @ rgb
    xyz = xyz / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > 216 / 24389, np.cbrt(xyz), (24389 / 27 * xyz + 16) / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def _difference(a: str, b: str, *, deuteranope: bool = False) -> float:
    """CIE76 colour difference (about 2.3 is just noticeable; beyond 15, two clearly different colours)."""
    x, y = _linear(a), _linear(b)
    if deuteranope:
        x, y = np.clip(DEUTERANOPIA @ x, 0, 1), np.clip(DEUTERANOPIA @ y, 0, 1)
    return float(np.linalg.norm(_lab(x) - _lab(y)))


def test_colour_vision_helpers_agree_with_known_values():
    assert _contrast("#000000", "#ffffff") == pytest.approx(21)
    assert _contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)  # the classic WCAG borderline grey
    assert _difference("#ff0000", "#ff0000") == 0
    # red and green, far apart for most readers, come close for a deuteranope; blue and yellow stay apart
    assert _difference("#d62728", "#2ca02c", deuteranope=True) < _difference("#d62728", "#2ca02c") / 3
    assert _difference("#0072B2", "#E69F00", deuteranope=True) > 100


# ---------------------------------------------------------------------- the mapping
def test_every_index_has_a_colour_from_the_palette():
    assert set(INDEX_COLOURS) == set(INDICES)
    assert set(INDEX_COLOURS.values()) <= set(INDEX_PALETTE.values())
    assert index_colour("1-nvd") == INDEX_COLOURS["nvd"]
    with pytest.raises(ValueError, match="no colour for 'seed'"):
        index_colour("seed")


@pytest.mark.parametrize("name", list(INDEX_PALETTE))
def test_every_colour_reads_on_the_light_and_the_dark_theme(name):
    colour = INDEX_PALETTE[name]
    assert _contrast(colour, LIGHT) >= 2.2, f"{name} is pale on white"
    assert _contrast(colour, DARK) >= 2.9, f"{name} is dark on the dark theme"


def test_psi_and_ari_are_apart_for_every_reader():
    psi, ari = INDEX_COLOURS["psi"], INDEX_COLOURS["ari"]
    assert _difference(psi, ari) > 100 and _difference(psi, ari, deuteranope=True) > 100
    others = {colour for index_id, colour in INDEX_COLOURS.items() if index_id not in ("psi", "ari")}
    assert psi not in others and ari not in others  # nothing else is vermilion or blue
    assert _contrast(psi, LIGHT) >= 3 and _contrast(psi, DARK) >= 3  # PSI is never the pale line


def _page_list(page: str, keyword: str, key: str) -> list:
    """The literal list passed as `keyword` to the widget with `key` in a page's source."""
    tree = ast.parse((ROOT / "pages" / page).read_text())
    for call in ast.walk(tree):
        if isinstance(call, ast.Call) and any(k.arg == "key" and getattr(k.value, "value", None) == key
                                              for k in call.keywords):
            return ast.literal_eval(next(k.value for k in call.keywords if k.arg == keyword))
    raise AssertionError(f"no widget {key!r} in pages/{page}")


SHOWN_TOGETHER = {
    "Why indices disagree, by default": _page_list("why_disagree.py", "default", "scenario_indices"),
    "the PSI paper's synthetic experiments": psi_paper.SIMILARITY_VIEW,
    "the PSI paper's tables": psi_paper.TABLE_IDS,
    "the soft-clustering paper's success rates": list(lei_soft.LEI_INDICES.values()),
    "the PSI vs ARI bars": ["ari", "psi", "ci_centroid"],
    "the centroid indices": ["ci_centroid", "ci_partition"],
    "the paired comparison, by default": list(paired_view.DEFAULT_IDS),
}


@pytest.mark.parametrize("what", list(SHOWN_TOGETHER))
def test_indices_shown_together_have_colours_apart_for_every_reader(what):
    colours = {key: index_colour(key) for key in SHOWN_TOGETHER[what]}
    for (a, x), (b, y) in itertools.combinations(colours.items(), 2):
        assert _difference(x, y) >= 20, (a, b)
        assert _difference(x, y, deuteranope=True) >= 15, (a, b)


# ---------------------------------------------------------------------- every figure uses it
def _curves():
    frame = pd.DataFrame({"x": [1, 2, 3], "ari": [0.9, 0.5, 0.1], "psi": [0.8, 0.4, 0.2], "nvd": [0.1, 0.3, 0.5],
                          "vi": [0.2, 0.9, 1.4], "ci_partition": [0, 1, 2]})
    bands = pd.DataFrame([{"x": x, "index": i, "expected": 0.1, "sd": 0.01}
                          for i in ("ari", "psi", "nvd", "vi", "ci_partition") for x in (1, 2, 3)])
    ids = ["ari", "psi", "nvd", "vi", "ci_partition"]
    return [(plots.index_curves(frame, "x", ids, current=2, as_similarity=True, highlight=["psi"]), ids),
            (plots.index_curves(frame, "x", ids, bands=bands), ids)]


def _bars():
    frame = pd.DataFrame({"algorithm": ["RS", "SL"], "ari": [1.0, 0.99], "psi": [1.0, 0.78], "nvd": [0.0, 0.01],
                          "ci_centroid": [0, 1]})
    ids = ["ari", "psi", "nvd", "ci_centroid"]
    return [(plots.score_bars(frame, "algorithm", ids), ids), (plots.score_bars(frame, "algorithm", ids, text=False),
                                                               ids)]


def _experiments():
    grid = pd.DataFrame({"x": [1, 2, 1, 2], "experiment": ["a", "a", "b", "b"], "ari": [1, 0.5, 0.4, 0.3],
                         "1-nvd": [1, 0.7, 0.6, 0.5], "psi": [1, 0.2, 0.3, 0.1]})
    overlap = pd.DataFrame({"overlap": [0.0, 0.2], "d": [2, 8], "psi": [1, 0.6], "ari": [1, 0.3],
                            "expected psi": [1, 0.6]})
    runs = pd.DataFrame({"ari": [0.7, 0.8], "psi": [0.2, 0.3]})
    removal = pd.DataFrame({"K": [9, 8, 9, 8], "redistribution": ["random", "random", "nearest", "nearest"],
                            "psi": [0.9, 0.8, 0.9, 0.7], "ari": [1, 0.99, 1, 0.98]})
    published = pd.DataFrame({"K": [9, 8], "psi": [0.88, 0.74], "ari": [1, 0.99]})
    stability = pd.DataFrame({"k": [2, 3], "ari": [0.7, 1.0], "vi": [0.5, 0.0]})
    centroid = pd.DataFrame({"data": ["s1", "s1"], "algorithm": ["k-means (x)", "k-means (x)"],
                             "ci_centroid": [0, 1], "ci_partition": [0, 2]})
    rates = pd.DataFrame({"data": ["a", "b"], "ARI_s": [0.5, 0.6], "NMI_ss": [0.4, 0.9]})
    truth = [0] * 12 + [1] * 12 + [2] * 12
    paired = compare_paired(truth, truth[:-3] + [0, 0, 0], truth[3:] + [2, 2, 2], ["ari", "nvd", "psi"],
                            n_bootstrap=20, n_permutations=20, seed=0)
    return [(plots.similarity_grid(grid, "x", "experiment", ["ari", "1-nvd", "psi"]), ["ari", "nvd", "psi"]),
            (plots.paired_differences(paired), ["ari", "nvd", "psi"]),
            (plots.overlap_and_dimension(overlap, overlap, ["psi", "ari"], {"psi": "expected psi"}), ["psi", "ari"]),
            (plots.seed_boxes(runs, ["ari", "psi"], published={"ari": 0.66, "psi": 0.18}), ["ari", "psi"]),
            (plots.class_removal(removal, published, ["psi", "ari"]), ["psi", "ari"]),
            (plots.stability_curves(stability, ["ari", "vi"], best_k={"ari": 3, "vi": 3}), ["ari", "vi"]),
            (plots.centroid_index_boxes(centroid), ["ci_centroid", "ci_partition"]),
            (plots.success_rate_bars(rates, {"ARI_s": "ari", "NMI_ss": "nmi_sum"}), ["ari", "nmi_sum"])]


# figure builders that draw one trace (line, bar, box) per index; the others draw clusters, cells
# or one index (a heatmap), or series (soft against crisp) whose colours are not an index's
PER_INDEX = {"index_curves", "score_bars", "similarity_grid", "paired_differences", "overlap_and_dimension",
             "seed_boxes", "class_removal", "stability_curves", "centroid_index_boxes", "success_rate_bars"}
NOT_PER_INDEX = {"series_over", "partition_scatter", "contingency_heatmap", "mapping_diagram", "formula_check",
                 "pairwise_heatmap", "disagreement_heatmap", "critical_difference_diagram", "atlas_heatmap",
                 "tanglegram", "membership_scatter"}
FIGURES = [*_curves(), *_bars(), *_experiments()]


def test_every_figure_builder_is_classified_and_each_per_index_one_is_checked():
    builders = {name for name in plots.__all__ if inspect.isfunction(getattr(plots, name))
                and inspect.signature(getattr(plots, name)).return_annotation == "go.Figure"}
    assert builders == PER_INDEX | NOT_PER_INDEX  # a new figure must be put in one of the two
    checked = {figure.layout.meta for figure, _ in FIGURES}
    assert checked == PER_INDEX


# which builder drew each figure, for the test above
_BUILT_BY = ["index_curves", "index_curves", "score_bars", "score_bars", "similarity_grid", "paired_differences",
             "overlap_and_dimension",
             "seed_boxes", "class_removal", "stability_curves", "centroid_index_boxes", "success_rate_bars"]
for (_figure, _), _name in zip(FIGURES, _BUILT_BY, strict=True):
    _figure.layout.meta = _name


def _labels() -> list[tuple[str, str]]:
    """(name shown, index id), the longest names first: a trace named by an index starts with one."""
    names = {}
    for index_id in INDICES:
        names[index_label(index_id)] = index_id
        names[curve_name(index_id, True)] = index_id
        names[index_label(f"1-{index_id}")] = index_id
    return sorted(names.items(), key=lambda item: -len(item[0]))


LABELS = _labels()


def _index_of(trace) -> str | None:
    group = trace.legendgroup or ""
    base = group[2:] if group.startswith("1-") else group
    if base in INDICES:
        return base
    name = trace.name or ""
    for label, index_id in LABELS:
        if name == label or name.startswith((f"{label},", f"{label} (", f"{label}:")):
            return index_id
    return None


def _colours(trace) -> set:
    """The colours a trace is drawn in: its line, its markers (or bars, boxes), its fill."""
    found = set()
    line = getattr(trace, "line", None)
    if line is not None and line.color is not None:
        found.add(line.color)
    marker = getattr(trace, "marker", None)
    if marker is not None and isinstance(marker.color, str):
        found.add(marker.color)
    if getattr(trace, "fillcolor", None):
        found.add(trace.fillcolor)
    return found


@pytest.mark.parametrize("position", range(len(FIGURES)), ids=lambda p: f"{_BUILT_BY[p]}-{p}")
def test_each_index_trace_takes_its_colour_from_the_mapping(position):
    figure, ids = FIGURES[position]
    drawn = set()
    for trace in figure.data:
        index_id = _index_of(trace)
        if index_id is None:
            continue  # a published value, a reference line: grey, no index's colour
        colour = index_colour(index_id)
        allowed = {colour, translucent(colour, 0.3)}
        assert _colours(trace), f"{trace.name} has no colour of its own"
        assert _colours(trace) <= allowed, (trace.name, _colours(trace), colour)
        drawn.add(index_id)
    assert drawn == set(ids)


def test_the_highlighted_index_is_drawn_wider_and_on_top():
    figure, _ = _curves()[0]
    lines = [t for t in figure.data if t.mode == "lines+markers"]
    assert lines[-1].legendgroup == "psi" and lines[-1].line.width > max(t.line.width for t in lines[:-1])


def test_an_axis_of_counts_has_whole_number_ticks():
    figure, _ = _bars()[1]  # similarities, a distance, and CI: three panels
    assert (figure.layout.yaxis3.tickformat, figure.layout.yaxis3.dtick) == ("d", 1)
    assert figure.layout.yaxis.tickformat is None  # similarities keep their decimals
    texts = {t.name: t.text for t in figure.data}
    assert texts["Centroid index"] == ("0", "1") and texts["Pair Sets Index"] is None  # text=False: counts only
    # two panels (as on the PSI vs ARI page): the counts' axis on the right, clear of the first panel's bars
    frame = pd.DataFrame({"algorithm": ["RS", "KM"], "ari": [1.0, 0.79], "ci_centroid": [0, 30]})
    two = plots.score_bars(frame, "algorithm", ["ari", "ci_centroid"])
    assert (two.layout.yaxis2.tickformat, two.layout.yaxis2.dtick, two.layout.yaxis2.side) == ("d", 5, "right")
