"""Lessons: one guided lesson per index family, step by step, each step with its own address.

The lesson and the step are widgets bound to the URL (``?lesson=information&step=3``), so Back,
reload and a link show the same step. Texts, tables, numbers and questions come from
``cluval_core.experiments.lessons``; this page only renders them.
"""

from urllib.parse import urlencode

import pandas as pd
import streamlit as st

from cluval_core import INDICES, CluvalError
from cluval_core.data.presets import preset_tables, table_from_text, table_to_text
from cluval_core.experiments.lessons import STEP_KINDS, STEP_TITLES, case_values, lab_chance, lab_steps, lessons
from cluval_core.outputs.export import format_value
from pages import _shared as ui

LESSON_KEY, STEP_KEY = "lesson", "step"  # the URL's query parameters
STEPS = [str(number) for number in range(1, len(STEP_KINDS) + 1)]


@st.cache_resource(show_spinner="Preparing the lessons…")
def all_lessons() -> dict:
    return lessons()


@st.cache_data(show_spinner=False)
def presets() -> dict:
    return preset_tables()


@st.cache_data(show_spinner=False, max_entries=64)
def values_of(text: str, ids: tuple) -> pd.DataFrame:
    return case_values(table_from_text(text), ids)


@st.cache_data(show_spinner="Computing…", max_entries=64)
def worked(text: str, ids: tuple) -> list:
    return lab_steps(table_from_text(text), ids)


@st.cache_data(show_spinner="Computing the expectations…", max_entries=32)
def against_chance(text: str, ids: tuple) -> pd.DataFrame:
    return lab_chance(table_from_text(text), ids)


def _first_step() -> None:
    st.session_state[STEP_KEY] = STEPS[0]


def _go(where: str) -> None:
    st.session_state[STEP_KEY] = where


def _frame(table, row_names=()) -> pd.DataFrame:
    rows = list(row_names) or [str(i) for i in range(1, len(table) + 1)]
    return pd.DataFrame(table, index=rows, columns=[str(j) for j in range(1, len(table[0]) + 1)])


def _show_case(case, ids) -> None:
    """A step's small table and the values of the step's indices on it."""
    st.markdown(f"**{ui.plain(case.label)}**")
    table, values = st.columns([3, 2])
    table.dataframe(_frame(case.table.tolist(), case.row_names))
    if ids:
        values.dataframe(values_of(table_to_text(case.table), tuple(ids)), hide_index=True,
                         column_config={"value": st.column_config.NumberColumn(format="%.4f")})


def _show_steps(text: str, ids) -> None:
    for index_id, name, value, lines in worked(text, tuple(ids)):
        st.markdown(f"**{ui.plain(name)}: {format_value(index_id, value)}**")
        st.latex(INDICES[index_id].formula)
        st.markdown("  \n".join(ui.plain(line) for line in lines))


def _lab(lesson, step) -> None:
    preset = presets()[step.preset]
    st.caption(f"Starting from: {preset.title}. Rows are the reference's clusters, columns the candidate's.")
    edited = st.data_editor(_frame(preset.table.tolist()), key=f"lesson_lab_{lesson.key}",
                            column_config={"_index": st.column_config.TextColumn("ref")})
    with ui.guarded("Reading the table"):
        text = table_to_text(edited)
    link = urlencode({"preset": step.preset, "table": text})
    st.markdown(f"[Open this table in Build a table ↗](build_table?{link}) to see every index on it.")
    with ui.guarded("Comparing the table"):
        if step.chance:
            st.dataframe(against_chance(text, tuple(step.indices)),
                         column_config={name: st.column_config.NumberColumn(format="%.4f")
                                        for name in ("value", "expected", "sd", "z")})
        _show_steps(text, step.indices)


def _questions(lesson) -> None:
    for number, question in enumerate(lesson.questions, start=1):
        with st.form(f"question_{lesson.key}_{question.key}"):
            st.markdown(f"**Question {number}.** {ui.plain(question.prompt)}")
            for case in question.cases:
                st.dataframe(_frame(case.table.tolist(), case.row_names))
            if question.kind == "value":
                given = st.number_input("Your answer", value=None, step=0.01, format="%.2f",
                                        key=f"answer_{lesson.key}_{question.key}")
            else:
                given = st.radio("Your answer", question.options, index=None,
                                 key=f"answer_{lesson.key}_{question.key}")
            checked = st.form_submit_button("Check")
        if checked:
            if given is None:
                st.warning("Give an answer first.")
            elif question.check(given):
                st.success(ui.plain(f"Right. {question.explanation}"))
            else:
                shown = f"{given:.2f}" if question.kind == "value" else given
                st.error(ui.plain(f"Not quite: you answered {shown}. {question.explanation}"))


LESSONS = all_lessons()

st.title("Lessons")
st.caption("One guided lesson per family of indices: the problem, the naive idea and where it fails, the invention, "
           "the formula, a lab, the degenerate case and questions. Every number is computed by cluval as the page "
           "is drawn; every step has its own address (e.g. /lessons?lesson=information&step=3).")

# A bound widget's URL value is the option as shown, so the options are the URL's words and the
# titles are their captions.
key = st.radio("Lesson", list(LESSONS), key=LESSON_KEY, horizontal=True, bind="query-params",
               captions=[lesson.title for lesson in LESSONS.values()], on_change=_first_step)
lesson = LESSONS[key]
number = st.radio("Step", STEPS, key=STEP_KEY, horizontal=True, bind="query-params",
                  captions=[STEP_TITLES[kind] for kind in STEP_KINDS])
position = STEPS.index(number)
step = lesson.step(STEP_KINDS[position])

st.subheader(f"{lesson.title} · {number}. {step.title}")
st.caption(ui.plain(lesson.summary))
st.markdown(step.text)

try:
    if step.kind == "formula":
        _show_steps(table_to_text(presets()[step.preset].table), step.indices)
    elif step.kind == "lab":
        _lab(lesson, step)
    elif step.kind == "questions":
        _questions(lesson)
    for case in step.cases:
        _show_case(case, step.indices)
except CluvalError as exc:
    st.error(ui.plain(f"Showing the step: {exc}"))

previous, _, following = st.columns([1, 4, 1])
previous.button("← Previous", key="lesson_previous", disabled=position == 0, on_click=_go,
                args=(STEPS[max(position - 1, 0)],), width="stretch")
following.button("Next →", key="lesson_next", disabled=position == len(STEPS) - 1, on_click=_go,
                 args=(STEPS[min(position + 1, len(STEPS) - 1)],), width="stretch")
