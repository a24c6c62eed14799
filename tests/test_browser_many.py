"""Many clusterings in a real browser (headless Chromium, driven by Playwright).

At 1920 x 1080 the heatmaps and the verdict sit side by side, and over k the stability curve
beside its verdict; at 1280 x 720 nothing is cut off at the right edge (a block that would be
squeezed moves below). The choices go into the URL and a reload shows the same view. Only the
local server is contacted. Screenshots go to tests/artifacts/.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from apptools import settle as _settle

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"  # conftest.py starts the server and the browser
LONG = 240_000  # ms: the first chart parses plotly's 4.7 MB script, slow on a busy 2-core machine
LOCAL = {"127.0.0.1", "localhost"}

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _box(locator):
    box = locator.bounding_box()
    assert box is not None
    return box


def _query(url: str) -> dict:
    return {key: values[-1] for key, values in parse_qs(urlparse(url).query).items()}


def _ready(page, chart: str):
    page.wait_for_selector(f".st-key-{chart} .js-plotly-plot .main-svg", timeout=LONG)
    page.wait_for_selector(".st-key-many_beside [data-testid=stDataFrame]", timeout=LONG)
    _settle(page, timeout=LONG)


def _first_row(page) -> str:
    """The verdict's sentence: which solutions every index ranks first."""
    return page.locator(".st-key-many_beside [data-testid=stMarkdownContainer]").first.inner_text()


def _fits(boxes, width):
    for box in boxes:
        assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1, (width, box)


def _seeds_layout(page, width, height):
    page.set_viewport_size({"width": width, "height": height})
    _settle(page)
    page.wait_for_timeout(500)  # the charts follow the new width
    page.screenshot(path=str(ARTIFACTS / f"many_seeds_{width}.png"))
    ari = _box(page.locator(".st-key-many_heatmap_ari .js-plotly-plot").first)
    psi = _box(page.locator(".st-key-many_heatmap_psi .js-plotly-plot").first)
    verdict = _box(page.locator(".st-key-many_beside [data-testid=stDataFrame]").first)
    _fits((ari, psi, verdict), width)
    assert ari["x"] + ari["width"] <= psi["x"] and abs(ari["y"] - psi["y"]) < 5  # heatmaps side by side
    if width == 1920:
        assert psi["x"] + psi["width"] <= verdict["x"] and verdict["y"] < ari["y"] + ari["height"]
        assert ari["y"] + ari["height"] <= height  # the first screen holds the heatmaps and the verdict
    else:
        assert verdict["y"] >= ari["y"] + ari["height"]  # no room beside them: below, whole


def _k_layout(page, width, height):
    page.set_viewport_size({"width": width, "height": height})
    _settle(page)
    page.wait_for_timeout(500)
    page.screenshot(path=str(ARTIFACTS / f"many_k_{width}.png"))
    curve = _box(page.locator(".st-key-many_curve .js-plotly-plot").first)
    verdict = _box(page.locator(".st-key-many_beside [data-testid=stDataFrame]").first)
    _fits((curve, verdict), width)
    if width == 1920:
        assert curve["x"] + curve["width"] <= verdict["x"] and abs(curve["y"] - verdict["y"]) < 120
    else:
        assert verdict["y"] >= curve["y"] + curve["height"]  # below the curve, every column in sight


def test_views_side_by_side_and_a_reload_keeps_the_choices(server, browser):
    requests = []
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    context.on("request", lambda request: requests.append(request.url))
    page = context.new_page()
    page.goto(f"{server}/many_clusterings?dataset=lei_g1_ovp3", wait_until="domcontentloaded")
    _ready(page, "many_heatmap_psi")
    assert "seed" in _first_row(page)
    _seeds_layout(page, 1920, 1080)
    _seeds_layout(page, 1280, 720)

    page.get_by_test_id("stRadioGroup").get_by_text("One algorithm over k (stability)", exact=True).click()
    _ready(page, "many_curve")
    _k_layout(page, 1280, 720)
    _k_layout(page, 1920, 1080)
    query = _query(page.url)
    assert query["many_mode"] == "k" and query["dataset"] == "lei_g1_ovp3" and query["many_ids"] == "ari,psi"
    chosen = _first_row(page)
    assert "k=" in chosen

    page.reload(wait_until="domcontentloaded")
    _ready(page, "many_curve")
    assert page.get_by_role("radio", name="One algorithm over k (stability)").is_checked()
    assert _first_row(page) == chosen and _query(page.url) == query
    assert page.get_by_text("Traceback").count() == 0
    context.close()
    hosts = {urlparse(url.removeprefix("blob:")).hostname for url in requests if not url.startswith("data:")}
    assert hosts and hosts <= LOCAL, sorted(hosts)
