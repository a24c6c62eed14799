"""The app's frame: the sidebar and its selection, user strings, error display.

Pages never compute: they read the selection, call cached functions (``pages/_cache.py``,
which call cluval_core) and render.
"""

from __future__ import annotations

import html
import re
import traceback
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
import streamlit as st

from cluval_core import CluvalError
from cluval_core import datasets as ds
from cluval_core.clustering import ALGORITHMS, INTERACTIVE_BUDGET, MAX_SEED
from cluval_core.synthetic import SYNTHETIC_SETS
from pages import _cache as data

USER_DATA = "your data"
SECOND_CLUSTERING = "a second clustering"
NOISE_OPTIONS = {
    "noise is an ordinary cluster": None,
    "drop reference noise": "drop_reference_noise",
    "noise points as singletons": "singletons",
}
DEFAULT_ALGORITHM = "kmeans++"




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












# ---------------------------------------------------------------------- data set choice


def dataset_options() -> dict[str, str]:
    """Option key -> label for the dataset selectbox: synthetic sets, local benchmarks, user data."""
    options = {key: s.title for key, s in SYNTHETIC_SETS.items()}
    cat = ds.catalogue()["datasets"]
    for key in data.available_benchmarks():
        entry = cat[key]
        options[key] = f"{entry['title']} (n={entry['n']:,}, k={entry['k']})"
    options[USER_DATA] = "Your data (upload on the 'Your data' page)"
    return options


def user_points() -> data.Points | None:
    return st.session_state.get("user_points")


def current_points(dataset: str) -> data.Points:
    if dataset == USER_DATA:
        points = user_points()
        if points is None:
            st.info("No data uploaded yet: open the **Your data** page to upload a CSV file, "
                    "or pick another data set in the sidebar.")
            st.stop()
        return points
    with guarded("Loading the data set"):
        return data.load_points(dataset)


def reference_k(points: data.Points, reference: str) -> int:
    labels = points.partitions.get(reference)
    if labels is None:
        return 2
    return max(int(len(np.unique(labels[labels != points.noise]))), 1)








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
    bounds = data.control_range(X, algorithm, name, k, tuple(chosen.items()))
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
            st.session_state["ref_k"] = min(reference_k(points, "labels0"), data.largest_k(points.X))
        _bounded("ref_k", 1, data.largest_k(points.X))
        ref_k = int(st.sidebar.number_input("Reference k", min_value=1, max_value=data.largest_k(points.X), key="ref_k"))
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
        st.session_state["k"] = min(natural_k, data.largest_k(points.X))
    _bounded("k", 1, data.largest_k(points.X))
    k = int(st.sidebar.number_input("k (clusters)", min_value=1, max_value=data.largest_k(points.X), key="k",
                                    disabled=not ALGORITHMS[algorithm].needs_k,
                                    help="Defaults to the reference's number of clusters "
                                         f"(at most {data.largest_k(points.X)} here)."))
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
    points: data.Points
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
            ref_run = data.clustering_with_spinner(points.X, sel.ref_algorithm, sel.ref_k, sel.ref_seed,
                                              data.default_params(points.X, sel.ref_algorithm, sel.ref_k))
            reference, ref_name = ref_run["labels"], f"{ALGORITHMS[sel.ref_algorithm].name} (seed {sel.ref_seed})"
        else:
            reference, ref_name = points.partitions[sel.reference], f"ground truth ({sel.reference})"
        run = data.clustering_with_spinner(points.X, sel.algorithm, sel.k, sel.seed, sel.params)
    name = ALGORITHMS[sel.algorithm].name + (f", k={sel.k}" if ALGORITHMS[sel.algorithm].needs_k else "")
    return Partitions(points, reference, ref_name, run["labels"], name, run)


def report_for(parts: Partitions, noise: str):
    with guarded("Comparing the partitions"):
        return data.comparison_report(parts.reference, parts.candidate, parts.points.X, noise, parts.points.noise)

































