"""The app's frame: the sidebar and its selection, user strings, error display.

Pages never compute: they read the selection, call cached functions (``pages/_cache.py``,
which call cluval_core) and render.

The selection lives in session state (``_STATE``), not in the widgets: Streamlit forgets the
value of a widget that a run does not draw, and each page draws only the controls it uses
(``pages/_frame.py`` says which). Every run seeds the widgets from the selection and takes back
what the user changed, and writes the selection the page uses into the URL, so that a link or a
reload shows the same view.
"""

from __future__ import annotations

import math
import numbers
import re
import traceback
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from cluval_core import CluvalError, cluster_count
from cluval_core.algorithms.clustering import ALGORITHMS, INTERACTIVE_BUDGET, MAX_SEED
from cluval_core.core.noise import NOISE_POLICIES
from cluval_core.data import datasets as ds
from cluval_core.data.synthetic import SYNTHETIC_SETS
from pages import _cache as data
from pages import _page_url
from pages._text import plain, plot_text  # noqa: F401 - pages call them as ui.plain, ui.plot_text

USER_DATA = "your data"
SECOND_CLUSTERING = "a second clustering"
DEFAULT_ALGORITHM = "kmeans++"

# The sidebar's controls; pages/_frame.py gives each page the ones it uses.
DATASET, REFERENCE, CANDIDATE, NOISE = "dataset", "reference", "candidate", "noise"
ALL_CONTROLS = frozenset({DATASET, REFERENCE, CANDIDATE, NOISE})


@dataclass(frozen=True)
class NoiseChoice:
    """One way of comparing the points marked as noise: the app's name for it (its key in
    Selection.noise and NOISE_OPTIONS), the library's policy, what the sidebar shows and the
    token in the URL."""

    key: str
    policy: str | None
    label: str
    token: str


# One entry per library policy (cluval_core.comparison.NOISE_POLICIES) and None, noise as a cluster.
NOISE_CHOICES = (
    NoiseChoice("noise is an ordinary cluster", None, "Count them as one more cluster", "cluster"),
    NoiseChoice("drop reference noise", "drop_reference_noise", "Leave out what the reference marks as noise",
                "drop_reference_noise"),
    NoiseChoice("noise points as singletons", "singletons", "Make each noise point a cluster of its own",
                "singletons"),
)
assert [c.policy for c in NOISE_CHOICES] == [None, *NOISE_POLICIES], "one choice per noise policy"
NOISE_OPTIONS = {choice.key: choice.policy for choice in NOISE_CHOICES}  # Selection.noise -> policy
DEFAULT_NOISE = NOISE_CHOICES[0].key
NOISE_HELP = ("Benchmark files mark noise with a label of their own; DBSCAN leaves points unassigned.  \n"
              "**One more cluster**: the noise label is compared like any other (scikit-learn).  \n"
              "**Leave out**: the points the *reference* marks as noise are removed from both partitions "
              "before comparing (the clustering-benchmarks suite).  \n"
              "**A cluster of its own**: every noise point, in either partition, is a singleton cluster "
              "(ELKI).")


@dataclass(frozen=True)
class Selection:
    """What the sidebar selects. Fields of controls the current page does not show hold the
    last choice made (k None: it follows the reference; params empty)."""

    dataset: str
    reference: str
    ref_algorithm: str
    ref_k: int
    ref_seed: int
    algorithm: str
    k: int | None
    seed: int
    params: tuple
    noise: str
    controls: frozenset = ALL_CONTROLS


# ---------------------------------------------------------------------- errors
MAX_DETAIL = 300


@contextmanager
def guarded(what: str, *, stop: bool = True):
    """Show any failure as a short error message that says what to do, never as a traceback.

    The message quotes user strings (file and column names), so it is shown escaped. With
    ``stop=False`` the rest of the page still runs (for an optional part of it): the block
    ends at the failure and the page goes on after it.
    """
    try:
        yield
    except CluvalError as exc:
        st.error(plain(f"{what}: {exc}"))
        if stop:
            st.stop()
    except MemoryError:
        st.error(plain(f"{what}: not enough memory. Choose a smaller data set or another algorithm."))
        if stop:
            st.stop()
    except Exception as exc:  # noqa: BLE001 - the user must never see a traceback
        detail = " ".join("".join(traceback.format_exception_only(type(exc), exc)).split())
        if len(detail) > MAX_DETAIL:
            detail = detail[:MAX_DETAIL - 1] + "…"
        st.error(plain(f"{what} failed unexpectedly ({detail}). Try other settings; if it persists, report it."))
        if stop:
            st.stop()


# ---------------------------------------------------------------------- data set choice


def dataset_options() -> dict[str, str]:
    """Option key -> label for the dataset selectbox: synthetic sets, local benchmarks, user data."""
    options = {key: s.title for key, s in SYNTHETIC_SETS.items()}
    cat = ds.catalogue()["datasets"]
    for key in data.available_benchmarks():
        entry = cat[key]
        options[key] = f"{entry['title']} (n={entry['n']:,}, k={entry['k']})"
    points = user_points()
    options[USER_DATA] = ("Your data (upload on the 'Your data' page)" if points is None
                          else f"Your data: {points.file or 'an upload'} (n={len(points.X):,})")
    return options


# Session state of the Your data page that the sidebar reads: the file the page shows (kept
# across page switches: {"name", "data", "file_id"}) and the points made from an upload for the
# sidebar (data.USER_POINTS, a data.Points whose `source` says which file and columns).
UPLOADED = "_upload_kept"


def user_points() -> data.Points | None:
    return st.session_state.get(data.USER_POINTS)


def uploaded_file() -> dict | None:
    """The file the Your data page shows ({"name", "data", "file_id"}), or None."""
    return st.session_state.get(UPLOADED)


def user_points_note() -> str | None:
    """A warning when the Your data page shows another file than the one the sidebar's points come
    from (uploaded but not applied), else None."""
    points, shown = user_points(), uploaded_file()
    if points is None or shown is None or points.source[:1] == (shown["file_id"],):
        return None
    return (f"The Your data page shows {shown['name']}, which is not in use: the points here are still "
            f"{points.file}'s. Press 'Use these points in the app' there to use the new file.")


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
    return max(cluster_count(labels, noise=points.noise), 1)


# ---------------------------------------------------------------------- the selection's state
_STATE = "_selection_state"  # the selection as chosen; survives pages that do not show a control
_SHOWN = "_selection_shown"  # widget key -> the value the sidebar last gave it
_UNCHANGED = object()
_LONGEST_URL_VALUE = 200
_INTEGER = re.compile(r"[0-9]{1,12}")
# The URL's keys, besides the algorithms' parameters (named as in cluval_core.algorithms.clustering).
URL_KEYS = ("dataset", "reference", "ref_algorithm", "ref_k", "ref_seed", "algorithm", "k", "seed", "noise")
PARAMETER_NAMES = frozenset(name for algorithm in ALGORITHMS.values() for name in algorithm.params)


def _default_dataset(options) -> str:
    return "s1" if "s1" in options else "unbalance_like"


def _initial_state(options) -> dict:
    """The selection of a new session; k, ref_k and parameters None or absent: they follow the data."""
    return {"dataset": _default_dataset(options), "reference": None, "ref_algorithm": next(iter(ALGORITHMS)),
            "ref_k": None, "ref_seed": 1, "algorithm": DEFAULT_ALGORITHM, "k": None, "seed": 0, "params": {},
            "noise": DEFAULT_NOISE, "pending": {}}


def _quoted(value) -> str:
    text = str(value)
    return repr(text if len(text) <= 40 else text[:39] + "…")


def _whole(text, low: int, high: int) -> int | None:
    """`text` as a whole number from low to high, or None."""
    if not isinstance(text, str) or not _INTEGER.fullmatch(text):
        return None
    value = int(text)
    return value if low <= value <= high else None


def _state_from_url(query: dict, options, problems: list) -> dict:
    """The selection a link asks for: every value checked, a bad one left at its default.

    Values that need the data to be checked (the reference, k, the parameters) wait in
    ``state["pending"]`` until a page loads the data.
    """
    state = _initial_state(options)
    tokens = {choice.token: choice.key for choice in NOISE_CHOICES}
    for key, raw in query.items():
        if key not in URL_KEYS and key not in PARAMETER_NAMES:
            continue  # not ours (e.g. Streamlit's embed options)
        if len(raw) > _LONGEST_URL_VALUE:
            problems.append(f"{key} (too long)")
            continue
        if key == "dataset":
            if raw in options:
                state["dataset"] = raw
            else:
                problems.append(f"data set {_quoted(raw)}")
        elif key in ("algorithm", "ref_algorithm"):
            if raw in ALGORITHMS:
                state[key] = raw
            else:
                problems.append(f"{key.replace('_', ' ')} {_quoted(raw)}")
        elif key in ("seed", "ref_seed"):
            value = _whole(raw, 0, MAX_SEED)
            if value is None:
                problems.append(f"{key.replace('_', ' ')} {_quoted(raw)} (a whole number from 0 to {MAX_SEED})")
            else:
                state[key] = value
        elif key == "noise":
            if raw in tokens:
                state["noise"] = tokens[raw]
            else:
                problems.append(f"noise {_quoted(raw)} (one of {', '.join(tokens)})")
        else:
            state["pending"][key] = raw
    return state


def _ours(query: dict) -> dict:
    """The sidebar's part of a query: its keys and the algorithms' parameters."""
    return {key: value for key, value in query.items() if key in URL_KEYS or key in PARAMETER_NAMES}


def _history_navigation() -> bool:
    """Whether this run comes from the browser's Back or Forward button (Streamlit says so)."""
    ctx = get_script_run_ctx()
    return bool(getattr(ctx, "is_history_navigation", False))


# The fields of the selection each control sets (and the URL keys waiting for the data to be checked).
_FIELDS = {DATASET: ("dataset",), REFERENCE: ("reference", "ref_algorithm", "ref_k", "ref_seed"),
           CANDIDATE: ("algorithm", "k", "seed", "params"), NOISE: ("noise",)}
_PENDING = {REFERENCE: ("reference", "ref_k"), CANDIDATE: ("k", *sorted(PARAMETER_NAMES))}


def _take_url(state: dict, query: dict, options, problems: list, controls: frozenset) -> None:
    """Back or Forward: the selection of the controls this page shows becomes the one the URL names,
    checked as a link's is (a value missing from the URL is the default); the others keep theirs."""
    linked = _state_from_url(query, options, problems)
    if DATASET in controls and linked["dataset"] != state["dataset"]:
        state.update(k=None, ref_k=None, params={})  # a new data set: k and parameters follow it
    state["pending"] = {}
    for control in controls:
        state.update({field: linked[field] for field in _FIELDS[control]})
        state["pending"].update({key: linked["pending"][key] for key in _PENDING.get(control, ())
                                 if key in linked["pending"]})


def _state(options, problems: list, controls: frozenset) -> dict:
    """This session's selection: from the URL on its first run, then as the user changes it, and
    from the URL again when Back or Forward brings another selection into it."""
    if _STATE not in st.session_state:
        st.session_state[_STATE] = _state_from_url(st.query_params.to_dict(), options, problems)
        st.session_state[_SHOWN] = {}
    elif _LAST_URL in st.session_state and _history_navigation():
        query = st.query_params.to_dict()
        # an entry without the sidebar's keys is a page switch's first step (or a page without
        # controls): it names no selection, and the one the user has stays
        if _ours(query) and _ours(query) != _ours(st.session_state[_LAST_URL][1]):
            _take_url(st.session_state[_STATE], query, options, problems, controls)
    state = st.session_state[_STATE]
    if state["dataset"] not in options:  # e.g. user data whose upload was replaced
        state["dataset"] = _default_dataset(options)
    return state


def _report(problems: list) -> None:
    if problems:
        st.warning(plain("The link's " + "; ".join(problems) + (" was" if len(problems) == 1 else " were")
                         + " not understood: the default is shown instead."))


def _changed(key: str):
    """The value the user (or a page) gave widget `key` since the sidebar last set it, else _UNCHANGED."""
    if key not in st.session_state:
        return _UNCHANGED  # not drawn in the last run: Streamlit forgot it
    value = st.session_state[key]
    shown = st.session_state[_SHOWN]
    return value if key not in shown or shown[key] != value else _UNCHANGED


def _seed(key: str, value) -> None:
    """Show `value` in widget `key` (drawn right after)."""
    st.session_state[key] = value
    st.session_state[_SHOWN][key] = value


def _pending(state: dict, key: str):
    return state["pending"].pop(key, None)


# ---------------------------------------------------------------------- the sidebar's controls
def _take_dataset(state: dict, options: dict) -> None:
    """Take a data set chosen in the sidebar, or set by a page (Your data's "Use these points")."""
    chosen = _changed("dataset")
    if chosen is not _UNCHANGED and chosen in options and chosen != state["dataset"]:
        state.update(dataset=chosen, k=None, ref_k=None, params={})  # a new data set: k and parameters follow it


def _dataset_control(state: dict, options: dict, benchmarks: list) -> None:
    _seed("dataset", state["dataset"])
    st.sidebar.selectbox("Data set", list(options), format_func=options.get, key="dataset")
    if state["dataset"] == USER_DATA and (note := user_points_note()) is not None:
        st.sidebar.warning(plain(note))
    if not benchmarks:
        st.sidebar.info("No benchmark data found, so the synthetic sets are offered. To add S1–S4, Unbalance, "
                        "Aggregate and the others, set `CLUVAL_DATA_DIR` to a folder with the "
                        "clustering-benchmarks files, or run `cluval datasets fetch` with internet access.")


def _clamped(value: int, low: int, high: int) -> int:
    return min(max(value, low), high)


def _number_from_url(state, key: str, low, high, problems: list, what: str, whole: bool = True):
    """A pending URL value for `key` checked against [low, high], or None."""
    raw = _pending(state, key)
    if raw is None:
        return None
    if whole:
        value = _whole(raw, low, high)
    else:
        try:
            value = float(raw) if len(raw) <= 30 else None
        except ValueError:
            value = None
        if value is not None and not (math.isfinite(value) and low <= value <= high):
            value = None
    if value is None:
        problems.append(f"{what} {_quoted(raw)} (from {low:g} to {high:g} here)")
    return value


def _algorithm_state(state: dict, key: str) -> None:
    """Take an algorithm chosen in its box into the selection, then seed the box from it."""
    chosen = _changed(key)
    if chosen is not _UNCHANGED and chosen in ALGORITHMS:
        state[key] = chosen
    _seed(key, state[key])


def _k_state(state: dict, key: str, what: str, largest: int, natural: int, problems: list) -> None:
    """A k from the link or typed in its box goes into the selection (a k set so stays); the box
    then shows it, or `natural` while none was set, within 1..largest."""
    from_url = _number_from_url(state, key, 1, largest, problems, what)
    if from_url is not None:
        state[key] = from_url
    chosen = _changed(key)
    if chosen is not _UNCHANGED:
        state[key] = int(chosen)
    _seed(key, _clamped(state[key] if state[key] is not None else natural, 1, largest))


def _reference_controls(state: dict, points, with_second: bool, problems: list) -> tuple:
    """The reference partition (and the second clustering's settings): (reference, algorithm, k, seed)."""
    names = list(points.partitions)
    raw = _pending(state, "reference")
    if raw is not None:
        if raw in names or raw == SECOND_CLUSTERING:
            state["reference"] = raw
        else:
            problems.append(f"reference {_quoted(raw)}")
    options = names + ([SECOND_CLUSTERING] if with_second else [])
    chosen = _changed("reference")
    if chosen is not _UNCHANGED and chosen in options:
        state["reference"] = chosen
    reference = state["reference"] if state["reference"] in options else options[0]
    _seed("reference", reference)
    st.sidebar.subheader("Reference")
    st.sidebar.selectbox(
        "Reference partition", options, key="reference",
        format_func=lambda r: r if r == SECOND_CLUSTERING else f"ground truth {r} (k={reference_k(points, r)})")
    if reference != SECOND_CLUSTERING:
        for key in ("ref_algorithm", "ref_k", "ref_seed"):
            state["pending"].pop(key, None)  # a link's second clustering without it: nothing to apply
        return reference, "", 0, 0

    _algorithm_state(state, "ref_algorithm")
    algorithm = st.sidebar.selectbox("Reference algorithm", list(ALGORITHMS), format_func=lambda a: ALGORITHMS[a].name,
                                     key="ref_algorithm")
    largest = data.largest_k(points.X)
    natural = reference_k(points, names[0])
    _k_state(state, "ref_k", "reference k", largest, natural, problems)
    ref_k = int(st.sidebar.number_input("Reference k", min_value=1, max_value=largest, key="ref_k",
                                        help=f"Defaults to the number of clusters of {names[0]} ({natural})."))
    chosen = _changed("ref_seed")
    if chosen is not _UNCHANGED:
        state["ref_seed"] = int(chosen)
    _seed("ref_seed", state["ref_seed"])
    deterministic = ALGORITHMS[algorithm].deterministic
    ref_seed = int(st.sidebar.number_input("Reference seed", min_value=0, max_value=MAX_SEED, key="ref_seed",
                                           disabled=deterministic, help=seed_help(algorithm)))
    return reference, algorithm, ref_k, 0 if deterministic else ref_seed


def seed_help(algorithm: str) -> str:
    if ALGORITHMS[algorithm].deterministic:
        return f"{ALGORITHMS[algorithm].name} gives the same result for every seed."
    return "The random start: the same seed gives the same clustering."


def _parameter_control(state: dict, algorithm: str, name: str, X: np.ndarray, k: int, chosen: dict,
                       problems: list):
    """One algorithm parameter, offered within the range the library gives for this data and k.

    It follows the data (its default) until the user sets it; a new data set starts over.
    """
    parameter = ALGORITHMS[algorithm].params[name]
    key = f"param_{algorithm}_{name}"
    by_hand = state["params"].setdefault(algorithm, {})
    if parameter.choices:
        raw = _pending(state, name)
        if raw is not None:
            if raw in parameter.choices:
                by_hand[name] = raw
            else:
                problems.append(f"{name} {_quoted(raw)} (one of {', '.join(parameter.choices)})")
        value = _changed(key)
        if value is not _UNCHANGED and value in parameter.choices:
            by_hand[name] = value
        _seed(key, by_hand.get(name, parameter.default))
        return st.sidebar.selectbox(name, list(parameter.choices), key=key, help=parameter.description)
    bounds = data.control_range(X, algorithm, name, k, tuple(chosen.items()))
    whole = not isinstance(parameter.default, float)
    from_url = _number_from_url(state, name, bounds.low, bounds.high, problems, name, whole)
    if from_url is not None:
        by_hand[name] = from_url
    value = _changed(key)
    if value is not _UNCHANGED:
        by_hand[name] = value
    value = by_hand.get(name, bounds.default)
    value = min(max(value, bounds.low), bounds.high)
    _seed(key, int(value) if whole else float(value))
    help_text = (f"{parameter.description}: {bounds.low:g} to {bounds.high:g} on this data set, so that a run "
                 f"stays within about {INTERACTIVE_BUDGET.seconds:g} s; {bounds.default:g} unless you change it.")
    if whole:
        return int(st.sidebar.number_input(name, min_value=int(bounds.low), max_value=int(bounds.high), step=1,
                                           key=key, help=help_text))
    return float(st.sidebar.number_input(name, min_value=float(bounds.low), max_value=float(bounds.high),
                                         step=float(bounds.step), key=key, help=help_text, format="%.4g"))


def _candidate_controls(state: dict, points, natural_k: int, problems: list) -> tuple:
    """The candidate clustering: (algorithm, k, seed, params)."""
    st.sidebar.subheader("Candidate clustering")
    _algorithm_state(state, "algorithm")
    algorithm = st.sidebar.selectbox("Algorithm", list(ALGORITHMS), format_func=lambda a: ALGORITHMS[a].name,
                                     key="algorithm",
                                     help="\n\n".join(f"**{a.name}**: {a.description}" for a in ALGORITHMS.values()))
    declared = ALGORITHMS[algorithm]
    largest = data.largest_k(points.X)
    _k_state(state, "k", "k", largest, natural_k, problems)  # set by hand: another reference no longer changes it
    k = int(st.sidebar.number_input(
        "k (clusters)", min_value=1, max_value=largest, key="k", disabled=not declared.needs_k,
        help=(f"Follows the reference's number of clusters ({natural_k}) until you change it; another data set "
              f"starts over. At most {largest} here.") if declared.needs_k
        else f"{declared.name} finds the number of clusters itself."))
    seed_value = _number_from_url(state, "seed", 0, MAX_SEED, problems, "seed")
    if seed_value is not None:
        state["seed"] = seed_value
    chosen = _changed("seed")
    if chosen is not _UNCHANGED:
        state["seed"] = int(chosen)
    _seed("seed", state["seed"])
    seed = int(st.sidebar.number_input("Seed", min_value=0, max_value=MAX_SEED, key="seed",
                                       disabled=declared.deterministic, help=seed_help(algorithm)))
    params = {}
    for name in declared.params:
        params[name] = _parameter_control(state, algorithm, name, points.X, k, params, problems)
    for name in PARAMETER_NAMES & set(state["pending"]):
        problems.append(f"{name} {_quoted(state['pending'].pop(name))} (not a parameter of {declared.name})")
    return algorithm, k, seed, params


def _noise_control(state: dict, points) -> str:
    tokens = {choice.key: choice for choice in NOISE_CHOICES}
    chosen = _changed("noise")
    if chosen is not _UNCHANGED and chosen in tokens:
        state["noise"] = chosen
    _seed("noise", state["noise"])
    st.sidebar.subheader("Noise")
    marked = ("This data set marks no noise, so there is nothing to choose." if points.noise is None
              else f"Here noise is the label {plain(repr(points.noise))}.")
    return st.sidebar.selectbox("Points marked as noise", list(tokens), key="noise",
                                format_func=lambda c: tokens[c].label, disabled=points.noise is None,
                                help=f"{marked}  \n{NOISE_HELP}")


_LAST_URL = "_url_last"  # (page, the URL's query as the last run left it)


def remember_url(page: str) -> None:
    """Called when a run of `page` ends (the entrypoint does): the URL as the run left it, the page's
    own keys included, so that the next run knows what the browser's URL should hold."""
    st.session_state[_LAST_URL] = (page, st.query_params.to_dict())


def _write_url(wanted: dict, page: str) -> None:
    """Put the page's selection into the URL (only when it changed: each write reaches the browser).

    Only the sidebar's keys are written. Any other key is a page's own (Build a table keeps its
    table there): it stays while that page is shown, and on a switch to another page the keys
    the previous page left in the URL are removed, so that they do not follow the user. Keys
    bound to a widget (``bind="query-params"``) are Streamlit's: it drops those of another page
    itself. One change of the selection is one entry in the browser's history.
    """
    current = st.query_params.to_dict()
    last_page, last_query = st.session_state.get(_LAST_URL, (page, {}))
    left_behind = set() if last_page == page else {key for key, value in last_query.items()
                                                   if current.get(key) == value}
    wanted = {key: str(value) for key, value in wanted.items()}
    _page_url.change_query((_ours(current).keys() | left_behind) - wanted.keys(), wanted)


def sidebar(controls=ALL_CONTROLS, page: str = "") -> Selection:
    """Draw the sidebar's `controls` for the current `page` and return the selection.

    Called from the entrypoint. Only the data a control needs is loaded: a page without
    controls loads nothing. Hidden controls keep their value for the pages that show them.
    """
    controls = frozenset(controls)
    if controls:
        st.sidebar.title("cluval")
    options = dataset_options()
    problems = []
    state = _state(options, problems, controls)
    _take_dataset(state, options)
    url = {}
    if DATASET in controls:
        benchmarks = [k for k in options if k not in SYNTHETIC_SETS and k != USER_DATA]
        _dataset_control(state, options, benchmarks)
        url["dataset"] = state["dataset"]
    reference, ref_algorithm, ref_k, ref_seed = state["reference"] or "", "", 0, 0
    algorithm, k, seed, params = state["algorithm"], state["k"], state["seed"], {}
    noise = state["noise"]
    if controls & {REFERENCE, CANDIDATE, NOISE}:
        points = current_points(state["dataset"])
        if REFERENCE in controls:
            reference, ref_algorithm, ref_k, ref_seed = _reference_controls(state, points, CANDIDATE in controls,
                                                                            problems)
            url["reference"] = reference
            if reference == SECOND_CLUSTERING:
                url["ref_algorithm"] = ref_algorithm
                if state["ref_k"] is not None:
                    url["ref_k"] = ref_k
                if not ALGORITHMS[ref_algorithm].deterministic:
                    url["ref_seed"] = ref_seed
        if CANDIDATE in controls:
            natural_k = ref_k if reference == SECOND_CLUSTERING else reference_k(points, reference)
            algorithm, k, seed, params = _candidate_controls(state, points, natural_k, problems)
            url["algorithm"] = algorithm
            if ALGORITHMS[algorithm].needs_k and state["k"] is not None:
                url["k"] = k
            if not ALGORITHMS[algorithm].deterministic:
                url["seed"] = seed
            url.update({name: params[name] for name in state["params"].get(algorithm, {}) if name in params})
        if NOISE in controls:
            noise = _noise_control(state, points)
            url["noise"] = next(c.token for c in NOISE_CHOICES if c.key == noise)
    _report(problems)
    _write_url(url, page)
    return Selection(state["dataset"], reference, ref_algorithm, ref_k, ref_seed, algorithm, k, seed,
                     tuple(params.items()), noise, controls)


def selection() -> Selection:
    return st.session_state["selection"]


# ---------------------------------------------------------------------- the partitions
def run_caption(algorithm: str, k: int | None, seed: int, run: dict) -> str:
    """A clustering run in words, for a caption: what ran, with which settings, and what it gave.

    The seed is left out for deterministic algorithms; the SSE where the run left points
    as noise (their errors are not counted), which are counted instead:
    ``"k-means++ (best of n_init), k=15, n_init=10, max_iter=300, seed 0, 0.31 s, SSE 8.91e+12"``.
    """
    declared = ALGORITHMS[algorithm]
    parts = [declared.name] + ([f"k={k}"] if declared.needs_k else [])
    parts += [f"{name}={run['params'][name]:g}" if isinstance(run["params"][name], float)
              else f"{name}={run['params'][name]}" for name in declared.params if name in run["params"]]
    if not declared.deterministic:
        parts.append(f"seed {seed}")
    parts.append(f"{run['seconds']:.2f} s")
    reported = {name: value for name, value in run["params"].items() if name not in declared.params}
    if "noise points" not in reported:
        parts.append(f"SSE {run['objective']:.3g}")
    parts += [f"{value:,} {name}" for name, value in reported.items()]
    return ", ".join(parts)


@dataclass(frozen=True)
class Partitions:
    """The selected data set, its reference and the candidate clustering.

    ``candidate_caption`` describes the candidate's run (see :func:`run_caption`).
    """

    points: data.Points
    reference: np.ndarray
    reference_name: str
    candidate: np.ndarray
    candidate_name: str
    candidate_run: dict
    candidate_caption: str = ""


def _is_number(value) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def marked_as(labels: np.ndarray, noise) -> np.ndarray:
    """Clustering labels (1..k, 0 for noise) with noise marked `noise`, the data set's noise label.

    None leaves 0 an ordinary label. Clusters move aside where a number would equal the noise
    label (label 3 marks noise: clusters 3, 4, ... become 4, 5, ...).
    """
    if noise is None or (_is_number(noise) and noise == 0):
        return labels
    if _is_number(noise):
        if noise >= 1 and float(noise).is_integer():
            labels_kept = np.where(labels >= noise, labels + 1, labels)
        else:
            labels_kept = labels
        return np.where(labels == 0, noise, labels_kept)
    out = labels.astype(object)
    out[labels == 0] = noise
    return out


def partitions(sel: Selection | None = None) -> Partitions:
    """The selected data set, its reference and the candidate clustering (all cached)."""
    sel = sel or selection()
    points = current_points(sel.dataset)
    with guarded("Clustering"):
        if sel.reference == SECOND_CLUSTERING:
            ref_run = data.clustering_with_spinner(points.X, sel.ref_algorithm, sel.ref_k, sel.ref_seed,
                                                   data.default_params(points.X, sel.ref_algorithm, sel.ref_k))
            reference = marked_as(ref_run["labels"], points.noise)
            declared = ALGORITHMS[sel.ref_algorithm]
            ref_name = declared.name + (f", k={sel.ref_k}" if declared.needs_k else "") + \
                ("" if declared.deterministic else f", seed {sel.ref_seed}")
        else:
            reference, ref_name = points.partitions[sel.reference], f"ground truth ({sel.reference})"
        seed = 0 if ALGORITHMS[sel.algorithm].deterministic else sel.seed  # one cache entry for every seed
        run = data.clustering_with_spinner(points.X, sel.algorithm, sel.k, seed, sel.params)
    name = ALGORITHMS[sel.algorithm].name + (f", k={sel.k}" if ALGORITHMS[sel.algorithm].needs_k else "")
    return Partitions(points, reference, ref_name, marked_as(run["labels"], points.noise), name, run,
                      run_caption(sel.algorithm, sel.k, sel.seed, run))


NO_BREAK_HYPHEN, NO_BREAK_SPACE = "\u2011", "\u00a0"


def other_tools(rows, more: str = "") -> None:
    """A measure in the peer tools (a frame of the peer map: tool, call, value, note): a table of the tools
    that have it (or say how to get it), the rest named; `more` follows the heading."""
    said = (rows["call"] != "") | (rows["note"] != "")
    missing = rows.loc[~said, "tool"].tolist()
    missing_text = f"Not in {', '.join(missing)}." if missing else ""
    st.markdown(" ".join(part for part in ("**In other tools.**", missing_text, more) if part))
    if said.any():
        shown = rows[said]
        st.table({  # short cells do not wrap: a non-breaking hyphen and space
            "Tool": [name.replace("-", NO_BREAK_HYPHEN).replace(" ", NO_BREAK_SPACE) for name in shown["tool"]],
            "Call": [f"`{call}`" if call else "—" for call in shown["call"]],
            "Value": [value.replace(" ", NO_BREAK_SPACE) for value in shown["value"]],
            "Difference in convention": shown["note"].tolist(),
        }, hide_index=True)
