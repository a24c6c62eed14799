"""The one-page handout's content: every value on it is the library's, distances say lower is better."""

from __future__ import annotations

import html
import re

import numpy as np
import pytest

from cluval_core import INDICES, compare
from cluval_core.core.registry import headline_ids
from cluval_core.outputs.export import HANDOUT_PAIRS_SHOWN, format_value, handout_html, provenance


def _values(text: str) -> dict:
    """The headline values shown: id -> (name, value, direction line)."""
    found = re.findall(r"<div class='value' data-id='([a-z_]+)'><div class='name'>(.*?)</div><div class='id'>.*?</div>"
                       r"<div class='number'>(.*?)</div><div class='direction'>(.*?)</div>", text)
    return {index_id: (html.unescape(name), html.unescape(number), direction)
            for index_id, name, number, direction in found}


def _pairs(text: str) -> list[list[str]]:
    table = re.search(r"<table class='pairs'>(.*?)</table>", text).group(1)
    rows = re.findall(r"<tr>(.*?)</tr>", table)[1:]  # the header row first
    return [[html.unescape(cell) for cell in re.findall(r"<td>(.*?)</td>", row)] for row in rows]


@pytest.fixture(scope="module")
def with_data():
    rng = np.random.default_rng(7)
    X = np.r_[rng.normal(0, 1, (40, 2)), rng.normal(8, 1, (40, 2)), rng.normal((0, 8), 1, (40, 2))]
    a = np.repeat([0, 1, 2], 40)
    b = a.copy()
    b[:10] = 1  # ten objects of cluster 0 go to cluster 1
    b[80:100] = 3  # cluster 2 split
    return compare(a, b, X=X)


def test_the_headline_values_are_the_librarys_with_their_direction(with_data):
    c = with_data
    text = handout_html(c, provenance(**{"data set": "three blobs"}))
    shown = _values(text)
    assert list(shown) == list(headline_ids())  # the centroid index too: the comparison has the data
    for index_id, (name, number, direction) in shown.items():
        info = INDICES[index_id]
        assert name == info.name
        assert number == format_value(index_id, c.score(index_id))
        assert direction.startswith("higher is better" if info.higher_is_better else "lower is better")
    assert shown["nvd"][2].startswith("lower is better") and shown["ci_partition"][2].startswith("lower is better")
    assert shown["psi"][2] == "higher is better, range [0, 1]" and shown["ami"][2] == "higher is better, range [−∞, 1]"


def test_provenance_pairing_steps_and_mapping_are_the_librarys(with_data):
    c = with_data
    facts = provenance(**{"data set": "three blobs", "reference": "truth", "candidate": "a <b>bold</b> guess"})
    text = handout_html(c, facts)
    for key, value in facts.items():
        assert f"<dt>{html.escape(key)}</dt><dd>{html.escape(str(value))}</dd>" in text
    assert "<b>bold</b>" not in text  # a label is shown as written, never as markup
    frame = c.hungarian_pairing.display_frame()
    expected = [[str(r.pair), str(r.reference), str(r.candidate), f"{r[3]:g}", f"{r[4]:g}", f"{r.overlap:g}",
                 f"{r.braun_banquet:.4f}"] for r in frame.itertuples(index=False)]
    assert _pairs(text) == expected and len(expected) == 3
    for step in c.steps("psi"):
        assert html.escape(str(step)) in text
    assert f"CI (partition-based) = {c.jaccard_mapping.ci}, from {c.jaccard_mapping.direction}" in text
    assert f"CI (centroid-based) = {c.centroid_mapping.ci}, from {html.escape(c.centroid_mapping.direction)}" in text
    assert "<h2>Centroid Index mapping (centroid-based)</h2>" in text
    assert "<h2>Notes</h2>" in text
    assert "@page { margin: 12mm; }" in text and "@media print" in text
    assert text.count("window.PlotlyConfig") == 1 and len(text) > 3_000_000  # Plotly's script, once: opens offline
    assert "cdn" not in re.sub(r"<script.*?</script>", "", text, flags=re.S).lower()


def test_without_data_the_centroid_based_index_and_mapping_are_left_out():
    c = compare([0, 0, 1, 1, 2, 2], [0, 0, 1, 2, 2, 2])
    text = handout_html(c, provenance())
    assert list(_values(text)) == [i for i in headline_ids() if not INDICES[i].needs_data]
    assert "ci_centroid" not in _values(text) and "centroid-based" not in text
    assert "Centroid Index mapping (partition-based)" in text


def test_a_long_pairing_is_cut_and_counted():
    rng = np.random.default_rng(3)
    c = compare(rng.integers(0, 30, 3000), rng.integers(0, 30, 3000))
    text = handout_html(c, provenance())
    pairs = _pairs(text)
    assert len(pairs) == HANDOUT_PAIRS_SHOWN
    frame = c.hungarian_pairing.display_frame().head(HANDOUT_PAIRS_SHOWN)
    assert [row[:3] for row in pairs] == [[str(r.pair), str(r.reference), str(r.candidate)]
                                          for r in frame.itertuples(index=False)]
    assert f"and {len(c.hungarian_pairing.display_frame()) - HANDOUT_PAIRS_SHOWN} more pairs" in text


def test_the_mapping_shortens_only_labels_too_long_for_the_page():
    from cluval_core.outputs.export import handout_figures

    long = "a very long reference cluster name"
    c = compare([long] * 5 + ["b"] * 5, ["x"] * 5 + ["y"] * 5)
    (_, _), (_, mapping) = handout_figures(c)
    outer = [list(t.text) for t in mapping.data if t.mode and "text" in t.mode and t.x[0] != 1]
    texts = [text for trace in outer for text in trace]
    assert any(text.startswith("a very long") and "…" in text for text in texts)
    assert texts.count("b") == 1  # a short label whole (long labels: written in the left column only)


@pytest.mark.slow
def test_the_app_offers_the_handout_beside_the_report(monkeypatch):
    from streamlit.testing.v1 import AppTest

    from apptools import APP, record_downloads
    from cluval_core import Comparison
    from cluval_core.data.presets import preset_tables

    offered = record_downloads(monkeypatch)
    at = AppTest.from_file(APP, default_timeout=120)
    at.switch_page("build_table.py").run()  # Rand's example
    assert not at.exception and not at.error
    labels = [b.label for b in at.get("download_button")]
    assert labels[labels.index("Report (HTML)") + 1] == "Handout (HTML, one page)"
    assert any("print it (Ctrl+P" in caption.value for caption in at.caption)
    text = offered["Handout (HTML, one page)"]()  # built when the button is pressed
    table = preset_tables()["rand_1971"].table
    c = Comparison.from_table(table)
    shown = _values(text)
    assert list(shown) == ["ari", "nmi_sum", "ami", "psi", "nvd", "ci_partition"]  # no data: no centroid index
    assert {i: number for i, (_, number, _) in shown.items()} == {i: format_value(i, c.score(i)) for i in shown}
    assert "<dt>started from</dt><dd>Rand (1971): the worked example</dd>" in text
