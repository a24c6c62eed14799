"""End to end in a real browser: headless Chromium (Debian's) driven by Playwright.

Starts the app on a free loopback port (one server and one browser for the module), waits for
the Compare page's charts and index table, switches the algorithm and checks that the shown ARI
changes, goes to another page and back and checks the sidebar kept its selection; visits every
page and uploads a CSV file with hostile names while recording every request the browser makes
(only the local server may be contacted); saves screenshots to tests/artifacts/.
Reported as skipped only where no Chromium is installed; .ci/run installs it, so CI runs it.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlparse

import pytest

from apptools import choose as _choose
from apptools import metric as _metric
from apptools import settle as _settle

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"  # conftest.py starts the server and the browser

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _multiselect(page, label: str, values):
    """Replace the choice of a multiselect by `values`, one option at a time."""
    box = page.get_by_role("combobox", name=label, exact=True)
    widget = page.locator("[data-testid=stMultiSelect]").filter(has=box)
    clear = widget.get_by_role("button", name="Clear all")
    if clear.count():
        clear.click()
        _settle(page)
    for value in values:
        box.click()
        page.get_by_role("option", name=value, exact=True).click()
        page.keyboard.press("Escape")
        _settle(page)


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1600, "height": 1200})
    yield context.new_page()
    context.close()


def test_deep_link_on_a_fresh_server_opens_the_page_with_its_sidebar(fresh_server, page):
    """A link as a fresh server's first request opens its page inside the frame, with the shared
    sidebar (tests/test_browser_first_load.py checks the navigation and the link's selection)."""
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto(f"{fresh_server}/soft", wait_until="domcontentloaded")
    page.get_by_role("heading", name="Soft partitions").wait_for(timeout=90_000)
    page.wait_for_selector(".js-plotly-plot .main-svg", timeout=90_000)
    _settle(page)
    assert page.get_by_role("combobox", name="Data set", exact=True).count() == 1  # the frame's sidebar
    assert page.get_by_text("Traceback").count() == 0
    page.screenshot(path=str(ARTIFACTS / "deep_link_soft.png"))


def test_compare_page_switch_algorithm_and_keep_sidebar(server, page):
    page.goto(server, wait_until="domcontentloaded")
    page.wait_for_selector(".js-plotly-plot .main-svg", timeout=90_000)
    page.wait_for_selector("[data-testid=stDataFrame]", timeout=60_000)
    _settle(page)
    assert page.locator(".js-plotly-plot").count() >= 4  # two scatters, the table, the mapping
    assert page.get_by_text("Every index").count() >= 1
    before = _metric(page, "ARI")
    page.screenshot(path=str(ARTIFACTS / "compare_kmeans.png"), full_page=False)

    _choose(page, "Algorithm", "Agglomerative, single link")
    page.wait_for_function(
        "before => { const m = [...document.querySelectorAll('[data-testid=stMetric]')]"
        ".find(e => e.innerText.includes('ARI'));"
        " return m && !m.innerText.includes(before); }", arg=before, timeout=90_000)
    _settle(page)
    after = _metric(page, "ARI")
    assert after != before
    page.screenshot(path=str(ARTIFACTS / "compare_single_link.png"), full_page=False)

    page.get_by_role("link", name="Index reference").click()
    page.get_by_role("heading", name="Index reference").wait_for(timeout=60_000)
    _settle(page)
    page.screenshot(path=str(ARTIFACTS / "index_reference.png"))
    page.get_by_role("link", name="Compare").click()
    page.wait_for_selector(".js-plotly-plot .main-svg", timeout=90_000)
    _settle(page)
    algorithm = page.get_by_role("combobox", name="Algorithm", exact=True).input_value()
    assert "single link" in algorithm  # the shared sidebar kept its state across pages
    assert _metric(page, "ARI") == after
    page.screenshot(path=str(ARTIFACTS / "compare_back.png"), full_page=True)


# A CSV file whose column names, labels and file name Markdown or HTML would turn into an image
# from another host, a tag, LaTeX or bold text.
HOSTILE = ["![x](http://evil.example/pixel.png)", "<img src=x onerror=alert(1)>", "$\\LaTeX$", "**bold**"]
HOSTILE_CSV = ",".join(HOSTILE) + """
![a](http://evil.example/a.png),<b>u</b>,0.1,0.2
![a](http://evil.example/a.png),<b>u</b>,0.2,0.1
![a](http://evil.example/a.png),$x^2$,0.15,0.12
**b**,$x^2$,5.0,5.1
**b**,$x^2$,5.2,4.9
**b**,<b>u</b>,5.1,5.0
"""
HOSTILE_FILE = "**f** <b>f</b> $y$ [g](x).csv"
PAGES = ["Lessons", "Why indices disagree", "Build a table", "Property atlas", "PSI vs ARI on imbalanced data",
         "Soft partitions",
         "Many clusterings", "Hierarchies", "Overlapping clusterings", "Reproduce the papers", "Index reference",
         "Your data"]
LOCAL = {"127.0.0.1", "localhost"}


def _host(url: str) -> str | None:
    """The host a request goes to; None for data: URLs (no request leaves the page)."""
    if url.startswith("data:"):
        return None
    return urlparse(url.removeprefix("blob:")).hostname


def _visit(page, title: str):
    page.get_by_role("link", name=title).click()
    page.get_by_role("heading", name=title).first.wait_for(timeout=90_000)
    _settle(page, timeout=180_000)


def _main_text(page) -> str:
    """The main area's text as read, without the invisible word joiners that keep addresses plain."""
    return page.locator("[data-testid=stMain]").inner_text().replace("\u2060", "")


def _links_to(page, host: str) -> list[str]:
    return page.eval_on_selector_all(f"[data-testid=stMain] a[href*='{host}']", "links => links.map(a => a.href)")


def test_every_page_and_a_hostile_upload_contact_only_the_local_server(server, page):
    page.set_viewport_size({"width": 1920, "height": 1080})  # every page is screenshot as a projector shows it
    requests = []
    page.context.on("request", lambda request: requests.append(request.url))
    page.goto(server, wait_until="domcontentloaded")
    page.wait_for_selector(".js-plotly-plot .main-svg", timeout=90_000)
    _settle(page)
    favicon = page.locator("link[rel='shortcut icon']").get_attribute("href")
    assert favicon.startswith("data:"), favicon  # drawn by the browser, not fetched
    for title in PAGES:
        _visit(page, title)
        assert page.get_by_text("Traceback").count() == 0, title
        slug = re.sub(r"\W+", "_", title.lower())
        page.screenshot(path=str(ARTIFACTS / f"page_{slug}_1920x1080.png"))

    # Your data: the hostile file, as two label columns, then as points used by the app
    page.locator("input[type=file]").set_input_files(
        {"name": HOSTILE_FILE, "mimeType": "text/csv", "buffer": HOSTILE_CSV.encode()})
    page.wait_for_selector("[data-testid=stDataFrame]", timeout=60_000)
    _settle(page)
    page.get_by_test_id("stRadioGroup").get_by_text("two label columns", exact=True).click()
    page.wait_for_selector(".js-plotly-plot .main-svg", timeout=90_000)
    _settle(page)
    _choose(page, "Candidate labels", HOSTILE[2])
    _settle(page)
    heading = page.locator("[data-testid=stMain] h3").first.inner_text().replace("\u2060", "")
    assert heading == f"{HOSTILE[0]} vs {HOSTILE[2]}"  # as written: no image, no LaTeX
    assert _links_to(page, "evil.example") == []  # nor a link
    assert page.locator("[data-testid=stMain] .katex").count() == 0
    page.screenshot(path=str(ARTIFACTS / "your_data_hostile_labels.png"), full_page=True)

    page.get_by_test_id("stRadioGroup").get_by_text("points with label columns", exact=True).click()
    _settle(page)
    _multiselect(page, "Coordinate columns", HOSTILE[2:])  # the numeric columns
    _multiselect(page, "Reference label column(s): the first is the default reference", HOSTILE[:2])
    assert f"partitions: {HOSTILE[0]}, {HOSTILE[1]}." in _main_text(page)
    page.get_by_role("button", name="Use these points in the app").click()
    _settle(page)
    page.screenshot(path=str(ARTIFACTS / "your_data_hostile_points.png"), full_page=True)

    page.get_by_role("link", name="Compare").click()
    page.wait_for_selector(".js-plotly-plot .main-svg", timeout=90_000)
    _settle(page)
    _choose(page, "Reference partition", f"ground truth {HOSTILE[1]}")
    page.get_by_text(f"Reference: ground truth ({HOSTILE[1]})").first.wait_for(timeout=90_000)
    _settle(page)
    shown = _main_text(page)
    assert f"Your data: {HOSTILE_FILE}" in shown and f"the reference '{HOSTILE[0]}'" in shown
    titles = page.locator(".js-plotly-plot .gtitle").all_text_contents()
    assert any(t.startswith(f"Reference: ground truth ({HOSTILE[1]})") for t in titles), titles
    assert page.get_by_text("Traceback").count() == 0 and _links_to(page, "evil.example") == []
    page.screenshot(path=str(ARTIFACTS / "compare_hostile.png"), full_page=True)

    images = page.eval_on_selector_all("img", "elements => elements.map(e => e.src)")
    assert all(_host(src) in LOCAL | {None} for src in images), images
    hosts = {_host(url) for url in requests} - {None}
    assert hosts and hosts <= LOCAL, sorted(url for url in requests if _host(url) not in LOCAL | {None})
    # the navigation icons are drawn with Streamlit's own Material Symbols font, served locally
    assert any("MaterialSymbols" in url and _host(url) in LOCAL for url in requests)


def _box(locator):
    box = locator.bounding_box()
    assert box is not None
    return box


def test_compare_shows_table_pairing_mapping_and_values_side_by_side(server, browser):
    """At 1920x1080 the first screen holds the headline values, the contingency table, the
    Hungarian pairing and the CI mapping next to each other; the scatter plots and the index
    tables follow. At 1280x720 nothing is cut off at the right edge."""
    for width, height in ((1920, 1080), (1280, 720)):
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        page.goto(server, wait_until="domcontentloaded")
        page.wait_for_selector(".st-key-compare_contingency .js-plotly-plot .main-svg", timeout=90_000)
        page.wait_for_selector(".st-key-compare_mapping_centroid .js-plotly-plot .main-svg", timeout=90_000)
        _settle(page)
        page.screenshot(path=str(ARTIFACTS / f"compare_first_screen_{width}.png"))
        table = _box(page.locator(".st-key-compare_contingency .js-plotly-plot").first)
        pairing = _box(page.locator(".st-key-compare_side_by_side [data-testid=stDataFrame]").first)
        mapping = _box(page.locator(".st-key-compare_mapping_centroid .js-plotly-plot").first)
        values = _box(page.locator("[data-testid=stMetric]").first)
        scatter = _box(page.locator(".st-key-scatter_reference .js-plotly-plot").first)
        indices = _box(page.get_by_text("Every index"))
        parts = (values, table, pairing, mapping)
        for box in parts + (scatter,):
            assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1, (width, box)
        assert values["y"] + values["height"] <= table["y"]
        assert table["x"] + table["width"] <= pairing["x"]  # the table and the pairing side by side
        assert abs(table["y"] - pairing["y"]) < 80
        assert scatter["y"] > max(table["y"], pairing["y"]) and indices["y"] > scatter["y"]
        if width == 1920:
            assert pairing["x"] + pairing["width"] <= mapping["x"] and abs(mapping["y"] - table["y"]) < 80
            for box in parts:
                assert box["y"] + box["height"] <= height, box  # all on the first screen
        context.close()


def test_overlays_are_drawn_above_the_points(server, browser):
    """Unbalance-like (6 500 points, drawn as one picture) and one k-means run leave orphans: their
    red crosses must show above the points, whose palette has no red."""
    context = browser.new_context(viewport={"width": 1600, "height": 1200})
    page = context.new_page()
    page.goto(server, wait_until="domcontentloaded")
    page.wait_for_selector(".js-plotly-plot .main-svg", timeout=90_000)
    _settle(page)
    _choose(page, "Data set", "Unbalance-like")
    _settle(page)
    _choose(page, "Algorithm", "k-means (random start")
    _settle(page)
    page.wait_for_function("() => document.querySelectorAll('.st-key-scatter_reference .js-plotly-plot').length === 1"
                           " && document.body.innerText.includes('k-means (random start')", timeout=90_000)
    plot = page.locator(".st-key-scatter_reference .js-plotly-plot").first
    plot.scroll_into_view_if_needed()
    page.wait_for_selector(".st-key-scatter_reference .js-plotly-plot .imagelayer image", timeout=60_000)
    _settle(page)
    # pixel positions of the orphans' crosses, from plotly's own axes
    crosses = plot.evaluate("""gd => {
        const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis;
        const centroids = gd._fullData.find(t => t.name === 'centroids');
        // the points are a picture below every trace; no WebGL trace (drawn above the SVG layer)
        const pictures = gd._fullLayout.images.filter(
            i => i.layer === 'below' && i.source.startsWith('data:image/png'));
        if (pictures.length !== 1 || gd._fullData.some(t => t.type === 'scattergl')) return null;
        const out = [];
        centroids.marker.symbol.forEach((symbol, i) => {
            if (symbol === 'x-thin-open')
                out.push([xa._offset + xa.c2p(centroids.x[i]), ya._offset + ya.c2p(centroids.y[i])]);
        });
        return out;
    }""")
    assert crosses, "expected the points as one picture below the traces, and at least one orphan"
    shot = ARTIFACTS / "overlay_above_points.png"
    plot.screenshot(path=str(shot))
    from PIL import Image

    image = Image.open(shot).convert("RGB")
    scale = image.width / _box(plot)["width"]
    for x, y in crosses:
        red = [image.getpixel((int(x * scale) + dx, int(y * scale) + dy)) for dx in range(-3, 4) for dy in range(-3, 4)]
        assert any(r > 170 and g < 90 and b < 90 for r, g, b in red), (x, y)
    context.close()
