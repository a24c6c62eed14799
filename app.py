"""cluval: the app's frame. The sidebar is declared here so its state survives page switches."""

import streamlit as st

st.set_page_config(page_title="cluval: external cluster validity", page_icon="🧩", layout="wide")

from pages import _shared as ui  # noqa: E402 - after set_page_config

PAGES = [
    st.Page("pages/compare.py", title="Compare", icon="🔍", default=True),
    st.Page("pages/why_disagree.py", title="Why indices disagree", icon="📈"),
    st.Page("pages/psi_vs_ari.py", title="PSI vs ARI on imbalanced data", icon="⚖️"),
    st.Page("pages/soft.py", title="Soft partitions", icon="☁️"),
    st.Page("pages/your_data.py", title="Your data", icon="📄"),
    st.Page("pages/index_reference.py", title="Index reference", icon="📚"),
]

navigation = st.navigation(PAGES)
st.session_state["selection"] = ui.sidebar()
navigation.run()
