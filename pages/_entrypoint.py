"""cluval: the script Streamlit runs for every page (app.py names it), the frame around the pages.

The sidebar is declared here so that its state survives page switches. This file sits inside
pages/ so that no ``pages/`` folder sits beside it: beside Streamlit's main script, such a
folder switches on Streamlit's older pages-directory mode, in which a fresh server listed the
modules of pages/ in the sidebar and ran a linked page without this frame.
"""

import streamlit as st

# An emoji icon is drawn by the browser itself (a data: URL); a ":material/...:" page icon would be
# fetched from a font CDN on every page load. The st.Page icons come from Streamlit's bundled font.
st.set_page_config(page_title="cluval: external cluster validity", page_icon="📊", layout="wide")

COMPARE = st.Page("compare.py", title="Compare", icon=":material/compare:", default=True, url_path="")
SOFT = st.Page("soft.py", title="Soft partitions", icon=":material/blur_on:")
MANY = st.Page("many_clusterings.py", title="Many clusterings", icon=":material/stacks:")
TREES = st.Page("hierarchies.py", title="Hierarchies", icon=":material/account_tree:")
COVERS = st.Page("overlapping.py", title="Overlapping clusterings", icon=":material/join_inner:")
PAGES = [
    COMPARE,
    st.Page("lessons.py", title="Lessons", icon=":material/school:"),
    st.Page("why_disagree.py", title="Why indices disagree", icon=":material/show_chart:"),
    st.Page("disagreement_real.py", title="Disagreement on real data", icon=":material/compare_arrows:"),
    st.Page("build_table.py", title="Build a table", icon=":material/grid_on:"),
    st.Page("property_atlas.py", title="Property atlas", icon=":material/fact_check:"),
    st.Page("psi_vs_ari.py", title="PSI vs ARI on imbalanced data", icon=":material/balance:"),
    SOFT,
    MANY,
    TREES,
    COVERS,
    st.Page("your_data.py", title="Your data", icon=":material/upload_file:"),
    st.Page("reproduce.py", title="Reproduce the papers", icon=":material/science:"),
    st.Page("index_reference.py", title="Index reference", icon=":material/menu_book:"),
]
# The default page's address is "/"; a link may also name it by its file, /compare.
COMPARE_BY_NAME = st.Page("compare.py", title="Compare", url_path="compare", visibility="hidden")

# The navigation before the slow imports below, so that it shows at once; the shared widgets
# after it: declared before it, they lost their state on page switches in a real browser
# (tests/test_browser.py checks this).
navigation = st.navigation([*PAGES, COMPARE_BY_NAME], expanded=True)  # every page listed, none behind "View more"

from pages import _charts as charts  # noqa: E402 - after the navigation
from pages import _shared as ui  # noqa: E402

# The sidebar controls of each page that has any; the others are hidden there, keep their
# values, and nothing is loaded or clustered for them.
CONTROLS = {COMPARE: ui.ALL_CONTROLS, COMPARE_BY_NAME: ui.ALL_CONTROLS, SOFT: {ui.DATASET, ui.REFERENCE},
            MANY: {ui.DATASET}, TREES: {ui.DATASET}, COVERS: {ui.DATASET}}

with ui.guarded("Showing the page"):  # the last resort: a short message, never a traceback
    st.session_state["selection"] = ui.sidebar(CONTROLS.get(navigation, set()), navigation.title)
    charts.format_control()
    try:
        navigation.run()
    finally:  # also when the page stops early: the URL as this run left it, for Back and page switches
        ui.remember_url(navigation.title)
