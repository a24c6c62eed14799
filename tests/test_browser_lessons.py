"""The Lessons page in a real browser (headless Chromium, driven by Playwright).

A lesson's step opened by its address shows that step; Next moves on and puts the step into the
URL; the browser's Back returns to the step before; the lesson's keys stay off other pages.
AppTest cannot check this: the binding of widgets to the URL runs in the browser. Screenshots go
to tests/artifacts/.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from apptools import settle as _settle
from cluval_core.experiments.lessons import STEP_KINDS, STEP_TITLES, lessons

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"  # conftest.py starts the server and the browser
LONG = 240_000  # ms, for a busy 2-core machine

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _query(url: str) -> dict:
    return {key: values[-1] for key, values in parse_qs(urlparse(url).query).items()}


def _heading(page, number: int) -> None:
    """Wait for the step heading "lesson · number. title" of the information lesson."""
    title = f"{lessons()['information'].title} · {number}. {STEP_TITLES[STEP_KINDS[number - 1]]}"
    page.get_by_role("heading", name=title).wait_for(timeout=LONG)
    _settle(page, timeout=LONG)


def test_a_step_opened_by_its_address_then_next_back_and_another_page(server, browser):
    context = browser.new_context(viewport={"width": 1600, "height": 1200})
    page = context.new_page()
    page.goto(f"{server}/lessons?lesson=information&step=3", wait_until="domcontentloaded")  # the one page load
    _heading(page, 3)
    nmi = lessons()["information"].questions[0].answer  # the library's NMI of Manning et al.'s table
    text = page.locator("[data-testid=stMain]").inner_text()
    assert f"= {nmi:.4f}, the book's NMI" in text
    page.screenshot(path=str(ARTIFACTS / "lessons_information_3.png"))

    page.get_by_role("button", name="Next →").click()
    _heading(page, 4)
    page.wait_for_function("() => new URLSearchParams(location.search).get('step') === '4'", timeout=LONG)
    assert _query(page.url) == {"lesson": "information", "step": "4"}
    page.locator("[data-testid=stMain] .katex").first.wait_for(timeout=LONG)  # the formula step's LaTeX

    page.go_back()
    _heading(page, 3)
    assert _query(page.url) == {"lesson": "information", "step": "3"}

    page.get_by_role("link", name="Index reference").click()
    page.get_by_role("heading", name="Index reference").wait_for(timeout=LONG)
    _settle(page, timeout=LONG)
    assert not {"lesson", "step"} & set(_query(page.url)), page.url
    context.close()
