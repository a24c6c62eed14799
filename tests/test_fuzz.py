"""Hypothesis fuzzing of the public functions with hostile input (issue 8, "Tests").

Four kinds of input: label vectors, tables, membership matrices and coordinates, each drawn
from ordinary and hostile sub-kinds (mixed types, huge and unsigned ints, floats, NaN/None/inf,
empty, length 1; negative, NaN, huge, empty, sparse tables; memberships that do not sum to 1,
underflow or are one-hot; huge, tiny, constant, duplicated coordinates). Every call must end
in one of two ways:

* every value of ``scores()`` (and of the one-line functions) is a ``float`` inside the
  registry's range of its index, or NaN;
* a :class:`CluvalError` is raised.

Nothing else: no other exception, no warning other than a ``CluvalWarning``. Valid input must
also give the same values under any bijection of its labels (equal, or both NaN).

Run with ``-s`` to see how many inputs of each kind were tried and what they gave, or with
``--hypothesis-show-statistics`` for the same as hypothesis events.
"""

from __future__ import annotations

import collections
import math
import warnings

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import cluval_core
from cluval_core import INDICES, CluvalError, Comparison, compare

# On a failure hypothesis' pytest plugin imports this module to suggest a patch; it imports
# libcst, whose mypy_extensions.TypedDict raises a DeprecationWarning that the strict warning
# filter turns into an INTERNALERROR hiding the falsifying example. Import it once, quietly.
with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    try:
        import hypothesis.extra._patching  # noqa: F401 - imported for its side effect, see above
    except ImportError:
        pass



def fuzz(max_examples: int):
    """Settings for one fuzz test (on top of the profile conftest.py loads: derandomised in CI)."""
    return settings(max_examples=max_examples, deadline=None, suppress_health_check=[
        HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])

# (test, kind, outcome) -> inputs tried
TRIED: collections.Counter = collections.Counter()


@pytest.fixture(scope="module", autouse=True)
def _print_what_was_tried():
    yield
    if not TRIED:
        return
    lines = ["", "hostile inputs tried (test / kind / outcome: count)"]
    for test in sorted({t for t, _, _ in TRIED}):
        total = sum(v for (t, _, _), v in TRIED.items() if t == test)
        lines.append(f"  {test}: {total}")
        for (t, kind, outcome), count in sorted(TRIED.items()):
            if t == test:
                lines.append(f"    {kind:<28} {outcome:<28} {count}")
    print("\n".join(lines))


def _record(test: str, kind: str, outcome: str) -> None:
    TRIED[test, kind, outcome] += 1
    event(f"{kind}: {outcome}")


def _run(call):
    """Call; return (result or the CluvalError, whether a CluvalWarning was given).

    Any other exception propagates (and fails the test); any other warning fails it too.
    """
    allowed = getattr(cluval_core, "CluvalWarning", None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = call()
        except CluvalError as exc:
            result = exc
    stray = [w for w in caught if allowed is None or not issubclass(w.category, allowed)]
    assert not stray, f"a warning escaped: {stray[0].category.__name__}: {stray[0].message}"
    return result, bool(caught)


def _check_value(index_id: str, value) -> None:
    assert type(value) is float, (index_id, type(value))
    lo, hi = INDICES[index_id].range
    assert math.isnan(value) or lo <= value <= hi, f"{index_id} = {value!r} outside [{lo}, {hi}]"


def _outcome(result, warned: bool) -> str:
    if isinstance(result, CluvalError):
        text = "CluvalError"
    elif isinstance(result, dict) and any(math.isnan(v) for v in result.values()):
        text = "values, some NaN"
    else:
        text = "values"
    return text + (" (+warning)" if warned else "")


def _check_scores(result) -> None:
    if isinstance(result, CluvalError):
        return
    assert isinstance(result, dict) and result
    for index_id, value in result.items():
        _check_value(index_id, value)


def _same_scores(x: dict, y: dict) -> bool:
    return set(x) == set(y) and all(x[i] == y[i] or (math.isnan(x[i]) and math.isnan(y[i])) for i in x)


# ====================================================================== label atoms
# Hashable values that may serve as labels, by kind. Atoms of one partition are made pairwise
# unequal as Python values (1, 1.0 and True are one value), so that a partition is well defined.

ATOMS = {
    "small ints": st.integers(-3, 5),
    "huge ints": st.one_of(st.integers(2**53 - 2, 2**53 + 2), st.integers(2**63 - 2, 2**64 + 2),
                           st.integers(-2**64, -2**63 + 2), st.integers(-2**80, 2**80)),
    "floats": st.floats(allow_nan=False, allow_infinity=False, width=64),
    "strings": st.text(max_size=4),
    # unequal strings that conversions may merge: trailing NULs (numpy strips them), case,
    # composed and decomposed accents, bytes against str
    "near-equal strings": st.sampled_from(["", "\x00", "a", "a\x00", "a\x00\x00", "\x00a", "A", "a ", "\u00e1",
                                           "a\u0301", b"a", b"a\x00", "1", "1.0", "01", "None", "nan", "NA"]),
    "bytes": st.binary(max_size=3),
    "bools": st.booleans(),
    "complex": st.complex_numbers(allow_nan=False, allow_infinity=False, max_magnitude=1e6),
    "tuples": st.tuples(st.integers(-2, 2), st.text(max_size=1)),
    "frozensets": st.frozensets(st.integers(0, 3), max_size=3),
}
ATOMS["mixed"] = st.one_of(*ATOMS.values())
UNSIGNED = {"uint8": np.uint8, "uint16": np.uint16, "uint32": np.uint32, "uint64": np.uint64}
MISSING = [None, float("nan"), float("inf"), -float("inf"), np.nan, pd.NA, pd.NaT, np.float64("nan")]


@st.composite
def partitions(draw, n=None, k_max=5):
    """(codes, n): a partition of n objects as cluster codes 0..k-1 in first-occurrence order."""
    n = draw(st.integers(2, 10)) if n is None else n
    k = draw(st.integers(1, min(k_max, n)))
    codes = draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
    first = {}
    return [first.setdefault(c, len(first)) for c in codes]


@st.composite
def atoms(draw, k):
    """(kind, k pairwise-unequal atoms, numpy dtype or None)."""
    kind = draw(st.sampled_from([kind for kind in [*ATOMS, *UNSIGNED] if k <= 2 or kind != "bools"]))
    if kind in UNSIGNED:
        top = int(np.iinfo(UNSIGNED[kind]).max)
        values = draw(st.lists(st.integers(max(0, top - 300), top) | st.integers(0, top), min_size=k, max_size=k,
                               unique=True))
        return kind, values, UNSIGNED[kind]
    # unique=True compares like a dict's keys, i.e. as Python values: 1, 1.0 and True collide
    return kind, draw(st.lists(ATOMS[kind], min_size=k, max_size=k, unique=True)), None


@st.composite
def label_vector(draw, codes, atom_draw=None, unambiguous=False):
    """(kind, format, labels) for a partition given by `codes`, in a random container format.

    With `unambiguous`, a list whose values numpy would read as a 2-D array (all tuples of one
    length) is given as an object array instead: such a list may be refused as not 1-D."""
    kind, pool, dtype = atom_draw if atom_draw is not None else draw(atoms(max(codes) + 1))
    values = [pool[c] for c in codes]
    fmt = draw(st.sampled_from(["list", "array", "object array", "series", "tuple"]))
    if dtype is not None:
        fmt = draw(st.sampled_from(["array", "series"]))
        labels = np.array(values, dtype=dtype)
        return kind, fmt, labels if fmt == "array" else pd.Series(labels)
    obj = np.empty(len(values), dtype=object)
    obj[:] = values
    if unambiguous and fmt in ("list", "tuple", "array") and all(isinstance(v, tuple) for v in values):
        fmt = "object array"
    if fmt == "list":
        return kind, fmt, values
    if fmt == "tuple":
        return kind, fmt, tuple(values)
    if fmt == "object array":
        return kind, fmt, obj
    if fmt == "series":
        return kind, fmt, pd.Series(obj)
    try:  # numpy's own dtype for these values, when it has one
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            arr = np.array(values)
    except (ValueError, TypeError, OverflowError):
        return kind, "object array", obj
    if arr.ndim != 1 or len(arr) != len(values):
        return kind, "object array", obj
    if len(set(arr.tolist())) < len(set(values)):  # numpy's dtype merged unequal labels ("" and "\x00" in U1)
        return kind, "object array", obj
    return kind, fmt, arr


@st.composite
def hostile_labels(draw):
    """(kind, labels_true, labels_pred): valid vectors, or one of the ways to get them wrong."""
    codes = draw(partitions())
    other = draw(partitions(n=len(codes)))
    kind, fmt, a = draw(label_vector(codes))
    _, _, b = draw(label_vector(other))
    damage = draw(st.sampled_from(["none", "none", "none", "missing", "empty", "length 1", "lengths differ",
                                   "container", "2-D", "swap sides"]))
    if damage == "missing":
        values = list(a)
        values[draw(st.integers(0, len(values) - 1))] = draw(st.sampled_from(MISSING))
        a = values if draw(st.booleans()) else pd.Series(values, dtype=object)
    elif damage == "empty":
        a, b = draw(st.sampled_from([([], []), (np.array([]), np.array([])), (pd.Series([], dtype=float), [])]))
    elif damage == "length 1":
        a, b = list(a)[:1], list(b)[:1]
    elif damage == "lengths differ":
        b = list(b)[:-1]
    elif damage == "container":
        a = draw(st.sampled_from([
            set(range(len(codes))), frozenset(range(len(codes))), dict(enumerate(codes)),
            pd.DataFrame({"x": codes, "y": codes}), "abc"[: len(codes)], 7,
        ]))
    elif damage == "2-D":
        a = np.array(codes)[:, None].repeat(2, axis=1)
    elif damage == "swap sides":
        a, b = b, a
    label = f"{kind} ({fmt})" if damage in ("none", "swap sides") else damage
    return label, a, b


# the public one-line functions: (function, option, {valid option value: index id}, X needed)
ONE_LINE = [
    (cluval_core.rand_score, None, {None: "ri"}),
    (cluval_core.adjusted_rand_score, None, {None: "ari"}),
    (cluval_core.fowlkes_mallows_score, None, {None: "fowlkes_mallows"}),
    (cluval_core.adjusted_fowlkes_mallows_score, None, {None: "afm"}),
    (cluval_core.mutual_info_score, None, {None: "mi"}),
    (cluval_core.normalized_mutual_info_score, "average_method",
     {"arithmetic": "nmi_sum", "geometric": "nmi_sqrt", "max": "nmi_max", "min": "nmi_min", "joint": "nmi_joint"}),
    (cluval_core.adjusted_mutual_info_score, "average_method",
     {"arithmetic": "ami", "geometric": "ami_sqrt", "max": "ami_max", "min": "ami_min"}),
    (cluval_core.variation_of_information, None, {None: "vi"}),
    (cluval_core.normalized_variation_of_information, None, {None: "nvi"}),
    (cluval_core.f_measure, "over", {"true": "f_measure", "pred": "f_measure_pred"}),
    (cluval_core.purity_score, "inverse", {False: "purity", True: "purity_inverse"}),
    (cluval_core.van_dongen_distance, None, {None: "nvd"}),
    (cluval_core.criterion_h, "pairing", {"greedy": "ch_greedy", "optimal": "ch_optimal"}),
    (cluval_core.pivoted_accuracy, None, {None: "pa"}),
    (cluval_core.normalized_accuracy, None, {None: "na"}),
    (cluval_core.adjusted_asymmetric_accuracy, None, {None: "aaa"}),
    (cluval_core.pair_sets_index, "simplified", {False: "psi", True: "psi_simplified"}),
    (cluval_core.centroid_index, None, {None: "ci_partition"}),
    (cluval_core.centroid_similarity_index, None, {None: "csi_partition"}),
]
BAD_OPTIONS = ["typo", "", None, 1, 0, "True", 1.5]
# scikit-learn's names, whose calls they accept exactly: 1.0 for fewer than 2 objects
SKLEARN_SMALL = {cluval_core.normalized_mutual_info_score, cluval_core.adjusted_mutual_info_score}


@fuzz(150)
@given(hostile_labels(), st.data())
def test_fuzz_labels_give_values_in_range_or_a_clear_error(case, data):
    kind, a, b = case
    result, warned = _run(lambda: compare(a, b).scores())
    _check_scores(result)
    _record("labels: compare().scores()", kind, _outcome(result, warned))
    # and one public one-line function, with a valid or a hostile option value
    function, option, valid = data.draw(st.sampled_from(ONE_LINE))
    kwargs, index_id = {}, valid.get(None)
    if option is not None:
        value = data.draw(st.sampled_from([*valid, *BAD_OPTIONS]))
        kwargs[option] = value
        index_id = valid.get(value) if any(value is v or (type(value) is type(v) and value == v) for v in valid) \
            else None
    value, warned = _run(lambda: function(a, b, **kwargs))
    if index_id is None:  # an invalid option value is refused, whatever the labels
        assert isinstance(value, CluvalError), (function.__name__, kwargs, value)
    elif function in SKLEARN_SMALL and isinstance(result, CluvalError) and not isinstance(value, CluvalError):
        assert value == 1.0 and ("at least 2 objects" in str(result) or "is empty" in str(result))  # sklearn: N < 2
    elif not isinstance(value, CluvalError):
        _check_value(index_id, value)
        assert isinstance(result, dict)
        assert value == result[index_id] or (math.isnan(value) and math.isnan(result[index_id]))
    else:
        assert isinstance(result, CluvalError), (function.__name__, value)  # same input, same verdict
    _record("labels: one-line functions", "valid option" if index_id else "invalid option",
            "CluvalError" if isinstance(value, CluvalError) else "value")


@st.composite
def relabelled_pair(draw):
    """(kind, a, b, a2, b2): a valid pair and the same partitions under other labels."""
    codes_a = draw(partitions())
    codes_b = draw(partitions(n=len(codes_a)))
    out = []
    for codes in (codes_a, codes_b):
        k = max(codes) + 1
        before = draw(atoms(k))
        after = draw(atoms(k))
        perm = draw(st.permutations(range(k)))
        kind_1, fmt_1, labels = draw(label_vector(codes, before, unambiguous=True))
        kind_2, fmt_2, relabelled = draw(label_vector([perm[c] for c in codes], after, unambiguous=True))
        out.append((f"{kind_1} -> {kind_2}", labels, relabelled))
    (kind, a, a2), (_, b, b2) = out
    return kind, a, b, a2, b2


@fuzz(100)
@given(relabelled_pair())
def test_fuzz_relabelling_changes_no_value(case):
    kind, a, b, a2, b2 = case
    base, _ = _run(lambda: compare(a, b).scores())
    other, _ = _run(lambda: compare(a2, b2).scores())
    # labels with pairwise different values, at least 2 objects: always valid
    assert not isinstance(base, CluvalError), base
    assert not isinstance(other, CluvalError), other
    _check_scores(base)
    assert set(base) == set(other)
    diff = {i: (base[i], other[i]) for i in base if not _same_scores({i: base[i]}, {i: other[i]})}
    assert not diff, diff
    _record("labels: relabelling", kind.split(" -> ")[0], "same values")


# ====================================================================== tables

@st.composite
def hostile_tables(draw):
    """(kind, table): counts, or one of many ways a table may be odd or wrong."""
    kind = draw(st.sampled_from(["counts", "counts", "floats", "tiny floats", "huge ints", "uint64", "huge floats",
                                 "negative", "nan", "inf", "zero rows/cols", "all zero", "1x1", "empty",
                                 "sparse", "dataframe", "bool", "object"]))
    r, c = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    shape = (r, c)
    counts = np.array(draw(st.lists(st.integers(0, 6), min_size=r * c, max_size=r * c))).reshape(shape)
    if kind in ("counts", "zero rows/cols", "sparse", "dataframe"):
        table = counts
        if kind == "zero rows/cols":
            table = np.insert(np.insert(counts, draw(st.integers(0, r)), 0, axis=0), draw(st.integers(0, c)), 0, axis=1)
        if kind == "sparse":
            table = draw(st.sampled_from([sp.csr_matrix, sp.coo_matrix, sp.csc_matrix, sp.csr_array]))(counts)
        if kind == "dataframe":
            table = pd.DataFrame(counts, index=[f"r{i}" for i in range(r)], columns=[f"c{j}" for j in range(c)])
        return kind, table
    if kind == "floats":
        return kind, counts * draw(st.floats(0.01, 100)) + np.array(
            draw(st.lists(st.floats(0, 1), min_size=r * c, max_size=r * c))).reshape(shape)
    if kind == "tiny floats":
        return kind, counts * np.array(draw(st.lists(st.sampled_from([1.0, 1e-150, 1e-300, 5e-324, 1e-320, 0.5]),
                                                     min_size=r * c, max_size=r * c))).reshape(shape)
    if kind in ("huge ints", "uint64"):
        # magnitudes, not a range: a shrinking hypothesis moves between these and never through
        # the 1e8..1e10 region, where a table costs gigabytes if the expected mutual
        # information is not bounded (sizes from 2**40 up fail at once instead)
        magnitudes = [0, 1, 2, 3, 7, 10**5, 2**40, 2**53 + 1, 2**61, 2**62, 2**63 + 1, 2**64 - 1]
        values = draw(st.lists(st.sampled_from(magnitudes + ([2**66] if kind == "huge ints" else [])),
                               min_size=r * c, max_size=r * c))
        if kind == "uint64":
            return kind, np.array(values, dtype=np.uint64).reshape(shape)
        return kind, [values[i * c:(i + 1) * c] for i in range(r)]
    if kind == "huge floats":  # 1.7e308 * 6 is inf: the table then holds infinities
        with np.errstate(over="ignore"):
            return kind, counts * draw(st.sampled_from([1e15, 1e19, 1e300, 1.7e308]))
    if kind in ("negative", "nan", "inf"):
        table = counts.astype(float)
        bad = {"negative": -draw(st.sampled_from([1.0, 1e-300, 2.0**62])), "nan": np.nan, "inf": np.inf}[kind]
        table[draw(st.integers(0, r - 1)), draw(st.integers(0, c - 1))] = bad
        return kind, table if kind != "negative" or draw(st.booleans()) else table.astype(np.int64)
    if kind == "all zero":
        return kind, np.zeros(shape, dtype=draw(st.sampled_from([np.int64, np.float64])))
    if kind == "1x1":
        return kind, [[draw(st.integers(0, 5) | st.floats(0, 10))]]
    if kind == "empty":
        return kind, np.zeros(draw(st.sampled_from([(0, 0), (0, 3), (3, 0)])))
    if kind == "bool":
        return kind, counts > 2
    return kind, np.array(counts.tolist(), dtype=object)  # object


@fuzz(150)
@given(hostile_tables(), st.data())
def test_fuzz_tables_give_values_in_range_or_a_clear_error(case, data):
    kind, table = case
    result, warned = _run(lambda: Comparison.from_table(table).scores())
    _check_scores(result)
    _record("tables: from_table", kind, _outcome(result, warned))
    if isinstance(table, np.ndarray):  # the public constructor validates alike
        direct, _ = _run(lambda: Comparison(table).scores())
        assert isinstance(direct, CluvalError) == isinstance(result, CluvalError), (direct, result)
        if not isinstance(result, CluvalError):
            assert _same_scores(direct, result)
    if isinstance(result, CluvalError):
        return
    # naming the clusters changes nothing (row and column order, the tie order, is kept)
    shape = np.shape(table.toarray() if hasattr(table, "toarray") else np.asarray(table))
    names = data.draw(st.sampled_from(["strings", "negative ints", "mixed"]))
    rows = {"strings": [f"g{i}" for i in range(shape[0])], "negative ints": [-5 - 7 * i for i in range(shape[0])],
            "mixed": [(i, "x") if i % 2 else 2**70 + i for i in range(shape[0])]}[names]
    cols = [f"p{j}" if j % 2 else -j for j in range(shape[1])]
    named, _ = _run(lambda: Comparison.from_table(np.asarray(table.toarray() if hasattr(table, "toarray") else table),
                                                  row_labels=rows, col_labels=cols).scores())
    assert not isinstance(named, CluvalError), named
    assert _same_scores(named, result)


# ====================================================================== memberships

@st.composite
def membership_matrix(draw, n, name):
    """(kind, matrix n x K)."""
    k = draw(st.integers(1, 4))
    kind = draw(st.sampled_from(["soft", "soft", "one-hot", "near one-hot", "uniform", "underflow",
                                 "sum != 1", "negative", "nan", "inf", "1-D", "object rows"]))
    raw = np.array(draw(st.lists(st.floats(0, 1), min_size=n * k, max_size=n * k))).reshape(n, k)
    hot = np.eye(k)[draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))]
    if kind in ("soft", "sum != 1", "negative", "nan", "inf"):
        raw[raw.sum(axis=1) == 0] = 1.0
        m = raw / raw.sum(axis=1, keepdims=True)
        if kind == "sum != 1":
            m[draw(st.integers(0, n - 1))] *= draw(st.sampled_from([0.5, 1.01, 2.0, 0.0, 1 + 1e-5]))
        elif kind in ("negative", "nan", "inf"):
            m[draw(st.integers(0, n - 1)), draw(st.integers(0, k - 1))] = {"negative": -1e-3, "nan": np.nan,
                                                                            "inf": np.inf}[kind]
        return kind, m
    if kind == "one-hot":
        return kind, hot
    if kind == "near one-hot":
        eps = draw(st.sampled_from([1e-9, 1e-12, 1e-15]))
        return kind, (hot + eps) / (1 + k * eps)
    if kind == "uniform":
        return kind, np.full((n, k), 1 / k)
    if kind == "underflow":
        tiny = draw(st.sampled_from([1e-300, 3e-162, 1e-200, 5e-324, 1e-310]))
        m = hot.copy()
        m[m == 0] = tiny
        return kind, m
    if kind == "1-D":
        return kind, hot[:, 0]
    return kind, [list(row) for row in hot]  # object rows: nested lists


@st.composite
def hostile_memberships(draw):
    n = draw(st.integers(1, 10))
    kind_u, U = draw(membership_matrix(n, "U"))
    kind_v, V = draw(membership_matrix(n, "V"))
    if draw(st.integers(0, 9)) == 0:  # numbers of objects differ
        V = np.asarray(V)[:-1] if np.ndim(V) == 2 else V
        kind_v = "fewer objects"
    return f"{kind_u} / {kind_v}" if kind_u != kind_v else kind_u, U, V


@fuzz(150)
@given(hostile_memberships(), st.data())
def test_fuzz_memberships_give_values_in_range_or_a_clear_error(case, data):
    kind, U, V = case
    result, warned = _run(lambda: Comparison.from_memberships(U, V).scores())
    _check_scores(result)
    _record("memberships: from_memberships", kind, _outcome(result, warned))
    if isinstance(result, CluvalError):
        return
    k_a, k_b = np.shape(U)[1], np.shape(V)[1]
    rows = data.draw(st.permutations([f"u{i}" for i in range(k_a)]))
    cols = data.draw(st.permutations(list(range(-k_b, 0))))
    named, _ = _run(lambda: Comparison.from_memberships(U, V, row_labels=rows, col_labels=cols).scores())
    assert not isinstance(named, CluvalError), named
    assert _same_scores(named, result)


# ====================================================================== coordinates

@st.composite
def hostile_coordinates(draw, n):
    """(kind, X of n rows)."""
    d = draw(st.integers(1, 3))
    kind = draw(st.sampled_from(["normal", "grid", "huge", "tiny", "subnormal", "constant", "duplicated",
                                 "mixed scales", "shifted", "nan", "inf", "wrong rows", "no features"]))
    base = np.array(draw(st.lists(st.floats(-10, 10, allow_subnormal=False), min_size=n * d, max_size=n * d))
                    ).reshape(n, d)
    grid = np.array([[(i // 3**j) % 3 for j in range(d)] for i in range(n)], dtype=float)
    if kind == "normal":
        return kind, base
    if kind == "grid":
        return kind, grid
    if kind == "huge":
        return kind, grid * draw(st.sampled_from([1e150, 1e200, 1e300, 8.9e307 / 2]))
    if kind == "tiny":
        return kind, grid * draw(st.sampled_from([1e-150, 1e-200, 1e-300, 2.2250738585072014e-308]))
    if kind == "subnormal":
        return kind, grid * draw(st.sampled_from([5e-324, 1e-320, 1e-315]))
    if kind == "constant":
        return kind, np.full((n, d), draw(st.sampled_from([0.0, 7.0, -1e300, 1e-300])))
    if kind == "duplicated":
        points = base[: draw(st.integers(1, min(3, n)))]
        return kind, points[np.arange(n) % len(points)]
    if kind == "mixed scales":
        return kind, grid * np.array([1e-200, 1.0, 1e200][:d])
    if kind == "shifted":
        return kind, grid + draw(st.sampled_from([1e10, -1e15, 1e300]))
    if kind in ("nan", "inf"):
        X = grid.copy()
        X[draw(st.integers(0, n - 1)), draw(st.integers(0, d - 1))] = np.nan if kind == "nan" else -np.inf
        return kind, X
    if kind == "wrong rows":
        return kind, grid[:-1]
    return kind, np.zeros((n, 0))


X_IDS = [i for i, info in INDICES.items() if info.needs_data]


@fuzz(100)
@given(st.data())
def test_fuzz_coordinates_give_values_in_range_or_a_clear_error(data):
    codes_a = data.draw(partitions(k_max=4))
    codes_b = data.draw(partitions(n=len(codes_a), k_max=4))
    kind, X = data.draw(hostile_coordinates(len(codes_a)))
    a, b = np.array(codes_a), np.array(codes_b)
    result, warned = _run(lambda: compare(a, b, X=X).scores())
    _check_scores(result)
    _record("coordinates: compare(X=...)", kind, _outcome(result, warned))
    if isinstance(result, CluvalError):
        return
    assert set(X_IDS) <= set(result)
    # relabelling (a bijection to strings and one to negative ints) changes nothing
    perm_a = data.draw(st.permutations(range(max(codes_a) + 1)))
    perm_b = data.draw(st.permutations(range(max(codes_b) + 1)))
    a2 = np.array([f"k{perm_a[c]}" for c in codes_a])
    b2 = np.array([-1 - 2 * perm_b[c] for c in codes_b])
    other, _ = _run(lambda: compare(a2, b2, X=X).scores())
    assert not isinstance(other, CluvalError), other
    assert _same_scores(other, result), {i: (result[i], other[i]) for i in result if result[i] != other[i]}
    # scaling by a power of two is exact: the X-based results stay the same while every
    # coordinate stays a normal, finite float
    X = np.asarray(X, dtype=float)
    nonzero = np.abs(X[X != 0])
    if nonzero.size and nonzero.min() > 2.0**-1000 and nonzero.max() < 2.0**1000:
        lo = math.ceil(-1000 - math.log2(nonzero.min()))
        hi = math.floor(1000 - math.log2(nonzero.max()))
        if lo <= hi:
            power = data.draw(st.integers(lo, hi))
            scaled, _ = _run(lambda: compare(a, b, X=np.ldexp(X, power)).scores(X_IDS))
            assert not isinstance(scaled, CluvalError), scaled
            assert _same_scores(scaled, {i: result[i] for i in X_IDS}), (power, scaled)
    _record("coordinates: relabelled and scaled", kind, "same values")
