"""The Compare page's first screen in a real browser (headless Chromium, driven by Playwright).

On a 1280 x 800 and a 1920 x 1080 window with the sidebar open, the headline values, the
contingency table, the Hungarian pairing and the CI mapping are whole without scrolling; on
A3 (50 clusters) no two tick labels of the table overlap and no two node labels of the mapping;
the table's colouring and the mapping's basis live in the URL (``?colour=ari&mapping=partition``):
a link opens that view, a reload keeps it, and the sidebar's own URL writes leave them in place.
Screenshots go to tests/artifacts/. Reported as skipped only where no Chromium is installed.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from apptools import choose as _choose
from apptools import settle as _settle

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"  # conftest.py starts the server and the browser

pytestmark = [pytest.mark.browser, pytest.mark.data]

PARTS = {"table": ".st-key-compare_contingency .js-plotly-plot",
         "pairing": ".st-key-compare_side_by_side [data-testid=stDataFrame]",
         "mapping": ".st-key-compare_side_by_side [class*=st-key-compare_mapping_] .js-plotly-plot"}


def _open(browser, url: str, width: int, height: int):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(url, wait_until="domcontentloaded")
    page.wait_for_selector(f"{PARTS['table']} .main-svg", timeout=120_000)
    page.wait_for_selector(f"{PARTS['mapping']} .main-svg", timeout=120_000)
    _settle(page, 180_000)
    return context, page


def _query(page) -> dict:
    return {key: values[-1] for key, values in parse_qs(urlparse(page.url).query).items()}


@pytest.mark.parametrize("width, height", [(1280, 800), (1920, 1080)])
def test_values_table_pairing_and_mapping_fill_the_first_screen(server, browser, width, height):
    context, page = _open(browser, server, width, height)
    try:
        page.screenshot(path=str(ARTIFACTS / f"compare_first_screen_{width}x{height}.png"))
        assert page.locator("[data-testid=stSidebar]").bounding_box()["width"] > 200  # the sidebar is open
        boxes = {name: page.locator(selector).first.bounding_box() for name, selector in PARTS.items()}
        metrics = page.locator(".st-key-headline [data-testid=stMetric]")
        assert metrics.count() == 7  # S1 has data: both Centroid Indices are shown
        boxes.update({f"value {i}": metrics.nth(i).bounding_box() for i in range(metrics.count())})
        for name, box in boxes.items():
            assert box is not None, name
            assert box["y"] >= 0 and box["y"] + box["height"] <= height, (name, box)  # whole, without scrolling
            assert box["x"] >= 0 and box["x"] + box["width"] <= width, (name, box)
        table, pairing, mapping = boxes["table"], boxes["pairing"], boxes["mapping"]
        assert table["x"] + table["width"] <= pairing["x"] and pairing["x"] + pairing["width"] <= mapping["x"]
        assert max(b["y"] for b in (table, pairing, mapping)) - min(b["y"] for b in (table, pairing, mapping)) < 30
        # the distances say which way is better, the similarities do not need to
        for label, said in (("NVD", True), ("CI (centroid)", True), ("ARI", False)):
            column = page.locator(".st-key-headline [data-testid=stColumn]").filter(
                has=page.locator("[data-testid=stMetricLabel]", has_text=re.compile(rf"^{re.escape(label)}$")))
            assert (column.get_by_text("lower is better").count() == 1) is said, label
    finally:
        context.close()


def _glyphs(texts) -> list:
    """The boxes of SVG texts, each as high as its font (an SVG text's box adds the line's leading)."""
    boxes = texts.evaluate_all("""es => es.map(e => {
        const r = e.getBoundingClientRect(), size = parseFloat(getComputedStyle(e).fontSize);
        return {x: r.x, width: r.width, y: r.y + (r.height - size) / 2, height: size};
    })""")
    assert boxes and all(b["height"] >= 9 for b in boxes)  # no label smaller than 9 px
    return boxes


def _overlaps(boxes) -> list:
    boxes = [b for b in boxes if b and b["width"] > 0]
    return [(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:]
            if a["x"] < b["x"] + b["width"] - 0.5 and b["x"] < a["x"] + a["width"] - 0.5
            and a["y"] < b["y"] + b["height"] - 0.5 and b["y"] < a["y"] + a["height"] - 0.5]


def test_many_clusters_keep_legible_labels(server, browser):
    """A3 (k = 50) clustered by k-means at 1280 x 800: the first screen draws the largest pairs
    one by one and groups the rest, says so, and no two labels overlap."""
    context, page = _open(browser, f"{server}/?dataset=a3&algorithm=kmeans", 1280, 800)
    try:
        page.screenshot(path=str(ARTIFACTS / "compare_a3_1280x800.png"))
        table = page.locator(PARTS["table"]).first
        rows = table.locator(".ytick text")
        columns = table.locator(".xtick text")
        assert rows.count() >= 8 and columns.count() >= 4
        assert rows.last.text_content().startswith("other 35 (n=")  # 15 drawn one by one, 35 grouped
        for ticks in (rows, columns):
            assert not _overlaps(_glyphs(ticks))
        assert "summed as 'other'" in table.inner_text()
        mapping = page.locator(PARTS["mapping"]).first
        labels = mapping.locator(".textpoint text")
        assert labels.count() >= 3 * 16 - 3  # every node named (three columns of 15 and the 'other' nodes)
        assert not _overlaps(_glyphs(labels))
        assert "other 35" in mapping.inner_text()
        assert page.get_by_text("The whole contingency table (50 × 50)").count() == 1
    finally:
        context.close()


def test_a_link_opens_the_colouring_and_basis_it_names(server, browser):
    context, page = _open(browser, f"{server}/?colour=ari&mapping=partition", 1600, 1000)
    try:
        def shown():
            # a chart drawn anew briefly holds its old plot beside the new one (about half a second
            # under load, after the run has ended): wait for at most one (a lasting second one fails)
            page.wait_for_function("() => document.querySelectorAll("
                                   "'.st-key-compare_mapping_partition .js-plotly-plot').length <= 1", timeout=15_000)
            chart = page.locator(PARTS["table"]).first
            colour_bar = chart.evaluate("gd => gd._fullData[0].colorbar.title.text")
            return (page.get_by_role("combobox", name="Colour the cells by", exact=True).input_value(), colour_bar,
                    page.locator(".st-key-compare_mapping_partition .js-plotly-plot").count(),
                    page.locator(".st-key-compare_mapping_centroid").count())

        assert shown() == ("ari", "share", 1, 0)  # the contributions to ARI; the Jaccard mapping
        assert page.get_by_text("each cell's contribution to Adjusted Rand index").count() == 1
        assert {"colour": "ari", "mapping": "partition", "dataset": "s1"}.items() <= _query(page).items()
        page.screenshot(path=str(ARTIFACTS / "compare_link_colour_mapping.png"))

        page.reload(wait_until="domcontentloaded")
        page.wait_for_selector(f"{PARTS['mapping']} .main-svg", timeout=120_000)
        _settle(page)
        assert shown() == ("ari", "share", 1, 0)

        # the sidebar rewrites its own keys in the URL; the page's own stay, and nothing fails
        _choose(page, "Algorithm", "Agglomerative, single link")
        page.wait_for_function("() => location.search.includes('algorithm=single')", timeout=90_000)
        _settle(page)
        assert page.locator("[data-testid=stException]").count() == 0
        assert page.get_by_text("failed unexpectedly").count() == 0
        query = _query(page)
        assert query["colour"] == "ari" and query["mapping"] == "partition" and query["algorithm"] == "single"
        assert shown() == ("ari", "share", 1, 0)

        # back to the defaults: their keys leave the URL
        _choose(page, "Colour the cells by", "counts")
        page.wait_for_function("() => !location.search.includes('colour=')", timeout=60_000)
        _settle(page)
        assert page.locator(PARTS["table"]).first.evaluate("gd => gd._fullData[0].colorbar.title.text") == "n_ij"
        assert _query(page)["mapping"] == "partition" and _query(page)["algorithm"] == "single"
    finally:
        context.close()
