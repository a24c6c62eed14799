"""Small partitions used across the tests."""

import numpy as np


def random_pair(rng, n, k_a, k_b):
    return rng.integers(0, k_a, n), rng.integers(0, k_b, n)


def noisy_copy(rng, labels, share, k=None):
    """`labels` with a share of the objects given a random label."""
    k = int(labels.max()) + 1 if k is None else k
    out = labels.copy()
    flip = rng.random(len(labels)) < share
    out[flip] = rng.integers(0, k, flip.sum())
    return out


def relabel(labels, mapping):
    return np.array([mapping[v] for v in labels.tolist()], dtype=object)
