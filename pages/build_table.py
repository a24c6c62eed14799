"""Build a table: a contingency table edited cell by cell, every index live.

The table lives in ``build_table`` in session state as text (``cluval_core.data.presets``'s compact
form) with the preset it started from; the editor is drawn from it anew (a new key) whenever
something other than the editor changes it, and the table is written into the URL.
"""

import pandas as pd
import streamlit as st

from cluval_core import CluvalError, Comparison
from cluval_core.data.presets import (
    MAX_CLUSTERS,
    MAX_COUNT,
    default_move,
    empty_table,
    move_objects,
    object_count,
    preset_tables,
    table_from_text,
    table_to_text,
)
from pages import _atlas as atlas
from pages import _cache as data
from pages import _explain as explained
from pages import _shared as ui
from pages import _views as views

STATE = "build_table"
EMPTY = "empty"
DEFAULT_PRESET = "rand_1971"
DEFAULT_SHAPE = (3, 3)
URL_TABLE, URL_PRESET = "table", "preset"


@st.cache_data(show_spinner=False)
def presets() -> dict:
    return preset_tables()


@st.cache_resource(show_spinner="Comparing the table…", max_entries=16)
def comparison(text: str) -> Comparison:
    """The comparison of the table written as `text`, clusters numbered from 1 as in the editor."""
    table = table_from_text(text)
    rows, columns = table.shape
    return Comparison.from_table(table, row_labels=list(range(1, rows + 1)), col_labels=list(range(1, columns + 1)))


def preset_title(key: str) -> str:
    return "Empty table (k × k′)" if key == EMPTY else presets()[key].title


def _state_from_link() -> dict:
    """The table and preset a link asks for; a bad value gives a warning and the default instead."""
    query = st.query_params.to_dict()
    problems = []
    preset = query.get(URL_PRESET, DEFAULT_PRESET if URL_TABLE not in query else EMPTY)
    if preset != EMPTY and preset not in presets():
        problems.append(f"preset {preset[:40]!r} (one of {', '.join([*presets(), EMPTY])})")
        preset = DEFAULT_PRESET if URL_TABLE not in query else EMPTY
    text = None
    if URL_TABLE in query:
        try:
            text = table_to_text(table_from_text(query[URL_TABLE]))
        except CluvalError as exc:
            problems.append(f"table ({exc})")
            preset = DEFAULT_PRESET
    example = None
    if atlas.URL_ATLAS in query:
        try:
            example = atlas.from_link(query[atlas.URL_ATLAS])
        except CluvalError as exc:
            if text is not None and not problems:  # the table itself is fine: shown, without the note
                st.warning(ui.plain(f"The link's atlas case was not understood ({exc}): the table is shown without "
                                    "the atlas's note."))
            else:
                problems.append(f"atlas case ({exc})")
        else:
            if text is None:  # the case's own table, typed in rather than an example's
                text = table_to_text(example[0].tables()[example[1]][1])
                preset = EMPTY
    if text is None:
        text = table_to_text(empty_table(*DEFAULT_SHAPE) if preset == EMPTY else presets()[preset].table)
    shape = table_from_text(text).shape
    if problems:
        st.warning(ui.plain("The link's " + "; ".join(problems) + (" was" if len(problems) == 1 else " were")
                            + f" not understood: {preset_title(preset)} is shown instead."))
    return {"preset": preset, "text": text, "version": 0, "rows": shape[0], "columns": shape[1], "atlas": example}


def _start_over(state: dict, table) -> None:
    """Show `table` in a fresh editor (the old one's edits were made to another table)."""
    state["text"] = table_to_text(table)
    state["version"] += 1


def _preset_chosen() -> None:
    state = st.session_state[STATE]
    state["atlas"] = None
    state["preset"] = st.session_state["build_preset"]
    if state["preset"] == EMPTY:
        _start_over(state, empty_table(state["rows"], state["columns"]))
    else:
        _start_over(state, presets()[state["preset"]].table)


def _shape_chosen() -> None:
    state = st.session_state[STATE]
    state["atlas"] = None
    state["rows"], state["columns"] = int(st.session_state["build_rows"]), int(st.session_state["build_columns"])
    _start_over(state, empty_table(state["rows"], state["columns"]))


def _keep(key: str, largest: int) -> None:
    """Widget `key` keeps what it holds (1 at first), within 1..largest (the table may have shrunk)."""
    if key not in st.session_state:
        st.session_state[key] = 1
    elif st.session_state[key] > largest:
        st.session_state[key] = largest


if STATE not in st.session_state:
    st.session_state[STATE] = _state_from_link()
state = st.session_state[STATE]

st.title("Build a table")
st.caption("Type any contingency table, or start from an example, and watch every index react. Rows are the "
           "reference's clusters, columns the candidate's; a cell counts the objects the two clusters share.")

# ---------------------------------------------------------------------- the table
choose, shape = st.columns([3, 2], vertical_alignment="bottom")
with choose:
    st.session_state["build_preset"] = state["preset"]
    st.selectbox("Start from", [*presets(), EMPTY], format_func=preset_title, key="build_preset",
                 on_change=_preset_chosen, help="Choosing an example replaces the table.")
if state["preset"] == EMPTY:
    with shape:
        rows_box, columns_box = st.columns(2)
        st.session_state["build_rows"], st.session_state["build_columns"] = state["rows"], state["columns"]
        rows_box.number_input("k (reference clusters)", 1, MAX_CLUSTERS, key="build_rows", on_change=_shape_chosen)
        columns_box.number_input("k′ (candidate clusters)", 1, MAX_CLUSTERS, key="build_columns",
                                 on_change=_shape_chosen)

if state.get("atlas"):
    with st.container(border=True):
        st.markdown("**A counterexample from the property atlas**")
        atlas.show(*state["atlas"], key="build_atlas")
shown = table_from_text(state["text"])
row_names = [str(i) for i in range(1, shown.shape[0] + 1)]
column_names = [str(j) for j in range(1, shown.shape[1] + 1)]
editor, side = st.columns([3, 2], gap="medium")
with editor:
    edited = st.data_editor(
        pd.DataFrame(shown, index=row_names, columns=column_names), key=f"build_editor_{state['version']}",
        column_config={"_index": st.column_config.TextColumn("ref", help="Reference cluster; the columns are the "
                                                                               "candidate's clusters"),
                       **{name: st.column_config.NumberColumn(name, min_value=0, max_value=MAX_COUNT, step=1,
                                                              format="%d") for name in column_names}})
    st.caption(f"Rows: reference clusters 1–{len(row_names)}; columns: candidate clusters 1–{len(column_names)}. "
               f"Whole counts from 0 to {MAX_COUNT:,}; an emptied cell counts as 0. Empty rows and columns are left "
               "out of the comparison (clusters without objects).")
with side:
    if state.get("atlas"):
        st.info("This table comes from the property atlas: what it shows is above the table.")
    elif state["preset"] == EMPTY:
        st.info("An empty table: double-click a cell, type its count and press Enter. The indices appear once "
                "the table holds at least two objects.")
    else:
        st.info(presets()[state["preset"]].description)

with ui.guarded("Reading the table"):
    text = table_to_text(edited)
if state.get("atlas"):
    if text != table_to_text(state["atlas"][0].tables()[state["atlas"][1]][1]):
        side.caption("The table has changed since: the counterexample is the table as it was.")
elif state["preset"] != EMPTY and text != table_to_text(presets()[state["preset"]].table):
    side.caption("The table has changed since: this describes the example as it was.")

possible = default_move(table_from_text(text))
if possible is not None and state.get("move_for") != state["version"]:  # a new table: a move that works on it
    state["move_for"] = state["version"]
    (st.session_state["build_from_row"], st.session_state["build_from_column"]), \
        (st.session_state["build_to_row"], st.session_state["build_to_column"]) = \
        [tuple(v + 1 for v in cell) for cell in possible]
    st.session_state["build_m"] = 1
with side:
    st.markdown("**Move objects** from one cell to another")
    cells = [*st.columns(2), *st.columns(2)]  # from (row, column) above to (row, column)
    for box, (key, label, largest) in zip(cells, [("build_from_row", "from row", len(row_names)),
                                                  ("build_from_column", "from column", len(column_names)),
                                                  ("build_to_row", "to row", len(row_names)),
                                                  ("build_to_column", "to column", len(column_names))]):
        _keep(key, largest)
        box.number_input(label, 1, largest, key=key)
    count_box, button_box = st.columns(2, vertical_alignment="bottom")
    _keep("build_m", MAX_COUNT)
    count_box.number_input("m objects", 1, MAX_COUNT, key="build_m")
    if button_box.button("Move", key="build_move", type="primary", width="stretch", disabled=possible is None,
                         help="Type counts into the table first: there is nothing to move." if possible is None
                         else None):
        with ui.guarded("Moving objects", stop=False):
            session = st.session_state
            moved = move_objects(table_from_text(text), (session.build_from_row - 1, session.build_from_column - 1),
                                 (session.build_to_row - 1, session.build_to_column - 1), int(session.build_m))
            _start_over(state, moved)
            state["moved"] = (f"Moved {session.build_m:,} objects from cell ({session.build_from_row}, "
                              f"{session.build_from_column}) to cell ({session.build_to_row}, "
                              f"{session.build_to_column}).")
            st.rerun()
    if state.get("moved"):
        st.success(state.pop("moved"))

# ---------------------------------------------------------------------- the link
wanted = {URL_PRESET: state["preset"], URL_TABLE: text}
if {key: st.query_params.get(key) for key in wanted} != wanted:
    st.query_params.update(wanted)
if not state.get("atlas") and atlas.URL_ATLAS in st.query_params:  # a new start leaves the atlas's case
    del st.query_params[atlas.URL_ATLAS]

# ---------------------------------------------------------------------- every index
held = object_count(table_from_text(text))
if held < 2:  # the usual start of an empty table, not an error
    st.divider()
    st.info(f"The table holds {held} object{'' if held == 1 else 's'}: "
            "type counts into its cells (double-click a cell, type, press Enter), and every index appears once it "
            "holds at least two objects.")
    st.stop()
with ui.guarded("Comparing the table"):
    model = data.model_of(comparison(text), "build_table", text)
c = model.comparison
st.divider()
views.headline(c)
views.table_pairing_mapping(model, key="build")
explained.why_and_how(model, "build")
scores = views.index_tables(c, key="build", model=model)
views.downloads(model, scores, {"table": text, "started from": preset_title(state["preset"])}, key="build")
