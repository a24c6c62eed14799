"""Names that moved, kept working with a DeprecationWarning that says where they live now.

cluval_core's modules were once 27 files side by side; they now sit in folders that show the
library's layers (``core``, ``indices``, ``data``, ``algorithms``, ``outputs``). Every old
module path still imports, as a module that looks each name up where it lives now, and the
names that left the top level (the peer-name map, index search, the clustering lab) are
still found there. Each use says what to write instead.

>>> import warnings
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     from cluval_core.registry import INDICES
>>> str(caught[0].message)
'cluval_core.registry is deprecated: import INDICES from cluval_core.core.registry'
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import types
import warnings

# old module -> the modules its names now live in, searched in order
MODULES = {
    "cluval_core._numeric": ("cluval_core.core.numeric",),
    "cluval_core._validation": ("cluval_core.core.validation",),
    "cluval_core.contingency": ("cluval_core.core.contingency",),
    "cluval_core.comparison": ("cluval_core.core.comparison", "cluval_core.core.labels", "cluval_core.core.noise"),
    "cluval_core.chunks": ("cluval_core.core.chunks",),
    "cluval_core.many": ("cluval_core.core.many",),
    "cluval_core.matching": ("cluval_core.core.matching",),
    "cluval_core.emi": ("cluval_core.core.emi",),
    "cluval_core.registry": ("cluval_core.core.registry",),
    "cluval_core.chance": ("cluval_core.core.chance", "cluval_core.indices.pair_counting"),
    "cluval_core.scores": ("cluval_core.indices",),
    "cluval_core.pair_counting": ("cluval_core.indices.pair_counting",),
    "cluval_core.information": ("cluval_core.indices.information",),
    "cluval_core.set_matching": ("cluval_core.indices.set_matching",),
    "cluval_core.cluster_level": ("cluval_core.indices.cluster_level",),
    "cluval_core.modern": ("cluval_core.indices.information", "cluval_core.indices.pair_counting",
                           "cluval_core.indices.object_level"),
    "cluval_core.peer_names": ("cluval_core.indices.peers",),
    "cluval_core.datasets": ("cluval_core.data.datasets",),
    "cluval_core.synthetic": ("cluval_core.data.synthetic",),
    "cluval_core.userdata": ("cluval_core.data.userdata",),
    "cluval_core.presets": ("cluval_core.data.presets",),
    "cluval_core.clustering": ("cluval_core.algorithms.clustering",),
    "cluval_core.stability": ("cluval_core.algorithms.stability",),
    "cluval_core.export": ("cluval_core.outputs.export",),
    "cluval_core.cli": ("cluval_core.outputs.cli",),
    "cluval_core.plots": ("cluval_core.outputs.plots",),
    "cluval_core.plots.comparison": ("cluval_core.outputs.plots.comparison",),
    "cluval_core.plots.curves": ("cluval_core.outputs.plots.curves",),
    "cluval_core.plots.experiments": ("cluval_core.outputs.plots.experiments",),
    "cluval_core.plots.many": ("cluval_core.outputs.plots.many",),
}

# names that left the top level -> (their module, their name there)
NAMES = {
    "find_indices": ("cluval_core.indices", "find_indices"),
    "peer_names": ("cluval_core.indices.peers", "peer_names"),
    "PEERS": ("cluval_core.indices.peers", "PEERS"),
    "PEER_NAMES": ("cluval_core.indices.peers", "PEER_NAMES"),
    "RELATIONS": ("cluval_core.indices.peers", "RELATIONS"),
    "Peer": ("cluval_core.indices.peers", "Peer"),
    "PeerName": ("cluval_core.indices.peers", "PeerName"),
    "cluster_many": ("cluval_core.algorithms.stability", "cluster_many"),
    "stability_curve": ("cluval_core.algorithms.stability", "stability_curve"),
    "most_stable": ("cluval_core.algorithms.stability", "most_stable"),
    "Mapping": ("cluval_core.core.matching", "NearestMapping"),
}


def _deprecated(old: str, new: str) -> None:
    warnings.warn(f"{old} is deprecated: {new}", DeprecationWarning, stacklevel=3)


def moved_name(name: str):
    """The value of a top-level name that moved (for ``cluval_core.__getattr__``), with its warning."""
    if name in NAMES:
        module, attribute = NAMES[name]
        _deprecated(f"cluval_core.{name}", f"use {module}.{attribute}")
        return getattr(importlib.import_module(module), attribute)
    if f"cluval_core.{name}" in MODULES:
        return importlib.import_module(f"cluval_core.{name}")
    raise AttributeError(f"module 'cluval_core' has no attribute {name!r}")


class _MovedModule(types.ModuleType):
    """An old module path: each attribute is looked up in the modules that now hold it."""

    def __init__(self, name: str, targets: tuple[str, ...]):
        super().__init__(name, f"Deprecated: the names of {name} now live in {', '.join(targets)}.")
        self.__targets = targets

    def __getattr__(self, attribute: str):
        if attribute.startswith("__"):
            raise AttributeError(attribute)
        for target in self.__targets:
            module = importlib.import_module(target)
            if hasattr(module, attribute):
                _deprecated(self.__name__, f"import {attribute} from {target}")
                return getattr(module, attribute)
        raise AttributeError(f"module {self.__name__!r} has no attribute {attribute!r}")

    def __dir__(self):
        return sorted({name for target in self.__targets for name in dir(importlib.import_module(target))})


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds the old module paths (``import cluval_core.registry``) and gives a _MovedModule."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname in MODULES:
            is_package = any(other.startswith(fullname + ".") for other in MODULES)
            return importlib.util.spec_from_loader(fullname, self, is_package=is_package)
        return None

    def create_module(self, spec):
        module = _MovedModule(spec.name, MODULES[spec.name])
        if spec.submodule_search_locations is not None:
            module.__path__ = []
        return module

    def exec_module(self, module):
        pass


def install() -> None:
    """Put the finder of old module paths in front of the import system (once)."""
    if not any(isinstance(finder, _Finder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
