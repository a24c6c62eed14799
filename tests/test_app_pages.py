"""The teaching pages under AppTest (Why indices disagree, PSI vs ARI, Soft partitions) and the
curve and bar figures they draw: what is shown equals what the library computes and publishes."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from apptools import open_app as _app
from apptools import plotly_array as _array
from apptools import plotly_figure as _chart
from cluval_core import INDICES, compare, experiments
from cluval_core.data.synthetic import SCENARIOS
from cluval_core.experiments import psi_paper
from cluval_core.outputs.export import format_value
from cluval_core.outputs.plots import index_curves, score_bars
from cluval_core.outputs.plots.curves import PANELS

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow


def _page(page: str):
    at = _app()
    at.switch_page(page).run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def _table(at, *columns):
    """The first st.dataframe whose columns start with `columns`: (frame, its column config)."""
    for frame in at.dataframe:
        if list(frame.value.columns[:len(columns)]) == list(columns):
            return frame.value, json.loads(frame.proto.columns or "{}")
    raise AssertionError(f"no table with columns {columns}: {[list(f.value.columns) for f in at.dataframe]}")


def _values_table(at) -> pd.DataFrame:
    """Why indices disagree's table of index values at the slider's position."""
    tables = [t.value for t in at.table if list(t.value.columns) == ["index", "value"]]
    assert len(tables) == 1
    return tables[0]


def _left_to_right(figure: dict, axis: str = "xaxis") -> list:
    """The x values of a figure's first trace in the order they appear on screen, left to right."""
    x = list(_array(figure["data"][0]["x"]))
    ordered = sorted(x)
    return ordered[::-1] if figure["layout"][axis].get("autorange") == "reversed" else ordered


# ====================================================================== Why indices disagree
def test_why_indices_disagree_page():
    at = _page("why_disagree.py")
    at.selectbox(key="scenario").set_value("imbalance").run()
    first = _values_table(at)
    at.select_slider(key="imbalance_at").set_value(50).run()
    assert not at.exception
    current = _values_table(at)
    values = dict(zip(current["index"], current["value"]))
    assert float(values["Adjusted Rand index"]) == pytest.approx(0.656, abs=0.001)
    assert float(values["Pair Sets Index"]) == pytest.approx(0.9)
    assert not first.equals(current)
    assert len(at.get("plotly_chart")) == 2
    at.multiselect(key="scenario_indices").set_value([]).run()
    assert at.warning


def test_why_disagree_numbers_clusters_from_one_and_colours_from_zero():
    at = _page("why_disagree.py")
    at.selectbox(key="scenario").set_value("clusters").run()
    at.select_slider(key="clusters_at").set_value(4).run()
    pairs, config = _table(at, "pair", "reference", "candidate")
    assert sorted(pairs["reference"]) == [1, 2, 3, 4] and sorted(pairs["candidate"]) == [1, 2, 3, 4]
    heatmap = _chart(at, "scenario_table")
    trace = next(t for t in heatmap["data"] if t["type"] == "heatmap")
    ticks = heatmap["layout"]["yaxis"]["ticktext"]
    assert sorted(t.split(" ")[0] for t in ticks) == ["1", "2", "3", "4"]
    # the colour scale starts at 0 and reaches the largest count (zmin alone is ignored by plotly)
    z = np.asarray(trace["z"], dtype=float) if not isinstance(trace["z"], dict) else _array(trace["z"])
    assert trace["zmin"] == 0 and trace["zmax"] >= np.nanmax(z) == 800
    # the pairing's similarity column is named, not shown as its id
    assert config["braun_banquet"]["label"] == "Braun–Banquet"
    assert "braun_banquet" not in {c.get("label") for c in config.values()}


def test_why_disagree_shows_every_chosen_index():
    at = _page("why_disagree.py")
    chosen = [i for i, info in INDICES.items() if not info.needs_data]
    picker = at.multiselect(key="scenario_indices")
    assert picker.proto.wrap  # the chosen chips wrap onto more rows instead of scrolling out of sight
    picker.set_value(chosen).run()
    assert not at.exception
    shown = _values_table(at)
    assert list(shown["index"]) == [INDICES[i].name for i in chosen]  # one row per index: no column to scroll to
    expected = experiments.scenario_curve("random", chosen).set_index("clusters in P").loc[3]
    assert list(shown["value"]) == [format_value(i, expected[i]) for i in chosen]
    figure = _chart(at, "scenario_curves")
    assert len(figure["data"]) == len(chosen)
    styles = [(t["line"]["dash"], t["marker"]["symbol"]) for t in figure["data"]]
    assert len(set(styles[:6])) == 6  # neighbouring curves never share a dash or a marker
    assert all(len({a, b}) == 2 for a, b in zip(styles, styles[1:]))


def test_why_disagree_draws_distances_as_one_minus_distance():
    at = _page("why_disagree.py")
    at.multiselect(key="scenario_indices").set_value(["ari", "nvd", "ch_greedy", "vi"]).run()
    figure = _chart(at, "scenario_curves")
    traces = {t["name"]: t for t in figure["data"]}
    assert set(traces) == {"Adjusted Rand index", "1 − Normalised van Dongen", "1 − Criterion H (greedy)",
                           "Variation of information"}
    curve = experiments.scenario_curve("random", ["ari", "nvd", "ch_greedy", "vi"])
    np.testing.assert_allclose(_array(traces["1 − Normalised van Dongen"]["y"]), 1 - curve["nvd"])
    np.testing.assert_allclose(_array(traces["Adjusted Rand index"]["y"]), curve["ari"])
    # VI has no upper bound: it is drawn as it is, on an axis of its own below
    np.testing.assert_allclose(_array(traces["Variation of information"]["y"]), curve["vi"])
    assert traces["Variation of information"]["yaxis"] == "y2"
    assert {traces[n].get("yaxis", "y") for n in traces if n != "Variation of information"} == {"y"}
    assert figure["layout"]["yaxis"]["title"]["text"] == PANELS["similarity"]
    assert figure["layout"]["yaxis2"]["title"]["text"] == PANELS["unbounded distance"]
    captions = " ".join(c.value for c in at.caption)
    assert "Normalised van Dongen shown as 1 − Normalised van Dongen" in captions
    assert "Criterion H (greedy) shown as 1 − Criterion H (greedy)" in captions


def test_why_disagree_slider_and_axis_run_the_same_way():
    at = _page("why_disagree.py")
    for key in ("imbalance", "error"):  # values listed downwards, then upwards
        at.selectbox(key="scenario").set_value(key).run()
        options = [int(o) for o in at.select_slider(key=f"{key}_at").options]
        assert options == list(SCENARIOS[key].values)
        assert _left_to_right(_chart(at, "scenario_curves")) == options


def test_why_disagree_shows_psis_formula_once():
    at = _page("why_disagree.py")
    formula = str(compare(*SCENARIOS["random"].pair(3)).steps("psi")[-1])
    texts = [m.value.replace("\\", "") for m in at.markdown]  # shown literally: Markdown escapes removed
    assert sum(t.count(formula) for t in texts) == 1
    assert not any("PSI: PSI" in t for t in texts)


# ====================================================================== PSI vs ARI
def test_psi_vs_ari_page():
    at = _page("psi_vs_ari.py")
    table, _ = _table(at, "algorithm")
    assert len(table) == 4
    assert len(at.get("plotly_chart")) == 5  # the bars, the truth and one clustering, the shrinking curve, the q dial
    at.select_slider(key="sparse_size").set_value(10).run()
    assert not at.exception
    metrics = {m.label: float(m.value) for m in at.metric}
    assert metrics["Pair Sets Index"] < 0.3 < 0.98 < metrics["Adjusted Rand index"]


def test_psi_vs_ari_slider_and_axis_run_the_same_way():
    at = _page("psi_vs_ari.py")
    options = [int(o) for o in at.select_slider(key="sparse_size").options]
    assert options[0] > options[-1]  # the story: ever smaller clusters, from left to right
    assert _left_to_right(_chart(at, "sparse_curve")) == options


def test_psi_vs_ari_compares_table6_like_with_like():
    at = _page("psi_vs_ari.py")
    tables = [f for f in at.dataframe if list(f.value.columns) == ["algorithm", *psi_paper.TABLE_IDS]]
    assert len(tables) == 2
    (computed, computed_config), (paper, paper_config) = [(f.value, json.loads(f.proto.columns)) for f in tables]
    published = experiments.published("psi_table6")
    pd.testing.assert_frame_equal(paper, published)
    assert list(computed["algorithm"]) == list(published["algorithm"]) == ["RS", "AC", "SL", "KM"]
    # the same readable names and two decimals on both sides
    for config in (computed_config, paper_config):
        assert [config[i]["label"] for i in psi_paper.TABLE_IDS] == ["ARI", "NMI", "1 − NVD", "PSI"]
        assert [config[i]["help"] for i in psi_paper.TABLE_IDS] == [
            "Adjusted Rand index", "NMI (arithmetic mean)", "1 − Normalised van Dongen", "Pair Sets Index"]
        assert {config[i]["type_config"]["format"] for i in psi_paper.TABLE_IDS} == {"%.2f"}
    # the computed side is the similarity 1 − NVD, as the paper prints it
    nvd = [float(v) for v in computed["1-nvd"]]
    assert all(0 <= v <= 1 for v in nvd) and computed.loc[0, "1-nvd"] == pytest.approx(1.0, abs=0.005)
    bars = _chart(at, "algorithm_bars")
    axes = {t["name"]: t.get("yaxis", "y") for t in bars["data"]}
    assert axes["Adjusted Rand index"] == axes["Pair Sets Index"] == "y" and axes["Centroid index"] == "y2"


def test_psi_vs_ari_page_holds_no_published_value():
    source = (ROOT / "pages" / "psi_vs_ari.py").read_text()
    tree = ast.parse(source)
    floats = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, float)]
    assert floats == []
    assert "0.66" not in source and "0.78" not in source


@pytest.mark.data
def test_psi_vs_ari_compares_table7_like_with_like():
    at = _page("psi_vs_ari.py")
    tables = [f.value for f in at.dataframe if list(f.value.columns) == ["K", *psi_paper.TABLE_IDS]]
    assert len(tables) == 3
    random_mode, nearest, paper = tables
    pd.testing.assert_frame_equal(paper, experiments.published("psi_table7"))
    from cluval_core.data.datasets import load_dataset

    yeast = load_dataset("yeast", download=False)
    expected = experiments.remove_smallest_classes(yeast.labels, X=yeast.X, mode="nearest")
    assert list(nearest["K"]) == [9, 8, 7] == list(random_mode["K"])
    np.testing.assert_allclose(nearest["1-nvd"], 1 - expected["nvd"])
    np.testing.assert_allclose(nearest["psi"], expected["psi"])


# ====================================================================== Soft partitions
def test_soft_page():
    at = _page("soft.py")
    frame = at.dataframe[0].value
    assert set(frame["id"]) >= {"nmi_max", "ari", "psi"}
    at.selectbox(key="soft_algorithm").set_value("gmm").run()
    assert not at.exception
    assert len(at.get("plotly_chart")) == 3


def test_soft_page_runs_the_interactive_defaults(monkeypatch):
    # the soft page has no iteration control: it runs the parameters the library says fit the
    # app's budget (on Birch2, fuzzy c-means' 300 iterations at k = 100 would be refused)
    import pages._cache

    monkeypatch.setattr(pages._cache, "interactive_defaults", lambda X, algorithm, k: {"m": 2.0, "max_iter": 3})
    at = _app()
    at.switch_page("soft.py").run()
    assert not at.exception and not at.error
    assert 1 <= int(re.search(r"\((\d+) iterations", at.caption[0].value).group(1)) <= 3


def _reference_k(at) -> int:
    return len(np.unique(_array(_chart(at, "hard_table")["data"][0]["y"])))


def test_soft_k_follows_the_data_set_until_set(monkeypatch):
    import pages._cache

    monkeypatch.setattr(pages._cache, "interactive_defaults", lambda X, algorithm, k: {"m": 2.0, "max_iter": 3})
    at = _page("soft.py")
    at.selectbox(key="dataset").set_value("m2_15").run()
    assert at.number_input(key="soft_k").value == 2 == _reference_k(at)
    at.selectbox(key="dataset").set_value("lei_g1_ovp3").run()
    assert at.number_input(key="soft_k").value == 5 == _reference_k(at)
    at.number_input(key="soft_k").set_value(3).run()
    assert at.number_input(key="soft_k").value == 3
    assert "with 3 clusters" in at.caption[0].value
    at.selectbox(key="soft_algorithm").set_value("gmm").run()  # another rerun keeps the user's k
    assert at.number_input(key="soft_k").value == 3
    at.selectbox(key="dataset").set_value("m2_15").run()  # another data set starts over
    assert at.number_input(key="soft_k").value == 2
    assert not at.exception


def test_soft_page_gives_distances_and_unbounded_indices_their_own_axes():
    at = _page("soft.py")
    frame = at.dataframe[0]
    assert frame.proto.column_order == ["index", "soft", "crisp (hardened)", "soft - crisp"]  # names, not ids
    figure = _chart(at, "soft_bars")
    names = {i: INDICES[i].name for i in frame.value["id"]}
    axis_of = {}
    for trace in figure["data"]:
        for category in trace["x"]:
            axis_of.setdefault(category, set()).add(trace.get("yaxis", "y"))
    assert set(axis_of) == set(names.values())  # index names along x, never ids
    assert all(len(axes) == 1 for axes in axis_of.values())
    axis = {i: next(iter(axis_of[names[i]])) for i in names}
    assert axis["nmi_sum"] == axis["ari"] == axis["psi"] == "y"
    assert len({axis["nmi_sum"], axis["nvi"], axis["vi"]}) == 3
    layout = figure["layout"]
    titles = {a: layout["yaxis" + a[1:]]["title"]["text"] for a in {axis["nmi_sum"], axis["nvi"], axis["vi"]}}
    assert titles == {axis["nmi_sum"]: PANELS["similarity"], axis["nvi"]: PANELS["distance"],
                      axis["vi"]: PANELS["unbounded distance"]}
    # the crowded panel carries no bar text (values on hover); soft and crisp keep their colour across panels
    similarity = [t for t in figure["data"] if t.get("yaxis", "y") == "y"]
    assert all(t.get("text") is None for t in similarity)
    colours = {t["name"]: set() for t in figure["data"]}
    for trace in figure["data"]:
        colours[trace["name"]].add(trace["marker"]["color"])
    assert all(len(c) == 1 for c in colours.values()) and len(set.union(*colours.values())) == 2


# ====================================================================== the figures themselves
HARD_CODED = {"white", "black", "#fff", "#ffffff", "#000", "#000000"}


def _colours(value) -> list:
    if isinstance(value, dict):
        return [c for k, v in value.items() for c in ([v] if "color" in k and isinstance(v, str) else _colours(v))]
    if isinstance(value, list):
        return [c for v in value for c in _colours(v)]
    return []


def test_figures_follow_the_theme_and_name_every_index():
    curve = experiments.scenario_curve("error", ["ari", "nvd", "mi", "ci_partition"])
    curves = index_curves(curve, "wrong objects per cluster", ["ari", "nvd", "mi", "ci_partition"], current=200,
                          as_similarity=True)
    assert [t.name for t in curves.data] == ["Adjusted Rand index", "1 − Normalised van Dongen",
                                            "Mutual information", "Centroid index (partition-based)"]
    assert [t.yaxis for t in curves.data] == ["y", "y", "y2", "y3"]  # MI and CI: unbounded, each on its axis
    np.testing.assert_allclose(curves.data[1].y, 1 - curve["nvd"])
    frame = pd.DataFrame({"algorithm": ["A", "B"], "ari": [0.5, 1.0], "nvd": [0.2, 0.0], "ci_centroid": [2, 0]})
    bars = score_bars(frame, "algorithm", ["ari", "nvd", "ci_centroid"])
    assert [(t.name, t.yaxis) for t in bars.data] == [("Adjusted Rand index", "y"), ("Normalised van Dongen", "y2"),
                                                      ("Centroid index", "y3")]
    assert list(bars.data[2].text) == ["2", "0"]  # a count shown as a whole number
    turned = score_bars(frame, "algorithm", ["ari", "nvd"], as_similarity=True)
    assert [t.name for t in turned.data] == ["Adjusted Rand index", "1 − Normalised van Dongen"]
    assert list(turned.data[1].y) == [0.8, 1.0] and {t.yaxis for t in turned.data} == {"y"}
    for figure in (curves, bars, turned):
        drawn = figure.to_plotly_json()
        drawn["layout"].pop("template")  # plotly's default, replaced by the app's theme when shown
        assert not {c.lower() for c in _colours(drawn)} & HARD_CODED
    with pytest.raises(ValueError, match="unknown index id 'nope'"):
        score_bars(frame, "algorithm", ["nope"])
