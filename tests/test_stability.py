"""Many clusterings of one data set (cluval_core.algorithms.stability) and their figures: values checked by
hand on small inputs, the stability curve finding the right k (the lowest for a distance), every
argument validated, and work beyond the budget refused before any run."""

from __future__ import annotations

import math
from unittest import mock

import numpy as np
import pandas as pd
import pytest

from cluval_core import INDICES, CluvalError, compare, compare_many
from cluval_core.algorithms import stability
from cluval_core.algorithms.clustering import Budget, cluster
from cluval_core.algorithms.stability import (
    StabilityCurve,
    cluster_many,
    interactive_parameters,
    mean_agreement,
    most_stable,
    rank_solutions,
    stability_curve,
)
from cluval_core.experiments import psi_paper
from cluval_core.outputs.plots import pairwise_heatmap, stability_curves

# Two runs that found the same partition (labelled differently) and one that split it three ways.
RUNS = {"seed 0": [0, 0, 0, 1, 1, 1], "seed 1": [1, 1, 1, 0, 0, 0], "seed 2": [0, 0, 1, 1, 2, 2]}
# By hand, seed 0 against seed 2: cells 2, 1, 1, 2; pairs together in both 2, in seed 0 6, in seed 2 3,
# of 15: ARI = (2 - 6 * 3 / 15) / ((6 + 3) / 2 - 6 * 3 / 15) = 0.8 / 3.3
ARI_02 = 0.8 / 3.3
# VI = 2 H(joint) - H(seed 0) - H(seed 2) = (4/3 ln 3 + 2/3 ln 6) - ln 2 - ln 3 = ln 3 - ln(2) / 3
VI_02 = math.log(3) - math.log(2) / 3


def _blobs(k=4, per=40, seed=0, spread=0.25):
    """k tight groups on a circle of radius 10: k clusters is the only stable answer."""
    rng = np.random.default_rng(seed)
    centres = [(10 * math.cos(2 * math.pi * i / k), 10 * math.sin(2 * math.pi * i / k)) for i in range(k)]
    return np.concatenate([rng.normal(c, spread, (per, 2)) for c in centres])


# ---------------------------------------------------------------------- most stable solutions
def test_mean_agreement_and_ranks_by_hand_on_three_runs():
    matrices = compare_many(RUNS, ["ari", "vi"])
    assert matrices["ari"].loc["seed 0", "seed 2"] == pytest.approx(ARI_02)
    assert matrices["vi"].loc["seed 0", "seed 2"] == pytest.approx(VI_02)
    agreement = mean_agreement(matrices)
    assert list(agreement.index) == list(RUNS) and agreement.index.name == "solution"
    assert agreement["ari"].tolist() == pytest.approx([(1 + ARI_02) / 2, (1 + ARI_02) / 2, ARI_02])
    assert agreement["vi"].tolist() == pytest.approx([VI_02 / 2, VI_02 / 2, VI_02])
    verdict = most_stable(matrices)
    # ARI is a similarity (highest first), VI a distance (lowest first): both put the two alike runs first
    assert verdict.index.tolist() == ["seed 0", "seed 1", "seed 2"]
    assert verdict["ari rank"].tolist() == [1, 1, 3] and verdict["vi rank"].tolist() == [1, 1, 3]
    assert verdict["mean rank"].tolist() == [1, 1, 3] and verdict["first by"].tolist() == [2, 2, 0]
    assert verdict["agreed"].tolist() == [True, True, False]


def test_an_asymmetric_index_counts_both_directions():
    parts = {"a": [0, 0, 1, 1, 2, 2], "b": [0, 0, 0, 1, 1, 1], "c": [0, 1, 2, 3, 4, 5]}
    matrices = compare_many(parts, ["purity"])
    purity = {(p, q): compare(parts[p], parts[q]).score("purity") for p in parts for q in parts}
    assert purity[("a", "b")] != purity[("b", "a")]  # an asymmetric index indeed
    expected = [(purity[("a", "b")] + purity[("b", "a")] + purity[("a", "c")] + purity[("c", "a")]) / 4,
                (purity[("b", "a")] + purity[("a", "b")] + purity[("b", "c")] + purity[("c", "b")]) / 4,
                (purity[("c", "a")] + purity[("a", "c")] + purity[("c", "b")] + purity[("b", "c")]) / 4]
    assert mean_agreement(matrices)["purity"].tolist() == pytest.approx(expected)


def test_rank_solutions_follows_each_index_direction_and_leaves_nan_unranked():
    scores = pd.DataFrame({"psi": [0.9, 0.5, np.nan, 0.9], "nvd": [0.3, 0.1, 0.2, 0.1]},
                          index=["w", "x", "y", "z"])
    ranked = rank_solutions(scores)
    assert ranked.loc[["w", "x", "y", "z"], "psi rank"].tolist()[:2] == [1, 3]
    assert math.isnan(ranked.loc["y", "psi rank"]) and ranked.loc["z", "psi rank"] == 1
    assert ranked.loc[["w", "x", "y", "z"], "nvd rank"].tolist() == [4, 1, 3, 1]  # lowest distance first
    assert ranked.loc["z", "agreed"] and ranked.loc["z", "first by"] == 2
    assert ranked.index.tolist() == ["z", "x", "w", "y"]  # mean ranks 1, 2, 2.5, 3 (y ranked by NVD alone)
    assert not ranked.loc[["w", "x", "y"], "agreed"].any()


def test_agreement_and_ranking_refuse_what_they_cannot_read():
    good = compare_many(RUNS, ["ari"])
    with pytest.raises(CluvalError, match="matrices must be a dict"):
        mean_agreement([good["ari"]])
    with pytest.raises(CluvalError, match="unknown index id 'nope'"):
        mean_agreement({"nope": good["ari"]})
    with pytest.raises(CluvalError, match=r"matrices\['ari'\] must be a square DataFrame"):
        mean_agreement({"ari": good["ari"].iloc[:2]})
    other = compare_many({"x": [0, 1, 1, 0, 0, 1], "y": [0, 0, 1, 1, 0, 0], "z": [1] * 6}, ["vi"])
    with pytest.raises(CluvalError, match="compares other solutions"):
        mean_agreement({"ari": good["ari"], "vi": other["vi"]})
    with pytest.raises(CluvalError, match="at least 2 solutions"):
        mean_agreement({"ari": good["ari"].iloc[:1, :1]})
    with pytest.raises(CluvalError, match="scores must be a non-empty DataFrame"):
        rank_solutions(pd.DataFrame())


# ---------------------------------------------------------------------- runs over seeds or k
X4 = _blobs()


def test_cluster_many_equals_cluster_run_by_run():
    seen = []
    runs = cluster_many(X4, "kmeans", seeds=[3, 0, 7], k=4, progress=lambda done, total: seen.append((done, total)))
    assert list(runs) == ["seed 3", "seed 0", "seed 7"]
    for s in (3, 0, 7):
        np.testing.assert_array_equal(runs[f"seed {s}"], cluster(X4, "kmeans", 4, seed=s).labels)
    assert seen == [(1, 3), (2, 3), (3, 3)]
    over_k = cluster_many(X4, "ward", ks=range(2, 6))
    assert list(over_k) == ["k=2", "k=3", "k=4", "k=5"]
    assert [len(np.unique(labels)) for labels in over_k.values()] == [2, 3, 4, 5]
    np.testing.assert_array_equal(over_k["k=4"], cluster(X4, "ward", 4).labels)
    with_params = cluster_many(X4, "random_swap", ks=[3, 4], seed=5, iterations=20)
    np.testing.assert_array_equal(with_params["k=3"], cluster(X4, "random_swap", 3, seed=5, iterations=20).labels)


@pytest.mark.parametrize("kwargs, message", [
    (dict(algorithm="kmeans", seeds=[0, 1], ks=[2, 3], k=2), "not both"),
    (dict(algorithm="kmeans", k=2), "not neither"),
    (dict(algorithm="ward", seeds=[0, 1], k=2), "Agglomerative, Ward gives the same clustering for every seed"),
    (dict(algorithm="dbscan", ks=[2, 3]), "DBSCAN finds the number of clusters itself"),
    (dict(algorithm="kmeans", seeds=[0, 0, 1], k=2), "seeds must hold distinct values, got 0 more than once"),
    (dict(algorithm="kmeans", seeds=[0], k=2), "seeds must hold at least 2 values, got 1"),
    (dict(algorithm="kmeans", seeds=[0, True], k=2), "seeds must hold distinct whole numbers from 0 to 4294967295, "
                                                     "got True"),
    (dict(algorithm="kmeans", seeds=[0, -1], k=2), "got -1"),
    (dict(algorithm="kmeans", seeds="01", k=2), "seeds must be a sequence"),
    (dict(algorithm="kmeans", seeds=[0, 1]), "k is needed with seeds"),
    (dict(algorithm="kmeans", ks=[2, 3], k=2), "k must not be given with ks"),
    (dict(algorithm="kmeans", ks=[2, 2.5]), "ks must hold distinct whole numbers from 1, got 2.5"),
    (dict(algorithm="kmeans", ks=[2, 1000]), "k must be at most the number of points in X"),
    (dict(algorithm="nope", ks=[2, 3]), "unknown algorithm 'nope'"),
    (dict(algorithm="kmeans", ks=[2, 3], budget=60), "budget must be a cluval_core.algorithms.clustering.Budget"),
    (dict(algorithm="kmeans", ks=[2, 3], n_init=3), "has no parameter"),
])
def test_cluster_many_validates_every_argument(kwargs, message):
    with pytest.raises(CluvalError, match=message.replace("(", r"\(").replace(")", r"\)")):
        cluster_many(X4, **kwargs)


def test_cluster_many_refuses_work_beyond_the_budget_before_any_run():
    seen = []
    with mock.patch.object(stability, "cluster", side_effect=AssertionError("a run started")):
        with pytest.raises(CluvalError) as refused:
            cluster_many(X4, "random_swap", seeds=range(50), k=4, iterations=100_000,
                         budget=Budget(seconds=1.0), progress=lambda done, total: seen.append(done))
    message = str(refused.value)
    assert message.startswith("These runs (50 runs of Random swap on 160 points) would need about ")
    assert "more than the budget of 1 s" in message and "choose fewer seeds" in message
    assert "choose fewer iterations or a smaller k" in message and "budget=Budget(" in message
    assert seen == []


# ---------------------------------------------------------------------- the stability curve
def test_stability_curve_picks_the_true_k_for_similarities_and_distances():
    ids = ["ari", "psi", "vi", "nvd", "ci_centroid"]  # two distances, and one index that reads the points
    seen = []
    curve = stability_curve(X4, "kmeans++", [2, 3, 4, 5, 6], ids, subsets=4, rate=0.5, seed=3, n_init=3,
                            progress=lambda done, total: seen.append((done, total)))
    assert isinstance(curve, StabilityCurve)
    # CI is 0 at k = 2 as well (each half of the circle is one cluster on every subset): its best k is the
    # smallest of the tie, and k = 4, which it ranks first too, is the one every index agrees on
    assert curve.best_k == {"ari": 4, "psi": 4, "vi": 4, "nvd": 4, "ci_centroid": 2} and curve.agreed_k == 4
    assert curve.values["ci_centroid"].tolist()[:3] == [0, 0.75, 0]
    at4 = curve.values.set_index("k").loc[4]
    assert at4[["ari", "psi"]].tolist() == [1.0, 1.0] and at4[["vi", "nvd", "ci_centroid"]].tolist() == [0, 0, 0]
    # a distance's most stable k is its lowest: elsewhere the distances are above 0, the similarities below 1
    others = curve.values.set_index("k").drop(index=4)
    assert (others["vi"] > 0).all() and (others["ari"] < 1).all()
    assert seen[-1] == (25, 25) and len(seen) == 25  # 5 values of k, each the whole data and 4 subsets
    assert curve.runs.shape == (20, 2 + len(ids)) and curve.runs["subset"].tolist()[:4] == [0, 1, 2, 3]
    assert curve.values["psi"].tolist() == pytest.approx(curve.runs.groupby("k")["psi"].mean().tolist())
    assert (curve.ks, curve.subsets, curve.rate, curve.seed, curve.algorithm) == ((2, 3, 4, 5, 6), 4, 0.5, 3,
                                                                                 "kmeans++")
    assert list(curve.partitions) == ["k=2", "k=3", "k=4", "k=5", "k=6"]
    ranking = curve.ranking()
    assert ranking.index[0] == "k=4" and ranking.loc["k=4", "agreed"] and ranking.loc["k=2", "ci_centroid rank"] == 1


def test_every_run_of_the_curve_can_be_repeated_with_cluster():
    """The documented scheme: subsets from default_rng(seed), the whole data at k with seed k,
    subset s with seed 1000 s + k, each compared with the whole data's partition restricted to it."""
    curve = stability_curve(X4, "kmeans", [3, 5], ["ari", "nmi_sum"], subsets=3, rate=0.3, seed=11)
    rng = np.random.default_rng(11)
    samples = [np.sort(rng.choice(len(X4), size=int(0.3 * len(X4)), replace=False)) for _ in range(3)]
    for k in (3, 5):
        whole = cluster(X4, "kmeans", k, seed=k).labels
        np.testing.assert_array_equal(curve.partitions[f"k={k}"], whole)
        for s, sample in enumerate(samples):
            part = cluster(X4[sample], "kmeans", k, seed=1000 * s + k).labels
            expected = compare(whole[sample], part).scores(["ari", "nmi_sum"])
            row = curve.runs[(curve.runs["k"] == k) & (curve.runs["subset"] == s)].iloc[0]
            assert row[["ari", "nmi_sum"]].tolist() == [expected["ari"], expected["nmi_sum"]]


def test_ties_go_to_the_smallest_k_and_disagreement_has_no_agreed_k():
    values = pd.DataFrame({"k": [2, 3, 4], "ari": [1.0, 0.5, 1.0], "vi": [0.2, 0.1, 0.3]})
    curve = StabilityCurve(values, pd.DataFrame(), {"ari": 2, "vi": 3}, {}, ("ari", "vi"), (2, 3, 4), 1, 0.2, 0,
                           "kmeans")
    assert curve.agreed_k is None
    ranking = curve.ranking()
    assert ranking.loc["k=2", "ari rank"] == 1 and ranking.loc["k=4", "ari rank"] == 1
    assert ranking.loc["k=3", "vi rank"] == 1 and not ranking["agreed"].any()
    # on real runs: two groups, and every k that splits them cleanly in two is as stable
    two = np.r_[np.zeros((20, 1)), np.ones((20, 1)) * 50]
    curve = stability_curve(two + np.random.default_rng(0).normal(0, 0.1, (40, 1)), "ward", [2, 3], ["ari"],
                            subsets=2, rate=0.5)
    assert curve.best_k == {"ari": 2}


@pytest.mark.parametrize("kwargs, message", [
    (dict(algorithm="dbscan"), "DBSCAN finds the number of clusters itself: the stability curve varies k"),
    (dict(ks=[1, 2]), "ks must hold distinct whole numbers from 2, got 1"),
    (dict(ks=[3]), "ks must hold at least 2 values, got 1"),
    (dict(ids=["ari", "nope"]), "unknown index id 'nope'"),
    (dict(ids=[]), "ids is empty"),
    (dict(ids=["ari", "ari"]), "ids repeats an index"),
    (dict(rate=0), "rate must be a sampling rate strictly between 0 and 1 (the paper: 0.2), got 0"),
    (dict(rate=1.0), "got 1.0"),
    (dict(rate=float("nan")), "got nan"),
    (dict(rate=True), "got True"),
    (dict(subsets=0), "subsets must be a whole number from 1 to 100, got 0"),
    (dict(subsets=2.0), "got 2.0"),
    (dict(seed=-1), "seed must be a whole number from 0 to 4294967295, got -1"),
    (dict(ks=[2, 40], rate=0.2), "rate 0.2 of 160 points gives subsets of 32 points, fewer than the largest k (40)"),
    (dict(budget=Budget(seconds=0.001)), "This stability curve (18 runs of k-means (random start, one run) on 160 "
                                         "points) would need about"),
])
def test_stability_curve_validates_every_argument(kwargs, message):
    arguments = dict(algorithm="kmeans", ks=[2, 3], ids=["ari"], subsets=8)
    arguments.update(kwargs)
    with pytest.raises(CluvalError, match=message.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")):
        stability_curve(X4, arguments.pop("algorithm"), arguments.pop("ks"), arguments.pop("ids"), **arguments)


def test_a_refused_curve_says_what_to_change_and_runs_nothing():
    with mock.patch.object(stability, "cluster", side_effect=AssertionError("a run started")):
        with pytest.raises(CluvalError) as refused:
            stability_curve(X4, "random_swap", range(2, 12), ["psi"], subsets=10, iterations=50_000,
                            budget=Budget(seconds=5))
    message = str(refused.value)
    assert "110 runs of Random swap" in message and "more than the budget of 5 s" in message
    assert "choose fewer values of k, fewer subsets or a lower rate" in message


def test_interactive_parameters_share_the_budget_among_the_runs():
    X = np.random.default_rng(0).random((20_000, 2))
    alone = interactive_parameters(X, "random_swap", [15])
    seeds = interactive_parameters(X, "random_swap", [15], repeats=20)
    curve = interactive_parameters(X, "random_swap", [15], subsets=100, rate=0.2)  # 1 + 100 * 0.2 = 21 runs
    assert curve["iterations"] < seeds["iterations"] < alone["iterations"] <= 5000
    assert interactive_parameters(X, "ward", [2, 5]) == {}
    restarts = interactive_parameters(X, "kmeans++", range(2, 21), subsets=10)
    assert 1 <= restarts["n_init"] <= 10
    with pytest.raises(CluvalError, match="repeats must be a whole number from 1 to 1000, got 0"):
        interactive_parameters(X, "kmeans", [2], repeats=0)
    with pytest.raises(CluvalError, match="rate must be a sampling rate strictly between 0 and 1, got 2"):
        interactive_parameters(X, "kmeans", [2], subsets=3, rate=2)


def test_leaders_are_the_solutions_each_index_ranks_first():
    verdict = most_stable(compare_many(RUNS, ["ari", "vi", "purity"]))
    assert stability.leaders(verdict) == {"ari": ["seed 0", "seed 1"], "vi": ["seed 0", "seed 1"],
                                          "purity": ["seed 0", "seed 1"]}
    curve = stability_curve(X4, "ward", [3, 4, 5], ["ari", "vi"], subsets=2, rate=0.5)
    assert stability.leaders(curve.ranking(["vi"])) == {"vi": ["k=4"]}
    assert list(curve.ranking(["vi"]).columns) == ["vi", "vi rank", "mean rank", "first by", "agreed"]
    with pytest.raises(CluvalError, match="this curve has no values of psi; it has ari, vi"):
        curve.ranking(["psi"])


def test_the_fig25_experiment_reads_its_values_from_the_stability_curve():
    """The paper's method lives in stability_curve: the experiment passes the paper's settings and
    shows the curve's values (NVD as 1 - NVD) and its chosen k."""
    ks = [2, 4, 6, 7, 8, 9, 10, 12]
    values = pd.DataFrame({"k": ks, "ari": [1, 1, 1, 1, 1, .8, .8, .7], "nmi_sum": [1, 1, 1, 1, 1, .9, .9, .8],
                           "nvd": [0, 0, .02, .01, 0, .1, .1, .2], "psi": [1, 1, .7, .8, 1, .8, .8, .7]})
    canned = StabilityCurve(values, pd.DataFrame(), {"ari": 2, "nmi_sum": 2, "nvd": 2, "psi": 2}, {},
                            tuple(psi_paper.PAPER_INDICES), tuple(ks), 3, 0.2, 25, "random_swap")
    dataset = mock.Mock(X=X4)
    with mock.patch.object(psi_paper, "stability_curve", return_value=canned) as called, \
            mock.patch.object(psi_paper, "load_dataset", return_value=dataset):
        result = psi_paper.stability_fig25()
    (X, algorithm, asked_ks, ids), options = called.call_args
    assert X is X4 and algorithm == "random_swap" and asked_ks == ks and ids == psi_paper.PAPER_INDICES
    assert options["rate"] == 0.2 and options["subsets"] == 3 and options["iterations"] == 1000
    assert result.values["1-nvd"].tolist() == pytest.approx([1, 1, .98, .99, 1, .9, .9, .8])
    assert result.values["psi"].tolist() == values["psi"].tolist()
    stars = [trace for trace in result.figure.data if trace.name.endswith("most stable k")]
    assert [list(trace.x) for trace in stars] == [[2]] * 4


# ---------------------------------------------------------------------- figures
def test_pairwise_heatmap_draws_the_matrix_dark_where_alike():
    hostile = {"<b>x</b>": RUNS["seed 0"], "a very long name for one run": RUNS["seed 1"], "s": RUNS["seed 2"]}
    matrices = compare_many(hostile, ["ari", "vi", "ci_partition"])
    ari = pairwise_heatmap(matrices["ari"], "ari")
    heat = ari.data[0]
    np.testing.assert_allclose(np.array(heat.z, dtype=float), matrices["ari"].to_numpy())
    assert heat.text[0][2] == f"{ARI_02:.2f}" and heat.reversescale is False
    assert (heat.zmin, heat.zmax) == pytest.approx((ARI_02, 1.0))
    assert list(ari.layout.xaxis.ticktext) == ["&lt;b&gt;x&lt;/b&gt;", "a very long nam…", "s"]
    assert "reference &lt;b&gt;x&lt;/b&gt;" in heat.hovertext[0][1]
    assert "a very long name for one run" in heat.hovertext[0][1]  # the whole name on hover
    assert ari.layout.title.text == INDICES["ari"].name and ari.layout.yaxis.autorange == "reversed"
    vi = pairwise_heatmap(matrices["vi"], "vi", title="VI")
    assert vi.data[0].reversescale is True and vi.layout.title.text == "VI"  # a distance: dark where low
    assert pairwise_heatmap(matrices["ci_partition"], "ci_partition").data[0].text[0][2] == "1"  # a count
    many = compare_many({f"run {i}": np.arange(6) % (2 + i % 3) for i in range(13)}, ["ari"])["ari"]
    assert pairwise_heatmap(many, "ari").data[0].text is None  # values on hover only beyond 12 solutions
    with pytest.raises(CluvalError, match="unknown index id 'nope'"):
        pairwise_heatmap(matrices["ari"], "nope")
    with pytest.raises(CluvalError, match="matrix must be a square DataFrame"):
        pairwise_heatmap(matrices["ari"].iloc[:2], "ari")


def test_stability_curves_put_each_kind_of_index_on_its_own_axis():
    values = pd.DataFrame({"k": [2, 3, 4], "ari": [0.7, 1.0, 0.8], "nvd": [0.2, 0.0, 0.1], "vi": [0.5, 0.0, 0.4]})
    fig = stability_curves(values, ["ari", "nvd", "vi"], best_k={"ari": 3, "nvd": 3, "vi": 3}, true_k=3)
    layout = fig.to_plotly_json()["layout"]
    titles = [layout[key]["title"]["text"] for key in ("yaxis", "yaxis2", "yaxis3")]
    assert titles == ["mean similarity to the full clustering",
                      "mean distance to the full clustering<br>(lower is more stable)",
                      "mean distance (unbounded)<br>(lower is more stable)"]
    lines = {trace.name: trace.yaxis for trace in fig.data if not trace.name.endswith("most stable k")}
    assert lines == {INDICES["ari"].name: "y", INDICES["nvd"].name: "y2", INDICES["vi"].name: "y3"}
    stars = [(list(t.x), list(t.y)) for t in fig.data if t.name.endswith("most stable k")]
    assert stars == [([3], [1.0]), ([3], [0.0]), ([3], [0.0])]
    assert layout["xaxis3"]["title"]["text"] == "number of clusters k"
    assert list(layout["xaxis3"]["tickvals"]) == [2, 3, 4]


def test_every_index_of_the_registry_ranks_and_draws():
    """Registry-driven: whatever indices the registry holds, each has its matrix drawn, its ranking
    in the direction the registry gives, and its curve on the axis of its kind."""
    label_free = [i for i, info in INDICES.items() if not info.needs_data]
    matrices = compare_many(RUNS, label_free)
    verdict = most_stable(matrices)
    for index_id in label_free:
        agreement = mean_agreement({index_id: matrices[index_id]})[index_id]
        best = agreement.max() if INDICES[index_id].higher_is_better else agreement.min()
        assert set(verdict.index[verdict[f"{index_id} rank"] == 1]) == set(agreement.index[agreement == best])
        heat = pairwise_heatmap(matrices[index_id], index_id).data[0]
        assert heat.reversescale is (not INDICES[index_id].higher_is_better)
    curve = stability_curve(X4, "ward", [3, 4, 5], list(INDICES), subsets=2, rate=0.5)
    assert set(curve.best_k) == set(INDICES)
    fig = stability_curves(curve.values, list(INDICES), best_k=curve.best_k)
    assert {t.name for t in fig.data if not t.name.endswith("most stable k")} == {i.name for i in INDICES.values()}
