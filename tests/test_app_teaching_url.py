"""The PSI vs ARI page explains the clustering a link chooses, in words, and highlights the decisive row."""

from __future__ import annotations

import re

import pytest

from apptools import open_app
from cluval_core.experiments import psi_paper

pytestmark = pytest.mark.slow


def test_psi_vs_ari_explains_the_chosen_algorithm_and_highlights_the_decisive_row():
    at = open_app(timeout=240, page="psi_vs_ari.py", clustering="KM")
    assert at.segmented_control(key="clustering").value == "KM"
    bullets = next(m.value for m in at.markdown if m.value.startswith("- "))
    first = bullets.split("\n")[0]
    assert first.startswith("- PSI \\(") or first.startswith("- The headline similarities agree")
    styled = [frame for frame in at.dataframe
              if frame.proto.arrow_data.HasField("styler") and "213, 94, 0" in frame.proto.arrow_data.styler.styles]
    assert len(styled) == 2  # the computed and the published table
    for frame in styled:  # the highlighted row is the decisive one: ARI shown as 1.00, PSI lowest
        rows = {int(row) for row in re.findall(r"_row(\d+)_col", frame.proto.arrow_data.styler.styles)}
        assert len(rows) == 1
        table = frame.value
        assert table["algorithm"].iloc[rows.pop()] == psi_paper.decisive_row(table)
