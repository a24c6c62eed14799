"""The library never imports Streamlit; pages only render what cluval_core computes."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORE = sorted((ROOT / "cluval_core").rglob("*.py"))
PAGES = sorted((ROOT / "pages").glob("*.py"))
PAGE_BODIES = [p for p in PAGES if not p.name.startswith("_")]
ENTRYPOINT = ROOT / "pages" / "_entrypoint.py"  # the script Streamlit runs for every page
# the modules where indices are computed: a page reaching into them would be computing
INDEX_MODULES = {"pair_counting", "information", "set_matching", "object_level", "cluster_level", "emi", "matching",
                 "contingency"}
NUMERIC_LIBRARIES = {"numpy", "scipy", "sklearn", "genieclust"}


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names |= {f"{node.module}.{a.name}" for a in node.names}
    return names


@pytest.mark.parametrize("path", CORE, ids=lambda p: p.name)
def test_core_never_imports_streamlit(path):
    assert not any(name == "streamlit" or name.startswith("streamlit.") for name in _imports(path))


@pytest.mark.parametrize("path", PAGES + [ROOT / "app.py"], ids=lambda p: p.name)
def test_pages_do_not_reach_into_the_index_modules(path):
    for name in _imports(path):
        parts = name.split(".")
        assert not (parts[0] == "cluval_core" and INDEX_MODULES & set(parts[1:])), name
        assert parts[0] not in NUMERIC_LIBRARIES - {"numpy"}, name


@pytest.mark.parametrize("path", PAGE_BODIES, ids=lambda p: p.name)
def test_page_bodies_do_no_arithmetic_on_data(path):
    """Pages import no numerics, build no comparison, and do no arithmetic on values."""
    tree = ast.parse(path.read_text())
    imports = _imports(path)
    assert not any(n.split(".")[0] in NUMERIC_LIBRARIES for n in imports)
    calls = {node.func.id for node in ast.walk(tree) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
    assert not calls & {"compare", "Comparison", "build_report", "cluster", "sum"}
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Div, ast.Sub, ast.Pow, ast.FloorDiv)):
            # only small layout arithmetic on literals and lengths is allowed (e.g. 6000 + 5 * size in text)
            names = {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)}
            assert not names & {"table", "row_sizes", "col_sizes", "scores", "pair_counts", "entropies",
                                "overlap", "value"}, ast.unparse(node)


def test_every_page_is_registered_in_the_entrypoint():
    entrypoint = ENTRYPOINT.read_text()
    for page in PAGE_BODIES:
        assert f'st.Page("{page.name}"' in entrypoint


def test_app_py_serves_the_entrypoint_and_no_pages_folder_sits_beside_it():
    """A pages/ folder beside Streamlit's main script switches on its older pages-directory mode
    (a fresh server lists the modules in pages/ and runs a linked page without the frame)."""
    assert 'st.App("pages/_entrypoint.py")' in (ROOT / "app.py").read_text()
    assert not (ENTRYPOINT.parent / "pages").exists()


def test_the_index_modules_named_here_are_every_family_of_the_library():
    from cluval_core.indices import FAMILY_MODULES

    assert {module.__name__.rsplit(".", 1)[-1] for module in FAMILY_MODULES} <= INDEX_MODULES
