"""Set-matching indices: F-measure, purity, van Dongen, Criterion H, accuracies, PSI.

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
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ._numeric import order_free_sum

__all__ = ["f_measure", "purity", "van_dongen", "criterion_h", "pivoted_accuracy",
           "normalized_accuracy", "adjusted_asymmetric_accuracy", "pair_sets_index", "PsiSteps",
           "pair_sets_index_steps"]


def _cell_sum(c, cells):
    """Sum of some cells: an exact int for counts, an order-free float for soft tables."""
    return order_free_sum(cells) if c.is_soft else int(np.sum(cells))


def _line_max(group: np.ndarray, values: np.ndarray, k: int) -> np.ndarray:
    """The largest of each row's (or column's) non-empty cells."""
    out = np.zeros(k, dtype=values.dtype)
    np.maximum.at(out, group, values)
    return out


def f_measure(c, over: str = "true") -> float:
    # each cluster's best F is at a cell it shares objects with: the empty cells give 0
    r, col, v = c.cells
    dice = 2 * v / (c.row_sizes[r] + c.col_sizes[col])
    if over == "true":
        return order_free_sum(c.row_sizes * _line_max(r, dice, c.k_true)) / c.n
    return order_free_sum(c.col_sizes * _line_max(col, dice, c.k_pred)) / c.n


def _maxima(c, over: str) -> np.ndarray:
    """max_i n_ij for each column (over="pred") or max_j n_ij for each row (over="true")."""
    r, col, v = c.cells
    return _line_max(col, v, c.k_pred) if over == "pred" else _line_max(r, v, c.k_true)


def purity(c, over: str = "pred") -> float:
    return _cell_sum(c, _maxima(c, over)) / c.n


def van_dongen(c) -> float:
    return float((2 * c.n - _cell_sum(c, _maxima(c, "true")) - _cell_sum(c, _maxima(c, "pred"))) / (2 * c.n))


def criterion_h(c, pairing: str = "greedy") -> float:
    chosen = c.greedy_pairing if pairing == "greedy" else c.accuracy_pairing
    return float(1 - _cell_sum(c, chosen.overlap) / c.n)


def pivoted_accuracy(c) -> float:
    return float(_cell_sum(c, c.accuracy_pairing.overlap) / c.n)


def normalized_accuracy(c) -> float:
    k = max(c.k_true, c.k_pred)
    if k == 1:
        return 1.0
    return (pivoted_accuracy(c) - 1 / k) / (1 - 1 / k)


def adjusted_asymmetric_accuracy(c) -> float:
    k = c.k_true
    if k == 1:
        return 1.0 if c.k_pred == 1 else math.nan
    mean_recall = c.row_normalised_pairing.total / k
    return (mean_recall - 1 / k) / (1 - 1 / k)


def pair_sets_index(c, simplified: bool = False) -> float:
    k = max(c.k_true, c.k_pred)
    if c.k_true == c.k_pred == 1:
        return 1.0
    s = c.hungarian_pairing.total
    e = 1.0 if simplified else c.psi_expected
    if s < e:
        return 0.0
    return min((s - e) / (k - e), 1.0)


@dataclass(frozen=True)
class PsiSteps:
    """PSI worked out (Rezaei & Fränti 2016, eqs. 14-20).

    ``S`` is the total Braun-Banquet similarity of the Hungarian pairs, ``E`` its expectation
    (the largest cluster paired with the largest, and so on), ``max_k`` = max(K, K'), ``psi``
    the index and ``psi_simplified`` its E = 1 form; ``formula`` shows the case that applies
    with the numbers put in.

    >>> from cluval_core import compare
    >>> compare([0, 0, 0, 0, 1, 1, 2, 2], [0, 0, 1, 1, 2, 2, 3, 3]).psi_steps.formula
    'PSI = (S − E) / (max(K, K′) − E) = (2.5 − 0.75) / (4 − 0.75) = 0.5385'
    >>> compare([0, 0, 0, 1], [0, 1, 1, 1]).psi_steps.formula
    'S = 0.6667 < E = 1, so PSI = 0'
    """

    S: float
    E: float
    max_k: int
    psi: float
    psi_simplified: float
    formula: str


def _number(value: float) -> str:
    """Up to 4 decimals, never rounded onto a different-looking value (1 - 1e-9 shows as 0.9999…)."""
    shown = f"{value:.4f}".rstrip("0").rstrip(".")
    if float(shown) != value and shown in {"0", "1", "-0"}:
        shown = f"{value:.10g}"
    return shown


def pair_sets_index_steps(c) -> PsiSteps:
    """The numbers behind :func:`pair_sets_index` and the formula that combines them."""
    s = c.hungarian_pairing.total
    e = c.psi_expected
    k = max(c.k_true, c.k_pred)
    psi = pair_sets_index(c)
    if c.k_true == c.k_pred == 1:
        formula = "K = K′ = 1, so PSI = 1"
    elif s < e:
        formula = f"S = {_number(s)} < E = {_number(e)}, so PSI = 0"
    else:
        formula = (f"PSI = (S − E) / (max(K, K′) − E) = ({_number(s)} − {_number(e)}) / ({k} − {_number(e)}) "
                   f"= {_number(psi)}")
    return PsiSteps(S=s, E=e, max_k=k, psi=psi, psi_simplified=pair_sets_index(c, simplified=True), formula=formula)
