"""Teaching state in the URL (AppTest): the Why page's scenario, its slider and its chance bands,
and the PSI vs ARI page's slider are read from a link, and the page shows that state's values."""

from __future__ import annotations

import re

import pytest
from streamlit.testing.v1 import AppTest

from apptools import APP
from cluval_core.data.synthetic import SCENARIOS
from cluval_core.experiments import psi_paper

pytestmark = pytest.mark.slow


def _page(page: str, **query) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=240)
    at.query_params.update(query)
    at.switch_page(page)
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def test_a_link_names_the_why_pages_scenario_and_its_value():
    scenario = SCENARIOS["error"]
    value = scenario.values[3]
    assert value != scenario.default
    at = _page("why_disagree.py", scenario=scenario.title, scenario_value_error=str(value))
    assert at.selectbox(key="scenario").value == "error"
    assert at.select_slider(key="scenario_value_error").value == value


def test_a_link_names_the_psi_vs_ari_pages_cluster_size():
    at = _page("psi_vs_ari.py", sparse_size="25")
    assert at.select_slider(key="sparse_size").value == 25


def test_psi_vs_ari_explains_the_chosen_algorithm_and_highlights_the_decisive_row():
    at = _page("psi_vs_ari.py", explained_algorithm="KM")
    assert at.segmented_control(key="explained_algorithm").value == "KM"
    bullets = next(m.value for m in at.markdown if m.value.startswith("- "))
    line = next(m.value for m in at.markdown if m.value.startswith("KM \\(k"))
    assert "ARI" in line and "PSI" in line
    first = bullets.split("\n")[0]
    assert first.startswith("- PSI \\(") or first.startswith("- The headline similarities agree")
    styled = [frame for frame in at.dataframe
              if frame.proto.arrow_data.HasField("styler") and "213, 94, 0" in frame.proto.arrow_data.styler.styles]
    assert len(styled) == 2  # the computed and the published table
    for frame in styled:  # the highlighted row is the decisive one: ARI shown as 1.00, PSI lowest
        rows = {int(row) for row in re.findall(r"_row(\d+)_col", frame.proto.arrow_data.styler.styles)}
        assert len(rows) == 1
        table = frame.value
        assert table["algorithm"].iloc[rows.pop()] == psi_paper.decisive_row(table)
