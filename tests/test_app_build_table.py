"""Build a table under AppTest: every preset shows the library's values for its table, cell edits and
moved objects change them, the table round-trips through the URL and a hostile link gives a message."""

from __future__ import annotations

import re

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from apptools import APP
from cluval_core import Comparison
from cluval_core.data.presets import move_objects, preset_tables, table_from_text, table_to_text
from cluval_core.outputs.export import format_value
from pages import _shared as ui

PAGE = "build_table.py"
PRESETS = preset_tables()
MOVE_KEYS = ("build_from_row", "build_from_column", "build_to_row", "build_to_column", "build_m")
pytestmark = pytest.mark.slow


def _app(**query) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update(query)
    at.switch_page(PAGE)
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


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


def _set_move(at, source, target, m) -> None:
    """Set the Move controls to m objects from cell source to cell target ((row, column) from 1)."""
    for key, value in zip(MOVE_KEYS, (*source, *target, m)):
        at.number_input(key=key).set_value(value)
    at.run()
    assert not at.exception, [e.message for e in at.exception]


def _move(at, source, target, m) -> None:
    """Move m objects from cell source to cell target ((row, column) from 1, as the page shows them)."""
    _set_move(at, source, target, m)
    at.button(key="build_move").click().run()
    assert not at.exception, [e.message for e in at.exception]


def _move_controls(at) -> tuple:
    """The Move controls as shown: ((from row, from column), (to row, to column), m)."""
    values = [at.number_input(key=key).value for key in MOVE_KEYS]
    return (values[0], values[1]), (values[2], values[3]), values[4]


def _no_move_reason(at) -> str | None:
    """Why the Move button is disabled (its caption), or None when it is enabled."""
    button = at.button(key="build_move")
    reasons = [c.value for c in at.caption if c.value.startswith(ui.plain("No move: "))]
    assert bool(button.disabled) == bool(reasons), (button.disabled, reasons)
    return reasons[0] if reasons else None


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
    at = _app()
    at.selectbox(key="build_preset").set_value(key).run()
    assert not at.exception and not at.error
    assert _shown_table(at) == PRESETS[key].table.tolist()
    shown = _metrics(at)
    assert {name: shown[name] for name in ("ARI", "PSI")} == _expected_metrics(PRESETS[key].table)
    assert any(PRESETS[key].description[:40] in info.value for info in at.info)
    assert not any("has changed since" in caption.value for caption in at.caption)
    assert at.query_params["preset"] == key and at.query_params["table"] == table_to_text(PRESETS[key].table)


def test_the_page_opens_on_rands_example_whose_rand_index_is_point_six():
    at = _app()
    assert _shown_table(at) == [[2, 1, 0], [0, 2, 1]]
    assert _index_rows(at).loc["ri", "value"] == format_value("ri", 0.6, 6)


def test_editing_a_cell_changes_the_values():
    at = _app(preset="genieclust_permutation")
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
    at = _app()
    _edit(at, {(1, "3"): -3})
    assert any("Reading the table" in e.value and ui.plain("holds -3") in e.value for e in at.error), \
        [e.value for e in at.error]
    assert at.query_params["table"] == "2,1,0;0,2,1"  # the link keeps the last table that could be read


FILLING = "The indices appear here once the table holds at least two objects"


def test_fewer_than_two_objects_is_a_table_being_filled_not_an_error():
    at = _app(preset="empty", table="0,1;0,0")
    assert not at.error and not at.metric
    assert any(FILLING in info.value for info in at.info), [info.value for info in at.info]
    # one object can still move: from its cell (1, 2) to the next cell (2, 1)
    assert _move_controls(at) == ((1, 2), (2, 1), 1) and _no_move_reason(at) is None


def test_an_empty_table_is_the_starting_state_with_a_friendly_note():
    at = _app()
    at.selectbox(key="build_preset").set_value("empty").run()
    assert not at.exception and not at.error and not at.metric and not at.get("plotly_chart")
    assert _shown_table(at) == [[0] * 3] * 2  # Rand's example's shape, emptied
    assert any(FILLING in info.value for info in at.info), [info.value for info in at.info]
    assert any("An empty table: double-click a cell" in info.value for info in at.info)
    # no objects, no move: the button is disabled and says why
    assert _no_move_reason(at) == ui.plain("No move: the table holds no objects yet: fill in a cell first.")
    _edit(at, {(1, "3"): 1})  # one object: still filling in
    assert not at.error and not at.metric and any(FILLING in info.value for info in at.info)
    assert _move_controls(at) == ((2, 3), (1, 1), 1) and _no_move_reason(at) is None  # around to the start
    _edit(at, {(1, "3"): 1, (0, "1"): 5})  # now 6 objects: the indices appear, the library's values
    table = [[5, 0, 0], [0, 0, 1]]
    assert not at.error and not any(FILLING in info.value for info in at.info)
    assert {name: _metrics(at)[name] for name in ("ARI", "PSI")} == _expected_metrics(table)
    assert _move_controls(at) == ((2, 3), (1, 1), 1)  # the suggestion still holds: it stays


def test_a_one_cell_table_has_no_move_and_says_so():
    at = _app()
    at.selectbox(key="build_preset").set_value("empty").run()
    at.number_input(key="build_rows").set_value(1).run()
    at.number_input(key="build_columns").set_value(1).run()
    _edit(at, {(0, "1"): 5})
    assert at.query_params["table"] == "5" and not at.error
    assert _no_move_reason(at) == ui.plain("No move: a table of one cell has no other cell to move objects to.")


@pytest.mark.parametrize("key", list(PRESETS))
def test_the_default_move_is_a_valid_move(key):
    at = _app()
    at.selectbox(key="build_preset").set_value(key).run()
    source, target, m = _move_controls(at)
    assert _no_move_reason(at) is None and source != target and m == 1
    table = PRESETS[key].table
    assert table[source[0] - 1, source[1] - 1] >= 1  # it leaves a cell that holds an object
    expected = move_objects(table, (source[0] - 1, source[1] - 1), (target[0] - 1, target[1] - 1), 1)
    at.button(key="build_move").click().run()
    assert not at.exception and not at.error
    assert _shown_table(at) == expected.tolist()
    assert any(f"Moved 1 objects from cell {source}".replace(" ", "") in s.value.replace(" ", "")
               for s in at.success)


def test_the_default_move_of_rands_example():
    at = _app()  # [[2, 1, 0], [0, 2, 1]]: one object from cell (1, 1) to cell (1, 2)
    assert _move_controls(at) == ((1, 1), (1, 2), 1)
    at.button(key="build_move").click().run()
    assert _shown_table(at) == [[1, 2, 0], [0, 2, 1]]
    assert {name: _metrics(at)[name] for name in ("ARI", "PSI")} == _expected_metrics([[1, 2, 0], [0, 2, 1]])
    at.button(key="build_move").click().run()  # cell (1, 1) still holds one: the same move again
    assert _shown_table(at) == [[0, 3, 0], [0, 2, 1]]
    # cell (1, 1) is empty now: the controls, never set by hand, suggest the next valid move
    assert _move_controls(at) == ((1, 2), (1, 3), 1) and _no_move_reason(at) is None


def test_an_empty_table_of_k_by_k_prime():
    at = _app()
    at.selectbox(key="build_preset").set_value("empty").run()
    at.number_input(key="build_rows").set_value(2).run()
    at.number_input(key="build_columns").set_value(4).run()
    assert _shown_table(at) == [[0] * 4] * 2
    assert at.query_params["table"] == "0,0,0,0;0,0,0,0"
    _edit(at, {(0, "1"): 3, (1, "4"): 2})
    assert _metrics(at)["PSI"] == format_value("psi", 1.0)


def test_moving_objects_changes_the_table_and_is_refused_beyond_the_cell():
    at = _app()  # Rand's example [[2, 1, 0], [0, 2, 1]]
    _move(at, (1, 2), (2, 2), 1)
    assert _shown_table(at) == [[2, 0, 0], [0, 3, 1]]
    assert any("Moved 1 objects" in s.value for s in at.success)
    assert {name: _metrics(at)[name] for name in ("ARI", "PSI")} == _expected_metrics([[2, 0, 0], [0, 3, 1]])
    _set_move(at, (1, 1), (1, 3), 3)
    # refused before it is tried: the button is disabled with the library's reason, nothing moved
    assert _no_move_reason(at) == ui.plain("No move: cell (row 1, column 1) holds 2 objects: cannot move 3 from it.")
    assert not at.error and _move_controls(at) == ((1, 1), (1, 3), 3)  # the user's choice is kept
    assert _shown_table(at) == [[2, 0, 0], [0, 3, 1]]
    assert at.query_params["table"] == "2,0,0;0,3,1"


def test_an_edit_then_a_move_starts_from_the_edited_table():
    at = _app()
    _edit(at, {(0, "1"): 7})
    _move(at, (1, 1), (2, 1), 5)
    assert _shown_table(at) == [[2, 1, 0], [5, 2, 1]]


def test_a_link_reproduces_the_table_and_its_values():
    at = _app(preset="psi_error")
    _edit(at, {(2, "3"): 500})
    query = dict(at.query_params)
    assert query["preset"] == "psi_error" and table_from_text(query["table"])[2, 2] == 500
    again = _app(**query)
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
    at = _app(**query)
    assert not at.exception and not at.error
    warnings = [w.value for w in at.warning if "not understood" in w.value]
    assert len(warnings) == 1 and words in warnings[0], [w.value for w in at.warning]
    assert not re.search(r"(?<!\\)<img", warnings[0])  # shown as plain text
    assert _shown_table(at) == PRESETS["rand_1971"].table.tolist()


def test_the_chance_columns_on_request():
    at = _app()
    assert "expected" not in _index_rows(at).columns
    at.toggle(key="build_chance").set_value(True).run()
    assert not at.exception and not at.error
    rows = _index_rows(at)
    chance = Comparison.from_table(PRESETS["rand_1971"].table).chance(["ari"], n_samples=10)
    assert rows.loc["ari", "expected"] == pytest.approx(chance.loc["ari", "expected"], abs=1e-12)  # exact: 0
    assert {"expected", "z", "p"} <= set(rows.columns)


def test_the_largest_table_a_link_may_hold_is_compared():
    text = ";".join(",".join(str((i * 7 + j * 3) % 11) for j in range(50)) for i in range(50))
    at = _app(preset="empty", table=text)
    assert not at.error and not at.warning
    assert at.number_input(key="build_rows").value == 50 and at.number_input(key="build_columns").value == 50
    assert _metrics(at)["PSI"] == _expected_metrics(table_from_text(text))["PSI"]
