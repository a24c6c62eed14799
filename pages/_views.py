"""The parts of a comparison every page draws the same way: headline values, the table with the
pairing and the mapping side by side, the index tables and the downloads.

They render a :class:`pages._cache.Model` (a Comparison and its figure key); every number
comes from the Comparison, every figure from ``cluval_core.outputs.plots``.
"""

from __future__ import annotations

import streamlit as st

from cluval_core import FAMILIES, INDICES
from cluval_core.core.random_models import MODEL_NAMES, MODELS
from cluval_core.outputs import plots
from cluval_core.outputs.export import (
    chance_sentence,
    contingency_frame,
    csv_with_provenance,
    format_value,
    handout_html,
    html_report,
    json_with_provenance,
    provenance,
    score_table,
)
from pages import _cache as data
from pages import _charts as charts
from pages import _explain as explained
from pages import _page_url
from pages import _shared as ui

HEADLINE = {"ari": "ARI", "nmi_sum": "NMI", "ami": "AMI", "psi": "PSI", "nvd": "NVD", "ci_partition": "CI (partition)",
            "ci_centroid": "CI (centroid)"}  # short labels: the full names are in each metric's help
ROW_HEIGHT = 35  # px per row of st.dataframe
MAX_ROWS_SHOWN = 30


def table_height(rows: int) -> int:
    """Enough height for every row up to 30 (and a header), so no row hides behind a scroll bar."""
    return ROW_HEIGHT * (min(rows, MAX_ROWS_SHOWN) + 1) + 3


LOWER_IS_BETTER = "lower is better"  # said under a headline value whose index is a distance


def headline(c) -> None:
    """The headline values in one row of metrics, each with its caveat as help; a distance (the
    registry's ``higher_is_better`` False) says that lower is better."""
    ids = [i for i in HEADLINE if c.has_data or not INDICES[i].needs_data]
    values = c.scores(ids)
    st.html(HEADLINE_CSS)
    with st.container(key="headline"):
        for column, index_id in zip(st.columns(len(ids)), ids):
            info = INDICES[index_id]
            column.metric(HEADLINE[index_id], format_value(index_id, values[index_id]),
                          help=f"**{info.name}**. {info.caveat}")
            if not info.higher_is_better:
                column.caption(LOWER_IS_BETTER)


# The headline's values a little smaller than Streamlit's metrics, and their captions close under
# them: the row leaves room for the table, the pairing and the mapping on a 1280 x 800 screen.
HEADLINE_CSS = """<style>
.st-key-headline [data-testid="stMetricValue"] { font-size: 1.9rem; }
.st-key-headline [data-testid="stColumn"] [data-testid="stVerticalBlock"] { gap: 0; }
</style>"""

# Side by side down to a window of about 1100 px with the sidebar open (a 1280 x 800 screen shows
# all three whole); on a narrower one a column that would fall below its minimum width moves to
# the next line instead of squeezing its figure (Streamlit itself stacks columns only below 640 px).
WRAPPING_COLUMNS = """<style>
.st-key-{key} [data-testid="stHorizontalBlock"] {{ flex-wrap: wrap; }}
.st-key-{key} [data-testid="stColumn"] {{ min-width: 215px; }}
</style>"""
FIRST_SCREEN_HEIGHT = 390  # px of the table, the pairing and the mapping: with the headline, within 800 px
FIRST_SCREEN_CLUSTERS = 16  # clusters a side drawn one by one there; the rest are grouped, the whole table below
FIRST_SCREEN_WRITTEN = 10  # clusters a side up to which counts are written in the cells there (else on hover)
PAIR_ROW_HEIGHT = 24  # px per row of the pairing


def table_pairing_mapping(model, *, key: str) -> None:
    """The contingency table, the Hungarian pairing with PSI's steps and the CI mapping, side by side.

    The three fit, with the headline values, on the first screen of a 1280 x 800 window: each is
    at most :data:`FIRST_SCREEN_HEIGHT` high, beyond :data:`FIRST_SCREEN_CLUSTERS` clusters a side
    the figures group the rest (saying so; the whole table follows in an expander), and the
    pairing scrolls. The colouring of the cells and the mapping's basis sit below their figures
    and are kept in the URL (``colour``, ``mapping``), shared by every page that shows them.
    """
    c = model.comparison
    pairing = c.hungarian_pairing
    st.html(WRAPPING_COLUMNS.format(key=f"{key}_side_by_side"))
    with st.container(key=f"{key}_side_by_side"):
        _table_pairing_mapping(model, c, pairing, key)


PAIRING_COLUMNS = {
    "reference": st.column_config.Column("ref", help="reference cluster", pinned=True),
    "candidate": st.column_config.Column("cand", help="candidate cluster"),
    "overlap": st.column_config.NumberColumn("shared", help="objects in both clusters", width=52),
    "braun_banquet": st.column_config.NumberColumn(
        "BB", format="%.4f", width=58, help="Braun–Banquet similarity shared / max(|G|, |P|): what PSI's S adds up"),
    "jaccard": st.column_config.NumberColumn("Jaccard", format="%.4f", width=58,
                                             help="shared / (|G| + |P| − shared)"),
    "reference size": st.column_config.NumberColumn("|G|", width=46, help="reference cluster size"),
    "candidate size": st.column_config.NumberColumn("|P|", width=46, help="candidate cluster size"),
}


def numbered_pairing_columns(decimals: int = 4, jaccard: bool = True) -> dict:
    """The pairing's columns on the teaching pages, where clusters are numbers: the pair's number,
    both clusters and sizes, the objects shared, Braun–Banquet (and Jaccard) to `decimals`."""
    number = f"%.{decimals}f"
    return {
        "pair": st.column_config.NumberColumn("#", width=28),
        "reference": st.column_config.NumberColumn("reference", help="reference cluster", width=68),
        "candidate": st.column_config.NumberColumn("candidate", help="candidate cluster", width=68),
        "reference size": st.column_config.NumberColumn("|G|", help="reference cluster size", width=52),
        "candidate size": st.column_config.NumberColumn("|P|", help="candidate cluster size", width=52),
        "overlap": st.column_config.NumberColumn("shared", help="objects in both clusters", width=56),
        "braun_banquet": st.column_config.NumberColumn("Braun–Banquet", format=number, width=100,
                                                       help="Braun–Banquet similarity: shared / max(|G|, |P|)"),
        "jaccard": st.column_config.NumberColumn("Jaccard", format=number, width=62,
                                                 help="shared / (|G| + |P| − shared)") if jaccard else None,
    }


def pairing_columns(frame) -> dict:
    """The pairing's columns, the label columns as wide as their longest label (within
    :data:`LABEL_WIDTHS`); the reference stays in view when a long label makes the table scroll."""
    config = dict(PAIRING_COLUMNS)
    for column in ("reference", "candidate"):
        config[column] = {**config[column], "width": label_width(frame[column])}
    return config


def _table_pairing_mapping(model, c, pairing, key: str) -> None:
    table, pairs, mapping = st.columns([4, 3.6, 2.9], gap="small")
    grouped = max(c.k_true, c.k_pred) > FIRST_SCREEN_CLUSTERS
    with table:
        st.markdown("**Contingency table**")
        chart = st.empty()  # the table keeps its place on the first screen; its colouring is chosen below it
        colour_by = contingency_colour_choice(c, key=key)
        charts.chart(data.figure(model, "contingency_heatmap", colour_by=colour_by,
                                 max_shown=FIRST_SCREEN_CLUSTERS, height=FIRST_SCREEN_HEIGHT,
                                 annotate_up_to=FIRST_SCREEN_WRITTEN, outline=explained.chosen_outline(model, key)),
                     key=f"{key}_contingency", into=chart)
        st.caption("Rows: reference clusters; columns: candidate clusters (sizes in brackets), ordered so the "
                   "Hungarian pairs that share objects lie on the diagonal (outlined), largest first; clusters "
                   "shown as unpaired come last." + (f" The first {FIRST_SCREEN_CLUSTERS - 1} of each side are "
                                                     "drawn one by one; the whole table is below." if grouped else ""))
        if colour_by != "counts":
            contribution_caption(model, colour_by)
    with pairs:
        st.markdown("**Hungarian pairing** (PSI's S)", help="PSI pairs the clusters one to one, maximising the "
                    "sum of their Braun–Banquet similarities (the Hungarian algorithm); largest pairs first.")
        frame = pairing.display_frame()
        whole = ROW_HEIGHT + PAIR_ROW_HEIGHT * len(frame) + 3  # the header keeps Streamlit's row height
        st.dataframe(frame, hide_index=True, key=f"{key}_pairing", row_height=PAIR_ROW_HEIGHT,
                     height=min(whole, FIRST_SCREEN_HEIGHT), column_order=list(PAIRING_COLUMNS),
                     column_config=pairing_columns(frame))
        more = whole > FIRST_SCREEN_HEIGHT
        lone_rows, lone_cols = pairing.shown_unpaired
        st.caption(ui.plain(f"{len(frame)} pairs" + (", largest first: scroll the table for the rest" if more else "")
                            + ". Sizes |G|, |P| in the last columns."
                            + (f" Unpaired (no partner sharing objects): reference {_listed(c.row_labels[lone_rows])}; "
                               f"candidate {_listed(c.col_labels[lone_cols])}. They add nothing to S."
                               if len(lone_rows) or len(lone_cols) else "")))
        st.markdown("**PSI step by step** (Rezaei & Fränti 2016, eqs. 14–18)  \n"
                    + "  \n".join(ui.plain(str(step)) for step in c.steps("psi"))
                    + f"  \nSimplified PSI (E = 1): {format_value('psi_simplified', c.score('psi_simplified'))}")
    with mapping:
        bases = ["centroid", "partition"] if c.has_data else ["partition"]
        heading = st.empty()  # above the diagram, written once the basis below it is known
        chart = st.empty()
        # the option's text is its value in the URL (?mapping=partition): no format_func
        _page_url.take("mapping", bases, bases[0])
        basis = st.segmented_control("Mapping basis", bases, key="mapping",
                                     help="centroid: each cluster's nearest centroid on the other side (needs the "
                                          "data); partition: its most similar cluster by Jaccard") or bases[0]
        _page_url.keep("mapping", basis, bases[0])
        mappings = c.centroid_mapping if basis == "centroid" else c.jaccard_mapping
        heading.markdown(f"**CI mapping**: CI = {mappings.ci}")
        charts.chart(data.figure(model, "mapping_diagram", basis=basis, max_shown=FIRST_SCREEN_CLUSTERS,
                                 height=FIRST_SCREEN_HEIGHT), key=f"{key}_mapping_{basis}", into=chart)
        st.caption(f"CI from {mappings.direction}. Each cluster points at its most similar cluster on the other "
                   "side (" + ("nearest centroid" if basis == "centroid" else "Jaccard") + "); a target nobody "
                   "points at is an orphan (red open cross), hover a node for how many point at it. "
                   "CI = max(orphans of both directions): the number of clusters located differently."
                   + (f" Beyond {FIRST_SCREEN_CLUSTERS - 1} clusters a side, those where the mappings disagree "
                      "come first." if grouped else ""))
    if grouped:
        with st.expander(f"The whole contingency table ({c.k_true} × {c.k_pred})"):
            charts.chart(data.figure(model, "contingency_heatmap", colour_by=colour_by,
                                     outline=explained.chosen_outline(model, key)), key=f"{key}_contingency_whole")


LABEL_WIDTHS = (60, 180)  # px of a cluster label column of the pairing: its narrowest and widest
CHAR_WIDTH = 7  # px per character of a table cell, at the app's font (and 16 px of padding)


def label_width(labels) -> int:
    """Pixels that show the longest of `labels` whole, within LABEL_WIDTHS (the user can drag a
    column wider)."""
    longest = max((len(str(label)) for label in labels), default=0)
    return min(max(CHAR_WIDTH * longest + 16, LABEL_WIDTHS[0]), LABEL_WIDTHS[1])


def contingency_colour_choice(c, *, key: str) -> str:
    """The table's colouring: "counts", or an index whose cells' contributions colour it.

    Its widget key is ``colour``, kept in the URL's query parameter of that name (the same on
    every page that shows the table; `key` names the page's table, not the choice): a change is
    an entry in the browser's history.

    Offered for the indices with an anatomy of cells (the registry's ``anatomy``) that this
    comparison can compute, and only while the table is laid out whole in memory (not sparse).
    """
    if c.is_sparse:
        return "counts"
    ids = [i for i, info in INDICES.items() if info.anatomy and (c.has_data or not info.needs_data)]
    options = ["counts", *ids]
    # the options are written as they go into the URL (?colour=ari): "counts" or an index id
    _page_url.take("colour", options, "counts")
    chosen = st.selectbox("Colour the cells by", options, key="colour",
                          help="**counts**: the shared objects n_ij. An **index id**: each cell's contribution to "
                               "that index (the caption below names it; the ids are those of the index tables). A "
                               "cell's share of an index: the cells, plus at most one constant, add up to its value. "
                               "It shows which pairs of clusters carry an index (ari: the large cells; psi: every "
                               "pair alike).")
    _page_url.keep("colour", chosen, "counts")
    return chosen


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


# Random tables the user can ask for: the fewest by default, an answer within a second or two
# (the ± column says how precise it is); more on request.
CHANCE_SAMPLES = (200, 1000, 5000)
APP_MODELS = ("perm", "num", "num1", "all", "all1")  # perm1 draws the same tables as perm
CHANCE_COLUMNS = {
    "expected": st.column_config.NumberColumn(
        "expected", format="%.4f", help="Expected value by chance, under the random model chosen above (by default "
                                        "the permutation model: both partitions' cluster sizes fixed, objects "
                                        "assigned at random)"),
    "adjusted": st.column_config.TextColumn(
        "adjusted", width=72, help="(value − expected) / (best − expected): the value corrected for chance under "
                                   "the chosen model, 1 at the best value and 0 at chance; under the permutation "
                                   "model the Rand index's is ARI; undefined where the best value is infinite"),
    "expected error": st.column_config.TextColumn(
        "±", width=52, help="Monte Carlo standard error of the expected value, or 'exact' for a closed form"),
    "z": st.column_config.TextColumn("z", width=72, help="(value − expected) / SD of the index by chance; undefined "
                                                         "where every random table gives the same value"),
    "p": st.column_config.NumberColumn("p", format="%.4f", width=64,
                                       help="One-sided p-value in the index's better direction: the share of random "
                                            "tables at least as good (counting the observed one)"),
    "reachable": st.column_config.TextColumn(
        "reachable", help="The lowest and highest values over every table with these cluster sizes: exact, or "
                          "marked ≤ / ≥ where it is a value some table reaches and the extreme lies at least as far"),
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
    chance = uncertainty = attainable = None
    if model is not None and st.toggle("Against chance, with intervals", key=f"{key}_chance",
                                       help="Each index's expected value under the permutation model, z and p, "
                                            "the range its cluster sizes allow, and its 95 % jackknife interval. "
                                            "Progress bars say the time left."):
        left, middle, right = st.columns([1, 1.5, 1.3], vertical_alignment="bottom")
        with left:
            samples = st.segmented_control("Random tables for the Monte Carlo part", CHANCE_SAMPLES,
                                           default=CHANCE_SAMPLES[0], key=f"{key}_chance_samples",
                                           format_func=lambda n: f"{n:,}",
                                           help="More tables, a smaller ± (the Monte Carlo standard error): about "
                                                "five times the time for each step.") or CHANCE_SAMPLES[0]
        with middle:
            random_model = random_model_choice(key=f"{key}_chance_model")
        centroid = c.has_data and any(info.needs_data for info in INDICES.values()) and right.toggle(
            "Intervals of the centroid indices too", key=f"{key}_chance_centroid",
            help=f"Their jackknife leaves out each of the {c.n:,} objects in turn and compares anew (the centroids "
                 "move with every object): seconds rather than a blink. A bar says the time left.")
        with ui.guarded("Comparing with chance", stop=False):
            chance = data.chance(model, samples, random_model=random_model)
            uncertainty, missing = data.uncertainty(model, centroid_indices=centroid)
        with ui.guarded("Finding the attainable range", stop=False):
            attainable = data.attainable(model)
        if chance is not None:
            lead = "ari" if "ari" in scores else next(iter(scores))
            if attainable is not None:
                st.markdown(ui.plain(chance_sentence(lead, scores[lead], chance, attainable)))
            st.caption(chance_caption(chance, samples, missing, random_model))
    table = score_table(scores, chance, uncertainty, attainable)
    table["value"] = [format_value(i, v, 6) for i, v in scores.items()]  # as text: honest to its digits
    if chance is not None:  # as text, so that "exact" and "undefined" are said, not left blank
        table["expected error"] = ["exact" if error != error else f"{error:.0e}" for error in table["expected error"]]
        table["z"] = ["undefined" if z != z else f"{z:.1f}" for z in table["z"]]
        table["adjusted"] = ["undefined" if a != a else f"{a:.4f}" for a in table["adjusted"]]
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


def random_model_choice(*, key: str) -> str:
    """The random model that 'by chance' means (the permutation model by default)."""
    return st.selectbox("Random model", APP_MODELS, format_func=lambda m: MODEL_NAMES[m].capitalize(), key=key,
                        help="What is held fixed when partitions are drawn at random (Gates & Ahn 2017): both "
                             "partitions' cluster sizes (the permutation model, the usual one); their numbers of "
                             "clusters; nothing. One-sided: the reference stays as observed and only the candidate "
                             "is drawn. The Rand index and the mutual information are exact under every model, the "
                             "other indices from the random draws.")


def chance_caption(chance, samples: int, missing: str | None, random_model: str = "perm") -> str:
    """What the chance columns are, in words, with the indices whose expectation is exact."""
    exact = [INDICES[i].name for i in chance.index[chance["method"] == "exact"]]
    drawn = ("random tables with both partitions' cluster sizes (the permutation model)"
             if random_model in ("perm", "perm1") else f"random partitions: {MODELS[random_model]}")
    text = (f"Expected: the mean over {drawn}; "
            f"exact for {', '.join(exact) if exact else 'no index here'}, else from {samples:,} random "
            f"{'tables' if random_model in ('perm', 'perm1') else 'partitions'} "
            f"(seed {data.CHANCE_SEED}), whose standard error is the ± column. z = (value − expected) / SD by "
            f"chance; p: one-sided, in the index's better direction (at least 1/{samples + 1:,} with Monte Carlo). "
            "Adjusted: (value − expected) / (best − expected). "
            "Interval: the jackknife over objects, value ± 1.96 SE. Reachable: the lowest and highest value over "
            "every table with these cluster sizes, exact unless marked ≤ or ≥ (a value some table reaches; the "
            "extreme lies at least as far).")
    if missing:
        text += f" The centroid indices have no interval here: {missing[:1].upper() + missing[1:]}."
    costly = [INDICES[i].name for i in INDICES if i not in data.per_table_indices(True)]
    if costly:
        text += (f" {' and '.join(costly)}: an exact variance over the cluster sizes (seconds), taken once here, "
                 "so no interval" + ("" if random_model in ("perm", "perm1") else " and no expectation under random "
                                     "partitions") + f"; the library computes {'it' if len(costly) == 1 else 'them'} "
                                                     "when named.")
    return ui.plain(text)


def downloads(model, scores: dict, facts: dict, *, key: str) -> None:
    """The values, the table, a one-file HTML report and a one-page handout, each saying where it comes from."""
    c = model.comparison
    facts = provenance(**facts)
    row = st.container(horizontal=True, key=f"{key}_downloads")  # each label whole; it wraps when narrow
    row.download_button("Index table (CSV)", csv_with_provenance(score_table(scores), facts, index=False),
                        "cluval_indices.csv", "text/csv", key=f"{key}_download_csv", width="content")
    row.download_button("Index values (JSON)", json_with_provenance(scores, facts), "cluval_indices.json",
                        "application/json", key=f"{key}_download_json", width="content")
    row.download_button("Contingency table (CSV)", csv_with_provenance(contingency_frame(c), facts),
                        "cluval_contingency.csv", "text/csv", key=f"{key}_download_table", width="content")
    row.download_button("Report (HTML)", lambda: html_report(c, facts), "cluval_report.html", "text/html",
                        key=f"{key}_download_html", help="One file with every figure and table; opens offline.",
                        width="content")
    row.download_button("Handout (HTML, one page)", lambda: handout_html(c, facts, ids=list(HEADLINE)),
                        "cluval_handout.html", "text/html", key=f"{key}_download_handout", width="content",
                        help="This view on one printable page: provenance, headline values, the table, the "
                             "pairing with PSI's steps, the CI mapping and room for notes.")
    st.caption("Print: open the handout in a browser and print it (Ctrl+P or ⌘P); it fills one A4 or Letter page.")
