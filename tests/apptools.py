"""What the app tests share: opening the app under AppTest, waiting for a real browser's run."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import numpy as np
from streamlit.testing.v1 import AppTest

# The script Streamlit runs for every page (app.py names it); page paths are relative to its folder,
# pages/: at.switch_page("soft.py").
APP = str(Path(__file__).resolve().parents[1] / "pages" / "_entrypoint.py")


def open_app(page: str | None = None, *, timeout: float = 120, **query) -> AppTest:
    """The app after its first run, which must not raise: the Compare page, or `page`
    ("soft.py"), opened with the URL query `query`."""
    at = AppTest.from_file(APP, default_timeout=timeout)
    at.query_params.update(query)
    if page is not None:
        at.switch_page(page)
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def plotly_figure(at, key: str) -> dict:
    """The plotly figure drawn with the widget key `key`, as {"data", "layout"}."""
    charts = [c for c in at.get("plotly_chart") if c.proto.id.endswith(f"-{key}")]
    assert len(charts) == 1, [c.proto.id for c in at.get("plotly_chart")]
    return json.loads(charts[0].proto.spec)


def plotly_array(value, dtype=None) -> np.ndarray:
    """An array of a figure's JSON: a list (of lists), or a base64 typed array (with its shape)."""
    if isinstance(value, dict) and "bdata" in value:
        array = np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
        shape = value.get("shape")
        return array.reshape([int(n) for n in str(shape).split(",")]) if shape else array
    return np.asarray(value, dtype=dtype)


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
    """Pick the first option starting with `option` in the selectbox called `label` (typed first:
    the list only draws the options in sight)."""
    box = page.get_by_role("combobox", name=label, exact=True)
    box.click()
    box.press_sequentially(option)
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
