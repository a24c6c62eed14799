"""Experiments from the papers, each returning a tidy DataFrame of computed values.

These power the app's teaching pages (scenario curves, the PSI-versus-ARI demonstrations)
and the reproduction of the papers' tables and figures. One module per paper:

- :mod:`~cluval_core.experiments.psi_paper`: Rezaei & Fränti (2016), sections 7.2-7.7,
  Tables 6 and 7, Fig. 25;
- :mod:`~cluval_core.experiments.centroid_index_paper`: Fränti, Rezaei & Zhao (2014);
- :mod:`~cluval_core.experiments.rand_1971`: Rand (1971), Table 1;
- :mod:`~cluval_core.experiments.lei_soft`: Lei et al. (2017), Fig. 1 and Table IV, and soft
  against crisp comparisons;

and :mod:`~cluval_core.experiments.checks`, the claim-and-verdict machinery they share.
:mod:`~cluval_core.experiments.lessons` holds the app's guided lessons (texts, example tables and
questions, every number computed from a comparison). The
papers' tables live once, as CSV files in ``published/``, read with :func:`published`
(``published("psi_table6")``) or as the paper module's ``TABLE6``, ``TABLE7``, ``TABLE4``.
Figures are built by :mod:`cluval_core.plots.experiments`.

Each experiment is an :class:`Experiment` in :data:`EXPERIMENTS`, declaring the benchmark
data sets it needs (:attr:`Experiment.datasets`, :meth:`Experiment.missing_datasets`).
"""

from __future__ import annotations

from ..core.validation import CluvalError
from . import centroid_index_paper, lei_soft, psi_paper, rand_1971
from .checks import (
    CHECK_COLUMNS,
    DIFFERS,
    WITHIN,
    Experiment,
    ExperimentResult,
    Progress,
    check,
    format_tolerance,
    published,
    published_tables,
)
from .lei_soft import SOFT_INDICES, soft_versus_crisp
from .psi_paper import (
    LABEL_INDICES,
    PAPER_INDICES,
    algorithms_on,
    remove_smallest_classes,
    scenario_chance,
    scenario_curve,
    sparse_cluster_curve,
)

__all__ = ["EXPERIMENTS", "Experiment", "ExperimentResult", "run_experiment", "soft_versus_crisp", "SOFT_INDICES",
           "scenario_curve", "scenario_chance", "algorithms_on", "sparse_cluster_curve", "remove_smallest_classes",
           "PAPER_INDICES",
           "LABEL_INDICES", "WITHIN", "DIFFERS", "CHECK_COLUMNS", "check", "format_tolerance", "published",
           "published_tables", "Progress"]

# in the order the app and `cluval experiments list` show them
EXPERIMENTS = {e.name: e for e in [*psi_paper.EXPERIMENTS, *centroid_index_paper.EXPERIMENTS,
                                   *rand_1971.EXPERIMENTS, *lei_soft.EXPERIMENTS]}


def run_experiment(name: str, *, full: bool = False, progress: Progress = None) -> ExperimentResult:
    """Run the experiment `name` (a key of :data:`EXPERIMENTS`): its reduced form, or the paper's
    full settings with ``full=True``.

    >>> result = run_experiment("rand_table1")
    >>> result.checks.loc[0, ["published", "tolerance", "verdict"]].tolist()
    ['0', '±1e-12', 'within tolerance']
    """
    try:
        experiment = EXPERIMENTS[name]
    except KeyError:
        raise CluvalError(f"unknown experiment {name!r}; known: {', '.join(EXPERIMENTS)}") from None
    return experiment.run(full, progress)
