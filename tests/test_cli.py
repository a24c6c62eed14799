"""The command line: the same file reader as the app, strict JSON, exit codes, one-line errors."""

from __future__ import annotations

import importlib.util
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from cluval_core import cli, compare
from cluval_core.cli import main
from cluval_core.userdata import ACCEPTED, MAX_BYTES

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
def test_compare_refuses_dev_zero_at_once():
    # in a child process with a time limit: the old reader grew without bound instead of failing
    result = subprocess.run([sys.executable, "-m", "cluval_core.cli", "compare", "/dev/zero", "--true", "a",
                             "--pred", "b"], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert result.returncode == 2
    assert result.stderr == ("cluval: error: /dev/zero is not a regular file (it is a device, pipe or socket): give "
                             f"the path of {ACCEPTED}\n")


def test_compare_directory(tmp_path, capsys):
    code, out, err = _run(capsys, "compare", str(tmp_path), "--true", "a", "--pred", "b")
    assert code == 2 and out == ""
    _one_line_error(err, f"{tmp_path} is a directory, not a file: give the path of {ACCEPTED}")


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


def test_compare_over_cap_file(tmp_path, capsys):
    path = tmp_path / "huge.csv"
    with open(path, "wb") as fh:
        fh.truncate(MAX_BYTES + 1)
    code, _, err = _run(capsys, "compare", str(path), "--true", "a", "--pred", "b")
    assert code == 2
    _one_line_error(err, f"{path} is {MAX_BYTES + 1:,} bytes, more than the 200 MB accepted: subsample it first")


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
                                                    "psi_synthetic.html"}


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

    monkeypatch.setattr("cluval_core.comparison.compare", broken)
    path = _labels(tmp_path, b"a,b\n1,2\n3,4\n")
    code, _, err = _run(capsys, "compare", path, "--true", "a", "--pred", "b")
    assert code == 2
    assert err == "cluval: unexpected error (RuntimeError: boom); please report it\n"


def test_datasets_errors_are_one_line(capsys, monkeypatch, tmp_path):
    code, _, err = _run(capsys, "datasets", "verify", "nope")
    assert code == 2 and err.startswith("cluval: error: unknown data set 'nope'; known sets: s1") and err.count("\n") == 1
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("CLUVAL_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("CLUVAL_CACHE_DIR", str(blocker / "cache"))
    code, out, err = _run(capsys, "datasets", "fetch", "iris")
    assert code == 1 and "Traceback" not in err
    assert "cannot be stored in the download cache" in err and "Set CLUVAL_CACHE_DIR to a writable folder" in err


@pytest.mark.parametrize("argv", [["datasets", "verify", "nope"], ["experiments", "run"]])
def test_no_traceback_in_a_real_process(argv, tmp_path):
    result = subprocess.run([sys.executable, "-m", "cluval_core.cli", *argv], capture_output=True, text=True,
                            timeout=120, cwd=tmp_path)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and result.stderr.startswith("cluval: error: ")
    assert result.stderr.count("\n") == 1


# ---------------------------------------------------------------------- the app, and what the CLI imports
def test_app_outside_a_checkout_explains(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(cli, "__file__", str(tmp_path / "site-packages" / "cluval_core" / "cli.py"))
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
from cluval_core.cli import main
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

    from cluval_core.export import to_json

    text = to_json({"psi": float("nan"), "vi": np.float64(np.inf), "k": np.int64(3), "row": np.array([1.5, -np.inf]),
                    "nested": [{"x": -float("inf")}]})
    assert _strict(text) == {"psi": None, "vi": None, "k": 3, "row": [1.5, None], "nested": [{"x": None}]}


def test_pages_write_json_only_through_to_json():
    import ast

    for page in sorted((ROOT / "pages").glob("*.py")):
        tree = ast.parse(page.read_text())
        dumps = [node for node in ast.walk(tree) if isinstance(node, ast.Attribute) and node.attr == "dumps"]
        assert not dumps, f"{page.name} writes JSON without cluval_core.export.to_json"
        if "application/json" in page.read_text():  # through to_json or export's JSON writer built on it
            names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
            assert names & {"to_json", "json_with_provenance"}, page.name
