"""Where cluval keeps what it writes: the user's cache folder, never the installation.

Downloaded data sets (:mod:`cluval_core.data.datasets`) and the machine code of the compiled
loops (:mod:`cluval_core.core.compiled`) are kept there.
"""

from __future__ import annotations

import os
from pathlib import Path

import pooch

__all__ = ["cache_dir"]


def cache_dir() -> Path:
    """``CLUVAL_CACHE_DIR``, else the user's cache folder (``pooch.os_cache("cluval")``:
    ``~/.cache/cluval`` on Linux, ``~/Library/Caches/cluval`` on macOS,
    ``%LOCALAPPDATA%\\cluval\\Cache`` on Windows).

    Nothing is created here: whoever writes there first makes the folder.
    """
    if os.environ.get("CLUVAL_CACHE_DIR"):
        return Path(os.environ["CLUVAL_CACHE_DIR"]).expanduser()
    return Path(pooch.os_cache("cluval")).expanduser()
