"""Chance, uncertainty and anatomy of every index (INDICES.md, "Chance, uncertainty and anatomy").

* :func:`chance`: what each index gives under the permutation model (both partitions' cluster
  sizes fixed, objects assigned at random): its expected value, standard deviation, the
  z-score and one-sided p-value of the observed value. Expectations are exact where a closed
  form exists (RI, ARI, FM, AFM, MI, NMI but NMI_joint, VI, NVI, AMI), and so are the standard
  deviations of the pair-counting indices (the variance of sum C(n_ij, 2), from the chances
  that one, two overlapping and two disjoint pairs stay together); everything else comes
  from random tables with the same margins (Patefield's algorithm, ``scipy.stats.random_table``,
  or a random permutation of the objects' labels when the table is sparse or the index
  reads coordinates), each evaluated by the registry's own code.
* :func:`uncertainty`: standard error and interval of each index, by the jackknife over
  objects (exact from the table: leaving out one object of cell (i, j) lowers n_ij, r_i and
  c_j by one, so it costs one evaluation per non-empty cell) or by the bootstrap (the table
  resampled as one multinomial draw of N objects over its cells). The centroid indices read
  each object's coordinates, so with them the objects themselves are left out or resampled.
* :func:`contributions`: a table shaped like the contingency table whose cells add up, with
  at most one constant term, to the index's value; per-cluster orphan indicators for the
  Centroid Index.

All three read a :class:`~cluval_core.Comparison` and cost nothing until called.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pandas as pd
from scipy import stats
from scipy.sparse import coo_array

from ._validation import DENSE_CELLS, CluvalError
from scipy.special import gammaln

from .emi import expected_mutual_information, expected_mutual_information_terms
from .information import AMI_MEANS
from .modern import _log_tables_count, sokal_sneath_in_a
from .matching import tie_priority
from .registry import INDICES

__all__ = ["chance", "uncertainty", "contributions", "Contributions", "EXACT_EXPECTATIONS", "EXACT_DEVIATIONS"]

# Indices whose expectation under the permutation model has a closed form (INDICES.md).
EXACT_EXPECTATIONS = ("ri", "ari", "fowlkes_mallows", "afm", "pair_correlation", "sokal_sneath", "mi", "nmi_sum",
                      "nmi_sqrt", "nmi_max", "nmi_min", "vi", "nvi", "ami", "ami_sqrt", "ami_max", "ami_min",
                      "homogeneity", "completeness", "bcubed_precision", "bcubed_recall")
# ... and whose standard deviation has one too (through Var[sum C(n_ij, 2)]).
EXACT_DEVIATIONS = ("ri", "ari", "fowlkes_mallows", "afm", "pair_correlation", "sokal_sneath")
# The AMI ids and the mean of the entropies that bounds each.
AMI_IDS = {"ami": "sum", "ami_sqrt": "sqrt", "ami_max": "max", "ami_min": "min"}
# Most cells of random tables held at once (n_samples tables are drawn in batches).
_BATCH_CELLS = 1 << 22
# A call estimated to take longer than this is refused before it starts (like the clustering budget).
BUDGET_SECONDS = 60.0
# Patefield's sampler (scipy) counts in 32-bit integers; beyond, its tables are wrong.
_SAMPLER_MAX_N = 2**31 - 1
# Most objects the permutation model shuffles (three arrays of N integers).
_MAX_PERMUTED = 50_000_000


def _ids(c, ids) -> list[str]:
    """The index ids asked for, checked, each once (in the order given; a set in registry order)."""
    if ids is None:
        return [i for i, info in INDICES.items() if c.has_data or not info.needs_data]
    if isinstance(ids, str):
        ids = [ids]
    elif isinstance(ids, (set, frozenset)):
        ids = sorted(ids, key=lambda i: list(INDICES).index(i) if i in INDICES else -1)
    else:
        try:
            ids = list(ids)
        except TypeError:
            raise CluvalError(f"ids must be an index id or a list of them, got {ids!r}") from None
    if any(not isinstance(i, str) for i in ids):
        raise CluvalError(f"ids must be index id strings, got {ids!r}")
    ids = list(dict.fromkeys(ids))
    if not ids:
        raise CluvalError("ids is empty: name at least one index, or pass None for all")
    unknown = [i for i in ids if i not in INDICES]
    if unknown:
        raise CluvalError(f"unknown index id {unknown[0]!r}; the ids are {', '.join(INDICES)}")
    needing = [i for i in ids if INDICES[i].needs_data]
    if needing and not c.has_data:
        raise CluvalError(f"{needing[0]} needs the data X: pass X=... to compare()")
    return ids


def _counts(c, what: str) -> None:
    if c.is_soft and c.is_weighted:
        raise CluvalError(f"{what} needs whole-number weights: the permutation and resampling models move whole "
                          "objects, and real-valued weights do not say how many objects a cell holds")
    if c.is_soft and c._memberships is None:
        raise CluvalError(f"{what} needs integer counts or the memberships: the permutation and resampling models "
                          "move whole objects, which a soft table alone does not record (use "
                          "Comparison.from_memberships(U, V))")


def _rng(seed) -> np.random.Generator:
    try:
        return np.random.default_rng(seed)
    except (TypeError, ValueError):
        raise CluvalError(f"seed must be None, a non-negative whole number or a numpy Generator, got {seed!r}") from None


def _budget(evaluations: int, seconds_each: float, what: str, fewer: str) -> None:
    """Refuse work estimated beyond BUDGET_SECONDS, saying what to change."""
    seconds = evaluations * seconds_each
    if seconds > BUDGET_SECONDS:
        shown = f"{seconds / 60:.0f} min" if seconds < 3600 else f"{seconds / 3600:.1f} h"
        raise CluvalError(f"{what} evaluates {evaluations:,} tables here, about {shown}, more than the budget of "
                          f"{BUDGET_SECONDS:.0f} s, so it was not started: {fewer}")


def _seconds_per_table(c, ids, objects: int = 0) -> float:
    """A generous estimate of one evaluation of `ids` (measured here: pairings grow with the cells)."""
    cells = len(c.cells.values)
    pairs = any(INDICES[i].family in ("set_matching", "cluster_level") for i in ids)
    return 1e-3 + cells * (8e-5 if pairs else 2e-6) + objects * 5e-8


def _positive_cells(c):
    r, col, v = c.cells
    keep = v > 0
    return r[keep], col[keep], v[keep]


# ---------------------------------------------------------------------- chance
def _exact_expectations(c, ids) -> dict[str, float]:
    """The closed-form expectations (INDICES.md) for the ids that have one and are not degenerate."""
    wanted = [i for i in ids if i in EXACT_EXPECTATIONS]
    if not wanted or c.k_true < 2 or c.k_pred < 2:
        return {}  # one cluster on a side: the conventions, not the formulas, give the value
    n = int(c.n)
    rows, cols = c.row_sizes.astype(np.int64), c.col_sizes.astype(np.int64)
    m = n * (n - 1) // 2
    s_r = sum(x * (x - 1) // 2 for x in rows.tolist())  # Python integers: exact at any N
    s_c = sum(x * (x - 1) // 2 for x in cols.tolist())
    out, sds = {}, {}
    if m:
        expected_a = s_r * s_c / m
        sd_a = math.sqrt(_pair_sum_variance(rows, cols))
        out["ri"] = float(Fraction(m * m - m * (s_r + s_c) + 2 * s_r * s_c, m * m))  # exact, then rounded once
        sds["ri"] = 2 * sd_a / m
        if (s_r + s_c) / 2 != expected_a:
            out["ari"], sds["ari"] = 0.0, sd_a / abs((s_r + s_c) / 2 - expected_a)
        if s_r and s_c:
            root = math.sqrt(s_r * s_c)
            out["fowlkes_mallows"], sds["fowlkes_mallows"] = expected_a / root, sd_a / root
            if root < m:
                out["afm"], sds["afm"] = 0.0, sd_a / root / (1 - root / m)
        if min(s_r, s_c, m - s_r, m - s_c) > 0:  # both linear in a, with margins fixed by the model
            root = math.sqrt(s_r * s_c) * math.sqrt((m - s_r) * (m - s_c))
            out["pair_correlation"], sds["pair_correlation"] = 0.0, m * sd_a / root
            weight, constant = sokal_sneath_in_a(m, s_r, s_c)
            out["sokal_sneath"], sds["sokal_sneath"] = expected_a * weight + constant, sd_a * weight
        # E[n_ij^2] = r_i (r_i - 1) c_j (c_j - 1) / (N (N - 1)) + r_i c_j / N, summed over every cell
        twice_r = sum(x * (x - 1) for x in rows.tolist())
        twice_c = sum(x * (x - 1) for x in cols.tolist())
        out["bcubed_precision"] = float(Fraction(twice_r * (n - len(cols)), n * (n - 1)) + len(cols)) / n
        out["bcubed_recall"] = float(Fraction(twice_c * (n - len(rows)), n * (n - 1)) + len(rows)) / n
    e = c.entropies
    emi = expected_mutual_information(rows, cols) if any(i in wanted for i in
                                                         ("mi", "nmi_sum", "nmi_sqrt", "nmi_max", "nmi_min",
                                                          "vi", "nvi", "homogeneity", "completeness", *AMI_IDS)) \
        else 0.0
    out["mi"] = emi
    normalisers = {"nmi_sum": (e.true + e.pred) / 2, "nmi_sqrt": math.sqrt(e.true * e.pred),
                   "nmi_max": max(e.true, e.pred), "nmi_min": min(e.true, e.pred)}
    for i, norm in normalisers.items():
        if norm > 0:
            out[i] = emi / norm
    out["vi"] = e.true + e.pred - 2 * emi
    if e.true + e.pred > 0:
        out["nvi"] = 1 - 2 * emi / (e.true + e.pred)
    for i, mean in AMI_IDS.items():
        bound = AMI_MEANS[mean](e.true, e.pred)
        if bound - emi > 1e-9 * bound:  # else AMI is undefined (every random table reaches the bound)
            out[i] = 0.0
    if e.true > 0:
        out["homogeneity"] = emi / e.true
    if e.pred > 0:
        out["completeness"] = emi / e.pred
    return {i: (out[i], sds.get(i)) for i in wanted if i in out}


def _pair_sum_variance(rows, cols) -> float:
    """Var[sum_ij C(n_ij, 2)] under the permutation model, exactly.

    The sum counts, over the S_r pairs of objects together in the reference, those together
    in the randomly assigned candidate. With pi1, pi2, pi3 the chances that one pair, two pairs
    sharing an object, and two disjoint pairs are together in the candidate, and U the pairs of
    reference pairs that share an object: Var = S_r pi1 (1 - pi1) + 2U (pi2 - pi1^2) + D (pi3 - pi1^2),
    D = S_r (S_r - 1) - 2U the ordered disjoint ones.
    """
    r = [int(x) for x in rows]
    c = [int(x) for x in cols]
    n = sum(r)
    s_r = sum(x * (x - 1) // 2 for x in r)
    pi1 = Fraction(sum(x * (x - 1) // 2 for x in c), n * (n - 1) // 2)
    shared = sum(x * (x - 1) * (x - 2) // 2 for x in r)
    variance = s_r * pi1 * (1 - pi1)
    if n >= 3 and shared:
        pi2 = Fraction(sum(x * (x - 1) * (x - 2) for x in c), n * (n - 1) * (n - 2))
        variance += 2 * shared * (pi2 - pi1 * pi1)
    disjoint = s_r * (s_r - 1) - 2 * shared
    if n >= 4 and disjoint:
        pairs = sum(x * (x - 1) for x in c)
        together = sum(x * (x - 1) * (x - 2) * (x - 3) for x in c) + pairs * pairs - sum((x * (x - 1)) ** 2 for x in c)
        variance += disjoint * (Fraction(together, n * (n - 1) * (n - 2) * (n - 3)) - pi1 * pi1)
    return max(float(variance), 0.0)


def _random_comparisons(c, n_samples: int, rng, ids):
    """Comparisons of random tables with c's margins, yielded in batches (lists).

    With the objects at hand and an index that reads coordinates or the tie order, one side's
    labels are permuted (the permutation model itself; the tie order follows each random
    arrangement). Otherwise tables are drawn by Patefield's algorithm in tie order (so that
    a seed gives the same tables whatever the labels' numbering), or, for a table too large
    to hold densely, by permuting the cells' objects.
    """
    from .comparison import Comparison
    from .contingency import table_from_codes

    shape = c.table.shape
    if c.is_soft:  # permute the objects of one side: N* = U^T V[permutation]
        U, V = c._memberships
        for start in range(0, n_samples, 16):
            yield [Comparison._build(U.T @ V[rng.permutation(len(V))], c.row_labels, c.col_labels)
                   for _ in range(min(16, n_samples - start))]
        return
    if _permutes_objects(c, ids):
        codes_a, codes_b = c.codes
        X = c._X if any(INDICES[i].needs_data for i in ids) else None
        for start in range(0, n_samples, 16):
            batch = []
            for _ in range(min(16, n_samples - start)):
                shuffled = rng.permutation(codes_b)
                batch.append(Comparison._build(table_from_codes(codes_a, shuffled, *shape), c.row_labels,
                                               c.col_labels, X=X, codes=(codes_a, shuffled)))
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
                tables.append(Comparison._build(table, c.row_labels, c.col_labels, tie_order=c.tie_order))
            yield tables
        return
    # a large sparse table: its objects, in tie order, with one side's labels permuted
    r, col, v = _positive_cells(c)
    order = np.argsort(tie_priority(r, col, shape, rows, cols))
    codes_a, codes_b = np.repeat(r[order], v[order]), np.repeat(col[order], v[order])
    for start in range(0, n_samples, 16):
        yield [Comparison._build(table_from_codes(codes_a, rng.permutation(codes_b), *shape), c.row_labels,
                                 c.col_labels, tie_order=c.tie_order) for _ in range(min(16, n_samples - start))]


def _permutes_objects(c, ids) -> bool:
    """Whether chance() permutes the objects' labels (see _random_comparisons)."""
    return (not c.is_soft and c.has_objects
            and any(INDICES[i].needs_data or INDICES[i].tie_dependent for i in ids))


def chance(c, ids=None, *, n_samples: int = 1000, seed=None, progress=None) -> pd.DataFrame:
    """Each index under the permutation model: expected value, SD, z and p (see the module)."""
    _counts(c, "chance")
    ids = _ids(c, ids)
    n_samples = _positive_int(n_samples, "n_samples")
    rng = _rng(seed)
    if progress is not None and not callable(progress):
        raise CluvalError(f"progress must be a function progress(done, total), got {progress!r}")
    permuted = c.is_soft or _permutes_objects(c, ids) or c.table.shape[0] * c.table.shape[1] > DENSE_CELLS
    n = len(c._memberships[0]) if c.is_soft else int(c.n)
    fixed = min(c.table.shape) == 1 and not any(INDICES[i].needs_data for i in ids)
    if not fixed:
        if permuted and n > _MAX_PERMUTED:
            raise CluvalError(f"random tables here permute the labels of {n:,} objects, more than the "
                              f"{_MAX_PERMUTED:,} cluval shuffles")
        if not permuted and n > _SAMPLER_MAX_N:
            raise CluvalError(f"random tables of {n:,} objects are beyond the sampler (Patefield's algorithm in scipy "
                              f"counts up to {_SAMPLER_MAX_N:,})")
        _budget(n_samples, _seconds_per_table(c, ids, n if permuted else 0), "chance()",
                "use fewer random tables (n_samples=...) or fewer indices (ids=...)")
    values = c.scores(ids)
    null = np.empty((n_samples, len(ids)))
    if fixed:  # one cluster on a side: every assignment gives this very table
        null[:] = [values[i] for i in ids]
    else:
        done = 0
        every = max(1, n_samples // 100)  # at most about a hundred progress reports
        # every random table has c's margins, so the same expected mutual information
        emi = c.expected_mutual_information if not c.is_soft and any(i in AMI_IDS for i in ids) else None
        for batch in _random_comparisons(c, n_samples, rng, ids):
            for comparison in batch:
                if emi is not None:
                    comparison.__dict__["expected_mutual_information"] = emi  # as the cached property keeps it
                scores = comparison.scores(ids)
                null[done] = [scores[i] for i in ids]
                done += 1
                if progress is not None and (done % every == 0 or done == n_samples):
                    progress(done, n_samples)
    if fixed and progress is not None:
        progress(n_samples, n_samples)
    exact = {} if c.is_soft else _exact_expectations(c, ids)  # the closed forms hold for counts
    rows = []
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
        rows.append({"value": value, "expected": expected, "sd": sd, "z": z, "p": p, "method": method,
                     "mc_error": error})
    return pd.DataFrame(rows, index=pd.Index(ids, name="index"))


def _positive_int(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 2:
        raise CluvalError(f"{name} must be a whole number of at least 2, got {value!r}")
    return int(value)


# ---------------------------------------------------------------------- uncertainty
def _leave_outs(c, r, col, v):
    """The distinct ways of leaving one object out: (cell, number of objects, tie order).

    Objects of one cell give the same table; they give the same tie order too unless one is
    the first object of its row's or column's cluster, whose removal lets the cluster's second
    object decide its place (for a comparison of labels; a table's own order never changes).
    """
    if not c.has_objects:
        return [(k, int(v[k]), c.tie_order) for k in range(len(v))]
    first, second = ([], [])
    for codes in c.codes:
        order = np.argsort(codes, kind="stable")
        starts = np.flatnonzero(np.r_[True, codes[order][1:] != codes[order][:-1]])
        ends = np.r_[starts[1:], len(order)]
        first.append(order[starts])
        second.append(np.where(ends - starts > 1, order[np.minimum(starts + 1, len(order) - 1)], -1))
    cell_of = {(int(i), int(j)): k for k, (i, j) in enumerate(zip(r, col))}
    special = {}  # object -> its cell
    for side, firsts in enumerate(first):
        for obj in firsts:
            special[int(obj)] = cell_of[int(c.codes[0][obj]), int(c.codes[1][obj])]
    out = []
    counts = v.astype(np.int64).copy()
    for obj, cell in special.items():
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
    out += [(k, int(counts[k]), c.tie_order) for k in np.flatnonzero(counts)]
    return out


def _reduced(c, r, col, v, tie_order=None):
    """The comparison of the cells (r, col, v) of c's layout, empty clusters dropped, in
    `tie_order` (default c's; clusters that lost their last object are left out of it)."""
    from .comparison import Comparison

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
    return Comparison._build(table, c.row_labels[rows_used], c.col_labels[cols_used], tie_order=order)


def uncertainty(c, ids=None, *, method: str = "jackknife", level: float = 0.95, n_samples: int = 1000,
                seed=None) -> pd.DataFrame:
    """Standard error and interval of each index, by the jackknife or the bootstrap (see the module)."""
    _counts(c, "uncertainty")
    ids = _ids(c, ids)
    if method not in ("jackknife", "bootstrap"):
        raise CluvalError(f"method must be 'jackknife' or 'bootstrap', got {method!r}")
    if isinstance(level, bool) or not isinstance(level, numbers.Real) or not 0 < level < 1:
        raise CluvalError(f"level must be a number between 0 and 1, got {level!r}")
    level = float(level)
    n_samples = _positive_int(n_samples, "n_samples") if method == "bootstrap" else n_samples
    rng = _rng(seed)
    n = len(c._memberships[0]) if c.is_soft else int(c.n)
    if method == "jackknife" and n < 3:
        raise CluvalError(f"the jackknife leaves out one object of {n}, and a comparison needs at least 2 objects: "
                          "it needs at least 3")
    if c.is_soft:
        return _soft_uncertainty(c, ids, method, level, n_samples, rng)
    if any(INDICES[i].needs_data for i in ids):
        return _object_uncertainty(c, ids, method, level, n_samples, rng)
    r, col, v = _positive_cells(c)
    v = v.astype(np.int64)
    evaluations = len(v) + c.k_true + c.k_pred if method == "jackknife" else n_samples
    _budget(evaluations, _seconds_per_table(c, ids), f"the {method}",
            "use the bootstrap with fewer samples" if method == "jackknife" else "use fewer samples (n_samples=...)")
    values = c.scores(ids)
    if method == "jackknife":
        leave_outs = _leave_outs(c, r, col, v)
        null = np.empty((len(leave_outs), len(ids)))
        weights = np.empty(len(leave_outs))
        for k, (cell, weight, tie_order) in enumerate(leave_outs):
            left = v.copy()
            left[cell] -= 1
            scores = _reduced(c, r, col, left, tie_order).scores(ids)
            null[k] = [scores[i] for i in ids]
            weights[k] = weight
    else:
        null = np.empty((evaluations, len(ids)))
        # cells drawn in tie order, so that a seed gives the same resamples whatever the numbering
        order = np.argsort(tie_priority(r, col, c.table.shape, *c.tie_order))
        draws = rng.multinomial(int(v.sum()), v[order] / v.sum(), size=evaluations)
        for k, drawn_in_order in enumerate(draws):
            drawn = np.empty_like(drawn_in_order)
            drawn[order] = drawn_in_order
            scores = _reduced(c, r, col, drawn).scores(ids)
            null[k] = [scores[i] for i in ids]
    return _summary(ids, values, null, weights if method == "jackknife" else None, method, level)


def _summary(ids, values, null, weights, method, level) -> pd.DataFrame:
    """The uncertainty frame from each evaluation's values (`null`, one row per left-out object
    kind with its `weights` for the jackknife; one row per resample for the bootstrap)."""
    z = stats.norm.ppf((1 + level) / 2)
    rows = []
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


def _object_uncertainty(c, ids, method, level, n_samples, rng) -> pd.DataFrame:
    """Leave out (or resample) objects with their coordinates: the centroid indices change
    with the object, not only with its cell, so each is compared anew (N or n_samples times)."""
    from .comparison import compare

    codes_a, codes_b = c.codes
    X = c._X
    n = len(codes_a)
    evaluations = n if method == "jackknife" else n_samples
    _budget(evaluations, _seconds_per_table(c, ids, 10 * n), f"the {method} of the centroid indices",
            "use the bootstrap with fewer samples, or leave out the indices that need X")
    values = c.scores(ids)
    null = np.empty((evaluations, len(ids)))
    keep = np.ones(n, dtype=bool)
    for k in range(evaluations):
        if method == "jackknife":
            keep[k] = False
            chosen = keep
        else:
            chosen = np.sort(rng.integers(0, n, n))
        scores = compare(codes_a[chosen], codes_b[chosen], X=X[chosen]).scores(ids)
        null[k] = [scores[i] for i in ids]
        keep[k] = True
    return _summary(ids, values, null, np.ones(evaluations) if method == "jackknife" else None, method, level)


def _soft_uncertainty(c, ids, method, level, n_samples, rng) -> pd.DataFrame:
    """Leave out (or resample) objects of a soft comparison: N* = U^T V without object k."""
    from .comparison import Comparison

    U, V = c._memberships
    n = len(U)
    evaluations = n if method == "jackknife" else n_samples
    _budget(evaluations, _seconds_per_table(c, ids, n * c.table.size // 10), f"the {method}",
            "use the bootstrap with fewer samples" if method == "jackknife" else "use fewer samples (n_samples=...)")
    values = c.scores(ids)
    full = U.T @ V
    null = np.empty((evaluations, len(ids)))
    for k in range(evaluations):
        if method == "jackknife":
            table = full - np.outer(U[k], V[k])
        else:
            drawn = rng.integers(0, n, n)
            table = U[drawn].T @ V[drawn]
        scores = Comparison._build(table, c.row_labels, c.col_labels).scores(ids)
        null[k] = [scores[i] for i in ids]
    return _summary(ids, values, null, np.ones(evaluations) if method == "jackknife" else None, method, level)


# ---------------------------------------------------------------------- anatomy
@dataclass(frozen=True)
class Contributions:
    """Where an index's value comes from.

    ``cells`` (K_a x K_b, the table's row and column order) and ``constant`` add up to
    ``value`` for the indices with an anatomy of cells; the Centroid Index has per-cluster
    contributions instead (``rows`` and ``cols``: 1.0 marks an orphan, a cluster that no
    cluster of the other side maps to; CI is the larger of the two sums). ``description``
    says what a cell's number means.
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


def _dense(c) -> np.ndarray:
    if c.is_sparse:
        if c.table.shape[0] * c.table.shape[1] > DENSE_CELLS:
            raise CluvalError(f"contributions are a {c.table.shape[0]} x {c.table.shape[1]} table, more than "
                              f"{DENSE_CELLS:,} cells")
        return c.table.toarray().astype(np.float64)
    return np.asarray(c.table, dtype=np.float64)


def _line_maxima(table: np.ndarray, axis: int, order) -> np.ndarray:
    """Mask of one largest cell per row (axis=1) or column (axis=0), the first in tie order."""
    laid = np.take(table, order, axis=axis)
    first = np.argmax(laid, axis=axis)
    mask = np.zeros(table.shape, dtype=bool)
    if axis == 1:
        mask[np.arange(table.shape[0]), order[first]] = True
    else:
        mask[order[first], np.arange(table.shape[1])] = True
    return mask


def _paired(shape, pairing) -> np.ndarray:
    mask = np.zeros(shape, dtype=bool)
    keep = pairing.overlap > 0
    mask[pairing.rows[keep], pairing.cols[keep]] = True
    return mask


def contributions(c, index_id: str) -> Contributions:
    """Each cell's share of an index (INDICES.md, "Contributions"); see :class:`Contributions`."""
    if not isinstance(index_id, str) or index_id not in INDICES:
        raise CluvalError(f"index_id must be one index id, got {index_id!r}; the ids are {', '.join(INDICES)}")
    info = INDICES[index_id]
    if info.needs_data and not c.has_data:
        raise CluvalError(f"{index_id} needs the data X: pass X=... to compare()")
    if not info.anatomy and index_id not in ("ci_partition", "ci_centroid"):
        raise CluvalError(f"{info.name} has no anatomy of cells or clusters in cluval")
    value = c.score(index_id)
    if index_id in ("ci_partition", "ci_centroid"):
        forward, backward = c.jaccard_mapping if index_id == "ci_partition" else c.centroid_mapping
        return Contributions(index_id, value, None, 0.0,
                             "1 marks a cluster that no cluster of the other partition maps to (an orphan)",
                             rows=(backward.in_degree == 0).astype(float), cols=(forward.in_degree == 0).astype(float))
    if not math.isfinite(value):
        raise CluvalError(f"{info.name} is undefined here ({value}), so it has no anatomy")
    table = _dense(c)
    shape = table.shape
    n = float(c.n)
    rows, cols = c.row_sizes.astype(np.float64), c.col_sizes.astype(np.float64)
    cells, constant, what = _anatomy(c, index_id, table, rows, cols, n)
    if cells is None or not np.isclose(cells.sum() + constant, value, rtol=1e-9, atol=1e-12):
        # a convention (one cluster, identical partitions, a clamped value) sets the value
        cells, constant, what = np.zeros(shape), value, "a convention sets the value here, not the cells"
    return Contributions(index_id, value, cells, float(constant), what)


def _anatomy(c, index_id, table, rows, cols, n):
    """(cells, constant, description) of index_id, or (None, 0, "") where its formula does not apply."""
    pairs = table * (table - 1) / 2
    m = n * (n - 1) / 2
    s_r = float(np.sum(rows * (rows - 1) / 2))
    s_c = float(np.sum(cols * (cols - 1) / 2))
    if index_id == "ri":
        return 2 * pairs / m, (m - s_r - s_c) / m, "2 C(n_ij, 2) / C(N, 2): pairs kept together in both"
    if index_id == "ari":
        denominator = (s_r + s_c) / 2 - s_r * s_c / m
        if denominator == 0:
            return None, 0.0, ""
        expected = np.outer(rows * (rows - 1) / 2, cols * (cols - 1) / 2) / m
        return (pairs - expected) / denominator, 0.0, "(C(n_ij, 2) - its expectation) / ARI's denominator"
    if index_id in ("fowlkes_mallows", "afm"):
        if not s_r or not s_c:
            return None, 0.0, ""
        root = math.sqrt(s_r * s_c)
        if index_id == "fowlkes_mallows":
            return pairs / root, 0.0, "C(n_ij, 2) / sqrt(sum C(r_i, 2) sum C(c_j, 2))"
        e = root / m
        return pairs / root / (1 - e), -e / (1 - e), "C(n_ij, 2) / sqrt(...) / (1 - E); the constant is -E / (1 - E)"
    e = c.entropies
    with np.errstate(divide="ignore", invalid="ignore"):
        mi_cells = np.where(table > 0, table / n * np.log(table * n / np.outer(rows, cols)), 0.0)
        vi_cells = np.where(table > 0, table / n * (np.log(rows[:, None] / table) + np.log(cols[None, :] / table)),
                            0.0)
    if index_id == "mi":
        return mi_cells, 0.0, "(n_ij/N) log(N n_ij / (r_i c_j)) nats"
    normalisers = {"nmi_sum": (e.true + e.pred) / 2, "nmi_sqrt": math.sqrt(e.true * e.pred),
                   "nmi_max": max(e.true, e.pred), "nmi_min": min(e.true, e.pred), "nmi_joint": e.joint}
    if index_id in normalisers:
        norm = normalisers[index_id]
        return (mi_cells / norm, 0.0, "the cell's mutual information over the normaliser") if norm > 0 else (None, 0, "")
    if index_id == "vi":
        return vi_cells, 0.0, "(n_ij/N) (log(r_i/n_ij) + log(c_j/n_ij)) nats"
    if index_id == "nvi":
        total = e.true + e.pred
        return (vi_cells / total, 0.0, "the cell's variation of information over H_a + H_b") if total > 0 else (None, 0, "")
    if index_id in AMI_IDS:
        if c.is_soft or c.k_true == 1 or c.k_pred == 1:
            return None, 0.0, ""
        emi_cells = expected_mutual_information_terms(c.row_sizes, c.col_sizes)
        denominator = AMI_MEANS[AMI_IDS[index_id]](e.true, e.pred) - emi_cells.sum()
        return ((mi_cells - emi_cells) / denominator, 0.0,
                "(the cell's mutual information - its expectation) / AMI's denominator")
    if index_id in ("homogeneity", "completeness"):
        entropy = e.true if index_id == "homogeneity" else e.pred
        return (mi_cells / entropy, 0.0, f"the cell's mutual information over H_{'a' if entropy is e.true else 'b'}") \
            if entropy > 0 else (None, 0.0, "")
    if index_id == "rmi_flat":
        with np.errstate(invalid="ignore"):
            cells = gammaln(table + 1) / n
        constant = (gammaln(n + 1) - gammaln(rows + 1).sum() - gammaln(cols + 1).sum()
                    - _log_tables_count(c.col_sizes, c.row_sizes)) / n
        return cells, constant, "log(n_ij!) / N nats; the constant is the margins' part and the count of tables"
    if index_id in ("bcubed_precision", "bcubed_recall", "ecs"):
        sizes = {"bcubed_precision": np.broadcast_to(cols[None, :], table.shape),
                 "bcubed_recall": np.broadcast_to(rows[:, None], table.shape),
                 "ecs": np.maximum.outer(rows, cols)}[index_id]
        what = {"bcubed_precision": "c_j", "bcubed_recall": "r_i", "ecs": "max(r_i, c_j)"}[index_id]
        return table * table / sizes / n, 0.0, f"n_ij (n_ij / {what}) / N: the cell's objects' scores over N"
    if index_id in ("pair_jaccard", "pair_correlation", "sokal_sneath"):
        m_a, m_b = s_r, s_c
        a = float(pairs.sum())
        if index_id == "pair_jaccard":
            union = m_a + m_b - a
            return (pairs / union, 0.0, "C(n_ij, 2) / (a + b + c)") if union > 0 else (None, 0.0, "")
        if index_id == "pair_correlation":
            if min(m_a, m_b, m - m_a, m - m_b) <= 0:
                return None, 0.0, ""
            root = math.sqrt(m_a * m_b) * math.sqrt((m - m_a) * (m - m_b))
            return m * pairs / root, -m_a * m_b / root, "M C(n_ij, 2) / sqrt(...); the constant is -m_a m_b / sqrt(...)"
        if min(m_a, m_b, m - m_a, m - m_b) <= 0:
            return None, 0.0, ""
        weight, constant = sokal_sneath_in_a(m, m_a, m_b)
        return pairs * weight, constant, "C(n_ij, 2) times the weight of a pair together in both; constant from d"
    order_rows, order_cols = c.tie_order
    if index_id in ("f_measure", "f_measure_pred"):
        dice = 2 * table / np.add.outer(rows, cols)
        if index_id == "f_measure":
            return (np.where(_line_maxima(dice, 1, order_cols), dice * rows[:, None] / n, 0.0), 0.0,
                    "r_i F_ij / N at each reference cluster's best match")
        return (np.where(_line_maxima(dice, 0, order_rows), dice * cols[None, :] / n, 0.0), 0.0,
                "c_j F_ij / N at each candidate cluster's best match")
    if index_id == "purity":
        return np.where(_line_maxima(table, 0, order_rows), table / n, 0.0), 0.0, "n_ij / N at each column's largest cell"
    if index_id == "purity_inverse":
        return np.where(_line_maxima(table, 1, order_cols), table / n, 0.0), 0.0, "n_ij / N at each row's largest cell"
    if index_id == "nvd":
        hits = _line_maxima(table, 1, order_cols).astype(float) + _line_maxima(table, 0, order_rows)
        return -hits * table / (2 * n), 1.0, "-n_ij / 2N at each row's and each column's largest cell; constant 1"
    if index_id in ("ch_greedy", "ch_optimal", "pa", "na"):
        pairing = c.greedy_pairing if index_id == "ch_greedy" else c.accuracy_pairing
        share = np.where(_paired(table.shape, pairing), table / n, 0.0)
        if index_id in ("ch_greedy", "ch_optimal"):
            return -share, 1.0, "-n_ij / N at each pair; constant 1"
        if index_id == "pa":
            return share, 0.0, "n_ij / N at each pair of the optimal pairing"
        k = max(c.k_true, c.k_pred)
        if k == 1:
            return None, 0.0, ""
        return share / (1 - 1 / k), -(1 / k) / (1 - 1 / k), "n_ij / N / (1 - 1/k) at each pair; constant -(1/k)/(1 - 1/k)"
    if index_id == "aaa":
        k = c.k_true
        if k == 1:
            return None, 0.0, ""
        share = np.where(_paired(table.shape, c.row_normalised_pairing), table / rows[:, None] / k, 0.0)
        return share / (1 - 1 / k), -(1 / k) / (1 - 1 / k), "n_ij / r_i / K_a / (1 - 1/K_a) at each pair"
    if index_id in ("psi", "psi_simplified"):
        steps = c.psi_steps
        e_value = 1.0 if index_id == "psi_simplified" else steps.E
        if steps.max_k == e_value:  # one cluster each side: a convention
            return None, 0.0, ""
        if steps.S < e_value:
            return np.zeros(table.shape), 0.0, f"S = {steps.S:.4g} < E = {e_value:.4g}: PSI is 0 and no cell counts"
        k = steps.max_k
        bb = table / np.maximum.outer(rows, cols)
        share = np.where(_paired(table.shape, c.hungarian_pairing), bb / (k - e_value), 0.0)
        return share, -e_value / (k - e_value), "n_ij / max(r_i, c_j) / (max(K, K') - E) at each pair; constant -E/(max(K, K') - E)"
    if index_id in ("csi_partition", "csi_centroid"):
        forward, backward = c.jaccard_mapping if index_id == "csi_partition" else c.centroid_mapping
        hits = np.zeros(table.shape)
        np.add.at(hits, (np.arange(table.shape[0]), forward.targets), 1.0)
        np.add.at(hits, (backward.targets, np.arange(table.shape[1])), 1.0)
        return hits * table / (2 * n), 0.0, "n_ij / 2N for each mapping that chooses the cell"
    return None, 0.0, ""
