"""Many clusterings: one algorithm over seeds or over k on the selected data set (or label columns
from a file), compared pairwise by the chosen indices, with the stability curve over k and the
solutions the indices agree are the most stable.

The page's choices live in ``many_clusterings`` in session state (they survive the controls a
mode does not draw) and in the URL (``many_mode``, ``many_algorithm``, ...), checked when read.
"""

import time

import streamlit as st

from cluval_core import INDICES, compare_many
from cluval_core.algorithms import stability
from cluval_core.algorithms.clustering import ALGORITHMS, INTERACTIVE_BUDGET, INTERACTIVE_MAX_K, MAX_SEED
from cluval_core.data import userdata
from cluval_core.data.userdata import MAX_BYTES
from cluval_core.outputs.plots import pairwise_heatmap, stability_curves
from pages import _cache as data
from pages import _charts as charts
from pages import _page_url
from pages import _shared as ui
from pages import _views as views

STATE = "many_clusterings"
SEEDS, OVER_K, UPLOAD = "seeds", "k", "upload"
MODES = {SEEDS: "One algorithm over seeds", OVER_K: "One algorithm over k (stability)",
         UPLOAD: "Label columns from a file"}
DEFAULT_ALGORITHM = {SEEDS: "kmeans", OVER_K: "kmeans++"}
DEFAULT_IDS = ("ari", "psi")
MAX_SEEDS = 30  # solutions a heatmap shows with every name on its axes
MAX_KS = 30
MAX_SUBSETS = 50
RATES = (0.05, 0.95)
HEATMAPS_A_ROW = 3
# On a narrower screen a control or a heatmap that would fall below its minimum width moves to the
# next line instead of squeezing (Streamlit itself stacks columns only below 640 px).
LAYOUT = """<style>
.st-key-many_controls [data-testid="stHorizontalBlock"], .st-key-many_heatmaps [data-testid="stHorizontalBlock"],
.st-key-many_stability [data-testid="stHorizontalBlock"] { flex-wrap: wrap; }
.st-key-many_controls [data-testid="stColumn"] { min-width: 100px; }
.st-key-many_controls [data-testid="stColumn"]:first-child,
.st-key-many_controls [data-testid="stColumn"]:last-child { min-width: 240px; }
.st-key-many_heatmaps [data-testid="stColumn"] { min-width: 380px; }
.st-key-many_stability [data-testid="stColumn"] { min-width: 480px; }
.st-key-many_heatmaps [data-testid="stColumn"]:has(.st-key-many_beside),
.st-key-many_stability [data-testid="stColumn"]:has(.st-key-many_beside) { min-width: 560px; }
</style>"""
# The URL's keys: the page's own (the sidebar leaves them alone); each is the widget's key too.
URL_KEYS = ("many_mode", "many_algorithm", "many_k", "many_seed", "many_seeds", "many_k_from", "many_k_to",
            "many_subsets", "many_rate", "many_ids")


def label_free_ids() -> list:
    """The indices a pair of partitions alone gives (the registry's, as it is now)."""
    return [i for i, info in INDICES.items() if not info.needs_data]


def algorithms_for(mode: str) -> list:
    """Over seeds: the algorithms whose result depends on the seed; over k: those that take k."""
    if mode == SEEDS:
        return [key for key, a in ALGORITHMS.items() if not a.deterministic]
    return [key for key, a in ALGORITHMS.items() if a.needs_k]


# ---------------------------------------------------------------------- cached work
# Kept by data.with_progress, not st.cache_data: a value found draws nothing (a replayed progress
# bar would flash its old time left). The values are shared: never changed here.
def runs_over_seeds(X, algorithm: str, k: int, seeds: tuple, params: tuple) -> tuple[dict, float]:
    """The runs, and the seconds they took."""
    def run(bar):
        start = time.perf_counter()
        runs = stability.cluster_many(X, algorithm, seeds=seeds, k=k, budget=INTERACTIVE_BUDGET,
                                      progress=lambda done, total: bar(done / total, f"({done} of {total})"),
                                      **dict(params))
        return runs, time.perf_counter() - start

    return data.with_progress(data.fingerprint("seeds", X, algorithm, k, seeds, params),
                              f"Clustering {len(X):,} points {len(seeds)} times with {ALGORITHMS[algorithm].name}…",
                              run, max_entries=16)


def curve_over_k(X, algorithm: str, ks: tuple, ids: tuple, subsets: int, rate: float, seed: int, params: tuple):
    """The stability curve for every label-free index (comparing is cheap next to clustering): a
    change of the chosen indices reads another column instead of clustering again."""
    text = (f"Clustering {len(X):,} points and {subsets} subsets at {len(ks)} values of k with "
            f"{ALGORITHMS[algorithm].name}…")
    costs = stability.curve_run_costs(X, algorithm, ks, subsets=subsets, rate=rate, **dict(params))
    return data.with_progress(
        data.fingerprint("curve", X, algorithm, ks, ids, subsets, rate, seed, params), text,
        lambda bar: stability.stability_curve(
            X, algorithm, ks, ids, subsets=subsets, rate=rate, seed=seed, budget=INTERACTIVE_BUDGET,
            progress=lambda done, total: bar(None, f"(run {done} of {total})", steps=(done, total)), **dict(params)),
        weights=costs, max_entries=16)  # a run at a larger k takes longer: the bar counts the runs' estimated cost


def pairwise(partitions: dict, key: str, ids: tuple) -> dict:
    """compare_many of the partitions, kept under `key` (their fingerprint) and the indices."""
    return data.with_progress(
        data.fingerprint("pairwise", key, ids), "Comparing every pair of solutions…",
        lambda bar: compare_many(partitions, ids,
                                 progress=lambda done, total: bar(done / total, f"({done:,} of {total:,})")))


@st.cache_data(show_spinner=False, max_entries=64)
def parameters(X, algorithm: str, ks: tuple, repeats: int, subsets: int, rate: float) -> tuple:
    return tuple(stability.interactive_parameters(X, algorithm, ks, repeats=repeats, subsets=subsets,
                                                  rate=rate).items())


@st.cache_data(show_spinner="Reading the file…", max_entries=4)
def read_upload(content: bytes, name: str):
    return userdata.read_user_table(content, name)


# The functions below take the table unhashed and the file's identity as the key.
@st.cache_data(show_spinner=False, max_entries=4)
def summaries_of(_frame, source: str) -> dict:
    return userdata.column_summaries(_frame)


@st.cache_data(show_spinner=False, max_entries=8)
def label_columns(_frame, source: str, columns: tuple) -> dict:
    """Each chosen column's labels as written, by column name."""
    return {column: userdata.label_column(_frame, column)[0] for column in columns}


# ---------------------------------------------------------------------- the page's state and its link
def _whole(raw, low: int, high: int):
    return int(raw) if isinstance(raw, str) and raw.isdigit() and len(raw) <= 12 and low <= int(raw) <= high else None


def _state_from_link() -> dict:
    """The choices a link asks for; a value not understood is named in a warning and left at its default."""
    query = st.query_params.to_dict()
    state = {"mode": SEEDS, f"algorithm_{SEEDS}": DEFAULT_ALGORITHM[SEEDS],
             f"algorithm_{OVER_K}": DEFAULT_ALGORITHM[OVER_K], "k": None, "k_dataset": None, "seed": 0,
             "seeds": 10, "k_from": 2, "k_to": 20, "subsets": stability.SUBSETS, "rate": stability.SAMPLING_RATE,
             "ids": list(DEFAULT_IDS)}
    problems = []
    raw = query.get("many_mode")
    if raw is not None:
        if raw in MODES:
            state["mode"] = raw
        else:
            problems.append(f"mode {raw[:40]!r} (one of {', '.join(MODES)})")
    raw = query.get("many_algorithm")
    if raw is not None:  # the algorithm of the link's mode
        if state["mode"] in DEFAULT_ALGORITHM and raw in algorithms_for(state["mode"]):
            state[f"algorithm_{state['mode']}"] = raw
        else:
            problems.append(f"algorithm {raw[:40]!r}")
    whole = {"many_k": ("k", 1, INTERACTIVE_MAX_K), "many_seed": ("seed", 0, MAX_SEED - MAX_SEEDS),
             "many_seeds": ("seeds", 2, MAX_SEEDS), "many_k_from": ("k_from", 2, INTERACTIVE_MAX_K),
             "many_k_to": ("k_to", 3, INTERACTIVE_MAX_K), "many_subsets": ("subsets", 1, MAX_SUBSETS)}
    for key, (name, low, high) in whole.items():
        if key in query:
            value = _whole(query[key], low, high)
            if value is None:
                problems.append(f"{key.removeprefix('many_').replace('_', ' ')} {query[key][:40]!r} (a whole number "
                                f"from {low} to {high})")
            else:
                state[name] = value
    if state["k"] is not None:
        state["k_dataset"] = query.get("dataset")  # the link's k is for the link's data set
    if "many_rate" in query:
        try:
            rate = float(query["many_rate"]) if len(query["many_rate"]) <= 10 else None
        except ValueError:
            rate = None
        if rate is None or not RATES[0] <= rate <= RATES[1]:
            problems.append(f"rate {query['many_rate'][:40]!r} (from {RATES[0]} to {RATES[1]})")
        else:
            state["rate"] = rate
    if "many_ids" in query:
        asked = query["many_ids"].split(",")
        known = [i for i in asked if i in label_free_ids()]
        if len(known) < len(asked) or not known:
            problems.append(f"indices {query['many_ids'][:60]!r} (ids of the Index reference page that need no "
                            "coordinates, separated by commas)")
        if known:
            state["ids"] = list(dict.fromkeys(known))
    if problems:
        st.warning(ui.plain("The link's " + "; ".join(problems) + (" was" if len(problems) == 1 else " were")
                            + " not understood: the default is shown instead."))
    return state


def _taken(name: str) -> None:
    st.session_state[STATE][name] = st.session_state[f"many_{name}"]


def control(draw, name: str, label: str, **options):
    """Draw widget `many_<name>` showing the state's value; what the user sets goes into the state."""
    st.session_state[f"many_{name}"] = state[name]
    return draw(label, key=f"many_{name}", on_change=_taken, args=(name,), **options)


def write_link(wanted: dict) -> None:
    """The page's choices into the URL (its own keys only; only when they changed)."""
    _page_url.change_query(set(URL_KEYS) - wanted.keys(), wanted)


if STATE not in st.session_state:
    st.session_state[STATE] = _state_from_link()
state = st.session_state[STATE]

# ---------------------------------------------------------------------- the choices
st.title("Many clusterings")
st.caption("Run one algorithm many times on the data set chosen in the sidebar (or read several clusterings from a "
           "file), compare every pair of solutions with the indices you choose, and see which solutions the indices "
           "agree are the most stable. Over k, the stability curve chooses the number of clusters as the PSI paper "
           "does (Rezaei & Fränti 2016, Fig. 25).")

mode = control(st.radio, "mode", "Clusterings", options=list(MODES), format_func=MODES.get, horizontal=True)
choices = label_free_ids()
state["ids"] = [i for i in state["ids"] if i in choices] or [i for i in DEFAULT_IDS if i in choices]
st.html(LAYOUT)
wanted = {"many_mode": mode}

if mode == UPLOAD:
    with st.container(key="many_controls"):
        file_box, ids_box = st.columns([2, 3], gap="medium")
    with ids_box:
        ids = control(st.multiselect, "ids", "Indices", options=choices, format_func=lambda i: INDICES[i].name,
                      help="One heatmap each. Indices that need the points' coordinates are not offered: a file of "
                           "label columns has none.")
    wanted["many_ids"] = ",".join(ids)
    write_link(wanted)
    with file_box:
        upload = st.file_uploader("CSV or Parquet file, one label column per clustering",
                                  type=["csv", "tsv", "txt", "parquet"], key="many_upload",
                                  help=f"The reader of the Your data page: one row per object, at most "
                                       f"{MAX_BYTES >> 20} MB. Labels are read as written; a noise label is compared "
                                       "like any other cluster. The sidebar's data set is not used here.")
    if upload is None:
        st.info("No file yet. Example, three clusterings of four objects:\n\n"
                "```\nkmeans_seed0,kmeans_seed1,ward\n1,2,1\n1,2,1\n2,1,2\n2,1,3\n```")
        st.stop()
    with ui.guarded(f"Reading {upload.name}"):
        table = read_upload(upload.getvalue(), upload.name)
        summaries = summaries_of(table.frame, upload.file_id)
    frame = table.frame
    if st.session_state.get("_many_upload_source") != upload.file_id or "many_columns" not in st.session_state:
        st.session_state["_many_upload_source"] = upload.file_id  # a new file: its label-like columns
        st.session_state["many_columns"] = [c for c in frame.columns if not summaries[c].continuous]
    columns = st.multiselect("Label columns (one clustering each)", list(frame.columns), key="many_columns")
    st.caption(ui.plain(" ".join(table.notes)) + f" {len(frame):,} rows, {frame.shape[1]} columns.")
    for column in columns:
        message = userdata.continuous_label_warning(summaries[column])
        if message:
            st.warning(ui.plain(message[:1].upper() + message[1:]))
    if len(columns) < 2:
        st.warning("Choose at least two label columns to compare.")
        st.stop()
    with ui.guarded("Reading the label columns"):
        partitions = label_columns(frame, upload.file_id, tuple(columns))
    described = f"{len(columns)} label columns of {ui.plain(upload.name)} ({len(frame):,} objects)"
    curve = None
else:
    sel = ui.selection()
    points = ui.current_points(sel.dataset)
    X = points.X
    largest = data.largest_k(X)
    offered = algorithms_for(mode)
    if mode == OVER_K and largest < 3:
        st.info(f"{ui.plain(points.title)} has too few distinct points for a range of k (from 2 to at least 3): "
                "choose another data set in the sidebar.")
        st.stop()
    with st.container(key="many_controls"):
        if mode == SEEDS:
            boxes = st.columns([3, 1, 1, 1, 4], vertical_alignment="bottom")
        else:
            boxes = st.columns([3, 1, 1, 1, 1, 1, 4], vertical_alignment="bottom")
        with boxes[0]:
            algorithm = control(st.selectbox, f"algorithm_{mode}", "Algorithm", options=offered,
                                format_func=lambda a: ALGORITHMS[a].name,
                                help="Over seeds, the algorithms whose result depends on the random start; over k, "
                                     "those that take k.")
        if mode == SEEDS:
            if state["k"] is not None and state["k_dataset"] is None:  # a link's k without its data set
                state["k_dataset"] = sel.dataset
            if state["k_dataset"] != sel.dataset:  # another data set: k follows its reference again
                state["k"], state["k_dataset"] = None, sel.dataset
            natural = min(ui.reference_k(points, next(iter(points.partitions))), largest)
            state["k"] = min(state["k"] or natural, largest)
            with boxes[1]:
                k = control(st.number_input, "k", "k", min_value=1, max_value=largest, step=1,
                            help=f"Clusters in every run; the reference has {natural}.")
            with boxes[2]:
                first = control(st.number_input, "seed", "First seed", min_value=0, max_value=MAX_SEED - MAX_SEEDS,
                                step=1)
            with boxes[3]:
                count = control(st.number_input, "seeds", "Seeds", min_value=2, max_value=MAX_SEEDS, step=1,
                                help=f"Runs with the seeds first, first + 1, ...; at most {MAX_SEEDS}.")
            wanted.update({"many_algorithm": algorithm, "many_k": k, "many_seed": first, "many_seeds": count})
        else:
            top = largest  # at most INTERACTIVE_MAX_K
            state["k_from"] = min(max(state["k_from"], 2), top - 1)
            state["k_to"] = min(max(state["k_to"], state["k_from"] + 1), top, state["k_from"] + MAX_KS - 1)
            with boxes[1]:
                k_from = control(st.number_input, "k_from", "k from", min_value=2, max_value=top - 1, step=1)
            with boxes[2]:
                k_to = control(st.number_input, "k_to", "k to", min_value=k_from + 1,
                               max_value=min(top, k_from + MAX_KS - 1), step=1,
                               help=f"At most {MAX_KS} values of k at a time.")
            with boxes[3]:
                subsets = control(st.number_input, "subsets", "Subsets", min_value=1, max_value=MAX_SUBSETS, step=1,
                                  help=f"Random subsets per k (the paper: {stability.SUBSETS}).")
            with boxes[4]:
                rate = control(st.number_input, "rate", "Rate", min_value=RATES[0], max_value=RATES[1], step=0.05,
                               format="%.2f", help=f"Share of the points in each subset (the paper: "
                                                   f"{stability.SAMPLING_RATE:g}).")
            with boxes[5]:
                first = control(st.number_input, "seed", "Seed", min_value=0, max_value=MAX_SEED - MAX_SEEDS, step=1,
                                help="Draws the subsets. Each run has a seed of its own: k for the whole data, "
                                     "1000 s + k for subset s.")
            wanted.update({"many_algorithm": algorithm, "many_k_from": k_from, "many_k_to": k_to,
                           "many_subsets": subsets, "many_rate": f"{rate:g}", "many_seed": first})
        with boxes[-1]:
            ids = control(st.multiselect, "ids", "Indices", options=choices, format_func=lambda i: INDICES[i].name,
                          help="One heatmap each. Indices that need the points' coordinates are not offered "
                               "(the matrices compare label vectors).")
    wanted["many_ids"] = ",".join(ids)
    write_link(wanted)
    curve = None
    with ui.guarded("Clustering"):
        if mode == SEEDS:
            seeds = tuple(range(first, first + count))
            params = parameters(X, algorithm, (k,), count, 0, stability.SAMPLING_RATE)
            partitions, seconds = runs_over_seeds(X, algorithm, k, seeds, params)
            described = (f"{ALGORITHMS[algorithm].name} with k = {k}, seeds {seeds[0]} to {seeds[-1]}, on "
                         f"{ui.plain(points.title)}")
        else:
            ks = tuple(range(k_from, k_to + 1))
            params = parameters(X, algorithm, ks, 1, subsets, rate)
            curve = curve_over_k(X, algorithm, ks, tuple(choices), subsets, rate, first, params)
            partitions, seconds = curve.partitions, curve.seconds
            described = (f"{ALGORITHMS[algorithm].name} with k = {k_from} to {k_to} on the whole of "
                         f"{ui.plain(points.title)}")
    if params:
        described += (" (" + ", ".join(f"{name} = {value:g}" for name, value in params) + ": the defaults, lowered "
                      "where needed so that all the runs fit the interactive budget of "
                      f"{INTERACTIVE_BUDGET.seconds:g} s by the library's generous estimate)")
    described += f"; the runs took {seconds:,.1f} s"

if not ids:
    st.warning("Choose at least one index.")
    st.stop()


# ---------------------------------------------------------------------- the views
def verdict_view(ranking, *, what: str, score_help: str, values_note: str) -> None:
    """Which solutions the indices agree are most stable: a sentence, the ranking and its download."""
    agreed = [name for name, together in ranking["agreed"].items() if together]
    if agreed:
        st.markdown(f"Every chosen index ranks **{', '.join(ui.plain(name) for name in agreed)}** first: the most "
                    f"stable {what}{'s' if len(agreed) > 1 else ''} by all of them.")
    else:
        st.markdown(f"The indices do not agree on the most stable {what}: " + "; ".join(
            f"{INDICES[i].name} ranks {', '.join(ui.plain(name) for name in names) or 'none (undefined)'} first"
            for i, names in stability.leaders(ranking).items()) + ".")
    short = {i: views.HEADLINE.get(i, INDICES[i].name) for i in ids}
    config = {"_index": st.column_config.TextColumn(what)}
    for index_id in ids:
        direction = "higher" if INDICES[index_id].higher_is_better else "lower"
        config[index_id] = st.column_config.NumberColumn(
            short[index_id], format="%.4f", help=f"{INDICES[index_id].name}: {score_help}; {direction} is more stable")
        config[f"{index_id} rank"] = st.column_config.NumberColumn(
            "rank", format="%d", width=50,
            help=f"By {INDICES[index_id].name}: 1 = most stable; tied solutions share the better rank")
    config["mean rank"] = st.column_config.NumberColumn("mean rank", format="%.2f", width=80,
                                                        help="The mean of the chosen indices' ranks")
    config["agreed"] = st.column_config.CheckboxColumn("all agree", width=70, help="Every chosen index ranks it first")
    st.dataframe(ranking, key="many_verdict", height=views.table_height(len(ranking)), column_config=config,
                 column_order=[c for c in ranking.columns if c != "first by"])
    st.caption(f"Ordered by the mean rank over the chosen indices. {values_note}")
    st.download_button("Verdict (CSV)", ranking.to_csv(), "cluval_many_verdict.csv", "text/csv",
                       key="many_download")


def heatmaps(matrices: dict, beside=None) -> None:
    """One heatmap per index, three a row; `beside` (a view) fills the first row when it has room."""
    rows = [ids[start:start + HEATMAPS_A_ROW] for start in range(0, len(ids), HEATMAPS_A_ROW)]
    with st.container(key="many_heatmaps"):
        for number, row in enumerate(rows):
            room = beside is not None and number == 0 and len(row) < HEATMAPS_A_ROW
            slots = st.columns([1] * len(row) + [1.4] if room else [1] * HEATMAPS_A_ROW, gap="medium")
            for slot, index_id in zip(slots, row):
                with slot:
                    charts.chart(pairwise_heatmap(matrices[index_id], index_id), key=f"many_heatmap_{index_id}")
            if room:
                with slots[-1], st.container(key="many_beside"):
                    beside()
    if beside is not None and len(ids) >= HEATMAPS_A_ROW:
        beside()


with ui.guarded("Comparing the solutions"):
    matrices = pairwise(partitions, data.fingerprint(tuple(partitions), *partitions.values()), tuple(ids))
PAIRS_NOTE = ("Row p, column q: the index with p as the reference and q as the candidate. Dark means alike for every "
              "index (a distance's scale is turned round), so a stable solution shows as a dark row and column.")

if curve is None:
    st.subheader("Every pair of solutions, and the most stable")
    st.caption(f"{described}. {PAIRS_NOTE}")
    heatmaps(matrices, beside=lambda: verdict_view(
        stability.most_stable(matrices), what="solution",
        score_help="mean agreement with the other solutions (both directions for an asymmetric index)",
        values_note="Each value is the solution's mean agreement with the others: the mean, over the other "
                    "solutions, of the index in both directions."))
else:
    st.subheader("Stability over k")
    with st.container(key="many_stability"):
        left, right = st.columns([3, 2], gap="medium")
    with left:
        charts.chart(stability_curves(curve.values, ids, best_k=curve.best_k), key="many_curve")
        st.caption(f"{described}. {curve.subsets} subsets of {curve.rate:.0%} of the points (seed {curve.seed}), "
                   "each clustered with k and compared with the whole data's clustering restricted to it (the "
                   "reference); the stability is the mean over the subsets (Rezaei & Fränti 2016, Fig. 25). A star "
                   "marks each index's most stable k: the highest for a similarity, the lowest for a distance (the "
                   "smallest k on a tie).")
    with right, st.container(key="many_beside"):
        verdict_view(curve.ranking(ids), what="k",
                     score_help="stability, the mean over the subsets of the index between the whole data's "
                                "clustering (restricted to the subset) and the subset's own",
                     values_note="Each value is the stability of that k.")
    st.subheader("Every pair of solutions")
    st.caption(f"The whole data's clustering at each k. {PAIRS_NOTE}")
    heatmaps(matrices)
