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

from ._validation import check_choice, check_flag
from .comparison import compare
from .information import NORMALISERS

__all__ = [
    "rand_score", "adjusted_rand_score", "fowlkes_mallows_score", "adjusted_fowlkes_mallows_score",
    "mutual_info_score", "normalized_mutual_info_score", "adjusted_mutual_info_score",
    "variation_of_information", "normalized_variation_of_information",
    "f_measure", "purity_score", "van_dongen_distance", "criterion_h", "pivoted_accuracy",
    "normalized_accuracy", "adjusted_asymmetric_accuracy", "pair_sets_index", "centroid_index",
    "centroid_similarity_index", "centroid_ratio",
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


def adjusted_mutual_info_score(labels_true, labels_pred, *, noise=None) -> float:
    """Adjusted mutual information (Vinh et al. 2010, arithmetic normaliser)."""
    return _score("ami", labels_true, labels_pred, noise=noise)


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
