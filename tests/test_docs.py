"""The documentation site: it builds without a warning, its index pages are the registry's, and
no file of the repository points outside it.

The pages of docs/ are doctests too (pytest reads docs/*.rst: ``--doctest-glob``), so every
statement of docs/definitions.rst is checked against the code by the ordinary test run.
"""

from __future__ import annotations

import html
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cluval_core import FAMILIES, INDICES

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"

# Paths that lie outside the repository: the files beside a checkout, and this machine's.
OUTSIDE = ("../" + "shared", "../" + "papers", "INDICES" + ".md", "STYLE" + ".md", "TESTING" + ".md", "/" + "work/")
# The one outside path that must stay: the read-only benchmark data mirror beside a checkout,
# where CI finds the data sets, named by the CI script, the tests' configuration and the
# script that builds the catalogue from it.
DATA_MIRROR = "../" + "shared/datasets"
MAY_NAME_THE_DATA_MIRROR = {".ci/run", "tests/conftest.py", "datasets/build_catalogue.py"}


def _text(page: Path) -> str:
    """A built page's text: tags dropped, entities read, white space collapsed."""
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", page.read_text(encoding="utf-8"), flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The site, built as CI builds it: warnings are errors, and every one is reported."""
    out = tmp_path_factory.mktemp("site")
    built = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-b", "html", str(DOCS), str(out)],
                           cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert built.returncode == 0, f"the docs build failed or warned:\n{built.stdout[-4000:]}\n{built.stderr[-8000:]}"
    return out


@pytest.mark.slow
def test_the_site_builds_without_warnings(site):
    for page in ("index", "quickstart", "definitions", "indices", "api/index", "api/comparison", "api/registry"):
        assert (site / f"{page}.html").is_file(), page
    # MathJax is part of the site: the pages open without a network
    assert (site / "_static" / "mathjax" / "tex-chtml.js").is_file()
    assert "_static/mathjax/tex-chtml.js" in (site / "definitions.html").read_text(encoding="utf-8")


@pytest.mark.slow
@pytest.mark.parametrize("family", list(FAMILIES))
def test_each_family_page_lists_its_indices(site, family):
    text = _text(site / "families" / f"{family}.html")
    assert FAMILIES[family] in text
    entries = [info for info in INDICES.values() if info.family == family]
    assert entries
    positions = []
    for info in entries:
        assert info.id in text, info.id
        assert " ".join(info.name.split()) in text, info.name
        assert info.call in text, info.call
        positions.append(text.index(f"{info.name} ( {info.id} )"))
    assert positions == sorted(positions), "the indices are not in the registry's order"


@pytest.mark.slow
def test_the_registrys_symbols_are_typeset_as_mathematics(site):
    page = (site / "families" / "set_matching.html").read_text(encoding="utf-8")
    assert r'<span class="math notranslate nohighlight">\(r_{(1)} \ge r_{(2)} \ge \dots\)</span>' in page
    for family in FAMILIES:  # no dollar sign of the registry's Markdown is left as text
        assert "$" not in _text(site / "families" / f"{family}.html"), family


@pytest.mark.slow
def test_every_index_is_in_the_generated_pages(site):
    overview = _text(site / "indices.html")
    families = " ".join(_text(site / "families" / f"{family}.html") for family in FAMILIES)
    missing = [i for i in INDICES if not re.search(rf"(?<![\w]){re.escape(i)}(?![\w])", overview)]
    assert not missing, f"not in the index table: {missing}"
    missing = [i for i in INDICES if f"score(\"{i}\")" not in families]
    assert not missing, f"not on a family page: {missing}"


@pytest.mark.slow
def test_the_definitions_page_lists_the_exact_expectations_from_the_registry(site):
    text = re.sub(r" (?=[,.)])", "", _text(site / "definitions.html"))  # no space the tags left before a comma
    exact = [info.id for info in INDICES.values() if info.exact_expectation]
    assert f"{', '.join(exact)} ({len(exact)} of {len(INDICES)})." in text


def _tracked_files() -> list[Path]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the tracked files are unknown")
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    return [ROOT / name for name in listed.decode("utf-8").split("\0") if name]


def test_no_file_of_the_repository_cites_a_path_outside_it():
    found = []
    for path in _tracked_files():
        relative = path.relative_to(ROOT).as_posix()
        if not path.is_file() or relative == "tests/test_docs.py":
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # not text
        for number, line in enumerate(text.splitlines(), 1):
            if relative in MAY_NAME_THE_DATA_MIRROR:
                line = line.replace(DATA_MIRROR, "")
            cited = [outside for outside in OUTSIDE if outside in line]
            if cited:
                found.append(f"{relative}:{number}: {line.strip()[:160]}")
    assert not found, "files citing a path outside the repository:\n" + "\n".join(found)
