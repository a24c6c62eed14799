r"""Which index has which property: the property atlas.

The papers that compare external validity indices list properties an index may have, and
tables of which index has which. Here each property is written as a check over a few
partitions of the same objects (``A`` the reference, as the rows of a table), and each pair
(index, property) of the atlas is in one of three states:

* ``"proved"``: a published proof, whose citation :data:`PROVED` gives (the searches still
  run on it: a counterexample to a proved claim is a defect, and fails the test suite);
* ``"holds"``: no counterexample among the cases a search tried (their number is kept);
* ``"fails"``: a counterexample, the smallest the search found (fewest objects first), kept
  with its partitions, its coordinates and the index's values on each of its tables.

:data:`PROPERTIES` defines the properties, :func:`search` runs one property's search over
every index at once, :func:`build_atlas` runs them all, and :func:`atlas` reads the atlas
kept with the library (``atlas.json`` beside this module, written by ``cluval atlas --search
--out``) with the proved claims, as a DataFrame. :func:`verdicts` checks any case again.

Counting every object twice changes the Rand index (6/10 of the pairs agree, then 29/45) but
not the variation of information, which reads proportions only:

>>> verdicts("n_invariance", ([0, 0, 1, 1, 1], [0, 1, 1, 1, 1]), ["ri", "vi"])
{'ri': True, 'vi': False}
>>> atlas().set_index(["index", "property"]).loc[("ari", "constant_baseline"), "state"]
'proved'
>>> counterexample("ari", "distance").sentence()[:56]
'The gap from A to C, 1.17647, exceeds the way through B,'
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import cache
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd

from ..core.attainable import tables_with_margins
from ..core.chance import _exact_expectations as exact_expectations
from ..core.comparison import Comparison
from ..core.labels import compare
from ..core.registry import INDICES, get_index
from ..core.validation import CluvalError

__all__ = ["PROPERTIES", "PROVED", "STATES", "SHORT", "Property", "Counterexample", "search", "build_atlas", "atlas",
           "atlas_matrix", "differences", "verdicts", "counterexample", "filter_indices", "expected_values"]

STATES = {"proved": "proved", "holds": "holds on every case tried", "fails": "fails"}
# the properties' short names, for a matrix's column heads
SHORT = {"maximal_agreement": "MaxA", "minimal_agreement": "MinA", "symmetry": "Sym", "distance": "Dist",
         "monotonicity": "Mon", "strong_monotonicity": "SMon", "constant_baseline": "CB",
         "asymptotic_constant_baseline": "ACB", "homogeneity": "Hom", "completeness": "Comp", "rag_bag": "Rag",
         "size_vs_quantity": "SvQ", "lattice_alignment": "Lat", "convex_additivity": "Cvx", "n_invariance": "nInv",
         "normalisation": "Norm"}
TOLERANCE = 1e-9  # relative to max(1, |value|): what counts as equal
ATLAS_FILE = Path(__file__).with_name("atlas.json")
GOSGENS = "Gösgens, Tikhonov & Prokhorenkova (2021), Systematic analysis of cluster similarity indices, ICML"
AMIGO = ("Amigó, Gonzalo, Artiles & Verdejo (2009), A comparison of extrinsic clustering evaluation metrics, "
         "Inf. Retr. 12")
MEILA = "Meilă (2007), Comparing clusterings, an information based distance, J. Multivariate Anal. 98"
VINH = "Vinh, Epps & Bailey (2010), Information theoretic measures for clusterings comparison, JMLR 11"


# ---------------------------------------------------------------------------- partitions
def canonical(labels) -> np.ndarray:
    """The partition's labels renumbered 0, 1, ... in the order clusters first occur."""
    labels = np.asarray(labels)
    if labels.size == 0:
        return labels.astype(np.intp)
    _, first, inverse = np.unique(labels, return_index=True, return_inverse=True)
    return np.argsort(np.argsort(first))[inverse.ravel()]


def same_partition(a, b) -> bool:
    return np.array_equal(canonical(a), canonical(b))


def meet(a, b) -> np.ndarray:
    """The partition into the non-empty intersections of a's and b's clusters."""
    a, b = canonical(a), canonical(b)
    return canonical(a * (int(b.max(initial=0)) + 1) + b)


def _random_partition(rng, n: int, k: int | None = None) -> np.ndarray:
    k = int(rng.integers(1, n + 1)) if k is None else k
    return canonical(rng.integers(0, k, n))


def _refine(rng, a, parts: int = 3) -> np.ndarray:
    """A random refinement of `a`: each cluster cut into up to `parts` pieces."""
    return meet(a, rng.integers(0, parts, len(a)))


def _nearby(rng, a) -> np.ndarray:
    """A partition near `a`: a refinement, a coarsening, one object moved, or an unrelated one."""
    a = canonical(a)
    n, how = len(a), rng.integers(0, 4)
    if how == 0:
        return _refine(rng, a)
    if how == 1:  # merge some clusters
        k = int(a.max()) + 1
        return canonical(rng.integers(0, max(1, k - 1), k)[a])
    if how == 2:  # move one object to another (maybe new) cluster
        b = a.copy()
        b[rng.integers(0, n)] = rng.integers(0, int(a.max()) + 2)
        return canonical(b)
    return _random_partition(rng, n)


def _two(rng, n):
    a = _random_partition(rng, n)
    return a, _nearby(rng, a) if rng.random() < 0.6 else _random_partition(rng, n)


# ---------------------------------------------------------------------------- values of a case
@dataclass(frozen=True)
class Orientation:
    """Per index: +1 for a similarity, −1 for a distance, so that higher means closer; its best value; and
    whether its values can be negative."""

    ids: tuple
    sign: np.ndarray
    best: np.ndarray  # oriented
    negative: np.ndarray  # its range reaches below 0 (a correlation, an index adjusted for chance)

    @classmethod
    def of(cls, ids) -> Orientation:
        infos = [get_index(i) for i in ids]
        sign = np.array([1.0 if info.higher_is_better else -1.0 for info in infos])
        return cls(tuple(ids), sign, sign * np.array([info.best for info in infos]),
                   np.array([info.range[0] < 0 for info in infos]))


def _close(x, y) -> np.ndarray:
    """Equal within the tolerance (infinities equal to themselves; NaN equal to nothing)."""
    x, y = np.broadcast_arrays(np.asarray(x, float), np.asarray(y, float))
    with np.errstate(invalid="ignore"):
        near = np.abs(x - y) <= TOLERANCE * np.maximum(1.0, np.maximum(np.abs(x), np.abs(y)))
    return near | ((x == y) & np.isinf(x))


def _above(x, y) -> np.ndarray:
    """x > y beyond the tolerance (False where either is NaN)."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    with np.errstate(invalid="ignore"):
        return (x > y) & ~_close(x, y)


# ---------------------------------------------------------------------------- the properties
@dataclass(frozen=True)
class Property:
    """One property, as a check over a case: a few partitions of the same objects.

    ``generate(rng, n)`` draws a case of n objects (a tuple of label arrays, or None when the
    draw does not fit the property); ``tables(case)`` lists the comparisons the check needs, each
    ``(caption, labels_true, labels_pred, objects)`` where ``objects`` are the rows of the case's
    coordinates the comparison's objects take (an object may be repeated); and
    ``violated(values, orientation, case)`` reads the values (one row per comparison, one column
    per index) and says, per index, whether the case contradicts the property. An index undefined
    (NaN) on one of the ``defined_rows`` comparisons (default: all) cannot contradict there and
    the case is not counted for it; a NaN elsewhere is the violation's business. ``explain`` says
    in one sentence what a counterexample does; ``evaluate`` replaces the comparisons' scores
    where the check reads other numbers (expected values).
    """

    id: str
    name: str
    source: str
    definition: str
    generate: Callable
    tables: Callable
    violated: Callable
    explain: str
    sizes: tuple = tuple(range(2, 10))
    parts: tuple = ("A", "B")
    evaluate: Callable | None = None  # (case, X, ids) -> values, when not each comparison's scores
    detail: Callable | None = None  # (values of one index, its best value, is a similarity) -> a sentence
    defined_rows: tuple | None = None  # the comparisons whose NaN leaves a case out (default: all)


def _pairs(*triples):
    return [(caption, a, b, None) for caption, a, b in triples]


def _maximal_violated(v, o, case=None):
    return ~_close(v[0] * o.sign, o.best) | ~_above(o.best, v[1] * o.sign)


def _maximal_generate(rng, n):
    a, b = _two(rng, n)
    return None if same_partition(a, b) else (a, b)


def _minimal_generate(rng, n):
    """A and B with no pair of objects together in both (every cell of the table at most 1),
    often the two extremes (one cluster against singletons), or a random pair."""
    roll = rng.random()
    if roll < 0.3:
        return (np.zeros(n, int), np.arange(n)) if rng.random() < 0.5 else (np.arange(n), np.zeros(n, int))
    a = _random_partition(rng, n)
    if roll < 0.7:  # a B meeting each cluster of A at most once per cluster: round robin in each
        b = np.zeros(n, int)
        for cluster in np.unique(a):
            members = np.flatnonzero(a == cluster)
            b[members] = rng.permutation(len(members))
        return a, canonical(b)
    return a, _random_partition(rng, n)


def _minimal_tables(case):
    a, b = case
    n = len(a)
    one, apart = np.zeros(n, int), np.arange(n)
    three = np.arange(3)
    return [("A against B", a, b, None), ("one cluster against singletons", one, apart, None),
            ("singletons against one cluster", apart, one, None),
            ("one cluster against singletons, 3 objects", np.zeros(3, int), three, three),
            ("singletons against one cluster, 3 objects", three, np.zeros(3, int), three)]


def _minimal_violated(v, o, case):
    worst = v[1] * o.sign
    moving = ~_close(v[1], v[2]) | ~_close(v[1], v[3]) | ~_close(v[1], v[4])
    below = _above(worst, v[0] * o.sign)
    reached = _close(v[0], v[1]) & (not _extremes(*case))
    return moving | below | reached


def _trivial(labels) -> bool:
    """A single cluster, or all singletons."""
    k = int(canonical(labels).max()) + 1
    return k in (1, len(labels))


def _extremes(a, b) -> bool:
    """One partition is a single cluster and the other all singletons."""
    n = len(a)
    ka, kb = int(canonical(a).max()) + 1, int(canonical(b).max()) + 1
    return n > 1 and {ka, kb} == {1, n}


def _symmetry_violated(v, o, case=None):
    return ~_close(v[0], v[1])


def _distance_generate(rng, n):
    a = _random_partition(rng, n)
    b = _nearby(rng, a)
    c = _nearby(rng, b) if rng.random() < 0.7 else _random_partition(rng, n)
    return None if same_partition(a, b) else (a, b, c)


def _distance_violated(v, o, case=None):
    d = o.best - v * o.sign  # 0 at identical partitions, positive otherwise
    with np.errstate(invalid="ignore"):
        d_ab, d_ba, d_bc, d_ac, d_aa = d
        return (~_close(d_aa, 0.0) | ~_above(d_ab, 0.0) | ~_close(d_ab, d_ba) | _above(d_ac, d_ab + d_bc)
                | np.isnan(d_ab + d_bc + d_ac) | ~np.isfinite(o.best))


def perfect_split(rng, a, b):
    """B with one of its clusters cut in two along A's clusters (each of A's parts of it stays whole), or None."""
    a, b = canonical(a), canonical(b)
    candidates = [c for c in np.unique(b) if len(np.unique(a[b == c])) > 1]
    if not candidates:
        return None
    c = rng.choice(candidates)
    classes = np.unique(a[b == c])
    moved = rng.choice(classes, size=int(rng.integers(1, len(classes))), replace=False)
    out = b.copy()
    out[(b == c) & np.isin(a, moved)] = b.max() + 1
    return canonical(out)


def perfect_merge(rng, a, b):
    """B with two of its clusters that lie inside the same cluster of A merged, or None."""
    a, b = canonical(a), canonical(b)
    pure = {c: np.unique(a[b == c]) for c in np.unique(b)}
    pure = [c for c, classes in pure.items() if len(classes) == 1]
    pairs = [(c, d) for c, d in combinations(pure, 2) if a[b == c][0] == a[b == d][0]]
    if not pairs:
        return None
    c, d = pairs[rng.integers(0, len(pairs))]
    out = b.copy()
    out[b == d] = c
    return canonical(out)


def _monotone_generate(rng, n):
    a = _random_partition(rng, n)
    b = _nearby(rng, a) if rng.random() < 0.5 else _random_partition(rng, n)
    if rng.random() < 0.5:
        b = meet(b, _refine(rng, a, 2)) if rng.random() < 0.5 else b  # more clusters inside A's
        moved = perfect_merge(rng, a, b)
    else:
        moved = perfect_split(rng, a, b)
    return None if moved is None else (a, b, moved)


def _rises(v, o, case=None):
    return ~_above(v[1] * o.sign, v[0] * o.sign)


def _strong_generate(rng, n):
    """B' from B by moving one object from one cluster to another (maybe new) one so that the
    object gains at least as many pairs agreeing with A as it loses, and strictly more."""
    a = _random_partition(rng, n)
    b = _nearby(rng, a) if rng.random() < 0.5 else _random_partition(rng, n)
    x = int(rng.integers(0, n))
    target = int(rng.integers(0, int(b.max()) + 2))
    if target == b[x]:
        return None
    moved = b.copy()
    moved[x] = target
    same_a = a == a[x]
    same_a[x] = False
    before, after = (b == b[x]), (moved == target)
    before[x] = after[x] = False
    # agreeing pairs of x with the others: together in both, or apart in both
    agree_before = np.sum(same_a == before)
    agree_after = np.sum(same_a == after)
    # strong monotonicity: every pair that changes moves towards agreement
    gained = np.sum((same_a == after) & (same_a != before))
    lost = np.sum((same_a != after) & (same_a == before))
    if lost or not gained or agree_after <= agree_before:
        return None
    return a, b, canonical(moved)


def _baseline_configs(rng, n):
    """Two comparisons (A1, B1) of n1 objects and (A2, B2) of n − n1 objects, no partition trivial."""
    if n < 6:
        return None
    n1 = int(rng.integers(3, n - 2))
    parts = []
    for size in (n1, n - n1):
        a = _random_partition(rng, size, int(rng.integers(2, size)))
        b = _random_partition(rng, size, int(rng.integers(2, size)))
        if _trivial(a) or _trivial(b) or _arrangements(b) > 420:
            return None
        parts += [a, b]
    return tuple(parts)


@cache
def _arrangement_list(sizes: tuple) -> np.ndarray:
    """Every distinct labelling of sum(sizes) objects with clusters of these sizes, one per row."""
    n, rows = sum(sizes), []

    def place(free: tuple, k: int, labels: np.ndarray) -> None:
        if k == len(sizes):
            rows.append(labels.copy())
            return
        for chosen in combinations(free, sizes[k]):
            labels[list(chosen)] = k
            place(tuple(f for f in free if f not in chosen), k + 1, labels)

    place(tuple(range(n)), 0, np.zeros(n, np.intp))
    return np.array(rows)


def _arrangements(b) -> int:
    sizes = np.bincount(canonical(b))
    return math.factorial(len(b)) // math.prod(math.factorial(int(s)) for s in sizes)


def _baseline_tables(case):
    a1, b1, a2, b2 = case
    n1 = len(a1)
    return [("A₁ against B₁ (the value: the expected value over every arrangement of B₁)", a1, b1, np.arange(n1)),
            ("A₂ against B₂ (the value: the expected value over every arrangement of B₂)", a2, b2,
             np.arange(n1, n1 + len(a2)))]


def expected_values(a, b, ids, X=None) -> np.ndarray:
    """Each index's exact expected value under the permutation model (a fixed, b's objects shuffled),
    for small tables: the mean over every table with the margins, weighted by its hypergeometric
    probability; an index that reads the objects' coordinates (X) averages over every arrangement of b."""
    c = compare(a, b)
    rows, cols = np.asarray(c.row_sizes, int), np.asarray(c.col_sizes, int)
    n = int(rows.sum())
    log_fixed = sum(math.lgamma(v + 1) for v in (*rows, *cols)) - math.lgamma(n + 1)
    plain = [i for i in ids if not get_index(i).needs_data]
    data = [i for i in ids if get_index(i).needs_data]
    out = dict.fromkeys(ids, 0.0)
    for table in tables_with_margins(rows, cols):
        weight = math.exp(log_fixed - sum(math.lgamma(v + 1) for v in table.ravel()))
        scores = Comparison.from_table(table).scores(plain) if plain else {}
        for i in plain:
            out[i] += weight * scores[i]
    if data:
        arrangements = _arrangement_list(tuple(np.bincount(canonical(b)).tolist()))
        for arrangement in arrangements:
            scores = compare(a, arrangement, X=X).scores(data)
            for i in data:
                out[i] += scores[i] / len(arrangements)
    return np.array([out[i] for i in ids], float)


def _baseline_values(case, X, ids) -> np.ndarray:
    return np.array([expected_values(a, b, ids, X[objects]) for _, a, b, objects in _baseline_tables(case)])


def _constant_baseline_violated(v, o, case):
    return ~_close(v[0], v[1])


ACB_SCALES = (10, 100)  # each object of the product tables counted this many times


def _product(u, v) -> tuple[np.ndarray, np.ndarray]:
    """Labels of the table n_ij = u_i v_j, where the two partitions are independent."""
    table = np.outer(u, v)
    rows, cols = np.indices(table.shape)
    return np.repeat(rows.ravel(), table.ravel()), np.repeat(cols.ravel(), table.ravel())


def _asymptotic_generate(rng, n):
    """Two product tables (the two partitions independent), rows and columns weighted 1 to n − 2."""
    shapes = [(int(rng.integers(2, 4)), int(rng.integers(2, 4))) for _ in range(2)]
    weights = [rng.integers(1, n - 1, size=k) for shape in shapes for k in shape]
    first, second = _product(*weights[:2]), _product(*weights[2:])
    if len(first[0]) == len(second[0]) and all(np.array_equal(x, y) for x, y in zip(first, second)):
        return None
    return (*first, *second)


def _asymptotic_tables(case):
    a1, b1, a2, b2 = case
    n1, out = len(a1), []
    for t in ACB_SCALES:
        for which, a, b, offset in ((1, a1, b1, 0), (2, a2, b2, n1)):
            objects = np.repeat(np.arange(offset, offset + len(a)), t)
            out.append((f"product table {which}, each object {t} times (the value: its expected value, exact where a "
                        "closed form exists)", np.repeat(a, t), np.repeat(b, t), objects))
    return out


def _asymptotic_values(case, X, ids) -> np.ndarray:
    """Per product table: the exact expected value under the permutation model where the index has a
    closed form, otherwise the value of the product table itself (around which random tables with
    its margins concentrate as N grows)."""
    rows = []
    for _, a, b, objects in _asymptotic_tables(case):
        c = compare(a, b, X=X[objects])
        scores = c.scores(list(ids))
        expected = exact_expectations(c, ids)
        rows.append([expected[i][0] if i in expected else scores[i] for i in ids])
    return np.array(rows, float)


def _asymptotic_violated(v, o, case):
    """The two product tables' values stay apart (by more than 0.001, shrinking by less than half) as every
    count grows tenfold; an index with an asymptotic constant baseline brings them together."""
    small, large = np.abs(v[0] - v[1]), np.abs(v[2] - v[3])
    with np.errstate(invalid="ignore"):
        return (large > 1e-3) & (large > 0.5 * small)


def _homogeneity_generate(rng, n):
    a, b = _two(rng, n)
    two = [c for c in np.unique(b) if len(np.unique(a[b == c])) == 2]
    if not two:
        return None
    c = rng.choice(two)
    split = b.copy()
    first = a[b == c][0]
    split[(b == c) & (a != first)] = b.max() + 1
    return a, b, canonical(split)


def _completeness_generate(rng, n):
    a = _random_partition(rng, n)
    b = meet(_nearby(rng, a), _refine(rng, a, 2))
    merged = perfect_merge(rng, a, b)
    return None if merged is None else (a, b, merged)


def _background(rng, m: int, first_category: int, first_cluster: int):
    """m further objects with categories and clusters of their own (none shared with the construction)."""
    if m == 0:
        return np.zeros(0, int), np.zeros(0, int)
    return first_category + _random_partition(rng, m), first_cluster + _random_partition(rng, m)


def _rag_bag_generate(rng, n):
    """Categories: n_c items of one category, n_c single-item categories, one new single-item one."""
    size = int(rng.integers(2, max(3, (n - 1) // 2 + 1)))
    rest = n - (2 * size + 1)
    if rest < 0:
        return None
    cats = np.r_[np.zeros(size, int), 1 + np.arange(size), size + 1]
    clean_gets = np.r_[np.zeros(size, int), np.ones(size, int), 0]  # the new item in the clean cluster
    noisy_gets = np.r_[np.zeros(size, int), np.ones(size, int), 1]  # ... in the noisy one
    extra_a, extra_b = _background(rng, rest, size + 2, 2)
    a = np.r_[cats, extra_a]
    return a, np.r_[clean_gets, extra_b], np.r_[noisy_gets, extra_b]


def _size_quantity_generate(rng, n):
    """One cluster of m + 1 items of one category and m clusters of two items of a category each."""
    m = int(rng.integers(3, max(4, (n - 1) // 3 + 1)))
    rest = n - (m + 1 + 2 * m)
    if rest < 0:
        return None
    cats = np.r_[np.zeros(m + 1, int), np.repeat(1 + np.arange(m), 2)]
    d = np.r_[np.zeros(m + 1, int), np.repeat(1 + np.arange(m), 2)]
    one_off = d.copy()
    one_off[0] = m + 1  # one item of the big cluster on its own
    pairs_split = d.copy()
    pairs_split[m + 1::2] = m + 1 + np.arange(m)  # each two-item cluster cut into two singletons
    extra_a, extra_b = _background(rng, rest, m + 1, 2 * m + 2)
    a = np.r_[cats, extra_a]
    return a, np.r_[one_off, extra_b], np.r_[pairs_split, extra_b]


def _lattice_generate(rng, n):
    a, b = _two(rng, n)
    finer = _refine(rng, a, 2)
    finest = _refine(rng, finer, 2)
    return None if same_partition(a, b) else (a, b, finer, finest)


def _lattice_tables(case):
    a, b, finer, finest = case
    m = meet(a, b)
    return _pairs(("A against B", a, b), ("A against the meet of A and B", a, m), ("the meet against B", m, b),
                  ("A against C, a refinement of A", a, finer), ("C against D, a refinement of C", finer, finest),
                  ("A against D", a, finest))


def _lattice_violated(v, o, case=None):
    d = o.best - v * o.sign
    with np.errstate(invalid="ignore"):
        return ~_close(d[0], d[1] + d[2]) | ~_close(d[5], d[3] + d[4]) | ~np.isfinite(o.best)


def _convex_generate(rng, n):
    a = _random_partition(rng, n)
    b = _refine(rng, a, int(rng.integers(2, 4)))
    return None if same_partition(a, b) else (a, b)


def _convex_tables(case):
    a, b = case
    out = [("A against B, a refinement of A", a, b, None)]
    for cluster in np.unique(a):
        members = np.flatnonzero(a == cluster)
        if len(members) < 2:  # one object: the same partition on both sides, no distance
            continue
        out.append((f"A's cluster {cluster + 1} alone against B's pieces of it", np.zeros(len(members), int),
                    b[members], members))
    return out


def _convex_weights(a) -> np.ndarray:
    """The share of the objects in each of A's clusters of two objects or more, in the order
    :func:`_convex_tables` lists them (the labels' sorted order)."""
    sizes = np.unique(np.asarray(a), return_counts=True)[1]
    return sizes[sizes > 1] / len(a)


def _convex_violated(v, o, case):
    weights = _convex_weights(case[0])
    d = o.best - v * o.sign
    with np.errstate(invalid="ignore"):
        return ~_close(d[0], weights @ d[1:]) | ~np.isfinite(o.best) | np.isnan(d[1:]).any(axis=0)


def _n_invariance_tables(case):
    a, b = case
    objects = np.arange(len(a))
    return [("A against B", a, b, None), ("each object twice", np.r_[a, a], np.r_[b, b], np.r_[objects, objects])]


def _normalisation_violated(v, o, case=None):
    low = np.where(o.negative, -1.0, 0.0)
    with np.errstate(invalid="ignore"):
        return ~((v[0] >= low - TOLERANCE) & (v[0] <= 1 + TOLERANCE))


def _one_table(case):
    a, b = case
    return [("A against B", a, b, None)]


def _n(value: float) -> str:
    return f"{value:.6g}" if math.isfinite(value) else ("undefined" if math.isnan(value) else str(value))


def _gaps(v, best, similarity):
    return [(best - x) if similarity else (x - best) for x in v]


NO_FINITE_BEST = "The index has no finite best value, so no gap to it can be a distance."


def _distance_detail(v, best, similarity, case=None):
    d_ab, d_ba, d_bc, d_ac, d_aa = _gaps(v, best, similarity)
    if math.isfinite(d_ab + d_bc + d_ac) and d_ac > d_ab + d_bc:
        return (f"The gap from A to C, {_n(d_ac)}, exceeds the way through B, {_n(d_ab)} + {_n(d_bc)} = "
                f"{_n(d_ab + d_bc)}: the triangle inequality fails.")
    if not math.isfinite(best):
        return NO_FINITE_BEST
    return f"The gaps are {_n(d_ab)} (A to B), {_n(d_ba)} (B to A) and {_n(d_aa)} (A to A)."


def _rises_detail(v, best, similarity, case=None):
    before, after = v[0], v[1]
    word = "higher" if similarity else "lower"
    return f"The value goes from {_n(before)} to {_n(after)}; it should be {word}."


def _pair_detail(v, best, similarity, case=None):
    return f"The values are {_n(v[0])} and {_n(v[1])}; they should be equal."


def _maximal_detail(v, best, similarity, case=None):
    return f"A against itself scores {_n(v[0])} and A against a different B {_n(v[1])}; the best value is {_n(best)}."


def _minimal_detail(v, best, similarity, case=None):
    if any(math.isnan(x) for x in v[1:5]):
        return "The index is undefined at the extremes, so they reach no constant worst value."
    if not (math.isclose(v[1], v[2]) and math.isclose(v[1], v[3]) and math.isclose(v[1], v[4])):
        return (f"The extremes score {_n(v[1])} and {_n(v[2])} with {len(case[0])} objects and {_n(v[3])} and "
                f"{_n(v[4])} with 3: the worst value is not one constant.")
    return (f"The extremes score {_n(v[1])} and {_n(v[2])} (and {_n(v[3])} with 3 objects); A against B scores "
            f"{_n(v[0])}, which should be strictly better than the extremes.")


def _lattice_detail(v, best, similarity, case=None):
    if not math.isfinite(best):
        return NO_FINITE_BEST
    d = _gaps(v, best, similarity)
    return (f"A to B is {_n(d[0])}, A to the meet plus the meet to B is {_n(d[1] + d[2])}; A to D is {_n(d[5])}, "
            f"A to C plus C to D is {_n(d[3] + d[4])}. Each pair should be equal.")


def _convex_detail(v, best, similarity, case=None):
    if not math.isfinite(best):
        return NO_FINITE_BEST
    d = _gaps(v, best, similarity)
    average = float(_convex_weights(case[0]) @ np.asarray(d[1:], float))
    return (f"The gap to the refinement is {_n(d[0])}; the gaps of A's clusters taken whole are "
            f"{', '.join(_n(x) for x in d[1:])}, whose size-weighted average, {_n(average)}, should equal it.")


def _baseline_detail(v, best, similarity, case=None):
    return f"The expected values are {_n(v[0])} and {_n(v[1])}; a constant baseline makes them equal."


def _asymptotic_detail(v, best, similarity, case=None):
    return (f"Ten times over, the two tables' expected values are {_n(v[0])} and {_n(v[1])}; a hundred times over, "
            f"{_n(v[2])} and {_n(v[3])}: they do not come together.")


def _normalisation_detail(v, best, similarity, case=None):
    return f"The value is {_n(v[0])}, outside [0, 1] (and outside [−1, 1])." if v[0] < -1 or v[0] > 1 else \
        f"The value is {_n(v[0])}, outside [0, 1]."


def _move(key: str, name: str, source: str, definition: str, generate: Callable, move: str, explain: str) -> Property:
    """A property that asks a move of the candidate B to B′ (a case (A, B, B′)) to improve the value."""
    return Property(key, name, source, definition, generate,
                    lambda c: _pairs(("A against B", c[0], c[1]), (f"A against B′, {move}", c[0], c[2])),
                    _rises, explain, parts=("A", "B", "B′"))


PROPERTIES: dict[str, Property] = {p.id: p for p in [
    Property(
        "maximal_agreement", "Maximal agreement", GOSGENS,
        "Identical partitions score one constant (the index's best value), and no other pair of partitions reaches it.",
        _maximal_generate, lambda c: _pairs(("A against A", c[0], c[0]), ("A against B", *c)),
        _maximal_violated, "B differs from A, yet scores the best value, or A against itself does not."),
    Property(
        "minimal_agreement", "Minimal agreement", "generalised from " + GOSGENS + " (stated there for pair-counting "
        "indices)",
        "One constant worst value, scored by the two extremes (one cluster against all singletons, either way round, "
        "at any number of objects) and by no other pair of partitions. Gösgens et al. state it for pair-counting "
        "indices, as the minimum reached exactly when no pair of objects agrees (a = d = 0), which for N ≥ 3 are the "
        "two extremes.",
        _minimal_generate, _minimal_tables, _minimal_violated,
        "The extremes score different values (or none), or another pair scores as low as they do or lower.",
        sizes=tuple(range(3, 10)), defined_rows=(0,)),
    Property(
        "symmetry", "Symmetry", GOSGENS,
        "Swapping the reference and the candidate leaves the value unchanged.",
        _two, lambda c: _pairs(("A against B", c[0], c[1]), ("B against A", c[1], c[0])),
        _symmetry_violated, "Swapping the two partitions changes the value."),
    Property(
        "distance", "Distance", GOSGENS,
        "The gap to the best value (1 − value for a similarity in [·, 1], the value itself for a distance) is a "
        "metric: zero exactly for identical partitions, symmetric, and within the triangle inequality.",
        _distance_generate,
        lambda c: _pairs(("A against B", c[0], c[1]), ("B against A", c[1], c[0]), ("B against C", c[1], c[2]),
                         ("A against C", c[0], c[2]), ("A against A", c[0], c[0])),
        _distance_violated, "The gaps break the triangle inequality or symmetry, or a different B has no gap.",
        parts=("A", "B", "C")),
    _move(
        "monotonicity", "Monotonicity", GOSGENS,
        "A perfect split (a cluster of B cut in two without cutting any of A's parts of it) or a perfect merge (two "
        "clusters of B inside one cluster of A joined) of the candidate makes the value strictly better.",
        _monotone_generate, "a perfect move", "B′ is a perfect split or merge of B towards A, yet the value does not "
        "improve."),
    _move(
        "strong_monotonicity", "Strong monotonicity", "generalised from " + GOSGENS + " (stated there for "
        "pair-counting indices)",
        "Moving one object of the candidate so that no pair of objects loses agreement with the reference and some "
        "pair gains it makes the value strictly better. Gösgens et al. ask a pair-counting index to increase with a "
        "and d and to decrease with b and c, the four counts free; here N is fixed and the pairs that change all move "
        "to agreement, which every index can be asked.",
        _strong_generate, "one object moved", "Moving one object only adds agreeing pairs, yet the value does not "
        "improve."),
    Property(
        "constant_baseline", "Constant baseline", GOSGENS + "; " + VINH,
        "Under the permutation model (the candidate's objects shuffled, both partitions' cluster sizes kept) the "
        "expected value is one constant, whatever the cluster sizes.",
        _baseline_configs, _baseline_tables, _constant_baseline_violated,
        "The expected value under random arrangements differs between the two pairs of cluster sizes.",
        sizes=tuple(range(6, 11)), parts=("A₁", "B₁", "A₂", "B₂"), evaluate=_baseline_values),
    Property(
        "asymptotic_constant_baseline", "Asymptotic constant baseline", GOSGENS,
        "As the number of objects grows with the proportions of the cluster sizes fixed, the expected value under "
        "the permutation model tends to one constant, whatever the proportions. Checked on two product tables "
        "(n_ij = u_i v_j, the margins of independent partitions), every count 10 and then 100 times over: their "
        "expected values (exact where a closed form exists, otherwise the product table's own value, around which "
        "random tables concentrate) must come together. A finite check of a limit: weaker evidence than the other "
        "searches.",
        _asymptotic_generate, _asymptotic_tables, _asymptotic_violated,
        "Two tables of independent partitions keep different values as every count grows tenfold.",
        sizes=tuple(range(3, 7)), parts=("A₁", "B₁", "A₂", "B₂"), evaluate=_asymptotic_values),
    _move(
        "homogeneity", "Cluster homogeneity", AMIGO + ", constraint 1",
        "Splitting a candidate cluster that holds items of exactly two reference categories into those two "
        "categories makes the value strictly better.",
        _homogeneity_generate, "split by category", "Splitting a two-category cluster by category does not improve "
        "the value."),
    _move(
        "completeness", "Cluster completeness", AMIGO + ", constraint 2",
        "Merging two candidate clusters that hold items of one same reference category only makes the value strictly "
        "better.",
        _completeness_generate, "two pure clusters merged", "Merging two clusters of one category does not improve "
        "the value."),
    Property(
        "rag_bag", "Rag bag", AMIGO + ", constraint 3",
        "An item of a new category does less harm in a cluster that already mixes single-item categories (a rag "
        "bag) than in a clean cluster of one category of the same size.",
        _rag_bag_generate, lambda c: _pairs(("A against B, the new item in the clean cluster", c[0], c[1]),
                                            ("A against B′, the new item in the rag bag", c[0], c[2])),
        _rises, "Putting the new item in the rag bag instead of the clean cluster does not improve the value.",
        sizes=tuple(range(5, 13)), parts=("A", "B", "B′")),
    Property(
        "size_vs_quantity", "Cluster size vs quantity", AMIGO + ", constraint 4",
        "One item split off a cluster of m + 1 items of one category is a smaller error than m clusters of two items "
        "of one category each split into singletons (m ≥ 3).",
        _size_quantity_generate,
        lambda c: _pairs(("A against B, m two-item clusters split", c[0], c[2]),
                         ("A against B′, one item split off", c[0], c[1])),
        _rises, "Splitting one item off the big cluster does not score better than splitting every small cluster.",
        sizes=tuple(range(10, 16)), parts=("A", "B′", "B")),
    Property(
        "lattice_alignment", "Alignment with the lattice", MEILA,
        "Distances add up along the lattice of partitions: from A to B is from A to their meet (the intersections of "
        "their clusters) plus from the meet to B, and along a chain of refinements A ≥ C ≥ D, from A to D is from A "
        "to C plus from C to D (the distance being the gap to the best value).",
        _lattice_generate, _lattice_tables, _lattice_violated,
        "The distance through the meet, or along a chain of refinements, is not the direct distance.",
        parts=("A", "B", "C", "D")),
    Property(
        "convex_additivity", "Convex additivity", MEILA,
        "For a refinement B of A, the distance is the average, weighted by cluster size, of the distances between each "
        "of A's clusters taken whole and B's pieces of it.",
        _convex_generate, _convex_tables, _convex_violated,
        "The distance to the refinement is not the size-weighted average over A's clusters (or the index has no "
        "value for a cluster taken whole against its pieces).", defined_rows=(0,)),
    Property(
        "n_invariance", "n-invariance", MEILA,
        "The value depends on the proportions of the table only: every object counted twice leaves it unchanged.",
        _two, _n_invariance_tables, _symmetry_violated, "Counting every object twice changes the value."),
    Property(
        "normalisation", "Normalisation", VINH,
        "Every value lies in a fixed interval whatever the number of objects and the cluster sizes: [0, 1], or "
        "[−1, 1] for an index whose values can be negative (a correlation, an index adjusted for chance).",
        _two, _one_table, _normalisation_violated, "The value lies outside [0, 1] (or [−1, 1])."),
]}

_DETAILS = {"maximal_agreement": _maximal_detail, "minimal_agreement": _minimal_detail, "symmetry": _pair_detail,
            "distance": _distance_detail, "constant_baseline": _baseline_detail,
            "asymptotic_constant_baseline": _asymptotic_detail, "lattice_alignment": _lattice_detail,
            "convex_additivity": _convex_detail, "n_invariance": _pair_detail, "normalisation": _normalisation_detail}
PROPERTIES = {key: replace(prop, detail=_DETAILS.get(key, _rises_detail)) for key, prop in PROPERTIES.items()}

# Properties proved in the literature, per (index, property): the citation, with the argument in a
# few words where it is short. The searches run on these as on every other claim; a counterexample
# to one fails the test suite.
_HAMMING = ("the Hamming distance between the two co-membership relations, and a partition is determined by its "
            "relation (Mirkin 1996, Mathematical classification and clustering; " + MEILA + ")")
_METRICS = {
    "vi": MEILA + " (VI is a metric)",
    "mirkin": "Mirkin's metric is " + _HAMMING,
    "ri": "1 − RI = Mirkin / (N(N − 1)), and Mirkin's metric is " + _HAMMING,
    "pair_jaccard": "1 − J is the Jaccard distance between the sets of pairs together, a metric (Levandowsky & "
                    "Winter 1971, Distance between sets, Nature 234), and a partition is determined by its pairs",
    "nmi_max": "1 − NMI_max is the normalised information distance D_max; " + VINH + " (after Kraskov "
               "et al. 2005)",
    "nmi_joint": "1 − NMI_joint is the normalised variation of information D_joint; " + VINH + " (after "
                 "Kraskov et al. 2005)",
    "nvd": "van Dongen (2000), Performance criteria for graph clustering and Markov cluster experiments, CWI "
           "INS-R0012: the sum of the two projection distances is a metric",
    "pair_correlation_distance": "arccos of the correlation is the angle between the centred co-membership vectors; "
                                 + GOSGENS + " (where the correlation is defined: neither partition a single cluster "
                                 "nor all singletons)",
}
_AGREEING_PAIRS = "a strictly monotone function of the agreeing pairs a + d at a fixed N (" + GOSGENS + \
    ", for Rand)"
_CHANCE = {
    "ari": "Hubert & Arabie (1985), Comparing partitions, J. Classification 2: E[a] = m_a m_b / M, linear in a",
    **{i: VINH + ": E[MI] subtracted, the entropies fixed by the margins"
       for i in ("ami", "ami_sqrt", "ami_max", "ami_min")},
    "pair_correlation": GOSGENS + ": linear in a once the margins are fixed",
}
PROVED: dict[tuple[str, str], str] = {
    **{(i, "symmetry"): "its formula is symmetric in the two partitions (" + INDICES[i].reference + ")"
       for i in INDICES if INDICES[i].symmetric},
    **{(i, "distance"): why for i, why in _METRICS.items()},
    **{(i, "maximal_agreement"): "a metric is zero only between identical partitions: " + why
       for i, why in _METRICS.items()},
    **{(i, "constant_baseline"): why for i, why in _CHANCE.items()},
    **{(i, "asymptotic_constant_baseline"): "an exact constant baseline at every N: " + why
       for i, why in _CHANCE.items()},
    **{(i, prop): _AGREEING_PAIRS for i in ("ri", "mirkin", "hubert", "rogers_tanimoto", "sokal_sneath_2")
       for prop in ("monotonicity", "strong_monotonicity")},
    **{(i, "minimal_agreement"): "the worst value is reached exactly when a + d = 0, which for N ≥ 3 is one "
       "cluster against all singletons: " + _AGREEING_PAIRS for i in ("ri", "hubert", "rogers_tanimoto")},
    **{("vi", prop): MEILA for prop in ("n_invariance", "convex_additivity", "lattice_alignment")},
    **{("bcubed_f", prop): AMIGO + " (BCubed satisfies the four constraints)"
       for prop in ("homogeneity", "completeness", "rag_bag", "size_vs_quantity")},
}


# ---------------------------------------------------------------------------- checking a case
def _objects(prop: Property, case) -> int:
    """How many objects (rows of coordinates) the case's comparisons use."""
    return max(len(a) if objects is None else int(np.max(objects)) + 1 for _, a, _, objects in prop.tables(case))


def _coordinates(rng, n: int) -> np.ndarray:
    """Objects' coordinates for the indices that need data: two decimals, so a kept case is exact."""
    return np.round(rng.normal(size=(n, 2)), 2)


def _values(prop: Property, case, X: np.ndarray, ids) -> np.ndarray:
    """One row per comparison of the case, one column per index."""
    if prop.evaluate is not None:
        return prop.evaluate(case, X, ids)
    rows = []
    for _, a, b, objects in prop.tables(case):
        scores = compare(a, b, X=X if objects is None else X[objects]).scores(list(ids))
        rows.append([scores[i] for i in ids])
    return np.array(rows, float)


def _defined(prop: Property, values: np.ndarray) -> np.ndarray:
    rows = values if prop.defined_rows is None else values[list(prop.defined_rows)]
    return ~np.isnan(rows).any(axis=0)


def _property(prop) -> Property:
    if isinstance(prop, Property):
        return prop
    try:
        return PROPERTIES[prop]
    except KeyError:
        raise CluvalError(f"unknown property {prop!r}; the properties are {', '.join(PROPERTIES)}") from None


def verdicts(prop, case, ids: Iterable[str] | None = None, *, X=None) -> dict[str, bool]:
    """For each index, whether the case (a tuple of label vectors, as the property's cases are)
    contradicts the property: True where it does (False where the index is undefined, NaN, on one
    of the case's comparisons). X gives the objects' coordinates (default:
    fixed ones), for the indices that need data."""
    prop = _property(prop)
    ids = list(INDICES if ids is None else ids)
    case = tuple(np.asarray(part) for part in case)
    X = _coordinates(np.random.default_rng(0), _objects(prop, case)) if X is None else np.asarray(X, float)
    values = _values(prop, case, X, ids)
    with np.errstate(invalid="ignore"):
        bad = prop.violated(values, Orientation.of(ids), case) & _defined(prop, values)
    return {i: bool(flag) for i, flag in zip(ids, bad)}


@dataclass(frozen=True)
class Counterexample:
    """A case where an index contradicts a property: the partitions (label lists, in the
    property's order ``parts``), the objects' coordinates, and the index's value on each of the
    case's comparisons (``captions``)."""

    property: str
    index: str
    case: tuple
    X: tuple
    captions: tuple
    values: tuple

    def to_dict(self) -> dict:
        return {"case": [list(map(int, part)) for part in self.case], "X": [list(map(float, row)) for row in self.X],
                "captions": list(self.captions), "values": [_json_number(v) for v in self.values]}

    @classmethod
    def from_dict(cls, prop: str, index: str, data: dict) -> Counterexample:
        return cls(prop, index, tuple(tuple(part) for part in data["case"]), tuple(tuple(row) for row in data["X"]),
                   tuple(data["captions"]), tuple(float(v) for v in data["values"]))

    @property
    def objects(self) -> int:
        return len(self.X)

    def tables(self) -> list[tuple[str, np.ndarray, float]]:
        """(caption, contingency table, the index's value) for each comparison of the case."""
        prop = PROPERTIES[self.property]
        case = tuple(np.asarray(part) for part in self.case)
        return [(caption, np.asarray(compare(a, b).table), value)
                for (caption, a, b, _), value in zip(prop.tables(case), self.values)]

    def sentence(self) -> str:
        """What the case shows, with its numbers."""
        info = get_index(self.index)
        case = tuple(np.asarray(part) for part in self.case)
        return PROPERTIES[self.property].detail(list(self.values), info.best, info.higher_is_better, case)

    def check(self) -> bool:
        """True when the case still contradicts the property for its index (computed again)."""
        return verdicts(self.property, self.case, [self.index], X=self.X)[self.index]


def _json_number(value: float):
    value = float(value)
    return value if math.isfinite(value) else str(value)


# ---------------------------------------------------------------------------- searches
@dataclass
class Finding:
    """One index's outcome of one property's search: how many cases it was tried on, and the first
    (smallest) counterexample, if any."""

    tried: int = 0
    counterexample: Counterexample | None = None


def search(prop, *, ids: Iterable[str] | None = None, tries: int = 20, seed: int = 0,
           progress: Callable | None = None) -> dict[str, Finding]:
    """Search for counterexamples to one property, for every index at once: `tries` random cases
    for each number of objects in ``prop.sizes``, fewest objects first, so the first case that
    contradicts an index is the smallest found. An index is dropped from the search at its first
    counterexample. `progress(done, total)` is called after each number of objects."""
    prop = _property(prop)
    ids = list(INDICES if ids is None else ids)
    if tries < 1:
        raise CluvalError(f"tries must be at least 1, not {tries!r}")
    rng = np.random.default_rng([seed, list(PROPERTIES).index(prop.id) if prop.id in PROPERTIES else 99])
    findings = {i: Finding() for i in ids}
    for step, n in enumerate(prop.sizes):
        for _ in range(tries):
            open_ids = [i for i in ids if findings[i].counterexample is None]
            if not open_ids:
                break
            case = prop.generate(rng, n)
            if case is None:
                continue
            case = tuple(np.asarray(part, dtype=np.intp) for part in case)
            X = _coordinates(rng, _objects(prop, case))
            values = _values(prop, case, X, open_ids)
            with np.errstate(invalid="ignore"):
                bad = prop.violated(values, Orientation.of(open_ids), case)
            captions = tuple(caption for caption, *_ in prop.tables(case))
            defined = _defined(prop, values)  # an index undefined on a case can't contradict there
            for j, index in enumerate(open_ids):
                if not defined[j]:
                    continue
                findings[index].tried += 1
                if bad[j]:
                    findings[index].counterexample = Counterexample(
                        prop.id, index, tuple(tuple(map(int, part)) for part in case),
                        tuple(tuple(map(float, row)) for row in X), captions, tuple(map(float, values[:, j])))
        if progress is not None:
            progress(step + 1, len(prop.sizes))
    return findings


def build_atlas(*, tries: int = 20, seed: int = 0, ids: Iterable[str] | None = None,
                progress: Callable | None = None) -> dict:
    """Run every property's search; the result is what ``atlas.json`` keeps. `progress(done,
    total, property_name)` is called after each property."""
    ids = list(INDICES if ids is None else ids)
    found = {}
    for step, prop in enumerate(PROPERTIES.values()):
        findings = search(prop, ids=ids, tries=tries, seed=seed)
        found[prop.id] = {i: {"tried": f.tried,
                              "counterexample": None if f.counterexample is None else f.counterexample.to_dict()}
                          for i, f in findings.items()}
        if progress is not None:
            progress(step + 1, len(PROPERTIES), prop.name)
    return {"seed": seed, "tries": tries, "properties": found}


@cache
def _stored() -> dict:
    return json.loads(ATLAS_FILE.read_text(encoding="utf-8"))


def counterexample(index: str, prop: str, stored: dict | None = None) -> Counterexample | None:
    """The kept counterexample of `index` to `prop`, or None when the atlas has none."""
    get_index(index)
    prop = _property(prop)
    entry = (_stored() if stored is None else stored)["properties"].get(prop.id, {}).get(index)
    if entry is None or entry["counterexample"] is None:
        return None
    return Counterexample.from_dict(prop.id, index, entry["counterexample"])


def atlas(stored: dict | None = None) -> pd.DataFrame:
    """The atlas as a long DataFrame, one row per (index, property): ``state`` (a key of
    :data:`STATES`, or ``"not searched"`` for an index added after the atlas was built), the
    ``citation`` of a proof, the number of cases ``tried``, and the counterexample's number of
    ``objects``."""
    stored = _stored() if stored is None else stored
    rows = []
    for index, info in INDICES.items():
        for prop in PROPERTIES.values():
            entry = stored["properties"].get(prop.id, {}).get(index)
            citation = PROVED.get((index, prop.id), "")
            if entry is None:
                state, tried, objects = "not searched", 0, 0
            elif entry["counterexample"] is not None:
                state, tried, objects = "fails", entry["tried"], len(entry["counterexample"]["X"])
            else:
                state, tried, objects = ("proved" if citation else "holds"), entry["tried"], 0
            rows.append({"index": index, "name": info.name, "family": info.family, "property": prop.id,
                         "property_name": prop.name, "state": state, "citation": citation, "tried": tried,
                         "objects": objects})
    return pd.DataFrame(rows)


def filter_indices(wanted: Iterable[str], stored: dict | None = None) -> list[str]:
    """The indices that have every property of `wanted` (proved, or holding on every case tried)."""
    wanted = [_property(p).id for p in wanted]
    frame = atlas(stored)
    good = frame[frame["state"].isin(["proved", "holds"]) & frame["property"].isin(wanted)]
    counts = good.groupby("index", sort=False).size()
    return [i for i in INDICES if counts.get(i, 0) == len(wanted)]


def atlas_matrix(stored: dict | None = None) -> pd.DataFrame:
    """The atlas as a matrix: one row per index, one column per property (its id), each cell a state."""
    frame = atlas(stored)
    matrix = frame.pivot(index="index", columns="property", values="state")
    return matrix.loc[list(INDICES), list(PROPERTIES)]


def differences(old: dict, new: dict) -> pd.DataFrame:
    """The (index, property) pairs whose state differs between two atlases (e.g. the kept one and a
    fresh search): one row each, with both states."""
    before, after = atlas(old), atlas(new)
    both = before.merge(after, on=["index", "property"], suffixes=("_before", "_after"))
    changed = both[both["state_before"] != both["state_after"]]
    return changed[["index", "property", "state_before", "state_after"]].reset_index(drop=True)
