"""Guided lessons, one per index family: their texts, tables and questions, as data.

Each :class:`Lesson` walks through the same :data:`STEP_KINDS`: a problem that hooks, the
naive idea and where it fails, the invention, the formula, a live lab on an example table of
:mod:`cluval_core.data.presets`, the degenerate case, and questions. Every number a lesson
states is computed here from a :class:`~cluval_core.Comparison` when :func:`lessons` runs
(nothing is typed into the texts), and every :class:`Question`'s answer is a library value,
checked by :meth:`Question.check` and explained with numbers.

The first lesson reproduces the textbook example of Manning, Raghavan & Schütze (2008),
Introduction to Information Retrieval, section 16.3 (the ``manning_2008`` preset): purity
≈ 0.71, NMI ≈ 0.36, RI ≈ 0.68 and the pair-counting F with β = 5 ≈ 0.46.

>>> lesson = lessons()["pair-counting"]
>>> [step.kind for step in lesson.steps]
['hook', 'naive', 'invention', 'formula', 'lab', 'degenerate', 'questions']
>>> question = lesson.questions[0]
>>> question.check(question.answer), question.check("not a number")
(True, False)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pandas as pd

from ..core.comparison import Comparison
from ..core.registry import INDICES
from ..core.steps import shown
from ..core.validation import CluvalError
from ..data.presets import checked_table, preset_tables
from ..indices.pair_counting import pair_f_beta

__all__ = ["STEP_KINDS", "STEP_TITLES", "Lesson", "LessonStep", "Question", "Case", "lessons", "lesson_comparison",
           "case_values", "lab_steps", "lab_chance", "MANNING_BETA"]

# The steps of every lesson, in order, and how a page titles them.
STEP_KINDS = ("hook", "naive", "invention", "formula", "lab", "degenerate", "questions")
STEP_TITLES = {"hook": "The problem", "naive": "The naive idea", "invention": "The invention",
               "formula": "The formula", "lab": "Lab", "degenerate": "The degenerate case",
               "questions": "Questions"}
# Manning et al.'s F-measure weighs recall β = 5 times (β² = 25 times) as much as precision.
MANNING_BETA = 5
MANNING_CLASSES = ("x", "o", "◇")  # the rows of the manning_2008 preset


@dataclass(frozen=True)
class Case:
    """A small table a step shows, with the values of the step's indices on it."""

    label: str
    table: np.ndarray
    row_names: tuple[str, ...] = ()


@dataclass(frozen=True)
class LessonStep:
    """One step of a lesson: its kind (one of :data:`STEP_KINDS`), title and text (Markdown,
    its numbers computed), the indices it shows, the preset its lab or formula works on, and
    the tables it shows (:class:`Case`)."""

    kind: str
    title: str
    text: str
    indices: tuple[str, ...] = ()
    preset: str | None = None
    cases: tuple[Case, ...] = ()
    chance: bool = False  # the lab shows each index's expectation under the permutation model


@dataclass(frozen=True)
class Question:
    """A question that checks its answer: a number to predict within `tolerance`, or one of `options`.

    `answer` is the library's value (a float) or the right option; `explanation` says why, with numbers.
    """

    key: str
    prompt: str
    answer: float | str
    explanation: str
    options: tuple[str, ...] = ()
    tolerance: float = 0.0
    cases: tuple[Case, ...] = ()

    @property
    def kind(self) -> str:
        """``"choice"`` (one of the options) or ``"value"`` (a number)."""
        return "choice" if self.options else "value"

    def check(self, given) -> bool:
        """Whether `given` is right: the right option, or a number within the tolerance of the answer."""
        if self.kind == "choice":
            return given == self.answer
        try:
            value = float(given)
        except (TypeError, ValueError):
            return False
        return math.isfinite(value) and abs(value - float(self.answer)) <= self.tolerance + 1e-12


@dataclass(frozen=True)
class Lesson:
    """A guided lesson on one index family: its steps in the order of :data:`STEP_KINDS`, and its questions."""

    key: str
    title: str
    summary: str
    steps: tuple[LessonStep, ...]
    questions: tuple[Question, ...]

    def step(self, kind: str) -> LessonStep:
        """The step of that kind."""
        for step in self.steps:
            if step.kind == kind:
                return step
        raise CluvalError(f"no step {kind!r}; the steps are {', '.join(STEP_KINDS)}")


# ---------------------------------------------------------------------- computing from tables
def lesson_comparison(table) -> Comparison:
    """The comparison of a lesson's table (rows: reference, columns: candidate), clusters numbered from 1."""
    counts = checked_table(table)
    rows, columns = counts.shape
    return Comparison.from_table(counts, row_labels=list(range(1, rows + 1)), col_labels=list(range(1, columns + 1)))


def case_values(table, ids) -> pd.DataFrame:
    """The indices `ids` on `table`: a DataFrame of index name and value (NaN where undefined)."""
    scores = lesson_comparison(table).scores(list(ids))
    return pd.DataFrame({"index": [INDICES[i].name for i in ids], "value": [scores[i] for i in ids]},
                        index=pd.Index(list(ids), name="id"))


def lab_steps(table, ids) -> list[tuple[str, str, float, list[str]]]:
    """For each index of `ids` on `table`: (id, name, value, its computation one step a line)."""
    c = lesson_comparison(table)
    out = []
    for index_id in ids:
        steps = c.steps(index_id)
        out.append((index_id, INDICES[index_id].name, steps.value, [str(step) for step in steps]))
    return out


def lab_chance(table, ids) -> pd.DataFrame:
    """Each index of `ids` on `table` against its exact expectation under the permutation model:
    value, expected, sd, z (Comparison.chance)."""
    frame = lesson_comparison(table).chance(list(ids))
    frame.insert(0, "index", [INDICES[i].name for i in frame.index])
    return frame[["index", "value", "expected", "sd", "z", "method"]]


def _v(value, digits: int = 4) -> str:
    """A value as the lessons state it: as a step shows it, rounding noise below 1e-12 shown as 0."""
    return shown(0 if abs(float(value)) < 1e-12 else value, digits)


def _fraction(numerator, denominator) -> str:
    return f"{numerator}/{denominator}"


def _singletons(sizes) -> np.ndarray:
    """Reference clusters of `sizes` against a candidate with every object alone."""
    sizes = list(sizes)
    table = np.zeros((len(sizes), sum(sizes)), dtype=np.int64)
    start = 0
    for i, size in enumerate(sizes):
        table[i, start:start + size] = 1
        start += size
    return table


def _one_cluster(sizes) -> np.ndarray:
    return np.array([[size] for size in sizes], dtype=np.int64)


def _blocks_merged(k: int, size: int, groups: int) -> np.ndarray:
    """k reference clusters of `size` against a candidate of `groups` clusters, each a union of k / groups."""
    table = np.zeros((k, groups), dtype=np.int64)
    for i in range(k):
        table[i, i * groups // k] = size
    return table


def _choice(first: str, second: str, better_first: bool, better_second: bool) -> str:
    return f"{first} prefers {'A' if better_first else 'B'}, {second} prefers {'A' if better_second else 'B'}"


def _choice_options(first: str, second: str) -> tuple[str, ...]:
    return tuple(_choice(first, second, x, y) for x in (True, False) for y in (True, False))


def _prefers(higher_is_better: bool, a: float, b: float) -> bool:
    """Whether A is preferred to B."""
    return a > b if higher_is_better else a < b


def _choice_question(key, prompt, ids, table_a, table_b, why, labels=("A", "B")) -> Question:
    """Which of candidates A and B each of the two indices `ids` prefers, from the library's values."""
    first, second = ids
    a = lesson_comparison(table_a).scores(list(ids))
    b = lesson_comparison(table_b).scores(list(ids))
    names = [INDICES[i].name.split(" (")[0] for i in ids]
    short = [_short(i) for i in ids]
    answer = _choice(short[0], short[1], _prefers(INDICES[first].higher_is_better, a[first], b[first]),
                     _prefers(INDICES[second].higher_is_better, a[second], b[second]))
    explanation = (f"{names[0]}: A {_v(a[first])}, B {_v(b[first])}; {names[1]}: A {_v(a[second])}, "
                   f"B {_v(b[second])}. {why}")
    return Question(key, prompt, answer, explanation, options=_choice_options(*short),
                    cases=(Case(f"Candidate {labels[0]}", checked_table(table_a)),
                           Case(f"Candidate {labels[1]}", checked_table(table_b))))


def _short(index_id: str) -> str:
    return {"ri": "RI", "ari": "ARI", "nmi_sum": "NMI", "ami": "AMI", "psi": "PSI", "pa": "PA"}.get(index_id, index_id)


# ---------------------------------------------------------------------- the lessons
def _pair_counting(presets) -> Lesson:
    table = presets["manning_2008"].table
    c = lesson_comparison(table)
    s = c.scores(["purity", "nmi_sum", "ri", "ari"])
    p = c.pair_counts
    f5 = pair_f_beta(p, MANNING_BETA)
    n = c.n
    majority = int(np.asarray(table).max(axis=0).sum())
    singletons = _singletons(c.row_sizes.astype(int))
    lone = lesson_comparison(singletons).scores(["purity", "ri", "ari"])
    one = _one_cluster(c.row_sizes.astype(int))
    one_s = lesson_comparison(one).scores(["ri", "ari"])
    both_one = np.array([[n]], dtype=np.int64)
    both_one_ari = lesson_comparison(both_one).score("ari")
    rows = ", ".join(f"{int(size)} {name}" for name, size in zip(MANNING_CLASSES, c.row_sizes))
    manning_case = Case("Manning et al.'s example (rows: classes, columns: clusters)", table, MANNING_CLASSES)
    steps = (
        LessonStep("hook", STEP_TITLES["hook"],
                   f"A clustering has put {n} objects of three classes ({rows}) into three clusters. Cluster 1 "
                   "is mostly x, cluster 2 mostly o, cluster 3 mostly ◇, with a few strays. How good is it? "
                   "Manning, Raghavan and Schütze (*Introduction to Information Retrieval*, §16.3) score this very "
                   f"table four ways: purity {_v(s['purity'], 2)}, NMI {_v(s['nmi_sum'], 2)}, Rand index "
                   f"{_v(s['ri'], 2)} and F₅ {_v(f5, 2)}. Four different numbers for one table: which one is right, "
                   "and what does each one count?",
                   indices=("purity", "nmi_sum", "ri"), cases=(manning_case,)),
        LessonStep("naive", STEP_TITLES["naive"],
                   "The first idea: give each cluster its majority class and count the objects that agree "
                   f"(purity). Here the majorities hold {majority} of {n} objects: purity = "
                   f"{_fraction(majority, n)} = {_v(s['purity'])}.\n\n"
                   "**Where it fails:** put every object in a cluster of its own. Every cluster is then pure, "
                   f"so purity is {_v(lone['purity'])}, the best there is, for a clustering that found nothing. "
                   "Purity only looks at one side: it never punishes splitting a class.",
                   indices=("purity", "ri", "ari"), cases=(Case("Every object alone", singletons, MANNING_CLASSES),)),
        LessonStep("invention", STEP_TITLES["invention"],
                   f"Look at pairs of objects instead. Each of the M = C({n}, 2) = {p.total} pairs is a decision: "
                   "put the two together or apart. Against the classes, each decision is a true positive (together "
                   f"in both, a = {p.a}), a false positive (together only in the clustering, c = {p.c}), a false "
                   f"negative (together only in the classes, b = {p.b}) or a true negative (apart in both, "
                   f"d = {p.d}).\n\n"
                   f"The **Rand index** is the share of right decisions: (a + d) / M = ({p.a} + {p.d}) / {p.total} "
                   f"= {_v(s['ri'])}. Splitting a class now costs: every pair it separates is a false negative.\n\n"
                   f"Precision P = a / (a + c) = {_fraction(p.a, p.a + p.c)} and recall R = a / (a + b) = "
                   f"{_fraction(p.a, p.a + p.b)} give the **F-measure** F_β = (β² + 1) P R / (β² P + R); with "
                   f"β = {MANNING_BETA} a false negative costs more than a false positive, and F₅ = {f5} = "
                   f"{_v(f5)}.\n\nThe **adjusted Rand index** then asks how far a is above what random clusters of "
                   f"these sizes would give: ARI = {_v(s['ari'])} (lesson 5 shows why).",
                   indices=("ri", "ari")),
        LessonStep("formula", STEP_TITLES["formula"],
                   "The pair counts a, b, c, d are read off the table: a = Σ C(n_ij, 2) over the cells, a + b = "
                   "Σ C(r_i, 2) over the rows, a + c = Σ C(c_j, 2) over the columns, and d is the rest of the "
                   "C(N, 2) pairs. Each index below is computed in steps on Manning et al.'s table.",
                   indices=("ri", "ari"), preset="manning_2008"),
        LessonStep("lab", STEP_TITLES["lab"],
                   "Edit the table (rows: classes x, o, ◇; columns: clusters) and watch the pair counts move. Try "
                   "moving the stray x of cluster 2 into cluster 1, or splitting a cluster in two.",
                   indices=("ri", "ari", "purity"), preset="manning_2008"),
        LessonStep("degenerate", STEP_TITLES["degenerate"],
                   f"**All objects in one cluster:** every pair is put together, so d = 0 and RI = "
                   f"{_v(one_s['ri'])} (only the pairs of the same class are right); ARI = {_v(one_s['ari'])}: no "
                   "better than chance.\n\n"
                   f"**Every object alone:** a = 0 and RI = {_v(lone['ri'])} (the pairs of different classes are "
                   f"all right), ARI = {_v(lone['ari'])}.\n\n"
                   "**Both partitions one cluster:** ARI's denominator is 0 (the maximum equals the expectation); "
                   f"cluval follows the convention that identical partitions score 1: ARI = {_v(both_one_ari)}.",
                   indices=("ri", "ari"),
                   cases=(Case("All objects in one cluster", one, MANNING_CLASSES),
                          Case("Every object alone", singletons, MANNING_CLASSES),
                          Case("Both one cluster", both_one))),
    )
    rand = presets["rand_1971"].table
    rc = lesson_comparison(rand)
    rp = rc.pair_counts
    alone = _singletons([8] * 6)
    two = _blocks_merged(6, 8, 2)
    questions = (
        Question("rand_1971", "Rand's own example (1971): six objects, reference {a, b, c}, {d, e, f}, candidate "
                              "{a, b}, {c, d, e}, {f} (the table below). Predict the Rand index (two decimals).",
                 rc.score("ri"),
                 f"a = {rp.a} pairs together in both, d = {rp.d} apart in both, of M = {rp.total}: RI = "
                 f"({rp.a} + {rp.d}) / {rp.total} = {_v(rc.score('ri'))}.", tolerance=0.01,
                 cases=(Case("Rand (1971)", rand),)),
        _choice_question("ri_ari", "The reference has six clusters of eight objects. Candidate A puts every object "
                                   "alone; candidate B merges the six clusters into two of three each. Which does the "
                                   "Rand index prefer, and which the adjusted Rand index?", ("ri", "ari"), alone, two,
                         "With six clusters most pairs are apart in the reference, so A's all-apart answer gets "
                         "most pairs right (RI high) while knowing nothing (ARI 0); B keeps every reference pair "
                         "together, which is more than chance."),
    )
    return Lesson("pair-counting", "Pair counting and ARI",
                  "Counting decisions on pairs of objects: the Rand index, the F-measure and the adjusted Rand index, "
                  "on Manning et al.'s textbook example.", steps + (_questions_step(),), questions)


def _information(presets) -> Lesson:
    table = presets["manning_2008"].table
    c = lesson_comparison(table)
    s = c.scores(["mi", "nmi_sum", "ami", "vi"])
    e = c.entropies
    singletons = _singletons(c.row_sizes.astype(int))
    lone = lesson_comparison(singletons)
    ls = lone.scores(["mi", "nmi_sum", "ami", "vi"])
    one = _one_cluster(c.row_sizes.astype(int))
    os_ = lesson_comparison(one).scores(["mi", "nmi_sum", "ami", "vi"])
    both_one = np.array([[c.n]], dtype=np.int64)
    bs = lesson_comparison(both_one).scores(["nmi_sum", "ami", "vi"])
    steps = (
        LessonStep("hook", STEP_TITLES["hook"],
                   "Pick an object of Manning et al.'s example at random. Guessing its class is uncertain: the "
                   f"classes' entropy is H(classes) = {_v(e.true)} nats. Now you are told its cluster. How much "
                   "uncertainty is left, and how much did the cluster tell you?",
                   indices=("mi", "nmi_sum"), cases=(Case("Manning et al.'s example", table, MANNING_CLASSES),)),
        LessonStep("naive", STEP_TITLES["naive"],
                   "The naive score: the information the cluster gives about the class, the **mutual information** "
                   f"MI = H(classes) + H(clusters) − H(joint) = {_v(e.true)} + {_v(e.pred)} − {_v(e.joint)} = "
                   f"{_v(s['mi'])} nats.\n\n**Where it fails:** put every object alone. The cluster then names the "
                   f"object, so it tells everything about the class: MI = {_v(ls['mi'])}, the most there is "
                   f"(H(classes) = {_v(e.true)}), for a clustering that found nothing. MI rewards splitting, and "
                   "its scale depends on the data.",
                   indices=("mi", "nmi_sum", "ami"), cases=(Case("Every object alone", singletons, MANNING_CLASSES),)),
        LessonStep("invention", STEP_TITLES["invention"],
                   "Normalise: divide MI by the mean of the two entropies, so identical partitions score 1. "
                   f"**NMI** = MI / ((H(classes) + H(clusters)) / 2) = {_v(s['mi'])} / "
                   f"{_v((e.true + e.pred) / 2)} = {_v(s['nmi_sum'])}, the book's NMI.\n\n"
                   f"That helps, but the singletons still score NMI = {_v(ls['nmi_sum'])}, more than the real "
                   f"clustering's {_v(s['nmi_sum'])}. **AMI** subtracts the MI expected from random clusters of "
                   f"these sizes: the singletons' AMI is {_v(ls['ami'])}, the clustering's {_v(s['ami'])}.\n\n"
                   "**VI**, the variation of information, H(classes | clusters) + H(clusters | classes) = "
                   f"{_v(s['vi'])} nats, is a true distance between partitions: 0 only for identical ones.",
                   indices=("nmi_sum", "ami", "vi")),
        LessonStep("formula", STEP_TITLES["formula"],
                   "Entropies in nats (natural logarithm) from the row sizes r_i, column sizes c_j and cells n_ij, "
                   "each index in steps on Manning et al.'s table.",
                   indices=("nmi_sum", "vi", "ami"), preset="manning_2008"),
        LessonStep("lab", STEP_TITLES["lab"],
                   "Edit the table: split a cluster into two and watch MI grow while AMI does not follow.",
                   indices=("mi", "nmi_sum", "ami", "vi"), preset="manning_2008"),
        LessonStep("degenerate", STEP_TITLES["degenerate"],
                   f"**The candidate is one cluster:** its entropy is 0, so MI = {_v(os_['mi'])} and NMI = "
                   f"{_v(os_['nmi_sum'])}, AMI = {_v(os_['ami'])}; VI = H(classes) = {_v(os_['vi'])}.\n\n"
                   "**Both partitions one cluster:** both entropies are 0 and NMI is 0/0; cluval follows the "
                   f"convention that identical partitions score 1: NMI = {_v(bs['nmi_sum'])}, AMI = "
                   f"{_v(bs['ami'])}, VI = {_v(bs['vi'])}.",
                   indices=("mi", "nmi_sum", "ami", "vi"),
                   cases=(Case("Candidate one cluster", one, MANNING_CLASSES), Case("Both one cluster", both_one))),
    )
    questions = (
        Question("manning_nmi", "Predict the NMI (arithmetic mean of the entropies) of Manning et al.'s example "
                                "(two decimals).", s["nmi_sum"],
                 f"MI = {_v(s['mi'])}, H(classes) = {_v(e.true)}, H(clusters) = {_v(e.pred)}: NMI = {_v(s['mi'])} / "
                 f"{_v((e.true + e.pred) / 2)} = {_v(s['nmi_sum'])}.", tolerance=0.01,
                 cases=(Case("Manning et al.'s example", table, MANNING_CLASSES),)),
        _choice_question("nmi_ami", "Candidate A is Manning et al.'s clustering; candidate B puts every object "
                                    "alone. Which does NMI prefer, and which AMI?", ("nmi_sum", "ami"), table,
                         singletons,
                         "Splitting into singletons raises the mutual information to its maximum; NMI's "
                         "normalisation does not remove that, AMI's chance correction does."),
    )
    return Lesson("information", "Information: NMI, AMI and VI",
                  "What knowing the cluster tells about the class: mutual information, its normalisations and the "
                  "variation of information.", steps + (_questions_step(),), questions)


def _set_matching(presets) -> Lesson:
    imbalance = presets["psi_imbalance"].table
    merged = presets["psi_imbalance_merged"].table
    permuted = presets["genieclust_permutation"].table
    ci, cm, cp = lesson_comparison(imbalance), lesson_comparison(merged), lesson_comparison(permuted)
    si = ci.scores(["psi", "ari", "pa"])
    sm = cm.scores(["psi", "ari", "pa"])
    diagonal, n_perm = int(np.trace(np.asarray(permuted))), cp.n
    one = _one_cluster([100, 100, 100, 100])
    both_one = np.array([[400]], dtype=np.int64)
    os_, bs = lesson_comparison(one).scores(["psi", "pa"]), lesson_comparison(both_one).scores(["psi", "pa"])
    psi_steps = ci.steps("psi")
    steps = (
        LessonStep("hook", STEP_TITLES["hook"],
                   f"Two clusters of {int(ci.row_sizes[0])} objects exchange some objects, and a small third "
                   f"cluster of {int(ci.row_sizes[2])} is found without a single error. The adjusted Rand index "
                   f"says {_v(si['ari'])}. Now a second candidate gets the two large clusters exactly right but "
                   f"swallows the small cluster whole: ARI {_v(sm['ari'])}. Is losing a cluster really better?",
                   indices=("ari", "psi"),
                   cases=(Case("Exchange in the large clusters", imbalance), Case("Small cluster merged", merged))),
        LessonStep("naive", STEP_TITLES["naive"],
                   "The naive idea: pair reference cluster i with candidate cluster i and count the objects on the "
                   f"diagonal. In the genieclust notes' table the diagonal holds {diagonal} of {n_perm} objects, "
                   "yet the clusters are only numbered differently. So pair the clusters optimally instead (the "
                   f"Hungarian algorithm): {_v(cp.score('pa'))} of the objects are then matched (pivoted accuracy).\n\n"
                   "**Where it fails:** counting matched objects still weighs clusters by size. Merging the small "
                   f"cluster costs only its objects: PA = {_v(sm['pa'])} against {_v(si['pa'])} for the candidate "
                   "that found all three clusters.",
                   indices=("pa", "psi"), cases=(Case("genieclust notes' table", permuted),)),
        LessonStep("invention", STEP_TITLES["invention"],
                   "Score each matched pair of clusters on its own scale: n_ij / max(r_i, c_j), 1 when the two "
                   "clusters are the same. Sum over the optimal pairing: S, at most k = max(K, K′), and a cluster "
                   "left unmatched adds 0. Then subtract what random clusters of these sizes would give, E, and "
                   f"divide by what is left: the **pair sets index** PSI = (S − E) / (k − E). For the candidate "
                   f"with the exchange: S = {_v(psi_steps['S'])}, E = {_v(psi_steps['E'])}, PSI = {_v(si['psi'])}; "
                   f"for the one that lost the small cluster PSI = {_v(sm['psi'])} (Rezaei & Fränti 2016).",
                   indices=("psi",)),
        LessonStep("formula", STEP_TITLES["formula"],
                   "PSI in steps on the table with the exchange in the large clusters.",
                   indices=("psi", "pa"), preset="psi_imbalance"),
        LessonStep("lab", STEP_TITLES["lab"],
                   "Edit the table: shrink the third cluster further, or merge it into the first, and compare "
                   "how PSI and ARI react.",
                   indices=("psi", "ari", "pa", "nmi_sum"), preset="psi_imbalance"),
        LessonStep("degenerate", STEP_TITLES["degenerate"],
                   f"**The candidate is one cluster** (reference four clusters of 100): S = E, so PSI = "
                   f"{_v(os_['psi'])}, while one reference cluster is matched and PA = {_v(os_['pa'])}.\n\n"
                   "**Both partitions one cluster:** k = 1 and S = E = 1, so PSI is 0/0; cluval follows the "
                   f"convention that identical partitions score 1: PSI = {_v(bs['psi'])}.",
                   indices=("psi", "pa", "ari"),
                   cases=(Case("Candidate one cluster", one), Case("Both one cluster", both_one))),
    )
    questions = (
        Question("psi_imbalance", "Predict PSI for the candidate with 200 objects exchanged between the two large "
                                  "clusters and the small cluster intact (two decimals).", si["psi"],
                 f"S = {_v(psi_steps['S'])}, E = {_v(psi_steps['E'])}, k = {psi_steps['k']}: PSI = "
                 f"({_v(psi_steps['S'])} − {_v(psi_steps['E'])}) / ({psi_steps['k']} − {_v(psi_steps['E'])}) = "
                 f"{_v(si['psi'])}. The small cluster's pair scores 1 whatever its size.", tolerance=0.02,
                 cases=(Case("Exchange in the large clusters", imbalance),)),
        _choice_question("ari_psi", "Candidate A exchanges objects between the two large clusters and keeps the "
                                    "small one; candidate B is exact on the large clusters but merges the small one "
                                    "into the first. Which does ARI prefer, and which PSI?", ("ari", "psi"),
                         imbalance, merged,
                         "ARI counts pairs, and a cluster of 50 holds few pairs beside two clusters of 1000; PSI "
                         "gives every cluster the same weight, and B leaves one reference cluster unmatched."),
    )
    return Lesson("set-matching", "Set matching and PSI",
                  "Pairing clusters one to one: pivoted accuracy and the pair sets index, which weighs every cluster "
                  "the same.", steps + (_questions_step(),), questions)


def _centroid_index(presets) -> Lesson:
    table = presets["merge_split"].table
    c = lesson_comparison(table)
    s = c.scores(["ci_partition", "ari", "psi"])
    k, k_prime = c.table.shape
    one = _one_cluster([100] * k)
    same = np.diag([100] * k).astype(np.int64)
    os_, ss = lesson_comparison(one).scores(["ci_partition"]), lesson_comparison(same).scores(["ci_partition"])
    rand = presets["rand_1971"].table
    five = _one_cluster([20] * 5)
    steps = (
        LessonStep("hook", STEP_TITLES["hook"],
                   f"The reference has {k} clusters and the algorithm returned {k_prime}. ARI is {_v(s['ari'])}: "
                   "fair. But did the algorithm find the clusters, or did it put its clusters in the wrong "
                   "places? A k-means run that is stuck has exactly this look.",
                   indices=("ari", "ci_partition"), cases=(Case("Two merged, one split", table),)),
        LessonStep("naive", STEP_TITLES["naive"],
                   f"The naive check: count the clusters. {k} = {k_prime}, so every cluster was found.\n\n"
                   "**Where it fails:** the candidate merged reference clusters 1 and 2 into one cluster and "
                   "split cluster 3 into two. The counts agree, the structure does not.",
                   indices=("ci_partition",)),
        LessonStep("invention", STEP_TITLES["invention"],
                   "Map every candidate cluster to the reference cluster it overlaps most (with data: its nearest "
                   "centroid). A reference cluster that no candidate cluster maps to is an **orphan**: a cluster "
                   "the algorithm missed. Do the same the other way round, and take the larger count: the "
                   f"**centroid index** (Fränti, Rezaei & Zhao 2014). Here CI = {_v(s['ci_partition'])}: one "
                   "cluster is missing, and 0 means the cluster-level structure is right.",
                   indices=("ci_partition",)),
        LessonStep("formula", STEP_TITLES["formula"],
                   "The centroid index of the table (the partition-based form: each cluster mapped by shared "
                   "objects), in steps.",
                   indices=("ci_partition",), preset="merge_split"),
        LessonStep("lab", STEP_TITLES["lab"],
                   "Edit the table: move the split half back, or split another cluster, and watch CI count the "
                   "missing clusters while ARI and PSI move smoothly.",
                   indices=("ci_partition", "ari", "psi"), preset="merge_split"),
        LessonStep("degenerate", STEP_TITLES["degenerate"],
                   f"**The candidate is one cluster** (k′ = 1): every reference cluster but one is an orphan, "
                   f"CI = {_v(os_['ci_partition'])} = k − 1.\n\n"
                   f"**Identical partitions:** every cluster maps to its twin, CI = {_v(ss['ci_partition'])}. CI "
                   "counts whole clusters, so it says nothing of how many objects are misplaced.",
                   indices=("ci_partition",),
                   cases=(Case("Candidate one cluster", one), Case("Identical", same))),
    )
    questions = (
        _ci_question("rand_ci", "Rand's example (1971): reference {a, b, c}, {d, e, f}, candidate {a, b}, "
                                "{c, d, e}, {f}. Predict the centroid index.", rand, "Rand (1971)"),
        _ci_question("one_cluster_ci", "A reference of five clusters; the candidate puts all objects in one "
                                       "cluster. Predict the centroid index.", five, "Five into one"),
    )
    return Lesson("centroid-index", "The centroid index",
                  "Counting missing clusters: whether an algorithm found the clusters at all.",
                  steps + (_questions_step(),), questions)


def _chance(presets) -> Lesson:
    table = presets["independent"].table
    c = lesson_comparison(table)
    frame = c.chance(["ri", "ari", "nmi_sum", "ami"])
    p = c.pair_counts
    k = c.table.shape[0]
    ari_steps = c.steps("ari")
    manning = lesson_comparison(presets["manning_2008"].table)
    mchance = manning.chance(["ri"])
    one = _one_cluster([50, 50])
    both_one = np.array([[100]], dtype=np.int64)
    os_, bs = lesson_comparison(one).scores(["ri", "ari"]), lesson_comparison(both_one).scores(["ri", "ari"])
    steps = (
        LessonStep("hook", STEP_TITLES["hook"],
                   f"{c.n} objects in {k} reference clusters and {k} candidate clusters, every cell the same: the "
                   "candidate knows nothing about the reference. Yet the Rand index is "
                   f"{_v(frame.loc['ri', 'value'])}. How can a clustering that knows nothing score that high?",
                   indices=("ri", "ari"), cases=(Case("Independent partitions", table),)),
        LessonStep("naive", STEP_TITLES["naive"],
                   "The naive reading: an index near 1 is good, near 0 is bad.\n\n**Where it fails:** with "
                   f"{k} clusters a side, most pairs are apart in both partitions (d = {p.d} of M = {p.total}) "
                   "whatever the candidate does, and RI counts them as right. Assign the objects to clusters of "
                   "these sizes at random and the Rand index is "
                   f"{_v(frame.loc['ri', 'expected'])} on average (the permutation model), with a standard "
                   f"deviation of {_v(frame.loc['ri', 'sd'])}. Even Manning et al.'s small example expects RI = "
                   f"{_v(mchance.loc['ri', 'expected'])} by chance against its {_v(mchance.loc['ri', 'value'])}.",
                   indices=("ri",)),
        LessonStep("invention", STEP_TITLES["invention"],
                   "Measure against chance: keep both partitions' cluster sizes, shuffle the objects, and take the "
                   "expected index E. The adjusted index is (index − E) / (max − E): 0 at chance, 1 at the best. "
                   f"For ARI the expected a is (a + b)(a + c) / M = {_v(ari_steps['E'])}; here a = {p.a}, so ARI = "
                   f"{_v(frame.loc['ari', 'value'])}, chance level. The same correction on the mutual information "
                   f"gives AMI = {_v(frame.loc['ami', 'value'])} (Hubert & Arabie 1985; Vinh, Epps & Bailey 2010).",
                   indices=("ari", "ami")),
        LessonStep("formula", STEP_TITLES["formula"],
                   "ARI written as (a − E) / (max − E), in steps on the independent table.",
                   indices=("ari",), preset="independent"),
        LessonStep("lab", STEP_TITLES["lab"],
                   "Each index against its exact expectation under the permutation model (z: how many standard "
                   "deviations above chance). Edit the table: make it diagonal and watch z grow.",
                   indices=("ri", "ari", "nmi_sum", "ami"), preset="independent", chance=True),
        LessonStep("degenerate", STEP_TITLES["degenerate"],
                   "**The candidate is one cluster:** every shuffle gives the same table, so the index equals its "
                   f"expectation: ARI = {_v(os_['ari'])} while RI = {_v(os_['ri'])}.\n\n"
                   "**Both partitions one cluster:** the maximum equals the expectation and the adjusted index "
                   "is 0/0; cluval follows the convention that identical partitions score 1: ARI = "
                   f"{_v(bs['ari'])}.",
                   indices=("ri", "ari"),
                   cases=(Case("Candidate one cluster", one), Case("Both one cluster", both_one))),
    )
    questions = (
        Question("independent_ari", "On the independent table (every cell the same), predict the adjusted Rand "
                                    "index (two decimals).", frame.loc["ari", "value"],
                 f"a = {p.a} against the expected E = {_v(ari_steps['E'])} and max = {_v(ari_steps['max'])}: ARI = "
                 f"({p.a} − {_v(ari_steps['E'])}) / ({_v(ari_steps['max'])} − {_v(ari_steps['E'])}) = "
                 f"{_v(frame.loc['ari', 'value'])}, chance level.", tolerance=0.02,
                 cases=(Case("Independent partitions", table),)),
        Question("manning_expected_ri", "For Manning et al.'s example (RI "
                                        f"{_v(mchance.loc['ri', 'value'], 2)}), predict the Rand index expected from "
                                        "random clusters of the same sizes (two decimals).",
                 mchance.loc["ri", "expected"],
                 f"Under the permutation model E[RI] = {_v(mchance.loc['ri', 'expected'])} (sd "
                 f"{_v(mchance.loc['ri', 'sd'])}): most of the observed {_v(mchance.loc['ri', 'value'])} is "
                 "chance, which is why ARI is only "
                 f"{_v(manning.score('ari'))}.", tolerance=0.03,
                 cases=(Case("Manning et al.'s example", presets["manning_2008"].table, MANNING_CLASSES),)),
    )
    return Lesson("chance", "Chance correction",
                  "Why raw indices are high for random partitions, and how the permutation model corrects them.",
                  steps + (_questions_step(),), questions)


def _ci_question(key: str, prompt: str, table, label: str) -> Question:
    """Predict the centroid index of `table`, explained by its steps (the orphans on each side)."""
    c = lesson_comparison(table)
    steps = c.steps("ci_partition")
    return Question(key, prompt, c.score("ci_partition"), "; ".join(str(step) for step in steps) + ".",
                    cases=(Case(label, checked_table(table)),))


def _questions_step() -> LessonStep:
    return LessonStep("questions", STEP_TITLES["questions"],
                      "Check yourself: each answer is compared with the library's value and explained.")


@lru_cache(maxsize=1)
def _built() -> tuple[Lesson, ...]:
    presets = preset_tables()
    return tuple(build(presets) for build in (_pair_counting, _information, _set_matching, _centroid_index, _chance))


def lessons() -> dict[str, Lesson]:
    """The lessons by key, in teaching order: pair counting, information, set matching, the
    centroid index, chance correction. Computed once (about a second) and kept."""
    return {lesson.key: lesson for lesson in _built()}
