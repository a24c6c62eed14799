"""The Compare page's headline and its view in the URL, under AppTest: a distance's headline value
says that lower is better (as the registry's ``higher_is_better`` has it), and the table's
colouring (``?colour=``) and the mapping's basis (``?mapping=``) come from the link, survive the
sidebar's own writes to the URL and leave it when set back to their defaults."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from apptools import APP
from apptools import plotly_figure as _chart
from cluval_core import INDICES
from pages import _views as views

pytestmark = pytest.mark.data  # the default page compares S1


def _open(**query) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update(query)
    at.run()
    assert not at.exception and not at.error, [e.message for e in at.exception]
    return at


def _headline(at) -> dict:
    """Each headline metric's label and the captions under it, column by column."""
    shown = {}
    for column in at.get("column"):
        metrics = [m for m in column.get("metric")]
        if len(metrics) == 1 and metrics[0].label in views.HEADLINE.values():
            shown[metrics[0].label] = [c.value for c in column.get("caption")]
    return shown


def test_distances_in_the_headline_say_lower_is_better():
    at = _open()
    shown = _headline(at)
    assert set(shown) == set(views.HEADLINE.values())  # S1 has data: every headline index
    for index_id, label in views.HEADLINE.items():
        expected = [] if INDICES[index_id].higher_is_better else ["lower is better"]
        assert shown[label] == expected, label
    # the registry's distances among them, written out: the check above cannot pass by saying nothing
    assert {label for label, captions in shown.items() if captions} == {"NVD", "CI (partition)", "CI (centroid)"}


def test_a_link_sets_the_colouring_and_the_mapping_basis():
    at = _open(colour="ari", mapping="partition")
    assert at.selectbox(key="colour").value == "ari"
    assert at.button_group(key="mapping").value == "partition"
    trace = _chart(at, "compare_contingency")["data"][0]
    assert trace["colorbar"]["title"]["text"] == "share" and trace["zmid"] == 0  # contributions, not counts
    assert _chart(at, "compare_mapping_partition")["layout"]["title"]["text"].startswith("orphans: ")
    assert not [c for c in at.get("plotly_chart") if c.proto.id.endswith("-compare_mapping_centroid")]
    assert any("contribution to Adjusted Rand index" in c.value for c in at.caption)
    assert any(m.value.startswith("**CI mapping**: CI = ") for m in at.markdown)
    assert at.query_params["colour"] == ["ari"] or at.query_params["colour"] == "ari"

    # the sidebar rewrites its keys; the page's own stay and the page still draws
    at.selectbox(key="algorithm").set_value("single").run()
    assert not at.exception and not at.error, [e.message for e in at.exception]
    assert dict(at.query_params)["algorithm"] in ("single", ["single"])
    assert at.selectbox(key="colour").value == "ari" and at.button_group(key="mapping").value == "partition"
    assert {"colour", "mapping"} <= set(at.query_params)


def test_defaults_and_unknown_values_stay_out_of_the_link():
    at = _open()
    assert at.selectbox(key="colour").value == "counts" and at.button_group(key="mapping").value == "centroid"
    assert _chart(at, "compare_contingency")["data"][0]["colorbar"]["title"]["text"] == "n_ij"
    assert "colour" not in at.query_params and "mapping" not in at.query_params
    at = _open(colour="no_such_index", mapping="centroid")  # a bad value: the default, and no failure
    assert at.selectbox(key="colour").value == "counts"
    assert at.button_group(key="mapping").value == "centroid"
    assert set(at.selectbox(key="colour").options) == {"counts"} | {i for i, info in INDICES.items() if info.anatomy}
