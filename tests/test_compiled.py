"""The compiled loops: cached beside their module, and compiled anew where no cache can be written."""

from __future__ import annotations

import numpy as np
from numba.core import caching

from cluval_core.core import covers
from cluval_core.core.compiled import compiled


def test_a_compiled_loop_is_cached_beside_its_module():
    assert isinstance(covers._column_counts._cache, caching.FunctionCache)
    assert covers._column_counts(np.array([2, 0, 2], dtype=np.int32), 4).tolist() == [1, 0, 2, 0]


def test_where_no_cache_can_be_written_the_loop_is_compiled_in_each_process():
    namespace = {}  # a function with no source file: numba has nowhere to keep its cache
    exec(compile("def total(values):\n    out = 0\n    for v in values:\n        out += v\n    return out\n",
                 "<no file>", "exec"), namespace)
    total = compiled(namespace["total"])
    assert isinstance(total._cache, caching.NullCache)
    assert total(np.arange(5)) == 10
