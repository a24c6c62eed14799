"""The edges, second pass: each rule behind a reported wrong value, silent acceptance or runaway
work, tested as a rule (many inputs, or an independent reference), not only on the one input
that showed it."""

from __future__ import annotations

import datetime
import itertools
import math
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from test_steps import _degenerate_comparisons

import cluval_core
import cluval_core.data.datasets
import cluval_core.indices
import cluval_core.outputs.export
from cluval_core import INDICES, CluvalError, Comparison, Noise, compare, compare_chunks, v_measure_score
from cluval_core.data import synthetic
from cluval_core.data.datasets import locate
from cluval_core.data.userdata import read_user_table
from cluval_core.outputs.plots import mapping_diagram, partition_scatter

# ============================================================== wrong values


def _exact_centroid_ratio(a, b, X) -> float:
    """Centroid Ratio from exact rational centroids and squared distances: the greedy pairing
    takes the smallest distance, ties to the cluster whose first object comes first (rows, then
    columns), every time; D_i is a centroid's distance to its nearest other centroid."""
    def centroids(labels):
        order = list(dict.fromkeys(labels))  # clusters in order of first occurrence
        return order, {k: tuple(sum(Fraction(x[d]) for x, lab in zip(X, labels) if lab == k)
                                / sum(1 for lab in labels if lab == k) for d in range(len(X[0]))) for k in order}

    def d2(p, q):
        return sum((x - y) ** 2 for x, y in zip(p, q))

    (rows, ca), (cols, cb) = centroids(a), centroids(b)
    free_r, free_c, pairs = list(rows), list(cols), []
    while free_r and free_c:
        best = min(d2(ca[r], cb[c]) for r in free_r for c in free_c)
        r, c = next((r, c) for r in free_r for c in free_c if d2(ca[r], cb[c]) == best)
        pairs.append((r, c))
        free_r.remove(r)
        free_c.remove(c)

    def own(cent, k):
        others = [d2(cent[k], cent[j]) for j in cent if j != k]
        return min(others) if others else None

    unstable = 0
    for r, c in pairs:
        dr, dc = own(ca, r), own(cb, c)
        if dr is None or dc is None:
            unstable += d2(ca[r], cb[c]) != 0  # a lone centroid: unstable unless the pair coincides
            continue
        unstable += d2(ca[r], cb[c]) ** 2 > dr * dc  # D_ij^2 / (D_i D_j) > 1, squared both sides
    k = max(len(rows), len(cols))
    return 1 - (unstable + k - len(pairs)) / k


def test_centroid_ratio_of_the_reported_case():
    a, b = [0, 2, 1, 1, 2], [2, 3, 4, 0, 1]
    X = [[.9, .6], [.5, 1.1], [-.5, -1.7], [.1, .7], [.2, .9]]
    assert compare(a, b, X=np.array(X)).score("cr") == pytest.approx(0.6) == _exact_centroid_ratio(a, b, X)


@pytest.mark.parametrize("seed", range(40))
def test_centroid_ratio_decides_every_tie_by_the_tie_order(seed):
    """Points on a small grid, so that many centroid distances tie exactly (several ties in one
    pairing): the value equals the exact computation, whatever the labels' numbering."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 12))
    X = rng.integers(-2, 3, size=(n, 2)).astype(float) / 2
    a, b = rng.integers(0, 4, n).tolist(), rng.integers(0, 5, n).tolist()
    expected = _exact_centroid_ratio(a, b, X.tolist())
    assert compare(a, b, X=X).score("cr") == pytest.approx(expected, abs=1e-12), (a, b, X.tolist())
    renamed = {v: f"c{9 - k}" for k, v in enumerate(dict.fromkeys(b))}
    assert compare(a, [renamed[v] for v in b], X=X).score("cr") == pytest.approx(expected, abs=1e-12)


def test_nrmi_is_zero_when_the_reference_is_one_cluster_identical_partitions_too():
    for n in range(2, 9):
        assert compare([0] * n, [0] * n).score("nrmi") == 0.0
        assert compare([0] * n, [0] * (n - 1) + [1]).score("nrmi") == 0.0
    jack = compare([0] * 7 + [1], [0] * 8).uncertainty(["nrmi"])
    assert jack.loc["nrmi", "se"] == 0.0  # every object left out leaves the same convention


def _reference_rmi(table):
    """RMI and NRMI (nats per object) with 40 digits: the authors' definition, the concentration
    minimised over [1e-4, 1e4] by a root of the cost's derivative."""
    mp = pytest.importorskip("mpmath")
    with mp.workdps(40):  # 40 digits here only: other packages read mpmath's global precision
        return _reduced_information_40_digits(mp, table)


def _reduced_information_40_digits(mp, table):
    table = np.asarray(table)
    rows, cols = [int(x) for x in table.sum(axis=1)], [int(x) for x in table.sum(axis=0)]
    cells = [int(x) for x in table.ravel() if x > 0]
    n, q = sum(rows), len(rows)

    def rising(size, a):
        return mp.loggamma(size + a) - mp.loggamma(a) - mp.loggamma(size + 1)

    def least(cost):
        low, high = mp.log(mp.mpf("1e-4")), mp.log(mp.mpf("1e4"))
        slope = lambda t: mp.diff(cost, t)  # noqa: E731 - the cost's derivative in log(alpha)
        if slope(low) >= 0:
            return cost(low)
        if slope(high) <= 0:
            return cost(high)
        return cost(mp.findroot(slope, (low, high), solver="anderson", tol=mp.mpf(10) ** -30))

    def encoding(sizes, parts):
        return least(lambda t: sum(rising(s, q * mp.e ** t) for s in sizes) - sum(rising(v, mp.e ** t) for v in parts))

    h_g = least(lambda t: rising(n, q * mp.e ** t) - sum(rising(r, mp.e ** t) for r in rows)) \
        + mp.loggamma(n + 1) - sum(mp.loggamma(r + 1) for r in rows)
    h_gc = encoding(cols, cells) + sum(mp.loggamma(s + 1) for s in cols) - sum(mp.loggamma(v + 1) for v in cells)
    h_gg = encoding(rows, rows)
    return float((h_g - h_gc) / n), float((h_g - h_gc) / (h_g - h_gg))


@pytest.mark.slow
@pytest.mark.parametrize("candidate", ["pairs", "tens", "random"])
def test_reduced_mutual_information_is_exact_when_the_reference_is_all_singletons(candidate):
    """The concentration's minimum sits at the end of its range, where two huge log-gammas nearly
    cancel: the difference is taken stably, so RMI and NRMI keep about 10 digits."""
    n = 1800
    b = {"pairs": np.arange(n) // 2, "tens": np.arange(n) // 10,
         "random": np.random.default_rng(0).integers(0, 30, n)}[candidate]
    c = compare(np.arange(n), b)
    rmi, nrmi = _reference_rmi(c.table.toarray() if c.is_sparse else c.table)
    assert c.score("rmi") == pytest.approx(rmi, rel=1e-9)
    assert c.score("nrmi") == pytest.approx(nrmi, rel=1e-9) and c.score("nrmi") <= 1


@pytest.mark.parametrize("index_id", [i for i, info in INDICES.items() if info.anatomy])
def test_contributions_apply_the_convention_that_sets_the_value(index_id):
    """On identical and degenerate partitions (N = 2 included) the cells either add up to the
    value with finite, sensible numbers, or say that a convention sets it."""
    for name, c in _degenerate_comparisons():
        if INDICES[index_id].needs_data and not c.has_data or not math.isfinite(c.score(index_id)):
            continue
        parts = c.contributions(index_id)
        assert np.isfinite(parts.cells).all(), name
        if "convention" not in parts.description:
            assert np.abs(parts.cells).max() <= 10 * max(1.0, abs(parts.value)), (name, parts.cells)
    ami = Comparison.from_table([[1, 0], [0, 1]]).contributions("ami")
    assert "convention" in ami.description and ami.constant == 1.0 and not ami.cells.any()


def test_soft_memberships_of_two_objects_are_compared():
    rng = np.random.default_rng(5)
    for _ in range(300):
        U, V = rng.dirichlet([1, 1], 2), rng.dirichlet([1, 1, 1], 2)
        assert Comparison.from_memberships(U, V).n == pytest.approx(2)
    with pytest.raises(CluvalError, match="at least 2 objects are needed to compare partitions, got 1.9"):
        Comparison.from_table([[1.5, 0.4]])


DATES = ["2020-01-01", "2020-01-02", "2020-01-01", "2020-01-02"]


@pytest.mark.parametrize("labels, label", [
    (np.array(DATES, dtype="datetime64[ns]"), np.datetime64("2020-01-01")),
    (np.array(DATES, dtype="datetime64[D]"), pd.Timestamp("2020-01-01")),
    (np.array(DATES, dtype="datetime64[s]"), datetime.datetime(2020, 1, 1)),
    (np.array(DATES, dtype="datetime64[D]"), datetime.date(2020, 1, 1)),
    (pd.Series(pd.to_datetime(DATES)), np.datetime64("2020-01-01T00:00:00.000000000")),
    (np.array([1, 2, 1, 2]), 1 + 0j), (np.array([1.0, 2.0, 1.0, 2.0]), np.complex128(1)),
    (np.array([1, 2, 1, 2]), np.float32(1)), (np.array([10, 20, 10, 20], dtype="timedelta64[s]"),
                                                datetime.timedelta(seconds=10)),
])
def test_noise_labels_are_matched_as_python_values_in_every_type(labels, label):
    """A label equal to the noise label as Python compares them is noise, whatever its type or unit."""
    c = compare(labels, [0, 1, 1, 0], noise=Noise(label))
    assert c.n == 2 and c.k_true == 1  # the two noise objects were dropped
    singles = compare(labels, [0, 1, 1, 0], noise=Noise(label, "singletons"))
    assert singles.k_true == 3  # the two noise objects became singletons, the others kept their cluster


def test_labels_unequal_as_python_values_are_not_noise():
    dates = np.array(["2020-01-01", "2020-01-02"], dtype="datetime64[ns]")
    with pytest.warns(cluval_core.CluvalWarning, match="does not occur"):
        compare(np.r_[dates, dates], [0, 1, 0, 1], noise=Noise("2020-01-01"))  # text is not a date
    with pytest.warns(cluval_core.CluvalWarning, match="does not occur"):
        compare([1, 2, 1, 2], [0, 1, 0, 1], noise=Noise(1 + 1j))


@pytest.mark.parametrize("data, dtype", [
    ([2**64 - 1, 3, 4], np.uint64), ([2**63 - 1, 2**63 - 1, 4], np.int64), ([2**62] * 3, np.int64),
    ([2**63 + 5, 1, 1], np.uint64), ([2**62, 1, 1], np.uint64),
])
def test_sparse_tables_are_exact_or_refused_with_the_reason(data, dtype):
    """Every cell and every sum, repeated entries added up, is exact or refused: never wrapped."""
    table = sp.coo_array((np.array(data, dtype=dtype), ([0, 0, 1], [1, 0, 1])), shape=(2, 2))
    total = sum(int(x) for x in data)
    if total > 2**62:
        with pytest.raises(CluvalError, match=r"more than 4611686018427387904 \(2\*\*62\)"):
            Comparison.from_table(table)
    else:
        c = Comparison.from_table(table)
        assert c.n == total and c.table.toarray().tolist() == [[data[1], data[0]], [0, data[2]]]
    repeated = sp.coo_array((np.array(data, dtype=dtype), ([0, 0, 1], [1, 1, 1])), shape=(2, 2))
    if total > 2**62:
        with pytest.raises(CluvalError, match="2\\*\\*62"):
            Comparison.from_table(repeated)
    else:
        assert Comparison.from_table(repeated).table.toarray().tolist() == [[0, data[0] + data[1]], [0, data[2]]]


# ============================================================== refused, not accepted silently
WEIGHTS = "sample_weight must be numeric weights \\(real numbers\\)"


@pytest.mark.parametrize("call, match", [
    (lambda: compare(np.ma.array([0, 0, 1, 1], mask=[0, 0, 0, 1]), [0, 0, 1, 1]), "labels_true is a masked array"),
    (lambda: compare([0, 0, 1, 1], np.ma.array([0, 0, 1, 1], mask=[1, 0, 0, 0])), "labels_pred is a masked array"),
    (lambda: compare([0, 0, 1, 1], [0, 0, 1, 1], X=np.ma.array(np.ones((4, 2)), mask=[[0, 1]] * 4)),
     "X is a masked array"),
    (lambda: compare([0, 0, 1], [0, 1, 1], sample_weight=np.ma.array([1, 2, 3], mask=[0, 0, 1])),
     "sample_weight is a masked array"),
    (lambda: Comparison.from_table(np.ma.array([[1, 2], [3, 4]], mask=[[0, 0], [0, 1]])), "table is a masked array"),
    (lambda: compare([0, 0, 1, 1], [0, 0, 1, 1], sample_weight=["1", "2", "1", "1"]), WEIGHTS),
    (lambda: compare([0, 0, 1, 1], [0, 0, 1, 1], sample_weight=[1, 2, "1", 1]), WEIGHTS),
    (lambda: compare([0, 0, 1, 1], [0, 0, 1, 1], sample_weight=[1, 2, 1j, 1]), WEIGHTS),
    (lambda: compare([0, 0, 1, 1], [0, 0, 1, 1], X=np.array([[1 + 1j], [2], [3], [4]])), "X has complex values"),
    (lambda: Comparison.from_memberships([["1", "0"], ["0", "1"]], [[1, 0], [0, 1]]), "U must be real"),
    (lambda: synthetic.random_partition(k=2.5), "k must be a whole number"),
    (lambda: synthetic.random_partition(k=True), "k must be a whole number"),
    (lambda: synthetic.enlarge_cluster(1500.5), "size must be a whole number"),
    (lambda: synthetic.m2(0.1, d=2.0), "d must be a whole number"),
    (lambda: synthetic.lei_set("G1", 1.5), "index \\(of G1\\) must be a whole number"),
    (lambda: synthetic.lei_set(["G1"], 1), "Lei et al. sets are"),
    (lambda: locate("s1", "labels99"), "the set 's1' has no 'labels99' file; its files are data, labels0"),
    (lambda: mapping_diagram(compare([0, 0, 1], [0, 1, 1]), "bogus"), "basis must be one of 'partition', 'centroid'"),
    (lambda: partition_scatter(compare([0, 0, 1], [0, 1, 1], X=np.eye(3)), "both"),
     "side must be one of 'true', 'pred'"),
    (lambda: read_user_table(b"a,b\n1,2\n3,4\n", header="yes"), "header must be True or False"),
    (lambda: read_user_table("a,b\n1,2\n"), "must be given as bytes"),
])
def test_what_would_be_read_wrongly_is_refused_by_name(call, match):
    with pytest.raises(CluvalError, match=match):
        call()


def test_a_parquet_column_of_lists_is_not_a_label_column(tmp_path, capsys):
    pytest.importorskip("pyarrow")
    from cluval_core.outputs.cli import main

    path = tmp_path / "lists.parquet"
    pd.DataFrame({"t": [[1, 2], [1, 2], [3], [3]], "p": [0, 0, 1, 1]}).to_parquet(path)
    assert main(["compare", str(path), "--true", "t", "--pred", "p"]) == 2
    assert "column 't' holds lists or other containers (data row 1" in capsys.readouterr().err


# ============================================================== bounded work
def test_a_long_label_among_short_ones_costs_what_the_labels_hold():
    labels = ["a"] * 200_000 + ["x" * 5_000_000]
    c = compare(labels, [0] * 200_001)  # fixed-width text would take 4 TB
    assert c.k_true == 2 and c.row_sizes.tolist() == [200_000, 1]


@pytest.mark.parametrize("call", [
    lambda: synthetic.unbalance_like(dense_size=10**10), lambda: synthetic.random_partition(3, n_per_cluster=10**10),
    lambda: synthetic.m2(0.1, d=10**6), lambda: synthetic.number_of_clusters(10**6, n_per_cluster=10**4),
    lambda: synthetic.increasing_error(0, n_per_cluster=10**9), lambda: synthetic.size_imbalance(10**10),
    lambda: synthetic.rand_modification("join_two", 10**5, 10**5),
])
def test_every_generator_refuses_sets_beyond_its_budget_before_allocating(call):
    with pytest.raises(CluvalError, match="GiB, more than the 2 GiB a generator builds at once"):
        call()


# ============================================================== files stay where they belong
@pytest.mark.parametrize("battery, name", [("../../..", "s1"), ("sipu", "../s1"), ("/etc", "s1"), ("sipu", "s1/..")])
def test_a_catalogue_path_that_leaves_the_data_folder_is_refused(monkeypatch, battery, name):
    from cluval_core.data import datasets

    entry = {**datasets.catalogue()["datasets"]["s1"], "battery": battery}
    monkeypatch.setattr(datasets, "catalogue", lambda: {"datasets": {name: entry}})
    with pytest.raises(CluvalError, match="could lead outside the data folder"):
        datasets.locate(name)


def test_the_tie_rules_hold_for_every_index_on_many_small_grids():
    """Tie-heavy tables: every index is the same under a relabelling that keeps the order of
    first occurrence (the tie order), for many small grids at once."""
    rng = np.random.default_rng(3)
    for n in itertools.islice(itertools.cycle([6, 8, 10]), 30):
        X = rng.integers(0, 3, size=(n, 2)).astype(float)
        a, b = rng.integers(0, 3, n), rng.integers(0, 4, n)
        base = compare(a, b, X=X).scores()
        mapped = {v: 100 - k for k, v in enumerate(dict.fromkeys(b.tolist()))}
        again = compare(a, [mapped[v] for v in b.tolist()], X=X).scores()
        assert all(base[i] == again[i] or (math.isnan(base[i]) and math.isnan(again[i])) for i in base)


# ============================================================== a clone without the data
@pytest.mark.slow
def test_a_clone_without_data_passes_the_tests_skipping_those_that_need_it(tmp_path):
    """The repository's files alone, with no data mirror beside them, no CLUVAL_DATA_DIR, an
    empty cache and not in CI: every test that needs a benchmark set is skipped with its reason
    (each carries the data mark), and everything else passes."""
    import os
    import shutil
    import subprocess

    root = Path(__file__).resolve().parents[1]
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True, check=True).stdout
    clone = tmp_path / "away" / "cluval"  # nothing named shared/datasets beside it
    for name in filter(None, listed.decode().split("\0")):
        if (root / name).is_file():
            (clone / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(root / name, clone / name)
    env = {key: value for key, value in os.environ.items() if key not in {"CI", "CLUVAL_DATA_DIR"}}
    env["CLUVAL_CACHE_DIR"] = str(tmp_path / "empty cache")
    # the whole suite but the browser tests (Chromium is another matter), the fuzz tests (they need
    # no data: the run around this one has them) and this test itself; the property tests draw
    # CI's examples (its derandomised profile), the same each time: this run is about what is skipped
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rfEs", "-m", "not browser",
                          "-k", "not test_a_clone_without_data", "--ignore=tests/test_fuzz.py",
                          "--hypothesis-profile=ci"], cwd=clone, env=env, capture_output=True, text=True, timeout=1800)
    summary = run.stdout.strip().splitlines()[-1]
    failed = [line for line in run.stdout.splitlines() if line.startswith(("FAILED", "ERROR"))]
    failures = run.stdout.partition("= FAILURES =")[2][:6000]  # what went wrong, before the summary's end
    assert run.returncode == 0, "\n".join(failed) + "\n" + failures + "\n" + run.stdout[-4000:]
    assert " passed" in summary and "failed" not in summary and "error" not in summary, summary
    assert "benchmark data not found: set CLUVAL_DATA_DIR" in run.stdout, summary


# ============================================================== the command line reads as written
def _cli(capsys, *argv):
    from cluval_core.outputs.cli import main

    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


QUOTED = ['"a,b"', '"c\nd"', '"e ""q"""', "NA", "NaN", "null", "None", "N/A", "#N/A", "nan", "x"]
AS_READ = ["a,b", "c\nd", 'e "q"', "NA", "NaN", "null", "None", "N/A", "#N/A", "nan", "x"]


def _quoted_file(path, rows, seed=0):
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(QUOTED), rows)
    found = np.where(rng.random(rows) < 0.8, picks, rng.integers(0, len(QUOTED), rows))
    path.write_text("t,p\n" + "".join(f"{QUOTED[i]},{j}\n" for i, j in zip(picks, found)), encoding="utf-8")
    return [AS_READ[i] for i in picks], [str(j) for j in found]


@pytest.mark.parametrize("budget", [None, "1MB"])
def test_quoted_fields_and_missing_value_words_are_labels_as_written(tmp_path, capsys, budget):
    """Commas, line breaks and quotes inside quoted fields, and NA, NaN, null, None, ... are labels,
    in memory and out of core (a file too large for the budget is read in order, never cut
    inside a quoted field)."""
    import json

    rows = 200_000 if budget else 3000
    truth, found = _quoted_file(tmp_path / "labels.csv", rows)
    expected = compare(truth, found).scores()
    argv = ["compare", tmp_path / "labels.csv", "--true", "t", "--pred", "p", "--json"]
    code, out, err = _cli(capsys, *argv, *(["--memory-budget", budget] if budget else []))
    assert code == 0, err
    shown = json.loads(out)
    assert shown == {k: None if math.isnan(v) else v for k, v in expected.items()}
    assert compare(truth, found).k_true == len(QUOTED)  # every word a label of its own
    assert shown["fowlkes_mallows"] is not None and shown["ari"] is not None


def test_a_line_break_inside_quotes_is_found_across_the_reading_steps(tmp_path):
    from cluval_core.data.userdata import quoted_line_break

    path = tmp_path / "q.csv"
    path.write_bytes(b't,p\n"a ""b"" c",1\n' * 1000 + b'"x\ny",2\n')
    assert quoted_line_break(path, step=7) and quoted_line_break(path)
    path.write_bytes(b't,p\n"a ""b"" c",1\n' * 1000)
    assert not quoted_line_break(path, step=7) and not quoted_line_break(path)


def test_datasets_verify_reports_a_corrupt_copy_and_exits_non_zero(tmp_path, capsys, monkeypatch):
    import gzip

    data = tmp_path / "data" / "sipu"
    data.mkdir(parents=True)
    (data / "s1.data.gz").write_bytes(gzip.compress(b"1 2\n3 4\n"))
    monkeypatch.setenv("CLUVAL_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("CLUVAL_CACHE_DIR", str(tmp_path / "cache"))
    code, out, _ = _cli(capsys, "datasets", "verify", "s1")
    assert code == 1 and "s1.data.gz is corrupt or truncated (CLUVAL_DATA_DIR" in out
    code, out, _ = _cli(capsys, "datasets", "verify")
    assert code == 1 and "CLUVAL_DATA_DIR: sha256 differs" in out and not (tmp_path / "cache").exists()


# ============================================================== the command line behaves like a Unix tool
@pytest.mark.slow
def test_a_reader_that_goes_away_ends_the_command_quietly(tmp_path):
    import subprocess

    _quoted_file(tmp_path / "labels.csv", 500)
    for argv in (["compare", str(tmp_path / "labels.csv"), "--true", "t", "--pred", "p"], ["datasets", "list"]):
        with subprocess.Popen([sys.executable, "-m", "cluval_core.outputs.cli", *argv], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE) as proc:
            proc.stdout.close()  # the reader is gone before the first line is written
            err = proc.stderr.read().decode()
            assert proc.wait(timeout=120) == 141 and err == "", (argv, err)


def test_version_usage_and_aligned_columns(tmp_path, capsys):
    import cluval_core.outputs.cli as cli

    with pytest.raises(SystemExit) as stop:
        cli.main(["--version"])
    assert stop.value.code == 0 and capsys.readouterr().out == f"cluval {cluval_core.__version__}\n"
    with pytest.raises(SystemExit):
        cli.main(["datasets"])
    err = capsys.readouterr().err
    assert "required: action" in err and "names" not in err.splitlines()[-1]
    _quoted_file(tmp_path / "labels.csv", 300)
    code, out, _ = _cli(capsys, "compare", tmp_path / "labels.csv", "--true", "t", "--pred", "p")
    lines = out.splitlines()
    assert code == 0 and len(lines) == len(INDICES) - sum(info.needs_data for info in INDICES.values())
    value_column = {len(line) - len(line.split()[-1]) for line in lines}
    id_column = {line.index(f"  {i}  ") for line, i in zip(lines, [ln.split()[-2] for ln in lines])}
    assert len(value_column) == 1 and len(id_column) == 1  # every value and every id starts in one column


@pytest.mark.slow
def test_one_exit_convention_and_no_empty_folder_after_an_offline_fetch(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("CLUVAL_DATA_DIR", str(tmp_path / "nothing"))
    monkeypatch.setenv("CLUVAL_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("CLUVAL_DATA_URL", "http://127.0.0.1:9/none")
    code, _, err = _cli(capsys, "datasets", "fetch", "s1")
    assert code == 2 and "could not be downloaded" in err
    assert not (tmp_path / "cache").exists()  # nothing was created for the file that did not come
    code, _, err = _cli(capsys, "experiments", "run", "unbalance_table6", "--out", tmp_path / "out")
    assert code == 2 and err.startswith("cluval: error:")  # the same error, the same status


def test_the_app_command_becomes_the_server(monkeypatch, capsys):
    import os

    import cluval_core.outputs.cli as cli

    started = []
    monkeypatch.setattr(os, "execv", lambda path, argv: started.append((path, argv, os.getcwd())))
    monkeypatch.setattr(os, "chdir", lambda folder: started.append(("chdir", folder)))
    cli.main(["app", "--server.port", "8599"])
    (_, folder), (path, argv, _) = started
    assert path == sys.executable and argv[1:4] == ["-m", "streamlit", "run"] and argv[-2:] == ["--server.port", "8599"]
    assert Path(argv[4]).name == "app.py" and Path(argv[4]).parent == Path(folder)


def test_experiments_never_replace_files_they_did_not_write(tmp_path, capsys):
    out = tmp_path / "results"
    out.mkdir()
    (out / "rand_table1.csv").write_text("a user's own file\n")
    code, _, err = _cli(capsys, "experiments", "run", "rand_table1", "--out", out)
    assert code == 2 and "holds rand_table1.csv, which cluval did not write" in err and "--force" in err
    assert (out / "rand_table1.csv").read_text() == "a user's own file\n"
    code, _, _ = _cli(capsys, "experiments", "run", "rand_table1", "--out", out, "--force")
    assert code in (0, 1) and (out / "rand_table1.csv").read_text() != "a user's own file\n"
    code, _, _ = _cli(capsys, "experiments", "run", "rand_table1", "--out", out)  # its own files: replaced
    assert code in (0, 1)


# ============================================================== exports are inert
PAYLOADS = ['x" onmouseover="alert(1)', "q' onload='y", "<img src=x onerror=alert(1)>", "</script><script>z</script>",
            "=HYPERLINK(\"http://e\")", "+1+1", "-2+3", "@SUM(A1)", "#hash", "a\nb", "1", 1]


def test_the_html_report_escapes_labels_in_text_and_attributes():
    from cluval_core.outputs.export import html_report, provenance

    labels = [p for p in PAYLOADS if isinstance(p, str)]
    a = [p for p in labels for _ in range(2)]
    b = [k % 3 for k in range(len(a))]
    page = html_report(compare(a, b, X=np.arange(2.0 * len(a)).reshape(-1, 2)),
                       provenance(data_set='d" x="1', **{"key<b>": "v\n<i>"}))
    plotly_script = page.index("<script")  # plotly's own code: searched for nothing
    body = page[:plotly_script] + page[page.index("</script>", plotly_script):]
    for dangerous in ('" onmouseover="', "' onload='", "<img", "<script>z", 'd" x="1', "<b>", "<i>"):
        assert dangerous not in body, dangerous


def test_csv_exports_are_inert_and_read_back_as_written():
    import io

    from cluval_core.outputs.export import contingency_frame, csv_with_provenance

    frame = pd.DataFrame({"label": [p for p in PAYLOADS if isinstance(p, str)]})
    text = csv_with_provenance(frame, {"data\nset": "a\r\nb", "key": "=1+1"}, index=False)
    header = [line for line in text.splitlines() if line.startswith("#")]
    assert header == ["# data set: a b", "# key: =1+1"]  # one line each, kept as comments
    back = pd.read_csv(io.StringIO(text), comment="#")["label"].tolist()
    for written, read in zip(frame["label"], back):
        risky = written.startswith(("=", "+", "-", "@")) and written not in ("-2+3",)
        assert read == ("'" + written if written.startswith(("=", "+", "@", "-")) else written), (written, read)
        assert not read.startswith(("=", "+", "@")) or not risky
    assert "#hash" in back and "a\nb" in back
    c = compare([1, 1, "1", "1", 2], ["x", "x", "y", "y", "y"])
    table = contingency_frame(c)
    assert sorted(table.index[:-1]) == ["'1'", "1", "2"]  # 1 and '1' stay two labels


# ============================================================== bounded work: streams of chunks
def test_a_stream_of_chunks_of_new_labels_merges_each_label_a_few_times(monkeypatch):
    """Partial tables are added in a balanced tree: with c chunks each label takes part in about
    log2(c) merges, never in one merge per later chunk (which would cost the square)."""
    from cluval_core.core import chunks as chunked

    handled = []
    real = chunked._merge_labels
    monkeypatch.setattr(chunked, "_merge_labels", lambda a, *rest: handled.append(len(a) + len(rest[1])) or
                        real(a, *rest))
    n_chunks, size = 1000, 500  # every chunk brings 500 new labels: half a million in all
    c = compare_chunks((np.arange(size) + size * i, np.arange(size) % 7 + 7 * i) for i in range(n_chunks))
    assert c.k_true == n_chunks * size and c.k_pred == 7 * n_chunks
    labels = 2 * n_chunks * size
    assert sum(handled) <= labels * (math.log2(n_chunks) + 2), sum(handled) / labels


def test_a_stream_of_tiny_chunks_is_counted_in_runs(monkeypatch):
    """One-object chunks are read one by one but counted together, a few thousand objects at a
    time: the same comparison as the concatenation, with a table built per run, not per object."""
    from cluval_core.core.chunks import PartialTable

    built = []
    real = PartialTable.from_labels.__func__
    monkeypatch.setattr(PartialTable, "from_labels", classmethod(lambda cls, *a, **k: built.append(1) or
                                                                 real(cls, *a, **k)))
    n = 60_000
    truth, found = [i % 7 for i in range(n)], [float(i % 5) if i % 3 else i % 5 for i in range(n)]
    c = compare_chunks(([t], [f]) for t, f in zip(truth, found))
    expected = compare(truth, found)
    assert (c.table.toarray() == expected.table).all() and c.col_labels.tolist() == expected.col_labels.tolist()
    assert len(built) <= n // 4096 + 2


# ============================================================== bounded work: hostile files
def _refused_before_parsing(monkeypatch):
    import cluval_core.outputs.cli  # noqa: F401 - imported (and its tables read) before pandas' reader is taken away
    from cluval_core.data import userdata

    monkeypatch.setattr(userdata.pd, "read_csv", lambda *a, **k: pytest.fail("parsed a file it should refuse"))


@pytest.mark.parametrize("shape", ["wide header", "one line", "two long lines"])
def test_a_file_too_wide_to_be_a_table_is_refused_before_it_is_parsed(tmp_path, capsys, monkeypatch, shape):
    from cluval_core.data.userdata import MAX_COLUMNS, read_user_table

    fields = MAX_COLUMNS + 5
    text = {"wide header": ",".join(f"c{i}" for i in range(fields)) + "\n" + ",".join("1" * fields) + "\n",
            "one line": ",".join("1" * fields),  # no line break at all
            "two long lines": ",".join("a" * fields) + "\n" + ",".join("1" * fields) + "\n"}[shape]
    path = tmp_path / "wide.csv"
    path.write_text(text)
    _refused_before_parsing(monkeypatch)
    with pytest.raises(CluvalError, match=f"has {fields:,} columns in its first line, more than the 10,000"):
        read_user_table(text.encode(), "upload.csv")  # the app's upload
    code, _, err = _cli(capsys, "compare", path, "--true", "c0", "--pred", "c1")
    assert code == 2 and "columns in its first line, more than the 10,000" in err
    code, _, err = _cli(capsys, "compare", path, "--true", "c0", "--pred", "c1", "--memory-budget", "1kB")
    assert code == 2 and "columns in its first line" in err  # out of core too


def test_a_first_line_of_megabytes_is_refused_out_of_core(tmp_path, capsys, monkeypatch):
    from cluval_core.data import userdata

    monkeypatch.setattr(userdata, "_LONGEST_FIRST_LINE", 1 << 16)
    path = tmp_path / "long.csv"
    path.write_bytes(b"x" * (1 << 17) + b",y\n" + b"1,2\n" * 2000)  # too large for the budget: out of core
    code, _, err = _cli(capsys, "compare", path, "--true", "x", "--pred", "y", "--memory-budget", "1kB")
    assert code == 2 and "has a first line longer than" in err and "not a table of label columns" in err


def test_a_missing_column_is_named_without_listing_every_column(capsys, tmp_path):
    path = tmp_path / "many.csv"
    path.write_text(",".join(f"c{i}" for i in range(5000)) + "\n" + ",".join("1" * 5000) + "\n"
                    + ",".join("2" * 5000) + "\n")
    code, _, err = _cli(capsys, "compare", path, "--true", "nope", "--pred", "c1")
    assert code == 2 and "column 'nope' is not in the file; its columns are: c0, c1," in err
    assert "and 4,980 more" in err and len(err) < 500


# ============================================================== the obscure errors left
@pytest.mark.parametrize("call, match", [
    (lambda: cluval_core.data.datasets.load_dataset(None), "a data set is named by text, got None"),
    (lambda: cluval_core.data.datasets.load_dataset(123), "a data set is named by text, got 123"),
    (lambda: cluval_core.indices.find_indices(None), "query must be text"),
    (lambda: cluval_core.contingency_table(np.array([0, 1]), np.array([0, 1, 2])), "differ in length: 2 != 3"),
    (lambda: cluval_core.outputs.export.format_value("ari", "0.5"), "value must be a number, got '0.5'"),
    (lambda: synthetic.random_partition(3, n_per_cluster=-1), "n_per_cluster must be a whole number of at least 1"),
    (lambda: partition_scatter(compare([0, 0, 1], [0, 1, 1]), "true"), "partition_scatter draws the objects' points"),
    (lambda: Comparison.from_table(pd.DataFrame([[1, 2], ["x", 3]])), r"table must be numeric: it has 'x' at \[1, 0\]"),
    (lambda: Comparison.from_table(pd.DataFrame([[1, 2], [None, 3]])), r"non-finite entry \(nan at \[1, 0\]\)"),
    (lambda: cluval_core.outputs.export.to_json({float("nan"): 1}), "the key nan cannot be written as JSON"),
])
def test_the_obscure_errors_are_cluval_errors_naming_the_argument(call, match):
    import cluval_core.data.datasets  # noqa: F401 - the modules the calls reach
    import cluval_core.outputs.export  # noqa: F401 - the same

    with pytest.raises(CluvalError, match=match):
        call()


def test_the_obscure_cases_with_a_right_value():
    from cluval_core.data.datasets import verify_datasets
    from cluval_core.outputs.export import to_json

    assert set(verify_datasets("s1")) == {"s1"}  # one name, not its letters
    assert v_measure_score([0, 0, 1, 1], [0, 1, 1, 1], beta=Fraction(1, 2)) == \
        v_measure_score([0, 0, 1, 1], [0, 1, 1, 1], beta=0.5)
    c = compare([0, 0, 1, 1, 2], [0, 1, 1, 2, 2])
    frame = c.chance(["ari", "psi"], n_samples=20, seed=0)
    import json

    written = json.loads(to_json(frame))
    assert set(written) == {"ari", "psi"} and written["ari"]["method"] == "exact"
    with pytest.raises(CluvalError, match="a comparison's table is read-only"):
        c.table[0, 0] = 5
    changed = np.array(c.table)
    changed[0, 0] = 5  # a copy is the user's own
    assert Comparison.from_table(changed).n == c.n + 4 and type(c.table * 2) is np.ndarray


def test_a_data_set_may_be_named_by_a_path_like_name():
    pytest.importorskip("pooch")
    from cluval_core.data.datasets import _entry

    assert _entry(Path("s1"))[0] == _entry("S1")[0] == "s1"


def test_the_expected_mutual_information_is_refused_beyond_exact_float_counts():
    """Beyond 2**53 objects the windowed sum loses its terms: it is refused with the reason, and AMI
    says it is not computed, rather than dividing infinities."""
    from cluval_core.core.emi import expected_mutual_information

    assert expected_mutual_information([3, 2**52], [2, 2**52 + 1]) >= 0
    with pytest.raises(CluvalError, match="at most 2\\*\\*53 objects"):
        expected_mutual_information([3, 2**60], [2, 2**60 + 1])
    table = np.array([[3, 2, 2, 2], [100000, 7, 2, 2**61]], dtype=np.uint64)
    with pytest.warns(cluval_core.CluvalWarning, match="AMI is not computed: .*at most 2\\*\\*53 objects"):
        assert math.isnan(Comparison.from_table(table).score("ami"))
