"""The property atlas: the properties' checks on cases worked out by hand, the kept atlas complete and
reproducible, every kept counterexample still a counterexample, and no claim of proved or holds
contradicted by a fresh search."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from cluval_core import INDICES, compare
from cluval_core.indices import properties as P
from cluval_core.indices.properties import PROPERTIES, PROVED, atlas, counterexample, verdicts
from cluval_core.outputs.cli import main

STORED = P._stored()
FRAME = atlas()
FAILING = [(row.index, row.property) for row in FRAME.itertuples() if row.state == "fails"]
ENOUGH = 100  # a claim that holds was tried on at least this many cases


# ---------------------------------------------------------------------------- partitions and moves
def test_meet_and_canonical_labels():
    assert P.meet([0, 0, 1, 1], [0, 1, 1, 0]).tolist() == [0, 1, 2, 3]
    assert P.meet([5, 5, 2, 2], [1, 1, 1, 1]).tolist() == [0, 0, 1, 1]
    assert P.canonical(["b", "a", "b", "c"]).tolist() == [0, 1, 0, 2]
    assert P.same_partition([3, 3, 1], [0, 0, 7]) and not P.same_partition([0, 0, 1], [0, 1, 1])


@pytest.mark.parametrize("seed", range(5))
def test_a_perfect_split_cuts_one_cluster_along_the_reference(seed):
    rng = np.random.default_rng(seed)
    a, b = [0, 0, 1, 1, 2, 2], [0, 0, 0, 0, 1, 1]
    assert P.perfect_split(rng, a, b).tolist() == [0, 0, 1, 1, 2, 2]  # either half moved, the same partition
    assert P.perfect_split(rng, a, a) is None  # nothing left to cut


@pytest.mark.parametrize("seed", range(5))
def test_a_perfect_merge_joins_two_clusters_inside_one_reference_cluster(seed):
    rng = np.random.default_rng(seed)
    a, b = [0, 0, 0, 1, 1], [0, 1, 2, 3, 3]
    merged = P.perfect_merge(rng, a, b)
    assert merged.max() == 2 and P.same_partition(P.meet(merged, a), merged)  # still inside A's clusters
    assert P.same_partition(P.meet(merged, b), b)  # coarser than B
    assert P.perfect_merge(rng, [0, 0, 1, 1], [0, 1, 0, 1]) is None  # no pure clusters


def test_every_table_with_the_margins_and_their_probabilities():
    tables = list(P.tables_with_margins((2, 1), (1, 2)))
    assert [t.tolist() for t in tables] == [[[0, 2], [1, 0]], [[1, 1], [0, 1]]]
    # hypergeometric weights over every table: ARI's expectation is 0, RI's (M - m_a - m_b + 2 m_a m_b / M) / M
    a, b = [0, 0, 0, 1, 1, 2, 2], [0, 1, 1, 1, 2, 2, 0]
    ari, ri = P.expected_values(a, b, ["ari", "ri"])
    m_a, m_b, pairs = 3 + 1 + 1, 1 + 3 + 1, 21
    assert abs(ari) < 1e-12
    assert math.isclose(ri, (pairs - m_a - m_b + 2 * m_a * m_b / pairs) / pairs, rel_tol=1e-12)


def test_the_enumerated_expectations_agree_with_the_closed_forms_of_chance():
    a, b = [0, 0, 1, 1, 1, 2, 2, 2], [0, 1, 1, 0, 2, 2, 2, 1]
    ids = ["ri", "nmi_sum", "vi", "fowlkes_mallows", "chi2"]
    exact = compare(a, b).chance(ids)["expected"]
    np.testing.assert_allclose(P.expected_values(a, b, ids), exact[ids].to_numpy(), rtol=1e-10, atol=1e-12)


# ---------------------------------------------------------------------------- checks worked by hand
def test_n_invariance_by_hand():
    # RI: a = 3, b = 1, c = 3, d = 3 of 10 pairs; every object twice: a = 17, b = 4, c = 12, d = 12 of 45
    a, b = [0, 0, 1, 1, 1], [0, 1, 1, 1, 1]
    assert compare(a, b).score("ri") == pytest.approx(6 / 10)
    assert compare(a * 2, b * 2).score("ri") == pytest.approx(29 / 45)
    assert verdicts("n_invariance", (a, b), ["ri", "vi", "nmi_sum", "mirkin"]) == {
        "ri": True, "vi": False, "nmi_sum": False, "mirkin": True}


def test_maximal_agreement_by_hand():
    # splitting the only reference cluster leaves purity (each candidate cluster's best share) at 1
    assert verdicts("maximal_agreement", ([0, 0], [0, 1]), ["purity", "ari", "vi", "purity_inverse"]) == {
        "purity": True, "ari": False, "vi": False, "purity_inverse": False}


def test_convex_additivity_by_hand():
    # B refines A: VI = H(B | A) = 4/6 H(1/2, 1/4, 1/4) + 2/6 * 0
    a, b = [0, 0, 0, 0, 1, 1], [0, 0, 1, 2, 3, 3]
    h = -(0.5 * math.log(0.5) + 2 * 0.25 * math.log(0.25))
    assert compare(a, b).score("vi") == pytest.approx(4 / 6 * h)
    assert verdicts("convex_additivity", (a, b), ["vi", "mirkin", "ri"]) == {"vi": False, "mirkin": True, "ri": True}
    # the same partitions under other labels: the clusters' weights follow their labels
    assert verdicts("convex_additivity", ([1, 1, 1, 0, 0], [0, 1, 2, 3, 3]), ["vi"]) == {"vi": False}
    assert verdicts("convex_additivity", ([7, 7, 3, 3, 3, 3], [5, 5, 1, 2, 4, 4]), ["vi"]) == {"vi": False}


def test_the_rag_bag_by_hand():
    # three items of one category in a clean cluster, three single-item categories in a rag bag, a new item:
    # purity counts 3 + 1 of 7 either way
    categories = [0, 0, 0, 1, 2, 3, 4]
    into_clean, into_bag = [0, 0, 0, 1, 1, 1, 0], [0, 0, 0, 1, 1, 1, 1]
    found = verdicts("rag_bag", (categories, into_clean, into_bag), ["bcubed_f", "vi", "ri", "purity"])
    assert found == {"bcubed_f": False, "vi": True, "ri": True, "purity": True}
    assert compare(categories, into_clean).score("purity") == compare(categories, into_bag).score("purity") == 4 / 7


def test_the_size_versus_quantity_construction_by_hand():
    # m = 3: one item off the cluster of four loses three pairs; splitting three pairs loses three pairs too
    case = P._size_quantity_generate(np.random.default_rng(0), 10)
    a, one_off, pairs_split = (np.asarray(x) for x in case)
    assert np.bincount(a).tolist() == [4, 2, 2, 2]
    assert sorted(np.bincount(one_off).tolist()) == [1, 2, 2, 2, 3]
    assert sorted(np.bincount(pairs_split).tolist()) == [1, 1, 1, 1, 1, 1, 4]
    assert verdicts("size_vs_quantity", case, ["ri", "bcubed_f"]) == {"ri": True, "bcubed_f": False}


def test_minimal_agreement_by_hand():
    # RI is 0 only when no pair agrees; FM is 0 whenever no pair is together in both, and undefined at the extremes
    a, b = [0, 0, 1, 1], [0, 1, 0, 1]
    assert verdicts("minimal_agreement", (a, b), ["ri", "fowlkes_mallows", "vi"]) == {
        "ri": False, "fowlkes_mallows": True, "vi": True}


def test_an_undefined_value_is_no_counterexample():
    # Southwood is a/(b + c): identical partitions have b + c = 0 and the value +inf, the best
    assert verdicts("symmetry", ([0, 0, 1], [0, 0, 1]), ["southwood"]) == {"southwood": False}
    # the correlation of pairs is undefined when one side is a single cluster
    assert verdicts("symmetry", ([0, 0, 0], [0, 1, 1]), ["pair_correlation"]) == {"pair_correlation": False}


@pytest.mark.parametrize("prop", list(PROPERTIES))
def test_each_property_names_every_partition_of_its_cases(prop):
    rng = np.random.default_rng(3)
    property_ = PROPERTIES[prop]
    cases = [c for c in (property_.generate(rng, n) for n in property_.sizes for _ in range(5)) if c is not None]
    assert cases, "the generator never draws a case"
    for case in cases:
        assert len(case) == len(property_.parts)
        tables = property_.tables(case)
        assert len({caption for caption, *_ in tables}) == len(tables)  # every comparison has its own caption


def test_every_counterexample_says_what_it_shows_with_its_numbers():
    for index, prop in FAILING:
        sentence = counterexample(index, prop).sentence()
        assert sentence.endswith(".") and any(ch.isdigit() for ch in sentence) or "finite best" in sentence \
            or "undefined at the extremes" in sentence, (index, prop, sentence)


def test_normalisation_allows_negative_values_only_where_the_range_does():
    # ARI and the pair correlation may be negative ([-1, 1]); purity may not; VI exceeds 1
    found = verdicts("normalisation", ([0, 1, 1, 2, 2, 0], [0, 0, 1, 1, 2, 2]), ["ari", "pair_correlation", "vi"])
    assert compare([0, 1, 1, 2, 2, 0], [0, 0, 1, 1, 2, 2]).score("ari") < 0
    assert found == {"ari": False, "pair_correlation": False, "vi": True}
    assert FRAME.set_index(["index", "property"]).loc[("mirkin", "normalisation"), "state"] == "fails"


def test_unknown_properties_and_indices_are_errors():
    with pytest.raises(Exception, match="unknown property 'tidiness'"):
        verdicts("tidiness", ([0, 1], [0, 1]))
    with pytest.raises(Exception, match="unknown index id"):
        counterexample("nope", "symmetry")
    with pytest.raises(Exception, match="tries must be at least 1"):
        P.search("symmetry", tries=0)


# ---------------------------------------------------------------------------- the kept atlas
def test_the_atlas_covers_every_index_and_property():
    assert set(FRAME["index"]) == set(INDICES)
    assert set(FRAME["property"]) == set(PROPERTIES)
    assert len(FRAME) == len(INDICES) * len(PROPERTIES)
    assert set(FRAME["state"]) <= set(P.STATES)


def test_every_claim_that_holds_was_tried_on_enough_cases():
    thin = FRAME[FRAME["state"].isin(["holds", "proved"]) & (FRAME["tried"] < ENOUGH)]
    assert thin.empty, thin[["index", "property", "tried"]].to_string()


def test_no_proved_claim_has_a_counterexample_and_every_proof_names_its_source():
    for (index, prop), citation in PROVED.items():
        assert index in INDICES and prop in PROPERTIES
        assert STORED["properties"][prop][index]["counterexample"] is None, (index, prop)
        assert len(citation) > 20


def test_the_claims_agree_with_what_the_papers_say():
    """Published results the atlas must show (Vinh et al. 2010, Meilă 2007, Amigó et al. 2009, Gösgens et al. 2021)."""
    state = FRAME.set_index(["index", "property"])["state"]
    ok = {"proved", "holds"}
    assert state["nmi_max", "distance"] in ok and state["nmi_joint", "distance"] in ok
    assert state["nvi", "distance"] == "fails"  # 1 - NMI_sum is no metric
    assert state["ari", "distance"] == "fails" and state["ari", "constant_baseline"] == "proved"
    assert state["ri", "constant_baseline"] == "fails" and state["vi", "normalisation"] == "fails"
    assert all(state["bcubed_f", p] in ok for p in ("homogeneity", "completeness", "rag_bag", "size_vs_quantity"))
    assert state["purity", "completeness"] == "fails"  # set matching fails cluster completeness
    assert state["pair_correlation_distance", "constant_baseline"] == "fails"
    assert state["pair_correlation_distance", "asymptotic_constant_baseline"] in ok
    assert state["nmi_max", "monotonicity"] == "fails"  # a perfect merge leaves it unchanged when H(A) >= H(B)
    assert all(state[i, "symmetry"] == "fails" for i in ("f_measure", "purity", "homogeneity", "fnmi"))


@pytest.mark.parametrize(("index", "prop"), FAILING, ids=[f"{i}-{p}" for i, p in FAILING])
def test_every_kept_counterexample_is_still_one(index, prop):
    example = counterexample(index, prop)
    assert example.check(), "the case no longer contradicts the property: search again and keep the new atlas"
    values = P._values(PROPERTIES[prop], tuple(np.asarray(x) for x in example.case), np.asarray(example.X), [index])
    np.testing.assert_allclose(values[:, 0], example.values, rtol=1e-9, atol=1e-12, equal_nan=True)
    assert len(example.tables()) == len(example.captions)


@pytest.mark.parametrize("prop", ["minimal_agreement", "monotonicity", "strong_monotonicity"])
def test_the_kept_atlas_is_what_its_search_finds(prop):
    """The kept file is the search's output, not edited by hand (three of the quicker searches run again)."""
    found = P.search(prop, tries=STORED["tries"], seed=STORED["seed"])
    kept = STORED["properties"][prop]
    for index, finding in found.items():
        assert kept[index]["tried"] == finding.tried, index
        assert kept[index]["counterexample"] == (None if finding.counterexample is None
                                                 else json.loads(json.dumps(finding.counterexample.to_dict()))), index


@pytest.mark.slow
def test_a_fresh_search_contradicts_no_claim():
    fresh = P.build_atlas(tries=8, seed=2026)
    found = fresh["properties"]
    contradicted = [(row.index, row.property) for row in FRAME.itertuples()
                    if row.state in ("proved", "holds") and found[row.property][row.index]["counterexample"]]
    assert not contradicted, contradicted


def test_differences_name_the_changed_claims():
    changed = json.loads(json.dumps(STORED))
    entry = changed["properties"]["symmetry"]["purity"]
    entry["counterexample"] = None  # purity's asymmetry forgotten: it would hold
    found = P.differences(STORED, changed)
    assert found.to_dict("records") == [{"index": "purity", "property": "symmetry", "state_before": "fails",
                                         "state_after": "holds"}]
    assert P.differences(STORED, STORED).empty


def test_filtering_by_properties():
    wanted = ["distance", "asymptotic_constant_baseline"]
    having = P.filter_indices(wanted)
    good = FRAME[FRAME["state"].isin(["proved", "holds"])]
    expected = [i for i in INDICES if set(wanted) <= set(good.loc[good["index"] == i, "property"])]
    assert having == expected and "pair_correlation_distance" in having and "ari" not in having
    assert P.filter_indices(["distance", "constant_baseline"]) == []  # Gösgens et al.: none has both
    assert P.filter_indices([]) == list(INDICES)
    matrix = P.atlas_matrix()
    assert matrix.shape == (len(INDICES), len(PROPERTIES)) and matrix.loc["ari", "constant_baseline"] == "proved"


def test_an_index_added_later_is_not_searched():
    from cluval_core import remove_index
    from cluval_core.indices.pair_counting import pair_index

    pair_index("my_ratio", lambda a, b, c, d: a / (a + b + c + d), name="My ratio")  # registers it
    try:
        frame = atlas()
        assert set(frame.loc[frame["index"] == "my_ratio", "state"]) == {"not searched"}
        assert "my_ratio" not in P.filter_indices(["symmetry"])
        assert verdicts("symmetry", ([0, 0, 1], [0, 1, 1]), ["my_ratio"]) == {"my_ratio": False}
    finally:
        remove_index("my_ratio")


# ---------------------------------------------------------------------------- the command line
def test_the_command_line_lists_filters_and_searches(tmp_path, capsys):
    assert main(["atlas"]) == 0
    shown = capsys.readouterr().out
    assert "MaxA" in shown and "ari" in shown and "P proved" in shown
    assert main(["atlas", "--having", "distance,asymptotic_constant_baseline"]) == 0
    assert "pair_correlation_distance" in capsys.readouterr().out
    assert main(["atlas", "--out", str(tmp_path / "atlas.csv")]) == 0
    assert (tmp_path / "atlas.csv").read_text().count("\n") == len(FRAME) + 1
    assert main(["atlas", "--search", "--tries", "1", "--out", str(tmp_path / "fresh.json")]) == 0
    fresh = json.loads((tmp_path / "fresh.json").read_text())
    assert fresh["tries"] == 1 and set(fresh["properties"]) == set(PROPERTIES)
    assert "states differ from the kept atlas" in capsys.readouterr().out


@pytest.mark.parametrize("args", [["--having", "tidiness"], ["--search", "--tries", "0"], ["--out", "."],
                                  ["--search", "--having", "distance"]])
def test_the_command_line_refuses_bad_input(args, capsys):
    assert main(["atlas", *args]) == 2
    assert capsys.readouterr().err.startswith("cluval: error:")


# ---------------------------------------------------------------------------- the app
@pytest.mark.slow
def test_the_page_filters_draws_the_matrix_and_shows_a_claim():
    from apptools import open_app, plotly_figure
    from pages import _shared as ui

    at = open_app("property_atlas.py")
    assert not at.error, [e.value for e in at.error]
    figure = plotly_figure(at, "atlas_heatmap")
    assert list(figure["data"][0]["y"]) == list(INDICES)
    at.multiselect(key="atlas_wanted").set_value(["distance", "asymptotic_constant_baseline"]).run()
    assert list(plotly_figure(at, "atlas_heatmap")["data"][0]["y"]) == P.filter_indices(
        ["distance", "asymptotic_constant_baseline"])
    assert any("4 indices have distance and asymptotic constant baseline" in m.value for m in at.markdown)
    at.multiselect(key="atlas_wanted").set_value(["distance", "constant_baseline"]).run()
    assert any(": none. Try fewer properties." in m.value for m in at.markdown) and not at.exception
    assert at.selectbox(key="atlas_index").value == "pair_correlation_distance"  # the first index shown
    at.multiselect(key="atlas_wanted").set_value([]).run()
    at.selectbox(key="atlas_index").set_value("ari").run()
    # ARI is no distance: its counterexample, linked to Build a table
    links = " ".join(m.value for m in at.markdown)
    assert "Adjusted Rand index fails distance" in links and "build_table?table=" in links
    assert "atlas=ari%3Adistance%3A3" in links
    at.selectbox(key="atlas_property").set_value("constant_baseline").run()
    assert any(ui.plain("Proved: Hubert & Arabie (1985)") in s.value for s in at.success)
    at.selectbox(key="atlas_index").set_value("ami")
    at.selectbox(key="atlas_property").set_value("symmetry").run()
    assert any(s.value.startswith(ui.plain("Proved: its formula is symmetric")) for s in at.success)
    at.selectbox(key="atlas_index").set_value("nmi_sum")
    at.selectbox(key="atlas_property").set_value("n_invariance").run()
    tried = FRAME.set_index(["index", "property"]).loc[("nmi_sum", "n_invariance"), "tried"]
    assert any(f"Holds on every case tried: {tried:,} cases" in i.value for i in at.info)
    at.selectbox(key="atlas_index").set_value("ami").run()  # AMI's expectation changes with N
    assert any(ui.plain("fails n-invariance") in m.value for m in at.markdown) and not at.exception


@pytest.mark.slow
def test_a_counterexample_opens_in_build_a_table_with_its_note():
    from apptools import open_app
    from cluval_core.data.presets import table_to_text
    from pages import _shared as ui

    example = counterexample("nmi_max", "monotonicity")
    table = example.tables()[1][1]
    at = open_app("build_table.py", table=table_to_text(table), atlas="nmi_max:monotonicity:1")
    assert not at.error, [e.value for e in at.error]
    assert at.data_editor[0].value.astype(int).values.tolist() == table.tolist()
    notes = " ".join(m.value for m in at.markdown)
    assert "A counterexample from the property atlas" in notes and "fails monotonicity" in notes
    assert "(the table shown)" in notes and ui.plain(example.sentence()) in notes
    # the atlas's case alone (no table in the link) opens its table too; a bad case is a warning
    at = open_app("build_table.py", atlas="nmi_max:monotonicity:0")
    assert at.data_editor[0].value.astype(int).values.tolist() == example.tables()[0][1].tolist()
    assert at.selectbox(key="build_preset").value == "empty"  # no example claims the table
    for bad in ("nmi_max:monotonicity:9", "ari:symmetry:0", "nope", "ari:tidiness:0", "ari:distance:²"):
        at = open_app("build_table.py", atlas=bad)
        assert any("atlas case" in w.value for w in at.warning), bad
        assert not any("counterexample from the property atlas" in m.value for m in at.markdown)
    # a good table with a bad case: the table, without the note
    at = open_app("build_table.py", table=table_to_text(table), atlas="ari:distance:99")
    assert at.data_editor[0].value.astype(int).values.tolist() == table.tolist()
    assert any("shown without the atlas" in w.value for w in at.warning)
