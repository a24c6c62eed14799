"""Chance and uncertainty of every index, on S1 against k-means (15 x 15) and on a 50 x 50 table, in one run.

Targets (issue: fast at every shape of table):

* ``chance`` for all indices with 1 000 random tables under 1 s on S1 against k-means and
  under 5 s on a 50 x 50 table (N = 1e5);
* the exact jackknife for all indices under 1 s on S1 and under 2 s at N = 1e5, K = 50;
* the fixed cost of ``scores()`` (every index of a fresh comparison of S1's 15 x 15 table)
  under 1 ms, so that loops over many small tables are not dominated by overhead.

Then the budget that guards ``chance`` and ``uncertainty`` (issue: fast at every shape): its
estimate of the whole work, made from the first evaluations (read from the message of a run
with a budget too small to finish), against the time the whole work then takes without a
budget, on S1, on a 50 x 50 table and for the jackknife at N = 1e5, K = 50: within a factor of
1.5, so that nothing feasible is refused.

No peer computes either for more than one index, so the times are reported as they are, with
the single-index cost beside them for scale: scikit-learn's ``adjusted_rand_score`` on the
same labels, repeated once per random table (what a permutation test of ARI alone costs with
scikit-learn), and each time over that one, which says how fast the machine was. Medians of
several runs; the expectation of the cluster sizes is cleared before each run so that nothing
is reused between runs.

Usage::

    CLUVAL_DATA_DIR=... python benchmarks/bench_chance.py
"""

from __future__ import annotations

import argparse
import math
import re
import time

import numpy as np
from sklearn.metrics import adjusted_rand_score

from cluval_core import CluvalError, Comparison, compare
from cluval_core.algorithms.clustering import cluster
from cluval_core.data.datasets import load_dataset
from timing import forget, timed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--samples", type=int, default=1000)
    args = parser.parse_args()
    data = load_dataset("s1")
    labels = data.labels
    candidate = cluster(data.X, "kmeans", 15, seed=0).labels
    c = compare(labels, candidate)
    print(f"S1 (N = {c.n}) against k-means, a {c.k_true} x {c.k_pred} table with {len(c.cells.values)} non-empty "
          f"cells; all {len(c.scores())} indices; medians of {args.repeats} runs")

    rng = np.random.default_rng(1)
    wide_a, wide_b = rng.integers(0, 50, 100_000), rng.integers(0, 50, 100_000)

    def chance(a, b):
        def run():
            forget()
            compare(a, b).chance(n_samples=args.samples, seed=0)
        return run

    def jackknife(a, b):
        def run():
            forget()
            compare(a, b).uncertainty(budget=math.inf)
        return run

    table = np.asarray(c.table)

    def scores():  # a fresh comparison of the table each time: nothing is kept between calls
        for _ in range(200):
            Comparison.from_table(table).scores()

    permutation_rng = np.random.default_rng(0)

    def sklearn_permutations():
        for _ in range(args.samples):
            adjusted_rand_score(labels, permutation_rng.permutation(candidate))

    rows = [(f"chance, all indices, {args.samples} random tables, S1", timed(chance(labels, candidate), args.repeats),
             1.0, "s"),
            (f"chance, all indices, {args.samples} random tables, 50 x 50 (N = 1e5)",
             timed(chance(wide_a, wide_b), args.repeats), 5.0, "s"),
            ("jackknife, all indices, S1", timed(jackknife(labels, candidate), args.repeats), 1.0, "s"),
            ("jackknife, all indices, 50 x 50 (N = 1e5)", timed(jackknife(wide_a, wide_b), args.repeats), 2.0, "s"),
            ("scores(), all indices of a fresh comparison of S1's table, per call", timed(scores, args.repeats) * 5,
             1.0, "ms"),
            (f"for scale: scikit-learn ARI alone on {args.samples} permutations of S1",
             timed(sklearn_permutations, args.repeats), None, "s")]
    scale = rows[-1][1]  # the machine's pace, for reading the times: each against the scikit-learn loop
    print("| work | time | / scikit-learn's ARI on the permutations | target |")
    print("|---|---|---|---|")
    for name, value, target, unit in rows:
        verdict = "-" if target is None else f"under {target:g} {unit}: {'met' if value < target else 'NOT met'}"
        against = f"{value / scale:.2f}" if unit == "s" else "-"
        print(f"| {name} | {value:.2f} {unit} | {against} | {verdict} |")
    budget_estimates(labels, candidate, wide_a, wide_b, args.samples)


ESTIMATE = re.compile(r"about ([\d.]+) (s|min|h) \(measured on the first ([\d,]+)\)")


def _estimate(work) -> tuple[float, int]:
    """The budget's estimate of `work(budget)` (seconds) and the evaluations it was made from."""
    try:
        work(1e-6)
    except CluvalError as error:
        found = ESTIMATE.search(str(error))
        if found:
            value, unit, done = found.groups()
            return float(value) * {"s": 1, "min": 60, "h": 3600}[unit], int(done.replace(",", ""))
        raise
    raise RuntimeError("the work finished within a budget of a microsecond")


def budget_estimates(labels, candidate, wide_a, wide_b, samples: int) -> None:
    jobs = [(f"chance, all indices, {samples} tables, S1 vs k-means",
             lambda budget: compare(labels, candidate).chance(n_samples=samples, seed=0, budget=budget)),
            (f"chance, all indices, {samples} tables, a 50 x 50 table (N = 1e5)",
             lambda budget: compare(wide_a, wide_b).chance(n_samples=samples, seed=0, budget=budget)),
            ("jackknife, all indices, N = 1e5, K = 50",
             lambda budget: compare(wide_a, wide_b).uncertainty(budget=budget))]
    print()
    print("| the budget's estimate, from the first evaluations | estimated s | from | took s | ratio | within 1.5 |")
    print("|---|---|---|---|---|---|")
    for name, work in jobs:
        forget()
        estimate, done = _estimate(work)
        forget()
        start = time.perf_counter()
        work(math.inf)
        took = time.perf_counter() - start
        ratio = max(estimate, took) / min(estimate, took)
        print(f"| {name} | {estimate:.2f} | {done:,} evaluations | {took:.2f} | {ratio:.2f} | "
              f"{'met' if ratio <= 1.5 else 'NOT met'} |")


if __name__ == "__main__":
    main()
