"""Index reference: the registry rendered for reading."""

import streamlit as st

from cluval_core import FAMILIES, index_table
from cluval_core.indices import find_indices
from cluval_core.indices.peers import PEERS, peer_names
from pages import _shared as ui


def _bound(value) -> str:
    if value in (float("inf"), float("-inf")):
        return "∞" if value > 0 else "−∞"
    return f"{value:g}"


st.title("Index reference")
st.markdown("Every index cluval computes, from the one registry that also drives the Compare page and the tests, "
            "and the one-line call that computes it.")
st.caption(r"Notation: $n_{ij}$ objects shared by reference cluster $i$ (size $r_i$) and candidate cluster $j$ "
           r"(size $c_j$), $N$ objects, $K_a$ and $K_b$ clusters; $a, b, c, d$ the pairs together in both, only in "
           r"the reference, only in the candidate, apart in both; $H$ entropies in nats. Where clusters tie (in a "
           "greedy pairing or a nearest-cluster mapping), the cluster whose first object comes first in the data "
           "wins: an index that "
           "depends on the tie order can change when the same objects are listed in another order.")

query = st.text_input(
    "Search", key="reference_filter",
    placeholder="an id, a name, a family, a property or an author: ari, Rand, centroid, chance, Meila")
found = find_indices(query)
OVERVIEW_COLUMNS = ["name", "id", "family", "range", "best", "kind", "chance adjusted", "symmetric", "needs X",
                    "soft tables", "tie dependent", "exact expectation"]
overview = index_table()
overview = overview[overview["id"].isin([info.id for info in found])][OVERVIEW_COLUMNS]
FACTS = OVERVIEW_COLUMNS[6:]  # yes or no: written out, greyed check boxes were hard to read
overview[FACTS] = overview[FACTS].apply(lambda fact: fact.map({True: "yes", False: "no"}))
if len(overview):
    st.dataframe(overview, hide_index=True, key="reference_overview",
                 height=min(len(overview), 12) * 35 + 38,
                 column_config={"name": st.column_config.TextColumn("index", width=240),
                                "id": st.column_config.TextColumn("id", width=180),
                                "best": st.column_config.NumberColumn("best", format="%g", width=50),
                                "kind": st.column_config.TextColumn("kind", help="similarity or distance"),
                                "needs X": st.column_config.TextColumn("needs X", help="needs the coordinates")})
    st.caption(f"{len(overview)} of {len(index_table())} indices; each is described in full below.")
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
                     "whole numbers (a count)" if info.integer_valued else "real values",
                     "**depends on the tie order**" if info.tie_dependent else "independent of the tie order"]
            st.markdown(" · ".join(facts))
            st.code(info.call, language="python")
            st.markdown(f"**When it misleads.** {ui.plain(info.caveat)}")
            ui.other_tools(peer_names(info.id), "Each tool's general conventions are at the end of the page.")
            st.caption(f"Reference: {ui.plain(info.reference)}")

st.subheader("The other tools")
st.caption("How each tool differs from cluval for all of its indices. “Same value” in an index's table means the "
           "same number on the same labels, given in the tool's own input format; the Python tools' calls and "
           "values are checked by cluval's tests, the others were read in their source code.")
for tab, peer in zip(st.tabs([peer.name for peer in PEERS.values()]), PEERS.values()):
    with tab:
        st.markdown(f"**{peer.name}**, {peer.language}: {peer.version}; {peer.checked}.")
        st.markdown("\n".join(f"- {note}" for note in peer.conventions))
