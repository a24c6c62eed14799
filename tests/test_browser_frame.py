"""The app's frame in a real browser (headless Chromium, driven by Playwright).

A selection made on Compare goes into the URL; the URL opened in a new browser shows the same
selection and the same ARI; a page without sidebar controls shows none and leaves the selection
as it was; a bad link value gives a warning; the theme follows the browser's light or dark
setting. Screenshots go to tests/artifacts/.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from apptools import choose as _choose
from apptools import metric as _metric
from apptools import settle as _settle

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"  # conftest.py starts the server and the browser

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.data]


def _combobox(page, label: str) -> str:
    return page.get_by_role("combobox", name=label, exact=True).input_value()


def _k(page) -> str:
    return page.get_by_role("spinbutton", name="k (clusters)").input_value()


LONG = 240_000  # ms: the first chart parses plotly's 4.7 MB script, slow on a busy 2-core machine


def _compare_ready(page):
    page.wait_for_selector(".js-plotly-plot .main-svg", timeout=LONG)
    page.locator("[data-testid=stMetric]", has_text="ARI").first.wait_for(timeout=LONG)
    _settle(page, timeout=LONG)


def _wait_for_caption(page, text: str):
    page.get_by_text(text).first.wait_for(timeout=LONG)
    _settle(page, timeout=LONG)


def _query(url: str) -> dict:
    return {key: values[-1] for key, values in parse_qs(urlparse(url).query).items()}


@pytest.fixture
def context(browser):
    context = browser.new_context(viewport={"width": 1600, "height": 1200})
    yield context
    context.close()


def test_a_link_reproduces_the_selection_and_its_values(server, browser, context):
    page = context.new_page()
    page.goto(f"{server}/?dataset=iris", wait_until="domcontentloaded")  # small: the first view comes quickly
    _compare_ready(page)
    _choose(page, "Data set", "Aggregate")
    _wait_for_caption(page, "Aggregate")
    _choose(page, "Algorithm", "k-means (random start")
    _settle(page, timeout=LONG)
    k = page.get_by_role("spinbutton", name="k (clusters)")
    k.fill("5")
    k.press("Enter")
    page.wait_for_function("() => new URLSearchParams(location.search).get('k') === '5'", timeout=LONG)
    _compare_ready(page)
    chosen = {"dataset": _combobox(page, "Data set"), "algorithm": _combobox(page, "Algorithm"), "k": _k(page),
              "ari": _metric(page, "ARI")}
    assert chosen["dataset"].startswith("Aggregate") and chosen["algorithm"].startswith("k-means (random")
    assert _query(page.url) == {"dataset": "aggregation", "reference": "labels0", "algorithm": "kmeans", "k": "5",
                                "seed": "0", "noise": "cluster"}
    page.screenshot(path=str(ARTIFACTS / "frame_chosen.png"))

    elsewhere = browser.new_context(viewport={"width": 1600, "height": 1200})  # a new session, nothing shared
    try:
        linked = elsewhere.new_page()
        linked.goto(page.url, wait_until="domcontentloaded")
        _compare_ready(linked)
        shown = {"dataset": _combobox(linked, "Data set"), "algorithm": _combobox(linked, "Algorithm"),
                 "k": _k(linked), "ari": _metric(linked, "ARI")}
        assert shown == chosen
        assert _query(linked.url) == _query(page.url)
        linked.screenshot(path=str(ARTIFACTS / "frame_linked.png"))
    finally:
        elsewhere.close()

    # a page without sidebar controls draws none and keeps the selection; so does reloading
    page.get_by_role("link", name="Index reference").click()
    page.get_by_role("heading", name="Index reference").wait_for(timeout=60_000)
    page.get_by_role("heading", name="The other tools").wait_for(timeout=LONG)  # the end of the page: its run is done
    _settle(page)
    assert page.get_by_role("combobox", name="Data set", exact=True).count() == 0
    assert page.get_by_role("spinbutton", name="k (clusters)").count() == 0
    assert _query(page.url) == {}
    page.get_by_role("link", name="Compare").click()
    _compare_ready(page)
    assert (_combobox(page, "Algorithm"), _k(page), _metric(page, "ARI")) == \
        (chosen["algorithm"], chosen["k"], chosen["ari"])
    page.reload(wait_until="domcontentloaded")
    _compare_ready(page)
    assert (_combobox(page, "Data set"), _k(page), _metric(page, "ARI")) == (chosen["dataset"], "5", chosen["ari"])


def test_the_soft_page_shows_the_data_set_and_reference_only(server, context):
    page = context.new_page()
    page.goto(f"{server}/soft?dataset=r15&reference=labels1", wait_until="domcontentloaded")
    page.get_by_role("heading", name="Soft partitions").wait_for(timeout=LONG)
    page.wait_for_selector(".js-plotly-plot .main-svg", timeout=LONG)
    _settle(page, timeout=LONG)
    sidebar = page.locator("[data-testid=stSidebar]")
    assert sidebar.get_by_role("combobox").count() == 2
    assert _combobox(page, "Data set").startswith("R15")
    assert _combobox(page, "Reference partition").startswith("ground truth labels1")
    assert page.get_by_role("spinbutton", name="k (clusters)").count() == 0


def test_a_bad_link_value_shows_a_warning_and_the_default(server, context):
    page = context.new_page()
    page.goto(f"{server}/?dataset=iris&k=%3Cb%3E9%3C%2Fb%3E&algorithm=nope", wait_until="domcontentloaded")
    _compare_ready(page)
    warning = page.locator("[data-testid=stAlert]", has_text="not understood").first.inner_text()
    assert "k '<b>9</b>'" in warning and "algorithm 'nope'" in warning
    assert _k(page) == "3" and _combobox(page, "Algorithm").startswith("k-means++")
    assert page.get_by_text("Traceback").count() == 0
    assert "k" not in _query(page.url) and _query(page.url)["algorithm"] == "kmeans++"


def _luminance(colour: str) -> float:
    """0 (black) to 1 (white), from "rgb(r, g, b)" or "#rrggbb"."""
    if colour.startswith("#"):
        r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    else:
        r, g, b = (int(v) for v in re.findall(r"\d+", colour)[:3])
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_theme_follows_the_browsers_setting(server, browser, scheme):
    context = browser.new_context(viewport={"width": 1600, "height": 1200}, color_scheme=scheme)
    try:
        page = context.new_page()
        page.goto(f"{server}/?dataset=aggregation", wait_until="domcontentloaded")
        _compare_ready(page)
        background = page.locator("[data-testid=stApp]").evaluate("e => getComputedStyle(e).backgroundColor")
        text = page.locator("h1").first.evaluate("e => getComputedStyle(e).color")
        if scheme == "dark":
            assert _luminance(background) < 0.2 < 0.8 < _luminance(text)
        else:
            assert _luminance(text) < 0.2 < 0.8 < _luminance(background)
        # the charts take Streamlit's theme: the page's background and a text colour that reads on it
        layouts = page.eval_on_selector_all(
            ".js-plotly-plot", "plots => plots.map(p => [p._fullLayout.paper_bgcolor, p._fullLayout.font.color])")
        assert len(layouts) >= 4
        for paper, font in layouts:
            if scheme == "dark":
                assert _luminance(paper) < 0.2 and _luminance(font) > 0.5, (paper, font)
            else:
                assert _luminance(paper) > 0.8 and _luminance(font) < 0.6, (paper, font)
        page.screenshot(path=str(ARTIFACTS / f"frame_compare_{scheme}.png"), full_page=False)
    finally:
        context.close()
