"""cluval's app: ``streamlit run app.py`` serves it.

Streamlit runs pages/_entrypoint.py for every page, the frame with the navigation and the shared
sidebar. That script lives inside pages/ because a ``pages/`` folder beside Streamlit's main
script switches on Streamlit's older pages-directory mode until some run calls st.navigation:
on a fresh server the first visitor saw the modules of pages/ listed in the sidebar, and a link
to a page ran that page without the frame.
"""

import streamlit as st

app = st.App("pages/_entrypoint.py")
