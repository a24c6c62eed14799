"""The app under AppTest: every page runs, widgets change what is shown, numbers equal the library's."""

from __future__ import annotations

import io
import json
import math
import re

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from apptools import APP, record_downloads
from apptools import open_app as _app
from cluval_core import compare
from cluval_core.algorithms.clustering import cluster
from cluval_core.data.datasets import load_dataset
from cluval_core.outputs.export import format_value

pytestmark = pytest.mark.slow


def _shown_scores(at) -> dict:
    """{index id: value as shown} read back from the Compare page's index tables."""
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
        assert shown[index_id] == format_value(index_id, expected[index_id], 6), index_id
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["ARI"] == format_value("ari", expected["ari"])
    assert metrics["CI (centroid)"] == format_value("ci_centroid", expected["ci_centroid"])
    pairing = next(f.value for f in at.dataframe if "braun_banquet" in f.value.columns)
    assert len(pairing) == min(c.k_true, c.k_pred)
    # the page may order the pairs its own way: the pairs themselves are the library's
    assert sorted(pairing["braun_banquet"].tolist()) == sorted(c.hungarian_pairing.braun_banquet.tolist())
    assert len(at.get("plotly_chart")) == 4  # the table, the mapping diagram, two scatters


@pytest.mark.data
def test_changing_the_algorithm_changes_the_values():
    at = _app()
    before = _shown_scores(at)
    at.selectbox(key="algorithm").set_value("single").run()
    assert not at.exception
    after = _shown_scores(at)
    assert after["ari"] != before["ari"]
    single = _library_scores("s1", "single", 15)
    assert after["ari"] == format_value("ari", single.score("ari"), 6)
    assert after["ci_partition"] == format_value("ci_partition", single.score("ci_partition"), 6)


@pytest.mark.data
def test_changing_the_dataset_resets_k_and_the_values():
    at = _app()
    at.selectbox(key="dataset").set_value("aggregation").run()
    assert not at.exception
    assert at.number_input(key="k").value == 7
    shown = _shown_scores(at)
    expected = _library_scores("aggregation", "kmeans++", 7, n_init=10, max_iter=300).score("psi")
    assert shown["psi"] == format_value("psi", expected, 6)


def test_second_clustering_as_reference_and_noise_policy():
    at = _app()
    at.selectbox(key="dataset").set_value("lei_g2_dens6").run()
    at.selectbox(key="reference").set_value("a second clustering").run()
    at.selectbox(key="ref_algorithm").set_value("ward").run()
    assert not at.exception
    assert "Agglomerative, Ward" in at.caption[0].value
    at.selectbox(key="noise").set_value("noise points as singletons").run()
    assert not at.exception
    # two clusterings have no noise: the page says the policy had nothing to act on
    assert any("The noise label 0 occurs in neither partition" in w.value for w in at.warning), \
        [w.value for w in at.warning]


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
    from cluval_core.data import datasets

    monkeypatch.setenv("CLUVAL_DATA_DIR", str(tmp_path))
    monkeypatch.setattr(datasets, "cache_dir", lambda: tmp_path)
    at = _app()
    assert at.selectbox(key="dataset").value == "unbalance_like"
    assert any("CLUVAL_DATA_DIR" in i.value for i in at.sidebar.info)
    assert float(_shown_scores(at)["ari"]) <= 1.0


def test_random_swap_reports_its_progress_on_the_page(monkeypatch):
    import pages._cache

    reported = []

    def cluster_and_report(*args, progress=None, **kwargs):
        reported.append(progress)
        if progress is not None:
            progress(0.5, "swap 1/2")  # draws the bar; a failure here would surface as an error
        return cluster(*args, progress=progress, **kwargs)

    monkeypatch.setattr(pages._cache, "cluster", cluster_and_report)
    at = _app()
    at.selectbox(key="dataset").set_value("lei_g2_dens6").run()
    at.selectbox(key="algorithm").set_value("random_swap").run()
    assert not at.exception and not at.error
    assert callable(reported[-1])
    at.selectbox(key="algorithm").set_value("ward").run()
    assert reported[-1] is None  # algorithms without progress keep the spinner


@pytest.mark.data
def test_downloads_hold_the_values(monkeypatch):
    offered = record_downloads(monkeypatch)
    at = _app()
    assert {"Index table (CSV)", "Index values (JSON)", "Contingency table (CSV)"} <= set(offered)
    shown = _shown_scores(at)
    downloaded = json.loads(offered["Index values (JSON)"])  # strict JSON: undefined values are null
    assert downloaded["provenance"]["data set"].startswith("S1") and downloaded["provenance"]["cluval"]
    values = downloaded["values"]
    assert {k: format_value(k, math.nan if v is None else v, 6) for k, v in values.items()} == shown
    expected = _library_scores("s1", "kmeans++", 15, n_init=10, max_iter=300).scores()
    assert values == {k: (v if math.isfinite(v) else None) for k, v in expected.items()}  # full precision
    table = pd.read_csv(io.StringIO(offered["Index table (CSV)"]), comment="#")
    assert dict(zip(table["id"], table["value"])) == pytest.approx(expected, rel=1e-12, nan_ok=True)
    assert offered["Index table (CSV)"].startswith("# cluval: ")
    assert "# candidate: k-means++" in offered["Index table (CSV)"]
    report = offered["Report (HTML)"]()  # built when the button is pressed
    assert "<th>data set</th><td>S1</td>" in report and "k-means++" in report
    assert report.count("<script") >= 6 and format_value("psi", expected["psi"], 6) in report
    contingency = pd.read_csv(io.StringIO(offered["Contingency table (CSV)"]), index_col=0, comment="#")
    cells = contingency.drop(index="total", columns="total")
    assert cells.to_numpy().sum() == contingency.loc["total", "total"] == 5000  # S1's objects, each once
    assert cells.sum(axis=0).tolist() == contingency.loc["total"].drop("total").tolist()


# ---------------------------------------------------------------------- hostile strings and failures
# Column names, labels and a file name that Markdown or HTML would turn into an image (fetched
# from another host), a tag, LaTeX or bold text; each must be shown as written.
HOSTILE = {"image": "![x](http://evil.example/pixel.png)", "html": "<img src=x onerror=alert(1)>",
           "latex": "$\\LaTeX$", "bold": "**bold**"}
WJ = "\u2060"  # an invisible word joiner keeps "http://..." from becoming a link
ESCAPED = {"image": r"\!\[x\]\(http" + WJ + r"\://evil\.example/pixel\.png\)",
           "html": r"\<img src\=x onerror\=alert\(1\)\>",
           "latex": r"\$\\LaTeX\$", "bold": r"\*\*bold\*\*"}
HOSTILE_LABELS = ["![a](http://evil.example/a.png)", "<b>u</b>", "$x^2$", "**b**"]
HOSTILE_FILE = "![f](http://evil.example/f.png).csv"
ESCAPED_FILE = r"\!\[f\]\(http" + WJ + r"\://evil\.example/f\.png\)\.csv"


def hostile_csv() -> bytes:
    """Two label columns (image, HTML) with hostile labels, then two numeric columns (LaTeX, bold)."""
    header = ",".join(HOSTILE[c] for c in ("image", "html", "latex", "bold"))
    rows = [(HOSTILE_LABELS[0], HOSTILE_LABELS[1], 0.1, 0.2), (HOSTILE_LABELS[0], HOSTILE_LABELS[1], 0.2, 0.1),
            (HOSTILE_LABELS[0], HOSTILE_LABELS[2], 0.15, 0.12), (HOSTILE_LABELS[3], HOSTILE_LABELS[2], 5.0, 5.1),
            (HOSTILE_LABELS[3], HOSTILE_LABELS[2], 5.2, 4.9), (HOSTILE_LABELS[3], HOSTILE_LABELS[1], 5.1, 5.0)]
    return "\n".join([header, *(",".join(map(str, row)) for row in rows)]).encode() + b"\n"


def _markdown_texts(at) -> list[str]:
    """The source of every element Streamlit renders as Markdown, in the main area and the sidebar."""
    kinds = ("title", "header", "subheader", "markdown", "caption", "success", "info", "warning", "error")
    return [element.value for kind in kinds for element in getattr(at, kind)]


def _assert_nothing_raw(at):
    assert not at.exception, [e.message for e in at.exception]
    for text in _markdown_texts(at):
        for raw in [*HOSTILE.values(), *HOSTILE_LABELS, HOSTILE_FILE]:
            assert raw not in text, (raw, text)


def _has(at, kind: str, *parts: str) -> bool:
    return any(all(part in element.value for part in parts) for element in getattr(at, kind))


def test_user_strings_are_shown_escaped_never_as_markdown():
    at = _app()
    at.switch_page("your_data.py").run()
    at.file_uploader(key="upload").set_value((HOSTILE_FILE, hostile_csv(), "text/csv")).run()
    _assert_nothing_raw(at)

    at.radio(key="upload_mode").set_value("two label columns").run()
    at.selectbox(key="upload_truth").set_value(HOSTILE["image"]).run()
    for other in ("latex", "bold"):  # numbers are labels too
        at.selectbox(key="upload_pred").set_value(HOSTILE[other]).run()
        _assert_nothing_raw(at)
        assert _has(at, "subheader", f"{ESCAPED['image']} vs {ESCAPED[other]}")

    at.radio(key="upload_mode").set_value("points with label columns").run()
    at.multiselect(key="upload_coordinates").set_value([HOSTILE["html"], HOSTILE["bold"]]).run()
    at.multiselect(key="upload_labels").set_value([HOSTILE["image"]]).run()
    _assert_nothing_raw(at)  # the error names the label column chosen as a coordinate
    assert _has(at, "error", ESCAPED["html"])

    at.multiselect(key="upload_coordinates").set_value([HOSTILE["latex"], HOSTILE["bold"]]).run()
    at.multiselect(key="upload_labels").set_value([HOSTILE["image"], HOSTILE["html"]]).run()
    _assert_nothing_raw(at)
    assert not at.error and _has(at, "success", f"{ESCAPED['image']}, {ESCAPED['html']}")
    at.button(key="use_upload").click().run()

    at.switch_page("compare.py").run()
    at.selectbox(key="reference").set_value(HOSTILE["html"]).run()
    _assert_nothing_raw(at)
    assert _has(at, "caption", f"Your data\\: {ESCAPED_FILE}", f"the reference '{ESCAPED['image']}'",
                f"Reference: ground truth \\({ESCAPED['html']}\\)")
    layouts = [json.loads(chart.proto.spec)["layout"] for chart in at.get("plotly_chart")]
    titles = [layout["title"]["text"] for layout in layouts if "text" in layout.get("title", {})]
    assert any(t.startswith("Reference: ground truth (&lt;img src=x onerror=alert(1)&gt;)") for t in titles)
    assert all("<" not in title for title in titles)
    ticks = [t for layout in layouts for axis in ("xaxis", "yaxis") for t in layout.get(axis, {}).get("ticktext", [])]
    assert any("&lt;b&gt;u&lt;/b&gt;" in t for t in ticks) and not any("<" in t for t in ticks)  # cluster names

    at.switch_page("soft.py").run()
    _assert_nothing_raw(at)
    assert _has(at, "caption", f"Reference: {ESCAPED['html']} of **Your data\\: {ESCAPED_FILE}**")


@pytest.mark.parametrize("page, module, function", [
    ("compare.py", "cluval_core.outputs.plots", "contingency_heatmap"),        # drawn in the page body
    ("why_disagree.py", "cluval_core.experiments", "scenario_curve"),  # inside a cached helper
    ("soft.py", "cluval_core.experiments", "soft_versus_crisp"),       # inside the page's own guard
])
def test_an_unexpected_failure_shows_a_short_error_not_a_traceback(monkeypatch, page, module, function):
    import importlib

    def broken(*args, **kwargs):
        raise RuntimeError("simulated failure")

    monkeypatch.setattr(importlib.import_module(module), function, broken)
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    if page != "compare.py":
        at.switch_page(page).run()
    assert not at.exception, [e.message for e in at.exception]
    assert len(at.error) == 1
    message = re.sub(r"\\(.)", r"\1", at.error[0].value)  # the text shown, without Markdown escapes
    assert "failed unexpectedly" in message and "RuntimeError: simulated failure" in message
    assert "Traceback" not in message and "File " not in message and len(message) < 500


def test_work_with_a_progress_bar_is_shown_again_from_the_cache():
    """Random swap and the experiments draw a progress bar from inside cached work; the next run
    replays it from the cache instead of failing (it used to: CacheReplayClosureError)."""
    at = _app()
    at.selectbox(key="dataset").set_value("lei_g2_dens6").run()
    at.selectbox(key="algorithm").set_value("random_swap").run()
    assert not at.exception and not at.error
    first = _shown_scores(at)
    at.run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert _shown_scores(at) == first

    at.switch_page("reproduce.py").run()
    at.selectbox(key="experiment").set_value("rand_table1").run()
    checks = at.table[0].value
    at.run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert at.table[0].value.equals(checks)
