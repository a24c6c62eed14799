"""Overlapping clusterings: covers (objects in zero, one or several clusters) compared with the
Omega index, the overlapping NMIs, extended BCubed and F1: fuzzy c-means on the data set thresholded
at two levels against the ground truth, or two uploaded covers."""

import warnings

import pandas as pd
import streamlit as st

from cluval_core.core.covers import (
    COVER_MEASURES,
    MGH_NORMALISATIONS,
    POLICIES,
    as_cover,
    compare_covers,
    cover_from_memberships,
    cover_of_partition,
    hardened_cover,
)
from cluval_core.data.userdata import read_table_bytes
from cluval_core.indices.peers import cover_peer_names
from cluval_core.outputs.plots import membership_scatter
from pages import _cache as data
from pages import _charts as charts
from pages import _shared as ui

EXAMPLE, UPLOAD = "Fuzzy c-means, thresholded", "Two files of your own"
POLICY_NAMES = {"intersection": "compare the objects both list", "singletons": "each one its own cluster",
                "extra_cluster": "all of them one extra cluster"}
OMEGA_EXPECTED = "omega_expected"  # shown below Omega: the share of agreeing pairs chance gives
MGH_NAMES = {"max": "max, as MGH", "min": "min", "sqrt": "geometric mean", "arithmetic": "arithmetic mean",
             "joint": "joint entropy"}


def _scores(comparison, normalisation: str) -> dict:
    """Every measure, the chosen MGH normalisation's; what a measure says of itself is shown."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        values = comparison.scores()
    for message in dict.fromkeys(str(w.message) for w in caught):
        st.caption(ui.plain(message[:1].upper() + message[1:]))
    values["onmi_mgh"] = comparison.onmi_mgh(normalisation)
    expected = comparison.omega_expected() if values["omega"] == values["omega"] else float("nan")
    return {**{"omega": values.pop("omega"), OMEGA_EXPECTED: expected}, **values}


def _table(columns: dict, normalisation: str) -> pd.DataFrame:
    """Measures (rows) by candidates (columns), with what each cover looks like below them."""
    names = {i: m.name for i, m in COVER_MEASURES.items()}
    names["onmi_mgh"] = f"Overlapping NMI (MGH, {MGH_NAMES[normalisation].split(',')[0]})"
    names[OMEGA_EXPECTED] = "Omega's agreement by chance"
    frame = pd.DataFrame({title: {names[i]: f"{v:.4f}" if v == v else "undefined" for i, v in values.items()}
                          for title, (values, _) in columns.items()})
    shape = pd.DataFrame({title: {what: f"{value:.3f}" if isinstance(value, float) else f"{value:,}"
                                  for what, value in cover.summary().items()}
                          for title, (_, cover) in columns.items()})
    return pd.concat([frame, shape])


st.title("Compare overlapping clusterings")
st.markdown("In a **cover** an object may belong to several clusters, or to none (communities, multi-label "
            "ground truth, soft memberships thresholded). The Omega index counts, for every pair of objects, how "
            "many clusters hold both, and adjusts the share of pairs on which the covers agree for chance; on two "
            "partitions it is the adjusted Rand index. The overlapping NMIs treat each cluster as a yes/no variable; "
            "extended BCubed weighs each pair by the clusters it shares; F1 matches clusters by their best F1.")
with st.expander("These measures in other tools"):
    measure = st.selectbox("Measure", list(COVER_MEASURES), format_func=lambda i: COVER_MEASURES[i].name,
                           key="cover_peer_measure")
    ui.other_tools(cover_peer_names(measure), "clusim and python-bcubed were run against cluval in its tests; "
                   "cdlib and networkit were read in their source code.")
which, how = st.columns([2, 1])
source = which.segmented_control("Covers", [EXAMPLE, UPLOAD], default=EXAMPLE, key="cover_source")
normalisation = how.selectbox("Normalisation of the MGH overlapping NMI", MGH_NORMALISATIONS,
                              format_func=MGH_NAMES.get, key="cover_mgh")

if source == UPLOAD:
    st.markdown("Each file lists one membership per row: the object in the first column, its cluster in the "
                "second (a header row is recognised). An object in two clusters has two rows; an object listed in "
                "no cluster is not in the file.")
    left, right = st.columns(2)
    files = (left.file_uploader("Reference", type=["csv", "tsv", "txt", "parquet"], key="cover_reference"),
             right.file_uploader("Candidate", type=["csv", "tsv", "txt", "parquet"], key="cover_candidate"))
    policy = st.selectbox("Objects only one file lists", POLICIES, format_func=POLICY_NAMES.get, key="cover_policy")
    if not all(files):
        st.info("Upload both files to compare them.")
        st.stop()
    with ui.guarded("Reading the covers"):
        covers = [as_cover(read_table_bytes(f.getvalue(), f.name).iloc[:, :2].astype(str), name=f.name) for f in files]
        with st.spinner("Comparing the covers…"):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                comparison = compare_covers(*covers, policy=policy)
        for warning in caught:
            st.caption(ui.plain(str(warning.message)))
        st.table(_table({"candidate": (_scores(comparison, normalisation), comparison.candidate)}, normalisation))
    st.stop()

sel = ui.selection()
points = ui.current_points(sel.dataset)
if not points.partitions:
    st.info("This data set has no ground truth to compare with: choose another in the sidebar.")
    st.stop()
reference_name = next(iter(points.partitions))
labels = points.partitions[reference_name]
k = ui.reference_k(points, reference_name)
low_col, high_col = st.columns(2)
low = low_col.slider("Lower threshold", 0.05, 0.95, 0.25, 0.05, key="cover_low",
                     help="An object joins every cluster where its membership is at least this.")
high = high_col.slider("Higher threshold", 0.05, 0.95, 0.5, 0.05, key="cover_high")
with ui.guarded("Clustering with fuzzy c-means"):
    run = data.run_clustering(points.X, "fcm", k, 0, ())
U = run["memberships"]
reference = cover_of_partition(labels, noise=points.noise)  # noise is in no cluster of the ground truth
columns = {"hardened (each object in its largest)": hardened_cover(U)}
for level in sorted({low, high}):
    columns[f"memberships ≥ {level:g}"] = cover_from_memberships(U, level)
results = {}
with ui.guarded("Comparing the covers"):
    for title, candidate in columns.items():
        comparison = compare_covers(reference, candidate)
        results[title] = (_scores(comparison, normalisation), comparison.candidate)
st.caption(f"**{ui.plain(points.title)}**: the ground truth ({k} clusters, each object in one) against fuzzy "
           f"c-means with k = {k}, its memberships hardened or thresholded.")
left, right = st.columns([3, 2], gap="medium")
with left:
    st.table(_table(results, normalisation))
    st.caption("A threshold below 1/2 lets an object near a border join both clusters; a higher one leaves objects "
               "near borders in no cluster. Omega and extended BCubed penalise both, each in its own way; the "
               "overlapping NMIs look at clusters, not pairs. Omega's agreement by chance is the share of pairs "
               "the two covers would agree on if each side's counts were paired at random: Omega is 0 there.")
with right:
    counts = columns[f"memberships ≥ {min(low, high):g}"].memberships_per_object
    charts.chart(membership_scatter(points.X, counts, title=f"Memberships ≥ {min(low, high):g}"),
                 key="cover_scatter")
