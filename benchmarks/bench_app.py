"""Server-side responsiveness of the Compare page, measured with AppTest.

Targets:
- after the first load, changing the algorithm on S1 reruns the Compare page in under 1 s
  of server time (median over reruns). Each switch is to an algorithm not yet run in the
  session, so the clustering itself is part of the time; a second pass over the same
  algorithms shows the cached case;
- Birch2 (100 000 points, k = 100): first render under 3 s, cached reruns under 0.3 s;
- many clusters: the comparison's parts (headline values, table, pairing, mapping, every
  index) render in under 2 s of server time with under 3 MB of figure data.
Needs the data sets (CLUVAL_DATA_DIR or the cache).

    python benchmarks/bench_app.py [--many-only]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "pages" / "_entrypoint.py")  # the script Streamlit runs for every page (app.py names it)
sys.path.insert(0, str(ROOT))  # the pages import each other from the checkout, as under streamlit run app.py
S1_ALGORITHMS = ["kmeans", "single", "ward", "average", "complete", "gmm", "kmeans++"]


def timed_run(at, action=None):
    start = time.perf_counter()
    (action(at) if action else at).run()
    seconds = time.perf_counter() - start
    if at.exception:
        raise RuntimeError(at.exception[0].message)
    return seconds


def _many_clusters_script():
    import numpy as np
    import streamlit as st

    from pages import _cache as data
    from pages import _views as views

    k, n = st.session_state["k"], st.session_state["n"]
    rng = np.random.default_rng(k)
    a = rng.integers(0, k, n)
    b = np.where(rng.random(n) < 0.9, a, rng.integers(0, k, n))  # 90 % agree
    model = data.comparison(a, b)
    views.headline(model.comparison)
    views.table_pairing_mapping(model, key="many")
    views.index_tables(model.comparison, key="many")


def many_clusters(ks=(100, 1000, 3000, 10_000), n=200_000):
    """Server time of the comparison's parts for K x K clusters (a fresh comparison each time)."""
    at = AppTest.from_function(_many_clusters_script, default_timeout=600)
    at.session_state["k"], at.session_state["n"] = 10, 1000
    timed_run(at)  # imports
    for k in ks:
        at.session_state["k"], at.session_state["n"] = k, n
        first = timed_run(at)
        again = [timed_run(at) for _ in range(3)]
        megabytes = sum(len(chart.proto.spec) for chart in at.get("plotly_chart")) / 1e6
        print(f"K = K' = {k:>5}, N = {n:,}: first render {first:.2f} s, cached rerun "
              f"{statistics.median(again):.2f} s, figure data {megabytes:.2f} MB (targets < 2 s, < 3 MB)")


def main():
    many_clusters()
    if "--many-only" in sys.argv:
        return
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
    again = statistics.median(timed_run(at) for _ in range(5))
    single = timed_run(at, lambda a: a.selectbox(key="algorithm").set_value("single"))
    print(f"Birch2 (100 000 points, k = 100): first render (load, k-means++, compare, figures) {load:.2f} s "
          f"(target < 3 s); cached rerun {again:.3f} s (target < 0.3 s); switch to single link {single:.2f} s")


if __name__ == "__main__":
    main()
