"""The core: one contingency table and everything that follows from it.

:mod:`~cluval_core.core.contingency` builds the table from labels; :mod:`~cluval_core.core.labels`
reads two partitions' labels (with :mod:`~cluval_core.core.noise`, the noise policy, and
:mod:`~cluval_core.core.chunks`, streams and Dask collections) into a
:class:`~cluval_core.core.comparison.Comparison`, which holds the table and derives the pair
counts, entropies, pairings (:mod:`~cluval_core.core.matching`) and mappings once;
:mod:`~cluval_core.core.registry` is the table of indices that :mod:`cluval_core.indices`
fills; :mod:`~cluval_core.core.chance` asks each index for its exact expectation and anatomy
and draws random tables where there is none; :mod:`~cluval_core.core.emi` computes the
expected mutual information; :mod:`~cluval_core.core.steps` writes a computation in steps.
Beyond two flat partitions: :mod:`~cluval_core.core.trees` compares hierarchies cut by cut and
as wholes, :mod:`~cluval_core.core.covers` overlapping clusterings. Nothing here imports an index
family.
"""
