"""The app under AppTest: every page runs, widgets change what is shown, numbers equal the library's."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from cluval_core import INDICES, compare
from cluval_core.clustering import cluster
from cluval_core.datasets import load_dataset
from cluval_core.report import format_value

APP = str(Path(__file__).resolve().parents[1] / "app.py")
pytestmark = pytest.mark.slow


@pytest.fixture(autouse=True)
def fresh_cache():
    st.cache_data.clear()
    yield


def _app():
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def _shown_scores(at) -> dict:
    """{index id: value} read back from the Compare page's index tables."""
    values = {}
    for frame in at.dataframe:
        df = frame.value
        if "id" in df.columns and "value" in df.columns:
            values.update(dict(zip(df["id"], df["value"])))
    return values


def _library_scores(name, algorithm, k, seed=0, **params):
    ds = load_dataset(name, download=False)
    labels = cluster(ds.X, algorithm, k, seed=seed, **params).labels + 1
    return compare(ds.labels, labels, X=ds.X)


@pytest.mark.data
def test_compare_page_shows_the_librarys_numbers():
    at = _app()
    assert at.selectbox(key="dataset").value == "s1"
    assert at.number_input(key="k").value == 15
    shown = _shown_scores(at)
    c = _library_scores("s1", "kmeans++", 15, n_init=10, max_iter=300)
    expected = c.scores()
    assert set(shown) == set(expected)
    for index_id in ("ari", "psi", "ci_partition", "ci_centroid", "ami", "nvd"):
        assert shown[index_id] == expected[index_id], index_id  # full precision, not rounded
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Adjusted Rand index"] == format_value("ari", expected["ari"])
    assert metrics["Centroid index"] == format_value("ci_centroid", expected["ci_centroid"])
    pairing = next(f.value for f in at.dataframe if "braun_banquet" in f.value.columns)
    assert len(pairing) == min(c.k_true, c.k_pred)
    assert pairing["braun_banquet"].tolist() == sorted(c.hungarian_pairing.braun_banquet.tolist(), reverse=True) \
        or len(pairing) == c.hungarian_pairing.braun_banquet.size
    assert len(at.get("plotly_chart")) >= 5  # two scatters, the table, two mapping diagrams


@pytest.mark.data
def test_changing_the_algorithm_changes_the_values():
    at = _app()
    before = _shown_scores(at)
    at.selectbox(key="algorithm").set_value("single").run()
    assert not at.exception
    after = _shown_scores(at)
    assert after["ari"] != before["ari"]
    assert after["ari"] == _library_scores("s1", "single", 15).score("ari")
    assert after["ci_partition"] == _library_scores("s1", "single", 15).score("ci_partition")


@pytest.mark.data
def test_changing_the_dataset_resets_k_and_the_values():
    at = _app()
    at.selectbox(key="dataset").set_value("aggregation").run()
    assert not at.exception
    assert at.number_input(key="k").value == 7
    shown = _shown_scores(at)
    assert shown["psi"] == _library_scores("aggregation", "kmeans++", 7, n_init=10, max_iter=300).score("psi")


def test_second_clustering_as_reference_and_noise_policy():
    at = _app()
    at.selectbox(key="dataset").set_value("lei_g2_dens6").run()
    at.selectbox(key="reference").set_value("a second clustering").run()
    at.selectbox(key="ref_algorithm").set_value("ward").run()
    assert not at.exception
    assert "Agglomerative, Ward" in at.caption[0].value
    at.selectbox(key="noise").set_value("noise points as singletons").run()
    assert not at.exception


def test_dbscan_noise_is_shown_without_error():
    at = _app()
    at.selectbox(key="dataset").set_value("lei_g1_ovp3").run()
    at.selectbox(key="algorithm").set_value("dbscan").run()
    at.number_input(key="param_dbscan_eps").set_value(0.3).run()
    assert not at.exception and not at.error
    at.selectbox(key="noise").set_value("drop reference noise").run()
    assert not at.exception


@pytest.mark.data
def test_an_impossible_request_gives_a_message_not_a_traceback():
    at = _app()
    at.selectbox(key="dataset").set_value("birch2").run()
    assert not at.exception and at.number_input(key="k").value == 100
    at.selectbox(key="algorithm").set_value("ward").run()
    assert not at.exception
    assert at.error and "n x n distance matrix" in at.error[0].value and "single link" in at.error[0].value


def test_opens_on_synthetic_data_without_benchmarks(monkeypatch, tmp_path):
    from cluval_core import datasets

    monkeypatch.setenv("CLUVAL_DATA_DIR", str(tmp_path))
    monkeypatch.setattr(datasets, "cache_dir", lambda: tmp_path)
    at = _app()
    assert at.selectbox(key="dataset").value == "unbalance_like"
    assert any("CLUVAL_DATA_DIR" in i.value for i in at.sidebar.info)
    assert _shown_scores(at)["ari"] <= 1.0


def test_why_indices_disagree_page():
    at = _app()
    at.switch_page("pages/why_disagree.py").run()
    assert not at.exception
    at.selectbox(key="scenario").set_value("imbalance").run()
    first = at.dataframe[-1].value
    at.select_slider(key="scenario_value_imbalance").set_value(50).run()
    assert not at.exception
    current = at.dataframe[-1].value
    assert current["Adjusted Rand index"].iloc[0] == pytest.approx(0.656, abs=0.001)
    assert current["Pair Sets Index"].iloc[0] == pytest.approx(0.9)
    assert not first.equals(current)
    assert len(at.get("plotly_chart")) == 2
    at.multiselect(key="scenario_indices").set_value([]).run()
    assert at.warning


def test_psi_vs_ari_page():
    at = _app()
    at.switch_page("pages/psi_vs_ari.py").run()
    assert not at.exception
    table = at.dataframe[0].value
    assert len(table) == 4
    assert len(at.get("plotly_chart")) == 6
    at.select_slider(key="sparse_size").set_value(10).run()
    assert not at.exception
    metrics = {m.label: float(m.value) for m in at.metric}
    assert metrics["PSI"] < 0.3 < 0.98 < metrics["ARI"]


def test_soft_page():
    at = _app()
    at.switch_page("pages/soft.py").run()
    assert not at.exception
    frame = at.dataframe[0].value
    assert set(frame["id"]) >= {"nmi_max", "ari", "psi"}
    at.selectbox(key="soft_algorithm").set_value("gmm").run()
    assert not at.exception
    assert len(at.get("plotly_chart")) == 3


def test_your_data_page_without_a_file():
    at = _app()
    at.switch_page("pages/your_data.py").run()
    assert not at.exception
    assert "No file yet" in at.info[0].value


def test_your_data_as_dataset_without_upload_explains():
    at = _app()
    at.selectbox(key="dataset").set_value("your data").run()
    assert not at.exception
    assert any("Your data" in i.value for i in at.info)


def test_index_reference_page_lists_every_index():
    at = _app()
    at.switch_page("pages/index_reference.py").run()
    assert not at.exception
    assert len(at.expander) == len(INDICES)
    at.text_input(key="reference_filter").set_value("centroid").run()
    assert 0 < len(at.expander) < len(INDICES)


def test_downloads_hold_the_values():
    at = _app()
    buttons = {b.proto.label: b for b in at.get("download_button")}
    assert {"Index table (CSV)", "Index values (JSON)", "Contingency table (CSV)"} <= set(buttons)
    shown = _shown_scores(at)
    assert math.isfinite(shown["psi"])
    assert np.isclose(shown["psi"], json.loads(json.dumps(shown))["psi"])


def test_reproduce_page_shows_verdicts_and_reasons():
    at = _app()
    at.switch_page("pages/reproduce.py").run()
    assert not at.exception
    at.selectbox(key="experiment").set_value("rand_table1").run()
    assert not at.exception
    checks = at.dataframe[0].value
    differing = checks[checks["verdict"] == "differs"]
    assert len(differing) == 1 and differing["why"].iloc[0].startswith("misprinted")
    assert at.metric[0].value == f"{len(checks) - 1} / {len(checks)}"
    assert len(at.get("plotly_chart")) == 1


def test_reproduce_page_without_data_explains(monkeypatch, tmp_path):
    from cluval_core import datasets

    monkeypatch.setenv("CLUVAL_DATA_DIR", str(tmp_path))
    monkeypatch.setattr(datasets, "cache_dir", lambda: tmp_path)
    at = _app()
    at.switch_page("pages/reproduce.py").run()
    at.selectbox(key="experiment").set_value("yeast_table7").run()
    assert not at.exception
    assert at.warning and "cluval datasets fetch yeast" in at.warning[0].value
