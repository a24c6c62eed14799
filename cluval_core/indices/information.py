"""Information-theoretic indices: mutual information, its normalisations, VI, AMI, homogeneity
and completeness, and the reduced mutual information, each in one place.

With entropies H_a (reference), H_b (candidate), H_ab (joint) in nats and
MI = H_a + H_b - H_ab:

* ``nmi_sum`` = 2 MI / (H_a + H_b), ``nmi_sqrt`` = MI / sqrt(H_a H_b),
  ``nmi_max`` = MI / max(H_a, H_b), ``nmi_min`` = MI / min(H_a, H_b), ``nmi_joint`` = MI / H_ab
* ``vi`` = H_a + H_b - 2 MI (Meila 2007), ``nvi`` = VI / (H_a + H_b)
* ``ami`` = (MI - E[MI]) / ((H_a + H_b)/2 - E[MI]) (Vinh, Epps & Bailey 2010), E[MI] under
  the hypergeometric model (:mod:`cluval_core.core.emi`); ``ami_sqrt``, ``ami_max`` and
  ``ami_min`` bound it by the geometric mean, the larger or the smaller entropy
* ``homogeneity`` = MI / H_a and ``completeness`` = MI / H_b (1 where that entropy is 0),
  and the V-measure (1 + beta) h c / (beta h + c) (:func:`v_measure_score`)
* ``rmi`` and ``rmi_flat``: reduced mutual information in nats per object, the
  traditional (microcanonical) mutual information less the information needed to encode the
  table given the cluster sizes, with the Dirichlet-multinomial reduction (Jerdee, Kirkley &
  Newman 2024) or the flat one (Newman, Cantwell & Young 2020); ``nrmi`` is RMI over the
  reference's reduced entropy (the RMI of the reference with itself).

Degenerate cases, by convention (the same as scikit-learn's): when both partitions have one
cluster every NMI and AMI is 1 and NVI is 0; when exactly one has one cluster they are 0
(NVI 1). AMI of identical partitions is 1 (even when E[MI] = MI, as for all singletons).
AMI and RMI are undefined (NaN) for soft tables: the hypergeometric model and the encodings
need integer counts. On soft tables a normaliser within 1e-12 of zero makes the normalised
index NaN.

The reduced mutual information's minimisations over the Dirichlet concentration alpha run
over log(alpha) in [log 1e-4, log 1e4], the authors' range: the minimum is where the cost's
derivative (digamma terms) changes sign, found by Brent's method to 1e-12 in log(alpha), or
an end of the range where it does not change sign. The log-binomial sums are taken over the
distinct cell values and cluster sizes, each weighted by how often it occurs, so each step
costs the number of distinct values, not of cells; the reference's terms depend on its
sizes alone and are kept per set of sizes.

>>> from cluval_core import compare
>>> c = compare([0, 0, 1, 1], [0, 0, 1, 2])
>>> round(c.score("mi"), 4), c.score("nmi_min"), round(c.score("vi"), 4)
(0.6931, 1.0, 0.3466)
"""

from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache, partial

import numpy as np
from scipy.special import gammaln

from ..core import random_models
from ..core.comparison import Comparison
from ..core.compiled import DIGAMMA, compiled
from ..core.emi import (
    _MAX_N,
    MAX_VARIANCE_TERMS,
    _hypergeometric_sums,
    _window,
    expected_mutual_information_terms,
    mutual_information_variance,
)
from ..core.labels import compare, score_labels
from ..core.numeric import distinct_counts, order_free_sum
from ..core.registry import INF, Anatomy, IndexInfo, left_out_update
from ..core.steps import Step, shown, sum_of
from ..core.validation import SOFT_TOLERANCE, CluvalError, as_labels, check_choice

__all__ = ["mutual_info_score", "normalized_mutual_info_score", "adjusted_mutual_info_score",
           "variation_of_information", "normalized_variation_of_information", "homogeneity_score",
           "completeness_score", "v_measure_score", "reduced_mutual_information",
           "normalized_reduced_mutual_information",
           "fair_normalized_mutual_info_score", "adjusted_tsallis_mutual_info_score",
           "standardized_mutual_info_score"]

FAMILY, FAMILY_NAME = "information", "Information theoretic"

VINH = "Vinh, Epps & Bailey (2010), Information theoretic measures for clusterings comparison, JMLR 11"
ROSENBERG = ("Rosenberg & Hirschberg (2007), V-measure: a conditional entropy-based external cluster evaluation "
             "measure, EMNLP")
JERDEE = "Jerdee, Kirkley & Newman (2024), Mutual information and the encoding of contingency tables, Phys. Rev. E 110"


@dataclass(frozen=True)
class Normaliser:
    """One way of normalising the mutual information: scikit-learn's ``average_method`` name,
    the shorter name cluval used before, how it reads, its formula, the NMI and the AMI it
    defines (the joint entropy normalises an NMI only)."""

    name: str
    former: str
    words: str
    latex: str
    text: str
    of: Callable
    nmi: str
    ami: str | None


NORMALISERS = {n.name: n for n in (
    Normaliser("arithmetic", "sum", "arithmetic mean", r"\frac{H_a+H_b}{2}", "(H_a + H_b) / 2",
               lambda e: (e.true + e.pred) / 2, "nmi_sum", "ami"),
    Normaliser("geometric", "sqrt", "geometric mean", r"\sqrt{H_a H_b}", "√(H_a H_b)",
               lambda e: math.sqrt(e.true * e.pred), "nmi_sqrt", "ami_sqrt"),
    Normaliser("max", "max", "max", r"\max(H_a, H_b)", "max(H_a, H_b)", lambda e: max(e.true, e.pred), "nmi_max",
               "ami_max"),
    Normaliser("min", "min", "min", r"\min(H_a, H_b)", "min(H_a, H_b)", lambda e: min(e.true, e.pred), "nmi_min",
               "ami_min"),
    Normaliser("joint", "joint", "joint entropy", "H_{ab}", "H_ab", lambda e: e.joint, "nmi_joint", None),
)}


def _degenerate(c):
    """1.0 if both sides have one cluster, 0.0 if exactly one side has, else None."""
    singles = (c.k_true == 1) + (c.k_pred == 1)
    return {2: 1.0, 1: 0.0}.get(singles)


def _one_cluster(c, special) -> str:
    return ("both partitions are one cluster" if special == 1.0 else
            f"the {'reference' if c.k_true == 1 else 'candidate'} is one cluster")


# ---------------------------------------------------------------------- steps shared by the family
def _entropy_terms(sizes, n) -> str:
    p = np.asarray(sizes, dtype=np.float64) / float(n)
    return "−(" + sum_of(p * np.log(p)) + ")"


def _entropy_steps(c, *, joint: bool = False) -> list[Step]:
    """H_a, H_b (and H_ab), and MI, with their terms."""
    e, n = c.entropies, c.n
    r, col, v = c.cells
    steps = [Step("H_a", "−Σ (r_i/N) log(r_i/N)", _entropy_terms(c.row_sizes, n), e.true),
             Step("H_b", "−Σ (c_j/N) log(c_j/N)", _entropy_terms(c.col_sizes, n), e.pred)]
    if joint:
        steps.append(Step("H_ab", "−Σ (n_ij/N) log(n_ij/N)", _entropy_terms(v, n), e.joint))
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = v / n * np.log(v * float(n) / (c.row_sizes[r].astype(np.float64) * c.col_sizes[col]))
    steps.append(Step("MI", "Σ (n_ij/N) log(N n_ij / (r_i c_j))", sum_of(terms), e.mutual_information))
    return steps


def _convention(symbol: str, value, why: str) -> Step:
    return Step(symbol, "", "", value, why)


# ---------------------------------------------------------------------- mutual information
def _mutual_information(c) -> float:
    return c.entropies.mutual_information


def _mi_steps(c):
    return _entropy_steps(c)


def _emi(c):
    """E[MI] for the closed forms of chance(), or None beyond the work cluval does."""
    emi = c.expected_mutual_information
    return None if math.isnan(emi) else emi


def _mi_under(c, model):
    """(E, None) of the mutual information under a model that draws whole partitions (random_models)."""
    sizes = (c.row_sizes.astype(np.int64).tolist(), c.col_sizes.astype(np.int64).tolist())
    return random_models.expected_mutual_information_under(int(c.n), model, *sizes), None


def _mi_expectation(c):
    emi = _emi(c)
    return None if emi is None else (emi, None)


def _mi_cells_of(dense):
    t, rows, cols, n = dense
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(t > 0, t / n * np.log(t * n / np.outer(rows, cols)), 0.0)


def _mi_cells(c, dense):
    return Anatomy(_mi_cells_of(dense), 0.0, "(n_ij/N) log(N n_ij / (r_i c_j)) nats")


# ---------------------------------------------------------------------- normalised mutual information
def _nmi(c, normaliser: Normaliser) -> float:
    special = _degenerate(c)
    if special is not None:
        return special
    if c.is_identical:
        return 1.0
    e = c.entropies
    bound = normaliser.of(e)
    if c.is_soft and bound <= SOFT_TOLERANCE:
        return math.nan
    return min(e.mutual_information / bound, 1.0)


def _nmi_steps(c, normaliser: Normaliser):
    symbol = f"NMI_{normaliser.nmi.split('_')[1]}"
    steps = _entropy_steps(c, joint=normaliser.name == "joint")
    special = _degenerate(c)
    if special is not None:
        return steps + [_convention(symbol, special, f"{_one_cluster(c, special)}: {shown(special)} by convention")]
    if c.is_identical:
        return steps + [_convention(symbol, 1.0, "identical partitions: 1")]
    bound = normaliser.of(c.entropies)
    steps.append(Step("norm", normaliser.text, "", bound))
    if c.is_soft and bound <= SOFT_TOLERANCE:
        return steps + [_convention(symbol, math.nan, "the normaliser is 0 within rounding: undefined")]
    return steps + [Step(symbol, "MI / norm", f"{shown(c.entropies.mutual_information)} / {shown(bound)}",
                         _nmi(c, normaliser))]


def _nmi_expectation(c, normaliser: Normaliser):
    bound = normaliser.of(c.entropies)
    emi = _emi(c)
    return None if emi is None or bound <= 0 else (emi / bound, None)


def _nmi_cells(c, dense, normaliser: Normaliser):
    bound = normaliser.of(c.entropies)
    return Anatomy(_mi_cells_of(dense) / bound, 0.0, "the cell's mutual information over the normaliser") \
        if bound > 0 else None


# ---------------------------------------------------------------------- variation of information
def _variation(c) -> float:
    e = c.entropies
    return max(e.true + e.pred - 2 * e.mutual_information, 0.0)


def _vi_steps(c):
    e = c.entropies
    return _entropy_steps(c) + [Step("VI", "H_a + H_b − 2 MI",
                                     f"{shown(e.true)} + {shown(e.pred)} − 2 × {shown(e.mutual_information)}",
                                     _variation(c))]


def _vi_expectation(c):
    e, emi = c.entropies, _emi(c)
    return None if emi is None else (e.true + e.pred - 2 * emi, None)


def _vi_cells_of(dense):
    t, rows, cols, n = dense
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(t > 0, t / n * (np.log(rows[:, None] / t) + np.log(cols[None, :] / t)), 0.0)


def _vi_cells(c, dense):
    return Anatomy(_vi_cells_of(dense), 0.0, "(n_ij/N) (log(r_i/n_ij) + log(c_j/n_ij)) nats")


def _normalised_variation(c) -> float:
    special = _degenerate(c)
    if special is not None:
        return 1.0 - special
    e = c.entropies
    if c.is_soft and e.true + e.pred <= SOFT_TOLERANCE:
        return math.nan
    return _variation(c) / (e.true + e.pred)


def _nvi_steps(c):
    steps = _vi_steps(c)
    special = _degenerate(c)
    if special is not None:
        return steps + [_convention("NVI", 1.0 - special, f"{_one_cluster(c, special)}: {shown(1.0 - special)} by "
                                                          "convention")]
    e = c.entropies
    if c.is_soft and e.true + e.pred <= SOFT_TOLERANCE:
        return steps + [_convention("NVI", math.nan, "H_a + H_b is 0 within rounding: undefined")]
    return steps + [Step("NVI", "VI / (H_a + H_b)", f"{shown(steps[-1].value)} / ({shown(e.true)} + {shown(e.pred)})",
                         _normalised_variation(c))]


def _nvi_expectation(c):
    e, emi = c.entropies, _emi(c)
    return None if emi is None or e.true + e.pred <= 0 else (1 - 2 * emi / (e.true + e.pred), None)


def _nvi_cells(c, dense):
    total = c.entropies.true + c.entropies.pred
    return Anatomy(_vi_cells_of(dense) / total, 0.0, "the cell's variation of information over H_a + H_b") \
        if total > 0 else None


# ---------------------------------------------------------------------- adjusted mutual information
_EPS = 2.220446049250313e-16


def _ami(c, normaliser: Normaliser) -> float:
    """(MI - EMI) / (mean(H_a, H_b) - EMI).

    Where the bound is within rounding of EMI (1e-9 relative: EMI itself is accurate to
    1e-12), every random assignment reaches the bound, so the ratio is 0/0 and AMI is NaN; this
    happens for the smaller entropy when one side is all singletons (scikit-learn returns
    whatever rounding leaves there).
    """
    special = _degenerate(c)
    if special is not None:
        return special
    if c.is_identical:
        return 1.0
    if c.is_soft:
        return math.nan
    e = c.entropies
    emi = c.expected_mutual_information
    if math.isnan(emi):
        return math.nan
    bound = normaliser.of(e)
    if bound - emi <= 1e-9 * bound:
        return math.nan
    denominator = bound - emi
    denominator = min(denominator, -_EPS) if denominator < 0 else max(denominator, _EPS)
    return min((e.mutual_information - emi) / denominator, 1.0)  # MI = bound is 1, not 1 + rounding


def _ami_steps(c, normaliser: Normaliser):
    symbol = "AMI" if normaliser.ami == "ami" else f"AMI_{normaliser.ami.split('_')[1]}"
    steps = _entropy_steps(c)
    special = _degenerate(c)
    if special is not None:
        return steps + [_convention(symbol, special, f"{_one_cluster(c, special)}: {shown(special)} by convention")]
    if c.is_identical:
        return steps + [_convention(symbol, 1.0, "identical partitions: 1")]
    emi = c.expected_mutual_information
    steps.append(Step("EMI", "Σ_ij Σ_n (n/N) log(N n / (r_i c_j)) P(n | N, r_i, c_j)", "", emi,
                      "the expected MI when objects are assigned at random with these cluster sizes"))
    if math.isnan(emi):
        return steps + [_convention(symbol, math.nan, "the expected mutual information is beyond the work cluval does")]
    bound = normaliser.of(c.entropies)
    steps.append(Step("norm", normaliser.text, "", bound))
    if bound - emi <= 1e-9 * bound:
        return steps + [_convention(symbol, math.nan, "norm = EMI: every random table reaches the bound, so AMI is "
                                                      "0/0, undefined")]
    mi = c.entropies.mutual_information
    return steps + [Step(symbol, "(MI − EMI) / (norm − EMI)",
                         f"({shown(mi)} − {shown(emi)}) / ({shown(bound)} − {shown(emi)})", _ami(c, normaliser))]


def _ami_expectation(c, normaliser: Normaliser):
    emi = _emi(c)
    if emi is None:
        return None
    bound = normaliser.of(c.entropies)
    return (0.0, None) if bound - emi > 1e-9 * bound else None  # else AMI is undefined on every random table


def _ami_cells(c, dense, normaliser: Normaliser):
    """The cells of AMI's numerator over its denominator; None where a convention sets the value
    (one cluster on a side, identical partitions, or a bound every random table reaches)."""
    if c.is_soft or c.k_true == 1 or c.k_pred == 1 or c.is_identical:
        return None
    emi_cells = expected_mutual_information_terms(c.row_sizes, c.col_sizes)
    bound = normaliser.of(c.entropies)
    denominator = bound - emi_cells.sum()
    if denominator <= 1e-9 * bound:
        return None
    return Anatomy((_mi_cells_of(dense) - emi_cells) / denominator, 0.0,
                   "(the cell's mutual information - its expectation) / AMI's denominator")


# ---------------------------------------------------------------------- standardized mutual information
def _mi_sd(c) -> float:
    """SD[MI] under the permutation model (NaN beyond the work cluval does: core.emi)."""
    return math.sqrt(mutual_information_variance(c.row_sizes, c.col_sizes))


def _smi_undefined(c) -> str | None:
    """Why SMI has no value on this table, or None."""
    if c.is_soft:
        return "a real-valued table: the permutation model needs counts"
    if math.isnan(c.expected_mutual_information):
        return "the expected mutual information is beyond the work cluval does"
    sd = c.margin_memo(_mi_sd)
    if math.isnan(sd):
        return (f"the variance of the mutual information needs more than the {MAX_VARIANCE_TERMS:.0e} terms "
                "cluval sums")
    if sd == 0:
        return ("every random table has this mutual information (SD = 0: a side is one cluster or all "
                "singletons), so a z-score is 0/0")
    return None


def _smi(c) -> float:
    if _smi_undefined(c) is not None:
        return math.nan
    return (c.entropies.mutual_information - c.expected_mutual_information) / c.margin_memo(_mi_sd)


def _smi_steps(c):
    steps = _entropy_steps(c)
    why = _smi_undefined(c)
    if why is None or "variance" in why or "0/0" in why:
        steps.append(Step("EMI", "Σ_ij Σ_n (n/N) log(N n / (r_i c_j)) P(n | N, r_i, c_j)", "",
                          c.expected_mutual_information, "the expected MI when objects are assigned at random "
                          "with these cluster sizes"))
    if why is None or "0/0" in why:
        steps.append(Step("SD", "√(E[MI²] − EMI²)", "", c.margin_memo(_mi_sd),
                          "the standard deviation of MI over those random assignments, exactly"))
    if why is not None:
        return steps + [_convention("SMI", math.nan, why)]
    mi, emi, sd = c.entropies.mutual_information, c.expected_mutual_information, c.margin_memo(_mi_sd)
    return steps + [Step("SMI", "(MI − EMI) / SD", f"({shown(mi)} − {shown(emi)}) / {shown(sd)}", _smi(c))]


def _smi_expectation(c):
    return None if _smi_undefined(c) is not None else (0.0, 1.0)


def _smi_cells(c, dense):
    if _smi_undefined(c) is not None:
        return None
    emi_cells = expected_mutual_information_terms(c.row_sizes, c.col_sizes)
    return Anatomy((_mi_cells_of(dense) - emi_cells) / c.margin_memo(_mi_sd), 0.0,
                   "(the cell's mutual information − its expectation) / SD[MI]")


# ---------------------------------------------------------------------- homogeneity and completeness
def _share_of(c, entropy: float) -> float:
    if entropy <= (SOFT_TOLERANCE if c.is_soft else 0.0):
        return 1.0
    return min(c.entropies.mutual_information / entropy, 1.0)


def _homogeneity(c) -> float:
    """MI / H_a: how far each candidate cluster holds objects of one reference cluster only."""
    return _share_of(c, c.entropies.true)


def _completeness(c) -> float:
    """MI / H_b: how far each reference cluster's objects share one candidate cluster."""
    return _share_of(c, c.entropies.pred)


def _share_steps(c, side: str):
    symbol, name, entropy = ("h", "H_a", c.entropies.true) if side == "true" else ("c", "H_b", c.entropies.pred)
    steps = _entropy_steps(c)
    if entropy <= (SOFT_TOLERANCE if c.is_soft else 0.0):
        return steps + [_convention(symbol, 1.0, f"{name} = 0 (one cluster): 1 by convention")]
    return steps + [Step(symbol, f"MI / {name}", f"{shown(c.entropies.mutual_information)} / {shown(entropy)}",
                         _share_of(c, entropy))]


def _share_expectation(c, side: str):
    entropy = c.entropies.true if side == "true" else c.entropies.pred
    emi = _emi(c)
    return None if emi is None or entropy <= 0 else (emi / entropy, None)


def _share_cells(c, dense, side: str):
    entropy = c.entropies.true if side == "true" else c.entropies.pred
    if entropy <= 0:
        return None
    return Anatomy(_mi_cells_of(dense) / entropy, 0.0,
                   f"the cell's mutual information over H_{'a' if side == 'true' else 'b'}")


def _v_measure(c, beta: float) -> float:
    """(1 + beta) h c / (beta h + c) with h the homogeneity and c the completeness (0 where c = 0)."""
    h, k = _homogeneity(c), _completeness(c)
    if beta * h + k == 0:  # h = k = 0, or beta = 0 with k = 0: the product is 0
        return 0.0
    return (1 + beta) * h * k / (beta * h + k)


# ---------------------------------------------------------------------- fair normalised mutual information
def _fairness(c) -> float:
    """exp(-|K_a - K_b| / K_a): the fair NMI's penalty for a number of clusters other than the reference's."""
    return math.exp(-abs(c.k_true - c.k_pred) / c.k_true)


def _fair_nmi(c) -> float:
    return _fairness(c) * _nmi(c, NORMALISERS["arithmetic"])


def _fair_nmi_steps(c):
    steps = _nmi_steps(c, NORMALISERS["arithmetic"])
    nmi = steps[-1].value
    factor = _fairness(c)
    return steps + [
        Step("φ", "exp(−|K_a − K_b| / K_a)", f"exp(−|{c.k_true} − {c.k_pred}| / {c.k_true})", factor,
             "the penalty for a number of clusters other than the reference's"),
        Step("FNMI", "φ NMI_sum", f"{shown(factor)} × {shown(nmi)}", _fair_nmi(c))]


def _fair_nmi_expectation(c):
    found = _nmi_expectation(c, NORMALISERS["arithmetic"])
    return None if found is None else (_fairness(c) * found[0], None)


def _fair_nmi_cells(c, dense):
    found = _nmi_cells(c, dense, NORMALISERS["arithmetic"])
    return None if found is None else Anatomy(found.cells * _fairness(c), 0.0,
                                              "the cell's mutual information over (H_a + H_b) / 2, times the penalty")


# ---------------------------------------------------------------------- reduced mutual information
_ALPHA_RANGE = (math.log(1e-4), math.log(1e4))


def _distinct(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values and how often each occurs, as floats."""
    distinct, counts = distinct_counts(values)
    return distinct.astype(np.float64), counts.astype(np.float64)


def _log_binom(n, m):
    return gammaln(n + 1) - gammaln(m + 1) - gammaln(n - m + 1)


# Beyond this, log Γ(x) is its Stirling series plus a correction below 1e-16 (five terms).
_STIRLING_FROM = 15.0


def _stirling_error(x: np.ndarray) -> np.ndarray:
    """log Γ(x) - ((x - 1/2) log x - x + log(2 pi) / 2), for x >= _STIRLING_FROM."""
    inverse = 1.0 / x
    square = inverse * inverse
    return inverse * (1 / 12 - square * (1 / 360 - square * (1 / 1260 - square * (1 / 1680 - square / 1188))))


def _log_rising(sizes: np.ndarray, a: np.ndarray) -> np.ndarray:
    """log Γ(sizes + a) - log Γ(a), the log of the rising factorial, without cancellation.

    For a large concentration a (up to 1e4 times the number of clusters) the two log-gammas
    are huge and nearly equal; their difference is written instead as
    (a - 1/2) log1p(n / a) + n log(a + n) - n plus the difference of the two Stirling errors,
    every term of which is computed to full precision.
    """
    direct = a < _STIRLING_FROM
    safe = np.where(direct, _STIRLING_FROM, a)
    stable = ((safe - 0.5) * np.log1p(sizes / safe) + sizes * np.log(safe + sizes) - sizes
              + _stirling_error(safe + sizes) - _stirling_error(safe))
    return np.where(direct, gammaln(sizes + a) - gammaln(a), stable)


def _minimum(terms) -> float:
    """The least value over alpha in [1e-4, 1e4] of the reduced encoding's cost, given as
    ``terms = [(weight, size, scale), ...]``: sum of weight * log C(size + scale alpha - 1, scale alpha - 1).

    Each term is convex in log(alpha) beyond its start and the sum has one minimum (the
    authors' premise): it is where the derivative, sum of weight * scale * alpha *
    (digamma(size + scale alpha) - digamma(scale alpha)), changes sign, found by Brent's method
    to 1e-12 in log(alpha) (:func:`_slope_root`, compiled), or an end of the range where it does
    not change sign. The cost's log-gamma differences are taken without cancellation
    (:func:`_log_rising`), so that the cost keeps its last digits even at the ends of the range.
    """
    weights = np.concatenate([w for w, _, _ in terms])
    sizes = np.concatenate([v for _, v, _ in terms])
    scales = np.repeat(np.array([q for _, _, q in terms], dtype=np.float64), [len(v) for _, v, _ in terms])
    constant = float(np.dot(weights, gammaln(sizes + 1)))
    t = _slope_root(DIGAMMA, weights, sizes, scales, *_ALPHA_RANGE, 1e-12, _BRENT_RTOL, _BRENT_ITERATIONS)
    if math.isnan(t):
        raise CluvalError("the reduced mutual information's minimum over alpha was not found")
    return float(np.dot(weights, _log_rising(sizes, scales * math.exp(t)))) - constant


# Brent's method stops within 1e-12 + _BRENT_RTOL |t| of the root, after _BRENT_ITERATIONS steps at most
_BRENT_RTOL = 4 * np.finfo(float).eps
_BRENT_ITERATIONS = 100


@compiled
def _slope(psi, weights, sizes, scales, t):
    """The derivative in t = log(alpha) of the cost of :func:`_minimum`: sum of weight * a *
    (psi(size + a) - psi(a)), a = scale e^t (`psi`: the digamma function)."""
    a = scales * math.exp(t)
    terms = np.empty(len(a))
    for x in range(len(a)):
        terms[x] = a[x] * (psi(sizes[x] + a[x]) - psi(a[x]))
    return np.dot(weights, terms)


@compiled
def _slope_root(psi, weights, sizes, scales, low, high, xtol, rtol, iterations):
    """Where the cost of :func:`_minimum` is least in t = log(alpha) over [low, high]: low where its
    slope (:func:`_slope`) is not negative there, high where it is not positive there, else the
    slope's root by Brent's method (inverse quadratic or linear interpolation where it steps
    well, bisection otherwise) to within xtol + rtol |t|; NaN if not found in `iterations` steps."""
    f_low = _slope(psi, weights, sizes, scales, low)
    if f_low >= 0:
        return low
    f_high = _slope(psi, weights, sizes, scales, high)
    if f_high <= 0:
        return high
    # `best` is the current estimate, `last` the one before, `other` brackets the root with best
    last, best, f_last, f_best = low, high, f_low, f_high
    other = f_other = step = previous_step = 0.0
    for _ in range(iterations):
        if f_last * f_best < 0:
            other, f_other = last, f_last
            previous_step = step = best - last
        if abs(f_other) < abs(f_best):  # keep the smaller slope at `best`
            last, best, other = best, other, best
            f_last, f_best, f_other = f_best, f_other, f_best
        tolerance = (xtol + rtol * abs(best)) / 2
        half = (other - best) / 2
        if f_best == 0 or abs(half) < tolerance:
            return best
        if abs(previous_step) > tolerance and abs(f_best) < abs(f_last):
            if last == other:  # two points: the secant
                trial = -f_best * (best - last) / (f_best - f_last)
            else:  # three: inverse quadratic interpolation
                d_last = (f_last - f_best) / (last - best)
                d_other = (f_other - f_best) / (other - best)
                trial = -f_best * (f_other * d_other - f_last * d_last) / (d_other * d_last * (f_other - f_last))
            if 2 * abs(trial) < min(abs(previous_step), 3 * abs(half) - tolerance):
                previous_step, step = step, trial
            else:
                previous_step = step = half
        else:
            previous_step = step = half
        last, f_last = best, f_best
        best += step if abs(step) > tolerance else (tolerance if half > 0 else -tolerance)
        f_best = _slope(psi, weights, sizes, scales, best)
    return np.nan


def _prior(sizes: np.ndarray, n: float, q: float):
    """The terms of log C(N + q alpha - 1, q alpha - 1) - sum log C(n_g + alpha - 1, alpha - 1)."""
    values, counts = _distinct(sizes)
    return [(np.array([1.0]), np.array([n]), q), (-counts, values, 1.0)]


def _conditional(cols, cells, q: float):
    """The terms of sum_s [log C(n_s + q alpha - 1, q alpha - 1) - sum_g log C(n_gs + alpha - 1, alpha - 1)],
    from the distinct column sizes and cell counts with how often each occurs (:func:`_distinct`)."""
    (s_values, s_counts), (v_values, v_counts) = cols, cells
    return [(s_counts, s_values, q), (-v_counts, v_values, 1.0)]


@lru_cache(maxsize=256)
def _reference_terms(sizes: bytes) -> tuple[float, float]:
    """(H(g), H(g | g)) of a reference with these cluster sizes (sorted int64 bytes), in nats.

    Both depend on the sizes alone, so random tables with the same margins share them.
    H(g) = min_alpha prior(alpha) + log N! - sum log n_g!; H(g | g) is H(g | c) with the candidate
    equal to the reference (a diagonal table).
    """
    rows = np.frombuffer(sizes, dtype=np.int64)
    n, q = float(rows.sum()), float(len(rows))
    h_g = _minimum(_prior(rows, n, q)) + float(gammaln(n + 1)) - float(np.sum(gammaln(rows + 1.0)))
    return h_g, _minimum(_conditional(_distinct(rows), _distinct(rows), q))


def _key(sizes: np.ndarray) -> bytes:
    return np.sort(np.asarray(sizes, dtype=np.int64)).tobytes()


def _reference_of(c) -> tuple[float, float]:
    """(H(g), H(g | g)) of c's reference (:func:`_reference_terms`)."""
    return _reference_terms(_key(c.row_sizes))


def _reduced_parts(c) -> tuple[float, float]:
    """(H(g), H(g | c)) of the whole table in nats, the reference being the rows (Jerdee et al. 2024).

    H(g) = min_alpha [log C(N + q alpha - 1, q alpha - 1) - sum_g log C(n_g + alpha - 1, alpha - 1)]
           + log N! - sum_g log n_g!
    H(g | c) = min_alpha sum_s [log C(n_s + q alpha - 1, q alpha - 1) - sum_g log C(n_gs + alpha - 1, alpha - 1)]
               + sum_s log n_s! - sum_gs log n_gs!
    with q the number of reference clusters; RMI = H(g) - H(g | c). With one reference cluster
    both are 0 exactly (each log C and log n! term meets its own negative), so they are not summed:
    summed, the terms cancel only to within the rounding of the machine's dot product.
    """
    if c.k_true == 1:
        return 0.0, 0.0
    h_g, _ = c.margin_memo(_reference_of)
    cols, cells = c.margin_memo(_column_terms), tuple(x.astype(np.float64).tobytes() for x in c.cell_value_counts)
    terms = (*cols, *cells)
    kept = sum(map(len, terms)) <= _KEPT_TERMS_BYTES
    return h_g, (_conditional_entropy if kept else _conditional_entropy.__wrapped__)(*terms, float(c.k_true))


def _column_terms(c) -> tuple[bytes, bytes]:
    """The distinct column sizes and how often each occurs (:func:`_distinct`), as bytes: what
    H(g | c) reads of the margins."""
    return tuple(x.tobytes() for x in _distinct(c.col_sizes))


# The largest distinct sizes and counts (bytes) whose H(g | c) is kept, 1 024 of them at most: 16 MB in all
_KEPT_TERMS_BYTES = 1 << 14


@lru_cache(maxsize=1024)  # the jackknife's tables share it: every object left out of a cell with the same count in
# a column of the same size leaves the same column sizes and cell counts, whatever its row
def _conditional_entropy(sizes: bytes, size_counts: bytes, values: bytes, value_counts: bytes, q: float) -> float:
    """H(g | c) (:func:`_reduced_parts`) from the distinct column sizes and cell counts with how
    often each occurs (float64 bytes, as :func:`_distinct` gives them) and the number q of
    reference clusters."""
    cols, cells = ((np.frombuffer(v), np.frombuffer(k)) for v, k in ((sizes, size_counts), (values, value_counts)))
    return (_minimum(_conditional(cols, cells, q))
            + float(np.dot(cols[1], gammaln(cols[0] + 1))) - float(np.dot(cells[1], gammaln(cells[0] + 1))))


def _reduced_mutual_information(c) -> float:
    """Reduced mutual information (Dirichlet-multinomial reduction) in nats per object; NaN on real tables."""
    if c.is_soft:
        return math.nan
    h_g, h_g_given_c = c.memo(_reduced_parts)
    return (h_g - h_g_given_c) / c.n


def _rmi_steps(c):
    h_g, h_g_given_c = c.memo(_reduced_parts)
    return [Step("H(g)", "min_α [log C(N + K_a α − 1, K_a α − 1) − Σ log C(r_i + α − 1, α − 1)] + log N! − Σ log r_i!",
                 "", h_g, "nats to transmit the reference's labels, its cluster sizes first"),
            Step("H(g|c)", "min_α Σ_j [log C(c_j + K_a α − 1, K_a α − 1) − Σ_i log C(n_ij + α − 1, α − 1)] + "
                 "Σ log c_j! − Σ log n_ij!", "", h_g_given_c, "the same given the candidate, column by column"),
            Step("RMI", "(H(g) − H(g|c)) / N", f"({shown(h_g)} − {shown(h_g_given_c)}) / {shown(c.n)}",
                 _reduced_mutual_information(c))]


def _normalized_reduced_mutual_information(c) -> float:
    """RMI over the reference's reduced entropy (its RMI with itself), asymmetric by design.

    0 where the reference's reduced entropy is not positive (one cluster, or too few objects
    to say more than the sizes do), as the authors do, for identical partitions too; 1 for
    other identical partitions.
    """
    if c.is_soft:
        return math.nan
    h_g, h_g_given_g = c.margin_memo(_reference_of)
    own = h_g - h_g_given_g
    if own <= 0:
        return 0.0
    if c.is_identical:
        return 1.0
    return _reduced_mutual_information(c) * c.n / own


def _nrmi_steps(c):
    h_g, h_g_given_g = c.margin_memo(_reference_of)
    own = h_g - h_g_given_g
    steps = _rmi_steps(c) + [
        Step("H(g|g)", "H(g|c) with the candidate equal to the reference", "", h_g_given_g),
        Step("RMI(g;g)", "H(g) − H(g|g)", f"{shown(h_g)} − {shown(h_g_given_g)}", own,
             "the reference's reduced entropy, in nats"),
    ]
    if own <= 0:
        return steps + [_convention("NRMI", 0.0, "the reference's reduced entropy is not positive: 0, as the "
                                                 "authors define it")]
    if c.is_identical:
        return steps + [_convention("NRMI", 1.0, "identical partitions: 1")]
    rmi_total = _reduced_mutual_information(c) * c.n
    return steps + [Step("NRMI", "N RMI / RMI(g;g)", f"{shown(rmi_total)} / {shown(own)}",
                         _normalized_reduced_mutual_information(c))]


def _log_tables_count(row_sums: np.ndarray, col_sums: np.ndarray) -> float:
    """log of the number of tables of counts with these margins, by the effective-columns
    estimate (Jerdee, Kirkley & Newman 2023), in nats; exact when every column sum is 1."""
    rs, cs = np.asarray(row_sums, dtype=np.float64), np.asarray(col_sums, dtype=np.float64)
    m, n = float(len(rs)), order_free_sum(rs)
    squares = order_free_sum(cs * cs)
    if squares == n:  # every column sum is 1: each column's one object goes to a row, N! / prod r!
        return float(gammaln(n + 1)) - order_free_sum(gammaln(rs + 1))
    alpha = (n * n - n + (n * n - squares) / m) / (squares - n)
    return (-float(_log_binom(n + m * alpha - 1, m * alpha - 1)) + order_free_sum(_log_binom(rs + alpha - 1, alpha - 1))
            + order_free_sum(_log_binom(cs + m - 1, m - 1)))


def _log_omega(c) -> float:
    """log Omega of c's margins, the columns as the rows of :func:`_log_tables_count`."""
    return _log_tables_count(c.col_sizes, c.row_sizes)


def _flat_parts(c) -> tuple[float, float]:
    """(log of the traditional count, log Omega) of the flat reduction, in nats."""
    n = float(c.n)
    traditional = (float(gammaln(n + 1)) - order_free_sum(gammaln(c.row_sizes + 1.0))
                   - order_free_sum(gammaln(c.col_sizes + 1.0)) + c.cell_sum(lambda v: gammaln(v + 1.0)))
    return traditional, c.margin_memo(_log_omega)


@left_out_update(_flat_parts, within=lambda c: 16 * float(np.spacing(gammaln(c.n + 2.0))))
def _flat_parts_left_out(parts, c, i: int, j: int) -> tuple[float, float]:
    """One object of cell (i, j) left out: log N!, log r_i!, log c_j! and log n_ij! each lose the log of
    their count (the traditional count moves by four logs, within a few units in the last place of
    log N!); log Omega is taken anew from the new margins."""
    traditional, _ = parts
    rows, cols = c.row_sizes.copy(), c.col_sizes.copy()
    r, k, x = int(rows[i]), int(cols[j]), int(c.table[i, j])
    rows[i] -= 1
    cols[j] -= 1
    return (traditional - math.log(int(c.n)) + math.log(r) + math.log(k) - math.log(x),
            _log_tables_count(cols, rows))


def _reduced_mutual_information_flat(c) -> float:
    """Reduced mutual information with the flat reduction, in nats per object; NaN on real tables.

    (log N! - sum log r_i! - sum log c_j! + sum log n_ij! - log Omega(c, r)) / N, with Omega the
    number of tables whose row sums are the candidate's sizes and column sums the reference's.
    """
    if c.is_soft:
        return math.nan
    traditional, log_omega = c.memo(_flat_parts)
    return (traditional - log_omega) / float(c.n)


def _rmi_flat_steps(c):
    traditional, log_omega = c.memo(_flat_parts)
    return [Step("log W", "log N! − Σ log r_i! − Σ log c_j! + Σ log n_ij!", "", traditional,
                 "the traditional (microcanonical) mutual information, in nats"),
            Step("log Ω", "log #tables with the candidate's sizes as rows and the reference's as columns", "",
                 log_omega, "the effective-columns estimate, exact when the reference is all singletons"),
            Step("RMI_flat", "(log W − log Ω) / N", f"({shown(traditional)} − {shown(log_omega)}) / {shown(c.n)}",
                 _reduced_mutual_information_flat(c))]


def _rmi_flat_cells(c, dense):
    t, rows, cols, n = dense
    with np.errstate(invalid="ignore"):
        cells = gammaln(t + 1) / n
    constant = (gammaln(n + 1) - gammaln(rows + 1).sum() - gammaln(cols + 1).sum()
                - c.margin_memo(_log_omega)) / n
    return Anatomy(cells, constant, "log(n_ij!) / N nats; the constant is the margins' part and the count of tables")


# ---------------------------------------------------------------------- one-line functions
def _average_method(average_method, normaliser, allowed) -> Normaliser:
    """The normaliser chosen by scikit-learn's `average_method` or by the former `normaliser`."""
    if normaliser is not None:
        warnings.warn("normaliser= is deprecated: use average_method= with scikit-learn's names ('arithmetic', "
                      "'geometric', 'max', 'min')", DeprecationWarning, stacklevel=3)
        check_choice("normaliser", normaliser, tuple(n.former for n in allowed))
        return next(n for n in allowed if n.former == normaliser)
    check_choice("average_method", average_method, tuple(n.name for n in allowed))
    return NORMALISERS[average_method]


def _fewer_than_two(labels_true, labels_pred) -> bool:
    """True for two partitions of fewer than 2 objects, which scikit-learn scores 1.0 (one
    cluster or none a side): the labels are checked as always, an empty pair included."""
    arrays = [np.asarray(x, dtype=object) if isinstance(x, (list, tuple)) else x for x in (labels_true, labels_pred)]
    if not all(hasattr(x, "__len__") and getattr(x, "ndim", 1) == 1 for x in arrays):
        return False
    if len(arrays[0]) != len(arrays[1]) or len(arrays[0]) >= 2:
        return False
    if len(arrays[0]) == 1:
        as_labels(labels_true, "labels_true")
        as_labels(labels_pred, "labels_pred")
    return True


def mutual_info_score(labels_true, labels_pred, *, contingency=None, noise=None) -> float:
    """Mutual information in nats, of two partitions' labels or of a `contingency` table.

    As scikit-learn's: ``contingency`` (a table of counts, dense or sparse) replaces the
    labels, which are then ignored (pass None).

    >>> round(mutual_info_score([0, 0, 1, 1], [0, 0, 1, 2]), 4)
    0.6931
    >>> mutual_info_score(None, None, contingency=[[2, 0], [0, 2]])
    0.6931471805599453
    """
    if contingency is not None:
        return Comparison.from_table(contingency).score("mi")
    return score_labels("mi", labels_true, labels_pred, noise=noise)


def normalized_mutual_info_score(labels_true, labels_pred, *, average_method="arithmetic", noise=None,
                                 normaliser=None) -> float:
    """NMI: the mutual information over the ``"arithmetic"`` or ``"geometric"`` mean, the ``"max"``
    or ``"min"`` of the two entropies (scikit-learn's `average_method`), or the ``"joint"`` entropy.

    Accepts scikit-learn's call exactly (and gives its value: 1.0 for fewer than 2 objects).
    `normaliser` (``"sum"``, ``"sqrt"``, ...) is the former keyword, deprecated.

    >>> normalized_mutual_info_score([0, 0, 1, 1], [0, 0, 1, 2], average_method="min")
    1.0
    """
    chosen = _average_method(average_method, normaliser, tuple(NORMALISERS.values()))
    if _fewer_than_two(labels_true, labels_pred):
        return 1.0
    return score_labels(chosen.nmi, labels_true, labels_pred, noise=noise)


def adjusted_mutual_info_score(labels_true, labels_pred, *, average_method="arithmetic", noise=None,
                               normaliser=None) -> float:
    """Adjusted mutual information (Vinh et al. 2010) bounded by the ``"arithmetic"`` or
    ``"geometric"`` mean, the ``"max"`` or ``"min"`` of the two entropies (scikit-learn's
    `average_method`).

    Accepts scikit-learn's call exactly and gives its value, except where every random
    assignment reaches the bound (0/0, as for the smaller entropy when one side is all
    singletons): cluval gives NaN there, scikit-learn what rounding leaves. `normaliser` is
    the former keyword, deprecated.

    >>> adjusted_mutual_info_score([0, 0, 1, 1], [1, 1, 0, 0], average_method="geometric")
    1.0
    """
    chosen = _average_method(average_method, normaliser, tuple(n for n in NORMALISERS.values() if n.ami))
    if _fewer_than_two(labels_true, labels_pred):
        return 1.0
    return score_labels(chosen.ami, labels_true, labels_pred, noise=noise)


def variation_of_information(labels_true, labels_pred, *, noise=None) -> float:
    """Variation of information H_a + H_b - 2 MI (nats); 0 for identical partitions."""
    return score_labels("vi", labels_true, labels_pred, noise=noise)


def normalized_variation_of_information(labels_true, labels_pred, *, noise=None) -> float:
    """VI / (H_a + H_b), in [0, 1]; 0 for identical partitions."""
    return score_labels("nvi", labels_true, labels_pred, noise=noise)


def homogeneity_score(labels_true, labels_pred, *, noise=None) -> float:
    """MI / H(labels_true): 1 when every candidate cluster holds one reference cluster's objects only."""
    return score_labels("homogeneity", labels_true, labels_pred, noise=noise)


def completeness_score(labels_true, labels_pred, *, noise=None) -> float:
    """MI / H(labels_pred): 1 when every reference cluster lies within one candidate cluster."""
    return score_labels("completeness", labels_true, labels_pred, noise=noise)


def v_measure_score(labels_true, labels_pred, *, beta=1.0, noise=None) -> float:
    """V-measure (1 + beta) h c / (beta h + c) of homogeneity h and completeness c.

    ``beta=1`` gives NMI (arithmetic mean), ``nmi_sum``; beta > 1 weighs completeness more.

    >>> v_measure_score([0, 0, 1, 1], [0, 0, 1, 2]) == normalized_mutual_info_score([0, 0, 1, 1], [0, 0, 1, 2])
    True
    """
    if isinstance(beta, bool) or not isinstance(beta, numbers.Real) or not (math.isfinite(beta) and beta >= 0):
        raise CluvalError(f"beta must be a finite number >= 0, got {beta!r}")
    return _v_measure(compare(labels_true, labels_pred, noise=noise), float(beta))


def reduced_mutual_information(labels_true, labels_pred, *, reduction="dirichlet", noise=None) -> float:
    """Reduced mutual information in nats per object, labels_true the 'ground truth', with the
    ``"dirichlet"`` (Dirichlet-multinomial, Jerdee et al. 2024) or ``"flat"`` reduction (Newman et al. 2020)."""
    check_choice("reduction", reduction, ("dirichlet", "flat"))
    return score_labels("rmi" if reduction == "dirichlet" else "rmi_flat", labels_true, labels_pred, noise=noise)


def normalized_reduced_mutual_information(labels_true, labels_pred, *, noise=None) -> float:
    """RMI over the reduced entropy of labels_true (Jerdee et al. 2023); 1 for identical partitions."""
    return score_labels("nrmi", labels_true, labels_pred, noise=noise)


def fair_normalized_mutual_info_score(labels_true, labels_pred, *, noise=None) -> float:
    """Fair NMI (Amelio & Pizzuti 2015): NMI (arithmetic mean) times exp(-abs(K_a - K_b) / K_a), K_a the
    reference's number of clusters.

    >>> round(fair_normalized_mutual_info_score([0, 0, 1, 1], [0, 1, 2, 3]), 4)
    0.2453
    """
    return score_labels("fnmi", labels_true, labels_pred, noise=noise)


def standardized_mutual_info_score(labels_true, labels_pred, *, noise=None) -> float:
    """The standardized mutual information (Romano, Bailey, Nguyen & Verspoor 2014): how many
    standard deviations MI lies above its expectation when the objects are assigned at random with
    both partitions' cluster sizes fixed, (MI - E[MI]) / SD[MI], with the exact SD
    (:func:`cluval_core.core.emi.mutual_information_variance`). NaN where every random table has
    the same MI (one cluster or all singletons on a side), or beyond the work cluval does.

    >>> a, b = [0, 0, 0, 1, 1, 1, 2, 2], [0, 0, 1, 1, 1, 2, 2, 2]
    >>> round(standardized_mutual_info_score(a, b), 4)
    1.273
    """
    return score_labels("smi", labels_true, labels_pred, noise=noise)


# ---------------------------------------------------------------------- generalised (Tsallis) information
_NEAR_ONE = 1e-6  # q closer to 1 than this (but not 1) is refused: the entropies' cancellation costs q - 1's digits
# The most terms the Tsallis expectation sums over its windows (weights of 1e15 would ask for gigabytes)
_MAX_TSALLIS_TERMS = 10**8


def _tsallis_of_power_sum(power_sum: float, q: float) -> float:
    """Tsallis entropy (1 - sum p^q) / (q - 1) of proportions summing to 1, from sum p^q."""
    return (1.0 - power_sum) / (q - 1.0)


def _power_sums(c, q: float) -> tuple[float, float, float]:
    """sum (r_i / N)^q, sum (c_j / N)^q and sum (n_ij / N)^q of a table of counts (order-free sums)."""
    n = int(c.n)
    rows, cols = (np.asarray(x, dtype=np.int64) for x in (c.row_sizes, c.col_sizes))
    return (order_free_sum((rows / n) ** q), order_free_sum((cols / n) ** q),
            c.cell_sum(lambda v: (np.asarray(v, dtype=np.int64) / n) ** q))


def _power_sums_left_out(sums, c, i: int, j: int, *, q: float) -> tuple[float, float, float]:
    """One object of cell (i, j) left out: each sum trades the term of r_i (c_j, n_ij) for that of
    one less, and every proportion's denominator N becomes N - 1, a factor (N / (N - 1))^q on the
    whole sum; each sum is at most 1, and moves by a few units in the last place of 1."""
    n, r, k, x = int(c.n), int(c.row_sizes[i]), int(c.col_sizes[j]), int(c.table[i, j])
    scale = (n / (n - 1)) ** q
    return tuple(scale * (total - (size / n) ** q + ((size - 1) / n) ** q) for total, size in zip(sums, (r, k, x)))


@cache
def _power_sums_of(q: float) -> Callable:
    """The derivation of a table's three power sums at q (:func:`_power_sums`), one function per q (so
    that a comparison keeps them), its left-out update registered with it."""
    def derive(c):
        return _power_sums(c, q)
    left_out_update(derive, within=lambda c: 16 * 2.0**-52)(partial(_power_sums_left_out, q=q))
    return derive


def _second_moment(x: int, y: int, n: int) -> Fraction:
    """E[m^2] = Var[m] + E[m]^2 of the hypergeometric count shared by clusters of sizes x and y, exactly."""
    mean = Fraction(x * y, n)
    return (Fraction(x * y * (n - x) * (n - y), n * n * (n - 1)) if n > 1 else 0) + mean * mean


def _expected_power_grid(a: np.ndarray, b: np.ndarray, n: int, q: float) -> np.ndarray:
    """E[m^q] for the shared count m of clusters of sizes a_i and b_j under the permutation model,
    one entry per pair of the given (distinct) sizes: sum_m m^q P(m | a, b, N) over the window of
    the hypergeometric law's terms that are not negligible (as the expected mutual information sums
    them); at q = 2 the closed form Var + mean^2, in exact fractions."""
    grid = np.zeros((len(a), len(b)))
    if q == 2:
        for i, x in enumerate(a.tolist()):
            for j, y in enumerate(b.tolist()):
                grid[i, j] = _second_moment(x, y, n)
        return grid
    if n > _MAX_N:  # counts beyond exact floats: the window's probabilities lose their meaning
        return np.full((len(a), len(b)), math.nan)
    ai, bj = (x.ravel() for x in np.meshgrid(a, b, indexing="ij"))
    lo, hi = _window(ai, bj, n)
    if float(np.maximum(hi - lo + 1, 0).sum()) > _MAX_TSALLIS_TERMS:
        return np.full((len(a), len(b)), math.nan)  # beyond the work cluval does: the index is NaN
    return _hypergeometric_sums(ai, bj, n, lambda m: m ** q).reshape(len(a), len(b))


@cache
def _power_grid(q: float) -> Callable:
    """grid(A, B, n) of E[m^q] (:func:`_expected_power_grid`), one function per q: what a comparison
    is handed when the jackknife computes the sum for all its tables at once (:meth:`Comparison.known_sum`)."""
    return partial(_expected_power_grid, q=q)


@cache
def _expected_power_sum_for(q: float) -> Callable:
    """The derivation of E[sum_ij n_ij^q] from a comparison's margins, one function per q (so that
    tables with the same margins share it)."""
    return lambda c: _expected_power_sum(*(np.asarray(x, dtype=np.int64) for x in (c.row_sizes, c.col_sizes)),
                                         int(c.n), q)


def _expected_power_sum(rows: np.ndarray, cols: np.ndarray, n: int, q: float) -> float:
    """E[sum_ij n_ij^q] under the permutation model: over the distinct pairs of cluster sizes, each
    weighted by how often it occurs (in exact fractions at q = 2); kept for tables with the same margins."""
    return _expected_power_sum_of(np.sort(rows).tobytes(), np.sort(cols).tobytes(), n, q)


@lru_cache(maxsize=64)
def _expected_power_sum_of(rows_bytes: bytes, cols_bytes: bytes, n: int, q: float) -> float:
    a, count_a = np.unique(np.frombuffer(rows_bytes, dtype=np.int64), return_counts=True)
    b, count_b = np.unique(np.frombuffer(cols_bytes, dtype=np.int64), return_counts=True)
    if q == 2:  # sum_ij E[m^2] = sum_ij [x y (n-x)(n-y) / (n^2 (n-1)) + x^2 y^2 / n^2]: it factors by side
        a, b, count_a, count_b = (x.tolist() for x in (a, b, count_a, count_b))
        spread = [sum(c * x * (n - x) for x, c in zip(sizes, counts)) for sizes, counts in ((a, count_a), (b, count_b))]
        square = [sum(c * x * x for x, c in zip(sizes, counts)) for sizes, counts in ((a, count_a), (b, count_b))]
        variance = Fraction(spread[0] * spread[1], n * n * (n - 1)) if n > 1 else 0
        return float(variance + Fraction(square[0] * square[1], n * n))
    return float(count_a.astype(np.float64) @ _expected_power_grid(a, b, n, q) @ count_b.astype(np.float64))


@dataclass(frozen=True)
class TsallisParts:
    """The generalised (Tsallis-q) information of a table: the entropies of the reference, the
    candidate and the table's cells, MI_q = H_q(a) + H_q(b) - H_q(ab), its expectation under the
    permutation model and the normaliser (H_q(a) + H_q(b)) / 2."""

    true: float
    pred: float
    joint: float
    mi: float
    expected: float
    bound: float


def _tsallis_parts(c, q: float) -> TsallisParts:
    n = int(c.n)
    h_u, h_v, h_uv = (_tsallis_of_power_sum(total, q) for total in c.memo(_power_sums_of(q)))
    power_sum = c.known_sum(_power_grid(q))
    if power_sum is None:
        power_sum = c.margin_memo(_expected_power_sum_for(q))
    expected = h_u + h_v - (1.0 - power_sum / float(n) ** q) / (q - 1.0)
    return TsallisParts(h_u, h_v, h_uv, h_u + h_v - h_uv, expected, (h_u + h_v) / 2)


@cache
def _parts_of(q: float) -> Callable:
    """The derivation of a table's Tsallis-q parts, one function per q (so that a comparison keeps them)."""
    return lambda c: _tsallis_parts(c, q)


def _tsallis_undefined(c, parts: TsallisParts) -> bool:
    """norm = E (every random table reaches the bound), or E beyond the work cluval does (NaN)."""
    return math.isnan(parts.expected) or abs(parts.bound - parts.expected) <= 1e-15 * max(1.0, abs(parts.expected))


def _adjusted_tsallis(c, q: float) -> float:
    """The adjusted Tsallis-q mutual information with the arithmetic-mean normaliser (Romano et al. 2016):
    (MI_q - E[MI_q]) / ((H_q(U) + H_q(V)) / 2 - E[MI_q]), MI_q = H_q(U) + H_q(V) - H_q(U, V)."""
    if c.is_soft:
        return math.nan
    parts = c.memo(_parts_of(q))
    if _tsallis_undefined(c, parts):
        return 1.0 if c.is_identical else math.nan
    if _one_table(c):  # MI_q is its expectation exactly; the two sums differ in their last bits
        return 0.0
    return (parts.mi - parts.expected) / (parts.bound - parts.expected)


def _one_table(c) -> bool:
    """Whether every random table with c's margins is c's table: a side is one cluster or all singletons."""
    return min(c.k_true, c.k_pred) == 1 or c.row_sizes.max() == 1 or c.col_sizes.max() == 1


def _tsallis_steps(c, q: float):
    symbol = f"ATMI_{shown(q)}"
    if c.is_soft:
        return [_convention(symbol, math.nan, "a real-valued table: the permutation model needs counts")]
    parts = c.memo(_parts_of(q))
    n = c.n
    power = f"(1 − Σ p^{shown(q)}) / ({shown(q)} − 1)"
    steps = [Step("Hq_a", power.replace("p", "(r_i/N)"), "", parts.true),
             Step("Hq_b", power.replace("p", "(c_j/N)"), "", parts.pred),
             Step("Hq_ab", power.replace("p", "(n_ij/N)"), "", parts.joint),
             Step("MIq", "Hq_a + Hq_b − Hq_ab", f"{shown(parts.true)} + {shown(parts.pred)} − {shown(parts.joint)}",
                  parts.mi),
             Step("E", f"Hq_a + Hq_b − (1 − E[Σ n_ij^{shown(q)}] / N^{shown(q)}) / ({shown(q)} − 1)", "",
                  parts.expected, "the expected MIq when the objects are assigned at random with these cluster "
                                  f"sizes (N = {shown(n)})"),
             Step("norm", "(Hq_a + Hq_b) / 2", f"({shown(parts.true)} + {shown(parts.pred)}) / 2", parts.bound)]
    if math.isnan(parts.expected) and not c.is_identical:
        return steps + [_convention(symbol, math.nan, f"the expectation needs more than the {_MAX_TSALLIS_TERMS:.0e} "
                                                      "terms cluval sums, or more than 2**53 objects")]
    if _tsallis_undefined(c, parts):
        value = _adjusted_tsallis(c, q)
        return steps + [_convention(symbol, value, "norm = E: identical partitions, 1" if value == 1 else
                                    "norm = E: every random table reaches the bound, so the ratio is 0/0, undefined")]
    if _one_table(c):
        return steps + [_convention(symbol, 0.0, "a side is one cluster or all singletons: every random table is "
                                                 "this one, so MIq = E and ATMI is 0")]
    return steps + [Step(symbol, "(MIq − E) / (norm − E)", f"({shown(parts.mi)} − {shown(parts.expected)}) / "
                         f"({shown(parts.bound)} − {shown(parts.expected)})", _adjusted_tsallis(c, q))]


def _tsallis_expectation(c, q: float):
    if c.is_soft or _tsallis_undefined(c, c.memo(_parts_of(q))):
        return None
    return 0.0, None


def _tsallis_cells(c, dense, q: float):
    """(p_ij^q - E[p_ij^q]) / (q - 1) over ATMI's denominator: MI_q less its expectation, cell by cell."""
    if c.is_soft:
        return None
    parts = c.memo(_parts_of(q))
    if _tsallis_undefined(c, parts) or _one_table(c):
        return None
    n = int(c.n)
    rows, cols = dense.rows.astype(np.int64), dense.cols.astype(np.int64)
    a, b = np.unique(rows[rows > 0]), np.unique(cols[cols > 0])
    grid = _expected_power_grid(a, b, n, q)
    expected = np.zeros(dense.table.shape)
    used_r, used_c = np.flatnonzero(rows > 0), np.flatnonzero(cols > 0)
    expected[np.ix_(used_r, used_c)] = grid[np.searchsorted(a, rows[used_r])][:, np.searchsorted(b, cols[used_c])]
    cells = (np.asarray(dense.table, dtype=np.float64) ** q - expected) / float(n) ** q / (q - 1)
    return Anatomy(cells / (parts.bound - parts.expected), 0.0,
                   f"((n_ij/N)^q − its expectation) / (q − 1) over ATMI's denominator, q = {shown(q)}")


def adjusted_tsallis_mutual_info_score(labels_true, labels_pred, *, q: float = 1.5, noise=None) -> float:
    """The adjusted mutual information of Tsallis entropies of order q (Romano, Vinh, Bailey & Verspoor
    2016), with the arithmetic-mean normaliser: AMI at q = 1 (Shannon's entropy is the limit) and
    exactly ARI at q = 2, where the Tsallis entropy 1 - sum p^2 counts pairs; between, a measure
    that weighs small clusters less as q grows. The expectation is exact under the permutation
    model (a sum over the hypergeometric law of each pair of cluster sizes; in fractions at q = 2).

    Romano et al.'s guideline: ARI (q = 2) when the reference has large clusters of about equal
    size, AMI (q = 1) when it is unbalanced with small clusters.

    >>> a, b = [0, 0, 0, 1, 1, 1, 2, 2], [0, 0, 1, 1, 1, 2, 2, 2]
    >>> from cluval_core import adjusted_rand_score
    >>> round(adjusted_tsallis_mutual_info_score(a, b, q=2), 12) == round(adjusted_rand_score(a, b), 12)
    True
    """
    if isinstance(q, bool) or not isinstance(q, numbers.Real) or not (math.isfinite(q) and 1 <= q <= 10):
        raise CluvalError(f"q must be a number from 1 to 10, got {q!r}")
    if 1 < q < 1 + _NEAR_ONE:  # (1 - sum p^q) / (q - 1) loses its digits to cancellation there
        raise CluvalError(f"q = {q!r} is within {_NEAR_ONE:g} of 1, where the Tsallis entropies lose their digits: "
                          "use q = 1 (AMI), to which they tend, or q >= 1.000001")
    c = compare(labels_true, labels_pred, noise=noise)
    if q == 1:
        return c.score("ami")
    return _adjusted_tsallis(c, float(q))


DEFAULT_TSALLIS_Q = 1.5  # the registered member: halfway from AMI (q = 1) to ARI (q = 2)


def _tsallis_entry(q: float) -> IndexInfo:
    return IndexInfo(
        id="atmi", name=f"Adjusted Tsallis mutual information (q = {shown(q)})", family=FAMILY, range=(-INF, 1),
        higher_is_better=True, chance_adjusted=True, symmetric=True, soft=False,
        function=adjusted_tsallis_mutual_info_score, function_options={"q": q},
        formula=(r"\mathrm{ATMI}_q = \frac{\mathrm{MI}_q - E[\mathrm{MI}_q]}{\frac{H_q(a)+H_q(b)}{2} - "
                 r"E[\mathrm{MI}_q]}"),
        symbols=(r"$H_q(p) = (1 - \sum p^q) / (q - 1)$ is the Tsallis entropy of order $q$ of the reference's "
                 r"($a$), the candidate's ($b$) or the table's cells' proportions, $\mathrm{MI}_q = H_q(a) + H_q(b) "
                 r"- H_q(ab)$, and $E[\mathrm{MI}_q]$ its exact expectation under the permutation model. "
                 rf"Registered at $q = {shown(q)}$; other $q$ by the function: AMI at $q = 1$, ARI at $q = 2$."),
        reference="Romano, Vinh, Bailey & Verspoor (2016), Adjusting for chance clustering comparison measures, "
                  "JMLR 17",
        caveat="Between AMI and ARI: larger q weighs large clusters more, as ARI does (Romano et al.: ARI for "
               "large equal-sized reference clusters, AMI for unbalanced ones with small clusters). NaN for "
               "soft tables.",
        compute=lambda c: _adjusted_tsallis(c, q), steps=lambda c: _tsallis_steps(c, q),
        expectation=lambda c: _tsallis_expectation(c, q), cells=lambda c, dense: _tsallis_cells(c, dense, q))


# ---------------------------------------------------------------------- the registry's entries
def _nmi_entry(normaliser: Normaliser, name: str, formula: str, reference: str, caveat: str, symbols: str = ""):
    options = {} if normaliser.name == "arithmetic" else {"average_method": normaliser.name}
    return IndexInfo(
        id=normaliser.nmi, headline=normaliser.name == "arithmetic", name=name, family=FAMILY, range=(0, 1),
        higher_is_better=True, chance_adjusted=False,
        symmetric=True, function=normalized_mutual_info_score, function_options=options, formula=formula,
        symbols=symbols, reference=reference, caveat=caveat,
        compute=lambda c: _nmi(c, normaliser), steps=lambda c: _nmi_steps(c, normaliser),
        expectation=None if normaliser.name == "joint" else (lambda c: _nmi_expectation(c, normaliser)),
        cells=lambda c, dense: _nmi_cells(c, dense, normaliser))


_AMI_CAVEATS = {
    "arithmetic": "Corrected for chance under the permutation model, but still size-weighted like NMI; for "
                  "large N the correction vanishes and AMI = NMI (Rezaei & Fränti, Theorem 1). NaN for soft "
                  "tables, where the hypergeometric model does not apply.",
    "geometric": "Between AMI (max) and AMI (min); the normaliser of NMI (geometric mean).",
    "max": "The most conservative AMI: the larger entropy bounds it, so refining a partition is "
           "penalised most; like every AMI it weighs clusters by size.",
    "min": "The smaller entropy bounds it: a candidate that refines the reference can still score "
           "close to 1, as NMI (min) does.",
}


def _ami_entry(normaliser: Normaliser):
    arithmetic = normaliser.name == "arithmetic"
    subscript = "" if arithmetic else f"_{{{normaliser.ami.split('_')[1]}}}"
    return IndexInfo(
        id=normaliser.ami, headline=arithmetic,
        name="Adjusted mutual information" + ("" if arithmetic else f" ({normaliser.words})"),
        family=FAMILY, range=(-INF, 1), higher_is_better=True, chance_adjusted=True, symmetric=True, soft=False,
        function=adjusted_mutual_info_score,
        function_options={} if arithmetic else {"average_method": normaliser.name},
        formula=(rf"\mathrm{{AMI}}{subscript} = \frac{{\mathrm{{MI}}-E[\mathrm{{MI}}]}}"
                 rf"{{{normaliser.latex}-E[\mathrm{{MI}}]}}"),
        symbols=r"$E[\mathrm{MI}]$ is the expected mutual information when the objects are assigned at random with "
                r"both partitions' cluster sizes fixed (the permutation model, hypergeometric).",
        reference=VINH if arithmetic else VINH + "; scikit-learn's average_method",
        caveat=_AMI_CAVEATS[normaliser.name],
        compute=lambda c: _ami(c, normaliser), steps=lambda c: _ami_steps(c, normaliser),
        expectation=lambda c: _ami_expectation(c, normaliser), cells=lambda c, dense: _ami_cells(c, dense, normaliser))


# The family's indices, in the order the registry lists them (cluval_core.indices registers them).
ENTRIES = (
    IndexInfo(
        id="mi", name="Mutual information", family=FAMILY, range=(0, INF), higher_is_better=True,
        chance_adjusted=False, symmetric=True, function=mutual_info_score,
        formula=r"\mathrm{MI} = \sum_{ij} \frac{n_{ij}}{N}\log\frac{N n_{ij}}{r_i c_j}",
        reference="Shannon (1948); Strehl & Ghosh (2002), JMLR 3",
        caveat="Unbounded and grows with the number of clusters: a finer candidate always shares more "
               "information. Its best value depends on the data (the entropies), so it is not comparable "
               "across data sets.",
        compute=_mutual_information, steps=_mi_steps, expectation=_mi_expectation,
        model_expectation=_mi_under, cells=_mi_cells),
    _nmi_entry(NORMALISERS["arithmetic"], "NMI (arithmetic mean)",
               r"\mathrm{NMI}_{sum} = \frac{2\,\mathrm{MI}}{H_a+H_b}",
               "Kvalseth (1987), IEEE SMC 17; equal to the V-measure (Rosenberg & Hirschberg 2007)",
               "Not corrected for chance: random partitions with many clusters score well above 0. Like ARI "
               "it weighs clusters by size, so small clusters barely count."),
    _nmi_entry(NORMALISERS["geometric"], "NMI (geometric mean)",
               r"\mathrm{NMI}_{sqrt} = \frac{\mathrm{MI}}{\sqrt{H_a H_b}}",
               "Strehl & Ghosh (2002), JMLR 3",
               "As NMI (arithmetic); the geometric mean rewards a lopsided pair of entropies slightly more."),
    _nmi_entry(NORMALISERS["max"], "NMI (max)", r"\mathrm{NMI}_{max} = \frac{\mathrm{MI}}{\max(H_a,H_b)}",
               VINH + "; Lei et al. (2017) recommend it for soft partitions",
               "The strictest NMI: a metric in its distance form, but still not corrected for chance."),
    _nmi_entry(NORMALISERS["min"], "NMI (min)", r"\mathrm{NMI}_{min} = \frac{\mathrm{MI}}{\min(H_a,H_b)}", VINH,
               "Reaches 1 whenever one partition refines the other (splitting every cluster in two still "
               "scores 1): it cannot see over-segmentation."),
    _nmi_entry(NORMALISERS["joint"], "NMI (joint entropy)", r"\mathrm{NMI}_{joint} = \frac{\mathrm{MI}}{H_{ab}}", VINH,
               "Equal to 1 - VI/H_ab; tends to be lower than the other NMIs for the same pair.",
               symbols="$H_{ab}$ is the joint entropy, of the table's cells $n_{ij} / N$."),
    IndexInfo(
        id="vi", name="Variation of information", family=FAMILY, range=(0, INF), higher_is_better=False,
        chance_adjusted=False, symmetric=True, function=variation_of_information,
        formula=r"\mathrm{VI} = H_a + H_b - 2\,\mathrm{MI}",
        reference="Meila (2007), Comparing clusterings - an information based distance, J. Multivariate Analysis 98",
        caveat="A true metric, but in nats and bounded by log N: its size depends on N and K, so values are "
               "not comparable across data sets.",
        compute=_variation, steps=_vi_steps, expectation=_vi_expectation, cells=_vi_cells),
    IndexInfo(
        id="nvi", name="Normalised variation of information", family=FAMILY, range=(0, 1),
        higher_is_better=False, chance_adjusted=False, symmetric=True,
        function=normalized_variation_of_information,
        formula=r"\mathrm{NVI} = \frac{H_a+H_b-2\,\mathrm{MI}}{H_a+H_b}",
        reference="Wu, Xiong & Chen (2009), KDD; equals 1 - NMI (arithmetic)",
        caveat="1 - NMI_sum in disguise: it shares NMI's bias towards many clusters and large clusters.",
        compute=_normalised_variation, steps=_nvi_steps, expectation=_nvi_expectation, cells=_nvi_cells),
    *[_ami_entry(normaliser) for normaliser in NORMALISERS.values() if normaliser.ami],
    IndexInfo(
        id="homogeneity", name="Homogeneity", family=FAMILY, range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=False, function=homogeneity_score,
        formula=r"h = \frac{\mathrm{MI}}{H_a} = 1 - \frac{H(G \mid P)}{H_a}",
        symbols=r"$H(G \mid P)$ is the entropy of the reference given the candidate; $h = 1$ when $H_a = 0$.",
        reference=ROSENBERG,
        caveat="Reaches 1 for all singletons (each candidate cluster is pure): it never penalises splitting. "
               "Read it with completeness.",
        compute=_homogeneity, steps=lambda c: _share_steps(c, "true"),
        expectation=lambda c: _share_expectation(c, "true"), cells=lambda c, dense: _share_cells(c, dense, "true")),
    IndexInfo(
        id="completeness", name="Completeness", family=FAMILY, range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=False, function=completeness_score,
        formula=r"c = \frac{\mathrm{MI}}{H_b} = 1 - \frac{H(P \mid G)}{H_b}",
        symbols=r"$H(P \mid G)$ is the entropy of the candidate given the reference; $c = 1$ when $H_b = 0$.",
        reference=ROSENBERG,
        caveat="Reaches 1 when the candidate is one cluster: it never penalises merging. Read it with "
               "homogeneity; their harmonic mean (the V-measure) is NMI (arithmetic).",
        compute=_completeness, steps=lambda c: _share_steps(c, "pred"),
        expectation=lambda c: _share_expectation(c, "pred"), cells=lambda c, dense: _share_cells(c, dense, "pred")),
    IndexInfo(
        id="rmi", name="Reduced mutual information", family=FAMILY, range=(-INF, INF), higher_is_better=True,
        chance_adjusted=True, symmetric=False, soft=False, function=reduced_mutual_information,
        formula=r"\mathrm{RMI} = \frac{1}{N}\left[H(g) - H(g \mid c)\right]",
        symbols=r"$H(g)$ is the information needed to transmit the reference labels: its cluster sizes under a "
                r"Dirichlet-multinomial prior (its concentration chosen to minimise the cost), then the labels; $H(g "
                r"\mid c)$ the same given the candidate, column by column of the table. In nats per object; the "
                r"reference is the 'ground truth' side, so RMI is slightly asymmetric.",
        reference=JERDEE,
        caveat="In nats per object, like MI: its size depends on N and the entropies, so it is not comparable "
               "across data sets (use NRMI). Negative when the candidate says less about the reference than "
               "it costs to describe the table.",
        compute=_reduced_mutual_information, steps=_rmi_steps),
    IndexInfo(
        id="rmi_flat", name="Reduced mutual information (flat)", family=FAMILY, range=(-INF, INF),
        higher_is_better=True, chance_adjusted=True, symmetric=False, soft=False,
        function=reduced_mutual_information, function_options={"reduction": "flat"},
        formula=r"\mathrm{RMI}_{flat} = \frac{1}{N}\left[\log\frac{N!\,\prod_{ij} n_{ij}!}{\prod_i r_i!\,"
                r"\prod_j c_j!} - \log\Omega(c, r)\right]",
        symbols=r"$\Omega(c, r)$ is the number of tables of counts whose row sums are the candidate's cluster sizes "
                r"and column sums the reference's, by the effective-columns estimate (exact when the reference is all "
                r"singletons).",
        reference="Newman, Cantwell & Young (2020), Improved mutual information measure for clustering, "
                  "classification, and community detection, Phys. Rev. E 101",
        caveat="Every table with the given margins is taken as equally likely, which over-corrects for "
               "tables with very unequal clusters; the Dirichlet-multinomial RMI fixes that.",
        compute=_reduced_mutual_information_flat, steps=_rmi_flat_steps, cells=_rmi_flat_cells),
    IndexInfo(
        id="nrmi", name="Normalised reduced mutual information", family=FAMILY, range=(-INF, 1),
        higher_is_better=True, chance_adjusted=True, symmetric=False, soft=False,
        function=normalized_reduced_mutual_information,
        formula=r"\mathrm{NRMI} = \frac{\mathrm{RMI}(g; c)}{\mathrm{RMI}(g; g)}",
        symbols=r"$\mathrm{RMI}(g; g)$ is the reference's reduced entropy, the RMI of the reference with itself: NRMI "
                r"is the share of the reference that the candidate tells.",
        reference="Jerdee, Kirkley & Newman (2023), Normalized mutual information is a biased measure for "
                  "classification and community detection, arXiv:2307.01282",
        caveat="Asymmetric by design (normalised by the reference alone); 0 when the reference's reduced "
               "entropy is not positive (one cluster, or too few objects).",
        compute=_normalized_reduced_mutual_information, steps=_nrmi_steps),
    IndexInfo(
        id="fnmi", name="Fair normalised mutual information", family=FAMILY, range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=False, function=fair_normalized_mutual_info_score,
        formula=r"\mathrm{FNMI} = e^{-|K_a - K_b| / K_a}\,\frac{2\,\mathrm{MI}}{H_a + H_b}",
        symbols="NMI (arithmetic mean) times a penalty for a number of clusters other than the reference's, "
                r"$K_a$.",
        reference="Amelio & Pizzuti (2015), Is normalized mutual information a fair measure for comparing "
                  "community detection methods?, ASONAM",
        caveat="The penalty is a heuristic that depends only on the numbers of clusters: it does not correct "
               "for chance (random partitions with the reference's K score as NMI does), and one tiny extra "
               "cluster costs as much as a large one.",
        compute=_fair_nmi, steps=_fair_nmi_steps, expectation=_fair_nmi_expectation, cells=_fair_nmi_cells),
    IndexInfo(
        id="smi", name="Standardized mutual information", family=FAMILY, range=(-INF, INF), higher_is_better=True,
        chance_adjusted=True, symmetric=True, soft=False, cost="moments", function=standardized_mutual_info_score,
        formula=r"\mathrm{SMI} = \frac{\mathrm{MI}-E[\mathrm{MI}]}{\sqrt{\mathrm{Var}[\mathrm{MI}]}}",
        symbols=r"$E[\mathrm{MI}]$ and $\mathrm{Var}[\mathrm{MI}]$ are the mean and variance of the mutual information "
                r"when the objects are assigned at random with both partitions' cluster sizes fixed (the permutation "
                r"model), both exact: SMI is MI's z-score, its distance from chance in standard deviations.",
        reference="Romano, Bailey, Nguyen & Verspoor (2014), Standardized mutual information for clustering "
                  "comparisons: one step further in adjustment for chance, ICML",
        caveat="A z-score, not a similarity on a fixed scale: identical partitions score more on more objects, "
               "so compare values only on the same data; it says how unlikely the agreement is by chance, not "
               "how close the partitions are. Its exact variance costs far more than the other indices (about "
               "half a second for 5 000 objects in 15 clusters; NaN beyond about 100 000 objects).",
        compute=_smi, steps=_smi_steps, expectation=_smi_expectation, cells=_smi_cells),
    _tsallis_entry(DEFAULT_TSALLIS_Q),
)
