"""Why these values differ and how an index is computed, in a real browser (headless Chromium).

A link names the outlined claim and the index whose computation is shown; a reload keeps them;
a change is written into the URL; another page does not inherit them. Screenshots of Build a table
with the explanation at 1920x1080 and 1280x800 go to tests/artifacts/.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlparse

import pytest
from test_explain import UNBALANCE_KMEANS

from apptools import settle
from cluval_core import Comparison
from cluval_core.data.presets import table_to_text
from cluval_core.outputs.explain import explain

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
LONG = 240_000  # ms: the first chart parses plotly's 4.7 MB script, slow on a busy 2-core machine

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _query(url: str) -> dict:
    return {key: values[-1] for key, values in parse_qs(urlparse(url).query).items()}


def _ready(page):
    page.wait_for_selector(".js-plotly-plot .main-svg", timeout=LONG)
    page.get_by_text("Why these values differ").first.wait_for(timeout=LONG)
    settle(page, timeout=LONG)


def _claims():
    k = UNBALANCE_KMEANS.shape[0]
    c = Comparison.from_table(UNBALANCE_KMEANS, row_labels=list(range(1, k + 1)), col_labels=list(range(1, k + 1)))
    return explain(c).claims


@pytest.mark.parametrize("width, height", [(1920, 1080), (1280, 800)])
def test_a_link_names_the_claim_and_the_index_and_a_reload_keeps_them(server, browser, width, height):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    query = {"table": table_to_text(UNBALANCE_KMEANS), "build_claim": "6", "build_index": "Pair Sets Index"}
    page.goto(f"{server}/build_table?{urlencode(query)}")
    _ready(page)
    merge = _claims()[5]
    assert merge.kind == "merge"
    chosen = page.locator("[data-testid=stMarkdownContainer] li strong")
    assert chosen.count() == 1 and chosen.inner_text().startswith("Candidate cluster 8 (500 objects) merges")
    assert page.locator(".st-key-build_index input").input_value() == "Pair Sets Index"
    page.get_by_text("PSI = (S − E) / (k − E) = (2.4705 − 0.7755) / (8 − 0.7755) = 0.2346").last.wait_for()
    page.get_by_text("Why these values differ").first.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"build_table_explained_{width}x{height}.png"))

    page.reload()
    _ready(page)
    assert _query(page.url)["build_claim"] == "6" and _query(page.url)["build_index"] == "Pair Sets Index"
    assert page.locator("[data-testid=stMarkdownContainer] li strong").inner_text().startswith("Candidate cluster 8")

    # another claim goes into the URL; Compare does not inherit Build a table's choices
    page.locator(".st-key-build_claim").get_by_text("7", exact=True).click()
    settle(page, timeout=LONG)
    assert _query(page.url)["build_claim"] == "7"
    assert page.locator("[data-testid=stMarkdownContainer] li strong").inner_text().startswith(
        "Reference cluster 1 (2,000 objects) is split")
    page.get_by_role("link", name="Compare").first.click()
    page.get_by_text("Compare two partitions").wait_for(timeout=LONG)
    settle(page, timeout=LONG)
    assert not {"build_claim", "build_index", "table", "preset", "claim", "index"} & set(_query(page.url))
    context.close()
