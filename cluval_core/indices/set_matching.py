"""Set-matching indices: F-measure, purity, van Dongen, Criterion H, accuracies, PSI, each in one place.

All are read off the contingency table n_ij with row sizes r_i (reference) and column sizes
c_j (candidate), N objects, K_a rows and K_b columns:

* ``f_measure`` = (1/N) sum_i r_i max_j 2 n_ij / (r_i + c_j) (over the reference's
  clusters); ``f_measure_pred`` sums over the candidate's clusters with weights c_j.
* ``purity`` = (1/N) sum_j max_i n_ij; ``purity_inverse`` = (1/N) sum_i max_j n_ij.
* ``nvd`` = (2N - sum_i max_j n_ij - sum_j max_i n_ij) / (2N), a distance (0 = identical).
* ``ch_greedy`` = 1 - (1/N) sum over a greedy pairing; ``ch_optimal`` the same with the
  optimal pairing, = 1 - ``pa``; ``pa`` = (1/N) max over one-to-one pairings sum n_ij.
* ``na`` = (pa - 1/k) / (1 - 1/k), k = max(K_a, K_b) (1 when k = 1).
* ``aaa`` = (max_sigma (1/K_a) sum_i n_{i sigma(i)} / r_i - 1/K_a) / (1 - 1/K_a) (Gagolewski
  2022); 1 when K_a = K_b = 1, NaN when K_a = 1 < K_b.
* ``psi`` = (S - E) / (max(K_a, K_b) - E) if S >= E (0 if S < E, 1 if K_a = K_b = 1), with
  S the optimal total Braun-Banquet similarity sum n_ij / max(r_i, c_j) and E its
  expectation (largest cluster paired with largest); ``psi_simplified`` sets E = 1
  (Rezaei & Fränti 2016, eqs. 14-20).

The pairings are the comparison's (``hungarian_pairing``, ``accuracy_pairing``,
``row_normalised_pairing``, ``greedy_pairing``): ties in the greedy one go to the cluster that
occurs first in the data; the optimal ones have the same total whichever tied choice is made.

>>> from cluval_core import compare
>>> c = compare([0, 0, 0, 0, 1, 1, 2, 2], [0, 0, 1, 1, 2, 2, 3, 3])
>>> print(c.steps("psi"))
S = Σ n_ij / max(r_i, c_j) over the optimal pairs = 2/4 + 2/2 + 2/2 = 2.5
E = Σ (r_(i) c_(i) / N) / max(r_(i), c_(i)) = 4×2/8/4 + 2×2/8/2 + 2×2/8/2 = 0.75
k = max(K_a, K_b) = max(3, 4) = 4
PSI = (S − E) / (k − E) = (2.5 − 0.75) / (4 − 0.75) = 0.5385
"""

from __future__ import annotations

import math

import numpy as np

from ..core.compiled import compiled
from ..core.labels import score_labels
from ..core.numeric import order_free_sum
from ..core.registry import INF, Anatomy, IndexInfo
from ..core.steps import SHOWN_TERMS, Step, shown, sum_of
from ..core.validation import check_choice, check_flag

__all__ = ["f_measure", "purity_score", "van_dongen_distance", "criterion_h", "pivoted_accuracy",
           "normalized_accuracy", "adjusted_asymmetric_accuracy", "pair_sets_index", "split_join_distance"]

FAMILY, FAMILY_NAME = "set_matching", "Set matching"

PSI_PAPER = "Rezaei & Fränti (2016), Set matching measures for external cluster validity, IEEE TKDE 28(8)"
GAGOLEWSKI = "Gagolewski (2022), Adjusted asymmetric accuracy: a well-behaving external cluster validity measure"
PAIRS = (r"$\sigma$ runs over the one-to-one pairings of reference and candidate clusters; clusters left unpaired add "
         r"0.")


def _cell_sum(c, cells):
    """Sum of some cells: an exact int for counts, an order-free float for soft tables."""
    return order_free_sum(cells) if c.is_soft else int(np.sum(cells))


@compiled
def _line_max(group, values, k):
    """The largest of each row's (or column's) non-empty cells (values >= 0)."""
    out = np.zeros(k, dtype=values.dtype)
    for x in range(len(group)):
        if values[x] > out[group[x]]:
            out[group[x]] = values[x]
    return out


@compiled
def _line_best_dice(by_rows, rows, cols, values, row_sizes, col_sizes):
    """Each row's (`by_rows`) or column's largest 2 n_ij / (r_i + c_j) over its non-empty cells,
    each as numpy's elementwise form gives it (the same bits)."""
    out = np.zeros(len(row_sizes) if by_rows else len(col_sizes))
    for x in range(len(values)):
        line = rows[x] if by_rows else cols[x]
        dice = 2 * values[x] / (row_sizes[rows[x]] + col_sizes[cols[x]])
        if dice > out[line]:
            out[line] = dice
    return out


def _convention(symbol: str, value, why: str) -> Step:
    return Step(symbol, "", "", value, why)


# ---------------------------------------------------------------------- anatomy helpers
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


# ---------------------------------------------------------------------- F-measure
def _best_f(c, over: str) -> np.ndarray:
    """Each cluster's best F = 2 n_ij / (r_i + c_j) over the other side (0 where it shares nothing)."""
    return _line_best_dice(over == "true", *c.cells, c.row_sizes, c.col_sizes)


def _f_measure(c, over: str) -> float:
    # each cluster's best F is at a cell it shares objects with: the empty cells give 0
    sizes = c.row_sizes if over == "true" else c.col_sizes
    return order_free_sum(sizes * _best_f(c, over)) / c.n


def _f_steps(c, over: str):
    sizes, i = (c.row_sizes, "i") if over == "true" else (c.col_sizes, "j")
    best = _best_f(c, over)
    other = "j" if over == "true" else "i"
    weighted = order_free_sum(sizes * best)
    terms = [f"{shown(s)}×{shown(f)}" for s, f in zip(sizes[:SHOWN_TERMS], best[:SHOWN_TERMS])]
    symbol = "r_i" if over == "true" else "c_j"
    return [Step("Σ", f"Σ_{i} {symbol} max_{other} 2 n_ij / (r_i + c_j)", sum_of(terms, count=len(best)), weighted,
                 "each cluster's size times its best F with a cluster of the other side"),
            Step("F" if over == "true" else "F′", "Σ / N", f"{shown(weighted)} / {shown(c.n)}", _f_measure(c, over))]


def _f_cells(c, dense, over: str):
    t, rows, cols, n = dense
    dice = 2 * t / np.add.outer(rows, cols)
    order_rows, order_cols = c.tie_order
    if over == "true":
        return Anatomy(np.where(_line_maxima(dice, 1, order_cols), dice * rows[:, None] / n, 0.0), 0.0,
                       "r_i F_ij / N at each reference cluster's best match")
    return Anatomy(np.where(_line_maxima(dice, 0, order_rows), dice * cols[None, :] / n, 0.0), 0.0,
                   "c_j F_ij / N at each candidate cluster's best match")


# ---------------------------------------------------------------------- purity and van Dongen
def _maxima(c, over: str) -> np.ndarray:
    """max_i n_ij for each column (over="pred") or max_j n_ij for each row (over="true")."""
    r, col, v = c.cells
    return _line_max(col, v, c.k_pred) if over == "pred" else _line_max(r, v, c.k_true)


def _purity(c, over: str) -> float:
    return _cell_sum(c, _maxima(c, over)) / c.n


def _maxima_step(c, over: str) -> Step:
    maxima = _maxima(c, over)
    formula = "Σ_j max_i n_ij" if over == "pred" else "Σ_i max_j n_ij"
    return Step("Σ max", formula, sum_of(maxima), _cell_sum(c, maxima))


def _purity_steps(c, over: str):
    step = _maxima_step(c, over)
    return [step, Step("Purity" if over == "pred" else "Purity⁻¹", "Σ max / N", f"{shown(step.value)} / {shown(c.n)}",
                       _purity(c, over))]


def _purity_cells(c, dense, over: str):
    t, n = dense.table, dense.n
    order_rows, order_cols = c.tie_order
    if over == "pred":
        return Anatomy(np.where(_line_maxima(t, 0, order_rows), t / n, 0.0), 0.0,
                       "n_ij / N at each column's largest cell")
    return Anatomy(np.where(_line_maxima(t, 1, order_cols), t / n, 0.0), 0.0, "n_ij / N at each row's largest cell")


def _van_dongen(c) -> float:
    return float((2 * c.n - _cell_sum(c, _maxima(c, "true")) - _cell_sum(c, _maxima(c, "pred"))) / (2 * c.n))


def _nvd_steps(c):
    rows, cols = _maxima_step(c, "true"), _maxima_step(c, "pred")
    rows = Step("R", rows.formula, rows.numbers, rows.value)
    cols = Step("C", cols.formula, cols.numbers, cols.value)
    return [rows, cols, Step("NVD", "(2N − R − C) / (2N)", f"(2 × {shown(c.n)} − {shown(rows.value)} − "
                             f"{shown(cols.value)}) / (2 × {shown(c.n)})", _van_dongen(c))]


def _nvd_cells(c, dense):
    t, n = dense.table, dense.n
    order_rows, order_cols = c.tie_order
    hits = _line_maxima(t, 1, order_cols).astype(float) + _line_maxima(t, 0, order_rows)
    return Anatomy(-hits * t / (2 * n), 1.0, "-n_ij / 2N at each row's and each column's largest cell; constant 1")


def _projection(c, over: str) -> float:
    """N - sum of one side's line maxima: the split-join projection distance, in objects."""
    return float(c.n - _cell_sum(c, _maxima(c, over)))


def _projection_steps(c, over: str):
    step = _maxima_step(c, over)
    symbol = "SJ_a" if over == "true" else "SJ_b"
    return [step, Step(symbol, "N − Σ max", f"{shown(c.n)} − {shown(step.value)}", _projection(c, over))]


def _projection_cells(c, dense, over: str):
    t, n = dense.table, dense.n
    order_rows, order_cols = c.tie_order
    hits = _line_maxima(t, 1, order_cols) if over == "true" else _line_maxima(t, 0, order_rows)
    which = "row's" if over == "true" else "column's"
    return Anatomy(np.where(hits, -t, 0.0).astype(float), float(n), f"−n_ij at each {which} largest cell; constant N")


# ---------------------------------------------------------------------- Criterion H and the accuracies
def _pairing_of(c, pairing: str):
    return c.greedy_pairing if pairing == "greedy" else c.accuracy_pairing


def _criterion_h(c, pairing: str) -> float:
    return float(1 - _cell_sum(c, _pairing_of(c, pairing).overlap) / c.n)


def _shared_step(c, pairing: str) -> Step:
    chosen = _pairing_of(c, pairing)
    what = ("the greedy pairing: largest remaining cell first, ties to the cluster that occurs first"
            if pairing == "greedy" else "the one-to-one pairing with the most shared objects")
    return Step("Σ n", "Σ n_ij over the pairs", sum_of(chosen.overlap), _cell_sum(c, chosen.overlap), what)


def _ch_steps(c, pairing: str):
    shared = _shared_step(c, pairing)
    symbol = "CH" if pairing == "greedy" else "CH*"
    return [shared, Step(symbol, "1 − Σ n / N", f"1 − {shown(shared.value)} / {shown(c.n)}", _criterion_h(c, pairing))]


def _pivoted_accuracy(c) -> float:
    return float(_cell_sum(c, c.accuracy_pairing.overlap) / c.n)


def _pa_steps(c):
    shared = _shared_step(c, "optimal")
    return [shared, Step("PA", "Σ n / N", f"{shown(shared.value)} / {shown(c.n)}", _pivoted_accuracy(c))]


def _paired_cells(c, dense, pairing: str, sign: float, constant: float, description: str):
    share = np.where(_paired(dense.table.shape, _pairing_of(c, pairing)), dense.table / dense.n, 0.0)
    return Anatomy(sign * share, constant, description)


def _normalized_accuracy(c) -> float:
    k = max(c.k_true, c.k_pred)
    if k == 1:
        return 1.0
    return (_pivoted_accuracy(c) - 1 / k) / (1 - 1 / k)


def _na_steps(c):
    steps = _pa_steps(c)
    k = max(c.k_true, c.k_pred)
    steps.append(Step("k", "max(K_a, K_b)", f"max({c.k_true}, {c.k_pred})", k))
    if k == 1:
        return steps + [_convention("NA", 1.0, "one cluster each side: 1 by convention")]
    return steps + [Step("NA", "(PA − 1/k) / (1 − 1/k)", f"({shown(steps[1].value)} − 1/{k}) / (1 − 1/{k})",
                         _normalized_accuracy(c))]


def _na_cells(c, dense):
    k = max(c.k_true, c.k_pred)
    if k == 1:
        return None
    share = np.where(_paired(dense.table.shape, c.accuracy_pairing), dense.table / dense.n, 0.0)
    return Anatomy(share / (1 - 1 / k), -(1 / k) / (1 - 1 / k),
                   "n_ij / N / (1 - 1/k) at each pair; constant -(1/k)/(1 - 1/k)")


def _adjusted_asymmetric_accuracy(c) -> float:
    k = c.k_true
    if k == 1:
        return 1.0 if c.k_pred == 1 else math.nan
    mean_recall = c.row_normalised_pairing.total / k
    return (mean_recall - 1 / k) / (1 - 1 / k)


def _aaa_steps(c):
    pairing = c.row_normalised_pairing
    k = c.k_true
    steps = [Step("Σ recall", "Σ n_ij / r_i over the pairs", sum_of(pairing.similarity), pairing.total,
                  "the one-to-one pairing with the largest total recall per reference cluster")]
    if k == 1:
        value = _adjusted_asymmetric_accuracy(c)
        return steps + [_convention("AAA", value, "the reference is one cluster: 1 when the candidate is too, "
                                    "else undefined")]
    mean = pairing.total / k
    return steps + [Step("R̄", "Σ recall / K_a", f"{shown(pairing.total)} / {k}", mean),
                    Step("AAA", "(R̄ − 1/K_a) / (1 − 1/K_a)", f"({shown(mean)} − 1/{k}) / (1 − 1/{k})",
                         _adjusted_asymmetric_accuracy(c))]


def _aaa_cells(c, dense):
    k = c.k_true
    if k == 1:
        return None
    share = np.where(_paired(dense.table.shape, c.row_normalised_pairing), dense.table / dense.rows[:, None] / k, 0.0)
    return Anatomy(share / (1 - 1 / k), -(1 / k) / (1 - 1 / k), "n_ij / r_i / K_a / (1 - 1/K_a) at each pair")


# ---------------------------------------------------------------------- Pair Sets Index
def _pair_sets_index(c, simplified: bool) -> float:
    k = max(c.k_true, c.k_pred)
    if c.k_true == c.k_pred == 1:
        return 1.0
    s = c.hungarian_pairing.total
    e = 1.0 if simplified else c.psi_expected
    if s < e:
        return 0.0
    return min((s - e) / (k - e), 1.0)


def _psi_steps(c, simplified: bool):
    pairing = c.hungarian_pairing
    terms = [f"{shown(o)}/{shown(m)}" for o, m in zip(pairing.overlap[:SHOWN_TERMS],
                                                       np.maximum(pairing.row_sizes, pairing.col_sizes)[:SHOWN_TERMS])]
    steps = [Step("S", "Σ n_ij / max(r_i, c_j) over the optimal pairs", sum_of(terms, count=len(pairing.overlap)),
                  pairing.total)]
    if simplified:
        steps.append(Step("E", "", "", 1.0, "taken to be 1 in the simplified form"))
    else:
        size = min(c.k_true, c.k_pred)
        r = np.sort(c.row_sizes)[::-1][:size]
        col = np.sort(c.col_sizes)[::-1][:size]
        terms = [f"{shown(x)}×{shown(y)}/{shown(c.n)}/{shown(max(x, y))}" for x, y in zip(r[:SHOWN_TERMS], col)]
        steps.append(Step("E", "Σ (r_(i) c_(i) / N) / max(r_(i), c_(i))", sum_of(terms, count=size), c.psi_expected,
                          "the S expected by chance: the largest clusters paired with each other, and so on"))
    k = max(c.k_true, c.k_pred)
    steps.append(Step("k", "max(K_a, K_b)", f"max({c.k_true}, {c.k_pred})", k))
    symbol = "PSI*" if simplified else "PSI"
    s, e = steps[0].value, steps[1].value
    if c.k_true == c.k_pred == 1:
        return steps + [_convention(symbol, 1.0, "one cluster each side: 1 by convention")]
    if s < e:
        return steps + [_convention(symbol, 0.0, f"S = {shown(s)} < E = {shown(e)}: 0, no better than chance")]
    return steps + [Step(symbol, "(S − E) / (k − E)", f"({shown(s)} − {shown(e)}) / ({k} − {shown(e)})",
                         _pair_sets_index(c, simplified))]


def _psi_cells(c, dense, simplified: bool):
    t, rows, cols, n = dense
    k = max(c.k_true, c.k_pred)
    s = c.hungarian_pairing.total
    e = 1.0 if simplified else c.psi_expected
    if k == e:  # one cluster each side: a convention
        return None
    if s < e:
        return Anatomy(np.zeros(t.shape), 0.0, f"S = {s:.4g} < E = {e:.4g}: PSI is 0 and no cell counts")
    share = np.where(_paired(t.shape, c.hungarian_pairing), t / np.maximum.outer(rows, cols) / (k - e), 0.0)
    return Anatomy(share, -e / (k - e),
                   "n_ij / max(r_i, c_j) / (max(K, K') - E) at each pair; constant -E/(max(K, K') - E)")


# ---------------------------------------------------------------------- one-line functions
def f_measure(labels_true, labels_pred, *, over="true", noise=None) -> float:
    """F-measure summed over the reference's clusters (``over="pred"``: the candidate's)."""
    check_choice("over", over, ("true", "pred"))
    return score_labels("f_measure" if over == "true" else "f_measure_pred", labels_true, labels_pred, noise=noise)


def purity_score(labels_true, labels_pred, *, inverse=False, noise=None) -> float:
    """Purity (1/N) sum_j max_i n_ij; ``inverse=True`` sums over the reference instead."""
    check_flag("inverse", inverse)
    return score_labels("purity_inverse" if inverse else "purity", labels_true, labels_pred, noise=noise)


def van_dongen_distance(labels_true, labels_pred, *, noise=None) -> float:
    """Normalised van Dongen distance; 0 for identical partitions."""
    return score_labels("nvd", labels_true, labels_pred, noise=noise)


def criterion_h(labels_true, labels_pred, *, pairing="greedy", noise=None) -> float:
    """Criterion H distance with the ``"greedy"`` or ``"optimal"`` pairing; 0 for identical."""
    check_choice("pairing", pairing, ("greedy", "optimal"))
    return score_labels("ch_greedy" if pairing == "greedy" else "ch_optimal", labels_true, labels_pred, noise=noise)


def pivoted_accuracy(labels_true, labels_pred, *, noise=None) -> float:
    """Share of objects on the optimal one-to-one pairing's cells."""
    return score_labels("pa", labels_true, labels_pred, noise=noise)


def normalized_accuracy(labels_true, labels_pred, *, noise=None) -> float:
    """Pivoted accuracy normalised to [0, 1]: (PA - 1/k) / (1 - 1/k)."""
    return score_labels("na", labels_true, labels_pred, noise=noise)


def adjusted_asymmetric_accuracy(labels_true, labels_pred, *, noise=None) -> float:
    """Gagolewski's adjusted asymmetric accuracy (mean recall per reference cluster, adjusted)."""
    return score_labels("aaa", labels_true, labels_pred, noise=noise)


def pair_sets_index(labels_true, labels_pred, *, simplified=False, noise=None) -> float:
    """Pair Sets Index (Rezaei & Fränti 2016); ``simplified=True`` gives eq. (20).

    >>> pair_sets_index([0, 0, 0, 1, 1, 2], [0, 0, 0, 1, 1, 2])
    1.0
    """
    check_flag("simplified", simplified)
    return score_labels("psi_simplified" if simplified else "psi", labels_true, labels_pred, noise=noise)


def split_join_distance(labels_true, labels_pred, *, side="true", noise=None) -> float:
    """A projection distance of van Dongen's split-join distance, in objects: with ``side="true"``
    N - sum_i max_j n_ij (the reference's objects outside their cluster's best match), with
    ``side="pred"`` N - sum_j max_i n_ij. Their sum is the split-join distance, 2N NVD.

    >>> a, b = [0, 0, 1, 1, 1], [0, 0, 0, 1, 1]
    >>> split_join_distance(a, b), split_join_distance(a, b, side="pred")
    (1.0, 1.0)
    """
    check_choice("side", side, ("true", "pred"))
    return score_labels("split_join_true" if side == "true" else "split_join_pred", labels_true, labels_pred,
                        noise=noise)


# ---------------------------------------------------------------------- the registry's entries
# The family's indices, in the order the registry lists them (cluval_core.indices registers them).
ENTRIES = (
    IndexInfo(
        id="f_measure", name="F-measure", family=FAMILY, range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=False, function=f_measure,
        formula=r"F = \frac{1}{N}\sum_i r_i \max_j \frac{2 n_{ij}}{r_i + c_j}",
        reference="Larsen & Aone (1999), KDD; de Souto et al. (2012)",
        caveat="One-way matching over the reference's clusters, weighted by size: several reference clusters "
               "may match the same candidate cluster, and small clusters weigh little.",
        compute=lambda c: _f_measure(c, "true"), steps=lambda c: _f_steps(c, "true"),
        cells=lambda c, dense: _f_cells(c, dense, "true")),
    IndexInfo(
        id="f_measure_pred", name="F-measure (over candidate)", family=FAMILY, range=(0, 1),
        higher_is_better=True, chance_adjusted=False, symmetric=False,
        function=f_measure, function_options={"over": "pred"},
        formula=r"F' = \frac{1}{N}\sum_j c_j \max_i \frac{2 n_{ij}}{r_i + c_j}",
        reference=PSI_PAPER + ", Table 2 (sum over P's clusters)",
        caveat="The paper's literal direction: sums over the candidate's clusters, so splitting a reference "
               "cluster is penalised differently from merging two.",
        compute=lambda c: _f_measure(c, "pred"), steps=lambda c: _f_steps(c, "pred"),
        cells=lambda c, dense: _f_cells(c, dense, "pred")),
    IndexInfo(
        id="purity", name="Purity", family=FAMILY, range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=False, function=purity_score,
        formula=r"\mathrm{Purity} = \frac{1}{N}\sum_j \max_i n_{ij}",
        reference="Rendón et al. (2011); equal to 'accuracy' of Nguyen & Caruana (2007)",
        caveat="Reaches 1 for all singletons: it never penalises splitting clusters. Use it only with equal K.",
        compute=lambda c: _purity(c, "pred"), steps=lambda c: _purity_steps(c, "pred"),
        cells=lambda c, dense: _purity_cells(c, dense, "pred")),
    IndexInfo(
        id="purity_inverse", name="Inverse purity", family=FAMILY, range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=False, function=purity_score, function_options={"inverse": True},
        formula=r"\mathrm{Purity}^{-1} = \frac{1}{N}\sum_i \max_j n_{ij}",
        reference="Rendón et al. (2011)",
        caveat="Reaches 1 when the candidate is one single cluster: it never penalises merging.",
        compute=lambda c: _purity(c, "true"), steps=lambda c: _purity_steps(c, "true"),
        cells=lambda c, dense: _purity_cells(c, dense, "true")),
    IndexInfo(
        id="nvd", headline=True, name="Normalised van Dongen", family=FAMILY, range=(0, 1), higher_is_better=False,
        chance_adjusted=False, symmetric=True, function=van_dongen_distance,
        formula=r"\mathrm{NVD} = \frac{2N - \sum_i \max_j n_{ij} - \sum_j \max_i n_{ij}}{2N}",
        reference="van Dongen (2000), CWI report INS-R0012",
        caveat="Not corrected for chance (random partitions are far from 1) and blind to small clusters: "
               "merging two small clusters costs only their smaller size.",
        compute=_van_dongen, steps=_nvd_steps, cells=_nvd_cells),
    IndexInfo(
        id="ch_greedy", name="Criterion H (greedy)", family=FAMILY, range=(0, 1), higher_is_better=False,
        chance_adjusted=False, symmetric=False, tie_dependent=True, cost="pairing",
        pairing="greedy_pairing", function=criterion_h,
        formula=r"\mathrm{CH} = 1 - \frac{1}{N}\sum_{(i,j)\in\text{greedy}} n_{ij}",
        symbols="The greedy pairing repeatedly takes the largest remaining cell and deletes its row and column; "
                "among equal cells, the one whose reference cluster occurs first in the data wins (then the "
                "candidate's).",
        reference="Meila & Heckerman (2001), Machine Learning 42",
        caveat="The greedy pairing can miss the best pairing; symmetric except when equal cells tie, where "
               "the cell whose reference cluster occurs first in the data wins (then the candidate's).",
        compute=lambda c: _criterion_h(c, "greedy"), steps=lambda c: _ch_steps(c, "greedy"),
        cells=lambda c, dense: _paired_cells(c, dense, "greedy", -1.0, 1.0, "-n_ij / N at each pair; constant 1")),
    IndexInfo(
        id="ch_optimal", name="Criterion H (optimal)", family=FAMILY, range=(0, 1), higher_is_better=False,
        chance_adjusted=False, symmetric=True, cost="pairing", pairing="accuracy_pairing",
        function=criterion_h, function_options={"pairing": "optimal"},
        formula=r"\mathrm{CH}^* = 1 - \frac{1}{N}\max_\sigma \sum_i n_{i\sigma(i)}",
        symbols=PAIRS,
        reference="Meila & Heckerman (2001); = 1 - pivoted accuracy",
        caveat="Weighted by cluster size: a perfectly found small cluster counts for little.",
        compute=lambda c: _criterion_h(c, "optimal"), steps=lambda c: _ch_steps(c, "optimal"),
        cells=lambda c, dense: _paired_cells(c, dense, "optimal", -1.0, 1.0, "-n_ij / N at each pair; constant 1")),
    IndexInfo(
        id="pa", name="Pivoted accuracy", family=FAMILY, range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=True, cost="pairing", pairing="accuracy_pairing", function=pivoted_accuracy,
        formula=r"\mathrm{PA} = \frac{1}{N}\max_\sigma \sum_i n_{i\sigma(i)}",
        symbols=PAIRS,
        reference="Gagolewski (2022); Steinley (2004) 'classification rate'",
        caveat="Never below 1/max(K_a, K_b) and not corrected for chance; dominated by the largest clusters.",
        compute=_pivoted_accuracy, steps=_pa_steps,
        cells=lambda c, dense: _paired_cells(c, dense, "optimal", 1.0, 0.0,
                                             "n_ij / N at each pair of the optimal pairing")),
    IndexInfo(
        id="na", name="Normalised pivoted accuracy", family=FAMILY, range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=True, cost="pairing", pairing="accuracy_pairing", function=normalized_accuracy,
        formula=r"\mathrm{NA} = \frac{\mathrm{PA} - 1/k}{1 - 1/k},\; k=\max(K_a,K_b)",
        reference=GAGOLEWSKI,
        caveat="Normalised to [0, 1] but still dominated by the largest clusters.",
        compute=_normalized_accuracy, steps=_na_steps, cells=_na_cells),
    IndexInfo(
        id="aaa", name="Adjusted asymmetric accuracy", family=FAMILY, range=(-1, 1), higher_is_better=True,
        chance_adjusted=True, symmetric=False, cost="pairing",
        pairing="row_normalised_pairing", function=adjusted_asymmetric_accuracy,
        formula=r"\mathrm{AAA} = \frac{\max_\sigma \frac{1}{K_a}\sum_i \frac{n_{i\sigma(i)}}{r_i} - \frac{1}{K_a}}"
                r"{1 - \frac{1}{K_a}}",
        symbols=r"$\sigma$ runs over the one-to-one pairings of reference and candidate clusters; a reference cluster "
                r"left unpaired adds 0.",
        reference=GAGOLEWSKI,
        caveat="Asymmetric by design (recall per reference cluster): extra candidate clusters are penalised "
               "only through the rows they fail to cover. Undefined when the reference has one cluster.",
        compute=_adjusted_asymmetric_accuracy, steps=_aaa_steps, cells=_aaa_cells),
    IndexInfo(
        id="psi", headline=True, name="Pair Sets Index", family=FAMILY, range=(0, 1), higher_is_better=True,
        chance_adjusted=True, symmetric=True, cost="pairing", pairing="hungarian_pairing", function=pair_sets_index,
        formula=r"\mathrm{PSI} = \frac{S - E}{\max(K_a,K_b) - E},\quad S = \max_\sigma \sum_i "
                r"\frac{n_{i\sigma(i)}}{\max(r_i, c_{\sigma(i)})},\quad E = \sum_{i=1}^{\min(K_a,K_b)} "
                r"\frac{r_{(i)}\, c_{(i)} / N}{\max(r_{(i)}, c_{(i)})}",
        symbols=r"$S$ is the similarity of the best one-to-one pairing $\sigma$ of the clusters (Hungarian "
                r"algorithm). $E$ is the $S$ expected by chance, with the largest reference cluster paired with the "
                r"largest candidate cluster, the second largest with the second largest, and so on: $r_{(1)} \ge "
                r"r_{(2)} \ge \dots$ and $c_{(1)} \ge c_{(2)} \ge \dots$ are the cluster sizes sorted in decreasing "
                r"order. PSI = 0 when $S < E$, and 1 when both partitions are one cluster.",
        reference=PSI_PAPER,
        caveat="Each cluster counts the same whatever its size: on imbalanced data, a lost small cluster costs "
               "as much as a lost large one. Clipped at 0 (S < E), so it cannot say 'worse than chance'.",
        compute=lambda c: _pair_sets_index(c, False), steps=lambda c: _psi_steps(c, False),
        cells=lambda c, dense: _psi_cells(c, dense, False)),
    IndexInfo(
        id="psi_simplified", name="Simplified PSI", family=FAMILY, range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=True, cost="pairing", pairing="hungarian_pairing",
        function=pair_sets_index, function_options={"simplified": True},
        formula=r"\mathrm{PSI}^* = \frac{S - 1}{\max(K_a,K_b) - 1}",
        symbols="$S$ as for PSI, the similarity of the best one-to-one pairing; the chance expectation $E$ is taken "
                "to be 1.",
        reference=PSI_PAPER + ", eq. (20)",
        caveat="Assumes the expectation E is 1 (true when the two partitions have similar cluster sizes): "
               "a metric, but only approximately corrected for chance.",
        compute=lambda c: _pair_sets_index(c, True), steps=lambda c: _psi_steps(c, True),
        cells=lambda c, dense: _psi_cells(c, dense, True)),
    IndexInfo(
        id="split_join_true", name="Split-join projection (reference)", family=FAMILY, range=(0, INF),
        higher_is_better=False, integer_valued=True, chance_adjusted=False, symmetric=False,
        function=split_join_distance,
        formula=r"\mathrm{SJ}_a = N - \sum_i \max_j n_{ij}",
        symbols="The reference's objects that lie outside their cluster's largest overlap with a candidate "
                "cluster: how far the reference is from being a refinement of the candidate, in objects.",
        reference="van Dongen (2000), Performance criteria for graph clustering and Markov cluster experiments, "
                  "CWI report INS-R0012; igraph's split_join_distance",
        caveat="A count of objects: compare values only for the same N (NVD is the two projections' sum over "
               "2N). 0 whenever the candidate merges reference clusters, so read it with its other side.",
        compute=lambda c: _projection(c, "true"), steps=lambda c: _projection_steps(c, "true"),
        cells=lambda c, dense: _projection_cells(c, dense, "true")),
    IndexInfo(
        id="split_join_pred", name="Split-join projection (candidate)", family=FAMILY, range=(0, INF),
        higher_is_better=False, integer_valued=True, chance_adjusted=False, symmetric=False,
        function=split_join_distance,
        function_options={"side": "pred"},
        formula=r"\mathrm{SJ}_b = N - \sum_j \max_i n_{ij}",
        symbols="The candidate's objects that lie outside their cluster's largest overlap with a reference "
                "cluster: how far the candidate is from being a refinement of the reference, in objects.",
        reference="van Dongen (2000), CWI report INS-R0012; igraph's split_join_distance",
        caveat="A count of objects: compare values only for the same N. 0 whenever the candidate splits "
               "reference clusters (all singletons score 0), so read it with its other side.",
        compute=lambda c: _projection(c, "pred"), steps=lambda c: _projection_steps(c, "pred"),
        cells=lambda c, dense: _projection_cells(c, dense, "pred")),
)
