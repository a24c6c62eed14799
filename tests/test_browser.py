"""End to end in a real browser: headless Chromium (Debian's) driven by Playwright.

Starts the app on a free loopback port, waits for the Compare page's charts and index table,
switches the algorithm and checks that the shown ARI changes, goes to another page and back
and checks the sidebar kept its selection, and saves screenshots to tests/artifacts/.
Reported as skipped only where no Chromium is installed; .ci/run installs it, so CI runs it.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "tests" / "artifacts"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]

pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(CHROMIUM is None, reason="no chromium installed (apt-get install chromium)")]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    yield from _serve()


@pytest.fixture
def fresh_server():
    yield from _serve()


def _serve():
    port = _free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    log = open(ARTIFACTS / "server.log", "w")  # noqa: SIM115 - closed in the teardown
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.port", str(port),
         "--server.headless", "true", "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            if urllib.request.urlopen(f"{url}/_stcore/health", timeout=2).read() == b"ok":
                break
        except OSError:
            time.sleep(0.5)
    else:
        proc.terminate()
        log.close()
        pytest.fail("the app did not answer /_stcore/health within 60 s")
    yield url
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


def _settle(page, timeout=90_000):
    """Wait until Streamlit has finished the current run."""
    page.wait_for_timeout(500)
    page.wait_for_selector("[data-testid=stStatusWidget]", state="detached", timeout=timeout)
    page.wait_for_timeout(300)


def _metric(page, label: str) -> str:
    metric = page.locator("[data-testid=stMetric]", has_text=label).first
    return metric.locator("[data-testid=stMetricValue]").inner_text()


def _choose(page, label: str, option: str):
    page.get_by_role("combobox", name=label, exact=True).click()
    page.get_by_role("option", name=re.compile(rf"^{re.escape(option)}")).first.click()


def _browser(p):
    return p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)


def test_deep_link_on_a_fresh_server_opens_the_page_with_its_sidebar(fresh_server):
    """A fresh server would run pages/soft.py on its own (the pages-folder mode) until app.py
    has run once; the page must still come up inside the frame, with the shared sidebar."""
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = _browser(p)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(f"{fresh_server}/soft", wait_until="domcontentloaded")
        page.get_by_role("heading", name="Soft partitions").wait_for(timeout=90_000)
        page.wait_for_selector(".js-plotly-plot .main-svg", timeout=90_000)
        _settle(page)
        assert page.get_by_role("combobox", name="Algorithm", exact=True).count() == 1
        assert page.get_by_text("Traceback").count() == 0
        page.screenshot(path=str(ARTIFACTS / "deep_link_soft.png"))
        browser.close()


def test_compare_page_switch_algorithm_and_keep_sidebar(server):
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = _browser(p)
        page = browser.new_page(viewport={"width": 1600, "height": 1200})
        page.goto(server, wait_until="domcontentloaded")
        page.wait_for_selector(".js-plotly-plot .main-svg", timeout=90_000)
        page.wait_for_selector("[data-testid=stDataFrame]", timeout=60_000)
        _settle(page)
        assert page.locator(".js-plotly-plot").count() >= 4  # two scatters, the table, the mapping
        assert page.get_by_text("Every index").count() >= 1
        before = _metric(page, "Adjusted Rand index")
        page.screenshot(path=str(ARTIFACTS / "compare_kmeans.png"), full_page=False)

        _choose(page, "Algorithm", "Agglomerative, single link")
        page.wait_for_function(
            "before => { const m = [...document.querySelectorAll('[data-testid=stMetric]')]"
            ".find(e => e.innerText.includes('Adjusted Rand index'));"
            " return m && !m.innerText.includes(before); }", arg=before, timeout=90_000)
        _settle(page)
        after = _metric(page, "Adjusted Rand index")
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
        assert _metric(page, "Adjusted Rand index") == after
        page.screenshot(path=str(ARTIFACTS / "compare_back.png"), full_page=True)
        browser.close()
