"""Compare: the contingency table, the Hungarian pairing, the CI mapping and the headline values
side by side; both partitions and every index below, and on request the paired comparison with
a second candidate."""

import streamlit as st

from pages import _cache as data
from pages import _charts as charts
from pages import _explain as explained
from pages import _paired as paired
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
explained.why_and_how(model, "compare")

# ---------------------------------------------------------------------- both partitions
if c.has_data:
    left, right = st.columns(2)
    with left:
        charts.chart(data.figure(model, "partition_scatter", side="true",
                                 title=ui.plot_text(f"Reference: {parts.reference_name} (K={c.k_true})")),
                     key="scatter_reference")
    with right:
        charts.chart(data.figure(model, "partition_scatter", side="pred",
                                 title=ui.plot_text(f"Candidate: {parts.candidate_name} (K={c.k_pred})")),
                     key="scatter_candidate")
    st.caption("A candidate cluster takes the colour of its Hungarian partner in the reference; candidate clusters "
               "without a partner that shares objects are grey. Centroids are small diamonds, hollow squares for "
               "clusters shown as unpaired; a thin red cross marks a cluster the centroid-based CI mapping leaves "
               "orphaned (nobody maps to it): the shapes, named in each legend, tell them apart without colour. "
               "A label that would cover another is left out; hover names every centroid."
               + (" Axes are the first two principal components." if points.X.shape[1] > 2 else "")
               + (f" Of the {len(points.X):,} points, an evenly spaced sample of about {data.SCATTER_POINTS:,} is "
                  "drawn." if len(points.X) > data.SCATTER_POINTS else ""))

# ---------------------------------------------------------------------- every index
scores = views.index_tables(c, key="compare", model=model)

# ---------------------------------------------------------------------- a second candidate
paired.second_candidate(parts, sel, key="compare")

views.downloads(model, scores, {"data set": points.title, "reference": parts.reference_name,
                                "candidate": parts.candidate_caption, "noise": sel.noise}, key="compare")
