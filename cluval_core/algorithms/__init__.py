"""Algorithms: clustering (:mod:`~cluval_core.algorithms.clustering`: k-means, random swap, the
linkages, DBSCAN, Gaussian mixtures, fuzzy c-means, within a time budget) and many clusterings of
one data set (:mod:`~cluval_core.algorithms.stability`: runs over seeds or k, the stability
curve, the most stable solutions)."""
