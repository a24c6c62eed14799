"""The command line: the same file reader as the app, strict JSON, exit codes, one-line errors."""

from __future__ import annotations

import importlib.util
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from cluval_core import compare
from cluval_core.data.userdata import ACCEPTED, MAX_BYTES
from cluval_core.outputs import cli
from cluval_core.outputs.cli import main

ROOT = Path(__file__).resolve().parents[1]


def _run(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _one_line_error(err: str, text: str) -> None:
    assert err == f"cluval: error: {text}\n"


def _labels(tmp_path, content: bytes) -> str:
    path = tmp_path / "labels.csv"
    path.write_bytes(content)
    return str(path)


# ---------------------------------------------------------------------- compare: the files it refuses
@pytest.mark.slow  # a Python process of its own
def test_compare_refuses_dev_zero_at_once():
    # in a child process with a time limit: the old reader grew without bound instead of failing
    result = subprocess.run([sys.executable, "-m", "cluval_core.outputs.cli", "compare", "/dev/zero", "--true", "a",
                             "--pred", "b"], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert result.returncode == 2
    assert result.stderr == ("cluval: error: /dev/zero is not a regular file (it is a device, pipe or socket): give "
                             f"the path of {ACCEPTED}\n")


def test_compare_folder_without_tables(tmp_path, capsys):
    (tmp_path / "notes.md").write_text("t,p\na,1\n")
    (tmp_path / ".hidden.csv").write_text("t,p\na,1\n")
    code, out, err = _run(capsys, "compare", str(tmp_path), "--true", "a", "--pred", "b")
    assert code == 2 and out == ""
    _one_line_error(err, f"{tmp_path} is a folder without CSV or Parquet files (.csv, .tsv, .txt, .parquet, .parq, "
                         f".pq): give the path of {ACCEPTED}, or of a folder of them")


def test_compare_empty_file(tmp_path, capsys):
    path = _labels(tmp_path, b"")
    code, _, err = _run(capsys, "compare", path, "--true", "a", "--pred", "b")
    assert code == 2
    _one_line_error(err, f"{path} is empty: give {ACCEPTED} and one row per object")


def test_compare_binary_file(tmp_path, capsys):
    path = _labels(tmp_path, bytes(range(256)) * 4)
    code, _, err = _run(capsys, "compare", path, "--true", "a", "--pred", "b")
    assert code == 2
    _one_line_error(err, f"{path} is a binary file (it contains NUL bytes), not text: give {ACCEPTED}")


def test_compare_non_utf8_file(tmp_path, capsys):
    path = _labels(tmp_path, "a,b\nnaïve,1\nx,2\n".encode("cp1252"))
    code, _, err = _run(capsys, "compare", path, "--true", "a", "--pred", "b")
    assert code == 2
    _one_line_error(err, f"{path} is not UTF-8 text (byte 0xef at offset 6 cannot be decoded): save it as UTF-8 "
                         "(in a spreadsheet: 'CSV UTF-8')")


def test_compare_over_cap_file_is_read_out_of_core_and_still_checked(tmp_path, capsys):
    # beyond what the in-memory reader accepts: read out of core, after the same checks of its first bytes
    path = tmp_path / "huge.csv"
    with open(path, "wb") as fh:
        fh.truncate(MAX_BYTES + 1)
    code, _, err = _run(capsys, "compare", str(path), "--true", "a", "--pred", "b")
    assert code == 2
    _one_line_error(err, f"{path} is a binary file (it contains NUL bytes), not text: give {ACCEPTED}")


def test_compare_missing_file_and_column(tmp_path, capsys):
    code, _, err = _run(capsys, "compare", str(tmp_path / "nope.csv"), "--true", "a", "--pred", "b")
    assert code == 2
    _one_line_error(err, f"{tmp_path / 'nope.csv'} does not exist: give the path of {ACCEPTED}")
    path = _labels(tmp_path, b"truth,found\na,1\nb,2\n")
    code, _, err = _run(capsys, "compare", path, "--true", "truth", "--pred", "nope")
    assert code == 2
    _one_line_error(err, "column 'nope' is not in the file; its columns are: truth, found")


# ---------------------------------------------------------------------- compare: labels as written, strict JSON
def test_compare_keeps_01_and_1_0_and_1_apart(tmp_path, capsys):
    path = _labels(tmp_path, b"truth,found\n01,a\n1.0,a\n1,b\n1,b\n")
    code, out, _ = _run(capsys, "compare", path, "--true", "truth", "--pred", "found", "--json")
    assert code == 0
    expected = compare(["01", "1.0", "1", "1"], ["a", "a", "b", "b"]).scores()
    assert json.loads(out)["ari"] == pytest.approx(expected["ari"])
    assert expected["ari"] != pytest.approx(compare([1, 1, 1, 1], ["a", "a", "b", "b"]).scores()["ari"])


def test_compare_keeps_na_none_null_as_labels(tmp_path, capsys):
    path = _labels(tmp_path, b"truth,found\nNA,1\nNA,1\nNone,2\nnull,2\n")
    code, out, _ = _run(capsys, "compare", path, "--true", "truth", "--pred", "found", "--json")
    assert code == 0
    assert json.loads(out)["ari"] == pytest.approx(compare(["NA", "NA", "None", "null"], [1, 1, 2, 2]).scores()["ari"])


def _strict(text: str) -> dict:
    def refuse(constant):
        raise AssertionError(f"not JSON: {constant}")

    return json.loads(text, parse_constant=refuse)


def test_compare_json_is_strict_nan_as_null(tmp_path, capsys):
    path = _labels(tmp_path, b"truth,found\n01,x\n1.0,y\n1,y\n")
    code, out, _ = _run(capsys, "compare", path, "--true", "truth", "--pred", "found", "--json")
    assert code == 0 and "NaN" not in out
    shown = _strict(out)
    expected = compare(["01", "1.0", "1"], ["x", "y", "y"]).scores()
    undefined = {k for k, v in expected.items() if math.isnan(v)}
    assert undefined and {k for k, v in shown.items() if v is None} == undefined
    assert all(shown[k] == pytest.approx(v) for k, v in expected.items() if k not in undefined)


def test_compare_text_output_names_every_index(tmp_path, capsys):
    path = _labels(tmp_path, b"truth;found\na;1\na;1\nb;2\nb;3\n")
    code, out, _ = _run(capsys, "compare", path, "--true", "truth", "--pred", "found")
    assert code == 0
    assert any(line.split()[-2:] == ["ari", "0.571429"] for line in out.splitlines())


# ---------------------------------------------------------------------- compare: folders, out of core, a cluster
def _write_csv(path: Path, true, pred, header: str | None = "t,p", sep: str = ",") -> str:
    lines = ([header] if header else []) + [f"{x}{sep}{y}" for x, y in zip(true, pred)]
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def _scores(capsys, *argv) -> dict:
    code, out, err = _run(capsys, *argv)
    assert code == 0, err
    return _strict(out)


def _expected(labels_true, labels_pred) -> dict:
    return {k: None if math.isnan(v) else v for k, v in compare(labels_true, labels_pred).scores().items()}


@pytest.fixture
def dask_calls(monkeypatch):
    """The partitions of every Dask comparison that compare() hands over."""
    import cluval_core.core.labels as labels

    calls = []
    real = labels.compare_dask

    def recording(labels_true, labels_pred, **kwargs):
        calls.append(labels_true.npartitions)
        return real(labels_true, labels_pred, **kwargs)

    monkeypatch.setattr(labels, "compare_dask", recording)
    return calls


def _moved_labels(n: int, seed: int = 0):
    import numpy as np

    rng = np.random.default_rng(seed)
    a = rng.integers(0, 25, n)
    b = np.where(rng.random(n) < 0.3, rng.integers(0, 28, n), a)
    return [f"c{v}" for v in a], b.tolist()


def test_compare_a_file_over_the_memory_budget_out_of_core(tmp_path, capsys, dask_calls):
    labels_true, labels_pred = _moved_labels(300_000)
    path = _write_csv(tmp_path / "labels.csv", labels_true, labels_pred)
    in_memory = _scores(capsys, "compare", path, "--true", "t", "--pred", "p", "--json")
    assert dask_calls == []
    out_of_core = _scores(capsys, "compare", path, "--true", "t", "--pred", "p", "--json", "--memory-budget", "1MB")
    assert len(dask_calls) == 1 and dask_calls[0] >= 2  # read in blocks
    assert out_of_core == in_memory == _expected(labels_true, [str(v) for v in labels_pred])


def test_compare_out_of_core_reads_the_delimiter_and_header_as_in_memory(tmp_path, capsys, dask_calls):
    labels_true, labels_pred = _moved_labels(2000, seed=1)
    numbers = [int(v[1:]) for v in labels_true]
    path = _write_csv(tmp_path / "labels.txt", numbers, labels_pred, header=None, sep="; ")
    argv = ["compare", path, "--true", "column 1", "--pred", "column 2", "--json"]
    assert _scores(capsys, *argv, "--memory-budget", "10kB") == _scores(capsys, *argv)
    assert len(dask_calls) == 1


def test_compare_folder_in_natural_name_order(tmp_path, capsys, dask_calls):
    # part.1, part.2, part.10: in name order (1, 10, 2) Criterion H and CI would be 0.5 and 0
    a, b = [1, 0, 1, 0, 2, 1, 0, 2], [2, 2, 1, 2, 1, 0, 0, 2]
    for name, rows in (("part.1.csv", slice(0, 2)), ("part.2.csv", slice(2, 5)), ("part.10.csv", slice(5, 8))):
        _write_csv(tmp_path / name, a[rows], b[rows])
    (tmp_path / "_SUCCESS").write_text("")
    (tmp_path / "README.md").write_text("not a table")
    expected = _expected([str(v) for v in a], [str(v) for v in b])
    assert (expected["ch_greedy"], expected["ci_partition"]) == (0.625, 1.0)
    argv = ["compare", str(tmp_path), "--true", "t", "--pred", "p", "--json"]
    assert _scores(capsys, *argv) == expected
    assert dask_calls == []  # each file fits: read one after the other in memory
    assert _scores(capsys, *argv, "--memory-budget", "100B") == expected
    assert dask_calls == [3]


def test_compare_parquet_file_and_folder_out_of_core(tmp_path, capsys, dask_calls):
    import pandas as pd

    labels_true, labels_pred = _moved_labels(5000, seed=2)
    frame = pd.DataFrame({"t": labels_true, "p": labels_pred})  # the candidate's labels stay numbers
    frame.to_parquet(tmp_path / "one.parquet", row_group_size=1000)
    folder = tmp_path / "parts"
    folder.mkdir()
    for i, lo in enumerate(range(0, 5000, 1700)):
        frame.iloc[lo:lo + 1700].to_parquet(folder / f"part.{i}.parquet")
    expected = _expected(labels_true, labels_pred)
    for path in (tmp_path / "one.parquet", folder):
        argv = ["compare", str(path), "--true", "t", "--pred", "p", "--json"]
        assert _scores(capsys, *argv) == expected
        assert _scores(capsys, *argv, "--memory-budget", "1kB") == expected
    assert dask_calls == [1, 3]


def test_compare_out_of_core_errors_are_one_line(tmp_path, capsys):
    labels_true, labels_pred = _moved_labels(3000, seed=3)
    path = _write_csv(tmp_path / "labels.csv", labels_true, labels_pred)
    small = ["--memory-budget", "1kB"]
    code, _, err = _run(capsys, "compare", path, "--true", "t", "--pred", "nope", *small)
    assert code == 2
    _one_line_error(err, "column 'nope' is not in the file; its columns are: t, p")
    holes = _write_csv(tmp_path / "holes.csv", labels_true, labels_pred[:2000] + [""] + labels_pred[2001:])
    code, _, err = _run(capsys, "compare", holes, "--true", "t", "--pred", "p", *small)
    assert code == 2
    _one_line_error(err, f"column 'p' has 1 empty label(s) in {holes}: every object needs a label in both partitions")
    ragged = tmp_path / "ragged.csv"
    ragged.write_text(Path(path).read_text() + "c1,2,3\n")
    code, _, err = _run(capsys, "compare", str(ragged), "--true", "t", "--pred", "p", *small)
    assert code == 2 and err.count("\n") == 1
    assert err.startswith(f"cluval: error: {ragged} could not be read as CSV (") and err.endswith(
        "): check that every row has the same number of fields\n")
    latin = tmp_path / "latin.csv"
    latin.write_bytes(Path(path).read_bytes() + "naïve,1\n".encode("cp1252"))
    code, _, err = _run(capsys, "compare", str(latin), "--true", "t", "--pred", "p", *small)
    assert code == 2
    _one_line_error(err, f"{latin} is not UTF-8 text (byte 0xef cannot be decoded): save it as UTF-8 (in a "
                         "spreadsheet: 'CSV UTF-8')")
    longer = _write_csv(tmp_path / "longer.csv", ["x,9"] + labels_true[1:], labels_pred)  # a first row of 3 fields
    for budget in ([], small):
        code, _, err = _run(capsys, "compare", longer, "--true", "t", "--pred", "p", *budget)
        assert code == 2 and err.count("\n") == 1
        assert err.startswith(f"cluval: error: {longer} could not be read as CSV (") and err.endswith(
            "): check that every row has the same number of fields\n")
    utf16 = tmp_path / "utf16.csv"
    utf16.write_bytes(Path(path).read_text().encode("utf-16"))
    code, _, err = _run(capsys, "compare", str(utf16), "--true", "t", "--pred", "p", *small)
    assert code == 2
    _one_line_error(err, f"{utf16} is UTF-16 text, which is read out of core only as UTF-8: save it as UTF-8 CSV (in a "
                         "spreadsheet: 'CSV UTF-8')")


def test_compare_damaged_parquet_out_of_core(tmp_path, capsys):
    path = tmp_path / "damaged.parquet"
    path.write_bytes(b"PAR1" + bytes(range(200)) * 10)
    code, _, err = _run(capsys, "compare", str(path), "--true", "t", "--pred", "p", "--memory-budget", "10B")
    assert code == 2 and err.count("\n") == 1
    assert err.startswith(f"cluval: error: {path} could not be read as Parquet (") and err.endswith(
        f"): give {ACCEPTED}\n")


def test_compare_folder_errors(tmp_path, capsys):
    import pandas as pd

    _write_csv(tmp_path / "a.csv", ["x", "y"], [1, 2])
    pd.DataFrame({"t": ["x"], "p": [1]}).to_parquet(tmp_path / "b.parquet")
    code, _, err = _run(capsys, "compare", str(tmp_path), "--true", "t", "--pred", "p")
    assert code == 2
    _one_line_error(err, f"{tmp_path} holds both CSV and Parquet files: give a folder of one kind")
    (tmp_path / "b.parquet").unlink()
    _write_csv(tmp_path / "c.csv", ["x", "y"], [1, 2], header="t,q")
    code, _, err = _run(capsys, "compare", str(tmp_path), "--true", "t", "--pred", "p")
    assert code == 2
    _one_line_error(err, f"{tmp_path / 'c.csv'}: column 'p' is not in the file; its columns are: t, q")


@pytest.mark.parametrize("budget", ["lots", "0", "1 XB", "-5MB", "1e99", "1e400"])
def test_compare_bad_memory_budget(tmp_path, capsys, budget):
    path = _labels(tmp_path, b"t,p\na,1\nb,2\n")
    code, _, err = _run(capsys, "compare", path, "--true", "t", "--pred", "p", f"--memory-budget={budget}")
    assert code == 2
    assert err in (f"cluval: error: --memory-budget must be a size such as 1GB, 512MB or 2GiB, got {budget!r}\n",
                   f"cluval: error: --memory-budget must be at least one byte, got {budget!r}\n",
                   f"cluval: error: --memory-budget must be less than 2**63 bytes (about 9.2 EB), got {budget!r}\n")


def test_byte_sizes():
    assert [cli.byte_size(t) for t in ("1GB", "1 gb", "512MiB", "2e9", "1.5kB", "100")] == [
        10**9, 10**9, 512 * 2**20, 2 * 10**9, 1500, 100]


def test_compare_out_of_core_without_dask_explains(tmp_path, capsys, monkeypatch):
    path = _labels(tmp_path, b"t,p\na,1\na,1\nb,2\n")
    monkeypatch.setitem(sys.modules, "dask", None)  # import dask fails
    code, _, err = _run(capsys, "compare", path, "--true", "t", "--pred", "p", "--memory-budget", "10B")
    assert code == 2
    _one_line_error(err, f'{path} needs more memory than --memory-budget (10 bytes) and is read out of core with Dask, '
                         'which is not installed: python -m pip install "cluval[dask]"')
    assert _run(capsys, "compare", path, "--true", "t", "--pred", "p")[0] == 0  # in memory: no Dask needed


def test_compare_unreachable_scheduler(tmp_path, capsys, monkeypatch):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing listens there
    monkeypatch.setattr(cli, "SCHEDULER_TIMEOUT", "1s")
    path = _labels(tmp_path, b"t,p\na,1\na,1\nb,2\n")
    code, _, err = _run(capsys, "compare", path, "--true", "t", "--pred", "p", "--scheduler", f"tcp://127.0.0.1:{port}")
    assert code == 2 and err.count("\n") == 1
    assert err.startswith(f"cluval: error: cannot connect to the Dask scheduler at tcp://127.0.0.1:{port} (")
    assert err.endswith("): start one (dask scheduler) or leave out --scheduler\n")


@pytest.mark.slow
def test_compare_on_a_running_dask_cluster(tmp_path, capsys, dask_calls):
    from distributed import LocalCluster

    labels_true, labels_pred = _moved_labels(20_000, seed=4)
    path = _write_csv(tmp_path / "labels.csv", labels_true, labels_pred)
    expected = _scores(capsys, "compare", path, "--true", "t", "--pred", "p", "--json")
    with LocalCluster(n_workers=1, processes=False, protocol="tcp", host="127.0.0.1",
                      dashboard_address=None) as cluster:
        shown = _scores(capsys, "compare", path, "--true", "t", "--pred", "p", "--json", "--scheduler",
                        cluster.scheduler_address)
        assert "partition_table" in cluster.scheduler.task_prefixes  # the cluster built the tables
    assert shown == expected and len(dask_calls) == 1


# ---------------------------------------------------------------------- experiments: exit status, --out
def test_experiments_run_exits_1_when_a_claim_differs(tmp_path, capsys):
    code, out, _ = _run(capsys, "experiments", "run", "rand_table1", "--out", str(tmp_path))
    assert code == 1
    assert "rand_table1: 10 of 11 claims within tolerance" in out
    assert out.splitlines()[-1] == "1 claim(s) differ from the published values (exit status 1)"


def test_experiments_run_exits_0_when_every_claim_holds(tmp_path, capsys):
    code, out, _ = _run(capsys, "experiments", "run", "psi_synthetic", "--out", str(tmp_path))
    assert code == 0 and "differ" not in out
    assert {p.name for p in tmp_path.iterdir()} == {"psi_synthetic.csv", "psi_synthetic_checks.csv",
                                                    "psi_synthetic.html", ".cluval-written"}  # and what it wrote


def test_experiments_existing_file_as_out(tmp_path, capsys):
    target = tmp_path / "results.csv"
    target.write_text("keep me")
    code, out, err = _run(capsys, "experiments", "run", "rand_table1", "--out", str(target))
    assert code == 2 and out == ""
    _one_line_error(err, f"--out {target} is an existing file, not a folder: give a folder for the CSV and HTML "
                         "results (it is created if missing)")
    assert target.read_text() == "keep me"


def test_experiments_unknown_name_creates_nothing(tmp_path, capsys):
    code, _, err = _run(capsys, "experiments", "run", "nope", "--out", str(tmp_path / "out"))
    assert code == 2 and err.startswith("cluval: error: unknown experiment 'nope'; known: all, psi_synthetic")
    assert not (tmp_path / "out").exists()


# ---------------------------------------------------------------------- never a traceback
def test_os_error_is_one_line(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("")
    code, _, err = _run(capsys, "experiments", "run", "rand_table1", "--out", str(blocker / "sub"))
    assert code == 2 and err.count("\n") == 1
    assert err.startswith("cluval: error: [Errno 20] Not a directory:")


def test_unexpected_error_is_one_line(tmp_path, capsys, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("boom\nsecond line")

    monkeypatch.setattr(cli, "compare", broken)
    path = _labels(tmp_path, b"a,b\n1,2\n3,4\n")
    code, _, err = _run(capsys, "compare", path, "--true", "a", "--pred", "b")
    assert code == 2
    assert err == "cluval: unexpected error (RuntimeError: boom); please report it\n"


def test_datasets_errors_are_one_line(capsys, monkeypatch, tmp_path):
    code, _, err = _run(capsys, "datasets", "verify", "nope")
    assert code == 2 and err.count("\n") == 1
    assert err.startswith("cluval: error: unknown data set 'nope'; known sets: s1")
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("CLUVAL_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("CLUVAL_CACHE_DIR", str(blocker / "cache"))
    code, out, err = _run(capsys, "datasets", "fetch", "iris")
    assert code == 2 and "Traceback" not in err  # could not do what was asked: 2, as for every command
    assert "cannot be stored in the download cache" in err and "Set CLUVAL_CACHE_DIR to a writable folder" in err


@pytest.mark.slow  # a Python process of its own
@pytest.mark.parametrize("argv", [["datasets", "verify", "nope"], ["experiments", "run"]])
def test_no_traceback_in_a_real_process(argv, tmp_path):
    result = subprocess.run([sys.executable, "-m", "cluval_core.outputs.cli", *argv], capture_output=True, text=True,
                            timeout=120, cwd=tmp_path)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and result.stderr.startswith("cluval: error: ")
    assert result.stderr.count("\n") == 1


# ---------------------------------------------------------------------- the app, and what the CLI imports
def test_app_outside_a_checkout_explains(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(cli, "__file__", str(tmp_path / "site-packages" / "cluval_core" / "outputs" / "cli.py"))
    code, _, err = _run(capsys, "app")
    assert code == 2
    _one_line_error(err, f"the app is not part of this installation ({tmp_path / 'site-packages' / 'app.py'} does "
                         "not exist); the app runs from a checkout of the cluval repository: clone it, then run "
                         'python -m pip install -e ".[app]" && python -m streamlit run app.py')


def test_app_without_streamlit_explains(capsys, monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "streamlit" else real(name, *a))
    code, _, err = _run(capsys, "app")
    assert code == 2
    _one_line_error(err, 'the app needs Streamlit, which is not installed: run python -m pip install -e ".[app]" in '
                         "the checkout")


NO_STREAMLIT = """
import importlib, pkgutil, sys

class Block:
    def find_spec(self, name, path=None, target=None):
        if name == "streamlit" or name.startswith("streamlit."):
            raise ImportError("streamlit is blocked in this test")

sys.meta_path.insert(0, Block())
import cluval_core
for module in pkgutil.iter_modules(cluval_core.__path__):
    importlib.import_module(f"cluval_core.{module.name}")
from cluval_core.outputs.cli import main
codes = [main(["datasets", "list"]), main(["compare", sys.argv[1], "--true", "t", "--pred", "p", "--json"]),
         main(["experiments", "list"]), main(["experiments", "run", "psi_synthetic", "--out", sys.argv[2]])]
assert codes == [0, 0, 0, 0], codes
assert not [m for m in sys.modules if m.split(".")[0] == "streamlit"]
print("no streamlit")
"""


@pytest.mark.slow
def test_library_and_cli_never_import_streamlit(tmp_path):
    labels = _labels(tmp_path, b"t,p\na,1\na,1\nb,2\n")
    result = subprocess.run([sys.executable, "-c", NO_STREAMLIT, labels, str(tmp_path / "out")], capture_output=True,
                            text=True, timeout=300, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.endswith("no streamlit\n")


# ---------------------------------------------------------------------- strict JSON in the app's downloads
def test_to_json_writes_null_for_nan_and_infinities():
    import numpy as np

    from cluval_core.outputs.export import to_json

    text = to_json({"psi": float("nan"), "vi": np.float64(np.inf), "k": np.int64(3), "row": np.array([1.5, -np.inf]),
                    "nested": [{"x": -float("inf")}]})
    assert _strict(text) == {"psi": None, "vi": None, "k": 3, "row": [1.5, None], "nested": [{"x": None}]}


def test_pages_write_json_only_through_to_json():
    import ast

    for page in sorted((ROOT / "pages").glob("*.py")):
        tree = ast.parse(page.read_text())
        dumps = [node for node in ast.walk(tree) if isinstance(node, ast.Attribute) and node.attr == "dumps"]
        assert not dumps, f"{page.name} writes JSON without cluval_core.outputs.export.to_json"
        if "application/json" in page.read_text():  # through to_json or export's JSON writer built on it
            names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
            assert names & {"to_json", "json_with_provenance"}, page.name


# ---------------------------------------------------------------------- paired
def _three_columns(tmp_path) -> str:
    rows = ["truth,kmeans,ward"] + [f"{i % 3},{i % 3 if i % 10 else 0},{i % 3 if i % 4 else 1}" for i in range(120)]
    return _labels(tmp_path, "\n".join(rows).encode())


def test_paired_prints_the_values_the_library_gives_and_what_they_show(tmp_path, capsys):
    from cluval_core import compare_paired

    path = _three_columns(tmp_path)
    code, out, err = _run(capsys, "paired", path, "--true", "truth", "--a", "kmeans", "--b", "ward", "--indices",
                          "ari,vi", "--bootstrap", "50", "--permutations", "50", "--seed", "2", "--json")
    assert code == 0 and err == ""
    shown = _strict(out)
    truth, a, b = (i % 3 for i in range(120)), (i % 3 if i % 10 else 0 for i in range(120)), \
        (i % 3 if i % 4 else 1 for i in range(120))
    expected = compare_paired([*truth], [*a], [*b], ["ari", "vi"], n_bootstrap=50, n_permutations=50, seed=2,
                              names=("kmeans", "ward"))
    assert shown["n"] == 120 and shown["a"] == "kmeans" and "exchangeable" in shown["null"]
    for row in shown["indices"]:
        for column in ("a", "b", "difference", "se", "boot_low", "boot_high", "p"):
            assert row[column] == pytest.approx(expected.table.loc[row["index"], column]), column
        assert row["sentence"] == expected.sentence(row["index"])
    code, out, err = _run(capsys, "paired", path, "--true", "truth", "--a", "kmeans", "--b", "ward", "--indices",
                          "ari", "--bootstrap", "20", "--permutations", "30")
    assert code == 0
    assert "120 objects; A = kmeans, B = ward, reference truth" in out and "null hypothesis" in out
    assert expected.sentence("ari").split(" (")[0] in out
    assert "(50 of 50)" in err  # the progress bar on stderr


@pytest.mark.parametrize("argv, message", [
    (["--a", "kmeans", "--b", "nope"], "column 'nope' is not in the file; its columns are: truth, kmeans, ward"),
    (["--a", "kmeans", "--b", "ward", "--bootstrap", "1"], "n_bootstrap must be a whole number of at least 2, got 1"),
    (["--a", "kmeans", "--b", "ward", "--indices", "ari,zzz"], "unknown index id 'zzz'"),
    (["--a", "kmeans", "--b", "ward", "--level", "2"], "level must be a number between 0 and 1, got 2.0"),
])
def test_paired_errors_are_one_line(tmp_path, capsys, argv, message):
    code, out, err = _run(capsys, "paired", _three_columns(tmp_path), "--true", "truth", *argv)
    assert code == 2 and out == ""
    assert err.startswith(f"cluval: error: {message}") and err.count("\n") == 1
