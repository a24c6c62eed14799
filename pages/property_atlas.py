"""Property atlas: which index has which property, each claim proved (with its source), holding on
every case a search tried, or failing, with the smallest counterexample found, which opens in
Build a table. The atlas is the one kept with cluval; ``cluval atlas --search`` searches afresh."""

import streamlit as st

from cluval_core import FAMILIES, INDICES
from cluval_core.indices.properties import (
    PROPERTIES,
    PROVED,
    SHORT,
    STATES,
    atlas,
    atlas_matrix,
    counterexample,
    filter_indices,
)
from cluval_core.outputs.plots.atlas import atlas_heatmap
from pages import _atlas as examples
from pages import _charts as charts
from pages import _shared as ui


def _index_name(index_id: str) -> str:
    return f"{INDICES[index_id].name} ({index_id})"


def _property_name(prop: str) -> str:
    return PROPERTIES[prop].name


st.title("Property atlas")
st.markdown("Which index has which property. Each cell is **proved** (a published proof, whose source is named), "
            "**holds** on every case a search tried (the number is kept), or **fails**: the search found a "
            "counterexample, kept as the smallest it found, which opens in Build a table. The test suite checks every "
            "kept counterexample again and runs a fresh search, which must find no counterexample to a claim of "
            "proved or holds.")

with ui.guarded("The atlas"):
    frame = atlas()
    matrix = atlas_matrix()

choose, family_box = st.columns([3, 2])
wanted = choose.multiselect("Show the indices that have", list(PROPERTIES), format_func=_property_name,
                            key="atlas_wanted", placeholder="Choose properties, e.g. Distance and Constant baseline")
families = family_box.multiselect("Families", list(FAMILIES), format_func=FAMILIES.get, key="atlas_families",
                                  placeholder="every family")
having = filter_indices(wanted) if wanted else list(INDICES)
shown = [i for i in having if not families or INDICES[i].family in families]
if wanted:
    names = " and ".join(_property_name(p).lower() for p in wanted)
    st.markdown(f"**{len(shown)} {'index has' if len(shown) == 1 else 'indices have'} {names}**"
                + (": " + ", ".join(INDICES[i].name for i in shown) if shown else ": none. Try fewer properties."))
if shown:
    left, right = st.columns([3, 2], gap="large")
    with left:
        charts.chart(atlas_heatmap(matrix.loc[shown]), key="atlas_heatmap")
    with right:
        st.markdown("**The properties**")
        st.caption("P proved · ✓ holds on every case tried · ✗ fails. Hover over a cell for its claim; choose it "
                   "below to see the proof's source or the counterexample.")
        st.markdown("\n".join(f"- **{SHORT[p.id]}, {p.name}**: {ui.plain(p.definition)}"
                              for p in PROPERTIES.values() if not wanted or p.id in wanted))

st.subheader("One claim in detail")
index_box, property_box = st.columns(2)
choices = shown or list(INDICES)
if st.session_state.get("atlas_index") not in choices:  # first visit, or filtered out: ARI, else the first shown
    st.session_state["atlas_index"] = "ari" if "ari" in choices else choices[0]
st.session_state.setdefault("atlas_property", "distance")
index_id = index_box.selectbox("Index", choices, format_func=_index_name, key="atlas_index")
prop_id = property_box.selectbox("Property", list(PROPERTIES), format_func=_property_name, key="atlas_property")
row = frame[(frame["index"] == index_id) & (frame["property"] == prop_id)].iloc[0]
prop = PROPERTIES[prop_id]
st.markdown(f"*{ui.plain(prop.name)}* ({ui.plain(prop.source)}): {ui.plain(prop.definition)}")
if row["state"] == "proved":
    st.success(ui.plain(f"Proved: {PROVED[(index_id, prop_id)]}. No counterexample among the {row['tried']:,} cases "
                        "the search tried."))
elif row["state"] == "holds":
    st.info(f"Holds on every case tried: {row['tried']:,} cases, none a counterexample. No proof is cited here; "
            "a search is evidence, not a proof.")
elif row["state"] == "fails":
    with st.container(border=True):
        examples.show(counterexample(index_id, prop_id), key="atlas_example")
else:
    st.info(f"{STATES.get(row['state'], row['state'])}: the atlas was built before this index was added; "
            "`cluval atlas --search` searches it too.")
