"""The browser's Back and Forward buttons with the sidebar, in headless Chromium: Back undoes a
sidebar change (the sidebar, the URL and the values return), Forward redoes it, each change of
Compare's own controls is an entry of its own, and a page's own URL keys stay behind when the
user goes to another page. A synthetic data set: no benchmark data."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest

from apptools import choose as _choose
from apptools import metric as _metric
from apptools import settle as _settle

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SYNTHETIC = "unbalance_like"


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1600, "height": 1000})
    yield context.new_page()
    context.close()


def _query(url: str) -> dict:
    return {key: values[-1] for key, values in parse_qs(urlparse(url).query).items()}


def _algorithm(page) -> str:
    return page.get_by_role("combobox", name="Algorithm", exact=True).input_value()


def _wait_for(page, what, expected, timeout_ms: int = 90_000):
    """Wait until `what(page)` equals `expected` (the app reruns after Back), then settle."""
    for _ in range(timeout_ms // 250):
        if what(page) == expected:
            break
        page.wait_for_timeout(250)
    _settle(page)
    assert what(page) == expected


def test_back_and_forward_undo_and_redo_a_sidebar_change(server, page):
    page.goto(f"{server}/?dataset={SYNTHETIC}", wait_until="domcontentloaded")
    page.wait_for_selector(".js-plotly-plot .main-svg", timeout=90_000)
    _settle(page)
    first_url, first_ari, first_ami = page.url, _metric(page, "ARI"), _metric(page, "AMI")
    assert _query(first_url)["algorithm"] == "kmeans++" and _algorithm(page).startswith("k-means++")

    _choose(page, "Algorithm", "Agglomerative, Ward")
    _wait_for(page, lambda p: _query(p.url).get("algorithm"), "ward")
    ward_url, ward_ari = page.url, _metric(page, "ARI")
    assert ward_ari != first_ari
    entries = page.evaluate("history.length")

    page.go_back()
    _wait_for(page, _algorithm, "k-means++ (best of n_init)")
    assert _query(page.url) == _query(first_url)  # the app took the URL's selection and kept it
    assert (_metric(page, "ARI"), _metric(page, "AMI")) == (first_ari, first_ami)  # k-means++'s values
    assert page.evaluate("history.length") == entries  # no entry swallowed, none added

    page.go_forward()
    _wait_for(page, _algorithm, "Agglomerative, Ward")
    assert _query(page.url) == _query(ward_url) and _metric(page, "ARI") == ward_ari
    assert page.get_by_text("Traceback").count() == 0


def test_a_pages_own_url_keys_do_not_follow_the_user(server, page):
    page.goto(f"{server}/build_table", wait_until="domcontentloaded")
    page.get_by_role("heading", name="Build a table").first.wait_for(timeout=90_000)
    _wait_for(page, lambda p: "table" in _query(p.url), True)
    assert "preset" in _query(page.url)
    page.get_by_role("link", name="Compare").first.click()
    page.wait_for_selector(".js-plotly-plot .main-svg", timeout=90_000)
    _wait_for(page, lambda p: "dataset" in _query(p.url), True)
    assert not {"table", "preset"} & set(_query(page.url)), page.url
    page.get_by_role("link", name="Index reference").click()
    page.get_by_role("heading", name="Index reference").first.wait_for(timeout=90_000)
    _settle(page)
    assert _query(page.url) == {}, page.url  # a page without sidebar controls: nothing of the others


def _compare_view(page) -> dict:
    """The Compare page's own controls as the page shows them."""
    return {"colour": page.get_by_role("combobox", name="Colour the cells by", exact=True).input_value(),
            "mapping": "partition" if page.locator(".st-key-compare_mapping_partition .js-plotly-plot").count()
            else "centroid",
            "index": page.get_by_role("combobox", name="Index", exact=True).input_value()}


def test_back_undoes_each_change_of_the_compare_pages_own_controls(server, page):
    """The table's colouring, the mapping's basis and the index computed: each change is one entry in
    the history, Back undoes the last one (the view and the URL), Forward redoes it."""
    page.goto(f"{server}/?dataset={SYNTHETIC}", wait_until="domcontentloaded")
    page.wait_for_selector(".st-key-compare_mapping_centroid .js-plotly-plot .main-svg", timeout=90_000)
    _settle(page)
    start = {"colour": "counts", "mapping": "centroid", "index": "Adjusted Rand index"}
    assert _compare_view(page) == start
    entries = page.evaluate("history.length")
    views, urls = [start], [_query(page.url)]
    page.locator(".st-key-mapping button", has_text="partition").click()
    _wait_for(page, lambda p: _query(p.url).get("mapping"), "partition")
    views.append({**views[-1], "mapping": "partition"})
    _choose(page, "Colour the cells by", "ari")
    _wait_for(page, lambda p: _query(p.url).get("colour"), "ari")
    views.append({**views[-1], "colour": "ari"})
    _choose(page, "Index", "Pair Sets Index")
    _wait_for(page, lambda p: _query(p.url).get("index"), "Pair Sets Index")
    views.append({**views[-1], "index": "Pair Sets Index"})
    assert _compare_view(page) == views[-1]
    assert page.evaluate("history.length") == entries + 3  # one entry a change
    urls += [None, None, _query(page.url)]
    for view in reversed(views[:-1]):
        page.go_back()
        _wait_for(page, _compare_view, view)
    assert _query(page.url) == urls[0]  # none of the page's keys left: their defaults
    page.go_forward()
    _wait_for(page, _compare_view, views[1])
    assert _query(page.url).get("mapping") == "partition" and "colour" not in _query(page.url)
    assert page.evaluate("history.length") == entries + 3  # Back and Forward add nothing
    assert page.get_by_text("Traceback").count() == 0
