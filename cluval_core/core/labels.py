"""Reading two partitions' labels into a comparison: the library's front door.

:func:`compare` checks the labels (and X, the noise policy and the weights), builds the
contingency table and returns the :class:`~cluval_core.Comparison` that holds it. Dask
collections are counted partition by partition (:func:`~cluval_core.core.chunks.compare_dask`).
"""

from __future__ import annotations

import numpy as np

from .chunks import compare_dask
from .comparison import Comparison
from .contingency import contingency_table, factorize, table_from_codes
from .noise import apply_noise, normalise_noise, singleton_codes
from .validation import CluvalError, as_data, as_labels, as_weights, fewer_than_two

__all__ = ["compare", "score_labels"]


def _is_dask(labels) -> bool:
    """True for a Dask collection (array, Series), told by its type's module: Dask is never imported."""
    return type(labels).__module__.split(".")[0] == "dask"


def compare(labels_true, labels_pred, *, X=None, noise=None, sample_weight=None) -> Comparison:
    """Compare a reference partition with a candidate partition of the same objects.

    Parameters
    ----------
    labels_true : array-like of shape (N,)
        The reference partition G (rows of the table): any hashable labels.
    labels_pred : array-like of shape (N,)
        The candidate partition P (columns of the table).
    X : array-like of shape (N, d), optional
        The objects' coordinates; enables centroids, centroid-based CI/CSI and CR.
    noise : None, Noise or (label, policy), optional
        Treatment of a noise label; None (default) keeps it as an ordinary cluster. The
        label is matched exactly (see :class:`Noise`); one that does not occur gives a
        :class:`~cluval_core.CluvalWarning`.
    sample_weight : array-like of shape (N,) or "balanced", optional
        Each object's weight (finite, non-negative): every cell becomes the sum of its objects'
        weights. Whole-number weights count repeated objects, so the table stays one of
        counts and every index and the chance model apply; other weights give a real-valued
        table, on which the indices that need counts (AMI, RMI, the centroid indices; the
        registry's ``soft`` flag) are NaN and chance() is refused. ``"balanced"`` weighs each
        reference class the same: an object of class i weighs N / (K_a r_i), after the noise
        policy. Objects of weight 0 are left out. Not with X.

    Returns
    -------
    Comparison

    Notes
    -----
    The table is built at once; per-object cluster indices (``codes``, needed for centroids
    and plots) are derived from the label arrays on first use, without copying them, so
    modify the arrays you passed in only after you are done with the comparison.

    Examples
    --------
    Relabelling never changes a value; splitting a cluster does.

    >>> compare([1, 1, 2, 2], ["x", "x", "y", "y"]).score("ari")
    1.0
    >>> compare([1, 1, 2, 2], [1, 1, 2, 3]).score("ci_partition")
    1.0

    Weights: a class of 2 objects against one of 6 weighs the same once balanced.

    >>> truth, found = [0, 0, 1, 1, 1, 1, 1, 1], [0, 1, 1, 1, 1, 1, 1, 1]
    >>> balanced = compare(truth, found, sample_weight="balanced")
    >>> compare(truth, found).score("purity_inverse"), balanced.score("purity_inverse")
    (0.875, 0.75)
    """
    if _is_dask(labels_true) or _is_dask(labels_pred):
        if sample_weight is not None:
            raise CluvalError("sample_weight is not supported with Dask inputs: compare the weighted labels in memory")
        return compare_dask(labels_true, labels_pred, X=X, noise=noise)
    a = as_labels(labels_true, "labels_true")
    b = as_labels(labels_pred, "labels_pred")
    if a.shape != b.shape:
        raise CluvalError(f"labels_true and labels_pred differ in length: {a.size} != {b.size}")
    if X is not None:
        X = as_data(X, a.size)
    balanced = isinstance(sample_weight, str) and sample_weight == "balanced"
    w = None if sample_weight is None or balanced else as_weights(sample_weight, a.size)
    if (w is not None or balanced) and X is not None:
        raise CluvalError("sample_weight and X together are not supported: the centroid indices weigh every object "
                          "the same; compare without X (the table's indices) or without weights")
    noise = normalise_noise(noise)
    singles = None
    if noise is not None:
        a, b, X, w, singles = apply_noise(a, b, X, w, noise)
    if w is not None or balanced:
        return _weighted(a, b, w, singles, noise)
    if singles is not None:
        codes_a, rows = singleton_codes(a, singles[0])
        codes_b, cols = singleton_codes(b, singles[1])
        table = table_from_codes(codes_a, codes_b, len(rows), len(cols))
        return Comparison._build(table, rows, cols, X=X, codes=(codes_a, codes_b), noise=noise, copy=False)
    table, rows, cols = contingency_table(a, b)
    return Comparison._build(table, rows, cols, X=X, labels=(a, b), noise=noise, copy=False)


def _weighted(a, b, w, singles, noise) -> Comparison:
    """The comparison of weighted objects (w None: balanced over the reference's classes)."""
    if w is not None:
        keep = w > 0  # an object of weight 0 is not there
        a, b, w = a[keep], b[keep], w[keep]
        singles = None if singles is None else tuple(mask[keep] for mask in singles)
    if singles is not None:
        (codes_a, rows), (codes_b, cols) = singleton_codes(a, singles[0]), singleton_codes(b, singles[1])
    else:
        (codes_a, rows), (codes_b, cols) = factorize(a), factorize(b)
    if w is None:
        sizes = np.bincount(codes_a, minlength=len(rows))
        w = len(a) / (len(rows) * sizes[codes_a].astype(np.float64))
    table = table_from_codes(codes_a, codes_b, len(rows), len(cols), weights=w)
    if fewer_than_two(table.sum()):
        raise CluvalError(f"the weights sum to {table.sum():g}: at least 2 are needed to compare partitions")
    return Comparison._build(table, rows, cols, codes=(codes_a, codes_b), noise=noise, weighted=True, copy=False)


def score_labels(index_id: str, labels_true, labels_pred, *, X=None, noise=None) -> float:
    """One index of two partitions' labels: what every one-line function returns."""
    return compare(labels_true, labels_pred, X=X, noise=noise).score(index_id)
