"""Against a second candidate: is the sidebar's candidate really closer to the reference than
another clustering of the same points? The paired comparison (``cluval_core.compare_paired``)
drawn on the Compare page: the choices of the second clustering and the indices, a sentence per
index, the strips of the differences and the table."""

from __future__ import annotations

import streamlit as st

from cluval_core import INDICES
from cluval_core.algorithms.clustering import ALGORITHMS, MAX_SEED
from cluval_core.core.paired import NULL
from cluval_core.outputs import plots
from pages import _cache as data
from pages import _charts as charts
from pages import _shared as ui

SAMPLES = (200, 1000)
DEFAULT_IDS = ("ari", "ami", "psi", "nvd")
COLUMNS = {  # what decides first, so that it shows in a narrow column; the two values after
    "difference": st.column_config.NumberColumn("A − B", format="%.4g", width="small"),
    "p": st.column_config.NumberColumn(
        "p", format="%.3g", width="small", help="Two-sided: the share of random swaps of the two candidates' labels "
                                                "giving a difference at least as large"),
    "closer": st.column_config.TextColumn(
        "closer", width=60, help="The candidate the difference favours, by the index's direction (lower is better for "
                                 "a distance)"),
    "a": st.column_config.NumberColumn("A", format="%.6f", width="small", help="The sidebar's candidate's value"),
    "b": st.column_config.NumberColumn("B", format="%.6f", width="small", help="The second candidate's value"),
}


def _label_free() -> list:
    return [i for i, info in INDICES.items() if not info.needs_data]


def second_candidate(parts, sel, *, key: str) -> None:
    """The section: a toggle, the second clustering's choices, and the paired comparison."""
    st.subheader("Against a second candidate")
    if not st.toggle("Is this candidate really closer than another?", key=f"{key}_paired",
                     help="Cluster the same points a second way and test, index by index, whether the difference "
                          "between the two candidates is more than resampling the objects or swapping their labels "
                          "produces."):
        return
    points = parts.points
    largest = data.largest_k(points.X)
    first_k = sel.k if sel.k is not None else ui.reference_k(points, next(iter(points.partitions)))
    boxes = st.columns([3, 1, 1, 5, 2], vertical_alignment="bottom")
    with boxes[0]:
        options = list(ALGORITHMS)
        default = "ward" if sel.algorithm != "ward" and "ward" in options else options[0]
        algorithm = st.selectbox("Second algorithm (B)", options, index=options.index(default),
                                 format_func=lambda a: ALGORITHMS[a].name, key=f"{key}_paired_algorithm")
    declared = ALGORITHMS[algorithm]
    with boxes[1]:
        k = int(st.number_input("k", min_value=1, max_value=largest, value=min(first_k, largest), step=1,
                                key=f"{key}_paired_k", disabled=not declared.needs_k,
                                help="Clusters of the second candidate (the sidebar's candidate's k at first)."))
    with boxes[2]:
        seed = int(st.number_input("Seed", min_value=0, max_value=MAX_SEED, value=0, step=1, key=f"{key}_paired_seed",
                                   disabled=declared.deterministic, help=ui.seed_help(algorithm)))
    choices = _label_free()
    with boxes[3]:
        ids = st.multiselect("Indices", choices, default=[i for i in DEFAULT_IDS if i in choices],
                             format_func=lambda i: INDICES[i].name, key=f"{key}_paired_ids",
                             help="Indices that need the points' coordinates are left out here: their jackknife "
                                  "compares anew once per object (the library and 'cluval paired' compute them).")
    with boxes[4]:
        samples = st.segmented_control("Resamples and swaps", SAMPLES, default=SAMPLES[0],
                                       format_func=lambda n: f"{n:,}", key=f"{key}_paired_samples",
                                       help="Resamples of the objects for the bootstrap, and as many random swaps "
                                            "for the permutation test: more, a finer p and steadier interval ends."
                                       ) or SAMPLES[0]
    if not ids:
        st.warning("Choose at least one index.")
        return
    with ui.guarded("Clustering the second candidate", stop=False):
        seed = 0 if declared.deterministic else seed
        run = data.clustering_with_spinner(points.X, algorithm, k, seed, data.default_params(points.X, algorithm, k))
        second = ui.marked_as(run["labels"], points.noise)
        name_b = declared.name + (f", k={k}" if declared.needs_k else "") + ("" if declared.deterministic
                                                                            else f", seed {seed}")
        with ui.guarded("Comparing the two candidates", stop=False):
            paired = data.paired(parts.reference, parts.candidate, second, tuple(ids), samples, ("A", "B"))
            st.markdown(f"**A**: {ui.plain(parts.candidate_caption)} (the sidebar's candidate) · **B**: "
                        f"{ui.plain(name_b)} · {paired.n:,} objects against the sidebar's reference.")
            _show(paired, ids, key)


def _show(paired, ids, key: str) -> None:
    lead = "ari" if "ari" in ids else ids[0]
    st.markdown(ui.plain(paired.sentence(lead)))
    left, right = st.columns(2, gap="medium")
    with left:
        charts.chart(plots.paired_differences(paired), key=f"{key}_paired_figure")
    with right:
        table = paired.table[list(COLUMNS)].copy()
        table.insert(0, "index", [INDICES[i].name for i in table.index])
        st.dataframe(table, hide_index=True, key=f"{key}_paired_table", column_config={
            "index": st.column_config.TextColumn("index", width=130), **COLUMNS})
        others = [i for i in ids if i != lead]
        if others:
            with st.expander("What each of the other indices shows"):
                st.markdown("\n".join(f"- {ui.plain(paired.sentence(i))}" for i in others))
        right.download_button("Paired comparison (CSV)", paired.table.to_csv(), "cluval_paired.csv", "text/csv",
                              key=f"{key}_paired_download",
                              help="Every column: the values, the difference, the jackknife's SE and interval, "
                                   "the bootstrap interval and p")
    st.caption(ui.plain(
        f"Right of the dotted line, A is closer (for a distance the strip shows B − A). The diamond is the "
        f"observed difference with its {100 * paired.level:g} % jackknife interval (each object left out of both "
        "comparisons); the line below it, the bootstrap's percentile interval (the objects resampled, the same "
        f"draw for both); the grey box, the differences of {len(paired.permutations):,} random swaps of the two "
        f"candidates' labels. The permutation test's null hypothesis: {NULL}. Noise points, if any, count as one "
        "cluster here. None of this says that A would be closer on other data or by other indices."))
