"""The order-free sums and the distinct values that every index's sums rest on."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special

from cluval_core.core.numeric import distinct_counts, order_free_sum, order_free_sum_counted, sorted_replaced


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



def test_a_few_terms_are_summed_compiled_as_numpy_sums_them():
    """Up to 128 float64 terms are sorted and summed in one compiled call: to the last bit what
    numpy's sort and sum give (its eight running sums from 8 terms on), for every length, terms of
    widely different sizes (where the order of additions shows), infinities, NaN and signed zeros."""
    rng = np.random.default_rng(12)
    for length in range(0, 131):
        for kind in range(5):
            if kind == 0:
                values = rng.normal(size=length) * 10.0 ** rng.integers(-30, 30, length)
            elif kind == 1:
                values = rng.choice([0.1, 0.2, 0.3, 1e16, -1e16, 7.0], length)
            elif kind == 2:
                values = rng.choice([0.0, -0.0], length)
            elif kind == 3:
                values = rng.choice([1.0, np.inf, -np.inf, np.nan, 2.5], length)
            else:
                values = rng.random(length)[::-1]  # not contiguous
            with np.errstate(invalid="ignore"):  # inf - inf
                got, want = order_free_sum(values), float(np.sort(values).sum())
            assert np.float64(got).tobytes() == np.float64(want).tobytes() or (np.isnan(got) and np.isnan(want)), \
                (length, kind)


_TERMS = {"n log n / N": lambda v: (v / 997) * np.log(v / 997),
          "log n!": lambda v: scipy.special.gammaln(v + 1.0),
          "a hump": lambda v: np.sin(v.astype(np.float64)) * 1e16,
          "with NaN": lambda v: np.where(v == 3, np.nan, v / 7),
          "signed zeros": lambda v: np.where(v % 2 == 0, -0.0, 0.0)}


@pytest.mark.parametrize("name", list(_TERMS))
def test_a_sum_counted_by_distinct_value_is_the_sorted_sum_to_the_last_bit(name):
    """order_free_sum_counted takes each distinct term once with its count: the sorted terms
    are the same array, so the sum is the same bits (NaN, signed zeros and terms that tie
    across values included)."""
    term = _TERMS[name]
    rng = np.random.default_rng(5)
    for size in (1, 3, 9, 130, 2500):
        values = rng.geometric(rng.choice([0.02, 0.3, 0.9]), size).astype(np.int64)
        distinct, counts = distinct_counts(values)
        got = order_free_sum_counted(term(distinct), counts)
        want = order_free_sum(term(np.sort(values)[::-1]))  # not counted, in another order
        assert np.array(got).tobytes() == np.array(want).tobytes(), (size, got, want)


def test_a_comparisons_cell_sum_is_the_sum_over_its_cells():
    from cluval_core import Comparison, compare

    rng = np.random.default_rng(2)
    term = _TERMS["n log n / N"]
    for c in (compare(rng.integers(0, 30, 4000), rng.integers(0, 40, 4000)),
              Comparison.from_table(rng.integers(0, 5, (20, 300)) * 1000003),
              Comparison.from_table(rng.random((6, 7)))):  # soft: summed cell by cell
        want = order_free_sum(term(c.cells.values))
        assert np.array(c.cell_sum(term)).tobytes() == np.array(want).tobytes()
    assert compare([0, 0, 1, 1, 1], [0, 1, 1, 1, 1]).cell_value_counts[1].tolist() == [2, 1]
    for c in (compare(rng.integers(0, 30, 4000), rng.integers(0, 40, 4000)), compare([0, 0, 1], [0, 1, 1])):
        with pytest.raises(ValueError, match="one term per value"):
            c.cell_sum(lambda v: v[v > 1])  # not elementwise: refused, never a sum of the wrong terms


def test_a_sorted_array_with_values_replaced_is_the_sorted_array_of_the_new_values():
    """sorted_replaced merges instead of sorting again: the same array as sorting what is left
    with what comes in, ties and repeated values included; a value that is not there is refused."""
    rng = np.random.default_rng(0)
    for _ in range(2000):
        values = np.round(rng.random(rng.integers(1, 60)) * rng.choice([3, 100]), rng.integers(0, 3))
        old = rng.choice(values, rng.integers(0, len(values) + 1), replace=False)
        new = np.round(rng.random(rng.integers(0, 10)) * 5, 1)
        rest = list(values)
        for v in old:
            rest.remove(v)
        want = np.sort(np.r_[rest, new])
        assert sorted_replaced(np.sort(values), old, new).tobytes() == want.tobytes()
    with pytest.raises(ValueError, match="not among the sorted values"):
        sorted_replaced(np.array([1.0, 2.0]), np.array([3.0]), np.array([0.5]))


def test_a_dense_tables_margins_and_cells_counted_in_one_pass_are_numpys():
    """A dense table of counts is read once for its margins and its non-empty cells: the same
    arrays (values and dtypes) as numpy's sums and np.nonzero, whatever the layout; a table with an
    empty cluster is cut first and its cells read from what is kept."""
    from cluval_core import Comparison

    rng = np.random.default_rng(5)
    for shape in ((1, 1), (1, 9), (9, 1), (3, 4), (40, 7), (60, 60)):
        for density in (0.05, 0.5, 1.0):
            table = rng.integers(1, 10**12, shape) * (rng.random(shape) < density)
            table[table.sum(1) == 0, 0] = 2
            table[0, table.sum(0) == 0] = 2
            for layout in (table, np.asfortranarray(table), table.T.copy().T):
                c = Comparison._build(layout, np.arange(shape[0]), np.arange(shape[1]), copy=False)
                rows, cols = np.nonzero(table)
                for got, want in zip((c.row_sizes, c.col_sizes, *c.cells), (table.sum(1), table.sum(0), rows, cols,
                                                                            table[rows, cols])):
                    assert got.dtype == want.dtype and np.array_equal(got, want), (shape, density)
    cut = Comparison.from_table([[0, 3, 0], [0, 0, 0], [2, 5, 0]])  # an empty row and two empty columns
    assert cut.table.tolist() == [[0, 3], [2, 5]] and [x.tolist() for x in cut.cells] == [[0, 1, 1], [1, 0, 1],
                                                                                         [3, 2, 5]]
