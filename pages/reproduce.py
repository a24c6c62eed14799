"""Reproduce the papers: computed values next to the published ones, with a verdict per claim."""

import streamlit as st

from cluval_core.experiments import EXPERIMENTS
from cluval_core import experiments
from pages import _cache as data
from pages import _shared as ui

ui.require_frame("pages/reproduce.py")


NEEDS_BENCHMARKS = {"unbalance_table6": ["unbalance"], "yeast_table7": ["yeast"], "stability_fig25": ["unbalance"],
                    "centroid_index_paper": ["s1", "s2", "s3", "s4", "unbalance", "birch2", "compound", "aggregation"],
                    "lei_soft": ["iris", "wine"]}


@st.cache_data(show_spinner=False, max_entries=16)
def _experiment_result(name: str):
    with data.progress_bar("Running the experiment…") as progress:
        return experiments.run_experiment(name, progress=progress)


def experiment_result(name: str):
    """Run an experiment's reduced form once (cached), with a progress bar."""
    with ui.guarded(f"Experiment {name}"):
        return _experiment_result(name)



st.title("Reproduce the papers")
st.markdown("Each experiment recomputes a table or figure of the seed papers and checks the claims the text "
            "makes. A row that **differs** stays in the table, with the likely reason. The app runs the reduced "
            "form (seconds to a minute); `cluval experiments run NAME --full` runs the paper's full settings.")

name = st.selectbox("Experiment", list(EXPERIMENTS), format_func=lambda n: EXPERIMENTS[n].title, key="experiment")
experiment = EXPERIMENTS[name]
st.caption(f"{experiment.source}. {experiment.description} Reduced form: {experiment.reduced}; the full run takes "
           f"about {max(experiment.full_seconds / 60, 0.1):.1f} min on 2 cores.")

if name in NEEDS_BENCHMARKS and not set(NEEDS_BENCHMARKS[name]) <= set(data.available_benchmarks()):
    missing = sorted(set(NEEDS_BENCHMARKS[name]) - set(data.available_benchmarks()))
    st.warning(f"This experiment needs the benchmark set(s) {', '.join(missing)}, which are not available here. "
               "Set `CLUVAL_DATA_DIR` or run `cluval datasets fetch " + " ".join(missing) + "`.")
    st.stop()

result = experiment_result(name)
checks = result.checks
within = int((checks["verdict"] == "within tolerance").sum())
left, right = st.columns([1, 3])
left.metric("Claims within tolerance", f"{within} / {len(checks)}")
with right:
    for note in result.notes:
        st.caption(note)
st.dataframe(checks, hide_index=True, key="experiment_checks",
             column_config={"verdict": st.column_config.TextColumn("verdict"),
                            "why": st.column_config.TextColumn("likely reason when it differs", width="large")})
st.plotly_chart(result.figure, key="experiment_figure")
with st.expander("Computed values (with the published ones where the paper prints them)"):
    st.dataframe(result.values, hide_index=True, key="experiment_values")
cols = st.columns(2)
cols[0].download_button("Values (CSV)", result.values.to_csv(index=False), f"{name}.csv", "text/csv",
                        key="download_values")
cols[1].download_button("Checks (CSV)", checks.to_csv(index=False), f"{name}_checks.csv", "text/csv",
                        key="download_checks")
