"""Dask inputs: each partition's table built where the partition is, the tables added in a tree,
and the result exactly ``compare`` on the computed labels, on threads and on a
``distributed.LocalCluster`` of two worker processes (one of them killed mid-computation)."""

from __future__ import annotations

import os
import sys
import types

import dask
import dask.array as da
import dask.bag as db
import dask.dataframe as dd
import numpy as np
import pandas as pd
import pytest
from test_chunks import assert_same_comparison

from cluval_core import CluvalError, Noise, compare


def _labels(n: int = 4000, k: int = 15, seed: int = 0):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, k, n)
    b = a.copy()
    moved = rng.random(n) < 0.35
    b[moved] = rng.integers(0, k + 4, int(moved.sum()))
    return a, b


def _uneven_series(values: np.ndarray, lengths) -> dd.Series:
    """A Dask Series whose partitions hold `lengths` objects (0 allowed), in order."""
    edges = np.cumsum([0, *lengths])
    assert edges[-1] == len(values)
    full = pd.Series(values, name="labels")
    pieces = [dask.delayed(full.iloc[lo:hi]) for lo, hi in zip(edges[:-1], edges[1:])]
    return dd.from_delayed(pieces, meta=full.iloc[:0])


@pytest.fixture
def threads():
    with dask.config.set(scheduler="threads"):
        yield


# ---------------------------------------------------------------------- threads: equal to compare in memory
def test_integer_arrays_with_uneven_chunks(threads):
    a, b = _labels()
    chunks = ((1, 0, 499, 2000, 1500),)
    assert_same_comparison(compare(da.from_array(a, chunks=chunks), da.from_array(b, chunks=chunks)), compare(a, b))


def test_arrays_chunked_differently_are_aligned(threads):
    a, b = _labels(seed=1)
    assert_same_comparison(compare(da.from_array(a, chunks=333), da.from_array(b, chunks=1000)), compare(a, b))


def test_a_dask_array_with_labels_in_memory(threads):
    a, b = _labels(seed=2)
    names = np.array([f"c{i}" for i in range(20)])[b]
    assert_same_comparison(compare(da.from_array(a, chunks=700), names), compare(a, names))
    assert_same_comparison(compare(a.tolist(), da.from_array(names, chunks=700)), compare(a, names))


def test_string_series_of_one_dataframe(threads):
    a, b = _labels(seed=3)
    frame = pd.DataFrame({"truth": np.array(["x", "yy", "zzz", "w"] * 5)[a], "found": b})
    ddf = dd.from_pandas(frame, npartitions=6)
    assert_same_comparison(compare(ddf["truth"], ddf["found"]), compare(frame["truth"], frame["found"]))
    assert_same_comparison(compare(ddf[["truth"]], ddf[["found"]]), compare(frame["truth"], frame["found"]))


def test_series_with_uneven_and_empty_partitions(threads):
    a, b = _labels(seed=4)
    lengths = [0, 1, 2500, 0, 7, 1492]
    labels_true = _uneven_series(np.array([f"t{v}" for v in a], dtype=object), lengths)
    got = compare(labels_true, _uneven_series(b, lengths))
    assert_same_comparison(got, compare([f"t{v}" for v in a], b))


def test_categorical_series(threads):
    a, b = _labels(seed=5)
    frame = pd.DataFrame({"t": pd.Categorical(np.array(list("pqrstuvwxyzabcdefghij"))[a]), "p": b})
    ddf = dd.from_pandas(frame, npartitions=3)
    assert_same_comparison(compare(ddf["t"], ddf["p"]), compare(frame["t"], frame["p"]))


def test_arrays_of_unknown_chunk_sizes_pair_by_partition(threads):
    a, b = _labels(seed=6)
    x, y = da.from_array(a, chunks=500), da.from_array(b, chunks=500)
    keep = x % 3 != 0  # boolean selection: the chunk sizes become unknown
    assert np.isnan(x[keep].shape[0])
    assert_same_comparison(compare(x[keep], y[keep]), compare(a[a % 3 != 0], b[a % 3 != 0]))


def test_labels_first_seen_in_later_partitions_and_mixed_types(threads):
    a = np.array([3, 3, 1, 1, 2, 2, 0, 0], dtype=object)
    b = np.array(["p", 1, 1.0, True, "p", 2, 2, "q"], dtype=object)
    for chunks in ((2, 2, 2, 2), (1, 7), (5, 0, 3)):
        assert_same_comparison(compare(da.from_array(a, chunks=(chunks,)), da.from_array(b, chunks=(chunks,))),
                               compare(a, b))


@pytest.mark.parametrize("split_every", [2, 3, 8])
def test_every_tree_shape_gives_the_same_comparison(threads, split_every):
    from cluval_core.core.chunks import compare_dask

    a, b = _labels(seed=7)
    got = compare_dask(da.from_array(a, chunks=100), da.from_array(b, chunks=100), split_every=split_every)
    assert_same_comparison(got, compare(a, b))


def test_reference_noise_is_dropped_per_partition(threads):
    a, b = _labels(seed=8)
    noise = Noise(0, "drop_reference_noise")
    got = compare(da.from_array(a, chunks=300), da.from_array(b, chunks=300), noise=noise)
    assert got.noise == noise
    assert_same_comparison(got, compare(a, b, noise=noise))


def test_the_active_scheduler_computes_the_tables():
    calls = []

    def scheduler(graph, keys, **kwargs):
        calls.append(keys)
        return dask.get(graph, keys, **kwargs)

    a, b = _labels(seed=9)
    with dask.config.set(scheduler=scheduler):
        got = compare(da.from_array(a, chunks=1000), da.from_array(b, chunks=1000))
    assert len(calls) == 1  # one graph: the partitions' tables and their tree
    assert_same_comparison(got, compare(a, b))


# ---------------------------------------------------------------------- what it refuses
@pytest.mark.parametrize("make, message", [
    (lambda: (da.zeros(5, chunks=2), da.zeros(6, chunks=2)), "labels_true and labels_pred differ in length: 5 != 6"),
    (lambda: (da.zeros(5, chunks=2), np.zeros(4)), "labels_true and labels_pred differ in length: 5 != 4"),
    (lambda: (da.zeros((5, 2), chunks=2), da.zeros(5, chunks=2)), "labels_true must be 1-D: shape is (5, 2)"),
    (lambda: (dd.from_pandas(pd.Series([1, 2, 3]), npartitions=1), [1, 2, 3]),
     "labels_true is a Dask Series and labels_pred is in memory: pass both as Dask collections with the same "
     "partitions (e.g. two columns of one Dask DataFrame)"),
    (lambda: (dd.from_pandas(pd.Series(range(6)), npartitions=2), dd.from_pandas(pd.Series(range(6)), npartitions=3)),
     "labels_true has 2 partitions and labels_pred 3: pass Dask collections with the same partitions (e.g. two "
     "columns of one Dask DataFrame)"),
    (lambda: (_uneven_series(np.arange(6), [2, 4]), _uneven_series(np.arange(7), [2, 5])),
     "partition 1 has 4 labels in labels_true and 5 in labels_pred: pass Dask collections with the same partitions "
     "(e.g. two columns of one Dask DataFrame)"),
    (lambda: (dd.from_pandas(pd.DataFrame({"x": [1, 2], "y": [1, 2]}), npartitions=1), da.zeros(2, chunks=1)),
     'labels_true must be a 1-D sequence of labels, got a Dask DataFrame with 2 columns: pass one column, e.g. '
     'frame["label"]'),
    (lambda: (db.from_sequence([1, 2]), da.zeros(2, chunks=1)),
     "labels_true is a Dask Bag: cluval compares Dask arrays, Series and one-column DataFrames"),
    (lambda: (da.from_array(np.array([1.0, np.nan, 2.0]), chunks=2), da.zeros(3, chunks=2)),
     "partition 0: labels_true contains a missing or infinite label (nan at position 1): every object needs a "
     "finite, hashable label"),
])
def test_bad_dask_inputs_are_named(threads, make, message):
    labels_true, labels_pred = make()
    with pytest.raises(CluvalError) as info:
        compare(labels_true, labels_pred)
    assert str(info.value) == message


def test_x_and_singleton_noise_are_refused_with_what_is_supported():
    x = da.zeros(4, chunks=2)
    with pytest.raises(CluvalError, match=r"X is not supported with Dask labels: the centroid-based indices "
                                          r"\(ci_centroid, csi_centroid, cr\) need the objects in memory"):
        compare(x, x, X=np.zeros((4, 2)))
    with pytest.raises(CluvalError, match="noise policy 'singletons' needs every object at once"):
        compare(x, x, noise=Noise(0, "singletons"))


# ---------------------------------------------------------------------- a distributed.LocalCluster
@pytest.fixture(scope="module")
def client():
    from distributed import Client, LocalCluster

    # worker processes start by spawning, which re-runs the parent's __main__ from its file; an
    # app test earlier in the session leaves app.py there, so workers start from an empty one
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(sys.modules, "__main__", types.ModuleType("__main__"))
        with LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None,
                          host="127.0.0.1") as cluster, Client(cluster) as client:
            yield client


def _ran_on_workers(client, run) -> tuple:
    """What `run()` returns, and the workers that built partition tables while it computed."""
    from distributed import get_task_stream

    with get_task_stream(client) as stream:
        result = run()
    return result, {task["worker"] for task in stream.data if "partition_table" in str(task["key"])}


@pytest.mark.slow
def test_distributed_integers_and_strings_equal_in_memory(client):
    a, b = _labels(n=20_000, seed=10)
    got, workers = _ran_on_workers(client, lambda: compare(da.from_array(a, chunks=1500),
                                                           da.from_array(b, chunks=1500)))
    assert_same_comparison(got, compare(a, b))
    assert len(workers) == 2
    names = np.array([f"cluster {i}" for i in range(20)])
    frame = pd.DataFrame({"t": names[a], "p": names[b]})
    ddf = dd.from_pandas(frame, npartitions=5)
    assert_same_comparison(compare(ddf["t"], ddf["p"]), compare(names[a], names[b]))


@pytest.mark.slow
def test_distributed_uneven_partitions(client):
    a, b = _labels(n=9000, seed=11)
    lengths = [4000, 0, 1, 3, 4996]
    got = compare(_uneven_series(a, lengths), _uneven_series(np.array([str(v) for v in b]), lengths))
    assert_same_comparison(got, compare(a, [str(v) for v in b]))


@pytest.mark.slow
def test_a_worker_killed_mid_computation_is_retried_and_the_result_exact(client, tmp_path):
    marker = str(tmp_path / "killed")

    def die_once(block, block_info=None):
        # the worker process running the fourth block exits at once, the first time only
        if block_info[0]["chunk-location"] == (3,) and not os.path.exists(marker):
            open(marker, "w").close()
            os._exit(1)
        return block

    a, b = _labels(n=12_000, seed=12)
    labels_true = da.from_array(a, chunks=1000).map_blocks(die_once, dtype=a.dtype)
    got = compare(labels_true, da.from_array(b, chunks=1000))
    assert os.path.exists(marker)  # a worker did die mid-computation
    assert_same_comparison(got, compare(a, b))
    client.wait_for_workers(2, timeout=60)
