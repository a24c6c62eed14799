"""The sidebar and the browser's history under AppTest: Back and Forward bring back the selection
their URL names, a stale URL outside history navigation does not, and a page's own URL keys do not
follow the user to another page. AppTest cannot press Back: a test sets the URL of the history
entry and makes the run one that Streamlit reports as history navigation."""

from __future__ import annotations

import pytest

from apptools import open_app as _app
from cluval_core import compare
from cluval_core.outputs.export import format_value
from pages import _shared as ui

pytestmark = pytest.mark.slow

COMPARE, SOFT, BUILD = "compare.py", "soft.py", "build_table.py"
SYNTHETIC = "unbalance_like"  # a synthetic set: no benchmark data needed


def _selection(at) -> ui.Selection:
    return at.session_state["selection"]


def _browse_to(at, query: dict, monkeypatch, *, history: bool = True) -> None:
    """Rerun with the browser's URL at `query`, as Back or Forward (history) or any other run does."""
    at.query_params.clear()
    at.query_params.update(query)
    monkeypatch.setattr(ui, "_history_navigation", lambda: history)
    at.run()
    monkeypatch.setattr(ui, "_history_navigation", lambda: False)
    assert not at.exception, [e.message for e in at.exception]


def _ari(at) -> str:
    return next(m.value for m in at.metric if m.label == "ARI")


def test_back_and_forward_bring_back_the_selection_of_their_url(monkeypatch):
    at = _app(COMPARE, dataset=SYNTHETIC)
    first, first_selection, first_ari = dict(at.query_params), _selection(at), _ari(at)
    assert first["algorithm"] == "kmeans++"
    at.selectbox(key="algorithm").set_value("ward").run()
    second, second_selection, second_ari = dict(at.query_params), _selection(at), _ari(at)
    assert second["algorithm"] == "ward" and second_ari != first_ari

    _browse_to(at, first, monkeypatch)  # Back
    assert _selection(at) == first_selection
    assert at.selectbox(key="algorithm").value == "kmeans++" and _ari(at) == first_ari
    assert dict(at.query_params) == first  # the entry is left as it was: nothing new is written

    _browse_to(at, second, monkeypatch)  # Forward
    assert _selection(at) == second_selection
    assert at.selectbox(key="algorithm").value == "ward" and _ari(at) == second_ari
    assert dict(at.query_params) == second


def test_the_values_after_back_are_those_of_the_url(monkeypatch):
    at = _app(COMPARE, dataset=SYNTHETIC)
    first = dict(at.query_params)
    at.number_input(key="k").set_value(3).run()
    at.selectbox(key="noise").set_value("noise points as singletons").run()
    assert at.query_params["k"] == "3" and at.query_params["noise"] == "singletons"
    _browse_to(at, first, monkeypatch)
    assert at.session_state[ui._STATE]["k"] is None and at.number_input(key="k").value == 8  # k follows the reference
    assert _selection(at).noise == ui.DEFAULT_NOISE
    parts = ui.partitions(_selection(at))
    expected = compare(parts.reference, parts.candidate, X=parts.points.X).score("ari")
    assert _ari(at) == format_value("ari", expected)


def test_a_stale_url_outside_history_navigation_changes_nothing(monkeypatch):
    # e.g. a rerun asked for before the browser had taken the app's last URL
    at = _app(COMPARE, dataset=SYNTHETIC)
    first = dict(at.query_params)
    at.selectbox(key="algorithm").set_value("ward").run()
    _browse_to(at, first, monkeypatch, history=False)
    assert _selection(at).algorithm == "ward" and at.query_params["algorithm"] == "ward"


def test_an_entry_without_the_sidebar_keys_keeps_the_selection(monkeypatch):
    # a page switch leaves an entry without the sidebar's keys before the app writes them
    at = _app(COMPARE, dataset="m2_15")
    at.selectbox(key="algorithm").set_value("ward").run()
    kept = dict(at.query_params)
    _browse_to(at, {}, monkeypatch)
    assert _selection(at).dataset == "m2_15" and _selection(at).algorithm == "ward"
    assert dict(at.query_params) == kept


def test_back_on_a_page_with_some_controls_restores_only_those(monkeypatch):
    at = _app(COMPARE, dataset=SYNTHETIC)
    at.switch_page(SOFT).run()
    soft_entry = dict(at.query_params)
    assert soft_entry == {"dataset": SYNTHETIC, "reference": "labels0"}
    at.selectbox(key="dataset").set_value("m2_15").run()
    at.switch_page(COMPARE).run()
    at.selectbox(key="algorithm").set_value("ward").run()
    at.switch_page(SOFT).run()
    _browse_to(at, soft_entry, monkeypatch)  # back to the soft page's entry of the first data set
    assert _selection(at).dataset == SYNTHETIC
    assert at.session_state[ui._STATE]["algorithm"] == "ward"  # the soft page does not show it: kept


def test_a_links_bad_value_met_by_back_is_named_and_replaced():
    at = _app(COMPARE, dataset=SYNTHETIC)
    state = at.session_state[ui._STATE]
    problems = []
    ui._take_url(state, {"dataset": SYNTHETIC, "algorithm": "nonsense"}, ui.dataset_options(), problems,
                 ui.ALL_CONTROLS)
    assert problems == ["algorithm 'nonsense'"] and state["algorithm"] == ui.DEFAULT_ALGORITHM


def test_a_pages_own_url_keys_stay_on_that_page_only(monkeypatch):
    at = _app(BUILD)
    own = dict(at.query_params)
    assert set(own) == {"table", "preset"}
    at.run()
    assert dict(at.query_params) == own  # they stay while the page is shown
    at.switch_page(COMPARE).run()
    assert not {"table", "preset"} & set(at.query_params)  # ... and do not follow the user
    assert at.query_params["dataset"]

    _browse_to(at, own, monkeypatch)  # Back to Build a table's entry: its keys are its own
    assert dict(at.query_params)["table"] == own["table"]


def test_an_unknown_key_of_a_link_stays_on_its_page():
    at = _app(COMPARE, dataset=SYNTHETIC, utm_source="mail")
    assert at.query_params["utm_source"] == "mail"
    at.selectbox(key="algorithm").set_value("ward").run()
    assert at.query_params["utm_source"] == "mail"
