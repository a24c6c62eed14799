"""A fresh server's first visitor in a real browser (headless Chromium, driven by Playwright).

Each test starts its own server and opens it as soon as ``/_stcore/health`` answers. The sidebar
must show the app's own navigation from the first paint on, never a list of modules, and a link
with a selection must open its page with that selection even as the server's very first request.
Both went wrong while Streamlit's main script had a ``pages/`` folder beside it: until some run
called st.navigation, Streamlit's older pages-directory mode listed the modules of pages/ (app,
build table, cache, ..., shared, soft, views) and ran a linked page without the frame. app.py
serves pages/_entrypoint.py, which has no such folder beside it. Screenshots go to tests/artifacts/.
"""

from __future__ import annotations

import time
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from apptools import metric as _metric
from apptools import settle as _settle

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "tests" / "artifacts"  # conftest.py starts the server and the browser

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.data]

LONG = 240_000  # ms: the first chart parses plotly's 4.7 MB script, slow on a busy 2-core machine
TITLES = ["Compare", "Lessons", "Why indices disagree", "Disagreement on real data", "Build a table", "Property atlas",
          "PSI vs ARI on imbalanced data",
          "Soft partitions", "Many clusterings", "Hierarchies", "Overlapping clusterings", "Your data",
          "Reproduce the papers", "Index reference"]
# The names the older mode gave its pages: the main script's and each module's in pages/.
MODULES = {"app", "entrypoint"} | {path.stem.strip("_").replace("_", " ") for path in (ROOT / "pages").glob("*.py")}

# Runs in the page before any of Streamlit's scripts: records the sidebar's navigation labels each
# time they change, when the navigation and the page's heading first showed, and whether a dialog
# (Streamlit's "Page not found") ever opened.
RECORDER = """
window.__navigation = []; window.__dialogs = 0; window.__firstNavigation = null; window.__firstHeading = null;
new MutationObserver(() => {
  const labels = [...document.querySelectorAll(
    '[data-testid=stSidebarNav] [data-testid=stSidebarNavLink] [data-testid=stMarkdownContainer]')]
    .map(e => e.innerText.trim());
  const last = window.__navigation[window.__navigation.length - 1];
  if (!last || last.join('|') !== labels.join('|')) window.__navigation.push(labels);
  if (labels.length && window.__firstNavigation === null) window.__firstNavigation = performance.now();
  if (document.querySelector('[data-testid=stMain] h1') && window.__firstHeading === null)
    window.__firstHeading = performance.now();
  if (document.querySelector('[role=dialog]')) window.__dialogs += 1;
}).observe(document, {childList: true, subtree: true, characterData: true});
"""


@pytest.fixture
def context(browser):
    context = browser.new_context(viewport={"width": 1600, "height": 1000})
    context.add_init_script(RECORDER)
    yield context
    context.close()


def _labels(page) -> list[str]:
    return page.locator("[data-testid=stSidebarNav] [data-testid=stSidebarNavLink] "
                        "[data-testid=stMarkdownContainer]").all_inner_texts()


def _watch_until_ready(page, heading: str) -> list[list[str]]:
    """The sidebar's navigation labels, looked at every 100 ms from the first paint until `heading`
    and a chart are shown and the run has finished; each change recorded once."""
    seen, deadline = [], time.monotonic() + LONG / 1000
    while time.monotonic() < deadline:
        labels = [label.strip() for label in _labels(page)]
        if not seen or seen[-1] != labels:
            seen.append(labels)
        if (page.get_by_role("heading", name=heading).count() and page.locator(".js-plotly-plot .main-svg").count()
                and not page.locator("[data-testid=stStatusWidget]").count()):
            break
        page.wait_for_timeout(100)
    else:
        pytest.fail(f"no {heading!r} with a chart within {LONG // 1000} s; the sidebar showed {seen}")
    _settle(page, timeout=LONG)
    return seen


def _assert_only_the_apps_navigation(page, polled: list[list[str]]):
    recorded = page.evaluate("window.__navigation")
    shown = [labels for labels in polled + recorded if labels]
    assert shown, "no navigation was shown"
    assert not {label for labels in shown for label in labels} & MODULES, shown
    assert all(labels == TITLES for labels in shown), shown
    assert _labels(page) == TITLES
    assert page.evaluate("window.__dialogs") == 0 and page.get_by_role("dialog").count() == 0


def _query(url: str) -> dict:
    return {key: values[-1] for key, values in parse_qs(urlparse(url).query).items()}


def test_the_first_load_of_a_fresh_server_shows_the_apps_navigation_from_the_first_paint(fresh_server, context):
    page = context.new_page()
    page.goto(fresh_server, wait_until="commit")
    polled = _watch_until_ready(page, "Compare two partitions")
    _assert_only_the_apps_navigation(page, polled)
    # the navigation showed at once: before the page's heading, which waits for the data and the clustering
    assert page.evaluate("window.__firstNavigation <= window.__firstHeading"), \
        page.evaluate("[window.__firstNavigation, window.__firstHeading]")
    assert page.get_by_role("combobox", name="Data set", exact=True).input_value().startswith("S1")
    page.screenshot(path=str(ARTIFACTS / "first_load.png"))


@pytest.mark.parametrize("link, heading, shown", [
    ("/compare?dataset=aggregation&algorithm=ward", "Compare two partitions",
     {"Data set": "Aggregate", "Algorithm": "Agglomerative, Ward"}),
    ("/soft?dataset=r15&reference=labels1", "Soft partitions",
     {"Data set": "R15", "Reference partition": "ground truth labels1"}),
], ids=["compare", "soft"])
def test_a_link_as_a_fresh_servers_first_request_opens_its_page_with_its_selection(fresh_server, context, link,
                                                                                    heading, shown):
    page = context.new_page()
    page.goto(fresh_server + link, wait_until="commit")
    polled = _watch_until_ready(page, heading)
    _assert_only_the_apps_navigation(page, polled)
    for label, value in shown.items():
        assert page.get_by_role("combobox", name=label, exact=True).input_value().startswith(value), label
    wanted = _query(link)
    assert {key: _query(page.url).get(key) for key in wanted} == wanted  # the URL keeps the link's selection
    assert urlparse(page.url).path == urlparse(link).path
    if "algorithm" in wanted:
        assert _metric(page, "ARI")  # the comparison is shown
    assert page.get_by_text("Traceback").count() == 0
    page.screenshot(path=str(ARTIFACTS / f"first_request_{heading.split()[0].lower()}.png"))
