"""Chance, uncertainty and anatomy in the app: what the pages show equals what the library gives
for the comparison they draw (expected values, z, intervals, contributions, chance bands)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from apptools import open_app as _app
from apptools import plotly_array
from apptools import plotly_figure as _chart
from cluval_core import INDICES

pytestmark = pytest.mark.slow


def _array(value) -> np.ndarray:
    """A figure's array as floats (None as NaN)."""
    return plotly_array(value, float)


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

    choice = at.selectbox(key="colour")  # kept in the URL's ?colour=
    assert choice.value == "counts"
    offered = {index_id for index_id, info in INDICES.items() if info.anatomy}
    assert set(choice.options) == {"counts"} | offered  # the Centroid Index has no cells
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


# ---------------------------------------------------------------------- the index table against chance
def _shown_rows(at) -> dict:
    """{index id: its row} from the Compare page's index tables."""
    rows = {}
    for frame in at.dataframe:
        df = frame.value
        if "id" in df.columns and "value" in df.columns:
            rows.update({row["id"]: row for row in df.to_dict("records")})
    return rows


def test_the_index_table_against_chance_shows_the_librarys_numbers(compared, monkeypatch):
    import pages._cache

    at, built = compared
    assert at.toggle(key="compare_chance").value is False  # off: the first render computes no chance
    assert "expected" not in next(iter(_shown_rows(at).values()))
    reported = []
    original = pages._cache.progress_bar

    def recorded(text):
        bar = original(text)

        class Recording:
            def __enter__(self):
                update = bar.__enter__()
                reported.append((text, []))  # each bar's fractions: the random tables', the jackknife's
                return lambda fraction, message="": (reported[-1][1].append(fraction), update(fraction, message))

            def __exit__(self, *exc):
                return bar.__exit__(*exc)
        return Recording()

    monkeypatch.setattr(pages._cache, "progress_bar", recorded)
    at.session_state["compare_chance_samples"] = 200  # few random tables: a quick test
    at.session_state["compare_chance_centroid"] = True  # the centroid indices' intervals too
    at.toggle(key="compare_chance").set_value(True).run()
    assert at.segmented_control(key="compare_chance_samples").value == 200 and not at.warning
    assert not at.exception and not at.error, [e.value for e in at.error]
    c = built[-1]
    chance = c.chance(n_samples=200, seed=0)
    interval = c.uncertainty(method="jackknife")
    shown = _shown_rows(at)
    costly = {i for i in shown if INDICES[i].cost == "moments"}  # no jackknife: a variance per left-out table
    assert set(shown) == set(chance.index) and set(interval.index) == set(shown) - costly and costly
    for index_id, row in shown.items():
        facts = chance.loc[index_id]
        for column in ("expected", "p"):
            assert row[column] == pytest.approx(facts[column], rel=1e-12, nan_ok=True), (index_id, column)
        assert row["z"] == ("undefined" if np.isnan(facts["z"]) else f"{facts['z']:.1f}"), index_id
        assert row["expected error"] == ("exact" if facts["method"] == "exact" else f"{facts['mc_error']:.0e}")
        if index_id in costly:
            assert np.isnan(row["low"]) and np.isnan(row["high"]), index_id
            continue
        assert row["low"] == pytest.approx(interval.loc[index_id, "low"], rel=1e-12, abs=1e-15), index_id
        assert row["high"] == pytest.approx(interval.loc[index_id, "high"], rel=1e-12, abs=1e-15), index_id
        assert row["low"] <= c.score(index_id) <= row["high"]
    assert shown["ari"]["expected"] == 0 and float(shown["ari"]["z"]) > 2 and shown["ari"]["expected error"] == "exact"
    assert [text for text, _ in reported][0].startswith("Drawing 200 random tables")
    for text, fractions in reported:  # each bar moved to its end
        assert fractions and fractions[-1] == 1.0 and fractions == sorted(fractions), text
    caption = next(cap.value for cap in at.caption if "permutation model" in cap.value)
    assert "200 random tables" in caption and INDICES["ari"].name in caption
    # beside the chance band: the range these cluster sizes allow, as the library gives it
    from cluval_core.outputs.export import chance_sentence, reachable
    from pages._shared import plain

    reach = c.attainable()
    for index_id, row in shown.items():
        ends = reach.loc[index_id]
        assert row["reachable"] == reachable(index_id, ends["low"], ends["high"], ends["low_exact"],
                                             ends["high_exact"]), index_id
    sentence = plain(chance_sentence("ari", c.score("ari"), chance, reach))
    assert any(m.value == sentence for m in at.markdown), sentence
    assert "for these sizes it can reach" in sentence


def test_against_chance_starts_quick_and_leaves_the_centroid_intervals_to_a_request(compared):
    """The default asks for the fewest random tables and no jackknife of the centroid indices (one
    comparison per object); the caption says how to get them, and asking adds them."""
    from pages._views import CHANCE_SAMPLES

    at, built = compared
    at.toggle(key="compare_chance").set_value(True).run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert at.segmented_control(key="compare_chance_samples").value == CHANCE_SAMPLES[0] == min(CHANCE_SAMPLES)
    assert at.toggle(key="compare_chance_centroid").value is False
    c = built[-1]
    needing = [i for i, info in INDICES.items() if info.needs_data]
    assert c.has_data and needing
    shown = _shown_rows(at)
    assert all(np.isnan(shown[i]["low"]) and np.isnan(shown[i]["high"]) for i in needing)
    assert all(shown[i]["low"] <= c.score(i) <= shown[i]["high"] for i in ("ari", "psi", "nmi_sum"))
    caption = next(cap.value for cap in at.caption if "permutation model" in cap.value)
    assert "computed on request" in caption and "Intervals of the centroid indices too" in caption
    at.toggle(key="compare_chance_centroid").set_value(True).run()
    interval = c.uncertainty(needing, method="jackknife")
    shown = _shown_rows(at)
    for i in needing:
        assert (shown[i]["low"], shown[i]["high"]) == pytest.approx(
            (interval.loc[i, "low"], interval.loc[i, "high"]), rel=1e-12, abs=1e-15), i
    caption = next(cap.value for cap in at.caption if "permutation model" in cap.value)
    assert "on request" not in caption


# ---------------------------------------------------------------------- PSI vs ARI against chance
@pytest.mark.data
def test_psi_vs_ari_shows_each_algorithms_values_against_chance(monkeypatch):
    import pages._cache

    built = {}
    library_compare = pages._cache.compare

    def recording(labels_true, labels_pred, X=None, **kwargs):
        c = library_compare(labels_true, labels_pred, X=X, **kwargs)
        built[tuple(labels_pred)] = c
        return c

    monkeypatch.setattr(pages._cache, "compare", recording)
    at = _app()
    at.switch_page("psi_vs_ari.py").run()
    assert not at.exception and not at.error
    table = next(f for f in at.dataframe if "expected psi" in f.value.columns)
    shown, config = table.value, json.loads(table.proto.columns)
    assert list(shown["algorithm"]) == ["RS", "AC", "SL", "KM"]
    assert [config[f"{column} psi"]["label"] for column in ("value", "expected", "z")] == ["PSI", "E[PSI]", "z (PSI)"]
    computed = next(f.value for f in at.dataframe if list(f.value.columns[:2]) == ["algorithm", "ari"])
    from pages._cache import TEACHING_CHANCE_SAMPLES

    comparisons = [c for c in built.values() if c.has_data and c.n == 6500]
    assert len(comparisons) == 4
    for c in comparisons:  # each algorithm's row is its comparison's chance, as the library gives it
        chance = c.chance(["ari", "psi"], n_samples=TEACHING_CHANCE_SAMPLES, seed=0)
        row = shown[shown["value psi"] == c.score("psi")]
        assert len(row) == 1
        row = row.iloc[0]
        for index_id in ("ari", "psi"):
            for column in ("value", "expected", "z"):
                assert row[f"{column} {index_id}"] == pytest.approx(chance.loc[index_id, column], rel=1e-12)
        assert row["expected ari"] == 0 and 0 < row["expected psi"] < 0.1 and row["z psi"] > 10
        # the same value as the paper-form table beside it
        assert computed.loc[computed["algorithm"] == row["algorithm"], "psi"].iloc[0] == pytest.approx(row["value psi"])


# ---------------------------------------------------------------------- chance bands behind the curves
def test_why_disagree_draws_each_curves_chance_band():
    from cluval_core.experiments import scenario_chance
    from pages._cache import BAND_SAMPLES

    at = _app()
    at.switch_page("why_disagree.py").run()
    at.selectbox(key="scenario").set_value("clusters").run()
    at.multiselect(key="scenario_indices").set_value(["ari", "nvd"]).run()
    assert at.toggle(key="scenario_bands").value is False
    assert not any(t.get("fill") for t in _chart(at, "scenario_curves")["data"])
    at.toggle(key="scenario_bands").set_value(True).run()
    assert not at.exception and not at.error
    figure = _chart(at, "scenario_curves")
    expected = scenario_chance("clusters", ["ari", "nvd"], n_samples=BAND_SAMPLES, seed=0)
    for index_id, name in (("ari", "Adjusted Rand index"), ("nvd", "1 − Normalised van Dongen")):
        line = next(t for t in figure["data"] if t.get("name") == name)
        high, low = [t for t in figure["data"] if t.get("legendgroup") == index_id and t is not line]
        assert high.get("fill") is None and low["fill"] == "tonexty"  # the area between the two edges
        colour = line["line"]["color"]
        assert high["fillcolor"] == low["fillcolor"] != colour and low["fillcolor"].startswith("rgba(")
        assert low["line"]["color"] == colour  # the band in its line's colour
        band = expected[expected["index"] == index_id]
        centre = band["expected"].to_numpy() if index_id == "ari" else 1 - band["expected"].to_numpy()
        np.testing.assert_allclose(_array(high["x"]), band["clusters"])
        np.testing.assert_allclose(_array(high["y"]), centre + 2 * band["sd"].to_numpy(), rtol=1e-12)
        np.testing.assert_allclose(_array(low["y"]), centre - 2 * band["sd"].to_numpy(), rtol=1e-12)
        assert (_array(low["y"]) <= centre).all() and (centre <= _array(high["y"])).all()
        assert (band["sd"] > 0).all()  # a band, not a line
    ari = expected[expected["index"] == "ari"]
    np.testing.assert_allclose(ari["expected"], 0, atol=1e-12)  # ARI stays at 0 by chance, whatever K
    nvd = expected[expected["index"] == "nvd"]["expected"].to_numpy()
    assert nvd[-1] > nvd[0] + 0.1  # NVD's chance baseline drifts with K
    assert any("chance band" in cap.value and f"{BAND_SAMPLES} random tables" in cap.value for cap in at.caption)


def test_a_failing_chance_computation_is_a_message_and_the_page_goes_on(compared, monkeypatch):
    from cluval_core import CluvalError, Comparison

    at, _ = compared

    def refused(self, *args, **kwargs):
        raise CluvalError("simulated refusal")

    monkeypatch.setattr(Comparison, "chance", refused)
    at.session_state["compare_chance_samples"] = 200
    at.toggle(key="compare_chance").set_value(True).run()
    assert not at.exception
    assert len(at.error) == 1 and "simulated refusal" in at.error[0].value
    assert "expected" not in next(iter(_shown_rows(at).values()))  # the values alone, as before
    assert at.get("download_button")  # the rest of the page is still drawn


# ---------------------------------------------------------------------- other random models
def test_another_random_model_on_compare_gives_the_librarys_numbers(compared):
    from cluval_core.core.random_models import MODELS

    at, built = compared
    at.session_state["compare_chance_samples"] = 200
    at.toggle(key="compare_chance").set_value(True).run()
    assert at.selectbox(key="compare_chance_model").value == "perm"
    at.selectbox(key="compare_chance_model").set_value("num1").run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    c = built[-1]
    chance = c.chance(n_samples=200, seed=0, model="num1")
    shown = _shown_rows(at)
    # each random partition has margins of its own: an index with an exact variance per margins is left out
    assert set(shown) - set(chance.index) == {i for i in shown if INDICES[i].cost == "moments"}
    for index_id, row in shown.items():
        if index_id not in chance.index:
            assert np.isnan(row["expected"]) and row["adjusted"] == "undefined", index_id
            continue
        for column in ("expected", "p"):
            assert row[column] == pytest.approx(chance.loc[index_id, column], rel=1e-12, nan_ok=True), (index_id,
                                                                                                         column)
        adjusted = chance.loc[index_id, "adjusted"]
        assert row["adjusted"] == ("undefined" if np.isnan(adjusted) else f"{adjusted:.4f}"), index_id
    assert shown["ri"]["expected error"] == "exact" and shown["ari"]["expected error"] != "exact"
    assert any(MODELS["num1"] in cap.value and "200 random partitions" in cap.value for cap in at.caption)


def test_why_disagree_draws_the_bands_of_the_chosen_model():
    from cluval_core.experiments import scenario_chance
    from pages._cache import BAND_SAMPLES

    at = _app()
    at.switch_page("why_disagree.py").run()
    at.selectbox(key="scenario").set_value("clusters").run()
    at.multiselect(key="scenario_indices").set_value(["ri"]).run()
    at.toggle(key="scenario_bands").set_value(True).run()
    at.selectbox(key="scenario_model").set_value("all1").run()
    assert not at.exception and not at.error
    assert at.query_params["scenario_model"] == "all1"
    expected = scenario_chance("clusters", ["ri"], n_samples=BAND_SAMPLES, seed=0, model="all1")
    line = next(t for t in _chart(at, "scenario_curves")["data"] if t.get("name") == "Rand index")
    high = next(t for t in _chart(at, "scenario_curves")["data"] if t.get("legendgroup") == "ri" and t is not line)
    np.testing.assert_allclose(_array(high["y"]), expected["expected"] + 2 * expected["sd"], rtol=1e-12)
    assert any("the reference as observed" in cap.value for cap in at.caption)
