"""Hierarchies: two agglomerative trees of the same data compared at every cut (the Bk plot for any
index, with its chance band), as wholes (cophenetic correlation, Baker's gamma, entanglement) and
in a tanglegram of one cut, which opens in Compare; each tree against the reference too."""

from urllib.parse import urlencode

import pandas as pd
import streamlit as st

from cluval_core import INDICES
from cluval_core.algorithms.clustering import ALGORITHMS, INTERACTIVE_BUDGET, hierarchy
from cluval_core.core.trees import (
    MAX_PAIR_OBJECTS,
    bakers_gamma,
    cophenetic_correlation,
    cut_profile,
    entanglement,
    tanglegram_layout,
)
from cluval_core.outputs.export import format_value
from cluval_core.outputs.plots import index_curves, tanglegram
from pages import _cache as data
from pages import _charts as charts
from pages import _page_url as page_url
from pages import _shared as ui

METHODS = ("ward", "average", "complete", "single")
DEFAULT_IDS = ("ari", "fowlkes_mallows", "ami")
UP_TO = (10, 20, 30, 50, 100)
LABEL_IDS = tuple(i for i, info in INDICES.items() if not info.needs_data and info.cost != "moments")
PROFILE, APPLIED = "tree_profile", "tree_profile_applied"  # the profile chart's key; the click last taken


@st.cache_resource(show_spinner="Building the tree…", max_entries=16)
def _tree(key: str, _X, method: str):
    return hierarchy(_X, method, budget=INTERACTIVE_BUDGET)


@st.cache_data(show_spinner="Scoring every cut…", max_entries=32)
def _profile(key: str, _a, _b, ids: tuple, k_max: int) -> pd.DataFrame:
    return cut_profile(_a, _b, ids, k_max=k_max)


@st.cache_data(show_spinner="Comparing the trees pair by pair…", max_entries=16)
def _whole(key: str, _a, _b) -> dict:
    return {"cophenetic correlation": cophenetic_correlation(_a, _b), "Baker's gamma": bakers_gamma(_a, _b),
            "entanglement": entanglement(_a, _b)}


def _wide(profile: pd.DataFrame) -> pd.DataFrame:
    return profile.pivot(index="k", columns="index", values="value").reset_index()


def _take_clicked_cut(k_max: int) -> None:
    """A point clicked on the profile chooses the cut shown (once per click: the selection stays
    while the slider moves on)."""
    points = ((st.session_state.get(PROFILE) or {}).get("selection") or {}).get("points") or []
    clicked = [round(p["x"]) for p in points if isinstance(p.get("x"), (int, float))]
    if not clicked or clicked == st.session_state.get(APPLIED):
        return
    st.session_state[APPLIED] = clicked
    st.session_state["tree_cut"] = min(max(clicked[0], 2), k_max)


st.title("Compare two hierarchies")
st.markdown("Two agglomerative trees of the same points, compared at **every cut**: each index between the two "
            "trees cut into k clusters, for k = 1, 2, …, with the band that chance gives (expected value ± 2 SD "
            "when both cuts' cluster sizes are fixed and objects are assigned at random; Fowlkes & Mallows's Bk "
            "plot, for any index). Below, the two cuts at one k face each other in a tanglegram.")

sel = ui.selection()
points = ui.current_points(sel.dataset)
names = {m: ALGORITHMS[m].name.replace("Agglomerative, ", "").capitalize() for m in METHODS}
n = len(points.X)
largest = min(max(UP_TO), n)
for key, options, default in (("tree_a", METHODS, "ward"), ("tree_b", METHODS, "single"),
                              ("tree_up_to", [u for u in UP_TO if u <= n] or [n], min(30, largest))):
    page_url.take(key, options, default)
first, second, up, chosen = st.columns([1, 1, 1, 3])
method_a = first.selectbox("First tree", METHODS, format_func=names.get, key="tree_a")
method_b = second.selectbox("Second tree", METHODS, format_func=names.get, key="tree_b")
k_max = up.selectbox("Cuts up to k =", [u for u in UP_TO if u <= n] or [n], key="tree_up_to")
ids = chosen.multiselect("Indices", LABEL_IDS, default=list(DEFAULT_IDS), format_func=lambda i: INDICES[i].name,
                         key="tree_ids", max_selections=8)
if not ids:
    st.info("Choose at least one index.")
    st.stop()
reference_k = ui.reference_k(points, next(iter(points.partitions))) if points.partitions else 2
page_url.take("tree_cut", range(2, k_max + 1), min(max(reference_k, 2), k_max))
_take_clicked_cut(k_max)
cut = st.slider("The cut shown below: k =", 2, k_max, key="tree_cut",
                help="The tanglegram, the marked line of the profile and the link to Compare follow this k; "
                     "clicking a point of the profile chooses its k too.")
page_url.write({"tree_a": method_a, "tree_b": method_b, "tree_up_to": k_max, "tree_cut": cut},
               {"tree_a": "ward", "tree_b": "single", "tree_up_to": min(30, largest),
                "tree_cut": min(max(reference_k, 2), k_max)}, ("tree_a", "tree_b", "tree_up_to", "tree_cut"))

with ui.guarded("Building the trees"):
    key = data.fingerprint(points.X)
    trees = {m: _tree(key, points.X, m) for m in dict.fromkeys((method_a, method_b))}
a, b = trees[method_a], trees[method_b]
pair = f"{key}:{method_a}:{method_b}"
with ui.guarded("Scoring the cuts"):
    profile = _profile(pair, a, b, tuple(ids), k_max)

# ---------------------------------------------------------------------- the trees as wholes
measures = st.columns(3)
if n <= MAX_PAIR_OBJECTS:
    with ui.guarded("Comparing the trees pair by pair", stop=False):
        whole = _whole(pair, a, b)
        helps = {"cophenetic correlation": "Pearson's correlation, over all pairs of points, of the heights at which "
                                           "the two trees join them (1: the same heights up to scale).",
                 "Baker's gamma": "Spearman's correlation, over all pairs of points, of the largest k whose cut keeps "
                                  "the pair together in each tree (1: the trees join pairs in the same order).",
                 "entanglement": "How crossed the lines are when every point is drawn at its place in each tree's "
                                 "leaf order: 0 for the same order, 1 for reversed orders (L = 1.5)."}
        for column, (name, value) in zip(measures, whole.items()):
            column.metric(name[:1].upper() + name[1:], "undefined" if value != value else f"{value:.3f}",
                          help=helps[name])
else:
    measures[0].caption(f"The cophenetic correlation, Baker's gamma and entanglement read every pair of points: "
                        f"they are shown for up to {MAX_PAIR_OBJECTS:,} points, and this set has {n:,}.")

# ---------------------------------------------------------------------- the profile and the tanglegram
left, right = st.columns([3, 2], gap="medium")
with left:
    st.subheader(f"Every cut: {names[method_a]} against {names[method_b]}")
    bands = profile[["k", "index", "expected", "sd"]].dropna()
    figure = index_curves(_wide(profile), "k", ids, current=cut, bands=bands if len(bands) else None)
    charts.chart(figure, key=PROFILE, on_select="rerun", selection_mode="points")
    st.caption("Each line is one index between the two trees cut into the same k; the shaded band around a line "
               "is what chance gives at that k (expected value ± 2 SD), drawn where the index has an exact "
               "expectation. A line above its band means the trees agree beyond chance at that cut. Click a "
               "point to show that cut on the right.")
with right:
    st.subheader(f"The cut into {cut} clusters")
    with ui.guarded("Drawing the tanglegram", stop=False):
        charts.chart(tanglegram(tanglegram_layout(a, b, cut), (names[method_a], names[method_b])),
                     key="tree_tanglegram")
    values = profile[profile.k == cut].set_index("index").value
    st.markdown(" · ".join(f"{ui.plain(INDICES[i].name)} **{format_value(i, values[i])}**" for i in ids))
    link = "compare?" + urlencode({"dataset": sel.dataset, "reference": ui.SECOND_CLUSTERING,
                                   "ref_algorithm": method_a, "ref_k": cut, "algorithm": method_b, "k": cut})
    st.markdown(f"[Open this pair of partitions in Compare ↗]({link}): the {names[method_a]} cut as the reference, "
                f"the {names[method_b]} cut as the candidate.")

# ---------------------------------------------------------------------- each tree against the reference
if points.partitions:
    reference_name = next(iter(points.partitions))
    reference = points.partitions[reference_name]
    st.subheader(f"Each tree against the ground truth ({ui.plain(reference_name)}, k = {reference_k})")
    st.caption("The same indices between each tree's cut into k clusters and the ground truth: which cut matches "
               "it best, and how the value changes with k.")
    best_rows = []
    chosen = list(dict.fromkeys((method_a, method_b)))  # the same method twice is one tree
    columns = st.columns(2)
    for column, method in zip(columns, chosen):
        tree = trees[method]
        with ui.guarded(f"Scoring the {names[method]} cuts against the reference", stop=False):
            against = _profile(f"{key}:{method}:reference:{reference_name}", tree, reference, tuple(ids), k_max)
            bands = against[["k", "index", "expected", "sd"]].dropna()
            figure = index_curves(_wide(against), "k", ids, current=cut, bands=bands if len(bands) else None)
            figure.update_layout(title_text=f"{names[method]} against the ground truth")
            charts.chart(figure, key=f"tree_reference_{method}", into=column)
            for i in ids:
                rows = against[against["index"] == i].dropna(subset=["value"])
                if rows.empty:
                    continue
                best = rows.loc[rows.value.idxmax() if INDICES[i].higher_is_better else rows.value.idxmin()]
                row = {"tree": names[method], "index": INDICES[i].name, "best k": int(best.k),
                       "value there": format_value(i, best.value)}
                if reference_k <= k_max:
                    row[f"value at k = {reference_k}"] = format_value(i, rows.set_index("k").value[reference_k])
                best_rows.append(row)
    if best_rows:
        st.dataframe(pd.DataFrame(best_rows), hide_index=True, key="tree_best")
    if reference_k > k_max:
        st.caption(f"The ground truth has {reference_k} clusters, more than the cuts scored here (up to {k_max}): "
                   "choose more cuts to see the value there.")
