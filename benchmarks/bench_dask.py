"""Dask: the table of N = 1e9 labels generated chunk by chunk, in bounded memory, against a plain loop.

Targets (issue: scale), on this 2-core machine:

* N = 1e9 labels generated chunk by chunk inside Dask (nothing materialised: each block is
  drawn from a generator seeded by its index) with peak memory under 2 GB;
* the Dask path's time at most 1.3x a plain Python loop over the same chunks with
  ``compare_chunks`` in one process.

The reference labels are K = 100 clusters drawn uniformly; the candidate is the reference
with 10% of the objects moved to a random cluster. Each run is a child process of its own, so
that its peak resident memory (``ru_maxrss``) is its own; the runs alternate (loop, Dask, ...)
and the ratio is the median of the per-repeat ratios, so a noisy machine shifts both sides
alike. The Dask run uses the default (threaded) scheduler on every core, and a one-thread run
shows the bookkeeping alone; ``--distributed`` adds a ``distributed.LocalCluster`` of two
worker processes (memory sampled over the process tree). Every run must give the same table.

Usage::

    python benchmarks/bench_dask.py                  # N = 1e9, chunks of 1e7 (a few minutes)
    python benchmarks/bench_dask.py --n 1e8          # smaller
    python benchmarks/bench_dask.py --distributed    # also on a LocalCluster
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import os
import resource
import statistics
import subprocess
import sys
import threading
import time

import numpy as np

K = 100
MOVED = 0.1
SEED = 2024
MEMORY_TARGET_MB = 2000
RATIO_TARGET = 1.3
MODES = ("loop", "dask", "dask-1-thread", "distributed")


# ---------------------------------------------------------------------- the chunks, drawn where they are used
def chunk_sizes(n: int, chunk: int) -> tuple[int, ...]:
    return (chunk,) * (n // chunk) + ((n % chunk,) if n % chunk else ())


def reference_block(index: int, size: int) -> np.ndarray:
    """Block `index` of the reference: K clusters drawn uniformly, from a generator of its own."""
    return np.random.default_rng([SEED, index, 0]).integers(0, K, size, dtype=np.int16)


def candidate_block(reference: np.ndarray, index: int) -> np.ndarray:
    """The same block of the candidate: the reference with a tenth of its objects moved."""
    rng = np.random.default_rng([SEED, index, 1])
    moved = rng.integers(0, len(reference), int(MOVED * len(reference)))
    candidate = reference.copy()
    candidate[moved] = rng.integers(0, K, len(moved), dtype=np.int16)
    return candidate


def _dask_reference(block_info=None):
    location, size = block_info[None]["chunk-location"][0], block_info[None]["chunk-shape"][0]
    return reference_block(location, size)


def _dask_candidate(reference, block_info=None):
    return candidate_block(reference, block_info[0]["chunk-location"][0])


# ---------------------------------------------------------------------- one run (in a child process)
def _loop(n: int, chunk: int):
    from cluval_core import compare_chunks

    def chunks():
        for index, size in enumerate(chunk_sizes(n, chunk)):
            reference = reference_block(index, size)
            yield reference, candidate_block(reference, index)

    return compare_chunks(chunks())


def _dask(n: int, chunk: int):
    import dask.array as da

    from cluval_core import compare

    reference = da.map_blocks(_dask_reference, chunks=(chunk_sizes(n, chunk),), dtype=np.int16,
                              meta=np.empty(0, np.int16))
    candidate = da.map_blocks(_dask_candidate, reference, dtype=np.int16)
    return compare(reference, candidate)


class _TreeMemory:
    """Peak resident memory of this process and its descendants, sampled every 50 ms."""

    def __init__(self):
        import psutil

        self._process, self.peak, self._stop = psutil.Process(), 0, threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self):
        import psutil

        while not self._stop.is_set():
            total = 0
            for p in [self._process, *self._process.children(recursive=True)]:
                try:
                    total += p.memory_info().rss
                except psutil.Error:
                    pass
            self.peak = max(self.peak, total)
            self._stop.wait(0.05)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()


def run_one(mode: str, n: int, chunk: int) -> dict:
    """Time one mode here; the table's digest and a few indices say that every mode agrees.

    The libraries are imported before the clock starts, for every mode alike.
    """
    import dask
    import dask.array

    importlib.import_module("cluval_core.core.chunks")
    tree = None
    start = time.perf_counter()
    if mode == "loop":
        comparison = _loop(n, chunk)
    elif mode == "dask":
        with dask.config.set(scheduler="threads"):
            comparison = _dask(n, chunk)
    elif mode == "dask-1-thread":
        with dask.config.set(scheduler="threads", num_workers=1):
            comparison = _dask(n, chunk)
    else:
        from distributed import Client, LocalCluster

        with _TreeMemory() as tree:
            with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
                    Client(cluster):
                start = time.perf_counter()  # the cluster's start-up is not the comparison's time
                comparison = _dask(n, chunk)
                seconds = time.perf_counter() - start
    if mode != "distributed":
        seconds = time.perf_counter() - start
    table = comparison.table.toarray() if comparison.is_sparse else comparison.table
    peak = tree.peak if tree else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return {"mode": mode, "seconds": seconds, "peak_mb": peak / 1e6, "n": comparison.n,
            "table": hashlib.sha256(np.ascontiguousarray(table, dtype=np.int64).tobytes()).hexdigest()[:16],
            "tie_order": [order.tolist() for order in comparison.tie_order],
            **{i: comparison.score(i) for i in ("ari", "nmi_sum", "psi", "ch_greedy", "ci_partition")}}


def _child(mode: str, n: int, chunk: int) -> dict:
    result = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", mode, "--n", str(n),
                             "--chunk", str(chunk)], capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"the {mode} run failed:\n{result.stderr}")
    return json.loads(result.stdout.strip().splitlines()[-1])


# ---------------------------------------------------------------------- measure, report
def measure(n: int = 10**9, chunk: int = 10**7, repeats: int = 3, modes=MODES[:3]) -> dict:
    """Alternate the modes `repeats` times (each run in a fresh process) and return, per mode,
    the median seconds and the largest peak memory (MB), with each mode's median ratio to the
    loop; raises if any run's table or indices differ from the loop's."""
    runs = {mode: [] for mode in modes}
    for _ in range(repeats):
        for mode in modes:
            runs[mode].append(_child(mode, n, chunk))
    reference = {k: v for k, v in runs["loop"][0].items() if k not in ("mode", "seconds", "peak_mb")}
    for mode, results in runs.items():
        for result in results:
            same = {k: result[k] for k in reference}
            if same != reference:
                raise AssertionError(f"the {mode} run gave another comparison: {same} != {reference}")
    out = {"n": n, "chunk": chunk, "k": K, "repeats": repeats, "ari": reference["ari"]}
    for mode, results in runs.items():
        out[f"{mode} seconds"] = statistics.median(r["seconds"] for r in results)
        out[f"{mode} peak MB"] = max(r["peak_mb"] for r in results)
        if mode != "loop":
            out[f"{mode} / loop"] = statistics.median(r["seconds"] / loop["seconds"]
                                                      for r, loop in zip(results, runs["loop"]))
    return out


def _number(text: str) -> int:
    value = float(text)
    if value != int(value) or value < 2:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 2, got {text}")
    return int(value)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=_number, default=10**9, help="objects (default 1e9)")
    parser.add_argument("--chunk", type=_number, default=10**7, help="objects per chunk (default 1e7)")
    parser.add_argument("--repeats", type=int, default=3, help="alternating runs of each mode (default 3)")
    parser.add_argument("--distributed", action="store_true", help="also on a LocalCluster of two worker processes")
    parser.add_argument("--child", choices=MODES, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(run_one(args.child, args.n, args.chunk)))
        return 0
    modes = MODES if args.distributed else MODES[:3]
    result = measure(args.n, args.chunk, args.repeats, modes)
    print(f"N = {args.n:.3g} labels in chunks of {args.chunk:.3g}, K = {K}, {MOVED:.0%} moved; {os.cpu_count()} cores; "
          f"medians of {args.repeats} alternating runs, each in its own process; every run gave the same table "
          f"(ARI {result['ari']:.6f})")
    print(f"{'mode':<16} {'seconds':>9} {'/ loop':>8} {'peak MB':>9}")
    for mode in modes:
        ratio = result.get(f"{mode} / loop")
        print(f"{mode:<16} {result[f'{mode} seconds']:>9.2f} {'' if ratio is None else f'{ratio:.2f}':>8} "
              f"{result[f'{mode} peak MB']:>9.0f}")
    ok_ratio = result["dask / loop"] <= RATIO_TARGET
    ok_memory = all(result[f"{mode} peak MB"] < MEMORY_TARGET_MB for mode in modes)
    print(f"target: Dask within {RATIO_TARGET}x of the loop: {'met' if ok_ratio else 'NOT met'} "
          f"({result['dask / loop']:.2f}x); peak memory under {MEMORY_TARGET_MB} MB: "
          f"{'met' if ok_memory else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
