"""Lei et al. (2017), "Extending information-theoretic validity indices for fuzzy clustering".

Fig. 1 and Table IV: how often each soft index picks the true number of clusters among
fuzzy c-means partitions; and :func:`soft_versus_crisp`, a crisp reference against a soft
candidate with every index on the soft table and on the hardened one.

The published Table IV is :data:`TABLE4` (``published/lei_table4.csv``): one row per data
set, one column per index in the paper's notation (:data:`LEI_INDICES` maps them to ids).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..algorithms.clustering import fuzzy_c_means
from ..core.comparison import Comparison
from ..core.contingency import factorize
from ..core.labels import compare
from ..core.registry import INDICES
from ..data.datasets import load_dataset
from ..data.synthetic import LEI_GROUPS, lei_set
from ..outputs.plots.experiments import index_label, success_rate_bars
from .checks import Experiment, ExperimentResult, Progress, check, checks_frame, published, report

__all__ = ["EXPERIMENTS", "LEI_INDICES", "SOFT_INDICES", "TABLE4", "fig1_table4", "soft_versus_crisp"]

# the paper's notation -> cluval's index id, in Table IV's column order
LEI_INDICES = {"NMI_sM": "nmi_max", "RI_s": "ri", "ARI_s": "ari", "NMI_sj": "nmi_joint", "NMI_ss": "nmi_sum",
               "NMI_sr": "nmi_sqrt", "VI_s": "vi", "MI_s": "mi", "NMI_sm": "nmi_min"}
TABLE4 = published("lei_table4")  # data, NMI_sM, RI_s, ... (success rates as shares)
SOFT_INDICES = ["nmi_sum", "nmi_sqrt", "nmi_max", "nmi_min", "nmi_joint", "vi", "nvi", "ri", "ari", "psi"]


def _one_hot(labels):
    """Crisp labels as a membership matrix, and the cluster names of its columns."""
    codes, names = factorize(np.asarray(labels))
    U = np.zeros((len(codes), len(names)))
    U[np.arange(len(codes)), codes] = 1.0
    return U, names


def soft_versus_crisp(labels_true, memberships, ids=None, *, first_label: int = 0):
    """A crisp reference against a soft candidate: the soft table N* = U^T V (U one-hot) and the
    hardened one (each object to its largest membership), and each index on both.

    The candidate's clusters (the columns of `memberships`) are numbered from `first_label`
    in both tables (1 for display).

    Returns ``(soft comparison, hardened comparison, frame)``; the frame has one row per
    index with its soft value, its crisp value and their difference.

    N* = [[1.5, 0.5], [0.2, 1.8]]: a = 0.89, b = 1.11, c = 1.2, d = 2.8 pairs, so soft ARI = 2(ad - bc)/16.18.

    >>> V = [[0.9, 0.1], [0.6, 0.4], [0.2, 0.8], [0.0, 1.0]]
    >>> soft, hard, frame = soft_versus_crisp([0, 0, 1, 1], V, ["ari"])
    >>> hard.score("ari"), round(soft.score("ari"), 4)
    (1.0, 0.1434)
    >>> [c.col_labels.tolist() for c in soft_versus_crisp([0, 0, 1, 1], V, ["ari"], first_label=1)[:2]]
    [[1, 2], [1, 2]]
    """
    ids = list(ids or SOFT_INDICES)
    V = np.asarray(memberships, dtype=float)
    U, names = _one_hot(labels_true)
    columns = np.arange(first_label, first_label + V.shape[1])
    # the same cluster names in both tables
    soft = Comparison.from_memberships(U, V, row_labels=names, col_labels=columns)
    hard = compare(labels_true, columns[V.argmax(axis=1)])
    rows = [{"index": INDICES[i].name, "id": i, "soft": soft.score(i), "crisp (hardened)": hard.score(i)}
            for i in ids]
    frame = pd.DataFrame(rows)
    frame["soft - crisp"] = frame["soft"] - frame["crisp (hardened)"]
    return soft, hard, frame


def _success_rates(X, truth, c_true, runs):
    wins = {name: 0 for name in LEI_INDICES}
    U, _ = _one_hot(truth)
    for run in range(runs):
        by_c = {}
        for c in range(2, 3 * c_true + 1):
            V, _, _ = fuzzy_c_means(X, c, seed=run * 100 + c)
            soft = Comparison.from_memberships(U, V)
            by_c[c] = soft.scores(list(LEI_INDICES.values()))
        for name, index_id in LEI_INDICES.items():
            values = {c: s[index_id] for c, s in by_c.items()}
            best = min(values, key=values.get) if index_id == "vi" else max(values, key=values.get)
            wins[name] += best == c_true
    return {name: w / runs for name, w in wins.items()}


REAL_SETS = ("iris", "wine")  # the Table IV data sets cluval has


def fig1_table4(full: bool = False, progress: Progress = None) -> ExperimentResult:
    """Lei et al. (2017), Fig. 1 and Table IV: how often each soft index picks the true number of
    clusters among fuzzy c-means partitions with c = 2..3 c_true."""
    runs = 100 if full else 3
    paper = TABLE4.assign(key=TABLE4["data"].str.lower()).set_index("key")
    sets = [(f"{group} #{i}", *lei_set(group, i, seed=i)) for group, count in LEI_GROUPS.items()
            for i in ([1, count] if not full else range(1, count + 1)) if not (group == "G4" and i > 5)]
    rows = []
    for j, (name, X, truth) in enumerate(sets):
        rows.append({"data": name, **_success_rates(X, truth, 5, runs)})
        report(progress, (j + 1) / (len(sets) + 2), name)
    for name in REAL_SETS:
        ds = load_dataset(name)
        X = (ds.X - ds.X.mean(axis=0)) / ds.X.std(axis=0)  # z-scores: the published rates match these
        rates = _success_rates(X, ds.labels, ds.k, runs)
        rows.append({"data": name, **rates, **{f"published {k}": paper.loc[name, k] for k in LEI_INDICES}})
    report(progress, 1.0, "done")
    values = pd.DataFrame(rows)
    checks = []
    for name in REAL_SETS:
        row = values[values["data"] == name].iloc[0]
        for notation, index_id in LEI_INDICES.items():
            checks.append(check(f"{name}: success rate of {index_label(index_id)} ({notation})",
                                row[f"published {notation}"], row[notation], 0.2 if runs >= 20 else 0.5,
                                f"FCM's random starts differ from the paper's; {runs} runs give a coarse rate"))
    fig = success_rate_bars(values, LEI_INDICES)
    return ExperimentResult(values, checks_frame(checks), fig,
                            [f"{runs} FCM runs per data set and c (m = 2); Iris and Wine as z-scores (on the raw "
                             "features Wine's proline dominates and the rates differ); G4 is limited to n <= 10 000."])


EXPERIMENTS = [
    Experiment("lei_soft", "Lei et al. (2017), Fig. 1 and Table IV", "Lei et al. 2017",
               "Fuzzy c-means on G1–G4, Iris and Wine, c = 2..3 c_true: how often each soft index picks c_true.",
               fig1_table4, 1173, "3 runs per c, two sets per group", datasets=REAL_SETS),
]
