"""The time left of long work (cluval_core.core.progress), the weights of a stability curve's
runs, and the native threads a clustering run uses."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from threadpoolctl import threadpool_info

from cluval_core.algorithms import clustering, stability
from cluval_core.core.progress import Remaining, seconds_text


def _clock(times):
    return iter(times).__next__


def test_the_pace_is_measured_from_the_first_report():
    left = Remaining(clock=_clock([0.0, 10.0, 12.0]))  # 10 s of setting up before the first step
    assert left.seconds(0.2) is None  # the first report: no pace yet
    assert left.seconds(0.6) == pytest.approx(2.0 * 0.4 / 0.4)  # 40 % in 2 s: 40 % left, 2 s


def test_the_estimate_is_withheld_early_late_and_when_short():
    left = Remaining(least=0.25, wait=1.0, shortest=2.0, clock=_clock([0.0, 0.1, 0.5, 0.6, 3.0, 9.0, 10.0]))
    assert left.seconds(0.05) is None  # first report
    assert left.seconds(0.5) is None  # only 0.5 s since the start: less than `wait`
    assert left.seconds(0.2) is None  # less than `least` done
    assert left.text(0.3) == "about 8.1 s left"  # 25 % in 2.9 s since the first report: 70 % left, 8.12 s
    assert left.text(0.9) == ""  # 85 % in 8.9 s: 10 % left is 1.05 s, under `shortest`
    assert left.seconds(1.0) is None


def test_weights_count_the_work_by_its_cost():
    left = Remaining([1, 1, 2], clock=_clock([0.0, 1.0, 3.0]))
    assert [left.of_steps(done, 3) for done in range(4)] == [0.0, 0.25, 0.5, 1.0]
    assert left.of_steps(1, 5) == 0.2  # another number of steps than weights: counted evenly
    assert left.seconds(left.of_steps(1, 3)) is None
    assert left.seconds(left.of_steps(2, 3)) == pytest.approx(2.0 * 0.5 / 0.25)  # the last step costs as much as both


def test_durations_in_words():
    assert [seconds_text(s) for s in (0.44, 3.94, 12.4, 99, 185, 7200)] == [
        "about 0.44 s", "about 3.9 s", "about 12 s", "about 99 s", "about 3.1 min", "about 2 h"]


def test_curve_run_costs_follow_the_runs_of_the_curve():
    X = np.random.default_rng(0).random((2000, 2))
    ks, subsets, rate = [2, 5, 9], 3, 0.25
    costs = stability.curve_run_costs(X, "kmeans++", ks, subsets=subsets, rate=rate, n_init=2, max_iter=50)
    assert len(costs) == len(ks) * (1 + subsets)
    for number, k in enumerate(ks):
        whole, *parts = costs[number * (1 + subsets):(number + 1) * (1 + subsets)]
        assert whole == clustering.estimate_cost(X, "kmeans++", k, n_init=2, max_iter=50).seconds
        assert parts == [clustering.estimate_cost(X[:500], "kmeans++", k, n_init=2, max_iter=50).seconds] * subsets
    assert costs[0] < costs[4] < costs[8]  # a larger k costs more
    done = []
    curve = stability.stability_curve(X, "kmeans++", ks, ["ari"], subsets=subsets, rate=rate, n_init=2, max_iter=50,
                                      progress=lambda d, total: done.append((d, total)))
    assert done[-1] == (len(costs), len(costs))  # one progress report per run: the costs' steps
    assert curve.seconds > 0


def test_a_clustering_run_uses_one_native_thread(monkeypatch):
    seen = []
    algorithm = clustering.ALGORITHMS["kmeans++"]
    run = algorithm.run

    def counting(*args, **kwargs):
        seen.append({pool["user_api"]: pool["num_threads"] for pool in threadpool_info()})
        return run(*args, **kwargs)

    monkeypatch.setitem(clustering.ALGORITHMS, "kmeans++", dataclasses.replace(algorithm, run=counting))
    X = np.random.default_rng(1).random((300, 2))
    clustering.cluster(X, "kmeans++", 3)
    assert seen and set(seen[0].values()) == {clustering.RUN_THREADS}
