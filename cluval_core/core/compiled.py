"""Loops compiled to machine code (numba), for the few passes numpy cannot do in one sweep.

:func:`compiled` compiles a function on its first call and keeps the machine code in the
user's cache folder (``numba`` under :func:`~cluval_core.core.places.cache_dir`), never in the
installation; where that folder cannot be written (no home folder), the function is compiled
anew in each process instead. :func:`compiling_seconds` tells how long compiling has taken so
far, so that work judged by its pace is not judged on it. :data:`DIGAMMA` is scipy's own
digamma function for compiled code, passed to it as an argument (a function it reads as a
global could not be cached).
"""

from __future__ import annotations

import ctypes
import os
import time

import numba
from numba.core import event
from numba.extending import get_cython_function_address

from .places import cache_dir


def _writable(folder) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return os.access(folder, os.W_OK | os.X_OK)


def compiled(function):
    """`function` compiled with numba (nopython mode, releasing the GIL), its machine code cached
    in the user's cache folder where that can be written.

    >>> import numpy as np
    >>> @compiled
    ... def total(values):
    ...     out = 0
    ...     for v in values:
    ...         out += v
    ...     return out
    >>> total(np.arange(5))
    10
    """
    folder = cache_dir() / "numba"
    if not _writable(folder):
        return numba.njit(nogil=True)(function)
    kept, numba.config.CACHE_DIR = numba.config.CACHE_DIR, str(folder)  # numba picks the folder now
    try:
        return numba.njit(cache=True, nogil=True)(function)
    except RuntimeError:  # no cache for this function (it has no source file)
        return numba.njit(nogil=True)(function)
    finally:
        numba.config.CACHE_DIR = kept


class _Compiling(event.Listener):
    """Seconds spent compiling so far, in every thread (numba compiles one function at a time,
    under one lock, and the functions it calls within it)."""

    def __init__(self):
        self.seconds, self._depth, self._since = 0.0, 0, 0.0

    def on_start(self, event):
        if self._depth == 0:
            self._since = time.perf_counter()
        self._depth += 1

    def on_end(self, event):
        self._depth -= 1
        if self._depth == 0:
            self.seconds += time.perf_counter() - self._since


_COMPILING = _Compiling()
event.register("numba:compile", _COMPILING)


def compiling_seconds() -> float:
    """Seconds this process has spent compiling functions on their first call (none where their
    machine code was kept from an earlier run; loading it is not counted)."""
    return _COMPILING.seconds


# scipy.special.digamma of a float64 (the same function, so the same bits), callable from compiled code
DIGAMMA = ctypes.CFUNCTYPE(ctypes.c_double, ctypes.c_double)(
    get_cython_function_address("scipy.special.cython_special", "__pyx_fuse_1psi"))
