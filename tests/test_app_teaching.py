"""PSI vs ARI and Why indices disagree under AppTest: the decisive row, the values a link asks for,
and every per-index trace in its index's colour. (The URL's way back, the widget writing it and the
browser's Back, is checked in a real browser: tests/test_browser_teaching.py.)"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from apptools import open_app
from apptools import plotly_array as _array
from apptools import plotly_figure as _chart
from cluval_core import compare, experiments
from cluval_core.data.synthetic import SCENARIOS
from cluval_core.experiments import psi_paper
from cluval_core.outputs.export import format_value
from cluval_core.outputs.plots import index_colour

pytestmark = pytest.mark.slow

PSI_PAGE, WHY_PAGE = "psi_vs_ari.py", "why_disagree.py"
# the page's four algorithms (code, cluval's algorithm), as it runs them: k = 8, seed 0
FOUR = [("RS", "random_swap"), ("AC", "ward"), ("SL", "single"), ("KM", "kmeans")]


def _dataframes(at, *columns) -> list:
    """The st.dataframe elements whose columns start with `columns`, in page order (a table drawn with a
    key but no selection has no element id to find it by)."""
    return [f for f in at.dataframe if list(f.value.columns[:len(columns)]) == list(columns)]


def _highlighted_rows(frame) -> set:
    """The rows a styled st.dataframe draws with a background colour."""
    styles = frame.proto.arrow_data.styler.styles
    return {int(row) for block in re.findall(r"([^{}]+)\{[^}]*background-color", styles)
            for row in re.findall(r"_row(\d+)_col", block)}


def _trace_colour(trace) -> str:
    return (trace.get("line") or {}).get("color") or trace["marker"]["color"]


@pytest.fixture(scope="module")
def unbalance_table():
    """Table 6 as the library computes it on Unbalance (what the page must show)."""
    from cluval_core.data.datasets import load_dataset

    unbalance = load_dataset("unbalance", download=False)
    frame, labels = experiments.algorithms_on(unbalance.X, unbalance.labels, 8,
                                              [(code, algorithm, {}) for code, algorithm in FOUR], seed=0)
    return frame.set_index("algorithm"), labels, unbalance


# ====================================================================== PSI vs ARI
@pytest.mark.data
def test_psi_vs_ari_highlights_the_single_link_row_with_the_librarys_values(unbalance_table):
    expected, _, unbalance = unbalance_table
    at = open_app(timeout=300, page=PSI_PAGE)
    computed, published = _dataframes(at, "algorithm", *psi_paper.TABLE_IDS)
    shown = computed.value.set_index("algorithm")
    np.testing.assert_allclose(shown[["ari", "nmi_sum", "psi"]], expected[["ari", "nmi_sum", "psi"]])
    np.testing.assert_allclose(shown["1-nvd"], 1 - expected["nvd"])
    rows = _highlighted_rows(computed)
    assert [computed.value.loc[row, "algorithm"] for row in rows] == ["SL"]
    assert [published.value.loc[row, "algorithm"] for row in _highlighted_rows(published)] == ["SL"]
    # why it decides, in numbers computed here: ARI at its best, PSI far below, one cluster missed
    single = expected.loc["SL"]
    assert single["ari"] > 0.995 and single["psi"] < 0.8 and single["ci_centroid"] == 1
    sentence = next(m.value for m in at.markdown if m.value.startswith("**The decisive row"))
    assert f"ARI gives it {single['ari']:.2f}" in sentence and f"PSI gives it {single['psi']:.2f}" in sentence
    assert f"misses {single['ci_centroid']:.0f} of the 8 clusters" in sentence
    assert f"{len(unbalance.labels):,} points" in sentence  # Unbalance's size (6,500), from the comparison


@pytest.mark.data
def test_psi_vs_ari_bars_are_the_librarys_values_in_each_index_colour(unbalance_table):
    expected, _, _ = unbalance_table
    at = open_app(timeout=300, page=PSI_PAGE)
    bars = _chart(at, "algorithm_bars")
    by_name = {t["name"]: t for t in bars["data"]}
    for index_id, name in (("ari", "Adjusted Rand index"), ("psi", "Pair Sets Index"),
                           ("ci_centroid", "Centroid index")):
        trace = by_name[name]
        assert trace["marker"]["color"] == index_colour(index_id)
        assert list(trace["x"]) == list(expected.index)
        np.testing.assert_allclose(_array(trace["y"]), expected[index_id])
    ci_axis = bars["layout"]["yaxis2"]
    assert (ci_axis["tickformat"], ci_axis["dtick"]) == ("d", 1)  # a count: no 0.5 ticks
    assert by_name["Pair Sets Index"]["marker"]["color"] != by_name["Adjusted Rand index"]["marker"]["color"]


@pytest.mark.data
def test_psi_vs_ari_link_chooses_the_clustering_shown_and_the_slider(unbalance_table):
    expected, labels, unbalance = unbalance_table
    at = open_app(timeout=300, page=PSI_PAGE, clustering="KM", sparse_size="10")
    assert at.segmented_control(key="clustering").value == "KM"
    (pairs,) = (f.value for f in _dataframes(at, "pair", "reference", "candidate"))
    pd.testing.assert_frame_equal(pairs, compare(unbalance.labels, labels["KM"], X=unbalance.X)
                                  .hungarian_pairing.display_frame())
    said = f"ARI {expected.loc['KM', 'ari']:.3f}, PSI {expected.loc['KM', 'psi']:.3f}."
    assert any(c.value.startswith(said) for c in at.caption)
    assert at.select_slider(key="sparse_size").value == 10
    at.segmented_control(key="clustering").set_value("SL").run()  # back to the default: it leaves the URL
    assert dict(at.query_params) == {"sparse_size": "10"}
    row = psi_paper.sparse_cluster_curve([10]).iloc[0]
    metrics = {m.label: m.value for m in at.metric}
    assert metrics == {"Adjusted Rand index": f"{row['ari']:.3f}", "Pair Sets Index": f"{row['psi']:.3f}"}
    curve = _chart(at, "sparse_curve")
    lines = {t["name"]: t for t in curve["data"]}
    assert {name: _trace_colour(t) for name, t in lines.items()} == {
        "Adjusted Rand index": index_colour("ari"), "NMI (arithmetic mean)": index_colour("nmi_sum"),
        "1 − Normalised van Dongen": index_colour("nvd"), "Pair Sets Index": index_colour("psi")}
    psi = lines["Pair Sets Index"]
    assert curve["data"][-1] is psi and psi["line"]["width"] > max(  # the page's subject: widest, on top
        t["line"]["width"] for name, t in lines.items() if name != "Pair Sets Index")


@pytest.mark.data
def test_psi_vs_ari_turns_the_tsallis_dial_from_ami_to_ari(unbalance_table):
    from cluval_core import adjusted_mutual_info_score, adjusted_rand_score, adjusted_tsallis_mutual_info_score

    _, labels, unbalance = unbalance_table
    at = open_app(timeout=300, page=PSI_PAGE, tsallis_q="1.2")
    assert at.select_slider(key="tsallis_q").value == 1.2
    (table,) = (f.value for f in _dataframes(at, "algorithm", "q = 1.2"))
    for code, row in zip([code for code, _ in FOUR], table.itertuples(index=False)):
        truth, found = unbalance.labels, labels[code]
        assert row[1] == pytest.approx(adjusted_tsallis_mutual_info_score(truth, found, q=1.2), abs=1e-12), code
        assert row[2] == adjusted_mutual_info_score(truth, found), code
        assert row[3] == pytest.approx(adjusted_rand_score(truth, found), abs=1e-12), code
    curve = _chart(at, "tsallis_curve")
    assert [t["name"] for t in curve["data"]] == [code for code, _ in FOUR]
    assert any("Their guideline" in m.value for m in at.markdown)
    at.select_slider(key="tsallis_q").set_value(2.0).run()
    assert not at.exception and at.query_params["tsallis_q"] == "2"


def test_psi_vs_ari_ignores_a_link_value_it_does_not_offer():
    at = open_app(timeout=300, page=PSI_PAGE, sparse_size="7", clustering="XX")
    slider = at.select_slider(key="sparse_size")
    options = [int(o) for o in slider.options]
    assert 7 not in options and slider.value == options[len(options) // 2]  # the default
    assert at.segmented_control(key="clustering").value == "SL"


# ====================================================================== Why indices disagree
def test_why_disagree_link_chooses_scenario_and_position():
    at = open_app(timeout=300, page=WHY_PAGE, scenario="imbalance", imbalance_at="100")
    assert at.selectbox(key="scenario").value == "imbalance"
    assert at.select_slider(key="imbalance_at").value == 100
    ids = ["ari", "nmi_sum", "nvd", "psi", "purity", "ch_greedy"]
    assert at.multiselect(key="scenario_indices").value == ids
    current = experiments.scenario_curve("imbalance").set_index(SCENARIOS["imbalance"].parameter).loc[100]
    table = next(t.value for t in at.table if list(t.value.columns) == ["index", "value"])
    assert list(table["value"]) == [format_value(i, current[i]) for i in ids]
    curve = _chart(at, "scenario_curves")
    assert [_trace_colour(t) for t in curve["data"]] == [index_colour(i) for i in ids]
    x = list(_array(curve["data"][0]["x"]))
    assert curve["layout"]["shapes"][0]["x0"] == 100 and 100 in x  # the current position, marked


def test_why_disagree_link_holds_the_shown_scenarios_position_only():
    at = open_app(timeout=300, page=WHY_PAGE, scenario="clusters", clusters_at="4", imbalance_at="100")
    assert at.select_slider(key="clusters_at").value == 4
    pairs = next(f.value for f in at.dataframe if list(f.value.columns[:3]) == ["pair", "reference", "candidate"])
    assert sorted(pairs["candidate"]) == [1, 2, 3, 4]
    assert dict(at.query_params) == {"scenario": "clusters", "clusters_at": "4"}  # a slider not shown: not in it
    at.selectbox(key="scenario").set_value("imbalance").run()
    assert at.select_slider(key="imbalance_at").value == SCENARIOS["imbalance"].default
    assert dict(at.query_params) == {"scenario": "imbalance"}


def test_why_disagree_ignores_a_link_value_it_does_not_offer():
    at = open_app(timeout=300, page=WHY_PAGE, scenario="nonsense", random_at="99")
    assert at.selectbox(key="scenario").value == "random"
    assert at.select_slider(key="random_at").value == SCENARIOS["random"].default
    assert dict(at.query_params) == {}  # the values not understood are taken out of the URL


def test_why_disagree_writes_each_change_and_follows_the_url_back():
    at = open_app(timeout=300, page=WHY_PAGE)
    assert dict(at.query_params) == {}  # the defaults: nothing to write
    at.selectbox(key="scenario").set_value("imbalance").run()
    assert dict(at.query_params) == {"scenario": "imbalance"}
    at.select_slider(key="imbalance_at").set_value(50).run()
    assert dict(at.query_params) == {"scenario": "imbalance", "imbalance_at": "50"}
    at.selectbox(key="scenario").set_value("clusters").run()
    assert dict(at.query_params) == {"scenario": "clusters"}  # the other scenario's position leaves the URL
    # Back: the browser shows the previous address and runs the page; the page follows it
    at.query_params.clear()
    at.query_params.update({"scenario": "imbalance", "imbalance_at": "50"})
    at.run()
    assert at.selectbox(key="scenario").value == "imbalance" and at.select_slider(key="imbalance_at").value == 50
    table = next(t.value for t in at.table if list(t.value.columns) == ["index", "value"])
    current = experiments.scenario_curve("imbalance").set_index(SCENARIOS["imbalance"].parameter).loc[50]
    assert table["value"].iloc[0] == format_value("ari", current["ari"])
    # a change after it is the user's again: the URL does not pull the slider back
    at.select_slider(key="imbalance_at").set_value(300).run()
    assert at.select_slider(key="imbalance_at").value == 300
    assert dict(at.query_params) == {"scenario": "imbalance", "imbalance_at": "300"}
