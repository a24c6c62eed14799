"""Index reference: the registry rendered for reading."""

import streamlit as st

from cluval_core import FAMILIES, INDICES
from pages import _shared as ui

ui.require_frame("pages/index_reference.py")

st.title("Index reference")
st.markdown("Every index cluval computes, from the one registry that also drives the Compare page and the tests. "
            "Notation: n_ij objects shared by reference cluster i (size r_i) and candidate cluster j (size c_j), "
            "N objects, K_a and K_b clusters; a, b, c, d the pairs together in both, only in the reference, only "
            "in the candidate, apart in both; H entropies in nats.")

query = st.text_input("Filter", placeholder="e.g. chance, pair, centroid", key="reference_filter").strip().lower()
for family, title in FAMILIES.items():
    entries = [info for info in INDICES.values() if info.family == family and
               (not query or query in (info.name + info.id + info.caveat + info.reference).lower())]
    if not entries:
        continue
    st.header(title)
    for info in entries:
        with st.expander(f"{info.name} (`{info.id}`)", expanded=bool(query)):
            st.latex(info.formula)
            facts = [f"range [{info.range[0]:g}, {info.range[1]:g}]",
                     f"best {info.best:g} ({'higher' if info.higher_is_better else 'lower'} is better)",
                     "corrected for chance" if info.chance_adjusted else "not corrected for chance",
                     "symmetric" if info.symmetric else "not symmetric",
                     "needs the data X" if info.needs_data else "needs only the labels"]
            st.markdown(" · ".join(facts))
            st.markdown(f"**When it misleads.** {info.caveat}")
            st.caption(f"Reference: {info.reference}")
