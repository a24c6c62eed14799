"""Compare: both partitions, the contingency table, the pairing, the CI mapping, every index."""

import streamlit as st

from cluval_core import FAMILIES, INDICES
from cluval_core.export import to_json
from cluval_core.plots import contingency_heatmap, mapping_diagram, partition_scatter
from cluval_core.report import format_value
from pages import _cache as data
from pages import _shared as ui

ui.require_frame("pages/compare.py")

st.title("Compare two partitions")
sel = ui.selection()
parts = ui.partitions(sel)
report = ui.report_for(parts, sel.noise)  # below the title: its progress and warnings
points = parts.points

st.caption(f"**{ui.plain(points.title)}** — {ui.plain(points.description)}  \n"
           f"Reference: {ui.plain(parts.reference_name)}; "
           f"candidate: {ui.plain(parts.candidate_name)} (seed {sel.seed}, {parts.candidate_run['seconds']:.2f} s, "
           f"SSE {parts.candidate_run['objective']:.6g}).")

scores = report.scores
headline = ["ari", "nmi_sum", "psi", "ci_partition", "nvd"] + (["ci_centroid"] if "ci_centroid" in scores else [])
for column, index_id in zip(st.columns(len(headline)), headline):
    column.metric(INDICES[index_id].name, format_value(index_id, scores[index_id]), help=INDICES[index_id].caveat)

# ---------------------------------------------------------------------- scatter plots
X2, axes, (cent_true, cent_pred) = data.projection(points.X, report.centroids_true, report.centroids_pred)
partition_maps = report.mappings["partition"]
mapping = report.mappings.get("centroid", partition_maps)
left, right = st.columns(2)
with left:
    st.plotly_chart(partition_scatter(
        X2, report, "true", title=ui.plot_text(f"Reference: {parts.reference_name} (K={report.k_true})"),
        axis_titles=axes, orphans=mapping["orphans_true"], centroids=cent_true),
        key="scatter_reference")
with right:
    st.plotly_chart(partition_scatter(
        X2, report, "pred", title=ui.plot_text(f"Candidate: {parts.candidate_name} (K={report.k_pred})"),
        axis_titles=axes, orphans=mapping["orphans_pred"], centroids=cent_pred),
        key="scatter_candidate")
st.caption("Candidate clusters take the colour of their Hungarian partner in the reference; unpaired candidate "
           "clusters are dark grey. Centroids are diamonds, hollow squares for clusters left unpaired; a red cross "
           "marks a cluster that the Centroid Index mapping leaves orphaned (nobody maps to it)." + (" Axes are the first two principal components."
                                                              if points.X.shape[1] > 2 else ""))

# ---------------------------------------------------------------------- table and pairing
left, right = st.columns([3, 2])
with left:
    st.subheader("Contingency table")
    st.plotly_chart(contingency_heatmap(report), key="contingency")
    st.caption("Rows: reference clusters; columns: candidate clusters (sizes in brackets). Ordered so the "
               "Hungarian pairs lie on the diagonal (outlined); unpaired clusters come last.")
with right:
    st.subheader("Hungarian pairing")
    st.dataframe(report.pairing, hide_index=True, key="pairing_table",
                 column_config={"braun_banquet": st.column_config.NumberColumn("Braun–Banquet", format="%.4f"),
                                "jaccard": st.column_config.NumberColumn("Jaccard", format="%.4f")})
    if report.unpaired_reference or report.unpaired_candidate:
        st.warning(f"Unpaired reference clusters: {report.unpaired_reference or 'none'}; unpaired candidate "
                   f"clusters: {report.unpaired_candidate or 'none'}. They add nothing to S.")
    steps = report.psi_steps
    st.markdown("**PSI step by step** (Rezaei & Fränti 2016, eqs. 14–18)")
    st.markdown(f"- S = Σ n_ij / max(|G_i|, |P_j|) over the pairs = **{steps['S']:.6f}**\n"
                f"- E = expected S (largest cluster paired with largest) = **{steps['E']:.6f}**\n"
                f"- max(K, K') = **{steps['max_k']}**\n- {steps['formula']}\n"
                f"- simplified PSI (E = 1): {steps['psi_simplified']:.6f}")

# ---------------------------------------------------------------------- CI mapping
st.subheader("Centroid Index mapping")
bases = ["partition"] + (["centroid"] if "centroid" in report.mappings else [])
for column, basis in zip(st.columns(len(bases)), bases):
    m = report.mappings[basis]
    with column:
        what = "partition-based (Jaccard)" if basis == "partition" else "centroid-based (nearest centroid)"
        st.markdown(f"**CI {what} = {m['ci']}**, from {m['direction']}")
        st.plotly_chart(mapping_diagram(report, basis), key=f"mapping_{basis}")
st.caption("Each cluster points at its most similar cluster on the other side; red targets are orphans. "
           "CI = max(orphans of both directions): the number of clusters located differently.")

# ---------------------------------------------------------------------- every index
st.subheader("Every index")
table = report.score_table
shown = table.drop(columns=["formula"])
for family in FAMILIES.values():
    part = shown[shown["family"] == family]
    if len(part):
        st.markdown(f"**{family}**")
        st.dataframe(part.drop(columns=["family"]), hide_index=True, key=f"scores_{family}",
                     column_config={"value": st.column_config.NumberColumn("value", format="%.6f")})
with st.expander("Formula of an index"):
    index_id = st.selectbox("Index", list(scores), format_func=lambda i: INDICES[i].name, key="formula_index")
    st.latex(INDICES[index_id].formula)
    st.caption(f"{INDICES[index_id].reference}. {INDICES[index_id].caveat}")

downloads = st.columns(3)
downloads[0].download_button("Index table (CSV)", table.to_csv(index=False), "cluval_indices.csv", "text/csv",
                             key="download_csv")
downloads[1].download_button("Index values (JSON)", to_json(scores), "cluval_indices.json",
                             "application/json", key="download_json")
downloads[2].download_button("Contingency table (CSV)", report.contingency_frame().to_csv(), "cluval_contingency.csv",
                             "text/csv", key="download_table")
