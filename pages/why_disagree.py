"""Why indices disagree: the PSI paper's synthetic experiments, live."""

import pandas as pd
import streamlit as st

from cluval_core import INDICES, experiments
from cluval_core.core.random_models import MODELS
from cluval_core.data.synthetic import SCENARIOS
from cluval_core.outputs.export import format_value
from cluval_core.outputs.plots import curves
from pages import _cache as data
from pages import _charts as charts
from pages import _page_url
from pages import _shared as ui
from pages import _views as views


@st.cache_data(show_spinner="Computing every index along the scenario…", max_entries=32)
def scenario_curve(key: str, seed: int = 0):
    return experiments.scenario_curve(key, seed=seed)


@st.cache_data(show_spinner=False, max_entries=256)
def chance_band(key: str, index_id: str, model: str = "perm"):
    """One index's expected value and SD by chance along the scenario (few random tables, fixed seed)."""
    with data.progress_bar(f"Chance band of {INDICES[index_id].name}:") as progress:
        return experiments.scenario_chance(key, [index_id], n_samples=data.BAND_SAMPLES, seed=data.CHANCE_SEED,
                                           progress=progress, model=model)


@st.cache_data(show_spinner=False, max_entries=64)
def scenario_pair(key: str, value, seed: int = 0):
    return SCENARIOS[key].pair(value, seed, first_label=1)  # clusters numbered from 1, as everywhere in the app


def slider_key(scenario: str) -> str:
    """The key of a scenario's slider, also its name in the URL: ``imbalance_at``."""
    return f"{scenario}_at"


DEFAULT_SCENARIO = next(iter(SCENARIOS))
URL_KEYS = ("scenario", *(slider_key(key) for key in SCENARIOS), "scenario_bands",
            "scenario_model")  # the page's own keys in the URL


# The two blocks below the curves sit side by side on a wide screen; on a narrower one a block
# that would fall below its minimum width moves to the next line, so no table hides a column.
DETAILS_LAYOUT = """<style>
.st-key-scenario_details [data-testid="stHorizontalBlock"] { flex-wrap: wrap; }
.st-key-scenario_details [data-testid="stColumn"] { min-width: 360px; }
.st-key-scenario_details [data-testid="stColumn"]:has(.st-key-scenario_pairing_block) { min-width: 500px; }
</style>"""

# Every chosen index stays in sight: the picker grows with its chips instead of scrolling them away.
PICKER_LAYOUT = """<style>
.st-key-scenario_indices div { max-height: none !important; }
</style>"""

st.title("Why indices disagree")
st.caption("The synthetic experiments of Rezaei & Fränti (2016), section 7: the reference G has three clusters "
           "of 1000 objects (unless the scenario says otherwise) and the candidate P changes along one parameter.")

with ui.guarded("Drawing the scenario"):
    left, right = st.columns([2, 3], gap="medium")
    with left:
        # Both in the URL (?scenario=imbalance&imbalance_at=50): a link or a reload shows the same view and
        # the browser's Back undoes a change. Each scenario's slider has its own key.
        _page_url.take("scenario", SCENARIOS, DEFAULT_SCENARIO)
        key = st.selectbox("Scenario", list(SCENARIOS), format_func=lambda k: SCENARIOS[k].title, key="scenario")
        scenario = SCENARIOS[key]
        st.info(scenario.explanation)
        _page_url.take(slider_key(key), scenario.values, scenario.default)
        value = st.select_slider(scenario.parameter, options=list(scenario.values), key=slider_key(key))
    with right:
        choices = [i for i, info in INDICES.items() if not info.needs_data]
        st.html(PICKER_LAYOUT)
        ids = st.multiselect("Indices", choices, default=["ari", "nmi_sum", "nvd", "psi", "purity", "ch_greedy"],
                             format_func=lambda i: INDICES[i].name, key="scenario_indices", wrap=True)
        _page_url.take("scenario_bands", (True, False), False)
        with_bands = st.toggle("Chance bands", key="scenario_bands",
                               help="Behind each line, the values it would take by chance: expected value ± 2 SD "
                                    "when partitions are drawn at random under the chosen model (by default the "
                                    "same cluster sizes filled at random). Takes a few seconds per index.")
        random_model = "perm"
        if with_bands:
            _page_url.take("scenario_model", views.APP_MODELS, "perm")
            random_model = views.random_model_choice(key="scenario_model")
    _page_url.write({"scenario": key, slider_key(key): value, "scenario_bands": with_bands,
                     "scenario_model": random_model},
                    {"scenario": DEFAULT_SCENARIO, slider_key(key): scenario.default, "scenario_bands": False,
                     "scenario_model": "perm"}, URL_KEYS)
    if not ids:
        st.warning("Choose at least one index to draw.")
        st.stop()

    curve = scenario_curve(key)
    with left:
        st.markdown(f"**Values at {ui.plain(scenario.parameter)} = {value}**")
        current = curve[curve[scenario.parameter] == value].iloc[0]
        shown = [{"index": INDICES[i].name, "value": format_value(i, current[i])} for i in ids]
        st.table(shown, hide_index=True, border="horizontal")  # a static table wraps long names: nothing to scroll
        st.caption("As computed: distances are shown as distances here.")
    with right:
        bands = pd.concat([chance_band(key, i, random_model) for i in ids]) if with_bands else None
        charts.chart(curves.index_curves(curve, scenario.parameter, ids, current=value, as_similarity=True,
                                         bands=bands), key="scenario_curves")
        if with_bands:
            drawn = ("both partitions keep their cluster sizes and objects are assigned at random (the permutation "
                     "model" if random_model == "perm" else f"partitions are drawn at random ({MODELS[random_model]}")
            st.caption(f"Shaded: each index's chance band, its expected value ± 2 SD when {drawn}; "
                       f"{data.BAND_SAMPLES} random {'tables' if random_model == 'perm' else 'draws'} per point, seed "
                       f"{data.CHANCE_SEED}). A line inside its "
                       "band is no better than chance; a band that moves with the parameter is an index whose "
                       "baseline drifts (with K, with cluster sizes) even when nothing is found.")
        turned = [i for i in ids if curves.drawn_as_similarity(i)]
        if turned:
            st.caption("Distances in [0, 1] are drawn as 1 − distance, so that up is better for every line: "
                       + "; ".join(f"{INDICES[i].name} shown as {curves.curve_name(i, True)}" for i in turned) + ".")
        if any(curves.panel_of(i, True) != "similarity" for i in ids):
            st.caption("Indices without an upper bound (MI, VI, CI) have their own axis, below.")

    labels_true, labels_pred = scenario_pair(key, value)
    model = data.comparison(labels_true, labels_pred)
    st.subheader(f"At {scenario.parameter} = {value}")
    st.html(DETAILS_LAYOUT)
    with st.container(key="scenario_details"):
        table, pairing = st.columns([4, 5], gap="medium")
    with table:
        st.markdown("**Contingency table** (clusters numbered from 1)")
        charts.chart(data.figure(model, "contingency_heatmap"), key="scenario_table")
    with pairing, st.container(key="scenario_pairing_block"):
        st.markdown("**Hungarian pairing** (PSI pairs clusters on Braun–Banquet similarity)")
        pairs = model.comparison.hungarian_pairing.display_frame()
        st.dataframe(pairs, hide_index=True, key="scenario_pairing", height=views.table_height(len(pairs)),
                     column_config=views.numbered_pairing_columns())
        st.markdown("**Pair Sets Index**  \n"
                    + "  \n".join(ui.plain(str(step)) for step in model.comparison.steps("psi")))
    st.download_button("Curves (CSV)", curve.to_csv(index=False), f"cluval_{key}.csv", "text/csv",
                       key="download_scenario")
