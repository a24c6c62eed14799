"""Why the headline indices of one comparison disagree, in words, each claim backed by numbers.

:func:`explain` reads a :class:`~cluval_core.Comparison` (its cluster sizes, the cells' shares of
each index, the Hungarian pairing and the Centroid Index mapping) and returns an
:class:`Explanation`: a few :class:`Claim` objects, each a sentence or two whose every number is
also on the comparison's page (a cluster size, a cell, a value, a pair's Braun–Banquet
similarity), and the clusters and cells it is about, so that a viewer can outline them.

The headline indices count different things:

* **pairs of objects** (ARI): a cluster of r objects holds r(r − 1)/2 pairs, so a large cluster
  weighs far more than a small one;
* **objects** (NMI, AMI, NVD): a cluster weighs by its number of objects;
* **clusters** (PSI, CI): each cluster counts once, whatever its size.

So when a clustering merges or splits clusters of very different sizes, indices that count
different things disagree. The facts looked for are those: a candidate cluster that holds most
of two or more reference clusters (a **merge**), a reference cluster most of two or more
candidate clusters are made of (a **split**), and the **orphans** of the CI mapping. The
*decisive* fact for the two headline indices that differ most is the one whose clusters weigh
most for the lower index and least for the higher.

>>> from cluval_core import Comparison
>>> c = Comparison.from_table([[2000, 0, 0], [0, 2000, 0], [0, 0, 100], [0, 0, 100]])
>>> e = explain(c)
>>> e.claims[0].kind, e.claims[0].cols
('disagree', (2,))
>>> print(e.claims[0].text)  # doctest: +NORMALIZE_WHITESPACE
PSI (0.5039) is lower than ARI (0.9977). The decisive fact: candidate cluster 2 (200 objects)
merges 2 reference clusters, 2 and 3 (100 objects each). These clusters are 2 of the 4 clusters
(50%) PSI counts, but hold 0.50% of the pairs of objects ARI counts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..core.registry import INDICES, headline_ids
from .export import format_value

__all__ = ["Claim", "Explanation", "explain", "outline", "WHAT_IT_COUNTS", "AGREEMENT"]

# What each headline index counts: its unit of weight.
WHAT_IT_COUNTS = {"ari": "pairs", "nmi_sum": "objects", "ami": "objects", "nvd": "objects", "psi": "clusters",
                  "ci_centroid": "clusters", "ci_partition": "clusters"}
# Headline indices on one scale (1 = identical, higher is better): those whose gap is explained.
SIMILARITIES = ("ari", "nmi_sum", "ami", "psi")
AGREEMENT = 0.1  # two similarities closer than this agree; the largest gap above it is explained
CARRIED_SHARE = 0.8  # the cells named as carrying an index hold at least this share of its positive part
MOST_CELLS, MOST_LISTED = 6, 8  # cells named as carrying an index; clusters listed by name in one sentence
UNITS = {"pairs": "of the pairs of objects", "objects": "of the objects", "clusters": "clusters"}


@dataclass(frozen=True)
class Claim:
    """One claim of an explanation.

    Attributes
    ----------
    kind : str
        ``"disagree"`` or ``"agree"`` (the headline indices' gap), ``"carried"`` (the cells that
        carry an index), ``"counts"`` (what each index counts), ``"merge"``, ``"split"``,
        ``"orphans"``.
    title : str
        A few words naming the claim (for a control that outlines it).
    text : str
        The claim in words; every number in it is a size, a cell, a value or a share the
        comparison's page shows or the claim derives in the text.
    rows, cols : tuple of int
        The reference and candidate clusters it is about (positions in ``row_labels`` and
        ``col_labels``).
    cells : tuple of (int, int)
        The cells it is about (row and column positions).
    numbers : dict
        The numbers the text states, by name (for tests and other renderings).
    """

    kind: str
    title: str
    text: str
    rows: tuple = ()
    cols: tuple = ()
    cells: tuple = ()
    numbers: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Explanation:
    """The headline values of a comparison and the claims that explain them, most important first."""

    values: dict
    claims: tuple

    def __str__(self) -> str:
        return "\n".join(f"{number}. {claim.text}" for number, claim in enumerate(self.claims, 1))


def outline(claim: Claim) -> tuple:
    """The cells to outline on the table for `claim`: its cells, else its clusters' whole rows and
    columns ((i, None) and (None, j)), as :func:`~cluval_core.outputs.plots.contingency_heatmap` takes them."""
    if claim.cells:
        return tuple(claim.cells)
    return tuple((int(i), None) for i in claim.rows) + tuple((None, int(j)) for j in claim.cols)


@dataclass(frozen=True)
class _Fact:
    """A merge, a split or the orphans: the clusters involved and how much they weigh per unit."""

    kind: str
    text: str
    title: str
    rows: tuple
    cols: tuple
    cells: tuple

    def weight(self, unit: str, sizes: _Sizes) -> float:
        """The share of `unit` (pairs, objects, clusters) these clusters hold."""
        if unit == "clusters":
            return max(len(self.rows), len(self.cols)) / max(sizes.k_rows, sizes.k_cols)
        if unit == "objects":
            return max(sizes.rows[list(self.rows)].sum(), sizes.cols[list(self.cols)].sum()) / sizes.n
        return max(_share(sizes.row_pairs, self.rows), _share(sizes.col_pairs, self.cols))


def _share(pairs: np.ndarray, chosen) -> float:
    total = pairs.sum()
    return float(pairs[list(chosen)].sum() / total) if total > 0 else 0.0


@dataclass(frozen=True)
class _Sizes:
    rows: np.ndarray
    cols: np.ndarray
    n: float
    k_rows: int
    k_cols: int

    @property
    def row_pairs(self) -> np.ndarray:
        return self.rows * (self.rows - 1) / 2

    @property
    def col_pairs(self) -> np.ndarray:
        return self.cols * (self.cols - 1) / 2


def _number(value) -> str:
    """A count as the page shows it: whole numbers with thousands separators, others to 1 decimal."""
    value = float(value)
    return f"{value:,.0f}" if value.is_integer() else f"{value:,.1f}"


def _percent(share: float) -> str:
    """A share as a percentage with enough digits to show it is not 0 (0.50%, 7.7%, 12%)."""
    percent = 100 * share
    if percent == 0 or percent >= 10:
        return f"{percent:.0f}%"
    return f"{percent:#.2g}%" if percent >= 0.01 else "under 0.01%"


def _names(labels) -> str:
    """Cluster labels in a sentence: "4", "4 and 5", "4, 5 and 6", "4, 5, ... and 3 more"."""
    labels = [str(label) for label in labels]
    if len(labels) > MOST_LISTED:
        return ", ".join(labels[:MOST_LISTED - 1]) + f" and {len(labels) - MOST_LISTED + 1} more"
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1]


def _objects(sizes) -> str:
    """The sizes of some clusters: "(100 objects each)" or "(541, 419 and 302 objects)"."""
    sizes = [float(s) for s in sizes]
    if len(set(sizes)) == 1:
        return f"({_number(sizes[0])} objects{' each' if len(sizes) > 1 else ''})"
    return f"({_names([_number(s) for s in sizes])} objects)"


def _label_key(label):
    """Labels in the order a reader expects: numbers by value, then text; pairs of labels in turn."""
    if isinstance(label, tuple):
        return tuple(_label_key(part) for part in label)
    return (0, float(label), "") if isinstance(label, (int, float, np.integer, np.floating)) else (1, 0.0, str(label))


def _ranks(labels) -> np.ndarray:
    """Each label's place in reading order (see :func:`_label_key`)."""
    order = sorted(range(len(labels)), key=lambda p: _label_key(labels[p]))
    ranks = np.empty(len(labels), dtype=np.intp)
    ranks[order] = np.arange(len(labels))
    return ranks


def _ordered(positions, labels, weights=None) -> np.ndarray:
    """`positions` by decreasing weight, ties by label: an order no renumbering of the table changes."""
    positions = [int(p) for p in positions]
    weight = (lambda p: 0.0) if weights is None else (lambda p: -float(weights[p]))
    return np.array(sorted(positions, key=lambda p: (weight(p), _label_key(labels[p]))), dtype=np.intp)


def _majorities(c) -> tuple[np.ndarray, np.ndarray]:
    """For each reference cluster, the candidate cluster holding more than half of it (else -1);
    for each candidate cluster, the reference cluster more than half of it comes from (else -1)."""
    rows, cols, values = c.cells
    values = np.asarray(values, dtype=float)
    row_home = np.full(c.k_true, -1)
    col_home = np.full(c.k_pred, -1)
    row_sizes, col_sizes = np.asarray(c.row_sizes, dtype=float), np.asarray(c.col_sizes, dtype=float)
    row_major = values > row_sizes[rows] / 2  # at most one such cell per row, and per column
    row_home[rows[row_major]] = cols[row_major]
    col_major = values > col_sizes[cols] / 2
    col_home[cols[col_major]] = rows[col_major]
    return row_home, col_home


def _merges_and_splits(c, sizes: _Sizes) -> list[_Fact]:
    row_home, col_home = _majorities(c)
    rl, cl = c.row_labels, c.col_labels
    facts = []
    for j in _ordered(np.unique(row_home[row_home >= 0]), cl):
        merged = np.flatnonzero(row_home == j)
        if len(merged) >= 2:
            merged = _ordered(merged, rl, sizes.rows)
            facts.append(_Fact(
                "merge", f"candidate cluster {cl[j]} ({_number(sizes.cols[j])} objects) merges {len(merged)} "
                         f"reference clusters, {_names(rl[merged])} {_objects(sizes.rows[merged])}",
                f"candidate {cl[j]} merges {len(merged)} clusters",
                tuple(int(i) for i in merged), (int(j),), tuple((int(i), int(j)) for i in merged)))
    for i in _ordered(np.unique(col_home[col_home >= 0]), rl):
        parts = np.flatnonzero(col_home == i)
        if len(parts) >= 2:
            parts = _ordered(parts, cl, dict(zip(parts, c.cell_values(np.full(len(parts), i), parts))))
            shared = c.cell_values(np.full(len(parts), i), parts)
            facts.append(_Fact(
                "split", f"reference cluster {rl[i]} ({_number(sizes.rows[i])} objects) is split: "
                         f"{len(parts)} candidate clusters, {_names(cl[parts])}, are made mostly of it "
                         f"(they share {_names([_number(v) for v in shared])} of its objects)",
                f"reference {rl[i]} split in {len(parts)}",
                (int(i),), tuple(int(j) for j in parts), tuple((int(i), int(j)) for j in parts)))
    return facts


def _mapping(c):
    """The CI mapping the page shows first (centroid-based when there are coordinates) and its index."""
    return (c.centroid_mapping, "ci_centroid", "nearest centroid") if c.has_data else (
        c.jaccard_mapping, "ci_partition", "most similar cluster (Jaccard)")


def _orphans(c) -> _Fact | None:
    mappings, index_id, criterion = _mapping(c)
    lost_cols = _ordered(mappings.forward.orphans, c.col_labels)
    lost_rows = _ordered(mappings.backward.orphans, c.row_labels)
    if not len(lost_cols) and not len(lost_rows):
        return None
    said = []
    if len(lost_cols):
        said.append(f"mapping each reference cluster to its {criterion} leaves {len(lost_cols)} candidate "
                    f"cluster{'s' if len(lost_cols) > 1 else ''} ({_names(c.col_labels[lost_cols])}) with none")
    if len(lost_rows):
        said.append(f"mapping each candidate cluster to its {criterion} leaves {len(lost_rows)} reference "
                    f"cluster{'s' if len(lost_rows) > 1 else ''} ({_names(c.row_labels[lost_rows])}) with none")
    text = (f"CI = {mappings.ci}: " + "; ".join(said) + ". Those are the orphans: clusters placed where the "
            "other partition has none")
    return _Fact("orphans", text, f"CI's {mappings.ci} orphans", tuple(int(i) for i in lost_rows),
                 tuple(int(j) for j in lost_cols), ())


def _name(index_id: str) -> str:
    return {"nmi_sum": "NMI", "ci_centroid": "CI", "ci_partition": "CI"}.get(index_id, index_id.upper())


def _value(index_id: str, values: dict) -> str:
    return format_value(index_id, values[index_id])


def _gaps(c, values: dict, facts: list[_Fact], sizes: _Sizes) -> list[Claim]:
    """The two similarities that differ most, and ARI against PSI, each with the fact that explains
    the gap; or that they agree."""
    shown = [i for i in SIMILARITIES if i in values and math.isfinite(values[i])]
    if len(shown) < 2:
        return []
    high = max(shown, key=lambda i: values[i])
    low = min(shown, key=lambda i: values[i])
    if values[high] - values[low] < AGREEMENT:
        listed = ", ".join(f"{_name(i)} {_value(i, values)}" for i in shown)
        return [Claim("agree", "the indices agree",
                      f"The headline similarities agree to within {AGREEMENT}: {listed}. Whatever each counts "
                      "(pairs, objects or clusters), the errors weigh about alike.",
                      numbers={"gap": values[high] - values[low]})]
    claims = [_gap(c, values, facts, sizes, high, low)]
    if {"ari", "psi"} <= set(shown) and {high, low} != {"ari", "psi"} and \
            abs(values["ari"] - values["psi"]) >= AGREEMENT:
        claims.append(_gap(c, values, facts, sizes, *sorted(("ari", "psi"), key=lambda i: -values[i])))
    return claims


def _gap(c, values: dict, facts: list[_Fact], sizes: _Sizes, high: str, low: str) -> Claim:
    """Why similarity `low` is lower than `high`: the fact that weighs most for the one and least for the other."""
    gap = values[high] - values[low]
    start = f"{_name(low)} ({_value(low, values)}) is lower than {_name(high)} ({_value(high, values)})."
    unit_low, unit_high = WHAT_IT_COUNTS[low], WHAT_IT_COUNTS[high]
    if unit_low == unit_high:  # the same unit: the difference is the correction for chance
        expected = c.expected_mutual_information if "ami" in (low, high) else None
        if expected is not None and {low, high} == {"ami", "nmi_sum"}:
            text = (f"{start} Both count objects; AMI also subtracts the mutual information two random "
                    f"partitions with these cluster sizes share, EMI = {expected:.4f} nats, which is large when "
                    "clusters are many or small.")
            return Claim("disagree", f"{_name(low)} vs {_name(high)}", text, numbers={"gap": gap, "emi": expected})
    weighed = [(fact.weight(unit_low, sizes) - fact.weight(unit_high, sizes), fact) for fact in facts]
    weighed = [(difference, fact) for difference, fact in weighed if difference > 0]
    if not weighed or unit_low == unit_high:
        text = (f"{start} No single merge, split or orphan explains the gap: the differences are spread over "
                f"many cells (colour the cells by {_name(low)} and by {_name(high)} to see where each is made).")
        return Claim("disagree", f"{_name(low)} vs {_name(high)}", text, numbers={"gap": gap})
    _, fact = max(weighed, key=lambda pair: pair[0])
    low_share, high_share = fact.weight(unit_low, sizes), fact.weight(unit_high, sizes)
    text = (f"{start} The decisive fact: {fact.text}. These clusters are {_weight(unit_low, low_share, fact, sizes)} "
            f"{_name(low)} counts, but {_holding(unit_high, high_share, fact, sizes)} {_name(high)} counts.")
    return Claim("disagree", f"{_name(low)} vs {_name(high)}", text, fact.rows, fact.cols, fact.cells,
                 {"gap": gap, f"share of {unit_low}": low_share, f"share of {unit_high}": high_share})


def _weight(unit: str, share: float, fact: _Fact, sizes: _Sizes) -> str:
    if unit == "clusters":
        return (f"{max(len(fact.rows), len(fact.cols))} of the {max(sizes.k_rows, sizes.k_cols)} clusters "
                f"({_percent(share)})")
    return f"{_percent(share)} {UNITS[unit]}"


def _holding(unit: str, share: float, fact: _Fact, sizes: _Sizes) -> str:
    if unit == "clusters":
        return "only " + _weight(unit, share, fact, sizes)
    return f"hold {_percent(share)} {UNITS[unit]}"


def _carried(c, index_id: str) -> Claim | None:
    """The fewest cells that carry most of an index's positive part (from its anatomy of cells)."""
    if not INDICES[index_id].anatomy or (INDICES[index_id].needs_data and not c.has_data):
        return None
    parts = c.contributions(index_id)
    rows, cols, _ = c.cells
    values = np.asarray(parts.cells[rows, cols], dtype=float).ravel()  # dense or sparse alike
    positive = values.clip(min=0)
    total = positive.sum()
    if not total > 0:
        return None
    rl, cl = c.row_labels, c.col_labels
    order = np.lexsort((_ranks(cl)[cols], _ranks(rl)[rows], -positive))
    reached = np.cumsum(positive[order]) / total
    count = min(int(np.searchsorted(reached, CARRIED_SHARE - 1e-12) + 1), MOST_CELLS, int((positive > 0).sum()))
    chosen = order[:count]
    share = float(positive[chosen].sum() / total)
    cells = _names([f"({rl[rows[k]]}, {cl[cols[k]]})" for k in chosen])
    noun = "cell" if count == 1 else f"{count} cells"
    if share >= CARRIED_SHARE:
        text = (f"{_name(index_id)} is carried by {noun} (reference, candidate) {cells}: "
                f"{_percent(share)} of what its cells add.")
    else:
        text = (f"No few cells carry {_name(index_id)}: its {count} largest, (reference, candidate) {cells}, add "
                f"{_percent(share)} of what its cells add; the rest is spread over the other cells.")
    return Claim("carried", f"what carries {_name(index_id)}", text,
                 cells=tuple((int(rows[k]), int(cols[k])) for k in chosen),
                 numbers={"share": share, "cells": count})


def _psi_pairs(c) -> Claim | None:
    """PSI's S, pair by pair: each matched pair adds its Braun–Banquet similarity, at most 1."""
    pairing = c.hungarian_pairing
    k = max(c.k_true, c.k_pred)
    shown = np.asarray(pairing.display_order)  # the pairs that share objects
    if not len(shown):
        return None
    bb = np.asarray(pairing.braun_banquet, dtype=float)
    rl, cl = pairing.row_labels, pairing.col_labels
    order = _ordered(shown, {p: (rl[p], cl[p]) for p in shown}, dict(zip(shown, bb[shown])))
    whole = int(np.sum(bb[shown] >= 0.995))
    rest = order[whole:]
    said = ([f"{whole} pairs found whole add 1 each" if whole > 1 else "1 pair found whole adds 1"]
            if whole else [])
    listed = rest[:4]
    said += [f"({rl[p]}, {cl[p]}) adds {bb[p]:.2f}" for p in listed]
    if len(rest) > len(listed):
        said.append(f"{len(rest) - len(listed)} more pairs add {bb[rest[len(listed):]].sum():.2f}")
    lonely = k - len(shown)
    if lonely:
        said.append(f"{lonely} clusters without a partner sharing objects add 0" if lonely > 1
                    else "1 cluster without a partner sharing objects adds 0")
    total = float(bb[shown].sum())
    text = (f"PSI counts clusters: S = {total:.2f} of a possible max(K, K′) = {k}, where " + "; ".join(said)
            + ", whatever the clusters' sizes.")
    cells = tuple((int(pairing.rows[p]), int(pairing.cols[p])) for p in order)
    return Claim("carried", "what carries PSI", text, cells=cells, numbers={"S": total, "k": k, "whole": whole})


def _what_it_counts(c, sizes: _Sizes) -> Claim:
    """Pairs, objects, clusters: how the largest and the smallest reference cluster weigh for each."""
    rl = c.row_labels
    big, small = int(_ordered(range(c.k_true), rl, sizes.rows)[0]), int(_ordered(range(c.k_true), rl, -sizes.rows)[0])
    r_big, r_small = sizes.rows[big], sizes.rows[small]
    pairs_big, pairs_small = r_big * (r_big - 1) / 2, r_small * (r_small - 1) / 2
    if big == small or r_big == r_small:
        counted = ("whether an index counts pairs of objects (ARI), objects (NMI, AMI, NVD) or clusters "
                   "(PSI, CI).")
        text = (f"There is one reference cluster ({_number(r_big)} objects): no index can weigh one cluster "
                "against another." if c.k_true == 1 else
                f"The {c.k_true} reference clusters all have {_number(r_big)} objects, so they weigh alike {counted}")
        return Claim("counts", "what each index counts", text, rows=tuple(range(c.k_true)))
    pair_ratio = pairs_big / pairs_small if pairs_small > 0 else math.inf
    ratio = "infinitely many times (the small one has no pair)" if math.isinf(pair_ratio) else \
        f"{pair_ratio:,.0f} times"
    text = (f"ARI counts pairs of objects: reference cluster {rl[big]} ({_number(r_big)} objects) holds "
            f"{_number(pairs_big)} pairs, cluster {rl[small]} ({_number(r_small)}) {_number(pairs_small)}, so for "
            f"ARI the first weighs {ratio} the second. NMI, AMI and NVD count objects: "
            f"{r_big / r_small:,.0f} times. PSI and CI count clusters: once each.")
    return Claim("counts", "what each index counts", text, rows=(big, small),
                 numbers={"pair ratio": pair_ratio, "object ratio": float(r_big / r_small)})


def explain(c) -> Explanation:
    """Why the headline indices of comparison `c` (ARI, NMI, AMI, PSI, NVD, CI) differ, in claims.

    Parameters
    ----------
    c : Comparison
        Any comparison: hard or soft, dense or sparse, with or without coordinates.

    Returns
    -------
    Explanation
        The headline values and the claims, in this order: the gap between the two headline
        similarities that differ most and the fact that decides it (or that they agree); the
        cells that carry ARI and PSI; what each index counts, with the largest and smallest
        reference clusters' weights; every merge, split and the CI orphans.
    """
    ids = [i for i in headline_ids() if c.has_data or not INDICES[i].needs_data]
    ids = [i for i in ids if not (i == "ci_partition" and c.has_data)]
    values = c.scores(ids)
    sizes = _Sizes(np.asarray(c.row_sizes, dtype=float), np.asarray(c.col_sizes, dtype=float), float(c.n),
                   c.k_true, c.k_pred)
    facts = _merges_and_splits(c, sizes)
    orphans = _orphans(c)
    if orphans is not None:
        facts.append(orphans)
    claims = [*_gaps(c, values, facts, sizes), _carried(c, "ari"), _psi_pairs(c), _what_it_counts(c, sizes)]
    claims += [Claim(fact.kind, fact.title, fact.text[:1].upper() + fact.text[1:] + ".", fact.rows, fact.cols,
                     fact.cells) for fact in facts]
    return Explanation(values, tuple(claim for claim in claims if claim is not None))
