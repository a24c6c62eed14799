"""Build a table in a real browser (headless Chromium, driven by Playwright).

A cell typed into the editor changes the values and goes into the URL; the URL opened anew (a
reload, a new session) shows the same table and values, which AppTest cannot check (it keeps
query parameters the browser's first run would lose); a hostile link gives a warning.
Screenshots go to tests/artifacts/.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from apptools import metric as _metric
from apptools import settle as _settle
from cluval_core import Comparison
from cluval_core.data.presets import preset_tables, table_from_text
from cluval_core.outputs.export import format_value

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"  # conftest.py starts the server and the browser
LONG = 240_000  # ms: the first chart parses plotly's 4.7 MB script, slow on a busy 2-core machine
ROW = 35  # px: the editor's header and row height

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _query(url: str) -> dict:
    return {key: values[-1] for key, values in parse_qs(urlparse(url).query).items()}


def _ready(page):
    page.wait_for_selector(".js-plotly-plot .main-svg", timeout=LONG)
    page.locator("[data-testid=stMetric]", has_text="PSI").first.wait_for(timeout=LONG)
    _settle(page, timeout=LONG)


def _psi(table) -> str:
    return format_value("psi", Comparison.from_table(table).score("psi"))


@pytest.fixture
def context(browser):
    context = browser.new_context(viewport={"width": 1600, "height": 1200})
    yield context
    context.close()


def test_a_typed_cell_changes_the_values_and_a_link_or_reload_reproduces_it(server, browser, context):
    page = context.new_page()
    page.goto(f"{server}/build_table?preset=psi_imbalance", wait_until="domcontentloaded")
    _ready(page)
    table = preset_tables()["psi_imbalance"].table
    assert _metric(page, "PSI") == _psi(table)

    # the editor is a canvas: type into cell (row 3, column 3) by its position
    editor = page.locator("[data-testid=stDataFrame]").first
    editor.locator("canvas").first.wait_for(timeout=LONG)
    edited_url = "() => new URLSearchParams(location.search).get('table') === '900,100,0;100,900,0;0,0,1000'"
    cell_editor = page.locator("input.gdg-input")  # the grid's editor, opened over the selected cell
    try:
        # select the cell, open its editor with Enter and wait for it: a click landing while the page
        # still reruns can be lost, so the cell is selected again (at most three times) until it opens
        for attempt in range(3):
            page.wait_for_timeout(1000)
            box = editor.bounding_box()
            page.mouse.click(box["x"] + box["width"] - 20, box["y"] + ROW * 3 + ROW / 2)
            page.wait_for_timeout(300)
            page.keyboard.press("Enter")
            try:
                cell_editor.wait_for(state="visible", timeout=10_000)
                break
            except Exception:
                if attempt == 2:
                    raise
                _settle(page, timeout=LONG)
        cell_editor.fill("1000")
        cell_editor.press("Enter")
        page.wait_for_function(edited_url, timeout=LONG)
    finally:
        page.screenshot(path=str(ARTIFACTS / "build_table_edited.png"))
    _ready(page)
    edited = table_from_text(_query(page.url)["table"])
    assert _metric(page, "PSI") == _psi(edited) and _metric(page, "ARI") == format_value(
        "ari", Comparison.from_table(edited).score("ari"))
    url, shown = page.url, {name: _metric(page, name) for name in ("ARI", "PSI")}

    page.reload(wait_until="domcontentloaded")
    _ready(page)
    assert _query(page.url)["table"] == "900,100,0;100,900,0;0,0,1000"
    assert {name: _metric(page, name) for name in ("ARI", "PSI")} == shown

    elsewhere = browser.new_context(viewport={"width": 1600, "height": 1200})  # a new session
    try:
        linked = elsewhere.new_page()
        linked.goto(url, wait_until="domcontentloaded")
        _ready(linked)
        assert {name: _metric(linked, name) for name in ("ARI", "PSI")} == shown
        assert _query(linked.url) == _query(url)
    finally:
        elsewhere.close()


def test_a_hostile_link_gives_a_warning_and_the_default_table(server, context):
    page = context.new_page()
    page.goto(f"{server}/build_table?table=1,2;3&preset=<b>x</b>", wait_until="domcontentloaded")
    _ready(page)
    warning = page.locator("[data-testid=stAlertContentWarning]").first.inner_text()
    assert "not understood" in warning and "differ in length" in warning and "<b>x</b>" in warning
    assert _metric(page, "PSI") == _psi(preset_tables()["rand_1971"].table)
    assert _query(page.url)["table"] == "2,1,0;0,2,1"


def test_a_counterexample_of_the_property_atlas_opens_here_with_its_note(server, context):
    """The atlas page's link opens Build a table in a new tab, on the counterexample's table, with the
    note saying what it shows above the editor."""
    from cluval_core.indices.properties import counterexample

    page = context.new_page()
    page.goto(f"{server}/property_atlas", wait_until="domcontentloaded")
    page.get_by_role("heading", name="One claim in detail").wait_for(timeout=LONG)
    _settle(page, timeout=LONG)
    example = counterexample("ari", "distance")  # the claim the page shows first
    with context.expect_page() as opened:
        page.get_by_role("link", name="open in Build a table").first.click()
    page = opened.value
    page.get_by_role("heading", name="Build a table").wait_for(timeout=LONG)
    _ready(page)
    query = _query(page.url)
    assert query["atlas"] == "ari:distance:0"
    assert table_from_text(query["table"]).tolist() == example.tables()[0][1].tolist()
    main = page.locator("[data-testid=stMain]")
    assert "A counterexample from the property atlas" in main.inner_text()
    assert "Adjusted Rand index fails distance" in main.inner_text()
    assert _metric(page, "ARI") == format_value("ari", example.values[0])
    page.screenshot(path=str(ARTIFACTS / "build_table_atlas.png"))
