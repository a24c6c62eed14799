"""The lessons' content (cluval_core.experiments.lessons): every step, every answer a library value,
and Manning et al.'s textbook example reproduced."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from cluval_core import INDICES, Comparison
from cluval_core.data.presets import preset_tables
from cluval_core.experiments.lessons import (
    MANNING_BETA,
    STEP_KINDS,
    Question,
    case_values,
    lab_chance,
    lab_steps,
    lesson_comparison,
    lessons,
)
from cluval_core.indices.pair_counting import pair_f_beta

LESSONS = lessons()
MANNING = preset_tables()["manning_2008"].table


def test_the_five_families_in_teaching_order():
    assert list(LESSONS) == ["pair-counting", "information", "set-matching", "centroid-index", "chance"]


@pytest.mark.parametrize("key", list(LESSONS))
def test_every_lesson_has_every_step_kind_in_order_and_questions(key):
    lesson = LESSONS[key]
    assert tuple(step.kind for step in lesson.steps) == STEP_KINDS
    assert all(step.title and step.text for step in lesson.steps)
    lab, formula, degenerate = lesson.step("lab"), lesson.step("formula"), lesson.step("degenerate")
    assert lab.preset in preset_tables() and formula.preset in preset_tables() and lab.indices
    assert degenerate.cases and all(i in INDICES for step in lesson.steps for i in step.indices)
    assert len(lesson.questions) >= 2 and {q.kind for q in lesson.questions} <= {"value", "choice"}


def _truth(question: Question, key: str):
    """The answer recomputed here from the library, independently of the lesson's own computation."""
    tables = [case.table for case in question.cases]
    index = {"rand_1971": "ri", "manning_nmi": "nmi_sum", "psi_imbalance": "psi", "rand_ci": "ci_partition",
             "one_cluster_ci": "ci_partition", "independent_ari": "ari"}
    if question.key in index:
        return Comparison.from_table(tables[0]).score(index[question.key])
    if question.key == "manning_expected_ri":
        return Comparison.from_table(MANNING).chance(["ri"]).loc["ri", "expected"]
    ids = {"ri_ari": ("ri", "ari"), "nmi_ami": ("nmi_sum", "ami"), "ari_psi": ("ari", "psi")}[question.key]
    a, b = (Comparison.from_table(t).scores(list(ids)) for t in tables)
    short = {"ri": "RI", "ari": "ARI", "nmi_sum": "NMI", "ami": "AMI", "psi": "PSI"}
    return ", ".join(f"{short[i]} prefers {'A' if a[i] > b[i] else 'B'}" for i in ids)


@pytest.mark.parametrize("key, number", [(k, n) for k, lesson in LESSONS.items() for n in range(len(lesson.questions))])
def test_every_answer_is_the_library_value_and_is_checked(key, number):
    question = LESSONS[key].questions[number]
    truth = _truth(question, key)
    if question.kind == "value":
        assert question.answer == pytest.approx(truth, abs=1e-12)
        assert question.check(round(truth, 2)) and question.check(str(truth))
        assert not question.check(truth + question.tolerance + 0.01) and not question.check("nan")
        assert f"{float(truth):.4f}".rstrip("0").rstrip(".").replace("-", "−") in question.explanation
    else:
        assert question.answer == truth and question.answer in question.options and len(question.options) == 4
        assert question.check(truth) and not any(question.check(o) for o in question.options if o != truth)
    assert question.explanation and question.cases


def test_the_choice_questions_show_a_disagreement():
    answers = {q.key: q.answer for lesson in LESSONS.values() for q in lesson.questions if q.kind == "choice"}
    assert answers == {"ri_ari": "RI prefers A, ARI prefers B", "nmi_ami": "NMI prefers B, AMI prefers A",
                       "ari_psi": "ARI prefers B, PSI prefers A"}


def test_manning_textbook_example_to_two_digits_and_exactly():
    # Manning, Raghavan & Schütze (2008), section 16.3: purity ≈ 0.71, NMI ≈ 0.36, RI ≈ 0.68, F5 ≈ 0.46
    assert MANNING.tolist() == [[5, 1, 2], [1, 4, 0], [0, 1, 3]]
    c = Comparison.from_table(MANNING)
    s = c.scores(["purity", "nmi_sum", "ri"])
    assert s["purity"] == 12 / 17 and round(s["purity"], 2) == 0.71
    assert round(s["nmi_sum"], 2) == 0.36 and s["nmi_sum"] == pytest.approx(0.36456, abs=1e-5)
    assert s["ri"] == 92 / 136 and round(s["ri"], 2) == 0.68
    # the book's TP = 20, FP = 20, FN = 24, TN = 72 are a, c, b, d
    p = c.pair_counts
    assert (p.a, p.c, p.b, p.d) == (20, 20, 24, 72)
    f5 = pair_f_beta(p, MANNING_BETA)
    # P = 1/2, R = 5/11: F5 = 26 (5/22) / (25/2 + 5/11) = 26/57
    assert f5 == Fraction(26, 57) and round(float(f5), 2) == 0.46
    hook = LESSONS["pair-counting"].step("hook").text
    assert "purity 0.71, NMI 0.36, Rand index 0.68 and F₅ 0.46" in hook


def test_pair_f_beta_by_hand_and_its_edges():
    p = Comparison.from_table(MANNING).pair_counts
    assert pair_f_beta(p, 1) == Fraction(2 * 20, 2 * 20 + 20 + 24)  # F1 = 2a / (2a + b + c)
    assert pair_f_beta(p, 2.5) == pytest.approx(7.25 * 0.5 * (5 / 11) / (6.25 * 0.5 + 5 / 11), rel=1e-15)
    assert pair_f_beta(Comparison.from_table([[5, 0], [0, 5]]).pair_counts, 5) == 1
    assert math.isnan(pair_f_beta(Comparison.from_table(np.eye(4, dtype=int)).pair_counts))  # no pair together
    for beta in (0, -1, float("nan"), True, "5"):
        with pytest.raises(ValueError, match="beta must be a positive number"):
            pair_f_beta(p, beta)


def test_lesson_numbers_come_from_the_library():
    c = Comparison.from_table(MANNING)
    text = LESSONS["pair-counting"].step("invention").text
    assert "(a + d) / M = (20 + 72) / 136 = 0.6765" in text and "F₅ = 26/57 = 0.4561" in text
    assert "12 of 17 objects: purity = 12/17 = 0.7059" in LESSONS["pair-counting"].step("naive").text
    info = LESSONS["information"].step("invention").text
    assert f"= {c.score('nmi_sum'):.4f}, the book's NMI" in info
    chance = LESSONS["chance"].step("hook").text
    assert f"{Comparison.from_table(preset_tables()['independent'].table).score('ri'):.4f}" in chance


def test_lab_helpers_give_the_comparisons_values_and_steps():
    worked = lab_steps(MANNING, ["ri", "ari"])
    c = Comparison.from_table(MANNING)
    assert [(i, v) for i, _, v, _ in worked] == [("ri", c.score("ri")), ("ari", c.score("ari"))]
    assert worked[0][3][-1] == "RI = (a + d) / M = (20 + 72) / 136 = 0.6765"
    values = case_values([[4], [4]], ["ri", "ari"])
    assert values["value"].tolist() == [12 / 28, 0.0]  # the 2 x C(4, 2) pairs within a class of C(8, 2)
    frame = lab_chance(preset_tables()["independent"].table, ["ri", "ari"])
    assert frame.loc["ari", "expected"] == 0 and frame.loc["ri", "expected"] > frame.loc["ri", "value"] > 0.8
    assert lesson_comparison(MANNING).table.shape == (3, 3)
