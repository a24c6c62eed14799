"""What every page shares: the sidebar, cached wrappers around cluval_core, error display.

Pages never compute: they read the selection, call the cached functions below (which call
cluval_core and return plain data) and render. Labels follow one convention throughout the
app: clusters are 1..k and 0 marks noise (benchmark references already do; clusterings and
synthetic sets are shifted to it).
"""

from __future__ import annotations

import html
import re
import traceback
import warnings
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
import streamlit as st

from cluval_core import CluvalError, CluvalWarning, Noise, compare
from cluval_core import datasets as ds
from cluval_core import experiments, userdata
from cluval_core.clustering import (ALGORITHMS, INTERACTIVE_BUDGET, MAX_SEED, cluster, interactive_defaults, k_range,
                                   parameter_range)
from cluval_core.plots import partition_scatter, project_2d
from cluval_core.report import build_report
from cluval_core.synthetic import SCENARIOS, SYNTHETIC_SETS, make_synthetic

USER_DATA = "your data"
SECOND_CLUSTERING = "a second clustering"
NOISE_OPTIONS = {
    "noise is an ordinary cluster": None,
    "drop reference noise": "drop_reference_noise",
    "noise points as singletons": "singletons",
}
DEFAULT_ALGORITHM = "kmeans++"


@dataclass(frozen=True)
class Points:
    """A loaded data set: coordinates, reference partitions (1..k, 0 = noise) and provenance."""

    key: str
    title: str
    X: np.ndarray
    partitions: dict
    description: str
    citation: str


@dataclass(frozen=True)
class Selection:
    dataset: str
    reference: str
    ref_algorithm: str
    ref_k: int
    ref_seed: int
    algorithm: str
    k: int
    seed: int
    params: tuple
    noise: str


# ---------------------------------------------------------------------- user strings
# The ASCII punctuation that Markdown, LaTeX, HTML or Streamlit's directives give a meaning to:
# all of it but quotes, comma, semicolon, question mark, percent sign and slash.
_MARKDOWN_PUNCTUATION = re.compile(r"([!#$&()*+\-.:<=>@\[\\\]^_`{|}~])")
# GitHub's "autolink literals" (http://..., www...., a@b.c) are found in the text after escapes
# are resolved: an invisible word joiner after the scheme, "www" or "@" keeps them plain text.
_AUTOLINK_START = re.compile(r"(https?(?=:)|www(?=\.)|@)", re.IGNORECASE)
WORD_JOINER = "\u2060"


def plain(text) -> str:
    """`text` for Markdown that shows it literally: every user string goes through this.

    Column names, labels, file names and messages that quote them are rendered by st.markdown,
    st.caption, st.error, headers, ... as GitHub-flavoured Markdown with LaTeX and raw HTML. A
    backslash before every ASCII punctuation character that could start one (CommonMark shows an
    escaped punctuation character as itself) leaves no link, image, emphasis, code, math, HTML,
    table or directive syntax: ``**b**`` becomes ``\\*\\*b\\*\\*``. A word joiner (invisible)
    after ``http``, ``www`` and ``@`` stops bare addresses from becoming links. Line breaks become
    spaces, so that no block can start.
    """
    text = _AUTOLINK_START.sub(r"\1" + WORD_JOINER, " ".join(str(text).splitlines()))
    return _MARKDOWN_PUNCTUATION.sub(r"\\\1", text)


def plot_text(text) -> str:
    """`text` for a plotly title or label, which reads a few HTML tags (<a>, <b>, ...) and entities."""
    return html.escape(str(text), quote=False)


# ---------------------------------------------------------------------- errors
MAX_DETAIL = 300


@contextmanager
def guarded(what: str):
    """Show any failure as a short error message that says what to do, never as a traceback.

    The message quotes user strings (file and column names), so it is shown escaped.
    """
    try:
        yield
    except CluvalError as exc:
        st.error(plain(f"{what}: {exc}"))
        st.stop()
    except MemoryError:
        st.error(plain(f"{what}: not enough memory. Choose a smaller data set or another algorithm."))
        st.stop()
    except Exception as exc:  # noqa: BLE001 - the user must never see a traceback
        detail = " ".join("".join(traceback.format_exception_only(type(exc), exc)).split())
        if len(detail) > MAX_DETAIL:
            detail = detail[:MAX_DETAIL - 1] + "…"
        st.error(plain(f"{what} failed unexpectedly ({detail}). Try other settings; if it persists, report it."))
        st.stop()


# ---------------------------------------------------------------------- cached wrappers
def _shift_to_one(labels: np.ndarray) -> np.ndarray:
    """0..k-1 labels (-1 = noise) to the app's 1..k (0 = noise)."""
    return np.asarray(labels, dtype=np.int64) + 1


@st.cache_data(show_spinner="Loading the data set…", max_entries=16)
def load_points(key: str, seed: int = 0) -> Points:
    if key in SYNTHETIC_SETS:
        X, labels = make_synthetic(key, seed)
        s = SYNTHETIC_SETS[key]
        return Points(key, s.title, X, {"labels0": _shift_to_one(labels)}, s.description, "generated by cluval")
    data = ds.load_dataset(key, download=False)
    return Points(key, data.title, np.asarray(data.X), dict(data.partitions), data.description, data.citation)


@contextmanager
def progress_bar(text: str):
    """A progress callback ``(fraction, message)`` that draws a bar, removed when the block ends.

    Open it *inside* the st.cache_data function that does the work. Streamlit records what a
    cached function draws and replays it on every cache hit; a bar created outside the function
    cannot be replayed (CacheReplayClosureError on any rerun), one created inside is replayed
    ending removed. The bar moves by whole percents only, which keeps the replay short.
    """
    bar = st.progress(0.0, text=text)
    shown = [-1]

    def update(fraction, message=""):
        percent = int(100 * min(max(fraction, 0.0), 1.0))
        if percent != shown[0]:
            shown[0] = percent
            bar.progress(percent / 100, text=f"{text} {message}".strip())

    try:
        yield update
    finally:
        bar.empty()


@st.cache_data(show_spinner=False, max_entries=64)
def run_clustering(X: np.ndarray, algorithm: str, k: int, seed: int, params: tuple,
                   progress_text: str | None = None) -> dict:
    if progress_text is None:
        result = cluster(X, algorithm, k, seed=seed, progress=None, **dict(params))
    else:
        with progress_bar(progress_text) as progress:
            result = cluster(X, algorithm, k, seed=seed, progress=progress, **dict(params))
    return {"labels": _shift_to_one(result.labels), "centroids": result.centroids,
            "memberships": result.memberships, "objective": result.objective, "iterations": result.iterations,
            "seconds": result.seconds, "k": result.k, "params": result.params}


@st.cache_data(show_spinner=False, max_entries=64)
def comparison_report(labels_true: np.ndarray, labels_pred: np.ndarray, X: np.ndarray | None, noise: str):
    policy = NOISE_OPTIONS[noise]
    with warnings.catch_warnings(record=True) as caught:  # shown (and replayed on cache hits) as st.warning
        warnings.simplefilter("always", CluvalWarning)
        c = compare(labels_true, labels_pred, X=X, noise=None if policy is None else Noise(0, policy))
    for warning in caught:
        if issubclass(warning.category, CluvalWarning):
            message = str(warning.message)
            st.warning(plain(message[:1].upper() + message[1:]))
    return build_report(c)


def clustering_with_spinner(X, algorithm, k, seed, params):
    name = ALGORITHMS[algorithm].name
    slow = algorithm == "random_swap" or len(X) > 20_000
    label = f"Clustering {len(X):,} points with {name}" + (" (this can take several seconds)…" if slow else "…")
    if not ALGORITHMS[algorithm].reports_progress:
        with st.spinner(label):
            return run_clustering(X, algorithm, k, seed, params)
    return run_clustering(X, algorithm, k, seed, params, label)


# ---------------------------------------------------------------------- data set choice
@st.cache_data(show_spinner=False, ttl=600)
def available_benchmarks() -> list[str]:
    return ds.available_datasets()


def dataset_options() -> dict[str, str]:
    """Option key -> label for the dataset selectbox: synthetic sets, local benchmarks, user data."""
    options = {key: s.title for key, s in SYNTHETIC_SETS.items()}
    cat = ds.catalogue()["datasets"]
    for key in available_benchmarks():
        entry = cat[key]
        options[key] = f"{entry['title']} (n={entry['n']:,}, k={entry['k']})"
    options[USER_DATA] = "Your data (upload on the 'Your data' page)"
    return options


def user_points() -> Points | None:
    return st.session_state.get("user_points")


def current_points(dataset: str) -> Points:
    if dataset == USER_DATA:
        points = user_points()
        if points is None:
            st.info("No data uploaded yet: open the **Your data** page to upload a CSV file, "
                    "or pick another data set in the sidebar.")
            st.stop()
        return points
    with guarded("Loading the data set"):
        return load_points(dataset)


def reference_k(points: Points, reference: str) -> int:
    labels = points.partitions.get(reference)
    if labels is None:
        return 2
    return max(int(len(np.unique(labels[labels > 0]))), 1)


@st.cache_data(show_spinner=False, max_entries=64)
def largest_k(X: np.ndarray) -> int:
    return k_range(X).high


@st.cache_data(show_spinner=False, max_entries=64)
def default_params(X: np.ndarray, algorithm: str, k: int) -> tuple:
    """The algorithm's parameters at the defaults the app offers (they fit its time budget)."""
    return tuple(interactive_defaults(X, algorithm, k).items())


@st.cache_data(show_spinner=False, max_entries=64)
def control_range(X: np.ndarray, algorithm: str, name: str, k: int, chosen: tuple):
    return parameter_range(X, algorithm, name, k, dict(chosen))


def _bounded(key: str, low, high, default=None) -> None:
    """Keep a widget's remembered value within [low, high] (the range changes with the data set)."""
    value = st.session_state.get(key)
    if value is not None and not low <= value <= high:
        st.session_state[key] = min(max(value, low), high) if default is None else default


def _param_widget(algorithm: str, name: str, parameter, X: np.ndarray, k: int, chosen: dict):
    """One algorithm parameter, offered within the range the library gives for this data and k."""
    key = f"param_{algorithm}_{name}"
    if parameter.choices:
        return st.sidebar.selectbox(name, list(parameter.choices), key=key, help=parameter.description)
    bounds = control_range(X, algorithm, name, k, tuple(chosen.items()))
    previous = st.session_state.get(f"_range_{key}")
    st.session_state[f"_range_{key}"] = bounds
    if key not in st.session_state or (previous is not None and previous != bounds
                                       and st.session_state[key] == previous.default):
        st.session_state[key] = bounds.default  # untouched: follow the new data set's default
    _bounded(key, bounds.low, bounds.high, bounds.default)
    help_text = (f"{parameter.description}: {bounds.low:g} to {bounds.high:g} on this data set, so that a run "
                 f"stays within about {INTERACTIVE_BUDGET.seconds:g} s.")
    if isinstance(parameter.default, float):
        return float(st.sidebar.number_input(name, min_value=float(bounds.low), max_value=float(bounds.high),
                                             step=float(bounds.step), key=key, help=help_text, format="%.4g"))
    return int(st.sidebar.number_input(name, min_value=int(bounds.low), max_value=int(bounds.high), step=1,
                                       key=key, help=help_text))


def sidebar() -> Selection:
    """Declare the shared sidebar (in the entrypoint, so its state survives page switches)."""
    st.sidebar.title("cluval")
    options = dataset_options()
    benchmarks = [k for k in options if k not in SYNTHETIC_SETS and k != USER_DATA]
    default = "s1" if "s1" in benchmarks else "unbalance_like"
    if "dataset" not in st.session_state or st.session_state["dataset"] not in options:
        st.session_state["dataset"] = default
    dataset = st.sidebar.selectbox("Data set", list(options), format_func=options.get, key="dataset")
    if not benchmarks:
        st.sidebar.info("No benchmark data found, so the synthetic sets are offered. To add S1–S4, Unbalance, "
                        "Aggregate and the others, set `CLUVAL_DATA_DIR` to a folder with the "
                        "clustering-benchmarks files, or run `cluval datasets fetch` with internet access.")
    points = current_points(dataset)

    st.sidebar.subheader("Reference")
    ref_options = list(points.partitions) + [SECOND_CLUSTERING]
    if st.session_state.get("reference") not in ref_options:
        st.session_state["reference"] = ref_options[0]
    reference = st.sidebar.selectbox(
        "Reference partition", ref_options, key="reference",
        format_func=lambda r: r if r == SECOND_CLUSTERING else f"ground truth {r} (k={reference_k(points, r)})")
    ref_algorithm, ref_k, ref_seed = "", 0, 0
    if reference == SECOND_CLUSTERING:
        ref_algorithm = st.sidebar.selectbox("Reference algorithm", list(ALGORITHMS), index=0,
                                             format_func=lambda a: ALGORITHMS[a].name, key="ref_algorithm")
        if st.session_state.get("ref_k") is None:
            st.session_state["ref_k"] = min(reference_k(points, "labels0"), largest_k(points.X))
        _bounded("ref_k", 1, largest_k(points.X))
        ref_k = int(st.sidebar.number_input("Reference k", min_value=1, max_value=largest_k(points.X), key="ref_k"))
        ref_seed = int(st.sidebar.number_input("Reference seed", min_value=0, max_value=MAX_SEED, value=1,
                                               key="ref_seed"))
    natural_k = ref_k if reference == SECOND_CLUSTERING else reference_k(points, reference)

    st.sidebar.subheader("Candidate clustering")
    algorithm = st.sidebar.selectbox("Algorithm", list(ALGORITHMS), index=list(ALGORITHMS).index(DEFAULT_ALGORITHM),
                                     format_func=lambda a: ALGORITHMS[a].name, key="algorithm",
                                     help="\n\n".join(f"**{a.name}**: {a.description}" for a in ALGORITHMS.values()))
    k_source = (dataset, reference, ref_k)
    if st.session_state.get("_k_source") != k_source:  # a new reference: k follows its number of clusters
        st.session_state["_k_source"] = k_source
        st.session_state["k"] = min(natural_k, largest_k(points.X))
    _bounded("k", 1, largest_k(points.X))
    k = int(st.sidebar.number_input("k (clusters)", min_value=1, max_value=largest_k(points.X), key="k",
                                    disabled=not ALGORITHMS[algorithm].needs_k,
                                    help="Defaults to the reference's number of clusters "
                                         f"(at most {largest_k(points.X)} here)."))
    seed = int(st.sidebar.number_input("Seed", min_value=0, max_value=MAX_SEED, value=0, key="seed"))
    chosen = {}
    for name, parameter in ALGORITHMS[algorithm].params.items():
        chosen[name] = _param_widget(algorithm, name, parameter, points.X, k, chosen)
    params = tuple(chosen.items())
    st.sidebar.subheader("Noise")
    noise = st.sidebar.selectbox("Noise label 0", list(NOISE_OPTIONS), key="noise",
                                 help="How objects labelled 0 (noise) are compared: as a cluster "
                                      "(scikit-learn), dropped from the reference (clustering-benchmarks), "
                                      "or each a cluster of its own (ELKI).")
    return Selection(dataset, reference, ref_algorithm, ref_k, ref_seed, algorithm, k, seed, params, noise)


def selection() -> Selection:
    return st.session_state["selection"]


def require_frame(page: str) -> None:
    """Send a session that opened `page` directly, before app.py ever ran, through app.py.

    A fresh server finds the ``pages/`` folder and would run a deep-linked page on its own
    (Streamlit's older multipage mode) until some session has run app.py, whose
    st.navigation call ends that mode. Such a first run has no shared sidebar: go through
    the entrypoint, which then opens the page that was asked for.
    """
    if "selection" not in st.session_state:
        st.session_state["_deep_link"] = page
        st.switch_page("app.py")


@dataclass(frozen=True)
class Partitions:
    points: Points
    reference: np.ndarray
    reference_name: str
    candidate: np.ndarray
    candidate_name: str
    candidate_run: dict


def partitions(sel: Selection | None = None) -> Partitions:
    """The selected data set, its reference and the candidate clustering (all cached)."""
    sel = sel or selection()
    points = current_points(sel.dataset)
    with guarded("Clustering"):
        if sel.reference == SECOND_CLUSTERING:
            ref_run = clustering_with_spinner(points.X, sel.ref_algorithm, sel.ref_k, sel.ref_seed,
                                              default_params(points.X, sel.ref_algorithm, sel.ref_k))
            reference, ref_name = ref_run["labels"], f"{ALGORITHMS[sel.ref_algorithm].name} (seed {sel.ref_seed})"
        else:
            reference, ref_name = points.partitions[sel.reference], f"ground truth ({sel.reference})"
        run = clustering_with_spinner(points.X, sel.algorithm, sel.k, sel.seed, sel.params)
    name = ALGORITHMS[sel.algorithm].name + (f", k={sel.k}" if ALGORITHMS[sel.algorithm].needs_k else "")
    return Partitions(points, reference, ref_name, run["labels"], name, run)


def report_for(parts: Partitions, noise: str):
    with guarded("Comparing the partitions"):
        return comparison_report(parts.reference, parts.candidate, parts.points.X, noise)


@st.cache_data(show_spinner="Computing every index along the scenario…", max_entries=32)
def scenario_curve(key: str, seed: int = 0):
    return experiments.scenario_curve(key, seed=seed)


@st.cache_data(show_spinner=False, max_entries=64)
def scenario_pair(key: str, value, seed: int = 0):
    return SCENARIOS[key].make(value, seed)[:2]


def unbalance_points() -> Points:
    """The Unbalance benchmark when available, else its synthetic look-alike."""
    with guarded("Loading Unbalance"):
        return load_points("unbalance" if "unbalance" in available_benchmarks() else "unbalance_like")


FOUR_ALGORITHMS = (("RS (random swap)", "random_swap", ()), ("AC (Ward)", "ward", ()),
                   ("SL (single link)", "single", ()), ("KM (k-means, random start)", "kmeans", ()))


@st.cache_data(show_spinner="Clustering Unbalance four ways (random swap takes a few seconds)…")
def four_algorithms(X: np.ndarray, truth: np.ndarray):
    return experiments.algorithms_on(X, truth, 8, [(n, a, dict(p)) for n, a, p in FOUR_ALGORITHMS], seed=0)


@st.cache_data(show_spinner="Shrinking the sparse clusters…")
def sparse_curve():
    return experiments.sparse_cluster_curve([200, 150, 100, 80, 60, 50, 40, 30, 25, 20, 15, 12, 10])


@st.cache_data(show_spinner="Removing Yeast's smallest classes…")
def yeast_removal():
    if "yeast" not in available_benchmarks():
        return None
    yeast = load_points("yeast")
    labels = yeast.partitions["labels0"]
    return (experiments.remove_smallest_classes(labels, seeds=20),
            experiments.remove_smallest_classes(labels, X=yeast.X, mode="nearest"))


def small_scatter(X, report, title):
    X2, axes, _ = projection(X)
    fig = partition_scatter(X2, report, "pred", title=title, axis_titles=axes)
    fig.update_layout(height=300, margin=dict(l=0, r=0, t=30, b=0))
    fig.update_yaxes(scaleanchor=None)  # a narrow column: let the points fill it
    return fig


@st.cache_data(show_spinner="Comparing soft and hardened tables…", max_entries=16)
def soft_comparison(reference: np.ndarray, memberships: np.ndarray):
    soft, hard, frame = experiments.soft_versus_crisp(reference, memberships)
    return build_report(soft), build_report(hard), frame


@st.cache_data(show_spinner="Reading the file…", max_entries=4)
def read_upload(data: bytes, name: str):
    return userdata.read_table_bytes(data, name)


@st.cache_data(show_spinner=False, max_entries=16)
def labels_report(frame, truth: str, pred: str):
    a, _ = userdata.label_column(frame, truth)
    b, _ = userdata.label_column(frame, pred)
    return build_report(compare(a, b))


@st.cache_data(show_spinner=False, max_entries=4)
def user_points_from(frame, coordinates: tuple, labels: tuple, name: str, noise=None) -> Points:
    X, first, names = userdata.points_and_labels(frame, list(coordinates), labels[0], noise)
    partitions = {"labels0": first}
    for column in labels[1:]:
        partitions[f"{column}"] = userdata.label_column(frame, column, noise)[0]
    marked = "" if noise is None else f"; label '{noise}' marks noise"
    return Points(USER_DATA, f"your data ({name})", X, partitions,
                  f"{len(X):,} points from {name}; labels0 is column '{labels[0]}' with {len(names)} clusters{marked}",
                  "your upload")


NEEDS_BENCHMARKS = {"unbalance_table6": ["unbalance"], "yeast_table7": ["yeast"], "stability_fig25": ["unbalance"],
                    "centroid_index_paper": ["s1", "s2", "s3", "s4", "unbalance", "birch2", "compound", "aggregation"],
                    "lei_soft": ["iris", "wine"]}


@st.cache_data(show_spinner=False, max_entries=16)
def _experiment_result(name: str):
    with progress_bar("Running the experiment…") as progress:
        return experiments.run_experiment(name, progress=progress)


def experiment_result(name: str):
    """Run an experiment's reduced form once (cached), with a progress bar."""
    with guarded(f"Experiment {name}"):
        return _experiment_result(name)


@st.cache_data(show_spinner=False, max_entries=32)
def projection(X: np.ndarray, *centroids):
    """2-D coordinates of the points (principal components when d > 2) and of the centroids."""
    return project_2d(X, *centroids)

