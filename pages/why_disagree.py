"""Why indices disagree: the PSI paper's synthetic experiments, live."""

import streamlit as st

from cluval_core import INDICES
from cluval_core.plots import index_curves
from cluval_core.synthetic import SCENARIOS
from cluval_core import experiments
from pages import _cache as data
from pages import _shared as ui

ui.require_frame("pages/why_disagree.py")


@st.cache_data(show_spinner="Computing every index along the scenario…", max_entries=32)
def scenario_curve(key: str, seed: int = 0):
    return experiments.scenario_curve(key, seed=seed)


@st.cache_data(show_spinner=False, max_entries=64)
def scenario_pair(key: str, value, seed: int = 0):
    return SCENARIOS[key].make(value, seed)[:2]



st.title("Why indices disagree")
st.caption("The synthetic experiments of Rezaei & Fränti (2016), section 7: the reference G has three clusters "
           "of 1000 objects (unless the scenario says otherwise) and the candidate P changes along one parameter.")

left, right = st.columns([1, 2])
with left:
    key = st.selectbox("Scenario", list(SCENARIOS), format_func=lambda k: SCENARIOS[k].title, key="scenario")
    scenario = SCENARIOS[key]
    st.info(scenario.explanation)
    choices = [i for i, info in INDICES.items() if not info.needs_data]
    ids = st.multiselect("Indices", choices, default=["ari", "nmi_sum", "nvd", "psi", "purity", "ch_greedy"],
                         format_func=lambda i: INDICES[i].name, key="scenario_indices")
    value = st.select_slider(scenario.parameter, options=list(scenario.values), value=scenario.default,
                             key=f"scenario_value_{key}")
if not ids:
    st.warning("Choose at least one index to draw.")
    st.stop()

curve = scenario_curve(key)
with right:
    st.plotly_chart(index_curves(curve, scenario.parameter, ids, current=value,
                                 names={i: INDICES[i].name for i in ids}), key="scenario_curves")
    st.caption("Distances (NVD, CH, VI, ...) are drawn as they are: lower is better for them.")

labels_true, labels_pred = scenario_pair(key, value)
model = data.comparison(labels_true, labels_pred)
st.subheader(f"At {scenario.parameter} = {value}")
left, right = st.columns([3, 2])
with left:
    st.plotly_chart(data.figure(model, "contingency_heatmap"), key="scenario_table")
with right:
    st.dataframe(model.comparison.hungarian_pairing.display_frame(), hide_index=True, key="scenario_pairing")
    st.markdown(model.comparison.psi_steps.formula)
    current = curve[curve[scenario.parameter] == value]
    st.dataframe(current[[scenario.parameter, *ids]].rename(columns={i: INDICES[i].name for i in ids}),
                 hide_index=True, key="scenario_values")
st.download_button("Curves (CSV)", curve.to_csv(index=False), f"cluval_{key}.csv", "text/csv",
                   key="download_scenario")
