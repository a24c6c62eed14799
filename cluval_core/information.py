"""Information-theoretic indices: mutual information, its normalisations, VI, AMI.

With entropies H_a (reference), H_b (candidate), H_ab (joint) in nats and
MI = H_a + H_b - H_ab:

* ``nmi_sum`` = 2 MI / (H_a + H_b), ``nmi_sqrt`` = MI / sqrt(H_a H_b),
  ``nmi_max`` = MI / max(H_a, H_b), ``nmi_min`` = MI / min(H_a, H_b), ``nmi_joint`` = MI / H_ab
* ``vi`` = H_a + H_b - 2 MI (Meila 2007), ``nvi`` = VI / (H_a + H_b)
* ``ami`` = (MI - E[MI]) / ((H_a + H_b)/2 - E[MI]) (Vinh, Epps & Bailey 2010), E[MI] under
  the hypergeometric model (:mod:`cluval_core.emi`).

Degenerate cases, by convention (the same as scikit-learn's): when both partitions have one
cluster every NMI and AMI is 1 and NVI is 0; when exactly one has one cluster they are 0
(NVI 1). AMI of identical partitions is 1 (even when E[MI] = MI, as for all singletons).
AMI is undefined (NaN) for soft tables: the hypergeometric model needs integer counts. On
soft tables a normaliser within 1e-12 of zero makes the normalised index NaN.
"""

from __future__ import annotations

import math

from ._validation import SOFT_TOLERANCE

__all__ = ["mutual_information", "normalized_mutual_information", "variation_of_information",
           "normalized_variation_of_information", "adjusted_mutual_information"]

NORMALISERS = {
    "sum": lambda ha, hb, hab: (ha + hb) / 2,
    "sqrt": lambda ha, hb, hab: math.sqrt(ha * hb),
    "max": lambda ha, hb, hab: max(ha, hb),
    "min": lambda ha, hb, hab: min(ha, hb),
    "joint": lambda ha, hb, hab: hab,
}


def _degenerate(c):
    """1.0 if both sides have one cluster, 0.0 if exactly one side has, else None."""
    singles = (c.k_true == 1) + (c.k_pred == 1)
    return {2: 1.0, 1: 0.0}.get(singles)


def mutual_information(c) -> float:
    return c.entropies.mutual_information


def normalized_mutual_information(c, normaliser: str) -> float:
    special = _degenerate(c)
    if special is not None:
        return special
    e = c.entropies
    if c.is_identical:
        return 1.0
    normaliser = NORMALISERS[normaliser](e.true, e.pred, e.joint)
    if c.is_soft and normaliser <= SOFT_TOLERANCE:
        return math.nan
    return min(e.mutual_information / normaliser, 1.0)


def variation_of_information(c) -> float:
    e = c.entropies
    return max(e.true + e.pred - 2 * e.mutual_information, 0.0)


def normalized_variation_of_information(c) -> float:
    special = _degenerate(c)
    if special is not None:
        return 1.0 - special
    e = c.entropies
    if c.is_soft and e.true + e.pred <= SOFT_TOLERANCE:
        return math.nan
    return variation_of_information(c) / (e.true + e.pred)


# The means of the two entropies that bound AMI (scikit-learn's average_method: arithmetic,
# geometric, max, min).
AMI_MEANS = {
    "sum": lambda ha, hb: (ha + hb) / 2,
    "sqrt": lambda ha, hb: math.sqrt(ha * hb),
    "max": max,
    "min": min,
}


def adjusted_mutual_information(c, mean: str = "sum") -> float:
    """(MI - EMI) / (mean(H_a, H_b) - EMI); ``ami`` takes the arithmetic mean (``"sum"``).

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
    bound = AMI_MEANS[mean](e.true, e.pred)
    if bound - emi <= 1e-9 * bound:
        return math.nan
    denominator = bound - emi
    eps = 2.220446049250313e-16
    denominator = min(denominator, -eps) if denominator < 0 else max(denominator, eps)
    return min((e.mutual_information - emi) / denominator, 1.0)  # MI = bound is 1, not 1 + rounding
