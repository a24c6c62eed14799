"""cluval: the app's frame. The sidebar is declared here so its state survives page switches."""

import streamlit as st

# An emoji icon is drawn by the browser itself (a data: URL); a ":material/...:" page icon would be
# fetched from a font CDN on every page load. The st.Page icons come from Streamlit's bundled font.
st.set_page_config(page_title="cluval: external cluster validity", page_icon="📊", layout="wide")

from pages import _shared as ui  # noqa: E402 - after set_page_config

# Each page and the sidebar controls it uses; the others are hidden there, keep their values,
# and nothing is loaded or clustered for them.
PAGES = {
    st.Page("pages/compare.py", title="Compare", icon=":material/compare:", default=True): ui.ALL_CONTROLS,
    st.Page("pages/why_disagree.py", title="Why indices disagree", icon=":material/show_chart:"): set(),
    st.Page("pages/build_table.py", title="Build a table", icon=":material/grid_on:"): set(),
    st.Page("pages/psi_vs_ari.py", title="PSI vs ARI on imbalanced data", icon=":material/balance:"): set(),
    st.Page("pages/soft.py", title="Soft partitions", icon=":material/blur_on:"): {ui.DATASET, ui.REFERENCE},
    st.Page("pages/many_clusterings.py", title="Many clusterings", icon=":material/stacks:"): {ui.DATASET},
    st.Page("pages/your_data.py", title="Your data", icon=":material/upload_file:"): set(),
    st.Page("pages/reproduce.py", title="Reproduce the papers", icon=":material/science:"): set(),
    st.Page("pages/index_reference.py", title="Index reference", icon=":material/menu_book:"): set(),
}
CONTROLS = {page.url_path: controls for page, controls in PAGES.items()}

# st.navigation first, then the shared widgets: declared before it, the widgets lost their
# state on page switches in a real browser (tests/test_browser.py checks this).
navigation = st.navigation(list(PAGES))
with ui.guarded("Showing the page"):  # the last resort: a short message, never a traceback
    deep_link = st.session_state.pop("_deep_link", None)  # see ui.require_frame
    if deep_link:
        st.switch_page(deep_link)
    st.session_state["selection"] = ui.sidebar(CONTROLS[navigation.url_path])
    navigation.run()
