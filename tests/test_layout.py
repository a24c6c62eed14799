"""The library's layout: layers that import one way, no import circle, one index in one place."""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

import pytest

from cluval_core import INDICES

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "cluval_core"
# Imported inside a function only: dependencies a user may not have installed.
OPTIONAL = {"dask", "distributed", "pyarrow"}
# Each layer and the layers it may import (the package's own top level aside).
LAYERS = {
    "core": {"core"},
    "indices": {"core", "indices"},
    "data": {"core", "data"},
    "algorithms": {"core", "indices", "data", "algorithms"},
    "outputs": {"core", "indices", "data", "algorithms", "outputs", "experiments"},
    "experiments": {"core", "indices", "data", "algorithms", "outputs", "experiments"},
}


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def _imports(name: str, *, top_level: bool):
    """(line, imported module, name) of the module's imports of cluval_core: at module level
    (top_level=True) or inside functions (top_level=False); and the other imports too."""
    tree = ast.parse(MODULES[name].read_text())
    functions = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    inside = {id(inner) for f in functions for inner in ast.walk(f) if isinstance(inner, (ast.Import, ast.ImportFrom))}
    package = name if _is_package(name) else name.rsplit(".", 1)[0]
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Import, ast.ImportFrom)) or (id(node) in inside) == top_level:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, None
            continue
        if node.level:
            base = package.split(".")[: len(package.split(".")) - node.level + 1]
            module = ".".join(base + ([node.module] if node.module else []))
        else:
            module = node.module
        for alias in node.names:
            yield node.lineno, module, alias.name


def _graph() -> dict[str, set[str]]:
    """cluval_core's module-level imports: module -> the modules it imports (a name imported from
    a package is the submodule of that name when there is one)."""
    graph = defaultdict(set)
    for name in MODULES:
        for _, module, imported in _imports(name, top_level=True):
            if not module or not module.startswith("cluval_core"):
                continue
            target = f"{module}.{imported}" if imported and f"{module}.{imported}" in MODULES else module
            if target in MODULES and target != name:
                graph[name].add(target)
    return graph


def test_no_import_circle():
    graph = _graph()
    state, circles = {}, []

    def visit(module, path):
        state[module] = "open"
        for target in sorted(graph[module]):
            if state.get(target) == "open":
                circles.append(path[path.index(target):] + [target])
            elif target not in state:
                visit(target, path + [target])
        state[module] = "done"

    for module in sorted(MODULES):
        if module not in state:
            visit(module, [module])
    assert not circles, "import circles: " + "; ".join(" -> ".join(c) for c in circles)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_imports_inside_functions_are_optional_dependencies_only(name):
    for line, module, _ in _imports(name, top_level=False):
        assert module and module.split(".")[0] in OPTIONAL, f"{name}:{line} imports {module} in a function"


@pytest.mark.parametrize("name", sorted(n for n in MODULES if n.count(".") >= 1))
def test_layers_import_one_way(name):
    layer = name.split(".")[1]
    if layer not in LAYERS:  # the package's own top-level modules
        return
    for line, module, _ in _imports(name, top_level=True):
        if module and module.startswith("cluval_core.") and module.count(".") >= 1:
            assert module.split(".")[1] in LAYERS[layer] | {"_version"}, f"{name}:{line} imports {module}"


def _id_strings() -> dict[str, set[str]]:
    """index id -> the engine modules where it is written as a string (figures, the papers'
    experiments and the peer-name map aside)."""
    where = defaultdict(set)
    for name, path in MODULES.items():
        parts = name.split(".")
        if "plots" in parts or "experiments" in parts or parts[-1] == "peers":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in INDICES:
                where[node.value].add(name)
    return where


def test_one_index_lives_in_one_place():
    """Nine in ten index ids are written in at most two modules: the family module that holds
    the index, and at most one other (a default, a report)."""
    where = _id_strings()
    spread = {i: sorted(where[i]) for i in INDICES if len(where[i]) > 2}
    assert len(INDICES) - len(spread) >= 0.9 * len(INDICES), spread
    for index_id, info in INDICES.items():
        assert f"cluval_core.indices.{info.family}" in where[index_id], index_id  # declared in its family


def test_the_generic_machinery_knows_no_index():
    where = _id_strings()
    generic = {"cluval_core.core.chance", "cluval_core.core.registry", "cluval_core.core.labels",
               "cluval_core.core.steps", "cluval_core.core.noise"}
    assert not {i: sorted(m & generic) for i, m in where.items() if m & generic}


# names that used to be top level (deprecated there) and names that never were
MOVED_AWAY = {"find_indices": "indices", "PEER_NAMES": "indices.peers", "cluster_many": "algorithms.stability"}
NEVER_TOP_LEVEL = ["cluster", "ALGORITHMS", "FUNCTIONS", "FAMILY_MODULES"]


@pytest.mark.parametrize("name", [*MOVED_AWAY, *NEVER_TOP_LEVEL])
def test_search_peer_names_and_the_clustering_lab_are_not_top_level_names(name):
    import cluval_core

    assert name not in cluval_core.__all__ and name not in vars(cluval_core)
    if name in MOVED_AWAY:  # an old top-level name still works but says where it went
        with pytest.warns(DeprecationWarning, match=rf"use cluval_core\.{re.escape(MOVED_AWAY[name])}\.{name}"):
            getattr(cluval_core, name)
    else:
        with pytest.raises(AttributeError):
            getattr(cluval_core, name)
