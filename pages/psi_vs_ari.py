"""PSI vs ARI on imbalanced data: a guided demonstration."""

import pandas as pd
import streamlit as st

from cluval_core import INDICES, adjusted_tsallis_mutual_info_score, experiments
from cluval_core.experiments import psi_paper
from cluval_core.outputs.plots import highlight_css, index_curves, index_label, score_bars, series_over
from pages import _cache as data
from pages import _charts as charts
from pages import _page_url
from pages import _shared as ui
from pages import _views as views


def unbalance_points():
    """The Unbalance benchmark when available, else its synthetic look-alike."""
    with ui.guarded("Loading Unbalance"):
        return data.load_points("unbalance" if "unbalance" in data.available_benchmarks() else "unbalance_like")


# (the paper's abbreviation, what it stands for, cluval's algorithm)
FOUR_ALGORITHMS = (("RS", "random swap", "random_swap"), ("AC", "Ward", "ward"), ("SL", "single link", "single"),
                   ("KM", "k-means, random start", "kmeans"))
ALGORITHM_NAMES = {code: f"{code} ({words})" for code, words, _ in FOUR_ALGORITHMS}
ALGORITHM_LEGEND = ", ".join(f"{code} = {words}" for code, words, _ in FOUR_ALGORITHMS)
K = 8  # clusters asked of every algorithm: Unbalance's eight
# The decisive row, marked in the table: PSI's colour, translucent, so that it reads in both themes.
DECISIVE_STYLE = highlight_css("psi")


def in_paper_form(frame: pd.DataFrame, key: str) -> pd.DataFrame:
    """Computed values as the paper's Tables 6 and 7 print them: ARI, NMI, 1 − NVD, PSI."""
    rows = [psi_paper.similarities(row) for row in frame.to_dict("records")]
    return pd.DataFrame(rows)[[key, *psi_paper.TABLE_IDS]]


@st.cache_data(show_spinner="Clustering Unbalance four ways (random swap takes a few seconds)…")
def four_algorithms(X, truth):
    frame, labels = experiments.algorithms_on(X, truth, 8, [(code, algorithm, {})
                                                            for code, _, algorithm in FOUR_ALGORITHMS], seed=0)
    return frame, in_paper_form(frame, "algorithm"), labels


@st.cache_data(show_spinner="Shrinking the sparse clusters…")
def sparse_curve():
    return experiments.sparse_cluster_curve([200, 150, 100, 80, 60, 50, 40, 30, 25, 20, 15, 12, 10])


@st.cache_data(show_spinner="Removing Yeast's smallest classes…")
def yeast_removal():
    if "yeast" not in data.available_benchmarks():
        return None
    yeast = data.load_points("yeast")
    labels = yeast.partitions["labels0"]
    return (in_paper_form(experiments.remove_smallest_classes(labels, seeds=20), "K"),
            in_paper_form(experiments.remove_smallest_classes(labels, X=yeast.X, mode="nearest"), "K"))


IDS = ["ari", "nmi_sum", "nvd", "psi"]
Q_VALUES = tuple(round(1 + step / 10, 1) for step in range(11))  # from AMI (q = 1) to ARI (q = 2)
DEFAULT_Q = Q_VALUES[len(Q_VALUES) // 2]  # halfway


@st.cache_data(show_spinner="Adjusting the Tsallis mutual information at every q…")
def tsallis_profile(truth, labels: dict) -> pd.DataFrame:
    """Each clustering's adjusted Tsallis mutual information at every q of Q_VALUES (one column each)."""
    return pd.DataFrame([{"q": q, **{name: adjusted_tsallis_mutual_info_score(truth, candidate, q=q)
                                      for name, candidate in labels.items()}} for q in Q_VALUES])
# The tables' columns as the paper heads them, each with its full name as help.
SHORT = {"ari": "ARI", "nmi_sum": "NMI", "1-nvd": "1 − NVD", "psi": "PSI"}
LEGEND = ", ".join(f"{short} = {index_label(key)}" for key, short in SHORT.items())
# The chance table's columns for each index: (Comparison.chance column, heading, number format, help)
CHANCE_COLUMNS = (("value", "{}", "%.3f", "the value computed here"),
                  ("expected", "E[{}]", "%.4f", "expected by chance, both partitions' cluster sizes fixed"),
                  ("z", "z ({})", "%.0f", "(value − expected) / SD by chance"))


def paper_table(frame: pd.DataFrame, key: str, widget_key: str, *, marked=None) -> None:
    """A table in the paper's form: its key column, then ARI, NMI, 1 − NVD, PSI to two decimals.

    The row whose key is `marked` is highlighted (the decisive row).
    """
    config = {index_id: st.column_config.NumberColumn(SHORT[index_id], format="%.2f", help=index_label(index_id),
                                                      width=64 if index_id == "1-nvd" else 52)
              for index_id in psi_paper.TABLE_IDS}
    config[key] = st.column_config.Column(key, width=70 if key == "algorithm" else 36)
    shown = frame
    if marked is not None:  # styled: the marked row stands out, every number keeps the paper's two decimals
        shown = frame.style.apply(lambda row: [DECISIVE_STYLE if row[key] == marked else ""] * len(row), axis=1)
        shown = shown.format("{:.2f}", subset=psi_paper.TABLE_IDS)
    st.dataframe(shown, hide_index=True, key=widget_key, height=views.table_height(len(frame)),
                 column_order=[key, *psi_paper.TABLE_IDS], column_config=config)


# Tables side by side on a wide screen; a table that would lose a column moves to the next line instead.
TABLE_ROWS = """<style>
.st-key-table6_row [data-testid="stHorizontalBlock"], .st-key-table7_row [data-testid="stHorizontalBlock"],
.st-key-detail_row [data-testid="stHorizontalBlock"] { flex-wrap: wrap; }
.st-key-table6_row [data-testid="stColumn"], .st-key-table7_row [data-testid="stColumn"],
.st-key-detail_row [data-testid="stColumn"] { min-width: 300px; }
</style>"""

st.title("PSI vs ARI on imbalanced data")
st.markdown("Pair-counting indices weigh a cluster of n objects like n² pairs, so errors in small clusters hardly "
            "move ARI; PSI pairs clusters one-to-one and weighs every pair alike, whatever its size. Unbalance has "
            "three dense clusters of 2000 points and five sparse ones of 100.")

# ---------------------------------------------------------------------- 1. four algorithms
st.header(f"1. Four algorithms on Unbalance (k = {K})")
unbalance = unbalance_points()
if unbalance.key != "unbalance":
    st.info("The Unbalance benchmark file is not available here, so its synthetic look-alike is used "
            "(three dense clusters of 2000, five sparse of 100). Set `CLUVAL_DATA_DIR` to use the real set.")
with ui.guarded("Clustering Unbalance"):
    frame, table6, labels = four_algorithms(unbalance.X, unbalance.partitions["labels0"])
by_algorithm = frame.set_index("algorithm")
# the row of Table 6 that separates the two indices (single link on Unbalance): ARI as high as for a
# perfect clustering, PSI far lower
DECISIVE = psi_paper.decisive_row(frame)
decisive = by_algorithm.loc[DECISIVE]
models = {name: data.comparison(unbalance.partitions["labels0"], candidate, unbalance.X)
          for name, candidate in labels.items()}
st.html(TABLE_ROWS)
with st.container(key="table6_row"):
    computed, chart = st.columns([5, 6], gap="medium")
with computed:
    st.markdown("**Computed here** (seed 0)")
    paper_table(table6, "algorithm", "algorithms_table", marked=DECISIVE)
    perfect = ", the score of a perfect clustering" if decisive["ari"] >= psi_paper.PERFECT_ARI else ""
    st.markdown(f"**The decisive row: {ALGORITHM_NAMES[DECISIVE]}.** ARI gives it {decisive['ari']:.2f}{perfect}; "
                f"PSI gives it {decisive['psi']:.2f}. It misses "
                f"{decisive['ci_centroid']:.0f} of the {K} clusters (CI): only a few of the "
                f"{models[DECISIVE].comparison.n:,} points are misplaced, too few pairs to move ARI, but to PSI "
                "a lost cluster is a lost cluster, whatever its size.")
with chart:
    charts.chart(score_bars(frame, "algorithm", ["ari", "psi", "ci_centroid"], height=360, text=False),
                 key="algorithm_bars")
    st.caption(f"{INDICES['ci_centroid'].name} (CI): how many clusters are located differently, a count with its "
               "own axis (0 is best).")
with computed:
    st.markdown("**Published** (Rezaei & Fränti 2016, Table 6)")
    paper_table(experiments.published("psi_table6"), "algorithm", "algorithms_paper", marked=DECISIVE)
st.caption(f"{ALGORITHM_LEGEND}; {LEGEND}: the paper prints NVD as the similarity 1 − NVD; both tables round to "
           "two decimals. k-means from a random start differs from run to run, so its row need not match the paper's "
           "one run.")

st.subheader("Where each algorithm goes wrong")
_page_url.take("clustering", labels, DECISIVE)
shown = st.segmented_control("Clustering shown", list(labels), required=True,
                             format_func=ALGORITHM_NAMES.get, key="clustering",
                             help="The clustering drawn beside the ground truth, with its clusters paired to the "
                                  "true ones as PSI pairs them.")
model = models[shown]
with st.container(key="detail_row"):
    truth_column, shown_column, pairing_column = st.columns([1, 1, 2], gap="medium")
with truth_column:
    charts.chart(data.figure(model, "partition_scatter", side="true", title="ground truth", compact=True),
                 key="scatter_truth")
with shown_column:
    charts.chart(data.figure(model, "partition_scatter", side="pred", title=shown, compact=True),
                 key="scatter_shown")
with pairing_column:
    pairs = model.comparison.hungarian_pairing.display_frame()
    st.markdown(f"**{ALGORITHM_NAMES[shown]}, paired with the ground truth** (Hungarian pairing, as PSI pairs "
                "clusters)")
    st.dataframe(pairs, hide_index=True, key="shown_pairing", height=views.table_height(len(pairs)),
                 column_config=views.numbered_pairing_columns(decimals=2, jaccard=False))
    st.caption(f"ARI {by_algorithm.loc[shown, 'ari']:.3f}, PSI {by_algorithm.loc[shown, 'psi']:.3f}. A candidate "
               "cluster takes the colour of its partner. PSI adds up the pairs' Braun–Banquet similarities, each "
               "pair weighing the same, so a sparse cluster of 100 points lost counts as much as a dense one of 2000.")
    st.markdown("**Why, in words**")
    st.markdown("\n".join(f"- {ui.plain(claim.text)}" for claim in data.explanation(model).claims[:3]))
    st.caption("Generated from this comparison: Compare's 'Why these values differ' has every statement and outlines "
               "the cells each is about.")

st.markdown("**Against chance**: what each value would be if the same cluster sizes were filled at random")
with ui.guarded("Comparing with chance", stop=False):
    chance = {name: data.chance(model, data.TEACHING_CHANCE_SAMPLES, ("ari", "psi")) for name, model in models.items()}
    st.dataframe(pd.DataFrame([{"algorithm": name, **{f"{column} {index_id}": frame.loc[index_id, column]
                                                      for index_id in ("ari", "psi")
                                                      for column in ("value", "expected", "z")}}
                               for name, frame in chance.items()]),
                 hide_index=True, key="algorithms_chance", height=views.table_height(len(chance)),
                 column_config={"algorithm": st.column_config.Column("algorithm", width=70),
                                **{f"{column} {index_id}": st.column_config.NumberColumn(
                                    label.format(SHORT[index_id]), format=number, help=f"{index_label(index_id)}: "
                                    + help_text) for index_id in ("ari", "psi")
                                   for column, label, number, help_text in CHANCE_COLUMNS}})
    st.caption(f"Expected: the mean value over tables with the same cluster sizes filled at random (the permutation "
               f"model): exactly 0 for ARI, from {data.TEACHING_CHANCE_SAMPLES} random tables (seed "
               f"{data.CHANCE_SEED}) for PSI. z = (value − expected) / SD by chance: every algorithm here is far "
               "beyond chance on both indices, so chance does not explain their disagreement; cluster sizes do.")

# ---------------------------------------------------------------------- 2. shrinking clusters
st.header("2. The same small error on ever smaller clusters")
curve = sparse_curve()
sizes = curve["sparse cluster size"].tolist()
middle = sizes[len(sizes) // 2]
_page_url.take("sparse_size", sizes, middle)
size = st.select_slider("Size of each sparse cluster (shrinking to the right)", options=sizes, key="sparse_size")
# the clustering shown and the slider in the URL (?clustering=KM&sparse_size=10): a link or a reload shows the
# same view, the browser's Back undoes a change
_page_url.write({"clustering": shown, "sparse_size": size}, {"clustering": DECISIVE, "sparse_size": middle},
                ("clustering", "sparse_size"))
left, right = st.columns([3, 2])
with left:
    charts.chart(index_curves(curve, "sparse cluster size", IDS, current=size, as_similarity=True,
                                 highlight=["psi"]), key="sparse_curve")
    st.caption("Normalised van Dongen is drawn as 1 − Normalised van Dongen, as in the paper's tables. The axis "
               "runs like the slider: from large sparse clusters on the left to small ones on the right.")
with right:
    row = curve[curve["sparse cluster size"] == size].iloc[0]
    st.metric(INDICES["ari"].name, f"{row['ari']:.3f}")
    st.metric(INDICES["psi"].name, f"{row['psi']:.3f}")
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
                "the next, then the next, their objects sent to the remaining classes (K classes remain).")
    with st.container(key="table7_row"):
        cols = st.columns(3, gap="medium")
    with cols[0]:
        st.markdown("**Objects to a random remaining class** (mean of 20 draws)")
        paper_table(random_mode, "K", "yeast_random")
    with cols[1]:
        st.markdown("**Objects to the nearest remaining centroid**")
        paper_table(nearest_mode, "K", "yeast_nearest")
    with cols[2]:
        st.markdown("**Published** (Rezaei & Fränti 2016, Table 7)")
        paper_table(experiments.published("psi_table7"), "K", "yeast_paper")
    st.caption(f"{LEGEND}, two decimals as in the paper. ARI and NMI barely move: the removed classes hold 5, 20 "
               "and 30 of 1484 objects. PSI loses about one eighth per removed class, because a class is a class, "
               "whatever its size.")

# ---------------------------------------------------------------------- 4. from AMI to ARI
st.header("4. From AMI to ARI: one dial")
st.markdown("ARI and AMI are two ends of one family (Romano, Vinh, Bailey & Verspoor 2016): the mutual "
            "information of Tsallis entropies of order q, adjusted for chance, is AMI at q = 1 and exactly ARI at "
            "q = 2. The lower q, the more a small cluster weighs. **Their guideline:** ARI when the reference has "
            "large clusters of about equal size, AMI when it is unbalanced and has small clusters, as Unbalance "
            "has (three clusters of 2000 points, five of 100).")
with ui.guarded("Adjusting the Tsallis mutual information"):
    profile = tsallis_profile(unbalance.partitions["labels0"], labels)
    _page_url.take("tsallis_q", Q_VALUES, DEFAULT_Q, as_text=lambda q: f"{q:g}")
    q = st.select_slider("q (1: AMI, 2: ARI)", options=Q_VALUES, key="tsallis_q", format_func=lambda q: f"{q:g}")
    _page_url.keep("tsallis_q", q, DEFAULT_Q, as_text=lambda q: f"{q:g}")
    left, right = st.columns([3, 2])
    with left:
        charts.chart(series_over(profile, "q", [code for code, _, _ in FOUR_ALGORITHMS], current=q,
                                 value_title="adjusted Tsallis MI", ends={Q_VALUES[0]: "AMI", Q_VALUES[-1]: "ARI"}),
                     key="tsallis_curve")
    with right:
        row = profile[profile["q"] == q].iloc[0]
        st.dataframe(pd.DataFrame({"algorithm": [ALGORITHM_NAMES[code] for code, _, _ in FOUR_ALGORITHMS],
                                   f"q = {q:g}": [row[code] for code, _, _ in FOUR_ALGORITHMS],
                                   "AMI (q = 1)": [profile.iloc[0][code] for code, _, _ in FOUR_ALGORITHMS],
                                   "ARI (q = 2)": [profile.iloc[-1][code] for code, _, _ in FOUR_ALGORITHMS]}),
                     hide_index=True, key="tsallis_table",
                     column_config={c: st.column_config.NumberColumn(format="%.4f")
                                    for c in (f"q = {q:g}", "AMI (q = 1)", "ARI (q = 2)")})
        drops = {code: profile.iloc[-1][code] - profile.iloc[0][code] for code, _, _ in FOUR_ALGORITHMS}
        most = max(drops, key=drops.get)
        st.markdown(f"From q = 2 (ARI) to q = 1 (AMI), {ALGORITHM_NAMES[most]} falls the most, by {drops[most]:.4f}: "
                    "the smaller q, the more its errors in small clusters weigh. "
                    f"{ALGORITHM_NAMES[DECISIVE]} scores {profile.iloc[0][DECISIVE]:.4f} even at q = 1, where PSI "
                    f"gives it {decisive['psi']:.2f}: PSI weighs every cluster alike, whatever its size.")
    st.caption(f"{ALGORITHM_LEGEND}. The expectation is exact under the permutation model at every q (a sum over "
               "each pair of cluster sizes' hypergeometric law); the normaliser is the arithmetic mean of the two "
               "Tsallis entropies, the one with which q = 2 gives ARI.")
