"""The paper reproductions: each reduced run reproduces the published values it claims to,
loads exactly the data sets it declares, and shows its checks and figures for people."""

from __future__ import annotations

import contextlib
import re
from unittest import mock

import pandas as pd
import pytest

import cluval_core.data.datasets
from cluval_core import INDICES, CluvalError
from cluval_core.experiments import (
    CHECK_COLUMNS,
    DIFFERS,
    EXPERIMENTS,
    WITHIN,
    Experiment,
    centroid_index_paper,
    check,
    format_tolerance,
    lei_soft,
    psi_paper,
    published,
    published_tables,
    run_experiment,
)
from cluval_core.outputs.cli import main
from cluval_core.outputs.plots import index_label

NEED_DATA = {name for name, e in EXPERIMENTS.items() if e.datasets}
# The reduced runs that take more than a few seconds (left to the full suite)
SLOW = {"stability_fig25", "lei_soft", "centroid_index_paper"}
# Claims that differ from the paper on this data, each with its reason shown in the app and CLI.
KNOWN_DIFFERENCES = {
    "rand_table1": {"(kn - 3n - k + 3)/(kn^2 - n)"},  # the misprint in Rand's Table 1
    "m2_overlap": {"heavy overlap", "d = 256"},
    "centroid_index_paper": {"Aggregate misses 2 clusters"},
}
# an index id standing alone in a text shown to people (names are shown instead)
RAW_ID = re.compile(r"(?<![\w-])(1-)?(" + "|".join(sorted(map(re.escape, INDICES), key=len, reverse=True))
                    + r")(?![\w-])")


@pytest.fixture(scope="module")
def results():
    return {}


def _result(results, name):
    """The reduced run of `name`, once per module; ``results["loaded", name]`` lists the data sets it loaded."""
    if name not in results:
        seen = []
        real = cluval_core.data.datasets.load_dataset

        def recording(key, *args, **kwargs):
            seen.append(key)
            return real(key, *args, **kwargs)

        with contextlib.ExitStack() as patches:  # every experiment module that loads a set
            for module in (psi_paper, centroid_index_paper, lei_soft):
                patches.enter_context(mock.patch.object(module, "load_dataset", recording))
            results[name] = run_experiment(name)
        results["loaded", name] = seen
    return results[name]


def _assert_figure_for_people(fig):
    """Every axis that holds data is titled; legends and subplot titles give names, not ids."""
    layout = fig.to_plotly_json()["layout"]
    for trace in fig.data:
        for axis in ("xaxis", "yaxis"):
            ref = getattr(trace, axis, None) or axis[0]
            key = axis + ref[1:]
            title = (layout.get(key) or {}).get("title", {}).get("text")
            if axis == "xaxis":
                assert title, f"{key} of {trace.name!r} has no title"
        assert trace.name and not RAW_ID.fullmatch(trace.name), trace.name
        assert not RAW_ID.search(trace.name.split(" (")[0]), trace.name
    assert any((layout.get(k) or {}).get("title", {}).get("text") for k in layout if k.startswith("yaxis"))
    for annotation in layout.get("annotations", []):
        assert not RAW_ID.search(annotation["text"]), annotation["text"]


def _assert_checks_for_people(checks: pd.DataFrame):
    assert list(checks.columns) == CHECK_COLUMNS
    assert set(checks["verdict"]) <= {WITHIN, DIFFERS}
    for claim in checks["claim"]:
        assert not RAW_ID.search(claim), claim
    for tolerance in checks["tolerance"]:
        assert re.fullmatch(r"exact|±(\d+(\.\d+)?|\de-\d+)", tolerance), tolerance


# ---------------------------------------------------------------------- every experiment
@pytest.mark.parametrize("name", [pytest.param(n, marks=[m for m, kept in ((pytest.mark.data, n in NEED_DATA),
                                                                              (pytest.mark.slow, n in SLOW)) if kept])
                                  for n in EXPERIMENTS])
def test_reduced_run_matches_the_paper_except_known_differences(name, results):
    result = _result(results, name)
    checks = result.checks
    _assert_checks_for_people(checks)
    _assert_figure_for_people(result.figure)
    assert len(result.values) > 0 and result.figure.data
    differing = checks[checks["verdict"] == DIFFERS]
    expected = KNOWN_DIFFERENCES.get(name, set())
    for _, row in differing.iterrows():
        assert any(fragment in row["claim"] for fragment in expected), row["claim"]
        assert row["likely reason"], f"a differing row must say why: {row['claim']}"
    for fragment in expected:
        assert any(fragment in claim for claim in differing["claim"]), fragment
    assert (checks.loc[checks["verdict"] == WITHIN, "likely reason"] == "").all()
    # the declaration is what the run loads: the Reproduce page and the CLI read it
    assert sorted(set(results["loaded", name])) == sorted(EXPERIMENTS[name].datasets)


def test_declared_datasets():
    assert EXPERIMENTS["unbalance_table6"].datasets == ("unbalance",)
    assert EXPERIMENTS["yeast_table7"].datasets == ("yeast",)
    assert EXPERIMENTS["lei_soft"].datasets == ("iris", "wine")
    assert set(EXPERIMENTS["centroid_index_paper"].datasets) == {"s1", "s2", "s3", "s4", "unbalance", "birch2",
                                                                 "compound", "aggregation"}
    assert EXPERIMENTS["rand_table1"].datasets == () and EXPERIMENTS["psi_synthetic"].datasets == ()
    catalogue = cluval_core.data.datasets.catalogue()["datasets"]
    assert all(name in catalogue for e in EXPERIMENTS.values() for name in e.datasets)


def test_missing_datasets_in_declaration_order(monkeypatch):
    ci = EXPERIMENTS["centroid_index_paper"]
    assert ci.missing_datasets(["s1", "unbalance", "iris"]) == ["s2", "s3", "s4", "birch2", "compound",
                                                                "aggregation"]
    assert ci.missing_datasets(list(ci.datasets)) == []
    assert EXPERIMENTS["rand_table1"].missing_datasets([]) == []
    # by default: what cluval_core.data.datasets has a verified local copy of
    monkeypatch.setattr(cluval_core.experiments.checks, "available_datasets", lambda: ["iris", "yeast"])
    assert EXPERIMENTS["lei_soft"].missing_datasets() == ["wine"]
    assert EXPERIMENTS["yeast_table7"].missing_datasets() == []
    assert Experiment.fetch_command(["wine", "s1"]) == "cluval datasets fetch wine s1"


@pytest.mark.data
def test_nothing_is_missing_with_the_benchmark_data():
    assert {name: e.missing_datasets() for name, e in EXPERIMENTS.items()} == {name: [] for name in EXPERIMENTS}


# ---------------------------------------------------------------------- published tables
def test_published_tables_equal_the_papers():
    """Checked by hand against the papers' text (Rezaei & Fränti 2016, Tables 6 and 7; Lei et al. 2017,
    Table IV)."""
    assert published_tables() == ["lei_table4", "psi_table6", "psi_table7"]
    t6 = published("psi_table6")
    assert list(t6.columns) == ["algorithm", "ari", "nmi_sum", "1-nvd", "psi"]
    assert t6.set_index("algorithm").loc["SL"].tolist() == [1.00, 0.99, 0.99, 0.78]
    assert t6.set_index("algorithm").loc["KM"].tolist() == [0.66, 0.77, 0.78, 0.18]
    assert t6["algorithm"].tolist() == ["RS", "AC", "SL", "KM"]
    assert t6.loc[t6["algorithm"].isin(["RS", "AC"]), ["ari", "nmi_sum", "1-nvd", "psi"]].eq(1.0).all().all()
    t7 = published("psi_table7").set_index("K")
    assert t7.index.tolist() == [9, 8, 7]
    assert t7.loc[9].tolist() == [1.00, 0.99, 1.00, 0.88]
    assert t7.loc[8].tolist() == [0.99, 0.97, 0.98, 0.74]
    assert t7.loc[7].tolist() == [0.97, 0.93, 0.97, 0.60]
    t4 = published("lei_table4").set_index("data")
    assert list(t4.columns) == list(lei_soft.LEI_INDICES)
    assert t4.loc["Wine"].tolist() == [1, 0, 1, 1, 1, 1, 0, 0.20, 0.20]
    assert t4.loc["Iris"].tolist() == [1, 1, 1, 1, 1, 0, 0, 0, 0]
    assert t4.loc["Sonar"].tolist() == [0.95, 1, 1, 0.93, 0.93, 0.93, 1, 0.87, 0.87]
    assert len(t4) == 10


def test_paper_modules_expose_the_published_tables():
    assert psi_paper.TABLE6.equals(published("psi_table6"))
    assert psi_paper.TABLE7.equals(published("psi_table7"))
    assert lei_soft.TABLE4.equals(published("lei_table4"))


def test_published_gives_a_fresh_copy_and_names_the_known_tables():
    first = published("psi_table7")
    first.loc[0, "psi"] = -1.0
    assert published("psi_table7").loc[0, "psi"] == 0.88
    with pytest.raises(CluvalError, match="unknown published table 'table9'; known: lei_table4, psi_table6"):
        published("table9")


# ---------------------------------------------------------------------- formatting for people
@pytest.mark.parametrize("tolerance, shown", [(0, "exact"), (0.0, "exact"), (1e-12, "±1e-12"), (0.01, "±0.01"),
                                              (0.005, "±0.005"), (0.015, "±0.015"), (0.5, "±0.5"), (1, "±1")])
def test_tolerances_for_people(tolerance, shown):
    assert format_tolerance(tolerance) == shown


def test_check_rows():
    ok = check("Pair Sets Index of identical partitions", 1.0, 1.0 - 1e-13, 1e-12, "never shown")
    assert ok == {"claim": "Pair Sets Index of identical partitions", "published": "1", "computed": "1",
                  "tolerance": "±1e-12", "verdict": WITHIN, "likely reason": ""}
    bad = check("ARI", 0.66, 0.7, 0.01, "k-means is multi-modal")
    assert (bad["verdict"], bad["computed"], bad["likely reason"]) == (DIFFERS, "0.7", "k-means is multi-modal")
    assert check("stable", True, False, 0, "few subsets")["computed"] == "no"
    assert check("noise", 0.0, 2.220446049250313e-16, 1e-12)["computed"] == "2.2e-16"
    assert check("undefined", 0.0, float("nan"), 1.0, "undefined here")["verdict"] == DIFFERS


def test_index_labels():
    assert index_label("psi") == INDICES["psi"].name == "Pair Sets Index"
    assert index_label("1-nvd") == f"1 − {INDICES['nvd'].name}"
    assert index_label("1-ch_greedy") == f"1 − {INDICES['ch_greedy'].name}"
    assert index_label("seed") == "seed"


def test_psi_synthetic_figure_names_every_index_and_axis(results):
    fig = _result(results, "psi_synthetic").figure
    legend = [t.name for t in fig.data if t.showlegend is not False]
    assert legend == [index_label(k) for k in ["ari", "nmi_sum", "1-nvd", "1-ch_greedy", "purity", "psi"]]
    titles = [a["text"] for a in fig.layout.annotations]
    assert titles == list(psi_paper.SYNTHETIC_AXES)
    x_titles = [fig.layout[f"xaxis{i if i > 1 else ''}"].title.text for i in range(1, 7)]
    assert x_titles == list(psi_paper.SYNTHETIC_AXES.values())
    assert fig.layout.yaxis.title.text == "similarity (1 = identical)"


def test_rand_checks_for_people(results):
    checks = _result(results, "rand_table1").checks
    assert set(checks["tolerance"]) == {"±1e-12"}
    misprint = checks[checks["verdict"] == DIFFERS].iloc[0]
    assert misprint["likely reason"] == ("misprinted: the numbers support the corrected form "
                                         "(kn^2 - 3n - k + 3)/(kn^2 - n)")


# ---------------------------------------------------------------------- values
def test_rand_misprint_and_its_correction(results):
    checks = _result(results, "rand_table1").checks
    corrected = checks[checks["claim"].str.contains("corrected")]
    assert list(corrected["verdict"]) == [WITHIN]
    assert (checks["verdict"] == DIFFERS).sum() == 1


def test_psi_synthetic_exact_curves(results):
    values = _result(results, "psi_synthetic").values
    error = values[values["experiment"].str.startswith("increasing error")]
    assert (error["psi"] - (3 * (1 - error["x"] / 1000) - 1) / 2).abs().max() < 1e-12
    assert (error["1-nvd"] - (1 - error["x"] / 1000)).abs().max() < 1e-12
    imbalance = values[values["experiment"].str.startswith("cluster-size")]
    assert imbalance["psi"].nunique() == 1


@pytest.mark.data
def test_table6_and_table7_values(results):
    t6 = _result(results, "unbalance_table6").values
    km = t6[(t6["algorithm"] == "KM") & t6["statistic"].str.startswith("median")].iloc[0]
    assert km["psi"] == pytest.approx(0.18, abs=0.05) and km["ari"] == pytest.approx(0.66, abs=0.05)
    assert (km["published psi"], km["published ari"]) == (0.18, 0.66)  # read from published/psi_table6.csv
    sl = t6[t6["algorithm"] == "SL"].iloc[0]
    assert [sl[f"published {i}"] for i in psi_paper.TABLE_IDS] == [1.00, 0.99, 0.99, 0.78]
    t7 = _result(results, "yeast_table7").values
    assert t7.loc[t7["K"] == 8, "published psi"].tolist() == [0.74, 0.74]  # both redistribution rules
    for _, row in t7.iterrows():
        assert row["psi"] == pytest.approx(row["published psi"], abs=0.015)


def test_experiments_are_deterministic(results):
    again = run_experiment("psi_synthetic")
    assert again.values.equals(_result(results, "psi_synthetic").values)
    assert again.checks.equals(_result(results, "psi_synthetic").checks)


def test_unknown_experiment():
    with pytest.raises(CluvalError, match="unknown experiment 'nope'; known: psi_synthetic, m2_overlap"):
        run_experiment("nope")


# ---------------------------------------------------------------------- command line
def test_cli_list_and_run(tmp_path, capsys):
    assert main(["experiments", "list"]) == 0
    listed = capsys.readouterr().out
    assert all(name in listed for name in EXPERIMENTS) and "min" in listed
    assert "data: iris, wine" in listed.splitlines()[-2]  # lei_soft, the last experiment
    assert main(["experiments", "run", "rand_table1", "--out", str(tmp_path)]) == 1  # the misprint differs
    out = capsys.readouterr().out
    assert "claims within tolerance" in out
    assert ("differs: A: one point taken from each cluster to form a new cluster of k points: "
            "(kn - 3n - k + 3)/(kn^2 - n)") in out
    assert "(tolerance ±1e-12). Likely reason: misprinted: the numbers support the corrected form" in out
    assert {p.name for p in tmp_path.iterdir()} == {"rand_table1.csv", "rand_table1_checks.csv", "rand_table1.html",
                                                    ".cluval-written"}  # and the list of what it wrote
    written = pd.read_csv(tmp_path / "rand_table1_checks.csv", keep_default_na=False)
    assert list(written.columns) == CHECK_COLUMNS and set(written["tolerance"]) == {"±1e-12"}
    assert main(["experiments", "run", "nope", "--out", str(tmp_path)]) == 2


def test_cli_compare_and_errors(tmp_path, capsys):
    path = tmp_path / "labels.csv"
    path.write_text("truth,found\na,1\na,1\nb,2\nb,3\n")
    assert main(["compare", str(path), "--true", "truth", "--pred", "found", "--json"]) == 0
    assert '"ari": 0.5714' in capsys.readouterr().out
    assert main(["compare", str(path), "--true", "truth", "--pred", "nope"]) == 2
    assert "column 'nope' is not in" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["compare", str(path), "--true", "truth", "--pred", "found", "--bogus"])
