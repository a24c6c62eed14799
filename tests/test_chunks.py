"""Tables built chunk by chunk: exactly the comparison of the concatenated labels, in bounded memory.

Every index (those that need only the table), the table, the labels and the tie order of
``compare_chunks`` are checked against ``compare`` on the concatenation, for integer, text
and mixed labels, empty and one-object chunks, and clusters first seen in later chunks;
tie-dependent indices are checked on inputs where the tie order changes their value.
"""

from __future__ import annotations

import math
import subprocess
import sys
import tracemalloc

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import adjusted_rand_score, normalized_mutual_info_score

from cluval_core import CluvalError, CluvalWarning, Comparison, Noise, compare, compare_chunks
from cluval_core.core.chunks import PartialTable
from cluval_core.core.registry import INDICES
from cluval_core.core.validation import DENSE_CELLS, as_labels

TABLE_IDS = [i for i, info in INDICES.items() if not info.needs_data]
TIE_IDS = [i for i in TABLE_IDS if INDICES[i].tie_dependent]


def _dense(table) -> np.ndarray:
    return table.toarray() if hasattr(table, "toarray") else np.asarray(table)


def assert_same_comparison(got: Comparison, expected: Comparison) -> None:
    """The same table, labels (as values), tie order and value of every index, to the last digit."""
    assert got.n == expected.n
    assert np.array_equal(_dense(got.table), _dense(expected.table))
    assert got.row_labels.tolist() == expected.row_labels.tolist()
    assert got.col_labels.tolist() == expected.col_labels.tolist()
    for mine, theirs in zip(got.tie_order, expected.tie_order):
        assert mine.tolist() == theirs.tolist()
    for index_id in TABLE_IDS:
        x, y = got.score(index_id), expected.score(index_id)
        assert x == y or (math.isnan(x) and math.isnan(y)), (index_id, x, y)


def _split(values: list, cuts) -> list[list]:
    edges = [0, *sorted(cuts), len(values)]
    return [values[lo:hi] for lo, hi in zip(edges[:-1], edges[1:])]


def _chunks(a, b, cuts):
    return list(zip(_split(list(a), cuts), _split(list(b), cuts)))


# ---------------------------------------------------------------------- hand-computed values
def test_two_chunks_by_hand():
    # a = 0 0 1 1 2, b = 0 1 1 1 2: cells 1, 1, 2, 1 -> pairs together in both a = 1; rows 2, 2, 1
    # -> b = 2 - 1; columns 1, 3, 1 -> c = 3 - 1; d = 10 - 1 - 1 - 2 = 6; RI = 7 / 10
    c = compare_chunks([([0, 0, 1], [0, 1, 1]), ([1, 2], [1, 2])])
    assert _dense(c.table).tolist() == [[1, 1, 0], [0, 2, 0], [0, 0, 1]]
    assert (c.pair_counts.a, c.pair_counts.b, c.pair_counts.c, c.pair_counts.d) == (1, 1, 2, 6)
    assert c.score("ri") == 7 / 10


def test_tie_order_is_the_order_of_first_objects_across_chunks():
    # the clusters first occur as 2, 1, 0 (rows) and 2, 0 (columns): not their sorted order
    a, b = [2, 1, 0, 1, 0, 0], [2, 2, 2, 2, 2, 0]
    c = compare_chunks(_chunks(a, b, [1, 3]))
    assert [x.tolist() for x in c.tie_order] == [[2, 1, 0], [1, 0]]
    assert_same_comparison(c, compare(a, b))
    # with the table's own (sorted) order, Criterion H and CSI would differ: the test can fail
    sorted_order = Comparison.from_table(_dense(c.table))
    assert c.score("ch_greedy") == 0.5 and sorted_order.score("ch_greedy") != 0.5
    assert c.score("csi_partition") != sorted_order.score("csi_partition")


def test_centroid_index_of_partitions_follows_the_tie_order():
    a, b = [1, 2, 2, 2, 0, 1], [3, 1, 1, 2, 3, 2]
    c = compare_chunks(_chunks(a, b, [2, 2, 5]))
    assert c.score("ci_partition") == 1.0 and Comparison.from_table(_dense(c.table)).score("ci_partition") == 0.0
    assert c.greedy_pairing.rows.tolist() == compare(a, b).greedy_pairing.rows.tolist()
    assert_same_comparison(c, compare(a, b))


# ---------------------------------------------------------------------- equal to compare on the concatenation
def _moved(rng, n: int, k: int, fraction: float):
    a = rng.integers(0, k, n)
    b = a.copy()
    moved = rng.random(n) < fraction
    b[moved] = rng.integers(0, k + 3, int(moved.sum()))
    return a, b


@pytest.mark.parametrize("chunk", [1, 7, 1000, 5000])
def test_integer_chunks_equal_the_concatenation(chunk):
    rng = np.random.default_rng(chunk)
    a, b = _moved(rng, 5000, 12, 0.4)
    c = compare_chunks((a[i:i + chunk], b[i:i + chunk]) for i in range(0, len(a), chunk))
    assert_same_comparison(c, compare(a, b))


def test_string_chunks_of_different_widths():
    rng = np.random.default_rng(3)
    a, b = _moved(rng, 3000, 9, 0.5)
    names_a = np.array(["c", "a", "bb", "dddd", "e", "ffffff", "g", "h", "iii"])
    names_b = np.array([f"cluster {i}" for i in range(12)])
    sa, sb = names_a[a], names_b[b]
    cuts = [10, 500, 501, 2000]
    # each chunk's own fixed width: "c" alone is <U1, the next chunk <U6
    chunks = [(np.array(x), np.array(y)) for x, y in _chunks(sa.tolist(), sb.tolist(), cuts)]
    assert len({x.dtype for x, _ in chunks}) > 1
    assert_same_comparison(compare_chunks(chunks), compare(sa, sb))


def test_mixed_types_merge_by_python_value():
    # 1, 1.0 and True are one cluster; "1" is another; 2.5 and tuples are labels too
    a = [1, "1", 2.5, 1.0, True, ("t", 1), "1", 2.5, 1, ("t", 1)]
    b = ["x", "y", "y", 3, 3, "x", 3.0, "y", "x", "y"]
    for cuts in ([3], [1, 4, 4, 7], [9]):
        c = compare_chunks(_chunks(a, b, cuts))
        assert_same_comparison(c, compare(a, b))
    assert c.k_true == 4


def test_numeric_chunks_of_different_dtypes():
    ints = np.array([1, 2, 2, 7], dtype=np.int8)
    floats = np.array([2.0, 1.0, 3.0])
    big = np.array([2**60, 1], dtype=np.uint64)
    bools = np.array([True, False])
    a = np.array([0, 1, 1, 0, 1, 0, 1, 0, 0, 1, 1])
    pieces = [ints, floats, big, bools]
    c = compare_chunks(zip(pieces, np.split(a, np.cumsum([len(p) for p in pieces])[:-1])))
    labels = [v for p in pieces for v in p.tolist()]  # Python values: 2**60 stays exact
    assert_same_comparison(c, compare(labels, a))
    assert 2**60 in c.row_labels.tolist() and c.k_true == 6  # 0 (False), 1 (True, 1.0), 2, 3, 7, 2**60


def test_ints_beyond_float_precision_stay_apart_from_floats():
    a = [2**53 + 1, 2**53 + 1, 2.0**53, 2.0**53]
    b = [0, 0, 1, 1]
    c = compare_chunks([(np.array(a[:2]), b[:2]), (np.array(a[2:]), b[2:])])
    assert c.k_true == 2 and c.score("ari") == 1.0
    assert_same_comparison(c, compare(a, b))


def test_labels_without_an_order_keep_the_order_of_first_objects():
    # complex numbers and text cannot be sorted together: first-occurrence order, as compare does
    a = [2j, "a", 1j, 2j, "a", 1j]
    b = [0, 0, 1, 1, 0, 1]
    c = compare_chunks(_chunks(a, b, [1, 2]))
    assert c.row_labels.tolist() == [2j, "a", 1j]
    assert_same_comparison(c, compare(a, b))


def test_empty_and_one_object_chunks():
    a, b = [5, 3, 3, 9, 5, 3], ["p", "q", "q", "p", "r", "q"]
    chunks = [([], []), ([5], ["p"]), (np.array([], dtype=np.int64), np.array([], dtype=str)), ([3], ["q"]),
              ([3, 9], ["q", "p"]), ([], []), ([5], ["r"]), ([3], ["q"]), ([], [])]
    assert_same_comparison(compare_chunks(chunks), compare(a, b))
    assert_same_comparison(compare_chunks(iter(chunks)), compare(a, b))


def test_pandas_text_chunks_are_factorised_by_pandas():
    # text, categorical and object Series (as Dask reads CSV partitions) give the same comparison
    a = ["b", "a", "a", "c", "b", "d", "a", "c"]
    b = [1, 2, 2, 3, 1, 3, 2, 1]
    for dtype in ("str", "category", object):
        chunks = [(pd.Series(x, dtype=dtype), pd.Series(y)) for x, y in _chunks(a, b, [3, 3, 6])]
        assert_same_comparison(compare_chunks(chunks), compare(a, b))
        noise = Noise("a", "drop_reference_noise")
        assert_same_comparison(compare_chunks(chunks, noise=noise), compare(a, b, noise=noise))
    mixed = pd.Series([1, "1", 1.0, True], dtype=object)
    assert compare_chunks([(mixed, ["x", "y", "x", "z"])]).row_labels.tolist() == [1, "1"]
    with pytest.raises(CluvalError, match=r"^chunk 1: labels_pred contains a missing or infinite label \(None at "
                                          r"position 1\)"):
        compare_chunks([(["a"], ["x"]), (["a", "b"], pd.Series(["x", None], dtype=object))])


def test_clusters_first_seen_in_later_chunks():
    a = [0] * 5 + [1] * 5 + [2] * 5
    b = [9] * 5 + [8] * 5 + [7] * 5
    c = compare_chunks(_chunks(a, b, [5, 10]))
    assert c.col_labels.tolist() == [7, 8, 9] and [x.tolist() for x in c.tie_order] == [[0, 1, 2], [2, 1, 0]]
    assert_same_comparison(c, compare(a, b))


def test_large_tables_are_merged_sparse():
    # per chunk, 3000 x 3000 labels exceed DENSE_CELLS: contingency_table gives sparse tables
    rng = np.random.default_rng(11)
    a = rng.permutation(np.repeat(np.arange(3000), 4))
    b = np.where(rng.random(a.size) < 0.2, rng.integers(0, 3000, a.size), a)
    assert 3000 * 3000 > DENSE_CELLS
    c = compare_chunks((a[i:i + 6000], b[i:i + 6000]) for i in range(0, a.size, 6000))
    expected = compare(a, b)
    assert c.is_sparse and expected.is_sparse
    assert (c.table != expected.table).nnz == 0
    for index_id in ("ari", "nmi_sum", "vi", "ch_greedy", "ci_partition", "psi"):
        assert c.score(index_id) == expected.score(index_id), index_id


def test_peer_libraries_agree_on_a_chunked_stream():
    rng = np.random.default_rng(5)
    a, b = _moved(rng, 20_000, 30, 0.3)
    c = compare_chunks((a[i:i + 3001], b[i:i + 3001]) for i in range(0, len(a), 3001))
    assert c.score("ari") == pytest.approx(adjusted_rand_score(a, b), rel=1e-12)
    assert c.score("nmi_sum") == pytest.approx(normalized_mutual_info_score(a, b), rel=1e-12)


labels = st.one_of(st.integers(-3, 3), st.sampled_from(["a", "b", "1"]), st.sampled_from([1.0, 3.0, True]))


def _objects(values: list) -> np.ndarray:
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_any_split_of_any_labels_equals_the_concatenation(data):
    n = data.draw(st.integers(2, 25))
    a = data.draw(st.lists(labels, min_size=n, max_size=n))
    b = data.draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))
    cuts = data.draw(st.lists(st.integers(0, n), max_size=6))
    # object arrays: every chunk keeps each label's Python type, as the whole list does
    chunks = [(_objects(x), y) for x, y in _chunks(a, b, cuts)]
    assert_same_comparison(compare_chunks(chunks), compare(a, b))


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_chunks_read_as_arrays_equal_the_concatenation_of_those_arrays(data):
    # a list chunk is read as compare reads labels ([0, 1.0] becomes floats, an array of bools
    # the ints 0 and 1): the reference is the concatenation of the chunks as read, as Python values
    def read(labels) -> np.ndarray:
        arr = as_labels(labels, "labels")
        return (arr.astype(np.int64) if arr.dtype.kind == "b" else arr).astype(object)

    n = data.draw(st.integers(2, 25))
    a = data.draw(st.lists(labels, min_size=n, max_size=n))
    b = data.draw(st.lists(labels, min_size=n, max_size=n))
    cuts = data.draw(st.lists(st.integers(0, n), max_size=6))
    chunks = _chunks(a, b, cuts)
    as_read = [(read(x), read(y)) for x, y in chunks if len(x)]
    expected = compare(np.concatenate([x for x, _ in as_read]), np.concatenate([y for _, y in as_read]))
    assert_same_comparison(compare_chunks(chunks), expected)


# ---------------------------------------------------------------------- partial tables add by label value
def test_addition_is_associative_and_keeps_the_earliest_first_object():
    parts = [PartialTable.from_labels(x, y) for x, y in
             _chunks(["b", "a", "c", "a", "d", "b"], [1, 1, 2, 3, 3, 1], [2, 3, 5])]
    left = (parts[0] + parts[1]) + (parts[2] + parts[3])
    right = parts[0] + (parts[1] + (parts[2] + parts[3]))
    for total in (left, right):
        assert total.row_labels.tolist() == ["a", "b", "c", "d"]
        assert total.row_first.tolist() == [1, 0, 2, 4]
        assert total.col_first.tolist() == [0, 2, 3]
        assert total.cells.toarray().tolist() == [[1, 0, 1], [2, 0, 0], [0, 1, 0], [0, 0, 1]]
        assert total.n == 6
    assert (PartialTable.empty() + parts[0]).row_labels.tolist() == parts[0].row_labels.tolist()


def test_memory_does_not_grow_with_the_number_of_chunks():
    def peak(n_chunks: int) -> int:
        def stream():
            rng = np.random.default_rng(0)
            for _ in range(n_chunks):
                a = rng.integers(0, 50, 20_000)
                yield a, (a + rng.integers(0, 2, a.size)) % 50

        tracemalloc.start()
        compare_chunks(stream())
        _, top = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        return top

    few, many = peak(5), peak(100)
    assert many < 1.5 * few, (few, many)


# ---------------------------------------------------------------------- noise, errors
def test_reference_noise_dropped_per_chunk():
    a = [0, 1, 1, 0, 2, 2, 0, 1]
    b = [5, 5, 6, 6, 7, 7, 5, 6]
    noise = Noise(0, "drop_reference_noise")
    c = compare_chunks(_chunks(a, b, [1, 4]), noise=noise)
    assert c.noise == noise
    assert_same_comparison(c, compare(a, b, noise=noise))
    assert_same_comparison(compare_chunks(_chunks(a, b, [3]), noise=(0.0, "drop_reference_noise")),
                           compare(a, b, noise=noise))


def test_noise_label_absent_warns_and_all_noise_fails():
    with pytest.warns(CluvalWarning, match="the noise label 9 does not occur in labels_true: no object was dropped"):
        compare_chunks([([1, 2], [1, 2])], noise=Noise(9))
    with pytest.raises(CluvalError, match="every object of labels_true carries the noise label 0: nothing is left"):
        compare_chunks([([0], [1]), ([0, 0], [1, 2])], noise=Noise(0))


def test_singleton_noise_is_refused():
    with pytest.raises(CluvalError, match="noise policy 'singletons' needs every object at once .* support "
                                          "noise=None and the 'drop_reference_noise' policy"):
        compare_chunks([([1, 2], [1, 2])], noise=Noise(-1, "singletons"))


@pytest.mark.parametrize("chunks, message", [
    ([([1, 2], [1, 2]), ([1, 2, 3], [1, 2])], "chunk 1: labels_true and labels_pred differ in length: 3 != 2"),
    ([([1, 2], [1, 2]), ([1], [])], "chunk 1: labels_true and labels_pred differ in length: 1 != 0"),
    ([([1, 2], [1, 2]), [1, 2, 3]], "chunk 1 must be a (labels_true, labels_pred) pair, got list"),
    ([([1, None], [1, 2])], "chunk 0: labels_true contains a missing or infinite label (None at position 1): every "
                            "object needs a finite, hashable label"),
    ([], "at least 2 objects are needed to compare partitions: there are no objects"),
    ([([], []), ([7], [7])], "at least 2 objects are needed to compare partitions, got 1"),
])
def test_bad_chunks_are_named(chunks, message):
    with pytest.raises(CluvalError) as info:
        compare_chunks(chunks)
    assert str(info.value) == message


def test_chunks_must_be_an_iterable():
    with pytest.raises(CluvalError, match="chunks must be an iterable of .* pairs, got int"):
        compare_chunks(3)


# ---------------------------------------------------------------------- Dask stays optional
NO_DASK = """
import sys
import cluval_core
from cluval_core import compare_chunks
from cluval_core.core.chunks import PartialTable
from cluval_core.outputs.cli import main
assert compare_chunks([([0, 0, 1], [1, 1, 2])]).score("ari") == 1.0
assert main(["compare", sys.argv[1], "--true", "t", "--pred", "p", "--json"]) == 0
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("dask", "distributed"))
assert not loaded, loaded
print("no dask")
"""


@pytest.mark.slow  # a Python process of its own
def test_the_library_and_the_cli_never_import_dask(tmp_path):
    labels = tmp_path / "labels.csv"
    labels.write_text("t,p\na,1\na,1\nb,2\n")
    result = subprocess.run([sys.executable, "-c", NO_DASK, str(labels)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.endswith("no dask\n")
