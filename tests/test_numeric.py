"""The order-free sums and the distinct values that every index's sums rest on."""

from __future__ import annotations

import numpy as np
import pytest

from cluval_core.core.numeric import distinct_counts, order_free_sum


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.uint8, np.uint64, np.float64])
def test_distinct_counts_are_numpys_unique_with_counts(dtype):
    rng = np.random.default_rng(0)
    info = np.iinfo(dtype) if np.dtype(dtype).kind in "iu" else None
    for size in (1, 2, 7, 100, 3000):
        for spread in (1, 5, 300, 10**6):
            if info is not None:  # counted (a small range) or sorted (a wide one), near either end of the type
                low = int(info.min) if rng.random() < 0.5 else int(info.max) - min(spread, int(info.max))
                spread = min(spread, int(info.max) - low)
                values = (low + rng.integers(0, spread + 1, size, dtype=np.uint64).astype(object)).astype(dtype)
            else:
                values = rng.integers(-spread, spread + 1, size).astype(dtype) / 4
            found = distinct_counts(values)
            want = np.unique(values, return_counts=True)
            assert [x.dtype for x in found] == [x.dtype for x in want]
            assert [x.tolist() for x in found] == [x.tolist() for x in want]


def test_distinct_counts_of_nothing_and_of_a_table():
    assert [x.tolist() for x in distinct_counts(np.zeros(0, dtype=np.int64))] == [[], []]
    assert [x.tolist() for x in distinct_counts(np.array([[2, 0], [2, 5]]))] == [[0, 2, 5], [1, 2, 1]]


def test_order_free_sum_is_the_same_in_any_order():
    rng = np.random.default_rng(1)
    values = np.r_[rng.normal(size=1000) * 10.0 ** rng.integers(-8, 8, 1000), 0.0, -0.0]
    sums = {order_free_sum(rng.permutation(values)) for _ in range(20)}
    assert len(sums) == 1
    assert sums.pop() == pytest.approx(float(np.sum(values)), rel=1e-9)
