"""What the app tests share: opening the app under AppTest, waiting for a real browser's run."""

from __future__ import annotations

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

# The script Streamlit runs for every page (app.py names it); page paths are relative to its folder,
# pages/: at.switch_page("soft.py").
APP = str(Path(__file__).resolve().parents[1] / "pages" / "_entrypoint.py")


def open_app() -> AppTest:
    """The app after its first run (the Compare page), which must not raise."""
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def settle(page, timeout=90_000):
    """Wait until Streamlit has finished the current run in a Playwright page."""
    page.wait_for_timeout(500)
    page.wait_for_selector("[data-testid=stStatusWidget]", state="detached", timeout=timeout)
    page.wait_for_timeout(300)


def metric(page, label: str) -> str:
    """The value a metric with `label` shows in a Playwright page."""
    found = page.locator("[data-testid=stMetric]", has_text=label).first
    return found.locator("[data-testid=stMetricValue]").inner_text()


def choose(page, label: str, option: str):
    """Pick the first option starting with `option` in the selectbox called `label`."""
    page.get_by_role("combobox", name=label, exact=True).click()
    page.get_by_role("option", name=re.compile(rf"^{re.escape(option)}")).first.click()


def record_downloads(monkeypatch) -> dict:
    """Every download button's data by its label, as the page offers it (filled as the app runs)."""
    from streamlit.elements.widgets.button import ButtonMixin

    offered = {}
    original = ButtonMixin.download_button

    def record(self, label, data, *args, **kwargs):
        offered[label] = data
        return original(self, label, data, *args, **kwargs)

    monkeypatch.setattr(ButtonMixin, "download_button", record)
    return offered
