"""Disagreement on real data: how often two indices order two clusterings of a benchmark set the
other way round, and how the algorithms rank by each index, with Friedman's test and the Nemenyi
critical difference. The battery runs in its reduced form (seconds); the command line runs the
full one."""

import pandas as pd
import streamlit as st

from cluval_core import INDICES
from cluval_core.experiments.disagreement import REDUCED, battery_scores, disagreement, ranked_pairs, rankings, winners
from cluval_core.outputs.plots.disagreement import cliques, critical_difference_diagram, disagreement_heatmap
from pages import _cache as data
from pages import _charts as charts
from pages import _shared as ui

DEFAULT_IDS = ("ari", "ami", "nmi_sum", "fowlkes_mallows", "vi", "nvd", "pa", "psi", "bcubed_f", "ci_partition")


def scores() -> pd.DataFrame:
    """Every index of the reduced battery's clusterings, computed once (with a progress bar)."""
    with ui.guarded("The battery"):
        return data.with_progress("disagreement_reduced", "Clustering the benchmark sets…",
                                  lambda update: battery_scores(REDUCED, progress=update))


def _name(index_id: str) -> str:
    return f"{INDICES[index_id].name} ({index_id})"


st.title("Disagreement on real data")
st.markdown("Two indices **disagree** about a pair of clusterings of the same data when one puts the first closer "
            "to the truth and the other the second. Here each benchmark set is clustered by each algorithm with the "
            "reference's number of clusters, and every index scores every clustering against the reference. The "
            "matrix says how often two indices order a pair of clusterings of one set the other way round; the "
            "diagram below it ranks the algorithms by one index.")

missing = [name for name in REDUCED.datasets if name not in data.available_benchmarks()]
if missing:
    st.warning(f"This page needs the benchmark sets {', '.join(missing)}, which are not available here. Set "
               "`CLUVAL_DATA_DIR` to a folder holding the clustering-benchmarks files, or run `cluval datasets "
               "fetch` with internet access; then restart the app.")
    st.stop()

found = scores()
available = [i for i in INDICES if i in found.columns]
st.caption(f"Reduced battery: {len(REDUCED.datasets)} sets ({', '.join(REDUCED.datasets)}), "
           f"{len(REDUCED.algorithms)} algorithms ({', '.join(REDUCED.algorithms)}), seed 0: {len(found)} "
           "clusterings. The full battery (every set up to 7 500 points, every algorithm that takes k, three "
           "seeds) runs with `cluval disagreement --full --out results`.")
chosen = st.multiselect("Indices", available, default=[i for i in DEFAULT_IDS if i in available], format_func=_name,
                        key="disagreement_ids", placeholder="Choose at least two indices")
if len(chosen) < 2:
    st.info("Choose at least two indices to see where they disagree.")
    st.stop()

matrix = disagreement(found, chosen)
left, right = st.columns([3, 2], gap="large")
with left:
    charts.chart(disagreement_heatmap(matrix), key="disagreement_heatmap")
with right:
    pairs = ranked_pairs(matrix)
    st.markdown("**Where they disagree most**")
    st.markdown("\n".join(f"- {INDICES[i].name} and {INDICES[j].name}: {share:.0%} of the pairs"
                          for (i, j), share in pairs.head(4).items()))
    st.markdown("**Where they agree most**")
    st.markdown("\n".join(f"- {INDICES[i].name} and {INDICES[j].name}: {share:.0%}"
                          for (i, j), share in pairs.tail(3).iloc[::-1].items()))

st.subheader("Which algorithm wins, by each index")
ranked = {i: rankings(found, i) for i in chosen}
table = pd.DataFrame([r.mean_ranks for r in ranked.values()], index=pd.Index(list(ranked), name="index"))
table = table[[a for a in REDUCED.algorithms if a in table.columns]].round(2)
first = winners(ranked)
if len(first) > 1:
    st.markdown("The indices do not agree on the winner: " + "; ".join(
        f"**{algorithm}** by {', '.join(INDICES[i].name for i in ids)}" for algorithm, ids in first.items()) + ".")
else:
    st.markdown(f"Every chosen index ranks **{next(iter(first))}** first.")
st.dataframe(table.style.highlight_min(axis=1, props="font-weight: bold").format("{:.2f}"),
             key="disagreement_ranks", height=40 + 35 * len(table))
st.caption("Mean rank of each algorithm over the sets, by each index (1 = closest to the truth; the best in bold).")
index_id = st.selectbox("Ranked by", chosen, index=chosen.index("psi") if "psi" in chosen else 0, format_func=_name,
                        key="disagreement_rank_by")
result = ranked[index_id]
charts.chart(critical_difference_diagram(result), key="disagreement_cd")
tied = cliques(result.mean_ranks, result.critical_difference)
verdict = ("no two algorithms can be told apart" if len(tied) == 1 and len(tied[0]) == len(result.mean_ranks)
           else "a bar joins the algorithms it cannot tell apart")
st.caption(f"Friedman's test that all algorithms rank alike: p = {result.p_value:.2g}. The Nemenyi critical "
           f"difference at 5% is {result.critical_difference:.2f} ranks over {len(result.ranks)} sets: {verdict}. "
           "The test asks whether the ranks differ on these sets, not whether an algorithm is better in general.")
