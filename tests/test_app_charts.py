"""Every chart can be saved as PNG or SVG: the pages draw charts only through pages/_charts.py,
whose camera button saves in the format the sidebar chooses (AppTest)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from apptools import open_app

PAGES = Path(__file__).resolve().parents[1] / "pages"


def test_no_page_draws_a_chart_but_through_the_wrapper():
    direct = {path.name: len(re.findall(r"\bst\.plotly_chart\(", path.read_text()))
              for path in PAGES.glob("*.py") if path.name != "_charts.py"}
    assert not {name: count for name, count in direct.items() if count}, direct


def _formats(at) -> set:
    return {json.loads(chart.proto.config)["toImageButtonOptions"]["format"] for chart in at.get("plotly_chart")}


def test_the_sidebar_choice_sets_every_charts_save_format():
    at = open_app()
    assert at.get("plotly_chart") and _formats(at) == {"png"}
    names = {json.loads(chart.proto.config)["toImageButtonOptions"]["filename"] for chart in at.get("plotly_chart")}
    assert all(name.startswith("cluval_") for name in names) and len(names) == len(at.get("plotly_chart"))
    at.segmented_control(key="chart_format").set_value("SVG").run()
    assert _formats(at) == {"svg"}
    at.switch_page("build_table.py").run()
    assert not at.exception and _formats(at) == {"svg"}  # the choice holds on every page
