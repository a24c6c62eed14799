"""Chance, uncertainty and anatomy of every index: the generic machinery, which asks each index.

* :func:`chance`: what each index gives under the permutation model (both partitions' cluster
  sizes fixed, objects assigned at random): its expected value, standard deviation, the
  z-score and one-sided p-value of the observed value. Where the index's family gives a
  closed form (``INDICES[id].expectation``: the pair-counting indices linear in the pairs
  together, the mutual-information family through the expected mutual information, BCubed
  precision and recall), the expectation is exact, and so is the standard deviation where the
  family gives one; everything else comes from random tables with the same margins
  (Patefield's algorithm, ``scipy.stats.random_table``, or a random permutation of the
  objects' labels when the table is sparse or the index reads coordinates or the tie order),
  each evaluated by the registry's own code.
* :func:`uncertainty`: standard error and interval of each index, by the jackknife over
  objects (exact from the table: leaving out one object of cell (i, j) lowers n_ij, r_i and
  c_j by one, so it costs one evaluation per non-empty cell) or by the bootstrap (the table
  resampled as one multinomial draw of N objects over its cells). The centroid indices read
  each object's coordinates, so with them the objects themselves are left out or resampled.
* :func:`contributions`: a table shaped like the contingency table whose cells add up, with
  at most one constant term, to the index's value (``INDICES[id].cells``); per-cluster
  contributions for the indices read off a mapping of clusters (``INDICES[id].clusters``).

All three read a :class:`~cluval_core.Comparison` and cost nothing until called; none of them
knows an index by its id.
"""

from __future__ import annotations

import math
import numbers
import time
from dataclasses import dataclass
from functools import partial
from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy import stats
from scipy.sparse import coo_array

from . import random_models
from .compiled import compiling_seconds
from .contingency import first_occurrence_order, table_from_codes
from .emi import expected_cell_sums_left_out
from .matching import tie_priority
from .registry import INDICES, get_index, index_ids
from .validation import DENSE_CELLS, CluvalError

__all__ = ["chance", "uncertainty", "contributions", "Contributions", "DenseTable"]

# Most cells of random tables held at once (n_samples tables are drawn in batches).
_BATCH_CELLS = 1 << 22
# The seconds chance() and uncertainty() may take unless told otherwise (budget=...); work that would
# take longer, judged from its first evaluations, is stopped (like the clustering budget).
BUDGET_SECONDS = 60.0
# The seconds of work after which the pace of the evaluations is first judged (or 3 evaluations).
_FIRST_LOOK = 0.25


def _working_seconds() -> float:
    """The time, less what compiling code on first use has taken (in any thread): on a first run,
    before any machine code is kept, work is judged on its own pace, not on its compilation's."""
    return time.perf_counter() - compiling_seconds()


_clock = _working_seconds  # what Pace reads the time from
# Patefield's sampler (scipy) counts in 32-bit integers; beyond, its tables are wrong.
_SAMPLER_MAX_N = 2**31 - 1
# Most objects the permutation model shuffles (three arrays of N integers).
_MAX_PERMUTED = 50_000_000


def _counts(c, what: str) -> None:
    if c.is_soft and c.is_weighted:
        raise CluvalError(f"{what} needs whole-number weights: the permutation and resampling models move whole "
                          "objects, and real-valued weights do not say how many objects a cell holds")
    if c.is_soft and c.memberships is None:
        raise CluvalError(f"{what} needs integer counts or the memberships: the permutation and resampling models "
                          "move whole objects, which a soft table alone does not record (use "
                          "Comparison.from_memberships(U, V))")


def _rng(seed) -> np.random.Generator:
    try:
        return np.random.default_rng(seed)
    except (TypeError, ValueError):
        raise CluvalError(f"seed must be None, a non-negative whole number or a numpy Generator, got "
                          f"{seed!r}") from None


class Pace:
    """Times the evaluations as they run and stops the work when all of it would take longer than
    `budget` seconds, judged from what the evaluations so far took on this machine.

    The first evaluation pays once for what the rest share (caches, a sampler set up, code
    loaded; for chance() the observed table's scores too, which may compute an exact variance
    that every random table shares), so the pace is read from the evaluations after it: the
    estimate is the first's time plus the others' mean time for each of the rest. It first
    judges once the evaluations after the first have taken :data:`_FIRST_LOOK` seconds and are
    at least 2 (or on whatever is done, once four times as long has passed in all; on the first
    call alone only when it took longer than the budget, since compiling code on first use can
    make it many times slower than the rest), then again whenever the time spent has doubled
    (the machine may slow down): work beyond the budget stops after a small part of it, and work
    within it is never refused on a guess.
    """

    def __init__(self, total: int, budget: float, what: str, fewer: str, things: str = "tables"):
        self.total, self.budget, self.what, self.fewer, self.things = total, budget, what, fewer, things
        self.start = _clock()
        self.next_look = _FIRST_LOOK
        self.first = None

    def done(self, evaluations: int) -> None:
        """Called after `evaluations` of the `total` are done."""
        elapsed = _clock() - self.start
        if self.first is None:
            self.first = (elapsed, evaluations)
        first, counted = self.first
        paced = elapsed - first >= _FIRST_LOOK and evaluations - counted >= 2
        if elapsed < self.next_look or evaluations >= self.total or not (paced or elapsed >= 4 * _FIRST_LOOK):
            return
        if evaluations > counted:  # the pace of the evaluations after the first call
            estimate = first + (elapsed - first) / (evaluations - counted) * (self.total - counted)
        elif elapsed > self.budget:  # the first call alone took longer than all of the work may
            estimate = elapsed / evaluations * self.total
        else:  # the first call may have paid once for what the rest share (code compiled): judged on the next
            return
        self.next_look = 2 * elapsed
        if estimate > self.budget:
            raise CluvalError(f"{self.what} evaluates {self.total:,} {self.things} here, about {_duration(estimate)} "
                              f"(measured on the first {evaluations:,}), more than the budget of "
                              f"{_duration(self.budget)}, so it was stopped: {self.fewer}, or pass budget=... "
                              f"(seconds; math.inf for no limit)")


def _duration(seconds: float) -> str:
    if seconds < 1:
        return f"{seconds:.2g} s"
    if seconds < 120:
        return f"{seconds:.1f} s" if seconds < 10 and seconds != int(seconds) else f"{seconds:.0f} s"
    return f"{seconds / 60:.0f} min" if seconds < 3600 else f"{seconds / 3600:.1f} h"


# What to change when the jackknife or the bootstrap would take longer than the budget.
_FEWER = {"jackknife": "use the bootstrap with fewer samples", "bootstrap": "use fewer samples (n_samples=...)"}


def check_budget(budget) -> float:
    if isinstance(budget, bool) or not isinstance(budget, numbers.Real) or not budget > 0:
        raise CluvalError(f"budget must be a positive number of seconds (math.inf for no limit), got {budget!r}")
    return float(budget)


def _positive_cells(c):
    r, col, v = c.cells
    keep = v > 0
    return r[keep], col[keep], v[keep]


# ---------------------------------------------------------------------- chance
def _exact_expectations(c, ids) -> dict[str, tuple[float, float | None]]:
    """{id: (expected, sd or None)} for the ids whose family gives a closed form here.

    The closed forms are for tables of counts with at least two clusters a side (with one
    cluster on a side every random table is this very table, and the conventions, not the
    formulas, give the value).
    """
    if c.is_soft or c.k_true < 2 or c.k_pred < 2:
        return {}
    out = {}
    for i in ids:
        expectation = INDICES[i].expectation
        found = expectation(c) if expectation is not None else None
        if found is not None:
            out[i] = found
    return out


def _random_comparisons(c, n_samples: int, rng, ids):
    """Comparisons of random tables with c's margins, yielded in batches (lists).

    With the objects at hand and an index that reads coordinates or the tie order, one side's
    labels are permuted (the permutation model itself; the tie order follows each random
    arrangement). Otherwise tables are drawn by Patefield's algorithm in tie order (so that
    a seed gives the same tables whatever the labels' numbering), or, for a table too large
    to hold densely, by permuting the cells' objects.
    """
    shape = c.table.shape
    if c.is_soft:  # permute the objects of one side: N* = U^T V[permutation]
        U, V = c.memberships
        for start in range(0, n_samples, 16):
            yield [c.with_table(U.T @ V[rng.permutation(len(V))], same_margins=True)
                   for _ in range(min(16, n_samples - start))]
        return
    if _permutes_objects(c, ids):
        codes_a, codes_b = c.codes
        X = c.data if any(INDICES[i].needs_data for i in ids) else None
        for start in range(0, n_samples, 16):
            batch = []
            for _ in range(min(16, n_samples - start)):
                shuffled = rng.permutation(codes_b)
                # the reference's objects stay in place, and so does its tie order
                tie_order = (c.tie_order[0], first_occurrence_order(shuffled, shape[1]))
                batch.append(c.with_table(table_from_codes(codes_a, shuffled, *shape), X=X, codes=(codes_a, shuffled),
                                          tie_order=tie_order, same_margins=True))
            yield batch
        return
    rows, cols = c.tie_order
    if shape[0] * shape[1] <= DENSE_CELLS:
        draw = stats.random_table(c.row_sizes[rows].astype(np.int64), c.col_sizes[cols].astype(np.int64))
        batch = max(1, _BATCH_CELLS // (shape[0] * shape[1]))
        layout = np.ix_(rows, cols)
        for start in range(0, n_samples, batch):
            tables = []
            for drawn in draw.rvs(min(batch, n_samples - start), random_state=rng):
                table = np.empty(shape, dtype=np.int64)
                table[layout] = drawn
                tables.append(c.with_table(table, same_margins=True))
            yield tables
        return
    # a large sparse table: its objects, in tie order, with one side's labels permuted
    r, col, v = _positive_cells(c)
    order = np.argsort(tie_priority(r, col, shape, rows, cols))
    codes_a, codes_b = np.repeat(r[order], v[order]), np.repeat(col[order], v[order])
    for start in range(0, n_samples, 16):
        yield [c.with_table(table_from_codes(codes_a, rng.permutation(codes_b), *shape), tie_order=c.tie_order,
                            same_margins=True) for _ in range(min(16, n_samples - start))]


def _asked(ids, c, *, margins_vary: bool) -> list[str]:
    """The ids asked for (:func:`index_ids`). Where every evaluation has margins of its own (the
    jackknife, the bootstrap, random partitions), None leaves out the indices whose cost is an
    exact variance per set of margins (registry cost "moments", about a second a table): they
    are computed when named, so that the default stays within the budget."""
    asked = index_ids(ids, has_data=c.has_data)
    if ids is None and margins_vary:
        asked = [i for i in asked if INDICES[i].cost != "moments"]
    return asked


def _permutes_objects(c, ids) -> bool:
    """Whether chance() permutes the objects' labels (see _random_comparisons)."""
    return (not c.is_soft and c.has_objects
            and any(INDICES[i].needs_data or INDICES[i].tie_dependent for i in ids))


def chance(c, ids=None, *, n_samples: int = 1000, seed=None, progress=None,
           budget: float = BUDGET_SECONDS, model: str = "perm") -> pd.DataFrame:
    """Each index under a random model (default the permutation model): expected value, SD, z and
    p (see the module and :mod:`~cluval_core.core.random_models`). Stopped when the random tables
    would take longer than `budget` seconds (:class:`Pace`)."""
    _counts(c, "chance")
    budget = check_budget(budget)
    ids = _asked(ids, c, margins_vary=random_models.sides(model)[0] != "sizes" and model != "perm1")
    n_samples = _positive_int(n_samples, "n_samples")
    rng = _rng(seed)
    if progress is not None and not callable(progress):
        raise CluvalError(f"progress must be a function progress(done, total), got {progress!r}")
    if random_models.sides(model)[0] != "sizes" and model != "perm1":
        return _chance_under(c, ids, model, n_samples, rng, progress, budget)
    permuted = c.is_soft or _permutes_objects(c, ids) or c.table.shape[0] * c.table.shape[1] > DENSE_CELLS
    n = len(c.memberships[0]) if c.is_soft else int(c.n)
    fixed = min(c.table.shape) == 1 and not any(INDICES[i].needs_data for i in ids)
    if not fixed:
        if permuted and n > _MAX_PERMUTED:
            raise CluvalError(f"random tables here permute the labels of {n:,} objects, more than the "
                              f"{_MAX_PERMUTED:,} cluval shuffles")
        if not permuted and n > _SAMPLER_MAX_N:
            raise CluvalError(f"random tables of {n:,} objects are beyond the sampler (Patefield's algorithm in scipy "
                              f"counts up to {_SAMPLER_MAX_N:,})")
    # the pace starts with the observed table: what its scores compute once for every table with
    # these margins (an exact variance, say) is part of the first evaluation's cost
    pace = Pace(n_samples, budget, "chance()", "use fewer random tables (n_samples=...) or fewer indices (ids=...)")
    values = c.scores(ids)
    null = np.empty((n_samples, len(ids)))
    if fixed:  # one cluster on a side: every assignment gives this very table
        null[:] = [values[i] for i in ids]
    else:
        done = 0
        every = max(1, n_samples // 100)  # at most about a hundred progress reports
        for batch in _random_comparisons(c, n_samples, rng, ids):
            for comparison in batch:
                null[done] = comparison._scores_in_order(ids)
                done += 1
                pace.done(done)
                if progress is not None and (done % every == 0 or done == n_samples):
                    progress(done, n_samples)
    if fixed and progress is not None:
        progress(n_samples, n_samples)
    return _chance_frame(ids, values, null, _exact_expectations(c, ids), model)


def _chance_frame(ids, values, null, exact, model: str) -> pd.DataFrame:
    """The chance frame from the observed `values`, the random tables' values (`null`, one row per
    table) and the exact (expected, sd or None) of the ids that have them."""
    rows = []
    with np.errstate(invalid="ignore"):  # an index infinite on some tables has no mean or SD: NaN
        for k, i in enumerate(ids):
            sample = null[:, k][~np.isnan(null[:, k])]
            value = values[i]
            sd = math.nan if len(sample) < 2 else 0.0 if np.ptp(sample) == 0 else float(np.std(sample, ddof=1))
            if i in exact:
                expected, exact_sd = exact[i]
                method, error = "exact", 0.0
                sd = sd if exact_sd is None else exact_sd
            else:
                expected = math.nan if not len(sample) else float(sample[0]) if sd == 0 else float(np.mean(sample))
                method, error = "Monte Carlo", (sd / math.sqrt(len(sample)) if len(sample) > 1 else math.nan)
            z = (value - expected) / sd if sd > 0 else math.nan
            tolerance = 1e-12 * max(1.0, abs(value)) if np.isfinite(value) else 0.0
            better = sample >= value - tolerance if INDICES[i].higher_is_better else sample <= value + tolerance
            p = (1 + int(better.sum())) / (1 + len(sample)) if len(sample) and np.isfinite(value) else math.nan
            best = INDICES[i].best
            adjusted = ((value - expected) / (best - expected) if math.isfinite(best) and math.isfinite(expected)
                        and best != expected else math.nan)
            rows.append({"value": value, "expected": expected, "sd": sd, "z": z, "p": p, "method": method,
                         "mc_error": error, "adjusted": adjusted, "model": model})
    return pd.DataFrame(rows, index=pd.Index(ids, name="index"))


def _chance_under(c, ids, model, n_samples, rng, progress, budget) -> pd.DataFrame:
    """chance() under a model that draws whole partitions (num, num1, all, all1): the reference as
    observed or drawn, the candidate drawn, each table compared by the registry's own code; exactly
    where the index's family gives a closed form (``INDICES[id].model_expectation``)."""
    if c.is_soft:
        raise CluvalError(f"the {model} model draws partitions of whole objects: it needs a table of counts")
    n = int(c.n)
    reference, candidate = random_models.sides(model)
    k_a, k_b = c.table.shape
    if c.has_objects:
        codes_a = c.codes[0]
    else:
        codes_a = np.repeat(np.arange(k_a), c.row_sizes.astype(np.int64))
    X = c.data if any(INDICES[i].needs_data for i in ids) else None
    counts = {"number": (k_a, k_b), "all": (None, None)}
    pace = Pace(n_samples, budget, f"chance() under the {model} model",
                "use fewer random tables (n_samples=...) or fewer indices (ids=...)")
    values = c.scores(ids)  # within the pace, as in chance()
    null = np.empty((n_samples, len(ids)))
    every = max(1, n_samples // 100)  # at most about a hundred progress reports
    for done in range(1, n_samples + 1):
        a = codes_a if reference == "fixed" else random_models.random_partition(n, counts[reference][0], rng)
        b = random_models.random_partition(n, counts[candidate][1], rng)
        shape = (int(a.max()) + 1, int(b.max()) + 1)
        drawn = type(c)._build(table_from_codes(a, b, *shape), np.arange(shape[0]), np.arange(shape[1]), X=X,
                                  codes=(a, b), copy=False)
        null[done - 1] = drawn._scores_in_order(ids)
        pace.done(done)
        if progress is not None and (done % every == 0 or done == n_samples):
            progress(done, n_samples)
    exact = {}
    for i in ids:
        expectation = INDICES[i].model_expectation
        if expectation is not None:
            try:
                exact[i] = expectation(c, model)
            except CluvalError:
                pass  # beyond the exact sums: the random draws' mean stands
    return _chance_frame(ids, values, null, exact, model)


def _positive_int(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 2:
        raise CluvalError(f"{name} must be a whole number of at least 2, got {value!r}")
    return int(value)


# ---------------------------------------------------------------------- uncertainty
def _leave_outs(c, r, col, v):
    """The distinct ways of leaving one object out: a list of (cell, number of objects, tie order),
    and each object's place in that list (None for a comparison built from a table).

    Objects of one cell give the same table; they give the same tie order too unless one is
    the first object of its row's or column's cluster, whose removal lets the cluster's second
    object decide its place (for a comparison of labels; a table's own order never changes).
    """
    if not c.has_objects:
        return [(k, int(v[k]), c.tie_order) for k in range(len(v))], None
    first, second = ([], [])
    for codes in c.codes:
        order = np.argsort(codes, kind="stable")
        starts = np.flatnonzero(np.r_[True, codes[order][1:] != codes[order][:-1]])
        ends = np.r_[starts[1:], len(order)]
        first.append(order[starts])
        second.append(np.where(ends - starts > 1, order[np.minimum(starts + 1, len(order) - 1)], -1))
    keys = r.astype(np.int64) * c.k_pred + col  # ascending: the cells are row-major
    cell_of = np.searchsorted(keys, c.codes[0].astype(np.int64) * c.k_pred + c.codes[1])
    special = dict.fromkeys(int(obj) for firsts in first for obj in firsts)  # in order, each once
    out = []
    counts = v.astype(np.int64).copy()
    for obj in special:
        cell = int(cell_of[obj])
        orders = []
        for side in (0, 1):
            positions = first[side].copy()
            cluster = int(c.codes[side][obj])
            if positions[cluster] == obj:
                positions[cluster] = second[side][cluster] if second[side][cluster] >= 0 else -1
            kept = np.flatnonzero(positions >= 0)
            orders.append(kept[np.argsort(positions[kept], kind="stable")])
        out.append((cell, 1, tuple(orders)))
        counts[cell] -= 1
    remaining = np.flatnonzero(counts)
    place = np.full(len(v), -1, dtype=np.intp)
    place[remaining] = len(out) + np.arange(len(remaining))
    classes = place[cell_of]
    classes[list(special)] = np.arange(len(special))
    out += [(k, int(counts[k]), c.tie_order) for k in remaining]
    return out, classes


def _left_out_sums(c, r, col):
    """known(cell, grid): the expected sum over the cells that `grid` defines (as in
    :meth:`Comparison.known_sum`) of c's margins with one object of that cell left out, all cells'
    computed at once on the first call for that grid (None where that sum is refused: each table
    then computes its own, and says why)."""
    found = {}

    def known(cell, grid):
        if grid not in found:
            try:
                found[grid] = expected_cell_sums_left_out(grid, c.row_sizes, c.col_sizes, r, col)
            except CluvalError:
                found[grid] = None
        return None if found[grid] is None else float(found[grid][cell])

    return known


def _reduced(c, r, col, v, tie_order=None, known=None):
    """The comparison of the cells (r, col, v) of c's layout, empty clusters dropped, in
    `tie_order` (default c's; clusters that lost their last object are left out of it);
    `known` as in :meth:`Comparison.with_table`."""
    k_a, k_b = c.table.shape
    rows_used = np.bincount(r, weights=v, minlength=k_a) > 0
    cols_used = np.bincount(col, weights=v, minlength=k_b) > 0
    new_row = np.cumsum(rows_used) - 1
    new_col = np.cumsum(cols_used) - 1
    shape = (int(rows_used.sum()), int(cols_used.sum()))
    keep = v > 0
    r, col, v = new_row[r[keep]], new_col[col[keep]], v[keep]
    if shape[0] * shape[1] > DENSE_CELLS:
        table = coo_array((v, (r, col)), shape=shape).tocsr()
    else:
        table = np.zeros(shape, dtype=np.int64)
        table[r, col] = v
    tie_order = c.tie_order if tie_order is None else tie_order
    order = tuple(new[o[used[o]]] for new, o, used in ((new_row, tie_order[0], rows_used),
                                                       (new_col, tie_order[1], cols_used)))
    return c.with_table(table, rows=rows_used, cols=cols_used, tie_order=order, known=known)


def uncertainty(c, ids=None, *, method: str = "jackknife", level: float = 0.95, n_samples: int = 1000,
                seed=None, progress=None, budget: float = BUDGET_SECONDS) -> pd.DataFrame:
    """Standard error and interval of each index, by the jackknife or the bootstrap (see the module).

    `progress(done, total)` is called as the comparisons of the objects left out (or resampled)
    with their coordinates, the slow part, are made (about a hundred times in all). Stopped
    when the evaluations would take longer than `budget` seconds (:class:`Pace`)."""
    _counts(c, "uncertainty")
    budget = check_budget(budget)
    ids = _asked(ids, c, margins_vary=True)
    if method not in ("jackknife", "bootstrap"):
        raise CluvalError(f"method must be 'jackknife' or 'bootstrap', got {method!r}")
    if isinstance(level, bool) or not isinstance(level, numbers.Real) or not 0 < level < 1:
        raise CluvalError(f"level must be a number between 0 and 1, got {level!r}")
    level = float(level)
    n_samples = _positive_int(n_samples, "n_samples") if method == "bootstrap" else n_samples
    rng = _rng(seed)
    n = len(c.memberships[0]) if c.is_soft else int(c.n)
    if method == "jackknife" and n < 3:
        raise CluvalError(f"the jackknife leaves out one object of {n}, and a comparison needs at least 2 objects: "
                          "it needs at least 3")
    if c.is_soft:
        return _soft_uncertainty(c, ids, method, level, n_samples, rng, budget)
    if any(INDICES[i].needs_data for i in ids):
        return _object_uncertainty(c, ids, method, level, n_samples, rng, progress, budget)
    values = c.scores(ids)
    if method == "jackknife":
        null, weights, _ = jackknife_values(c, ids, budget=budget)
    else:
        r, col, v = _positive_cells(c)
        v = v.astype(np.int64)
        pace = Pace(n_samples, budget, "the bootstrap", _FEWER["bootstrap"])
        null = np.empty((n_samples, len(ids)))
        for k, drawn in enumerate(_resampled_cells(c, r, col, v, n_samples, rng)):
            null[k] = _reduced(c, r, col, drawn)._scores_in_order(ids)
            pace.done(k + 1)
    return _summary(ids, values, null, weights if method == "jackknife" else None, method, level)


def _resampled_cells(c, r, col, v, n_samples: int, rng):
    """The bootstrap's resampled tables, as counts of the cells (r, col, v): one multinomial draw
    of N objects over the cells each, drawn in tie order so that a seed gives the same resamples
    whatever the numbering."""
    order = np.argsort(tie_priority(r, col, c.table.shape, *c.tie_order))
    for drawn_in_order in rng.multinomial(int(v.sum()), v[order] / v.sum(), size=n_samples):
        drawn = np.empty_like(drawn_in_order)
        drawn[order] = drawn_in_order
        yield drawn


def jackknife_values(c, ids, *, budget: float = BUDGET_SECONDS, progress=None, what: str = "the jackknife"):
    """Each index with one object left out, once per distinct way of leaving one out.

    Returns (values, weights, classes): ``values[k]`` the indices' values (in the order of `ids`)
    with the k-th kind of object left out, ``weights[k]`` how many objects are of that kind,
    and ``classes[n]`` the kind of object n (None for a comparison built from a table, whose
    objects have no identity). With an index that reads coordinates every object is its own
    kind. Stopped when the evaluations would take longer than `budget` seconds (:class:`Pace`).
    """
    if any(INDICES[i].needs_data for i in ids):
        n = len(c.codes[0])
        pace = Pace(n, budget, f"{what} of the centroid indices",
                    "use the bootstrap with fewer samples, or leave out the indices that need X")
        null = np.empty((n, len(ids)))
        keep = np.ones(n, dtype=bool)
        every = max(1, n // 100)  # at most about a hundred progress reports
        for k in range(n):
            keep[k] = False
            null[k] = c.with_objects(keep)._scores_in_order(ids)
            keep[k] = True
            pace.done(k + 1)
            if progress is not None and ((k + 1) % every == 0 or k + 1 == n):
                progress(k + 1, n)
        return null, np.ones(n), np.arange(n)
    r, col, v = _positive_cells(c)
    v = v.astype(np.int64)
    leave_outs, classes = _leave_outs(c, r, col, v)
    pace = Pace(len(leave_outs), budget, what, _FEWER["jackknife"])
    null = np.empty((len(leave_outs), len(ids)))
    weights = np.empty(len(leave_outs))
    sums = _left_out_sums(c, r, col)
    for k, (cell, weight, tie_order) in enumerate(leave_outs):
        left = v.copy()
        left[cell] -= 1
        known = partial(sums, cell)
        child = c._left_out(cell, tie_order, known) or _reduced(c, r, col, left, tie_order, known)
        null[k] = child._scores_in_order(ids)
        weights[k] = weight
        pace.done(k + 1)
    return null, weights, classes


def _summary(ids, values, null, weights, method, level) -> pd.DataFrame:
    """The uncertainty frame from each evaluation's values (`null`, one row per left-out object
    kind with its `weights` for the jackknife; one row per resample for the bootstrap)."""
    z = stats.norm.ppf((1 + level) / 2)
    rows = []
    with np.errstate(invalid="ignore"):  # an index infinite on some evaluations has no SE: NaN
        for k, i in enumerate(ids):
            theta = null[:, k]
            value = values[i]
            if method == "jackknife":
                n = weights.sum()
                mean = float(np.sum(weights * theta) / n)
                se = math.sqrt((n - 1) / n * float(np.sum(weights * (theta - mean) ** 2)))
                # a normal interval, cut to the values the index can take
                low, high = np.clip([value - z * se, value + z * se], *INDICES[i].range)
            else:
                finite = theta[~np.isnan(theta)]
                se = float(np.std(finite, ddof=1)) if len(finite) > 1 else math.nan
                low, high = (np.quantile(finite, [(1 - level) / 2, (1 + level) / 2]) if len(finite)
                             else (math.nan, math.nan))
            rows.append({"value": value, "se": se, "low": float(low), "high": float(high), "method": method})
    return pd.DataFrame(rows, index=pd.Index(ids, name="index"))


def _object_uncertainty(c, ids, method, level, n_samples, rng, progress, budget) -> pd.DataFrame:
    """Leave out (or resample) objects with their coordinates: the centroid indices change
    with the object, not only with its cell, so each is compared anew (N or n_samples times)."""
    values = c.scores(ids)
    if method == "jackknife":
        null, weights, _ = jackknife_values(c, ids, budget=budget, progress=progress)
        return _summary(ids, values, null, weights, method, level)
    n = len(c.codes[0])
    pace = Pace(n_samples, budget, "the bootstrap of the centroid indices",
                 "use the bootstrap with fewer samples, or leave out the indices that need X")
    null = np.empty((n_samples, len(ids)))
    every = max(1, n_samples // 100)  # at most about a hundred progress reports
    for k in range(n_samples):
        null[k] = c.with_objects(np.sort(rng.integers(0, n, n)))._scores_in_order(ids)
        pace.done(k + 1)
        if progress is not None and ((k + 1) % every == 0 or k + 1 == n_samples):
            progress(k + 1, n_samples)
    return _summary(ids, values, null, None, method, level)


def _soft_uncertainty(c, ids, method, level, n_samples, rng, budget) -> pd.DataFrame:
    """Leave out (or resample) objects of a soft comparison: N* = U^T V without object k."""
    U, V = c.memberships
    n = len(U)
    evaluations = n if method == "jackknife" else n_samples
    pace = Pace(evaluations, budget, f"the {method}", _FEWER[method])
    values = c.scores(ids)
    full = U.T @ V
    null = np.empty((evaluations, len(ids)))
    for k in range(evaluations):
        if method == "jackknife":
            table = full - np.outer(U[k], V[k])
        else:
            drawn = rng.integers(0, n, n)
            table = U[drawn].T @ V[drawn]
        null[k] = c.with_table(table)._scores_in_order(ids)
        pace.done(k + 1)
    return _summary(ids, values, null, np.ones(evaluations) if method == "jackknife" else None, method, level)


# ---------------------------------------------------------------------- anatomy
@dataclass(frozen=True)
class Contributions:
    """Where an index's value comes from.

    ``cells`` (K_a x K_b, the table's row and column order) and ``constant`` add up to
    ``value`` for the indices with an anatomy of cells; an index read off a mapping of
    clusters (the Centroid Index) has per-cluster contributions instead (``rows`` and ``cols``:
    1.0 marks an orphan, a cluster that no cluster of the other side maps to; CI is the
    larger of the two sums). ``description`` says what a cell's number means.
    """

    index_id: str
    value: float
    cells: np.ndarray | None
    constant: float
    description: str
    rows: np.ndarray | None = None
    cols: np.ndarray | None = None

    @property
    def total(self) -> float:
        """cells.sum() + constant (the value, for an anatomy of cells)."""
        return float(self.cells.sum() + self.constant) if self.cells is not None else math.nan


class DenseTable(NamedTuple):
    """The table as floats, held densely, with its margins and total: what an anatomy of cells reads."""

    table: np.ndarray
    rows: np.ndarray
    cols: np.ndarray
    n: float


def _dense(c) -> DenseTable:
    if c.is_sparse:
        if c.table.shape[0] * c.table.shape[1] > DENSE_CELLS:
            raise CluvalError(f"contributions are a {c.table.shape[0]} x {c.table.shape[1]} table, more than "
                              f"{DENSE_CELLS:,} cells")
        table = c.table.toarray().astype(np.float64)
    else:
        table = np.asarray(c.table, dtype=np.float64)
    return DenseTable(table, c.row_sizes.astype(np.float64), c.col_sizes.astype(np.float64), float(c.n))


def contributions(c, index_id: str) -> Contributions:
    """Each cell's share of an index (or each cluster's, for the Centroid Index); see :class:`Contributions`."""
    info = get_index(index_id)
    if info.needs_data and not c.has_data:
        raise CluvalError(f"{info.id} needs the data X: pass X=... to compare()")
    if info.cells is None and info.clusters is None:
        raise CluvalError(f"{info.name} has no anatomy of cells or clusters in cluval")
    value = c.score(info.id)
    if info.clusters is not None:
        parts = info.clusters(c)
        return Contributions(info.id, value, None, 0.0, parts.description, rows=parts.rows, cols=parts.cols)
    if not math.isfinite(value):
        raise CluvalError(f"{info.name} is undefined here ({value}), so it has no anatomy")
    dense = _dense(c)
    parts = info.cells(c, dense)
    if parts is None or not np.isfinite(parts.cells).all() or \
            not np.isclose(parts.cells.sum() + parts.constant, value, rtol=1e-9, atol=1e-12):
        # a convention (one cluster, identical partitions, a clamped value) sets the value
        return Contributions(info.id, value, np.zeros(dense.table.shape), value,
                             "a convention sets the value here, not the cells")
    return Contributions(info.id, value, parts.cells, float(parts.constant), parts.description)
