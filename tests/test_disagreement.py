"""Where indices disagree on real data: the disagreement matrix and the rankings by hand, the
critical difference against Demšar's table, Friedman against scipy, the reduced battery run
twice, the command line and the page."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from apptools import open_app
from cluval_core import CluvalError
from cluval_core.experiments.disagreement import (
    REDUCED,
    Battery,
    battery_scores,
    critical_difference,
    disagreement,
    preferences,
    ranked_pairs,
    rankings,
    winners,
)
from cluval_core.outputs.cli import main
from cluval_core.outputs.plots.disagreement import cliques, critical_difference_diagram, disagreement_heatmap


def _scores():
    """Two sets, three algorithms: ARI (higher is better), VI (lower is better) and PSI, with a tie and a NaN."""
    return pd.DataFrame({
        "dataset": ["p"] * 3 + ["q"] * 3, "algorithm": ["x", "y", "z"] * 2, "seed": 0,
        "ari": [0.9, 0.5, 0.1, 0.3, 0.6, 0.6],
        "vi": [0.2, 0.1, 0.3, 0.9, 0.4, 0.5],
        "psi": [0.8, 0.7, math.nan, 0.1, 0.2, 0.3],
    })


def test_preferences_and_disagreement_by_hand():
    found = preferences(_scores())
    assert found[["A", "B"]].values.tolist() == [["x", "y"], ["x", "z"], ["y", "z"]] * 2
    assert found["ari"].tolist() == [1, 1, 1, -1, -1, 0]  # a tie prefers neither
    assert found["vi"].tolist() == [-1, 1, 1, -1, -1, 1]  # lower is better
    assert found["psi"].tolist() == [1, 0, 0, -1, -1, -1]  # an undefined value prefers neither
    matrix = disagreement(_scores())
    # ARI and VI, both strict on 5 pairs: they differ on (x, y) of p only
    assert matrix.loc["ari", "vi"] == matrix.loc["vi", "ari"] == 1 / 5
    assert matrix.loc["ari", "psi"] == 0.0  # both strict on 3 pairs, all alike
    assert matrix.loc["vi", "psi"] == 2 / 4 and np.diag(matrix.to_numpy()).tolist() == [0.0, 0.0, 0.0]
    assert ranked_pairs(matrix).index.tolist() == [("vi", "psi"), ("ari", "vi"), ("ari", "psi")]


def test_rankings_by_hand_and_friedman_against_scipy():
    found = rankings(_scores(), "vi")
    assert found.ranks.values.tolist() == [[2.0, 1.0, 3.0], [3.0, 1.0, 2.0]]
    assert found.mean_ranks.to_dict() == {"y": 1.0, "z": 2.5, "x": 2.5}
    statistic, p = stats.friedmanchisquare([0.2, 0.9], [0.1, 0.4], [0.3, 0.5])
    assert (found.friedman, found.p_value) == (pytest.approx(statistic), pytest.approx(p))
    ties = rankings(_scores(), "ari")  # y and z tie on q: they share rank 1.5
    assert ties.ranks.values.tolist() == [[1.0, 2.0, 3.0], [3.0, 1.5, 1.5]]
    assert len(rankings(_scores(), "psi").ranks) == 1  # the set where PSI is undefined for z is left out
    assert winners({"vi": found, "ari": ties}) == {"y": ["vi", "ari"]}


# Demšar (2006), Table 5(a): q_0.05 of the Nemenyi test for k = 2 ... 10 classifiers.
DEMSAR_Q = [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164]


@pytest.mark.parametrize("k, q", list(zip(range(2, 11), DEMSAR_Q)))
def test_the_critical_difference_is_demsars(k, q):
    # Demšar prints q to 3 places
    assert critical_difference(k, 20) / math.sqrt(k * (k + 1) / 120) == pytest.approx(q, abs=1e-3)


def test_cliques_join_what_the_critical_difference_cannot_tell_apart():
    mean = pd.Series({"a": 1.0, "b": 1.5, "c": 2.2, "d": 4.0})
    assert cliques(mean, 1.3) == [["a", "b", "c"]]
    assert cliques(mean, 0.6) == [["a", "b"]]
    assert cliques(mean, 0.8) == [["a", "b"], ["b", "c"]]
    assert cliques(mean, 0.1) == []


def test_figures_draw_what_was_computed():
    matrix = disagreement(_scores())
    heat = disagreement_heatmap(matrix).data[0]
    assert np.asarray(heat.z).tolist() == matrix.to_numpy().tolist() and heat.text[0][1] == "20%"
    figure = critical_difference_diagram(rankings(_scores(), "vi"))
    names = {t.name for t in figure.data}
    assert {"x", "y", "z", "critical difference"} <= names
    assert "Friedman" in figure.layout.title.text


def test_hostile_inputs_are_refused_with_reasons():
    with pytest.raises(CluvalError, match="DataFrame of battery_scores"):
        disagreement([1, 2])
    with pytest.raises(CluvalError, match="no column for ami"):
        disagreement(_scores(), ["ari", "ami"])
    doubled = pd.concat([_scores(), _scores()])
    with pytest.raises(CluvalError, match="names one clustering .* twice"):
        disagreement(doubled)
    with pytest.raises(CluvalError, match="unknown index id"):
        rankings(_scores(), "nope")
    nowhere = _scores().assign(psi=math.nan)
    with pytest.raises(CluvalError, match="undefined on every set"):
        rankings(nowhere, "psi")
    for bad in [dict(k=1, n=3), dict(k=True, n=3), dict(k=3, n=0), dict(k=3, n=3, alpha=1.5)]:
        with pytest.raises(CluvalError, match="must be"):
            critical_difference(**bad)
    with pytest.raises(CluvalError, match="battery is empty"):
        battery_scores(Battery(datasets=(), algorithms=("ward",)))
    with pytest.raises(CluvalError, match="must be a Battery"):
        battery_scores("reduced")


@pytest.mark.data
def test_the_reduced_battery_is_reproducible_and_its_indices_disagree():
    ids = ["ari", "nmi_sum", "psi", "ci_partition", "vi"]
    first, second = battery_scores(REDUCED, ids), battery_scores(REDUCED, ids)
    assert first.equals(second) and len(first) == REDUCED.runs
    assert first.columns.tolist() == ["dataset", "algorithm", "seed", "k", *ids]
    matrix = disagreement(first)
    assert (matrix.to_numpy() >= 0).all() and (matrix.to_numpy() <= 1).all()
    assert matrix.loc["ari", "ci_partition"] > 0  # on real data the choice of index matters
    assert rankings(first, "ari").mean_ranks.sum() == pytest.approx(len(REDUCED.algorithms) * 7 / 2)


@pytest.mark.data
def test_the_command_line_writes_the_study_and_keeps_foreign_files(tmp_path, capsys):
    out = tmp_path / "results"
    assert main(["disagreement", "--indices", "ari,psi,vi", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert re.search(r"66 clusterings of 11 sets by 6 algorithms, 3 indices", printed)
    assert "order" in printed and "critical difference" in printed
    matrix = pd.read_csv(out / "disagreement.csv", index_col=0)
    assert matrix.index.tolist() == ["ari", "psi", "vi"]
    ranks = pd.read_csv(out / "disagreement_rankings.csv")
    assert set(ranks["index"]) == {"ari", "psi", "vi"} and len(ranks) == 18
    assert (out / "disagreement.html").read_text(encoding="utf-8").count("plotly") > 1
    assert main(["disagreement", "--indices", "ari,psi", "--out", str(out)]) == 0  # its own files: replaced
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "disagreement.csv").write_text("keep me", encoding="utf-8")
    assert main(["disagreement", "--indices", "ari", "--out", str(foreign)]) == 2
    assert "which cluval did not write" in capsys.readouterr().err
    assert (foreign / "disagreement.csv").read_text(encoding="utf-8") == "keep me"
    assert main(["disagreement", "--indices", "nope", "--out", str(out)]) == 2


@pytest.mark.data
@pytest.mark.slow
def test_the_page_shows_the_matrix_the_rankings_and_the_diagram():
    import json

    at = open_app("disagreement_real.py")
    assert not at.error, [e.value for e in at.error]
    charts = {chart.proto.id: json.loads(chart.proto.spec) for chart in at.get("plotly_chart")}
    assert len(charts) == 2
    chosen = at.multiselect(key="disagreement_ids").value
    table = at.dataframe[0].value
    assert table.index.tolist() == chosen and table.columns.tolist() == list(REDUCED.algorithms)
    at.multiselect(key="disagreement_ids").set_value(["ari"]).run()
    assert any("at least two" in info.value for info in at.info) and not at.exception
    at.multiselect(key="disagreement_ids").set_value(["ari", "psi", "vi"]).run()
    at.selectbox(key="disagreement_rank_by").set_value("vi").run()
    assert not at.exception and "Variation of information" in json.dumps(at.get("plotly_chart")[-1].proto.spec)
