"""Sphinx configuration of cluval's documentation site.

Build it from the repository's root with ``python -m sphinx -b html docs docs/_build/html``.
Nothing here reaches the network: the theme is Sphinx's own (alabaster) and MathJax is served
from the built site (``sphinx-mathjax-offline``).
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))  # the local extension: docs/_ext/cluval_docs.py

import cluval_core  # noqa: E402 - after the path set-up above

project = "cluval"
author = "The cluval developers"
copyright = "2026, The cluval developers"
release = version = cluval_core.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx-mathjax-offline",
    "numpydoc",
    "cluval_docs",
]

root_doc = "index"
exclude_patterns = ["_build"]
templates_path: list[str] = []
html_theme = "alabaster"
html_title = f"cluval {release}"
html_static_path: list[str] = []
html_theme_options = {
    "description": "External cluster validity: compare two partitions with every index",
    "fixed_sidebar": False,
    "show_relbars": True,
}

# The one-line functions and classes are documented once, where their page says; the API
# pages list them in tables that link there.
autosummary_generate = False
autodoc_default_options = {"member-order": "bysource"}
autodoc_typehints = "none"  # the numpydoc Parameters sections say the types
add_module_names = False

# numpydoc: the docstrings are numpydoc; class members are listed by autodoc itself.
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
numpydoc_validation_checks: set[str] = set()
