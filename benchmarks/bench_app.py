"""Server-side responsiveness of the Compare page, measured with AppTest (issue 4).

Target: after the first load, changing the algorithm on S1 reruns the Compare page in
under 1 s of server time (median over reruns). Each switch is to an algorithm not yet run
in the session, so the clustering itself is part of the time; a second pass over the same
algorithms shows the cached case. Birch2 (100 000 points) is timed too, to show it stays
usable. Needs the data sets (CLUVAL_DATA_DIR or the cache).

    python benchmarks/bench_app.py
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from streamlit.runtime.pages_manager import PagesManager
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[1] / "app.py")
S1_ALGORITHMS = ["kmeans", "single", "ward", "average", "complete", "gmm", "kmeans++"]

_original_init = PagesManager.__init__


def _keep_entrypoint(self, *args, **kwargs):
    # as in tests/conftest.py: rerun app.py like the server does (see the note there)
    _original_init(self, *args, **kwargs)
    PagesManager.uses_pages_directory = False


PagesManager.__init__ = _keep_entrypoint


def timed_run(at, action=None):
    start = time.perf_counter()
    (action(at) if action else at).run()
    seconds = time.perf_counter() - start
    if at.exception:
        raise RuntimeError(at.exception[0].message)
    return seconds


def main():
    at = AppTest.from_file(APP, default_timeout=300)
    first = timed_run(at)
    print(f"S1, first load (imports, data, k-means++): {first:.2f} s")
    fresh, cached = {}, {}
    for algorithm in S1_ALGORITHMS:
        fresh[algorithm] = timed_run(at, lambda a: a.selectbox(key="algorithm").set_value(algorithm))
    for algorithm in S1_ALGORITHMS:
        cached[algorithm] = timed_run(at, lambda a: a.selectbox(key="algorithm").set_value(algorithm))
    print("algorithm switch on S1 (server time per rerun, s):")
    for algorithm in S1_ALGORITHMS:
        print(f"  {algorithm:<10} first time {fresh[algorithm]:.3f}   cached {cached[algorithm]:.3f}")
    print(f"median first-time switch: {statistics.median(fresh.values()):.3f} s (target < 1 s); "
          f"median cached: {statistics.median(cached.values()):.3f} s")

    at.selectbox(key="algorithm").set_value("kmeans++").run()
    load = timed_run(at, lambda a: a.selectbox(key="dataset").set_value("birch2"))
    single = timed_run(at, lambda a: a.selectbox(key="algorithm").set_value("single"))
    print(f"Birch2 (100 000 points, k = 100): load + k-means++ {load:.2f} s; switch to single link {single:.2f} s")


if __name__ == "__main__":
    main()
