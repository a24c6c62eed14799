"""Chance, uncertainty and anatomy in the app: what the pages show equals what the library gives
for the comparison they draw (expected values, z, intervals, contributions, chance bands)."""

from __future__ import annotations

import base64
import json

import numpy as np
import pytest

from cluval_core import INDICES
from apptools import open_app as _app

pytestmark = pytest.mark.slow


def _array(value) -> np.ndarray:
    """A plotly array from a figure's JSON: a list (of lists), or a base64 typed array."""
    if isinstance(value, dict) and "bdata" in value:
        array = np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
        shape = value.get("shape")
        return array.reshape([int(n) for n in str(shape).split(",")]) if shape is not None else array
    return np.asarray(value, dtype=float)


def _chart(at, key: str) -> dict:
    charts = [c for c in at.get("plotly_chart") if c.proto.id.endswith(f"-{key}")]
    assert len(charts) == 1, [c.proto.id for c in at.get("plotly_chart")]
    return json.loads(charts[0].proto.spec)


@pytest.fixture
def compared(monkeypatch):
    """The app on a small synthetic set, with every Comparison the app builds recorded."""
    import pages._cache

    built = []

    def recording(*args, **kwargs):
        built.append(pages._cache.__dict__["_library_compare"](*args, **kwargs))
        return built[-1]

    monkeypatch.setitem(pages._cache.__dict__, "_library_compare", pages._cache.compare)
    monkeypatch.setattr(pages._cache, "compare", recording)
    at = _app()
    at.selectbox(key="dataset").set_value("lei_g1_ovp3").run()
    assert not at.exception and not at.error
    return at, built


# ---------------------------------------------------------------------- the table coloured by contributions
@pytest.mark.parametrize("index_id", ["ari", "psi", "nvd"])
def test_the_table_coloured_by_an_index_shows_its_contributions(compared, index_id):
    at, built = compared
    heatmap = _chart(at, "compare_contingency")
    c = built[-1]
    counts = _array(heatmap["data"][0]["z"])
    pairing = c.hungarian_pairing
    np.testing.assert_array_equal(counts, np.asarray(c.table)[np.ix_(pairing.row_order, pairing.col_order)])
    assert heatmap["data"][0]["colorscale"][0][1] != heatmap["data"][0]["colorscale"][-1][1]

    choice = at.selectbox(key="compare_colour_by")
    assert choice.value == "counts"
    offered = {f"contribution to {info.name}" for info in INDICES.values() if info.anatomy}
    assert set(choice.options) == {"shared objects (counts)"} | offered  # the Centroid Index has no cells
    choice.set_value(index_id).run()
    assert not at.exception and not at.error
    trace = _chart(at, "compare_contingency")["data"][0]
    parts = c.contributions(index_id)
    shown = _array(trace["z"])
    np.testing.assert_allclose(shown, parts.cells[np.ix_(pairing.row_order, pairing.col_order)], rtol=1e-12)
    assert shown.sum() + parts.constant == pytest.approx(c.score(index_id))
    assert trace["zmid"] == 0 and trace["zmin"] == -trace["zmax"] > -np.inf  # diverging, centred on 0
    assert trace["zmax"] == pytest.approx(np.abs(shown).max())
    caption = next(cap.value for cap in at.caption if "contribution to" in cap.value)
    assert INDICES[index_id].name in caption
    assert ("constant" in caption) == (parts.constant != 0)
