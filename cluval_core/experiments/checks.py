"""What every paper reproduction shares: the experiment and result types, the checkable claim
with its verdict, progress reporting, and the published tables kept beside the papers.

A claim compares a computed value with the published one within a tolerance; the checks
table shows it for people (index names, ``±0.01`` or ``exact``), with the likely reason
beside every claim that differs.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from ..core.validation import CluvalError
from ..data.datasets import available_datasets, catalogue

__all__ = ["WITHIN", "DIFFERS", "CHECK_COLUMNS", "Progress", "Experiment", "ExperimentResult", "check", "checks_frame",
           "format_tolerance", "shown", "report", "published", "published_tables"]

WITHIN, DIFFERS = "within tolerance", "differs"
CHECK_COLUMNS = ["claim", "published", "computed", "tolerance", "verdict", "likely reason"]
Progress = Callable[[float, str], None] | None


@dataclass(frozen=True, eq=False)
class ExperimentResult:
    """What an experiment returns.

    Attributes
    ----------
    values : pandas.DataFrame
        Tidy frame of computed values (index ids as columns; the published values beside
        them, as ``published <id>``, where the paper prints them).
    checks : pandas.DataFrame
        One row per checkable claim, columns :data:`CHECK_COLUMNS`, ready to show.
    figure : plotly.graph_objects.Figure
        Plotly figure of the values (built by :mod:`cluval_core.outputs.plots.experiments`).
    notes : list of str
        Sentences on the settings of this run.
    """

    values: pd.DataFrame
    checks: pd.DataFrame
    figure: go.Figure
    notes: list = field(default_factory=list)


@dataclass(frozen=True)
class Experiment:
    """One reproduction: what it is, how to run it, and the benchmark data sets it needs."""

    name: str
    title: str
    source: str
    description: str
    run: Callable  # (full: bool, progress) -> ExperimentResult
    full_seconds: float  # the full run's wall time measured on a 2-core machine
    reduced: str  # what the reduced (default) form leaves out
    datasets: tuple[str, ...] = ()  # benchmark sets (cluval_core.datasets names) the experiment loads

    def missing_datasets(self, available=None) -> list[str]:
        """The declared data sets without a verified local copy, in declaration order.

        `available` is the list of available names (default:
        :func:`cluval_core.datasets.available_datasets`, which downloads nothing).
        """
        if available is None:
            available = available_datasets()
        have = set(available)
        return [name for name in self.datasets if name not in have]

    def facts(self, *, full: bool = False) -> dict:
        """What a file of this experiment's results says about where it comes from: the
        experiment, the paper, the table or figure it recomputes, the data sets and the form
        that ran (pass it to :func:`cluval_core.outputs.export.provenance`).

        >>> e = Experiment("x", "Rand (1971), Table 1", "Rand 1971", "", None, 1.0, "2 seeds", ("s1",))
        >>> e.facts()
        {'experiment': 'x', 'paper': 'Rand 1971', 'reproduces': 'Rand (1971), Table 1', \
'data sets': 'S1 (s1)', 'form': 'reduced: 2 seeds'}
        """
        titles = catalogue()["datasets"]
        data = (", ".join(f"{titles[n]['title']} ({n})" for n in self.datasets) if self.datasets
                else "none loaded: the experiment generates its partitions")
        return {"experiment": self.name, "paper": self.source, "reproduces": self.title, "data sets": data,
                "form": "full (the paper's settings)" if full else f"reduced: {self.reduced}"}

    @staticmethod
    def fetch_command(missing) -> str:
        """The command that downloads the given data sets: ``cluval datasets fetch unbalance yeast``."""
        return " ".join(["cluval datasets fetch", *missing])


def shown(value) -> str:
    """A published or computed value as text: yes/no for a truth value, else 6 significant digits."""
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    value = float(value)
    return f"{value:.2g}" if 0 < abs(value) < 1e-9 else f"{value:.6g}"  # rounding noise: 2.2e-16


def format_tolerance(tolerance: float) -> str:
    """A tolerance for people: ``exact`` for 0, else ``±`` and the shortest form.

    >>> format_tolerance(0), format_tolerance(1e-12), format_tolerance(0.01), format_tolerance(0.5)
    ('exact', '±1e-12', '±0.01', '±0.5')
    """
    tolerance = float(tolerance)
    return "exact" if tolerance == 0 else f"±{tolerance:g}"


def check(claim: str, published, computed, tolerance: float, why: str = "") -> dict:
    """One checkable claim: the verdict compares ``|computed - published|`` with the tolerance.

    Values are kept as text so that yes/no claims and numbers share one column; `why` (the
    likely reason) is shown only when the claim differs.

    >>> row = check("PSI of identical partitions", 1.0, 0.97, 0.01, "rounding")
    >>> row["verdict"], row["tolerance"], row["likely reason"]
    ('differs', '±0.01', 'rounding')
    >>> check("k = 8 is the most stable", True, True, 0)["tolerance"]
    'exact'
    """
    if isinstance(published, (bool, np.bool_)) or isinstance(computed, (bool, np.bool_)):
        ok = bool(published) == bool(computed)
    else:
        ok = bool(np.isfinite(computed)) and abs(float(computed) - float(published)) <= tolerance
    return {"claim": claim, "published": shown(published), "computed": shown(computed),
            "tolerance": format_tolerance(tolerance), "verdict": WITHIN if ok else DIFFERS,
            "likely reason": "" if ok else why}


def checks_frame(rows) -> pd.DataFrame:
    """The checks table: rows from :func:`check`, columns in :data:`CHECK_COLUMNS` order."""
    return pd.DataFrame(list(rows), columns=CHECK_COLUMNS)


def report(progress: Progress, fraction: float, message: str) -> None:
    """Tell `progress` (if any) how far the run is, as a fraction in [0, 1]."""
    if progress is not None:
        progress(min(max(fraction, 0.0), 1.0), message)


# ---------------------------------------------------------------------- published tables
_TABLES = resources.files(__package__) / "published"


def published_tables() -> list[str]:
    """Names of the published tables shipped with cluval (``psi_table6``, ...)."""
    return sorted(p.name[:-4] for p in _TABLES.iterdir() if p.name.endswith(".csv"))


@functools.cache
def _read(name: str) -> pd.DataFrame:
    with (_TABLES / f"{name}.csv").open(encoding="utf-8") as handle:
        return pd.read_csv(handle, comment="#")


def published(name: str) -> pd.DataFrame:
    """A table as the paper prints it, from ``cluval_core/experiments/published/<name>.csv``
    (the file's comment lines say where it comes from). A fresh copy on every call.

    >>> published("psi_table7")
       K   ari  nmi_sum  1-nvd   psi
    0  9  1.00     0.99   1.00  0.88
    1  8  0.99     0.97   0.98  0.74
    2  7  0.97     0.93   0.97  0.60
    """
    if name not in published_tables():
        raise CluvalError(f"unknown published table {name!r}; known: {', '.join(published_tables())}")
    return _read(name).copy()
