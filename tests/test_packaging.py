"""Packaging: a built wheel installs and works without the checkout; the dependency lists agree."""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    from pip._vendor import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
APP_COMMAND = 'python -m pip install -e ".[app]" && python -m streamlit run app.py'
TEST_COMMAND = 'python -m pip install -e ".[test]" && python -m pytest'
LINT_COMMAND = "python -m ruff check ."
DOCS_COMMAND = "python -m sphinx -W --keep-going -b html docs docs/_build/html"


def test_requirements_txt_lists_the_library_and_app_dependencies():
    lines = [line.strip() for line in (ROOT / "requirements.txt").read_text().splitlines()]
    requirements = [line for line in lines if line and not line.startswith("#")]
    assert requirements == PROJECT["dependencies"] + PROJECT["optional-dependencies"]["app"]


def test_streamlit_is_an_optional_extra():
    assert not [d for d in PROJECT["dependencies"] if d.startswith("streamlit")]
    assert [d for d in PROJECT["optional-dependencies"]["app"] if d.startswith("streamlit")]
    assert "cluval[app]" in PROJECT["optional-dependencies"]["test"]


def test_readme_commands_and_ci_run_the_same_test_command():
    commands = [line.strip() for line in (ROOT / "README.md").read_text().splitlines()
                if line.strip().startswith("python -m pip install")]
    assert commands[:2] == [APP_COMMAND, TEST_COMMAND]
    ci = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()
          if line.strip() and not line.lstrip().startswith("#")]
    # README's test command, then the checks it installs: the linter and the documentation site
    assert [line.replace(" -q", "") for line in ci[-3:]] == [TEST_COMMAND, LINT_COMMAND, DOCS_COMMAND]


def _build_wheel(tmp_path: Path) -> Path:
    """The wheel of a clean copy of the sources (no build/ left over from an earlier build)."""
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "cluval_core", source / "cluval_core", ignore=shutil.ignore_patterns("__pycache__"))
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                            str(source), "-w", str(tmp_path / "wheels")], capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr
    (wheel,) = (tmp_path / "wheels").glob("cluval-*.whl")
    return wheel


def _venv_with(wheel: Path, tmp_path: Path) -> tuple[Path, Path]:
    """A fresh virtual environment holding only the wheel; its dependencies come from this
    interpreter's site-packages, added as a plain path so that the editable install's
    finder (loaded by a .pth file there) cannot shadow the wheel."""
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=False, system_site_packages=False)
    bin_dir = env_dir / ("Scripts" if os.name == "nt" else "bin")
    python = bin_dir / ("python.exe" if os.name == "nt" else "python")
    installed = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "-q",
                                str(wheel)], capture_output=True, text=True, timeout=600)
    assert installed.returncode == 0, installed.stderr
    purelib = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                  check=True, capture_output=True, text=True).stdout.strip())
    system = [*site.getsitepackages(), sysconfig.get_paths()["purelib"]]
    (purelib / "_dependencies_from_the_test_interpreter.pth").write_text("\n".join(dict.fromkeys(system)) + "\n")
    return bin_dir, purelib


@pytest.mark.slow
@pytest.mark.data
def test_wheel_installs_and_runs_without_the_checkout(tmp_path):
    wheel = _build_wheel(tmp_path)
    names = zipfile.ZipFile(wheel).namelist()
    assert "cluval_core/data/catalogue.json" in names and "cluval_core/indices/atlas.json" in names
    published = sorted(n for n in names if n.startswith("cluval_core/experiments/published/"))
    assert published == [f"cluval_core/experiments/published/{t}.csv" for t in ("lei_table4", "psi_table6",
                                                                                  "psi_table7")]
    assert all(n.startswith(("cluval_core/", "cluval-")) for n in names), names  # no app, pages, tests, data

    bin_dir, purelib = _venv_with(wheel, tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    blocker = tmp_path / "blocker"
    blocker.write_text("a regular file: no home folder can be created below it")
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTHON", "XDG_", "CLUVAL_", "VIRTUAL_ENV"))}
    env.update(HOME=str(blocker / "home"), CLUVAL_DATA_DIR=os.environ["CLUVAL_DATA_DIR"],
               PYTHONDONTWRITEBYTECODE="1")
    installed = sorted(p.relative_to(purelib) for p in (purelib / "cluval_core").rglob("*"))

    def run(*argv):
        return subprocess.run([str(a) for a in argv], cwd=work, env=env, capture_output=True, text=True, timeout=600)

    where = run(bin_dir / "python", "-c", "import cluval_core; print(cluval_core.__file__)")
    assert where.returncode == 0, where.stderr
    assert Path(where.stdout.strip()).parent == purelib / "cluval_core"

    listed = run(bin_dir / "cluval", "datasets", "list")
    assert listed.returncode == 0, listed.stderr
    assert "iris             150   4    3  ok" in listed.stdout and "yeast" in listed.stdout

    (work / "labels.csv").write_text("truth,found\n01,a\n1.0,a\n1,b\n1,b\n")
    compared = run(bin_dir / "cluval", "compare", "labels.csv", "--true", "truth", "--pred", "found", "--json")
    assert compared.returncode == 0, compared.stderr
    from cluval_core import compare
    assert json.loads(compared.stdout)["ari"] == pytest.approx(compare(["01", "1.0", "1", "1"],
                                                                       ["a", "a", "b", "b"]).scores()["ari"])

    # the papers' published tables load from the installed wheel, equal to the checkout's
    tables = run(bin_dir / "python", "-c", "import cluval_core.experiments as e; from cluval_core.experiments import "
                 "psi_paper; print(e.__file__); print(psi_paper.TABLE6.to_json()); print(e.published('psi_table7')"
                 ".to_json()); print(e.published('lei_table4').to_json())")
    assert tables.returncode == 0, tables.stderr
    where, table6, table7, table4 = tables.stdout.splitlines()
    assert Path(where).parent == purelib / "cluval_core" / "experiments"
    from cluval_core.experiments import published
    assert json.loads(table6) == json.loads(published("psi_table6").to_json())
    assert json.loads(table6)["psi"] == {"0": 1.0, "1": 1.0, "2": 0.78, "3": 0.18}
    assert json.loads(table7) == json.loads(published("psi_table7").to_json())
    assert json.loads(table4) == json.loads(published("lei_table4").to_json())

    having = run(bin_dir / "cluval", "atlas", "--having", "distance,asymptotic_constant_baseline")
    assert having.returncode == 0 and "pair_correlation_distance" in having.stdout, having.stderr

    app = run(bin_dir / "cluval", "app")
    assert app.returncode == 2 and "Traceback" not in app.stderr
    assert app.stderr.startswith("cluval: error: the app is not part of this installation")
    assert 'python -m pip install -e ".[app]" && python -m streamlit run app.py' in app.stderr

    # nothing was written into the installation: no cache, no catalogue copy
    assert sorted(p.relative_to(purelib) for p in (purelib / "cluval_core").rglob("*")) == installed
