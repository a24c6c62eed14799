"""A comparison flattened into plain data for display: tables, pairing, mappings, scores.

The app caches these reports (``st.cache_data`` pickles what it stores, so a lazily filled
:class:`Comparison` would lose its work); every number in a report comes from the
comparison object, so what is shown equals what the library computes.

>>> from cluval_core import compare
>>> r = build_report(compare([0, 0, 1, 1, 2], [5, 5, 6, 6, 6]))
>>> r.psi_steps["S"], r.table_ordered.tolist()
(1.6666666666666665, [[2, 0], [0, 2], [0, 1]])
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .comparison import Comparison
from .registry import FAMILIES, INDICES

__all__ = ["ComparisonReport", "build_report", "score_table", "format_value"]

COUNT_INDICES = {"ci_partition", "ci_centroid"}


def format_value(index_id: str, value: float) -> str:
    """A value for display: counts as whole numbers, the rest to 4 decimals (NaN as 'undefined').

    >>> format_value("ci_partition", 3.0), format_value("psi", 0.5), format_value("ari", float("nan"))
    ('3', '0.5', 'undefined')
    """
    if value != value:
        return "undefined"
    if index_id in COUNT_INDICES:
        return f"{value:.0f}"
    return f"{value:.4f}".rstrip("0").rstrip(".")


@dataclass(frozen=True, eq=False)
class ComparisonReport:
    n: float
    k_true: int
    k_pred: int
    table: np.ndarray
    row_labels: np.ndarray
    col_labels: np.ndarray
    row_sizes: np.ndarray
    col_sizes: np.ndarray
    row_order: np.ndarray  # reference clusters: Hungarian pairs first, then unpaired
    col_order: np.ndarray  # candidate clusters: their partners in the same order, then unpaired
    n_pairs: int
    pairing: pd.DataFrame
    unpaired_reference: list
    unpaired_candidate: list
    psi_steps: dict
    mappings: dict  # basis ("partition" / "centroid") -> {"true->pred": frame, "pred->true": frame, ...}
    scores: dict
    score_table: pd.DataFrame
    partner_of_candidate: np.ndarray  # for each candidate cluster, its paired reference index or -1
    row_codes: np.ndarray | None
    col_codes: np.ndarray | None
    centroids_true: np.ndarray | None
    centroids_pred: np.ndarray | None

    @property
    def table_ordered(self) -> np.ndarray:
        """The table with rows and columns ordered so the Hungarian pairs lie on the diagonal."""
        return self.table[np.ix_(self.row_order, self.col_order)]

    def contingency_frame(self) -> pd.DataFrame:
        """The ordered table with cluster labels and both marginals, ready to save."""
        rows = [str(self.row_labels[i]) for i in self.row_order]
        cols = [str(self.col_labels[j]) for j in self.col_order]
        frame = pd.DataFrame(self.table_ordered, index=pd.Index(rows, name="reference \\ candidate"),
                             columns=cols)
        frame["total"] = self.row_sizes[self.row_order]
        frame.loc["total"] = [*self.col_sizes[self.col_order], self.n]
        return frame


def score_table(scores: dict) -> pd.DataFrame:
    """The registry's facts next to each value, grouped by family."""
    rows = []
    for index_id, value in scores.items():
        info = INDICES[index_id]
        rows.append({
            "family": FAMILIES[info.family], "index": info.name, "id": index_id, "value": value,
            "range": f"[{info.range[0]:g}, {info.range[1]:g}]", "best": info.best,
            "better": "higher" if info.higher_is_better else "lower",
            "chance adjusted": info.chance_adjusted, "symmetric": info.symmetric, "formula": info.formula,
        })
    return pd.DataFrame(rows)


def _mapping_frames(c: Comparison, basis: str) -> dict:
    forward, backward = c.jaccard_mapping if basis == "partition" else c.centroid_mapping
    ci = max(forward.n_orphans, backward.n_orphans)
    if forward.n_orphans == backward.n_orphans:
        direction = "both directions"
    elif forward.n_orphans > backward.n_orphans:
        direction = "reference → candidate"
    else:
        direction = "candidate → reference"
    return {
        "true->pred": forward.to_frame(), "pred->true": backward.to_frame(),
        "forward_targets": forward.targets.copy(), "backward_targets": backward.targets.copy(),
        "orphans_pred": forward.orphans.copy(), "orphans_true": backward.orphans.copy(),
        "in_degree_pred": forward.in_degree.copy(), "in_degree_true": backward.in_degree.copy(),
        "ci": ci, "direction": direction,
    }


def _psi_steps(c: Comparison) -> dict:
    s = c.hungarian_pairing.total
    e = c.psi_expected
    k = max(c.k_true, c.k_pred)
    psi = c.score("psi")
    if c.k_true == c.k_pred == 1:
        formula = "K = K' = 1, so PSI = 1"
    elif s < e:
        formula = f"S = {s:.4f} < E = {e:.4f}, so PSI = 0"
    else:
        formula = f"PSI = (S − E) / (max(K, K') − E) = ({s:.4f} − {e:.4f}) / ({k} − {e:.4f}) = {psi:.4f}"
    return {"S": s, "E": e, "max_k": k, "psi": psi, "psi_simplified": c.score("psi_simplified"),
            "formula": formula}


def build_report(c: Comparison, ids=None) -> ComparisonReport:
    """Everything the app shows about one comparison, as plain arrays and frames."""
    pairing = c.hungarian_pairing
    order = np.argsort(-pairing.overlap, kind="stable")
    rows = np.r_[pairing.rows[order], pairing.unpaired_rows].astype(np.intp)
    cols = np.r_[pairing.cols[order], pairing.unpaired_cols].astype(np.intp)
    partner = np.full(c.k_pred, -1)
    partner[pairing.cols] = pairing.rows
    frame = pairing.to_frame().iloc[order].reset_index(drop=True)
    frame.insert(0, "pair", np.arange(1, len(frame) + 1))
    scores = c.scores(ids)
    mappings = {"partition": _mapping_frames(c, "partition")}
    codes = c.codes if c.has_objects else (None, None)
    cent = (None, None)
    if c.has_data:
        mappings["centroid"] = _mapping_frames(c, "centroid")
        cent = c.centroids
    return ComparisonReport(
        n=c.n, k_true=c.k_true, k_pred=c.k_pred, table=np.asarray(c.table), row_labels=np.asarray(c.row_labels),
        col_labels=np.asarray(c.col_labels), row_sizes=np.asarray(c.row_sizes), col_sizes=np.asarray(c.col_sizes),
        row_order=rows, col_order=cols, n_pairs=len(pairing), pairing=frame,
        unpaired_reference=c.row_labels[pairing.unpaired_rows].tolist(),
        unpaired_candidate=c.col_labels[pairing.unpaired_cols].tolist(),
        psi_steps=_psi_steps(c), mappings=mappings, scores=scores, score_table=score_table(scores),
        partner_of_candidate=partner, row_codes=codes[0], col_codes=codes[1],
        centroids_true=cent[0], centroids_pred=cent[1],
    )
