"""PSI vs ARI on imbalanced data: a guided demonstration."""

import pandas as pd
import streamlit as st

from cluval_core import INDICES
from cluval_core.plots import index_curves, score_bars
from cluval_core import experiments
from pages import _cache as data
from pages import _shared as ui

ui.require_frame("pages/psi_vs_ari.py")


def unbalance_points() :
    """The Unbalance benchmark when available, else its synthetic look-alike."""
    with ui.guarded("Loading Unbalance"):
        return data.load_points("unbalance" if "unbalance" in data.available_benchmarks() else "unbalance_like")


FOUR_ALGORITHMS = (("RS (random swap)", "random_swap", ()), ("AC (Ward)", "ward", ()),
                   ("SL (single link)", "single", ()), ("KM (k-means, random start)", "kmeans", ()))


@st.cache_data(show_spinner="Clustering Unbalance four ways (random swap takes a few seconds)…")
def four_algorithms(X, truth):
    return experiments.algorithms_on(X, truth, 8, [(n, a, dict(p)) for n, a, p in FOUR_ALGORITHMS], seed=0)


@st.cache_data(show_spinner="Shrinking the sparse clusters…")
def sparse_curve():
    return experiments.sparse_cluster_curve([200, 150, 100, 80, 60, 50, 40, 30, 25, 20, 15, 12, 10])


@st.cache_data(show_spinner="Removing Yeast's smallest classes…")
def yeast_removal():
    if "yeast" not in data.available_benchmarks():
        return None
    yeast = data.load_points("yeast")
    labels = yeast.partitions["labels0"]
    return (experiments.remove_smallest_classes(labels, seeds=20),
            experiments.remove_smallest_classes(labels, X=yeast.X, mode="nearest"))




IDS = ["ari", "nmi_sum", "nvd", "psi"]
NAMES = {i: INDICES[i].name for i in IDS + ["ci_centroid", "ci_partition"]}

st.title("PSI vs ARI on imbalanced data")
st.markdown("Pair-counting indices weigh a cluster of n objects like n² pairs, so errors in small clusters hardly "
            "move ARI. PSI pairs clusters one-to-one and gives each pair the same weight, whatever its size. "
            "Unbalance has three dense clusters of 2000 points and five sparse ones of 100.")

# ---------------------------------------------------------------------- 1. four algorithms
st.header("1. Four algorithms on Unbalance (k = 8)")
unbalance = unbalance_points()
if unbalance.key != "unbalance":
    st.info("The Unbalance benchmark file is not available here, so its synthetic look-alike is used "
            "(three dense clusters of 2000, five sparse of 100). Set `CLUVAL_DATA_DIR` to use the real set.")
frame, labels = four_algorithms(unbalance.X, unbalance.partitions["labels0"])
left, right = st.columns([2, 3])
with left:
    st.dataframe(frame.rename(columns=NAMES), hide_index=True, key="algorithms_table",
                 column_config={n: st.column_config.NumberColumn(n, format="%.3f") for n in NAMES.values()})
    st.caption("The paper's Table 6 (ARI, NMI, 1 − NVD, PSI): RS 1.00 1.00 1.00 1.00 · AC 1.00 1.00 1.00 1.00 · "
               "SL 1.00 0.99 0.99 0.78 · KM 0.66 0.77 0.78 0.18. NVD is shown here as the distance.")
with right:
    st.plotly_chart(score_bars(frame, "algorithm", ["ari", "psi"], names=NAMES), key="algorithm_bars")
columns = st.columns(len(labels))
for column, (name, candidate) in zip(columns, labels.items()):
    with column:
        model = data.comparison(unbalance.partitions["labels0"], candidate, unbalance.X)
        st.plotly_chart(data.figure(model, "partition_scatter", side="pred", title=name, compact=True),
                        key=f"scatter_{name}")

# ---------------------------------------------------------------------- 2. shrinking clusters
st.header("2. The same small error on ever smaller clusters")
curve = sparse_curve()
sizes = curve["sparse cluster size"].tolist()
size = st.select_slider("Size of each sparse cluster", options=sizes, value=sizes[len(sizes) // 2],
                        key="sparse_size")
left, right = st.columns([3, 2])
with left:
    st.plotly_chart(index_curves(curve, "sparse cluster size", IDS, current=size, names=NAMES), key="sparse_curve")
with right:
    row = curve[curve["sparse cluster size"] == size].iloc[0]
    st.metric("ARI", f"{row['ari']:.3f}")
    st.metric("PSI", f"{row['psi']:.3f}")
    st.markdown(f"Every sparse cluster loses its 10 points nearest to a dense cluster: **{int(row['misplaced'])} "
                f"misplaced points** out of {6000 + 5 * size}, at every size. ARI stays at {row['ari']:.3f}; PSI "
                "falls as those points become a larger share of each small cluster.")

# ---------------------------------------------------------------------- 3. Yeast
st.header("3. Yeast: removing the smallest classes")
yeast = yeast_removal()
if yeast is None:
    st.info("The Yeast data set is not available here: set `CLUVAL_DATA_DIR` or run `cluval datasets fetch yeast`.")
else:
    random_mode, nearest_mode = yeast
    st.markdown("The 10 Yeast classes are compared with the same partition after removing the smallest class, then "
                "the next, then the next, their objects sent to the remaining classes.")
    paper = pd.DataFrame({"K": [9, 8, 7], "ari": [1.00, 0.99, 0.97], "nmi_sum": [0.99, 0.97, 0.93],
                          "1 - nvd": [1.00, 0.98, 0.97], "psi": [0.88, 0.74, 0.60]})
    cols = st.columns(3)
    cols[0].markdown("**Objects to a random remaining class** (mean of 20 draws)")
    cols[0].dataframe(random_mode[["K", *IDS]].round(3), hide_index=True, key="yeast_random")
    cols[1].markdown("**Objects to the nearest remaining centroid**")
    cols[1].dataframe(nearest_mode[["K", *IDS]].round(3), hide_index=True, key="yeast_nearest")
    cols[2].markdown("**Published (Table 7)**")
    cols[2].dataframe(paper, hide_index=True, key="yeast_paper")
    st.caption("ARI and NMI barely move: the removed classes hold 5, 20 and 30 of 1484 objects. PSI loses about "
               "one eighth per removed class, because a class is a class, whatever its size.")
