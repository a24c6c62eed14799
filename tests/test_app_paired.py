"""Against a second candidate on the Compare page: off by default, and when asked, the values,
sentences and figure of the library's paired comparison of the partitions the page draws."""

from __future__ import annotations

import numpy as np
import pytest

from apptools import open_app, plotly_figure, record_downloads
from cluval_core import INDICES, compare, compare_paired
from pages._text import plain

pytestmark = pytest.mark.slow


@pytest.fixture
def calls(monkeypatch):
    """Every paired comparison the app asks the library for: (arguments, result)."""
    import pages._cache

    made = []

    def recording(*args, **kwargs):
        made.append((args, kwargs, compare_paired(*args, **kwargs)))
        return made[-1][2]

    monkeypatch.setattr(pages._cache, "compare_paired", recording)
    return made


def test_a_second_candidate_is_compared_on_request(calls, monkeypatch):
    offered = record_downloads(monkeypatch)
    at = open_app(dataset="lei_g1_ovp3")
    assert at.toggle(key="compare_paired").value is False and not calls  # off: nothing computed
    at.toggle(key="compare_paired").set_value(True).run()
    assert not at.exception and not at.error
    assert at.selectbox(key="compare_paired_algorithm").value == "ward"  # another algorithm than the sidebar's
    assert len(calls) == 1
    (reference, a, b, ids), options, paired = calls[0]
    assert ids == ["ari", "ami", "psi", "nvd"] and options["n_bootstrap"] == options["n_permutations"] == 200
    # A is the page's candidate: its values are the Compare page's own
    shown = next(f.value for f in at.dataframe if list(f.value.columns) == ["index", "difference", "p", "closer", "a",
                                                                              "b"])
    assert list(shown["index"]) == [INDICES[i].name for i in ids]
    for index_id, row in zip(ids, shown.itertuples()):
        assert row.a == compare(reference, a).score(index_id)
        assert row.b == compare(reference, b).score(index_id)
        assert row.p == paired.table.loc[index_id, "p"]
    texts = [m.value for m in at.markdown]
    assert plain(paired.sentence("ari")) in texts  # escaped as every sentence the app writes
    assert any("A**: " in t and "(the sidebar's candidate)" in t for t in texts)
    figure = plotly_figure(at, "compare_paired_figure")
    diamonds = [t for t in figure["data"] if t.get("marker", {}).get("symbol") == "diamond"]
    assert len(diamonds) == len(ids)
    for index_id, trace in zip(ids, diamonds):  # right of 0 is "A closer": a distance is turned round
        sign = 1 if INDICES[index_id].higher_is_better else -1
        assert trace["x"][0] == pytest.approx(sign * paired.table.loc[index_id, "difference"])
    assert offered["Paired comparison (CSV)"] == paired.table.to_csv()

    at.multiselect(key="compare_paired_ids").set_value(["psi"]).run()
    assert not at.exception and not at.error
    assert calls[-1][0][3] == ["psi"]
    at.multiselect(key="compare_paired_ids").set_value([]).run()
    assert not at.exception
    assert any("Choose at least one index" in w.value for w in at.warning)


def test_the_same_algorithm_twice_compares_two_seeds(calls):
    at = open_app(dataset="lei_g1_ovp3")
    at.toggle(key="compare_paired").set_value(True).run()
    at.selectbox(key="compare_paired_algorithm").set_value("kmeans").run()
    at.number_input(key="compare_paired_seed").set_value(7).run()
    assert not at.exception and not at.error
    (reference, a, b, _), _, paired = calls[-1]
    assert not np.array_equal(a, b) or paired.table["difference"].eq(0).all()
    assert "seed 7" in " ".join(m.value for m in at.markdown)
