"""The example tables and the checks on tables built by hand (cluval_core.data.presets)."""

from __future__ import annotations

import numpy as np
import pytest

from cluval_core import CluvalError, Comparison, compare
from cluval_core.data.presets import (
    MAX_CLUSTERS,
    MAX_COUNT,
    MAX_OBJECTS,
    checked_table,
    empty_table,
    move_objects,
    preset_tables,
    table_from_text,
    table_to_text,
)
from cluval_core.data.synthetic import SCENARIOS

PRESETS = preset_tables()


def test_rand_1971_worked_example_gives_point_six():
    # Rand 1971, section 2: "The total of nine similarities out of a possible 15 gives c(Y, Y') = .6."
    table = PRESETS["rand_1971"].table
    assert table.tolist() == [[2, 1, 0], [0, 2, 1]]
    assert Comparison.from_table(table).score("ri") == pytest.approx(9 / 15, abs=1e-15)


def test_genieclust_example_pairs_off_the_diagonal():
    c = Comparison.from_table(PRESETS["genieclust_permutation"].table)
    assert c.accuracy_pairing.cols.tolist() == [1, 0, 2]  # the notes' normalising permutation (2, 1, 3)
    assert c.score("pa") == (37 + 40 + 30) / 120


@pytest.mark.parametrize("key, scenario, value", [("psi_imbalance", "imbalance", 50), ("psi_error", "error", 200),
                                                  ("psi_enlarged", "enlarge_first", 1500)])
def test_psi_paper_presets_are_the_scenarios_tables(key, scenario, value):
    assert value in SCENARIOS[scenario].values
    expected = compare(*SCENARIOS[scenario].pair(value)).table
    assert np.array_equal(PRESETS[key].table, expected)


def test_psi_imbalance_preset_shows_what_the_paper_reports():
    # Rezaei & Fränti 2016, section 7.4: PSI stays at 0.9; ARI is 66 % when the third cluster is 50
    scores = Comparison.from_table(PRESETS["psi_imbalance"].table).scores(["psi", "ari"])
    assert scores["psi"] == pytest.approx(0.9, abs=1e-12)
    assert round(scores["ari"], 2) == 0.66


def test_every_preset_is_a_checked_table_with_a_title_and_description():
    for preset in PRESETS.values():
        assert preset.title and preset.description
        assert np.array_equal(checked_table(preset.table), preset.table)
        assert np.array_equal(table_from_text(table_to_text(preset.table)), preset.table)


def test_text_round_trip_and_empty_cells():
    table = [[3, 0, 7], [0, 10**9, 1]]
    assert table_to_text(table) == "3,0,7;0,1000000000,1"
    assert table_from_text("3,0,7;0,1000000000,1").tolist() == table
    assert checked_table([[1, float("nan")], [None, 2]]).tolist() == [[1, 0], [0, 2]]
    assert empty_table(2, 4).shape == (2, 4) and not empty_table(2, 4).any()


@pytest.mark.parametrize("text, words", [
    ("", "row 1"), ("1,2;3", "differ in length"), ("1,-2", "row 1"), ("1.5,2", "row 1"), ("1,2;;3,4", "row 2"),
    ("a,b", "row 1"), ("1e9", "row 1"), (" 1,2", "row 1"), ("1,2\n;3,4", "row 1"),
    (str(MAX_COUNT + 1), "whole number from 0"), ("1," * (MAX_CLUSTERS + 1) + "1", "at most 50"),
    (";".join(["1"] * (MAX_CLUSTERS + 1)), "at most 50"), ("9" * 100_000, "characters"),
    (";".join([",".join([str(MAX_COUNT)] * 11)]), "objects"),
])
def test_bad_text_is_refused_with_what_is_wrong(text, words):
    with pytest.raises(CluvalError, match=words):
        table_from_text(text)


def test_objects_beyond_the_total_are_refused():
    assert MAX_OBJECTS < MAX_CLUSTERS * MAX_CLUSTERS * MAX_COUNT
    with pytest.raises(CluvalError, match="objects"):
        checked_table(np.full((11, 1), MAX_COUNT))


@pytest.mark.parametrize("cell", [-1, 2.5, True, "3", 1j, 10**9 + 1])
def test_a_cell_that_is_not_a_count_is_named(cell):
    with pytest.raises(CluvalError, match=r"cell \(row 2, column 1\)"):
        checked_table([[1, 1], [cell, 1]])


def test_moving_objects_keeps_the_total_and_is_refused_beyond_the_cell():
    table = [[5, 1], [0, 4]]
    moved = move_objects(table, (0, 0), (1, 0), 3)
    assert moved.tolist() == [[2, 1], [3, 4]] and moved.sum() == 10
    assert table == [[5, 1], [0, 4]]  # the table given is left alone
    with pytest.raises(CluvalError, match="holds 5 objects: cannot move 6"):
        move_objects(table, (0, 0), (1, 0), 6)
    with pytest.raises(CluvalError, match="same cell"):
        move_objects(table, (0, 0), (0, 0), 1)
    with pytest.raises(CluvalError, match="not a cell"):
        move_objects(table, (0, 0), (2, 0), 1)
    with pytest.raises(CluvalError, match="m must be"):
        move_objects(table, (0, 0), (1, 0), 0)


def test_manning_2008_is_the_textbooks_table():
    # Introduction to Information Retrieval, section 16.3: cluster 1 = 5 x + 1 o, cluster 2 = 1 x + 4 o + 1 ◇,
    # cluster 3 = 2 x + 3 ◇ (rows x, o, ◇); purity 12/17 ≈ 0.71, RI 92/136 ≈ 0.68
    table = PRESETS["manning_2008"].table
    assert table.tolist() == [[5, 1, 2], [1, 4, 0], [0, 1, 3]]
    scores = Comparison.from_table(table).scores(["purity", "ri", "nmi_sum"])
    assert scores["purity"] == 12 / 17 and scores["ri"] == 92 / 136 and round(scores["nmi_sum"], 2) == 0.36


def test_the_teaching_presets_show_what_their_descriptions_say():
    merged = PRESETS["psi_imbalance_merged"].table
    assert merged.tolist() == [[1000, 0], [0, 1000], [50, 0]]
    assert np.array_equal(merged.sum(axis=1), PRESETS["psi_imbalance"].table.sum(axis=1))  # the same reference
    a, b = (Comparison.from_table(PRESETS[k].table).scores(["ari", "psi"]) for k in ("psi_imbalance",
                                                                                       "psi_imbalance_merged"))
    assert b["ari"] > a["ari"] and a["psi"] > b["psi"]  # pair counting barely notices the lost small cluster
    merge_split = Comparison.from_table(PRESETS["merge_split"].table)
    assert PRESETS["merge_split"].table.shape == (4, 4) and merge_split.score("ci_partition") == 1
    independent = Comparison.from_table(PRESETS["independent"].table)
    assert independent.score("nmi_sum") == 0 and independent.score("ri") == (4500 + 405000) / 499500
    assert -0.01 < independent.score("ari") < 0
