"""Index reference: the registry rendered for reading."""

import streamlit as st

from cluval_core import FAMILIES, index_table
from cluval_core.indices import find_indices
from cluval_core.indices.peers import PEERS, peer_names
from pages import _shared as ui

NO_BREAK_HYPHEN, NO_BREAK_SPACE = "\u2011", "\u00a0"


def _bound(value) -> str:
    if value in (float("inf"), float("-inf")):
        return "∞" if value > 0 else "−∞"
    return f"{value:g}"


def _other_tools(index_id: str) -> None:
    """The index in the peer tools: a table of the tools that have it (or say how to get it), the rest named."""
    rows = peer_names(index_id)
    said = (rows["call"] != "") | (rows["note"] != "")
    missing = rows.loc[~said, "tool"].tolist()
    missing_text = f"Not in {', '.join(missing)}." if missing else ""
    st.markdown(" ".join(part for part in ("**In other tools.**", missing_text,
                                           "Each tool's general conventions are at the end of the page.") if part))
    if said.any():
        shown = rows[said]
        st.table({  # short cells do not wrap: a non-breaking hyphen and space
            "Tool": [name.replace("-", NO_BREAK_HYPHEN).replace(" ", NO_BREAK_SPACE) for name in shown["tool"]],
            "Call": [f"`{call}`" if call else "—" for call in shown["call"]],
            "Value": [value.replace(" ", NO_BREAK_SPACE) for value in shown["value"]],
            "Difference in convention": shown["note"].tolist(),
        }, hide_index=True)


OVERVIEW_COLUMNS = {  # registry column -> heading, with what the column means
    "name": ("index", None), "id": ("id", "The id that Comparison.score and compare take"),
    "family": ("family", None), "range": ("range", "The values the index can take"),
    "higher is better": ("higher is better", "No: a distance, lower is better (0 = identical)"),
    "chance adjusted": ("chance-adjusted", "Corrected for chance: about 0 for random partitions"),
    "symmetric": ("symmetric", "The same value when reference and candidate swap places"),
    "needs X": ("needs coordinates", "Needs the data's coordinates X, not only the two labelings"),
}
OVERVIEW_WIDTHS = {"name": 290, "id": 190, "family": 270}  # px: the longest name, id and family read whole
OVERVIEW_ROW_HEIGHT = 28  # px: every index visible without scrolling inside the table


def overview() -> None:
    """Every index in one table, the registry's facts side by side (sortable by any column)."""
    table = index_table()[list(OVERVIEW_COLUMNS)]
    for column in table.select_dtypes(bool).columns:  # words read better than greyed-out check boxes
        table[column] = table[column].map({True: "yes", False: "no"})
    config = {column: st.column_config.TextColumn(heading, help=meaning, width=OVERVIEW_WIDTHS.get(column))
              for column, (heading, meaning) in OVERVIEW_COLUMNS.items()}
    st.dataframe(table, hide_index=True, key="reference_overview", column_config=config,
                 row_height=OVERVIEW_ROW_HEIGHT, height=OVERVIEW_ROW_HEIGHT * (len(table) + 1) + 3)


st.title("Index reference")
st.markdown("Every index cluval computes, from the one registry that also drives the Compare page and the tests, "
            "and the one-line call that computes it.")
st.subheader("Overview")
st.caption("Click a column's heading to sort by it. The formula, properties, caveat and calls in other tools of "
           "each index follow below, by family.")
overview()
st.subheader("Notation")
st.markdown(
    "$n_{ij}$ objects shared by reference cluster $i$ (size $r_i$) and candidate cluster $j$ (size $c_j$); "
    "$N = \\sum_{ij} n_{ij}$ objects; $K_a$ and $K_b$ clusters in the reference and in the candidate; "
    "$a$, $b$, $c$, $d$ the pairs of objects together in both, only in the reference, only in the candidate, "
    "apart in both ($a + b + c + d = \\binom{N}{2}$); $H$ entropies in nats.")
st.caption("Where clusters tie (in a greedy pairing or a nearest-cluster mapping), the cluster whose first object "
           "comes first in the data wins: an index that depends on the tie order can change when the same objects "
           "are listed in another order.")

query = st.text_input(
    "Search", key="reference_filter",
    placeholder="an id, a name, a family, a property or an author: ari, Rand, centroid, chance, Meila")
found = find_indices(query)
if not found:
    st.info(f"No index matches “{ui.plain(query.strip())}”. Search for an id (ari, nmi_max), a word of a name "
            "(Rand, accuracy), a family (centroid, information), a property (chance, tie) or an author (Meila).")
for family, title in FAMILIES.items():
    entries = [info for info in found if info.family == family]
    if not entries:
        continue
    st.header(title)
    for info in entries:
        with st.expander(f"{info.name} (`{info.id}`)", expanded=bool(query.strip())):
            st.latex(info.formula)
            if info.symbols:
                st.markdown(f"**Symbols.** {info.symbols}")  # the registry's Markdown, mathematics in $...$
            facts = [info.kind.capitalize(), f"range [{_bound(info.range[0])}, {_bound(info.range[1])}]",
                     f"best {_bound(info.best)} ({'higher' if info.higher_is_better else 'lower'} is better)",
                     "corrected for chance" if info.chance_adjusted else "not corrected for chance",
                     "symmetric" if info.symmetric else "not symmetric",
                     "needs the data X" if info.needs_data else "needs only the labels",
                     "defined on soft tables" if info.soft else "not defined on soft tables",
                     "whole numbers (a count of clusters)" if info.integer_valued else "real values",
                     "**depends on the tie order**" if info.tie_dependent else "independent of the tie order"]
            st.markdown(" · ".join(facts))
            st.code(info.call, language="python")
            st.markdown(f"**When it misleads.** {ui.plain(info.caveat)}")
            _other_tools(info.id)
            st.caption(f"Reference: {ui.plain(info.reference)}")

st.subheader("The other tools")
st.caption("How each tool differs from cluval for all of its indices. “Same value” in an index's table means the "
           "same number on the same labels, given in the tool's own input format; the Python tools' calls and "
           "values are checked by cluval's tests, the others were read in their source code.")
for tab, peer in zip(st.tabs([peer.name for peer in PEERS.values()]), PEERS.values()):
    with tab:
        st.markdown(f"**{peer.name}**, {peer.language}: {peer.version}; {peer.checked}.")
        st.markdown("\n".join(f"- {note}" for note in peer.conventions))
