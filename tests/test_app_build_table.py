"""Build a table under AppTest: every preset shows the library's values for its table, cell edits and
moved objects change them, the table round-trips through the URL and a hostile link gives a message."""

from __future__ import annotations

import re

import pandas as pd
import pytest

from apptools import open_app
from cluval_core import Comparison
from cluval_core.data.presets import preset_tables, table_from_text, table_to_text
from cluval_core.outputs.export import format_value
from pages import _shared as ui

PAGE = "build_table.py"
PRESETS = preset_tables()
pytestmark = pytest.mark.slow


def _metrics(at) -> dict:
    return {m.label: m.value for m in at.metric}


def _shown_table(at) -> list:
    (editor,) = at.data_editor
    return editor.value.astype(int).values.tolist()


def _edit(at, edits: dict) -> None:
    """Type into the editor: {(row, column name): value}, rows from 0, as the browser sends them."""
    (editor,) = at.data_editor
    rows = {}
    for (row, column), value in edits.items():
        rows.setdefault(row, {})[column] = value
    at.session_state[editor.key] = {"edited_rows": rows, "added_rows": [], "deleted_rows": []}
    at.run()
    assert not at.exception, [e.message for e in at.exception]


def _move(at, source, target, m) -> None:
    """Move m objects from cell source to cell target ((row, column) from 1, as the page shows them)."""
    for key, value in zip(("build_from_row", "build_from_column", "build_to_row", "build_to_column", "build_m"),
                          (*source, *target, m)):
        at.number_input(key=key).set_value(value)
    at.button(key="build_move").click().run()
    assert not at.exception, [e.message for e in at.exception]


def _index_rows(at) -> pd.DataFrame:
    """Every index table the page shows, one row per index id."""
    frames = [frame.value for frame in at.dataframe if "id" in frame.value.columns]
    assert frames
    return pd.concat(frames).set_index("id")


def _expected_metrics(table) -> dict:
    scores = Comparison.from_table(table).scores(["ari", "psi"])
    return {"ARI": format_value("ari", scores["ari"]), "PSI": format_value("psi", scores["psi"])}


@pytest.mark.parametrize("key", list(PRESETS))
def test_each_preset_shows_the_librarys_values_for_its_table(key):
    at = open_app(PAGE)
    at.selectbox(key="build_preset").set_value(key).run()
    assert not at.exception and not at.error
    assert _shown_table(at) == PRESETS[key].table.tolist()
    shown = _metrics(at)
    assert {name: shown[name] for name in ("ARI", "PSI")} == _expected_metrics(PRESETS[key].table)
    assert any(PRESETS[key].description[:40] in info.value for info in at.info)
    assert not any("has changed since" in caption.value for caption in at.caption)
    assert at.query_params["preset"] == key and at.query_params["table"] == table_to_text(PRESETS[key].table)


def test_the_page_opens_on_rands_example_whose_rand_index_is_point_six():
    at = open_app(PAGE)
    assert _shown_table(at) == [[2, 1, 0], [0, 2, 1]]
    assert _index_rows(at).loc["ri", "value"] == format_value("ri", 0.6, 6)


def test_editing_a_cell_changes_the_values():
    at = open_app(PAGE, preset="genieclust_permutation")
    before = _metrics(at)
    _edit(at, {(0, "2"): 0, (0, "1"): 49})  # row 1 now pairs with column 1
    table = [[49, 0, 1], [40, 0, 0], [0, 0, 30]]
    assert at.query_params["table"] == table_to_text(table)
    assert _metrics(at) != before
    assert any("has changed since" in caption.value for caption in at.caption)  # the example's text no longer fits
    assert {name: _metrics(at)[name] for name in ("ARI", "PSI")} == _expected_metrics(table)


def test_a_negative_count_is_an_error_not_a_traceback():
    # the editor keeps whole numbers (its columns are integers; a fraction typed is cut to one); a
    # fraction in a link is refused with the hostile links below
    at = open_app(PAGE)
    _edit(at, {(1, "3"): -3})
    assert any("Reading the table" in e.value and ui.plain("holds -3") in e.value for e in at.error), \
        [e.value for e in at.error]
    assert at.query_params["table"] == "2,1,0;0,2,1"  # the link keeps the last table that could be read


def test_fewer_than_two_objects_is_a_note_not_an_error():
    at = open_app(PAGE, preset="empty", table="0,1;0,0")
    assert not at.error, [e.value for e in at.error]
    assert any("The table holds 1 object:" in i.value and "at least two objects" in i.value for i in at.info)
    assert not at.metric


def test_an_empty_table_of_k_by_k_prime():
    at = open_app(PAGE)
    at.selectbox(key="build_preset").set_value("empty").run()
    at.number_input(key="build_rows").set_value(2).run()
    at.number_input(key="build_columns").set_value(4).run()
    assert _shown_table(at) == [[0] * 4] * 2
    assert at.query_params["table"] == "0,0,0,0;0,0,0,0"
    _edit(at, {(0, "1"): 3, (1, "4"): 2})
    assert _metrics(at)["PSI"] == format_value("psi", 1.0)


def test_moving_objects_changes_the_table_and_is_refused_beyond_the_cell():
    at = open_app(PAGE)  # Rand's example [[2, 1, 0], [0, 2, 1]]
    _move(at, (1, 2), (2, 2), 1)
    assert _shown_table(at) == [[2, 0, 0], [0, 3, 1]]
    assert any("Moved 1 objects" in s.value for s in at.success)
    assert {name: _metrics(at)[name] for name in ("ARI", "PSI")} == _expected_metrics([[2, 0, 0], [0, 3, 1]])
    _move(at, (1, 1), (1, 3), 3)
    assert any(ui.plain("holds 2 objects: cannot move 3") in e.value for e in at.error), [e.value for e in at.error]
    assert _shown_table(at) == [[2, 0, 0], [0, 3, 1]]  # refused: nothing moved
    assert at.query_params["table"] == "2,0,0;0,3,1"


def test_an_edit_then_a_move_starts_from_the_edited_table():
    at = open_app(PAGE)
    _edit(at, {(0, "1"): 7})
    _move(at, (1, 1), (2, 1), 5)
    assert _shown_table(at) == [[2, 1, 0], [5, 2, 1]]


def test_a_link_reproduces_the_table_and_its_values():
    at = open_app(PAGE, preset="psi_error")
    _edit(at, {(2, "3"): 500})
    query = dict(at.query_params)
    assert query["preset"] == "psi_error" and table_from_text(query["table"])[2, 2] == 500
    again = open_app(PAGE, **query)
    assert _shown_table(again) == table_from_text(query["table"]).tolist()
    assert _metrics(again) == _metrics(at)
    assert again.selectbox(key="build_preset").value == "psi_error"
    assert not again.warning


HOSTILE = [
    ({"table": "1,2;3"}, "differ in length"),
    ({"table": "9" * 100_000}, "characters"),
    ({"table": ";".join(["1,1"] * 51)}, "at most 50"),
    ({"table": "<img src=x onerror=alert(1)>"}, "row 1"),
    ({"table": "99999999999,1"}, "row 1"),
    ({"table": "1.5,2;0,3"}, "row 1"),
    ({"table": "1000000001,2"}, "whole number from 0 to 1000000000"),
    ({"preset": "../../etc/passwd"}, "preset"),
]


@pytest.mark.parametrize("query, words", HOSTILE)
def test_a_hostile_link_gives_a_message_and_the_default(query, words):
    at = open_app(PAGE, **query)
    assert not at.exception and not at.error
    warnings = [w.value for w in at.warning if "not understood" in w.value]
    assert len(warnings) == 1 and words in warnings[0], [w.value for w in at.warning]
    assert not re.search(r"(?<!\\)<img", warnings[0])  # shown as plain text
    assert _shown_table(at) == PRESETS["rand_1971"].table.tolist()


def test_the_chance_columns_on_request():
    at = open_app(PAGE)
    assert "expected" not in _index_rows(at).columns
    at.toggle(key="build_chance").set_value(True).run()
    assert not at.exception and not at.error
    rows = _index_rows(at)
    chance = Comparison.from_table(PRESETS["rand_1971"].table).chance(["ari"], n_samples=10)
    assert rows.loc["ari", "expected"] == pytest.approx(chance.loc["ari", "expected"], abs=1e-12)  # exact: 0
    assert {"expected", "z", "p"} <= set(rows.columns)


def test_the_largest_table_a_link_may_hold_is_compared():
    text = ";".join(",".join(str((i * 7 + j * 3) % 11) for j in range(50)) for i in range(50))
    at = open_app(PAGE, preset="empty", table=text)
    assert not at.error and not at.warning
    assert at.number_input(key="build_rows").value == 50 and at.number_input(key="build_columns").value == 50
    assert _metrics(at)["PSI"] == _expected_metrics(table_from_text(text))["PSI"]


def test_an_empty_table_is_a_start_not_an_error_and_the_default_move_works():
    at = open_app(PAGE, preset="empty")
    assert not at.error, [e.value for e in at.error]
    assert any("holds 0 objects" in i.value for i in at.info)
    assert at.button(key="build_move").disabled  # nothing to move yet
    _edit(at, {(0, "1"): 4, (1, "2"): 3})
    assert not at.error and not at.button(key="build_move").disabled
    at.button(key="build_move").click().run()  # the default move: one object out of the fullest cell
    assert not at.error, [e.value for e in at.error]
    assert _shown_table(at) == [[3, 1, 0], [0, 3, 0], [0, 0, 0]]
