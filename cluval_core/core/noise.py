"""The noise policy: which objects carry a noise label, and what becomes of them.

Benchmark files mark noise with a label of its own (0 in the clustering-benchmarks suite,
-1 for DBSCAN). Without a :class:`Noise` a noise label is an ordinary cluster (as in
scikit-learn); with one, the objects the reference marks as noise are dropped (as the
clustering-benchmarks suite does) or every noise object becomes a cluster of its own (as
ELKI's option does). A label is matched by the rule that tells labels apart in the table:
equality of Python values.
"""

from __future__ import annotations

import datetime
import numbers
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .contingency import factorize
from .validation import CluvalError, as_labels, check_choice, warn

__all__ = ["Noise", "NOISE_POLICIES", "cluster_count", "normalise_noise", "is_label", "apply_noise",
           "singleton_codes"]

NOISE_POLICIES = ("drop_reference_noise", "singletons")
MAX_SINGLETONS = 20_000


@dataclass(frozen=True)
class Noise:
    """How to treat the objects carrying the noise label `label`.

    The label has no default: benchmark files mark noise with 0, DBSCAN with -1. It matches
    exactly the objects whose label the contingency table would count as the same cluster
    (equal as Python values: ``2`` matches ``2.0`` but never ``2.5`` or ``"2"``).
    ``policy="drop_reference_noise"`` removes the objects that the *reference* marks as noise
    (from both partitions and from X), as the clustering-benchmarks suite does.
    ``policy="singletons"`` makes every noise object, in either partition, a cluster of its
    own, as ELKI's option does. Without a Noise (``noise=None``) the noise label is an
    ordinary cluster, as in scikit-learn.
    """

    label: object
    policy: str = "drop_reference_noise"

    def __post_init__(self):
        check_choice("noise policy", self.policy, NOISE_POLICIES)
        try:
            hash(self.label)
        except TypeError:
            raise CluvalError(f"the noise label must be hashable, got {self.label!r}") from None
        if self.label is None or (isinstance(self.label, numbers.Number) and self.label != self.label):
            raise CluvalError(f"the noise label must be a label value, got {self.label!r}")


def normalise_noise(noise):
    if noise is None or isinstance(noise, Noise):
        return noise
    if isinstance(noise, tuple) and len(noise) == 2:
        return Noise(*noise)
    raise CluvalError(f"noise must be None, a Noise(label, policy) or a (label, policy) tuple, got {noise!r}")


def apply_noise(a, b, X, w, noise: Noise):
    label = noise.label
    if noise.policy == "drop_reference_noise":
        keep = ~is_label(a, label)
        if keep.all():
            warn(f"the noise label {label!r} does not occur in labels_true: no object was dropped", stacklevel=4)
        if not keep.any():
            raise CluvalError(f"every object of labels_true carries the noise label {label!r}: nothing is left")
        return a[keep], b[keep], (X[keep] if X is not None else None), (w[keep] if w is not None else None), None
    # singletons: noise objects in either partition become clusters of their own
    singles = []
    for arr in (a, b):
        mask = is_label(arr, label)
        n_noise = int(mask.sum())
        if n_noise > MAX_SINGLETONS:
            raise CluvalError(f"{n_noise} noise objects would become {n_noise} singleton clusters, more than "
                              f"{MAX_SINGLETONS}: use the 'drop_reference_noise' policy or noise=None instead")
        singles.append(mask)
    if not (singles[0].any() or singles[1].any()):
        warn(f"the noise label {label!r} occurs in neither partition: no object became a singleton", stacklevel=4)
    return a, b, X, w, singles


def is_label(arr: np.ndarray, label) -> np.ndarray:
    """Which objects carry `label`, by the rule that tells labels apart in the table:
    equality of Python values (``2 == 2.0 == np.int64(2)``, ``2 != 2.5``, ``2 != "2"``)."""
    none = np.zeros(len(arr), dtype=bool)
    kind = arr.dtype.kind
    if kind == "O":
        values = np.empty(len(arr) + 1, dtype=object)
        values[0], values[1:] = label, arr
        codes, _ = pd.factorize(values, sort=False)
        return codes[1:] == codes[0]
    if kind in "mM":  # a moment or a duration, in any unit or type, equal to the label's
        kinds = (datetime.date, np.datetime64) if kind == "M" else (datetime.timedelta, np.timedelta64)
        if not isinstance(label, kinds):
            return none
        value = (pd.Timestamp(label).to_datetime64() if kind == "M" else pd.Timedelta(label).to_timedelta64())
        return arr == value
    if kind in "US":
        return arr == label if isinstance(label, str if kind == "U" else bytes) else none
    if isinstance(label, numbers.Complex) and not isinstance(label, numbers.Real) and kind != "c":
        if label.imag != 0:  # 1+0j is the label 1, as Python compares them
            return none
        label = label.real
    if isinstance(label, (str, bytes)) or not isinstance(label, numbers.Number):
        return none
    if kind in "iub":
        if isinstance(label, numbers.Integral):
            value = int(label)
        elif isinstance(label, numbers.Real) and float(label).is_integer():
            value = int(label)
        else:
            return none
        if kind == "b":
            return arr == bool(value) if value in (0, 1) else none
        info = np.iinfo(arr.dtype)
        return arr == arr.dtype.type(value) if info.min <= value <= info.max else none
    convert = complex if kind == "c" else float
    try:
        value = convert(label)
    except (TypeError, OverflowError):
        return none
    return arr == value if value == label else none


def cluster_count(labels, noise=None) -> int:
    """The number of clusters of a partition: its distinct labels, the `noise` label not counted.

    Labels are told apart, and `noise` matched, as :class:`Noise` does (``2 == 2.0``,
    ``2 != "2"``).

    >>> cluster_count([3, 3, 1, 0, 0]), cluster_count([3, 3, 1, 0, 0], noise=0), cluster_count(["a", "b"], noise=0)
    (3, 2, 2)
    """
    _, uniques = factorize(as_labels(labels, "labels"))
    if noise is None:
        return len(uniques)
    return len(uniques) - int(is_label(np.asarray(uniques), noise).any())


def singleton_codes(arr: np.ndarray, mask: np.ndarray):
    codes, uniques = factorize(arr[~mask]) if (~mask).any() else (np.zeros(0, np.int64), arr[:0])
    full = np.empty(len(arr), dtype=np.int64)
    full[~mask] = codes
    noise_idx = np.flatnonzero(mask)
    full[noise_idx] = len(uniques) + np.arange(len(noise_idx))
    labels = np.empty(len(uniques) + len(noise_idx), dtype=object)
    labels[: len(uniques)] = list(uniques)
    labels[len(uniques):] = [f"noise#{i}" for i in noise_idx]
    return full, labels
