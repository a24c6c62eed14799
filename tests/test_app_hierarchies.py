"""The Hierarchies page under AppTest: the profile, the whole-tree measures and the tanglegram show
what the library computes for the chosen trees, the choices go into the URL, the link opens the
cut's two partitions in Compare, and a hostile link gives the defaults, never a traceback."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest

from apptools import open_app, plotly_array, plotly_figure
from cluval_core.algorithms.clustering import hierarchy
from cluval_core.core.trees import bakers_gamma, cophenetic_correlation, cut_labels, cut_profile
from cluval_core.data.synthetic import make_synthetic

PAGE = "hierarchies.py"
DATASET = "lei_g1_ovp3"  # synthetic, 1000 points in 5 clusters, with a reference
X = make_synthetic(DATASET, 0)[0]
pytestmark = pytest.mark.slow


def _app(**query):
    at = open_app(PAGE, dataset=DATASET, **query)
    assert not at.error, [e.value for e in at.error]
    return at


def test_the_page_shows_the_profile_measures_and_tanglegram_of_the_chosen_trees():
    at = _app(tree_a="average", tree_b="single", tree_up_to="10", tree_cut="4")
    a, b = hierarchy(X, "average"), hierarchy(X, "single")
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Cophenetic correlation"] == f"{cophenetic_correlation(a, b):.3f}"
    assert metrics["Baker's gamma"] == f"{bakers_gamma(a, b):.3f}"
    for key in ("tree_tanglegram", "tree_reference_average", "tree_reference_single"):
        plotly_figure(at, key)
    profile = cut_profile(a, b, ["ari"], k_max=10)
    lines = [plotly_array(t["y"], float) for t in plotly_figure(at, "tree_profile")["data"]
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


def test_the_same_method_twice_is_one_tree():
    at = _app(tree_a="single", tree_b="single", tree_up_to="10")
    profile = cut_profile(hierarchy(X, "single"), hierarchy(X, "single"), ["ari"], k_max=10)
    assert (profile.value == 1.0).all()
    plotly_figure(at, "tree_reference_single")  # drawn once
