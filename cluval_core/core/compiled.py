"""Loops compiled to machine code (numba), for the few passes numpy cannot do in one sweep.

:func:`compiled` compiles a function on its first call and keeps the machine code in a cache
beside the module, or in the user's cache folder; where neither can be written (a read-only
installation with no home folder), the function is compiled anew in each process instead.
"""

from __future__ import annotations

import numba


def compiled(function):
    """`function` compiled with numba (nopython mode, releasing the GIL), its machine code cached
    where a cache can be written.

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
    try:
        return numba.njit(cache=True, nogil=True)(function)
    except RuntimeError:  # numba found no folder it can write its cache to
        return numba.njit(nogil=True)(function)
