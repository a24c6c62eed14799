"""The Reproduce page under AppTest: the library's checks shown for people, figures with names,
missing data sets named from the experiment's declaration with the exact fix."""

from __future__ import annotations

import io
import json
import re

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

import cluval_core.data.datasets
from apptools import APP, record_downloads
from apptools import plotly_array as _array
from cluval_core import experiments
from cluval_core.experiments import CHECK_COLUMNS, DIFFERS, EXPERIMENTS, run_experiment

pytestmark = pytest.mark.slow


def _reproduce(name: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.switch_page("reproduce.py").run()
    at.selectbox(key="experiment").set_value(name).run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def _figure(at) -> dict:
    (chart,) = at.get("plotly_chart")
    return json.loads(chart.proto.spec)


def test_checks_are_the_librarys_shown_for_people():
    at = _reproduce("rand_table1")
    expected = run_experiment("rand_table1").checks
    (table,) = at.table
    shown = table.value.reset_index(drop=True)
    assert list(shown.columns) == CHECK_COLUMNS
    assert shown.astype(str).values.tolist() == expected.astype(str).values.tolist()
    assert set(shown["tolerance"]) == {"±1e-12"}
    reason = shown.loc[shown["verdict"] == DIFFERS, "likely reason"].tolist()
    assert reason == ["misprinted: the numbers support the corrected form (kn^2 - 3n - k + 3)/(kn^2 - n)"]
    assert [m.value for m in at.metric] == ["10 / 11"]
    assert not at.warning and not at.error


def test_figure_and_values_name_the_indices():
    at = _reproduce("psi_synthetic")
    layout, data = _figure(at)["layout"], _figure(at)["data"]
    legend = [t["name"] for t in data if t.get("showlegend", True)]
    assert legend == ["Adjusted Rand index", "NMI (arithmetic mean)", "1 − Normalised van Dongen",
                      "1 − Criterion H (greedy)", "Purity", "Pair Sets Index"]
    assert layout["xaxis"]["title"]["text"] == "clusters in P (K)"
    assert layout["yaxis"]["title"]["text"] == "similarity (1 = identical)"
    assert [a["text"] for a in layout["annotations"]][0] == "random partitions (Fig. 10)"
    (values,) = [frame.value for frame in at.dataframe]
    assert {"Pair Sets Index", "1 − Normalised van Dongen", "Adjusted Rand index"} <= set(values.columns)
    assert not {"psi", "1-nvd", "ari"} & set(values.columns)
    claims = at.table[0].value["claim"].tolist()
    assert claims[0] == "1 − Normalised van Dongen is constant at 0.83 while the first cluster grows from 1500 to 2000"


@pytest.mark.parametrize("available, name, missing", [
    ([], "lei_soft", "needs the benchmark data Iris (`iris`), Wine (`wine`), which are not available here"),
    (["iris", "s1"], "lei_soft", "needs the benchmark data Wine (`wine`), which is not available here"),
    (["s1", "s2", "s3", "s4"], "centroid_index_paper",
     "Unbalance (`unbalance`), Birch2 (`birch2`), Compound (`compound`), Aggregate (`aggregation`), which are"),
])
def test_missing_data_sets_are_named_with_the_fix(monkeypatch, available, name, missing):
    monkeypatch.setattr(cluval_core.data.datasets, "available_datasets", lambda: list(available))
    ran = []
    monkeypatch.setattr(experiments, "run_experiment", lambda *a, **k: ran.append(a))
    at = _reproduce(name)
    (warning,) = at.warning
    assert missing in warning.value
    fetch = " ".join(EXPERIMENTS[name].missing_datasets(available))
    assert f"`cluval datasets fetch {fetch}`" in warning.value
    assert "`CLUVAL_DATA_DIR`" in warning.value
    assert not at.table and not at.get("plotly_chart")
    assert (name,) not in ran  # the experiment is not started


def test_an_experiment_without_data_runs_when_no_benchmark_is_available(monkeypatch):
    monkeypatch.setattr(cluval_core.data.datasets, "available_datasets", lambda: [])
    at = _reproduce("rand_table1")
    assert not at.warning and len(at.table) == 1


def test_a_failing_experiment_shows_a_short_error(monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("simulated failure")

    monkeypatch.setattr(experiments, "run_experiment", broken)
    at = _reproduce("rand_table1")
    (error,) = at.error
    message = re.sub(r"\\(.)", r"\1", error.value)
    assert message.startswith("Experiment rand_table1 failed unexpectedly (RuntimeError: simulated failure)")
    assert "Traceback" not in message and not at.table


@pytest.mark.data
def test_a_data_experiment_shows_the_published_values():
    at = _reproduce("yeast_table7")
    assert not at.warning
    checks = at.table[0].value
    assert len(checks) == 24 and set(checks["tolerance"]) == {"±0.015"}
    claim = "K = 8, random class (mean): Pair Sets Index"
    assert claim in checks["claim"].tolist()
    assert checks.loc[checks["claim"] == claim, "published"].tolist() == ["0.74"]
    data = _figure(at)["data"]
    published = next(t for t in data if t["name"] == "Pair Sets Index, published")
    assert _array(published["x"]).tolist() == [9, 8, 7] and _array(published["y"]).tolist() == [0.88, 0.74, 0.6]


def test_the_csv_downloads_say_where_they_come_from(monkeypatch):
    offered = record_downloads(monkeypatch)
    name = next(n for n, e in EXPERIMENTS.items() if not e.datasets)
    at = _reproduce(name)
    expected = run_experiment(name)
    for label, frame in (("Values (CSV)", expected.values), ("Checks (CSV)", expected.checks)):
        text = offered[label]
        assert text.startswith("# cluval: ")
        assert f"# experiment: {name}: {EXPERIMENTS[name].title}" in text
        assert f"# source: {EXPERIMENTS[name].source}" in text
        read = pd.read_csv(io.StringIO(text), comment="#")
        assert list(read.columns) == list(frame.columns) and len(read) == len(frame)
    assert at.get("download_button")
