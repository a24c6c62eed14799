"""Back and Forward in a real browser (headless Chromium): a sidebar change is one history entry,
Back undoes it (the sidebar, the URL and the values are the previous selection's) and Forward
redoes it."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest

from apptools import choose, metric, settle

LONG = 240_000  # ms: the first chart parses plotly's 4.7 MB script, slow on a busy 2-core machine

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _query(url: str) -> dict:
    return {key: values[-1] for key, values in parse_qs(urlparse(url).query).items()}


def _algorithm(page) -> str:
    return page.locator(".st-key-algorithm input").input_value()


def test_back_undoes_a_sidebar_change_and_forward_redoes_it(server, browser):
    context = browser.new_context(viewport={"width": 1600, "height": 1000})
    page = context.new_page()
    page.goto(f"{server}/?dataset=unbalance_like")
    page.wait_for_selector(".js-plotly-plot .main-svg", timeout=LONG)
    settle(page, timeout=LONG)
    before = (_algorithm(page), metric(page, "ARI"), _query(page.url)["algorithm"])
    choose(page, "Algorithm", "k-means (random start")
    settle(page, timeout=LONG)
    after = (_algorithm(page), metric(page, "ARI"), _query(page.url)["algorithm"])
    assert after[2] == "kmeans" and after[0].startswith("k-means (random") and before[2] == "kmeans++"
    assert after[1] != before[1]  # the two clusterings differ, so the values tell them apart

    page.go_back()
    settle(page, timeout=LONG)
    assert _query(page.url)["algorithm"] == "kmeans++"
    assert (_algorithm(page), metric(page, "ARI")) == before[:2]
    page.go_forward()
    settle(page, timeout=LONG)
    assert _query(page.url)["algorithm"] == "kmeans"
    assert (_algorithm(page), metric(page, "ARI")) == after[:2]
    context.close()
