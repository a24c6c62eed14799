"""Is candidate A really closer to the reference than candidate B? The paired comparison.

Two clusterings A and B of the same objects are compared with one reference by any index,
and the difference D = I(reference, A) - I(reference, B) is judged three ways, all paired
(the same objects for both candidates):

* **the exact paired jackknife**: each object left out in turn, from both comparisons at
  once. Objects that share their reference, A and B clusters (a cell of the three-way table)
  give the same two left-out tables, so each such cell costs two evaluations (an object that
  is the first of one of its clusters, whose removal changes the tie order, is its own kind).
  The standard error of D and a normal interval D +- z SE follow;
* **a paired bootstrap**: the objects resampled with replacement (one multinomial draw over
  the three-way table's cells), both comparisons of each resample evaluated, and the
  percentile interval of the resampled differences;
* **a paired permutation test**. Null hypothesis: given the reference, each object's two
  candidate labels are exchangeable, each candidate's clusters being named after the
  reference's by that candidate's own pairing of largest overlap with the reference (a cluster
  that shares no object with its partner keeps a name of its own). Naming both after the
  reference, not B after A, keeps the names a function of each candidate alone, so that swaps
  keep the test's level when the candidates have many clusters that match the reference poorly.
  Each permutation swaps the two labels of every object with probability 1/2, which the null
  leaves the distribution of the data unchanged, and D is computed again. The two-sided p-value
  is (1 + #{|D*| >= |D|}) / (1 + permutations).

What it shows and what it does not: a small p and intervals that exclude 0 say that on these
objects, against this reference, the difference is larger than resampling the objects or
swapping their labels produces. They do not say that A would be closer on other data, by
another index or against another reference, nor that the difference matters in practice; and
the jackknife and bootstrap intervals treat the objects as a sample from a larger population,
which a fixed benchmark set is not.

>>> from cluval_core import compare_paired
>>> truth = [0] * 20 + [1] * 20
>>> a = [0] * 20 + [1] * 19 + [0]               # one object misplaced
>>> b = [0] * 15 + [1] * 5 + [1] * 15 + [0] * 5  # ten objects misplaced
>>> paired = compare_paired(truth, a, b, ["ari"], n_bootstrap=200, n_permutations=200, seed=0)
>>> paired.table.loc["ari", ["a", "b", "difference"]].round(3).tolist()
[0.9, 0.23, 0.67]
>>> bool(paired.table.loc["ari", "p"] < 0.05), paired.table.loc["ari", "closer"]
(True, 'A')
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from .chance import (
    BUDGET_SECONDS,
    Pace,
    _clock,
    _positive_cells,
    _positive_int,
    _reduced,
    _rng,
    check_budget,
    jackknife_values,
)
from .comparison import Comparison
from .contingency import factorize, table_from_codes
from .labels import compare
from .registry import INDICES, headline_ids, index_ids
from .validation import CluvalError, as_labels

__all__ = ["compare_paired", "PairedComparison"]

# Resamples drawn at once (one multinomial draw each): the budget is judged before many more are made.
_DRAWS_AT_ONCE = 64
# Most resamples or permutations one call makes (each keeps a value per index).
MAX_SAMPLES = 1_000_000
# Most objects the exact jackknife and the permutation test handle (each permutation relabels N objects).
MAX_OBJECTS = 10_000_000
# What the test's null hypothesis is, said once.
NULL = ("given the reference, each object's two candidate labels are exchangeable (each candidate's clusters named "
        "after the reference's by its own pairing of largest overlap with the reference): swapping them object by "
        "object leaves the data's distribution unchanged")


@dataclass(frozen=True)
class PairedComparison:
    """The paired comparison of candidates A and B against one reference (see the module).

    Attributes
    ----------
    table : DataFrame
        One row per index: ``a`` and ``b`` (each candidate's value), ``difference`` (a - b),
        ``closer`` ("A", "B", "neither" or "undefined": the candidate the difference favours, by
        the index's direction), the jackknife's ``se``, ``low`` and ``high`` (a normal interval), the
        bootstrap's ``boot_low`` and ``boot_high`` (percentiles) and the permutation test's
        two-sided ``p``; NaN where a method was not run or a value is undefined.
    bootstrap, permutations : DataFrame or None
        The resampled differences and the differences under swapped labels, one column per index.
    level : float
        The intervals' coverage.
    n : int
        The number of objects.
    names : (str, str)
        How A and B are called in sentences.
    """

    table: pd.DataFrame
    bootstrap: pd.DataFrame | None
    permutations: pd.DataFrame | None
    level: float
    n: int
    names: tuple[str, str] = ("A", "B")

    def sentence(self, index_id: str) -> str:
        """What the comparison shows for one index, and what it does not, in words."""
        row = self.table.loc[index_id]
        info = INDICES[index_id]
        a, b = self.names
        if not math.isfinite(row["difference"]):
            if row["a"] == row["b"]:  # both infinite alike
                return f"{info.name}: {a} and {b} both score {_shown(row['a'])}: equally close by it."
            undefined = [name for name, value in ((a, row["a"]), (b, row["b"])) if math.isnan(value)]
            if undefined:
                return (f"{info.name} is undefined for {' and '.join(undefined)} here, so the two candidates cannot "
                        "be compared by it.")
        favoured, other = (a, b) if row["closer"] == "A" else (b, a)
        alpha = 1 - self.level
        intervals = []
        if not math.isnan(row["se"]):
            intervals.append(("jackknife", row["low"], row["high"]))
        if not math.isnan(row["boot_low"]):
            intervals.append(("bootstrap", row["boot_low"], row["boot_high"]))
        found = []
        if intervals:
            found.append(f"{100 * self.level:g} % interval{'s' if len(intervals) > 1 else ''}: " + ", ".join(
                f"{method} {_shown(low)} to {_shown(high)}" for method, low, high in intervals))
        if not math.isnan(row["p"]):
            found.append(f"permutation test p = {row['p']:.3g}")
        values = (f"{info.name}: {a} {_shown(row['a'])}, {b} {_shown(row['b'])}, "
                  f"{a} − {b} = {_shown(row['difference'])}" + (f" ({'; '.join(found)})" if found else "") + ". ")
        if row["closer"] == "neither":
            return values + f"The two candidates are equally close to the reference by {info.name}."
        # each check that ran and can speak: (what it says for a difference, what it says against one)
        votes, notes = [], []
        for method, low, high in intervals:
            if low == high:  # no spread at all: the index moves by whole steps, or not, as objects change
                notes.append(f"the {method} interval has no width here (the index does not move smoothly with the "
                             "objects), so it says nothing")
            else:
                votes.append((low > 0 or high < 0, f"the {method} interval leaves out 0", f"the {method} interval "
                              "holds 0"))
        if not math.isnan(row["p"]):
            votes.append((row["p"] < alpha, f"the permutation test's p is below {alpha:g}",
                          f"the permutation test's p is not below {alpha:g}"))
        for_difference = [yes for decided, yes, _ in votes if decided]
        against = [no for decided, _, no in votes if not decided]
        if votes and not against:
            verdict = (f"{_joined(for_difference).capitalize()}: on these {self.n:,} objects {favoured} is closer to "
                       f"the reference than {other} by {info.name}.")
        elif votes and not for_difference:
            verdict = (f"{favoured} scores better, but {_joined(against)}: these objects do not show that either "
                       f"candidate is closer by {info.name}.")
        elif votes:
            verdict = (f"{favoured} scores better; {_joined(for_difference)}, but {_joined(against)}: treat the "
                       "difference as uncertain.")
        else:
            verdict = f"{favoured} scores better; no check of the difference was run."
        if notes:
            verdict += f" ({_joined(notes).capitalize()}.)"
        if self.permutations is not None and not math.isnan(row["p"]):
            count = int(self.permutations[index_id].notna().sum())
            error = math.sqrt(row["p"] * (1 - row["p"]) / max(count, 1))
            if abs(row["p"] - alpha) < 2 * error:
                verdict += (f" The permutation test's p is within its Monte Carlo error of {alpha:g}: more "
                            "permutations would settle on which side it falls.")
        return (values + verdict + " This is about these objects and this reference: it does not say that "
                f"{favoured} would be closer on other data or by another index, nor that the difference matters; "
                "and among several indices one may favour a candidate by chance.")


def _joined(parts) -> str:
    parts = list(parts)
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _shown(value: float) -> str:
    """Four significant digits, more where fewer would show a round value the number does not have
    (0.99998 is not "1", nor 1e-06 "0")."""
    for digits in range(4, 17):
        text = f"{value:.{digits}g}"
        if float(text) == value or float(text) not in (-1.0, 0.0, 1.0):
            return text
    return repr(value)


def _paired_jackknife(c_a, c_b, ids, budget):
    """The standard error of each index's difference, by leaving out each object from both comparisons."""
    start = _clock()
    null_a, _, classes_a = jackknife_values(c_a, ids, budget=budget, what="the paired jackknife")
    left = max(budget - (_clock() - start), 1e-9)
    null_b, _, classes_b = jackknife_values(c_b, ids, budget=left, what="the paired jackknife")
    # each kind of object: the pair (its kind in A's comparison, in B's), and how many objects are of it
    kinds, weights = np.unique(classes_a.astype(np.int64) * len(null_b) + classes_b, return_counts=True)
    with np.errstate(invalid="ignore"):  # inf - inf: undefined, and the SE with it
        theta = null_a[kinds // len(null_b)] - null_b[kinds % len(null_b)]
    n = int(weights.sum())
    se = []
    for column in theta.T:  # exactly rounded sums: the same whatever order the kinds come in
        if not np.isfinite(column).all():  # a left-out value undefined or infinite: so is the SE
            se.append(math.nan)
            continue
        mean = math.fsum(weights * column) / n
        se.append(math.sqrt((n - 1) / n * math.fsum(weights * (column - mean) ** 2)))
    return np.array(se)


def _three_way(codes):
    """The non-empty cells of the three-way table of (reference, A, B) codes: each object's cell,
    and the cells' (reference, A, B) codes."""
    ref, a, b = (x.astype(np.int64) for x in codes)
    combined = (ref * (a.max() + 1) + a) * (b.max() + 1) + b
    keys, cell_of = np.unique(combined, return_inverse=True)
    b_code = keys % (b.max() + 1)
    rest = keys // (b.max() + 1)
    return cell_of.ravel(), rest // (a.max() + 1), rest % (a.max() + 1), b_code


def _cells_of(c, rows, cols) -> np.ndarray:
    """Positions in c's positive cells of the (row, column) pairs (all present)."""
    r, col, _ = _positive_cells(c)
    keys = r.astype(np.int64) * c.k_pred + col
    return np.searchsorted(keys, rows * c.k_pred + cols)


def _paired_bootstrap(c_a, c_b, ids, n_samples, rng, budget, tick):
    """The differences of `n_samples` paired resamples of the objects (one row each)."""
    out = np.empty((n_samples, len(ids)))
    pace = Pace(n_samples, budget, "the paired bootstrap", "use fewer resamples (n_bootstrap=...)")
    n = len(c_a.codes[0])
    if any(INDICES[i].needs_data for i in ids):  # the objects themselves, with their coordinates
        for k in range(n_samples):
            chosen = np.sort(rng.integers(0, n, n))
            one, two = c_a.with_objects(chosen).scores(ids), c_b.with_objects(chosen).scores(ids)
            out[k] = [one[i] - two[i] for i in ids]
            pace.done(k + 1)
            tick()
        return out
    cell_of, ref, a, b = _three_way((c_a.codes[0], c_a.codes[1], c_b.codes[1]))
    counts = np.bincount(cell_of, minlength=len(ref))
    # the cells drawn in tie order (reference, then A, then B), so that a seed gives the same
    # resamples whatever the labels' numbering
    ranks = [np.argsort(order) for order in (*c_a.tie_order, c_b.tie_order[1])]
    order = np.lexsort((ranks[2][b], ranks[1][a], ranks[0][ref]))
    in_a, in_b = _cells_of(c_a, ref, a), _cells_of(c_b, ref, b)
    (ra, ca, va), (rb, cb, vb) = _positive_cells(c_a), _positive_cells(c_b)
    draws = (draw for start in range(0, n_samples, _DRAWS_AT_ONCE)
             for draw in rng.multinomial(n, counts[order] / n, size=min(_DRAWS_AT_ONCE, n_samples - start)))
    for k, drawn_in_order in enumerate(draws):
        drawn = np.empty_like(drawn_in_order)
        drawn[order] = drawn_in_order
        one = _reduced(c_a, ra, ca, np.bincount(in_a, weights=drawn, minlength=len(va)).astype(np.int64)).scores(ids)
        two = _reduced(c_b, rb, cb, np.bincount(in_b, weights=drawn, minlength=len(vb)).astype(np.int64)).scores(ids)
        out[k] = [one[i] - two[i] for i in ids]
        pace.done(k + 1)
        tick()
    return out


def _named_after_reference(reference, codes, k_ref: int, k: int, offset: int) -> np.ndarray:
    """A candidate's codes renamed after the reference's clusters: each cluster takes the code of its
    partner in the candidate's own pairing of largest overlap with the reference, where they share
    objects; the others take codes of their own, `offset`, `offset` + 1, ..."""
    table = table_from_codes(reference, codes, k_ref, k)
    pairing = Comparison._build(table, np.arange(k_ref), np.arange(k), codes=(reference, codes)).accuracy_pairing
    names = offset + np.arange(k)
    shared = pairing.overlap > 0
    names[pairing.cols[shared]] = pairing.rows[shared]
    return names[codes]


def _scores_of_codes(reference, row_labels, candidate, X, ids) -> dict:
    codes, values = factorize(candidate)
    table = table_from_codes(reference, codes, len(row_labels), len(values))
    return Comparison._build(table, row_labels, values, X=X, codes=(reference, codes), copy=False).scores(ids)


def _permutation_test(c_a, c_b, ids, n_samples, rng, budget, tick):
    """The differences under `n_samples` random swaps of the two candidates' labels (one row each)."""
    reference, codes_a = c_a.codes
    k_ref = c_a.k_true
    codes_a = _named_after_reference(reference, codes_a, k_ref, c_a.k_pred, k_ref)
    codes_b = _named_after_reference(reference, c_b.codes[1], k_ref, c_b.k_pred, k_ref + c_a.k_pred)
    X = c_a.data if any(INDICES[i].needs_data for i in ids) else None
    out = np.empty((n_samples, len(ids)))
    pace = Pace(n_samples, budget, "the permutation test", "use fewer permutations (n_permutations=...)")
    for k in range(n_samples):
        swap = rng.random(len(codes_a)) < 0.5
        one = _scores_of_codes(reference, c_a.row_labels, np.where(swap, codes_b, codes_a), X, ids)
        two = _scores_of_codes(reference, c_a.row_labels, np.where(swap, codes_a, codes_b), X, ids)
        out[k] = [one[i] - two[i] for i in ids]
        pace.done(k + 1)
        tick()
    return out


def _closer(info, difference: float) -> str:
    if math.isnan(difference):
        return "undefined"
    if difference == 0:
        return "neither"
    return "A" if (difference > 0) == info.higher_is_better else "B"


def _count(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise CluvalError(f"{name} must be a whole number, 0 to skip it or at least 2, got {value!r}")
    if value > MAX_SAMPLES:
        raise CluvalError(f"{name} must be at most {MAX_SAMPLES:,}, got {value:,}")
    return 0 if value == 0 else _positive_int(value, name)


def compare_paired(labels_true, labels_a, labels_b, ids=None, *, X=None, jackknife: bool = True,
                   n_bootstrap: int = 1000, n_permutations: int = 1000, level: float = 0.95, seed=None,
                   names=("A", "B"), progress=None, budget: float = BUDGET_SECONDS) -> PairedComparison:
    """Is candidate A closer to the reference than candidate B? The difference of each index,
    with its paired jackknife, bootstrap interval and permutation test (see the module).

    Parameters
    ----------
    labels_true, labels_a, labels_b : array-like of shape (N,)
        The reference and the two candidates' labels, for the same objects in the same order.
    ids : str or sequence of str, optional
        Index ids (default: the headline indices that apply).
    X : array-like of shape (N, d), optional
        The objects' coordinates, for the centroid indices (each object is then left out or
        resampled with its coordinates: N evaluations for the jackknife).
    jackknife : bool
        Compute the exact paired jackknife (default True).
    n_bootstrap, n_permutations : int
        Resamples and permutations (default 1 000 each; 0 skips that method).
    level : float
        The intervals' coverage (default 0.95); the verdicts call p < 1 - level small.
    seed : None, int or numpy Generator
        Draws the resamples and the swaps.
    names : (str, str)
        What sentences call the two candidates.
    progress : callable(done, total), optional
        Called as the resamples and permutations are done (about a hundred times in all).
    budget : float
        Seconds the whole may take (60 by default; ``math.inf`` for no limit), judged from the
        pace of the first evaluations as :func:`~cluval_core.core.chance.chance` does.

    Returns
    -------
    PairedComparison
    """
    budget = check_budget(budget)
    if isinstance(level, bool) or not isinstance(level, numbers.Real) or not 0 < level < 1:
        raise CluvalError(f"level must be a number between 0 and 1, got {level!r}")
    n_bootstrap, n_permutations = _count(n_bootstrap, "n_bootstrap"), _count(n_permutations, "n_permutations")
    if (not isinstance(names, (tuple, list)) or len(names) != 2
            or not all(isinstance(name, str) and name for name in names)):
        raise CluvalError(f"names must be two non-empty strings, got {names!r}")
    level = float(level)
    # the resamples and the swaps drawn from streams of their own: p does not depend on n_bootstrap
    boot_rng, swap_rng = _rng(seed).spawn(2)
    truth = as_labels(labels_true, "labels_true")
    for name, labels in (("labels_a", labels_a), ("labels_b", labels_b)):
        labels = as_labels(labels, name)
        if labels.shape != truth.shape:
            raise CluvalError(f"labels_true and {name} differ in length: {truth.size} != {labels.size}")
    c_a = compare(labels_true, labels_a, X=X)
    c_b = compare(labels_true, labels_b, X=X)
    n = int(c_a.n)
    if n < 3:
        raise CluvalError(f"a paired comparison needs at least 3 objects, got {n}")
    if n > MAX_OBJECTS:
        raise CluvalError(f"a paired comparison handles up to {MAX_OBJECTS:,} objects, got {n:,}")
    if progress is not None and not callable(progress):
        raise CluvalError(f"progress must be a function progress(done, total), got {progress!r}")
    if ids is None:
        ids = [i for i in headline_ids() if X is not None or not INDICES[i].needs_data]
    ids = index_ids(ids, has_data=X is not None)
    values_a, values_b = c_a.scores(ids), c_b.scores(ids)
    start = _clock()
    total, done = n_bootstrap + n_permutations, [0]
    every = max(1, total // 100)  # at most about a hundred progress reports

    def tick():
        done[0] += 1
        if progress is not None and (done[0] % every == 0 or done[0] == total):
            progress(done[0], total)

    def left() -> float:
        return max(budget - (_clock() - start), 1e-9)

    z = stats.norm.ppf((1 + level) / 2)
    se = _paired_jackknife(c_a, c_b, ids, budget) if jackknife else np.full(len(ids), math.nan)
    boot = _paired_bootstrap(c_a, c_b, ids, n_bootstrap, boot_rng, left(), tick) if n_bootstrap else None
    swapped = _permutation_test(c_a, c_b, ids, n_permutations, swap_rng, left(), tick) if n_permutations else None
    rows = []
    for k, i in enumerate(ids):
        difference = values_a[i] - values_b[i]
        row = {"a": values_a[i], "b": values_b[i], "difference": difference,
               "closer": _closer(INDICES[i], difference), "se": float(se[k]),
               "low": difference - z * se[k], "high": difference + z * se[k],
               "boot_low": math.nan, "boot_high": math.nan, "p": math.nan}
        if boot is not None and not math.isnan(difference):
            finite = boot[:, k][~np.isnan(boot[:, k])]
            if len(finite):
                row["boot_low"], row["boot_high"] = np.quantile(finite, [(1 - level) / 2, (1 + level) / 2])
        if swapped is not None and not math.isnan(difference):
            finite = swapped[:, k][~np.isnan(swapped[:, k])]
            tolerance = 1e-12 * max(1.0, abs(difference))
            row["p"] = (1 + int(np.sum(np.abs(finite) >= abs(difference) - tolerance))) / (1 + len(finite))
        rows.append(row)
    frame = pd.DataFrame(rows, index=pd.Index(ids, name="index"))
    columns = pd.Index(ids, name="index")
    return PairedComparison(
        table=frame, level=float(level), n=n, names=tuple(names),
        bootstrap=None if boot is None else pd.DataFrame(boot, columns=columns),
        permutations=None if swapped is None else pd.DataFrame(swapped, columns=columns))
