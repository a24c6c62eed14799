"""Rand (1971), "Objective criteria for the evaluation of clustering methods", Table 1.

Each printed closed form of the Rand index after a modification of k clusters of n points,
against the index of the constructed partitions. One entry is misprinted; its corrected
form is checked too.
"""

from __future__ import annotations

import pandas as pd

from ..core.labels import compare
from ..core.registry import INDICES
from ..data.synthetic import RAND_MODIFICATIONS, rand_modification
from ..outputs.plots.experiments import formula_check
from .checks import Experiment, ExperimentResult, Progress, check, checks_frame, report

__all__ = ["EXPERIMENTS", "PRINTED", "CORRECTED", "table1"]

# Table 1 as printed (formula text) and the same formula as a function of (k, n)
PRINTED = {
    "join_two": ("((k^2-2)n - k)/(k^2 n - k)", lambda k, n: ((k * k - 2) * n - k) / (k * k * n - k)),
    "split_half": ("((2k^2-1)n - 2k)/(2k^2 n - 2k)",
                   lambda k, n: ((2 * k * k - 1) * n - 2 * k) / (2 * k * k * n - 2 * k)),
    "split_singletons": ("((k^2-1)n - k + 1)/(k^2 n - k)", lambda k, n: ((k * k - 1) * n - k + 1) / (k * k * n - k)),
    "one_from_each": ("(kn - 3n - k + 3)/(kn^2 - n)", lambda k, n: (k * n - 3 * n - k + 3) / (k * n * n - n)),
    "move_point": ("(k^2 n - k - 4)/(k^2 n - k)", lambda k, n: (k * k * n - k - 4) / (k * k * n - k)),
    "split_different": ("((k^2-1)n - k)/(k^2 n - k)", lambda k, n: ((k * k - 1) * n - k) / (k * k * n - k)),
    "join_different": ("((k^2-4)n - k)/(k^2 n - k)", lambda k, n: ((k * k - 4) * n - k) / (k * k * n - k)),
    "join_all": ("(n - 1)/(kn - 1)", lambda k, n: (n - 1) / (k * n - 1)),
    "split_all": ("(k - 1)n/(kn - 1)", lambda k, n: ((k - 1) * n) / (k * n - 1)),
    "transpose": ("(k - 1)(n - 1)/(kn - 1)", lambda k, n: ((k - 1) * (n - 1)) / (k * n - 1)),
}
CORRECTED = {"one_from_each": ("(kn^2 - 3n - k + 3)/(kn^2 - n)",
                               lambda k, n: (k * n * n - 3 * n - k + 3) / (k * n * n - n))}


def table1(full: bool = False, progress: Progress = None) -> ExperimentResult:
    """Rand (1971), Table 1: every closed form against the Rand index of constructed partitions."""
    ks = range(3, 11) if full else (3, 5, 10)
    ns = range(5, 51) if full else (6, 10, 24, 50)
    rows = []
    for kind, (printed, formula) in PRINTED.items():
        for k in ks:
            for n in ns:
                if (kind in ("split_half", "split_different") and n % 2) or (kind == "join_different" and k < 4):
                    continue
                computed = compare(*rand_modification(kind, k, n)).score("ri")
                row = {"modification": RAND_MODIFICATIONS[kind], "kind": kind, "k": k, "n": n, "computed RI": computed,
                       "printed formula": printed, "printed value": formula(k, n)}
                if kind in CORRECTED:
                    row["corrected formula"], row["corrected value"] = CORRECTED[kind][0], CORRECTED[kind][1](k, n)
                rows.append(row)
    values = pd.DataFrame(rows)
    report(progress, 1.0, "done")
    checks = []
    for kind, (printed, _) in PRINTED.items():
        part = values[values["kind"] == kind]
        deviation = float((part["computed RI"] - part["printed value"]).abs().max())
        checks.append(check(f"{RAND_MODIFICATIONS[kind]}: {printed} (max deviation over {len(part)} (k, n))", 0.0,
                            deviation, 1e-12, "misprinted: the numbers support the corrected form "
                            + CORRECTED.get(kind, ("",))[0]))
        if kind in CORRECTED:
            corrected = float((part["computed RI"] - part["corrected value"]).abs().max())
            checks.append(check(f"{RAND_MODIFICATIONS[kind]}: corrected {CORRECTED[kind][0]}", 0.0, corrected, 1e-12))
    wrong = values[values["kind"] == "one_from_each"]
    fig = formula_check(wrong, {"computed RI": f"{INDICES['ri'].name}, computed",
                                "printed value": f"printed {PRINTED['one_from_each'][0]}",
                                "corrected value": f"corrected {CORRECTED['one_from_each'][0]}"},
                        title=f"'{RAND_MODIFICATIONS['one_from_each']}': the printed formula against the corrected one")
    return ExperimentResult(values, checks_frame(checks), fig,
                            ["Pairs that disagree: C(k, 2) among the moved points and k(n - 1) between each moved "
                             "point and its old cluster, so c = 1 - (k + 2n - 3)/(kn^2 - n)."])


EXPERIMENTS = [
    Experiment("rand_table1", "Rand (1971), Table 1", "Rand 1971",
               "Every closed form against the Rand index of constructed partitions; one printed entry is wrong.",
               table1, 2, "3 values of k and 4 of n"),
]
