"""The Overlapping clusterings page under AppTest: the example's table shows what the library
computes for the thresholded fuzzy c-means covers, and two uploaded covers are compared with the
chosen policy; a bad file gives a message, never a traceback."""

from __future__ import annotations

import numpy as np
import pytest

from apptools import open_app
from cluval_core.algorithms.clustering import cluster
from cluval_core.core.covers import compare_covers, cover_from_memberships
from cluval_core.data.synthetic import make_synthetic

PAGE = "overlapping.py"
DATASET = "lei_g1_ovp3"  # synthetic, 1000 points in 5 clusters
pytestmark = pytest.mark.slow


def _app(**query):
    at = open_app(PAGE, dataset=DATASET, **query)
    assert not at.error, [e.value for e in at.error]
    return at


def _measures(at):
    """The table of measures (the page's other table is the peer tools')."""
    return next(t.value for t in at.table if "Omega index" in t.value.index)


def test_the_example_shows_the_library_values_for_both_thresholds():
    at = _app()
    X, labels = make_synthetic(DATASET, 0)[:2]
    U = cluster(X, "fcm", len(np.unique(labels)), seed=0).memberships
    table = _measures(at)
    for level in (0.25, 0.5):
        c = compare_covers(labels, cover_from_memberships(U, level))
        assert table.loc["Omega index", f"memberships ≥ {level:g}"] == f"{c.omega():.4f}"
        assert table.loc["Extended BCubed recall", f"memberships ≥ {level:g}"] == f"{c.extended_bcubed_recall():.4f}"
        assert table.loc["Omega's agreement by chance", f"memberships ≥ {level:g}"] == f"{c.omega_expected():.4f}"
    assert list(table.index[:2]) == ["Omega index", "Omega's agreement by chance"]


def test_the_normalisation_of_the_mgh_nmi_is_chosen():
    at = _app()
    at.selectbox(key="cover_mgh").set_value("joint").run()
    assert "Overlapping NMI (MGH, joint entropy)" in _measures(at).index


def test_the_measures_in_other_tools_are_the_peer_maps():
    at = _app()
    at.selectbox(key="cover_peer_measure").set_value("onmi_lfk").run()
    peers = next(t.value for t in at.table if "Tool" in t.value.columns).set_index("Tool")
    assert peers.loc["clusim", "Call"] == "`clusim.sim.onmi(c_true, c_pred)`"
    assert "h(1 − P11)" in peers.loc["clusim", "Difference in convention"]
