"""Teaching state in the URL (AppTest): the Why page's scenario, its slider and its chance bands,
and the PSI vs ARI page's slider are read from a link, and the page shows that state's values."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from apptools import APP
from cluval_core.data.synthetic import SCENARIOS

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
