"""One-line functions: ``f(labels_true, labels_pred, *, ...) -> float`` for each index.

Each builds a :class:`~cluval_core.comparison.Comparison` and reads one index from it; to
compute several indices, build the comparison once and call ``scores()``. Each index's
registry entry names its function and options (``INDICES[id].function``, ``INDICES[id].call``).

>>> pair_sets_index([0, 0, 0, 1, 1, 2], [0, 0, 0, 1, 1, 2])
1.0
>>> adjusted_rand_score([0, 0, 1, 1], [1, 1, 0, 0])
1.0
>>> centroid_index([0, 0, 1, 1, 2, 2], [0, 0, 0, 0, 1, 1])
1.0
"""

from __future__ import annotations

import numbers

import numpy as np

from ._validation import CluvalError, check_choice, check_flag
from .comparison import compare
from .information import AMI_MEANS, NORMALISERS
from .modern import v_measure

__all__ = [
    "rand_score", "adjusted_rand_score", "fowlkes_mallows_score", "adjusted_fowlkes_mallows_score",
    "mutual_info_score", "normalized_mutual_info_score", "adjusted_mutual_info_score",
    "variation_of_information", "normalized_variation_of_information",
    "f_measure", "purity_score", "van_dongen_distance", "criterion_h", "pivoted_accuracy",
    "normalized_accuracy", "adjusted_asymmetric_accuracy", "pair_sets_index", "centroid_index",
    "centroid_similarity_index", "centroid_ratio", "homogeneity_score", "completeness_score", "v_measure_score",
    "bcubed_score", "element_centric_similarity", "element_centric_scores", "reduced_mutual_information",
    "normalized_reduced_mutual_information", "modified_adjusted_rand_score", "pair_correlation_coefficient",
    "pair_correlation_distance", "pair_jaccard_score", "sokal_sneath_score",
]


def _score(index_id, labels_true, labels_pred, X=None, noise=None):
    return compare(labels_true, labels_pred, X=X, noise=noise).score(index_id)


def rand_score(labels_true, labels_pred, *, noise=None) -> float:
    """Rand index (a + d) / C(N, 2); 1 for identical partitions."""
    return _score("ri", labels_true, labels_pred, noise=noise)


def adjusted_rand_score(labels_true, labels_pred, *, noise=None) -> float:
    """Hubert-Arabie adjusted Rand index; 1 for identical, about 0 for random partitions."""
    return _score("ari", labels_true, labels_pred, noise=noise)


def fowlkes_mallows_score(labels_true, labels_pred, *, noise=None) -> float:
    """Fowlkes-Mallows index a / sqrt((a + b)(a + c)); NaN if one side has only singletons."""
    return _score("fowlkes_mallows", labels_true, labels_pred, noise=noise)


def adjusted_fowlkes_mallows_score(labels_true, labels_pred, *, noise=None) -> float:
    """Adjusted Fowlkes-Mallows index (FM - E) / (1 - E)."""
    return _score("afm", labels_true, labels_pred, noise=noise)


def mutual_info_score(labels_true, labels_pred, *, noise=None) -> float:
    """Mutual information in nats."""
    return _score("mi", labels_true, labels_pred, noise=noise)


def normalized_mutual_info_score(labels_true, labels_pred, *, normaliser="sum", noise=None) -> float:
    """NMI with normaliser ``"sum"`` (arithmetic mean), ``"sqrt"``, ``"max"``, ``"min"`` or ``"joint"``."""
    check_choice("normaliser", normaliser, tuple(NORMALISERS))
    return _score(f"nmi_{normaliser}", labels_true, labels_pred, noise=noise)


def adjusted_mutual_info_score(labels_true, labels_pred, *, normaliser="sum", noise=None) -> float:
    """Adjusted mutual information (Vinh et al. 2010) bounded by the ``"sum"`` (arithmetic), ``"sqrt"``
    (geometric), ``"max"`` or ``"min"`` of the two entropies (scikit-learn's ``average_method``)."""
    check_choice("normaliser", normaliser, tuple(AMI_MEANS))
    return _score("ami" if normaliser == "sum" else f"ami_{normaliser}", labels_true, labels_pred, noise=noise)


def variation_of_information(labels_true, labels_pred, *, noise=None) -> float:
    """Variation of information H_a + H_b - 2 MI (nats); 0 for identical partitions."""
    return _score("vi", labels_true, labels_pred, noise=noise)


def normalized_variation_of_information(labels_true, labels_pred, *, noise=None) -> float:
    """VI / (H_a + H_b), in [0, 1]; 0 for identical partitions."""
    return _score("nvi", labels_true, labels_pred, noise=noise)


def f_measure(labels_true, labels_pred, *, over="true", noise=None) -> float:
    """F-measure summed over the reference's clusters (``over="pred"``: the candidate's)."""
    check_choice("over", over, ("true", "pred"))
    return _score("f_measure" if over == "true" else "f_measure_pred", labels_true, labels_pred, noise=noise)


def purity_score(labels_true, labels_pred, *, inverse=False, noise=None) -> float:
    """Purity (1/N) sum_j max_i n_ij; ``inverse=True`` sums over the reference instead."""
    check_flag("inverse", inverse)
    return _score("purity_inverse" if inverse else "purity", labels_true, labels_pred, noise=noise)


def van_dongen_distance(labels_true, labels_pred, *, noise=None) -> float:
    """Normalised van Dongen distance; 0 for identical partitions."""
    return _score("nvd", labels_true, labels_pred, noise=noise)


def criterion_h(labels_true, labels_pred, *, pairing="greedy", noise=None) -> float:
    """Criterion H distance with the ``"greedy"`` or ``"optimal"`` pairing; 0 for identical."""
    check_choice("pairing", pairing, ("greedy", "optimal"))
    return _score("ch_greedy" if pairing == "greedy" else "ch_optimal", labels_true, labels_pred, noise=noise)


def pivoted_accuracy(labels_true, labels_pred, *, noise=None) -> float:
    """Share of objects on the optimal one-to-one pairing's cells."""
    return _score("pa", labels_true, labels_pred, noise=noise)


def normalized_accuracy(labels_true, labels_pred, *, noise=None) -> float:
    """Pivoted accuracy normalised to [0, 1]: (PA - 1/k) / (1 - 1/k)."""
    return _score("na", labels_true, labels_pred, noise=noise)


def adjusted_asymmetric_accuracy(labels_true, labels_pred, *, noise=None) -> float:
    """Gagolewski's adjusted asymmetric accuracy (mean recall per reference cluster, adjusted)."""
    return _score("aaa", labels_true, labels_pred, noise=noise)


def pair_sets_index(labels_true, labels_pred, *, simplified=False, noise=None) -> float:
    """Pair Sets Index (Rezaei & Fränti 2016); ``simplified=True`` gives eq. (20)."""
    check_flag("simplified", simplified)
    return _score("psi_simplified" if simplified else "psi", labels_true, labels_pred, noise=noise)


def centroid_index(labels_true, labels_pred, *, X=None, noise=None) -> float:
    """Centroid Index: centroid-based with X, partition-based (Jaccard mapping) without."""
    return _score("ci_partition" if X is None else "ci_centroid", labels_true, labels_pred, X=X, noise=noise)


def centroid_similarity_index(labels_true, labels_pred, *, X=None, noise=None) -> float:
    """Centroid Similarity Index: centroid-based with X, partition-based without."""
    return _score("csi_partition" if X is None else "csi_centroid", labels_true, labels_pred, X=X, noise=noise)


def centroid_ratio(labels_true, labels_pred, *, X, noise=None) -> float:
    """Centroid Ratio (Zhao & Fränti 2014); needs the data X."""
    return _score("cr", labels_true, labels_pred, X=X, noise=noise)


def homogeneity_score(labels_true, labels_pred, *, noise=None) -> float:
    """MI / H(labels_true): 1 when every candidate cluster holds one reference cluster's objects only."""
    return _score("homogeneity", labels_true, labels_pred, noise=noise)


def completeness_score(labels_true, labels_pred, *, noise=None) -> float:
    """MI / H(labels_pred): 1 when every reference cluster lies within one candidate cluster."""
    return _score("completeness", labels_true, labels_pred, noise=noise)


def v_measure_score(labels_true, labels_pred, *, beta=1.0, noise=None) -> float:
    """V-measure (1 + beta) h c / (beta h + c) of homogeneity h and completeness c.

    ``beta=1`` gives NMI (arithmetic mean), ``nmi_sum``; beta > 1 weighs completeness more.

    >>> v_measure_score([0, 0, 1, 1], [0, 0, 1, 2]) == normalized_mutual_info_score([0, 0, 1, 1], [0, 0, 1, 2])
    True
    """
    if isinstance(beta, bool) or not isinstance(beta, numbers.Real) or not (np.isfinite(beta) and beta >= 0):
        raise CluvalError(f"beta must be a finite number >= 0, got {beta!r}")
    return v_measure(compare(labels_true, labels_pred, noise=noise), float(beta))


def bcubed_score(labels_true, labels_pred, *, measure="f", noise=None) -> float:
    """BCubed ``"precision"``, ``"recall"`` or their harmonic mean ``"f"`` (Bagga & Baldwin 1998)."""
    check_choice("measure", measure, ("f", "precision", "recall"))
    return _score(f"bcubed_{measure}", labels_true, labels_pred, noise=noise)


def element_centric_similarity(labels_true, labels_pred, *, noise=None) -> float:
    """Element-centric similarity of flat partitions (Gates et al. 2019): the mean of every object's
    n_ij / max(r_i, c_j)."""
    return _score("ecs", labels_true, labels_pred, noise=noise)


def element_centric_scores(labels_true, labels_pred, *, noise=None) -> np.ndarray:
    """Each object's element-centric similarity, in the order given (their mean is ``ecs``).

    >>> element_centric_scores([0, 0, 1, 1], [0, 0, 0, 1]).round(3).tolist()
    [0.667, 0.667, 0.333, 0.5]
    """
    return compare(labels_true, labels_pred, noise=noise).element_scores.copy()


def reduced_mutual_information(labels_true, labels_pred, *, reduction="dirichlet", noise=None) -> float:
    """Reduced mutual information in nats per object, labels_true the 'ground truth', with the
    ``"dirichlet"`` (Dirichlet-multinomial, Jerdee et al. 2024) or ``"flat"`` reduction (Newman et al. 2020)."""
    check_choice("reduction", reduction, ("dirichlet", "flat"))
    return _score("rmi" if reduction == "dirichlet" else "rmi_flat", labels_true, labels_pred, noise=noise)


def normalized_reduced_mutual_information(labels_true, labels_pred, *, noise=None) -> float:
    """RMI over the reduced entropy of labels_true (Jerdee et al. 2023); 1 for identical partitions."""
    return _score("nrmi", labels_true, labels_pred, noise=noise)


def modified_adjusted_rand_score(labels_true, labels_pred, *, noise=None) -> float:
    """Modified adjusted Rand index under the multinomial model (Sundqvist et al. 2023)."""
    return _score("mari", labels_true, labels_pred, noise=noise)


def pair_correlation_coefficient(labels_true, labels_pred, *, noise=None) -> float:
    """Pearson correlation of the two partitions' 'together' indicators over all pairs (Gösgens et al. 2021)."""
    return _score("pair_correlation", labels_true, labels_pred, noise=noise)


def pair_correlation_distance(labels_true, labels_pred, *, noise=None) -> float:
    """arccos(pair correlation) / pi: a distance in [0, 1], 0 for identical partitions."""
    return _score("pair_correlation_distance", labels_true, labels_pred, noise=noise)


def pair_jaccard_score(labels_true, labels_pred, *, noise=None) -> float:
    """Jaccard index of the pairs put together, a / (a + b + c)."""
    return _score("pair_jaccard", labels_true, labels_pred, noise=noise)


def sokal_sneath_score(labels_true, labels_pred, *, noise=None) -> float:
    """Sokal-Sneath index: the mean of a/(a+b), a/(a+c), d/(d+b) and d/(d+c)."""
    return _score("sokal_sneath", labels_true, labels_pred, noise=noise)
