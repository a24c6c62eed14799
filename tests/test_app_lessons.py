"""The Lessons page in AppTest: every step of every lesson renders the library's numbers, the
navigation moves between steps, and a question checks its answer."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from streamlit.testing.v1 import AppTest

from apptools import APP
from cluval_core import Comparison
from cluval_core.data.presets import preset_tables, table_to_text
from cluval_core.experiments.lessons import STEP_KINDS, STEP_TITLES, lesson_comparison, lessons
from cluval_core.outputs.export import format_value
from pages import _shared as ui

pytestmark = pytest.mark.slow
LESSONS = lessons()


@pytest.fixture(scope="module")
def at():
    at = AppTest.from_file(APP, default_timeout=120)
    at.switch_page("lessons.py").run()
    assert not at.exception, [e.message for e in at.exception]
    assert at.title[0].value == "Lessons"
    return at


def _show(at, lesson: str, step: int):
    at.radio(key="lesson").set_value(lesson).run()
    at.radio(key="step").set_value(str(step)).run()
    assert not at.exception, [e.message for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    return at


@pytest.mark.parametrize("key", list(LESSONS))
def test_every_step_of_every_lesson_renders_its_text(at, key):
    lesson = LESSONS[key]
    for number, step in enumerate(lesson.steps, start=1):
        _show(at, key, number)
        assert at.subheader[0].value == f"{lesson.title} · {number}. {STEP_TITLES[STEP_KINDS[number - 1]]}"
        assert step.text in [m.value for m in at.markdown]
        if step.kind in ("formula", "lab"):
            shown = [m.value for m in at.markdown]
            c = lesson_comparison(preset_tables()[step.preset].table)  # clusters named 1.. as on the page
            for index_id in step.indices:  # each index's value and its steps, from the library
                assert any(f": {format_value(index_id, c.score(index_id))}**" in text for text in shown), index_id
                assert "  \n".join(ui.plain(str(s)) for s in c.steps(index_id)) in shown, index_id
        if step.kind == "lab":  # a link opens the table in Build a table
            link = urlencode({"preset": step.preset, "table": table_to_text(preset_tables()[step.preset].table)})
            assert any(f"](build_table?{link})" in text for text in shown)
        if step.kind == "degenerate":
            frames = [frame.value for frame in at.dataframe]
            for case in step.cases:
                values = Comparison.from_table(case.table).scores(list(step.indices))
                assert any(list(frame.get("value", [])) == [values[i] for i in step.indices] for frame in frames)


def test_the_lab_of_the_chance_lesson_shows_the_exact_expectations(at):
    _show(at, "chance", 5)
    frame = at.dataframe[-1].value
    expected = Comparison.from_table(preset_tables()["independent"].table).chance(["ri", "ari", "nmi_sum", "ami"])
    assert frame["expected"].tolist() == pytest.approx(expected["expected"].tolist(), abs=1e-15)


def test_a_new_lesson_starts_at_its_first_step_and_next_previous_move(at):
    _show(at, "information", 4)
    at.radio(key="lesson").set_value("set-matching").run()
    assert at.radio(key="step").value == "1"
    at.button(key="lesson_next").click().run()
    assert at.radio(key="step").value == "2" and at.subheader[0].value.endswith("2. The naive idea")
    at.button(key="lesson_previous").click().run()
    assert at.radio(key="step").value == "1" and at.button(key="lesson_previous").disabled


def test_questions_check_a_number_and_a_choice(at):
    _show(at, "pair-counting", 7)
    at.number_input(key="answer_pair-counting_rand_1971").set_value(0.6)
    at.button(key="FormSubmitter:question_pair-counting_rand_1971-Check").click().run()
    assert len(at.success) == 1 and "RI \\= \\(2 \\+ 7\\) / 15 \\= 0\\.6" in at.success[0].value
    at.radio(key="answer_pair-counting_ri_ari").set_value("RI prefers A, ARI prefers A")
    at.button(key="FormSubmitter:question_pair-counting_ri_ari-Check").click().run()
    assert len(at.error) == 1 and "you answered RI prefers A, ARI prefers A" in at.error[0].value
    at.radio(key="answer_pair-counting_ri_ari").set_value("RI prefers A, ARI prefers B")
    at.button(key="FormSubmitter:question_pair-counting_ri_ari-Check").click().run()
    assert any(s.value.startswith("Right") for s in at.success)
