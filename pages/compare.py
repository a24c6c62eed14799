"""Compare: the contingency table, the Hungarian pairing, the CI mapping and the headline values
side by side; both partitions and every index below."""

import streamlit as st

from cluval_core import INDICES
from pages import _cache as data
from pages import _shared as ui
from pages import _views as views

st.title("Compare two partitions")
sel = ui.selection()
parts = ui.partitions(sel)
with ui.guarded("Comparing the partitions"):  # below the title: its progress and warnings
    model = data.comparison(parts.reference, parts.candidate, parts.points.X, ui.NOISE_OPTIONS[sel.noise],
                            parts.points.noise)
c = model.comparison
points = parts.points

st.caption(f"**{ui.plain(points.title)}**: {ui.plain(points.description)}  \n"
           f"Reference: {ui.plain(parts.reference_name)}; candidate: {ui.plain(parts.candidate_caption)}.")

views.headline(c)
views.table_pairing_mapping(model, key="compare")

# ---------------------------------------------------------------------- both partitions
if c.has_data:
    left, right = st.columns(2)
    with left:
        st.plotly_chart(data.figure(model, "partition_scatter", side="true",
                                    title=ui.plot_text(f"Reference: {parts.reference_name} (K={c.k_true})")),
                        key="scatter_reference")
    with right:
        st.plotly_chart(data.figure(model, "partition_scatter", side="pred",
                                    title=ui.plot_text(f"Candidate: {parts.candidate_name} (K={c.k_pred})")),
                        key="scatter_candidate")
    st.caption("A candidate cluster takes the colour of its Hungarian partner in the reference; candidate clusters "
               "without a partner that shares objects are grey. Centroids are diamonds, hollow grey squares for "
               "clusters shown as unpaired; a red cross marks a cluster the centroid-based CI mapping leaves "
               "orphaned (nobody maps to it)." + (" Axes are the first two principal components."
                                                  if points.X.shape[1] > 2 else "")
               + (f" Of the {len(points.X):,} points, an evenly spaced sample of about {data.SCATTER_POINTS:,} is "
                  "drawn." if len(points.X) > data.SCATTER_POINTS else ""))

# ---------------------------------------------------------------------- every index
scores = views.index_tables(c, key="compare", model=model)
with st.expander("Formula of an index"):
    index_id = st.selectbox("Index", list(scores), format_func=lambda i: INDICES[i].name, key="formula_index")
    st.latex(INDICES[index_id].formula)
    st.caption(f"{INDICES[index_id].reference}. {INDICES[index_id].caveat}")

views.downloads(model, scores, {"data set": points.title, "reference": parts.reference_name,
                                "candidate": parts.candidate_caption, "noise": sel.noise}, key="compare")
