"""The Hierarchies page under AppTest: the profile, the whole-tree measures and the tanglegram show
what the library computes for the chosen trees, the choices go into the URL, the link opens the
cut's two partitions in Compare, and a hostile link gives the defaults, never a traceback."""

from __future__ import annotations

import base64
import json
from urllib.parse import parse_qs, urlparse

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from apptools import APP
from cluval_core.algorithms.clustering import hierarchy
from cluval_core.core.trees import bakers_gamma, cophenetic_correlation, cut_labels, cut_profile
from cluval_core.data.synthetic import make_synthetic

PAGE = "hierarchies.py"
DATASET = "lei_g1_ovp3"  # synthetic, 1000 points in 5 clusters, with a reference
X = make_synthetic(DATASET, 0)[0]
pytestmark = pytest.mark.slow


def _app(**query) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update({"dataset": DATASET, **query})
    at.switch_page(PAGE)
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    return at


def _array(value) -> np.ndarray:
    """A plotly array from a figure's JSON: a list, or a base64 typed array."""
    if isinstance(value, dict) and "bdata" in value:
        return np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
    return np.asarray(value, dtype=float)


def _charts(at) -> dict:
    return {c.proto.id.rsplit("-", 1)[-1]: json.loads(c.proto.spec) for c in at.get("plotly_chart")}


def test_the_page_shows_the_profile_measures_and_tanglegram_of_the_chosen_trees():
    at = _app(tree_a="average", tree_b="single", tree_up_to="10", tree_cut="4")
    a, b = hierarchy(X, "average"), hierarchy(X, "single")
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Cophenetic correlation"] == f"{cophenetic_correlation(a, b):.3f}"
    assert metrics["Baker's gamma"] == f"{bakers_gamma(a, b):.3f}"
    charts = _charts(at)
    assert {"tree_profile", "tree_tanglegram", "tree_reference_average", "tree_reference_single"} <= charts.keys()
    profile = cut_profile(a, b, ["ari"], k_max=10)
    lines = [_array(t["y"]) for t in charts["tree_profile"]["data"]
             if t.get("name") == "Adjusted Rand index" and "markers" in t.get("mode", "")]
    assert len(lines) == 1 and lines[0].tolist() == pytest.approx(profile.value.tolist())
    link = next(m.value for m in at.markdown if "Open this pair of partitions in Compare" in m.value)
    query = parse_qs(urlparse(link[link.index("(") + 1:link.index(")")]).query)
    assert query == {"dataset": [DATASET], "reference": ["a second clustering"], "ref_algorithm": ["average"],
                     "ref_k": ["4"], "algorithm": ["single"], "k": ["4"]}
    assert len(set(cut_labels(a, 4))) == 4


def test_the_choices_go_into_the_url():
    at = _app()
    at.selectbox(key="tree_b").set_value("complete").run()
    assert at.query_params["tree_b"] == ["complete"] or at.query_params["tree_b"] == "complete"


def test_a_hostile_link_gives_the_defaults():
    at = _app(tree_a="nope", tree_up_to="7", tree_cut="999")
    assert at.selectbox(key="tree_a").value == "ward"
    assert at.selectbox(key="tree_up_to").value == 30
