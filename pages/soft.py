"""Soft partitions: fuzzy c-means or a Gaussian mixture against the reference."""

import streamlit as st

from cluval_core import experiments
from cluval_core.algorithms.clustering import ALGORITHMS, MAX_SEED
from cluval_core.outputs.plots import score_bars
from pages import _cache as data
from pages import _charts as charts
from pages import _shared as ui
from pages import _views as views


@st.cache_resource(show_spinner="Comparing soft and hardened tables…", max_entries=16)
def soft_comparison(reference, memberships):
    soft, hard, frame = experiments.soft_versus_crisp(reference, memberships, first_label=1)  # clusters from 1
    return soft, hard, frame



CHOSEN_K = "_soft_k_chosen"  # (data set, k) once the user sets the number of clusters


def _remember_k(dataset: str) -> None:
    st.session_state[CHOSEN_K] = (dataset, st.session_state["soft_k"])


st.title("Soft partitions")
st.markdown("A soft clustering gives every object a membership in each cluster. With the reference as one-hot "
            "memberships U and the candidate's memberships V, the generalised contingency table is "
            "**N\\* = Uᵀ V** (Anderson et al. 2010; Lei et al. 2017): every table-based index applies to it. "
            "Hardening (each object to its largest membership) throws the uncertainty away.")

sel = ui.selection()
points = ui.current_points(sel.dataset)
reference_key = sel.reference if sel.reference in points.partitions else next(iter(points.partitions))
reference = points.partitions[reference_key]
soft_keys = [k for k, a in ALGORITHMS.items() if a.soft]
largest = data.largest_k(points.X)
natural_k = min(ui.reference_k(points, reference_key), largest)
# k follows the data set and its reference until the user sets it; another data set starts over.
chosen_k = st.session_state.get(CHOSEN_K)
if chosen_k is not None and chosen_k[0] != sel.dataset:
    chosen_k = st.session_state[CHOSEN_K] = None
st.session_state["soft_k"] = min(chosen_k[1], largest) if chosen_k is not None else natural_k
left, middle, right = st.columns(3)
algorithm = left.selectbox("Soft algorithm", soft_keys, index=soft_keys.index("fcm"),
                           format_func=lambda a: ALGORITHMS[a].name, key="soft_algorithm")
k = int(middle.number_input("Clusters", min_value=1, max_value=largest, key="soft_k", on_change=_remember_k,
                            args=(sel.dataset,),
                            help=f"Follows the reference's number of clusters ({natural_k}) until you change it; "
                                 f"another data set starts over. At most {largest} here."))
seed = int(right.number_input("Seed", min_value=0, max_value=MAX_SEED, value=0, key="soft_seed"))
if len(points.X) > 50_000:
    st.warning(f"{len(points.X):,} points: soft clustering needs a few seconds per run here.")

with ui.guarded("Soft clustering"):
    run = data.clustering_with_spinner(points.X, algorithm, k, seed, data.default_params(points.X, algorithm, k))
    soft, hard, frame = soft_comparison(reference, run["memberships"])

st.caption(f"Reference: {ui.plain(sel.reference)} of **{ui.plain(points.title)}**; "
           f"candidate: {ALGORITHMS[algorithm].name} with "
           f"{k} clusters ({run['iterations']} iterations, {run['seconds']:.2f} s).")
left, right = st.columns(2)
with left:
    st.subheader("Soft table N* = Uᵀ V")
    charts.chart(data.figure(data.model_of(soft, reference, run["memberships"], "soft"), "contingency_heatmap"),
                 key="soft_table")
with right:
    st.subheader("Hardened table")
    charts.chart(data.figure(data.model_of(hard, reference, run["memberships"], "hard"), "contingency_heatmap"),
                 key="hard_table")

st.subheader("Soft indices beside their crisp counterparts")
st.dataframe(frame, hide_index=True, key="soft_scores", height=views.table_height(len(frame)), width="content",
             column_order=["index", "soft", "crisp (hardened)", "soft - crisp"],
             column_config={"index": st.column_config.TextColumn("index"),
                            **{c: st.column_config.NumberColumn(c.replace("-", "−"), format="%.4f")
                               for c in ["soft", "crisp (hardened)", "soft - crisp"]}})
charts.chart(score_bars(frame, "id", list(frame["id"]), series=["soft", "crisp (hardened)"]), key="soft_bars")
st.caption("Soft values are usually lower: memberships spread over several clusters count as partial "
           "disagreement. Lei et al. recommend the max-normalised NMI for soft partitions. AMI is not defined "
           "for soft tables (the hypergeometric model needs whole counts).")
st.download_button("Soft vs crisp (CSV)", frame.to_csv(index=False), "cluval_soft.csv", "text/csv",
                   key="download_soft")
