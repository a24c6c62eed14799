"""Sparse tables: the same values as dense ones, pairings proven optimal, memory that grows
with the non-empty cells.

Every index is computed from the table's non-empty cells (``Comparison.cells``), whether the
table is stored densely or as a ``scipy.sparse.csr_array``; the pairings and mappings on cells
are checked against the dense algorithms they replace (scipy's ``linear_sum_assignment`` and
the dense greedy and nearest-neighbour functions), on random tables and on tables built to
have ties, empty pairs and large connected components.
"""

from __future__ import annotations

import itertools
import math
import tracemalloc

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.metrics import adjusted_rand_score, normalized_mutual_info_score

import cluval_core.core.comparison as comparison
import cluval_core.core.matching as matching
from cluval_core import Comparison, compare, expected_mutual_information
from cluval_core.core.matching import (
    assignment_gaps,
    greedy_pairing,
    greedy_pairing_cells,
    nearest_mapping,
    nearest_mapping_cells,
    optimal_pairing,
    optimal_pairing_cells,
    optimal_pairing_cells_is_tied,
    optimal_pairing_is_tied,
)
from cluval_core.core.registry import INDICES
from cluval_core.core.validation import DENSE_CELLS

TABLE_IDS = [i for i, info in INDICES.items() if not info.needs_data]


def _random_table(rng, kind: str) -> np.ndarray:
    """A table whose every row and column has a non-empty cell, of one of several shapes."""
    k_a, k_b = rng.integers(1, 9, size=2)
    if kind == "small counts":  # many exact ties
        t = rng.integers(0, 3, (k_a, k_b))
    elif kind == "sparse":
        t = (rng.random((k_a, k_b)) < 0.3) * rng.integers(1, 4, (k_a, k_b))
    elif kind == "near a permutation":
        t = np.eye(k_a, k_b, dtype=np.int64) * rng.integers(2, 9) + (rng.random((k_a, k_b)) < 0.2)
    else:  # "poisson"
        t = rng.poisson(0.7, (k_a, k_b))
    t = np.asarray(t, dtype=np.int64)
    for i in np.flatnonzero(t.sum(axis=1) == 0):
        t[i, rng.integers(k_b)] = 1
    for j in np.flatnonzero(t.sum(axis=0) == 0):
        t[rng.integers(k_a), j] = 1
    t[0, np.flatnonzero(t[0])[0]] += 1  # at least two objects
    return t


KINDS = ["small counts", "sparse", "near a permutation", "poisson"]


def _same(x: float, y: float) -> bool:
    return (math.isnan(x) and math.isnan(y)) or x == y


@pytest.mark.parametrize("kind", KINDS)
def test_sparse_and_dense_tables_give_identical_values_for_every_index(kind):
    rng = np.random.default_rng(KINDS.index(kind))
    for _ in range(40):
        t = _random_table(rng, kind)
        dense, sparse = Comparison.from_table(t), Comparison.from_table(sp.csr_array(t))
        assert not dense.is_sparse and sparse.is_sparse
        for index_id in TABLE_IDS:
            assert _same(dense.score(index_id), sparse.score(index_id)), (index_id, t.tolist())
        for name in ("hungarian_pairing", "accuracy_pairing", "row_normalised_pairing", "greedy_pairing"):
            a, b = getattr(dense, name), getattr(sparse, name)
            assert a.rows.tolist() == b.rows.tolist() and a.cols.tolist() == b.cols.tolist()
            assert a.tie_broken == b.tie_broken
        for a, b in zip(dense.jaccard_mapping, sparse.jaccard_mapping):
            assert a.targets.tolist() == b.targets.tolist() and a.tie_broken == b.tie_broken
        assert sparse.braun_banquet.toarray().tolist() == dense.braun_banquet.tolist()


def _check_cells_against_dense(t: np.ndarray, rng) -> None:
    r, c = np.nonzero(t)
    row_order, col_order = rng.permutation(t.shape[0]), rng.permutation(t.shape[1])
    sizes_r, sizes_c = t.sum(axis=1), t.sum(axis=0)
    for similarity in (t, t / np.maximum.outer(sizes_r, sizes_c), t / sizes_r[:, None]):
        dense_pairs = optimal_pairing(similarity, row_order, col_order)
        cell_pairs = optimal_pairing_cells(r, c, similarity[r, c], t.shape, row_order, col_order)
        assert len(cell_pairs[0]) == min(t.shape) == len(set(cell_pairs[1].tolist()))
        assert similarity[cell_pairs].sum() == pytest.approx(similarity[dense_pairs].sum(), rel=1e-12, abs=1e-12)
        assert optimal_pairing_cells_is_tied(r, c, similarity[r, c], t.shape, *cell_pairs) == \
            optimal_pairing_is_tied(similarity, *dense_pairs)
    dense_greedy = greedy_pairing(t, row_order, col_order)
    cell_greedy = greedy_pairing_cells(r, c, t[r, c], t.shape, row_order, col_order)
    assert [x.tolist() for x in dense_greedy[:2]] == [x.tolist() for x in cell_greedy[:2]]
    assert dense_greedy[2] == cell_greedy[2]
    jaccard = t / (sizes_r[:, None] + sizes_c[None, :] - t)
    dense_map = nearest_mapping(jaccard, col_order)
    cell_map = nearest_mapping_cells(r, c, jaccard[r, c], t.shape, col_order)
    assert dense_map[0].tolist() == cell_map[0].tolist() and dense_map[2] == cell_map[2]


@pytest.mark.parametrize("kind", KINDS)
def test_pairings_and_mappings_on_cells_equal_the_dense_algorithms(kind):
    rng = np.random.default_rng(10 + KINDS.index(kind))
    for _ in range(150):
        _check_cells_against_dense(_random_table(rng, kind), rng)


# how the sparse solver gets there: searching to the end; from an auction's prices (at once, or
# after the first search, from its duals: the soft limit); the auction, or the searches from its
# prices, giving up (the plain searches go on)
ROUTES = {"searches": {}, "prices": {"_SEARCH_ROWS": 0, "_SEARCH_BUDGET": 0},
          "soft limit": {"_SEARCH_ROWS": 0, "_SEARCH_SOFT": 0, "_SEARCH_TAIL": 0},
          "auction given up": {"_SEARCH_ROWS": 0, "_SEARCH_BUDGET": 0, "_AUCTION_BIDS": 0},
          "finish given up": {"_SEARCH_ROWS": 0, "_SEARCH_SOFT": 0, "_SEARCH_TAIL": 0, "_FINISH_BUDGET": 0}}


@pytest.mark.parametrize("route", ROUTES)
def test_the_sparse_solver_of_large_components_finds_the_dense_optimum(monkeypatch, route):
    # every component goes to the sparse solver (shortest augmenting paths on the cells)
    monkeypatch.setattr(matching, "_DENSE_BLOCK", 0)
    for name, value in ROUTES[route].items():
        monkeypatch.setattr(matching, name, value)
    rng = np.random.default_rng(3)
    for kind in KINDS * 40:
        _check_cells_against_dense(_random_table(rng, kind), rng)


def test_the_sparse_solver_pairs_a_row_only_where_that_gains():
    # row 0: column 0 (1.0) or column 1 (0.9); row 1: column 0 (0.9). Both rows paired gain 1.8 > 1.0
    starts = np.array([0, 2, 3])
    edges, solved, _ = matching._augmenting_paths(starts, np.array([0, 1, 0]), np.array([1.0, 0.9, 0.9]), 2, 100)
    assert edges.tolist() == [1, 2] and solved
    # row 1 can only take column 0, which row 0 uses better (5 > 1): row 1 stays unpaired
    starts = np.array([0, 1, 2])
    assert matching._augmenting_paths(starts, np.array([0, 0]), np.array([5.0, 1.0]), 1, 100)[0].tolist() == [0, -1]


def test_the_exact_finish_is_optimal_from_any_prices_and_any_start():
    # the auction's prices and columns only start the searches: wrong ones must not change the optimum
    rng = np.random.default_rng(8)
    for _ in range(200):
        n_r, n_c = (int(x) for x in rng.integers(1, 12, 2))
        ratios = rng.integers(1, 4, (n_r, n_c)) / rng.integers(1, 4, (n_r, n_c))  # many ties
        table = np.where(rng.random((n_r, n_c)) < 0.5, ratios, 0)
        r, c = np.nonzero(table)
        starts = np.searchsorted(r, np.arange(n_r + 1))
        s_starts, s_cols, s_w, s_edge = matching._squared(starts, c, table[r, c], n_c)
        n = n_r + n_c
        edge, left = matching._square_paths(s_starts, s_cols, s_w, rng.random(n) * 3, rng.permutation(n), 1 << 62)
        assert left >= 0
        assert sorted(s_cols[edge].tolist()) == list(range(n))  # a perfect matching of the square problem
        chosen = s_edge[edge[:n_r]]
        total = math.fsum(table[r[chosen[chosen >= 0]], c[chosen[chosen >= 0]]])
        assert total == pytest.approx(math.fsum(table[optimal_pairing(table)]), rel=1e-13)


def test_the_sparse_solver_takes_any_finite_scale_and_refuses_the_rest(monkeypatch):
    monkeypatch.setattr(matching, "_DENSE_BLOCK", 0)
    r, c = np.array([0, 0, 1]), np.array([0, 1, 0])
    for scale in (1e-300, 1.0, 1e308):
        assert matching._component_pairs(r, c, np.array([1.0, 0.9, 0.9]) * scale, (2, 2)).tolist() == [1, 2]
    for bad in (np.inf, np.nan):
        with pytest.raises(ValueError, match="finite"):
            matching._component_pairs(r, c, np.array([bad, 0.9, 0.9]), (2, 2))


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("moved", [1.0, 0.5])
def test_the_sparse_solver_on_many_tied_weights_finds_the_dense_optimum(monkeypatch, moved, route):
    # labels drawn independently (moved = 1) or half of them (0.5): most cells hold one object, so
    # n_ij / max(r_i, c_j) is tied across most of each row, the case that makes the searches long
    monkeypatch.setattr(matching, "_DENSE_BLOCK", 0)
    for name, value in ROUTES[route].items():
        monkeypatch.setattr(matching, name, value)
    rng = np.random.default_rng(6)
    for k in (150, 400):
        a = rng.integers(0, k, 20 * k)
        b = np.where(rng.random(len(a)) < moved, rng.integers(0, k, len(a)), a)
        c = compare(a, b)
        r, col, t = c.cells
        for weights in (t.astype(float), c._cell_braun_banquet, c._row_normalised_weights()):
            rows, cols, cells = optimal_pairing_cells(r, col, weights, c.table.shape, return_cells=True)
            assert len(set(cols.tolist())) == len(cols) == min(c.table.shape)
            dense = np.zeros(c.table.shape)
            dense[r, col] = weights
            best = math.fsum(dense[optimal_pairing(dense)])
            assert math.fsum(weights[cells[cells >= 0]]) == pytest.approx(best, rel=1e-13)


@pytest.mark.parametrize("route", ROUTES)
def test_the_sparse_solver_pairs_the_same_clusters_whatever_their_labels(monkeypatch, route):
    monkeypatch.setattr(matching, "_DENSE_BLOCK", 0)
    for name, value in ROUTES[route].items():
        monkeypatch.setattr(matching, name, value)
    rng = np.random.default_rng(7)
    k = 300
    a, b = rng.integers(0, k, 20 * k), rng.integers(0, k, 20 * k)  # ties everywhere
    rename_a, rename_b = rng.permutation(k) + 1000, rng.permutation(k) + 5000

    def pairs(x, y, back_x, back_y):
        c = compare(x, y)
        return {name: {(back_x[p], back_y[q]) for p, q in zip(pairing.row_labels, pairing.col_labels)}
                for name, pairing in (("bb", c.hungarian_pairing), ("overlap", c.accuracy_pairing),
                                      ("recall", c.row_normalised_pairing))}

    same = dict(zip(range(k), range(k)))
    renamed = pairs(rename_a[a], rename_b[b], dict(zip(rename_a, range(k))), dict(zip(rename_b, range(k))))
    assert renamed == pairs(a, b, same, same)


def test_the_soft_limit_leaves_the_searches_only_with_many_rows_left():
    # two rows, each with its own column: nothing to search after the bids, so never unfinished;
    # with every row free to search and a soft limit of 0, unfinished once more rows than the
    # tail are left
    starts = np.array([0, 1, 2])
    assert matching._augmenting_paths(starts, np.array([0, 1]), np.array([1.0, 1.0]), 2, 1 << 62, 0, 0)[1]
    k = 40  # every row ties on every column: the bids leave rows to search
    starts = np.arange(k + 1) * k
    cols, w = np.tile(np.arange(k), k), np.ones(k * k)
    edges, solved, _ = matching._augmenting_paths(starts, cols, w, k, 1 << 62)
    assert solved and len(set(cols[edges].tolist())) == k  # every row paired, each with a column of its own
    assert not matching._augmenting_paths(starts, cols, w, k, 1 << 62, 0, 0)[1]
    assert matching._augmenting_paths(starts, cols, w, k, 1 << 62, 0, k)[1]  # no more than the tail left
    # stopped (by the soft limit, or by the budget within a search) and called again, the searches
    # end where they would have ended without stopping
    rng = np.random.default_rng(12)
    w = rng.integers(1, 4, k * k) / rng.integers(1, 4, k * k)
    whole = matching._augmenting_paths(starts, cols, w, k, 1 << 62)[0]
    for budget, soft in ((1 << 62, 0), (50, 1 << 62), (400, 1 << 62)):
        state = matching._bid_rows(starts, cols, w, k)
        assert not matching._searched(starts, cols, w, k, *state, budget, soft, 0)
        assert matching._searched(starts, cols, w, k, *state, 1 << 62, 1 << 62, 0)
        assert state[3].tolist() == whole.tolist()


def test_the_pairings_of_a_table_share_its_graph_and_find_what_each_finds_alone():
    rng = np.random.default_rng(11)
    for k, moved in ((120, 1.0), (200, 0.3), (90, 0.0)):
        a = rng.integers(0, k, 30 * k)
        b = np.where(rng.random(len(a)) < moved, rng.integers(0, k, len(a)), a)
        c = compare(a, b)
        r, col, t = c.cells
        shared = {}
        for weights in (t.astype(float), c._cell_braun_banquet, c._row_normalised_weights()):
            alone = optimal_pairing_cells(r, col, weights, c.table.shape, *c.tie_order, return_cells=True)
            together = optimal_pairing_cells(r, col, weights, c.table.shape, *c.tie_order, return_cells=True,
                                             shared=shared)
            assert [x.tolist() for x in together] == [x.tolist() for x in alone]
        graph = shared["cell graph"]
        # weights positive on other cells: a graph of their own, not the one kept
        fewer = t.astype(float)
        fewer[::7] = 0
        assert [x.tolist() for x in optimal_pairing_cells(r, col, fewer, c.table.shape, *c.tie_order, shared=shared)] \
            == [x.tolist() for x in optimal_pairing_cells(r, col, fewer, c.table.shape, *c.tie_order)]
        assert shared["cell graph"] is not graph
        greedy = greedy_pairing_cells(r, col, t, c.table.shape, *c.tie_order, shared=shared)
        assert [x.tolist() if hasattr(x, "tolist") else x for x in greedy] == \
            [x.tolist() if hasattr(x, "tolist") else x for x in greedy_pairing_cells(r, col, t, c.table.shape,
                                                                                       *c.tie_order)]


@pytest.mark.parametrize("moved", [1.0, 0.1])
def test_pairings_solved_beside_the_other_indices_are_the_ones_solved_alone(monkeypatch, moved):
    """scores() on a table of many cells solves the pairings in a second thread while it computes the
    other indices (and takes over those the thread has not begun): every value and every pairing is
    the one computed alone, on dense and on sparse tables."""
    monkeypatch.setattr(comparison, "_ASIDE_CELLS", 1)  # small tables take the same path
    monkeypatch.setattr(comparison, "_cores", lambda: 2)
    rng = np.random.default_rng(3)
    names = ["hungarian_pairing", "row_normalised_pairing", "accuracy_pairing", "greedy_pairing"]
    for k in (40, 300, 3000):
        a = rng.integers(0, k, 20 * k)
        b = np.where(rng.random(len(a)) < moved, rng.integers(0, k, len(a)), a)
        aside = compare(a, b)
        assert aside._pairings_to_solve(["ari", "psi", "ch_greedy", "aaa", "pa", "na"]) == names
        together = aside.scores()  # its pairings solved in the second thread, or taken over from it
        alone = {i: compare(a, b).score(i) for i in TABLE_IDS}
        assert together.keys() == alone.keys()
        assert all(_same(together[i], alone[i]) for i in alone)
        for name in names:
            solved, own = getattr(aside, name), getattr(compare(a, b), name)
            assert (solved.rows.tolist(), solved.cols.tolist(), solved.total) == \
                (own.rows.tolist(), own.cols.tolist(), own.total), (k, name)
    monkeypatch.setattr(comparison, "_ASIDE_CELLS", 10**9)
    assert compare(a, b)._pairings_to_solve(TABLE_IDS) == []  # below the size: each solved when first read
    monkeypatch.setattr(comparison, "_ASIDE_CELLS", 1)
    monkeypatch.setattr(comparison, "_cores", lambda: 1)
    assert compare(a, b)._pairings_to_solve(TABLE_IDS) == []  # one core: nothing gained


def test_the_best_cell_of_each_line_is_the_heaviest_then_the_first_in_tie_order():
    rng = np.random.default_rng(13)
    for trial in range(500):
        k, k_other = (int(x) for x in rng.integers(1, 20, 2))
        other = rng.permutation(k_other)[:int(rng.integers(0, k_other + 1))]  # one cell per other line
        group = rng.integers(0, k, len(other))
        w = rng.integers(1, 4, len(other))
        if trial % 2:  # ratios, tied often too
            w = w / rng.integers(1, 4, len(other))
        expected = sorted(min((x for x in range(len(w)) if group[x] == g and w[x] == max(w[group == g])),
                              key=lambda x: other[x]) for g in set(group.tolist()))
        assert matching._best_of_each(group, other, w, k, k_other).tolist() == expected


def test_adversarial_tables_for_the_forced_pairs():
    rng = np.random.default_rng(4)
    tables = [
        np.array([[2, 1, 1, 1, 1, 1]]),  # a row whose best cell is not its only candidate
        np.array([[3, 3], [3, 3]]),  # every pairing optimal
        np.array([[5, 4, 0], [4, 5, 4], [0, 4, 5]]),  # no cell dominates its row and column
        np.array([[1, 1, 0], [1, 3, 2]]),
        np.ones((6, 9), dtype=np.int64),
        np.triu(np.ones((7, 7), dtype=np.int64)),
        np.kron(np.eye(3, dtype=np.int64), np.ones((2, 3), dtype=np.int64)),  # blocks with several optima each
    ]
    for t in tables:
        for _ in range(5):
            _check_cells_against_dense(t, rng)


def test_many_clusters_are_compared_sparsely_and_agree_with_scikit_learn():
    rng = np.random.default_rng(5)
    n, k = 60_000, 20_000  # 4e8 cells densely: far beyond DENSE_CELLS
    a = rng.integers(0, k, n)
    b = a.copy()
    moved = rng.random(n) < 0.1
    b[moved] = rng.integers(0, k, moved.sum())
    c = compare(a, b)
    assert c.is_sparse and c.k_true * c.k_pred > DENSE_CELLS
    assert c.score("ari") == pytest.approx(adjusted_rand_score(a, b), abs=1e-12)
    assert c.score("nmi_sum") == pytest.approx(normalized_mutual_info_score(a, b), abs=1e-12)
    # the expected mutual information summed exactly over every size pair with 40-digit
    # arithmetic (mpmath): 8.44015124706006070019...; scikit-learn's AMI takes over a minute
    # here and its expectation is off by 3e-9 (8.4401512184), from differences of log-factorials
    assert expected_mutual_information(c.row_sizes, c.col_sizes) == pytest.approx(8.4401512470600607, rel=1e-13)
    scores = c.scores()
    for index_id, value in scores.items():
        lo, hi = INDICES[index_id].range
        assert lo <= value <= hi, index_id
    # Criterion H with the optimal pairing is 1 - pivoted accuracy, on any table
    assert scores["ch_optimal"] == pytest.approx(1 - scores["pa"], abs=1e-15)


def test_all_singletons_use_memory_linear_in_n():
    n = 200_000
    rng = np.random.default_rng(6)
    a = rng.permutation(n)
    tracemalloc.start()
    c = compare(a, np.arange(n))
    scores = c.scores()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert c.is_sparse and c.k_true == c.k_pred == n
    # bytes: a bounded number of arrays of N entries, all derived structures kept (a dense
    # table would take 320 GB)
    assert peak < 1000 * n
    assert scores["ari"] == 1.0 and scores["psi"] == 1.0 and scores["ci_partition"] == 0.0


def test_pair_counts_stay_exact_up_to_n_of_1e15():
    # exact Python-int pair counts: C(n, 2) summed over cells, rows and columns
    table = np.array([[4 * 10**14, 10**14 + 7], [3, 5 * 10**14 - 10]], dtype=np.int64)
    for t in (table, sp.csr_array(table)):
        c = Comparison.from_table(t)
        cells = [int(v) for v in table.ravel()]
        rows, cols = [int(v) for v in table.sum(axis=1)], [int(v) for v in table.sum(axis=0)]
        n = sum(cells)
        assert n == 10**15

        def pairs(values):
            return sum(v * (v - 1) // 2 for v in values)

        a = pairs(cells)
        assert c.pair_counts.a == a
        assert c.pair_counts.b == pairs(rows) - a
        assert c.pair_counts.c == pairs(cols) - a
        assert c.pair_counts.total == n * (n - 1) // 2


def test_a_sparse_table_is_validated_without_densifying():
    huge = sp.csr_array(([3, 4], ([0, 99_999], [5, 99_998])), shape=(100_000, 100_000))
    c = Comparison.from_table(huge)
    assert c.is_sparse and (c.k_true, c.k_pred) == (2, 2) and c.n == 7  # empty rows and columns dropped
    bad = sp.csr_array(([3, -1], ([0, 1], [0, 1])), shape=(2, 2))
    with pytest.raises(ValueError, match=r"negative entry \(-1 at \[1, 1\]\)"):
        Comparison.from_table(bad)


@pytest.mark.parametrize("index_id", ["rmi", "rmi_flat", "nrmi", "mari", "bcubed_f", "ecs", "pair_correlation",
                                      "sokal_sneath", "pair_jaccard", "homogeneity", "ami_max"])
def test_sparse_tables_give_the_dense_values_of_the_newer_indices(index_id):
    rng = np.random.default_rng(11)
    a = rng.integers(0, 40, 3000)
    b = np.where(rng.random(3000) < 0.7, a, rng.integers(0, 50, 3000))
    dense = compare(a, b)
    sparse = Comparison.from_table(sp.csr_array(dense.table))
    assert sparse.score(index_id) == pytest.approx(dense.score(index_id), rel=1e-12, abs=1e-15)


def test_one_cell_a_row_or_a_column_is_paired_as_the_forced_pairs_pair_it(monkeypatch):
    """A table with one non-empty cell in each row (singletons, a refinement of the candidate) or
    in each column: its optimal pairing takes each line's heaviest cell, ties to the first in tie
    order, without a sort: the cells the forced pairs fix, and as good as the dense optimum; its
    greedy pairing, found the same way, is the dense greedy's, tie flag included."""
    monkeypatch.setattr(matching, "_SMALL_TABLE", 0)  # every table takes the path for large ones
    rng = np.random.default_rng(7)
    for trial in range(120):
        k_a, k_b = int(rng.integers(1, 30)), int(rng.integers(1, 7))
        t = np.zeros((k_a, k_b), dtype=np.int64)
        t[np.arange(k_a), rng.integers(0, k_b, k_a)] = rng.integers(1, 3, k_a)  # ties among 1s and 2s
        t = t[:, t.sum(axis=0) > 0]
        if trial % 2:
            t = t.T  # one cell a column
        _check_cells_against_dense(t, rng)
        r, c = np.nonzero(t)
        row_order, col_order = rng.permutation(t.shape[0]), rng.permutation(t.shape[1])
        row_rank, col_rank = np.argsort(row_order), np.argsort(col_order)
        rr, cc = row_rank[r], col_rank[c]
        priority = matching.tie_priority(r, c, t.shape, row_order, col_order)
        for w in (t[r, c].astype(float), t[r, c] / t.sum(axis=1)[r]):
            fixed, alive = matching._forced_pairs(rr, cc, w, *t.shape, priority)
            fast = (matching._best_of_each(rr, cc, w, *t.shape) if trial % 2
                    else matching._best_of_each(cc, rr, w, t.shape[1], t.shape[0]))
            assert len(alive) == 0 and sorted(fixed.tolist()) == sorted(fast.tolist())


def test_each_rows_gap_is_what_the_best_pairing_that_moves_it_loses():
    """assignment_gaps: for each row, the optimum minus the best total of a pairing giving that row
    another column, as enumerating every pairing of small square tables finds it (ties: 0); None
    where the table is not square, a pair shares nothing, or the table is large."""
    rng = np.random.default_rng(3)
    for trial in range(300):
        k = int(rng.integers(1, 7))
        block = rng.integers(0, [3, 50][trial % 2], (k, k)).astype(np.float64) / rng.choice([1.0, 7.0])
        block[np.arange(k), rng.permutation(k)] += 0.5  # some pairing shares something in every pair
        totals = {p: sum(block[i, p[i]] for i in range(k)) for p in itertools.permutations(range(k))}
        best = max(totals, key=lambda p: (round(totals[p], 9), p))
        rows, cols = np.nonzero(block)
        gaps = assignment_gaps(rows, cols, block[rows, cols], (k, k), np.arange(k), np.array(best))
        if not (block[np.arange(k), best] > 0).all():
            assert gaps is None
            continue
        for i in range(k):
            moved = [totals[p] for p in totals if p[i] != best[i]]
            want = totals[best] - max(moved) if moved else math.inf
            assert gaps[i] == pytest.approx(want, abs=1e-9), (trial, i)
    table = np.ones((3, 4))
    assert assignment_gaps(*np.nonzero(table), table.ravel(), (3, 4), np.arange(3), np.arange(3)) is None
    big = np.eye(65)
    assert assignment_gaps(*np.nonzero(big), np.ones(65), (65, 65), np.arange(65), np.arange(65)) is None


def test_components_and_tie_positions_counted_are_scipys_and_numpys():
    """The pairings' connected components (union-find over the cells) group the cells as scipy's
    connected_components does, each group in the cells' order; the cells' tie positions (two
    counting sorts) are their places in numpy's lexicographic sort by (row rank, column rank)."""
    from scipy.sparse import coo_array
    from scipy.sparse.csgraph import connected_components

    rng = np.random.default_rng(11)
    for _ in range(400):
        k_a, k_b = (int(k) for k in rng.integers(1, 40, 2))
        flat = np.sort(rng.choice(k_a * k_b, int(rng.integers(1, min(k_a * k_b, 40) + 1)), replace=False))
        r, c = flat // k_b, flat % k_b
        grouped, starts = matching._components(r, c, k_a, k_b)
        _, label = connected_components(coo_array((np.ones(len(r)), (r, k_a + c)), shape=(k_a + k_b,) * 2),
                                        directed=False)
        groups = np.split(grouped, starts[1:])
        assert sorted(map(list, groups)) == sorted(list(np.flatnonzero(label[r] == g)) for g in set(label[r]))
        row_order, col_order = rng.permutation(k_a), rng.permutation(k_b)
        rank_r, rank_c = np.argsort(row_order)[r], np.argsort(col_order)[c]
        want = np.empty(len(r), dtype=np.intp)
        want[np.lexsort((rank_c, rank_r))] = np.arange(len(r))
        assert matching.tie_priority(r, c, (k_a, k_b), row_order, col_order).tolist() == want.tolist()


def test_compiled_brent_root_is_scipys():
    """RMI's minimum over alpha: the compiled Brent's method steps as scipy's brentq does, on the
    slope scipy's digamma gives, so the root (and so the value) keeps every bit."""
    from scipy.optimize import brentq
    from scipy.special import digamma

    from cluval_core.core.compiled import DIGAMMA
    from cluval_core.indices.information import _ALPHA_RANGE, _BRENT_ITERATIONS, _BRENT_RTOL, _slope, _slope_root

    rng = np.random.default_rng(3)
    roots = 0
    for _ in range(300):
        m = int(rng.integers(2, 60))
        weights = rng.normal(size=m) * rng.integers(1, 50, m)
        sizes = rng.integers(1, 3000, m).astype(np.float64)
        scales = rng.choice([1.0, 7.0, 40.0], m)

        def slope(t, weights=weights, sizes=sizes, scales=scales):
            a = scales * math.exp(t)
            return float(np.dot(weights, a * (digamma(sizes + a) - digamma(a))))

        low, high = _ALPHA_RANGE
        assert _slope(DIGAMMA, weights, sizes, scales, low) == slope(low)
        found = _slope_root(DIGAMMA, weights, sizes, scales, low, high, 1e-12, _BRENT_RTOL, _BRENT_ITERATIONS)
        if slope(low) >= 0:
            assert found == low
        elif slope(high) <= 0:
            assert found == high
        else:
            roots += 1
            assert found == brentq(slope, low, high, xtol=1e-12)
    assert roots >= 10  # the interior case is exercised


def test_small_greedy_is_the_general_greedy(monkeypatch):
    """The greedy pairing of a small table in one compiled call gives the pairs, cells and tie flag
    of the general path (sorted in numpy), on whole and real values with many ties."""
    rng = np.random.default_rng(8)
    cases = []
    for _ in range(200):
        k_a, k_b = (int(x) for x in rng.integers(1, 12, 2))
        values = rng.integers(0, 4, (k_a, k_b))
        if rng.random() < 0.3:
            values = values * rng.choice([0.5, 1.0, 1 / 3], (k_a, k_b))
        rows, cols = np.nonzero(values)
        cases.append((rows, cols, values[rows, cols], (k_a, k_b), rng.permutation(k_a), rng.permutation(k_b)))
    small = [matching.greedy_pairing_cells(*case[:4], case[4], case[5], return_cells=True) for case in cases]
    monkeypatch.setattr(matching, "_SMALL_TABLE", -1)
    for case, found in zip(cases, small):
        general = matching.greedy_pairing_cells(*case[:4], case[4], case[5], return_cells=True)
        assert [x.tolist() for x in found[:2]] == [x.tolist() for x in general[:2]]
        assert found[2] == general[2] and found[3].tolist() == general[3].tolist()


def test_tie_positions_by_the_grid_and_by_two_counting_sorts():
    """The cells' tie-order positions are their places in a stable sort by (row rank, column
    rank), whether counted over the whole grid (few empty cells) or by two counting sorts (many),
    repeated cells included."""
    from cluval_core.core.matching import _GRID_CELLS, _tie_positions

    rng = np.random.default_rng(4)
    routes = set()
    for k_a, k_b, n in ((30, 40, 1100), (200, 300, 100_000), (500, 700, 2_000), (900, 900, 30_000), (1, 1, 5)):
        r, c = rng.integers(0, k_a, n), rng.integers(0, k_b, n)
        expected = np.empty(n, dtype=np.intp)
        expected[np.lexsort((c, r))] = np.arange(n)
        assert _tie_positions(r, c, k_a, k_b).tolist() == expected.tolist()
        routes.add(k_a * k_b <= _GRID_CELLS * n + 4096)
    assert routes == {True, False}


def test_distinct_counts_of_few_and_many_whole_numbers():
    """distinct_counts gives np.unique's values and counts whether it sorts a few whole numbers in
    one compiled call, counts many within a small range, or sorts many spread out."""
    from cluval_core.core.numeric import _FEW_VALUES, distinct_counts

    rng = np.random.default_rng(6)
    for n, high in ((1, 5), (40, 3), (_FEW_VALUES, 10**12), (_FEW_VALUES + 1, 50), (5000, 10**15)):
        for dtype in (np.int64, np.uint32, np.int8):
            values = (rng.integers(0, min(high, np.iinfo(dtype).max), n)).astype(dtype)
            expected = np.unique(values, return_counts=True)
            found = distinct_counts(values)
            assert found[0].dtype == values.dtype
            assert found[0].tolist() == expected[0].tolist() and found[1].tolist() == expected[1].tolist()


def test_pairing_totals_gathered_in_one_call_are_order_free_sums():
    """A pairing's total, summed where its similarities are gathered (up to 128 pairs), is the
    order-free sum of them to the bit; beyond, and where they sum to zero, the caller sums them."""
    from cluval_core.core.comparison import _gathered
    from cluval_core.core.numeric import FEW_TERMS, order_free_sum

    rng = np.random.default_rng(9)
    for pairs in (1, 7, 8, 9, FEW_TERMS, FEW_TERMS + 1, 400):
        for zeros in (False, True):
            scale = 10.0 ** rng.integers(-8, 8, 3 * pairs)
            similarity = np.zeros(3 * pairs) if zeros else rng.random(3 * pairs) * scale
            values = rng.integers(1, 9, 3 * pairs)
            found = rng.choice(np.r_[-1, np.arange(3 * pairs)], pairs, replace=False)
            overlap, sim, total = _gathered(found, values, similarity)
            assert sim.tolist() == [similarity[f] if f >= 0 else 0.0 for f in found]
            assert overlap.tolist() == [values[f] if f >= 0 else 0 for f in found]
            if pairs <= FEW_TERMS and not zeros:
                assert total == order_free_sum(sim)
            else:
                assert math.isnan(total)


def _forced_by_definition(rows, cols, w, k_a, k_b, priority, few):
    """The forced pairs as :func:`matching._forced_pairs` defines them, round by round in numpy."""
    fixed, alive = [], np.arange(len(w))
    r, c, v = rows, cols, w
    while len(alive):
        forced = matching._dominant(r, c, v, k_a, k_b)
        if not len(forced):
            break
        forced = forced[np.argsort(priority[alive[forced]], kind="stable")]
        first_in_row = forced[np.unique(r[forced], return_index=True)[1]]
        first_in_row = np.sort(first_in_row)[np.argsort(priority[alive[np.sort(first_in_row)]], kind="stable")]
        kept = first_in_row[np.sort(np.unique(c[first_in_row], return_index=True)[1])]
        chosen = alive[kept]
        fixed.append(chosen)
        gone = np.isin(rows, rows[chosen]) | np.isin(cols, cols[chosen])
        alive = alive[~gone[alive]]
        if len(fixed) == 1 and (len(w) - len(alive)) * few < len(w):
            return np.zeros(0, dtype=np.intp), np.arange(len(w))
        r, c, v = rows[alive], cols[alive], w[alive]
    return (np.concatenate(fixed) if fixed else np.zeros(0, dtype=np.intp)), alive


def test_forced_pairs_in_one_compiled_call_are_their_definition():
    """The rounds of forced pairs (the first dominant cell of each row in tie order, then the first
    of each column of those), compiled, against the definition in numpy: near-permutations, ties,
    real and whole weights, priorities with gaps (ranks among more cells), both orderings of a
    round (counted and sorted) and both outcomes of the first round's test."""
    rng = np.random.default_rng(11)
    for trial in range(1500):
        k_a, k_b = int(rng.integers(1, 40)), int(rng.integers(1, 40))
        if trial % 4 == 0:  # close to a permutation: many rounds, many forced
            t = np.zeros((k_a, k_b), dtype=np.int64)
            m = min(k_a, k_b)
            t[rng.permutation(k_a)[:m], rng.permutation(k_b)[:m]] = rng.integers(1, 5, m)
            t += rng.random((k_a, k_b)) < 0.05
        else:
            t = (rng.random((k_a, k_b)) < rng.random()) * rng.integers(1, [2, 4, 30][trial % 3], (k_a, k_b))
        r, c = np.nonzero(t)
        if not len(r):
            continue
        w = t[r, c].astype(np.float64) / (t.sum(axis=1)[r] if trial % 2 else 1.0)
        priority = rng.permutation(len(r) + int(rng.integers(0, 50)))[:len(r)]
        for few in (16, 10**9):
            got = matching._forced_rounds(r, c, w, k_a, k_b, priority, few)
            want = _forced_by_definition(r, c, w, k_a, k_b, priority, few)
            np.testing.assert_array_equal(got[0], want[0])
            np.testing.assert_array_equal(got[1], want[1])


def test_the_greedy_order_of_whole_values_counted_is_the_stable_sort():
    """The cells of positive whole values by value descending, ties in tie order, by one counting
    sort: what a stable sort of the cells in tie order gives (zeros left out, one value, wide
    ranges, dtypes of the tables)."""
    rng = np.random.default_rng(5)
    for trial in range(300):
        n = int(rng.integers(0, 3000))
        values = rng.integers(0, [2, 4, 50, 10**4][trial % 4], n).astype([np.int64, np.int32, np.uint16][trial % 3])
        priority = rng.permutation(n)
        by_tie = np.empty(n, dtype=np.intp)
        by_tie[priority] = np.arange(n)
        by_tie = by_tie[values[by_tie] > 0]
        want = by_tie[np.argsort(-values[by_tie].astype(np.int64), kind="stable")]
        got = matching._counted_order(priority, values, int(values.max(initial=0)))
        np.testing.assert_array_equal(got, want)
