"""The Many clusterings page under AppTest: in each mode (seeds, k, label columns from a file) the
heatmaps, the stability curve and the verdict show exactly what the library computes; the choices
go into the URL and a link reproduces them; a hostile link, a refused run and a missing benchmark
set give messages, never a traceback."""

from __future__ import annotations

import base64
import json
import re

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

import cluval_core.algorithms.clustering
from apptools import APP
from cluval_core import INDICES, compare_many
from cluval_core.algorithms import stability
from cluval_core.data.synthetic import make_synthetic

PAGE = "many_clusterings.py"
DATASET = "lei_g1_ovp3"  # synthetic, 1000 points in 5 clusters: quick to cluster many times
X = make_synthetic(DATASET, 0)[0]
LABEL_FREE = tuple(i for i, info in INDICES.items() if not info.needs_data)
pytestmark = pytest.mark.slow


def _app(**query) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update({"dataset": DATASET, **query})
    at.switch_page(PAGE)
    at.run()
    _fine(at)
    return at


def _fine(at):
    assert not at.exception, [e.message for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def _array(value) -> np.ndarray:
    """A plotly array from a figure's JSON: nested lists, or a base64 typed array (with its shape)."""
    if isinstance(value, dict) and "bdata" in value:
        flat = np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
        shape = value.get("shape")
        return flat.reshape([int(n) for n in str(shape).split(",")]) if shape else flat
    return np.asarray(value, dtype=float)


def _charts(at) -> dict:
    """Every plotly chart of the page by its key."""
    return {c.proto.id.rsplit("-", 1)[-1]: json.loads(c.proto.spec) for c in at.get("plotly_chart")}


def _verdict(at) -> pd.DataFrame:
    tables = [t.value for t in at.dataframe if "agreed" in t.value.columns]
    assert len(tables) == 1
    return tables[0]


def _plain(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def _assert_heatmaps(at, matrices: dict) -> None:
    charts = _charts(at)
    assert sorted(k for k in charts if k.startswith("many_heatmap_")) == sorted(f"many_heatmap_{i}" for i in matrices)
    for index_id, matrix in matrices.items():
        heat = charts[f"many_heatmap_{index_id}"]["data"][0]
        np.testing.assert_allclose(_array(heat["z"]), matrix.to_numpy(), equal_nan=True)
        assert heat.get("reversescale", False) is (not INDICES[index_id].higher_is_better)
        ticks = charts[f"many_heatmap_{index_id}"]["layout"]["xaxis"]["ticktext"]
        assert ticks == list(matrix.columns)


def _assert_verdict(at, expected: pd.DataFrame) -> None:
    shown = _verdict(at)
    assert shown.index.tolist() == expected.index.tolist()
    pd.testing.assert_frame_equal(shown, expected, check_dtype=False, check_names=False)


# ---------------------------------------------------------------------- one algorithm over seeds
def test_seeds_mode_shows_the_library_matrices_and_the_most_stable_solutions():
    at = _app()
    assert at.radio(key="many_mode").value == "seeds"
    assert at.selectbox(key="many_algorithm_seeds").value == "kmeans"
    assert at.number_input(key="many_k").value == 5  # the reference's number of clusters
    assert (at.number_input(key="many_seed").value, at.number_input(key="many_seeds").value) == (0, 10)
    assert at.multiselect(key="many_ids").value == ["ari", "psi"]
    params = stability.interactive_parameters(X, "kmeans", [5], repeats=10)
    partitions = stability.cluster_many(X, "kmeans", seeds=range(10), k=5, **params)
    matrices = compare_many(partitions, ["ari", "psi"])
    _assert_heatmaps(at, matrices)
    expected = stability.most_stable(matrices)
    _assert_verdict(at, expected)
    agreed = expected.index[expected["agreed"]].tolist()
    sentence = _plain(at.markdown[-1].value) if agreed else ""
    assert all(name in sentence for name in agreed)
    assert {key: at.query_params[key] for key in ("many_mode", "many_algorithm", "many_k", "many_seed",
                                                   "many_seeds", "many_ids")} == \
        {"many_mode": "seeds", "many_algorithm": "kmeans", "many_k": "5", "many_seed": "0",
         "many_seeds": "10", "many_ids": "ari,psi"}


def test_other_seeds_and_a_distance_change_the_views_and_the_link():
    at = _app()
    at.number_input(key="many_seed").set_value(5).run()
    at.number_input(key="many_seeds").set_value(4).run()
    at.selectbox(key="many_algorithm_seeds").set_value("kmeans++").run()
    at.multiselect(key="many_ids").set_value(["ari", "vi", "nvd"]).run()
    _fine(at)
    params = stability.interactive_parameters(X, "kmeans++", [5], repeats=4)
    partitions = stability.cluster_many(X, "kmeans++", seeds=range(5, 9), k=5, **params)
    assert list(partitions) == ["seed 5", "seed 6", "seed 7", "seed 8"]
    matrices = compare_many(partitions, ["ari", "vi", "nvd"])
    _assert_heatmaps(at, matrices)  # VI and NVD drawn dark where low
    verdict = _verdict(at)
    _assert_verdict(at, stability.most_stable(matrices))
    assert {"vi rank", "nvd rank"} <= set(verdict.columns)
    assert at.query_params["many_ids"] == "ari,vi,nvd" and at.query_params["many_seed"] == "5"
    assert at.query_params["many_algorithm"] == "kmeans++"


# ---------------------------------------------------------------------- one algorithm over k
def test_k_mode_draws_the_stability_curve_of_the_library():
    at = _app(many_mode="k", many_k_from="2", many_k_to="7", many_subsets="3")
    assert at.selectbox(key="many_algorithm_k").value == "kmeans++"
    assert (at.number_input(key="many_k_from").value, at.number_input(key="many_k_to").value) == (2, 7)
    assert at.number_input(key="many_rate").value == pytest.approx(0.2)
    params = stability.interactive_parameters(X, "kmeans++", range(2, 8), subsets=3, rate=0.2)
    curve = stability.stability_curve(X, "kmeans++", range(2, 8), LABEL_FREE, subsets=3, rate=0.2, seed=0, **params)
    figure = _charts(at)["many_curve"]
    lines = {trace["name"]: trace for trace in figure["data"]}
    for index_id in ("ari", "psi"):
        line = lines[INDICES[index_id].name]
        assert _array(line["x"]).tolist() == list(range(2, 8))
        np.testing.assert_allclose(_array(line["y"]), curve.values[index_id])
        star = lines[f"{INDICES[index_id].name}: most stable k"]
        assert _array(star["x"]).tolist() == [curve.best_k[index_id]]
    _assert_verdict(at, curve.ranking(["ari", "psi"]))
    _assert_heatmaps(at, compare_many(curve.partitions, ["ari", "psi"]))
    assert at.query_params["many_k_to"] == "7" and at.query_params["many_subsets"] == "3"
    assert "many_k" not in at.query_params and "many_seeds" not in at.query_params  # the seeds mode's keys

    # a distance alone: its most stable k is its lowest value
    at.multiselect(key="many_ids").set_value(["nvd"]).run()
    _fine(at)
    star = [t for t in _charts(at)["many_curve"]["data"] if t["name"].endswith("most stable k")]
    lowest = int(curve.values.loc[curve.values["nvd"].idxmin(), "k"])
    assert len(star) == 1 and _array(star[0]["x"]).tolist() == [lowest] == [curve.best_k["nvd"]]
    assert _verdict(at).index[0] == f"k={lowest}"


def test_a_link_opens_the_view_it_describes():
    at = _app(many_mode="k", many_algorithm="ward", many_k_from="3", many_k_to="5", many_subsets="2",
              many_rate="0.3", many_seed="7", many_ids="nvd,ari")
    assert at.radio(key="many_mode").value == "k"
    assert at.selectbox(key="many_algorithm_k").value == "ward"
    assert at.multiselect(key="many_ids").value == ["nvd", "ari"]
    curve = stability.stability_curve(X, "ward", [3, 4, 5], LABEL_FREE, subsets=2, rate=0.3, seed=7)
    _assert_verdict(at, curve.ranking(["nvd", "ari"]))
    assert not at.warning

    at = _app(many_mode="seeds", many_algorithm="gmm", many_k="3", many_seed="2", many_seeds="3", many_ids="psi")
    assert at.number_input(key="many_k").value == 3 and at.selectbox(key="many_algorithm_seeds").value == "gmm"
    params = stability.interactive_parameters(X, "gmm", [3], repeats=3)
    partitions = stability.cluster_many(X, "gmm", seeds=[2, 3, 4], k=3, **params)
    _assert_heatmaps(at, compare_many(partitions, ["psi"]))
    assert _verdict(at).index.tolist() == stability.most_stable(compare_many(partitions, ["psi"])).index.tolist()


def test_a_hostile_link_gives_a_warning_and_the_defaults():
    at = _app(many_mode="<b>x</b>", many_seeds="999", many_ids="ari,<img src=x>", many_rate="nan")
    warning = _plain(at.warning[0].value)
    for fragment in ("mode '<b>x</b>'", "seeds '999' (a whole number from 2 to 30)", "indices 'ari,<img src=x>'",
                     "rate 'nan'"):
        assert fragment in warning, warning
    assert at.radio(key="many_mode").value == "seeds" and at.number_input(key="many_seeds").value == 10
    assert at.multiselect(key="many_ids").value == ["ari"]  # the ids it understood


# ---------------------------------------------------------------------- label columns from a file
LABELS = (b"x,run a,run b,run c,truth\n"
          b"0.11,1,2,1,cat\n0.52,1,2,1,cat\n0.93,1,2,2,cat\n1.74,2,1,2,dog\n2.15,2,1,3,dog\n3.36,2,1,3,dog\n"
          b"4.57,3,3,3,bird\n5.98,3,3,3,bird\n")


def test_label_columns_from_a_file_are_compared_as_written():
    at = _app(many_mode="upload")
    assert "No file yet" in at.info[0].value
    at.file_uploader(key="many_upload").set_value(("runs.csv", LABELS, "text/csv")).run()
    _fine(at)
    assert at.multiselect(key="many_columns").value == ["run a", "run b", "run c", "truth"]  # x is continuous
    frame = pd.read_csv(pd.io.common.BytesIO(LABELS), dtype=str)
    matrices = compare_many({c: frame[c].to_numpy() for c in ["run a", "run b", "run c", "truth"]}, ["ari", "psi"])
    _assert_heatmaps(at, matrices)
    expected = stability.most_stable(matrices)
    _assert_verdict(at, expected)
    # run a, run b and truth are the same partition: they agree with each other, run c differs
    assert expected.index[expected["agreed"]].tolist() == ["run a", "run b", "truth"]
    at.multiselect(key="many_columns").set_value(["run c"]).run()
    assert not at.exception and "at least two label columns" in at.warning[-1].value
    assert at.query_params["many_mode"] == "upload"


# ---------------------------------------------------------------------- refusals and no data
def test_work_beyond_the_budget_is_refused_with_what_to_change(monkeypatch):
    clustering = cluval_core.algorithms.clustering
    monkeypatch.setattr(clustering, "INTERACTIVE_BUDGET", clustering.Budget(seconds=1e-6))
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update({"dataset": DATASET})
    at.switch_page(PAGE)
    at.run()
    assert not at.exception
    message = _plain(at.error[0].value)
    assert message.startswith("Clustering: These runs (10 runs of k-means (random start, one run) on 1,000 points)")
    assert "choose fewer seeds" in message and not at.get("plotly_chart")


def test_the_page_works_without_benchmark_data(monkeypatch, tmp_path):
    from cluval_core.data import datasets

    monkeypatch.setenv("CLUVAL_DATA_DIR", str(tmp_path))
    monkeypatch.setattr(datasets, "cache_dir", lambda: tmp_path)
    at = AppTest.from_file(APP, default_timeout=120)
    at.switch_page(PAGE)
    at.run()
    _fine(at)
    assert at.selectbox(key="dataset").value == "unbalance_like"
    assert at.number_input(key="many_k").value == 8
    assert _verdict(at).shape[0] == 10 and len(_charts(at)) == 2
