"""The registry carries every fact about an index; the public one-line functions agree with it.

Each public function ``f(labels_true, labels_pred, *, ...)`` is the ``function`` of one or more
registry entries and returns exactly ``compare(...).score(id)``; every entry has a public
function, and every public function that computes an index is in the registry ("union"
tests: a new index or a new function that nobody registered fails here). The flags
``integer_valued``, ``soft`` and ``tie_dependent`` are checked against the values themselves.
"""

from __future__ import annotations

import inspect
import math

import numpy as np
import pytest

import cluval_core
from cluval_core import INDICES, CluvalError, Comparison, compare
from cluval_core.core.comparison import PairsOnly
from cluval_core.indices import FUNCTIONS as SCORE_FUNCTIONS
from cluval_core.indices import find_indices

# Public callables that do not compute one index, written out here: a new public function
# must either be some entry's function or be listed, so test_union_public_functions fails
# for a new index function left out of the registry.
NOT_INDEX_FUNCTIONS = {"compare", "compare_chunks", "compare_many", "compare_paired", "cluster_count",
                       "contingency_table", "expected_mutual_information", "get_index", "index_table",
                       "element_centric_scores", "pair_index", "remove_index"}
# Public one-line functions of a family of values, one member of which is a registered index
# (with these options); the others are checked against their peers in the family tests (tests/indices/).
FAMILY_FUNCTIONS = {"v_measure_score": ("nmi_sum", {"beta": 1.0}),
                    # the one-line function of the indices users add (pair_index); it computes any registered one
                    "pair_index_score": ("ari", {"index_id": "ari"})}
INDEX_FUNCTIONS = [name for name in SCORE_FUNCTIONS if name not in NOT_INDEX_FUNCTIONS | set(FAMILY_FUNCTIONS)]


def _same(x: float, y: float) -> bool:
    return x == y or (math.isnan(x) and math.isnan(y))


def _call(info, a, b, X):
    return info.function(a, b, **info.function_options, **({"X": X} if info.needs_data else {}))


def _inputs():
    """(labels_true, labels_pred, X): several shapes, label types, tied and untied tables."""
    rng = np.random.default_rng(2016)
    cases = []
    for n, k_a, k_b in [(40, 3, 3), (200, 5, 8), (120, 7, 2), (9, 2, 3), (300, 1, 4)]:
        a = rng.integers(0, k_a, n)
        b = np.where(rng.random(n) < 0.6, a % k_b, rng.integers(0, k_b, n))
        X = rng.normal(size=(n, 2)) + a[:, None] * 2.0
        cases.append((a, b, X))
    words = np.array(["cat", "dog", "eel", "fox"])
    a = rng.integers(0, 4, 60)
    cases.append((words[a], rng.integers(-3, 3, 60) * 10, rng.integers(0, 3, (60, 3)).astype(float)))
    return cases


INPUTS = _inputs()


def _public_callables():
    return {name: getattr(cluval_core, name) for name in cluval_core.__all__
            if inspect.isfunction(getattr(cluval_core, name))}


def _computes_an_index(function) -> bool:
    """The one-line shape: f(labels_true, labels_pred, *, ...) -> float."""
    signature = inspect.signature(function)
    return list(signature.parameters)[:2] == ["labels_true", "labels_pred"] \
        and signature.return_annotation in (float, "float")


# ------------------------------------------------------------------ functions and entries
@pytest.mark.parametrize("name", INDEX_FUNCTIONS)
def test_each_public_function_is_the_function_of_its_entries(name):
    function = getattr(cluval_core, name)
    entries = [info for info in INDICES.values() if info.function is function]
    assert entries, f"{name} computes no registered index"
    assert _computes_an_index(function)
    parameters = inspect.signature(function).parameters
    assert all(p.kind is p.KEYWORD_ONLY for p in list(parameters.values())[2:]), name
    for info in entries:
        assert set(info.function_options) <= set(parameters), (info.id, info.function_options)
        assert not info.needs_data or "X" in parameters, info.id
    # each entry of this function is its own call: no two entries are the same call
    assert len({info.call for info in entries}) == len(entries)


@pytest.mark.parametrize("index_id", list(INDICES))
def test_the_entrys_function_returns_exactly_the_comparisons_score(index_id):
    info = INDICES[index_id]
    for a, b, X in INPUTS:
        expected = compare(a, b, X=X).score(index_id)
        assert _same(_call(info, a, b, X), expected), (index_id, len(a))
        # and the call shown to users is that call
        shown = eval(info.call, {"cluval_core": cluval_core, "labels_true": a, "labels_pred": b, "X": X})
        assert _same(shown, expected), info.call


@pytest.mark.parametrize("name", sorted(FAMILY_FUNCTIONS))
def test_a_family_function_gives_its_registered_member(name):
    index_id, options = FAMILY_FUNCTIONS[name]
    function = getattr(cluval_core, name)
    assert _computes_an_index(function) and function not in {info.function for info in INDICES.values()}
    for a, b, _ in INPUTS:
        assert function(a, b, **options) == pytest.approx(compare(a, b).score(index_id), rel=1e-14, abs=1e-15)


def test_union_every_entry_has_a_public_function():
    for info in INDICES.values():
        name = info.function.__name__
        assert name in cluval_core.__all__ and getattr(cluval_core, name) is info.function, info.id
    assert len({info.call for info in INDICES.values()}) == len(INDICES)


def test_union_every_public_index_function_is_in_the_registry():
    registered = {info.function for info in INDICES.values()}
    for name, function in _public_callables().items():
        if name in NOT_INDEX_FUNCTIONS:
            assert function not in registered and not _computes_an_index(function), name
        elif name in FAMILY_FUNCTIONS:
            assert function not in registered, name
        else:
            assert _computes_an_index(function), f"{name}: neither an index function nor listed as another one"
            assert function in registered, f"{name} computes an index the registry does not know"
    assert NOT_INDEX_FUNCTIONS <= set(cluval_core.__all__)
    assert set(INDEX_FUNCTIONS) == {name for name, f in _public_callables().items() if f in registered}


# ------------------------------------------------------------------ facts against values
def test_integer_valued_indices_give_whole_numbers_and_the_others_do_not():
    values = {i: [compare(a, b, X=X).score(i) for a, b, X in INPUTS] for i in INDICES}
    for index_id, info in INDICES.items():
        whole = [v == round(v) for v in values[index_id] if math.isfinite(v)]
        assert whole, index_id
        if info.integer_valued:
            assert all(whole) and any(v > 0 for v in values[index_id]), index_id
        else:
            assert not all(whole), f"{index_id} gave only whole numbers: integer_valued?"


def test_soft_marks_the_indices_defined_on_soft_tables():
    rng = np.random.default_rng(5)
    labels_a, labels_b = rng.integers(0, 3, 80), rng.integers(0, 4, 80)
    U = 0.7 * np.eye(3)[labels_a] + 0.3 * rng.dirichlet(np.ones(3), 80)
    V = 0.7 * np.eye(4)[labels_b] + 0.3 * rng.dirichlet(np.ones(4), 80)
    soft = Comparison.from_memberships(U, V)
    for index_id, info in INDICES.items():
        assert not (info.soft and info.needs_data), index_id  # a soft table has no objects to place
        if info.needs_data:
            continue
        # the computation itself, whatever the flag: defined on N* or not
        computed = float(info.compute(soft))
        assert math.isfinite(computed) if info.soft else math.isnan(computed), (index_id, computed)
        value = soft.score(index_id)  # and score() reads the flag
        assert value == computed if info.soft else math.isnan(value), (index_id, value)


# Small partitions whose value, for some indices, changes when the objects are listed in
# reverse order: that changes the order in which clusters first occur (the tie order) and
# nothing else. Found by a seeded search; each case has ties that matter.
TIE_CASES = [
    ([1, 0, 0, 1], [0, 0, 1, 2], [[0, 1], [1, 0], [2, 2], [1, 2]]),
    ([0, 1, 1, 0, 0, 0, 1], [0, 0, 0, 2, 0, 0, 1], [[0, 1], [2, 2], [1, 1], [2, 1], [1, 0], [1, 0], [0, 2]]),
    ([1, 1, 1, 0, 0, 0, 1], [1, 1, 0, 1, 0, 0, 0], [[0, 2], [2, 0], [0, 0], [0, 1], [1, 2], [1, 2], [2, 2]]),
    # Criterion H by hand: table [[2, 2], [2, 0]], three tied cells of 2; the greedy pairing takes
    # (0, 0) and then only 0 is left, or (0, 1) and then (1, 0): 2 or 4 objects on the pairs.
    ([0, 0, 0, 0, 1, 1], [0, 0, 1, 1, 0, 0], [[0, 0], [0, 0], [1, 0], [1, 0], [0, 1], [0, 1]]),
]


def _tie_cases():
    cases = [tuple(np.asarray(v) for v in case) for case in TIE_CASES]
    rng = np.random.default_rng(11)
    for _ in range(30):  # small, tie-rich random cases: coarse labels and a 3 x 3 grid of points
        n = int(rng.integers(4, 12))
        cases.append((rng.integers(0, 3, n), rng.integers(0, 3, n), rng.integers(0, 3, (n, 2))))
    return cases


def test_tie_dependent_marks_exactly_the_indices_that_read_the_tie_order():
    changed = set()
    for a, b, X in _tie_cases():
        X = X.astype(float)
        reverse = np.arange(len(a))[::-1]
        before, after = compare(a, b, X=X).scores(), compare(a[reverse], b[reverse], X=X[reverse]).scores()
        changed |= {i for i in INDICES if not _same(before[i], after[i])}
    assert changed == {i for i, info in INDICES.items() if info.tie_dependent}


def _tables_by_pair_counts():
    """Small random tables grouped by their pair counts, the trivial ones (one cluster, singletons, identical) in."""
    rng = np.random.default_rng(5)
    cases = [(np.zeros(6, int), np.arange(6)), (np.arange(5), np.arange(5)), (np.zeros(4, int), np.zeros(4, int)),
             (np.arange(6) // 2, (np.arange(6) // 2 + 1) % 3)]
    for _ in range(400):
        n = int(rng.integers(2, 11))
        cases.append((rng.integers(0, int(rng.integers(1, 5)), n), rng.integers(0, int(rng.integers(1, 5)), n)))
    groups = {}
    for a, b in cases:
        c = compare(a, b)
        groups.setdefault(c.pair_counts, []).append(c)
    return groups


def test_cost_pairs_marks_exactly_the_indices_that_read_the_pair_counts_alone():
    """An index of cost "pairs" is computed from the four counts alone (PairsOnly, which has nothing else
    to read) exactly as from the table; every other index of labels takes two values on some two tables
    with the same pair counts."""
    groups = _tables_by_pair_counts()
    pairs = [i for i, info in INDICES.items() if info.cost == "pairs"]
    for counts, comparisons in groups.items():
        for i in pairs:
            assert _same(PairsOnly(counts).score(i), comparisons[0].score(i)), (i, counts)
    more = {i for i, info in INDICES.items() if info.cost != "pairs" and not info.needs_data}
    varies = {i for comparisons in groups.values() for i in more
              if len({round(c.score(i), 12) for c in comparisons if not math.isnan(c.score(i))}) > 1}
    assert varies == more
    with pytest.raises(CluvalError, match="more of a table"):
        PairsOnly(next(iter(groups))).score("psi")


def test_pairing_names_exactly_the_pairing_each_index_reads():
    """``pairing`` (what scores() solves side by side on a large table) is the pairing an index's value
    reads: a fresh comparison computes that one property when asked for the index, and no other."""
    rng = np.random.default_rng(7)
    a, b, X = rng.integers(0, 12, 400), rng.integers(0, 9, 400), rng.random((400, 2))
    pairings = {name for info in INDICES.values() if info.pairing for name in [info.pairing]}
    assert pairings == {"hungarian_pairing", "accuracy_pairing", "row_normalised_pairing", "greedy_pairing"}
    for index_id, info in INDICES.items():
        c = compare(a, b, X=X)
        c.score(index_id)
        assert {name for name in pairings if name in c.__dict__} == ({info.pairing} - {None}), index_id


def test_criterion_h_greedy_follows_the_first_occurrence():
    a, b = [0, 0, 0, 0, 1, 1], [0, 0, 1, 1, 0, 0]
    assert cluval_core.criterion_h(a, b) == 1 - 2 / 6  # candidate cluster 0 occurs first: (0, 0) taken
    assert cluval_core.criterion_h(a[::-1], b[::-1]) == 1 - 4 / 6  # reference 1 first: (1, 0), then (0, 1)
    assert cluval_core.criterion_h(a, b, pairing="optimal") == 1 - 4 / 6


# ------------------------------------------------------------------ derived facts and search
@pytest.mark.parametrize("index_id", list(INDICES))
def test_derived_facts_follow_their_one_source(index_id):
    info = INDICES[index_id]
    assert info.kind == ("similarity" if info.higher_is_better else "distance")
    assert info.best == (info.range[1] if info.higher_is_better else info.range[0])
    assert info.call.startswith(f"cluval_core.{info.function.__name__}(labels_true, labels_pred")
    assert ("X=X" in info.call) == info.needs_data


@pytest.mark.parametrize("query, expected", [
    ("ari", ["ari"]), ("ARI", ["ari"]), ("Rand", ["ri", "ari", "sri", "pmi2", "mari"]),
    ("psi", ["psi", "psi_simplified"]),
    ("centroid", ["ci_partition", "csi_partition", "ci_centroid", "csi_centroid", "cr"]),
    ("nmi_max", ["nmi_max"]), ("  Fowlkes-Mallows ", ["fowlkes_mallows", "afm"]),
    ("van dongen", ["nvd", "split_join_true", "split_join_pred"]),
    ("arith", ["nmi_sum"]), ("Meila", ["vi", "ch_greedy", "ch_optimal"]), ("zzz", []),
    ("chance", [i for i, info in INDICES.items() if info.chance_adjusted]),
    ("tie", [i for i, info in INDICES.items() if info.tie_dependent]),
])
def test_find_indices_by_id_name_family_property_or_author(query, expected):
    assert [info.id for info in find_indices(query)] == expected


def test_an_empty_search_finds_every_index():
    assert [info.id for info in find_indices("")] == list(INDICES)
    assert [info.id for info in find_indices("  ")] == list(INDICES)
