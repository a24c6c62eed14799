"""Why these values differ and how an index is computed, on Build a table and Compare (AppTest): what
the page says is the library's explanation and steps for the table shown, the chosen claim is
outlined on the contingency table, and every index's computation can be opened."""

from __future__ import annotations

import json

import numpy as np
from streamlit.testing.v1 import AppTest
from test_explain import UNBALANCE_KMEANS

from apptools import APP, open_app
from cluval_core import INDICES, Comparison
from cluval_core.data.presets import table_to_text
from cluval_core.outputs.explain import explain, outline
from cluval_core.outputs.plots import OUTLINE, contingency_heatmap
from pages import _shared as ui

TEXT = table_to_text(UNBALANCE_KMEANS)


def _build(**query) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update({"table": TEXT, **query})
    at.switch_page("build_table.py")
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def _library() -> Comparison:
    """The comparison Build a table makes of the table: clusters numbered from 1."""
    k = UNBALANCE_KMEANS.shape[0]
    return Comparison.from_table(UNBALANCE_KMEANS, row_labels=list(range(1, k + 1)), col_labels=list(range(1, k + 1)))


def _claims_shown(at) -> str:
    (shown,) = [m.value for m in at.markdown if m.value.startswith("1. ")]
    return shown


def _outlined(at) -> list:
    """The outline trace of the contingency table: the x and y of its rectangles."""
    heatmap = next(json.loads(chart.proto.spec) for chart in at.get("plotly_chart")
                   if json.loads(chart.proto.spec)["data"][0]["type"] == "heatmap")
    traces = [trace for trace in heatmap["data"] if trace.get("line", {}).get("color") == OUTLINE]
    return [(trace["x"], trace["y"]) for trace in traces]


def _expected_outline(c, claim) -> list:
    trace = contingency_heatmap(c, outline=outline(claim)).data[-1]
    return [(list(trace.x), list(trace.y))]


def test_build_a_table_says_the_librarys_claims_and_outlines_the_chosen_one():
    at = _build()
    c = _library()
    claims = explain(c).claims
    shown = _claims_shown(at)
    lines = shown.split("\n")
    assert len(lines) == len(claims)
    assert lines[0] == f"1. **{ui.plain(claims[0].text)}**"  # the first claim is chosen: in bold
    assert lines[1:] == [f"{n}. {ui.plain(claim.text)}" for n, claim in enumerate(claims[1:], 2)]
    assert "PSI \\(0\\.2346\\) is lower than NMI \\(0\\.8076\\)" in lines[0]
    assert _outlined(at) == _expected_outline(c, claims[0])

    at.segmented_control(key="build_claim").set_value("6").run()  # the merge
    assert claims[5].kind == "merge"
    assert _claims_shown(at).split("\n")[5] == f"6. **{ui.plain(claims[5].text)}**"
    assert _outlined(at) == _expected_outline(c, claims[5])


def test_a_link_names_the_claim_and_the_index():
    at = _build(build_claim="7", build_index="Pair Sets Index")
    c = _library()
    claims = explain(c).claims
    assert claims[6].kind == "split"
    assert _outlined(at) == _expected_outline(c, claims[6])
    assert at.selectbox(key="build_index").value == "psi"


def _steps_shown(at) -> str:
    expected_start = "S \\= "
    return next(m.value for m in at.markdown if m.value.startswith(expected_start) and "PSI \\= " in m.value
                and "Rezaei" not in m.value)


def test_every_index_computation_is_the_librarys_steps():
    at = _build()
    c = _library()
    for index_id in INDICES:
        if INDICES[index_id].needs_data:
            assert index_id not in at.selectbox(key="build_index").options
            continue
        at.selectbox(key="build_index").set_value(index_id).run()
        assert not at.exception, [e.message for e in at.exception]
        steps = c.steps(index_id)
        expected = "  \n".join(ui.plain(str(step)) for step in steps)
        assert any(m.value == expected for m in at.markdown), index_id
        assert any(m.value == f"$$\n{INDICES[index_id].formula}\n$$" for m in at.latex), index_id


def test_psi_computation_and_its_value():
    at = _build()
    at.selectbox(key="build_index").set_value("psi").run()
    shown = _steps_shown(at).split("  \n")
    assert shown[-1].endswith("\\= 0\\.2346")
    assert shown[0].startswith("S \\= Σ n\\_ij / max\\(r\\_i, c\\_j\\) over the optimal pairs")
    assert any(ui.plain("The last step is the value on this page: 0.2346.") in c.value for c in at.caption)


def test_compare_explains_its_own_comparison():
    """On Compare (a synthetic set: no data needed), the claims quote the headline values shown."""
    at = open_app()
    metrics = {m.label: m.value for m in at.metric}
    shown = _claims_shown(at)
    first = shown.split("\n")[0]
    assert first.startswith("1. **")
    quoted = [label for label in ("ARI", "NMI", "AMI", "PSI") if f"{label} {ui.plain(metrics[label])}" in first
              or f"{label} \\({ui.plain(metrics[label])}\\)" in first]
    assert len(quoted) >= 2, (first, metrics)
    assert at.selectbox(key="index").value == "ari"
    assert any(m.value.startswith("a \\= Σ C\\(n\\_ij, 2\\)") for m in at.markdown)
    assert np.isfinite(float(metrics["ARI"]))
