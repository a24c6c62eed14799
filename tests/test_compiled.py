"""The compiled loops: cached in the user's cache folder, and compiled anew where no cache can be written."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba.core import caching

from cluval_core.core import covers
from cluval_core.core.compiled import compiled
from cluval_core.core.places import cache_dir


def test_a_compiled_loop_is_cached_in_the_users_cache_folder_never_in_the_installation():
    assert isinstance(covers._column_counts._cache, caching.FunctionCache)
    assert covers._column_counts(np.array([2, 0, 2], dtype=np.int32), 4).tolist() == [1, 0, 2, 0]
    kept = Path(covers._column_counts._cache._cache_path)
    assert kept.is_relative_to(cache_dir() / "numba") and not kept.is_relative_to(Path(covers.__file__).parent)


def test_where_the_cache_folder_cannot_be_made_the_loop_is_compiled_without_a_cache(monkeypatch, tmp_path):
    blocker = tmp_path / "blocker"
    blocker.write_text("a regular file: no folder can be made below it")
    monkeypatch.setenv("CLUVAL_CACHE_DIR", str(blocker / "cache"))
    total = compiled(covers._column_counts.py_func)
    assert isinstance(total._cache, caching.NullCache)
    assert total(np.array([1, 1], dtype=np.int32), 2).tolist() == [0, 2]
    assert [p.name for p in tmp_path.iterdir()] == ["blocker"]  # nothing written anywhere instead


def test_where_no_cache_can_be_written_the_loop_is_compiled_in_each_process():
    namespace = {}  # a function with no source file: numba has nowhere to keep its cache
    exec(compile("def total(values):\n    out = 0\n    for v in values:\n        out += v\n    return out\n",
                 "<no file>", "exec"), namespace)
    total = compiled(namespace["total"])
    assert isinstance(total._cache, caching.NullCache)
    assert total(np.arange(5)) == 10


def test_the_time_spent_compiling_is_counted_and_the_budgets_clock_leaves_it_out():
    import time

    import numba

    from cluval_core.core import chance
    from cluval_core.core.compiled import compiling_seconds

    @numba.njit  # defined here: compiled on its first call, never loaded from a cache
    def twice(x):
        return x * 2

    before, clock_before, start = compiling_seconds(), chance._clock(), time.perf_counter()
    assert twice(21) == 42
    took, compiling, working = time.perf_counter() - start, compiling_seconds() - before, chance._clock() - clock_before
    assert 0 < compiling <= took and working < took / 2  # the call is microseconds, its compilation far more
    assert abs(working - (took - compiling)) < 0.01
    before = compiling_seconds()
    assert twice(4) == 8 and compiling_seconds() == before  # compiled once
