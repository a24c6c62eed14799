"""The parts of a comparison every page draws the same way: headline values, the table with the
pairing and the mapping side by side, the index tables and the downloads.

They render a :class:`pages._cache.Model` (a Comparison and its figure key); every number
comes from the Comparison, every figure from ``cluval_core.outputs.plots``.
"""

from __future__ import annotations

import streamlit as st

from cluval_core import FAMILIES, INDICES
from cluval_core.outputs import plots
from cluval_core.outputs.export import (
    contingency_frame,
    csv_with_provenance,
    format_value,
    html_report,
    json_with_provenance,
    provenance,
    score_table,
)
from pages import _cache as data
from pages import _shared as ui

HEADLINE = {"ari": "ARI", "nmi_sum": "NMI", "ami": "AMI", "psi": "PSI", "nvd": "NVD", "ci_partition": "CI (partition)",
            "ci_centroid": "CI (centroid)"}  # short labels: the full names are in each metric's help
ROW_HEIGHT = 35  # px per row of st.dataframe
MAX_ROWS_SHOWN = 30


def table_height(rows: int) -> int:
    """Enough height for every row up to 30 (and a header), so no row hides behind a scroll bar."""
    return ROW_HEIGHT * (min(rows, MAX_ROWS_SHOWN) + 1) + 3


def headline(c) -> None:
    """The headline values in one row of metrics, each with its caveat as help."""
    ids = [i for i in HEADLINE if c.has_data or not INDICES[i].needs_data]
    values = c.scores(ids)
    for column, index_id in zip(st.columns(len(ids)), ids):
        info = INDICES[index_id]
        column.metric(HEADLINE[index_id], format_value(index_id, values[index_id]),
                      help=f"**{info.name}**. {info.caveat}")


# Side by side on a wide screen; on a narrower one a column that would fall below its minimum
# width moves to the next line instead of squeezing its figure (Streamlit itself stacks
# columns only below 640 px).
WRAPPING_COLUMNS = """<style>
.st-key-{key} [data-testid="stHorizontalBlock"] {{ flex-wrap: wrap; }}
.st-key-{key} [data-testid="stColumn"] {{ min-width: 380px; }}
</style>"""


def table_pairing_mapping(model, *, key: str) -> None:
    """The contingency table, the Hungarian pairing with PSI's steps and the CI mapping, side by side."""
    c = model.comparison
    pairing = c.hungarian_pairing
    st.html(WRAPPING_COLUMNS.format(key=f"{key}_side_by_side"))
    with st.container(key=f"{key}_side_by_side"):
        _table_pairing_mapping(model, c, pairing, key)


def _table_pairing_mapping(model, c, pairing, key: str) -> None:
    table, pairs, mapping = st.columns([4, 5, 3.4], gap="medium")
    with table:
        st.markdown("**Contingency table**")
        chart = st.empty()  # the table keeps its place on the first screen; its colouring is chosen below it
        colour_by = contingency_colour_choice(c, key=key)
        chart.plotly_chart(data.figure(model, "contingency_heatmap", colour_by=colour_by), key=f"{key}_contingency")
        st.caption("Rows: reference clusters; columns: candidate clusters (sizes in brackets), ordered so the "
                   "Hungarian pairs that share objects lie on the diagonal (outlined), largest first; clusters "
                   "shown as unpaired come last.")
        if colour_by != "counts":
            contribution_caption(model, colour_by)
    with pairs:
        st.markdown("**Hungarian pairing** (PSI's S pairs on Braun–Banquet similarity)")
        frame = pairing.display_frame()
        st.dataframe(frame, hide_index=True, key=f"{key}_pairing", height=table_height(len(frame)),
                     column_config={
                         "pair": None,  # the rows are in pair order
                         "reference": st.column_config.Column("ref", width=60, help="reference cluster"),
                         "candidate": st.column_config.Column("cand", width=60, help="candidate cluster"),
                         "reference size": st.column_config.NumberColumn("|G|", width=46,
                                                                           help="reference cluster size"),
                         "candidate size": st.column_config.NumberColumn("|P|", width=46,
                                                                           help="candidate cluster size"),
                         "overlap": st.column_config.NumberColumn("shared", help="objects in both clusters", width=52),
                         "braun_banquet": st.column_config.NumberColumn(
                             "BB", format="%.4f", width=58, help="Braun–Banquet similarity shared / max(|G|, |P|)"),
                         "jaccard": st.column_config.NumberColumn(
                             "Jaccard", format="%.4f", width=58, help="shared / (|G| + |P| − shared)")})
        lone_rows, lone_cols = pairing.shown_unpaired
        if len(lone_rows) or len(lone_cols):
            st.caption(ui.plain(f"Unpaired (no partner sharing objects): reference {_listed(c.row_labels[lone_rows])}; "
                                f"candidate {_listed(c.col_labels[lone_cols])}. They add nothing to S."))
        st.markdown("**PSI step by step** (Rezaei & Fränti 2016, eqs. 14–18)  \n"
                    + "  \n".join(ui.plain(str(step)) for step in c.steps("psi"))
                    + f"  \nSimplified PSI (E = 1): {format_value('psi_simplified', c.score('psi_simplified'))}")
    with mapping:
        bases = {"centroid": "centroid-based", "partition": "partition-based"} if c.has_data else {
            "partition": "partition-based"}
        basis = st.segmented_control("Centroid Index mapping", list(bases), format_func=bases.get,
                                     default=next(iter(bases)), key=f"{key}_mapping_basis") or next(iter(bases))
        mappings = c.centroid_mapping if basis == "centroid" else c.jaccard_mapping
        st.markdown(f"**CI = {mappings.ci}**, from {mappings.direction}")
        st.plotly_chart(data.figure(model, "mapping_diagram", basis=basis), key=f"{key}_mapping_{basis}")
        st.caption("Each cluster points at its most similar cluster on the other side (" +
                   ("nearest centroid" if basis == "centroid" else "Jaccard") + "); red targets are orphans. "
                   "CI = max(orphans of both directions): the number of clusters located differently.")


def contingency_colour_choice(c, *, key: str) -> str:
    """The table's colouring: "counts", or an index whose cells' contributions colour it.

    Offered for the indices with an anatomy of cells (the registry's ``anatomy``) that this
    comparison can compute, and only while the table is laid out whole in memory (not sparse).
    """
    if c.is_sparse:
        return "counts"
    ids = [i for i, info in INDICES.items() if info.anatomy and (c.has_data or not info.needs_data)]
    options = ["counts", *ids]
    return st.selectbox("Colour the cells by", options, key=f"{key}_colour_by",
                        format_func=lambda i: "shared objects (counts)" if i == "counts" else
                        f"contribution to {INDICES[i].name}",
                        help="A cell's share of an index: the cells, plus at most one constant, add up to its value. "
                             "It shows which pairs of clusters carry an index (ARI: the large cells; PSI: every pair "
                             "alike).")


def contribution_caption(model, index_id: str) -> None:
    """What a cell's number means when the table is coloured by its contribution to `index_id`."""
    parts = data.contributions(model, index_id)
    info = INDICES[index_id]
    constant = (f" plus the constant {format_value(index_id, parts.constant)}" if parts.constant else "")
    st.caption(ui.plain(f"Colour and numbers: each cell's contribution to {info.name}, {parts.description}. "
                        f"The cells{constant} add up to {format_value(index_id, parts.value)}. Blue adds to the "
                        "value, red takes away (the scale is centred on 0). On tables of up to "
                        f"{plots.CONTRIBUTIONS_WRITTEN_UP_TO} clusters a side, a cell's number is written where it "
                        f"carries at least {plots.LABELLED_SHARE:.0%} of the largest contribution; every cell's is "
                        "on hover. Grouped clusters ('other') show the sum of their cells' contributions."))


def _listed(labels, limit: int = 12) -> str:
    shown = ", ".join(str(v) for v in labels[:limit])
    return shown + (f" and {len(labels) - limit} more" if len(labels) > limit else "") if len(labels) else "none"


CHANCE_SAMPLES = (200, 1000, 5000)  # random tables the user can ask for; the middle one by default
CHANCE_COLUMNS = {
    "expected": st.column_config.NumberColumn(
        "expected", format="%.4f", help="Expected value by chance: under the permutation model (both partitions' "
                                        "cluster sizes fixed, objects assigned at random)"),
    "expected error": st.column_config.TextColumn(
        "±", width=52, help="Monte Carlo standard error of the expected value, or 'exact' for a closed form"),
    "z": st.column_config.TextColumn("z", width=72, help="(value − expected) / SD of the index by chance; undefined "
                                                         "where every random table gives the same value"),
    "p": st.column_config.NumberColumn("p", format="%.4f", width=64,
                                       help="One-sided p-value in the index's better direction: the share of random "
                                            "tables at least as good (counting the observed one)"),
    "low": st.column_config.NumberColumn("95% low", format="%.4f", help="Jackknife 95 % interval, lower end"),
    "high": st.column_config.NumberColumn("95% high", format="%.4f", help="Jackknife 95 % interval, upper end"),
}


# Widest index name and id (in pixels at the app's font), so that none is cut: "Adjusted mutual
# information (geometric mean)", "pair_correlation_distance".
INDEX_NAME_WIDTH, INDEX_ID_WIDTH = 300, 180


def index_tables(c, *, key: str, model=None) -> dict:
    """Every index, one table per family, all rows and columns visible. Returns the values.

    With `model` (the comparison's :class:`pages._cache.Model`), a toggle adds what each value
    means against chance (expected value, z, p) and its jackknife interval.
    """
    st.subheader("Every index")
    scores = c.scores()
    chance = uncertainty = None
    if model is not None and st.toggle("Against chance, with intervals", key=f"{key}_chance",
                                       help="Each index's expected value under the permutation model, z and p, and "
                                            "its 95 % jackknife interval. Progress bars say the time left."):
        samples = st.segmented_control("Random tables for the Monte Carlo part", CHANCE_SAMPLES,
                                       default=CHANCE_SAMPLES[1], key=f"{key}_chance_samples",
                                       format_func=lambda n: f"{n:,}") or CHANCE_SAMPLES[1]
        with ui.guarded("Comparing with chance", stop=False):
            chance = data.chance(model, samples)
            uncertainty, missing = data.uncertainty(model)
            st.caption(chance_caption(chance, samples, missing))
    table = score_table(scores, chance, uncertainty)
    table["value"] = [format_value(i, v, 6) for i, v in scores.items()]  # as text: honest to its digits
    if chance is not None:  # as text, so that "exact" and "undefined" are said, not left blank
        table["expected error"] = ["exact" if error != error else f"{error:.0e}" for error in table["expected error"]]
        table["z"] = ["undefined" if z != z else f"{z:.1f}" for z in table["z"]]
    # what the values mean against chance first, after the value; the registry's facts follow
    shown = [column for column in table.columns if column not in ("family", "formula", "sd", "se")]
    shown = ["index", "id", "value", *[c for c in CHANCE_COLUMNS if c in shown],
             *[c for c in shown if c not in CHANCE_COLUMNS and c not in ("index", "id", "value")]]
    for family in FAMILIES.values():
        part = table[table["family"] == family][shown]
        if len(part):
            st.markdown(f"**{family}**")
            st.dataframe(part, hide_index=True, key=f"{key}_scores_{family}", height=table_height(len(part)),
                         column_config={"index": st.column_config.TextColumn("index", width=INDEX_NAME_WIDTH),
                                        "id": st.column_config.TextColumn("id", width=INDEX_ID_WIDTH),
                                        **CHANCE_COLUMNS})
    return scores


def chance_caption(chance, samples: int, missing: str | None) -> str:
    """What the chance columns are, in words, with the indices whose expectation is exact."""
    exact = [INDICES[i].name for i in chance.index[chance["method"] == "exact"]]
    text = (f"Expected: the mean over random tables with both partitions' cluster sizes (the permutation model); "
            f"exact for {', '.join(exact) if exact else 'no index here'}, else from {samples:,} random tables "
            f"(seed {data.CHANCE_SEED}), whose standard error is the ± column. z = (value − expected) / SD by "
            f"chance; p: one-sided, in the index's better direction (at least 1/{samples + 1:,} with Monte Carlo). "
            "Interval: the jackknife over objects, value ± 1.96 SE.")
    if missing:
        text += f" The centroid indices have no interval here: {missing[:1].upper() + missing[1:]}."
    return ui.plain(text)


def downloads(model, scores: dict, facts: dict, *, key: str) -> None:
    """The values, the table and a one-file HTML report, each saying where it comes from."""
    c = model.comparison
    facts = provenance(**facts)
    columns = st.columns(4)
    columns[0].download_button("Index table (CSV)", csv_with_provenance(score_table(scores), facts, index=False),
                               "cluval_indices.csv", "text/csv", key=f"{key}_download_csv")
    columns[1].download_button("Index values (JSON)", json_with_provenance(scores, facts), "cluval_indices.json",
                               "application/json", key=f"{key}_download_json")
    columns[2].download_button("Contingency table (CSV)", csv_with_provenance(contingency_frame(c), facts),
                               "cluval_contingency.csv", "text/csv", key=f"{key}_download_table")
    columns[3].download_button("Report (HTML)", lambda: html_report(c, facts), "cluval_report.html", "text/html",
                               key=f"{key}_download_html", help="One file with every figure and table; opens offline.")
