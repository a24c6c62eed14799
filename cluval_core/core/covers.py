"""Overlapping clusterings (covers): each object in zero, one or several clusters, two covers compared.

A :class:`Cover` is a 0/1 membership matrix, objects by clusters (sparse). :func:`as_cover`
reads lists of member sets (objects named by any hashable value), a dict of them, a 0/1 matrix
(dense or sparse: rows are objects), or flat labels; :func:`cover_from_memberships` thresholds
soft memberships. :func:`compare_covers` lines two covers up over their objects and computes
every measure below from two small structures, so that nothing is quadratic in the objects:

* the **overlap table** O = A^T B (clusters of the reference by clusters of the candidate:
  the objects each pair shares), from which the overlapping NMIs are computed;
* the **object types**: objects with the same clusters on both sides are interchangeable, so
  the pairs of objects that share j reference and l candidate clusters are counted from the sets
  of clusters each type is in (binomial moments, below), which the Omega index and extended
  BCubed read.

The measures (A the reference, B the candidate; N objects, M = N (N - 1) / 2 pairs):

* ``omega`` (Collins & Dent 1988): with t_A(u, v) the number of clusters of A holding both u
  and v, the share of pairs with t_A = t_B, adjusted for chance as (observed - expected) /
  (1 - expected), expected = sum_j N_j^A N_j^B / M^2 (N_j the pairs with count j; the agreement
  expected when the counts are paired at random, ``omega_expected``). On two
  partitions it is the adjusted Rand index, exactly. 1 where both covers give every pair the
  same count (nothing to adjust) and they agree on every pair; NaN where they do not.
* ``onmi_lfk`` (Lancichinetti, Fortunato & Kertész 2009): each cluster a binary variable over the
  objects; H(X_k | Y) the smallest H(X_k | Y_l) over the clusters Y_l whose joint distribution
  with X_k passes LFK's test h(P11) + h(P00) > h(P01) + h(P10) (else H(X_k)); 1 - (H(X|Y)_norm +
  H(Y|X)_norm) / 2, each the mean of H(X_k | Y) / H(X_k) over the clusters. A cluster holding no
  object or every object (H = 0) counts as fully predicted.
* ``onmi_mgh`` (McDaid, Greene & Hurley 2011): the same conditional entropies, summed, give
  I = (H(X) - H(X|Y) + H(Y) - H(Y|X)) / 2 with H(X) = sum_k H(X_k); ONMI = I / norm, norm the
  ``max`` (MGH's choice, the default), ``min``, ``sqrt`` (geometric mean), ``arithmetic`` mean of
  H(X) and H(Y), or their ``joint`` entropy H(X) + H(Y) - I, the normalisations networkit offers.
* ``extended_bcubed_precision``, ``extended_bcubed_recall``, ``extended_bcubed_f`` (Amigó, Gonzalo,
  Artiles & Verdejo 2009): for two objects that share a candidate cluster, ``min(#(B(u) ∩ B(v)), #(A(u) ∩
  A(v))) / #(B(u) ∩ B(v))`` (# the number of clusters), averaged over the objects v sharing one
  with u (u itself included), then
  over the objects u in some candidate cluster; recall the same with the roles swapped; F their
  harmonic mean. On two partitions these are BCubed's precision, recall and F.
* ``f1`` (Yang & Leskovec's average F1): each cluster's best F1 (``2 #(X ∩ Y) / (#X + #Y)``) over the
  other cover's clusters, averaged over each cover's clusters, then the two averages averaged.
  ``nf1`` (Rossetti, Pappalardo & Rinzivillo 2016): the mean over the candidate's clusters of the
  F1 with their best-matching reference cluster (the one sharing most objects), times coverage
  (the share of reference clusters matched) over redundancy (candidate clusters per matched
  reference cluster).

Objects in only one of the two covers are handled by the ``policy``: ``"intersection"`` (the
default: compare the objects both covers list), ``"singletons"`` (an object a cover does not list
is its own cluster there) or ``"extra_cluster"`` (all objects a cover does not list form one more
cluster there), as clusim names the choices. Objects a cover lists in no cluster stay uncovered;
clusters of no object are dropped (a threshold or the policy can leave some), so that they move no
measure.

The pair measures group the objects into types (the same clusters on both sides: the digits of one
whole number, counted or sorted) and count, for each type, the 2^m sets of the m clusters it is
in; the sets of at most one cluster a side are read off the cluster sizes and the overlap table.
Where objects are in very many clusters at once (:data:`MAX_SUBSETS`, :data:`MAX_SHAPE_SUBSETS`), the pairs are
counted one by one instead for up to :data:`MAX_PAIRWISE_OBJECTS` objects, and refused beyond. The
overlapping NMIs and F1 read the overlap table, held for up to :data:`MAX_OVERLAP_CELLS` cells;
``scores()`` gives NaN with a warning for a measure beyond its limit.

Peers: clusim's ``omega_index`` equals ``omega`` (it builds N x N co-membership matrices), but
where every pair shares the same number of clusters on both sides (one cluster holding every
object, say) it divides 0 by 0 and gives NaN, where ``omega`` gives 1 for covers that agree;
clusim's ``onmi`` computes LFK's test and joint entropy with h(1 - P11) where LFK has h(P00), so
the two differ unless the covers are identical; python-bcubed's ``extended`` precision and
recall equal ``extended_bcubed_precision`` and ``extended_bcubed_recall`` when every object is in some cluster of
both covers (it averages over the candidate's objects only).
"""

from __future__ import annotations

import itertools
import math
import numbers
import warnings
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

import numpy as np
import pandas as pd
from scipy import sparse

from .cached import cached_property
from .compiled import compiled
from .validation import CluvalError, CluvalWarning, as_labels

__all__ = ["Cover", "CoverComparison", "as_cover", "cover_from_memberships", "cover_of_partition", "hardened_cover",
           "compare_covers", "COVER_MEASURES",
           "POLICIES", "MGH_NORMALISATIONS"]

POLICIES = ("intersection", "singletons", "extra_cluster")
MGH_NORMALISATIONS = ("max", "min", "sqrt", "arithmetic", "joint")
# Most sets of clusters the pair measures count (an object in m clusters of the two covers has 2^m), and
# the most kinds of sets (one numpy pass each); beyond, pairs are counted one by one for a few objects
MAX_SUBSETS = 50_000_000
MAX_SHAPE_SUBSETS = 20_000
MAX_PAIRWISE_OBJECTS = 3_000
# Most cells of the overlap table (reference clusters x candidate clusters) the NMIs and F1 read
MAX_OVERLAP_CELLS = 4_000_000
# ECS: the walks' restart (clusim's default), and the most kinds of objects it compares
DEFAULT_ALPHA = 0.9
MAX_ECS_TYPES = 5_000
MAX_WALK_TYPES = 2_000


@dataclass(frozen=True)
class CoverMeasure:
    """What the app and the docs show of a cover measure."""

    id: str
    name: str
    range: tuple[float, float]
    higher_is_better: bool
    reference: str


COVER_MEASURES = {m.id: m for m in (
    CoverMeasure("omega", "Omega index", (-math.inf, 1.0), True, "Collins & Dent (1988)"),
    CoverMeasure("onmi_lfk", "Overlapping NMI (LFK)", (0.0, 1.0), True, "Lancichinetti, Fortunato & Kertész (2009)"),
    CoverMeasure("onmi_mgh", "Overlapping NMI (MGH, max)", (0.0, 1.0), True, "McDaid, Greene & Hurley (2011)"),
    CoverMeasure("extended_bcubed_precision", "Extended BCubed precision", (0.0, 1.0), True, "Amigó et al. (2009)"),
    CoverMeasure("extended_bcubed_recall", "Extended BCubed recall", (0.0, 1.0), True, "Amigó et al. (2009)"),
    CoverMeasure("extended_bcubed_f", "Extended BCubed F", (0.0, 1.0), True, "Amigó et al. (2009)"),
    CoverMeasure("f1", "Average F1", (0.0, 1.0), True, "Yang & Leskovec (2013)"),
    CoverMeasure("nf1", "Normalised F1", (0.0, 1.0), True, "Rossetti, Pappalardo & Rinzivillo (2016)"),
    CoverMeasure("ecs", "Element-centric similarity", (0.0, 1.0), True, "Gates, Wood, Hetrick & Ahn (2019)"),
)}


@dataclass(frozen=True)
class Cover:
    """Clusters that may overlap: ``members`` (objects x clusters, a read-only 0/1 CSR matrix),
    the objects' names (``objects``) and the clusters' (``clusters``). A Cover made by hand is
    checked (and its matrix copied) where it is compared; :func:`as_cover` makes checked ones."""

    members: sparse.csr_array
    objects: np.ndarray
    clusters: np.ndarray
    _checked: bool = field(default=False, repr=False, compare=False)

    @property
    def n(self) -> int:
        return self.members.shape[0]

    @property
    def k(self) -> int:
        return self.members.shape[1]

    @cached_property
    def sizes(self) -> np.ndarray:
        members = self.members if self._checked else as_cover(self).members  # made by hand: checked first
        return _column_counts(_unsigned(members.indices), self.k)

    @cached_property
    def memberships_per_object(self) -> np.ndarray:
        return np.diff(self.members.indptr)

    def summary(self) -> dict:
        """What the cover looks like: its clusters, the mean memberships per object, and the objects in
        several clusters and in none."""
        per = self.memberships_per_object
        return {"clusters": self.k, "memberships per object": float(per.mean()),
                "objects in several clusters": int((per >= 2).sum()), "objects in none": int((per == 0).sum())}


def _names(objects, n: int, name: str) -> np.ndarray:
    """The objects' names as a 1-D array (0 … n-1 when not given); n of them, each once."""
    if objects is None:
        return _positions(n)
    listed = list(objects)
    names = np.empty(len(listed), dtype=object)
    names[:] = listed  # tuples stay names, not rows
    if len(names) != n:
        raise CluvalError(f"{name} has {n} objects but {len(names)} objects were named")
    try:
        for each in listed:
            hash(each)
        unique = pd.Index(names).is_unique
    except TypeError:
        raise CluvalError(f"{name}'s objects must be hashable names") from None
    if not unique:
        raise CluvalError(f"{name} names an object more than once in objects=")
    return names


@lru_cache(maxsize=2)
def _positions(n: int) -> np.ndarray:
    """0 … n-1, the objects' names where none are given: one read-only array for each n, so that two
    covers of unnamed objects are seen to name the same objects at once."""
    positions = np.arange(n)
    positions.flags.writeable = False
    return positions


def _matrix(members, objects, clusters) -> Cover:
    members = sparse.csr_array(members)  # a CSR matrix shares its arrays: each change below works on a copy
    # the index arrays copied (the caller's matrix stays as it is) in half the bytes, where they fit
    index = np.int32 if max(members.nnz, members.shape[1]) < 2**31 else np.int64
    indptr, indices = np.empty(len(members.indptr), dtype=index), np.empty(members.nnz, dtype=index)
    arrays = (members.indptr, members.indices, members.data)
    if not (all(x.dtype in _COMPILED_TYPES for x in arrays)  # else (float16, byte order swapped): numpy's way
            and _copied_if_plain(*arrays, members.shape[1], indptr, indices)):
        try:
            members.check_format(full_check=True)
        except ValueError as exc:
            raise CluvalError(f"the membership matrix is malformed: {exc}") from None
        if not members.has_canonical_format:  # repeats counted in whole numbers wide enough for any number
            members = members.astype(np.int64, copy=True)
            members.sum_duplicates()
        if not members.data.all():
            members = members.copy()
            members.eliminate_zeros()  # a zero stored in a sparse matrix is no membership
        indptr, indices = members.indptr.astype(index), members.indices.astype(index)
    # a membership listed twice is one
    members = sparse.csr_array((np.ones(len(indices), dtype=np.int8), indices, indptr), shape=members.shape)
    return Cover(members, _one_dimensional(objects), _one_dimensional(clusters), _checked=True)


# The types the compiled loops read (in the machine's byte order)
_COMPILED_TYPES = {np.dtype(t) for t in (bool, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
                                         np.uint64, np.float32, np.float64)}


@compiled
def _copied_if_plain(indptr, indices, data, k, indptr_out, indices_out) -> bool:
    """Copies a CSR matrix's index arrays into indptr_out and indices_out, in one pass, while its rows
    are plain: they start at 0 and ascend to the end of `indices`, each row's clusters (below k)
    ascend strictly, and every stored value is 1; False (the copy unfinished) where they are not."""
    if indptr[0] != 0 or indptr[-1] != len(indices):
        return False
    indptr_out[0] = 0
    for i in range(len(indptr) - 1):
        if not indptr[i] <= indptr[i + 1] <= len(indices):
            return False
        last = -1
        for p in range(indptr[i], indptr[i + 1]):
            cluster = indices[p]
            if cluster <= last or cluster >= k or data[p] != 1:
                return False
            indices_out[p] = cluster
            last = cluster
        indptr_out[i + 1] = indptr[i + 1]
    return True


def _unsigned(values: np.ndarray) -> np.ndarray:
    """Whole numbers none of which is negative, seen as unsigned where they are 32 bits wide (no copy):
    a compiled loop then indexes by them without checking for positions counted from the end."""
    return values.view(np.uint32) if values.dtype == np.int32 else values


@compiled
def _column_counts(indices, k):
    """How often each of 0 … k-1 appears in `indices` (np.bincount without its copy to 64 bits)."""
    counts = np.zeros(k, np.int64)
    for cluster in indices:
        counts[cluster] += 1
    return counts


def _one_dimensional(values) -> np.ndarray:
    """Names as a 1-D array (tuples stay names)."""
    if isinstance(values, np.ndarray) and values.ndim == 1:
        return values
    listed = list(values)
    out = np.empty(len(listed), dtype=object)
    out[:] = listed
    return out


def _without_empty(cover: Cover) -> Cover:
    """The cover without its clusters of no object (a threshold or a policy can leave some)."""
    kept = np.flatnonzero(cover.sizes > 0)
    if len(kept) == cover.k:
        return cover
    return Cover(cover.members[:, kept].tocsr(), cover.objects, cover.clusters[kept], _checked=cover._checked)


def as_cover(clusters, *, objects=None, name: str = "cover") -> Cover:
    """A :class:`Cover` from lists of member sets (a list, or a dict from cluster names to its
    members), a table of (object, cluster) rows (a DataFrame's first two columns: one row per
    membership), a 0/1 matrix of objects by clusters (dense or sparse), flat labels (one cluster
    per object: a partition), or a Cover. Members name objects by any hashable value; `objects` fixes
    the objects and their order (otherwise: every member, in order of first appearance; a
    matrix's rows are objects 0 … N-1)."""
    if isinstance(clusters, Cover):
        if clusters._checked:
            return clusters
        if not sparse.issparse(clusters.members) or clusters.members.shape != (len(clusters.objects),
                                                                               len(clusters.clusters)):
            raise CluvalError(f"{name} is a Cover whose members are not a sparse matrix of its objects by its "
                              "clusters")
        return _matrix(clusters.members, clusters.objects, clusters.clusters)  # checked and copied as any matrix
    objects = None if objects is None else list(objects)  # read once: a generator gives its names once
    if isinstance(clusters, pd.DataFrame):
        if clusters.shape[1] == 1:  # one column: labels
            clusters = clusters.iloc[:, 0]
        elif clusters.shape[1] == 2:  # long format: (object, cluster) rows
            if len(clusters) > 2 and clusters.isin([0, 1]).all().all():
                warnings.warn(f"{name} has two columns of 0 and 1 only: it is read as (object, cluster) rows; for "
                              "objects by two clusters, pass it as a matrix (.to_numpy())", CluvalWarning,
                              stacklevel=2)
            frame = clusters.dropna()
            if len(frame) < 1:
                raise CluvalError(f"{name} lists no (object, cluster) rows")
            groups = frame.groupby(frame.columns[1], sort=False)[frame.columns[0]].agg(list)
            return as_cover(dict(zip(groups.index, groups.tolist())), objects=objects, name=name)
        elif clusters.isin([0, 1]).all().all():  # objects by clusters, 0/1
            cover = as_cover(clusters.to_numpy(dtype=np.int8), objects=clusters.index if objects is None else objects,
                             name=name)
            return Cover(cover.members, cover.objects, np.asarray(clusters.columns, dtype=object), _checked=True)
        else:
            raise CluvalError(f"{name} as a table must have two columns (object, cluster: one row per membership) "
                              f"or hold 0 and 1 only (objects by clusters); it has {clusters.shape[1]} other columns")
    if sparse.issparse(clusters) or (isinstance(clusters, np.ndarray) and clusters.ndim == 2):
        if np.iscomplexobj(clusters if isinstance(clusters, np.ndarray) else clusters.data):
            raise CluvalError(f"{name} as a matrix must hold 0 and 1 only, got complex numbers")
        try:  # each stored value apart: COO and CSC may list a membership twice (CSR's repeats stay for _matrix)
            if isinstance(clusters, np.ndarray):
                stored = sparse.csr_array(clusters.astype(np.float64))
            else:
                stored = sparse.csr_array(clusters) if clusters.format == "csr" else sparse.coo_array(clusters)
        except (TypeError, ValueError):
            raise CluvalError(f"{name} as a matrix must hold 0 and 1 only") from None
        if stored.ndim != 2 or stored.shape[0] < 2:
            raise CluvalError(f"{name} as a matrix needs objects as rows (at least 2), got shape {stored.shape}")
        data = stored.data
        if not ((data == 0) | (data == 1)).all():
            raise CluvalError(f"{name} as a matrix must hold 0 and 1 only (threshold soft memberships with "
                              "cover_from_memberships)")
        matrix = stored if stored.format == "csr" else sparse.csr_array(  # repeats summed in 64 bits: never wrap
            (data.astype(np.int64), (stored.row, stored.col)), shape=stored.shape)
        return _matrix(matrix, _names(objects, matrix.shape[0], name), np.arange(matrix.shape[1]))
    if isinstance(clusters, Mapping):
        cluster_names, groups = list(clusters.keys()), list(clusters.values())
    elif isinstance(clusters, Iterable) and not isinstance(clusters, (str, bytes)):
        groups = list(clusters)
        if groups and all(not isinstance(g, Iterable) or isinstance(g, (str, bytes)) for g in groups):
            labels = as_labels(groups, name)  # flat labels: a partition
            codes, uniques = pd.factorize(labels)
            return _matrix(sparse.csr_array((np.ones(len(codes)), (np.arange(len(codes)), codes)),
                                            shape=(len(codes), len(uniques))),
                           _names(objects, len(codes), name), uniques)
        cluster_names = list(range(len(groups)))
    else:
        raise CluvalError(f"{name} must be lists of members, a dict of them, a 0/1 matrix or labels, got "
                          f"{type(clusters).__name__}")
    rows, cols = [], []
    index = {} if objects is None else {o: i for i, o in enumerate(_names(objects, len(objects), name))}
    for c, group in enumerate(groups):
        if isinstance(group, (str, bytes)) or not isinstance(group, Iterable):
            raise CluvalError(f"{name}'s cluster {cluster_names[c]!r} must be a collection of members, got "
                              f"{type(group).__name__}")
        for member in group:
            try:
                position = index.get(member)
            except TypeError:
                raise CluvalError(f"{name}'s members must be hashable, got {type(member).__name__}") from None
            if position is None:
                if objects is not None:
                    raise CluvalError(f"{name}'s cluster {cluster_names[c]!r} names {member!r}, which is not among "
                                      "the objects")
                position = index[member] = len(index)
            rows.append(position)
            cols.append(c)
    n = len(index)
    if n < 2:
        raise CluvalError(f"{name} must cover at least 2 objects, got {n}")
    names = np.empty(n, dtype=object)
    for member, position in index.items():
        names[position] = member
    return _matrix(sparse.csr_array((np.ones(len(rows)), (rows, cols)), shape=(n, len(groups))), names,
                   np.asarray(cluster_names, dtype=object))


def _memberships(U) -> np.ndarray:
    """Soft memberships as a finite objects x clusters array of at least 2 rows, or a CluvalError."""
    try:
        U = np.asarray(U.toarray() if sparse.issparse(U) else U, dtype=np.float64)
    except (TypeError, ValueError):
        raise CluvalError("U must be a matrix of numbers (objects x clusters)") from None
    if U.ndim != 2 or U.shape[0] < 2 or U.shape[1] < 1 or not np.isfinite(U).all():
        raise CluvalError(f"U must be a finite objects x clusters matrix of at least 2 rows, got shape {U.shape}")
    return U


def cover_from_memberships(U, threshold: float, *, objects=None) -> Cover:
    """The cover of soft memberships U (objects x clusters) thresholded: an object is in every
    cluster where its membership is at least `threshold` (an object under it everywhere is uncovered)."""
    U = _memberships(U)
    if isinstance(threshold, bool) or not isinstance(threshold, numbers.Real) or not 0 < threshold <= 1:
        raise CluvalError(f"threshold must be a number in (0, 1], got {threshold!r}")
    return as_cover(sparse.csr_array((U >= threshold).astype(np.int8)), objects=objects)


def cover_of_partition(labels, *, noise=None) -> Cover:
    """A partition as a cover of objects 0 … N-1, each in its cluster; objects labelled `noise` (when
    given) in none."""
    labels = as_labels(labels, "labels")
    clustered = np.flatnonzero(labels != noise) if noise is not None else np.arange(len(labels))
    codes, uniques = pd.factorize(labels[clustered])
    return _matrix(sparse.csr_array((np.ones(len(codes)), (clustered, codes)), shape=(len(labels), len(uniques))),
                   np.arange(len(labels)), uniques)


def hardened_cover(U) -> Cover:
    """Soft memberships U hardened: each object in the cluster of its largest membership (the first
    of equal ones), as a cover of objects 0 … N-1."""
    return cover_of_partition(np.argmax(_memberships(U), axis=1))


def _aligned(a: Cover, b: Cover, policy: str) -> tuple[Cover, Cover, int]:
    """The two covers over the same objects in the same order, by the policy; and how many objects
    only one of them lists."""
    if policy not in POLICIES:
        raise CluvalError(f"policy must be one of {', '.join(POLICIES)}, got {policy!r}")
    if a.objects is b.objects or (a.n == b.n and np.array_equal(a.objects, b.objects)):
        return a, b, 0
    index_b = pd.Index(b.objects)
    if not index_b.is_unique or not pd.Index(a.objects).is_unique:
        raise CluvalError("each object may be named once in a cover")
    in_b = index_b.get_indexer(a.objects)
    only_a = np.flatnonzero(in_b < 0)
    only_b = np.flatnonzero(~pd.Index(b.objects).isin(a.objects))
    alone = len(only_a) + len(only_b)
    if policy == "intersection":
        both = np.flatnonzero(in_b >= 0)
        if len(both) < 2:
            raise CluvalError(f"the covers share {len(both)} objects: at least 2 are needed")
        return (Cover(a.members[both], a.objects[both], a.clusters, _checked=a._checked),
                Cover(b.members[in_b[both]], b.objects[in_b[both]], b.clusters, _checked=b._checked), alone)
    objects = np.concatenate([a.objects, b.objects[only_b]])
    n = len(objects)

    def completed(cover: Cover, rows: np.ndarray, missing: np.ndarray) -> Cover:
        members = sparse.csr_array((np.ones(cover.members.nnz), (rows[np.repeat(np.arange(cover.n),
                                                                                np.diff(cover.members.indptr))],
                                                               cover.members.indices)), shape=(n, cover.k))
        if policy == "singletons":
            extra = sparse.csr_array((np.ones(len(missing)), (missing, np.arange(len(missing)))),
                                     shape=(n, len(missing)))
            names = [f"alone {objects[m]}" for m in missing]
        else:
            extra = sparse.csr_array((np.ones(len(missing)), (missing, np.zeros(len(missing), dtype=np.int64))),
                                     shape=(n, 1 if len(missing) else 0))
            names = ["the objects not listed"] if len(missing) else []
        return _matrix(sparse.hstack([members, extra]), objects,
                       np.concatenate([np.asarray(cover.clusters, dtype=object), np.asarray(names, dtype=object)]))

    rows_a = np.arange(a.n)
    rows_b = pd.Index(objects).get_indexer(b.objects)
    missing_a = np.arange(a.n, n)
    missing_b = np.setdiff1d(np.arange(n), rows_b)
    return completed(a, rows_a, missing_a), completed(b, rows_b, missing_b), alone


# Whole numbers up to this are exact in floats (2^53)
_FLOAT_WHOLE = 2.0**53

_HASH = np.random.default_rng(20091).integers(1, 2**62, size=1 << 16, dtype=np.int64).astype(np.uint64) * 3 + 1


def _groups(M: sparse.csr_array) -> tuple[np.ndarray, np.ndarray]:
    """The rows of M grouped by their clusters, exactly: (each row's group, each group's first row).

    Rows are hashed by a sum of random 64-bit words over their columns (wrapping), and every row
    is then checked against its group's first row, column by column; should two different rows
    ever share a sum, the rows are grouped by their columns' bytes instead."""
    n, k = M.shape
    lengths = np.diff(M.indptr)
    columns = np.arange(k)
    words = _HASH[columns % len(_HASH)] * (columns // len(_HASH) + 1).astype(np.uint64)
    sums = np.zeros(n, dtype=np.uint64)
    full = np.flatnonzero(lengths)
    if len(full):
        sums[full] = np.add.reduceat(words[M.indices], M.indptr[full])
    key = pd.factorize(sums)[0]
    first = np.full(key.max() + 1, n, dtype=np.int64)
    np.minimum.at(first, key, np.arange(n))
    rep = first[key]
    same = np.array_equal(lengths[rep], lengths)
    if same and M.nnz:
        offset = np.arange(M.nnz) - np.repeat(M.indptr[:-1], lengths)
        same = np.array_equal(M.indices[np.repeat(M.indptr[rep], lengths) + offset], M.indices)
    if not same:  # two rows met in both sums: group by the columns themselves
        key = pd.factorize(pd.Series([M.indices[s:e].tobytes() for s, e in zip(M.indptr[:-1], M.indptr[1:])]))[0]
        first = np.unique(key, return_index=True)[1]
    return key, first


@dataclass(frozen=True)
class _PairCounts:
    """What the pair measures read. D[j, l]: the pairs of objects that share j reference and l
    candidate clusters. For each object type (w objects with the same clusters on both sides; whether
    it is in some cluster of each side): E[type, j, l], the objects (itself included) with which one of
    its objects shares j and l, exact; given as such (`counted`, types x cells), or as the binomial
    moments G (`moments`, cells x types, whole numbers in floats, at most `largest`) with the
    transform that turns them into E (`transform`, E = G^T transform)."""

    D: np.ndarray
    w: np.ndarray
    covered_a: np.ndarray
    covered_b: np.ndarray
    counted: np.ndarray | None = None
    moments: np.ndarray | None = None
    transform: np.ndarray | None = None
    largest: float = 0.0

    @cached_property
    def E(self) -> np.ndarray:
        """E[type, j, l], whole numbers (in floats where every term and sum stays below 2^53)."""
        shape = (len(self.w), *self.D.shape)
        if self.counted is not None:
            return self.counted.reshape(shape)
        if self.largest * 2.0 ** sum(self.D.shape) < _FLOAT_WHOLE:  # each term and sum: below 2^53, exact
            return (self.transform.T.astype(np.float64) @ self.moments).T.reshape(shape)  # one pass over G
        return (np.rint(self.moments).astype(np.int64).T @ self.transform).reshape(shape)

    def times(self, V: np.ndarray) -> np.ndarray:
        """E (types x cells) times V (cells x m): exact through the moments where V holds whole numbers
        and no term or sum can pass 2^53 (G^T (transform V), never forming E), else E's products summed
        in floats."""
        if self.moments is not None and V.dtype.kind in "iub":
            TV = self.transform @ V.astype(np.int64)
            if self.largest * float(np.abs(TV).sum(axis=0).max(initial=0)) < _FLOAT_WHOLE:
                return self.moments.T @ TV.astype(np.float64)
        return self.E.reshape(len(self.w), -1).astype(np.float64, copy=False) @ V.astype(np.float64)


class CoverComparison:
    """Two covers over the same objects (see the module): the overlap table, the object types and
    every measure (:meth:`scores`)."""

    def __init__(self, reference: Cover, candidate: Cover, left_out: int = 0):
        reference, candidate = as_cover(reference, name="reference"), as_cover(candidate, name="candidate")
        if reference.n != candidate.n:
            raise CluvalError(f"the covers must list the same objects: {reference.n:,} and {candidate.n:,} objects")
        self.reference, self.candidate, self.left_out = reference, candidate, left_out
        self.n = reference.n

    @cached_property
    def _kinds(self) -> dict:
        """The object types (objects with the same clusters on both sides), by shape: for x reference
        and y candidate clusters, ``(x, y) -> (w, a, b)``, each type's objects and clusters (types x x
        and types x y, each row ascending), in lexicographic order of the clusters. Found without
        hashing, in two compiled passes over the objects (:func:`_object_kinds`): the objects in at
        most one cluster a side (most objects, in most covers) by one code per object, its first cluster
        a side plus one (0 for none), counted or sorted; the others shape by shape, their clusters the
        digits of one whole number when they fit in 62 bits (counted or sorted), else their rows sorted
        as such."""
        a, b = self.reference, self.candidate
        A, B = a.members, b.members
        base = b.k + 1
        space = (a.k + 1) * base
        counted = _counted(space, self.n)
        counts = np.zeros(space if counted else 0, dtype=np.int64)
        codes = np.empty(0 if counted else self.n, dtype=np.int64)
        radix = max(a.k, b.k, 1)
        # the most clusters whose digits make a whole number below 2^62
        digits = next(d for d in range(62) if radix ** (d + 1) >= 2**62) if radix > 1 else 62
        kept, bounds, coded = _object_kinds(*map(_unsigned, (A.indptr, A.indices, B.indptr, B.indices)), base, radix,
                                            digits, counts, codes)
        if counted:
            found = np.flatnonzero(counts)
            w = counts[found]
        else:
            found, w = np.unique(codes[:coded], return_counts=True)
        first_a, first_b = np.divmod(found, base)
        kinds = {}
        for x, y in itertools.product((0, 1), (0, 1)):
            shaped = ((first_a > 0) == x) & ((first_b > 0) == y)
            if shaped.any():
                kinds[(x, y)] = (w[shaped], first_a[shaped, None][:, :x] - 1, first_b[shaped, None][:, :y] - 1)
        for bucket in np.flatnonzero(np.diff(bounds[:-1])).tolist():  # objects in several clusters on some side
            (x, y), key = divmod(bucket, digits + 1), kept[bounds[bucket]:bounds[bucket + 1]]
            key = key.astype(np.int32) if radix ** (x + y) < 2**31 else key
            if _counted(radix ** (x + y), len(key)):
                counted_keys = np.bincount(key, minlength=radix ** (x + y))
                found = np.flatnonzero(counted_keys)
                w = counted_keys[found]
            else:
                found, w = np.unique(key, return_counts=True)
            columns = []
            for _ in range(x + y):  # the least significant first
                found, column = np.divmod(found, radix)
                columns.append(column)
            rows = np.column_stack(columns[::-1])
            kinds[(x, y)] = (w.astype(np.int64), rows[:, :x], rows[:, x:])
        beyond = kept[bounds[-2]:]  # objects in more clusters than digits: their rows sorted, shape by shape
        shapes = np.column_stack([A.indptr[beyond + 1] - A.indptr[beyond], B.indptr[beyond + 1] - B.indptr[beyond]])
        for x, y in np.unique(shapes, axis=0).tolist():
            objects = beyond[(shapes[:, 0] == x) & (shapes[:, 1] == y)]
            rows, w = np.unique(np.column_stack([A.indices[A.indptr[objects] + p] for p in range(x)]
                                                + [B.indices[B.indptr[objects] + q] for q in range(y)]),
                                axis=0, return_counts=True)
            kinds[(x, y)] = (w.astype(np.int64), rows[:, :x], rows[:, x:])
        return dict(sorted(kinds.items()))

    @cached_property
    def _joint(self):
        """The object types of :attr:`_kinds` in one list: how many objects each has, and their reference
        and candidate clusters (types x clusters, sorted CSR)."""
        kinds = self._kinds.values()
        w = np.concatenate([k[0] for k in kinds])
        sides = []
        for side, clusters in ((1, self.reference.k), (2, self.candidate.k)):
            lengths = np.concatenate([np.full(len(k[0]), k[side].shape[1]) for k in kinds])
            indices = np.concatenate([k[side].ravel() for k in kinds])
            sides.append(sparse.csr_array((np.ones(len(indices), dtype=np.int8), indices, np.r_[0, np.cumsum(lengths)]),
                                          shape=(len(w), clusters)))
        return w, sides[0], sides[1]

    @cached_property
    def overlap(self) -> np.ndarray:
        """Objects each reference cluster shares with each candidate cluster (K_A x K_B); a CluvalError
        beyond :data:`MAX_OVERLAP_CELLS` cells."""
        shape = (self.reference.k, self.candidate.k)
        if shape[0] * shape[1] > MAX_OVERLAP_CELLS:
            raise CluvalError(f"the overlap table of {shape[0]:,} x {shape[1]:,} clusters has more than the "
                              f"{MAX_OVERLAP_CELLS:,} cells cluval holds for the overlapping NMIs and F1")
        overlap = np.zeros(shape, dtype=np.int64)
        for w, a, b in self._kinds.values():
            _add_overlap(w, a, b, overlap)
        return overlap

    @cached_property
    def _pair_counts(self):
        """The pair counts (:class:`_PairCounts`) over the object types of :attr:`_joint`.

        Counted without visiting pairs, from binomial moments: with S a set of s reference clusters
        and T of t candidate clusters, and n(S, T) the objects in all of them,
        F(s, t) = sum_{S, T} C(n(S, T), 2) = sum over pairs of C(j, s) C(l, t), and an object's
        G(s, t) = sum of n(S, T) over its own S and T; D and E follow by inverting the binomial
        transform. Sets of at most one cluster a side are read off the cluster sizes and the overlap
        table; every type contributes the larger subsets of its clusters, 2^(x + y) in all."""
        a, b = self.reference, self.candidate
        kinds = self._kinds
        subsets = sum(float(len(k[0])) * 2.0 ** min(x + y, 64) for (x, y), k in kinds.items())  # past 2^64: too many
        shapes_work = sum(2 ** min(x + y, 64) for x, y in kinds)
        if subsets > MAX_SUBSETS or shapes_work > MAX_SHAPE_SUBSETS:
            types = sum(len(k[0]) for k in kinds.values())
            J, L = max(x for x, _ in kinds), max(y for _, y in kinds)  # at most the clusters a pair shares
            if self.n <= MAX_PAIRWISE_OBJECTS and types * (J + 1) * (L + 1) <= MAX_OVERLAP_CELLS:
                return _pairwise_counts(*self._joint)
            raise CluvalError(f"the pair measures of these covers count {subsets:.3g} sets of clusters that objects "
                              f"share (an object in m clusters has 2^m) over {shapes_work:,} kinds of sets, more than "
                              f"the {MAX_SUBSETS:.0e} and {MAX_SHAPE_SUBSETS:,} cluval counts; with at most "
                              f"{MAX_PAIRWISE_OBJECTS:,} objects (and kinds of objects times the clusters a pair can "
                              f"share up to {MAX_OVERLAP_CELLS:,}) it counts their pairs one by one instead")
        J, L = max(x for x, _ in kinds), max(y for _, y in kinds)
        n = self.n
        starts = dict(zip(kinds, np.cumsum([0] + [len(k[0]) for k in kinds.values()]).tolist()))
        types = sum(len(k[0]) for k in kinds.values())
        F = np.zeros((J + 1, L + 1), dtype=np.int64)
        # G: whole numbers up to n 2^(J + L) < 2^53 (J + L <= 14 by MAX_SHAPE_SUBSETS), exact in floats
        G = np.zeros((J + 1, L + 1, types), dtype=np.float64)
        F[0, 0], G[0, 0] = n * (n - 1) // 2, n
        overlap = self.overlap if J and L and a.k * b.k <= MAX_OVERLAP_CELLS else None
        if J:
            F[1, 0] = _pairs_within(a.sizes)
        if L:
            F[0, 1] = _pairs_within(b.sizes)
        if overlap is not None:
            F[1, 1] = _pairs_within(overlap)
        radix = max(a.k, b.k, 1)
        for s, t in itertools.product(range(J + 1), range(L + 1)):
            if s + t == 0 or (s, t) in ((1, 0), (0, 1)) or ((s, t) == (1, 1) and overlap is not None):
                continue  # read off the sizes and the overlap table below
            sets, weights, rows = [], [], []  # each subset of each type's clusters: its clusters, the type's objects
            for (x, y), (w, sets_a, sets_b) in kinds.items():
                if x < s or y < t:
                    continue
                for left in itertools.combinations(range(x), s):
                    for right in itertools.combinations(range(y), t):
                        sets.append([sets_a[:, p] for p in left] + [sets_b[:, q] for q in right])
                        weights.append(w)
                        rows.append(starts[(x, y)])
            if not sets:
                continue
            every = np.concatenate(weights)
            if radix ** (s + t) < 2**62:  # a set's clusters are the digits of one whole number
                codes = np.concatenate([sum(column.astype(np.int64) * radix**place for place, column in enumerate(key))
                                        for key in sets])
                shared = _shared(codes, every)
            else:
                keys = np.concatenate([np.column_stack(key) for key in sets])
                inverse = np.unique(keys, axis=0, return_inverse=True)[1].ravel()
                shared = np.bincount(inverse, weights=every)[inverse]  # whole numbers below 2^53: exact in floats
            at = 0
            for start, w in zip(rows, weights):  # each type sums the objects in each of its subsets
                G[s, t, start:start + len(w)] += shared[at:at + len(w)]
                at += len(w)
            # sum over the sets of C(n, 2) = (sum of n^2 - sum of n) / 2: each object of a set adds its n once
            F[s, t] = (_whole_dot(self._type_weights, G[s, t]) - int(every.sum())) // 2
        for (x, y), (w, sets_a, sets_b) in kinds.items():  # the sets of at most one cluster a side
            rows = slice(starts[(x, y)], starts[(x, y)] + len(w))
            if x:
                G[1, 0, rows] = sum(a.sizes[sets_a[:, p]] for p in range(x))
            if y:
                G[0, 1, rows] = sum(b.sizes[sets_b[:, q]] for q in range(y))
            if x and y and overlap is not None:
                G[1, 1, rows] = sum(overlap[sets_a[:, p], sets_b[:, q]] for p in range(x) for q in range(y))
        invert_a, invert_b = _inverse_binomial(J), _inverse_binomial(L)
        D = invert_a @ F @ invert_b.T
        transform = np.kron(invert_a, invert_b).T  # E[u] = P_a G[u] P_b^T, every type in one product
        covered = [np.concatenate([np.full(len(k[0]), side > 0) for side, k in zip(sides, kinds.values())])
                   for sides in (tuple(x for x, _ in kinds), tuple(y for _, y in kinds))]
        # an object's sets number at most 2^(J + L), each of at most n objects
        return _PairCounts(D, self._type_weights, covered[0], covered[1], moments=G.reshape(-1, types),
                           transform=transform, largest=n * 2.0 ** (J + L))

    @cached_property
    def _type_weights(self) -> np.ndarray:
        return np.concatenate([k[0] for k in self._kinds.values()])

    # ------------------------------------------------------------------ Omega
    def omega_expected(self) -> float:
        """Omega's expected agreement: the share of pairs with the same count on both sides when each
        side's counts are paired at random, sum_j N_j^A N_j^B / M^2 (the adjusted Rand index's
        expectation on partitions); computed exactly, rounded once."""
        m = self.n * (self.n - 1) // 2
        return float(Fraction(_expected_times(self._pair_counts.D), m * m))

    def omega(self) -> float:
        D = self._pair_counts.D
        n = self.n
        m = n * (n - 1) // 2
        agree = int(np.trace(D))
        expected_times_m2 = _expected_times(D)
        denominator = m * m - expected_times_m2
        if denominator == 0:
            return 1.0 if agree == m else math.nan
        return (agree * m - expected_times_m2) / denominator

    # ------------------------------------------------------------------ overlapping NMI
    @cached_property
    def _conditional(self):
        """(H(X_k), H(X_k | Y) for the reference's clusters, the same for the candidate's), in bits."""
        n = float(self.n)
        o = self.overlap.astype(np.float64)
        x = self.reference.sizes.astype(np.float64)[:, None]
        y = self.candidate.sizes.astype(np.float64)[None, :]
        p11, p10, p01 = o / n, (x - o) / n, (y - o) / n
        p00 = 1.0 - p11 - p10 - p01
        h = _h
        passes = h(p11) + h(p00) > h(p01) + h(p10)
        joint = h(p11) + h(p10) + h(p01) + h(p00)
        h_x = _binary(x.ravel() / n)
        h_y = _binary(y.ravel() / n)
        x_given = np.where(passes, joint - h_y[None, :], np.inf).min(axis=1, initial=np.inf)
        y_given = np.where(passes, joint - h_x[:, None], np.inf).min(axis=0, initial=np.inf)
        x_given = np.minimum(np.where(np.isinf(x_given), h_x, x_given), h_x)
        y_given = np.minimum(np.where(np.isinf(y_given), h_y, y_given), h_y)
        return h_x, np.maximum(x_given, 0.0), h_y, np.maximum(y_given, 0.0)

    def onmi_lfk(self) -> float:
        h_x, x_given, h_y, y_given = self._conditional

        def normalised(h, given):
            ratio = np.divide(given, h, out=np.zeros_like(h), where=h > 0)
            return float(np.mean(ratio)) if len(h) else 0.0

        return 1.0 - 0.5 * (normalised(h_x, x_given) + normalised(h_y, y_given))

    def onmi_mgh(self, normalisation: str = "max") -> float:
        if normalisation not in MGH_NORMALISATIONS:
            raise CluvalError(f"normalisation must be one of {', '.join(MGH_NORMALISATIONS)}, got {normalisation!r}")
        h_x, x_given, h_y, y_given = self._conditional
        hx, hy = float(h_x.sum()), float(h_y.sum())
        mutual = 0.5 * (hx - float(x_given.sum()) + hy - float(y_given.sum()))
        norm = {"max": max(hx, hy), "min": min(hx, hy), "sqrt": math.sqrt(hx * hy), "arithmetic": (hx + hy) / 2,
                "joint": hx + hy - mutual}[normalisation]
        if norm <= 0:
            return 1.0 if hx == hy == 0 else math.nan
        return min(1.0, max(0.0, mutual / norm))

    # ------------------------------------------------------------------ extended BCubed
    @cached_property
    def _bcubed(self) -> dict:
        """Extended BCubed precision (`by` the candidate) and recall (`by` the reference), from one product
        of E: for each type, the objects sharing a cluster on `by`'s side and their shares min(j, l) / t
        (t the clusters shared on that side), the shares as whole numbers over one denominator where it
        is small (their sums then exact), each object's mean share rounded once."""
        pairs = self._pair_counts
        j = np.arange(pairs.D.shape[0])[:, None]  # clusters shared on the reference's side
        i = np.arange(pairs.D.shape[1])[None, :]  # and on the candidate's
        scale = math.lcm(*range(1, max(pairs.D.shape)))  # every t divides it
        whole = scale < 2**20
        columns, out = [], {}
        for t in (i, j):
            shares = np.minimum(j, i) * np.where(t > 0, scale // np.maximum(t, 1), 0) if whole else np.divide(
                np.minimum(j, i), t, out=np.zeros(np.broadcast_shapes(j.shape, i.shape)), where=t > 0)
            columns += [np.broadcast_to(t > 0, shares.shape).ravel(), shares.ravel()]
        product = pairs.times(np.column_stack(columns))
        for by, covered, (reach, sums) in (("candidate", pairs.covered_b, product[:, :2].T),
                                           ("reference", pairs.covered_a, product[:, 2:].T)):
            w = pairs.w[covered]
            mean = sums[covered] / (reach[covered] * (scale if whole else 1))  # each type's objects' mean share
            out[by] = float(np.sum(w * mean) / w.sum()) if covered.any() else math.nan
        return out

    def extended_bcubed_precision(self) -> float:
        return self._bcubed["candidate"]

    def extended_bcubed_recall(self) -> float:
        return self._bcubed["reference"]

    def extended_bcubed_f(self) -> float:
        p, r = self.extended_bcubed_precision(), self.extended_bcubed_recall()
        return 2 * p * r / (p + r) if p + r > 0 else math.nan

    # ------------------------------------------------------------------ F1
    @cached_property
    def _f1_grid(self) -> np.ndarray:
        x = self.reference.sizes[:, None].astype(np.float64)
        y = self.candidate.sizes[None, :].astype(np.float64)
        return np.divide(2 * self.overlap, x + y, out=np.zeros(self.overlap.shape), where=(x + y) > 0)

    def f1(self) -> float:
        grid = self._f1_grid
        if not grid.size:
            return math.nan
        return 0.5 * (float(grid.max(axis=1).mean()) + float(grid.max(axis=0).mean()))

    def nf1(self) -> float:
        grid = self._f1_grid
        if not grid.size:
            return math.nan
        best = self.overlap.argmax(axis=0)  # each candidate cluster's reference cluster sharing most objects
        f1 = float(grid[best, np.arange(grid.shape[1])].mean())
        matched = len(np.unique(best[self.overlap.max(axis=0) > 0]))
        if matched == 0:
            return 0.0
        coverage = matched / grid.shape[0]
        redundancy = int((self.overlap.max(axis=0) > 0).sum()) / matched
        return f1 * coverage / redundancy

    # ------------------------------------------------------------------ element-centric similarity
    def ecs(self, alpha: float = DEFAULT_ALPHA) -> float:
        """Element-centric similarity of the covers (Gates, Wood, Hetrick & Ahn 2019), as clusim defines
        it for overlapping clusterings: each object's affinity to every object is the personalised
        PageRank (restart 1 - alpha) of a walk that goes from an object to one of its clusters and on
        to one of that cluster's objects, each chosen uniformly; an object's score is 1 - (1 / (2 alpha))
        times the L1 distance between its affinities in the two covers; ECS is the mean score. An
        object in no cluster of a cover is its own singleton there. Computed over object types (whose
        affinities are alike); NaN with a warning beyond :data:`MAX_ECS_TYPES` types."""
        if isinstance(alpha, bool) or not isinstance(alpha, numbers.Real) or not 0 < alpha < 1:
            raise CluvalError(f"alpha must be a number strictly between 0 and 1, got {alpha!r}")
        w, A, B = self._joint
        sides = [_walk_side(S, w, alpha) for S in (A, B)]
        if len(w) > MAX_ECS_TYPES or any(side is None for side in sides):
            warnings.warn(f"ECS is not computed: the covers have more than {MAX_ECS_TYPES:,} kinds of objects, or "
                          f"a side more than {MAX_WALK_TYPES:,}", CluvalWarning, stacklevel=2)
            return math.nan
        (type_a, mass_a, alone_a), (type_b, mass_b, alone_b) = sides
        share_a = mass_a[:, type_a] / np.bincount(type_a, weights=w)[type_a]  # per object of each joint type
        share_b = mass_b[:, type_b] / np.bincount(type_b, weights=w)[type_b]
        total = 0.0
        block = max(1, (1 << 22) // len(w))  # starting objects' types at a time: a few million affinities
        for start in range(0, len(w), block):
            rows = np.arange(start, min(start + block, len(w)))
            x, y = share_a[type_a[rows]], share_b[type_b[rows]]
            distance = np.abs(x - y) @ w.astype(np.float64)
            own_x, own_y = x[np.arange(len(rows)), rows], y[np.arange(len(rows)), rows]
            distance += np.abs(own_x + alpha * alone_a[rows] - own_y - alpha * alone_b[rows]) - np.abs(own_x - own_y)
            total += float(np.dot(w[rows], 1.0 - distance / (2.0 * alpha)))
        return total / float(w.sum())

    def scores(self, ids=None) -> dict[str, float]:
        """``{id: value}`` of the measures of :data:`COVER_MEASURES` (all when `ids` is None)."""
        ids = list(COVER_MEASURES) if ids is None else [ids] if isinstance(ids, str) else list(ids)
        unknown = [i for i in ids if not isinstance(i, str) or i not in COVER_MEASURES]
        if unknown:
            raise CluvalError(f"unknown cover measure {unknown[0]!r}; the measures are {', '.join(COVER_MEASURES)}")
        out = {}
        for i in ids:
            try:
                out[i] = float(getattr(self, i)())
            except CluvalError as exc:  # beyond what the measure's computation holds: said, not raised
                warnings.warn(f"{COVER_MEASURES[i].name} is not computed: {exc}", CluvalWarning, stacklevel=2)
                out[i] = math.nan
        return out


def _walk_side(S: sparse.csr_array, w: np.ndarray, alpha: float):
    """One cover's walk for ECS over its object types: (each joint type's type here, the walk's mass
    after its first step from an object of each type to each type (1 - alpha) alpha W (I - alpha W)^-1,
    whether the joint type's objects are in no cluster); None beyond :data:`MAX_WALK_TYPES` types."""
    key, first = _groups(S)
    if len(first) > MAX_WALK_TYPES:
        return None
    rows = S[first].astype(np.float64)
    weights = np.bincount(key, weights=w)
    per_type = np.asarray(rows.sum(axis=1)).ravel()
    sizes = rows.T @ weights  # objects per cluster
    to_cluster = rows.multiply(1.0 / np.maximum(per_type, 1)[:, None]).tocsr()
    from_cluster = rows.multiply(weights[:, None]).T.multiply(1.0 / np.maximum(sizes, 1)[:, None]).tocsr()
    W = (to_cluster @ from_cluster).toarray()  # type u -> type v, a row of zeros for objects in no cluster
    mass = (1.0 - alpha) * np.linalg.solve((np.eye(len(W)) - alpha * W).T, (alpha * W).T).T
    return key, mass, (per_type == 0)[key].astype(np.float64)


def _pairwise_counts(w: np.ndarray, A: sparse.csr_array, B: sparse.csr_array):
    """:attr:`CoverComparison._pair_counts` pair by pair (objects in many clusters at once, few objects):
    the clusters each pair of objects shares, from the co-membership matrices."""
    objects = np.repeat(np.arange(len(w)), w)  # each object's type
    shared = [(S[objects].astype(np.int64) @ S[objects].T.astype(np.int64)).toarray() for S in (A, B)]
    J, L = int(shared[0].max(initial=0)), int(shared[1].max(initial=0))
    codes = shared[0] * (L + 1) + shared[1]
    upper = np.triu_indices(len(objects), 1)
    D = np.bincount(codes[upper], minlength=(J + 1) * (L + 1)).astype(np.int64).reshape(J + 1, L + 1)
    first = np.cumsum(w) - w  # one object of each type
    rows = codes[first]
    E = np.stack([np.bincount(row, minlength=(J + 1) * (L + 1)) for row in rows]).astype(np.int64)
    covered = [np.diff(S.indptr) > 0 for S in (A, B)]
    return _PairCounts(D, w, covered[0], covered[1], counted=E)


def _counted(space: int, items: int) -> bool:
    """Whether `items` whole numbers below `space` are grouped by counting them in an array of `space`
    (else by sorting them): when the array is not much longer than the numbers."""
    return space <= max(1 << 16, 4 * items)


@compiled
def _object_kinds(a_ptr, a_idx, b_ptr, b_idx, base, radix, digits, counts, codes):
    """The objects of two CSR matrices (their indptr and indices) read in two compiled passes.

    Each object in at most one cluster a side adds its code, (first reference cluster + 1) * base +
    (first candidate cluster + 1) with 0 for none, to `counts` where that holds the code space, else
    to `codes`. The others go to buckets by shape, in order: an object in x reference and y candidate
    clusters, x + y up to `digits`, is bucket x * (digits + 1) + y and holds its clusters as the digits
    (base `radix`) of one whole number, the first most significant; an object in more clusters goes
    to the last bucket as its position. Returns (the buckets' contents, where each bucket starts and
    ends, how many codes were written)."""
    n = len(a_ptr) - 1
    width = digits + 1
    beyond = width * width  # the bucket of objects in more clusters than digits
    bounds = np.zeros(beyond + 2, np.int64)
    for i in range(n):
        x, y = a_ptr[i + 1] - a_ptr[i], b_ptr[i + 1] - b_ptr[i]
        if x > 1 or y > 1:
            bounds[(x * width + y if x + y <= digits else beyond) + 1] += 1
    for bucket in range(beyond + 1):
        bounds[bucket + 1] += bounds[bucket]
    kept = np.empty(bounds[-1], np.int64)
    filled = bounds[:-1].copy()
    c = 0
    for i in range(n):
        x, y = a_ptr[i + 1] - a_ptr[i], b_ptr[i + 1] - b_ptr[i]
        if x > 1 or y > 1:
            if x + y <= digits:
                key = 0
                for p in range(a_ptr[i], a_ptr[i + 1]):
                    key = key * radix + a_idx[p]
                for q in range(b_ptr[i], b_ptr[i + 1]):
                    key = key * radix + b_idx[q]
                bucket = x * width + y
            else:
                key, bucket = i, beyond
            kept[filled[bucket]] = key
            filled[bucket] += 1
        else:
            code = (a_idx[a_ptr[i]] + 1 if x else 0) * base + (b_idx[b_ptr[i]] + 1 if y else 0)
            if len(counts):
                counts[code] += 1
            else:
                codes[c] = code
                c += 1
    return kept, bounds, c


@compiled
def _add_overlap(w, a, b, overlap):
    """Adds the w[u] objects of each type u to the cells of the pairs of its clusters (a[u, p], b[u, q])."""
    for u in range(len(w)):
        for p in range(a.shape[1]):
            for q in range(b.shape[1]):
                overlap[a[u, p], b[u, q]] += w[u]


def _shared(codes: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """For each item, the weights summed over the items with its code (whole numbers below 2^62).
    Grouped in the cache where the codes' high bits are few (:func:`_shared_by_high_bits`), else by
    sorting the codes."""
    if len(codes) and int(codes.max()) >> 16 > 4 * len(codes) + 65536:
        inverse = np.unique(codes, return_inverse=True)[1]
        return np.bincount(inverse, weights=weights).astype(np.int64)[inverse]  # sums below 2^53: exact
    return _shared_by_high_bits(codes, weights)


@compiled
def _shared_by_high_bits(codes, weights):
    """:func:`_shared` where the codes' high bits (all but the lowest 16) take few values: the items are
    ordered by their high bits (counted), then each group of high bits is summed in one table of 2^16
    slots, which is cleared behind it."""
    n = len(codes)
    shared = np.empty(n, np.int64)
    if n == 0:
        return shared
    high = codes.max() >> 16
    starts = np.zeros(high + 2, np.int64)
    for code in codes:
        starts[(code >> 16) + 1] += 1
    for h in range(high + 1):
        starts[h + 1] += starts[h]
    order = np.empty(n, np.int64)
    filled = starts[:-1].copy()
    for i in range(n):
        h = codes[i] >> 16
        order[filled[h]] = i
        filled[h] += 1
    table = np.zeros(1 << 16, np.int64)
    for h in range(high + 1):
        group = order[starts[h]:starts[h + 1]]
        for i in group:
            table[codes[i] & 0xFFFF] += weights[i]
        for i in group:
            shared[i] = table[codes[i] & 0xFFFF]
        for i in group:
            table[codes[i] & 0xFFFF] = 0
    return shared


def _pairs_within(counts) -> int:
    """The sum of C(count, 2): pairs of objects within each count (exact), in two passes."""
    values = np.asarray(counts, dtype=np.int64).ravel()
    return (_whole_dot(values, values) - int(values.sum())) // 2


def _whole_dot(w: np.ndarray, g: np.ndarray) -> int:
    """The exact sum of w * g over whole numbers (g may be held in floats): in floats where no term or
    partial sum can pass 2^52 (each a whole number, exact in any order), in 64 bits where none can pass
    2^62, else in Python's whole numbers."""
    bound = float(max(w.max(), -w.min())) * float(max(g.max(), -g.min())) * len(g) if len(w) else 0.0
    if g.dtype.kind == "f":
        if bound < 2.0**52:
            return int(g @ w)
        g = np.rint(g).astype(np.int64)
    if bound < 2.0**62:
        return int(w @ g)
    return sum(x * y for x, y in zip(w.tolist(), g.tolist()))


def _inverse_binomial(m: int) -> np.ndarray:
    """P[j, s] = (-1)^(s - j) C(s, j): from the binomial moments sum C(x, s) back to the counts of x = j."""
    P = np.zeros((m + 1, m + 1), dtype=np.int64)
    for j in range(m + 1):
        for s in range(j, m + 1):
            P[j, s] = (-1) ** (s - j) * math.comb(s, j)
    return P


def _expected_times(D: np.ndarray) -> int:
    """M^2 times Omega's expectation: sum_j (pairs with j shared on one side) (pairs with j on the other)."""
    na, nb = D.sum(axis=1).tolist(), D.sum(axis=0).tolist()
    return sum(int(x) * int(y) for x, y in zip(na, nb))  # the longer side's extra counts meet zeros


def _h(p: np.ndarray) -> np.ndarray:
    """-p log2 p, 0 at p = 0 (and at rounding below 0)."""
    p = np.clip(p, 0.0, None)
    return -np.where(p > 0, p * np.log2(np.where(p > 0, p, 1.0)), 0.0)


def _binary(p: np.ndarray) -> np.ndarray:
    return _h(p) + _h(1.0 - p)


def compare_covers(reference, candidate, *, policy: str = "intersection") -> CoverComparison:
    """Two covers compared (:class:`CoverComparison`); each side as :func:`as_cover` reads it. Objects
    only one of them lists are handled by `policy` (see the module); a warning says how many.

    >>> c = compare_covers([[0, 1, 2], [2, 3]], [[0, 1], [2, 3]])
    >>> round(c.omega(), 4), round(c.extended_bcubed_precision(), 4)
    (0.4, 1.0)
    """
    a, b = as_cover(reference, name="reference"), as_cover(candidate, name="candidate")
    a, b, alone = _aligned(a, b, policy)
    a, b = _without_empty(a), _without_empty(b)
    if alone:
        listed = "1 object is" if alone == 1 else f"{alone:,} objects are"
        warnings.warn(f"{listed} listed by one cover only: policy {policy!r}", CluvalWarning, stacklevel=2)
    return CoverComparison(a, b, alone)
