r"""The index registry: one table that drives the API, the app, the docs and the tests.

Every index is declared once, by its family module in :mod:`cluval_core.indices`, as an
:class:`IndexInfo` that holds everything cluval knows about it: its facts (family, range and
direction, chance adjustment, symmetry, whether it needs the data X, whether it is
meaningful on soft tables, whether it can depend on the tie order), its definition and
reference, and the code that computes its value, its exact expectation under the
permutation model, its anatomy and its computation in steps. :mod:`cluval_core.indices`
:func:`register`\ s each family's entries, in order, when :mod:`cluval_core` is imported; the generic machinery
(the comparison, chance, the jackknife, the app's tables) reads them here and never switches
on an index id.

>>> INDICES["psi"].name, INDICES["psi"].best, INDICES["psi"].higher_is_better
('Pair Sets Index', 1.0, True)
>>> INDICES["nmi_max"].call
'cluval_core.normalized_mutual_info_score(labels_true, labels_pred, average_method="max")'
>>> INDICES["ci_centroid"].call
'cluval_core.centroid_index(labels_true, labels_pred, X=X)'
>>> get_index("nope")
Traceback (most recent call last):
...
cluval_core.CluvalError: unknown index id 'nope'; the ids are ri, ari, ...
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import pandas as pd

from .validation import CluvalError, _describe

__all__ = ["FAMILIES", "INDICES", "IndexInfo", "Anatomy", "register", "add_index", "remove_index", "get_index",
           "index_ids", "find_indices", "index_table", "headline_ids", "left_out_update", "LEFT_OUT_UPDATES",
           "LEFT_OUT_WITHIN"]

INF = math.inf

# family key -> its display name, in the order the families are registered
FAMILIES: dict[str, str] = {}
# index id -> its entry, in the order the indices are registered
INDICES: dict[str, IndexInfo] = {}
# What a family derives from a table (a function `derive(c)` kept by Comparison.memo) -> how
# it follows when one object of cell (i, j) is left out (the exact jackknife):
# `update(derived, c, i, j)` gives the left-out table's value from c's, exactly the value that
# deriving it again would give (see left_out_update), or within LEFT_OUT_WITHIN[derive](left-out table)
# of it, each number, where the update is a sum that moves by a few terms.
LEFT_OUT_UPDATES: dict[Callable, Callable] = {}
LEFT_OUT_WITHIN: dict[Callable, Callable] = {}


@dataclass(frozen=True)
class Anatomy:
    """Where an index's value comes from, as its family computes it.

    ``cells`` (shaped like the table) plus ``constant`` add up to the value, ``description``
    says what a cell's number means; or, for an index read off a mapping of clusters,
    ``rows`` and ``cols`` hold one number per cluster.
    """

    cells: object
    constant: float
    description: str
    rows: object = None
    cols: object = None


@dataclass(frozen=True, kw_only=True)
class IndexInfo:
    """Everything cluval knows about one index.

    Attributes
    ----------
    id, name, family : str
        The index id used everywhere (``compare(...).score(id)``), its display name and its
        family (a key of :data:`FAMILIES`).
    range : tuple of float
        The values it can take; ``best`` is the upper end for similarities, the lower end
        for distances.
    higher_is_better : bool
        True for a similarity, False for a distance (``kind`` says it in words).
    chance_adjusted, symmetric, needs_data : bool
        Corrected for chance; unchanged when the two partitions swap; needs the data X.
    soft : bool
        Meaningful on a real-valued table: soft memberships N* = U^T V, or objects with real
        weights (``compare(..., sample_weight=w)``); ``score`` gives NaN otherwise (the index needs
        counts: the hypergeometric model, the reduced encodings, per-object coordinates).
    integer_valued : bool
        Its values are whole numbers (counts of clusters): displays show them without decimals.
    tie_dependent : bool
        Its value can depend on the tie order: the index reads a greedy pairing or a
        nearest-cluster mapping, where equal candidates are decided by the order in which
        clusters first occur. Optimal pairings and row or column maxima are not: their value
        is the same whichever tied choice is made.
    headline : bool
        One of the headline indices, which a report, a handout and an explanation lead with
        (:func:`headline_ids`).
    cost : str
        What one evaluation costs: ``"pairs"`` (nothing once the four pair counts are known: it reads
        them alone, so :class:`~cluval_core.core.comparison.PairsOnly` computes it without a table),
        ``"cells"`` (a pass over the non-empty cells), ``"pairing"`` (an
        optimal or greedy pairing, or a mapping, of the clusters) or ``"moments"`` (an exact variance
        over the cluster sizes: about a second for thousands of objects, kept for tables with the same
        margins, so that work over many margins, such as the jackknife or random partitions, is
        asked for by name rather than done for every index).
    pairing : str or None
        The pairing of the clusters the value reads, a :class:`~cluval_core.Comparison` property
        (``"hungarian_pairing"``, ``"accuracy_pairing"``, ``"row_normalised_pairing"`` or
        ``"greedy_pairing"``), or None: on a table of many cells, :meth:`~cluval_core.Comparison.scores`
        solves the pairings its indices read in a second thread while it computes the others.
    function, function_options : callable, dict
        The public one-line function that computes it and the keyword options that select
        this index (``function(labels_true, labels_pred, **function_options)``, with
        ``X=X`` when ``needs_data``); ``call`` writes that call out.
    formula, symbols : str
        The definition in LaTeX, and what its symbols mean beyond the common notation
        (n_ij, r_i, c_j, N, K_a, K_b, pair counts a, b, c, d, entropies H), in Markdown:
        text with its mathematics in LaTeX between dollar signs (``$n_{ij} / c_j$``).
    reference, caveat : str
        Where it is defined, and when it misleads.
    compute : callable
        ``compute(comparison) -> float``, the value (:meth:`Comparison.score` calls it once).
    steps : callable
        ``steps(comparison) -> list of Step``, the computation with the table's numbers, whose
        last step is the value (:meth:`Comparison.steps`).
    expectation : callable or None
        ``expectation(comparison) -> (mean, sd or None) or None``: the exact expected value
        under the permutation model and, where it has a closed form too, the standard
        deviation; None where no closed form exists (chance then draws random tables) or
        for a table where it does not apply.
    model_expectation : callable or None
        ``model_expectation(comparison, model) -> (mean, sd or None)``: the same under the random
        models that draw whole partitions (``"num"``, ``"num1"``, ``"all"``, ``"all1"``:
        :mod:`cluval_core.core.random_models`); None where the index has no closed form there.
    cells, clusters : callable or None
        The anatomy, ``f(comparison) -> Anatomy or None``: per cell (``cells``: the cells plus
        a constant add up to the value) or per cluster (``clusters``: the Centroid Index's
        orphans); None returned where a convention, not the formula, sets the value.
    """

    id: str
    name: str
    family: str
    range: tuple[float, float]
    higher_is_better: bool
    chance_adjusted: bool
    symmetric: bool
    needs_data: bool = False
    soft: bool = True
    integer_valued: bool = False
    tie_dependent: bool = False
    headline: bool = False
    cost: str = "cells"
    pairing: str | None = None
    function: Callable
    function_options: dict = field(default_factory=dict, hash=False)
    formula: str
    symbols: str = ""
    reference: str
    caveat: str
    compute: Callable
    steps: Callable
    expectation: Callable | None = None
    model_expectation: Callable | None = None
    cells: Callable | None = None
    clusters: Callable | None = None

    @property
    def kind(self) -> str:
        return "similarity" if self.higher_is_better else "distance"

    @property
    def best(self) -> float:
        """The value of identical partitions: the top of the range, or its bottom for a distance."""
        return float(self.range[1] if self.higher_is_better else self.range[0])

    @property
    def anatomy(self) -> bool:
        """True when the index has an anatomy of cells (:meth:`Comparison.contributions`)."""
        return self.cells is not None

    @property
    def exact_expectation(self) -> bool:
        """True when chance() gives its expectation in closed form (for tables of counts)."""
        return self.expectation is not None

    @property
    def call(self) -> str:
        """The public call that computes this index, as a user would write it."""
        options = [f"{name}={_literal(value)}" for name, value in self.function_options.items()]
        if self.needs_data:
            options.append("X=X")
        return f"cluval_core.{self.function.__name__}({', '.join(['labels_true', 'labels_pred', *options])})"


def left_out_update(derive: Callable, *, within: Callable | None = None) -> Callable:
    """Decorator: register the decorated ``update(derived, c, i, j)`` as the way `derive`'s value
    follows when one object of c's cell (i, j) is left out (no cluster emptied; :data:`LEFT_OUT_UPDATES`),
    so that the jackknife updates it from the whole table's instead of deriving it again.

    The update gives exactly what deriving again gives, or, with `within`, each of its numbers
    within ``within(left_out)`` of it (a float sum updated by a few terms: the last bits its sums
    allow; :data:`LEFT_OUT_WITHIN`)."""
    def register_update(update: Callable) -> Callable:
        LEFT_OUT_UPDATES[derive] = update
        if within is not None:
            LEFT_OUT_WITHIN[derive] = within
        return update
    return register_update


def _literal(value) -> str:
    return f'"{value}"' if isinstance(value, str) else repr(value)


def register(family: str, name: str, entries) -> None:
    """Add a family of indices to the registry: its key, its display name and its entries, in order."""
    if family in FAMILIES:
        raise ValueError(f"the family {family!r} is registered twice")
    FAMILIES[family] = name
    for info in entries:
        if info.id in INDICES:
            raise ValueError(f"index id {info.id!r} is registered twice")
        if info.family != family:
            raise ValueError(f"index {info.id!r} names the family {info.family!r}, not {family!r}")
        INDICES[info.id] = info


# the ids added one at a time after the families (users' own indices), which remove_index may take out
_ADDED: set[str] = set()


def add_index(info: IndexInfo) -> None:
    """Add one index, a user's own, to a registered family: from then on ``score``, ``scores``,
    ``chance``, ``uncertainty`` and ``compare_many`` compute it like any other."""
    if not isinstance(info, IndexInfo):
        raise CluvalError(f"add_index takes an IndexInfo, got {_describe(info)}")
    if not isinstance(info.id, str) or not info.id.isidentifier():
        raise CluvalError(f"an index id is a name of letters, digits and underscores, got {_describe(info.id)}")
    if info.id in INDICES:
        raise CluvalError(f"the index id {info.id!r} is taken: choose another (remove_index removes one you added)")
    if info.family not in FAMILIES:
        raise CluvalError(f"unknown family {info.family!r}; the families are {', '.join(FAMILIES)}")
    INDICES[info.id] = info
    _ADDED.add(info.id)


def remove_index(index_id: str) -> None:
    """Remove an index that :func:`add_index` added (cluval's own stay)."""
    get_index(index_id)
    if index_id not in _ADDED:
        raise CluvalError(f"{index_id!r} is one of cluval's own indices: only an index you added can be removed")
    del INDICES[index_id]
    _ADDED.discard(index_id)


def _unknown(index_id) -> CluvalError:
    return CluvalError(f"unknown index id {_describe(index_id)}; the ids are {', '.join(INDICES)}")


def get_index(index_id: str, name: str = "index_id") -> IndexInfo:
    """The registry entry of `index_id`; a CluvalError lists the ids otherwise."""
    if isinstance(index_id, str):
        try:
            return INDICES[index_id]
        except KeyError:
            raise _unknown(index_id) from None
    raise CluvalError(f"{name} must be one index id (a string), got {_describe(index_id)}; "
                      f"the ids are {', '.join(INDICES)}")


def headline_ids() -> tuple[str, ...]:
    """The headline indices (``IndexInfo.headline``), in the registry's order.

    >>> headline_ids()
    ('ari', 'nmi_sum', 'ami', 'nvd', 'psi', 'ci_partition', 'ci_centroid')
    """
    return tuple(index_id for index_id, info in INDICES.items() if info.headline)


def index_ids(ids, *, has_data: bool = True, name: str = "ids", without_data: str = "pass X=... to compare()",
              repeats: bool = True) -> list[str]:
    """The index ids asked for, checked: the one validator of every argument that names indices.

    ``None`` gives every index that applies (those that need X only when `has_data`); one
    id gives a list of it; a set gives its ids in registry order; any other iterable its ids
    in the order given, each once (or, with ``repeats=False``, an error when one repeats).
    An id that needs the data X when there is none is refused with `without_data`.

    >>> index_ids({"psi", "ari"}), index_ids("ri")
    (['ari', 'psi'], ['ri'])
    >>> index_ids(["ci_centroid"], has_data=False)
    Traceback (most recent call last):
    ...
    cluval_core.CluvalError: ci_centroid needs the data X: pass X=... to compare()
    """
    if ids is None:
        return [i for i, info in INDICES.items() if has_data or not info.needs_data]
    if isinstance(ids, str):
        ids = [ids]
    elif isinstance(ids, (set, frozenset)):
        order = list(INDICES)
        ids = sorted(ids, key=lambda i: order.index(i) if i in INDICES else -1)
    elif isinstance(ids, Mapping) or not hasattr(ids, "__iter__"):
        raise CluvalError(f"{name} must be an index id or a list of them, got {_describe(ids)}")
    ids = list(ids)
    if any(not isinstance(i, str) for i in ids):
        raise CluvalError(f"{name} must be index id strings, got {_describe(ids)}")
    if not ids:
        raise CluvalError(f"{name} is empty: name at least one index")
    for i in ids:
        if i not in INDICES:
            raise _unknown(i)
    if not repeats and len(set(ids)) < len(ids):
        raise CluvalError(f"{name} repeats an index: {_describe(ids)}")
    ids = list(dict.fromkeys(ids))
    if not has_data:
        needing = [i for i in ids if INDICES[i].needs_data]
        if needing:
            raise CluvalError(f"{needing[0]} needs the data X: {without_data}")
    return ids


_WORD = re.compile(r"[^\W_]+")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.casefold())


def find_indices(query: str) -> list[IndexInfo]:
    """The entries a search for `query` finds, in registry order; all of them for an empty query.

    A search reads the name, id and family of each index, two of its properties ("chance
    adjusted", "tie dependent") and its reference (authors such as "Meila"); case does not
    matter and ids split at underscores ("nmi_max" is "nmi max").
    Indices that have every query word as a whole word are found; when no index has, every
    query word need only begin a word ("arith" finds NMI (arithmetic mean)), references
    still by whole words. Caveats are not searched: they name other indices.

    >>> [info.id for info in find_indices("ARI")], [info.id for info in find_indices("ran")]
    (['ari'], ['ri', 'ari', 'sri', 'pmi2', 'mari'])
    >>> [info.id for info in find_indices("psi")]
    ['psi', 'psi_simplified']
    >>> [info.id for info in find_indices("chance")][:6]
    ['ari', 'sri', 'pmi2', 'afm', 'mari', 'pair_correlation']
    >>> [info.id for info in find_indices("nmi max")], find_indices("no such index")
    (['nmi_max'], [])
    """
    if not isinstance(query, str):
        raise CluvalError(f"query must be text, got {_describe(query)}")
    wanted = _words(query)
    described = [(info, _words(" ".join([info.name, info.id, FAMILIES[info.family],
                                         "chance adjusted" if info.chance_adjusted else "",
                                         "tie dependent" if info.tie_dependent else ""])),
                  set(_words(info.reference))) for info in INDICES.values()]
    whole = [info for info, words, reference in described if all(w in words or w in reference for w in wanted)]
    if whole:
        return whole
    return [info for info, words, reference in described
            if all(w in reference or any(word.startswith(w) for word in words) for w in wanted)]


def _bound(value: float) -> str:
    """A bound of a range as people write it: ``∞`` and ``−∞`` for the infinite ones."""
    if math.isinf(value):
        return "∞" if value > 0 else "−∞"
    return f"{value:g}"


def index_table() -> pd.DataFrame:
    """The registry as a pandas DataFrame (one row per index, without its code).

    >>> table = index_table().set_index("id")
    >>> table.loc["ari", "range"], bool(table.loc["ari", "higher is better"])
    ('[-1, 1]', True)
    >>> table.loc["vi", "range"], bool(table.loc["vi", "higher is better"])
    ('[0, ∞]', False)
    """
    rows = []
    for info in INDICES.values():
        rows.append({
            "id": info.id, "name": info.name, "family": FAMILIES[info.family],
            "range": f"[{_bound(info.range[0])}, {_bound(info.range[1])}]", "best": info.best,
            "kind": info.kind, "higher is better": info.higher_is_better,
            "chance adjusted": info.chance_adjusted, "symmetric": info.symmetric,
            "needs X": info.needs_data, "soft tables": info.soft, "integer valued": info.integer_valued,
            "tie dependent": info.tie_dependent, "exact expectation": info.exact_expectation,
            "function": info.call, "formula": info.formula, "reference": info.reference,
        })
    return pd.DataFrame(rows)
