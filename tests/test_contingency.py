"""The contingency table and factorisation agree with sorting-based references."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.metrics.cluster import contingency_matrix

from cluval_core import compare
from cluval_core.core.contingency import (
    _sparse_table,
    contingency_table,
    factorize,
    first_occurrence_order,
    table_from_codes,
)
from cluval_core.core.validation import DENSE_CELLS


def _reference(a, b):
    rows, ia = np.unique(a, return_inverse=True)
    cols, ib = np.unique(b, return_inverse=True)
    return contingency_matrix(ia, ib), rows, cols


KINDS = ["random", "sorted", "negative", "gaps", "int8", "uint64", "int32"]


@pytest.mark.parametrize("kind", KINDS)
def test_integer_tables_match_sorting(kind):
    rng = np.random.default_rng(KINDS.index(kind))  # a fixed seed per kind, the same every run
    n = 700_000  # several chunks of the streaming path
    a = rng.integers(0, 40, n)
    b = np.where(rng.random(n) < 0.5, a, rng.integers(0, 30, n))
    if kind == "sorted":
        order = np.argsort(a, kind="stable")
        a, b = a[order], b[order]
    elif kind == "negative":
        a, b = a - 25, -b
    elif kind == "gaps":
        a, b = a * 1000 - 7, b * 31
    elif kind == "int8":
        a, b = a.astype(np.int8) - 20, b.astype(np.int8)
    elif kind == "uint64":
        a, b = a.astype(np.uint64) + np.uint64(2**63), b.astype(np.uint64)
    elif kind == "int32":
        a, b = a.astype(np.int32), b.astype(np.int32)
    table, rows, cols = contingency_table(a, b)
    ref, ref_rows, ref_cols = _reference(a, b)
    np.testing.assert_array_equal(table, ref)
    np.testing.assert_array_equal(rows, ref_rows)
    np.testing.assert_array_equal(cols, ref_cols)


def test_wide_integer_ranges_fall_back_to_hashing():
    a = np.array([0, 10**15, 0, -(10**15), 10**15])
    b = np.array([1, 2, 1, 3, 2])
    table, rows, cols = contingency_table(a, b)
    assert rows.tolist() == [-(10**15), 0, 10**15]
    assert table.tolist() == [[0, 0, 1], [2, 0, 0], [0, 2, 0]]


@pytest.mark.parametrize("dtype", ["U", "S", "object"])
def test_string_factorisation_matches_unique(dtype):
    rng = np.random.default_rng(3)
    words = np.array(["", "a", "ab", "ba", "é", "日本", "a b", "zz" * 9, "A", "b"])
    if dtype == "S":
        words = np.array([w.encode() for w in words])
    labels = words[rng.integers(0, len(words), 5000)]
    if dtype == "object":
        labels = labels.astype(object)
    codes, uniques = factorize(labels)
    ref_uniques, ref_codes = np.unique(labels, return_inverse=True)
    assert uniques.tolist() == ref_uniques.tolist()
    np.testing.assert_array_equal(codes, ref_codes)


def test_per_object_codes_follow_the_table_order():
    a = np.array(["b", "a", "c", "a"])
    b = np.array([7, -1, 7, 3])
    c = compare(a, b)
    codes_a, codes_b = c.codes
    assert c.row_labels[codes_a].tolist() == a.tolist()
    assert c.col_labels[codes_b].tolist() == b.tolist()


@pytest.mark.parametrize("objects, gaps", [(2_000_000, False), (100_000, False), (100_000, True)])
def test_tables_beyond_the_dense_limit_keep_the_non_empty_cells_of_the_sorted_reference(objects, gaps):
    """Above DENSE_CELLS a table is sparse: its cells counted in O(N + K + K') passes (the pairs by
    column, then by row), of the labels' offsets in their ranges when those are narrow enough (gaps
    and negative labels), else of codes; the same cells as scipy's sum of duplicates."""
    rng = np.random.default_rng(objects)
    k = 2100  # 4.41e6 cells, just above DENSE_CELLS
    assert k * k > DENSE_CELLS
    a, b = rng.integers(0, k, objects), rng.integers(0, k, objects)
    a[:k], b[:k] = np.arange(k), rng.permutation(k)  # every cluster occurs
    reference = sp.coo_array((np.ones(objects, dtype=np.int64), (a, b)), shape=(k, k)).tocsr()
    reference.sum_duplicates()
    labelled = (a * 7 - 5000, b * 3 + 11) if gaps else (a, b)
    from_labels, rows, cols = contingency_table(*labelled)
    np.testing.assert_array_equal(rows, np.unique(labelled[0]))
    np.testing.assert_array_equal(cols, np.unique(labelled[1]))
    for table in (from_labels, table_from_codes(a, b, k, k), compare(*labelled).table):
        assert isinstance(table, sp.csr_array) and table.has_canonical_format
        np.testing.assert_array_equal(table.indptr, reference.indptr)
        np.testing.assert_array_equal(table.indices, reference.indices)
        np.testing.assert_array_equal(table.data, reference.data)


@pytest.mark.parametrize("seed", range(9))
def test_a_sparse_table_is_counted_cell_by_cell_as_sorting_would(seed):
    """The counting passes give each row's cells in column order with their counts, as a sort of the
    combined codes does: empty rows and columns, offsets, one object, a single row or column; by
    column then row (many cells per object) or row by row in a scratch row (few: the last three)."""
    rng = np.random.default_rng(seed)
    n, k_a, k_b = [(1, 3000, 3000), (50, 2500, 2500), (20_000, 3000, 4000), (5_000, 1, 100_000),
                   (5_000, 100_000, 1), (60_000, 40_000, 40_000), (200_000, 300, 2_000), (40_000, 1, 300_000),
                   (50_000, 400_000, 1)][seed]
    assert (k_a * k_b <= 8 * n) == (seed >= 6)
    lo_a, lo_b = rng.integers(-50, 50, 2)
    a, b = rng.integers(0, k_a, n) + lo_a, rng.integers(0, k_b, n) + lo_b
    table = _sparse_table(a, b, k_a, k_b, lo_a, lo_b)
    reference = sp.coo_array((np.ones(n, dtype=np.int64), (a - lo_a, b - lo_b)), shape=(k_a, k_b)).tocsr()
    reference.sum_duplicates()
    assert table.shape == (k_a, k_b) and table.has_canonical_format and table.data.dtype == np.int64
    for got, want in zip((table.indptr, table.indices, table.data),
                         (reference.indptr, reference.indices, reference.data)):
        np.testing.assert_array_equal(got, want)


def test_a_sparse_table_of_distinct_pairs_is_counted_row_by_row_to_its_last_cell():
    """Every pair a cell of its own (as many cells as objects), counted in the scratch row: the
    branch-free read writes one place past the last cell, which must not cut the table short."""
    a, b = np.array([1, 0, 1, 0, 2, 2]), np.array([3, 0, 0, 2, 1, 3])
    table = _sparse_table(a, b, 3, 4)
    np.testing.assert_array_equal(table.toarray(), [[1, 0, 1, 0], [1, 0, 0, 1], [0, 1, 0, 1]])
    np.testing.assert_array_equal(table.indices, [0, 2, 0, 3, 1, 3])
    assert table.data.sum() == len(a)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.int64, np.intp])
def test_the_tie_order_of_codes_is_the_order_in_which_each_cluster_first_occurs(dtype):
    """Codes 0..k-1 (some clusters absent, some first seen late): the clusters present, in the
    order of their first object, as np.unique's first positions give them."""
    rng = np.random.default_rng(int(np.dtype(dtype).itemsize))
    for _ in range(50):
        k = int(rng.integers(1, 40))
        codes = rng.integers(0, k, int(rng.integers(1, 3000))).astype(dtype)
        codes[: int(rng.integers(0, len(codes)))] = codes[0]  # a long run before the next cluster comes
        present, first = np.unique(codes, return_index=True)
        expected = present[np.argsort(first)]
        assert first_occurrence_order(codes, k).tolist() == expected.tolist()
    with pytest.raises(ValueError, match="outside"):
        first_occurrence_order(np.array([0, 5, 1]), 3)
