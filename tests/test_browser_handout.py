"""The handout and the report in headless Chromium, opened from a file with no network: the handout
prints as exactly one page (A4 and Letter, through page.pdf()), the report draws every figure with
its tick labels inside the figure. Screenshots and PDFs go to tests/artifacts/."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from cluval_core import compare
from cluval_core.outputs.export import handout_html, html_report, provenance

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
LONG = 120_000  # ms: parsing plotly's 4.7 MB script is slow on a busy 2-core machine

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(autouse=True)
def _as_in_the_app(monkeypatch):
    """Figures built as in the app: importing Streamlit makes its plotly template the default, and that
    template leaves an axis's room for its tick labels (automargin) unset."""
    import plotly.io as pio
    import streamlit  # noqa: F401 - registers the "streamlit" template

    monkeypatch.setattr(pio.templates, "default", "streamlit")


def _pages(pdf: bytes) -> int:
    """The number of pages of a PDF written by Chromium (one /Type /Page object each)."""
    return len(re.findall(rb"/Type\s*/Page(?![a-z])", pdf))


def _comparisons() -> dict:
    rng = np.random.default_rng(11)
    long_names = np.array(["Iris-setosa", "Iris-versicolor", "Iris-virginica", "a very long reference cluster name"])
    y = rng.integers(0, 4, 400)
    p = (y + (rng.random(400) < 0.2)) % 4
    X = rng.normal(size=(400, 2)) * 12345.678 - 98765.4321 + y[:, None] * 20000
    return {
        "small": compare([0, 0, 1, 1, 2, 2], [0, 0, 1, 2, 2, 2]),
        "labels": compare(long_names[y], np.array(["alpha cluster with a long name", "beta", "gamma", "delta"])[p],
                          X=X),
        "large": compare(rng.integers(0, 50, 5000), rng.integers(0, 53, 5000)),
    }


def _open(browser, path: Path, width: int = 1280, height: int = 800):
    """The file in a new page that may load nothing but files: any other request is refused and listed."""
    page = browser.new_page(viewport={"width": width, "height": height})
    outside = []

    def route(request_route):
        url = request_route.request.url
        if url.startswith(("file:", "data:", "blob:", "about:")):
            request_route.continue_()
        else:
            outside.append(url)
            request_route.abort()

    page.route("**/*", route)
    page.goto(path.as_uri())
    page.wait_for_selector(".js-plotly-plot .main-svg", timeout=LONG)
    return page, outside


@pytest.mark.parametrize("name", ["small", "labels", "large"])
def test_the_handout_prints_on_exactly_one_page(browser, name, tmp_path):
    c = _comparisons()[name]
    path = tmp_path / "handout.html"
    path.write_text(handout_html(c, provenance(**{"data set": name})), encoding="utf-8")
    page, outside = _open(browser, path)
    page.screenshot(path=str(ARTIFACTS / f"handout_{name}.png"))
    for paper in ("A4", "Letter"):
        page.emulate_media(media="print")
        pdf = page.pdf(format=paper)
        (ARTIFACTS / f"handout_{name}_{paper}.pdf").write_bytes(pdf)
        assert _pages(pdf) == 1, (name, paper)
    # the content fits the sheet as drawn (scaled down only if it had to be) and nothing leaves the file
    scale = float(page.evaluate("document.body.dataset.scale"))
    fits = page.evaluate("""() => { const s = document.querySelector('.sheet').getBoundingClientRect();
        const c = document.querySelector('.content').getBoundingClientRect();
        return c.bottom <= s.bottom + 1 && c.right <= s.right + 1; }""")
    assert 0.5 < scale <= 1 and fits
    assert page.locator(".js-plotly-plot").count() == 2 and outside == []
    page.close()


def test_a_two_page_document_is_counted_as_two(browser, tmp_path):
    """The page count is read right: a document twice the page's height prints on two pages."""
    path = tmp_path / "tall.html"
    path.write_text("<!doctype html><div class='js-plotly-plot'><svg class='main-svg'></svg></div>"
                    "<div style='height:200mm'>one</div><div style='height:200mm'>two</div>", encoding="utf-8")
    page, _ = _open(browser, path)
    assert _pages(page.pdf(format="A4")) == 2
    page.close()


def test_the_reports_tick_labels_stay_inside_their_figures(browser, tmp_path):
    c = _comparisons()["labels"]
    path = tmp_path / "report.html"
    path.write_text(html_report(c, provenance(**{"data set": "long labels"})), encoding="utf-8")
    page, outside = _open(browser, path, 1280, 800)
    page.wait_for_timeout(500)
    page.screenshot(path=str(ARTIFACTS / "report_long_labels.png"), full_page=True)
    clipped = page.evaluate("""() => {
        const out = [];
        for (const plot of document.querySelectorAll('.js-plotly-plot')) {
            const box = plot.getBoundingClientRect();
            for (const tick of plot.querySelectorAll('.xtick text, .ytick text, .g-xtitle text, .g-ytitle text')) {
                const r = tick.getBoundingClientRect();
                if (r.width && (r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1
                                || r.bottom > box.bottom + 1)) out.push(tick.textContent);
            }
        }
        return out; }""")
    assert clipped == [] and outside == []
    assert page.locator(".js-plotly-plot").count() == 5
    page.close()
