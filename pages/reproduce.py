"""Reproduce the papers: computed values next to the published ones, with a verdict per claim."""

import streamlit as st

from cluval_core import experiments
from cluval_core.data import datasets as ds
from cluval_core.experiments import DIFFERS, EXPERIMENTS, WITHIN
from cluval_core.outputs.export import csv_with_provenance, provenance
from cluval_core.outputs.plots import index_label
from pages import _cache as data
from pages import _shared as ui

DIFFERS_STYLE = "color: #b3261e; font-weight: 600"


@st.cache_data(show_spinner=False, max_entries=16)
def _experiment_result(name: str):
    with data.progress_bar("Running the experiment…") as progress:
        return experiments.run_experiment(name, progress=progress)


def experiment_result(name: str):
    """Run an experiment's reduced form once (cached), with a progress bar."""
    with ui.guarded(f"Experiment {name}"):
        return _experiment_result(name)


def dataset_titles(names, *, keys: bool = True) -> str:
    """The data sets' titles, each with the name that `cluval datasets fetch` takes."""
    titles = ds.catalogue()["datasets"]
    return ", ".join(f"{titles[n]['title']} (`{n}`)" if keys else titles[n]["title"] for n in names)


def checks_table(checks):
    """The claims, every column wrapped so that the likely reason reads in full; 'differs' in red."""
    styled = checks.style.map(lambda v: DIFFERS_STYLE if v == DIFFERS else "", subset=["verdict"])
    st.table(styled.hide(axis="index"), hide_index=True)


st.title("Reproduce the papers")
st.markdown("Each experiment recomputes a table or figure of the seed papers and checks the claims the text "
            "makes. A row that **differs** stays in the table, with the likely reason. The app runs the reduced "
            "form (seconds to a minute); `cluval experiments run NAME --full` runs the paper's full settings.")

name = st.selectbox("Experiment", list(EXPERIMENTS), format_func=lambda n: EXPERIMENTS[n].title, key="experiment")
experiment = EXPERIMENTS[name]
needs = f" Data: {dataset_titles(experiment.datasets, keys=False)}." if experiment.datasets else ""
st.caption(f"{experiment.source}. {experiment.description} Reduced form: {experiment.reduced}; the full run takes "
           f"about {max(experiment.full_seconds / 60, 0.1):.1f} min on 2 cores.{needs}")

missing = experiment.missing_datasets(data.available_benchmarks())
if missing:
    st.warning(f"This experiment needs the benchmark data {dataset_titles(missing)}, which "
               f"{'is' if len(missing) == 1 else 'are'} not available here. Either set `CLUVAL_DATA_DIR` to a "
               "folder holding the clustering-benchmarks files, or run "
               f"`{experiment.fetch_command(missing)}` with internet access; then restart the app.")
    st.stop()

result = experiment_result(name)
checks = result.checks
within = int((checks["verdict"] == WITHIN).sum())
left, right = st.columns([1, 3])
left.metric("Claims within tolerance", f"{within} / {len(checks)}")
with right:
    for note in result.notes:
        st.caption(note)
checks_table(checks)
st.plotly_chart(result.figure, key="experiment_figure")
with st.expander("Computed values (with the published ones where the paper prints them)"):
    st.dataframe(result.values.rename(columns=index_label), hide_index=True, key="experiment_values")
facts = provenance(**experiment.facts())  # what experiment, which paper and table or figure, data, version, date
cols = st.columns(2)
cols[0].download_button("Values (CSV)", csv_with_provenance(result.values, facts, index=False), f"{name}.csv",
                        "text/csv", key="download_values")
cols[1].download_button("Checks (CSV)", csv_with_provenance(checks, facts, index=False), f"{name}_checks.csv",
                        "text/csv", key="download_checks")
st.caption("Each file starts with `# key: value` lines saying where it comes from; "
           "`pandas.read_csv(path, comment=\"#\")` skips them.")
