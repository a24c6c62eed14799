"""The app's frame under AppTest: each page's sidebar controls, the selection kept across pages and
in the URL, k set by hand, the seed of deterministic algorithms, the noise policy's names."""

from __future__ import annotations

import re

import numpy as np
import pytest

from apptools import open_app as _app
from cluval_core.algorithms.clustering import ALGORITHMS, MAX_SEED
from cluval_core.core.noise import NOISE_POLICIES
from pages import _shared as ui

pytestmark = pytest.mark.slow

COMPARE, SOFT = "compare.py", "soft.py"
# Pages without sidebar controls that run in a second or two (PSI vs ARI and Reproduce the papers take
# longer; tests/test_browser_frame.py visits them).
NO_CONTROLS = ["why_disagree.py", "build_table.py", "your_data.py", "index_reference.py"]
CANDIDATE_KEYS = {"algorithm", "k", "seed"}


def _sidebar_keys(at) -> set:
    widgets = [*at.sidebar.selectbox, *at.sidebar.number_input]
    return {w.key for w in widgets if w.key}


def _selection(at) -> ui.Selection:
    return at.session_state["selection"]


def _forget_hidden_widgets(at, keys):
    """What the browser does after a run that does not draw them (AppTest keeps them)."""
    for key in keys:
        if key in at.session_state:
            del at.session_state[key]


# ---------------------------------------------------------------------- controls per page
def test_each_page_shows_only_the_controls_it_uses():
    at = _app(COMPARE, dataset="aggregation")
    assert _sidebar_keys(at) >= {"dataset", "reference", "noise", *CANDIDATE_KEYS}
    at.switch_page(SOFT).run()
    assert _sidebar_keys(at) == {"dataset", "reference"}
    assert ui.SECOND_CLUSTERING not in at.selectbox(key="reference").options  # the soft page has no use for it
    for page in NO_CONTROLS:
        at.switch_page(page).run()
        assert not at.exception, page
        assert _sidebar_keys(at) == set(), page


@pytest.mark.parametrize("page", NO_CONTROLS)
def test_a_page_without_controls_loads_and_clusters_nothing(monkeypatch, page):
    import pages._cache

    calls = []
    for name in ("load_points", "run_clustering"):
        original = getattr(pages._cache, name)
        monkeypatch.setattr(pages._cache, name,
                            lambda *args, _name=name, _original=original, **kwargs:
                            calls.append(_name) or _original(*args, **kwargs))
    at = _app(page, dataset="aggregation", algorithm="ward", k="3")
    assert calls == [] and not at.error
    at.switch_page(SOFT).run()
    assert "load_points" in calls and "run_clustering" in calls  # the counting works


@pytest.mark.data
def test_values_chosen_on_compare_survive_pages_that_hide_them():
    at = _app(COMPARE)
    at.selectbox(key="dataset").set_value("r15").run()
    at.selectbox(key="reference").set_value("labels1").run()
    at.selectbox(key="algorithm").set_value("kmeans").run()
    at.number_input(key="k").set_value(5).run()
    at.number_input(key="seed").set_value(7).run()
    at.selectbox(key="noise").set_value("noise points as singletons").run()
    chosen = _selection(at)
    for page in (*NO_CONTROLS, SOFT):
        at.switch_page(page).run()
        # the browser forgets widgets a run does not draw; AppTest does not, so forget them here
        _forget_hidden_widgets(at, {"algorithm", "k", "seed", "noise"} | ({"dataset", "reference"}
                                                                         if page != SOFT else set()))
    at.switch_page(COMPARE).run()
    assert not at.exception
    assert _selection(at) == chosen
    assert (at.selectbox(key="dataset").value, at.selectbox(key="reference").value, at.number_input(key="k").value,
            at.number_input(key="seed").value) == ("r15", "labels1", 5, 7)
    assert at.selectbox(key="noise").value == "noise points as singletons"


def test_a_second_clustering_chosen_on_compare_survives_the_soft_page():
    at = _app(COMPARE, dataset="r15")
    at.selectbox(key="reference").set_value(ui.SECOND_CLUSTERING).run()
    at.switch_page(SOFT).run()
    assert _selection(at).reference == "labels0"  # the soft page compares with ground truth
    at.switch_page(COMPARE).run()
    assert _selection(at).reference == ui.SECOND_CLUSTERING


# ---------------------------------------------------------------------- k and the reference
@pytest.mark.data
def test_k_follows_the_reference_until_set_by_hand():
    at = _app(COMPARE, dataset="r15")
    assert at.number_input(key="k").value == 15
    at.selectbox(key="reference").set_value("labels1").run()
    assert at.number_input(key="k").value == 9  # not set by hand: follows
    at.number_input(key="k").set_value(4).run()
    at.selectbox(key="reference").set_value("labels2").run()
    assert at.number_input(key="k").value == 4  # set by hand: kept
    assert _selection(at).k == 4 and at.query_params["k"] == "4"
    at.selectbox(key="dataset").set_value("aggregation").run()
    assert at.number_input(key="k").value == 7  # another data set starts over
    assert "k" not in at.query_params


def test_k_follows_the_second_clusterings_k_until_set_by_hand():
    at = _app(COMPARE, dataset="r15", reference=ui.SECOND_CLUSTERING)
    at.number_input(key="ref_k").set_value(6).run()
    assert at.number_input(key="k").value == 6
    at.number_input(key="k").set_value(3).run()
    at.number_input(key="ref_k").set_value(8).run()
    assert at.number_input(key="k").value == 3


# ---------------------------------------------------------------------- seeds, captions, noise
@pytest.mark.parametrize("algorithm", list(ALGORITHMS))
def test_the_seed_is_disabled_exactly_for_deterministic_algorithms(algorithm):
    quick = {"iterations": "50"} if algorithm == "random_swap" else {}
    at = _app(COMPARE, dataset="iris", algorithm=algorithm, **quick)
    assert at.selectbox(key="algorithm").value == algorithm
    assert at.number_input(key="seed").disabled == ALGORITHMS[algorithm].deterministic
    assert ("seed" in at.query_params) != ALGORITHMS[algorithm].deterministic


def test_run_caption_names_the_run_without_meaningless_parts():
    run = {"params": {"n_init": 10, "max_iter": 300}, "seconds": 0.314, "objective": 8.91e12}
    assert ui.run_caption("kmeans++", 15, 0, run) == \
        "k-means++ (best of n_init), k=15, n_init=10, max_iter=300, seed 0, 0.31 s, SSE 8.91e+12"
    ward = {"params": {}, "seconds": 1.0, "objective": 5.0}
    assert ui.run_caption("ward", 3, 9, ward) == "Agglomerative, Ward, k=3, 1.00 s, SSE 5"
    swap = {"params": {"iterations": 100_000, "accepted swaps": 321}, "seconds": 12.0, "objective": 2.5e10}
    assert ui.run_caption("random_swap", 15, 4, swap) == \
        "Random swap, k=15, iterations=100000, seed 4, 12.00 s, SSE 2.5e+10, 321 accepted swaps"
    dbscan = {"params": {"eps": 0.3, "min_samples": 5, "noise points": 1234}, "seconds": 0.05, "objective": 1.0}
    assert ui.run_caption("dbscan", 3, 0, dbscan) == "DBSCAN, eps=0.3, min_samples=5, 0.05 s, 1,234 noise points"


def test_a_deterministic_algorithm_is_run_once_whatever_the_seed(monkeypatch):
    import pages._cache

    seeds = []
    original = pages._cache.run_clustering
    def recording(X, algorithm, k, seed, *args):
        seeds.append(seed)
        return original(X, algorithm, k, seed, *args)

    monkeypatch.setattr(pages._cache, "run_clustering", recording)
    at = _app(COMPARE, dataset="aggregation", algorithm="ward", seed="5")
    assert _selection(at).seed == 5 and seeds == [0]


def test_noise_choices_are_one_per_policy_and_read_plainly():
    assert [c.policy for c in ui.NOISE_CHOICES] == [None, *NOISE_POLICIES]
    assert ui.NOISE_OPTIONS == {c.key: c.policy for c in ui.NOISE_CHOICES}
    at = _app(COMPARE, dataset="aggregation")
    box = at.selectbox(key="noise")
    assert box.label == "Points marked as noise"
    assert box.options == [c.label for c in ui.NOISE_CHOICES]
    assert "label 0" in box.help and "ELKI" in box.help


@pytest.mark.parametrize("noise, expected", [
    (None, [0, 1, 2, 3]),        # no noise label: 0 is a cluster like any other
    (0, [0, 1, 2, 3]),
    (-1, [-1, 1, 2, 3]),
    (2, [2, 1, 3, 4]),           # clusters step aside from the noise label
    (2.5, [2.5, 1, 2, 3]),
    ("noise", ["noise", 1, 2, 3]),
])
def test_candidate_noise_is_marked_with_the_data_sets_noise_label(noise, expected):
    marked = ui.marked_as(np.array([0, 1, 2, 3]), noise)
    assert marked.tolist() == expected
    assert len(set(marked.tolist())) == 4


# ---------------------------------------------------------------------- the URL
@pytest.mark.data
def test_the_url_holds_the_selection_and_a_link_reproduces_it():
    at = _app(COMPARE)
    at.selectbox(key="dataset").set_value("r15").run()
    at.selectbox(key="algorithm").set_value("dbscan").run()
    at.number_input(key="param_dbscan_min_samples").set_value(7).run()
    at.selectbox(key="noise").set_value("drop reference noise").run()
    query = dict(at.query_params)
    assert query == {"dataset": "r15", "reference": "labels0", "algorithm": "dbscan", "min_samples": "7",
                     "noise": "drop_reference_noise"}
    again = _app(COMPARE, **query)
    assert _selection(again) == _selection(at)
    assert dict(again.query_params) == query
    assert not [w for w in again.warning if "link" in w.value]


@pytest.mark.data
def test_the_url_of_a_page_holds_the_controls_it_shows():
    at = _app(SOFT, dataset="r15", reference="labels2", algorithm="ward", k="3")
    assert dict(at.query_params) == {"dataset": "r15", "reference": "labels2"}
    at.switch_page("index_reference.py").run()
    assert dict(at.query_params) == {}
    at.switch_page(COMPARE).run()  # the link's candidate waited for the page that shows it
    assert (_selection(at).algorithm, _selection(at).k, _selection(at).reference) == ("ward", 3, "labels2")


# Links with bad values (and the words the warning names them by); the other values are good.
BAD_LINKS = [
    ({"dataset": "../../etc/passwd", "algorithm": "__import__('os')", "seed": "0x10", "noise": "everything",
      "max_iter": "9" * 300}, ["data set", "algorithm", "seed", "noise", "max_iter"]),
    ({"dataset": "iris", "reference": "<img src=x onerror=alert(1)>", "k": "-3", "n_init": "0", "eps": "0.5"},
     ["reference", "k", "n_init", "eps"]),
    ({"dataset": "iris", "algorithm": "gmm", "k": "1e9", "seed": str(MAX_SEED + 1), "covariance": "round"},
     ["k", "seed", "covariance"]),
    ({"dataset": "iris", "algorithm": "dbscan", "ref_seed": "x", "eps": "nan"}, ["ref seed", "eps"]),
]


@pytest.mark.parametrize("query, bad", BAD_LINKS)
def test_bad_link_values_fall_back_to_their_defaults_with_a_warning(query, bad):
    at = _app(COMPARE, **query)
    assert not at.exception and not at.error
    warnings = [w.value for w in at.warning if "not understood" in w.value]
    assert len(warnings) == 1
    for words in bad:
        assert ui.plain(words) in warnings[0], (words, warnings[0])
    assert not re.search(r"(?<!\\)<img", warnings[0])  # shown as plain text
    good = {key: value for key, value in query.items() if key in ("dataset", "algorithm") and value.isalpha()}
    assert _selection(at) == _selection(_app(COMPARE, **good))  # the defaults, where a value was bad


@pytest.mark.data
def test_a_good_link_sets_every_control():
    at = _app(COMPARE, dataset="r15", reference=ui.SECOND_CLUSTERING, ref_algorithm="average", ref_k="5",
              algorithm="gmm", k="6", seed="3", covariance="diag", n_init="2", max_iter="50",
              noise="singletons")
    assert not [w for w in at.warning if "link" in w.value]
    sel = _selection(at)
    assert (sel.dataset, sel.reference, sel.ref_algorithm, sel.ref_k, sel.ref_seed) == \
        ("r15", ui.SECOND_CLUSTERING, "average", 5, 0)
    assert (sel.algorithm, sel.k, sel.seed, dict(sel.params)) == \
        ("gmm", 6, 3, {"covariance": "diag", "n_init": 2, "max_iter": 50})
    assert sel.noise == "noise points as singletons"


def test_a_data_set_set_by_a_page_is_taken_up(tmp_path):
    # Your data's "Use these points" sets the data set while the sidebar hides it
    import pages._cache

    rng = np.random.default_rng(0)
    X = np.r_[rng.normal(0, 1, (40, 2)), rng.normal(8, 1, (40, 2))]
    labels = np.repeat([1, 2], 40)
    points = pages._cache.Points(ui.USER_DATA, "your data (two.csv)", X, {"labels0": labels}, "80 points", "upload",
                                 noise=None)
    at = _app("index_reference.py")
    at.session_state["user_points"] = points
    at.session_state["dataset"] = ui.USER_DATA
    at.run()
    at.switch_page(COMPARE).run()
    assert not at.exception
    assert _selection(at).dataset == ui.USER_DATA and at.number_input(key="k").value == 2
    assert at.selectbox(key="noise").disabled  # this upload marks no noise
    assert at.query_params["dataset"] == ui.USER_DATA
