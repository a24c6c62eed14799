"""Hierarchies in a real browser (headless Chromium, driven by Playwright): a point clicked on the
profile of every cut chooses the cut the tanglegram, the marked line and the link to Compare show,
and the URL keeps it. Screenshots go to tests/artifacts/.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from apptools import settle

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"  # conftest.py starts the server and the browser
LONG = 240_000  # ms: the first chart parses plotly's 4.7 MB script, slow on a busy 2-core machine

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _shown_cut(page) -> int:
    heading = page.get_by_role("heading", name=re.compile(r"^The cut into \d+ clusters$")).inner_text()
    return int(re.search(r"\d+", heading).group())


def _tick_x(chart, label: str) -> float:
    for tick in chart.locator(".xtick text").all():
        if tick.text_content() == label:
            box = tick.bounding_box()
            return box["x"] + box["width"] / 2
    raise AssertionError(f"no tick {label!r} on the profile's k axis")


@pytest.mark.parametrize("width, height", [(1920, 1080), (1280, 720)])
def test_a_point_clicked_on_the_profile_chooses_the_cut(server, browser, width, height):
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(f"{server}/hierarchies?dataset=lei_g1_ovp3&tree_up_to=20", wait_until="domcontentloaded")
    page.wait_for_selector(".st-key-tree_profile .js-plotly-plot .main-svg", timeout=LONG)
    settle(page, timeout=LONG)
    before = _shown_cut(page)
    chart = page.locator(".st-key-tree_profile").first
    chart.scroll_into_view_if_needed()
    target = 10 if before != 10 else 5
    x = _tick_x(chart, str(target))
    area = chart.locator(".nsewdrag").first.bounding_box()
    page.mouse.click(x, area["y"] + area["height"] / 2)  # the nearest point at that k is selected
    page.wait_for_function(f"() => [...document.querySelectorAll('h3')].some(h => h.innerText === "
                           f"'The cut into {target} clusters')", timeout=LONG)
    settle(page, timeout=LONG)
    page.screenshot(path=str(ARTIFACTS / f"hierarchies_clicked_{width}.png"))
    assert _shown_cut(page) == target
    assert parse_qs(urlparse(page.url).query)["tree_cut"] == [str(target)]
    link = page.get_by_role("link", name=re.compile("Open this pair of partitions in Compare")).get_attribute("href")
    assert f"ref_k={target}" in link and f"&k={target}" in link
    assert page.locator(".st-key-tree_cut [data-testid=stSliderThumbValue]").inner_text() == str(target)
    assert page.get_by_text("Traceback").count() == 0
    page.close()
